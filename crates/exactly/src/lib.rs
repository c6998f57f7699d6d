//! # exactly
//!
//! Exact cover and its relatives, solved by Knuth's Algorithm X (dancing
//! links) and Algorithm C (secondary items with colors).
//!
//! ## Overview
//!
//! A [`Problem`] has *items* and *options*; each option is a set of items. A
//! solution chooses options so that every *primary* item is covered exactly
//! once and every *secondary* item at most once, or by options that give it
//! the same *color*. Build a problem with [`ProblemBuilder`] (or read one with
//! [`format::parse_dlx`]), then search it with a [`Solver`]: count the
//! solutions, take the first, visit them through a callback or iterate lazily,
//! under optional [`Limits`] (nodes, time, solutions, a cancel flag).
//! [`verify`] checks any proposed solution independently of the search.
//!
//! Beyond exact cover: primary items with *multiplicities* (covered between
//! `v` and `u` times) are searched by Algorithm M, through [`Solver`]
//! (which sends such problems there) or [`multi::MultiSolver`];
//! [`multi::CostSolver`] finds the
//! cheapest solutions by the options' *costs*; [`mincover::MinCover`] finds
//! the fewest (or cheapest) options covering every primary item at least
//! once.
//!
//! ## Input format
//!
//! Knuth's DLX text format (see [`format`]): `|` starts a comment line; the
//! first other line lists the items, a lone `|` separating primary from
//! secondary ones; each further line is an option, `name:color` giving a
//! secondary item a color.
//!
//! ## Examples
//!
//! ```
//! let text = "\
//! | three items, four options
//! a b c
//! a b
//! c
//! a
//! b c
//! ";
//! let problem = exactly::format::parse_dlx(text)?;
//! let mut solver = exactly::Solver::new(&problem);
//! let all: Vec<_> = solver.solutions().collect();
//! assert_eq!(all.len(), 2);
//! for s in &all {
//!     exactly::verify(&problem, s.options())?;
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod budget;
pub mod format;
pub mod mincover;
pub mod multi;
pub mod parallel;
mod problem;
pub mod records;
mod repr;
mod solver;
pub mod time;
pub mod trace;
mod unchecked;
mod verify;
pub mod work;
pub mod zdd;

pub use problem::{
    is_valid_name, BuildError, ColorId, Entry, ItemId, ItemKind, OptionId, Problem, ProblemBuilder,
    Warning,
};
pub use solver::{
    Branch, Count, Engine, Limits, Outcome, PrefixError, Progress, Rest, Solution, Solutions,
    Solver, Stats, StopReason, TraceEvent,
};
pub use verify::{verify, VerifyError};

/// The crate's README (`crates/exactly/README.md`), whose example runs as a
/// doctest; `tests/readme.rs` checks that the repository's README shows the
/// same example.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
