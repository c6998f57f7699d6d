//! A zero-suppressed decision diagram (ZDD) of every solution, in the manner
//! of Knuth's DLX6.
//!
//! ## Overview
//!
//! Some problems have far too many solutions to list. The search that lists
//! them meets the same subproblem again and again: two partial solutions that
//! leave the same items to cover, with the same secondary items still open
//! in the same colors, have the same completions. [`ZddBuilder`] searches as
//! Algorithm C does (dancing links, the item with the fewest options first)
//! but memoises each subproblem by its *signature* and records the result as
//! a node of a diagram instead of a list of solutions. The diagram can be far
//! smaller than the list, and counting, sampling, optimising and listing then
//! run on it.
//!
//! ## The diagram
//!
//! Node references are `u32`: `0` is ⊥ (no solution), `1` is ⊤ (the empty
//! solution), and `k ≥ 2` is node `k - 2` of [`Zdd::nodes`]. A node
//! `(option, lo, hi)` stands for the family `lo ∪ {s ∪ {option} : s ∈ hi}`.
//! Children are always created before their parents, so a node's `lo` and
//! `hi` are smaller than its own reference: one pass in index order computes
//! anything bottom-up. As in DLX6, the diagram is not ordered by option
//! number; every path from the root to ⊤ is one solution, each solution on
//! exactly one path.
//!
//! ## Signatures
//!
//! A signature has one bit per primary item (still to be covered or not)
//! and, for each secondary item that some active option still uses, a code:
//! 1 when no chosen option has colored it, `2 + c` when it was purified to
//! color `c`. Two states with the same signature have the same active
//! options, hence the same completions.
//!
//! With multiplicities (primary items with bounds `u:v`), a chosen option
//! leaves the other options of its items usable, and the search branches on
//! one option at a time instead; its memo key is the set of active options
//! with what each primary item still needs and allows (see `multi.rs`).
//! Counting, sampling, optimising and listing work on that diagram alike.
//!
//! ## Examples
//!
//! ```
//! let problem = exactly::format::parse_dlx("a b c\na b\nc\na\nb c\na b c\n")?;
//! let zdd = exactly::zdd::ZddBuilder::new(&problem).build()?;
//! assert_eq!(zdd.count_u128(), Some(3));
//! let all: Vec<Vec<usize>> = zdd
//!     .solutions()
//!     .map(|s| {
//!         let mut s: Vec<usize> = s.iter().map(|o| o.index()).collect();
//!         s.sort();
//!         s
//!     })
//!     .collect();
//! assert_eq!(all.len(), 3);
//! assert!(all.contains(&vec![0, 1]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::cmp::Ordering;
use std::io::{self, Write};
use std::sync::OnceLock;

use num_bigint::BigUint;

use crate::budget::{Limits, StopReason};
use crate::problem::{OptionId, Problem};

mod bits;
mod build;
mod multi;
use build::{Dance, Engine, Run};

/// ⊥: the empty family.
pub const BOTTOM: u32 = 0;
/// ⊤: the family holding only the empty solution.
pub const TOP: u32 = 1;

/// One node of a [`Zdd`]: the option it decides and its two children.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZddNode {
    /// The option taken on the `hi` branch.
    pub option: OptionId,
    /// The solutions without this option (a node reference).
    pub lo: u32,
    /// The rest of the solutions with this option (a node reference).
    pub hi: u32,
}

/// Statistics of a build.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ZddStats {
    /// Search nodes entered (cache hits and solutions included, as DLX6
    /// counts them).
    pub nodes: u64,
    /// Subproblems memoised.
    pub memos: u64,
    /// Subproblems answered from the memo.
    pub hits: u64,
    /// Bytes held by the memo and the diagram at the end (an estimate).
    pub bytes: u64,
}

/// Why a build gave no diagram.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ZddError {
    /// A budget ran out; nothing partial is returned.
    #[error("stopped early: {reason} (after {} search nodes, {} diagram nodes)", stats.nodes, diagram_nodes)]
    Stopped {
        /// Which budget.
        reason: StopReason,
        /// The work done by then.
        stats: ZddStats,
        /// Diagram nodes made by then.
        diagram_nodes: usize,
    },
    /// The memo and the diagram outgrew the memory budget.
    #[error("the diagram and its memo need more than {limit} bytes (the memory budget)")]
    Memory {
        /// The budget in bytes.
        limit: u64,
        /// The work done by then.
        stats: ZddStats,
    },
    /// The diagram outgrew `u32` node references.
    #[error("more than {} diagram nodes", u32::MAX - 2)]
    TooManyNodes,
}

