//! The search: Knuth's Algorithm X, and Algorithm C for colors, on the
//! dancing links of [`crate::links`], as an explicit-stack loop that can stop
//! and resume at any solution.

use crate::time::Instant;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::bits::Bits;
use crate::cells::{Cells, Mark};
use crate::links::Links;
use crate::masks::Masks;
use crate::problem::{ItemId, OptionId, Problem};

/// Which representation of the search state a [`Solver`] uses. All explore
/// the same tree (counting, the same nodes and solutions); they differ in
/// speed, and dancing cells may try an item's options in another order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Engine {
    /// Picks by the problem's shape: [`Engine::Masks`] when the problem
    /// fits item masks and one cell per item takes at most 16 KiB; else
    /// [`Engine::Bits`] for up to 4096 options (and at most 8 MiB of bitset
    /// rows); else [`Engine::Cells`] when options have 5 or more items on
    /// average; else [`Engine::Links`]. Counting with `examples/count` (one
    /// thread, 2-core machine), masks, bits and links took 0.107 s, 0.187 s
    /// and 0.160 s on queens-13, 0.354 s, 0.662 s and 0.602 s on
    /// langford-12, and 0.008 s, 0.227 s and 0.017 s on a hard 16x16
    /// sudoku; on pentomino 6x10 (no masks: an item has 304 options) bits
    /// took 0.78 s, links 4.05 s and cells 3.51 s. Cells beat links on long
    /// options (undoing costs them almost nothing) and lose on short ones.
    #[default]
    Auto,
    /// Dancing cells: sparse sets with a trail (Knuth's SSXC programs).
    Cells,
    /// Dancing links: doubly linked lists (Knuth's DLX1/DLX2).
    Links,
    /// Bitsets of available options with precomputed conflicts; memory
    /// grows with the square of the number of options. Does not count
    /// updates.
    Bits,
    /// Item masks: each item's remaining options as one machine word, and
    /// the state copied at levels with a choice instead of undone. For
    /// problems without colors whose items have at most 64 options and
    /// whose options have at most 8 items; others get [`Engine::Links`].
    /// With [`Solver::forced_first`] it finds forced items without a scan.
    /// Does not count updates.
    Masks,
}

impl Engine {
    /// The concrete engine [`Engine::Auto`] picks for `problem`.
    ///
    /// ```
    /// let p = exactly::Problem::<()>::from_names(&["a"], &[], [((), vec!["a"])])?;
    /// assert_eq!(exactly::Engine::Auto.resolve(&p), exactly::Engine::Masks);
    /// // Colors rule item masks out.
    /// let p = exactly::format::parse_dlx("a | x\na x:red\n").unwrap();
    /// assert_eq!(exactly::Engine::Auto.resolve(&p), exactly::Engine::Bits);
    /// # Ok::<(), exactly::BuildError>(())
    /// ```
    pub fn resolve<L>(self, problem: &Problem<L>) -> Engine {
        match self {
            Engine::Auto if crate::masks::suits(problem) => Engine::Masks,
            Engine::Auto if crate::bits::fits(problem) => Engine::Bits,
            Engine::Auto if problem.num_entries() >= 5 * problem.num_options() => Engine::Cells,
            Engine::Auto => Engine::Links,
            Engine::Masks if !crate::masks::fits(problem) => Engine::Links,
            other => other,
        }
    }
}

/// The state of one level of the search.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Frame {
    /// The item branched on (the structure's own index).
    pub item: u32,
    /// Options tried so far.
    pub k: u32,
    /// Options the item had when chosen.
    pub d: u32,
    /// Dancing links: the node of the option being tried. Bitsets: where
    /// to look for the next option.
    pub x: u32,
    /// Bitsets: the level of this frame. Item masks: the number of
    /// options committed before it.
    pub depth: u32,
    /// Item masks: the options not tried yet.
    pub bits: u64,
    /// Dancing cells: the state before and after covering `item`.
    pub m1: Mark,
    pub m2: Mark,
}

