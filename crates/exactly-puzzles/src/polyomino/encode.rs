//! The encoding: a puzzle's pieces and board as a [`Problem`] of
//! [`Placement`]s (with the items that order the copies of a piece), the
//! size checks made before anything is allocated, and a solution decoded
//! into a [`Tiling`].

use std::io::Write;

use exactly::{ColorId, ItemId, Problem, ProblemBuilder, Solution};

use super::geometry::extent;
use super::{
    cell_name, symmetry, Board, Cell, Piece, Placement, Puzzle, Tiling, MAX_COPIES, MAX_ENTRIES,
    MAX_SIDE,
};
use crate::Error;

/// A segment tree over placement indices `0..len`, used to order the copies
/// of a piece. Nodes are numbered heap-style from 1.
pub(super) struct Segments {
    pub(super) len: usize,
}

impl Segments {
    /// All node numbers, in increasing order.
    pub(super) fn nodes(&self) -> Vec<usize> {
        let mut out = Vec::new();
        if self.len > 0 {
            self.walk(1, 0, self.len - 1, &mut |node, _, _| {
                out.push(node);
                true
            });
        }
        out.sort_unstable();
        out
    }

    /// The nodes on the path from the root to leaf `leaf`.
    pub(super) fn path(&self, leaf: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.walk(1, 0, self.len - 1, &mut |node, lo, hi| {
            let inside = lo <= leaf && leaf <= hi;
            if inside {
                out.push(node);
            }
            inside
        });
        out
    }

    /// The nodes whose ranges partition `0..=last`.
    pub(super) fn prefix(&self, last: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.walk(1, 0, self.len - 1, &mut |node, lo, hi| {
            if hi <= last {
                out.push(node);
                false
            } else {
                lo <= last
            }
        });
        out
    }

    /// Visits nodes top-down; `visit(node, lo, hi)` says whether to descend.
    fn walk(
        &self,
        node: usize,
        lo: usize,
        hi: usize,
        visit: &mut impl FnMut(usize, usize, usize) -> bool,
    ) {
        if visit(node, lo, hi) && lo < hi {
            let mid = lo + (hi - lo) / 2;
            self.walk(2 * node, lo, mid, visit);
            self.walk(2 * node + 1, mid + 1, hi, visit);
        }
    }
}

/// Visits every placement of a piece on the board: an orientation and the
/// top-left corner where all its cells fall on the board.
fn each_placement(
    piece: &Piece,
    board: &Board,
    one_sided: bool,
    mut visit: impl FnMut(&[Cell], usize, usize),
) {
    for shape in piece.orientations(one_sided) {
        let (h, w) = extent(&shape);
        if h > board.rows || w > board.cols {
            continue;
        }
        for top in 0..=board.rows - h {
            for left in 0..=board.cols - w {
                if shape
                    .iter()
                    .all(|&(r, c)| board.contains((top + r, left + c)))
                {
                    visit(&shape, top, left);
                }
            }
        }
    }
}

/// Every placement of a piece on the board: the sorted cell indices.
fn placements(piece: &Piece, board: &Board, one_sided: bool) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    each_placement(piece, board, one_sided, |shape, top, left| {
        out.push(
            shape
                .iter()
                .map(|&(r, c)| ((top + r) * board.cols + left + c) as u32)
                .collect(),
        );
    });
    out
}

/// The number of placements of a piece on the board, counted without
/// storing them.
fn placement_count(piece: &Piece, board: &Board, one_sided: bool) -> u64 {
    let mut count = 0;
    each_placement(piece, board, one_sided, |_, _, _| count += 1);
    count
}

/// An upper bound on the option entries of [`encode`]'s problem (without
/// the symmetry-breaking options, at most a few per placement), computed
/// without building it and stopping once past [`MAX_ENTRIES`].
fn entry_bound(puzzle: &Puzzle) -> u64 {
    let mut total = 0u64;
    for p in &puzzle.pieces {
        if p.count == 0 {
            continue;
        }
        let m = placement_count(p, &puzzle.board, puzzle.one_sided);
        // The piece, its cells, and the ordering items of several copies:
        // a path and a prefix in a segment tree of depth about log2(m).
        let depth = u64::from(64 - m.leading_zeros()) + 2;
        let order = if p.count > 1 { 2 * depth } else { 0 };
        let per_option = 1 + p.cells.len() as u64 + order;
        total = total.saturating_add(
            (p.count as u64)
                .saturating_mul(m)
                .saturating_mul(per_option),
        );
        if total > MAX_ENTRIES as u64 {
            break;
        }
    }
    total
}

