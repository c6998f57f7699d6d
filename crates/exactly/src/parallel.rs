//! Splitting a search into independent subproblems, counting them on many
//! threads, and Knuth's random-probe estimates.
//!
//! A subproblem is named by its *prefix*: the options chosen from the root
//! to reach it. Prefixes depend only on the problem (the branching rule
//! picks the leftmost item with the fewest options, whatever the engine),
//! so they can be written down, sent elsewhere, and solved again with
//! [`Solver::restrict`]. Counts never depend on the number of threads:
//! every solution lies in exactly one subproblem or above the cut.

mod multi;
mod pool;

pub use multi::count_multi;

pub use pool::{read_ahead, watched, Control, Failed, Item, Pool, Run, NODE_SLACK};

use crate::problem::{OptionId, Problem};
use crate::solver::{next_random, Count, Engine, Limits, Outcome, Rest, Solver, StopReason};
use crate::PrefixError;

/// The most threads [`count_split`] and [`count`] start, whatever they are
/// asked for; they never start more than there are subproblems to count.
pub const MAX_THREADS: usize = 1024;

/// Subproblems a count cuts the tree into for each thread ([`count`],
/// [`count_multi`], and the CLI's `count --threads` and MPI runs), so that
/// threads that finish early find more work.
pub const SUBPROBLEMS_PER_THREAD: usize = 64;

/// The tree cut at one depth: the subproblems below the cut and what lies
/// above it.
///
/// Two splits are equal when their public fields are.
#[derive(Clone, Debug, Default)]
pub struct Split {
    /// How many levels below the root the subproblems start.
    pub depth: usize,
    /// The prefixes of the subproblems, in search order.
    pub subproblems: Vec<Vec<OptionId>>,
    /// Solutions found above the cut.
    pub solutions: u128,
    /// Search-tree nodes above the cut (solutions included).
    pub nodes: u64,
    /// Link updates above the cut (see [`crate::Stats`]), so that a count
    /// over the subproblems reports the updates of a count on one thread;
    /// 0 where not known (a split read from a plan).
    pub updates: u64,
    /// What the walk that made the split knew of each subproblem: the
    /// [`Found::mark`] of its prefix, checked when it is counted. Empty for a
    /// split made elsewhere (a plan's).
    pub(crate) found: Found,
}

impl PartialEq for Split {
    fn eq(&self, other: &Split) -> bool {
        (
            self.depth,
            &self.subproblems,
            self.solutions,
            self.nodes,
            self.updates,
        ) == (
            other.depth,
            &other.subproblems,
            other.solutions,
            other.nodes,
            other.updates,
        )
    }
}

impl Eq for Split {}

/// The subproblems a cut of this process found, known by a mark of each
/// prefix and of the problem.
///
/// A worker enters a subproblem by replaying its prefix, which checks at
/// each level that the search branches on an item of the option named
/// there: the choice of that item scans the open items, level after
/// level, and a subproblem of a large sudoku lies thousands of levels
/// down. Where the prefix is one the cut found, unchanged, its options are
/// committed with no such choice. The mark covers the whole prefix and the
/// problem's items and options, so a prefix changed since, or a split
/// made for another problem, is replayed and checked as any other.
#[derive(Clone, Default)]
pub(crate) struct Found {
    marks: Vec<u64>,
}

impl std::fmt::Debug for Found {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} marks", self.marks.len())
    }
}

impl Found {
    /// The marks of `subproblems`, cut from `problem`.
    fn of<L>(problem: &Problem<L>, subproblems: &[Vec<OptionId>]) -> Found {
        let seed = Found::seed(problem);
        Found {
            marks: subproblems.iter().map(|p| Found::mark(seed, p)).collect(),
        }
    }

    /// Whether subproblem `index` is `prefix`, as the cut found it.
    fn knows(&self, seed: u64, index: usize, prefix: &[OptionId]) -> bool {
        self.marks
            .get(index)
            .is_some_and(|&m| m == Found::mark(seed, prefix))
    }

    /// A digest of the problem's items and options.
    fn seed<L>(problem: &Problem<L>) -> u64 {
        let mut h = Found::mix(problem.num_items() as u64, problem.num_primary() as u64);
        for o in problem.option_ids() {
            h = Found::mix(h, u64::MAX);
            for e in problem.option(o) {
                h = Found::mix(h, u64::from(e.item.0) << 32 | u64::from(e.color.0));
            }
        }
        h
    }

    /// A digest of `prefix`, from the problem's `seed`.
    fn mark(seed: u64, prefix: &[OptionId]) -> u64 {
        let pairs = prefix.chunks_exact(2);
        let last = pairs
            .remainder()
            .first()
            .map_or(u64::MAX, |o| u64::from(o.0));
        let h = pairs.fold(seed, |h, p| {
            Found::mix(h, u64::from(p[0].0) << 32 | u64::from(p[1].0))
        });
        Found::mix(Found::mix(h, last), prefix.len() as u64)
    }

    #[inline(always)]
    fn mix(h: u64, v: u64) -> u64 {
        (h ^ v)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29)
            .wrapping_add(0x632B_E59B_D9B4_E019)
    }
}

/// Cuts the tree at the smallest depth that gives at least `min`
/// subproblems (or at the depth where every branch has ended, or at
/// `max_depth`).
///
/// ```
/// # let n = 11; // Langford pairs 1..11 (35,584 solutions), built as `exactly gen langford 11`
/// # let mut text: String = (1..=n).map(|k| format!("d{k} ")).chain((1..=2 * n).map(|i| format!("p{i} "))).collect();
/// # text.push('\n');
/// # for k in 1..=n { for i in 1..2 * n - k { text += &format!("d{k} p{i} p{}\n", i + k + 1); } }
/// let p = exactly::format::parse_dlx(&text)?; // Langford pairs 1..11
/// let split = exactly::parallel::split(&p, exactly::Engine::Auto, 100, 8);
/// assert!(split.subproblems.len() >= 100);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn split<L>(problem: &Problem<L>, engine: Engine, min: usize, max_depth: usize) -> Split {
    unbounded_cut(problem, engine, Aim::exact(min, max_depth), None)
}

/// [`cut`] with no budget, keeping no solutions.
fn unbounded_cut<L>(
    problem: &Problem<L>,
    engine: Engine,
    aim: Aim,
    on: Option<(usize, &Parallel<'_>)>,
) -> Split {
    cut(problem, engine, aim, false, &Limits::default(), on, None).0
}

/// [`split`], with the wide rounds of the cut (each deeper cut is made
/// from the one above it, subproblem by subproblem) walked on up to
/// `threads` threads: the same split, sooner where the cut is a large part
/// of a count on many threads (a step from a frontier of a thousand
/// subproblems to one of fourteen thousand, say).
///
/// ```
/// # let n = 11; // Langford pairs 1..11 (35,584 solutions), built as `exactly gen langford 11`
/// # let mut text: String = (1..=n).map(|k| format!("d{k} ")).chain((1..=2 * n).map(|i| format!("p{i} "))).collect();
/// # text.push('\n');
/// # for k in 1..=n { for i in 1..2 * n - k { text += &format!("d{k} p{i} p{}\n", i + k + 1); } }
/// let p = exactly::format::parse_dlx(&text)?; // Langford pairs 1..11
/// let one = exactly::parallel::split(&p, exactly::Engine::Auto, 1000, 8);
/// assert_eq!(exactly::parallel::split_on(&p, exactly::Engine::Auto, 1000, 8, 4), one);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn split_on<L: Sync>(
    problem: &Problem<L>,
    engine: Engine,
    min: usize,
    max_depth: usize,
    threads: usize,
) -> Split {
    cut_on(
        &Shared::new(problem, engine),
        Aim::exact(min, max_depth),
        threads,
    )
}

