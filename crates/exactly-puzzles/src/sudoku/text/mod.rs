//! Reading and writing puzzles as text.

mod block;
mod cells;
mod jigsaw;
#[cfg(test)]
mod tests;

use super::{Grid, Regions, Rules, Shape, SudokuError};
use cells::row_tokens;
use jigsaw::read_jigsaw;

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
pub(super) fn is_empty_mark(c: char) -> bool {
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
}

/// A line's text before a `#` comment.
pub(super) fn before_comment(line: &str) -> &str {
    line.split('#').next().unwrap_or_default()
}

/// A count line: a number too short to be a puzzle of side 4 or more.
fn is_count(content: &str) -> bool {
    let t = content.trim();
    !t.is_empty() && t.len() < 16 && t.bytes().all(|b| b.is_ascii_digit())
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
