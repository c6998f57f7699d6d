//! The representations of the search state, and what the search loop asks
//! of them.
//!
//! The search loop ([`crate::Solver`]) walks one tree, Algorithm X/C's, on
//! any of five representations of the items and options still in play:
//!
//! ```text
//!                 ┌──────────────────────────────┐
//!   Solver ──────►│ Backend: one built structure │  (chosen by Engine)
//!   (levels,      │ + its own stack of frames    │
//!    budgets,     └──────────────┬───────────────┘
//!    stats)                      │ Structure
//!       ┌─────────────┬──────────┼────────────┬──────────────┐
//!   links.rs      cells.rs    bits.rs      masks.rs       sparse.rs
//!   dancing links dancing     bitsets      item masks     sparse bitsets
//!   (DLX1/DLX2)   cells       (few         (short         (large, with
//!                 (SSXC)      options)     options, few   colors)
//!                                          per item)
//! ```
//!
//! A level of the search is a [`Frame`]: the item branched on and the
//! position `k` of `d` among its options, which the loop reads (for
//! progress and traces), and the representation's own [`Structure::Level`]:
//! what it needs to try the next option and undo the last one (a node of
//! the links, two trail marks, a bit position, an untried-options word,
//! marks into a trail and a candidate stack).
//! Each built structure keeps its own stack of frames of its own type, as
//! an engine keeps its own cache, so no frame carries another
//! representation's fields.
//!
//! This module knows nothing of the search loop: the loop imports the
//! [`Structure`] trait and the [`Backend`] dispatch from here, never the
//! other way round.

pub(crate) mod bits;
pub(crate) mod cells;
pub(crate) mod links;
pub(crate) mod masks;
pub(crate) mod slots;
pub(crate) mod sparse;

use crate::problem::{ItemId, OptionId, Problem};

use bits::Bits;
use cells::Cells;
use links::Links;
use masks::Masks;
use sparse::Sparse;

/// Which representation of the search state a [`Solver`](crate::Solver)
/// uses. All explore the same tree (counting, the same nodes and
/// solutions); they differ in speed, and dancing cells may try an item's
/// options in another order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Engine {
    /// Picks by the problem's shape: [`Engine::Bits`] for small problems
    /// (at most 64 primary items and 512 options); else [`Engine::Masks`]
    /// when the problem fits item masks, one cell per item takes at most
    /// 16 KiB and options have 3 or more items on average; else
    /// [`Engine::Bits`] for up to 4096 options (and at most 8 MiB of bitset
    /// rows); else [`Engine::Sparse`] for problems with colors; else
    /// [`Engine::Cells`] when options have 3 or more items on average; else
    /// [`Engine::Links`]. Sparse bitsets purify a colored item a word at a
    /// time and keep no count for secondary items; cells beat links on
    /// options of 3 items and more (undoing costs them almost nothing) and
    /// lose on pairs; the engines' times are in DESIGN.md, "Four
    /// representations" and "Sparse bitsets".
    #[default]
    Auto,
    /// Dancing cells: sparse sets with a trail (Knuth's SSXC programs).
    Cells,
    /// Dancing links: doubly linked lists (Knuth's DLX1/DLX2).
    Links,
    /// Bitsets of available options with precomputed conflicts; memory
    /// grows with the square of the number of options. Does not count
    /// updates.
    Bits,
    /// Item masks: each item's remaining options as one machine word, and
    /// the state copied at levels with a choice instead of undone. For
    /// problems without colors whose items have at most 64 options and
    /// whose options have at most 8 items; others get [`Engine::Links`].
    /// With [`Solver::forced_first`](crate::Solver::forced_first) it finds
    /// forced items without a scan. Does not count updates.
    Masks,
    /// Sparse bitsets: one bitset of available options, each item's
    /// options as bits over the words that hold them (or as a list), and a
    /// count per primary item; memory grows with the entries. Does not
    /// count updates.
    Sparse,
}

