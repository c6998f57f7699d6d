//! *Dancing cells*: the sparse-set representation of Knuth's SSXC programs.
//!
//! Each item owns a segment of the `set` array holding the nodes of its
//! options; the first `size` of them are the options still available.
//! Removing an option from an item's set swaps it behind the boundary and
//! shrinks `size`, so undoing needs only the old sizes, never the removed
//! nodes. Sizes are saved on a trail the first time an item changes after a
//! mark (a per-item stamp tells), and a backtrack pops the trail back to the
//! mark. Inactive items (covered, or secondary items whose color is fixed)
//! carry the [`INACTIVE`] bit in their size and are never updated again until
//! the trail reactivates them. Active primary items also sit in a sparse set
//! (`active[..act]`) that the branching rule scans.
//!
//! A search's commit stops once an item of the option leaves some other
//! active primary item with no options (checked after each item, so that
//! where it stops does not depend on the order of the sets): that item is
//! then the branching item, and its node fails at once. Dancing links
//! commit every item, so the updates counted here can be fewer.
//!
//! Nodes of an option are consecutive and followed by a spacer whose `loc`
//! points back at the option's first node and whose `item` encodes the
//! option's index above [`SPACER`].

use super::{pick, Frame, Structure};
use crate::problem::{OptionId, Problem};
use crate::unchecked::At;

/// Marks an item that is no longer active.
const INACTIVE: u32 = 1 << 31;
/// Spacer nodes have `item >= SPACER`; the option index is `item - SPACER`.
const SPACER: u32 = 1 << 31;
/// No item ran out.
const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, Default)]
struct Node {
    /// The item (index into `items`), or `SPACER + option` for spacers.
    item: u32,
    /// Position in the item's `set` segment; for spacers, the option's first node.
    loc: u32,
}

#[derive(Clone, Copy, Debug, Default)]
struct Item {
    /// Start of the item's segment in `set`.
    start: u32,
    /// Number of available options, with [`INACTIVE`] set when inactive.
    size: u32,
    /// The stamp of the mark at which the size was last saved.
    stamp: u32,
    /// Position in `active` (primary items only).
    pos: u32,
}

/// A point to come back to: trail length and active-primary count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Mark {
    trail: u32,
    act: u32,
}

#[derive(Clone, Debug)]
pub(crate) struct Cells {
    nodes: Vec<Node>,
    /// Node colors (0 = none); only read when purifying.
    color: Vec<u32>,
    items: Vec<Item>,
    set: Vec<u32>,
    active: Vec<u32>,
    act: u32,
    /// Number of primary items: items `0..n1` are primary.
    n1: u32,
    /// Item index → item id (declaration order).
    item_id: Vec<u32>,
    /// Item id → index.
    index_of: Vec<u32>,
    trail: Vec<(u32, u32)>,
    stamp: u32,
    updates: u64,
    /// An active primary item that the option committed last left with no
    /// options, or [`NONE`]: the commit stopped there, and
    /// [`Structure::choose`] takes that item, whose node then fails at once.
    dead: u32,
    /// The primary items left with no options since the commit began.
    zeros: Vec<u32>,
    /// Whether a commit stops at an item left with none (see
    /// [`Structure::set_full_commits`]).
    stop: bool,
}

impl Cells {
    pub fn new<L>(problem: &Problem<L>) -> Cells {
        let (index_of, item_id) = super::primary_first(problem);
        let n = item_id.len();
        let n1 = problem.num_primary() as u32;
        // Count each item's options to lay out the segments.
        let mut items = vec![Item::default(); n];
        for o in problem.option_ids() {
            for e in problem.option(o) {
                items[index_of[e.item.index()] as usize].size += 1;
            }
        }
        let mut start = 0;
        for it in &mut items {
            it.start = start;
            start += it.size;
            it.size = 0;
        }
        let mut set = vec![0u32; start as usize];
        let mut nodes = Vec::with_capacity(problem.num_entries() + problem.num_options());
        let mut color = Vec::with_capacity(nodes.capacity());
        for o in problem.option_ids() {
            let first = nodes.len() as u32;
            for e in problem.option(o) {
                let k = index_of[e.item.index()] as usize;
                let it = &mut items[k];
                let loc = it.start + it.size;
                it.size += 1;
                set[loc as usize] = nodes.len() as u32;
                nodes.push(Node {
                    item: k as u32,
                    loc,
                });
                color.push(e.color.0);
            }
            nodes.push(Node {
                item: SPACER + o.index() as u32,
                loc: first,
            });
            color.push(0);
        }
        let active: Vec<u32> = (0..n1).collect();
        for (k, it) in items.iter_mut().enumerate() {
            it.pos = k as u32;
        }
        Cells {
            nodes,
            color,
            items,
            set,
            active,
            act: n1,
            n1,
            item_id,
            index_of,
            trail: Vec::new(),
            stamp: 1,
            updates: 0,
            dead: NONE,
            zeros: Vec::new(),
            stop: true,
        }
    }

