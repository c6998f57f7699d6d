//! Reading and writing puzzles as text.

use super::{Grid, Regions, Rules, Shape, SudokuError};

/// How a record lays its cells out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// All cells on one line.
    Line,
    /// One line per row, cells side by side.
    Grid,
    /// One line per row, cells separated by spaces.
    SpacedGrid,
}

/// How a record writes the values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symbols {
    /// `1`…`9`, then `A`…`Z` (any case) up to 35 symbols; beyond, `a`…`z`
    /// and `@ $ %` follow, case-sensitive. `0` is an empty cell.
    Digits {
        /// Letters written in lower case.
        lower: bool,
    },
    /// `0`…`9`, then `a`…`z` (any case): value 1 is `0` (16×16 puzzles in
    /// hexadecimal). Only when another empty mark is present, or for a grid
    /// that `Digits` cannot read.
    ZeroBased {
        /// Letters written in upper case.
        upper: bool,
    },
    /// `A`, `B`, … (any case): value 1 is `A` (16×16 `A`…`P`, 25×25 `A`…`Y`).
    Letters {
        /// Letters written in lower case.
        lower: bool,
    },
    /// Decimal numbers separated by whitespace, `0` empty.
    Numbers,
}

/// The style of a record: written back the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Style {
    /// Where the cells go.
    pub layout: Layout,
    /// How values are written.
    pub symbols: Symbols,
}

/// A puzzle read from text, with the style to answer in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The givens.
    pub grid: Grid,
    /// How the input wrote it.
    pub style: Style,
    /// The puzzle's own regions, replacing the boxes ([`parse_jigsaw`]).
    pub regions: Option<Regions>,
}

/// One record of a batch: a puzzle, or why its text is not one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The 1-based line where the record starts.
    pub line: usize,
    /// The puzzle, or the error.
    pub puzzle: Result<Puzzle, SudokuError>,
}

const DIGITS_UPPER: &[u8] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS_WIDE: &[u8] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@$%";
const ZERO_BASED: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
const LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// Characters that mark an empty cell (`0` too, unless it is a symbol).
fn is_empty_mark(c: char) -> bool {
    matches!(c, '.' | '-' | '_')
}

impl Symbols {
    /// The value of a character, `Some(0)` for an empty cell, `None` when
    /// the character is not a symbol of an `n`-symbol alphabet.
    fn value(self, c: char, n: usize) -> Option<u8> {
        if is_empty_mark(c) {
            return Some(0);
        }
        let c = u8::try_from(c).ok()?;
        let pos = match self {
            Symbols::Digits { .. } if c == b'0' => return Some(0),
            Symbols::Digits { .. } if n > 35 => DIGITS_WIDE.iter().position(|&d| d == c)?,
            Symbols::Digits { .. } => DIGITS_UPPER
                .iter()
                .position(|&d| d == c.to_ascii_uppercase())?,
            Symbols::ZeroBased { .. } => ZERO_BASED
                .iter()
                .position(|&d| d == c.to_ascii_lowercase())?,
            Symbols::Letters { .. } => LETTERS.iter().position(|&d| d == c.to_ascii_uppercase())?,
            Symbols::Numbers => return None,
        };
        (pos < n).then_some(pos as u8 + 1)
    }

    /// How value `v` (1-based) is written.
    fn write(self, v: u8, n: usize, out: &mut String) {
        let i = usize::from(v) - 1;
        let c = match self {
            Symbols::Digits { .. } if n > 35 => DIGITS_WIDE[i],
            Symbols::Digits { lower } => case(DIGITS_UPPER[i], lower),
            Symbols::ZeroBased { upper } => case(ZERO_BASED[i], !upper),
            Symbols::Letters { lower } => case(LETTERS[i], lower),
            Symbols::Numbers => {
                out.push_str(&v.to_string());
                return;
            }
        };
        out.push(char::from(c));
    }
}

fn case(c: u8, lower: bool) -> u8 {
    if lower {
        c.to_ascii_lowercase()
    } else {
        c.to_ascii_uppercase()
    }
}

