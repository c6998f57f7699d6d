//! Counting at scale through the real binary: threads, checkpoints killed
//! and resumed, plans run as separate shard processes and merged.

use crate::common;

use std::fs;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use common::{exactly, run};

fn first_line(args: &[&str]) -> (Option<i32>, String, String) {
    let (status, out, err) = run(args, b"");
    (status, out.lines().next().unwrap_or("").to_string(), err)
}

fn scratch(name: &str) -> PathBuf {
    let path = scratch_keep(name);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let _ = fs::remove_file(&path);
    path
}

#[test]
fn thread_counts_do_not_change_counts_or_nodes() {
    for (file, count) in [
        ("testdata/langford-11.dlx", "35584"),
        ("testdata/queens-13.dlx", "73712"),
        ("testdata/knuth-example.dlx", "1"),
        ("testdata/colors.dlx", "3"),
    ] {
        let mut nodes = Vec::new();
        for threads in ["1", "2", "8"] {
            let (status, out, err) = first_line(&["count", "--stats", "--threads", threads, file]);
            assert_eq!(status, Some(0), "{file} --threads {threads}: {err}");
            assert_eq!(out, count, "{file} --threads {threads}");
            let n = err
                .lines()
                .find(|l| l.starts_with("nodes: "))
                .unwrap()
                .to_string();
            nodes.push(n);
        }
        assert!(nodes.iter().all(|n| *n == nodes[0]), "{file}: {nodes:?}");
    }
}

#[test]
fn thread_counts_do_not_change_updates() {
    // The engines that count link updates: the updates above the split's
    // cut add to those of the subproblems, as on one thread.
    for engine in ["links", "cells"] {
        let mut stats = Vec::new();
        for threads in ["1", "3"] {
            let args = ["count", "--stats", "--engine", engine, "--threads", threads];
            let (status, out, err) =
                first_line(&[&args[..], &["testdata/langford-11.dlx"]].concat());
            assert_eq!(status, Some(0), "{engine} --threads {threads}: {err}");
            assert_eq!(out, "35584", "{engine} --threads {threads}");
            let line = |key: &str| {
                err.lines()
                    .find(|l| l.starts_with(key))
                    .unwrap_or_else(|| panic!("{engine} --threads {threads}: no {key} in {err}"))
                    .to_string()
            };
            stats.push((line("nodes: "), line("updates: ")));
        }
        assert_eq!(stats[0], stats[1], "{engine}");
    }
}

#[test]
fn a_killed_run_resumes_from_its_checkpoint() {
    let file = "testdata/pentomino-6x10.dlx";
    let ckpt = scratch("killed.ckpt");
    let ckpt_arg = ckpt.to_str().unwrap();
    let mut child = exactly()
        .args(["count", "--threads", "2", "--checkpoint", ckpt_arg, file])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(150));
    let _ = child.kill();
    let _ = child.wait();
    let (status, out, err) =
        first_line(&["count", "--threads", "2", "--checkpoint", ckpt_arg, file]);
    assert_eq!((status, out.as_str()), (Some(0), "9356"), "{err}");
    // Everything is recorded now: a third run only adds up the checkpoint.
    let (_, out, _) = first_line(&["count", "--threads", "1", "--checkpoint", ckpt_arg, file]);
    assert_eq!(out, "9356");
}

#[test]
fn a_torn_last_line_is_counted_again() {
    let file = "testdata/langford-11.dlx";
    let ckpt = scratch("torn.ckpt");
    let ckpt_arg = ckpt.to_str().unwrap();
    let (_, out, _) = first_line(&["count", "--threads", "2", "--checkpoint", ckpt_arg, file]);
    assert_eq!(out, "35584");
    // Keep the header and half the records, then a line cut mid-write.
    let text = fs::read_to_string(&ckpt).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let keep = 2 + (lines.len() - 2) / 2;
    let mut partial = lines[..keep].join("\n");
    partial.push('\n');
    partial.push_str(&lines[keep][..lines[keep].len() - 1]);
    fs::write(&ckpt, partial).unwrap();
    let (status, out, err) =
        first_line(&["count", "--threads", "2", "--checkpoint", ckpt_arg, file]);
    assert_eq!((status, out.as_str()), (Some(0), "35584"), "{err}");
}

