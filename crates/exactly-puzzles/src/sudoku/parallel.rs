//! Sudoku on threads: one hard puzzle split across them, and a batch of
//! puzzles shared among them. Both run on [`exactly::parallel::Pool`].

use std::borrow::Cow;
use std::collections::HashMap;
use std::convert::Infallible;
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex, PoisonError};

use exactly::parallel::{BadPrefix, Failed, Item, Pool};
use exactly::time::Instant;
use exactly::{Limits, Outcome, PrefixError, Solution, StopReason};

use super::bands;
use super::encode::{encode_within, encoding_stop};
use super::solve::{answer_of, check_both, solve_within, sudoku_engine, sudoku_solver};
use super::{
    decode, solve_with, Answer, Grid, Puzzle, Record, Rules, Shape, SudokuError, Template,
    TemplateSolver, Verdict,
};

/// Subproblems per thread for [`solve_parallel`], so that threads finishing
/// early find more work.
const SUBPROBLEMS_PER_THREAD: usize = 16;

/// [`solve_with`] on `threads` threads, for a hard puzzle on its own: the
/// search tree is cut into subproblems (the options chosen nearest the
/// root) that the threads take in turn, stopping once `max_solutions` are
/// found. `limits` bounds the whole puzzle; its time counts from the call.
/// The answer is the same as [`solve_with`]'s but for the node count and,
/// when the puzzle has more than one solution, which ones are shown: the
/// first in the order of the subproblems, the same whatever the threads
/// and however fast each runs. With one thread, or a node budget in
/// `limits`, it is [`solve_with`] within `limits`: a node budget is a
/// fixed amount of work whose answer is the same on every run, where
/// threads sharing it would each explore a part that depends on their
/// timing. A time budget and a cancel flag stop all the threads; a search
/// stopped before its end answers [`Verdict::Unknown`]. A classic 9x9
/// grid under the plain rules without a budget is [`solve_with`] too, on
/// bands (see [`TemplateSolver`]), one thread: there the forum's hardest
/// puzzles take under half a millisecond on average (DESIGN.md).
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
    // A classic 9x9 grid without a budget goes to the band search on this
    // thread (the forum's hardest puzzles take under half a millisecond
    // there on average).
    let bands = bands::takes(puzzle.shape(), rules, limits);
    if threads <= 1 || limits.nodes.is_some() || bands {
        return solve_within(puzzle, max_solutions, rules, limits);
    }
    if !puzzle.cells.contains(&0) {
        return solve_with(puzzle, max_solutions, rules);
    }
    // The encoding of a large grid takes long too: it keeps to the time
    // budget and the cancel flag.
    let stop = encoding_stop(limits, Some(start));
    let Some(problem) = encode_within(puzzle, rules, &stop)? else {
        return Ok(answer_of(max_solutions, 0, [None, None], 0, true));
    };
    // So does the split, within the whole budget: a large grid's first
    // levels take long as well.
    let mut left = Limits::default();
    if let Some(time) = limits.time {
        match time.checked_sub(start.elapsed()) {
            Some(rest) => left = left.max_time(rest),
            None => return Ok(answer_of(max_solutions, 0, [None, None], 0, true)),
        }
    }
    if let Some(cancel) = &limits.cancel {
        left = left.cancel_flag(std::sync::Arc::clone(cancel));
    }
    let (split, above, outcome) = exactly::parallel::split_with_solutions_within(
        &problem,
        sudoku_engine(&problem),
        SUBPROBLEMS_PER_THREAD * threads,
        problem.num_primary(),
        &left,
    );
    if !outcome.is_complete() {
        // Its subproblems do not cover the tree: nothing of it is used.
        return Ok(answer_of(max_solutions, 0, [None, None], split.nodes, true));
    }
    // The solutions found (up to `max_solutions`) and the first two, in
    // the order of the subproblems: those of the split itself first.
    let found = Mutex::new(Found::new(max_solutions, split.subproblems.len() + 1));
    let lock = || found.lock().unwrap_or_else(|e| e.into_inner());
    {
        let mut found = lock();
        for (seq, options) in above.iter().enumerate() {
            let solution = Solution::new(options.clone());
            found.record((0, seq), || decode(puzzle, &problem, &solution));
        }
        found.resolve(0);
    }
    let (mut nodes, mut out_of_budget) = (split.nodes, false);
    if !lock().settled() {
        // The pool's time counts from the call.
        let mut budget = Limits::default();
        if let Some(time) = limits.time {
            budget = budget.max_time(time);
        }
        if let Some(cancel) = &limits.cancel {
            budget = budget.cancel_flag(std::sync::Arc::clone(cancel));
        }
        let items: Vec<usize> = (0..split.subproblems.len()).collect();
        // An item stops the pool (outcome `Caller`) once the answer is
        // settled; otherwise it runs to its end, or stops early when no
        // later solution of it can be shown or counted.
        let settle = |found: &Found, outcome: Outcome| match outcome {
            Outcome::Complete if found.settled() => Outcome::Stopped(StopReason::Caller),
            outcome => outcome,
        };
        let run = Pool::new(threads)
            .limits(&budget)
            .started(start)
            .run(
                &items,
                || None,
                |slot, i, control| {
                    let key = i + 1;
                    {
                        let mut found = lock();
                        if found.enough_from(key) {
                            found.resolve(key);
                            return Ok(Item {
                                value: (),
                                nodes: 0,
                                outcome: settle(&found, Outcome::Complete),
                            });
                        }
                    }
                    let solver = match slot.take() {
                        Some(solver) => solver,
                        None => sudoku_solver(&problem, &Limits::default()),
                    };
                    let solver = slot.insert(solver.limits(control.limits()));
                    // Subproblems share the givens' long prefix: only
                    // where they differ is replayed.
                    solver.reset_to(&split.subproblems[i])?;
                    let mut seq = 0;
                    let outcome = solver.for_each(|s| {
                        let mut found = lock();
                        found.record((key, seq), || decode(puzzle, &problem, s));
                        seq += 1;
                        if found.enough_from(key) {
                            ControlFlow::Break(())
                        } else {
                            ControlFlow::Continue(())
                        }
                    });
                    let mut found = lock();
                    let outcome = match outcome {
                        // To its end, or as far as it is needed.
                        Outcome::Complete | Outcome::Stopped(StopReason::Caller) => {
                            found.resolve(key);
                            settle(&found, Outcome::Complete)
                        }
                        stopped => stopped,
                    };
                    Ok(Item {
                        value: (),
                        nodes: solver.stats().nodes,
                        outcome,
                    })
                },
                |_, _| {},
            )
            // Prefixes from this problem's own split replay.
            .map_err(|failed: Failed<PrefixError>| BadPrefix::from(failed))?;
        nodes += run.nodes;
        // `Caller` is this function's own stop once the answer is settled.
        out_of_budget = matches!(run.outcome, Outcome::Stopped(r) if r != StopReason::Caller);
    }
    let (count, grids) = found
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .answer();
    let stopped = out_of_budget && count < max_solutions;
    check_both(puzzle, rules, &grids)?;
    Ok(answer_of(max_solutions, count, grids, nodes, stopped))
}

