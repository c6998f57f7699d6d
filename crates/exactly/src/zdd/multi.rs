//! The diagram of a problem with multiplicities (primary items with bounds
//! `u:v|`): a binary search over the options, memoised on the set of active
//! options and on what each primary item still needs and allows.
//!
//! Under multiplicities an option stays usable after another option has
//! covered one of its items, so the set of remaining items no longer names
//! a subproblem. The state here is, per primary item, `need` (chosen
//! options it still needs) and `room` (how many more it allows), together
//! with the set of *active* options: those not yet decided that fit with
//! every choice so far (room on each of their primary items, the same color
//! on each secondary item another chosen option has colored). Two states
//! with equal active sets and equal `(need, min(room, active options on the
//! item))` per primary item have the same completions, which is the memo
//! key.
//!
//! Each state branches on one option `x` (the first active option of the
//! primary item with the fewest active options among those that still need
//! some, or the first active option when none needs any): the solutions
//! without `x` and those with it are disjoint, and the node `(x, lo, hi)`
//! joins them, so every solution lies on exactly one path.

use super::build::Diagram;
use super::{ZddError, BOTTOM, TOP};
use crate::budget::Limits;
use crate::problem::{ItemKind, OptionId, Problem};

/// The problem as flat arrays: primary items `0..n1`, secondary items
/// after them.
pub(super) struct Shape {
    n1: usize,
    /// Per option, its entries `start[k]..start[k + 1]` of `entries`.
    start: Vec<u32>,
    /// `(item, color)`, color 0 for none.
    entries: Vec<(u32, u32)>,
    /// Per item, the options that contain it with the color they give it.
    item_start: Vec<u32>,
    item_opts: Vec<(u32, u32)>,
    /// Bounds of the primary items.
    bounds: Vec<(u32, u32)>,
    words: usize,
}

impl Shape {
    pub(super) fn new<L>(p: &Problem<L>) -> Shape {
        let mut index = vec![0u32; p.num_items()];
        let mut bounds = Vec::new();
        for (k, id) in p.items_primary_first().enumerate() {
            // Below the number of items, which fits in `u32`.
            index[id.index()] = k as u32;
            if p.item_kind(id) == ItemKind::Primary {
                bounds.push(p.item_bounds(id));
            }
        }
        let mut start = Vec::with_capacity(p.num_options() + 1);
        let mut entries = Vec::with_capacity(p.num_entries());
        let mut per_item = vec![0u32; p.num_items() + 1];
        start.push(0);
        for o in p.option_ids() {
            for e in p.option(o) {
                let i = index[e.item.index()];
                entries.push((i, e.color.0));
                per_item[i as usize + 1] += 1;
            }
            start.push(entries.len() as u32);
        }
        for i in 0..p.num_items() {
            per_item[i + 1] += per_item[i];
        }
        let mut fill = per_item.clone();
        let mut item_opts = vec![(0u32, 0u32); entries.len()];
        for k in 0..p.num_options() {
            for &(i, c) in &entries[start[k] as usize..start[k + 1] as usize] {
                item_opts[fill[i as usize] as usize] = (k as u32, c);
                fill[i as usize] += 1;
            }
        }
        Shape {
            n1: bounds.len(),
            start,
            entries,
            item_start: per_item,
            item_opts,
            bounds,
            words: p.num_options().div_ceil(64),
        }
    }

    fn option(&self, k: u32) -> &[(u32, u32)] {
        &self.entries[self.start[k as usize] as usize..self.start[k as usize + 1] as usize]
    }

    fn options_of(&self, i: u32) -> &[(u32, u32)] {
        &self.item_opts
            [self.item_start[i as usize] as usize..self.item_start[i as usize + 1] as usize]
    }

    /// Words of a memo key: the active set, then one word per primary item.
    pub(super) fn key_words(&self) -> usize {
        self.words + self.n1
    }
}

/// One state of the search.
#[derive(Clone)]
struct State {
    active: Vec<u64>,
    need: Vec<u32>,
    room: Vec<u32>,
    /// Active options per primary item.
    act: Vec<u32>,
}

impl State {
    fn root(s: &Shape) -> Option<State> {
        let m = s.start.len() - 1;
        let mut active = vec![0u64; s.words];
        for k in 0..m {
            active[k / 64] |= 1 << (k % 64);
        }
        let mut st = State {
            active,
            need: s.bounds.iter().map(|b| b.0).collect(),
            room: s.bounds.iter().map(|b| b.1).collect(),
            act: (0..s.n1 as u32)
                .map(|i| s.options_of(i).len() as u32)
                .collect(),
        };
        let mut alive = true;
        // An item that allows no option rules out every option on it.
        for i in 0..s.n1 as u32 {
            if st.room[i as usize] == 0 {
                for &(y, _) in s.options_of(i) {
                    st.drop_option(s, y);
                }
            }
        }
        for i in 0..s.n1 {
            alive &= st.act[i] >= st.need[i];
        }
        alive.then_some(st)
    }

    fn is_active(&self, k: u32) -> bool {
        self.active[k as usize / 64] >> (k % 64) & 1 == 1
    }

    /// Makes option `k` inactive (if it is active).
    fn drop_option(&mut self, s: &Shape, k: u32) {
        if !self.is_active(k) {
            return;
        }
        self.active[k as usize / 64] &= !(1 << (k % 64));
        for &(i, _) in s.option(k) {
            if (i as usize) < s.n1 {
                self.act[i as usize] -= 1;
            }
        }
    }

