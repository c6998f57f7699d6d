//! The polyomino text reader never panics and never allocates a board's box
//! beyond what it accepts (36x36); what parses is written and read back
//! unchanged, and a puzzle found impossible without a search has no tiling
//! (searched for small problems only: many copies of a piece make an
//! encoding whose nodes are slow, so a node budget alone does not keep a
//! run short).
#![no_main]

use exactly_puzzles::polyomino::{self, Puzzle};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(spec) = polyomino::parse(text) else {
        return;
    };
    let again = polyomino::parse(&spec.to_string()).expect("written text parses");
    assert_eq!(again, spec);
    let Some(board) = spec.board.clone() else {
        return;
    };
    let small = board.num_cells() <= 64 && spec.pieces.len() <= 16;
    let puzzle = Puzzle::new(spec.pieces, board);
    let impossible = puzzle.impossibility();
    if small {
        let problem = polyomino::encode(&puzzle).ok();
        if let Some(problem) = problem.filter(|p| p.num_entries() <= 50_000) {
            let limits = exactly::Limits::default().max_nodes(2000);
            let count = exactly::Solver::new(&problem).limits(limits).count();
            if impossible.is_some() {
                assert_eq!(count.solutions, 0);
            }
        }
    }
});
