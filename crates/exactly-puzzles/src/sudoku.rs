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

pub mod check;
pub mod generate;
pub mod knuth;
pub mod logic;
mod text;

use exactly::time::Instant;
use std::fmt;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use exactly::{
    BuildError, ColorId, Engine, ItemId, Limits, OptionId, Outcome, Problem, ProblemBuilder,
    Solution, Solver, StopReason,
};

pub use text::{
    parse, parse_jigsaw, parse_with, Layout, Puzzle, Reader, Record, Style, Symbols, MIN_SIZE,
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
    /// Text that is not a puzzle: the 1-based line and, when known, column.
    #[error("line {line}{}: {message}", column.map(|c| format!(", column {c}")).unwrap_or_default())]
    Parse {
        /// 1-based line.
        line: usize,
        /// 1-based column (in characters), when the error has one.
        column: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// A solution that fails the independent check; a bug in the solver.
    #[error("internal error: the solver returned a grid that is not a solution")]
    WrongSolution,
    /// A subproblem of a split search that could not be replayed; a bug in
    /// the solver.
    #[error("internal error: a subproblem of the split search could not be replayed")]
    SplitFailed,
    /// The problem model rejected the encoding.
    #[error(transparent)]
    Build(#[from] BuildError),
}

/// The box shape of a grid: boxes of `box_rows`×`box_cols` cells, for a
/// grid side `n = box_rows · box_cols`.
///
/// ```
/// use exactly_puzzles::sudoku::Shape;
/// let shape = Shape::infer(6).unwrap();
/// assert_eq!((shape.box_rows(), shape.box_cols(), shape.size()), (2, 3, 6));
/// assert!(Shape::infer(10).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    box_rows: usize,
    box_cols: usize,
}

impl Shape {
    /// The largest grid side.
    pub const MAX_SIZE: usize = 64;

    /// Boxes of `box_rows`×`box_cols` cells.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::Shape;
    /// assert_eq!(Shape::new(3, 4)?.size(), 12);
    /// assert!(Shape::new(0, 4).is_err());
    /// assert!(Shape::new(9, 9).is_err());
    /// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
    /// ```
    pub fn new(box_rows: usize, box_cols: usize) -> Result<Shape, SudokuError> {
        let n = box_rows.saturating_mul(box_cols);
        if n == 0 || n > Shape::MAX_SIZE {
            return Err(SudokuError::BadShape { box_rows, box_cols });
        }
        Ok(Shape { box_rows, box_cols })
    }

    /// The usual shape for a grid side: square boxes when `size` is a
    /// perfect square, 2×3 for 6, 2×4 for 8, 3×4 for 12; `None` otherwise.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::Shape;
    /// assert_eq!(Shape::infer(16), Some(Shape::new(4, 4).unwrap()));
    /// assert_eq!(Shape::infer(8), Some(Shape::new(2, 4).unwrap()));
    /// ```
    pub fn infer(size: usize) -> Option<Shape> {
        if size == 0 || size > Shape::MAX_SIZE {
            return None;
        }
        let root = (1..=8).find(|r| r * r >= size)?;
        if root * root == size {
            return Some(Shape {
                box_rows: root,
                box_cols: root,
            });
        }
        match size {
            6 => Some(Shape {
                box_rows: 2,
                box_cols: 3,
            }),
            8 => Some(Shape {
                box_rows: 2,
                box_cols: 4,
            }),
            12 => Some(Shape {
                box_rows: 3,
                box_cols: 4,
            }),
            _ => None,
        }
    }

    /// The grid side `n`, which is also the number of symbols.
    ///
    /// ```
    /// assert_eq!(exactly_puzzles::sudoku::Shape::new(2, 4).unwrap().size(), 8);
    /// ```
    pub fn size(self) -> usize {
        self.box_rows * self.box_cols
    }

    /// Rows per box.
    ///
    /// ```
    /// assert_eq!(exactly_puzzles::sudoku::Shape::new(2, 3).unwrap().box_rows(), 2);
    /// ```
    pub fn box_rows(self) -> usize {
        self.box_rows
    }

    /// Columns per box.
    ///
    /// ```
    /// assert_eq!(exactly_puzzles::sudoku::Shape::new(2, 3).unwrap().box_cols(), 3);
    /// ```
    pub fn box_cols(self) -> usize {
        self.box_cols
    }

    /// The 0-based box of a cell, boxes numbered in row-major order.
    ///
    /// ```
    /// let shape = exactly_puzzles::sudoku::Shape::new(2, 3).unwrap();
    /// assert_eq!(shape.box_of(0, 0), 0);
    /// assert_eq!(shape.box_of(1, 3), 1);
    /// assert_eq!(shape.box_of(2, 0), 2);
    /// ```
    pub fn box_of(self, row: usize, col: usize) -> usize {
        let boxes_per_band = self.size() / self.box_cols;
        (row / self.box_rows) * boxes_per_band + col / self.box_cols
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.box_rows, self.box_cols)
    }
}

/// A grid of values: 0 for an empty cell, `1..=n` for a symbol.
///
/// ```
/// use exactly_puzzles::sudoku::{Grid, Shape};
/// let mut grid = Grid::empty(Shape::new(2, 2)?);
/// grid.set(0, 1, 3);
/// assert_eq!(grid.get(0, 1), 3);
/// assert_eq!(grid.givens(), 1);
/// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    shape: Shape,
    cells: Vec<u8>,
}

impl Grid {
    /// A grid with every cell empty.
    ///
    /// ```
    /// let grid = exactly_puzzles::sudoku::Grid::empty(exactly_puzzles::sudoku::Shape::new(3, 3).unwrap());
    /// assert_eq!(grid.cells().len(), 81);
    /// ```
    pub fn empty(shape: Shape) -> Grid {
        Grid {
            shape,
            cells: vec![0; shape.size() * shape.size()],
        }
    }

    /// A grid from its cells in row-major order (0 empty).
    ///
    /// ```
    /// use exactly_puzzles::sudoku::{Grid, Shape};
    /// let shape = Shape::new(1, 2)?;
    /// assert!(Grid::from_cells(shape, vec![1, 2, 2, 1]).is_ok());
    /// assert!(Grid::from_cells(shape, vec![1, 3, 0, 0]).is_err());
    /// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
    /// ```
    pub fn from_cells(shape: Shape, cells: Vec<u8>) -> Result<Grid, SudokuError> {
        let n = shape.size();
        if cells.len() != n * n {
            return Err(SudokuError::BadGrid(format!(
                "a {n}x{n} grid has {} cells, not {}",
                n * n,
                cells.len()
            )));
        }
        if let Some(&v) = cells.iter().find(|&&v| usize::from(v) > n) {
            return Err(SudokuError::BadGrid(format!("value {v} in a {n}x{n} grid")));
        }
        Ok(Grid { shape, cells })
    }

    /// The box shape.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::{Grid, Shape};
    /// assert_eq!(Grid::empty(Shape::new(2, 3).unwrap()).shape().size(), 6);
    /// ```
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The grid side.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::{Grid, Shape};
    /// assert_eq!(Grid::empty(Shape::new(2, 3).unwrap()).size(), 6);
    /// ```
    pub fn size(&self) -> usize {
        self.shape.size()
    }

    /// The cells in row-major order.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::{Grid, Shape};
    /// assert!(Grid::empty(Shape::new(2, 2).unwrap()).cells().iter().all(|&v| v == 0));
    /// ```
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The value of a cell (0 when empty).
    ///
    /// ```
    /// use exactly_puzzles::sudoku::{Grid, Shape};
    /// assert_eq!(Grid::empty(Shape::new(2, 2).unwrap()).get(3, 3), 0);
    /// ```
    pub fn get(&self, row: usize, col: usize) -> u8 {
        self.cells[row * self.size() + col]
    }

