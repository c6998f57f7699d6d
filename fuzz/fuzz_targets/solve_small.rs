//! Every solution the engines report for a parsed problem verifies, and
//! the engines that finish within a node budget count the same. `Solver`
//! sends problems with multiplicities to Algorithm M; their count is also
//! compared with `multi::MultiSolver`'s.
#![no_main]

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
    let mut counts = Vec::new();
    for engine in [Engine::Cells, Engine::Links, Engine::Bits, Engine::Sparse] {
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
    if problem.has_multiplicities() {
        let count = exactly::multi::MultiSolver::new(&problem)
            .limits(limits)
            .count();
        if count.outcome.is_complete() {
            counts.push(count.solutions);
        }
    }
    assert!(counts.iter().all(|&c| c == counts[0]));
});
