//! *Bitsets*: a representation for problems with few options.
//!
//! The search state at each level is the set of options still available
//! (one bit per option) and the set of primary items still uncovered. Two
//! options *conflict* when they share a primary item, or share a secondary
//! item without both giving it the same color; each option's conflict row
//! (itself included) is computed once. Choosing an option then removes its
//! row from the available set — a few machine words — and undoing costs
//! nothing, since each level keeps its own copy. The branching rule counts,
//! for each uncovered primary item in declaration order, the available
//! options that contain it (`popcount` of a word-wise AND), so the search
//! tree is exactly the one of dancing links and of Knuth's DLX1.
//!
//! Memory is quadratic in the number of options, so [`Engine::Auto`] uses
//! this representation only up to [`MAX_OPTIONS`].
//!
//! [`Engine::Auto`]: crate::Engine::Auto

use std::sync::Arc;

use super::slots::ItemWords;
use super::{pick, Frame, Structure};
use crate::problem::{ItemId, ItemKind, OptionId, Problem};
use crate::unchecked::At;

/// The most options for which [`crate::Engine::Auto`] picks bitsets.
pub(crate) const MAX_OPTIONS: usize = 4096;

/// The most words (8 bytes each) of option rows — one per primary item and
/// one per option — for which [`crate::Engine::Auto`] picks bitsets.
pub(crate) const MAX_ROW_WORDS: usize = 1 << 20;

/// The most primary items, and options, of a problem on which
/// [`crate::Engine::Auto`] prefers bitsets to item masks: the uncovered
/// items then take one word and the available options at most eight, so a
/// node costs a few popcounts and a copy of a few words, less than copying
/// and scanning every item's cell (DESIGN.md, "Four representations").
pub(crate) const SMALL_PRIMARY: usize = 64;
/// See [`SMALL_PRIMARY`].
pub(crate) const SMALL_OPTIONS: usize = 512;

/// The fewest words per option set (more than [`SMALL_OPTIONS`] options)
/// at which the search keeps, per level, which words of the available
/// options are nonzero (up to [`MAX_LIVE_WORDS`]): the branching rule counts
/// each item's options over the words nonzero in both and stops a count
/// once it cannot win, and a choice updates only those words.
/// PERF: pentomino-6x10 (32 words) and de-bruijn-2-4-6 (38 words); below,
/// dense rows measured faster (DESIGN.md, "Four representations").
pub(crate) const MIN_LIVE_WORDS: usize = 9;

/// The most words per option set whose nonzero words a level keeps in one
/// word (`Bits::live`); wider sets, only under an explicit
/// [`crate::Engine::Bits`], are read whole.
const MAX_LIVE_WORDS: usize = 64;

/// Whether `problem` is small enough for bitsets to beat item masks
/// ([`SMALL_PRIMARY`], [`SMALL_OPTIONS`]).
pub(crate) fn small<L>(problem: &Problem<L>) -> bool {
    problem.num_primary() <= SMALL_PRIMARY && problem.num_options() <= SMALL_OPTIONS
}

/// Whether [`crate::Engine::Auto`] should use bitsets for `problem`.
pub(crate) fn fits<L>(problem: &Problem<L>) -> bool {
    let n = problem.num_options();
    let words = n.div_ceil(64).max(1) * (n + problem.num_primary());
    n <= MAX_OPTIONS && words <= MAX_ROW_WORDS
}

/// The rows no search changes (`opts`, `row_live`, `conflict`, `covers`
/// and the item maps) are shared by clones: the workers of a count on
/// threads each clone one structure built once, and read one copy of
/// them (DESIGN.md, "Cuts and replays on many threads").
#[derive(Clone, Debug)]
pub(crate) struct Bits {
    /// Words per option set.
    w: usize,
    /// Words per primary-item set.
    wi: usize,
    /// Per primary item (in declaration order): its options. (Keeping only
    /// the nonzero words measured slower on every benchmark instance.)
    opts: Arc<[u64]>,
    /// Per primary item, when the search tracks live words
    /// ([`MIN_LIVE_WORDS`] to [`MAX_LIVE_WORDS`] words per option set): which
    /// words of its row in `opts` are nonzero, one bit each; empty when
    /// every word is read.
    row_live: Arc<[u64]>,
    /// Per level, likewise: which words of `avail` are nonzero. The words
    /// outside it hold stale values and are never read.
    live: Vec<u64>,
    /// Per level, likewise: which words of `cand` are nonzero.
    cand_live: Vec<u64>,
    /// Per option: the options it conflicts with, itself included.
    conflict: Arc<[u64]>,
    /// Per option: its primary items.
    covers: Arc<[u64]>,
    /// Per level: available options (`w` words each).
    avail: Vec<u64>,
    /// Per level: uncovered primary items (`wi` words each).
    open: Vec<u64>,
    /// Per level: the options of the item branched on there.
    cand: Vec<u64>,
    /// The level whose state the search is at.
    cur: usize,
    /// Primary index → item id.
    item_id: Arc<[u32]>,
    /// Item id → primary index (`u32::MAX` for secondary items).
    primary_index: Arc<[u32]>,
}

