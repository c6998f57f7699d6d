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

use std::borrow::Cow;
use std::fmt;
use std::io::{self, Write};

use crate::problem::{is_valid_name, BuildError, ColorId, ItemKind, Problem, ProblemBuilder};
use crate::work;

/// A parse error at a 1-based line and column: the one error type of every
/// text reader (the DLX and matrix formats here, plan, result and
/// checkpoint files in [`crate::records`], and the front ends' puzzle
/// texts).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", Located(self, None))]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column (in characters); 0 when the error is about the line
    /// (or the record it holds) as a whole.
    pub column: usize,
    /// What went wrong.
    pub kind: ParseErrorKind,
}

/// `line:column: kind`, after `file:` when there is a file; `line: kind`
/// for an error about a whole line.
struct Located<'a>(&'a ParseError, Option<&'a str>);

impl fmt::Display for Located<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ParseError { line, column, kind } = self.0;
        if let Some(file) = self.1 {
            write!(f, "{file}:")?;
        }
        match column {
            0 => write!(f, "{line}: {kind}"),
            column => write!(f, "{line}:{column}: {kind}"),
        }
    }
}

impl ParseError {
    /// An error of `kind` at `line` and `column` (0 for the whole line).
    pub fn new(line: usize, column: usize, kind: ParseErrorKind) -> ParseError {
        ParseError { line, column, kind }
    }

    /// A broken rule of a format, said in `message`
    /// ([`ParseErrorKind::Invalid`]).
    ///
    /// ```
    /// let e = exactly::format::ParseError::invalid(3, 0, "a record of 80 cells");
    /// assert_eq!(e.to_string(), "3: a record of 80 cells");
    /// assert_eq!(e.in_words().to_string(), "line 3: a record of 80 cells");
    /// ```
    pub fn invalid(line: usize, column: usize, message: impl Into<String>) -> ParseError {
        ParseError::new(line, column, ParseErrorKind::Invalid(message.into()))
    }

    /// Formats the error as `file:line:column: message`.
    ///
    /// ```
    /// let e = exactly::format::parse_dlx("a\nb\n").unwrap_err();
    /// assert_eq!(e.with_file("x.dlx").to_string(), "x.dlx:2:1: unknown item 'b'");
    /// ```
    pub fn with_file<'a>(&'a self, file: &'a str) -> impl fmt::Display + 'a {
        Located(self, Some(file))
    }

    /// Formats the error as `line L, column C: message` (or `line L:
    /// message` for a whole line), the form of the sudoku verdicts.
    ///
    /// ```
    /// let e = exactly::format::parse_dlx("a\nb\n").unwrap_err();
    /// assert_eq!(e.in_words().to_string(), "line 2, column 1: unknown item 'b'");
    /// ```
    pub fn in_words(&self) -> impl fmt::Display + '_ {
        struct InWords<'a>(&'a ParseError);
        impl fmt::Display for InWords<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let ParseError { line, column, kind } = self.0;
                match column {
                    0 => write!(f, "line {line}: {kind}"),
                    column => write!(f, "line {line}, column {column}: {kind}"),
                }
            }
        }
        InWords(self)
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
    #[error("bad name '{}': expected a run of non-blank characters without ':' or '|'", escape(.0))]
    BadName(String),
    /// Malformed multiplicity bounds: `u|name` and `v:u|name` need decimal
    /// numbers with `v <= u` and `u >= 1`, and only primary items take them.
    #[error("bad multiplicity '{}': expected 'u|name' or 'v:u|name' with 0 <= v <= u, u >= 1, on a primary item", escape(.0))]
    Multiplicity(String),
    /// A malformed cost token.
    #[error("bad cost '{}': expected '|' followed by a non-negative integer", escape(.0))]
    BadCost(String),
    /// Something other than what the format has there: a malformed
    /// number, word or line.
    #[error("expected {expected}, found {}", found_text(found))]
    Expected {
        /// What was expected.
        expected: Cow<'static, str>,
        /// What was found (empty at end of line or input).
        found: String,
    },
    /// Trailing tokens.
    #[error("unexpected '{}' after the end of the record", escape(.0))]
    Trailing(String),
    /// A column number out of range.
    #[error("column {column} is out of range 1..={columns}")]
    ColumnRange {
        /// The column given.
        column: u64,
        /// The number of columns in the header.
        columns: u64,
    },
    /// A matrix row whose line does not hold the number of column numbers
    /// it declares.
    #[error("the row declares {declared} ones, but its line holds {found} column numbers")]
    RowLength {
        /// The number of ones the row declares.
        declared: u64,
        /// The column numbers on its line.
        found: u64,
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
    /// A line of a record file whose checksum does not match its fields
    /// (the column is the checksum's).
    #[error("the line is damaged: its checksum does not match its fields")]
    Checksum,
    /// A rule of a format broken (a polyomino picture, a plan's
    /// subproblems out of order, say): the message names it.
    #[error("{0}")]
    Invalid(String),
}

