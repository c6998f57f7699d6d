//! The reader's unit tests.
use super::cells::{row_tokens, MAX_CELLS};
use super::*;

fn one(text: &str) -> Result<Puzzle, SudokuError> {
    let mut r = parse(text, None);
    assert_eq!(r.len(), 1, "{text:?}");
    r.pop().unwrap().puzzle
}

#[test]
fn nine_by_nine_lines_with_any_empty_mark() {
    let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let a = one(line).unwrap();
    assert_eq!(a.grid.givens(), 17);
    for mark in ["0", "-", "_"] {
        let b = one(&line.replace('.', mark)).unwrap();
        assert_eq!(a.grid, b.grid);
    }
    assert_eq!(a.style.format(&a.grid).replace('\n', ""), line);
    // A trailing comment or solution is ignored.
    assert_eq!(one(&format!("{line}  # hard")).unwrap().grid, a.grid);
    assert_eq!(one(&format!("{line}:123")).unwrap().grid, a.grid);
}

#[test]
fn a_line_of_81_with_a_stray_byte_is_named_where_it_is() {
    let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    // A byte that is no cell, first, in the middle or last: the quick
    // read of such lines leaves it to the tokens, which name its column.
    for (at, stray) in [(0, 'x'), (40, '*'), (80, 'A'), (80, ' ')] {
        let mut bad = line.to_string();
        bad.replace_range(at..at + 1, &stray.to_string());
        let r = parse(&bad, None);
        let errors: Vec<_> = r.iter().filter_map(|r| r.puzzle.as_ref().err()).collect();
        assert!(!errors.is_empty(), "{bad:?}");
        if stray != ' ' {
            assert!(
                errors[0]
                    .to_string()
                    .contains(&format!("column {}", at + 1)),
                "{bad:?}: {}",
                errors[0]
            );
        }
    }
    // Every digit reads as itself, wherever it is: a whole grid, given.
    let cells: Vec<u8> = (0..81)
        .map(|k| ((k / 9 * 3 + k / 27 + k % 9) % 9 + 1) as u8)
        .collect();
    let line: String = cells.iter().map(|&v| char::from(b'0' + v)).collect();
    assert_eq!(one(&line).unwrap().grid.cells(), &cells[..]);
}

#[test]
fn sixteen_by_sixteen_alphabets() {
    let hex = "..0....2.....e.8.9..0.1.f.265.7...3..5.8.4....f..6.4b.7....c.9......4....2..6....8..a.60.1...4.93.6f..9.5....0...4...2.1..3f..e.4..5.c..3..b.a.0.2........e.8.b.7.f.2..5.0..1......6.e3...9....7a...9....7.0.f.b..1..f..4..a..0..7..1..a..58.2....5...2..3..7.d.";
    let p = one(hex).unwrap();
    assert_eq!(p.style.symbols, Symbols::ZeroBased { upper: false });
    assert_eq!(p.grid.get(0, 2), 1);
    let letters = one("--A----C-----O-I\n-J--A-B-P-CGF-H-\n--D--F-I-E----P-\n-G-EL-H----M-J--\n----E----C--G---\n-I--K-GA-B---E-J\nD-GP--J-F----A--\n-E---C-B--DP--O-\nE--F-M--D--L-K-A\n-C--------O-I-L-\nH-P-C--F-A--B---\n---G-OD---J----H\nK---J----H-A-P-L\n--B--P--E--K--A-\n-H--B--K--FI-C--\n--F---C--D--H-N-\n").unwrap();
    assert_eq!(letters.style.symbols, Symbols::Letters { lower: false });
    assert_eq!(letters.style.layout, Layout::Grid);
    assert_eq!(letters.grid.get(0, 2), 1);
    assert_eq!(letters.grid.get(0, 15), 9);
}

