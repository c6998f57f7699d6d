//! Making new puzzles: a random full grid, then clues taken away while the
//! solution stays unique.
//!
//! # Method
//!
//! 1. A random full grid: the empty grid's exact-cover problem (one option
//!    per cell and value, as in [`super::encode_with`]) with its options in
//!    a random order and ties between items broken at random
//!    ([`exactly::Solver::seed`]); the first solution is the grid. A search
//!    that runs past its node budget starts again with other random
//!    choices.
//! 2. Clues away: the cells, grouped in orbits of the [`Symmetry`] (a cell
//!    alone, or a cell with its image), are visited in a random order; an
//!    orbit is emptied when the puzzle without it still has one solution,
//!    else it is put back. The check: when propagation alone (singles and
//!    locked candidates, [`Prover::forces`]) fills the puzzle without the
//!    orbit, it has one solution. Otherwise any other solution differs from
//!    the grid in a cell of the orbit; for each cell of the orbit, one
//!    search ([`Prover::first`], clause learning) for a solution with
//!    another value there (the cells before it in the orbit keeping their
//!    clues); the orbit can go when every such search fails.
//! 3. A search that runs past its budget ([`Generator::max_nodes`]
//!    conflicts) keeps the orbit for now; once every orbit is visited,
//!    those orbits are tried again with sixteen times the budget. If one
//!    still runs out, the attempt is dropped and a new grid is drawn, so
//!    that every puzzle returned is proven minimal; or, with
//!    [`Generator::allow_unproven`], the orbit keeps its clues and is
//!    counted in [`Generated::unproven`].
//!
//! 4. A time budget ([`Generator::generate_within`]) for a puzzle covers
//!    all its attempts: every search takes at most the time left (and is
//!    checked against it before it starts), so a puzzle out of time ends
//!    within about one search of its budget.
//!
//! # Guarantees
//!
//! Every puzzle returned has exactly one solution, and is *minimal* with
//! respect to its symmetry: emptying any one orbit of its clues gives a
//! puzzle with several solutions. With [`Symmetry::None`] every orbit is a
//! single cell, so removing any single clue gives several solutions.
//! (The clues only go, never come back, so an orbit that could not be
//! emptied at its turn cannot be emptied later either.) With
//! [`Generator::allow_unproven`] this holds for every orbit but the
//! [`Generated::unproven`] clues. The same seed and
//! index give the same puzzle: each puzzle's random numbers come from
//! [`Rng::for_puzzle`] alone, whatever the thread that makes it.
//!
//! ```
//! use exactly_puzzles::sudoku::{self, generate::{Generator, Rng}, Shape, Verdict};
//! let generator = Generator::new(Shape::new(2, 2)?, false, false)?;
//! let made = generator.attempt(&mut Rng::for_puzzle(7, 0))?.unwrap();
//! let rules = generator.rules(made.regions.clone());
//! let answer = sudoku::solve_with(&made.puzzle, 2, &rules)?;
//! assert_eq!(answer.verdict, Verdict::Unique);
//! assert_eq!(answer.solution.as_ref(), Some(&made.solution));
//! # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
//! ```

use std::time::Duration;

use exactly::time::Instant;
use exactly::{Limits, Solver};

use super::encode::{matrix, Cells, Order};
use super::logic::{Found, Prover};
use super::{Grid, Regions, Rules, Shape, SudokuError};

