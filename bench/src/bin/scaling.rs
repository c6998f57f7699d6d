//! Multi-core scaling of `exactly::parallel::count`: counts each instance
//! with 1, 2, 4, … threads and prints the time and speed-up over 1 thread.
//!
//! `cargo run --release --bin scaling -- [--threads 1,2,4,8,16] [--runs N] [--balance] [FILE.dlx...]`
//!
//! Without files it counts queens-15 and the 6x10 pentominoes, built in.
//! Each file (Knuth's format) is counted on every thread count and every
//! count must equal the first one's (and `testdata/golden.tsv`'s, for a
//! file named there). Times are the best of N runs (3 by default).
//!
//! With `--balance` it measures, on this one thread, what a count on each
//! thread count is made of: the cut `count` makes for that many threads
//! (its time, depth and subproblems), each subproblem's time as one worker
//! counts them in order, and the end that many workers claiming them in
//! order would reach, the cut included. This predicts the speed-up where
//! there are not that many cores, and shows whether the cut or the
//! balance of the subproblems holds it back.
//!
//! With `--workers` it makes the same cut and counts it on each thread
//! count for real, and prints what each worker did: its subproblems and
//! when it finished. The workers' busy time over one worker's shows how
//! much slower each core runs with the others busy (memory, clocks); the
//! spread of their ends shows the balance.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use exactly::Problem;
use exactly_puzzles::polyomino::{pentominoes, Board, Puzzle};
use exactly_puzzles::queens::{self, Queens};

fn instances() -> Vec<(&'static str, u128, Problem<String>)> {
    let queens = queens::encode(&Queens::new(15)).expect("queens 15 encodes");
    let pentomino =
        exactly_puzzles::polyomino::encode(&Puzzle::new(pentominoes(), Board::rectangle(6, 10)))
            .expect("pentominoes encode");
    vec![
        ("queens-15", 2_279_184, relabel(queens)),
        ("pentomino-6x10", 9356, relabel(pentomino)),
    ]
}

/// The problem with each option's Knuth text as its label.
fn relabel<L>(p: Problem<L>) -> Problem<String> {
    let mut names = p
        .option_ids()
        .map(|o| p.option_text(o))
        .collect::<Vec<_>>()
        .into_iter();
    p.map_labels(|_| names.next().unwrap_or_default())
}

/// The golden count of a file named in `testdata/golden.tsv`, if any.
fn golden(file: &Path) -> Option<u128> {
    let name = file.file_name()?.to_str()?;
    let table = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/golden.tsv"),
    )
    .ok()?;
    table.lines().filter(|l| !l.starts_with('#')).find_map(|l| {
        let mut fields = l.split('\t');
        (fields.next()? == name).then(|| fields.next()?.parse().ok())?
    })
}