/// What the search loop needs from a representation.
pub(crate) trait Structure {
    fn updates(&self) -> u64;
    fn set_updates(&mut self, updates: u64);
    /// The number of active primary items, capped at 2.
    fn primaries_left(&mut self) -> u32;
    /// The active primary item with the fewest options; ties to the
    /// leftmost, or to a random one when `rng` is set. The scan stops at the
    /// first item with at most `enough` options (0 keeps DLX1's tree).
    fn choose(&mut self, rng: &mut Option<u64>, enough: u32) -> u32;
    fn len(&self, item: u32) -> u32;
    /// Covers `frame.item` and prepares to try its options.
    fn enter(&mut self, frame: &mut Frame);
    /// Undoes the previous option of the frame, if any, and commits the next
    /// one, returning its node; `None` (with the item uncovered) when all
    /// have been tried.
    fn next_option(&mut self, frame: &mut Frame) -> Option<u32>;
    /// Undoes everything `frame` holds (its current option, then the cover
    /// of its item), as if its options had run out.
    fn leave(&mut self, frame: &mut Frame);
    fn option_of(&self, node: u32) -> OptionId;
    fn item_id(&self, item: u32) -> ItemId;
    /// The structure's index of item `item` (a primary item).
    fn index_of(&self, item: ItemId) -> u32;
    /// Whether primary item `item` (the structure's index) is still to be
    /// covered.
    fn is_open(&mut self, item: u32) -> bool;
    /// Enters `frame` on `item` (a primary item of `option`) and commits
    /// `option`, returning its node; `None`, with nothing changed, when the
    /// option is no longer available. `leave` undoes it.
    fn assume(&mut self, frame: &mut Frame, item: ItemId, option: OptionId) -> Option<u32> {
        let i = self.index_of(item);
        if !self.is_open(i) {
            return None;
        }
        *frame = Frame {
            item: i,
            d: self.len(i),
            ..Frame::default()
        };
        self.enter(frame);
        while let Some(x) = self.next_option(frame) {
            if self.option_of(x) == option {
                return Some(x);
            }
        }
        None
    }
    /// Asks the structure to follow forced moves on its own after each
    /// option `next_option` commits (see [`Structure::chained`]); off unless
    /// set, and only the search loop sets it.
    #[inline(always)]
    fn set_chain(&mut self, _on: bool) {}
    /// The options committed on their own since the last call: each was the
    /// only option of an item left with one, and counts as a node.
    #[inline(always)]
    fn chained(&mut self) -> u64 {
        0
    }
    /// Appends the options of the current solution, whose levels chose the
    /// nodes `choice`.
    #[inline(always)]
    fn solution(&mut self, choice: &[u32], out: &mut Vec<OptionId>) {
        out.extend(choice.iter().map(|&x| self.option_of(x)));
    }
    fn debug_check(&self) -> Result<(), String>;
}

