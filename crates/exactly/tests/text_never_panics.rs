//! Arbitrary text never makes the readers panic; what parses round-trips
//! through the writer; inputs that once broke a reader are replayed.

use exactly::format::{parse_dlx, parse_matrix, write_dlx};
use proptest::prelude::*;

fn round_trip(text: &str) {
    if let Ok(problem) = parse_dlx(text) {
        let mut out = Vec::new();
        write_dlx(&problem, &mut out).unwrap();
        let again = parse_dlx(std::str::from_utf8(&out).unwrap()).expect("written text parses");
        assert_eq!(again.num_options(), problem.num_options());
        for o in problem.option_ids() {
            assert_eq!(again.option_text(o), problem.option_text(o));
            assert_eq!(again.cost(o), problem.cost(o));
        }
        for i in problem.item_ids() {
            assert_eq!(again.item_bounds(i), problem.item_bounds(i));
        }
        // The searches beyond exact cover take whatever parses.
        let limits = exactly::Limits::default().max_nodes(2000);
        let _ = exactly::multi::MultiSolver::new(&problem)
            .limits(limits.clone())
            .count();
        let _ = exactly::multi::CostSolver::new(&problem)
            .limits(limits.clone())
            .best(3);
        let _ = exactly::mincover::MinCover::new(&problem)
            .weighted(true)
            .limits(limits)
            .solve();
    }
    let _ = parse_matrix(text);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_text(text in "\\PC{0,200}") {
        round_trip(&text);
    }

    #[test]
    fn dlx_like_text(text in "([abc|:0-9 x]{0,12}\n){0,8}") {
        round_trip(&text);
    }

    #[test]
    fn dlx_with_multiplicities(text in "([0-3]:[1-3]\\|a [1-2]\\|b c( \\| x)?\n)([abcx]( [abcx:0-9|]{1,3}){0,3}\n){0,8}") {
        round_trip(&text);
    }
}

#[test]
fn replay_fuzz_inputs() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/fuzz");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        round_trip(&String::from_utf8_lossy(&bytes));
        n += 1;
    }
    assert!(n > 0);
}
