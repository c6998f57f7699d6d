//! Cells: tokens of a line, and the symbols they are read in.

use exactly::format::ParseError;

use super::{
    before_comment, is_empty_mark, Grid, Layout, Puzzle, Reader, Rules, Shape, Style, SudokuError,
    Symbols,
};

/// A cell's text and where it starts (1-based line and column).
#[derive(Clone, Copy, Debug)]
pub(super) struct Token<'a> {
    pub(super) text: &'a str,
    pub(super) line: usize,
    pub(super) column: usize,
}

/// The most cells of a puzzle: 64x64.
pub(super) const MAX_CELLS: usize = Shape::MAX_SIZE * Shape::MAX_SIZE;

/// How many cells a record holds, as an error says it.
pub(super) fn cells_count(len: usize) -> String {
    if len > MAX_CELLS {
        format!("more than {MAX_CELLS} cells")
    } else {
        format!("{len} cells")
    }
}

/// The smallest grid side read without asking: sides 1 to 3 are read only
/// A grid cell: one character, or a number.
pub(super) fn is_cell(t: &Token<'_>) -> bool {
    t.text.chars().count() == 1 || t.text.bytes().all(|b| b.is_ascii_digit())
}

/// The cells of one grid row: whitespace-separated words when there is
/// whitespace, else one cell per character; `|` is dropped.
///
/// No more than [`MAX_CELLS`] and one are kept (twice that and one for
/// cells side by side, room for a `:` and a solution): what is longer is
/// no puzzle, and its memory stays bounded.
pub(super) fn row_tokens(line_no: usize, line: &str) -> Vec<Token<'_>> {
    // A `#` starts a comment, there or later on the line.
    let line = line.split('#').next().unwrap_or_default().trim_end();
    let mut tokens = Vec::new();
    if line.trim().contains(char::is_whitespace) {
        let words = exactly::format::tokens_by(line, |c| c.is_whitespace() || c == '|');
        tokens.extend(words.take(MAX_CELLS + 1).map(|(column, text)| Token {
            text,
            line: line_no,
            column,
        }));
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
pub(super) fn line_tokens(line_no: usize, line: &str) -> Result<Vec<Token<'_>>, SudokuError> {
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
    Err(SudokuError::Parse(ParseError::invalid(
        line_no,
        0,
        format!(
            "{}; a puzzle has n*n cells (81 for 9x9), n at most 64",
            cells_count(count)
        ),
    )))
}

pub(super) fn is_square(len: usize) -> bool {
    (1..=Shape::MAX_SIZE).any(|n| n * n == len)
}

/// Turns `n²` cell tokens into a puzzle, choosing the symbols.
pub(super) fn read_cells(
    tokens: &[Token<'_>],
    layout: Layout,
    reader: &Reader,
    line: usize,
    rules: &Rules,
) -> Result<Puzzle, SudokuError> {
    let len = tokens.len();
    let side = (1..=Shape::MAX_SIZE).find(|n| n * n == len);
    let Some(n) = side else {
        return Err(SudokuError::Parse(ParseError::invalid(
            line,
            0,
            format!(
                "{}; a puzzle has n*n cells (81 for 9x9), n at most 64",
                cells_count(len)
            ),
        )));
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

pub(super) fn decode_chars(
    tokens: &[Token<'_>],
    symbols: Symbols,
    n: usize,
) -> Result<Vec<u8>, SudokuError> {
    tokens
        .iter()
        .map(|t| {
            let c = t.text.chars().next().unwrap_or(' ');
            symbols.value(c, n).ok_or_else(|| {
                SudokuError::Parse(ParseError::invalid(
                    t.line,
                    t.column,
                    match c {
                        '\u{FFFD}' => format!("invalid UTF-8: expected a cell of a {n}x{n} grid"),
                        c => format!("bad character '{}' in a {n}x{n} grid", c.escape_debug()),
                    },
                ))
            })
        })
        .collect()
}

pub(super) fn read_numbers(
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
                _ => Err(SudokuError::Parse(ParseError::invalid(
                    t.line,
                    t.column,
                    format!(
                        "bad cell '{}' in a {n}x{n} grid: expected 0 to {n}",
                        t.text.escape_debug()
                    ),
                ))),
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

/// Marks a byte that is no cell in [`QUICK_CELL`].
const NOT_A_CELL: u8 = 0x80;

/// `QUICK_CELL[b]`: the value of a cell written as byte `b` on a line of
/// [`quick_line`]'s, 1–9 for a digit and 0 for an empty mark, or
/// [`NOT_A_CELL`].
const QUICK_CELL: [u8; 256] = {
    let mut t = [NOT_A_CELL; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        if c.is_ascii_digit() {
            t[b] = c - b'0';
        } else if is_empty_mark(c as char) {
            t[b] = 0;
        }
        b += 1;
    }
    t
};

/// The most common record, read without tokens: a line of exactly 81
/// digits and empty marks (`.`, `-`, `_`, `0`), a 9x9 puzzle with its cells
/// side by side, which is what [`line_tokens`] and [`read_cells`] make of
/// it (the digits as [`Symbols::Digits`]). `None` for any other line (a
/// line of dashes only, a rule, is left to the caller's checks first).
/// PERF: a third of the instructions of the tokens' way (DESIGN.md,
/// "Measurements", code-level choices).
pub(super) fn quick_line(
    line: &str,
    reader: &Reader,
    rules: &Rules,
) -> Option<Result<Puzzle, SudokuError>> {
    const N: usize = 9;
    let bytes = line.as_bytes();
    if bytes.len() != N * N {
        return None;
    }
    // PERF: a table and one test for the line, where a match and a
    // branch per byte took 2,858 instructions to read a serg_benchmark
    // line, clash check included, against 2,536.
    // PERF: collected, where a vector of zeros filled in took an allocation
    // that cleared it first.
    let mut bad = 0;
    let cells: Vec<u8> = bytes
        .iter()
        .map(|&b| {
            let v = QUICK_CELL[usize::from(b)];
            bad |= v;
            v & 15
        })
        .collect();
    if bad & NOT_A_CELL != 0 {
        return None;
    }
    let shape = match reader.shape {
        Some(s) if s.size() == N => s,
        // The general path names the mismatch.
        Some(_) => return None,
        None => Shape::infer(N)?,
    };
    let style = Style {
        layout: Layout::Line,
        symbols: Symbols::Digits { lower: false },
    };
    // 81 cells of 0–9 make a grid of side 9 (what `Grid::from_cells`
    // checks).
    Some(check_givens(Grid { shape, cells }, style, rules))
}

/// Rejects givens that clash under `rules`, naming the symbol as the input
/// writes it.
pub(super) fn check_givens(grid: Grid, style: Style, rules: &Rules) -> Result<Puzzle, SudokuError> {
    if let Some(c) = grid.clash_with(rules) {
        return Err(c.error(style.symbol(c.value, grid.size())));
    }
    Ok(Puzzle {
        grid,
        style,
        regions: None,
    })
}
