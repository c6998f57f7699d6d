//! Minimum set cover by IDA* on dancing links: choose the fewest options (or,
//! weighted, the cheapest by option cost) so that every primary item is
//! covered *at least* once. Secondary items and colors play no part here.
//!
//! # The structure
//!
//! One node array, as in Algorithm X: node 0 the root, `1..=n` the headers of
//! the primary items (linked in a circular list while uncovered), then each
//! option's primary entries in a circular row list, each node also in its
//! item's vertical list. Unlike exact cover, choosing an option removes
//! nothing but the items it covers: each covered item's header leaves the
//! header list, and its nodes leave their rows, so a row lists only the
//! still-uncovered items of its option. Undoing puts them back in reverse.
//!
//! # The estimate
//!
//! Repeatedly take an uncovered item, count it, and mark every item of every
//! option containing it as covered. The items counted pairwise share no
//! option, so any cover needs a distinct option for each: the count is a
//! lower bound on the options still needed. Weighted, each counted item is
//! charged the cheapest option containing it, which stays a lower bound for
//! the same reason.
//!
//! # The search
//!
//! IDA*: depth-first search on the uncovered item with the fewest options,
//! cutting every node whose cost so far plus estimate exceeds a limit; the
//! limit starts at the root's estimate and grows to the smallest value that
//! was cut, so the first cover found is optimal.
//!
//! ```
//! use exactly::mincover::MinCover;
//! let p = exactly::format::parse_dlx("a b c d\na b\nc\nd\nb c d\na\n")?;
//! let (cover, outcome) = MinCover::new(&p).solve();
//! assert!(outcome.is_complete());
//! assert_eq!(cover.unwrap().options.len(), 2);
//! # Ok::<(), exactly::format::ParseError>(())
//! ```

use crate::budget::{Budget, Limits, Outcome, StopReason};
use crate::problem::{ItemKind, OptionId, Problem};
use crate::solver::Stats;

/// A cover: the chosen options and their total cost (their number when
/// unweighted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cover {
    /// The number of options, or the sum of their costs when weighted
    /// (summed in 128 bits, so no sum of `u64` costs can overflow).
    pub cost: u128,
    /// The chosen options, in the order the search chose them.
    pub options: Vec<OptionId>,
}

/// The minimum-cover search (see the module docs).
pub struct MinCover<'p, L = String> {
    problem: &'p Problem<L>,
    weighted: bool,
    use_estimate: bool,
    budget: Budget,
    stats: Stats,
    /// Completed IDA* iterations (limits tried).
    iterations: u32,
}

/// The dancing-links state of one search.
struct Links {
    left: Vec<u32>,
    right: Vec<u32>,
    up: Vec<u32>,
    down: Vec<u32>,
    /// Per node: its header (headers point to themselves).
    top: Vec<u32>,
    /// Per node: its option.
    row: Vec<u32>,
    /// Per header: the number of options containing the item.
    size: Vec<u32>,
    /// Per header: the cheapest option containing it.
    cheapest: Vec<u64>,
    /// Per header: the stamp of the last estimate that marked it.
    mark: Vec<u32>,
    stamp: u32,
    updates: u64,
}

impl Links {
    fn new<L>(problem: &Problem<L>, weighted: bool) -> Links {
        // Headers for the primary items only.
        let mut header = vec![0u32; problem.num_items()];
        let mut n = 0u32;
        for i in problem.item_ids() {
            if problem.item_kind(i) == ItemKind::Primary {
                n += 1;
                header[i.index()] = n;
            }
        }
        let heads = n as usize + 1;
        let mut l = Links {
            left: (0..heads as u32)
                .map(|k| if k == 0 { n } else { k - 1 })
                .collect(),
            right: (0..heads as u32)
                .map(|k| if k == n { 0 } else { k + 1 })
                .collect(),
            up: (0..heads as u32).collect(),
            down: (0..heads as u32).collect(),
            top: (0..heads as u32).collect(),
            row: vec![u32::MAX; heads],
            size: vec![0; heads],
            cheapest: vec![u64::MAX; heads],
            mark: vec![0; heads],
            stamp: 0,
            updates: 0,
        };
        for o in problem.option_ids() {
            let cost = if weighted { problem.cost(o) } else { 1 };
            let first = l.top.len() as u32;
            for e in problem.option(o) {
                if problem.item_kind(e.item) != ItemKind::Primary {
                    continue;
                }
                let h = header[e.item.index()];
                let x = l.top.len() as u32;
                let last = l.up[h as usize];
                l.top.push(h);
                l.row.push(o.0);
                l.up.push(last);
                l.down.push(h);
                l.down[last as usize] = x;
                l.up[h as usize] = x;
                l.left.push(if x == first { x } else { x - 1 });
                l.right.push(first);
                if x != first {
                    l.right[x as usize - 1] = x;
                    l.left[first as usize] = x;
                }
                l.size[h as usize] += 1;
                l.cheapest[h as usize] = l.cheapest[h as usize].min(cost);
            }
        }
        l
    }

