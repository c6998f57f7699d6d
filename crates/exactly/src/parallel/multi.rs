//! Counting problems with multiplicities on many threads.
//!
//! Algorithm M's search has no prefixes to replay, so such a problem is
//! split at the level of the problem instead. Take a primary item `i`
//! with bounds `u:v` whose options are `o_1, …, o_n` (in option order).
//! Every solution uses between `u` and `v` of them, so it lies in exactly
//! one of these subproblems: "`o_k` is the first of `i`'s options used"
//! (`o_k` chosen, `o_1 … o_{k-1}` removed), for each `k`, and, when
//! `u = 0`, "none of `i`'s options is used". Each subproblem is a smaller
//! problem of the same items and options (some options gone, some items
//! out, the others' bounds lowered), split again in the same way, a few
//! levels deep, and the subproblems are counted on a [`Pool`]. Each worker
//! builds one Algorithm M solver on the whole problem and starts it from
//! each subproblem it takes, with the options that are gone unavailable
//! (building a problem and a solver for each of its 413 subproblems took
//! `count --threads 16` on motley-5x26 from 1.07 s of processor time, one
//! thread's, to 1.58 s; now 1.18 s). A problem
//! without multiplicities gets a [`Problem`] of its own per subproblem and
//! the one-thread [`Solver`]. Counts never depend on the number of threads.
//!
//! The split walks Algorithm M's own tree: it branches on the item M
//! chooses, with M's branches (an item that needs `u` more options starts
//! with one of its first `n - u + 1`), and counts M's nodes and updates
//! above the cut (an update per option made unavailable, and one for the
//! last option tried at a level without a "none" branch), while the
//! subproblems run Algorithm M too ([`MultiSolver`]) where the problem had
//! multiplicities. So a count on many threads reports the nodes and
//! updates of a count on one.

use crate::multi::MultiSolver;
use crate::problem::{ColorId, ItemId, ItemKind, OptionId, Problem, ProblemBuilder};
use crate::solver::{Count, Limits, Outcome, Solver, StopReason};

use super::{Item, ParallelCount, Pool, MAX_THREADS, SUBPROBLEMS_PER_THREAD};

/// The most levels of branching the split goes through (levels with one
/// branch only are free).
const MAX_LEVELS: usize = 3;

/// One decision on the way from the problem to a subproblem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// `option` is the first option of `item` that the solutions use.
    First { item: ItemId, option: OptionId },
    /// No option of `item` is used (its lower bound is 0).
    Without { item: ItemId },
}

/// The options of each item, in option order.
struct Index {
    by_item: Vec<Vec<OptionId>>,
}

impl Index {
    fn new<L>(problem: &Problem<L>) -> Index {
        let mut by_item: Vec<Vec<OptionId>> = problem
            .item_ids()
            .map(|i| Vec::with_capacity(problem.item_len(i)))
            .collect();
        for o in problem.option_ids() {
            for e in problem.option(o) {
                by_item[e.item.index()].push(o);
            }
        }
        Index { by_item }
    }
}

/// A subproblem: what is left of the problem after some steps.
struct State {
    /// Bounds left of each primary item.
    bounds: Vec<(u32, u32)>,
    /// Primary items whose upper bound is spent (or that were left out):
    /// they are no longer part of the problem.
    gone: Vec<bool>,
    /// Options still available.
    alive: Vec<bool>,
    /// Options made unavailable since the count was last cleared: Algorithm
    /// M's updates for the same steps (one per option it excludes).
    killed: u64,
}

/// What a subproblem's next step is.
enum Next {
    /// No solution.
    Dead,
    /// Exactly one solution: nothing more is needed and nothing is left.
    Solved,
    /// Branch on this item: its options left, and whether "none of them"
    /// is a branch too.
    Branch {
        item: ItemId,
        options: Vec<OptionId>,
        without: bool,
    },
}

impl State {
    fn new<L>(problem: &Problem<L>) -> State {
        State {
            bounds: problem.item_ids().map(|i| problem.item_bounds(i)).collect(),
            gone: vec![false; problem.num_items()],
            alive: vec![true; problem.num_options()],
            killed: 0,
        }
    }