/// The solutions of a split search, counted up to a maximum, and the first
/// two of them in a fixed order whatever the threads: by subproblem (the
/// split's own solutions first, as key 0), then in the order each
/// subproblem's search finds them.
struct Found {
    max: u64,
    count: u64,
    /// The first solutions so far (at most two, and at most `max`), by key.
    shown: Vec<((usize, usize), Grid)>,
    /// Whether each subproblem is resolved: searched to its end, or as far
    /// as its solutions could be shown or counted.
    resolved: Vec<bool>,
    /// Every subproblem below this one is resolved.
    low: usize,
}

impl Found {
    fn new(max: u64, subproblems: usize) -> Found {
        Found {
            max,
            count: 0,
            shown: Vec::new(),
            resolved: vec![false; subproblems],
            low: 0,
        }
    }

    /// Counts the solution with `key`, and keeps it (made by `grid`) when
    /// it is among the first.
    fn record(&mut self, key: (usize, usize), grid: impl FnOnce() -> Grid) {
        self.count = (self.count + 1).min(self.max);
        let keep = usize::try_from(self.max.min(2)).unwrap_or(2);
        let at = self.shown.partition_point(|(k, _)| *k < key);
        if at < keep {
            self.shown.insert(at, (key, grid()));
            self.shown.truncate(keep);
        }
    }

