//! Symmetry breaking for tilings: which placements of which pieces to keep so
//! that each tiling is counted once up to the symmetries of the board (see
//! the [module docs](super) for the method and why it is correct).

use std::collections::BTreeSet;

use super::geometry::{Group, Transform};

/// A placement: the sorted indices (`row * cols + col`) of its cells.
pub(crate) type Cells = Vec<u32>;

/// One option of a piece in the chain: a placement, the group of symmetries
/// still unbroken before it (its `@s` color on the way in) and the part of
/// that group that fixes the placement (its color on the way out).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Kept {
    pub(crate) placement: usize,
    pub(crate) before: Group,
    pub(crate) after: Group,
}

/// One link of the chain: a piece and its kept options.
#[derive(Clone, Debug)]
pub(crate) struct Level {
    pub(crate) piece: usize,
    pub(crate) kept: Vec<Kept>,
}

/// The chain of pieces that break the board's symmetry.
#[derive(Clone, Debug, Default)]
pub(crate) struct Plan {
    pub(crate) levels: Vec<Level>,
    /// False when the candidates ran out while some symmetry was still
    /// unbroken; counts may then include symmetric twins.
    pub(crate) complete: bool,
}

/// How a placement relates to its images under a group.
#[derive(Clone, Copy, Debug)]
struct Images {
    /// Transforms whose image is smaller (so the placement is not the
    /// smallest of its orbit under any group holding one of them).
    smaller: u8,
    /// Transforms that fix the placement.
    fixed: u8,
}

fn images(placement: &[u32], maps: &[(Transform, Vec<u32>)]) -> Images {
    let mut out = Images {
        smaller: 0,
        fixed: 0,
    };
    let mut image = Vec::with_capacity(placement.len());
    for (t, map) in maps {
        image.clear();
        image.extend(placement.iter().map(|&i| map[i as usize]));
        image.sort_unstable();
        match image.as_slice().cmp(placement) {
            std::cmp::Ordering::Less => out.smaller |= t.bit(),
            std::cmp::Ordering::Equal => out.fixed |= t.bit(),
            std::cmp::Ordering::Greater => {}
        }
    }
    out
}

/// The options a piece keeps when the unbroken group before it is one of
/// `before`: for each placement and each such group under which the
/// placement is the smallest of its orbit.
fn kept(images: &[Images], before: &BTreeSet<Group>) -> Vec<Kept> {
    let mut out = Vec::new();
    for (placement, im) in images.iter().enumerate() {
        for &group in before {
            if im.smaller & group.0 == 0 {
                out.push(Kept {
                    placement,
                    before: group,
                    after: Group(im.fixed).meet(group),
                });
            }
        }
    }
    out
}

/// Chooses the chain for the board's symmetry group `group` (on a board of
/// `rows`×`cols` cells), given each piece's placements and the pieces that
/// may serve (those used exactly once).
pub(crate) fn plan(
    group: Group,
    rows: usize,
    cols: usize,
    placements: &[Vec<Cells>],
    candidates: &[usize],
) -> Plan {
    let maps: Vec<(Transform, Vec<u32>)> = group
        .members()
        .map(|t| {
            let map = (0..rows * cols)
                .map(|i| {
                    let (r, c) = t.apply((i / cols, i % cols), rows, cols);
                    (r * cols + c) as u32
                })
                .collect();
            (t, map)
        })
        .collect();
    let mut remaining: Vec<(usize, Vec<Images>)> = candidates
        .iter()
        .map(|&p| (p, placements[p].iter().map(|q| images(q, &maps)).collect()))
        .collect();
    let mut before: BTreeSet<Group> = BTreeSet::from([group]);
    let mut plan = Plan::default();
    while before.iter().any(|g| !g.is_trivial()) {
        let first = plan.levels.is_empty();
        let best = remaining
            .iter()
            .enumerate()
            .map(|(k, (_, im))| {
                let options = kept(im, &before);
                let unbroken = options.iter().filter(|o| !o.after.is_trivial()).count();
                // The first piece should have few options (it leads the
                // search); later ones should leave as little unbroken as
                // possible, so that the chain stays short.
                let key = if first {
                    (options.len(), unbroken)
                } else {
                    (unbroken, options.len())
                };
                (key, k, options)
            })
            .min_by_key(|(key, k, _)| (*key, *k));
        let Some((_, k, options)) = best else {
            return plan;
        };
        let (piece, _) = remaining.remove(k);
        before = options.iter().map(|o| o.after).collect();
        plan.levels.push(Level {
            piece,
            kept: options,
        });
    }
    plan.complete = true;
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip_pieces() -> Vec<Vec<Cells>> {
        // On a 1x5 strip: a straight pentomino, a monomino, a domino, a tromino.
        [5, 1, 2, 3]
            .into_iter()
            .map(|len| (0..=5 - len).map(|s| (s..s + len).collect()).collect())
            .collect::<Vec<Vec<Cells>>>()
    }

    #[test]
    fn first_piece_has_fewest_options() {
        let flip = Group(0b11); // the identity and the left-right flip
        let pieces = strip_pieces();
        // Without the pentomino the domino leads: as few options as the
        // tromino (two), and none of them fixed by the flip.
        let plan = plan(flip, 1, 5, &pieces, &[1, 2, 3]);
        assert!(plan.complete);
        assert_eq!(plan.levels.len(), 1);
        assert_eq!(plan.levels[0].piece, 2);
        let kept: Vec<usize> = plan.levels[0].kept.iter().map(|k| k.placement).collect();
        assert_eq!(kept, [0, 1]);
    }

    #[test]
    fn chain_continues_while_placements_are_fixed() {
        let flip = Group(0b11); // the identity and the left-right flip
        let pieces = strip_pieces();
        let plan = plan(flip, 1, 5, &pieces, &[0, 1, 2, 3]);
        assert!(plan.complete);
        // The pentomino has one placement, fixed by the flip; the domino
        // then breaks the flip with no placement of its own fixed.
        let chain: Vec<usize> = plan.levels.iter().map(|l| l.piece).collect();
        assert_eq!(chain, [0, 2]);
        assert_eq!(
            plan.levels[0].kept,
            [Kept {
                placement: 0,
                before: flip,
                after: flip
            }]
        );
        let second: Vec<(usize, Group, Group)> = plan.levels[1]
            .kept
            .iter()
            .map(|k| (k.placement, k.before, k.after))
            .collect();
        assert_eq!(
            second,
            [(0, flip, Group::TRIVIAL), (1, flip, Group::TRIVIAL)]
        );
    }

    #[test]
    fn incomplete_when_candidates_run_out() {
        let flip = Group(0b11); // the identity and the left-right flip
                                // The monomino's middle placement stays fixed and nothing is left.
        let chain = plan(flip, 1, 5, &strip_pieces(), &[1]);
        assert!(!chain.complete);
        assert_eq!(chain.levels.len(), 1);
        assert_eq!(chain.levels[0].piece, 1);
        let trivial = plan(Group::TRIVIAL, 1, 4, &[vec![vec![0]]], &[0]);
        assert!(trivial.complete);
        assert!(trivial.levels.is_empty());
    }
}
