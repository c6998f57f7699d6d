//! Reading problems: files or standard input, format selection, parse errors
//! that name the file, and warnings that name the line of the option.
//!
//! # Format selection
//!
//! `--input dlx` (the default) reads Knuth's DLX format and `--input matrix`
//! the HUST 1017 matrix format. `--input auto` reads the matrix format only
//! when the first non-blank line holds exactly two non-negative integers
//! *and* the whole input parses as a matrix; otherwise it reads DLX. (A DLX
//! item line may be two numbers too, so the header alone does not decide.)

use std::fs;
use std::io::{self, Read};
use std::path::Path;

use anyhow::{anyhow, Context};
use clap::ValueEnum;
use exactly::format::{self, ParseError};
use exactly::{Problem, Warning};

/// The `--input` choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InputFormat {
    /// The matrix format if the input looks like and parses as one, else DLX.
    Auto,
    /// Knuth's DLX format.
    Dlx,
    /// The HUST 1017 matrix format.
    Matrix,
}

/// The format a problem was actually read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Knuth's DLX format.
    Dlx,
    /// The HUST 1017 matrix format.
    Matrix,
}

/// The name standard input goes by in messages.
pub const STDIN_NAME: &str = "<stdin>";

/// A problem read from a file, with what is needed to talk about its options.
pub struct Input {
    /// The format it was read in.
    pub format: Format,
    /// The problem; each option's label is its line in the file, trimmed.
    pub problem: Problem<String>,
    /// For each option of the problem, its 0-based position among the option
    /// records of the file (options dropped for lacking a primary item keep
    /// their position, so these may skip numbers).
    pub positions: Vec<usize>,
    /// Warnings, each formatted as `file:line:column: warning: message`.
    pub warnings: Vec<String>,
}

/// Reads a whole file, or standard input for `-`. Returns the name to use in
/// messages and the bytes.
pub fn read_source(path: &Path) -> anyhow::Result<(String, Vec<u8>)> {
    let mut bytes = Vec::new();
    if path == Path::new("-") {
        io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .with_context(|| format!("{STDIN_NAME}: cannot read"))?;
        Ok((STDIN_NAME.to_string(), bytes))
    } else {
        let name = path.display().to_string();
        let mut file = fs::File::open(path).with_context(|| format!("{name}: cannot open"))?;
        file.read_to_end(&mut bytes)
            .with_context(|| format!("{name}: cannot read"))?;
        Ok((name, bytes))
    }
}

/// Decodes UTF-8, naming the line and column of the first bad byte.
pub fn decode(name: &str, bytes: Vec<u8>) -> anyhow::Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        // The prefix is valid UTF-8 by construction.
        let good = std::str::from_utf8(good).unwrap_or_default();
        // Lines and columns as the readers count them (`format::lines`):
        // the bad byte is on the line after the last line end.
        let line = format::lines(good).count().max(1)
            + usize::from(
                good.ends_with(['\n', '\r']) && !good.trim_start_matches('\u{feff}').is_empty(),
            );
        let last = good.rsplit(['\n', '\r']).next().unwrap_or_default();
        let column = last.trim_start_matches('\u{feff}').chars().count() + 1;
        anyhow!("{name}:{line}:{column}: invalid UTF-8: expected text")
    })
}

/// Reads and parses the problem at `path` (`-` for standard input).
pub fn load(path: &Path, format: InputFormat) -> anyhow::Result<Input> {
    let (name, bytes) = read_source(path)?;
    let text = decode(&name, bytes)?;
    parse(&name, &text, format)
}