    /// Unlinks every node of `x`'s vertical list except `x` from its row list
    /// (the header from the header list): the item of `x` is covered.
    fn remove(&mut self, x: u32) {
        let mut k = self.down[x as usize];
        while k != x {
            let (lk, rk) = (self.left[k as usize], self.right[k as usize]);
            self.left[rk as usize] = lk;
            self.right[lk as usize] = rk;
            self.updates += 1;
            k = self.down[k as usize];
        }
    }

    /// Undoes [`Links::remove`].
    fn restore(&mut self, x: u32) {
        let mut k = self.up[x as usize];
        while k != x {
            let (lk, rk) = (self.left[k as usize], self.right[k as usize]);
            self.left[rk as usize] = k;
            self.right[lk as usize] = k;
            k = self.up[k as usize];
        }
    }

    /// Chooses the option of node `x`: covers its uncovered items.
    fn choose(&mut self, x: u32) {
        self.remove(x);
        let mut j = self.right[x as usize];
        while j != x {
            self.remove(j);
            j = self.right[j as usize];
        }
    }

    /// Undoes [`Links::choose`].
    fn unchoose(&mut self, x: u32) {
        let mut j = self.left[x as usize];
        while j != x {
            self.restore(j);
            j = self.left[j as usize];
        }
        self.restore(x);
    }

    /// The admissible estimate of the module docs.
    fn estimate(&mut self) -> u128 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        let mut total = 0u128;
        let mut c = self.right[0];
        while c != 0 {
            if self.mark[c as usize] != stamp {
                // At most one `u64` per item: the sum cannot reach `u128::MAX`.
                total += u128::from(self.cheapest[c as usize]);
                self.mark[c as usize] = stamp;
                let mut i = self.down[c as usize];
                while i != c {
                    let mut j = self.right[i as usize];
                    while j != i {
                        self.mark[self.top[j as usize] as usize] = stamp;
                        j = self.right[j as usize];
                    }
                    i = self.down[i as usize];
                }
            }
            c = self.right[c as usize];
        }
        total
    }

    /// Checks the links against the choices on `stack`: the header list
    /// holds exactly the items no chosen option covers, in order, and every
    /// row lists exactly its option's uncovered items (the `debug-checks`
    /// feature runs it after every backtrack).
    fn check(&self, stack: &[(u32, u32)]) {
        let heads = self.size.len() as u32;
        let mut covered = vec![false; heads as usize];
        for &(_, x) in stack {
            let row = self.row[x as usize];
            for k in heads..self.top.len() as u32 {
                if self.row[k as usize] == row {
                    covered[self.top[k as usize] as usize] = true;
                }
            }
        }
        let mut listed = Vec::new();
        let mut c = self.right[0];
        while c != 0 {
            assert_eq!(self.right[self.left[c as usize] as usize], c);
            listed.push(c);
            c = self.right[c as usize];
        }
        let expected: Vec<u32> = (1..heads).filter(|&h| !covered[h as usize]).collect();
        assert_eq!(listed, expected);
        for k in heads..self.top.len() as u32 {
            if covered[self.top[k as usize] as usize] {
                continue;
            }
            // Walking the row from an uncovered node meets exactly the
            // option's uncovered items.
            let mut j = self.right[k as usize];
            let mut seen = 1;
            while j != k {
                assert_eq!(self.row[j as usize], self.row[k as usize]);
                assert!(!covered[self.top[j as usize] as usize]);
                seen += 1;
                j = self.right[j as usize];
            }
            let want = (heads..self.top.len() as u32)
                .filter(|&i| {
                    self.row[i as usize] == self.row[k as usize]
                        && !covered[self.top[i as usize] as usize]
                })
                .count();
            assert_eq!(seen, want);
        }
    }

    /// The uncovered item with the fewest options (first on ties), or `None`.
    fn choose_item(&self) -> Option<u32> {
        let mut best = None;
        let mut best_size = u32::MAX;
        let mut c = self.right[0];
        while c != 0 {
            if self.size[c as usize] < best_size {
                best_size = self.size[c as usize];
                best = Some(c);
            }
            c = self.right[c as usize];
        }
        best
    }
}

impl<'p, L> MinCover<'p, L> {
    /// A search for a cover with the fewest options.
    pub fn new(problem: &'p Problem<L>) -> Self {
        MinCover {
            problem,
            weighted: false,
            use_estimate: true,
            budget: Budget::default(),
            stats: Stats::default(),
            iterations: 0,
        }
    }

    /// With `true`, minimizes the sum of the options' costs instead of their
    /// number.
    ///
    /// ```
    /// let p = exactly::format::parse_dlx("a b\na b |5\na |1\nb |1\n")?;
    /// let fewest = exactly::mincover::MinCover::new(&p).solve().0.unwrap();
    /// assert_eq!(fewest.cost, 1);
    /// let cheapest = exactly::mincover::MinCover::new(&p).weighted(true).solve().0.unwrap();
    /// assert_eq!(cheapest.cost, 2);
    /// # Ok::<(), exactly::format::ParseError>(())
    /// ```
    pub fn weighted(mut self, on: bool) -> Self {
        self.weighted = on;
        self
    }

