//! Property tests: the engine finds exactly the solutions a naive solver finds.

use crate::common;

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use common::{plain_problem, Plain};
use exactly::{verify, Engine, Limits, OptionId, Outcome, Solver};
use proptest::prelude::*;

const ENGINES: [Engine; 5] = [
    Engine::Cells,
    Engine::Links,
    Engine::Bits,
    Engine::Masks,
    Engine::Sparse,
];

/// Every subproblem of `split` counted on `threads` threads, with no budget.
fn count_every<L: Sync>(
    problem: &exactly::Problem<L>,
    engine: Engine,
    split: &exactly::parallel::Split,
    threads: usize,
) -> exactly::parallel::ParallelCount {
    exactly::parallel::count_split(
        problem,
        engine,
        split,
        threads,
        &Limits::default(),
        &[],
        &|_, _, _| {},
    )
    .expect("the split's own prefixes replay")
}

fn engine_solutions(plain: &Plain, engine: Engine, forced_first: bool) -> Vec<Vec<usize>> {
    let problem = plain.to_problem();
    let mut solver = Solver::new(&problem)
        .engine(engine)
        .forced_first(forced_first);
    let mut out: Vec<Vec<usize>> = Vec::new();
    for s in solver.solutions() {
        verify(&problem, s.options()).expect("engine solution verifies");
        let mut labels: Vec<usize> = s.options().iter().map(|&o| *problem.label(o)).collect();
        labels.sort_unstable();
        out.push(labels);
    }
    assert_eq!(solver.outcome(), Some(Outcome::Complete));
    out.sort();
    out
}

