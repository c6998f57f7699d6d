//! Target sudoku: the solution with the largest weighted score.

use std::ops::ControlFlow;

use exactly::format::{ParseError, ParseErrorKind};
use exactly::{Limits, Outcome, Solver};

use super::{decode, encode_with, Grid, Rules, Shape, SudokuError};

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
        let bad = |line: usize, column: usize, message: String| {
            SudokuError::Parse(ParseError::invalid(line, column, message))
        };
        // Each row: its line, the column after its last number, its numbers.
        let mut rows: Vec<(usize, usize, Vec<u64>)> = Vec::new();
        for (i, line) in exactly::format::lines(text).enumerate() {
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
            for (column, token) in exactly::format::tokens(line) {
                if row.len() == Shape::MAX_SIZE {
                    return Err(bad(
                        i + 1,
                        column,
                        format!("weights: more than {} numbers on a row", Shape::MAX_SIZE),
                    ));
                }
                let value = token.parse::<u64>().map_err(|_| {
                    if token.bytes().all(|b| b.is_ascii_digit()) {
                        let what = format!("weight {token} is above the largest, {}", u64::MAX);
                        bad(i + 1, column, what)
                    } else {
                        let kind = ParseErrorKind::Expected {
                            expected: "a non-negative integer weight".into(),
                            found: token.to_string(),
                        };
                        SudokuError::Parse(ParseError::new(i + 1, column, kind))
                    }
                })?;
                row.push(value);
                end = column + token.chars().count();
            }
            rows.push((i + 1, end, row));
        }
        let size = rows.len();
        if size == 0 {
            return Err(bad(
                exactly::format::lines(text).count().max(1),
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
    match best_score_within(puzzle, rules, weights, method, &Limits::default())? {
        Target::Best(score, grid) => Ok(Some((score, grid))),
        Target::NoSolution | Target::Stopped(_) => Ok(None),
    }
}

/// The answer of [`best_score_within`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Target {
    /// The largest score and a solution reaching it.
    Best(u128, Grid),
    /// The puzzle has no solution.
    NoSolution,
    /// A budget ran out before the search was done: the largest score is
    /// unknown.
    Stopped(exactly::StopReason),
}

/// [`best_score`] within a budget (nodes, time, cancel flag; a solution
/// budget is ignored) for the one search: a search that runs out of it
/// answers [`Target::Stopped`], never a score it has not proven.
///
/// ```
/// use exactly::{Limits, StopReason};
/// use exactly_puzzles::sudoku::{self, Grid, Method, Rules, Shape, Target, Weights};
/// let empty = Grid::empty(Shape::new(3, 3)?);
/// let w = Weights::rings(9);
/// let tiny = Limits::default().max_nodes(10);
/// let answer = sudoku::best_score_within(&empty, &Rules::default(), &w, Method::Enumerate, &tiny)?;
/// assert_eq!(answer, Target::Stopped(StopReason::NodeLimit));
/// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
/// ```
pub fn best_score_within(
    puzzle: &Grid,
    rules: &Rules,
    weights: &Weights,
    method: Method,
    limits: &Limits,
) -> Result<Target, SudokuError> {
    let mut limits = limits.clone();
    limits.solutions = None;
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
        return Ok(Target::Best(score(puzzle), puzzle.clone()));
    }
    let problem = encode_with(puzzle, rules)?;
    let (best, outcome) = match method {
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
            let (found, outcome) = exactly::multi::CostSolver::new(&costed)
                .limits(limits)
                .min_cost();
            (found.map(|c| decode(puzzle, &costed, &c.solution)), outcome)
        }
        Method::Enumerate => {
            let mut best: Option<(u128, Grid)> = None;
            let outcome = Solver::new(&problem)
                .forced_first(true)
                .limits(limits)
                .for_each(|s| {
                    let grid = decode(puzzle, &problem, s);
                    let value = score(&grid);
                    match &best {
                        Some((b, _)) if *b >= value => {}
                        _ => best = Some((value, grid)),
                    }
                    ControlFlow::Continue(())
                });
            (best.map(|(_, g)| g), outcome)
        }
    };
    if let Outcome::Stopped(reason) = outcome {
        return Ok(Target::Stopped(reason));
    }
    match best {
        None => Ok(Target::NoSolution),
        Some(grid) if grid.solves_with(puzzle, rules) => Ok(Target::Best(score(&grid), grid)),
        Some(_) => Err(SudokuError::WrongSolution),
    }
}
