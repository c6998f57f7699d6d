//! Shared by the DLX and matrix targets: a reader's message holds no control
//! character, and CRLF, CR and a byte-order mark read the same as LF.

use exactly::format::ParseError;
use exactly::Problem;

type Reader = fn(&str) -> Result<Problem<String>, ParseError>;

/// Checks `parsed` (what `read` gave for `text`) against the same text with
/// other line ends and with a byte-order mark.
pub fn check(text: &str, parsed: &Result<Problem<String>, ParseError>, read: Reader) {
    if let Err(e) = parsed {
        assert!(!e.to_string().chars().any(char::is_control), "{e}");
    }
    if text.contains('\r') || text.starts_with('\u{feff}') {
        return;
    }
    let summary = |r: &Result<Problem<String>, ParseError>| match r {
        Ok(p) => Ok(p.labels().to_vec()),
        Err(e) => Err((e.line, e.column, e.kind.clone())),
    };
    let lf = summary(parsed);
    for other in [
        text.replace('\n', "\r\n"),
        text.replace('\n', "\r"),
        format!("\u{feff}{text}"),
    ] {
        assert_eq!(summary(&read(&other)), lf);
    }
}
