//! *Bands*: the 9×9 sudoku exact cover on word-sized bitboards.
//!
//! The problem is [`encode`](fn@super::encode)'s for the classic 9×9 grid
//! under the plain rules: primary items `r{i}c{j}`, then `r{i}={v}`,
//! `c{j}={v}` and `b{k}={v}`, and an option per cell and value. What a
//! general structure keeps item by item is kept here per value and *band*
//! (three rows of cells): bit `9·(row mod 3) + col` of `cand[band][v]` is
//! set while the option placing value `v + 1` in that cell is open.
//! Committing an option is a dozen word operations, and the options left
//! to an item are read off masks: a cell's by a bitwise count over the
//! nine values, a row's or a box's value by one mask within a band, a
//! column's value by a count over its nine rows.
//!
//! The search is the general solver's with forced moves first: an item
//! left with one option is forced, an item with none is a dead end, and
//! once none is left the search branches on the first item (in the order
//! above) with the fewest options, trying them in declaration order. The
//! state where it branches is the same whatever the order forced moves
//! were taken in, so it branches where and as the general solver does and
//! finds the same solutions in the same order. Only the count of nodes
//! differs: here a node is an option committed after the givens, forced
//! or tried. The givens are placed all at once, a few masks per value,
//! where committing them one by one on the general structure's item
//! masks cost the most on easy puzzles.
//!
//! A uniqueness check (two solutions or more asked for) first runs the
//! search *stripping* too ([`State::strip`]): between forced moves, it
//! removes the options that no exact cover of a band's rows and boxes, or a
//! stack's columns and boxes, can hold. That loses no solution and shrinks
//! the search (by half on top1465), but it branches elsewhere, so it finds
//! the solutions in another order. Free of the general solver's order, it
//! also branches by a rule of its own: on the cell of two options with the
//! most such cells in its row, column and box ([`busiest`]), which shrinks
//! its tree by another quarter on top1465. Its answer stands when it finds
//! at most one; when it finds more, the plain search runs again for the
//! first ones in the general solver's order. A solver that has just met
//! puzzles with several solutions runs the plain search first
//! ([`Leaning`]).
//!
//! A search for the first solution runs the stripping search first too,
//! within a budget of nodes ([`STRIP_FIRST_NODES`]): when it finishes with
//! one solution at most, that one is the plain order's first, found
//! sooner on most puzzles; otherwise the plain search runs. A solver
//! that has just met puzzles with several solutions, or past the budget,
//! runs the plain search alone, and tries the stripping search on one
//! puzzle in 64 (in up to 1,024 while such tries fail).

use exactly::Limits;

use super::grid::UNITS_9;
use super::{Grid, Rules, Shape};

/// Cells of a band: three rows of nine, nine bits each.
const ROW: [u32; 3] = [0o777, 0o777 << 9, 0o777 << 18];
/// The cells of each of a band's three boxes.
const BOX: [u32; 3] = [0o7007007, 0o7007007 << 3, 0o7007007 << 6];
/// Every cell of a band.
const ALL: u32 = (1 << 27) - 1;
/// Bits of [`State::need`]: rows 0–8, then columns from `COLS`, then
/// boxes from `BOXES`; `UNITS` has all 27.
const COLS: u32 = 9;
const BOXES: u32 = 18;
const UNITS: u32 = (1 << 27) - 1;

/// `THIRDS[s]`: for nine cells `s` of a row (or nine columns of a band),
/// the thirds holding any, bit `k` for cells `3k` to `3k + 2`.
const THIRDS: [u8; 512] = {
    let mut t = [0; 512];
    let mut s = 0;
    while s < 512 {
        t[s] = (s & 7 != 0) as u8 | ((s >> 3 & 7 != 0) as u8) << 1 | ((s >> 6 != 0) as u8) << 2;
        s += 1;
    }
    t
};

/// `POPULATION[s]`: the bits of `s`, nine of them.
const POPULATION: [u8; 512] = {
    let mut t = [0; 512];
    let mut s = 0;
    while s < 512 {
        t[s] = (s as u32).count_ones() as u8;
        s += 1;
    }
    t
};

/// The bits of `s`, which has nine.
#[inline(always)]
pub(super) fn pop9(s: u32) -> u32 {
    u32::from(POPULATION[s as usize])
}