#[test]
fn numbers_and_spaced_grids() {
    let text = "1 0 3 0\n0 0 1 0\n0 1 0 0\n2 0 4 0\n";
    let p = one(text).unwrap();
    assert_eq!(p.style.layout, Layout::SpacedGrid);
    assert_eq!(p.grid.get(3, 2), 4);
    assert_eq!(p.style.format(&p.grid), text.replace('0', "."));
    let line = one("1 0 3 0 0 0 1 0 0 1 0 0 2 0 4 0").unwrap();
    assert_eq!(line.grid, p.grid);
    let twelve: Vec<String> = (0..144)
        .map(|i| if i == 5 { "12".into() } else { "0".into() })
        .collect();
    let p = one(&twelve.join(" ")).unwrap();
    assert_eq!(p.style.symbols, Symbols::Numbers);
    assert_eq!(p.grid.get(0, 5), 12);
    assert_eq!(p.grid.shape(), Shape::new(3, 4).unwrap());
}

#[test]
fn decorated_grid() {
    let text = "1 . | 3 .\n. . | 1 .\n----+----\n. 1 | . .\n2 . | 4 .\n";
    let p = one(text).unwrap();
    assert_eq!(p.grid.givens(), 6);
}

#[test]
fn errors_carry_positions_and_the_batch_goes_on() {
    let text = "12..\n# c\n1234123412341234\n1..1............\n12.\n\n123x............\n";
    let r = parse(text, None);
    // The block of lines 1-5 is not a grid; each line is a record of its own.
    let lines: Vec<usize> = r.iter().map(|r| r.line).collect();
    assert_eq!(lines, [1, 3, 4, 5, 7]);
    let errors: Vec<String> = r
        .iter()
        .map(|r| r.puzzle.as_ref().unwrap_err().to_string())
        .collect();
    assert_eq!(
        errors[0],
        "a 2x2 grid is smaller than 4x4; small grids are read only when asked for (--small)"
    );
    assert_eq!(errors[1], "givens clash: r1c1 and r2c1 both hold 1");
    assert_eq!(errors[2], "givens clash: r1c1 and r1c4 both hold 1");
    assert!(errors[3].starts_with("line 5: 3 cells"), "{}", errors[3]);
    assert_eq!(
        errors[4],
        "line 7, column 4: bad character 'x' in a 4x4 grid"
    );
}

#[test]
fn shapes_from_the_caller() {
    let ten = ".".repeat(100);
    assert!(matches!(
        one(&ten),
        Err(SudokuError::UnknownShape { size: 10 })
    ));
    let r = parse(&ten, Some(Shape::new(2, 5).unwrap()));
    assert_eq!(r[0].puzzle.as_ref().unwrap().grid.shape().box_cols(), 5);
    let r = parse(&ten, Some(Shape::new(3, 3).unwrap()));
    assert!(r[0].puzzle.is_err());
}

/// The verdicts of a batch: `ok`, or the error.
fn outcomes(records: &[Record]) -> Vec<(usize, String)> {
    records
        .iter()
        .map(|r| match &r.puzzle {
            Ok(_) => (r.line, "ok".to_string()),
            Err(e) => (r.line, e.to_string()),
        })
        .collect()
}

const NINE: &str =
    "......1.9.....32.....62..4.....7..6..9.2....84.28.......7.5.9..983..1....2......7";

#[test]
fn sixteen_one_line_4x4_puzzles_are_sixteen_records() {
    let lines = [
        "12..34..........",
        "................",
        "1...............",
        "..3.....2.......",
    ];
    let text: String = (0..16).map(|i| format!("{}\n", lines[i % 4])).collect();
    let r = parse(&text, None);
    assert_eq!(r.len(), 16);
    assert!(r.iter().all(|r| r.puzzle.is_ok()));
    assert_eq!(r[15].line, 16);
    // One of them damaged: still sixteen records, one invalid.
    let text = text.replacen("1...............", "1......x........", 1);
    let r = parse(&text, None);
    assert_eq!(r.len(), 16);
    assert_eq!(r.iter().filter(|r| r.puzzle.is_err()).count(), 1);
    assert_eq!(
        r[2].puzzle.as_ref().unwrap_err().to_string(),
        "line 3, column 8: bad character 'x' in a 4x4 grid"
    );
    // A real 16x16 grid stays one record, and so does an empty one.
    assert_eq!(parse(&"................\n".repeat(16), None).len(), 1);
    let grid = "--A----C-----O-I\n-J--A-B-P-CGF-H-\n--D--F-I-E----P-\n-G-EL-H----M-J--\n----E----C--G---\n-I--K-GA-B---E-J\nD-GP--J-F----A--\n-E---C-B--DP--O-\nE--F-M--D--L-K-A\n-C--------O-I-L-\nH-P-C--F-A--B---\n---G-OD---J----H\nK---J----H-A-P-L\n--B--P--E--K--A-\n-H--B--K--FI-C--\n--F---C--D--H-N-\n";
    assert_eq!(parse(grid, None).len(), 1);
}