/// One step of xorshift64*.
#[inline(always)]
pub(crate) fn next_random(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

#[derive(Clone, Debug)]
enum Backend {
    Bits(Bits),
    Cells(Cells),
    Masks(Masks<u128>),
    Masks32(Masks<u64>),
    Masks16(Masks<u32>),
    Links(Links),
    /// Only while a search runs.
    Empty,
    /// Not built yet: structures are built on first use, so that choosing
    /// an engine after `Solver::new` costs nothing.
    Unbuilt(Engine),
}

/// Evaluates `$body` with `$s` bound to the structure in `$backend` (a
/// `&mut Backend`) as a `&mut impl Structure`, or `$none` when nothing is
/// built: one arm per representation, written once.
macro_rules! with_structure {
    ($backend:expr, $s:ident => $body:expr, _ => $none:expr) => {
        match $backend {
            Backend::Bits($s) => $body,
            Backend::Cells($s) => $body,
            Backend::Masks($s) => $body,
            Backend::Masks32($s) => $body,
            Backend::Masks16($s) => $body,
            Backend::Links(l) if l.colors => {
                let $s = &mut crate::links::Dlx::<true>(l);
                $body
            }
            Backend::Links(l) => {
                let $s = &mut crate::links::Dlx::<false>(l);
                $body
            }
            Backend::Empty | Backend::Unbuilt(_) => $none,
        }
    };
}

impl Backend {
    fn new<L>(problem: &Problem<L>, engine: Engine) -> Backend {
        match engine.resolve(problem) {
            Engine::Bits => Backend::Bits(Bits::new(problem)),
            Engine::Cells => Backend::Cells(Cells::new(problem)),
            Engine::Masks => match crate::masks::cell_bits(problem) {
                32 => Backend::Masks16(Masks::new(problem)),
                64 => Backend::Masks32(Masks::new(problem)),
                _ => Backend::Masks(Masks::new(problem)),
            },
            _ => Backend::Links(Links::new(problem)),
        }
    }
}

/// Budgets for a search. The default has none.
///
/// ```
/// use std::time::Duration;
/// let limits = exactly::Limits::default()
///     .max_nodes(1_000_000)
///     .max_time(Duration::from_secs(5));
/// assert_eq!(limits.nodes, Some(1_000_000));
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Limits {
    /// Stop once this many search nodes have been entered.
    pub nodes: Option<u64>,
    /// Stop once this much time has passed since the search began.
    pub time: Option<Duration>,
    /// Stop once this many solutions have been found.
    pub solutions: Option<u128>,
    /// Stop as soon as this flag becomes true (set it from any thread).
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// Sets the node budget.
    pub fn max_nodes(mut self, nodes: u64) -> Self {
        self.nodes = Some(nodes);
        self
    }

    /// Sets the time budget.
    pub fn max_time(mut self, time: Duration) -> Self {
        self.time = Some(time);
        self
    }

    /// Stops after this many solutions.
    pub fn max_solutions(mut self, solutions: u128) -> Self {
        self.solutions = Some(solutions);
        self
    }

    /// Stops when `flag` becomes true.
    pub fn cancel_flag(mut self, flag: Arc<AtomicBool>) -> Self {
        self.cancel = Some(flag);
        self
    }
}

/// Why a search ended before exploring the whole tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StopReason {
    /// The node budget ran out.
    NodeLimit,
    /// The time budget ran out.
    TimeLimit,
    /// The requested number of solutions was reached.
    SolutionLimit,
    /// The cancel flag was set.
    Cancelled,
    /// The caller's callback asked to stop.
    Caller,
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StopReason::NodeLimit => "node limit reached",
            StopReason::TimeLimit => "time limit reached",
            StopReason::SolutionLimit => "solution limit reached",
            StopReason::Cancelled => "cancelled",
            StopReason::Caller => "stopped by the caller",
        })
    }
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The whole tree was explored: the solutions seen are all there are.
    Complete,
    /// The search stopped early; more solutions may exist.
    Stopped(StopReason),
}

impl Outcome {
    /// True when the whole search tree was explored.
    pub fn is_complete(self) -> bool {
        self == Outcome::Complete
    }
}

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

/// Why [`Solver::restrict`] refused a prefix.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PrefixError {
    /// The solver has searched already.
    #[error("the solver has already searched; restrict a new one")]
    AlreadySearched,
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
    rng: Option<u64>,
    /// `frames[l]`: the item branched on at level `l` and the option tried.
    frames: Vec<Frame>,
    /// `choice[l]`: the node of the option tried at level `l`.
    choice: Vec<u32>,
    level: usize,
    /// The level the search may not back up past: 0, or the length of the
    /// prefix given to [`Solver::restrict`].
    floor: usize,
    /// In split mode, the depth of the subproblems' roots.
    cutoff: usize,
    /// The branching scan stops at an item with at most this many options.
    enough: u32,
    resume: Resume,
    stats: Stats,
    started: Option<Instant>,
    progress: Option<(Duration, ProgressFn<'p>)>,
    last_progress: Duration,
    trace: Option<TraceFn<'p>>,
    outcome: Option<Outcome>,
}

/// How often (in nodes) the clock, the cancel flag and progress are checked.
const CHECK_MASK: u64 = (1 << 12) - 1;

