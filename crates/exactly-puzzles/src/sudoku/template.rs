//! Templates: the empty grid of one shape encoded once, and solvers that
//! take a batch of puzzles of that shape by committing their givens.

use std::sync::OnceLock;

use exactly::time::Instant;
use exactly::{Limits, OptionId, Problem, Solver};

use super::bands;
use super::encode::{encode_within, encoding_stop};
use super::grid::check_regions;
use super::solve::{answer_of, check_both, count_up_to, sudoku_solver};
use super::{Answer, Grid, Placement, Rules, Shape, SudokuError};

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
        match self.encoding_within(&|| false)? {
            Some(encoding) => Ok(encoding),
            // Never asked to stop.
            None => Err(SudokuError::Build(exactly::BuildError::NoItems)),
        }
    }

    /// The encoding, built unless `stop` says to stop first (`None`; it is
    /// built again next time). Two threads may build it at once: the first
    /// one kept serves both.
    fn encoding_within(&self, stop: &dyn Fn() -> bool) -> Result<Option<&Encoding>, SudokuError> {
        if let Some(built) = self.encoding.get() {
            return built.as_ref().map(Some).map_err(Clone::clone);
        }
        let built = match encode_within(&Grid::empty(self.shape), &self.rules, stop) {
            Ok(None) => return Ok(None),
            Ok(Some(problem)) => {
                let n = self.shape.size();
                let mut option = vec![OptionId::new(0); n * n * n];
                for (o, p) in problem.labels().iter().enumerate() {
                    let cell = usize::from(p.row) * n + usize::from(p.col);
                    option[cell * n + usize::from(p.value) - 1] = OptionId::new(o);
                }
                Ok(Encoding { problem, option })
            }
            Err(e) => Err(e),
        };
        let _ = self.encoding.set(built);
        match self.encoding.get() {
            Some(built) => built.as_ref().map(Some).map_err(Clone::clone),
            None => Ok(None),
        }
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
            leaning: bands::Leaning::default(),
        }
    }
}

/// Solves puzzles on a [`Template`], reusing one search structure.
///
/// Encoding the empty grid and building its search structure costs about
/// as much as doing so for puzzles whose open parts add up to it (the same
/// per option either way). A solver therefore
/// first encodes each puzzle on its own (only its open cells and units);
/// once the options it encoded that way reach a third of the template's,
/// it switches to the template for good, solving each puzzle by committing
/// its givens ([`exactly::Solver::assume`]). A single puzzle never pays for
/// the template, a few easy 16x16 or 25x25 puzzles neither, and a batch
/// pays at most a third more than the template itself: the third, rather
/// than the break-even point, because a second puzzle mostly means many
/// more (DESIGN.md, "Four representations", has the measured costs).
///
/// The classic 9x9 grid under the plain rules, without a budget, is
/// searched on *bands* instead: the same exact cover, branching the same
/// way and finding the same solutions in the same order, on one bitboard
/// per value, which commits an option in a dozen word operations
/// (`bands.rs`). A uniqueness check there first strips the options that
/// no exact cover of a band or a stack can hold, which shrinks the search
/// (by half on top1465); when that search finds several solutions, the plain
/// one runs again to give the first ones in the usual order, and a solver
/// that meets such puzzles in a row runs the plain search first. Its
/// [`Answer::nodes`] are the options committed, forced or tried, by the
/// searches that ran. With a budget, the general solver searches, so that
/// `max_nodes` counts its nodes.
pub struct TemplateSolver<'t> {
    template: &'t Template,
    /// On the template's problem, once in use.
    solver: Option<Solver<'t, Placement>>,
    givens: Vec<OptionId>,
    /// Options encoded for puzzles solved on their own.
    encoded: usize,
    /// Each puzzle's budget.
    limits: Limits,
    /// Which band search to try first (see [`bands::Leaning`]).
    leaning: bands::Leaning,
}

impl TemplateSolver<'_> {
    /// A budget for each puzzle: nodes, time (from the start of each
    /// puzzle's search) or a cancel flag. A puzzle whose search runs out of
    /// it gets [`Verdict::Unknown`](super::Verdict::Unknown), with the solutions found by then.
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

    /// Starts from `leaning` (a batch's workers carry it across calls).
    pub(super) fn leaning_from(mut self, leaning: bands::Leaning) -> Self {
        self.leaning = leaning;
        self
    }

    /// Which band search the solver leans to now.
    pub(super) fn leaning(&self) -> bands::Leaning {
        self.leaning
    }

    /// [`solve_with`](super::solve_with) under the template's rules, for a puzzle of the
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
        // The clock is read only for a time budget: a batch of easy
        // puzzles spends a share of its time on it.
        let started = self.limits.time.map(|_| Instant::now());
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
        if bands::takes(shape, rules, &self.limits) {
            // The band search; givens that share an item are named by the
            // clash check.
            let Some(f) = bands::solve(puzzle, max_solutions, &mut self.leaning) else {
                return match puzzle.clash_with(rules) {
                    Some(c) => Err(c.error(c.value.to_string())),
                    None => Ok(found(0, [None, None], 0, false)),
                };
            };
            check_both(puzzle, rules, &f.grids)?;
            return Ok(found(f.count, f.grids, f.nodes, false));
        }
        let n = shape.size();
        // The time budget counts from the start of the call: encoding too.
        let budget = self.limits.time;
        let left = move || match budget.zip(started) {
            Some((time, started)) => time.checked_sub(started.elapsed()).filter(|t| !t.is_zero()),
            None => Some(std::time::Duration::MAX),
        };
        let out_of_time = || Ok(answer_of(max_solutions, 0, [None, None], 0, true));
        // Encoding a large grid takes long too: it stops with the budget.
        let stop = encoding_stop(&self.limits, started);
        let (count, grids, nodes, stopped) =
            if self.solver.is_none() && 3 * self.encoded < n * n * n {
                // On its own; `encode_within` names clashing givens.
                let Some(problem) = encode_within(puzzle, rules, &stop)? else {
                    return out_of_time();
                };
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
                let Some(encoding) = template.encoding_within(&stop)? else {
                    return out_of_time();
                };
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