    /// Sets the value of a cell (0 empties it).
    ///
    /// ```
    /// use exactly_puzzles::sudoku::{Grid, Shape};
    /// let mut grid = Grid::empty(Shape::new(2, 2).unwrap());
    /// grid.set(3, 3, 4);
    /// assert_eq!(grid.cells()[15], 4);
    /// ```
    pub fn set(&mut self, row: usize, col: usize, value: u8) {
        let n = self.size();
        self.cells[row * n + col] = value;
    }

    /// The number of filled cells.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::{Grid, Shape};
    /// assert_eq!(Grid::empty(Shape::new(2, 2).unwrap()).givens(), 0);
    /// ```
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// The first two givens that share a row, a column or a box and hold
    /// the same value, in row-major order of the second cell.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::{Conflict, Grid, Shape};
    /// let mut grid = Grid::empty(Shape::new(2, 2)?);
    /// grid.set(0, 0, 1);
    /// grid.set(1, 1, 1);
    /// assert_eq!(grid.clash(), Some(Conflict { first: (0, 0), second: (1, 1), value: 1 }));
    /// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
    /// ```
    pub fn clash(&self) -> Option<Conflict> {
        self.clash_with(&Rules::default())
    }

    /// [`Grid::clash`] under `rules`: with [`Rules::diagonals`], two givens
    /// on one main diagonal clash too.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::{Grid, Rules, Shape};
    /// let mut grid = Grid::empty(Shape::new(2, 2)?);
    /// grid.set(0, 0, 1);
    /// grid.set(3, 3, 1);
    /// assert!(grid.clash().is_none());
    /// assert!(grid.clash_with(&Rules::default().diagonals(true)).is_some());
    /// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
    /// ```
    pub fn clash_with(&self, rules: &Rules) -> Option<Conflict> {
        let n = self.size();
        // Per unit and value: the cell index holding it, plus 1 (0 = none).
        let mut seen = vec![0usize; UNITS_PER_SIDE * n * n + 2 * n];
        for (i, &v) in self.cells.iter().enumerate() {
            if v == 0 {
                continue;
            }
            let (r, c) = (i / n, i % n);
            let units = units_of(self.shape, rules, r, c);
            for u in units.into_iter().flatten() {
                let slot = &mut seen[u * n + usize::from(v) - 1];
                if *slot != 0 {
                    let j = *slot - 1;
                    return Some(Conflict {
                        first: (j / n, j % n),
                        second: (r, c),
                        value: v,
                    });
                }
            }
            for u in units.into_iter().flatten() {
                seen[u * n + usize::from(v) - 1] = i + 1;
            }
        }
        None
    }

    /// True when `self` is complete, every row, column and box holds each
    /// value once, and every given of `puzzle` is kept. An independent check
    /// of the solver's answers: it shares no code with the encoding.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::{Grid, Shape};
    /// let shape = Shape::new(1, 2)?;
    /// let puzzle = Grid::from_cells(shape, vec![1, 0, 0, 0])?;
    /// assert!(Grid::from_cells(shape, vec![1, 2, 2, 1])?.solves(&puzzle));
    /// assert!(!Grid::from_cells(shape, vec![2, 1, 1, 2])?.solves(&puzzle));
    /// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
    /// ```
    pub fn solves(&self, puzzle: &Grid) -> bool {
        self.solves_with(puzzle, &Rules::default())
    }

    /// [`Grid::solves`] under `rules`: with [`Rules::diagonals`], each
    /// main diagonal must hold every value once too.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::{Grid, Rules, Shape};
    /// let shape = Shape::new(2, 2)?;
    /// let x = Rules::default().diagonals(true);
    /// let grid = Grid::from_cells(shape, vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1])?;
    /// assert!(grid.solves(&Grid::empty(shape)));
    /// assert!(!grid.solves_with(&Grid::empty(shape), &x));
    /// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
    /// ```
    pub fn solves_with(&self, puzzle: &Grid, rules: &Rules) -> bool {
        let n = self.size();
        if puzzle.shape != self.shape || self.cells.len() != n * n {
            return false;
        }
        let kept = puzzle
            .cells
            .iter()
            .zip(&self.cells)
            .all(|(&g, &v)| g == 0 || g == v);
        if !kept || self.cells.iter().any(|&v| v == 0 || usize::from(v) > n) {
            return false;
        }
        // n is at most `Shape::MAX_SIZE` (64): one bit per value.
        let full = u64::MAX >> (64 - n);
        let (br, bc) = (self.shape.box_rows, self.shape.box_cols);
        let regions = rules.regions.as_ref().map(|r| r.of.as_slice());
        if regions.is_some_and(|of| of.len() != n * n) {
            return false;
        }
        // Per row, column, box and region: the values it holds.
        let mut held = [0u64; 4 * Shape::MAX_SIZE];
        let (rows, rest) = held.split_at_mut(n);
        let (cols, rest) = rest.split_at_mut(n);
        let (boxes, rest) = rest.split_at_mut(n);
        let region = &mut rest[..n];
        let across = n / bc;
        for (r, line) in self.cells.chunks_exact(n).enumerate() {
            let band = (r / br) * across;
            for (c, &v) in line.iter().enumerate() {
                let bit = 1u64 << (v - 1);
                rows[r] |= bit;
                cols[c] |= bit;
                boxes[band + c / bc] |= bit;
                if let Some(of) = regions {
                    region[usize::from(of[r * n + c])] |= bit;
                }
            }
        }
        let all = |masks: &[u64]| masks.iter().all(|&m| m == full);
        let boxed = if regions.is_some() {
            all(region)
        } else {
            all(boxes)
        };
        if !(all(rows) && all(cols) && boxed) {
            return false;
        }
        if rules.diagonals {
            let (mut down, mut up) = (0u64, 0u64);
            for k in 0..n {
                down |= 1 << (self.cells[k * n + k] - 1);
                up |= 1 << (self.cells[k * n + n - 1 - k] - 1);
            }
            if down != full || up != full {
                return false;
            }
        }
        true
    }
}

/// Units per grid side: rows, columns, boxes.
const UNITS_PER_SIDE: usize = 3;

/// The constraints beyond rows, columns and boxes.
///
/// ```
/// use exactly_puzzles::sudoku::Rules;
/// assert!(!Rules::default().diagonals);
/// assert!(Rules::default().diagonals(true).diagonals);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Rules {
    /// X-sudoku: each of the two main diagonals holds every value once.
    pub diagonals: bool,
    /// Jigsaw sudoku: these regions take the place of the boxes.
    pub regions: Option<Regions>,
}

impl Rules {
    /// Sets [`Rules::diagonals`].
    ///
    /// ```
    /// assert!(exactly_puzzles::sudoku::Rules::default().diagonals(true).diagonals);
    /// ```
    pub fn diagonals(mut self, on: bool) -> Rules {
        self.diagonals = on;
        self
    }

    /// Sets [`Rules::regions`].
    ///
    /// ```
    /// use exactly_puzzles::sudoku::{Regions, Rules};
    /// let regions = Regions::parse("aabb\naabb\nccdd\nccdd\n")?;
    /// assert!(Rules::default().regions(Some(regions)).regions.is_some());
    /// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
    /// ```
    pub fn regions(mut self, regions: Option<Regions>) -> Rules {
        self.regions = regions;
        self
    }
}

/// The regions of a jigsaw sudoku: `n` regions of `n` cells each.
///
/// ```
/// use exactly_puzzles::sudoku::Regions;
/// let regions = Regions::parse("AAAB\nACBB\nDCCB\nDDDC\n")?;
/// assert_eq!(regions.size(), 4);
/// assert_eq!(regions.region(1, 1), 2);
/// assert!(Regions::parse("AAAA\nAAAA\nCCDD\nCCDD\n").is_err());
/// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Regions {
    size: usize,
    /// Per cell (row-major): its 0-based region.
    of: Vec<u8>,
}

