//! Square destroyer (the contest problem POJ 1084): an `n × n` grid of unit
//! squares is drawn with `2n(n + 1)` matchsticks, some perhaps missing;
//! remove the fewest further matchsticks so that no square of any size is
//! left whole.
//!
//! # Numbering
//!
//! As in POJ 1084, sticks are numbered from 1 row by row: the `n` horizontal
//! sticks of a grid line, left to right, then the `n + 1` vertical sticks
//! below it, and so on, ending with the bottom line's `n` horizontal sticks.
//! For `n = 1`: `1` top, `2` left, `3` right, `4` bottom.
//!
//! # Encoding
//!
//! A minimum *cover* ([`exactly::mincover`]), not an exact cover: one primary
//! item `s{size}r{row}c{col}` per square whose sticks are all present, one
//! option `m{k}` per present stick that belongs to such a square, holding the
//! squares it is part of. Removing a stick destroys its squares, so the
//! fewest sticks that destroy every square are the fewest options covering
//! every item at least once.
//!
//! ```
//! use exactly_puzzles::squares::{self, Squares};
//!
//! let puzzle = Squares::new(2)?;
//! let problem = squares::encode(&puzzle)?.expect("the grid has squares");
//! assert_eq!(problem.num_items(), 5); // four unit squares and the 2×2 one
//! let (cover, _) = exactly::mincover::MinCover::new(&problem).solve();
//! let sticks = squares::decode(&problem, &cover.unwrap());
//! assert_eq!(sticks.len(), 3);
//! assert!(puzzle.destroyed_by(&sticks));
//! # Ok::<(), exactly_puzzles::Error>(())
//! ```

use exactly::mincover::Cover;
use exactly::{ColorId, Problem, ProblemBuilder};

use crate::Error;

/// The largest grid accepted: 220 sticks, 385 squares.
pub const MAX_N: usize = 10;

/// A grid with some sticks missing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Squares {
    n: usize,
    /// Per stick (0-based): whether it is missing.
    missing: Vec<bool>,
}

impl Squares {
    /// The intact `n × n` grid (`1 ≤ n ≤ MAX_N`).
    ///
    /// ```
    /// assert_eq!(exactly_puzzles::squares::Squares::new(3)?.sticks(), 24);
    /// assert!(exactly_puzzles::squares::Squares::new(0).is_err());
    /// # Ok::<(), exactly_puzzles::Error>(())
    /// ```
    pub fn new(n: usize) -> Result<Squares, Error> {
        if n == 0 || n > MAX_N {
            return Err(Error::BadSize {
                what: "the grid size",
                value: n,
                reason: "must be between 1 and 10",
            });
        }
        Ok(Squares {
            n,
            missing: vec![false; 2 * n * (n + 1)],
        })
    }

    /// The grid with the sticks numbered in `removed` (from 1) missing;
    /// repeats are allowed.
    ///
    /// ```
    /// let s = exactly_puzzles::squares::Squares::with_removed(1, &[1])?;
    /// assert_eq!(s.present(), vec![2, 3, 4]);
    /// assert!(exactly_puzzles::squares::Squares::with_removed(1, &[5]).is_err());
    /// # Ok::<(), exactly_puzzles::Error>(())
    /// ```
    pub fn with_removed(n: usize, removed: &[usize]) -> Result<Squares, Error> {
        let mut grid = Squares::new(n)?;
        for &k in removed {
            if k == 0 || k > grid.sticks() {
                return Err(Error::BadSize {
                    what: "a matchstick number",
                    value: k,
                    reason: "must be between 1 and 2n(n+1)",
                });
            }
            grid.missing[k - 1] = true;
        }
        Ok(grid)
    }

    /// The grid size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The number of sticks of the intact grid, `2n(n + 1)`.
    pub fn sticks(&self) -> usize {
        self.missing.len()
    }

    /// The numbers of the sticks present.
    pub fn present(&self) -> Vec<usize> {
        (1..=self.sticks())
            .filter(|&k| !self.missing[k - 1])
            .collect()
    }

    /// Number (from 1) of the horizontal stick on grid line `row`
    /// (`0..=n`), column `col` (`0..n`).
    pub fn horizontal(&self, row: usize, col: usize) -> usize {
        row * (2 * self.n + 1) + col + 1
    }

    /// Number (from 1) of the vertical stick in row `row` (`0..n`) on grid
    /// column line `col` (`0..=n`).
    pub fn vertical(&self, row: usize, col: usize) -> usize {
        row * (2 * self.n + 1) + self.n + col + 1
    }

    /// Every square of the full grid as `(size, row, col, sticks)`.
    pub fn all_squares(&self) -> Vec<(usize, usize, usize, Vec<usize>)> {
        let n = self.n;
        let mut out = Vec::new();
        for size in 1..=n {
            for row in 0..=n - size {
                for col in 0..=n - size {
                    let mut sticks = Vec::with_capacity(4 * size);
                    for k in 0..size {
                        sticks.push(self.horizontal(row, col + k));
                        sticks.push(self.horizontal(row + size, col + k));
                        sticks.push(self.vertical(row + k, col));
                        sticks.push(self.vertical(row + k, col + size));
                    }
                    sticks.sort_unstable();
                    out.push((size, row, col, sticks));
                }
            }
        }
        out
    }

