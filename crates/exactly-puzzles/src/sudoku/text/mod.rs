//! Reading and writing puzzles as text.

mod block;
mod cells;
mod csv;
mod jigsaw;
mod stream;
#[cfg(test)]
mod tests;
mod write;

use std::io;

use super::{Grid, Regions, Rules, Shape, SudokuError};
use stream::{Feed, Line};
pub use stream::{Records, MAX_BLOCK, MAX_COUNT, MAX_LINE};

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
    /// The format the record was read in: never [`InputFormat::Auto`].
    pub format: InputFormat,
    /// A solution that the input gives with the puzzle (the `solutions`
    /// column of a CSV file), for the caller to check: read in the
    /// puzzle's symbols, not checked here.
    pub solution: Option<Grid>,
}

impl Record {
    /// A record with no solution given.
    fn new(line: usize, puzzle: Result<Puzzle, SudokuError>, format: InputFormat) -> Record {
        Record {
            line,
            puzzle,
            format,
            solution: None,
        }
    }
}

/// The text formats a batch of puzzles may come in ([`Reader::format`]).
/// [`InputFormat::Auto`] tells them apart record by record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum InputFormat {
    /// Each record in whatever format it looks like (see [`Reader`]).
    #[default]
    Auto,
    /// One puzzle a line (`4.....8.5.3…`, or `n²` whitespace-separated
    /// numbers): every line is a record.
    Line,
    /// A grid of `n` lines of `n` cells, cells side by side or separated
    /// by whitespace, records separated by blank lines; `|` and border
    /// lines are dropped.
    Grid,
    /// Simple Sudoku's `.ss`: rows such as `4..|...|8.5`, bands of boxes
    /// separated by lines of dashes (`-----------`). Read as [`Grid`].
    ///
    /// [`Grid`]: InputFormat::Grid
    Ss,
    /// SadMan Software's `.sdk`: optional `#` header lines (SudoCue's
    /// `#A` author, `#D` description, …), then a `[Puzzle]` section of
    /// `n` rows of `n` cells (`.` empty). Other sections (`[State]`, …)
    /// are skipped up to the next section or blank line.
    Sdk,
    /// A grid drawn with borders: `+-------+-------+` or `*-----------*`
    /// lines, `|` between boxes and at the ends of rows (`| 4 . . | . . .
    /// |`), any size. Read as [`Grid`].
    ///
    /// [`Grid`]: InputFormat::Grid
    Bordered,
    /// Comma-separated values with a header naming the puzzle column
    /// (`quizzes`, `quiz`, `puzzle` or `puzzles`) and maybe a solution
    /// column (`solutions` or `solution`), as the Kaggle dataset of one
    /// million sudokus has it: `quizzes,solutions`, then `0043…,8643…` a
    /// line. Other columns are ignored. When forced, a file without a
    /// header reads the puzzle from the first column and a solution from
    /// the second.
    Csv,
    /// SudoCue's `.sdm`: one puzzle a line, many lines; read as
    /// [`Line`](InputFormat::Line).
    Sdm,
}

impl InputFormat {
    /// Every input format, `Auto` first.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::InputFormat;
    /// assert!(InputFormat::ALL.iter().all(|f| InputFormat::from_name(f.name()) == Some(*f)));
    /// ```
    pub const ALL: [InputFormat; 8] = [
        InputFormat::Auto,
        InputFormat::Line,
        InputFormat::Grid,
        InputFormat::Ss,
        InputFormat::Sdk,
        InputFormat::Bordered,
        InputFormat::Csv,
        InputFormat::Sdm,
    ];

    /// The format's name: `auto`, `line`, `grid`, `ss`, `sdk`, `bordered`,
    /// `csv` or `sdm`.
    ///
    /// ```
    /// assert_eq!(exactly_puzzles::sudoku::InputFormat::Sdk.name(), "sdk");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            InputFormat::Auto => "auto",
            InputFormat::Line => "line",
            InputFormat::Grid => "grid",
            InputFormat::Ss => "ss",
            InputFormat::Sdk => "sdk",
            InputFormat::Bordered => "bordered",
            InputFormat::Csv => "csv",
            InputFormat::Sdm => "sdm",
        }
    }

    /// The format of a [`name`](InputFormat::name), if it is one.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::InputFormat;
    /// assert_eq!(InputFormat::from_name("bordered"), Some(InputFormat::Bordered));
    /// assert_eq!(InputFormat::from_name("xml"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<InputFormat> {
        InputFormat::ALL.into_iter().find(|f| f.name() == name)
    }
}