/// `SPREAD[s]`: the nine bits of `s`, four bits apart (bit `k` of `s` at
/// bit `4k`), so that sums of up to 15 keep a count per bit.
const SPREAD: [u64; 512] = {
    let mut t = [0; 512];
    let mut s = 0;
    while s < 512 {
        let mut k = 0;
        while k < 9 {
            t[s] |= ((s >> k & 1) as u64) << (4 * k);
            k += 1;
        }
        s += 1;
    }
    t
};

/// `MATCHED[m]`: for a 3×3 matrix `m` of bits (bit `3r + k` for row `r`,
/// column `k`), the bits on some perfect matching of its rows holding any
/// bit with its columns holding any; 0 when there is none.
pub(super) const MATCHED: [u16; 512] = {
    const PERMUTATIONS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0; 512];
    let mut m = 0;
    while m < 512 {
        let rows = THIRDS[m];
        let cols = (m | m >> 3 | m >> 6) & 7;
        let mut p = 0;
        while p < 6 {
            // Row r to column PERMUTATIONS[p][r], for the rows holding any.
            let (mut bits, mut image, mut r) = (0u16, 0, 0);
            while r < 3 {
                if rows >> r & 1 != 0 {
                    bits |= 1 << (3 * r + PERMUTATIONS[p][r]);
                    image |= 1 << PERMUTATIONS[p][r];
                }
                r += 1;
            }
            if bits as usize & m == bits as usize && image == cols {
                t[m] |= bits;
            }
            p += 1;
        }
        m += 1;
    }
    t
};

/// The row segments of a band's cells `c` that hold any: the 3×3 matrix
/// `m` (bit `3r + k` for row `r` in box `k`, as [`MATCHED`] takes it),
/// then its rows and its boxes holding any (bit `r`, bit `k`).
#[inline(always)]
fn segments(c: u32) -> (usize, u32, u32) {
    let m = usize::from(THIRDS[(c & 0o777) as usize])
        | usize::from(THIRDS[(c >> 9 & 0o777) as usize]) << 3
        | usize::from(THIRDS[(c >> 18) as usize]) << 6;
    (m, u32::from(THIRDS[m]), (m | m >> 3 | m >> 6) as u32 & 7)
}

/// A cell's place: its band, its bit there, its three units (bits as in
/// [`State::need`]) and its peers, by band (the cells sharing a unit
/// with it).
struct Place {
    band: u32,
    at: u32,
    units: u32,
    peers: [u32; 3],
}

/// `PLACES[i]`: the place of cell `i`.
/// PERF: read from a table where working it out in each commit ran 15%
/// more instructions (the first 300 top1465 puzzles with `--first`, in
/// process: 106.1 million against 90.5).
const PLACES: [Place; 81] = {
    const EMPTY: Place = Place {
        band: 0,
        at: 0,
        units: 0,
        peers: [0; 3],
    };
    let mut t = [EMPTY; 81];
    let mut i = 0;
    while i < 81 {
        let (band, row, col) = (i / 27, i / 9, i % 9);
        let mut peers = [0o1001001 << col; 3];
        peers[band] = ROW[row % 3] | BOX[col / 3];
        // The grid's table numbers units as `need` does (checked below).
        let [r, c, b] = UNITS_9[i];
        t[i] = Place {
            band: band as u32,
            at: (i % 27) as u32,
            units: 1 << r | 1 << c | 1 << b,
            peers,
        };
        i += 1;
    }
    t
};

const _: () = assert!(
    UNITS_9[80][0] == 8 && UNITS_9[80][1] as u32 == COLS + 8 && UNITS_9[80][2] as u32 == BOXES + 8
);

/// `UNIT_CELLS[u]` for row `u` (0–8) or box `u - BOXES` (`u` from
/// [`BOXES`], bits as in [`State::need`]): its band, and its cells there
/// (the columns' entries are unused).
/// PERF: read from a table where working out `r / 3` and `r % 3` ran 3%
/// more instructions (the first 300 top1465 puzzles with `--first`, in
/// process: 109.9 million against 106.1).
const UNIT_CELLS: [(usize, u32); 27] = {
    let mut t = [(0, 0); 27];
    let mut u = 0;
    while u < 9 {
        t[u] = (u / 3, ROW[u % 3]);
        t[BOXES as usize + u] = (u / 3, BOX[u % 3]);
        u += 1;
    }
    t
};

/// `SPAN[s]`: the cells of a band in the rows of `s` (bit `r` for row
/// `r`), then those in its boxes (bit `k` for box `k`).
const SPAN: [(u32, u32); 8] = {
    let mut t = [(0, 0); 8];
    let mut s = 0;
    while s < 8 {
        let mut k = 0;
        while k < 3 {
            if s >> k & 1 != 0 {
                t[s].0 |= ROW[k];
                t[s].1 |= BOX[k];
            }
            k += 1;
        }
        s += 1;
    }
    t
};

