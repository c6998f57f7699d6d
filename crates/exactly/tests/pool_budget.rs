//! A node budget shared by the threads of a pool: items that start
//! together do not each spend what is left of it.

use exactly::format::parse_dlx;
use exactly::parallel::{self, NODE_SLACK};
use exactly::{Engine, Limits, Outcome, Problem, StopReason};

fn problem(name: &str) -> Problem {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(name);
    parse_dlx(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_node_budget_over_several_threads_explores_at_most_the_budget_and_the_slack() {
    let p = problem("langford-11.dlx");
    // A few big subproblems, each far larger than the budget: without a
    // shared count, every thread would spend the whole budget.
    let split = parallel::split_at(&p, Engine::Auto, 1);
    assert!(split.subproblems.len() >= 4);
    let whole = parallel::count_split(
        &p,
        Engine::Auto,
        &split,
        1,
        &Limits::default(),
        &[],
        &|_, _, _| {},
    )
    .unwrap();
    let budget = 50_000u64;
    assert!(whole.nodes - split.nodes > 8 * budget);
    for threads in [1u64, 2, 4] {
        let counted = parallel::count_split(
            &p,
            Engine::Auto,
            &split,
            threads as usize,
            &Limits::default().max_nodes(budget),
            &[],
            &|_, _, _| {},
        )
        .unwrap();
        assert_eq!(counted.outcome, Outcome::Stopped(StopReason::NodeLimit));
        let explored = counted.nodes - split.nodes;
        let slack = if threads == 1 {
            0
        } else {
            threads * NODE_SLACK
        };
        assert!(
            explored <= budget + slack,
            "{threads} threads: {explored} nodes for a budget of {budget}"
        );
        // Nor does the pool stop before the budget is spent (a search may
        // count the node it stopped at, one per thread).
        assert!(
            explored + threads >= budget,
            "{threads} threads: only {explored} nodes for a budget of {budget}"
        );
    }
}
