//! `exactly sudoku --target` through the real binary.

use crate::common;

use common::run;

#[test]
fn noip_sample_scores_2829_with_either_method() {
    for method in ["enumerate", "bound"] {
        let (status, out, err) = run(
            &[
                "sudoku",
                "--target",
                "--method",
                method,
                "testdata/sudoku/target-noip-sample.txt",
            ],
            b"",
        );
        assert_eq!(
            (status, out.as_str()),
            (Some(0), "2829\n"),
            "{method}: {err}"
        );
    }
    let (_, out, _) = run(
        &[
            "sudoku",
            "--target",
            "--format",
            "json",
            "testdata/sudoku/target-noip-sample.txt",
        ],
        b"",
    );
    assert!(out.contains("\"score\":2829"), "{out}");
}

#[test]
fn no_solution_scores_minus_one_and_bad_weights_are_named() {
    // Cell r0c0 sees 2 and 3 in its row, 4 in its column, 1 in its box.
    let unsolvable = b"0 2 3 0\n0 1 0 0\n4 0 0 0\n0 0 0 0\n";
    let (status, out, _) = run(&["sudoku", "--target", "-"], unsolvable);
    assert_eq!((status, out.as_str()), (Some(1), "-1\n"));
    let dir = common::scratch_path("target");
    std::fs::create_dir_all(&dir).unwrap();
    let weights = dir.join("weights.txt");
    std::fs::write(&weights, "1 1 1 1\n1 x 1 1\n1 1 1 1\n1 1 1 1\n").unwrap();
    let (status, _, err) = run(
        &[
            "sudoku",
            "--target",
            "--weights",
            weights.to_str().unwrap(),
            "-",
        ],
        b"1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n",
    );
    assert_eq!(status, Some(2));
    assert!(
        err.contains("weights.txt:2:3: expected a non-negative integer weight, found 'x'"),
        "{err}"
    );
    // Weights of every cell 1 make the score the sum of all values: 4 x 10.
    std::fs::write(&weights, "1 1 1 1\n1 1 1 1\n1 1 1 1\n1 1 1 1\n").unwrap();
    let (status, out, _) = run(
        &[
            "sudoku",
            "--target",
            "--weights",
            weights.to_str().unwrap(),
            "-",
        ],
        b"1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n",
    );
    assert_eq!((status, out.as_str()), (Some(0), "40\n"));
}

#[test]
fn a_budget_stopped_record_scores_unknown_and_exits_3() {
    let sample = "testdata/sudoku/target-noip-sample.txt";
    for method in ["enumerate", "bound"] {
        let (status, out, err) = run(
            &[
                "sudoku",
                "--target",
                "--method",
                method,
                "--max-nodes",
                "5",
                sample,
            ],
            b"",
        );
        assert_eq!(
            (status, out.as_str()),
            (Some(3), "unknown\n"),
            "{method}: {err}"
        );
        // A budget the search fits in changes nothing.
        let (status, out, err) = run(
            &[
                "sudoku",
                "--target",
                "--method",
                method,
                "--max-nodes",
                "100000000",
                "--timeout",
                "1000",
                sample,
            ],
            b"",
        );
        assert_eq!(
            (status, out.as_str()),
            (Some(0), "2829\n"),
            "{method}: {err}"
        );
    }
    // The batch goes on past a stopped record: the solved grid still scores
    // 6 × 30 on its outer ring + 7 × 10 inside = 250.
    let (status, out, err) = run(
        &["sudoku", "--target", "--max-nodes", "1", "-"],
        b"................\n1234341221434321\n",
    );
    assert_eq!((status, out.as_str()), (Some(3), "unknown\n250\n"), "{err}");
    let (_, out, _) = run(
        &[
            "sudoku",
            "--target",
            "--max-nodes",
            "1",
            "--format",
            "json",
            sample,
        ],
        b"",
    );
    assert!(out.contains("\"score\":\"unknown\""), "{out}");
}
