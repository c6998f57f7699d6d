//! *Item masks*: a representation for problems whose items have at most 64
//! options and whose options have at most 8 items, without colors.
//!
//! Each item keeps its remaining options as one machine word: bit `k` stands
//! for the item's `k`-th option in declaration order. Covering an item walks
//! the set bits of its word; removing an option clears its bit in the words
//! of its other items and lowers their *keys*, the option counts that the
//! branching rule reads. Options are stored with a fixed stride (the longest
//! option's length); shorter ones are padded with a dummy item whose key
//! never matters.
//!
//! An item's key and word share one integer, a [`Cell`], the key above the
//! word. An active primary item's key is its number of options; a secondary
//! item's adds [`SECONDARY`], a covered item's adds [`CLOSED`], so the
//! branching rule takes a plain minimum over all cells (a vectorisable scan)
//! and never picks either. While committing an option, every item
//! whose key falls to 1 or 0 is noted, so that [`crate::Solver::forced_first`]
//! finds a forced item without scanning. With it (and no trace) the structure
//! also takes such forced moves itself, right after the option that forced
//! them, sparing the search loop's per-level work: each still counts as a
//! node, and the solution is read off the path of committed options.
//!
//! Nothing is undone option by option. At a level with two or more options
//! the state (the cells and the count of active primary items) is copied
//! before the first option and copied back before each of the others; a level
//! with one option copies nothing (and neither do forced moves taken inside
//! a level, nor a level that runs out). Backing up through such levels leaves the
//! state *stale* (that of a deeper node) until a level with a copy restores
//! it, which is all the search loop needs. Every other caller gets a settled
//! state: the structure records the options committed along the path and, when
//! needed, restores the nearest copy and commits the options after it again.

use super::{next_random, Frame, Structure};
use crate::problem::{ItemId, ItemKind, OptionId, Problem};
use crate::unchecked::At;

/// The most options an item may have.
pub(crate) const MAX_ITEM_OPTIONS: usize = 64;

/// An item's whole state in one unsigned integer: its *key* (see the
/// module docs) in the high half and its remaining options, one bit each,
/// in the low half. Removing an option is then one read-modify-write (clear
/// the bit, subtract one from the key), the smallest cell holds the
/// smallest key, and the state copied at a branch is one array. The
/// narrowest cell that fits makes those copies smaller.
/// PERF: faster than separate arrays of words and keys on top95
/// (bench/sudoku, one thread; the figures: DESIGN.md, "Four
/// representations").
pub(crate) trait Cell: Copy + Ord + Default + std::fmt::Debug {
    /// The most options an item may have.
    const BITS: u32;
    /// The cell with key `key` and options `word`.
    fn new(key: i16, word: u64) -> Self;
    fn key(self) -> i16;
    fn word(self) -> u64;
    /// The cell with `delta` added to its key.
    fn add_key(self, delta: i16) -> Self;
    /// The cell without options, its key kept.
    fn emptied(self) -> Self;
    /// The entry that stands for bit `bit` of item `item`'s word.
    fn entry(item: u32, bit: u32) -> u32;
    /// Clears the bit that `entry` stands for and lowers its item's key,
    /// returning the item and its new cell.
    fn remove(cells: &mut [Self], entry: u32) -> (u32, Self);
    /// The position of the first of `cells` (blocks of [`BLOCK`]) below
    /// `limit`.
    #[inline(always)]
    fn first_below(cells: &[Self], limit: Self) -> Option<usize> {
        first_below_in_blocks(cells, limit)
    }
}

/// [`Cell::first_below`], a block of [`BLOCK`] cells at a time, portably.
#[inline(always)]
fn first_below_in_blocks<C: Cell>(cells: &[C], limit: C) -> Option<usize> {
    for (b, block) in cells.chunks_exact(BLOCK).enumerate() {
        let mut hit = 0u32;
        for (i, &c) in block.iter().enumerate() {
            hit |= u32::from(c < limit) << i;
        }
        if hit != 0 {
            return Some(b * BLOCK + hit.trailing_zeros() as usize);
        }
    }
    None
}