/// The cut a count on `threads` threads starts from ([`count`], and the
/// CLI's `count --threads`): [`split_on`] for [`SUBPROBLEMS_PER_THREAD`]
/// subproblems a thread, except that it stops a level short of that,
/// at a depth with at least a quarter as many, where the next depth would
/// hold over four times as many. Both the cut's own walk of that level and
/// the workers' replays of its prefixes would cost about the work at that
/// depth over again, where a quarter of the subproblems balance the
/// threads about as well. (The next depth's size is estimated from a
/// sixteenth of the frontier, by the options of each one's branching item,
/// without trying them.) For 16 threads the 10,000 word-pair options
/// of a 5x5 word rectangle stop at 1,000 subproblems at depth 1 instead of
/// 14,248 at depth 2.
///
/// The split is the tree cut at its depth, as [`split_at`] makes it.
///
/// ```
/// # let n = 11; // Langford pairs 1..11 (35,584 solutions), built as `exactly gen langford 11`
/// # let mut text: String = (1..=n).map(|k| format!("d{k} ")).chain((1..=2 * n).map(|i| format!("p{i} "))).collect();
/// # text.push('\n');
/// # for k in 1..=n { for i in 1..2 * n - k { text += &format!("d{k} p{i} p{}\n", i + k + 1); } }
/// let p = exactly::format::parse_dlx(&text)?; // Langford pairs 1..11
/// let split = exactly::parallel::split_for_count(&p, exactly::Engine::Auto, 4, 8);
/// // At least a quarter of the subproblems asked for 4 threads.
/// let asked = 4 * exactly::parallel::SUBPROBLEMS_PER_THREAD;
/// assert!(split.subproblems.len() >= asked / 4);
/// assert_eq!(exactly::parallel::split_at(&p, exactly::Engine::Auto, split.depth), split);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn split_for_count<L: Sync>(
    problem: &Problem<L>,
    engine: Engine,
    threads: usize,
    max_depth: usize,
) -> Split {
    split_for_count_on(&Shared::new(problem, engine), threads, max_depth)
}

/// [`split_for_count`] with the solvers of its threads cloned from
/// `shared`'s structure.
fn split_for_count_on<L: Sync>(shared: &Shared<'_, L>, threads: usize, max_depth: usize) -> Split {
    let threads = threads.clamp(1, MAX_THREADS);
    let min = SUBPROBLEMS_PER_THREAD * threads;
    let aim = Aim {
        min,
        floor: min / OVERSHOOT,
        max_depth,
    };
    cut_on(shared, aim, threads)
}

/// How far past the subproblems it asks for [`split_for_count`] lets a
/// cut go: it stops at a depth with `1 / OVERSHOOT` of them when the next
/// depth is estimated to hold `OVERSHOOT` times as many.
const OVERSHOOT: usize = 4;

/// [`split_for_count`] estimates the size of the next depth from every
/// `SAMPLE`th subproblem of the frontier ([`next_depth`]).
const SAMPLE: usize = 16;

/// What a cut aims for: the first depth with at least `min` subproblems
/// (or `max_depth`), or a depth with `floor` of them where the next one is
/// estimated to hold over [`OVERSHOOT`] times `min` (`floor == min`: the
/// first depth only).
#[derive(Clone, Copy, Debug)]
struct Aim {
    min: usize,
    floor: usize,
    max_depth: usize,
}

impl Aim {
    /// The first depth with `min` subproblems, or `max_depth`.
    fn exact(min: usize, max_depth: usize) -> Aim {
        Aim {
            min,
            floor: min,
            max_depth,
        }
    }
}

/// [`unbounded_cut`] of `shared`'s problem with its wide rounds on
/// `threads` threads, its solvers cloned from `shared`'s structure (or
/// from one of their own where the cut walks the tree on another engine,
/// [`in_order`]).
fn cut_on<L: Sync>(shared: &Shared<'_, L>, aim: Aim, threads: usize) -> Split {
    let (problem, engine) = (shared.problem, shared.engine);
    let threads = threads.clamp(1, MAX_THREADS);
    let spare = Spare::new(Vec::new());
    let own;
    let shared = if in_order(problem, engine) == engine.resolve(problem) {
        shared
    } else {
        own = Shared::new(problem, in_order(problem, engine));
        &own
    };
    let parallel = |walk: &Walk<'_>, base: &[OptionId], frontier: &[Vec<OptionId>]| {
        walk.parallel(shared, base, frontier, threads, &spare)
    };
    let on = (threads > 1).then_some((threads, &parallel as &Parallel<'_>));
    // The cut's own walk starts from a clone too.
    let walker = shared.built().map(|b| Solver::with_structure(problem, b));
    cut(problem, engine, aim, false, &Limits::default(), on, walker).0
}

/// [`split`] under a budget: `limits.nodes` bounds the nodes of all the
/// cuts tried together (each deeper cut is made from the one above it, so
/// these are the nodes above the last), `limits.time` the time of all of
/// them, and the cancel flag stops them;
/// a solution budget is ignored. Returns the split, how it ended, and the
/// nodes all the cuts visited. A stopped split is incomplete: its
/// subproblems do not cover the tree, so it must not be used.
///
/// ```
/// use exactly::{Limits, Outcome, StopReason};
/// # let n = 11; // Langford pairs 1..11 (35,584 solutions), built as `exactly gen langford 11`
/// # let mut text: String = (1..=n).map(|k| format!("d{k} ")).chain((1..=2 * n).map(|i| format!("p{i} "))).collect();
/// # text.push('\n');
/// # for k in 1..=n { for i in 1..2 * n - k { text += &format!("d{k} p{i} p{}\n", i + k + 1); } }
/// let p = exactly::format::parse_dlx(&text)?; // Langford pairs 1..11
/// let whole = exactly::parallel::split(&p, exactly::Engine::Auto, 100, 8);
/// let (split, outcome, _) = exactly::parallel::split_within(&p, exactly::Engine::Auto, 100, 8, &Limits::default());
/// assert_eq!((split, outcome), (whole, Outcome::Complete));
/// let tiny = Limits::default().max_nodes(10);
/// let (_, outcome, visited) = exactly::parallel::split_within(&p, exactly::Engine::Auto, 100, 8, &tiny);
/// assert_eq!(outcome, Outcome::Stopped(StopReason::NodeLimit));
/// assert!(visited <= 10);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn split_within<L>(
    problem: &Problem<L>,
    engine: Engine,
    min: usize,
    max_depth: usize,
    limits: &Limits,
) -> (Split, Outcome, u64) {
    let aim = Aim::exact(min, max_depth);
    let (split, _, outcome, visited) = cut(problem, engine, aim, false, limits, None, None);
    (split, outcome, visited)
}

/// [`split`], also returning the solutions above the cut (each as the
/// options chosen from the root), for callers that print solutions.
///
/// ```
/// let p = exactly::format::parse_dlx("a b\na\nb\na b\n")?;
/// let (split, above) = exactly::parallel::split_with_solutions(&p, exactly::Engine::Auto, 100, 8);
/// assert_eq!((split.solutions, above.len()), (2, 2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn split_with_solutions<L>(
    problem: &Problem<L>,
    engine: Engine,
    min: usize,
    max_depth: usize,
) -> (Split, Vec<Vec<OptionId>>) {
    let aim = Aim::exact(min, max_depth);
    let (split, above, _, _) = cut(problem, engine, aim, true, &Limits::default(), None, None);
    (split, above)
}