/// `SEGMENTS[m]`: the cells of a band in the row segments of `m` (bit
/// `3r + k` for the three cells of row `r` in box `k`).
const SEGMENTS: [u32; 512] = {
    let mut t = [0; 512];
    let mut m = 0;
    while m < 512 {
        let mut b = 0;
        while b < 9 {
            if m >> b & 1 != 0 {
                t[m] |= 7 << (9 * (b / 3) + 3 * (b % 3));
            }
            b += 1;
        }
        m += 1;
    }
    t
};

/// The state of the search.
#[derive(Clone, Copy)]
struct State {
    /// `cand[band][v]`: the open cells of `band` where value `v + 1` may
    /// still go. PERF: by band, then value, so that a commit clears a
    /// cell from the nine values' words side by side (vector operations
    /// where the target has them): 6–7% fewer instructions in the
    /// stripping search than by value, then band, and 1% more in the
    /// plain one.
    cand: [[u32; 9]; 3],
    /// The open cells of each band.
    open: [u32; 3],
    /// `need[v]`: the units still lacking value `v + 1`, whose items are
    /// uncovered: bit `r` for row `r`, [`COLS`]` + c` for column `c`,
    /// [`BOXES`]` + b` for box `b`.
    need: [u32; 9],
    /// `touched[v]`: the units that may have lost cells for value `v + 1`
    /// since [`State::settle`] last looked (bits as in `need`).
    touched: [u32; 9],
    /// The open cells of each band that lost an option since then.
    hit: [u32; 3],
    /// Bit `v`: value `v + 1` lost cells since [`State::strip`] last
    /// looked (noted by [`State::settle`] as it takes `touched`, in the
    /// stripping search only).
    changed: u32,
}

/// The grid's values by cell, 1–9, 0 for a cell still open.
type Values = [u8; 81];

/// What a search found: the solutions (counted up to the most asked for),
/// the first two, and the nodes.
pub(super) struct Found {
    pub count: u64,
    pub grids: [Option<Grid>; 2],
    pub nodes: u64,
}

/// Whether the band search takes puzzles of `shape` under `rules` within
/// `limits`: the 9×9 grid with 3×3 boxes under the plain rules, without a
/// budget (a node budget counts the general solver's nodes, and the band
/// search polls no clock or cancel flag).
pub(super) fn takes(shape: Shape, rules: &Rules, limits: &Limits) -> bool {
    super::grid::classic(shape, rules)
        && limits.nodes.is_none()
        && limits.time.is_none()
        && limits.cancel.is_none()
}

/// Searches `puzzle` (a grid [`takes`] takes) for up to `max_solutions`
/// solutions (at least 1). `None` when two givens share an item (a row,
/// column or box holds a value twice): the caller names the clash.
/// `leaning` picks the search a uniqueness check runs first and notes the
/// answer.
pub(super) fn solve(puzzle: &Grid, max_solutions: u64, leaning: &mut Leaning) -> Option<Found> {
    debug_assert!(takes(puzzle.shape, &Rules::default(), &Limits::default()));
    let mut grid = [0; 81];
    let state = State::with_givens(&puzzle.cells, &mut grid)?;
    let search = |strip, max: u64, limit| {
        let mut search = Search {
            max,
            found: Found {
                count: 0,
                grids: [None, None],
                nodes: 0,
            },
            shape: puzzle.shape,
            grid,
            limit,
            stopped: false,
        };
        if strip {
            search.run::<true>(state);
        } else {
            search.run::<false>(state);
        }
        (search.found, search.stopped)
    };
    // A first solution: the stripping search within a budget, when the
    // leaning allows; a uniqueness check: the stripping search in full,
    // unless the solver leans to the plain one.
    let first = max_solutions < 2;
    let (try_strip, limit) = if first {
        (leaning.strip_first(), STRIP_FIRST_NODES)
    } else {
        (!leaning.several(), u64::MAX)
    };
    let mut nodes = 0;
    if try_strip {
        // Its answer stands when it shows the puzzle has one solution at
        // most: that one is the plain order's first.
        let (stripped, stopped) = search(true, max_solutions.max(2), limit);
        if !stopped && stripped.count <= 1 {
            leaning.note(stripped.count);
            return Some(stripped);
        }
        // Several solutions, or too long a search to prove one.
        if first {
            leaning.note(2);
        }
        nodes = stripped.nodes;
    }
    let (mut found, _) = search(false, max_solutions.max(1), u64::MAX);
    if !first {
        leaning.note(found.count);
    }
    found.nodes += nodes;
    Some(found)
}