    /// Whether removing `sticks` (numbers from 1) as well leaves no square.
    ///
    /// ```
    /// let s = exactly_puzzles::squares::Squares::new(1)?;
    /// assert!(!s.destroyed_by(&[]));
    /// assert!(s.destroyed_by(&[4]));
    /// # Ok::<(), exactly_puzzles::Error>(())
    /// ```
    pub fn destroyed_by(&self, sticks: &[usize]) -> bool {
        let gone = |k: usize| self.missing[k - 1] || sticks.contains(&k);
        self.all_squares()
            .iter()
            .all(|(_, _, _, s)| s.iter().any(|&k| gone(k)))
    }
}

/// The problem for `grid` (see the module docs): labels are stick numbers.
/// `Ok(None)` when no square is left, so nothing needs removing.
pub fn encode(grid: &Squares) -> Result<Option<Problem<usize>>, Error> {
    let squares: Vec<_> = grid
        .all_squares()
        .into_iter()
        .filter(|(_, _, _, sticks)| sticks.iter().all(|&k| !grid.missing[k - 1]))
        .collect();
    if squares.is_empty() {
        return Ok(None);
    }
    let mut b = ProblemBuilder::new();
    let mut of_stick: Vec<Vec<(exactly::ItemId, ColorId)>> = vec![Vec::new(); grid.sticks()];
    for (size, row, col, sticks) in &squares {
        let item = b.primary(&format!("s{size}r{row}c{col}"))?;
        for &k in sticks {
            of_stick[k - 1].push((item, ColorId::NONE));
        }
    }
    for (k, items) in of_stick.into_iter().enumerate() {
        if !items.is_empty() {
            b.add_option(k + 1, items)?;
        }
    }
    Ok(Some(b.build()?))
}

/// The sticks a cover removes, sorted.
pub fn decode(problem: &Problem<usize>, cover: &Cover) -> Vec<usize> {
    let mut sticks: Vec<usize> = cover.options.iter().map(|&o| *problem.label(o)).collect();
    sticks.sort_unstable();
    sticks
}

/// Writes the encoding in Knuth's DLX format (options in stick order, one
/// line per stick that is part of a square), for `exactly cover --min`.
///
/// ```
/// let mut out = Vec::new();
/// exactly_puzzles::squares::write_dlx(&exactly_puzzles::squares::Squares::new(1)?, &mut out)?;
/// assert!(String::from_utf8(out).unwrap().ends_with("s1r0c0\ns1r0c0\ns1r0c0\ns1r0c0\ns1r0c0\n"));
/// # Ok::<(), exactly_puzzles::Error>(())
/// ```
pub fn write_dlx(grid: &Squares, out: &mut impl std::io::Write) -> Result<(), Error> {
    match encode(grid)? {
        Some(problem) => exactly::format::write_dlx(&problem, out)?,
        // No square is left: a problem with nothing to cover.
        None => writeln!(out, "| no square is left: nothing to cover")?,
    }
    Ok(())
}

/// The fewest sticks to remove from `grid`, sorted, by IDA* on the encoding.
///
/// ```
/// let grid = exactly_puzzles::squares::Squares::new(3)?;
/// assert_eq!(exactly_puzzles::squares::solve(&grid)?.len(), 6);
/// # Ok::<(), exactly_puzzles::Error>(())
/// ```
pub fn solve(grid: &Squares) -> Result<Vec<usize>, Error> {
    match solve_within(grid, &exactly::Limits::default())? {
        Ok(sticks) => Ok(sticks),
        // No budget: the search runs to its end.
        Err(reason) => unreachable!("a search without a budget stopped: {reason}"),
    }
}

/// [`solve`] within a budget (nodes, time, cancel flag): the sticks, or
/// why the search stopped before it proved the fewest.
///
/// ```
/// use exactly::{Limits, StopReason};
/// let grid = exactly_puzzles::squares::Squares::new(5)?;
/// let tiny = Limits::default().max_nodes(10);
/// assert_eq!(exactly_puzzles::squares::solve_within(&grid, &tiny)?, Err(StopReason::NodeLimit));
/// # Ok::<(), exactly_puzzles::Error>(())
/// ```
pub fn solve_within(
    grid: &Squares,
    limits: &exactly::Limits,
) -> Result<Result<Vec<usize>, exactly::StopReason>, Error> {
    let Some(problem) = encode(grid)? else {
        return Ok(Ok(Vec::new()));
    };
    let mut solver = exactly::mincover::MinCover::new(&problem).limits(limits.clone());
    match solver.solve() {
        (_, exactly::Outcome::Stopped(reason)) => Ok(Err(reason)),
        // Every square has a present stick, so a cover always exists.
        (cover, _) => Ok(Ok(cover.map_or_else(Vec::new, |c| decode(&problem, &c)))),
    }
}
