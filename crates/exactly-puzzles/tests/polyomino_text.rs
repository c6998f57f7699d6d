//! The polyomino text reader and writer: what is written reads back as the
//! same pieces and board; damaged text is read or refused with a line and
//! column, never a panic; inputs kept in `testdata/fuzz-polyomino/` (crash
//! inputs and the fuzz corpus seeds) are replayed.

use exactly_puzzles::polyomino::{self, Board, Piece, Puzzle, Spec};
use proptest::prelude::*;

/// Reads `text`; what parses is written and read back unchanged, and its
/// cheap impossibility check and (for small boards) encoding run.
fn check(text: &str) {
    let Ok(spec) = polyomino::parse(text) else {
        return;
    };
    let written = spec.to_string();
    let again = polyomino::parse(&written).expect("written text parses");
    assert_eq!(again, spec, "{written}");
    if let Some(board) = spec.board.clone() {
        let small = board.num_cells() <= 64 && spec.pieces.len() <= 16;
        let puzzle = Puzzle::new(spec.pieces, board);
        let impossible = puzzle.impossibility();
        if small {
            if let Ok(problem) = polyomino::encode(&puzzle) {
                let limits = exactly::Limits::default().max_nodes(2000);
                let count = exactly::Solver::new(&problem).limits(limits).count();
                // A puzzle seen to be impossible has no tiling.
                if impossible.is_some() {
                    assert_eq!(count.solutions, 0, "{text}");
                }
            }
        }
    }
}

fn cells(rows: usize, cols: usize) -> impl Strategy<Value = Vec<(usize, usize)>> {
    proptest::collection::btree_set((0..rows, 0..cols), 1..=rows * cols)
        .prop_map(|set| set.into_iter().collect())
}

fn spec() -> impl Strategy<Value = Spec> {
    let piece = (cells(4, 4), 0usize..4);
    (
        proptest::collection::vec(piece, 0..6),
        proptest::option::of(cells(6, 7)),
    )
        .prop_map(|(pieces, board)| Spec {
            pieces: pieces
                .into_iter()
                .enumerate()
                .map(|(k, (cells, count))| {
                    Piece::new(&format!("P{k}"), cells)
                        .expect("a valid piece")
                        .with_count(count)
                })
                .collect(),
            board: board.map(Board::from_cells),
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn written_specs_read_back(spec in spec()) {
        let text = spec.to_string();
        prop_assert_eq!(polyomino::parse(&text).expect("written text parses"), spec);
    }

    #[test]
    fn damaged_specs_are_read_or_refused(
        spec in spec(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), prop::sample::select(vec!['#', '.', ' ', '\n', 'x', '9', '|', 'A'])), 1..4),
    ) {
        let mut text: Vec<char> = spec.to_string().chars().collect();
        for (at, c) in edits {
            if text.is_empty() {
                text.push(c);
            } else {
                let i = at.index(text.len());
                text[i] = c;
            }
        }
        let text: String = text.into_iter().collect();
        match polyomino::parse(&text) {
            Ok(_) => check(&text),
            Err(e) => {
                prop_assert!(e.line >= 1 && e.line <= text.lines().count().max(1), "{e}");
                prop_assert!(e.column >= 1, "{e}");
            }
        }
    }

    #[test]
    fn arbitrary_text(text in "([A-Z|]{0,3}( [0-9]{1,4})?\n([#. ]{0,8}\n){0,4}\n?){0,4}") {
        check(&text);
    }
}

#[test]
fn replay_kept_inputs() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/fuzz-polyomino");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        check(&String::from_utf8_lossy(&bytes));
        n += 1;
    }
    assert!(n > 0);
}
