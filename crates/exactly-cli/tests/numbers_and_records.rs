//! Hostile numbers and damaged files through the real binary: costs past
//! 64 bits, damaged plans, results and checkpoints, huge shard and thread
//! counts, and options that a mode would silently ignore.

use crate::common;

use std::fs;
use std::path::PathBuf;

use common::run;

fn scratch(name: &str) -> PathBuf {
    let dir = common::scratch_path("records");
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = fs::remove_file(&path);
    path
}

fn write(name: &str, text: &str) -> String {
    let path = scratch(name);
    fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// The options of the issue: the two cheap-looking options cost more
/// together (2e19) than the one that covers both (2^64 - 1).
const WIDE: &str =
    "a b\na |10000000000000000000\nb |10000000000000000000\na b |18446744073709551615\n";

#[test]
fn costs_past_64_bits_give_the_right_optimum() {
    let file = write("wide.dlx", WIDE);
    let (status, out, err) = run(&["solve", "--min-cost", &file], b"");
    assert_eq!(status, Some(0), "{err}");
    assert_eq!(
        out,
        "| cost 18446744073709551615\na b |18446744073709551615\n"
    );
    let (status, out, err) = run(&["solve", "--best", "2", "--format", "indices", &file], b"");
    assert_eq!(status, Some(0), "{err}");
    assert_eq!(out, "18446744073709551615: 2\n20000000000000000000: 0 1\n");
    let (status, out, _) = run(&["solve", "--best", "2", "--format", "json", &file], b"");
    assert_eq!(status, Some(0));
    assert!(
        out.lines()
            .nth(1)
            .unwrap()
            .contains("\"cost\":20000000000000000000"),
        "{out}"
    );
    let (status, out, err) = run(&["cover", "--min", "--weighted", &file], b"");
    assert_eq!(status, Some(0), "{err}");
    assert_eq!(out, "18446744073709551615\na b |18446744073709551615\n");
    // The cheapest cover costs more than 2^64: three options of 2^64 - 1.
    let three = write(
        "three.dlx",
        "a b c\na |18446744073709551615\nb |18446744073709551615\nc |18446744073709551615\n",
    );
    let (_, out, err) = run(&["cover", "--min", "--weighted", &three], b"");
    assert_eq!(out.lines().next(), Some("55340232221128654845"), "{err}");
    let (_, out, err) = run(&["solve", "--min-cost", &three], b"");
    assert_eq!(
        out.lines().next(),
        Some("| cost 55340232221128654845"),
        "{err}"
    );
    // With multiplicities: the same option class under Algorithm M.
    let multi = write(
        "multi.dlx",
        "2|a b\na |18446744073709551615\na |18446744073709551615\na b |1\nb |0\n",
    );
    let (status, out, err) = run(
        &["solve", "--best", "2", "--format", "indices", &multi],
        b"",
    );
    assert_eq!(status, Some(0), "{err}");
    assert_eq!(
        out, "18446744073709551616: 2 0\n36893488147419103230: 0 1 3\n",
        "{err}"
    );
}

#[test]
fn an_option_cost_past_64_bits_is_named() {
    for (text, column, token) in [
        ("a\na |18446744073709551615 |1\n", 25, "|1"),
        ("a\na |18446744073709551616\n", 3, "|18446744073709551616"),
    ] {
        let file = write("cost.dlx", text);
        let (status, out, err) = run(&["solve", "--min-cost", &file], b"");
        assert_eq!((status, out.as_str()), (Some(2), ""), "{err}");
        assert!(
            err.contains(&format!(
                "cost.dlx:2:{column}: cost '{token}' takes the option's cost past the largest"
            )),
            "{err}"
        );
    }
}

/// A plan and three shard results of langford-11 (35584 solutions).
fn plan_and_results(tag: &str) -> (String, Vec<String>) {
    let file = "testdata/langford-11.dlx";
    let (status, plan, err) = run(&["plan", "--cubes", "40", "--probes", "8", file], b"");
    assert_eq!(status, Some(0), "{err}");
    let plan = write(&format!("{tag}.plan"), &plan);
    let mut results = Vec::new();
    for i in 0..3 {
        let shard = format!("{i}/3");
        let (status, out, err) = run(&["count", "--plan", &plan, "--shard", &shard, file], b"");
        assert_eq!(status, Some(0), "{err}");
        results.push(write(&format!("{tag}-{i}.result"), &out));
    }
    (plan, results)
}

fn merge(results: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec!["merge"];
    args.extend_from_slice(results);
    run(&args, b"")
}

#[test]
fn damaged_plans_are_refused_with_their_line() {
    let file = "testdata/langford-11.dlx";
    let (plan, _) = plan_and_results("damaged");
    let text = fs::read_to_string(&plan).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let count = |plan: &str| run(&["count", "--plan", plan, "--shard", "0/1", file], b"");
    // The last line cut in the middle of its prefix.
    let cut = write("cut.plan", &text[..text.len() - 20]);
    let (status, out, err) = count(&cut);
    assert_eq!((status, out.as_str()), (Some(2), ""), "{err}");
    assert!(err.contains(&format!("cut.plan:{}:", lines.len())), "{err}");
    // One digit of a prefix changed.
    let at = lines[4].find(',').unwrap() - 1;
    let mut line = lines[4].as_bytes().to_vec();
    line[at] = if line[at] == b'9' { b'8' } else { line[at] + 1 };
    let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    changed[4] = String::from_utf8(line).unwrap();
    let digit = write("digit.plan", &(changed.join("\n") + "\n"));
    let (status, _, err) = count(&digit);
    assert_eq!(status, Some(2), "{err}");
    assert!(
        err.contains("digit.plan:5:") && err.contains("damaged"),
        "{err}"
    );
    // The last line left out whole.
    let short = write("short.plan", &(lines[..lines.len() - 1].join("\n") + "\n"));
    let (status, _, err) = count(&short);
    assert_eq!(status, Some(2), "{err}");
    assert!(err.contains("the header announces"), "{err}");
    // Two lines swapped: each is sealed, but the order is checked.
    let mut swapped: Vec<&str> = lines.clone();
    swapped.swap(3, 4);
    let swapped = write("swapped.plan", &(swapped.join("\n") + "\n"));
    let (status, _, err) = count(&swapped);
    assert_eq!(status, Some(2), "{err}");
    assert!(
        err.contains("swapped.plan:4:1: expected subproblem 1, found 2"),
        "{err}"
    );
    // A version-1 plan (no checksums) is named as such.
    let old = write(
        "old.plan",
        "# exactly plan 1\n# input 0 depth 1 subproblems 0 above 0 nodes 1\n",
    );
    let (status, _, err) = count(&old);
    assert_eq!(status, Some(2), "{err}");
    assert!(
        err.contains("old.plan:1:16: this plan file has version 1"),
        "{err}"
    );
}

/// Seals `body` under `key` as the writers do (FNV-1a of `key`, newline,
/// `body`).
fn seal(key: &str, body: &str) -> String {
    let sum = exactly::records::fnv1a(format!("{key}\n{body}").as_bytes());
    format!("{body} {sum:016x}\n")
}

#[test]
fn sealed_but_false_plans_are_refused() {
    let file = "testdata/langford-11.dlx";
    let (plan, _) = plan_and_results("false");
    let text = fs::read_to_string(&plan).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let header = &lines[1][..lines[1].len() - 17];
    let count = |plan: &str| run(&["count", "--plan", plan, "--shard", "0/1", file], b"");
    // A prefix option past u32, with a good checksum: refused, no panic.
    let mut forged: String = lines[..2].join("\n") + "\n";
    forged.push_str(&seal(header, "0 1 4294967296,1"));
    let forged = write("u32.plan", &forged);
    let (status, _, err) = count(&forged);
    assert_eq!(status, Some(2), "{err}");
    assert!(
        err.contains("u32.plan:3:5: option 4294967296 is past the largest"),
        "{err}"
    );
    // Sealed lines whose prefix is not the tree's: the cut is checked.
    let mut wrong: String = lines[..2].join("\n") + "\n";
    for (k, line) in lines[2..].iter().enumerate() {
        let body = &line[..line.len() - 17];
        let body = if k == 5 {
            let fields: Vec<&str> = body.split(' ').collect();
            format!("{} {} {}", fields[0], fields[1], "0,1")
        } else {
            body.to_string()
        };
        wrong.push_str(&seal(header, &body));
    }
    let wrong = write("wrong.plan", &wrong);
    let (status, _, err) = count(&wrong);
    assert_eq!(status, Some(2), "{err}");
    assert!(
        err.contains("wrong.plan:8:1: not this problem's plan: subproblem 5"),
        "{err}"
    );
}

#[test]
fn damaged_results_are_refused_and_merge_proves_the_partition() {
    let (_, results) = plan_and_results("merge");
    let r: Vec<&str> = results.iter().map(String::as_str).collect();
    let (status, out, err) = merge(&r);
    assert_eq!((status, out.as_str()), (Some(0), "35584\n"), "{err}");
    let text = fs::read_to_string(&results[1]).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // A count changed on a record line.
    let fields: Vec<&str> = lines[5].split(' ').collect();
    let bumped = format!(
        "{} {} {} {}",
        fields[0],
        fields[1].parse::<u64>().unwrap() + 1,
        fields[2],
        fields[3]
    );
    let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    changed[5] = bumped;
    let changed = write("changed.result", &(changed.join("\n") + "\n"));
    let (status, _, err) = merge(&[r[0], &changed, r[2]]);
    assert_eq!(status, Some(2));
    assert!(err.contains("changed.result:6:"), "{err}");
    // The last line cut, or left out.
    let cut = write("cut.result", &text[..text.len() - 5]);
    let (status, _, err) = merge(&[r[0], &cut, r[2]]);
    assert_eq!(status, Some(2));
    assert!(
        err.contains(&format!("cut.result:{}:", lines.len())),
        "{err}"
    );
    let short = write(
        "short.result",
        &(lines[..lines.len() - 1].join("\n") + "\n"),
    );
    let (status, _, err) = merge(&[r[0], &short, r[2]]);
    assert_eq!(status, Some(2));
    assert!(err.contains("the header announces"), "{err}");
    // A shard missing, or given twice.
    let (status, _, err) = merge(&[r[0], r[2]]);
    assert_eq!(status, Some(2));
    assert!(err.contains("is missing from the results"), "{err}");
    let (status, _, err) = merge(&[r[0], r[1], r[2], r[1]]);
    assert_eq!(status, Some(2));
    assert!(err.contains("is given twice"), "{err}");
    // A result of another plan.
    let other_plan = write(
        "other.plan",
        &run(
            &[
                "plan",
                "--cubes",
                "10",
                "--probes",
                "8",
                "testdata/langford-11.dlx",
            ],
            b"",
        )
        .1,
    );
    let (_, out, _) = run(
        &[
            "count",
            "--plan",
            &other_plan,
            "--shard",
            "0/3",
            "testdata/langford-11.dlx",
        ],
        b"",
    );
    let foreign = write("foreign.result", &out);
    let (status, _, err) = merge(&[r[0], r[1], &foreign]);
    assert_eq!(status, Some(2));
    assert!(
        err.contains("foreign.result:3:1: comes from another plan"),
        "{err}"
    );
}

#[test]
fn huge_shard_counts_and_thread_counts_are_handled() {
    let file = "testdata/langford-11.dlx";
    let (plan, _) = plan_and_results("huge");
    let mut results = Vec::new();
    for shard in ["0/18446744073709551615", "1/18446744073709551615"] {
        let (status, out, err) = run(&["count", "--plan", &plan, "--shard", shard, file], b"");
        assert_eq!(status, Some(0), "{err}");
        assert_eq!(
            out.lines().nth(3).unwrap().split(' ').nth(4),
            Some("1"),
            "{out}"
        );
        results.push(out);
    }
    // Shards past the subproblems are empty.
    let (status, out, err) = run(
        &[
            "count",
            "--plan",
            &plan,
            "--shard",
            "18446744073709551614/18446744073709551615",
            file,
        ],
        b"",
    );
    assert_eq!(status, Some(0), "{err}");
    assert_eq!(out.lines().next(), Some("0"));
    // Threads: far more than the work, or than any machine has.
    for threads in ["50000", "18446744073709551615"] {
        let (status, out, err) = run(
            &[
                "count",
                "--threads",
                threads,
                "--stats",
                "testdata/knuth-example.dlx",
            ],
            b"",
        );
        assert_eq!((status, out.as_str()), (Some(0), "1\n"), "{err}");
        let line = err.lines().find(|l| l.starts_with("threads: ")).unwrap();
        let n: usize = line[9..line.find(',').unwrap()].parse().unwrap();
        assert!(n <= 2, "{line}");
        let (status, out, err) = run(
            &["solve", "--threads", threads, "testdata/knuth-example.dlx"],
            b"",
        );
        assert_eq!(status, Some(0), "{err}");
        assert_eq!(out.lines().count(), 3, "{out}");
    }
}

#[test]
fn options_a_mode_would_ignore_are_refused() {
    let file = "testdata/langford-11.dlx";
    let (plan, _) = plan_and_results("ignored");
    for extra in [
        &["--limit", "5"][..],
        &["--max-nodes", "100"],
        &["--trace"],
        &["--trace-levels", "1..2"],
        &["--trace-nodes"],
        &["--profile"],
        &["--report-every", "1"],
        &["--seed", "3"],
    ] {
        let mut args = vec!["count", "--plan", &plan, "--shard", "0/2"];
        args.extend_from_slice(extra);
        args.push(file);
        let (status, out, err) = run(&args, b"");
        assert_eq!((status, out.as_str()), (Some(2), ""), "{extra:?}: {err}");
        assert!(
            err.contains(&format!("{} does not apply to count --plan", extra[0])),
            "{err}"
        );
    }
    let (status, _, err) = run(&["estimate", "--probes", "0", file], b"");
    assert_eq!(status, Some(2));
    assert!(err.contains("--probes"), "{err}");
    let (status, _, err) = run(&["plan", "--probes", "0", file], b"");
    assert_eq!(status, Some(2), "{err}");
    let (status, _, err) = run(&["plan", "--cubes", "18446744073709551615", file], b"");
    assert_eq!(status, Some(2));
    assert!(err.contains("at most 1048576"), "{err}");
    // One probe: a mean and no range, never "inf".
    let (status, out, _) = run(&["estimate", "--probes", "1", file], b"");
    assert_eq!(status, Some(0));
    assert!(
        !out.contains("inf") && out.contains("one probe gives no range"),
        "{out}"
    );
}

#[test]
fn damaged_checkpoints_are_refused_with_their_line() {
    let file = "testdata/langford-11.dlx";
    let ckpt = write("damaged.ckpt", "");
    fs::remove_file(&ckpt).unwrap();
    let (status, out, _) = run(
        &["count", "--threads", "2", "--checkpoint", &ckpt, file],
        b"",
    );
    assert_eq!((status, out.as_str()), (Some(0), "35584\n"));
    let text = fs::read_to_string(&ckpt).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // One digit of a count changed.
    let fields: Vec<&str> = lines[4].split(' ').collect();
    let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    changed[4] = format!(
        "{} {} {} {}",
        fields[0],
        fields[1].parse::<u64>().unwrap() + 10,
        fields[2],
        fields[3]
    );
    fs::write(&ckpt, changed.join("\n") + "\n").unwrap();
    let (status, out, err) = run(&["count", "--checkpoint", &ckpt, file], b"");
    assert_eq!((status, out.as_str()), (Some(2), ""), "{err}");
    assert!(
        err.contains("damaged.ckpt:5:") && err.contains("damaged"),
        "{err}"
    );
    // The header's depth changed.
    let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    changed[1] = changed[1].replacen(" depth ", " depth 1", 1);
    fs::write(&ckpt, changed.join("\n") + "\n").unwrap();
    let (status, _, err) = run(&["count", "--checkpoint", &ckpt, file], b"");
    assert_eq!(status, Some(2), "{err}");
    assert!(err.contains("damaged.ckpt:2:"), "{err}");
}
