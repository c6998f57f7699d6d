//! The matrix reader never panics and never allocates beyond what the data
//! backs; every row's label is unique; CRLF and CR line ends and a byte-order
//! mark read the same as LF; no message holds a control character.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../common/line_ends.rs"]
mod line_ends;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = exactly::format::parse_matrix(text);
    if let Ok(problem) = &parsed {
        let mut labels = std::collections::HashSet::new();
        assert!(problem.labels().iter().all(|l| labels.insert(l)));
    }
    line_ends::check(text, &parsed, exactly::format::parse_matrix);
});