/// A small seeded random number generator (splitmix64): the same seed
/// gives the same numbers on every machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The generator of puzzle `index` of a run with `seed`.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::generate::Rng;
    /// assert_eq!(Rng::for_puzzle(1, 2), Rng::for_puzzle(1, 2));
    /// assert_ne!(Rng::for_puzzle(1, 2), Rng::for_puzzle(1, 3));
    /// ```
    pub fn for_puzzle(seed: u64, index: u64) -> Rng {
        let mut mix = Rng(index ^ 0x5851_F42D_4C95_7F2D);
        let salt = mix.next_u64();
        Rng(seed ^ salt)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound` above 0).
    pub fn below(&mut self, bound: usize) -> usize {
        // The slight bias of a modulus is of no matter here.
        (self.next_u64() % bound.max(1) as u64) as usize
    }

    /// Shuffles `items` (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// Which cells lose their clues together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Each cell on its own.
    #[default]
    None,
    /// A cell and its image under a half turn about the centre.
    Rotational,
    /// A cell and its mirror image across the vertical middle line.
    Mirror,
}

impl Symmetry {
    /// The orbits of an `n`×`n` grid's cells (row-major indices).
    ///
    /// ```
    /// use exactly_puzzles::sudoku::generate::Symmetry;
    /// assert_eq!(Symmetry::Rotational.orbits(3)[4], vec![4]);
    /// assert_eq!(Symmetry::Mirror.orbits(2), vec![vec![0, 1], vec![2, 3]]);
    /// ```
    pub fn orbits(self, n: usize) -> Vec<Vec<usize>> {
        let image = |i: usize| match self {
            Symmetry::None => i,
            Symmetry::Rotational => n * n - 1 - i,
            Symmetry::Mirror => (i / n) * n + (n - 1 - i % n),
        };
        (0..n * n)
            .filter(|&i| image(i) >= i)
            .map(|i| {
                if image(i) == i {
                    vec![i]
                } else {
                    vec![i, image(i)]
                }
            })
            .collect()
    }
}

/// A puzzle made by [`Generator::attempt`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle: unique and minimal (see the module docs).
    pub puzzle: Grid,
    /// Its solution.
    pub solution: Grid,
    /// Its jigsaw regions, when the generator makes jigsaws.
    pub regions: Option<Regions>,
    /// Clues kept because their removal check ran out of both budgets
    /// (only with [`Generator::allow_unproven`]; otherwise always 0): the
    /// puzzle is proven minimal when this is 0.
    pub unproven: usize,
}

/// How [`Generator::generate_within`] ended for one puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Generation {
    /// A puzzle that the caller took, and the attempts it took (from 1).
    Made(Generated, u64),
    /// Every attempt was made and none was taken.
    Exhausted,
    /// The time budget ran out first.
    OutOfTime,
}

/// Why making a puzzle stopped short: an error, or the time budget.
enum Stop {
    Error(SudokuError),
    OutOfTime,
}

impl From<SudokuError> for Stop {
    fn from(e: SudokuError) -> Stop {
        Stop::Error(e)
    }
}

/// The time left of a budget started at `start` (`None`: no budget).
#[derive(Clone, Copy)]
struct Clock {
    start: Instant,
    time: Option<Duration>,
}

impl Clock {
    fn new(time: Option<Duration>) -> Clock {
        Clock {
            start: Instant::now(),
            time,
        }
    }

    fn left(&self) -> Option<Duration> {
        self.time.map(|t| t.saturating_sub(self.start.elapsed()))
    }

    /// `Err(OutOfTime)` once the budget is spent.
    fn check(&self) -> Result<(), Stop> {
        if self.spent() {
            Err(Stop::OutOfTime)
        } else {
            Ok(())
        }
    }

    /// Whether the budget is spent.
    fn spent(&self) -> bool {
        self.left().is_some_and(|left| left.is_zero())
    }

    /// `limits` with the time left added.
    fn limits(&self, limits: Limits) -> Limits {
        match self.left() {
            Some(left) => limits.max_time(left),
            None => limits,
        }
    }
}

/// Makes puzzles of one shape and kind.
#[derive(Debug)]
pub struct Generator {
    shape: Shape,
    diagonals: bool,
    jigsaw: bool,
    symmetry: Symmetry,
    max_nodes: u64,
    allow_unproven: bool,
    /// For fixed rules (not jigsaw): one prover for every puzzle.
    prover: Option<Prover>,
}

/// The default budget of one search of a uniqueness check, in conflicts.
pub const DEFAULT_MAX_NODES: u64 = 100_000;

impl Generator {
    /// A generator of `shape` grids, X-sudoku with `diagonals`, and with
    /// `jigsaw` random regions of their own (the box shape then only gives
    /// the side).
    pub fn new(shape: Shape, diagonals: bool, jigsaw: bool) -> Result<Generator, SudokuError> {
        let prover = if jigsaw {
            None
        } else {
            Some(Prover::new(shape, &Rules::default().diagonals(diagonals))?)
        };
        Ok(Generator {
            shape,
            diagonals,
            jigsaw,
            symmetry: Symmetry::None,
            max_nodes: DEFAULT_MAX_NODES,
            allow_unproven: false,
            prover,
        })
    }

