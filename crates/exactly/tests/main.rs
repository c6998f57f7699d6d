//! The engine's integration tests, in one test binary (one link, one build of the
//! code they share): each file is a module, run on its own with
//! `cargo test --test tests <module>::`.

mod common;
mod golden;
mod mincover_vs_naive;
mod multi_vs_naive;
mod pool_budget;
mod readers_round_trip;
mod readme;
mod records;
mod solver_vs_naive;
mod text_never_panics;
mod trace_nodes;
mod work_growth;
mod zdd;
