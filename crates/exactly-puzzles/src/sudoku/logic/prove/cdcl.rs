//! Conflict-driven clause learning on a sudoku's candidates.
//!
//! One Boolean variable per cell and value, `cell * n + value - 1`: true
//! when the cell holds the value. Every cell, and every value in every
//! unit, takes *exactly one* of its variables:
//!
//! - *at most one* is built in: a variable set true sets the other values
//!   of its cell, and its value in every cell that sees it, false (the
//!   reason of each is the binary clause `¬x ∨ ¬y`, never stored);
//! - *at least one* is a counter per group of the variables not yet
//!   false: at one, the last of them is set true (its reason is the
//!   group's clause `x1 ∨ … ∨ xn`); at zero, the group is a conflict.
//!
//! Learned clauses are watched two literals at a time.
//!
//! So unit propagation places naked and hidden singles. On a conflict the
//! search learns the first-UIP clause and jumps back to the level where
//! that clause forces a value; it chooses variables by activity (VSIDS),
//! keeps each variable's last value (phase saving) and restarts after a
//! Luby sequence of conflicts. These are the methods of MiniSat (Eén and
//! Sörensson, 2003), written here for the exactly-one groups of a sudoku.
//!
//! A search that ends with a conflict at level 0 proves that the puzzle
//! has no solution; every clause it learns follows from the rules.

use super::{flatten, Found};
use crate::sudoku::{Grid, Shape};

/// A literal: `2 * var` is the variable, `2 * var + 1` its negation.
type Lit = u32;

fn neg(l: Lit) -> Lit {
    l ^ 1
}

fn var(l: Lit) -> usize {
    (l >> 1) as usize
}

/// Values of variables: unassigned, true or false.
const UNDEF: u8 = 0;
const TRUE: u8 = 1;
const FALSE: u8 = 2;

/// Why a variable has its value.
#[derive(Clone, Copy, Debug)]
enum Reason {
    /// A decision, or a fact of level 0.
    Decision,
    /// Set false because variable `.0` (of its cell or group) is true.
    Binary(u32),
    /// Forced by the clause at this index, as its first literal.
    Clause(u32),
    /// The last variable of this group not false.
    Group(u32),
}

/// What ended a propagation.
enum Conflict {
    /// Two true variables of one group.
    Binary(u32, u32),
    /// A clause with every literal false.
    Clause(u32),
    /// A group with every variable false.
    Group(u32),
}

/// A clause watching a literal, and a literal of it that, when true,
/// makes the visit needless.
#[derive(Clone, Copy)]
struct Watch {
    clause: u32,
    blocker: Lit,
}

/// The fixed part: a shape's variables, groups and the cells each cell
/// sees.
#[derive(Debug)]
pub(super) struct Rules {
    shape: Shape,
    /// The variables of each "at least one" group, `n` by `n`: the cells'
    /// groups first (group `c` for cell `c`), then each unit's, value by
    /// value (group `n * n + u * n + v`).
    groups: Vec<u32>,
    /// The units of each cell: `units[unit_start[c]..unit_start[c + 1]]`.
    units: Vec<u32>,
    unit_start: Vec<u32>,
    /// The cells that see each cell: `peers[peer_start[c]..peer_start[c + 1]]`.
    peers: Vec<u32>,
    peer_start: Vec<u32>,
}

impl Rules {
    /// `units`: the cells of every unit.
    pub(super) fn new(shape: Shape, units: &[Vec<usize>], peers: &[Vec<usize>]) -> Rules {
        let n = shape.size();
        let mut groups = Vec::with_capacity(n * n * n + units.len() * n * n);
        for cell in 0..n * n {
            groups.extend((0..n).map(|v| (cell * n + v) as u32));
        }
        for unit in units {
            for v in 0..n {
                groups.extend(unit.iter().map(|&c| (c * n + v) as u32));
            }
        }
        let mut of_cell = vec![Vec::new(); n * n];
        for (u, unit) in units.iter().enumerate() {
            for &c in unit {
                of_cell[c].push(u);
            }
        }
        let (cell_units, unit_start) = flatten(&of_cell);
        let (peers, peer_start) = flatten(peers);
        Rules {
            shape,
            groups,
            units: cell_units,
            unit_start,
            peers,
            peer_start,
        }
    }

