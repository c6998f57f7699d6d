//! Unit tests of the sudoku front end.

use super::*;

#[test]
fn shapes() {
    for (n, r, c) in [
        (1, 1, 1),
        (4, 2, 2),
        (9, 3, 3),
        (16, 4, 4),
        (25, 5, 5),
        (64, 8, 8),
    ] {
        let s = Shape::infer(n).unwrap();
        assert_eq!((s.box_rows(), s.box_cols()), (r, c), "{n}");
    }
    for n in [0, 2, 3, 5, 7, 10, 65] {
        assert!(Shape::infer(n).is_none(), "{n}");
    }
    assert!(Shape::new(8, 8).is_ok());
    assert!(Shape::new(5, 13).is_err());
}

#[test]
fn givens_remove_items_and_options() {
    let shape = Shape::new(2, 2).unwrap();
    let mut grid = Grid::empty(shape);
    grid.set(0, 0, 1);
    let p = encode(&grid).unwrap();
    // 15 cells, 3 units of 4 values less one each for r1, c1, b1.
    assert_eq!(p.num_primary(), 15 + 3 * 16 - 3);
    // Value 1 is excluded from the 7 cells that see r1c1.
    assert_eq!(p.num_options(), 15 * 4 - 7);
    assert!(p.item_by_name("r1c1").is_none());
    assert!(p.item_by_name("b1=1").is_none());
    assert!(p.item_by_name("b2=1").is_some());
}

#[test]
fn clashes_name_both_cells() {
    let shape = Shape::new(3, 3).unwrap();
    let mut grid = Grid::empty(shape);
    grid.set(4, 2, 7);
    grid.set(4, 8, 7);
    let e = solve(&grid, 2).unwrap_err();
    assert_eq!(e.to_string(), "givens clash: r5c3 and r5c9 both hold 7");
}

#[test]
fn a_template_solver_rejects_bad_puzzles_and_goes_on() {
    let template = Template::new(Shape::new(2, 2).unwrap(), &Rules::default()).unwrap();
    let mut solver = template.solver();
    let e = solver
        .solve(&Grid::empty(Shape::new(2, 3).unwrap()), 2)
        .unwrap_err();
    assert_eq!(e.to_string(), "a 6x6 grid does not fit boxes of 2x2");
    let mut clash = Grid::empty(template.shape());
    clash.set(0, 0, 3);
    clash.set(3, 0, 3);
    let e = solver.solve(&clash, 2).unwrap_err();
    assert_eq!(e.to_string(), "givens clash: r1c1 and r4c1 both hold 3");
    let answer = solver.solve(&Grid::empty(template.shape()), 1000).unwrap();
    assert_eq!((answer.verdict, answer.count), (Verdict::Multiple, 288));
}

#[test]
fn solution_check_catches_every_unit() {
    let shape = Shape::new(1, 2).unwrap();
    let puzzle = Grid::empty(shape);
    assert!(!Grid::from_cells(shape, vec![1, 1, 2, 2])
        .unwrap()
        .solves(&puzzle));
    assert!(!Grid::from_cells(shape, vec![1, 2, 1, 2])
        .unwrap()
        .solves(&puzzle));
    assert!(!Grid::from_cells(shape, vec![1, 2, 0, 1])
        .unwrap()
        .solves(&puzzle));
    // 2x2 boxes: rows and columns fine, boxes not.
    let shape = Shape::new(2, 2).unwrap();
    let latin =
        Grid::from_cells(shape, vec![1, 2, 3, 4, 2, 3, 4, 1, 3, 4, 1, 2, 4, 1, 2, 3]).unwrap();
    assert!(!latin.solves(&Grid::empty(shape)));
}

