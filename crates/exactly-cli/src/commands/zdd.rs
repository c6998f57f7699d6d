//! `exactly zdd`, `exactly sample` and `exactly count --zdd`: the diagram of
//! every solution, written, sampled or counted.

use std::io::{self, BufWriter, Write};
use std::time::Instant;

use anyhow::Context;
use exactly::zdd::{Zdd, ZddBuilder, ZddError, ZddRng};
use exactly::{Limits, Solution};

use crate::cli::{CountArgs, SampleArgs, StatsFormat, ZddArgs, ZddBudget, ZddFormat};
use crate::input::{self, Input};
use crate::output::Printer;
use crate::report::{self, Status};

/// Builds the diagram under `budget`; `Ok(None)` when a budget stopped it
/// (reported on stderr).
fn build(input: &Input, budget: &ZddBudget, max_memory: u64) -> anyhow::Result<Option<(Zdd, f64)>> {
    let mut limits = Limits::default();
    if let Some(t) = budget.timeout {
        limits = limits.max_time(t);
    }
    if let Some(n) = budget.max_nodes {
        limits = limits.max_nodes(n);
    }
    let start = Instant::now();
    let built = ZddBuilder::new(&input.problem)
        .limits(limits)
        .max_bytes(max_memory)
        .build();
    let secs = start.elapsed().as_secs_f64();
    match built {
        Ok(zdd) => {
            if budget.stats || budget.stats_format == StatsFormat::Json {
                print_stats(&zdd, secs, budget.stats_format);
            }
            Ok(Some((zdd, secs)))
        }
        Err(e @ (ZddError::Stopped { .. } | ZddError::Memory { .. })) => {
            report::message(&format!("no diagram: {e}"));
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}

/// `--stats-format json` for a diagram build.
#[derive(serde::Serialize)]
struct JsonStats {
    engine: &'static str,
    nodes: u64,
    memos: u64,
    hits: u64,
    diagram_nodes: usize,
    bytes: u64,
    seconds: f64,
}

/// The statistics of a build on stderr: `name: value` lines, or with
/// `--stats-format json` one object `{"engine": "zdd", "nodes", "memos",
/// "hits", "diagram_nodes", "bytes", "seconds"}` (`nodes` counts search
/// nodes, as in the other commands' statistics).
fn print_stats(zdd: &Zdd, secs: f64, format: StatsFormat) {
    let s = zdd.stats();
    match format {
        StatsFormat::Json => {
            let object = JsonStats {
                engine: "zdd",
                nodes: s.nodes,
                memos: s.memos,
                hits: s.hits,
                diagram_nodes: zdd.len(),
                bytes: s.bytes,
                seconds: secs,
            };
            // Serializing plain numbers and strings cannot fail.
            if let Ok(json) = serde_json::to_string(&object) {
                report::line(&json);
            }
        }
        StatsFormat::Text => {
            report::line(&format!("search nodes: {}", s.nodes));
            report::line(&format!("memos: {}", s.memos));
            report::line(&format!("hits: {}", s.hits));
            report::line(&format!("diagram nodes: {}", zdd.len()));
            report::line(&format!("bytes: {}", s.bytes));
            report::line(&format!("time: {secs:.6} s"));
        }
    }
}

/// `exactly zdd`: writes the diagram on standard output.
pub fn write(args: &ZddArgs) -> anyhow::Result<Status> {
    let input = input::load(&args.problem.file, args.problem.input)?;
    super::print_warnings(&input);
    let Some((zdd, _)) = build(&input, &args.budget, args.budget.max_memory)? else {
        return Ok(Status::Stopped);
    };
    let mut out = BufWriter::new(io::stdout().lock());
    match args.format {
        ZddFormat::Knuth => zdd.write_knuth(&mut out),
        ZddFormat::Json => zdd.write_json(&mut out),
    }
    .and_then(|()| out.flush())
    .context("cannot write to standard output")?;
    Ok(status(&zdd))
}

/// `exactly sample`: K solutions drawn uniformly, with replacement.
pub fn sample(args: &SampleArgs) -> anyhow::Result<Status> {
    let input = input::load(&args.problem.file, args.problem.input)?;
    super::print_warnings(&input);
    let Some((zdd, _)) = build(&input, &args.budget, args.budget.max_memory)? else {
        return Ok(Status::Stopped);
    };
    let mut rng = ZddRng::new(args.seed);
    let mut printer = Printer::new(
        BufWriter::new(io::stdout().lock()),
        args.format,
        &input,
        None,
    );
    let mut drawn = 0u128;
    for _ in 0..args.count {
        match zdd.sample(&mut rng) {
            None => break,
            Some(options) => {
                printer
                    .solution(&Solution::new(options))
                    .context("cannot write to standard output")?;
                drawn += 1;
            }
        }
    }
    printer
        .finish()
        .context("cannot write to standard output")?;
    Ok(Status::of_search(false, drawn))
}

/// `exactly count --zdd`: the number of solutions, through the diagram.
pub fn count(args: &CountArgs, input: &Input) -> anyhow::Result<Status> {
    let s = &args.search;
    if s.limit.is_some()
        || s.seed.is_some()
        || crate::search::traced(s)
        || s.report_every.is_some()
        || s.engine != crate::cli::EngineArg::Auto
    {
        anyhow::bail!(
            "--limit, --seed, --trace, --trace-levels, --profile, --report-every and --engine do not apply to count --zdd"
        );
    }
    let budget = ZddBudget {
        timeout: s.timeout,
        max_nodes: s.max_nodes,
        max_memory: args.max_memory.unwrap_or(8 << 30),
        stats: s.stats,
        stats_format: s.stats_format,
    };
    let Some((zdd, _)) = build(input, &budget, budget.max_memory)? else {
        return Ok(Status::Stopped);
    };
    crate::output::print_count(args.format, &zdd.count(), true)?;
    Ok(status(&zdd))
}

/// Success when the diagram holds a solution, else no solution.
fn status(zdd: &Zdd) -> Status {
    if zdd.root() == exactly::zdd::BOTTOM {
        Status::NoSolution
    } else {
        Status::Success
    }
}