    /// Sets the symmetry of the clues.
    pub fn symmetry(mut self, symmetry: Symmetry) -> Generator {
        self.symmetry = symmetry;
        self
    }

    /// Sets the budget of each search of a uniqueness check, in conflicts
    /// of [`Prover::first`] (at least 1).
    pub fn max_nodes(mut self, nodes: u64) -> Generator {
        self.max_nodes = nodes.max(1);
        self
    }

    /// Keeps a puzzle some of whose orbits could not be checked within
    /// either budget (they keep their clues, counted in
    /// [`Generated::unproven`]) instead of dropping the attempt.
    pub fn allow_unproven(mut self, on: bool) -> Generator {
        self.allow_unproven = on;
        self
    }

    /// The grid shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The rules of a puzzle made here, with its regions.
    pub fn rules(&self, regions: Option<Regions>) -> Rules {
        Rules::default().diagonals(self.diagonals).regions(regions)
    }

    /// Makes one puzzle from the random numbers of `rng`: `Ok(None)` when a
    /// uniqueness check ran out of even the larger budget (try again with
    /// the same `rng`, which has moved on).
    pub fn attempt(&self, rng: &mut Rng) -> Result<Option<Generated>, SudokuError> {
        match self.attempt_within(rng, &Clock::new(None)) {
            Ok(made) => Ok(made),
            Err(Stop::Error(e)) => Err(e),
            // No time budget: never out of time.
            Err(Stop::OutOfTime) => Ok(None),
        }
    }

    /// [`Generator::attempt`] within the time left on `clock`.
    fn attempt_within(&self, rng: &mut Rng, clock: &Clock) -> Result<Option<Generated>, Stop> {
        let n = self.shape.size();
        let (regions, solution) = loop {
            clock.check()?;
            let regions = if self.jigsaw {
                Some(random_regions(n, rng)?)
            } else {
                None
            };
            let rules = self.rules(regions.clone());
            if let Some(grid) = random_grid(self.shape, &rules, rng, clock)? {
                break (regions, grid);
            }
            if !self.jigsaw {
                return Err(
                    SudokuError::BadGrid(format!("no {n}x{n} grid fits these rules")).into(),
                );
            }
        };
        let own;
        let prover = match &self.prover {
            Some(p) => p,
            None => {
                own = Prover::new(self.shape, &self.rules(regions.clone()))?;
                &own
            }
        };
        let mut orbits = self.symmetry.orbits(n);
        rng.shuffle(&mut orbits);
        let mut puzzle = solution.clone();
        let mut unproven = Vec::new();
        let mut kept = 0;
        for orbit in orbits {
            match removable(
                prover,
                self.max_nodes,
                &mut puzzle,
                &solution,
                &orbit,
                clock,
            )? {
                Some(true) => continue,
                None => unproven.push(orbit.clone()),
                Some(false) => {}
            }
            for &c in &orbit {
                puzzle.set(c / n, c % n, solution.get(c / n, c % n));
            }
        }
        if !unproven.is_empty() {
            let budget = self.max_nodes.saturating_mul(16);
            for orbit in unproven {
                match removable(prover, budget, &mut puzzle, &solution, &orbit, clock)? {
                    Some(true) => continue,
                    None if self.allow_unproven => kept += orbit.len(),
                    None => return Ok(None),
                    Some(false) => {}
                }
                for &c in &orbit {
                    puzzle.set(c / n, c % n, solution.get(c / n, c % n));
                }
            }
        }
        // A check cut short by the clock may have kept a clue: such a
        // puzzle is not given out.
        clock.check()?;
        Ok(Some(Generated {
            puzzle,
            solution,
            regions,
            unproven: kept,
        }))
    }

    /// Puzzle `index` of a run with `seed`: attempts from
    /// [`Rng::for_puzzle`] until one makes a puzzle that `accept` takes, at
    /// most `max_attempts` of them (`Ok(None)` then).
    pub fn generate(
        &self,
        seed: u64,
        index: u64,
        max_attempts: u64,
        mut accept: impl FnMut(&Generated) -> Result<bool, SudokuError>,
    ) -> Result<Option<(Generated, u64)>, SudokuError> {
        let made = self.generate_within(seed, index, max_attempts, None, |made, _| {
            accept(made).map(Some)
        })?;
        Ok(match made {
            Generation::Made(made, attempts) => Some((made, attempts)),
            Generation::Exhausted | Generation::OutOfTime => None,
        })
    }

