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

/// The most cells of a puzzle: 64x64.
const MAX_CELLS: usize = Shape::MAX_SIZE * Shape::MAX_SIZE;

/// How many cells a record holds, as an error says it.
fn cells_count(len: usize) -> String {
    if len > MAX_CELLS {
        format!("more than {MAX_CELLS} cells")
    } else {
        format!("{len} cells")
    }
}

/// The smallest grid side read without asking: sides 1 to 3 are read only
/// with [`Reader::small`], or with a box shape of that side
/// ([`Reader::shape`]).
pub const MIN_SIZE: usize = 4;

/// Reads batches of puzzles, with options: [`parse`], [`parse_with`] and
/// [`parse_jigsaw`] are its usual settings.
///
/// One record comes out per record in, as a person reading the file would
/// see them:
///
/// - Lines whose first non-blank character is `#` are comments, and a `#`
///   later on a line starts a comment; blank lines separate records.
/// - A line on its own is one puzzle: its cells side by side
///   (`53..7....`, up to a `:` after which a solution may follow), or
///   `n²` cells separated by whitespace (`5 3 0 0 7 …`, or numbers such as
///   `10 0 12`), or a first word of `n²` cells followed by whitespace and
///   anything (a label, a solution).
/// - A block of `k` consecutive lines of `k` cells each is one `k`×`k`
///   grid: cells side by side, or separated by whitespace; `|` and lines
///   made of `-+=|` with at least one `+` are decoration. But when most of
///   the block's lines are puzzles with givens on their own (sixteen 4x4
///   puzzles of 16 cells, one a line), each line is a record.
/// - A block that is neither is read as a damaged grid (one invalid
///   record, naming the row at fault) when most of its rows have about as
///   many cells as there are rows and few of its lines are puzzles on
///   their own; otherwise each line is a record of its own.
/// - A first line holding only a number below 16 digits (a count of
///   puzzles, as contest files start) is skipped when the number matches
///   the records that follow; otherwise it is an invalid record.
///
/// A record that matches no size is invalid and names its line. Grids
/// smaller than [`MIN_SIZE`] are refused unless asked for.
///
/// ```
/// use exactly_puzzles::sudoku::{Reader, SudokuError};
/// let records = Reader::new().read("2\n1.3.\n..1.\n.1..\n2.4.\n\n12..34..........\n");
/// assert_eq!(records.len(), 2);
/// assert_eq!((records[0].line, records[1].line), (2, 7));
/// let tiny = Reader::new().read("1\n");
/// assert!(matches!(tiny[0].puzzle, Err(SudokuError::TooSmall { size: 1 })));
/// assert!(Reader::new().small(true).read("1\n")[0].puzzle.is_ok());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Reader {
    shape: Option<Shape>,
    rules: Rules,
    small: bool,
    jigsaw: bool,
}

impl Reader {
    /// Square boxes inferred from the side, no extra rules, no small grids,
    /// no jigsaw regions.
    pub fn new() -> Reader {
        Reader::default()
    }

    /// Fixes the box shape; without it the shape is inferred from the side
    /// ([`Shape::infer`]). A shape of a side below [`MIN_SIZE`] asks for
    /// grids of that side.
    pub fn shape(mut self, shape: Option<Shape>) -> Reader {
        self.shape = shape;
        self
    }

    /// Checks the givens against the units of `rules` ([`parse_with`]).
    pub fn rules(mut self, rules: Rules) -> Reader {
        self.rules = rules;
        self
    }

    /// Reads grids of sides 1 to 3 too.
    pub fn small(mut self, on: bool) -> Reader {
        self.small = on;
        self
    }

    /// Reads jigsaw puzzles, one a line, each with its region map
    /// ([`parse_jigsaw`]).
    pub fn jigsaw(mut self, on: bool) -> Reader {
        self.jigsaw = on;
        self
    }

    /// Whether a side of `n` is read.
    fn allows(&self, n: usize) -> bool {
        n >= MIN_SIZE || self.small || self.shape.is_some_and(|s| s.size() == n)
    }