impl Regions {
    /// Reads `n` lines of `n` labels (characters side by side, or words
    /// separated by whitespace), one per cell; cells with the same label
    /// form a region. There must be `n` labels, each on `n` cells. `#`
    /// lines and blank lines are skipped.
    pub fn parse(text: &str) -> Result<Regions, SudokuError> {
        let bad = |line: usize, message: String| SudokuError::Parse {
            line,
            column: None,
            message,
        };
        let mut labels: Vec<String> = Vec::new();
        let mut of = Vec::new();
        let (mut rows, mut width, mut last) = (0, 0, 1);
        for (k, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let cells: Vec<&str> = if t.contains(char::is_whitespace) {
                t.split_whitespace().collect()
            } else {
                t.char_indices()
                    .map(|(i, c)| &t[i..i + c.len_utf8()])
                    .collect()
            };
            if rows == 0 {
                width = cells.len();
            } else if cells.len() != width {
                return Err(bad(
                    k + 1,
                    format!("{} cells, but the first row has {width}", cells.len()),
                ));
            }
            rows += 1;
            last = k + 1;
            for cell in cells {
                let id = match labels.iter().position(|l| l == cell) {
                    Some(id) => id,
                    // Past 64 labels no grid fits: stop before the search
                    // for a label grows with the line.
                    None if labels.len() == Shape::MAX_SIZE => {
                        return Err(bad(
                            k + 1,
                            format!(
                                "more than {} labels: expected n labels, n at most {}",
                                Shape::MAX_SIZE,
                                Shape::MAX_SIZE
                            ),
                        ))
                    }
                    None => {
                        labels.push(cell.to_string());
                        labels.len() - 1
                    }
                };
                of.push(u8::try_from(id).unwrap_or(u8::MAX));
            }
        }
        let n = labels.len();
        if n == 0 || n > Shape::MAX_SIZE || rows != width || n != width {
            return Err(bad(
                last,
                format!("{rows} rows of {width} cells with {n} labels: expected n rows of n cells with n labels, n at most 64"),
            ));
        }
        Regions::new(n, of)
    }

    /// Regions from the 0-based region of each cell, row-major.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::Regions;
    /// assert!(Regions::new(2, vec![0, 0, 1, 1]).is_ok());
    /// assert!(Regions::new(2, vec![0, 0, 0, 1]).is_err());
    /// ```
    pub fn new(size: usize, of: Vec<u8>) -> Result<Regions, SudokuError> {
        if size == 0 || size > Shape::MAX_SIZE || of.len() != size * size {
            return Err(SudokuError::BadGrid(format!(
                "regions of a {size}x{size} grid need {} cells, not {}",
                size * size,
                of.len()
            )));
        }
        let mut count = vec![0usize; size];
        for &r in &of {
            match count.get_mut(usize::from(r)) {
                Some(c) => *c += 1,
                None => {
                    return Err(SudokuError::BadGrid(format!(
                        "region {r} in a {size}x{size} grid"
                    )))
                }
            }
        }
        if let Some(k) = count.iter().position(|&c| c != size) {
            return Err(SudokuError::BadGrid(format!(
                "region {} has {} cells, not {size}",
                k + 1,
                count[k]
            )));
        }
        Ok(Regions { size, of })
    }

    /// The grid side.
    ///
    /// ```
    /// assert_eq!(exactly_puzzles::sudoku::Regions::new(1, vec![0]).unwrap().size(), 1);
    /// ```
    pub fn size(&self) -> usize {
        self.size
    }

    /// The 0-based region of a cell.
    ///
    /// ```
    /// let regions = exactly_puzzles::sudoku::Regions::new(2, vec![0, 1, 0, 1]).unwrap();
    /// assert_eq!(regions.region(1, 1), 1);
    /// ```
    pub fn region(&self, row: usize, col: usize) -> usize {
        usize::from(self.of[row * self.size + col])
    }
}

/// The units of a cell: its row `r`, column `n + c`, box `2n + b`, and
/// under [`Rules::diagonals`] the diagonals `3n` (`r = c`) and `3n + 1`
/// (`r + c = n - 1`) when it lies on them.
fn units_of(shape: Shape, rules: &Rules, r: usize, c: usize) -> [Option<usize>; 5] {
    let n = shape.size();
    let on = |yes: bool, u: usize| (rules.diagonals && yes).then_some(u);
    let region = match &rules.regions {
        Some(g) if g.size == n => g.region(r, c),
        _ => shape.box_of(r, c),
    };
    [
        Some(r),
        Some(n + c),
        Some(2 * n + region),
        on(r == c, UNITS_PER_SIDE * n),
        on(r + c == n - 1, UNITS_PER_SIDE * n + 1),
    ]
}

/// Fails when the rules' regions are for another grid side.
fn check_regions(puzzle: &Grid, rules: &Rules) -> Result<(), SudokuError> {
    match &rules.regions {
        Some(g) if g.size != puzzle.size() => Err(SudokuError::BadGrid(format!(
            "the regions are for a {0}x{0} grid, the puzzle is {1}x{1}",
            g.size,
            puzzle.size()
        ))),
        _ => Ok(()),
    }
}

/// Two givens that clash: cells as 0-based `(row, col)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Conflict {
    /// The earlier cell in row-major order.
    pub first: (usize, usize),
    /// The later cell.
    pub second: (usize, usize),
    /// The value both hold.
    pub value: u8,
}

impl Conflict {
    /// The error for this clash, with the value written by `symbol`.
    fn error(self, symbol: String) -> SudokuError {
        SudokuError::Clash {
            first: cell_name(self.first.0, self.first.1),
            second: cell_name(self.second.0, self.second.1),
            symbol,
        }
    }
}

/// The label of an option: `value` in the cell at (`row`, `col`), 0-based.
///
/// ```
/// use exactly_puzzles::sudoku::{self, Grid, Placement, Shape};
/// let problem = sudoku::encode(&Grid::empty(Shape::new(2, 2)?))?;
/// assert_eq!(problem.labels()[5], Placement { row: 0, col: 1, value: 2 });
/// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Placement {
    /// 0-based row.
    pub row: u8,
    /// 0-based column.
    pub col: u8,
    /// The value, `1..=n`.
    pub value: u8,
}

/// The cell name `r{row+1}c{col+1}`.
fn cell_name(row: usize, col: usize) -> String {
    format!("r{}c{}", row + 1, col + 1)
}

/// Encodes the open part of a grid as an exact-cover problem (see the
/// module docs for the items and options).
///
/// Fails with [`SudokuError::Clash`] when two givens clash (the symbol
/// written as a number), and with [`BuildError::NoItems`] (as
/// [`SudokuError::Build`]) when the grid is complete.
///
/// ```
/// use exactly_puzzles::sudoku::{self, Grid, Shape};
/// let problem = sudoku::encode(&Grid::empty(Shape::new(2, 2)?))?;
/// assert_eq!(problem.num_primary(), 64);
/// assert_eq!(problem.num_options(), 64);
/// assert_eq!(problem.option_text(exactly::OptionId::new(0)), "r1c1 r1=1 c1=1 b1=1");
/// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
/// ```
pub fn encode(puzzle: &Grid) -> Result<Problem<Placement>, SudokuError> {
    encode_with(puzzle, &Rules::default())
}

