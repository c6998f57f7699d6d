//! The same search as the dancing links of `build.rs`, on bitsets of
//! options, for problems with a few thousand options at most.
//!
//! A state is the set of active options, the primary items still to cover,
//! the number of active options on every item and the color each secondary
//! item was purified to. Taking an option removes, in one pass over a few
//! words, every active option that clashes with it (a mask per item, and per
//! item and color), and lowers the counts of the items of the options
//! removed. A state is never undone: each level keeps its own copy, so
//! going back is free, where dancing links restore every link they cut.
//!
//! The item chosen, the order in which its options are tried and the
//! signatures are those of the dancing links, so the diagram is the same
//! node for node (a unit test below builds both).

use std::collections::HashMap;

use super::build::{sig_layout, Engine};
use crate::problem::{OptionId, Problem};

/// A cursor past the last option of a level.
const END: u32 = u32::MAX;

/// At most this many options (64 words per bitset).
pub(super) const MAX_OPTIONS: usize = 4096;
/// At most this many items (a level copies a count per item).
pub(super) const MAX_ITEMS: usize = 4096;
/// At most this many bytes of clash masks.
const MAX_MASK_BYTES: usize = 64 << 20;

pub(super) struct Bits {
    /// Words per bitset of options.
    words: usize,
    /// Words per bitset of primary items.
    pwords: usize,
    n1: usize,
    n: usize,
    sec_bits: u32,
    sig_words: usize,
    /// Option `o`'s entries are `start[o]..start[o + 1]`.
    start: Vec<u32>,
    /// Per entry: its item (primary items `0..n1`, then secondary items).
    item: Vec<u32>,
    /// Per entry: the mask of the options it clashes with.
    mask: Vec<u32>,
    /// Per entry: its color, 0 for none.
    color: Vec<u32>,
    /// The clash masks, `words` each; mask `i < n` holds every option on
    /// item `i`.
    masks: Vec<u64>,
    /// The states of levels `0..=depth`, end to end.
    active: Vec<u64>,
    len: Vec<i32>,
    left: Vec<u64>,
    purified: Vec<u32>,
    /// Per level: the options of its chosen item, to try in order.
    cands: Vec<u64>,
    depth: usize,
}

impl Bits {
    /// The bitset engine for `p`, or `None` when it has too many options or
    /// items, or its masks would take too much memory.
    pub(super) fn new<L>(p: &Problem<L>) -> Option<Bits> {
        if p.num_options() > MAX_OPTIONS || p.num_items() > MAX_ITEMS {
            return None;
        }
        let mut index = vec![0u32; p.num_items()];
        for (k, id) in p.items_primary_first().enumerate() {
            // Below the number of items, which fits in `u32`.
            index[id.index()] = k as u32;
        }
        let n = p.num_items();
        let n1 = p.num_primary();
        let words = p.num_options().div_ceil(64).max(1);
        // Mask numbers: items first, then each (item, color) pair met.
        let mut pairs: HashMap<(u32, u32), u32> = HashMap::new();
        let mut start = Vec::with_capacity(p.num_options() + 1);
        let mut item = Vec::with_capacity(p.num_entries());
        let mut mask = Vec::with_capacity(p.num_entries());
        let mut color = Vec::with_capacity(p.num_entries());
        let mut max_color = 0u32;
        start.push(0u32);
        for o in p.option_ids() {
            for e in p.option(o) {
                let i = index[e.item.index()];
                let c = e.color.0;
                max_color = max_color.max(c);
                item.push(i);
                color.push(c);
                mask.push(if c == 0 {
                    i
                } else {
                    let next = (n + pairs.len()) as u32;
                    *pairs.entry((i, c)).or_insert(next)
                });
            }
            start.push(item.len() as u32);
        }
        let num_masks = n + pairs.len();
        if num_masks.saturating_mul(words).saturating_mul(8) > MAX_MASK_BYTES {
            return None;
        }
        // Every option on item i; then, for a pair (i, c), those on i
        // without color c.
        let mut masks = vec![0u64; num_masks * words];
        let mut with_color = vec![0u64; pairs.len() * words];
        for o in 0..p.num_options() {
            let (w, b) = (o / 64, 1u64 << (o % 64));
            for e in start[o] as usize..start[o + 1] as usize {
                masks[item[e] as usize * words + w] |= b;
                if color[e] != 0 {
                    with_color[(mask[e] as usize - n) * words + w] |= b;
                }
            }
        }
        for (&(i, _), &m) in &pairs {
            let (m, i) = (m as usize, i as usize);
            for w in 0..words {
                masks[m * words + w] = masks[i * words + w] & !with_color[(m - n) * words + w];
            }
        }
        let (sec_bits, sig_words) = sig_layout(n1 as u32, n as u32, max_color);
        let pwords = n1.div_ceil(64).max(1);
        let mut bits = Bits {
            words,
            pwords,
            n1,
            n,
            sec_bits,
            sig_words,
            start,
            item,
            mask,
            color,
            masks,
            active: vec![0; words],
            len: vec![0; n],
            left: vec![0; pwords],
            purified: vec![0; n],
            cands: vec![0; words],
            depth: 0,
        };
        for o in 0..p.num_options() {
            bits.active[o / 64] |= 1 << (o % 64);
        }
        for e in 0..bits.item.len() {
            bits.len[bits.item[e] as usize] += 1;
        }
        for i in 0..n1 {
            bits.left[i / 64] |= 1 << (i % 64);
        }
        Some(bits)
    }

