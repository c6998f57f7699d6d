//! Multiplicities and costs: Knuth's Algorithm M (his DLX3 program) and the
//! branch-and-bound of his DLX5, on one search over availability arrays.
//!
//! A primary item with bounds `(v, u)` must be covered by at least `v` and at
//! most `u` chosen options; secondary items and colors behave as in
//! [`Solver`](crate::Solver). [`Solver`](crate::Solver) runs this search
//! itself for a problem whose
//! [`has_multiplicities`](crate::Problem::has_multiplicities) is true (see
//! its docs for what it then ignores); [`MultiSolver`] is the search alone.
//!
//! # The search
//!
//! A node picks an open primary item `i` with `c` covering options chosen so
//! far, deficit `d = max(v − c, 0)` and `k` options still available. Its
//! branches partition the solutions below it by *the first of `i`'s
//! available options (in a fixed order) that the solution chooses*: branch
//! `j` chooses option `j` and excludes options `1..j`; when `d = 0` a last
//! branch excludes all `k`, closing `i`. When `d > 0` only the first
//! `k − d + 1` options can come first, so the node has `θ = k − d + 1`
//! branches, or `k + 1` when `d = 0`; the item with the smallest `θ` is chosen
//! (ties: first declared), and `θ ≤ 0` is a dead end. Each set of options is
//! therefore reached at most once, and a leaf where no open item has an
//! available option and every deficit is zero is a solution.
//!
//! Choosing an option excludes it and, for each of its items, the options
//! that can no longer join it: all the item's options once a primary item
//! reaches its upper bound; for a secondary item, every other option when
//! the option leaves it uncolored, or those giving it another color (or none)
//! otherwise. Exclusions go on a trail and are undone by popping it.
//!
//! # Costs
//!
//! With an objective ([`CostSolver`]) each item's options are listed, and
//! tried, cheapest first, and once a solution is known every search state
//! that cannot lead to a cheaper one is cut, where the cut is cheapest:
//!
//! - *A node* is cut when the cost so far plus an admissible lower bound
//!   reaches the threshold (the best known cost, or the `k`-th best with
//!   [`CostSolver::best`]): every primary item with deficit `d` is charged
//!   `d` times the smallest *share* `cost(o) / p(o)` over its available
//!   options `o`, where `p(o)` is the number of primary items of `o`. A
//!   chosen option's cost is the sum of its shares over its primary items,
//!   so no completion costs less; the total is rounded up since costs are
//!   integers. Each item also keeps its options sorted by share, so the
//!   smallest is its first available one (the same list when, as in most
//!   problems, cost order is share order), and the bound, the dead-end test
//!   and the choice of the item take one pass over the primary items that
//!   looks at each item's first available option only.
//! - *The rest of a level* is cut as soon as the cost so far plus the next
//!   candidate's cost reaches the threshold: the later candidates cost no
//!   less. A level whose last branch closes its item excludes the skipped
//!   candidates there.
//! - *An item* with a deficit whose cheapest available option already
//!   reaches the threshold makes the node a dead end; one without a deficit
//!   whose options all do is not branched on (nothing can join it below
//!   the threshold), so a solution may leave such options available.
//!
//! Among items with the fewest branches the one whose cheapest option costs
//! most is chosen (that cost must be paid whatever the branch; ties: first
//! declared). The threshold only falls as solutions are found, so every cut
//! stays valid for the rest of the search; the minimum cost and the costs
//! of [`CostSolver::best`] do not depend on the cuts, but the node count and
//! which solution of a cost is found first may.
//!
//! ```
//! // Cover `a` twice and `b` once with options {a}, {a b}, {a}, {b}.
//! let p = exactly::format::parse_dlx("2|a b\na\na b\na\nb\n")?;
//! let mut solver = exactly::multi::MultiSolver::new(&p);
//! assert_eq!(solver.count().solutions, 3);
//! # Ok::<(), exactly::format::ParseError>(())
//! ```

use std::ops::ControlFlow;
use std::time::Duration;

use crate::budget::{Budget, Limits, Outcome, StopReason};
use crate::problem::{ColorId, ItemKind, OptionId, Problem};
use crate::solver::{Count, Progress, Solution, Stats};

