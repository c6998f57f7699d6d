//! Langford-pair counts from the literature (OEIS A014552), solved by the engine.

use std::collections::HashSet;

use exactly::Solver;
use exactly_puzzles::langford::{self, Langford, Sequence};

/// L(2, n) for n = 1..=12: each sequence and its reversal counted once.
const COUNTS: [u128; 12] = [0, 0, 1, 1, 0, 0, 26, 150, 0, 0, 17792, 108144];

fn count(n: usize, symbreak: bool) -> u128 {
    let problem = langford::encode(&Langford { n, symbreak }).unwrap();
    let count = Solver::new(&problem).count();
    assert!(count.outcome.is_complete());
    count.solutions
}

#[test]
fn counts_with_symmetry_breaking() {
    for n in 1..=12 {
        assert_eq!(count(n, true), COUNTS[n - 1], "n = {n}");
    }
}

#[test]
fn counts_without_symmetry_breaking_are_doubled() {
    for n in 1..=12 {
        assert_eq!(count(n, false), 2 * COUNTS[n - 1], "n = {n}");
    }
}

#[test]
fn symbreak_keeps_exactly_one_of_each_reversal_pair() {
    for n in [3, 4, 7, 8] {
        let decode_all = |symbreak| -> HashSet<Vec<usize>> {
            let problem = langford::encode(&Langford { n, symbreak }).unwrap();
            let mut solver = Solver::new(&problem);
            let sequences = solver
                .solutions()
                .map(|s| {
                    let seq = langford::decode(&problem, &s);
                    assert!(seq.is_valid(), "{seq}");
                    seq.numbers().to_vec()
                })
                .collect();
            sequences
        };
        let all = decode_all(false);
        let kept = decode_all(true);
        assert_eq!(all.len(), 2 * kept.len());
        for seq in &kept {
            let reversed: Vec<usize> = seq.iter().rev().copied().collect();
            assert!(all.contains(seq));
            assert!(!kept.contains(&reversed));
        }
    }
}

#[test]
fn decoded_sequence_round_trips() {
    let problem = langford::encode(&Langford {
        n: 4,
        symbreak: false,
    })
    .unwrap();
    let mut found = Vec::new();
    for solution in Solver::new(&problem).solutions() {
        let seq = langford::decode(&problem, &solution);
        // Each chosen pair shows at its two positions.
        for pair in solution.labels(&problem) {
            assert_eq!(seq.numbers()[pair.first - 1], pair.number);
            assert_eq!(seq.numbers()[pair.second() - 1], pair.number);
        }
        found.push(seq.to_string());
    }
    found.sort();
    assert_eq!(found, ["2 3 4 2 1 3 1 4", "4 1 3 1 2 4 3 2"]);
    assert!(Sequence::new(vec![4, 1, 3, 1, 2, 4, 3, 2]).is_valid());
}

#[test]
fn dlx_text_parses_back_to_the_same_count() {
    let mut text = Vec::new();
    langford::write_dlx(&Langford::new(7), &mut text).unwrap();
    let problem = exactly::format::parse_dlx(std::str::from_utf8(&text).unwrap()).unwrap();
    assert_eq!(Solver::new(&problem).count().solutions, 26);
}