/// The most nodes the stripping search spends on a puzzle asked for its
/// first solution before the plain search takes over (see
/// [`Leaning::strip_first`]). On the forum's hardest puzzles the
/// stripping search, which must finish to prove a solution unique, takes
/// more nodes than the plain one takes to its first solution (2,060
/// against 1,424 a puzzle on forum_hardest_1905_11+); within this budget
/// are 99.9% of the 17-clue puzzles' stripping searches, 99% of top1465's,
/// and 6% of forum_hardest_1905_11+'s.
const STRIP_FIRST_NODES: u64 = 1000;

/// Which search a solver tries first: a two-bit counter of the puzzles it
/// met lately with several solutions (or, asked for a first solution, that
/// the stripping search could not settle within [`STRIP_FIRST_NODES`]).
/// Puzzles with one solution, or none, leave it at 0 or 1 (the stripping
/// search first); two of the others in a row take it to 2 or 3 (the plain
/// search first). Either way the answers are the same; only the time
/// differs.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Leaning {
    count: u8,
    /// Puzzles asked for a first solution while leaning to the plain
    /// search: one in [`Leaning::PROBE`] tries the stripping search again,
    /// the only way back to it (the plain search, stopping at the first
    /// solution, cannot tell whether there are more).
    skipped: u16,
    /// Each such try that fails doubles the interval, up to
    /// `PROBE << MOST_DOUBLINGS`; one that succeeds resets it. This is a
    /// shift of `PROBE`.
    doublings: u8,
    /// Whether the search now running is such a try.
    probing: bool,
}

impl Leaning {
    /// See [`Leaning::skipped`].
    const PROBE: u16 = 64;
    /// See [`Leaning::doublings`]: one puzzle in 1,024 at most.
    const MOST_DOUBLINGS: u8 = 4;

    /// A leaning to the plain search, as after puzzles with several
    /// solutions.
    #[cfg(test)]
    pub(super) fn plain_first() -> Leaning {
        Leaning {
            count: 3,
            ..Leaning::default()
        }
    }

    /// Whether the plain search runs first on a uniqueness check.
    pub(super) fn several(self) -> bool {
        self.count >= 2
    }

    /// Whether the stripping search runs first for a first solution.
    pub(super) fn strip_first(&mut self) -> bool {
        self.probing = false;
        if !self.several() {
            return true;
        }
        self.skipped += 1;
        if self.skipped < Self::PROBE << self.doublings {
            return false;
        }
        self.skipped = 0;
        self.probing = true;
        true
    }

    /// Notes a puzzle's count of solutions.
    pub(super) fn note(&mut self, solutions: u64) {
        if solutions >= 2 {
            self.count = (self.count + 1).min(3);
            if self.probing {
                self.doublings = (self.doublings + 1).min(Self::MOST_DOUBLINGS);
            }
        } else {
            self.count = self.count.saturating_sub(1);
            self.doublings = 0;
        }
        self.probing = false;
    }
}

impl State {
    /// The state once the givens `cells` (values 0–9, 0 for an open
    /// cell, 81 of them) are placed, all at once: the same as committing
    /// them one by one, with every unit and open cell noted for
    /// [`State::settle`]. `None` when two givens share an item.
    /// PERF: per value a few masks, where a commit per given cost the most
    /// on puzzles with many givens.
    fn with_givens(cells: &[u8], grid: &mut Values) -> Option<State> {
        // Per value, its givens' cells by band.
        let mut given = [[0u32; 3]; 9];
        let mut open = [ALL; 3];
        for ((band, cells), (out, open)) in cells
            .chunks_exact(27)
            .enumerate()
            .zip(grid.chunks_exact_mut(27).zip(&mut open))
        {
            for (k, (&v, out)) in cells.iter().zip(out).enumerate() {
                if let Some(g) = usize::from(v).checked_sub(1).and_then(|v| given.get_mut(v)) {
                    g[band] |= 1 << k;
                    *open &= !(1 << k);
                    *out = v;
                }
            }
        }
        let mut state = State {
            cand: [[0; 9]; 3],
            open,
            need: [UNITS; 9],
            touched: [!0; 9],
            hit: open,
            changed: 0o777,
        };
        for (v, (g, need)) in given.iter().zip(&mut state.need).enumerate() {
            // The rows, boxes and columns holding the value, and how many
            // of its givens there are: two in one unit leave fewer units.
            let (mut rows, mut boxes, mut cols, mut count) = (0u32, 0u32, 0u32, 0);
            for (band, &g) in g.iter().enumerate() {
                let (_, r, b) = segments(g);
                rows |= r << (3 * band);
                boxes |= b << (3 * band);
                cols |= (g | g >> 9 | g >> 18) & 0o777;
                count += pop9(g & 0o777) + pop9(g >> 9 & 0o777) + pop9(g >> 18);
            }
            if pop9(rows) != count || pop9(boxes) != count || pop9(cols) != count {
                return None;
            }
            let down = cols | cols << 9 | cols << 18;
            for (band, (cand, &open)) in state.cand.iter_mut().zip(&state.open).enumerate() {
                let (r, b) = (rows >> (3 * band) & 7, boxes >> (3 * band) & 7);
                cand[v] = open & !(down | SPAN[r as usize].0 | SPAN[b as usize].1);
            }
            *need &= !(rows | cols << COLS | boxes << BOXES);
        }
        Some(state)
    }