macro_rules! cell {
    ($t:ty, $half:expr) => {
        impl Cell for $t {
            const BITS: u32 = $half;
            #[inline(always)]
            fn new(key: i16, word: u64) -> Self {
                (key as $t) << $half | word as $t
            }
            #[inline(always)]
            fn key(self) -> i16 {
                (self >> $half) as i16
            }
            #[inline(always)]
            fn word(self) -> u64 {
                (self & ((1 << $half) - 1)) as u64
            }
            #[inline(always)]
            fn add_key(self, delta: i16) -> Self {
                self.wrapping_add((delta as $t) << $half)
            }
            #[inline(always)]
            fn emptied(self) -> Self {
                self >> $half << $half
            }
            #[inline(always)]
            fn entry(item: u32, bit: u32) -> u32 {
                item << 6 | bit
            }
            #[inline(always)]
            fn remove(cells: &mut [Self], entry: u32) -> (u32, Self) {
                let item = entry >> 6;
                let cell = cells.at_mut(item);
                let v = (*cell & !(1 << (entry & 63))) - (1 << $half);
                *cell = v;
                (item, v)
            }
        }
    };
}

cell!(u64, 32);
cell!(u128, 64);

/// Items of 16 options or fewer; the entries of [`Masks::others`] hold the
/// mask to apply themselves, so the item index must fit 16 bits.
/// PERF: fewer instructions per entry (DESIGN.md, "Measurements",
/// code-level choices).
impl Cell for u32 {
    const BITS: u32 = 16;
    #[inline(always)]
    fn new(key: i16, word: u64) -> Self {
        (key as u32) << 16 | word as u32
    }
    #[inline(always)]
    fn key(self) -> i16 {
        (self >> 16) as i16
    }
    #[inline(always)]
    fn word(self) -> u64 {
        u64::from(self & 0xFFFF)
    }
    #[inline(always)]
    fn add_key(self, delta: i16) -> Self {
        self.wrapping_add((delta as u32) << 16)
    }
    #[inline(always)]
    fn emptied(self) -> Self {
        self & 0xFFFF_0000
    }
    #[inline(always)]
    fn entry(item: u32, bit: u32) -> u32 {
        item << 16 | u32::from(!(1u16 << bit))
    }
    /// Every key is at most [`TOP`] (`i16::MAX`), so every cell is below
    /// `i32::MAX`, as [`crate::unchecked::first_below_avx2`] needs.
    #[inline(always)]
    fn first_below(cells: &[Self], limit: Self) -> Option<usize> {
        crate::unchecked::first_below_avx2(cells, limit)
            .unwrap_or_else(|| first_below_in_blocks(cells, limit))
    }
    #[inline(always)]
    fn remove(cells: &mut [Self], entry: u32) -> (u32, Self) {
        let item = entry >> 16;
        let cell = cells.at_mut(item);
        let v = (*cell & (entry | 0xFFFF_0000)) - 0x1_0000;
        *cell = v;
        (item, v)
    }
}

/// The most items an option may have.
pub(crate) const MAX_OPTION_ITEMS: usize = 8;

/// Added to the key of a secondary item.
const SECONDARY: i16 = 0x2000;
/// Added to the key of a covered item.
const CLOSED: i16 = 0x4000;
/// The key of the dummy item and of the padding after the last item. The
/// dummy's falls by one for each padded option removed on the way down, at
/// most [`MAX_PADDED`] times, and stays above every other key.
const TOP: i16 = i16::MAX;
/// The most options shorter than the longest.
const MAX_PADDED: usize = 0x1000;
/// Keys are scanned in blocks of this many.
const BLOCK: usize = 16;

/// The most bytes of cells [`suits`] lets item masks copy at a branch.
const SUITED_BYTES: usize = 16 << 10;

/// The bits in a cell for `problem`: 32 (items of at most 16 options, item
/// indices of 16 bits), 64 (32 options) or 128.
pub(crate) fn cell_bits<L>(problem: &Problem<L>) -> usize {
    match problem.widest_item() {
        0..=16 if problem.num_items() < u16::MAX as usize => 32,
        0..=32 => 64,
        _ => 128,
    }
}

