//! `exactly sudoku` on the files of other sudoku programs
//! (`testdata/sudoku/formats/`): each format read, detected record by
//! record or forced with `--input-format`, written with `--format` and read
//! back; CSV solutions checked; `--all` listing every solution.

use crate::common;

use std::collections::HashSet;

use common::run;
use exactly_puzzles::sudoku::{self, InputFormat, Reader};

fn sudoku(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut all = vec!["sudoku", "--threads", "1"];
    all.extend_from_slice(args);
    let (status, out, err) = run(&all, stdin.as_bytes());
    (status.unwrap_or(-1), out, err)
}

fn sample(name: &str) -> String {
    format!("testdata/sudoku/formats/{name}")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(common::root().join(sample(name))).unwrap()
}

/// The solutions of a `puzzle:solution` test file.
fn solutions(name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(common::root().join("testdata/sudoku").join(name)).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_once(':').unwrap().1.to_string())
        .collect()
}

/// The one puzzle of a sample file, read by the library.
fn puzzle_of(name: &str) -> sudoku::Puzzle {
    let mut records = Reader::new().read(&read(name));
    assert_eq!(records.len(), 1, "{name}");
    records.pop().unwrap().puzzle.unwrap()
}

/// The answer of a one-record run as a grid, checked to solve `puzzle`.
fn check_solves(out: &str, puzzle: &sudoku::Puzzle) -> sudoku::Grid {
    let records = Reader::new().read(out);
    assert_eq!(records.len(), 1, "{out}");
    let grid = records[0].puzzle.as_ref().unwrap().grid.clone();
    assert!(grid.solves(&puzzle.grid), "{out}");
    grid
}

#[test]
fn each_grid_format_is_detected_and_solved() {
    // The same puzzle as .sdk, .ss and two bordered prints.
    let puzzle = puzzle_of("puzzle.sdk");
    assert_eq!(puzzle.grid.givens(), 36);
    // It is unique: every file gets the same answer.
    let unique = sudoku::solve(&puzzle.grid, 2).unwrap();
    assert_eq!(unique.verdict, sudoku::Verdict::Unique);
    let want = unique.solution.unwrap();
    for (file, format) in [
        ("puzzle.sdk", InputFormat::Sdk),
        ("puzzle.ss", InputFormat::Ss),
        ("bordered-star.txt", InputFormat::Bordered),
        ("bordered-plus.txt", InputFormat::Bordered),
        // Sections before [Puzzle] ([Properties], [Settings]) and `#`
        // comments are skipped.
        ("properties.sdk", InputFormat::Sdk),
        // Rows spaced out, `-------+-------+------` between bands: read as
        // a bordered print.
        ("puzzle-spaced.ss", InputFormat::Bordered),
    ] {
        let records = Reader::new().read(&read(file));
        assert_eq!(records.len(), 1, "{file}");
        assert_eq!(records[0].format, format, "{file}");
        assert_eq!(
            records[0].puzzle.as_ref().unwrap().grid,
            puzzle.grid,
            "{file}"
        );
        for forced in ["auto", format.name(), "grid"] {
            let (code, out, err) = sudoku(&[&sample(file), "--input-format", forced], "");
            assert_eq!(code, 0, "{file} {forced}: {err}");
            assert!(err.contains("1 puzzle: 1 unique"), "{err}");
            assert_eq!(check_solves(&out, &puzzle), want, "{file} {forced}");
        }
    }
    // Simple Sudoku also saves `.ss` files framed by `*-----------*` and
    // `|---+---+---|` lines: `--input-format ss` reads them too.
    let (code, out, err) = sudoku(&[&sample("bordered-star.txt"), "--input-format", "ss"], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(check_solves(&out, &puzzle), want);
    // Any size: a bordered 6x6 (boxes of 2x3).
    let (code, out, err) = sudoku(&[&sample("bordered-6x6.txt")], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.replace([' ', '\n'], ""), solutions("6x6.txt")[0]);
}

#[test]
fn a_grid_format_forced_on_one_line_puzzles_is_invalid_but_goes_on() {
    let (code, out, _) = sudoku(
        &[&sample("collection.sdm"), "--input-format", "bordered"],
        "",
    );
    assert_eq!(code, 2);
    // One block of four lines of different lengths: one damaged grid.
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.starts_with("invalid: line "), "{out}");
}

#[test]
fn sdm_files_hold_one_puzzle_a_line_of_any_size() {
    let want: Vec<String> = ["4x4.txt", "6x6.txt", "9x9.txt", "16x16.txt"]
        .iter()
        .map(|f| solutions(f)[0].clone())
        .collect();
    for format in ["auto", "sdm", "line"] {
        let (code, out, err) = sudoku(&[&sample("collection.sdm"), "--input-format", format], "");
        assert_eq!(code, 0, "{err}");
        assert_eq!(out.lines().collect::<Vec<_>>(), want, "{format}");
    }
}

