//! `exactly sudoku gen|rate|hint|encode` on the real binary: generated
//! puzzles re-solved by `exactly sudoku` (one solution each, minimal), the
//! same seed giving the same output on any number of threads, ratings and
//! hints, and encoded matrices counted by `exactly count`.

use crate::common;

use common::run;

fn exactly(args: &[&str], stdin: &str) -> (i32, String, String) {
    let (status, out, err) = run(args, stdin.as_bytes());
    (status.unwrap_or(-1), out, err)
}

/// Solves the lines of `input` with `exactly sudoku` and the extra options;
/// the verdict words, one per record.
fn verdicts(input: &str, extra: &[&str]) -> Vec<String> {
    let mut args = vec!["sudoku", "--format", "json", "--threads", "1"];
    args.extend_from_slice(extra);
    let (_, out, err) = exactly(&args, input);
    out.lines()
        .map(|l| {
            let v: serde_json::Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l} {err}"));
            v["verdict"].as_str().unwrap().to_string()
        })
        .collect()
}

/// Every puzzle minus one of its clues, one a line (for jigsaws, with the
/// region map after it).
fn with_one_clue_less(line: &str) -> Vec<String> {
    with_one_orbit_less(line, "none")
}

/// Every puzzle minus one orbit of its clues under `symmetry` (`none`,
/// `rotational` or `mirror`): a clue alone, or a clue with its image.
fn with_one_orbit_less(line: &str, symmetry: &str) -> Vec<String> {
    let (cells, map) = match line.split_once(' ') {
        Some((c, m)) => (c, Some(m)),
        None => (line, None),
    };
    let chars: Vec<char> = cells.chars().collect();
    let n = (1..=64).find(|n| n * n == chars.len()).unwrap();
    let image = |i: usize| match symmetry {
        "none" => i,
        "rotational" => n * n - 1 - i,
        "mirror" => (i / n) * n + (n - 1 - i % n),
        _ => panic!("symmetry {symmetry}"),
    };
    (0..chars.len())
        .filter(|&i| chars[i] != '.' && image(i) >= i)
        .map(|i| {
            assert_ne!(chars[image(i)], '.', "{line}: not {symmetry}");
            let mut fewer = chars.clone();
            fewer[i] = '.';
            fewer[image(i)] = '.';
            let fewer: String = fewer.into_iter().collect();
            match map {
                Some(m) => format!("{fewer} {m}"),
                None => fewer,
            }
        })
        .collect()
}

#[test]
fn generated_puzzles_have_one_solution_and_are_minimal() {
    for (gen, solve) in [
        (vec!["--size", "4", "--count", "6"], vec![]),
        (vec!["--box", "2x3", "--count", "4"], vec!["--box", "2x3"]),
        (vec!["--count", "4"], vec![]),
        (vec!["--count", "3", "--diagonals"], vec!["--diagonals"]),
        (vec!["--count", "3", "--jigsaw"], vec!["--jigsaw"]),
        (
            vec!["--size", "7", "--count", "2", "--jigsaw"],
            vec!["--jigsaw"],
        ),
        (vec!["--size", "16", "--count", "1"], vec![]),
    ] {
        let mut args = vec!["sudoku", "gen", "--seed", "3"];
        args.extend_from_slice(&gen);
        let (code, out, err) = exactly(&args, "");
        assert_eq!(code, 0, "{gen:?}: {err}");
        let lines: Vec<&str> = out.lines().collect();
        let count: usize = gen[gen.iter().position(|&a| a == "--count").unwrap() + 1]
            .parse()
            .unwrap();
        assert_eq!(lines.len(), count, "{gen:?}");
        assert!(
            verdicts(&out, &solve).iter().all(|v| v == "unique"),
            "{gen:?}: {out}"
        );
        let fewer: Vec<String> = lines.iter().flat_map(|l| with_one_clue_less(l)).collect();
        let words = verdicts(&(fewer.join("\n") + "\n"), &solve);
        assert_eq!(words.len(), fewer.len());
        assert!(
            words.iter().all(|v| v == "multiple"),
            "{gen:?}: not minimal: {words:?}"
        );
    }
}