#[test]
fn a_spent_budget_stops_before_the_encoding_is_built() {
    use super::encode::encode_within;
    use exactly::Limits;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    // Encoding the empty 64x64 grid counts n³ steps, a row at a time.
    let empty = Grid::empty(Shape::new(8, 8).unwrap());
    let rules = Rules::default();
    let before = exactly::work::steps();
    assert!(encode_within(&empty, &rules, &|| false).unwrap().is_some());
    assert_eq!(exactly::work::steps() - before, 64 * 64 * 64);
    // A cancel flag set before, or a time budget already spent: stopped
    // before a row is encoded, on one thread or split across two.
    let flag = Arc::new(AtomicBool::new(true));
    let spent = [
        Limits::default().cancel_flag(flag),
        Limits::default().max_time(Duration::ZERO),
    ];
    for limits in &spent {
        for threads in [1, 2] {
            let before = exactly::work::steps();
            let answer = super::solve_parallel(&empty, 2, &rules, limits, threads).unwrap();
            assert_eq!(answer.verdict, Verdict::Unknown, "{limits:?}");
            assert!(answer.solution.is_none());
            assert_eq!(exactly::work::steps(), before, "{limits:?} {threads}");
        }
    }
    // A template solver that has switched to the template: its encoding
    // is not built once the flag is set.
    let template = Template::new(Shape::new(3, 3).unwrap(), &rules).unwrap();
    let flag = Arc::new(AtomicBool::new(false));
    let mut solver = template
        .solver()
        .limits(Limits::default().cancel_flag(flag.clone()));
    let nine = Grid::empty(template.shape());
    assert_eq!(solver.solve(&nine, 1).unwrap().verdict, Verdict::Solved);
    flag.store(true, Ordering::Relaxed);
    let before = exactly::work::steps();
    assert_eq!(solver.solve(&nine, 1).unwrap().verdict, Verdict::Unknown);
    assert_eq!(exactly::work::steps(), before);
    // The flag down again: the template is built and solves.
    flag.store(false, Ordering::Relaxed);
    assert_eq!(solver.solve(&nine, 1).unwrap().verdict, Verdict::Solved);
    assert_eq!(exactly::work::steps() - before, 9 * 9 * 9);
}

/// A xorshift generator: the tests below need many grids, not good ones.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// The boxes of `shape` as regions: the rules then take the general path
/// of the clash check and of the solution check, the one written for
/// jigsaw regions, instead of the one written for boxes.
fn boxes_as_regions(shape: Shape) -> Rules {
    let n = shape.size();
    let of = (0..n * n)
        .map(|i| shape.box_of(i / n, i % n) as u8)
        .collect();
    Rules::default().regions(Some(Regions::new(n, of).unwrap()))
}

/// Whether two givens of `grid` share a row, a column or a box, cell by
/// cell.
fn clashes_pairwise(grid: &Grid) -> bool {
    let n = grid.size();
    let shape = grid.shape();
    let cells = grid.cells();
    (0..n * n).any(|i| {
        (i + 1..n * n).any(|j| {
            let (a, b) = ((i / n, i % n), (j / n, j % n));
            cells[i] != 0
                && cells[i] == cells[j]
                && (a.0 == b.0 || a.1 == b.1 || shape.box_of(a.0, a.1) == shape.box_of(b.0, b.1))
        })
    })
}

#[test]
fn clash_checks_of_boxes_agree_with_regions_and_pairs() {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for (br, bc) in [
        (1, 2),
        (2, 2),
        (2, 3),
        (3, 2),
        (3, 3),
        (2, 5),
        (4, 4),
        (5, 3),
    ] {
        let shape = Shape::new(br, bc).unwrap();
        let n = shape.size();
        let regions = boxes_as_regions(shape);
        for round in 0..400 {
            // From a few givens (mostly no clash) to many (mostly clashes).
            let givens = 1 + round % (2 * n);
            let mut cells = vec![0u8; n * n];
            for _ in 0..givens {
                let at = next(&mut state) as usize % (n * n);
                cells[at] = 1 + (next(&mut state) % n as u64) as u8;
            }
            let grid = Grid::from_cells(shape, cells).unwrap();
            let boxes = grid.clash_with(&Rules::default());
            assert_eq!(boxes.is_some(), clashes_pairwise(&grid), "{grid:?}");
            assert_eq!(boxes, grid.clash_with(&regions), "{grid:?}");
        }
    }
}