/// Builds the [`Zdd`] of every solution of a problem.
#[derive(Debug)]
pub struct ZddBuilder<'a, L> {
    problem: &'a Problem<L>,
    limits: Limits,
    max_bytes: Option<u64>,
}

impl<'a, L> ZddBuilder<'a, L> {
    /// A builder for `problem`, with no budget.
    pub fn new(problem: &'a Problem<L>) -> Self {
        ZddBuilder {
            problem,
            limits: Limits::default(),
            max_bytes: None,
        }
    }

    /// Budgets in search nodes, time and a cancel flag (a solution budget is
    /// ignored: a diagram holds all solutions or none).
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// A budget in bytes for the memo and the diagram together.
    pub fn max_bytes(mut self, bytes: u64) -> Self {
        self.max_bytes = Some(bytes);
        self
    }

    /// Runs the search. Either the whole diagram or an error: a build that
    /// runs out of budget never returns a partial diagram.
    pub fn build(self) -> Result<Zdd, ZddError> {
        let p = self.problem;
        if p.has_multiplicities() {
            let shape = multi::Shape::new(p);
            let mut run = multi::MultiRun::new(&shape, &self.limits, self.max_bytes);
            let root = run.search()?;
            return Ok(Zdd {
                nodes: std::mem::take(&mut run.out.zdd),
                root,
                num_options: p.num_options(),
                stats: run.out.stats,
                counts: OnceLock::new(),
            });
        }
        // Bitsets of options where there are few, dancing links otherwise:
        // the same search and the same diagram.
        let (root, nodes, stats) = match bits::Bits::new(p) {
            Some(mut bits) => self.run(&mut bits)?,
            None => self.run(&mut Dance::new(p))?,
        };
        Ok(Zdd {
            nodes,
            root,
            num_options: p.num_options(),
            stats,
            counts: OnceLock::new(),
        })
    }
}

impl<L> ZddBuilder<'_, L> {
    /// The search on `engine`: the root, the nodes and the statistics.
    fn run<E: Engine>(&self, engine: &mut E) -> Result<(u32, Vec<ZddNode>, ZddStats), ZddError> {
        let mut run = Run::new(engine, &self.limits, self.max_bytes);
        let root = run.search()?;
        Ok((root, std::mem::take(&mut run.out.zdd), run.out.stats))
    }
}

/// A diagram of every solution; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct Zdd {
    nodes: Vec<ZddNode>,
    root: u32,
    num_options: usize,
    stats: ZddStats,
    /// The number of solutions below every reference, computed on first
    /// use (by [`Zdd::count`] or [`Zdd::sample`]) and kept, so that each
    /// further sample costs one walk from the root.
    counts: OnceLock<Counts>,
}

/// The number of solutions below every reference (index = reference).
#[derive(Clone, Debug)]
enum Counts {
    /// Every count fits in a `u128`.
    Small(Vec<u128>),
    /// Some count passes `u128`.
    Big(Vec<BigUint>),
}

impl Zdd {
    /// The root reference.
    pub fn root(&self) -> u32 {
        self.root
    }

    /// The nodes, in creation order (node `k` has reference `k + 2`).
    pub fn nodes(&self) -> &[ZddNode] {
        &self.nodes
    }

    /// The number of nodes, terminals not counted.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when the diagram has no node (no solution, or only the empty one).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The number of options of the problem it was built from.
    pub fn num_options(&self) -> usize {
        self.num_options
    }

    /// The build's statistics.
    pub fn stats(&self) -> ZddStats {
        self.stats
    }

    fn node(&self, r: u32) -> ZddNode {
        self.nodes[r as usize - 2]
    }

    /// The number of solutions below every reference, or `None` when some
    /// count passes `u128`.
    fn counts_u128(&self) -> Option<Vec<u128>> {
        let mut counts: Vec<u128> = Vec::with_capacity(self.nodes.len() + 2);
        counts.extend([0, 1]);
        for n in &self.nodes {
            let c = counts[n.lo as usize].checked_add(counts[n.hi as usize])?;
            counts.push(c);
        }
        Some(counts)
    }