/// One level of the search.
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// The item branched on.
    item: u32,
    /// Where the scan for its next candidate resumes in `list`. The
    /// candidates are the item's options that were available when the level
    /// was entered, in list order, and the first `len` of them are tried: the
    /// level keeps this cursor instead of a copy of them, so the memory of
    /// the search stays linear in its depth (a copy per level was quadratic
    /// when one item has many options).
    pos: usize,
    len: usize,
    /// Index of the next candidate to try.
    next: usize,
    /// The option chosen in the branch being explored, if any.
    current: Option<u32>,
    /// Whether the branch that chooses none of the candidates comes last.
    none_allowed: bool,
    /// Whether that branch has been entered.
    none_done: bool,
    /// Trail length when the level was entered.
    base: usize,
    /// Trail length once the candidates tried so far are excluded.
    mark: usize,
}

/// What a visit of a solution tells the search.
pub(crate) enum Visit {
    /// Go on; with `Some(t)`, cut every node whose cost bound reaches `t`.
    Continue(Option<u128>),
    /// Stop the search.
    Stop,
}

type ProgressFn<'p> = Box<dyn FnMut(&Progress) + Send + 'p>;

/// Knuth's estimate of the fraction of the tree explored, from the branch
/// (k of d) taken at each level; the branch that chooses none comes last.
fn fraction(stack: &[Frame]) -> f64 {
    let mut done = 0.0;
    let mut width = 1.0;
    for frame in stack {
        let d = frame.len + usize::from(frame.none_allowed);
        if d == 0 {
            break;
        }
        let k = if frame.none_done {
            frame.len
        } else {
            frame.next.saturating_sub(1)
        };
        width /= d as f64;
        done += k as f64 * width;
    }
    done.clamp(0.0, 1.0)
}

/// The search state shared by [`MultiSolver`] and [`CostSolver`].
pub(crate) struct Search<'p, L> {
    problem: &'p Problem<L>,
    /// Per item: `(option, color)` pairs in `list[item_start[i]..item_start[i + 1]]`.
    item_start: Vec<usize>,
    list: Vec<(u32, ColorId)>,
    /// The primary items.
    primary: Vec<u32>,
    /// Per option: its share, its cost over its number of primary items
    /// (one when it has none).
    share: Vec<f64>,
    /// Per entry of `list`: its option's cost.
    list_cost: Vec<u64>,
    /// Per item, in the same ranges as `list`: its options by increasing
    /// share (ties by index), where the bound looks for the cheapest share;
    /// empty for an item whose list is in that order already.
    by_share: Vec<u32>,
    /// Per item: where its options by share start in `by_share`.
    share_start: Vec<usize>,
    /// Per item: the least number of options that must cover it.
    need: Vec<u32>,
    /// Per item: the most options that may cover it.
    most: Vec<u32>,
    /// Per option: its primary items in `option_primary[option_start[o]..option_start[o + 1]]`
    /// (the counts of secondary items are never read, so not kept).
    option_start: Vec<u32>,
    option_primary: Vec<u32>,
    available: Vec<bool>,
    /// Per primary item: its available options (zero for secondary items).
    available_count: Vec<u32>,
    covered: Vec<u32>,
    trail: Vec<u32>,
    chosen: Vec<OptionId>,
    /// The cost so far: a sum of `u64` costs, one per chosen option, so
    /// exact in 128 bits.
    cost: u128,
    /// Cut nodes whose bound reaches this cost.
    threshold: Option<u128>,
    /// Whether to use the lower bound (else only the cost so far is compared).
    use_bound: bool,
    limits: Limits,
    budget: Budget,
    /// The levels of a search that stopped and may resume.
    stack: Vec<Frame>,
    /// Called with a progress report when the budget's interval is due.
    progress: Option<ProgressFn<'p>>,
    /// Whether a resumed search enters a node first (it stopped before
    /// entering one) rather than advancing the top level.
    enter: bool,
    pub(crate) stats: Stats,
}

