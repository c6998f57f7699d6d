//! `count --mpi` and `solve --mpi`: many machines under `mpirun`.
//!
//! Every rank reads the problem and computes the same split (it is
//! deterministic). Rank 0 coordinates: each worker asks for work, carrying
//! the results of its last subproblems, and gets the next run of
//! subproblems (a few per thread), or the word to stop; it runs them on
//! `--threads` threads (default 1) through the engine's one pool
//! ([`parallel::count_split`] for `count`, [`parallel::Pool`] for
//! `solve`). With one rank, rank 0 runs every subproblem alone, the same
//! way. For `count`, rank 0 prints the total. For `solve`, the pool keeps
//! each subproblem's solutions; once the run is done, the worker's main
//! thread (MPI handles stay on the thread that made them) sends each
//! solution (its option numbers, tagged [`SOLUTION`]) before asking for
//! more work. MPI keeps one sender's messages in order, so rank 0 prints
//! them all before it stops. A run holds the solutions of at most
//! [`CHUNK_PER_THREAD`] subproblems per thread in memory.

use std::io::{self, Write};
use std::ops::{ControlFlow, Range};
use std::sync::Mutex;

use anyhow::Context;
use exactly::parallel::{self, Split};
use exactly::{Engine, Limits, OptionId, Problem, Solution, Solver};
use mpi::traits::{Communicator, Destination, Source};

use crate::cli::{CountArgs, SolveArgs};
use crate::input::Input;
use crate::output::Printer;
use crate::report::Status;

/// "No result yet" in a request, "stop" in an answer.
const NONE: u64 = u64::MAX;

/// Tag of a work request (carrying the last result).
const REQUEST: i32 = 0;
/// Tag of a solution sent by a worker.
const SOLUTION: i32 = 1;

/// Subproblems per worker thread.
const PER_WORKER: usize = parallel::SUBPROBLEMS_PER_THREAD;

/// Subproblems handed out at once, per thread of the rank that counts them.
const CHUNK_PER_THREAD: usize = 4;

/// Threads of each rank: --threads, else one (ranks are usually cores).
fn threads_per_rank(threads: Option<u64>) -> usize {
    threads
        .map_or(1, |n| usize::try_from(n).unwrap_or(usize::MAX))
        .clamp(1, parallel::MAX_THREADS)
}

/// A worker's next run of subproblems from rank 0 (below `n`), or `None`
/// when rank 0 says stop.
fn next_run(root: &impl Source, n: usize) -> Option<Range<usize>> {
    let (answer, _) = root.receive_vec::<u64>();
    match answer[..] {
        [start, end] if start != NONE => Some(start as usize..(end as usize).min(n)),
        _ => None,
    }
}

/// Rank 0 answers a worker's request: the next run of at most `chunk`
/// subproblems from `next` (below `n`), or stop. Returns whether the
/// worker got work.
fn hand_out(worker: &impl Destination, next: &mut usize, n: usize, chunk: usize) -> bool {
    if *next < n {
        let end = (*next + chunk).min(n);
        worker.send(&[*next as u64, end as u64][..]);
        *next = end;
        true
    } else {
        worker.send(&[NONE][..]);
        false
    }
}

/// Counts the subproblems `range` of `split` on `threads` threads of this
/// rank ([`parallel::count_split`], on the engine's one pool): (index,
/// solutions, nodes) for each, by index.
fn count_range(
    problem: &Problem<String>,
    engine: Engine,
    split: &Split,
    range: Range<usize>,
    threads: usize,
) -> anyhow::Result<Vec<(usize, u128, u64)>> {
    let skip: Vec<bool> = (0..split.subproblems.len())
        .map(|i| !range.contains(&i))
        .collect();
    let found = Mutex::new(Vec::with_capacity(range.len()));
    let counted = parallel::count_split(
        problem,
        engine,
        split,
        threads,
        &Limits::default(),
        &skip,
        &|i, s, k| {
            found
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((i, s, k))
        },
    )
    .context("cannot count the subproblems")?;
    // Without budgets, every subproblem is counted to the end.
    anyhow::ensure!(
        counted.outcome.is_complete(),
        "subproblems {range:?} stopped early: {:?}",
        counted.outcome
    );
    let mut found = found.into_inner().unwrap_or_else(|e| e.into_inner());
    found.sort_unstable();
    Ok(found)
}