/// Whether item masks are the engine of choice for `problem`: it fits,
/// the cells a branch copies (and the branching rule scans) take at most
/// [`SUITED_BYTES`], and its options have 3 items or more on average.
/// Past those bytes, links win (the times a node on 25x25 and 36x36
/// sudokus: DESIGN.md, "Four representations"). Options of one or two
/// items leave links and bitsets little to update at a node, less than a
/// copy and a scan of every item's cell: perfect matchings on 600
/// vertices (6,000 edges, 4.8 KB of cells) took 1.75 s for 2,000,000
/// nodes on masks and 0.10 s on links.
pub(crate) fn suits<L>(problem: &Problem<L>) -> bool {
    fits(problem)
        && problem.num_items() * cell_bits(problem) / 8 <= SUITED_BYTES
        && problem.num_entries() >= 3 * problem.num_options()
}

/// Whether `problem` can use item masks.
pub(crate) fn fits<L>(problem: &Problem<L>) -> bool {
    if problem.has_colors() || problem.has_multiplicities() || problem.num_items() >= 1 << 26 {
        return false;
    }
    let longest = problem.longest_option();
    longest <= MAX_OPTION_ITEMS
        && problem.widest_item() <= MAX_ITEM_OPTIONS
        && problem
            .option_ids()
            .filter(|&o| problem.option(o).len() < longest)
            .count()
            <= MAX_PADDED
}

#[derive(Clone, Debug)]
pub(crate) struct Masks<C> {
    /// Entries per option.
    stride: usize,
    /// `ent[o * stride + e]`: item `<< 6 |` the option's position among the
    /// item's options.
    ent: Vec<u32>,
    /// Per option: how many of its items are primary, and how many it has.
    primaries: Vec<u8>,
    lens: Vec<u8>,
    /// Per item: where its options start in `item_opts`.
    item_start: Vec<u32>,
    /// The options of each item, in declaration order.
    item_opts: Vec<u32>,
    /// Per item and option (in `item_opts` order), `stride - 1` entries:
    /// the option's entries for its other items, then padding.
    others: Vec<u32>,
    /// Per item (and the dummy item last), padded to a multiple of
    /// [`BLOCK`]: its key and remaining options.
    cells: Vec<C>,
    /// Active primary items.
    open: u32,
    /// Items whose key fell to 0 or 1 during the last commit.
    forced: Vec<u32>,
    num_forced: usize,
    /// Saved states: cells, and (position on the path, open count).
    saved_cells: Vec<C>,
    saved: Vec<(u32, u32)>,
    /// The options committed from the root, in order (longer than `depth`
    /// while the state is stale).
    path: Vec<u32>,
    /// The number of options the state should hold.
    depth: u32,
    stale: bool,
    num_items: usize,
    /// Whether `next_option` follows forced moves ([`Masks::follow`]).
    chain: bool,
    /// Options committed by `follow` since [`Structure::chained`] last ran.
    chained: u64,
    /// The item the last choice returned when it took the least key (a
    /// choice without `enough`), until the state next changes;
    /// `u32::MAX` otherwise.
    least_item: u32,
    /// The least key of the state the last commit was made from, where
    /// the search chose that commit's item by it; -1 otherwise. From 1 up,
    /// no item had no options then, so every item that has none now was
    /// noted by that commit; from 2 up, every item with at most one.
    before: i16,
}