    fn counts_big(&self) -> Vec<BigUint> {
        let mut counts: Vec<BigUint> = Vec::with_capacity(self.nodes.len() + 2);
        counts.extend([BigUint::from(0u32), BigUint::from(1u32)]);
        for n in &self.nodes {
            let c = &counts[n.lo as usize] + &counts[n.hi as usize];
            counts.push(c);
        }
        counts
    }

    /// The counts below every reference, computed once.
    fn counts(&self) -> &Counts {
        self.counts.get_or_init(|| match self.counts_u128() {
            Some(counts) => Counts::Small(counts),
            None => Counts::Big(self.counts_big()),
        })
    }

    /// The number of solutions, if it fits in a `u128`.
    pub fn count_u128(&self) -> Option<u128> {
        match self.counts() {
            Counts::Small(c) => Some(c[self.root as usize]),
            Counts::Big(_) => None,
        }
    }

    /// The number of solutions, however large.
    pub fn count(&self) -> BigUint {
        match self.counts() {
            Counts::Small(c) => BigUint::from(c[self.root as usize]),
            Counts::Big(c) => c[self.root as usize].clone(),
        }
    }

    /// Every solution, read off the diagram (each once, in no set order).
    pub fn solutions(&self) -> ZddSolutions<'_> {
        ZddSolutions {
            zdd: self,
            stack: vec![(self.root, 0)],
            path: Vec::new(),
        }
    }

    /// A solution drawn uniformly at random (every solution equally likely),
    /// from a seeded generator; `None` when there is no solution.
    ///
    /// The first call (or [`Zdd::count`]) counts the solutions below every
    /// node, once for the diagram; each draw is then one walk from the
    /// root, as long as the solution.
    pub fn sample(&self, rng: &mut ZddRng) -> Option<Vec<OptionId>> {
        if self.root == BOTTOM {
            return None;
        }
        let mut out = Vec::new();
        let mut r = self.root;
        match self.counts() {
            Counts::Small(counts) => {
                let mut x = rng.below_u128(counts[r as usize]);
                while r >= 2 {
                    let n = self.node(r);
                    let lo = counts[n.lo as usize];
                    if x < lo {
                        r = n.lo;
                    } else {
                        x -= lo;
                        out.push(n.option);
                        r = n.hi;
                    }
                }
            }
            Counts::Big(counts) => {
                let mut x = rng.below_big(&counts[r as usize]);
                while r >= 2 {
                    let n = self.node(r);
                    let lo = &counts[n.lo as usize];
                    if &x < lo {
                        r = n.lo;
                    } else {
                        x -= lo;
                        out.push(n.option);
                        r = n.hi;
                    }
                }
            }
        }
        debug_assert_eq!(r, TOP);
        Some(out)
    }

    /// The smallest and the largest total weight over all solutions, each
    /// with one solution that attains it (`weight(option)` for each option
    /// taken); `None` when there is no solution.
    pub fn min_max(&self, weight: impl Fn(OptionId) -> i64) -> Option<(Extreme, Extreme)> {
        if self.root == BOTTOM {
            return None;
        }
        Some((
            self.extreme(&weight, Ordering::Less),
            self.extreme(&weight, Ordering::Greater),
        ))
    }

    fn extreme(&self, weight: &impl Fn(OptionId) -> i64, better: Ordering) -> Extreme {
        // best[r]: the best total below r (None for ⊥), and whether the
        // best takes the node's option.
        let mut best: Vec<Option<i128>> = Vec::with_capacity(self.nodes.len() + 2);
        let mut take: Vec<bool> = Vec::with_capacity(self.nodes.len() + 2);
        best.extend([None, Some(0)]);
        take.extend([false, false]);
        for n in &self.nodes {
            let with = best[n.hi as usize].map(|b| b + i128::from(weight(n.option)));
            let without = best[n.lo as usize];
            let (b, t) = match (without, with) {
                (None, w) => (w, true),
                (w, None) => (w, false),
                (Some(a), Some(b)) => {
                    if b.cmp(&a) == better {
                        (Some(b), true)
                    } else {
                        (Some(a), false)
                    }
                }
            };
            best.push(b);
            take.push(t);
        }
        let mut options = Vec::new();
        let mut r = self.root;
        while r >= 2 {
            let n = self.node(r);
            if take[r as usize] {
                options.push(n.option);
                r = n.hi;
            } else {
                r = n.lo;
            }
        }
        Extreme {
            total: best[self.root as usize].expect("a diagram with a solution has a best one"),
            options,
        }
    }

    /// Writes the diagram in the text form of Knuth's DLX6 (the one his
    /// ZDDREAD programs read): a line `id: (~v?lo:hi)` per node, ids in
    /// hexadecimal, `v` the option's number counted from 1 in the input, then
    /// a dummy root `id: (~0?0:root)`.
    pub fn write_knuth(&self, mut out: impl Write) -> io::Result<()> {
        for (k, n) in self.nodes.iter().enumerate() {
            writeln!(
                out,
                "{:x}: (~{}?{:x}:{:x})",
                k + 2,
                n.option.index() + 1,
                n.lo,
                n.hi
            )?;
        }
        writeln!(out, "{:x}: (~0?0:{:x})", self.nodes.len() + 2, self.root)
    }

    /// Writes the diagram as one JSON object:
    /// `{"format":"exactly-zdd","version":1,"options":M,"root":R,"nodes":[[o,lo,hi],...]}`,
    /// where node `k` of the list has reference `k + 2`, `0` is ⊥, `1` is ⊤,
    /// and `o` is the option's index counted from 0.
    pub fn write_json(&self, mut out: impl Write) -> io::Result<()> {
        write!(
            out,
            "{{\"format\":\"exactly-zdd\",\"version\":1,\"options\":{},\"root\":{},\"nodes\":[",
            self.num_options, self.root
        )?;
        for (k, n) in self.nodes.iter().enumerate() {
            if k > 0 {
                out.write_all(b",")?;
            }
            write!(out, "[{},{},{}]", n.option.index(), n.lo, n.hi)?;
        }
        writeln!(out, "]}}")
    }
}

