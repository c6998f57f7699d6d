//! Multiplicities and costs: Knuth's Algorithm M (his DLX3 program) and the
//! branch-and-bound of his DLX5, on one search over availability arrays.
//!
//! A primary item with bounds `(v, u)` must be covered by at least `v` and at
//! most `u` chosen options; secondary items and colors behave as in
//! [`Solver`](crate::Solver). [`Solver`](crate::Solver) runs this search
//! itself for a problem whose
//! [`has_multiplicities`](crate::Problem::has_multiplicities) is true (see
//! its docs for what it then ignores); [`MultiSolver`] is the search alone.
//!
//! # The search
//!
//! A node picks an open primary item `i` with `c` covering options chosen so
//! far, deficit `d = max(v − c, 0)` and `k` options still available. Its
//! branches partition the solutions below it by *the first of `i`'s
//! available options (in a fixed order) that the solution chooses*: branch
//! `j` chooses option `j` and excludes options `1..j`; when `d = 0` a last
//! branch excludes all `k`, closing `i`. When `d > 0` only the first
//! `k − d + 1` options can come first, so the node has `θ = k − d + 1`
//! branches, or `k + 1` when `d = 0`; the item with the smallest `θ` is chosen
//! (ties: first declared), and `θ ≤ 0` is a dead end. Each set of options is
//! therefore reached at most once, and a leaf where no open item has an
//! available option and every deficit is zero is a solution.
//!
//! Choosing an option excludes it and, for each of its items, the options
//! that can no longer join it: all the item's options once a primary item
//! reaches its upper bound; for a secondary item, every other option when
//! the option leaves it uncolored, or those giving it another color (or none)
//! otherwise. Exclusions go on a trail and are undone by popping it, or, at
//! the levels near the root of a small problem, taken back with a copy of
//! the state saved before the branch.
//!
//! # Costs
//!
//! With an objective ([`CostSolver`]) each item's options are listed, and
//! tried, cheapest first, and once a solution is known every search state
//! that cannot lead to a cheaper one is cut, where the cut is cheapest. Let
//! `t` be the threshold (the best known cost, or the `k`-th best with
//! [`CostSolver::best`]); an option *fits* when the cost so far plus its
//! cost is below `t`, and only options that fit count:
//!
//! - *An item* with a deficit `d` and fewer than `d` options that fit makes
//!   the node a dead end; one without a deficit and no option that fits is
//!   not branched on (nothing can join it below `t`), so a solution may
//!   leave such options available. The number of branches `θ` counts the
//!   options that fit, not all those available.
//! - *A node* is cut when the cost so far plus a lower bound reaches `t`.
//!   Two bounds are tried, both sums of `d` times a tax per item with a
//!   deficit, where the taxes of any option's primary items add up to at
//!   most its cost (a solution of the dual of the linear relaxation), so no
//!   completion costs less: the *share* bound taxes each item the smallest
//!   `cost(o) / p(o)` over its available options `o` (`p(o)` the number of
//!   primary items of `o`; rounded up, after a margin for float rounding);
//!   the *class* bound splits the primary items into up to four classes
//!   whose items share no option (greedily, in declaration order: rows, and
//!   columns, in n queens) and taxes class by class each item the least
//!   cost of its options that fit, less the taxes already laid on the
//!   option's items, in class order and then in reverse order.
//! - *Options*: after each class bound that does not cut, an option whose
//!   cost less its items' taxes is at least `t` minus the cost so far minus
//!   the bound is excluded below the node (any completion with it reaches
//!   `t`); the item to branch on is chosen after these exclusions, so a
//!   node that the bounds cut chooses none.
//! - *The rest of a level* is cut as soon as the cost so far plus the next
//!   candidate's cost reaches the threshold: the later candidates cost no
//!   less. A level whose last branch closes its item excludes the skipped
//!   candidates there.
//!
//! In a search by cost each primary item keeps its available options in a
//! doubly linked list in list order, so its cheapest available option is
//! found in one step (a search without costs keeps counts only, which is
//! cheaper per exclusion, and scans the item's list from where its level
//! last looked, or, when the item has many options for the words of the
//! bitset of available options that hold them, its bits against those
//! words, a word at a time), and every node passes only over the primary
//! items below their upper bound. Among items with the fewest branches the one with
//! the largest *regret* is chosen: how much more its second cheapest option
//! that fits costs than its cheapest (or the threshold, when only one fits),
//! so that the branch most likely to be cheapest goes first and the others
//! are cut soonest (ties: first declared). On min-cost queens this takes 5%
//! to 18% fewer nodes than preferring the item whose cheapest option costs
//! most. The threshold only falls as solutions are found,
//! so every cut stays valid for the rest of the search; the minimum cost
//! and the costs of [`CostSolver::best`] do not depend on the cuts, but the
//! node count and which solution of a cost is found first may.
//!
//! ```
//! // Cover `a` twice and `b` once with options {a}, {a b}, {a}, {b}.
//! let p = exactly::format::parse_dlx("2|a b\na\na b\na\nb\n")?;
//! let mut solver = exactly::multi::MultiSolver::new(&p);
//! assert_eq!(solver.count().solutions, 3);
//! # Ok::<(), exactly::format::ParseError>(())
//! ```

use std::ops::ControlFlow;
use std::time::Duration;

use crate::budget::{Budget, Limits, Outcome, StopReason};
use crate::problem::{ColorId, ItemKind, OptionId, Problem};
use crate::repr::slots::slots;
use crate::solver::{Count, Progress, Solution, Stats};
use crate::unchecked::At;

mod bound;
mod solvers;
use bound::{classes, NO_CLASS};
pub use solvers::{CostSolver, CostedSolution, MultiSolver};

/// One level of the search.
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// The item branched on.
    item: u32,
    /// The candidates are the item's options that were available when the
    /// level was entered, in list order, and the first `len` of them are
    /// tried. Those tried are excluded, so the next is the first in the
    /// item's list of available options: the level keeps no copy of them,
    /// and the memory of the search stays linear in its depth (a copy per
    /// level was quadratic when one item has many options).
    len: usize,
    /// Index of the next candidate to try.
    next: usize,
    /// Without linked lists (a search not by cost): the position in the
    /// item's list where the next candidate is looked for. The options
    /// before it were tried (so excluded) or were not available when the
    /// level passed them, and stay so while the level lasts.
    pos: usize,
    /// The option chosen in the branch being explored, if any.
    current: Option<u32>,
    /// Whether the branch that chooses none of the candidates comes last.
    none_allowed: bool,
    /// Whether that branch has been entered.
    none_done: bool,
    /// Trail length when the level was entered.
    base: usize,
    /// Trail length once the candidates tried so far are excluded.
    mark: usize,
}

/// The primary items of an option are walked this many at a time where
/// the counts alone are kept ([`Search::add_to_counts`]).
const PAD: usize = 8;

/// The most bytes a level copies to save the state before a branch and
/// to put it back after (see [`Search::snapshot_levels`]): about as many
/// as undoing a few dozen exclusions of options of a dozen items touch.
const SNAPSHOT_BYTES: usize = 2048;

/// How many levels save the state before each branch (see
/// [`Search::snapshot_levels`]): none in a search by cost or when a copy
/// takes over [`SNAPSHOT_BYTES`], else as many as the bytes of the lists
/// of items and options pay for.
fn snapshot_levels<L>(problem: &Problem<L>, by_cost: bool) -> usize {
    let bytes = problem.num_items() * 4 + problem.num_options().div_ceil(64) * 8;
    if by_cost || bytes > SNAPSHOT_BYTES {
        return 0;
    }
    let lists = (problem.num_entries() + problem.num_options() + problem.num_items()) * 4;
    lists / bytes
}

/// A position's neighbours in its item's list of available options (see
/// [`Search::links`]): one read finds both.
#[derive(Clone, Copy, Debug)]
struct Link {
    next: u32,
    prev: u32,
}

/// What [`Search::scan`] finds: the item to branch on (with its number of
/// candidates and whether its last branch closes it), the share bound's sum
/// and its number of terms.
type Scan = (Option<(u32, u32, bool)>, f64, u32);

