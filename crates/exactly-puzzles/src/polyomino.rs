//! Polyomino tilings: cover every cell of a board with given pieces, each
//! piece used a given number of times, turned and flipped as allowed.
//!
//! # Text format
//!
//! A text is a sequence of blocks separated by blank lines. Each block is a
//! header line followed by a picture:
//!
//! ```text
//! | lines whose first non-blank character is '|' are comments
//! X              <- a piece: its name, then optionally how many copies (default 1)
//! .#.            <- its picture: '#' is a cell, '.' (or a blank) is not
//! ###
//! .#.
//!
//! L 2            <- two copies of this piece
//! #.
//! #.
//! ##
//!
//! board          <- the board: '#' is a cell to cover, '.' (or a blank) a hole
//! ####.
//! #####
//! #####
//! ```
//!
//! Piece names are made of ASCII letters, digits, `_` and `-`; two-character
//! names of lower-case letters and digits are reserved for cells. A count of
//! 0 leaves the piece out. Pictures are moved to their top left corner: empty
//! rows and columns around the cells do not matter (cells need not be
//! connected). At most one board block is allowed; [`parse`] returns the
//! pieces and the board, and errors carry the 1-based line and column.
//!
//! # Encoding
//!
//! Primary items: first the pieces in order (a piece with `k > 1` copies gets
//! items `name.1`…`name.k`), then the board's cells in row-major order, named
//! by row and column as base-36 digits (`0`–`9`, then `a`–`z`): a 6×10 board
//! has cells `00`…`09`, `10`…`59`. Boards are therefore at most 36×36. An
//! option is a piece's item followed by the cells it covers, for every
//! orientation (all eight by default, the four rotations when
//! [`Puzzle::one_sided`] is set, duplicates removed) and every position that
//! fits on the board. Orientations are listed in a fixed order and positions
//! row-major.
//!
//! The copies of a piece are ordered to count each tiling once: the copies
//! must take placements in increasing order of the placement list. Copy
//! `i` at placement `a` and copy `i + 1` at `b` share a secondary item
//! `name.i<n` unless `a < b`, where `n` runs over the nodes of a segment tree
//! on the placements: copy `i` takes the nodes that cover `0..=a` exactly,
//! copy `i + 1` the nodes on the path to leaf `b`; they meet if and only if
//! `b <= a`. This costs O(log m) secondary items per option for `m`
//! placements instead of the `m` of a plain ordering. Copy `i` of `k` gets
//! only the placements that leave room for the copies before and after it
//! (from the `i`-th to the `(m - k + i)`-th, counting from 1), so a piece
//! with more copies than placements has none.
//!
//! # Symmetry breaking
//!
//! With [`Puzzle::symbreak`], each tiling is counted once up to the
//! symmetries that map the board onto itself (rotations, and reflections
//! unless the pieces are one-sided): the group `G` has at most 8 elements, 4
//! for a non-square rectangle. The method restricts a chain of pieces used
//! exactly once:
//!
//! 1. Choose a piece `P1`. `G` acts on its placements; keep only the
//!    smallest placement of each orbit (comparing the sorted cell lists).
//!    Every tiling has a symmetric image that puts `P1` on a kept placement
//!    `p`. When no symmetry fixes `p`, that image is unique, so each class of
//!    tilings is counted once: for pentominoes on 6×10 this confines the X's
//!    centre to one quarter and turns 9356 tilings into 2339.
//! 2. When the subgroup `H ⊂ G` of symmetries that fix `p` is not trivial
//!    (the X centred on the middle row of a 5×12 board, or any X on 3×20),
//!    the tilings with `P1` at `p` still come in `H`-orbits. So a second
//!    piece `P2` keeps, when `P1` is at such a `p`, only the smallest
//!    placement of each `H`-orbit, and so on down the chain with the
//!    subgroup left unbroken, until it is trivial everywhere.
//!
//! The "when" is carried by colors: secondary item `@s1` gets as color the
//! subgroup left unbroken by `P1`'s placement; each option of `P2` names the
//! subgroup it assumes (`P2` has one option per placement and per subgroup
//! under which that placement is the smallest of its orbit), so only the
//! option that agrees with `P1` can be chosen; `@s2` links `P2` to `P3`, and
//! so on. The first piece is the one with the fewest kept placements (the
//! X for pentominoes); each later one is the one that leaves the fewest
//! placements fixed, so the chain is usually one or two pieces long.
//!
//! Only pieces used exactly once can serve in the chain. If they all serve
//! and some symmetry is still unbroken, the tilings left are fixed by it
//! (every piece is), so each is still counted once. But if pieces with
//! several copies are left over too (say, four L-tetrominoes on a 4×4
//! square), the method cannot tell symmetric images apart, and [`encode`]
//! fails with [`Error::SymmetryUnbroken`] rather than give a wrong count.
//!
//! # Example
//!
//! ```
//! use exactly_puzzles::polyomino::{self, Board, Puzzle};
//!
//! let puzzle = Puzzle::new(polyomino::pentominoes(), Board::rectangle(3, 20));
//! let problem = polyomino::encode(&puzzle)?;
//! assert_eq!(problem.num_primary(), 12 + 60);
//! let mut solver = exactly::Solver::new(&problem);
//! let tiling = polyomino::decode(&problem, &solver.first().unwrap().unwrap());
//! assert!(puzzle.is_solution(&tiling));
//! assert_eq!(tiling.to_string().lines().count(), 3);
//! # Ok::<(), exactly_puzzles::Error>(())
//! ```