impl<'p, L> Search<'p, L> {
    /// Sets up the search; with `by_cost`, each item's options are tried
    /// cheapest first.
    pub(crate) fn new(problem: &'p Problem<L>, by_cost: bool) -> Self {
        let n = problem.num_items();
        let mut per_item: Vec<Vec<(u32, ColorId)>> = vec![Vec::new(); n];
        let mut share = Vec::with_capacity(problem.num_options());
        let mut option_start = Vec::with_capacity(problem.num_options() + 1);
        let mut option_primary = Vec::new();
        option_start.push(0u32);
        for o in problem.option_ids() {
            let mut p = 0u32;
            for e in problem.option(o) {
                per_item[e.item.index()].push((o.0, e.color));
                if problem.item_kind(e.item) == ItemKind::Primary {
                    p += 1;
                    option_primary.push(e.item.0);
                }
            }
            // At most the number of entries, which fits in `u32`.
            option_start.push(option_primary.len() as u32);
            share.push(problem.cost(o) as f64 / f64::from(p.max(1)));
        }
        let mut item_start = Vec::with_capacity(n + 1);
        let mut list = Vec::with_capacity(problem.num_entries());
        let mut by_share = Vec::new();
        let mut share_start = Vec::with_capacity(n + 1);
        item_start.push(0);
        share_start.push(0);
        let by_share_cmp = |a: &u32, b: &u32| {
            share[*a as usize]
                .total_cmp(&share[*b as usize])
                .then(a.cmp(b))
        };
        for mut options in per_item {
            if by_cost {
                options.sort_by_key(|&(o, _)| (problem.cost(OptionId(o)), o));
                let ids: Vec<u32> = options.iter().map(|&(o, _)| o).collect();
                if ids.windows(2).any(|w| by_share_cmp(&w[0], &w[1]).is_gt()) {
                    let start = by_share.len();
                    by_share.extend(ids);
                    by_share[start..].sort_by(by_share_cmp);
                }
            }
            list.extend(options);
            item_start.push(list.len());
            share_start.push(by_share.len());
        }
        let list_cost = list
            .iter()
            .map(|&(o, _)| problem.cost(OptionId(o)))
            .collect();
        let need = problem
            .item_ids()
            .map(|i| problem.item_bounds(i).0)
            .collect();
        let most = problem
            .item_ids()
            .map(|i| problem.item_bounds(i).1)
            .collect();
        let available_count = problem
            .item_ids()
            .map(|i| match problem.item_kind(i) {
                ItemKind::Primary => (item_start[i.index() + 1] - item_start[i.index()]) as u32,
                _ => 0,
            })
            .collect();
        let primary = problem
            .item_ids()
            .filter(|&i| problem.item_kind(i) == ItemKind::Primary)
            .map(|i| i.0)
            .collect();
        Search {
            problem,
            item_start,
            list,
            primary,
            share,
            list_cost,
            by_share,
            share_start,
            need,
            most,
            option_start,
            option_primary,
            available: vec![true; problem.num_options()],
            available_count,
            covered: vec![0; n],
            trail: Vec::new(),
            chosen: Vec::new(),
            cost: 0,
            threshold: None,
            use_bound: true,
            limits: Limits::default(),
            budget: Budget::default(),
            stack: Vec::new(),
            progress: None,
            enter: true,
            stats: Stats::default(),
        }
    }

    pub(crate) fn set_limits(&mut self, limits: Limits) {
        self.budget.set_limits(&limits);
        self.limits = limits;
    }

    pub(crate) fn set_progress(&mut self, interval: Duration, f: ProgressFn<'p>) {
        self.budget.set_progress(interval);
        self.progress = Some(f);
    }

    pub(crate) fn set_bound(&mut self, on: bool) {
        self.use_bound = on;
    }

    fn options_of(&self, item: u32) -> std::ops::Range<usize> {
        self.item_start[item as usize]..self.item_start[item as usize + 1]
    }

    fn primary_of(&self, o: u32) -> std::ops::Range<usize> {
        self.option_start[o as usize] as usize..self.option_start[o as usize + 1] as usize
    }

    fn exclude(&mut self, o: u32) {
        if !self.available[o as usize] {
            return;
        }
        self.available[o as usize] = false;
        for k in self.primary_of(o) {
            self.available_count[self.option_primary[k] as usize] -= 1;
        }
        self.stats.updates += 1;
        self.trail.push(o);
    }

    fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let Some(o) = self.trail.pop() else { break };
            self.available[o as usize] = true;
            for k in self.primary_of(o) {
                self.available_count[self.option_primary[k] as usize] += 1;
            }
        }
    }

    /// Chooses option `o`. Under a threshold `t`, an option that costs at
    /// least `t` minus the new cost so far can never be chosen below (the
    /// cost only grows downward and `t` only falls), so, as in Knuth's DLX5,
    /// only the options cheaper than that are excluded: each item's list is
    /// by cost, and the scan stops at the first that is not.
    fn choose(&mut self, o: u32) {
        let problem = self.problem;
        self.exclude(o);
        self.chosen.push(OptionId(o));
        self.cost += u128::from(problem.cost(OptionId(o)));
        let room = match self.threshold {
            Some(t) => t.saturating_sub(self.cost),
            None => u128::MAX,
        };
        for e in problem.option(OptionId(o)) {
            let i = e.item.index();
            let range = self.options_of(e.item.0);
            if problem.item_kind(e.item) == ItemKind::Primary {
                self.covered[i] += 1;
                if self.covered[i] >= problem.item_bounds(e.item).1 {
                    for k in range {
                        if u128::from(self.list_cost[k]) >= room {
                            break;
                        }
                        self.exclude(self.list[k].0);
                    }
                }
            } else {
                for k in range {
                    if u128::from(self.list_cost[k]) >= room {
                        break;
                    }
                    let (other, color) = self.list[k];
                    if e.color.is_none() || color != e.color {
                        self.exclude(other);
                    }
                }
            }
        }
    }

    fn unchoose(&mut self, o: u32) {
        let problem = self.problem;
        self.chosen.pop();
        self.cost -= u128::from(problem.cost(OptionId(o)));
        for e in problem.option(OptionId(o)) {
            if problem.item_kind(e.item) == ItemKind::Primary {
                self.covered[e.item.index()] -= 1;
            }
        }
    }

    /// Re-derives the counts from the flags and the chosen options, and the
    /// flags from the trail (the `debug-checks` feature runs it after every
    /// backtrack).
    fn check(&self) {
        let problem = self.problem;
        let mut count = vec![0u32; problem.num_items()];
        let mut covered = vec![0u32; problem.num_items()];
        for o in problem.option_ids() {
            let on_trail = self.trail.contains(&o.0);
            assert_eq!(self.available[o.index()], !on_trail, "option {o:?}");
            for e in problem.option(o) {
                if self.available[o.index()] && problem.item_kind(e.item) == ItemKind::Primary {
                    count[e.item.index()] += 1;
                }
            }
        }
        for &o in &self.chosen {
            for e in problem.option(o) {
                if problem.item_kind(e.item) == ItemKind::Primary {
                    covered[e.item.index()] += 1;
                }
            }
        }
        assert_eq!(count, self.available_count);
        assert_eq!(covered, self.covered);
    }

    /// [`choose_item`](Self::choose_item) for a search that cuts at cost
    /// `t`, in the same one pass over the primary items: `Err(())` also
    /// when the cost so far plus the lower bound reaches `t`, or an item
    /// short of options has none that fits below `t`; an item with no
    /// deficit whose options all reach `t` is left alone; ties go to the
    /// item whose cheapest option costs most (see the module docs).
    fn choose_item_below(&self, t: u128) -> Result<Option<(u32, u32, bool)>, ()> {
        let Some(room) = t.checked_sub(self.cost).filter(|&r| r > 0) else {
            return Err(());
        };
        let mut best: Option<(u32, u32, bool)> = None;
        let mut best_theta = u32::MAX;
        let mut best_cheapest = 0u64;
        let mut sum = 0.0f64;
        let mut terms = 0u32;
        for &i in &self.primary {
            let k = self.available_count[i as usize];
            let d = self.need[i as usize].saturating_sub(self.covered[i as usize]);
            if k < d {
                return Err(());
            }
            // An item at its upper bound has had every option that fits
            // below `t` excluded (see `choose`).
            if k == 0 || self.covered[i as usize] >= self.most[i as usize] {
                continue;
            }
            // The item's cheapest available option comes first in its list.
            let range = self.options_of(i);
            let Some((&(first, _), &cheapest)) = self.list[range.clone()]
                .iter()
                .zip(&self.list_cost[range])
                .find(|(&(o, _), _)| self.available[o as usize])
            else {
                continue;
            };
            if u128::from(cheapest) >= room {
                if d > 0 {
                    return Err(());
                }
                // Nothing more can join the item below `t`: leave it be.
                continue;
            }
            if d > 0 && self.use_bound {
                // The item's list is by share already when `shares` is empty.
                let shares =
                    &self.by_share[self.share_start[i as usize]..self.share_start[i as usize + 1]];
                let o = shares
                    .iter()
                    .copied()
                    .find(|&o| self.available[o as usize])
                    .unwrap_or(first);
                sum += f64::from(d) * self.share[o as usize];
                terms += 1;
            }
            let theta = k + 1 - d;
            if theta < best_theta || (theta == best_theta && cheapest > best_cheapest) {
                best_theta = theta;
                best_cheapest = cheapest;
                best = Some((i, if d > 0 { theta } else { k }, d == 0));
            }
        }
        if terms > 0 {
            // Round up, after a margin for rounding errors that keeps it a
            // bound: each term carries at most four roundings (the cost's
            // conversion, the division, the product, the addition), each a
            // relative error of at most `EPSILON / 2` of the sum.
            let margin = sum * f64::EPSILON * (2.0 * f64::from(terms) + 4.0) + 1e-9;
            // A float past `u128::MAX` cannot arise from `u64` costs; `as`
            // saturates anyway.
            let bound = (sum - margin).max(0.0).ceil() as u128;
            if bound >= room {
                return Err(());
            }
        }
        Ok(best)
    }

    /// The item to branch on, `Ok(None)` at a solution, `Err(())` at a dead end.
    fn choose_item(&self) -> Result<Option<(u32, u32, bool)>, ()> {
        let problem = self.problem;
        let mut best: Option<(u32, u32, bool)> = None;
        let mut best_theta = u32::MAX;
        for &i in &self.primary {
            let k = self.available_count[i as usize];
            let (min, _) = problem.item_bounds(crate::ItemId(i));
            let d = min.saturating_sub(self.covered[i as usize]);
            if k < d {
                return Err(());
            }
            if k == 0 {
                continue;
            }
            let theta = if d > 0 { k - d + 1 } else { k + 1 };
            if theta < best_theta {
                best_theta = theta;
                best = Some((i, if d > 0 { k - d + 1 } else { k }, d == 0));
            }
        }
        Ok(best)
    }

    fn over_budget(&mut self, stack: &[Frame]) -> Option<StopReason> {
        if self.budget.out_of_nodes(self.stats.nodes) {
            return Some(StopReason::NodeLimit);
        }
        if Budget::is_due(self.stats.nodes) {
            match self.budget.poll(self.stats.nodes) {
                Err(reason) => return Some(reason),
                Ok(Some(elapsed)) => {
                    if let Some(report) = self.progress.as_mut() {
                        report(&Progress {
                            nodes: self.stats.nodes,
                            solutions: self.stats.solutions,
                            fraction: fraction(stack),
                            depth: stack.len() as u32,
                            elapsed,
                        });
                    }
                }
                Ok(None) => {}
            }
        }
        None
    }

    /// Runs the whole search from the root, its clock from zero, calling
    /// `visit` with each solution and its cost.
    pub(crate) fn run(&mut self, visit: impl FnMut(&[OptionId], u128) -> Visit) -> Outcome {
        self.stack.clear();
        self.enter = true;
        self.budget.restart();
        self.resume(visit)
    }

    /// Goes on with the search where the last call stopped (after the
    /// solution it visited last, or before the node it did not enter), its
    /// clock too; a search that ran to the end stays complete.
    pub(crate) fn resume(&mut self, mut visit: impl FnMut(&[OptionId], u128) -> Visit) -> Outcome {
        self.budget.start();
        let before = self.budget.elapsed();
        let mut stack = std::mem::take(&mut self.stack);
        let enter = std::mem::replace(&mut self.enter, false);
        let outcome = self.run_inner(&mut stack, enter, &mut visit);
        self.stack = stack;
        self.stats.elapsed += self.budget.elapsed() - before;
        outcome
    }

    fn run_inner(
        &mut self,
        stack: &mut Vec<Frame>,
        mut enter: bool,
        visit: &mut impl FnMut(&[OptionId], u128) -> Visit,
    ) -> Outcome {
        loop {
            if enter {
                enter = false;
                if let Some(reason) = self.over_budget(stack) {
                    self.enter = true;
                    return Outcome::Stopped(reason);
                }
                self.stats.nodes += 1;
                self.stats.max_depth = self.stats.max_depth.max(self.chosen.len() as u32);
                let choice = match self.threshold {
                    Some(t) => self.choose_item_below(t),
                    None => self.choose_item(),
                };
                match choice {
                    Err(()) => {}
                    Ok(None) => {
                        self.stats.solutions += 1;
                        match visit(&self.chosen, self.cost) {
                            Visit::Stop => return Outcome::Stopped(StopReason::Caller),
                            Visit::Continue(t) => {
                                if t.is_some() {
                                    self.threshold = t;
                                }
                            }
                        }
                        if self
                            .limits
                            .solutions
                            .is_some_and(|n| self.stats.solutions >= n)
                        {
                            return Outcome::Stopped(StopReason::SolutionLimit);
                        }
                    }
                    Ok(Some((item, tries, none_allowed))) => {
                        // Below a level on the same item, every option
                        // before that level's cursor is excluded: start
                        // there (`k|a` with k copies of `a` is then
                        // linear, not quadratic, in k).
                        let pos = match stack.last() {
                            Some(parent) if parent.item == item => parent.pos,
                            _ => self.options_of(item).start,
                        };
                        stack.push(Frame {
                            item,
                            pos,
                            len: tries as usize,
                            next: 0,
                            current: None,
                            none_allowed,
                            none_done: false,
                            base: self.trail.len(),
                            mark: self.trail.len(),
                        });
                    }
                }
            }
            // Advance the top level to its next branch, backing up as needed.
            let Some(frame) = stack.last_mut() else {
                return Outcome::Complete;
            };
            let mut frame = *frame;
            if let Some(o) = frame.current.take() {
                self.unchoose(o);
                self.undo(frame.mark);
                self.exclude(o);
                frame.mark = self.trail.len();
            }
            // Undoing to `mark` restored every option the level saw available
            // except the candidates tried, which are excluded and behind `pos`.
            let mut candidate = None;
            let end = self.options_of(frame.item).end;
            if frame.next < frame.len {
                while frame.pos < end && !self.available[self.list[frame.pos].0 as usize] {
                    frame.pos += 1;
                }
                if frame.pos < end {
                    let o = self.list[frame.pos].0;
                    // Options come cheapest first in a cost search: once one
                    // reaches the threshold, so do the rest.
                    let cost = u128::from(self.problem.cost(OptionId(o)));
                    if self.threshold.is_none_or(|t| self.cost + cost < t) {
                        candidate = Some(o);
                        frame.pos += 1;
                    }
                }
            }
            if let Some(o) = candidate {
                frame.next += 1;
                frame.current = Some(o);
                self.choose(o);
                enter = true;
            } else if frame.none_allowed && !frame.none_done {
                // Close item `frame.item`: the candidates tried are excluded
                // by now, and the options a cut skipped are excluded here.
                for pos in frame.pos..end {
                    self.exclude(self.list[pos].0);
                }
                debug_assert_eq!(self.available_count[frame.item as usize], 0);
                frame.none_done = true;
                enter = true;
            } else {
                self.undo(frame.base);
                stack.pop();
                if cfg!(feature = "debug-checks") {
                    self.check();
                }
                continue;
            }
            if let Some(top) = stack.last_mut() {
                *top = frame;
            }
        }
    }
}

