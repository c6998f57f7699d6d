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
