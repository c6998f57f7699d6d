//! `exactly count`: the number of solutions, alone on the first line.

use std::io::{self, Write};

use anyhow::Context;

use crate::cli::CountArgs;
use crate::input;
use crate::report::Status;
use crate::search;

/// Counts the solutions. A count cut short by any budget, `--limit`
/// included, is a lower bound: it is printed all the same, and the status
/// says the search stopped early.
pub fn run(args: &CountArgs) -> anyhow::Result<Status> {
    let input = input::load(&args.problem.file, args.problem.input)?;
    super::print_warnings(&input);
    let bar = search::progress_bar();
    let mut solver = search::solver(&input.problem, &args.search, &bar);
    let count = solver.count();
    let stopped = search::finish(&bar, count.outcome, solver.stats(), &args.search, &[]);
    let mut out = io::stdout().lock();
    writeln!(out, "{}", count.solutions)
        .and_then(|()| out.flush())
        .context("cannot write to standard output")?;
    Ok(Status::of_search(stopped, count.solutions))
}
