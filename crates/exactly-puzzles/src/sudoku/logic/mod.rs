//! Solving as a person does: candidates in every empty cell, and named
//! techniques that place values or remove candidates, easiest first.
//!
//! # Overview
//!
//! A [`Board`] holds the values placed so far and, for every empty cell,
//! its candidates: the values that no placed value of the cell's units
//! excludes (and that no technique has removed). The units are the rows,
//! the columns, the boxes (or the jigsaw regions of [`Rules::regions`]) and,
//! under [`Rules::diagonals`], the two main diagonals. Two cells *see* each
//! other when they share a unit.
//!
//! [`Board::find`] looks for one [`Technique`] and returns the first
//! [`Step`] it finds; [`Board::next_step`] tries the techniques in the
//! order of [`Technique::ALL`], easiest first. [`rate`] applies steps
//! until the grid is solved or no technique applies; then it guesses (see
//! [`rate`]) and counts the guesses. The techniques, each defined on its
//! variant, are in `docs/SUDOKU.md` too.
//!
//! Every technique is sound: it removes a candidate only when no solution
//! of the current board holds it, so on a puzzle with one solution the
//! placements agree with that solution (the tests check this on random
//! puzzles of several sizes and shapes).
//!
//! ```
//! use exactly_puzzles::sudoku::{self, logic};
//! let records = sudoku::parse("34.........2.3..", None);
//! let puzzle = &records[0].puzzle.as_ref().unwrap().grid;
//! let rating = logic::rate(puzzle, &sudoku::Rules::default())?;
//! assert_eq!(rating.guesses, 0);
//! assert!(rating.solution.unwrap().solves(puzzle));
//! # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
//! ```

use std::fmt;
use std::sync::Arc;

use super::{Grid, Placement, Rules, Shape, SudokuError};

mod board;
mod prove;

pub use prove::{Found, Prover};

/// A solving technique. The variants are in order of difficulty, easiest
/// first; [`Technique::ALL`] lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Technique {
    /// An empty cell with a single candidate: it takes that value.
    NakedSingle,
    /// A value with a single possible cell in some unit: that cell takes it.
    HiddenSingle,
    /// Locked candidates, pointing: within a box, a value's candidates all
    /// lie in one line (row, column or diagonal); the value leaves the rest
    /// of that line.
    Pointing,
    /// Locked candidates, claiming: within a line, a value's candidates all
    /// lie in one box; the value leaves the rest of that box.
    Claiming,
    /// Two cells of a unit whose candidates together are two values: those
    /// values leave the unit's other cells.
    NakedPair,
    /// Three cells of a unit whose candidates together are three values.
    NakedTriple,
    /// Four cells of a unit whose candidates together are four values.
    NakedQuad,
    /// Two values that, within a unit, are candidates in the same two cells
    /// only: those cells lose every other candidate.
    HiddenPair,
    /// Three values confined to three cells of a unit.
    HiddenTriple,
    /// Four values confined to four cells of a unit.
    HiddenQuad,
    /// A value whose candidates in two rows lie in the same two columns
    /// (or in two columns, the same two rows): it leaves those columns'
    /// (rows') other cells.
    XWing,
    /// The same with three rows and three columns.
    Swordfish,
    /// A pivot cell with candidates `xy` that sees a cell `xz` and a cell
    /// `yz`: whichever value the pivot takes, one of them is `z`, so `z`
    /// leaves every cell that sees both.
    XYWing,
}

impl Technique {
    /// Every technique, easiest first.
    pub const ALL: [Technique; 13] = [
        Technique::NakedSingle,
        Technique::HiddenSingle,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::NakedTriple,
        Technique::NakedQuad,
        Technique::HiddenPair,
        Technique::HiddenTriple,
        Technique::HiddenQuad,
        Technique::XWing,
        Technique::Swordfish,
        Technique::XYWing,
    ];