    /// The state after `steps`, from the whole problem, with `killed` the
    /// options the last step made unavailable (the earlier steps are
    /// counted where their own node was).
    fn replay<L>(problem: &Problem<L>, index: &Index, steps: &[Step]) -> State {
        let mut state = State::new(problem);
        for &step in steps {
            state.killed = 0;
            state.apply(problem, index, step);
        }
        state
    }

    /// Makes option `o` unavailable.
    fn kill(&mut self, o: OptionId) {
        self.killed += u64::from(self.alive[o.index()]);
        self.alive[o.index()] = false;
    }

    /// Makes the options a level tried before this branch unavailable.
    /// Algorithm M excludes them one at a time, each as it moves on to the
    /// next branch, so only the last is this branch's update.
    fn kill_tried(&mut self, tried: impl Iterator<Item = OptionId>) {
        let before = self.killed;
        for o in tried {
            self.kill(o);
        }
        self.killed = before + (self.killed - before).min(1);
    }

    fn kill_item(&mut self, index: &Index, item: ItemId) {
        for &o in &index.by_item[item.index()] {
            self.kill(o);
        }
    }

    fn apply<L>(&mut self, problem: &Problem<L>, index: &Index, step: Step) {
        match step {
            Step::Without { item } => {
                self.kill_tried(index.by_item[item.index()].iter().copied());
                self.gone[item.index()] = true;
            }
            Step::First { item, option } => {
                let before = index.by_item[item.index()].iter().copied();
                self.kill_tried(before.take_while(|&o| o < option));
                self.force(problem, index, option);
            }
        }
    }

    /// Chooses `option`: its primary items have one use fewer left, its
    /// secondary items are taken (uncolored) or fixed to its color.
    fn force<L>(&mut self, problem: &Problem<L>, index: &Index, option: OptionId) {
        self.kill(option);
        for e in problem.option(option) {
            let x = e.item.index();
            match problem.item_kind(e.item) {
                ItemKind::Primary => {
                    let (u, v) = self.bounds[x];
                    self.bounds[x] = (u.saturating_sub(1), v.saturating_sub(1));
                    if v <= 1 {
                        self.gone[x] = true;
                        self.kill_item(index, e.item);
                    }
                }
                ItemKind::Secondary if e.color.is_none() => self.kill_item(index, e.item),
                ItemKind::Secondary => {
                    for &o in &index.by_item[x] {
                        if self.alive[o.index()] && color_of(problem, o, e.item) != e.color {
                            self.kill(o);
                        }
                    }
                }
            }
        }
    }

    /// The next step: the primary item with the fewest branches (the
    /// first such), or the end of this subproblem.
    fn next<L>(&self, problem: &Problem<L>, index: &Index) -> Next {
        let mut best: Option<(usize, ItemId, bool)> = None;
        for item in problem.item_ids() {
            let x = item.index();
            if problem.item_kind(item) != ItemKind::Primary || self.gone[x] {
                continue;
            }
            let left = index.by_item[x]
                .iter()
                .filter(|o| self.alive[o.index()])
                .count();
            let u = self.bounds[x].0 as usize;
            if left < u {
                return Next::Dead;
            }
            if left == 0 {
                continue;
            }
            // Algorithm M's rule: an item that needs `u` more options can
            // start with one of its first `left - u + 1` only (later ones
            // leave too few), plus "none" when it needs none.
            let without = u == 0;
            let branches = if without { left + 1 } else { left - u + 1 };
            if best.is_none_or(|(b, _, _)| branches < b) {
                best = Some((branches, item, without));
            }
        }
        match best {
            None => Next::Solved,
            Some((branches, item, without)) => Next::Branch {
                item,
                options: index.by_item[item.index()]
                    .iter()
                    .copied()
                    .filter(|o| self.alive[o.index()])
                    .take(branches - usize::from(without))
                    .collect(),
                without,
            },
        }
    }