#[test]
fn eighty_one_one_line_9x9_puzzles_are_eighty_one_records() {
    let text = format!("{NINE}\n").repeat(81);
    let r = parse(&text, None);
    assert_eq!(r.len(), 81);
    assert!(r.iter().all(|r| r.puzzle.is_ok()));
    // With a bad one among them.
    let text = text.replacen(NINE, &NINE[..80], 1);
    let r = parse(&text, None);
    assert_eq!(r.len(), 81);
    assert!(r[0]
        .puzzle
        .as_ref()
        .unwrap_err()
        .to_string()
        .starts_with("line 1: 80 cells"));
    assert!(r[1..].iter().all(|r| r.puzzle.is_ok()));
}

#[test]
fn a_row_of_eighty_numbers_is_invalid_not_a_1x1_puzzle() {
    let row: Vec<&str> = std::iter::once("1")
        .chain(std::iter::repeat_n("0", 79))
        .collect();
    let r = parse(&row.join(" "), None);
    assert_eq!(
        outcomes(&r),
        [(
            1,
            "line 1: 80 cells; a puzzle has n*n cells (81 for 9x9), n at most 64".to_string()
        )]
    );
    // And a word too short to be a puzzle, before a label.
    let r = parse("1 hard\n", None);
    assert!(r[0].puzzle.is_err());
    // A first word of n*n cells and a label still reads.
    let r = parse(&format!("{NINE} hard\n"), None);
    assert!(r[0].puzzle.is_ok());
}

#[test]
fn a_count_line_is_skipped_when_it_counts_the_records() {
    let grid = "1.3.\n..1.\n.1..\n2.4.\n";
    assert_eq!(
        outcomes(&parse(&format!("1\n{grid}"), None)),
        [(2, "ok".to_string())]
    );
    let text = format!("2\n{NINE}\n{NINE}\n");
    assert_eq!(
        outcomes(&parse(&text, None)),
        [(2, "ok".to_string()), (3, "ok".to_string())]
    );
    // A count that does not match is an invalid record of its own.
    let r = outcomes(&parse(&format!("3\n{NINE}\n{NINE}\n"), None));
    assert_eq!(r.len(), 3);
    assert_eq!(r[0].0, 1);
    assert!(r[0].1.contains("count line"), "{}", r[0].1);
    // A lone number is a puzzle too small to read.
    let r = outcomes(&parse("1\n", None));
    assert_eq!(
        r,
        [(
            1,
            "a 1x1 grid is smaller than 4x4; small grids are read only when asked for (--small)"
                .to_string()
        )]
    );
    // After a comment it is still the first line.
    assert_eq!(parse(&format!("# contest\n1\n{grid}"), None).len(), 1);
}

#[test]
fn small_grids_only_when_asked_for() {
    assert!(matches!(one("1\n"), Err(SudokuError::TooSmall { size: 1 })));
    assert!(matches!(
        one("12\n21\n"),
        Err(SudokuError::TooSmall { size: 2 })
    ));
    let small = Reader::new().small(true);
    assert_eq!(
        small.read("1\n")[0].puzzle.as_ref().unwrap().grid.cells(),
        [1]
    );
    let r = small
        .shape(Some(Shape::new(1, 2).unwrap()))
        .read("1.\n.1\n");
    assert_eq!(r.len(), 1);
    assert!(r[0].puzzle.is_ok());
    // A box shape of the side asks for it.
    let r = parse("1..2\n", Some(Shape::new(1, 2).unwrap()));
    assert!(r[0].puzzle.is_ok());
    let r = parse_jigsaw("1... ABAB\n", &Rules::default());
    assert!(matches!(
        r[0].puzzle,
        Err(SudokuError::TooSmall { size: 2 })
    ));
}