/// `exactly sudoku gen` with fixed seeds: the output, byte for byte, is
/// `testdata/cli/sudoku-gen/NAME.txt` (rewritten with `EXACTLY_BLESS=1`);
/// each committed puzzle has one solution, and emptying any orbit of its
/// clues (a cell, or a symmetric pair) gives several.
#[test]
fn generated_puzzles_match_the_golden_files() {
    let bless = std::env::var_os("EXACTLY_BLESS").is_some();
    let dir = common::root().join("testdata/cli/sudoku-gen");
    let cases: [(&str, &[&str], &[&str], &str); 8] = [
        ("4x4", &["--size", "4", "--count", "6"], &[], "none"),
        (
            "6x6-box-2x3",
            &["--box", "2x3", "--count", "4"],
            &["--box", "2x3"],
            "none",
        ),
        ("9x9", &["--count", "4"], &[], "none"),
        (
            "9x9-diagonals",
            &["--count", "3", "--diagonals"],
            &["--diagonals"],
            "none",
        ),
        (
            "9x9-jigsaw",
            &["--count", "3", "--jigsaw"],
            &["--jigsaw"],
            "none",
        ),
        (
            "6x6-jigsaw",
            &["--size", "6", "--count", "3", "--jigsaw"],
            &["--jigsaw"],
            "none",
        ),
        (
            "9x9-rotational",
            &["--count", "3", "--symmetry", "rotational"],
            &[],
            "rotational",
        ),
        (
            "9x9-mirror",
            &["--count", "3", "--symmetry", "mirror"],
            &[],
            "mirror",
        ),
    ];
    let mut failures = Vec::new();
    for (name, gen, solve, symmetry) in cases {
        let mut args = vec!["sudoku", "gen", "--seed", "2026", "--threads", "2"];
        args.extend_from_slice(gen);
        let (code, out, err) = exactly(&args, "");
        assert_eq!(code, 0, "{name}: {err}");
        let path = dir.join(format!("{name}.txt"));
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &out).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        if out != expected {
            failures.push(format!(
                "{name} (exactly {}):\n--- expected\n{expected}--- actual\n{out}",
                args.join(" ")
            ));
            continue;
        }
        assert!(
            verdicts(&expected, solve).iter().all(|v| v == "unique"),
            "{name}: {expected}"
        );
        let fewer: Vec<String> = expected
            .lines()
            .flat_map(|l| with_one_orbit_less(l, symmetry))
            .collect();
        assert!(!fewer.is_empty());
        let words = verdicts(&(fewer.join("\n") + "\n"), solve);
        assert_eq!(words.len(), fewer.len());
        assert!(
            words.iter().all(|v| v == "multiple"),
            "{name}: not minimal: {words:?}"
        );
    }
    assert!(
        failures.is_empty(),
        "output differs from testdata/cli/sudoku-gen/ (EXACTLY_BLESS=1 rewrites it):\n{}",
        failures.join("\n")
    );
}

#[test]
fn symmetric_puzzles_keep_their_symmetry() {
    let (code, out, _) = exactly(
        &["sudoku", "gen", "--count", "3", "--symmetry", "rotational"],
        "",
    );
    assert_eq!(code, 0);
    for line in out.lines() {
        let cells: Vec<bool> = line.chars().map(|c| c != '.').collect();
        let rev: Vec<bool> = cells.iter().rev().copied().collect();
        assert_eq!(cells, rev, "{line}");
    }
    let (code, out, _) = exactly(
        &["sudoku", "gen", "--count", "3", "--symmetry", "mirror"],
        "",
    );
    assert_eq!(code, 0);
    for line in out.lines() {
        let cells: Vec<char> = line.chars().collect();
        for row in cells.chunks(9) {
            let given: Vec<bool> = row.iter().map(|&c| c != '.').collect();
            let rev: Vec<bool> = given.iter().rev().copied().collect();
            assert_eq!(given, rev, "{line}");
        }
    }
    assert!(verdicts(&out, &[]).iter().all(|v| v == "unique"));
}