    /// The subproblem as a problem of its own (labels dropped).
    fn build<L>(&self, problem: &Problem<L>) -> Result<Problem<()>, crate::BuildError> {
        let mut b = ProblemBuilder::<()>::new();
        let mut ids = vec![None; problem.num_items()];
        for item in problem.item_ids() {
            let x = item.index();
            let name = problem.item_name(item);
            ids[x] = match problem.item_kind(item) {
                ItemKind::Primary if self.gone[x] => None,
                ItemKind::Primary => {
                    let (u, v) = self.bounds[x];
                    Some(b.primary_with_bounds(name, u, v)?)
                }
                ItemKind::Secondary => Some(b.secondary(name)?),
            };
        }
        let mut colors = vec![None; problem.num_colors() + 1];
        let mut entries = Vec::with_capacity(problem.longest_option());
        for o in problem.option_ids() {
            if !self.alive[o.index()] {
                continue;
            }
            entries.clear();
            for e in problem.option(o) {
                // An option with an item that is gone is not alive.
                let Some(item) = ids[e.item.index()] else {
                    continue;
                };
                let color = match e.color.is_none() {
                    true => ColorId::NONE,
                    false => match colors[e.color.0 as usize] {
                        Some(c) => c,
                        None => {
                            let c = b.color(problem.color_name(e.color))?;
                            colors[e.color.0 as usize] = Some(c);
                            c
                        }
                    },
                };
                entries.push((item, color));
            }
            b.add_option((), entries.iter().copied())?;
        }
        b.build()
    }
}

/// The color `option` gives `item` (which it holds).
fn color_of<L>(problem: &Problem<L>, option: OptionId, item: ItemId) -> ColorId {
    problem
        .option(option)
        .iter()
        .find(|e| e.item == item)
        .map_or(ColorId::NONE, |e| e.color)
}

/// The cut: subproblems (as steps from the root) and what lies above.
struct Cut {
    subproblems: Vec<Vec<Step>>,
    solutions: u128,
    nodes: u64,
    /// Algorithm M's updates above the cut.
    updates: u64,
    depth: usize,
}

/// Splits level by level until there are at least `min` subproblems, no
/// subproblem is left to split, or [`MAX_LEVELS`] levels are done.
fn split<L>(problem: &Problem<L>, index: &Index, min: usize) -> Cut {
    let mut cut = Cut {
        subproblems: vec![Vec::new()],
        solutions: 0,
        nodes: 0,
        updates: 0,
        depth: 0,
    };
    for _ in 0..MAX_LEVELS {
        if cut.subproblems.len() >= min || cut.subproblems.is_empty() {
            break;
        }
        let mut next = Vec::new();
        let mut deepest = 0;
        for steps in std::mem::take(&mut cut.subproblems) {
            cut.nodes += 1;
            let mut steps = steps;
            let mut state = State::replay(problem, index, &steps);
            // Steps with one branch only are taken at once.
            let (item, options, without) = loop {
                match state.next(problem, index) {
                    Next::Dead => break (None, Vec::new(), false),
                    Next::Solved => {
                        cut.solutions += 1;
                        break (None, Vec::new(), false);
                    }
                    Next::Branch {
                        item,
                        options,
                        without,
                    } if options.len() + usize::from(without) == 1 => {
                        let step = match options.first() {
                            Some(&option) => Step::First { item, option },
                            None => Step::Without { item },
                        };
                        state.apply(problem, index, step);
                        // Algorithm M excludes the option it tried last
                        // before it leaves a level without a "none" branch,
                        // and counts the node the step leads to.
                        state.killed += u64::from(!without);
                        cut.nodes += 1;
                        steps.push(step);
                    }
                    Next::Branch {
                        item,
                        options,
                        without,
                    } => break (Some(item), options, without),
                }
            };
            // The step that led here, those taken at once, and the last
            // option's exclusion when the branches end with it.
            cut.updates += state.killed + u64::from(!without && !options.is_empty());
            let Some(item) = item else { continue };
            deepest = deepest.max(steps.len() + 1);
            for option in options {
                let mut child = steps.clone();
                child.push(Step::First { item, option });
                next.push(child);
            }
            if without {
                let mut child = steps;
                child.push(Step::Without { item });
                next.push(child);
            }
        }
        cut.subproblems = next;
        cut.depth = cut.depth.max(deepest);
    }
    cut
}

/// What one subproblem gave.
#[derive(Clone, Copy, Debug, Default)]
struct Counted {
    solutions: u128,
    nodes: u64,
    updates: u64,
    max_depth: u32,
}

