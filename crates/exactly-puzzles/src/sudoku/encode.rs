//! The encoding: a puzzle as a [`Problem`] of [`Placement`]s, and a
//! solution decoded back onto the grid.

use std::sync::atomic::Ordering;

use exactly::time::Instant;
use exactly::{ColorId, ItemId, Limits, Problem, ProblemBuilder, Solution};

use super::generate::Rng;
use super::grid::{check_regions, units_of, UNITS_PER_SIDE};
use super::{Grid, Rules, SudokuError};

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
pub(super) fn cell_name(row: usize, col: usize) -> String {
    format!("r{}c{}", row + 1, col + 1)
}

/// Encodes the open part of a grid as an exact-cover problem (see the
/// module docs for the items and options).
///
/// Fails with [`SudokuError::Clash`] when two givens clash (the symbol
/// written as a number), and with [`BuildError::NoItems`](exactly::BuildError::NoItems) (as
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
    match encode_within(puzzle, rules, &|| false)? {
        Some(problem) => Ok(problem),
        // Never asked to stop.
        None => Err(SudokuError::Build(exactly::BuildError::NoItems)),
    }
}

/// The `stop` of [`encode_within`] under `limits`: the time budget,
/// counted from `start` (which a time budget needs), spent, or the cancel
/// flag raised.
pub(super) fn encoding_stop(limits: &Limits, start: Option<Instant>) -> impl Fn() -> bool + '_ {
    let time = limits.time.zip(start);
    move || {
        time.is_some_and(|(t, start)| start.elapsed() >= t)
            || limits
                .cancel
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
    }
}

/// [`encode_with`], asking `stop` before each row of cells is encoded (and
/// before the problem is built): `None` once it says to stop, so that
/// encoding a large grid keeps to a search's budget. Each row counts as n²
/// [`exactly::work`] steps (its cells times the values).
pub(super) fn encode_within(
    puzzle: &Grid,
    rules: &Rules,
    stop: &dyn Fn() -> bool,
) -> Result<Option<Problem<Placement>>, SudokuError> {
    if stop() {
        return Ok(None);
    }
    matrix_within(puzzle, rules, Cells::Open, Order::RowMajor, stop)
}

/// Which cells and units a matrix built by [`matrix`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cells {
    /// The open part only: an item per empty cell and per value a unit
    /// still lacks, and options for the empty cells ([`encode_with`]).
    Open,
    /// Every cell and every unit's every value, and for a given the one
    /// option placing it ([`super::knuth::encode_full`]).
    All,
}

/// The order of a matrix's options.
pub(super) enum Order<'a> {
    /// By cell in row-major order, then by value.
    RowMajor,
    /// The row-major list shuffled by the generator's random numbers
    /// (the empty grid's matrix of [`super::generate`]).
    Shuffled(&'a mut Rng),
}

/// The exact-cover matrix of `puzzle` under `rules`: items `r{i}c{j}`,
/// then `r{i}={v}`, `c{j}={v}`, `b{k}={v}` (and `d1={v}`, `d2={v}`) in
/// unit order, for the `cells` asked for; an option per cell and value
/// that no given of the cell's units excludes (a given's own value for a
/// given), holding the cell's item and its units' items for the value.
///
/// Fails when the regions are for another side, when two givens clash,
/// and when the matrix has no items.
pub(super) fn matrix(
    puzzle: &Grid,
    rules: &Rules,
    cells: Cells,
    order: Order<'_>,
) -> Result<Problem<Placement>, SudokuError> {
    match matrix_within(puzzle, rules, cells, order, &|| false)? {
        Some(problem) => Ok(problem),
        // Never asked to stop.
        None => Err(SudokuError::Build(exactly::BuildError::NoItems)),
    }
}