/// What a visit of a solution tells the search.
pub(crate) enum Visit {
    /// Go on; with `Some(t)`, cut every node whose cost bound reaches `t`.
    Continue(Option<u128>),
    /// Stop the search.
    Stop,
}

type ProgressFn<'p> = Box<dyn FnMut(&Progress) + Send + 'p>;

/// Knuth's estimate of the fraction of the tree explored, from the branch
/// (k of d) taken at each level; the branch that chooses none comes last.
fn fraction(stack: &[Frame]) -> f64 {
    let mut done = 0.0;
    let mut width = 1.0;
    for frame in stack {
        let d = frame.len + usize::from(frame.none_allowed);
        if d == 0 {
            break;
        }
        let k = if frame.none_done {
            frame.len
        } else {
            frame.next.saturating_sub(1)
        };
        width /= d as f64;
        done += k as f64 * width;
    }
    done.clamp(0.0, 1.0)
}

/// The search state shared by [`MultiSolver`] and [`CostSolver`].
pub(crate) struct Search<'p, L> {
    problem: &'p Problem<L>,
    /// Per item: `(option, color)` pairs in `list[item_start[i]..item_start[i + 1]]`.
    item_start: Vec<usize>,
    list: Vec<(u32, ColorId)>,
    /// Per option: its share, its cost over its number of primary items
    /// (one when it has none).
    share: Vec<f64>,
    /// Per entry of `list`: its option's cost.
    list_cost: Vec<u64>,
    /// Per item, in the same ranges as `list`: its options by increasing
    /// share (ties by index), where the bound looks for the cheapest share;
    /// empty for an item whose list is in that order already.
    by_share: Vec<u32>,
    /// Per item: where its options by share start in `by_share`.
    share_start: Vec<usize>,
    /// Per item: the least number of options that must cover it.
    need: Vec<u32>,
    /// Per item: the most options that may cover it.
    most: Vec<u32>,
    /// Per option: its primary items in `option_primary[option_start[o]..option_start[o + 1]]`
    /// (the counts of secondary items are never read, so not kept).
    option_start: Vec<u32>,
    option_primary: Vec<u32>,
    /// Per option: its secondary items and their colors in
    /// `option_secondary[secondary_start[o]..secondary_start[o + 1]]`, so
    /// that choosing an option and taking it back walk each kind of item
    /// without a test per entry.
    secondary_start: Vec<u32>,
    option_secondary: Vec<(u32, ColorId)>,
    /// In a search without costs, per option: its primary items again,
    /// padded to a multiple of [`PAD`] with the spare counters past the
    /// items' (`padded_primary[padded_start[o]..padded_start[o + 1]]`), so
    /// that lowering or raising their counts is a loop of [`PAD`] at a
    /// time with no rest to take. Empty in a search by cost, and where
    /// the padded items would not fit 32-bit positions.
    padded_start: Vec<u32>,
    padded_primary: Vec<u32>,
    /// Whether `padded_primary` is kept (else the counts are walked in
    /// `option_primary`).
    padded: bool,
    /// In a search by cost, per entry of `option_primary`: its item and
    /// the entry's position in `list`, read together when the option
    /// leaves its items' linked lists or comes back.
    option_pos: Vec<(u32, u32)>,
    /// Per primary item, its available options in list order as a
    /// doubly linked list over the positions of `list`, with the item's
    /// head at `list.len() + item`: an excluded option leaves the lists of
    /// its primary items and is put back in reverse order, so the first
    /// available option is found in one step.
    links: Vec<Link>,
    /// Whether the linked lists are kept: only a search by cost reads them
    /// (its bound and its exclusions walk each item's available options
    /// cheapest first). A search without costs keeps the counts alone and
    /// scans each item's list where it needs the available options, so an
    /// exclusion touches one counter per primary item, not four links.
    lists: bool,
    /// The primary items not yet at their upper bound, `live[..live_len]`
    /// (in no particular order), and each item's place there.
    live: Vec<u32>,
    live_at: Vec<u32>,
    live_len: usize,
    /// Per item: its class for the cost bound (`NO_CLASS` when none): the
    /// items of a class share no option (see [`Search::new`]).
    class: Vec<u8>,
    /// The number of classes some item is in (they are used in order).
    classes_used: usize,
    /// Scratch for the bound: per item its tax (see
    /// [`Search::choose_item_below`]), and one more slot that stays 0; the
    /// items with a class and a deficit at the node.
    tax: Vec<u64>,
    /// When every option has at most two primary items (a search by
    /// cost only): per list position, the option's other primary item, or
    /// the zero slot of `tax`; so an option's taxes are two reads.
    partner: Vec<u32>,
    pending: [Vec<u32>; bound::CLASSES],
    /// The available options, one bit each (bit `o % 64` of word `o / 64`).
    available: Vec<u64>,
    /// The options available at the root: all of them, or those of the
    /// smaller problem [`Search::start_within`] set (read by the checks).
    at_root: Vec<u64>,
    /// Per item that has them, its options as bits over the words of
    /// [`Search::available`] that hold some (its *slots*): the slots are
    /// `slot_word[r]` and `slot_bits[r]` for `r` in `item_slots[item]`, an
    /// empty range for an item that scans its list instead. An item has
    /// slots when its list is long against them (see [`slots`]): its
    /// available options then come a word at a time, without a test per
    /// option that goes either way at random. Primary items have slots
    /// only in a search without costs, whose lists are in option order, so
    /// the bits come in list order; secondary items have them in both, as
    /// the order of the options a choice excludes does not matter.
    item_slots: Vec<(u32, u32)>,
    slot_word: Vec<u32>,
    slot_bits: Vec<u64>,
    /// In a search by cost, per slot: the least and the most cost of the
    /// options in its bits, so that a word whose options all cost less
    /// than the room left (or none does) needs no test per option.
    slot_cost: Vec<(u64, u64)>,
    /// Per secondary item with slots and colors, and per color it takes
    /// (sorted): where the item's options of that color start in
    /// `color_bits`, one word per slot; so the options that clash with a
    /// color come a word at a time too. Empty for an item whose colors
    /// would take too many words.
    color_start: Vec<(u32, ColorId, u32)>,
    color_bits: Vec<u64>,
    /// Per option: its cost (kept in a search by cost only).
    option_cost: Vec<u64>,
    /// Per primary item: its available options (zero for secondary items).
    available_count: Vec<u32>,
    /// The levels, from the root, that save [`Search::available`] and
    /// [`Search::available_count`] before each branch they choose, in
    /// `saved_available` and `saved_count` at their depth: backing out of
    /// the branch then copies them back, where the trail would undo each of
    /// the branch's exclusions item by item. None with linked lists (which
    /// a copy does not restore) or when the two are large (see
    /// [`SNAPSHOT_BYTES`]); deeper levels use the trail, so that the copies
    /// take no more memory than the problem's lists. The exclusions of a
    /// choice at such a level stay off the trail; the candidates it has
    /// tried go on it.
    snapshot_levels: usize,
    saved_available: Vec<u64>,
    saved_count: Vec<u32>,
    /// The items up to the last primary one: the counts past them (of
    /// secondary items) stay 0, so a level saves and puts back only these.
    counted: usize,
    /// Per item: the chosen options that hold it.
    covered: Vec<u32>,
    trail: Vec<u32>,
    chosen: Vec<OptionId>,
    /// The cost so far: a sum of `u64` costs, one per chosen option, so
    /// exact in 128 bits.
    cost: u128,
    /// Cut nodes whose bound reaches this cost.
    threshold: Option<u128>,
    /// Whether to use the lower bound (else only the cost so far is compared).
    use_bound: bool,
    /// Whether the sum of every option's cost fits in `u64`: the class bound
    /// and the exclusions it allows add costs in `u64` and run only then
    /// (the share bound alone otherwise).
    costs_fit: bool,
    limits: Limits,
    budget: Budget,
    /// The levels of a search that stopped and may resume.
    stack: Vec<Frame>,
    /// Called with a progress report when the budget's interval is due.
    progress: Option<ProgressFn<'p>>,
    /// Whether a resumed search enters a node first (it stopped before
    /// entering one) rather than advancing the top level.
    enter: bool,
    pub(crate) stats: Stats,
}

