//! The search: Knuth's Algorithm X, and Algorithm C for colors, on any of
//! the representations of [`crate::repr`], as an explicit-stack loop that
//! can stop and resume at any solution.
//!
//! This module holds the [`Solver`] and what it reports; the loop itself
//! (steps C2–C8) and the walks that share its structure (probes,
//! prefixes, branches) are in `search.rs`.

use std::ops::ControlFlow;
use std::time::Duration;

use crate::budget::Budget;
use crate::multi::Search;
use crate::problem::{ItemId, OptionId, Problem};
use crate::repr::{with_structure, Backend, Structure};

pub use crate::budget::{Limits, Outcome, StopReason};
pub(crate) use crate::repr::next_random;
pub use crate::repr::Engine;

mod rest;
pub use rest::Rest;
mod search;

/// The result of [`Solver::count`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// Solutions found (all of them when `outcome` is complete).
    pub solutions: u128,
    /// Whether the count is exact or a lower bound.
    pub outcome: Outcome,
}

/// Work done by a search, in Knuth's units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Stats {
    /// The representation that searched (never [`Engine::Auto`] once a
    /// search has run).
    pub engine: Engine,
    /// Search-tree nodes, counting each solution as a node (as DLX1 does).
    pub nodes: u64,
    /// Link removals (each undone once more on backtracking); not counted
    /// by [`Engine::Bits`].
    pub updates: u64,
    /// Solutions found.
    pub solutions: u128,
    /// The deepest level reached (number of options chosen).
    pub max_depth: u32,
    /// Time spent searching.
    pub elapsed: Duration,
}

/// A progress report, delivered to [`Solver::on_progress`] callbacks.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Nodes so far.
    pub nodes: u64,
    /// Solutions so far.
    pub solutions: u128,
    /// Knuth's estimate of the fraction of the tree explored, in `[0, 1]`,
    /// from the position (k of d) of the current choice at each level.
    pub fraction: f64,
    /// Current depth.
    pub depth: u32,
    /// Time since the search began.
    pub elapsed: Duration,
}

/// One step of the search, for teaching traces ([`Solver::on_trace`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TraceEvent {
    /// At `level`, the search branches on `item`, which has `options` options left.
    Choose {
        /// Depth (0 at the root).
        level: u32,
        /// The item with the fewest options.
        item: ItemId,
        /// How many options can still cover it.
        options: u32,
    },
    /// At `level`, option `option` is tried: the `k`-th of `d`.
    Try {
        /// Depth.
        level: u32,
        /// The option tried; its items are covered.
        option: OptionId,
        /// 1-based position among the item's options.
        k: u32,
        /// How many options the item had.
        d: u32,
    },
    /// A solution was reached at `level`.
    Solution {
        /// Depth (the number of options in the solution).
        level: u32,
    },
    /// All options of the item chosen at `level` are exhausted: back up.
    Backtrack {
        /// Depth.
        level: u32,
    },
    /// A node left its list: the dancing links changed it in the step
    /// reported just before (only with [`Solver::trace_nodes`]). The node is
    /// `option`'s entry for `item`, taken out of `item`'s list when the
    /// option is hidden; or, for `None`, `item`'s header, when the item is
    /// covered.
    Unlink {
        /// The item whose list the node leaves.
        item: ItemId,
        /// The option the node belongs to; `None` for the item's header.
        option: Option<OptionId>,
    },
    /// A node came back into its list (undoing an [`TraceEvent::Unlink`]):
    /// the dancing links changed it in the step reported just before.
    Relink {
        /// The item whose list the node rejoins.
        item: ItemId,
        /// The option the node belongs to; `None` for the item's header.
        option: Option<OptionId>,
    },
}

/// What the search does at a node; see [`Solver::branch`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Branch {
    /// Every primary item is covered: the node is a solution.
    Solution,
    /// The search branches on these options, in the order it tries them
    /// (empty when the item it picked has none left).
    Options(Vec<OptionId>),
}

/// Why [`Solver::restrict`], [`Solver::assume`], [`Solver::branch`] or
/// [`Solver::probe`] refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PrefixError {
    /// The solver has searched already.
    #[error("the solver has already searched; restrict a new one")]
    AlreadySearched,
    /// The problem has multiplicities: its search
    /// ([`MultiSolver`](crate::multi::MultiSolver)'s) has no prefixes,
    /// branches or probes.
    #[error("a problem with multiplicities cannot be searched from a prefix")]
    Multiplicities,
    /// The option is not among those of the item branched on at `level`.
    #[error("option #{} is not a choice at level {level}", option.index())]
    NotAvailable {
        /// 0-based level.
        level: usize,
        /// The option given.
        option: OptionId,
    },
    /// The prefix continues past a solution.
    #[error("the prefix goes past a solution at level {level}")]
    TooLong {
        /// 0-based level.
        level: usize,
    },
}