/// Searches problems with multiplicities (and secondary items and colors):
/// every primary item is covered within its bounds. Each solution is a set
/// of distinct options, found once.
///
/// ```
/// use std::ops::ControlFlow;
/// // `a` once or twice, `b` exactly once.
/// let p = exactly::format::parse_dlx("1:2|a b\na\na b\nb\n")?;
/// let mut found = Vec::new();
/// let outcome = exactly::multi::MultiSolver::new(&p).for_each(|s| {
///     found.push(s.sorted());
///     ControlFlow::Continue(())
/// });
/// assert!(outcome.is_complete());
/// assert_eq!(found.len(), 3); // {a b}, {a, b}, {a, a b}
/// # Ok::<(), exactly::format::ParseError>(())
/// ```
pub struct MultiSolver<'p, L = String> {
    search: Search<'p, L>,
}

impl<'p, L> MultiSolver<'p, L> {
    /// A solver for `problem` (bounds `(1, 1)` everywhere give exact covers).
    pub fn new(problem: &'p Problem<L>) -> Self {
        MultiSolver {
            search: Search::new(problem, false),
        }
    }

    /// Sets budgets (nodes, time, solutions, cancel flag).
    pub fn limits(mut self, limits: Limits) -> Self {
        self.search.set_limits(limits);
        self
    }

