//! Text formats: Knuth's DLX format (read and write) and the plain 0/1-matrix
//! format of the exact-cover contest problem HUST 1017 (read).
//!
//! # Knuth's DLX format
//!
//! ```text
//! | lines whose first non-blank character is '|' are comments
//! a b c | x y          <- items: primary, then a lone '|', then secondary
//! a b x:red            <- an option: item names; name:color colors a secondary item
//! c y |3               <- an option with cost 3 ('|n' tokens add up)
//! ```
//!
//! Names are non-empty runs of non-blank characters without `:` or `|`.
//! Blank lines are skipped. An option without a primary item is dropped with
//! a warning (the problem's [`warnings`](crate::Problem::warnings)).
//!
//! # HUST 1017 matrix format
//!
//! ```text
//! 2 3          <- N rows (options), M columns (items, all primary)
//! 2 1 3        <- each row: its number of ones, then their 1-based columns
//! 1 2
//! ```

use std::fmt;
use std::io::{self, Write};

use crate::problem::{is_valid_name, BuildError, ColorId, ItemKind, Problem, ProblemBuilder};

/// A parse error at a 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {kind}")]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What went wrong.
    pub kind: ParseErrorKind,
}

impl ParseError {
    /// Formats the error as `file:line:column: message`.
    ///
    /// ```
    /// let e = exactly::format::parse_dlx("a\nb\n").unwrap_err();
    /// assert_eq!(e.with_file("x.dlx").to_string(), "x.dlx:2:1: unknown item 'b'");
    /// ```
    pub fn with_file<'a>(&'a self, file: &'a str) -> impl fmt::Display + 'a {
        struct WithFile<'a>(&'a ParseError, &'a str);
        impl fmt::Display for WithFile<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}:{}", self.1, self.0)
            }
        }
        WithFile(self, file)
    }
}

/// The kinds of [`ParseError`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The input has no item line.
    #[error("expected a line of item names, found end of input")]
    NoItems,
    /// The item line has `|` twice.
    #[error("the item line has a second '|'")]
    SecondBar,
    /// A malformed name.
    #[error("bad name '{0}': expected a run of non-blank characters without ':' or '|'")]
    BadName(String),
    /// Malformed multiplicity bounds: `u|name` and `v:u|name` need decimal
    /// numbers with `v <= u` and `u >= 1`, and only primary items take them.
    #[error("bad multiplicity '{0}': expected 'u|name' or 'v:u|name' with 0 <= v <= u, u >= 1, on a primary item")]
    Multiplicity(String),
    /// A malformed cost token.
    #[error("bad cost '{0}': expected '|' followed by a non-negative integer")]
    BadCost(String),
    /// A malformed number.
    #[error("expected {expected}, found '{found}'")]
    Expected {
        /// What was expected.
        expected: &'static str,
        /// What was found (empty at end of line or input).
        found: String,
    },
    /// Trailing tokens.
    #[error("unexpected '{0}' after the end of the record")]
    Trailing(String),
    /// A column number out of range.
    #[error("column {column} is out of range 1..={columns}")]
    ColumnRange {
        /// The column given.
        column: u64,
        /// The number of columns in the header.
        columns: u64,
    },
    /// The header claims sizes the data does not back.
    #[error("the header claims {0}, more than this reader accepts")]
    TooLarge(String),
    /// The problem model rejected what was read.
    #[error("{0}")]
    Build(#[from] BuildError),
    /// A cost, or an option's costs added up, past `u64::MAX`.
    #[error("cost '{0}' takes the option's cost past the largest, 18446744073709551615")]
    CostTooLarge(String),
}

/// Largest column count accepted from a matrix header when the rows do not
/// mention that many columns.
const MAX_UNUSED_COLUMNS: u64 = 1 << 20;

/// Tokens of one line with their 1-based columns.
fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = line.char_indices().peekable();
    std::iter::from_fn(move || {
        while let Some(&(_, c)) = rest.peek() {
            if c.is_whitespace() {
                rest.next();
            } else {
                break;
            }
        }
        let &(start, _) = rest.peek()?;
        let mut end = line.len();
        while let Some(&(i, c)) = rest.peek() {
            if c.is_whitespace() {
                end = i;
                break;
            }
            rest.next();
        }
        let column = line[..start].chars().count() + 1;
        Some((column, &line[start..end]))
    })
}

