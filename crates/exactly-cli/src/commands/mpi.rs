//! `count --mpi` and `solve --mpi`: many machines under `mpirun`.
//!
//! Every rank reads the problem and computes the same split (it is
//! deterministic). Rank 0 coordinates: each worker asks for work, carrying
//! the result of its last subproblem, and gets the index of the next one,
//! or the word to stop. Rank 0 prints the total. With one rank, it counts
//! alone. For `solve`, workers also send each solution (its option
//! numbers, tagged [`SOLUTION`]) before asking for more work; MPI keeps one
//! sender's messages in order, so rank 0 prints them all before it stops.

use std::io::{self, Write};

use anyhow::Context;
use exactly::parallel::{self, Split};
use exactly::{Engine, OptionId, Problem, Solution, Solver};
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

/// Subproblems per worker.
const PER_WORKER: usize = 64;

/// Counts one subproblem: (solutions, nodes).
fn count_one<L>(
    solver: &mut Solver<'_, L>,
    split: &Split,
    index: usize,
) -> anyhow::Result<(u128, u64)> {
    solver.reset();
    solver
        .restrict(&split.subproblems[index])
        .with_context(|| format!("subproblem {index} does not replay"))?;
    let solutions = solver.count().solutions;
    Ok((solutions, solver.stats().nodes))
}

/// Runs `count --mpi` on this rank.
pub fn count(args: &CountArgs, problem: &Problem<String>) -> anyhow::Result<Status> {
    let universe = mpi::initialize().context("cannot start MPI (run under mpirun)")?;
    let world = universe.world();
    let (rank, size) = (world.rank(), world.size());
    let engine: Engine = args.search.engine.into();
    let workers = (size as usize).saturating_sub(1).max(1);
    let split = parallel::split(problem, engine, PER_WORKER * workers, 64);
    let mut solver = Solver::new(problem).engine(engine);
    if rank != 0 {
        // Worker: [index, solutions (low, high), nodes] or NONE first.
        let mut request = [NONE, 0, 0, 0];
        loop {
            world.process_at_rank(0).send(&request[..]);
            let (answer, _) = world.process_at_rank(0).receive_vec::<u64>();
            let index = answer.first().copied().unwrap_or(NONE);
            if index == NONE {
                return Ok(Status::Success);
            }
            let (solutions, nodes) = count_one(&mut solver, &split, index as usize)?;
            request = [index, solutions as u64, (solutions >> 64) as u64, nodes];
        }
    }
    let n = split.subproblems.len();
    let (mut total, mut nodes) = (split.solutions, split.nodes);
    let mut done = 0usize;
    if size == 1 {
        for i in 0..n {
            let (s, k) = count_one(&mut solver, &split, i)?;
            total = total.checked_add(s).context("the count is past 2^128")?;
            nodes = nodes.saturating_add(k);
        }
        done = n;
    } else {
        let bar = super::scale::subproblem_bar(n);
        let mut next = 0usize;
        let mut counted = vec![false; n];
        let mut running = size as usize - 1;
        while running > 0 {
            let (request, status) = world.any_process().receive_vec::<u64>();
            if let [index, low, high, k] = request[..] {
                if index != NONE {
                    // Each subproblem handed out once must come back once.
                    match counted.get_mut(index as usize) {
                        Some(seen) if !*seen => *seen = true,
                        _ => anyhow::bail!(
                            "rank {} returned subproblem {index} unasked",
                            status.source_rank()
                        ),
                    }
                    let s = u128::from(low) | (u128::from(high) << 64);
                    total = total.checked_add(s).context("the count is past 2^128")?;
                    nodes = nodes.saturating_add(k);
                    done += 1;
                    bar.set_message(format!("{total} solutions"));
                    bar.inc(1);
                }
            }
            let worker = world.process_at_rank(status.source_rank());
            if next < n {
                worker.send(&[next as u64][..]);
                next += 1;
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
    if args.search.stats {
        crate::report::line(&format!("nodes: {nodes}"));
        crate::report::line(&format!(
            "ranks: {size}, subproblems: {n} at depth {}",
            split.depth
        ));
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
    solver
        .restrict(&subproblems[i])
        .with_context(|| format!("subproblem {i} does not replay"))?;
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