/// [`split_with_solutions`] within `limits` (all the cuts together), as
/// [`split_within`]: when the outcome is not [`Outcome::Complete`] the
/// subproblems do not cover the tree, so they must not be used. Callers
/// whose whole run has a budget keep the split, which can take long on a
/// large problem, within it.
///
/// ```
/// use exactly::{Limits, Outcome, StopReason};
/// let p = exactly::format::parse_dlx("a b\na\nb\na b\n")?;
/// let (split, above, outcome) = exactly::parallel::split_with_solutions_within(
///     &p, exactly::Engine::Auto, 100, 8, &Limits::default());
/// assert_eq!((split.solutions, above.len(), outcome), (2, 2, Outcome::Complete));
/// let none = Limits::default().max_nodes(1);
/// let (_, _, outcome) =
///     exactly::parallel::split_with_solutions_within(&p, exactly::Engine::Auto, 100, 8, &none);
/// assert_eq!(outcome, Outcome::Stopped(StopReason::NodeLimit));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn split_with_solutions_within<L>(
    problem: &Problem<L>,
    engine: Engine,
    min: usize,
    max_depth: usize,
    limits: &Limits,
) -> (Split, Vec<Vec<OptionId>>, Outcome) {
    let aim = Aim::exact(min, max_depth);
    let (split, above, outcome, _) = cut(problem, engine, aim, true, limits, None, None);
    (split, above, outcome)
}

/// Cuts at depths 0, 1, … until a cut is deep enough, all the cuts within
/// `limits` together. Returns the last cut, the solutions above it (when
/// `keep`), how it ended and the nodes visited.
///
/// Each cut is made from the one above it: every subproblem of the cut is
/// split a few levels further down ([`Solver::reset_to`] moves between
/// them, so the prefixes they share are not replayed), and each node above
/// the last cut is visited once. A chain of forced moves from the root is
/// followed first, in one walk ([`Solver::follow_forced`]). Where the tree
/// stays narrow the step doubles: a step that visits fewer than `min`
/// nodes cannot pass over a depth with `min` subproblems, whose nodes it
/// would have visited; one that visits more is stopped there and made
/// again one level at a time (halving the step instead cost up to `min`
/// nodes more at each halving: 9,216 of the 17,362 nodes the cut of the
/// bench's 64x64 sudoku visited for 16 threads).
/// A cut is the same as [`split_at`]'s at its depth: the same subproblems
/// in the same order, and the same solutions, nodes and updates above it.
/// It walks the tree with `walker` where given, a solver at the root on
/// the engine it would choose, and otherwise with one of its own.
fn cut<'p, L>(
    problem: &'p Problem<L>,
    engine: Engine,
    aim: Aim,
    keep: bool,
    limits: &Limits,
    on: Option<(usize, &Parallel<'_>)>,
    walker: Option<Solver<'p, L>>,
) -> (Split, Vec<Vec<OptionId>>, Outcome, u64) {
    let Aim {
        min,
        floor,
        max_depth,
    } = aim;
    let start = crate::time::Instant::now();
    let engine = in_order(problem, engine);
    let mut solver = walker.unwrap_or_else(|| Solver::new(problem).engine(engine));
    let mut cut = Split::default();
    let mut above = Vec::new();
    // The subproblems are kept as what follows `base`, the options every
    // prefix starts with.
    let mut base = Vec::new();
    let mut frontier = vec![Vec::new()];
    let mut visited = 0u64;
    // A chain of forced moves from the root has one node a level, so no
    // depth along it has two subproblems: it is taken in one walk, and the
    // cuts start where it ends. (Under a budget, the walk below keeps
    // count.)
    let unbounded = limits.nodes.is_none() && limits.time.is_none() && limits.cancel.is_none();
    if unbounded && min > 1 {
        if let Some((chain, updates)) = solver.follow_forced(max_depth) {
            cut.depth = chain.len();
            cut.nodes = chain.len() as u64;
            cut.updates = updates;
            visited = cut.nodes;
            base = chain;
        }
    }
    let at = base.len();
    // The root is cut at depth 0 (itself, or a solution).
    let mut step = 0;
    let mut widen = true;
    // How long the last round took, and over how many subproblems.
    let mut last = std::time::Duration::ZERO;
    let mut walked = 1;
    loop {
        let parallel = on.filter(|&(threads, _)| {
            unbounded
                && frontier.len() >= PARALLEL_FRONTIER * threads
                && (last.mul_f64(frontier.len() as f64 / walked as f64) >= PARALLEL_AFTER
                    || frontier.len() >= SUBPROBLEMS_PER_THREAD * threads)
        });
        // A cut may stop at this depth if the next holds many more.
        let sample = unbounded && floor < min && frontier.len() >= floor;
        if (parallel.is_some() || sample) && step > 1 {
            // A frontier this wide is near the cut: a step past the depth
            // with enough subproblems would commit every option below its
            // last level on each thread before its cap stopped it.
            step = 1;
            widen = false;
        }
        if sample && next_depth(&mut solver, at, &frontier) > (OVERSHOOT * min) as f64 {
            // Stop here: the cut is the frontier, as the round before left
            // it.
            cut.subproblems = frontier;
            return finish(problem, cut, above, base, Outcome::Complete, visited);
        }
        let depth = cut.depth + step;
        let walk = Walk {
            at,
            step,
            min,
            keep,
            limits,
            start,
        };
        let began = crate::time::Instant::now();
        let mut round = match parallel {
            Some((_, parallel)) => {
                let round = parallel(&walk, &base, &frontier);
                visited = visited.saturating_add(round.nodes);
                round
            }
            None => walk.slice(&mut solver, &frontier, &mut visited),
        };
        last = began.elapsed();
        walked = frontier.len().max(1);
        if step > 1 && (round.narrow || round.nodes >= min as u64) {
            // It may have passed over a depth with enough subproblems:
            // again a level at a time.
            step = 1;
            widen = false;
            continue;
        }
        let outcome = round.outcome;
        cut.depth = depth;
        cut.subproblems = round.subproblems;
        cut.solutions += round.solutions;
        cut.nodes += round.nodes;
        cut.updates += round.updates;
        above.append(&mut round.found);
        if !outcome.is_complete()
            || cut.subproblems.len() >= min
            || cut.subproblems.is_empty()
            || cut.depth >= max_depth
        {
            return finish(problem, cut, above, base, outcome, visited);
        }
        if step == 0 || widen && round.nodes.saturating_mul(2) < min as u64 {
            step = (step * 2).max(1);
        } else if widen {
            widen = false;
        }
        step = step.min(max_depth - cut.depth);
        frontier = std::mem::take(&mut cut.subproblems);
    }
}

/// An estimate of the subproblems one level below `frontier` (prefixes
/// past the `at` levels `solver` holds): the options of the branching item
/// at every [`SAMPLE`]th of its nodes, scaled up. Dead ends and solutions
/// among those options are not told apart, so it errs high. Not a number
/// where a prefix does not replay.
fn next_depth<L>(solver: &mut Solver<'_, L>, at: usize, frontier: &[Vec<OptionId>]) -> f64 {
    let mut options = 0u64;
    let mut seen = 0u64;
    for prefix in frontier.iter().step_by(SAMPLE) {
        if solver.reset_to_found_after(at, prefix).is_err() {
            return f64::NAN;
        }
        options += u64::from(solver.degree());
        seen += 1;
    }
    options as f64 * frontier.len() as f64 / seen as f64
}

/// The end of [`cut`]: the subproblems made whole prefixes again (`base`
/// first), and marked when the cut is complete.
fn finish<L>(
    problem: &Problem<L>,
    mut cut: Split,
    above: Vec<Vec<OptionId>>,
    base: Vec<OptionId>,
    outcome: Outcome,
    visited: u64,
) -> (Split, Vec<Vec<OptionId>>, Outcome, u64) {
    if !base.is_empty() {
        for prefix in &mut cut.subproblems {
            prefix.splice(..0, base.iter().copied());
        }
    }
    if outcome.is_complete() {
        cut.found = Found::of(problem, &cut.subproblems);
    }
    (cut, above, outcome, visited)
}

