//! Built-in piece sets, written in the text format of the [module docs](super).

use super::{parse, Piece};

/// The 12 pentominoes under Conway's names, in the order `O P Q R S T U V W X Y Z`.
/// In the other common naming (Golomb's) O is I, Q is L, R is F and S is N.
pub const PENTOMINOES: &str = "\
O
#####

P
##
##
#.

Q
####
#...

R
.##
##.
.#.

S
##..
.###

T
###
.#.
.#.

U
#.#
###

V
#..
#..
###

W
#..
##.
.##

X
.#.
###
.#.

Y
####
.#..

Z
##.
.#.
.##
";

/// The 5 tetrominoes: `I` (straight), `L`, `O` (square), `S` (skew) and `T`.
pub const TETROMINOES: &str = "\
I
####

L
###
#..

O
##
##

S
.##
##.

T
###
.#.
";

/// The 35 hexominoes, named `A`…`Z` then `a`…`i`: the straight one first,
/// then those two cells high, then those three cells high.
pub const HEXOMINOES: &str = "\
A
######

B
#####
#....

C
#####
.#...

D
#####
..#..

E
####
##..

F
####
#.#.

G
####
#..#

H
####
.##.

I
####.
...##

J
###
###

K
###.
#.##

L
###.
.###

M
###..
..###

N
####
#...
#...

O
####
.#..
.#..

P
###
##.
#..

Q
###
##.
.#.

R
###
#.#
#..

S
###
.#.
##.

T
###.
..##
..#.

U
###.
..##
...#

V
###.
..#.
..##

W
##.
###
.#.

X
##.
###
..#

Y
##..
.###
.#..

Z
##..
.###
..#.

a
##..
.###
...#

b
##.
.##
##.

c
##..
.##.
..##

d
#...
####
#...

e
#...
####
.#..

f
#...
####
..#.

g
#...
####
...#

h
.#..
####
.#..

i
.#..
####
..#.
";

fn set(text: &str) -> Vec<Piece> {
    parse(text).expect("built-in piece sets parse").pieces
}

/// The 12 pentominoes of [`PENTOMINOES`], one of each.
///
/// ```
/// let names: String = exactly_puzzles::polyomino::pentominoes()
///     .iter()
///     .map(|p| p.name())
///     .collect();
/// assert_eq!(names, "OPQRSTUVWXYZ");
/// ```
pub fn pentominoes() -> Vec<Piece> {
    set(PENTOMINOES)
}

/// The 5 tetrominoes of [`TETROMINOES`], one of each.
///
/// ```
/// assert_eq!(exactly_puzzles::polyomino::tetrominoes().len(), 5);
/// ```
pub fn tetrominoes() -> Vec<Piece> {
    set(TETROMINOES)
}

/// The 35 hexominoes of [`HEXOMINOES`], one of each.
///
/// ```
/// assert_eq!(exactly_puzzles::polyomino::hexominoes().len(), 35);
/// ```
pub fn hexominoes() -> Vec<Piece> {
    set(HEXOMINOES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn orientation_total(pieces: &[Piece], one_sided: bool) -> usize {
        pieces.iter().map(|p| p.orientations(one_sided).len()).sum()
    }

    /// The number of one-sided pieces: a piece that differs from its mirror
    /// image counts twice.
    fn one_sided_pieces(pieces: &[Piece]) -> usize {
        pieces
            .iter()
            .map(|p| p.orientations(false).len() / p.orientations(true).len())
            .sum()
    }

    /// Checks that the pieces have `size` cells, are connected, and are
    /// distinct as free shapes (no orientation of one equals another).
    fn check_distinct(pieces: &[Piece], size: usize) {
        let mut seen = HashSet::new();
        for p in pieces {
            assert_eq!(p.cells().len(), size, "{}", p.name());
            assert!(connected(p.cells()), "{} is not connected", p.name());
            for o in p.orientations(false) {
                assert!(seen.insert(o), "{} repeats a shape", p.name());
            }
        }
    }

    fn connected(cells: &[(usize, usize)]) -> bool {
        let mut reached = vec![cells[0]];
        let mut k = 0;
        while k < reached.len() {
            let (r, c) = reached[k];
            for &q in cells {
                let adjacent = r.abs_diff(q.0) + c.abs_diff(q.1) == 1;
                if adjacent && !reached.contains(&q) {
                    reached.push(q);
                }
            }
            k += 1;
        }
        reached.len() == cells.len()
    }

    #[test]
    fn pentominoes_have_63_fixed_orientations_and_18_one_sided_pieces() {
        let set = pentominoes();
        check_distinct(&set, 5);
        assert_eq!(orientation_total(&set, false), 63);
        assert_eq!(orientation_total(&set, true), 41);
        assert_eq!(one_sided_pieces(&set), 18);
        let counts: Vec<(&str, usize)> = set
            .iter()
            .map(|p| (p.name(), p.orientations(false).len()))
            .collect();
        assert_eq!(
            counts,
            [
                ("O", 2),
                ("P", 8),
                ("Q", 8),
                ("R", 8),
                ("S", 8),
                ("T", 4),
                ("U", 4),
                ("V", 4),
                ("W", 4),
                ("X", 1),
                ("Y", 8),
                ("Z", 4),
            ]
        );
    }

    #[test]
    fn tetrominoes_have_19_fixed_orientations_and_7_one_sided_pieces() {
        let set = tetrominoes();
        check_distinct(&set, 4);
        assert_eq!(orientation_total(&set, false), 19);
        assert_eq!(orientation_total(&set, true), 13);
        assert_eq!(one_sided_pieces(&set), 7);
    }

    #[test]
    fn hexominoes_have_216_fixed_orientations_and_60_one_sided_pieces() {
        let set = hexominoes();
        assert_eq!(set.len(), 35);
        check_distinct(&set, 6);
        assert_eq!(orientation_total(&set, false), 216);
        assert_eq!(orientation_total(&set, true), 126);
        assert_eq!(one_sided_pieces(&set), 60);
        let names: String = set.iter().map(|p| p.name()).collect();
        assert_eq!(names, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghi");
    }

    #[test]
    fn conway_names_match_the_shapes() {
        let set = pentominoes();
        let find = |name: &str| set.iter().find(|p| p.name() == name).unwrap().clone();
        // O is the straight piece, X the plus, Q the L, S the N, R the F.
        assert_eq!(find("O").cells().len(), 5);
        assert!(find("O").cells().iter().all(|&(r, _)| r == 0));
        assert_eq!(find("X").orientations(false).len(), 1);
        let ell = [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)];
        assert!(find("Q").orientations(false).contains(&ell.to_vec()));
        let en = [(0, 0), (1, 0), (1, 1), (2, 1), (3, 1)];
        assert!(find("S").orientations(false).contains(&en.to_vec()));
        let ef = [(0, 1), (0, 2), (1, 0), (1, 1), (2, 1)];
        assert!(find("R").orientations(false).contains(&ef.to_vec()));
    }
}