#[test]
fn a_damaged_grid_is_one_invalid_record_naming_the_row() {
    let text = "......1.9\n.....32..\n...62..4.\n....7..6.\n.9.2...8\n4.28.....\n..7.5.9..\n983..1...\n.2......7\n";
    assert_eq!(
        outcomes(&parse(text, None)),
        [(
            1,
            "line 5: a row of 8 cells in a grid of 9 rows: expected 9".to_string()
        )]
    );
    let missing =
        "......1.9\n.....32..\n...62..4.\n....7..6.\n4.28.....\n..7.5.9..\n983..1...\n.2......7\n";
    let r = outcomes(&parse(missing, None));
    assert_eq!(r.len(), 1);
    assert!(r[0].1.contains("a grid of 8 rows of 9 cells"), "{}", r[0].1);
}

#[test]
fn bad_bytes_are_named_and_escaped() {
    let r = parse("12\u{1b}.............\n", None);
    assert_eq!(
        r[0].puzzle.as_ref().unwrap_err().to_string(),
        "line 1, column 3: bad character '\\u{1b}' in a 4x4 grid"
    );
    let text = String::from_utf8_lossy(b"12\xff.............\n12..34..........\n").into_owned();
    let r = outcomes(&parse(&text, None));
    assert_eq!(
        r[0],
        (
            1,
            "line 1, column 3: invalid UTF-8: expected a cell of a 4x4 grid".to_string()
        )
    );
    assert_eq!(r[1], (2, "ok".to_string()));
}

#[test]
fn huge_lines_are_refused_without_holding_a_token_a_character() {
    let huge = ".".repeat(1 << 20);
    let r = parse(&format!("{huge}\n{huge} {huge}\n"), None);
    assert_eq!(r.len(), 2);
    for r in &r {
        let e = r.puzzle.as_ref().unwrap_err().to_string();
        assert!(e.contains("more than 4096 cells"), "{e}");
    }
    assert_eq!(row_tokens(1, &huge).len(), 2 * MAX_CELLS + 2);
    let spaced = ". ".repeat(1 << 16);
    assert_eq!(row_tokens(1, &spaced).len(), MAX_CELLS + 1);
    let r = parse_jigsaw(&format!("{huge} AB\n"), &Rules::default());
    let e = r[0].puzzle.as_ref().unwrap_err().to_string();
    assert!(e.contains("more than 4096 cells"), "{e}");
}

#[test]
fn random_text_never_panics() {
    let alphabet: Vec<char> = ".0123456789ABCDabcd-_ |#:+é\t\n\n\n".chars().collect();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..3000 {
        let len = (next() % 200) as usize;
        let text: String = (0..len)
            .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
            .collect();
        for record in parse(&text, None) {
            if let Ok(p) = record.puzzle {
                assert!(record.line >= 1);
                let _ = p.style.format(&p.grid);
                if p.grid.size() <= 4 {
                    let _ = crate::sudoku::solve(&p.grid, 2);
                }
            }
        }
    }
}

#[test]
fn a_line_of_81_cells_reads_as_the_line_format_reads_it() {
    // Batches of 81-character lines (cells and empty marks, now and then
    // a stray byte, a few of dashes only) among count lines, blank lines
    // and comments: each line of 81 cells is the record the line format
    // makes of it, at its line, and the records come in the order of
    // their lines.
    let mut rng = crate::sudoku::generate::Rng::new(7);
    let mut next = |n: u64| rng.below(n as usize) as u64;
    let marks = b".0-_";
    let lines_only = Reader::new().format(InputFormat::Line);
    for _ in 0..300 {
        let mut text = String::new();
        let mut cells_at = Vec::new();
        for no in 1..=12 {
            let line: String = match next(10) {
                0 => format!("{}", 1 + next(20)),
                1 => String::new(),
                2 => "# a comment".into(),
                3 => "-".repeat(81),
                _ => (0..81)
                    .map(|_| match next(30) {
                        0..=3 => char::from(b'1' + next(9) as u8),
                        4 if next(4) == 0 => ['x', ' ', '#', '|'][next(4) as usize],
                        5 if next(8) == 0 => '-',
                        _ => char::from(marks[next(4) as usize]),
                    })
                    .collect(),
            };
            if line.len() == 81 && line.bytes().any(|b| b != b'-') {
                cells_at.push((no, line.clone()));
            }
            text.push_str(&line);
            text.push('\n');
        }
        let records = Reader::new().read(&text);
        assert!(records.windows(2).all(|w| w[0].line < w[1].line), "{text}");
        for (no, line) in &cells_at {
            let want = lines_only.read(line);
            let quick = line
                .bytes()
                .all(|b| b.is_ascii_digit() || b".-_".contains(&b));
            if !quick || want.len() != 1 {
                continue;
            }
            let got = records.iter().find(|r| r.line == *no);
            let got = got.unwrap_or_else(|| panic!("no record at line {no}:\n{text}"));
            assert_eq!(got.puzzle, want[0].puzzle, "line {no}:\n{text}");
        }
    }
}

