//! `exactly` against Knuth's own programs, one thread to one thread, whole
//! processes on the same files.
//!
//! ```sh
//! cargo build --release -p exactly-cli          # in the main workspace
//! cd bench && DLX1=... SSXC1=... DLX2=... SSXCC=... DLX3=... DLX5=... \
//!     cargo run --release --bin knuth -- [--runs N] [--only NAME]
//! ```
//!
//! Each Knuth program is found through the environment variable of its name
//! and skipped when it is unset (none is part of this repository; build them
//! from their literate sources with `ctangle` and a C compiler). `exactly` is
//! `../target/release/exactly`, or the path in `EXACTLY`. Instances are the
//! repository's test files, files this program writes (a min-cost queens
//! problem), and files made by Knuth's generators, looked up in the folder
//! `KNUTH_INSTANCES` and skipped when absent:
//!
//! - `de-bruijn-2-4-6.dlx`: `de-bruijn-dlx 2 4 6`;
//! - `macmahon-hexagon.dlx`: `macmahon-triangles-dlx` (the hexagon board).
//!
//! Every run's solution count is checked against the others' (Knuth's
//! programs print it on stderr as `Altogether N solutions`). The ratio is
//! exactly's time over the fastest Knuth program of the family: below 1,
//! exactly is faster.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    Xc,
    Xcc,
    Mcc,
    Costs,
}

impl Family {
    fn name(self) -> &'static str {
        match self {
            Family::Xc => "XC",
            Family::Xcc => "XCC",
            Family::Mcc => "MCC",
            Family::Costs => "costs",
        }
    }

    /// Knuth's programs for the family, fastest usually last.
    fn programs(self) -> &'static [&'static str] {
        match self {
            Family::Xc => &["DLX1", "SSXC1"],
            Family::Xcc => &["DLX2", "SSXCC"],
            Family::Mcc => &["DLX3"],
            Family::Costs => &["DLX5"],
        }
    }
}

struct Case {
    name: String,
    family: Family,
    file: PathBuf,
    /// exactly's arguments before the file.
    args: Vec<&'static str>,
    /// Arguments for Knuth's program (DLX5 takes a limit on solutions).
    knuth_args: Vec<&'static str>,
}

/// Min-cost n queens: placing a queen on (i, j) costs (37i + 91j + 13ij)
/// mod 100; rows and columns primary, diagonals secondary.
fn costed_queens(n: usize) -> String {
    let mut s = format!("| {n} queens, cost (37i + 91j + 13ij) mod 100\n");
    for i in 0..n {
        write!(s, "r{i} ").unwrap();
    }
    for j in 0..n {
        write!(s, "c{j} ").unwrap();
    }
    s.push('|');
    for d in 0..2 * n - 1 {
        write!(s, " a{d} b{d}").unwrap();
    }
    s.push('\n');
    for i in 0..n {
        for j in 0..n {
            let cost = (37 * i + 91 * j + 13 * i * j) % 100;
            writeln!(s, "r{i} c{j} a{} b{} |{cost}", i + j, i + n - 1 - j).unwrap();
        }
    }
    s
}

fn suite(testdata: &Path, scratch: &Path) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut add = |name: &str, family, file: PathBuf, args: Vec<&'static str>, knuth_args| {
        cases.push(Case {
            name: name.to_string(),
            family,
            file,
            args,
            knuth_args,
        })
    };
    let count = || vec!["count", "--threads", "1"];
    for name in ["queens-13", "langford-12", "pentomino-6x10"] {
        add(
            name,
            Family::Xc,
            testdata.join(format!("{name}.dlx")),
            count(),
            vec![],
        );
    }
    if let Ok(dir) = std::env::var("KNUTH_INSTANCES") {
        for name in ["de-bruijn-2-4-6", "macmahon-hexagon"] {
            let file = Path::new(&dir).join(format!("{name}.dlx"));
            if file.exists() {
                add(name, Family::Xcc, file, count(), vec![]);
            }
        }
    }
    add(
        "queens-dominate-8",
        Family::Mcc,
        testdata.join("queens-dominate-8.dlx"),
        count(),
        vec![],
    );
    for n in [16, 20] {
        let file = scratch.join(format!("queens-{n}-costs.dlx"));
        std::fs::write(&file, costed_queens(n)).expect("scratch file");
        add(
            if n == 16 {
                "queens-16-min-cost"
            } else {
                "queens-20-min-cost"
            },
            Family::Costs,
            file,
            vec!["solve", "--min-cost"],
            vec![],
        );
    }
    cases
}