    /// [`Generator::generate`] within `time` for the puzzle, all its
    /// attempts together (`None`: no time budget). `accept` is given the
    /// time left and answers `None` when it ran out of it. The same seed
    /// and index give the same puzzle whenever it is made in time.
    ///
    /// ```
    /// use std::time::Duration;
    /// use exactly_puzzles::sudoku::{generate::{Generation, Generator}, Shape};
    /// let generator = Generator::new(Shape::new(2, 2)?, false, false)?;
    /// let roomy = Some(Duration::from_secs(3600));
    /// let made = generator.generate_within(7, 0, 10, roomy, |_, _| Ok(Some(true)))?;
    /// let Generation::Made(made, _) = made else { panic!("a 4x4 is quick") };
    /// assert_eq!(Some((made, 1)), generator.generate(7, 0, 10, |_| Ok(true))?);
    /// // A budget spent before the first search.
    /// let none = generator.generate_within(7, 0, 10, Some(Duration::ZERO), |_, _| Ok(Some(true)))?;
    /// assert_eq!(none, Generation::OutOfTime);
    /// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
    /// ```
    pub fn generate_within(
        &self,
        seed: u64,
        index: u64,
        max_attempts: u64,
        time: Option<Duration>,
        mut accept: impl FnMut(&Generated, Option<Duration>) -> Result<Option<bool>, SudokuError>,
    ) -> Result<Generation, SudokuError> {
        let clock = Clock::new(time);
        let mut rng = Rng::for_puzzle(seed, index);
        for attempt in 1..=max_attempts {
            let made = match self.attempt_within(&mut rng, &clock) {
                Ok(made) => made,
                Err(Stop::Error(e)) => return Err(e),
                Err(Stop::OutOfTime) => return Ok(Generation::OutOfTime),
            };
            if let Some(made) = made {
                match accept(&made, clock.left())? {
                    Some(true) => return Ok(Generation::Made(made, attempt)),
                    Some(false) => {}
                    None => return Ok(Generation::OutOfTime),
                }
            }
        }
        Ok(Generation::Exhausted)
    }
}

/// Whether `orbit` can be emptied keeping one solution: `Some(true)`
/// (then it is left empty in `puzzle`), `Some(false)`, or `None` when a
/// search ran out of its budget of `max_nodes` first.
///
/// Any other solution of the puzzle without the orbit differs from
/// `solution` in some cell of the orbit (the puzzle with the orbit has one
/// solution). Taking the first such cell in the orbit's order, the other
/// solutions fall into one class per cell `c`: the cells before `c` keep
/// their clues, `c` holds another value than the solution's, and the cells
/// after `c` are empty. One search for a first solution per class
/// ([`Prover::first`] with `c`'s value forbidden) finds a second solution
/// or proves that there is none.
fn removable(
    prover: &Prover,
    max_nodes: u64,
    puzzle: &mut Grid,
    solution: &Grid,
    orbit: &[usize],
    clock: &Clock,
) -> Result<Option<bool>, Stop> {
    let n = puzzle.size();
    for &c in orbit {
        puzzle.set(c / n, c % n, 0);
    }
    if prover.forces(puzzle) {
        return Ok(Some(true));
    }
    let mut out_of_budget = false;
    for (i, &c) in orbit.iter().enumerate() {
        let (r, col) = (c / n, c % n);
        let own = solution.get(r, col);
        for &d in &orbit[..i] {
            puzzle.set(d / n, d % n, solution.get(d / n, d % n));
        }
        clock.check()?;
        let found = prover.first(puzzle, Some((c, own)), Some(solution), max_nodes, &|| {
            clock.spent()
        });
        for &d in &orbit[..i] {
            puzzle.set(d / n, d % n, 0);
        }
        match found {
            Found::NoSolution(_) => {}
            Found::OutOfBudget => out_of_budget = true,
            Found::Solution(_) => return Ok(Some(false)),
        }
    }
    Ok(if out_of_budget { None } else { Some(true) })
}

