//! Polyomino tilings: counts from the literature, solved by the engine, and
//! symmetry breaking checked against orbits counted by brute force.

use std::collections::{BTreeSet, HashSet};

use exactly::Solver;
use exactly_puzzles::polyomino::{self, parse, Board, Cell, Piece, Puzzle, Tiling};

/// A symmetry of the board: whether it turns pieces over, and the map.
type Symmetry = (bool, Box<dyn Fn(Cell) -> Cell>);

fn pentomino_puzzle(rows: usize, cols: usize, symbreak: bool) -> Puzzle {
    let mut puzzle = Puzzle::new(polyomino::pentominoes(), Board::rectangle(rows, cols));
    puzzle.symbreak = symbreak;
    puzzle
}

fn count(puzzle: &Puzzle) -> u128 {
    let problem = polyomino::encode(puzzle).unwrap();
    let count = Solver::new(&problem).count();
    assert!(count.outcome.is_complete());
    count.solutions
}

#[test]
fn pentominoes_6x10_up_to_symmetry() {
    assert_eq!(count(&pentomino_puzzle(6, 10, true)), 2339);
}

#[test]
fn pentominoes_6x10_all() {
    assert_eq!(count(&pentomino_puzzle(6, 10, false)), 9356);
}

#[test]
fn pentominoes_5x12_up_to_symmetry() {
    assert_eq!(count(&pentomino_puzzle(5, 12, true)), 1010);
}

#[test]
fn pentominoes_5x12_all() {
    assert_eq!(count(&pentomino_puzzle(5, 12, false)), 4040);
}

#[test]
fn pentominoes_4x15_up_to_symmetry() {
    assert_eq!(count(&pentomino_puzzle(4, 15, true)), 368);
}

#[test]
fn pentominoes_4x15_all() {
    assert_eq!(count(&pentomino_puzzle(4, 15, false)), 1472);
}

#[test]
fn pentominoes_3x20_up_to_symmetry() {
    assert_eq!(count(&pentomino_puzzle(3, 20, true)), 2);
}

#[test]
fn pentominoes_3x20_all() {
    assert_eq!(count(&pentomino_puzzle(3, 20, false)), 8);
}

/// A tiling as a set of (piece name, cells), for comparing tilings.
type Shape = BTreeSet<(String, Vec<Cell>)>;

fn shape(tiling: &Tiling) -> Shape {
    tiling
        .placements()
        .iter()
        .map(|p| (p.name.clone(), p.cells.clone()))
        .collect()
}

/// The symmetries of the grid that map `board` onto itself, as cell maps.
fn board_symmetries(board: &Board, rotations_only: bool) -> Vec<Box<dyn Fn(Cell) -> Cell>> {
    let (h, w) = (board.rows(), board.cols());
    let all: Vec<Symmetry> = vec![
        (true, Box::new(|c| c)),
        (true, Box::new(move |(r, c)| (h - 1 - r, w - 1 - c))),
        (false, Box::new(move |(r, c)| (h - 1 - r, c))),
        (false, Box::new(move |(r, c)| (r, w - 1 - c))),
    ];
    let square: Vec<Symmetry> = vec![
        (false, Box::new(|(r, c)| (c, r))),
        (false, Box::new(move |(r, c)| (w - 1 - c, h - 1 - r))),
        (true, Box::new(move |(r, c)| (c, h - 1 - r))),
        (true, Box::new(move |(r, c)| (w - 1 - c, r))),
    ];
    all.into_iter()
        .chain(if h == w { square } else { Vec::new() })
        .filter(|(rotation, _)| *rotation || !rotations_only)
        .map(|(_, f)| f)
        .filter(|f| board.cells().all(|p| board.contains(f(p))))
        .collect()
}

/// The smallest image of a tiling under the symmetries.
fn canonical(tiling: &Shape, symmetries: &[Box<dyn Fn(Cell) -> Cell>]) -> Shape {
    symmetries
        .iter()
        .map(|f| {
            tiling
                .iter()
                .map(|(name, cells)| {
                    let mut image: Vec<Cell> = cells.iter().map(|&c| f(c)).collect();
                    image.sort_unstable();
                    (name.clone(), image)
                })
                .collect::<Shape>()
        })
        .min()
        .unwrap()
}

