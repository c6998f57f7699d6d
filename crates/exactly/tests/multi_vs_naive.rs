//! Multiplicities and costs: `MultiSolver` and `CostSolver` against a
//! reference that tries every subset of options (shares no code with them).

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use exactly::multi::{CostSolver, MultiSolver};
use exactly::{
    verify, ColorId, Engine, Limits, Outcome, PrefixError, Problem, ProblemBuilder, Solver,
};
use proptest::prelude::*;

use crate::common;

use common::multi::multi_problem;

fn label_set(problem: &Problem<usize>, options: &[exactly::OptionId]) -> Vec<usize> {
    let mut v: Vec<usize> = options.iter().map(|&o| *problem.label(o)).collect();
    v.sort_unstable();
    v
}

proptest! {
    #![proptest_config(common::differential(2000))]

    #[test]
    fn same_solution_sets(m in multi_problem()) {
        let problem = m.to_problem();
        let expected: BTreeSet<Vec<usize>> = m.all_solutions().into_iter().map(|(s, _)| s).collect();
        let mut found = Vec::new();
        let outcome = MultiSolver::new(&problem).for_each(|s| {
            verify(&problem, s.options()).expect("solution verifies");
            found.push(label_set(&problem, s.options()));
            ControlFlow::Continue(())
        });
        prop_assert!(outcome.is_complete());
        let set: BTreeSet<Vec<usize>> = found.iter().cloned().collect();
        prop_assert_eq!(set.len(), found.len(), "a solution was found twice");
        prop_assert_eq!(set, expected);
    }

    #[test]
    fn cheapest_costs(m in multi_problem(), k in 1usize..=4) {
        let problem = m.to_problem();
        let mut costs: Vec<u128> = m.all_solutions().into_iter().map(|(_, c)| c).collect();
        costs.sort_unstable();
        costs.dedup();
        costs.truncate(k);
        for bound in [true, false] {
            let (best, outcome) = CostSolver::new(&problem).bound(bound).best(k);
            prop_assert!(outcome.is_complete());
            let got: Vec<u128> = best.iter().map(|b| b.cost).collect();
            prop_assert_eq!(&got, &costs);
            for b in &best {
                verify(&problem, b.solution.options()).expect("solution verifies");
                let sum: u128 = b.solution.options().iter().map(|&o| u128::from(problem.cost(o))).sum();
                prop_assert_eq!(sum, b.cost);
            }
        }
    }

    #[test]
    fn solver_routes_multiplicities(m in multi_problem(), engine in 0usize..6) {
        // `Solver::new` on a problem with multiplicities runs Algorithm M:
        // the same solution sets through count, first and the iterator, on
        // every engine.
        let engine = [Engine::Auto, Engine::Links, Engine::Cells, Engine::Bits, Engine::Masks, Engine::Sparse][engine];
        let problem = m.to_problem();
        let expected: BTreeSet<Vec<usize>> = m.all_solutions().into_iter().map(|(s, _)| s).collect();
        let count = Solver::new(&problem).engine(engine).count();
        prop_assert!(count.outcome.is_complete());
        prop_assert_eq!(count.solutions, expected.len() as u128);
        let mut solver = Solver::new(&problem).engine(engine);
        let found: Vec<Vec<usize>> = solver
            .solutions()
            .map(|s| {
                verify(&problem, s.options()).expect("solution verifies");
                label_set(&problem, s.options())
            })
            .collect();
        prop_assert_eq!(solver.outcome(), Some(Outcome::Complete));
        let set: BTreeSet<Vec<usize>> = found.iter().cloned().collect();
        prop_assert_eq!(set.len(), found.len(), "a solution was found twice");
        prop_assert_eq!(&set, &expected);
        let first = Solver::new(&problem).engine(engine).first().expect("no budget");
        match first {
            Some(s) => prop_assert!(expected.contains(&label_set(&problem, s.options()))),
            None => prop_assert!(expected.is_empty()),
        }
        // A solution budget stops after that many, and the rest follow.
        let mut limited = Solver::new(&problem).limits(Limits::default().max_solutions(1));
        let once = limited.count();
        prop_assert_eq!(once.solutions, expected.len().min(1) as u128);
        if problem.has_multiplicities() {
            prop_assert_eq!(limited.restrict(&[]), Err(PrefixError::Multiplicities));
        }
    }

    #[test]
    fn every_entry_point_routes_or_refuses_multiplicities(m in multi_problem(), threads in 1usize..=3) {
        // The other ways into the exact-cover search: a split (all the
        // solutions above the cut, no subproblems), the parallel count, and
        // those that would need prefixes, branches or probes, which refuse.
        let problem = m.to_problem();
        let expected: BTreeSet<Vec<usize>> = m.all_solutions().into_iter().map(|(s, _)| s).collect();
        let (split, above) = exactly::parallel::split_with_solutions(&problem, Engine::Auto, 4, 8);
        let counted = exactly::parallel::count_split(
            &problem, Engine::Auto, &split, threads, &Limits::default(), &[], &|_, _, _| {},
        ).expect("the split's own prefixes replay");
        prop_assert!(counted.outcome.is_complete());
        prop_assert_eq!(counted.solutions, expected.len() as u128);
        let parallel = exactly::parallel::count(&problem, threads);
        prop_assert!(parallel.outcome.is_complete());
        prop_assert_eq!(parallel.solutions, expected.len() as u128);
        if !problem.has_multiplicities() {
            return Ok(());
        }
        prop_assert!(split.subproblems.is_empty());
        let above: BTreeSet<Vec<usize>> = above.iter().map(|s| label_set(&problem, s)).collect();
        prop_assert_eq!(above, expected);
        let mut rng = 1;
        prop_assert_eq!(Solver::new(&problem).branch(), Err(PrefixError::Multiplicities));
        prop_assert_eq!(Solver::new(&problem).probe(&mut rng), Err(PrefixError::Multiplicities));
        prop_assert_eq!(Solver::new(&problem).assume(&[]), Err(PrefixError::Multiplicities));
        let estimate = exactly::parallel::estimate(&problem, &[], 4, 1);
        prop_assert_eq!(estimate.err(), Some(PrefixError::Multiplicities));
    }

    #[test]
    fn parallel_count_splits_multiplicities(m in multi_problem(), threads in 1usize..=4) {
        // Split into smaller problems (the first option of an item used,
        // or none of them), counted on threads: the naive count, and the
        // one-thread count, on 1 to 4 threads.
        let problem = m.to_problem();
        let expected = m.all_solutions().len() as u128;
        let split = std::cell::Cell::new(0);
        let done = std::sync::atomic::AtomicU64::new(0);
        let counted = exactly::parallel::count_multi(
            &problem,
            threads,
            &Limits::default(),
            &|n| split.set(n),
            &|_, s, _| {
                done.fetch_add(s as u64, std::sync::atomic::Ordering::Relaxed);
            },
        );
        prop_assert!(counted.outcome.is_complete());
        prop_assert_eq!(counted.solutions, expected);
        let mut one = Solver::new(&problem);
        prop_assert_eq!(counted.solutions, one.count().solutions);
        if problem.has_multiplicities() {
            // The split's tree is Algorithm M's, and so is its work.
            prop_assert_eq!(counted.nodes, one.stats().nodes);
            prop_assert_eq!(counted.updates, one.stats().updates);
        }
        prop_assert_eq!(counted.done.len(), split.get());
        prop_assert!(counted.done.iter().all(Option::is_some));
        let below: u128 = counted.done.iter().flatten().sum();
        prop_assert_eq!(u128::from(done.into_inner()), below);
    }

    #[test]
    fn exact_bounds_agree_with_solver(m in multi_problem()) {
        // All bounds 1:1: the plain exact-cover engine is the reference.
        let mut m = m;
        for b in &mut m.bounds {
            *b = (1, 1);
        }
        let problem = m.to_problem();
        prop_assert!(!problem.has_multiplicities());
        let mut expected: Vec<Vec<usize>> = Solver::new(&problem)
            .solutions()
            .map(|s| label_set(&problem, s.options()))
            .collect();
        expected.sort();
        let mut found = Vec::new();
        MultiSolver::new(&problem).for_each(|s| {
            found.push(label_set(&problem, s.options()));
            ControlFlow::Continue(())
        });
        found.sort();
        prop_assert_eq!(found, expected);
    }
}

