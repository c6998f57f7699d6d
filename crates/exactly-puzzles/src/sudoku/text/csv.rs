//! CSV files of puzzles: a header naming the columns, then a puzzle (and
//! maybe its solution) a row.

use std::collections::HashMap;

use exactly::format::ParseError;

use super::cells::{line_tokens, read_cells, Token};
use super::SudokuError;
use super::{before_comment, Grid, InputFormat, Layout, Puzzle, Reader, Record, Symbols};

/// Where a CSV row holds the puzzle and its solution (0-based columns).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Columns {
    puzzle: usize,
    solution: Option<usize>,
    /// Whether a header named them (else every row may or may not hold a
    /// solution).
    named: bool,
    /// A column the header names twice: then which column a row's puzzle
    /// is in is not known, and every row is an error naming the header.
    repeated: Option<Repeated>,
    /// Whether a row was read under the header.
    rows: bool,
}

/// A column name a CSV header gives twice.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Repeated {
    /// The header's line.
    line: usize,
    /// The 1-based character columns of the first and second fields.
    first: usize,
    second: usize,
    /// What the two fields name, as the header spells the second.
    what: String,
}

impl Columns {
    /// The columns of a file without a header: the puzzle, then maybe its
    /// solution.
    pub(super) const UNNAMED: Columns = Columns {
        puzzle: 0,
        solution: Some(1),
        named: false,
        repeated: None,
        rows: false,
    };

    /// The error of a header that names a column twice when no row came
    /// under it (each row is an error otherwise): one record, so that the
    /// input is not taken for one without puzzles.
    pub(super) fn header_only(&self) -> Option<Record> {
        let r = self.repeated.as_ref().filter(|_| !self.rows)?;
        Some(r.record(r.line, ""))
    }
}

impl Repeated {
    /// The error record, at line `no`, of a header that names a column
    /// twice; `why` says what it stops (`, so row 3 cannot be read`).
    fn record(&self, no: usize, why: &str) -> Record {
        Record::new(
            no,
            Err(SudokuError::Parse(ParseError::invalid(
                self.line,
                self.second,
                format!(
                    "the CSV header names {} twice (first at column {}){why}: rename or drop \
                     one of them",
                    self.what, self.first
                ),
            ))),
            InputFormat::Csv,
        )
    }
}

/// Column names of the puzzle.
const PUZZLE_NAMES: [&str; 4] = ["quizzes", "quiz", "puzzles", "puzzle"];
/// Column names of the solution.
const SOLUTION_NAMES: [&str; 2] = ["solutions", "solution"];

/// The columns a CSV header on line `line` names: every field a name
/// (letters, digits, `_`, blanks), one of them a puzzle column. A name
/// given twice (letter case aside), or two puzzle or two solution columns,
/// is recorded in [`Columns::repeated`].
pub(super) fn csv_header(line: usize, content: &str) -> Option<Columns> {
    // Every header names a puzzle column, and each of their names has a
    // `z`: a line without one (a puzzle in digits and dots) is no header,
    // found without splitting it into fields.
    memchr::memchr2(b'z', b'Z', content.as_bytes())?;
    let mut puzzle: Option<(usize, usize)> = None;
    let mut solution: Option<(usize, usize)> = None;
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut repeated = None;
    for (i, &(col, field)) in fields(content).iter().enumerate() {
        let name = field.to_ascii_lowercase();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ' ')
        {
            return None;
        }
        let col = col + 1;
        let mut twice = |first: usize, what: String| {
            repeated.get_or_insert(Repeated {
                line,
                first,
                second: col,
                what,
            });
        };
        if let Some(&first) = seen.get(&name) {
            twice(first, format!("the column '{field}'"));
        }
        seen.entry(name.clone()).or_insert(col);
        if PUZZLE_NAMES.contains(&name.as_str()) {
            match puzzle {
                Some((_, first)) => twice(first, format!("a puzzle column ('{field}')")),
                None => puzzle = Some((i, col)),
            }
        } else if SOLUTION_NAMES.contains(&name.as_str()) {
            match solution {
                Some((_, first)) => twice(first, format!("a solution column ('{field}')")),
                None => solution = Some((i, col)),
            }
        }
    }
    Some(Columns {
        puzzle: puzzle?.0,
        solution: solution.map(|(i, _)| i),
        named: true,
        repeated,
        rows: false,
    })
}