    /// The cells that see `cell`.
    pub(super) fn peers_of(&self, cell: usize) -> &[u32] {
        &self.peers[self.peer_start[cell] as usize..self.peer_start[cell + 1] as usize]
    }
}

/// A clause: where its literals start in the arena, and how many.
#[derive(Clone, Copy)]
struct Clause {
    start: u32,
    len: u32,
    /// The decision levels among its literals when it was learned (its
    /// "literal block distance"): the lower, the more useful.
    lbd: u32,
}

/// One search's state.
pub(super) struct Search<'r> {
    rules: &'r Rules,
    n: usize,
    value: Vec<u8>,
    level: Vec<u32>,
    reason: Vec<Reason>,
    trail: Vec<Lit>,
    /// Where each decision level starts on the trail.
    levels: Vec<usize>,
    head: usize,
    lits: Vec<Lit>,
    clauses: Vec<Clause>,
    watches: Vec<Vec<Watch>>,
    activity: Vec<f64>,
    bump: f64,
    heap: Heap,
    phase: Vec<bool>,
    seen: Vec<bool>,
    /// Per group, its variables not false.
    free: Vec<u32>,
    /// Scratch for the groups of a variable.
    scratch: Vec<u32>,
    /// Scratch for `analyze`: the literals of the reason being resolved,
    /// and the learned clause before minimisation.
    reason_lits: Vec<Lit>,
    unminimised: Vec<Lit>,
}

/// How often `stop` is asked, in conflicts.
const STOP_EVERY: u64 = 64;

/// Learned clauses kept before the first reduction, and how many more
/// before each next one.
const REDUCE_FIRST: usize = 2000;
const REDUCE_STEP: usize = 1000;

/// Conflicts before the first restart; later runs are this times the Luby
/// sequence.
const RESTART_UNIT: u64 = 100;