/// Five queens dominating the 8×8 board: every square occupied or attacked.
/// Squares are primary items covered 1..=5 times, `q` is covered exactly
/// five times (five queens), and each option also gives its row's secondary
/// item one shared color, which exercises the color machinery (purifying)
/// without changing the count.
fn queens_dominate(n: usize, queens: u32) -> Problem<(usize, usize)> {
    let mut b = ProblemBuilder::new();
    let q = b.primary_with_bounds("q", queens, queens).unwrap();
    let mut square = Vec::new();
    for r in 0..n {
        for c in 0..n {
            square.push(
                b.primary_with_bounds(&format!("{r}{c}"), 1, queens)
                    .unwrap(),
            );
        }
    }
    let rows: Vec<_> = (0..n)
        .map(|r| b.secondary(&format!("r{r}")).unwrap())
        .collect();
    let queen = b.color("queen").unwrap();
    for (r, &row_item) in rows.iter().enumerate() {
        for c in 0..n {
            let mut entries = vec![(q, ColorId::NONE)];
            for r2 in 0..n {
                for c2 in 0..n {
                    let (dr, dc) = (r.abs_diff(r2), c.abs_diff(c2));
                    if dr == 0 || dc == 0 || dr == dc {
                        entries.push((square[r2 * n + c2], ColorId::NONE));
                    }
                }
            }
            entries.push((row_item, queen));
            b.add_option((r, c), entries).unwrap();
        }
    }
    b.build().unwrap()
}

