//! *Sparse bitsets*: bitsets of available options for problems too large
//! for [`super::bits`], with memory linear in the entries.
//!
//! One bitset holds the options still available. Each item keeps its
//! options as bits over only the words of that set that hold one of them
//! (its *slots*: a word index and a mask each), or, where its options are
//! spread thinner than two to a word, as a list. Removing an option clears
//! its bit and lowers the count of each of its primary items, which the
//! branching rule reads; secondary items keep no count, so an option's
//! secondary items cost nothing when it goes. A colored secondary item also
//! keeps, per color and where that takes at most four words per entry of
//! its list, the bits of its options that clash with that color, laid out
//! as its slots; once a committed option has fixed its color, another
//! option of that color skips it.
//!
//! Each removal saves the word it changes on a trail (its index and old
//! value), and each fixed color its item; undoing pops them. With few
//! primary items each level also keeps copies of the counts, which undoing
//! copies back; with more, undoing raises the counts of the options that
//! come back (the bits set in the old value and clear in the current one).
//! The tree is dancing links' (first item of fewest options, options in
//! the problem's order), and a commit stops once an open primary item has
//! no options left, as dancing cells do.

use std::sync::Arc;

use super::slots::{slots, SLOTS_PER_ENTRY};
use super::{pick, Frame, Structure};
use crate::problem::{ColorId, OptionId, Problem};
use crate::unchecked::At;

/// No item ran out; no option committed.
const NONE: u32 = u32::MAX;

/// Marks a covered primary item in its count.
const CLOSED: u32 = 1 << 31;

/// The most primary items for which the branching rule reads every count
/// (a pass for the least, a pass for the first that low, both over plain
/// `u32`s); with more, it walks the bits of the open items.
/// PERF: de-bruijn-3-4-7 (140 primary items); see DESIGN.md, "Sparse
/// bitsets".
const SCAN_ALL: u32 = 1024;

/// The most primary items for which each level keeps copies of the
/// counts (as they were before its item was covered, and right after), so
/// that undoing copies them back instead of raising the count of each
/// option that comes back.
/// PERF: de-bruijn-3-4-7 (140 primary items); see DESIGN.md, "Sparse
/// bitsets".
const SNAP_ITEMS: u32 = 256;

/// Marks a trail entry that fixed the color of the secondary item below
/// it (word indices stay below `2^26`).
const FIXED: u32 = 1 << 31;

/// How an item finds its options.
#[derive(Clone, Copy, Debug, Default)]
struct Span {
    /// Its list: `list[list_start..list_end]`, in option order.
    list_start: u32,
    list_end: u32,
    /// Its slots, `slot_word/slot_bits[slot_start..slot_end]`; empty when
    /// the item walks its list.
    slot_start: u32,
    slot_end: u32,
}