/// A best total weight and one solution with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extreme {
    /// The total weight.
    pub total: i128,
    /// A solution with that total.
    pub options: Vec<OptionId>,
}

/// The solutions of a [`Zdd`], one `Vec` of options each.
#[derive(Debug)]
pub struct ZddSolutions<'a> {
    zdd: &'a Zdd,
    stack: Vec<(u32, usize)>,
    path: Vec<OptionId>,
}

impl Iterator for ZddSolutions<'_> {
    type Item = Vec<OptionId>;

    fn next(&mut self) -> Option<Vec<OptionId>> {
        while let Some((mut r, len)) = self.stack.pop() {
            self.path.truncate(len);
            loop {
                match r {
                    BOTTOM => break,
                    TOP => return Some(self.path.clone()),
                    _ => {
                        let n = self.zdd.node(r);
                        if n.lo != BOTTOM {
                            self.stack.push((n.lo, self.path.len()));
                        }
                        self.path.push(n.option);
                        r = n.hi;
                    }
                }
            }
        }
        None
    }
}

/// The seeded generator behind [`Zdd::sample`] (xorshift with a multiply;
/// the same seed gives the same draws).
#[derive(Clone, Debug)]
pub struct ZddRng(u64);

impl ZddRng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        // splitmix64 of the seed, never zero.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        ZddRng(z | 1)
    }

    fn next_u64(&mut self) -> u64 {
        crate::repr::next_random(&mut self.0)
    }

    /// Uniform in `0..n` (`n > 0`), by rejection.
    fn below_u128(&mut self, n: u128) -> u128 {
        debug_assert!(n > 0);
        let bits = 128 - (n - 1).leading_zeros();
        loop {
            let x = (u128::from(self.next_u64()) << 64) | u128::from(self.next_u64());
            let x = if bits == 0 { 0 } else { x >> (128 - bits) };
            if x < n {
                return x;
            }
        }
    }

    fn below_big(&mut self, n: &BigUint) -> BigUint {
        let one = BigUint::from(1u32);
        let bits = (n - &one).bits();
        let words = bits.div_ceil(32) as usize;
        loop {
            let mut digits: Vec<u32> = (0..words).map(|_| self.next_u64() as u32).collect();
            let spare = (words as u64 * 32 - bits) as u32;
            if let Some(top) = digits.last_mut() {
                if spare > 0 {
                    *top >>= spare;
                }
            }
            let x = BigUint::from_slice(&digits);
            if &x < n {
                return x;
            }
        }
    }
}