#[test]
fn ss_rules_are_dropped_but_rows_of_dashes_stay() {
    let ss = "12|..\n..|12\n-----\n21|..\n..|21\n";
    let r = parse(ss, None);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].format, InputFormat::Ss);
    assert_eq!(r[0].puzzle.as_ref().unwrap().grid.givens(), 8);
    // A line of dashes as long as a row is a row of empty cells.
    let empty_row = "12|..\n----\n..|12\n21|..\n";
    let r = parse(empty_row, None);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].puzzle.as_ref().unwrap().grid.givens(), 6);
    // Without bars, a line of dashes is a puzzle (an empty 4x4) or not.
    assert_eq!(
        parse("----------------\n", None)[0].format,
        InputFormat::Line
    );
    // Stars alone are no border: a bad record, not a dropped line.
    let r = parse("****************\n", None);
    assert!(r[0].puzzle.is_err());
}

#[test]
fn sections_before_the_puzzle_section_are_skipped() {
    // testdata/sudoku/formats/properties.sdk: [Properties] and [Settings]
    // sections, `#` comments and a blank line before [Puzzle].
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/testdata/sudoku/formats/properties.sdk"
    ))
    .unwrap();
    let r = parse(&text, None);
    assert_eq!(r.len(), 1);
    assert_eq!((r[0].line, r[0].format), (9, InputFormat::Sdk));
    assert_eq!(r[0].puzzle.as_ref().unwrap().grid.givens(), 36);
    // Read a line at a time, the same.
    let streamed: Vec<_> = Reader::new()
        .records(text.as_bytes())
        .map(|r| r.unwrap().line)
        .collect();
    assert_eq!(streamed, vec![9]);
    // No [Puzzle] header after it: a bracketed line and the lines after it
    // are read as any lines are (nothing is skipped unseen).
    let r = parse("[Hard]\nAuthor=x\n\n12..34..........\n", None);
    assert_eq!(r.len(), 3);
    assert!(r[0].puzzle.is_err() && r[1].puzzle.is_err());
    assert_eq!(r[2].line, 4);
    assert!(r[2].puzzle.is_ok());
    // A [Puzzle] header too far below (past 64 held lines) skips nothing.
    let mut text = String::from("[Hard]\n");
    for _ in 0..100 {
        text.push_str("12..34..........\n");
    }
    text.push_str("[Puzzle]\n1...\n..1.\n.1..\n...1\n");
    let r = parse(&text, None);
    assert_eq!(r.len(), 102);
    assert!(r[0].puzzle.is_err());
    assert!(r[1..].iter().all(|r| r.puzzle.is_ok()));
    assert_eq!(r[101].format, InputFormat::Sdk);
}