    /// Calls `f` about every `interval` while a search runs (checked every
    /// few thousand nodes), as [`Solver::on_progress`](crate::Solver::on_progress) does.
    pub fn on_progress(mut self, interval: Duration, f: impl FnMut(&Progress) + Send + 'p) -> Self {
        self.search.set_progress(interval, Box::new(f));
        self
    }

    /// Work done so far.
    pub fn stats(&self) -> &Stats {
        &self.search.stats
    }

    /// Counts the solutions.
    ///
    /// ```
    /// let p = exactly::format::parse_dlx("0:1|a\na\n")?;
    /// assert_eq!(exactly::multi::MultiSolver::new(&p).count().solutions, 2);
    /// # Ok::<(), exactly::format::ParseError>(())
    /// ```
    pub fn count(&mut self) -> Count {
        let mut solutions = 0u128;
        let outcome = self.search.run(|_, _| {
            solutions += 1;
            Visit::Continue(None)
        });
        Count { solutions, outcome }
    }

    /// Visits every solution until `visit` breaks or a budget runs out.
    pub fn for_each(&mut self, mut visit: impl FnMut(&Solution) -> ControlFlow<()>) -> Outcome {
        self.search
            .run(|options, _| match visit(&Solution::new(options.to_vec())) {
                ControlFlow::Continue(()) => Visit::Continue(None),
                ControlFlow::Break(()) => Visit::Stop,
            })
    }

