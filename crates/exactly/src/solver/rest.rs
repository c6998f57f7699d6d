//! Counting what the forced moves from the root leave.
//!
//! A large puzzle's encoding often starts with a long chain of levels of
//! one option each: a 64x64 sudoku's givens, and the cells they force,
//! take 4,000 levels before the first choice. What is left below that
//! chain can be a small problem (the 64x64 sudoku's: 96 open cells, 205
//! options), small enough for the bitsets or the item masks, which search
//! it faster than the links or cells that the whole problem needs.
//! [`Solver::count`] then builds that rest as a problem of its own and
//! counts it with the engine [`Engine::Auto`] picks for it.
//!
//! The rest keeps the uncovered items and the options that none of the
//! chain's options clash with, in their order, so its search tree is the
//! subtree below the chain: the nodes of the two add up to the whole
//! problem's, as DLX1 and DLX2 count them. A secondary item the chain gave a
//! color leaves the rest, and so do the options that give it another color
//! (or none); those that give it the same color keep their other items, as
//! the whole problem's search, which has purified it, ignores it in them.
//! The rest also drops each item whose options (with their colors) are
//! those of an item kept before it (*twins*): a primary twin ties with the
//! item kept, which comes first, so the branching rule never picks it, and
//! two options clash on a twin exactly where they clash on the item kept,
//! so dropping it changes neither the tree nor the count.

use std::collections::HashSet;

use std::ops::ControlFlow;

use super::{Backend, Count, Engine, Outcome, Progress, Resume, Solution, Solver, Stats};
use crate::problem::{ColorId, ItemId, ItemKind, OptionId, Problem, ProblemBuilder};
use crate::repr::{bits, masks};

/// Whether [`Engine::Auto`] gives `problem` the bitsets or the item masks.
fn small<L>(problem: &Problem<L>) -> bool {
    matches!(Engine::Auto.resolve(problem), Engine::Bits | Engine::Masks)
}

/// What a chain of options leaves of an item.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Left {
    /// No option of the chain has it.
    Open,
    /// An option of the chain has it with no color: covered.
    Covered,
    /// An option of the chain has it (a secondary item) with this color:
    /// only options that give it the same color stay, and they agree on it.
    Color(ColorId),
}

/// The part of a problem left below a chain of options: the items those
/// options do not cover or color, less twins, and the options that clash
/// with none of them, with the whole problem's id of each. An option that
/// gives an item the color the chain gave it keeps its other items. Without
/// multiplicities. `None` if the builder refuses it, which a part of a built
/// problem never gives it cause to, and, unless `any_size`, before it is
/// built, when neither the bitsets nor the item masks could take it.
fn rest_of<L>(
    problem: &Problem<L>,
    chain: &[OptionId],
    any_size: bool,
) -> Option<(Problem<()>, Vec<OptionId>)> {
    let mut left = vec![Left::Open; problem.num_items()];
    for &o in chain {
        for e in problem.option(o) {
            left[e.item.index()] = if e.color.is_none() {
                Left::Covered
            } else {
                Left::Color(e.color)
            };
        }
    }
    let alive: Vec<OptionId> = problem
        .option_ids()
        .filter(|&o| {
            problem
                .option(o)
                .iter()
                .all(|e| match left[e.item.index()] {
                    Left::Open => true,
                    Left::Covered => false,
                    Left::Color(c) => e.color == c,
                })
        })
        .collect();
    // Each open item's options in the rest, by position in `alive`, with
    // the color each gives it.
    let mut lists: Vec<Vec<(u32, ColorId)>> = vec![Vec::new(); problem.num_items()];
    for (k, &o) in alive.iter().enumerate() {
        for e in problem.option(o) {
            if left[e.item.index()] == Left::Open {
                lists[e.item.index()].push((k as u32, e.color));
            }
        }
    }
    // An item is kept unless an item kept before it has its options, with
    // the same colors (two options then clash on both or on neither);
    // primary items are looked at first, so that a secondary item never
    // stands in for a primary one.
    let mut keep = vec![false; problem.num_items()];
    let mut seen: HashSet<&[(u32, ColorId)]> = HashSet::new();
    for kind in [ItemKind::Primary, ItemKind::Secondary] {
        for i in problem.item_ids() {
            if left[i.index()] != Left::Open || problem.item_kind(i) != kind {
                continue;
            }
            let list = &lists[i.index()][..];
            // A secondary item with one option or none never clashes.
            if kind == ItemKind::Secondary && list.len() <= 1 {
                continue;
            }
            if seen.insert(list) {
                keep[i.index()] = true;
            }
        }
    }
    // The bitsets take at most MAX_OPTIONS options, and the item masks
    // items of at most MAX_ITEM_OPTIONS: a rest past both is not built.
    let widest = (problem.item_ids())
        .filter(|i| keep[i.index()])
        .map(|i| lists[i.index()].len())
        .max()
        .unwrap_or(0);
    if !any_size && alive.len() > bits::MAX_OPTIONS && widest > masks::MAX_ITEM_OPTIONS {
        return None;
    }
    let mut builder = ProblemBuilder::new();
    let mut ids = vec![ItemId(u32::MAX); problem.num_items()];
    for i in problem.item_ids().filter(|i| keep[i.index()]) {
        let name = problem.item_name(i);
        // The names are the problem's own, so valid and distinct.
        let id = match problem.item_kind(i) {
            ItemKind::Primary => builder.primary(name),
            ItemKind::Secondary => builder.secondary(name),
        };
        ids[i.index()] = id.ok()?;
    }
    // The problem's colors, by the rest's ids, made as they are met.
    let mut colors: Vec<Option<ColorId>> = vec![None; problem.num_colors() + 1];
    let mut entries = Vec::new();
    for &o in &alive {
        entries.clear();
        for e in problem.option(o).iter().filter(|e| keep[e.item.index()]) {
            let color = if e.color.is_none() {
                ColorId::NONE
            } else {
                let slot = colors.get_mut(e.color.0 as usize)?;
                match *slot {
                    Some(c) => c,
                    None => *slot.insert(builder.color(problem.color_name(e.color)).ok()?),
                }
            };
            entries.push((ids[e.item.index()], color));
        }
        // Each option keeps a primary item: its own, or the twin kept
        // for it.
        builder.add_option((), entries.iter().copied()).ok()?;
    }
    Some((builder.build().ok()?, alive))
}