fn is_comment_or_blank(line: &str) -> bool {
    let t = line.trim_start();
    t.is_empty() || t.starts_with('|')
}

/// Reads Knuth's DLX format. Each option's label is its line, trimmed.
///
/// ```
/// let p = exactly::format::parse_dlx("a b | x\na x:0\nb x:1\n")?;
/// assert_eq!((p.num_items(), p.num_primary(), p.num_options()), (3, 2, 2));
/// assert_eq!(p.label(exactly::OptionId::new(1)), "b x:1");
/// # Ok::<(), exactly::format::ParseError>(())
/// ```
pub fn parse_dlx(text: &str) -> Result<Problem<String>, ParseError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let mut b = ProblemBuilder::new();
    let err = |line, column, kind| ParseError { line, column, kind };
    // The item line.
    let (item_line_no, item_line) = loop {
        match lines.next() {
            None => {
                let last = text.lines().count().max(1);
                return Err(err(last, 1, ParseErrorKind::NoItems));
            }
            Some((n, l)) if !is_comment_or_blank(l) => break (n, l),
            Some(_) => {}
        }
    };
    let mut secondary = false;
    for (col, tok) in tokens(item_line) {
        if tok == "|" {
            if secondary {
                return Err(err(item_line_no, col, ParseErrorKind::SecondBar));
            }
            secondary = true;
            continue;
        }
        let (bounds, name) = match tok.rsplit_once('|') {
            Some((m, name)) if !secondary => (Some(parse_bounds(m, tok)), name),
            // Bounds on a secondary item.
            Some((m, name)) if is_valid_name(name) && parse_bounds(m, tok).is_ok() => {
                let kind = ParseErrorKind::Multiplicity(tok.to_string());
                return Err(err(item_line_no, col, kind));
            }
            _ => (None, tok),
        };
        if !is_valid_name(name) {
            return Err(err(
                item_line_no,
                col,
                ParseErrorKind::BadName(tok.to_string()),
            ));
        }
        if let Some(bounds) = bounds {
            let (min, max) = bounds.map_err(|kind| err(item_line_no, col, kind))?;
            b.primary_with_bounds(name, min, max)
                .map_err(|e| err(item_line_no, col, e.into()))?;
            continue;
        }
        let r = if secondary {
            b.secondary(tok)
        } else {
            b.primary(tok)
        };
        r.map_err(|e| err(item_line_no, col, e.into()))?;
    }
    // The options.
    let mut entries = Vec::new();
    for (n, line) in lines {
        if is_comment_or_blank(line) {
            continue;
        }
        entries.clear();
        let mut cost: u64 = 0;
        for (col, tok) in tokens(line) {
            if let Some(c) = tok.strip_prefix('|') {
                let too_large = || err(n, col, ParseErrorKind::CostTooLarge(tok.to_string()));
                let c: u64 = c.parse().map_err(|_| {
                    if !c.is_empty() && c.bytes().all(|b| b.is_ascii_digit()) {
                        too_large()
                    } else {
                        err(n, col, ParseErrorKind::BadCost(tok.to_string()))
                    }
                })?;
                cost = cost.checked_add(c).ok_or_else(too_large)?;
                continue;
            }
            let (name, color) = match tok.split_once(':') {
                Some((name, color)) => (name, Some(color)),
                None => (tok, None),
            };
            if !is_valid_name(name) {
                return Err(err(n, col, ParseErrorKind::BadName(tok.to_string())));
            }
            let item = b
                .item(name)
                .ok_or_else(|| err(n, col, BuildError::UnknownItem(name.to_string()).into()))?;
            let color = match color {
                None => ColorId::NONE,
                Some(c) => {
                    let color_col = col + name.chars().count() + 1;
                    if !is_valid_name(c) {
                        return Err(err(n, color_col, ParseErrorKind::BadName(c.to_string())));
                    }
                    b.color(c).map_err(|e| err(n, color_col, e.into()))?
                }
            };
            entries.push((col, item, color));
        }
        let label = line.trim().to_string();
        // Check entries one at a time so that an error names its column.
        let mut checked = Vec::with_capacity(entries.len());
        for (k, &(col, item, color)) in entries.iter().enumerate() {
            if entries[..k].iter().any(|&(_, it, _)| it == item) {
                let name = b.item_name(item).to_string();
                return Err(err(n, col, BuildError::RepeatedItem(name).into()));
            }
            checked.push((item, color));
        }
        if let Some(&(col, item, _)) = entries
            .iter()
            .find(|&&(_, item, color)| !color.is_none() && b.item_kind(item) == ItemKind::Primary)
        {
            let name = b.item_name(item).to_string();
            return Err(err(n, col, BuildError::ColorOnPrimary(name).into()));
        }
        b.add_option_with_cost(label, cost, checked)
            .map_err(|e| err(n, 1, e.into()))?;
    }
    b.build().map_err(|e| err(item_line_no, 1, e.into()))
}