/// Runs `count --mpi` on this rank.
pub fn count(args: &CountArgs, problem: &Problem<String>) -> anyhow::Result<Status> {
    let universe = mpi::initialize().context("cannot start MPI (run under mpirun)")?;
    let world = universe.world();
    let (rank, size) = (world.rank(), world.size());
    let engine: Engine = args.search.engine.into();
    let threads = threads_per_rank(args.threads);
    let workers = (size as usize).saturating_sub(1).max(1);
    let split = parallel::split(problem, engine, PER_WORKER * workers * threads, 64);
    let n = split.subproblems.len();
    let chunk = CHUNK_PER_THREAD * threads;
    if rank != 0 {
        // Worker: [k, then (index, solutions low, high, nodes) k times],
        // answered [start, end] or [NONE].
        let mut request = vec![0u64];
        loop {
            world.process_at_rank(0).send(&request[..]);
            let Some(run) = next_run(&world.process_at_rank(0), n) else {
                return Ok(Status::Success);
            };
            let found = count_range(problem, engine, &split, run, threads)?;
            request = vec![found.len() as u64];
            for (i, s, k) in found {
                request.extend([i as u64, s as u64, (s >> 64) as u64, k]);
            }
        }
    }
    let (mut total, mut nodes) = (split.solutions, split.nodes);
    let mut done = 0usize;
    if size == 1 {
        for (_, s, k) in count_range(problem, engine, &split, 0..n, threads)? {
            total = total.checked_add(s).context("the count is past 2^128")?;
            nodes = nodes.saturating_add(k);
            done += 1;
        }
    } else {
        let bar = super::scale::subproblem_bar(n);
        let mut next = 0usize;
        let mut counted = vec![false; n];
        let mut running = size as usize - 1;
        while running > 0 {
            let (request, status) = world.any_process().receive_vec::<u64>();
            let source = status.source_rank();
            let k = request.first().copied().unwrap_or(0) as usize;
            let results = request.get(1..).unwrap_or(&[]);
            anyhow::ensure!(
                results.len() == 4 * k,
                "rank {source} sent a malformed result ({} words for {k} subproblems)",
                results.len()
            );
            for r in results.chunks_exact(4) {
                let [index, low, high, found_nodes] = [r[0], r[1], r[2], r[3]];
                // Each subproblem handed out once must come back once.
                match counted.get_mut(index as usize) {
                    Some(seen) if !*seen && (index as usize) < next => *seen = true,
                    _ => anyhow::bail!("rank {source} returned subproblem {index} unasked"),
                }
                let s = u128::from(low) | (u128::from(high) << 64);
                total = total.checked_add(s).context("the count is past 2^128")?;
                nodes = nodes.saturating_add(found_nodes);
                done += 1;
                bar.set_message(format!("{total} solutions"));
                bar.inc(1);
            }
            if !hand_out(&world.process_at_rank(source), &mut next, n, chunk) {
                running -= 1;
            }
        }
        bar.finish_and_clear();
    }
    if done != n {
        anyhow::bail!("only {done} of {n} subproblems were counted");
    }
    if args.search.stats || args.search.stats_format == crate::cli::StatsFormat::Json {
        match args.search.stats_format {
            crate::cli::StatsFormat::Text => {
                crate::report::line(&format!("nodes: {nodes}"));
                crate::report::line(&format!(
                    "ranks: {size}, threads per rank: {threads}, subproblems: {n} at depth {}",
                    split.depth
                ));
            }
            crate::cli::StatsFormat::Json => crate::report::line(&format!(
                "{{\"nodes\":{nodes},\"ranks\":{size},\"threads_per_rank\":{threads},\"subproblems\":{n},\"depth\":{}}}",
                split.depth
            )),
        }
    }
    let mut out = io::stdout().lock();
    writeln!(out, "{total}")
        .and_then(|()| out.flush())
        .context("cannot write to standard output")?;
    Ok(Status::of_search(false, total))
}

