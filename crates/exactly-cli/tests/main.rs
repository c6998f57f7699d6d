//! The command line's integration tests, in one test binary (one link, one build of the
//! code they share): each file is a module, run on its own with
//! `cargo test --test tests <module>::`.

mod cli;
mod common;
mod contest;
mod cover;
mod front_ends;
mod help;
mod hostile_puzzles;
mod line_ends;
mod numbers_and_records;
mod plan_budget;
mod readers;
mod run_options;
mod scale;
mod sudoku;
mod sudoku_formats;
mod sudoku_hostile;
mod sudoku_stream;
mod sudoku_tools;
mod target;
mod zdd;
