//! `exactly sudoku` on hostile input, on the real binary: one answer per
//! record whatever the records look like, bad bytes in one record only,
//! empty input, thread counts, budgets, memory and target weights.

use crate::common;

use common::run;

fn sudoku(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let mut all = vec!["sudoku"];
    all.extend_from_slice(args);
    let (status, out, err) = run(&all, stdin);
    (status.unwrap_or(-1), out, err)
}

const NINE: &str =
    "......1.9.....32.....62..4.....7..6..9.2....84.28.......7.5.9..983..1....2......7";
const NINE_SOLVED: &str =
    "276584139845913276139627845358179462791246358462835791617452983983761524524398617";

#[test]
fn sixteen_one_line_4x4_puzzles_get_sixteen_answers() {
    let text = "12..34..........\n".repeat(16);
    let (code, out, err) = sudoku(&["--first"], text.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 16, "{out}");
    assert!(
        err.contains("16 puzzles: 0 unique, 0 multiple, 16 solved"),
        "{err}"
    );
}

#[test]
fn eighty_one_one_line_9x9_puzzles_get_eighty_one_answers() {
    let text = format!("{NINE}\n").repeat(81);
    let (code, out, err) = sudoku(&[], text.as_bytes());
    assert_eq!(code, 0, "{err}");
    let want = format!("{NINE_SOLVED}\n").repeat(81);
    assert_eq!(out, want);
}

#[test]
fn a_row_of_eighty_numbers_is_invalid() {
    let row: Vec<&str> = std::iter::once("1")
        .chain(std::iter::repeat_n("0", 79))
        .collect();
    let (code, out, err) = sudoku(&[], format!("{}\n", row.join(" ")).as_bytes());
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        out,
        "invalid: line 1: 80 cells; a puzzle has n*n cells (81 for 9x9), n at most 64\n"
    );
}

#[test]
fn a_count_line_is_not_a_puzzle() {
    let grid = "0 0 0 0 0 0 1 0 9\n0 0 0 0 0 3 2 0 0\n0 0 0 6 2 0 0 4 0\n\
                0 0 0 0 7 0 0 6 0\n0 9 0 2 0 0 0 0 8\n4 0 2 8 0 0 0 0 0\n\
                0 0 7 0 5 0 9 0 0\n9 8 3 0 0 1 0 0 0\n0 2 0 0 0 0 0 0 7\n";
    let (code, out, err) = sudoku(&[], format!("1\n{grid}").as_bytes());
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 9, "{out}");
    assert!(err.contains("1 puzzle: 1 unique"), "{err}");
    // Two one-line puzzles after a count of 2; a count of 5 is named.
    let (code, out, _) = sudoku(&[], format!("2\n{NINE}\n{NINE}\n").as_bytes());
    assert_eq!((code, out.lines().count()), (0, 2));
    let (code, out, _) = sudoku(&[], format!("5\n{NINE}\n{NINE}\n").as_bytes());
    assert_eq!(code, 2);
    assert!(
        out.starts_with("invalid: line 1, column 1: '5' is not a puzzle"),
        "{out}"
    );
    assert_eq!(out.lines().count(), 3, "{out}");
}

#[test]
fn grids_below_4x4_only_with_small() {
    let (code, out, _) = sudoku(&[], b"1\n");
    assert_eq!(code, 2);
    assert_eq!(
        out,
        "invalid: line 1: a 1x1 grid is smaller than 4x4; small grids are read only when asked for (--small)\n"
    );
    let (code, out, _) = sudoku(&["--small"], b"1\n");
    assert_eq!((code, out.as_str()), (0, "1\n"));
    let (code, out, _) = sudoku(&["--small", "--box", "1x2"], b"1.\n..\n");
    assert_eq!((code, out.as_str()), (0, "12\n21\n"));
    // A box shape of the side asks for it too.
    let (code, out, _) = sudoku(&["--box", "1x2"], b"1...\n");
    assert_eq!((code, out.as_str()), (0, "1221\n"));
}

#[test]
fn a_bad_byte_makes_one_invalid_record() {
    let mut input = format!("{NINE}\n").into_bytes();
    let mut bad = NINE.as_bytes().to_vec();
    bad[40] = 0xff;
    input.extend_from_slice(&bad);
    input.extend_from_slice(format!("\n{NINE}\n").as_bytes());
    let (code, out, err) = sudoku(&[], &input);
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        out,
        format!(
            "{NINE_SOLVED}\ninvalid: line 2, column 41: invalid UTF-8: expected a cell of a 9x9 grid\n{NINE_SOLVED}\n"
        )
    );
    assert!(err.contains("1 of 3 records are invalid"), "{err}");
    // An escape byte is shown escaped.
    let (_, out, _) = sudoku(&[], b"12\x1b.............\n");
    assert_eq!(
        out,
        "invalid: line 1, column 3: bad character '\\u{1b}' in a 4x4 grid\n"
    );
}

#[test]
fn empty_input_is_an_error() {
    for input in ["", "\n\n", "# only a comment\n"] {
        let (code, out, err) = sudoku(&[], input.as_bytes());
        assert_eq!(code, 2, "{input:?}");
        assert_eq!(out, "");
        assert_eq!(
            err,
            "exactly: <stdin>: no puzzles: the input is empty or holds only comments and blank lines\n"
        );
    }
}

