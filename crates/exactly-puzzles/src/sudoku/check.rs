//! Checks that the sudoku readers keep on any input; shared by the fuzz
//! targets and the tests that replay their inputs.

use super::{InputFormat, Reader, Shape, Weights};

/// Reads `data` as `exactly sudoku` does (bytes that are not UTF-8 become
/// U+FFFD), with reader options taken from its first byte: small grids,
/// jigsaw records, a box shape, a forced input format. Panics when a
/// record's line is outside the text, or when a puzzle read in a plain
/// style does not read back as one record from what
/// [`super::Style::format`] writes, or from its `.ss`, `.sdk` and bordered
/// forms.
///
/// ```
/// exactly_puzzles::sudoku::check::reader(b"\x001.3.\n..1.\n.1..\n2.4.\n");
/// ```
pub fn reader(data: &[u8]) {
    let Some((&options, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let shape = if options & 0x40 != 0 {
        Shape::new(
            usize::from(options >> 2 & 3) + 1,
            usize::from(options >> 4 & 3) + 1,
        )
        .ok()
    } else {
        None
    };
    let format = match options & 0x80 {
        0 => InputFormat::Auto,
        _ => InputFormat::ALL[usize::from(options >> 2 & 7)],
    };
    let reader = Reader::new()
        .small(options & 1 != 0)
        .jigsaw(options & 2 != 0)
        .shape(shape)
        .format(format);
    let lines = exactly::format::lines(&text).count();
    let records = reader.read(&text);
    // Read as a stream, in pieces of a few bytes: the same records.
    let piece = 1 + rest.len() % 7;
    let streamed: Vec<_> = reader
        .records(std::io::BufReader::with_capacity(piece, rest))
        .collect::<Result<_, _>>()
        .unwrap_or_default();
    assert_eq!(streamed, records, "read in pieces of {piece} bytes");
    for record in &records {
        assert!(
            record.line >= 1 && record.line <= lines.max(1),
            "line {}",
            record.line
        );
        let Ok(puzzle) = &record.puzzle else {
            continue;
        };
        let written = puzzle.style.format(&puzzle.grid);
        if puzzle.regions.is_some() {
            continue;
        }
        // The writer's text reads back as one record (its symbols may be
        // read another way when the puzzle leaves the choice open).
        let again = Reader::new()
            .small(true)
            .shape(Some(puzzle.grid.shape()))
            .read(&written);
        assert_eq!(again.len(), 1, "{written:?}");
        for drawn in [
            puzzle.style.format_ss(&puzzle.grid),
            puzzle.style.format_sdk(&puzzle.grid),
            puzzle.style.format_bordered(&puzzle.grid),
        ] {
            let again = Reader::new()
                .small(true)
                .shape(Some(puzzle.grid.shape()))
                .read(&drawn);
            assert_eq!(again.len(), 1, "{drawn:?}");
        }
    }
}

/// Reads `data` as a weights file; what reads has `n` rows of `n`.
///
/// ```
/// exactly_puzzles::sudoku::check::weights(b"1 2\n3 4\n");
/// ```
pub fn weights(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(w) = Weights::parse(&text) {
        let n = w.size();
        assert!((1..=Shape::MAX_SIZE).contains(&n));
        let _ = w.get(n - 1, n - 1);
    }
}