#[test]
fn the_classic_checks_read_the_last_cell() {
    // The 9×9 checks read the cells eight at a time, and the 81st alone.
    let shape = Shape::new(3, 3).unwrap();
    let solution = solve(&Grid::empty(shape), 1).unwrap().solution.unwrap();
    let last = solution.cells()[80];
    let mut puzzle = Grid::empty(shape);
    puzzle.set(8, 8, last % 9 + 1);
    assert!(!solution.solves(&puzzle));
    puzzle.set(8, 8, last);
    assert!(solution.solves(&puzzle));
    let mut cells = solution.cells().to_vec();
    cells[80] = 0;
    assert!(!Grid::from_cells(shape, cells).unwrap().solves(&puzzle));
    // A clash of the last cell with the first of its row, its column and
    // its box.
    for (r, c) in [(8, 0), (0, 8), (6, 6)] {
        let mut grid = Grid::empty(shape);
        grid.set(r, c, 5);
        assert!(grid.clash().is_none());
        grid.set(8, 8, 5);
        let clash = grid.clash().expect("two 5s in a unit");
        assert_eq!((clash.first, clash.second), ((r, c), (8, 8)));
    }
}

#[test]
fn solution_checks_of_boxes_agree_with_regions() {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for (br, bc) in [(2, 2), (2, 3), (3, 3), (3, 4)] {
        let shape = Shape::new(br, bc).unwrap();
        let n = shape.size();
        let regions = boxes_as_regions(shape);
        let solution = solve(&Grid::empty(shape), 1).unwrap().solution.unwrap();
        let mut puzzle = Grid::empty(shape);
        puzzle.set(0, 0, solution.cells()[0]);
        assert!(solution.solves(&puzzle));
        assert!(solution.solves_with(&puzzle, &regions));
        for _ in 0..300 {
            // Change one or two cells: a wrong value, an empty cell, a
            // swap within a row (rows still hold every value), or a given
            // the solution does not keep.
            let mut cells = solution.cells().to_vec();
            let (i, j) = (
                next(&mut state) as usize % (n * n),
                next(&mut state) as usize % (n * n),
            );
            let mut given = puzzle.clone();
            match next(&mut state) % 4 {
                0 => cells[i] = 1 + (next(&mut state) % n as u64) as u8,
                1 => cells[i] = 0,
                2 => cells.swap(i, i - i % n + j % n),
                _ => given.set(i / n, i % n, 1 + (next(&mut state) % n as u64) as u8),
            }
            let grid = Grid::from_cells(shape, cells).unwrap();
            let expected = grid.cells().iter().all(|&v| v != 0)
                && !clashes_pairwise(&grid)
                && given
                    .cells()
                    .iter()
                    .zip(grid.cells())
                    .all(|(&g, &v)| g == 0 || g == v);
            assert_eq!(grid.solves(&given), expected, "{grid:?}");
            assert_eq!(grid.solves_with(&given, &regions), expected, "{grid:?}");
        }
    }
}

/// The givens of `puzzle`'s first `rows` rows, the other cells open.
fn first_rows(puzzle: &Grid, rows: usize) -> Grid {
    let n = puzzle.shape().size();
    let mut grid = Grid::empty(puzzle.shape());
    for (i, &v) in puzzle.cells()[..rows * n].iter().enumerate() {
        grid.set(i / n, i % n, v);
    }
    grid
}

/// Every puzzle of a test file (its part before `:`).
fn puzzles_of(file: &str) -> Vec<Grid> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/sudoku");
    let text = std::fs::read_to_string(root.join(file)).unwrap();
    let text: String = text
        .lines()
        .map(|l| l.split(':').next().unwrap_or("").to_string() + "\n")
        .collect();
    parse(&text, None)
        .into_iter()
        .map(|r| r.puzzle.unwrap().grid)
        .collect()
}

