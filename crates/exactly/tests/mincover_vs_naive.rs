//! Minimum covers: `MinCover` against trying every subset of options.

use exactly::mincover::MinCover;
use exactly::{ItemKind, Outcome, ProblemBuilder};
use proptest::prelude::*;

use crate::common;

/// Primary items `0..primary`, secondary items after them; options as item
/// lists with costs.
#[derive(Clone, Debug)]
struct Sets {
    primary: usize,
    secondary: usize,
    options: Vec<(Vec<usize>, u64)>,
}

impl Sets {
    fn to_problem(&self) -> exactly::Problem<usize> {
        let options: Vec<Vec<(usize, u32)>> = self
            .options
            .iter()
            .map(|(items, _)| items.iter().map(|&i| (i, 0)).collect())
            .collect();
        let costs = self.options.iter().map(|(_, cost)| *cost);
        let options = options.iter().map(Vec::as_slice).zip(costs);
        common::build(&vec![(1, 1); self.primary], self.secondary, 0, options)
    }

    /// The fewest options and the least total cost over all covers
    /// (options without a primary item are left out, as the builder drops them).
    fn brute_force(&self) -> Option<(usize, u128)> {
        let m = self.options.len();
        let mut best: Option<(usize, u128)> = None;
        for set in 0u32..1 << m {
            let mut covered = vec![false; self.primary];
            let mut cost = 0;
            let mut usable = true;
            for (k, (items, c)) in self.options.iter().enumerate() {
                if set >> k & 1 == 1 {
                    usable &= items.iter().any(|&i| i < self.primary);
                    cost += u128::from(*c);
                    for &i in items {
                        if i < self.primary {
                            covered[i] = true;
                        }
                    }
                }
            }
            if usable && covered.iter().all(|&c| c) {
                let n = set.count_ones() as usize;
                best = Some(match best {
                    None => (n, cost),
                    Some((bn, bc)) => (bn.min(n), bc.min(cost)),
                });
            }
        }
        best
    }
}

/// Option costs: mostly small, sometimes near `u64::MAX` or `2^62`, so that
/// sums overflow 64 bits and the reference (summing in `u128`) catches any
/// cost that wraps or saturates.
fn cost() -> impl Strategy<Value = u64> {
    prop_oneof![
        4 => 0u64..=20,
        1 => (u64::MAX - 20)..=u64::MAX,
        1 => (1u64 << 62)..=(1u64 << 62) + 20,
    ]
}

fn sets() -> impl Strategy<Value = Sets> {
    (1usize..=8, 0usize..=2).prop_flat_map(|(primary, secondary)| {
        let n = primary + secondary;
        let option = (prop::collection::btree_set(0..n, 1..=4.min(n)), cost());
        prop::collection::vec(option, 0..=12).prop_map(move |raw| Sets {
            primary,
            secondary,
            options: raw
                .into_iter()
                .map(|(s, c)| (s.into_iter().collect(), c))
                .collect(),
        })
    })
}

proptest! {
    #![proptest_config(common::differential(2000))]

    #[test]
    fn minimum_matches_brute_force(s in sets()) {
        let problem = s.to_problem();
        let expected = s.brute_force();
        for estimate in [true, false] {
            for weighted in [false, true] {
                let (cover, outcome) = MinCover::new(&problem)
                    .weighted(weighted)
                    .estimate(estimate)
                    .solve();
                prop_assert_eq!(outcome, Outcome::Complete);
                match (expected, cover) {
                    (None, None) => {}
                    (Some((n, c)), Some(cover)) => {
                        let want = if weighted { c } else { n as u128 };
                        prop_assert_eq!(cover.cost, want);
                        let mut covered = vec![false; problem.num_items()];
                        let mut sum = 0;
                        for &o in &cover.options {
                            sum += if weighted { u128::from(problem.cost(o)) } else { 1 };
                            for e in problem.option(o) {
                                covered[e.item.index()] = true;
                            }
                        }
                        prop_assert_eq!(sum, cover.cost);
                        for i in problem.item_ids() {
                            if problem.item_kind(i) == ItemKind::Primary {
                                prop_assert!(covered[i.index()]);
                            }
                        }
                    }
                    (e, c) => prop_assert!(false, "expected {:?}, found {:?}", e, c),
                }
            }
        }
    }
}

#[test]
fn node_limit_stops() {
    // 12 items, options of every pair: needs 6 options.
    let mut b = ProblemBuilder::new();
    let items: Vec<_> = (0..12)
        .map(|i| b.primary(&format!("i{i}")).unwrap())
        .collect();
    for i in 0..12 {
        for j in i + 1..12 {
            b.add_option(
                (),
                [
                    (items[i], exactly::ColorId::NONE),
                    (items[j], exactly::ColorId::NONE),
                ],
            )
            .unwrap();
        }
    }
    let p = b.build().unwrap();
    let (cover, outcome) = MinCover::new(&p).solve();
    assert_eq!(outcome, Outcome::Complete);
    assert_eq!(cover.unwrap().cost, 6);
    let (cover, outcome) = MinCover::new(&p)
        .limits(exactly::Limits::default().max_nodes(3))
        .solve();
    assert_eq!(cover, None);
    assert_eq!(outcome, Outcome::Stopped(exactly::StopReason::NodeLimit));
}