impl<'r> Search<'r> {
    pub(super) fn new(rules: &'r Rules) -> Search<'r> {
        let n = rules.shape.size();
        let vars = n * n * n;
        let mut search = Search {
            rules,
            n,
            value: vec![UNDEF; vars],
            level: vec![0; vars],
            reason: vec![Reason::Decision; vars],
            trail: Vec::with_capacity(vars),
            levels: Vec::new(),
            head: 0,
            lits: Vec::with_capacity(rules.groups.len() * 2),
            clauses: Vec::new(),
            watches: vec![Vec::new(); 2 * vars],
            activity: vec![0.0; vars],
            bump: 1.0,
            heap: Heap::new(vars),
            phase: vec![true; vars],
            seen: vec![false; vars],
            free: vec![n as u32; rules.groups.len() / n.max(1)],
            scratch: Vec::new(),
            reason_lits: Vec::new(),
            unminimised: Vec::new(),
        };
        if n == 1 {
            // A 1x1 grid: its one variable is true.
            search.assign(0, Reason::Decision);
        }
        search
    }

    /// The first solution from a position: the placed `values` (0 for an
    /// empty cell) and each empty cell's candidates `cand` (bit `v - 1`
    /// for value `v`), within `max_conflicts`. The search first tries each
    /// variable as it is in `near` (a full grid), when given.
    pub(super) fn first(
        mut self,
        values: &[u8],
        cand: &[u64],
        near: Option<&Grid>,
        max_conflicts: u64,
        stop: &dyn Fn() -> bool,
    ) -> Found {
        let n = self.n;
        if let Some(near) = near {
            for (cell, &v) in near.cells().iter().enumerate().take(n * n) {
                for w in 0..n {
                    self.phase[cell * n + w] = usize::from(v) == w + 1;
                }
            }
        }
        for (cell, (&v, &m)) in values.iter().zip(cand).enumerate().take(n * n) {
            let x = (cell * n) as Lit;
            let facts = if v != 0 {
                self.fact(2 * (x + Lit::from(v) - 1))
            } else {
                (0..n as Lit).all(|w| m >> w & 1 == 1 || self.fact(neg(2 * (x + w))))
            };
            if !facts {
                return Found::NoSolution(0);
            }
        }
        if self.propagate().is_some() {
            return Found::NoSolution(0);
        }
        let mut conflicts = 0u64;
        let mut restart = 1u64;
        let mut until_restart = RESTART_UNIT * luby(restart);
        let mut next_reduce = REDUCE_FIRST;
        loop {
            match self.propagate() {
                Some(conflict) => {
                    conflicts += 1;
                    if self.levels.is_empty() {
                        return Found::NoSolution(conflicts);
                    }
                    if conflicts >= max_conflicts || (conflicts % STOP_EVERY == 0 && stop()) {
                        return Found::OutOfBudget;
                    }
                    let (learnt, back) = self.analyze(conflict);
                    self.cancel_until(back);
                    self.learn(learnt);
                    if self.clauses.len() >= next_reduce {
                        self.reduce();
                        next_reduce = self.clauses.len() + REDUCE_STEP;
                    }
                    self.bump /= 0.95;
                    until_restart = until_restart.saturating_sub(1);
                }
                None => {
                    if until_restart == 0 {
                        restart += 1;
                        until_restart = RESTART_UNIT * luby(restart);
                        self.cancel_until(0);
                    }
                    let Some(x) = self.pick() else {
                        return self.solution();
                    };
                    self.levels.push(self.trail.len());
                    let lit = if self.phase[x] { 2 * x } else { 2 * x + 1 };
                    self.assign(lit as Lit, Reason::Decision);
                }
            }
        }
    }

    /// The grid of a full assignment.
    fn solution(&self) -> Found {
        let n = self.n;
        let mut cells = vec![0u8; n * n];
        for (cell, out) in cells.iter_mut().enumerate() {
            let held = (0..n).find(|&v| self.value[cell * n + v] == TRUE);
            // Every cell's group holds one true variable in a full
            // assignment with no conflict.
            *out = held.map_or(0, |v| v as u8 + 1);
        }
        match Grid::from_cells(self.rules.shape, cells) {
            Ok(grid) if !grid.cells().contains(&0) => Found::Solution(grid),
            _ => Found::OutOfBudget,
        }
    }

    /// Sets `lit` at level 0; `false` when it is already false.
    fn fact(&mut self, lit: Lit) -> bool {
        match self.lit_value(lit) {
            TRUE => true,
            FALSE => false,
            _ => {
                self.assign(lit, Reason::Decision);
                true
            }
        }
    }

    fn lit_value(&self, lit: Lit) -> u8 {
        match self.value[var(lit)] {
            UNDEF => UNDEF,
            v if lit & 1 == 0 => v,
            v => v ^ 3,
        }
    }

    fn assign(&mut self, lit: Lit, reason: Reason) {
        let x = var(lit);
        self.value[x] = if lit & 1 == 0 { TRUE } else { FALSE };
        self.level[x] = self.levels.len() as u32;
        self.reason[x] = reason;
        self.trail.push(lit);
        if lit & 1 == 1 {
            self.groups_of(x);
            for i in 0..self.scratch.len() {
                self.free[self.scratch[i] as usize] -= 1;
            }
        }
    }

    /// The groups of variable `x`, into `scratch`.
    fn groups_of(&mut self, x: usize) {
        let n = self.n;
        let (cell, v) = (x / n, x % n);
        let rules = self.rules;
        let (from, to) = (rules.unit_start[cell], rules.unit_start[cell + 1]);
        self.scratch.clear();
        self.scratch.push(cell as u32);
        self.scratch.extend(
            rules.units[from as usize..to as usize]
                .iter()
                .map(|&u| (n * n + u as usize * n + v) as u32),
        );
    }

    /// The variables of group `g`.
    fn group(&self, g: u32) -> &'r [u32] {
        let n = self.n;
        let rules: &'r Rules = self.rules;
        &rules.groups[g as usize * n..(g as usize + 1) * n]
    }

    /// Variable `x` became false: a group of it with no variable left is
    /// a conflict, and one with one left sets it true.
    fn at_least_one(&mut self, x: usize) -> Option<Conflict> {
        self.groups_of(x);
        let mut groups = std::mem::take(&mut self.scratch);
        let mut conflict = None;
        for &g in &groups {
            match self.free[g as usize] {
                0 => {
                    conflict = Some(Conflict::Group(g));
                    break;
                }
                1 => {
                    let last = self
                        .group(g)
                        .iter()
                        .find(|&&y| self.value[y as usize] != FALSE);
                    if let Some(&y) = last {
                        if self.value[y as usize] == UNDEF {
                            self.assign(2 * y, Reason::Group(g));
                        }
                    }
                }
                _ => {}
            }
        }
        groups.clear();
        self.scratch = groups;
        conflict
    }

