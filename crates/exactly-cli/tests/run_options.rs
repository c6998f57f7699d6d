//! The command line as users of ripgrep and fd expect it (completions, a
//! man page, suggestions, JSON results, `--quiet`) and Knuth's run options
//! (`--report-every`, `--every`, `--profile`, `--trace-levels`, `--trace-nodes`), run on the
//! real binary.

use crate::common;

use common::{root, run};
use serde_json::Value;

const KNUTH: &str = "testdata/knuth-example.dlx";
const LANGFORD: &str = "testdata/langford-11.dlx";

fn json(line: &str) -> Value {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
}

#[test]
fn completions_for_every_shell() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef exactly"),
        ("fish", "complete -c exactly"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let (status, stdout, stderr) = run(&["completions", shell], b"");
        assert_eq!(status, Some(0), "{shell}: {stderr}");
        assert!(stdout.contains(marker), "{shell} script lacks '{marker}'");
        for sub in ["solve", "count", "sudoku", "--report-every"] {
            assert!(stdout.contains(sub), "{shell} script lacks '{sub}'");
        }
    }
    // The bash script parses.
    let (_, script, _) = run(&["completions", "bash"], b"");
    if let Ok(output) = std::process::Command::new("bash")
        .args(["-n", "-c", &script])
        .output()
    {
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let (status, _, stderr) = run(&["completions", "tcsh"], b"");
    assert_eq!(status, Some(2));
    assert!(stderr.contains("tcsh"), "{stderr}");
}

#[test]
fn man_pages() {
    let (status, page, _) = run(&["man"], b"");
    assert_eq!(status, Some(0));
    assert!(page.contains(".TH exactly 1"), "{page}");
    assert!(
        page.contains("exactly\\-solve(1)"),
        "the overview lists the subcommands' pages"
    );
    let (status, page, _) = run(&["man", "solve"], b"");
    assert_eq!(status, Some(0));
    assert!(page.contains(".TH exactly-solve 1"), "{page}");
    assert!(
        page.contains(&format!("exactly {}", env!("CARGO_PKG_VERSION"))),
        "{page}"
    );
    assert!(page.contains("\\-\\-every"), "the page lists the options");
    assert!(
        page.contains("exactly solve testdata/knuth\\-example.dlx"),
        "and the example"
    );
    let (status, _, stderr) = run(&["man", "sovle"], b"");
    assert_eq!(status, Some(2));
    assert!(stderr.contains("no such subcommand"), "{stderr}");
}

#[test]
fn mistyped_subcommands_get_a_suggestion() {
    let (status, stdout, stderr) = run(&["sovle", KNUTH], b"");
    assert_eq!(status, Some(2));
    assert!(stdout.is_empty());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("tip:") && stderr.contains("'solve'"),
        "{stderr}"
    );
    let (_, _, stderr) = run(&["count", "--limt", "3", KNUTH], b"");
    assert!(stderr.contains("'--limit'"), "{stderr}");
}

#[test]
fn mpi_is_hidden_without_the_feature() {
    for sub in ["solve", "count"] {
        let (_, help, _) = run(&[sub, "--help"], b"");
        assert_eq!(
            help.contains("--mpi"),
            cfg!(feature = "mpi"),
            "exactly {sub} --help"
        );
    }
}

#[test]
fn short_flags() {
    let long = run(
        &[
            "count",
            "--threads",
            "2",
            "--limit",
            "5",
            "--stats",
            LANGFORD,
        ],
        b"",
    );
    let short = run(&["count", "-j", "2", "-n", "5", "-s", LANGFORD], b"");
    assert_eq!(long.0, short.0);
    assert_eq!(long.1, short.1);
    let (status, stdout, _) = run(&["solve", "-o", "json", "-n", "1", KNUTH], b"");
    assert_eq!(status, Some(0));
    assert_eq!(json(stdout.trim())["options"][0], "a d f");
}

