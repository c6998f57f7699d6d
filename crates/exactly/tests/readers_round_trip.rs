//! Writer/reader pairs and the readers' treatment of line ends, byte-order
//! marks and control characters, as properties:
//!
//! - a problem written by `write_dlx` reads back the same, whatever its names
//!   (control characters and non-ASCII included) and whichever line ends and
//!   byte-order mark the text is given;
//! - a matrix written row by row reads back the same rows, with any line
//!   ends, blank lines and blanks; a row whose count disagrees with its line
//!   is refused at that line;
//! - any text reads the same (or fails at the same line and column) with LF,
//!   CRLF or CR line ends and with a byte-order mark, and no message holds a
//!   control character.
//!
//! The inputs in `testdata/fuzz/` are replayed through the same checks.

use exactly::format::{parse_dlx, parse_matrix, write_dlx, ParseError};
use exactly::{Problem, ProblemBuilder};
use proptest::prelude::*;

/// What a reader made of a text: each option's label, items and cost, or
/// the line, column and message of its error.
type Summary = Result<Vec<(String, String, u64)>, (usize, usize, String)>;

/// The [`Summary`] of a reader's result.
fn summary(result: &Result<Problem<String>, ParseError>) -> Summary {
    match result {
        Ok(p) => Ok(p
            .option_ids()
            .map(|o| (p.label(o).clone(), p.option_text(o), p.cost(o)))
            .collect()),
        Err(e) => Err((e.line, e.column, e.kind.to_string())),
    }
}

/// Every way of ending lines (and a byte-order mark) reads alike, and
/// messages never hold a control character.
fn line_ends_read_alike(text: &str) {
    if text.contains('\r') || text.starts_with('\u{feff}') {
        return;
    }
    for parse in [parse_dlx, parse_matrix] {
        let lf = parse(text);
        if let Err(e) = &lf {
            let shown = e.to_string();
            assert!(!shown.chars().any(char::is_control), "{shown:?}");
        }
        let lf = summary(&lf);
        for other in [
            text.replace('\n', "\r\n"),
            text.replace('\n', "\r"),
            format!("\u{feff}{text}"),
        ] {
            assert_eq!(summary(&parse(&other)), lf, "{other:?}");
        }
    }
}

/// A problem with arbitrary names and options built from them.
fn problem_strategy() -> impl Strategy<Value = Problem<()>> {
    let name = "[a-z\u{1b}\u{7}\u{0}é\u{202e}0-9#]{1,4}";
    (
        proptest::collection::btree_set(name, 1..6),
        proptest::collection::btree_set(name, 0..3),
        proptest::collection::vec(
            (
                proptest::collection::vec(any::<proptest::sample::Index>(), 1..5),
                0u64..5,
            ),
            0..8,
        ),
    )
        .prop_map(|(primary, secondary, options)| {
            let mut b = ProblemBuilder::new();
            let mut items = Vec::new();
            for p in &primary {
                items.push(b.primary(p).unwrap());
            }
            for s in secondary.difference(&primary) {
                items.push(b.secondary(s).unwrap());
            }
            for (picks, cost) in options {
                let mut chosen: Vec<_> =
                    picks.iter().map(|i| items[i.index(items.len())]).collect();
                chosen.sort_unstable();
                chosen.dedup();
                let entries = chosen.into_iter().map(|i| (i, exactly::ColorId::NONE));
                b.add_option_with_cost((), cost, entries).unwrap();
            }
            b.build().unwrap()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn dlx_written_reads_back_with_any_line_ends(
        problem in problem_strategy(),
        ends in prop_oneof![Just("\n"), Just("\r\n"), Just("\r")],
        bom in any::<bool>(),
    ) {
        let mut out = Vec::new();
        write_dlx(&problem, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap().replace('\n', ends);
        let text = if bom { format!("\u{feff}{text}") } else { text };
        let again = parse_dlx(&text).unwrap();
        prop_assert_eq!(again.num_items(), problem.num_items());
        for i in problem.item_ids() {
            prop_assert_eq!(again.item_name(i), problem.item_name(i));
            prop_assert_eq!(again.item_kind(i), problem.item_kind(i));
        }
        prop_assert_eq!(again.num_options(), problem.num_options());
        for o in problem.option_ids() {
            prop_assert_eq!(again.option(o), problem.option(o));
            prop_assert_eq!(again.cost(o), problem.cost(o));
        }
    }

    #[test]
    fn matrix_rows_read_back_and_damaged_counts_are_refused(
        columns in 1u64..6,
        rows in proptest::collection::vec(proptest::collection::btree_set(1u64..6, 0..5), 1..8),
        ends in prop_oneof![Just("\n"), Just("\r\n"), Just("\r")],
        blank in proptest::collection::vec(any::<bool>(), 8),
        damage in any::<proptest::sample::Index>(),
        delta in prop_oneof![Just(-1i64), Just(1)],
    ) {
        let rows: Vec<Vec<u64>> = rows
            .into_iter()
            .map(|r| r.into_iter().filter(|&c| c <= columns).collect())
            .collect();
        let write = |counts: &dyn Fn(usize, usize) -> i64| {
            let mut text = format!("{} {columns}{ends}", rows.len());
            for (k, r) in rows.iter().enumerate() {
                if blank[k] {
                    text.push_str("  ");
                    text.push_str(ends);
                }
                let cols: Vec<String> = r.iter().map(u64::to_string).collect();
                text.push_str(&format!(" {}  {}{ends}", counts(k, r.len()), cols.join(" ")));
            }
            text
        };
        let p = parse_matrix(&write(&|_, n| n as i64)).unwrap();
        let kept: Vec<&Vec<u64>> = rows.iter().filter(|r| !r.is_empty()).collect();
        prop_assert_eq!(p.num_options(), kept.len());
        let mut labels = std::collections::HashSet::new();
        for (o, r) in p.option_ids().zip(kept) {
            let items: Vec<String> = r.iter().map(u64::to_string).collect();
            prop_assert_eq!(p.option_text(o), items.join(" "));
            prop_assert!(labels.insert(p.label(o).clone()), "labels are unique");
        }
        // One row's count off by one: refused at that row's line.
        let bad = damage.index(rows.len());
        if delta > 0 || !rows[bad].is_empty() {
            let text = write(&|k, n| if k == bad { n as i64 + delta } else { n as i64 });
            let e = parse_matrix(&text).unwrap_err();
            let line = 2 + bad + blank[..=bad].iter().filter(|&&b| b).count();
            prop_assert_eq!(e.line, line, "{:?}: {}", text, e);
        }
    }

    #[test]
    fn any_text_reads_alike_with_any_line_ends(text in "([ab12 |:x\u{1b}\u{7}\t0-9]{0,12}\n){0,6}") {
        line_ends_read_alike(&text);
    }
}

#[test]
fn replay_fuzz_inputs_with_every_line_end() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/fuzz");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        line_ends_read_alike(&String::from_utf8_lossy(&bytes));
        n += 1;
    }
    assert!(n > 0);
}