impl<'p, L> Solver<'p, L> {
    /// A solver for `problem`, positioned at the root of the search tree.
    pub fn new(problem: &'p Problem<L>) -> Solver<'p, L> {
        Solver {
            problem,
            backend: Backend::Unbuilt(Engine::Auto),
            limits: Limits::default(),
            rng: None,
            frames: Vec::new(),
            choice: Vec::new(),
            level: 0,
            floor: 0,
            cutoff: usize::MAX,
            enough: 0,
            resume: Resume::Enter,
            stats: Stats::default(),
            started: None,
            progress: None,
            last_progress: Duration::ZERO,
            trace: None,
            outcome: None,
        }
    }

    /// Selects the representation (before the search starts; later calls
    /// restart the search from the root).
    pub fn engine(mut self, engine: Engine) -> Self {
        self.backend = Backend::Unbuilt(engine);
        self.level = 0;
        self.floor = 0;
        self.resume = Resume::Enter;
        self.stats = Stats::default();
        self.outcome = None;
        self
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

    /// Sets the budgets.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
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
        self.progress = Some((interval, Box::new(f)));
        self
    }

    /// Calls `f` at every step of the search (choose, try, solution, backtrack).
    pub fn on_trace(mut self, f: impl FnMut(&TraceEvent) + Send + 'p) -> Self {
        self.trace = Some(Box::new(f));
        self
    }

    /// Moves the structure out (building it first if needed), leaving
    /// `Backend::Empty` until it is put back.
    fn take_backend(&mut self) -> Backend {
        match std::mem::replace(&mut self.backend, Backend::Empty) {
            Backend::Unbuilt(engine) => Backend::new(self.problem, engine),
            built => built,
        }
    }

    /// The representation in use.
    pub fn engine_in_use(&self) -> Engine {
        match self.backend {
            Backend::Unbuilt(engine) => engine.resolve(self.problem),
            Backend::Bits(_) => Engine::Bits,
            Backend::Cells(_) => Engine::Cells,
            Backend::Masks(_) | Backend::Masks16(_) | Backend::Masks32(_) => Engine::Masks,
            _ => Engine::Links,
        }
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
        if self.resume == Resume::Done {
            return 1.0;
        }
        let mut f = 0.0;
        let mut scale = 1.0;
        for frame in &self.frames[..self.level] {
            scale /= frame.d.max(1) as f64;
            f += (frame.k.saturating_sub(1)) as f64 * scale;
        }
        (f + 0.5 * scale).clamp(0.0, 1.0)
    }

    /// Counts the solutions, without storing them. The last level of the
    /// search tree is counted rather than walked.
    pub fn count(&mut self) -> Count {
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
    /// solution visited.
    pub fn for_each(&mut self, mut visit: impl FnMut(&Solution) -> ControlFlow<()>) -> Outcome {
        let mut buf = Solution {
            options: Vec::new(),
        };
        self.run(Mode::Visit, |options, _| {
            buf.options.clear();
            buf.options.extend_from_slice(options);
            visit(&buf)
        })
    }

    /// All solutions, lazily: each `next()` resumes the search. After the
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
        let mut backend = self.take_backend();
        with_structure!(&mut backend, s => self.unwind(s), _ => {});
        self.backend = backend;
        self.level = 0;
        self.floor = 0;
        self.resume = Resume::Enter;
        self.stats = Stats::default();
        self.started = None;
        self.last_progress = Duration::ZERO;
        self.outcome = None;
    }

    fn unwind<S: Structure>(&mut self, st: &mut S) {
        // Levels below `level` hold a covered item and a committed option,
        // except after a complete search, when those at or above the floor
        // have been undone already.
        let active = if self.resume == Resume::Done {
            self.floor
        } else {
            self.level
        };
        for frame in self.frames[..active].iter_mut().rev() {
            st.leave(frame);
        }
    }

    /// One of Knuth's random probes from the current node: walks down,
    /// choosing uniformly among the options at each level, and returns the
    /// estimates `(nodes, solutions)` of the subtree (each the product of
    /// the branching degrees seen, summed over the levels for nodes). The
    /// solver is left as it was. `rng` is a xorshift state (not zero).
    pub fn probe(&mut self, rng: &mut u64) -> (f64, f64) {
        let (nodes, solutions, _) = self.probe_steps(rng);
        (nodes, solutions)
    }

    /// [`Solver::probe`], with the number of nodes the probe visited (its
    /// depth plus one) last.
    pub(crate) fn probe_steps(&mut self, rng: &mut u64) -> (f64, f64, u64) {
        let mut backend = self.take_backend();
        let result = with_structure!(&mut backend, s => Self::probe_at(s, rng), _ => (0.0, 0.0, 0));
        self.backend = backend;
        result
    }

    fn probe_at<S: Structure>(st: &mut S, rng: &mut u64) -> (f64, f64, u64) {
        let mut frames = Vec::new();
        let mut weight = 1.0;
        let mut nodes = 1.0;
        let solutions = loop {
            if st.primaries_left() == 0 {
                break weight;
            }
            let i = st.choose(&mut None, 0);
            let d = st.len(i);
            if d == 0 {
                break 0.0;
            }
            let mut frame = Frame {
                item: i,
                d,
                ..Frame::default()
            };
            st.enter(&mut frame);
            let pick = next_random(rng) % u64::from(d);
            for _ in 0..=pick {
                st.next_option(&mut frame);
            }
            frames.push(frame);
            weight *= f64::from(d);
            nodes += weight;
        };
        for frame in frames.iter_mut().rev() {
            st.leave(frame);
        }
        (nodes, solutions, frames.len() as u64 + 1)
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
        if self.stats.nodes > 0 || self.level > 0 {
            return Err(PrefixError::AlreadySearched);
        }
        let mut backend = self.take_backend();
        let result = with_structure!(&mut backend, s => self.descend(s, prefix), _ => Ok(()));
        self.backend = backend;
        if result.is_err() {
            // Levels already entered cannot be trusted: nothing is left to search.
            self.resume = Resume::Done;
        }
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
        if self.stats.nodes > 0 || self.level != self.floor || self.resume != Resume::Enter {
            return Err(PrefixError::AlreadySearched);
        }
        let problem = self.problem;
        let mut backend = self.take_backend();
        let result =
            with_structure!(&mut backend, s => self.commit_all(s, problem, options), _ => Ok(()));
        self.backend = backend;
        if result.is_err() {
            self.resume = Resume::Done;
        }
        result
    }

    fn commit_all<S: Structure>(
        &mut self,
        st: &mut S,
        problem: &Problem<L>,
        options: &[OptionId],
    ) -> Result<(), PrefixError> {
        for &option in options {
            let l = self.level;
            let item = problem
                .option(option)
                .iter()
                .map(|e| e.item)
                .find(|&i| problem.item_kind(i) == crate::ItemKind::Primary);
            self.frames.truncate(l);
            self.choice.truncate(l);
            self.frames.push(Frame::default());
            self.choice.push(0);
            let node = item.and_then(|i| st.assume(&mut self.frames[l], i, option));
            let Some(x) = node else {
                self.frames.truncate(l);
                self.choice.truncate(l);
                return Err(PrefixError::NotAvailable { level: l, option });
            };
            self.choice[l] = x;
            self.level = l + 1;
            self.floor = self.level;
        }
        Ok(())
    }

    fn descend<S: Structure>(
        &mut self,
        st: &mut S,
        prefix: &[OptionId],
    ) -> Result<(), PrefixError> {
        for (l, &target) in prefix.iter().enumerate() {
            if st.primaries_left() == 0 {
                return Err(PrefixError::TooLong { level: l });
            }
            let i = st.choose(&mut None, 0);
            let frame = Frame {
                item: i,
                d: st.len(i),
                ..Frame::default()
            };
            // After a reset the stacks still hold the last search's levels.
            self.frames.truncate(l);
            self.choice.truncate(l);
            self.frames.push(frame);
            self.choice.push(0);
            st.enter(&mut self.frames[l]);
            loop {
                match st.next_option(&mut self.frames[l]) {
                    None => {
                        return Err(PrefixError::NotAvailable {
                            level: l,
                            option: target,
                        })
                    }
                    Some(x) if st.option_of(x) == target => {
                        self.choice[l] = x;
                        break;
                    }
                    Some(_) => {}
                }
            }
            self.level = l + 1;
        }
        self.floor = prefix.len();
        Ok(())
    }

    /// What the search would do at the current node (the root, or the node
    /// [`Solver::restrict`] moved to), leaving the solver as it was: the
    /// node is a solution, or it branches on an item with these options
    /// (none: a dead end).
    ///
    /// ```
    /// use exactly::{Branch, OptionId, Solver};
    /// let p = exactly::format::parse_dlx("a b\na b\na\nb\n")?;
    /// let branch = Solver::new(&p).branch();
    /// assert_eq!(branch, Branch::Options(vec![OptionId::new(0), OptionId::new(1)]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn branch(&mut self) -> Branch {
        let mut backend = self.take_backend();
        let branch = with_structure!(
            &mut backend,
            s => Self::branch_at(s),
            _ => Branch::Options(Vec::new())
        );
        self.backend = backend;
        branch
    }