#[test]
fn count_as_json() {
    let (status, stdout, _) = run(&["count", "-o", "json", KNUTH], b"");
    assert_eq!(status, Some(0));
    assert_eq!(stdout, "{\"solutions\":1,\"complete\":true}\n");
    for args in [
        &["count", "--format", "json", "-j", "2", LANGFORD][..],
        &["count", "--format", "json", "-j", "1", LANGFORD],
        &["count", "--format", "json", "--zdd", LANGFORD],
    ] {
        let (status, stdout, _) = run(args, b"");
        assert_eq!(status, Some(0), "{args:?}");
        assert_eq!(
            stdout, "{\"solutions\":35584,\"complete\":true}\n",
            "{args:?}"
        );
    }
    // Multiplicities: a covered twice, b once, from {a}, {a b}, {a}.
    let (status, stdout, _) = run(&["count", "-o", "json", "-"], b"2|a b\na\na b\na\n");
    assert_eq!(status, Some(0));
    assert_eq!(stdout, "{\"solutions\":2,\"complete\":true}\n");
    // Stopped by --limit: a lower bound.
    let (status, stdout, _) = run(&["count", "-o", "json", "-n", "3", LANGFORD], b"");
    assert_eq!(status, Some(3));
    assert_eq!(stdout, "{\"solutions\":3,\"complete\":false}\n");
}

#[test]
fn stats_as_json() {
    let (status, stdout, stderr) = run(
        &[
            "count",
            "--stats-format",
            "json",
            "--engine",
            "links",
            "-j",
            "1",
            KNUTH,
        ],
        b"",
    );
    assert_eq!(status, Some(0));
    assert_eq!(stdout, "1\n");
    let stats = json(stderr.trim());
    assert_eq!(stats["engine"], "links");
    assert_eq!(stats["nodes"], 6);
    assert_eq!(stats["solutions"], 1);
    assert_eq!(stats["max_depth"], 3);
    assert!(stats["updates"].as_u64().is_some());
    assert!(stats["seconds"].as_f64().is_some());
    // The split count adds its threads and subproblems as a second object.
    let (_, _, stderr) = run(
        &["count", "-s", "--stats-format", "json", "-j", "2", LANGFORD],
        b"",
    );
    let lines: Vec<Value> = stderr.lines().map(json).collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert_eq!(lines[0]["solutions"], 35584);
    assert!(lines[1]["subproblems"].as_u64().unwrap() >= 128);
}

