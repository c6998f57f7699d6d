//! `exactly sudoku gen|rate|hint|encode`: new puzzles, ratings, hints, and
//! the whole exact-cover matrix of a puzzle.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::io::{self, Write};

use anyhow::Context;
use exactly::parallel::{Item, Pool};
use exactly::Outcome;
use exactly_puzzles::sudoku::generate::{Generated, Generation, Generator, Symmetry};
use exactly_puzzles::sudoku::logic::{self, Board, Level, Rating, State, Technique};
use exactly_puzzles::sudoku::{
    self, knuth, Grid, Layout, Regions, Rules, Shape, Style, SudokuError, Symbols, Verdict,
};

use crate::cli::{
    SudokuEncodeArgs, SudokuGenArgs, SudokuGenFormat, SudokuHintArgs, SudokuInputArgs,
    SudokuRateArgs, SudokuTool, SudokuToolFormat, SymmetryArg,
};
use crate::commands::sudoku::{error_text, parse_box, read_batch, rules_of, shape_and_regions};
use crate::report::{self, Status};

/// Runs a subcommand of `exactly sudoku`.
pub fn run(tool: &SudokuTool) -> anyhow::Result<Status> {
    match tool {
        SudokuTool::Gen(args) => gen(args),
        SudokuTool::Rate(args) => rate(args),
        SudokuTool::Hint(args) => hint(args),
        SudokuTool::Encode(args) => encode(args),
    }
}

/// The labels of a region map: region k is written `REGION_LABELS[k]`.
const REGION_LABELS: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@$";

/// The most threads `sudoku gen` runs.
const MAX_THREADS: usize = 256;

/// A bound on the rating: a level, or search nodes.
#[derive(Clone, Copy, Debug)]
enum Bound {
    Level(Level),
    Nodes(u64),
}

fn parse_bound(option: &str, text: &str) -> anyhow::Result<Bound> {
    if let Ok(nodes) = text.trim().parse::<u64>() {
        return Ok(Bound::Nodes(nodes));
    }
    match Level::from_name(text.trim()) {
        Some(level) => Ok(Bound::Level(level)),
        None => {
            let names: Vec<&str> = std::iter::once("given")
                .chain(Technique::ALL.iter().map(|t| t.name()))
                .chain(std::iter::once("guessing"))
                .collect();
            anyhow::bail!(
                "{option}: expected a number of search nodes or one of {}, found '{text}'",
                names.join(", ")
            )
        }
    }
}

/// A rating as the output shows it.
#[derive(Clone, Debug, serde::Serialize)]
struct RatingRecord {
    level: &'static str,
    nodes: u64,
    guesses: u64,
    /// Steps per technique, the techniques used only, easiest first.
    steps: BTreeMap<usize, (&'static str, u64)>,
}

impl RatingRecord {
    fn new(rating: &Rating, nodes: u64) -> RatingRecord {
        let steps = Technique::ALL
            .iter()
            .enumerate()
            .filter(|(_, t)| rating.count(**t) > 0)
            .map(|(i, t)| (i, (t.name(), rating.count(*t))))
            .collect();
        RatingRecord {
            level: rating.level().name(),
            nodes,
            guesses: rating.guesses,
            steps,
        }
    }

    /// `level nodes=N guesses=G technique=K …`.
    fn line(&self) -> String {
        let mut text = format!(
            "{} nodes={} guesses={}",
            self.level, self.nodes, self.guesses
        );
        for (name, count) in self.steps.values() {
            text.push_str(&format!(" {name}={count}"));
        }
        text
    }