    /// The name, as the command line writes it.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::logic::Technique;
    /// assert_eq!(Technique::XYWing.name(), "xy-wing");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Technique::NakedSingle => "naked-single",
            Technique::HiddenSingle => "hidden-single",
            Technique::Pointing => "pointing",
            Technique::Claiming => "claiming",
            Technique::NakedPair => "naked-pair",
            Technique::NakedTriple => "naked-triple",
            Technique::NakedQuad => "naked-quad",
            Technique::HiddenPair => "hidden-pair",
            Technique::HiddenTriple => "hidden-triple",
            Technique::HiddenQuad => "hidden-quad",
            Technique::XWing => "x-wing",
            Technique::Swordfish => "swordfish",
            Technique::XYWing => "xy-wing",
        }
    }

    /// The technique of a name ([`Technique::name`]).
    ///
    /// ```
    /// use exactly_puzzles::sudoku::logic::Technique;
    /// assert_eq!(Technique::from_name("swordfish"), Some(Technique::Swordfish));
    /// assert_eq!(Technique::from_name("fish"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Technique> {
        Technique::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The position in [`Technique::ALL`].
    fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How hard a puzzle is: the hardest technique its solution needed, or
/// guessing. Ordered from easiest to hardest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Nothing to do: the grid was full.
    Given,
    /// Solved with this technique and easier ones only.
    Technique(Technique),
    /// No technique applied at some point: the solver had to guess.
    Guessing,
}

impl Level {
    /// The name: `given`, a technique's name, or `guessing`.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::logic::{Level, Technique};
    /// assert_eq!(Level::Technique(Technique::XWing).name(), "x-wing");
    /// assert_eq!(Level::Guessing.name(), "guessing");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Level::Given => "given",
            Level::Technique(t) => t.name(),
            Level::Guessing => "guessing",
        }
    }

    /// The level of a name ([`Level::name`]).
    ///
    /// ```
    /// use exactly_puzzles::sudoku::logic::{Level, Technique};
    /// assert_eq!(Level::from_name("pointing"), Some(Level::Technique(Technique::Pointing)));
    /// assert!(Level::from_name("guessing") > Level::from_name("xy-wing"));
    /// ```
    pub fn from_name(name: &str) -> Option<Level> {
        match name {
            "given" => Some(Level::Given),
            "guessing" => Some(Level::Guessing),
            _ => Technique::from_name(name).map(Level::Technique),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What kind of unit a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnitKind {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A box, or a jigsaw region.
    Box,
    /// One of the two main diagonals (X-sudoku).
    Diagonal,
}

/// A unit named for people: `row 3`, `column 2`, `box 4`, `region 4`,
/// `diagonal 1` (1-based; diagonal 1 runs from r1c1, diagonal 2 from r1cn).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    /// The kind.
    pub kind: UnitKind,
    /// 0-based number within its kind.
    pub number: usize,
    /// True for a jigsaw region (written `region`, not `box`).
    pub region: bool,
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = match self.kind {
            UnitKind::Row => "row",
            UnitKind::Column => "column",
            UnitKind::Box if self.region => "region",
            UnitKind::Box => "box",
            UnitKind::Diagonal => "diagonal",
        };
        write!(f, "{word} {}", self.number + 1)
    }
}

/// The units of a grid shape under some rules, and which cells see which.
#[derive(Debug)]
struct Topology {
    n: usize,
    /// The cells of each unit, in row-major order.
    units: Vec<Vec<usize>>,
    names: Vec<Unit>,
    /// The cells each cell sees (not itself), ascending.
    peers: Vec<Vec<usize>>,
    /// Pairs (box unit, line unit) sharing two or more cells.
    crossings: Vec<(usize, usize)>,
}