proptest! {
    #![proptest_config(common::differential(3000))]

    #[test]
    fn same_solution_sets(plain in plain_problem()) {
        let expected = plain.naive_solutions();
        for engine in ENGINES {
            for forced_first in [false, true] {
                let got = engine_solutions(&plain, engine, forced_first);
                let unique: BTreeSet<_> = got.iter().cloned().collect();
                prop_assert_eq!(unique.len(), got.len(), "a solution was reported twice");
                prop_assert_eq!(&got, &expected, "{:?} forced_first {}", engine, forced_first);
            }
        }
    }

    #[test]
    fn count_first_and_callback_agree(plain in plain_problem(), seed in any::<u64>()) {
        let problem = plain.to_problem();
        let expected = plain.naive_solutions().len() as u128;
        let mut nodes = Vec::new();
        for engine in ENGINES {
            let mut counter = Solver::new(&problem).engine(engine);
            let count = counter.count();
            prop_assert_eq!(count.solutions, expected);
            prop_assert!(count.outcome.is_complete());
            // Counting shortcuts the last level but must account the same nodes.
            let mut visitor = Solver::new(&problem).engine(engine);
            let mut seen = 0u128;
            let outcome = visitor.for_each(|_| { seen += 1; ControlFlow::Continue(()) });
            prop_assert_eq!(outcome, Outcome::Complete);
            prop_assert_eq!(seen, expected);
            prop_assert_eq!(counter.stats().nodes, visitor.stats().nodes);
            nodes.push(counter.stats().nodes);
            // A random tie-break changes the order, not the set.
            let seeded = Solver::new(&problem).engine(engine).seed(seed).count();
            prop_assert_eq!(seeded.solutions, expected);
            let first = Solver::new(&problem).engine(engine).first().unwrap();
            prop_assert_eq!(first.is_some(), expected > 0);
        }
        // All engines walk the same tree.
        prop_assert!(nodes.iter().all(|&n| n == nodes[0]), "{:?}", nodes);
    }

    #[test]
    fn limits_stop_early_and_resume(plain in plain_problem(), budget in 1u64..20) {
        let problem = plain.to_problem();
        let expected = plain.naive_solutions().len() as u128;
        for engine in ENGINES {
            let limits = Limits::default().max_nodes(budget);
            let mut solver = Solver::new(&problem).engine(engine).limits(limits);
            let partial = solver.count();
            prop_assert!(partial.solutions <= expected);
            if partial.outcome.is_complete() {
                prop_assert_eq!(partial.solutions, expected);
            }
            let limits = Limits::default().max_solutions(2);
            let c = Solver::new(&problem).engine(engine).limits(limits).count();
            prop_assert_eq!(c.solutions, expected.min(2));
            // The iterator resumes after each solution and ends complete.
            let mut iterating = Solver::new(&problem).engine(engine);
            let n = iterating.solutions().count() as u128;
            prop_assert_eq!(n, expected);
            prop_assert_eq!(iterating.outcome(), Some(Outcome::Complete));
        }
    }

    #[test]
    fn splits_partition_the_tree(plain in plain_problem(), depth in 0usize..4, threads in 1usize..4) {
        let problem = plain.to_problem();
        let expected = plain.naive_solutions().len() as u128;
        for engine in ENGINES {
            let mut whole = Solver::new(&problem).engine(engine);
            whole.count();
            let total_nodes = whole.stats().nodes;
            let total_updates = whole.stats().updates;
            let mut solver = Solver::new(&problem).engine(engine);
            let mut subproblems = Vec::new();
            let mut above = 0u128;
            let outcome = solver.split(depth, |p| subproblems.push(p.to_vec()), |_| above += 1);
            prop_assert_eq!(outcome, Outcome::Complete);
            let mut nodes = solver.stats().nodes;
            let mut updates = solver.stats().updates;
            let mut solutions = above;
            // One solver, reset between subproblems, as the workers do.
            let mut sub = Solver::new(&problem).engine(engine);
            for prefix in &subproblems {
                prop_assert_eq!(prefix.len(), depth);
                sub.reset();
                sub.restrict(prefix).unwrap_or_else(|e| panic!("{engine:?} {prefix:?}: {e}"));
                solutions += sub.count().solutions;
                nodes += sub.stats().nodes;
                updates += sub.stats().updates;
            }
            prop_assert_eq!(solutions, expected, "{:?}", engine);
            prop_assert_eq!(nodes, total_nodes, "{:?}", engine);
            // The split covers the options of its cut level, where a
            // whole count may count the last item's options without
            // covering them: the same updates or more, never fewer.
            prop_assert!(updates >= total_updates, "{:?}: {} < {}", engine, updates, total_updates);
            let mut cut = exactly::parallel::Split::default();
            cut.depth = depth;
            cut.subproblems = subproblems;
            cut.solutions = above;
            cut.nodes = solver.stats().nodes;
            cut.updates = solver.stats().updates;
            let counted = count_every(&problem, engine, &cut, threads);
            prop_assert_eq!(counted.solutions, expected);
            prop_assert_eq!(counted.nodes, total_nodes);
            prop_assert_eq!(counted.updates, updates);
            // `parallel::split` makes each cut from the one above it; the
            // cut it stops at is the one-walk cut at that depth.
            // With fewer subproblems wanted, the cut is the shallowest with
            // that many (steps that double over narrow parts of the tree
            // pass over none).
            let want = threads * threads + depth;
            let some = exactly::parallel::split(&problem, engine, want, 6);
            prop_assert_eq!(&some, &exactly::parallel::split_at(&problem, engine, some.depth));
            // Rounds walked on several threads make the same cut.
            prop_assert_eq!(&exactly::parallel::split_on(&problem, engine, want, 6, threads), &some);
            for shallower in 0..some.depth {
                let above = exactly::parallel::split_at(&problem, engine, shallower);
                prop_assert!(above.subproblems.len() < want, "{:?}: depth {} has {} of {}", engine, shallower, above.subproblems.len(), want);
            }
            let made = exactly::parallel::split(&problem, engine, usize::MAX, depth);
            prop_assert_eq!(&made, &exactly::parallel::split_at(&problem, engine, made.depth), "{:?}", engine);
            if !made.subproblems.is_empty() {
                if engine == Engine::Cells {
                    // Cuts walk a dancing-cells problem on dancing links,
                    // in the problem's order. Dancing cells try an item's
                    // options in an order of their own, and stop committing
                    // an option once it leaves an item with none: the same
                    // subproblems, and no more updates.
                    prop_assert!(cut.updates <= made.updates, "{} > {}", cut.updates, made.updates);
                    let sorted = |s: &exactly::parallel::Split| {
                        let mut s = s.clone();
                        s.subproblems.sort();
                        s.updates = 0;
                        s
                    };
                    prop_assert_eq!(sorted(&made), sorted(&cut));
                } else {
                    prop_assert_eq!(&made, &cut, "{:?}", engine);
                }
            }
        }
    }

    #[test]
    fn reset_to_is_reset_and_restrict(
        plain in plain_problem(),
        moves in proptest::collection::vec((0usize..4, any::<u64>(), 0u64..6), 1..8),
    ) {
        // A solver moved from prefix to prefix (the subproblems of cuts at
        // several depths, prefixes that do not replay, searches stopped
        // part way) answers as a fresh solver restricted to each prefix.
        let problem = plain.to_problem();
        let options = problem.num_options() as u64;
        for engine in ENGINES {
            let mut moved = Solver::new(&problem).engine(engine);
            for &(depth, pick, budget) in &moves {
                let cut = exactly::parallel::split_at(&problem, engine, depth);
                let mut prefix = if cut.subproblems.is_empty() {
                    Vec::new()
                } else {
                    cut.subproblems[(pick as usize) % cut.subproblems.len()].clone()
                };
                if pick % 5 == 0 && options > 0 {
                    // Somewhere in it, an option that may not be a choice.
                    let at = (pick as usize / 5) % (prefix.len() + 1);
                    prefix.truncate(at);
                    prefix.push(OptionId::new((pick % options) as usize));
                }
                let mut fresh = Solver::new(&problem).engine(engine);
                let replayed = fresh.restrict(&prefix);
                moved = moved.limits(Limits::default());
                prop_assert_eq!(moved.reset_to(&prefix), replayed.clone(), "{:?} {:?}", engine, prefix);
                let (a, b) = (moved.count(), fresh.count());
                prop_assert_eq!(a, b, "{:?} {:?}", engine, prefix);
                let work = |s: &exactly::Stats| (s.nodes, s.updates, s.solutions, s.max_depth);
                prop_assert_eq!(work(moved.stats()), work(fresh.stats()), "{:?} {:?}", engine, prefix);
                if budget > 0 {
                    // Leave it part way into a search of the same prefix.
                    if moved.reset_to(&prefix).is_ok() {
                        moved = moved.limits(Limits::default().max_nodes(budget));
                        moved.count();
                    }
                }
            }
            // And back at the root, every solution.
            moved = moved.limits(Limits::default());
            prop_assert_eq!(moved.reset_to(&[]), Ok(()));
            prop_assert_eq!(moved.count().solutions, plain.naive_solutions().len() as u128);
            moved.reset();
            prop_assert_eq!(moved.count().solutions, plain.naive_solutions().len() as u128);
        }
    }

    #[test]
    fn replays_fail_where_the_search_would(
        plain in plain_problem(),
        depth in 0usize..4,
        pick in any::<u64>(),
        tail in proptest::collection::vec(any::<u64>(), 0..4),
    ) {
        // A cut's subproblem with options of any kind put after it: the
        // replay (whose scans stop early on the way down) accepts it
        // exactly where the search branches on an item of each option, as
        // `branch` shows level by level, and fails where that first stops.
        let problem = plain.to_problem();
        let options = problem.num_options() as u64;
        prop_assume!(options > 0);
        for engine in ENGINES {
            let cut = exactly::parallel::split_at(&problem, engine, depth);
            let mut prefix = if cut.subproblems.is_empty() {
                Vec::new()
            } else {
                cut.subproblems[(pick as usize) % cut.subproblems.len()].clone()
            };
            prefix.extend(tail.iter().map(|&t| OptionId::new((t % options) as usize)));
            let mut expected = Ok(());
            for (level, &option) in prefix.iter().enumerate() {
                let mut walk = Solver::new(&problem).engine(engine);
                walk.restrict(&prefix[..level]).unwrap();
                match walk.branch().unwrap() {
                    exactly::Branch::Solution => {
                        expected = Err(exactly::PrefixError::TooLong { level });
                    }
                    exactly::Branch::Options(list) if !list.contains(&option) => {
                        expected = Err(exactly::PrefixError::NotAvailable { level, option });
                    }
                    exactly::Branch::Options(_) => continue,
                }
                break;
            }
            let mut solver = Solver::new(&problem).engine(engine);
            prop_assert_eq!(solver.restrict(&prefix), expected.clone(), "{:?} {:?}", engine, prefix);
            let mut moved = Solver::new(&problem).engine(engine);
            let _ = moved.reset_to(&prefix[..prefix.len() / 2]);
            prop_assert_eq!(moved.reset_to(&prefix), expected, "{:?} {:?}", engine, prefix);
        }
    }

    #[test]
    fn cuts_through_forced_moves_from_the_root(
        plain in plain_problem(),
        chain in 0usize..6,
        dead in any::<bool>(),
        want in 2usize..12,
        max_depth in 0usize..10,
    ) {
        // Items of one option each, left of the problem's own, make a chain
        // of forced moves from the root; an item with no option right of
        // them all makes the root a dead end, which the chain's quick scans
        // do not see. The cut is still the one-walk cut at its depth, the
        // shallowest with that many subproblems, and counts the rest.
        let (p, gap) = (plain.primary, chain + usize::from(dead));
        let shift = |i: usize| if i < p { i + chain } else { i + gap };
        let mut options: Vec<Vec<(usize, u32)>> = (0..chain).map(|j| vec![(j, 0)]).collect();
        options.extend(plain.options.iter().map(|o| o.iter().map(|&(i, c)| (shift(i), c)).collect()));
        let longer = Plain { primary: p + gap, secondary: plain.secondary, options };
        let problem = longer.to_problem();
        let expected = longer.naive_solutions().len() as u128;
        for engine in ENGINES {
            let made = exactly::parallel::split(&problem, engine, want, max_depth);
            prop_assert_eq!(&made, &exactly::parallel::split_at(&problem, engine, made.depth), "{:?}", engine);
            prop_assert_eq!(&exactly::parallel::split_on(&problem, engine, want, max_depth, 2), &made, "{:?}", engine);
            for shallower in 0..made.depth {
                let above = exactly::parallel::split_at(&problem, engine, shallower);
                prop_assert!(above.subproblems.len() < want, "{:?}: depth {}", engine, shallower);
            }
            let counted = count_every(&problem, engine, &made, 2);
            prop_assert_eq!(counted.solutions, expected, "{:?}", engine);
            let mut whole = Solver::new(&problem).engine(engine);
            whole.count();
            prop_assert_eq!(counted.nodes, whole.stats().nodes, "{:?}", engine);
        }
    }

    #[test]
    fn reset_after_a_prefix_that_does_not_replay(plain in plain_problem(), pick in any::<u64>()) {
        // A prefix whose first levels replay and whose last does not leaves
        // a solver that `reset` returns to the whole problem.
        let problem = plain.to_problem();
        let options = problem.num_options() as u64;
        prop_assume!(options > 0);
        let expected = plain.naive_solutions().len() as u128;
        for engine in ENGINES {
            let cut = exactly::parallel::split_at(&problem, engine, 2);
            let mut prefix = cut.subproblems.first().cloned().unwrap_or_default();
            prefix.push(OptionId::new((pick % options) as usize));
            let mut solver = Solver::new(&problem).engine(engine);
            if solver.restrict(&prefix).is_err() {
                solver.reset();
                prop_assert_eq!(solver.count().solutions, expected, "{:?}", engine);
            }
        }
    }

    #[test]
    fn reset_after_a_stopped_search(plain in plain_problem(), budget in 1u64..10) {
        let problem = plain.to_problem();
        let expected = plain.naive_solutions().len() as u128;
        for engine in ENGINES {
            let limits = Limits::default().max_nodes(budget);
            let mut solver = Solver::new(&problem).engine(engine).limits(limits);
            solver.count();
            solver.reset();
            let mut unlimited = Solver::new(&problem).engine(engine);
            let fresh = unlimited.count().solutions;
            prop_assert_eq!(fresh, expected);
            // The reset solver still has its budget; lift it by counting in
            // slices until the search completes.
            let mut total = 0;
            loop {
                let c = solver.count();
                total += c.solutions;
                if c.outcome.is_complete() {
                    break;
                }
                let more = solver.stats().nodes + budget;
                solver = solver.limits(Limits::default().max_nodes(more));
            }
            prop_assert_eq!(total, expected, "{:?}", engine);
        }
    }

    #[test]
    fn assume_keeps_the_solutions_holding_the_options(
        plain in plain_problem(),
        picks in proptest::collection::btree_set(any::<usize>(), 0..4),
    ) {
        let problem = plain.to_problem();
        let n = problem.num_options();
        if n == 0 {
            return Ok(());
        }
        let picked: BTreeSet<usize> = picks.iter().map(|&k| k % n).collect();
        let options: Vec<OptionId> = picked.iter().map(|&k| OptionId::new(k)).collect();
        let labels: Vec<usize> = options.iter().map(|&o| *problem.label(o)).collect();
        let all = plain.naive_solutions();
        let expected = all.iter().filter(|s| labels.iter().all(|l| s.contains(l))).count() as u128;
        // Whether the options can be taken together (an option that leads
        // to a dead end is still taken): the same on every engine.
        let mut verdict = None;
        for engine in ENGINES {
            for forced_first in [false, true] {
                let mut solver = Solver::new(&problem).engine(engine).forced_first(forced_first);
                // Twice, to check that `reset` undoes the options.
                for _ in 0..2 {
                    let assumed = solver.assume(&options);
                    let first = *verdict.get_or_insert(assumed.is_ok());
                    prop_assert_eq!(assumed.is_ok(), first, "{:?} forced_first {}", engine, forced_first);
                    let got = match assumed {
                        Ok(()) => {
                            let mut found = 0;
                            solver.for_each(|s| {
                                verify(&problem, s.options()).expect("solution verifies");
                                found += 1;
                                ControlFlow::Continue(())
                            });
                            found
                        }
                        Err(_) => 0,
                    };
                    prop_assert_eq!(got, expected, "{:?} forced_first {}", engine, forced_first);
                    solver.reset();
                }
                prop_assert_eq!(solver.count().solutions, all.len() as u128, "{:?}", engine);
            }
        }
    }
}