/// Past this many primary items, [`Engine::Auto`] takes dancing links.
/// Every structure reads the open primary items to branch, but dancing
/// links stop at the first with one option while none has run out
/// (DLX1's choice all the same), where dancing cells (which keep them in
/// no order) and sparse bitsets read them all: a long run of forced moves
/// over a million items took those two time quadratic in its length.
pub(crate) const MANY_PRIMARY: usize = 1 << 16;

impl Engine {
    /// The concrete engine [`Engine::Auto`] picks for `problem`.
    ///
    /// ```
    /// // Small problems get bitsets.
    /// let p = exactly::Problem::<()>::from_names(&["a"], &[], [((), vec!["a"])])?;
    /// assert_eq!(exactly::Engine::Auto.resolve(&p), exactly::Engine::Bits);
    /// // Past 64 primary items, item masks where they fit, for options of
    /// // three items or more.
    /// let names: Vec<String> = (0..66).map(|i| format!("i{i}")).collect();
    /// let names: Vec<&str> = names.iter().map(String::as_str).collect();
    /// let options = names.chunks(3).map(|three| ((), three.to_vec()));
    /// let p = exactly::Problem::<()>::from_names(&names, &[], options)?;
    /// assert_eq!(exactly::Engine::Auto.resolve(&p), exactly::Engine::Masks);
    /// // Pairs: bitsets here (at most 4,096 options), dancing links past them.
    /// let pairs = names.chunks(2).map(|two| ((), two.to_vec()));
    /// let p = exactly::Problem::<()>::from_names(&names, &[], pairs)?;
    /// assert_eq!(exactly::Engine::Auto.resolve(&p), exactly::Engine::Bits);
    /// // Past 65,536 primary items, dancing links whatever the options.
    /// let names: Vec<String> = (0..70_000).map(|i| format!("i{i}")).collect();
    /// let names: Vec<&str> = names.iter().map(String::as_str).collect();
    /// let triples = names.windows(3).map(|three| ((), three.to_vec()));
    /// let p = exactly::Problem::<()>::from_names(&names, &[], triples)?;
    /// assert_eq!(exactly::Engine::Auto.resolve(&p), exactly::Engine::Links);
    /// # Ok::<(), exactly::BuildError>(())
    /// ```
    pub fn resolve<L>(self, problem: &Problem<L>) -> Engine {
        match self {
            Engine::Auto if bits::small(problem) && bits::fits(problem) => Engine::Bits,
            Engine::Auto if masks::suits(problem) => Engine::Masks,
            Engine::Auto if problem.num_primary() > MANY_PRIMARY => Engine::Links,
            Engine::Auto if bits::fits(problem) => Engine::Bits,
            Engine::Auto if problem.has_colors() && sparse::fits(problem) => Engine::Sparse,
            Engine::Auto if problem.num_entries() >= 3 * problem.num_options() => Engine::Cells,
            Engine::Auto => Engine::Links,
            Engine::Masks if !masks::fits(problem) => Engine::Links,
            Engine::Sparse if !sparse::fits(problem) => Engine::Links,
            other => other,
        }
    }
}

/// One level of the search: what the loop reads, and the representation's
/// own state `T` for the level ([`Structure::Level`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Frame<T> {
    /// The item branched on (the structure's own index).
    pub item: u32,
    /// Options tried so far.
    pub k: u32,
    /// Options the item had when chosen.
    pub d: u32,
    /// What the representation keeps to try the next option and undo.
    pub state: T,
}

impl<T: Default> Frame<T> {
    /// A fresh level on `item`, which has `d` options.
    #[inline(always)]
    pub fn new(item: u32, d: u32) -> Self {
        Frame {
            item,
            d,
            k: 0,
            state: T::default(),
        }
    }
}

/// Knuth's estimate of the fraction of the tree explored, from the `k` of
/// `d` position at each level of `frames`: Σ (k−1)/(d₁…dₗ) + ½/(d₁…dₗ).
pub(crate) fn fraction<T>(frames: &[Frame<T>]) -> f64 {
    let mut f = 0.0;
    let mut scale = 1.0;
    for frame in frames {
        scale /= frame.d.max(1) as f64;
        f += (frame.k.saturating_sub(1)) as f64 * scale;
    }
    (f + 0.5 * scale).clamp(0.0, 1.0)
}