mod encode;
mod geometry;
mod parse;
mod sets;
mod symmetry;

use std::fmt;

use crate::Error;
use geometry::{extent, normalize, orientations, Group, Transform};

pub use encode::{decode, encode, write_dlx};
pub use geometry::Cell;
pub use parse::{parse, Spec};
pub use sets::{hexominoes, pentominoes, tetrominoes, HEXOMINOES, PENTOMINOES, TETROMINOES};

/// The digits of cell names.
const BASE36: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";

/// The largest number of rows or columns that cell names can address.
pub const MAX_SIDE: usize = 36;

/// The most copies of one piece: a board has at most `MAX_SIDE²` = 1296
/// cells.
pub const MAX_COPIES: usize = MAX_SIDE * MAX_SIDE;

/// The most option entries (the items of all options together) that
/// [`encode`] builds, 2^22: checked, from a count of the placements, before
/// the problem is allocated. The twelve pentominoes on a 36×36 board need
/// about 580,000; 1296 monominoes on it would need over 40 million.
pub const MAX_ENTRIES: usize = 1 << 22;

/// True when `name` can name a piece: a non-empty run of ASCII letters,
/// digits, `_` and `-` that is not two lower-case letters or digits (the
/// names of cells).
///
/// ```
/// use exactly_puzzles::polyomino::is_piece_name;
/// assert!(is_piece_name("X") && is_piece_name("a") && is_piece_name("H-12"));
/// assert!(!is_piece_name("a1") && !is_piece_name("") && !is_piece_name("x:y"));
/// ```
pub fn is_piece_name(name: &str) -> bool {
    let allowed = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let cell_like = name.len() == 2 && name.bytes().all(|b| BASE36.contains(&b));
    !name.is_empty() && name.chars().all(allowed) && !cell_like
}

/// The item name of a cell: row and column as base-36 digits.
fn cell_name((r, c): Cell) -> String {
    let digit = |k: usize| char::from(BASE36[k]);
    [digit(r), digit(c)].iter().collect()
}

/// A piece: a name, a shape and a number of copies.
///
/// ```
/// use exactly_puzzles::polyomino::Piece;
/// let ell = Piece::new("L", [(5, 5), (6, 5), (7, 5), (7, 6)])?.with_count(2);
/// assert_eq!(ell.cells(), [(0, 0), (1, 0), (2, 0), (2, 1)]);
/// assert_eq!(ell.count(), 2);
/// assert_eq!(ell.orientations(false).len(), 8);
/// # Ok::<(), exactly_puzzles::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    name: String,
    cells: Vec<Cell>,
    count: usize,
}

impl Piece {
    /// A piece used once. The cells are moved to the top left corner and
    /// sorted; fails on a bad name ([`is_piece_name`]) or no cells.
    ///
    /// ```
    /// use exactly_puzzles::polyomino::Piece;
    /// assert!(Piece::new("I", [(0, 0), (0, 1)]).is_ok());
    /// assert!(Piece::new("I", []).is_err());
    /// assert!(Piece::new("0a", [(0, 0)]).is_err());
    /// ```
    pub fn new(name: &str, cells: impl IntoIterator<Item = Cell>) -> Result<Piece, Error> {
        if !is_piece_name(name) {
            return Err(Error::BadPieceName(name.to_string()));
        }
        let cells: Vec<Cell> = cells.into_iter().collect();
        if cells.is_empty() {
            return Err(Error::EmptyPiece(name.to_string()));
        }
        Ok(Piece::from_valid_parts(name.to_string(), cells))
    }

