//! POJ 3074 *Sudoku*.
//!
//! Input: one puzzle per line, 81 characters row by row, each a digit `1`
//! to `9` or `.` for a blank; a line `end` ends the input (a missing `end`
//! is taken as read at the end of the input). Blank lines are skipped;
//! anything but blank lines after `end` is an error.
//!
//! Output: each puzzle's solution as one line of 81 digits.
//!
//! ```
//! let text = ".2738..1..1...6735.......293.5692.8...........6.1745.364.......9518...7..8..6534.\nend\n";
//! let answers = exactly_puzzles::contest::poj3074::answers(text);
//! assert_eq!(answers[0].as_deref(), Ok("527389416819426735436751829375692184194538267268174593643217958951843672782965341\n"));
//! ```

use exactly::Limits;

use super::{cells_of, solve_sudoku, Answer, ContestError, Token};
use crate::sudoku::{Grid, Rules, Shape, Template};

/// The value of a cell's character.
fn symbol(c: char) -> Option<u8> {
    match c {
        '.' => Some(0),
        '1'..='9' => c.to_digit(10).and_then(|d| u8::try_from(d).ok()),
        _ => None,
    }
}

/// Reads one case's line into a grid.
fn read(line: usize, tokens: &[(usize, &str)]) -> Result<Grid, ContestError> {
    let (column, text) = tokens[0];
    if let Some(&(c, extra)) = tokens.get(1) {
        return Err(ContestError::bad(
            line,
            c,
            format!(
                "expected one puzzle of 81 characters on the line, found another word '{}'",
                extra.escape_debug()
            ),
        ));
    }
    let mut cells = Vec::with_capacity(81);
    let token = Token { line, column, text };
    cells_of(token, 81, "'1'-'9' or '.'", symbol, &mut cells)?;
    let shape = Shape::new(3, 3).map_err(|e| ContestError::bad(line, column, e.to_string()))?;
    Grid::from_cells(shape, cells).map_err(|e| ContestError::bad(line, column, e.to_string()))
}

/// Every case's answer, in order.
pub fn answers(text: &str) -> Vec<Answer> {
    answers_within(text, &Limits::default())
}

/// [`answers`] with a budget for each case's search
/// ([`super::answers_within`]).
pub fn answers_within(text: &str, limits: &Limits) -> Vec<Answer> {
    let template = Shape::new(3, 3).and_then(|s| Template::new(s, &Rules::default()));
    let mut solver = template
        .as_ref()
        .ok()
        .map(|t| t.solver().limits(limits.clone()));
    let mut out = Vec::new();
    let mut ended: Option<usize> = None;
    for (i, line) in exactly::format::lines(text).enumerate() {
        let n = i + 1;
        let tokens: Vec<(usize, &str)> = exactly::format::tokens(line).collect();
        let Some(&(column, first)) = tokens.first() else {
            continue;
        };
        if let Some(end) = ended {
            out.push(Err(ContestError::bad(
                n,
                column,
                format!(
                    "unexpected '{}' after 'end' on line {end}",
                    first.escape_debug()
                ),
            )));
            break;
        }
        if first == "end" && tokens.len() == 1 {
            ended = Some(n);
            continue;
        }
        let answer = read(n, &tokens).and_then(|grid| {
            let solver = solver
                .as_mut()
                .ok_or_else(|| ContestError::bad(n, column, "cannot build the 9x9 template"))?;
            let solved = solve_sudoku(solver, &grid, n, column)?;
            let mut line: String = solved
                .cells()
                .iter()
                .map(|&v| char::from(b'0' + v))
                .collect();
            line.push('\n');
            Ok(line)
        });
        out.push(answer);
    }
    out
}