/// Parses `text` in the requested format; errors read
/// `file:line:column: message`.
pub fn parse(name: &str, text: &str, format: InputFormat) -> anyhow::Result<Input> {
    let at = |e: &ParseError| e.with_file(name).to_string();
    let (format, problem) = match format {
        InputFormat::Dlx => match format::parse_dlx(text) {
            Ok(p) => (Format::Dlx, p),
            Err(e) => {
                if looks_like_matrix(text) && format::parse_matrix(text).is_ok() {
                    return Err(anyhow!(
                        "{} (this input reads as the matrix format: try --input matrix)",
                        at(&e)
                    ));
                }
                return Err(anyhow!(at(&e)));
            }
        },
        InputFormat::Matrix => (
            Format::Matrix,
            format::parse_matrix(text).map_err(|e| anyhow!(at(&e)))?,
        ),
        InputFormat::Auto => {
            if looks_like_matrix(text) {
                match format::parse_matrix(text) {
                    Ok(p) => (Format::Matrix, p),
                    Err(me) => match format::parse_dlx(text) {
                        Ok(p) => (Format::Dlx, p),
                        Err(de) => {
                            return Err(anyhow!(
                                "{} (nor is it the matrix format: {})",
                                at(&de),
                                at(&me)
                            ))
                        }
                    },
                }
            } else {
                (
                    Format::Dlx,
                    format::parse_dlx(text).map_err(|e| anyhow!(at(&e)))?,
                )
            }
        }
    };
    // The dropped positions come in increasing order: one pass skips them.
    let mut dropped = problem
        .warnings()
        .iter()
        .filter_map(|w| match w {
            Warning::OptionWithoutPrimary { position, .. } => Some(*position),
            _ => None,
        })
        .peekable();
    let mut positions = Vec::with_capacity(problem.num_options());
    let mut p = 0;
    while positions.len() < problem.num_options() {
        if dropped.next_if_eq(&p).is_none() {
            positions.push(p);
        }
        p += 1;
    }
    exactly::work::add(p as u64);
    let warnings = problem
        .warnings()
        .iter()
        .map(|w| warning_line(name, w))
        .collect();
    Ok(Input {
        format,
        problem,
        positions,
        warnings,
    })
}

fn warning_line(name: &str, w: &Warning) -> String {
    match w {
        Warning::OptionWithoutPrimary {
            at: Some((line, column)),
            ..
        } => format!("{name}:{line}:{column}: warning: {w}"),
        _ => format!("{name}: warning: {w}"),
    }
}

