//! Contest problems read and answered exactly as their judges ask: the
//! judge's input unchanged in, byte for byte the judge's expected output out.
//!
//! # Overview
//!
//! | [`Contest`]  | problem                          | solved by                     |
//! |--------------|----------------------------------|-------------------------------|
//! | `poj3074`    | POJ 3074 *Sudoku* (9x9, a line)  | [`sudoku`](crate::sudoku)     |
//! | `poj3076`    | POJ 3076 *Sudoku* (16x16 grids)  | [`sudoku`](crate::sudoku)     |
//! | `spoj1110`   | SPOJ SUDOKU (16x16, counted)     | [`sudoku`](crate::sudoku)     |
//! | `hust1017`   | HUST 1017 *Exact cover*          | [`exactly::Solver`]           |
//! | `noip2009`   | NOIP 2009 target sudoku          | [`sudoku::best_score`](crate::sudoku::best_score) |
//! | `poj1084`    | POJ 1084 *Square Destroyers*     | [`squares`](crate::squares)   |
//!
//! Each problem has its own module with the reader and writer of its
//! format; `docs/CONTESTS.md` in the repository gives every format with
//! its sample.
//!
//! # Input format
//!
//! Lines end at `\n`, `\r\n` or `\r` and a byte-order mark is skipped
//! ([`exactly::format::lines`]); spaces and tabs around tokens are
//! ignored, and the last line need not end. The number formats
//! (`hust1017`, `noip2009`, `poj1084`) are read as a stream of
//! blank-separated numbers, as the judges' `scanf` reads them, so how the
//! numbers are spread over lines does not matter.
//!
//! # Several solutions, none, and bad cases
//!
//! A case with several solutions gets the first one the solver finds
//! (deterministic: the same input gives the same output). Every case is
//! answered in order; a case that is bad or has no solution where the
//! format has no word for that (the sudoku contests) gets nothing on the
//! output and a [`ContestError`] instead, with its line and column.
//! `hust1017` answers `NO` and `noip2009` answers `-1`, as their judges ask.
//!
//! # Example
//!
//! ```
//! use exactly_puzzles::contest::{self, Contest};
//!
//! let mut out = Vec::new();
//! let errors = contest::run(Contest::Hust1017, "3 3\n1 1\n2 2 3\n1 3\n", &mut out)?;
//! assert!(errors.is_empty());
//! assert_eq!(String::from_utf8(out).unwrap(), "2 1 2\n");
//! # Ok::<(), std::io::Error>(())
//! ```

use std::borrow::Cow;
use std::fmt;
use std::io::{self, Write};
use std::str::FromStr;

use exactly::format::{ParseError, ParseErrorKind};
use exactly::{Limits, StopReason};

pub mod hust1017;
pub mod noip2009;
pub mod poj1084;
pub mod poj3074;
pub mod poj3076;
pub mod spoj1110;

/// The contest problems.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Contest {
    /// POJ 3074: 9x9 sudokus, one 81-character line each, until `end`.
    Poj3074,
    /// POJ 3076: 16x16 sudokus of `A`-`P` and `-`, blank lines between.
    Poj3076,
    /// SPOJ SUDOKU (problem 1110): a count, then that many 16x16 sudokus.
    Spoj1110,
    /// HUST 1017: exact cover of a 0/1 matrix, cases until end of input.
    Hust1017,
    /// NOIP 2009 *靶形数独*: the best score of a target sudoku.
    Noip2009,
    /// POJ 1084: the square destroyer.
    Poj1084,
}

impl Contest {
    /// Every contest, in the order of the docs.
    pub const ALL: [Contest; 6] = [
        Contest::Poj3074,
        Contest::Poj3076,
        Contest::Spoj1110,
        Contest::Hust1017,
        Contest::Noip2009,
        Contest::Poj1084,
    ];

    /// The name on the command line.
    ///
    /// ```
    /// assert_eq!(exactly_puzzles::contest::Contest::Poj1084.name(), "poj1084");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Contest::Poj3074 => "poj3074",
            Contest::Poj3076 => "poj3076",
            Contest::Spoj1110 => "spoj1110",
            Contest::Hust1017 => "hust1017",
            Contest::Noip2009 => "noip2009",
            Contest::Poj1084 => "poj1084",
        }
    }
}

