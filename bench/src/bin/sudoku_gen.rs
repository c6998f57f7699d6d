//! Puzzles per second of the sudoku generator (`exactly sudoku gen`'s
//! library, `exactly_puzzles::sudoku::generate`) for 9x9, 16x16 and 25x25,
//! on one thread and on every core (each puzzle's random numbers come from
//! the seed and its index, so the puzzles are the same either way; the
//! bench checks it). Every puzzle is re-solved: one solution, the
//! generator's.
//!
//! ```text
//! cargo run --release --bin sudoku_gen -- [--count9 K] [--count16 K] [--count25 K] [--threads N]
//! ```

use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use exactly_puzzles::sudoku::generate::{Generated, Generator};
use exactly_puzzles::sudoku::{self, Shape, Verdict};

const USAGE: &str = "usage: sudoku_gen [--count9 K] [--count16 K] [--count25 K] [--threads N]";

/// Makes puzzles 0..count with seed 1 on `threads` threads; the puzzles in
/// index order and the seconds taken.
fn make(generator: &Generator, count: u64, threads: usize) -> (Vec<Generated>, f64) {
    let start = Instant::now();
    let next = AtomicU64::new(0);
    let made = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= count {
                    break;
                }
                let (g, _) = generator
                    .generate(1, i, 100, |_| Ok(true))
                    .expect("generation runs")
                    .expect("a puzzle within 100 attempts");
                made.lock().expect("no worker panicked").push((i, g));
            });
        }
    });
    let seconds = start.elapsed().as_secs_f64();
    let mut made = made.into_inner().expect("no worker panicked");
    made.sort_by_key(|(i, _)| *i);
    (made.into_iter().map(|(_, g)| g).collect(), seconds)
}

fn main() -> ExitCode {
    let mut counts = [40u64, 8, 2];
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next().and_then(|v| v.parse::<u64>().ok());
        match (a.as_str(), value) {
            ("--count9", Some(k)) => counts[0] = k,
            ("--count16", Some(k)) => counts[1] = k,
            ("--count25", Some(k)) => counts[2] = k,
            ("--threads", Some(t)) => threads = t.max(1) as usize,
            _ => {
                eprintln!("{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    println!(
        "side  puzzles  clues(mean)  unproven(mean)  1 thread (puzzles/s)  {threads} threads (puzzles/s)  ratio"
    );
    for (side, count) in [(3usize, counts[0]), (4, counts[1]), (5, counts[2])] {
        if count == 0 {
            continue;
        }
        let shape = Shape::new(side, side).expect("a square box");
        // Clues whose checks run out of budget are kept rather than the
        // attempt dropped (see docs/SUDOKU.md); their mean is printed, and
        // is 0 when every puzzle is proven minimal.
        let generator = Generator::new(shape, false, false)
            .expect("a generator")
            .allow_unproven(true);
        let (one, t1) = make(&generator, count, 1);
        let (many, tn) = make(&generator, count, threads);
        assert_eq!(one, many, "the same puzzles on any number of threads");
        let (mut clues, mut unproven) = (0, 0);
        for g in &one {
            unproven += g.unproven;
            let answer = sudoku::solve(&g.puzzle, 2).expect("a valid puzzle");
            assert_eq!(answer.verdict, Verdict::Unique);
            assert_eq!(answer.solution.as_ref(), Some(&g.solution));
            clues += g.puzzle.givens();
        }
        let n = side * side;
        println!(
            "{n:>2}x{n:<2} {count:>8}  {:>11.1}  {:>14.1}  {:>20.2}  {:>21.2}  {:>5.2}",
            clues as f64 / count.max(1) as f64,
            unproven as f64 / count.max(1) as f64,
            count as f64 / t1,
            count as f64 / tn,
            t1 / tn
        );
    }
    ExitCode::SUCCESS
}
