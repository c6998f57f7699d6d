//! Solves a file of sudokus of one size, one thread, with the sudoku front
//! end of `exactly`, with the exact-cover crates `dlx` and `xcov` given the
//! same reduced encoding, and (9x9 only) with the `sudoku` crate; prints puzzles per second for the
//! first solution and for the uniqueness check (up to 2 solutions), and the
//! ratios. `exactly`'s time starts from a new template each run, so it
//! includes encoding the first puzzles on their own and then the empty grid
//! once. The solvers take turns, run by run.
//!
//! ```text
//! cargo run --release --bin sudoku -- [--runs N] [FILE]
//! ```
//!
//! FILE defaults to `../shared/data/sudoku9/top95.txt` beside the
//! repository. Every solver's answers are checked against `exactly`'s.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use exactly_puzzles::sudoku::{self, Grid, Rules, Shape, Verdict};

const USAGE: &str = "usage: sudoku [--runs N] [FILE]";

/// What one solver answers for one puzzle: the number of solutions found
/// (at most the number asked for) and the first one.
type Answer = (u64, Option<Vec<u8>>);

/// The reduced encoding of the open part of a grid as integers: items
/// numbered from 0 in the order `sudoku::encode` declares them, and each
/// option's items and its (cell, value).
struct Reduced {
    num_items: usize,
    options: Vec<Vec<u32>>,
    placements: Vec<(usize, u8)>,
    /// Per item: its cell (cell items) or its value (unit items).
    of_item: Vec<usize>,
}

/// The same items and options as `sudoku::encode`, written independently.
fn reduce(cells: &[u8], shape: Shape) -> Reduced {
    let n = shape.size();
    let (br, bc) = (shape.box_rows(), shape.box_cols());
    let box_of = |r: usize, c: usize| (r / br) * br + c / bc;
    let mut used = vec![0u64; 3 * n];
    for (i, &v) in cells.iter().enumerate() {
        if v != 0 {
            let bit = 1 << (v - 1);
            used[i / n] |= bit;
            used[n + i % n] |= bit;
            used[2 * n + box_of(i / n, i % n)] |= bit;
        }
    }
    let mut next = 0u32;
    let mut of_item = Vec::new();
    let mut cell_item = vec![u32::MAX; n * n];
    for (i, slot) in cell_item.iter_mut().enumerate() {
        if cells[i] == 0 {
            *slot = next;
            next += 1;
            of_item.push(i);
        }
    }
    let mut unit_item = vec![u32::MAX; 3 * n * n];
    for (u, &mask) in used.iter().enumerate() {
        for v in 0..n {
            if mask & (1 << v) == 0 {
                unit_item[u * n + v] = next;
                next += 1;
                of_item.push(v + 1);
            }
        }
    }
    let mut options = Vec::new();
    let mut placements = Vec::new();
    for i in 0..n * n {
        if cells[i] != 0 {
            continue;
        }
        let (r, c) = (i / n, i % n);
        let b = box_of(r, c);
        let excluded = used[r] | used[n + c] | used[2 * n + b];
        for v in 0..n {
            if excluded & (1 << v) == 0 {
                options.push(vec![
                    cell_item[i],
                    unit_item[r * n + v],
                    unit_item[(n + c) * n + v],
                    unit_item[(2 * n + b) * n + v],
                ]);
                placements.push((i, v as u8 + 1));
            }
        }
    }
    Reduced {
        num_items: next as usize,
        options,
        placements,
        of_item,
    }
}

fn with_exactly(solver: &mut sudoku::TemplateSolver<'_>, grid: &Grid, max: u64) -> Answer {
    let answer = solver.solve(grid, max).expect("the puzzle is valid");
    (answer.count, answer.solution.map(|g| g.cells().to_vec()))
}