impl fmt::Display for Contest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Contest {
    type Err = String;

    /// Reads a contest name (any case).
    ///
    /// ```
    /// use exactly_puzzles::contest::Contest;
    /// assert_eq!("SPOJ1110".parse::<Contest>(), Ok(Contest::Spoj1110));
    /// assert!("poj9999".parse::<Contest>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<Contest, String> {
        let wanted = text.trim().to_ascii_lowercase();
        Contest::ALL
            .into_iter()
            .find(|c| c.name() == wanted)
            .ok_or_else(|| {
                let names: Vec<_> = Contest::ALL.iter().map(|c| c.name()).collect();
                format!(
                    "unknown contest '{}': expected one of {}",
                    text.escape_debug(),
                    names.join(", ")
                )
            })
    }
}

/// What is wrong with a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input does not follow the judge's format.
    BadInput,
    /// A case the judge promises solvable has no solution.
    NoSolution,
    /// The case's search ran out of its budget ([`answers_within`]): its
    /// answer is unknown.
    Stopped,
}

/// A case that gets no answer: where it is, and why.
///
/// ```
/// use exactly_puzzles::contest::{self, Contest, ErrorKind};
/// let mut out = Vec::new();
/// let errors = contest::run(Contest::Poj3074, "12345\nend\n", &mut out)?;
/// assert_eq!(errors[0].kind, ErrorKind::BadInput);
/// assert_eq!(errors[0].to_string(), "1:6: expected 81 cells ('1'-'9' or '.'), the line ends after 5");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct ContestError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// Bad input, no solution, or out of budget.
    pub kind: ErrorKind,
    /// What is wrong.
    pub message: String,
}

/// A reader's error is a case's bad input.
impl From<ParseError> for ContestError {
    fn from(e: ParseError) -> ContestError {
        ContestError::bad(e.line, e.column, e.kind.to_string())
    }
}

impl ContestError {
    /// Bad input at `line`, `column`: `expected` is what the judge's
    /// format has there, `found` what the input holds
    /// ([`ParseErrorKind::Expected`]).
    pub(crate) fn expected(
        line: usize,
        column: usize,
        expected: impl Into<Cow<'static, str>>,
        found: &str,
    ) -> ContestError {
        let kind = ParseErrorKind::Expected {
            expected: expected.into(),
            found: found.to_string(),
        };
        ParseError::new(line, column, kind).into()
    }

    /// Bad input at `line`, `column`.
    pub(crate) fn bad(line: usize, column: usize, message: impl Into<String>) -> ContestError {
        ContestError {
            line,
            column,
            kind: ErrorKind::BadInput,
            message: message.into(),
        }
    }

    /// A case whose search ran out of its budget, starting at `line`,
    /// `column`.
    pub(crate) fn stopped(line: usize, column: usize, reason: Option<StopReason>) -> ContestError {
        let why = reason.map_or_else(|| "out of budget".to_string(), |r| r.to_string());
        ContestError {
            line,
            column,
            kind: ErrorKind::Stopped,
            message: format!("the search stopped ({why}): no answer for this case"),
        }
    }

    /// A case without a solution, starting at `line`, `column`.
    pub(crate) fn unsolvable(
        line: usize,
        column: usize,
        message: impl Into<String>,
    ) -> ContestError {
        ContestError {
            line,
            column,
            kind: ErrorKind::NoSolution,
            message: message.into(),
        }
    }
}

/// One case's answer: the judge's text for it, or why it has none.
pub type Answer = Result<String, ContestError>;

/// Reads every case of `text` and answers each, in order.
///
/// ```
/// use exactly_puzzles::contest::{self, Contest};
/// let answers = contest::answers(Contest::Poj1084, "2\n2\n0\n3\n3 12 17 23\n");
/// assert_eq!(answers, vec![Ok("3\n".to_string()), Ok("3\n".to_string())]);
/// ```
pub fn answers(contest: Contest, text: &str) -> Vec<Answer> {
    answers_within(contest, text, &Limits::default())
}