#[test]
fn sections_and_csv_headers() {
    let text = "[Puzzle]\n1...\n..1.\n.1..\n...1\n[State]\nxyz\n\n[Other]\n1\n";
    let r = parse(text, None);
    assert_eq!(r.len(), 1);
    assert_eq!((r[0].line, r[0].format), (2, InputFormat::Sdk));
    // Before any [Puzzle] section, a bracketed label skips nothing.
    let r = parse("[Hard]\n\n12..34..........\n", None);
    assert_eq!(r.len(), 2);
    assert!(r[0].puzzle.is_err());
    assert!(r[1].puzzle.is_ok());
    // A CSV section ends at a blank line; other columns are ignored.
    let text = "id,Puzzle,Solution\n7,1.3...1..1..2.4.,1234341221434321\n\n12..34..........\n";
    let r = parse(text, None);
    assert_eq!(r.len(), 2);
    assert_eq!((r[0].line, r[0].format), (2, InputFormat::Csv));
    assert_eq!(r[0].solution.as_ref().unwrap().get(0, 1), 2);
    assert_eq!((r[1].line, r[1].format), (4, InputFormat::Line));
    // Every puzzle column's name, in any case, starts a CSV section (the
    // header check first looks for its `z`).
    for name in ["quizzes", "QUIZ", "Puzzles", "puzzle"] {
        let r = parse(
            &format!("{name},solution\n1.3...1..1..2.4.,1234341221434321\n"),
            None,
        );
        assert_eq!((r.len(), r[0].format), (1, InputFormat::Csv), "{name}");
    }
    // A solution of the wrong length names its column.
    let r = parse("quizzes,solutions\n1.3...1..1..2.4.,123\n", None);
    assert_eq!(
        r[0].puzzle.as_ref().unwrap_err().to_string(),
        "line 2, column 18: a solution of 3 cells for a puzzle of 16"
    );
    // Forced CSV without a header: puzzle, then maybe a solution.
    let r = Reader::new()
        .format(InputFormat::Csv)
        .read("1.3...1..1..2.4.\n\"1.3...1..1..2.4.\",1234341221434321\n");
    assert_eq!(r.len(), 2);
    assert!(r[0].solution.is_none());
    assert!(r[1].solution.is_some());
}

#[test]
fn a_csv_header_that_names_a_column_twice_is_refused_at_its_column() {
    let rows = "1.3...1..1..2.4.,1234341221434321\n1.3...1..1..2.4.,1234341221434321\n";
    let cases = [
        // The same name twice, in any letter case.
        ("puzzle,puzzle\n", 8, "the column 'puzzle'"),
        ("  Puzzle , PUZZLE\n", 12, "the column 'PUZZLE'"),
        // Two names of the puzzle column, or of the solution column.
        ("quiz,puzzle\n", 6, "a puzzle column ('puzzle')"),
        (
            "puzzle,solution,solutions\n",
            17,
            "a solution column ('solutions')",
        ),
        // Another column named twice.
        ("id,puzzle,id\n", 11, "the column 'id'"),
    ];
    for (header, column, what) in cases {
        for format in [None, Some(InputFormat::Csv)] {
            let text = format!("{header}{rows}");
            let r = match format {
                None => parse(&text, None),
                Some(f) => Reader::new().format(f).read(&text),
            };
            // One record per row, each an error naming the header.
            assert_eq!(r.len(), 2, "{header:?} {format:?}");
            for (k, record) in r.iter().enumerate() {
                assert_eq!(record.line, k + 2);
                let err = record.puzzle.as_ref().unwrap_err().to_string();
                assert!(
                    err.starts_with(&format!(
                        "line 1, column {column}: the CSV header names {what} twice"
                    )),
                    "{header:?} {format:?}: {err}"
                );
                assert!(err.contains(&format!("row {}", k + 2)), "{err}");
            }
            // The header alone: one record, the header's error, not an
            // input without puzzles.
            let r = match format {
                None => parse(header, None),
                Some(f) => Reader::new().format(f).read(header),
            };
            assert_eq!(r.len(), 1, "{header:?} {format:?}");
            assert_eq!(r[0].line, 1);
            let err = r[0].puzzle.as_ref().unwrap_err().to_string();
            assert!(
                err.starts_with(&format!(
                    "line 1, column {column}: the CSV header names {what} twice"
                )),
                "{header:?} {format:?}: {err}"
            );
        }
    }
    // Names that differ are a header as before.
    let r = parse(&format!("puzzle,solution,id\n{rows}"), None);
    assert!(r.iter().all(|r| r.puzzle.is_ok() && r.solution.is_some()));
}

/// `text`, then a read error where the input would go on: what
/// [`Reader::records`] gives before it asks for more than `text`.
fn before_more(reader: &Reader, text: &str) -> Vec<(usize, String)> {
    struct Stalled;
    impl std::io::Read for Stalled {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("more input asked for"))
        }
    }
    let input = std::io::BufReader::new(std::io::Read::chain(text.as_bytes(), Stalled));
    let mut out = Vec::new();
    for record in reader.records(input) {
        match record {
            Ok(r) => out.push(outcomes(&[r]).swap_remove(0)),
            Err(e) => {
                assert_eq!(e.to_string(), "more input asked for");
                break;
            }
        }
    }
    out
}