/// Solves with and without symmetry breaking and checks that the tilings
/// found with it are valid and hit every orbit of the tilings found without
/// it exactly once. Returns (all tilings, orbits).
fn check_symbreak(puzzle: &Puzzle) -> (usize, usize) {
    let solve = |symbreak: bool| -> Vec<Shape> {
        let mut p = puzzle.clone();
        p.symbreak = symbreak;
        let problem = polyomino::encode(&p).unwrap();
        let mut solver = Solver::new(&problem);
        let tilings = solver
            .solutions()
            .map(|s| {
                let tiling = polyomino::decode(&problem, &s);
                assert!(puzzle.is_solution(&tiling), "invalid tiling\n{tiling}");
                shape(&tiling)
            })
            .collect();
        tilings
    };
    let symmetries = board_symmetries(&puzzle.board, puzzle.one_sided);
    let all = solve(false);
    let distinct: HashSet<&Shape> = all.iter().collect();
    assert_eq!(distinct.len(), all.len(), "a tiling was found twice");
    let orbits: HashSet<Shape> = all.iter().map(|t| canonical(t, &symmetries)).collect();
    let kept = solve(true);
    let kept_orbits: HashSet<Shape> = kept.iter().map(|t| canonical(t, &symmetries)).collect();
    assert_eq!(kept.len(), orbits.len(), "one tiling per orbit");
    assert_eq!(kept_orbits, orbits);
    (all.len(), orbits.len())
}

fn puzzle_from(text: &str) -> Puzzle {
    let spec = parse(text).unwrap();
    Puzzle::new(spec.pieces, spec.board.unwrap())
}

#[test]
fn symbreak_on_a_strip_where_every_x_is_fixed() {
    assert_eq!(check_symbreak(&pentomino_puzzle(3, 20, false)), (8, 2));
}

#[test]
fn symbreak_along_a_chain_of_pieces() {
    // A monomino and four dominoes on a 3x3 square: with the monomino in the
    // centre, all eight symmetries remain, and dominoes next to the centre
    // line are fixed by a reflection, so the chain is longer than one piece.
    let text = "M\n#\n\nA\n##\n\nB\n##\n\nC\n##\n\nD\n##\n\nboard\n###\n###\n###\n";
    let mut puzzle = puzzle_from(text);
    assert_eq!(check_symbreak(&puzzle), (432, 54));
    // Rotations only: four symmetries.
    puzzle.one_sided = true;
    assert_eq!(check_symbreak(&puzzle), (432, 108));
}

#[test]
fn symbreak_with_a_symmetric_tiling() {
    // A centre cell and the ring around it: one tiling, fixed by every
    // symmetry of the square, found once.
    let text = "C\n#\n\nR\n###\n#.#\n###\n\nboard\n###\n###\n###\n";
    assert_eq!(check_symbreak(&puzzle_from(text)), (1, 1));
}

#[test]
fn symbreak_on_a_square_with_a_hole() {
    // The 8x8 board without its central 2x2 square: 65 tilings up to the
    // eight symmetries, 520 in all.
    let mut cells: Vec<Cell> = Board::rectangle(8, 8).cells().collect();
    cells.retain(|&(r, c)| !((3..5).contains(&r) && (3..5).contains(&c)));
    let puzzle = Puzzle::new(polyomino::pentominoes(), Board::from_cells(cells));
    assert_eq!(check_symbreak(&puzzle), (520, 65));
}

#[test]
fn symbreak_with_one_sided_pieces() {
    // Six one-sided tetrominoes (all but the T) on a 4x6 rectangle:
    // rotations only, so the two turned-over pieces stay apart.
    let text = "I\n####\n\nO\n##\n##\n\nS\n.##\n##.\n\nZ\n##.\n.##\n\nL\n###\n#..\n\nJ\n###\n..#\n";
    let mut puzzle = Puzzle::new(parse(text).unwrap().pieces, Board::rectangle(4, 6));
    puzzle.one_sided = true;
    assert_eq!(check_symbreak(&puzzle), (2, 1));
}

