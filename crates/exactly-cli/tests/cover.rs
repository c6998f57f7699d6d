//! The real binary on multiplicities, costs, minimum covers and the square
//! destroyer.

use crate::common;

use common::run;

const MULTI: &[u8] = b"2|a 0:1|b c\na b |3\na |1\na c |4\nc |2\na |5\n";

#[test]
fn count_and_solve_with_multiplicities() {
    let (code, out, err) = run(&["count", "-"], MULTI);
    assert_eq!((code, out.as_str(), err.as_str()), (Some(0), "6\n", ""));
    let (code, out, _) = run(&["count", "testdata/queens-dominate-8.dlx"], b"");
    assert_eq!((code, out.as_str()), (Some(0), "4860\n"));
    let (code, out, _) = run(
        &["solve", "--limit", "1", "--format", "indices", "-"],
        MULTI,
    );
    assert_eq!((code, out.as_str()), (Some(0), "0 2\n"));
    // Every solution printed passes the independent checker.
    let (code, solutions, _) = run(
        &["solve", "testdata/queens-dominate-8.dlx", "--limit", "50"],
        b"",
    );
    assert_eq!(code, Some(0));
    let path = common::scratch_path("multi").with_extension("txt");
    std::fs::write(&path, solutions).unwrap();
    let (code, _, err) = run(
        &[
            "verify",
            "testdata/queens-dominate-8.dlx",
            path.to_str().unwrap(),
        ],
        b"",
    );
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, Some(0), "{err}");
    // Options only the exact-cover solver has are refused, not ignored.
    let (code, _, err) = run(&["count", "--engine", "links", "-"], MULTI);
    assert_eq!(code, Some(2), "{err}");
    let (code, out, _) = run(&["count", "-"], b"3|a\na\n");
    assert_eq!((code, out.as_str()), (Some(1), "0\n"));
}

#[test]
fn count_multiplicities_on_threads() {
    // Split into smaller problems, counted on threads: the one-thread
    // counts, whatever the number of threads.
    let (code, out, err) = run(
        &["count", "--threads", "3", "testdata/queens-dominate-8.dlx"],
        b"",
    );
    assert_eq!((code, out.as_str()), (Some(0), "4860\n"), "{err}");
    for threads in ["1", "2", "4"] {
        let (code, out, err) = run(&["count", "--threads", threads, "-"], MULTI);
        assert_eq!((code, out.as_str()), (Some(0), "6\n"), "{threads}: {err}");
    }
    let (code, out, err) = run(
        &["count", "--threads", "2", "--stats-format", "json", "-"],
        MULTI,
    );
    assert_eq!((code, out.as_str()), (Some(0), "6\n"), "{err}");
    assert!(err.contains("\"engine\":\"multiplicities\""), "{err}");
    assert!(err.contains("\"threads\":2,\"subproblems\":"), "{err}");
    // A budget needs the one search: refusals and limits stay as they are.
    let (code, out, _) = run(&["count", "--threads", "2", "--limit", "2", "-"], MULTI);
    assert_eq!((code, out.as_str()), (Some(3), "2\n"));
    let (code, _, err) = run(
        &["count", "--threads", "2", "--checkpoint", "x", "-"],
        MULTI,
    );
    assert_eq!(code, Some(2), "{err}");
}

#[test]
fn min_cost_and_best() {
    let (code, out, _) = run(&["solve", "--min-cost", "--format", "json", "-"], MULTI);
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        // Options in the order the search chose them: it branches on `a`
        // first, its options cheapest first.
        "{\"cost\":5,\"options\":[\"a |1\",\"a c |4\"],\"indices\":[1,2]}\n"
    );
    let (code, out, _) = run(&["solve", "--best", "3", "-"], MULTI);
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        "| cost 5\na |1\na c |4\n\n| cost 6\na b |3\nc |2\na |1\n\n| cost 7\na b |3\na c |4\n"
    );
    let (code, out, _) = run(
        &[
            "solve",
            "--min-cost",
            "testdata/queens-10-costs.dlx",
            "--format",
            "indices",
        ],
        b"",
    );
    assert_eq!(code, Some(0));
    assert!(out.starts_with("46: "), "{out}");
    let (code, out, _) = run(&["solve", "--min-cost", "-"], b"a b\na\n");
    assert_eq!((code, out.as_str()), (Some(1), ""));
}