    /// Adds a clause of two or more literals, watching its first two.
    fn add_clause(&mut self, lits: &[Lit], lbd: u32) -> u32 {
        let index = self.clauses.len() as u32;
        self.clauses.push(Clause {
            start: self.lits.len() as u32,
            len: lits.len() as u32,
            lbd,
        });
        self.lits.extend_from_slice(lits);
        self.watches[lits[0] as usize].push(Watch {
            clause: index,
            blocker: lits[1],
        });
        self.watches[lits[1] as usize].push(Watch {
            clause: index,
            blocker: lits[0],
        });
        index
    }

    /// Unit propagation from the trail's head: the conflict, if any.
    fn propagate(&mut self) -> Option<Conflict> {
        while self.head < self.trail.len() {
            let p = self.trail[self.head];
            self.head += 1;
            let found = if p & 1 == 0 {
                self.at_most_one(var(p))
            } else {
                self.at_least_one(var(p))
            };
            if found.is_some() {
                return found;
            }
            if let Some(conflict) = self.watched(neg(p)) {
                return Some(conflict);
            }
        }
        None
    }

    /// Variable `x` is true: the other values of its cell, and its value
    /// in the cells that see it, become false.
    fn at_most_one(&mut self, x: usize) -> Option<Conflict> {
        let n = self.n;
        let (cell, v) = (x / n, x % n);
        let rules = self.rules;
        let others = (0..n).filter(|&w| w != v).map(|w| cell * n + w);
        let seers = rules.peers_of(cell).iter().map(|&c| c as usize * n + v);
        for y in others.chain(seers) {
            match self.value[y] {
                UNDEF => self.assign(2 * y as Lit + 1, Reason::Binary(x as u32)),
                TRUE => return Some(Conflict::Binary(x as u32, y as u32)),
                _ => {}
            }
        }
        None
    }

    /// Literal `f` became false: the clauses watching it find another
    /// literal to watch, force their other watched literal, or conflict.
    fn watched(&mut self, f: Lit) -> Option<Conflict> {
        let mut list = std::mem::take(&mut self.watches[f as usize]);
        let mut keep = 0;
        let mut i = 0;
        let mut conflict = None;
        while i < list.len() {
            let w = list[i];
            i += 1;
            if self.lit_value(w.blocker) == TRUE {
                list[keep] = w;
                keep += 1;
                continue;
            }
            let c = self.clauses[w.clause as usize];
            let (start, len) = (c.start as usize, c.len as usize);
            if self.lits[start] == f {
                self.lits.swap(start, start + 1);
            }
            let first = self.lits[start];
            let kept = Watch {
                clause: w.clause,
                blocker: first,
            };
            if first != w.blocker && self.lit_value(first) == TRUE {
                list[keep] = kept;
                keep += 1;
                continue;
            }
            let other = (2..len).find(|&k| self.lit_value(self.lits[start + k]) != FALSE);
            if let Some(k) = other {
                self.lits.swap(start + 1, start + k);
                let now = self.lits[start + 1];
                self.watches[now as usize].push(kept);
                continue;
            }
            list[keep] = kept;
            keep += 1;
            if self.lit_value(first) == FALSE {
                conflict = Some(Conflict::Clause(w.clause));
                while i < list.len() {
                    list[keep] = list[i];
                    keep += 1;
                    i += 1;
                }
            } else {
                self.assign(first, Reason::Clause(w.clause));
            }
        }
        list.truncate(keep);
        self.watches[f as usize] = list;
        conflict
    }