/// The layout no search changes (the items' spans, slots and lists, the
/// options' entries, the clash bits and the item maps) is shared by
/// clones, as [`super::bits::Bits`]' rows are.
#[derive(Clone, Debug)]
pub(crate) struct Sparse {
    /// Available options, one bit each.
    avail: Vec<u64>,
    /// Per primary item: its available options, with [`CLOSED`] set once
    /// it is covered.
    count: Vec<u32>,
    /// Primary items still to cover, one bit each; kept only past
    /// [`SCAN_ALL`] primary items.
    open: Vec<u64>,
    /// How many primary items are still to cover.
    n_open: u32,
    /// Per item (primary items first, each kind in declaration order).
    span: Arc<[Span]>,
    slot_word: Arc<[u32]>,
    slot_bits: Arc<[u64]>,
    /// Per item, its options and their colors, in option order.
    list: Arc<[(u32, ColorId)]>,
    /// Per color of a colored secondary item: the bits of its options that
    /// do not give it that color, laid out as its slots, one run per
    /// (item, color).
    clash_bits: Arc<[u64]>,
    /// Per option: its entries `entry_*[option_start[o]..option_start[o + 1]]`.
    option_start: Arc<[u32]>,
    entry_item: Arc<[u32]>,
    entry_color: Arc<[u32]>,
    /// Per entry: where the clash bits of its color start in `clash_bits`, or
    /// [`NONE`] (no color, or an item that walks its list for colors).
    entry_bits: Arc<[u32]>,
    /// Per option: its primary items `primary[primary_start[o]..primary_start[o + 1]]`.
    primary_start: Arc<[u32]>,
    primary: Arc<[u32]>,
    /// Per secondary item (less `n1`): the color a committed option gave
    /// it, or 0.
    fixed: Vec<u32>,
    /// Saved words: (word index, old value), or ([`FIXED`] + item, 0) for
    /// a color fixed; the first `trail_len` are in use. Each entry removes
    /// an option or fixes a color, so one per option and secondary item
    /// always suffices.
    trail: Vec<(u32, u64)>,
    trail_len: u32,
    /// Per level, the options its item had when entered; the first
    /// `cand_len` are in use. An option is a candidate at one level at
    /// most, so one per option suffices.
    cand: Vec<u32>,
    cand_len: u32,
    /// Up to [`SNAP_ITEMS`] primary items: per level, two copies of
    /// `count` (before its item was covered, and right after); the first
    /// `snap_len` are in use. A level covers an item, so `n1` levels at most.
    snap: Vec<u32>,
    snap_len: u32,
    /// Number of primary items: items `0..n1` are primary.
    n1: u32,
    /// Item index → item id.
    item_id: Arc<[u32]>,
    /// Item id → index.
    index_of: Arc<[u32]>,
    /// An open primary item the last commit left with no options, or
    /// [`NONE`].
    dead: u32,
    /// Whether a commit stops at such an item.
    stop: bool,
}

/// Whether `problem` can be laid out in `u32` offsets.
pub(crate) fn fits<L>(problem: &Problem<L>) -> bool {
    let entries = problem.num_entries() as u64;
    // Color bits take at most SLOTS_PER_ENTRY words per entry.
    entries * SLOTS_PER_ENTRY as u64 + problem.num_options() as u64 + 64 < u32::MAX as u64
}

