//! Square destroyer: the IDA* answers against searches that share no code
//! with the engine.

use exactly_puzzles::squares::{self, Squares};

/// Each square of the intact `n × n` grid as a bit mask of its sticks
/// (bit `k - 1` for stick `k`), from the POJ 1084 numbering worked out here
/// again: line `r` has horizontal sticks `r(2n+1) + c + 1`, the row below it
/// vertical sticks `r(2n+1) + n + c + 1`.
fn square_masks(n: usize) -> Vec<u128> {
    let h = |r: usize, c: usize| r * (2 * n + 1) + c;
    let v = |r: usize, c: usize| r * (2 * n + 1) + n + c;
    let mut out = Vec::new();
    for s in 1..=n {
        for r in 0..=n - s {
            for c in 0..=n - s {
                let mut m = 0u128;
                for k in 0..s {
                    m |= 1 << h(r, c + k)
                        | 1 << h(r + s, c + k)
                        | 1 << v(r + k, c)
                        | 1 << v(r + k, c + s);
                }
                out.push(m);
            }
        }
    }
    out
}

/// Plain exhaustive search: the smallest `k` such that some `k` sticks meet
/// every square, trying all `k`-subsets for `k = 0, 1, …`.
fn by_subsets(n: usize) -> usize {
    let sticks = 2 * n * (n + 1);
    let masks = square_masks(n);
    fn any_subset(start: usize, left: usize, sticks: usize, chosen: u128, masks: &[u128]) -> bool {
        if left == 0 {
            return masks.iter().all(|&m| m & chosen != 0);
        }
        (start..sticks).any(|s| any_subset(s + 1, left - 1, sticks, chosen | 1 << s, masks))
    }
    (0..=sticks)
        .find(|&k| any_subset(0, k, sticks, 0, &masks))
        .expect("removing every stick works")
}

/// Exhaustive search with pruning: depth-first on a surviving square with
/// the fewest allowed sticks, branch `j` removing its `j`-th allowed stick
/// and forbidding the earlier ones (so every set of sticks is met once);
/// cut when the sticks removed plus the number of pairwise stick-disjoint
/// surviving squares (found greedily) cannot beat the best so far.
fn by_branch_and_bound(n: usize) -> usize {
    let masks = square_masks(n);
    let mut best = 2 * n * (n + 1);
    fn go(masks: &[u128], removed: u128, forbidden: u128, depth: usize, best: &mut usize) {
        let alive: Vec<u128> = masks
            .iter()
            .copied()
            .filter(|&m| m & removed == 0)
            .collect();
        if alive.is_empty() {
            *best = (*best).min(depth);
            return;
        }
        let mut used = 0u128;
        let mut disjoint = 0;
        for &m in &alive {
            if m & used == 0 {
                used |= m;
                disjoint += 1;
            }
        }
        if depth + disjoint >= *best {
            return;
        }
        let Some(&target) = alive.iter().min_by_key(|&&m| (m & !forbidden).count_ones()) else {
            return;
        };
        let mut forbid = forbidden;
        let mut choices = target & !forbidden;
        while choices != 0 {
            let bit = choices & choices.wrapping_neg();
            choices &= !bit;
            go(masks, removed | bit, forbid, depth + 1, best);
            forbid |= bit;
        }
    }
    go(&masks, 0, 0, 0, &mut best);
    best
}

#[test]
fn small_grids_by_every_subset() {
    for (n, want) in [(1, 1), (2, 3), (3, 6)] {
        assert_eq!(by_subsets(n), want);
        let grid = Squares::new(n).unwrap();
        let sticks = squares::solve(&grid).unwrap();
        assert_eq!(sticks.len(), want, "n = {n}");
        assert!(grid.destroyed_by(&sticks));
    }
}

/// n = 4 needs 9 sticks and n = 5 needs 14: established by
/// `by_branch_and_bound` (exhaustive up to its admissible cut), which this
/// test runs again, and confirmed by the IDA* front end.
#[test]
fn larger_grids_by_branch_and_bound() {
    for (n, want) in [(1, 1), (2, 3), (3, 6), (4, 9), (5, 14)] {
        assert_eq!(by_branch_and_bound(n), want, "n = {n}");
        let grid = Squares::new(n).unwrap();
        let sticks = squares::solve(&grid).unwrap();
        assert_eq!(sticks.len(), want, "n = {n}");
        assert!(grid.destroyed_by(&sticks));
    }
}

#[test]
fn removed_sticks_and_numbering() {
    let grid = Squares::new(1).unwrap();
    assert_eq!(grid.present(), vec![1, 2, 3, 4]);
    let g = Squares::new(2).unwrap();
    assert_eq!(
        (g.horizontal(0, 0), g.vertical(0, 2), g.horizontal(2, 1)),
        (1, 5, 12)
    );
    // Removing 1 and 5 leaves the two bottom unit squares, which share stick 9.
    let g = Squares::with_removed(2, &[1, 5]).unwrap();
    assert_eq!(squares::solve(&g).unwrap(), vec![9]);
    // Every square already gone: nothing to remove.
    let g = Squares::with_removed(1, &[2]).unwrap();
    assert!(squares::encode(&g).unwrap().is_none());
    assert!(squares::solve(&g).unwrap().is_empty());
    assert!(Squares::with_removed(2, &[0]).is_err());
    assert!(Squares::with_removed(2, &[13]).is_err());
    assert!(Squares::new(11).is_err());
}

#[test]
fn random_removals_match_brute_force() {
    // 3×3 grids with pseudo-random sticks missing: IDA* against every subset.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..60 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let removed: Vec<usize> = (1..=24).filter(|k| state >> k & 3 == 0).collect();
        let grid = Squares::with_removed(3, &removed).unwrap();
        let masks: Vec<u128> = square_masks(3);
        let gone: u128 = removed
            .iter()
            .map(|&k| 1u128 << (k - 1))
            .fold(0, |a, b| a | b);
        let alive: Vec<u128> = masks.into_iter().filter(|&m| m & gone == 0).collect();
        let best = (0..=24usize)
            .find(|&k| {
                fn any(start: usize, left: usize, chosen: u128, alive: &[u128]) -> bool {
                    if left == 0 {
                        return alive.iter().all(|&m| m & chosen != 0);
                    }
                    (start..24).any(|s| any(s + 1, left - 1, chosen | 1 << s, alive))
                }
                any(0, k, 0, &alive)
            })
            .unwrap();
        let sticks = squares::solve(&grid).unwrap();
        assert_eq!(sticks.len(), best, "removed {removed:?}");
        assert!(grid.destroyed_by(&sticks));
        assert!(sticks.iter().all(|k| !removed.contains(k)));
    }
}
