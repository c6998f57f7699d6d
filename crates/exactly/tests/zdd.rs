//! The diagram of all solutions against the naive solver, the golden counts,
//! the cost solver, and a chi-square test of uniform sampling.

use crate::common;

use std::path::PathBuf;

use common::multi::Multi;
use common::plain_problem;
use exactly::format::parse_dlx;
use exactly::zdd::{Zdd, ZddBuilder, ZddError, ZddRng};
use exactly::{Limits, ProblemBuilder, Solver, StopReason};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

fn testdata() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata")
}

fn read(file: &str) -> exactly::Problem {
    let text = std::fs::read_to_string(testdata().join(file)).expect("test file");
    parse_dlx(&text).expect("parses")
}

fn sorted(solutions: impl Iterator<Item = Vec<exactly::OptionId>>) -> Vec<Vec<usize>> {
    let mut all: Vec<Vec<usize>> = solutions
        .map(|s| {
            let mut s: Vec<usize> = s.iter().map(|o| o.index()).collect();
            s.sort_unstable();
            s
        })
        .collect();
    all.sort();
    all
}

fn by_label(
    problem: &exactly::Problem<usize>,
    solutions: impl Iterator<Item = Vec<exactly::OptionId>>,
) -> Vec<Vec<usize>> {
    let mut all: Vec<Vec<usize>> = solutions
        .map(|s| {
            let mut s: Vec<usize> = s.iter().map(|&o| *problem.label(o)).collect();
            s.sort_unstable();
            s
        })
        .collect();
    all.sort();
    all
}