    /// Places value `v + 1` in cell `i` (and in `grid`): the option
    /// leaves, with every option that shares an item with it, and the
    /// items that lost options are noted for [`State::settle`].
    #[inline(always)]
    fn commit(&mut self, i: usize, v: usize, grid: &mut Values) {
        let place = &PLACES[i];
        let (band, at, units) = (place.band as usize, place.at, place.units);
        let bit = 1u32 << at;
        // The cell's other values leave its three units: all ones for
        // each value the cell had.
        let mut had = [0u32; 9];
        for (h, c) in had.iter_mut().zip(&mut self.cand[band]) {
            *h = 0u32.wrapping_sub(*c >> at & 1);
            *c &= !bit;
        }
        for (t, h) in self.touched.iter_mut().zip(had) {
            *t |= units & h;
        }
        for ((cand, hit), &peers) in self.cand.iter_mut().zip(&mut self.hit).zip(&place.peers) {
            let lost = cand[v] & peers;
            *hit |= lost;
            cand[v] &= !peers;
        }
        // Any unit may have lost a cell for the value.
        self.touched[v] = !0;
        self.open[band] &= !bit;
        self.need[v] &= !units;
        grid[i] = v as u8 + 1;
    }

    /// The value of open cell `i`'s one option left, if it has one.
    #[inline(always)]
    fn value_of(&self, i: usize) -> Option<usize> {
        let (band, bit) = (i / 27, 1u32 << (i % 27));
        self.cand[band].iter().position(|&c| c & bit != 0)
    }

    /// Strips the options that no exact cover of a band's or a stack's
    /// items can hold. Within a band, a value still needed by some of its
    /// three rows must go in as many of its boxes, a row's cell in a
    /// different box for each: a row segment on no such matching of rows
    /// to boxes (the items' options, grouped by box) loses its options.
    /// So does a column segment within a stack, matching boxes to
    /// columns. `None` at a dead end; otherwise whether options left, with
    /// the items that lost them noted for [`State::settle`].
    fn strip(&mut self) -> Option<bool> {
        let mut changed = false;
        let mut values = std::mem::take(&mut self.changed);
        while values != 0 {
            let v = values.trailing_zeros() as usize;
            values &= values - 1;
            let need = self.need[v];
            if need == 0 {
                continue;
            }
            let mut lost_any = 0;
            for band in 0..3 {
                let c = self.cand[band][v];
                let (m, rows, boxes) = segments(c);
                if rows != need >> (3 * band) & 7
                    || boxes != need >> (BOXES as usize + 3 * band) & 7
                {
                    return None;
                }
                let keep = usize::from(MATCHED[m]);
                if keep != m {
                    if keep == 0 {
                        return None;
                    }
                    let lost = c & !SEGMENTS[keep];
                    self.cand[band][v] = c & !lost;
                    self.hit[band] |= lost;
                    lost_any |= lost;
                }
            }
            let cols = self.value(v).map(|c| (c | c >> 9 | c >> 18) & 0o777);
            for stack in 0..3 {
                let m = (cols[0] >> (3 * stack) & 7
                    | (cols[1] >> (3 * stack) & 7) << 3
                    | (cols[2] >> (3 * stack) & 7) << 6) as usize;
                let boxes = need >> (BOXES as usize + stack);
                let boxes = boxes & 1 | boxes >> 2 & 2 | boxes >> 4 & 4;
                if u32::from(THIRDS[m]) != boxes
                    || (m | m >> 3 | m >> 6) as u32 & 7 != need >> (COLS as usize + 3 * stack) & 7
                {
                    return None;
                }
                let keep = usize::from(MATCHED[m]);
                if keep != m {
                    if keep == 0 {
                        return None;
                    }
                    for band in 0..3 {
                        let gone = (!keep >> (3 * band) & 7) as u32;
                        let gone = (gone | gone << 9 | gone << 18) << (3 * stack);
                        let lost = self.cand[band][v] & gone;
                        self.cand[band][v] &= !lost;
                        self.hit[band] |= lost;
                        lost_any |= lost;
                    }
                }
            }
            if lost_any != 0 {
                self.touched[v] = !0;
                self.changed |= 1 << v;
                changed = true;
            }
        }
        Some(changed)
    }