    /// The first-UIP clause of a conflict (its asserting literal first, a
    /// literal of the level to jump back to second) and that level.
    fn analyze(&mut self, conflict: Conflict) -> (Vec<Lit>, usize) {
        let now = self.levels.len() as u32;
        let mut learnt: Vec<Lit> = vec![0];
        let mut open = 0usize;
        let mut index = self.trail.len();
        let mut reason = std::mem::take(&mut self.reason_lits);
        reason.clear();
        match conflict {
            Conflict::Binary(x, y) => reason.extend([2 * x + 1, 2 * y + 1]),
            Conflict::Clause(c) => reason.extend_from_slice(self.clause_lits(c)),
            Conflict::Group(g) => reason.extend(self.group(g).iter().map(|&y| 2 * y)),
        }
        loop {
            for &q in &reason {
                let x = var(q);
                if !self.seen[x] && self.level[x] > 0 {
                    self.seen[x] = true;
                    self.bump_var(x);
                    if self.level[x] == now {
                        open += 1;
                    } else {
                        learnt.push(q);
                    }
                }
            }
            // The latest literal of this level that the conflict rests on.
            let p = loop {
                index -= 1;
                let p = self.trail[index];
                if self.seen[var(p)] {
                    break p;
                }
            };
            self.seen[var(p)] = false;
            open -= 1;
            if open == 0 {
                learnt[0] = neg(p);
                break;
            }
            reason.clear();
            match self.reason[var(p)] {
                Reason::Binary(x) => reason.push(2 * x + 1),
                Reason::Clause(c) => reason.extend_from_slice(&self.clause_lits(c)[1..]),
                Reason::Group(g) => reason.extend(
                    self.group(g)
                        .iter()
                        .filter(|&&y| y as usize != var(p))
                        .map(|&y| 2 * y),
                ),
                // Only the decision is a decision at this level, and it is
                // the last literal the walk reaches.
                Reason::Decision => {}
            }
        }
        self.reason_lits = reason;
        // A literal whose reason rests only on the clause's other
        // literals (or on facts) is implied by them: it goes.
        let mut all = std::mem::take(&mut self.unminimised);
        all.clear();
        all.extend_from_slice(&learnt);
        learnt.retain(|&q| q == all[0] || !self.redundant(var(q)));
        for &q in &all[1..] {
            self.seen[var(q)] = false;
        }
        self.unminimised = all;
        let mut back = 0;
        if learnt.len() > 1 {
            let (mut at, mut best) = (1, 0);
            for (i, &q) in learnt.iter().enumerate().skip(1) {
                if self.level[var(q)] > best {
                    best = self.level[var(q)];
                    at = i;
                }
            }
            learnt.swap(1, at);
            back = best as usize;
        }
        (learnt, back)
    }

    /// Whether every other variable of `x`'s reason is marked seen or a
    /// fact of level 0.
    fn redundant(&self, x: usize) -> bool {
        let covered = |y: usize| self.seen[y] || self.level[y] == 0;
        match self.reason[x] {
            Reason::Decision => false,
            Reason::Binary(y) => covered(y as usize),
            Reason::Clause(c) => self.clause_lits(c)[1..].iter().all(|&q| covered(var(q))),
            Reason::Group(g) => self
                .group(g)
                .iter()
                .all(|&y| y as usize == x || covered(y as usize)),
        }
    }

    fn clause_lits(&self, c: u32) -> &[Lit] {
        let c = self.clauses[c as usize];
        &self.lits[c.start as usize..(c.start + c.len) as usize]
    }

    /// Adds the learned clause and sets its asserting literal.
    fn learn(&mut self, learnt: Vec<Lit>) {
        if learnt.len() == 1 {
            self.assign(learnt[0], Reason::Decision);
        } else {
            let mut levels: Vec<u32> = learnt.iter().map(|&q| self.level[var(q)]).collect();
            levels.sort_unstable();
            levels.dedup();
            let c = self.add_clause(&learnt, levels.len() as u32);
            self.assign(learnt[0], Reason::Clause(c));
        }
    }

    /// Drops the less useful half of the learned clauses (by literal block
    /// distance, then length), keeping those of distance 2 or less and
    /// those that are the reason of a value now set.
    fn reduce(&mut self) {
        let count = self.clauses.len();
        let mut keep = vec![false; count];
        for &lit in &self.trail {
            if let Reason::Clause(c) = self.reason[var(lit)] {
                keep[c as usize] = true;
            }
        }
        let mut order: Vec<usize> = (0..count)
            .filter(|&c| !keep[c] && self.clauses[c].lbd > 2)
            .collect();
        order.sort_by_key(|&c| (self.clauses[c].lbd, self.clauses[c].len));
        for (c, k) in keep.iter_mut().enumerate() {
            *k = *k || self.clauses[c].lbd <= 2;
        }
        for &c in &order[..order.len() / 2] {
            keep[c] = true;
        }
        let mut index = vec![u32::MAX; count];
        let (old_lits, old) = (
            std::mem::take(&mut self.lits),
            std::mem::take(&mut self.clauses),
        );
        for list in &mut self.watches {
            list.clear();
        }
        for (c, clause) in old.iter().enumerate() {
            if keep[c] {
                let lits = &old_lits[clause.start as usize..(clause.start + clause.len) as usize];
                index[c] = self.add_clause(lits, clause.lbd);
            }
        }
        for &lit in &self.trail {
            if let Reason::Clause(c) = &mut self.reason[var(lit)] {
                *c = index[*c as usize];
            }
        }
    }