#[test]
fn the_band_search_answers_as_the_general_solver() {
    // 9x9 puzzles: unique ones from the test files; the same with givens
    // taken out at random (several solutions, in an order that the two
    // searches must agree on) or one added (mostly none); random givens
    // (clashes, none, several).
    let mut grids = puzzles_of("9x9.txt");
    grids.extend(puzzles_of("17-clue-sample.txt"));
    grids.extend(puzzles_of("forum-hardest-sample.txt"));
    let mut rng = generate::Rng::new(7);
    for k in 0..60 {
        let mut g = grids[k % 20].clone();
        for cell in 0..81 {
            if rng.below(4) == 0 {
                g.set(cell / 9, cell % 9, 0);
            }
        }
        grids.push(g);
        let mut g = grids[k % 20].clone();
        let open: Vec<usize> = (0..81).filter(|&c| g.cells()[c] == 0).collect();
        let cell = open[rng.below(open.len())];
        g.set(cell / 9, cell % 9, 1 + rng.below(9) as u8);
        grids.push(g);
        let mut g = Grid::empty(Shape::new(3, 3).unwrap());
        for _ in 0..(k % 12) {
            g.set(rng.below(9), rng.below(9), 1 + rng.below(9) as u8);
        }
        grids.push(g);
    }
    let template = Template::new(Shape::new(3, 3).unwrap(), &Rules::default()).unwrap();
    let mut bands = template.solver();
    let mut general = check::general_solver(&template);
    let (mut nodes_differ, mut verdicts) = (0, std::collections::HashSet::new());
    for grid in &grids {
        for max in [1, 2, 5] {
            if let [Ok(a), Ok(b)] = check::agreeing(&mut bands, &mut general, grid, max) {
                nodes_differ += usize::from(a.nodes != b.nodes);
                verdicts.insert(a.verdict);
            }
        }
    }
    // Both searches ran, and every verdict but unknown came up.
    assert!(nodes_differ > 20, "{nodes_differ}");
    assert_eq!(verdicts.len(), 4, "{verdicts:?}");
}

#[test]
fn stripping_keeps_the_solutions_and_prunes() {
    use bands::{Leaning, MATCHED};
    // Bit 3r + k: row r has cells in box k (or a box in a column).
    let bits =
        |cells: &[(usize, usize)]| -> usize { cells.iter().map(|(r, k)| 1 << (3 * r + k)).sum() };
    let all: Vec<(usize, usize)> = (0..9).map(|b| (b / 3, b % 3)).collect();
    assert_eq!(usize::from(MATCHED[bits(&all)]), bits(&all));
    // Row 0 only in box 0: rows 1 and 2 leave box 0.
    let m = bits(&[(0, 0), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]);
    assert_eq!(
        usize::from(MATCHED[m]),
        bits(&[(0, 0), (1, 1), (1, 2), (2, 1), (2, 2)])
    );
    // Rows 0 and 1 only in box 0: no cover.
    assert_eq!(usize::from(MATCHED[bits(&[(0, 0), (1, 0), (2, 1)])]), 0);
    // A row placed already (none left): rows 1 and 2 against two boxes.
    let m = bits(&[(1, 1), (1, 2), (2, 2)]);
    assert_eq!(usize::from(MATCHED[m]), bits(&[(1, 1), (2, 2)]));
    // Puzzles of one solution: the same answer either way, from fewer
    // commits when stripping.
    let (mut stripped, mut plain) = (0, 0);
    let mut grids = puzzles_of("9x9.txt");
    grids.extend(puzzles_of("17-clue-sample.txt"));
    grids.extend(puzzles_of("forum-hardest-sample.txt"));
    for grid in grids {
        let a = bands::solve(&grid, 2, &mut Leaning::default()).unwrap();
        let b = bands::solve(&grid, 2, &mut Leaning::plain_first()).unwrap();
        assert_eq!((a.count, &a.grids), (1, &b.grids), "{grid:?}");
        stripped += a.nodes;
        plain += b.nodes;
    }
    assert!(5 * stripped < 4 * plain, "{stripped} {plain}");
    // The stripping search branches on the cell of two options with the
    // most others in its row, column and box, the first on ties.
    let cells = |cells: &[usize]| {
        let mut pairs = [0u32; 3];
        for &i in cells {
            pairs[i / 27] |= 1 << (i % 27);
        }
        pairs
    };
    assert_eq!(bands::busiest(&cells(&[])), None);
    assert_eq!(bands::busiest(&cells(&[80])), Some(80));
    // Cells 0 and 1 share a row and a box: the first.
    assert_eq!(bands::busiest(&cells(&[0, 1, 80])), Some(0));
    // r5c5 shares its row, column and box with the others.
    assert_eq!(bands::busiest(&cells(&[0, 10, 40, 41, 49])), Some(40));
    // A square of four in a box, all alike: the first; then in the last
    // band, beside one on its own.
    assert_eq!(bands::busiest(&cells(&[10, 0, 9, 1])), Some(0));
    assert_eq!(bands::busiest(&cells(&[0, 60, 61, 69, 70])), Some(60));
    // Two puzzles with several solutions in a row turn a solver to the
    // plain search first; one with a single solution turns it back.
    let mut leaning = Leaning::default();
    for (solutions, several) in [(2, false), (5, true), (1, false), (0, false), (3, false)] {
        leaning.note(solutions);
        assert_eq!(leaning.several(), several, "{solutions}");
    }
    // Each answer counts once, whichever searches ran for it.
    // The givens of a puzzle's first three rows: several solutions.
    let grid = first_rows(&puzzles_of("9x9.txt")[0], 3);
    let mut leaning = Leaning::default();
    let a = bands::solve(&grid, 2, &mut leaning).unwrap();
    assert_eq!(a.count, 2);
    assert!(!leaning.several());
    bands::solve(&grid, 2, &mut leaning).unwrap();
    assert!(leaning.several());
}

