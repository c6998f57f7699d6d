//! The target sudoku: branch-and-bound and enumeration agree on the best
//! score, and NOIP 2009's first sample scores what the contest says.

use exactly_puzzles::sudoku::{self, best_score, Grid, Method, Rules, Shape, Weights};

fn grid(text: &str) -> Grid {
    let records = sudoku::parse(text, None);
    assert_eq!(records.len(), 1, "one puzzle");
    records.into_iter().next().unwrap().puzzle.unwrap().grid
}

/// NOIP 2009 "target sudoku", sample 1; the expected output is 2829.
const NOIP_SAMPLE: &str = "\
7 0 0 9 0 0 0 0 1
1 0 0 0 0 5 9 0 0
0 0 0 2 0 0 0 8 0
0 0 5 0 2 0 0 0 3
0 0 0 0 0 0 6 4 8
4 1 3 0 0 0 0 0 0
0 0 7 0 0 2 0 9 0
2 0 1 0 6 0 8 0 4
0 8 0 5 0 4 0 1 2
";

#[test]
fn noip_sample_scores_2829_both_ways() {
    let puzzle = grid(NOIP_SAMPLE);
    let weights = Weights::rings(9);
    for method in [Method::BranchAndBound, Method::Enumerate] {
        let (score, solution) = best_score(&puzzle, &Rules::default(), &weights, method)
            .unwrap()
            .expect("the sample has solutions");
        assert_eq!(score, 2829, "{method:?}");
        assert!(solution.solves(&puzzle));
    }
}

#[test]
fn methods_agree_on_sparse_grids() {
    // Grids with few givens have many solutions, so the best score is a real
    // optimisation; givens come from a solved grid, cell by cell.
    for (rows, cols) in [(2, 2), (2, 3)] {
        let shape = Shape::new(rows, cols).unwrap();
        let n = shape.size();
        let full = sudoku::solve(&Grid::empty(shape), 1)
            .unwrap()
            .solution
            .unwrap();
        let weights = Weights::rings(n);
        // Below 10 givens the empty 6x6's 28 million solutions make
        // enumeration slow; 4x4 is checked from no givens up.
        let least = if n == 4 { 0 } else { 10 };
        for givens in least..=least + n {
            let mut puzzle = Grid::empty(shape);
            for k in 0..givens {
                let cell = (k * 7 + 3) % (n * n);
                puzzle.set(cell / n, cell % n, full.get(cell / n, cell % n));
            }
            let bb =
                best_score(&puzzle, &Rules::default(), &weights, Method::BranchAndBound).unwrap();
            let all = best_score(&puzzle, &Rules::default(), &weights, Method::Enumerate).unwrap();
            assert_eq!(
                bb.as_ref().map(|b| b.0),
                all.as_ref().map(|a| a.0),
                "{rows}x{cols}, {givens} givens"
            );
        }
    }
}

#[test]
fn unsolvable_puzzles_have_no_score_and_weights_are_checked() {
    // Cell r0c0 sees 2 and 3 in its row, 4 in its column, 1 in its box.
    let puzzle = grid("0 2 3 0\n0 1 0 0\n4 0 0 0\n0 0 0 0\n");
    assert_eq!(sudoku::solve(&puzzle, 1).unwrap().count, 0);
    for method in [Method::BranchAndBound, Method::Enumerate] {
        let answer = best_score(&puzzle, &Rules::default(), &Weights::rings(4), method).unwrap();
        assert!(answer.is_none(), "{method:?}");
    }
    let err = Weights::parse("1 2\n3 x\n").unwrap_err().to_string();
    assert!(err.contains("line 2, column 3"), "{err}");
    assert!(best_score(
        &puzzle,
        &Rules::default(),
        &Weights::rings(9),
        Method::Enumerate
    )
    .is_err());
}
