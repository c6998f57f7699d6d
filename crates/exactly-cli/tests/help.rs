//! `--help` of `exactly` and of every subcommand, against golden files in
//! `testdata/cli/help/` (rewritten with `EXACTLY_BLESS=1`), and the example
//! each subcommand's `--help` ends with, run as a user would run it.
//!
//! The subcommands are read from `exactly --help`, so a new subcommand
//! fails here until it has a golden help file and an example that runs.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::{root, run};

/// The subcommands listed by `exactly --help` (without `help`).
fn subcommands() -> Vec<String> {
    let (status, stdout, _) = run(&["--help"], b"");
    assert_eq!(status, Some(0));
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

#[test]
fn help_matches_the_golden_files() {
    if cfg!(feature = "mpi") {
        // The golden files are the default build's help, without --mpi.
        return;
    }
    let bless = std::env::var_os("EXACTLY_BLESS").is_some();
    let dir = root().join("testdata/cli/help");
    let mut pages = vec![("exactly".to_string(), vec!["--help".to_string()])];
    for sub in subcommands() {
        pages.push((sub.clone(), vec![sub, "--help".to_string()]));
    }
    assert!(pages.len() > 10, "exactly --help lists the subcommands");
    let mut failures = Vec::new();
    for (name, args) in &pages {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (status, stdout, stderr) = run(&args, b"");
        assert_eq!(status, Some(0), "exactly {args:?}: {stderr}");
        let path = dir.join(format!("{name}.txt"));
        if bless {
            std::fs::create_dir_all(&dir).expect("create testdata/cli/help");
            std::fs::write(&path, &stdout).expect("write the golden help");
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        if expected != stdout {
            failures.push(format!("exactly {}", args.join(" ")));
        }
    }
    assert!(
        failures.is_empty(),
        "help differs from testdata/cli/help/ for: {} (EXACTLY_BLESS=1 rewrites the files)",
        failures.join(", ")
    );
}

/// The command after `Example:` at the end of a `--help` text.
fn example(help: &str) -> Option<String> {
    let (_, tail) = help.rsplit_once("\nExample:\n")?;
    let command: Vec<&str> = tail
        .lines()
        .map(|l| l.trim().trim_start_matches("$ "))
        .filter(|l| !l.is_empty())
        .collect();
    (command.len() == 1).then(|| command[0].to_string())
}

#[test]
fn every_subcommand_help_ends_with_an_example_that_runs() {
    // Examples name files under testdata/ (as a user in the repository
    // would) and may write files of their own: they run in a scratch
    // directory holding a link to the crate's testdata/.
    let scratch = common::scratch_path("help-examples");
    std::fs::create_dir_all(&scratch).unwrap();
    let link = scratch.join("testdata");
    if !link.exists() {
        std::os::unix::fs::symlink(root().join("testdata"), &link).unwrap();
    }
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_exactly")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for sub in subcommands() {
        let (_, help, _) = run(&[&sub, "--help"], b"");
        let Some(command) = example(&help) else {
            panic!("exactly {sub} --help does not end with one example command:\n{help}");
        };
        assert!(
            command.starts_with(&format!("exactly {sub}"))
                || command.contains(&format!("| exactly {sub}"))
                || command.contains(&format!("&& exactly {sub}")),
            "the example of exactly {sub} runs another subcommand: {command}"
        );
        let output = Command::new("sh")
            .arg("-c")
            .arg(format!("set -e; {command} > /dev/null"))
            .current_dir(&scratch)
            .env("PATH", &path)
            .env("HOME", &scratch)
            .output()
            .expect("sh runs");
        assert!(
            output.status.success(),
            "the example of exactly {sub} failed: {command}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