    /// Whether subproblem `index` need not go on: there are enough
    /// solutions, and those shown come no later than its next one.
    fn enough_from(&self, index: usize) -> bool {
        self.count >= self.max && self.shown.last().is_some_and(|((i, _), _)| *i <= index)
    }

    fn resolve(&mut self, index: usize) {
        self.resolved[index] = true;
        while self.resolved.get(self.low) == Some(&true) {
            self.low += 1;
        }
    }

    /// Whether the answer is settled: enough solutions, and no subproblem
    /// unresolved before the last one shown.
    fn settled(&self) -> bool {
        self.enough_from(self.low)
    }

    /// The count and the first two solutions.
    fn answer(self) -> (u64, [Option<Grid>; 2]) {
        let mut grids = self.shown.into_iter().map(|(_, grid)| grid);
        (self.count, [grids.next(), grids.next()])
    }
}

/// What became of one record of a batch: the puzzle and its answer, or why
/// it has none.
pub type Solved = Result<(Puzzle, Answer), SudokuError>;

/// How [`solve_batch`] searches each record.
///
/// A batch also keeps, from one call to the next, what its workers learned
/// of the puzzles: on the classic 9x9 grid, which band search has lately
/// paid off first (see [`TemplateSolver`](super::TemplateSolver)). A file
/// solved a chunk at a time then runs as it would in one call. The answers
/// are the same either way; only [`Answer::nodes`] and the time differ.
/// Clones share it.
///
/// ```
/// use exactly::Limits;
/// use exactly_puzzles::sudoku::{Batch, Rules};
/// let batch = Batch::new(2, Rules::default(), Limits::default(), 4);
/// assert_eq!(batch.put_off, Batch::PUT_OFF_NODES);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Batch {
    /// Solutions to look for in each puzzle (at least 1).
    pub max_solutions: u64,
    /// The rules (a record's own regions take the place of theirs).
    pub rules: Rules,
    /// The budget of each puzzle.
    pub limits: Limits,
    /// Threads to run on.
    pub threads: usize,
    /// On several threads and without a budget in `limits`, a puzzle
    /// that takes more nodes than this is put off, and split across every
    /// thread once the rest are done ([`solve_parallel`]): one hard puzzle
    /// then no longer keeps a single thread busy at the end. Classic 9x9
    /// puzzles under the plain rules, searched on bands (see
    /// [`TemplateSolver`](super::TemplateSolver)), are never put off.
    pub put_off: u64,
    /// The leanings the last call's workers ended with, for the next
    /// call's to start from.
    leanings: Arc<Mutex<Vec<bands::Leaning>>>,
}

impl Batch {
    /// The default [`Batch::put_off`]: on `liviniuk_benchmarks_25x25.txt`
    /// it puts off the two puzzles that take longest.
    pub const PUT_OFF_NODES: u64 = 100_000;

    /// A batch search, putting off puzzles past [`Batch::PUT_OFF_NODES`].
    pub fn new(max_solutions: u64, rules: Rules, limits: Limits, threads: usize) -> Batch {
        Batch {
            max_solutions,
            rules,
            limits,
            threads: threads.max(1),
            put_off: Batch::PUT_OFF_NODES,
            leanings: Arc::default(),
        }
    }

    /// Sets [`Batch::put_off`].
    pub fn put_off(mut self, nodes: u64) -> Batch {
        self.put_off = nodes;
        self
    }
}

type Templates = HashMap<Shape, Result<Template, SudokuError>>;

/// A worker's solvers, one per shape, and the leaning its solvers start
/// from, handed back to the batch when the worker ends.
/// PERF: a batch is mostly of one shape, found first in a list, where a
/// map hashed the shape of every record; there are a few hundred shapes
/// at most ([`Shape::MAX_SIZE`]).
struct Worker<'t> {
    solvers: Vec<(Shape, TemplateSolver<'t>)>,
    leaning: bands::Leaning,
    leanings: &'t Mutex<Vec<bands::Leaning>>,
}