    /// Reads the records of `text`: every record of the text gives one,
    /// a puzzle or why it is not one.
    pub fn read(&self, text: &str) -> Vec<Record> {
        let mut records = Vec::new();
        let mut block: Vec<(usize, &str)> = Vec::new();
        let mut count: Option<(usize, &str)> = None;
        // Whether the count line still might be a grid's first row, and
        // whether a blank line came after it.
        let (mut first, mut pending, mut apart) = (true, false, false);
        for (i, line) in text.lines().enumerate() {
            let content = before_comment(line);
            if content.trim().is_empty() {
                if !line.trim().is_empty() {
                    // A comment line.
                    continue;
                }
                apart = true;
                if !self.jigsaw {
                    self.read_block(&block, &mut records);
                    block.clear();
                }
                continue;
            }
            if std::mem::take(&mut first) && is_count(content) {
                count = Some((i + 1, line));
                (pending, apart) = (true, false);
                continue;
            }
            if std::mem::take(&mut pending) && !apart {
                // A row of the same length right below: the first row of a grid.
                if let Some((no, digits)) = count {
                    if row_tokens(i + 1, line).len() == digits.trim().len() {
                        block.push((no, digits));
                        count = None;
                    }
                }
            }
            if self.jigsaw {
                records.push(Record {
                    line: i + 1,
                    puzzle: read_jigsaw(i + 1, content, &self.rules, self.small),
                });
            } else {
                block.push((i + 1, line));
            }
        }
        self.read_block(&block, &mut records);
        if let Some((line, digits)) = count {
            let digits = before_comment(digits).trim();
            let matches = digits.parse::<usize>().is_ok_and(|c| c == records.len());
            if !matches {
                let record = if records.is_empty() || self.small {
                    // The only content, or a small puzzle asked for.
                    match self.jigsaw {
                        true => Record {
                            line,
                            puzzle: read_jigsaw(line, digits, &self.rules, self.small),
                        },
                        false => self.read_line(line, digits),
                    }
                } else {
                    Record {
                        line,
                        puzzle: Err(SudokuError::Parse {
                            line,
                            column: Some(1),
                            message: format!(
                                "'{digits}' is not a puzzle; as a count line, it does not match \
                                 the {} records that follow",
                                records.len()
                            ),
                        }),
                    }
                };
                records.insert(0, record);
            }
        }
        records
    }

    /// One line read as a puzzle on its own.
    fn read_line(&self, no: usize, line: &str) -> Record {
        Record {
            line: no,
            puzzle: line_tokens(no, line)
                .and_then(|tokens| read_cells(&tokens, Layout::Line, self, no, &self.rules)),
        }
    }

