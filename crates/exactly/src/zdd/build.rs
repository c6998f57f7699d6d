//! The search that builds the diagram: dancing links in which secondary
//! items keep their lengths, so that a secondary item no active option uses
//! drops out of the signature; subproblems with equal signatures share one
//! diagram through the memo.

use hashbrown::HashTable;

use super::{ZddError, ZddNode, ZddStats, BOTTOM, TOP};
use crate::budget::{Budget, Limits, StopReason};
use crate::problem::{OptionId, Problem};

/// Headers are `1..=n` (primary items first); node 0 heads the list of
/// primary items to cover and node `n + 1` the list of open secondary items.
/// Option nodes follow, each option preceded by a spacer whose `itm` is
/// `-(k + 1)` for option `k`; a spacer's `up` is the first node of the option
/// before it and its `down` the last node of the option after it.
/// The bits per secondary item and the words of a signature, for `n1`
/// primary items among `n` and colors `1..=max_color`.
pub(super) fn sig_layout(n1: u32, n: u32, max_color: u32) -> (u32, usize) {
    // Codes 0 (absent), 1 (open), 1 + c (purified to c, 1 ≤ c ≤
    // max_color): max_color + 2 codes, the largest max_color + 1.
    let codes = u64::from(max_color) + 2;
    let sec_bits = 64 - (codes - 1).leading_zeros().min(63);
    let bits = u64::from(n1) + u64::from(n - n1) * u64::from(sec_bits);
    (sec_bits, bits.div_ceil(64).max(1) as usize)
}

/// What the search of [`Run`] needs of a state: its signature, the item to
/// branch on and its options in order, taking an option and going back.
/// Cursors name an option of the current level; `best` the item chosen.
pub(super) trait Engine {
    /// Words in a signature.
    fn sig_words(&self) -> usize;
    /// True when no primary item is left to cover.
    fn solved(&self) -> bool;
    fn signature(&self, sig: &mut Vec<u64>);
    /// Chooses the primary item with the fewest active options (the first
    /// in item order among ties) and opens a level on it: the item and a
    /// cursor on its first option.
    fn open(&mut self) -> (u32, u32);
    /// Closes the level opened on `best`.
    fn close(&mut self, best: u32);
    /// True when `cur` is past the last option of the level on `best`.
    fn is_end(&self, best: u32, cur: u32) -> bool;
    /// Takes the option of `cur`.
    fn commit(&mut self, cur: u32);
    /// Undoes [`Engine::commit`] of `cur`.
    fn uncommit(&mut self, cur: u32);
    /// The cursor after `cur` on its level.
    fn next(&self, cur: u32) -> u32;
    fn option_of(&self, cur: u32) -> OptionId;
}