#[test]
fn records_come_as_soon_as_their_lines_decide_them() {
    let reader = Reader::new();
    // A line of more cells than a grid row: at once.
    assert_eq!(
        before_more(&reader, &format!("{NINE}\n")),
        [(1, "ok".to_string())]
    );
    // A bad record in the middle, named at its line, and the batch goes on.
    let r = before_more(&reader, &format!("{NINE}\n12x{}\n{NINE}\n", &NINE[3..]));
    assert_eq!(r.len(), 3);
    assert_eq!((r[0].1.as_str(), r[2].1.as_str()), ("ok", "ok"));
    assert!(
        r[1].1.starts_with("line 2, column 3: bad character 'x'"),
        "{}",
        r[1].1
    );
    // A grid at the blank line after it; a one-line 4x4 puzzle too.
    let grid = "1.3.\n..1.\n.1..\n2.4.\n\n12..34..........\n\n";
    assert_eq!(
        before_more(&reader, grid),
        [(1, "ok".to_string()), (6, "ok".to_string())]
    );
    // Not before: the grid's last row might be followed by more rows.
    assert_eq!(before_more(&reader, "1.3.\n..1.\n.1..\n2.4.\n"), []);
    // A block longer than a grid: each line as it comes.
    let lines = "12..34..........\n".repeat(MAX_BLOCK + 1);
    assert_eq!(before_more(&reader, &lines).len(), MAX_BLOCK + 1);
    // CSV rows under a header, and forced one-line records: each at once.
    let csv = format!("quizzes,solutions\n{NINE},\n");
    assert_eq!(before_more(&reader, &csv), [(2, "ok".to_string())]);
    let line = reader.clone().format(InputFormat::Line);
    assert_eq!(before_more(&line, "12..34..........\n").len(), 1);
}

#[test]
fn a_count_line_holds_records_back_only_until_it_is_checked() {
    let reader = Reader::new();
    // Two records and a count of 2: not known to match before the end.
    assert_eq!(before_more(&reader, &format!("2\n{NINE}\n{NINE}\n")), []);
    // A third record shows the count wrong: it comes first, then all three.
    let r = before_more(&reader, &format!("2\n{NINE}\n{NINE}\n{NINE}\n"));
    assert_eq!(r.len(), 4);
    assert_eq!(r[0].0, 1);
    assert!(r[0].1.contains("more than 2"), "{}", r[0].1);
    // A count past what may be held is not waited for.
    let many = format!("{}\n", MAX_COUNT + 1);
    let text = format!("{many}{}", "12..34..........\n\n".repeat(MAX_COUNT + 1));
    let r = before_more(&reader, &text);
    assert_eq!(r.len(), MAX_COUNT + 2);
    assert!(
        r[0].1
            .contains(&format!("more than the {MAX_COUNT} records")),
        "{}",
        r[0].1
    );
    // At the end, the same as a whole text.
    let text = format!("3\n{NINE}\n{NINE}\n");
    let streamed: Vec<Record> = reader
        .records(std::io::BufReader::with_capacity(3, text.as_bytes()))
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(streamed, reader.read(&text));
}

#[test]
fn streamed_lines_end_as_text_lines_do() {
    // Line ends split across reads, a mark, bad bytes, a long line.
    let text = format!("\u{feff}1.3.\r\n..1.\r.1..\n2.4.\r\n\r\n12\u{fffd}.34..........\r{NINE}");
    for piece in 1..8 {
        let streamed: Vec<Record> = Reader::new()
            .records(std::io::BufReader::with_capacity(piece, text.as_bytes()))
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(streamed, Reader::new().read(&text), "{piece}");
        assert_eq!(streamed.len(), 3);
    }
    let long = format!("{}\n{NINE}\n", ".".repeat(MAX_LINE + 1));
    let r = outcomes(
        &Reader::new()
            .records(long.as_bytes())
            .collect::<Result<Vec<_>, _>>()
            .unwrap(),
    );
    assert_eq!(r.len(), 2);
    assert!(r[0].1.contains("a line of more than"), "{}", r[0].1);
    assert_eq!(outcomes(&Reader::new().read(&long)), r);
    // A forced grid format: a block taller than any grid is one record.
    let tall = "1.3.\n".repeat(MAX_BLOCK + 5);
    let grids = Reader::new().format(InputFormat::Grid);
    let r = before_more(&grids, &format!("{tall}\n"));
    assert_eq!(r.len(), 1);
    assert!(r[0].1.contains("no grid is that tall"), "{}", r[0].1);
}

