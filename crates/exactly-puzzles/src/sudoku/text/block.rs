//! Blocks of lines: grids, decorated or not (`.ss`, bordered prints,
//! `.sdk` sections), and lines that are puzzles on their own.

use exactly::format::ParseError;

use super::cells::{is_cell, line_tokens, quick_line, read_cells, row_tokens, Token};
use super::csv::{csv_header, Columns};
use super::{before_comment, InputFormat, Layout, Puzzle, Reader, Record, Shape, SudokuError};

/// The section of lines the reader is in: an `.sdk` section, or CSV rows.
pub(super) enum Section {
    /// Plain records.
    None,
    /// A section other than `[Puzzle]`: its lines are skipped.
    Skip,
    /// A `[Puzzle]` section: its header's line and its rows so far.
    Puzzle {
        header: usize,
        rows: Vec<(usize, String)>,
    },
    /// CSV rows under a header.
    Csv(Columns),
}

/// The section a line starts: a `[Puzzle]` header, another `[Name]`
/// header once a `[Puzzle]` section came (`sdk`: before, such a line is
/// no header, so that what follows it is not skipped unseen), or a CSV
/// header.
pub(super) fn section(line_no: usize, content: &str, sdk: bool) -> Option<Section> {
    let t = content.trim();
    if let Some(name) = t.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        if name.eq_ignore_ascii_case("puzzle") {
            return Some(Section::Puzzle {
                header: line_no,
                rows: Vec::new(),
            });
        }
        let word = name.starts_with(|c: char| c.is_ascii_alphabetic())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == ' ');
        if sdk && word {
            return Some(Section::Skip);
        }
    }
    csv_header(line_no, content).map(Section::Csv)
}

/// The name of a `[Name]` line: letters, digits and spaces, starting with
/// a letter.
fn section_name(content: &str) -> Option<&str> {
    let name = content.trim().strip_prefix('[')?.strip_suffix(']')?;
    let word = name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == ' ');
    word.then_some(name)
}

/// A `[Puzzle]` line.
pub(super) fn is_puzzle_header(content: &str) -> bool {
    section_name(content).is_some_and(|n| n.eq_ignore_ascii_case("puzzle"))
}

/// A `[Name]` line other than `[Puzzle]`: before any `[Puzzle]` section,
/// the start of what may be a leading section of an `.sdk` file.
pub(super) fn is_leading_header(content: &str) -> bool {
    section_name(content).is_some_and(|n| !n.eq_ignore_ascii_case("puzzle"))
}

/// A rule line of an `.ss` file: only `-` (or `=`), at least two.
pub(super) fn is_rule(line: &str) -> bool {
    let t = before_comment(line).trim();
    t.len() >= 2 && t.bytes().all(|b| b == b'-' || b == b'=')
}

impl Reader {
    /// A block of lines read as one grid, whatever it looks like:
    /// decoration and rules dropped. `first` is the line to name when the
    /// block has no row.
    pub(super) fn read_block_grid(
        &self,
        block: &[(usize, &str)],
        format: InputFormat,
        first: usize,
    ) -> Record {
        let rows: Vec<(usize, &str, Vec<Token<'_>>)> = block
            .iter()
            .filter(|(_, l)| !is_decoration(l) && !is_rule(l))
            .map(|&(no, l)| (no, l, row_tokens(no, l)))
            .collect();
        if rows.is_empty() {
            let message = match format {
                InputFormat::Sdk => "an empty [Puzzle] section: expected the rows of a grid",
                _ => "only border lines: expected the rows of a grid",
            };
            return Record::new(
                first,
                Err(SudokuError::Parse(ParseError::invalid(
                    first,
                    0,
                    message.to_string(),
                ))),
                format,
            );
        }
        let spaced = rows
            .iter()
            .any(|(_, l, _)| before_comment(l).trim().contains(char::is_whitespace));
        Record::new(rows[0].0, self.read_grid(&rows, spaced), format)
    }

    /// One line read as a puzzle on its own.
    pub(super) fn read_line(&self, no: usize, line: &str) -> Record {
        if !is_rule(line) {
            if let Some(puzzle) = quick_line(line, self, &self.rules) {
                return Record::new(no, puzzle, InputFormat::Line);
            }
        }
        Record::new(
            no,
            line_tokens(no, line)
                .and_then(|tokens| read_cells(&tokens, Layout::Line, self, no, &self.rules)),
            InputFormat::Line,
        )
    }

    /// The records of a block of consecutive non-blank lines.
    pub(super) fn read_block(&self, block: &[(usize, &str)], out: &mut Vec<Record>) {
        // Lines of dashes in a block with `|` are `.ss` rules between bands
        // of boxes, unless as long as a row (then they are rows of empty
        // cells).
        let barred = block.iter().any(|(_, l)| before_comment(l).contains('|'));
        let width = block
            .iter()
            .find(|(_, l)| !is_decoration(l) && !is_rule(l))
            .map(|&(no, l)| row_tokens(no, l).len());
        let is_ss_rule =
            |l: &str| barred && is_rule(l) && Some(before_comment(l).trim().len()) != width;
        let rows: Vec<(usize, &str, Vec<Token<'_>>)> = block
            .iter()
            .filter(|(_, l)| !is_decoration(l) && !is_ss_rule(l))
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
        // Bars and borders make a block a grid, whatever its lines hold.
        let drawn = barred || k < block.len();
        if drawn || ((square || damaged) && 2 * fitting <= k) {
            let spaced = rows
                .iter()
                .any(|(_, l, _)| before_comment(l).trim().contains(char::is_whitespace));
            let bordered = block.iter().any(|(_, l)| {
                let t = before_comment(l).trim();
                t.starts_with('|') || (is_decoration(l) && (t.contains('+') || t.contains('*')))
            });
            let format = if bordered {
                InputFormat::Bordered
            } else if drawn {
                InputFormat::Ss
            } else {
                InputFormat::Grid
            };
            out.push(Record::new(
                rows[0].0,
                self.read_grid(&rows, spaced),
                format,
            ));
        } else {
            out.extend(alone);
        }
    }

    /// The rows of a block as one grid.
    pub(super) fn read_grid(
        &self,
        rows: &[(usize, &str, Vec<Token<'_>>)],
        spaced: bool,
    ) -> Result<Puzzle, SudokuError> {
        let k = rows.len();
        let first = rows[0].0;
        let width = rows[0].2.len();
        if rows.iter().all(|(_, _, r)| r.len() == width) && width != k {
            return Err(SudokuError::Parse(ParseError::invalid(
                first,
                0,
                format!(
                    "a grid of {k} rows of {width} cells: expected as many rows as cells in a row"
                ),
            )));
        }
        if let Some((no, _, r)) = rows.iter().find(|(_, _, r)| r.len() != k) {
            return Err(SudokuError::Parse(ParseError::invalid(
                *no,
                0,
                format!(
                    "a row of {} cells in a grid of {k} rows: expected {k}",
                    r.len()
                ),
            )));
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

/// A decoration line: only `-+=|*` and blanks, with at least one `+`, or
/// a `*` and a `-` or `=` (`*-----------*`).
pub(super) fn is_decoration(line: &str) -> bool {
    let corner = line.contains('+') || (line.contains('*') && line.contains(['-', '=']));
    corner
        && line
            .chars()
            .all(|c| matches!(c, '-' | '+' | '=' | '|' | '*') || c.is_whitespace())
}