/// [`encode`] under `rules`. With [`Rules::diagonals`], primary items
/// `d1={v}` (the diagonal `r = c`) and `d2={v}` (`r + c = n - 1`) follow
/// the boxes' items, and the options of the cells on a diagonal hold them.
///
/// ```
/// use exactly_puzzles::sudoku::{self, Grid, Rules, Shape};
/// let x = Rules::default().diagonals(true);
/// let problem = sudoku::encode_with(&Grid::empty(Shape::new(2, 2)?), &x)?;
/// assert_eq!(problem.num_primary(), 64 + 8);
/// assert_eq!(problem.option_text(exactly::OptionId::new(0)), "r1c1 r1=1 c1=1 b1=1 d1=1");
/// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
/// ```
pub fn encode_with(puzzle: &Grid, rules: &Rules) -> Result<Problem<Placement>, SudokuError> {
    check_regions(puzzle, rules)?;
    let shape = puzzle.shape;
    let n = shape.size();
    let units = UNITS_PER_SIDE * n + if rules.diagonals { 2 } else { 0 };
    // Values used per unit, as bit masks; a value used twice is a clash,
    // which `clash_with` then names.
    let mut used = vec![0u64; units];
    let mut clash = false;
    for (i, &v) in puzzle.cells.iter().enumerate() {
        if v != 0 {
            let bit = 1u64 << (v - 1);
            for u in units_of(shape, rules, i / n, i % n).into_iter().flatten() {
                clash |= used[u] & bit != 0;
                used[u] |= bit;
            }
        }
    }
    if clash {
        if let Some(c) = puzzle.clash_with(rules) {
            return Err(c.error(c.value.to_string()));
        }
    }
    let mut b = ProblemBuilder::new();
    // At most: an item per open cell and per missing value of each unit,
    // and an option per open cell and value.
    let open = puzzle.cells.iter().filter(|&&v| v == 0).count();
    let missing: usize = used.iter().map(|m| n - m.count_ones() as usize).sum();
    let entries_per_option = 1 + units_of(shape, rules, 0, 0).iter().flatten().count();
    b.reserve(open + missing, open * n, open * n * entries_per_option);
    let mut name = String::with_capacity(12);
    let mut cell_item = vec![None; n * n];
    for (i, slot) in cell_item.iter_mut().enumerate() {
        if puzzle.cells[i] == 0 {
            name.clear();
            name.push('r');
            push_number(&mut name, i / n + 1);
            name.push('c');
            push_number(&mut name, i % n + 1);
            *slot = Some(b.primary(&name)?);
        }
    }
    // unit_item[u * n + v - 1]: the item of unit u (rows, columns, boxes,
    // diagonals) and value v, when that unit still lacks v.
    let mut unit_item: Vec<Option<ItemId>> = vec![None; units * n];
    for (u, &mask) in used.iter().enumerate() {
        let (prefix, k) = match u / n {
            0 => ("r", u + 1),
            1 => ("c", u - n + 1),
            2 => ("b", u - 2 * n + 1),
            _ => ("d", u - 3 * n + 1),
        };
        for v in 1..=n {
            if mask & (1u64 << (v - 1)) == 0 {
                name.clear();
                name.push_str(prefix);
                push_number(&mut name, k);
                name.push('=');
                push_number(&mut name, v);
                unit_item[u * n + v - 1] = Some(b.primary(&name)?);
            }
        }
    }
    // PERF: entries gathered in an array, not a chain of flattened
    // iterators, made building the 9x9 template a third faster.
    for (i, item) in cell_item.iter().enumerate() {
        let Some(cell) = *item else { continue };
        let (r, c) = (i / n, i % n);
        let mut units = [0usize; 5];
        let mut k = 0;
        for u in units_of(shape, rules, r, c).into_iter().flatten() {
            units[k] = u;
            k += 1;
        }
        let units = &units[..k];
        let excluded = units.iter().fold(0, |m, &u| m | used[u]);
        let mut entries = [(cell, ColorId::NONE); 6];
        for v in 1..=n {
            if excluded & (1u64 << (v - 1)) != 0 {
                continue;
            }
            let mut len = 1;
            for &u in units {
                if let Some(item) = unit_item[u * n + v - 1] {
                    entries[len].0 = item;
                    len += 1;
                }
            }
            b.add_option(
                Placement {
                    row: r as u8,
                    col: c as u8,
                    value: v as u8,
                },
                entries[..len].iter().copied(),
            )?;
        }
    }
    Ok(b.build()?)
}

/// Appends `k` in decimal.
/// PERF: item names without `write!` made encoding a nearly full 25x25
/// grid a quarter faster.
fn push_number(name: &mut String, k: usize) {
    if k >= 10 {
        push_number(name, k / 10);
    }
    name.push(char::from(b'0' + (k % 10) as u8));
}

/// Fills the puzzle's empty cells with a solution of [`encode`]'s problem.
///
/// ```
/// use exactly_puzzles::sudoku::{self, Grid, Shape};
/// let puzzle = Grid::empty(Shape::new(2, 2)?);
/// let problem = sudoku::encode(&puzzle)?;
/// let solution = exactly::Solver::new(&problem).first().unwrap().unwrap();
/// assert!(sudoku::decode(&puzzle, &problem, &solution).solves(&puzzle));
/// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
/// ```
pub fn decode(puzzle: &Grid, problem: &Problem<Placement>, solution: &Solution) -> Grid {
    let mut grid = puzzle.clone();
    for &o in solution.options() {
        let p = problem.label(o);
        grid.set(usize::from(p.row), usize::from(p.col), p.value);
    }
    grid
}

/// The solutions of a puzzle, found lazily: each `next()` resumes the
/// search where the last solution left it. Made by [`solutions`].
pub struct Solutions<'p> {
    puzzle: Grid,
    solver: Solver<'p, Placement>,
}

impl Iterator for Solutions<'_> {
    type Item = Grid;

    fn next(&mut self) -> Option<Grid> {
        let problem = self.solver.problem();
        let puzzle = &self.puzzle;
        let mut found = None;
        self.solver.for_each(|s| {
            found = Some(decode(puzzle, problem, s));
            ControlFlow::Break(())
        });
        found
    }
}

/// Every solution of `puzzle`, lazily, given its encoding `problem`
/// ([`encode`] or [`encode_with`] of the same puzzle).
///
/// ```
/// use exactly_puzzles::sudoku::{self, Grid, Shape};
/// let empty = Grid::empty(Shape::new(2, 2)?);
/// let problem = sudoku::encode(&empty)?;
/// let mut all = sudoku::solutions(&empty, &problem);
/// let first = all.next().unwrap();
/// assert!(first.solves(&empty));
/// assert_eq!(1 + all.count(), 288);
/// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
/// ```
pub fn solutions<'p>(puzzle: &Grid, problem: &'p Problem<Placement>) -> Solutions<'p> {
    Solutions {
        puzzle: puzzle.clone(),
        solver: sudoku_solver(problem, &Limits::default()),
    }
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Verdict {
    /// Exactly one solution.
    Unique,
    /// At least two solutions.
    Multiple,
    /// A solution, when only the first was asked for (uniqueness unchecked).
    Solved,
    /// No solution.
    None,
    /// The search ran out of its budget ([`TemplateSolver::limits`]) before
    /// it could tell; `count` holds the solutions found by then.
    Unknown,
}

impl Verdict {
    /// The verdict's word: `unique`, `multiple`, `solved`, `none` or
    /// `unknown`.
    ///
    /// ```
    /// assert_eq!(exactly_puzzles::sudoku::Verdict::Multiple.word(), "multiple");
    /// ```
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Unique => "unique",
            Verdict::Multiple => "multiple",
            Verdict::Solved => "solved",
            Verdict::None => "none",
            Verdict::Unknown => "unknown",
        }
    }
}

/// The answer to a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// What the search found.
    pub verdict: Verdict,
    /// The first solution found, checked by [`Grid::solves`].
    pub solution: Option<Grid>,
    /// The second solution found, when there was one (so the verdict is
    /// [`Verdict::Multiple`]), checked the same way: proof that the puzzle
    /// is not unique.
    pub second: Option<Grid>,
    /// The solutions found, at most the number asked for: with
    /// [`Verdict::Multiple`] or [`Verdict::Unknown`] a lower bound.
    pub count: u64,
    /// Search nodes.
    pub nodes: u64,
}