#[test]
fn the_same_seed_gives_the_same_puzzles_on_any_threads() {
    let run_with = |threads: &str, seed: &str| {
        let (code, out, err) = exactly(
            &[
                "sudoku",
                "gen",
                "--count",
                "8",
                "--seed",
                seed,
                "--threads",
                threads,
            ],
            "",
        );
        assert_eq!(code, 0, "{err}");
        out
    };
    let one = run_with("1", "42");
    assert_eq!(one, run_with("3", "42"));
    assert_eq!(one, run_with("1", "42"));
    assert_ne!(one, run_with("1", "43"));
    let (_, a, _) = exactly(
        &[
            "sudoku",
            "gen",
            "--jigsaw",
            "--count",
            "3",
            "--seed",
            "9",
            "--threads",
            "2",
        ],
        "",
    );
    let (_, b, _) = exactly(
        &[
            "sudoku",
            "gen",
            "--jigsaw",
            "--count",
            "3",
            "--seed",
            "9",
            "--threads",
            "1",
        ],
        "",
    );
    assert_eq!(a, b);
}

#[test]
fn json_records_carry_puzzle_solution_and_rating() {
    let (code, out, err) = exactly(&["sudoku", "gen", "--count", "3", "--format", "json"], "");
    assert_eq!(code, 0, "{err}");
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let puzzle = v["puzzle"].as_str().unwrap();
        let (_, solved, _) = exactly(&["sudoku", "--format", "line"], &format!("{puzzle}\n"));
        assert_eq!(solved.trim(), v["solution"].as_str().unwrap());
        assert_eq!(
            v["clues"].as_u64().unwrap() as usize,
            puzzle.chars().filter(|&c| c != '.').count()
        );
        let (_, rated, _) = exactly(
            &["sudoku", "rate", "--format", "json"],
            &format!("{puzzle}\n"),
        );
        let r: serde_json::Value = serde_json::from_str(rated.trim()).unwrap();
        assert_eq!(r["level"], v["rating"]["level"]);
        assert_eq!(r["nodes"], v["rating"]["nodes"]);
        assert!(v["rating"]["nodes"].as_u64().unwrap() >= 1);
        assert_eq!(v["unproven"], 0);
    }
}

#[test]
fn clue_and_rating_bounds_are_met() {
    let (code, out, err) = exactly(
        &[
            "sudoku", "gen", "--count", "2", "--clues", "24", "--format", "json",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v["clues"].as_u64().unwrap() <= 24);
    }
    let (code, out, err) = exactly(
        &[
            "sudoku",
            "gen",
            "--count",
            "2",
            "--min-rating",
            "guessing",
            "--format",
            "json",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["rating"]["level"], "guessing");
        assert!(v["rating"]["guesses"].as_u64().unwrap() > 0);
    }
    let (code, out, _) = exactly(
        &[
            "sudoku",
            "gen",
            "--count",
            "2",
            "--max-rating",
            "hidden-single",
            "--min-rating",
            "40",
            "--format",
            "json",
        ],
        "",
    );
    assert_eq!(code, 0);
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let level = v["rating"]["level"].as_str().unwrap();
        assert!(
            ["naked-single", "hidden-single"].contains(&level),
            "{level}"
        );
        assert!(v["rating"]["nodes"].as_u64().unwrap() >= 40);
    }
    // Impossible: no 9x9 puzzle with one solution has 16 clues.
    let (code, out, err) = exactly(&["sudoku", "gen", "--clues", "16", "--attempts", "3"], "");
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("none of 3 attempts"), "{err}");
}

