//! Records as lines come: the state the reader keeps from one line to the
//! next, so that a batch is read, and answered, a record at a time.
//!
//! ```text
//!  bytes ──▶ LineReader ──▶ Feed::push(line) ──▶ ready records ──▶ Records
//!            (\n, \r\n, \r;    held back only while a record may
//!             BOM; long lines) still grow: a block up to a blank
//!                              line (at most MAX_BLOCK lines), a
//!                              [Puzzle] section, the records after a
//!                              count line (at most MAX_COUNT)
//! ```
//!
//! [`Reader::read`] feeds a whole text the same way, so a text read at
//! once and read line by line gives the same records.

use std::collections::VecDeque;
use std::io::{self, BufRead};

use exactly::format::ParseError;

use super::block::{is_decoration, is_leading_header, is_puzzle_header, is_rule, section, Section};
use super::cells::{quick_line, row_tokens, MAX_CELLS};
use super::csv::{csv_header, Columns};
use super::jigsaw::read_jigsaw;
use super::{before_comment, is_count, InputFormat, Reader, Record, Shape, SudokuError};

/// The longest line read, in bytes: a longer one is an invalid record
/// (no puzzle, with its solution, needs a hundredth of it), and only this
/// much of it is held.
pub const MAX_LINE: usize = 1 << 22;

/// The most lines of a grid: 64 rows with a border line around each (boxes
/// of one row). A longer block of lines is no grid: each of its lines is a
/// record of its own.
pub const MAX_BLOCK: usize = 2 * Shape::MAX_SIZE + 1;

/// The most records a count line may count: they are held back until the
/// count is checked, so a larger count is not waited for (it is an invalid
/// record once more than this many records have come).
pub const MAX_COUNT: usize = 1 << 16;

/// The most lines held after a `[Name]` line that comes before any
/// `[Puzzle]` section, waiting for a `[Puzzle]` header to show that they
/// are leading sections of an `.sdk` file (`[Properties]`, …), and the
/// most bytes of them.
const MAX_LEADING: (usize, usize) = (64, 1 << 16);

/// One line of input: its text, or the mark of a line past [`MAX_LINE`].
pub(super) enum Line<'a> {
    Text(&'a str),
    Long,
}

/// An invalid record for a line past [`MAX_LINE`].
fn long_line(no: usize, format: InputFormat) -> Record {
    Record::new(
        no,
        Err(SudokuError::Parse(ParseError::invalid(
            no,
            0,
            format!(
                "a line of more than {MAX_LINE} bytes: more than {MAX_CELLS} cells, no record is \
                 that long"
            ),
        ))),
        format,
    )
}

/// The reader's state between lines.
pub(super) struct Feed {
    reader: Reader,
    mode: Mode,
    /// Records decided, in order, not yet taken.
    pub(super) ready: VecDeque<Record>,
}

enum Mode {
    /// Every record in whatever format it looks like (and jigsaw lines).
    Auto(Box<Auto>),
    /// Every non-blank line a record (`line`, `sdm`).
    Lines,
    /// Every line a CSV row; the columns once the first line is read.
    Csv(Option<Columns>),
    /// Every block one grid (`grid`, `ss`, `bordered`, `sdk`).
    Grids(Grids),
}

/// [`Mode::Auto`]: see [`Reader`] for the rules.
struct Auto {
    /// The section of `.sdk` or CSV lines that the reader is in.
    section: Section,
    /// Whether a `[Puzzle]` section came: then other `[Name]` sections
    /// are skipped.
    sdk: bool,
    /// The lines from a `[Name]` line before any `[Puzzle]` section on
    /// (`None` for a line past [`MAX_LINE`]), held until a `[Puzzle]`
    /// header comes (then they are skipped, leading sections of an `.sdk`
    /// file) or [`MAX_LEADING`] is passed or the input ends (then they are
    /// read as any lines are).
    leading: Option<Vec<(usize, Option<String>)>>,
    /// Whether held lines were given back: a `[Name]` line before any
    /// `[Puzzle]` is then no longer held.
    released: bool,
    /// The block of lines so far.
    block: Vec<(usize, String)>,
    /// Whether the block is past [`MAX_BLOCK`] lines: then each line is a
    /// record as it comes.
    long: bool,
    /// A count line, while it is not known whether it counts the records.
    count: Option<(usize, String)>,
    /// The records after a count line, held until the count is checked.
    held: Vec<Record>,
    /// Whether no content line came yet.
    first: bool,
    /// Whether the count line still might be a grid's first row.
    pending: bool,
    /// Whether a blank line came after the count line.
    apart: bool,
}