impl<C: Cell> Masks<C> {
    /// Builds the structure; `problem` must satisfy [`fits`], and no item
    /// may have more than `C::BITS` options.
    pub fn new<L>(problem: &Problem<L>) -> Masks<C> {
        let n = problem.num_items();
        let dummy = n;
        let stride = problem.longest_option().max(1);
        // Each item's options, in declaration order, by counting sort.
        let mut item_start = vec![0u32; n + 2];
        for i in 0..n {
            item_start[i + 1] = item_start[i] + problem.item_len(ItemId(i as u32)) as u32;
        }
        item_start[n + 1] = item_start[n];
        let num_options = problem.num_options();
        let mut item_opts = vec![0u32; item_start[n] as usize];
        let mut fill: Vec<u32> = item_start[..n].to_vec();
        let mut ent = vec![(dummy as u32) << 6; num_options * stride];
        let mut primaries = vec![0u8; num_options];
        let mut lens = vec![0u8; num_options];
        let primary: Vec<bool> = problem
            .item_ids()
            .map(|i| problem.item_kind(i) == ItemKind::Primary)
            .collect();
        for o in problem.option_ids() {
            let entries = problem.option(o);
            let row = &mut ent[o.index() * stride..][..entries.len()];
            let mut p = 0;
            for (x, e) in row.iter_mut().zip(entries) {
                let i = e.item.index();
                *x = (i as u32) << 6 | (fill[i] - item_start[i]);
                item_opts[fill[i] as usize] = o.0;
                fill[i] += 1;
                p += u8::from(primary[i]);
            }
            primaries[o.index()] = p;
            lens[o.index()] = entries.len() as u8;
        }
        let keys = (n + 1).div_ceil(BLOCK) * BLOCK;
        let mut cells = vec![C::new(TOP, 0); keys];
        for (i, cell) in cells.iter_mut().enumerate().take(n) {
            let len = (item_start[i + 1] - item_start[i]) as usize;
            debug_assert!(len <= C::BITS as usize);
            let all = match len {
                0 => 0,
                len => u64::MAX >> (64 - len),
            };
            let mut key = len as i16;
            if !primary[i] {
                key += SECONDARY;
            }
            *cell = C::new(key, all);
        }
        // Each item appears once in an option, so one entry of the option's
        // row goes: its own.
        let rest = stride - 1;
        let mut others = vec![0u32; item_opts.len() * rest];
        if rest > 0 {
            for (o, row) in ent.chunks_exact(stride).enumerate() {
                // Entry k's item holds the option at position `x & 63`; its
                // row there gets the option's other entries.
                for (k, &x) in row[..usize::from(lens[o])].iter().enumerate() {
                    let at = (item_start[(x >> 6) as usize] + (x & 63)) as usize * rest;
                    let to = &mut others[at..at + rest];
                    let (before, after) = to.split_at_mut(k);
                    for (t, &y) in before.iter_mut().zip(&row[..k]) {
                        *t = C::entry(y >> 6, y & 63);
                    }
                    for (t, &y) in after.iter_mut().zip(&row[k + 1..]) {
                        *t = C::entry(y >> 6, y & 63);
                    }
                }
            }
        }
        let open = problem.num_primary() as u32;
        let mut masks = Masks {
            stride,
            ent,
            primaries,
            lens,
            item_start,
            item_opts,
            others,
            cells,
            open,
            forced: vec![0; stride * stride * MAX_ITEM_OPTIONS],
            num_forced: 0,
            saved_cells: Vec::new(),
            saved: Vec::new(),
            path: Vec::new(),
            depth: 0,
            stale: false,
            num_items: n,
            chain: false,
            chained: 0,
            least_item: u32::MAX,
            before: -1,
        };
        // The root's copy, never discarded.
        masks.save();
        masks
    }

    /// Pushes a copy of the state, at the current depth.
    fn save(&mut self) {
        self.saved_cells.extend_from_slice(&self.cells);
        self.saved.push((self.depth, self.open));
    }

    /// Copies saved state `slot` back and drops the path after it.
    #[inline(always)]
    fn restore(&mut self, slot: usize) {
        let w = self.cells.len();
        self.cells
            .copy_from_slice(&self.saved_cells[slot * w..(slot + 1) * w]);
        let (depth, open) = self.saved[slot];
        self.open = open;
        self.path.truncate(depth as usize);
        self.depth = depth;
        self.num_forced = 0;
        self.least_item = u32::MAX;
        self.before = -1;
        self.stale = false;
    }

    /// Drops saved states above `slot`.
    fn discard_above(&mut self, slot: usize) {
        self.saved.truncate(slot + 1);
        self.saved_cells.truncate((slot + 1) * self.cells.len());
    }