/// Which words of `row` (at most 64) are nonzero, one bit each.
fn live_words(row: &[u64]) -> u64 {
    row.iter()
        .enumerate()
        .fold(0, |m, (k, &x)| m | u64::from(x != 0) << k)
}

#[inline(always)]
fn set_bit(words: &mut [u64], i: usize) {
    words[i / 64] |= 1 << (i % 64);
}

/// Per option, the options it conflicts with (`w` words each), itself
/// included: those sharing a primary item with it, or a secondary item
/// to which the two do not both give the same color. `lists` holds, per
/// item id, the `(option, color)` of each option containing it.
///
/// Built a word at a time: each item's options are gathered once into
/// the words they fall in (and, for a secondary item, per color), and
/// each of its options ORs those words into its row, so an item costs its
/// options times their words, not its options squared.
/// PERF: de-bruijn-3-4-7's rest (3,680 options, secondary items with
/// hundreds of options each) took 28 ms pair by pair, and takes about
/// 2.5 ms so (DESIGN.md, "Cuts and replays on many threads").
fn conflict_rows(
    lists: &[Vec<(usize, u32)>],
    primary_index: &[u32],
    n_opts: usize,
    w: usize,
) -> Vec<u64> {
    let mut conflict = vec![0u64; n_opts * w];
    let mut words = ItemWords::default();
    for (item, list) in lists.iter().enumerate() {
        let options = || list.iter().map(|&(o, _)| o);
        words.gather_words(options());
        words.fill_bits(options());
        words.colors.clear();
        if primary_index[item] == u32::MAX {
            words.gather_colors(list.iter().copied());
            words.fill_color_bits(list.iter().copied());
        }
        for &(a, ca) in list {
            let row = &mut conflict[a * w..][..w];
            let mine = words.words.iter().zip(&words.bits);
            // The options that give the item `a`'s color do not clash with
            // it (none when `a` gives no color, or the item is primary).
            match words.of_color(ca) {
                Some(same) => {
                    for ((&k, &b), &s) in mine.zip(same) {
                        row[k] |= b & !s;
                    }
                }
                None => {
                    for (&k, &b) in mine {
                        row[k] |= b;
                    }
                }
            }
            set_bit(row, a);
        }
    }
    conflict
}

impl Bits {
    pub fn new<L>(problem: &Problem<L>) -> Bits {
        let n_opts = problem.num_options();
        let w = n_opts.div_ceil(64).max(1);
        let mut primary_index = vec![u32::MAX; problem.num_items()];
        let mut item_id = Vec::new();
        for id in problem.item_ids() {
            if problem.item_kind(id) == ItemKind::Primary {
                primary_index[id.index()] = item_id.len() as u32;
                item_id.push(id.0);
            }
        }
        let n1 = item_id.len();
        let wi = n1.div_ceil(64).max(1);
        let mut opts = vec![0u64; n1 * w];
        let mut covers = vec![0u64; n_opts * wi];
        // Per item: (option, color) of each option containing it.
        let mut lists: Vec<Vec<(usize, u32)>> = vec![Vec::new(); problem.num_items()];
        for o in problem.option_ids() {
            for e in problem.option(o) {
                lists[e.item.index()].push((o.index(), e.color.0));
                let p = primary_index[e.item.index()];
                if p != u32::MAX {
                    set_bit(&mut opts[p as usize * w..][..w], o.index());
                    set_bit(&mut covers[o.index() * wi..][..wi], p as usize);
                }
            }
        }
        let conflict = conflict_rows(&lists, &primary_index, n_opts, w);
        let mut avail = vec![0u64; w];
        for o in 0..n_opts {
            set_bit(&mut avail, o);
        }
        let mut open = vec![0u64; wi];
        for p in 0..n1 {
            set_bit(&mut open, p);
        }
        let (mut row_live, mut live) = (Vec::new(), Vec::new());
        if (MIN_LIVE_WORDS..=MAX_LIVE_WORDS).contains(&w) {
            row_live = opts.chunks_exact(w).map(live_words).collect();
            live.push(live_words(&avail));
        }
        Bits {
            w,
            wi,
            opts: opts.into(),
            row_live: row_live.into(),
            cand_live: vec![0; live.len()],
            live,
            conflict: conflict.into(),
            covers: covers.into(),
            avail,
            open,
            cand: Vec::new(),
            cur: 0,
            item_id: item_id.into(),
            primary_index: primary_index.into(),
        }
    }