#[test]
fn five_queens_dominate_the_chessboard() {
    // Brute force on 5×5 with 3 queens as a check of the encoding, then
    // the literature's 4860 for 8×8.
    let small = queens_dominate(5, 3);
    let mut brute = 0;
    let cells: Vec<(usize, usize)> = (0..25).map(|k| (k / 5, k % 5)).collect();
    for a in 0..25 {
        for b in a + 1..25 {
            for c in b + 1..25 {
                let qs = [cells[a], cells[b], cells[c]];
                let dominated = cells.iter().all(|&(r, col)| {
                    qs.iter()
                        .any(|&(qr, qc)| qr == r || qc == col || qr.abs_diff(r) == qc.abs_diff(col))
                });
                brute += u128::from(dominated);
            }
        }
    }
    assert_eq!(MultiSolver::new(&small).count().solutions, brute);
    let board = queens_dominate(8, 5);
    let count = MultiSolver::new(&board).count();
    assert_eq!(count.outcome, Outcome::Complete);
    assert_eq!(count.solutions, 4860);
    let parallel = exactly::parallel::count(&board, 3);
    assert_eq!(parallel.outcome, Outcome::Complete);
    assert_eq!(parallel.solutions, 4860);
}

#[test]
fn limits_stop_the_search() {
    let board = queens_dominate(8, 5);
    let count = MultiSolver::new(&board)
        .limits(exactly::Limits::default().max_nodes(100))
        .count();
    assert_eq!(
        count.outcome,
        Outcome::Stopped(exactly::StopReason::NodeLimit)
    );
    let count = MultiSolver::new(&board)
        .limits(exactly::Limits::default().max_solutions(3))
        .count();
    assert_eq!(count.solutions, 3);
}

/// Files without multiplicities: the counts the exact-cover engine gets
/// (from `testdata/golden.tsv` and the literature).
#[test]
fn exact_cover_files_count_the_same() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    for (file, want) in [
        ("knuth-example.dlx", 1u128),
        ("langford-11.dlx", 35584),
        ("queens-13.dlx", 73712),
    ] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let problem = exactly::format::parse_dlx(&text).unwrap();
        let count = MultiSolver::new(&problem).count();
        assert_eq!(count.solutions, want, "{file}");
        assert_eq!(count.outcome, Outcome::Complete);
    }
}

#[test]
fn solver_counts_multiplicities_like_multisolver() {
    // Once read by `Solver` as an exact cover (one solution instead of
    // none: item `1` must be covered four times by its one option).
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/testdata/fuzz/dlx-multiplicity-through-solver.txt"
    );
    let problem = exactly::format::parse_dlx(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(problem.has_multiplicities());
    let expected = MultiSolver::new(&problem).count().solutions;
    assert_eq!(expected, 0);
    for engine in [
        Engine::Auto,
        Engine::Links,
        Engine::Cells,
        Engine::Bits,
        Engine::Masks,
        Engine::Sparse,
    ] {
        let mut solver = Solver::new(&problem).engine(engine);
        assert_eq!(solver.count().solutions, expected);
        assert!(Solver::new(&problem)
            .engine(engine)
            .first()
            .unwrap()
            .is_none());
    }
    // `2|a b` from {a}, {a b}, {a}, {b}: three solutions, each verified.
    let p = exactly::format::parse_dlx("2|a b\na\na b\na\nb\n").unwrap();
    let mut solver = Solver::new(&p);
    let all: Vec<_> = solver.solutions().collect();
    assert_eq!(all.len(), 3);
    for s in &all {
        verify(&p, s.options()).unwrap();
    }
}

