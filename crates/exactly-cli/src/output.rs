//! Printing solutions in the `--format` of the user's choice.
//!
//! - `knuth` (the default): each chosen option as its line in the input,
//!   solutions separated by a blank line. A solution that chooses no option
//!   (a problem whose primary items may all stay uncovered) is the comment
//!   line `| empty solution`. `exactly verify` reads this back.
//! - `json`: one JSON object per line,
//!   `{"solution": k, "options": [lines...], "indices": [i...]}`, with `k`
//!   counting solutions from 1.
//! - `indices`: one line per solution, the option indices separated by
//!   blanks (an empty line for the empty solution).
//!
//! `--every M` prints only the M-th, 2M-th, ... solutions (JSON records
//! keep the number of each solution among all found); [`Every`] picks them
//! for `solve` and for the puzzle front ends alike.
//!
//! Counts (`count`, `merge`) print as the number alone on a line, or with
//! `--format json` as `{"solutions": N, "complete": C}`.
//!
//! Indices count the option records of the input from 0 in file order (DLX
//! option lines, or matrix rows) for both input formats; an option dropped
//! for lacking a primary item keeps its number. Within a solution, options
//! come in the order the search chose them, the same in every format.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::ops::ControlFlow;

use anyhow::Context;
use clap::ValueEnum;
use exactly::{Outcome, Solution};
use indicatif::ProgressBar;
use serde::Serialize;

use crate::cli::ResultFormat;
use crate::input::Input;

/// The line that stands for a solution choosing no option in the `knuth`
/// format (a comment to DLX readers; `exactly verify` reads it as the empty
/// solution).
pub const EMPTY_SOLUTION: &str = "| empty solution";

/// The `--format` choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Each chosen option as its input line; solutions separated by a blank line.
    Knuth,
    /// One JSON object per solution and line: solution, options, indices.
    Json,
    /// One line per solution: 0-based option indices in file order.
    Indices,
}

/// Which solutions `--every M` prints: the M-th, the 2M-th, ...
#[derive(Clone, Copy, Debug)]
pub struct Every {
    /// M (at least 1).
    every: u128,
    /// Solutions seen, printed or not.
    seen: u128,
}

impl Every {
    /// Picks every `every`-th solution (0 is taken as 1: all of them).
    pub fn new(every: u64) -> Self {
        Every {
            every: u128::from(every.max(1)),
            seen: 0,
        }
    }

    /// Counts one more solution; returns its number among all seen (from
    /// 1) when it is one to print.
    pub fn next(&mut self) -> Option<u128> {
        self.seen += 1;
        (self.seen % self.every == 0).then_some(self.seen)
    }
}

#[derive(Serialize)]
struct JsonSolution<'a> {
    solution: u128,
    options: Vec<&'a str>,
    indices: Vec<usize>,
}

/// Writes solutions to `out`, one at a time.
pub struct Printer<'a, W: Write> {
    out: W,
    format: OutputFormat,
    input: &'a Input,
    /// Solutions printed.
    printed: u128,
    /// Which solutions to print (`--every`).
    every: Every,
    /// Flush after every solution, with the progress bar out of the way (for
    /// a terminal on standard output).
    flush_each: Option<ProgressBar>,
    line: String,
}

impl<'a, W: Write> Printer<'a, W> {
    /// A printer of solutions to problems read from `input`. With
    /// `flush_each`, every solution is flushed at once while `bar` is hidden.
    pub fn new(
        out: W,
        format: OutputFormat,
        input: &'a Input,
        flush_each: Option<ProgressBar>,
    ) -> Self {
        Printer {
            out,
            format,
            input,
            printed: 0,
            every: Every::new(1),
            flush_each,
            line: String::new(),
        }
    }

    /// Prints only the `every`-th solutions (the `every`-th, the
    /// 2·`every`-th, ...); JSON records keep each solution's number.
    pub fn every(mut self, every: u64) -> Self {
        self.every = Every::new(every);
        self
    }

    /// Prints one solution (or, with [`Printer::every`], counts it).
    pub fn solution(&mut self, solution: &Solution) -> io::Result<()> {
        let problem = &self.input.problem;
        let Some(number) = self.every.next() else {
            return Ok(());
        };
        self.printed += 1;
        self.line.clear();
        match self.format {
            OutputFormat::Knuth => {
                if self.printed > 1 {
                    self.line.push('\n');
                }
                for &o in solution.options() {
                    self.line.push_str(problem.label(o));
                    self.line.push('\n');
                }
                if solution.options().is_empty() {
                    self.line.push_str(EMPTY_SOLUTION);
                    self.line.push('\n');
                }
            }
            OutputFormat::Json => {
                let record = JsonSolution {
                    solution: number,
                    options: solution
                        .options()
                        .iter()
                        .map(|&o| problem.label(o).as_str())
                        .collect(),
                    indices: indices(&self.input.positions, solution).collect(),
                };
                let json = serde_json::to_string(&record).map_err(io::Error::other)?;
                self.line.push_str(&json);
                self.line.push('\n');
            }
            OutputFormat::Indices => {
                let mut first = true;
                for i in indices(&self.input.positions, solution) {
                    if !first {
                        self.line.push(' ');
                    }
                    first = false;
                    self.line.push_str(&i.to_string());
                }
                self.line.push('\n');
            }
        }
        match &self.flush_each {
            None => self.out.write_all(self.line.as_bytes()),
            Some(bar) => bar.suspend(|| {
                self.out.write_all(self.line.as_bytes())?;
                self.out.flush()
            }),
        }
    }

    /// Flushes what is buffered.
    pub fn finish(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The file positions of the options of a solution.
fn indices<'s>(positions: &'s [usize], solution: &'s Solution) -> impl Iterator<Item = usize> + 's {
    solution
        .options()
        .iter()
        .map(|&o| positions.get(o.index()).copied().unwrap_or(o.index()))
}

/// Runs `search`, printing each solution it visits (or every `every`-th)
/// on standard output in `format`; a failed write stops the search and is
/// the error returned (with the progress `bar` cleared).
pub fn print_search(
    input: &Input,
    format: OutputFormat,
    every: u64,
    bar: &ProgressBar,
    search: impl FnOnce(&mut dyn FnMut(&Solution) -> ControlFlow<()>) -> Outcome,
) -> anyhow::Result<Outcome> {
    let stdout = io::stdout();
    let flush_each = stdout.is_terminal().then(|| bar.clone());
    let mut printer =
        Printer::new(BufWriter::new(stdout.lock()), format, input, flush_each).every(every);
    let mut failed = None;
    let outcome = search(&mut |solution| match printer.solution(solution) {
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
    Ok(outcome)
}

/// Prints the result of a count on standard output: the number alone on a
/// line, or `{"solutions": N, "complete": C}` with C false when a budget
/// stopped the search (N is then a lower bound).
pub fn print_count(
    format: ResultFormat,
    solutions: &dyn std::fmt::Display,
    complete: bool,
) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    match format {
        ResultFormat::Text => writeln!(out, "{solutions}"),
        // A count prints as its decimal digits: a JSON number of any size.
        ResultFormat::Json => {
            writeln!(out, "{{\"solutions\":{solutions},\"complete\":{complete}}}")
        }
    }
    .and_then(|()| out.flush())
    .context("cannot write to standard output")
}
