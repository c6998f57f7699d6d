//! `exactly solve`: print the solutions.

use std::io::{self, BufWriter, IsTerminal};
use std::ops::ControlFlow;

use anyhow::Context;
use exactly::StopReason;

use crate::cli::SolveArgs;
use crate::input;
use crate::output::Printer;
use crate::report::Status;
use crate::search;

/// Prints every solution (or the first `--limit`). Reaching `--limit` is not
/// an early stop; running out of time or nodes is.
pub fn run(args: &SolveArgs) -> anyhow::Result<Status> {
    let input = input::load(&args.problem.file, args.problem.input)?;
    super::print_warnings(&input);
    if args.min_cost || args.best.is_some() || input.problem.has_multiplicities() {
        return super::cover::solve(args, &input);
    }
    if args.mpi {
        #[cfg(feature = "mpi")]
        return super::mpi::solve(args, &input);
        #[cfg(not(feature = "mpi"))]
        anyhow::bail!(
            "--mpi needs exactly built with the `mpi` feature (cargo build --features mpi)"
        );
    }
    let threads = args.threads.map_or(1, |n| n as usize);
    if threads > 1 && super::scale::splittable(&args.search) {
        return super::scale::solve_threads(args, &input, threads);
    }
    let bar = search::progress_bar();
    let mut solver = search::solver(&input.problem, &args.search, &bar);
    let stdout = io::stdout();
    let flush_each = stdout.is_terminal().then(|| bar.clone());
    let mut printer = Printer::new(
        BufWriter::new(stdout.lock()),
        args.format,
        &input,
        flush_each,
    );
    let mut failed = None;
    let outcome = solver.for_each(|solution| match printer.solution(solution) {
        Ok(()) => ControlFlow::Continue(()),
        Err(e) => {
            failed = Some(e);
            ControlFlow::Break(())
        }
    });
    let flushed = printer.finish();
    if let Some(e) = failed.or(flushed.err()) {
        bar.finish_and_clear();
        return Err(e).context("cannot write to standard output");
    }
    let stats = *solver.stats();
    let stopped = search::finish(
        &bar,
        outcome,
        &stats,
        &args.search,
        &[StopReason::SolutionLimit],
    );
    Ok(Status::of_search(stopped, stats.solutions))
}
