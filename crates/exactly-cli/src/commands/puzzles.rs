//! `exactly gen`, `exactly queens`, `exactly langford`, `exactly
//! polyomino`: the puzzle front ends, either emitted as Knuth-format files
//! or solved directly.

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::Path;

use anyhow::{anyhow, Context};
use exactly::{Problem, Solution, StopReason};
use exactly_puzzles::{langford, polyomino, queens};

use crate::cli::{
    GenArgs, GenKind, LangfordArgs, PieceSet, PolyominoArgs, PolyominoSpec, QueensArgs,
    QueensOrder, SearchArgs,
};
use crate::input;
use crate::output::Every;
use crate::report::{self, Status};
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

/// Parses `RxC` (e.g. `6x10`) into a rectangle of at most
/// [`polyomino::MAX_SIDE`] rows and columns, checked before the board is
/// allocated.
fn parse_rect(text: &str) -> anyhow::Result<polyomino::Board> {
    let (r, c) = text
        .split_once(['x', 'X'])
        .with_context(|| format!("expected a size like 6x10, found '{text}'"))?;
    let side = |digits: &str, what: &str| -> anyhow::Result<usize> {
        anyhow::ensure!(
            !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()),
            "bad {what} count '{digits}' in '{text}': expected a positive integer"
        );
        let n = digits.parse::<usize>().unwrap_or(usize::MAX);
        anyhow::ensure!(n >= 1, "the board needs at least one cell, not '{text}'");
        anyhow::ensure!(
            n <= polyomino::MAX_SIDE,
            "the board {text} is too large: at most {max} rows and {max} columns (cells are named by two base-36 digits)",
            max = polyomino::MAX_SIDE
        );
        Ok(n)
    };
    let (r, c) = (side(r, "row")?, side(c, "column")?);
    Ok(polyomino::Board::try_rectangle(r, c)?)
}

/// Writes a front end's problem with `write`: a closed pipe is an I/O error
/// (which ends the run quietly), any other failure the front end's error.
fn write_problem(write: impl FnOnce() -> Result<(), exactly_puzzles::Error>) -> anyhow::Result<()> {
    match write() {
        Ok(()) => Ok(()),
        Err(exactly_puzzles::Error::Io(e)) => {
            Err(anyhow::Error::new(e).context("cannot write to standard output"))
        }
        Err(e) => Err(e.into()),
    }
}

/// The puzzle that `spec` describes: the file's pieces (or the built-in
/// set) on the file's board (or the `--board` rectangle). Reads standard
/// input when there is no file and no set; parse errors name the file, line
/// and column.
fn polyomino_puzzle(spec: &PolyominoSpec) -> anyhow::Result<polyomino::Puzzle> {
    let parsed = match (&spec.file, spec.set) {
        (None, Some(_)) => None,
        (file, _) => {
            let path = file.as_deref().unwrap_or(Path::new("-"));
            let (name, bytes) = input::read_source(path)?;
            let text = input::decode(&name, bytes)?;
            let parsed = polyomino::parse(&text).map_err(|e| anyhow!("{}", e.with_file(&name)))?;
            Some((name, parsed))
        }
    };
    let pieces = match spec.set {
        Some(PieceSet::Tetrominoes) => polyomino::tetrominoes(),
        Some(PieceSet::Pentominoes) => polyomino::pentominoes(),
        Some(PieceSet::Hexominoes) => polyomino::hexominoes(),
        None => parsed
            .as_ref()
            .map(|(_, p)| p.pieces.clone())
            .unwrap_or_default(),
    };
    let board = match (&spec.board, parsed) {
        (Some(size), _) => parse_rect(size)?,
        (None, Some((_, polyomino::Spec { board: Some(b), .. }))) => b,
        (None, Some((name, _))) => {
            anyhow::bail!("{name}: no board: add a 'board' block or give --board RxC")
        }
        (None, None) => anyhow::bail!("no board: give --board RxC or a file with a board"),
    };
    if pieces.iter().all(|p| p.count() == 0) {
        anyhow::bail!("no pieces: give a file with pieces or --set");
    }
    let mut puzzle = polyomino::Puzzle::new(pieces, board);
    puzzle.one_sided = spec.one_sided;
    puzzle.symbreak = spec.symbreak;
    Ok(puzzle)
}