    /// The first option of level `depth`'s candidates from `from` on.
    fn next_from(&self, from: usize) -> u32 {
        let cands = &self.cands[self.depth * self.words..(self.depth + 1) * self.words];
        let mut w = from / 64;
        if w >= self.words {
            return END;
        }
        let mut x = cands[w] & (!0u64 << (from % 64));
        loop {
            if x != 0 {
                return (w * 64) as u32 + x.trailing_zeros();
            }
            w += 1;
            if w == self.words {
                return END;
            }
            x = cands[w];
        }
    }
}

impl Engine for Bits {
    fn sig_words(&self) -> usize {
        self.sig_words
    }

    fn solved(&self) -> bool {
        let d = self.depth;
        self.left[d * self.pwords..(d + 1) * self.pwords]
            .iter()
            .all(|&w| w == 0)
    }

    fn signature(&self, sig: &mut Vec<u64>) {
        let d = self.depth;
        sig.clear();
        sig.resize(self.sig_words, 0);
        sig[..self.pwords].copy_from_slice(&self.left[d * self.pwords..(d + 1) * self.pwords]);
        let len = &self.len[d * self.n..(d + 1) * self.n];
        let purified = &self.purified[d * self.n..(d + 1) * self.n];
        for k in self.n1..self.n {
            if len[k] > 0 {
                let code = 1 + u64::from(purified[k]);
                let at = self.n1 as u64 + (k - self.n1) as u64 * u64::from(self.sec_bits);
                let (w, s) = ((at / 64) as usize, at % 64);
                sig[w] |= code << s;
                if s + u64::from(self.sec_bits) > 64 {
                    sig[w + 1] |= code >> (64 - s);
                }
            }
        }
    }

    fn open(&mut self) -> (u32, u32) {
        let d = self.depth;
        let len = &self.len[d * self.n..(d + 1) * self.n];
        let (mut best, mut t) = (0usize, i32::MAX);
        'scan: for (w, &x) in self.left[d * self.pwords..(d + 1) * self.pwords]
            .iter()
            .enumerate()
        {
            let mut x = x;
            while x != 0 {
                let i = w * 64 + x.trailing_zeros() as usize;
                x &= x - 1;
                if len[i] < t {
                    best = i;
                    t = len[i];
                    if t == 0 {
                        break 'scan;
                    }
                }
            }
        }
        let words = self.words;
        let (active, opts) = (
            &self.active[d * words..(d + 1) * words],
            &self.masks[best * words..(best + 1) * words],
        );
        let cands = &mut self.cands[d * words..(d + 1) * words];
        for w in 0..words {
            cands[w] = active[w] & opts[w];
        }
        (best as u32, self.next_from(0))
    }

    fn close(&mut self, _best: u32) {}

    fn is_end(&self, _best: u32, cur: u32) -> bool {
        cur == END
    }