#[test]
fn a_lone_zero_is_the_empty_1x1_grid_when_small_grids_are_asked_for() {
    // The writer's text for the empty 1x1 grid reads back as that grid,
    // not as a count line of no puzzles.
    let r = Reader::new().small(true).read("0\n");
    assert_eq!(r.len(), 1);
    let puzzle = r[0].puzzle.as_ref().unwrap();
    assert_eq!(puzzle.grid.size(), 1);
    // Without small grids, a lone count line still counts no puzzle.
    assert!(Reader::new().read("0\n").is_empty());
}

#[test]
fn grids_are_written_symbol_by_symbol() {
    // Each style against its symbols written one at a time ([`Style::symbol`])
    // and joined here: rows on lines (one line for `Line`), spaced for
    // `SpacedGrid`.
    let mut state = 0x853C_49E6_748F_EA9Bu64;
    for (br, bc) in [(2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (8, 8)] {
        let shape = Shape::new(br, bc).unwrap();
        let n = shape.size();
        let cells = (0..n * n)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state % (n as u64 + 1)) as u8
            })
            .collect();
        let grid = Grid::from_cells(shape, cells).unwrap();
        let mut all = vec![Symbols::Numbers];
        for lower in [false, true] {
            all.push(Symbols::Digits { lower });
            if n <= 36 {
                all.push(Symbols::ZeroBased { upper: lower });
            }
            if n <= 26 {
                all.push(Symbols::Letters { lower });
            }
        }
        for symbols in all {
            for layout in [Layout::Line, Layout::Grid, Layout::SpacedGrid] {
                let style = Style { layout, symbols };
                let spaced = layout == Layout::SpacedGrid || symbols == Symbols::Numbers;
                let rows: Vec<String> = grid
                    .cells()
                    .chunks(n)
                    .map(|row| {
                        let written: Vec<String> = row
                            .iter()
                            .map(|&v| match v {
                                0 if symbols == Symbols::Numbers => "0".to_string(),
                                0 => ".".to_string(),
                                v => style.symbol(v, n),
                            })
                            .collect();
                        written.join(if spaced { " " } else { "" })
                    })
                    .collect();
                let between = match layout {
                    Layout::Line if spaced => " ",
                    Layout::Line => "",
                    _ => "\n",
                };
                let expected = rows.join(between) + "\n";
                assert_eq!(style.format(&grid), expected, "{style:?} {n}x{n}");
            }
        }
    }
}

#[test]
fn writing_a_grid_gives_what_formatting_it_makes() {
    let symbols = [
        Symbols::Digits { lower: false },
        Symbols::Digits { lower: true },
        Symbols::ZeroBased { upper: false },
        Symbols::Letters { lower: true },
        Symbols::Numbers,
    ];
    for (rows, cols) in [(1, 2), (3, 3), (4, 4), (2, 5), (6, 6)] {
        let shape = Shape::new(rows, cols).unwrap();
        let n = shape.size();
        // Every value, empty cells too, in every cell's turn.
        let cells: Vec<u8> = (0..n * n)
            .map(|k| ((k * 7 + k / n) % (n + 1)) as u8)
            .collect();
        let grid = Grid::from_cells(shape, cells).unwrap();
        for layout in [Layout::Line, Layout::Grid, Layout::SpacedGrid] {
            for symbols in symbols {
                let style = Style { layout, symbols };
                let mut out = Vec::new();
                style.write(&grid, &mut out).unwrap();
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    style.format(&grid),
                    "{n}x{n}, {style:?}"
                );
                // The other drawings take any grid too.
                let _ = (style.format_ss(&grid), style.format_sdk(&grid));
                let _ = style.format_bordered(&grid);
            }
        }
    }
}
