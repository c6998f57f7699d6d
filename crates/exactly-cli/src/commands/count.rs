//! `exactly count`: the number of solutions, alone on the first line.

use crate::cli::CountArgs;
use crate::input;
use crate::output;
use crate::report::Status;
use crate::search;

/// Counts the solutions. A count cut short by any budget, `--limit`
/// included, is a lower bound: it is printed all the same, and the status
/// says the search stopped early.
pub fn run(args: &CountArgs) -> anyhow::Result<Status> {
    let input = input::load(&args.problem.file, args.problem.input)?;
    super::print_warnings(&input);
    if args.zdd {
        return super::zdd::count(args, &input);
    }
    // `Solver` searches a problem with multiplicities by Algorithm M, whose
    // search has no prefixes: what that search would ignore is refused, and
    // threads count smaller problems split from it instead.
    let multi = input.problem.has_multiplicities();
    if multi {
        search::check_multi_args(&args.search)?;
        if args.plan.is_some() || args.checkpoint.is_some() || args.mpi {
            anyhow::bail!("--plan, --checkpoint and --mpi apply to exact covers only, not to problems with multiplicities");
        }
    }
    if args.mpi {
        search::check_mpi_args(&args.search)?;
        #[cfg(feature = "mpi")]
        return super::mpi::count(args, &input.problem);
        #[cfg(not(feature = "mpi"))]
        anyhow::bail!(
            "--mpi needs exactly built with the `mpi` feature (cargo build --features mpi)"
        );
    }
    let threads = super::scale::threads(
        args.threads
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
    );
    if multi && super::scale::splittable(&args.search) && threads > 1 {
        return super::scale::count_multi_threads(args, &input.problem, threads);
    }
    if let (Some(plan), Some(shard)) = (&args.plan, args.shard) {
        return super::scale::count_shard(args, &input.problem, plan, shard, threads);
    }
    if super::scale::splittable(&args.search) && (threads > 1 || args.checkpoint.is_some()) {
        return super::scale::count_threads(args, &input.problem, threads);
    }
    if args.checkpoint.is_some() {
        anyhow::bail!(
            "--checkpoint needs a split search: leave out --limit, --max-nodes, --trace, --trace-levels, --trace-nodes, --profile and --report-every"
        );
    }
    let bar = search::progress_bar();
    // A stopped count is not resumed: under a budget too, a large exact
    // cover is counted by the rest its forced moves leave.
    let mut solver = search::solver(&input.problem, &args.search, &bar).resumable(false);
    let count = solver.count();
    let stopped = search::finish_named(
        &bar,
        count.outcome,
        solver.stats(),
        &args.search,
        &[],
        search::engine_name(&input.problem, solver.stats()),
    );
    output::print_count(args.format, &count.solutions, count.outcome.is_complete())?;
    Ok(Status::of_search(stopped, count.solutions))
}
