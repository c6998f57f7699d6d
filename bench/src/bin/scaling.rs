//! Multi-core scaling of `exactly::parallel::count`: counts each instance
//! with 1, 2, 4, … threads and prints the time and speed-up over 1 thread.
//!
//! `cargo run --release --bin scaling -- [--threads 1,2,4,8,16] [--runs N] [FILE.dlx...]`
//!
//! Without files it counts queens-15 and the 6x10 pentominoes, built in.
//! Each file (Knuth's format) is counted on every thread count and every
//! count must equal the first one's (and `testdata/golden.tsv`'s, for a
//! file named there). Times are the best of N runs (3 by default).

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
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
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
