//! Shared code of the benchmarks: loading instances, handing them to `exactly`
//! and to the peer crates `xcov` and `dlx`, and counting their solutions.
//!
//! Every solver gets the same [`exactly::Problem`], read from a Knuth-format
//! `.dlx` file by `exactly`'s own parser. For the peers it is translated once,
//! before any clock starts, into plain index lists ([`PeerInput`]). A timed run
//! then covers what each library does on its own: build its link structure
//! from in-memory data, and count every solution.
//!
//! | peer | primary | secondary | colors | multiplicities |
//! | ---- | ------- | --------- | ------ | -------------- |
//! | `xcov` 0.3.1 | yes | yes, natively | no | no |
//! | `dlx` 0.8.5 | yes | yes, natively (`dlx::x`) | yes (`dlx::c`) | not used here |
//!
//! A solver that cannot express an instance reports [`Outcome::Unsupported`]
//! rather than a reduction that could change what is counted.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use exactly::{ItemKind, Problem};

/// The instances measured unless others are asked for, fastest first.
pub const DEFAULT_INSTANCES: [&str; 5] = [
    "queens-13",
    "queens-14",
    "langford-12",
    "pentomino-6x10-symbreak",
    "pentomino-6x10",
];

/// Expected solution counts, by instance name (file stem), read from the
/// `golden.tsv` file in `dir`: tab-separated lines `file  solutions  ...`,
/// `#` starting a comment. An absent file gives no counts.
pub fn golden_counts(dir: &Path) -> Result<HashMap<String, u128>, String> {
    let path = dir.join("golden.tsv");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut counts = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split('\t');
        let file = fields.next().unwrap_or_default();
        let name = file.strip_suffix(".dlx").unwrap_or(file);
        let count = fields
            .next()
            .and_then(|c| c.trim().parse().ok())
            .ok_or_else(|| format!("{}:{}: expected 'file<TAB>count'", path.display(), n + 1))?;
        counts.insert(name.to_string(), count);
    }
    Ok(counts)
}

/// The number after `--runs` in an argument list: a positive count, or,
/// when it is missing or not one, the message with `usage` on stderr and
/// exit status 2.
pub fn runs_arg(
    args: &mut impl Iterator<Item = String>,
    usage: &str,
) -> Result<usize, std::process::ExitCode> {
    match args.next().and_then(|n| n.parse().ok()).filter(|&n| n > 0) {
        Some(n) => Ok(n),
        None => {
            eprintln!("--runs needs a positive number\n{usage}");
            Err(std::process::ExitCode::from(2))
        }
    }
}

/// The directory holding the bundled `.dlx` instances (`testdata/` at the
/// repository root).
pub fn testdata_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata")
}

/// One benchmark instance: a problem and what each peer needs to solve it.
pub struct Instance {
    /// The file stem, such as `pentomino-6x10`.
    pub name: String,
    /// The problem as `exactly` reads it.
    pub problem: Problem<String>,
    /// The same problem in the peers' terms.
    pub peer: PeerInput,
}

impl Instance {
    /// Reads and parses a Knuth-format `.dlx` file.
    pub fn load(path: &Path) -> Result<Instance, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let problem =
            exactly::format::parse_dlx(&text).map_err(|e| format!("{}:{e}", path.display()))?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let peer = PeerInput::from_problem(&problem);
        Ok(Instance {
            name,
            problem,
            peer,
        })
    }

    /// Why `solver` cannot express this instance, or `None` if it can.
    pub fn unsupported_by(&self, solver: SolverKind) -> Option<&'static str> {
        self.peer.unsupported_by(solver)
    }

    /// Counts the solutions with `solver`.
    pub fn count(&self, solver: SolverKind) -> Outcome {
        match solver {
            SolverKind::Exactly => Outcome::Count(count_exactly(&self.problem)),
            SolverKind::Xcov => self.peer.count_xcov(),
            SolverKind::Dlx => self.peer.count_dlx(),
        }
    }

    /// Counts the solutions with `solver` and measures how long that took.
    pub fn timed_count(&self, solver: SolverKind) -> (Outcome, Duration) {
        let start = Instant::now();
        let outcome = self.count(solver);
        (outcome, start.elapsed())
    }
}

/// The `.dlx` files of a directory, sorted by name.
pub fn instance_paths(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "dlx"))
        .collect();
    paths.sort();
    Ok(paths)
}

