//! The public searches: [`MultiSolver`] (Algorithm M) and [`CostSolver`]
//! (the cost branch-and-bound), both driving the one search of the parent
//! module.

use super::*;

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
    pub(super) search: Search<'p, L>,
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

    /// A solver for the same problem, copied from this one (see
    /// [`Search::twin`]); `self` has not searched yet.
    pub(crate) fn twin(&self) -> Self {
        MultiSolver {
            search: self.search.twin(),
        }
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

    /// Counts the solutions of a smaller problem made from this one
    /// within `limits` (see [`Search::start_within`]), with the nodes and
    /// updates of a solver built on that problem: a worker's one solver
    /// serves every subproblem it takes.
    pub(crate) fn count_within(
        &mut self,
        bounds: &[(u32, u32)],
        gone: &[bool],
        alive: &[bool],
        limits: Limits,
    ) -> Count {
        self.search.start_within(bounds, gone, alive);
        self.search.set_limits(limits);
        self.count()
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

    /// Turns the lower bounds off, and the exclusions they allow (nodes are
    /// cut only when the cost so far plus an item's cheapest option reaches
    /// the best known): for measuring what the bounds save.
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