impl Style {
    /// Writes a grid in this style: one line (with a newline) for
    /// [`Layout::Line`], `n` lines otherwise. Empty cells are written `.`
    /// (`0` for [`Symbols::Numbers`]).
    ///
    /// ```
    /// use exactly_puzzles::sudoku::{Grid, Layout, Shape, Style, Symbols};
    /// let grid = Grid::from_cells(Shape::new(1, 2)?, vec![1, 2, 2, 0])?;
    /// let style = Style { layout: Layout::Line, symbols: Symbols::Letters { lower: false } };
    /// assert_eq!(style.format(&grid), "ABB.\n");
    /// let style = Style { layout: Layout::SpacedGrid, symbols: Symbols::Numbers };
    /// assert_eq!(style.format(&grid), "1 2\n2 0\n");
    /// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
    /// ```
    pub fn format(&self, grid: &Grid) -> String {
        let n = grid.size();
        let spaced = self.layout == Layout::SpacedGrid || self.symbols == Symbols::Numbers;
        let mut out = String::with_capacity(n * n * 2 + n);
        for (i, &v) in grid.cells().iter().enumerate() {
            if i > 0 {
                if i % n == 0 && self.layout != Layout::Line {
                    out.push('\n');
                } else if spaced {
                    out.push(' ');
                }
            }
            match v {
                0 if self.symbols == Symbols::Numbers => out.push('0'),
                0 => out.push('.'),
                v => self.symbols.write(v, n, &mut out),
            }
        }
        out.push('\n');
        out
    }

    /// The symbol for a value, as this style writes it.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::{Layout, Style, Symbols};
    /// let style = Style { layout: Layout::Line, symbols: Symbols::ZeroBased { upper: false } };
    /// assert_eq!(style.symbol(11, 16), "a");
    /// ```
    pub fn symbol(&self, value: u8, n: usize) -> String {
        let mut s = String::new();
        if value == 0 || usize::from(value) > n {
            s.push_str(&value.to_string());
        } else {
            self.symbols.write(value, n, &mut s);
        }
        s
    }
}

/// A cell's text and where it starts (1-based line and column).
#[derive(Clone, Copy, Debug)]
struct Token<'a> {
    text: &'a str,
    line: usize,
    column: usize,
}

/// Reads a batch of puzzles. Each record is read on its own, so a bad one
/// gives an error record and the batch goes on.
///
/// - Lines whose first non-blank character is `#` are comments.
/// - A block of `k` consecutive non-blank lines with `k` cells each is one
///   `k`×`k` grid: cells side by side (`53..7....`), or separated by
///   whitespace (`5 3 . . 7`, or numbers such as `10 0 12`). `|` and lines
///   made of `-+=|` with at least one `+` are decoration and ignored.
/// - Otherwise each line is one puzzle: the first word (up to a `:`) holds
///   `n²` cells, and the rest of the line is ignored; or the whole line
///   holds `n²` whitespace-separated cells.
///
/// Cells: `.`, `-`, `_` and `0` are empty. Values are `1`…`9` then `A`…`Z`
/// in any case; a record with letters and no digit is read as letters from
/// `A` (value 1); a grid of 10 or more symbols with both `0` and another
/// empty mark is read as `0`…`9`, `a`…`z` from `0` (value 1); a cell of
/// two or more digits makes the record decimal numbers.
///
/// `shape` fixes the box shape; without it the shape is inferred from the
/// side ([`Shape::infer`]).
///
/// ```
/// use exactly_puzzles::sudoku::{self, Layout};
/// let text = "# two puzzles\n1.3.\n..1.\n.1..\n2.4.\n\n12..34..........\n";
/// let records = sudoku::parse(text, None);
/// assert_eq!(records.len(), 2);
/// assert_eq!(records[0].line, 2);
/// assert_eq!(records[0].puzzle.as_ref().unwrap().style.layout, Layout::Grid);
/// assert_eq!(records[1].line, 7);
/// assert_eq!(records[1].puzzle.as_ref().unwrap().grid.givens(), 4);
/// let bad = sudoku::parse("12x.............\n", None);
/// let error = bad[0].puzzle.as_ref().unwrap_err().to_string();
/// assert_eq!(error, "line 1, column 3: bad character 'x' in a 4x4 grid");
/// ```
pub fn parse(text: &str, shape: Option<Shape>) -> Vec<Record> {
    parse_with(text, shape, &Rules::default())
}

