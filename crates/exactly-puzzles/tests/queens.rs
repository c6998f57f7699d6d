//! n-queens counts from the literature (OEIS A000170), solved by the engine.

use std::collections::HashSet;

use exactly::Solver;
use exactly_puzzles::queens::{self, Order, Queens};

const COUNTS: [u128; 12] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];

fn count(n: usize, order: Order) -> u128 {
    let problem = queens::encode(&Queens { n, order }).unwrap();
    let count = Solver::new(&problem).count();
    assert!(count.outcome.is_complete());
    count.solutions
}

#[test]
fn counts_in_organ_order() {
    for (k, &expected) in COUNTS.iter().enumerate() {
        assert_eq!(count(k + 1, Order::Organ), expected, "n = {}", k + 1);
    }
}

#[test]
fn counts_in_plain_order() {
    for (k, &expected) in COUNTS.iter().enumerate() {
        assert_eq!(count(k + 1, Order::Plain), expected, "n = {}", k + 1);
    }
}

#[test]
fn every_decoded_board_is_valid_and_distinct() {
    for n in 1..=8 {
        let problem = queens::encode(&Queens::new(n)).unwrap();
        let mut boards = HashSet::new();
        for solution in Solver::new(&problem).solutions() {
            let board = queens::decode(&problem, &solution);
            assert!(board.is_valid(), "{board}");
            assert_eq!(board.n(), n);
            // Round trip: the board's queens are exactly the chosen options.
            let mut labels: Vec<_> = solution.labels(&problem).into_iter().copied().collect();
            labels.sort();
            assert_eq!(labels, board.queens());
            assert!(boards.insert(board.columns()));
        }
        assert_eq!(boards.len() as u128, COUNTS[n - 1]);
    }
}

#[test]
fn dlx_text_parses_back_to_the_same_count() {
    let mut text = Vec::new();
    queens::write_dlx(&Queens::new(8), &mut text).unwrap();
    let problem = exactly::format::parse_dlx(std::str::from_utf8(&text).unwrap()).unwrap();
    assert_eq!(problem.num_options(), 64);
    assert_eq!(Solver::new(&problem).count().solutions, 92);
}