/// [`Mode::Grids`].
struct Grids {
    format: InputFormat,
    block: Vec<(usize, String)>,
    /// Inside a section other than `[Puzzle]`.
    skip: bool,
    /// The line of the `[Puzzle]` header the block is under.
    header: Option<usize>,
    /// What makes the block no grid, found before it ends (a line past
    /// [`MAX_LINE`], or more than [`MAX_BLOCK`] lines): its lines are no
    /// longer kept.
    bad: Option<SudokuError>,
    /// The block's first line.
    start: Option<usize>,
}

impl Feed {
    /// The state before the first line.
    pub(super) fn new(reader: &Reader) -> Feed {
        let mode = match reader.format {
            _ if reader.jigsaw => Mode::Auto(Box::default()),
            InputFormat::Auto => Mode::Auto(Box::default()),
            InputFormat::Line | InputFormat::Sdm => Mode::Lines,
            InputFormat::Csv => Mode::Csv(None),
            format => Mode::Grids(Grids {
                format,
                block: Vec::new(),
                skip: false,
                header: None,
                bad: None,
                start: None,
            }),
        };
        Feed {
            reader: reader.clone(),
            mode,
            ready: VecDeque::new(),
        }
    }

    /// Reads line `no` (1-based).
    pub(super) fn push(&mut self, no: usize, line: Line<'_>) {
        let (reader, ready) = (&self.reader, &mut self.ready);
        match &mut self.mode {
            Mode::Auto(auto) => auto.push(reader, ready, no, line),
            Mode::Lines => {
                let record = match line {
                    Line::Text(l) if before_comment(l).trim().is_empty() => return,
                    Line::Text(l) => reader.read_line(no, l),
                    Line::Long => long_line(no, reader.format),
                };
                ready.push_back(Record {
                    format: reader.format,
                    ..record
                });
            }
            Mode::Csv(columns) => {
                let line = match line {
                    Line::Text(l) => l,
                    Line::Long => {
                        columns.get_or_insert(Columns::UNNAMED);
                        ready.push_back(long_line(no, InputFormat::Csv));
                        return;
                    }
                };
                let content = before_comment(line).trim();
                if content.is_empty() {
                    return;
                }
                if columns.is_none() {
                    if let Some(named) = csv_header(no, before_comment(line)) {
                        *columns = Some(named);
                        return;
                    }
                }
                let columns = columns.get_or_insert(Columns::UNNAMED);
                ready.push_back(reader.read_csv_row(no, line, columns));
            }
            Mode::Grids(grids) => grids.push(reader, ready, no, line),
        }
    }

    /// Ends the input: what was held back is decided.
    pub(super) fn finish(&mut self) {
        let (reader, ready) = (&self.reader, &mut self.ready);
        match &mut self.mode {
            Mode::Auto(auto) => {
                auto.release(reader, ready);
                auto.flush(reader, ready);
                auto.end_section(reader, ready);
                auto.check_count(reader, ready, true);
            }
            Mode::Lines | Mode::Csv(None) => {}
            Mode::Csv(Some(columns)) => ready.extend(columns.header_only()),
            Mode::Grids(grids) => grids.flush(reader, ready),
        }
    }
}

impl Default for Auto {
    fn default() -> Auto {
        Auto {
            section: Section::None,
            sdk: false,
            leading: None,
            released: false,
            block: Vec::new(),
            long: false,
            count: None,
            held: Vec::new(),
            first: true,
            pending: false,
            apart: false,
        }
    }
}

impl Auto {
    /// Ends the block before a line that is a record on its own, then
    /// gives that record.
    fn emit_alone(&mut self, reader: &Reader, ready: &mut VecDeque<Record>, record: Record) {
        self.flush(reader, ready);
        self.emit(reader, ready, record);
    }

