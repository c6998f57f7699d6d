//! The `--weights` reader of `exactly sudoku --target`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    exactly_puzzles::sudoku::check::weights(data);
});
