//! Plan, result and checkpoint files: what the writers write, the readers
//! read back; a damaged file is refused or gives the same total; inputs
//! that once broke a reader are replayed.

use exactly::format::{parse_dlx, ParseError, ParseErrorKind};
use exactly::parallel::{self, Split};
use exactly::records::{
    self, fnv1a, parse_checkpoint, parse_plan, parse_result, write_plan, write_result,
    CheckpointHeader, MergeError, Plan, PlanHeader, Record, ShardResult,
};
use exactly::{Engine, Limits, Problem};
use proptest::prelude::*;

fn problem(name: &str) -> Problem {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(name);
    parse_dlx(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A plan of `p` cut for at least `cubes` subproblems, with estimates.
fn plan_of(p: &Problem, cubes: usize) -> Plan {
    let split = parallel::split(p, Engine::Auto, cubes, 64);
    let estimates = (0..split.subproblems.len())
        .map(|i| (i * 7 % 5) as f64)
        .collect();
    Plan {
        input: "0123456789abcdef".into(),
        split,
        estimates,
    }
}

/// Counts the shards of `plan` and writes their results.
fn results_of(p: &Problem, plan: &Plan, id: &str, shards: usize) -> Vec<String> {
    let mut out = Vec::new();
    for (i, mine) in parallel::balance(&plan.estimates, shards)
        .iter()
        .enumerate()
    {
        let mut skip = vec![true; plan.split.subproblems.len()];
        for &k in mine {
            skip[k] = false;
        }
        let found = std::sync::Mutex::new(Vec::new());
        parallel::count_split(
            p,
            Engine::Auto,
            &plan.split,
            1,
            &Limits::default(),
            &skip,
            &|index, solutions, nodes| {
                found.lock().unwrap().push(Record {
                    index,
                    solutions,
                    nodes,
                })
            },
        )
        .unwrap();
        let mut records = found.into_inner().unwrap();
        records.sort_unstable();
        let result = ShardResult {
            plan: PlanHeader::of(id, plan),
            shard: (i, shards),
            records,
        };
        out.push(write_result(&result).unwrap());
    }
    out
}

/// Reads results and merges them.
fn merged(texts: &[String]) -> Result<u128, String> {
    let results = texts
        .iter()
        .map(|t| parse_result(t).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    records::merge(&results).map_err(|e| e.to_string())
}

/// The text with one byte changed: removed, replaced by `byte`, or the
/// text cut there.
fn damage(text: &str, at: usize, how: u8, byte: u8) -> Option<String> {
    let mut bytes = text.as_bytes().to_vec();
    let at = at % bytes.len().max(1);
    match how % 3 {
        0 => {
            bytes.remove(at);
        }
        1 => {
            if bytes[at] == byte {
                return None;
            }
            bytes[at] = byte;
        }
        _ => bytes.truncate(at),
    }
    String::from_utf8(bytes).ok()
}

#[test]
fn a_plan_round_trips_and_matches_the_tree() {
    let p = problem("langford-11.dlx");
    let plan = plan_of(&p, 40);
    let text = write_plan(&plan);
    assert!(text.starts_with("# exactly plan 2\n"));
    let back = parse_plan(&text).unwrap();
    assert_eq!(back, plan);
    assert_eq!(parallel::check_split(&p, &back.split), Ok(()));
    let id = records::plan_id(&text);
    for shards in [1, 3, 7, 1000] {
        assert_eq!(merged(&results_of(&p, &plan, &id, shards)), Ok(35584));
    }
}

#[test]
fn a_split_that_is_not_the_trees_is_refused() {
    let p = problem("langford-11.dlx");
    let good = parallel::split(&p, Engine::Auto, 40, 64);
    let mut bad = good.clone();
    bad.subproblems.pop();
    assert!(parallel::check_split(&p, &bad).is_err());
    let mut bad = good.clone();
    bad.subproblems.swap(2, 3);
    assert_eq!(
        parallel::check_split(&p, &bad),
        Err(parallel::SplitMismatch::Subproblem { index: 2 })
    );
    let mut bad = good.clone();
    bad.solutions += 1;
    assert!(parallel::check_split(&p, &bad).is_err());
    let mut bad = good.clone();
    bad.nodes -= 1;
    assert!(parallel::check_split(&p, &bad).is_err());
    let mut bad = good.clone();
    bad.depth += 1;
    assert!(parallel::check_split(&p, &bad).is_err());
    // The same subproblem twice, another left out: the count still matches.
    let mut bad = good;
    bad.subproblems[1] = bad.subproblems[0].clone();
    assert_eq!(
        parallel::check_split(&p, &bad),
        Err(parallel::SplitMismatch::Subproblem { index: 1 })
    );
}

/// Seals `body` the way the writers do, under `key`.
fn seal(key: &str, body: &str) -> String {
    format!(
        "{body} {:016x}\n",
        fnv1a(format!("{key}\n{body}").as_bytes())
    )
}

#[test]
fn well_sealed_lines_with_bad_fields_are_refused() {
    let key = "# input 0123456789abcdef depth 1 subproblems 1 above 0 nodes 1";
    let plan = |line: &str| format!("# exactly plan 2\n{}{}", seal(key, key), seal(key, line));
    // A prefix option past u32.
    let err = parse_plan(&plan("0 5 4294967296")).unwrap_err();
    assert!(
        matches!(
            err,
            ParseError {
                line: 3,
                column: 5,
                kind: ParseErrorKind::Invalid(_),
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("past the largest"), "{err}");
    // A prefix longer or shorter than the depth.
    assert!(parse_plan(&plan("0 5 1,2")).is_err());
    assert!(parse_plan(&plan("0 5 -")).is_err());
    // Signs, empty options, and estimates that are not whole numbers.
    for line in [
        "+0 5 1", "0 5 +1", "0 5 ,1", "0 -5 1", "0 inf 1", "0 NaN 1", "1 5 1",
    ] {
        assert!(parse_plan(&plan(line)).is_err(), "{line}");
    }
    assert_eq!(
        parse_plan(&plan("0 5 1")).unwrap().split.subproblems.len(),
        1
    );
    // A depth past the limit.
    let key = format!(
        "# input 0123456789abcdef depth {} subproblems 0 above 0 nodes 1",
        1 << 20
    );
    let err = parse_plan(&format!("# exactly plan 2\n{}", seal(&key, &key))).unwrap_err();
    assert!(err.to_string().contains("past the limit"), "{err}");
    // Counts past the integer types.
    let key =
        "# input 0123456789abcdef depth 0 subproblems 99999999999999999999999 above 0 nodes 1";
    assert!(parse_plan(&format!("# exactly plan 2\n{}", seal(key, key))).is_err());
}

#[test]
fn results_whose_counts_overflow_are_refused() {
    let header = PlanHeader {
        id: "0123456789abcdef".into(),
        input: "0123456789abcdef".into(),
        depth: 1,
        subproblems: 2,
        above: 0,
        nodes: 1,
    };
    let record = |index, solutions| Record {
        index,
        solutions,
        nodes: 1,
    };
    let big = ShardResult {
        plan: header.clone(),
        shard: (0, 2),
        records: vec![record(0, u128::MAX)],
    };
    let one = ShardResult {
        plan: header.clone(),
        shard: (1, 2),
        records: vec![record(1, 1)],
    };
    assert_eq!(
        records::merge(&[big.clone(), one.clone()]),
        Err(MergeError::Overflow)
    );
    let both = ShardResult {
        plan: header,
        shard: (0, 1),
        records: vec![record(0, u128::MAX), record(1, 1)],
    };
    assert_eq!(write_result(&both), None);
    // The same subproblem in two shards.
    let again = ShardResult {
        plan: big.plan.clone(),
        shard: (1, 2),
        records: vec![record(0, 1), record(1, 1)],
    };
    let first = ShardResult {
        records: vec![record(0, 1)],
        ..big.clone()
    };
    assert_eq!(
        records::merge(&[first, again]),
        Err(MergeError::Twice {
            index: 0,
            files: (0, 1)
        })
    );
    // A record past the plan, built by hand, is named.
    let past = ShardResult {
        records: vec![record(0, 1), record(5, 1)],
        ..big
    };
    assert!(matches!(
        records::merge(&[past, one]),
        Err(MergeError::NoSuchSubproblem { index: 5, file: 0 })
    ));
}

#[test]
fn a_checkpoint_round_trips_and_a_torn_line_is_left_out() {
    let header = CheckpointHeader {
        input: "0123456789abcdef".into(),
        depth: 3,
        subproblems: 10,
    };
    let mut text = header.write();
    let rs = [
        Record {
            index: 4,
            solutions: u128::MAX,
            nodes: u64::MAX,
        },
        Record {
            index: 0,
            solutions: 0,
            nodes: 1,
        },
    ];
    for r in &rs {
        text.push_str(&header.record(r));
    }
    let back = parse_checkpoint(&text).unwrap();
    assert_eq!(
        (back.header.clone(), back.records.clone(), back.torn),
        (header.clone(), rs.to_vec(), false)
    );
    let torn = &text[..text.len() - 3];
    let back = parse_checkpoint(torn).unwrap();
    assert_eq!((back.records.len(), back.torn), (1, true));
    // A record of another checkpoint (another key) is damaged here.
    let other = CheckpointHeader {
        depth: 4,
        ..header.clone()
    };
    let mixed = header.write() + &other.record(&rs[0]);
    assert!(matches!(
        parse_checkpoint(&mixed),
        Err(ParseError {
            line: 3,
            kind: ParseErrorKind::Checksum,
            ..
        })
    ));
    // Twice the same subproblem, or one past the split.
    let twice = header.write() + &header.record(&rs[1]) + &header.record(&rs[1]);
    assert!(parse_checkpoint(&twice).is_err());
    let past = header.write()
        + &header.record(&Record {
            index: 10,
            solutions: 0,
            nodes: 0,
        });
    assert!(parse_checkpoint(&past).is_err());
}

#[test]
fn huge_shard_counts_cost_nothing() {
    let weights = [3.0, 1.0, 2.0];
    let groups = parallel::balance(&weights, usize::MAX);
    assert_eq!(groups, vec![vec![0], vec![2], vec![1]]);
    assert_eq!(
        parallel::balance(&[], usize::MAX),
        vec![Vec::<usize>::new()]
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Plan → damage → refused, or the same total.
    #[test]
    fn a_damaged_plan_is_refused_or_counts_the_same(at in 0usize..100_000, how in 0u8..3, byte in prop::sample::select(b"0123456789abcdef ,-#\n".to_vec())) {
        let p = problem("queens-10-costs.dlx");
        let plan = plan_of(&p, 4);
        let text = write_plan(&plan);
        let Some(bad) = damage(&text, at, how, byte) else { return Ok(()); };
        let Ok(read) = parse_plan(&bad) else { return Ok(()); };
        if parallel::check_split(&p, &read.split).is_err() {
            return Ok(());
        }
        let id = records::plan_id(&bad);
        prop_assert_eq!(merged(&results_of(&p, &read, &id, 2)), Ok(724));
    }

    /// Results → damage → refused, or the same total.
    #[test]
    fn damaged_results_are_refused_or_merge_the_same(file in 0usize..3, at in 0usize..100_000, how in 0u8..3, byte in prop::sample::select(b"0123456789abcdef /#\n".to_vec())) {
        static RESULTS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
        let mut results = RESULTS
            .get_or_init(|| {
                let p = problem("langford-11.dlx");
                let plan = plan_of(&p, 40);
                let text = write_plan(&plan);
                results_of(&p, &plan, &records::plan_id(&text), 3)
            })
            .clone();
        let Some(bad) = damage(&results[file], at, how, byte) else { return Ok(()); };
        results[file] = bad;
        if let Ok(total) = merged(&results) {
            prop_assert_eq!(total, 35584);
        }
    }

    /// Any text: the readers answer without panicking.
    #[test]
    fn arbitrary_text_never_panics(text in "(#? ?[0-9a-f ,/#-]{0,30}\n){0,6}") {
        let _ = parse_plan(&text);
        let _ = parse_result(&text);
        let _ = parse_checkpoint(&text);
        let _ = parse_plan(&format!("# exactly plan 2\n{text}"));
        let _ = parse_checkpoint(&format!("# exactly checkpoint 2\n{text}"));
        let _ = parse_result(&format!("0\n# exactly result 2\n{text}"));
    }

    /// Any split written as a plan reads back the same.
    #[test]
    fn plans_round_trip(depth in 0usize..4, prefixes in prop::collection::vec(prop::collection::vec(any::<u32>(), 3), 0..5), solutions in any::<u128>(), nodes in any::<u64>(), estimates in prop::collection::vec(0u64..1 << 53, 5)) {
        let subproblems: Vec<Vec<exactly::OptionId>> = prefixes
            .iter()
            .map(|p| p[..depth.min(3)].iter().map(|&o| exactly::OptionId::new(o as usize)).collect())
            .collect();
        let plan = Plan {
            input: "fedcba9876543210".into(),
            estimates: estimates[..subproblems.len()].iter().map(|&e| e as f64).collect(),
            split: {
                let mut split = Split::default();
                (split.depth, split.subproblems, split.solutions, split.nodes) = (depth.min(3), subproblems, solutions, nodes);
                split
            },
        };
        prop_assert_eq!(parse_plan(&write_plan(&plan)), Ok(plan));
    }

    /// Any result written reads back the same.
    #[test]
    fn results_round_trip(counts in prop::collection::btree_map(0usize..50, (0u128..1 << 100, any::<u64>()), 0..8), i in 0usize..3) {
        let result = ShardResult {
            plan: PlanHeader {
                id: "0123456789abcdef".into(),
                input: "fedcba9876543210".into(),
                depth: 2,
                subproblems: 50,
                above: 3,
                nodes: 9,
            },
            shard: (i, 3),
            records: counts.iter().map(|(&index, &(solutions, nodes))| Record { index, solutions, nodes }).collect(),
        };
        let text = write_result(&result).unwrap();
        prop_assert_eq!(parse_result(&text), Ok(result));
    }
}

#[test]
fn replay_fuzz_inputs() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/fuzz-records");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse_plan(&text);
        let _ = parse_result(&text);
        let _ = parse_checkpoint(&text);
        n += 1;
    }
    assert!(n > 0, "no inputs to replay");
}

#[test]
fn huge_thread_counts_and_depths_are_bounded() {
    let p = problem("langford-11.dlx");
    assert_eq!(parallel::count(&p, usize::MAX).solutions, 35584);
    let p = problem("knuth-example.dlx");
    let deep = parallel::split_at(&p, Engine::Auto, usize::MAX);
    assert_eq!((deep.subproblems.len(), deep.solutions), (0, 1));
    let mut whole = deep.clone();
    whole.depth = usize::MAX;
    assert_eq!(parallel::check_split(&p, &whole), Ok(()));
}
