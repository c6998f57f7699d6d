//! The one place where work is handed out to threads.
//!
//! A [`Pool`] runs a closure on work items named by index. Every caller of
//! the crate and of the front ends that searches on several threads (parallel
//! counts, checkpoints, shards, one sudoku split across threads, sudoku
//! batches) goes through it, so they share one set of rules:
//!
//! - **Claims.** Items are claimed in the order given, one at a time, each
//!   by the first worker free; each runs exactly once or not at all.
//! - **Stopping early.** An item whose search stops (its
//!   [`Outcome`] is `Stopped`) stops the pool: no further item is claimed,
//!   and the searches running see the pool's cancel flag (through
//!   [`Control::limits`]) and end. The first reason is the pool's.
//! - **Failures.** A closure returning an error stops the pool the same way,
//!   and [`Pool::run`] returns that error with its item ([`Failed`]): a
//!   subproblem that does not replay is never skipped in silence.
//! - **Budgets.** One deadline for all workers, counted from
//!   [`Pool::limits`] (or [`Pool::started`]); one node budget for all items
//!   together. Each search gets what is left of both when its item starts
//!   ([`Control::limits`]), and an item is not started once either is
//!   spent. A cancel flag of the caller's stops every search.
//! - **The node budget is shared while items run.** A search under
//!   [`Control::limits`] adds its nodes to the pool's count every
//!   [`NODE_SLACK`] nodes and stops once the count reaches the budget, so
//!   items that start together do not each spend what is left: a budget of
//!   `N` nodes over `t` threads explores at most `N + t × NODE_SLACK` nodes
//!   (a [`Solver`](crate::Solver) with [`Engine::Masks`](crate::Engine) and
//!   [`forced_first`](crate::Solver::forced_first) may also run on by one
//!   run of forced moves).
//! - **Progress.** `on_done(index, &value)` is called, on the worker's
//!   thread, as each item finishes.
//!
//! With one thread the items run on the calling thread and no thread is
//! started.
//!
//! The module also holds the crate's two other threads: [`watched`] (a
//! search on a thread of its own while the caller stays responsive) and
//! [`read_ahead`] (input read while the caller works); nothing else in the
//! workspace starts a thread.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex, PoisonError};
use std::time::Duration;

use crate::budget::SharedNodes;
use crate::solver::{Limits, Outcome, StopReason};
use crate::time::Instant;

use super::MAX_THREADS;

/// How many nodes a search in a [`Pool`] may enter before it adds them to
/// the pool's node count: the most, per thread, by which the searches of a
/// pool together overshoot its node budget (see the [module docs](self)).
pub const NODE_SLACK: u64 = crate::budget::CHECK_INTERVAL;

/// How often the calling thread looks at the caller's cancel flag while
/// the workers run.
const TICK: Duration = Duration::from_millis(5);

/// Threads and budgets for running work items; see the [module
/// docs](self) for the rules.
///
/// ```
/// use exactly::parallel::{Item, Pool};
/// use exactly::Outcome;
/// // Squares of 0..10 on 3 threads, each item returning its value.
/// let items: Vec<usize> = (0..10).collect();
/// let run = Pool::new(3).run(
///     &items,
///     || (),
///     |_, i, _| Ok::<_, String>(Item { value: i * i, nodes: 1, outcome: Outcome::Complete }),
///     |_, _| {},
/// )?;
/// assert_eq!(run.outcome, Outcome::Complete);
/// assert_eq!(run.nodes, 10);
/// assert_eq!(run.items.iter().map(|(_, item)| item.value).sum::<usize>(), 285);
/// # Ok::<(), exactly::parallel::Failed<String>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Pool {
    threads: usize,
    start: Option<Instant>,
    time: Option<Duration>,
    nodes: Option<u64>,
    cancel: Option<Arc<AtomicBool>>,
}

/// What a closure reports about one work item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item<T> {
    /// The caller's result.
    pub value: T,
    /// Search nodes the item took (counted against the node budget).
    pub nodes: u64,
    /// Complete when the item was done to the end; a stopped item stops
    /// the pool.
    pub outcome: Outcome,
}

/// What a closure is given besides its item: the budgets left.
#[derive(Debug)]
pub struct Control<'a> {
    shared: &'a Shared,
    pool: &'a Pool,
    /// The nodes this item's searches have added to the pool's count
    /// (with a node budget only).
    item: Option<Arc<AtomicU64>>,
}