impl Topology {
    fn new(shape: Shape, rules: &Rules) -> Result<Topology, SudokuError> {
        let n = shape.size();
        let regions = match &rules.regions {
            Some(g) if g.size() != n => {
                return Err(SudokuError::BadGrid(format!(
                    "the regions are for a {0}x{0} grid, the puzzle is {1}x{1}",
                    g.size(),
                    n
                )))
            }
            other => other.as_ref(),
        };
        let mut units = Vec::new();
        let mut names = Vec::new();
        let unit = |kind, number| Unit {
            kind,
            number,
            region: regions.is_some(),
        };
        for r in 0..n {
            units.push((0..n).map(|c| r * n + c).collect::<Vec<_>>());
            names.push(unit(UnitKind::Row, r));
        }
        for c in 0..n {
            units.push((0..n).map(|r| r * n + c).collect());
            names.push(unit(UnitKind::Column, c));
        }
        let mut boxes = vec![Vec::new(); n];
        for r in 0..n {
            for c in 0..n {
                let b = match regions {
                    Some(g) => g.region(r, c),
                    None => shape.box_of(r, c),
                };
                boxes[b].push(r * n + c);
            }
        }
        for (b, cells) in boxes.into_iter().enumerate() {
            units.push(cells);
            names.push(unit(UnitKind::Box, b));
        }
        if rules.diagonals {
            units.push((0..n).map(|i| i * n + i).collect());
            names.push(unit(UnitKind::Diagonal, 0));
            units.push((0..n).map(|i| i * n + n - 1 - i).collect());
            names.push(unit(UnitKind::Diagonal, 1));
        }
        let mut cell_units = vec![Vec::new(); n * n];
        for (u, cells) in units.iter().enumerate() {
            for &c in cells {
                cell_units[c].push(u);
            }
        }
        let mut peers = vec![Vec::new(); n * n];
        for (cell, list) in peers.iter_mut().enumerate() {
            for &u in &cell_units[cell] {
                list.extend(units[u].iter().copied().filter(|&c| c != cell));
            }
            list.sort_unstable();
            list.dedup();
        }
        let mut crossings = Vec::new();
        for (b, name) in names.iter().enumerate() {
            if name.kind != UnitKind::Box {
                continue;
            }
            for (l, other) in names.iter().enumerate() {
                if other.kind == UnitKind::Box {
                    continue;
                }
                let shared = units[b].iter().filter(|c| units[l].contains(c)).count();
                if shared >= 2 {
                    crossings.push((b, l));
                }
            }
        }
        Ok(Topology {
            n,
            units,
            names,
            peers,
            crossings,
        })
    }

    fn sees(&self, a: usize, b: usize) -> bool {
        a != b && self.peers[a].binary_search(&b).is_ok()
    }
}

/// One step of a technique: the values it places and the candidates it
/// removes, with the cells, values and unit it rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The technique.
    pub technique: Technique,
    /// The unit or units the step looks at (none for a naked single or an
    /// XY-wing).
    pub units: Vec<Unit>,
    /// The values the pattern is made of, ascending.
    pub values: Vec<u8>,
    /// The cells of the pattern, 0-based `(row, col)`, row-major.
    pub cells: Vec<(usize, usize)>,
    /// Values placed.
    pub places: Vec<Placement>,
    /// Candidates removed.
    pub removes: Vec<Placement>,
}

/// A cell as `r{row}c{col}`, 1-based.
///
/// ```
/// assert_eq!(exactly_puzzles::sudoku::logic::cell_name(0, 8), "r1c9");
/// ```
pub fn cell_name(row: usize, col: usize) -> String {
    format!("r{}c{}", row + 1, col + 1)
}

impl fmt::Display for Step {
    /// `x-wing: 1 in r2c1 r2c5 r5c1 r5c5 (column 1, column 5) => r2c4<>1, r5c3<>1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.technique)?;
        if !self.values.is_empty() {
            let values: Vec<String> = self.values.iter().map(u8::to_string).collect();
            write!(f, " {} in", values.join(","))?;
        }
        for &(r, c) in &self.cells {
            write!(f, " {}", cell_name(r, c))?;
        }
        if !self.units.is_empty() {
            let units: Vec<String> = self.units.iter().map(Unit::to_string).collect();
            write!(f, " ({})", units.join(", "))?;
        }
        let effects: Vec<String> = self
            .places
            .iter()
            .map(|p| format!("{}={}", cell_name(p.row.into(), p.col.into()), p.value))
            .chain(
                self.removes
                    .iter()
                    .map(|p| format!("{}<>{}", cell_name(p.row.into(), p.col.into()), p.value)),
            )
            .collect();
        write!(f, " => {}", effects.join(", "))
    }
}

/// Where a board stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Every cell holds a value.
    Solved,
    /// Some empty cell has no candidate, or some unit has no place left for
    /// a value it lacks: the board has no solution.
    Contradiction,
    /// Open cells remain, each with candidates.
    Open,
}