    /// A piece from a checked name and a non-empty list of cells.
    fn from_valid_parts(name: String, mut cells: Vec<Cell>) -> Piece {
        normalize(&mut cells);
        Piece {
            name,
            cells,
            count: 1,
        }
    }

    /// The same piece with `count` copies (0 leaves it out).
    ///
    /// ```
    /// let p = exactly_puzzles::polyomino::Piece::new("I", [(0, 0)])?.with_count(3);
    /// assert_eq!(p.count(), 3);
    /// # Ok::<(), exactly_puzzles::Error>(())
    /// ```
    pub fn with_count(mut self, count: usize) -> Piece {
        self.count = count;
        self
    }

    /// The name.
    ///
    /// ```
    /// assert_eq!(exactly_puzzles::polyomino::pentominoes()[0].name(), "O");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The cells, row-major, touching row 0 and column 0.
    ///
    /// ```
    /// let o = &exactly_puzzles::polyomino::pentominoes()[0];
    /// assert_eq!(o.cells(), [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]);
    /// ```
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The number of copies.
    ///
    /// ```
    /// assert_eq!(exactly_puzzles::polyomino::pentominoes()[0].count(), 1);
    /// ```
    pub fn count(&self) -> usize {
        self.count
    }

    /// The distinct orientations of the shape, each normalized like
    /// [`Piece::cells`]: under all eight symmetries of the grid, or only the
    /// four rotations when `one_sided`. The first is the shape as given.
    ///
    /// ```
    /// let sets = exactly_puzzles::polyomino::pentominoes();
    /// let total: usize = sets.iter().map(|p| p.orientations(false).len()).sum();
    /// assert_eq!(total, 63);
    /// ```
    pub fn orientations(&self, one_sided: bool) -> Vec<Vec<Cell>> {
        orientations(&self.cells, |t| !one_sided || t.is_rotation())
    }
}

/// A board: the cells to cover, within a box of `rows`×`cols`.
///
/// ```
/// use exactly_puzzles::polyomino::Board;
/// let board = Board::rectangle(6, 10);
/// assert_eq!((board.rows(), board.cols(), board.num_cells()), (6, 10, 60));
/// assert_eq!(board.symmetries(false), 4);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: usize,
    cols: usize,
    cells: Vec<bool>,
}

impl Board {
    /// The full `rows`×`cols` rectangle.
    ///
    /// ```
    /// assert_eq!(exactly_puzzles::polyomino::Board::rectangle(8, 8).symmetries(false), 8);
    /// ```
    ///
    /// This allocates `rows × cols` cells at once; [`Board::try_rectangle`]
    /// checks the sizes first.
    pub fn rectangle(rows: usize, cols: usize) -> Board {
        Board {
            rows,
            cols,
            cells: vec![true; rows * cols],
        }
    }

    /// The full `rows`×`cols` rectangle, when it has cells and fits in
    /// [`MAX_SIDE`]×[`MAX_SIDE`]: sizes are checked before anything is
    /// allocated.
    ///
    /// ```
    /// use exactly_puzzles::polyomino::Board;
    /// assert_eq!(Board::try_rectangle(6, 10)?.num_cells(), 60);
    /// assert!(Board::try_rectangle(100_000, 100_000).is_err());
    /// assert!(Board::try_rectangle(0, 5).is_err());
    /// # Ok::<(), exactly_puzzles::Error>(())
    /// ```
    pub fn try_rectangle(rows: usize, cols: usize) -> Result<Board, Error> {
        if rows == 0 || cols == 0 {
            return Err(Error::EmptyBoard);
        }
        if rows > MAX_SIDE || cols > MAX_SIDE {
            return Err(Error::BoardTooLarge { rows, cols });
        }
        Ok(Board::rectangle(rows, cols))
    }

