//! The n-queens problem: place `n` queens on an `n`×`n` board so that no two
//! share a row, a column or a diagonal.
//!
//! # Encoding
//!
//! Primary items `r0`…`r{n-1}` and `c0`…`c{n-1}` stand for the rows and the
//! columns: each holds exactly one queen. Secondary items `a{r+c}` and
//! `b{r-c+n-1}` stand for the diagonals: each holds at most one queen. The two
//! corner diagonals of each direction hold a single square and so can never be
//! attacked twice; their items (`a0`, `a{2n-2}`, `b0`, `b{2n-2}`) are left out.
//! The option for a queen on row `r`, column `c` is `r{r} c{c} a{r+c} b{r-c+n-1}`
//! (without the left-out diagonals), and the options are listed row by row.
//!
//! The order of the primary items steers a solver that breaks ties by item
//! order: [`Order::Organ`] declares the middle rows and columns first, where
//! a queen attacks the most squares, which usually gives a smaller search
//! tree than [`Order::Plain`].
//!
//! # Example
//!
//! ```
//! use exactly_puzzles::queens::{self, Order, Queens};
//!
//! let puzzle = Queens { n: 4, order: Order::Plain };
//! let problem = queens::encode(&puzzle)?;
//! assert_eq!(problem.num_primary(), 8);
//! assert_eq!(problem.num_options(), 16);
//! let names: Vec<_> = problem.item_ids().map(|i| problem.item_name(i)).collect();
//! assert_eq!(names[..8], ["r0", "r1", "r2", "r3", "c0", "c1", "c2", "c3"]);
//! # Ok::<(), exactly_puzzles::Error>(())
//! ```

use std::fmt;
use std::io::Write;

use exactly::{ColorId, ItemId, Problem, ProblemBuilder, Solution};

use crate::Error;

/// The order in which the row and column items are declared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Order {
    /// Middle first, then alternately just below and just above, rows and
    /// columns interleaved: for `n = 8`, `r4 c4 r3 c3 r5 c5 r2 c2 r6 c6 …`.
    #[default]
    Organ,
    /// `r0`…`r{n-1}`, then `c0`…`c{n-1}`.
    Plain,
}

/// An n-queens puzzle: the options of the encoding.
///
/// ```
/// let puzzle = exactly_puzzles::queens::Queens::new(8);
/// assert_eq!(puzzle.n, 8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Queens {
    /// The side of the board, and the number of queens (at least 1).
    pub n: usize,
    /// The order of the row and column items.
    pub order: Order,
}

impl Queens {
    /// An `n`×`n` puzzle with the default ([`Order::Organ`]) item order.
    ///
    /// ```
    /// use exactly_puzzles::queens::{Order, Queens};
    /// assert_eq!(Queens::new(5).order, Order::Organ);
    /// ```
    pub fn new(n: usize) -> Queens {
        Queens {
            n,
            order: Order::default(),
        }
    }
}

/// The label of an option: a queen on a square (0-based row and column).
///
/// ```
/// use exactly_puzzles::queens::{self, Queen, Queens};
/// let problem = queens::encode(&Queens::new(3))?;
/// assert_eq!(problem.labels()[4], Queen { row: 1, col: 1 });
/// # Ok::<(), exactly_puzzles::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Queen {
    /// 0-based row.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
}

/// A solved board: the queens, one per row, in row order.
///
/// ```
/// use exactly_puzzles::queens::{Board, Queen};
/// let board = Board::from_columns(&[1, 3, 0, 2]);
/// assert_eq!(board.queens()[0], Queen { row: 0, col: 1 });
/// assert_eq!(board.to_string(), ".Q..\n...Q\nQ...\n..Q.\n");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    queens: Vec<Queen>,
}

impl Board {
    /// The board with a queen in column `columns[r]` of each row `r`.
    ///
    /// ```
    /// let board = exactly_puzzles::queens::Board::from_columns(&[0]);
    /// assert_eq!(board.n(), 1);
    /// ```
    pub fn from_columns(columns: &[usize]) -> Board {
        Board {
            queens: columns
                .iter()
                .enumerate()
                .map(|(row, &col)| Queen { row, col })
                .collect(),
        }
    }

    /// The side of the board.
    ///
    /// ```
    /// assert_eq!(exactly_puzzles::queens::Board::from_columns(&[1, 3, 0, 2]).n(), 4);
    /// ```
    pub fn n(&self) -> usize {
        self.queens.len()
    }