/// A cut's round walks its frontier on several threads when it has at
/// least this many subproblems a thread (and no budget), and it should
/// take [`PARALLEL_AFTER`] or more on one (as long a time a subproblem as
/// the round before took), or the frontier is [`SUBPROBLEMS_PER_THREAD`]
/// a thread (as many as a count asks for): each thread's solver is built
/// and moved to the base first, which short rounds do not repay.
const PARALLEL_FRONTIER: usize = 4;

/// See [`PARALLEL_FRONTIER`].
const PARALLEL_AFTER: std::time::Duration = std::time::Duration::from_millis(10);

/// Solvers for a cut's rounds on several threads, each holding the base
/// levels: made once, lent to the threads of each round.
type Spare<'p, L> = std::sync::Mutex<Vec<Solver<'p, L>>>;

/// A solver a thread holds for a round, given back when the round ends.
struct Lent<'s, 'p, L> {
    solver: Option<Solver<'p, L>>,
    spare: &'s Spare<'p, L>,
}

impl<L> Drop for Lent<'_, '_, L> {
    fn drop(&mut self) {
        if let Some(solver) = self.solver.take() {
            self.spare
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(solver);
        }
    }
}

/// A round of a cut on several threads ([`Walk::parallel`]), given the
/// base and the frontier.
type Parallel<'a> = dyn Fn(&Walk<'_>, &[OptionId], &[Vec<OptionId>]) -> Round + 'a;

/// What one round of a cut found below some of its frontier.
struct Round {
    /// The subproblems, as what follows the cut's base.
    subproblems: Vec<Vec<OptionId>>,
    solutions: u128,
    /// The solutions themselves, when kept.
    found: Vec<Vec<OptionId>>,
    nodes: u64,
    updates: u64,
    outcome: Outcome,
    /// Whether a wide step's own cap stopped it.
    narrow: bool,
}

impl Default for Round {
    fn default() -> Round {
        Round {
            subproblems: Vec::new(),
            solutions: 0,
            found: Vec::new(),
            nodes: 0,
            updates: 0,
            outcome: Outcome::Complete,
            narrow: false,
        }
    }
}

impl Round {
    /// `self` followed by `next`, the round over the frontier after its
    /// own.
    fn then(mut self, mut next: Round) -> Round {
        self.subproblems.append(&mut next.subproblems);
        self.solutions += next.solutions;
        self.found.append(&mut next.found);
        self.nodes += next.nodes;
        self.updates += next.updates;
        if self.outcome.is_complete() {
            self.outcome = next.outcome;
        }
        self.narrow |= next.narrow;
        self
    }
}

/// One round of a cut: `step` levels below each prefix of a frontier.
struct Walk<'a> {
    /// The length of the base all prefixes start with.
    at: usize,
    step: usize,
    min: usize,
    keep: bool,
    limits: &'a Limits,
    start: crate::time::Instant,
}

impl Walk<'_> {
    /// The round below `frontier` (prefixes past the base), walked in
    /// order with `solver`, whose levels hold the base; `visited` counts
    /// the nodes of all rounds against the caller's budget.
    fn slice<L>(
        &self,
        solver: &mut Solver<'_, L>,
        frontier: &[Vec<OptionId>],
        visited: &mut u64,
    ) -> Round {
        let limits = self.limits;
        let mut round = Round::default();
        for prefix in frontier {
            let mut pass = limits.since(self.start);
            pass.solutions = None;
            let left = limits
                .nodes
                .map_or(u64::MAX, |n| n.saturating_sub(*visited));
            // A wide step stops at `min` nodes, to be made again a level at a time.
            let wide = (self.step > 1).then(|| (self.min as u64).saturating_sub(round.nodes));
            pass.nodes = match wide {
                Some(cap) if cap < left => Some(cap),
                _ => limits.nodes.map(|_| left),
            };
            solver.set_limits(pass);
            // The root needs no replay (nor a search with prefixes: a
            // problem with multiplicities is split at the root only), and
            // the other prefixes come from this solver's own walk.
            if self.at == 0 && prefix.is_empty() {
                solver.reset();
            } else if solver.reset_to_found_after(self.at, prefix).is_err() {
                round.outcome = Outcome::Stopped(StopReason::Caller);
                break;
            }
            let at = self.at;
            round.outcome = solver.split(
                self.step,
                |prefix| round.subproblems.push(prefix[at..].to_vec()),
                |solution| {
                    round.solutions += 1;
                    if self.keep {
                        round.found.push(solution.to_vec());
                    }
                },
            );
            round.nodes += solver.stats().nodes;
            round.updates += solver.stats().updates;
            *visited = visited.saturating_add(solver.stats().nodes);
            if !round.outcome.is_complete() {
                if wide.is_some_and(|cap| cap < left)
                    && round.outcome == Outcome::Stopped(StopReason::NodeLimit)
                {
                    // The step's own cap, not the caller's budget.
                    round.narrow = true;
                }
                break;
            }
        }
        round
    }

    /// [`Walk::slice`] over `frontier` cut into runs of consecutive
    /// prefixes, each walked on a thread of its own by a solver that first
    /// commits `base`, and put back together in order: the same round.
    /// (A wide step caps each run at `min` nodes, so that the round stops
    /// as it would on one thread, at `min` nodes or more.)
    fn parallel<'p, L: Sync>(
        &self,
        shared: &Shared<'p, L>,
        base: &[OptionId],
        frontier: &[Vec<OptionId>],
        threads: usize,
        spare: &Spare<'p, L>,
    ) -> Round {
        let runs = frontier.len().div_ceil(PARALLEL_FRONTIER * threads).max(1);
        let pieces: Vec<&[Vec<OptionId>]> = frontier.chunks(runs).collect();
        let items: Vec<usize> = (0..pieces.len()).collect();
        let done = Pool::new(threads).run(
            &items,
            || Lent {
                solver: spare.lock().unwrap_or_else(|e| e.into_inner()).pop(),
                spare,
            },
            |lent: &mut Lent<'_, 'p, L>, i, _| {
                if lent.solver.is_none() {
                    let mut solver = shared.solver(true);
                    solver.reset_to_found(base)?;
                    lent.solver = Some(solver);
                }
                let solver = lent.solver.as_mut().expect("made above");
                let mut visited = 0;
                let round = self.slice(solver, pieces[i], &mut visited);
                // A run stopped by a wide step's cap stops the others: the
                // round is made again a level at a time.
                let outcome = round.outcome;
                Ok::<_, PrefixError>(Item {
                    value: round,
                    nodes: visited,
                    outcome,
                })
            },
            |_, _| {},
        );
        match done {
            Ok(run) => {
                let mut parts = run.items;
                parts.sort_by_key(|&(i, _)| i);
                parts
                    .into_iter()
                    .fold(Round::default(), |all, (_, item)| all.then(item.value))
            }
            Err(_) => Round {
                outcome: Outcome::Stopped(StopReason::Caller),
                ..Round::default()
            },
        }
    }
}

/// The engine that walks the tree for a cut: `engine` (as resolved for
/// `problem`), except dancing cells, whose lists change order as options
/// leave and come back. The others try an item's options in the order of
/// the problem, so every cut of a problem, made in one walk or level by
/// level, lists its subproblems in the same order.
fn in_order<L>(problem: &Problem<L>, engine: Engine) -> Engine {
    match engine.resolve(problem) {
        Engine::Cells => Engine::Links,
        other => other,
    }
}

