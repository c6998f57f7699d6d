//! `exactly count`: the number of solutions, alone on the first line.

use std::time::Instant;

use exactly::{Count, Engine, Problem, Progress, Rest, Solver, Stats};

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
    let (count, stats) = match budgeted_rest(args, &input.problem, &bar) {
        Some(counted) => counted,
        None => {
            let mut solver = search::solver(&input.problem, &args.search, &bar);
            (solver.count(), *solver.stats())
        }
    };
    let stopped = search::finish_named(
        &bar,
        count.outcome,
        &stats,
        &args.search,
        &[],
        search::engine_name(&input.problem, &stats),
    );
    output::print_count(args.format, &count.solutions, count.outcome.is_complete())?;
    Ok(Status::of_search(stopped, count.solutions))
}

/// A count on one thread with a budget (`--limit`, `--max-nodes`,
/// `--timeout`) by the [`Rest`] below the forced moves from the root, as
/// [`Solver::count`] counts one without a budget: the rest's tree is the
/// whole one's below those levels, so it stops at the same node, after the
/// same solutions, and its nodes, updates and depth with the forced levels
/// added are the whole search's. `None` to count the whole problem: no
/// budget, another engine than `auto`, a seed, a trace or progress lines
/// (which run one plain search), no rest, or a node budget the forced
/// levels use up. The library's count keeps the whole problem under a
/// budget, because a stopped count there can be resumed; this one never
/// is.
fn budgeted_rest<L>(
    args: &CountArgs,
    problem: &Problem<L>,
    bar: &indicatif::ProgressBar,
) -> Option<(Count, Stats)> {
    let a = &args.search;
    let budgeted = a.limit.is_some() || a.max_nodes.is_some() || a.timeout.is_some();
    if !budgeted
        || Engine::from(a.engine) != Engine::Auto
        || a.seed.is_some()
        || search::traced(a)
        || a.report_every.is_some()
    {
        return None;
    }
    let start = Instant::now();
    let rest = Rest::of(problem)?;
    let depth = u64::from(rest.depth);
    let mut limits = search::limits(a);
    if let Some(nodes) = limits.nodes {
        // The forced levels are the whole search's first nodes.
        limits.nodes = Some(nodes.checked_sub(depth).filter(|&n| n > 0)?);
    }
    let before = start.elapsed();
    if let Some(time) = limits.time {
        limits.time = Some(time.saturating_sub(before));
    }
    let mut solver = Solver::new(&rest.problem).limits(limits);
    if let Some((every, mut report)) = search::progress_reporter(a, bar, String::new) {
        solver = solver.on_progress(every, move |p: &Progress| {
            report(&Progress {
                nodes: p.nodes.saturating_add(depth),
                depth: p.depth.saturating_add(rest.depth),
                elapsed: p.elapsed + before,
                ..*p
            });
        });
    }
    let count = solver.count();
    let mut stats = *solver.stats();
    stats.elapsed = start.elapsed();
    rest.add_forced(&mut stats.nodes, &mut stats.updates, &mut stats.max_depth);
    Some((count, stats))
}
