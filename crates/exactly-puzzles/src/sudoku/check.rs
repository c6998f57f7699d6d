//! Checks that the sudoku readers keep on any input, and that the 9×9
//! grid's own search answers as the general solver does; shared by the
//! fuzz targets and the tests that replay their inputs.

use super::{
    Answer, Grid, InputFormat, Reader, Rules, Shape, SudokuError, Template, TemplateSolver, Weights,
};

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

/// Solves a 9×9 puzzle made from `data` with the classic grid's search on
/// bands and with the general solver, for up to 1, 2 and 5 solutions in
/// an order the first byte picks, and panics when their answers differ in
/// anything but the count of nodes: verdict, count, solutions or error.
/// With the first byte's top bit, the band solver first meets the empty
/// grid twice, which has several solutions, so that it leans to its plain
/// search.
///
/// Cell `i` comes from byte `i + 1` (empty past the end): `b % 4` of 0 or 1
/// keeps the cell's value in a solved grid (row `r`, column `c`: `(3r +
/// r / 3 + c) % 9`, its values relabelled by `data[0]`), 2 empties it,
/// and 3 sets `b / 4 % 10` (0 empties it; other values may clash).
///
/// ```
/// exactly_puzzles::sudoku::check::bands(&[3, 0, 1, 2, 3, 4, 5, 6, 7]);
/// ```
pub fn bands(data: &[u8]) {
    let Some((&options, cells)) = data.split_first() else {
        return;
    };
    // The solved grid's values relabelled: a rotation of 1–9.
    let low = options & 0x7f;
    let shift = usize::from(low) % 9;
    let cells: Vec<u8> = (0..81)
        .map(|i| {
            let (r, c) = (i / 9, i % 9);
            let solved = ((3 * r + r / 3 + c + shift) % 9 + 1) as u8;
            match cells.get(i).copied().unwrap_or(2) {
                b if b % 4 < 2 => solved,
                b if b % 4 == 2 => 0,
                b => b / 4 % 10,
            }
        })
        .collect();
    let shape = Shape::new(3, 3).expect("3x3 boxes");
    let grid = Grid::from_cells(shape, cells).expect("values 0-9 on a 9x9 grid");
    let template = Template::new(shape, &Rules::default()).expect("the classic grid");
    let mut bands = template.solver();
    if options & 0x80 != 0 {
        for _ in 0..2 {
            let several = bands.solve(&Grid::empty(shape), 2).expect("no givens");
            assert_eq!(several.count, 2);
        }
    }
    let mut general = general_solver(&template);
    let order: [u64; 3] = match low / 9 % 3 {
        0 => [1, 2, 5],
        1 => [5, 2, 1],
        _ => [2, 5, 1],
    };
    for max in order {
        // The check is `agreeing`'s; the answers are not needed here.
        let _ = agreeing(&mut bands, &mut general, &grid, max);
    }
}

/// A solver of `template` that takes the general solver, never the
/// search on bands: a node budget does.
pub(super) fn general_solver(template: &Template) -> TemplateSolver<'_> {
    template
        .solver()
        .limits(exactly::Limits::default().max_nodes(u64::MAX))
}

/// The answers of `bands` and `general` to `grid` for up to `max`
/// solutions, after checking that they are the same in all but the count
/// of nodes.
pub(super) fn agreeing(
    bands: &mut TemplateSolver<'_>,
    general: &mut TemplateSolver<'_>,
    grid: &Grid,
    max: u64,
) -> [Result<Answer, SudokuError>; 2] {
    let (a, b) = (bands.solve(grid, max), general.solve(grid, max));
    let without_nodes =
        |x: &Result<Answer, SudokuError>| x.clone().map(|a| Answer { nodes: 0, ..a });
    assert_eq!(without_nodes(&a), without_nodes(&b), "{grid:?} up to {max}");
    [a, b]
}
