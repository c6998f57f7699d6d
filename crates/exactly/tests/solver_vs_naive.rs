//! Property tests: the engine finds exactly the solutions a naive solver finds.

mod common;

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use common::{plain_problem, Plain};
use exactly::{verify, Engine, Limits, Outcome, Solver};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

const ENGINES: [Engine; 3] = [Engine::Cells, Engine::Links, Engine::Bits];

fn engine_solutions(plain: &Plain, engine: Engine) -> Vec<Vec<usize>> {
    let problem = plain.to_problem();
    let mut solver = Solver::new(&problem).engine(engine);
    let mut out: Vec<Vec<usize>> = Vec::new();
    for s in solver.solutions() {
        verify(&problem, s.options()).expect("engine solution verifies");
        let mut labels: Vec<usize> = s.options().iter().map(|&o| *problem.label(o)).collect();
        labels.sort_unstable();
        out.push(labels);
    }
    assert_eq!(solver.outcome(), Some(Outcome::Complete));
    out.sort();
    out
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 3000,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("regressions"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn same_solution_sets(plain in plain_problem()) {
        let expected = plain.naive_solutions();
        for engine in ENGINES {
            let got = engine_solutions(&plain, engine);
            let unique: BTreeSet<_> = got.iter().cloned().collect();
            prop_assert_eq!(unique.len(), got.len(), "a solution was reported twice");
            prop_assert_eq!(&got, &expected, "{:?}", engine);
        }
    }

    #[test]
    fn count_first_and_callback_agree(plain in plain_problem(), seed in any::<u64>()) {
        let problem = plain.to_problem();
        let expected = plain.naive_solutions().len() as u128;
        let mut nodes = Vec::new();
        for engine in ENGINES {
            let mut counter = Solver::new(&problem).engine(engine);
            let count = counter.count();
            prop_assert_eq!(count.solutions, expected);
            prop_assert!(count.outcome.is_complete());
            // Counting shortcuts the last level but must account the same nodes.
            let mut visitor = Solver::new(&problem).engine(engine);
            let mut seen = 0u128;
            let outcome = visitor.for_each(|_| { seen += 1; ControlFlow::Continue(()) });
            prop_assert_eq!(outcome, Outcome::Complete);
            prop_assert_eq!(seen, expected);
            prop_assert_eq!(counter.stats().nodes, visitor.stats().nodes);
            nodes.push(counter.stats().nodes);
            // A random tie-break changes the order, not the set.
            let seeded = Solver::new(&problem).engine(engine).seed(seed).count();
            prop_assert_eq!(seeded.solutions, expected);
            let first = Solver::new(&problem).engine(engine).first().unwrap();
            prop_assert_eq!(first.is_some(), expected > 0);
        }
        // All engines walk the same tree.
        prop_assert!(nodes.iter().all(|&n| n == nodes[0]), "{:?}", nodes);
    }

    #[test]
    fn limits_stop_early_and_resume(plain in plain_problem(), budget in 1u64..20) {
        let problem = plain.to_problem();
        let expected = plain.naive_solutions().len() as u128;
        for engine in ENGINES {
            let limits = Limits::default().max_nodes(budget);
            let mut solver = Solver::new(&problem).engine(engine).limits(limits);
            let partial = solver.count();
            prop_assert!(partial.solutions <= expected);
            if partial.outcome.is_complete() {
                prop_assert_eq!(partial.solutions, expected);
            }
            let limits = Limits::default().max_solutions(2);
            let c = Solver::new(&problem).engine(engine).limits(limits).count();
            prop_assert_eq!(c.solutions, expected.min(2));
            // The iterator resumes after each solution and ends complete.
            let mut iterating = Solver::new(&problem).engine(engine);
            let n = iterating.solutions().count() as u128;
            prop_assert_eq!(n, expected);
            prop_assert_eq!(iterating.outcome(), Some(Outcome::Complete));
        }
    }
}
