//! The dancing-links structure of Knuth's Algorithms X and C, in one flat node
//! array with 32-bit indices.
//!
//! Layout (as in Knuth's DLX programs): node 0 is the root; nodes `1..=n` are
//! the item headers (primary items first, in declaration order, then the
//! secondary items); then the options follow, each preceded by a spacer node.
//! A header's `top` holds the length of its item's list; an option node's `top`
//! holds its item's header index; a spacer's `top` is `-k` where `k` is the
//! number of options before it, its `up` the first node of the option before
//! it and its `down` the last node of the option after it. Primary headers are
//! linked horizontally in `llink`/`rlink`, a circular list through the root.

use super::{pick, Frame, NodeChange, Structure};
use crate::problem::{ItemId, OptionId, Problem};
use crate::unchecked::At;

/// One node: 16 bytes, four to a cache line.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Node {
    /// Header: list length. Option node: header index. Spacer: `-k`.
    pub top: i32,
    pub up: u32,
    pub down: u32,
    /// 0: no color; > 0: color id; -1: already known to agree (purified).
    pub color: i32,
}

/// The mutable links of one search.
#[derive(Clone, Debug)]
pub(crate) struct Links {
    pub nodes: Vec<Node>,
    pub llink: Vec<u32>,
    pub rlink: Vec<u32>,
    /// Header index → item id (declaration order).
    pub header_item: Vec<u32>,
    /// Item id → header.
    pub header_of: Vec<u32>,
    /// Number of primary items.
    pub n1: u32,
    /// Node index of the spacer before option 0.
    pub first_spacer: u32,
    /// Running count of link updates (removals), Knuth's "updates".
    pub updates: u64,
    /// The active primary items with no option left, kept where
    /// `track_zeros` is set (the search's structure is then a
    /// [`Dlx`] with `Z`). While there are none, the leftmost item with one
    /// option is DLX1's choice, and the scan for it stops there.
    pub zeros: u32,
    /// Whether the search keeps `zeros`: past
    /// [`MANY_PRIMARY`](super::MANY_PRIMARY) primary items, where a scan
    /// of every item at each forced move costs more than the count.
    /// PERF: the count cost 29% of the time of the 6x10 pentominoes (72
    /// items) on dancing links.
    pub track_zeros: bool,
    /// Whether any option colors a secondary item (Algorithm C is needed).
    pub colors: bool,
    /// The link changes made since the last drain, when the search records
    /// them (a trace with node changes): see [`Change`].
    pub journal: Vec<Change>,
}

/// One link change recorded for a trace: node `node` (an option node, or an
/// item header when the item is covered) left its list or came back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Change {
    pub node: u32,
    pub back: bool,
}

impl Links {
    pub fn new<L>(problem: &Problem<L>) -> Links {
        let n_items = problem.num_items();
        let mut header_of = vec![0u32; n_items];
        let mut header_item = vec![u32::MAX];
        for id in problem.items_primary_first() {
            header_of[id.index()] = header_item.len() as u32;
            header_item.push(id.0);
        }
        let n1 = problem.num_primary() as u32;
        let n = n_items as u32;
        let total = n as usize + 1 + problem.num_entries() + problem.num_options() + 1;
        let mut nodes = vec![Node::default(); total];
        for (h, node) in nodes.iter_mut().enumerate().take(n as usize + 1).skip(1) {
            node.up = h as u32;
            node.down = h as u32;
        }
        let mut llink = vec![0u32; n1 as usize + 1];
        let mut rlink = vec![0u32; n1 as usize + 1];
        for i in 0..=n1 {
            llink[i as usize] = if i == 0 { n1 } else { i - 1 };
            rlink[i as usize] = if i == n1 { 0 } else { i + 1 };
        }
        let first_spacer = n + 1;
        let mut spacer = first_spacer as usize;
        nodes[spacer].top = 0;
        for (k, opt) in problem.option_ids().enumerate() {
            let entries = problem.option(opt);
            let first = spacer + 1;
            for (j, e) in entries.iter().enumerate() {
                let x = first + j;
                let h = header_of[e.item.index()] as usize;
                let last = nodes[h].up as usize;
                nodes[x] = Node {
                    top: h as i32,
                    up: last as u32,
                    down: h as u32,
                    color: e.color.0 as i32,
                };
                nodes[last].down = x as u32;
                nodes[h].up = x as u32;
                nodes[h].top += 1;
            }
            let last = first + entries.len() - 1;
            nodes[spacer].down = last as u32;
            let next = last + 1;
            nodes[next] = Node {
                top: -(k as i32 + 1),
                up: first as u32,
                down: 0,
                color: 0,
            };
            spacer = next;
        }
        let mut links = Links {
            nodes,
            llink,
            rlink,
            header_item,
            header_of,
            n1,
            first_spacer,
            updates: 0,
            zeros: 0,
            track_zeros: n1 as usize > super::MANY_PRIMARY,
            colors: problem.has_colors(),
            journal: Vec::new(),
        };
        links.recount_zeros();
        links
    }