    /// Gives out a decided record: held while a count line is unchecked.
    fn emit(&mut self, reader: &Reader, ready: &mut VecDeque<Record>, record: Record) {
        if self.count.is_none() {
            ready.push_back(record);
            return;
        }
        self.held.push(record);
        self.check_count(reader, ready, false);
    }

    /// Decides the count line once the records after it are known to
    /// differ from its count (or at the end, `end`): skipped when it counts
    /// them, else a record of its own before them.
    fn check_count(&mut self, reader: &Reader, ready: &mut VecDeque<Record>, end: bool) {
        let Some((line, text)) = &self.count else {
            return;
        };
        let line = *line;
        let digits = before_comment(text).trim();
        let count = digits.parse::<usize>().unwrap_or(usize::MAX);
        let held = self.held.len();
        if !end && held <= count.min(MAX_COUNT) {
            return;
        }
        // A lone `0` counts no puzzle, unless small grids are asked for:
        // then it is the empty 1x1 grid (what the writer gives for one).
        let lone_small = held == 0 && reader.small;
        if !(end && count == held) || lone_small {
            let record = if held == 0 || reader.small {
                // The only content, or a small puzzle asked for.
                match reader.jigsaw {
                    true => Record::new(
                        line,
                        read_jigsaw(line, digits, &reader.rules, reader.small),
                        InputFormat::Line,
                    ),
                    false => reader.read_line(line, digits),
                }
            } else {
                let why = if end {
                    format!("it does not match the {held} records that follow")
                } else if count > MAX_COUNT {
                    format!("it counts more than the {MAX_COUNT} records a count line may count")
                } else {
                    format!("it does not match the records that follow: more than {count}")
                };
                Record::new(
                    line,
                    Err(SudokuError::Parse(ParseError::invalid(
                        line,
                        1,
                        format!("'{digits}' is not a puzzle; as a count line, {why}"),
                    ))),
                    InputFormat::Line,
                )
            };
            ready.push_back(record);
        }
        self.count = None;
        ready.extend(self.held.drain(..));
    }

    /// The records of the block so far; a new block starts.
    fn flush(&mut self, reader: &Reader, ready: &mut VecDeque<Record>) {
        self.long = false;
        if self.block.is_empty() {
            return;
        }
        let block = std::mem::take(&mut self.block);
        let lines: Vec<(usize, &str)> = block.iter().map(|(no, l)| (*no, l.as_str())).collect();
        let mut records = Vec::new();
        reader.read_block(&lines, &mut records);
        for record in records {
            self.emit(reader, ready, record);
        }
    }

    /// Ends a section: a `[Puzzle]` section's rows become one grid.
    fn end_section(&mut self, reader: &Reader, ready: &mut VecDeque<Record>) {
        match std::mem::replace(&mut self.section, Section::None) {
            Section::Puzzle { header, rows } => {
                let rows: Vec<(usize, &str)> =
                    rows.iter().map(|(no, l)| (*no, l.as_str())).collect();
                let record = reader.read_block_grid(&rows, InputFormat::Sdk, header);
                self.emit(reader, ready, record);
            }
            Section::Csv(columns) => {
                if let Some(record) = columns.header_only() {
                    self.emit(reader, ready, record);
                }
            }
            _ => {}
        }
    }

    /// Reads the held lines of a `[Name]` line that no `[Puzzle]` header
    /// followed as any lines are read.
    fn release(&mut self, reader: &Reader, ready: &mut VecDeque<Record>) {
        if let Some(held) = self.leading.take() {
            self.released = true;
            for (no, text) in held {
                let line = text.as_deref().map_or(Line::Long, Line::Text);
                self.push(reader, ready, no, line);
            }
        }
    }

    /// Holds `line` after a leading `[Name]` line (see [`Auto::leading`]):
    /// true when it is held, false when it is to be read now (a `[Puzzle]`
    /// header, which drops the held lines, or any line once the held lines
    /// are given back).
    fn hold(
        &mut self,
        reader: &Reader,
        ready: &mut VecDeque<Record>,
        no: usize,
        line: &Line<'_>,
    ) -> bool {
        let Some(held) = &mut self.leading else {
            return false;
        };
        let text = match line {
            Line::Text(l) => Some(*l),
            Line::Long => None,
        };
        if text.is_some_and(|l| is_puzzle_header(before_comment(l))) {
            self.leading = None;
            return false;
        }
        let bytes: usize = held
            .iter()
            .map(|(_, t)| t.as_ref().map_or(0, String::len))
            .sum();
        let len = text.map_or(0, str::len);
        if held.len() < MAX_LEADING.0 && bytes + len <= MAX_LEADING.1 {
            held.push((no, text.map(str::to_string)));
            return true;
        }
        self.release(reader, ready);
        false
    }