#[test]
fn bad_checkpoints_are_refused() {
    let ckpt = scratch("other.ckpt");
    let ckpt_arg = ckpt.to_str().unwrap();
    first_line(&[
        "count",
        "--checkpoint",
        ckpt_arg,
        "testdata/langford-11.dlx",
    ]);
    let (status, _, err) =
        first_line(&["count", "--checkpoint", ckpt_arg, "testdata/queens-13.dlx"]);
    assert_eq!(status, Some(2));
    assert!(
        err.contains("checkpoint was made for another input"),
        "{err}"
    );
    // `count` on Langford pairs 1..11 with the checkpoint as written
    // refuses it, with `message` on stderr.
    let refused = |message: &str| {
        let (status, _, err) = first_line(&[
            "count",
            "--checkpoint",
            ckpt_arg,
            "testdata/langford-11.dlx",
        ]);
        assert_eq!(status, Some(2));
        assert!(err.contains(message), "{err}");
    };
    fs::write(
        &ckpt,
        "# exactly checkpoint 1\n# input x depth 1 subproblems 3\n",
    )
    .unwrap();
    refused(":1:22: this checkpoint file has version 1");
    let (_, out, _) = first_line(&[
        "count",
        "--checkpoint",
        scratch("fresh.ckpt").to_str().unwrap(),
        "testdata/langford-11.dlx",
    ]);
    assert_eq!(out, "35584");
    let good = fs::read_to_string(scratch_keep("fresh.ckpt")).unwrap();
    let mut lines: Vec<String> = good.lines().map(String::from).collect();
    // No cut of Langford pairs 1..11 goes past its 33 primary items.
    let mut header = exactly::records::parse_checkpoint_header(&good).unwrap();
    header.depth = 40;
    fs::write(&ckpt, header.write() + "\n").unwrap();
    refused(":2:1: depth 40 is deeper than any cut of this problem (at most 33)");
    lines[3] = "7 not-a-number 3".into();
    fs::write(&ckpt, lines.join("\n") + "\n").unwrap();
    refused(":4:1: expected '<index> <solutions> <nodes> <checksum>'");
}

/// The path `scratch` gives, without making its folder or removing the
/// file.
fn scratch_keep(name: &str) -> PathBuf {
    common::scratch_path("scale").join(name)
}

#[test]
fn shards_run_apart_and_merge_to_the_total() {
    let file = "testdata/langford-11.dlx";
    let (status, plan, _) = run(&["plan", "--cubes", "40", "--probes", "8", file], b"");
    assert_eq!(status, Some(0));
    let plan_path = scratch("langford.plan");
    fs::write(&plan_path, &plan).unwrap();
    let mut results = Vec::new();
    for i in 0..3 {
        let shard = format!("{i}/3");
        let (status, out, err) = run(
            &[
                "count",
                "--plan",
                plan_path.to_str().unwrap(),
                "--shard",
                &shard,
                file,
            ],
            b"",
        );
        assert_eq!(status, Some(0), "{err}");
        let path = scratch(&format!("result-{i}"));
        fs::write(&path, out).unwrap();
        results.push(path.to_str().unwrap().to_string());
    }
    let args = |files: &[&String]| -> Vec<String> {
        std::iter::once("merge".to_string())
            .chain(files.iter().map(|s| s.to_string()))
            .collect()
    };
    let all = args(&[&results[0], &results[1], &results[2]]);
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    let (status, out, err) = first_line(&all);
    assert_eq!((status, out.as_str()), (Some(0), "35584"), "{err}");
    let missing = args(&[&results[0], &results[2]]);
    let missing: Vec<&str> = missing.iter().map(String::as_str).collect();
    let (status, _, err) = first_line(&missing);
    assert_eq!(status, Some(2));
    assert!(err.contains("is missing from the results"), "{err}");
    let twice = args(&[&results[0], &results[1], &results[2], &results[1]]);
    let twice: Vec<&str> = twice.iter().map(String::as_str).collect();
    let (status, _, err) = first_line(&twice);
    assert_eq!(status, Some(2));
    assert!(err.contains("shard 1/3 is given twice"), "{err}");
    // A plan is refused for another input.
    let (status, _, err) = first_line(&[
        "count",
        "--plan",
        plan_path.to_str().unwrap(),
        "--shard",
        "0/3",
        "testdata/queens-13.dlx",
    ]);
    assert_eq!(status, Some(2));
    assert!(
        err.contains("this plan was made for another input"),
        "{err}"
    );
}

