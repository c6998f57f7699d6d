//! Cells, the eight symmetries of the square grid, and normalization.

/// A cell: 0-based `(row, column)`.
pub type Cell = (usize, usize);

/// One of the eight symmetries of a rectangle's grid, acting on a box of
/// `rows`×`cols` cells: an optional transposition followed by optional
/// reversals of the row and column order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Transform(u8);

const TRANSPOSE: u8 = 4;
const FLIP_ROWS: u8 = 2;
const FLIP_COLS: u8 = 1;

impl Transform {
    /// All eight, identity first.
    pub(crate) fn all() -> impl Iterator<Item = Transform> {
        (0..8).map(Transform)
    }

    /// The bit of this transform in a [`Group`] mask.
    pub(crate) fn bit(self) -> u8 {
        1 << self.0
    }

    /// True for the rotations (determinant +1): an even number of the three
    /// reflections that make up the transform.
    pub(crate) fn is_rotation(self) -> bool {
        self.0.count_ones() % 2 == 0
    }

    /// True when the transform exchanges rows and columns.
    pub(crate) fn transposes(self) -> bool {
        self.0 & TRANSPOSE != 0
    }

    /// Maps a cell of a `rows`×`cols` box into the transformed box.
    pub(crate) fn apply(self, (r, c): Cell, rows: usize, cols: usize) -> Cell {
        let (mut r, mut c, rows, cols) = if self.transposes() {
            (c, r, cols, rows)
        } else {
            (r, c, rows, cols)
        };
        if self.0 & FLIP_ROWS != 0 {
            r = rows - 1 - r;
        }
        if self.0 & FLIP_COLS != 0 {
            c = cols - 1 - c;
        }
        (r, c)
    }
}

/// A set of transforms as a bit mask (bit `t` for `Transform(t)`); used for
/// symmetry groups and their subgroups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Group(pub(crate) u8);

impl Group {
    /// The group with only the identity.
    pub(crate) const TRIVIAL: Group = Group(1);

    /// True when the group is just the identity.
    pub(crate) fn is_trivial(self) -> bool {
        self == Group::TRIVIAL
    }

    /// The transforms in the group.
    pub(crate) fn members(self) -> impl Iterator<Item = Transform> {
        Transform::all().filter(move |t| self.0 & t.bit() != 0)
    }

    /// The intersection of two groups.
    pub(crate) fn meet(self, other: Group) -> Group {
        Group(self.0 & other.0)
    }
}

/// The number of rows and columns of the smallest box holding `cells`.
pub(crate) fn extent(cells: &[Cell]) -> (usize, usize) {
    let rows = cells.iter().map(|&(r, _)| r + 1).max().unwrap_or(0);
    let cols = cells.iter().map(|&(_, c)| c + 1).max().unwrap_or(0);
    (rows, cols)
}

/// Moves `cells` to touch row 0 and column 0, sorts them row-major and drops
/// duplicates.
pub(crate) fn normalize(cells: &mut Vec<Cell>) {
    let top = cells.iter().map(|&(r, _)| r).min().unwrap_or(0);
    let left = cells.iter().map(|&(_, c)| c).min().unwrap_or(0);
    for cell in cells.iter_mut() {
        *cell = (cell.0 - top, cell.1 - left);
    }
    cells.sort_unstable();
    cells.dedup();
}

/// The distinct images of a normalized shape under the transforms that
/// `allowed` accepts, each normalized, in the order of [`Transform::all`].
pub(crate) fn orientations(cells: &[Cell], allowed: impl Fn(Transform) -> bool) -> Vec<Vec<Cell>> {
    let (rows, cols) = extent(cells);
    let mut out: Vec<Vec<Cell>> = Vec::new();
    for t in Transform::all().filter(|&t| allowed(t)) {
        let mut image: Vec<Cell> = cells.iter().map(|&p| t.apply(p, rows, cols)).collect();
        normalize(&mut image);
        if !out.contains(&image) {
            out.push(image);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transforms_form_the_dihedral_group() {
        // Each transform is a bijection of a 3x5 box onto a 3x5 or 5x3 box,
        // and exactly four are rotations.
        for t in Transform::all() {
            let (rows, cols) = if t.transposes() { (5, 3) } else { (3, 5) };
            let mut seen = [false; 15];
            for r in 0..3 {
                for c in 0..5 {
                    let (r2, c2) = t.apply((r, c), 3, 5);
                    assert!(r2 < rows && c2 < cols);
                    seen[r2 * cols + c2] = true;
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
        assert_eq!(Transform::all().filter(|t| t.is_rotation()).count(), 4);
        // A quarter turn has order 4: four applications give the identity.
        let quarter = Transform(TRANSPOSE | FLIP_COLS);
        assert!(quarter.is_rotation());
        let mut cell = (0, 1);
        let (mut rows, mut cols) = (2, 3);
        for _ in 0..4 {
            cell = quarter.apply(cell, rows, cols);
            (rows, cols) = (cols, rows);
        }
        assert_eq!(cell, (0, 1));
    }

    #[test]
    fn normalize_shifts_sorts_and_dedups() {
        let mut cells = vec![(3, 4), (2, 5), (3, 4), (2, 4)];
        normalize(&mut cells);
        assert_eq!(cells, [(0, 0), (0, 1), (1, 0)]);
        assert_eq!(extent(&cells), (2, 2));
    }

    #[test]
    fn orientation_counts() {
        let square = [(0, 0), (0, 1), (1, 0), (1, 1)];
        assert_eq!(orientations(&square, |_| true).len(), 1);
        let ell = [(0, 0), (1, 0), (2, 0), (2, 1)];
        assert_eq!(orientations(&ell, |_| true).len(), 8);
        assert_eq!(orientations(&ell, Transform::is_rotation).len(), 4);
        let ess = [(0, 1), (0, 2), (1, 0), (1, 1)];
        assert_eq!(orientations(&ess, |_| true).len(), 4);
        assert_eq!(orientations(&ess, Transform::is_rotation).len(), 2);
    }
}
