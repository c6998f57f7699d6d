//! A sudoku as the whole exact-cover matrix, for writing in Knuth's DLX
//! format: every cell and every unit keep their items, givens included
//! (324 primary items for 9x9, 1024 for 16x16), unlike
//! [`super::encode_with`], which leaves out what the givens settle.
//!
//! # Items and options
//!
//! - `r{i}c{j}` for every cell, row-major (rows and columns from 1);
//! - `r{i}={v}`, `c{j}={v}`, `b{k}={v}` for every row, column and box (or
//!   jigsaw region) and every value; under [`Rules::diagonals`] also
//!   `d1={v}` (the diagonal from r1c1) and `d2={v}` (from r1cn).
//!
//! A cell with a given has the one option placing it; an empty cell has an
//! option for every value that no given of its units holds. Each option is
//! `r{i}c{j} r{i}={v} c{j}={v} b{k}={v}` (and its diagonals). The exact
//! covers are the puzzle's solutions, one for one.
//!
//! ```
//! use exactly_puzzles::sudoku::{knuth, Grid, Rules, Shape};
//! let problem = knuth::encode_full(&Grid::empty(Shape::new(2, 2)?), &Rules::default())?;
//! assert_eq!((problem.num_primary(), problem.num_options()), (64, 64));
//! assert_eq!(exactly::Solver::new(&problem).count().solutions, 288);
//! # Ok::<(), exactly_puzzles::sudoku::SudokuError>(())
//! ```

use exactly::{ColorId, Problem, ProblemBuilder};

use super::logic;
use super::{Grid, Placement, Rules, SudokuError};

/// The whole matrix of `puzzle` under `rules` (see the module docs). Fails
/// when the givens clash or the regions are for another side.
pub fn encode_full(puzzle: &Grid, rules: &Rules) -> Result<Problem<Placement>, SudokuError> {
    let shape = puzzle.shape();
    let n = shape.size();
    if let Some(c) = puzzle.clash_with(rules) {
        return Err(SudokuError::Clash {
            first: logic::cell_name(c.first.0, c.first.1),
            second: logic::cell_name(c.second.0, c.second.1),
            symbol: c.value.to_string(),
        });
    }
    let units = logic::unit_cells(shape, rules)?;
    let mut cell_units = vec![Vec::new(); n * n];
    for (u, cells) in units.iter().enumerate() {
        for &c in cells {
            cell_units[c].push(u);
        }
    }
    // Values held by a given in each unit.
    let mut held = vec![0u64; units.len()];
    for (c, &v) in puzzle.cells().iter().enumerate() {
        if v != 0 {
            for &u in &cell_units[c] {
                held[u] |= 1 << (v - 1);
            }
        }
    }
    let mut b = ProblemBuilder::new();
    let mut cell_item = Vec::with_capacity(n * n);
    for c in 0..n * n {
        cell_item.push(b.primary(&logic::cell_name(c / n, c % n))?);
    }
    let mut unit_item = Vec::with_capacity(units.len() * n);
    for u in 0..units.len() {
        let name = match u / n {
            0 => format!("r{}", u + 1),
            1 => format!("c{}", u - n + 1),
            2 => format!("b{}", u - 2 * n + 1),
            _ => format!("d{}", u - 3 * n + 1),
        };
        for v in 1..=n {
            unit_item.push(b.primary(&format!("{name}={v}"))?);
        }
    }
    for c in 0..n * n {
        let given = puzzle.cells()[c];
        let excluded = cell_units[c].iter().fold(0u64, |m, &u| m | held[u]);
        for v in 1..=n {
            let allowed = if given != 0 {
                usize::from(given) == v
            } else {
                excluded & (1 << (v - 1)) == 0
            };
            if !allowed {
                continue;
            }
            let entries = std::iter::once(cell_item[c])
                .chain(cell_units[c].iter().map(|&u| unit_item[u * n + v - 1]))
                .map(|i| (i, ColorId::NONE));
            b.add_option(
                Placement {
                    row: (c / n) as u8,
                    col: (c % n) as u8,
                    value: v as u8,
                },
                entries,
            )?;
        }
    }
    Ok(b.build()?)
}