/// Solves the subproblems `range` of `subproblems` on `threads` threads
/// of this rank (the engine's one pool): the solutions of each, in the
/// order of the subproblems.
fn solve_range(
    problem: &Problem<String>,
    engine: Engine,
    subproblems: &[Vec<OptionId>],
    range: Range<usize>,
    threads: usize,
) -> anyhow::Result<Vec<Vec<OptionId>>> {
    let items: Vec<usize> = range.clone().collect();
    let run = parallel::Pool::new(threads)
        .run(
            &items,
            || Solver::new(problem).engine(engine),
            |solver, i, _| {
                solver.reset_to(&subproblems[i])?;
                let mut found = Vec::new();
                let outcome = solver.for_each(|s| {
                    found.push(s.options().to_vec());
                    ControlFlow::Continue(())
                });
                Ok::<_, exactly::PrefixError>(parallel::Item {
                    value: found,
                    nodes: solver.stats().nodes,
                    outcome,
                })
            },
            |_, _| {},
        )
        .map_err(parallel::BadPrefix::from)
        .context("cannot split the search")?;
    // Without budgets, every subproblem is searched to the end.
    anyhow::ensure!(
        run.outcome.is_complete(),
        "subproblems {range:?} stopped early: {:?}",
        run.outcome
    );
    let mut items = run.items;
    items.sort_unstable_by_key(|&(i, _)| i);
    Ok(items.into_iter().flat_map(|(_, item)| item.value).collect())
}

/// Runs `solve --mpi` on this rank: rank 0 prints every solution.
pub fn solve(args: &SolveArgs, input: &Input) -> anyhow::Result<Status> {
    let problem = &input.problem;
    let universe = mpi::initialize().context("cannot start MPI (run under mpirun)")?;
    let world = universe.world();
    let (rank, size) = (world.rank(), world.size());
    let engine: Engine = args.search.engine.into();
    let threads = threads_per_rank(args.threads);
    let workers = (size as usize).saturating_sub(1).max(1);
    let (split, above) =
        parallel::split_with_solutions(problem, engine, PER_WORKER * workers * threads, 64);
    let subproblems = split.subproblems;
    let n = subproblems.len();
    let chunk = CHUNK_PER_THREAD * threads;
    if rank != 0 {
        // Worker: [NONE] asks for work, answered [start, end] or [NONE];
        // the solutions of a run go first, each tagged SOLUTION.
        let root = world.process_at_rank(0);
        loop {
            root.send_with_tag(&[NONE][..], REQUEST);
            let Some(run) = next_run(&root, n) else {
                return Ok(Status::Success);
            };
            for options in solve_range(problem, engine, &subproblems, run, threads)? {
                let words: Vec<u64> = options.iter().map(|o| o.index() as u64).collect();
                root.send_with_tag(&words[..], SOLUTION);
            }
        }
    }
    let stdout = io::stdout();
    let mut printer = Printer::new(io::BufWriter::new(stdout.lock()), args.format, input, None);
    let mut found = 0u128;
    let mut print = |options: Vec<OptionId>, found: &mut u128| -> anyhow::Result<()> {
        *found += 1;
        printer
            .solution(&Solution::new(options))
            .context("cannot write to standard output")
    };
    for s in &above {
        print(s.clone(), &mut found)?;
    }
    if size == 1 {
        for start in (0..n).step_by(chunk) {
            let end = (start + chunk).min(n);
            for s in solve_range(problem, engine, &subproblems, start..end, threads)? {
                print(s, &mut found)?;
            }
        }
    } else {
        let mut next = 0usize;
        let mut running = size as usize - 1;
        while running > 0 {
            let (message, status) = world.any_process().receive_vec::<u64>();
            if status.tag() == SOLUTION {
                let options = message.iter().map(|&o| OptionId::new(o as usize)).collect();
                print(options, &mut found)?;
                continue;
            }
            if !hand_out(
                &world.process_at_rank(status.source_rank()),
                &mut next,
                n,
                chunk,
            ) {
                running -= 1;
            }
        }
    }
    printer
        .finish()
        .context("cannot write to standard output")?;
    Ok(Status::of_search(false, found))
}