    fn branch_at<S: Structure>(st: &mut S) -> Branch {
        if st.primaries_left() == 0 {
            return Branch::Solution;
        }
        let i = st.choose(&mut None, 0);
        let mut frame = Frame {
            item: i,
            d: st.len(i),
            ..Frame::default()
        };
        st.enter(&mut frame);
        let mut options = Vec::with_capacity(frame.d as usize);
        while let Some(x) = st.next_option(&mut frame) {
            options.push(st.option_of(x));
        }
        Branch::Options(options)
    }

    /// Returns the elapsed time and stops with `reason`.
    fn stop(&mut self, reason: StopReason) -> Outcome {
        let outcome = Outcome::Stopped(reason);
        self.outcome = Some(outcome);
        outcome
    }

    fn check_budgets(&mut self) -> Option<StopReason> {
        if let Some(flag) = &self.limits.cancel {
            if flag.load(Ordering::Relaxed) {
                return Some(StopReason::Cancelled);
            }
        }
        let elapsed = self.started.map_or(Duration::ZERO, |t| t.elapsed());
        if self.limits.time.is_some_and(|t| elapsed >= t) {
            return Some(StopReason::TimeLimit);
        }
        if let Some((interval, _)) = &self.progress {
            if elapsed >= self.last_progress + *interval {
                self.last_progress = elapsed;
                let report = Progress {
                    nodes: self.stats.nodes,
                    solutions: self.stats.solutions,
                    fraction: self.fraction_done(),
                    depth: self.level as u32,
                    elapsed,
                };
                if let Some((_, f)) = &mut self.progress {
                    f(&report);
                }
            }
        }
        None
    }

