//! A sudoku as the whole exact-cover matrix, for writing in Knuth's DLX
//! format: every cell and every unit keep their items, givens included
//! (324 primary items for 9x9, 1024 for 16x16), unlike
//! [`super::encode_with`], which leaves out what the givens settle.
//!
//! # Items and options
//!
//! - `r{i}c{j}` for every cell, row-major (rows and columns from 1);
//! - `r{i}={v}`, `c{j}={v}`, `b{k}={v}` for every row, column and box (or
//!   jigsaw region) and every value; under [`Rules::diagonals`] also
//!   `d1={v}` (the diagonal from r1c1) and `d2={v}` (from r1cn).
//!
//! A cell with a given has the one option placing it; an empty cell has an
//! option for every value that no given of its units holds. Each option is
//! `r{i}c{j} r{i}={v} c{j}={v} b{k}={v}` (and its diagonals). The exact
//! covers are the puzzle's solutions, one for one.
//!
//! ```
//! use exactly_puzzles::sudoku::{knuth, Grid, Rules, Shape};
//! let problem = knuth::encode_full(&Grid::empty(Shape::new(2, 2)?), &Rules::default())?;
//! assert_eq!((problem.num_primary(), problem.num_options()), (64, 64));
//! assert_eq!(exactly::Solver::new(&problem).count().solutions, 288);
//! # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
//! ```

use exactly::Problem;

use super::encode::{matrix, Cells, Order};
use super::{Grid, Placement, Rules, SudokuError};

/// The whole matrix of `puzzle` under `rules` (see the module docs). Fails
/// when the givens clash or the regions are for another side.
pub fn encode_full(puzzle: &Grid, rules: &Rules) -> Result<Problem<Placement>, SudokuError> {
    // The clash first, as the regions' side is checked after it.
    if let Some(c) = puzzle.clash_with(rules) {
        return Err(c.error(c.value.to_string()));
    }
    matrix(puzzle, rules, Cells::All, Order::RowMajor)
}