    /// Turns the estimate off (plain iterative deepening), for measuring it.
    pub fn estimate(mut self, on: bool) -> Self {
        self.use_estimate = on;
        self
    }

    /// Sets budgets (nodes, time, cancel flag).
    pub fn limits(mut self, limits: Limits) -> Self {
        self.budget.set_limits(&limits);
        self
    }

    /// Work done: nodes over all iterations, link updates, time.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// IDA* iterations run (limits tried).
    pub fn iterations(&self) -> u32 {
        self.iterations
    }

    /// A minimum cover; `None` when some primary item is in no option.
    pub fn solve(&mut self) -> (Option<Cover>, Outcome) {
        self.budget.restart();
        self.budget.start();
        let result = self.solve_inner();
        self.stats.elapsed += self.budget.elapsed();
        result
    }

    fn solve_inner(&mut self) -> (Option<Cover>, Outcome) {
        let mut links = Links::new(self.problem, self.weighted);
        let mut c = links.right[0];
        while c != 0 {
            if links.size[c as usize] == 0 {
                return (None, Outcome::Complete);
            }
            c = links.right[c as usize];
        }
        let mut limit = if self.use_estimate {
            links.estimate()
        } else {
            0
        };
        loop {
            self.iterations += 1;
            let result = self.iteration(&mut links, limit);
            self.stats.updates = links.updates;
            match result {
                Err(reason) => return (None, Outcome::Stopped(reason)),
                Ok(Ok(cover)) => return (Some(cover), Outcome::Complete),
                Ok(Err(next)) => limit = next,
            }
        }
    }

    /// One depth-first pass under `limit`: a cover, or the smallest cost
    /// bound that exceeded the limit.
    fn iteration(
        &mut self,
        links: &mut Links,
        limit: u128,
    ) -> Result<Result<Cover, u128>, StopReason> {
        let problem = self.problem;
        let weighted = self.weighted;
        let cost_of = |x: u32, links: &Links| -> u128 {
            if weighted {
                u128::from(problem.cost(OptionId(links.row[x as usize])))
            } else {
                1
            }
        };
        // Per level: the item branched on and the node of the option tried.
        let mut stack: Vec<(u32, u32)> = Vec::new();
        // Sums of at most one `u64` cost per option: exact in 128 bits.
        let mut g = 0u128;
        let mut next = u128::MAX;
        let mut enter = true;
        loop {
            if enter {
                enter = false;
                if self.budget.out_of_nodes(self.stats.nodes) {
                    self.unwind(links, &stack);
                    return Err(StopReason::NodeLimit);
                }
                if Budget::is_due(self.stats.nodes) {
                    if let Err(reason) = self.budget.poll(self.stats.nodes) {
                        self.unwind(links, &stack);
                        return Err(reason);
                    }
                }
                self.stats.nodes += 1;
                self.stats.max_depth = self.stats.max_depth.max(stack.len() as u32);
                match links.choose_item() {
                    // A cover over the limit: a cheaper one may exist.
                    None if g > limit => next = next.min(g),
                    None => {
                        let options = stack
                            .iter()
                            .map(|&(_, x)| OptionId(links.row[x as usize]))
                            .collect();
                        self.stats.solutions += 1;
                        self.unwind(links, &stack);
                        return Ok(Ok(Cover { cost: g, options }));
                    }
                    Some(item) => {
                        // Without the estimate: the cheapest option of the
                        // chosen item, which some cover must still pay.
                        let h = if self.use_estimate {
                            links.estimate()
                        } else {
                            u128::from(links.cheapest[item as usize])
                        };
                        let f = g + h;
                        if f > limit {
                            next = next.min(f);
                        } else {
                            stack.push((item, item));
                        }
                    }
                }
            }
            let Some(&mut (item, ref mut x)) = stack.last_mut() else {
                return Ok(Err(next));
            };
            let tried = *x;
            if tried != item {
                links.unchoose(tried);
                g -= cost_of(tried, links);
            }
            let candidate = links.down[tried as usize];
            if candidate == item {
                stack.pop();
                if cfg!(feature = "debug-checks") {
                    links.check(&stack);
                }
                continue;
            }
            if let Some(top) = stack.last_mut() {
                top.1 = candidate;
            }
            links.choose(candidate);
            g += cost_of(candidate, links);
            enter = true;
        }
    }

    /// Undoes every choice on the stack, deepest first.
    fn unwind(&self, links: &mut Links, stack: &[(u32, u32)]) {
        for &(item, x) in stack.iter().rev() {
            if x != item {
                links.unchoose(x);
            }
        }
    }
}
