//! `exactly squares`: the square destroyer (POJ 1084).

use std::io::{self, Write};

use anyhow::Context;
use exactly::mincover::MinCover;
use exactly::{Limits, Outcome};
use exactly_puzzles::squares::{self, Squares};

use crate::cli::{SquaresArgs, StatsFormat};
use crate::report::{self, Status};
use crate::search;

/// Prints the fewest matchsticks to remove on the first line, then their
/// numbers (an empty line when none is needed). A search stopped by
/// `--timeout` or `--max-nodes` prints nothing and exits with status 3.
pub fn run(args: &SquaresArgs) -> anyhow::Result<Status> {
    let grid = Squares::with_removed(args.n, &args.removed)?;
    let mut limits = Limits::default();
    if let Some(t) = args.timeout {
        limits = limits.max_time(t);
    }
    if let Some(n) = args.max_nodes {
        limits = limits.max_nodes(n);
    }
    let sticks = match squares::encode(&grid)? {
        None => Vec::new(),
        Some(problem) => {
            let mut solver = MinCover::new(&problem)
                .estimate(!args.no_estimate)
                .limits(limits);
            let (cover, outcome) = solver.solve();
            match (args.stats, args.stats_format) {
                (_, StatsFormat::Json) => {
                    // As `cover --min` prints them: the statistics, then
                    // the iterations as a second object.
                    search::print_stats(solver.stats(), "min-cover", StatsFormat::Json);
                    search::print_iterations(solver.iterations(), StatsFormat::Json);
                }
                (true, StatsFormat::Text) => {
                    let s = solver.stats();
                    report::line(&format!("nodes: {}", s.nodes));
                    report::line(&format!("updates: {}", s.updates));
                    report::line(&format!("iterations: {}", solver.iterations()));
                    report::line(&format!("time: {:.6} s", s.elapsed.as_secs_f64()));
                }
                (false, StatsFormat::Text) => {}
            }
            if let Outcome::Stopped(reason) = outcome {
                report::message(&format!("stopped early: {reason}"));
                return Ok(Status::Stopped);
            }
            // Every square left has a stick, so a cover always exists.
            cover.map_or_else(Vec::new, |c| squares::decode(&problem, &c))
        }
    };
    let list: Vec<String> = sticks.iter().map(|k| k.to_string()).collect();
    let mut out = io::stdout().lock();
    writeln!(out, "{}\n{}", sticks.len(), list.join(" "))
        .and_then(|()| out.flush())
        .context("cannot write to standard output")?;
    Ok(Status::Success)
}