fn with_dlx(cells: &[u8], shape: Shape, max: u64) -> Answer {
    use dlx::choose::{mrv_chooser, no_tiebreak, prefer_any};
    use dlx::{OptOrder, Solver, Uint};
    let reduced = reduce(cells, shape);
    if reduced.options.is_empty() {
        // dlx asserts that there is at least one option.
        return (u64::from(reduced.num_items == 0), Some(cells.to_vec()));
    }
    let os: Vec<Vec<Uint>> = reduced
        .options
        .iter()
        .map(|o| o.iter().map(|&i| i as Uint).collect())
        .collect();
    let mut problem = dlx::x::make_problem(reduced.num_items as Uint, 0, &os, OptOrder::Seq);
    let mut solver = Solver::new(&mut problem);
    let mut chooser = mrv_chooser(prefer_any(), no_tiebreak());
    let mut count = 0;
    let mut first = None;
    while count < max && solver.next_solution(&mut chooser) {
        count += 1;
        if first.is_none() {
            let mut grid = cells.to_vec();
            for &o in solver.fmt_solution() {
                let (i, v) = reduced.placements[o as usize];
                grid[i] = v;
            }
            first = Some(grid);
        }
    }
    (count, first)
}

fn with_xcov(cells: &[u8], shape: Shape, max: u64) -> Answer {
    use xcov::{DlxBuilder, ExactCoverProblem, MrvExactCoverSearch};
    let reduced = reduce(cells, shape);
    if reduced.options.is_empty() {
        return (u64::from(reduced.num_items == 0), Some(cells.to_vec()));
    }
    let mut builder = DlxBuilder::new(reduced.num_items, 0);
    let mut items = Vec::with_capacity(4);
    for option in &reduced.options {
        items.clear();
        // Items from 1; the cell's item is the smallest, a row's next.
        items.extend(option.iter().map(|&i| i as usize + 1));
        builder.add_option(&items);
    }
    let mut search = MrvExactCoverSearch::new(builder.build());
    let mut count = 0;
    let mut first = None;
    while count < max && search.search() {
        count += 1;
        if first.is_none() {
            let mut grid = cells.to_vec();
            for option in search.current_solution().into_iter().flatten() {
                let cell = reduced.of_item[option[0] - 1];
                grid[cell] = reduced.of_item[option[1] - 1] as u8;
            }
            first = Some(grid);
        }
    }
    (count, first)
}

fn with_sudoku_crate(cells: &[u8], max: u64) -> Answer {
    let s = ::sudoku::Sudoku::from_bytes_slice(cells).expect("81 cells");
    if max == 1 {
        let first = s.some_solution().map(|s| s.to_bytes().to_vec());
        (u64::from(first.is_some()), first)
    } else {
        let all = s.solutions_up_to(max as usize);
        let first = all.first().map(|s| s.to_bytes().to_vec());
        (all.len() as u64, first)
    }
}

/// The best of `runs` timings of each solver solving every puzzle, and the
/// answers of its last run. The solvers take turns, run by run, so that a
/// slow spell of a shared machine falls on all of them alike.
fn time(
    runs: usize,
    solvers: &mut [&mut dyn FnMut() -> Vec<Answer>],
) -> Vec<(Duration, Vec<Answer>)> {
    let mut results = vec![(Duration::MAX, Vec::new()); solvers.len()];
    for _ in 0..runs {
        for (solve_all, (best, answers)) in solvers.iter_mut().zip(&mut results) {
            let start = Instant::now();
            *answers = solve_all();
            *best = (*best).min(start.elapsed());
        }
    }
    results
}