    /// Brings a stale state to `depth` options: restores the deepest copy at
    /// or above that depth and commits the path's options after it again.
    #[inline(always)]
    fn settle(&mut self) {
        if self.stale {
            self.settle_now();
        }
    }

    #[cold]
    #[inline(never)]
    fn settle_now(&mut self) {
        let target = self.depth;
        let slot = self
            .saved
            .iter()
            .rposition(|&(d, _)| d <= target)
            .unwrap_or(0);
        self.discard_above(slot);
        let path = std::mem::take(&mut self.path);
        self.restore(slot);
        for &o in &path[self.depth as usize..target as usize] {
            self.commit(o);
        }
        self.path = path;
        self.path.truncate(target as usize);
        self.depth = target;
        self.num_forced = 0;
    }

    /// The option at bit `bit` of item `item`'s word.
    #[inline(always)]
    fn option_at(&self, item: usize, bit: u32) -> u32 {
        self.item_opts.at(self.item_start.at(item as u32) + bit)
    }

    /// Covers every item of option `o` (which must be available) and
    /// removes every option that shares one, noting items left with at most
    /// one option.
    #[inline(always)]
    fn commit(&mut self, o: u32) {
        self.commit_noting::<true>(o);
    }

    /// [`Masks::commit`], noting items left with at most one option only
    /// when `NOTE` is set (else nothing is noted).
    #[inline(always)]
    fn commit_noting<const NOTE: bool>(&mut self, o: u32) {
        // PERF: a loop of known length per removed option is unrolled.
        match self.stride {
            1 => self.commit_with::<1, NOTE>(o),
            2 => self.commit_with::<2, NOTE>(o),
            3 => self.commit_with::<3, NOTE>(o),
            4 => self.commit_with::<4, NOTE>(o),
            5 => self.commit_with::<5, NOTE>(o),
            6 => self.commit_with::<6, NOTE>(o),
            7 => self.commit_with::<7, NOTE>(o),
            _ => self.commit_with::<8, NOTE>(o),
        }
    }

    /// [`Masks::commit_noting`] with a stride of `S` entries.
    #[inline(always)]
    fn commit_with<const S: usize, const NOTE: bool>(&mut self, o: u32) {
        let stride = S as u32;
        let ent = &self.ent[..];
        let item_start = &self.item_start[..];
        let others = &self.others[..];
        let cells = &mut self.cells[..];
        let forced = &mut self.forced[..];
        let mut n = 0u32;
        // The dummy item is never covered; it only absorbs the padding's
        // updates, which keep its key far above every other.
        let first = o * stride;
        let last = first + u32::from(self.lens.at(o));
        for e in first..last {
            let j = ent.at(e) >> 6;
            *cells.at_mut(j) = cells.at(j).add_key(CLOSED);
        }
        // Each option of a covered item goes from its other items (the
        // covered item's own word is cleared at once, and its key, above
        // `CLOSED`, is never read).
        let rest = stride - 1;
        // Cells below this one have keys of 1 or 0.
        let two = C::new(2, 0);
        for e in first..last {
            let j = ent.at(e) >> 6;
            let cell = cells.at(j);
            let mut bits = cell.word();
            *cells.at_mut(j) = cell.emptied();
            let base = item_start.at(j);
            while bits != 0 {
                let row = others.from((base + bits.trailing_zeros()) * rest);
                bits &= bits - 1;
                for f in 0..rest {
                    let (k, v) = C::remove(cells, row.at(f));
                    if NOTE {
                        *forced.at_mut(n) = k;
                        n += u32::from(v < two);
                    }
                }
            }
        }
        self.num_forced = n as usize;
        self.least_item = u32::MAX;
        self.before = -1;
        self.open -= u32::from(self.primaries.at(o));
        self.path.push(o);
        self.depth += 1;
    }