    /// The records of a block of consecutive non-blank lines.
    fn read_block(&self, block: &[(usize, &str)], out: &mut Vec<Record>) {
        let rows: Vec<(usize, &str, Vec<Token<'_>>)> = block
            .iter()
            .filter(|(_, l)| !is_decoration(l))
            .map(|&(no, l)| (no, l, row_tokens(no, l)))
            .collect();
        let k = rows.len();
        if k == 0 {
            return;
        }
        if k == 1 {
            out.push(self.read_line(rows[0].0, rows[0].1));
            return;
        }
        let alone: Vec<Record> = rows
            .iter()
            .map(|&(no, line, _)| self.read_line(no, line))
            .collect();
        // Lines that are puzzles with givens on their own (an empty line
        // could as well be an empty grid row).
        let fitting = alone
            .iter()
            .filter(|r| match &r.puzzle {
                Ok(p) => p.grid.givens() > 0,
                Err(e) => matches!(e, SudokuError::Clash { .. }),
            })
            .count();
        let marked =
            k < block.len() || rows.iter().any(|(_, l, _)| before_comment(l).contains('|'));
        let square = rows
            .iter()
            .all(|(_, _, r)| r.len() == k && r.iter().all(is_cell));
        let damaged = {
            // The most common row length.
            let mut lengths: Vec<usize> = rows.iter().map(|(_, _, r)| r.len()).collect();
            lengths.sort_unstable();
            let (mut best, mut run, mut most) = (0, 0, 0);
            for (i, &len) in lengths.iter().enumerate() {
                run = if i > 0 && lengths[i - 1] == len {
                    run + 1
                } else {
                    1
                };
                if run > most {
                    (best, most) = (len, run);
                }
            }
            2 * most > k && best <= Shape::MAX_SIZE && best.abs_diff(k) <= 1
        };
        if (square || marked || damaged) && 2 * fitting <= k {
            let spaced = rows
                .iter()
                .any(|(_, l, _)| before_comment(l).trim().contains(char::is_whitespace));
            out.push(Record {
                line: rows[0].0,
                puzzle: self.read_grid(&rows, spaced),
            });
        } else {
            out.extend(alone);
        }
    }

    /// The rows of a block as one grid.
    fn read_grid(
        &self,
        rows: &[(usize, &str, Vec<Token<'_>>)],
        spaced: bool,
    ) -> Result<Puzzle, SudokuError> {
        let k = rows.len();
        let first = rows[0].0;
        let width = rows[0].2.len();
        if rows.iter().all(|(_, _, r)| r.len() == width) && width != k {
            return Err(SudokuError::Parse {
                line: first,
                column: None,
                message: format!(
                    "a grid of {k} rows of {width} cells: expected as many rows as cells in a row"
                ),
            });
        }
        if let Some((no, _, r)) = rows.iter().find(|(_, _, r)| r.len() != k) {
            return Err(SudokuError::Parse {
                line: *no,
                column: None,
                message: format!(
                    "a row of {} cells in a grid of {k} rows: expected {k}",
                    r.len()
                ),
            });
        }
        let layout = if spaced {
            Layout::SpacedGrid
        } else {
            Layout::Grid
        };
        let tokens: Vec<Token<'_>> = rows
            .iter()
            .flat_map(|(_, _, r)| r.iter().copied())
            .collect();
        read_cells(&tokens, layout, self, first, &self.rules)
    }
}

/// A line's text before a `#` comment.
fn before_comment(line: &str) -> &str {
    line.split('#').next().unwrap_or_default()
}

/// A count line: a number too short to be a puzzle of side 4 or more.
fn is_count(content: &str) -> bool {
    let t = content.trim();
    !t.is_empty() && t.len() < 16 && t.bytes().all(|b| b.is_ascii_digit())
}

/// A grid cell: one character, or a number.
fn is_cell(t: &Token<'_>) -> bool {
    t.text.chars().count() == 1 || t.text.bytes().all(|b| b.is_ascii_digit())
}

/// Reads a batch of puzzles ([`Reader`] with the box shape `shape`). Each
/// record is read on its own, so a bad one gives an error record and the
/// batch goes on; see [`Reader`] for how records are told apart.
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
    Reader::new().shape(shape).read(text)
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
    Reader::new().shape(shape).rules(rules.clone()).read(text)
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
    Reader::new().rules(rules.clone()).jigsaw(true).read(text)
}

/// One record of [`parse_jigsaw`].
fn read_jigsaw(
    line: usize,
    content: &str,
    rules: &Rules,
    small: bool,
) -> Result<Puzzle, SudokuError> {
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
        .take(MAX_CELLS + 1)
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
            format!(
                "{}; a puzzle has n*n cells (81 for 9x9), n at most 64",
                cells_count(len)
            ),
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
            None if seen.len() == Shape::MAX_SIZE => {
                return Err(bad(
                    Some(map.column),
                    format!(
                        "region map: more than {} labels, expected {n}",
                        Shape::MAX_SIZE
                    ),
                ))
            }
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
    if n < MIN_SIZE && !small {
        return Err(SudokuError::TooSmall { size: n });
    }
    let rules = rules.clone().regions(Some(regions.clone()));
    let reader = Reader::new().shape(shape).small(small);
    let mut puzzle = read_cells(&tokens, Layout::Line, &reader, line, &rules)?;
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
///
/// No more than [`MAX_CELLS`] and one are kept (twice that and one for
/// cells side by side, room for a `:` and a solution): what is longer is
/// no puzzle, and its memory stays bounded.
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
                    if tokens.len() > MAX_CELLS {
                        return tokens;
                    }
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
                if tokens.len() > MAX_CELLS + 1 + MAX_CELLS {
                    // Room for a puzzle, a ':' and its solution; no more.
                    return tokens;
                }
            }
        }
    }
    tokens
}