    fn push(&mut self, reader: &Reader, ready: &mut VecDeque<Record>, no: usize, line: Line<'_>) {
        // PERF: the usual record, a line of 81 cells side by side, read at
        // once where every test below would pass it on to `quick_line`: no
        // leading section held and none open, not jigsaw. Its cells hold
        // no `#`, `[`, `z` or space, so it is no comment, section, CSV
        // header or count line (at most 15 digits), and a cell other than
        // `-` makes it no rule or decoration. Nine hundred instructions a
        // serg_benchmark line fewer.
        if let Line::Text(l) = line {
            if l.len() == 81
                && self.leading.is_none()
                && matches!(self.section, Section::None)
                && !reader.jigsaw
                && l.bytes().any(|b| b != b'-')
            {
                if let Some(puzzle) = quick_line(l, reader, &reader.rules) {
                    (self.first, self.pending) = (false, false);
                    self.emit_alone(reader, ready, Record::new(no, puzzle, InputFormat::Line));
                    return;
                }
            }
        }
        if self.hold(reader, ready, no, &line) {
            return;
        }
        let line = match line {
            Line::Text(line) => line,
            Line::Long => {
                (self.first, self.pending) = (false, false);
                if matches!(self.section, Section::Skip) {
                    return;
                }
                self.flush(reader, ready);
                if !matches!(self.section, Section::Csv(_)) {
                    self.end_section(reader, ready);
                }
                let format = match self.section {
                    Section::Csv(_) => InputFormat::Csv,
                    _ => InputFormat::Line,
                };
                self.emit(reader, ready, long_line(no, format));
                return;
            }
        };
        let content = before_comment(line);
        if content.trim().is_empty() {
            if !line.trim().is_empty() {
                // A comment line.
                return;
            }
            self.apart = true;
            if !reader.jigsaw {
                self.flush(reader, ready);
                self.end_section(reader, ready);
            }
            return;
        }
        if !reader.jigsaw && !self.sdk && !self.released && is_leading_header(content) {
            self.leading = Some(vec![(no, Some(line.to_string()))]);
            return;
        }
        if !reader.jigsaw {
            if let Some(next) = section(no, content, self.sdk) {
                self.sdk |= matches!(next, Section::Puzzle { .. });
                self.flush(reader, ready);
                self.end_section(reader, ready);
                self.section = next;
                (self.first, self.pending) = (false, false);
                return;
            }
            match &mut self.section {
                Section::None => {}
                Section::Skip => return,
                Section::Puzzle { header, rows } => {
                    if rows.len() < MAX_BLOCK {
                        rows.push((no, line.to_string()));
                        return;
                    }
                    let header = *header;
                    self.section = Section::Skip;
                    let record = Record::new(
                        header,
                        Err(SudokuError::Parse(ParseError::invalid(
                            header,
                            0,
                            format!(
                                "a [Puzzle] section of more than {MAX_BLOCK} lines: no grid is \
                                 that tall"
                            ),
                        ))),
                        InputFormat::Sdk,
                    );
                    self.emit(reader, ready, record);
                    return;
                }
                Section::Csv(columns) => {
                    let record = reader.read_csv_row(no, line, columns);
                    (self.first, self.pending) = (false, false);
                    self.emit(reader, ready, record);
                    return;
                }
            }
        }
        if std::mem::take(&mut self.first) && is_count(content) {
            self.count = Some((no, line.to_string()));
            (self.pending, self.apart) = (true, false);
            return;
        }
        if std::mem::take(&mut self.pending) && !self.apart {
            // A row of the same length right below: the first row of a grid.
            if let Some((count_no, digits)) = &self.count {
                if row_tokens(no, line).len() == digits.trim().len() {
                    self.block.push((*count_no, digits.clone()));
                    self.count = None;
                }
            }
        }
        if reader.jigsaw {
            let record = Record::new(
                no,
                read_jigsaw(no, content, &reader.rules, reader.small),
                InputFormat::Line,
            );
            self.emit(reader, ready, record);
            return;
        }
        // A line of more cells than a grid row has is a record on its own:
        // it ends the block before it.
        if !is_decoration(line) && !is_rule(line) {
            // A line of 81 cells side by side, the usual record, read at once.
            let quick = quick_line(line, reader, &reader.rules);
            if quick.is_some() || row_tokens(no, line).len() > Shape::MAX_SIZE {
                let record = match quick {
                    Some(puzzle) => Record::new(no, puzzle, InputFormat::Line),
                    None => reader.read_line(no, line),
                };
                self.emit_alone(reader, ready, record);
                return;
            }
        }
        if self.long {
            let record = reader.read_line(no, line);
            self.emit(reader, ready, record);
            return;
        }
        self.block.push((no, line.to_string()));
        if self.block.len() > MAX_BLOCK {
            // No grid is that tall: every line a record.
            for (no, line) in std::mem::take(&mut self.block) {
                let record = reader.read_line(no, &line);
                self.emit(reader, ready, record);
            }
            self.long = true;
        }
    }
}