const DIGITS_UPPER: &[u8] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS_WIDE: &[u8] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz@$%";
const ZERO_BASED: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
const LETTERS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// Characters that mark an empty cell (`0` too, unless it is a symbol).
pub(super) const fn is_empty_mark(c: char) -> bool {
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
        match self.byte(v, n) {
            Some(c) => out.push(char::from(c)),
            None => out.push_str(&v.to_string()),
        }
    }

    /// The one byte value `v` (1-based) is written as; `None` for
    /// [`Symbols::Numbers`], which may take two, and for a value past the
    /// alphabet (26 letters for a grid of side 36, say).
    fn byte(self, v: u8, n: usize) -> Option<u8> {
        let i = usize::from(v).checked_sub(1)?;
        match self {
            Symbols::Digits { .. } if n > 35 => DIGITS_WIDE.get(i).copied(),
            Symbols::Digits { lower } => DIGITS_UPPER.get(i).map(|&c| case(c, lower)),
            Symbols::ZeroBased { upper } => ZERO_BASED.get(i).map(|&c| case(c, !upper)),
            Symbols::Letters { lower } => LETTERS.get(i).map(|&c| case(c, lower)),
            Symbols::Numbers => None,
        }
    }
}

fn case(c: u8, lower: bool) -> u8 {
    if lower {
        c.to_ascii_lowercase()
    } else {
        c.to_ascii_uppercase()
    }
}