/// [`parse`], checking the givens against the units of `rules`: with
/// regions ([`Rules::regions`]) two equal givens in one box but in
/// different regions do not clash.
///
/// ```
/// use exactly_puzzles::sudoku::{self, Regions, Rules};
/// let text = "1...\n.1..\n....\n....\n";
/// assert!(sudoku::parse(text, None)[0].puzzle.is_err());
/// let regions = Regions::parse("AABB\nACDB\nACDB\nCCDD\n")?;
/// let rules = Rules::default().regions(Some(regions));
/// assert!(sudoku::parse_with(text, None, &rules)[0].puzzle.is_ok());
/// # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
/// ```
pub fn parse_with(text: &str, shape: Option<Shape>, rules: &Rules) -> Vec<Record> {
    let mut records = Vec::new();
    let mut block: Vec<(usize, &str)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with('#') {
            continue;
        }
        if trimmed.is_empty() {
            read_block(&block, shape, rules, &mut records);
            block.clear();
        } else {
            block.push((i + 1, line));
        }
    }
    read_block(&block, shape, rules, &mut records);
    records
}

/// Jigsaw puzzles, one per line, each with its own regions: the cells as
/// one word (read as [`parse`] reads a one-line puzzle), then whitespace
/// and the region map as one word of `n²` labels, one character per cell,
/// row by row; cells with the same label form a region, and there must be
/// `n` labels on `n` cells each. Blank lines and `#` comments are skipped;
/// anything after the region map is an error. Each puzzle's regions come
/// back in [`Puzzle::regions`] and its givens are checked against them
/// (and against the diagonals under `rules`, whose own regions are
/// ignored). Any side up to 64 will do: the regions replace the boxes.
///
/// ```
/// use exactly_puzzles::sudoku::{self, Rules};
/// let records = sudoku::parse_jigsaw("1....1.......... AABBACDBACDBCCDD\n", &Rules::default());
/// let puzzle = records[0].puzzle.as_ref().unwrap();
/// assert_eq!(puzzle.regions.as_ref().unwrap().region(3, 0), 2);
/// let bad = sudoku::parse_jigsaw("................ AABBACDBACDBCCDA\n", &Rules::default());
/// let error = bad[0].puzzle.as_ref().unwrap_err().to_string();
/// assert_eq!(error, "line 1, column 18: region map: label 'A' is on 5 cells, not 4");
/// ```
pub fn parse_jigsaw(text: &str, rules: &Rules) -> Vec<Record> {
    let mut records = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let content = line.split('#').next().unwrap_or_default();
        if content.trim().is_empty() {
            continue;
        }
        records.push(Record {
            line: i + 1,
            puzzle: read_jigsaw(i + 1, content, rules),
        });
    }
    records
}

