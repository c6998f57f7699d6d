//! # exactly
//!
//! The `exactly` command: exact cover, with secondary items and colors, from
//! the command line.
//!
//! ## Overview
//!
//! ```text
//! exactly solve  [FILE|-] [--format knuth|json|indices]   print the solutions
//! exactly count  [FILE|-]                                  print their number
//! exactly verify PROBLEM SOLUTIONS                         check printed solutions
//! exactly cover --min [--weighted] FILE                    a minimum cover
//! exactly zdd FILE, exactly sample FILE -n K               the diagram of all solutions
//! exactly estimate FILE, plan FILE, merge RESULTS…         counting at scale
//! exactly gen …, queens N, langford N, polyomino [FILE]    puzzles as exact cover
//! exactly sudoku [FILE], squares N                         sudoku, square destroyer
//! exactly contest NAME [FILE]                             a contest problem, as its judge asks
//! exactly completions SHELL, man [SUBCOMMAND]              shell completions, man pages
//! exactly sudoku gen|rate|hint|encode …                    make, rate, hint, encode sudokus
//! ```
//!
//! `solve` and `count` share the search options `--limit N` (stop after N
//! solutions), `--timeout SECS`, `--max-nodes N`, `--stats` (nodes, updates,
//! solutions, max depth and time on stderr), `--seed S` (random tie-break
//! among equally constrained items) and `--trace` (every step of Algorithm X
//! on stderr, indented by level). When a run lasts more than a second and
//! stderr is a terminal, a progress bar shows nodes, solutions and Knuth's
//! estimate of the fraction of the tree explored. Knuth's run options:
//! `--report-every SECS` (progress lines on stderr, terminal or not),
//! `solve --every M` (every M-th solution), `--profile` (nodes at each
//! level at the end) and `--trace-levels A..B`. `--stats-format json`
//! prints the statistics as a JSON object; `-q, --quiet` leaves only the
//! error that ends a run on stderr.
//!
//! ## Input format
//!
//! Knuth's DLX format by default; `--input matrix` reads the HUST 1017 matrix
//! format and `--input auto` picks the matrix format only when the first
//! non-blank line holds exactly two non-negative integers and the whole
//! input parses as a matrix. `-` (or no file) reads standard input, named
//! `<stdin>` in messages. An error names the file, line and column
//! (`x.dlx:3:5: unknown item 'q'`); options dropped for lacking a primary
//! item are reported as warnings with their line.
//!
//! ## Output
//!
//! `count` prints the number of solutions alone on the first line of stdout
//! (`--format json`: `{"solutions": N, "complete": true}`).
//! `solve --format knuth` prints each chosen option as its input line, with
//! solutions separated by a blank line; `--format json` prints one object per
//! line, `{"solution": k, "options": [...], "indices": [...]}`; `--format
//! indices` prints one line of option indices per solution. Indices count the
//! option records (DLX option lines or matrix rows) of the input from 0, in
//! file order, for both formats. A closed pipe (`exactly solve x.dlx | head`)
//! ends the run quietly.
//!
//! ## Exit status
//!
//! - 0: solutions found (`solve`), counted (`count`), or all valid (`verify`);
//! - 1: no solution (the search was complete), or some solution is invalid
//!   (`verify`);
//! - 2: bad input or usage, or an I/O error; one line on stderr, `exactly: ...`;
//! - 3: stopped early by a budget (`--timeout`, `--max-nodes`; for `count`
//!   also `--limit`, since the count is then a lower bound). What was found
//!   is printed, and stderr says `exactly: stopped early: <reason>`.
//!
//! ## Examples
//!
//! ```text
//! $ exactly count testdata/knuth-example.dlx
//! 1
//! $ exactly solve testdata/knuth-example.dlx
//! a d f
//! b g
//! c e
//! ```

mod cli;
mod commands;
mod input;
mod output;
mod report;
mod search;

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::Parser;

use crate::cli::{Cli, LazyCommand};

fn main() -> ExitCode {
    // PERF: only the subcommand run is built (`LazyCommand`), not every
    // subcommand's arguments.
    let cli = match Cli::<LazyCommand>::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    report::set_quiet(cli.quiet);
    match commands::run(&cli.command.into()) {
        Ok(status) => status.into(),
        Err(e) if report::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            report::error(&format!("{e:#}"));
            ExitCode::from(report::EXIT_ERROR)
        }
    }
}

/// Prints help and version as clap does; any other argument error becomes a
/// single line on stderr, with status 2.
fn usage_error(e: &clap::Error) -> ExitCode {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            if let Err(err) = e.print() {
                if err.kind() != std::io::ErrorKind::BrokenPipe {
                    return ExitCode::from(report::EXIT_ERROR);
                }
            }
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            ExitCode::from(report::EXIT_ERROR)
        }
        _ => {
            report::error(&format!("{} (see 'exactly --help')", first_paragraph(e)));
            ExitCode::from(report::EXIT_ERROR)
        }
    }
}

/// The first paragraph of a clap error, on one line, without `error: `,
/// followed by clap's suggestion when it has one (`tip: a similar
/// subcommand exists: 'solve'`).
fn first_paragraph(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let lines: Vec<&str> = text
        .lines()
        .skip_while(|l| l.trim().is_empty())
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let joined = lines.join(" ");
    let first = match joined.strip_prefix("error: ") {
        Some(rest) => rest.to_string(),
        None if joined.is_empty() => "invalid arguments".to_string(),
        None => joined,
    };
    let tips: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("tip: "))
        .collect();
    if tips.is_empty() {
        first
    } else {
        format!("{first}; {}", tips.join("; "))
    }
}
