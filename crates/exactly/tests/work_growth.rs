//! Reading and checking take work linear in the input (or `n log n`): an
//! input ten times larger takes about ten times the steps, never a hundred.
//! Steps are counted by [`exactly::work`] (exact and repeatable, unlike
//! time); the search's work is counted by its nodes and updates.

use exactly::format::{parse_dlx, parse_matrix};
use exactly::{work, OptionId};

/// The steps `f` takes on this thread.
fn steps<T>(f: impl FnOnce() -> T) -> u64 {
    let before = work::steps();
    let _ = f();
    work::steps() - before
}

/// Asserts that the work for `make(10 * n)` is at most about ten times the
/// work for `make(n)`, in proportion to the sizes of the inputs: `work_of`
/// returns the size of the input it made (in bytes, or options chosen) and
/// the steps it took.
fn grows_linearly(what: &str, n: usize, work_of: impl Fn(usize) -> (usize, u64)) {
    let (small_size, small) = work_of(n);
    let (large_size, large) = work_of(10 * n);
    assert!(small > 0, "{what}: no steps counted");
    let size = large_size as f64 / small_size as f64;
    let ratio = large as f64 / small as f64;
    assert!(
        ratio <= 1.2 * size,
        "{what}: {size:.1}x the input took {ratio:.1}x the steps ({small} -> {large})"
    );
}

/// One item line of `n` names and one option naming them all.
fn long_lines(n: usize) -> String {
    let names: Vec<String> = (0..n).map(|i| format!("i{i}")).collect();
    let line = names.join(" ");
    format!("{line}\n{line}\n")
}

#[test]
fn long_item_lines_and_options() {
    grows_linearly("long lines", 3000, |n| {
        let text = long_lines(n);
        (text.len(), steps(|| parse_dlx(&text).unwrap()))
    });
}

#[test]
fn a_repeated_item_at_the_end_of_a_long_option() {
    grows_linearly("repeated item", 3000, |n| {
        let mut text = long_lines(n);
        text.pop();
        text.push_str(" i0\n");
        (text.len(), steps(|| parse_dlx(&text).unwrap_err()))
    });
}

#[test]
fn dropped_options_cost_no_more_than_kept_ones() {
    let options = |n: usize, line: &str| format!("a | x\n{}", format!("{line}\n").repeat(n));
    grows_linearly("dropped options", 2000, |n| {
        let text = options(n, "x");
        (text.len(), steps(|| parse_dlx(&text).unwrap()))
    });
    let n = 20_000;
    let dropped = steps(|| parse_dlx(&options(n, "x")).unwrap());
    let kept = steps(|| parse_dlx(&options(n, "a")).unwrap());
    assert!(dropped <= kept + kept / 10, "{dropped} vs {kept}");
}

#[test]
fn long_matrix_rows_and_many_rows() {
    grows_linearly("one long row", 3000, |n| {
        let cols: Vec<String> = (1..=n).map(|c| c.to_string()).collect();
        let text = format!("1 {n}\n{n} {}\n", cols.join(" "));
        (text.len(), steps(|| parse_matrix(&text).unwrap()))
    });
    grows_linearly("many rows", 3000, |n| {
        let text = format!(
            "{n} {n}\n{}",
            (1..=n).map(|c| format!("1 {c}\n")).collect::<String>()
        );
        (text.len(), steps(|| parse_matrix(&text).unwrap()))
    });
}

#[test]
fn verify_of_a_large_multiplicity() {
    grows_linearly("verify k|a", 800, |k| {
        let text = format!("{k}|a\n{}", "a\n".repeat(k));
        let p = parse_dlx(&text).unwrap();
        let all: Vec<OptionId> = p.option_ids().collect();
        (k, steps(|| exactly::verify(&p, &all).unwrap()))
    });
}

#[test]
fn the_search_of_a_large_multiplicity_is_linear_in_nodes() {
    // `k|a` with k copies of option `a` has one solution, found along one
    // path of k + 1 nodes.
    for k in [100, 1000] {
        let text = format!("{k}|a\n{}", "a\n".repeat(k));
        let p = parse_dlx(&text).unwrap();
        let mut solver = exactly::multi::MultiSolver::new(&p);
        assert_eq!(solver.count().solutions, 1);
        assert_eq!(solver.stats().nodes, k as u64 + 1);
    }
}
