//! The class bound of a search by cost (see [the module docs](super),
//! "Costs"): the classes of primary items, the taxes laid on them, and the
//! options those taxes exclude below a node.

use crate::problem::Problem;
use crate::unchecked::At;

use super::Search;

/// The most classes of items the cost bound keeps.
pub(super) const CLASSES: usize = 4;
/// The class of an item in none.
pub(super) const NO_CLASS: u8 = u8::MAX;

/// Classes of primary items for the cost bound, greedily in declaration
/// order: an item joins the first of the [`CLASSES`] classes none of whose
/// items shares an option with it, or none. A solution covers the items of
/// a class with distinct options, so the sum over a class of each item's
/// deficit times its cheapest available option is a lower bound on the
/// cost still to pay (rows, and columns, in n queens).
pub(super) fn classes<L>(problem: &Problem<L>, primary: &[u32]) -> Vec<u8> {
    let mut class = vec![NO_CLASS; problem.num_items()];
    // Per class and option: whether an item of the class has the option.
    let mut taken = vec![vec![false; problem.num_options()]; CLASSES];
    let mut options_of: Vec<Vec<u32>> = vec![Vec::new(); problem.num_items()];
    for o in problem.option_ids() {
        for e in problem.option(o) {
            options_of[e.item.index()].push(o.0);
        }
    }
    for &i in primary {
        let options = &options_of[i as usize];
        if let Some(c) = (0..CLASSES).find(|&c| options.iter().all(|&o| !taken[c][o as usize])) {
            for &o in options {
                taken[c][o as usize] = true;
            }
            // Below `CLASSES`, which fits in `u8`.
            class[i as usize] = c as u8;
        }
    }
    class
}

impl<L> Search<'_, L> {
    /// The taxes bound: class by class, each item of `items` (the live
    /// items with a class and a deficit, by class) is taxed the least *residual cost*
    /// of its available options that cost less than `room`, an option's
    /// residual cost being its cost less the taxes of its items in earlier
    /// classes; returns the sum of each item's deficit times its tax.
    /// The taxes of an option's items never exceed its cost (the items of a
    /// class share no option), so they are a feasible solution of the dual
    /// of the covering problem's linear relaxation, and the sum bounds the
    /// cost of any completion that uses options cheaper than `room`.
    pub(super) fn taxes(&mut self, items: &[Vec<u32>; CLASSES], room: u128, reverse: bool) -> u128 {
        let heads = self.list.len();
        // A cost fits below `room` when it is at most `fits` (`room > 0`).
        let fits = u64::try_from(room.saturating_sub(1)).unwrap_or(u64::MAX);
        let mut total = 0u128;
        // Per class its largest tax, and their sum: the most the taxes of
        // an option's items add up to.
        let mut class_most = [0u64; CLASSES];
        let mut taxed_most = 0u64;
        for &i in items.iter().flatten() {
            *self.tax.at_mut(i) = 0;
        }
        let used = self.classes_used;
        for step in 0..used {
            let c = if reverse { used - 1 - step } else { step };
            for &i in &items[c] {
                let iu = i as usize;
                let head = heads + iu;
                let mut at = self.next(head);
                let mut least = u64::MAX;
                if step == 0 {
                    // No item is taxed yet, so each residual cost is the
                    // cost itself: the least is the first option's, the
                    // cheapest (`at == head` when the list is empty).
                    // PERF: the walk took a tenth of the instructions on
                    // min-cost queens (DESIGN.md, "Measurements",
                    // code-level choices).
                    if at != head {
                        let cost = self.list_cost.at(at as u32);
                        if cost <= fits {
                            least = cost;
                        }
                    }
                    at = head;
                }
                // A residual cost is at least the cost less `taxed_most`:
                // the walk stops at the first option past `fits` or whose
                // cost reaches `least + taxed_most`.
                let mut limit = fits;
                while at != head {
                    let cost = self.list_cost.at(at as u32);
                    if cost > limit {
                        break;
                    }
                    let paid = self.paid_at(at, iu);
                    // The taxes of the option's items never exceed its cost.
                    let residual = cost.saturating_sub(paid);
                    if residual < least {
                        if residual == 0 {
                            least = 0;
                            break;
                        }
                        least = residual;
                        limit = fits.min(least.saturating_add(taxed_most).saturating_sub(1));
                    }
                    at = self.next(at);
                }
                if least == u64::MAX {
                    // No option fits below `room`: nothing completes.
                    return u128::MAX;
                }
                if least == 0 {
                    continue;
                }
                *self.tax.at_mut(i) = least;
                if least > class_most[c] {
                    taxed_most = taxed_most.saturating_add(least - class_most[c]);
                    class_most[c] = least;
                }
                let d = self.need.at(i).saturating_sub(self.covered.at(i));
                total += u128::from(d) * u128::from(least);
                if total >= room {
                    // The bound cuts already.
                    return total;
                }
            }
        }
        total
    }

    /// The taxes of the primary items of the option at list position `at`
    /// of item `i`'s list, as they stand: two reads when options have at
    /// most two primary items, else [`paid`](Self::paid).
    #[inline(always)]
    fn paid_at(&self, at: usize, i: usize) -> u64 {
        if self.partner.is_empty() {
            self.paid(self.list.at(at as u32).0)
        } else {
            let other = self.tax.at(self.partner.at(at as u32));
            self.tax.at(i as u32).saturating_add(other)
        }
    }

    /// The taxes of option `o`'s primary items, as they stand.
    #[inline(always)]
    fn paid(&self, o: u32) -> u64 {
        let mut paid = 0u64;
        for k in self.option_start.at(o)..self.option_start.at(o + 1) {
            paid = paid.saturating_add(self.tax.at(self.option_primary.at(k)));
        }
        paid
    }

    /// Excludes, below the node, the options of `items` whose reduced cost
    /// (their cost less the taxes of their items, as the last call of
    /// [`taxes`](Self::taxes) left them) is at least `slack`, `room` less
    /// that call's sum: a completion that chooses such an option costs at
    /// least the sum plus its reduced cost, so reaches `room`.
    pub(super) fn fix(&mut self, items: &[Vec<u32>; CLASSES], room: u128, slack: u128) {
        let heads = self.list.len();
        let fits = u64::try_from(room.saturating_sub(1)).unwrap_or(u64::MAX);
        for &i in items.iter().flatten() {
            // From the dearest option down (each list is by cost), to the
            // first that costs less than `slack`: a reduced cost is at
            // most the cost, so none before it is excluded. An excluded
            // option keeps its links, so the walk goes on from it.
            let head = heads + i as usize;
            let mut at = self.prev(head);
            while at != head {
                let cost = self.list_cost.at(at as u32);
                if u128::from(cost) < slack {
                    break;
                }
                if cost <= fits
                    && u128::from(cost.saturating_sub(self.paid_at(at, i as usize))) >= slack
                {
                    // The lists hold only available options (an exclusion
                    // unlinks its option), and they are kept in a search
                    // by cost, the only one with a bound.
                    let o = self.list.at(at as u32).0;
                    debug_assert!(self.lists && self.is_available(o));
                    self.exclude_available::<true, true>(o);
                }
                at = self.prev(at);
            }
        }
    }
}