/// A solution: the chosen options, in the order the search chose them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Solution {
    options: Vec<OptionId>,
}

impl Solution {
    /// A solution made of the given options.
    pub fn new(options: Vec<OptionId>) -> Solution {
        Solution { options }
    }

    /// The chosen options, in search order.
    pub fn options(&self) -> &[OptionId] {
        &self.options
    }

    /// The chosen options, sorted by id (a canonical form for comparing).
    pub fn sorted(&self) -> Vec<OptionId> {
        let mut v = self.options.clone();
        v.sort_unstable();
        v
    }

    /// The labels of the chosen options.
    pub fn labels<'p, L>(&self, problem: &'p Problem<L>) -> Vec<&'p L> {
        self.options.iter().map(|&o| problem.label(o)).collect()
    }
}

/// Where a stopped search picks up again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Resume {
    /// Enter the current level (C2).
    Enter,
    /// Back up from the current level (C8).
    Backup,
    /// The tree is exhausted.
    Done,
}

/// How a search visits solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Only the number matters: the last level is counted, not walked.
    Count,
    /// Every solution is handed to the visitor.
    Visit,
    /// Like `Visit`, and every node at the cutoff depth that is not a
    /// solution is handed to the visitor as a frontier node, not entered.
    Split,
}

type ProgressFn<'p> = Box<dyn FnMut(&Progress) + Send + 'p>;
type TraceFn<'p> = Box<dyn FnMut(&TraceEvent) + Send + 'p>;

/// Searches one problem. Create it, optionally set limits, a seed, progress or
/// trace callbacks, then call [`count`](Solver::count),
/// [`first`](Solver::first), [`for_each`](Solver::for_each) or
/// [`solutions`](Solver::solutions).
///
/// A problem with multiplicities ([`Problem::has_multiplicities`]) is
/// searched by Algorithm M, the search of
/// [`MultiSolver`](crate::multi::MultiSolver), whatever the engine:
/// counting, visiting, iterating, [`Solver::split`] (which then hands every
/// solution over and no frontier) and the limits work as for exact covers,
/// but seeds, [`Solver::forced_first`], progress and traces are ignored,
/// [`Solver::restrict`], [`Solver::assume`], [`Solver::probe`] and
/// [`Solver::branch`] fail with [`PrefixError::Multiplicities`]: no bound
/// is ever read as `1:1`.
///
/// ```
/// // `a` twice, `b` once, from {a}, {a b}, {a}, {b}.
/// let p = exactly::format::parse_dlx("2|a b\na\na b\na\nb\n")?;
/// assert_eq!(exactly::Solver::new(&p).count().solutions, 3);
/// # Ok::<(), exactly::format::ParseError>(())
/// ```
///
/// ```
/// let p = exactly::Problem::from_names(
///     &["a", "b", "c"],
///     &[],
///     [("ab", vec!["a", "b"]), ("c", vec!["c"]), ("a", vec!["a"]), ("bc", vec!["b", "c"])],
/// )?;
/// assert_eq!(exactly::Solver::new(&p).count().solutions, 2);
/// let first = exactly::Solver::new(&p).first().unwrap().unwrap();
/// assert_eq!(first.labels(&p), [&"ab", &"c"]);
/// # Ok::<(), exactly::BuildError>(())
/// ```
pub struct Solver<'p, L = String> {
    problem: &'p Problem<L>,
    backend: Backend,
    limits: Limits,
    /// The node budget, the clock, the cancel flag and progress.
    budget: Budget,
    rng: Option<u64>,
    /// `choice[l]`: the node of the option tried at level `l` (the frames,
    /// one per level, are the structure's own, in `backend`).
    choice: Vec<u32>,
    /// The options of the nodes in `choice`, named once (see [`Names`]).
    names: Names,
    level: usize,
    /// The level the search may not back up past: 0, or the length of the
    /// prefix given to [`Solver::restrict`].
    floor: usize,
    /// The levels from the root that [`Solver::restrict`] or
    /// [`Solver::reset_to`] replayed (the first of those below `floor`):
    /// the ones [`Solver::reset_to`] may keep.
    replayed: usize,
    /// In split mode, the depth of the subproblems' roots.
    cutoff: usize,
    /// The branching scan stops at an item with at most this many options.
    enough: u32,
    resume: Resume,
    stats: Stats,
    progress: Option<ProgressFn<'p>>,
    trace: Option<TraceFn<'p>>,
    /// Whether trace events include the dancing links' node changes.
    trace_nodes: bool,
    outcome: Option<Outcome>,
    /// Whether a count stopped by a budget may be resumed (see
    /// [`Solver::resumable`]).
    resumable: bool,
    /// Knuth's estimate of the fraction done when a search by the rest
    /// stopped.
    stopped_fraction: Option<f64>,
    /// The solution a visit by the rest stopped at on a resumable solver
    /// (its options level by level, as the whole problem's search chose
    /// them): the structure, still unbuilt, is built with the dancing
    /// links, whose order the rest's is, and moved to it on first use
    /// ([`Solver::take_backend`]), and the search backs up from there.
    pending: Option<Vec<OptionId>>,
    /// Whether the problem has multiplicities, and then Algorithm M's
    /// search, built on first use, which runs instead of the backend's.
    multi: bool,
    multi_search: Option<Box<Search<'p, L>>>,
}