    /// The board with the given cells, moved to the top left corner.
    ///
    /// ```
    /// use exactly_puzzles::polyomino::Board;
    /// let board = Board::from_cells([(1, 1), (1, 2), (2, 2)]);
    /// assert_eq!((board.rows(), board.cols()), (2, 2));
    /// assert!(!board.contains((1, 0)));
    /// ```
    pub fn from_cells(cells: impl IntoIterator<Item = Cell>) -> Board {
        let mut cells: Vec<Cell> = cells.into_iter().collect();
        normalize(&mut cells);
        let (rows, cols) = extent(&cells);
        let mut board = Board {
            rows,
            cols,
            cells: vec![false; rows * cols],
        };
        for (r, c) in cells {
            board.cells[r * cols + c] = true;
        }
        board
    }

    /// The height of the box.
    ///
    /// ```
    /// assert_eq!(exactly_puzzles::polyomino::Board::rectangle(3, 20).rows(), 3);
    /// ```
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The width of the box.
    ///
    /// ```
    /// assert_eq!(exactly_puzzles::polyomino::Board::rectangle(3, 20).cols(), 20);
    /// ```
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// True when `cell` is a cell of the board (not a hole, not outside).
    ///
    /// ```
    /// let board = exactly_puzzles::polyomino::Board::rectangle(2, 2);
    /// assert!(board.contains((1, 1)) && !board.contains((2, 0)));
    /// ```
    pub fn contains(&self, (r, c): Cell) -> bool {
        r < self.rows && c < self.cols && self.cells[r * self.cols + c]
    }

    /// The number of cells to cover.
    ///
    /// ```
    /// assert_eq!(exactly_puzzles::polyomino::Board::rectangle(5, 12).num_cells(), 60);
    /// ```
    pub fn num_cells(&self) -> usize {
        self.cells.iter().filter(|&&c| c).count()
    }

    /// The cells, row-major.
    ///
    /// ```
    /// let board = exactly_puzzles::polyomino::Board::rectangle(1, 2);
    /// assert_eq!(board.cells().collect::<Vec<_>>(), [(0, 0), (0, 1)]);
    /// ```
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        let cols = self.cols;
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, &c)| c)
            .map(move |(i, _)| (i / cols, i % cols))
    }

    /// The number of symmetries of the grid that map the board onto itself:
    /// rotations and reflections, or rotations only when `rotations_only`.
    ///
    /// ```
    /// use exactly_puzzles::polyomino::Board;
    /// assert_eq!(Board::rectangle(4, 4).symmetries(true), 4);
    /// assert_eq!(Board::from_cells([(0, 0), (1, 0), (1, 1)]).symmetries(false), 2);
    /// ```
    pub fn symmetries(&self, rotations_only: bool) -> usize {
        self.group(rotations_only).members().count()
    }

    /// The symmetry group, as a mask of transforms.
    fn group(&self, rotations_only: bool) -> Group {
        let mut mask = 0;
        for t in Transform::all() {
            if rotations_only && !t.is_rotation() || t.transposes() && self.rows != self.cols {
                continue;
            }
            if self
                .cells()
                .all(|p| self.contains(t.apply(p, self.rows, self.cols)))
            {
                mask |= t.bit();
            }
        }
        Group(mask)
    }
}

/// A tiling puzzle: the options of the encoding.
///
/// ```
/// use exactly_puzzles::polyomino::{tetrominoes, Board, Puzzle};
/// let puzzle = Puzzle::new(tetrominoes(), Board::rectangle(4, 5));
/// assert!(!puzzle.one_sided && !puzzle.symbreak);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The pieces, in the order of their items.
    pub pieces: Vec<Piece>,
    /// The board.
    pub board: Board,
    /// Allow rotations only, not reflections.
    pub one_sided: bool,
    /// Count each tiling once up to the board's symmetries (see the
    /// [module docs](self)).
    pub symbreak: bool,
}

impl Puzzle {
    /// A puzzle with pieces that may be turned over and no symmetry breaking.
    ///
    /// ```
    /// use exactly_puzzles::polyomino::{pentominoes, Board, Puzzle};
    /// let puzzle = Puzzle::new(pentominoes(), Board::rectangle(6, 10));
    /// assert_eq!(puzzle.pieces.len(), 12);
    /// ```
    pub fn new(pieces: Vec<Piece>, board: Board) -> Puzzle {
        Puzzle {
            pieces,
            board,
            one_sided: false,
            symbreak: false,
        }
    }

