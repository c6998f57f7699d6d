//! Exit statuses and messages on standard error.
//!
//! Messages never panic: a failed write to stderr is ignored (unlike
//! `eprintln!`, which panics when stderr is closed).

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by `--quiet`: [`message`] then writes nothing.
static QUIET: AtomicBool = AtomicBool::new(false);

/// Silences [`message`] (`--quiet`); [`error`] and [`line`] still write.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether `--quiet` was given.
pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// How a command ended, when it ended without an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Solutions found or counted; all solutions valid. Exit 0.
    Success,
    /// No solution, or an invalid solution. Exit 1.
    NoSolution,
    /// Stopped early by a budget. Exit 3.
    Stopped,
}

impl Status {
    /// How a search ended: stopped early by a budget, else by whether it
    /// found any solution.
    pub fn of_search(stopped: bool, solutions: u128) -> Status {
        if stopped {
            Status::Stopped
        } else if solutions > 0 {
            Status::Success
        } else {
            Status::NoSolution
        }
    }
}

/// Exit status for bad input, usage errors and I/O errors.
pub const EXIT_ERROR: u8 = 2;

impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        ExitCode::from(match status {
            Status::Success => 0,
            Status::NoSolution => 1,
            Status::Stopped => 3,
        })
    }
}

/// Writes one line to stderr as it is.
pub fn line(text: &str) {
    let mut err = io::stderr().lock();
    let _ = err.write_all(text.as_bytes());
    let _ = err.write_all(b"\n");
}

/// Writes `exactly: text` to stderr, unless `--quiet`: warnings, summaries
/// and notes. Control characters other than line ends are written as
/// escapes (`\u{1b}`), so that no message sends bytes from the input raw to
/// a terminal.
pub fn message(text: &str) {
    if !quiet() {
        error(text);
    }
}

/// Writes `exactly: text` to stderr, even under `--quiet`: the error that
/// ends a run. Control characters are escaped as in [`message`].
pub fn error(text: &str) {
    let mut shown = String::with_capacity(text.len() + 9);
    shown.push_str("exactly: ");
    for l in text.split_inclusive('\n') {
        let (body, end) = match l.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (l, ""),
        };
        shown.push_str(&exactly::format::escape(body).to_string());
        shown.push_str(end);
    }
    line(&shown);
}

/// True when the error comes from writing to a closed pipe.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}