#[test]
fn symbreak_with_copies_of_other_pieces() {
    // One P pentomino and five L-trominoes on a 4x5 rectangle: the P breaks
    // the symmetry; the copies are ordered.
    let text = "P\n##\n##\n#.\n\nL 5\n#.\n##\n\nboard\n#####\n#####\n#####\n#####\n";
    assert_eq!(check_symbreak(&puzzle_from(text)), (40, 10));
}

#[test]
fn symbreak_refuses_when_only_copies_are_left() {
    let mut puzzle = puzzle_from("L 4\n#.\n#.\n##\n\nboard\n####\n####\n####\n####\n");
    assert_eq!(count(&puzzle), 10);
    puzzle.symbreak = true;
    assert!(matches!(
        polyomino::encode(&puzzle),
        Err(exactly_puzzles::Error::SymmetryUnbroken)
    ));
}

#[test]
fn symbreak_on_a_board_with_holes() {
    // A staircase, symmetric about one diagonal only, and small pieces.
    let text = "M\n#\n\nD\n##\n\nT\n#.\n##\n\nQ\n#..\n###\n\nboard\n#...\n##..\n###.\n####\n";
    let puzzle = puzzle_from(text);
    assert_eq!(puzzle.board.symmetries(false), 2);
    assert_eq!(check_symbreak(&puzzle), (16, 8));
}

#[test]
fn copies_are_counted_once() {
    // Domino tilings of 2xn rectangles are Fibonacci numbers; of 4x4, 36.
    let domino = |count| Piece::new("I", [(0, 0), (0, 1)]).unwrap().with_count(count);
    for (rows, cols, expected) in [(2, 1, 1), (2, 4, 5), (2, 8, 34), (3, 4, 11), (4, 4, 36)] {
        let puzzle = Puzzle::new(vec![domino(rows * cols / 2)], Board::rectangle(rows, cols));
        let problem = polyomino::encode(&puzzle).unwrap();
        let mut seen = HashSet::new();
        for s in Solver::new(&problem).solutions() {
            let tiling = polyomino::decode(&problem, &s);
            assert!(puzzle.is_solution(&tiling));
            assert!(seen.insert(shape(&tiling)));
        }
        assert_eq!(seen.len(), expected, "{rows}x{cols}");
    }
}

#[test]
fn decoded_tilings_are_valid_and_round_trip() {
    let puzzle = pentomino_puzzle(3, 20, false);
    let problem = polyomino::encode(&puzzle).unwrap();
    let mut solver = Solver::new(&problem);
    let mut count = 0;
    for solution in solver.solutions() {
        let tiling = polyomino::decode(&problem, &solution);
        assert!(puzzle.is_solution(&tiling));
        // Every cell shows exactly one piece letter, and each placement's
        // letter sits on each of its cells.
        let text = tiling.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines.iter().all(|l| l.len() == 20));
        for p in tiling.placements() {
            for &(r, c) in &p.cells {
                assert_eq!(&lines[r][c..c + 1], p.name);
            }
        }
        // Round trip: the tiling's placements are the labels of the options.
        let mut from_options: Vec<_> = solution.labels(&problem).into_iter().cloned().collect();
        from_options.sort_by(|a, b| a.cells.cmp(&b.cells));
        assert_eq!(from_options, tiling.placements());
        count += 1;
    }
    assert_eq!(count, 8);
}

#[test]
fn hexominoes_fit_a_small_board() {
    // Two copies of each of a few hexominoes: the encoding builds, and the
    // straight one tiles a 2x6 rectangle in one way.
    let straight = polyomino::hexominoes().remove(0).with_count(2);
    let puzzle = Puzzle::new(vec![straight], Board::rectangle(2, 6));
    assert_eq!(count(&puzzle), 1);
    let all = Puzzle::new(polyomino::hexominoes(), Board::rectangle(15, 14));
    let problem = polyomino::encode(&all).unwrap();
    assert_eq!(problem.num_primary(), 35 + 210);
}

#[test]
fn dlx_text_parses_back_to_the_same_count() {
    let mut text = Vec::new();
    polyomino::write_dlx(&pentomino_puzzle(3, 20, true), &mut text).unwrap();
    let problem = exactly::format::parse_dlx(std::str::from_utf8(&text).unwrap()).unwrap();
    assert_eq!(Solver::new(&problem).count().solutions, 2);
}