/// Checks the puzzle before encoding.
fn validate(puzzle: &Puzzle) -> Result<(), Error> {
    let board = &puzzle.board;
    if board.num_cells() == 0 {
        return Err(Error::EmptyBoard);
    }
    if board.rows > MAX_SIDE || board.cols > MAX_SIDE {
        return Err(Error::BoardTooLarge {
            rows: board.rows,
            cols: board.cols,
        });
    }
    let mut names = std::collections::HashSet::new();
    for p in &puzzle.pieces {
        if !names.insert(p.name.as_str()) {
            return Err(Error::DuplicatePiece(p.name.clone()));
        }
        if p.count > MAX_COPIES {
            return Err(Error::BadSize {
                what: "number of copies of a piece",
                value: p.count,
                reason: "must be at most 1296 (the cells of a 36x36 board)",
            });
        }
    }
    let entries = entry_bound(puzzle);
    if entries > MAX_ENTRIES as u64 {
        return Err(Error::TooManyEntries {
            entries,
            limit: MAX_ENTRIES,
        });
    }
    Ok(())
}

/// Encodes the puzzle as an exact-cover problem (see the
/// [module docs](super) for the items and options).
///
/// Fails on an empty board, a board wider or taller than [`MAX_SIDE`], two
/// pieces with the same name, a piece with more than [`MAX_COPIES`] copies,
/// a problem past [`MAX_ENTRIES`] (all checked before the problem is
/// allocated), or (with [`Puzzle::symbreak`]) when the pieces
/// used exactly once cannot break the board's symmetry while pieces with
/// several copies are left ([`Error::SymmetryUnbroken`]).
///
/// ```
/// use exactly_puzzles::polyomino::{encode, pentominoes, Board, Puzzle};
/// let problem = encode(&Puzzle::new(pentominoes(), Board::rectangle(6, 10)))?;
/// assert_eq!(problem.num_items(), 72);
/// assert_eq!(problem.num_options(), 2056);
/// let names: Vec<_> = problem.item_ids().map(|i| problem.item_name(i)).collect();
/// assert_eq!(names[10..14], ["Y", "Z", "00", "01"]);
/// assert_eq!(names[71], "59");
/// # Ok::<(), exactly_puzzles::Error>(())
/// ```
pub fn encode(puzzle: &Puzzle) -> Result<Problem<Placement>, Error> {
    validate(puzzle)?;
    let board = &puzzle.board;
    let none = |i: ItemId| (i, ColorId::NONE);
    let mut b = ProblemBuilder::new();

    // Piece items: one per copy.
    let mut copies: Vec<Vec<ItemId>> = Vec::with_capacity(puzzle.pieces.len());
    for p in &puzzle.pieces {
        let items = if p.count == 1 {
            vec![b.primary(&p.name)?]
        } else {
            (1..=p.count)
                .map(|i| b.primary(&format!("{}.{i}", p.name)))
                .collect::<Result<_, _>>()?
        };
        copies.push(items);
    }

    // Cell items, row-major.
    let mut cell_items = vec![None; board.rows * board.cols];
    for cell in board.cells() {
        cell_items[cell.0 * board.cols + cell.1] = Some(b.primary(&cell_name(cell))?);
    }

    let places: Vec<Vec<Vec<u32>>> = puzzle
        .pieces
        .iter()
        .map(|p| placements(p, board, puzzle.one_sided))
        .collect();

    // The symmetry-breaking chain and its linking items `@s1`, `@s2`, ...
    let plan = if puzzle.symbreak {
        let candidates: Vec<usize> = (0..puzzle.pieces.len())
            .filter(|&k| puzzle.pieces[k].count == 1)
            .collect();
        let group = board.group(puzzle.one_sided);
        let plan = symmetry::plan(group, board.rows, board.cols, &places, &candidates);
        // When the chain used up every piece while a symmetry is still
        // unbroken, the tilings it leaves are fixed by that symmetry (each
        // piece is), so each is still counted once, unless pieces with
        // several copies are left over.
        if !plan.complete && puzzle.pieces.iter().any(|p| p.count > 1) {
            return Err(Error::SymmetryUnbroken);
        }
        plan
    } else {
        symmetry::Plan::default()
    };
    let mut links = Vec::new();
    for level in 1..plan.levels.len() {
        links.push(b.secondary(&format!("@s{level}"))?);
    }

    // Ordering items between consecutive copies: `name.i<node`.
    let mut order: Vec<Vec<Vec<Option<ItemId>>>> = Vec::with_capacity(puzzle.pieces.len());
    for (p, piece) in puzzle.pieces.iter().enumerate() {
        let segments = Segments {
            len: places[p].len(),
        };
        let nodes = segments.nodes();
        let top = nodes.iter().max().map_or(0, |&n| n + 1);
        let mut pairs = Vec::new();
        for i in 1..piece.count {
            let mut items = vec![None; top];
            for &node in &nodes {
                items[node] = Some(b.secondary(&format!("{}.{i}<{node}", piece.name))?);
            }
            pairs.push(items);
        }
        order.push(pairs);
    }

    let label = |p: usize, cells: &[u32]| Placement {
        piece: p,
        name: puzzle.pieces[p].name.clone(),
        cells: cells
            .iter()
            .map(|&i| (i as usize / board.cols, i as usize % board.cols))
            .collect(),
    };
    let cells_of = |cells: &[u32]| -> Vec<(ItemId, ColorId)> {
        cells
            .iter()
            .filter_map(|&i| cell_items[i as usize])
            .map(none)
            .collect()
    };
    for (p, piece) in puzzle.pieces.iter().enumerate() {
        if let Some(level) = plan.levels.iter().position(|l| l.piece == p) {
            for kept in &plan.levels[level].kept {
                let cells = &places[p][kept.placement];
                let mut entries = vec![none(copies[p][0])];
                entries.extend(cells_of(cells));
                if level > 0 {
                    let color = b.color(&format!("g{:02x}", kept.before.0))?;
                    entries.push((links[level - 1], color));
                }
                if level + 1 < plan.levels.len() {
                    let color = b.color(&format!("g{:02x}", kept.after.0))?;
                    entries.push((links[level], color));
                }
                b.add_option(label(p, cells), entries)?;
            }
            continue;
        }
        let segments = Segments {
            len: places[p].len(),
        };
        for (copy, &item) in copies[p].iter().enumerate() {
            // The copies take placements in increasing order, so this one
            // leaves room for `copy` copies before it and the rest after.
            let room = piece.count - 1 - copy;
            let last = places[p].len().saturating_sub(room);
            for (k, cells) in places[p].iter().enumerate().take(last).skip(copy) {
                let mut entries = vec![none(item)];
                entries.extend(cells_of(cells));
                let pairs = &order[p];
                if copy > 0 {
                    let items = &pairs[copy - 1];
                    entries.extend(
                        segments
                            .path(k)
                            .into_iter()
                            .filter_map(|n| items[n])
                            .map(none),
                    );
                }
                if copy + 1 < piece.count {
                    let items = &pairs[copy];
                    entries.extend(
                        segments
                            .prefix(k)
                            .into_iter()
                            .filter_map(|n| items[n])
                            .map(none),
                    );
                }
                b.add_option(label(p, cells), entries)?;
            }
        }
    }
    Ok(b.build()?)
}

