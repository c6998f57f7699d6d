//! Sudoku: fill an `n`×`n` grid with the symbols `1`…`n` so that every row,
//! every column and every box holds each symbol once.
//!
//! # Overview
//!
//! Boxes are `r`×`c` rectangles with `n = r·c` ([`Shape`]): 3×3 boxes for
//! the classic 9×9 grid, 2×3 boxes for 6×6, 4×4 boxes for 16×16, and any
//! `n` up to [`Shape::MAX_SIZE`]. A [`Grid`] holds the values (0 for an
//! empty cell); [`solve`] returns a [`Verdict`] with the first solution.
//! A [`Template`] serves a batch of puzzles of one shape, each within a
//! budget if asked ([`TemplateSolver::limits`]); [`solve_parallel`] splits
//! one hard puzzle's search across threads.
//! [`parse`] reads batches of puzzles in the usual text forms and
//! [`Style::format`] writes a grid back in the form it came in.
//!
//! # Encoding
//!
//! The givens are applied before the search, so the problem holds only the
//! open part of the grid. Primary items, declared in this order:
//!
//! - `r{i}c{j}` for each empty cell (rows and columns count from 1);
//! - `r{i}={v}` for each row `i` and value `v` that the row's givens lack;
//! - `c{j}={v}` the same for columns;
//! - `b{k}={v}` the same for boxes, numbered from 1 in row-major order.
//!
//! One option per empty cell and value that no given of its row, column or
//! box excludes: `r{i}c{j} r{i}={v} c{j}={v} b{k}={v}`, listed cell by cell
//! in row-major order, values ascending. An empty cell whose values are all
//! excluded keeps its item with no option, so the search fails at once.
//!
//! [`Rules`] varies the constraints ([`encode_with`], [`solve_with`]): with
//! [`Rules::diagonals`] (X-sudoku) each main diagonal holds every value
//! once, through items `d1={v}` and `d2={v}`; with [`Rules::regions`]
//! (jigsaw sudoku) the [`Regions`] take the place of the boxes, region `k`
//! giving the items `b{k}={v}`.
//!
//! # Front-end shape
//!
//! Like the other front ends, the module has [`encode`] (and
//! [`encode_with`] for other rules) and [`decode`]. Two differences:
//! [`decode`] takes the puzzle as well, because the givens are applied
//! before the search and are not in the problem; and there is no
//! `write_dlx`, because [`SudokuError`] is a value (`Clone`, `Eq`, kept per
//! record in a batch) that an I/O error is not. Write the encoding with
//! `exactly::format::write_dlx(&sudoku::encode(&grid)?, out)`.
//!
//! The code is split by concern: the grid model (`grid.rs`), the encoding
//! (`encode.rs`) and the whole matrix in Knuth's format (`knuth.rs`), one
//! puzzle's search and its checks (`solve.rs`), templates for batches
//! (`template.rs`), the classic grid's search on bitboards (`bands.rs`), one puzzle split across threads and a batch across
//! threads (`parallel.rs`), target sudoku (`target.rs`), new puzzles
//! (`generate.rs`), the human-style solver and its ratings (`logic/`),
//! the text forms (`text/`), and the readers' invariants shared with the
//! fuzz targets (`check.rs`).
//!
//! # Input format
//!
//! See [`parse`]: one puzzle per line (`4.....8.5.3…`, 81 characters for
//! 9×9), a grid of lines (a blank line between puzzles), or whitespace
//! separated numbers (0 for an empty cell); `#` starts a comment line.
//!
//! # Example
//!
//! ```
//! use exactly_puzzles::sudoku::{self, Verdict};
//!
//! let text = "34..\n....\n...2\n.3..\n";
//! let records = sudoku::parse(text, None);
//! let puzzle = records[0].puzzle.as_ref().unwrap();
//! let answer = sudoku::solve(&puzzle.grid, 2)?;
//! assert_eq!(answer.verdict, Verdict::Unique);
//! let solution = answer.solution.unwrap();
//! assert!(solution.solves(&puzzle.grid));
//! assert_eq!(puzzle.style.format(&solution), "3421\n1243\n4132\n2314\n");
//! # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
//! ```

mod bands;
pub mod check;
mod encode;
pub mod generate;
mod grid;
pub mod knuth;
pub mod logic;
mod parallel;
mod solve;
mod target;
mod template;
#[cfg(test)]
mod tests;
mod text;

use exactly::format::ParseError;
use exactly::BuildError;

pub use encode::{decode, encode, encode_with, Placement};
pub use grid::{Conflict, Grid, Regions, Rules, Shape};
pub use parallel::{solve_batch, solve_parallel, Batch, Solved};
pub use solve::{
    memory_per_solver, solutions, solve, solve_with, Answer, Solutions, Verdict, MASKS_STATE_BYTES,
};
pub use target::{best_score, best_score_within, Method, Target, Weights};
pub use template::{Template, TemplateSolver};
pub use text::{
    parse, parse_jigsaw, parse_with, InputFormat, Layout, Puzzle, Reader, Record, Records, Style,
    Symbols, MAX_BLOCK, MAX_COUNT, MAX_LINE, MIN_SIZE,
};

/// Why a sudoku could not be read, checked or encoded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SudokuError {
    /// Box dimensions whose product is 0 or above [`Shape::MAX_SIZE`].
    #[error("boxes of {box_rows}x{box_cols} cells: the grid side must be between 1 and 64")]
    BadShape {
        /// Rows per box.
        box_rows: usize,
        /// Columns per box.
        box_cols: usize,
    },
    /// A grid side whose box shape cannot be inferred.
    #[error("cannot tell the box shape of a {size}x{size} grid; give it as RxC")]
    UnknownShape {
        /// The grid side.
        size: usize,
    },
    /// A grid side below [`MIN_SIZE`], read without asking for small
    /// grids ([`Reader::small`]).
    #[error("a {size}x{size} grid is smaller than 4x4; small grids are read only when asked for (--small)")]
    TooSmall {
        /// The grid side.
        size: usize,
    },
    /// A grid whose side does not match the given box shape.
    #[error("a {size}x{size} grid does not fit boxes of {box_rows}x{box_cols}")]
    ShapeMismatch {
        /// The grid side.
        size: usize,
        /// Rows per box.
        box_rows: usize,
        /// Columns per box.
        box_cols: usize,
    },
    /// A cell value above the grid side, or the wrong number of cells.
    #[error("{0}")]
    BadGrid(String),
    /// Two givens with the same symbol in one row, column or box.
    #[error("givens clash: {first} and {second} both hold {symbol}")]
    Clash {
        /// The first cell, as `r{i}c{j}`.
        first: String,
        /// The second cell.
        second: String,
        /// The symbol, as the input writes it.
        symbol: String,
    },
    /// Text that is not a puzzle: where (the 1-based line and, when the
    /// error has one, column) and what is wrong, shown as `line L, column
    /// C: message` ([`ParseError::in_words`]).
    #[error("{}", .0.in_words())]
    Parse(ParseError),
    /// A solution that fails the independent check; a bug in the solver.
    #[error("internal error: the solver returned a grid that is not a solution")]
    WrongSolution,
    /// A subproblem of a split search that could not be replayed; a bug in
    /// the solver.
    #[error("internal error: {0}")]
    BadPrefix(#[from] exactly::parallel::BadPrefix),
    /// The problem model rejected the encoding.
    #[error(transparent)]
    Build(#[from] BuildError),
}