    /// Commits forced options until no item that lost options has fewer
    /// than two: false at a dead end (an item with none). Counts each
    /// commit in `nodes`.
    fn settle<const STRIP: bool>(&mut self, nodes: &mut u64, grid: &mut Values) -> bool {
        loop {
            // Cells that lost an option, left with none or one.
            // PERF: each band's census taken whether or not it has such
            // cells, without a test that goes either way at random: 5–7%
            // more instructions but about 1.5% less time (see
            // DESIGN.md, "Mispredicted branches in `settle`").
            for band in 0..3 {
                let hit = std::mem::take(&mut self.hit[band]) & self.open[band];
                let (one, two) = census(&self.cand[band]);
                if hit & !one != 0 {
                    return false;
                }
                let mut single = hit & !two;
                while single != 0 {
                    let i = band * 27 + single.trailing_zeros() as usize;
                    single &= single - 1;
                    // A commit just now may have taken its last option.
                    let Some(v) = self.value_of(i) else {
                        return false;
                    };
                    self.commit(i, v, grid);
                    *nodes += 1;
                }
            }
            // Rows, boxes and columns lacking a value that lost cells for
            // it, left with none or one. PERF: the values with such units
            // picked first, without a branch, then their rows and boxes
            // in one loop: the same instructions, and 8–10% less time on
            // top1465 and forum_hardest_1106 than a test of each value and
            // a loop each for its rows and its boxes, whose ends went
            // either way at random (DESIGN.md, "Mispredicted branches in
            // `settle`"). A value touched by this pass's commits waits
            // for the next pass.
            let mut clean = true;
            let mut values = 0u32;
            for (v, (&t, &need)) in self.touched.iter().zip(&self.need).enumerate() {
                values |= u32::from(t & need != 0) << v;
            }
            while values != 0 {
                let v = values.trailing_zeros() as usize;
                values &= values - 1;
                let t = std::mem::take(&mut self.touched[v]) & self.need[v];
                if t == 0 {
                    continue;
                }
                if STRIP {
                    // Every value that lost cells passes here before the
                    // stripping search strips. PERF: only where `t` holds
                    // a unit, 3.4% fewer instructions on top1465 for
                    // uniqueness than a test of `touched` for each value:
                    // a cell that lost the value lies in a row that still
                    // lacks it, and `touched` holds that row.
                    self.changed |= 1 << v;
                }
                clean = false;
                // The value's cells, read again after each commit.
                let mut cells = self.value(v);
                let mut units = t & !(0o777 << COLS);
                while units != 0 {
                    let u = units.trailing_zeros() as usize;
                    units &= units - 1;
                    let (band, mask) = UNIT_CELLS[u];
                    let f = cells[band] & mask;
                    if f == 0 {
                        // Unless a commit just now covered it.
                        if self.need[v] & 1 << u != 0 {
                            return false;
                        }
                    } else if f & (f - 1) == 0 {
                        self.commit(band * 27 + f.trailing_zeros() as usize, v, grid);
                        *nodes += 1;
                        cells = self.value(v);
                    }
                }
                if t >> COLS & 0o777 != 0 {
                    // A column's cells by band, then by row within the
                    // bands: two or more when two bands share a row place
                    // or when two row places hold any.
                    let [c0, c1, c2] = self.value(v);
                    let (any, twice) = (c0 | c1 | c2, c0 & c1 | (c0 | c1) & c2);
                    let (r0, r1, r2) = (any & 0o777, any >> 9 & 0o777, any >> 18);
                    let one = r0 | r1 | r2;
                    let two = (twice | twice >> 9 | twice >> 18) & 0o777 | r0 & r1 | (r0 | r1) & r2;
                    let need = self.need[v] >> COLS & 0o777;
                    if need & !one != 0 {
                        return false;
                    }
                    let mut single = need & !two;
                    while single != 0 {
                        let col = single.trailing_zeros() as usize;
                        single &= single - 1;
                        let mask = 0o1001001u32 << col;
                        let Some(band) = (0..3).find(|&b| self.cand[b][v] & mask != 0) else {
                            return false;
                        };
                        let f = self.cand[band][v] & mask;
                        self.commit(band * 27 + f.trailing_zeros() as usize, v, grid);
                        *nodes += 1;
                    }
                }
            }
            if clean && self.hit == [0; 3] {
                return true;
            }
        }
    }