/// Langford pairs 1..n as Knuth's text (`exactly gen langford n`).
fn langford(n: usize) -> String {
    let mut text: String = (1..=n)
        .map(|k| format!("d{k} "))
        .chain((1..=2 * n).map(|i| format!("p{i} ")))
        .collect();
    text.push('\n');
    for k in 1..=n {
        for i in 1..2 * n - k {
            text += &format!("d{k} p{i} p{}\n", i + k + 1);
        }
    }
    text
}

#[test]
fn many_items_keep_dlx1s_tree() {
    // Past 65,536 primary items, dancing links count the items left with
    // no option and stop their scan at a forced move while there are none.
    // Langford pairs beside one option of 70,000 items of its own,
    // declared before them and after them: the same solutions as the pairs
    // alone, and the nodes of DLX1's tree (as dancing cells count them),
    // dead ends included.
    let pad: Vec<String> = (0..70_000).map(|k| format!("z{k}")).collect();
    let pad = pad.join(" ");
    for n in [4, 7] {
        let pairs = langford(n);
        let (names, options) = pairs.split_once('\n').unwrap();
        let alone = Solver::new(&exactly::format::parse_dlx(&pairs).unwrap()).count();
        for text in [
            format!("{pad} {names}\n{pad}\n{options}"),
            format!("{names} {pad}\n{options}{pad}\n"),
        ] {
            let p = exactly::format::parse_dlx(&text).unwrap();
            assert_eq!(Engine::Auto.resolve(&p), Engine::Links);
            let mut nodes = Vec::new();
            for engine in [Engine::Links, Engine::Cells] {
                let mut solver = Solver::new(&p).engine(engine);
                let count = solver.count();
                assert!(count.outcome.is_complete());
                assert_eq!(count.solutions, alone.solutions, "langford {n}, {engine:?}");
                nodes.push(solver.stats().nodes);
            }
            assert_eq!(nodes[0], nodes[1], "langford {n}: links against cells");
        }
    }
}

