//! POJ 1084 *Square Destroyers*.
//!
//! Input: a line with the number of cases `T`, then each case: a line with
//! `n` (the grid is `n`×`n`, at most [`squares::MAX_N`]; the judge's bound
//! is 5), and a line with `k` followed by the `k` sticks already missing.
//! Sticks are numbered from 1 row by row: the `n` horizontal sticks of the
//! top line, the `n + 1` vertical sticks below them, and so on, the
//! numbering of [`squares`] itself. Numbers are read as a stream.
//!
//! Output: one line per case, the fewest further sticks to remove so that
//! no square of any size is left.
//!
//! ```
//! let answers = exactly_puzzles::contest::poj1084::answers("2\n2\n0\n3\n3 12 17 23\n");
//! assert_eq!(answers, vec![Ok("3\n".to_string()), Ok("3\n".to_string())]);
//! ```

use exactly::Limits;

use super::{Answer, ContestError, Tokens};
use crate::squares::{self, Squares};

/// Every case's answer, in order. Reading stops at the first error.
pub fn answers(text: &str) -> Vec<Answer> {
    answers_within(text, &Limits::default())
}

/// [`answers`] with a budget for each case's search
/// ([`super::answers_within`]).
pub fn answers_within(text: &str, limits: &Limits) -> Vec<Answer> {
    let mut tokens = Tokens::new(text);
    let mut out = Vec::new();
    let count = match tokens.number("the number of cases T", 0, u64::MAX) {
        Ok((_, t)) => t,
        Err(e) => return vec![Err(e)],
    };
    for case in 1..=count {
        if tokens.is_empty() {
            out.push(Err(tokens.at_end(format!(
                "the first number announces {count} cases, but the input ends after {}",
                case - 1
            ))));
            return out;
        }
        let start = tokens.peek();
        match read(&mut tokens) {
            Ok(grid) => out.push(match squares::solve_within(&grid, limits) {
                Ok(Ok(sticks)) => Ok(format!("{}\n", sticks.len())),
                Ok(Err(reason)) => {
                    let (line, column) = start.map_or((1, 1), |t| (t.line, t.column));
                    Err(ContestError::stopped(line, column, Some(reason)))
                }
                Err(e) => Err(tokens.at_end(e.to_string())),
            }),
            Err(e) => {
                out.push(Err(e));
                return out;
            }
        }
    }
    if let Some(extra) = tokens.peek() {
        out.push(Err(ContestError::expected(
            extra.line,
            extra.column,
            format!("the end of the input after the {count} cases announced"),
            extra.text,
        )));
    }
    out
}

/// Reads one case.
fn read(tokens: &mut Tokens<'_>) -> Result<Squares, ContestError> {
    let (_, n) = tokens.number("the grid size n", 1, squares::MAX_N as u64)?;
    let n = n as usize;
    let sticks = 2 * n * (n + 1);
    let (k_token, k) = tokens.number("the number of missing sticks k", 0, u64::MAX)?;
    tokens.ensure_backed(&k_token, k, |left| {
        format!("{k} missing sticks announced, but only {left} numbers follow")
    })?;
    let mut removed = Vec::with_capacity(k as usize);
    for _ in 0..k {
        let (_, s) = tokens.number("a stick number", 1, sticks as u64)?;
        removed.push(s as usize);
    }
    Squares::with_removed(n, &removed)
        .map_err(|e| ContestError::bad(k_token.line, k_token.column, e.to_string()))
}
