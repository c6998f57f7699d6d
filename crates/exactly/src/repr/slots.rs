//! *Slots*: an item's options as bits over only the words of a bitset of
//! options that hold one of them, a word index and a mask each, and per
//! color of a secondary item the bits of its options in that color. Sparse
//! bitsets (`sparse.rs`) and Algorithm M (`multi.rs`) find available
//! options through them a word at a time.

use crate::problem::{ColorId, ItemKind, Problem};

/// What [`slots`] builds.
pub(crate) struct Slots {
    /// Per item id: its slots, `slot_word[r]` and `slot_bits[r]` for `r` in
    /// the range; empty for an item that walks its list instead.
    pub item_slots: Vec<(u32, u32)>,
    /// Per slot: the word of the bitset of options, and the item's bits in it.
    pub slot_word: Vec<u32>,
    pub slot_bits: Vec<u64>,
    /// Per secondary item with slots and colors, and per color it takes
    /// (sorted by item, then color): where the item's options of that color
    /// start in `color_bits`, one word per slot. None for an item whose
    /// colors would take too many words.
    pub color_start: Vec<(u32, ColorId, u32)>,
    pub color_bits: Vec<u64>,
}

/// The slots of the items given their lists, `list[item_start[i]..item_start[i + 1]]`
/// for item id `i`: secondary items, and primary items too unless
/// `by_cost` (whose lists are in order of cost, not of options).
/// An item has slots when its list has at least [`LIST_PER_SLOT`] entries
/// a slot, and bits per color when they take at most [`SLOTS_PER_ENTRY`]
/// words an entry, so the bits take at most a few bytes an entry in all.
pub(crate) fn slots<L>(
    problem: &Problem<L>,
    item_start: &[usize],
    list: &[(u32, ColorId)],
    by_cost: bool,
) -> Slots {
    let mut out = Slots {
        item_slots: Vec::with_capacity(item_start.len().saturating_sub(1)),
        slot_word: Vec::new(),
        slot_bits: Vec::new(),
        color_start: Vec::new(),
        color_bits: Vec::new(),
    };
    let mut item = ItemWords::default();
    for (i, w) in item_start.windows(2).enumerate() {
        let options = &list[w[0]..w[1]];
        let primary = problem.item_kind(crate::ItemId(i as u32)) == ItemKind::Primary;
        item.gather_words(options.iter().map(|&(o, _)| o as usize));
        // The number of slots and where they start fit in `u32`: at most
        // one per entry.
        let start = out.slot_word.len() as u32;
        let n = item.words.len();
        if (primary && by_cost) || n == 0 || n * LIST_PER_SLOT > options.len() {
            out.item_slots.push((start, start));
            continue;
        }
        item.fill_bits(options.iter().map(|&(o, _)| o as usize));
        out.slot_bits.extend_from_slice(&item.bits);
        out.slot_word.extend(item.words.iter().map(|&k| k as u32));
        out.item_slots.push((start, out.slot_word.len() as u32));
        if primary {
            continue;
        }
        let entries = || options.iter().map(|&(o, c)| (o as usize, c.0));
        item.gather_colors(entries());
        if item.colors.len() * n > SLOTS_PER_ENTRY * options.len()
            || out.color_bits.len() + item.colors.len() * n > u32::MAX as usize
        {
            continue;
        }
        item.fill_color_bits(entries());
        let base = out.color_bits.len();
        out.color_bits.extend_from_slice(&item.color_bits);
        for (k, &c) in item.colors.iter().enumerate() {
            // Checked above to fit in `u32`.
            let at = base + k * n;
            out.color_start.push((i as u32, ColorId(c), at as u32));
        }
    }
    out
}

/// See [`slots`].
pub(crate) const LIST_PER_SLOT: usize = 2;
/// See [`slots`].
pub(crate) const SLOTS_PER_ENTRY: usize = 4;

/// One item's options as bits over the words of a bitset of options that
/// hold one of them, and per color the bits of its options in that color;
/// kept between items so that its vectors are reused.
#[derive(Default)]
pub(crate) struct ItemWords {
    /// The words the item's options fall in, in order.
    pub words: Vec<usize>,
    /// Per word of `words`: the item's options in it.
    pub bits: Vec<u64>,
    /// The colors its options give it, in order, none left out.
    pub colors: Vec<u32>,
    /// Per color of `colors`, then per word of `words`: its options of
    /// that color.
    pub color_bits: Vec<u64>,
}

impl ItemWords {
    /// Sets `words` to the words of these options.
    pub fn gather_words(&mut self, options: impl Iterator<Item = usize>) {
        self.words.clear();
        self.words.extend(options.map(|o| o / 64));
        self.words.sort_unstable();
        self.words.dedup();
    }

    /// Where option `o`'s word is in `words`, which must hold it.
    pub fn word(&self, o: usize) -> usize {
        self.words.binary_search(&(o / 64)).unwrap_or_default()
    }

    /// Sets `bits` to these options, which `gather_words` was given.
    pub fn fill_bits(&mut self, options: impl Iterator<Item = usize>) {
        self.bits.clear();
        self.bits.resize(self.words.len(), 0);
        for o in options {
            let k = self.word(o);
            self.bits[k] |= 1 << (o % 64);
        }
    }

    /// Sets `colors` to the colors these (option, color) pairs give.
    pub fn gather_colors(&mut self, entries: impl Iterator<Item = (usize, u32)>) {
        self.colors.clear();
        self.colors
            .extend(entries.filter_map(|(_, c)| (c != 0).then_some(c)));
        self.colors.sort_unstable();
        self.colors.dedup();
    }

    /// Sets `color_bits` from these pairs, those `gather_colors` was given.
    pub fn fill_color_bits(&mut self, entries: impl Iterator<Item = (usize, u32)>) {
        let n = self.words.len();
        self.color_bits.clear();
        self.color_bits.resize(self.colors.len() * n, 0);
        for (o, c) in entries {
            if let Ok(k) = self.colors.binary_search(&c) {
                let at = k * n + self.word(o);
                self.color_bits[at] |= 1 << (o % 64);
            }
        }
    }

    /// The bits of this item's options of color `c` (per word of `words`),
    /// if its options give that color.
    pub fn of_color(&self, c: u32) -> Option<&[u64]> {
        let k = self.colors.binary_search(&c).ok()?;
        let n = self.words.len();
        Some(&self.color_bits[k * n..][..n])
    }
}