#[test]
fn a_first_solution_is_the_plain_orders_whichever_search_runs() {
    use bands::Leaning;
    // Puzzles of one solution, easy and hard (some past the stripping
    // search's budget), of several (the first three rows of each 9x9
    // puzzle's givens) and of none (r1c9 can only be 9, which column 9
    // holds).
    let mut grids = puzzles_of("9x9.txt");
    let several: Vec<Grid> = grids.iter().map(|puzzle| first_rows(puzzle, 3)).collect();
    grids.extend(puzzles_of("17-clue-sample.txt"));
    grids.extend(puzzles_of("forum-hardest-sample.txt"));
    let mut none = Grid::empty(grids[0].shape());
    for c in 0..8 {
        none.set(0, c, c as u8 + 1);
    }
    none.set(4, 8, 9);
    grids.push(none);
    // In turns, so that the leaning moves both ways; every grid twice.
    let mut mixed = Vec::new();
    for (k, grid) in grids.iter().enumerate() {
        mixed.push(grid);
        if let Some(g) = several.get(k % several.len()).filter(|_| k % 3 == 0) {
            mixed.extend([g, g, g]);
        }
    }
    let (mut counts, mut past_budget) = ([0; 3], 0);
    let mut leaning = Leaning::default();
    for _ in 0..2 {
        for grid in &mixed {
            let plain = bands::solve(grid, 1, &mut Leaning::plain_first()).unwrap();
            let found = bands::solve(grid, 1, &mut leaning).unwrap();
            assert_eq!(
                (found.count, &found.grids),
                (plain.count, &plain.grids),
                "{grid:?}"
            );
            // The stripping search first, whatever came before.
            let fresh = bands::solve(grid, 1, &mut Leaning::default()).unwrap();
            assert_eq!(
                (fresh.count, &fresh.grids),
                (plain.count, &plain.grids),
                "{grid:?}"
            );
            let several = bands::solve(grid, 2, &mut Leaning::default())
                .unwrap()
                .count;
            counts[several as usize] += 1;
            // Both searches ran: the stripping one went past its budget.
            past_budget += usize::from(several == 1 && fresh.nodes > plain.nodes);
        }
    }
    assert!(counts.iter().all(|&n| n > 0), "{counts:?}");
    assert!(past_budget > 0);
    // Leaning to the plain search, a solver asked for first solutions
    // tries the stripping search on every 64th puzzle; each try that
    // fails doubles the interval, up to 1,024, and one that succeeds
    // resets it.
    let mut leaning = Leaning::default();
    leaning.note(2);
    leaning.note(2);
    let mut tries = Vec::new();
    for k in 0..4000 {
        if leaning.strip_first() {
            tries.push(k);
            leaning.note(2);
        }
    }
    assert_eq!(tries, [63, 191, 447, 959, 1983, 3007]);
    leaning = Leaning::plain_first();
    let tries: Vec<usize> = (0..64).filter(|_| leaning.strip_first()).collect();
    assert_eq!(tries, [63]);
    leaning.note(2);
    assert!(!(0..127).any(|_| leaning.strip_first()));
    assert!(leaning.strip_first());
    leaning.note(1);
    let tries: Vec<usize> = (0..64).filter(|_| leaning.strip_first()).collect();
    assert_eq!(tries, [63]);
    leaning.note(1);
    assert!(leaning.strip_first());
}