    /// Counts [`Links::zeros`] afresh, walking the active primary items.
    pub fn recount_zeros(&mut self) {
        let mut zeros = 0;
        let mut k = self.rlink[0];
        while k != 0 {
            zeros += u32::from(self.len(k) == 0);
            k = self.rlink[k as usize];
        }
        self.zeros = zeros;
    }

    /// The option that node `x` belongs to.
    pub fn option_of(&self, x: u32) -> OptionId {
        option_at(&self.nodes, x)
    }

    #[inline(always)]
    pub fn len(&self, item: u32) -> u32 {
        self.nodes.at(item).top as u32
    }

    /// Removes from other lists every node of the option containing `p`,
    /// except `p` itself (Knuth's `hide`, skipping purified nodes with colors).
    #[inline(always)]
    fn hide<const C: bool, const T: bool, const Z: bool>(&mut self, p: u32) {
        let nodes = &mut self.nodes[..];
        let journal = &mut self.journal;
        let n1 = self.n1;
        let mut q = p + 1;
        let mut updates = 0;
        let mut zeros = 0;
        while q != p {
            let n = nodes.at(q);
            if n.top <= 0 {
                q = n.up;
                continue;
            }
            if !C || n.color >= 0 {
                nodes.at_mut(n.up).down = n.down;
                nodes.at_mut(n.down).up = n.up;
                let header = nodes.at_mut(n.top as u32);
                header.top -= 1;
                if Z && header.top == 0 && n.top as u32 <= n1 {
                    zeros += 1;
                }
                updates += 1;
                if T {
                    journal.push(Change {
                        node: q,
                        back: false,
                    });
                }
            }
            q += 1;
        }
        self.updates += updates;
        if Z {
            self.zeros += zeros;
        }
    }

    /// Undoes [`Links::hide`], walking the option the other way.
    #[inline(always)]
    fn unhide<const C: bool, const T: bool, const Z: bool>(&mut self, p: u32) {
        let nodes = &mut self.nodes[..];
        let journal = &mut self.journal;
        let n1 = self.n1;
        let mut q = p - 1;
        let mut zeros = 0;
        while q != p {
            let n = nodes.at(q);
            if n.top <= 0 {
                q = n.down;
                continue;
            }
            if !C || n.color >= 0 {
                nodes.at_mut(n.up).down = q;
                nodes.at_mut(n.down).up = q;
                let header = nodes.at_mut(n.top as u32);
                if Z && header.top == 0 && n.top as u32 <= n1 {
                    zeros += 1;
                }
                header.top += 1;
                if T {
                    journal.push(Change {
                        node: q,
                        back: true,
                    });
                }
            }
            q -= 1;
        }
        if Z {
            self.zeros -= zeros;
        }
    }