/// The solvers being compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SolverKind {
    /// This project's engine.
    Exactly,
    /// The `xcov` crate, `MrvExactCoverSearch`.
    Xcov,
    /// The `dlx` crate, `Solver` with `mrv_chooser(prefer_any(), no_tiebreak())`.
    Dlx,
}

impl SolverKind {
    /// All solvers, `exactly` first.
    pub const ALL: [SolverKind; 3] = [SolverKind::Exactly, SolverKind::Xcov, SolverKind::Dlx];

    /// The solver's name as used in benchmark ids and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Exactly => "exactly",
            SolverKind::Xcov => "xcov",
            SolverKind::Dlx => "dlx",
        }
    }

    /// Looks a solver up by [`name`](Self::name).
    pub fn from_name(name: &str) -> Option<SolverKind> {
        SolverKind::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl fmt::Display for SolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What one counting run produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The number of solutions.
    Count(u128),
    /// The solver cannot express this instance (the reason is given).
    Unsupported(&'static str),
}

/// Counts with `exactly`: build the solver, then count every solution.
pub fn count_exactly(problem: &Problem<String>) -> u128 {
    let count = exactly::Solver::new(problem).count();
    assert!(
        count.outcome.is_complete(),
        "a search without limits ran to the end"
    );
    count.solutions
}

/// A problem in the terms both peers use: items renumbered so that the primary
/// ones come first (in declaration order), then the secondary ones; each option
/// a list of `(item, color)` with color 0 for none.
#[derive(Clone, Debug)]
pub struct PeerInput {
    /// Number of primary items.
    pub num_primary: usize,
    /// Number of secondary items.
    pub num_secondary: usize,
    /// The options, each entry an item (0-based, primary first) and a color.
    pub options: Vec<Vec<(usize, u32)>>,
    /// Whether some option gives a secondary item a color.
    pub has_colors: bool,
    /// Whether some primary item has multiplicity bounds other than 1.
    pub has_multiplicities: bool,
}

impl PeerInput {
    /// Translates an `exactly` problem.
    pub fn from_problem<L>(problem: &Problem<L>) -> PeerInput {
        let mut index = vec![0usize; problem.num_items()];
        let mut num_primary = 0;
        for item in problem.item_ids() {
            if problem.item_kind(item) == ItemKind::Primary {
                index[item.index()] = num_primary;
                num_primary += 1;
            }
        }
        let mut num_secondary = 0;
        for item in problem.item_ids() {
            if problem.item_kind(item) == ItemKind::Secondary {
                index[item.index()] = num_primary + num_secondary;
                num_secondary += 1;
            }
        }
        let mut colors = HashMap::new();
        let options = problem
            .option_ids()
            .map(|o| {
                problem
                    .option(o)
                    .iter()
                    .map(|e| {
                        let color = if e.color.is_none() {
                            0
                        } else {
                            let next = colors.len() as u32 + 1;
                            *colors.entry(e.color).or_insert(next)
                        };
                        (index[e.item.index()], color)
                    })
                    .collect()
            })
            .collect();
        PeerInput {
            num_primary,
            num_secondary,
            options,
            has_colors: !colors.is_empty(),
            has_multiplicities: problem.has_multiplicities(),
        }
    }

    /// Why `solver` cannot express this problem, or `None` if it can.
    pub fn unsupported_by(&self, solver: SolverKind) -> Option<&'static str> {
        match solver {
            SolverKind::Exactly => None,
            SolverKind::Xcov if self.has_colors => Some("xcov has no colors"),
            SolverKind::Xcov if self.has_multiplicities => Some("xcov has no multiplicities"),
            SolverKind::Dlx if self.has_multiplicities => {
                Some("multiplicities are not wired to dlx::m")
            }
            SolverKind::Xcov | SolverKind::Dlx => None,
        }
    }

    /// Counts with `xcov`: `DlxBuilder` (items 1-based, each option sorted),
    /// `MrvExactCoverSearch`, and `search()` until it reports no more.
    pub fn count_xcov(&self) -> Outcome {
        use xcov::{DlxBuilder, ExactCoverProblem, MrvExactCoverSearch};
        if let Some(why) = self.unsupported_by(SolverKind::Xcov) {
            return Outcome::Unsupported(why);
        }
        let mut builder = DlxBuilder::new(self.num_primary, self.num_secondary);
        let mut items = Vec::new();
        for option in &self.options {
            items.clear();
            items.extend(option.iter().map(|&(i, _)| i + 1));
            items.sort_unstable();
            builder.add_option(&items);
        }
        let mut search = MrvExactCoverSearch::new(builder.build());
        let mut count = 0u128;
        // `search` returns true on each solution and false once the tree is
        // exhausted (the degenerate problem with no items cannot occur here:
        // every option has a primary item and there is at least one option).
        while search.search() {
            count += 1;
        }
        Outcome::Count(count)
    }

    /// Counts with `dlx`: `x::make_problem` (or `c::make_problem` when there are
    /// colors), `Solver` with the MRV chooser, `next_solution` until false.
    pub fn count_dlx(&self) -> Outcome {
        use dlx::choose::{mrv_chooser, no_tiebreak, prefer_any};
        use dlx::{OptOrder, Solver, Uint};
        if let Some(why) = self.unsupported_by(SolverKind::Dlx) {
            return Outcome::Unsupported(why);
        }
        if self.options.is_empty() {
            // dlx asserts that there is at least one option.
            return Outcome::Count(u128::from(self.num_primary == 0));
        }
        let np = self.num_primary as Uint;
        let ns = self.num_secondary as Uint;
        let mut count = 0u128;
        if self.has_colors {
            let os: Vec<Vec<(Uint, dlx::Int)>> = self
                .options
                .iter()
                .map(|o| o.iter().map(|&(i, c)| (i as Uint, c as dlx::Int)).collect())
                .collect();
            let mut problem = dlx::c::make_problem(np, ns, &os, OptOrder::Seq);
            let mut solver = Solver::new(&mut problem);
            let mut chooser = mrv_chooser(prefer_any(), no_tiebreak());
            while solver.next_solution(&mut chooser) {
                count += 1;
            }
        } else {
            let os: Vec<Vec<Uint>> = self
                .options
                .iter()
                .map(|o| o.iter().map(|&(i, _)| i as Uint).collect())
                .collect();
            let mut problem = dlx::x::make_problem(np, ns, &os, OptOrder::Seq);
            let mut solver = Solver::new(&mut problem);
            let mut chooser = mrv_chooser(prefer_any(), no_tiebreak());
            while solver.next_solution(&mut chooser) {
                count += 1;
            }
        }
        Outcome::Count(count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn instance(text: &str) -> Instance {
        let problem = exactly::format::parse_dlx(text).unwrap();
        let peer = PeerInput::from_problem(&problem);
        Instance {
            name: "test".into(),
            problem,
            peer,
        }
    }

    fn counts(instance: &Instance) -> Vec<Outcome> {
        SolverKind::ALL.map(|s| instance.count(s)).to_vec()
    }

    #[test]
    fn knuths_exact_cover_example() {
        let i = instance("a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n");
        assert_eq!(counts(&i), vec![Outcome::Count(1); 3]);
    }

    #[test]
    fn secondary_items_are_renumbered_after_the_primary_ones() {
        let mut b = exactly::ProblemBuilder::new();
        b.secondary("x").unwrap();
        b.primary("a").unwrap();
        b.primary("b").unwrap();
        for names in [&["x", "a"][..], &["b", "x"], &["a"], &["b"]] {
            b.add_option_names(String::new(), names).unwrap();
        }
        let problem = b.build().unwrap();
        let peer = PeerInput::from_problem(&problem);
        assert_eq!((peer.num_primary, peer.num_secondary), (2, 1));
        assert_eq!(peer.options[0], vec![(2, 0), (0, 0)]);
        let i = Instance {
            name: "test".into(),
            problem,
            peer,
        };
        // {x a, b}, {a, b x}, {a, b}
        assert_eq!(counts(&i), vec![Outcome::Count(3); 3]);
    }

    #[test]
    fn colors_go_to_dlx_c_and_not_to_xcov() {
        let i = instance("p q r | x y\np q x y:A\np r x:A y\np x:B\nq x:A\nr y:B\n");
        assert!(i.peer.has_colors);
        assert_eq!(i.count(SolverKind::Exactly), Outcome::Count(1));
        assert_eq!(i.count(SolverKind::Dlx), Outcome::Count(1));
        assert!(matches!(i.count(SolverKind::Xcov), Outcome::Unsupported(_)));
    }

    #[test]
    fn no_solution() {
        let i = instance("a b c\na b\nb c\n");
        assert_eq!(counts(&i), vec![Outcome::Count(0); 3]);
    }
}