/// A random full grid under `rules` (see the module docs), or `None` when
/// no grid fits them (jigsaw regions that admit no solution).
fn random_grid(
    shape: Shape,
    rules: &Rules,
    rng: &mut Rng,
    clock: &Clock,
) -> Result<Option<Grid>, Stop> {
    let n = shape.size();
    let problem = matrix(&Grid::empty(shape), rules, Cells::All, Order::Shuffled(rng))?;
    // A budget per try, then new random choices: the search for a full
    // grid has rare long runs.
    let budget = 200 * (n * n) as u64;
    for _ in 0..64 {
        clock.check()?;
        let mut solver = Solver::new(&problem)
            .forced_first(true)
            .seed(rng.next_u64())
            .limits(clock.limits(Limits::default().max_nodes(budget)));
        match solver.first() {
            Ok(Some(solution)) => {
                let mut grid = Grid::empty(shape);
                for p in solution.labels(&problem) {
                    grid.set(usize::from(p.row), usize::from(p.col), p.value);
                }
                return Ok(Some(grid));
            }
            Ok(None) => return Ok(None),
            Err(_) => {}
        }
    }
    Ok(None)
}

/// Random jigsaw regions of an `n`×`n` grid: `n` regions of `n` cells, each
/// connected (through cells sharing a side).
///
/// Starts from the boxes (or, for a side with no box shape, the rows) and
/// swaps the regions of two neighbouring cells many times over, keeping a
/// swap only when both regions stay connected.
///
/// ```
/// use exactly_puzzles::sudoku::generate::{random_regions, Rng};
/// let regions = random_regions(9, &mut Rng::new(5))?;
/// assert_eq!(regions.size(), 9);
/// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
/// ```
pub fn random_regions(n: usize, rng: &mut Rng) -> Result<Regions, SudokuError> {
    if n == 0 || n > Shape::MAX_SIZE {
        return Err(SudokuError::BadGrid(format!(
            "jigsaw regions of a {n}x{n} grid: the side must be between 1 and 64"
        )));
    }
    let mut of: Vec<u8> = match Shape::infer(n) {
        Some(shape) => (0..n * n)
            .map(|i| shape.box_of(i / n, i % n) as u8)
            .collect(),
        None => (0..n * n).map(|i| (i / n) as u8).collect(),
    };
    let neighbours = |i: usize| {
        let (r, c) = (i / n, i % n);
        let mut out = Vec::with_capacity(4);
        if r > 0 {
            out.push(i - n);
        }
        if r + 1 < n {
            out.push(i + n);
        }
        if c > 0 {
            out.push(i - 1);
        }
        if c + 1 < n {
            out.push(i + 1);
        }
        out
    };
    let connected = |of: &[u8], region: u8| {
        let cells: Vec<usize> = (0..n * n).filter(|&i| of[i] == region).collect();
        let Some(&start) = cells.first() else {
            return true;
        };
        let mut seen = vec![false; n * n];
        let mut stack = vec![start];
        seen[start] = true;
        let mut reached = 1;
        while let Some(i) = stack.pop() {
            for j in neighbours(i) {
                if !seen[j] && of[j] == region {
                    seen[j] = true;
                    reached += 1;
                    stack.push(j);
                }
            }
        }
        reached == cells.len()
    };
    let mut swaps = 0;
    let wanted = 4 * n * n;
    let mut tries = 0;
    while swaps < wanted && tries < 100 * wanted {
        tries += 1;
        let a = rng.below(n * n);
        let near = neighbours(a);
        let b = near[rng.below(near.len())];
        if of[a] == of[b] {
            continue;
        }
        // a and b trade regions: a cell of b's region next to a, and the
        // cell a beside it, change sides.
        let (ra, rb) = (of[a], of[b]);
        // Pick a cell of region rb adjacent to a's region other than b, so
        // that sizes are kept: a joins rb, and some cell c of rb joins ra.
        let candidates: Vec<usize> = (0..n * n)
            .filter(|&c| {
                c != b && of[c] == rb && neighbours(c).iter().any(|&d| of[d] == ra && d != a)
            })
            .collect();
        if candidates.is_empty() {
            continue;
        }
        let c = candidates[rng.below(candidates.len())];
        of[a] = rb;
        of[c] = ra;
        if connected(&of, ra) && connected(&of, rb) {
            swaps += 1;
        } else {
            of[a] = ra;
            of[c] = rb;
        }
    }
    Regions::new(n, of)
}
