//! Hostile input to the puzzle commands, budgets and option values, run
//! against the real binary: sizes past the limits are refused before
//! anything is allocated, every long command takes both budgets, impossible
//! boards are answered at once, options that would be ignored are refused,
//! and a closed pipe ends every command quietly.

use crate::common;

use std::io::Read;
use std::process::Stdio;

use common::run;

/// Runs `exactly` and checks that it failed with status 2, one line on
/// stderr containing each of `wanted`, and nothing on stdout.
fn refused(args: &[&str], stdin: &[u8], wanted: &[&str]) {
    let (status, out, err) = run(args, stdin);
    assert_eq!(status, Some(2), "{args:?}: {err}");
    assert!(out.is_empty(), "{args:?}: {out}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    for w in wanted {
        assert!(err.contains(w), "{args:?}: expected '{w}' in {err}");
    }
}

#[test]
fn sizes_past_the_limits_are_refused_before_allocating() {
    let at_most_1000 = &["at most 1000"][..];
    for args in [
        &["gen", "queens", "4294967296"][..],
        &["gen", "queens", "100000"],
        &["gen", "queens", "1001"],
        &["queens", "30000"],
        &["queens", "18446744073709551615"],
        &["langford", "100000"],
        &["gen", "langford", "100000"],
        &["langford", "1001", "--count"],
    ] {
        refused(args, b"", at_most_1000);
    }
    refused(&["queens", "99999999999999999999999"], b"", &["too large"]);
    let board = &["at most 36 rows and 36 columns"][..];
    for args in [
        &["gen", "pentomino", "100000x100000"][..],
        &["gen", "pentomino", "4294967296x4294967296"],
        &["gen", "pentomino", "37x1"],
        &[
            "polyomino",
            "--set",
            "pentominoes",
            "--board",
            "100000x100000",
        ],
        &[
            "polyomino",
            "--set",
            "hexominoes",
            "--board",
            "1x99999999999999999999",
        ],
        &[
            "gen",
            "polyomino",
            "--set",
            "tetrominoes",
            "--board",
            "100000x100000",
        ],
    ] {
        refused(args, b"", board);
    }
    refused(&["gen", "pentomino", "0x10"], b"", &["at least one cell"]);
    refused(
        &["gen", "pentomino", "-6x10"],
        b"",
        &["expected a positive integer"],
    );
    refused(&["squares", "11"], b"", &["between 1 and 10"]);
    refused(&["squares", "30000"], b"", &["between 1 and 10"]);
    refused(
        &["squares", "3", "--removed", "2,-1"],
        b"",
        &["expected a positive integer"],
    );
    refused(&["squares", "3", "--removed", "99"], b"", &["matchstick"]);
}

#[test]
fn polyomino_files_past_the_limits_are_refused_with_line_and_column() {
    // A count past the cells of any board.
    refused(
        &["polyomino", "-", "--board", "6x10"],
        b"A 99999999999999999999\n#\n",
        &["<stdin>:1:3:", "too large", "1296"],
    );
    refused(
        &["gen", "polyomino", "-", "--board", "6x10"],
        b"A 1297\n#\n",
        &["<stdin>:1:3:", "1296"],
    );
    // A board picture spanning 100000 rows from a small file: refused
    // before a cell is allocated for each position of its box.
    let mut far = String::from("A\n#\n\nboard\n#\n");
    far.push_str(&".\n".repeat(100_000));
    far.push_str(&" ".repeat(100_000));
    far.push_str("#\n");
    refused(
        &["polyomino", "-"],
        far.as_bytes(),
        &["<stdin>:4:1:", "at most 36x36"],
    );
    // Copies whose placements would build a huge problem: refused from a
    // count of the placements, before the problem is built.
    refused(
        &["polyomino", "-", "--board", "36x36"],
        b"A 1296\n#\n",
        &["option entries", "4194304"],
    );
}