/// The tree cut at exactly `depth` levels below the root (shallower where
/// every branch ends first): what [`split`] returns when it stops at
/// `depth`. Resuming a checkpoint rebuilds its split this way.
///
/// ```
/// # let n = 11; // Langford pairs 1..11 (35,584 solutions), built as `exactly gen langford 11`
/// # let mut text: String = (1..=n).map(|k| format!("d{k} ")).chain((1..=2 * n).map(|i| format!("p{i} "))).collect();
/// # text.push('\n');
/// # for k in 1..=n { for i in 1..2 * n - k { text += &format!("d{k} p{i} p{}\n", i + k + 1); } }
/// let p = exactly::format::parse_dlx(&text)?; // Langford pairs 1..11
/// let split = exactly::parallel::split(&p, exactly::Engine::Auto, 100, 8);
/// assert_eq!(exactly::parallel::split_at(&p, exactly::Engine::Auto, split.depth), split);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn split_at<L>(problem: &Problem<L>, engine: Engine, depth: usize) -> Split {
    let mut solver = Solver::new(problem).engine(in_order(problem, engine));
    let mut cut = Split {
        depth,
        ..Split::default()
    };
    solver.split(
        depth,
        |prefix| cut.subproblems.push(prefix.to_vec()),
        |_| cut.solutions += 1,
    );
    cut.nodes = solver.stats().nodes;
    cut.updates = solver.stats().updates;
    cut.found = Found::of(problem, &cut.subproblems);
    cut
}

/// Checks that `split` is this problem's tree cut at `split.depth`: the
/// same subproblems in the same order, and the same solutions and nodes
/// above the cut. Its subproblems then partition the tree below the cut
/// (each node lies in exactly one), so counts of all of them, each taken
/// once, add up to the problem's count. Nothing is stored while checking,
/// and the walk stops once it takes more nodes than `split` says, so a
/// damaged split costs no more than a true one.
///
/// ```
/// # let n = 11; // Langford pairs 1..11 (35,584 solutions), built as `exactly gen langford 11`
/// # let mut text: String = (1..=n).map(|k| format!("d{k} ")).chain((1..=2 * n).map(|i| format!("p{i} "))).collect();
/// # text.push('\n');
/// # for k in 1..=n { for i in 1..2 * n - k { text += &format!("d{k} p{i} p{}\n", i + k + 1); } }
/// let p = exactly::format::parse_dlx(&text)?; // Langford pairs 1..11
/// let mut split = exactly::parallel::split(&p, exactly::Engine::Auto, 100, 8);
/// assert_eq!(exactly::parallel::check_split(&p, &split), Ok(()));
/// split.subproblems.swap(0, 1);
/// assert!(exactly::parallel::check_split(&p, &split).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_split<L>(problem: &Problem<L>, split: &Split) -> Result<(), SplitMismatch> {
    let limits = Limits::default().max_nodes(split.nodes.saturating_add(1));
    let mut solver = Solver::new(problem)
        .engine(in_order(problem, Engine::Auto))
        .limits(limits);
    let mut seen = 0usize;
    let mut first_bad = None;
    let mut solutions = 0u128;
    let outcome = solver.split(
        split.depth,
        |prefix| {
            if first_bad.is_none() && split.subproblems.get(seen).map(Vec::as_slice) != Some(prefix)
            {
                first_bad = Some(seen);
            }
            seen += 1;
        },
        |_| solutions += 1,
    );
    if let Some(index) = first_bad {
        if index < split.subproblems.len() {
            return Err(SplitMismatch::Subproblem { index });
        }
    }
    if outcome != Outcome::Complete || solver.stats().nodes != split.nodes {
        return Err(SplitMismatch::Nodes {
            expected: split.nodes,
        });
    }
    if seen != split.subproblems.len() {
        return Err(SplitMismatch::Count {
            found: seen,
            listed: split.subproblems.len(),
        });
    }
    if solutions != split.solutions {
        return Err(SplitMismatch::Solutions {
            found: solutions,
            listed: split.solutions,
        });
    }
    Ok(())
}

/// Why a split (say, read from a plan) is not the problem's tree cut.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SplitMismatch {
    /// The subproblem at `index` is not the cut's subproblem there.
    #[error("subproblem {index} is not the one the tree has there")]
    Subproblem {
        /// Its index in the split.
        index: usize,
    },
    /// The cut has another number of subproblems.
    #[error("the tree has {found} subproblems at this depth, the split lists {listed}")]
    Count {
        /// Subproblems of the tree's cut.
        found: usize,
        /// Subproblems listed.
        listed: usize,
    },
    /// Another number of solutions lies above the cut.
    #[error("the tree has {found} solutions above the cut, the split says {listed}")]
    Solutions {
        /// Solutions above the tree's cut.
        found: u128,
        /// Solutions the split says.
        listed: u128,
    },
    /// Another number of nodes lies above the cut.
    #[error(
        "the tree has another number of nodes above the cut than the {expected} the split says"
    )]
    Nodes {
        /// Nodes the split says.
        expected: u64,
    },
}

/// Knuth's estimate of a (sub)tree's size from random probes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Estimate {
    /// Probes made.
    pub probes: u64,
    /// Mean estimate of the number of nodes.
    pub nodes: f64,
    /// Standard error of `nodes`.
    pub nodes_error: f64,
    /// Mean estimate of the number of solutions.
    pub solutions: f64,
    /// Standard error of `solutions`.
    pub solutions_error: f64,
}

/// Estimates the tree below `prefix` with `probes` random probes (seeded,
/// so estimates repeat). Each probe's estimate is unbiased; the standard
/// errors give a rough confidence range (mean ± 2 errors).
///
/// ```
/// # let n = 11; // Langford pairs 1..11 (35,584 solutions), built as `exactly gen langford 11`
/// # let mut text: String = (1..=n).map(|k| format!("d{k} ")).chain((1..=2 * n).map(|i| format!("p{i} "))).collect();
/// # text.push('\n');
/// # for k in 1..=n { for i in 1..2 * n - k { text += &format!("d{k} p{i} p{}\n", i + k + 1); } }
/// let p = exactly::format::parse_dlx(&text)?; // Langford pairs 1..11
/// let e = exactly::parallel::estimate(&p, &[], 2000, 1)?;
/// assert!(e.solutions > 0.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn estimate<L>(
    problem: &Problem<L>,
    prefix: &[OptionId],
    probes: u64,
    seed: u64,
) -> Result<Estimate, crate::PrefixError> {
    estimate_with(&mut Solver::new(problem), prefix, probes, seed)
}

/// [`estimate`] with a solver of the caller's, reset first (building a
/// solver costs more than a few probes; reuse one across subproblems).
pub fn estimate_with<L>(
    solver: &mut Solver<'_, L>,
    prefix: &[OptionId],
    probes: u64,
    seed: u64,
) -> Result<Estimate, crate::PrefixError> {
    estimate_within(solver, prefix, probes, seed, &Limits::default()).map(|(e, _)| e)
}