    /// Whether `self` and `other` read one copy of the rows.
    #[cfg(test)]
    pub fn shares_with(&self, other: &Bits) -> bool {
        Arc::ptr_eq(&self.conflict, &other.conflict) && Arc::ptr_eq(&self.opts, &other.opts)
    }

    /// Makes room for the state of level `l`.
    #[inline(always)]
    fn reserve(&mut self, l: usize) {
        if self.avail.len() < (l + 1) * self.w {
            self.grow(l);
        }
    }

    /// [`reserve`](Self::reserve)'s growth, out of the search loop's way.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, l: usize) {
        self.avail.resize((l + 1) * self.w, 0);
        self.cand.resize((l + 1) * self.w, 0);
        self.open.resize((l + 1) * self.wi, 0);
        if !self.row_live.is_empty() {
            self.live.resize(l + 1, 0);
            self.cand_live.resize(l + 1, 0);
        }
    }

    /// Words per option set.
    pub fn words(&self) -> usize {
        self.w
    }

    /// Words per primary-item set.
    pub fn item_words(&self) -> usize {
        self.wi
    }

    /// Available options of primary item `p` at the current level.
    #[inline(always)]
    fn count(&self, p: u32) -> u32 {
        let w = self.w;
        let (base, row) = ((self.cur * w) as u32, (p as usize * w) as u32);
        let mut n = 0;
        for k in 0..w as u32 {
            n += (self.avail.at(base + k) & self.opts.at(row + k)).count_ones();
        }
        n
    }

    /// Available options of primary item `p` at the current level, counted
    /// over the words nonzero both in its row and in the available set; the
    /// count stops once it reaches `limit`.
    #[inline(always)]
    fn count_live(&self, p: u32, limit: u32) -> u32 {
        let (base, row) = ((self.cur * self.w) as u32, p * self.w as u32);
        let mut m = self.row_live.at(p) & self.live.at(self.cur as u32);
        let mut n = 0;
        while m != 0 {
            let k = m.trailing_zeros();
            m &= m - 1;
            n += (self.avail.at(base + k) & self.opts.at(row + k)).count_ones();
            if n >= limit {
                break;
            }
        }
        n
    }

    /// [`Structure::choose_len`] over live words: a count stops as soon as
    /// it cannot beat the best so far (nor tie it, with `rng`), so the
    /// best's own count is whole.
    #[inline(always)]
    fn choose_live(&mut self, rng: &mut Option<u64>, enough: u32) -> (u32, u32) {
        let mut best = 0;
        let mut t = u32::MAX;
        let mut ties = 0u64;
        let base = self.cur * self.wi;
        'scan: for k in 0..self.wi {
            let mut word = self.open.at((base + k) as u32);
            while word != 0 {
                let p = (k * 64 + word.trailing_zeros() as usize) as u32;
                word &= word - 1;
                match rng {
                    None => {
                        let s = self.count_live(p, t);
                        if s < t {
                            best = p;
                            t = s;
                            if t <= enough {
                                break 'scan;
                            }
                        }
                    }
                    Some(state) => {
                        let s = self.count_live(p, t.saturating_add(1));
                        pick(p, s, &mut best, &mut t, &mut ties, state);
                    }
                }
            }
        }
        (best, t)
    }
}