/// A link change, as a trace reports it: `option`'s node on `item` (or, for
/// `None`, `item`'s header, when the item is covered) left its list or, with
/// `back`, came back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NodeChange {
    pub item: ItemId,
    pub option: Option<OptionId>,
    pub back: bool,
}

/// What the search loop needs from a representation.
pub(crate) trait Structure {
    /// The representation's own state for one level of the search.
    type Level: Copy + Default + std::fmt::Debug;
    /// Whether [`Structure::choose`] with `enough` at least 1 returns the
    /// leftmost item with at most `enough` options, where there is one
    /// (the item masks return one that the last commit noted, and dancing
    /// cells the first in a list kept in no order).
    const STOPS_AT_LEFTMOST: bool = true;
    fn updates(&self) -> u64;
    fn set_updates(&mut self, updates: u64);
    /// The number of active primary items, capped at 2.
    fn primaries_left(&mut self) -> u32;
    /// The active primary item with the fewest options; ties to the
    /// leftmost, or to a random one when `rng` is set. The scan stops at the
    /// first item with at most `enough` options (0 keeps DLX1's tree).
    fn choose(&mut self, rng: &mut Option<u64>, enough: u32) -> u32;
    fn len(&self, item: u32) -> u32;
    /// [`choose`](Structure::choose), with the chosen item's
    /// [`len`](Structure::len).
    #[inline(always)]
    fn choose_len(&mut self, rng: &mut Option<u64>, enough: u32) -> (u32, u32) {
        let i = self.choose(rng, enough);
        (i, self.len(i))
    }
    /// Covers `frame.item` and prepares to try its options.
    fn enter(&mut self, frame: &mut Frame<Self::Level>);
    /// Undoes the previous option of the frame, if any, and commits the next
    /// one, returning its node; `None` (with the item uncovered) when all
    /// have been tried.
    fn next_option(&mut self, frame: &mut Frame<Self::Level>) -> Option<u32>;
    /// Right after [`Structure::enter`], moves `frame` on so that the next
    /// [`Structure::next_option`] commits `option`, without committing the
    /// options before it, and returns how many it passed over; `None`, with
    /// nothing changed, when `option` is not one of the item's options. A
    /// prefix replayed this way costs one commit a level, not one per
    /// option tried before the one it names. Once that option is
    /// committed, `frame.k` is to be set to the options passed over plus
    /// one, as if each had been tried (the estimate of the fraction done
    /// reads it).
    fn seek(&mut self, frame: &mut Frame<Self::Level>, option: OptionId) -> Option<u32>;
    /// Undoes everything `frame` holds (its current option, then the cover
    /// of its item), as if its options had run out.
    fn leave(&mut self, frame: &mut Frame<Self::Level>);
    fn option_of(&self, node: u32) -> OptionId;
    fn item_id(&self, item: u32) -> ItemId;
    /// The structure's index of item `item` (a primary item).
    fn index_of(&self, item: ItemId) -> u32;
    /// Whether primary item `item` (the structure's index) is still to be
    /// covered.
    fn is_open(&mut self, item: u32) -> bool;
    /// Enters `frame` on `item` (a primary item of `option`) and commits
    /// `option`, returning its node; `None`, with nothing changed, when the
    /// option is no longer available. `leave` undoes it.
    fn assume(
        &mut self,
        frame: &mut Frame<Self::Level>,
        item: ItemId,
        option: OptionId,
    ) -> Option<u32> {
        let i = self.index_of(item);
        if !self.is_open(i) {
            return None;
        }
        *frame = Frame::new(i, self.len(i));
        self.enter(frame);
        self.set_full_commits(true);
        let found = self.take(frame, option);
        self.set_full_commits(false);
        found
    }
    /// Right after [`Structure::enter`], commits `option` (passing over
    /// the options before it, see [`Structure::seek`]) and returns its
    /// node; `None`, with the item uncovered again, when `option` is not
    /// one of the item's options.
    fn take(&mut self, frame: &mut Frame<Self::Level>, option: OptionId) -> Option<u32> {
        let Some(passed) = self.seek(frame, option) else {
            self.leave(frame);
            return None;
        };
        let found = self.next_option(frame);
        frame.k = passed + 1;
        debug_assert_eq!(found.map(|x| self.option_of(x)), Some(option));
        found
    }
    /// With `on`, commits go through every item of the option. Off (the
    /// search's way), a structure may stop committing an option once it
    /// leaves an item with no options: the search then fails at that item
    /// at once. [`Structure::assume`] turns it on, so that an option that
    /// clashes with one taken on trust is seen to, even after a dead end.
    #[inline(always)]
    fn set_full_commits(&mut self, _on: bool) {}
    /// Asks the structure to follow forced moves on its own after each
    /// option `next_option` commits (see [`Structure::chained`]); off unless
    /// set, and only the search loop sets it.
    #[inline(always)]
    fn set_chain(&mut self, _on: bool) {}
    /// Moves the link changes recorded since the last call to `out`, in the
    /// order they were made (only the dancing links record them, and only
    /// when the search asks).
    fn drain_changes(&mut self, _out: &mut Vec<NodeChange>) {}
    /// The options committed on their own since the last call: each was the
    /// only option of an item left with one, and counts as a node.
    #[inline(always)]
    fn chained(&mut self) -> u64 {
        0
    }
    /// Appends the options of the current solution, whose levels chose the
    /// nodes `choice`.
    #[inline(always)]
    fn solution(&mut self, choice: &[u32], out: &mut Vec<OptionId>) {
        out.extend(choice.iter().map(|&x| self.option_of(x)));
    }
    fn debug_check(&self) -> Result<(), String>;
}

