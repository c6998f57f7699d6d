//! SPOJ SUDOKU (problem 1110): 16x16 sudokus, counted.
//!
//! Input: a line with the number of grids `T`, then `T` grids as in
//! [`poj3076`](super::poj3076): 16 lines of `A`-`P` and `-`, blank lines
//! between grids (and, optionally, between `T` and the first grid). Fewer
//! grids than `T`, or more, is an error.
//!
//! Output: each solution as 16 lines of letters followed by a blank line.
//!
//! ```
//! let answers = exactly_puzzles::contest::spoj1110::answers("2\n");
//! assert_eq!(answers[0].as_ref().unwrap_err().to_string(),
//!     "1:2: the first line announces 2 grids, but the input ends after 0");
//! ```

use exactly::Limits;

use super::poj3076::{blocks, solve_blocks};
use super::{Answer, ContestError};

/// Every case's answer, in order.
pub fn answers(text: &str) -> Vec<Answer> {
    answers_within(text, &Limits::default())
}

/// [`answers`] with a budget for each case's search
/// ([`super::answers_within`]).
pub fn answers_within(text: &str, limits: &Limits) -> Vec<Answer> {
    let mut lines = exactly::format::lines(text)
        .enumerate()
        .map(|(i, l)| (i + 1, l));
    let end = exactly::format::lines(text)
        .enumerate()
        .last()
        .map_or((1, 1), |(i, l)| (i + 1, l.chars().count() + 1));
    // The count: the first non-blank line, alone.
    let Some((n, line)) = lines.find(|(_, l)| !l.trim().is_empty()) else {
        return vec![Err(ContestError::bad(
            end.0,
            end.1,
            "expected the number of grids, found the end of the input",
        ))];
    };
    let tokens: Vec<(usize, &str)> = exactly::format::tokens(line).collect();
    let (column, word) = tokens[0];
    let Ok(count) = word.parse::<usize>() else {
        return vec![Err(ContestError::expected(
            n,
            column,
            "the number of grids, a non-negative integer",
            word,
        ))];
    };
    if let Some(&(c, extra)) = tokens.get(1) {
        return vec![Err(ContestError::bad(
            n,
            c,
            format!(
                "expected the number of grids alone on the line, found '{}' after it",
                extra.escape_debug()
            ),
        ))];
    }
    let blocks = blocks(lines);
    let mut out: Vec<Answer> = solve_blocks(&blocks[..blocks.len().min(count)], limits)
        .into_iter()
        .map(|a| a.map(|grid| grid + "\n"))
        .collect();
    if let Some(extra) = blocks.get(count) {
        out.push(Err(ContestError::bad(
            extra.line,
            extra.rows[0][0].0,
            format!("a grid past the {count} announced on line {n}"),
        )));
    } else if blocks.len() < count {
        out.push(Err(ContestError::bad(
            end.0,
            end.1,
            format!(
                "the first line announces {count} grids, but the input ends after {}",
                blocks.len()
            ),
        )));
    }
    out
}
