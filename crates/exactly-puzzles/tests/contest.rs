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
