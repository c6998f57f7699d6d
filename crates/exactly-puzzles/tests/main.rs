//! The puzzle front ends' integration tests, in one test binary (one link, one build of the
//! code they share): each file is a module, run on its own with
//! `cargo test --test tests <module>::`.

mod contest;
mod langford;
mod polyomino;
mod polyomino_text;
mod queens;
mod squares;
mod sudoku;
mod sudoku_bands;
mod sudoku_gen;
mod sudoku_text;
mod target_sudoku;