    /// Undoes the levels above `level`.
    fn cancel_until(&mut self, level: usize) {
        if self.levels.len() <= level {
            return;
        }
        let from = self.levels[level];
        for i in (from..self.trail.len()).rev() {
            let lit = self.trail[i];
            let x = var(lit);
            self.value[x] = UNDEF;
            self.phase[x] = lit & 1 == 0;
            if lit & 1 == 1 {
                self.groups_of(x);
                for i in 0..self.scratch.len() {
                    self.free[self.scratch[i] as usize] += 1;
                }
            }
            self.heap.insert(x, &self.activity);
        }
        self.trail.truncate(from);
        self.head = from;
        self.levels.truncate(level);
    }

    /// The unassigned variable of highest activity.
    fn pick(&mut self) -> Option<usize> {
        while let Some(x) = self.heap.pop(&self.activity) {
            if self.value[x] == UNDEF {
                return Some(x);
            }
        }
        None
    }

    fn bump_var(&mut self, x: usize) {
        self.activity[x] += self.bump;
        if self.activity[x] > 1e100 {
            for a in &mut self.activity {
                *a *= 1e-100;
            }
            self.bump *= 1e-100;
        }
        self.heap.raise(x, &self.activity);
    }
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, … (`i` from 1).
fn luby(i: u64) -> u64 {
    let mut i = i;
    loop {
        // The smallest 2^k - 1 at or above i.
        let mut k = 1u32;
        while (1u64 << k) - 1 < i {
            k += 1;
        }
        if i == (1u64 << k) - 1 {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// A binary max-heap of variables by activity.
struct Heap {
    items: Vec<u32>,
    /// Where each variable is in `items` (`u32::MAX`: not in the heap).
    at: Vec<u32>,
}

impl Heap {
    fn new(vars: usize) -> Heap {
        Heap {
            items: (0..vars as u32).collect(),
            at: (0..vars as u32).collect(),
        }
    }

    fn insert(&mut self, x: usize, act: &[f64]) {
        if self.at[x] == u32::MAX {
            self.at[x] = self.items.len() as u32;
            self.items.push(x as u32);
            self.up(self.items.len() - 1, act);
        }
    }

    fn raise(&mut self, x: usize, act: &[f64]) {
        if self.at[x] != u32::MAX {
            self.up(self.at[x] as usize, act);
        }
    }

    fn pop(&mut self, act: &[f64]) -> Option<usize> {
        let top = *self.items.first()?;
        let last = self.items.pop()?;
        self.at[top as usize] = u32::MAX;
        if !self.items.is_empty() {
            self.items[0] = last;
            self.at[last as usize] = 0;
            self.down(0, act);
        }
        Some(top as usize)
    }

    fn up(&mut self, mut i: usize, act: &[f64]) {
        let x = self.items[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.items[parent];
            if act[p as usize] >= act[x as usize] {
                break;
            }
            self.items[i] = p;
            self.at[p as usize] = i as u32;
            i = parent;
        }
        self.items[i] = x;
        self.at[x as usize] = i as u32;
    }

    fn down(&mut self, mut i: usize, act: &[f64]) {
        let x = self.items[i];
        let len = self.items.len();
        loop {
            let left = 2 * i + 1;
            if left >= len {
                break;
            }
            let right = left + 1;
            let child = if right < len
                && act[self.items[right] as usize] > act[self.items[left] as usize]
            {
                right
            } else {
                left
            };
            let c = self.items[child];
            if act[c as usize] <= act[x as usize] {
                break;
            }
            self.items[i] = c;
            self.at[c as usize] = i as u32;
            i = child;
        }
        self.items[i] = x;
        self.at[x as usize] = i as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::luby;

    #[test]
    fn luby_sequence() {
        let seq: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(seq, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}