impl Sparse {
    pub fn new<L>(problem: &Problem<L>) -> Sparse {
        let n_opts = problem.num_options();
        let w = n_opts.div_ceil(64).max(1);
        let (index_of, item_id) = super::primary_first(problem);
        let n = item_id.len();
        let n1 = problem.num_primary() as u32;
        // Per item id, its (option, color) list in option order.
        let mut item_start = vec![0usize; n + 1];
        for o in problem.option_ids() {
            for e in problem.option(o) {
                item_start[e.item.index() + 1] += 1;
            }
        }
        for i in 0..n {
            item_start[i + 1] += item_start[i];
        }
        let mut fill = item_start.clone();
        let mut list = vec![(0u32, ColorId::NONE); problem.num_entries()];
        let mut option_start = Vec::with_capacity(n_opts + 1);
        let mut entry_item = Vec::with_capacity(problem.num_entries());
        let mut entry_color = Vec::with_capacity(problem.num_entries());
        let mut primary_start = Vec::with_capacity(n_opts + 1);
        let mut primary = Vec::new();
        option_start.push(0);
        primary_start.push(0);
        for o in problem.option_ids() {
            for e in problem.option(o) {
                let at = &mut fill[e.item.index()];
                list[*at] = (o.index() as u32, e.color);
                *at += 1;
                let k = index_of[e.item.index()];
                entry_item.push(k);
                entry_color.push(e.color.0);
                if k < n1 {
                    primary.push(k);
                }
            }
            option_start.push(entry_item.len() as u32);
            primary_start.push(primary.len() as u32);
        }
        let mut slots = slots(problem, &item_start, &list, false);
        // Offsets fit in `u32`: `fits` bounds the entries.
        let span: Vec<Span> = item_id
            .iter()
            .map(|&id| {
                let (slot_start, slot_end) = slots.item_slots[id as usize];
                Span {
                    list_start: item_start[id as usize] as u32,
                    list_end: item_start[id as usize + 1] as u32,
                    slot_start,
                    slot_end,
                }
            })
            .collect();
        // Each color's bits become those of the item's options that clash
        // with it: the item's bits less that color's.
        for &(id, _, off) in &slots.color_start {
            let (start, end) = slots.item_slots[id as usize];
            for j in 0..end - start {
                slots.color_bits[(off + j) as usize] ^= slots.slot_bits[(start + j) as usize];
            }
        }
        let entry_bits: Vec<u32> = entry_item
            .iter()
            .zip(&entry_color)
            .map(|(&k, &c)| {
                let key = (item_id[k as usize], ColorId(c));
                match slots
                    .color_start
                    .binary_search_by_key(&key, |&(id, c, _)| (id, c))
                {
                    Ok(at) if c != 0 => slots.color_start[at].2,
                    _ => NONE,
                }
            })
            .collect();
        let mut avail = vec![0u64; w];
        for o in 0..n_opts {
            avail[o / 64] |= 1 << (o % 64);
        }
        let count = (0..n1 as usize)
            .map(|k| span[k].list_end - span[k].list_start)
            .collect();
        let mut open = Vec::new();
        if n1 > SCAN_ALL {
            open = vec![0u64; (n1 as usize).div_ceil(64)];
            for k in 0..n1 as usize {
                open[k / 64] |= 1 << (k % 64);
            }
        }
        Sparse {
            avail,
            count,
            open,
            n_open: n1,
            span: span.into(),
            slot_word: slots.slot_word.into(),
            slot_bits: slots.slot_bits.into(),
            list: list.into(),
            clash_bits: slots.color_bits.into(),
            option_start: option_start.into(),
            entry_item: entry_item.into(),
            entry_color: entry_color.into(),
            entry_bits: entry_bits.into(),
            primary_start: primary_start.into(),
            primary: primary.into(),
            fixed: vec![0; n - n1 as usize],
            trail: vec![(0, 0); n_opts + n + 1],
            trail_len: 0,
            cand: vec![0; n_opts + 1],
            cand_len: 0,
            snap: if n1 <= SNAP_ITEMS {
                vec![0; 2 * n1 as usize * (n1 as usize + 1)]
            } else {
                Vec::new()
            },
            snap_len: 0,
            n1,
            item_id: item_id.into(),
            index_of: index_of.into(),
            dead: NONE,
            stop: true,
        }
    }

    /// Whether `self` and `other` read one copy of the layout.
    #[cfg(test)]
    pub fn shares_with(&self, other: &Sparse) -> bool {
        Arc::ptr_eq(&self.list, &other.list) && Arc::ptr_eq(&self.slot_bits, &other.slot_bits)
    }

    /// Pushes `(wd, old)` on the trail.
    #[inline(always)]
    fn save(&mut self, wd: u32, old: u64) {
        *self.trail.at_mut(self.trail_len) = (wd, old);
        self.trail_len += 1;
    }

    /// Pushes option `o` on the candidate stack.
    #[inline(always)]
    fn push_cand(&mut self, o: u32) {
        *self.cand.at_mut(self.cand_len) = o;
        self.cand_len += 1;
    }

    #[inline(always)]
    fn is_avail(&self, o: u32) -> bool {
        self.avail.at(o / 64) >> (o % 64) & 1 != 0
    }

    #[inline(always)]
    fn close(&mut self, k: u32) {
        *self.count.at_mut(k) |= CLOSED;
        if self.n1 > SCAN_ALL {
            *self.open.at_mut(k / 64) &= !(1 << (k % 64));
        }
        self.n_open -= 1;
    }

