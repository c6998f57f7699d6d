//! Blocks of lines: grids, decorated or not, and lines that are puzzles
//! on their own.

use super::cells::{is_cell, line_tokens, read_cells, row_tokens, Token};
use super::{before_comment, Layout, Puzzle, Reader, Record, Shape, SudokuError};

impl Reader {
    /// One line read as a puzzle on its own.
    pub(super) fn read_line(&self, no: usize, line: &str) -> Record {
        Record {
            line: no,
            puzzle: line_tokens(no, line)
                .and_then(|tokens| read_cells(&tokens, Layout::Line, self, no, &self.rules)),
        }
    }

    /// The records of a block of consecutive non-blank lines.
    pub(super) fn read_block(&self, block: &[(usize, &str)], out: &mut Vec<Record>) {
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
    pub(super) fn read_grid(
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

/// A decoration line: only `-+=|` and blanks, with at least one `+`.
fn is_decoration(line: &str) -> bool {
    line.contains('+')
        && line
            .chars()
            .all(|c| matches!(c, '-' | '+' | '=' | '|') || c.is_whitespace())
}