/// A grid being solved: placed values and the candidates of empty cells.
///
/// ```
/// use exactly_puzzles::sudoku::{self, logic::{Board, Technique}};
/// let records = sudoku::parse("34.........2.3..", None);
/// let grid = &records[0].puzzle.as_ref().unwrap().grid;
/// let board = Board::new(grid, &sudoku::Rules::default())?;
/// assert_eq!(board.candidates(0, 3), vec![1]);
/// let step = board.next_step().unwrap();
/// assert_eq!(step.technique, Technique::NakedSingle);
/// assert_eq!(step.to_string(), "naked-single: r1c4 => r1c4=1");
/// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Board {
    topo: Arc<Topology>,
    shape: Shape,
    values: Vec<u8>,
    cand: Vec<u64>,
}

/// The bit of value `v` (1-based).
fn bit(v: u8) -> u64 {
    1u64 << (v - 1)
}

/// The mask of all values of a grid of side `n` (at most 64).
fn all_values(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// The values of a mask, ascending.
fn values_of(mask: u64) -> impl Iterator<Item = u8> {
    (0..64u8).filter(move |b| mask >> b & 1 != 0).map(|b| b + 1)
}

/// Calls `f` with every `k`-subset of `items` (indices into it, ascending)
/// whose union of masks has exactly `k` bits; stops at the first `Some`.
fn subsets<T>(
    items: &[u64],
    k: usize,
    f: &mut impl FnMut(&[usize], u64) -> Option<T>,
) -> Option<T> {
    fn go<T>(
        items: &[u64],
        k: usize,
        start: usize,
        chosen: &mut Vec<usize>,
        union: u64,
        f: &mut impl FnMut(&[usize], u64) -> Option<T>,
    ) -> Option<T> {
        if union.count_ones() as usize > k {
            return None;
        }
        if chosen.len() == k {
            return (union.count_ones() as usize == k)
                .then(|| f(chosen, union))
                .flatten();
        }
        for i in start..items.len() {
            if items.len() - i < k - chosen.len() {
                break;
            }
            chosen.push(i);
            let found = go(items, k, i + 1, chosen, union | items[i], f);
            chosen.pop();
            if found.is_some() {
                return found;
            }
        }
        None
    }
    go(items, k, 0, &mut Vec::with_capacity(k), 0, f)
}

/// What [`rate`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rating {
    /// Steps taken per technique, in the order of [`Technique::ALL`]
    /// (including the steps of guesses that failed).
    pub counts: [u64; 13],
    /// Guesses made: each value tried in a guessed cell counts one.
    pub guesses: u64,
    /// The solution reached, or `None` when the puzzle has none.
    pub solution: Option<Grid>,
}

impl Rating {
    /// The hardest technique used, or [`Level::Guessing`] when the solver
    /// guessed, or [`Level::Given`] for a full grid.
    pub fn level(&self) -> Level {
        if self.guesses > 0 {
            return Level::Guessing;
        }
        Technique::ALL
            .into_iter()
            .rev()
            .find(|t| self.counts[t.index()] > 0)
            .map_or(Level::Given, Level::Technique)
    }

    /// The steps taken with `technique`.
    pub fn count(&self, technique: Technique) -> u64 {
        self.counts[technique.index()]
    }
}

/// Solves `puzzle` with the techniques, easiest first, and rates it.
///
/// The procedure: apply [`Board::next_step`] until the board is solved,
/// contradicted, or no technique applies. In the last case, take the open
/// cell with the fewest candidates (the first in row-major order among
/// ties, [`Board::guess_cell`]) and try its candidates in ascending order:
/// each try is one guess; the board is copied, the value placed, and the
/// procedure runs on the copy; the first copy that ends solved is the
/// answer, and a copy that ends contradicted is dropped for the next value.
/// For a puzzle with several solutions the first one reached is returned.
pub fn rate(puzzle: &Grid, rules: &Rules) -> Result<Rating, SudokuError> {
    match rate_within(puzzle, rules, &|_| false)? {
        Some(rating) => Ok(rating),
        // Never asked to stop.
        None => Err(SudokuError::Build(exactly::BuildError::NoItems)),
    }
}