impl Grids {
    /// Ends a block: one grid, or the error that made it none.
    fn flush(&mut self, reader: &Reader, ready: &mut VecDeque<Record>) {
        let header = self.header.take();
        let block = std::mem::take(&mut self.block);
        let start = self.start.take();
        if let Some(error) = self.bad.take() {
            let line = start.unwrap_or(1);
            ready.push_back(Record::new(line, Err(error), self.format));
        } else if !block.is_empty() || header.is_some() {
            let first = header.unwrap_or(block[0].0);
            let lines: Vec<(usize, &str)> = block.iter().map(|(no, l)| (*no, l.as_str())).collect();
            ready.push_back(reader.read_block_grid(&lines, self.format, first));
        }
    }

    /// Marks the block as no grid.
    fn spoil(&mut self, error: SudokuError) {
        self.block.clear();
        self.bad.get_or_insert(error);
    }

    fn push(&mut self, reader: &Reader, ready: &mut VecDeque<Record>, no: usize, line: Line<'_>) {
        let line = match line {
            Line::Text(line) => line,
            Line::Long => {
                if !self.skip {
                    self.start.get_or_insert(no);
                    if let Err(e) = long_line(no, self.format).puzzle {
                        self.spoil(e);
                    }
                }
                return;
            }
        };
        let content = before_comment(line);
        if content.trim().is_empty() {
            if line.trim().is_empty() {
                self.flush(reader, ready);
                self.skip = false;
            }
            return;
        }
        let t = content.trim();
        if let Some(name) = t.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            self.flush(reader, ready);
            self.skip = !name.trim().eq_ignore_ascii_case("puzzle");
            self.header = (!self.skip).then_some(no);
            self.start = self.header;
            return;
        }
        if self.skip {
            return;
        }
        let start = *self.start.get_or_insert(no);
        if self.bad.is_some() {
            return;
        }
        if self.block.len() == MAX_BLOCK {
            self.spoil(SudokuError::Parse(ParseError::invalid(
                start,
                0,
                format!(
                    "a block of more than {MAX_BLOCK} lines: no grid is that tall (a blank line \
                     ends a grid)"
                ),
            )));
            return;
        }
        self.block.push((no, line.to_string()));
    }
}

/// The lines of a byte stream as [`exactly::format::lines`] sees a text:
/// a line ends at `\n`, `\r\n` or a lone `\r`, a byte-order mark at the
/// start is skipped, and bytes that are not UTF-8 become U+FFFD. No more
/// than [`MAX_LINE`] bytes of a line are held.
pub(super) struct LineReader<R> {
    input: R,
    buf: Vec<u8>,
    /// The last line made valid UTF-8, when it was not.
    lossy: String,
    /// Lines read so far.
    no: usize,
    /// A `\r` ended the last line: a `\n` right after belongs to it.
    after_cr: bool,
}