#[test]
fn estimate_brackets_a_known_count() {
    let (status, out, _) = run(
        &["estimate", "--probes", "4000", "testdata/langford-11.dlx"],
        b"",
    );
    assert_eq!(status, Some(0));
    let line = out.lines().find(|l| l.starts_with("solutions: ")).unwrap();
    let mean: f64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    // Unbiased, with 4000 probes well within a factor of two of 35584.
    assert!((17_792.0..71_168.0).contains(&mean), "{line}");
}

/// The solutions of `solve --format indices`, each sorted, as a sorted list.
fn solution_set(args: &[&str]) -> Vec<Vec<usize>> {
    let (status, out, err) = run(args, b"");
    assert_eq!(status, Some(0), "{err}");
    let mut set: Vec<Vec<usize>> = out
        .lines()
        .map(|l| {
            let mut v: Vec<usize> = l.split_whitespace().map(|t| t.parse().unwrap()).collect();
            v.sort_unstable();
            v
        })
        .collect();
    set.sort();
    set
}

#[test]
fn solve_on_threads_finds_the_same_solutions() {
    for (file, count) in [
        ("testdata/langford-11.dlx", 35584),
        ("testdata/colors.dlx", 3),
    ] {
        let one = solution_set(&["solve", "--format", "indices", "--threads", "1", file]);
        assert_eq!(one.len(), count);
        for threads in ["2", "5"] {
            let many = solution_set(&["solve", "--format", "indices", "--threads", threads, file]);
            assert_eq!(many, one, "{file} --threads {threads}");
        }
    }
}

#[test]
fn mpi_refuses_what_its_ranks_would_not_keep() {
    // Checked before the build's MPI support is: the same refusal with or
    // without the `mpi` feature.
    for command in ["count", "solve"] {
        for flag in [
            &["--limit", "1"][..],
            &["--timeout", "5"],
            &["--max-nodes", "10"],
            &["--seed", "3"],
        ] {
            let args = [
                &[command, "--mpi"][..],
                flag,
                &["testdata/knuth-example.dlx"],
            ]
            .concat();
            let (status, out, err) = run(&args, b"");
            assert_eq!(status, Some(2), "{args:?}");
            assert!(out.is_empty(), "{args:?}: {out}");
            assert!(
                err.contains(flag[0]) && err.contains("MPI ranks"),
                "{args:?}: {err}"
            );
        }
        let (status, _, err) = run(
            &[command, "--mpi", "--trace", "testdata/knuth-example.dlx"],
            b"",
        );
        assert_eq!(status, Some(2));
        assert!(err.contains("one plain search"), "{err}");
    }
}

#[test]
fn splitting_commands_refuse_multiplicities() {
    for args in [
        &["estimate", "testdata/queens-dominate-8.dlx"][..],
        &["plan", "testdata/queens-dominate-8.dlx"][..],
        &["count", "--mpi", "testdata/queens-dominate-8.dlx"][..],
    ] {
        let (status, _, err) = run(args, b"");
        assert_eq!(status, Some(2), "{args:?}");
        assert!(err.contains("multiplicities"), "{args:?}: {err}");
    }
}

/// Eight queens (92 solutions, 1,224 nodes) below one forced option,
/// f x, written to a scratch file named `name`: the 7,000 options on x
/// that it rules out make the whole too large for the bitsets and the
/// item masks, so the forced move's rest is counted.
fn forced_queens(name: &str) -> PathBuf {
    let n = 8;
    let mut text = String::new();
    (0..n).for_each(|i| text += &format!("r{i} c{i} "));
    text += "f x |";
    (0..2 * n - 1).for_each(|d| text += &format!(" a{d} b{d}"));
    (0..7000).for_each(|k| text += &format!(" s{k}"));
    text += "\nf x\n";
    for r in 0..n {
        for c in 0..n {
            text += &format!("r{r} c{c} a{} b{}\n", r + c, r + n - 1 - c);
        }
    }
    (0..7000).for_each(|k| text += &format!("x s{k}\n"));
    let path = scratch(name);
    fs::write(&path, text).unwrap();
    path
}