fn main() -> ExitCode {
    let mut runs = 3;
    let mut file =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/sudoku9/top95.txt");
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => match exactly_bench::runs_arg(&mut args, USAGE) {
                Ok(n) => runs = n,
                Err(code) => return code,
            },
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ => file = PathBuf::from(arg),
        }
    }
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("sudoku: cannot read {}: {e}", file.display());
            return ExitCode::from(2);
        }
    };
    let mut grids = Vec::new();
    for record in sudoku::parse(&text, None) {
        match record.puzzle {
            Ok(p)
                if grids
                    .first()
                    .is_none_or(|g: &Grid| g.shape() == p.grid.shape()) =>
            {
                grids.push(p.grid)
            }
            Ok(_) => eprintln!("sudoku: line {}: another grid size, skipped", record.line),
            Err(e) => eprintln!("sudoku: {}: {e}, skipped", record.line),
        }
    }
    let Some(shape) = grids.first().map(Grid::shape) else {
        eprintln!("sudoku: no puzzles in {}", file.display());
        return ExitCode::from(2);
    };
    println!(
        "{}: {} puzzles of {}x{}, best of {runs} runs, one thread",
        file.display(),
        grids.len(),
        shape.size(),
        shape.size()
    );
    println!(
        "{:<12} {:>14} {:>14} {:>14} {:>14} {:>8} {:>8} {:>8}",
        "measure", "exactly", "dlx", "xcov", "sudoku", "x/dlx", "x/xcov", "x/sudoku"
    );
    let mut ok = true;
    let checker_template =
        sudoku::Template::new(shape, &Rules::default()).expect("the empty grid encodes");
    let mut checker = checker_template.solver();
    for (name, max) in [("first", 1u64), ("unique", 2)] {
        // The template (the empty grid's encoding) is built once per run,
        // inside the timing.
        let mut exactly = || {
            let template =
                sudoku::Template::new(shape, &Rules::default()).expect("the empty grid encodes");
            let mut solver = template.solver();
            grids
                .iter()
                .map(|g| with_exactly(&mut solver, g, max))
                .collect()
        };
        let mut dlx = || {
            grids
                .iter()
                .map(|g| with_dlx(g.cells(), shape, max))
                .collect()
        };
        let mut xcov = || {
            grids
                .iter()
                .map(|g| with_xcov(g.cells(), shape, max))
                .collect()
        };
        // The `sudoku` crate solves 9x9 grids only.
        let nine = shape.size() == 9;
        let mut bitboard = || {
            grids
                .iter()
                .map(|g| with_sudoku_crate(g.cells(), max))
                .collect()
        };
        let mut solvers: Vec<&mut dyn FnMut() -> Vec<Answer>> =
            vec![&mut exactly, &mut dlx, &mut xcov];
        if nine {
            solvers.push(&mut bitboard);
        }
        let mut timed = time(runs, &mut solvers).into_iter();
        let (t_x, a_x) = timed.next().expect("exactly was timed");
        let (t_d, a_d) = timed.next().expect("dlx was timed");
        let (t_c, a_c) = timed.next().expect("xcov was timed");
        let (t_s, a_s) = timed.next().unwrap_or((Duration::MAX, Vec::new()));
        for (i, grid) in grids.iter().enumerate() {
            let (count, first) = &a_x[i];
            let verdict = checker.solve(grid, max).map(|a| a.verdict);
            let unique = matches!(verdict, Ok(Verdict::Unique));
            let peers = if nine {
                &[("dlx", &a_d), ("xcov", &a_c), ("sudoku", &a_s)][..]
            } else {
                &[("dlx", &a_d), ("xcov", &a_c)][..]
            };
            for &(peer, answers) in peers {
                let (c, f) = &answers[i];
                // Only a unique solution must be the same grid.
                if c != count || (unique && f != first) {
                    eprintln!(
                        "{name}: puzzle {} differs: exactly {count}, {peer} {c}",
                        i + 1
                    );
                    ok = false;
                }
            }
        }
        let rate = |t: Duration| grids.len() as f64 / t.as_secs_f64();
        // Puzzles per second, with decimals below 10.
        let shown = |r: f64| {
            let digits = if r < 10.0 { 3 } else { 0 };
            format!("{:>12.*}/s", digits, r)
        };
        let (r_x, r_d, r_c) = (rate(t_x), rate(t_d), rate(t_c));
        let (peer, ratio) = if nine {
            let r_s = rate(t_s);
            (shown(r_s), format!("{:>7.2}x", r_x / r_s))
        } else {
            (format!("{:>14}", "-"), format!("{:>8}", "-"))
        };
        println!(
            "{:<12} {} {} {} {peer} {:>7.2}x {:>7.2}x {ratio}",
            name,
            shown(r_x),
            shown(r_d),
            shown(r_c),
            r_x / r_d,
            r_x / r_c,
        );
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
