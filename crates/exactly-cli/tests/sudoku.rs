//! `exactly sudoku` on the real binary: answers in the input's style and
//! order, every output format, verdicts, bad records and exit statuses.

use crate::common;

use common::run;

fn sudoku(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut all = vec!["sudoku"];
    all.extend_from_slice(args);
    let (status, out, err) = run(&all, stdin.as_bytes());
    (status.unwrap_or(-1), out, err)
}

/// The `puzzle:solution` lines of a test file.
fn cases(name: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(common::root().join("testdata/sudoku").join(name)).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (p, s) = l.split_once(':').unwrap();
            (p.to_string(), s.to_string())
        })
        .collect()
}

#[test]
fn lines_are_answered_with_lines_in_order() {
    for (file, threads) in [
        ("9x9.txt", "1"),
        ("9x9.txt", "3"),
        ("16x16.txt", "2"),
        ("6x6.txt", "2"),
    ] {
        let path = format!("testdata/sudoku/{file}");
        let (code, out, err) = sudoku(&[&path, "--threads", threads], "");
        assert_eq!(code, 0, "{err}");
        let want: Vec<String> = cases(file).into_iter().map(|(_, s)| s).collect();
        let got: Vec<&str> = out.lines().collect();
        assert_eq!(got, want, "{file}");
        assert!(
            err.contains(&format!("{} puzzles: {} unique", want.len(), want.len())),
            "{err}"
        );
    }
}

#[test]
fn grids_are_answered_with_grids() {
    let (code, out, _) = sudoku(
        &["-"],
        "34..\n....\n...2\n.3..\n\n# again, with numbers\n3 4 0 0\n0 0 0 0\n0 0 0 2\n0 3 0 0\n",
    );
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "3421\n1243\n4132\n2314\n\n3 4 2 1\n1 2 4 3\n4 1 3 2\n2 3 1 4\n"
    );
    let (_, out, _) = sudoku(&["--format", "line"], "34..\n....\n...2\n.3..\n");
    assert_eq!(out, "3421124341322314\n");
    let (_, out, _) = sudoku(
        &["--format", "grid"],
        "34.........2.3..\n34.........2.3..\n",
    );
    assert_eq!(out, "3421\n1243\n4132\n2314\n\n3421\n1243\n4132\n2314\n");
}

#[test]
fn verdicts_and_bad_records_keep_the_batch_going() {
    let input = "12..34..........\n# none: r1c4 has no value left\n123....4........\n\
                 34.........2.3..\n11..............\n12x.............\n12345\n";
    let (code, out, err) = sudoku(&["--format", "line"], input);
    assert_eq!(code, 2, "an invalid record makes the status 2");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 6, "{out}");
    assert!(lines[0].starts_with("multiple 2 12"), "{}", lines[0]);
    assert_eq!(lines[1], "none");
    assert_eq!(lines[2], "3421124341322314");
    assert_eq!(
        lines[3],
        "invalid: line 5: givens clash: r1c1 and r1c2 both hold 1"
    );
    assert_eq!(
        lines[4],
        "invalid: line 6, column 3: bad character 'x' in a 4x4 grid"
    );
    assert!(
        lines[5].starts_with("invalid: line 7: 5 cells"),
        "{}",
        lines[5]
    );
    assert!(
        err.contains("6 puzzles: 1 unique, 1 multiple, 1 none, 3 invalid"),
        "{err}"
    );
    assert!(err.contains("<stdin>: 3 of 6 records are invalid"), "{err}");

    let (code, _, _) = sudoku(&[], "123....4........\n");
    assert_eq!(code, 1, "no solution");
    let (code, _, _) = sudoku(&["--max-solutions", "5"], "12..34..........\n");
    assert_eq!(code, 0, "multiple is a success");
}