    /// Covers item `i`: hides every option in its list and unlinks it.
    #[inline(always)]
    pub fn cover<const C: bool, const T: bool, const Z: bool>(&mut self, i: u32) {
        if T {
            self.journal.push(Change {
                node: i,
                back: false,
            });
        }
        let mut p = self.nodes.at(i).down;
        while p != i {
            self.hide::<C, T, Z>(p);
            p = self.nodes.at(p).down;
        }
        if i <= self.n1 {
            let (l, r) = (self.llink[i as usize], self.rlink[i as usize]);
            self.rlink[l as usize] = r;
            self.llink[r as usize] = l;
            if Z {
                self.zeros -= u32::from(self.len(i) == 0);
            }
        }
    }

    /// Undoes [`Links::cover`].
    #[inline(always)]
    pub fn uncover<const C: bool, const T: bool, const Z: bool>(&mut self, i: u32) {
        if i <= self.n1 {
            let (l, r) = (self.llink[i as usize], self.rlink[i as usize]);
            self.rlink[l as usize] = i;
            self.llink[r as usize] = i;
            if Z {
                self.zeros += u32::from(self.len(i) == 0);
            }
        }
        let mut p = self.nodes.at(i).up;
        while p != i {
            self.unhide::<C, T, Z>(p);
            p = self.nodes.at(p).up;
        }
        if T {
            self.journal.push(Change {
                node: i,
                back: true,
            });
        }
    }

    /// Keeps only the options that agree with node `p`'s color on its item;
    /// the others' nodes are marked `-1` (known to agree), except `p` itself,
    /// which keeps its color so that [`Links::unpurify`] can read it.
    #[inline(always)]
    fn purify<const T: bool, const Z: bool>(&mut self, p: u32) {
        let c = self.nodes.at(p).color;
        let i = self.nodes.at(p).top as u32;
        let mut q = self.nodes.at(i).down;
        while q != i {
            if self.nodes.at(q).color == c {
                if q != p {
                    self.nodes.at_mut(q).color = -1;
                }
            } else {
                self.hide::<true, T, Z>(q);
            }
            q = self.nodes.at(q).down;
        }
    }

    /// Undoes [`Links::purify`].
    #[inline(always)]
    fn unpurify<const T: bool, const Z: bool>(&mut self, p: u32) {
        let c = self.nodes.at(p).color;
        let i = self.nodes.at(p).top as u32;
        let mut q = self.nodes.at(i).up;
        while q != i {
            if self.nodes.at(q).color < 0 {
                self.nodes.at_mut(q).color = c;
            } else if q != p {
                self.unhide::<true, T, Z>(q);
            }
            q = self.nodes.at(q).up;
        }
    }

    /// Algorithm C's `commit`: covers a primary or uncolored secondary item,
    /// purifies a colored one.
    #[inline(always)]
    fn commit<const C: bool, const T: bool, const Z: bool>(&mut self, p: u32, j: u32) {
        if !C {
            self.cover::<false, T, Z>(j);
            return;
        }
        let c = self.nodes.at(p).color;
        if c == 0 {
            self.cover::<true, T, Z>(j);
        } else if c > 0 {
            self.purify::<T, Z>(p);
        }
    }

    /// Undoes [`Links::commit`].
    #[inline(always)]
    fn uncommit<const C: bool, const T: bool, const Z: bool>(&mut self, p: u32, j: u32) {
        if !C {
            self.uncover::<false, T, Z>(j);
            return;
        }
        let c = self.nodes.at(p).color;
        if c == 0 {
            self.uncover::<true, T, Z>(j);
        } else if c > 0 {
            self.unpurify::<T, Z>(p);
        }
    }

    /// Commits every item of the option containing `x` except `x`'s own item
    /// (step C5 of Algorithm C).
    #[inline(always)]
    pub fn commit_others<const C: bool, const T: bool, const Z: bool>(&mut self, x: u32) {
        let mut p = x + 1;
        while p != x {
            let j = self.nodes.at(p).top;
            if j <= 0 {
                p = self.nodes.at(p).up;
            } else {
                self.commit::<C, T, Z>(p, j as u32);
                p += 1;
            }
        }
    }