    /// The queens in row order.
    ///
    /// ```
    /// let board = exactly_puzzles::queens::Board::from_columns(&[1, 3, 0, 2]);
    /// assert_eq!(board.queens().len(), 4);
    /// ```
    pub fn queens(&self) -> &[Queen] {
        &self.queens
    }

    /// The column of the queen in each row.
    ///
    /// ```
    /// let board = exactly_puzzles::queens::Board::from_columns(&[1, 3, 0, 2]);
    /// assert_eq!(board.columns(), vec![1, 3, 0, 2]);
    /// ```
    pub fn columns(&self) -> Vec<usize> {
        self.queens.iter().map(|q| q.col).collect()
    }

    /// True when the board has one queen in each row and column and no two
    /// queens on a diagonal.
    ///
    /// ```
    /// use exactly_puzzles::queens::Board;
    /// assert!(Board::from_columns(&[1, 3, 0, 2]).is_valid());
    /// assert!(!Board::from_columns(&[0, 1, 3, 2]).is_valid());
    /// ```
    pub fn is_valid(&self) -> bool {
        let n = self.n();
        let mut cols = vec![false; n];
        let mut up = vec![false; 2 * n];
        let mut down = vec![false; 2 * n];
        for (r, q) in self.queens.iter().enumerate() {
            if q.row != r || q.col >= n {
                return false;
            }
            let (a, b) = (q.row + q.col, q.row + n - q.col);
            if cols[q.col] || up[a] || down[b] {
                return false;
            }
            cols[q.col] = true;
            up[a] = true;
            down[b] = true;
        }
        true
    }
}