    /// Why the puzzle has no tiling, when that is cheap to see: the pieces'
    /// cells (with their copies) do not add up to the board's, or, colored
    /// as a checkerboard, the board has a difference between the colors
    /// that the pieces cannot make up (each piece covers the same
    /// difference wherever it lies, up to sign: 31 dominoes cannot cover a
    /// chessboard without two opposite corners, and the 35 hexominoes, 11
    /// of them with a difference of 2, cannot tile any rectangle). `None`
    /// when a search is needed.
    ///
    /// ```
    /// use exactly_puzzles::polyomino::{self, parse, pentominoes, Board, Impossible, Puzzle};
    /// let too_big = Puzzle::new(pentominoes(), Board::rectangle(36, 36));
    /// assert_eq!(too_big.impossibility(), Some(Impossible::Area { pieces: 60, board: 1296 }));
    /// let spec = parse("D 31\n##\n")?;
    /// let corners = (0..8).flat_map(|r| (0..8).map(move |c| (r, c)))
    ///     .filter(|&cell| cell != (0, 0) && cell != (7, 7));
    /// let mutilated = Puzzle::new(spec.pieces, Board::from_cells(corners));
    /// assert!(matches!(mutilated.impossibility(), Some(Impossible::Coloring { .. })));
    /// let hexominoes = Puzzle::new(polyomino::hexominoes(), Board::rectangle(14, 15));
    /// assert!(matches!(hexominoes.impossibility(), Some(Impossible::Coloring { .. })));
    /// assert_eq!(Puzzle::new(pentominoes(), Board::rectangle(6, 10)).impossibility(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn impossibility(&self) -> Option<Impossible> {
        let board = self.board.num_cells();
        let pieces: u128 = self
            .pieces
            .iter()
            .map(|p| p.cells.len() as u128 * p.count as u128)
            .sum();
        if pieces != board as u128 {
            return Some(Impossible::Area { pieces, board });
        }
        let excess = |cells: &mut dyn Iterator<Item = Cell>| {
            let (mut even, mut odd) = (0usize, 0usize);
            for (r, c) in cells {
                if (r + c) % 2 == 0 {
                    even += 1;
                } else {
                    odd += 1;
                }
            }
            even.abs_diff(odd)
        };
        // Each copy covers `d` more cells of one color than of the other,
        // either color; the copies' signed differences must add up to the
        // board's, so the sum S of all the d must fall short of the board's
        // difference D by twice the d of some set of copies: (S - D) / 2
        // must be a subset sum. The area check bounds S by the board's
        // cells, so the subset sums fit in a small table.
        let board_excess = excess(&mut self.board.cells());
        let mut differences = Vec::new();
        for p in &self.pieces {
            let d = excess(&mut p.cells.iter().copied());
            if d > 0 {
                differences.extend(std::iter::repeat_n(d, p.count));
            }
        }
        let total: usize = differences.iter().sum();
        let reachable = total >= board_excess && (total - board_excess) % 2 == 0 && {
            let target = (total - board_excess) / 2;
            let mut sums = vec![false; target + 1];
            sums[0] = true;
            for &d in &differences {
                for t in (d..=target).rev() {
                    sums[t] |= sums[t - d];
                }
            }
            sums[target]
        };
        if !reachable {
            return Some(Impossible::Coloring {
                board: board_excess,
                pieces: total as u128,
            });
        }
        None
    }

    /// True when `tiling` covers each cell of the board exactly once, with
    /// each piece used as many times as its count and in a shape it may take.
    ///
    /// ```
    /// use exactly_puzzles::polyomino::{parse, Puzzle};
    /// let spec = parse("I 2\n##\n\nboard\n##\n##\n")?;
    /// let puzzle = Puzzle::new(spec.pieces, spec.board.unwrap());
    /// let problem = exactly_puzzles::polyomino::encode(&puzzle)?;
    /// let mut solver = exactly::Solver::new(&problem);
    /// for solution in solver.solutions() {
    ///     let tiling = exactly_puzzles::polyomino::decode(&problem, &solution);
    ///     assert!(puzzle.is_solution(&tiling));
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_solution(&self, tiling: &Tiling) -> bool {
        let board = &self.board;
        let mut covered = vec![0usize; board.rows * board.cols];
        let mut used = vec![0usize; self.pieces.len()];
        for p in &tiling.placements {
            let Some(piece) = self.pieces.get(p.piece) else {
                return false;
            };
            let mut shape = p.cells.clone();
            normalize(&mut shape);
            if piece.name != p.name
                || shape.len() != p.cells.len()
                || !piece.orientations(self.one_sided).contains(&shape)
            {
                return false;
            }
            used[p.piece] += 1;
            for &(r, c) in &p.cells {
                if !board.contains((r, c)) {
                    return false;
                }
                covered[r * board.cols + c] += 1;
            }
        }
        board.cells().all(|(r, c)| covered[r * board.cols + c] == 1)
            && self.pieces.iter().zip(&used).all(|(p, &u)| p.count == u)
    }
}

