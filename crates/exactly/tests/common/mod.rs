//! Helpers shared by the engine's integration tests: a naive reference solver
//! that shares no code with the engine, and random instance generators.

#![allow(dead_code)]

pub mod multi;

use exactly::{ColorId, Problem, ProblemBuilder};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// Proptest's settings for the differential tests: `cases` cases, and each
/// failure kept in a `.regressions` file beside the test's source, replayed
/// first on every run.
pub fn differential(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("regressions"))),
        ..ProptestConfig::default()
    }
}

/// A problem whose labels are option indices: primary items `p0, p1, …`
/// with `bounds` (1:1 is an item covered exactly once), secondary items
/// `s0, s1, …`, colors `c1` to `c{colors}`, and options of entries
/// `(item, color)` (items numbered primary first, color 0 for none) with a
/// cost each.
pub fn build<'a>(
    bounds: &[(u32, u32)],
    secondary: usize,
    colors: u32,
    options: impl IntoIterator<Item = (&'a [(usize, u32)], u64)>,
) -> Problem<usize> {
    let mut b = ProblemBuilder::new();
    let mut ids = Vec::new();
    for (i, &(min, max)) in bounds.iter().enumerate() {
        let name = format!("p{i}");
        ids.push(
            match (min, max) {
                (1, 1) => b.primary(&name),
                _ => b.primary_with_bounds(&name, min, max),
            }
            .unwrap(),
        );
    }
    for i in 0..secondary {
        ids.push(b.secondary(&format!("s{i}")).unwrap());
    }
    let colors: Vec<ColorId> = (0..=colors)
        .map(|c| match c {
            0 => ColorId::NONE,
            _ => b.color(&format!("c{c}")).unwrap(),
        })
        .collect();
    for (k, (option, cost)) in options.into_iter().enumerate() {
        let entries = option.iter().map(|&(i, c)| (ids[i], colors[c as usize]));
        b.add_option_with_cost(k, cost, entries).unwrap();
    }
    b.build().unwrap()
}

/// A problem as plain data: items `0..primary` are primary, the rest up to
/// `primary + secondary` secondary; an entry is `(item, color)`, color 0 = none.
#[derive(Clone, Debug)]
pub struct Plain {
    pub primary: usize,
    pub secondary: usize,
    pub options: Vec<Vec<(usize, u32)>>,
}

impl Plain {
    /// Builds the engine's problem; labels are option indices.
    pub fn to_problem(&self) -> Problem<usize> {
        let options = self.options.iter().map(|o| (o.as_slice(), 0));
        build(&vec![(1, 1); self.primary], self.secondary, 4, options)
    }

    /// Every solution, each as a sorted list of option indices, the list sorted.
    /// Plain recursion: branch on the first uncovered primary item.
    pub fn naive_solutions(&self) -> Vec<Vec<usize>> {
        let n = self.primary + self.secondary;
        let mut covered = vec![0u32; n];
        let mut color: Vec<Option<u32>> = vec![None; n];
        let mut chosen = Vec::new();
        let mut out = Vec::new();
        self.recurse(&mut covered, &mut color, &mut chosen, &mut out);
        for s in &mut out {
            s.sort_unstable();
        }
        out.sort();
        out
    }

    fn fits(&self, opt: &[(usize, u32)], covered: &[u32], color: &[Option<u32>]) -> bool {
        // An option with no primary item can never be part of a solution
        // (the engine drops it); this check mirrors that.
        opt.iter().any(|&(i, _)| i < self.primary)
            && opt.iter().all(|&(i, c)| {
                if i < self.primary {
                    covered[i] == 0
                } else {
                    covered[i] == 0 || (c != 0 && color[i] == Some(c))
                }
            })
    }

    fn recurse(
        &self,
        covered: &mut [u32],
        color: &mut [Option<u32>],
        chosen: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        let Some(item) = (0..self.primary).find(|&i| covered[i] == 0) else {
            out.push(chosen.clone());
            return;
        };
        for (k, opt) in self.options.iter().enumerate() {
            if !opt.iter().any(|&(i, _)| i == item) || !self.fits(opt, covered, color) {
                continue;
            }
            let saved: Vec<Option<u32>> = opt.iter().map(|&(i, _)| color[i]).collect();
            for &(i, c) in opt {
                covered[i] += 1;
                if c != 0 {
                    color[i] = Some(c);
                }
            }
            chosen.push(k);
            self.recurse(covered, color, chosen, out);
            chosen.pop();
            for (&(i, _), s) in opt.iter().zip(saved) {
                covered[i] -= 1;
                color[i] = s;
            }
        }
    }
}

/// Random small problems: up to 7 primary and 4 secondary items, options of
/// 1..=4 distinct items, colors on some secondary entries. Half of them get a
/// planted solution so that satisfiable cases are common.
pub fn plain_problem() -> impl Strategy<Value = Plain> {
    (1usize..=7, 0usize..=4, any::<bool>(), 0usize..=4).prop_flat_map(
        |(primary, secondary, plant, colors)| {
            let n = primary + secondary;
            let entry = (0..n, 0..=colors as u32);
            let option = prop::collection::vec(entry, 1..=4.min(n));
            let partition = prop::collection::vec(0..primary, primary);
            (
                prop::collection::vec(option, 0..=12),
                partition,
                Just((primary, secondary, plant)),
            )
                .prop_map(move |(raw, part, (primary, secondary, plant))| {
                    let mut options: Vec<Vec<(usize, u32)>> = raw
                        .into_iter()
                        .map(|o| {
                            let mut seen = Vec::new();
                            o.into_iter()
                                .filter(|&(i, _)| {
                                    if seen.contains(&i) {
                                        false
                                    } else {
                                        seen.push(i);
                                        true
                                    }
                                })
                                .map(|(i, c)| (i, if i < primary { 0 } else { c }))
                                .collect()
                        })
                        .collect();
                    if plant {
                        // Group primary items by the partition labels; each
                        // group becomes an option.
                        for g in 0..primary {
                            let group: Vec<(usize, u32)> = (0..primary)
                                .filter(|&i| part[i] == g)
                                .map(|i| (i, 0))
                                .collect();
                            if !group.is_empty() {
                                let at = g % (options.len() + 1);
                                options.insert(at, group);
                            }
                        }
                    }
                    Plain {
                        primary,
                        secondary,
                        options,
                    }
                })
        },
    )
}
