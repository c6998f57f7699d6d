//! Counts the solutions of each instance with `exactly`, `xcov` and `dlx`, checks
//! that the counts agree, and prints a table of the best times and the ratio
//! best-peer-time / exactly-time (above 1 means `exactly` is faster).
//!
//! ```text
//! cargo run --release --bin compare -- [--quick] [--runs N] [--solvers LIST] [--dir DIR] [--all] [FILTER...]
//! ```

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use exactly_bench::{
    golden_counts, instance_paths, testdata_dir, Instance, Outcome, SolverKind, DEFAULT_INSTANCES,
};

const USAGE: &str = "\
usage: compare [--quick] [--runs N] [--solvers LIST] [--dir DIR] [--all] [FILTER...]

Counts all solutions of each Knuth-format instance with every solver, checks
that the counts agree with each other and with DIR/golden.tsv, and prints the
minimum time of N runs and the ratio best-peer-time / exactly-time.

  --quick         one run per solver (same as --runs 1)
  --runs N        runs per solver and instance, the minimum is reported (default 3)
  --solvers LIST  comma-separated subset of exactly,xcov,dlx (default: all)
  --dir DIR       where the .dlx files are (default: the repository's testdata/)
  --all           every DIR/*.dlx, not only queens-13, queens-14,
                  langford-12, pentomino-6x10-symbreak and pentomino-6x10
  FILTER          only instances whose name contains one of these strings
";

struct Args {
    runs: usize,
    solvers: Vec<SolverKind>,
    dir: PathBuf,
    all: bool,
    filters: Vec<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        runs: 3,
        solvers: SolverKind::ALL.to_vec(),
        dir: testdata_dir(),
        all: false,
        filters: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "-h" | "--help" => {
                print!("{USAGE}");
                std::process::exit(0);
            }
            "--quick" => args.runs = 1,
            "--runs" => {
                let n = it.next().ok_or("--runs needs a number")?;
                args.runs = n
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("--runs: '{n}' is not a positive number"))?;
            }
            "--solvers" => {
                let list = it.next().ok_or("--solvers needs a list")?;
                args.solvers = list
                    .split(',')
                    .map(|s| {
                        SolverKind::from_name(s.trim())
                            .ok_or_else(|| format!("--solvers: unknown solver '{s}'"))
                    })
                    .collect::<Result<_, _>>()?;
            }
            "--dir" => args.dir = it.next().ok_or("--dir needs a directory")?.into(),
            "--all" => args.all = true,
            s if s.starts_with('-') => return Err(format!("unknown option '{s}'\n\n{USAGE}")),
            _ => args.filters.push(arg),
        }
    }
    Ok(args)
}

/// A duration with three or four significant digits in a fitting unit.
fn human(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.3} s")
    } else if s >= 1e-3 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{:.1} µs", s * 1e6)
    }
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("compare: {e}");
            return ExitCode::from(2);
        }
    };
    let paths = if args.all {
        match instance_paths(&args.dir) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("compare: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        DEFAULT_INSTANCES
            .iter()
            .map(|name| args.dir.join(format!("{name}.dlx")))
            .collect()
    };
    let golden = match golden_counts(&args.dir) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("compare: {e}");
            return ExitCode::from(2);
        }
    };
    let paths: Vec<_> = paths
        .into_iter()
        .filter(|p| {
            let name = p.file_stem().unwrap_or_default().to_string_lossy();
            args.filters.is_empty() || args.filters.iter().any(|f| name.contains(f.as_str()))
        })
        .collect();
    if paths.is_empty() {
        eprintln!(
            "compare: no matching .dlx instances in {}",
            args.dir.display()
        );
        return ExitCode::from(2);
    }

    let profile = if cfg!(debug_assertions) {
        " (debug build: use --release)"
    } else {
        ""
    };
    println!(
        "minimum of {} run{} per solver{profile}",
        args.runs,
        if args.runs == 1 { "" } else { "s" }
    );
    print!("{:<26} {:>12}", "instance", "solutions");
    for s in &args.solvers {
        print!(" {:>10}", s.name());
    }
    let with_ratio = args.solvers.contains(&SolverKind::Exactly) && args.solvers.len() > 1;
    if with_ratio {
        print!(" {:>12}", "peer/exactly");
    }
    println!();

    let mut failed = false;
    for path in &paths {
        let instance = match Instance::load(path) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("compare: {e}");
                failed = true;
                continue;
            }
        };
        match measure(&instance, &args, golden.get(&instance.name).copied()) {
            Ok(row) => print_row(&instance.name, &row, &args.solvers, with_ratio),
            Err(e) => {
                eprintln!("compare: {}: {e}", instance.name);
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Per solver (in `args.solvers` order): the best time, or why it did not run.
struct Row {
    count: u128,
    times: Vec<Result<Duration, &'static str>>,
}

/// Runs every solver `args.runs` times, round robin so that a slow spell of a
/// shared machine hits all of them alike, and checks every count.
fn measure(instance: &Instance, args: &Args, expected: Option<u128>) -> Result<Row, String> {
    let mut best: Vec<Result<Duration, &'static str>> = vec![Ok(Duration::MAX); args.solvers.len()];
    let mut count: Option<(u128, SolverKind)> = None;
    for _ in 0..args.runs {
        for (k, &solver) in args.solvers.iter().enumerate() {
            if best[k].is_err() {
                continue;
            }
            let (outcome, time) = instance.timed_count(solver);
            match outcome {
                Outcome::Unsupported(why) => best[k] = Err(why),
                Outcome::Count(n) => {
                    match count {
                        None => count = Some((n, solver)),
                        Some((m, other)) if m != n => {
                            return Err(format!(
                                "{solver} counts {n} solutions, {other} counts {m}"
                            ));
                        }
                        Some(_) => {}
                    }
                    if let Ok(t) = &mut best[k] {
                        *t = (*t).min(time);
                    }
                }
            }
        }
    }
    let (count, solver) = count.ok_or("no selected solver supports this instance")?;
    if let Some(expected) = expected {
        if expected != count {
            return Err(format!(
                "{solver} counts {count} solutions, golden.tsv says {expected}"
            ));
        }
    }
    Ok(Row { count, times: best })
}

fn print_row(name: &str, row: &Row, solvers: &[SolverKind], with_ratio: bool) {
    print!("{name:<26} {:>12}", row.count);
    for t in &row.times {
        match t {
            Ok(t) => print!(" {:>10}", human(*t)),
            Err(_) => print!(" {:>10}", "n/a"),
        }
    }
    if with_ratio {
        let exactly = solvers
            .iter()
            .position(|&s| s == SolverKind::Exactly)
            .and_then(|k| row.times[k].ok());
        let peer = solvers
            .iter()
            .zip(&row.times)
            .filter(|(&s, _)| s != SolverKind::Exactly)
            .filter_map(|(_, t)| t.ok())
            .min();
        match (exactly, peer) {
            (Some(e), Some(p)) if !e.is_zero() => {
                print!(" {:>11.2}x", p.as_secs_f64() / e.as_secs_f64())
            }
            _ => print!(" {:>12}", "-"),
        }
    }
    println!();
    for (s, t) in solvers.iter().zip(&row.times) {
        if let Err(why) = t {
            println!("    {s}: not run ({why})");
        }
    }
}
