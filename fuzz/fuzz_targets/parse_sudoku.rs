//! The sudoku reader in every format (lines, grids, numbers, jigsaw, small
//! grids, given box shapes, chosen by the first byte): records name lines
//! of the text, and what reads writes back to text that reads again.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    exactly_puzzles::sudoku::check::reader(data);
});