impl fmt::Display for Board {
    /// One line per row: `Q` for a queen, `.` for an empty square.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.n();
        for q in &self.queens {
            for c in 0..n {
                f.write_str(if c == q.col { "Q" } else { "." })?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

/// The row (and column) indices in the order of `order`.
fn line_order(n: usize, order: Order) -> Vec<usize> {
    match order {
        Order::Plain => (0..n).collect(),
        Order::Organ => {
            let mid = n / 2;
            let mut lines = vec![mid];
            for d in 1..=mid {
                lines.push(mid - d);
                if mid + d < n {
                    lines.push(mid + d);
                }
            }
            lines
        }
    }
}

/// The largest board side that [`encode`] accepts: a million options and
/// 4 million option entries, checked before anything is allocated.
pub const MAX_N: usize = 1000;

/// Encodes the puzzle as an exact-cover problem with secondary items.
///
/// Fails with [`Error::BadSize`] when `n` is 0 or more than [`MAX_N`].
///
/// ```
/// use exactly_puzzles::queens::{self, Queens};
/// let problem = queens::encode(&Queens::new(8))?;
/// assert_eq!(problem.num_items(), 16 + 2 * 13);
/// assert_eq!(problem.num_options(), 64);
/// # Ok::<(), exactly_puzzles::Error>(())
/// ```
pub fn encode(puzzle: &Queens) -> Result<Problem<Queen>, Error> {
    let n = puzzle.n;
    if n == 0 {
        return Err(Error::BadSize {
            what: "queens board side",
            value: n,
            reason: "must be at least 1",
        });
    }
    if n > MAX_N {
        return Err(Error::BadSize {
            what: "queens board side",
            value: n,
            reason: "must be at most 1000",
        });
    }
    let mut b = ProblemBuilder::new();
    let mut rows = vec![None; n];
    let mut cols = vec![None; n];
    let lines = line_order(n, puzzle.order);
    match puzzle.order {
        Order::Plain => {
            for &r in &lines {
                rows[r] = Some(b.primary(&format!("r{r}"))?);
            }
            for &c in &lines {
                cols[c] = Some(b.primary(&format!("c{c}"))?);
            }
        }
        Order::Organ => {
            for &k in &lines {
                rows[k] = Some(b.primary(&format!("r{k}"))?);
                cols[k] = Some(b.primary(&format!("c{k}"))?);
            }
        }
    }
    // Diagonals 1..=2n-3 of each direction; 0 and 2n-2 are single squares.
    let diagonals = 2 * n - 1;
    let mut up: Vec<Option<ItemId>> = vec![None; diagonals];
    let mut down: Vec<Option<ItemId>> = vec![None; diagonals];
    for (d, slot) in up.iter_mut().enumerate().take(diagonals - 1).skip(1) {
        *slot = Some(b.secondary(&format!("a{d}"))?);
    }
    for (d, slot) in down.iter_mut().enumerate().take(diagonals - 1).skip(1) {
        *slot = Some(b.secondary(&format!("b{d}"))?);
    }
    for row in 0..n {
        for col in 0..n {
            let mut entries = Vec::with_capacity(4);
            entries.extend(rows[row]);
            entries.extend(cols[col]);
            entries.extend(up[row + col]);
            entries.extend(down[row + n - 1 - col]);
            b.add_option(
                Queen { row, col },
                entries.into_iter().map(|i| (i, ColorId::NONE)),
            )?;
        }
    }
    Ok(b.build()?)
}

/// Decodes a solution of [`encode`]'s problem into a board.
///
/// ```
/// use exactly_puzzles::queens::{self, Queens};
/// let problem = queens::encode(&Queens::new(6))?;
/// let solution = exactly::Solver::new(&problem).first().unwrap().unwrap();
/// let board = queens::decode(&problem, &solution);
/// assert!(board.is_valid());
/// # Ok::<(), exactly_puzzles::Error>(())
/// ```
pub fn decode(problem: &Problem<Queen>, solution: &Solution) -> Board {
    let mut queens: Vec<Queen> = solution
        .options()
        .iter()
        .map(|&o| *problem.label(o))
        .collect();
    queens.sort_unstable();
    Board { queens }
}

/// Writes the puzzle as a problem in Knuth's DLX text format.
///
/// ```
/// use exactly_puzzles::queens::{self, Order, Queens};
/// let mut text = Vec::new();
/// queens::write_dlx(&Queens { n: 4, order: Order::Plain }, &mut text)?;
/// let text = String::from_utf8(text).unwrap();
/// assert!(text.contains("r0 c1 a1 b2"));
/// # Ok::<(), exactly_puzzles::Error>(())
/// ```
pub fn write_dlx(puzzle: &Queens, out: &mut impl Write) -> Result<(), Error> {
    exactly::format::write_dlx(&encode(puzzle)?, out)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item_names(problem: &Problem<Queen>) -> Vec<String> {
        problem
            .item_ids()
            .map(|i| problem.item_name(i).to_string())
            .collect()
    }

    #[test]
    fn organ_order_starts_in_the_middle() {
        assert_eq!(
            line_order(13, Order::Organ),
            [6, 5, 7, 4, 8, 3, 9, 2, 10, 1, 11, 0, 12]
        );
        assert_eq!(line_order(8, Order::Organ), [4, 3, 5, 2, 6, 1, 7, 0]);
        assert_eq!(line_order(1, Order::Organ), [0]);
        assert_eq!(line_order(2, Order::Organ), [1, 0]);
        let p = encode(&Queens::new(13)).unwrap();
        assert_eq!(
            item_names(&p)[..8],
            ["r6", "c6", "r5", "c5", "r7", "c7", "r4", "c4"]
        );
    }

    #[test]
    fn corner_diagonals_are_left_out() {
        let p = encode(&Queens {
            n: 4,
            order: Order::Plain,
        })
        .unwrap();
        let names = item_names(&p);
        assert_eq!(
            names[8..],
            ["a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4", "b5"]
        );
        let texts: Vec<String> = p.option_ids().map(|o| p.option_text(o)).collect();
        assert_eq!(texts[0], "r0 c0 b3");
        assert_eq!(texts[3], "r0 c3 a3");
        assert_eq!(texts[5], "r1 c1 a2 b3");
        assert_eq!(texts[15], "r3 c3 b3");
        assert_eq!(p.num_primary(), 8);
    }

    #[test]
    fn one_by_one_has_no_diagonals() {
        let p = encode(&Queens::new(1)).unwrap();
        assert_eq!(item_names(&p), ["r0", "c0"]);
        assert_eq!(p.num_options(), 1);
    }

    #[test]
    fn sizes_past_the_limit_are_refused_before_allocating() {
        for n in [MAX_N + 1, 30_000, 1 << 32, usize::MAX] {
            let e = encode(&Queens::new(n)).unwrap_err();
            assert!(matches!(e, Error::BadSize { .. }));
            assert!(e.to_string().contains("at most 1000"), "{e}");
        }
    }

    #[test]
    fn zero_is_rejected() {
        assert!(matches!(
            encode(&Queens::new(0)),
            Err(Error::BadSize { .. })
        ));
    }
}