/// [`answers`] with a budget for each case's search (nodes, time, a cancel
/// flag; a solution budget is ignored). A case that runs out of it gets an
/// error of kind [`ErrorKind::Stopped`], never an answer it has not
/// proven, and the cases after it go on, each with a budget of its own.
///
/// ```
/// use exactly::Limits;
/// use exactly_puzzles::contest::{self, Contest, ErrorKind};
/// // An empty target sudoku: the best score needs a search of every grid.
/// let empty = "0 0 0 0 0 0 0 0 0\n".repeat(9);
/// let answers = contest::answers_within(Contest::Noip2009, &empty, &Limits::default().max_nodes(1000));
/// assert_eq!(answers[0].as_ref().unwrap_err().kind, ErrorKind::Stopped);
/// ```
pub fn answers_within(contest: Contest, text: &str, limits: &Limits) -> Vec<Answer> {
    let mut limits = limits.clone();
    limits.solutions = None;
    match contest {
        Contest::Poj3074 => poj3074::answers_within(text, &limits),
        Contest::Poj3076 => poj3076::answers_within(text, &limits),
        Contest::Spoj1110 => spoj1110::answers_within(text, &limits),
        Contest::Hust1017 => hust1017::answers_within(text, &limits),
        Contest::Noip2009 => noip2009::answers_within(text, &limits),
        Contest::Poj1084 => poj1084::answers_within(text, &limits),
    }
}

/// Answers `text` on `out` as the judge expects, and returns the cases
/// without an answer (bad input, or no solution where one is promised).
///
/// `poj3076` puts a blank line between the grids it prints; every other
/// answer carries its own line ends.
pub fn run(contest: Contest, text: &str, out: &mut impl Write) -> io::Result<Vec<ContestError>> {
    run_within(contest, text, &Limits::default(), out)
}

/// [`run`] with a budget for each case's search, as [`answers_within`].
pub fn run_within(
    contest: Contest,
    text: &str,
    limits: &Limits,
    out: &mut impl Write,
) -> io::Result<Vec<ContestError>> {
    let mut errors = Vec::new();
    let mut first = true;
    for answer in answers_within(contest, text, limits) {
        match answer {
            Ok(answer) => {
                if contest == Contest::Poj3076 && !first {
                    out.write_all(b"\n")?;
                }
                first = false;
                out.write_all(answer.as_bytes())?;
            }
            Err(e) => errors.push(e),
        }
    }
    Ok(errors)
}

/// Checks that the contest readers keep on any input; shared by the
/// `contest_readers` fuzz target and the test that replays its inputs.
/// The first byte picks the contest ([`Contest::ALL`], modulo its length);
/// the rest is the input (bytes that are not UTF-8 become U+FFFD), each
/// case searched within a budget of 2,000 nodes. Panics when an error
/// names no place in the text (line 1 up to one past the last line,
/// column 1 or more), or when [`run_within`] and [`answers_within`]
/// disagree on the cases without an answer.
///
/// ```
/// exactly_puzzles::contest::check(b"\x05\n1\n2\n0\n");
/// ```
pub fn check(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let contest = Contest::ALL[usize::from(pick) % Contest::ALL.len()];
    let text = String::from_utf8_lossy(rest);
    let limits = Limits::default().max_nodes(2_000);
    let lines = exactly::format::lines(&text).count();
    let answers = answers_within(contest, &text, &limits);
    let errors: Vec<ContestError> = answers.iter().filter_map(|a| a.clone().err()).collect();
    for e in &errors {
        assert!(
            (1..=lines + 1).contains(&e.line) && e.column >= 1,
            "{contest}: {e} in a text of {lines} lines"
        );
    }
    let mut out = Vec::new();
    let run = run_within(contest, &text, &limits, &mut out);
    assert_eq!(run.ok(), Some(errors), "{contest}");
}

/// One blank-separated token of the input, with its 1-based line and
/// column.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token<'a> {
    pub line: usize,
    pub column: usize,
    pub text: &'a str,
}

/// The tokens of a text, read as a `scanf` stream, and where the text ends.
pub(crate) struct Tokens<'a> {
    tokens: Vec<Token<'a>>,
    next: usize,
    /// The line and column just past the last character.
    end: (usize, usize),
}