/// Starts `exactly`, reads a little of its output, closes the pipe, and
/// returns the exit status and stderr.
fn close_early(args: &[&str]) -> (Option<i32>, String) {
    let mut child = common::exactly()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the exactly binary starts");
    let mut out = child.stdout.take().expect("stdout is piped");
    let mut first = [0u8; 16];
    out.read_exact(&mut first).expect("some output");
    drop(out);
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr is piped")
        .read_to_string(&mut err)
        .expect("stderr reads");
    (child.wait().expect("exactly ends").code(), err)
}

#[test]
fn a_closed_pipe_ends_every_command_quietly() {
    for args in [
        &["gen", "queens", "400"][..],
        &["gen", "langford", "400"],
        &["gen", "pentomino", "20x30"],
        &[
            "gen",
            "polyomino",
            "--set",
            "hexominoes",
            "--board",
            "36x36",
        ],
        &["queens", "12"],
        &["langford", "12"],
        &["polyomino", "--set", "pentominoes", "--board", "6x10"],
        &["solve", "testdata/queens-14.dlx"],
        &["--help"],
    ] {
        let (status, err) = close_early(args);
        assert_eq!(status, Some(0), "{args:?}: {err}");
        // Only the warning that the board cannot be tiled.
        assert!(
            err.lines().all(|l| l.contains("warning:")),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn every_long_command_takes_both_budgets() {
    let nodes: &[&[&str]] = &[
        &["squares", "8", "--max-nodes", "100"],
        &["queens", "14", "--count", "--max-nodes", "100"],
        &["queens", "14", "--max-nodes", "100"],
        &["langford", "12", "--count", "--max-nodes", "100"],
        &[
            "polyomino",
            "--set",
            "pentominoes",
            "--board",
            "6x10",
            "--count",
            "--max-nodes",
            "100",
        ],
        &[
            "estimate",
            "testdata/langford-11.dlx",
            "--probes",
            "1000000000000",
            "--max-nodes",
            "100",
        ],
        &[
            "cover",
            "--min",
            "testdata/queens-cover-8.dlx",
            "--max-nodes",
            "10",
        ],
        &["count", "testdata/queens-14.dlx", "--max-nodes", "100"],
    ];
    let time: &[&[&str]] = &[
        &["squares", "8", "--timeout", "0.2"],
        &["queens", "20", "--count", "--timeout", "0.2"],
        &["langford", "16", "--count", "--timeout", "0.2"],
        &[
            "polyomino",
            "-",
            "--board",
            "8x8",
            "--count",
            "--timeout",
            "0.2",
        ],
        &[
            "estimate",
            "testdata/langford-11.dlx",
            "--probes",
            "1000000000000",
            "--timeout",
            "0.2",
        ],
    ];
    for args in nodes.iter().chain(time) {
        // Dominoes for the polyomino reading standard input: 12,988,816
        // tilings of the 8x8 board.
        let (status, _, err) = run(args, b"D 32\n##\n");
        assert_eq!(status, Some(3), "{args:?}: {err}");
        assert!(err.contains("stopped early"), "{args:?}: {err}");
    }
    // The estimate stopped by a budget reports the probes it made.
    let (_, out, _) = run(nodes[5], b"");
    assert!(out.contains("probes: "), "{out}");
    // A budget that is not reached changes nothing.
    let (status, out, _) = run(&["squares", "3", "--max-nodes", "1000000"], b"");
    assert_eq!((status, out.lines().next()), (Some(0), Some("6")));
}

#[test]
fn impossible_boards_are_answered_at_once() {
    // With a budget of one node, a search would stop with status 3; the
    // answer comes before any search, with status 1.
    let (status, out, err) = run(
        &[
            "polyomino",
            "--set",
            "pentominoes",
            "--board",
            "36x36",
            "--count",
            "--max-nodes",
            "1",
        ],
        b"",
    );
    assert_eq!((status, out.as_str()), (Some(1), "0\n"), "{err}");
    assert!(err.contains("60 cells and the board 1296"), "{err}");
    let file = "testdata/polyomino/mutilated-chessboard.txt";
    let (status, out, err) = run(&["polyomino", file, "--count", "--max-nodes", "1"], b"");
    assert_eq!((status, out.as_str()), (Some(1), "0\n"), "{err}");
    assert!(err.contains("checkerboard"), "{err}");
    let (status, out, _) = run(&["polyomino", file, "--max-nodes", "1"], b"");
    assert_eq!((status, out.as_str()), (Some(1), ""));
    // `gen` still writes the problem, with the same warning.
    let (status, out, err) = run(&["gen", "polyomino", file], b"");
    assert_eq!(status, Some(0));
    assert!(out.starts_with("| ") || out.contains("D.1"), "{out}");
    assert!(err.contains("no tiling"), "{err}");
    // The 35 hexominoes: 11 cover two more cells of one color than of the
    // other, an odd number of 2s that cannot add up to a rectangle's 0.
    let (status, out, err) = run(
        &[
            "polyomino",
            "--set",
            "hexominoes",
            "--board",
            "14x15",
            "--count",
            "--max-nodes",
            "1",
        ],
        b"",
    );
    assert_eq!((status, out.as_str()), (Some(1), "0\n"), "{err}");
    assert!(err.contains("checkerboard"), "{err}");
    // A board that can be tiled is still searched.
    let (status, out, _) = run(
        &["polyomino", "-", "--count"],
        b"D 2\n##\n\nboard\n##\n##\n",
    );
    assert_eq!((status, out.as_str()), (Some(0), "2\n"));
}

#[test]
fn identical_copies_get_labels_of_their_own() {
    let (status, out, _) = run(&["polyomino", "-"], b"D 2\n##\n\nboard\n##\n##\n");
    assert_eq!(status, Some(0));
    // Two tilings (the copies are ordered, so each once), each domino with
    // its own label, numbered in reading order.
    assert_eq!(out, "D.1 D.1\nD.2 D.2\n\nD.1 D.2\nD.1 D.2\n\n");
    let text = b"I 3\n#\n#\n\nO\n##\n##\n\nboard\n#####\n#####\n";
    let (status, out, _) = run(&["polyomino", "-", "--limit", "1"], text);
    assert_eq!(status, Some(0));
    let mut labels: Vec<&str> = out.split_whitespace().collect();
    labels.sort_unstable();
    labels.dedup();
    assert_eq!(labels, ["I.1", "I.2", "I.3", "O"], "{out}");
}

#[test]
fn options_that_would_be_ignored_are_refused() {
    refused(
        &[
            "cover",
            "--min",
            "--limit",
            "3",
            "testdata/knuth-example.dlx",
        ],
        b"",
        &["--limit"],
    );
    refused(&["cover", "--min", "testdata/colors.dlx"], b"", &["colors"]);
    refused(
        &["cover", "--min", "testdata/queens-dominate-8.dlx"],
        b"",
        &["multiplicities"],
    );
    refused(
        &["cover", "--min", "-"],
        b"a b | c\na c\nb\n",
        &["<stdin>", "secondary items"],
    );
    refused(
        &["cover", "--min", "-"],
        b"2:3|a b\na\nb\n",
        &["multiplicities"],
    );
}

#[test]
fn zero_negative_and_huge_budgets() {
    for (option, value, wanted) in [
        ("--timeout", "0", "positive number of seconds"),
        ("--timeout", "0.0", "positive number of seconds"),
        ("--timeout", "-1", "positive number of seconds"),
        ("--timeout", "inf", "finite"),
        ("--timeout", "NaN", "finite"),
        // What rounds to no time at all is refused as 0 is.
        ("--timeout", "1e-300", "rounds to no time"),
        ("--timeout", "4e-10", "rounds to no time"),
        ("--max-nodes", "0", "positive integer"),
        ("--max-nodes", "-5", "positive integer"),
    ] {
        for command in [
            &["solve", "testdata/knuth-example.dlx"][..],
            &["count", "testdata/knuth-example.dlx"],
            &["queens", "6"],
            &["langford", "4"],
            &["polyomino", "--set", "pentominoes", "--board", "3x20"],
            &["cover", "--min", "testdata/knuth-example.dlx"],
            &["squares", "3"],
            &["estimate", "testdata/knuth-example.dlx"],
            &["sudoku", "-"],
            &["sudoku", "rate", "-"],
            &["sudoku", "gen"],
            &["zdd", "testdata/knuth-example.dlx"],
            &["sample", "testdata/knuth-example.dlx"],
            &["plan", "testdata/knuth-example.dlx"],
            &["contest", "poj3074", "-"],
        ] {
            let args = [command, &[option, value]].concat();
            refused(&args, b"", &[option, wanted]);
        }
    }
    for args in [
        &["queens", "-1"][..],
        &["squares", "-1"],
        &["langford", "-3"],
        &["gen", "queens", "-8"],
        &["queens", "0"],
    ] {
        refused(args, b"", &["expected a positive integer"]);
    }
    refused(
        &["queens", "6", "--limit", "-1"],
        b"",
        &["positive integer"],
    );
    refused(&["queens", "6", "--seed", "-1"], b"", &["from 0 to"]);
    // The progress interval is a time too, read by the same rule.
    for value in ["0", "-1", "1e-300", "nan"] {
        refused(
            &[
                "count",
                "--report-every",
                value,
                "testdata/knuth-example.dlx",
            ],
            b"",
            &["--report-every", "seconds"],
        );
    }
    // Past 10^9 seconds, a time budget means 10^9 seconds: accepted.
    for value in ["1e300", "1e10", "18446744073709551616"] {
        let (status, out, err) = run(&["queens", "6", "--count", "--timeout", value], b"");
        assert_eq!((status, out.as_str()), (Some(0), "4\n"), "{value}: {err}");
    }
    let (status, out, _) = run(&["squares", "2", "--timeout", "1e300"], b"");
    assert_eq!((status, out.lines().next()), (Some(0), Some("3")));
}

#[test]
fn every_number_option_reads_a_negative_number_as_a_bad_value() {
    // Not "unexpected argument '-1'": the option's own message.
    let dlx = "testdata/knuth-example.dlx";
    for (args, option) in [
        (&["zdd", "--max-memory", "-1", dlx][..], "--max-memory"),
        (&["zdd", "--max-nodes", "-1", dlx], "--max-nodes"),
        (&["sample", "--count", "-1", dlx], "--count"),
        (&["sample", "--seed", "-1", dlx], "--seed"),
        (&["solve", "--every", "-1", dlx], "--every"),
        (&["count", "--threads", "-1", dlx], "--threads"),
        (&["plan", "--cubes", "-1", dlx], "--cubes"),
        (&["plan", "--cubes", "0", dlx], "--cubes"),
        (&["plan", "--probes", "-1", dlx], "--probes"),
        (&["estimate", "--probes", "-1", dlx], "--probes"),
        (&["sudoku", "--threads", "-1", "-"], "--threads"),
        (&["sudoku", "--max-solutions", "-1", "-"], "--max-solutions"),
        (&["sudoku", "rate", "--threads", "-1", "-"], "--threads"),
        (&["sudoku", "encode", "--record", "-1", "-"], "--record"),
        (&["sudoku", "gen", "--size", "-1"], "--size"),
        (&["sudoku", "gen", "--count", "-1"], "--count"),
        (&["sudoku", "gen", "--seed", "-1"], "--seed"),
        (&["sudoku", "gen", "--clues", "-1"], "--clues"),
        (&["sudoku", "gen", "--attempts", "-1"], "--attempts"),
        (&["sudoku", "gen", "--max-nodes", "-1"], "--max-nodes"),
        (&["sudoku", "gen", "--threads", "-1"], "--threads"),
    ] {
        let (status, out, err) = run(args, b"");
        assert_eq!(status, Some(2), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains("invalid value"), "{args:?}: {err}");
        assert!(err.contains(option), "{args:?}: {err}");
    }
    // A record or a side is a positive integer, not a number of threads.
    let (_, _, err) = run(&["sudoku", "encode", "--record", "0", "-"], b"");
    assert!(err.contains("expected a positive integer"), "{err}");
}