/// Every sample of the diagram is one of the `expected` solutions; there is
/// none when there is no solution.
fn sample_is_a_solution(
    problem: &exactly::Problem<usize>,
    zdd: &Zdd,
    seed: u64,
    expected: &[Vec<usize>],
) -> Result<(), TestCaseError> {
    let mut rng = ZddRng::new(seed);
    match zdd.sample(&mut rng) {
        None => prop_assert!(expected.is_empty()),
        Some(s) => {
            let mut s: Vec<usize> = s.iter().map(|&o| *problem.label(o)).collect();
            s.sort_unstable();
            prop_assert!(expected.contains(&s));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// The diagram holds exactly the naive solver's solutions, each once, and
    /// counts them.
    #[test]
    fn same_solutions_as_naive(plain in plain_problem()) {
        let problem = plain.to_problem();
        let zdd = ZddBuilder::new(&problem).build().unwrap();
        let expected = plain.naive_solutions();
        // Options without a primary item are dropped: compare by label.
        let got = by_label(&problem, zdd.solutions());
        prop_assert_eq!(&got, &expected);
        prop_assert_eq!(zdd.count_u128(), Some(expected.len() as u128));
        prop_assert_eq!(zdd.count().to_string(), expected.len().to_string());
        sample_is_a_solution(&problem, &zdd, 7, &expected)?;
    }

    /// Minimum and maximum weights agree with brute force over the naive
    /// solutions.
    #[test]
    fn extremes_match_brute_force(plain in plain_problem(), weights in prop::collection::vec(-50i64..50, 32)) {
        let problem = plain.to_problem();
        let zdd = ZddBuilder::new(&problem).build().unwrap();
        let expected = plain.naive_solutions();
        let w = |o: usize| weights[o % weights.len()];
        let totals: Vec<i128> = expected.iter().map(|s| s.iter().map(|&o| i128::from(w(o))).sum()).collect();
        match zdd.min_max(|o| w(*problem.label(o))) {
            None => prop_assert!(expected.is_empty()),
            Some((lo, hi)) => {
                prop_assert_eq!(lo.total, *totals.iter().min().unwrap());
                prop_assert_eq!(hi.total, *totals.iter().max().unwrap());
                for e in [lo, hi] {
                    let mut s: Vec<usize> = e.options.iter().map(|&o| *problem.label(o)).collect();
                    s.sort_unstable();
                    let at = expected.iter().position(|x| *x == s);
                    prop_assert!(at.is_some());
                    prop_assert_eq!(totals[at.unwrap()], e.total);
                }
            }
        }
    }
}

/// Every golden instance: the diagram counts what `count` counts.
#[test]
fn golden_counts_through_the_diagram() {
    let text = std::fs::read_to_string(testdata().join("golden.tsv")).unwrap();
    let mut n = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let problem = read(f[0]);
        let expected: u128 = f[1].parse().unwrap();
        let zdd = ZddBuilder::new(&problem).build().unwrap();
        assert_eq!(zdd.count_u128(), Some(expected), "{}", f[0]);
        n += 1;
    }
    assert!(n >= 5);
}

/// A few solutions of queens-13 read off the diagram verify, and the listing
/// is as long as the count.
#[test]
fn listed_solutions_verify() {
    let problem = read("langford-11.dlx");
    let zdd = ZddBuilder::new(&problem).build().unwrap();
    let mut n = 0u128;
    for s in zdd.solutions() {
        if n < 200 {
            exactly::verify(&problem, &s).unwrap();
        }
        n += 1;
    }
    assert_eq!(n, 35584);
}

/// Colors: the secondary items' states are part of the memo key.
#[test]
fn colored_problem_matches_the_solver() {
    let problem = read("colors.dlx");
    let zdd = ZddBuilder::new(&problem).build().unwrap();
    let count = Solver::new(&problem).count();
    assert_eq!(zdd.count_u128(), Some(count.solutions));
    for s in zdd.solutions() {
        exactly::verify(&problem, &s).unwrap();
    }
}

/// 130 independent pairs of options: 2^130 solutions, past u128... almost:
/// 2^130 > u128::MAX, so the count comes back as a big integer.
#[test]
fn counts_past_u128() {
    let mut b = ProblemBuilder::new();
    let items: Vec<_> = (0..130)
        .map(|i| b.primary(&format!("i{i}")).unwrap())
        .collect();
    for (k, &i) in items.iter().enumerate() {
        let name = b.item_name(i).to_string();
        b.add_option_names(format!("{k}a"), &[name.as_str()])
            .unwrap();
        b.add_option_names(format!("{k}b"), &[name.as_str()])
            .unwrap();
    }
    let problem = b.build().unwrap();
    let zdd = ZddBuilder::new(&problem).build().unwrap();
    assert_eq!(zdd.count_u128(), None);
    let expected = num_pow2(130);
    assert_eq!(zdd.count().to_string(), expected);
    // Sampling still works on big counts, and gives a solution.
    let s = zdd.sample(&mut ZddRng::new(1)).unwrap();
    assert_eq!(s.len(), 130);
    exactly::verify(&problem, &s).unwrap();
}

/// 2^k in decimal, by doubling a digit string (independent of the engine).
fn num_pow2(k: u32) -> String {
    let mut digits = vec![1u8];
    for _ in 0..k {
        let mut carry = 0;
        for d in digits.iter_mut() {
            let x = *d * 2 + carry;
            *d = x % 10;
            carry = x / 10;
        }
        if carry > 0 {
            digits.push(carry);
        }
    }
    digits.iter().rev().map(|d| char::from(b'0' + d)).collect()
}

/// The optimum over the diagram equals the branch-and-bound cost solver's.
#[test]
fn optimum_agrees_with_the_cost_solver() {
    let problem = read("queens-10-costs.dlx");
    let zdd = ZddBuilder::new(&problem).build().unwrap();
    let (lo, _) = zdd.min_max(|o| problem.cost(o) as i64).unwrap();
    let (best, outcome) = exactly::multi::CostSolver::new(&problem).best(1);
    assert!(outcome.is_complete());
    let first = best.first().expect("a cheapest solution");
    assert_eq!(u128::try_from(lo.total).ok(), Some(first.cost));
    let total: u64 = lo.options.iter().map(|&o| problem.cost(o)).sum();
    assert_eq!(i128::from(total), lo.total);
    exactly::verify(&problem, &lo.options).unwrap();
}

/// Sampling is uniform: 9-queens has 352 solutions; 35,200 seeded draws,
/// chi-square with 351 degrees of freedom under its 0.001 critical value
/// (about 445).
#[test]
fn sampling_is_uniform() {
    let plain_queens = exactly::format::parse_dlx(&queens_dlx(9)).unwrap();
    let zdd = ZddBuilder::new(&plain_queens).build().unwrap();
    assert_eq!(zdd.count_u128(), Some(352));
    let all = sorted(zdd.solutions());
    let mut hist = vec![0u32; all.len()];
    let mut rng = ZddRng::new(2024);
    let draws = 100 * all.len();
    for _ in 0..draws {
        let mut s: Vec<usize> = zdd
            .sample(&mut rng)
            .unwrap()
            .iter()
            .map(|o| o.index())
            .collect();
        s.sort_unstable();
        hist[all.binary_search(&s).unwrap()] += 1;
    }
    let expected = draws as f64 / all.len() as f64;
    let chi2: f64 = hist
        .iter()
        .map(|&h| (f64::from(h) - expected).powi(2) / expected)
        .sum();
    assert!(chi2 < 445.0, "chi-square {chi2} over {} cells", all.len());
    // And not suspiciously perfect either (the 0.001 lower tail is about 270).
    assert!(
        chi2 > 270.0,
        "chi-square {chi2} is too small for random draws"
    );
}

/// The counts behind sampling are computed once per diagram and kept: draws
/// from a diagram that has already counted (or sampled) are the draws of a
/// fresh one with the same seed, and a clone draws alike.
#[test]
fn kept_counts_give_the_same_draws() {
    let problem = exactly::format::parse_dlx(&queens_dlx(8)).unwrap();
    let fresh = ZddBuilder::new(&problem).build().unwrap();
    let warm = ZddBuilder::new(&problem).build().unwrap();
    assert_eq!(warm.count_u128(), Some(92));
    let _ = warm.sample(&mut ZddRng::new(99));
    let copy = warm.clone();
    let draws = |zdd: &exactly::zdd::Zdd| -> Vec<Vec<exactly::OptionId>> {
        let mut rng = ZddRng::new(7);
        (0..200).map(|_| zdd.sample(&mut rng).unwrap()).collect()
    };
    let expected = draws(&fresh);
    assert_eq!(draws(&warm), expected);
    assert_eq!(draws(&copy), expected);
    for s in &expected {
        exactly::verify(&problem, s).unwrap();
    }
    assert_eq!(fresh.count_u128(), Some(92));
}

/// The n-queens problem in DLX format (rows and columns primary, diagonals
/// secondary), written here independently of the puzzle crate.
fn queens_dlx(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        s += &format!("r{i} c{i} ");
    }
    s += "|";
    for d in 0..2 * n - 1 {
        s += &format!(" a{d} b{d}");
    }
    s += "\n";
    for i in 0..n {
        for j in 0..n {
            s += &format!("r{i} c{j} a{} b{}\n", i + j, i + n - 1 - j);
        }
    }
    s
}