/// Reads the `u` or `v:u` in front of `|name` on the item line.
fn parse_bounds(m: &str, tok: &str) -> Result<(u32, u32), ParseErrorKind> {
    let bad = || ParseErrorKind::Multiplicity(tok.to_string());
    let number = |d: &str| -> Result<u32, ParseErrorKind> {
        if d.is_empty() || !d.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        d.parse().map_err(|_| bad())
    };
    let (min, max) = match m.split_once(':') {
        Some((v, u)) => (number(v)?, number(u)?),
        None => {
            let u = number(m)?;
            (u, u)
        }
    };
    if min > max || max == 0 {
        return Err(bad());
    }
    Ok((min, max))
}

/// Writes a problem in Knuth's DLX format: one comment line, the item line,
/// then one line per option (with `|n` when the option has a cost). Primary
/// items with multiplicities are written `u|name` (exactly `u` times) or
/// `v:u|name`.
///
/// ```
/// let p = exactly::format::parse_dlx("a b | x\na x:0\nb\n")?;
/// let mut out = Vec::new();
/// exactly::format::write_dlx(&p, &mut out)?;
/// let text = String::from_utf8(out)?;
/// assert!(text.ends_with("a b | x\na x:0\nb\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_dlx<L>(problem: &Problem<L>, out: &mut impl Write) -> io::Result<()> {
    writeln!(
        out,
        "| {} items, {} options",
        problem.num_items(),
        problem.num_options()
    )?;
    let mut line = String::new();
    let names = |kind| {
        problem
            .item_ids()
            .filter(move |&i| problem.item_kind(i) == kind)
            .map(|i| problem.item_name(i))
    };
    for item in problem
        .item_ids()
        .filter(|&i| problem.item_kind(i) == ItemKind::Primary)
    {
        if !line.is_empty() {
            line.push(' ');
        }
        match problem.item_bounds(item) {
            (1, 1) => {}
            (min, max) if min == max => line.push_str(&format!("{max}|")),
            (min, max) => line.push_str(&format!("{min}:{max}|")),
        }
        line.push_str(problem.item_name(item));
    }
    let mut secondary = names(ItemKind::Secondary).peekable();
    if secondary.peek().is_some() {
        line.push_str(" |");
        for name in secondary {
            line.push(' ');
            line.push_str(name);
        }
    }
    writeln!(out, "{line}")?;
    for o in problem.option_ids() {
        let cost = problem.cost(o);
        if cost == 0 {
            writeln!(out, "{}", problem.option_text(o))?;
        } else {
            writeln!(out, "{} |{}", problem.option_text(o), cost)?;
        }
    }
    Ok(())
}