    #[inline(always)]
    fn reopen(&mut self, k: u32) {
        *self.count.at_mut(k) &= !CLOSED;
        if self.n1 > SCAN_ALL {
            *self.open.at_mut(k / 64) |= 1 << (k % 64);
        }
        self.n_open += 1;
    }

    /// Removes the options `rem` (all available) of word `wd`, saving the
    /// word and lowering the counts of their primary items. With `check`,
    /// notes an open primary item left with none in `dead` (a covered one
    /// keeps [`CLOSED`] in its count, so never reads zero).
    #[inline(always)]
    fn remove(&mut self, wd: u32, mut rem: u64, check: bool) {
        let old = self.avail.at(wd);
        self.save(wd, old);
        *self.avail.at_mut(wd) = old & !rem;
        while rem != 0 {
            let o = wd * 64 + rem.trailing_zeros();
            rem &= rem - 1;
            let (a, b) = (self.primary_start.at(o), self.primary_start.at(o + 1));
            for j in a..b {
                let p = self.primary.at(j);
                let c = self.count.at_mut(p);
                *c -= 1;
                if check && *c == 0 {
                    self.dead = p;
                }
            }
        }
    }

    /// Removes every available option of item `k`; with `cand`, lists them
    /// on the candidate stack first. A primary item stops once its count
    /// is zero.
    #[inline(always)]
    fn remove_all(&mut self, k: u32, cand: bool, check: bool) {
        let s = self.span.at(k);
        let primary = k < self.n1;
        if primary && self.count.at(k) & !CLOSED == 0 {
            return;
        }
        if s.slot_start < s.slot_end {
            for j in s.slot_start..s.slot_end {
                let wd = self.slot_word.at(j);
                let rem = self.avail.at(wd) & self.slot_bits.at(j);
                if rem != 0 {
                    if cand {
                        let mut m = rem;
                        while m != 0 {
                            self.push_cand(wd * 64 + m.trailing_zeros());
                            m &= m - 1;
                        }
                    }
                    self.remove(wd, rem, check);
                    if primary && self.count.at(k) & !CLOSED == 0 {
                        return;
                    }
                }
            }
        } else {
            for j in s.list_start..s.list_end {
                let (o, _) = self.list.at(j);
                if self.is_avail(o) {
                    if cand {
                        self.push_cand(o);
                    }
                    self.remove(o / 64, 1 << (o % 64), check);
                    if primary && self.count.at(k) & !CLOSED == 0 {
                        return;
                    }
                }
            }
        }
    }

    /// Removes the available options of secondary item `k` that do not
    /// give it color `c` (nonzero), whose clash bits start at `bits` in
    /// `clash_bits` ([`NONE`]: walk the list).
    #[inline(always)]
    fn purify(&mut self, k: u32, c: u32, bits: u32) {
        // A second option with this color removes nothing new.
        let f = self.fixed.at_mut(k - self.n1);
        if *f == c {
            return;
        }
        *f = c;
        self.save(FIXED + k, 0);
        let s = self.span.at(k);
        if bits != NONE {
            for j in 0..s.slot_end - s.slot_start {
                let wd = self.slot_word.at(s.slot_start + j);
                let rem = self.avail.at(wd) & self.clash_bits.at(bits + j);
                if rem != 0 {
                    self.remove(wd, rem, self.stop);
                }
            }
        } else {
            for j in s.list_start..s.list_end {
                let (o, oc) = self.list.at(j);
                if oc.0 != c && self.is_avail(o) {
                    self.remove(o / 64, 1 << (o % 64), self.stop);
                }
            }
        }
    }

