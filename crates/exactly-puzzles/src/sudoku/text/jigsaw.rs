//! Jigsaw records: a puzzle and its region map on one line.

use exactly::format::ParseError;

use super::cells::{cells_count, read_cells, row_tokens, Token, MAX_CELLS};
use super::{Layout, Puzzle, Reader, Regions, Rules, Shape, SudokuError, MIN_SIZE};

/// One record of [`parse_jigsaw`].
pub(super) fn read_jigsaw(
    line: usize,
    content: &str,
    rules: &Rules,
    small: bool,
) -> Result<Puzzle, SudokuError> {
    let bad = |column: Option<usize>, message: String| {
        SudokuError::Parse(ParseError::invalid(line, column.unwrap_or(0), message))
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