    fn mark(&mut self) -> Mark {
        self.next_stamp();
        Mark {
            trail: self.trail.len() as u32,
            act: self.act,
        }
    }

    fn next_stamp(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // After 2^32 marks, forget old stamps so none can match by accident.
            for it in &mut self.items {
                it.stamp = 0;
            }
            self.stamp = 1;
        }
    }

    fn restore(&mut self, mark: Mark) {
        while self.trail.len() > mark.trail as usize {
            let (k, size) = self.trail.pop().unwrap_or_default();
            self.items.at_mut(k).size = size;
        }
        self.act = mark.act;
        self.dead = NONE;
        self.next_stamp();
    }

    /// Saves item `k`'s size if it has not been saved since the last mark.
    #[inline(always)]
    fn save(&mut self, k: u32) {
        let stamp = self.stamp;
        let it = self.items.at_mut(k);
        if it.stamp != stamp {
            it.stamp = stamp;
            self.trail.push((k, it.size));
        }
    }

    /// Makes item `k` inactive (it must be active).
    #[inline(always)]
    fn deactivate(&mut self, k: u32) {
        self.save(k);
        self.items.at_mut(k).size |= INACTIVE;
        if k < self.n1 {
            let p = self.items.at(k).pos;
            let last = self.act - 1;
            let other = self.active.at(last);
            *self.active.at_mut(p) = other;
            self.items.at_mut(other).pos = p;
            *self.active.at_mut(last) = k;
            self.items.at_mut(k).pos = last;
            self.act = last;
        }
    }

    /// Removes the option containing node `x` from the sets of the other
    /// active items (`x`'s own item is inactive).
    #[inline(always)]
    fn hide_option(&mut self, x: u32) {
        let nodes = &mut self.nodes[..];
        let items = &mut self.items[..];
        let set = &mut self.set[..];
        let trail = &mut self.trail;
        let zeros = &mut self.zeros;
        let stamp = self.stamp;
        let n1 = self.n1;
        let mut updates = 0;
        let mut hide = |nodes: &mut [Node], q: u32, node: Node| {
            let k = node.item;
            let it = items.at_mut(k);
            if it.size & INACTIVE == 0 {
                if it.stamp != stamp {
                    it.stamp = stamp;
                    trail.push((k, it.size));
                }
                it.size -= 1;
                if it.size == 0 && k < n1 {
                    zeros.push(k);
                }
                let last = it.start + it.size;
                let y = set.at(last);
                let p = node.loc;
                *set.at_mut(last) = q;
                *set.at_mut(p) = y;
                nodes.at_mut(q).loc = last;
                nodes.at_mut(y).loc = p;
                updates += 1;
            }
        };
        // The nodes after `x` up to the spacer, then from the option's
        // first node up to `x`: each loop has one test to end it.
        let mut q = x + 1;
        loop {
            let node = nodes.at(q);
            if node.item >= SPACER {
                q = node.loc;
                break;
            }
            hide(nodes, q, node);
            q += 1;
        }
        while q != x {
            let node = nodes.at(q);
            hide(nodes, q, node);
            q += 1;
        }
        self.updates += updates;
    }

    /// Deactivates item `k` and removes all its options from other items.
    #[inline(always)]
    fn cover(&mut self, k: u32) {
        self.deactivate(k);
        let it = self.items.at(k);
        let size = it.size & !INACTIVE;
        for j in it.start..it.start + size {
            let x = self.set.at(j);
            self.hide_option(x);
        }
    }

    /// Deactivates secondary item `k` and removes its options whose color
    /// differs from `c`.
    #[inline(always)]
    fn purify(&mut self, k: u32, c: u32) {
        self.deactivate(k);
        let it = self.items.at(k);
        let size = it.size & !INACTIVE;
        for j in it.start..it.start + size {
            let x = self.set.at(j);
            if self.color.at(x) != c {
                self.hide_option(x);
            }
        }
    }

    /// Commits every item of the option of `x` other than `x`'s own.
    #[inline(always)]
    fn commit_others(&mut self, x: u32) {
        self.zeros.clear();
        let mut q = x + 1;
        loop {
            let node = self.nodes.at(q);
            if node.item >= SPACER {
                q = node.loc;
            } else {
                let k = node.item;
                if q == x {
                    break;
                }
                if self.items.at(k).size & INACTIVE == 0 {
                    let c = self.color.at(q);
                    if c == 0 {
                        self.cover(k);
                    } else {
                        self.purify(k, c);
                    }
                    // An item of this option still to be committed may have
                    // lost this option, its last: not a dead end. Any other
                    // item left with none is, and the commit stops. Which
                    // items are left with none after each item does not
                    // depend on the order of the sets, so neither do the
                    // updates counted.
                    if self.stop {
                        for j in 0..self.zeros.len() {
                            let z = self.zeros.at(j as u32);
                            if !self.holds(x, z) {
                                self.dead = z;
                                return;
                            }
                        }
                    }
                    self.zeros.clear();
                }
                q += 1;
            }
            if q == x {
                break;
            }
        }
    }

    /// Whether the option of node `x` holds item `k`.
    fn holds(&self, x: u32, k: u32) -> bool {
        let mut q = x;
        loop {
            let node = self.nodes.at(q);
            if node.item >= SPACER {
                q = node.loc;
            } else {
                if node.item == k {
                    return true;
                }
                q += 1;
            }
            if q == x {
                return false;
            }
        }
    }

    #[cfg(feature = "debug-checks")]
    fn check(&self) -> Result<(), String> {
        for (k, it) in self.items.iter().enumerate() {
            let size = it.size & !INACTIVE;
            for j in it.start..it.start + size {
                let x = self.set.at(j);
                if self.nodes.at(x).item != k as u32 || self.nodes.at(x).loc != j {
                    return Err(format!("item {k}: set slot {j} is inconsistent"));
                }
            }
        }
        for p in 0..self.act {
            let k = self.active.at(p);
            if self.items.at(k).pos != p || self.items.at(k).size & INACTIVE != 0 {
                return Err(format!("active list slot {p} is inconsistent"));
            }
        }
        Ok(())
    }
}