    /// The first solution, `Ok(None)` when there is none, or why the search
    /// stopped before deciding.
    ///
    /// ```
    /// let p = exactly::format::parse_dlx("2|a\na\n")?;
    /// assert_eq!(exactly::multi::MultiSolver::new(&p).first(), Ok(None));
    /// # Ok::<(), exactly::format::ParseError>(())
    /// ```
    pub fn first(&mut self) -> Result<Option<Solution>, StopReason> {
        let mut found = None;
        let outcome = self.search.run(|options, _| {
            found = Some(Solution::new(options.to_vec()));
            Visit::Stop
        });
        match (found, outcome) {
            (Some(s), _) => Ok(Some(s)),
            (None, Outcome::Complete) => Ok(None),
            (None, Outcome::Stopped(reason)) => Err(reason),
        }
    }
}

/// A solution together with its cost (the sum of its options' costs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CostedSolution {
    /// The total cost, summed in 128 bits so that no sum of `u64` costs
    /// overflows.
    pub cost: u128,
    /// The chosen options.
    pub solution: Solution,
}

/// Finds cheapest solutions by branch-and-bound (Knuth's DLX5 objective):
/// the minimum of the sum of the chosen options' costs, over all solutions
/// (multiplicities, secondary items and colors included).
///
/// ```
/// let p = exactly::format::parse_dlx("a b\na b |5\na |1\nb |3\n")?;
/// let mut solver = exactly::multi::CostSolver::new(&p);
/// let (best, outcome) = solver.best(1);
/// assert!(outcome.is_complete());
/// assert_eq!(best[0].cost, 4);
/// # Ok::<(), exactly::format::ParseError>(())
/// ```
pub struct CostSolver<'p, L = String> {
    search: Search<'p, L>,
}