impl Control<'_> {
    /// The limits for this item's search: the pool's cancel flag, the time
    /// left to the pool's deadline and the nodes left of its budget, which
    /// the search shares with the others running (it adds its nodes to the
    /// pool's count as it goes, and stops when the count reaches the
    /// budget).
    pub fn limits(&self) -> Limits {
        let mut limits = Limits::default().cancel_flag(Arc::clone(&self.shared.stop));
        if let Some(left) = self.pool.time_left() {
            limits = limits.max_time(left);
        }
        if let (Some(budget), Some(item)) = (self.pool.nodes, &self.item) {
            let used = self.shared.total.load(Ordering::Relaxed);
            limits = limits.max_nodes(budget.saturating_sub(used));
            limits.shared = Some(SharedNodes {
                total: Arc::clone(&self.shared.total),
                item: Arc::clone(item),
                budget,
            });
        }
        limits
    }

    /// Whether the pool is stopping (another item stopped or failed, or
    /// the caller cancelled): a closure that does work between searches
    /// may give up early.
    pub fn stopping(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
    }
}

/// What [`Pool::run`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run<T> {
    /// The items that ran (to the end or stopped), by index.
    pub items: Vec<(usize, Item<T>)>,
    /// Nodes of all items together.
    pub nodes: u64,
    /// Complete when every item ran to the end; else the first reason the
    /// pool stopped for.
    pub outcome: Outcome,
}

/// A work item whose closure returned an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failed<E> {
    /// The item's index.
    pub index: usize,
    /// The closure's error.
    pub error: E,
}

impl<E: fmt::Display> fmt::Display for Failed<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "work item {}: {}", self.index, self.error)
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for Failed<E> {}

/// The state the workers share.
#[derive(Debug, Default)]
struct Shared {
    /// Raised to stop: seen by every search through its limits.
    stop: Arc<AtomicBool>,
    /// Whether `stop` is the caller's flag, which the pool never raises.
    borrowed: bool,
    /// The next position in the list of items.
    next: AtomicUsize,
    /// Nodes of the items so far.
    nodes: AtomicU64,
    /// Nodes counted against the node budget: those of the finished items,
    /// and those the running searches have added ([`SharedNodes`]).
    total: Arc<AtomicU64>,
    /// The first reason to stop.
    reason: Mutex<Option<StopReason>>,
}

impl Shared {
    /// Stops the pool, keeping the first reason.
    fn halt(&self, reason: StopReason) {
        self.reason
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert(reason);
        self.raise();
    }

    /// Raises the stop flag, unless it is the caller's.
    fn raise(&self) {
        if !self.borrowed {
            self.stop.store(true, Ordering::Relaxed);
        }
    }
}

impl Pool {
    /// A pool of `threads` workers (at least 1, at most [`MAX_THREADS`];
    /// never more than there are items), without budgets.
    pub fn new(threads: usize) -> Pool {
        Pool {
            threads: threads.clamp(1, MAX_THREADS),
            start: None,
            time: None,
            nodes: None,
            cancel: None,
        }
    }

    /// The budgets of the whole run: `limits.time` is one deadline for all
    /// workers, counted from this call (see [`Pool::started`]);
    /// `limits.nodes` bounds the nodes of all items together;
    /// `limits.cancel` stops every search when raised. A solution limit is
    /// the closure's to keep.
    ///
    /// ```
    /// use exactly::parallel::{Item, Pool};
    /// use exactly::{Limits, Outcome, StopReason};
    /// let items: Vec<usize> = (0..100).collect();
    /// // Each item takes 10 nodes; the budget of 25 is spent after 3 items.
    /// let run = Pool::new(1).limits(&Limits::default().max_nodes(25)).run(
    ///     &items,
    ///     || (),
    ///     |_, i, _| Ok::<_, String>(Item { value: i, nodes: 10, outcome: Outcome::Complete }),
    ///     |_, _| {},
    /// )?;
    /// assert_eq!(run.items.len(), 3);
    /// assert_eq!(run.outcome, Outcome::Stopped(StopReason::NodeLimit));
    /// # Ok::<(), exactly::parallel::Failed<String>>(())
    /// ```
    pub fn limits(mut self, limits: &Limits) -> Pool {
        self.start = Some(Instant::now());
        self.time = limits.time;
        self.nodes = limits.nodes;
        self.cancel = limits.cancel.clone();
        self
    }

