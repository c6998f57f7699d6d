//! The search loop (Algorithm X/C, steps C2–C8, with an explicit stack),
//! generic over the representation, and the walks that share its
//! structure: probes, prefixes, the branch at a node.

use std::ops::ControlFlow;

use super::{Branch, Mode, PrefixError, Progress, Resume, Solver, Stats, TraceEvent};
use crate::budget::{Budget, Outcome, StopReason};
use crate::multi::{Search, Visit};
use crate::problem::{OptionId, Problem};
use crate::repr::links::Dlx;
use crate::repr::{fraction, next_random, Backend, Frame, NodeChange, Structure};

/// A method `$name` that runs [`Solver::search`] compiled with the
/// processor `$features` when `crate::unchecked::$has()` finds them, and the
/// plain search otherwise.
/// PERF: `search` is inlined into a function with the features rather
/// than called from a closure there: once the closure was left out of
/// line (one codegen unit), the search ran without the features
/// (DESIGN.md, "Safety", has the cost).
macro_rules! with_features {
    ($(#[$doc:meta])* $name:ident, $has:ident, $features:literal) => {
        $(#[$doc])*
        #[inline(always)]
        fn $name<S: Structure>(
            &mut self,
            st: &mut S,
            frames: &mut Vec<Frame<S::Level>>,
            mode: Mode,
            visit: impl FnMut(&[OptionId], bool) -> ControlFlow<()>,
        ) -> Outcome {
            #[cfg(target_arch = "x86_64")]
            if crate::unchecked::$has() {
                #[target_feature(enable = $features)]
                fn run<L, S: Structure>(
                    solver: &mut Solver<'_, L>,
                    st: &mut S,
                    frames: &mut Vec<Frame<S::Level>>,
                    mode: Mode,
                    visit: impl FnMut(&[OptionId], bool) -> ControlFlow<()>,
                ) -> Outcome {
                    solver.search(st, frames, mode, visit)
                }
                // SAFETY: the processor was just found to have every feature
                // `run` is compiled with.
                #[allow(unsafe_code)]
                return unsafe { run(self, st, frames, mode, visit) };
            }
            self.search(st, frames, mode, visit)
        }
    };
}

impl<'p, L> Solver<'p, L> {
    pub(super) fn unwind<S: Structure>(&mut self, st: &mut S, frames: &mut [Frame<S::Level>]) {
        // Levels below `level` hold a covered item and a committed option,
        // except after a complete search, when those at or above the floor
        // have been undone already.
        let active = if self.resume == Resume::Done {
            self.floor
        } else {
            self.level
        };
        for frame in frames[..active].iter_mut().rev() {
            st.leave(frame);
        }
    }

    pub(super) fn probe_at<S: Structure>(st: &mut S, rng: &mut u64) -> (f64, f64, u64) {
        let mut frames: Vec<Frame<S::Level>> = Vec::new();
        let mut weight = 1.0;
        let mut nodes = 1.0;
        let solutions = loop {
            if st.primaries_left() == 0 {
                break weight;
            }
            let (i, d) = st.choose_len(&mut None, 0);
            if d == 0 {
                break 0.0;
            }
            let mut frame = Frame::new(i, d);
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

    /// Puts `frame` at level `self.level`, with its choice to come,
    /// dropping what the stacks hold from that level down (after a reset
    /// they still hold the last search's levels). Returns the level.
    fn open_level<T>(&mut self, frames: &mut Vec<Frame<T>>, frame: Frame<T>) -> usize {
        let l = self.level;
        frames.truncate(l);
        self.choice.truncate(l);
        frames.push(frame);
        self.choice.push(0);
        l
    }

    pub(super) fn commit_all<S: Structure>(
        &mut self,
        st: &mut S,
        frames: &mut Vec<Frame<S::Level>>,
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
            self.open_level(frames, Frame::default());
            let node = item.and_then(|i| st.assume(&mut frames[l], i, option));
            let Some(x) = node else {
                frames.truncate(l);
                self.choice.truncate(l);
                return Err(PrefixError::NotAvailable { level: l, option });
            };
            self.choice[l] = x;
            self.level = l + 1;
            self.floor = self.level;
        }
        Ok(())
    }

    /// Replays `prefix` from the root, as [`Solver::restrict`] does. On
    /// failure the levels entered so far become the floor, so that
    /// [`Solver::reset`] undoes them.
    pub(super) fn descend<S: Structure>(
        &mut self,
        st: &mut S,
        frames: &mut Vec<Frame<S::Level>>,
        prefix: &[OptionId],
    ) -> Result<(), PrefixError> {
        let result = self.descend_from(st, frames, prefix);
        self.floor = self.level;
        self.replayed = self.level;
        result
    }

    /// Replays `prefix[self.level..]`: the levels above are `prefix`'s
    /// own, already entered.
    ///
    /// DLX1 branches on the leftmost item with the fewest options. An item
    /// left with none never gets one back further down (none of its
    /// options comes back, and nothing else covers it), so the replay
    /// first stops each level's scan at the leftmost item with one option
    /// at most, and scans in full only at the last level: an item with
    /// none, wherever it was first left so, is still there, and that scan
    /// finds it. Where such a replay fails, it is undone and made again
    /// with a full scan at every level, which fails where DLX1 would and
    /// says so. Deep prefixes go mostly through forced moves (a large
    /// sudoku's givens), where full scans cost most.
    fn descend_from<S: Structure>(
        &mut self,
        st: &mut S,
        frames: &mut Vec<Frame<S::Level>>,
        prefix: &[OptionId],
    ) -> Result<(), PrefixError> {
        let start = self.level;
        if S::STOPS_AT_LEFTMOST && prefix.len() > start + 1 {
            if self.descend_with(st, frames, prefix, true).is_ok() {
                return Ok(());
            }
            for frame in frames[start..self.level].iter_mut().rev() {
                st.leave(frame);
            }
            self.level = start;
        }
        self.descend_with(st, frames, prefix, false)
    }

    /// [`Solver::follow_forced`]. The scan at each level stops at the
    /// leftmost item with one option at most. Where the moves end at a node
    /// with no such item, that scan went through every item and found none
    /// with no options, so no node above had one either (see
    /// [`Solver::descend_from`]), and at each the leftmost item with one
    /// option is the one DLX1 branches on.
    pub(super) fn follow<S: Structure>(
        &mut self,
        st: &mut S,
        frames: &mut Vec<Frame<S::Level>>,
        max: usize,
    ) -> Option<(Vec<OptionId>, u64)> {
        if !S::STOPS_AT_LEFTMOST {
            return None;
        }
        let before = st.updates();
        let ends_well = loop {
            if st.primaries_left() == 0 {
                break false;
            }
            let (i, d) = st.choose_len(&mut None, 1);
            if d != 1 {
                break d > 1;
            }
            if self.level == max {
                // Only a full scan shows that no item has none here.
                break st.choose_len(&mut None, 0).1 > 0;
            }
            let l = self.open_level(frames, Frame::new(i, d));
            st.enter(&mut frames[l]);
            let Some(x) = st.next_option(&mut frames[l]) else {
                break false;
            };
            self.choice[l] = x;
            self.level = l + 1;
        };
        if !ends_well {
            for frame in frames[..self.level].iter_mut().rev() {
                st.leave(frame);
            }
            self.level = 0;
            return None;
        }
        self.floor = self.level;
        self.replayed = self.level;
        let updates = st.updates() - before;
        Some((
            self.names.of(st, &self.choice[..self.level], 0).to_vec(),
            updates,
        ))
    }

    /// [`Solver::descend_from`]'s replay, with each level's scan stopped at
    /// the leftmost item with at most one option, except the last level's,
    /// when `quick`, and DLX1's full scan otherwise.
    fn descend_with<S: Structure>(
        &mut self,
        st: &mut S,
        frames: &mut Vec<Frame<S::Level>>,
        prefix: &[OptionId],
        quick: bool,
    ) -> Result<(), PrefixError> {
        for (l, &target) in prefix.iter().enumerate().skip(self.level) {
            if st.primaries_left() == 0 {
                return Err(PrefixError::TooLong { level: l });
            }
            let enough = u32::from(quick && l + 1 < prefix.len());
            let (i, d) = st.choose_len(&mut None, enough);
            self.open_level(frames, Frame::new(i, d));
            st.enter(&mut frames[l]);
            // The options before the target are passed over, not tried.
            let Some(x) = st.take(&mut frames[l], target) else {
                return Err(PrefixError::NotAvailable {
                    level: l,
                    option: target,
                });
            };
            self.choice[l] = x;
            self.level = l + 1;
        }
        Ok(())
    }

    /// [`Solver::reset_to`]: undoes the levels entered below those that
    /// the last replayed prefix shares with `prefix`, then replays the rest.
    /// With `known`, the prefix is one this solver's own walk found (a
    /// cut's subproblem): the rest is committed as [`Solver::assume`]
    /// commits options, without the choice at each level, which was made
    /// when the prefix was found.
    pub(super) fn move_to<S: Structure>(
        &mut self,
        st: &mut S,
        frames: &mut Vec<Frame<S::Level>>,
        at: usize,
        rest: &[OptionId],
        known: bool,
    ) -> Result<(), PrefixError> {
        // As in `unwind`: after a complete search the levels at or past the
        // floor are undone already.
        let active = if self.resume == Resume::Done {
            self.floor
        } else {
            self.level
        };
        let shared = self.replayed.min(self.floor).min(at + rest.len());
        debug_assert!(at <= shared, "levels below {at} kept, {shared} replayed");
        let keep = at
            + self
                .names
                .of(st, &self.choice[..shared], at)
                .iter()
                .zip(rest)
                .take_while(|&(a, b)| a == b)
                .count();
        for frame in frames[keep..active].iter_mut().rev() {
            st.leave(frame);
        }
        self.level = keep;
        let result = if known {
            let problem = self.problem;
            self.commit_all(st, frames, problem, &rest[keep - at..])
        } else {
            debug_assert_eq!(at, 0);
            self.descend_from(st, frames, rest)
        };
        // As in `descend`: the levels entered become the floor.
        self.floor = self.level;
        self.replayed = self.level;
        result
    }

    /// The item DLX1 branches on at the current node, with its count of
    /// options; `None` at a solution.
    fn branching_item<S: Structure>(st: &mut S) -> Option<(u32, u32)> {
        (st.primaries_left() > 0).then(|| st.choose_len(&mut None, 0))
    }

    pub(super) fn degree_at<S: Structure>(st: &mut S) -> u32 {
        Self::branching_item(st).map_or(0, |(_, d)| d)
    }

    pub(super) fn branch_at<S: Structure>(st: &mut S) -> Branch {
        let Some((i, d)) = Self::branching_item(st) else {
            return Branch::Solution;
        };
        let mut frame = Frame::<S::Level>::new(i, d);
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

    /// The checks due every [`crate::budget::CHECK_INTERVAL`] nodes: the
    /// cancel flag, the clock, and a progress report from `frames`.
    fn check_budgets<T>(&mut self, frames: &[Frame<T>]) -> Option<StopReason> {
        match self.budget.poll(self.stats.nodes) {
            Err(reason) => Some(reason),
            Ok(None) => None,
            Ok(Some(elapsed)) => {
                let report = Progress {
                    nodes: self.stats.nodes,
                    solutions: self.stats.solutions,
                    fraction: fraction(&frames[..self.level]),
                    depth: self.level as u32,
                    elapsed,
                };
                if let Some(f) = &mut self.progress {
                    f(&report);
                }
                None
            }
        }
    }

    fn emit(&mut self, event: TraceEvent) {
        if let Some(f) = &mut self.trace {
            f(&event);
        }
    }

    /// Reports the link changes `st` recorded since the last call.
    fn emit_changes<S: Structure>(&mut self, st: &mut S, buf: &mut Vec<NodeChange>) {
        st.drain_changes(buf);
        for c in buf.drain(..) {
            let (item, option) = (c.item, c.option);
            self.emit(if c.back {
                TraceEvent::Relink { item, option }
            } else {
                TraceEvent::Unlink { item, option }
            });
        }
    }

    pub(super) fn run(
        &mut self,
        mode: Mode,
        visit: impl FnMut(&[OptionId], bool) -> ControlFlow<()>,
    ) -> Outcome {
        if self.resume == Resume::Done {
            return self.outcome.unwrap_or(Outcome::Complete);
        }
        if self.multi {
            return self.run_multi(visit);
        }
        self.budget.start();
        // The structure is moved out while the loop runs so that the loop can
        // borrow the rest of the solver freely.
        let mut backend = self.take_backend();
        let outcome = match &mut backend {
            Backend::Bits(b, f) => {
                crate::repr::bits::dispatch!(b, s => self.search_popcnt(s, f, mode, visit))
            }
            Backend::Cells(c, f) => self.search(c, f, mode, visit),
            Backend::Sparse(s, f) => self.search_avx2(&mut **s, f, mode, visit),
            Backend::Masks(m, f) => self.search_avx2(m, f, mode, visit),
            Backend::Masks32(m, f) => self.search_avx2(m, f, mode, visit),
            Backend::Masks16(m, f) => self.search_avx2(m, f, mode, visit),
            Backend::Links(l, f) if self.trace_nodes && self.trace.is_some() => {
                l.journal.clear();
                let outcome = if l.colors {
                    self.search(&mut Dlx::<true, true>(l), f, mode, visit)
                } else {
                    self.search(&mut Dlx::<false, true>(l), f, mode, visit)
                };
                // A traced search keeps no count of the items left with no
                // option: counted afresh where it stopped, for the searches
                // after it.
                if l.track_zeros {
                    l.recount_zeros();
                }
                outcome
            }
            Backend::Links(l, f) if l.track_zeros => {
                if l.colors {
                    self.search(&mut Dlx::<true, false, true>(l), f, mode, visit)
                } else {
                    self.search(&mut Dlx::<false, false, true>(l), f, mode, visit)
                }
            }
            Backend::Links(l, f) if l.colors => self.search(&mut Dlx::<true>(l), f, mode, visit),
            Backend::Links(l, f) => self.search(&mut Dlx::<false>(l), f, mode, visit),
            Backend::Empty | Backend::Unbuilt(_) => Outcome::Complete,
        };
        self.backend = backend;
        self.stats.elapsed = self.budget.elapsed();
        self.stats.engine = self.engine_in_use();
        self.outcome = Some(outcome);
        outcome
    }

    /// [`Solver::run`] on a problem with multiplicities: Algorithm M's
    /// search, resumed where the last call stopped. Every solution is
    /// handed to `visit` (none is a frontier node).
    fn run_multi(
        &mut self,
        mut visit: impl FnMut(&[OptionId], bool) -> ControlFlow<()>,
    ) -> Outcome {
        if self
            .limits
            .solutions
            .is_some_and(|n| self.stats.solutions >= n)
        {
            return self.stop(StopReason::SolutionLimit);
        }
        let problem = self.problem;
        let engine = self.engine_in_use();
        let search = self
            .multi_search
            .get_or_insert_with(|| Box::new(Search::new(problem, false)));
        search.set_limits(self.limits.clone());
        let outcome = search.resume(|options, _| match visit(options, false) {
            ControlFlow::Continue(()) => Visit::Continue(None),
            ControlFlow::Break(()) => Visit::Stop,
        });
        self.stats = Stats {
            engine,
            ..search.stats
        };
        if outcome == Outcome::Complete {
            self.resume = Resume::Done;
        }
        self.outcome = Some(outcome);
        outcome
    }

    with_features! {
        /// [`Solver::search`], compiled with `popcnt` when the processor has it
        /// ([`crate::unchecked::has_popcnt`]).
        search_popcnt, has_popcnt, "popcnt"
    }

    with_features! {
        /// [`Solver::search`], compiled with AVX2 and the bit-manipulation
        /// instructions when the processor has them
        /// ([`crate::unchecked::has_avx2`]).
        search_avx2, has_avx2, "avx2,bmi1,bmi2,popcnt,lzcnt"
    }

    /// The search loop (Algorithm X/C, steps C2–C8, with an explicit stack).
    /// Always inlined, so that the functions compiled with more
    /// instructions ([`Solver::search_avx2`]) compile it with them.
    #[inline(always)]
    fn search<S: Structure>(
        &mut self,
        st: &mut S,
        frames: &mut Vec<Frame<S::Level>>,
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
        let node_limit = self.budget.nodes;
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
        let mut changes = Vec::new();
        let outcome = loop {
            match step {
                // C2: enter a level.
                Step::Enter => {
                    if self.stats.nodes >= node_limit {
                        self.resume = Resume::Enter;
                        break self.stop(StopReason::NodeLimit);
                    }
                    self.stats.nodes += 1;
                    if Budget::is_due(self.stats.nodes) {
                        if let Some(reason) = self.check_budgets(frames) {
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
                        if visit(self.names.of(st, &self.choice[..l], 0), true).is_break() {
                            self.resume = Resume::Backup;
                            break self.stop(StopReason::Caller);
                        }
                        step = Step::Backup;
                        continue;
                    }
                    // C3: choose the item with the fewest options.
                    let (i, d) = st.choose_len(&mut self.rng, enough);
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
                    if frames.len() == l {
                        frames.push(Frame::default());
                        self.choice.push(0);
                    }
                    let frame = &mut frames[l];
                    *frame = Frame::new(i, d);
                    st.enter(frame);
                    if tracing {
                        self.emit_changes(st, &mut changes);
                    }
                    step = Step::Try;
                }
                // C5 (with C6 for the option before): try the next option.
                Step::Try => {
                    let l = self.level;
                    match st.next_option(&mut frames[l]) {
                        None => {
                            // C7: all options tried; the item is uncovered.
                            if tracing {
                                self.emit(TraceEvent::Backtrack { level: l as u32 });
                                self.emit_changes(st, &mut changes);
                            }
                            step = Step::Backup;
                        }
                        Some(x) => {
                            self.choice[l] = x;
                            self.stats.nodes += st.chained();
                            if tracing {
                                let Frame { k, d, .. } = frames[l];
                                let option = st.option_of(x);
                                self.emit(TraceEvent::Try {
                                    level: l as u32,
                                    option,
                                    k,
                                    d,
                                });
                                self.emit_changes(st, &mut changes);
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