/// One record of [`parse_jigsaw`].
fn read_jigsaw(line: usize, content: &str, rules: &Rules) -> Result<Puzzle, SudokuError> {
    let bad = |column: Option<usize>, message: String| SudokuError::Parse {
        line,
        column,
        message,
    };
    let words = if content.trim().contains(char::is_whitespace) {
        row_tokens(line, content)
    } else {
        Vec::new()
    };
    let [cells, map] = words.as_slice() else {
        return Err(bad(
            None,
            format!(
                "{} words: a jigsaw record is its cells, then whitespace and its region map",
                words.len().max(1)
            ),
        ));
    };
    let tokens: Vec<Token<'_>> = cells
        .text
        .char_indices()
        .enumerate()
        .map(|(k, (i, c))| Token {
            text: &cells.text[i..i + c.len_utf8()],
            line,
            column: cells.column + k,
        })
        .collect();
    let len = tokens.len();
    let Some(n) = (1..=Shape::MAX_SIZE).find(|n| n * n == len) else {
        return Err(bad(
            Some(cells.column),
            format!("{len} cells; a puzzle has n*n cells (81 for 9x9), n at most 64"),
        ));
    };
    let labels = map.text.chars().count();
    if labels != len {
        return Err(bad(
            Some(map.column),
            format!("region map of {labels} labels for {len} cells"),
        ));
    }
    let mut seen: Vec<char> = Vec::new();
    let mut of = Vec::with_capacity(len);
    for c in map.text.chars() {
        let id = match seen.iter().position(|&s| s == c) {
            Some(id) => id,
            None => {
                seen.push(c);
                seen.len() - 1
            }
        };
        of.push(u8::try_from(id).unwrap_or(u8::MAX));
    }
    if seen.len() != n {
        return Err(bad(
            Some(map.column),
            format!("region map: {} labels, expected {n}", seen.len()),
        ));
    }
    for (id, label) in seen.iter().enumerate() {
        let cells = of.iter().filter(|&&r| usize::from(r) == id).count();
        if cells != n {
            return Err(bad(
                Some(map.column),
                format!("region map: label '{label}' is on {cells} cells, not {n}"),
            ));
        }
    }
    let regions =
        Regions::new(n, of).map_err(|e| bad(Some(map.column), format!("region map: {e}")))?;
    // The regions replace the boxes: any shape of the side will do.
    let shape = Shape::infer(n).or(Shape::new(1, n).ok());
    let rules = rules.clone().regions(Some(regions.clone()));
    let mut puzzle = read_cells(&tokens, Layout::Line, shape, line, &rules)?;
    puzzle.regions = Some(regions);
    Ok(puzzle)
}

/// A decoration line: only `-+=|` and blanks, with at least one `+`.
fn is_decoration(line: &str) -> bool {
    line.contains('+')
        && line
            .chars()
            .all(|c| matches!(c, '-' | '+' | '=' | '|') || c.is_whitespace())
}

/// The cells of one grid row: whitespace-separated words when there is
/// whitespace, else one cell per character; `|` is dropped.
fn row_tokens(line_no: usize, line: &str) -> Vec<Token<'_>> {
    // A `#` starts a comment, there or later on the line.
    let line = line.split('#').next().unwrap_or_default().trim_end();
    let mut tokens = Vec::new();
    if line.trim().contains(char::is_whitespace) {
        let mut start = None;
        for (col, (i, c)) in line.char_indices().enumerate() {
            if c.is_whitespace() || c == '|' {
                if let Some((s, scol)) = start.take() {
                    tokens.push(Token {
                        text: &line[s..i],
                        line: line_no,
                        column: scol + 1,
                    });
                }
            } else if start.is_none() {
                start = Some((i, col));
            }
        }
        if let Some((s, scol)) = start {
            tokens.push(Token {
                text: &line[s..],
                line: line_no,
                column: scol + 1,
            });
        }
    } else {
        for (col, (i, c)) in line.char_indices().enumerate() {
            if c != '|' {
                tokens.push(Token {
                    text: &line[i..i + c.len_utf8()],
                    line: line_no,
                    column: col + 1,
                });
            }
        }
    }
    tokens
}

/// The cells of a one-line puzzle.
fn line_tokens(line_no: usize, line: &str) -> (Vec<Token<'_>>, Layout) {
    let line = line.split('#').next().unwrap_or_default();
    let words = row_tokens(line_no, line);
    let spaced = line.trim().contains(char::is_whitespace);
    if spaced && is_square(words.len()) {
        return (words, Layout::Line);
    }
    let Some(first) = words.first() else {
        return (Vec::new(), Layout::Line);
    };
    if !spaced {
        // Cells side by side: stop at a ':' (a solution may follow).
        let cells = words.into_iter().take_while(|t| t.text != ":").collect();
        return (cells, Layout::Line);
    }
    let word = first.text.split(':').next().unwrap_or_default();
    let cells = word
        .char_indices()
        .enumerate()
        .map(|(k, (i, c))| Token {
            text: &word[i..i + c.len_utf8()],
            line: line_no,
            column: first.column + k,
        })
        .collect();
    (cells, Layout::Line)
}

