//! `count --mpi` and `solve --mpi`: many machines under `mpirun`.
//!
//! Every rank reads the problem and computes the same split (it is
//! deterministic). Rank 0 coordinates: each worker asks for work, carrying
//! the results of its last subproblems, and gets the next run of
//! subproblems (a few per thread), or the word to stop; it counts them on
//! `--threads` threads (default 1) through the engine's one pool
//! ([`parallel::count_split`]). Rank 0 prints the total. With one rank, it
//! counts alone, the same way. For `solve`, workers also send each solution (its option
//! numbers, tagged [`SOLUTION`]) before asking for more work; MPI keeps one
//! sender's messages in order, so rank 0 prints them all before it stops.
//! A `solve` worker sends from its own thread (MPI handles are not shared
//! between threads), so it searches its subproblems one at a time on that
//! thread rather than on the pool.

use std::io::{self, Write};
use std::ops::Range;
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
const PER_WORKER: usize = 64;

/// Subproblems handed out at once, per thread of the rank that counts them.
const CHUNK_PER_THREAD: usize = 4;

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
    // Threads of each rank: --threads, else one (ranks are usually cores).
    let threads = args
        .threads
        .map_or(1, |n| usize::try_from(n).unwrap_or(usize::MAX))
        .clamp(1, parallel::MAX_THREADS);
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
            let (answer, _) = world.process_at_rank(0).receive_vec::<u64>();
            let (start, end) = match answer[..] {
                [start, end] if start != NONE => (start as usize, end as usize),
                _ => return Ok(Status::Success),
            };
            let found = count_range(problem, engine, &split, start..end.min(n), threads)?;
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
            let worker = world.process_at_rank(source);
            if next < n {
                let end = (next + chunk).min(n);
                worker.send(&[next as u64, end as u64][..]);
                next = end;
            } else {
                worker.send(&[NONE][..]);
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

/// Hands every solution of subproblem `i` to `each`.
fn visit(
    solver: &mut Solver<'_, String>,
    subproblems: &[Vec<OptionId>],
    i: usize,
    each: &mut dyn FnMut(&[OptionId]),
) -> anyhow::Result<()> {
    solver.reset();
    parallel::BadPrefix::replay(solver, i, &subproblems[i])?;
    solver.for_each(|s| {
        each(s.options());
        std::ops::ControlFlow::Continue(())
    });
    Ok(())
}

/// Runs `solve --mpi` on this rank: rank 0 prints every solution.
pub fn solve(args: &SolveArgs, input: &Input) -> anyhow::Result<Status> {
    let problem = &input.problem;
    let universe = mpi::initialize().context("cannot start MPI (run under mpirun)")?;
    let world = universe.world();
    let (rank, size) = (world.rank(), world.size());
    let engine: Engine = args.search.engine.into();
    let workers = (size as usize).saturating_sub(1).max(1);
    let (split, above) = parallel::split_with_solutions(problem, engine, PER_WORKER * workers, 64);
    let subproblems = split.subproblems;
    let mut solver = Solver::new(problem).engine(engine);
    let to_words = |options: &[OptionId]| {
        options
            .iter()
            .map(|o| o.index() as u64)
            .collect::<Vec<u64>>()
    };
    if rank != 0 {
        let mut last = NONE;
        loop {
            world.process_at_rank(0).send_with_tag(&[last][..], REQUEST);
            let (answer, _) = world.process_at_rank(0).receive_vec::<u64>();
            let index = answer.first().copied().unwrap_or(NONE);
            if index == NONE {
                return Ok(Status::Success);
            }
            let root = world.process_at_rank(0);
            visit(&mut solver, &subproblems, index as usize, &mut |options| {
                root.send_with_tag(&to_words(options)[..], SOLUTION);
            })?;
            last = index;
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
        for i in 0..subproblems.len() {
            let mut batch = Vec::new();
            visit(&mut solver, &subproblems, i, &mut |options| {
                batch.push(options.to_vec())
            })?;
            for s in batch {
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
            let worker = world.process_at_rank(status.source_rank());
            if next < subproblems.len() {
                worker.send(&[next as u64][..]);
                next += 1;
            } else {
                worker.send(&[NONE][..]);
                running -= 1;
            }
        }
    }
    printer
        .finish()
        .context("cannot write to standard output")?;
    Ok(Status::of_search(false, found))
}