fn main() -> ExitCode {
    let mut threads = vec![1, 2, 4, 8, 16];
    let mut runs = 3;
    let mut files = Vec::new();
    let mut balance = false;
    let mut workers = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--balance" => balance = true,
            "--workers" => workers = true,
            "--threads" | "--runs" => {
                let Some(value) = args.next() else {
                    eprintln!("scaling: {arg} needs a value");
                    return ExitCode::from(2);
                };
                if arg == "--threads" {
                    threads = value.split(',').filter_map(|t| t.parse().ok()).collect();
                } else if let Ok(n) = value.parse::<usize>() {
                    runs = n.max(1);
                } else {
                    eprintln!("scaling: --runs takes a number, not {value:?}");
                    return ExitCode::from(2);
                }
            }
            _ => files.push(PathBuf::from(arg)),
        }
    }
    let mut cases = Vec::new();
    if files.is_empty() {
        cases = instances()
            .into_iter()
            .map(|(name, expected, p)| (name.to_string(), Some(expected), p))
            .collect();
    }
    for file in &files {
        let problem = match std::fs::read_to_string(file)
            .map_err(|e| e.to_string())
            .and_then(|t| exactly::format::parse_dlx(&t).map_err(|e| e.to_string()))
        {
            Ok(p) => p,
            Err(e) => {
                eprintln!("scaling: {}: {e}", file.display());
                return ExitCode::from(2);
            }
        };
        let name = file
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        cases.push((name, golden(file), problem));
    }
    if balance || workers {
        for (name, _, problem) in &cases {
            // As `count` does, a problem with a rest below its forced
            // moves is cut and counted by that rest.
            let rest = exactly::Rest::of(problem);
            if let Some(rest) = &rest {
                println!("{name}: the rest below {} forced levels", rest.depth);
            }
            if balance {
                match &rest {
                    Some(rest) => simulate(name, &rest.problem, &threads),
                    None => simulate(name, problem, &threads),
                }
            }
            if workers {
                match &rest {
                    Some(rest) => watch(name, &rest.problem, &threads, runs),
                    None => watch(name, problem, &threads, runs),
                }
            }
        }
        return ExitCode::SUCCESS;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("{cores} cores; best of {runs} runs");
    println!(
        "{:<16} {:>8} {:>12} {:>9} {:>11}",
        "instance", "threads", "time", "speed-up", "per thread"
    );
    for (name, mut expected, problem) in cases {
        let mut base = None;
        for &t in &threads {
            let mut best = Duration::MAX;
            for _ in 0..runs {
                let start = Instant::now();
                let c = exactly::parallel::count(&problem, t);
                best = best.min(start.elapsed());
                let want = *expected.get_or_insert(c.solutions);
                if c.solutions != want {
                    eprintln!(
                        "scaling: {name} on {t} threads: {} solutions, expected {want}",
                        c.solutions
                    );
                    return ExitCode::FAILURE;
                }
            }
            let base = *base.get_or_insert(best);
            let speedup = base.as_secs_f64() / best.as_secs_f64();
            println!(
                "{name:<16} {t:>8} {:>10.3} s {speedup:>8.2}x {:>10.2}",
                best.as_secs_f64(),
                speedup / t as f64
            );
        }
    }
    ExitCode::SUCCESS
}

/// The cut `exactly::parallel::count` makes for `t` threads (its wide
/// rounds on them), and its seconds.
fn cut_as_count<L: Sync>(problem: &Problem<L>, t: usize) -> (exactly::parallel::Split, f64) {
    let start = Instant::now();
    let split = exactly::parallel::split_for_count(
        problem,
        exactly::Engine::Auto,
        t,
        problem.num_primary(),
    );
    (split, start.elapsed().as_secs_f64())
}

/// `split` counted on `t` threads as `exactly::parallel::count` counts
/// it, with `on_done` called (on the worker's thread) as each subproblem
/// ends.
fn count_cut<L: Sync>(
    problem: &Problem<L>,
    split: &exactly::parallel::Split,
    t: usize,
    on_done: &(dyn Fn() + Sync),
) -> exactly::parallel::ParallelCount {
    exactly::parallel::count_split(
        problem,
        exactly::Engine::Auto,
        split,
        t,
        &exactly::Limits::default(),
        &[],
        &|_, _, _| on_done(),
    )
    .expect("the split replays")
}