impl<'p, L> Search<'p, L> {
    /// Sets up the search; with `by_cost`, each item's options are tried
    /// cheapest first.
    pub(crate) fn new(problem: &'p Problem<L>, by_cost: bool) -> Self {
        let n = problem.num_items();
        let mut per_item: Vec<Vec<(u32, ColorId)>> = vec![Vec::new(); n];
        let mut share = Vec::with_capacity(problem.num_options());
        let mut option_start = Vec::with_capacity(problem.num_options() + 1);
        let mut option_primary = Vec::new();
        let mut secondary_start = Vec::with_capacity(problem.num_options() + 1);
        let mut option_secondary = Vec::new();
        option_start.push(0u32);
        secondary_start.push(0u32);
        for o in problem.option_ids() {
            let mut p = 0u32;
            for e in problem.option(o) {
                per_item[e.item.index()].push((o.0, e.color));
                if problem.item_kind(e.item) == ItemKind::Primary {
                    p += 1;
                    option_primary.push(e.item.0);
                } else {
                    option_secondary.push((e.item.0, e.color));
                }
            }
            // At most the number of entries, which fits in `u32`.
            option_start.push(option_primary.len() as u32);
            secondary_start.push(option_secondary.len() as u32);
            share.push(problem.cost(o) as f64 / f64::from(p.max(1)));
        }
        let (mut padded_start, mut padded_primary) = (Vec::new(), Vec::new());
        let padded_len: u64 = option_start
            .windows(2)
            .map(|w| u64::from(w[1] - w[0]).next_multiple_of(PAD as u64))
            .sum();
        let padded = !by_cost && padded_len <= u64::from(u32::MAX);
        if padded {
            padded_start.reserve(problem.num_options() + 1);
            padded_start.push(0u32);
            for o in 0..problem.num_options() {
                let (start, end) = (option_start[o] as usize, option_start[o + 1] as usize);
                padded_primary.extend_from_slice(&option_primary[start..end]);
                // The spare counters: `n` and the `PAD - 1` after it, a
                // different one for each place, so that no two writes in a
                // row wait on one counter.
                let spare = (PAD - (end - start) % PAD) % PAD;
                padded_primary.extend((0..spare).map(|j| (n + j) as u32));
                // At most `padded_len`, which fits in `u32`.
                padded_start.push(padded_primary.len() as u32);
            }
        }
        let mut item_start = Vec::with_capacity(n + 1);
        let mut list = Vec::with_capacity(problem.num_entries());
        let mut by_share = Vec::new();
        let mut share_start = Vec::with_capacity(n + 1);
        item_start.push(0);
        share_start.push(0);
        let by_share_cmp = |a: &u32, b: &u32| {
            share[*a as usize]
                .total_cmp(&share[*b as usize])
                .then(a.cmp(b))
        };
        for mut options in per_item {
            if by_cost {
                options.sort_by_key(|&(o, _)| (problem.cost(OptionId(o)), o));
                let ids: Vec<u32> = options.iter().map(|&(o, _)| o).collect();
                if ids.windows(2).any(|w| by_share_cmp(&w[0], &w[1]).is_gt()) {
                    let start = by_share.len();
                    by_share.extend(ids);
                    by_share[start..].sort_by(by_share_cmp);
                }
            }
            list.extend(options);
            item_start.push(list.len());
            share_start.push(by_share.len());
        }
        // Where each option's entry sits in each of its primary items' lists.
        let mut option_pos = vec![(0u32, 0u32); if by_cost { option_primary.len() } else { 0 }];
        if by_cost {
            for (i, w) in item_start.windows(2).enumerate() {
                if problem.item_kind(crate::ItemId(i as u32)) != ItemKind::Primary {
                    continue;
                }
                for (k, &(o, _)) in list.iter().enumerate().take(w[1]).skip(w[0]) {
                    let o = o as usize;
                    // The option's primary entries come in entry order; find
                    // this item's among them.
                    let range = option_start[o] as usize..option_start[o + 1] as usize;
                    if let Some(at) = option_primary[range.clone()]
                        .iter()
                        .position(|&it| it as usize == i)
                    {
                        // Positions in `list` are below the number of
                        // entries, which fits in `u32`.
                        option_pos[range.start + at] = (i as u32, k as u32);
                    }
                }
            }
        }
        let heads = list.len();
        // Positions and heads are below the entries plus the items, which
        // fit in `u32`.
        let mut links = vec![Link { next: 0, prev: 0 }; heads + n];
        for (i, w) in item_start.windows(2).enumerate() {
            let head = heads + i;
            let mut last = head;
            for k in w[0]..w[1] {
                links[last].next = k as u32;
                links[k].prev = last as u32;
                last = k;
            }
            links[last].next = head as u32;
            links[head].prev = last as u32;
        }
        let list_cost = list
            .iter()
            .map(|&(o, _)| problem.cost(OptionId(o)))
            .collect();
        let need = problem
            .item_ids()
            .map(|i| problem.item_bounds(i).0)
            .collect();
        let most = problem
            .item_ids()
            .map(|i| problem.item_bounds(i).1)
            .collect();
        // The items' counts, then the `PAD - 1` spare ones of
        // `padded_primary`, which nothing reads.
        let available_count = problem
            .item_ids()
            .map(|i| match problem.item_kind(i) {
                ItemKind::Primary => (item_start[i.index() + 1] - item_start[i.index()]) as u32,
                _ => 0,
            })
            .chain([0; PAD - 1])
            .collect();
        let primary: Vec<u32> = problem
            .item_ids()
            .filter(|&i| problem.item_kind(i) == ItemKind::Primary)
            .map(|i| i.0)
            .collect();
        let mut live_at = vec![0u32; n];
        for (at, &i) in primary.iter().enumerate() {
            // Below the number of items, which fits in `u32`.
            live_at[i as usize] = at as u32;
        }
        let class = classes(problem, &primary);
        let classes_used = class
            .iter()
            .filter(|&&c| c != NO_CLASS)
            .map(|&c| usize::from(c) + 1)
            .max()
            .unwrap_or(0);
        let live = primary;
        let slots = slots(problem, &item_start, &list, by_cost);
        let mut available = vec![u64::MAX; problem.num_options().div_ceil(64)];
        if let Some(last) = available.last_mut() {
            if problem.num_options() % 64 != 0 {
                *last = (1 << (problem.num_options() % 64)) - 1;
            }
        }
        let pairs = by_cost && option_start.windows(2).all(|w| w[1] - w[0] <= 2);
        let mut partner = Vec::new();
        if pairs {
            partner = vec![n as u32; list.len()];
            for (i, w) in item_start.windows(2).enumerate() {
                for k in w[0]..w[1] {
                    let o = list[k].0 as usize;
                    let range = option_start[o] as usize..option_start[o + 1] as usize;
                    if let Some(&other) = option_primary[range].iter().find(|&&it| it as usize != i)
                    {
                        partner[k] = other;
                    }
                }
            }
        }
        let slot_cost = if by_cost {
            slots
                .slot_word
                .iter()
                .zip(&slots.slot_bits)
                .map(|(&at, &bits)| {
                    let mut range = (u64::MAX, 0);
                    let mut word = bits;
                    while word != 0 {
                        let cost = problem.cost(OptionId(at << 6 | word.trailing_zeros()));
                        word &= word - 1;
                        range = (range.0.min(cost), range.1.max(cost));
                    }
                    range
                })
                .collect()
        } else {
            Vec::new()
        };
        Search {
            problem,
            item_start,
            list,
            share,
            list_cost,
            by_share,
            share_start,
            need,
            most,
            option_start,
            option_primary,
            secondary_start,
            option_secondary,
            padded_start,
            padded_primary,
            padded,
            option_pos,
            links,
            lists: by_cost,
            live_len: live.len(),
            live,
            live_at,
            class,
            classes_used,
            tax: vec![0; n + 1],
            partner,
            pending: Default::default(),
            available: available.clone(),
            at_root: available,
            item_slots: slots.item_slots,
            slot_word: slots.slot_word,
            slot_bits: slots.slot_bits,
            slot_cost,
            color_start: slots.color_start,
            color_bits: slots.color_bits,
            option_cost: if by_cost {
                problem.option_ids().map(|o| problem.cost(o)).collect()
            } else {
                Vec::new()
            },
            snapshot_levels: snapshot_levels(problem, by_cost),
            saved_available: Vec::new(),
            saved_count: Vec::new(),
            counted: problem
                .item_ids()
                .filter(|&i| problem.item_kind(i) == ItemKind::Primary)
                .last()
                .map_or(0, |last| last.index() + 1),
            available_count,
            covered: vec![0; n],
            // Each option is on the trail at most once.
            trail: Vec::with_capacity(problem.num_options()),
            chosen: Vec::new(),
            cost: 0,
            threshold: None,
            use_bound: true,
            costs_fit: problem
                .option_ids()
                .map(|o| u128::from(problem.cost(o)))
                .sum::<u128>()
                <= u128::from(u64::MAX),
            limits: Limits::default(),
            budget: Budget::default(),
            stack: Vec::new(),
            progress: None,
            enter: true,
            stats: Stats::default(),
        }
    }

