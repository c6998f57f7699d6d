//! The text format for pieces and boards (see the [module docs](super)).

use std::collections::HashSet;
use std::fmt;

use exactly::format::{tokens, ParseError, ParseErrorKind};

use super::{is_piece_name, Board, Cell, Piece, MAX_COPIES, MAX_SIDE};

/// What breaks a rule of the format; the message of a
/// [`Fault::Invalid`] error.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum Fault {
    /// A piece name that breaks the naming rule.
    #[error("bad piece name '{0}': expected letters, digits, '_' or '-', and not two lower-case letters or digits (those name cells)")]
    BadName(String),
    /// A malformed count.
    #[error("bad count '{0}': expected a non-negative integer")]
    BadCount(String),
    /// A count past [`MAX_COPIES`](super::MAX_COPIES).
    #[error("count '{0}' is too large: at most 1296 copies (the cells of a 36x36 board)")]
    CountTooLarge(String),
    /// A picture wider or taller than [`MAX_SIDE`](super::MAX_SIDE), once
    /// moved to its top left corner.
    #[error("the picture of '{name}' spans {rows}x{cols} cells (rows x columns): at most 36x36 (cells are named by two base-36 digits)")]
    TooLarge {
        /// The piece's name, or `board`.
        name: String,
        /// Rows from the first to the last cell.
        rows: usize,
        /// Columns from the first to the last cell.
        cols: usize,
    },
    /// Something after the end of a header.
    #[error("unexpected '{0}' after the header")]
    Trailing(String),
    /// A character other than `#`, `.` or a blank in a picture.
    #[error("unexpected '{0}' in a picture: expected '#' or '.'")]
    BadChar(char),
    /// A header with no picture after it.
    #[error("'{0}' has no picture")]
    NoPicture(String),
    /// A picture without a `#`.
    #[error("the picture of '{0}' has no '#' cell")]
    NoCells(String),
    /// Two pieces with the same name.
    #[error("a piece named '{0}' was already defined")]
    DuplicateName(String),
    /// A second board block.
    #[error("a board was already defined")]
    SecondBoard,
}

/// What a text defines: pieces in order of appearance, and the board if
/// there is a board block.
///
/// ```
/// let spec = exactly_puzzles::polyomino::parse("I 2\n###\n\nboard\n###\n###\n")?;
/// assert_eq!(spec.pieces[0].count(), 2);
/// assert_eq!(spec.board.unwrap().num_cells(), 6);
/// # Ok::<(), exactly::format::ParseError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The pieces, in order of appearance.
    pub pieces: Vec<Piece>,
    /// The board, if one was given.
    pub board: Option<Board>,
}

impl fmt::Display for Spec {
    /// Writes the text format that [`parse`] reads back as the same spec:
    /// each piece as its name (with its count unless 1) over its picture,
    /// then the board, blocks separated by blank lines. (A piece named
    /// `board` would read back as a board: [`parse`] never makes one.)
    ///
    /// ```
    /// use exactly_puzzles::polyomino::parse;
    /// let spec = parse("L 2\n#.\n##\n\nboard\n.#\n##\n")?;
    /// assert_eq!(spec.to_string(), "L 2\n#\n##\n\nboard\n.#\n##\n");
    /// assert_eq!(parse(&spec.to_string())?, spec);
    /// # Ok::<(), exactly::format::ParseError>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for piece in &self.pieces {
            if !first {
                writeln!(f)?;
            }
            first = false;
            match piece.count() {
                1 => writeln!(f, "{}", piece.name())?,
                n => writeln!(f, "{} {n}", piece.name())?,
            }
            write_picture(f, piece.cells())?;
        }
        if let Some(board) = &self.board {
            if !first {
                writeln!(f)?;
            }
            writeln!(f, "board")?;
            let cells: Vec<Cell> = board.cells().collect();
            write_picture(f, &cells)?;
        }
        Ok(())
    }
}

/// Writes the picture of cells sorted row-major from row 0: `#` for a
/// cell, `.` for a gap before the row's last cell, `.` alone for a row
/// without cells. Only the text is allocated, never the box around it.
fn write_picture(f: &mut fmt::Formatter<'_>, cells: &[Cell]) -> fmt::Result {
    let mut k = 0;
    let mut row = 0;
    let mut line = String::new();
    while k < cells.len() {
        line.clear();
        while k < cells.len() && cells[k].0 == row {
            let col = cells[k].1;
            while line.len() < col {
                line.push('.');
            }
            line.push('#');
            k += 1;
        }
        if line.is_empty() {
            line.push('.');
        }
        writeln!(f, "{line}")?;
        row += 1;
    }
    Ok(())
}

/// What a header announces.
enum Header {
    Board,
    Piece { name: String, count: usize },
}

/// A block being read: its header, the header's line, and the picture so far.
struct Block {
    header: Header,
    line: usize,
    cells: Vec<Cell>,
    rows: usize,
}

