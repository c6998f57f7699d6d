//! NOIP 2009 *靶形数独* (target sudoku).
//!
//! Input: 9 lines of 9 numbers from 0 to 9, 0 for a blank (read as a
//! stream of 81 numbers).
//!
//! Output: one line, the largest score over all solutions, or `-1` when
//! there is none (givens that clash included). A solution scores the sum
//! over all cells of value × weight, the weight 6 on the outer ring and one
//! more on each ring inwards, 10 at the centre
//! ([`Weights::rings`](crate::sudoku::Weights::rings)).
//!
//! ```
//! // The statement's sample.
//! let text = "7 0 0 9 0 0 0 0 1\n1 0 0 0 0 5 9 0 0\n0 0 0 2 0 0 0 8 0\n\
//!             0 0 5 0 2 0 0 0 3\n0 0 0 0 0 0 6 4 8\n4 1 3 0 0 0 0 0 0\n\
//!             0 0 7 0 0 2 0 9 0\n2 0 1 0 6 0 8 0 4\n0 8 0 5 0 4 0 1 2\n";
//! let answers = exactly_puzzles::contest::noip2009::answers(text);
//! assert_eq!(answers, vec![Ok("2829\n".to_string())]);
//! ```

use super::{Answer, ContestError, Tokens};
use crate::sudoku::{self, Grid, Method, Rules, Shape, SudokuError, Target, Weights};
use exactly::Limits;

/// The only case's answer (or the error that stopped it).
pub fn answers(text: &str) -> Vec<Answer> {
    answers_within(text, &Limits::default())
}

/// [`answers`] with a budget for the search ([`super::answers_within`]).
pub fn answers_within(text: &str, limits: &Limits) -> Vec<Answer> {
    vec![answer(text, limits)]
}

fn answer(text: &str, limits: &Limits) -> Answer {
    let mut tokens = Tokens::new(text);
    let Some(first) = tokens.peek() else {
        return Err(tokens.at_end("expected 81 numbers from 0 to 9, found the end of the input"));
    };
    let mut cells = Vec::with_capacity(81);
    for i in 0..81 {
        if tokens.is_empty() {
            return Err(tokens.at_end(format!(
                "expected 81 numbers from 0 to 9 (9 lines of 9), the input ends after {i}"
            )));
        }
        let (_, v) = tokens.number("a cell", 0, 9)?;
        // At most 9.
        cells.push(v as u8);
    }
    if let Some(extra) = tokens.peek() {
        return Err(ContestError::expected(
            extra.line,
            extra.column,
            "the end of the input after 81 numbers",
            extra.text,
        ));
    }
    let at = |e: SudokuError| ContestError::bad(first.line, first.column, e.to_string());
    let grid = Shape::new(3, 3)
        .and_then(|s| Grid::from_cells(s, cells))
        .map_err(at)?;
    let best = sudoku::best_score_within(
        &grid,
        &Rules::default(),
        &Weights::rings(9),
        Method::BranchAndBound,
        limits,
    );
    match best {
        Ok(Target::Best(score, _)) => Ok(format!("{score}\n")),
        Ok(Target::NoSolution) | Err(SudokuError::Clash { .. }) => Ok("-1\n".to_string()),
        Ok(Target::Stopped(reason)) => Err(ContestError::stopped(
            first.line,
            first.column,
            Some(reason),
        )),
        Err(e) => Err(at(e)),
    }
}