#[test]
fn threads_count_what_forced_moves_leave_as_one_thread_does() {
    let path = forced_queens("forced-queens.dlx");
    let file = path.to_str().unwrap();
    let stats = |args: &[&str]| {
        let (status, out, err) = first_line(&[&["count", "--stats"], args, &[file]].concat());
        assert_eq!(status, Some(0), "{args:?}: {err}");
        assert_eq!(out, "92", "{args:?}");
        let line = |key: &str| err.lines().find(|l| l.starts_with(key)).map(str::to_string);
        (line("engine: "), line("nodes: "), line("threads: "))
    };
    let one = stats(&["--threads", "1"]);
    let whole = stats(&["--threads", "3", "--engine", "cells"]);
    let three = stats(&["--threads", "3"]);
    // The rest's engine, the whole tree's nodes.
    assert_ne!(one.0, whole.0);
    assert_eq!((&three.0, &three.1), (&one.0, &one.1));
    assert_eq!(three.1, whole.1);
    // The rest's cut is the whole's below the forced level, which its
    // depth counts.
    assert!(three.2.is_some());
    assert_eq!(three.2, whole.2);
}

#[test]
fn budgets_and_checkpoints_count_what_forced_moves_leave() {
    let path = forced_queens("forced-queens-budgets.dlx");
    let file = path.to_str().unwrap();
    // The first line, the status, the engine and the nodes.
    let stats = |args: &[&str]| {
        let (status, out, err) = first_line(&[&["count", "--stats"], args, &[file]].concat());
        let line = |key: &str| err.lines().find(|l| l.starts_with(key)).map(str::to_string);
        (status, out, line("engine: "), line("nodes: "))
    };
    // One thread with a budget: the rest's search stops where the whole
    // one on links does, after the same solutions and nodes (the rest of
    // these queens drops no twin, which could move a node budget's stop).
    for budget in [
        &["--max-nodes", "299"][..],
        &["--max-nodes", "2"],
        &["--max-nodes", "1"],
        &["--limit", "10"],
        &["--timeout", "1000"],
    ] {
        let rest = stats(&[&["--threads", "1"], budget].concat());
        let whole = stats(&[&["--threads", "1", "--engine", "links"], budget].concat());
        assert_eq!(
            (&rest.0, &rest.1, &rest.3),
            (&whole.0, &whole.1, &whole.3),
            "{budget:?}"
        );
        // A budget within the forced level leaves the whole search.
        let engine = if budget == ["--max-nodes", "1"] {
            "links"
        } else {
            "bits"
        };
        assert_eq!(
            rest.2.as_deref(),
            Some(&*format!("engine: {engine}")),
            "{budget:?}"
        );
    }
    assert_eq!(stats(&["--threads", "1", "--limit", "10"]).1, "10");
    assert_eq!(stats(&["--threads", "1", "--timeout", "1000"]).1, "92");
    // Checkpoints: the rest's cut is recorded as the whole one's, so a
    // checkpoint made either way resumes the other way.
    let checkpointed = |engine: &str, ckpt: &PathBuf| {
        let ckpt = ckpt.to_str().unwrap();
        stats(&["--threads", "2", "--engine", engine, "--checkpoint", ckpt])
    };
    let made = |name: &str, engine: &str| {
        let ckpt = scratch(name);
        let run = checkpointed(engine, &ckpt);
        assert_eq!((run.0, &*run.1), (Some(0), "92"), "{engine}");
        assert_eq!(run.3.as_deref(), Some("nodes: 1224"), "{engine}");
        fs::read_to_string(&ckpt).unwrap()
    };
    let by_rest = made("forced-rest.ckpt", "auto");
    let by_whole = made("forced-whole.ckpt", "links");
    let header = |text: &str| text.lines().take(2).collect::<Vec<_>>().join("\n");
    assert_eq!(header(&by_rest), header(&by_whole));
    assert!(header(&by_rest).contains(" depth 4 "), "{by_rest}");
    for (name, text) in [("rest", &by_rest), ("whole", &by_whole)] {
        // Half the records kept, as a run killed midway leaves them.
        let lines: Vec<&str> = text.lines().collect();
        let half = lines[..2 + (lines.len() - 2) / 2].join("\n") + "\n";
        for engine in ["auto", "links"] {
            let ckpt = scratch(&format!("forced-{name}-{engine}-half.ckpt"));
            fs::write(&ckpt, &half).unwrap();
            let run = checkpointed(engine, &ckpt);
            assert_eq!((run.0, &*run.1), (Some(0), "92"), "{name} then {engine}");
            assert_eq!(
                run.3.as_deref(),
                Some("nodes: 1224"),
                "{name} then {engine}"
            );
            let engine = if engine == "auto" { "bits" } else { engine };
            assert_eq!(
                run.2,
                Some(format!("engine: {engine}")),
                "{name} then {engine}"
            );
            let done = fs::read_to_string(&ckpt).unwrap();
            assert_eq!(done.lines().count(), lines.len(), "{name} then {engine}");
        }
    }
}