    /// Undoes [`Links::commit_others`] (step C6), right to left.
    #[inline(always)]
    pub fn uncommit_others<const C: bool, const T: bool, const Z: bool>(&mut self, x: u32) {
        let mut p = x - 1;
        while p != x {
            let j = self.nodes.at(p).top;
            if j <= 0 {
                p = self.nodes.at(p).down;
            } else {
                self.uncommit::<C, T, Z>(p, j as u32);
                p -= 1;
            }
        }
    }

    /// Checks the link invariants: every list is doubly linked, lengths match,
    /// and the active primary items form a circular list. Used by the
    /// `debug-checks` feature and by tests.
    /// With `zeros`, also checks [`Links::zeros`].
    pub fn check(
        &self,
        active_headers: impl Iterator<Item = u32>,
        zeros: bool,
    ) -> Result<(), String> {
        for i in active_headers {
            let mut count = 0;
            let mut q = self.nodes.at(i).down;
            let mut prev = i;
            while q != i {
                if self.nodes.at(q).up != prev {
                    return Err(format!("item {i}: node {q} has a bad up link"));
                }
                if self.nodes.at(q).top != i as i32 {
                    return Err(format!("item {i}: node {q} belongs elsewhere"));
                }
                count += 1;
                if count > self.nodes.len() {
                    return Err(format!("item {i}: list does not close"));
                }
                prev = q;
                q = self.nodes.at(q).down;
            }
            if self.nodes.at(i).up != prev {
                return Err(format!("item {i}: header has a bad up link"));
            }
            if self.len(i) as usize != count {
                return Err(format!(
                    "item {i}: length {} but {} nodes",
                    self.len(i),
                    count
                ));
            }
        }
        let mut k = self.rlink[0];
        let mut steps = 0;
        let mut empty = 0;
        while k != 0 {
            if self.llink[self.rlink[k as usize] as usize] != k {
                return Err(format!("item {k}: horizontal links broken"));
            }
            steps += 1;
            if steps > self.n1 {
                return Err("horizontal list does not close".into());
            }
            empty += u32::from(self.len(k) == 0);
            k = self.rlink[k as usize];
        }
        if zeros && empty != self.zeros {
            return Err(format!(
                "{empty} active primary items have no option, but {} are counted",
                self.zeros
            ));
        }
        Ok(())
    }
}

/// The option that node `x` of `nodes` belongs to.
fn option_at(nodes: &[Node], mut x: u32) -> OptionId {
    while nodes.at(x).top > 0 {
        x += 1;
    }
    OptionId((-nodes.at(x).top - 1) as u32)
}

/// [`Links`] seen as a search structure; `C` tells whether colors are in play
/// (without them, Algorithm C's color tests compile away), `T` whether each
/// link change is recorded in [`Links::journal`] for a trace (without it,
/// the recording compiles away).
pub(crate) struct Dlx<'a, const C: bool, const T: bool = false, const Z: bool = false>(
    pub &'a mut Links,
);

/// What a level of the search keeps: the node of the option being tried
/// (the item's header before the first).
pub(crate) type Level = u32;