/// What an [`ParseErrorKind::Expected`] error found: the token (its first
/// [`FOUND_CHARS`] characters), quoted and escaped, or `nothing` at the end
/// of a line or of the input.
fn found_text(found: &str) -> String {
    match found.is_empty() {
        true => "nothing".to_string(),
        false => format!("'{}'", shown(found)),
    }
}

/// Input text as error messages quote it: escaped ([`escape`]), and cut
/// after [`FOUND_CHARS`] characters with `...`.
pub(crate) fn shown(found: &str) -> String {
    match found.char_indices().nth(FOUND_CHARS) {
        Some((cut, _)) => format!("{}...", escape(&found[..cut])),
        None => escape(found).to_string(),
    }
}

/// The most characters of what was found that an error message shows.
const FOUND_CHARS: usize = 60;

/// Largest column count accepted from a matrix header when the rows do not
/// mention that many columns (a column no row names has no cover, so such
/// a problem has no solution): 65,536 columns take a few megabytes, where
/// 2^20 took 64 MB and about a second from a header of a few bytes.
const MAX_UNUSED_COLUMNS: u64 = 1 << 16;

/// The lines of a text, as every reader here sees them: a line ends at `\n`,
/// `\r\n` or a lone `\r` (old Mac files), and a UTF-8 byte-order mark at the
/// start is skipped. Like [`str::lines`], a final line end does not start
/// another line.
///
/// ```
/// let l: Vec<_> = exactly::format::lines("\u{feff}a\r\nb\rc\n\nd").collect();
/// assert_eq!(l, ["a", "b", "c", "", "d"]);
/// ```
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text.strip_prefix('\u{feff}').unwrap_or(text);
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let (line, next) = match rest.find(['\n', '\r']) {
            None => (rest, ""),
            Some(i) => {
                let end = if rest[i..].starts_with("\r\n") {
                    i + 2
                } else {
                    i + 1
                };
                (&rest[..i], &rest[end..])
            }
        };
        work::add((rest.len() - next.len()) as u64);
        rest = next;
        Some(line)
    })
}

/// The blank-separated tokens of one line with their 1-based columns (in
/// characters), in one pass over the line.
///
/// ```
/// let t: Vec<_> = exactly::format::tokens("  ab\tc  é d ").collect();
/// assert_eq!(t, [(3, "ab"), (6, "c"), (9, "é"), (11, "d")]);
/// ```
pub fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> + '_ {
    tokens_by(line, char::is_whitespace)
}

/// The tokens of one line between the characters `is_blank` accepts, with
/// their 1-based columns (in characters): [`tokens`] splits at whitespace,
/// record files at single spaces, sudoku rows at whitespace and `|`.
///
/// ```
/// let t: Vec<_> = exactly::format::tokens_by("a\tb c", |c| c == ' ').collect();
/// assert_eq!(t, [(1, "a\tb"), (5, "c")]);
/// ```
pub fn tokens_by<'a>(
    line: &'a str,
    is_blank: impl Fn(char) -> bool + 'a,
) -> impl Iterator<Item = (usize, &'a str)> + 'a {
    let mut column = 0;
    let mut counted = 0;
    let mut start: Option<(usize, usize)> = None;
    let mut chars = line.char_indices();
    std::iter::from_fn(move || loop {
        match chars.next() {
            Some((i, c)) => {
                column += 1;
                match (is_blank(c), start) {
                    (false, None) => start = Some((i, column)),
                    (true, Some((s, col))) => {
                        start = None;
                        work::add((column - counted) as u64);
                        counted = column;
                        return Some((col, &line[s..i]));
                    }
                    _ => {}
                }
            }
            None => {
                work::add((column - counted) as u64);
                counted = column;
                let (s, col) = start.take()?;
                return Some((col, &line[s..]));
            }
        }
    })
}

/// Shows a name or a line from the input inside a message: control
/// characters (escape, NUL, backspace...) and the bidirectional overrides
/// are written as escapes such as `\u{1b}`, so that a message never sends
/// them raw to a terminal.
///
/// ```
/// assert_eq!(exactly::format::escape("a\u{1b}[2Jb").to_string(), "a\\u{1b}[2Jb");
/// assert_eq!(exactly::format::escape("r1c1").to_string(), "r1c1");
/// ```
pub fn escape(text: &str) -> Escaped<'_> {
    Escaped(text)
}