/// The cells of a one-line puzzle: side by side (up to a `:`), `n²`
/// whitespace-separated cells, or a first word of `n²` cells (`n` at least
/// 2) and anything after it.
fn line_tokens(line_no: usize, line: &str) -> Result<Vec<Token<'_>>, SudokuError> {
    let line = before_comment(line);
    let words = row_tokens(line_no, line);
    if !line.trim().contains(char::is_whitespace) {
        // Cells side by side: stop at a ':' (a solution may follow).
        return Ok(words.into_iter().take_while(|t| t.text != ":").collect());
    }
    if is_square(words.len()) && words.iter().all(is_cell) {
        return Ok(words);
    }
    let mut count = words.len();
    if let Some(first) = words.first() {
        let word = first.text.split(':').next().unwrap_or_default();
        let cells: Vec<Token<'_>> = word
            .char_indices()
            .take(MAX_CELLS + 1)
            .enumerate()
            .map(|(k, (i, c))| Token {
                text: &word[i..i + c.len_utf8()],
                line: line_no,
                column: first.column + k,
            })
            .collect();
        if cells.len() >= 4 && is_square(cells.len()) {
            return Ok(cells);
        }
        if cells.len() > MAX_CELLS {
            // A word too long to be a puzzle: that is what is wrong.
            count = cells.len();
        }
    }
    Err(SudokuError::Parse {
        line: line_no,
        column: None,
        message: format!(
            "{}; a puzzle has n*n cells (81 for 9x9), n at most 64",
            cells_count(count)
        ),
    })
}

fn is_square(len: usize) -> bool {
    (1..=Shape::MAX_SIZE).any(|n| n * n == len)
}