    /// Commits the only option of an item the last commit left with one,
    /// again and again, as the search would branch on it next: stops when
    /// none is left or one was left with none (a dead end for the search).
    #[inline(always)]
    fn follow(&mut self) {
        loop {
            let mut one = u32::MAX;
            for &k in &self.forced[..self.num_forced] {
                match self.cells.at(k).key() {
                    0 => return,
                    1 => one = k,
                    _ => {}
                }
            }
            if one == u32::MAX {
                return;
            }
            let o = self.option_at(one as usize, self.cells.at(one).word().trailing_zeros());
            self.commit(o);
            self.chained += 1;
        }
    }

    /// The leftmost active primary item with the fewest options: from
    /// the items the last commit noted where they are enough (see
    /// [`Masks::before`]), else by [`Masks::scan`].
    #[inline(always)]
    fn least(&self) -> u32 {
        if self.before >= 1 {
            let mut best = (2, u32::MAX);
            for &k in &self.forced[..self.num_forced] {
                best = best.min((self.cells.at(k).key(), k));
            }
            if best.0 == 0 || (best.0 == 1 && self.before >= 2) {
                return best.1;
            }
            if self.before == 1 {
                // Items with one option may be older than the last
                // commit; none has none.
                if let Some(i) = C::first_below(&self.cells, C::new(2, 0)) {
                    return i as u32;
                }
            }
        }
        self.scan(0)
    }

    /// The leftmost active primary item with the fewest options, or the
    /// leftmost with at most `enough` when there is one.
    #[inline(always)]
    fn scan(&self, enough: i16) -> u32 {
        // The smallest cell, lane by lane, then across the lanes: its key
        // is the smallest.
        let mut lanes = [C::new(TOP, 0); BLOCK];
        for block in self.cells.chunks_exact(BLOCK) {
            for (l, &c) in lanes.iter_mut().zip(block) {
                *l = (*l).min(c);
            }
        }
        let best = lanes.iter().copied().fold(C::new(TOP, 0), C::min).key();
        // The first key at most the minimum, or at most `enough`: the first
        // cell below the smallest with the next key.
        let bound = best.max(enough);
        if bound == TOP {
            return 0;
        }
        let limit = C::new(bound + 1, 0);
        C::first_below(&self.cells, limit).unwrap_or(0) as u32
    }

    /// Returns to the state before `frame`'s option, leaving it stale (to
    /// be settled on demand) and dropping the frame's own copy if it has one.
    /// PERF: the level above mostly restores a copy of its own next, so
    /// restoring this one first would be wasted.
    #[inline(always)]
    fn back_out(&mut self, level: &mut Level) {
        self.depth = level.depth;
        if level.copy != u32::MAX {
            self.discard_above(level.copy as usize - 1);
            level.copy = u32::MAX;
        }
        self.stale = self.path.len() != self.depth as usize;
    }

    #[cfg(test)]
    fn is_stale(&self) -> bool {
        self.stale
    }
}

/// What a level of the search keeps: the options of its item not tried
/// yet, the number of options committed before it, and where its copy of
/// the state starts in `saved` (`u32::MAX`: none, a level of one option).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Level {
    untried: u64,
    depth: u32,
    copy: u32,
    /// The least key of the state the level's item was chosen in (its
    /// own number of options), or -1 where it was not chosen for it.
    least: i16,
}

impl<C: Cell> Structure for Masks<C> {
    type Level = Level;
    const STOPS_AT_LEFTMOST: bool = false;

    fn updates(&self) -> u64 {
        0
    }

    fn set_updates(&mut self, _updates: u64) {}

    #[inline(always)]
    fn primaries_left(&mut self) -> u32 {
        self.settle();
        self.open.min(2)
    }

    #[inline(always)]
    fn choose(&mut self, rng: &mut Option<u64>, enough: u32) -> u32 {
        self.settle();
        if let Some(state) = rng {
            let mut best = 0;
            let mut t = TOP;
            let mut ties = 0u64;
            for (i, k) in self.cells[..self.num_items]
                .iter()
                .map(|c| c.key())
                .enumerate()
            {
                if k < t {
                    (best, t, ties) = (i as u32, k, 1);
                } else if k == t && k < SECONDARY {
                    ties += 1;
                    if next_random(state) % ties == 0 {
                        best = i as u32;
                    }
                }
            }
            return best;
        }
        if enough == 0 {
            let i = self.least();
            self.least_item = i;
            return i;
        }
        // Any item the last commit left with one option is a minimum,
        // unless one was left with none.
        let mut one = u32::MAX;
        for &k in &self.forced[..self.num_forced] {
            match self.cells.at(k).key() {
                0 => return k,
                1 => one = k,
                _ => {}
            }
        }
        if one != u32::MAX {
            return one;
        }
        self.scan(enough.min(CLOSED as u32) as i16)
    }