/// The file as Knuth's programs read it: colors renamed to single
/// characters (his programs take one character per color) when some color
/// is longer. Returns the path to feed them.
fn knuth_file(file: &Path, scratch: &Path) -> PathBuf {
    let text = std::fs::read_to_string(file).expect("instance file");
    let mut names: Vec<String> = Vec::new();
    let mut long = false;
    let mut out = String::with_capacity(text.len());
    let mut items_seen = false;
    for line in text.lines() {
        let first = line.trim_start();
        let blank_or_comment = first.is_empty() || first.starts_with('|');
        let is_item_line = !items_seen && !blank_or_comment;
        items_seen |= is_item_line;
        if is_item_line || blank_or_comment || !line.contains(':') {
            out.push_str(line);
        } else {
            let tokens: Vec<String> = line
                .split_whitespace()
                .map(|t| match t.split_once(':') {
                    Some((item, color)) if !item.is_empty() && !t.starts_with('|') => {
                        long |= color.chars().count() > 1;
                        let k = names.iter().position(|c| c == color).unwrap_or_else(|| {
                            names.push(color.to_string());
                            names.len() - 1
                        });
                        let code =
                            b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                .get(k)
                                .copied()
                                .expect("at most 62 colors");
                        format!("{item}:{}", code as char)
                    }
                    _ => t.to_string(),
                })
                .collect();
            out.push_str(&tokens.join(" "));
        }
        out.push('\n');
    }
    if !long {
        return file.to_path_buf();
    }
    let path = scratch.join(file.file_name().expect("a file name"));
    std::fs::write(&path, out).expect("scratch file");
    path
}

/// Runs a command with `file` on stdin (Knuth) or as its last argument
/// (exactly); best wall time of `runs`, with stdout and stderr of the last.
fn time(mut make: impl FnMut() -> Command, runs: usize) -> (Duration, String, String) {
    let mut best = Duration::MAX;
    let mut out = (String::new(), String::new());
    for _ in 0..runs {
        let start = Instant::now();
        let o = make()
            .stderr(Stdio::piped())
            .stdout(Stdio::piped())
            .output()
            .expect("the program runs");
        best = best.min(start.elapsed());
        out = (
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        );
    }
    (best, out.0, out.1)
}

/// `Altogether N solutions` in a Knuth program's report.
fn knuth_count(stderr: &str) -> Option<u128> {
    let at = stderr.find("Altogether ")?;
    stderr[at + 11..].split_whitespace().next()?.parse().ok()
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut runs = 3;
    if let Some(at) = args.iter().position(|a| a == "--runs") {
        runs = args.get(at + 1).and_then(|r| r.parse().ok()).unwrap_or(3);
        args.drain(at..(at + 2).min(args.len()));
    }
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|at| args.get(at + 1).cloned());
    let bench = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let exactly = std::env::var_os("EXACTLY")
        .map(PathBuf::from)
        .unwrap_or_else(|| bench.join("../target/release/exactly"));
    if !exactly.exists() {
        eprintln!(
            "knuth: {} not found: build it with `cargo build --release -p exactly-cli`, or set EXACTLY",
            exactly.display()
        );
        std::process::exit(2);
    }
    let scratch = std::env::temp_dir().join(format!("exactly-knuth-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch folder");
    let testdata = bench.join("../testdata");
    println!("| family | instance | exactly (s) | Knuth's programs (s) | fastest | ratio |");
    println!("| --- | --- | --- | --- | --- | --- |");
    for case in suite(&testdata, &scratch) {
        if only
            .as_ref()
            .is_some_and(|o| !case.name.contains(o.as_str()))
        {
            continue;
        }
        let (ours, out, err) = time(
            || {
                let mut c = Command::new(&exactly);
                c.args(&case.args).arg(&case.file);
                c
            },
            runs,
        );
        let our_count: Option<u128> = match case.family {
            Family::Costs => None,
            _ => out.lines().next().and_then(|l| l.trim().parse().ok()),
        };
        if case.family != Family::Costs && our_count.is_none() {
            eprintln!("knuth: exactly gave no count on {}: {err}", case.name);
            continue;
        }
        let mut knuth = Vec::new();
        let knuth_input = knuth_file(&case.file, &scratch);
        for &program in case.family.programs() {
            let Ok(path) = std::env::var(program) else {
                continue;
            };
            let (t, _, kerr) = time(
                || {
                    let mut c = Command::new(&path);
                    c.args(&case.knuth_args)
                        .stdin(std::fs::File::open(&knuth_input).expect("instance file"));
                    c
                },
                runs,
            );
            let Some(theirs) = knuth_count(&kerr) else {
                eprintln!("knuth: {program} failed on {}: {}", case.name, kerr.trim());
                continue;
            };
            if let Some(ours) = our_count {
                assert_eq!(
                    ours, theirs,
                    "{program} counts differently on {}",
                    case.name
                );
            }
            knuth.push((program, t));
        }
        let listed: Vec<String> = knuth
            .iter()
            .map(|(p, t)| format!("{p} {:.3}", t.as_secs_f64()))
            .collect();
        let fastest = knuth.iter().min_by_key(|(_, t)| *t);
        let (name, ratio) = match fastest {
            Some((p, t)) => (
                p.to_string(),
                format!("{:.2}", ours.as_secs_f64() / t.as_secs_f64()),
            ),
            None => ("–".into(), "–".into()),
        };
        println!(
            "| {} | {} | {:.3} | {} | {name} | {ratio} |",
            case.family.name(),
            case.name,
            ours.as_secs_f64(),
            if listed.is_empty() {
                "not set".into()
            } else {
                listed.join(", ")
            },
        );
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
