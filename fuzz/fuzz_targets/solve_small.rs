//! Every solution the engines report for a parsed problem verifies, and
//! the engines that finish within a node budget count the same. Problems
//! with multiplicities go to `multi::MultiSolver`, as the CLI sends them
//! (`Solver` reads every primary item as covered exactly once).
#![no_main]

use std::ops::ControlFlow;

use exactly::{Engine, Limits, Solver};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(problem) = exactly::format::parse_dlx(text) else {
        return;
    };
    let limits = Limits::default().max_nodes(10_000);
    if problem.has_multiplicities() {
        let mut solver = exactly::multi::MultiSolver::new(&problem).limits(limits);
        solver.for_each(|s| {
            exactly::verify(&problem, s.options()).expect("solutions verify");
            ControlFlow::Continue(())
        });
        return;
    }
    let mut counts = Vec::new();
    for engine in [Engine::Cells, Engine::Links, Engine::Bits] {
        let mut solver = Solver::new(&problem).engine(engine).limits(limits.clone());
        let mut n = 0u128;
        for s in solver.solutions() {
            exactly::verify(&problem, s.options()).expect("solutions verify");
            n += 1;
        }
        if solver.outcome() == Some(exactly::Outcome::Complete) {
            counts.push(n);
        }
    }
    assert!(counts.iter().all(|&c| c == counts[0]));
});
