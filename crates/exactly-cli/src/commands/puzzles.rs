//! `exactly gen`, `exactly queens`, `exactly langford`: the puzzle front
//! ends, either emitted as Knuth-format files or solved directly.

use std::io::{self, Write};
use std::ops::ControlFlow;

use anyhow::Context;
use exactly::{Problem, Solution, StopReason};
use exactly_puzzles::{langford, polyomino, queens};

use crate::cli::{GenArgs, GenKind, LangfordArgs, QueensArgs, QueensOrder, SearchArgs};
use crate::report::Status;
use crate::search;

fn queens_puzzle(n: usize, order: QueensOrder) -> anyhow::Result<queens::Queens> {
    anyhow::ensure!(n >= 1, "the board needs at least one row");
    Ok(queens::Queens {
        n,
        order: order.into(),
    })
}

fn langford_puzzle(n: usize, symbreak: bool) -> anyhow::Result<langford::Langford> {
    anyhow::ensure!(n >= 1, "n must be at least 1");
    Ok(langford::Langford { n, symbreak })
}

/// Parses `RxC` (e.g. `6x10`).
fn parse_rect(text: &str) -> anyhow::Result<(usize, usize)> {
    let (r, c) = text
        .split_once(['x', 'X'])
        .with_context(|| format!("expected a size like 6x10, found '{text}'"))?;
    let r: usize = r.parse().with_context(|| format!("bad row count '{r}'"))?;
    let c: usize = c
        .parse()
        .with_context(|| format!("bad column count '{c}'"))?;
    anyhow::ensure!(r >= 1 && c >= 1, "the board needs at least one cell");
    Ok((r, c))
}

/// Runs `exactly gen`.
pub fn gen(args: &GenArgs) -> anyhow::Result<Status> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    match &args.kind {
        GenKind::Queens { n, order } => queens::write_dlx(&queens_puzzle(*n, *order)?, &mut out)?,
        GenKind::Langford { n, symbreak } => {
            langford::write_dlx(&langford_puzzle(*n, *symbreak)?, &mut out)?
        }
        GenKind::Pentomino { size, symbreak } => {
            let (r, c) = parse_rect(size)?;
            let mut puzzle =
                polyomino::Puzzle::new(polyomino::pentominoes(), polyomino::Board::rectangle(r, c));
            puzzle.symbreak = *symbreak;
            polyomino::write_dlx(&puzzle, &mut out)?
        }
    }
    out.flush().context("cannot write to standard output")?;
    Ok(Status::Success)
}

/// Counts or prints the solutions of a front end's problem, each decoded
/// by `show`.
fn solve<L: Clone>(
    problem: &Problem<L>,
    count_only: bool,
    search_args: &SearchArgs,
    mut show: impl FnMut(&Solution) -> String,
) -> anyhow::Result<Status> {
    // The search runs on a twin whose labels are the options' Knuth text (what
    // traces print); option ids are the same, so `show` decodes with `problem`.
    let mut texts = problem.option_ids().map(|o| problem.option_text(o));
    let shown = problem
        .clone()
        .map_labels(|_| texts.next().unwrap_or_default());
    let bar = search::progress_bar();
    let mut solver = search::solver(&shown, search_args, &bar);
    let mut out = io::BufWriter::new(io::stdout().lock());
    let (found, outcome) = if count_only {
        let c = solver.count();
        (c.solutions, c.outcome)
    } else {
        let mut n = 0u128;
        let mut result = Ok(());
        let outcome = solver.for_each(|s| {
            n += 1;
            result = writeln!(out, "{}", show(s));
            if result.is_err() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        result.context("cannot write to standard output")?;
        (n, outcome)
    };
    let expected: &[StopReason] = if count_only {
        &[]
    } else {
        &[StopReason::SolutionLimit]
    };
    let stopped = search::finish(&bar, outcome, solver.stats(), search_args, expected);
    if count_only {
        writeln!(out, "{found}").context("cannot write to standard output")?;
    }
    out.flush().context("cannot write to standard output")?;
    Ok(Status::of_search(stopped, found))
}

/// Runs `exactly queens`.
pub fn queens(args: &QueensArgs) -> anyhow::Result<Status> {
    let puzzle = queens_puzzle(args.n, args.order)?;
    let problem = queens::encode(&puzzle)?;
    solve(&problem, args.count, &args.search, |s| {
        queens::decode(&problem, s).to_string()
    })
}

/// Runs `exactly langford`.
pub fn langford(args: &LangfordArgs) -> anyhow::Result<Status> {
    let puzzle = langford_puzzle(args.n, args.symbreak)?;
    let problem = langford::encode(&puzzle)?;
    solve(&problem, args.count, &args.search, |s| {
        langford::decode(&problem, s).to_string()
    })
}