    #[inline(always)]
    fn len(&self, item: u32) -> u32 {
        self.cells.at(item).key() as u32
    }

    #[inline(always)]
    fn enter(&mut self, frame: &mut Frame<Level>) {
        self.settle();
        let least = match frame.item == self.least_item {
            true => self.cells.at(frame.item).key(),
            false => -1,
        };
        self.least_item = u32::MAX;
        frame.state = Level {
            untried: self.cells.at(frame.item).word(),
            depth: self.depth,
            copy: u32::MAX,
            least,
        };
        if frame.d > 1 {
            frame.state.copy = self.saved.len() as u32;
            self.save();
        }
    }

    #[inline(always)]
    fn next_option(&mut self, frame: &mut Frame<Level>) -> Option<u32> {
        if frame.k == frame.d {
            self.back_out(&mut frame.state);
            return None;
        }
        if frame.k > 0 {
            self.restore(frame.state.copy as usize);
        }
        let bits = frame.state.untried;
        let o = self.option_at(frame.item as usize, bits.trailing_zeros());
        frame.state.untried = bits & (bits - 1);
        frame.k += 1;
        self.commit(o);
        if self.chain {
            self.follow();
        } else {
            self.before = frame.state.least;
        }
        Some(o)
    }

    fn seek(&mut self, frame: &mut Frame<Level>, option: OptionId) -> Option<u32> {
        debug_assert_eq!(frame.k, 0);
        let mut bits = frame.state.untried;
        let mut passed = 0;
        while bits != 0 {
            if self.option_at(frame.item as usize, bits.trailing_zeros()) == option.0 {
                frame.state.untried = bits;
                return Some(passed);
            }
            bits &= bits - 1;
            passed += 1;
        }
        None
    }

    fn leave(&mut self, frame: &mut Frame<Level>) {
        self.back_out(&mut frame.state);
        frame.k = frame.d;
    }

    fn option_of(&self, node: u32) -> OptionId {
        OptionId(node)
    }

    fn item_id(&self, item: u32) -> ItemId {
        ItemId(item)
    }

    fn index_of(&self, item: ItemId) -> u32 {
        item.0
    }

    fn is_open(&mut self, item: u32) -> bool {
        self.settle();
        self.cells.at(item).key() < CLOSED
    }

    fn assume(&mut self, frame: &mut Frame<Level>, item: ItemId, option: OptionId) -> Option<u32> {
        self.settle();
        let i = item.0;
        // Available while its first item's word holds it (a covered item's
        // word is empty).
        let e = self.ent[option.0 as usize * self.stride];
        if self.cells.at(e >> 6).word() & (1 << (e & 63)) == 0 {
            return None;
        }
        // A level of one option: no copy, so `leave` restores from below.
        *frame = Frame {
            item: i,
            d: 1,
            k: 1,
            state: Level {
                untried: 0,
                depth: self.depth,
                copy: u32::MAX,
                least: -1,
            },
        };
        // Nothing noted: the search's first choice scans.
        self.commit_noting::<false>(option.0);
        Some(option.0)
    }

    fn set_chain(&mut self, on: bool) {
        self.chain = on;
    }

    #[inline(always)]
    fn chained(&mut self) -> u64 {
        std::mem::take(&mut self.chained)
    }

    /// The path: every option committed, chained ones included.
    fn solution(&mut self, _choice: &[u32], out: &mut Vec<OptionId>) {
        self.settle();
        out.extend(self.path.iter().map(|&o| OptionId(o)));
    }

