//! The board of the technique solver: its candidates, and one function per
//! technique finding that technique's first step.

use super::*;

impl Board {
    /// The board of a puzzle under `rules`: its givens placed, every empty
    /// cell's candidates the values its units do not hold. Fails when the
    /// givens clash or the regions are for another side.
    pub fn new(puzzle: &Grid, rules: &Rules) -> Result<Board, SudokuError> {
        let shape = puzzle.shape();
        let topo = Topology::new(shape, rules)?;
        if let Some(c) = puzzle.clash_with(rules) {
            return Err(SudokuError::Clash {
                first: cell_name(c.first.0, c.first.1),
                second: cell_name(c.second.0, c.second.1),
                symbol: c.value.to_string(),
            });
        }
        let n = shape.size();
        let full = all_values(n);
        let mut board = Board {
            topo: Arc::new(topo),
            shape,
            values: vec![0; n * n],
            cand: vec![full; n * n],
        };
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                board.place(cell, v);
            }
        }
        Ok(board)
    }

    /// [`Board::new`], then the candidates `removed` taken out: a position
    /// as a solving program saves it (placed values, and the candidates
    /// its earlier steps removed), for checking a technique on it.
    pub fn with_candidates(
        puzzle: &Grid,
        rules: &Rules,
        removed: &[Placement],
    ) -> Result<Board, SudokuError> {
        let mut board = Board::new(puzzle, rules)?;
        let n = board.topo.n;
        for p in removed {
            let (r, c) = (usize::from(p.row), usize::from(p.col));
            if r >= n || c >= n || p.value == 0 || usize::from(p.value) > n {
                return Err(SudokuError::BadGrid(format!(
                    "candidate {}<>{} is outside a {n}x{n} grid",
                    cell_name(r, c),
                    p.value
                )));
            }
            board.cand[r * n + c] &= !bit(p.value);
        }
        Ok(board)
    }

    /// The grid side.
    pub fn size(&self) -> usize {
        self.topo.n
    }

    /// The placed values as a grid (0 for an empty cell).
    pub fn grid(&self) -> Grid {
        Grid::from_cells(self.shape, self.values.clone())
            .unwrap_or_else(|_| Grid::empty(self.shape))
    }

    /// The candidates of a cell, ascending (none for a filled cell).
    pub fn candidates(&self, row: usize, col: usize) -> Vec<u8> {
        values_of(self.cand[row * self.topo.n + col]).collect()
    }

    /// Places `v` in `cell` and removes it from the cells it sees.
    pub(super) fn place(&mut self, cell: usize, v: u8) {
        self.values[cell] = v;
        self.cand[cell] = 0;
        let b = !bit(v);
        for &p in &self.topo.peers[cell] {
            self.cand[p] &= b;
        }
    }

    /// Applies a step: its placements, then its removals.
    pub fn apply(&mut self, step: &Step) {
        let n = self.topo.n;
        for p in &step.places {
            self.place(usize::from(p.row) * n + usize::from(p.col), p.value);
        }
        for p in &step.removes {
            self.cand[usize::from(p.row) * n + usize::from(p.col)] &= !bit(p.value);
        }
    }

    /// Solved, contradicted or open.
    pub fn state(&self) -> State {
        let mut open = false;
        for (cell, &v) in self.values.iter().enumerate() {
            if v == 0 {
                open = true;
                if self.cand[cell] == 0 {
                    return State::Contradiction;
                }
            }
        }
        if !open {
            return State::Solved;
        }
        let n = self.topo.n;
        let full = all_values(n);
        for cells in &self.topo.units {
            let mut seen = 0u64;
            for &c in cells {
                seen |= self.cand[c];
                if self.values[c] != 0 {
                    seen |= bit(self.values[c]);
                }
            }
            if seen != full {
                return State::Contradiction;
            }
        }
        State::Open
    }

    pub(super) fn placement(&self, cell: usize, value: u8) -> Placement {
        let n = self.topo.n;
        Placement {
            row: (cell / n) as u8,
            col: (cell % n) as u8,
            value,
        }
    }

    pub(super) fn rc(&self, cell: usize) -> (usize, usize) {
        (cell / self.topo.n, cell % self.topo.n)
    }

    pub(super) fn step(
        &self,
        technique: Technique,
        units: &[usize],
        values: u64,
        mut cells: Vec<usize>,
    ) -> Step {
        cells.sort_unstable();
        Step {
            technique,
            units: units.iter().map(|&u| self.topo.names[u]).collect(),
            values: values_of(values).collect(),
            cells: cells.into_iter().map(|c| self.rc(c)).collect(),
            places: Vec::new(),
            removes: Vec::new(),
        }
    }

    /// A step of `technique` that removes `removes`, or `None` when there is
    /// nothing to remove (the pattern is there but does no work).
    pub(super) fn elimination(
        &self,
        technique: Technique,
        units: &[usize],
        values: u64,
        cells: Vec<usize>,
        removes: Vec<Placement>,
    ) -> Option<Step> {
        if removes.is_empty() {
            return None;
        }
        let mut step = self.step(technique, units, values, cells);
        step.removes = removes;
        Some(step)
    }

    /// The first step of the easiest technique that applies, trying them in
    /// the order of [`Technique::ALL`]; `None` when none applies (or the
    /// board is solved).
    pub fn next_step(&self) -> Option<Step> {
        Technique::ALL.into_iter().find_map(|t| self.find(t))
    }

    /// The first step of `technique` on this board, scanning units (or
    /// cells, or values) in order.
    pub fn find(&self, technique: Technique) -> Option<Step> {
        match technique {
            Technique::NakedSingle => self.naked_single(),
            Technique::HiddenSingle => self.hidden_single(),
            Technique::Pointing => self.locked(true),
            Technique::Claiming => self.locked(false),
            Technique::NakedPair => self.naked(2, technique),
            Technique::NakedTriple => self.naked(3, technique),
            Technique::NakedQuad => self.naked(4, technique),
            Technique::HiddenPair => self.hidden(2, technique),
            Technique::HiddenTriple => self.hidden(3, technique),
            Technique::HiddenQuad => self.hidden(4, technique),
            Technique::XWing => self.fish(2, technique),
            Technique::Swordfish => self.fish(3, technique),
            Technique::XYWing => self.xy_wing(),
        }
    }

    pub(super) fn naked_single(&self) -> Option<Step> {
        let cell = (0..self.cand.len())
            .find(|&c| self.values[c] == 0 && self.cand[c].count_ones() == 1)?;
        let v = values_of(self.cand[cell]).next()?;
        let mut step = self.step(Technique::NakedSingle, &[], 0, vec![cell]);
        step.places.push(self.placement(cell, v));
        Some(step)
    }

    /// The values placed in a unit, as a mask.
    pub(super) fn placed(&self, unit: usize) -> u64 {
        self.topo.units[unit]
            .iter()
            .filter(|&&c| self.values[c] != 0)
            .fold(0, |m, &c| m | bit(self.values[c]))
    }

    pub(super) fn hidden_single(&self) -> Option<Step> {
        for (u, cells) in self.topo.units.iter().enumerate() {
            let placed = self.placed(u);
            let mut once = 0u64;
            let mut more = 0u64;
            for &c in cells {
                more |= once & self.cand[c];
                once |= self.cand[c];
            }
            let single = once & !more & !placed;
            if let Some(v) = values_of(single).next() {
                let cell = *cells.iter().find(|&&c| self.cand[c] & bit(v) != 0)?;
                let mut step = self.step(Technique::HiddenSingle, &[u], 0, vec![cell]);
                step.places.push(self.placement(cell, v));
                return Some(step);
            }
        }
        None
    }

    /// Pointing (`pointing`: from a box to a line) or claiming (from a line
    /// to a box).
    pub(super) fn locked(&self, pointing: bool) -> Option<Step> {
        let topo = &self.topo;
        for &(b, l) in &topo.crossings {
            let (from, to) = if pointing { (b, l) } else { (l, b) };
            let inside: Vec<usize> = topo.units[from]
                .iter()
                .copied()
                .filter(|c| topo.units[to].contains(c))
                .collect();
            let mask_in = inside.iter().fold(0, |m, &c| m | self.cand[c]);
            let mask_out = topo.units[from]
                .iter()
                .filter(|c| !inside.contains(c))
                .fold(0, |m, &c| m | self.cand[c]);
            for v in values_of(mask_in & !mask_out) {
                let removes = topo.units[to]
                    .iter()
                    .filter(|c| !inside.contains(c) && self.cand[**c] & bit(v) != 0)
                    .map(|&c| self.placement(c, v))
                    .collect();
                let cells = inside
                    .iter()
                    .copied()
                    .filter(|&c| self.cand[c] & bit(v) != 0)
                    .collect();
                let technique = if pointing {
                    Technique::Pointing
                } else {
                    Technique::Claiming
                };
                let step = self.elimination(technique, &[from, to], bit(v), cells, removes);
                if step.is_some() {
                    return step;
                }
            }
        }
        None
    }

    /// `f(unit, open cells)` for each unit with more than `k` open cells,
    /// in order, up to the first `Some`.
    fn open_units(
        &self,
        k: usize,
        mut f: impl FnMut(usize, &[usize]) -> Option<Step>,
    ) -> Option<Step> {
        for (u, cells) in self.topo.units.iter().enumerate() {
            let open: Vec<usize> = cells
                .iter()
                .copied()
                .filter(|&c| self.values[c] == 0)
                .collect();
            if open.len() > k {
                if let found @ Some(_) = f(u, &open) {
                    return found;
                }
            }
        }
        None
    }

    /// Naked subsets of `k` cells.
    pub(super) fn naked(&self, k: usize, technique: Technique) -> Option<Step> {
        self.open_units(k, |u, open| {
            let eligible: Vec<usize> = open
                .iter()
                .copied()
                .filter(|&c| (2..=k).contains(&(self.cand[c].count_ones() as usize)))
                .collect();
            let masks: Vec<u64> = eligible.iter().map(|&c| self.cand[c]).collect();
            subsets(&masks, k, &mut |chosen, union| {
                let subset: Vec<usize> = chosen.iter().map(|&i| eligible[i]).collect();
                let removes = open
                    .iter()
                    .filter(|c| !subset.contains(c))
                    .flat_map(|&c| values_of(self.cand[c] & union).map(move |v| (c, v)))
                    .map(|(c, v)| self.placement(c, v))
                    .collect();
                self.elimination(technique, &[u], union, subset, removes)
            })
        })
    }

    /// Hidden subsets of `k` values.
    pub(super) fn hidden(&self, k: usize, technique: Technique) -> Option<Step> {
        self.open_units(k, |u, open| {
            let missing = open.iter().fold(0, |m, &c| m | self.cand[c]);
            // Per value: the open cells (indices into `open`) holding it.
            let mut values = Vec::new();
            let mut masks = Vec::new();
            for v in values_of(missing) {
                let mask = open
                    .iter()
                    .enumerate()
                    .filter(|(_, &c)| self.cand[c] & bit(v) != 0)
                    .fold(0u64, |m, (i, _)| m | 1 << i);
                if (2..=k).contains(&(mask.count_ones() as usize)) {
                    values.push(v);
                    masks.push(mask);
                }
            }
            subsets(&masks, k, &mut |chosen, union| {
                let set = chosen.iter().fold(0u64, |m, &i| m | bit(values[i]));
                let subset: Vec<usize> =
                    values_of(union).map(|i| open[usize::from(i) - 1]).collect();
                let removes = subset
                    .iter()
                    .flat_map(|&c| values_of(self.cand[c] & !set).map(move |v| (c, v)))
                    .map(|(c, v)| self.placement(c, v))
                    .collect();
                self.elimination(technique, &[u], set, subset, removes)
            })
        })
    }

    /// Fish of `k` rows and columns (X-wing, swordfish): rows as bases,
    /// then columns.
    pub(super) fn fish(&self, k: usize, technique: Technique) -> Option<Step> {
        let n = self.topo.n;
        for by_rows in [true, false] {
            let cell = |base: usize, cover: usize| {
                if by_rows {
                    base * n + cover
                } else {
                    cover * n + base
                }
            };
            for v in 1..=n as u8 {
                let mut bases = Vec::new();
                let mut masks = Vec::new();
                for base in 0..n {
                    let mask = (0..n)
                        .filter(|&x| self.cand[cell(base, x)] & bit(v) != 0)
                        .fold(0u64, |m, x| m | 1 << x);
                    if (2..=k).contains(&(mask.count_ones() as usize)) {
                        bases.push(base);
                        masks.push(mask);
                    }
                }
                let found = subsets(&masks, k, &mut |chosen, union| {
                    let base_set: Vec<usize> = chosen.iter().map(|&i| bases[i]).collect();
                    let mut removes = Vec::new();
                    for cover in values_of(union).map(|x| usize::from(x) - 1) {
                        for base in 0..n {
                            let c = cell(base, cover);
                            if !base_set.contains(&base) && self.cand[c] & bit(v) != 0 {
                                removes.push(self.placement(c, v));
                            }
                        }
                    }
                    removes.sort_unstable();
                    let mut cells = Vec::new();
                    for &base in &base_set {
                        for cover in values_of(union).map(|x| usize::from(x) - 1) {
                            let c = cell(base, cover);
                            if self.cand[c] & bit(v) != 0 {
                                cells.push(c);
                            }
                        }
                    }
                    let offset = if by_rows { 0 } else { n };
                    let units: Vec<usize> = base_set.iter().map(|b| b + offset).collect();
                    self.elimination(technique, &units, bit(v), cells, removes)
                });
                if found.is_some() {
                    return found;
                }
            }
        }
        None
    }

    pub(super) fn xy_wing(&self) -> Option<Step> {
        let topo = &self.topo;
        let pairs: Vec<usize> = (0..self.cand.len())
            .filter(|&c| self.values[c] == 0 && self.cand[c].count_ones() == 2)
            .collect();
        for &pivot in &pairs {
            let xy = self.cand[pivot];
            let wings: Vec<usize> = pairs
                .iter()
                .copied()
                .filter(|&w| topo.sees(pivot, w) && (self.cand[w] & xy).count_ones() == 1)
                .collect();
            for (i, &a) in wings.iter().enumerate() {
                for &b in &wings[i + 1..] {
                    let (ma, mb) = (self.cand[a], self.cand[b]);
                    // a = xz, b = yz: they share z, outside the pivot, and
                    // take different pivot values.
                    let z = ma & mb & !xy;
                    if z.count_ones() != 1 || ma & xy == mb & xy {
                        continue;
                    }
                    let removes = (0..self.cand.len())
                        .filter(|&c| {
                            c != a
                                && c != b
                                && self.cand[c] & z != 0
                                && topo.sees(c, a)
                                && topo.sees(c, b)
                        })
                        .flat_map(|c| values_of(z).map(move |v| (c, v)))
                        .map(|(c, v)| self.placement(c, v))
                        .collect();
                    let step = self.elimination(
                        Technique::XYWing,
                        &[],
                        xy | z,
                        vec![pivot, a, b],
                        removes,
                    );
                    if step.is_some() {
                        return step;
                    }
                }
            }
        }
        None
    }

    /// The open cell with the fewest candidates (the first such in
    /// row-major order), if any.
    pub fn guess_cell(&self) -> Option<(usize, usize)> {
        (0..self.cand.len())
            .filter(|&c| self.values[c] == 0)
            .min_by_key(|&c| self.cand[c].count_ones())
            .map(|c| self.rc(c))
    }
}
