//! The matrix reader never panics and never allocates beyond what the data backs.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = exactly::format::parse_matrix(text);
    }
});
