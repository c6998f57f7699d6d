//! The sudoku reader against its writer: a puzzle written in any style
//! reads back the same; a batch of N records always gives N answers; the
//! inputs kept from fuzzing (`testdata/sudoku/fuzz/`) are replayed.

use exactly_puzzles::sudoku::{check, Grid, InputFormat, Layout, Reader, Shape, Style, Symbols};
use proptest::prelude::*;

/// Box shapes whose sides [`Shape::infer`] gives back.
const SHAPES: [(usize, usize); 8] = [
    (2, 2),
    (2, 3),
    (3, 3),
    (2, 4),
    (3, 4),
    (4, 4),
    (5, 5),
    (8, 8),
];

/// A puzzle of `shape`: a solved grid (the usual pattern, its values
/// permuted by `seed`) with the cells of `keep` given, the value 1 of the
/// first row always, and one cell always empty.
fn puzzle(shape: Shape, seed: u64, keep: &[bool]) -> Grid {
    let (r, c, n) = (shape.box_rows(), shape.box_cols(), shape.size());
    let mut perm: Vec<u8> = (1..=n as u8).collect();
    let mut state = seed | 1;
    for i in (1..n).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        perm.swap(i, (state % (i as u64 + 1)) as usize);
    }
    let mut cells = Vec::with_capacity(n * n);
    for i in 0..n {
        for j in 0..n {
            let v = perm[((i % r) * c + i / r + j) % n];
            let kept = keep[(i * n + j) % keep.len()] || (i == 0 && v == 1);
            cells.push(if kept { v } else { 0 });
        }
    }
    if n > 1 {
        let blank = cells.iter().position(|&v| v != 1).unwrap_or(0);
        cells[blank] = 0;
    }
    Grid::from_cells(shape, cells).unwrap()
}

/// The styles that write a grid of side `n` so that it reads back.
fn styles(n: usize) -> Vec<Style> {
    let mut symbols = vec![
        Symbols::Digits { lower: false },
        Symbols::Digits { lower: true },
        Symbols::Numbers,
    ];
    if n <= 26 {
        symbols.push(Symbols::Letters { lower: false });
        symbols.push(Symbols::Letters { lower: true });
    }
    if (10..=36).contains(&n) {
        symbols.push(Symbols::ZeroBased { upper: false });
        symbols.push(Symbols::ZeroBased { upper: true });
    }
    let mut all = Vec::new();
    for layout in [Layout::Line, Layout::Grid, Layout::SpacedGrid] {
        for &s in &symbols {
            // Wide alphabets are case-sensitive: only as written.
            if n > 35 && s == (Symbols::Digits { lower: true }) {
                continue;
            }
            all.push(Style { layout, symbols: s });
        }
    }
    all
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_style_reads_back(
        k in 0..SHAPES.len(),
        seed in any::<u64>(),
        keep in prop::collection::vec(any::<bool>(), 1..80),
        pick in any::<usize>(),
    ) {
        let shape = Shape::new(SHAPES[k].0, SHAPES[k].1).unwrap();
        let grid = puzzle(shape, seed, &keep);
        let styles = styles(shape.size());
        let style = styles[pick % styles.len()];
        let text = style.format(&grid);
        let records = Reader::new().shape(Some(shape)).read(&text);
        prop_assert_eq!(records.len(), 1, "{:?}", text);
        let read = records[0].puzzle.as_ref().map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
        prop_assert_eq!(&read.grid, &grid, "{:?}", text);
    }

    #[test]
    fn every_drawn_format_reads_back(
        k in 0..SHAPES.len(),
        seed in any::<u64>(),
        keep in prop::collection::vec(any::<bool>(), 1..80),
        pick in any::<usize>(),
        which in 0..3usize,
    ) {
        let shape = Shape::new(SHAPES[k].0, SHAPES[k].1).unwrap();
        let grid = puzzle(shape, seed, &keep);
        let styles = styles(shape.size());
        let style = styles[pick % styles.len()];
        let (text, format) = match which {
            0 => (style.format_ss(&grid), InputFormat::Ss),
            1 => (style.format_sdk(&grid), InputFormat::Sdk),
            _ => (style.format_bordered(&grid), InputFormat::Bordered),
        };
        for reader in [Reader::new(), Reader::new().format(format)] {
            let records = reader.shape(Some(shape)).read(&text);
            prop_assert_eq!(records.len(), 1, "{:?}", text);
            prop_assert_eq!(records[0].format, format, "{:?}", text);
            let read = records[0].puzzle.as_ref().map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
            prop_assert_eq!(&read.grid, &grid, "{:?}", text);
        }
    }

    #[test]
    fn a_batch_of_n_records_gives_n_answers(
        parts in prop::collection::vec(
            (0..SHAPES.len() - 1, any::<u64>(), prop::collection::vec(any::<bool>(), 1..40), any::<usize>(), "[x.0-9A-Z]{0,90}x", 0..4u8),
            1..8,
        ),
    ) {
        let mut text = String::new();
        let mut records = 0;
        for (k, seed, keep, pick, junk, kind) in parts {
            match kind {
                0 => text.push_str(&format!("{junk}\n\n")),
                1 => text.push_str("# a comment\n\n"),
                _ => {
                    let shape = Shape::new(SHAPES[k].0, SHAPES[k].1).unwrap();
                    let styles = styles(shape.size());
                    let style = styles[pick % styles.len()];
                    text.push_str(&style.format(&puzzle(shape, seed, &keep)));
                    text.push('\n');
                }
            }
            records += usize::from(kind != 1);
        }
        let read = Reader::new().read(&text);
        prop_assert_eq!(read.len(), records, "{:?}", text);
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..300)) {
        check::reader(&data);
        check::weights(&data);
    }

    #[test]
    fn sudoku_like_text_never_panics(
        options in any::<u8>(),
        text in "([.0-9A-Za-z|+ :#-]{0,20}\n){0,20}",
    ) {
        let mut data = vec![options];
        data.extend_from_slice(text.as_bytes());
        check::reader(&data);
    }
}

#[test]
fn one_line_puzzles_in_a_block_are_one_record_each() {
    // Written as lines without blank lines between: still one record each.
    for &(r, c) in &SHAPES[..SHAPES.len() - 1] {
        let shape = Shape::new(r, c).unwrap();
        let style = Style {
            layout: Layout::Line,
            symbols: Symbols::Digits { lower: false },
        };
        let n = shape.size();
        let text: String = (0..n as u64)
            .map(|seed| style.format(&puzzle(shape, seed, &[true, false, false])))
            .collect();
        assert_eq!(Reader::new().read(&text).len(), n, "{text}");
    }
}

#[test]
fn replay_fuzz_inputs() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/sudoku/fuzz");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        if name.starts_with("weights-") {
            check::weights(&bytes);
        } else {
            check::reader(&bytes);
        }
        n += 1;
    }
    assert!(n >= 10, "{n} inputs");
}
