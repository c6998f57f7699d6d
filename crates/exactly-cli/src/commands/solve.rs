//! `exactly solve`: print the solutions.

use exactly::StopReason;

use crate::cli::SolveArgs;
use crate::input;
use crate::output;
use crate::report::Status;
use crate::search;

/// Prints every solution (or the first `--limit`). Reaching `--limit` is not
/// an early stop; running out of time or nodes is.
pub fn run(args: &SolveArgs) -> anyhow::Result<Status> {
    let input = input::load(&args.problem.file, args.problem.input)?;
    super::print_warnings(&input);
    if args.min_cost || args.best.is_some() {
        return super::cover::solve_costs(args, &input);
    }
    // `Solver` searches a problem with multiplicities by Algorithm M, on
    // one thread from the root: what that search would ignore is refused.
    let multi = input.problem.has_multiplicities();
    if multi {
        search::check_multi_args(&args.search)?;
        if args.mpi {
            anyhow::bail!(
                "--mpi applies to exact covers only, not to --min-cost, --best or multiplicities"
            );
        }
    }
    if args.mpi {
        search::check_mpi_args(&args.search)?;
        #[cfg(feature = "mpi")]
        return super::mpi::solve(args, &input);
        #[cfg(not(feature = "mpi"))]
        anyhow::bail!(
            "--mpi needs exactly built with the `mpi` feature (cargo build --features mpi)"
        );
    }
    let threads = match multi {
        true => 1,
        false => super::scale::threads(Some(
            args.threads
                .map_or(1, |n| usize::try_from(n).unwrap_or(usize::MAX)),
        )),
    };
    if threads > 1 && super::scale::splittable(&args.search) {
        return super::scale::solve_threads(args, &input, threads);
    }
    let bar = search::progress_bar();
    // Never resumed: a large exact cover's solutions may come from the
    // rest of its forced moves, as its count does.
    let mut solver = search::solver(&input.problem, &args.search, &bar).resumable(false);
    let outcome = output::print_search(&input, args.format, args.every.every, &bar, |visit| {
        solver.for_each(visit)
    })?;
    let stats = *solver.stats();
    let stopped = search::finish_named(
        &bar,
        outcome,
        &stats,
        &args.search,
        &[StopReason::SolutionLimit],
        search::engine_name(&input.problem, &stats),
    );
    Ok(Status::of_search(stopped, stats.solutions))
}