#[test]
fn json_has_one_object_per_record() {
    let input = "12..34..........\n34.........2.3..\n11..............\n";
    let (_, out, _) = sudoku(&["--format", "json", "--max-solutions", "3"], input);
    let objects: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 3);
    assert_eq!(objects[0]["verdict"], "multiple");
    assert_eq!(objects[0]["count"], 3);
    assert_eq!(objects[1]["verdict"], "unique");
    assert_eq!(objects[1]["solution"], "3421124341322314");
    assert_eq!(objects[1]["line"], 2);
    assert!(objects[1]["error"].is_null());
    assert_eq!(objects[2]["verdict"], "invalid");
    assert!(objects[2]["solution"].is_null());
    assert_eq!(
        objects[2]["error"],
        "line 3: givens clash: r1c1 and r1c2 both hold 1"
    );
}

#[test]
fn first_solution_and_box_shapes() {
    let (code, out, err) = sudoku(&["--first"], "................\n");
    assert_eq!(code, 0);
    assert_eq!(out.len(), 17);
    assert!(err.contains("1 solved"), "{err}");
    let ten = ".".repeat(100);
    let (code, out, _) = sudoku(&["--format", "line"], &ten);
    assert_eq!(code, 2);
    assert!(
        out.starts_with("invalid: line 1: cannot tell the box shape of a 10x10 grid"),
        "{out}"
    );
    let (code, out, _) = sudoku(&["--first", "--box", "2x5"], &ten);
    assert_eq!(code, 0);
    assert_eq!(out.trim().len(), 100);
    let (code, _, err) = sudoku(&["--box", "2by5"], &ten);
    assert_eq!(code, 2);
    assert!(err.contains("--box"), "{err}");
}

#[test]
fn third_party_collections_when_present() {
    let top95 = common::root().join("../../../shared/data/sudoku9/top95.txt");
    if !top95.exists() {
        eprintln!("skipped: {} is absent", top95.display());
        return;
    }
    let path = top95.to_string_lossy().into_owned();
    let (code, out, err) = sudoku(&[&path, "--format", "json"], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 95);
    assert!(out.lines().all(|l| l.contains("\"verdict\":\"unique\"")));
}

#[test]
fn diagonals_make_x_sudokus() {
    let (code, out, _) = sudoku(&["--first", "--diagonals"], &".".repeat(81));
    assert_eq!(code, 0);
    let cells: Vec<char> = out.trim().chars().collect();
    assert_eq!(cells.len(), 81);
    for diagonal in [
        (0..9).map(|k| cells[k * 9 + k]).collect::<Vec<_>>(),
        (0..9).map(|k| cells[k * 9 + 8 - k]).collect(),
    ] {
        let mut sorted = diagonal.clone();
        sorted.sort_unstable();
        assert_eq!(sorted.into_iter().collect::<String>(), "123456789");
    }
    let clash = format!("5{}5", ".".repeat(79));
    let (code, out, _) = sudoku(&["--diagonals", "--format", "line"], &clash);
    assert_eq!(code, 2);
    assert_eq!(
        out,
        "invalid: line 1: givens clash: r1c1 and r9c9 both hold 5\n"
    );
}

#[test]
fn regions_make_jigsaw_sudokus() {
    let regions = "testdata/sudoku/jigsaw-4x4-regions.txt";
    let (code, out, err) = sudoku(&["--regions", regions, "--first"], "................\n");
    assert_eq!(code, 0, "{err}");
    let cells: Vec<char> = out.trim().chars().collect();
    assert_eq!(cells.len(), 16);
    let labels: Vec<char> = "AAABACBBDCCBDDDC".chars().collect();
    for label in ['A', 'B', 'C', 'D'] {
        let mut held: Vec<char> = (0..16)
            .filter(|&i| labels[i] == label)
            .map(|i| cells[i])
            .collect();
        held.sort_unstable();
        assert_eq!(
            held.into_iter().collect::<String>(),
            "1234",
            "region {label}"
        );
    }
    let (code, _, err) = sudoku(&["--regions", "Cargo.toml"], "................\n");
    assert_eq!(code, 2);
    assert!(err.contains("Cargo.toml"), "{err}");
}