/// [`Bits`] with `W` words per option set and `WI` per primary-item set
/// known when compiling (both at least 1), so that the loops
/// over words unroll and keep the words in registers. The search runs on
/// it for up to eight words of options and one of items
/// ([`dispatch`]).
/// PERF: about half the instructions of the word counts read at run time
/// (DESIGN.md, "Four representations").
pub(crate) struct Fixed<'a, const W: usize, const WI: usize>(pub &'a mut Bits);

/// Evaluates `$search` with `$s` bound to `$bits` (a `&mut Bits`) seen as
/// the [`Fixed`] of its word counts: one copy of the search per count.
macro_rules! dispatch {
    ($bits:expr, $s:ident => $search:expr) => {{
        use $crate::repr::bits::Fixed;
        let b: &mut $crate::repr::bits::Bits = $bits;
        match (b.words(), b.item_words()) {
            (1, 1) => {
                let $s = &mut Fixed::<1, 1>(b);
                $search
            }
            (2, 1) => {
                let $s = &mut Fixed::<2, 1>(b);
                $search
            }
            (3, 1) => {
                let $s = &mut Fixed::<3, 1>(b);
                $search
            }
            (4, 1) => {
                let $s = &mut Fixed::<4, 1>(b);
                $search
            }
            (5, 1) => {
                let $s = &mut Fixed::<5, 1>(b);
                $search
            }
            (6, 1) => {
                let $s = &mut Fixed::<6, 1>(b);
                $search
            }
            (7, 1) => {
                let $s = &mut Fixed::<7, 1>(b);
                $search
            }
            (8, 1) => {
                let $s = &mut Fixed::<8, 1>(b);
                $search
            }
            _ => {
                let $s = b;
                $search
            }
        }
    }};
}
pub(crate) use dispatch;

impl<const W: usize, const WI: usize> Fixed<'_, W, WI> {
    /// Words per option set.
    #[inline(always)]
    fn w(&self) -> usize {
        debug_assert_eq!(W, self.0.w);
        W
    }

    /// Words per primary-item set.
    #[inline(always)]
    fn wi(&self) -> usize {
        debug_assert_eq!(WI, self.0.wi);
        WI
    }

    /// Available options of primary item `p` at the current level.
    #[inline(always)]
    fn count(&self, p: u32) -> u32 {
        let w = self.w();
        let b = &*self.0;
        let (base, row) = ((b.cur * w) as u32, (p as usize * w) as u32);
        let mut n = 0;
        for k in 0..w as u32 {
            n += (b.avail.at(base + k) & b.opts.at(row + k)).count_ones();
        }
        n
    }
}

/// What a level of the search keeps: its depth (which copy of the sets is
/// its own) and where to look for its next option.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Level {
    next: u32,
    depth: u32,
}