/// Solves a puzzle, looking for up to `max_solutions` solutions (at least
/// 1): with 1 the verdict is [`Verdict::Solved`] or [`Verdict::None`]; with
/// 2 or more, [`Verdict::Unique`], [`Verdict::Multiple`] (`count` reached
/// `max_solutions`, or more than one solution) or [`Verdict::None`].
///
/// Fails with [`SudokuError::Clash`] when givens clash.
///
/// ```
/// use exactly_puzzles::sudoku::{self, Grid, Shape, Verdict};
/// let empty = Grid::empty(Shape::new(2, 2)?);
/// let answer = sudoku::solve(&empty, 1000)?;
/// assert_eq!((answer.verdict, answer.count), (Verdict::Multiple, 288));
/// assert_eq!(sudoku::solve(&empty, 1)?.verdict, Verdict::Solved);
/// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
/// ```
pub fn solve(puzzle: &Grid, max_solutions: u64) -> Result<Answer, SudokuError> {
    solve_with(puzzle, max_solutions, &Rules::default())
}

/// [`solve`] under `rules`.
///
/// ```
/// use exactly_puzzles::sudoku::{self, Grid, Rules, Shape};
/// let x = Rules::default().diagonals(true);
/// let answer = sudoku::solve_with(&Grid::empty(Shape::new(3, 3)?), 1, &x)?;
/// assert!(answer.solution.unwrap().solves_with(&Grid::empty(Shape::new(3, 3)?), &x));
/// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
/// ```
pub fn solve_with(puzzle: &Grid, max_solutions: u64, rules: &Rules) -> Result<Answer, SudokuError> {
    solve_within(puzzle, max_solutions, rules, &Limits::default())
}

/// [`solve_with`] within `limits`.
fn solve_within(
    puzzle: &Grid,
    max_solutions: u64,
    rules: &Rules,
    limits: &Limits,
) -> Result<Answer, SudokuError> {
    // The template checks the regions against the grid side; its solver's
    // first puzzle is encoded on its own, so nothing else is built.
    let template = Template::new(puzzle.shape(), rules)?;
    let answer = template
        .solver()
        .limits(limits.clone())
        .solve(puzzle, max_solutions);
    answer
}

/// The empty grid of one shape under one set of rules, encoded once (when a
/// solver first needs it): its [`TemplateSolver`]s solve puzzles of that
/// shape by committing their givens ([`exactly::Solver::assume`]) instead of
/// encoding each puzzle, which is what makes batches fast. One template
/// serves any number of threads, each with its own solver.
///
/// ```
/// use exactly_puzzles::sudoku::{self, Rules, Template, Verdict};
/// let template = Template::new(sudoku::Shape::new(3, 3)?, &Rules::default())?;
/// let mut solver = template.solver();
/// let text = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/// let records = sudoku::parse(text, None);
/// let puzzle = &records[0].puzzle.as_ref().unwrap().grid;
/// let answer = solver.solve(puzzle, 2)?;
/// assert_eq!(answer.verdict, Verdict::Unique);
/// assert!(answer.solution.unwrap().solves(puzzle));
/// // The same solver takes the next puzzle.
/// assert_eq!(solver.solve(&sudoku::Grid::empty(puzzle.shape()), 1)?.verdict, Verdict::Solved);
/// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Template {
    shape: Shape,
    rules: Rules,
    /// Built on first use (see [`TemplateSolver`]).
    encoding: OnceLock<Result<Encoding, SudokuError>>,
}

/// The empty grid's problem, and `option[cell * n + value - 1]`: the option
/// placing `value` in `cell`.
#[derive(Clone, Debug)]
struct Encoding {
    problem: Problem<Placement>,
    option: Vec<OptionId>,
}

impl Template {
    /// The template of `shape` under `rules`. The empty grid is encoded when
    /// a solver first needs it.
    pub fn new(shape: Shape, rules: &Rules) -> Result<Template, SudokuError> {
        check_regions(&Grid::empty(shape), rules)?;
        Ok(Template {
            shape,
            rules: rules.clone(),
            encoding: OnceLock::new(),
        })
    }

    fn encoding(&self) -> Result<&Encoding, SudokuError> {
        self.encoding
            .get_or_init(|| {
                let problem = encode_with(&Grid::empty(self.shape), &self.rules)?;
                let n = self.shape.size();
                let mut option = vec![OptionId::new(0); n * n * n];
                for (o, p) in problem.labels().iter().enumerate() {
                    let cell = usize::from(p.row) * n + usize::from(p.col);
                    option[cell * n + usize::from(p.value) - 1] = OptionId::new(o);
                }
                Ok(Encoding { problem, option })
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The grid shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The encoding of the empty grid (built on the first call).
    pub fn problem(&self) -> Result<&Problem<Placement>, SudokuError> {
        Ok(&self.encoding()?.problem)
    }

    /// A solver for puzzles of this shape.
    pub fn solver(&self) -> TemplateSolver<'_> {
        TemplateSolver {
            template: self,
            solver: None,
            givens: Vec::new(),
            encoded: 0,
            limits: Limits::default(),
        }
    }
}

/// Solves puzzles on a [`Template`], reusing one search structure.
///
/// Encoding the empty grid and building its search structure costs about
/// as much as doing so for puzzles whose open parts add up to it (about
/// 1,300 instructions an option either way, 9x9). A solver therefore
/// first encodes each puzzle on its own (only its open cells and units);
/// once the options it encoded that way reach a third of the template's,
/// it switches to the template for good, solving each puzzle by committing
/// its givens ([`exactly::Solver::assume`]). A single puzzle never pays for
/// the template, a few easy 16x16 or 25x25 puzzles neither, and a batch
/// pays at most a third more than the template itself: the third, rather
/// than the break-even point, because a second puzzle mostly means many
/// more.
/// PERF: against switching at the break-even point, the first run of
/// top95 took 0.9 million instructions fewer (of 19 million).
pub struct TemplateSolver<'t> {
    template: &'t Template,
    /// On the template's problem, once in use.
    solver: Option<Solver<'t, Placement>>,
    givens: Vec<OptionId>,
    /// Options encoded for puzzles solved on their own.
    encoded: usize,
    /// Each puzzle's budget.
    limits: Limits,
}

/// The engine for sudoku: item masks, taking forced moves first. On the 95
/// hard 9x9 puzzles of `top95` (bench/sudoku, first solution, one thread)
/// 5.5 times as many puzzles a second as the `dlx` crate on each puzzle's
/// own encoding (41,400/s against 7,460/s).
///
/// Item masks copy every item's state at each branch, so their memory is
/// the depth times the items: about 1 GB for the empty 64x64 grid. Past
/// [`MASKS_STATE_BYTES`] a solver uses dancing links instead, whose memory
/// is linear in the problem (under 100 MB for the empty 64x64 grid).
fn sudoku_solver<'p, L>(problem: &'p Problem<L>, limits: &Limits) -> Solver<'p, L> {
    Solver::new(problem)
        .engine(sudoku_engine(problem))
        .forced_first(true)
        .limits(limits.clone())
}

/// The most memory the item masks of one sudoku solver may take for the
/// states they copy at branches ([`masks_state_bytes`]); past it, links.
pub const MASKS_STATE_BYTES: usize = 64 << 20;

