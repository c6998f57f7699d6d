//! The puzzle commands count what the literature says, and each `gen` file
//! counts the same through `exactly count` as its direct twin.

use crate::common;

use common::run;

/// Runs `exactly`; returns the exit status and stdout.
fn exactly(args: &[&str], stdin: Option<&[u8]>) -> (i32, String) {
    let (status, stdout, _) = run(args, stdin.unwrap_or_default());
    (status.unwrap_or(-1), stdout)
}

fn first_line(args: &[&str]) -> String {
    let (_, out) = exactly(args, None);
    out.lines().next().unwrap_or("").to_string()
}

fn gen_then_count(args: &[&str]) -> String {
    let (code, file) = exactly(args, None);
    assert_eq!(code, 0, "{args:?}");
    let (_, out) = exactly(&["count", "-"], Some(file.as_bytes()));
    out.lines().next().unwrap_or("").to_string()
}

#[test]
fn queens_counts_oeis_a000170() {
    let expected = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
    for (i, want) in expected.iter().enumerate() {
        let n = (i + 1).to_string();
        for order in ["organ", "plain"] {
            let direct = first_line(&["queens", &n, "--count", "--order", order]);
            assert_eq!(direct, want.to_string(), "queens {n} {order}");
            let via_file = gen_then_count(&["gen", "queens", &n, "--order", order]);
            assert_eq!(via_file, direct, "gen queens {n} {order}");
        }
    }
}

#[test]
fn langford_counts_oeis_a014552() {
    for (n, up_to_reversal) in [(3, 1), (4, 1), (5, 0), (6, 0), (7, 26), (8, 150)] {
        let n = n.to_string();
        let both = first_line(&["langford", &n, "--count"]);
        assert_eq!(both, (2 * up_to_reversal).to_string(), "langford {n}");
        let once = first_line(&["langford", &n, "--symbreak", "--count"]);
        assert_eq!(once, up_to_reversal.to_string(), "langford {n} --symbreak");
        assert_eq!(gen_then_count(&["gen", "langford", &n]), both);
        assert_eq!(gen_then_count(&["gen", "langford", &n, "--symbreak"]), once);
    }
}

#[test]
fn pentomino_gen_counts() {
    assert_eq!(gen_then_count(&["gen", "pentomino", "3x20"]), "8");
    assert_eq!(
        gen_then_count(&["gen", "pentomino", "3x20", "--symbreak"]),
        "2"
    );
}

#[test]
fn solutions_print_in_the_puzzles_terms() {
    let (code, out) = exactly(&["queens", "4"], None);
    assert_eq!(code, 0);
    assert!(out.contains(".Q..\n...Q\nQ...\n..Q.\n"), "{out}");
    let (code, out) = exactly(&["langford", "4", "--symbreak"], None);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "2 3 4 2 1 3 1 4");
    let (code, _) = exactly(&["queens", "3"], None);
    assert_eq!(code, 1);
    let (code, _) = exactly(&["gen", "pentomino", "6by10"], None);
    assert_eq!(code, 2);
}

#[test]
fn polyomino_counts_built_in_sets() {
    let args = [
        "polyomino",
        "--set",
        "pentominoes",
        "--board",
        "3x20",
        "--count",
    ];
    assert_eq!(first_line(&args), "8");
    assert_eq!(first_line(&[&args[..], &["--symbreak"]].concat()), "2");
    let (code, out) = exactly(
        &["polyomino", "--set", "pentominoes", "--board", "3x20"],
        None,
    );
    assert_eq!(code, 0);
    let boards: Vec<&str> = out.split("\n\n").filter(|b| !b.trim().is_empty()).collect();
    assert_eq!(boards.len(), 8);
    for board in boards {
        let rows: Vec<&str> = board.lines().collect();
        assert_eq!(rows.len(), 3, "{board}");
        assert!(rows.iter().all(|r| r.len() == 20), "{board}");
        for piece in 'O'..='Z' {
            assert_eq!(board.matches(piece).count(), 5, "{piece} in\n{board}");
        }
    }
}

/// Four kinds of tetromino, the L twice, in a 4x5 rectangle: 16 tilings, 4
/// classes under the rectangle's 4 symmetries, 2 tilings with one-sided
/// pieces (counts checked by a plain backtracking search over placements
/// that shares no code with this project).
#[test]
fn polyomino_spec_file_counts_the_same_directly_and_through_gen() {
    let file = "testdata/polyomino/tetromino-4x5.txt";
    for (flags, want) in [
        (&[][..], "16"),
        (&["--symbreak"], "4"),
        (&["--one-sided"], "2"),
    ] {
        let direct = first_line(&[&["polyomino", file, "--count"][..], flags].concat());
        assert_eq!(direct, want, "polyomino {flags:?}");
        let via_file = gen_then_count(&[&["gen", "polyomino", file][..], flags].concat());
        assert_eq!(via_file, want, "gen polyomino {flags:?}");
    }
    let text = std::fs::read(common::root().join(file)).unwrap();
    let (code, out) = exactly(&["polyomino", "-", "--limit", "1"], Some(&text));
    assert_eq!(code, 0);
    // Four rows of five cells; the two L copies have labels of their own.
    let rows = out.lines().filter(|l| l.split_whitespace().count() == 5);
    assert_eq!(rows.count(), 4, "{out}");
    assert!(out.contains("L.1") && out.contains("L.2"), "{out}");
}

#[test]
fn polyomino_errors_exit_2_with_file_line_and_column() {
    let file = "testdata/polyomino/bad-picture.txt";
    for args in [&["polyomino", file][..], &["gen", "polyomino", file]] {
        let (status, out, err) = run(args, b"");
        assert_eq!(status, Some(2), "{args:?}");
        assert!(out.is_empty(), "{out}");
        assert!(
            err.contains(&format!("{file}:5:3: unexpected '?'")),
            "{err}"
        );
    }
    let (status, _, err) = run(&["polyomino", "--set", "tetrominoes"], b"");
    assert_eq!(status, Some(2));
    assert!(err.contains("no board"), "{err}");
    let (status, _, _) = run(
        &["polyomino", "--set", "tetrominoes", "--board", "4by5"],
        b"",
    );
    assert_eq!(status, Some(2));
}