/// [`estimate_with`] under a budget: `limits.time` bounds the time spent
/// probing and `limits.nodes` the nodes visited by all probes together
/// (each probe visits its depth plus one); the other limits are ignored.
/// Stopped by a budget, it returns the estimate from the probes made so far
/// (the same as with that many probes) and the reason.
///
/// ```
/// use exactly::{Limits, Outcome, StopReason, Solver};
/// # let n = 11; // Langford pairs 1..11 (35,584 solutions), built as `exactly gen langford 11`
/// # let mut text: String = (1..=n).map(|k| format!("d{k} ")).chain((1..=2 * n).map(|i| format!("p{i} "))).collect();
/// # text.push('\n');
/// # for k in 1..=n { for i in 1..2 * n - k { text += &format!("d{k} p{i} p{}\n", i + k + 1); } }
/// let p = exactly::format::parse_dlx(&text)?; // Langford pairs 1..11
/// let mut solver = Solver::new(&p);
/// let (e, outcome) = exactly::parallel::estimate_within(&mut solver, &[], 1000, 1, &Limits::default().max_nodes(50))?;
/// assert_eq!(outcome, Outcome::Stopped(StopReason::NodeLimit));
/// assert!(e.probes < 1000);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn estimate_within<L>(
    solver: &mut Solver<'_, L>,
    prefix: &[OptionId],
    probes: u64,
    seed: u64,
    limits: &Limits,
) -> Result<(Estimate, Outcome), crate::PrefixError> {
    probe_within(solver, prefix, probes, seed, limits).map(|(e, outcome, _)| (e, outcome))
}

/// The node estimates of every subproblem of `split`, `probes` probes each
/// (seeded with [`subproblem_seed`] of its index, as a plan makes them),
/// all within one budget: `limits.nodes` bounds the nodes of all the
/// probes together and `limits.time` their time. Stopped by a budget, it
/// returns the estimates made so far (fewer than the subproblems, the last
/// perhaps from fewer probes) and the reason.
///
/// ```
/// use exactly::{Limits, Outcome, Solver};
/// use exactly::parallel::{self, Split};
/// let p = exactly::format::parse_dlx("a b\na\nb\na b\n")?;
/// let split = parallel::split(&p, exactly::Engine::Auto, 2, 8);
/// let (nodes, outcome) = parallel::estimate_split_within(&mut Solver::new(&p), &split, 16, &Limits::default())?;
/// assert_eq!((nodes.len(), outcome), (split.subproblems.len(), Outcome::Complete));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn estimate_split_within<L>(
    solver: &mut Solver<'_, L>,
    split: &Split,
    probes: u64,
    limits: &Limits,
) -> Result<(Vec<f64>, Outcome), crate::PrefixError> {
    let start = std::time::Instant::now();
    let mut visited = 0u64;
    let mut estimates = Vec::with_capacity(split.subproblems.len());
    for (i, prefix) in split.subproblems.iter().enumerate() {
        // Each subproblem gets at least one probe: check the budget first.
        if limits.nodes.is_some_and(|n| visited >= n) {
            return Ok((estimates, Outcome::Stopped(StopReason::NodeLimit)));
        }
        if limits.time.is_some_and(|t| start.elapsed() >= t) {
            return Ok((estimates, Outcome::Stopped(StopReason::TimeLimit)));
        }
        let mut left = limits.clone();
        left.nodes = limits.nodes.map(|n| n.saturating_sub(visited));
        left.time = limits.time.map(|t| t.saturating_sub(start.elapsed()));
        let (e, outcome, steps) = probe_within(solver, prefix, probes, subproblem_seed(i), &left)?;
        visited = visited.saturating_add(steps);
        if !outcome.is_complete() {
            return Ok((estimates, outcome));
        }
        estimates.push(e.nodes);
        if limits
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
        {
            return Ok((estimates, Outcome::Stopped(StopReason::Cancelled)));
        }
    }
    Ok((estimates, Outcome::Complete))
}

/// [`estimate_within`], also returning the nodes the probes visited.
fn probe_within<L>(
    solver: &mut Solver<'_, L>,
    prefix: &[OptionId],
    probes: u64,
    seed: u64,
    limits: &Limits,
) -> Result<(Estimate, Outcome, u64), crate::PrefixError> {
    solver.reset_to(prefix)?;
    let start = std::time::Instant::now();
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let (mut n1, mut n2, mut s1, mut s2) = (0.0, 0.0, 0.0, 0.0);
    let mut visited = 0u64;
    let mut outcome = Outcome::Complete;
    let mut made = 0;
    while made < probes {
        // At least one probe is made, so that the estimate means something.
        let stop = if made == 0 {
            None
        } else if limits.nodes.is_some_and(|n| visited >= n) {
            Some(StopReason::NodeLimit)
        } else if limits.time.is_some_and(|t| start.elapsed() >= t) {
            Some(StopReason::TimeLimit)
        } else {
            None
        };
        if let Some(reason) = stop {
            outcome = Outcome::Stopped(reason);
            break;
        }
        let (n, s, steps) = solver.probe_steps(&mut rng);
        visited = visited.saturating_add(steps);
        made += 1;
        n1 += n;
        n2 += n * n;
        s1 += s;
        s2 += s * s;
    }
    let probes = made;
    let k = probes.max(1) as f64;
    let error = |sum: f64, squares: f64| {
        if probes < 2 {
            return f64::INFINITY;
        }
        let mean = sum / k;
        ((squares / k - mean * mean).max(0.0) / (k - 1.0)).sqrt()
    };
    let estimate = Estimate {
        probes,
        nodes: n1 / k,
        nodes_error: error(n1, n2),
        solutions: s1 / k,
        solutions_error: error(s1, s2),
    };
    Ok((estimate, outcome, visited))
}

/// The result of counting subproblems.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParallelCount {
    /// Solutions, above the cut and in the subproblems counted.
    pub solutions: u128,
    /// Nodes, likewise.
    pub nodes: u64,
    /// Link updates, likewise (see [`crate::Stats`]).
    pub updates: u64,
    /// The deepest level reached.
    pub max_depth: u32,
    /// Complete when every subproblem was counted to the end.
    pub outcome: Outcome,
    /// Per subproblem (by index): its count, when it was finished.
    pub done: Vec<Option<u128>>,
}

/// Counts the subproblems of `split` on `threads` threads (no more than
/// there are subproblems to count, and at most [`MAX_THREADS`]) with a
/// [`Pool`]: each thread takes the next unclaimed subproblem when it is
/// free. `skip` marks subproblems already counted elsewhere (resuming from
/// a checkpoint): they are not run and add nothing. `on_done(index,
/// solutions, nodes)` is called, from the worker threads, as each
/// subproblem finishes. `limits` are the budgets of the whole count (one
/// deadline, one node budget, a cancel flag: see [`Pool::limits`]). A
/// prefix that does not replay (say, from a plan made for another problem)
/// is an error.
pub fn count_split<L: Sync>(
    problem: &Problem<L>,
    engine: Engine,
    split: &Split,
    threads: usize,
    limits: &Limits,
    skip: &[bool],
    on_done: &(dyn Fn(usize, u128, u64) + Sync),
) -> Result<ParallelCount, BadPrefix> {
    let run = SplitRun {
        threads,
        limits,
        skip,
        on_done,
    };
    count_split_on(&Shared::new(problem, engine), split, &run)
}

/// What [`count_split`] is asked besides the problem and the split.
struct SplitRun<'a> {
    threads: usize,
    limits: &'a Limits,
    skip: &'a [bool],
    on_done: &'a (dyn Fn(usize, u128, u64) + Sync),
}