/// [`matrix`], asking `stop` before each row of cells of a row-major
/// matrix and before the problem is built: `None` once it says to stop.
fn matrix_within(
    puzzle: &Grid,
    rules: &Rules,
    cells: Cells,
    order: Order<'_>,
    stop: &dyn Fn() -> bool,
) -> Result<Option<Problem<Placement>>, SudokuError> {
    check_regions(puzzle, rules)?;
    let shape = puzzle.shape;
    let n = shape.size();
    let all = cells == Cells::All;
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
    // At most: an item per cell and per value of each unit, and an option
    // per cell and value, as far as `cells` takes them in.
    let entries_per_option = 1 + units_of(shape, rules, 0, 0).iter().flatten().count();
    let (held, unit_values) = if all {
        (n * n, units * n)
    } else {
        let open = puzzle.cells.iter().filter(|&&v| v == 0).count();
        let missing: usize = used.iter().map(|m| n - m.count_ones() as usize).sum();
        (open, missing)
    };
    b.reserve(held + unit_values, held * n, held * n * entries_per_option);
    let mut name = String::with_capacity(12);
    let mut cell_item = vec![None; n * n];
    for (i, slot) in cell_item.iter_mut().enumerate() {
        if all || puzzle.cells[i] == 0 {
            name.clear();
            name.push('r');
            push_number(&mut name, i / n + 1);
            name.push('c');
            push_number(&mut name, i % n + 1);
            *slot = Some(b.primary(&name)?);
        }
    }
    // unit_item[u * n + v - 1]: the item of unit u (rows, columns, boxes,
    // diagonals) and value v, when the matrix has it.
    let mut unit_item: Vec<Option<ItemId>> = vec![None; units * n];
    for (u, &mask) in used.iter().enumerate() {
        let (prefix, k) = match u / n {
            0 => ("r", u + 1),
            1 => ("c", u - n + 1),
            2 => ("b", u - 2 * n + 1),
            _ => ("d", u - 3 * n + 1),
        };
        for v in 1..=n {
            if all || mask & (1u64 << (v - 1)) == 0 {
                name.clear();
                name.push_str(prefix);
                push_number(&mut name, k);
                name.push('=');
                push_number(&mut name, v);
                unit_item[u * n + v - 1] = Some(b.primary(&name)?);
            }
        }
    }
    // The units of cell `i`, and the values it may take (a bit mask).
    let cell_units = |i: usize| {
        let mut units = [0usize; 5];
        let mut k = 0;
        for u in units_of(shape, rules, i / n, i % n).into_iter().flatten() {
            units[k] = u;
            k += 1;
        }
        let values = match puzzle.cells[i] {
            0 => !units[..k].iter().fold(0, |m, &u| m | used[u]),
            given => 1u64 << (given - 1),
        };
        (units, k, values)
    };
    // PERF: entries gathered in an array, not a chain of flattened
    // iterators, made building the 9x9 template a third faster.
    let add = |b: &mut ProblemBuilder<Placement>,
               (i, cell): (usize, ItemId),
               units: &[usize],
               v: usize| {
        let mut entries = [(cell, ColorId::NONE); 6];
        let mut len = 1;
        for &u in units {
            if let Some(item) = unit_item[u * n + v - 1] {
                entries[len].0 = item;
                len += 1;
            }
        }
        b.add_option(
            Placement {
                row: (i / n) as u8,
                col: (i % n) as u8,
                value: v as u8,
            },
            entries[..len].iter().copied(),
        )
    };
    let taken = cell_item
        .iter()
        .enumerate()
        .filter_map(|(i, cell)| cell.map(|cell| (i, cell)));
    match order {
        Order::RowMajor => {
            let mut row = usize::MAX;
            for (i, cell) in taken {
                if i / n != row {
                    // Rows without a cell of the matrix cost no more than
                    // their check.
                    let skipped = if row == usize::MAX {
                        i / n
                    } else {
                        i / n - row - 1
                    };
                    row = i / n;
                    if stop() {
                        return Ok(None);
                    }
                    exactly::work::add(((skipped + 1) * n * n) as u64);
                }
                let (units, k, values) = cell_units(i);
                for v in (1..=n).filter(|v| values & (1u64 << (v - 1)) != 0) {
                    add(&mut b, (i, cell), &units[..k], v)?;
                }
            }
        }
        Order::Shuffled(rng) => {
            let mut pairs = Vec::new();
            for (i, cell) in taken {
                let (_, _, values) = cell_units(i);
                let allowed = (1..=n).filter(|v| values & (1u64 << (v - 1)) != 0);
                pairs.extend(allowed.map(|v| (i, cell, v)));
            }
            rng.shuffle(&mut pairs);
            for (i, cell, v) in pairs {
                let (units, k, _) = cell_units(i);
                add(&mut b, (i, cell), &units[..k], v)?;
            }
        }
    }
    if stop() {
        return Ok(None);
    }
    Ok(Some(b.build()?))
}

/// Appends `k` in decimal.
/// PERF: faster than `write!` (DESIGN.md, "Measurements", code-level
/// choices).
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
