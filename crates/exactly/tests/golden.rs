//! Golden counts from the literature (testdata/golden.tsv), run by every
//! engine, with every solution of the smaller instances re-checked.

use std::ops::ControlFlow;
use std::path::PathBuf;

use exactly::{format::parse_dlx, verify, Engine, Solver};

fn testdata() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata")
}

struct Case {
    file: String,
    solutions: u128,
    nodes: Option<u64>,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(testdata().join("golden.tsv")).expect("golden.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Case {
                file: f[0].to_string(),
                solutions: f[1].parse().expect("solution count"),
                nodes: f[2].parse().ok(),
            }
        })
        .collect()
}

#[test]
fn golden_counts_every_engine() {
    let cases = cases();
    assert!(cases.len() >= 5);
    for case in cases {
        let path = testdata().join(&case.file);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", case.file));
        let problem = parse_dlx(&text).unwrap_or_else(|e| panic!("{}", e.with_file(&case.file)));
        for engine in [
            Engine::Cells,
            Engine::Links,
            Engine::Bits,
            Engine::Masks,
            Engine::Sparse,
        ] {
            let mut solver = Solver::new(&problem).engine(engine);
            let count = solver.count();
            assert!(count.outcome.is_complete());
            assert_eq!(
                count.solutions, case.solutions,
                "{} with {engine:?}",
                case.file
            );
            if let Some(nodes) = case.nodes {
                assert_eq!(
                    solver.stats().nodes,
                    nodes,
                    "{} nodes with {engine:?}",
                    case.file
                );
            }
        }
    }
}

#[test]
fn forced_moves_count_as_nodes_whoever_follows_them() {
    // With a trace the search loop takes every forced move level by level;
    // without one, item masks take them on their own. Same tree, same nodes.
    for file in ["queens-13.dlx", "langford-11.dlx"] {
        let text = std::fs::read_to_string(testdata().join(file)).unwrap();
        let problem = parse_dlx(&text).unwrap();
        let expected = cases()
            .into_iter()
            .find(|c| c.file == file)
            .unwrap()
            .solutions;
        let mut quiet = Solver::new(&problem)
            .engine(Engine::Masks)
            .forced_first(true);
        assert_eq!(quiet.engine_in_use(), Engine::Masks, "{file}");
        assert_eq!(quiet.count().solutions, expected, "{file}");
        let mut traced = Solver::new(&problem)
            .engine(Engine::Masks)
            .forced_first(true)
            .on_trace(|_| {});
        assert_eq!(traced.count().solutions, expected, "{file}");
        assert_eq!(quiet.stats().nodes, traced.stats().nodes, "{file}");
    }
}

#[test]
fn every_solution_verifies() {
    for file in ["queens-13.dlx", "langford-11.dlx", "knuth-example.dlx"] {
        let text = std::fs::read_to_string(testdata().join(file)).unwrap();
        let problem = parse_dlx(&text).unwrap();
        let mut seen = 0u128;
        let outcome = Solver::new(&problem).for_each(|s| {
            verify(&problem, s.options()).unwrap_or_else(|e| panic!("{file}: {e}"));
            seen += 1;
            ControlFlow::Continue(())
        });
        assert!(outcome.is_complete());
        let expected = cases()
            .into_iter()
            .find(|c| c.file == file)
            .unwrap()
            .solutions;
        assert_eq!(seen, expected, "{file}");
    }
}