/// Progress reports while a multiplicity count and a cost search run: the
/// node counts grow, the estimate stays in `[0, 1]` and grows overall.
#[test]
fn progress_is_reported_during_multi_and_cost_searches() {
    use std::sync::{Arc, Mutex};
    use std::time::Duration;
    let board = queens_dominate(8, 5);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    let count = MultiSolver::new(&board)
        .on_progress(Duration::ZERO, move |p| {
            sink.lock()
                .unwrap()
                .push((p.nodes, p.fraction, p.solutions))
        })
        .count();
    assert_eq!(count.solutions, 4860);
    let seen = seen.lock().unwrap().clone();
    assert!(seen.len() >= 2, "{} reports", seen.len());
    assert!(seen.windows(2).all(|w| w[0].0 < w[1].0 && w[0].2 <= w[1].2));
    assert!(seen.iter().all(|&(_, f, _)| (0.0..=1.0).contains(&f)));
    assert!(seen[seen.len() - 1].1 > seen[0].1, "{seen:?}");

    // Costs: each square's cost, so the cheapest cover is not the first.
    let mut b = ProblemBuilder::new();
    let q = b.primary_with_bounds("q", 5, 5).unwrap();
    let squares: Vec<_> = (0..64)
        .map(|k| b.primary_with_bounds(&format!("s{k}"), 1, 5).unwrap())
        .collect();
    for r in 0..8usize {
        for c in 0..8usize {
            let mut entries = vec![(q, ColorId::NONE)];
            for (k, &s) in squares.iter().enumerate() {
                let (dr, dc) = (r.abs_diff(k / 8), c.abs_diff(k % 8));
                if dr == 0 || dc == 0 || dr == dc {
                    entries.push((s, ColorId::NONE));
                }
            }
            let cost = ((37 * r + 91 * c + 13 * r * c) % 100) as u64;
            b.add_option_with_cost((r, c), cost, entries).unwrap();
        }
    }
    let costed = b.build().unwrap();
    let reports = Arc::new(Mutex::new(0usize));
    let sink = Arc::clone(&reports);
    let mut lists: Vec<Vec<u128>> = Vec::new();
    let mut solver = CostSolver::new(&costed).on_progress(Duration::ZERO, move |p| {
        assert!((0.0..=1.0).contains(&p.fraction));
        *sink.lock().unwrap() += 1;
    });
    let (best, outcome) =
        solver.best_with(3, |list| lists.push(list.iter().map(|b| b.cost).collect()));
    assert!(outcome.is_complete());
    let nodes = solver.stats().nodes;
    let reports = *reports.lock().unwrap();
    assert!(reports >= 2, "{reports} reports in {nodes} nodes");
    // Every improvement was reported, the last one being the answer, and
    // each list is sorted and at most 3 long.
    let costs: Vec<u128> = best.iter().map(|b| b.cost).collect();
    assert_eq!(lists.last(), Some(&costs));
    assert!(lists.len() >= 2, "{lists:?}");
    assert!(lists
        .iter()
        .all(|l| l.len() <= 3 && l.windows(2).all(|w| w[0] < w[1])));
    assert_eq!(
        costs,
        CostSolver::new(&costed)
            .best(3)
            .0
            .iter()
            .map(|b| b.cost)
            .collect::<Vec<_>>()
    );
}