/// Items numbered primary first, each kind in declaration order: item id →
/// index, and index → item id.
pub(crate) fn primary_first<L>(problem: &Problem<L>) -> (Vec<u32>, Vec<u32>) {
    let mut index_of = vec![0u32; problem.num_items()];
    let mut item_id = Vec::with_capacity(problem.num_items());
    for id in problem.items_primary_first() {
        index_of[id.index()] = item_id.len() as u32;
        item_id.push(id.index() as u32);
    }
    (index_of, item_id)
}

/// One step of a random choice among the items of fewest options (the
/// branching rule with a seed): item `p` with `s` options against the best
/// so far, `best` with `t`, one of `ties` equals. Each of the equals seen
/// is kept with the same chance (one draw per tie).
#[inline(always)]
pub(crate) fn pick(p: u32, s: u32, best: &mut u32, t: &mut u32, ties: &mut u64, state: &mut u64) {
    if s < *t {
        *best = p;
        *t = s;
        *ties = 1;
    } else if s == *t {
        *ties += 1;
        if next_random(state) % *ties == 0 {
            *best = p;
        }
    }
}

/// One step of xorshift64*.
#[inline(always)]
pub(crate) fn next_random(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

/// A built structure with its stack of frames, one variant per
/// representation (and per cell width of item masks).
#[derive(Clone, Debug)]
pub(crate) enum Backend {
    Bits(Bits, Vec<Frame<<Bits as Structure>::Level>>),
    Cells(Cells, Vec<Frame<<Cells as Structure>::Level>>),
    /// Boxed: the structure is some twenty vectors.
    Sparse(Box<Sparse>, Vec<Frame<<Sparse as Structure>::Level>>),
    Masks(Masks<u128>, Vec<Frame<masks::Level>>),
    Masks32(Masks<u64>, Vec<Frame<masks::Level>>),
    Masks16(Masks<u32>, Vec<Frame<masks::Level>>),
    Links(Links, Vec<Frame<links::Level>>),
    /// Only while a search runs.
    Empty,
    /// Not built yet: structures are built on first use, so that choosing
    /// an engine after `Solver::new` costs nothing.
    Unbuilt(Engine),
}

/// Evaluates `$body` with `$s` bound to the structure in `$backend` (a
/// `&mut Backend`) as a `&mut impl Structure` and `$f` to its frames (a
/// `&mut Vec<Frame<_>>`), or `$none` when nothing is built: one arm per
/// representation, written once.
macro_rules! with_structure {
    ($backend:expr, ($s:ident, $f:ident) => $body:expr, _ => $none:expr) => {
        match $backend {
            $crate::repr::Backend::Bits($s, $f) => $body,
            $crate::repr::Backend::Cells($s, $f) => $body,
            $crate::repr::Backend::Sparse(b, $f) => {
                let $s = &mut **b;
                $body
            }
            $crate::repr::Backend::Masks($s, $f) => $body,
            $crate::repr::Backend::Masks32($s, $f) => $body,
            $crate::repr::Backend::Masks16($s, $f) => $body,
            $crate::repr::Backend::Links(l, $f) if l.colors && l.track_zeros => {
                let $s = &mut $crate::repr::links::Dlx::<true, false, true>(l);
                $body
            }
            $crate::repr::Backend::Links(l, $f) if l.colors => {
                let $s = &mut $crate::repr::links::Dlx::<true>(l);
                $body
            }
            $crate::repr::Backend::Links(l, $f) if l.track_zeros => {
                let $s = &mut $crate::repr::links::Dlx::<false, false, true>(l);
                $body
            }
            $crate::repr::Backend::Links(l, $f) => {
                let $s = &mut $crate::repr::links::Dlx::<false>(l);
                $body
            }
            $crate::repr::Backend::Empty | $crate::repr::Backend::Unbuilt(_) => $none,
        }
    };
}
pub(crate) use with_structure;

impl Backend {
    /// Builds the structure `engine` resolves to for `problem`.
    pub fn new<L>(problem: &Problem<L>, engine: Engine) -> Backend {
        match engine.resolve(problem) {
            Engine::Bits => Backend::Bits(Bits::new(problem), Vec::new()),
            Engine::Cells => Backend::Cells(Cells::new(problem), Vec::new()),
            Engine::Sparse => Backend::Sparse(Box::new(Sparse::new(problem)), Vec::new()),
            Engine::Masks => match masks::cell_bits(problem) {
                32 => Backend::Masks16(Masks::new(problem), Vec::new()),
                64 => Backend::Masks32(Masks::new(problem), Vec::new()),
                _ => Backend::Masks(Masks::new(problem), Vec::new()),
            },
            _ => Backend::Links(Links::new(problem), Vec::new()),
        }
    }

    /// Whether `self` and `other` read one copy of the parts no search
    /// changes.
    #[cfg(test)]
    pub fn shares_with(&self, other: &Backend) -> bool {
        match (self, other) {
            (Backend::Bits(a, _), Backend::Bits(b, _)) => a.shares_with(b),
            (Backend::Sparse(a, _), Backend::Sparse(b, _)) => a.shares_with(b),
            _ => false,
        }
    }

    /// The representation built, or to be built for `problem`.
    pub fn engine<L>(&self, problem: &Problem<L>) -> Engine {
        match self {
            Backend::Unbuilt(engine) => engine.resolve(problem),
            Backend::Bits(..) => Engine::Bits,
            Backend::Cells(..) => Engine::Cells,
            Backend::Sparse(..) => Engine::Sparse,
            Backend::Masks(..) | Backend::Masks16(..) | Backend::Masks32(..) => Engine::Masks,
            _ => Engine::Links,
        }
    }

    /// [`fraction`] of the first `levels` frames.
    pub fn fraction(&self, levels: usize) -> f64 {
        match self {
            Backend::Bits(_, f) => fraction(&f[..levels]),
            Backend::Cells(_, f) => fraction(&f[..levels]),
            Backend::Sparse(_, f) => fraction(&f[..levels]),
            Backend::Masks(_, f) | Backend::Masks32(_, f) | Backend::Masks16(_, f) => {
                fraction(&f[..levels])
            }
            Backend::Links(_, f) => fraction(&f[..levels]),
            Backend::Empty | Backend::Unbuilt(_) => fraction::<()>(&[]),
        }
    }
}
