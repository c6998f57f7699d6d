//! Sudoku generation, the technique solver and the whole-matrix encoding:
//! every generated puzzle re-solved by the exact-cover solver (one
//! solution, minimal), the same seed giving the same puzzles, the techniques
//! on published examples (`testdata/sudoku/techniques.txt` in this crate),
//! and the technique solver never placing a wrong value on random puzzles.

use std::path::{Path, PathBuf};

use exactly_puzzles::sudoku::generate::{random_regions, Generated, Generator, Rng, Symmetry};
use exactly_puzzles::sudoku::logic::{self, Board, Found, Level, Prover, State, Technique};
use exactly_puzzles::sudoku::{self, knuth, Grid, Placement, Rules, Shape, Verdict};
use proptest::prelude::*;

/// The crate's own test files (packaged with it).
fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata")
}

/// One solution, the generator's; and minimal: emptying any orbit of clues
/// gives several solutions.
fn check_unique_and_minimal(made: &Generated, rules: &Rules, symmetry: Symmetry) {
    let answer = sudoku::solve_with(&made.puzzle, 2, rules).unwrap();
    assert_eq!(answer.verdict, Verdict::Unique, "{:?}", made.puzzle);
    assert_eq!(answer.solution.as_ref(), Some(&made.solution));
    let n = made.puzzle.size();
    for orbit in symmetry.orbits(n) {
        if orbit.iter().any(|&c| made.puzzle.get(c / n, c % n) == 0) {
            // Orbits are emptied or kept whole.
            assert!(orbit.iter().all(|&c| made.puzzle.get(c / n, c % n) == 0));
            continue;
        }
        let mut fewer = made.puzzle.clone();
        for &c in &orbit {
            fewer.set(c / n, c % n, 0);
        }
        let answer = sudoku::solve_with(&fewer, 2, rules).unwrap();
        assert_eq!(
            answer.verdict,
            Verdict::Multiple,
            "removing {orbit:?} keeps it unique"
        );
    }
}