    fn debug_check(&self) -> Result<(), String> {
        // A stale state is still the state of some node, so the same
        // invariants hold.
        let n = self.num_items;
        let mut open = 0;
        for i in 0..n {
            let (w, k) = (self.cells[i].word(), self.cells[i].key());
            if k >= CLOSED {
                if w != 0 {
                    return Err(format!("covered item {i} keeps options {w:#x}"));
                }
                continue;
            }
            let count = (k & !SECONDARY) as u32;
            if count != w.count_ones() {
                return Err(format!("item {i}: key {k} but {} options", w.count_ones()));
            }
            if k < SECONDARY {
                open += 1;
            }
            let mut bits = w;
            while bits != 0 {
                let p = self.option_at(i, bits.trailing_zeros()) as usize;
                bits &= bits - 1;
                for &x in &self.ent[p * self.stride..(p + 1) * self.stride] {
                    let (j, b) = ((x >> 6) as usize, x & 63);
                    if j == n {
                        continue;
                    }
                    if self.cells[j].key() >= CLOSED || self.cells[j].word() & (1 << b) == 0 {
                        return Err(format!("option {p} is in item {i} but not in item {j}"));
                    }
                }
            }
        }
        if open != self.open {
            return Err(format!(
                "{} active primary items, counted {open}",
                self.open
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_below_finds_the_first_cell_under_the_limit() {
        // Both ways of looking: with AVX2 where the processor has it, and
        // block by block.
        let first_below = |cells: &[u32], limit: u32| {
            let found = <u32 as Cell>::first_below(cells, limit);
            assert_eq!(found, first_below_in_blocks(cells, limit));
            found
        };
        // Cells of a few blocks, keys in the high half as item masks keep
        // them, with the first hit moved through every position.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || crate::repr::next_random(&mut state);
        for blocks in 1..=4 {
            for round in 0..200 {
                let cells: Vec<u32> = (0..blocks * 16)
                    .map(|_| ((next() % 0x7FFF) as u32) << 16 | (next() as u32 & 0xFFFF))
                    .collect();
                let limit = match round % 4 {
                    0 => 0,
                    1 => 0x7FFF_0000,
                    _ => ((next() % 0x7FFF) as u32) << 16,
                };
                let want = cells.iter().position(|&c| c < limit);
                assert_eq!(
                    first_below(&cells, limit),
                    want,
                    "{cells:x?} below {limit:x}"
                );
            }
        }
        let mut cells = vec![0x7FFF_0000u32; 48];
        for at in 0..48 {
            cells[at] = 0x0001_FFFF;
            assert_eq!(first_below(&cells, 0x0002_0000), Some(at));
            cells[at] = 0x7FFF_0000;
        }
        assert_eq!(first_below(&cells, 0x7FFF_0000), None);
    }

    #[test]
    fn backing_up_through_forced_levels_leaves_a_stale_state_until_settled() {
        let p = crate::format::parse_dlx("a b c\na\nb\nc\na b\n").unwrap();
        let mut m = Masks::<u64>::new(&p);
        // Item c has one option: a level without a copy.
        let mut frame = Frame::new(2, 1);
        m.enter(&mut frame);
        assert_eq!(m.next_option(&mut frame), Some(2));
        assert_eq!(m.open, 2);
        assert_eq!(m.next_option(&mut frame), None);
        assert!(m.is_stale());
        m.settle();
        assert_eq!((m.open, m.cells[2].key()), (3, 1));
        m.debug_check().unwrap();
    }

    #[test]
    fn a_reset_after_a_search_that_ended_on_a_forced_level() {
        // Item c has one option, so the root level holds no copy.
        let p = crate::format::parse_dlx("c a b\nc\na\nb\na b\n").unwrap();
        let mut s = crate::Solver::new(&p)
            .engine(crate::Engine::Masks)
            .forced_first(true);
        assert_eq!(s.engine_in_use(), crate::Engine::Masks);
        for _ in 0..3 {
            assert_eq!(s.count().solutions, 2);
            s.reset();
            s.assume(&[]).unwrap();
        }
        s.assume(&[OptionId(3)]).unwrap();
        assert_eq!(s.count().solutions, 1);
    }
}