impl<const C: bool, const T: bool, const Z: bool> Structure for Dlx<'_, C, T, Z> {
    type Level = Level;

    fn updates(&self) -> u64 {
        self.0.updates
    }

    fn set_updates(&mut self, updates: u64) {
        self.0.updates = updates;
    }

    #[inline(always)]
    fn primaries_left(&mut self) -> u32 {
        let first = self.0.rlink[0];
        if first == 0 {
            0
        } else if self.0.rlink[first as usize] == 0 {
            1
        } else {
            2
        }
    }

    #[inline(always)]
    fn choose(&mut self, rng: &mut Option<u64>, enough: u32) -> u32 {
        let links = &*self.0;
        let mut best = 0;
        let mut t = u32::MAX;
        let mut k = links.rlink[0];
        match rng {
            None => {
                // With no item left without options, the leftmost with one
                // is the leftmost with the fewest. PERF: a forced move is
                // found without reading every item after it: a problem of
                // many items and forced moves (a million options of two
                // items each, none sharing one) took time quadratic in its
                // size.
                let enough = if Z && links.zeros == 0 {
                    enough.max(1)
                } else {
                    enough
                };
                while k != 0 {
                    let len = links.len(k);
                    if len < t {
                        best = k;
                        t = len;
                        if t <= enough {
                            break;
                        }
                    }
                    k = links.rlink.at(k);
                }
            }
            Some(state) => {
                let mut ties = 0u64;
                while k != 0 {
                    pick(k, links.len(k), &mut best, &mut t, &mut ties, state);
                    if t == 0 {
                        break;
                    }
                    k = links.rlink.at(k);
                }
            }
        }
        best
    }

    #[inline(always)]
    fn len(&self, item: u32) -> u32 {
        self.0.len(item)
    }

    fn enter(&mut self, frame: &mut Frame<Level>) {
        self.0.cover::<C, T, Z>(frame.item);
        frame.state = frame.item;
    }

    #[inline(always)]
    fn next_option(&mut self, frame: &mut Frame<Level>) -> Option<u32> {
        if frame.k > 0 {
            self.0.uncommit_others::<C, T, Z>(frame.state);
        }
        let x = self.0.nodes.at(frame.state).down;
        if x == frame.item {
            self.0.uncover::<C, T, Z>(frame.item);
            return None;
        }
        frame.state = x;
        frame.k += 1;
        self.0.commit_others::<C, T, Z>(x);
        Some(x)
    }

    fn seek(&mut self, frame: &mut Frame<Level>, option: OptionId) -> Option<u32> {
        debug_assert_eq!(frame.k, 0);
        let nodes = &self.0.nodes;
        let mut before = frame.state;
        let mut passed = 0;
        loop {
            let x = nodes.at(before).down;
            if x == frame.item {
                return None;
            }
            if option_at(nodes, x) == option {
                // `next_option` follows `down` from here, undoing nothing
                // while `k` is 0.
                frame.state = before;
                return Some(passed);
            }
            before = x;
            passed += 1;
        }
    }

    fn leave(&mut self, frame: &mut Frame<Level>) {
        if frame.k > 0 {
            self.0.uncommit_others::<C, T, Z>(frame.state);
        }
        self.0.uncover::<C, T, Z>(frame.item);
        frame.k = frame.d;
    }

    fn option_of(&self, node: u32) -> OptionId {
        self.0.option_of(node)
    }

    fn item_id(&self, item: u32) -> ItemId {
        ItemId(self.0.header_item[item as usize])
    }

    fn index_of(&self, item: ItemId) -> u32 {
        self.0.header_of[item.index()]
    }

    fn is_open(&mut self, item: u32) -> bool {
        // A covered header stays out of its neighbours' links.
        item >= 1 && item <= self.0.n1 && self.0.rlink[self.0.llink[item as usize] as usize] == item
    }

    fn debug_check(&self) -> Result<(), String> {
        self.0.check(1..self.0.first_spacer, Z)
    }

    fn drain_changes(&mut self, out: &mut Vec<NodeChange>) {
        let links = &mut *self.0;
        for c in links.journal.drain(..) {
            let top = links.nodes.at(c.node).top;
            let (header, option) = if c.node < links.first_spacer {
                (c.node, None)
            } else {
                (top as u32, Some(option_at(&links.nodes, c.node)))
            };
            out.push(NodeChange {
                item: ItemId(links.header_item[header as usize]),
                option,
                back: c.back,
            });
        }
    }
}