impl<'t> Worker<'t> {
    /// A worker's solvers, starting from a leaning a worker of the last
    /// call ended with.
    fn new(leanings: &'t Mutex<Vec<bands::Leaning>>) -> Worker<'t> {
        let leaning = leanings
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .unwrap_or_default();
        Worker {
            solvers: Vec::new(),
            leaning,
            leanings,
        }
    }
}

impl Drop for Worker<'_> {
    /// Hands the leaning of the solver for the classic grid (the one the
    /// band search uses) back to the batch.
    fn drop(&mut self) {
        let leaning = self
            .solvers
            .iter()
            .find(|(shape, _)| super::grid::classic_shape(*shape))
            .map_or(self.leaning, |(_, solver)| solver.leaning());
        self.leanings
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(leaning);
    }
}

/// Solves one record with the worker's solver for its shape: its error,
/// if it holds one.
fn solve_one<'t>(
    templates: &'t Templates,
    worker: &mut Worker<'t>,
    record: &Record,
    batch: &Batch,
    limits: &Limits,
) -> Result<Answer, SudokuError> {
    let puzzle = record.puzzle.as_ref().map_err(Clone::clone)?;
    if puzzle.regions.is_some() {
        // A jigsaw with its own regions: encoded on its own, on this thread.
        return solve_split(record, batch, limits, 1);
    }
    let shape = puzzle.grid.shape();
    let at = match worker.solvers.iter().position(|(s, _)| *s == shape) {
        Some(at) => at,
        None => match templates.get(&shape) {
            Some(Ok(t)) => {
                let solver = t.solver().limits(limits.clone());
                worker
                    .solvers
                    .push((shape, solver.leaning_from(worker.leaning)));
                worker.solvers.len() - 1
            }
            Some(Err(err)) => return Err(err.clone()),
            // `solve_batch` made a template for every valid record's shape.
            None => {
                return Err(SudokuError::ShapeMismatch {
                    size: shape.size(),
                    box_rows: shape.box_rows(),
                    box_cols: shape.box_cols(),
                })
            }
        },
    };
    worker.solvers[at]
        .1
        .solve(&puzzle.grid, batch.max_solutions)
}

/// Solves one record on `threads` threads ([`solve_parallel`]) within
/// `limits`: its error, if it holds one.
fn solve_split(
    record: &Record,
    batch: &Batch,
    limits: &Limits,
    threads: usize,
) -> Result<Answer, SudokuError> {
    let puzzle = record.puzzle.as_ref().map_err(Clone::clone)?;
    let rules = match &puzzle.regions {
        Some(regions) => Cow::Owned(batch.rules.clone().regions(Some(regions.clone()))),
        None => Cow::Borrowed(&batch.rules),
    };
    solve_parallel(&puzzle.grid, batch.max_solutions, &rules, limits, threads)
}

/// A record's result from its answer: the puzzle moves in with it (no
/// copy), and a record that holds an error keeps that error.
fn solved(record: Record, answer: Result<Answer, SudokuError>) -> (usize, Solved) {
    let solved = match record.puzzle {
        Ok(puzzle) => answer.map(|a| (puzzle, a)),
        Err(e) => Err(e),
    };
    (record.line, solved)
}