    fn emit(&mut self, event: TraceEvent) {
        if let Some(f) = &mut self.trace {
            f(&event);
        }
    }

    fn run(
        &mut self,
        mode: Mode,
        visit: impl FnMut(&[OptionId], bool) -> ControlFlow<()>,
    ) -> Outcome {
        if self.resume == Resume::Done {
            return self.outcome.unwrap_or(Outcome::Complete);
        }
        let start = Instant::now();
        let base = self.started.map_or(Duration::ZERO, |t| t.elapsed());
        self.started = Some(start - base);
        // The structure is moved out while the loop runs so that the loop can
        // borrow the rest of the solver freely.
        let mut backend = self.take_backend();
        let outcome = match &mut backend {
            Backend::Bits(b) => self.search_popcnt(b, mode, visit),
            Backend::Cells(c) => self.search(c, mode, visit),
            Backend::Masks(m) => self.search_avx2(m, mode, visit),
            Backend::Masks32(m) => self.search_avx2(m, mode, visit),
            Backend::Masks16(m) => self.search_avx2(m, mode, visit),
            Backend::Links(l) if l.colors => {
                self.search(&mut crate::links::Dlx::<true>(l), mode, visit)
            }
            Backend::Links(l) => self.search(&mut crate::links::Dlx::<false>(l), mode, visit),
            Backend::Empty | Backend::Unbuilt(_) => Outcome::Complete,
        };
        self.backend = backend;
        self.stats.elapsed = self.started.map_or(Duration::ZERO, |t| t.elapsed());
        self.stats.engine = self.engine_in_use();
        self.outcome = Some(outcome);
        outcome
    }