pub(super) struct Dance {
    /// Every node's links, item and color together, as in Knuth's programs
    /// (one cache line touched per node a hide or unhide visits).
    nd: Vec<Node>,
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
    pub(super) fn new<L>(p: &Problem<L>) -> Dance {
        let mut header_of = vec![0u32; p.num_items()];
        for (h, id) in p.items_primary_first().enumerate() {
            // Headers from 1; below the number of items, which fits in `u32`.
            header_of[id.index()] = h as u32 + 1;
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
        let (sec_bits, sig_words) = sig_layout(n1, n, max_color);
        let nd = (0..total)
            .map(|x| Node {
                up: up[x],
                down: down[x],
                itm: itm[x],
                color: color[x],
            })
            .collect();
        Dance {
            nd,
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
    fn hide(&mut self, rr: u32) {
        let mut nn = rr + 1;
        while nn != rr {
            let cc = self.nd[nn as usize].itm;
            if cc <= 0 {
                nn = self.nd[nn as usize].up;
                continue;
            }
            if self.nd[nn as usize].color >= 0 {
                let (u, d) = (self.nd[nn as usize].up, self.nd[nn as usize].down);
                self.nd[u as usize].down = d;
                self.nd[d as usize].up = u;
            }
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
            let cc = self.nd[nn as usize].itm;
            if cc <= 0 {
                nn = self.nd[nn as usize].down;
                continue;
            }
            if self.nd[nn as usize].color >= 0 {
                let (u, d) = (self.nd[nn as usize].up, self.nd[nn as usize].down);
                self.nd[u as usize].down = nn;
                self.nd[d as usize].up = nn;
            }
            let cc = cc as u32;
            self.len[cc as usize] += 1;
            if self.len[cc as usize] == 1 && cc > self.n1 {
                self.relink_item(cc);
            }
            nn -= 1;
        }
    }

    fn cover(&mut self, c: u32) {
        self.unlink_item(c);
        let mut rr = self.nd[c as usize].down;
        while rr != c {
            self.hide(rr);
            rr = self.nd[rr as usize].down;
        }
    }

    fn uncover(&mut self, c: u32) {
        let mut rr = self.nd[c as usize].up;
        while rr != c {
            self.unhide(rr);
            rr = self.nd[rr as usize].up;
        }
        self.relink_item(c);
    }

    fn purify(&mut self, p: u32) {
        let cc = self.nd[p as usize].itm as u32;
        let x = self.nd[p as usize].color;
        self.purified[cc as usize] = x;
        let mut tt = self.len[cc as usize];
        let mut rr = self.nd[cc as usize].down;
        while rr != cc {
            if self.nd[rr as usize].color != x {
                tt -= 1;
                self.hide(rr);
            } else {
                self.nd[rr as usize].color = -1;
            }
            rr = self.nd[rr as usize].down;
        }
        if tt > 0 {
            self.len[cc as usize] = tt;
        } else {
            self.len[cc as usize] = -1;
            self.unlink_item(cc);
        }
    }

    fn unpurify(&mut self, p: u32) {
        let cc = self.nd[p as usize].itm as u32;
        let x = self.nd[p as usize].color;
        self.purified[cc as usize] = 0;
        let mut tt = self.len[cc as usize];
        if tt < 0 {
            tt = 0;
            self.relink_item(cc);
        }
        let mut rr = self.nd[cc as usize].up;
        while rr != cc {
            if self.nd[rr as usize].color < 0 {
                self.nd[rr as usize].color = x;
            } else {
                tt += 1;
                self.unhide(rr);
            }
            rr = self.nd[rr as usize].up;
        }
        self.len[cc as usize] = tt;
    }

    /// Covers or purifies the items of `x`'s option other than `x`'s own.
    fn commit_others(&mut self, x: u32) {
        let mut pp = x + 1;
        while pp != x {
            let cc = self.nd[pp as usize].itm;
            if cc <= 0 {
                pp = self.nd[pp as usize].up;
                continue;
            }
            let cc = cc as u32;
            if cc <= self.n1 || self.len[cc as usize] != 0 {
                match self.nd[pp as usize].color {
                    0 => self.cover(cc),
                    c if c > 0 => self.purify(pp),
                    _ => {}
                }
            }
            pp += 1;
        }
    }

    fn uncommit_others(&mut self, x: u32) {
        let mut pp = x - 1;
        while pp != x {
            let cc = self.nd[pp as usize].itm;
            if cc <= 0 {
                pp = self.nd[pp as usize].down;
                continue;
            }
            let cc = cc as u32;
            if cc <= self.n1 || self.len[cc as usize] != 0 {
                match self.nd[pp as usize].color {
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
        while self.nd[x as usize].itm > 0 {
            x -= 1;
        }
        OptionId::new((-self.nd[x as usize].itm - 1) as usize)
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

    fn sig(&self, sig: &mut Vec<u64>) {
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
                    c => 1 + c as u64,
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

impl Engine for Dance {
    fn sig_words(&self) -> usize {
        self.sig_words
    }

    fn solved(&self) -> bool {
        self.next[0] == 0
    }

    fn signature(&self, sig: &mut Vec<u64>) {
        self.sig(sig);
    }

    fn open(&mut self) -> (u32, u32) {
        let best = self.choose();
        self.cover(best);
        (best, self.nd[best as usize].down)
    }

    fn close(&mut self, best: u32) {
        self.uncover(best);
    }

    fn is_end(&self, best: u32, cur: u32) -> bool {
        cur == best
    }

    fn commit(&mut self, cur: u32) {
        self.commit_others(cur);
    }

    fn uncommit(&mut self, cur: u32) {
        self.uncommit_others(cur);
    }

    fn next(&self, cur: u32) -> u32 {
        self.nd[cur as usize].down
    }

    fn option_of(&self, cur: u32) -> OptionId {
        Dance::option_of(self, cur)
    }
}

/// One node of the dancing links.
#[derive(Clone, Copy, Default)]
struct Node {
    up: u32,
    down: u32,
    /// Header index for option nodes, `-(k + 1)` for spacers.
    itm: i32,
    /// Color of an option node (`0` none, `-1` already agreeing).
    color: i32,
}

struct Level {
    best: u32,
    cur: u32,
    saved: u32,
    /// The memo entry of this level's state.
    memo: u32,
}

/// What both builders write and keep within bounds: the diagram's nodes,
/// the memo of the states whose diagrams are known, the statistics, and the
/// budgets (limits and memory) they are held to.
pub(super) struct Diagram {
    budget: Budget,
    max_bytes: Option<u64>,
    pub(super) zdd: Vec<ZddNode>,
    pub(super) memo: Memo,
    pub(super) stats: ZddStats,
}

impl Diagram {
    /// An empty diagram, its time counted from now; memo keys of `words`
    /// words.
    pub(super) fn new(limits: &Limits, max_bytes: Option<u64>, words: usize) -> Diagram {
        let mut budget = Budget::new(limits);
        budget.start();
        Diagram {
            budget,
            max_bytes,
            zdd: Vec::new(),
            memo: Memo::new(words),
            stats: ZddStats::default(),
        }
    }

    /// The memory taken so far.
    pub(super) fn bytes(&self) -> u64 {
        self.memo.bytes(self.zdd.len())
    }

    /// The budget check, made once a node is counted in `stats.nodes`: the
    /// node budget on every node; the time, the cancel flag and the memory
    /// limit every 1,024 nodes (more often than the other searches: the
    /// memory estimate is cheap and memory grows fast).
    pub(super) fn check(&mut self) -> Result<(), ZddError> {
        let diagram_nodes = self.zdd.len();
        let stopped = |reason, stats: &ZddStats| ZddError::Stopped {
            reason,
            stats: *stats,
            diagram_nodes,
        };
        // The nodes before this one used the budget.
        if self.budget.out_of_nodes(self.stats.nodes - 1) {
            return Err(stopped(StopReason::NodeLimit, &self.stats));
        }
        if self.stats.nodes % 1024 == 0 {
            if let Err(reason) = self.budget.poll(self.stats.nodes) {
                return Err(stopped(reason, &self.stats));
            }
            if let Some(limit) = self.max_bytes {
                let bytes = self.memo.bytes(diagram_nodes);
                if bytes > limit {
                    self.stats.bytes = bytes;
                    return Err(ZddError::Memory {
                        limit,
                        stats: self.stats,
                    });
                }
            }
        }
        Ok(())
    }

    /// A new node of the diagram: its number (0 and 1 are the terminals).
    pub(super) fn make(&mut self, option: OptionId, lo: u32, hi: u32) -> Result<u32, ZddError> {
        let r = self.zdd.len() + 2;
        if r >= u32::MAX as usize {
            return Err(ZddError::TooManyNodes);
        }
        self.zdd.push(ZddNode { option, lo, hi });
        Ok(r as u32)
    }
}

/// Signatures end to end in one array (all of the same length), found
/// through a table of entry numbers; each entry's diagram in `zdd`.
pub(super) struct Memo {
    words: usize,
    keys: Vec<u64>,
    hashes: Vec<u64>,
    pub(super) zdd: Vec<u32>,
    table: HashTable<u32>,
}

impl Memo {
    pub(super) fn new(words: usize) -> Memo {
        Memo {
            words,
            keys: Vec::new(),
            hashes: Vec::new(),
            zdd: Vec::new(),
            table: HashTable::new(),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.zdd.len()
    }

    /// The bytes held by the memo and by a diagram of `diagram_nodes`
    /// nodes: per entry a key, its hash, its diagram, and a table slot with
    /// its control byte at a load of at most 7/8; 12 bytes a diagram node.
    pub(super) fn bytes(&self, diagram_nodes: usize) -> u64 {
        let per_memo = (self.words * 8 + 8 + 4 + 5) as u64;
        self.len() as u64 * per_memo + diagram_nodes as u64 * 12
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
    pub(super) fn find_or_insert(&mut self, sig: &[u64]) -> Result<u32, u32> {
        let h = Memo::hash(sig);
        let w = self.words;
        let keys = &self.keys;
        if let Some(&e) = self.table.find(h, |&e| {
            // Word by word: shorter than a call to `memcmp`.
            let key = &keys[e as usize * w..(e as usize + 1) * w];
            key.iter().zip(sig).all(|(a, b)| a == b)
        }) {
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

pub(super) struct Run<'d, E> {
    dance: &'d mut E,
    pub(super) out: Diagram,
}

impl<'d, E: Engine> Run<'d, E> {
    pub(super) fn new(dance: &'d mut E, limits: &Limits, max_bytes: Option<u64>) -> Self {
        let words = dance.sig_words();
        Run {
            dance,
            out: Diagram::new(limits, max_bytes, words),
        }
    }

    /// DLX6's loop (forward, advance, backup, recover) with an explicit
    /// stack; `znode` is the diagram of the options tried so far on the
    /// current level, `zsol` that of the level just finished.
    pub(super) fn search(&mut self) -> Result<u32, ZddError> {
        if self.dance.solved() {
            // No primary item: the empty solution alone.
            self.out.stats.nodes = 1;
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
                    self.out.stats.nodes += 1;
                    self.out.check()?;
                    self.dance.signature(&mut sig);
                    match self.out.memo.find_or_insert(&sig) {
                        Ok(z) => {
                            self.out.stats.hits += 1;
                            znode = z;
                            Step::Backdown
                        }
                        Err(entry) => {
                            self.out.stats.memos += 1;
                            znode = BOTTOM;
                            (best, cur) = self.dance.open();
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
                    if self.dance.is_end(best, cur) {
                        Step::Backup
                    } else {
                        self.dance.commit(cur);
                        if self.dance.solved() {
                            // A solution: a node of its own, as in DLX6.
                            self.out.stats.nodes += 1;
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
                    self.dance.close(best);
                    let level = levels.pop().expect("a level is open");
                    self.out.memo.zdd[level.memo as usize] = znode;
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
                    self.dance.uncommit(cur);
                    if zsol != BOTTOM {
                        znode = self.out.make(self.dance.option_of(cur), znode, zsol)?;
                    }
                    cur = self.dance.next(cur);
                    Step::Advance
                }
            };
        }
        self.out.stats.bytes = self.out.bytes();
        Ok(znode)
    }
}
