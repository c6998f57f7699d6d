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
use std::sync::atomic::Ordering as AtomicOrdering;
use std::time::Instant;

use hashbrown::HashTable;
use num_bigint::BigUint;

use crate::problem::{ItemKind, OptionId, Problem};
use crate::solver::{Limits, StopReason};

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
    /// Primary items with multiplicities other than 1 are not handled.
    #[error("primary item '{0}' has a multiplicity other than 1; diagrams are built for exact covers with colors only")]
    Multiplicities(String),
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
        for item in p.item_ids() {
            if p.item_kind(item) == ItemKind::Primary && p.item_bounds(item) != (1, 1) {
                return Err(ZddError::Multiplicities(p.item_name(item).to_string()));
            }
        }
        let mut dance = Dance::new(p);
        let mut run = Run::new(&mut dance, &self.limits, self.max_bytes);
        let root = run.search()?;
        let stats = run.stats;
        let nodes = std::mem::take(&mut run.zdd);
        Ok(Zdd {
            nodes,
            root,
            num_options: p.num_options(),
            stats,
        })
    }
}

/// A diagram of every solution; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct Zdd {
    nodes: Vec<ZddNode>,
    root: u32,
    num_options: usize,
    stats: ZddStats,
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

    /// The number of solutions, if it fits in a `u128`.
    pub fn count_u128(&self) -> Option<u128> {
        self.counts_u128().map(|c| c[self.root as usize])
    }

    /// The number of solutions, however large.
    pub fn count(&self) -> BigUint {
        match self.count_u128() {
            Some(c) => BigUint::from(c),
            None => self.counts_big().swap_remove(self.root as usize),
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
    pub fn sample(&self, rng: &mut ZddRng) -> Option<Vec<OptionId>> {
        if self.root == BOTTOM {
            return None;
        }
        let mut out = Vec::new();
        let mut r = self.root;
        match self.counts_u128() {
            Some(counts) => {
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
            None => {
                let counts = self.counts_big();
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
        crate::solver::next_random(&mut self.0)
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

// ---------------------------------------------------------------------------
// The search: dancing links in which secondary items keep their lengths, so
// that a secondary item no active option uses drops out of the signature.
// ---------------------------------------------------------------------------

/// Headers are `1..=n` (primary items first); node 0 heads the list of
/// primary items to cover and node `n + 1` the list of open secondary items.
/// Option nodes follow, each option preceded by a spacer whose `itm` is
/// `-(k + 1)` for option `k`; a spacer's `up` is the first node of the option
/// before it and its `down` the last node of the option after it.
struct Dance {
    up: Vec<u32>,
    down: Vec<u32>,
    /// Header index for option nodes, `-(k + 1)` for spacers.
    itm: Vec<i32>,
    /// Color of an option node (`0` none, `-1` already agreeing).
    color: Vec<i32>,
    /// Per header: active options (`-1` marks a purified item left empty).
    len: Vec<i32>,
    /// Per header: the color it was purified to, or 0.
    purified: Vec<i32>,
    prev: Vec<u32>,
    next: Vec<u32>,
    n1: u32,
    n: u32,
    /// Bit offset and width of each secondary item's code in a signature.
    sec_bits: u32,
    sig_words: usize,
}

impl Dance {
    fn new<L>(p: &Problem<L>) -> Dance {
        let mut header_of = vec![0u32; p.num_items()];
        let mut h = 0u32;
        for kind in [ItemKind::Primary, ItemKind::Secondary] {
            for id in p.item_ids() {
                if p.item_kind(id) == kind {
                    h += 1;
                    header_of[id.index()] = h;
                }
            }
        }
        let n1 = p.num_primary() as u32;
        let n = p.num_items() as u32;
        let total = n as usize + 2 + p.num_entries() + p.num_options() + 1;
        let mut up = vec![0u32; total];
        let mut down = vec![0u32; total];
        let mut itm = vec![0i32; total];
        let mut color = vec![0i32; total];
        let mut len = vec![0i32; n as usize + 2];
        for h in 1..=n as usize {
            up[h] = h as u32;
            down[h] = h as u32;
        }
        let mut max_color = 0u32;
        let mut spacer = n as usize + 2;
        itm[spacer] = -1;
        for (k, o) in p.option_ids().enumerate() {
            let entries = p.option(o);
            let first = spacer + 1;
            for (j, e) in entries.iter().enumerate() {
                let x = first + j;
                let hd = header_of[e.item.index()] as usize;
                itm[x] = hd as i32;
                color[x] = e.color.0 as i32;
                max_color = max_color.max(e.color.0);
                let last = up[hd] as usize;
                down[last] = x as u32;
                up[x] = last as u32;
                down[x] = hd as u32;
                up[hd] = x as u32;
                len[hd] += 1;
            }
            let last = first + entries.len() - 1;
            down[spacer] = last as u32;
            spacer = last + 1;
            up[spacer] = first as u32;
            itm[spacer] = -(k as i32 + 2);
        }
        // The primary list through 0, the secondary list through n + 1;
        // secondary items no option uses are left out from the start.
        let mut prev = vec![0u32; n as usize + 2];
        let mut next = vec![0u32; n as usize + 2];
        let link = |list: &[u32], prev: &mut [u32], next: &mut [u32]| {
            for w in 0..list.len() {
                let a = list[w];
                let b = list[(w + 1) % list.len()];
                next[a as usize] = b;
                prev[b as usize] = a;
            }
        };
        let primaries: Vec<u32> = std::iter::once(0).chain(1..=n1).collect();
        let secondaries: Vec<u32> = std::iter::once(n + 1)
            .chain((n1 + 1..=n).filter(|&h| len[h as usize] > 0))
            .collect();
        link(&primaries, &mut prev, &mut next);
        link(&secondaries, &mut prev, &mut next);
        // Codes 0 (absent), 1 (open), 2 + c (purified to c, c ≥ 1).
        let codes = u64::from(max_color) + 2;
        let sec_bits = 64 - (codes - 1).leading_zeros().min(63);
        let bits = u64::from(n1) + u64::from(n - n1) * u64::from(sec_bits);
        let sig_words = bits.div_ceil(64).max(1) as usize;
        Dance {
            up,
            down,
            itm,
            color,
            len,
            purified: vec![0; n as usize + 2],
            prev,
            next,
            n1,
            n,
            sec_bits,
            sig_words,
        }
    }

    fn unlink_item(&mut self, c: u32) {
        let (l, r) = (self.prev[c as usize], self.next[c as usize]);
        self.next[l as usize] = r;
        self.prev[r as usize] = l;
    }

    fn relink_item(&mut self, c: u32) {
        let (l, r) = (self.prev[c as usize], self.next[c as usize]);
        self.next[l as usize] = c;
        self.prev[r as usize] = c;
    }

    /// Removes the option of `rr` from every list but its own item's.
    fn hide(&mut self, rr: u32, updates: &mut u64) {
        let mut nn = rr + 1;
        while nn != rr {
            let cc = self.itm[nn as usize];
            if cc <= 0 {
                nn = self.up[nn as usize];
                continue;
            }
            if self.color[nn as usize] >= 0 {
                let (u, d) = (self.up[nn as usize], self.down[nn as usize]);
                self.down[u as usize] = d;
                self.up[d as usize] = u;
            }
            *updates += 1;
            let cc = cc as u32;
            self.len[cc as usize] -= 1;
            if self.len[cc as usize] == 0 && cc > self.n1 {
                self.unlink_item(cc);
            }
            nn += 1;
        }
    }

    fn unhide(&mut self, rr: u32) {
        let mut nn = rr - 1;
        while nn != rr {
            let cc = self.itm[nn as usize];
            if cc <= 0 {
                nn = self.down[nn as usize];
                continue;
            }
            if self.color[nn as usize] >= 0 {
                let (u, d) = (self.up[nn as usize], self.down[nn as usize]);
                self.down[u as usize] = nn;
                self.up[d as usize] = nn;
            }
            let cc = cc as u32;
            self.len[cc as usize] += 1;
            if self.len[cc as usize] == 1 && cc > self.n1 {
                self.relink_item(cc);
            }
            nn -= 1;
        }
    }

    fn cover(&mut self, c: u32, updates: &mut u64) {
        self.unlink_item(c);
        *updates += 1;
        let mut rr = self.down[c as usize];
        while rr != c {
            self.hide(rr, updates);
            rr = self.down[rr as usize];
        }
    }

    fn uncover(&mut self, c: u32) {
        let mut rr = self.up[c as usize];
        while rr != c {
            self.unhide(rr);
            rr = self.up[rr as usize];
        }
        self.relink_item(c);
    }

    fn purify(&mut self, p: u32, updates: &mut u64) {
        let cc = self.itm[p as usize] as u32;
        let x = self.color[p as usize];
        self.purified[cc as usize] = x;
        let mut tt = self.len[cc as usize];
        let mut rr = self.down[cc as usize];
        while rr != cc {
            if self.color[rr as usize] != x {
                tt -= 1;
                self.hide(rr, updates);
            } else {
                self.color[rr as usize] = -1;
            }
            rr = self.down[rr as usize];
        }
        if tt > 0 {
            self.len[cc as usize] = tt;
        } else {
            self.len[cc as usize] = -1;
            self.unlink_item(cc);
        }
    }

    fn unpurify(&mut self, p: u32) {
        let cc = self.itm[p as usize] as u32;
        let x = self.color[p as usize];
        self.purified[cc as usize] = 0;
        let mut tt = self.len[cc as usize];
        if tt < 0 {
            tt = 0;
            self.relink_item(cc);
        }
        let mut rr = self.up[cc as usize];
        while rr != cc {
            if self.color[rr as usize] < 0 {
                self.color[rr as usize] = x;
            } else {
                tt += 1;
                self.unhide(rr);
            }
            rr = self.up[rr as usize];
        }
        self.len[cc as usize] = tt;
    }

    /// Covers or purifies the items of `x`'s option other than `x`'s own.
    fn commit_others(&mut self, x: u32, updates: &mut u64) {
        let mut pp = x + 1;
        while pp != x {
            let cc = self.itm[pp as usize];
            if cc <= 0 {
                pp = self.up[pp as usize];
                continue;
            }
            let cc = cc as u32;
            if cc <= self.n1 || self.len[cc as usize] != 0 {
                match self.color[pp as usize] {
                    0 => self.cover(cc, updates),
                    c if c > 0 => self.purify(pp, updates),
                    _ => {}
                }
            }
            pp += 1;
        }
    }

    fn uncommit_others(&mut self, x: u32) {
        let mut pp = x - 1;
        while pp != x {
            let cc = self.itm[pp as usize];
            if cc <= 0 {
                pp = self.down[pp as usize];
                continue;
            }
            let cc = cc as u32;
            if cc <= self.n1 || self.len[cc as usize] != 0 {
                match self.color[pp as usize] {
                    0 => self.uncover(cc),
                    c if c > 0 => self.unpurify(pp),
                    _ => {}
                }
            }
            pp -= 1;
        }
    }

    /// The option of node `x`, from the spacer at its left.
    fn option_of(&self, mut x: u32) -> OptionId {
        while self.itm[x as usize] > 0 {
            x -= 1;
        }
        OptionId::new((-self.itm[x as usize] - 1) as usize)
    }

    /// The primary item with the fewest active options (the first in item
    /// order among ties).
    fn choose(&self) -> u32 {
        let mut best = 0;
        let mut t = i32::MAX;
        let mut k = self.next[0];
        while k != 0 {
            let l = self.len[k as usize];
            if l < t {
                best = k;
                t = l;
                if l == 0 {
                    break;
                }
            }
            k = self.next[k as usize];
        }
        best
    }

    fn signature(&self, sig: &mut Vec<u64>) {
        sig.clear();
        sig.resize(self.sig_words, 0);
        let mut k = self.next[0];
        while k != 0 {
            let b = k as usize - 1;
            sig[b / 64] |= 1 << (b % 64);
            k = self.next[k as usize];
        }
        let head = self.n + 1;
        let mut k = self.next[head as usize];
        while k != head {
            if self.len[k as usize] > 0 {
                let code = match self.purified[k as usize] {
                    0 => 1u64,
                    c => 2 + c as u64,
                };
                let at = u64::from(self.n1) + u64::from(k - self.n1 - 1) * u64::from(self.sec_bits);
                let (w, s) = ((at / 64) as usize, at % 64);
                sig[w] |= code << s;
                if s + u64::from(self.sec_bits) > 64 {
                    sig[w + 1] |= code >> (64 - s);
                }
            }
            k = self.next[k as usize];
        }
    }
}

struct Level {
    best: u32,
    cur: u32,
    saved: u32,
    /// The memo entry of this level's state.
    memo: u32,
}

/// Signatures end to end in one array (all of the same length), found
/// through a table of entry numbers; each entry's diagram in `zdd`.
struct Memo {
    words: usize,
    keys: Vec<u64>,
    hashes: Vec<u64>,
    zdd: Vec<u32>,
    table: HashTable<u32>,
}

impl Memo {
    fn new(words: usize) -> Memo {
        Memo {
            words,
            keys: Vec::new(),
            hashes: Vec::new(),
            zdd: Vec::new(),
            table: HashTable::new(),
        }
    }

    fn len(&self) -> usize {
        self.zdd.len()
    }

    fn hash(sig: &[u64]) -> u64 {
        // Fx-style mixing, word by word.
        let mut h = 0u64;
        for &w in sig {
            h = (h.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
        h ^ (h >> 29)
    }

    /// The entry of `sig`: `Ok(diagram)` when it was met before, else
    /// `Err(entry)` for a new entry whose diagram is set later.
    fn find_or_insert(&mut self, sig: &[u64]) -> Result<u32, u32> {
        let h = Memo::hash(sig);
        let w = self.words;
        let keys = &self.keys;
        if let Some(&e) = self
            .table
            .find(h, |&e| &keys[e as usize * w..(e as usize + 1) * w] == sig)
        {
            return Ok(self.zdd[e as usize]);
        }
        let e = self.zdd.len() as u32;
        self.keys.extend_from_slice(sig);
        self.hashes.push(h);
        self.zdd.push(BOTTOM);
        let hashes = &self.hashes;
        self.table.insert_unique(h, e, |&x| hashes[x as usize]);
        Err(e)
    }
}

struct Run<'d> {
    dance: &'d mut Dance,
    limits: &'d Limits,
    max_bytes: Option<u64>,
    zdd: Vec<ZddNode>,
    memo: Memo,
    stats: ZddStats,
    updates: u64,
    start: Instant,
}

impl<'d> Run<'d> {
    fn new(dance: &'d mut Dance, limits: &'d Limits, max_bytes: Option<u64>) -> Self {
        let words = dance.sig_words;
        Run {
            dance,
            limits,
            max_bytes,
            zdd: Vec::new(),
            memo: Memo::new(words),
            stats: ZddStats::default(),
            updates: 0,
            start: Instant::now(),
        }
    }

    fn bytes(&self) -> u64 {
        // A key, its hash, its diagram, and a table slot with its control
        // byte at a load of at most 7/8.
        let per_memo = (self.dance.sig_words * 8 + 8 + 4 + 5) as u64;
        self.memo.len() as u64 * per_memo + self.zdd.len() as u64 * 12
    }

    fn check(&mut self) -> Result<(), ZddError> {
        let stop = |reason, run: &Self| ZddError::Stopped {
            reason,
            stats: run.stats,
            diagram_nodes: run.zdd.len(),
        };
        if let Some(max) = self.limits.nodes {
            if self.stats.nodes > max {
                return Err(stop(StopReason::NodeLimit, self));
            }
        }
        if self.stats.nodes % 1024 == 0 {
            if let Some(t) = self.limits.time {
                if self.start.elapsed() >= t {
                    return Err(stop(StopReason::TimeLimit, self));
                }
            }
            if let Some(flag) = &self.limits.cancel {
                if flag.load(AtomicOrdering::Relaxed) {
                    return Err(stop(StopReason::Cancelled, self));
                }
            }
            if let Some(limit) = self.max_bytes {
                if self.bytes() > limit {
                    self.stats.bytes = self.bytes();
                    return Err(ZddError::Memory {
                        limit,
                        stats: self.stats,
                    });
                }
            }
        }
        Ok(())
    }

    fn make(&mut self, option: OptionId, lo: u32, hi: u32) -> Result<u32, ZddError> {
        let r = self.zdd.len() + 2;
        if r >= u32::MAX as usize {
            return Err(ZddError::TooManyNodes);
        }
        self.zdd.push(ZddNode { option, lo, hi });
        Ok(r as u32)
    }

    /// DLX6's loop (forward, advance, backup, recover) with an explicit
    /// stack; `znode` is the diagram of the options tried so far on the
    /// current level, `zsol` that of the level just finished.
    fn search(&mut self) -> Result<u32, ZddError> {
        if self.dance.next[0] == 0 {
            // No primary item: the empty solution alone.
            self.stats.nodes = 1;
            return Ok(TOP);
        }
        enum Step {
            Forward,
            Advance,
            Backup,
            Backdown,
            Recover,
        }
        let mut levels: Vec<Level> = Vec::new();
        let mut sig = Vec::new();
        let (mut best, mut cur, mut znode, mut zsol) = (0u32, 0u32, BOTTOM, BOTTOM);
        let mut step = Step::Forward;
        loop {
            step = match step {
                Step::Forward => {
                    self.stats.nodes += 1;
                    self.check()?;
                    self.dance.signature(&mut sig);
                    match self.memo.find_or_insert(&sig) {
                        Ok(z) => {
                            self.stats.hits += 1;
                            znode = z;
                            Step::Backdown
                        }
                        Err(entry) => {
                            self.stats.memos += 1;
                            znode = BOTTOM;
                            best = self.dance.choose();
                            self.dance.cover(best, &mut self.updates);
                            cur = self.dance.down[best as usize];
                            levels.push(Level {
                                best,
                                cur,
                                saved: BOTTOM,
                                memo: entry,
                            });
                            Step::Advance
                        }
                    }
                }
                Step::Advance => {
                    if cur == best {
                        Step::Backup
                    } else {
                        self.dance.commit_others(cur, &mut self.updates);
                        if self.dance.next[0] == 0 {
                            // A solution: a node of its own, as in DLX6.
                            self.stats.nodes += 1;
                            zsol = TOP;
                            Step::Recover
                        } else {
                            let level = levels.last_mut().expect("a level is open");
                            level.cur = cur;
                            level.saved = znode;
                            Step::Forward
                        }
                    }
                }
                Step::Backup => {
                    self.dance.uncover(best);
                    let level = levels.pop().expect("a level is open");
                    self.memo.zdd[level.memo as usize] = znode;
                    Step::Backdown
                }
                Step::Backdown => match levels.last() {
                    None => break,
                    Some(level) => {
                        best = level.best;
                        cur = level.cur;
                        zsol = znode;
                        znode = level.saved;
                        Step::Recover
                    }
                },
                Step::Recover => {
                    self.dance.uncommit_others(cur);
                    if zsol != BOTTOM {
                        znode = self.make(self.dance.option_of(cur), znode, zsol)?;
                    }
                    cur = self.dance.down[cur as usize];
                    Step::Advance
                }
            };
        }
        self.stats.bytes = self.bytes();
        Ok(znode)
    }
}