/// The bytes [`Style::format`] writes for the values of a 9×9 grid in
/// [`Symbols::Digits`]: `.` for an empty cell, `1`–`9`, `?` past 9.
const NINE_DIGITS: [u8; 256] = {
    let mut t = [b'?'; 256];
    t[0] = b'.';
    let mut v = 1;
    while v <= 9 {
        t[v] = b'0' + v as u8;
        v += 1;
    }
    t
};

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
    /// PERF: each symbol of one byte comes from a table, not from
    /// [`Symbols::write`], which took as many instructions as reading the
    /// puzzle (DESIGN.md, "Measurements", code-level choices).
    pub fn format(&self, grid: &Grid) -> String {
        self.with_table(grid.size(), |table, ascii| {
            self.format_with(grid, table, ascii)
        })
    }

    /// [`Style::format`] with the table [`Style::with_table`] gives.
    fn format_with(&self, grid: &Grid, table: &[u8; 256], ascii: bool) -> String {
        let n = grid.size();
        let numbers = self.symbols == Symbols::Numbers;
        if self.one_byte_a_cell(ascii) {
            let mut out = Vec::with_capacity(grid.cells().len() + 1);
            out.extend(grid.cells().iter().map(|&v| table[usize::from(v)]));
            out.push(b'\n');
            return String::from_utf8(out)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        }
        let spaced = self.layout == Layout::SpacedGrid || numbers;
        let mut out = String::with_capacity(n * n * 3 + n);
        for (r, line) in grid.cells().chunks(n.max(1)).enumerate() {
            if r > 0 {
                if self.layout != Layout::Line {
                    out.push('\n');
                } else if spaced {
                    out.push(' ');
                }
            }
            for (c, &v) in line.iter().enumerate() {
                if c > 0 && spaced {
                    out.push(' ');
                }
                match v {
                    v if numbers && v != 0 => self.symbols.write(v, n, &mut out),
                    v => out.push(char::from(table[usize::from(v)])),
                }
            }
        }
        out.push('\n');
        out
    }

    /// Writes a grid to `out` as [`Style::format`] makes it.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::{Grid, Layout, Shape, Style, Symbols};
    /// let grid = Grid::from_cells(Shape::new(1, 2)?, vec![1, 2, 2, 0])?;
    /// let style = Style { layout: Layout::Line, symbols: Symbols::Digits { lower: false } };
    /// let mut out = Vec::new();
    /// style.write(&grid, &mut out)?;
    /// assert_eq!(out, b"122.\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    /// PERF: a line of one byte a cell goes to `out` from a buffer on the
    /// stack, with no string made for it (DESIGN.md, "Measurements",
    /// code-level choices).
    pub fn write(&self, grid: &Grid, out: &mut impl io::Write) -> io::Result<()> {
        self.with_table(grid.size(), |table, ascii| {
            if !self.one_byte_a_cell(ascii) {
                return out.write_all(self.format_with(grid, table, ascii).as_bytes());
            }
            let mut buffer = [0u8; 128];
            for cells in grid.cells().chunks(buffer.len()) {
                for (byte, &v) in buffer.iter_mut().zip(cells) {
                    *byte = table[usize::from(v)];
                }
                out.write_all(&buffer[..cells.len()])?;
            }
            out.write_all(b"\n")
        })
    }

    /// Whether a grid is written one byte a cell, from the table, on one
    /// line: a line of symbols of one byte each (`ascii`), not numbers,
    /// which are spaced.
    fn one_byte_a_cell(&self, ascii: bool) -> bool {
        self.layout == Layout::Line && self.symbols != Symbols::Numbers && ascii
    }

    /// Calls `f` with the byte written for each value (empty cells too,
    /// and none past 0 for numbers, which are written in full), and whether
    /// every one is ASCII.
    fn with_table<R>(&self, n: usize, f: impl FnOnce(&[u8; 256], bool) -> R) -> R {
        if n == 9 && matches!(self.symbols, Symbols::Digits { .. }) {
            // PERF: the usual nine digits from a table made once: 542
            // instructions a serg_benchmark solution written on a line,
            // against 1,073 with a table made for each (DESIGN.md,
            // "Measurements", code-level choices).
            return f(&NINE_DIGITS, true);
        }
        let mut bytes = [b'?'; 256];
        bytes[0] = if self.symbols == Symbols::Numbers {
            b'0'
        } else {
            b'.'
        };
        let values = bytes
            .iter_mut()
            .enumerate()
            .take(n.min(Shape::MAX_SIZE) + 1);
        for (v, slot) in values.skip(1) {
            *slot = self.symbols.byte(v as u8, n).unwrap_or(b'?');
        }
        f(&bytes, bytes.is_ascii())
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
/// - A line of more cells than a grid row has (more than 64) is a record
///   on its own, and ends the block before it; a block of more than
///   [`MAX_BLOCK`] lines is no grid: each of its lines is a record.
/// - A block that is neither is read as a damaged grid (one invalid
///   record, naming the row at fault) when most of its rows have about as
///   many cells as there are rows and few of its lines are puzzles on
///   their own; otherwise each line is a record of its own.
/// - A first line holding only a number below 16 digits (a count of
///   puzzles, as contest files start) is skipped when the number matches
///   the records that follow; otherwise it is an invalid record. Records
///   are held back until the count is checked, at most [`MAX_COUNT`]: a
///   larger count is an invalid record once more records have come.
/// - Simple Sudoku's `.ss` rows (`4..|...|8.5`) with lines of dashes
///   between bands of boxes, and bordered prints (`*-----------*`,
///   `+-------+-------+`, rows `| 4 . . | . . . | 8 . 5 |`) are grids:
///   lines of only `-` (in a block with `|`, and not as long as a row),
///   and lines of only `-+=*|` with a `+` or a `*`, are decoration, and
///   such a block is always one grid.
/// - A line `[Puzzle]` starts a SadMan `.sdk` section: the lines after it,
///   up to a blank line or the next section, are one grid. After it, other
///   sections (`[State]`, …) are skipped up to a blank line or the next
///   section.
/// - A line that is a CSV header (`quizzes,solutions`, `puzzle`, …, see
///   [`InputFormat::Csv`]) starts CSV rows, one record each, up to a
///   blank line.
///
/// [`Reader::format`] forces one format for the whole text instead.
///
/// A record that matches no size is invalid and names its line, and so is
/// a line of more than [`MAX_LINE`] bytes. Grids
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
    format: InputFormat,
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

    /// Reads every record in `format` rather than telling formats apart
    /// record by record ([`InputFormat::Auto`], the default). Jigsaw
    /// records ([`Reader::jigsaw`]) are always read one a line.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::{InputFormat, Reader};
    /// let text = "1.3.\n..1.\n.1..\n2.4.\n";
    /// assert_eq!(Reader::new().read(text).len(), 1);
    /// let lines = Reader::new().format(InputFormat::Line).read(text);
    /// assert_eq!(lines.len(), 4);
    /// assert!(lines.iter().all(|r| r.puzzle.is_err()));
    /// ```
    pub fn format(mut self, format: InputFormat) -> Reader {
        self.format = format;
        self
    }

    /// Whether a side of `n` is read.
    fn allows(&self, n: usize) -> bool {
        n >= MIN_SIZE || self.small || self.shape.is_some_and(|s| s.size() == n)
    }

    /// Reads the records of `text`: every record of the text gives one,
    /// a puzzle or why it is not one. [`Reader::records`] reads them from a
    /// stream as its lines come.
    pub fn read(&self, text: &str) -> Vec<Record> {
        let mut feed = Feed::new(self);
        for (i, line) in exactly::format::lines(text).enumerate() {
            let line = match line.len() > MAX_LINE {
                true => Line::Long,
                false => Line::Text(line),
            };
            feed.push(i + 1, line);
        }
        feed.finish();
        feed.ready.into()
    }
}

/// A line's text before a `#` comment.
pub(super) fn before_comment(line: &str) -> &str {
    line.split('#').next().unwrap_or_default()
}

/// A count line: a number too short to be a puzzle of side 4 or more.
pub(super) fn is_count(content: &str) -> bool {
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