/// What a level of the search keeps: the state before its item was
/// covered, and right after (before any option).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Level {
    before: Mark,
    covered: Mark,
}

impl Structure for Cells {
    type Level = Level;
    // The active items are kept in no order.
    const STOPS_AT_LEFTMOST: bool = false;

    fn updates(&self) -> u64 {
        self.updates
    }

    fn set_updates(&mut self, updates: u64) {
        self.updates = updates;
    }

    #[inline(always)]
    fn primaries_left(&mut self) -> u32 {
        self.act.min(2)
    }

    #[inline(always)]
    fn choose(&mut self, rng: &mut Option<u64>, enough: u32) -> u32 {
        if self.dead != NONE {
            return self.dead;
        }
        let mut best = u32::MAX;
        let mut t = u32::MAX;
        match rng {
            None => {
                for &k in &self.active[..self.act as usize] {
                    let s = self.items.at(k).size;
                    if s < t || (s == t && k < best) {
                        best = k;
                        t = s;
                        if t <= enough {
                            break;
                        }
                    }
                }
            }
            Some(state) => {
                let mut ties = 0u64;
                for &k in &self.active[..self.act as usize] {
                    let s = self.items.at(k).size;
                    pick(k, s, &mut best, &mut t, &mut ties, state);
                }
            }
        }
        best
    }

    #[inline(always)]
    fn len(&self, item: u32) -> u32 {
        self.items.at(item).size & !INACTIVE
    }

    fn enter(&mut self, frame: &mut Frame<Level>) {
        frame.state.before = self.mark();
        self.cover(frame.item);
        // Only a commit stops at an item left with none.
        self.dead = NONE;
        frame.state.covered = self.mark();
    }

    #[inline(always)]
    fn next_option(&mut self, frame: &mut Frame<Level>) -> Option<u32> {
        if frame.k > 0 {
            self.restore(frame.state.covered);
        }
        if frame.k == frame.d {
            self.restore(frame.state.before);
            return None;
        }
        let x = self.set[(self.items[frame.item as usize].start + frame.k) as usize];
        frame.k += 1;
        self.commit_others(x);
        Some(x)
    }

    fn seek(&mut self, frame: &mut Frame<Level>, option: OptionId) -> Option<u32> {
        debug_assert_eq!(frame.k, 0);
        let start = self.items[frame.item as usize].start;
        let k = (0..frame.d).find(|&k| self.option_of(self.set[(start + k) as usize]) == option)?;
        // `next_option` restores to the mark right after the cover (a mark
        // nothing has passed yet) and commits the option at `k`.
        frame.k = k;
        Some(k)
    }

    fn leave(&mut self, frame: &mut Frame<Level>) {
        self.restore(frame.state.before);
        frame.k = frame.d;
    }

    fn set_full_commits(&mut self, on: bool) {
        self.stop = !on;
    }

    fn option_of(&self, mut x: u32) -> OptionId {
        while self.nodes.at(x).item < SPACER {
            x += 1;
        }
        OptionId(self.nodes.at(x).item - SPACER)
    }

    fn item_id(&self, item: u32) -> crate::ItemId {
        crate::ItemId(self.item_id[item as usize])
    }

    fn index_of(&self, item: crate::ItemId) -> u32 {
        self.index_of[item.index()]
    }

    fn is_open(&mut self, item: u32) -> bool {
        self.items.at(item).size & INACTIVE == 0
    }

    fn debug_check(&self) -> Result<(), String> {
        #[cfg(feature = "debug-checks")]
        {
            self.check()
        }
        #[cfg(not(feature = "debug-checks"))]
        {
            Ok(())
        }
    }
}