/// Runs `exactly gen`.
pub fn gen(args: &GenArgs) -> anyhow::Result<Status> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    match &args.kind {
        GenKind::Queens { n, order } => {
            let puzzle = queens_puzzle(*n, *order)?;
            write_problem(|| queens::write_dlx(&puzzle, &mut out))?
        }
        GenKind::Langford { n, symbreak } => {
            let puzzle = langford_puzzle(*n, *symbreak)?;
            write_problem(|| langford::write_dlx(&puzzle, &mut out))?
        }
        GenKind::Pentomino { size, symbreak } => {
            let mut puzzle = polyomino::Puzzle::new(polyomino::pentominoes(), parse_rect(size)?);
            puzzle.symbreak = *symbreak;
            warn_impossible(&puzzle);
            write_problem(|| polyomino::write_dlx(&puzzle, &mut out))?
        }
        GenKind::Polyomino(spec) => {
            let puzzle = polyomino_puzzle(spec)?;
            warn_impossible(&puzzle);
            write_problem(|| polyomino::write_dlx(&puzzle, &mut out))?
        }
    }
    out.flush().context("cannot write to standard output")?;
    Ok(Status::Success)
}

/// Counts or prints the solutions of a front end's problem (every
/// `every`-th of them, as `solve --every` picks them), each decoded by
/// `show`.
fn solve<L: Clone>(
    problem: &Problem<L>,
    count_only: bool,
    search_args: &SearchArgs,
    every: u64,
    mut show: impl FnMut(&Solution) -> String,
) -> anyhow::Result<Status> {
    // The search runs on a twin whose labels are the options' Knuth text (what
    // traces print); option ids are the same, so `show` decodes with `problem`.
    let mut texts = problem.option_ids().map(|o| problem.option_text(o));
    let shown = problem
        .clone()
        .map_labels(|_| texts.next().unwrap_or_default());
    let bar = search::progress_bar();
    // Never resumed: a count or a listing may run on the rest of forced
    // moves.
    let mut solver = search::solver(&shown, search_args, &bar).resumable(false);
    let mut out = io::BufWriter::new(io::stdout().lock());
    let (found, outcome) = if count_only {
        let c = solver.count();
        (c.solutions, c.outcome)
    } else {
        let mut n = 0u128;
        let mut every = Every::new(every);
        let mut result = Ok(());
        let outcome = solver.for_each(|s| {
            n += 1;
            if every.next().is_none() {
                return ControlFlow::Continue(());
            }
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
    solve(&problem, args.count, &args.search, args.every.every, |s| {
        queens::decode(&problem, s).to_string()
    })
}

/// Runs `exactly langford`.
pub fn langford(args: &LangfordArgs) -> anyhow::Result<Status> {
    let puzzle = langford_puzzle(args.n, args.symbreak)?;
    let problem = langford::encode(&puzzle)?;
    solve(&problem, args.count, &args.search, args.every.every, |s| {
        langford::decode(&problem, s).to_string()
    })
}

/// Says on stderr that the puzzle has no tiling, when that is cheap to
/// see; returns whether it said so.
fn warn_impossible(puzzle: &polyomino::Puzzle) -> bool {
    match puzzle.impossibility() {
        Some(why) => {
            report::message(&format!("warning: {why}, so there is no tiling"));
            true
        }
        None => false,
    }
}

/// Runs `exactly polyomino`. A puzzle whose impossibility is cheap to see
/// (areas, a checkerboard coloring) is answered at once, without a search:
/// no tiling, a count of 0, exit status 1.
pub fn polyomino(args: &PolyominoArgs) -> anyhow::Result<Status> {
    let puzzle = polyomino_puzzle(&args.spec)?;
    if warn_impossible(&puzzle) {
        if args.count {
            let mut out = io::stdout().lock();
            writeln!(out, "0")
                .and_then(|()| out.flush())
                .context("cannot write to standard output")?;
        }
        return Ok(Status::NoSolution);
    }
    let problem = polyomino::encode(&puzzle)?;
    solve(&problem, args.count, &args.search, args.every.every, |s| {
        polyomino::decode(&problem, s).to_string()
    })
}
