//! The matrix reader never panics and never allocates beyond what the data
//! backs; every row's label is unique; CRLF and CR line ends and a byte-order
//! mark read the same as LF; no message holds a control character.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = exactly::format::parse_matrix(text);
    match &parsed {
        Ok(problem) => {
            let mut labels = std::collections::HashSet::new();
            assert!(problem.labels().iter().all(|l| labels.insert(l)));
        }
        Err(e) => assert!(!e.to_string().chars().any(char::is_control), "{e}"),
    }
    if text.contains('\r') || text.starts_with('\u{feff}') {
        return;
    }
    let summary = |r: &Result<exactly::Problem<String>, exactly::format::ParseError>| match r {
        Ok(p) => Ok(p.labels().to_vec()),
        Err(e) => Err((e.line, e.column, e.kind.clone())),
    };
    let lf = summary(&parsed);
    for other in [
        text.replace('\n', "\r\n"),
        text.replace('\n', "\r"),
        format!("\u{feff}{text}"),
    ] {
        assert_eq!(summary(&exactly::format::parse_matrix(&other)), lf);
    }
});