/// What the forced moves from the root of a large exact cover leave, as a
/// problem of its own that the bitsets or the item masks take (see the
/// module docs). [`Solver::count`] counts it in place of the whole, and so
/// does [`crate::parallel::count`], on threads. Its search tree is the
/// whole problem's below the forced levels, so its nodes plus
/// [`Rest::depth`] are the whole problem's, and each of its solutions with
/// [`Rest::chain`] added is one of the whole problem's.
///
/// ```
/// use exactly::{Rest, Solver};
/// // Item f has one option, which covers x; below it, a b c are left.
/// // Seven thousand options on x and secondary items make the whole too
/// // large for the bitsets and the item masks.
/// let mut text = String::from("a b c f x |");
/// (0..7000).for_each(|k| text += &format!(" s{k}"));
/// text += "\nf x\na b\nc\na\nb c\n";
/// (0..7000).for_each(|k| text += &format!("x s{k}\n"));
/// let p = exactly::format::parse_dlx(&text)?;
/// let rest = Rest::of(&p).expect("a forced move at the root");
/// assert_eq!((rest.depth, rest.chain.len(), rest.problem.num_options()), (1, 1, 4));
/// assert_eq!(Solver::new(&rest.problem).count().solutions, 2);
/// assert_eq!(Solver::new(&p).count().solutions, 2);
/// // The rest's options, by the whole problem's ids.
/// assert_eq!(p.option_text(rest.options[0]), "a b");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Rest {
    /// The items the forced options leave uncovered, less twins, and the
    /// options that clash with none of them, in their order.
    pub problem: Problem<()>,
    /// The forced options, from the root down.
    pub chain: Vec<OptionId>,
    /// Each of the rest's options (by index) as the whole problem's.
    pub options: Vec<OptionId>,
    /// The forced levels: each is one node of the whole problem's tree.
    pub depth: u32,
    /// The link updates of walking them with dancing links (see
    /// [`Stats::updates`]).
    pub updates: u64,
}

