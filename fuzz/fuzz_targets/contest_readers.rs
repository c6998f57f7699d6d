//! The contest readers (`exactly contest NAME`), the contest chosen by the
//! first byte, each case searched within a small node budget: no panic,
//! and every error names a line and column of the text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    exactly_puzzles::contest::check(data);
});
