//! The diagram of all solutions: its size, build time against Knuth's DLX6,
//! and counting through it against counting by search.
//!
//! ```sh
//! cd bench && DLX6=/path/to/dlx6 cargo run --release --bin zdd -- [--runs N] [FILE...]
//! ```
//!
//! Python's `xcover.covers_zdd` (with its memo) runs through
//! `scripts/xcover_zdd.py` under the Python named by `XCOVER` (one that can
//! import xcover), timed by the script after a warm-up that compiles its
//! numba code; skipped when unset, and on files it does not take
//! (multiplicities). Its diagram is not DLX6's: its node count is shown.
//!
//! DLX6 is found through the `DLX6` environment variable and skipped when it
//! is unset; it is timed as a whole process reading the file (its own parse
//! included), exactly in process (parse excluded), best of `--runs`. Both
//! build the same diagram on exact covers with colors: the node counts are
//! compared (DLX6 counts its two terminals).

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use exactly::zdd::ZddBuilder;

fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..runs {
        let start = Instant::now();
        let out = f();
        best = best.min(start.elapsed());
        last = Some(out);
    }
    (best, last.expect("at least one run"))
}

/// Runs DLX6 on `path`; its time and the number of diagram nodes it reports.
fn dlx6(program: &str, path: &str, runs: usize) -> Option<(Duration, u64)> {
    let (time, out) = best_of(runs, || {
        let file = std::fs::File::open(path).ok()?;
        Command::new(program)
            .stdin(Stdio::from(file))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .ok()
    });
    let stderr = String::from_utf8_lossy(&out?.stderr).into_owned();
    // "... search nodes, 122956 ZDD nodes, ..."
    let nodes = stderr
        .split(',')
        .find_map(|part| part.trim().strip_suffix(" ZDD nodes"))
        .and_then(|n| n.trim().parse().ok())?;
    Some((time, nodes))
}

/// Runs `xcover.covers_zdd` on `path`; its best time and its node count.
fn xcover(python: &str, path: &str, runs: usize) -> Option<(Duration, u64)> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/xcover_zdd.py");
    let out = Command::new(python)
        .arg(script)
        .arg(path)
        .arg(runs.to_string())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut words = text.split_whitespace();
    let secs: f64 = words.next()?.parse().ok()?;
    let nodes = words.next()?.parse().ok()?;
    Some((Duration::from_secs_f64(secs), nodes))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut runs = 3;
    if let Some(at) = args.iter().position(|a| a == "--runs") {
        runs = args.get(at + 1).ok_or("--runs N")?.parse()?;
        args.drain(at..at + 2);
    }
    if args.is_empty() {
        args = [
            "langford-11",
            "langford-12",
            "queens-13",
            "queens-14",
            "pentomino-6x10-symbreak",
            "pentomino-6x10",
            "queens-dominate-8",
        ]
        .iter()
        .map(|f| format!("../testdata/{f}.dlx"))
        .collect();
    }
    let knuth = std::env::var("DLX6").ok();
    let python = std::env::var("XCOVER").ok();
    println!(
        "| instance | solutions | diagram nodes | build (s) | DLX6 (s) | ratio | DLX6 nodes | xcover (s) | ratio | xcover nodes | count by search (s) | count on diagram (ms) |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for path in &args {
        let text = std::fs::read_to_string(path)?;
        let problem = exactly::format::parse_dlx(&text)?;
        let (build, zdd) = best_of(runs, || ZddBuilder::new(&problem).build());
        let zdd = zdd?;
        let (counted, count) = best_of(runs, || zdd.count());
        let (search, by_search) = best_of(1, || {
            exactly::Solver::new(&problem)
                .engine(exactly::Engine::Auto)
                .count()
                .solutions
        });
        assert_eq!(count.to_string(), by_search.to_string(), "{path}");
        let (k_time, ratio, k_nodes) = match knuth.as_deref().and_then(|k| dlx6(k, path, runs)) {
            Some((t, n)) => {
                let same = if n == zdd.len() as u64 + 2 {
                    "="
                } else {
                    "≠"
                };
                (
                    format!("{:.3}", t.as_secs_f64()),
                    format!("{:.2}", build.as_secs_f64() / t.as_secs_f64()),
                    format!("{n} {same}"),
                )
            }
            None => ("–".into(), "–".into(), "–".into()),
        };
        let (x_time, x_ratio, x_nodes) = match python.as_deref().and_then(|p| xcover(p, path, runs))
        {
            Some((t, n)) => (
                format!("{:.3}", t.as_secs_f64()),
                format!("{:.2}", build.as_secs_f64() / t.as_secs_f64()),
                n.to_string(),
            ),
            None => ("–".into(), "–".into(), "–".into()),
        };
        let name = path.rsplit('/').next().unwrap_or(path);
        println!(
            "| {name} | {count} | {} | {:.3} | {k_time} | {ratio} | {k_nodes} | {x_time} | {x_ratio} | {x_nodes} | {:.3} | {:.3} |",
            zdd.len(),
            build.as_secs_f64(),
            search.as_secs_f64(),
            counted.as_secs_f64() * 1e3,
        );
    }
    Ok(())
}