/// True when the first non-blank line holds exactly two non-negative integers.
pub fn looks_like_matrix(text: &str) -> bool {
    let Some(first) = format::lines(text).find(|l| !l.trim().is_empty()) else {
        return false;
    };
    let toks: Vec<&str> = format::tokens(first).map(|(_, t)| t).collect();
    toks.len() == 2 && toks.iter().all(|t| t.parse::<u64>().is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const KNUTH: &str = "a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n";

    fn err(text: &str, format: InputFormat) -> String {
        match parse("t.dlx", text, format) {
            Ok(_) => panic!("expected an error for {text:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn reads_dlx_and_matrix() {
        let i = parse("k", KNUTH, InputFormat::Dlx).unwrap();
        assert_eq!((i.format, i.problem.num_options()), (Format::Dlx, 6));
        assert_eq!(i.positions, [0, 1, 2, 3, 4, 5]);
        let m = "3 4\n2 1 2\n2 3 4\n1 1\n";
        let i = parse("m", m, InputFormat::Matrix).unwrap();
        assert_eq!((i.format, i.problem.num_items()), (Format::Matrix, 4));
        let i = parse("m", m, InputFormat::Auto).unwrap();
        assert_eq!(i.format, Format::Matrix);
        let i = parse("k", KNUTH, InputFormat::Auto).unwrap();
        assert_eq!(i.format, Format::Dlx);
    }

    #[test]
    fn auto_prefers_dlx_when_the_matrix_parse_fails() {
        // Items named 1 and 2, options "1 2" and "2": not a valid matrix.
        let i = parse("t", "1 2\n1 2\n2\n", InputFormat::Auto).unwrap();
        assert_eq!(i.format, Format::Dlx);
        let e = err("2 3\n1 1\n", InputFormat::Auto);
        assert_eq!(
            e,
            "t.dlx:2:1: unknown item '1' (nor is it the matrix format: \
             t.dlx:2:4: expected the number of ones in a row, found nothing)"
        );
    }

    #[test]
    fn dlx_errors_hint_at_the_matrix_format() {
        let e = err("2 3\n1 1\n1 3\n", InputFormat::Dlx);
        assert_eq!(
            e,
            "t.dlx:2:1: unknown item '1' (this input reads as the matrix format: try --input matrix)"
        );
        assert_eq!(
            err("a b\na c\n", InputFormat::Dlx),
            "t.dlx:2:3: unknown item 'c'"
        );
    }

    #[test]
    fn huge_matrix_headers_are_refused() {
        let e = err("1 4294967297\n1 4294967297\n", InputFormat::Matrix);
        assert!(
            e.starts_with("t.dlx:1:3: the header claims 4294967297 columns"),
            "{e}"
        );
        let e = err("1 5000000\n1 5000000\n", InputFormat::Matrix);
        assert!(e.starts_with("t.dlx:1:3: the header claims"), "{e}");
    }

    #[test]
    fn warnings_name_the_option_line() {
        let text = "| comment\n\na b | x\n| another\nx\n  a x\n\nx\nb\n";
        let i = parse("w.dlx", text, InputFormat::Dlx).unwrap();
        assert_eq!(
            i.warnings,
            [
                "w.dlx:5:1: warning: option 1 has no primary item; dropped",
                "w.dlx:8:1: warning: option 3 has no primary item; dropped",
            ]
        );
        assert_eq!(i.positions, [1, 3]);
        let i = parse("w.mat", "3 2\n1 1\n0\n1 2\n", InputFormat::Matrix).unwrap();
        assert_eq!(
            i.warnings,
            ["w.mat:3:1: warning: option 2 has no primary item; dropped"]
        );
        assert_eq!(i.positions, [0, 2]);
    }

    #[test]
    fn dropped_options_are_numbered_in_linear_time() {
        let work = |n: usize| {
            let text = format!("a | x\n{}a\n", "x\n".repeat(n));
            let before = exactly::work::steps();
            let i = parse("d", &text, InputFormat::Dlx).unwrap();
            assert_eq!(i.positions, [n]);
            assert_eq!(i.warnings.len(), n);
            exactly::work::steps() - before
        };
        let (small, large) = (work(2000), work(20_000));
        assert!(large <= 12 * small, "{small} -> {large}");
    }

    #[test]
    fn matrix_records_are_lines() {
        let i = parse(
            "m",
            "\u{feff}3 2\r\n1 1\r\n0\r\n\r\n  1 2\r\n",
            InputFormat::Matrix,
        )
        .unwrap();
        assert_eq!(
            i.warnings,
            ["m:3:1: warning: option 2 has no primary item; dropped"]
        );
        assert_eq!(i.positions, [0, 2]);
        let e = err("2 3\n3 1 2\n3\n", InputFormat::Matrix);
        assert_eq!(
            e,
            "t.dlx:2:1: the row declares 3 ones, but its line holds 2 column numbers"
        );
    }

    #[test]
    fn bad_utf8_names_line_and_column() {
        let e = decode("f", b"ab\ncd\xff".to_vec()).unwrap_err();
        assert_eq!(e.to_string(), "f:2:3: invalid UTF-8: expected text");
        for (bytes, at) in [
            (&b"ab\rcd\xff"[..], "2:3"),
            (b"ab\r\ncd\r\n\xff", "3:1"),
            (b"ab\r\r\xff", "3:1"),
            (b"\xef\xbb\xbfab\xff", "1:3"),
            (b"\xef\xbb\xbf\xff", "1:1"),
            (b"\xff", "1:1"),
            (b"\n\xff", "2:1"),
        ] {
            let e = decode("f", bytes.to_vec()).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("f:{at}: invalid UTF-8: expected text")
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Arbitrary text never panics the reader, and whatever it accepts
        /// can be searched (under a small budget) without panicking.
        #[test]
        fn arbitrary_text_never_panics(
            text in "[ab12 |:x\n\t0-9]{0,80}",
            format in prop_oneof![
                Just(InputFormat::Auto),
                Just(InputFormat::Dlx),
                Just(InputFormat::Matrix),
            ],
        ) {
            if let Ok(input) = parse("p", &text, format) {
                prop_assert_eq!(input.positions.len(), input.problem.num_options());
                let limits = exactly::Limits::default().max_nodes(1000);
                let mut solver = exactly::Solver::new(&input.problem).limits(limits);
                let _ = solver.count();
            }
        }

        /// Texts built from plausible tokens parse often, and never panic.
        #[test]
        fn token_soup_never_panics(
            lines in proptest::collection::vec(
                proptest::collection::vec(
                    proptest::sample::select(vec!["a", "b", "c", "x", "x:1", "x:2", "|", "|3", "1", "2", "0"]),
                    0..6,
                ),
                0..8,
            ),
            format in prop_oneof![Just(InputFormat::Auto), Just(InputFormat::Dlx), Just(InputFormat::Matrix)],
        ) {
            let text: String = lines.iter().map(|l| l.join(" ") + "\n").collect();
            if let Ok(input) = parse("p", &text, format) {
                prop_assert_eq!(input.positions.len(), input.problem.num_options());
                prop_assert_eq!(input.warnings.len(), input.problem.warnings().len());
                for w in &input.warnings {
                    // Every warning names a line and column.
                    prop_assert!(w.starts_with("p:") && !w.starts_with("p: "), "{}", w);
                }
                let limits = exactly::Limits::default().max_nodes(1000);
                let mut solver = exactly::Solver::new(&input.problem).limits(limits);
                let _ = solver.count();
            }
        }

        /// Any bytes at all: decoding and parsing give an error or a problem.
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            if let Ok(text) = decode("p", bytes) {
                let _ = parse("p", &text, InputFormat::Auto);
            }
        }
    }
}