#[test]
fn cheapest_costs_whose_sums_pass_u64() {
    // One item covered three or four times by options of cost 0, 1, 2 and
    // u64::MAX: the three cheapest solutions cost 3, 2^64 and 2^64 + 1.
    // Sums of costs past u64::MAX once lost the third (found 2^64 + 2).
    let m = common::multi::Multi {
        bounds: vec![(3, 4)],
        secondary: 0,
        options: [0, 1, 2, u64::MAX]
            .into_iter()
            .map(|cost| (vec![(0, 0)], cost))
            .collect(),
    };
    let problem = m.to_problem();
    let big = 1u128 << 64;
    for bound in [true, false] {
        let (best, outcome) = CostSolver::new(&problem).bound(bound).best(3);
        assert!(outcome.is_complete());
        let got: Vec<u128> = best.iter().map(|b| b.cost).collect();
        assert_eq!(got, [3, big, big + 1], "bound {bound}");
    }
}

/// A problem of `options` options past a word of 64, from a fixed seed:
/// three primary items with `bounds`, one per option (and a second on
/// every fifth); secondary `s0` in every option with one of two colors,
/// `s1` in every third with one of 40 colors or none, and `s2` in every
/// twentieth with a color of its own. So the search finds most items'
/// options through bits over several words, `s0` and `s1` with bits per
/// color, and `s2` (too many colors for its words) by its list.
fn spread_problem(bounds: &[(u32, u32)], options: usize) -> Problem<usize> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % n
    };
    let rows: Vec<(Vec<(usize, u32)>, u64)> = (0..options)
        .map(|k| {
            let mut entries = vec![(k % 3, 0)];
            if k % 5 == 0 {
                entries.push(((k + 1) % 3, 0));
            }
            entries.push((3, 1 + next(2) as u32));
            if k % 3 == 0 {
                entries.push((4, next(41) as u32));
            }
            if k % 20 == 0 {
                entries.push((5, 1 + (k / 20) as u32));
            }
            (entries, next(50))
        })
        .collect();
    common::build(bounds, 3, 40, rows.iter().map(|(e, c)| (e.as_slice(), *c)))
}

/// Past 64 options, where items find their available options through bits
/// over several words: with exact bounds the search lists the plain
/// engine's solutions and the cost search finds the cheapest of them;
/// with multiplicities it counts what the decision diagram counts.
#[test]
fn options_spread_over_words_agree_with_other_engines() {
    let problem = spread_problem(&[(1, 1); 3], 400);
    let mut expected: Vec<Vec<usize>> = Solver::new(&problem)
        .solutions()
        .map(|s| label_set(&problem, s.options()))
        .collect();
    expected.sort();
    assert!(expected.len() > 10, "{} solutions", expected.len());
    // Sparse bitsets keep the same layouts (slots, bits per color, a list
    // for too many colors) and walk dancing links' tree.
    let mut links = Solver::new(&problem).engine(Engine::Links);
    links.count();
    let links_nodes = links.stats().nodes;
    let mut sparse = Solver::new(&problem).engine(Engine::Sparse);
    let mut got: Vec<Vec<usize>> = sparse
        .solutions()
        .map(|s| label_set(&problem, s.options()))
        .collect();
    got.sort();
    assert_eq!(got, expected);
    let mut sparse = Solver::new(&problem).engine(Engine::Sparse);
    sparse.count();
    assert_eq!(sparse.stats().nodes, links_nodes);
    let mut found = Vec::new();
    let mut costs = Vec::new();
    MultiSolver::new(&problem).for_each(|s| {
        found.push(label_set(&problem, s.options()));
        costs.push(s.options().iter().map(|&o| problem.cost(o)).sum::<u64>());
        ControlFlow::Continue(())
    });
    found.sort();
    assert_eq!(found, expected);
    // `best` gives the cheapest distinct costs.
    costs.sort_unstable();
    costs.dedup();
    let (best, outcome) = CostSolver::new(&problem).best(3);
    assert!(outcome.is_complete());
    let got: Vec<u128> = best.iter().map(|b| b.cost).collect();
    let want: Vec<u128> = costs.iter().take(3).map(|&c| u128::from(c)).collect();
    assert_eq!(got, want);

    let problem = spread_problem(&[(2, 3), (1, 1), (0, 2)], 300);
    assert!(problem.has_multiplicities());
    let count = MultiSolver::new(&problem).count();
    assert!(count.outcome.is_complete());
    let zdd = exactly::zdd::ZddBuilder::new(&problem).build().unwrap();
    assert!(count.solutions > 10, "{} solutions", count.solutions);
    assert_eq!(zdd.count_u128(), Some(count.solutions));
}