/// Reads the HUST 1017 matrix format. Items are named `1`..`M`; each option's
/// label is its line, trimmed.
///
/// ```
/// let p = exactly::format::parse_matrix("2 3\n2 1 3\n1 2\n")?;
/// assert_eq!((p.num_items(), p.num_options()), (3, 2));
/// # Ok::<(), exactly::format::ParseError>(())
/// ```
pub fn parse_matrix(text: &str) -> Result<Problem<String>, ParseError> {
    let mut toks = text
        .lines()
        .enumerate()
        .flat_map(|(i, l)| tokens(l).map(move |(c, t)| (i + 1, c, t)));
    let end = {
        let n = text.lines().count().max(1);
        let c = text.lines().last().map_or(0, |l| l.chars().count()) + 1;
        (n, c)
    };
    let mut number = |expected: &'static str| -> Result<(u64, usize, usize), ParseError> {
        match toks.next() {
            None => Err(ParseError {
                line: end.0,
                column: end.1,
                kind: ParseErrorKind::Expected {
                    expected,
                    found: String::new(),
                },
            }),
            Some((line, column, t)) => {
                t.parse::<u64>()
                    .map(|v| (v, line, column))
                    .map_err(|_| ParseError {
                        line,
                        column,
                        kind: ParseErrorKind::Expected {
                            expected,
                            found: t.to_string(),
                        },
                    })
            }
        }
    };
    let (rows, _, _) = number("the number of rows")?;
    let (columns, cl, cc) = number("the number of columns")?;
    let all_lines: Vec<&str> = text.lines().collect();
    let mut seen = std::collections::HashSet::new();
    let mut options: Vec<(String, Vec<u64>)> = Vec::new();
    for _ in 0..rows {
        let (count, line, _) = number("the number of ones in a row")?;
        let mut cols = Vec::new();
        for _ in 0..count {
            let (c, l, col) = number("a column number")?;
            if c == 0 || c > columns {
                return Err(ParseError {
                    line: l,
                    column: col,
                    kind: ParseErrorKind::ColumnRange { column: c, columns },
                });
            }
            if !seen.insert(c) {
                return Err(ParseError {
                    line: l,
                    column: col,
                    kind: BuildError::RepeatedItem(c.to_string()).into(),
                });
            }
            cols.push(c - 1);
        }
        seen.clear();
        let label = all_lines.get(line - 1).map_or("", |l| l.trim()).to_string();
        options.push((label, cols));
    }
    if let Some((line, column, t)) = toks.next() {
        return Err(ParseError {
            line,
            column,
            kind: ParseErrorKind::Trailing(t.to_string()),
        });
    }
    // Items are allocated only as far as the data backs them: at most one per
    // entry read, or a modest number of columns no row mentions.
    let entries: u64 = options.iter().map(|(_, c)| c.len() as u64).sum();
    if columns > entries.max(MAX_UNUSED_COLUMNS) || columns > u64::from(u32::MAX) {
        return Err(ParseError {
            line: cl,
            column: cc,
            kind: ParseErrorKind::TooLarge(format!("{columns} columns")),
        });
    }
    let mut b = ProblemBuilder::new();
    for j in 1..=columns {
        b.primary(&j.to_string()).map_err(|e| ParseError {
            line: cl,
            column: cc,
            kind: e.into(),
        })?;
    }
    for (label, cols) in options {
        // In range: every column is below `columns`, which fits in u32.
        let items = cols
            .into_iter()
            .map(|c| (crate::ItemId(c as u32), ColorId::NONE));
        b.add_option(label, items).map_err(|e| ParseError {
            line: cl,
            column: cc,
            kind: e.into(),
        })?;
    }
    b.build().map_err(|e| ParseError {
        line: cl,
        column: cc,
        kind: e.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> (usize, usize, ParseErrorKind) {
        let e = parse_dlx(text).unwrap_err();
        (e.line, e.column, e.kind)
    }

    #[test]
    fn dlx_errors_name_line_and_column() {
        assert_eq!(kind(""), (1, 1, ParseErrorKind::NoItems));
        assert_eq!(kind("| only\n\n"), (2, 1, ParseErrorKind::NoItems));
        assert_eq!(kind("a | b | c\n"), (1, 7, ParseErrorKind::SecondBar));
        assert_eq!(
            kind("a a\n"),
            (1, 3, BuildError::DuplicateItem("a".into()).into())
        );
        assert_eq!(
            kind("a b\na  c\n"),
            (2, 4, BuildError::UnknownItem("c".into()).into())
        );
        assert_eq!(
            kind("a b\nb a b\n"),
            (2, 5, BuildError::RepeatedItem("b".into()).into())
        );
        assert_eq!(
            kind("a | x\na:1\n"),
            (2, 1, BuildError::ColorOnPrimary("a".into()).into())
        );
        assert_eq!(
            kind("a | x\na x:\n"),
            (2, 5, ParseErrorKind::BadName(String::new()))
        );
        assert_eq!(
            kind("a x|b\n"),
            (1, 3, ParseErrorKind::Multiplicity("x|b".into()))
        );
        assert_eq!(
            kind("a 3:2|b\n"),
            (1, 3, ParseErrorKind::Multiplicity("3:2|b".into()))
        );
        assert_eq!(
            kind("a 0|b\n"),
            (1, 3, ParseErrorKind::Multiplicity("0|b".into()))
        );
        assert_eq!(
            kind("a 1:|b\n"),
            (1, 3, ParseErrorKind::Multiplicity("1:|b".into()))
        );
        assert_eq!(
            kind("a 99999999999|b\n"),
            (1, 3, ParseErrorKind::Multiplicity("99999999999|b".into()))
        );
        assert_eq!(
            kind("a 2| b\n"),
            (1, 3, ParseErrorKind::BadName("2|".into()))
        );
        assert_eq!(
            kind("a | 2|x\n"),
            (1, 5, ParseErrorKind::Multiplicity("2|x".into()))
        );
        assert_eq!(
            kind("a | y|x\n"),
            (1, 5, ParseErrorKind::BadName("y|x".into()))
        );
        assert_eq!(
            kind("2|a 1:3|a\n"),
            (1, 5, BuildError::DuplicateItem("a".into()).into())
        );
        assert_eq!(
            kind("a\na |x\n"),
            (2, 3, ParseErrorKind::BadCost("|x".into()))
        );
    }

    #[test]
    fn dlx_reads_comments_colors_costs_and_drops() {
        let p = parse_dlx("| c\n  | c2\na b | x y\n\na x:r |2 |3\nx y\nb y:g\n").unwrap();
        assert_eq!(p.num_options(), 2);
        assert_eq!(p.warnings().len(), 1);
        assert_eq!(p.cost(crate::OptionId::new(0)), 5);
        assert_eq!(p.label(crate::OptionId::new(1)), "b y:g");
        let mut out = Vec::new();
        write_dlx(&p, &mut out).unwrap();
        let again = parse_dlx(std::str::from_utf8(&out).unwrap()).unwrap();
        assert_eq!(again.num_options(), 2);
        assert_eq!(again.cost(crate::OptionId::new(0)), 5);
        assert_eq!(again.option_text(crate::OptionId::new(0)), "a x:r");
    }

    #[test]
    fn dlx_reads_and_writes_multiplicities() {
        let p = parse_dlx("2|a 0:3|b c | x\na b\nb c x\n").unwrap();
        let bounds: Vec<_> = p.item_ids().map(|i| p.item_bounds(i)).collect();
        assert_eq!(bounds, [(2, 2), (0, 3), (1, 1), (0, 1)]);
        assert!(p.has_multiplicities());
        let mut out = Vec::new();
        write_dlx(&p, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\n2|a 0:3|b c | x\n"), "{text}");
        let again = parse_dlx(&text).unwrap();
        let again_bounds: Vec<_> = again.item_ids().map(|i| again.item_bounds(i)).collect();
        assert_eq!(again_bounds, bounds);
    }

    #[test]
    fn matrix_errors_and_huge_headers() {
        let e = parse_matrix("2 3\n2 1 3\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 6));
        assert!(matches!(e.kind, ParseErrorKind::Expected { .. }));
        let e = parse_matrix("1 3\n1 4\n").unwrap_err();
        assert_eq!(
            (e.line, e.column, e.kind),
            (
                2,
                3,
                ParseErrorKind::ColumnRange {
                    column: 4,
                    columns: 3
                }
            )
        );
        let e = parse_matrix("1 99999999999\n1 1\n").unwrap_err();
        assert!(matches!(e.kind, ParseErrorKind::TooLarge(_)));
        let e = parse_matrix("1 4294967297\n1 4294967297").unwrap_err();
        assert!(matches!(e.kind, ParseErrorKind::TooLarge(_)));
        let e = parse_matrix("18446744073709551615 3\n").unwrap_err();
        assert!(matches!(e.kind, ParseErrorKind::Expected { .. }));
        let e = parse_matrix("1 3\n1 1 2\n").unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::Trailing("2".into()));
        let e = parse_matrix("x 3\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
    }
}