impl Rest {
    /// Makes a search's counts of the rest's tree the whole problem's by
    /// adding the forced levels above it: [`Rest::depth`] nodes and levels,
    /// and [`Rest::updates`]. Solutions are the same.
    ///
    /// ```
    /// # let mut text = String::from("a b c f x |");
    /// # (0..7000).for_each(|k| text += &format!(" s{k}"));
    /// # text += "\nf x\na b\nc\na\nb c\n";
    /// # (0..7000).for_each(|k| text += &format!("x s{k}\n"));
    /// # let p = exactly::format::parse_dlx(&text)?;
    /// use exactly::{Engine, Rest, Solver};
    /// // `p` as in the example above: f x forced, then a b c.
    /// let rest = Rest::of(&p).expect("a forced move at the root");
    /// let mut solver = Solver::new(&rest.problem);
    /// solver.count();
    /// let mut below = *solver.stats();
    /// rest.add_forced(&mut below.nodes, &mut below.updates, &mut below.max_depth);
    /// let mut whole = Solver::new(&p).engine(Engine::Links);
    /// whole.count();
    /// assert_eq!((below.nodes, below.max_depth), (whole.stats().nodes, whole.stats().max_depth));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_forced(&self, nodes: &mut u64, updates: &mut u64, max_depth: &mut u32) {
        *nodes = nodes.saturating_add(self.depth.into());
        *updates = updates.saturating_add(self.updates);
        *max_depth = max_depth.saturating_add(self.depth);
    }

    /// The budgets `limits` leave the rest's search, the search of the
    /// whole problem having started at `start`: a node budget less the
    /// forced levels (the whole search's first nodes), and a time budget
    /// less the time since `start`. `None` when the node budget ends
    /// within the forced levels, where the whole problem's search stops.
    pub(crate) fn limits_below(
        &self,
        limits: &crate::Limits,
        start: crate::time::Instant,
    ) -> Option<crate::Limits> {
        let mut below = limits.since(start);
        if let Some(nodes) = below.nodes {
            below.nodes = Some(nodes.checked_sub(self.depth.into()).filter(|&n| n > 0)?);
        }
        Some(below)
    }

    /// A progress report of a search of the rest as the whole problem's:
    /// the forced levels added to its nodes and depth, as
    /// [`Rest::add_forced`] adds them to the counts at the end.
    ///
    /// ```
    /// # let mut text = String::from("a b c f x |");
    /// # (0..7000).for_each(|k| text += &format!(" s{k}"));
    /// # text += "\nf x\na b\nc\na\nb c\n";
    /// # (0..7000).for_each(|k| text += &format!("x s{k}\n"));
    /// # let p = exactly::format::parse_dlx(&text)?;
    /// use exactly::{Progress, Rest};
    /// // `p` as in the example above: f x forced, then a b c.
    /// let rest = Rest::of(&p).expect("a forced move at the root");
    /// let below = Progress { nodes: 5, solutions: 1, fraction: 0.5, depth: 2, elapsed: Default::default() };
    /// let whole = rest.whole_progress(&below);
    /// assert_eq!((whole.nodes, whole.depth, whole.solutions), (6, 3, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn whole_progress(&self, p: &Progress) -> Progress {
        Progress {
            nodes: p.nodes.saturating_add(self.depth.into()),
            depth: p.depth.saturating_add(self.depth),
            ..*p
        }
    }

    /// The rest of `problem` where [`Solver::count`] counts one: an exact
    /// cover, with or without colors but without multiplicities, that the
    /// bitsets and the item masks do not take ([`Engine::Auto`] gives it
    /// another engine), with a primary item of one option, whose chain of
    /// forced moves from the root leaves a rest that they do take. `None` otherwise, and
    /// where the forced moves end in a dead end or a solution, which the
    /// whole problem's search reaches as quickly.
    pub fn of<L>(problem: &Problem<L>) -> Option<Rest> {
        Rest::find(problem, false)
    }

    /// [`Rest::of`]; `any_size` lifts the two conditions on size (for
    /// tests).
    pub(crate) fn find<L>(problem: &Problem<L>, any_size: bool) -> Option<Rest> {
        if problem.has_multiplicities() {
            return None;
        }
        // A problem the bitsets or the item masks take is searched fast
        // enough whole.
        if !any_size && small(problem) {
            return None;
        }
        // No chain without an item of one option at the root.
        if !problem
            .item_ids()
            .any(|i| problem.item_kind(i) == ItemKind::Primary && problem.item_len(i) <= 1)
        {
            return None;
        }
        // The walk down the chain takes links: cells keep their open items
        // in no order, so they cannot find the leftmost forced item
        // without a full scan.
        let (chain, updates) = Solver::new(problem)
            .engine(Engine::Links)
            .follow_forced(usize::MAX)?;
        if chain.is_empty() {
            return None;
        }
        let (rest, options) = rest_of(problem, &chain, any_size)?;
        if !any_size && !small(&rest) {
            return None;
        }
        Some(Rest {
            problem: rest,
            depth: u32::try_from(chain.len()).ok()?,
            chain,
            options,
            updates,
        })
    }
}

