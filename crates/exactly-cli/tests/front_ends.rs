//! The puzzle commands count what the literature says, and each `gen` file
//! counts the same through `exactly count` as its direct twin.

mod common;

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
