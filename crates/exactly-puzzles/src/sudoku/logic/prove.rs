//! Proofs for the generator: whether a puzzle has a solution other than a
//! known one, on grids as large as 25x25.
//!
//! # Why not the exact-cover search
//!
//! The generator's checks ask, for a clue `c` of a puzzle with one
//! solution, whether the puzzle without `c` has a solution with another
//! value in `c`. Near the end of a 25x25 puzzle these are hard
//! Latin-square completions: the exact-cover search (which finds the naked
//! and hidden singles, an item with one option) and a backtracking search
//! that adds locked candidates both ran past 200,000 nodes on most of
//! them, where a search that learns from its conflicts needs a few
//! thousand conflicts (figures in DESIGN.md, "Measurements").
//!
//! # Method
//!
//! [`Prover::first`] runs conflict-driven clause learning on the cells'
//! candidates (`prove/cdcl.rs`). [`Prover::forces`] is the fast path:
//! *propagation* repeats three rules until none applies, and tells
//! whether they fill the grid with no choice made:
//!
//! - a cell with one candidate gets it (naked single);
//! - a value with one place left in a unit goes there (hidden single);
//! - a value whose places in a box (or region) all lie on one line (row,
//!   column or diagonal) leaves the rest of that line, and a value whose
//!   places on a line all lie in one box leaves the rest of that box
//!   (locked candidates: pointing and claiming).
//!
//! A cell with no candidate, or a unit with no place for a value it lacks,
//! is a contradiction. Every rule is sound, so a grid filled by them is
//! the one solution, and a search that ends without a solution proves
//! there is none.

use super::{all_values, Grid, Rules, Shape, SudokuError, Topology};

mod cdcl;

/// Lists of cells laid end to end, and where each starts (one more entry
/// at the end): list `i` is `flat[start[i]..start[i + 1]]`.
fn flatten(lists: &[Vec<usize>]) -> (Vec<u32>, Vec<u32>) {
    let mut flat = Vec::new();
    let mut start = vec![0];
    for list in lists {
        flat.extend(list.iter().map(|&c| c as u32));
        start.push(flat.len() as u32);
    }
    (flat, start)
}

/// The units and crossings of one grid shape and rules.
///
/// ```
/// use exactly_puzzles::sudoku::{self, logic::{Found, Prover}, Rules, Shape};
/// let prover = Prover::new(Shape::new(2, 2)?, &Rules::default())?;
/// let records = sudoku::parse("1...............", None);
/// let puzzle = &records[0].puzzle.as_ref().unwrap().grid;
/// let Found::Solution(grid) = prover.first(puzzle, None, None, u64::MAX, &|| false) else { panic!() };
/// assert!(grid.solves(puzzle));
/// // The top-left cell of a full grid, emptied: no other value fits.
/// let mut emptied = grid.clone();
/// emptied.set(0, 0, 0);
/// assert!(matches!(prover.first(&emptied, Some((0, grid.get(0, 0))), Some(&grid), 100, &|| false), Found::NoSolution(_)));
/// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
/// ```
#[derive(Debug)]
pub struct Prover {
    shape: Shape,
    full: u64,
    /// The cells of every unit, unit after unit: unit `u` is
    /// `unit_cells[unit_start[u]..unit_start[u + 1]]`.
    unit_cells: Vec<u32>,
    unit_start: Vec<u32>,
    /// A box and a line sharing two or more cells.
    crossings: Vec<Crossing>,
    /// The same rules as clauses, and the cells each cell sees.
    sat: cdcl::Rules,
}

/// A box and a line that share cells: the shared cells, the rest of the
/// box and the rest of the line.
#[derive(Debug)]
struct Crossing {
    shared: Vec<u32>,
    box_rest: Vec<u32>,
    line_rest: Vec<u32>,
}

/// What [`Prover::first`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// A solution.
    Solution(Grid),
    /// No solution: the search was complete (the conflicts it took).
    NoSolution(u64),
    /// The node budget or the deadline ran out first.
    OutOfBudget,
}

/// Placed values and candidates.
#[derive(Clone, Debug)]
struct Position {
    values: Vec<u8>,
    cand: Vec<u64>,
}

impl Prover {
    /// The prover of `shape` grids under `rules`.
    pub fn new(shape: Shape, rules: &Rules) -> Result<Prover, SudokuError> {
        let topo = Topology::new(shape, rules)?;
        let n = topo.n;
        let (unit_cells, unit_start) = flatten(&topo.units);
        let crossings = topo
            .crossings
            .iter()
            .map(|&(b, l)| {
                let (bx, line) = (&topo.units[b], &topo.units[l]);
                let pick = |from: &[usize], keep: &dyn Fn(&usize) -> bool| {
                    from.iter().filter(|c| keep(c)).map(|&c| c as u32).collect()
                };
                Crossing {
                    shared: pick(bx, &|c| line.contains(c)),
                    box_rest: pick(bx, &|c| !line.contains(c)),
                    line_rest: pick(line, &|c| !bx.contains(c)),
                }
            })
            .collect();
        Ok(Prover {
            sat: cdcl::Rules::new(shape, &topo.units, &topo.peers),
            shape,
            full: all_values(n),
            unit_cells,
            unit_start,
            crossings,
        })
    }