/// Decodes a solution of [`encode`]'s problem into a tiling.
///
/// ```
/// use exactly_puzzles::polyomino::{decode, encode, tetrominoes, Board, Puzzle};
/// let mut pieces = tetrominoes();
/// pieces.retain(|p| p.name() == "O");
/// let problem = encode(&Puzzle::new(pieces, Board::rectangle(2, 2)))?;
/// let solution = exactly::Solver::new(&problem).first().unwrap().unwrap();
/// assert_eq!(decode(&problem, &solution).to_string(), "OO\nOO\n");
/// # Ok::<(), exactly_puzzles::Error>(())
/// ```
pub fn decode(problem: &Problem<Placement>, solution: &Solution) -> Tiling {
    Tiling::new(
        solution
            .options()
            .iter()
            .map(|&o| problem.label(o).clone())
            .collect(),
    )
}

/// Writes the puzzle as a problem in Knuth's DLX text format.
///
/// ```
/// use exactly_puzzles::polyomino::{pentominoes, write_dlx, Board, Puzzle};
/// let mut text = Vec::new();
/// write_dlx(&Puzzle::new(pentominoes(), Board::rectangle(6, 10)), &mut text)?;
/// let text = String::from_utf8(text).unwrap();
/// assert!(text.contains("\nO P Q R S T U V W X Y Z 00 01 "));
/// assert!(text.contains("\nX 01 10 11 12 21\n"));
/// # Ok::<(), exactly_puzzles::Error>(())
/// ```
pub fn write_dlx(puzzle: &Puzzle, out: &mut impl Write) -> Result<(), Error> {
    exactly::format::write_dlx(&encode(puzzle)?, out)?;
    Ok(())
}