    /// Every primary item can still get what it needs.
    fn feasible(&self) -> bool {
        self.act.iter().zip(&self.need).all(|(a, n)| a >= n)
    }

    /// The state after deciding against `x`, or `None` when it has no
    /// solution.
    fn without(&self, s: &Shape, x: u32) -> Option<State> {
        let mut st = self.clone();
        st.drop_option(s, x);
        st.feasible().then_some(st)
    }

    /// The state after choosing `x`, or `None` when it has no solution.
    fn with(&self, s: &Shape, x: u32) -> Option<State> {
        let mut st = self.clone();
        st.drop_option(s, x);
        for &(i, c) in s.option(x) {
            let iu = i as usize;
            if iu < s.n1 {
                st.need[iu] = st.need[iu].saturating_sub(1);
                st.room[iu] -= 1;
                if st.room[iu] == 0 {
                    for &(y, _) in s.options_of(i) {
                        st.drop_option(s, y);
                    }
                }
            } else {
                // Another option may share the secondary item only in the
                // same color (none when `x` leaves it uncolored).
                for &(y, d) in s.options_of(i) {
                    if c == 0 || d != c {
                        st.drop_option(s, y);
                    }
                }
            }
        }
        st.feasible().then_some(st)
    }

    /// The option to branch on, or `None` when no option is active (then
    /// every need is met, as the state is feasible).
    fn choose(&self, s: &Shape) -> Option<u32> {
        let mut best: Option<(u32, u32)> = None;
        for i in 0..s.n1 {
            if self.need[i] > 0 && best.is_none_or(|(_, a)| self.act[i] < a) {
                best = Some((i as u32, self.act[i]));
            }
        }
        match best {
            Some((i, _)) => s
                .options_of(i)
                .iter()
                .map(|&(y, _)| y)
                .find(|&y| self.is_active(y)),
            None => self
                .active
                .iter()
                .position(|&w| w != 0)
                .map(|w| w as u32 * 64 + self.active[w].trailing_zeros()),
        }
    }

    fn key(&self, out: &mut Vec<u64>) {
        out.clear();
        out.extend_from_slice(&self.active);
        for i in 0..self.need.len() {
            let room = self.room[i].min(self.act[i]);
            out.push(u64::from(self.need[i]) << 32 | u64::from(room));
        }
    }
}

struct Frame {
    state: State,
    x: u32,
    entry: u32,
    /// 0: `lo` next, 1: `hi` next, 2: both known.
    phase: u8,
    lo: u32,
    hi: u32,
}

enum Entered {
    Done(u32),
    Open(Frame),
}

pub(super) struct MultiRun<'s> {
    shape: &'s Shape,
    pub(super) out: Diagram,
    key: Vec<u64>,
}

impl<'s> MultiRun<'s> {
    pub(super) fn new(shape: &'s Shape, limits: &Limits, max_bytes: Option<u64>) -> Self {
        MultiRun {
            shape,
            out: Diagram::new(limits, max_bytes, shape.key_words()),
            key: Vec::new(),
        }
    }

    /// Enters a state: its diagram when known (a terminal or a memo hit),
    /// else a frame to work it out.
    fn enter(&mut self, state: Option<State>) -> Result<Entered, ZddError> {
        self.out.stats.nodes += 1;
        self.out.check()?;
        let Some(state) = state else {
            return Ok(Entered::Done(BOTTOM));
        };
        let Some(x) = state.choose(self.shape) else {
            return Ok(Entered::Done(TOP));
        };
        state.key(&mut self.key);
        match self.out.memo.find_or_insert(&self.key) {
            Ok(z) => {
                self.out.stats.hits += 1;
                Ok(Entered::Done(z))
            }
            Err(entry) => {
                self.out.stats.memos += 1;
                Ok(Entered::Open(Frame {
                    state,
                    x,
                    entry,
                    phase: 0,
                    lo: BOTTOM,
                    hi: BOTTOM,
                }))
            }
        }
    }

    /// The root of the diagram, depth first with an explicit stack.
    pub(super) fn search(&mut self) -> Result<u32, ZddError> {
        let shape = self.shape;
        let mut frames = match self.enter(State::root(shape))? {
            Entered::Done(z) => {
                self.out.stats.bytes = self.out.bytes();
                return Ok(z);
            }
            Entered::Open(f) => vec![f],
        };
        loop {
            let top = frames.last_mut().expect("a frame is open");
            let child = match top.phase {
                0 => top.state.without(shape, top.x),
                1 => top.state.with(shape, top.x),
                _ => {
                    let f = frames.pop().expect("a frame is open");
                    let z = if f.hi == BOTTOM {
                        f.lo
                    } else {
                        self.out.make(OptionId::new(f.x as usize), f.lo, f.hi)?
                    };
                    self.out.memo.zdd[f.entry as usize] = z;
                    match frames.last_mut() {
                        None => {
                            self.out.stats.bytes = self.out.bytes();
                            return Ok(z);
                        }
                        Some(parent) => parent.set(z),
                    }
                    continue;
                }
            };
            top.phase += 1;
            match self.enter(child)? {
                Entered::Done(z) => frames.last_mut().expect("a frame is open").set(z),
                Entered::Open(f) => frames.push(f),
            }
        }
    }
}

impl Frame {
    /// Records the diagram of the child just finished.
    fn set(&mut self, z: u32) {
        if self.phase == 1 {
            self.lo = z;
        } else {
            self.hi = z;
        }
    }
}