/// [`count_split`] with the solvers of its threads cloned from `shared`'s
/// structure.
fn count_split_on<L: Sync>(
    shared: &Shared<'_, L>,
    split: &Split,
    run: &SplitRun<'_>,
) -> Result<ParallelCount, BadPrefix> {
    let SplitRun {
        threads,
        limits,
        skip,
        on_done,
    } = *run;
    let problem = shared.problem;
    let n = split.subproblems.len();
    let items: Vec<usize> = (0..n)
        .filter(|&i| !skip.get(i).copied().unwrap_or(false))
        .collect();
    let seed = if split.found.marks.is_empty() {
        0
    } else {
        Found::seed(problem)
    };
    let share = shares_for(&split.subproblems);
    let run = Pool::new(threads)
        .limits(limits)
        .run(
            &items,
            || None,
            |slot: &mut Option<Solver<'_, L>>, i, control| {
                let solver = budgeted(slot, || shared.solver(share), control.limits());
                // Consecutive subproblems share most of their prefixes.
                let prefix = &split.subproblems[i];
                if split.found.knows(seed, i, prefix) {
                    solver.reset_to_found(prefix)?;
                } else {
                    solver.reset_to(prefix)?;
                }
                let Count { solutions, outcome } = solver.count();
                let stats = *solver.stats();
                Ok(Item {
                    value: (solutions, stats),
                    nodes: stats.nodes,
                    outcome,
                })
            },
            |i, &(solutions, stats)| on_done(i, solutions, stats.nodes),
        )
        .map_err(BadPrefix::from)?;
    let mut counted = ParallelCount {
        solutions: split.solutions,
        nodes: split.nodes,
        updates: split.updates,
        max_depth: split.depth as u32,
        outcome: run.outcome,
        done: vec![None; n],
    };
    for (i, item) in &run.items {
        let (solutions, stats) = item.value;
        counted.solutions += solutions;
        counted.nodes += stats.nodes;
        counted.updates += stats.updates;
        counted.max_depth = counted.max_depth.max(stats.max_depth);
        if item.outcome == Outcome::Complete {
            counted.done[*i] = Some(solutions);
        }
    }
    Ok(counted)
}

/// The worker's solver in `slot` (made on first use) under `limits`, to
/// be moved to its next subproblem with [`Solver::reset_to`].
fn budgeted<'s, 'p, L>(
    slot: &'s mut Option<Solver<'p, L>>,
    new: impl FnOnce() -> Solver<'p, L>,
    limits: Limits,
) -> &'s mut Solver<'p, L> {
    let solver = slot.take().unwrap_or_else(new).limits(limits);
    slot.insert(solver)
}

/// The solvers of the threads of one count or cut: the first to need one
/// builds the structure, and each clones it, which shares the parts no
/// search changes where the representation keeps them so (bitsets, sparse
/// bitsets), so that the threads read one copy of them. A representation
/// whose clone costs a build is built by each thread, as before.
/// PERF: on 16 threads, cores slowed each other down on large structures
/// (DESIGN.md, "Cuts and replays on many threads").
struct Shared<'p, L> {
    problem: &'p Problem<L>,
    engine: Engine,
    built: std::sync::OnceLock<Option<crate::repr::Backend>>,
}

impl<'p, L> Shared<'p, L> {
    fn new(problem: &'p Problem<L>, engine: Engine) -> Shared<'p, L> {
        Shared {
            problem,
            engine,
            built: std::sync::OnceLock::new(),
        }
    }

    /// A solver at the root for a thread: a clone of the structure when
    /// `share`, else one its thread builds.
    fn solver(&self, share: bool) -> Solver<'p, L> {
        match self.built().filter(|_| share) {
            Some(built) => Solver::with_structure(self.problem, built),
            None => Solver::new(self.problem).engine(self.engine),
        }
    }

    /// The structure the threads clone, built on first use; none where
    /// the engine's clone costs a build.
    fn built(&self) -> Option<&crate::repr::Backend> {
        let built = self.built.get_or_init(|| {
            // Problems with multiplicities search on Algorithm M's own
            // structure, built by each solver.
            let shares = matches!(
                self.engine.resolve(self.problem),
                Engine::Bits | Engine::Sparse
            );
            (shares && !self.problem.has_multiplicities())
                .then(|| crate::repr::Backend::new(self.problem, self.engine))
        });
        built.as_ref()
    }
}

/// Whether the threads that count the subproblems `prefixes` may
/// share a structure: not where one is the root (an empty prefix),
/// whose count a solver not yet built may take by the rest below its
/// forced moves ([`Rest`]).
fn shares_for(prefixes: &[Vec<OptionId>]) -> bool {
    prefixes.iter().all(|p| !p.is_empty())
}

/// A subproblem whose prefix does not replay on the problem: the one error
/// for a failed replay wherever subproblems are run ([`count_split`], a
/// [`Pool`] of [`Solver::restrict`] calls, plans, checkpoints, MPI ranks,
/// the split of one sudoku). [`PrefixError`] says why.
///
/// ```
/// use exactly::parallel::BadPrefix;
/// use exactly::{OptionId, PrefixError, Solver};
/// let p = exactly::format::parse_dlx("a b\na b\na\nb\n")?;
/// let err = BadPrefix::replay(&mut Solver::new(&p), 4, &[OptionId::new(3)]).unwrap_err();
/// assert_eq!(err.error, PrefixError::NotAvailable { level: 0, option: OptionId::new(3) });
/// assert_eq!(err.to_string(), "subproblem 4 does not replay: option #3 is not a choice at level 0");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("subproblem {index} does not replay: {error}")]
pub struct BadPrefix {
    /// Its index in the split.
    pub index: usize,
    /// Why it does not replay.
    pub error: PrefixError,
}

impl BadPrefix {
    /// [`Solver::restrict`] to subproblem `index`, whose prefix is
    /// `prefix`, naming the subproblem when it fails.
    pub fn replay<L>(
        solver: &mut Solver<'_, L>,
        index: usize,
        prefix: &[OptionId],
    ) -> Result<(), BadPrefix> {
        solver
            .restrict(prefix)
            .map_err(|error| BadPrefix { index, error })
    }
}

impl From<Failed<PrefixError>> for BadPrefix {
    /// A [`Pool`] item that failed to replay: the item is the subproblem.
    fn from(failed: Failed<PrefixError>) -> BadPrefix {
        BadPrefix {
            index: failed.index,
            error: failed.error,
        }
    }
}

/// Counts all solutions on `threads` threads (at most [`MAX_THREADS`]):
/// cuts the tree into [`SUBPROBLEMS_PER_THREAD`] subproblems per thread or
/// more ([`split_for_count`]: at least a quarter of that where the next
/// depth holds far more) and counts them with [`count_split`]. A problem
/// with multiplicities, whose search has no prefixes, is split into
/// smaller problems instead ([`count_multi`]). A large exact cover whose
/// forced moves from the root leave a small problem is counted by that
/// [`Rest`], as [`Solver::count`] counts it: the rest is cut and counted
/// on the threads, and the forced levels are added to the nodes, updates
/// and depth (`done` is then by the rest's subproblems). The nodes,
/// updates and depth are those of a count on one thread, whatever the
/// number of threads.
///
/// ```
/// # let n = 11; // Langford pairs 1..11 (35,584 solutions), built as `exactly gen langford 11`
/// # let mut text: String = (1..=n).map(|k| format!("d{k} ")).chain((1..=2 * n).map(|i| format!("p{i} "))).collect();
/// # text.push('\n');
/// # for k in 1..=n { for i in 1..2 * n - k { text += &format!("d{k} p{i} p{}\n", i + k + 1); } }
/// let p = exactly::format::parse_dlx(&text)?; // Langford pairs 1..11
/// let c = exactly::parallel::count(&p, 2);
/// assert_eq!(c.solutions, 35584);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn count<L: Sync>(problem: &Problem<L>, threads: usize) -> ParallelCount {
    count_within(problem, threads, &Limits::default())
}