    /// A search for the same problem, as [`Search::new`] built `self`: a
    /// copy, which costs far less than building the lists, slots and
    /// classes again. The workers of a count on threads each take one of
    /// a search built once. `self` has not searched yet.
    /// PERF: shared (`Arc`) lists, as the bitsets keep them, cost motley-7
    /// 0.7% more instructions on one thread.
    pub(crate) fn twin(&self) -> Search<'p, L> {
        debug_assert!(self.chosen.is_empty() && self.trail.is_empty() && self.stack.is_empty());
        Search {
            problem: self.problem,
            item_start: self.item_start.clone(),
            list: self.list.clone(),
            share: self.share.clone(),
            list_cost: self.list_cost.clone(),
            by_share: self.by_share.clone(),
            share_start: self.share_start.clone(),
            need: self.need.clone(),
            most: self.most.clone(),
            option_start: self.option_start.clone(),
            option_primary: self.option_primary.clone(),
            secondary_start: self.secondary_start.clone(),
            option_secondary: self.option_secondary.clone(),
            padded_start: self.padded_start.clone(),
            padded_primary: self.padded_primary.clone(),
            padded: self.padded,
            option_pos: self.option_pos.clone(),
            links: self.links.clone(),
            lists: self.lists,
            live: self.live.clone(),
            live_at: self.live_at.clone(),
            live_len: self.live_len,
            class: self.class.clone(),
            classes_used: self.classes_used,
            tax: self.tax.clone(),
            partner: self.partner.clone(),
            pending: self.pending.clone(),
            available: self.available.clone(),
            at_root: self.at_root.clone(),
            item_slots: self.item_slots.clone(),
            slot_word: self.slot_word.clone(),
            slot_bits: self.slot_bits.clone(),
            slot_cost: self.slot_cost.clone(),
            color_start: self.color_start.clone(),
            color_bits: self.color_bits.clone(),
            option_cost: self.option_cost.clone(),
            snapshot_levels: self.snapshot_levels,
            saved_available: Vec::new(),
            saved_count: Vec::new(),
            counted: self.counted,
            available_count: self.available_count.clone(),
            covered: self.covered.clone(),
            trail: Vec::with_capacity(self.trail.capacity()),
            chosen: Vec::new(),
            cost: self.cost,
            threshold: self.threshold,
            use_bound: self.use_bound,
            costs_fit: self.costs_fit,
            limits: self.limits.clone(),
            budget: self.budget.clone(),
            stack: Vec::new(),
            progress: None,
            enter: self.enter,
            stats: Stats::default(),
        }
    }

    pub(crate) fn set_limits(&mut self, limits: Limits) {
        self.budget.set_limits(&limits);
        self.limits = limits;
    }

    /// Makes the next [`Search::run`] search a smaller problem made from
    /// this one: only the options `alive` marks, only the primary items
    /// that are not `gone`, each within `bounds`. Its tree, nodes and
    /// updates are those of a search built on that problem on its own
    /// (items and options kept in order): the branching rule breaks ties by
    /// item, and each item's options come in option order. Whatever an
    /// earlier search left is cleared. A search without costs only (its
    /// linked lists are not rebuilt).
    pub(crate) fn start_within(&mut self, bounds: &[(u32, u32)], gone: &[bool], alive: &[bool]) {
        debug_assert!(!self.lists);
        let problem = self.problem;
        self.stack.clear();
        self.trail.clear();
        self.chosen.clear();
        self.cost = 0;
        self.threshold = None;
        self.enter = true;
        self.stats = Stats::default();
        self.covered.fill(0);
        self.available.fill(0);
        for (o, _) in alive.iter().enumerate().filter(|&(_, &a)| a) {
            self.available[o >> 6] |= 1 << (o & 63);
        }
        self.at_root.clone_from(&self.available);
        self.live_len = 0;
        for item in problem.item_ids() {
            if problem.item_kind(item) != ItemKind::Primary {
                continue;
            }
            let i = item.index();
            (self.need[i], self.most[i]) = bounds[i];
            self.available_count[i] = self.list[self.options_of(item.0)]
                .iter()
                .filter(|&&(o, _)| alive[o as usize])
                .count() as u32;
            if !gone[i] {
                self.live[self.live_len] = item.0;
                // Below the number of items, which fits in `u32`.
                self.live_at[i] = self.live_len as u32;
                self.live_len += 1;
            }
        }
        // The gone items after the live ones, so that `live` keeps every
        // primary item once.
        let mut at = self.live_len;
        for item in problem.item_ids() {
            if problem.item_kind(item) == ItemKind::Primary && gone[item.index()] {
                self.live[at] = item.0;
                self.live_at[item.index()] = at as u32;
                at += 1;
            }
        }
    }

    pub(crate) fn set_progress(&mut self, interval: Duration, f: ProgressFn<'p>) {
        self.budget.set_progress(interval);
        self.progress = Some(f);
    }

    pub(crate) fn set_bound(&mut self, on: bool) {
        self.use_bound = on;
    }

    fn options_of(&self, item: u32) -> std::ops::Range<usize> {
        self.item_start[item as usize]..self.item_start[item as usize + 1]
    }

    /// The positions in `item`'s list of its options that cost less than
    /// `room`: the list is by cost, so they come first. With no threshold
    /// (`room` is `u128::MAX`) no cost reaches it: all of them, and no cost
    /// is read.
    #[inline(always)]
    fn below(&self, item: u32, room: u128) -> std::ops::Range<usize> {
        let options = self.options_of(item);
        if room == u128::MAX {
            return options;
        }
        let cheaper = self.list_cost[options.clone()].partition_point(|&c| u128::from(c) < room);
        options.start..options.start + cheaper
    }

    /// The position after `at` in its item's linked list (see
    /// [`Search::links`]).
    #[inline(always)]
    fn next(&self, at: usize) -> usize {
        // Positions and heads fit in `u32`.
        self.links.at(at as u32).next as usize
    }

    /// The position before `at` in its item's linked list.
    #[inline(always)]
    fn prev(&self, at: usize) -> usize {
        self.links.at(at as u32).prev as usize
    }

    /// Whether option `o` is available.
    #[inline(always)]
    fn is_available(&self, o: u32) -> bool {
        self.available.at(o >> 6) >> (o & 63) & 1 != 0
    }

    /// Makes option `o` unavailable (if it is not already). With `TRAIL`
    /// the exclusion goes on the trail; a search by cost (lists) always
    /// keeps its trail, whatever `TRAIL` says.
    #[inline]
    fn exclude<const TRAIL: bool>(&mut self, o: u32) {
        if self.lists {
            self.exclude_in::<true, true>(o);
        } else {
            self.exclude_in::<false, TRAIL>(o);
        }
    }

    /// [`exclude`](Self::exclude) with the choice of lists known: one
    /// counter per primary item, and with `LISTS` (a search by cost) the
    /// option also leaves its primary items' linked lists. A constant, so
    /// that each search compiles its own loop without the test.
    #[inline(always)]
    fn exclude_in<const LISTS: bool, const TRAIL: bool>(&mut self, o: u32) {
        if self.is_available(o) {
            self.exclude_available::<LISTS, TRAIL>(o);
        }
    }

    /// [`exclude_in`](Self::exclude_in) for option `o`, known to be
    /// available: the walks over bits find only such options. Without
    /// `TRAIL` the option is not put on the trail: for the exclusions of a
    /// choice at a level that saves the state (see
    /// [`Search::snapshot_levels`]), which the copy takes back.
    #[inline(always)]
    fn exclude_available<const LISTS: bool, const TRAIL: bool>(&mut self, o: u32) {
        *self.available.at_mut(o >> 6) &= !(1 << (o & 63));
        if LISTS {
            let (start, end) = (self.option_start.at(o), self.option_start.at(o + 1));
            for k in start..end {
                let (item, at) = self.option_pos.at(k);
                *self.available_count.at_mut(item) -= 1;
                let Link { next, prev } = self.links.at(at);
                self.links.at_mut(prev).next = next;
                self.links.at_mut(next).prev = prev;
            }
        } else {
            self.add_to_counts(o, u32::MAX);
        }
        self.stats.updates += 1;
        if TRAIL {
            self.trail.push(o);
        }
    }

    /// Adds `delta` (1, or `u32::MAX` for −1) to the counts of option `o`'s
    /// primary items, and to spare counters, in a search without costs.
    /// PERF: [`PAD`] at a time, so that the loop's end is the one branch an
    /// option takes, and it is taken at fewer places. Its end goes either
    /// way at random (options have from one to dozens of primary items): the
    /// plain loop over the items and its rest took half the mispredicted
    /// branches of motley-7's count, which bound its time (DESIGN.md,
    /// "Measurements").
    #[inline(always)]
    fn add_to_counts(&mut self, o: u32, delta: u32) {
        if !self.padded {
            let (start, end) = (self.option_start.at(o), self.option_start.at(o + 1));
            for k in start..end {
                let c = self.available_count.at_mut(self.option_primary.at(k));
                *c = c.wrapping_add(delta);
            }
            return;
        }
        let (mut k, end) = (self.padded_start.at(o), self.padded_start.at(o + 1));
        while k < end {
            for j in 0..PAD as u32 {
                let c = self.available_count.at_mut(self.padded_primary.at(k + j));
                // The spare counters wrap; an item's never does.
                *c = c.wrapping_add(delta);
            }
            k += PAD as u32;
        }
    }

    /// Takes back the exclusions on the trail past `mark`.
    fn undo(&mut self, mark: usize) {
        if self.lists {
            self.undo_in::<true>(mark);
        } else {
            self.undo_in::<false>(mark);
        }
    }

    /// [`undo`](Self::undo) with the choice of lists known, as for
    /// [`exclude_in`](Self::exclude_in). The options come back in the
    /// reverse order of their leaving, so each returns to its place in its
    /// items' lists (one list per item: the order within an option does
    /// not matter).
    #[inline(always)]
    fn undo_in<const LISTS: bool>(&mut self, mark: usize) {
        let mut top = self.trail.len();
        while top > mark {
            top -= 1;
            // Below the number of options, which fits in `u32`.
            let o = self.trail.at(top as u32);
            *self.available.at_mut(o >> 6) |= 1 << (o & 63);
            if LISTS {
                let (start, end) = (self.option_start.at(o), self.option_start.at(o + 1));
                for k in start..end {
                    let (item, at) = self.option_pos.at(k);
                    *self.available_count.at_mut(item) += 1;
                    let Link { next, prev } = self.links.at(at);
                    self.links.at_mut(prev).next = at;
                    self.links.at_mut(next).prev = at;
                }
            } else {
                self.add_to_counts(o, 1);
            }
        }
        self.trail.truncate(mark);
    }

    /// Saves the available options and the counts for the level at
    /// `depth` (see [`Search::snapshot_levels`]).
    #[inline]
    fn save(&mut self, depth: usize) {
        let (words, items) = (self.available.len(), self.counted);
        if self.saved_available.len() < (depth + 1) * words
            || self.saved_count.len() < (depth + 1) * items
        {
            self.saved_available.resize((depth + 1) * words, 0);
            self.saved_count.resize((depth + 1) * items, 0);
        }
        self.saved_available[depth * words..(depth + 1) * words].copy_from_slice(&self.available);
        self.saved_count[depth * items..(depth + 1) * items]
            .copy_from_slice(&self.available_count[..items]);
    }

    /// Puts back what [`save`](Self::save) saved for the level at `depth`.
    #[inline]
    fn restore(&mut self, depth: usize) {
        let (words, items) = (self.available.len(), self.counted);
        self.available
            .copy_from_slice(&self.saved_available[depth * words..(depth + 1) * words]);
        self.available_count[..items]
            .copy_from_slice(&self.saved_count[depth * items..(depth + 1) * items]);
    }

    /// Chooses option `o`. Under a threshold `t`, an option that costs at
    /// least `t` minus the new cost so far can never be chosen below (the
    /// cost only grows downward and `t` only falls), so, as in Knuth's DLX5,
    /// only the options cheaper than that are excluded: each item's list is
    /// by cost, and the scan stops at the first that is not. Without
    /// `TRAIL` (a level that saves the state, never in a search by cost)
    /// the exclusions stay off the trail.
    fn choose<const TRAIL: bool>(&mut self, o: u32) {
        let problem = self.problem;
        debug_assert!(TRAIL || !self.lists);
        self.exclude::<TRAIL>(o);
        self.chosen.push(OptionId(o));
        self.cost += u128::from(problem.cost(OptionId(o)));
        let room = match self.threshold {
            Some(t) => t.saturating_sub(self.cost),
            None => u128::MAX,
        };
        let (start, end) = (self.option_start.at(o), self.option_start.at(o + 1));
        for k in start..end {
            let item = self.option_primary.at(k);
            let i = item as usize;
            *self.covered.at_mut(item) += 1;
            if self.covered.at(item) >= self.most.at(item) {
                if self.lists {
                    let head = self.list.len() + i;
                    let mut k = self.next(head);
                    while k != head && u128::from(self.list_cost[k]) < room {
                        self.exclude_in::<true, true>(self.list[k].0);
                        k = self.next(k);
                    }
                } else if room == u128::MAX {
                    // No threshold: no cost reaches `room`, so every
                    // option goes and no cost is read. The walk ends
                    // with the item's last available option: most of a
                    // long list is gone by then.
                    if self.has_slots(item) {
                        self.exclude_by_bits::<TRAIL>(item);
                    } else if self.available_count.at(item) > 0 {
                        for k in self.options_of(item) {
                            let other = self.list.at(k as u32).0;
                            if self.is_available(other) {
                                self.exclude_in::<false, TRAIL>(other);
                                if self.available_count.at(item) == 0 {
                                    break;
                                }
                            }
                        }
                    }
                } else {
                    for k in self.below(item, room) {
                        self.exclude_in::<false, TRAIL>(self.list.at(k as u32).0);
                    }
                }
                // Leave the live items: swap with the last one.
                let at = self.live_at[i] as usize;
                let last = self.live_len - 1;
                let other = self.live[last];
                self.live.swap(at, last);
                self.live_at[other as usize] = at as u32;
                self.live_at[i] = last as u32;
                self.live_len = last;
            }
        }
        let (start, end) = (self.secondary_start.at(o), self.secondary_start.at(o + 1));
        for k in start..end {
            // A secondary item already in a chosen option: the options
            // that clash with it (another color, or any when it has none)
            // went then, all of them below a threshold at least as high as
            // this one (`room` only falls down the tree).
            let (item, color) = self.option_secondary.at(k);
            *self.covered.at_mut(item) += 1;
            if self.covered.at(item) > 1 {
                continue;
            }
            if self.lists {
                self.exclude_clashing::<true, true>(item, color, room);
            } else {
                self.exclude_clashing::<false, TRAIL>(item, color, room);
            }
        }
    }

    /// Excludes the options of secondary item `item` that clash with
    /// `color` (all of them when it is [`ColorId::NONE`]) and cost less
    /// than `room` ([`exclude_in`](Self::exclude_in) for `LISTS`).
    #[inline(always)]
    fn exclude_clashing<const LISTS: bool, const TRAIL: bool>(
        &mut self,
        item: u32,
        color: ColorId,
        room: u128,
    ) {
        let any = color.is_none();
        if self.has_slots(item) {
            let colors = if any {
                Some(None)
            } else {
                self.color_start
                    .binary_search_by(|&(i, c, _)| (i, c).cmp(&(item, color)))
                    .ok()
                    .map(|at| Some(self.color_start[at].2))
            };
            if let Some(colors) = colors {
                self.exclude_clashing_by_bits::<LISTS, TRAIL>(item, colors, room);
                return;
            }
        }
        for k in self.below(item, room) {
            let (other, c) = self.list.at(k as u32);
            // PERF: one branch for the three tests, not taken for most
            // options (gone already, or of this color). Alone, the test of
            // availability goes either way at random.
            if (any | (c != color)) & self.is_available(other) {
                self.exclude_in::<LISTS, TRAIL>(other);
            }
        }
    }

    /// Whether `item` has slots (see [`Search::item_slots`]).
    #[inline(always)]
    fn has_slots(&self, item: u32) -> bool {
        let (start, end) = self.item_slots.at(item);
        start < end
    }

    /// Excludes the available options of primary `item`, which has slots,
    /// in list order, until it has none left.
    #[inline(always)]
    fn exclude_by_bits<const TRAIL: bool>(&mut self, item: u32) {
        let (start, end) = self.item_slots.at(item);
        for r in start..end {
            let at = self.slot_word.at(r);
            let mut word = self.slot_bits.at(r) & self.available.at(at);
            while word != 0 {
                let o = at << 6 | word.trailing_zeros();
                word &= word - 1;
                self.exclude_available::<false, TRAIL>(o);
            }
            if self.available_count.at(item) == 0 {
                break;
            }
        }
    }

    /// Excludes the available options of secondary `item`, which has
    /// slots, that cost less than `room`, except those of the color whose
    /// bits start at `colors` in [`Search::color_bits`] (none: all of
    /// them); [`exclude_in`](Self::exclude_in) for `LISTS`.
    #[inline(always)]
    fn exclude_clashing_by_bits<const LISTS: bool, const TRAIL: bool>(
        &mut self,
        item: u32,
        colors: Option<u32>,
        room: u128,
    ) {
        // Past `u64`, every cost is below `room`; otherwise the slot's
        // costs decide for its whole word where they can, and one `u64`
        // comparison an option where they cannot.
        let (all, room) = (room > u128::from(u64::MAX), room as u64);
        let (start, end) = self.item_slots.at(item);
        for r in start..end {
            let every = if all {
                true
            } else {
                let (least, most) = self.slot_cost.at(r);
                if least >= room {
                    continue;
                }
                most < room
            };
            let at = self.slot_word.at(r);
            let mut word = self.slot_bits.at(r) & self.available.at(at);
            if let Some(colors) = colors {
                word &= !self.color_bits.at(colors + r - start);
            }
            while word != 0 {
                let o = at << 6 | word.trailing_zeros();
                word &= word - 1;
                if every || self.option_cost.at(o) < room {
                    self.exclude_available::<LISTS, TRAIL>(o);
                }
            }
        }
    }

    /// The first available option of primary `item`, which has slots, at
    /// or after bit `from` of its slots (bit `b` of slot `r` is bit
    /// `64 r + b`), and the bit after it.
    #[inline(always)]
    fn next_by_bits(&self, item: u32, from: usize) -> Option<(u32, usize)> {
        let (start, end) = self.item_slots.at(item);
        let mut r = start as usize + from / 64;
        let mut mask = u64::MAX << (from % 64);
        while r < end as usize {
            // Below the number of slots, which fits in `u32` as entries do.
            let at = self.slot_word.at(r as u32);
            let word = self.slot_bits.at(r as u32) & self.available.at(at) & mask;
            if word != 0 {
                let bit = word.trailing_zeros();
                return Some((at << 6 | bit, (r - start as usize) * 64 + bit as usize + 1));
            }
            mask = u64::MAX;
            r += 1;
        }
        None
    }

    fn unchoose(&mut self, o: u32) {
        let problem = self.problem;
        self.chosen.pop();
        self.cost -= u128::from(problem.cost(OptionId(o)));
        // In reverse, so that the live items come back in the reverse order
        // of their leaving: each then sits where it left.
        let (start, end) = (self.option_start.at(o), self.option_start.at(o + 1));
        for k in (start..end).rev() {
            let item = self.option_primary.at(k);
            if self.covered.at(item) >= self.most.at(item) {
                self.live_len += 1;
            }
            *self.covered.at_mut(item) -= 1;
        }
        let (start, end) = (self.secondary_start.at(o), self.secondary_start.at(o + 1));
        for k in start..end {
            *self.covered.at_mut(self.option_secondary.at(k).0) -= 1;
        }
    }

    /// Re-derives the counts from the flags and the chosen options, and the
    /// flags from the trail (the `debug-checks` feature runs it after every
    /// backtrack). When `whole` is false, a level that saves the state holds
    /// a choice whose exclusions are off the trail: then the flags must
    /// only be within those at the root less those on the trail.
    fn check(&self, whole: bool) {
        let problem = self.problem;
        let mut count = vec![0u32; problem.num_items()];
        let mut covered = vec![0u32; problem.num_items()];
        for o in problem.option_ids() {
            let on_trail = self.trail.contains(&o.0);
            let at_root = self.at_root[o.index() >> 6] >> (o.index() & 63) & 1 != 0;
            if whole {
                assert_eq!(self.is_available(o.0), at_root && !on_trail, "option {o:?}");
            } else {
                assert!(
                    !self.is_available(o.0) || at_root && !on_trail,
                    "option {o:?}"
                );
            }
            assert!(at_root || !on_trail, "option {o:?}");
            for e in problem.option(o) {
                if self.is_available(o.0) && problem.item_kind(e.item) == ItemKind::Primary {
                    count[e.item.index()] += 1;
                }
            }
        }
        for &o in &self.chosen {
            for e in problem.option(o) {
                covered[e.item.index()] += 1;
            }
        }
        assert_eq!(count, self.available_count[..problem.num_items()]);
        assert_eq!(covered, self.covered);
        if self.lists {
            // Each primary item's linked list holds its available options
            // in list order.
            for i in problem.item_ids() {
                if problem.item_kind(i) != ItemKind::Primary {
                    continue;
                }
                let head = self.list.len() + i.index();
                let mut linked = Vec::new();
                let mut at = self.next(head);
                while at != head {
                    linked.push(at);
                    at = self.next(at);
                }
                let expected: Vec<usize> = self
                    .options_of(i.0)
                    .filter(|&k| self.is_available(self.list[k].0))
                    .collect();
                assert_eq!(linked, expected, "item {i:?}");
            }
        }
    }

    /// [`choose_item`](Self::choose_item) for a search that cuts at cost
    /// `t`: only an item's options that fit below `t` count (they come
    /// first in its list); `Err(())` also when an item has fewer of them
    /// than its deficit, or when the cost so far plus a lower bound reaches
    /// `t`; an item with no deficit and none of them is left alone; ties go
    /// to the item with the largest regret (see the module docs).
    /// Options that the bound shows cannot join a solution below `t` are
    /// excluded first.
    fn choose_item_below(&mut self, t: u128) -> Result<Option<(u32, u32, bool)>, ()> {
        let Some(room) = t.checked_sub(self.cost).filter(|&r| r > 0) else {
            return Err(());
        };
        // A cost fits below `t` when it is at most `fits`.
        let fits = u64::try_from(room - 1).unwrap_or(u64::MAX);
        if !self.use_bound {
            return Ok(self.scan::<true>(fits, false)?.0);
        }
        // With the class bound, the item is chosen once its exclusions are
        // made (or not at all when it cuts): the first pass only bounds.
        let bounds_first = self.costs_fit;
        let (best, sum, terms) = if bounds_first {
            self.scan::<false>(fits, true)?
        } else {
            self.scan::<true>(fits, true)?
        };
        if terms == 0 {
            return if bounds_first {
                Ok(self.scan::<true>(fits, false)?.0)
            } else {
                Ok(best)
            };
        }
        // Round up, after a margin for rounding errors that keeps it a
        // bound: each term carries at most four roundings (the cost's
        // conversion, the division, the product, the addition), each a
        // relative error of at most `EPSILON / 2` of the sum.
        let margin = sum * f64::EPSILON * (2.0 * f64::from(terms) + 4.0) + 1e-9;
        // A float past `u128::MAX` cannot arise from `u64` costs; `as`
        // saturates anyway.
        let bound = (sum - margin).max(0.0).ceil() as u128;
        if bound >= room {
            return Err(());
        }
        if !self.costs_fit {
            return Ok(best);
        }
        let pending = std::mem::take(&mut self.pending);
        let mut cut = false;
        for reverse in [false, true] {
            let total = self.taxes(&pending, room, reverse);
            if total >= room {
                cut = true;
                break;
            }
            self.fix(&pending, room, room - total);
        }
        self.pending = pending;
        if cut {
            return Err(());
        }
        Ok(self.scan::<true>(fits, false)?.0)
    }

    /// The pass of [`choose_item_below`](Self::choose_item_below) over the
    /// live primary items, costs at most `fits`: with `CHOOSE` the item to
    /// branch on, and with `bound`, the sum of the deficits times the least
    /// shares and its number of terms, the items with a class and a deficit
    /// put in `pending` by class, and their taxes reset. `Err(())` at a dead
    /// end; without `CHOOSE`, an item with fewer fitting options than its
    /// deficit may pass unseen (the pass that chooses, which follows unless
    /// the bound cuts, finds it: exclusions only take options away).
    fn scan<const CHOOSE: bool>(&mut self, fits: u64, bound: bool) -> Result<Scan, ()> {
        let heads = self.list.len();
        let mut best: Option<(u32, u32, bool)> = None;
        let mut best_theta = u32::MAX;
        let mut best_regret = 0u64;
        let mut sum = 0.0f64;
        let mut terms = 0u32;
        for items in &mut self.pending {
            items.clear();
        }
        for at_live in 0..self.live_len {
            let i = self.live.at(at_live as u32);
            let iu = i as usize;
            *self.tax.at_mut(i) = 0;
            let k = self.available_count.at(i);
            let d = self.need.at(i).saturating_sub(self.covered.at(i));
            if k < d {
                return Err(());
            }
            if k == 0 {
                continue;
            }
            // The item's cheapest available option comes first in its list.
            let head = heads + iu;
            let first = self.next(head);
            let cheapest = self.list_cost.at(first as u32);
            if cheapest > fits {
                if d > 0 {
                    return Err(());
                }
                // Nothing more can join the item below `t`: leave it be.
                continue;
            }
            if !CHOOSE {
                if d > 0 && bound {
                    self.bound_term(i, first, d, &mut sum, &mut terms);
                }
                continue;
            }
            // Count the options below `t`, as far as the item can still win
            // (θ = s − d + 1, or s + 1 without a deficit, at most the best).
            let most_s = if d > 0 {
                best_theta.saturating_add(d - 1)
            } else {
                best_theta.saturating_sub(1)
            };
            let mut s = 1u32;
            let mut at = self.next(first);
            // The cost of the second option that fits, or past `fits`.
            let second = if at != head && self.list_cost.at(at as u32) <= fits {
                self.list_cost.at(at as u32)
            } else {
                fits.saturating_add(1)
            };
            let regret = second.saturating_sub(cheapest);
            while s <= most_s && at != head && self.list_cost.at(at as u32) <= fits {
                s += 1;
                at = self.next(at);
            }
            if s < d {
                return Err(());
            }
            if d > 0 && bound {
                self.bound_term(i, first, d, &mut sum, &mut terms);
            }
            if s <= most_s {
                let theta = if d > 0 { s - d + 1 } else { s + 1 };
                if theta < best_theta
                    || (theta == best_theta
                        && (regret > best_regret
                            || (regret == best_regret && best.is_some_and(|(b, _, _)| i < b))))
                {
                    best_theta = theta;
                    best_regret = regret;
                    best = Some((i, if d > 0 { theta } else { s }, d == 0));
                }
            }
        }
        Ok((best, sum, terms))
    }

    /// The share bound's term for live item `i` with deficit `d` whose
    /// cheapest available option is at `first` in its list, added to `sum`
    /// and counted in `terms`; the item joins `pending` if it has a class.
    #[inline(always)]
    fn bound_term(&mut self, i: u32, first: usize, d: u32, sum: &mut f64, terms: &mut u32) {
        let iu = i as usize;
        // The item's list is by share already when `shares` is empty.
        let shares = &self.by_share[self.share_start[iu]..self.share_start[iu + 1]];
        let o = if shares.is_empty() {
            self.list[first].0
        } else {
            shares
                .iter()
                .copied()
                .find(|&o| self.is_available(o))
                .unwrap_or(self.list[first].0)
        };
        *sum += f64::from(d) * self.share.at(o);
        *terms += 1;
        let class = self.class.at(i);
        if class != NO_CLASS {
            self.pending[usize::from(class)].push(i);
        }
    }

    /// The item to branch on, `Ok(None)` at a solution, `Err(())` at a dead end.
    fn choose_item(&self) -> Result<Option<(u32, u32, bool)>, ()> {
        // The item with the fewest branches θ = k − d + 1 (with or without
        // a deficit), ties to the first declared: the least of θ and the
        // item in one key (the live items come in no order).
        let mut best = u64::MAX;
        for &i in &self.live[..self.live_len] {
            let k = self.available_count.at(i);
            let d = self.need.at(i).saturating_sub(self.covered.at(i));
            if k < d {
                return Err(());
            }
            if k == 0 {
                continue;
            }
            best = best.min((u64::from(k - d) + 1) << 32 | u64::from(i));
        }
        if best == u64::MAX {
            return Ok(None);
        }
        // The item is below `2^32`, and so is θ: at most the options (below
        // `2^31`, `Problem`'s limit) + 1.
        let (i, theta) = (best as u32, (best >> 32) as u32);
        let d = self.need.at(i).saturating_sub(self.covered.at(i));
        Ok(Some((i, if d > 0 { theta } else { theta - 1 }, d == 0)))
    }

    fn over_budget(&mut self, stack: &[Frame]) -> Option<StopReason> {
        if self.budget.out_of_nodes(self.stats.nodes) {
            return Some(StopReason::NodeLimit);
        }
        if Budget::is_due(self.stats.nodes) {
            match self.budget.poll(self.stats.nodes) {
                Err(reason) => return Some(reason),
                Ok(Some(elapsed)) => {
                    if let Some(report) = self.progress.as_mut() {
                        report(&Progress {
                            nodes: self.stats.nodes,
                            solutions: self.stats.solutions,
                            fraction: fraction(stack),
                            depth: stack.len() as u32,
                            elapsed,
                        });
                    }
                }
                Ok(None) => {}
            }
        }
        None
    }

    /// Runs the whole search from the root, its clock from zero, calling
    /// `visit` with each solution and its cost.
    pub(crate) fn run(&mut self, visit: impl FnMut(&[OptionId], u128) -> Visit) -> Outcome {
        self.stack.clear();
        self.enter = true;
        self.budget.restart();
        self.resume(visit)
    }

    /// Goes on with the search where the last call stopped (after the
    /// solution it visited last, or before the node it did not enter), its
    /// clock too; a search that ran to the end stays complete.
    pub(crate) fn resume(&mut self, mut visit: impl FnMut(&[OptionId], u128) -> Visit) -> Outcome {
        self.budget.start();
        let before = self.budget.elapsed();
        let mut stack = std::mem::take(&mut self.stack);
        let enter = std::mem::replace(&mut self.enter, false);
        let outcome = self.run_inner(&mut stack, enter, &mut visit);
        self.stack = stack;
        self.stats.elapsed += self.budget.elapsed() - before;
        outcome
    }

    fn run_inner(
        &mut self,
        stack: &mut Vec<Frame>,
        mut enter: bool,
        visit: &mut impl FnMut(&[OptionId], u128) -> Visit,
    ) -> Outcome {
        loop {
            if enter {
                enter = false;
                if let Some(reason) = self.over_budget(stack) {
                    self.enter = true;
                    return Outcome::Stopped(reason);
                }
                self.stats.nodes += 1;
                self.stats.max_depth = self.stats.max_depth.max(self.chosen.len() as u32);
                let choice = match self.threshold {
                    Some(t) => self.choose_item_below(t),
                    None => self.choose_item(),
                };
                match choice {
                    Err(()) => {}
                    Ok(None) => {
                        self.stats.solutions += 1;
                        match visit(&self.chosen, self.cost) {
                            Visit::Stop => return Outcome::Stopped(StopReason::Caller),
                            Visit::Continue(t) => {
                                if t.is_some() {
                                    self.threshold = t;
                                }
                            }
                        }
                        if self
                            .limits
                            .solutions
                            .is_some_and(|n| self.stats.solutions >= n)
                        {
                            return Outcome::Stopped(StopReason::SolutionLimit);
                        }
                    }
                    Ok(Some((item, tries, none_allowed))) => {
                        stack.push(Frame {
                            item,
                            len: tries as usize,
                            next: 0,
                            // A bit of its slots for an item with slots.
                            pos: if self.has_slots(item) {
                                0
                            } else {
                                self.item_start[item as usize]
                            },
                            current: None,
                            none_allowed,
                            none_done: false,
                            base: self.trail.len(),
                            mark: self.trail.len(),
                        });
                    }
                }
            }
            // Advance the top level to its next branch, backing up as needed.
            let Some(frame) = stack.last_mut() else {
                return Outcome::Complete;
            };
            let mut frame = *frame;
            if let Some(o) = frame.current.take() {
                self.unchoose(o);
                if stack.len() <= self.snapshot_levels {
                    // The choice kept its exclusions off the trail, and the
                    // levels below undid theirs.
                    debug_assert_eq!(self.trail.len(), frame.mark);
                    self.restore(stack.len() - 1);
                } else {
                    self.undo(frame.mark);
                }
                self.exclude::<true>(o);
                frame.mark = self.trail.len();
            }
            // Undoing to `mark` restored every option the level saw available
            // except the candidates tried, which are excluded: the next
            // candidate is the first available option.
            let mut candidate = None;
            let head = self.list.len() + frame.item as usize;
            if frame.next < frame.len {
                let at = if self.lists {
                    self.next(head)
                } else if self.has_slots(frame.item) {
                    // `pos` is a bit of the item's slots here, not a list
                    // position, and a list without costs is in option order.
                    if let Some((o, next)) = self.next_by_bits(frame.item, frame.pos) {
                        frame.pos = next;
                        let cost = u128::from(self.problem.cost(OptionId(o)));
                        if self.threshold.is_none_or(|t| self.cost + cost < t) {
                            candidate = Some(o);
                        }
                    }
                    head
                } else {
                    let end = self.item_start[frame.item as usize + 1];
                    let mut at = frame.pos;
                    while at < end && !self.is_available(self.list[at].0) {
                        at += 1;
                    }
                    frame.pos = at + 1;
                    if at < end {
                        at
                    } else {
                        head
                    }
                };
                if at != head {
                    // Options come cheapest first in a cost search: once one
                    // reaches the threshold, so do the rest.
                    let cost = u128::from(self.list_cost[at]);
                    if self.threshold.is_none_or(|t| self.cost + cost < t) {
                        candidate = Some(self.list[at].0);
                    }
                }
            }
            if let Some(o) = candidate {
                frame.next += 1;
                frame.current = Some(o);
                // A level that saves the state takes the choice back with
                // the copy: its exclusions need not go on the trail.
                if stack.len() <= self.snapshot_levels {
                    self.save(stack.len() - 1);
                    self.choose::<false>(o);
                } else {
                    self.choose::<true>(o);
                }
                enter = true;
            } else if frame.none_allowed && !frame.none_done {
                // Close item `frame.item`: the candidates tried are excluded
                // by now, and the options a cut skipped are excluded here.
                if self.lists {
                    let mut at = self.next(head);
                    while at != head {
                        self.exclude::<true>(self.list[at].0);
                        at = self.next(at);
                    }
                } else if self.has_slots(frame.item) {
                    self.exclude_by_bits::<true>(frame.item);
                } else {
                    for at in self.options_of(frame.item) {
                        self.exclude::<true>(self.list[at].0);
                    }
                }
                debug_assert_eq!(self.available_count[frame.item as usize], 0);
                frame.none_done = true;
                enter = true;
            } else {
                self.undo(frame.base);
                stack.pop();
                if cfg!(feature = "debug-checks") {
                    // The trail holds every exclusion unless a level that
                    // saves the state is in a choice.
                    let saving = &stack[..stack.len().min(self.snapshot_levels)];
                    self.check(saving.iter().all(|f| f.current.is_none()));
                }
                continue;
            }
            if let Some(top) = stack.last_mut() {
                *top = frame;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_twin_searches_as_a_new_solver_does() {
        // Cover `a` twice and `b` once, `x` secondary with colors: {a},
        // {a b x:1}, {a x:2}, {b x:1}, {a b}.
        let p = crate::format::parse_dlx("2|a b | x\na\na b x:1\na x:2\nb x:1\na b\n").unwrap();
        let one = MultiSolver::new(&p);
        let mut two = one.twin();
        let mut three = one.twin();
        let mut fresh = MultiSolver::new(&p);
        let alone = fresh.count();
        assert!(alone.solutions > 0);
        let work = |s: &Stats| (s.nodes, s.updates, s.solutions, s.max_depth);
        assert_eq!(two.count(), alone);
        assert_eq!(work(two.stats()), work(fresh.stats()));
        // The other twin starts at the root, whatever the first did.
        assert_eq!(three.count(), alone);
        assert_eq!(work(three.stats()), work(fresh.stats()));
    }

    #[test]
    fn padded_counts_search_as_the_plain_walk_does() {
        // Random problems with bounds, colors and options of 1 to 20
        // primary items (so every rest of `PAD` comes up), counted with the
        // padded counts and with the walk over `option_primary` that a
        // problem too large to pad takes.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % n
        };
        let mut searched = 0;
        for _ in 0..40 {
            let items = 20 + next(10) as usize;
            let mut text = String::new();
            for i in 0..items {
                let (v, u) = (next(2), 1 + next(3));
                text.push_str(&format!("{}:{}|p{i} ", v.min(u), u));
            }
            text.push_str(
                "| s0 s1 s2
",
            );
            for _ in 0..30 + next(30) {
                let size = 1 + next(20) as usize;
                let mut chosen: Vec<usize> =
                    (0..size).map(|_| next(items as u64) as usize).collect();
                chosen.sort_unstable();
                chosen.dedup();
                for i in chosen {
                    text.push_str(&format!("p{i} "));
                }
                if next(2) == 0 {
                    text.push_str(&format!("s{}:{}", next(3), next(2)));
                }
                text.push('\n');
            }
            let p = crate::format::parse_dlx(&text).unwrap();
            let mut padded = Search::new(&p, false);
            assert!(padded.padded);
            let mut plain = Search::new(&p, false);
            plain.padded = false;
            plain.padded_start.clear();
            plain.padded_primary.clear();
            assert_eq!(padded.run(|_, _| Visit::Continue(None)), Outcome::Complete);
            assert_eq!(plain.run(|_, _| Visit::Continue(None)), Outcome::Complete);
            let work = |s: &Stats| (s.nodes, s.updates, s.solutions, s.max_depth);
            assert_eq!(work(&padded.stats), work(&plain.stats));
            searched += u64::from(padded.stats.nodes > 1);
        }
        // Most problems branch at all.
        assert!(searched >= 20, "{searched}");
    }
}
