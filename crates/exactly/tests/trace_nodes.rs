//! The node changes of a trace (`Solver::trace_nodes`) applied to a plain
//! picture of the matrix, built here from the problem alone: every unlink
//! takes out a node that is in, every relink puts back one that is out, the
//! sizes the search compares are the picture's, each option tried leaves its
//! items covered (or purified), and the end leaves every node back in.

use std::collections::HashSet;

use exactly::format::parse_dlx;
use exactly::{Engine, ItemId, OptionId, Problem, Solver, TraceEvent};

fn testdata(file: &str) -> String {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(file);
    std::fs::read_to_string(path).expect("test data")
}

/// The matrix as the node changes leave it.
struct Picture<'p> {
    p: &'p Problem<String>,
    covered: HashSet<ItemId>,
    gone: HashSet<(ItemId, OptionId)>,
    /// (item chosen, option tried) at each level.
    path: Vec<(ItemId, Option<OptionId>)>,
}

impl Picture<'_> {
    fn size(&self, item: ItemId) -> u32 {
        self.p
            .option_ids()
            .filter(|&o| self.p.option(o).iter().any(|e| e.item == item))
            .filter(|&o| !self.gone.contains(&(item, o)))
            .count() as u32
    }

    /// The links every choice above `level` must have left.
    fn check_path(&self, level: usize, at: &str) {
        let p = self.p;
        for &(chosen, option) in &self.path[..level] {
            assert!(
                self.covered.contains(&chosen),
                "{at}: chosen item not covered"
            );
            let option = option.expect("an option tried above");
            for e in p.option(option) {
                if e.item == chosen {
                    continue;
                }
                if e.color.is_none() {
                    assert!(self.covered.contains(&e.item), "{at}: item not covered");
                } else {
                    // Purified: an option of another color can no longer
                    // be chosen (out of the lists of its primary items that
                    // are still open).
                    for o in p.option_ids() {
                        let clash = p
                            .option(o)
                            .iter()
                            .any(|f| f.item == e.item && f.color != e.color);
                        for f in p.option(o) {
                            let open =
                                f.item.index() < p.num_primary() && !self.covered.contains(&f.item);
                            if clash && open {
                                assert!(self.gone.contains(&(f.item, o)), "{at}: not purified");
                            }
                        }
                    }
                }
            }
        }
        // The options still in a covered item's list are out of every other
        // list (their uncolored nodes).
        for &j in &self.covered {
            for o in p.option_ids() {
                if !p.option(o).iter().any(|e| e.item == j) || self.gone.contains(&(j, o)) {
                    continue;
                }
                for e in p.option(o) {
                    if e.item != j && e.color.is_none() && !self.gone.contains(&(e.item, o)) {
                        let name = p.item_name(e.item);
                        panic!("{at}: option #{} still in {name}'s list", o.index());
                    }
                }
            }
        }
    }
}

/// Runs the checks on `problem`; returns the number of node changes seen.
fn check(problem: &Problem<String>, what: &str) -> usize {
    let mut events = Vec::new();
    let outcome = Solver::new(problem)
        .engine(Engine::Bits)
        .trace_nodes(true)
        .on_trace(|e| events.push(*e))
        .count();
    assert!(outcome.outcome.is_complete());
    // The steps are those of a trace without node changes, by any engine.
    let mut plain = Vec::new();
    Solver::new(problem).on_trace(|e| plain.push(*e)).count();
    let steps: Vec<TraceEvent> = events
        .iter()
        .filter(|e| !matches!(e, TraceEvent::Unlink { .. } | TraceEvent::Relink { .. }))
        .copied()
        .collect();
    assert_eq!(steps, plain, "{what}: steps");

    let p = problem;
    let mut pic = Picture {
        p,
        covered: HashSet::new(),
        gone: HashSet::new(),
        path: Vec::new(),
    };
    let mut changes = 0;
    for (n, e) in events.iter().enumerate() {
        let at = format!("{what}, event {n}");
        match *e {
            TraceEvent::Unlink { item, option } | TraceEvent::Relink { item, option } => {
                changes += 1;
                let back = matches!(e, TraceEvent::Relink { .. });
                match option {
                    None => {
                        let changed = if back {
                            pic.covered.remove(&item)
                        } else {
                            pic.covered.insert(item)
                        };
                        assert!(changed, "{at}: header moved twice");
                    }
                    Some(o) => {
                        assert!(
                            p.option(o).iter().any(|f| f.item == item),
                            "{at}: no such node"
                        );
                        let changed = if back {
                            pic.gone.remove(&(item, o))
                        } else {
                            pic.gone.insert((item, o))
                        };
                        assert!(changed, "{at}: node moved twice");
                    }
                }
            }
            TraceEvent::Choose {
                level,
                item,
                options,
            } => {
                let l = level as usize;
                pic.check_path(l, &at);
                assert!(!pic.covered.contains(&item), "{at}: item already covered");
                assert_eq!(pic.size(item), options, "{at}: size");
                for j in p.item_ids().take(p.num_primary()) {
                    if !pic.covered.contains(&j) {
                        assert!(pic.size(j) >= options, "{at}: not the fewest");
                    }
                }
                pic.path.truncate(l);
                pic.path.push((item, None));
            }
            TraceEvent::Try { level, option, .. } => {
                let slot = &mut pic.path[level as usize];
                assert!(
                    !pic.gone.contains(&(slot.0, option)),
                    "{at}: option tried is out of the list"
                );
                slot.1 = Some(option);
            }
            TraceEvent::Solution { level } => {
                pic.check_path(level as usize, &at);
                for j in p.item_ids().take(p.num_primary()) {
                    assert!(pic.covered.contains(&j), "{at}: a primary item is open");
                }
            }
            TraceEvent::Backtrack { level } => pic.path.truncate(level as usize),
            _ => {}
        }
    }
    assert!(pic.covered.is_empty(), "{what}: a header left out");
    assert!(pic.gone.is_empty(), "{what}: a node left out");
    changes
}

#[test]
fn knuths_example_and_colors() {
    for file in ["knuth-example.dlx", "colors.dlx"] {
        let problem = parse_dlx(&testdata(file)).unwrap();
        assert!(check(&problem, file) > 0, "{file}: no node changes");
    }
}

#[test]
fn small_random_problems() {
    // A fixed generator: primary items p0..p4, secondary x0 x1 with colors.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    for case in 0..60 {
        let mut text = String::from("p0 p1 p2 p3 p4 | x0 x1\n");
        for _ in 0..3 + next(8) {
            let mut line = Vec::new();
            for i in 0..5 {
                if next(3) == 0 {
                    line.push(format!("p{i}"));
                }
            }
            for x in 0..2 {
                match next(4) {
                    0 => line.push(format!("x{x}")),
                    1 => line.push(format!("x{x}:{}", ["A", "B"][next(2) as usize])),
                    _ => {}
                }
            }
            if line.iter().any(|s| s.starts_with('p')) {
                text.push_str(&line.join(" "));
                text.push('\n');
            }
        }
        let problem = parse_dlx(&text).unwrap();
        check(&problem, &format!("case {case}:\n{text}"));
    }
}

#[test]
fn untraced_nodes_change_nothing() {
    // Without `trace_nodes` a trace has no node changes.
    let problem = parse_dlx(&testdata("knuth-example.dlx")).unwrap();
    let mut nodes = 0;
    Solver::new(&problem)
        .engine(Engine::Links)
        .on_trace(|e| nodes += matches!(e, TraceEvent::Unlink { .. }) as u32)
        .count();
    assert_eq!(nodes, 0);
}