impl<'a> Tokens<'a> {
    pub fn new(text: &'a str) -> Tokens<'a> {
        let mut tokens = Vec::new();
        let mut end = (1, 1);
        for (i, line) in exactly::format::lines(text).enumerate() {
            end = (i + 1, line.chars().count() + 1);
            for (column, t) in exactly::format::tokens(line) {
                tokens.push(Token {
                    line: i + 1,
                    column,
                    text: t,
                });
            }
        }
        Tokens {
            tokens,
            next: 0,
            end,
        }
    }

    /// The tokens not read yet.
    pub fn remaining(&self) -> usize {
        self.tokens.len() - self.next
    }

    /// Refuses a count announced at `at` that exceeds the numbers left,
    /// each announced thing taking at least one number, so that nothing is
    /// allocated for a count the input cannot back. `message` words the
    /// error from the numbers left.
    pub fn ensure_backed(
        &self,
        at: &Token<'_>,
        announced: u64,
        message: impl FnOnce(usize) -> String,
    ) -> Result<(), ContestError> {
        if announced > self.remaining() as u64 {
            return Err(ContestError::bad(
                at.line,
                at.column,
                message(self.remaining()),
            ));
        }
        Ok(())
    }

    /// Whether every token has been read.
    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// The next token without reading it.
    pub fn peek(&self) -> Option<Token<'a>> {
        self.tokens.get(self.next).copied()
    }

    /// An error at the end of the input.
    pub fn at_end(&self, message: impl Into<String>) -> ContestError {
        ContestError::bad(self.end.0, self.end.1, message)
    }

    /// Reads a decimal number between `low` and `high`; `what` names it in
    /// errors ("the number of rows").
    pub fn number(
        &mut self,
        what: &str,
        low: u64,
        high: u64,
    ) -> Result<(Token<'a>, u64), ContestError> {
        let Some(token) = self.peek() else {
            return Err(self.at_end(format!("expected {what}, found the end of the input")));
        };
        self.next += 1;
        let shown = token.text.escape_debug();
        let value = if token.text.bytes().all(|b| b.is_ascii_digit()) {
            // All digits: only too large a number fails to parse.
            token.text.parse::<u64>().unwrap_or(u64::MAX)
        } else {
            return Err(ContestError::expected(
                token.line,
                token.column,
                format!("{what}, a non-negative integer"),
                token.text,
            ));
        };
        if value < low || value > high {
            return Err(ContestError::bad(
                token.line,
                token.column,
                format!("{what} must be between {low} and {high}, not {shown}"),
            ));
        }
        Ok((token, value))
    }
}

/// A sudoku grid's rows, read from characters: `symbol(c)` gives a cell's
/// value (0 for a blank) or `None` for a character the format refuses.
pub(crate) fn cells_of(
    token: Token<'_>,
    count: usize,
    expected: &str,
    symbol: impl Fn(char) -> Option<u8>,
    into: &mut Vec<u8>,
) -> Result<(), ContestError> {
    let mut read = 0;
    for (i, c) in token.text.chars().enumerate() {
        if i == count {
            return Err(ContestError::bad(
                token.line,
                token.column + i,
                format!("expected {count} cells ({expected}), found more"),
            ));
        }
        match symbol(c) {
            Some(v) => into.push(v),
            None => {
                return Err(ContestError::expected(
                    token.line,
                    token.column + i,
                    format!("a cell ({expected})"),
                    c.encode_utf8(&mut [0; 4]),
                ))
            }
        }
        read += 1;
    }
    if read < count {
        return Err(ContestError::bad(
            token.line,
            token.column + read,
            format!("expected {count} cells ({expected}), the line ends after {read}"),
        ));
    }
    Ok(())
}

/// Solves one sudoku case on `solver`; a case without a solution (givens
/// that clash included) is an error at `line`, `column`.
pub(crate) fn solve_sudoku(
    solver: &mut crate::sudoku::TemplateSolver<'_>,
    grid: &crate::sudoku::Grid,
    line: usize,
    column: usize,
) -> Result<crate::sudoku::Grid, ContestError> {
    use crate::sudoku::SudokuError;
    match solver.solve(grid, 1) {
        Ok(answer) if answer.verdict == crate::sudoku::Verdict::Unknown => {
            Err(ContestError::stopped(line, column, None))
        }
        Ok(answer) => answer
            .solution
            .ok_or_else(|| ContestError::unsolvable(line, column, "the puzzle has no solution")),
        Err(e @ SudokuError::Clash { .. }) => Err(ContestError::unsolvable(
            line,
            column,
            format!("the puzzle has no solution: {e}"),
        )),
        Err(e) => Err(ContestError::bad(line, column, e.to_string())),
    }
}