impl<const W: usize, const WI: usize> Structure for Fixed<'_, W, WI> {
    type Level = Level;

    fn updates(&self) -> u64 {
        0
    }

    fn set_updates(&mut self, _updates: u64) {}

    #[inline(always)]
    fn primaries_left(&mut self) -> u32 {
        let wi = self.wi();
        let b = &*self.0;
        let base = b.cur * wi;
        let mut n = 0;
        for k in 0..wi {
            n += b.open.at((base + k) as u32).count_ones();
            if n >= 2 {
                return 2;
            }
        }
        n
    }

    #[inline(always)]
    fn choose(&mut self, rng: &mut Option<u64>, enough: u32) -> u32 {
        self.choose_len(rng, enough).0
    }

    /// The scan counts each item's options, so the chosen item's count
    /// comes with it instead of being counted again.
    #[inline(always)]
    fn choose_len(&mut self, rng: &mut Option<u64>, enough: u32) -> (u32, u32) {
        let mut best = 0;
        let mut t = u32::MAX;
        let wi = self.wi();
        let base = self.0.cur * wi;
        let Some(state) = rng else {
            for k in 0..wi {
                let mut word = self.0.open.at((base + k) as u32);
                while word != 0 {
                    let p = (k * 64 + word.trailing_zeros() as usize) as u32;
                    word &= word - 1;
                    let s = self.count(p);
                    if s < t {
                        best = p;
                        t = s;
                        if t <= enough {
                            return (best, t);
                        }
                    }
                }
            }
            return (best, t);
        };
        let mut ties = 0u64;
        for k in 0..wi {
            let mut word = self.0.open.at((base + k) as u32);
            while word != 0 {
                let p = (k * 64 + word.trailing_zeros() as usize) as u32;
                word &= word - 1;
                let s = self.count(p);
                pick(p, s, &mut best, &mut t, &mut ties, state);
            }
        }
        (best, t)
    }

    #[inline(always)]
    fn len(&self, item: u32) -> u32 {
        self.count(item)
    }

    #[inline(always)]
    fn enter(&mut self, frame: &mut Frame<Level>) {
        let w = self.w();
        let b = &mut *self.0;
        let l = b.cur;
        b.reserve(l + 1);
        let row = frame.item as usize * w;
        // The vectors as local slices: a write through a field's vector
        // could, for all the compiler knows, move the others, whose
        // pointers it would then read again at each word.
        let (avail, opts, cand) = (&b.avail[..], &b.opts[..], &mut b.cand[..]);
        for k in 0..w {
            *cand.at_mut((l * w + k) as u32) =
                avail.at((l * w + k) as u32) & opts.at((row + k) as u32);
        }
        frame.state = Level {
            next: 0,
            depth: l as u32,
        };
    }

    #[inline(always)]
    fn next_option(&mut self, frame: &mut Frame<Level>) -> Option<u32> {
        let (w, wi) = (self.w(), self.wi());
        let b = &mut *self.0;
        let l = frame.state.depth as usize;
        b.cur = l;
        if frame.k == frame.d {
            return None;
        }
        // The next candidate at or after bit `frame.state.next`.
        let next = frame.state.next;
        let mut k = next as usize / 64;
        let mut word = b.cand.at((l * w + k) as u32) & (u64::MAX << (next % 64));
        while word == 0 {
            k += 1;
            word = b.cand.at((l * w + k) as u32);
        }
        let o = k * 64 + word.trailing_zeros() as usize;
        frame.state.next = o as u32 + 1;
        frame.k += 1;
        let (from, to) = (l * w, (l + 1) * w);
        let row = o * w;
        // Local slices, as in `enter`.
        let (avail, conflict) = (&mut b.avail[..], &b.conflict[..]);
        for j in 0..w {
            let v = avail.at((from + j) as u32) & !conflict.at((row + j) as u32);
            *avail.at_mut((to + j) as u32) = v;
        }
        let (open, covers) = (&mut b.open[..], &b.covers[..]);
        let (from, to, row) = (l * wi, (l + 1) * wi, o * wi);
        for j in 0..wi {
            let v = open.at((from + j) as u32) & !covers.at((row + j) as u32);
            *open.at_mut((to + j) as u32) = v;
        }
        b.cur = l + 1;
        Some(o as u32)
    }

    fn seek(&mut self, frame: &mut Frame<Level>, option: OptionId) -> Option<u32> {
        let (w, b) = (self.w(), &*self.0);
        let l = frame.state.depth as usize;
        let passed = rank(option, w, |k| b.cand.at((l * w + k) as u32))?;
        frame.state.next = option.0;
        Some(passed)
    }

    fn leave(&mut self, frame: &mut Frame<Level>) {
        self.0.cur = frame.state.depth as usize;
        frame.k = frame.d;
    }

    fn option_of(&self, node: u32) -> OptionId {
        OptionId(node)
    }

    fn item_id(&self, item: u32) -> ItemId {
        ItemId(self.0.item_id[item as usize])
    }

    fn index_of(&self, item: ItemId) -> u32 {
        self.0.primary_index[item.index()]
    }

    fn is_open(&mut self, item: u32) -> bool {
        let b = &*self.0;
        let i = item as usize;
        i < b.item_id.len() && b.open[b.cur * b.wi + i / 64] >> (i % 64) & 1 != 0
    }

    fn debug_check(&self) -> Result<(), String> {
        Ok(())
    }
}

/// The structure with its word counts read at run time: the search on
/// wider sets, and the walks outside the search loop (probes, prefixes,
/// branches).
impl Structure for Bits {
    type Level = Level;

    fn updates(&self) -> u64 {
        0
    }

    fn set_updates(&mut self, _updates: u64) {}

