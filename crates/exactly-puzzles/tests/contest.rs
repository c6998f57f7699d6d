//! The contest readers never panic: any text gets answers or errors that
//! name a line and column inside the text (or just past its end).

use exactly_puzzles::contest::{self, Contest};
use proptest::prelude::*;

/// Checks every error of `text` against its size.
fn check(contest: Contest, text: &str) {
    let lines = exactly::format::lines(text).count().max(1);
    for answer in contest::answers(contest, text) {
        if let Err(e) = answer {
            assert!(
                e.line >= 1 && e.line <= lines + 1,
                "{contest} {text:?}: {e}"
            );
            assert!(e.column >= 1, "{contest} {text:?}: {e}");
        }
    }
}

/// Text over `alphabet`, up to `len` characters.
fn text(alphabet: &'static str, len: usize) -> impl Strategy<Value = String> {
    let chars: Vec<char> = alphabet.chars().collect();
    proptest::collection::vec(proptest::sample::select(chars), 0..len)
        .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn poj3074_never_panics(t in text("123456789..........\n\r x", 200)) {
        check(Contest::Poj3074, &t);
        check(Contest::Poj3074, &format!("{t}\nend\n"));
    }

    #[test]
    fn sixteen_by_sixteen_never_panics(t in text("ABCDEFGHIJKLMNOP----------------\n\n Q", 400)) {
        check(Contest::Poj3076, &t);
        check(Contest::Spoj1110, &format!("1\n{t}"));
    }

    #[test]
    fn number_formats_never_panic(t in text("12345 \n\n  -x", 80)) {
        check(Contest::Hust1017, &t);
        check(Contest::Poj1084, &t);
        check(Contest::Noip2009, &t);
    }
}

#[test]
fn replay_fuzz_inputs() {
    // Seeds of the `contest_readers` fuzz target (the samples, each after
    // the byte that picks its contest) and inputs it found.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/fuzz-contest");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        contest::check(&std::fs::read(entry.unwrap().path()).unwrap());
        n += 1;
    }
    assert!(n >= Contest::ALL.len(), "{n} inputs");
}

/// The steps `contest` takes to answer `text`, and the text's size.
fn steps_of(contest: Contest, text: &str) -> (usize, u64) {
    let before = exactly::work::steps();
    let answers = contest::answers(contest, text);
    assert_eq!(answers.len(), 1, "{answers:?}");
    (text.len(), exactly::work::steps() - before)
}

#[test]
fn a_long_hust1017_row_is_read_in_linear_steps() {
    // One row of n ones in n columns, the first column repeated at its
    // end: the check for a column given twice must not scan the row for
    // every column.
    let row = |n: usize| {
        let cols: Vec<String> = (1..n).map(|c| c.to_string()).collect();
        format!("1 {n}\n{n} {} 1\n", cols.join(" "))
    };
    let ((small_size, small), (large_size, large)) = (
        steps_of(Contest::Hust1017, &row(2000)),
        steps_of(Contest::Hust1017, &row(20_000)),
    );
    let size = large_size as f64 / small_size as f64;
    let ratio = large as f64 / small as f64;
    assert!(
        ratio <= 1.2 * size,
        "{size:.1}x the input took {ratio:.1}x the steps ({small} -> {large})"
    );
    let answer = &contest::answers(Contest::Hust1017, &row(3))[0];
    let e = answer.as_ref().unwrap_err();
    assert_eq!((e.line, e.column), (2, 7), "{e}");
    assert!(e.message.contains("column 1 appears twice in row 1"), "{e}");
}
