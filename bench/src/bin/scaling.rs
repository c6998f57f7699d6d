//! Multi-core scaling of `exactly::parallel::count`: counts each instance
//! with 1, 2, 4, … threads and prints the time and speed-up over 1 thread.
//!
//! `cargo run --release --bin scaling -- [--threads 1,2,4,8,16]`

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

fn main() {
    let mut threads = vec![1, 2, 4, 8, 16];
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, list] = args.as_slice() {
        if flag == "--threads" {
            threads = list.split(',').filter_map(|t| t.parse().ok()).collect();
        }
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("{cores} cores; best of 3 runs");
    println!(
        "{:<16} {:>8} {:>12} {:>9} {:>11}",
        "instance", "threads", "time", "speed-up", "per thread"
    );
    for (name, expected, problem) in instances() {
        let mut base = None;
        for &t in &threads {
            let mut best = Duration::MAX;
            for _ in 0..3 {
                let start = Instant::now();
                let c = exactly::parallel::count(&problem, t);
                best = best.min(start.elapsed());
                assert_eq!(c.solutions, expected, "{name} on {t} threads");
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
}