    /// Counts the time budget from `start` instead (say, from the start of
    /// a call that did other work before running the pool).
    pub fn started(mut self, start: Instant) -> Pool {
        self.start = Some(start);
        self
    }

    /// The time left to the deadline, if there is one.
    fn time_left(&self) -> Option<Duration> {
        let time = self.time?;
        let elapsed = self.start.map_or(Duration::ZERO, |s| s.elapsed());
        Some(time.saturating_sub(elapsed))
    }

    /// Runs `work(state, index, control)` for each index of `items`, in
    /// that order, on the pool's threads; each worker makes its `state`
    /// once with `init` (say, a solver). `on_done(index, &value)` is called,
    /// from the worker, as each item finishes. Returns the items that ran,
    /// or the first error of a closure.
    ///
    /// ```
    /// use exactly::parallel::{Item, Pool};
    /// use exactly::Outcome;
    /// let items: Vec<usize> = (0..8).collect();
    /// let failed = Pool::new(2)
    ///     .run(
    ///         &items,
    ///         || (),
    ///         |_, i, _| match i {
    ///             5 => Err("no replay"),
    ///             _ => Ok(Item { value: (), nodes: 0, outcome: Outcome::Complete }),
    ///         },
    ///         |_, _| {},
    ///     )
    ///     .unwrap_err();
    /// assert_eq!((failed.index, failed.error), (5, "no replay"));
    /// ```
    pub fn run<S, T, E>(
        &self,
        items: &[usize],
        init: impl Fn() -> S + Sync,
        work: impl Fn(&mut S, usize, &Control<'_>) -> Result<Item<T>, E> + Sync,
        on_done: impl Fn(usize, &T) + Sync,
    ) -> Result<Run<T>, Failed<E>>
    where
        T: Send,
        E: Send,
    {
        let threads = self.threads.min(items.len()).max(1);
        // PERF: made whole, where its growth copied the results run so far
        // over and over (`exactly sudoku` asks for one a puzzle).
        let results = Mutex::new(Vec::with_capacity(items.len()));
        let failed = Mutex::new(None);
        let shared = if threads == 1 {
            // One worker, on this thread: the caller's flag is the pool's,
            // and the pool never raises it (the loop just ends).
            let shared = Shared {
                borrowed: self.cancel.is_some(),
                stop: self.cancel.clone().unwrap_or_default(),
                ..Shared::default()
            };
            self.worker(&shared, items, &init, &work, &on_done, &results, &failed);
            shared
        } else {
            let shared = Shared::default();
            let running = AtomicUsize::new(threads);
            let caller = std::thread::current();
            std::thread::scope(|scope| {
                for _ in 0..threads {
                    scope.spawn(|| {
                        self.worker(&shared, items, &init, &work, &on_done, &results, &failed);
                        running.fetch_sub(1, Ordering::AcqRel);
                        caller.unpark();
                    });
                }
                // This thread passes the caller's cancel flag on.
                if let Some(cancel) = &self.cancel {
                    while running.load(Ordering::Acquire) > 0 {
                        if cancel.load(Ordering::Relaxed) && !shared.stop.load(Ordering::Relaxed) {
                            shared.halt(StopReason::Cancelled);
                        }
                        std::thread::park_timeout(TICK);
                    }
                }
            });
            shared
        };
        if let Some(failed) = failed.into_inner().unwrap_or_else(PoisonError::into_inner) {
            return Err(failed);
        }
        let mut items_run = results.into_inner().unwrap_or_else(PoisonError::into_inner);
        items_run.sort_unstable_by_key(|(index, _)| *index);
        let reason = shared
            .reason
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        let outcome = match reason {
            Some(reason) => Outcome::Stopped(reason),
            // A caller's flag raised before the first claim.
            None if items_run.len() < items.len() => Outcome::Stopped(StopReason::Cancelled),
            None => Outcome::Complete,
        };
        Ok(Run {
            items: items_run,
            nodes: shared.nodes.into_inner(),
            outcome,
        })
    }

    /// One worker: claims items until there are none or the pool stops.
    #[allow(clippy::too_many_arguments)]
    fn worker<S, T, E>(
        &self,
        shared: &Shared,
        items: &[usize],
        init: &(impl Fn() -> S + Sync),
        work: &(impl Fn(&mut S, usize, &Control<'_>) -> Result<Item<T>, E> + Sync),
        on_done: &(impl Fn(usize, &T) + Sync),
        results: &Mutex<Vec<(usize, Item<T>)>>,
        failed: &Mutex<Option<Failed<E>>>,
    ) {
        let mut state = None;
        loop {
            if shared.stop.load(Ordering::Relaxed) {
                break;
            }
            let Some(&index) = items.get(shared.next.fetch_add(1, Ordering::Relaxed)) else {
                break;
            };
            if self.time_left().is_some_and(|t| t.is_zero()) {
                shared.halt(StopReason::TimeLimit);
                break;
            }
            if self
                .nodes
                .is_some_and(|n| shared.total.load(Ordering::Relaxed) >= n)
            {
                shared.halt(StopReason::NodeLimit);
                break;
            }
            let control = Control {
                shared,
                pool: self,
                item: self.nodes.map(|_| Arc::new(AtomicU64::new(0))),
            };
            let state = state.get_or_insert_with(init);
            let result = work(state, index, &control);
            // What the item's searches did not add to the count yet.
            let added = control.item.map_or(0, |item| item.load(Ordering::Relaxed));
            match result {
                Err(error) => {
                    failed
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .get_or_insert(Failed { index, error });
                    shared.raise();
                    break;
                }
                Ok(item) => {
                    shared.nodes.fetch_add(item.nodes, Ordering::Relaxed);
                    shared
                        .total
                        .fetch_add(item.nodes.saturating_sub(added), Ordering::Relaxed);
                    let outcome = item.outcome;
                    if outcome == Outcome::Complete {
                        on_done(index, &item.value);
                    }
                    results
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push((index, item));
                    if let Outcome::Stopped(reason) = outcome {
                        shared.halt(reason);
                        break;
                    }
                }
            }
        }
    }
}

/// Runs `work` on a thread of its own while the calling thread calls
/// `poll` about every `tick` until `work` is done, and returns what `work`
/// returned: for a caller that must stay responsive during a search (a
/// binding passing Ctrl-C on as a cancel flag, say). A panic in `work` is
/// passed on.
///
/// ```
/// use std::sync::atomic::{AtomicBool, Ordering};
/// use std::sync::Arc;
/// use std::time::Duration;
/// let cancel = Arc::new(AtomicBool::new(false));
/// let flag = Arc::clone(&cancel);
/// let mut polls = 0;
/// let waited = exactly::parallel::watched(
///     move || {
///         while !flag.load(Ordering::Relaxed) {
///             std::thread::sleep(Duration::from_millis(1));
///         }
///         "cancelled"
///     },
///     Duration::from_millis(1),
///     || {
///         polls += 1;
///         if polls == 3 {
///             cancel.store(true, Ordering::Relaxed);
///         }
///     },
/// );
/// assert_eq!(waited, "cancelled");
/// assert!(polls >= 3);
/// ```
pub fn watched<T: Send>(
    work: impl FnOnce() -> T + Send,
    tick: Duration,
    mut poll: impl FnMut(),
) -> T {
    let caller = std::thread::current();
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let handle = scope.spawn(|| {
            let result = work();
            done.store(true, Ordering::Release);
            caller.unpark();
            result
        });
        while !done.load(Ordering::Acquire) {
            std::thread::park_timeout(tick);
            if !done.load(Ordering::Acquire) {
                poll();
            }
        }
        handle
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// Runs `produce` on a thread of its own, which sends its values to the
/// receiver returned, at most `bound` of them ahead of the caller (a send
/// waits while the channel is full): for input read as it comes while the
/// caller works on what came before (sudoku batches read from a pipe). The
/// thread ends when `produce` returns; a send fails once the receiver is
/// dropped, and `produce` should then return.
///
/// ```
/// let lines = exactly::parallel::read_ahead(2, |send| {
///     for k in 0..5 {
///         if send.send(k * k).is_err() {
///             return;
///         }
///     }
/// });
/// assert_eq!(lines.iter().collect::<Vec<_>>(), [0, 1, 4, 9, 16]);
/// ```
pub fn read_ahead<T: Send + 'static>(
    bound: usize,
    produce: impl FnOnce(&mpsc::SyncSender<T>) + Send + 'static,
) -> mpsc::Receiver<T> {
    let (send, receive) = mpsc::sync_channel(bound);
    std::thread::spawn(move || produce(&send));
    receive
}

#[cfg(test)]
mod tests {
    use super::*;

    fn done<T>(value: T, nodes: u64) -> Item<T> {
        Item {
            value,
            nodes,
            outcome: Outcome::Complete,
        }
    }

    fn stopped<T>(value: T, nodes: u64, reason: StopReason) -> Item<T> {
        Item {
            value,
            nodes,
            outcome: Outcome::Stopped(reason),
        }
    }

    /// `pool` over `items` with no state per worker and nothing done per
    /// finished item, where `work(index, control)` cannot fail.
    fn run_all<T: Send>(
        pool: Pool,
        items: &[usize],
        work: impl Fn(usize, &Control<'_>) -> Item<T> + Sync,
    ) -> Run<T> {
        pool.run(items, || (), |_, i, c| Ok::<_, ()>(work(i, c)), |_, _| {})
            .unwrap()
    }

    #[test]
    fn one_thread_claims_in_order() {
        let items = [4, 2, 7, 0];
        let order = Mutex::new(Vec::new());
        let run = run_all(Pool::new(1), &items, |i, _| {
            order.lock().unwrap().push(i);
            done(i, 0)
        });
        assert_eq!(order.into_inner().unwrap(), items);
        let ran: Vec<usize> = run.items.iter().map(|(i, _)| *i).collect();
        assert_eq!(ran, [0, 2, 4, 7]);
        assert_eq!(run.outcome, Outcome::Complete);
    }

    #[test]
    fn many_threads_claim_each_item_once_in_order() {
        let items: Vec<usize> = (0..500).collect();
        let claims = Mutex::new(Vec::new());
        let states = AtomicUsize::new(0);
        let run = Pool::new(4)
            .run(
                &items,
                || states.fetch_add(1, Ordering::Relaxed),
                |worker, i, _| {
                    claims.lock().unwrap().push((*worker, i));
                    Ok::<_, ()>(done(i, 2))
                },
                |_, _| {},
            )
            .unwrap();
        assert_eq!(run.items.len(), 500);
        assert_eq!(run.nodes, 1000);
        assert!(run.items.iter().enumerate().all(|(k, (i, _))| k == *i));
        // Each worker's claims come in increasing order.
        let claims = claims.into_inner().unwrap();
        for w in 0..states.load(Ordering::Relaxed) {
            let mine: Vec<usize> = claims
                .iter()
                .filter(|(x, _)| *x == w)
                .map(|(_, i)| *i)
                .collect();
            assert!(mine.windows(2).all(|p| p[0] < p[1]), "{mine:?}");
        }
        assert!(states.load(Ordering::Relaxed) <= 4);
    }

    #[test]
    fn a_stopped_item_stops_the_pool_with_its_reason() {
        let items: Vec<usize> = (0..1000).collect();
        let calls = AtomicUsize::new(0);
        let run = run_all(Pool::new(3), &items, |i, control| {
            calls.fetch_add(1, Ordering::Relaxed);
            if i == 10 {
                stopped(i, 1, StopReason::Caller)
            } else if control.stopping() {
                // Others see the flag, as their searches would.
                stopped(i, 1, StopReason::Cancelled)
            } else {
                done(i, 1)
            }
        });
        assert_eq!(run.outcome, Outcome::Stopped(StopReason::Caller));
        // Claimed in order: nothing far past item 10 ran.
        assert!(calls.load(Ordering::Relaxed) < 100);
        assert!(run.items.iter().any(|(i, _)| *i == 10));
    }

    #[test]
    fn on_done_sees_only_finished_items() {
        let items: Vec<usize> = (0..20).collect();
        let seen = Mutex::new(Vec::new());
        let run = Pool::new(1)
            .run(
                &items,
                || (),
                |_, i, _| {
                    Ok::<_, ()>(if i == 5 {
                        stopped(i, 0, StopReason::NodeLimit)
                    } else {
                        done(i, 0)
                    })
                },
                |i, &v| seen.lock().unwrap().push((i, v)),
            )
            .unwrap();
        assert_eq!(
            seen.into_inner().unwrap(),
            (0..5).map(|i| (i, i)).collect::<Vec<_>>()
        );
        assert_eq!(run.items.len(), 6);
        assert_eq!(run.outcome, Outcome::Stopped(StopReason::NodeLimit));
    }

    #[test]
    fn a_failing_closure_is_an_error_never_a_skip() {
        for threads in [1, 4] {
            let items: Vec<usize> = (0..200).collect();
            let failed = Pool::new(threads)
                .run(
                    &items,
                    || (),
                    |_, i, _| {
                        if i == 17 {
                            Err(format!("item {i} does not replay"))
                        } else {
                            Ok(done((), 1))
                        }
                    },
                    |_, _| {},
                )
                .unwrap_err();
            assert_eq!(failed.index, 17);
            assert_eq!(failed.to_string(), "work item 17: item 17 does not replay");
        }
    }

    #[test]
    fn the_node_budget_is_shared_by_all_items() {
        for threads in [1, 3] {
            let items: Vec<usize> = (0..100).collect();
            let given = Mutex::new(Vec::new());
            let pool = Pool::new(threads).limits(&Limits::default().max_nodes(50));
            let run = run_all(pool, &items, |i, control| {
                given.lock().unwrap().push(control.limits().nodes);
                done(i, 10)
            });
            assert_eq!(run.outcome, Outcome::Stopped(StopReason::NodeLimit));
            // Items start only while the budget lasts.
            assert!(run.items.len() >= 5 && run.items.len() < 5 + threads);
            let given = given.into_inner().unwrap();
            assert!(given.iter().all(|n| n.is_some_and(|n| n <= 50)));
        }
    }

    #[test]
    fn one_deadline_for_all_workers() {
        for threads in [1, 3] {
            let items: Vec<usize> = (0..1_000_000).collect();
            let start = Instant::now();
            let pool =
                Pool::new(threads).limits(&Limits::default().max_time(Duration::from_millis(30)));
            let run = run_all(pool, &items, |i, control| {
                let left = control.limits().time.unwrap();
                assert!(left <= Duration::from_millis(30));
                std::thread::sleep(Duration::from_millis(1));
                done(i, 0)
            });
            assert_eq!(run.outcome, Outcome::Stopped(StopReason::TimeLimit));
            assert!(run.items.len() < items.len());
            assert!(start.elapsed() >= Duration::from_millis(30));
        }
    }

    #[test]
    fn started_counts_the_deadline_from_an_earlier_moment() {
        let items = [0, 1, 2];
        let pool = Pool::new(2)
            .limits(&Limits::default().max_time(Duration::from_millis(10)))
            .started(Instant::now() - Duration::from_millis(20));
        let run = run_all(pool, &items, |i, _| done(i, 0));
        assert!(run.items.is_empty());
        assert_eq!(run.outcome, Outcome::Stopped(StopReason::TimeLimit));
    }

    #[test]
    fn the_callers_flag_cancels_every_worker() {
        for threads in [1, 4] {
            let flag = Arc::new(AtomicBool::new(false));
            let items: Vec<usize> = (0..10_000).collect();
            let pool = Pool::new(threads).limits(&Limits::default().cancel_flag(Arc::clone(&flag)));
            let run = run_all(pool, &items, |i, control| {
                if i == 20 {
                    flag.store(true, Ordering::Relaxed);
                }
                // A search polls its cancel flag: wait for it here.
                let limits = control.limits();
                let cancel = limits.cancel.unwrap();
                let start = Instant::now();
                while i >= 20 && !cancel.load(Ordering::Relaxed) {
                    assert!(start.elapsed() < Duration::from_secs(10));
                    std::thread::yield_now();
                }
                if cancel.load(Ordering::Relaxed) {
                    stopped(i, 0, StopReason::Cancelled)
                } else {
                    done(i, 0)
                }
            });
            assert_eq!(run.outcome, Outcome::Stopped(StopReason::Cancelled));
            assert!(run.items.len() < 100);
            // The pool never raises the caller's flag itself.
            let quiet = Arc::new(AtomicBool::new(false));
            let pool =
                Pool::new(threads).limits(&Limits::default().cancel_flag(Arc::clone(&quiet)));
            let caller = run_all(pool, &items, |i, _| stopped(i, 0, StopReason::Caller));
            assert_eq!(caller.outcome, Outcome::Stopped(StopReason::Caller));
            assert!(!quiet.load(Ordering::Relaxed));
        }
    }

    #[test]
    fn no_items_is_complete() {
        let run = run_all(Pool::new(8), &[], |i, _| done(i, 0));
        assert_eq!(run.outcome, Outcome::Complete);
        assert!(run.items.is_empty());
    }
}