    /// The first solution of `puzzle` (a grid of this prover's shape) in
    /// which cell `forbid.0` (row-major) does not hold value `forbid.1`,
    /// within `max_conflicts` conflicts of the search (see the module
    /// docs), asking `stop` every few dozen conflicts whether to give up
    /// (a deadline passed, a cancel flag). With `near`, a full grid (the
    /// known solution), the search tries each value first as it is
    /// there, so a solution close to it is found soon.
    ///
    /// Givens that clash give [`Found::NoSolution`].
    ///
    /// # Panics
    ///
    /// When `puzzle` is of another shape.
    pub fn first(
        &self,
        puzzle: &Grid,
        forbid: Option<(usize, u8)>,
        near: Option<&Grid>,
        max_conflicts: u64,
        stop: &dyn Fn() -> bool,
    ) -> Found {
        assert_eq!(puzzle.shape(), self.shape, "a puzzle of another shape");
        let Some(mut pos) = self.position(puzzle) else {
            return Found::NoSolution(0);
        };
        if let Some((cell, v @ 1..=64)) = forbid {
            if pos.values.get(cell) == Some(&v) {
                // A given holds the forbidden value.
                return Found::NoSolution(0);
            }
            if let Some(m) = pos.cand.get_mut(cell) {
                *m &= !(1u64 << (v - 1));
            }
        }
        if !self.propagate(&mut pos) {
            return Found::NoSolution(0);
        }
        if !pos.values.contains(&0) {
            return match Grid::from_cells(self.shape, pos.values) {
                Ok(grid) => Found::Solution(grid),
                // Propagation places only values of the shape's side.
                Err(_) => Found::OutOfBudget,
            };
        }
        let near = near.filter(|g| g.shape() == self.shape);
        cdcl::Search::new(&self.sat).first(&pos.values, &pos.cand, near, max_conflicts, stop)
    }

    /// The position of `puzzle`'s givens, or `None` when they clash.
    fn position(&self, puzzle: &Grid) -> Option<Position> {
        let cells = puzzle.cells().len();
        let mut pos = Position {
            values: vec![0; cells],
            cand: vec![self.full; cells],
        };
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                let b = 1u64 << (v - 1);
                if pos.cand[cell] & b == 0 {
                    return None;
                }
                self.place(&mut pos, cell, b);
            }
        }
        Some(pos)
    }

    /// Whether propagation alone, with no branch, fills every cell of
    /// `puzzle`: then it has exactly one solution.
    pub fn forces(&self, puzzle: &Grid) -> bool {
        let Some(mut pos) = self.position(puzzle) else {
            return false;
        };
        self.propagate(&mut pos) && !pos.values.contains(&0)
    }

    /// Places the value of bit `b` in `cell` and takes it from the cells
    /// that see it.
    fn place(&self, pos: &mut Position, cell: usize, b: u64) {
        pos.values[cell] = b.trailing_zeros() as u8 + 1;
        pos.cand[cell] = 0;
        for &p in self.sat.peers_of(cell) {
            pos.cand[p as usize] &= !b;
        }
    }

    /// The cells of unit `u`.
    fn unit(&self, u: usize) -> &[u32] {
        &self.unit_cells[self.unit_start[u] as usize..self.unit_start[u + 1] as usize]
    }

    /// Applies the forced moves until none is left; `false` on a
    /// contradiction.
    fn propagate(&self, pos: &mut Position) -> bool {
        let units = self.unit_start.len() - 1;
        loop {
            let mut progress = false;
            // Naked singles.
            for cell in 0..pos.cand.len() {
                let m = pos.cand[cell];
                if pos.values[cell] == 0 {
                    if m == 0 {
                        return false;
                    }
                    if m & (m - 1) == 0 {
                        self.place(pos, cell, m);
                        progress = true;
                    }
                }
            }
            // Hidden singles, and values with no place.
            for u in 0..units {
                let (mut once, mut twice, mut placed) = (0u64, 0u64, 0u64);
                for &c in self.unit(u) {
                    let m = pos.cand[c as usize];
                    twice |= once & m;
                    once |= m;
                    let v = pos.values[c as usize];
                    if v != 0 {
                        placed |= 1 << (v - 1);
                    }
                }
                if once | placed != self.full {
                    return false;
                }
                let mut hidden = once & !twice;
                while hidden != 0 {
                    let b = hidden & hidden.wrapping_neg();
                    hidden ^= b;
                    // An earlier single of this unit may have filled the
                    // value's one place: then it has none.
                    let Some(&c) = self
                        .unit(u)
                        .iter()
                        .find(|&&c| pos.cand[c as usize] & b != 0)
                    else {
                        return false;
                    };
                    self.place(pos, c as usize, b);
                    progress = true;
                }
            }
            if progress {
                continue;
            }
            // Locked candidates.
            for x in &self.crossings {
                let union = |cells: &[u32], pos: &Position| {
                    cells.iter().fold(0u64, |m, &c| m | pos.cand[c as usize])
                };
                let shared = union(&x.shared, pos);
                if shared == 0 {
                    continue;
                }
                let box_rest = union(&x.box_rest, pos);
                let line_rest = union(&x.line_rest, pos);
                let pointing = shared & !box_rest & line_rest;
                if pointing != 0 {
                    for &c in &x.line_rest {
                        pos.cand[c as usize] &= !pointing;
                    }
                    progress = true;
                }
                let claiming = shared & !line_rest & box_rest;
                if claiming != 0 {
                    for &c in &x.box_rest {
                        pos.cand[c as usize] &= !claiming;
                    }
                    progress = true;
                }
            }
            if !progress {
                return true;
            }
        }
    }
}