/// Text shown with its control characters escaped: see [`escape`].
#[derive(Clone, Copy, Debug)]
pub struct Escaped<'a>(&'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unsafe_char = |c: char| {
            c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        };
        let mut rest = self.0;
        while let Some(i) = rest.find(unsafe_char) {
            f.write_str(&rest[..i])?;
            let c = rest[i..].chars().next().unwrap_or_default();
            write!(f, "{}", c.escape_default())?;
            rest = &rest[i + c.len_utf8()..];
        }
        f.write_str(rest)
    }
}

/// True for a line the DLX reader skips: blank, or a comment (its first
/// non-blank character is `|`).
///
/// ```
/// use exactly::format::is_comment_or_blank;
/// assert!(is_comment_or_blank("  | a comment") && is_comment_or_blank(" \t"));
/// assert!(!is_comment_or_blank("a | b"));
/// ```
pub fn is_comment_or_blank(line: &str) -> bool {
    let t = line.trim_start();
    t.is_empty() || t.starts_with('|')
}

/// Reads Knuth's DLX format. Each option's label is its line, trimmed.
///
/// Lines may end in `\n`, `\r\n` or `\r`, and a byte-order mark at the start
/// is skipped (see [`lines`]). Reading takes time linear in the text.
///
/// ```
/// let p = exactly::format::parse_dlx("a b | x\na x:0\nb x:1\n")?;
/// assert_eq!((p.num_items(), p.num_primary(), p.num_options()), (3, 2, 2));
/// assert_eq!(p.label(exactly::OptionId::new(1)), "b x:1");
/// # Ok::<(), exactly::format::ParseError>(())
/// ```
pub fn parse_dlx(text: &str) -> Result<Problem<String>, ParseError> {
    let mut lines = lines(text).enumerate().map(|(i, l)| (i + 1, l));
    let mut b = ProblemBuilder::new();
    let err = |line, column, kind| ParseError { line, column, kind };
    // The item line.
    let mut last = 1;
    let (item_line_no, item_line) = loop {
        match lines.next() {
            None => return Err(err(last, 1, ParseErrorKind::NoItems)),
            Some((n, l)) if !is_comment_or_blank(l) => break (n, l),
            Some((n, _)) => last = n,
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
    // The options. `seen[i]` is the number of the last option line that
    // named item `i`, so a repeated item is found in constant time.
    let mut seen = vec![0usize; b.num_items()];
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
            if std::mem::replace(&mut seen[item.index()], n) == n {
                return Err(err(
                    n,
                    col,
                    BuildError::RepeatedItem(name.to_string()).into(),
                ));
            }
            let color = match color {
                None => ColorId::NONE,
                Some(_) if b.item_kind(item) == ItemKind::Primary => {
                    let name = name.to_string();
                    return Err(err(n, col, BuildError::ColorOnPrimary(name).into()));
                }
                Some(c) => {
                    let color_col = col + name.chars().count() + 1;
                    if !is_valid_name(c) {
                        return Err(err(n, color_col, ParseErrorKind::BadName(c.to_string())));
                    }
                    b.color(c).map_err(|e| err(n, color_col, e.into()))?
                }
            };
            entries.push((item, color));
        }
        work::add(entries.len() as u64);
        let label = line.trim().to_string();
        let kept = b
            .add_option_with_cost(label, cost, entries.iter().copied())
            .map_err(|e| err(n, 1, e.into()))?;
        if kept.is_none() {
            let column = line.chars().take_while(|c| c.is_whitespace()).count() + 1;
            b.place_last_warning((n, column));
        }
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

/// Reads the HUST 1017 matrix format. Items are named `1`..`M`.
///
/// The header is the first non-blank line, `N M`; each row is the next
/// non-blank line, `k c1 ... ck`, and must hold exactly the `k` column
/// numbers it declares (a row never continues on another line). Lines end as
/// [`lines`] says. Each option's label is its line, trimmed; a row whose line
/// repeats an earlier row's gets ` | line L` appended, so that every label
/// is unique.
///
/// ```
/// let p = exactly::format::parse_matrix("2 3\n2 1 3\n1 2\n")?;
/// assert_eq!((p.num_items(), p.num_options()), (3, 2));
/// let e = exactly::format::parse_matrix("2 3\n2 1 3 2\n1 2\n").unwrap_err();
/// assert_eq!((e.line, e.column), (2, 7));
/// # Ok::<(), exactly::format::ParseError>(())
/// ```
pub fn parse_matrix(text: &str) -> Result<Problem<String>, ParseError> {
    let err = |line, column, kind| ParseError { line, column, kind };
    let expected = |expected: &'static str, found: &str| ParseErrorKind::Expected {
        expected: expected.into(),
        found: found.to_string(),
    };
    let number = |(column, t): (usize, &str), line, what| -> Result<u64, ParseError> {
        t.parse::<u64>()
            .map_err(|_| err(line, column, expected(what, t)))
    };
    let end = lines(text)
        .enumerate()
        .last()
        .map_or((1, 1), |(i, l)| (i + 1, l.chars().count() + 1));
    let mut lines = lines(text).enumerate().map(|(i, l)| (i + 1, l));
    let mut next_record = || lines.find(|(_, l)| !l.trim().is_empty());
    // The header.
    let Some((hn, header)) = next_record() else {
        return Err(err(1, 1, expected("the number of rows", "")));
    };
    let mut toks = tokens(header);
    let rows = number(toks.next().unwrap_or_default(), hn, "the number of rows")?;
    let Some((cc, ct)) = toks.next() else {
        let column = header.trim_end().chars().count() + 1;
        return Err(err(hn, column, expected("the number of columns", "")));
    };
    let columns = number((cc, ct), hn, "the number of columns")?;
    if let Some((column, t)) = toks.next() {
        return Err(err(hn, column, ParseErrorKind::Trailing(t.to_string())));
    }
    // Columns are allocated only as far as the data could back them: at most
    // one per token of the input, or a modest number no row mentions.
    let too_large = || {
        err(
            hn,
            cc,
            ParseErrorKind::TooLarge(format!("{columns} columns")),
        )
    };
    if columns > u64::from(u32::MAX) {
        return Err(too_large());
    }
    if columns > MAX_UNUSED_COLUMNS && columns > text.split_whitespace().count() as u64 {
        return Err(too_large());
    }
    // `seen[c]` is the last row that named column `c`.
    let mut seen = vec![0u64; columns as usize];
    let mut labels = std::collections::HashSet::new();
    // Each row: its label, its columns, and where it starts.
    let mut options: Vec<(String, Vec<u32>, (usize, usize))> = Vec::new();
    let mut entries: u64 = 0;
    for row in 1..=rows {
        let Some((n, line)) = next_record() else {
            let (line, column) = end;
            return Err(err(
                line,
                column,
                expected("the number of ones in a row", ""),
            ));
        };
        let mut toks = tokens(line);
        let first = toks.next().unwrap_or_default();
        let count = number(first, n, "the number of ones in a row")?;
        let mut cols = Vec::new();
        while let Some((column, t)) = toks.next() {
            if cols.len() as u64 == count {
                let found = count + 1 + toks.count() as u64;
                let kind = ParseErrorKind::RowLength {
                    declared: count,
                    found,
                };
                return Err(err(n, column, kind));
            }
            let c = number((column, t), n, "a column number")?;
            if c == 0 || c > columns {
                let kind = ParseErrorKind::ColumnRange { column: c, columns };
                return Err(err(n, column, kind));
            }
            if std::mem::replace(&mut seen[c as usize - 1], row) == row {
                let kind = BuildError::RepeatedItem(c.to_string()).into();
                return Err(err(n, column, kind));
            }
            // In range: `c <= columns <= u32::MAX`.
            cols.push((c - 1) as u32);
        }
        if (cols.len() as u64) < count {
            let kind = ParseErrorKind::RowLength {
                declared: count,
                found: cols.len() as u64,
            };
            return Err(err(n, first.0, kind));
        }
        work::add(cols.len() as u64 + 1);
        entries += cols.len() as u64;
        let text = line.trim();
        let label = if labels.insert(text) {
            text.to_string()
        } else {
            format!("{text} | line {n}")
        };
        options.push((label, cols, (n, first.0)));
    }
    if let Some((n, line)) = next_record() {
        let (column, t) = tokens(line).next().unwrap_or_default();
        return Err(err(n, column, ParseErrorKind::Trailing(t.to_string())));
    }
    if columns > entries.max(MAX_UNUSED_COLUMNS) {
        return Err(too_large());
    }
    let mut b = ProblemBuilder::new();
    let build = |e: BuildError| err(hn, cc, e.into());
    b.reserve(columns as usize, options.len(), entries as usize);
    for j in 1..=columns {
        b.primary(&j.to_string()).map_err(build)?;
    }
    for (label, cols, start) in options {
        let items = cols.into_iter().map(|c| (crate::ItemId(c), ColorId::NONE));
        if b.add_option(label, items).map_err(build)?.is_none() {
            b.place_last_warning(start);
        }
    }
    b.build().map_err(build)
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
        let p = parse_dlx("| c\n  | c2\na b | x y\n\na x:r |2 |3\n  x y\nb y:g\n").unwrap();
        assert_eq!(p.num_options(), 2);
        // The dropped option is the second added, read at line 6, column 3.
        assert_eq!(
            p.warnings(),
            [crate::Warning::OptionWithoutPrimary {
                position: 1,
                at: Some((6, 3))
            }]
        );
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
        assert_eq!(
            (e.line, e.column, e.kind),
            (
                2,
                5,
                ParseErrorKind::RowLength {
                    declared: 1,
                    found: 2
                }
            )
        );
        let e = parse_matrix("1 3\n1 1\n2\n").unwrap_err();
        assert_eq!(
            (e.line, e.column, e.kind),
            (3, 1, ParseErrorKind::Trailing("2".into()))
        );
        let e = parse_matrix("x 3\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
        // Columns no row names: up to 2^16, not one more.
        assert_eq!(parse_matrix("0 65536\n").unwrap().num_items(), 65536);
        let e = parse_matrix("0 65537\n").unwrap_err();
        assert_eq!(
            (e.line, e.column, e.kind),
            (1, 3, ParseErrorKind::TooLarge("65537 columns".into()))
        );
    }

    #[test]
    fn matrix_warnings_name_the_dropped_row() {
        // A row of no ones covers no column: dropped, and the warning says
        // where it starts.
        let p = parse_matrix("3 2\n2 1 2\n\n   0\n1 1\n").unwrap();
        assert_eq!(p.num_options(), 2);
        assert_eq!(
            p.warnings(),
            [crate::Warning::OptionWithoutPrimary {
                position: 1,
                at: Some((4, 4))
            }]
        );
    }

    #[test]
    fn matrix_rows_are_lines() {
        // A row that declares more ones than its line holds is not continued
        // on the next line: the error names the row's count.
        let e = parse_matrix("2 3\n3 1 2\n3\n").unwrap_err();
        assert_eq!(
            (e.line, e.column, e.kind),
            (
                2,
                1,
                ParseErrorKind::RowLength {
                    declared: 3,
                    found: 2
                }
            )
        );
        // Nor are two rows read from one line.
        let e = parse_matrix("2 3\n1 1 1 2\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 5));
        assert_eq!(
            e.to_string(),
            "2:5: the row declares 1 ones, but its line holds 3 column numbers"
        );
        // The header is one line too.
        let e = parse_matrix("2\n3\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 2));
        assert_eq!(
            e.to_string(),
            "1:2: expected the number of columns, found nothing"
        );
        let e = parse_matrix("1 2 3\n1 1\n").unwrap_err();
        assert_eq!(
            (e.line, e.column, e.kind),
            (1, 5, ParseErrorKind::Trailing("3".into()))
        );
        // Blank lines between rows are skipped.
        let p = parse_matrix("\n2 2\n\n1 1\n\n1 2\n\n").unwrap();
        assert_eq!(p.num_options(), 2);
    }

    #[test]
    fn matrix_labels_are_unique() {
        let p = parse_matrix("4 2\n1 1\n1  1\n1 1\n 1 1 \n").unwrap();
        let labels: Vec<_> = p.labels().to_vec();
        assert_eq!(labels, ["1 1", "1  1", "1 1 | line 4", "1 1 | line 5"]);
    }

    #[test]
    fn line_ends_and_byte_order_marks() {
        let lf = parse_dlx("a b\na\nb\n").unwrap();
        for text in [
            "\u{feff}a b\na\nb\n",
            "a b\r\na\r\nb\r\n",
            "a b\ra\rb\r",
            "a b\ra\r\nb",
        ] {
            let p = parse_dlx(text).unwrap();
            assert_eq!(p.num_options(), lf.num_options(), "{text:?}");
            assert_eq!(p.labels(), lf.labels(), "{text:?}");
        }
        // Columns after a byte-order mark count from the first character.
        let e = parse_dlx("\u{feff}a\rb\r").unwrap_err();
        assert_eq!((e.line, e.column), (2, 1));
        let e = parse_dlx("\u{feff}| c\r\r").unwrap_err();
        assert_eq!((e.line, e.column, e.kind), (2, 1, ParseErrorKind::NoItems));
        let p = parse_matrix("\u{feff}2 2\r1 1\r1 2\r").unwrap();
        assert_eq!(p.num_options(), 2);
        assert_eq!(lines("").count(), 0);
        assert_eq!(lines("\n").collect::<Vec<_>>(), [""]);
    }

    #[test]
    fn control_characters_are_escaped_in_messages() {
        let e = parse_dlx("a\x1b[31m b\nc\x07\n").unwrap_err();
        assert_eq!(e.to_string(), "2:1: unknown item 'c\\u{7}'");
        // The escape byte is part of a name; only the display is escaped.
        assert!(parse_dlx("a\x1b\na\x1b\n").is_ok());
        let e = parse_dlx("a\x1b a\x1b\n").unwrap_err();
        assert_eq!(e.to_string(), "1:4: duplicate item name 'a\\u{1b}'");
        let e = parse_dlx("a\n\u{202e}b\n").unwrap_err();
        assert_eq!(e.to_string(), "2:1: unknown item '\\u{202e}b'");
        let e = parse_dlx("a | x\na \x00\n").unwrap_err();
        assert!(e.to_string().contains("'\\u{0}'"), "{e}");
        let e = parse_matrix("1 2\n1 \x1b\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "2:3: expected a column number, found '\\u{1b}'"
        );
        for e in [
            BuildError::BadColorName("\x1b".into()).to_string(),
            BuildError::RepeatedItem("\x1b".into()).to_string(),
            BuildError::ColorOnPrimary("\x1b".into()).to_string(),
            BuildError::BadItemName("\x1b".into()).to_string(),
            ParseErrorKind::Multiplicity("\x1b".into()).to_string(),
            ParseErrorKind::BadCost("\x1b".into()).to_string(),
            ParseErrorKind::Trailing("\x1b".into()).to_string(),
            crate::VerifyError::ColorClash {
                item: "\x1b".into(),
                first: 0,
                second: 1,
            }
            .to_string(),
        ] {
            assert!(!e.contains('\x1b') && e.contains("\\u{1b}"), "{e}");
        }
    }

    #[test]
    fn repeated_items_are_found_in_any_order() {
        assert_eq!(
            kind("a b c\na b c a\n"),
            (2, 7, BuildError::RepeatedItem("a".into()).into())
        );
        // Each option line is checked on its own.
        assert!(parse_dlx("2|a b\na b\na b\n").is_ok());
    }
}
