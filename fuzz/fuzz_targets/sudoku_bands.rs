//! The classic 9×9 grid's search on bands against the general solver:
//! the same verdicts, counts, solutions and errors.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    exactly_puzzles::sudoku::check::bands(data);
});