    /// [`Solver::search`], compiled with `popcnt` when the processor has it
    /// ([`crate::unchecked::has_popcnt`]).
    #[inline(always)]
    fn search_popcnt<S: Structure>(
        &mut self,
        st: &mut S,
        mode: Mode,
        visit: impl FnMut(&[OptionId], bool) -> ControlFlow<()>,
    ) -> Outcome {
        #[cfg(target_arch = "x86_64")]
        if crate::unchecked::has_popcnt() {
            #[target_feature(enable = "popcnt")]
            fn run<L, S: Structure>(
                solver: &mut Solver<'_, L>,
                st: &mut S,
                mode: Mode,
                visit: impl FnMut(&[OptionId], bool) -> ControlFlow<()>,
            ) -> Outcome {
                solver.search(st, mode, visit)
            }
            // SAFETY: the processor was just found to have the feature
            // `run` is compiled with.
            #[allow(unsafe_code)]
            return unsafe { run(self, st, mode, visit) };
        }
        self.search(st, mode, visit)
    }

    /// [`Solver::search`], compiled with AVX2 and the bit-manipulation
    /// instructions when the processor has them
    /// ([`crate::unchecked::has_avx2`]).
    /// PERF: `search` is inlined into a function with the features rather
    /// than called from a closure there: once the closure was left out of
    /// line (one codegen unit), the search ran without the features, and
    /// item masks took 1,100 ns a node instead of 600 (`examples/count` on
    /// a hard 25x25 sudoku).
    #[inline(always)]
    fn search_avx2<S: Structure>(
        &mut self,
        st: &mut S,
        mode: Mode,
        visit: impl FnMut(&[OptionId], bool) -> ControlFlow<()>,
    ) -> Outcome {
        #[cfg(target_arch = "x86_64")]
        if crate::unchecked::has_avx2() {
            #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
            fn run<L, S: Structure>(
                solver: &mut Solver<'_, L>,
                st: &mut S,
                mode: Mode,
                visit: impl FnMut(&[OptionId], bool) -> ControlFlow<()>,
            ) -> Outcome {
                solver.search(st, mode, visit)
            }
            // SAFETY: the processor was just found to have every feature
            // `run` is compiled with.
            #[allow(unsafe_code)]
            return unsafe { run(self, st, mode, visit) };
        }
        self.search(st, mode, visit)
    }