#[test]
fn cuts_on_several_threads_are_the_cuts_on_one() {
    // Wide frontiers, so that rounds run on the threads; every engine,
    // budgets of subproblems that stop at several depths.
    let p = exactly::format::parse_dlx(&langford(11)).unwrap();
    for engine in ENGINES {
        for min in [2, 50, 400, 3000, 20000] {
            let one = exactly::parallel::split(&p, engine, min, 12);
            for threads in [2, 3, 8] {
                let many = exactly::parallel::split_on(&p, engine, min, 12, threads);
                assert_eq!(
                    many, one,
                    "{engine:?}, {min} subproblems, {threads} threads"
                );
                assert_eq!(many.updates, one.updates, "{engine:?}, {min}, {threads}");
            }
            let counted = count_every(&p, engine, &one, 3);
            assert_eq!(counted.solutions, 35_584, "{engine:?}, {min}");
        }
    }
}

#[test]
fn a_count_cuts_short_of_a_depth_that_holds_far_more() {
    // Three primary items of 100 options each: 100 subproblems at depth 1,
    // 10,000 at depth 2. Two threads ask for 128: 100 is a quarter of
    // that or more, and 10,000 over four times, so the cut stops at depth
    // 1, where `split_on` goes on to depth 2.
    let mut text = String::from("a b c |");
    for i in 0..300 {
        text += &format!(" s{i}");
    }
    text.push('\n');
    for (k, item) in ["a", "b", "c"].iter().enumerate() {
        for i in 0..100 {
            text += &format!("{item} s{}\n", 100 * k + i);
        }
    }
    let p = exactly::format::parse_dlx(&text).unwrap();
    for engine in ENGINES {
        let short = exactly::parallel::split_for_count(&p, engine, 2, 3);
        assert_eq!(
            (short.depth, short.subproblems.len()),
            (1, 100),
            "{engine:?}"
        );
        assert_eq!(
            exactly::parallel::split_at(&p, engine, 1),
            short,
            "{engine:?}"
        );
        let full = exactly::parallel::split_on(&p, engine, 128, 3, 2);
        assert_eq!(
            (full.depth, full.subproblems.len()),
            (2, 10_000),
            "{engine:?}"
        );
        let counted = count_every(&p, engine, &short, 2);
        assert_eq!(counted.solutions, 1_000_000, "{engine:?}");
    }
    // Where the next depth holds no more than four times as many, the cut
    // goes on to it: Langford pairs 1..11 on two threads, as `split_on`.
    let p = exactly::format::parse_dlx(&langford(11)).unwrap();
    assert_eq!(
        exactly::parallel::split_for_count(&p, Engine::Auto, 2, 12),
        exactly::parallel::split_on(&p, Engine::Auto, 128, 12, 2)
    );
}