    /// Commits option `o`, reached by item `i`: closes its other primary
    /// items and removes the options that clash with it.
    #[inline(always)]
    fn commit(&mut self, o: u32, i: u32) {
        let (a, b) = (self.primary_start.at(o), self.primary_start.at(o + 1));
        for j in a..b {
            let p = self.primary.at(j);
            if p != i {
                self.close(p);
            }
        }
        let (a, b) = (self.option_start.at(o), self.option_start.at(o + 1));
        for j in a..b {
            let k = self.entry_item.at(j);
            if k == i {
                continue;
            }
            let c = self.entry_color.at(j);
            if c == 0 {
                self.remove_all(k, false, self.stop);
            } else {
                self.purify(k, c, self.entry_bits.at(j));
            }
            if self.dead != NONE {
                return;
            }
        }
    }

    /// Reopens the primary items of option `o` other than `i`.
    #[inline(always)]
    fn uncommit(&mut self, o: u32, i: u32) {
        let (a, b) = (self.primary_start.at(o), self.primary_start.at(o + 1));
        for j in a..b {
            let p = self.primary.at(j);
            if p != i {
                self.reopen(p);
            }
        }
    }

    /// Copies `count` to the snapshots at `at`.
    #[inline(always)]
    fn snap_counts(&mut self, at: u32) {
        let n1 = self.n1 as usize;
        self.snap[at as usize..][..n1].copy_from_slice(&self.count);
    }

    /// Copies the snapshot at `at` back to `count`.
    #[inline(always)]
    fn unsnap_counts(&mut self, at: u32) {
        let n1 = self.n1 as usize;
        self.count.copy_from_slice(&self.snap[at as usize..][..n1]);
    }

    /// Pops the trail back to `mark`, giving back the options removed since
    /// (their counts too, unless snapshots keep them).
    #[inline(always)]
    fn restore(&mut self, mark: u32) {
        let counts = self.snap.is_empty();
        while self.trail_len > mark {
            self.trail_len -= 1;
            let (wd, old) = self.trail.at(self.trail_len);
            if wd & FIXED != 0 {
                *self.fixed.at_mut(wd - FIXED - self.n1) = 0;
                continue;
            }
            let mut back = old & !self.avail.at(wd);
            *self.avail.at_mut(wd) = old;
            if !counts {
                continue;
            }
            while back != 0 {
                let o = wd * 64 + back.trailing_zeros();
                back &= back - 1;
                let (a, b) = (self.primary_start.at(o), self.primary_start.at(o + 1));
                for j in a..b {
                    *self.count.at_mut(self.primary.at(j)) += 1;
                }
            }
        }
        self.dead = NONE;
    }

    #[cfg(feature = "debug-checks")]
    fn check(&self) -> Result<(), String> {
        let is_avail = |o: u32| self.avail[o as usize / 64] >> (o % 64) & 1 != 0;
        let is_open = |p: u32| self.count[p as usize] & CLOSED == 0;
        for p in 0..self.n1 {
            let s = self.span[p as usize];
            let live = (s.list_start..s.list_end)
                .filter(|&j| is_avail(self.list[j as usize].0))
                .count() as u32;
            let count = self.count[p as usize] & !CLOSED;
            if live != count {
                return Err(format!("item {p}: count {count} for {live} options"));
            }
            if self.n1 > SCAN_ALL && (self.open[p as usize / 64] >> (p % 64) & 1 != 0) != is_open(p)
            {
                return Err(format!("item {p}: open bit and count disagree"));
            }
        }
        let open = (0..self.n1).filter(|&p| is_open(p)).count() as u32;
        if open != self.n_open {
            return Err(format!("{open} open items counted as {}", self.n_open));
        }
        Ok(())
    }
}

/// What a level of the search keeps: trail marks before its item was
/// covered and right after, where its candidates and its snapshots of the
/// counts start, and the option it has committed ([`NONE`]: none).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Level {
    before: u32,
    covered: u32,
    cand: u32,
    snap: u32,
    current: u32,
    entered: bool,
}

