//! Budgets for a search, and how a search ends.
//!
//! Every search in the crate ([`Solver`](crate::Solver),
//! [`MultiSolver`](crate::multi::MultiSolver),
//! [`CostSolver`](crate::multi::CostSolver),
//! [`MinCover`](crate::mincover::MinCover), the ZDD builder) takes
//! [`Limits`] and stops with a [`StopReason`]. They share one [`Budget`]:
//! the node budget is checked at every node; the cancel flag, the clock and
//! the progress interval only every [`CHECK_INTERVAL`] nodes, since reading
//! the clock costs more than a node of most searches.

use crate::time::Instant;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

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
    /// A node budget shared with the other searches of a
    /// [`Pool`](crate::parallel::Pool), set by
    /// [`Control::limits`](crate::parallel::Control::limits).
    pub(crate) shared: Option<SharedNodes>,
}

/// A node budget that several searches draw on together: each search adds
/// the nodes it has entered to `total` whenever it polls (every
/// [`CHECK_INTERVAL`] nodes) and stops once `total` reaches `budget`. The
/// nodes a search has added so far are also counted in `item`, so that
/// the pool, which adds each finished item's nodes, adds only the rest.
#[derive(Clone, Debug)]
pub(crate) struct SharedNodes {
    /// Nodes of all the searches: finished items, and what the running
    /// ones have added.
    pub total: Arc<AtomicU64>,
    /// Nodes the searches of this item have added to `total`.
    pub item: Arc<AtomicU64>,
    /// The budget of all the searches together.
    pub budget: u64,
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

    /// These budgets for a search that starts now, where they were set at
    /// `start`: the time budget less the time since.
    pub(crate) fn since(&self, start: Instant) -> Limits {
        let mut left = self.clone();
        left.time = self.time.map(|t| t.saturating_sub(start.elapsed()));
        left
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

/// How often (in nodes) [`Budget::poll`] is due: the cancel flag, the clock
/// and progress are read at node counts divisible by this.
pub(crate) const CHECK_INTERVAL: u64 = 1 << 12;

/// The running side of [`Limits`] (nodes, time, cancel flag) and of a
/// progress interval: the clock of one search, which may stop and resume.
/// The solution budget stays with each search, which counts solutions its
/// own way.
#[derive(Clone, Debug)]
pub(crate) struct Budget {
    /// The node budget (`u64::MAX`: none).
    pub nodes: u64,
    time: Option<Duration>,
    cancel: Option<Arc<AtomicBool>>,
    /// The node budget shared with other searches, if any.
    shared: Option<SharedNodes>,
    /// Nodes of this search already added to the shared budget.
    reported: u64,
    /// How often a progress report is due, if one is wanted.
    progress: Option<Duration>,
    last_progress: Duration,
    /// When the search began, moved later by the time it spent stopped.
    started: Option<Instant>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget::new(&Limits::default())
    }
}

impl Budget {
    /// A budget with `limits`' nodes, time and cancel flag, not started.
    pub fn new(limits: &Limits) -> Budget {
        Budget {
            nodes: limits.nodes.unwrap_or(u64::MAX),
            time: limits.time,
            cancel: limits.cancel.clone(),
            shared: limits.shared.clone(),
            reported: 0,
            progress: None,
            last_progress: Duration::ZERO,
            started: None,
        }
    }

    /// Replaces the limits, keeping the clock and the progress interval.
    pub fn set_limits(&mut self, limits: &Limits) {
        self.nodes = limits.nodes.unwrap_or(u64::MAX);
        self.time = limits.time;
        self.cancel = limits.cancel.clone();
        self.shared = limits.shared.clone();
        self.reported = 0;
    }

    /// Asks [`Budget::poll`] for a progress report every `interval`.
    pub fn set_progress(&mut self, interval: Duration) {
        self.progress = Some(interval);
    }

    /// How often a progress report is due, if one is wanted.
    pub fn progress_interval(&self) -> Option<Duration> {
        self.progress
    }

    /// Starts the clock, or resumes it where the last run stopped it.
    pub fn start(&mut self) {
        let base = self.elapsed();
        self.started = Some(Instant::now() - base);
    }

    /// Starts the clock as if it had run `elapsed` already (a search that
    /// another solver ran for this one).
    pub fn start_after(&mut self, elapsed: Duration) {
        self.started = Some(Instant::now() - elapsed);
    }

    /// Sets the clock and the progress reports back to zero, not started.
    pub fn restart(&mut self) {
        self.reported = 0;
        self.started = None;
        self.last_progress = Duration::ZERO;
    }

    /// Time run so far.
    pub fn elapsed(&self) -> Duration {
        self.started.map_or(Duration::ZERO, |t| t.elapsed())
    }

    /// Whether a search that has entered `nodes` nodes may enter no more.
    #[inline(always)]
    pub fn out_of_nodes(&self, nodes: u64) -> bool {
        nodes >= self.nodes
    }

    /// Whether [`Budget::poll`] is due after `nodes` nodes.
    #[inline(always)]
    pub fn is_due(nodes: u64) -> bool {
        nodes % CHECK_INTERVAL == 0
    }

    /// Adds the search's `nodes` so far to the shared node budget, then
    /// reads the cancel flag, then the clock: why to stop, if the search
    /// must; else `Some(elapsed)` when a progress report is due (and counts
    /// it as made).
    #[cold]
    #[inline(never)]
    pub fn poll(&mut self, nodes: u64) -> Result<Option<Duration>, StopReason> {
        if let Some(shared) = &self.shared {
            let new = nodes.saturating_sub(self.reported);
            self.reported = self.reported.max(nodes);
            shared.item.fetch_add(new, Ordering::Relaxed);
            let total = shared
                .total
                .fetch_add(new, Ordering::Relaxed)
                .saturating_add(new);
            if total >= shared.budget {
                return Err(StopReason::NodeLimit);
            }
        }
        if let Some(flag) = &self.cancel {
            if flag.load(Ordering::Relaxed) {
                return Err(StopReason::Cancelled);
            }
        }
        let elapsed = self.elapsed();
        if self.time.is_some_and(|t| elapsed >= t) {
            return Err(StopReason::TimeLimit);
        }
        if let Some(interval) = self.progress {
            if elapsed >= self.last_progress + interval {
                self.last_progress = elapsed;
                return Ok(Some(elapsed));
            }
        }
        Ok(None)
    }
}
