//! `exactly sudoku --target` through the real binary.

mod common;

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
    let dir = std::env::temp_dir().join(format!("exactly-target-{}", std::process::id()));
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
