//! Hostile input to the problem readers, `solve`'s output and `verify`, run
//! through the real binary: matrix rows that disagree with their lines,
//! repeated rows, the empty solution, byte-order marks, CR line ends and
//! control characters in names.

use crate::common;

use std::path::PathBuf;

use common::run;
use proptest::prelude::*;

/// Writes `text` to a file of its own in the run's scratch folder.
fn file(name: &str, text: &[u8]) -> PathBuf {
    let dir = common::scratch_path("readers");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// `solve` in `format`, then `verify` of its knuth output: every verdict ok.
fn solve_then_verify(name: &str, problem: &[u8], input: &str) -> String {
    let path = file(name, problem);
    let path = path.to_str().unwrap();
    let (status, solutions, stderr) = run(&["solve", "--input", input, path], b"");
    assert_eq!(status, Some(0), "{name}: {stderr}");
    let (status, verdicts, stderr) = run(
        &["verify", "--input", input, path, "-"],
        solutions.as_bytes(),
    );
    assert_eq!(status, Some(0), "{name}: {verdicts}{stderr}\n{solutions}");
    assert!(
        !verdicts.is_empty() && verdicts.lines().all(|l| l == "ok"),
        "{name}: {verdicts}"
    );
    solutions
}

#[test]
fn a_matrix_row_that_disagrees_with_its_line_is_an_error_in_every_command() {
    for (text, message) in [
        (
            "2 3\n3 1 2\n3\n",
            "<stdin>:2:1: the row declares 3 ones, but its line holds 2 column numbers",
        ),
        (
            "2 3\n1 1 2\n1 3\n",
            "<stdin>:2:5: the row declares 1 ones, but its line holds 2 column numbers",
        ),
        (
            "1 3\n1 1 2 3\n",
            "<stdin>:2:5: the row declares 1 ones, but its line holds 3 column numbers",
        ),
    ] {
        for command in [
            &["solve"][..],
            &["count"],
            &["cover", "--min"],
            &["estimate"],
        ] {
            let args = [command, &["--input", "matrix", "-"]].concat();
            let (status, stdout, stderr) = run(&args, text.as_bytes());
            assert_eq!(status, Some(2), "{command:?} {text:?}: {stdout}{stderr}");
            assert_eq!(stderr, format!("exactly: {message}\n"), "{command:?}");
        }
    }
    // `verify` reads its problem the same way.
    let solutions = file("row.solutions", b"1 1\n");
    let (status, _, stderr) = run(
        &[
            "verify",
            "--input",
            "matrix",
            "-",
            solutions.to_str().unwrap(),
        ],
        b"2 3\n1 1 2\n1 3\n",
    );
    assert_eq!(status, Some(2));
    assert!(
        stderr.contains("<stdin>:2:5: the row declares 1 ones"),
        "{stderr}"
    );
}

#[test]
fn repeated_rows_get_unique_labels_that_verify_reads() {
    let problem = b"4 2\n1 1\n1 1\n1 2\n1 1\n";
    let out = solve_then_verify("rep.mat", problem, "matrix");
    let mut labels: Vec<&str> = out.lines().filter(|l| l.starts_with("1 1")).collect();
    labels.sort_unstable();
    assert_eq!(labels, ["1 1", "1 1 | line 3", "1 1 | line 5"], "{out}");
    // The same through `--input auto`.
    solve_then_verify("rep-auto.mat", problem, "auto");
}

#[test]
fn solve_output_verifies_for_every_input_format() {
    let dlx: &[u8] = b"2|a b | x\na x:1\na x:1\nb\na b\nx:2 a\n";
    solve_then_verify("dlx", dlx, "dlx");
    solve_then_verify("dlx-auto", dlx, "auto");
    let mat: &[u8] = b"4 3\n2 1 2\n1 3\n2 1 2\n1 3\n";
    solve_then_verify("mat", mat, "matrix");
    solve_then_verify("mat-auto", mat, "auto");
}

#[test]
fn the_empty_solution_is_visible_in_every_format() {
    let problem = b"0:1|a\na\n";
    let (status, out, _) = run(&["solve", "-"], problem);
    assert_eq!((status, out.as_str()), (Some(0), "a\n\n| empty solution\n"));
    let (status, out, _) = run(&["solve", "--format", "json", "-"], problem);
    assert_eq!(status, Some(0));
    assert_eq!(
        out.lines().nth(1),
        Some(r#"{"solution":2,"options":[],"indices":[]}"#)
    );
    let (status, out, _) = run(&["solve", "--format", "indices", "-"], problem);
    assert_eq!((status, out.as_str()), (Some(0), "0\n\n"));
    let out = solve_then_verify("empty.dlx", problem, "dlx");
    assert_eq!(out.matches("| empty solution").count(), 1);
    // Alone, the empty solution is the whole output.
    let out = solve_then_verify("only-empty.dlx", b"0:2|a\n", "dlx");
    assert_eq!(out, "| empty solution\n");
    // With costs too.
    let (status, out, _) = run(&["solve", "--best", "2", "-"], b"0:1|a\na |3\n");
    assert_eq!(
        (status, out.as_str()),
        (Some(0), "| cost 0\n| empty solution\n\n| cost 3\na |3\n")
    );
    // It is checked like any other: here `a` must be covered.
    let problem = file("needs-a.dlx", b"a\na\n");
    let (status, verdicts, _) = run(
        &["verify", problem.to_str().unwrap(), "-"],
        b"| empty solution\n",
    );
    assert_eq!(status, Some(1));
    assert!(
        verdicts.contains("primary item 'a' is covered 0 times"),
        "{verdicts}"
    );
}

#[test]
fn byte_order_marks_and_every_line_end_read_alike() {
    let lf = b"a b c\nc\na b\nb\na\n".to_vec();
    let (status, expected, _) = run(&["solve", "-"], &lf);
    assert_eq!(status, Some(0));
    let variants: [Vec<u8>; 4] = [
        [b"\xef\xbb\xbf".as_slice(), &lf].concat(),
        String::from_utf8(lf.clone())
            .unwrap()
            .replace('\n', "\r\n")
            .into_bytes(),
        String::from_utf8(lf.clone())
            .unwrap()
            .replace('\n', "\r")
            .into_bytes(),
        b"\xef\xbb\xbfa b c\rc\r\na b\nb\ra".to_vec(),
    ];
    for text in &variants {
        for command in ["solve", "count"] {
            let (status, out, stderr) = run(&[command, "-"], text);
            assert_eq!(status, Some(0), "{text:?}: {stderr}");
            if command == "solve" {
                assert_eq!(out, expected, "{text:?}");
            }
        }
    }
    // Errors count lines at CR ends too, and columns after the mark.
    let (status, _, stderr) = run(&["count", "-"], b"\xef\xbb\xbfa b\rc\r");
    assert_eq!(status, Some(2));
    assert_eq!(stderr, "exactly: <stdin>:2:1: unknown item 'c'\n");
    // A solutions file with CR line ends verifies.
    let problem = file("cr.dlx", &variants[2]);
    let solutions = expected.replace('\n', "\r");
    let (status, verdicts, _) = run(
        &["verify", problem.to_str().unwrap(), "-"],
        solutions.as_bytes(),
    );
    assert_eq!((status, verdicts.as_str()), (Some(0), "ok\nok\n"));
    // The matrix format too.
    let (status, out, _) = run(
        &["count", "--input", "auto", "-"],
        b"\xef\xbb\xbf2 2\r1 1\r1 2\r",
    );
    assert_eq!((status, out.trim()), (Some(0), "1"));
}

#[test]
fn control_characters_in_names_are_escaped_in_messages() {
    let problem = b"a\x1b[2J b\na\x1b[2J b\nb c\x07\n";
    for command in [
        &["solve"][..],
        &["count"],
        &["cover", "--min"],
        &["estimate"],
        &["plan"],
    ] {
        let args = [command, &["-"]].concat();
        let (status, _, stderr) = run(&args, problem);
        assert_eq!(status, Some(2), "{command:?}");
        assert_eq!(
            stderr, "exactly: <stdin>:3:3: unknown item 'c\\u{7}'\n",
            "{command:?}"
        );
    }
    // A file name with an escape byte, and the verdicts of verify.
    let solutions = file("esc\x1b.txt", b"b\x1b a\x1b\n");
    let (status, verdicts, stderr) = run(
        &["verify", "-", solutions.to_str().unwrap()],
        b"a\x1b b\na\x1b b\n",
    );
    assert_eq!(status, Some(1), "{stderr}");
    assert!(
        !verdicts.contains('\x1b') && !stderr.contains('\x1b'),
        "{verdicts}{stderr}"
    );
    assert!(
        verdicts.contains("found 'b\\u{1b}'") && verdicts.contains("esc\\u{1b}.txt:1:1"),
        "{verdicts}"
    );
    // The trace names items and options on stderr.
    let (status, _, stderr) = run(&["solve", "--trace", "-"], b"a\x1b\na\x1b\n");
    assert_eq!(status, Some(0));
    assert!(
        !stderr.contains('\x1b') && stderr.contains("a\\u{1b}"),
        "{stderr}"
    );
    // Errors from opening files.
    let (status, _, stderr) = run(&["count", "no\x1bsuch"], b"");
    assert_eq!(status, Some(2));
    assert!(
        !stderr.contains('\x1b') && stderr.contains("no\\u{1b}such"),
        "{stderr}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Whatever `solve` prints for a small random matrix, `verify` accepts,
    /// repeated rows, empty rows and blank lines included.
    #[test]
    fn solve_then_verify_random_matrices(
        rows in proptest::collection::vec(proptest::collection::btree_set(1u8..=4, 0..=3), 1..8),
        crlf in any::<bool>(),
    ) {
        let end = if crlf { "\r\n" } else { "\n" };
        let mut text = format!("{} 4{end}", rows.len());
        for r in &rows {
            let cols: Vec<String> = r.iter().map(u8::to_string).collect();
            text.push_str(&format!("{} {}{end}", r.len(), cols.join(" ")));
        }
        let path = file(&format!("random-{}.mat", text.len() * 31 + rows.len()), text.as_bytes());
        let path = path.to_str().unwrap();
        let (status, solutions, _) = run(&["solve", "--input", "matrix", path], b"");
        if status == Some(0) {
            let (status, verdicts, stderr) = run(
                &["verify", "--input", "matrix", path, "-"],
                solutions.as_bytes(),
            );
            prop_assert_eq!(status, Some(0), "{}{}{}", text, verdicts, stderr);
        } else {
            prop_assert_eq!(status, Some(1));
        }
    }
}
