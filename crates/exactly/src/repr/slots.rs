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
    for (i, w) in item_start.windows(2).enumerate() {
        let options = &list[w[0]..w[1]];
        let primary = problem.item_kind(crate::ItemId(i as u32)) == ItemKind::Primary;
        let mut words: Vec<u32> = options.iter().map(|&(o, _)| o >> 6).collect();
        words.sort_unstable();
        words.dedup();
        // The number of slots and where they start fit in `u32`: at most
        // one per entry.
        let start = out.slot_word.len() as u32;
        if (primary && by_cost) || words.is_empty() || words.len() * LIST_PER_SLOT > options.len() {
            out.item_slots.push((start, start));
            continue;
        }
        let slot = |o: u32| words.binary_search(&(o >> 6)).unwrap_or_default();
        out.slot_bits.resize(out.slot_bits.len() + words.len(), 0);
        for &(o, _) in options {
            out.slot_bits[start as usize + slot(o)] |= 1 << (o & 63);
        }
        out.slot_word.extend_from_slice(&words);
        out.item_slots.push((start, out.slot_word.len() as u32));
        if primary {
            continue;
        }
        let mut colors: Vec<ColorId> = options
            .iter()
            .map(|&(_, c)| c)
            .filter(|c| !c.is_none())
            .collect();
        colors.sort_unstable();
        colors.dedup();
        if colors.len() * words.len() > SLOTS_PER_ENTRY * options.len()
            || out.color_bits.len() + colors.len() * words.len() > u32::MAX as usize
        {
            continue;
        }
        let base = out.color_bits.len();
        out.color_bits.resize(base + colors.len() * words.len(), 0);
        for &(o, c) in options {
            if let Ok(k) = colors.binary_search(&c) {
                out.color_bits[base + k * words.len() + slot(o)] |= 1 << (o & 63);
            }
        }
        for (k, c) in colors.into_iter().enumerate() {
            // Checked above to fit in `u32`.
            let at = base + k * words.len();
            out.color_start.push((i as u32, c, at as u32));
        }
    }
    out
}

/// See [`slots`].
pub(crate) const LIST_PER_SLOT: usize = 2;
/// See [`slots`].
pub(crate) const SLOTS_PER_ENTRY: usize = 4;