/// The fields of a CSV line, each with the 0-based character column
/// where its text starts: split at commas, trimmed, surrounding double
/// quotes dropped.
fn fields(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut start_col = 0;
    let ends = line
        .char_indices()
        .chain(std::iter::once((line.len(), ',')));
    for (col, (i, c)) in ends.enumerate() {
        if c == ',' {
            let raw = &line[start..i];
            let lead = raw.len() - raw.trim_start().len();
            let mut text = raw.trim();
            let mut offset = raw[..lead].chars().count();
            if text.len() >= 2 && text.starts_with('"') && text.ends_with('"') {
                text = &text[1..text.len() - 1];
                offset += 1;
            }
            out.push((start_col + offset, text));
            start = i + 1;
            start_col = col + 1;
        }
    }
    out
}

impl Reader {
    /// One CSV row: the puzzle, and its solution when the row gives one.
    pub(super) fn read_csv_row(&self, no: usize, line: &str, columns: &mut Columns) -> Record {
        columns.rows = true;
        if let Some(r) = &columns.repeated {
            return r.record(no, &format!(", so row {no} cannot be read"));
        }
        let fields = fields(before_comment(line));
        let need = columns.puzzle.max(columns.solution.unwrap_or(0)) + 1;
        let bad = |column: Option<usize>, message: String| {
            Record::new(
                no,
                Err(SudokuError::Parse(ParseError::invalid(
                    no,
                    column.unwrap_or(0),
                    message,
                ))),
                InputFormat::Csv,
            )
        };
        if columns.named && fields.len() < need {
            return bad(
                None,
                format!(
                    "a CSV row of {} field{}: the header names {need}",
                    fields.len(),
                    if fields.len() == 1 { "" } else { "s" }
                ),
            );
        }
        let Some(&(col, text)) = fields.get(columns.puzzle) else {
            return bad(None, "a CSV row with no puzzle".to_string());
        };
        let puzzle = field_tokens(no, col, text)
            .and_then(|tokens| read_cells(&tokens, Layout::Line, self, no, &self.rules));
        let puzzle = match puzzle {
            Ok(p) => p,
            Err(e) => return Record::new(no, Err(e), InputFormat::Csv),
        };
        let given = columns
            .solution
            .and_then(|c| fields.get(c))
            .filter(|(_, text)| !text.is_empty());
        let solution = match given {
            Some(&(col, text)) => match read_solution(no, col, text, &puzzle) {
                Ok(g) => Some(g),
                Err(e) => return Record::new(no, Err(e), InputFormat::Csv),
            },
            None => None,
        };
        Record {
            line: no,
            puzzle: Ok(puzzle),
            format: InputFormat::Csv,
            solution,
        }
    }
}

/// The cells of a field, with columns counted on the whole line.
fn field_tokens(no: usize, col: usize, text: &str) -> Result<Vec<Token<'_>>, SudokuError> {
    let mut tokens = line_tokens(no, text)?;
    for t in &mut tokens {
        t.column += col;
    }
    Ok(tokens)
}

/// A given solution, in the puzzle's symbols: as many cells as the
/// puzzle, each a symbol or empty (an incomplete solution is the caller's
/// to report). Its values are not checked against the puzzle's.
fn read_solution(no: usize, col: usize, text: &str, puzzle: &Puzzle) -> Result<Grid, SudokuError> {
    let tokens = field_tokens(no, col, text)?;
    let n = puzzle.grid.size();
    if tokens.len() != n * n {
        return Err(SudokuError::Parse(ParseError::invalid(
            no,
            col + 1,
            format!(
                "a solution of {} cells for a puzzle of {}",
                tokens.len(),
                n * n
            ),
        )));
    }
    let symbols = puzzle.style.symbols;
    let cells = tokens
        .iter()
        .map(|t| {
            let value = match symbols {
                Symbols::Numbers => t
                    .text
                    .parse::<usize>()
                    .ok()
                    .filter(|&v| v <= n)
                    .map(|v| v as u8),
                _ => {
                    let mut chars = t.text.chars();
                    match (chars.next(), chars.next()) {
                        (Some(c), None) => symbols.value(c, n),
                        _ => None,
                    }
                }
            };
            value.ok_or_else(|| {
                SudokuError::Parse(ParseError::invalid(
                    t.line,
                    t.column,
                    format!(
                        "bad cell '{}' in the solution of a {n}x{n} grid",
                        t.text.escape_debug()
                    ),
                ))
            })
        })
        .collect::<Result<Vec<u8>, _>>()?;
    Grid::from_cells(puzzle.grid.shape(), cells)
}