/// Turns `n²` cell tokens into a puzzle, choosing the symbols.
fn read_cells(
    tokens: &[Token<'_>],
    layout: Layout,
    reader: &Reader,
    line: usize,
    rules: &Rules,
) -> Result<Puzzle, SudokuError> {
    let len = tokens.len();
    let side = (1..=Shape::MAX_SIZE).find(|n| n * n == len);
    let Some(n) = side else {
        return Err(SudokuError::Parse {
            line,
            column: None,
            message: format!(
                "{}; a puzzle has n*n cells (81 for 9x9), n at most 64",
                cells_count(len)
            ),
        });
    };
    if !reader.allows(n) {
        return Err(SudokuError::TooSmall { size: n });
    }
    let shape = match reader.shape {
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
    if tokens.iter().any(|t| t.text.chars().nth(1).is_some()) {
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
                message: match c {
                    '\u{FFFD}' => format!("invalid UTF-8: expected a cell of a {n}x{n} grid"),
                    c => format!("bad character '{}' in a {n}x{n} grid", c.escape_debug()),
                },
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
                    message: format!(
                        "bad cell '{}' in a {n}x{n} grid: expected 0 to {n}",
                        t.text.escape_debug()
                    ),
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
            "a 2x2 grid is smaller than 4x4; small grids are read only when asked for (--small)"
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

    /// The verdicts of a batch: `ok`, or the error.
    fn outcomes(records: &[Record]) -> Vec<(usize, String)> {
        records
            .iter()
            .map(|r| match &r.puzzle {
                Ok(_) => (r.line, "ok".to_string()),
                Err(e) => (r.line, e.to_string()),
            })
            .collect()
    }

    const NINE: &str =
        "......1.9.....32.....62..4.....7..6..9.2....84.28.......7.5.9..983..1....2......7";

    #[test]
    fn sixteen_one_line_4x4_puzzles_are_sixteen_records() {
        let lines = [
            "12..34..........",
            "................",
            "1...............",
            "..3.....2.......",
        ];
        let text: String = (0..16).map(|i| format!("{}\n", lines[i % 4])).collect();
        let r = parse(&text, None);
        assert_eq!(r.len(), 16);
        assert!(r.iter().all(|r| r.puzzle.is_ok()));
        assert_eq!(r[15].line, 16);
        // One of them damaged: still sixteen records, one invalid.
        let text = text.replacen("1...............", "1......x........", 1);
        let r = parse(&text, None);
        assert_eq!(r.len(), 16);
        assert_eq!(r.iter().filter(|r| r.puzzle.is_err()).count(), 1);
        assert_eq!(
            r[2].puzzle.as_ref().unwrap_err().to_string(),
            "line 3, column 8: bad character 'x' in a 4x4 grid"
        );
        // A real 16x16 grid stays one record, and so does an empty one.
        assert_eq!(parse(&"................\n".repeat(16), None).len(), 1);
        let grid = "--A----C-----O-I\n-J--A-B-P-CGF-H-\n--D--F-I-E----P-\n-G-EL-H----M-J--\n----E----C--G---\n-I--K-GA-B---E-J\nD-GP--J-F----A--\n-E---C-B--DP--O-\nE--F-M--D--L-K-A\n-C--------O-I-L-\nH-P-C--F-A--B---\n---G-OD---J----H\nK---J----H-A-P-L\n--B--P--E--K--A-\n-H--B--K--FI-C--\n--F---C--D--H-N-\n";
        assert_eq!(parse(grid, None).len(), 1);
    }

    #[test]
    fn eighty_one_one_line_9x9_puzzles_are_eighty_one_records() {
        let text = format!("{NINE}\n").repeat(81);
        let r = parse(&text, None);
        assert_eq!(r.len(), 81);
        assert!(r.iter().all(|r| r.puzzle.is_ok()));
        // With a bad one among them.
        let text = text.replacen(NINE, &NINE[..80], 1);
        let r = parse(&text, None);
        assert_eq!(r.len(), 81);
        assert!(r[0]
            .puzzle
            .as_ref()
            .unwrap_err()
            .to_string()
            .starts_with("line 1: 80 cells"));
        assert!(r[1..].iter().all(|r| r.puzzle.is_ok()));
    }

    #[test]
    fn a_row_of_eighty_numbers_is_invalid_not_a_1x1_puzzle() {
        let row: Vec<&str> = std::iter::once("1")
            .chain(std::iter::repeat_n("0", 79))
            .collect();
        let r = parse(&row.join(" "), None);
        assert_eq!(
            outcomes(&r),
            [(
                1,
                "line 1: 80 cells; a puzzle has n*n cells (81 for 9x9), n at most 64".to_string()
            )]
        );
        // And a word too short to be a puzzle, before a label.
        let r = parse("1 hard\n", None);
        assert!(r[0].puzzle.is_err());
        // A first word of n*n cells and a label still reads.
        let r = parse(&format!("{NINE} hard\n"), None);
        assert!(r[0].puzzle.is_ok());
    }

    #[test]
    fn a_count_line_is_skipped_when_it_counts_the_records() {
        let grid = "1.3.\n..1.\n.1..\n2.4.\n";
        assert_eq!(
            outcomes(&parse(&format!("1\n{grid}"), None)),
            [(2, "ok".to_string())]
        );
        let text = format!("2\n{NINE}\n{NINE}\n");
        assert_eq!(
            outcomes(&parse(&text, None)),
            [(2, "ok".to_string()), (3, "ok".to_string())]
        );
        // A count that does not match is an invalid record of its own.
        let r = outcomes(&parse(&format!("3\n{NINE}\n{NINE}\n"), None));
        assert_eq!(r.len(), 3);
        assert_eq!(r[0].0, 1);
        assert!(r[0].1.contains("count line"), "{}", r[0].1);
        // A lone number is a puzzle too small to read.
        let r = outcomes(&parse("1\n", None));
        assert_eq!(r, [(1, "a 1x1 grid is smaller than 4x4; small grids are read only when asked for (--small)".to_string())]);
        // After a comment it is still the first line.
        assert_eq!(parse(&format!("# contest\n1\n{grid}"), None).len(), 1);
    }

    #[test]
    fn small_grids_only_when_asked_for() {
        assert!(matches!(one("1\n"), Err(SudokuError::TooSmall { size: 1 })));
        assert!(matches!(
            one("12\n21\n"),
            Err(SudokuError::TooSmall { size: 2 })
        ));
        let small = Reader::new().small(true);
        assert_eq!(
            small.read("1\n")[0].puzzle.as_ref().unwrap().grid.cells(),
            [1]
        );
        let r = small
            .shape(Some(Shape::new(1, 2).unwrap()))
            .read("1.\n.1\n");
        assert_eq!(r.len(), 1);
        assert!(r[0].puzzle.is_ok());
        // A box shape of the side asks for it.
        let r = parse("1..2\n", Some(Shape::new(1, 2).unwrap()));
        assert!(r[0].puzzle.is_ok());
        let r = parse_jigsaw("1... ABAB\n", &Rules::default());
        assert!(matches!(
            r[0].puzzle,
            Err(SudokuError::TooSmall { size: 2 })
        ));
    }

    #[test]
    fn a_damaged_grid_is_one_invalid_record_naming_the_row() {
        let text = "......1.9\n.....32..\n...62..4.\n....7..6.\n.9.2...8\n4.28.....\n..7.5.9..\n983..1...\n.2......7\n";
        assert_eq!(
            outcomes(&parse(text, None)),
            [(
                1,
                "line 5: a row of 8 cells in a grid of 9 rows: expected 9".to_string()
            )]
        );
        let missing = "......1.9\n.....32..\n...62..4.\n....7..6.\n4.28.....\n..7.5.9..\n983..1...\n.2......7\n";
        let r = outcomes(&parse(missing, None));
        assert_eq!(r.len(), 1);
        assert!(r[0].1.contains("a grid of 8 rows of 9 cells"), "{}", r[0].1);
    }

    #[test]
    fn bad_bytes_are_named_and_escaped() {
        let r = parse("12\u{1b}.............\n", None);
        assert_eq!(
            r[0].puzzle.as_ref().unwrap_err().to_string(),
            "line 1, column 3: bad character '\\u{1b}' in a 4x4 grid"
        );
        let text = String::from_utf8_lossy(b"12\xff.............\n12..34..........\n").into_owned();
        let r = outcomes(&parse(&text, None));
        assert_eq!(
            r[0],
            (
                1,
                "line 1, column 3: invalid UTF-8: expected a cell of a 4x4 grid".to_string()
            )
        );
        assert_eq!(r[1], (2, "ok".to_string()));
    }

    #[test]
    fn huge_lines_are_refused_without_holding_a_token_a_character() {
        let huge = ".".repeat(1 << 20);
        let r = parse(&format!("{huge}\n{huge} {huge}\n"), None);
        assert_eq!(r.len(), 2);
        for r in &r {
            let e = r.puzzle.as_ref().unwrap_err().to_string();
            assert!(e.contains("more than 4096 cells"), "{e}");
        }
        assert_eq!(row_tokens(1, &huge).len(), 2 * MAX_CELLS + 2);
        let spaced = ". ".repeat(1 << 16);
        assert_eq!(row_tokens(1, &spaced).len(), MAX_CELLS + 1);
        let r = parse_jigsaw(&format!("{huge} AB\n"), &Rules::default());
        let e = r[0].puzzle.as_ref().unwrap_err().to_string();
        assert!(e.contains("more than 4096 cells"), "{e}");
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