fn parse_header(line: &str, number: usize) -> Result<Header, ParseError> {
    let err = |column, fault: Fault| ParseError::invalid(number, column, fault.to_string());
    let tokens: Vec<(usize, &str)> = tokens(line).collect();
    let Some(&(column, first)) = tokens.first() else {
        unreachable!("a header line is not blank");
    };
    let mut rest = tokens.iter().skip(1);
    let header = if first == "board" {
        Header::Board
    } else if first.starts_with(['#', '.']) {
        return Err(ParseError {
            line: number,
            column,
            kind: ParseErrorKind::Expected {
                expected: "a piece name or 'board'".into(),
                found: first.to_string(),
            },
        });
    } else if !is_piece_name(first) {
        return Err(err(column, Fault::BadName(first.to_string())));
    } else {
        let count = match rest.next() {
            None => 1,
            Some(&(column, token)) => {
                if !token.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(err(column, Fault::BadCount(token.to_string())));
                }
                match token.parse::<usize>() {
                    Ok(count) if count <= MAX_COPIES => count,
                    _ => return Err(err(column, Fault::CountTooLarge(token.to_string()))),
                }
            }
        };
        Header::Piece {
            name: first.to_string(),
            count,
        }
    };
    if let Some(&(column, token)) = rest.next() {
        return Err(err(column, Fault::Trailing(token.to_string())));
    }
    Ok(header)
}

/// Reads pieces and a board in the format of the [module docs](super).
///
/// ```
/// use exactly_puzzles::polyomino::parse;
/// // (A doctest line may not start with "##", so the text uses escapes.)
/// let text = "| two trominoes\nL\n#.\n##\n\nI\n###\n";
/// let spec = parse(text)?;
/// assert_eq!(spec.pieces.len(), 2);
/// assert_eq!(spec.pieces[0].cells(), [(0, 0), (1, 0), (1, 1)]);
/// assert!(spec.board.is_none());
/// # Ok::<(), exactly::format::ParseError>(())
/// ```
pub fn parse(text: &str) -> Result<Spec, ParseError> {
    let mut spec = Spec {
        pieces: Vec::new(),
        board: None,
    };
    let mut names = HashSet::new();
    let mut block: Option<Block> = None;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let trimmed = line.trim_start();
        if trimmed.starts_with('|') {
            continue;
        }
        if trimmed.is_empty() {
            if let Some(b) = block.take() {
                finish(b, &mut spec, &mut names)?;
            }
            continue;
        }
        match block.as_mut() {
            None => {
                block = Some(Block {
                    header: parse_header(line, number)?,
                    line: number,
                    cells: Vec::new(),
                    rows: 0,
                });
            }
            Some(b) => {
                for (k, c) in line.trim_end().chars().enumerate() {
                    match c {
                        '#' => b.cells.push((b.rows, k)),
                        '.' | ' ' => {}
                        other => {
                            return Err(ParseError::invalid(
                                number,
                                k + 1,
                                Fault::BadChar(other).to_string(),
                            ))
                        }
                    }
                }
                b.rows += 1;
            }
        }
    }
    if let Some(b) = block {
        finish(b, &mut spec, &mut names)?;
    }
    Ok(spec)
}