/// `--balance`: for each thread count, the split `exactly::parallel::count`
/// makes, each subproblem counted on this thread in order (as one worker
/// would), and the time that many workers claiming them in order would
/// take: the split's time plus the last worker's end.
fn simulate<L: Sync>(name: &str, problem: &Problem<L>, threads: &[usize]) {
    if problem.has_multiplicities() {
        println!("{name}: multiplicities, split otherwise (`parallel::count_multi`); skipped");
        return;
    }
    let start = Instant::now();
    let whole = exactly::parallel::count(problem, 1);
    let one = start.elapsed().as_secs_f64();
    println!("{name}: 1 thread {one:.3} s");
    for &t in threads.iter().filter(|&&t| t > 1) {
        let (split, cut) = cut_as_count(problem, t);
        // The subproblems counted on one worker, as `count` counts them:
        // each item's time runs from the end of the one before.
        let times = std::sync::Mutex::new(Vec::with_capacity(split.subproblems.len()));
        let last = std::sync::Mutex::new(Instant::now());
        let counted = count_cut(problem, &split, 1, &|| {
            let mut last = last.lock().expect("not poisoned");
            times
                .lock()
                .expect("not poisoned")
                .push(last.elapsed().as_secs_f64());
            *last = Instant::now();
        });
        assert_eq!(counted.solutions, whole.solutions, "{name}");
        let times = times.into_inner().expect("not poisoned");
        // Each item goes to the worker that is free first.
        let mut free = vec![0.0f64; t];
        for &x in &times {
            let w = free
                .iter_mut()
                .min_by(|a, b| a.total_cmp(b))
                .expect("a worker");
            *w += x;
        }
        let end = free.iter().copied().fold(0.0, f64::max);
        let sum: f64 = times.iter().sum();
        let longest = times.iter().copied().fold(0.0, f64::max);
        println!(
            "{t:>4} threads: cut {cut:.3} s (depth {}, {} subproblems), subproblems {sum:.3} s \
             (longest {longest:.4} s), last worker ends {end:.3} s after the cut: \
             {:.3} s, {:.2}x",
            split.depth,
            split.subproblems.len(),
            cut + end,
            one / (cut + end)
        );
    }
}

/// One real count for `--workers`: the cut's and the count's seconds,
/// each worker's end (seconds from the start of the count) and number of
/// subproblems, by end, and the cut's depth and subproblems.
struct Watched {
    cut: f64,
    count: f64,
    ends: Vec<(f64, usize)>,
    depth: usize,
    subproblems: usize,
}

/// `--workers`: for each thread count, the cut `count` makes and a real
/// count of it on that many threads, best of `runs`, with each worker's
/// subproblems and end. Busy time is the sum of the workers' ends, each
/// from the start of the count (a worker builds its solver and then takes
/// subproblems until none is left); over the one-thread count's, it is
/// what running together costs each core.
fn watch<L: Sync>(name: &str, problem: &Problem<L>, threads: &[usize], runs: usize) {
    if problem.has_multiplicities() {
        println!("{name}: multiplicities, split otherwise (`parallel::count_multi`); skipped");
        return;
    }
    let mut alone = None;
    for &t in threads {
        let mut best: Option<Watched> = None;
        for _ in 0..runs {
            let (split, cut) = cut_as_count(problem, t);
            let ends = std::sync::Mutex::new(std::collections::HashMap::<
                std::thread::ThreadId,
                (f64, usize),
            >::new());
            let begin = Instant::now();
            count_cut(problem, &split, t, &|| {
                let now = begin.elapsed().as_secs_f64();
                let mut ends = ends.lock().expect("not poisoned");
                let end = ends.entry(std::thread::current().id()).or_default();
                *end = (now, end.1 + 1);
            });
            let count = begin.elapsed().as_secs_f64();
            let mut ends: Vec<(f64, usize)> = ends
                .into_inner()
                .expect("not poisoned")
                .into_values()
                .collect();
            ends.sort_by(|a, b| a.0.total_cmp(&b.0));
            if best.as_ref().is_none_or(|b| cut + count < b.cut + b.count) {
                best = Some(Watched {
                    cut,
                    count,
                    ends,
                    depth: split.depth,
                    subproblems: split.subproblems.len(),
                });
            }
        }
        let Some(Watched {
            cut,
            count,
            ends,
            depth,
            subproblems: n,
        }) = best
        else {
            return;
        };
        let busy: f64 = ends.iter().map(|e| e.0).sum();
        let alone = *alone.get_or_insert(busy);
        let first = ends.first().map_or(0.0, |e| e.0);
        let last = ends.last().map_or(0.0, |e| e.0);
        let items: Vec<String> = ends.iter().map(|e| e.1.to_string()).collect();
        println!(
            "{name} {t:>3} threads: cut {cut:.3} s (depth {depth}, {n} subproblems), count {count:.3} s; \
             workers busy {busy:.3} s ({:.2} of one worker's), ends {first:.3}..{last:.3} s; \
             subproblems each {}",
            busy / alone,
            items.join(" ")
        );
    }
}