/// Whether `grid` (one character per cell) fills `puzzle` so that every
/// row, column and region (cells with the same label) holds each symbol
/// once; written apart from the solver.
fn fills_jigsaw(puzzle: &str, map: &str, grid: &str) -> bool {
    let (p, m, g): (Vec<char>, Vec<char>, Vec<char>) = (
        puzzle.chars().collect(),
        map.chars().collect(),
        grid.chars().collect(),
    );
    let n = (1..=64).find(|n| n * n == g.len()).unwrap_or(0);
    if n == 0 || p.len() != g.len() || m.len() != g.len() {
        return false;
    }
    let keeps = p.iter().zip(&g).all(|(a, b)| *a == '.' || a == b);
    let mut units: Vec<Vec<char>> = Vec::new();
    for i in 0..n {
        units.push((0..n).map(|j| g[i * n + j]).collect());
        units.push((0..n).map(|j| g[j * n + i]).collect());
    }
    let mut labels = m.clone();
    labels.sort_unstable();
    labels.dedup();
    for label in labels {
        units.push(
            (0..g.len())
                .filter(|&k| m[k] == label)
                .map(|k| g[k])
                .collect(),
        );
    }
    let mut first = g[..n].to_vec();
    first.sort_unstable();
    keeps
        && units.into_iter().all(|mut u| {
            u.sort_unstable();
            u == first && u.windows(2).all(|w| w[0] != w[1])
        })
}

#[test]
fn jigsaw_lines_bring_their_own_regions() {
    let path = "testdata/sudoku/jigsaw-lines.txt";
    let (code, out, err) = sudoku(&["--jigsaw", path, "--threads", "2"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("2 of 5 records are invalid"), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    let text = std::fs::read_to_string(common::root().join(path)).unwrap();
    let records: Vec<(&str, &str)> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_once(' ').unwrap())
        .collect();
    for k in [0, 1] {
        let (puzzle, map) = records[k];
        assert!(fills_jigsaw(puzzle, map, lines[k]), "{}", lines[k]);
    }
    // The 6x6 solution breaks the 2x3 boxes: the regions replaced them.
    assert!(!fills_jigsaw(records[1].0, &box_map(36), lines[1]));
    assert_eq!(
        lines[2],
        "invalid: line 6, column 18: region map: label 'A' is on 5 cells, not 4"
    );
    assert_eq!(
        lines[3],
        "invalid: line 8: givens clash: r1c2 and r3c1 both hold 1"
    );
    let (count, grid) = lines[4]
        .strip_prefix("multiple ")
        .and_then(|rest| rest.split_once(' '))
        .unwrap();
    assert!(count.parse::<u64>().unwrap() >= 2);
    assert!(fills_jigsaw(records[4].0, records[4].1, grid));

    let (code, _, err) = sudoku(&["--jigsaw", "--regions", path, path], "");
    assert_eq!(code, 2);
    assert!(err.contains("--jigsaw"), "{err}");
}

/// The region map of the 2x3 boxes of a 6x6 grid.
fn box_map(cells: usize) -> String {
    let (n, br, bc) = (6, 2, 3);
    (0..cells)
        .map(|i| char::from(b'A' + ((i / n / br) * (n / bc) + i % n / bc) as u8))
        .collect()
}

#[test]
fn regions_decide_which_givens_clash() {
    // r1c1 and r2c2 share a box but not a region.
    let puzzle = "1....1..........\n";
    let (code, out, _) = sudoku(&[], puzzle);
    assert_eq!(
        (code, out.as_str()),
        (
            2,
            "invalid: line 1: givens clash: r1c1 and r2c2 both hold 1\n"
        )
    );
    let regions = "testdata/sudoku/jigsaw-4x4-regions.txt";
    let (code, out, err) = sudoku(&["--regions", regions, "--first"], puzzle);
    assert_eq!(code, 0, "{err}");
    assert!(
        fills_jigsaw(puzzle.trim(), "AAABACBBDCCBDDDC", out.trim()),
        "{out}"
    );
}

#[test]
fn second_shows_another_solution_of_a_multiple() {
    let boxes = "AABBAABBCCDDCCDD";
    let empty = "................";
    // One thread: with several, which second solution is found first may
    // change from run to run, and the two runs below are compared.
    let (code, out, err) = sudoku(&["--second", "-j", "1"], "................\n");
    assert_eq!(code, 0, "{err}");
    let words: Vec<&str> = out.split_whitespace().collect();
    assert_eq!(&words[..2], ["multiple", "2"], "{out}");
    assert_ne!(words[2], words[3]);
    for grid in &words[2..] {
        assert!(fills_jigsaw(empty, boxes, grid), "{grid}");
    }
    let (_, out, _) = sudoku(
        &["--second", "--format", "json", "-j", "1"],
        "................\n",
    );
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["second"].as_str(), Some(words[3]));
    let (_, out, _) = sudoku(&["--format", "json"], "................\n");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert!(v.get("second").is_none(), "{out}");
    // A unique puzzle has no second solution to show.
    let (_, out, _) = sudoku(&["--second"], "1234341221434...\n");
    assert_eq!(out, "1234341221434321\n");
}

