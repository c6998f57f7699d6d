//! `exactly contest NAME [FILE|-]`: a contest problem's input, answered
//! byte for byte as its judge expects ([`exactly_puzzles::contest`]).

use std::io::{self, Write};

use anyhow::Context;
use exactly::Limits;
use exactly_puzzles::contest::{self, ErrorKind};

use crate::cli::ContestArgs;
use crate::input;
use crate::report::{self, Status};

/// Prints the answers on standard output and each case without one on
/// standard error as `file:line:column: message`. Exit status 2 when some
/// case is bad input, else 3 when some case ran out of its budget, else 1
/// when some case has no solution.
pub fn run(args: &ContestArgs) -> anyhow::Result<Status> {
    let (name, bytes) = input::read_source(&args.file)?;
    let text = input::decode(&name, bytes)?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut limits = Limits::default();
    if let Some(n) = args.max_nodes {
        limits = limits.max_nodes(n);
    }
    if let Some(t) = args.timeout {
        limits = limits.max_time(t);
    }
    let errors = contest::run_within(args.name, &text, &limits, &mut out)?;
    out.flush().context("cannot write to standard output")?;
    for e in &errors {
        report::message(&format!("{name}:{e}"));
    }
    let bad = errors
        .iter()
        .filter(|e| e.kind == ErrorKind::BadInput)
        .count();
    anyhow::ensure!(
        bad == 0,
        "{name}: {bad} bad case{} in the {} input",
        if bad == 1 { "" } else { "s" },
        args.name
    );
    Ok(if errors.is_empty() {
        Status::Success
    } else if errors.iter().any(|e| e.kind == ErrorKind::Stopped) {
        Status::Stopped
    } else {
        Status::NoSolution
    })
}