/// About how much memory one solver for grids of side `size` takes at
/// most (the empty grid's: its problem, its search structure and, with
/// item masks, the states copied at branches), without diagonals or
/// regions, which add little. A caller running solvers on several threads
/// bounds its memory with it: about 25 MB for 25x25, 50 MB for 64x64.
///
/// ```
/// use exactly_puzzles::sudoku::memory_per_solver;
/// assert!(memory_per_solver(9) < 1 << 20);
/// assert!(memory_per_solver(64) < 100 << 20);
/// ```
pub fn memory_per_solver(size: usize) -> usize {
    let n = size.min(Shape::MAX_SIZE);
    let (cells, items) = (n * n, 4 * n * n + 1);
    // About 48 bytes an entry for the problem and the structure, 4 entries
    // an option, n options a cell.
    let base = 48 * 4 * cells * n;
    let cell = match n {
        0..=16 => 4,
        17..=32 => 8,
        _ => 16,
    };
    let state = (cells + 1) * items * cell;
    if state <= MASKS_STATE_BYTES {
        base + state
    } else {
        base
    }
}

/// Item masks while their state stays under [`MASKS_STATE_BYTES`], else
/// links.
fn sudoku_engine<L>(problem: &Problem<L>) -> Engine {
    if masks_state_bytes(problem) <= MASKS_STATE_BYTES {
        Engine::Masks
    } else {
        Engine::Links
    }
}

/// A bound on the state that item masks copy along a search path: one copy
/// of every item's cell per level, and at most one level per open cell
/// (every sudoku option covers at least 4 primary items).
fn masks_state_bytes<L>(problem: &Problem<L>) -> usize {
    let cell = match problem.widest_item() {
        0..=16 => 4,
        17..=32 => 8,
        _ => 16,
    };
    (problem.num_primary() / 4 + 1)
        .saturating_mul(problem.num_items() + 1)
        .saturating_mul(cell)
}