/// [`rate`], asking `stop` with the guesses so far before each step and
/// each guess: `None` once it says to stop (the guesses of a puzzle that
/// needs many can grow exponentially with its side).
///
/// ```
/// use exactly_puzzles::sudoku::{self, logic};
/// let records = sudoku::parse("34.........2.3..", None);
/// let puzzle = &records[0].puzzle.as_ref().unwrap().grid;
/// let rules = sudoku::Rules::default();
/// assert!(logic::rate_within(puzzle, &rules, &|_| false)?.is_some());
/// assert!(logic::rate_within(puzzle, &rules, &|_| true)?.is_none());
/// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
/// ```
pub fn rate_within(
    puzzle: &Grid,
    rules: &Rules,
    stop: &dyn Fn(u64) -> bool,
) -> Result<Option<Rating>, SudokuError> {
    let board = Board::new(puzzle, rules)?;
    let mut rating = Rating {
        counts: [0; 13],
        guesses: 0,
        solution: None,
    };
    match run(board, &mut rating, stop) {
        Err(Stopped) => Ok(None),
        Ok(solved) => {
            rating.solution = solved.map(|b| b.grid());
            Ok(Some(rating))
        }
    }
}

/// The rating was stopped.
struct Stopped;

/// Applies steps, then guesses; the solved board or `None`.
fn run(
    mut board: Board,
    rating: &mut Rating,
    stop: &dyn Fn(u64) -> bool,
) -> Result<Option<Board>, Stopped> {
    loop {
        match board.state() {
            State::Solved => return Ok(Some(board)),
            State::Contradiction => return Ok(None),
            State::Open => {}
        }
        if stop(rating.guesses) {
            return Err(Stopped);
        }
        match board.next_step() {
            Some(step) => {
                rating.counts[step.technique.index()] += 1;
                board.apply(&step);
            }
            None => break,
        }
    }
    let Some((r, c)) = board.guess_cell() else {
        return Ok(None);
    };
    for v in board.candidates(r, c) {
        rating.guesses += 1;
        let mut copy = board.clone();
        copy.place(r * board.topo.n + c, v);
        if let Some(done) = run(copy, rating, stop)? {
            return Ok(Some(done));
        }
    }
    Ok(None)
}

/// The search-effort rating: the nodes of the exact-cover search for up to
/// two solutions of `puzzle` (its encoding by [`super::encode_with`],
/// branching on the item with the fewest options, the leftmost among ties,
/// as Knuth's DLX1 does). 0 for a full grid.
///
/// ```
/// use exactly_puzzles::sudoku::{self, logic};
/// let records = sudoku::parse("34.........2.3..", None);
/// let puzzle = &records[0].puzzle.as_ref().unwrap().grid;
/// assert!(logic::search_nodes(puzzle, &sudoku::Rules::default())? >= 1);
/// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
/// ```
pub fn search_nodes(puzzle: &Grid, rules: &Rules) -> Result<u64, SudokuError> {
    match search_nodes_within(puzzle, rules, &exactly::Limits::default())? {
        Some(nodes) => Ok(nodes),
        // Never asked to stop.
        None => Err(SudokuError::Build(exactly::BuildError::NoItems)),
    }
}

/// [`search_nodes`] within `limits` (their nodes, time and cancel flag):
/// `None` when the search stopped first.
///
/// ```
/// use exactly::Limits;
/// use exactly_puzzles::sudoku::{self, logic, Grid, Rules, Shape};
/// let empty = Grid::empty(Shape::new(3, 3)?);
/// let tight = Limits::default().max_nodes(3);
/// assert_eq!(logic::search_nodes_within(&empty, &Rules::default(), &tight)?, None);
/// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
/// ```
pub fn search_nodes_within(
    puzzle: &Grid,
    rules: &Rules,
    limits: &exactly::Limits,
) -> Result<Option<u64>, SudokuError> {
    if !puzzle.cells().contains(&0) {
        return Ok(Some(0));
    }
    let problem = super::encode_with(puzzle, rules)?;
    let mut solver = exactly::Solver::new(&problem).limits(limits.clone().max_solutions(2));
    let outcome = solver.count().outcome;
    Ok(match outcome {
        exactly::Outcome::Stopped(exactly::StopReason::SolutionLimit)
        | exactly::Outcome::Complete => Some(solver.stats().nodes),
        exactly::Outcome::Stopped(_) => None,
    })
}