#[test]
fn csv_quizzes_are_solved_and_their_solutions_checked() {
    let want: Vec<String> = solutions("9x9.txt")[..3].to_vec();
    for format in ["auto", "csv"] {
        let (code, out, err) = sudoku(&[&sample("quizzes.csv"), "--input-format", format], "");
        assert_eq!(code, 0, "{err}");
        assert_eq!(out.lines().collect::<Vec<_>>(), want);
    }
    // Only a puzzle column.
    let (code, out, _) = sudoku(&[&sample("puzzles-only.csv")], "");
    assert_eq!(code, 0);
    assert_eq!(out.lines().collect::<Vec<_>>(), want[..2]);
    // The second row's solution has its last two cells swapped.
    let (code, out, err) = sudoku(&[&sample("quizzes-wrong.csv")], "");
    assert_eq!(code, 2, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], want[0]);
    assert_eq!(
        lines[1],
        "mismatch: line 3: the given solution has 7 at r9c8, the solution 8"
    );
    assert_eq!(lines[2], want[2]);
    assert!(err.contains("1 given solution wrong"), "{err}");
    assert!(err.contains("1 of 3 given solutions do not match"), "{err}");
    // In JSON, the record keeps its solution and says what is wrong.
    let (_, out, _) = sudoku(&[&sample("quizzes-wrong.csv"), "--format", "json"], "");
    let second: serde_json::Value = serde_json::from_str(out.lines().nth(1).unwrap()).unwrap();
    assert_eq!(second["solution"], want[1].as_str());
    assert!(second["mismatch"].as_str().unwrap().contains("r9c8"));
    // A header but no row of the right width: invalid, named by line.
    let (code, out, _) = sudoku(&[], "quizzes,solutions\n1.3...\n");
    assert_eq!(code, 2);
    assert_eq!(
        out,
        "invalid: line 2: a CSV row of 1 field: the header names 2\n"
    );
    // A column named twice: every row is an error naming the header.
    let (code, out, _) = sudoku(&[], "puzzle,Puzzle\n1.3...1..1..2.4.,1.3...1..1..2.4.\n");
    assert_eq!(code, 2);
    assert_eq!(
        out,
        "invalid: line 1, column 8: the CSV header names the column 'Puzzle' twice (first at \
         column 1), so row 2 cannot be read: rename or drop one of them\n"
    );
    let (code, out, _) = sudoku(&[], "quizzes,solutions\n1x..............,1234\n");
    assert_eq!(code, 2);
    assert_eq!(
        out,
        "invalid: line 2, column 2: bad character 'x' in a 4x4 grid\n"
    );
}

#[test]
fn a_file_may_mix_formats_record_by_record() {
    let text = format!(
        "{}\n\n{}\n{}\n{}\n\n{}",
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        read("puzzle.sdk"),
        read("bordered-plus.txt"),
        read("puzzle.ss"),
        read("quizzes.csv"),
    );
    let records = Reader::new().read(&text);
    let formats: Vec<(usize, InputFormat)> = records.iter().map(|r| (r.line, r.format)).collect();
    assert_eq!(
        formats,
        [
            (1, InputFormat::Line),
            (7, InputFormat::Sdk),
            (18, InputFormat::Bordered),
            (31, InputFormat::Ss),
            (45, InputFormat::Csv),
            (46, InputFormat::Csv),
            (47, InputFormat::Csv),
        ]
    );
    assert!(records.iter().all(|r| r.puzzle.is_ok()));
    let (code, _, err) = sudoku(&[], &text);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("7 puzzles: 7 unique"), "{err}");
}

#[test]
fn bad_cells_in_drawn_grids_name_line_and_column() {
    let text =
        read("bordered-plus.txt").replace("| 6 . 2 |", "| 6 x 2 |") + "\n" + &read("puzzle.ss");
    let (code, out, _) = sudoku(&[], &text);
    assert_eq!(code, 2);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "invalid: line 6, column 5: bad character 'x' in a 9x9 grid"
    );
    assert_eq!(lines.len(), 1 + 1 + 9, "{out}");
    // An empty [Puzzle] section is an invalid record too.
    let (code, out, _) = sudoku(&[], "[Puzzle]\n\n1.3...............\n");
    assert_eq!(code, 2);
    assert!(
        out.starts_with("invalid: line 1: an empty [Puzzle] section"),
        "{out}"
    );
}

