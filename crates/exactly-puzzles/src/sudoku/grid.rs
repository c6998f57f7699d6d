//! The grid model: box shapes, grids of values, the rules (diagonals,
//! jigsaw regions) and the clash check on givens.

use std::fmt;

use exactly::format::ParseError;

use super::encode::cell_name;
use super::SudokuError;

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

    /// `col / box_cols` for each column: the box of a column within its
    /// band, worked out without a division per column.
    pub(super) fn box_of_col(self) -> [u8; Shape::MAX_SIZE] {
        let mut of = [0u8; Shape::MAX_SIZE];
        let (mut b, mut k) = (0u8, 0);
        for slot in of.iter_mut().take(self.size()) {
            *slot = b;
            k += 1;
            if k == self.box_cols {
                (b, k) = (b + 1, 0);
            }
        }
        of
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
    pub(super) shape: Shape,
    pub(super) cells: Vec<u8>,
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
        if !self.may_clash(rules) {
            return None;
        }
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

    /// Whether two givens may clash: false when each unit holds each value
    /// at most once, found with one mask of values per unit (no cells
    /// noted, nothing allocated), which is all a valid puzzle needs.
    /// PERF: [`Grid::clash_with`] notes the cell of every given in a table
    /// it allocates; this check first halves the instructions (DESIGN.md,
    /// "Measurements", code-level choices).
    fn may_clash(&self, rules: &Rules) -> bool {
        let n = self.size();
        if n > Shape::MAX_SIZE || self.cells.len() != n * n {
            return true;
        }
        if classic(self.shape, rules) {
            // PERF: the usual grid without a branch per cell: each unit's
            // values in a mask, and a clash when a kind of unit holds fewer
            // values than there are givens (a given is in one unit of each
            // kind). The check given by given, branching on each cell,
            // took 1,571 instructions a serg_benchmark puzzle; this one
            // took 1,140 with a bit count per unit and two tests per cell,
            // and 808 with tables and the givens counted eight bytes at a
            // time (DESIGN.md, "Measurements", code-level choices).
            let Ok(cells) = <&[u8; 81]>::try_from(self.cells.as_slice()) else {
                return true;
            };
            let (mut cols, mut in_units, mut any) = ([0u16; 9], 0u32, 0u16);
            for band in 0..3 {
                let mut boxes = [0u16; 3];
                for r in 3 * band..3 * band + 3 {
                    let row = unit_masks(cells, r, &mut cols, &mut boxes);
                    in_units += values_in(row);
                    any |= row;
                }
                in_units += boxes.iter().map(|&b| values_in(b)).sum::<u32>() << 10;
            }
            in_units += cols.iter().map(|&c| values_in(c)).sum::<u32>() << 20;
            let givens = count_nonzero(cells);
            return any & PAST_NINE != 0 || in_units != givens * (1 | 1 << 10 | 1 << 20);
        }
        // Walked row by row, with each column's box worked out once, so
        // that no cell costs a division; regions (of the grid's side) take
        // the place of boxes, as in [`units_of`].
        let regions = rules.regions.as_ref().filter(|g| g.size == n);
        let box_of_col = self.shape.box_of_col();
        let across = n / self.shape.box_cols;
        // Per column, per box or region, and per diagonal: the values held.
        let mut cols = [0u64; Shape::MAX_SIZE];
        let mut areas = [0u64; Shape::MAX_SIZE];
        let (mut down, mut up) = (0u64, 0u64);
        for (r, line) in self.cells.chunks_exact(n).enumerate() {
            let band = (r / self.shape.box_rows) * across;
            let mut row = 0u64;
            for (c, &v) in line.iter().enumerate() {
                if v == 0 {
                    continue;
                }
                if usize::from(v) > n {
                    return true;
                }
                let bit = 1u64 << (v - 1);
                let a = match regions {
                    Some(g) => g.region(r, c),
                    None => band + usize::from(box_of_col[c]),
                };
                let Some(area) = areas.get_mut(a) else {
                    return true;
                };
                if (row | cols[c] | *area) & bit != 0 {
                    return true;
                }
                row |= bit;
                cols[c] |= bit;
                *area |= bit;
                if rules.diagonals {
                    for (on, held) in [(r == c, &mut down), (r + c == n - 1, &mut up)] {
                        if on {
                            if *held & bit != 0 {
                                return true;
                            }
                            *held |= bit;
                        }
                    }
                }
            }
        }
        false
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

    /// [`Grid::solves_with`] on the 9×9 grid with 3×3 boxes under the
    /// plain rules, `puzzle` of the same shape.
    /// PERF: one pass over both grids, band by band.
    fn solves_classic(&self, puzzle: &Grid) -> bool {
        let (Ok(cells), Ok(givens)) = (
            <&[u8; 81]>::try_from(self.cells.as_slice()),
            <&[u8; 81]>::try_from(puzzle.cells.as_slice()),
        ) else {
            return false;
        };
        // PERF: a table gives each value's bit, and a byte out of 1–9 leaves
        // its row short of nine values; the givens are compared eight
        // bytes at a time: 734 instructions a serg_benchmark solution,
        // against 972 with three tests per cell.
        let mut wrong = false;
        let mut cols = [0u16; 9];
        for band in 0..3 {
            let mut boxes = [0u16; 3];
            for r in 3 * band..3 * band + 3 {
                // A byte past 9 sets `PAST_NINE`, an empty cell no bit.
                let row = unit_masks(cells, r, &mut cols, &mut boxes);
                wrong |= row != 0o777;
            }
            wrong |= boxes != [0o777; 3];
        }
        !wrong && cols == [0o777; 9] && keeps_givens(cells, givens)
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
        if classic(self.shape, rules) && puzzle.cells.len() == 81 {
            return self.solves_classic(puzzle);
        }
        // Every cell holds a value of 1 to n, and each given is kept.
        let wrong = puzzle
            .cells
            .iter()
            .zip(&self.cells)
            .fold(false, |wrong, (&g, &v)| {
                wrong | (v == 0) | (usize::from(v) > n) | ((g != 0) & (g != v))
            });
        if wrong {
            return false;
        }
        // n is at most `Shape::MAX_SIZE` (64): one bit per value.
        let full = u64::MAX >> (64 - n);
        let (br, bc) = (self.shape.box_rows, self.shape.box_cols);
        let box_of_col = self.shape.box_of_col();
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
                boxes[band + usize::from(box_of_col[c])] |= bit;
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
pub(super) const UNITS_PER_SIDE: usize = 3;

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
        let bad = |line: usize, message: String| {
            SudokuError::Parse(ParseError::invalid(line, 0, message))
        };
        let mut labels: Vec<String> = Vec::new();
        let mut of = Vec::new();
        let (mut rows, mut width, mut last) = (0, 0, 1);
        for (k, line) in exactly::format::lines(text).enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let cells: Vec<&str> = if t.contains(char::is_whitespace) {
                exactly::format::tokens(t).map(|(_, word)| word).collect()
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
pub(super) fn units_of(shape: Shape, rules: &Rules, r: usize, c: usize) -> [Option<usize>; 5] {
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

/// Whether `shape` and `rules` are the classic sudoku's: the 9×9 grid
/// with 3×3 boxes under the plain rules.
pub(super) fn classic(shape: Shape, rules: &Rules) -> bool {
    classic_shape(shape) && *rules == Rules::default()
}

/// Whether `shape` is the classic sudoku's: the 9×9 grid with 3×3 boxes.
pub(super) fn classic_shape(shape: Shape) -> bool {
    shape.size() == 9 && shape.box_rows() == 3
}

/// `VALUE_BIT[v]`: the bit of value `v` (1–9) in a unit's mask of values,
/// none for an open cell (0), and [`PAST_NINE`] for a byte past 9.
const VALUE_BIT: [u16; 256] = {
    let mut t = [PAST_NINE; 256];
    t[0] = 0;
    let mut v = 1;
    while v <= 9 {
        t[v] = 1 << (v - 1);
        v += 1;
    }
    t
};

/// See [`VALUE_BIT`].
const PAST_NINE: u16 = 1 << 15;

/// The values in a unit's mask (bits 0–8; [`PAST_NINE`] is left out).
fn values_in(mask: u16) -> u32 {
    super::bands::pop9(u32::from(mask & 0o777))
}

/// Row `r`'s values of the 9×9 grid `cells` as a mask ([`VALUE_BIT`],
/// with [`PAST_NINE`] when a byte is past 9), added to those of its
/// columns `cols` and its band's boxes `boxes`.
#[inline(always)]
fn unit_masks(cells: &[u8; 81], r: usize, cols: &mut [u16; 9], boxes: &mut [u16; 3]) -> u16 {
    let line: &[u8; 9] = cells[9 * r..9 * r + 9].try_into().expect("nine cells");
    let mut row = 0u16;
    for c in 0..9 {
        let bit = VALUE_BIT[usize::from(line[c])];
        row |= bit;
        cols[c] |= bit;
        boxes[c / 3] |= bit;
    }
    row
}

/// Cells `8k` to `8k + 7` of the 9×9 grid `cells`, one byte each (the
/// last word has one cell).
fn word(cells: &[u8; 81], k: usize) -> u64 {
    match cells.get(8 * k..8 * k + 8) {
        Some(eight) => u64::from_le_bytes(eight.try_into().expect("eight cells")),
        None => u64::from(cells[80]),
    }
}

/// The high bit of each byte of `x` that is not 0.
fn nonzero_bytes(x: u64) -> u64 {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    ((x & LOW).wrapping_add(LOW) | x) & !LOW
}

/// The cells of the 9×9 grid `cells` that are not 0, eight at a time.
fn count_nonzero(cells: &[u8; 81]) -> u32 {
    // The high bits, one a byte, summed by a multiplication into the top
    // byte: at most 8 a word, and 81 in all.
    let ones: u64 = (0..11).map(|k| nonzero_bytes(word(cells, k)) >> 7).sum();
    (ones.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

/// Whether each given of `givens` (0 for none) is kept in `cells`,
/// eight cells at a time.
fn keeps_givens(cells: &[u8; 81], givens: &[u8; 81]) -> bool {
    let lost = (0..11).fold(0, |lost, k| {
        let (c, g) = (word(cells, k), word(givens, k));
        lost | nonzero_bytes(g) & nonzero_bytes(g ^ c)
    });
    lost == 0
}

/// For each cell of the 9×9 grid with 3×3 boxes, its row, column and box
/// as units 0–8, 9–17 and 18–26.
pub(super) const UNITS_9: [[u8; 3]; 81] = {
    let mut t = [[0; 3]; 81];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        t[i] = [r as u8, 9 + c as u8, 18 + (r / 3 * 3 + c / 3) as u8];
        i += 1;
    }
    t
};

/// Fails when the rules' regions are for another grid side.
pub(super) fn check_regions(puzzle: &Grid, rules: &Rules) -> Result<(), SudokuError> {
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
    pub(super) fn error(self, symbol: String) -> SudokuError {
        SudokuError::Clash {
            first: cell_name(self.first.0, self.first.1),
            second: cell_name(self.second.0, self.second.1),
            symbol,
        }
    }
}