/// The option of the node chosen at each level, kept from one walk to
/// the next: a node's option takes a walk along the option to find in some
/// structures, and the prefixes of a cut or of a sudoku's subproblems run
/// thousands of levels deep, nearly all of them the same from one
/// subproblem to the next.
#[derive(Debug, Default)]
struct Names {
    /// The node each entry of `options` was named from (`u32::MAX`: none).
    nodes: Vec<u32>,
    options: Vec<OptionId>,
}

impl Names {
    /// The options of the nodes `choice[from..]`, level by level; only the
    /// levels whose node changed are named again.
    fn of<S: Structure>(&mut self, st: &S, choice: &[u32], from: usize) -> &[OptionId] {
        let l = choice.len();
        if self.nodes.len() < l {
            self.nodes.resize(l, u32::MAX);
            self.options.resize(l, OptionId(0));
        }
        // The levels near the root rarely change: passed over a block at a
        // time, as a comparison of memory.
        const BLOCK: usize = 64;
        let mut same = from;
        while same + BLOCK <= l && self.nodes[same..same + BLOCK] == choice[same..same + BLOCK] {
            same += BLOCK;
        }
        for (j, &x) in choice.iter().enumerate().skip(same) {
            if self.nodes[j] != x {
                self.nodes[j] = x;
                self.options[j] = st.option_of(x);
            }
        }
        &self.options[from.min(l)..l]
    }
}