/// [`count`] within `limits`, the budgets of the whole count, counted from
/// this call: one deadline for every thread, one node budget that the
/// threads share, and a cancel flag that stops them all (see
/// [`Pool::limits`]). A stopped count has `outcome` stopped, and its
/// solutions and nodes are those counted so far (above the cut, and in
/// the subproblems finished or stopped); which they are depends on the
/// threads' timing. The cut is always made whole, so a tree that ends
/// above it is counted whole whatever the budget. A solution limit is
/// counted on the calling thread, as [`Solver::count`] counts it (`done`
/// is then empty): which solutions come first is known only in search
/// order.
///
/// ```
/// use exactly::{Limits, Outcome, StopReason};
/// # let n = 11; // Langford pairs 1..11 (35,584 solutions), built as `exactly gen langford 11`
/// # let mut text: String = (1..=n).map(|k| format!("d{k} ")).chain((1..=2 * n).map(|i| format!("p{i} "))).collect();
/// # text.push('\n');
/// # for k in 1..=n { for i in 1..2 * n - k { text += &format!("d{k} p{i} p{}\n", i + k + 1); } }
/// let p = exactly::format::parse_dlx(&text)?; // Langford pairs 1..11
/// let whole = exactly::parallel::count_within(&p, 2, &Limits::default());
/// assert_eq!((whole.solutions, whole.outcome), (35584, Outcome::Complete));
/// let c = exactly::parallel::count_within(&p, 2, &Limits::default().max_nodes(50_000));
/// assert_eq!(c.outcome, Outcome::Stopped(StopReason::NodeLimit));
/// assert!(c.solutions < 35584);
/// let c = exactly::parallel::count_within(&p, 2, &Limits::default().max_solutions(10));
/// assert_eq!((c.solutions, c.outcome), (10, Outcome::Stopped(StopReason::SolutionLimit)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn count_within<L: Sync>(
    problem: &Problem<L>,
    threads: usize,
    limits: &Limits,
) -> ParallelCount {
    let start = crate::time::Instant::now();
    if limits.solutions.is_some() {
        // Not resumed: a large exact cover is counted by its rest.
        let mut solver = Solver::new(problem).limits(limits.clone()).resumable(false);
        let c = solver.count();
        let stats = solver.stats();
        return ParallelCount {
            solutions: c.solutions,
            nodes: stats.nodes,
            updates: stats.updates,
            max_depth: stats.max_depth,
            outcome: c.outcome,
            done: Vec::new(),
        };
    }
    count_by_rest(problem, threads, limits, start, false)
}

/// [`count_within`] on the threads, the clock started at `start`;
/// `any_size` lifts [`Rest::of`]'s conditions on size (for tests).
pub(crate) fn count_by_rest<L: Sync>(
    problem: &Problem<L>,
    threads: usize,
    limits: &Limits,
    start: crate::time::Instant,
    any_size: bool,
) -> ParallelCount {
    let rest = Rest::find(problem, any_size);
    // A node budget within the forced levels stops in them: the whole
    // problem is counted.
    let Some((rest, below)) = rest.and_then(|r| r.limits_below(limits, start).map(|b| (r, b)))
    else {
        return count_whole(problem, threads, limits, start);
    };
    let mut counted = count_whole(&rest.problem, threads, &below, crate::time::Instant::now());
    let c = &mut counted;
    rest.add_forced(&mut c.nodes, &mut c.updates, &mut c.max_depth);
    counted
}

/// [`count_by_rest`] on the whole problem.
fn count_whole<L: Sync>(
    problem: &Problem<L>,
    threads: usize,
    limits: &Limits,
    start: crate::time::Instant,
) -> ParallelCount {
    let threads = threads.clamp(1, MAX_THREADS);
    if problem.has_multiplicities() {
        return count_multi(
            problem,
            threads,
            &limits.since(start),
            &|_| {},
            &|_, _, _| {},
        );
    }
    // One structure for the cut and the count.
    let shared = Shared::new(problem, Engine::Auto);
    // No cut is deeper than the tree, whose levels each cover a primary item.
    let split = split_for_count_on(&shared, threads, problem.num_primary());
    // The time left once the rest is found and the tree cut.
    let mut limits = limits.since(start);
    // The nodes above the cut are the count's first.
    limits.nodes = limits.nodes.map(|n| n.saturating_sub(split.nodes).max(1));
    let run = SplitRun {
        threads,
        limits: &limits,
        skip: &[],
        on_done: &|_, _, _| {},
    };
    let counted = count_split_on(&shared, &split, &run);
    // The prefixes come from this problem's own split, so they replay.
    counted.unwrap_or_else(|bad| ParallelCount {
        solutions: 0,
        nodes: 0,
        updates: 0,
        max_depth: 0,
        outcome: Outcome::Stopped(StopReason::Caller),
        done: vec![None; bad.index + 1],
    })
}

/// Orders subproblem indices into `shards` groups of nearly equal total
/// weight (largest first, each to the lightest shard so far), so that
/// shards estimated alike take alike. Deterministic. Only the groups that
/// can hold a subproblem are returned (at most one per weight, at least
/// one): any further shards would be empty, so a huge `shards` costs
/// nothing.
///
/// ```
/// let shards = exactly::parallel::balance(&[5.0, 1.0, 4.0, 2.0], 2);
/// assert_eq!(shards, vec![vec![0, 1], vec![2, 3]]);
/// let many = exactly::parallel::balance(&[5.0, 1.0], usize::MAX);
/// assert_eq!(many, vec![vec![0], vec![1]]);
/// ```
pub fn balance(weights: &[f64], shards: usize) -> Vec<Vec<usize>> {
    let shards = shards.min(weights.len()).max(1);
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by(|&a, &b| weights[b].total_cmp(&weights[a]).then(a.cmp(&b)));
    let mut load = vec![0.0f64; shards];
    let mut out = vec![Vec::new(); shards];
    for i in order {
        let s = (0..shards)
            .min_by(|&a, &b| load[a].total_cmp(&load[b]).then(a.cmp(&b)))
            .unwrap_or(0);
        load[s] += weights[i];
        out[s].push(i);
    }
    for shard in &mut out {
        shard.sort_unstable();
    }
    out
}

/// A seed for per-subproblem estimates that depends on its index only.
pub fn subproblem_seed(index: usize) -> u64 {
    let mut s = (index as u64).wrapping_add(0x2545_F491_4F6C_DD1D) | 1;
    next_random(&mut s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pair of eight items as an option: the perfect matchings of
    /// the complete graph on eight vertices, 7·5·3·1 = 105 of them.
    fn matchings() -> Problem {
        let items = "a b c d e f g h";
        let mut text = format!("{items}\n");
        let names: Vec<&str> = items.split(' ').collect();
        for (i, x) in names.iter().enumerate() {
            for y in &names[i + 1..] {
                text += &format!("{x} {y}\n");
            }
        }
        crate::format::parse_dlx(&text).unwrap()
    }

    #[test]
    fn threads_share_one_copy_of_the_rows_no_search_changes() {
        let p = matchings();
        for (engine, shares) in [
            (Engine::Bits, true),
            (Engine::Sparse, true),
            (Engine::Links, false),
            (Engine::Cells, false),
        ] {
            let shared = Shared::new(&p, engine);
            let (mut a, mut b) = (shared.solver(true), shared.solver(true));
            // Each counts on its own, as a thread does.
            assert_eq!(a.count().solutions, 105, "{engine:?}");
            assert_eq!(b.count().solutions, 105, "{engine:?}");
            let (a, b) = (a.structure(), b.structure());
            assert_eq!(a.shares_with(b), shares, "{engine:?}");
        }
        // A split with the root among its subproblems keeps each thread's
        // solver unbuilt, so that the root may be counted by its rest.
        assert!(!shares_for(&[Vec::new()]));
        assert!(matches!(
            Shared::new(&p, Engine::Bits).solver(false).structure(),
            crate::repr::Backend::Unbuilt(Engine::Bits)
        ));
    }
}
