//! One hard puzzle split across threads.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use exactly::time::Instant;
use exactly::{Limits, Outcome, Solution, StopReason};

use super::solve::{answer_of, check_both, solve_within, sudoku_engine, sudoku_solver};
use super::{decode, encode_with, solve_with, Answer, Grid, Rules, SudokuError};

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
