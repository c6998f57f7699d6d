//! Every reader takes a UTF-8 byte-order mark and `\r\n` or lone `\r` line
//! ends: each file below, written with a BOM and CRLF and again with CR
//! alone, gives the same output and exit status as the plain file.

use crate::common;

use std::fs;
use std::path::PathBuf;

use common::{root, run};

/// `text` with a BOM and CRLF line ends, and with CR line ends alone.
fn variants(text: &str) -> [(&'static str, String); 2] {
    assert!(text.contains('\n') && !text.contains('\r'));
    [
        (
            "bom-crlf",
            format!("\u{feff}{}", text.replace('\n', "\r\n")),
        ),
        ("cr", text.replace('\n', "\r")),
    ]
}

fn scratch(name: &str, text: &str) -> String {
    let dir: PathBuf = common::scratch_path("line-ends");
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

fn read(path: &str) -> String {
    fs::read_to_string(root().join(path)).unwrap()
}

/// Runs `args` with `{}` replaced by the plain file, then by each variant
/// of it, and checks that all give the same answer.
fn same_answers(tag: &str, args: &[&str], text: &str) -> (Option<i32>, String) {
    let with = |path: &str| -> Vec<String> { args.iter().map(|a| a.replace("{}", path)).collect() };
    let plain = scratch(&format!("{tag}-plain"), text);
    let args_plain = with(&plain);
    let args_plain: Vec<&str> = args_plain.iter().map(String::as_str).collect();
    let (status, out, err) = run(&args_plain, b"");
    assert!(matches!(status, Some(0 | 1)), "{tag}: {err}");
    for (kind, variant) in variants(text) {
        let path = scratch(&format!("{tag}-{kind}"), &variant);
        let args_v = with(&path);
        let args_v: Vec<&str> = args_v.iter().map(String::as_str).collect();
        let (s, o, e) = run(&args_v, b"");
        assert_eq!((s, &o), (status, &out), "{tag} {kind}: {e}");
    }
    (status, out)
}

#[test]
fn sudoku_records_in_every_layout() {
    for (tag, file) in [
        ("lines", "testdata/sudoku/9x9.txt"),
        ("grids", "testdata/sudoku/4x4.txt"),
        ("sdm", "testdata/sudoku/formats/collection.sdm"),
        ("sdk", "testdata/sudoku/formats/puzzle.sdk"),
        ("ss", "testdata/sudoku/formats/puzzle.ss"),
        ("csv", "testdata/sudoku/formats/quizzes.csv"),
        ("bordered", "testdata/sudoku/formats/bordered-6x6.txt"),
    ] {
        let (_, out) = same_answers(&format!("sudoku-{tag}"), &["sudoku", "{}"], &read(file));
        assert!(!out.is_empty(), "{tag}");
    }
}

#[test]
fn sudoku_regions_and_weights() {
    let regions = read("testdata/sudoku/jigsaw-4x4-regions.txt");
    let puzzle = scratch("jigsaw-puzzle", "0000000000000000\n");
    same_answers("regions", &["sudoku", "--regions", "{}", &puzzle], &regions);
    same_answers(
        "weights",
        &["sudoku", "--target", "--weights", "{}", &puzzle],
        "1 2 3 4\n5 6 7 8\n# a comment\n9 10 11 12\n13 14 15 16\n",
    );
    let (_, out) = same_answers(
        "target",
        &["sudoku", "--target", "{}"],
        &read("testdata/sudoku/target-noip-sample.txt"),
    );
    assert_eq!(out, "2829\n");
}

#[test]
fn contest_inputs() {
    for name in ["hust1017", "noip2009", "poj1084", "poj3074", "poj3076"] {
        let input = read(&format!("testdata/contest/{name}/sample.in"));
        let (_, out) = same_answers(&format!("contest-{name}"), &["contest", name, "{}"], &input);
        assert_eq!(
            out,
            read(&format!("testdata/contest/{name}/sample.out")),
            "{name}"
        );
    }
}

#[test]
fn plans_results_and_checkpoints() {
    let file = "testdata/langford-11.dlx";
    let (status, plan, err) = run(&["plan", "--cubes", "40", "--probes", "8", file], b"");
    assert_eq!(status, Some(0), "{err}");
    // A plan: the shard's result is the same, plan id included.
    let (_, result) = same_answers(
        "plan",
        &["count", "--plan", "{}", "--shard", "0/1", file],
        &plan,
    );
    // A result file: merged to the same total.
    let (_, total) = same_answers("result", &["merge", "{}"], &result);
    assert_eq!(total, "35584\n");
    // A checkpoint, complete: a run only adds it up.
    let ckpt = scratch("checkpoint", "");
    fs::remove_file(&ckpt).unwrap();
    let (status, out, err) = run(&["count", "--checkpoint", &ckpt, file], b"");
    assert_eq!((status, out.as_str()), (Some(0), "35584\n"), "{err}");
    let text = fs::read_to_string(&ckpt).unwrap();
    for (kind, variant) in variants(&text) {
        let path = scratch(&format!("checkpoint-{kind}"), &variant);
        let (status, out, err) = run(&["count", "--checkpoint", &path, file], b"");
        assert_eq!(
            (status, out.as_str()),
            (Some(0), "35584\n"),
            "{kind}: {err}"
        );
    }
}