#[test]
fn every_written_format_reads_back() {
    // Four sizes, solved and written in each format, then read again (in
    // auto and as that format): solving a solved grid gives it back.
    let want: Vec<String> = ["4x4.txt", "6x6.txt", "9x9.txt", "16x16.txt"]
        .iter()
        .map(|f| solutions(f)[0].clone())
        .collect();
    for (format, input) in [
        ("line", "line"),
        ("grid", "grid"),
        ("ss", "ss"),
        ("sdk", "sdk"),
        ("bordered", "bordered"),
        ("csv", "csv"),
    ] {
        let (code, written, err) = sudoku(&[&sample("collection.sdm"), "--format", format], "");
        assert_eq!(code, 0, "{format}: {err}");
        for forced in ["auto", input] {
            let (code, out, err) =
                sudoku(&["--format", "line", "--input-format", forced], &written);
            assert_eq!(code, 0, "{format} read as {forced}: {err}\n{written}");
            assert_eq!(out.lines().collect::<Vec<_>>(), want, "{format}\n{written}");
        }
    }
}

#[test]
fn all_lists_every_solution() {
    // An empty 4x4 grid has 288 solutions.
    let empty = "................\n";
    let (code, out, err) = sudoku(&["--all", "--max-solutions", "1000"], empty);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "multiple 288");
    let grids: HashSet<&str> = lines[1..].iter().copied().collect();
    assert_eq!((lines.len() - 1, grids.len()), (288, 288));
    let blank = sudoku::Grid::empty(sudoku::Shape::new(2, 2).unwrap());
    for g in &grids {
        let grid = Reader::new().read(g)[0]
            .puzzle
            .as_ref()
            .unwrap()
            .grid
            .clone();
        assert!(grid.solves(&blank), "{g}");
    }
    // As grids: 288 blocks; as JSON: an array of 288; as CSV: 288 rows.
    let (_, out, _) = sudoku(
        &["--all", "--max-solutions", "1000", "--format", "grid"],
        empty,
    );
    assert_eq!(out.split("\n\n").count(), 288);
    let (_, out, _) = sudoku(
        &["--all", "--max-solutions", "1000", "--format", "json"],
        empty,
    );
    let object: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let listed: HashSet<&str> = object["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(listed, grids);
    let (_, out, _) = sudoku(
        &["--all", "--max-solutions", "1000", "--format", "csv"],
        empty,
    );
    assert_eq!(out.lines().count(), 1 + 288);
    // Up to --max-solutions; a unique puzzle lists its one solution.
    let (_, out, _) = sudoku(&["--all", "--max-solutions", "5"], empty);
    assert_eq!(out.lines().count(), 1 + 5);
    let (_, out, _) = sudoku(&["--all"], "34.........2.3..\n");
    assert_eq!(out, format!("unique 1\n{}\n", solutions("4x4.txt")[0]));
    let (code, _, err) = sudoku(&["--all", "--first"], empty);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn all_with_every_lists_every_m_th_solution() {
    // The listing of --all with --every M holds the M-th, 2M-th, ...
    // solutions of the full listing (in the search's order), in every
    // format, and the verdict line still counts them all.
    let empty = "................\n";
    let (code, out, err) = sudoku(&["--all", "--max-solutions", "100"], empty);
    assert_eq!(code, 0, "{err}");
    let listed: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(listed.len(), 100);
    for m in ["1", "7", "100", "101"] {
        let step: usize = m.parse().unwrap();
        let picked: Vec<&str> = listed
            .iter()
            .copied()
            .skip(step - 1)
            .step_by(step)
            .collect();
        let args = ["--all", "--max-solutions", "100", "--every", m];
        let (code, out, err) = sudoku(&args, empty);
        assert_eq!(code, 0, "--every {m}: {err}");
        let mut want = vec!["multiple 100"];
        want.extend(&picked);
        assert_eq!(out.lines().collect::<Vec<_>>(), want, "--every {m}");
        let (_, out, _) = sudoku(&[&args[..], &["--format", "json"]].concat(), empty);
        let object: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        let solutions: Vec<&str> = object["solutions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert_eq!(solutions, picked, "--every {m} --format json");
        let (_, out, _) = sudoku(&[&args[..], &["--format", "csv"]].concat(), empty);
        let rows: Vec<&str> = out
            .lines()
            .skip(1)
            .map(|row| row.split(',').nth(1).unwrap())
            .filter(|s| !s.is_empty())
            .collect();
        assert_eq!(rows, picked, "--every {m} --format csv");
    }
    // --every needs --all, and M is at least 1.
    let (code, _, err) = sudoku(&["--every", "2"], empty);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--all"), "{err}");
    let (code, _, err) = sudoku(&["--all", "--every", "0"], empty);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn input_format_with_target_and_jigsaw() {
    // --target reads any format.
    let (code, out, err) = sudoku(
        &["--target", "--input-format", "sdk", &sample("puzzle.sdk")],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.trim().parse::<u64>().is_ok(), "{out}");
    // --jigsaw reads one puzzle a line: a grid format is refused.
    let (code, _, err) = sudoku(&["--jigsaw", "--input-format", "bordered"], "");
    assert_eq!(code, 2);
    assert!(
        err.contains("--input-format bordered does not apply"),
        "{err}"
    );
    let (code, _, err) = sudoku(&["--input-format", "xml"], "");
    assert_eq!(code, 2, "{err}");
}
