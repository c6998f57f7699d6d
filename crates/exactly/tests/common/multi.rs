//! Problems with multiplicities and costs as plain data, a reference that
//! tries every subset of options (it shares no code with the engine), and a
//! random generator of them.

use exactly::Problem;
use proptest::prelude::*;

/// A problem as plain data: primary items with bounds, then secondary
/// items; entries `(item, color)` with color 0 = none; a cost per option.
#[derive(Clone, Debug)]
pub struct Multi {
    pub bounds: Vec<(u32, u32)>,
    pub secondary: usize,
    pub options: Vec<(Vec<(usize, u32)>, u64)>,
}

impl Multi {
    pub fn to_problem(&self) -> Problem<usize> {
        let options = self.options.iter().map(|(o, cost)| (o.as_slice(), *cost));
        super::build(&self.bounds, self.secondary, 3, options)
    }

    /// Whether the options in `set` (a bit mask) form a solution.
    pub fn is_solution(&self, set: u32) -> bool {
        let p = self.bounds.len();
        let n = p + self.secondary;
        let mut times = vec![0u32; n];
        let mut color: Vec<Option<u32>> = vec![None; n];
        for (k, (opt, _)) in self.options.iter().enumerate() {
            if set >> k & 1 == 0 {
                continue;
            }
            if !opt.iter().any(|&(i, _)| i < p) {
                return false; // dropped by the builder: never chosen
            }
            for &(i, c) in opt {
                times[i] += 1;
                if i >= p {
                    if times[i] > 1 && (c == 0 || color[i] != Some(c)) {
                        return false;
                    }
                    color[i] = Some(c);
                }
            }
        }
        self.bounds
            .iter()
            .zip(&times)
            .all(|(&(min, max), &t)| min <= t && t <= max)
    }

    /// Every solution as a sorted list of option indices, with its cost.
    pub fn all_solutions(&self) -> Vec<(Vec<usize>, u128)> {
        let m = self.options.len();
        (0u32..1 << m)
            .filter(|&set| self.is_solution(set))
            .map(|set| {
                let opts: Vec<usize> = (0..m).filter(|&k| set >> k & 1 == 1).collect();
                let cost = opts.iter().map(|&k| u128::from(self.options[k].1)).sum();
                (opts, cost)
            })
            .collect()
    }

    /// Every solution as a sorted list of option indices, the list sorted.
    pub fn naive_solutions(&self) -> Vec<Vec<usize>> {
        let mut all: Vec<Vec<usize>> = self.all_solutions().into_iter().map(|(s, _)| s).collect();
        all.sort();
        all
    }
}

/// Option costs: mostly small, sometimes near `u64::MAX` or `2^62`, so that
/// sums overflow 64 bits and the reference (summing in `u128`) catches any
/// cost that wraps or saturates.
pub fn cost() -> impl Strategy<Value = u64> {
    prop_oneof![
        4 => 0u64..=20,
        1 => (u64::MAX - 20)..=u64::MAX,
        1 => (1u64 << 62)..=(1u64 << 62) + 20,
    ]
}

/// Random problems: 1..=5 primary items with bounds in 0..=3, up to 3
/// secondary items, up to 12 options of 1..=4 items with [`cost`]s.
pub fn multi_problem() -> impl Strategy<Value = Multi> {
    (1usize..=5, 0usize..=3, 0u32..=3).prop_flat_map(|(primary, secondary, colors)| {
        let n = primary + secondary;
        let bound = (0u32..=3, 0u32..=2).prop_map(|(min, extra)| (min, (min + extra).max(1)));
        let entry = (0..n, 0..=colors);
        let option = (prop::collection::vec(entry, 1..=4.min(n)), cost());
        (
            prop::collection::vec(bound, primary),
            prop::collection::vec(option, 0..=12),
        )
            .prop_map(move |(bounds, raw)| {
                let options = raw
                    .into_iter()
                    .map(|(o, cost)| {
                        let mut seen = Vec::new();
                        let entries = o
                            .into_iter()
                            .filter(|&(i, _)| {
                                let new = !seen.contains(&i);
                                seen.push(i);
                                new
                            })
                            .map(|(i, c)| (i, if i < primary { 0 } else { c }))
                            .collect();
                        (entries, cost)
                    })
                    .collect();
                Multi {
                    bounds,
                    secondary,
                    options,
                }
            })
    })
}