    /// The item to branch on, once none has fewer than two options.
    /// The plain search takes the general solver's: the first with the
    /// fewest. The stripping search, whose order is its own, takes the
    /// cell of two options with the most others in its row, column and
    /// box ([`busiest`]), and the plain search's item where no cell has
    /// two. Writes the item's options (cell, value) to `out` in
    /// declaration order and returns how many.
    fn branch<const STRIP: bool>(&self, out: &mut [(u8, u8); 9]) -> usize {
        if STRIP {
            let pairs = [0, 1, 2].map(|band| self.pairs(band));
            if let Some(i) = busiest(&pairs) {
                return self.cell_options(i, out);
            }
        } else {
            // A cell of two options: no item has fewer, and cells come
            // first.
            for band in 0..3 {
                let pair = self.pairs(band);
                if pair != 0 {
                    let i = band * 27 + pair.trailing_zeros() as usize;
                    return self.cell_options(i, out);
                }
            }
        }
        // Otherwise each item in turn: cells, then rows, columns and boxes
        // by value (kind 0 to 3).
        let mut best = (u32::MAX, 0usize, 0usize);
        for i in 0..81 {
            let bit = 1u32 << (i % 27);
            if self.open[i / 27] & bit != 0 {
                let n = self.cand[i / 27].iter().filter(|&&c| c & bit != 0).count() as u32;
                if n < best.0 {
                    best = (n, 0, i);
                }
            }
        }
        for kind in 1..4 {
            for unit in 0..9 {
                for v in 0..9 {
                    let k = (kind - 1) * 9 + unit;
                    if self.need[v] & 1 << k != 0 {
                        let n = unit_cells(&self.value(v), kind, unit).count_ones();
                        if n < best.0 {
                            best = (n, kind, unit * 9 + v);
                        }
                    }
                }
            }
        }
        match best {
            (_, 0, i) => self.cell_options(i, out),
            (_, kind, k) => {
                let (unit, v) = (k / 9, k % 9);
                let cells = unit_cells(&self.value(v), kind, unit);
                let mut n = 0;
                let mut rest = cells;
                while rest != 0 {
                    let i = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    out[n] = (i as u8, v as u8);
                    n += 1;
                }
                n
            }
        }
    }

    /// The open cells of `band` with two options.
    #[inline(always)]
    fn pairs(&self, band: usize) -> u32 {
        let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
        for &c in &self.cand[band] {
            three |= two & c;
            two |= one & c;
            one |= c;
        }
        self.open[band] & two & !three
    }

    /// The open cells where value `v + 1` may still go, by band.
    #[inline(always)]
    fn value(&self, v: usize) -> [u32; 3] {
        [self.cand[0][v], self.cand[1][v], self.cand[2][v]]
    }

    /// Cell `i`'s options, values ascending (see [`State::branch`]).
    fn cell_options(&self, i: usize, out: &mut [(u8, u8); 9]) -> usize {
        let bit = 1u32 << (i % 27);
        let mut n = 0;
        for (v, &c) in self.cand[i / 27].iter().enumerate() {
            if c & bit != 0 {
                out[n] = (i as u8, v as u8);
                n += 1;
            }
        }
        n
    }
}