#[test]
fn estimate_and_merge_as_json() {
    let (status, stdout, _) = run(
        &[
            "estimate", "-o", "json", "--probes", "50", "--seed", "3", LANGFORD,
        ],
        b"",
    );
    assert_eq!(status, Some(0));
    let e = json(stdout.trim());
    assert_eq!(e["probes"], 50);
    assert_eq!(e["complete"], true);
    for field in ["nodes", "solutions"] {
        let (mean, low, high) = (
            e[field]["mean"].as_f64().unwrap(),
            e[field]["low"].as_f64().unwrap(),
            e[field]["high"].as_f64().unwrap(),
        );
        assert!(low <= mean && mean <= high, "{e}");
    }
    let (_, stdout, _) = run(&["estimate", "-o", "json", "--probes", "1", LANGFORD], b"");
    assert_eq!(json(stdout.trim())["nodes"]["low"], Value::Null);

    let dir = common::scratch_path("merge-json");
    std::fs::create_dir_all(&dir).unwrap();
    let plan = dir.join("l11.plan");
    let (_, text, _) = run(&["plan", LANGFORD, "--cubes", "16"], b"");
    std::fs::write(&plan, text).unwrap();
    let mut results = Vec::new();
    for shard in ["0/2", "1/2"] {
        let (status, text, stderr) = run(
            &[
                "count",
                "--plan",
                plan.to_str().unwrap(),
                "--shard",
                shard,
                LANGFORD,
            ],
            b"",
        );
        assert_eq!(status, Some(0), "{stderr}");
        let path = dir.join(shard.replace('/', "-of-"));
        std::fs::write(&path, text).unwrap();
        results.push(path.to_str().unwrap().to_string());
    }
    let mut args = vec!["merge", "--format", "json"];
    args.extend(results.iter().map(String::as_str));
    let (status, stdout, stderr) = run(&args, b"");
    assert_eq!(status, Some(0), "{stderr}");
    let merged = json(stdout.trim());
    assert_eq!(merged["solutions"], 35584);
    assert_eq!(merged["results"][1], results[1].as_str());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn quiet_leaves_only_errors() {
    let (status, stdout, stderr) = run(&["count", "-q", "-n", "3", "-j", "1", LANGFORD], b"");
    assert_eq!(
        (status, stdout.as_str(), stderr.as_str()),
        (Some(3), "3\n", "")
    );
    let (_, _, loud) = run(&["sudoku", "-"], b"1...\n..1.\n.1..\n...1\n");
    assert!(loud.contains("puzzle"), "sudoku prints a summary: {loud}");
    let (_, _, quiet) = run(&["sudoku", "--quiet", "-"], b"1...\n..1.\n.1..\n...1\n");
    assert_eq!(quiet, "");
    let (status, _, stderr) = run(&["-q", "count", "nonexistent.dlx"], b"");
    assert_eq!(status, Some(2));
    assert!(
        stderr.contains("nonexistent.dlx"),
        "errors still print: {stderr}"
    );
}

#[test]
fn report_every_prints_progress_lines() {
    // The shape of each line, not how many there are: the queens-13 search
    // visits a million nodes, far more than a millisecond's work.
    let (status, stdout, stderr) = run(
        &["count", "--report-every", "0.001", "testdata/queens-13.dlx"],
        b"",
    );
    assert_eq!(status, Some(0));
    assert_eq!(stdout, "73712\n");
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(!lines.is_empty(), "no progress line");
    for line in lines {
        let rest = line
            .strip_prefix("progress: ")
            .unwrap_or_else(|| panic!("{line}"));
        let fields: Vec<&str> = rest.split(", ").collect();
        assert_eq!(fields.len(), 5, "{line}");
        let number = |field: &str, unit: &str| -> f64 {
            let value = field
                .strip_suffix(unit)
                .unwrap_or_else(|| panic!("'{field}' should end in '{unit}' in {line}"));
            value.parse().unwrap_or_else(|_| panic!("{line}"))
        };
        assert!(number(fields[0], " s") >= 0.0);
        assert!(number(fields[1], " nodes") >= 1.0);
        let solutions = fields[2]
            .strip_suffix(" solutions")
            .or_else(|| fields[2].strip_suffix(" solution"))
            .unwrap();
        assert!(solutions.parse::<u64>().unwrap() <= 73712);
        let done = number(fields[3], "% done (estimated)");
        assert!((0.0..=100.0).contains(&done), "{line}");
        assert!(
            fields[4]
                .strip_prefix("level ")
                .unwrap()
                .parse::<u32>()
                .unwrap()
                <= 13
        );
    }
}

#[test]
fn every_prints_every_mth_solution() {
    let (_, all, _) = run(
        &["solve", "-o", "json", "-j", "1", "testdata/colors.dlx"],
        b"",
    );
    let all: Vec<Value> = all.lines().map(json).collect();
    assert!(all.len() >= 2);
    let (status, some, _) = run(
        &["solve", "-o", "json", "--every", "2", "testdata/colors.dlx"],
        b"",
    );
    assert_eq!(status, Some(0));
    let some: Vec<Value> = some.lines().map(json).collect();
    let expected: Vec<&Value> = all.iter().skip(1).step_by(2).collect();
    assert_eq!(some.iter().collect::<Vec<_>>(), expected);
    // Knuth format, on Langford pairs: 35584 solutions, every 10000th.
    let (status, stdout, _) = run(&["solve", "--every", "10000", LANGFORD], b"");
    assert_eq!(status, Some(0));
    assert_eq!(stdout.split("\n\n").count(), 3);
    let (status, _, stderr) = run(&["solve", "--every", "2", "--min-cost", KNUTH], b"");
    assert_eq!(status, Some(2));
    assert!(stderr.contains("--every"), "{stderr}");
}

/// Splits the output of a front end (`queens`, `polyomino`: boards
/// separated by blank lines; `langford`: one line each) into its solutions.
fn solutions(stdout: &str, blocks: bool) -> Vec<String> {
    if blocks {
        stdout
            .split("\n\n")
            .filter(|b| !b.trim().is_empty())
            .map(|b| b.trim_end().to_string())
            .collect()
    } else {
        stdout.lines().map(str::to_string).collect()
    }
}

#[test]
fn every_applies_to_the_puzzle_front_ends() {
    for (args, blocks) in [
        (&["queens", "6"][..], true),
        (&["queens", "8"], true),
        (&["langford", "7"], false),
        (
            &["polyomino", "--set", "pentominoes", "--board", "3x20"],
            true,
        ),
    ] {
        let (status, all, _) = run(args, b"");
        assert_eq!(status, Some(0), "{args:?}");
        let all = solutions(&all, blocks);
        assert!(all.len() >= 4, "{args:?}");
        for m in ["1", "2", "3", &all.len().to_string()] {
            let mut with = args.to_vec();
            with.extend(["--every", m]);
            let (status, some, stderr) = run(&with, b"");
            assert_eq!(status, Some(0), "{with:?}: {stderr}");
            let step: usize = m.parse().unwrap();
            let expected: Vec<&String> = all.iter().skip(step - 1).step_by(step).collect();
            assert_eq!(
                solutions(&some, blocks).iter().collect::<Vec<_>>(),
                expected,
                "{with:?}"
            );
        }
    }
    // --every with --limit: the limit counts every solution found, printed
    // or not (as for solve).
    let (_, all, _) = run(&["langford", "7"], b"");
    let all = solutions(&all, false);
    let (status, some, _) = run(&["langford", "7", "--every", "2", "-n", "5"], b"");
    assert_eq!(status, Some(0));
    assert_eq!(solutions(&some, false), [all[1].clone(), all[3].clone()]);
    // Past the last solution: nothing printed, but solutions were found.
    let (status, none, _) = run(&["queens", "6", "--every", "5"], b"");
    assert_eq!((status, none.as_str()), (Some(0), ""));
    // --count prints no solution, so --every does not go with it.
    let (status, _, stderr) = run(&["queens", "6", "--count", "--every", "2"], b"");
    assert_eq!(status, Some(2));
    assert!(stderr.contains("--every"), "{stderr}");
}

#[test]
fn every_on_threads_prints_one_in_m() {
    // On threads the order is not fixed, but the number printed is.
    let (status, stdout, _) = run(&["solve", "-j", "2", "--every", "1000", LANGFORD], b"");
    assert_eq!(status, Some(0));
    assert_eq!(stdout.split("\n\n").count(), 35584 / 1000);
}

#[test]
fn stats_as_json_for_diagrams_and_minimum_covers() {
    // zdd, sample and count --zdd: one object with the build's figures.
    for args in [
        &["zdd", "--stats-format", "json", LANGFORD][..],
        &["sample", "-n", "2", "--stats-format", "json", LANGFORD],
        &["count", "--zdd", "--stats-format", "json", LANGFORD],
        &["zdd", "-s", "--stats-format", "json", LANGFORD],
    ] {
        let (status, _, stderr) = run(args, b"");
        assert_eq!(status, Some(0), "{args:?}: {stderr}");
        let lines: Vec<Value> = stderr.lines().map(json).collect();
        assert_eq!(lines.len(), 1, "{args:?}: {stderr}");
        let stats = &lines[0];
        assert_eq!(stats["engine"], "zdd", "{args:?}");
        for field in ["nodes", "memos", "hits", "diagram_nodes", "bytes"] {
            assert!(
                stats[field].as_u64().is_some(),
                "{args:?}: {field} in {stats}"
            );
        }
        assert!(stats["seconds"].as_f64().is_some());
        assert!(stats["diagram_nodes"].as_u64().unwrap() >= 1);
    }
    // The text form is unchanged, and without --stats nothing is printed.
    let (_, _, text) = run(&["zdd", "-s", LANGFORD], b"");
    assert!(
        text.lines().any(|l| l.starts_with("diagram nodes: ")),
        "{text}"
    );
    let (_, _, silent) = run(&["zdd", LANGFORD], b"");
    assert_eq!(silent, "");
    // The same diagram, the same figures apart from the time.
    let figures = |args: &[&str]| {
        let (_, _, stderr) = run(args, b"");
        let mut v = json(stderr.trim());
        v["seconds"] = Value::Null;
        v
    };
    assert_eq!(
        figures(&["zdd", "--stats-format", "json", LANGFORD]),
        figures(&["count", "--zdd", "--stats-format", "json", LANGFORD])
    );

    // squares and cover --min: the search's object, then the iterations.
    for args in [
        &["squares", "3", "--stats-format", "json"][..],
        &["cover", "--min", "--stats-format", "json", KNUTH],
    ] {
        let (status, _, stderr) = run(args, b"");
        assert_eq!(status, Some(0), "{args:?}: {stderr}");
        let lines: Vec<Value> = stderr.lines().map(json).collect();
        assert_eq!(lines.len(), 2, "{args:?}: {stderr}");
        assert_eq!(lines[0]["engine"], "min-cover");
        assert!(lines[0]["nodes"].as_u64().unwrap() >= 1, "{args:?}");
        assert!(lines[1]["iterations"].as_u64().unwrap() >= 1, "{args:?}");
    }
    let (_, _, text) = run(&["squares", "3", "-s"], b"");
    assert!(
        text.lines().any(|l| l.starts_with("iterations: ")),
        "{text}"
    );
    let (_, _, silent) = run(&["squares", "3"], b"");
    assert_eq!(silent, "");
}

#[test]
fn count_zdd_refuses_the_options_of_a_plain_search() {
    for flag in ["--profile", "--trace", "--report-every"] {
        let mut args = vec!["count", "--zdd", flag];
        if flag == "--report-every" {
            args.push("1");
        }
        args.push(KNUTH);
        let (status, _, stderr) = run(&args, b"");
        assert_eq!(status, Some(2), "{args:?}");
        assert!(stderr.contains(flag), "{args:?}: {stderr}");
    }
}

#[test]
fn shard_stats_as_json() {
    let dir = common::scratch_path("shard-json");
    std::fs::create_dir_all(&dir).unwrap();
    let plan = dir.join("l11.plan");
    let (_, text, _) = run(&["plan", LANGFORD, "--cubes", "16"], b"");
    std::fs::write(&plan, text).unwrap();
    let plan = plan.to_str().unwrap();
    let mut done = 0;
    for (i, shard) in ["0/2", "1/2"].into_iter().enumerate() {
        let (status, _, stderr) = run(
            &[
                "count",
                "--plan",
                plan,
                "--shard",
                shard,
                "--stats-format",
                "json",
                LANGFORD,
            ],
            b"",
        );
        assert_eq!(status, Some(0), "{stderr}");
        let lines: Vec<Value> = stderr.lines().map(json).collect();
        assert_eq!(lines.len(), 1, "{stderr}");
        let s = &lines[0];
        assert_eq!(s["shard"].as_u64(), Some(i as u64), "{s}");
        assert_eq!(s["shards"], 2, "{s}");
        assert!(s["subproblems"].as_u64().unwrap() >= 16, "{s}");
        assert!(s["nodes"].as_u64().is_some() && s["seconds"].as_f64().is_some());
        done += s["subproblems_done"].as_u64().unwrap();
        if i == 1 {
            // The two shards share the plan's subproblems out.
            assert_eq!(done, s["subproblems"].as_u64().unwrap(), "{s}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn profile_counts_nodes_at_each_level() {
    // Knuth's example: the root; a's two options; b's one option under
    // each; then only 'a d f, b g' leaves c an option (c e), the solution.
    let (status, stdout, stderr) = run(&["count", "--profile", KNUTH], b"");
    assert_eq!((status, stdout.as_str()), (Some(0), "1\n"));
    assert_eq!(
        stderr,
        "Profile:\n  0:            1\n  1:            2\n  2:            2\n  3:            1\n"
    );
    // The levels add up to the nodes of --stats, on every engine.
    for engine in ["links", "cells", "bits", "masks", "sparse"] {
        let (_, _, stderr) = run(
            &["count", "--profile", "-s", "--engine", engine, LANGFORD],
            b"",
        );
        let nodes: u64 = stderr
            .lines()
            .find_map(|l| l.strip_prefix("nodes: "))
            .unwrap()
            .parse()
            .unwrap();
        let levels: Vec<u64> = stderr
            .lines()
            .skip_while(|l| *l != "Profile:")
            .skip(1)
            .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
            .collect();
        assert_eq!(levels.len(), 12, "{engine}: levels 0 to 11 (11 pairs)");
        assert_eq!(levels[0], 1);
        assert_eq!(levels.iter().sum::<u64>(), nodes, "{engine}");
        // Every solution is a node at level 11.
        assert_eq!(levels[11], 35584, "{engine}");
    }
    let (_, _, stderr) = run(
        &["count", "--profile", "--stats-format", "json", KNUTH],
        b"",
    );
    let lines: Vec<Value> = stderr.lines().map(json).collect();
    assert_eq!(lines[1]["profile"], serde_json::json!([1, 2, 2, 1]));
}

#[test]
fn trace_levels_keep_the_lines_of_those_levels() {
    let (_, _, full) = run(&["solve", "--trace", KNUTH], b"");
    let (status, stdout, part) = run(&["solve", "--trace-levels", "1..2", KNUTH], b"");
    assert_eq!(status, Some(0));
    assert_eq!(stdout, "a d f\nb g\nc e\n");
    let indent = |l: &str| (l.len() - l.trim_start().len()) / 2;
    let expected: Vec<&str> = full
        .lines()
        .filter(|l| (1..=2).contains(&indent(l)))
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(part.lines().collect::<Vec<_>>(), expected);
    let (status, _, stderr) = run(&["solve", "--trace-levels", "3..1", KNUTH], b"");
    assert_eq!(status, Some(2));
    assert!(stderr.contains("3..1"), "{stderr}");
}

#[test]
fn trace_nodes_follow_each_step_and_all_come_back() {
    let (_, _, plain) = run(&["solve", "--trace", KNUTH], b"");
    let (status, stdout, full) = run(&["solve", "--trace-nodes", KNUTH], b"");
    assert_eq!(status, Some(0));
    assert_eq!(stdout, "a d f\nb g\nc e\n");
    let is_node = |l: &&str| {
        let t = l.trim_start();
        t.starts_with("unlink ") || t.starts_with("relink ")
    };
    // Without the node lines, the trace is --trace's.
    let steps: Vec<&str> = full.lines().filter(|l| !is_node(l)).collect();
    assert_eq!(steps, plain.lines().collect::<Vec<_>>());
    // The first step covers a: its header, then the nodes of a's options.
    let first: Vec<&str> = full.lines().take(4).collect();
    assert_eq!(
        first,
        [
            "choose a (2 options); cover a",
            "  unlink item a",
            "  unlink option #1 (a d g) from d",
            "  unlink option #1 (a d g) from g",
        ]
    );
    // Every node taken out is put back, as often.
    let count = |verb: &str| {
        let mut n: Vec<String> = full
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix(verb))
            .map(str::to_string)
            .collect();
        n.sort();
        n
    };
    assert!(!count("unlink ").is_empty());
    assert_eq!(count("unlink "), count("relink "));
    // With --trace-levels, a step's node lines go with it.
    let (_, _, part) = run(
        &["solve", "--trace-levels", "0..0", "--trace-nodes", KNUTH],
        b"",
    );
    let expected: Vec<&str> = full.lines().take(6).collect();
    assert_eq!(part.lines().take(6).collect::<Vec<_>>(), expected);
    assert!(part.lines().all(|l| l.len() - l.trim_start().len() <= 2));
}

#[test]
fn golden_files_are_in_the_workspace() {
    assert!(root().join("testdata/cli/help/exactly.txt").exists());
}