impl<'p, L> Solver<'p, L> {
    /// A solver for `problem`, positioned at the root of the search tree.
    pub fn new(problem: &'p Problem<L>) -> Solver<'p, L> {
        Solver {
            problem,
            backend: Backend::Unbuilt(Engine::Auto),
            limits: Limits::default(),
            budget: Budget::default(),
            rng: None,
            choice: Vec::new(),
            names: Names::default(),
            level: 0,
            floor: 0,
            replayed: 0,
            cutoff: usize::MAX,
            enough: 0,
            resume: Resume::Enter,
            stats: Stats::default(),
            progress: None,
            trace: None,
            trace_nodes: false,
            outcome: None,
            resumable: true,
            stopped_fraction: None,
            pending: None,
            multi: problem.has_multiplicities(),
            multi_search: None,
        }
    }

    /// A solver for `problem` at the root whose structure is a clone of
    /// `built`, a structure built for `problem` and never searched: the
    /// parts no search changes are shared where the representation keeps
    /// them so (bitsets, sparse bitsets), and copied otherwise.
    pub(crate) fn with_structure(problem: &'p Problem<L>, built: &Backend) -> Solver<'p, L> {
        let mut solver = Solver::new(problem);
        solver.backend = built.clone();
        solver
    }

    /// The structure, as built so far.
    #[cfg(test)]
    pub(crate) fn structure(&self) -> &Backend {
        &self.backend
    }

    /// Selects the representation (before the search starts; later calls
    /// restart the search from the root).
    pub fn engine(mut self, engine: Engine) -> Self {
        self.set_engine(engine);
        self
    }

    /// [`Solver::engine`] on a solver in place: a structure of `engine`,
    /// to be built, and the search back at the root.
    fn set_engine(&mut self, engine: Engine) {
        self.backend = Backend::Unbuilt(engine);
        // Nodes are the structure's own.
        self.names = Names::default();
        self.level = 0;
        self.floor = 0;
        self.replayed = 0;
        self.resume = Resume::Enter;
        self.stats = Stats::default();
        self.outcome = None;
        self.stopped_fraction = None;
        self.pending = None;
        self.multi_search = None;
    }

    /// Branches on the first item found with at most one option left
    /// instead of scanning on for the leftmost item with the fewest: less
    /// work per node where forced moves abound (sudoku), but the tree (and
    /// the node count) no longer matches DLX1's. Solutions are the same.
    /// Ignored by [`Solver::split`]. With [`Engine::Masks`] and no trace, the
    /// structure takes forced moves itself; they count as nodes, so a node
    /// budget may be overshot by the length of one such run.
    ///
    /// ```
    /// let p = exactly::format::parse_dlx("a b c\na b\nc\na\nb c\n")?;
    /// assert_eq!(exactly::Solver::new(&p).forced_first(true).count().solutions, 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn forced_first(mut self, on: bool) -> Self {
        self.enough = u32::from(on);
        self
    }

    /// Whether a count stopped by a budget may be resumed by calling it
    /// again (the default). A solver that will not be resumed lets
    /// [`Solver::count`] count a large exact cover by its [`Rest`] under a
    /// budget too, as it does without one. The rest's tree is the whole
    /// one's below the forced levels, so it meets the solutions in the
    /// same order: a budget on solutions stops it where it stops the whole
    /// search, and a node budget (less the forced levels) within a few
    /// nodes of it: the rest counts a last level of one item in one
    /// step where the whole problem may still have that item's twin. Once
    /// such a count stops, later calls find nothing more and report the
    /// same stop. [`Solver::for_each`] and [`Solver::first`] visit the
    /// rest's solutions too, as the whole problem's and in its order, with
    /// or without a budget; a visit that stops, at a budget or at a
    /// `Break`, is final in the same way. [`Solver::solutions`], whose
    /// every step resumes the last, searches the whole problem on such a
    /// solver, from its first step.
    ///
    /// A resumable solver visits by the rest too, unless a budget on nodes
    /// or time (or a cancel flag) could stop it between two solutions. A
    /// visit that stops at a solution (a `Break`, or the solution budget)
    /// is then resumed by the next call on the whole problem, with
    /// [`Engine::Links`], whose order the rest's is: the structure is
    /// built, the search moved to that solution, and it goes on from
    /// there as if it had searched the whole problem from the start.
    /// [`Solver::solutions`] takes its first step so.
    ///
    /// ```
    /// # let mut text = String::from("a b c f x |");
    /// # (0..7000).for_each(|k| text += &format!(" s{k}"));
    /// # text += "\nf x\na b\nc\na\nb c\n";
    /// # (0..7000).for_each(|k| text += &format!("x s{k}\n"));
    /// # let p = exactly::format::parse_dlx(&text)?;
    /// use exactly::{Engine, Limits, Outcome, Solver, StopReason};
    /// // `p`: f x forced, then a b c (two solutions), too large for the
    /// // bitsets and the item masks.
    /// let limits = Limits::default().max_solutions(1);
    /// let mut once = Solver::new(&p).limits(limits.clone()).resumable(false);
    /// let c = once.count();
    /// assert_eq!((c.solutions, c.outcome), (1, Outcome::Stopped(StopReason::SolutionLimit)));
    /// assert_eq!(once.stats().engine, Engine::Bits); // the rest's
    /// assert_eq!(once.count().solutions, 0);
    /// let mut whole = Solver::new(&p).limits(limits).engine(Engine::Links);
    /// whole.count();
    /// assert_eq!(once.stats().nodes, whole.stats().nodes);
    /// // Resumable: the first solution by the rest, then the whole problem.
    /// let mut resumed = Solver::new(&p);
    /// let first = resumed.first().expect("no budget").expect("two solutions");
    /// assert_eq!(resumed.stats().engine, Engine::Bits);
    /// let second = resumed.first().expect("no budget").expect("two solutions");
    /// assert_eq!(resumed.stats().engine, Engine::Links);
    /// assert_eq!(resumed.first(), Ok(None));
    /// let mut links = Solver::new(&p).engine(Engine::Links);
    /// let both = [first, second];
    /// assert_eq!(links.solutions().collect::<Vec<_>>(), both);
    /// assert_eq!(resumed.stats().nodes, links.stats().nodes);
    /// // The same as a listing.
    /// let mut listed = Solver::new(&p);
    /// assert_eq!(listed.solutions().collect::<Vec<_>>(), both);
    /// assert_eq!(listed.stats().nodes, links.stats().nodes);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resumable(mut self, resumable: bool) -> Self {
        self.resumable = resumable;
        self
    }

