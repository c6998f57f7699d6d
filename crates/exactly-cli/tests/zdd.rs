//! The real binary on `zdd`, `sample` and `count --zdd`.

use crate::common;

use common::run;

#[test]
fn count_through_the_diagram_matches_count() {
    for file in [
        "testdata/langford-11.dlx",
        "testdata/queens-13.dlx",
        "testdata/colors.dlx",
        "testdata/knuth-example.dlx",
        "testdata/queens-dominate-8.dlx",
    ] {
        let (code, plain, _) = run(&["count", file], b"");
        assert_eq!(code, Some(0));
        let (code, zdd, err) = run(&["count", "--zdd", file], b"");
        assert_eq!((code, err.as_str()), (Some(0), ""), "{file}");
        assert_eq!(zdd, plain, "{file}");
    }
    // No solution: exit 1 with a count of 0.
    let (code, out, _) = run(&["count", "--zdd", "-"], b"a b\na\n");
    assert_eq!((code, out.as_str()), (Some(1), "0\n"));
}

#[test]
fn writes_the_diagram_in_knuth_and_json_forms() {
    let (code, out, _) = run(&["zdd", "testdata/knuth-example.dlx"], b"");
    assert_eq!(code, Some(0));
    // Knuth's example has one solution, three options: a chain of three
    // nodes and the dummy root.
    assert_eq!(out, "2: (~1?0:1)\n3: (~5?0:2)\n4: (~4?0:3)\n5: (~0?0:4)\n");
    let (code, out, _) = run(
        &["zdd", "--format", "json", "testdata/knuth-example.dlx"],
        b"",
    );
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["format"], "exactly-zdd");
    assert_eq!(v["root"], 4);
    assert_eq!(v["nodes"].as_array().unwrap().len(), 3);
}

#[test]
fn samples_verify_and_repeat_with_the_seed() {
    let (code, a, _) = run(
        &[
            "sample",
            "--zdd",
            "-n",
            "20",
            "--seed",
            "9",
            "testdata/langford-11.dlx",
        ],
        b"",
    );
    assert_eq!(code, Some(0));
    let (_, b, _) = run(
        &[
            "sample",
            "-n",
            "20",
            "--seed",
            "9",
            "testdata/langford-11.dlx",
        ],
        b"",
    );
    assert_eq!(a, b, "the same seed draws the same solutions");
    let (_, c, _) = run(
        &[
            "sample",
            "-n",
            "20",
            "--seed",
            "10",
            "testdata/langford-11.dlx",
        ],
        b"",
    );
    assert_ne!(a, c);
    let path = common::scratch_path("sample").with_extension("txt");
    std::fs::write(&path, &a).unwrap();
    let (code, _, err) = run(
        &["verify", "testdata/langford-11.dlx", path.to_str().unwrap()],
        b"",
    );
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(a.split("\n\n").count(), 20);
}

#[test]
fn budgets_and_refusals() {
    let (code, out, err) = run(
        &["zdd", "--max-nodes", "50", "testdata/langford-11.dlx"],
        b"",
    );
    assert_eq!((code, out.as_str()), (Some(3), ""));
    assert!(err.contains("node limit"), "{err}");
    let (code, _, err) = run(
        &[
            "count",
            "--zdd",
            "--max-memory",
            "4K",
            "testdata/langford-11.dlx",
        ],
        b"",
    );
    assert_eq!(code, Some(3));
    assert!(err.contains("4096 bytes"), "{err}");
    let (code, _, err) = run(
        &["count", "--zdd", "--limit", "2", "testdata/langford-11.dlx"],
        b"",
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("--limit"), "{err}");
    let (code, _, _) = run(
        &["zdd", "--max-memory", "0", "testdata/langford-11.dlx"],
        b"",
    );
    assert_eq!(code, Some(2));
}

/// Against Knuth's DLX6 (found through the `DLX6` environment variable;
/// skipped when it is unset): the same diagram, line for line, on exact
/// covers with and without colors.
#[test]
fn same_diagram_as_dlx6() {
    let Ok(program) = std::env::var("DLX6") else {
        eprintln!("DLX6 is not set: the comparison with Knuth's program is skipped");
        return;
    };
    for file in [
        "knuth-example.dlx",
        "colors.dlx",
        "independent.dlx",
        "langford-11.dlx",
        "queens-13.dlx",
        "pentomino-6x10-symbreak.dlx",
    ] {
        let path = common::root().join("testdata").join(file);
        let knuth = std::process::Command::new(&program)
            .arg("m1")
            .stdin(std::fs::File::open(&path).unwrap())
            .output()
            .expect("DLX6 runs");
        let (code, ours, _) = run(&["zdd", path.to_str().unwrap()], b"");
        assert_eq!(code, Some(0));
        assert!(
            ours == String::from_utf8_lossy(&knuth.stdout),
            "{file}: the diagram differs from DLX6's"
        );
    }
}