/// Solves every record of a batch on [`Batch::threads`] threads and
/// returns each record's line and result, in the records' order, whatever
/// the threads. `progress(k)` is called as `k` more puzzles are done.
///
/// One [`Template`] is made per grid shape and shared by the threads, each
/// keeping a solver per shape; records are handed out in order
/// ([`exactly::parallel::Pool`]). With fewer puzzles than threads, each
/// puzzle is split across them all in turn. Puzzles put off
/// ([`Batch::put_off`]) are split across every thread at the end.
///
/// ```
/// use exactly::Limits;
/// use exactly_puzzles::sudoku::{self, Batch, Rules, Verdict};
/// let text = "34..\n....\n...2\n.3..\n\n11..............\n";
/// let batch = Batch::new(2, Rules::default(), Limits::default(), 2);
/// let solved = sudoku::solve_batch(sudoku::parse(text, None), &batch, &|_| {});
/// assert_eq!(solved.len(), 2);
/// assert_eq!(solved[0].1.as_ref().unwrap().1.verdict, Verdict::Unique);
/// assert!(solved[1].1.is_err());
/// ```
pub fn solve_batch(
    records: Vec<Record>,
    batch: &Batch,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<(usize, Solved)> {
    // One template per grid shape in the input, shared by the workers; each
    // worker keeps a solver per shape.
    let mut templates: Templates = HashMap::new();
    let mut last = None;
    for record in &records {
        if let Some(p) = record.puzzle.as_ref().ok().filter(|p| p.regions.is_none()) {
            let shape = p.grid.shape();
            // PERF: a run of one shape is hashed once.
            if last != Some(shape) {
                templates
                    .entry(shape)
                    .or_insert_with(|| Template::new(shape, &batch.rules));
                last = Some(shape);
            }
        }
    }
    let templates = &templates;
    let threads = batch.threads.max(1);
    if threads > 1 && records.len() < threads {
        // Fewer puzzles than threads: each in turn, split across them all.
        return records
            .into_iter()
            .map(|r| {
                let answer = solve_split(&r, batch, &batch.limits, threads);
                progress(1);
                solved(r, answer)
            })
            .collect();
    }
    let limits = &batch.limits;
    let put_off =
        threads > 1 && limits.nodes.is_none() && limits.time.is_none() && limits.cancel.is_none();
    let short = Limits::default().max_nodes(batch.put_off);
    // A classic 9x9 grid goes to the band search, which takes no budget
    // and no puzzle of that size long: none is put off.
    let first = |record: &Record| match &record.puzzle {
        Ok(p)
            if put_off
                && !(p.regions.is_none() && bands::takes(p.grid.shape(), &batch.rules, limits)) =>
        {
            &short
        }
        _ => limits,
    };
    let is_put_off = |s: &Result<Answer, SudokuError>| {
        put_off && matches!(s, Ok(a) if a.verdict == Verdict::Unknown)
    };
    let items: Vec<usize> = (0..records.len()).collect();
    let run = Pool::new(threads).run(
        &items,
        || Worker::new(&batch.leanings),
        |worker, i, _| {
            let record = &records[i];
            let solved = solve_one(templates, worker, record, batch, first(record));
            let nodes = solved.as_ref().map_or(0, |a| a.nodes);
            Ok::<_, Infallible>(Item {
                value: solved,
                nodes,
                outcome: Outcome::Complete,
            })
        },
        |_, solved| {
            if !is_put_off(solved) {
                progress(1);
            }
        },
    );
    let done = match run {
        Ok(run) => run.items,
        Err(failed) => match failed.error {},
    };
    // Every item ran (nothing stops this pool), and the run gives them by
    // index: each record's puzzle moves into its result.
    debug_assert_eq!(done.len(), records.len());
    done.into_iter()
        .zip(records)
        .enumerate()
        .map(|(k, ((i, item), record))| {
            debug_assert_eq!(i, k, "the run gives its items by index");
            let mut answer = item.value;
            if is_put_off(&answer) {
                answer = solve_split(&record, batch, limits, threads);
                progress(1);
            }
            solved(record, answer)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::{parse, Regions};
    use super::*;

    #[test]
    fn threads_keep_the_order() {
        let text = "1.3.\n..1.\n.1..\n2.4.\n\n".repeat(40) + "11..............\n";
        let batch = |threads| Batch::new(2, Rules::default(), Limits::default(), threads);
        let one = solve_batch(parse(&text, None), &batch(1), &|_| {});
        let four = solve_batch(parse(&text, None), &batch(4), &|_| {});
        assert_eq!(one.len(), 41);
        let lines = |v: &[(usize, Solved)]| v.iter().map(|(l, _)| *l).collect::<Vec<_>>();
        assert_eq!(lines(&one), lines(&four));
        assert!(four[40].1.is_err());
    }

    #[test]
    fn a_batch_carries_its_leaning_from_call_to_call() {
        // The empty grid has several solutions: after two, a solver on the
        // classic grid runs the plain search alone.
        let empty = ".".repeat(81) + "\n";
        let nodes = |batch: &Batch, puzzles: usize| -> Vec<u64> {
            let solved = solve_batch(parse(&empty.repeat(puzzles), None), batch, &|_| {});
            solved
                .iter()
                .map(|(_, s)| s.as_ref().unwrap().1.nodes)
                .collect()
        };
        let batch = Batch::new(2, Rules::default(), Limits::default(), 1);
        let first = nodes(&batch, 3);
        assert_eq!(first[0], first[1]);
        assert!(first[2] < first[0], "{first:?}");
        // The next call, and a clone's, start where the last one ended.
        assert_eq!(nodes(&batch, 1), [first[2]]);
        assert_eq!(nodes(&batch.clone(), 1), [first[2]]);
        // A new batch starts afresh.
        let fresh = Batch::new(2, Rules::default(), Limits::default(), 1);
        assert_eq!(nodes(&fresh, 1), [first[0]]);
    }

    #[test]
    fn puzzles_put_off_get_the_answers_of_a_serial_run() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/sudoku");
        let mut text = String::new();
        for file in ["9x9.txt", "16x16.txt", "6x6.txt", "invalid.txt"] {
            text += &std::fs::read_to_string(root.join(file)).unwrap();
        }
        // Several solutions, and none.
        text += "12..34..........\n123....4........\n";
        let batch = |threads| Batch::new(2, Rules::default(), Limits::default(), threads);
        let serial = solve_batch(parse(&text, None), &batch(1), &|_| {});
        // Every puzzle but the trivial ones is put off and split.
        let split = solve_batch(parse(&text, None), &batch(3).put_off(5), &|_| {});
        assert_eq!(serial.len(), split.len());
        let mut put_off = 0;
        for ((line, a), (line2, b)) in serial.iter().zip(&split) {
            assert_eq!(line, line2);
            match (a, b) {
                (Ok((_, a)), Ok((_, b))) => {
                    assert_eq!((a.verdict, a.count), (b.verdict, b.count), "line {line}");
                    if a.verdict == Verdict::Unique {
                        assert_eq!(a.solution, b.solution, "line {line}");
                    }
                    put_off += usize::from(a.nodes > 5);
                }
                (Err(a), Err(b)) => assert_eq!(a, b),
                _ => panic!("line {line}: {a:?} against {b:?}"),
            }
        }
        assert!(put_off > 10, "{put_off}");
    }

    #[test]
    fn split_answers_are_those_of_the_serial_search() {
        let jigsaw = Regions::parse("AAAB\nACBB\nDCCB\nDDDC\n").unwrap();
        let mut nine = Grid::empty(Shape::new(3, 3).unwrap());
        nine.set(0, 0, 1);
        nine.set(4, 4, 5);
        let cases = [
            (Grid::empty(Shape::new(2, 2).unwrap()), Rules::default()),
            (
                Grid::empty(Shape::new(2, 2).unwrap()),
                Rules::default().regions(Some(jigsaw)),
            ),
            (nine, Rules::default()),
            (
                Grid::empty(Shape::new(2, 3).unwrap()),
                Rules::default().diagonals(false),
            ),
        ];
        for (grid, rules) in &cases {
            for max in [1, 2, 3, 1000] {
                let serial = solve_within(grid, max, rules, &Limits::default()).unwrap();
                for threads in [2, 3, 4, 7] {
                    // Several times: which thread finds what first varies.
                    for _ in 0..5 {
                        let split =
                            solve_parallel(grid, max, rules, &Limits::default(), threads).unwrap();
                        let shown =
                            |a: &Answer| (a.verdict, a.count, a.solution.clone(), a.second.clone());
                        assert_eq!(
                            shown(&split),
                            shown(&serial),
                            "{grid:?} max {max} threads {threads}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn progress_counts_every_puzzle_once() {
        let text = "1.3.\n..1.\n.1..\n2.4.\n\n".repeat(30) + "11..............\n";
        for threads in [1, 3] {
            let done = std::sync::atomic::AtomicUsize::new(0);
            let batch = Batch::new(2, Rules::default(), Limits::default(), threads).put_off(5);
            let solved = solve_batch(parse(&text, None), &batch, &|k| {
                done.fetch_add(k, std::sync::atomic::Ordering::Relaxed);
            });
            assert_eq!(done.into_inner(), solved.len());
        }
    }
}