impl Default for Level {
    fn default() -> Self {
        Level {
            before: 0,
            covered: 0,
            cand: 0,
            snap: 0,
            current: NONE,
            entered: false,
        }
    }
}

impl Structure for Sparse {
    type Level = Level;

    fn updates(&self) -> u64 {
        0
    }

    fn set_updates(&mut self, _updates: u64) {}

    #[inline(always)]
    fn primaries_left(&mut self) -> u32 {
        self.n_open.min(2)
    }

    #[inline(always)]
    fn choose(&mut self, rng: &mut Option<u64>, enough: u32) -> u32 {
        if self.dead != NONE {
            return self.dead;
        }
        if self.n1 <= SCAN_ALL {
            let counts = &self.count[..];
            let Some(state) = rng else {
                // Covered items read at least CLOSED: never the least.
                let least = counts.iter().fold(u32::MAX, |m, &c| m.min(c));
                let target = least.max(enough);
                for (j, chunk) in counts.chunks(16).enumerate() {
                    if chunk.iter().fold(false, |a, &c| a | (c <= target)) {
                        let i = chunk.iter().position(|&c| c <= target).unwrap_or(0);
                        return (j * 16 + i) as u32;
                    }
                }
                return 0;
            };
            let (mut best, mut t, mut ties) = (0, u32::MAX, 0u64);
            for (p, &s) in counts.iter().enumerate() {
                if s & CLOSED == 0 {
                    pick(p as u32, s, &mut best, &mut t, &mut ties, state);
                }
            }
            return best;
        }
        let mut best = 0;
        let mut t = u32::MAX;
        let mut ties = 0u64;
        'scan: for k in 0..self.open.len() as u32 {
            let mut word = self.open.at(k);
            while word != 0 {
                let p = k * 64 + word.trailing_zeros();
                word &= word - 1;
                let s = self.count.at(p);
                match rng {
                    None => {
                        if s < t {
                            best = p;
                            t = s;
                            if t <= enough {
                                break 'scan;
                            }
                        }
                    }
                    Some(state) => pick(p, s, &mut best, &mut t, &mut ties, state),
                }
            }
        }
        best
    }

    #[inline(always)]
    fn len(&self, item: u32) -> u32 {
        self.count.at(item) & !CLOSED
    }

    fn enter(&mut self, frame: &mut Frame<Level>) {
        let i = frame.item;
        frame.state = Level {
            before: self.trail_len,
            cand: self.cand_len,
            snap: self.snap_len,
            entered: true,
            ..Level::default()
        };
        let snaps = !self.snap.is_empty();
        if snaps {
            self.snap_counts(self.snap_len);
            self.snap_len += 2 * self.n1;
        }
        self.close(i);
        self.remove_all(i, true, false);
        self.dead = NONE;
        frame.state.covered = self.trail_len;
        if snaps {
            self.snap_counts(frame.state.snap + self.n1);
        }
    }

    #[inline(always)]
    fn next_option(&mut self, frame: &mut Frame<Level>) -> Option<u32> {
        let i = frame.item;
        if frame.state.current != NONE {
            self.restore(frame.state.covered);
            if !self.snap.is_empty() {
                self.unsnap_counts(frame.state.snap + self.n1);
            }
            self.uncommit(frame.state.current, i);
            frame.state.current = NONE;
        }
        if frame.k == frame.d {
            self.leave(frame);
            return None;
        }
        let o = self.cand.at(frame.state.cand + frame.k);
        frame.k += 1;
        frame.state.current = o;
        self.commit(o, i);
        Some(o)
    }

    fn seek(&mut self, frame: &mut Frame<Level>, option: OptionId) -> Option<u32> {
        debug_assert_eq!(frame.state.current, NONE);
        let k = (0..frame.d).find(|&k| self.cand.at(frame.state.cand + k) == option.0)?;
        frame.k = k;
        Some(k)
    }

    fn leave(&mut self, frame: &mut Frame<Level>) {
        let i = frame.item;
        if frame.state.current != NONE {
            self.uncommit(frame.state.current, i);
            frame.state.current = NONE;
        }
        if frame.state.entered {
            self.restore(frame.state.before);
            if !self.snap.is_empty() {
                self.unsnap_counts(frame.state.snap);
                self.snap_len = frame.state.snap;
            }
            self.reopen(i);
            self.cand_len = frame.state.cand;
            frame.state.entered = false;
        }
        frame.k = frame.d;
    }

    fn set_full_commits(&mut self, on: bool) {
        self.stop = !on;
    }

    fn option_of(&self, node: u32) -> OptionId {
        OptionId(node)
    }

    fn item_id(&self, item: u32) -> crate::ItemId {
        crate::ItemId(self.item_id[item as usize])
    }

    fn index_of(&self, item: crate::ItemId) -> u32 {
        self.index_of[item.index()]
    }

    fn is_open(&mut self, item: u32) -> bool {
        item < self.n1 && self.count[item as usize] & CLOSED == 0
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A problem whose items have slots, lists, bits per color, and colors
    /// walked on lists.
    fn layout_problem() -> Problem<String> {
        let mut text = String::from("p0 p1 p2 | s0 s1\n");
        for o in 0..300 {
            let mut line = format!("p{}", o % 3);
            if o % 2 == 0 {
                line += &format!(" s0:{}", ["a", "b", "c"][o % 3]);
            }
            if o % 5 == 0 {
                line += &format!(" s1:c{o}");
            }
            text += &line;
            text.push('\n');
        }
        crate::format::parse_dlx(&text).unwrap()
    }

    #[test]
    fn layout_keeps_slots_and_color_bits_where_they_pay() {
        let p = layout_problem();
        let s = Sparse::new(&p);
        // p0..p2: 100 options each over 5 words: slots.
        for k in 0..3 {
            let sp = s.span[k];
            assert_eq!(sp.slot_end - sp.slot_start, 5);
        }
        // s0: 150 options over 5 words, 3 colors: bits per color.
        let s0 = s.index_of[p.item_by_name("s0").unwrap().index()];
        assert!(s.span[s0 as usize].slot_end > s.span[s0 as usize].slot_start);
        let e = s.entry_item.iter().position(|&k| k == s0).unwrap();
        assert_ne!(s.entry_bits[e], NONE);
        // s1: 60 options over 5 words, 60 colors: slots, colors on its list.
        let s1 = s.index_of[p.item_by_name("s1").unwrap().index()];
        let e = s.entry_item.iter().position(|&k| k == s1).unwrap();
        assert_eq!(s.entry_bits[e], NONE);
    }

    #[test]
    fn many_primary_items_walk_the_tree_of_dancing_links() {
        // Past SCAN_ALL primary items the branching rule walks the bits of
        // the open items: 1,100 items, each alone or, for the first 20, in
        // pairs, with a colored secondary item on the pairs.
        let n = 1100;
        let mut text: String = (0..n).map(|i| format!("p{i} ")).collect();
        text.push_str("| s\n");
        for i in 0..n {
            text += &format!("p{i}\n");
        }
        for k in 0..10 {
            text += &format!("p{} p{} s:{}\n", 2 * k, 2 * k + 1, k % 2);
        }
        let p = crate::format::parse_dlx(&text).unwrap();
        assert!(p.num_primary() as u32 > SCAN_ALL);
        let mut links = crate::Solver::new(&p).engine(crate::Engine::Links);
        let want = links.count().solutions;
        let mut sparse = crate::Solver::new(&p).engine(crate::Engine::Sparse);
        assert_eq!(sparse.count().solutions, want);
        assert_eq!(sparse.stats().nodes, links.stats().nodes);
        // The pairs taken all share a color: none, or a nonempty subset
        // of the five of either color.
        assert_eq!(want, 1 + 2 * 31);
    }
}