#[test]
fn huge_thread_counts_are_clamped() {
    let (code, out, err) = sudoku(&["--threads", "10000"], format!("{NINE}\n").as_bytes());
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("{NINE_SOLVED}\n"));
    assert!(err.contains("on 256 threads"), "{err}");
    // An empty 64x64 grid: solvers of about 48 MiB a thread, at most 1 GiB.
    let empty = ".".repeat(64 * 64);
    let (code, out, err) = sudoku(
        &["--threads", "10000", "--max-nodes", "100"],
        format!("{empty}\n").as_bytes(),
    );
    assert_eq!((code, out.as_str()), (3, "unknown\n"), "{err}");
    assert!(
        err.contains("256 threads would take more than 1024 MiB for 64x64 grids"),
        "{err}"
    );
}

#[test]
fn node_budgets_hold_per_puzzle_on_several_threads() {
    // An empty 16x16 grid has too many solutions to count: each of four
    // copies runs out of its own budget, on one thread or three.
    let empty = format!("{}\n", ".".repeat(256)).repeat(4);
    for threads in ["1", "3"] {
        let (code, out, err) = sudoku(
            &[
                "--threads",
                threads,
                "--max-nodes",
                "1000",
                "--max-solutions",
                "1000000000",
                "--format",
                "json",
            ],
            empty.as_bytes(),
        );
        assert_eq!(code, 3, "{err}");
        assert_eq!(out.lines().count(), 4);
        assert!(
            out.lines().all(|l| l.contains("\"verdict\":\"unknown\"")),
            "{out}"
        );
    }
}

#[test]
fn a_time_budget_holds_for_a_huge_empty_grid() {
    // The empty 64x64 grid, counted to two solutions: its encoding counts
    // against the budget. A generous margin for a loaded machine.
    let empty = ".".repeat(64 * 64);
    let start = std::time::Instant::now();
    let (code, out, err) = sudoku(
        &[
            "--timeout",
            "0.2",
            "--max-solutions",
            "1000000",
            "--threads",
            "2",
        ],
        format!("{empty}\n").as_bytes(),
    );
    assert_eq!((code, out.as_str()), (3, "unknown\n"), "{err}");
    assert!(start.elapsed().as_secs() < 60, "{:?}", start.elapsed());
}

#[test]
fn target_weights_that_overflow_u64_are_summed_wide() {
    let dir = common::scratch_path("h12b");
    std::fs::create_dir_all(&dir).unwrap();
    let weights = dir.join("weights.txt");
    let big = u64::MAX.to_string();
    let row = [big.as_str(); 4].join(" ");
    std::fs::write(&weights, format!("{row}\n").repeat(4)).unwrap();
    let path = weights.to_str().unwrap();
    // Every solution scores 4 x 10 x (2^64 - 1).
    let want = (40 * u128::from(u64::MAX)).to_string();
    let (code, out, err) = sudoku(
        &["--target", "--weights", path, "-"],
        b"1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n",
    );
    assert_eq!(
        (code, out.as_str()),
        (0, format!("{want}\n").as_str()),
        "{err}"
    );
    let (_, out, _) = sudoku(
        &["--target", "--weights", path, "--format", "json", "-"],
        b"1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n",
    );
    assert!(out.contains(&format!("\"score\":{want},")), "{out}");
    // Branch-and-bound costs would not fit a u64: refused, not wrapped.
    let (code, out, _) = sudoku(
        &["--target", "--weights", path, "--method", "bound", "-"],
        b"1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n",
    );
    assert_eq!(code, 2);
    assert!(
        out.starts_with("invalid: line 1: weights too large for branch-and-bound"),
        "{out}"
    );
    // A weight past u64, and rows of the wrong length, are named with
    // file, line and column.
    for (text, at) in [
        (
            "1 1 1 1\n1 1 18446744073709551616 1\n1 1 1 1\n1 1 1 1\n",
            ":2:5: weight 18446744073709551616 is above the largest",
        ),
        (
            "1 1 1 1\n1 1 1\n1 1 1 1\n1 1 1 1\n",
            ":2:6: weights: 3 numbers on this row, expected 4",
        ),
        ("# none\n\n", ":2:1: weights: no rows"),
    ] {
        std::fs::write(&weights, text).unwrap();
        let (code, _, err) = sudoku(
            &["--target", "--weights", path, "-"],
            b"1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n",
        );
        assert_eq!(code, 2);
        assert!(err.contains(&format!("weights.txt{at}")), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn huge_records_and_region_maps_are_refused_with_their_limit() {
    let huge = ".".repeat(1 << 20);
    let (code, out, _) = sudoku(&[], format!("{huge}\n{NINE}\n").as_bytes());
    assert_eq!(code, 2);
    assert_eq!(
        out,
        format!(
            "invalid: line 1: more than 4096 cells; a puzzle has n*n cells (81 for 9x9), n at most 64\n{NINE_SOLVED}\n"
        )
    );
    let dir = common::scratch_path("h12b-regions");
    std::fs::create_dir_all(&dir).unwrap();
    let regions = dir.join("regions.txt");
    let labels: String = (0..100u32)
        .filter_map(|k| char::from_u32(0x100 + k))
        .collect();
    std::fs::write(&regions, format!("# many labels\n{labels}\n")).unwrap();
    let (code, out, err) = sudoku(&["--regions", regions.to_str().unwrap()], NINE.as_bytes());
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("regions.txt:2:1: more than 64 labels: expected n labels, n at most 64"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
