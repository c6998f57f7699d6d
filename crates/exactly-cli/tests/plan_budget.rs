//! `exactly plan --max-nodes / --timeout` through the real binary: a plan
//! is written whole or not at all.

use crate::common;

use common::run;

const LANGFORD: &str = "testdata/langford-11.dlx";

#[test]
fn a_budget_the_plan_fits_in_changes_nothing() {
    let plain = run(&["plan", "--cubes", "16", "--probes", "8", LANGFORD], b"");
    assert_eq!(plain.0, Some(0), "{}", plain.2);
    let budgeted = run(
        &[
            "plan",
            "--cubes",
            "16",
            "--probes",
            "8",
            "--max-nodes",
            "100000000",
            "--timeout",
            "1000",
            LANGFORD,
        ],
        b"",
    );
    assert_eq!(budgeted.0, Some(0), "{}", budgeted.2);
    assert_eq!(budgeted.1, plain.1);
}

#[test]
fn a_plan_out_of_budget_writes_nothing_and_exits_3() {
    // Out of nodes while cutting the tree.
    let (status, out, err) = run(
        &["plan", "--cubes", "1000", "--max-nodes", "5", LANGFORD],
        b"",
    );
    assert_eq!((status, out.as_str()), (Some(3), ""), "{err}");
    assert!(err.contains("node limit reached while splitting"), "{err}");
    // Out of nodes while probing: one subproblem, 1000 probes of depth 11.
    let (status, out, err) = run(
        &[
            "plan",
            "--cubes",
            "1",
            "--probes",
            "1000",
            "--max-nodes",
            "100",
            LANGFORD,
        ],
        b"",
    );
    assert_eq!((status, out.as_str()), (Some(3), ""), "{err}");
    assert!(
        err.contains("node limit reached after estimating 0 of 1"),
        "{err}"
    );
    // Next to no time: the split takes longer than a microsecond.
    let (status, out, err) = run(
        &["plan", "--cubes", "16", "--timeout", "0.000001", LANGFORD],
        b"",
    );
    assert_eq!((status, out.as_str()), (Some(3), ""), "{err}");
    assert!(err.contains("time limit reached"), "{err}");
}

#[test]
fn plan_budgets_are_checked_like_the_others() {
    let (status, _, err) = run(&["plan", "--max-nodes", "-1", LANGFORD], b"");
    assert_eq!(status, Some(2), "{err}");
    let (status, _, err) = run(&["plan", "--timeout", "abc", LANGFORD], b"");
    assert_eq!(status, Some(2), "{err}");
}