/// Why a puzzle has no tiling, seen without searching
/// ([`Puzzle::impossibility`]).
///
/// ```
/// use exactly_puzzles::polyomino::Impossible;
/// let why = Impossible::Area { pieces: 60, board: 1296 };
/// assert_eq!(why.to_string(), "the pieces have 60 cells and the board 1296");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Impossible {
    /// The pieces' cells, counted with their copies, differ in number from
    /// the board's.
    Area {
        /// The pieces' cells, with their copies.
        pieces: u128,
        /// The board's cells.
        board: usize,
    },
    /// Colored as a checkerboard, the board has `board` more cells of one
    /// color than of the other, a difference that the pieces, each
    /// covering a fixed difference (up to sign) that add up to `pieces`,
    /// cannot make up.
    Coloring {
        /// The board's difference between the colors.
        board: usize,
        /// The pieces' differences added up (with their copies).
        pieces: u128,
    },
}

impl fmt::Display for Impossible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Impossible::Area { pieces, board } => {
                write!(f, "the pieces have {pieces} cells and the board {board}")
            }
            Impossible::Coloring { board, pieces } => write!(
                f,
                "colored as a checkerboard, the board has {board} more cells of one color than of the other, which the pieces cannot make up (each covers a fixed difference between the colors, {pieces} in all)"
            ),
        }
    }
}

/// The label of an option: a piece on some cells of the board.
///
/// ```
/// use exactly_puzzles::polyomino::{encode, pentominoes, Board, Puzzle};
/// let problem = encode(&Puzzle::new(pentominoes(), Board::rectangle(1, 5)))?;
/// let only = &problem.labels()[0];
/// assert_eq!((only.piece, only.name.as_str()), (0, "O"));
/// assert_eq!(only.cells, [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]);
/// # Ok::<(), exactly_puzzles::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The index of the piece in [`Puzzle::pieces`].
    pub piece: usize,
    /// The piece's name.
    pub name: String,
    /// The cells it covers, row-major.
    pub cells: Vec<Cell>,
}

/// A solved board: the placements, and which one covers each cell.
///
/// Displayed as one line per row, each cell showing the label of the piece
/// on it and each hole a `.`. A piece's label is its name, or, for the
/// copies of a piece placed more than once, its name followed by `.1`,
/// `.2`, ... in reading order (as the items of the copies are named), so
/// that every placed piece has its own label. When some label is longer
/// than one character, the labels are padded and separated by blanks.
///
/// ```
/// use exactly_puzzles::polyomino::{Placement, Tiling};
/// let domino = |cells: Vec<(usize, usize)>| Placement { piece: 0, name: "D".into(), cells };
/// let tiling = Tiling::new(vec![domino(vec![(0, 0), (0, 1)]), domino(vec![(1, 0), (1, 1)])]);
/// assert_eq!(tiling.to_string(), "D.1 D.1\nD.2 D.2\n");
/// ```
///
/// ```
/// use exactly_puzzles::polyomino::{Placement, Tiling};
/// let tiling = Tiling::new(vec![
///     Placement { piece: 0, name: "A".into(), cells: vec![(0, 0), (0, 1)] },
///     Placement { piece: 1, name: "B".into(), cells: vec![(1, 1)] },
/// ]);
/// assert_eq!(tiling.to_string(), "AA\n.B\n");
/// assert_eq!(tiling.name_at((1, 1)), Some("B"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tiling {
    rows: usize,
    cols: usize,
    owner: Vec<Option<usize>>,
    placements: Vec<Placement>,
}