impl<R: BufRead> LineReader<R> {
    pub(super) fn new(input: R) -> LineReader<R> {
        LineReader {
            input,
            buf: Vec::new(),
            lossy: String::new(),
            no: 0,
            after_cr: false,
        }
    }

    /// The next line and its 1-based number, or `None` at the end. The
    /// line is lent from the reader's buffer (PERF: no string made for each
    /// line; DESIGN.md, "Measurements", code-level choices).
    pub(super) fn next_line(&mut self) -> io::Result<Option<(usize, Line<'_>)>> {
        self.buf.clear();
        let mut long = false;
        let ended = loop {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                break false;
            }
            if std::mem::take(&mut self.after_cr) && chunk[0] == b'\n' {
                self.input.consume(1);
                continue;
            }
            let end = memchr::memchr2(b'\n', b'\r', chunk);
            let take = end.unwrap_or(chunk.len());
            if !long && self.buf.len() + take <= MAX_LINE {
                self.buf.extend_from_slice(&chunk[..take]);
            } else {
                long = true;
                self.buf.clear();
            }
            match end {
                Some(i) => {
                    self.after_cr = chunk[i] == b'\r';
                    self.input.consume(i + 1);
                    break true;
                }
                None => self.input.consume(take),
            }
        };
        let mut text: &[u8] = &self.buf;
        if self.no == 0 {
            text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
        }
        if !ended && !long && text.is_empty() {
            return Ok(None);
        }
        self.no += 1;
        let line = match long {
            true => Line::Long,
            // PERF: checked as UTF-8 first, which is faster than the lossy
            // conversion's walk on valid text.
            false => Line::Text(match std::str::from_utf8(text) {
                Ok(text) => text,
                Err(_) => {
                    self.lossy = String::from_utf8_lossy(text).into_owned();
                    &self.lossy
                }
            }),
        };
        Ok(Some((self.no, line)))
    }
}

/// The records of a byte stream, each given as soon as it is decided
/// ([`Reader::records`]).
pub struct Records<R> {
    lines: LineReader<R>,
    feed: Feed,
    done: bool,
}

impl<R: BufRead> Iterator for Records<R> {
    type Item = io::Result<Record>;

    fn next(&mut self) -> Option<io::Result<Record>> {
        loop {
            if let Some(record) = self.feed.ready.pop_front() {
                return Some(Ok(record));
            }
            if self.done {
                return None;
            }
            match self.lines.next_line() {
                Ok(Some((no, line))) => self.feed.push(no, line),
                Ok(None) => {
                    self.feed.finish();
                    self.done = true;
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
    }
}

impl<R> Records<R> {
    /// The input the records are read from, for a caller that asks how
    /// much of it is buffered.
    pub fn get_ref(&self) -> &R {
        &self.lines.input
    }

    /// Whether a record has been read and not yet taken: the next one
    /// comes without reading.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::Reader;
    /// let mut records = Reader::new().records("12..34..........\n".as_bytes());
    /// assert!(!records.ready());
    /// assert!(records.next().is_some());
    /// assert!(records.next().is_none());
    /// ```
    pub fn ready(&self) -> bool {
        !self.feed.ready.is_empty()
    }
}

impl Reader {
    /// Reads records from `input` as its lines come: each record comes out
    /// once the lines after it show where it ends (a line of its own at
    /// once when it has more cells than a grid row; a grid at the blank
    /// line after it, or at a line that is no row of it), so that a batch
    /// of any length is read in bounded memory ([`MAX_LINE`],
    /// [`MAX_BLOCK`], [`MAX_COUNT`]) and answered as it comes. The records
    /// are those [`Reader::read`] gives for the same text; an error reading
    /// `input` ends them.
    ///
    /// ```
    /// use exactly_puzzles::sudoku::Reader;
    /// let text = "1.3.\n..1.\n.1..\n2.4.\n\n12..34..........\n";
    /// let records: Vec<_> = Reader::new().records(text.as_bytes()).collect::<Result<_, _>>()?;
    /// assert_eq!(records, Reader::new().read(text));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn records<R: BufRead>(&self, input: R) -> Records<R> {
        Records {
            lines: LineReader::new(input),
            feed: Feed::new(self),
            done: false,
        }
    }
}