/// Of the cells `pairs` (by band), the one with the most of the others
/// in its row, column and box (itself counted in each), the first on
/// ties; `None` when there are none. A choice in a region dense with
/// such cells forces more: against branching on the first, the stripping
/// search commits 27–28% fewer options on top1465 and top95, and 8–12%
/// fewer on the 17-clue and forum files.
/// PERF: the columns' counts come from one sum of table entries, four
/// bits a column, where a count per cell and band ran 3% more
/// instructions on the forum's hardest.
pub(super) fn busiest(pairs: &[u32; 3]) -> Option<usize> {
    // Four bits a column: its cells in `pairs`.
    let in_cols: u64 = pairs
        .iter()
        .map(|&p| {
            SPREAD[(p & 0o777) as usize]
                + SPREAD[(p >> 9 & 0o777) as usize]
                + SPREAD[(p >> 18) as usize]
        })
        .sum();
    let mut best: Option<(u32, usize)> = None;
    for (band, &p) in pairs.iter().enumerate() {
        let mut rest = p;
        while rest != 0 {
            let k = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let (row, col) = (k / 9, k % 9);
            let b = p >> (3 * (col / 3));
            let in_box = b & 7 | b >> 6 & 0o70 | b >> 12 & 0o700;
            let in_col = (in_cols >> (4 * col) & 15) as u32;
            let score = pop9(p >> (9 * row) & 0o777) + pop9(in_box) + in_col;
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, band * 27 + k));
            }
        }
    }
    best.map(|(_, i)| i)
}

/// The cells of a band with one option or more among the nine values'
/// words `c`, then those with two or more.
/// PERF: in a tree, four words side by side, then two, then one: 0.5%
/// fewer instructions with `--first` than a pass word by word.
#[inline(always)]
fn census(c: &[u32; 9]) -> (u32, u32) {
    let (mut one, mut two) = ([0u32; 4], [0u32; 4]);
    for k in 0..4 {
        one[k] = c[k] | c[k + 4];
        two[k] = c[k] & c[k + 4];
    }
    two[0] |= one[0] & c[8];
    one[0] |= c[8];
    let (one, two) = (
        [one[0] | one[2], one[1] | one[3]],
        [
            two[0] | two[2] | one[0] & one[2],
            two[1] | two[3] | one[1] & one[3],
        ],
    );
    (one[0] | one[1], two[0] | two[1] | one[0] & one[1])
}

/// The cells of unit `unit` of `kind` (1 rows, 2 columns, 3 boxes) in a
/// value's `cand`, as a mask of cell indices 0–80.
fn unit_cells(cand: &[u32; 3], kind: usize, unit: usize) -> u128 {
    let whole = |b: usize, m: u32| u128::from(cand[b] & m) << (27 * b);
    match kind {
        1 => whole(unit / 3, ROW[unit % 3]),
        2 => (0..3).fold(0, |a, b| a | whole(b, 0o1001001 << unit)),
        _ => whole(unit / 3, BOX[unit % 3]),
    }
}

/// A depth-first search, counting up to `max` solutions.
struct Search {
    /// The values placed, by cell: at a solution, every cell holds the
    /// value placed on the path to it (each open cell is placed on the
    /// way, after whatever an abandoned branch left there).
    grid: Values,
    max: u64,
    found: Found,
    shape: super::Shape,
    /// The most nodes before the stripping search stops, `stopped` set
    /// (the plain search runs to its end).
    limit: u64,
    stopped: bool,
}

impl Search {
    /// Settles `state` and searches below it: false once `max` solutions
    /// are found, or once the stripping search is past `limit` nodes
    /// (`stopped` then set).
    /// PERF: the plain search, whose limit is always `u64::MAX`, skips the
    /// test: 0.1–0.2% fewer instructions with `--first` on the first 2,000
    /// serg_benchmark puzzles and the first 3,000 of
    /// forum_hardest_1905_11+, whose plain searches run most.
    fn run<const STRIP: bool>(&mut self, mut state: State) -> bool {
        if STRIP && self.found.nodes > self.limit {
            self.stopped = true;
            return false;
        }
        loop {
            if !state.settle::<STRIP>(&mut self.found.nodes, &mut self.grid) {
                return true;
            }
            if !STRIP {
                break;
            }
            match state.strip() {
                None => return true,
                Some(false) => break,
                Some(true) => {}
            }
        }
        if state.open == [0; 3] {
            if let Some(slot) = self.found.grids.get_mut(self.found.count as usize) {
                *slot = Some(Grid {
                    shape: self.shape,
                    cells: self.grid.to_vec(),
                });
            }
            self.found.count += 1;
            return self.found.count < self.max;
        }
        let mut options = [(0u8, 0u8); 9];
        let n = state.branch::<STRIP>(&mut options);
        for &(i, v) in &options[..n] {
            let mut next = state;
            next.commit(usize::from(i), usize::from(v), &mut self.grid);
            self.found.nodes += 1;
            if !self.run::<STRIP>(next) {
                return false;
            }
        }
        true
    }
}
