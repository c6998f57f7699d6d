//! Solving one puzzle: the verdict and answer, the engine chosen for
//! sudoku, and the checks every answer passes.

use std::ops::ControlFlow;

use exactly::{Engine, Limits, Outcome, Problem, Solver, StopReason};

use super::{decode, Grid, Placement, Rules, Shape, SudokuError, Template};

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
/// ([`encode`](fn@super::encode) or [`encode_with`](super::encode_with) of the same puzzle).
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
    /// The search ran out of its budget ([`TemplateSolver::limits`](super::TemplateSolver::limits)) before
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
pub(super) fn solve_within(
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

/// The engine for sudoku: item masks, taking forced moves first (against
/// other solvers: DESIGN.md, "Measurements").
///
/// Item masks copy every item's state at each branch, so their memory is
/// the depth times the items. Past [`MASKS_STATE_BYTES`] a solver uses
/// dancing links instead, whose memory is linear in the problem (the
/// figures for the empty 64x64 grid: DESIGN.md, "Four representations").
pub(super) fn sudoku_solver<'p, L>(problem: &'p Problem<L>, limits: &Limits) -> Solver<'p, L> {
    Solver::new(problem)
        .engine(sudoku_engine(problem))
        .forced_first(true)
        .limits(limits.clone())
}

/// The most memory the item masks of one sudoku solver may take for the
/// states they copy at branches (a bound on the states copied along a search path); past it, links.
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
pub(super) fn sudoku_engine<L>(problem: &Problem<L>) -> Engine {
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
pub(super) fn count_up_to(
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

/// The answer to a search for up to `max_solutions` (at least 1) that
/// found `count` and stopped early (out of budget) or not.
pub(super) fn answer_of(
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
pub(super) fn check_both(
    puzzle: &Grid,
    rules: &Rules,
    grids: &[Option<Grid>; 2],
) -> Result<(), SudokuError> {
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