#[test]
fn generated_puzzles_are_unique_and_minimal() {
    let cases: [(usize, usize, bool, bool, Symmetry); 9] = [
        (2, 2, false, false, Symmetry::None),
        (2, 3, false, false, Symmetry::None),
        (3, 3, false, false, Symmetry::None),
        (3, 3, false, false, Symmetry::Rotational),
        (3, 3, false, false, Symmetry::Mirror),
        (3, 3, true, false, Symmetry::None),
        (3, 3, false, true, Symmetry::None),
        (2, 3, false, true, Symmetry::Rotational),
        (4, 4, false, false, Symmetry::None),
    ];
    for (r, c, diagonals, jigsaw, symmetry) in cases {
        let shape = Shape::new(r, c).unwrap();
        let generator = Generator::new(shape, diagonals, jigsaw)
            .unwrap()
            .symmetry(symmetry);
        let runs = if r * c >= 16 { 1 } else { 4 };
        for index in 0..runs {
            let (made, _) = generator
                .generate(11, index, 10, |_| Ok(true))
                .unwrap()
                .expect("a puzzle within 10 attempts");
            assert_eq!(made.regions.is_some(), jigsaw);
            let rules = generator.rules(made.regions.clone());
            check_unique_and_minimal(&made, &rules, symmetry);
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_puzzle() {
    for jigsaw in [false, true] {
        let generator = Generator::new(Shape::new(3, 3).unwrap(), false, jigsaw).unwrap();
        let a = generator.generate(5, 3, 1, |_| Ok(true)).unwrap();
        let b = generator.generate(5, 3, 1, |_| Ok(true)).unwrap();
        let c = generator.generate(5, 4, 1, |_| Ok(true)).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}

#[test]
fn jigsaw_regions_are_connected_and_equal() {
    for n in [4, 5, 6, 7, 9, 12] {
        let regions = random_regions(n, &mut Rng::new(n as u64)).unwrap();
        for k in 0..n {
            let cells: Vec<(usize, usize)> = (0..n * n)
                .map(|i| (i / n, i % n))
                .filter(|&(r, c)| regions.region(r, c) == k)
                .collect();
            assert_eq!(cells.len(), n);
            // Flood from the first cell through side neighbours.
            let mut reached = vec![cells[0]];
            let mut i = 0;
            while i < reached.len() {
                let (r, c) = reached[i];
                for &(a, b) in &cells {
                    if r.abs_diff(a) + c.abs_diff(b) == 1 && !reached.contains(&(a, b)) {
                        reached.push((a, b));
                    }
                }
                i += 1;
            }
            assert_eq!(reached.len(), n, "region {k} of {n}x{n} is not connected");
        }
    }
}

/// Applies technique steps (no guessing) and checks each against the
/// solution: a placement is the solution's value, a removal never is.
fn follow_logic(puzzle: &Grid, solution: &Grid, rules: &Rules) -> Vec<Technique> {
    let mut board = Board::new(puzzle, rules).unwrap();
    let mut used = Vec::new();
    while board.state() == State::Open {
        let Some(step) = board.next_step() else { break };
        for p in &step.places {
            let (r, c) = (usize::from(p.row), usize::from(p.col));
            assert_eq!(solution.get(r, c), p.value, "{step}");
        }
        for p in &step.removes {
            let (r, c) = (usize::from(p.row), usize::from(p.col));
            assert_ne!(solution.get(r, c), p.value, "{step}");
        }
        used.push(step.technique);
        board.apply(&step);
    }
    assert_ne!(board.state(), State::Contradiction);
    used
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn techniques_never_contradict_the_solution(seed in any::<u64>(), kind in 0usize..6) {
        let (shape, diagonals, jigsaw) = match kind {
            0 => (Shape::new(2, 2).unwrap(), false, false),
            1 => (Shape::new(2, 3).unwrap(), false, false),
            2 => (Shape::new(3, 3).unwrap(), false, false),
            3 => (Shape::new(3, 3).unwrap(), true, false),
            4 => (Shape::new(3, 3).unwrap(), false, true),
            _ => (Shape::new(2, 4).unwrap(), false, false),
        };
        let generator = Generator::new(shape, diagonals, jigsaw).unwrap();
        let Some((made, _)) = generator.generate(seed, 0, 10, |_| Ok(true)).unwrap() else {
            return Ok(());
        };
        let rules = generator.rules(made.regions.clone());
        follow_logic(&made.puzzle, &made.solution, &rules);
        let rating = logic::rate(&made.puzzle, &rules).unwrap();
        prop_assert_eq!(rating.solution.as_ref(), Some(&made.solution));
    }
}

/// Whether `puzzle` has a solution with some value other than `not` in
/// cell `cell`, by the exact-cover solver: one search per other value.
fn has_other(puzzle: &Grid, rules: &Rules, cell: usize, not: u8) -> bool {
    let n = puzzle.size();
    let (r, c) = (cell / n, cell % n);
    (1..=n as u8).filter(|&w| w != not).any(|w| {
        let given = puzzle.get(r, c);
        if given != 0 && given != w {
            return false;
        }
        let mut one = puzzle.clone();
        one.set(r, c, w);
        one.clash_with(rules).is_none()
            && sudoku::solve_with(&one, 1, rules).unwrap().verdict != Verdict::None
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// The prover against the exact-cover solver on puzzles cut from a
    /// generated grid (some with a wrong clue): a solution it returns
    /// solves the puzzle and avoids the forbidden value, and it finds none
    /// only when there is none; a puzzle it fills by propagation alone has
    /// one solution.
    #[test]
    fn the_prover_agrees_with_the_exact_cover_solver(
        seed in any::<u64>(),
        kind in 0usize..5,
        keep in 5u64..70,
        wrong in any::<bool>(),
    ) {
        let (shape, diagonals, jigsaw) = match kind {
            0 => (Shape::new(2, 2).unwrap(), false, false),
            1 => (Shape::new(2, 3).unwrap(), false, false),
            2 => (Shape::new(3, 3).unwrap(), false, false),
            3 => (Shape::new(3, 3).unwrap(), true, false),
            _ => (Shape::new(3, 3).unwrap(), false, true),
        };
        let generator = Generator::new(shape, diagonals, jigsaw).unwrap();
        let mut rng = Rng::new(seed);
        let Some(made) = generator.attempt(&mut rng).unwrap() else {
            return Ok(());
        };
        let rules = generator.rules(made.regions.clone());
        let n = shape.size();
        let mut puzzle = made.solution.clone();
        for cell in 0..n * n {
            if rng.below(100) as u64 >= keep {
                puzzle.set(cell / n, cell % n, 0);
            }
        }
        if wrong {
            let cell = rng.below(n * n);
            puzzle.set(cell / n, cell % n, 1 + rng.below(n) as u8);
        }
        let prover = Prover::new(shape, &rules).unwrap();
        let cell = rng.below(n * n);
        let not = 1 + rng.below(n) as u8;
        let near = (!wrong).then_some(&made.solution);
        match prover.first(&puzzle, Some((cell, not)), near, u64::MAX, &|| false) {
            Found::Solution(grid) => {
                prop_assert!(grid.solves_with(&puzzle, &rules));
                prop_assert_ne!(grid.cells()[cell], not);
            }
            Found::NoSolution(_) => prop_assert!(!has_other(&puzzle, &rules, cell, not)),
            Found::OutOfBudget => prop_assert!(false, "no budget was set"),
        }
        if prover.forces(&puzzle) {
            let answer = sudoku::solve_with(&puzzle, 2, &rules).unwrap();
            prop_assert_eq!(answer.verdict, Verdict::Unique);
        }
    }
}

/// The published examples: `technique`, HoDoKu's position line, source.
struct Example {
    line: usize,
    technique: Technique,
    puzzle: Grid,
    removed: Vec<Placement>,
    expected: Vec<Placement>,
}

/// `digit row col` triples, space separated (HoDoKu's candidate lists).
fn triples(text: &str) -> Vec<Placement> {
    text.split_whitespace()
        .map(|t| {
            let d: Vec<u8> = t.bytes().map(|b| b - b'0').collect();
            Placement {
                row: d[1] - 1,
                col: d[2] - 1,
                value: d[0],
            }
        })
        .collect()
}

fn examples() -> Vec<Example> {
    let text = std::fs::read_to_string(testdata().join("sudoku/techniques.txt")).unwrap();
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (name, position) = line.split_once(' ').unwrap();
        let technique = Technique::from_name(name).unwrap();
        // :code:candidates:cells:removed:eliminations:...
        let fields: Vec<&str> = position.trim().split(':').collect();
        let cells: Vec<u8> = fields[3]
            .bytes()
            .filter(|&b| b != b'+')
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect();
        out.push(Example {
            line: k + 1,
            technique,
            puzzle: Grid::from_cells(Shape::new(3, 3).unwrap(), cells).unwrap(),
            removed: triples(fields[4]),
            expected: triples(fields[5]),
        });
    }
    out
}

#[test]
fn techniques_find_the_published_examples() {
    let examples = examples();
    assert!(examples.len() >= 8);
    for e in &examples {
        let board = Board::with_candidates(&e.puzzle, &Rules::default(), &e.removed).unwrap();
        let step = board
            .find(e.technique)
            .unwrap_or_else(|| panic!("line {}: no {}", e.line, e.technique));
        let mut got = step.removes.clone();
        let mut want = e.expected.clone();
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want, "line {}: {step}", e.line);
        // No single applies to the position. (Easier techniques may: the
        // order of techniques differs from HoDoKu's, where a hidden triple
        // comes before a naked quad, which is its complement.)
        for t in [Technique::NakedSingle, Technique::HiddenSingle] {
            assert!(
                board.find(t).is_none(),
                "line {}: {t} applies first",
                e.line
            );
        }
    }
}

/// The first `k` puzzles of a sample file.
fn sample(name: &str) -> Vec<Grid> {
    let text = std::fs::read_to_string(testdata().join("sudoku").join(name)).unwrap();
    sudoku::parse(&text, None)
        .into_iter()
        .map(|r| r.puzzle.unwrap().grid)
        .collect()
}

#[test]
fn ratings_of_the_sample_collections() {
    let rules = Rules::default();
    let hardest = sample("forum-hardest-sample.txt");
    assert!(hardest.len() >= 10);
    for p in &hardest {
        let rating = logic::rate(p, &rules).unwrap();
        assert_eq!(rating.level(), Level::Guessing);
        assert!(rating.solution.unwrap().solves(p));
    }
    let easy = sample("17-clue-sample.txt");
    assert!(easy.len() >= 40);
    let guessing = easy
        .iter()
        .filter(|p| logic::rate(p, &rules).unwrap().level() == Level::Guessing)
        .count();
    assert!(
        guessing * 4 < easy.len(),
        "{guessing} of {} need guessing",
        easy.len()
    );
}

#[test]
fn the_whole_matrix_counts_as_the_solver_does() {
    let shape = Shape::new(2, 2).unwrap();
    let empty = knuth::encode_full(&Grid::empty(shape), &Rules::default()).unwrap();
    assert_eq!(empty.num_primary(), 64);
    assert_eq!(exactly::Solver::new(&empty).count().solutions, 288);
    let x = Rules::default().diagonals(true);
    let empty_x = knuth::encode_full(&Grid::empty(shape), &x).unwrap();
    let want = sudoku::solve_with(&Grid::empty(shape), 1000, &x)
        .unwrap()
        .count;
    assert_eq!(
        exactly::Solver::new(&empty_x).count().solutions,
        u128::from(want)
    );
    let nine =
        knuth::encode_full(&Grid::empty(Shape::new(3, 3).unwrap()), &Rules::default()).unwrap();
    assert_eq!(nine.num_primary(), 324);
    // A full grid emptied cell by cell until it has two solutions.
    let records = sudoku::parse("1234341221434321\n", None);
    let mut puzzle = records[0].puzzle.as_ref().unwrap().grid.clone();
    let mut two = false;
    for i in 0..16 {
        puzzle.set(i / 4, i % 4, 0);
        let count = sudoku::solve(&puzzle, 1000).unwrap().count;
        let p = knuth::encode_full(&puzzle, &Rules::default()).unwrap();
        assert_eq!(
            exactly::Solver::new(&p).count().solutions,
            u128::from(count)
        );
        two |= count == 2;
    }
    assert!(two);
}