impl<'p, L> CostSolver<'p, L> {
    /// A solver for `problem`, options tried cheapest first, with the bound on.
    pub fn new(problem: &'p Problem<L>) -> Self {
        CostSolver {
            search: Search::new(problem, true),
        }
    }

    /// Sets budgets (nodes, time, cancel flag; a solution budget is ignored).
    pub fn limits(mut self, mut limits: Limits) -> Self {
        limits.solutions = None;
        self.search.set_limits(limits);
        self
    }

    /// Calls `f` about every `interval` while a search runs (checked every
    /// few thousand nodes); `solutions` counts every solution reached,
    /// cheaper or not than the best so far.
    pub fn on_progress(mut self, interval: Duration, f: impl FnMut(&Progress) + Send + 'p) -> Self {
        self.search.set_progress(interval, Box::new(f));
        self
    }

    /// Turns the lower bound off (nodes are cut only when the cost so far
    /// reaches the best known): for measuring what the bound saves.
    ///
    /// ```
    /// let p = exactly::format::parse_dlx("a b\na |2\nb |2\na b |3\n")?;
    /// let mut with = exactly::multi::CostSolver::new(&p);
    /// let mut without = exactly::multi::CostSolver::new(&p).bound(false);
    /// assert_eq!(with.best(1).0, without.best(1).0);
    /// # Ok::<(), exactly::format::ParseError>(())
    /// ```
    pub fn bound(mut self, on: bool) -> Self {
        self.search.set_bound(on);
        self
    }

    /// Work done so far.
    pub fn stats(&self) -> &Stats {
        &self.search.stats
    }

    /// The `k` cheapest distinct solution costs, cheapest first, with one
    /// solution each (the first found of that cost). When the outcome is not
    /// complete the list holds the best found before the budget ran out.
    pub fn best(&mut self, k: usize) -> (Vec<CostedSolution>, Outcome) {
        self.best_with(k, |_| {})
    }

    /// As [`CostSolver::best`], calling `improved` with the list, cheapest
    /// first, each time a solution enters it: what a search that is stopped
    /// from outside (a worker ended, a process killed) has found by then.
    ///
    /// ```
    /// let p = exactly::format::parse_dlx("a\na |5\na |2\na |7\n")?;
    /// let mut seen = Vec::new();
    /// let (best, _) = exactly::multi::CostSolver::new(&p)
    ///     .best_with(2, |list| seen.push(list.iter().map(|b| b.cost).collect::<Vec<_>>()));
    /// assert_eq!(best.iter().map(|b| b.cost).collect::<Vec<_>>(), [2, 5]);
    /// assert_eq!(seen.last(), Some(&vec![2, 5]));
    /// # Ok::<(), exactly::format::ParseError>(())
    /// ```
    pub fn best_with(
        &mut self,
        k: usize,
        mut improved: impl FnMut(&[CostedSolution]),
    ) -> (Vec<CostedSolution>, Outcome) {
        let mut best: Vec<CostedSolution> = Vec::new();
        if k == 0 {
            return (best, Outcome::Complete);
        }
        let outcome = self.search.run(|options, cost| {
            if !best.iter().any(|b| b.cost == cost) {
                let at = best.partition_point(|b| b.cost < cost);
                best.insert(
                    at,
                    CostedSolution {
                        cost,
                        solution: Solution::new(options.to_vec()),
                    },
                );
                best.truncate(k);
                if at < k {
                    improved(&best);
                }
            }
            let threshold = (best.len() == k).then(|| best[k - 1].cost);
            Visit::Continue(threshold)
        });
        (best, outcome)
    }

    /// A cheapest solution, or `None` when there is none.
    ///
    /// ```
    /// let p = exactly::format::parse_dlx("a\na |7\n")?;
    /// let best = exactly::multi::CostSolver::new(&p).min_cost().0.unwrap();
    /// assert_eq!(best.cost, 7);
    /// # Ok::<(), exactly::format::ParseError>(())
    /// ```
    pub fn min_cost(&mut self) -> (Option<CostedSolution>, Outcome) {
        let (mut best, outcome) = self.best(1);
        (best.pop(), outcome)
    }
}