/// Counts all solutions of a problem with multiplicities (or any problem)
/// on `threads` threads (at most [`MAX_THREADS`]): splits it into about
/// [`SUBPROBLEMS_PER_THREAD`] subproblems per thread, each a smaller
/// problem (see the [module docs](self)), and counts them on a [`Pool`]
/// with Algorithm M ([`MultiSolver`]), or [`Solver`] where the problem
/// has no multiplicities. `limits` are the
/// budgets of the whole count ([`Pool::limits`]); `on_done(index,
/// solutions, nodes)` is called, from the worker threads, as each
/// subproblem finishes, and `on_split(subproblems)` once the split is made.
///
/// ```
/// use exactly::{Limits, Outcome};
/// // Two of the three options cover `a`, and `b` once.
/// let p = exactly::format::parse_dlx("2|a b\na b\na\na\n")?;
/// let c = exactly::parallel::count_multi(&p, 2, &Limits::default(), &|_| {}, &|_, _, _| {});
/// assert_eq!((c.solutions, c.outcome), (2, Outcome::Complete));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn count_multi<L: Sync>(
    problem: &Problem<L>,
    threads: usize,
    limits: &Limits,
    on_split: &dyn Fn(usize),
    on_done: &(dyn Fn(usize, u128, u64) + Sync),
) -> ParallelCount {
    let threads = threads.clamp(1, MAX_THREADS);
    let index = Index::new(problem);
    let algorithm_m = problem.has_multiplicities();
    let cut = split(problem, &index, SUBPROBLEMS_PER_THREAD * threads);
    on_split(cut.subproblems.len());
    let items: Vec<usize> = (0..cut.subproblems.len()).collect();
    // One Algorithm M solver built on the whole problem, never run: each
    // worker takes a copy of it (the first worker to need it builds it).
    let built: std::sync::Mutex<Option<MultiSolver<'_, L>>> = std::sync::Mutex::new(None);
    let run = Pool::new(threads).limits(limits).run(
        &items,
        // Each worker's Algorithm M solver, started from each subproblem
        // in turn.
        || None,
        |whole: &mut Option<MultiSolver<'_, L>>, i, control| {
            let state = State::replay(problem, &index, &cut.subproblems[i]);
            // The updates of the step into the subproblem, made above it.
            let entry = state.killed;
            let solutions = match state.next(problem, &index) {
                Next::Dead => Some(0),
                Next::Solved => Some(1),
                Next::Branch { .. } => None,
            };
            if let Some(solutions) = solutions {
                return Ok(Item {
                    value: Counted {
                        solutions,
                        nodes: 1,
                        updates: entry,
                        ..Counted::default()
                    },
                    nodes: 1,
                    outcome: Outcome::Complete,
                });
            }
            // Algorithm M throughout, as on one thread, also where a
            // subproblem has no multiplicities left.
            let (Count { solutions, outcome }, stats) = if algorithm_m {
                let solver = whole.get_or_insert_with(|| {
                    let mut built = built.lock().unwrap_or_else(|e| e.into_inner());
                    built
                        .get_or_insert_with(|| MultiSolver::new(problem))
                        .twin()
                });
                let count =
                    solver.count_within(&state.bounds, &state.gone, &state.alive, control.limits());
                (count, *solver.stats())
            } else {
                let sub = state.build(problem)?;
                let mut solver = Solver::new(&sub).limits(control.limits());
                (solver.count(), *solver.stats())
            };
            Ok::<_, crate::BuildError>(Item {
                value: Counted {
                    solutions,
                    nodes: stats.nodes,
                    updates: entry + stats.updates,
                    max_depth: stats.max_depth,
                },
                nodes: stats.nodes,
                outcome,
            })
        },
        |i, c| on_done(i, c.solutions, c.nodes),
    );
    let depth = cut.depth as u32;
    let mut counted = ParallelCount {
        solutions: cut.solutions,
        nodes: cut.nodes,
        updates: cut.updates,
        max_depth: depth,
        outcome: Outcome::Complete,
        done: vec![None; cut.subproblems.len()],
    };
    let run = match run {
        Ok(run) => run,
        // A subproblem's problem did not build: its items and options come
        // from a problem that did, so this is not expected; the count is
        // then incomplete.
        Err(_) => {
            counted.outcome = Outcome::Stopped(StopReason::Caller);
            return counted;
        }
    };
    counted.outcome = run.outcome;
    for (i, item) in &run.items {
        let c = item.value;
        counted.solutions += c.solutions;
        counted.nodes += c.nodes;
        counted.updates += c.updates;
        counted.max_depth = counted.max_depth.max(depth + c.max_depth);
        if item.outcome == Outcome::Complete {
            counted.done[*i] = Some(c.solutions);
        }
    }
    counted
}