#[test]
fn budgets_answer_unknown_and_the_batch_goes_on() {
    // The 4x4 puzzle takes a handful of nodes; the empty 9x9 grid's first
    // solution takes 81, and its uniqueness check more.
    let input = format!("34.........2.3..\n{}\n", ".".repeat(81));
    let (code, out, err) = sudoku(&["--max-nodes", "40", "--threads", "1"], &input);
    assert_eq!(code, 3, "a puzzle out of budget makes the status 3: {err}");
    assert_eq!(out, "3421124341322314\nunknown\n");
    assert!(
        err.contains("2 puzzles: 1 unique, 0 multiple, 1 unknown (out of budget)"),
        "{err}"
    );
    // Out of budget after the first solution: it is shown, with the count.
    let (puzzle, solution) = cases("9x9.txt").swap_remove(4);
    let (code, out, _) = sudoku(&["--max-nodes", "125", "--format", "json"], &puzzle);
    assert_eq!(code, 3);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (v["verdict"].as_str(), v["count"].as_u64()),
        (Some("unknown"), Some(1))
    );
    assert_eq!(v["solution"].as_str(), Some(solution.as_str()));
    // With enough budget the answers are those without one.
    let (code, out, _) = sudoku(&["--max-nodes", "100000", "--timeout", "60"], &input);
    assert_eq!(code, 0);
    assert!(
        out.lines().nth(1).unwrap().starts_with("multiple 2 "),
        "{out}"
    );
    // --target takes the budget too: a stopped record scores `unknown`.
    let (code, out, err) = sudoku(&["--target", "--max-nodes", "5"], &input);
    assert_eq!(code, 3, "{err}");
    assert!(out.lines().any(|l| l == "unknown"), "{out}");
    // Bad budgets are usage errors naming the option and what was expected.
    for (args, expected) in [
        (
            ["--max-nodes", "0"],
            "expected a positive integer, found '0'",
        ),
        (
            ["--max-nodes", "ten"],
            "expected a positive integer, found 'ten'",
        ),
        (
            ["--timeout", "soon"],
            "expected a number of seconds, found 'soon'",
        ),
        (
            ["--timeout", "inf"],
            "expected a positive, finite number of seconds",
        ),
    ] {
        let (code, out, err) = sudoku(&args, &input);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
        assert!(
            err.contains(args[0]) && err.contains(expected),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn fewer_puzzles_than_threads_are_split_across_them() {
    for file in ["9x9.txt", "16x16.txt", "25x25.txt"] {
        let (puzzle, solution) = cases(file).swap_remove(0);
        let (code, out, err) = sudoku(&["--threads", "4"], &format!("{puzzle}\n"));
        assert_eq!(code, 0, "{err}");
        assert_eq!(out.trim(), solution, "{file}");
        assert!(
            err.contains("1 puzzle: 1 unique") && err.contains("on 4 threads"),
            "{err}"
        );
    }
    // Several solutions: two distinct ones, each valid.
    let empty = ".".repeat(16);
    let (code, out, _) = sudoku(&["--threads", "3", "--second"], &empty);
    assert_eq!(code, 0);
    let words: Vec<&str> = out.split_whitespace().collect();
    assert_eq!(&words[..2], ["multiple", "2"], "{out}");
    assert_ne!(words[2], words[3]);
    for grid in &words[2..] {
        assert!(fills_jigsaw(&empty, "AABBAABBCCDDCCDD", grid), "{grid}");
    }
}
