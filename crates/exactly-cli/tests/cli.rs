//! Runs the real `exactly` binary against golden files.
//!
//! Each case of [`CASES`] runs `exactly` from the workspace root with some
//! arguments (and optionally some bytes on stdin); its exit status, stdout and
//! stderr must match `testdata/cli/<name>.expected`. Lines of `--stats` output
//! that give the time are replaced by `time: <elapsed>`. Run with
//! `EXACTLY_BLESS=1` to rewrite the expected files after a deliberate change.

use crate::common;

use std::io::Read;
use std::process::Stdio;

use common::{exactly, root, run};
use proptest::prelude::*;

/// One golden case: a name, the arguments, and what to feed on stdin.
struct Case {
    name: &'static str,
    args: &'static [&'static str],
    stdin: Option<&'static [u8]>,
}

const fn case(name: &'static str, args: &'static [&'static str]) -> Case {
    Case {
        name,
        args,
        stdin: None,
    }
}

const fn piped(name: &'static str, args: &'static [&'static str], stdin: &'static [u8]) -> Case {
    Case {
        name,
        args,
        stdin: Some(stdin),
    }
}

const KNUTH: &str = "testdata/knuth-example.dlx";
const COLORS: &str = "testdata/colors.dlx";
const MATRIX: &str = "testdata/knuth-example.mat";
const INDEPENDENT: &str = "testdata/independent.dlx";
const QUEENS: &str = "testdata/queens-13.dlx";

const CASES: &[Case] = &[
    // solve, in every output format
    case("solve-knuth", &["solve", KNUTH]),
    case("solve-json", &["solve", "--format", "json", KNUTH]),
    case("solve-indices", &["solve", "--format", "indices", KNUTH]),
    case("solve-colors", &["solve", COLORS]),
    case("solve-colors-json", &["solve", COLORS, "--format=json"]),
    case("solve-limit", &["solve", "--limit", "2", COLORS]),
    case("solve-matrix", &["solve", "--input", "matrix", MATRIX]),
    case(
        "solve-matrix-indices",
        &["solve", "--input=matrix", "--format=indices", MATRIX],
    ),
    case("solve-none", &["solve", "-"]).with_stdin(b"a b c\na b\nb c\n"),
    // count
    case("count-knuth", &["count", KNUTH]),
    case("count-colors", &["count", COLORS]),
    case("count-independent", &["count", INDEPENDENT]),
    case("count-matrix", &["count", "--input", "matrix", MATRIX]),
    case("count-matrix-auto", &["count", "--input", "auto", MATRIX]),
    case("count-auto-dlx", &["count", "--input", "auto", KNUTH]),
    case("count-none", &["count", "-"]).with_stdin(b"a b c\na b\nb c\n"),
    case(
        "count-stats",
        &["count", "--stats", "--threads", "1", KNUTH],
    ),
    case(
        "count-stats-links",
        &[
            "count",
            "--stats",
            "--engine",
            "links",
            "--threads",
            "1",
            KNUTH,
        ],
    ),
    // standard input, named or implied
    piped(
        "stdin-dash",
        &["count", "-"],
        include_bytes!("../testdata/knuth-example.dlx"),
    ),
    piped(
        "stdin-implied",
        &["solve"],
        include_bytes!("../testdata/knuth-example.dlx"),
    ),
    // budgets: partial results and exit status 3
    case(
        "count-max-nodes",
        &["count", "--max-nodes", "5", INDEPENDENT],
    ),
    case(
        "count-max-nodes-queens",
        &["count", "--max-nodes", "5", QUEENS],
    ),
    case(
        "solve-max-nodes",
        &[
            "solve",
            "--max-nodes",
            "7",
            "--format",
            "indices",
            INDEPENDENT,
        ],
    ),
    case("count-limit", &["count", "--limit", "2", COLORS]),
    // teaching traces
    case("trace-knuth", &["solve", "--trace", KNUTH]),
    case("trace-colors", &["count", "--trace", COLORS]),
    // warnings do not change the exit status
    piped(
        "warning-dropped-option",
        &["solve", "-"],
        b"| c\na b | x y\n\nx\na\n  x y\nb\n",
    ),
    // bad input: file:line:column, status 2
    piped("bad-unknown-item", &["count", "-"], b"a b\na c\n"),
    piped("bad-second-bar", &["count", "-"], b"a | b | c\n"),
    piped(
        "bad-color-on-primary",
        &["count", "-"],
        b"a b | x\na b:red\n",
    ),
    piped("bad-cost", &["count", "-"], b"a\na |x\n"),
    piped("bad-empty", &["count", "-"], b""),
    piped("bad-utf8", &["count", "-"], b"a b\nb \xff a\n"),
    piped(
        "bad-matrix-column",
        &["count", "--input", "matrix", "-"],
        b"1 3\n1 4\n",
    ),
    piped(
        "bad-matrix-auto",
        &["count", "--input", "auto", "-"],
        b"2 3\n1 1\n",
    ),
    case("bad-matrix-as-dlx", &["count", MATRIX]),
    case(
        "bad-missing-file",
        &["count", "testdata/cli/no-such-file.dlx"],
    ),
    // usage errors
    case("usage-unknown-flag", &["count", "--frobnicate", KNUTH]),
    case("usage-limit-zero", &["solve", "--limit", "0", KNUTH]),
    case("usage-bad-format", &["solve", "--format", "xml", KNUTH]),
    case("usage-bad-timeout", &["count", "--timeout=-1", KNUTH]),
    // verify
    case(
        "verify-ok",
        &["verify", COLORS, "testdata/cli/colors-good.solutions"],
    ),
    case(
        "verify-fail",
        &["verify", COLORS, "testdata/cli/colors-bad.solutions"],
    ),
    piped(
        "verify-stdin",
        &["verify", KNUTH, "-"],
        b"b g\nc e\na d f\n",
    ),
    piped(
        "verify-empty",
        &["verify", KNUTH, "-"],
        b"\n| nothing here\n",
    ),
    case("verify-both-stdin", &["verify", "-", "-"]),
];

impl Case {
    const fn with_stdin(self, stdin: &'static [u8]) -> Case {
        Case {
            stdin: Some(stdin),
            ..self
        }
    }
}

fn render(status: Option<i32>, stdout: &str, stderr: &str) -> String {
    let stderr: String = stderr
        .lines()
        .map(|l| {
            if l.starts_with("time: ") {
                "time: <elapsed>\n".to_string()
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let status = status.map_or("killed by a signal".to_string(), |c| c.to_string());
    format!("status: {status}\n--- stdout\n{stdout}--- stderr\n{stderr}")
}

#[test]
fn golden_cases() {
    let bless = std::env::var_os("EXACTLY_BLESS").is_some();
    let dir = root().join("testdata/cli");
    let mut failures = Vec::new();
    for case in CASES {
        let (status, stdout, stderr) = run(case.args, case.stdin.unwrap_or(b""));
        let actual = render(status, &stdout, &stderr);
        let path = dir.join(format!("{}.expected", case.name));
        if bless {
            std::fs::write(&path, &actual).expect("write the expected file");
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        if actual != expected {
            failures.push(format!(
                "case {} (exactly {}):\n--- expected\n{expected}--- actual\n{actual}",
                case.name,
                case.args.join(" ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_expected_file_has_a_case() {
    let dir = root().join("testdata/cli");
    for entry in std::fs::read_dir(dir).expect("testdata/cli exists") {
        let name = entry.expect("a directory entry").file_name();
        let name = name.to_string_lossy();
        if let Some(stem) = name.strip_suffix(".expected") {
            assert!(
                CASES.iter().any(|c| c.name == stem),
                "{name} belongs to no case"
            );
        }
    }
}

#[test]
fn closed_stdout_ends_quietly() {
    let mut child = exactly()
        .args(["solve", QUEENS])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the exactly binary starts");
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let mut first = [0u8; 64];
    stdout.read_exact(&mut first).expect("some output");
    drop(stdout);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr is piped")
        .read_to_string(&mut stderr)
        .expect("stderr is text");
    let status = child.wait().expect("exactly ends");
    assert_eq!(status.code(), Some(0), "stderr: {stderr}");
    assert_eq!(stderr, "");
}

#[test]
fn solve_output_verifies() {
    for (problem, input) in [
        (KNUTH, "dlx"),
        (COLORS, "dlx"),
        (INDEPENDENT, "dlx"),
        (MATRIX, "matrix"),
    ] {
        let (status, solutions, _) = run(&["solve", "--input", input, problem], b"");
        assert_eq!(status, Some(0));
        let (status, verdicts, stderr) = run(
            &["verify", "--input", input, problem, "-"],
            solutions.as_bytes(),
        );
        assert_eq!(status, Some(0), "{problem}: {verdicts}{stderr}");
        assert!(verdicts.lines().all(|l| l == "ok"), "{problem}: {verdicts}");
    }
}

#[test]
fn timeout_stops_early() {
    let (status, stdout, stderr) = run(&["count", "--timeout", "0.000001", QUEENS], b"");
    assert_eq!(status, Some(3));
    assert_eq!(stderr, "exactly: stopped early: time limit reached\n");
    let partial: u128 = stdout.trim_end().parse().expect("a partial count");
    assert!(partial < 73712);
}

#[test]
fn seeded_runs_find_the_same_solutions() {
    let sorted = |text: String| {
        let mut v: Vec<String> = text
            .lines()
            .map(|l| {
                let mut i: Vec<u32> = l.split(' ').map(|t| t.parse().expect("an index")).collect();
                i.sort_unstable();
                format!("{i:?}")
            })
            .collect();
        v.sort();
        v
    };
    let plain = run(&["solve", "--format", "indices", COLORS], b"");
    for seed in ["1", "2", "12345"] {
        let seeded = run(
            &["solve", "--format", "indices", "--seed", seed, COLORS],
            b"",
        );
        assert_eq!(seeded.0, Some(0));
        assert_eq!(
            sorted(seeded.1.clone()),
            sorted(plain.1.clone()),
            "seed {seed}"
        );
        let again = run(
            &["solve", "--format", "indices", "--seed", seed, COLORS],
            b"",
        );
        assert_eq!(again.1, seeded.1, "seed {seed} repeats");
    }
}

#[test]
fn help_documents_exit_codes() {
    for args in [
        &["--help"][..],
        &["solve", "--help"],
        &["count", "--help"],
        &["verify", "--help"],
    ] {
        let (status, stdout, _) = run(args, b"");
        assert_eq!(status, Some(0));
        assert!(stdout.contains("Exit status:"), "{args:?}");
        assert!(stdout.contains("3  stopped early by a budget"), "{args:?}");
    }
    let (status, _, stderr) = run(&[], b"");
    assert_eq!(status, Some(2));
    assert!(stderr.contains("Usage:"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Arbitrary text on stdin never crashes `exactly count -`: the status is
    /// one of the documented ones, and an error is one line.
    #[test]
    fn arbitrary_input_never_crashes(text in "[abc12 |:x\n]{0,40}") {
        let (status, stdout, stderr) =
            run(&["count", "--max-nodes", "100000", "-"], text.as_bytes());
        prop_assert!(matches!(status, Some(0..=3)), "status {:?}, stderr {}", status, stderr);
        if status == Some(2) {
            prop_assert_eq!(stdout, "");
            prop_assert_eq!(stderr.lines().filter(|l| !l.contains("warning:")).count(), 1);
            prop_assert!(stderr.starts_with("exactly: <stdin>:"), "{}", stderr);
        } else {
            let first = stdout.lines().next().unwrap_or_default();
            prop_assert!(first.parse::<u128>().is_ok(), "{}", stdout);
        }
    }
}