#[test]
fn minimum_cover() {
    let (code, out, _) = run(&["cover", "--min", "testdata/queens-cover-8.dlx"], b"");
    assert_eq!(code, Some(0));
    assert_eq!(out.lines().next(), Some("5"));
    assert_eq!(out.lines().count(), 6);
    let text = b"a b c\na b |5\na |1\nb |1\nc |1\nb c |3\n";
    let (_, out, _) = run(&["cover", "--min", "-"], text);
    assert_eq!(out, "2\na b |5\nc |1\n");
    let (_, out, _) = run(
        &["cover", "--min", "--weighted", "--format", "json", "-"],
        text,
    );
    assert!(out.starts_with("{\"cost\":3,"), "{out}");
    let (code, _, err) = run(&["cover", "--min", "-"], b"a b\na\n");
    assert_eq!(code, Some(1), "{err}");
    let (code, _, err) = run(&["cover", "--min", "-"], b"a b\na\nzz\n");
    assert_eq!(code, Some(2));
    assert!(err.contains("<stdin>:3:1: unknown item 'zz'"), "{err}");
}

#[test]
fn square_destroyer() {
    for (n, want) in [("1", "1"), ("2", "3"), ("3", "6"), ("4", "9"), ("5", "14")] {
        let (code, out, _) = run(&["squares", n], b"");
        assert_eq!(code, Some(0));
        assert_eq!(out.lines().next(), Some(want), "n = {n}");
        assert_eq!(
            out.lines().nth(1).unwrap().split(' ').count().to_string(),
            want
        );
    }
    let (code, out, _) = run(&["squares", "2", "--removed", "1,5"], b"");
    assert_eq!((code, out.as_str()), (Some(0), "1\n9\n"));
    let (code, out, _) = run(&["squares", "1", "--removed", "4"], b"");
    assert_eq!((code, out.as_str()), (Some(0), "0\n\n"));
    let (code, _, err) = run(&["squares", "2", "--removed", "13"], b"");
    assert_eq!(code, Some(2));
    assert!(err.contains("matchstick number"), "{err}");
    let (code, _, _) = run(&["squares", "0"], b"");
    assert_eq!(code, Some(2));
}

#[test]
fn bad_multiplicities_name_line_and_column() {
    let (code, _, err) = run(&["count", "-"], b"a 3:2|b\na b\n");
    assert_eq!(code, Some(2));
    assert!(
        err.contains("<stdin>:1:3: bad multiplicity '3:2|b'"),
        "{err}"
    );
}

/// n queens with a cost on each square, `(37i + 91j + 13ij) mod 100`.
fn costed_queens(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        s += &format!("r{i} c{i} ");
    }
    s.push('|');
    for d in 0..2 * n - 1 {
        s += &format!(" a{d} b{d}");
    }
    s.push('\n');
    for i in 0..n {
        for j in 0..n {
            let cost = (37 * i + 91 * j + 13 * i * j) % 100;
            s += &format!("r{i} c{j} a{} b{} |{cost}\n", i + j, i + n - 1 - j);
        }
    }
    s
}

#[test]
fn min_cost_reports_progress_with_the_best_cost_so_far() {
    // Tens of thousands of nodes: reports every millisecond come several
    // times, and after the first solution they name the best cost so far.
    let problem = costed_queens(16);
    let (code, out, err) = run(
        &[
            "solve",
            "--min-cost",
            "--report-every",
            "0.001",
            "--format",
            "indices",
            "-",
        ],
        problem.as_bytes(),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(!out.is_empty());
    let reports: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("progress: "))
        .collect();
    assert!(reports.len() >= 2, "{err}");
    let best: Vec<u128> = reports
        .iter()
        .filter_map(|l| l.rsplit_once(", best cost so far ")?.1.parse().ok())
        .collect();
    assert!(!best.is_empty(), "{err}");
    // The best so far only falls, and never below the optimum.
    assert!(best.windows(2).all(|w| w[0] >= w[1]), "{best:?}");
    let (_, optimum, _) = run(
        &["solve", "--min-cost", "--format", "json", "-"],
        problem.as_bytes(),
    );
    let optimum: u128 = optimum
        .split_once("\"cost\":")
        .and_then(|(_, rest)| rest.split(',').next()?.parse().ok())
        .unwrap_or_else(|| panic!("{optimum}"));
    assert!(best.iter().all(|&b| b >= optimum), "{best:?} {optimum}");
    // Counting multiplicities and minimum covers still refuse it.
    let (code, _, err) = run(&["count", "--report-every", "1", "-"], MULTI);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--report-every"), "{err}");
}