    /// A JSON object: steps as `{"naked-single": 40, …}` in technique order.
    fn json(&self) -> serde_json::Value {
        let mut steps = serde_json::Map::new();
        for (name, count) in self.steps.values() {
            steps.insert((*name).to_string(), (*count).into());
        }
        serde_json::json!({
            "level": self.level,
            "nodes": self.nodes,
            "guesses": self.guesses,
            "steps": steps,
        })
    }
}

/// Rates a puzzle known to have one solution.
fn rate_puzzle(grid: &Grid, rules: &Rules) -> Result<RatingRecord, SudokuError> {
    let rating = logic::rate(grid, rules)?;
    let nodes = logic::search_nodes(grid, rules)?;
    Ok(RatingRecord::new(&rating, nodes))
}

/// [`rate_puzzle`] within `time` (`None`: no limit); `Ok(None)` when it ran
/// out first.
fn rate_puzzle_within(
    grid: &Grid,
    rules: &Rules,
    time: Option<std::time::Duration>,
) -> Result<Option<RatingRecord>, SudokuError> {
    let Some(time) = time else {
        return rate_puzzle(grid, rules).map(Some);
    };
    let start = exactly::time::Instant::now();
    let left = || time.saturating_sub(start.elapsed());
    let Some(rating) = logic::rate_within(grid, rules, &|_| left().is_zero())? else {
        return Ok(None);
    };
    let limits = exactly::Limits::default().max_time(left());
    if left().is_zero() {
        return Ok(None);
    }
    Ok(logic::search_nodes_within(grid, rules, &limits)?
        .map(|nodes| RatingRecord::new(&rating, nodes)))
}

/// True when `rating` lies within the bounds.
fn within(rating: &RatingRecord, min: Option<Bound>, max: Option<Bound>) -> bool {
    let level = Level::from_name(rating.level).unwrap_or(Level::Guessing);
    let ok = |bound: Option<Bound>, at_least: bool| match bound {
        None => true,
        Some(Bound::Level(l)) => {
            if at_least {
                level >= l
            } else {
                level <= l
            }
        }
        Some(Bound::Nodes(n)) => {
            if at_least {
                rating.nodes >= n
            } else {
                rating.nodes <= n
            }
        }
    };
    ok(min, true) && ok(max, false)
}

/// A puzzle as one line in `exactly sudoku`'s symbols.
fn line_of(grid: &Grid) -> String {
    let style = Style {
        layout: Layout::Line,
        symbols: Symbols::Digits { lower: false },
    };
    style.format(grid).trim_end().to_string()
}

/// A region map on one line.
fn map_of(regions: &Regions) -> String {
    let n = regions.size();
    (0..n * n)
        .map(|i| char::from(REGION_LABELS[regions.region(i / n, i % n) % 64]))
        .collect()
}

/// The shape `sudoku gen` makes.
fn gen_shape(args: &SudokuGenArgs) -> anyhow::Result<Shape> {
    let shape = match (&args.box_shape, args.size) {
        (Some(b), size) => {
            let shape = parse_box(b)?;
            if let Some(n) = size.filter(|&n| n != shape.size()) {
                anyhow::bail!(
                    "--size {n} does not match --box {b}, whose grids are {0}x{0}",
                    shape.size()
                );
            }
            shape
        }
        (None, size) => {
            let n = size.unwrap_or(9);
            anyhow::ensure!(
                (sudoku::MIN_SIZE..=Shape::MAX_SIZE).contains(&n),
                "--size {n}: the side must be between {} and {}",
                sudoku::MIN_SIZE,
                Shape::MAX_SIZE
            );
            match Shape::infer(n) {
                Some(shape) => shape,
                None if args.jigsaw => Shape::new(1, n)?,
                None => anyhow::bail!(
                    "--size {n}: cannot tell the box shape of a {n}x{n} grid; give it with --box RxC"
                ),
            }
        }
    };
    anyhow::ensure!(
        shape.size() >= sudoku::MIN_SIZE,
        "--box {shape}: grids of side {} are below the smallest, {}",
        shape.size(),
        sudoku::MIN_SIZE
    );
    Ok(shape)
}

/// A made puzzle with its rating, when one was asked for.
type Made = (Generated, Option<RatingRecord>);

/// `exactly sudoku gen`.
fn gen(args: &SudokuGenArgs) -> anyhow::Result<Status> {
    let shape = gen_shape(args)?;
    anyhow::ensure!(
        !(args.jigsaw && args.format == SudokuGenFormat::Grid),
        "--format grid cannot carry a jigsaw's regions: use line (cells, then the region map) or json"
    );
    let min = args
        .min_rating
        .as_deref()
        .map(|t| parse_bound("--min-rating", t))
        .transpose()?;
    let max = args
        .max_rating
        .as_deref()
        .map(|t| parse_bound("--max-rating", t))
        .transpose()?;
    let symmetry = match args.symmetry {
        SymmetryArg::None => Symmetry::None,
        SymmetryArg::Rotational => Symmetry::Rotational,
        SymmetryArg::Mirror => Symmetry::Mirror,
    };
    let mut generator = Generator::new(shape, args.diagonals, args.jigsaw)?
        .symmetry(symmetry)
        .allow_unproven(args.allow_unproven);
    if let Some(nodes) = args.max_nodes {
        generator = generator.max_nodes(nodes);
    }
    let rated = min.is_some() || max.is_some() || args.format == SudokuGenFormat::Json;
    let threads = threads_of(args.threads).min(usize::try_from(args.count).unwrap_or(usize::MAX));
    let make = |index: u64| -> Result<Result<Made, Generation>, SudokuError> {
        let mut rating = None;
        let made = generator.generate_within(
            args.seed,
            index,
            args.attempts,
            args.timeout,
            |made, left| {
                if args.clues.is_some_and(|c| made.puzzle.givens() > c) {
                    return Ok(Some(false));
                }
                if !rated {
                    return Ok(Some(true));
                }
                let rules = generator.rules(made.regions.clone());
                let Some(r) = rate_puzzle_within(&made.puzzle, &rules, left)? else {
                    return Ok(None);
                };
                let ok = within(&r, min, max);
                rating = Some(r);
                Ok(Some(ok))
            },
        )?;
        Ok(match made {
            Generation::Made(g, _) => Ok((g, rating)),
            other => Err(other),
        })
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut status = Status::Success;
    let mut unproven = 0;
    let mut out_of_time: u64 = 0;
    // The puzzles in rounds of a few per thread on the engine's pool
    // ([`exactly::parallel::Pool`]), each round printed in index order as
    // it ends.
    let round = (threads as u64).saturating_mul(4);
    let mut first = 0;
    while first < args.count {
        let last = args.count.min(first.saturating_add(round));
        let made = on_pool(threads, (last - first) as usize, |i| make(first + i as u64));
        for (i, value) in made.into_iter().enumerate() {
            let index = first + i as u64;
            match value? {
                Ok((g, rating)) => {
                    unproven += usize::from(g.unproven > 0);
                    write_made(&mut out, args, index, &g, rating.as_ref())?;
                }
                Err(Generation::OutOfTime) => {
                    out_of_time += 1;
                    report::message(&format!(
                        "puzzle {}: not made within --timeout {} s; left out",
                        index + 1,
                        args.timeout.unwrap_or_default().as_secs_f64()
                    ));
                }
                Err(_) => {
                    if status == Status::Success {
                        status = Status::NoSolution;
                    }
                    report::message(&format!(
                        "puzzle {}: none of {} attempts met --clues, --min-rating and --max-rating",
                        index + 1,
                        args.attempts
                    ));
                }
            }
        }
        out.flush()?;
        first = last;
    }
    out.flush()?;
    if unproven > 0 {
        report::message(&format!(
            "{unproven} puzzles keep clues whose removal checks ran out of --max-nodes: \
             each has one solution but is not proven minimal (JSON field unproven)"
        ));
    }
    if out_of_time > 0 {
        report::message(&format!(
            "stopped by --timeout: {out_of_time} of {} puzzles not made in time",
            args.count
        ));
        status = Status::Stopped;
    }
    Ok(status)
}

fn write_made(
    out: &mut impl Write,
    args: &SudokuGenArgs,
    index: u64,
    made: &Generated,
    rating: Option<&RatingRecord>,
) -> anyhow::Result<()> {
    match args.format {
        SudokuGenFormat::Line => match &made.regions {
            Some(r) => writeln!(out, "{} {}", line_of(&made.puzzle), map_of(r))?,
            None => writeln!(out, "{}", line_of(&made.puzzle))?,
        },
        SudokuGenFormat::Grid => {
            if index > 0 {
                writeln!(out)?;
            }
            let style = Style {
                layout: Layout::Grid,
                symbols: Symbols::Digits { lower: false },
            };
            write!(out, "{}", style.format(&made.puzzle))?;
        }
        SudokuGenFormat::Json => {
            let object = serde_json::json!({
                "index": index,
                "puzzle": line_of(&made.puzzle),
                "solution": line_of(&made.solution),
                "clues": made.puzzle.givens(),
                "regions": made.regions.as_ref().map(map_of),
                "unproven": made.unproven,
                "rating": rating.map(RatingRecord::json),
            });
            writeln!(out, "{object}")?;
        }
    }
    Ok(())
}

/// Reads the records of `sudoku rate|hint|encode`, with the rules they
/// share.
fn read(args: &SudokuInputArgs) -> anyhow::Result<(String, Vec<sudoku::Record>, Rules)> {
    let (shape, regions) = shape_and_regions(args.box_shape.as_deref(), args.regions.as_deref())?;
    let (name, text) = read_batch(&args.file)?;
    let rules = Rules::default().diagonals(args.diagonals).regions(regions);
    let records = sudoku::Reader::new()
        .shape(shape)
        .rules(rules.clone())
        .jigsaw(args.jigsaw)
        .read(&text);
    anyhow::ensure!(
        !records.is_empty(),
        "{name}: no puzzles: the input is empty or holds only comments and blank lines"
    );
    Ok((name, records, rules))
}

/// `f(i)` for every `i` in `0..n`, on `threads` threads of the engine's
/// pool (no budgets: every item runs), in the order of `i`.
fn on_pool<T: Send>(threads: usize, n: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let items: Vec<usize> = (0..n).collect();
    let run = Pool::new(threads).run(
        &items,
        || (),
        |(), i, _| {
            Ok::<_, Infallible>(Item {
                value: f(i),
                nodes: 0,
                outcome: Outcome::Complete,
            })
        },
        |_, _| {},
    );
    let mut done = match run {
        Ok(run) => run.items,
        Err(failed) => match failed.error {},
    };
    done.sort_unstable_by_key(|&(i, _)| i);
    done.into_iter().map(|(_, item)| item.value).collect()
}

/// What `rate` finds for one record: a rating, the verdict of a puzzle
/// without one solution, or the error text of an invalid record.
type Rated = Result<Result<RatingRecord, Verdict>, String>;

/// Rates one record within the budgets of `args` (see [`rate_within`]).
fn rate_record(record: &sudoku::Record, rules: &Rules, args: &SudokuRateArgs) -> Rated {
    let line = record.line;
    let text = |e: &SudokuError| error_text(line, e);
    let p = record.puzzle.as_ref().map_err(text)?;
    let rules = rules_of(p, rules);
    rate_within(&p.grid, &rules, args.budget.max_nodes, args.budget.timeout).map_err(|e| text(&e))
}

/// The worker threads of `--threads`: all cores by default, at most
/// [`MAX_THREADS`].
fn threads_of(threads: Option<usize>) -> usize {
    super::scale::threads_at_most(threads, MAX_THREADS)
}

/// `exactly sudoku rate`: the records rated on the engine's pool
/// ([`exactly::parallel::Pool`]), printed in the input's order.
fn rate(args: &SudokuRateArgs) -> anyhow::Result<Status> {
    let (name, records, rules) = read(&args.input)?;
    let total = records.len();
    let rated = on_pool(threads_of(args.threads), total, |i| {
        rate_record(&records[i], &rules, args)
    });
    let mut out = io::BufWriter::new(io::stdout().lock());
    let (mut invalid, mut unsolved, mut stopped) = (0, false, false);
    let json = args.format == SudokuToolFormat::Json;
    // Every record is rated, each within its own budget, and printed in
    // order.
    for (i, value) in rated.into_iter().enumerate() {
        let line = records[i].line;
        stopped |= matches!(value, Ok(Err(Verdict::Unknown)));
        match value {
            Ok(Ok(r)) if json => {
                let mut object = r.json();
                object["line"] = line.into();
                object["verdict"] = "unique".into();
                writeln!(out, "{object}")?;
            }
            Ok(Ok(r)) => writeln!(out, "{}", r.line())?,
            Ok(Err(verdict)) => {
                unsolved |= verdict != Verdict::Unknown;
                if json {
                    let object = serde_json::json!({"line": line, "verdict": verdict.word()});
                    writeln!(out, "{object}")?;
                } else {
                    writeln!(out, "{}", verdict.word())?;
                }
            }
            Err(text) => {
                invalid += 1;
                if json {
                    let object =
                        serde_json::json!({"line": line, "verdict": "invalid", "error": text});
                    writeln!(out, "{object}")?;
                } else {
                    writeln!(out, "invalid: {text}")?;
                }
            }
        }
    }
    out.flush()?;
    let status = finish(&name, invalid, total, unsolved)?;
    Ok(if stopped { Status::Stopped } else { status })
}

/// Rates a puzzle within a budget for each of its searches (and the
/// guesses of its rating), its time counted from the start: the rating of
/// a puzzle with one solution, else its verdict (`Unknown` once a budget
/// ran out).
fn rate_within(
    grid: &Grid,
    rules: &Rules,
    max_nodes: Option<u64>,
    timeout: Option<std::time::Duration>,
) -> Result<Result<RatingRecord, Verdict>, SudokuError> {
    let start = exactly::time::Instant::now();
    let left = || timeout.map(|t| t.saturating_sub(start.elapsed()));
    let limits = || {
        let mut limits = exactly::Limits::default();
        if let Some(nodes) = max_nodes {
            limits = limits.max_nodes(nodes);
        }
        if let Some(time) = left() {
            limits = limits.max_time(time);
        }
        limits
    };
    let answer = sudoku::solve_parallel(grid, 2, rules, &limits(), 1)?;
    if answer.verdict != Verdict::Unique {
        return Ok(Err(answer.verdict));
    }
    let stop = |guesses: u64| {
        max_nodes.is_some_and(|n| guesses >= n) || left().is_some_and(|t| t.is_zero())
    };
    let Some(rating) = logic::rate_within(grid, rules, &stop)? else {
        return Ok(Err(Verdict::Unknown));
    };
    if left().is_some_and(|t| t.is_zero()) {
        return Ok(Err(Verdict::Unknown));
    }
    match logic::search_nodes_within(grid, rules, &limits())? {
        Some(nodes) => Ok(Ok(RatingRecord::new(&rating, nodes))),
        None => Ok(Err(Verdict::Unknown)),
    }
}

/// The exit status of `rate` and `hint`: an error (status 2) when some
/// records are invalid, after every record is answered.
fn finish(name: &str, invalid: usize, total: usize, unsolved: bool) -> anyhow::Result<Status> {
    anyhow::ensure!(
        invalid == 0,
        "{name}: {invalid} of {total} records are invalid"
    );
    Ok(if unsolved {
        Status::NoSolution
    } else {
        Status::Success
    })
}

/// `exactly sudoku hint`.
fn hint(args: &SudokuHintArgs) -> anyhow::Result<Status> {
    let (name, records, rules) = read(&args.input)?;
    let total = records.len();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut invalid = 0;
    let json = args.format == SudokuToolFormat::Json;
    for record in records {
        let line = record.line;
        let board = record
            .puzzle
            .and_then(|p| Board::new(&p.grid, &rules_of(&p, &rules)));
        let board = match board {
            Ok(b) => b,
            Err(e) => {
                invalid += 1;
                let text = error_text(line, &e);
                if json {
                    let object =
                        serde_json::json!({"line": line, "technique": "invalid", "error": text});
                    writeln!(out, "{object}")?;
                } else {
                    writeln!(out, "invalid: {text}")?;
                }
                continue;
            }
        };
        let step = match board.state() {
            State::Solved => Err("solved"),
            State::Contradiction => Err("contradiction"),
            State::Open => board.next_step().ok_or("guessing"),
        };
        match (step, json) {
            (Ok(step), false) => writeln!(out, "{step}")?,
            (Ok(step), true) => {
                let cell = |r: usize, c: usize| logic::cell_name(r, c);
                let placement = |p: &sudoku::Placement, sep: &str| {
                    format!("{}{sep}{}", cell(p.row.into(), p.col.into()), p.value)
                };
                let object = serde_json::json!({
                    "line": line,
                    "technique": step.technique.name(),
                    "values": step.values,
                    "cells": step.cells.iter().map(|&(r, c)| cell(r, c)).collect::<Vec<_>>(),
                    "units": step.units.iter().map(ToString::to_string).collect::<Vec<_>>(),
                    "places": step.places.iter().map(|p| placement(p, "=")).collect::<Vec<_>>(),
                    "removes": step.removes.iter().map(|p| placement(p, "<>")).collect::<Vec<_>>(),
                });
                writeln!(out, "{object}")?;
            }
            (Err(word), _) => {
                // No technique applies: name the cell a guess would take.
                let guess = (word == "guessing")
                    .then(|| board.guess_cell())
                    .flatten()
                    .map(|(r, c)| (logic::cell_name(r, c), board.candidates(r, c)));
                match (guess, json) {
                    (Some((cell, values)), false) => {
                        let values: Vec<String> = values.iter().map(u8::to_string).collect();
                        writeln!(out, "guessing: {cell} holds one of {}", values.join(","))?;
                    }
                    (Some((cell, values)), true) => {
                        let object = serde_json::json!({"line": line, "technique": "guessing", "cells": [cell], "values": values});
                        writeln!(out, "{object}")?;
                    }
                    (None, false) => writeln!(out, "{word}")?,
                    (None, true) => {
                        let object = serde_json::json!({"line": line, "technique": word});
                        writeln!(out, "{object}")?;
                    }
                }
            }
        }
    }
    out.flush()?;
    finish(&name, invalid, total, false)
}

/// `exactly sudoku encode`.
fn encode(args: &SudokuEncodeArgs) -> anyhow::Result<Status> {
    let (name, records, rules) = read(&args.input)?;
    let count = records.len();
    let record = records
        .into_iter()
        .nth(args.record - 1)
        .with_context(|| format!("--record {}: {name} holds {count} records", args.record))?;
    let line = record.line;
    let puzzle = record
        .puzzle
        .map_err(|e| anyhow::anyhow!("{name}: {}", error_text(line, &e)))?;
    let rules = rules_of(&puzzle, &rules);
    let problem = knuth::encode_full(&puzzle.grid, &rules)
        .map_err(|e| anyhow::anyhow!("{name}: line {line}: {e}"))?;
    let n = puzzle.grid.size();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let kind = match (&rules.regions, rules.diagonals) {
        (Some(_), true) => "jigsaw X-sudoku".to_string(),
        (Some(_), false) => "jigsaw sudoku".to_string(),
        (None, x) => format!(
            "{}sudoku with {} boxes",
            if x { "X-" } else { "" },
            puzzle.grid.shape()
        ),
    };
    writeln!(
        out,
        "| {n}x{n} {kind}, {} givens: {name} line {line}",
        puzzle.grid.givens()
    )?;
    writeln!(out, "| {}", line_of(&puzzle.grid))?;
    exactly::format::write_dlx(&problem, &mut out)?;
    out.flush()?;
    Ok(Status::Success)
}