    /// The search loop (Algorithm X/C, steps C2–C8, with an explicit stack).
    /// Always inlined, so that the functions compiled with more
    /// instructions ([`Solver::search_avx2`]) compile it with them.
    #[inline(always)]
    fn search<S: Structure>(
        &mut self,
        st: &mut S,
        mode: Mode,
        mut visit: impl FnMut(&[OptionId], bool) -> ControlFlow<()>,
    ) -> Outcome {
        #[derive(Clone, Copy)]
        enum Step {
            Enter,
            Try,
            Backup,
        }
        let tracing = self.trace.is_some();
        // Splitting needs DLX1's rule, so that prefixes replay.
        let enough = if mode == Mode::Split { 0 } else { self.enough };
        // Forced moves taken inside the structure skip the loop's per-node
        // work; a trace or a split must see every level.
        // PERF: top95 (bench/sudoku, first solution): 85% of the nodes are
        // forced.
        st.set_chain(enough >= 1 && !tracing);
        let node_limit = self.limits.nodes.unwrap_or(u64::MAX);
        let solution_limit = self.limits.solutions.unwrap_or(u128::MAX);
        if self.stats.solutions >= solution_limit {
            return self.stop(StopReason::SolutionLimit);
        }
        let mut step = match self.resume {
            Resume::Enter => Step::Enter,
            Resume::Backup => Step::Backup,
            Resume::Done => return Outcome::Complete,
        };
        st.set_updates(self.stats.updates);
        let mut buf = Vec::new();
        let outcome = loop {
            match step {
                // C2: enter a level.
                Step::Enter => {
                    if self.stats.nodes >= node_limit {
                        self.resume = Resume::Enter;
                        break self.stop(StopReason::NodeLimit);
                    }
                    self.stats.nodes += 1;
                    if self.stats.nodes & CHECK_MASK == 0 {
                        if let Some(reason) = self.check_budgets() {
                            self.stats.nodes -= 1;
                            self.resume = Resume::Enter;
                            break self.stop(reason);
                        }
                    }
                    let l = self.level;
                    if l as u32 > self.stats.max_depth {
                        self.stats.max_depth = l as u32;
                    }
                    let left = st.primaries_left();
                    if left == 0 {
                        self.stats.solutions += 1;
                        if tracing {
                            self.emit(TraceEvent::Solution { level: l as u32 });
                        }
                        if mode != Mode::Count {
                            buf.clear();
                            st.solution(&self.choice[..l], &mut buf);
                            if visit(&buf, false).is_break() {
                                self.resume = Resume::Backup;
                                break self.stop(StopReason::Caller);
                            }
                        }
                        if self.stats.solutions >= solution_limit {
                            self.resume = Resume::Backup;
                            break self.stop(StopReason::SolutionLimit);
                        }
                        step = Step::Backup;
                        continue;
                    }
                    if mode == Mode::Split && l == self.cutoff {
                        // A subproblem's root: counted by whoever solves it.
                        self.stats.nodes -= 1;
                        buf.clear();
                        buf.extend(self.choice[..l].iter().map(|&x| st.option_of(x)));
                        if visit(&buf, true).is_break() {
                            self.resume = Resume::Backup;
                            break self.stop(StopReason::Caller);
                        }
                        step = Step::Backup;
                        continue;
                    }
                    // C3: choose the item with the fewest options.
                    let i = st.choose(&mut self.rng, enough);
                    let d = st.len(i);
                    if tracing {
                        let item = st.item_id(i);
                        self.emit(TraceEvent::Choose {
                            level: l as u32,
                            item,
                            options: d,
                        });
                    }
                    if mode == Mode::Count
                        && !tracing
                        && left == 1
                        && self.stats.solutions.saturating_add(d as u128) < solution_limit
                    {
                        // Only one primary item is left: each of its remaining
                        // options completes a solution, which DLX1 would count
                        // as a node of its own.
                        self.stats.solutions += d as u128;
                        self.stats.nodes += d as u64;
                        if d > 0 && l as u32 + 1 > self.stats.max_depth {
                            self.stats.max_depth = l as u32 + 1;
                        }
                        step = Step::Backup;
                        continue;
                    }
                    // C4: cover it.
                    if self.frames.len() == l {
                        self.frames.push(Frame::default());
                        self.choice.push(0);
                    }
                    let frame = &mut self.frames[l];
                    *frame = Frame {
                        item: i,
                        d,
                        ..Frame::default()
                    };
                    st.enter(frame);
                    step = Step::Try;
                }
                // C5 (with C6 for the option before): try the next option.
                Step::Try => {
                    let l = self.level;
                    match st.next_option(&mut self.frames[l]) {
                        None => {
                            // C7: all options tried; the item is uncovered.
                            if tracing {
                                self.emit(TraceEvent::Backtrack { level: l as u32 });
                            }
                            step = Step::Backup;
                        }
                        Some(x) => {
                            self.choice[l] = x;
                            self.stats.nodes += st.chained();
                            if tracing {
                                let Frame { k, d, .. } = self.frames[l];
                                let option = st.option_of(x);
                                self.emit(TraceEvent::Try {
                                    level: l as u32,
                                    option,
                                    k,
                                    d,
                                });
                            }
                            self.level += 1;
                            step = Step::Enter;
                        }
                    }
                }
                // C8: leave this level; the level above tries its next option.
                Step::Backup => {
                    if cfg!(feature = "debug-checks") {
                        if let Err(e) = st.debug_check() {
                            panic!("search structure broken at level {}: {e}", self.level);
                        }
                    }
                    if self.level == self.floor {
                        self.resume = Resume::Done;
                        break Outcome::Complete;
                    }
                    self.level -= 1;
                    step = Step::Try;
                }
            }
        };
        self.stats.updates = st.updates();
        st.set_chain(false);
        outcome
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
        let outcome = self.solver.for_each(|s| {
            found = Some(s.clone());
            ControlFlow::Break(())
        });
        if found.is_some() {
            // Stopping to hand over a solution is not an early stop.
            self.solver.outcome = None;
        } else {
            self.solver.outcome = Some(outcome);
        }
        found
    }
}
