//! # exactly-puzzles
//!
//! Front ends that turn puzzles into exact-cover problems for the
//! [`exactly`] engine, and the engine's solutions back into answers.
//!
//! ## Overview
//!
//! Each front end is a module with the same shape:
//!
//! - a puzzle type holding the options of the encoding
//!   ([`queens::Queens`], [`langford::Langford`], [`polyomino::Puzzle`]);
//! - `encode(&puzzle)`, which builds a [`Problem`](exactly::Problem) whose
//!   option labels say what each option means;
//! - `decode(&problem, &solution)`, which turns an [`exactly::Solution`] into
//!   an answer that displays as text ([`queens::Board`],
//!   [`langford::Sequence`], [`polyomino::Tiling`]);
//! - `write_dlx(&puzzle, out)`, which writes the problem in Knuth's DLX text
//!   format for other solvers.
//!
//! The module docs describe each encoding item by item, so that counts and
//! search statistics can be compared with Knuth's programs.
//!
//! ## Input format
//!
//! Polyomino pieces and boards can be read from ASCII art: see
//! [`polyomino`] for the format and [`polyomino::parse`] for the reader.
//! [`contest`] reads and writes the formats of six contest problems (POJ
//! 3074, POJ 3076, SPOJ SUDOKU, HUST 1017, NOIP 2009, POJ 1084) exactly as
//! their judges give and expect them.
//!
//! ## Examples
//!
//! Count the solutions of the 8-queens puzzle and show one:
//!
//! ```
//! use exactly_puzzles::queens::{self, Queens};
//!
//! let problem = queens::encode(&Queens::new(8))?;
//! let mut solver = exactly::Solver::new(&problem);
//! assert_eq!(solver.count().solutions, 92);
//!
//! let mut solver = exactly::Solver::new(&problem);
//! let solution = solver.first().unwrap().unwrap();
//! let board = queens::decode(&problem, &solution);
//! assert!(board.is_valid());
//! print!("{board}");
//! # Ok::<(), exactly_puzzles::Error>(())
//! ```
//!
//! Tile a 3×20 rectangle with the twelve pentominoes, counting each tiling
//! once up to rotation and reflection:
//!
//! ```
//! use exactly_puzzles::polyomino::{self, Board, Puzzle};
//!
//! let mut puzzle = Puzzle::new(polyomino::pentominoes(), Board::rectangle(3, 20));
//! puzzle.symbreak = true;
//! let problem = polyomino::encode(&puzzle)?;
//! let mut solver = exactly::Solver::new(&problem);
//! let tilings: Vec<_> = solver
//!     .solutions()
//!     .map(|s| polyomino::decode(&problem, &s))
//!     .collect();
//! assert_eq!(tilings.len(), 2);
//! assert!(tilings.iter().all(|t| puzzle.is_solution(t)));
//! # Ok::<(), exactly_puzzles::Error>(())
//! ```

pub mod contest;
pub mod langford;
pub mod polyomino;
pub mod queens;
pub mod squares;
pub mod sudoku;

/// Why a puzzle could not be encoded or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A size parameter out of range.
    #[error("{what} {reason}, not {value}")]
    BadSize {
        /// What the number is.
        what: &'static str,
        /// The number given.
        value: usize,
        /// What it must be.
        reason: &'static str,
    },
    /// A board without cells.
    #[error("the board has no cells")]
    EmptyBoard,
    /// A board too large for two-digit base-36 cell names.
    #[error("the board is {rows}x{cols}; cell names allow at most 36 rows and 36 columns")]
    BoardTooLarge {
        /// Its number of rows.
        rows: usize,
        /// Its number of columns.
        cols: usize,
    },
    /// A problem past a front end's limit on its size, found before it is
    /// built (see [`polyomino::MAX_ENTRIES`]).
    #[error("the problem would have {entries} option entries (the items of all options together), more than the limit of {limit}")]
    TooManyEntries {
        /// The entries the problem would have (at least).
        entries: u64,
        /// The most entries accepted.
        limit: usize,
    },
    /// A piece name that [`polyomino::is_piece_name`] rejects.
    #[error("bad piece name '{0}': expected letters, digits, '_' or '-', and not two lower-case letters or digits (those name cells)")]
    BadPieceName(String),
    /// A piece without cells.
    #[error("piece '{0}' has no cells")]
    EmptyPiece(String),
    /// Two pieces with the same name.
    #[error("two pieces are named '{0}'")]
    DuplicatePiece(String),
    /// Symmetry breaking was asked for, but the pieces used exactly once
    /// cannot break every symmetry of the board and pieces with several
    /// copies are left (see [`polyomino`]'s "Symmetry breaking").
    #[error("cannot break the board's symmetry: the pieces used exactly once do not suffice while pieces with several copies are left")]
    SymmetryUnbroken,
    /// The problem model rejected the encoding.
    #[error(transparent)]
    Build(#[from] exactly::BuildError),
    /// Writing failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// The crate's README, whose example runs as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