/// Checks a finished block and adds it to `spec`.
fn finish(block: Block, spec: &mut Spec, names: &mut HashSet<String>) -> Result<(), ParseError> {
    let err = |fault: Fault| ParseError::invalid(block.line, 1, fault.to_string());
    let label = match &block.header {
        Header::Board => "board".to_string(),
        Header::Piece { name, .. } => name.clone(),
    };
    if block.rows == 0 {
        return Err(err(Fault::NoPicture(label)));
    }
    if block.cells.is_empty() {
        return Err(err(Fault::NoCells(label)));
    }
    // The extent once moved to the top left corner, checked before a board
    // allocates a cell for each position of it.
    let span = |pick: fn(&Cell) -> usize| {
        let lo = block.cells.iter().map(pick).min().unwrap_or(0);
        let hi = block.cells.iter().map(pick).max().unwrap_or(0);
        hi - lo + 1
    };
    let (rows, cols) = (span(|c| c.0), span(|c| c.1));
    if rows > MAX_SIDE || cols > MAX_SIDE {
        return Err(err(Fault::TooLarge {
            name: label,
            rows,
            cols,
        }));
    }
    match block.header {
        Header::Board => {
            if spec.board.is_some() {
                return Err(err(Fault::SecondBoard));
            }
            spec.board = Some(Board::from_cells(block.cells));
        }
        Header::Piece { name, count } => {
            if !names.insert(name.clone()) {
                return Err(err(Fault::DuplicateName(name)));
            }
            spec.pieces
                .push(Piece::from_valid_parts(name, block.cells).with_count(count));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> (usize, usize, ParseErrorKind) {
        let e = parse(text).unwrap_err();
        (e.line, e.column, e.kind)
    }

    fn bad(fault: Fault) -> ParseErrorKind {
        ParseErrorKind::Invalid(fault.to_string())
    }

    fn no_header(found: &str) -> ParseErrorKind {
        ParseErrorKind::Expected {
            expected: "a piece name or 'board'".into(),
            found: found.to_string(),
        }
    }

    #[test]
    fn reads_pieces_counts_and_board() {
        let text = "| header comment\n\nV 3\n#..\n#..\n###\n\n\n  | indented comment\nboard\n..##\n.###\n####\n";
        let spec = parse(text).unwrap();
        assert_eq!(spec.pieces.len(), 1);
        assert_eq!(spec.pieces[0].name(), "V");
        assert_eq!(spec.pieces[0].count(), 3);
        assert_eq!(spec.pieces[0].cells().len(), 5);
        let board = spec.board.unwrap();
        assert_eq!((board.rows(), board.cols(), board.num_cells()), (3, 4, 9));
        assert!(!board.contains((0, 1)));
        assert!(board.contains((0, 2)));
    }

    #[test]
    fn pictures_are_normalized() {
        let spec = parse("A\n....\n..#.\n.##.\n\nboard\n  ##\n  ##\n").unwrap();
        assert_eq!(spec.pieces[0].cells(), [(0, 1), (1, 0), (1, 1)]);
        let board = spec.board.unwrap();
        assert_eq!((board.rows(), board.cols()), (2, 2));
    }

    #[test]
    fn comments_do_not_end_a_block() {
        let spec = parse("A\n#\n| between\n#\n").unwrap();
        assert_eq!(spec.pieces[0].cells(), [(0, 0), (1, 0)]);
    }

    #[test]
    fn errors_name_line_and_column() {
        assert_eq!(error("#.#\n"), (1, 1, no_header("#.#")));
        assert_eq!(error("A\n##\n\n  ..#\n"), (4, 3, no_header("..#")));
        assert_eq!(error("A\n#x\n"), (2, 2, bad(Fault::BadChar('x'))));
        assert_eq!(error("A\n#\t#\n"), (2, 2, bad(Fault::BadChar('\t'))));
        assert_eq!(
            error("A two\n#\n"),
            (1, 3, bad(Fault::BadCount("two".into())))
        );
        assert_eq!(
            error("A +2\n#\n"),
            (1, 3, bad(Fault::BadCount("+2".into())))
        );
        assert_eq!(
            error("A 2 3\n#\n"),
            (1, 5, bad(Fault::Trailing("3".into())))
        );
        assert_eq!(
            error("board 2\n#\n"),
            (1, 7, bad(Fault::Trailing("2".into())))
        );
        assert_eq!(error("a1\n#\n"), (1, 1, bad(Fault::BadName("a1".into()))));
        assert_eq!(error("X:\n#\n"), (1, 1, bad(Fault::BadName("X:".into()))));
        assert_eq!(error("A\n"), (1, 1, bad(Fault::NoPicture("A".into()))));
        assert_eq!(error("A\n..\n\n"), (1, 1, bad(Fault::NoCells("A".into()))));
        assert_eq!(
            error("A\n#\n\nB\n#\n\nA\n##\n"),
            (7, 1, bad(Fault::DuplicateName("A".into())))
        );
        assert_eq!(
            error("board\n#\n\nboard\n#\n"),
            (4, 1, bad(Fault::SecondBoard))
        );
        assert_eq!(error("A\n#é\n"), (2, 2, bad(Fault::BadChar('é'))));
        assert_eq!(
            error("A 1297\n#\n"),
            (1, 3, bad(Fault::CountTooLarge("1297".into())))
        );
        assert_eq!(
            error("A 99999999999999999999999\n#\n"),
            (
                1,
                3,
                bad(Fault::CountTooLarge("99999999999999999999999".into()))
            )
        );
        let wide = format!("x\n#\n\nboard\n#{}#\n", ".".repeat(35));
        assert_eq!(
            error(&wide),
            (
                4,
                1,
                bad(Fault::TooLarge {
                    name: "board".into(),
                    rows: 1,
                    cols: 37
                })
            )
        );
        let far = format!(
            "board\n#\n{}{}#\n",
            ".\n".repeat(99_998),
            " ".repeat(99_999)
        );
        let far_too_large = Fault::TooLarge {
            name: "board".into(),
            rows: 100_000,
            cols: 100_000,
        };
        assert_eq!(error(&far), (1, 1, bad(far_too_large)));
        assert_eq!(error("é\n#\n"), (1, 1, bad(Fault::BadName("é".into()))));
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        for text in [
            "",
            "\n",
            "|",
            "board",
            "board\n",
            "\u{feff}A\n#",
            "A 99999999999999999999999\n#\n",
            "A 1297\n#\n",
            "board\n#\n\n\n",
            "A\r\n#\r\n",
            " \t \n",
            "A 0\n#\n",
        ] {
            let _ = parse(text);
        }
        assert!(parse("").unwrap().pieces.is_empty());
        assert_eq!(parse("A\r\n#\r\n").unwrap().pieces.len(), 1);
        assert_eq!(parse("A 0\n#\n").unwrap().pieces[0].count(), 0);
    }
}