impl Tiling {
    /// The tiling made of `placements` (sorted by their first cell), in the
    /// smallest box that holds them. Where placements overlap, the later
    /// one shows.
    ///
    /// ```
    /// let tiling = exactly_puzzles::polyomino::Tiling::new(vec![]);
    /// assert_eq!((tiling.rows(), tiling.cols()), (0, 0));
    /// ```
    pub fn new(mut placements: Vec<Placement>) -> Tiling {
        placements.sort_by(|a, b| a.cells.first().cmp(&b.cells.first()));
        let all: Vec<Cell> = placements
            .iter()
            .flat_map(|p| p.cells.iter().copied())
            .collect();
        let (rows, cols) = extent(&all);
        let mut owner = vec![None; rows * cols];
        for (k, p) in placements.iter().enumerate() {
            for &(r, c) in &p.cells {
                owner[r * cols + c] = Some(k);
            }
        }
        Tiling {
            rows,
            cols,
            owner,
            placements,
        }
    }

    /// The height of the box.
    ///
    /// ```
    /// use exactly_puzzles::polyomino::{Placement, Tiling};
    /// let t = Tiling::new(vec![Placement { piece: 0, name: "I".into(), cells: vec![(0, 0), (1, 0)] }]);
    /// assert_eq!(t.rows(), 2);
    /// ```
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The width of the box.
    ///
    /// ```
    /// use exactly_puzzles::polyomino::{Placement, Tiling};
    /// let t = Tiling::new(vec![Placement { piece: 0, name: "I".into(), cells: vec![(0, 0), (1, 0)] }]);
    /// assert_eq!(t.cols(), 1);
    /// ```
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The placements, sorted by their first cell (so in reading order of
    /// their top left cells).
    ///
    /// ```
    /// use exactly_puzzles::polyomino::{Placement, Tiling};
    /// let t = Tiling::new(vec![Placement { piece: 0, name: "I".into(), cells: vec![(0, 0)] }]);
    /// assert_eq!(t.placements()[0].name, "I");
    /// ```
    pub fn placements(&self) -> &[Placement] {
        &self.placements
    }

    /// The name of the piece on `cell`, or `None` for a hole or a cell
    /// outside the box.
    ///
    /// ```
    /// use exactly_puzzles::polyomino::{Placement, Tiling};
    /// let t = Tiling::new(vec![Placement { piece: 0, name: "I".into(), cells: vec![(0, 1)] }]);
    /// assert_eq!((t.name_at((0, 1)), t.name_at((0, 0)), t.name_at((5, 5))), (Some("I"), None, None));
    /// ```
    pub fn name_at(&self, (r, c): Cell) -> Option<&str> {
        if r >= self.rows || c >= self.cols {
            return None;
        }
        self.owner[r * self.cols + c].map(|k| self.placements[k].name.as_str())
    }
}

impl Tiling {
    /// Each placement's label: its name, numbered `.1`, `.2`, ... in
    /// placement order when the name is placed more than once.
    fn labels(&self) -> Vec<String> {
        let mut placed: std::collections::HashMap<&str, (usize, usize)> =
            std::collections::HashMap::new();
        for p in &self.placements {
            placed.entry(p.name.as_str()).or_default().0 += 1;
        }
        self.placements
            .iter()
            .map(|p| {
                let (total, seen) = placed.entry(p.name.as_str()).or_default();
                if *total > 1 {
                    *seen += 1;
                    format!("{}.{seen}", p.name)
                } else {
                    p.name.clone()
                }
            })
            .collect()
    }
}

impl fmt::Display for Tiling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let labels = self.labels();
        let width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(1);
        for r in 0..self.rows {
            let mut line = String::new();
            for c in 0..self.cols {
                if width > 1 && c > 0 {
                    line.push(' ');
                }
                let label = self.owner[r * self.cols + c].map_or(".", |k| labels[k].as_str());
                line.push_str(&format!("{label:<width$}"));
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::encode::Segments;
    use super::*;

    #[test]
    fn cell_names_are_base_36() {
        assert_eq!(cell_name((0, 0)), "00");
        assert_eq!(cell_name((5, 9)), "59");
        assert_eq!(cell_name((10, 35)), "az");
        assert!(!is_piece_name(&cell_name((35, 12))));
    }

    #[test]
    fn long_names_are_padded() {
        let place = |piece, name: &str, cells: Vec<Cell>| Placement {
            piece,
            name: name.into(),
            cells,
        };
        let tiling = Tiling::new(vec![
            place(1, "B", vec![(1, 0), (1, 1)]),
            place(0, "Aa", vec![(0, 0), (0, 2)]),
        ]);
        assert_eq!(tiling.to_string(), "Aa .  Aa\nB  B  .\n");
        assert_eq!(tiling.placements()[0].name, "Aa");
        assert_eq!(tiling.name_at((0, 1)), None);
    }

    #[test]
    fn segment_tree_orders_pairs() {
        for len in 1..=17 {
            let s = Segments { len };
            let nodes = s.nodes();
            assert_eq!(nodes.len(), 2 * len - 1);
            for a in 0..len {
                let prefix = s.prefix(a);
                for b in 0..len {
                    let meet = s.path(b).iter().any(|n| prefix.contains(n));
                    assert_eq!(meet, b <= a, "len {len}, a {a}, b {b}");
                }
            }
        }
    }

    #[test]
    fn board_groups() {
        assert_eq!(Board::rectangle(6, 10).symmetries(false), 4);
        assert_eq!(Board::rectangle(6, 10).symmetries(true), 2);
        assert_eq!(Board::rectangle(8, 8).symmetries(false), 8);
        // An 8x8 board without two opposite corners keeps four symmetries.
        let mut cells: Vec<Cell> = Board::rectangle(8, 8).cells().collect();
        cells.retain(|&c| c != (0, 0) && c != (7, 7));
        let board = Board::from_cells(cells);
        assert_eq!(board.symmetries(false), 4);
        assert_eq!(board.symmetries(true), 2);
        // An L-tromino board: only the diagonal reflection.
        assert_eq!(
            Board::from_cells([(0, 0), (1, 0), (1, 1)]).symmetries(true),
            1
        );
    }

    #[test]
    fn validation_errors() {
        let empty = Puzzle::new(pentominoes(), Board::rectangle(0, 3));
        assert!(matches!(encode(&empty), Err(Error::EmptyBoard)));
        let huge = Puzzle::new(pentominoes(), Board::rectangle(2, 37));
        assert!(matches!(
            encode(&huge),
            Err(Error::BoardTooLarge { rows: 2, cols: 37 })
        ));
        let mut twice = pentominoes();
        twice.push(twice[3].clone());
        let twice = Puzzle::new(twice, Board::rectangle(6, 10));
        assert!(matches!(encode(&twice), Err(Error::DuplicatePiece(n)) if n == "R"));
        assert!(encode(&Puzzle::new(vec![], Board::rectangle(36, 36))).is_ok());
    }

    #[test]
    fn copies_get_numbered_items_and_order_items() {
        let piece = Piece::new("I", [(0, 0), (0, 1)]).unwrap().with_count(2);
        let problem = encode(&Puzzle::new(vec![piece], Board::rectangle(1, 4))).unwrap();
        let names: Vec<&str> = problem.item_ids().map(|i| problem.item_name(i)).collect();
        assert_eq!(
            names,
            ["I.1", "I.2", "00", "01", "02", "03", "I.1<1", "I.1<2", "I.1<3", "I.1<4", "I.1<5"]
        );
        assert_eq!(problem.num_primary(), 6);
        // Three placements; the first copy takes the first two, which leave
        // room for the second, and the second the last two.
        assert_eq!(problem.num_options(), 4);
        let first: Vec<_> = problem
            .option_ids()
            .filter(|&o| {
                problem
                    .option(o)
                    .iter()
                    .any(|e| problem.item_name(e.item) == "I.1")
            })
            .map(|o| problem.label(o).cells.clone())
            .collect();
        assert_eq!(first, [vec![(0, 0), (0, 1)], vec![(0, 1), (0, 2)]]);
    }

    #[test]
    fn symbreak_links_appear_only_when_needed() {
        let mut puzzle = Puzzle::new(pentominoes(), Board::rectangle(6, 10));
        puzzle.symbreak = true;
        let problem = encode(&puzzle).unwrap();
        assert_eq!(problem.num_items(), 72);
        let x: Vec<String> = problem
            .option_ids()
            .filter(|&o| problem.label(o).name == "X")
            .map(|o| problem.option_text(o))
            .collect();
        assert_eq!(x.len(), 8);
        assert!(x.iter().all(|t| {
            let centre = t.split(' ').nth(3).unwrap().as_bytes();
            centre[0] <= b'2' && centre[1] <= b'4'
        }));
        // On 5x12 the X on the middle row is fixed by the top-bottom flip.
        puzzle.board = Board::rectangle(5, 12);
        let problem = encode(&puzzle).unwrap();
        assert_eq!(problem.item_name(problem.item_ids().last().unwrap()), "@s1");
        assert!(problem.has_colors());
    }
}