#[test]
fn bad_options_are_refused() {
    for (args, says) in [
        (vec!["--size", "10"], "--box RxC"),
        (vec!["--size", "3"], "between 4 and 64"),
        (vec!["--size", "8", "--box", "3x3"], "does not match"),
        (
            vec!["--min-rating", "easy"],
            "expected a number of search nodes or one of",
        ),
        (vec!["--jigsaw", "--format", "grid"], "region map"),
    ] {
        let mut all = vec!["sudoku", "gen"];
        all.extend_from_slice(&args);
        let (code, _, err) = exactly(&all, "");
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn rate_names_the_hardest_technique() {
    let hardest =
        std::fs::read_to_string(common::root().join("testdata/sudoku/forum-hardest-sample.txt"))
            .unwrap();
    let (code, out, err) = exactly(&["sudoku", "rate", "-"], &hardest);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 12);
    for line in out.lines() {
        assert!(line.starts_with("guessing nodes="), "{line}");
    }
    // 4x4, naked singles only.
    let (code, out, _) = exactly(&["sudoku", "rate"], "34.........2.3..\n");
    assert_eq!(code, 0);
    assert!(out.starts_with("naked-single nodes="), "{out}");
    assert!(out.contains("guesses=0 naked-single="), "{out}");
    // Several solutions, none, and an invalid record.
    let (code, out, err) = exactly(
        &["sudoku", "rate"],
        "12..34..........\n11..............\n123....4........\n",
    );
    assert_eq!(code, 2, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "multiple");
    assert!(lines[1].starts_with("invalid: "), "{}", lines[1]);
    assert_eq!(lines[2], "none");
    let (code, out, _) = exactly(&["sudoku", "rate"], "12..34..........\n");
    assert_eq!((code, out.as_str()), (1, "multiple\n"));
}

#[test]
fn rate_on_several_threads_keeps_the_input_order() {
    // The hardest sample, the 17-clue sample, and records that are not
    // unique or not valid in between.
    let dir = common::root().join("testdata/sudoku");
    let mut input = std::fs::read_to_string(dir.join("forum-hardest-sample.txt")).unwrap();
    input.push_str("12..34..........\n11..............\n123....4........\n");
    input.push_str(&std::fs::read_to_string(dir.join("17-clue-sample.txt")).unwrap());
    for format in ["line", "json"] {
        let run_with = |threads: &str| {
            let (code, out, err) = exactly(
                &["sudoku", "rate", "--format", format, "--threads", threads],
                &input,
            );
            assert_eq!(code, 2, "{err}");
            out
        };
        let one = run_with("1");
        assert!(one.lines().count() >= 55, "{one}");
        assert_eq!(
            one.lines().nth(12),
            Some(if format == "line" {
                "multiple"
            } else {
                r#"{"line":15,"verdict":"multiple"}"#
            })
        );
        assert_eq!(run_with("3"), one, "--format {format}");
        assert_eq!(run_with("8"), one, "--format {format}");
    }
}

#[test]
fn rate_keeps_to_its_budgets() {
    let hardest =
        std::fs::read_to_string(common::root().join("testdata/sudoku/forum-hardest-sample.txt"))
            .unwrap();
    // A budget the ratings fit in changes nothing.
    let (code, plain, err) = exactly(&["sudoku", "rate", "-"], &hardest);
    assert_eq!(code, 0, "{err}");
    let roomy = ["--max-nodes", "100000000", "--timeout", "1000"];
    let (code, out, err) = exactly(
        &[&["sudoku", "rate", "-"][..], &roomy[..]].concat(),
        &hardest,
    );
    assert_eq!((code, out.as_str()), (0, plain.as_str()), "{err}");
    // One node: each of these puzzles needs guesses, so none is rated; the
    // batch goes on and the exit status is 3.
    let (code, out, err) = exactly(&["sudoku", "rate", "--max-nodes", "1", "-"], &hardest);
    assert_eq!(code, 3, "{err}");
    assert_eq!(out, "unknown\n".repeat(12));
    // The empty 64x64 grid, whose check for a second solution has no end
    // in sight, then a 4x4 puzzle that is rated.
    let input = format!("{}\n34.........2.3..\n", ".".repeat(64 * 64));
    let (code, out, err) = exactly(&["sudoku", "rate", "--max-nodes", "1000", "-"], &input);
    assert_eq!(code, 3, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "unknown");
    assert!(lines[1].starts_with("naked-single nodes="), "{out}");
    let (code, out, err) = exactly(
        &[
            "sudoku",
            "rate",
            "--format",
            "json",
            "--timeout",
            "0.2",
            "-",
        ],
        &input,
    );
    assert_eq!(code, 3, "{err}");
    assert!(
        out.starts_with(r#"{"line":1,"verdict":"unknown"}"#),
        "{out}"
    );
}

#[test]
fn gen_keeps_to_its_time_budget() {
    // A budget the puzzles fit in changes nothing: the same puzzles.
    let args = [
        "sudoku",
        "gen",
        "--count",
        "3",
        "--seed",
        "5",
        "--threads",
        "2",
    ];
    let (code, plain, err) = exactly(&args, "");
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = exactly(&[&args[..], &["--timeout", "1000"]].concat(), "");
    assert_eq!((code, out.as_str()), (0, plain.as_str()), "{err}");
    // 36x36 puzzles are far from made in 0.2 s (thousands of uniqueness
    // checks): each is left out with a message, and the exit status is 3.
    let (code, out, err) = exactly(
        &[
            "sudoku",
            "gen",
            "--size",
            "36",
            "--count",
            "2",
            "--threads",
            "1",
            "--timeout",
            "0.2",
        ],
        "",
    );
    assert_eq!(code, 3, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("puzzle 1: not made within --timeout 0.2 s"),
        "{err}"
    );
    assert!(
        err.contains("puzzle 2: not made within --timeout 0.2 s"),
        "{err}"
    );
    assert!(
        err.contains("stopped by --timeout: 2 of 2 puzzles"),
        "{err}"
    );
}

#[test]
fn hint_gives_the_next_step() {
    let (code, out, _) = exactly(&["sudoku", "hint"], "34.........2.3..\n");
    assert_eq!(code, 0);
    assert_eq!(out, "naked-single: r1c4 => r1c4=1\n");
    let (code, out, _) = exactly(
        &["sudoku", "hint", "--format", "json"],
        "34.........2.3..\n",
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["technique"], "naked-single");
    assert_eq!(v["places"][0], "r1c4=1");
    // A hidden single in a 9x9 grid: the first puzzle of the forum's hardest
    // needs guessing at once.
    let hardest =
        std::fs::read_to_string(common::root().join("testdata/sudoku/forum-hardest-sample.txt"))
            .unwrap();
    let first = hardest.lines().find(|l| !l.starts_with('#')).unwrap();
    let (_, out, _) = exactly(&["sudoku", "hint"], &format!("{first}\n"));
    assert!(
        out.starts_with("guessing: r") || out.contains(" => "),
        "{out}"
    );
    let (_, out, _) = exactly(&["sudoku", "hint"], "1234341221434321\n");
    assert_eq!(out, "solved\n");
}

#[test]
fn encoded_puzzles_count_as_sudoku_does() {
    let (code, dlx, err) = exactly(&["sudoku", "encode"], "................\n");
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = exactly(&["count", "-"], &dlx);
    assert_eq!(code, 0);
    assert_eq!(out.lines().next(), Some("288"));
    // Two solutions (a full grid with a 2x2 swap emptied).
    let two = "..343412..434321\n";
    let (_, solved, _) = exactly(
        &["sudoku", "--format", "json", "--max-solutions", "100"],
        two,
    );
    let v: serde_json::Value = serde_json::from_str(solved.trim()).unwrap();
    assert_eq!(v["count"], 2);
    let (_, dlx, _) = exactly(&["sudoku", "encode"], two);
    let (_, out, _) = exactly(&["count", "-"], &dlx);
    assert_eq!(out.lines().next(), Some("2"));
    // The 9x9 matrix has 324 items; X-sudoku 342.
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    let (_, dlx, _) = exactly(&["sudoku", "encode"], puzzle);
    assert!(dlx.contains("| 324 items"), "{dlx}");
    let (_, out, _) = exactly(&["count", "-"], &dlx);
    assert_eq!(out.lines().next(), Some("1"));
    let (_, dlx, _) = exactly(&["sudoku", "encode", "--diagonals"], &".".repeat(81));
    assert!(dlx.contains("| 342 items"), "{dlx}");
    // The second record, and a record that is not there.
    let (code, dlx, _) = exactly(
        &["sudoku", "encode", "--record", "2"],
        &format!("{two}................\n"),
    );
    assert_eq!(code, 0);
    let (_, out, _) = exactly(&["count", "-"], &dlx);
    assert_eq!(out.lines().next(), Some("288"));
    let (code, _, err) = exactly(&["sudoku", "encode", "--record", "3"], two);
    assert_eq!(code, 2);
    assert!(err.contains("holds 1 records"), "{err}");
}