impl<L> Solver<'_, L> {
    /// [`Solver::count`] by the rest below the forced moves from the root
    /// (see the module docs), or `None` to count as usual: only a solver
    /// that has not searched, with [`Engine::Auto`], no seed, trace or
    /// [`Solver::forced_first`], and no budget unless it is not
    /// [`Solver::resumable`] (a node budget then past the forced levels),
    /// on an exact cover without multiplicities too large for the bitsets
    /// and the item masks, whose rest fits one of them ([`Rest::find`]
    /// checks the problem). `any_size` lifts the two conditions on size
    /// (for tests).
    pub(super) fn count_rest(&mut self, any_size: bool) -> Option<Count> {
        self.by_rest(any_size, false, |solver, _| {
            let count = solver.count();
            (count, count.outcome)
        })
    }

    /// [`Solver::for_each`] by the rest, as [`Solver::count_rest`] counts
    /// by it. Each of the rest's solutions is handed on as the whole
    /// problem's: the forced options, then the rest's, level by level, as
    /// the whole problem's search chooses them. The rest's solver is gone
    /// by the next call: on a [`Solver::resumable`] solver, a visit that
    /// stops at a solution (a `Break`, or the solution budget) leaves that
    /// solution's path pending, for the next call to resume from on the
    /// whole problem ([`Solver::resume_at`]); a budget on nodes or time,
    /// which may stop between solutions, keeps such a solver on the whole
    /// problem from the start.
    pub(super) fn visit_rest(
        &mut self,
        any_size: bool,
        visit: &mut impl FnMut(&Solution) -> ControlFlow<()>,
    ) -> Option<Outcome> {
        let (outcome, last) = self.by_rest(any_size, true, |solver, rest| {
            let mut whole = Solution {
                options: Vec::with_capacity(rest.chain.len() + rest.problem.num_primary()),
            };
            let mut visited = false;
            // The rest's own solver visits its whole problem.
            let outcome = solver.visit_whole(|s| {
                whole.options.clear();
                whole.options.extend_from_slice(&rest.chain);
                let options = s.options().iter().map(|o| rest.options[o.index()]);
                whole.options.extend(options);
                visited = true;
                visit(&whole)
            });
            ((outcome, visited.then_some(whole.options)), outcome)
        })?;
        if self.resumable && !outcome.is_complete() {
            // Stopped at the last solution visited (see `by_rest`).
            self.pending = last;
            if self.pending.is_some() {
                self.resume = Resume::Backup;
            }
        }
        Some(outcome)
    }

    /// Runs `search` on a solver of the rest in place of this solver's
    /// own search, under the budgets left below the forced levels, and
    /// takes its stats (the forced levels added) and its outcome as this
    /// solver's, with nothing left to resume (a visit may leave a path
    /// pending, [`Solver::visit_rest`]). `None` where the rest does not
    /// apply (see [`Solver::count_rest`]); `visiting`: also on a
    /// resumable solver whose budgets stop a search only at a solution.
    fn by_rest<T>(
        &mut self,
        any_size: bool,
        visiting: bool,
        search: impl FnOnce(&mut Solver<'_, ()>, &Rest) -> (T, Outcome),
    ) -> Option<T> {
        let limits = &self.limits;
        // Budgets that stop a search only at a solution, if at all.
        let at_solutions = limits.nodes.is_none()
            && limits.time.is_none()
            && limits.cancel.is_none()
            && limits.solutions != Some(0);
        let unlimited = at_solutions && limits.solutions.is_none();
        let plain = matches!(self.backend, Backend::Unbuilt(Engine::Auto))
            && self.trace.is_none()
            && self.rng.is_none()
            && self.enough == 0
            && self.resume == Resume::Enter
            && self.level == 0
            && self.stats.nodes == 0
            && (!self.resumable || if visiting { at_solutions } else { unlimited })
            && limits.shared.is_none();
        if !plain {
            return None;
        }
        let start = crate::time::Instant::now();
        let rest = Rest::find(self.problem, any_size)?;
        // The clock started with this call.
        let below = rest.limits_below(&self.limits, start)?;
        // Progress reports come from the rest's search, with the chain's
        // levels and nodes added.
        let mut report = self.progress.take();
        let (value, outcome, done, fraction) = {
            let mut solver = Solver::new(&rest.problem).limits(below);
            if let (Some(f), Some(every)) = (report.as_mut(), self.budget.progress_interval()) {
                let whole = &rest;
                solver = solver.on_progress(every, move |p: &Progress| f(&whole.whole_progress(p)));
            }
            let (value, outcome) = search(&mut solver, &rest);
            (value, outcome, *solver.stats(), solver.fraction_done())
        };
        self.progress = report;
        self.stats = Stats {
            elapsed: start.elapsed(),
            ..done
        };
        let s = &mut self.stats;
        rest.add_forced(&mut s.nodes, &mut s.updates, &mut s.max_depth);
        // Nothing is left to resume: a stop is reported again.
        self.resume = Resume::Done;
        self.outcome = Some(outcome);
        if !outcome.is_complete() {
            self.stopped_fraction = Some(fraction);
        }
        Some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Limits, Outcome, StopReason};

    /// A random exact cover with a solution planted in it and some of
    /// that solution's options forced from the root: each of the extra
    /// primary items lies in one option only. With `colored`, each entry
    /// on a secondary item has one of two colors or none.
    fn forced_problem(seed: u64, secondary: bool, colored: bool) -> Problem<()> {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move |n: u64| crate::repr::next_random(&mut state) % n;
        let mut b = ProblemBuilder::new();
        let primary = 4 + next(12) as usize;
        let forced = 1 + next(3) as usize;
        let second = if secondary { 1 + next(3) as usize } else { 0 };
        let mut items = Vec::new();
        for i in 0..primary + forced + second {
            let name = format!("i{i}");
            items.push(match i < primary + forced {
                true => b.primary(&name).unwrap(),
                false => b.secondary(&name).unwrap(),
            });
        }
        let mut options: Vec<Vec<usize>> = Vec::new();
        // The planted solution: the primary items, shuffled, in blocks.
        let mut order: Vec<usize> = (0..primary).collect();
        for k in (1..order.len()).rev() {
            order.swap(k, next(k as u64 + 1) as usize);
        }
        let mut at = 0;
        while at < primary {
            let len = (1 + next(3) as usize).min(primary - at);
            options.push(order[at..at + len].to_vec());
            at += len;
        }
        for (f, option) in options.iter_mut().enumerate().take(forced) {
            option.push(primary + f);
        }
        for _ in 0..4 + next(24) {
            let mut option: Vec<usize> = Vec::new();
            for _ in 0..1 + next(3) {
                let i = next(primary as u64) as usize;
                if !option.contains(&i) {
                    option.push(i);
                }
            }
            options.push(option);
        }
        for option in &mut options {
            if second > 0 && next(2) == 0 {
                option.push(primary + forced + next(second as u64) as usize);
            }
        }
        for k in (1..options.len()).rev() {
            options.swap(k, next(k as u64 + 1) as usize);
        }
        let palette = [ColorId::NONE, b.color("R").unwrap(), b.color("G").unwrap()];
        for option in options {
            let entries: Vec<(ItemId, ColorId)> = option
                .iter()
                .map(|&i| {
                    let secondary = i >= primary + forced;
                    let color = match colored && secondary {
                        true => palette[next(3) as usize],
                        false => ColorId::NONE,
                    };
                    (items[i], color)
                })
                .collect();
            b.add_option((), entries).unwrap();
        }
        b.build().unwrap()
    }

    #[test]
    fn the_rest_counts_the_nodes_and_solutions_of_the_whole() {
        let (mut taken, mut colored) = (0, 0);
        for seed in 1..=400 {
            let p = forced_problem(seed, seed % 2 == 0, seed % 4 == 0);
            let mut whole = Solver::new(&p).engine(Engine::Links);
            let want = whole.count();
            let mut solver = Solver::new(&p);
            match solver.count_rest(true) {
                Some(got) => {
                    taken += 1;
                    colored += usize::from(seed % 4 == 0);
                    assert_eq!(got, want, "seed {seed}");
                    assert_eq!(solver.stats().nodes, whole.stats().nodes, "seed {seed}");
                    assert_eq!(solver.stats().solutions, want.solutions, "seed {seed}");
                    // The solver is spent, as after any complete count.
                    assert_eq!(solver.count().solutions, 0);
                }
                None => assert_eq!(solver.count(), want, "seed {seed}"),
            }
        }
        // Most of the problems have forced moves that end well, those
        // with colors too.
        assert!(taken > 100, "{taken} of 400 counted by their rest");
        assert!(
            colored > 25,
            "{colored} of 100 with colors counted by their rest"
        );
    }

    #[test]
    fn the_rest_visits_the_whole_problems_solutions_in_its_order() {
        let (mut taken, mut colored) = (0, 0);
        for seed in 1..=200 {
            let p = forced_problem(seed, seed % 2 == 0, seed % 4 == 0);
            let mut whole = Solver::new(&p).engine(Engine::Links);
            let want: Vec<Solution> = whole.solutions().collect();
            let nodes = whole.stats().nodes;
            // A budget that may stop between solutions keeps a resumable
            // solver on the whole problem.
            let mut visit = |_: &Solution| ControlFlow::Continue(());
            let limits = Limits::default().max_nodes(u64::MAX);
            assert_eq!(
                Solver::new(&p).limits(limits).visit_rest(true, &mut visit),
                None
            );
            let mut solver = Solver::new(&p).resumable(false);
            let mut got = Vec::new();
            let outcome = solver.visit_rest(true, &mut |s: &Solution| {
                got.push(s.clone());
                ControlFlow::Continue(())
            });
            let Some(outcome) = outcome else {
                continue;
            };
            taken += 1;
            colored += usize::from(seed % 4 == 0);
            // The same solutions, each option for option, in the same order.
            assert_eq!(outcome, Outcome::Complete, "seed {seed}");
            assert_eq!(got, want, "seed {seed}");
            assert_eq!(solver.stats().nodes, nodes, "seed {seed}");
            // A visit that breaks, or a solution budget, stops at the same
            // solution, and for good.
            for stop in 1..=want.len().min(3) {
                let mut seen = Vec::new();
                let mut solver = Solver::new(&p).resumable(false);
                let outcome = solver.visit_rest(true, &mut |s: &Solution| {
                    seen.push(s.clone());
                    if seen.len() == stop {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                });
                assert!(outcome.is_some_and(|o| !o.is_complete()), "seed {seed}");
                assert_eq!(seen, want[..stop], "seed {seed}");
                assert_eq!(solver.first(), Err(StopReason::Caller), "seed {seed}");
                let limits = Limits::default().max_solutions(stop as u128);
                let mut solver = Solver::new(&p).limits(limits).resumable(false);
                let mut seen = Vec::new();
                solver.for_each(|s| {
                    seen.push(s.clone());
                    ControlFlow::Continue(())
                });
                assert_eq!(seen, want[..stop], "seed {seed}");
                // A resumable solver stopped by the rest goes on from there
                // on the whole problem, as the whole problem's search would.
                let mut solver = Solver::new(&p);
                let mut seen = Vec::new();
                let outcome = solver.visit_rest(true, &mut |s: &Solution| {
                    seen.push(s.clone());
                    ControlFlow::Break(())
                });
                assert_eq!(outcome, Some(Outcome::Stopped(StopReason::Caller)));
                let elapsed = solver.stats().elapsed;
                assert_eq!(solver.fraction_done(), {
                    let mut links = Solver::new(&p).engine(Engine::Links);
                    links.first().expect("no budget");
                    links.fraction_done()
                });
                match stop {
                    // One at a time, then the rest all at once.
                    1 => {
                        seen.extend(solver.first().expect("no budget"));
                        seen.extend(solver.solutions());
                    }
                    2 => {
                        solver.for_each(|s| {
                            seen.push(s.clone());
                            ControlFlow::Continue(())
                        });
                    }
                    _ => {
                        let count = solver.count();
                        assert_eq!(count.solutions as usize, want.len() - 1, "seed {seed}");
                        seen = want.clone();
                    }
                }
                assert_eq!(seen, want, "seed {seed}");
                assert_eq!(solver.stats().nodes, nodes, "seed {seed}");
                assert_eq!(solver.stats().engine, Engine::Links);
                assert_eq!(solver.outcome(), Some(Outcome::Complete));
                assert_eq!(solver.fraction_done(), 1.0);
                // The clock went on from the rest's time.
                assert!(solver.stats().elapsed >= elapsed, "seed {seed}");
                // Back at the root, on the structure of its own engine.
                solver.reset();
                assert_eq!(solver.count().solutions as usize, want.len(), "seed {seed}");
            }
        }
        assert!(taken > 50, "{taken} of 200 visited by their rest");
        assert!(
            colored > 10,
            "{colored} of 50 with colors visited by their rest"
        );
    }

    #[test]
    fn budgets_stop_the_rest_where_they_stop_the_whole() {
        let (mut taken, mut stopped) = (0, 0);
        for seed in 1..=300 {
            let p = forced_problem(seed, seed % 2 == 0, seed % 3 == 0);
            let mut full = Solver::new(&p).engine(Engine::Links);
            let total = full.count();
            let nodes = full.stats().nodes;
            // Budgets from within the forced levels to past the end.
            let budgets = [
                Limits::default().max_nodes(1 + seed % 3),
                Limits::default().max_nodes(1 + seed % nodes),
                Limits::default().max_nodes(nodes),
                Limits::default().max_solutions(1 + u128::from(seed) % (total.solutions + 1)),
                Limits::default().max_time(std::time::Duration::from_secs(100)),
            ];
            for limits in budgets {
                let mut whole = Solver::new(&p).engine(Engine::Links).limits(limits.clone());
                let want = whole.count();
                // A resumable solver keeps the whole problem under a budget.
                let mut kept = Solver::new(&p).limits(limits.clone());
                assert_eq!(kept.count_rest(true), None, "seed {seed}");
                let mut solver = Solver::new(&p).limits(limits.clone()).resumable(false);
                let Some(got) = solver.count_rest(true) else {
                    assert_eq!(solver.count(), want, "seed {seed} {limits:?}");
                    continue;
                };
                taken += 1;
                stopped += usize::from(!got.outcome.is_complete());
                let (a, b) = (solver.stats(), whole.stats());
                if limits.nodes.is_none() {
                    // The same solutions in the same order, and the same
                    // nodes up to the stop.
                    assert_eq!(got, want, "seed {seed} {limits:?}");
                    assert_eq!(
                        (a.nodes, a.solutions, a.max_depth),
                        (b.nodes, b.solutions, b.max_depth),
                        "seed {seed} {limits:?}"
                    );
                } else if got.outcome.is_complete() {
                    // Within the budget: the whole tree.
                    assert_eq!(got, total, "seed {seed} {limits:?}");
                    assert_eq!(a.nodes, nodes, "seed {seed} {limits:?}");
                } else {
                    // A node budget may stop the two a few nodes apart:
                    // the rest counts a last level in one step where the
                    // whole problem still has that item's twin.
                    assert_eq!(got.outcome, want.outcome, "seed {seed} {limits:?}");
                    assert!(got.solutions <= total.solutions, "seed {seed} {limits:?}");
                    assert!(a.nodes < nodes, "seed {seed} {limits:?}");
                }
                // Nothing is left to resume: the stop is reported again.
                let again = solver.count();
                assert_eq!(again.solutions, 0, "seed {seed}");
                assert_eq!(again.outcome, got.outcome, "seed {seed}");
                assert_eq!(
                    solver.fraction_done() < 1.0,
                    got.outcome != Outcome::Complete,
                    "seed {seed} {limits:?}"
                );
            }
        }
        assert!(taken > 300, "{taken} budgeted counts by the rest");
        assert!(stopped > 100, "{stopped} of them stopped");
    }

    #[test]
    fn the_rest_on_threads_stops_where_its_budgets_say() {
        // Langford pairs 1..11 (35,584 solutions) below two forced options.
        let n = 11;
        let mut text: String = (1..=n).map(|k| format!("d{k} ")).collect();
        text += &(1..=2 * n).map(|i| format!("p{i} ")).collect::<String>();
        text += "f g\nf\ng\n";
        for k in 1..=n {
            for i in 1..2 * n - k {
                text += &format!("d{k} p{i} p{}\n", i + k + 1);
            }
        }
        let p = crate::format::parse_dlx(&text).unwrap();
        let mut whole = Solver::new(&p).engine(Engine::Links);
        let want = whole.count().solutions;
        let nodes = whole.stats().nodes;
        assert_eq!(want, 35584);
        let count = |threads, limits: &Limits| {
            crate::parallel::count_by_rest(&p, threads, limits, crate::time::Instant::now(), true)
        };
        let rest = Rest::find(&p, true).expect("two forced levels");
        assert_eq!(rest.depth, 2);
        for threads in [1, 3] {
            let got = count(threads, &Limits::default());
            assert_eq!((got.solutions, got.nodes), (want, nodes));
            // A node budget within the forced levels, then below them.
            for budget in [2, nodes / 2] {
                let got = count(threads, &Limits::default().max_nodes(budget));
                assert_eq!(got.outcome, Outcome::Stopped(StopReason::NodeLimit));
                assert!(got.solutions < want, "{budget}: {}", got.solutions);
            }
            let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
            let got = count(threads, &Limits::default().cancel_flag(cancel));
            assert_eq!(got.outcome, Outcome::Stopped(StopReason::Cancelled));
            let got = count(
                threads,
                &Limits::default().max_time(std::time::Duration::ZERO),
            );
            assert_eq!(got.outcome, Outcome::Stopped(StopReason::TimeLimit));
            assert!(got.solutions < want);
        }
    }

    #[test]
    fn the_rest_on_threads_counts_the_nodes_and_solutions_of_the_whole() {
        let mut taken = 0;
        for seed in 1..=200 {
            let p = forced_problem(seed, seed % 2 == 1, seed % 4 == 1);
            let mut whole = Solver::new(&p).engine(Engine::Links);
            let want = whole.count();
            let rest = Rest::find(&p, true);
            taken += usize::from(rest.is_some());
            for threads in [1, 3] {
                let got = crate::parallel::count_by_rest(
                    &p,
                    threads,
                    &Limits::default(),
                    crate::time::Instant::now(),
                    true,
                );
                assert_eq!(got.solutions, want.solutions, "seed {seed}");
                assert_eq!(got.nodes, whole.stats().nodes, "seed {seed}");
                assert_eq!(got.outcome, Outcome::Complete, "seed {seed}");
            }
            // Each of the rest's solutions, with the chain, is the whole's.
            if let Some(rest) = rest {
                let mut mapped: Vec<Vec<OptionId>> = Solver::new(&rest.problem)
                    .solutions()
                    .map(|s| {
                        let mut s: Vec<OptionId> = s
                            .options()
                            .iter()
                            .map(|o| rest.options[o.index()])
                            .chain(rest.chain.iter().copied())
                            .collect();
                        s.sort_unstable();
                        s
                    })
                    .collect();
                mapped.sort();
                let mut all: Vec<Vec<OptionId>> = Solver::new(&p)
                    .engine(Engine::Links)
                    .solutions()
                    .map(|s| s.sorted())
                    .collect();
                all.sort();
                assert_eq!(mapped, all, "seed {seed}");
            }
        }
        assert!(taken > 50, "{taken} of 200 counted by their rest");
    }

    #[test]
    fn only_large_exact_covers_with_a_forced_move_have_a_rest() {
        // f x is forced; 7,000 options on x make the whole large.
        let large = |primary: &str, secondary: &str, below: &str| {
            let mut text = format!("{primary} f x | {secondary}");
            (0..7000).for_each(|k| text += &format!(" s{k}"));
            text += &format!("\nf x\n{below}");
            (0..7000).for_each(|k| text += &format!("x s{k}\n"));
            crate::format::parse_dlx(&text).unwrap()
        };
        assert!(Rest::of(&large("a b c", "", "a b\nc\na\nb c\n")).is_some());
        // Colors: one, whose count is the whole's ({a b y:R, c y:G}
        // gives y two colors).
        let colored = large("a b c", "y", "a b y:R\nc y:G\na\nb c\n");
        let rest = Rest::of(&colored).expect("a rest with colors");
        assert_eq!(Solver::new(&rest.problem).count().solutions, 1);
        assert_eq!(
            Solver::new(&colored)
                .engine(Engine::Links)
                .count()
                .solutions,
            1
        );
        // Multiplicities: none.
        assert!(Rest::of(&large("2|a b c", "", "a b\nc\na\nb c\na\n")).is_none());
        // No item of one option: none.
        assert!(Rest::of(&large("a b c", "", "f\na b\nc\na\nb c\n")).is_none());
        // Small enough whole: none, though its tests find one at any size.
        let small = crate::format::parse_dlx("a b c f\nf\na b\nc\na\nb c\n").unwrap();
        assert!(Rest::of(&small).is_none());
        assert_eq!(Rest::find(&small, true).map(|r| r.depth), Some(1));
        // Forced moves that end in a dead end (c has no option once f x
        // is in): none.
        assert!(Rest::of(&large("a b c", "", "a b\nc x\n")).is_none());
    }

    #[test]
    fn a_rest_past_one_bound_is_found_and_past_both_is_not_built() {
        // f x is forced; below it, `options` triples over 400 items, and
        // item a in the first `wide` of them.
        let rest = |options: usize, wide: usize| {
            let mut text = String::from(if wide > 0 { "f x a" } else { "f x" });
            (0..400).for_each(|k| text += &format!(" i{k}"));
            // 7,000 options on x and secondary items make the whole large.
            text += " |";
            (0..7000).for_each(|k| text += &format!(" s{k}"));
            text += "\nf x\n";
            (0..7000).for_each(|k| text += &format!("x s{k}\n"));
            for k in 0..options {
                // Three distinct items: p, p + 1..=199 and p + 200..=398.
                let p = k % 400;
                let (q, r) = ((p + 1 + k / 400 % 199) % 400, (p + 200 + k % 199) % 400);
                let a = if k < wide { "a " } else { "" };
                text += &format!("{a}i{p} i{q} i{r}\n");
            }
            let p = crate::format::parse_dlx(&text).unwrap();
            assert!(!small(&p));
            Rest::of(&p).map(|r| r.problem.num_options())
        };
        // Over 4,096 options, no item of more than 64: item masks.
        assert_eq!(rest(4200, 0), Some(4200));
        // Up to 4,096 options, an item of more: bitsets.
        assert_eq!(rest(4000, 100), Some(4000));
        // Past both: none.
        assert_eq!(rest(4200, 100), None);
    }

    /// The rest of the problem `text` below its first option, which it
    /// forces, with the names of the rest's items; the count by the rest
    /// and by links on the whole must be `solutions`.
    fn rest_below_first(text: &str, solutions: u128) -> (Problem<()>, Vec<OptionId>, Vec<String>) {
        let p = crate::format::parse_dlx(text).unwrap();
        let (rest, options) = rest_of(&p, &[OptionId(0)], true).unwrap();
        let names = rest
            .item_ids()
            .map(|i| rest.item_name(i).to_string())
            .collect();
        let count = Solver::new(&p).count_rest(true).map(|c| c.solutions);
        assert_eq!(count, Some(solutions));
        assert_eq!(
            Solver::new(&p).engine(Engine::Links).count().solutions,
            solutions
        );
        (rest, options, names)
    }

    #[test]
    fn an_item_the_chain_colors_keeps_the_options_of_its_color() {
        // The forced option gives y color R: "a y:G" and "a y" go, and
        // "a y:R" stays as "a". z keeps its two colors. {a, b z:G, c z:B}
        // gives z two colors: only {a, b c} is left.
        let (rest, options, names) = rest_below_first(
            "a b c f | y z\nf y:R\na y:R\na y:G\na y\nb z:G\nc z:B\nb c\n",
            1,
        );
        assert_eq!(names, ["a", "b", "c", "z"]);
        let texts: Vec<String> = rest.option_ids().map(|o| rest.option_text(o)).collect();
        assert_eq!(texts, ["a", "b z:G", "c z:B", "b c"]);
        assert_eq!(options, [1, 4, 5, 6].map(OptionId));
    }

    #[test]
    fn twins_have_the_same_colors_too() {
        // j and k lie in the same two options, but only k's colors clash:
        // k is no twin of j.
        let (_, _, names) = rest_below_first("a b f | j k\nf\na j:R k:R\nb j:R k:G\na\nb\n", 3);
        assert_eq!(names, ["a", "b", "j", "k"]);
    }

    #[test]
    fn twins_are_dropped() {
        // Below the forced option "e", b has a's options and d has c's;
        // x and y (secondary) have two options each, not the same two.
        let (rest, options, names) =
            rest_below_first("a b c d e | x y\ne\na b x\nc d\na b y\nc d x y\n", 2);
        assert_eq!(names, ["a", "c", "x", "y"]);
        assert_eq!(rest.num_options(), 4);
        // Every option below e is alive, by the whole problem's ids.
        assert_eq!(options, (1..5).map(OptionId).collect::<Vec<_>>());
    }

    #[test]
    fn progress_counts_the_chain_too() {
        // Ten queens (724 solutions) below three forced options: rows and
        // columns primary, diagonals secondary.
        let n = 10;
        let lines: Vec<String> = (0..n * n)
            .map(|k| (k / n, k % n))
            .map(|(r, c)| format!("r{r} c{c} a{} b{}", r + c, r + n - 1 - c))
            .collect();
        let names = |x: &str, count: usize| -> String {
            let all: Vec<String> = (0..count).map(|i| format!("{x}{i}")).collect();
            all.join(" ")
        };
        let text = format!(
            "{} {} f0 f1 f2 | {} {}\nf0\nf1\nf2\n{}\n",
            names("r", n),
            names("c", n),
            names("a", 2 * n - 1),
            names("b", 2 * n - 1),
            lines.join("\n")
        );
        let p = crate::format::parse_dlx(&text).unwrap();
        let want = Solver::new(&p).engine(Engine::Links).count();
        assert_eq!(want.solutions, 724);
        let mut reports = Vec::new();
        let mut solver =
            Solver::new(&p).on_progress(std::time::Duration::ZERO, |p| reports.push(*p));
        assert_eq!(solver.count_rest(true), Some(want));
        let nodes = solver.stats().nodes;
        drop(solver);
        assert!(!reports.is_empty());
        // The rest's search reports when its own nodes reach a multiple
        // of the interval at which budgets are read; the three forced
        // levels come on top.
        let every = crate::budget::CHECK_INTERVAL;
        for r in &reports {
            assert!(
                r.depth >= 3 && r.nodes % every == 3 && r.nodes <= nodes,
                "{r:?}"
            );
        }
    }
}