    fn commit(&mut self, cur: u32) {
        let (d, words, n, pwords) = (self.depth, self.words, self.n, self.pwords);
        if self.active.len() < (d + 2) * words {
            self.active.resize((d + 2) * words, 0);
            self.cands.resize((d + 2) * words, 0);
            self.len.resize((d + 2) * n, 0);
            self.purified.resize((d + 2) * n, 0);
            self.left.resize((d + 2) * pwords, 0);
        }
        let o = cur as usize;
        let entries = self.start[o] as usize..self.start[o + 1] as usize;
        // The next level's counts, purified colors and items left.
        self.len.copy_within(d * n..(d + 1) * n, (d + 1) * n);
        self.purified.copy_within(d * n..(d + 1) * n, (d + 1) * n);
        self.left
            .copy_within(d * pwords..(d + 1) * pwords, (d + 1) * pwords);
        for e in entries.clone() {
            let i = self.item[e] as usize;
            if i < self.n1 {
                self.left[(d + 1) * pwords + i / 64] &= !(1u64 << (i % 64));
            } else if self.color[e] != 0 {
                self.purified[(d + 1) * n + i] = self.color[e];
            }
        }
        // The options clashing with `o` (itself included), word by word.
        let (now, next) = self.active.split_at_mut((d + 1) * words);
        let (now, next) = (&now[d * words..(d + 1) * words], &mut next[..words]);
        let len = &mut self.len[(d + 1) * n..(d + 2) * n];
        let (start, item, masks) = (&self.start[..], &self.item[..], &self.masks[..]);
        let clash = &self.mask[entries];
        for (w, (&now, next)) in now.iter().zip(next.iter_mut()).enumerate() {
            let mut kill = if w == o / 64 { 1u64 << (o % 64) } else { 0 };
            for &m in clash {
                kill |= masks[m as usize * words + w];
            }
            let mut gone = now & kill;
            *next = now & !gone;
            while gone != 0 {
                let r = w * 64 + gone.trailing_zeros() as usize;
                gone &= gone - 1;
                for &i in &item[start[r] as usize..start[r + 1] as usize] {
                    len[i as usize] -= 1;
                }
            }
        }
        self.depth = d + 1;
    }

    fn uncommit(&mut self, _cur: u32) {
        self.depth -= 1;
    }

    fn next(&self, cur: u32) -> u32 {
        self.next_from(cur as usize + 1)
    }

    fn option_of(&self, cur: u32) -> OptionId {
        OptionId::new(cur as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::super::build::{Dance, Run};
    use super::*;
    use crate::budget::Limits;

    /// A random problem in Knuth's format: `n1` primary items, `n2`
    /// secondary ones, options of 1 to 4 items, some secondary ones colored.
    fn random_text(seed: &mut u64, n1: usize, n2: usize, options: usize) -> String {
        let mut next = |m: usize| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            (*seed % m as u64) as usize
        };
        let mut text: Vec<String> = (0..n1).map(|i| format!("p{i}")).collect();
        if n2 > 0 {
            text.push("|".into());
            text.extend((0..n2).map(|i| format!("s{i}")));
        }
        let mut lines = vec![text.join(" ")];
        for _ in 0..options {
            let mut items = vec![next(n1)];
            for _ in 0..next(4) {
                let i = next(n1 + n2);
                if !items.contains(&i) {
                    items.push(i);
                }
            }
            let words: Vec<String> = items
                .iter()
                .map(|&i| match i {
                    i if i < n1 => format!("p{i}"),
                    i => match next(3) {
                        0 => format!("s{}", i - n1),
                        c => format!("s{}:{c}", i - n1),
                    },
                })
                .collect();
            lines.push(words.join(" "));
        }
        lines.join("\n") + "\n"
    }

    fn build<E: Engine>(e: &mut E) -> (u32, Vec<super::super::ZddNode>, super::super::ZddStats) {
        let mut run = Run::new(e, &Limits::default(), None);
        let root = run.search().expect("no budget");
        (root, std::mem::take(&mut run.out.zdd), run.out.stats)
    }

    #[test]
    fn same_diagram_as_dancing_links() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut nonempty = 0;
        for round in 0..400 {
            let (n1, n2) = (3 + round % 9, round % 5);
            let text = random_text(&mut seed, n1, n2, 4 + round % 40);
            let p = crate::format::parse_dlx(&text).expect("a valid problem");
            let mut bits = Bits::new(&p).expect("few options");
            let ours = build(&mut bits);
            let theirs = build(&mut Dance::new(&p));
            assert_eq!(ours.0, theirs.0, "{text}");
            assert_eq!(ours.1, theirs.1, "{text}");
            assert_eq!(ours.2, theirs.2, "{text}");
            nonempty += usize::from(ours.0 > 1);
        }
        assert!(nonempty > 50, "{nonempty} problems with solutions");
    }

    #[test]
    fn too_many_options_or_items_fall_back() {
        let mut text = String::from("a b\n");
        for _ in 0..=MAX_OPTIONS {
            text.push_str("a b\n");
        }
        let p = crate::format::parse_dlx(&text).expect("a valid problem");
        assert!(Bits::new(&p).is_none());
        let names: Vec<String> = (0..=MAX_ITEMS).map(|i| format!("i{i}")).collect();
        let text = format!("{}\n{}\n", names.join(" "), names.join(" "));
        let p = crate::format::parse_dlx(&text).expect("a valid problem");
        assert!(Bits::new(&p).is_none());
        let text = format!("{}\n{}\n", names[1..].join(" "), names[1..].join(" "));
        let p = crate::format::parse_dlx(&text).expect("a valid problem");
        assert!(Bits::new(&p).is_some());
    }
}