    /// Sets the budgets.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.budget.set_limits(&limits);
        self.limits = limits;
        self
    }

    /// Replaces the budgets of a solver already built (the clock is kept).
    pub(crate) fn set_limits(&mut self, limits: Limits) {
        self.budget.set_limits(&limits);
        self.limits = limits;
    }

    /// Breaks ties between equally constrained items at random (seeded,
    /// so runs repeat); without a seed the leftmost item wins, as in DLX1.
    pub fn seed(mut self, seed: u64) -> Self {
        // splitmix64 so that small seeds give well-mixed states; never zero.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        self.rng = Some((z ^ (z >> 31)) | 1);
        self
    }

    /// Calls `f` with a [`Progress`] report about every `interval` while searching.
    pub fn on_progress(mut self, interval: Duration, f: impl FnMut(&Progress) + Send + 'p) -> Self {
        self.budget.set_progress(interval);
        self.progress = Some(Box::new(f));
        self
    }

    /// Calls `f` at every step of the search (choose, try, solution, backtrack).
    pub fn on_trace(mut self, f: impl FnMut(&TraceEvent) + Send + 'p) -> Self {
        self.trace = Some(Box::new(f));
        self
    }

    /// Adds to the trace the links that each step changes
    /// ([`TraceEvent::Unlink`] and [`TraceEvent::Relink`] after the step's
    /// own event), as the dancing links change them: the search then uses
    /// [`Engine::Links`] whatever engine was asked for (same tree). Without
    /// it, the recording is compiled out of the search.
    ///
    /// ```
    /// use exactly::TraceEvent;
    /// let p = exactly::format::parse_dlx("a b\na b\nb\n")?;
    /// let mut out = 0;
    /// exactly::Solver::new(&p)
    ///     .trace_nodes(true)
    ///     .on_trace(|e| out += matches!(e, TraceEvent::Unlink { .. }) as u32)
    ///     .count();
    /// // Cover a (its header, and option 0's node on b), then b (its header).
    /// assert_eq!(out, 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn trace_nodes(mut self, on: bool) -> Self {
        self.trace_nodes = on;
        if on {
            self = self.engine(Engine::Links);
        }
        self
    }

    /// Moves the structure out (building it first if needed, and moving
    /// it to a pending path, [`Solver::resume_at`]), leaving
    /// `Backend::Empty` until it is put back.
    fn take_backend(&mut self) -> Backend {
        let pending = self.pending.take();
        let mut backend = match std::mem::replace(&mut self.backend, Backend::Empty) {
            // The rest's solutions came in the dancing links' order.
            Backend::Unbuilt(_) if pending.is_some() => Backend::new(self.problem, Engine::Links),
            Backend::Unbuilt(engine) => Backend::new(self.problem, engine),
            built => built,
        };
        if let Some(path) = pending {
            self.resume_at(&mut backend, &path);
        }
        backend
    }

    /// Moves the search, on `backend` just built, to the solution `path`
    /// that a visit by the rest stopped at, as the whole problem's search
    /// would have left it there: every level entered from the root (the
    /// floor), each with the options before its own passed over, so that
    /// the search backs up from it to the next solution.
    fn resume_at(&mut self, backend: &mut Backend, path: &[OptionId]) {
        let result = with_structure!(backend, (s, f) => self.descend(s, f, path), _ => Ok(()));
        self.stopped_fraction = None;
        self.replayed = 0;
        // The rest's search took the time so far.
        self.budget.start_after(self.stats.elapsed);
        if result.is_ok() {
            self.floor = 0;
        } else {
            // A path the rest's own search took always replays; should it
            // not, the levels entered stay the floor, for `reset` to undo,
            // and the search reports the stop again.
            debug_assert!(false, "the rest's path does not replay: {result:?}");
            self.resume = Resume::Done;
        }
    }

    /// The representation in use.
    pub fn engine_in_use(&self) -> Engine {
        self.backend.engine(self.problem)
    }

    /// The problem being solved.
    pub fn problem(&self) -> &'p Problem<L> {
        self.problem
    }

    /// Work done so far.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// How the last search call ended, if one has run.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Knuth's estimate of the fraction of the tree explored so far.
    pub fn fraction_done(&self) -> f64 {
        if let Some(fraction) = self.stopped_fraction {
            return fraction;
        }
        if self.resume == Resume::Done {
            return 1.0;
        }
        self.backend.fraction(self.level)
    }

    /// Counts the solutions, without storing them. The last level of the
    /// search tree is counted rather than walked.
    ///
    /// A large exact cover (one that [`Engine::Auto`] gives neither the
    /// bitsets nor the item masks) whose first levels each have one option,
    /// such as a large sudoku with its givens, may leave a small problem
    /// below them ([`Rest`]). Searched with [`Engine::Auto`], no budget
    /// (or one on a solver that is not [`Solver::resumable`]), seed, trace
    /// or [`Solver::forced_first`], and without multiplicities, the count
    /// then runs on that rest with the engine it suits (the bitsets or the
    /// item masks): the same tree and the same nodes, and
    /// [`Stats::engine`] names the rest's engine. Progress reports then
    /// come from the rest's search, with the levels and nodes above it
    /// added.
    pub fn count(&mut self) -> Count {
        if let Some(count) = self.count_rest(false) {
            return count;
        }
        let before = self.stats.solutions;
        let outcome = self.run(Mode::Count, |_: &[OptionId], _| ControlFlow::Continue(()));
        Count {
            solutions: self.stats.solutions - before,
            outcome,
        }
    }

    /// The first solution: `Ok(None)` when there is none, `Err` when a budget
    /// ran out before one was found.
    pub fn first(&mut self) -> Result<Option<Solution>, StopReason> {
        let mut found = None;
        let outcome = self.for_each(|s| {
            found = Some(s.clone());
            ControlFlow::Break(())
        });
        match (found, outcome) {
            (Some(s), _) => Ok(Some(s)),
            (None, Outcome::Complete) => Ok(None),
            (None, Outcome::Stopped(reason)) => Err(reason),
        }
    }

    /// Hands each solution to `visit` until it returns `Break`, a budget runs
    /// out, or the tree is exhausted. A later call resumes after the last
    /// solution visited, unless the solver is not [`Solver::resumable`].
    /// A large exact cover's solutions are visited through the [`Rest`]
    /// its forced moves leave, as [`Solver::count`] counts them, by a
    /// solver that is not resumable, and by one that is where no budget
    /// on nodes or time is set: see [`Solver::resumable`] for how such a
    /// visit is resumed, and why it changes the order of solutions from
    /// the one [`Engine::Auto`]'s dancing cells would give the whole
    /// problem.
    pub fn for_each(&mut self, mut visit: impl FnMut(&Solution) -> ControlFlow<()>) -> Outcome {
        if let Some(outcome) = self.visit_rest(false, &mut visit) {
            return outcome;
        }
        self.visit_whole(visit)
    }

    /// [`Solver::for_each`] on the whole problem, resumable.
    fn visit_whole(&mut self, mut visit: impl FnMut(&Solution) -> ControlFlow<()>) -> Outcome {
        let mut buf = Solution {
            options: Vec::new(),
        };
        self.run(Mode::Visit, |options, _| {
            buf.options.clear();
            buf.options.extend_from_slice(options);
            visit(&buf)
        })
    }

    /// All solutions, lazily: each `next()` resumes the search. On a
    /// resumable solver the first step is [`Solver::first`], which may
    /// go through the [`Rest`] (see [`Solver::resumable`]), and the next
    /// ones go on from it on the whole problem; a solver that is not
    /// resumable searches the whole problem from the first step. After the
    /// iterator ends, [`Solver::outcome`] tells whether it was exhaustive.
    pub fn solutions(&mut self) -> Solutions<'_, 'p, L> {
        Solutions { solver: self }
    }

    /// Splits the tree below the current node at `depth` levels further
    /// down: `frontier` gets the prefix (options from the root) of every node
    /// at that depth that is not a solution; `solution` gets every solution
    /// above it. Returns how the walk ended; the nodes above the cutoff are
    /// counted in [`Stats`], the frontier nodes themselves are not (their
    /// subproblems count them).
    pub fn split(
        &mut self,
        depth: usize,
        mut frontier: impl FnMut(&[OptionId]),
        mut solution: impl FnMut(&[OptionId]),
    ) -> Outcome {
        self.cutoff = self.floor.saturating_add(depth);
        let outcome = self.run(Mode::Split, |options, is_frontier| {
            if is_frontier {
                frontier(options);
            } else {
                solution(options);
            }
            ControlFlow::Continue(())
        });
        self.cutoff = usize::MAX;
        outcome
    }

    /// Returns the solver to the root, before any search or restriction,
    /// undoing whatever the structure still holds. Statistics start again.
    pub fn reset(&mut self) {
        self.pending = None;
        let mut backend = self.take_backend();
        with_structure!(&mut backend, (s, f) => self.unwind(s, f), _ => {});
        self.backend = backend;
        self.level = 0;
        self.floor = 0;
        self.replayed = 0;
        self.resume = Resume::Enter;
        self.stats = Stats::default();
        self.budget.restart();
        self.outcome = None;
        self.stopped_fraction = None;
        self.multi_search = None;
    }

    /// One of Knuth's random probes from the current node: walks down,
    /// choosing uniformly among the options at each level, and returns the
    /// estimates `(nodes, solutions)` of the subtree (each the product of
    /// the branching degrees seen, summed over the levels for nodes). The
    /// solver is left as it was. `rng` is a xorshift state (not zero).
    ///
    /// Fails with [`PrefixError::Multiplicities`] on a problem with
    /// multiplicities, whose search has no such probes.
    ///
    /// ```
    /// use exactly::{PrefixError, Solver};
    /// let p = exactly::format::parse_dlx("a b\na b\na\nb\n")?;
    /// let mut rng = 1;
    /// let (nodes, solutions) = Solver::new(&p).probe(&mut rng)?;
    /// assert!(nodes >= 1.0 && solutions >= 0.0);
    /// let multi = exactly::format::parse_dlx("2|a\na\na\n")?;
    /// assert_eq!(Solver::new(&multi).probe(&mut rng), Err(PrefixError::Multiplicities));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn probe(&mut self, rng: &mut u64) -> Result<(f64, f64), PrefixError> {
        if self.multi {
            return Err(PrefixError::Multiplicities);
        }
        let (nodes, solutions, _) = self.probe_steps(rng);
        Ok((nodes, solutions))
    }

    /// [`Solver::probe`], with the number of nodes the probe visited (its
    /// depth plus one) last.
    pub(crate) fn probe_steps(&mut self, rng: &mut u64) -> (f64, f64, u64) {
        if self.multi {
            return (f64::NAN, f64::NAN, 1);
        }
        let mut backend = self.take_backend();
        let result =
            with_structure!(&mut backend, (s, _f) => Self::probe_at(s, rng), _ => (0.0, 0.0, 0));
        self.backend = backend;
        result
    }

    /// Moves the search to the node reached from the root by choosing
    /// `prefix` in order (each option must be one of the options of the item
    /// branched on at its level) and confines it to that subtree: counting,
    /// visiting or iterating then covers exactly the solutions that extend
    /// the prefix. Call it on a solver that has not searched yet. The nodes
    /// on the way down are not counted in [`Stats`].
    ///
    /// ```
    /// use exactly::{OptionId, Solver};
    /// let p = exactly::format::parse_dlx("a b\na b\na\nb\n")?;
    /// let mut s = Solver::new(&p);
    /// s.restrict(&[OptionId::new(1)])?; // item a is branched on first
    /// assert_eq!(s.count().solutions, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn restrict(&mut self, prefix: &[OptionId]) -> Result<(), PrefixError> {
        if self.multi {
            return Err(PrefixError::Multiplicities);
        }
        if self.stats.nodes > 0 || self.level > 0 {
            return Err(PrefixError::AlreadySearched);
        }
        let mut backend = self.take_backend();
        let result =
            with_structure!(&mut backend, (s, f) => self.descend(s, f, prefix), _ => Ok(()));
        self.backend = backend;
        if result.is_err() {
            // Levels already entered cannot be trusted: nothing is left to search.
            self.resume = Resume::Done;
        }
        result
    }

    /// [`Solver::reset`] followed by [`Solver::restrict`]`(prefix)`, with
    /// the same result, but the levels from the root that the last prefix
    /// replayed and `prefix` share are kept rather than undone and replayed
    /// again. Moving from one subproblem of a split to the next then costs
    /// only the levels where their prefixes differ, which matters where
    /// prefixes run thousands of levels deep (a large sudoku's givens).
    /// Any search or [`Solver::assume`] made since is undone.
    ///
    /// ```
    /// use exactly::{OptionId, Solver};
    /// let p = exactly::format::parse_dlx("a b\na b\na\nb\n")?;
    /// let mut s = Solver::new(&p);
    /// s.reset_to(&[OptionId::new(1)])?; // "a", then b's only option
    /// assert_eq!(s.count().solutions, 1);
    /// s.reset_to(&[OptionId::new(0)])?; // "a b"
    /// assert_eq!(s.count().solutions, 1);
    /// s.reset_to(&[])?;
    /// assert_eq!(s.count().solutions, 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reset_to(&mut self, prefix: &[OptionId]) -> Result<(), PrefixError> {
        self.move_solver(prefix, false)
    }

    /// From the root of a solver that has not searched, makes the moves the
    /// search is forced to make (levels whose item has one option), at most
    /// `max` of them, and stays at the node reached, as
    /// [`Solver::restrict`] to those options leaves it. Returns the options
    /// taken and the link updates made; `None`, with the solver back at
    /// the root, where the forced moves end in a dead end or a solution, or
    /// where the structure cannot find them by the quick scan described at
    /// [`Solver::descend_from`].
    pub(crate) fn follow_forced(&mut self, max: usize) -> Option<(Vec<OptionId>, u64)> {
        if self.multi || self.stats.nodes > 0 || self.level > 0 {
            return None;
        }
        let mut backend = self.take_backend();
        let result = with_structure!(&mut backend, (s, f) => self.follow(s, f, max), _ => None);
        self.backend = backend;
        result
    }

    /// [`Solver::reset_to`] a prefix that this solver's own split found,
    /// so that it needs no checking: the levels past those kept are
    /// committed without choosing an item at each (a choice scans the open
    /// items). The structure is then as `reset_to` leaves it.
    pub(crate) fn reset_to_found(&mut self, prefix: &[OptionId]) -> Result<(), PrefixError> {
        self.move_solver(prefix, true)
    }

    /// [`Solver::reset_to_found`] the prefix made of the first `at` levels
    /// the solver holds, which stay as they are, and then `rest`: `at` is
    /// at most the levels the last move replayed (a cut's subproblems all
    /// go through the same forced moves from the root).
    pub(crate) fn reset_to_found_after(
        &mut self,
        at: usize,
        rest: &[OptionId],
    ) -> Result<(), PrefixError> {
        if self.multi {
            return Err(PrefixError::Multiplicities);
        }
        self.pending = None;
        let mut backend = self.take_backend();
        let result = with_structure!(&mut backend, (s, f) => self.move_to(s, f, at, rest, true), _ => Ok(()));
        self.backend = backend;
        self.after_move(result)
    }

    fn move_solver(&mut self, prefix: &[OptionId], known: bool) -> Result<(), PrefixError> {
        if self.multi {
            return Err(PrefixError::Multiplicities);
        }
        self.pending = None;
        let mut backend = self.take_backend();
        let result = with_structure!(&mut backend, (s, f) => self.move_to(s, f, 0, prefix, known), _ => Ok(()));
        self.backend = backend;
        self.after_move(result)
    }

    /// The solver's state after a move to a prefix that ended with
    /// `result`.
    fn after_move(&mut self, result: Result<(), PrefixError>) -> Result<(), PrefixError> {
        self.stats = Stats::default();
        self.budget.restart();
        self.outcome = None;
        self.stopped_fraction = None;
        self.multi_search = None;
        self.resume = if result.is_ok() {
            Resume::Enter
        } else {
            // As after a failed [`Solver::restrict`].
            Resume::Done
        };
        result
    }

    /// Commits `options` before the search, in order, as if they had been
    /// chosen on the way down from the current node (the root, or where
    /// [`Solver::restrict`] or an earlier call left the solver): their items
    /// are covered and every option that shares one is removed, so the
    /// search sees only what is left. Solutions then include these options.
    /// Call it before searching; [`Solver::reset`] undoes it. The search
    /// structure is reused, so solving many related problems (a puzzle's
    /// givens on one grid) costs no rebuilding.
    ///
    /// Fails with [`PrefixError::NotAvailable`] when an option clashes with
    /// one committed before it; nothing is left to search then.
    ///
    /// ```
    /// use exactly::{OptionId, Solver};
    /// let p = exactly::format::parse_dlx("a b c\na b\nc\na\nb c\n")?;
    /// let mut s = Solver::new(&p);
    /// s.assume(&[OptionId::new(3)])?; // "b c"
    /// assert_eq!(s.count().solutions, 1);
    /// s.reset();
    /// assert_eq!(s.count().solutions, 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn assume(&mut self, options: &[OptionId]) -> Result<(), PrefixError> {
        if self.multi {
            return Err(PrefixError::Multiplicities);
        }
        if self.stats.nodes > 0 || self.level != self.floor || self.resume != Resume::Enter {
            return Err(PrefixError::AlreadySearched);
        }
        let problem = self.problem;
        let mut backend = self.take_backend();
        let result = with_structure!(&mut backend, (s, f) => self.commit_all(s, f, problem, options), _ => Ok(()));
        self.backend = backend;
        if result.is_err() {
            self.resume = Resume::Done;
        }
        result
    }

    /// What the search would do at the current node (the root, or the node
    /// [`Solver::restrict`] moved to), leaving the solver as it was: the
    /// node is a solution, or it branches on an item with these options
    /// (none: a dead end).
    ///
    /// Fails with [`PrefixError::Multiplicities`] on a problem with
    /// multiplicities: Algorithm M's branches (how many times an item is
    /// covered) are not a list of options.
    ///
    /// ```
    /// use exactly::{Branch, OptionId, PrefixError, Solver};
    /// let p = exactly::format::parse_dlx("a b\na b\na\nb\n")?;
    /// let branch = Solver::new(&p).branch()?;
    /// assert_eq!(branch, Branch::Options(vec![OptionId::new(0), OptionId::new(1)]));
    /// let multi = exactly::format::parse_dlx("2|a\na\na\n")?;
    /// assert_eq!(Solver::new(&multi).branch(), Err(PrefixError::Multiplicities));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn branch(&mut self) -> Result<Branch, PrefixError> {
        if self.multi {
            return Err(PrefixError::Multiplicities);
        }
        let mut backend = self.take_backend();
        let branch = with_structure!(
            &mut backend,
            (s, _f) => Self::branch_at(s),
            _ => Branch::Options(Vec::new())
        );
        self.backend = backend;
        Ok(branch)
    }

    /// The options of the item the search would branch on at the current
    /// node, without trying them (0 at a solution): at least as many as
    /// the node's children. 0 with multiplicities.
    pub(crate) fn degree(&mut self) -> u32 {
        if self.multi {
            return 0;
        }
        let mut backend = self.take_backend();
        let degree = with_structure!(&mut backend, (s, _f) => Self::degree_at(s), _ => 0);
        self.backend = backend;
        degree
    }
}

/// Iterator over solutions; see [`Solver::solutions`].
pub struct Solutions<'s, 'p, L> {
    solver: &'s mut Solver<'p, L>,
}

impl<L> Iterator for Solutions<'_, '_, L> {
    type Item = Solution;

    fn next(&mut self) -> Option<Solution> {
        let mut found = None;
        let mut take = |s: &Solution| {
            found = Some(s.clone());
            ControlFlow::Break(())
        };
        // Each call resumes the last: a resumable solver's first may go
        // through the rest, whose stop the next resumes on the whole
        // problem; one that is not resumable searches the whole problem.
        let outcome = match self.solver.resumable {
            true => self.solver.for_each(&mut take),
            false => self.solver.visit_whole(&mut take),
        };
        if found.is_some() {
            // Stopping to hand over a solution is not an early stop.
            self.solver.outcome = None;
        } else {
            self.solver.outcome = Some(outcome);
        }
        found
    }
}