    #[inline(always)]
    fn primaries_left(&mut self) -> u32 {
        let base = self.cur * self.wi;
        let mut n = 0;
        for k in 0..self.wi {
            n += self.open.at((base + k) as u32).count_ones();
            if n >= 2 {
                return 2;
            }
        }
        n
    }

    #[inline(always)]
    fn choose(&mut self, rng: &mut Option<u64>, enough: u32) -> u32 {
        self.choose_len(rng, enough).0
    }

    /// As [`Fixed`]'s: the chosen item's count comes from the scan.
    #[inline(always)]
    fn choose_len(&mut self, rng: &mut Option<u64>, enough: u32) -> (u32, u32) {
        if !self.row_live.is_empty() {
            return self.choose_live(rng, enough);
        }
        let mut best = 0;
        let mut t = u32::MAX;
        let mut ties = 0u64;
        let base = self.cur * self.wi;
        'scan: for k in 0..self.wi {
            let mut word = self.open.at((base + k) as u32);
            while word != 0 {
                let p = (k * 64 + word.trailing_zeros() as usize) as u32;
                word &= word - 1;
                let s = self.count(p);
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
        (best, t)
    }

    #[inline(always)]
    fn len(&self, item: u32) -> u32 {
        if self.row_live.is_empty() {
            self.count(item)
        } else {
            self.count_live(item, u32::MAX)
        }
    }

    #[inline(always)]
    fn enter(&mut self, frame: &mut Frame<Level>) {
        let l = self.cur;
        self.reserve(l + 1);
        let w = self.w;
        let row = frame.item as usize * w;
        // Local slices, as in `Fixed`'s `enter`.
        let (avail, opts, cand) = (&self.avail[..], &self.opts[..], &mut self.cand[..]);
        if self.row_live.is_empty() {
            for k in 0..w {
                *cand.at_mut((l * w + k) as u32) =
                    avail.at((l * w + k) as u32) & opts.at((row + k) as u32);
            }
        } else {
            let mut m = self.live.at(l as u32) & self.row_live.at(frame.item);
            let mut live = 0;
            while m != 0 {
                let k = m.trailing_zeros() as usize;
                m &= m - 1;
                let v = avail.at((l * w + k) as u32) & opts.at((row + k) as u32);
                *cand.at_mut((l * w + k) as u32) = v;
                live |= u64::from(v != 0) << k;
            }
            *self.cand_live.at_mut(l as u32) = live;
        }
        frame.state = Level {
            next: 0,
            depth: l as u32,
        };
    }

    #[inline(always)]
    fn next_option(&mut self, frame: &mut Frame<Level>) -> Option<u32> {
        let l = frame.state.depth as usize;
        self.cur = l;
        if frame.k == frame.d {
            return None;
        }
        let w = self.w;
        // The next candidate at or after bit `frame.state.next`.
        let next = frame.state.next;
        let mut k = next as usize / 64;
        let o = if self.row_live.is_empty() {
            let mut word = self.cand.at((l * w + k) as u32) & (u64::MAX << (next % 64));
            while word == 0 {
                k += 1;
                word = self.cand.at((l * w + k) as u32);
            }
            k * 64 + word.trailing_zeros() as usize
        } else {
            let m = self.cand_live.at(l as u32);
            let mut word = if m >> k & 1 != 0 {
                self.cand.at((l * w + k) as u32) & (u64::MAX << (next % 64))
            } else {
                0
            };
            while word == 0 {
                k = (m & u64::MAX << k << 1).trailing_zeros() as usize;
                word = self.cand.at((l * w + k) as u32);
            }
            k * 64 + word.trailing_zeros() as usize
        };
        frame.state.next = o as u32 + 1;
        frame.k += 1;
        let (from, to) = (l * w, (l + 1) * w);
        let row = o * w;
        // Local slices, as in `Fixed`'s `enter`.
        let (avail, conflict) = (&mut self.avail[..], &self.conflict[..]);
        if self.row_live.is_empty() {
            for j in 0..w {
                let v = avail.at((from + j) as u32) & !conflict.at((row + j) as u32);
                *avail.at_mut((to + j) as u32) = v;
            }
        } else {
            let mut m = self.live.at(l as u32);
            let mut live = 0;
            while m != 0 {
                let j = m.trailing_zeros() as usize;
                m &= m - 1;
                let v = avail.at((from + j) as u32) & !conflict.at((row + j) as u32);
                *avail.at_mut((to + j) as u32) = v;
                live |= u64::from(v != 0) << j;
            }
            *self.live.at_mut(l as u32 + 1) = live;
        }
        let wi = self.wi;
        let (open, covers) = (&mut self.open[..], &self.covers[..]);
        let (from, to, row) = (l * wi, (l + 1) * wi, o * wi);
        for j in 0..wi {
            let v = open.at((from + j) as u32) & !covers.at((row + j) as u32);
            *open.at_mut((to + j) as u32) = v;
        }
        self.cur = l + 1;
        Some(o as u32)
    }

    fn seek(&mut self, frame: &mut Frame<Level>, option: OptionId) -> Option<u32> {
        let (l, w) = (frame.state.depth as usize, self.w);
        // With live words, a word off the level's mask holds nothing.
        let live = |k: usize| self.row_live.is_empty() || self.cand_live.at(l as u32) >> k & 1 != 0;
        let word = |k: usize| {
            if live(k) {
                self.cand.at((l * w + k) as u32)
            } else {
                0
            }
        };
        let passed = rank(option, w, word)?;
        frame.state.next = option.0;
        Some(passed)
    }

    fn leave(&mut self, frame: &mut Frame<Level>) {
        self.cur = frame.state.depth as usize;
        frame.k = frame.d;
    }

    fn option_of(&self, node: u32) -> OptionId {
        OptionId(node)
    }

    fn item_id(&self, item: u32) -> ItemId {
        ItemId(self.item_id[item as usize])
    }

    fn index_of(&self, item: ItemId) -> u32 {
        self.primary_index[item.index()]
    }

    fn is_open(&mut self, item: u32) -> bool {
        let i = item as usize;
        i < self.item_id.len() && self.open[self.cur * self.wi + i / 64] >> (i % 64) & 1 != 0
    }

    fn debug_check(&self) -> Result<(), String> {
        Ok(())
    }
}

/// Where `option` stands among the candidates of a level, the set bits of
/// its `w` words (`word(k)`): how many come before it; `None` when its bit
/// is clear ([`Structure::seek`] for both bitset structures).
fn rank(option: OptionId, w: usize, word: impl Fn(usize) -> u64) -> Option<u32> {
    let o = option.0 as usize;
    if o >= w * 64 || word(o / 64) >> (o % 64) & 1 == 0 {
        return None;
    }
    let below = (word(o / 64) & ((1u64 << (o % 64)) - 1)).count_ones();
    Some((0..o / 64).map(|k| word(k).count_ones()).sum::<u32>() + below)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repr::next_random;

    /// Primary items `p0`..`p{n-1}` and a secondary item `s`, with an
    /// option for each pair of them at most `span` apart, giving `s` the
    /// color `color(i, j)`.
    fn pairs(n: u32, span: u32, color: impl Fn(u32, u32) -> u32) -> crate::Problem {
        let mut text = String::new();
        for i in 0..n {
            text.push_str(&format!("p{i} "));
        }
        text.push_str("| s\n");
        for i in 0..n {
            for j in i + 1..n.min(i + span + 1) {
                text.push_str(&format!("p{i} p{j} s:{}\n", color(i, j)));
            }
        }
        crate::format::parse_dlx(&text).unwrap()
    }

    /// Walks `a` and `b` down one random path together, checking at each
    /// level that they agree on the items left, each open item's count,
    /// the choice (with and without `enough`, and at random with the same
    /// seed) with its count, and the options committed; returns the depth
    /// reached.
    fn walk_together<A, B>(a: &mut A, b: &mut B, n: u32, rng: &mut u64) -> usize
    where
        A: Structure<Level = Level>,
        B: Structure<Level = Level>,
    {
        let mut depth = 0;
        while a.primaries_left() > 0 {
            assert_eq!(a.primaries_left(), b.primaries_left());
            for p in 0..n {
                assert_eq!(a.is_open(p), b.is_open(p));
                if a.is_open(p) {
                    assert_eq!(a.len(p), b.len(p), "item {p} at depth {depth}");
                }
            }
            for enough in [0, 1, 2] {
                let (i, d) = a.choose_len(&mut None, enough);
                assert_eq!((i, d), b.choose_len(&mut None, enough));
                assert_eq!(i, a.choose(&mut None, enough));
                // The count that comes with the choice is the item's.
                assert_eq!(d, a.len(i), "item {i} at depth {depth}");
            }
            let (mut ra, mut rb) = (Some(*rng), Some(*rng));
            let (i, d) = a.choose_len(&mut ra, 0);
            assert_eq!((i, d), b.choose_len(&mut rb, 0));
            assert_eq!((ra, d), (rb, a.len(i)));
            let (i, d) = a.choose_len(&mut None, 0);
            if d == 0 {
                break;
            }
            let (mut fa, mut fb) = (Frame::new(i, d), Frame::new(i, d));
            a.enter(&mut fa);
            b.enter(&mut fb);
            for _ in 0..=next_random(rng) % u64::from(d) {
                assert_eq!(a.next_option(&mut fa), b.next_option(&mut fb));
            }
            depth += 1;
        }
        depth
    }

    #[test]
    fn conflict_rows_hold_the_pairs_that_clash() {
        // Random problems over 6 primary and 4 secondary items, options
        // spread over several words, secondary items given one of three
        // colors or none; each row is checked against the definition, pair
        // by pair.
        let mut rng = 7u64;
        for _ in 0..20 {
            let mut text = String::from("p0 p1 p2 p3 p4 p5 | s0 s1 s2 s3\n");
            let options = 150 + next_random(&mut rng) % 200;
            for _ in 0..options {
                text += &format!("p{}", next_random(&mut rng) % 6);
                for s in 0..4 {
                    match next_random(&mut rng) % 6 {
                        0 => text += &format!(" s{s}"),
                        1..=3 => text += &format!(" s{s}:{}", next_random(&mut rng) % 3),
                        _ => {}
                    }
                }
                text.push('\n');
            }
            let p = crate::format::parse_dlx(&text).unwrap();
            let bits = Bits::new(&p);
            let color = |o: crate::OptionId, item: crate::ItemId| {
                p.option(o)
                    .iter()
                    .find(|e| e.item == item)
                    .map(|e| e.color.0)
            };
            for a in p.option_ids() {
                for b in p.option_ids() {
                    let clash = a == b
                        || p.option(a).iter().any(|e| match color(b, e.item) {
                            None => false,
                            Some(_) if p.item_kind(e.item) == ItemKind::Primary => true,
                            Some(cb) => e.color.0 == 0 || e.color.0 != cb,
                        });
                    let row = &bits.conflict[a.index() * bits.w..][..bits.w];
                    let set = row[b.index() / 64] >> (b.index() % 64) & 1 == 1;
                    assert_eq!(set, clash, "options {} and {}", a.index(), b.index());
                }
            }
        }
    }

    #[test]
    fn live_words_choose_and_count_as_dense_rows_do() {
        // 40 primary items, every pair an option (780 options, 13 words per
        // set), and a secondary item with three colors.
        let n = 40u32;
        let live = Bits::new(&pairs(n, n, |i, j| (i * j) % 3));
        assert!(!live.row_live.is_empty());
        let mut dense = live.clone();
        dense.row_live = Arc::new([]);
        let mut rng = 7u64;
        let mut deepest = 0;
        for _ in 0..40 {
            let (mut a, mut b) = (live.clone(), dense.clone());
            deepest = deepest.max(walk_together(&mut a, &mut b, n, &mut rng));
        }
        assert!(deepest >= 3, "the walks went {deepest} levels deep");
    }

    #[test]
    fn fixed_words_choose_count_and_commit_as_the_structure_does() {
        // 30 primary items, the pairs of them at most 7 apart (189
        // options, 3 words per set), and a secondary item with two colors.
        let n = 30u32;
        let bits = Bits::new(&pairs(n, 7, |i, j| (i + j) % 2));
        assert_eq!((bits.words(), bits.item_words()), (3, 1));
        let mut rng = 11u64;
        let mut deepest = 0;
        for _ in 0..40 {
            let (mut a, mut plain) = (bits.clone(), bits.clone());
            let fixed = &mut Fixed::<3, 1>(&mut a);
            deepest = deepest.max(walk_together(fixed, &mut plain, n, &mut rng));
        }
        assert!(deepest >= 3, "the walks went {deepest} levels deep");
    }
}