fn is_square(len: usize) -> bool {
    (1..=Shape::MAX_SIZE).any(|n| n * n == len)
}

fn read_block(block: &[(usize, &str)], shape: Option<Shape>, rules: &Rules, out: &mut Vec<Record>) {
    let rows: Vec<(usize, Vec<Token<'_>>)> = block
        .iter()
        .filter(|(_, l)| !is_decoration(l))
        .map(|&(no, l)| (no, row_tokens(no, l)))
        .collect();
    let Some(&(first_line, _)) = rows.first() else {
        return;
    };
    let k = rows.len();
    let is_cell = |t: &Token<'_>| t.text.chars().count() == 1 || t.text.parse::<u32>().is_ok();
    if k > 1
        && rows
            .iter()
            .all(|(_, r)| r.len() == k && r.iter().all(is_cell))
    {
        let spaced = block
            .iter()
            .any(|(_, l)| l.trim().contains(char::is_whitespace));
        let layout = if spaced {
            Layout::SpacedGrid
        } else {
            Layout::Grid
        };
        let tokens: Vec<Token<'_>> = rows.into_iter().flat_map(|(_, r)| r).collect();
        out.push(Record {
            line: first_line,
            puzzle: read_cells(&tokens, layout, shape, first_line, rules),
        });
        return;
    }
    for &(no, line) in block {
        if is_decoration(line) {
            continue;
        }
        let (tokens, layout) = line_tokens(no, line);
        out.push(Record {
            line: no,
            puzzle: read_cells(&tokens, layout, shape, no, rules),
        });
    }
}

/// Turns `n²` cell tokens into a puzzle, choosing the symbols.
fn read_cells(
    tokens: &[Token<'_>],
    layout: Layout,
    shape: Option<Shape>,
    line: usize,
    rules: &Rules,
) -> Result<Puzzle, SudokuError> {
    let len = tokens.len();
    let side = (1..=Shape::MAX_SIZE).find(|n| n * n == len);
    let Some(n) = side else {
        return Err(SudokuError::Parse {
            line,
            column: None,
            message: format!("{len} cells; a puzzle has n*n cells (81 for 9x9), n at most 64"),
        });
    };
    let shape = match shape {
        Some(s) if s.size() == n => s,
        Some(s) => {
            return Err(SudokuError::ShapeMismatch {
                size: n,
                box_rows: s.box_rows(),
                box_cols: s.box_cols(),
            })
        }
        None => Shape::infer(n).ok_or(SudokuError::UnknownShape { size: n })?,
    };
    if tokens.iter().any(|t| t.text.len() > 1) {
        return read_numbers(tokens, layout, shape, rules);
    }
    let chars = || tokens.iter().filter_map(|t| t.text.chars().next());
    let has_digit = chars().any(|c| c.is_ascii_digit());
    let letters: Vec<char> = chars().filter(|c| c.is_ascii_alphabetic()).collect();
    let lower = !letters.is_empty() && letters.iter().all(|c| c.is_ascii_lowercase());
    let upper = !letters.is_empty() && letters.iter().all(|c| c.is_ascii_uppercase());
    let zero_symbol = n >= 10 && chars().any(|c| c == '0') && chars().any(is_empty_mark);
    let mut tries = Vec::with_capacity(3);
    if !has_digit && !letters.is_empty() && n <= 26 {
        tries.push(Symbols::Letters { lower });
    }
    if zero_symbol && n <= 36 {
        tries.push(Symbols::ZeroBased { upper });
    }
    tries.push(Symbols::Digits { lower });
    if !zero_symbol && (10..=36).contains(&n) {
        tries.push(Symbols::ZeroBased { upper });
    }
    let mut first_error = None;
    for symbols in tries {
        match decode_chars(tokens, symbols, n) {
            Ok(cells) => {
                let grid = Grid::from_cells(shape, cells)?;
                let style = Style { layout, symbols };
                return check_givens(grid, style, rules);
            }
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    Err(first_error.unwrap_or(SudokuError::UnknownShape { size: n }))
}

fn decode_chars(tokens: &[Token<'_>], symbols: Symbols, n: usize) -> Result<Vec<u8>, SudokuError> {
    tokens
        .iter()
        .map(|t| {
            let c = t.text.chars().next().unwrap_or(' ');
            symbols.value(c, n).ok_or_else(|| SudokuError::Parse {
                line: t.line,
                column: Some(t.column),
                message: format!("bad character '{c}' in a {n}x{n} grid"),
            })
        })
        .collect()
}

fn read_numbers(
    tokens: &[Token<'_>],
    layout: Layout,
    shape: Shape,
    rules: &Rules,
) -> Result<Puzzle, SudokuError> {
    let n = shape.size();
    let cells = tokens
        .iter()
        .map(|t| {
            if t.text.len() == 1 && t.text.chars().all(is_empty_mark) {
                return Ok(0);
            }
            match t.text.parse::<usize>() {
                Ok(v) if v <= n => Ok(v as u8),
                _ => Err(SudokuError::Parse {
                    line: t.line,
                    column: Some(t.column),
                    message: format!("bad cell '{}' in a {n}x{n} grid: expected 0 to {n}", t.text),
                }),
            }
        })
        .collect::<Result<Vec<u8>, _>>()?;
    let layout = if layout == Layout::Grid {
        Layout::SpacedGrid
    } else {
        layout
    };
    let grid = Grid::from_cells(shape, cells)?;
    check_givens(
        grid,
        Style {
            layout,
            symbols: Symbols::Numbers,
        },
        rules,
    )
}

/// Rejects givens that clash under `rules`, naming the symbol as the input
/// writes it.
fn check_givens(grid: Grid, style: Style, rules: &Rules) -> Result<Puzzle, SudokuError> {
    if let Some(c) = grid.clash_with(rules) {
        return Err(c.error(style.symbol(c.value, grid.size())));
    }
    Ok(Puzzle {
        grid,
        style,
        regions: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Result<Puzzle, SudokuError> {
        let mut r = parse(text, None);
        assert_eq!(r.len(), 1, "{text:?}");
        r.pop().unwrap().puzzle
    }

    #[test]
    fn nine_by_nine_lines_with_any_empty_mark() {
        let line =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let a = one(line).unwrap();
        assert_eq!(a.grid.givens(), 17);
        for mark in ["0", "-", "_"] {
            let b = one(&line.replace('.', mark)).unwrap();
            assert_eq!(a.grid, b.grid);
        }
        assert_eq!(a.style.format(&a.grid).replace('\n', ""), line);
        // A trailing comment or solution is ignored.
        assert_eq!(one(&format!("{line}  # hard")).unwrap().grid, a.grid);
        assert_eq!(one(&format!("{line}:123")).unwrap().grid, a.grid);
    }

    #[test]
    fn sixteen_by_sixteen_alphabets() {
        let hex = "..0....2.....e.8.9..0.1.f.265.7...3..5.8.4....f..6.4b.7....c.9......4....2..6....8..a.60.1...4.93.6f..9.5....0...4...2.1..3f..e.4..5.c..3..b.a.0.2........e.8.b.7.f.2..5.0..1......6.e3...9....7a...9....7.0.f.b..1..f..4..a..0..7..1..a..58.2....5...2..3..7.d.";
        let p = one(hex).unwrap();
        assert_eq!(p.style.symbols, Symbols::ZeroBased { upper: false });
        assert_eq!(p.grid.get(0, 2), 1);
        let letters = one("--A----C-----O-I\n-J--A-B-P-CGF-H-\n--D--F-I-E----P-\n-G-EL-H----M-J--\n----E----C--G---\n-I--K-GA-B---E-J\nD-GP--J-F----A--\n-E---C-B--DP--O-\nE--F-M--D--L-K-A\n-C--------O-I-L-\nH-P-C--F-A--B---\n---G-OD---J----H\nK---J----H-A-P-L\n--B--P--E--K--A-\n-H--B--K--FI-C--\n--F---C--D--H-N-\n").unwrap();
        assert_eq!(letters.style.symbols, Symbols::Letters { lower: false });
        assert_eq!(letters.style.layout, Layout::Grid);
        assert_eq!(letters.grid.get(0, 2), 1);
        assert_eq!(letters.grid.get(0, 15), 9);
    }

    #[test]
    fn numbers_and_spaced_grids() {
        let text = "1 0 3 0\n0 0 1 0\n0 1 0 0\n2 0 4 0\n";
        let p = one(text).unwrap();
        assert_eq!(p.style.layout, Layout::SpacedGrid);
        assert_eq!(p.grid.get(3, 2), 4);
        assert_eq!(p.style.format(&p.grid), text.replace('0', "."));
        let line = one("1 0 3 0 0 0 1 0 0 1 0 0 2 0 4 0").unwrap();
        assert_eq!(line.grid, p.grid);
        let twelve: Vec<String> = (0..144)
            .map(|i| if i == 5 { "12".into() } else { "0".into() })
            .collect();
        let p = one(&twelve.join(" ")).unwrap();
        assert_eq!(p.style.symbols, Symbols::Numbers);
        assert_eq!(p.grid.get(0, 5), 12);
        assert_eq!(p.grid.shape(), Shape::new(3, 4).unwrap());
    }

    #[test]
    fn decorated_grid() {
        let text = "1 . | 3 .\n. . | 1 .\n----+----\n. 1 | . .\n2 . | 4 .\n";
        let p = one(text).unwrap();
        assert_eq!(p.grid.givens(), 6);
    }

    #[test]
    fn errors_carry_positions_and_the_batch_goes_on() {
        let text = "12..\n# c\n1234123412341234\n1..1............\n12.\n\n123x............\n";
        let r = parse(text, None);
        // The block of lines 1-5 is not a grid; each line is a record of its own.
        let lines: Vec<usize> = r.iter().map(|r| r.line).collect();
        assert_eq!(lines, [1, 3, 4, 5, 7]);
        let errors: Vec<String> = r
            .iter()
            .map(|r| r.puzzle.as_ref().unwrap_err().to_string())
            .collect();
        assert_eq!(
            errors[0],
            "cannot tell the box shape of a 2x2 grid; give it as RxC"
        );
        assert_eq!(errors[1], "givens clash: r1c1 and r2c1 both hold 1");
        assert_eq!(errors[2], "givens clash: r1c1 and r1c4 both hold 1");
        assert!(errors[3].starts_with("line 5: 3 cells"), "{}", errors[3]);
        assert_eq!(
            errors[4],
            "line 7, column 4: bad character 'x' in a 4x4 grid"
        );
    }

    #[test]
    fn shapes_from_the_caller() {
        let ten = ".".repeat(100);
        assert!(matches!(
            one(&ten),
            Err(SudokuError::UnknownShape { size: 10 })
        ));
        let r = parse(&ten, Some(Shape::new(2, 5).unwrap()));
        assert_eq!(r[0].puzzle.as_ref().unwrap().grid.shape().box_cols(), 5);
        let r = parse(&ten, Some(Shape::new(3, 3).unwrap()));
        assert!(r[0].puzzle.is_err());
    }

    #[test]
    fn random_text_never_panics() {
        let alphabet: Vec<char> = ".0123456789ABCDabcd-_ |#:+é\t\n\n\n".chars().collect();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..3000 {
            let len = (next() % 200) as usize;
            let text: String = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect();
            for record in parse(&text, None) {
                if let Ok(p) = record.puzzle {
                    assert!(record.line >= 1);
                    let _ = p.style.format(&p.grid);
                    if p.grid.size() <= 4 {
                        let _ = crate::sudoku::solve(&p.grid, 2);
                    }
                }
            }
        }
    }
}