/// A budget stops the build with an error and no diagram.
#[test]
fn budgets_stop_without_a_partial_diagram() {
    let problem = read("langford-11.dlx");
    let err = ZddBuilder::new(&problem)
        .limits(Limits::default().max_nodes(100))
        .build()
        .unwrap_err();
    match err {
        ZddError::Stopped { reason, stats, .. } => {
            assert_eq!(reason, StopReason::NodeLimit);
            assert!(stats.nodes > 100);
        }
        e => panic!("unexpected {e}"),
    }
    let err = ZddBuilder::new(&problem)
        .max_bytes(10_000)
        .build()
        .unwrap_err();
    assert!(
        matches!(err, ZddError::Memory { limit: 10_000, .. }),
        "{err}"
    );
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let err = ZddBuilder::new(&problem)
        .limits(Limits::default().cancel_flag(flag))
        .build()
        .unwrap_err();
    assert!(
        matches!(
            err,
            ZddError::Stopped {
                reason: StopReason::Cancelled,
                ..
            }
        ),
        "{err}"
    );
}

/// Random problems with multiplicities, one bound at least not `1:1`
/// (the shared generator; the diagram ignores its costs).
fn multi_problem() -> impl Strategy<Value = Multi> {
    common::multi::multi_problem().prop_map(|mut m| {
        if m.bounds.iter().all(|&b| b == (1, 1)) {
            m.bounds[0] = (1, 2);
        }
        m
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// With multiplicities, the diagram holds exactly the subsets of options
    /// that meet every bound, each once, and the count, a sample and the
    /// extremes agree with them and with Algorithm M.
    #[test]
    fn multiplicities_match_naive(m in multi_problem(), weights in prop::collection::vec(-50i64..50, 12)) {
        let problem = m.to_problem();
        prop_assert!(problem.has_multiplicities());
        let zdd = ZddBuilder::new(&problem).build().unwrap();
        let expected = m.naive_solutions();
        let got = by_label(&problem, zdd.solutions());
        prop_assert_eq!(&got, &expected);
        prop_assert_eq!(zdd.count_u128(), Some(expected.len() as u128));
        let count = exactly::multi::MultiSolver::new(&problem).count();
        prop_assert_eq!(count.solutions, expected.len() as u128);
        sample_is_a_solution(&problem, &zdd, 11, &expected)?;
        let w = |o: usize| weights[o % weights.len()];
        match zdd.min_max(|o| w(*problem.label(o))) {
            None => prop_assert!(expected.is_empty()),
            Some((lo, hi)) => {
                let totals: Vec<i128> = expected.iter().map(|s| s.iter().map(|&o| i128::from(w(o))).sum()).collect();
                prop_assert_eq!(lo.total, *totals.iter().min().unwrap());
                prop_assert_eq!(hi.total, *totals.iter().max().unwrap());
            }
        }
    }
}

/// Multiplicities on a real instance: the five queens dominating the 8x8
/// board, counted through the diagram as Algorithm M counts them, with
/// solutions that verify.
#[test]
fn multiplicities_count_as_algorithm_m() {
    let problem = read("queens-dominate-8.dlx");
    assert!(problem.has_multiplicities());
    let zdd = ZddBuilder::new(&problem).build().unwrap();
    let count = exactly::multi::MultiSolver::new(&problem).count();
    assert!(count.outcome.is_complete());
    assert_eq!(zdd.count_u128(), Some(count.solutions));
    for s in zdd.solutions().take(50) {
        exactly::verify(&problem, &s).expect("a solution");
    }
    // A bound 0:2 admits the empty solution, and each option alone or with
    // the other: {}, {0}, {1}, {0 1}; a third option on `a` exceeds it only
    // when all three are chosen.
    let problem = parse_dlx("0:2|a\na\na\na\n").unwrap();
    let zdd = ZddBuilder::new(&problem).build().unwrap();
    assert_eq!(zdd.count_u128(), Some(7));
}

/// The memo pays: the diagram of 6x10 pentominoes is far smaller than the
/// list of its solutions' options, and writing it gives one line a node and
/// the root.
#[test]
fn knuth_text_and_json_forms() {
    let problem = read("knuth-example.dlx");
    let zdd = ZddBuilder::new(&problem).build().unwrap();
    let mut text = Vec::new();
    zdd.write_knuth(&mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    assert_eq!(text.lines().count(), zdd.len() + 1);
    let last = text.lines().last().unwrap();
    assert_eq!(
        last,
        format!("{:x}: (~0?0:{:x})", zdd.len() + 2, zdd.root())
    );
    let mut json = Vec::new();
    zdd.write_json(&mut json).unwrap();
    let json = String::from_utf8(json).unwrap();
    assert!(json.starts_with("{\"format\":\"exactly-zdd\",\"version\":1,"));
    // The one solution of the example: options 0, 3 and 4 (a d f, b g, c e... by index).
    let s = sorted(zdd.solutions());
    assert_eq!(s.len(), 1);
    exactly::verify(&problem, &zdd.solutions().next().unwrap()).unwrap();
}

/// A secondary item purified to the second color or later must not share
/// its memo signature with another state (the signature once gave such an
/// item too few bits, merged two states, and counted a clash as a solution).
#[test]
fn second_color_keeps_states_apart() {
    let text = "p0 p1 | s2 s3 s9\ns9:x\ns3 p1\np1\np1 s2:c\np0 s2:c\ns2 p0\n";
    let problem = parse_dlx(text).expect("parses");
    let expected = Solver::new(&problem).count().solutions;
    assert_eq!(expected, 5);
    let zdd = ZddBuilder::new(&problem).build().unwrap();
    assert_eq!(zdd.count_u128(), Some(5));
}
