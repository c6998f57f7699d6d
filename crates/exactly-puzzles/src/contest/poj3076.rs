//! POJ 3076 *Sudoku* (16x16).
//!
//! Input: grids of 16 lines of 16 characters, each a letter `A` to `P` or
//! `-` for a blank, until the end of the input. A grid is a run of
//! consecutive non-blank lines; blank lines separate grids (one or more).
//!
//! Output: each solution as 16 lines of letters, a blank line between
//! grids.
//!
//! ```
//! let mut grid = String::new();
//! for r in 0..16 {
//!     for c in 0..16 {
//!         // A solved grid (box-shifted rows), with row 0 left blank.
//!         let v = (r % 4 * 4 + r / 4 + c) % 16;
//!         grid.push(if r == 0 { '-' } else { char::from(b'A' + v as u8) });
//!     }
//!     grid.push('\n');
//! }
//! let answers = exactly_puzzles::contest::poj3076::answers(&grid);
//! assert!(answers[0].as_ref().unwrap().starts_with("ABCDEFGHIJKLMNOP\n"));
//! ```

use exactly::Limits;

use super::{cells_of, solve_sudoku, Answer, ContestError, Token};
use crate::sudoku::{Grid, Rules, Shape, Template};

/// The grid side.
const SIDE: usize = 16;

/// The value of a cell's character.
fn symbol(c: char) -> Option<u8> {
    match c {
        '-' => Some(0),
        'A'..='P' => Some(c as u8 - b'A' + 1),
        _ => None,
    }
}

/// A run of consecutive non-blank lines: the 1-based number of its first
/// line, and each line's tokens.
pub(crate) struct Block<'a> {
    pub line: usize,
    pub rows: Vec<Vec<(usize, &'a str)>>,
}

/// The blocks of non-blank lines of `lines` (numbered from `first`).
pub(crate) fn blocks<'a>(lines: impl Iterator<Item = (usize, &'a str)>) -> Vec<Block<'a>> {
    let mut out: Vec<Block<'a>> = Vec::new();
    let mut open = false;
    for (n, line) in lines {
        let tokens: Vec<(usize, &str)> = exactly::format::tokens(line).collect();
        if tokens.is_empty() {
            open = false;
            continue;
        }
        match out.last_mut() {
            Some(block) if open => block.rows.push(tokens),
            _ => out.push(Block {
                line: n,
                rows: vec![tokens],
            }),
        }
        open = true;
    }
    out
}

/// Reads a block into a 16x16 grid.
pub(crate) fn read(block: &Block<'_>) -> Result<Grid, ContestError> {
    if block.rows.len() < SIDE {
        let end = block.line + block.rows.len();
        return Err(ContestError::bad(
            end,
            1,
            format!(
                "expected {SIDE} rows in the grid starting on line {}, found {} (a blank line or the end of the input)",
                block.line,
                block.rows.len()
            ),
        ));
    }
    let mut cells = Vec::with_capacity(SIDE * SIDE);
    for (i, row) in block.rows.iter().enumerate() {
        let line = block.line + i;
        if i == SIDE {
            return Err(ContestError::bad(
                line,
                row[0].0,
                format!(
                    "expected a blank line after the {SIDE} rows of the grid starting on line {}",
                    block.line
                ),
            ));
        }
        if let Some(&(column, extra)) = row.get(1) {
            return Err(ContestError::bad(
                line,
                column,
                format!(
                    "expected one row of {SIDE} cells on the line, found another word '{}'",
                    extra.escape_debug()
                ),
            ));
        }
        let (column, text) = row[0];
        let token = Token { line, column, text };
        cells_of(token, SIDE, "'A'-'P' or '-'", symbol, &mut cells)?;
    }
    let shape = Shape::new(4, 4).map_err(|e| ContestError::bad(block.line, 1, e.to_string()))?;
    Grid::from_cells(shape, cells).map_err(|e| ContestError::bad(block.line, 1, e.to_string()))
}

/// A solved 16x16 grid as 16 lines of letters.
pub(crate) fn write(grid: &Grid) -> String {
    let mut out = String::with_capacity(SIDE * (SIDE + 1));
    for row in grid.cells().chunks(SIDE) {
        out.extend(row.iter().map(|&v| char::from(b'A' + v.saturating_sub(1))));
        out.push('\n');
    }
    out
}

/// Solves the grids of `blocks`, in order.
pub(crate) fn solve_blocks(blocks: &[Block<'_>], limits: &Limits) -> Vec<Answer> {
    let template = Shape::new(4, 4).and_then(|s| Template::new(s, &Rules::default()));
    let mut solver = template
        .as_ref()
        .ok()
        .map(|t| t.solver().limits(limits.clone()));
    blocks
        .iter()
        .map(|block| {
            let grid = read(block)?;
            let solver = solver.as_mut().ok_or_else(|| {
                ContestError::bad(block.line, 1, "cannot build the 16x16 template")
            })?;
            solve_sudoku(solver, &grid, block.line, 1).map(|g| write(&g))
        })
        .collect()
}

/// Every case's answer, in order.
pub fn answers(text: &str) -> Vec<Answer> {
    answers_within(text, &Limits::default())
}

/// [`answers`] with a budget for each case's search
/// ([`super::answers_within`]).
pub fn answers_within(text: &str, limits: &Limits) -> Vec<Answer> {
    let lines = exactly::format::lines(text)
        .enumerate()
        .map(|(i, l)| (i + 1, l));
    solve_blocks(&blocks(lines), limits)
}