/// Counts the solutions of `solver` up to `max_solutions` and decodes the
/// first two onto `puzzle`; true when a budget stopped the search first.
fn count_up_to(
    solver: &mut Solver<'_, Placement>,
    puzzle: &Grid,
    max_solutions: u64,
) -> (u64, [Option<Grid>; 2], bool) {
    let problem = solver.problem();
    let mut count = 0u64;
    let mut found = [None, None];
    let outcome = solver.for_each(|s| {
        if let Some(slot) = found.get_mut(count as usize) {
            *slot = Some(decode(puzzle, problem, s));
        }
        count += 1;
        if count >= max_solutions {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    let stopped = match outcome {
        Outcome::Complete | Outcome::Stopped(StopReason::Caller) => false,
        Outcome::Stopped(_) => count < max_solutions,
    };
    (count, found, stopped)
}

impl TemplateSolver<'_> {
    /// A budget for each puzzle: nodes, time (from the start of each
    /// puzzle's search) or a cancel flag. A puzzle whose search runs out of
    /// it gets [`Verdict::Unknown`], with the solutions found by then.
    ///
    /// ```
    /// use exactly::Limits;
    /// use exactly_puzzles::sudoku::{Grid, Rules, Shape, Template, Verdict};
    /// let template = Template::new(Shape::new(3, 3)?, &Rules::default())?;
    /// let mut solver = template.solver().limits(Limits::default().max_nodes(10));
    /// let answer = solver.solve(&Grid::empty(template.shape()), 2)?;
    /// assert_eq!(answer.verdict, Verdict::Unknown);
    /// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
    /// ```
    pub fn limits(mut self, limits: Limits) -> Self {
        self.solver = None;
        self.limits = limits;
        self
    }

    /// [`solve_with`] under the template's rules, for a puzzle of the
    /// template's shape (else [`SudokuError::ShapeMismatch`]).
    pub fn solve(&mut self, puzzle: &Grid, max_solutions: u64) -> Result<Answer, SudokuError> {
        let template = self.template;
        let shape = template.shape;
        if puzzle.shape() != shape {
            return Err(SudokuError::ShapeMismatch {
                size: puzzle.size(),
                box_rows: shape.box_rows(),
                box_cols: shape.box_cols(),
            });
        }
        let started = Instant::now();
        let rules = &template.rules;
        let max_solutions = max_solutions.max(1);
        let found =
            |count, grids, nodes, stopped| answer_of(max_solutions, count, grids, nodes, stopped);
        if !puzzle.cells.contains(&0) {
            if let Some(c) = puzzle.clash_with(rules) {
                return Err(c.error(c.value.to_string()));
            }
            return Ok(found(1, [Some(puzzle.clone()), None], 0, false));
        }
        let n = shape.size();
        // The time budget counts from the start of the call: encoding too.
        let budget = self.limits.time;
        let left = move || match budget {
            Some(time) => time.checked_sub(started.elapsed()).filter(|t| !t.is_zero()),
            None => Some(std::time::Duration::MAX),
        };
        let out_of_time = || Ok(answer_of(max_solutions, 0, [None, None], 0, true));
        let (count, grids, nodes, stopped) =
            if self.solver.is_none() && 3 * self.encoded < n * n * n {
                // On its own; `encode_with` names clashing givens.
                let problem = encode_with(puzzle, rules)?;
                self.encoded += problem.num_options();
                let mut limits = self.limits.clone();
                match left() {
                    None => return out_of_time(),
                    Some(t) if budget.is_some() => limits = limits.max_time(t),
                    Some(_) => {}
                }
                let mut solver = sudoku_solver(&problem, &limits);
                let (count, grids, stopped) = count_up_to(&mut solver, puzzle, max_solutions);
                (count, grids, solver.stats().nodes, stopped)
            } else {
                let encoding = template.encoding()?;
                let limits = &self.limits;
                let mut solver = match self.solver.take() {
                    Some(solver) => solver,
                    None => sudoku_solver(&encoding.problem, limits),
                };
                match left() {
                    None => {
                        self.solver = Some(solver);
                        return out_of_time();
                    }
                    Some(t) if budget.is_some() => {
                        solver = solver.limits(limits.clone().max_time(t));
                    }
                    Some(_) => {}
                }
                let solver = self.solver.insert(solver);
                self.givens.clear();
                for (cell, &v) in puzzle.cells.iter().enumerate() {
                    if v != 0 {
                        self.givens
                            .push(encoding.option[cell * n + usize::from(v) - 1]);
                    }
                }
                solver.reset();
                if solver.assume(&self.givens).is_err() {
                    // Two givens share an item: the clash check names them.
                    // (Should it find none, no solution holds all the givens.)
                    return match puzzle.clash_with(rules) {
                        Some(c) => Err(c.error(c.value.to_string())),
                        None => Ok(found(0, [None, None], 0, false)),
                    };
                }
                let (count, grids, stopped) = count_up_to(solver, puzzle, max_solutions);
                (count, grids, solver.stats().nodes, stopped)
            };
        check_both(puzzle, rules, &grids)?;
        Ok(found(count, grids, nodes, stopped))
    }
}

/// The answer to a search for up to `max_solutions` (at least 1) that
/// found `count` and stopped early (out of budget) or not.
fn answer_of(
    max_solutions: u64,
    count: u64,
    [solution, second]: [Option<Grid>; 2],
    nodes: u64,
    stopped: bool,
) -> Answer {
    let verdict = match count {
        _ if stopped => Verdict::Unknown,
        0 => Verdict::None,
        _ if max_solutions == 1 => Verdict::Solved,
        1 => Verdict::Unique,
        _ => Verdict::Multiple,
    };
    Answer {
        verdict,
        solution,
        second,
        count,
        nodes,
    }
}

/// Both solutions pass the independent check, and differ.
fn check_both(puzzle: &Grid, rules: &Rules, grids: &[Option<Grid>; 2]) -> Result<(), SudokuError> {
    for grid in grids.iter().flatten() {
        if !grid.solves_with(puzzle, rules) {
            return Err(SudokuError::WrongSolution);
        }
    }
    match grids {
        [Some(a), Some(b)] if a == b => Err(SudokuError::WrongSolution),
        _ => Ok(()),
    }
}

/// Subproblems per thread for [`solve_parallel`], so that threads finishing
/// early find more work.
const SUBPROBLEMS_PER_THREAD: usize = 16;

/// [`solve_with`] on `threads` threads, for a hard puzzle on its own: the
/// search tree is cut into subproblems (the options chosen nearest the
/// root) that the threads take in turn, stopping once `max_solutions` are
/// found. `limits` bounds the whole puzzle; its time counts from the call.
/// The answer is the same as [`solve_with`]'s but for the node count and,
/// when the puzzle has more than one solution, which ones are shown (the
/// first found, by whichever thread). With one thread, a node budget or a
/// cancel flag in `limits` (which a split search could not keep exactly),
/// it is [`solve_with`] within the budget.
///
/// ```
/// use exactly::Limits;
/// use exactly_puzzles::sudoku::{self, Grid, Rules, Shape, Verdict};
/// let empty = Grid::empty(Shape::new(2, 2)?);
/// let answer = sudoku::solve_parallel(&empty, 1000, &Rules::default(), &Limits::default(), 3)?;
/// assert_eq!((answer.verdict, answer.count), (Verdict::Multiple, 288));
/// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
/// ```
pub fn solve_parallel(
    puzzle: &Grid,
    max_solutions: u64,
    rules: &Rules,
    limits: &Limits,
    threads: usize,
) -> Result<Answer, SudokuError> {
    let max_solutions = max_solutions.max(1);
    let start = Instant::now();
    if threads <= 1 || limits.nodes.is_some() || limits.cancel.is_some() {
        return solve_within(puzzle, max_solutions, rules, limits);
    }
    if !puzzle.cells.contains(&0) {
        return solve_with(puzzle, max_solutions, rules);
    }
    let problem = encode_with(puzzle, rules)?;
    let (split, above) = exactly::parallel::split_with_solutions(
        &problem,
        sudoku_engine(&problem),
        SUBPROBLEMS_PER_THREAD * threads,
        problem.num_primary(),
    );
    // The solutions found (up to `max_solutions`) and the first two.
    let found: Mutex<(u64, [Option<Grid>; 2])> = Mutex::new((0, [None, None]));
    let stop = Arc::new(AtomicBool::new(false));
    let out_of_time = AtomicBool::new(false);
    let failed = AtomicBool::new(false);
    let nodes = AtomicU64::new(split.nodes);
    let next = AtomicUsize::new(0);
    // Records a solution; true once there are enough.
    let record = |grid: Grid| -> bool {
        let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
        let (count, grids) = &mut *found;
        if *count < max_solutions {
            if let Some(slot) = grids.get_mut(*count as usize) {
                *slot = Some(grid);
            }
            *count += 1;
        }
        *count >= max_solutions
    };
    let enough = above.iter().any(|options| {
        let solution = Solution::new(options.clone());
        record(decode(puzzle, &problem, &solution))
    });
    if !enough {
        std::thread::scope(|scope| {
            for _ in 0..threads.min(split.subproblems.len()) {
                scope.spawn(|| {
                    let mut solver = sudoku_solver(&problem, &Limits::default());
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(prefix) = split.subproblems.get(i) else {
                            break;
                        };
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let mut budget = Limits::default().cancel_flag(Arc::clone(&stop));
                        if let Some(time) = limits.time {
                            match time.checked_sub(start.elapsed()) {
                                Some(left) => budget = budget.max_time(left),
                                None => {
                                    out_of_time.store(true, Ordering::Relaxed);
                                    stop.store(true, Ordering::Relaxed);
                                    break;
                                }
                            }
                        }
                        solver = solver.limits(budget);
                        solver.reset();
                        if solver.restrict(prefix).is_err() {
                            // Prefixes from this problem's own split replay.
                            failed.store(true, Ordering::Relaxed);
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                        let outcome = solver.for_each(|s| {
                            if record(decode(puzzle, &problem, s)) {
                                stop.store(true, Ordering::Relaxed);
                                ControlFlow::Break(())
                            } else {
                                ControlFlow::Continue(())
                            }
                        });
                        nodes.fetch_add(solver.stats().nodes, Ordering::Relaxed);
                        if outcome == Outcome::Stopped(StopReason::TimeLimit) {
                            out_of_time.store(true, Ordering::Relaxed);
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
    }
    let (count, grids) = found.into_inner().unwrap_or_else(|e| e.into_inner());
    let stopped = out_of_time.into_inner() && count < max_solutions;
    if failed.into_inner() {
        return Err(SudokuError::SplitFailed);
    }
    check_both(puzzle, rules, &grids)?;
    Ok(answer_of(
        max_solutions,
        count,
        grids,
        nodes.into_inner(),
        stopped,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        for (n, r, c) in [
            (1, 1, 1),
            (4, 2, 2),
            (9, 3, 3),
            (16, 4, 4),
            (25, 5, 5),
            (64, 8, 8),
        ] {
            let s = Shape::infer(n).unwrap();
            assert_eq!((s.box_rows(), s.box_cols()), (r, c), "{n}");
        }
        for n in [0, 2, 3, 5, 7, 10, 65] {
            assert!(Shape::infer(n).is_none(), "{n}");
        }
        assert!(Shape::new(8, 8).is_ok());
        assert!(Shape::new(5, 13).is_err());
    }

    #[test]
    fn givens_remove_items_and_options() {
        let shape = Shape::new(2, 2).unwrap();
        let mut grid = Grid::empty(shape);
        grid.set(0, 0, 1);
        let p = encode(&grid).unwrap();
        // 15 cells, 3 units of 4 values less one each for r1, c1, b1.
        assert_eq!(p.num_primary(), 15 + 3 * 16 - 3);
        // Value 1 is excluded from the 7 cells that see r1c1.
        assert_eq!(p.num_options(), 15 * 4 - 7);
        assert!(p.item_by_name("r1c1").is_none());
        assert!(p.item_by_name("b1=1").is_none());
        assert!(p.item_by_name("b2=1").is_some());
    }

    #[test]
    fn clashes_name_both_cells() {
        let shape = Shape::new(3, 3).unwrap();
        let mut grid = Grid::empty(shape);
        grid.set(4, 2, 7);
        grid.set(4, 8, 7);
        let e = solve(&grid, 2).unwrap_err();
        assert_eq!(e.to_string(), "givens clash: r5c3 and r5c9 both hold 7");
    }

    #[test]
    fn a_template_solver_rejects_bad_puzzles_and_goes_on() {
        let template = Template::new(Shape::new(2, 2).unwrap(), &Rules::default()).unwrap();
        let mut solver = template.solver();
        let e = solver
            .solve(&Grid::empty(Shape::new(2, 3).unwrap()), 2)
            .unwrap_err();
        assert_eq!(e.to_string(), "a 6x6 grid does not fit boxes of 2x2");
        let mut clash = Grid::empty(template.shape());
        clash.set(0, 0, 3);
        clash.set(3, 0, 3);
        let e = solver.solve(&clash, 2).unwrap_err();
        assert_eq!(e.to_string(), "givens clash: r1c1 and r4c1 both hold 3");
        let answer = solver.solve(&Grid::empty(template.shape()), 1000).unwrap();
        assert_eq!((answer.verdict, answer.count), (Verdict::Multiple, 288));
    }

    #[test]
    fn solution_check_catches_every_unit() {
        let shape = Shape::new(1, 2).unwrap();
        let puzzle = Grid::empty(shape);
        assert!(!Grid::from_cells(shape, vec![1, 1, 2, 2])
            .unwrap()
            .solves(&puzzle));
        assert!(!Grid::from_cells(shape, vec![1, 2, 1, 2])
            .unwrap()
            .solves(&puzzle));
        assert!(!Grid::from_cells(shape, vec![1, 2, 0, 1])
            .unwrap()
            .solves(&puzzle));
        // 2x2 boxes: rows and columns fine, boxes not.
        let shape = Shape::new(2, 2).unwrap();
        let latin =
            Grid::from_cells(shape, vec![1, 2, 3, 4, 2, 3, 4, 1, 3, 4, 1, 2, 4, 1, 2, 3]).unwrap();
        assert!(!latin.solves(&Grid::empty(shape)));
    }
}

/// Cell weights for the *target sudoku* (NOIP 2009): a solution scores the
/// sum over all cells of value × weight.
///
/// ```
/// use exactly_puzzles::sudoku::Weights;
/// let w = Weights::rings(9);
/// assert_eq!((w.get(0, 0), w.get(1, 3), w.get(4, 4)), (6, 7, 10));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    size: usize,
    of: Vec<u64>,
}

impl Weights {
    /// The target's weights: 6 on the outer ring, one more on each ring
    /// inwards (10 at the centre of a 9x9 grid).
    pub fn rings(size: usize) -> Weights {
        let mut of = Vec::with_capacity(size * size);
        for r in 0..size {
            for c in 0..size {
                let ring = r.min(c).min(size - 1 - r).min(size - 1 - c);
                of.push(6 + ring as u64);
            }
        }
        Weights { size, of }
    }

    /// Reads `size` lines of `size` non-negative integers, each below
    /// 2^64 (blank lines and lines starting with `#` are skipped). Errors
    /// carry the 1-based line and column.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::Weights;
    /// let w = Weights::parse("1 2\n3 4\n")?;
    /// assert_eq!((w.size(), w.get(1, 0)), (2, 3));
    /// let e = Weights::parse("1 2\n3\n").unwrap_err();
    /// assert_eq!(e.to_string(), "line 2, column 2: weights: 1 number on this row, expected 2");
    /// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
    /// ```
    pub fn parse(text: &str) -> Result<Weights, SudokuError> {
        let bad = |line: usize, column: usize, message: String| SudokuError::Parse {
            line,
            column: Some(column),
            message,
        };
        // Each row: its line, the column after its last number, its numbers.
        let mut rows: Vec<(usize, usize, Vec<u64>)> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            if rows.len() == Shape::MAX_SIZE {
                return Err(bad(
                    i + 1,
                    1,
                    format!(
                        "weights: more than {} rows; a grid side is at most {}",
                        Shape::MAX_SIZE,
                        Shape::MAX_SIZE
                    ),
                ));
            }
            let mut row = Vec::new();
            let mut end = 1;
            let mut word: Option<(usize, usize)> = None;
            for (chars, (at, c)) in line
                .char_indices()
                .chain(std::iter::once((line.len(), ' ')))
                .enumerate()
            {
                if !c.is_whitespace() {
                    word.get_or_insert((at, chars));
                } else if let Some((start, column)) = word.take() {
                    let token = &line[start..at];
                    if row.len() == Shape::MAX_SIZE {
                        return Err(bad(
                            i + 1,
                            column + 1,
                            format!("weights: more than {} numbers on a row", Shape::MAX_SIZE),
                        ));
                    }
                    let value = token.parse::<u64>().map_err(|_| {
                        let shown = token.escape_debug().to_string();
                        let what = if token.bytes().all(|b| b.is_ascii_digit()) {
                            format!("weight {shown} is above the largest, {}", u64::MAX)
                        } else {
                            format!("expected a non-negative integer weight, found '{shown}'")
                        };
                        bad(i + 1, column + 1, what)
                    })?;
                    row.push(value);
                    end = chars + 1;
                }
            }
            rows.push((i + 1, end, row));
        }
        let size = rows.len();
        if size == 0 {
            return Err(bad(
                text.lines().count().max(1),
                1,
                "weights: no rows; expected n lines of n numbers".to_string(),
            ));
        }
        if let Some((line, end, row)) = rows.iter().find(|(_, _, r)| r.len() != size) {
            let plural = if row.len() == 1 { "" } else { "s" };
            return Err(bad(
                *line,
                *end,
                format!(
                    "weights: {} number{plural} on this row, expected {size}",
                    row.len()
                ),
            ));
        }
        Ok(Weights {
            size,
            of: rows.into_iter().flat_map(|(_, _, r)| r).collect(),
        })
    }

    /// The grid side.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The weight of a cell.
    pub fn get(&self, row: usize, col: usize) -> u64 {
        self.of[row * self.size + col]
    }
}

/// How [`best_score`] searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Branch-and-bound on option costs `weight × (n − value)` (minimising
    /// them maximises the score), with the cost solver's admissible bound.
    BranchAndBound,
    /// Every solution, keeping the best score.
    Enumerate,
}

/// The largest score over all solutions of `puzzle` (givens included) and a
/// solution reaching it, or `None` when the puzzle has no solution.
///
/// ```
/// use exactly_puzzles::sudoku::{self, Grid, Method, Rules, Shape, Weights};
/// let empty = Grid::empty(Shape::new(2, 2)?);
/// let w = Weights::rings(4);
/// let (score, grid) = sudoku::best_score(&empty, &Rules::default(), &w, Method::BranchAndBound)?.unwrap();
/// let by_enumeration = sudoku::best_score(&empty, &Rules::default(), &w, Method::Enumerate)?.unwrap().0;
/// assert_eq!(score, by_enumeration);
/// assert!(grid.solves(&empty));
/// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
/// ```
pub fn best_score(
    puzzle: &Grid,
    rules: &Rules,
    weights: &Weights,
    method: Method,
) -> Result<Option<(u128, Grid)>, SudokuError> {
    let n = puzzle.size();
    if weights.size() != n {
        return Err(SudokuError::BadGrid(format!(
            "weights for a {}x{} grid, but the puzzle is {n}x{n}",
            weights.size(),
            weights.size()
        )));
    }
    // At most 64 × (2^64 − 1) a cell and 4,096 cells: a u128 holds it.
    let score = |grid: &Grid| -> u128 {
        (0..n)
            .flat_map(|r| (0..n).map(move |c| (r, c)))
            .map(|(r, c)| u128::from(grid.get(r, c)) * u128::from(weights.get(r, c)))
            .sum()
    };
    if !puzzle.cells.contains(&0) {
        if let Some(c) = puzzle.clash_with(rules) {
            return Err(c.error(c.value.to_string()));
        }
        return Ok(Some((score(puzzle), puzzle.clone())));
    }
    let problem = encode_with(puzzle, rules)?;
    let best = match method {
        Method::BranchAndBound => {
            // The costs of a solution must add up within a u64.
            let most: u128 = (0..n)
                .flat_map(|r| (0..n).map(move |c| (r, c)))
                .map(|(r, c)| u128::from(weights.get(r, c)) * (n as u128 - 1))
                .sum();
            if most > u128::from(u64::MAX) {
                return Err(SudokuError::BadGrid(format!(
                    "weights too large for branch-and-bound: the costs could add up to {most}, \
                     above {}; enumerate instead",
                    u64::MAX
                )));
            }
            let costed = problem.with_costs(|_, p| {
                weights.get(p.row.into(), p.col.into()) * (n as u64 - u64::from(p.value))
            });
            let (found, _) = exactly::multi::CostSolver::new(&costed).min_cost();
            found.map(|c| decode(puzzle, &costed, &c.solution))
        }
        Method::Enumerate => {
            let mut best: Option<(u128, Grid)> = None;
            Solver::new(&problem).forced_first(true).for_each(|s| {
                let grid = decode(puzzle, &problem, s);
                let value = score(&grid);
                match &best {
                    Some((b, _)) if *b >= value => {}
                    _ => best = Some((value, grid)),
                }
                ControlFlow::Continue(())
            });
            best.map(|(_, g)| g)
        }
    };
    match best {
        None => Ok(None),
        Some(grid) if grid.solves_with(puzzle, rules) => Ok(Some((score(&grid), grid))),
        Some(_) => Err(SudokuError::WrongSolution),
    }
}
