//! Setting a solver up from the shared search options (budgets, seed, trace,
//! progress bar) and reporting how the search ended.

use std::io::IsTerminal;
use std::time::Duration;

use exactly::{Engine, Limits, Outcome, Problem, Progress, Solver, Stats, StopReason};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cli::SearchArgs;
use crate::report;
use exactly::trace::Tracer;

/// Steps of the progress bar (its length).
const BAR_STEPS: u64 = 10_000;

/// A run must last this long before the progress bar appears.
pub(crate) const BAR_DELAY: Duration = Duration::from_secs(1);

/// How often the solver reports progress.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

/// A solver for `problem` with the budgets, seed and trace of `args`, and a
/// progress bar (hidden until the run has lasted a second, and only when
/// stderr is a terminal and no trace is printed).
pub fn solver<'p>(
    problem: &'p Problem<String>,
    args: &SearchArgs,
    bar: &ProgressBar,
) -> Solver<'p, String> {
    let mut solver = Solver::new(problem)
        .engine(args.engine.into())
        .limits(limits(args));
    if let Some(seed) = args.seed {
        solver = solver.seed(seed);
    }
    if args.trace {
        let mut tracer = Tracer::new(problem);
        solver = solver.on_trace(move |event| {
            if let Some(line) = tracer.line(event) {
                report::line(&line);
            }
        });
    } else if std::io::stderr().is_terminal() {
        let bar = bar.clone();
        solver = solver.on_progress(PROGRESS_INTERVAL, move |p| show_progress(&bar, p));
    }
    solver
}

/// The budgets of `args` (`--limit`, `--timeout`, `--max-nodes`).
pub fn limits(args: &SearchArgs) -> Limits {
    let mut limits = Limits::default();
    if let Some(n) = args.limit {
        limits = limits.max_solutions(u128::from(n));
    }
    if let Some(t) = args.timeout {
        limits = limits.max_time(t);
    }
    if let Some(n) = args.max_nodes {
        limits = limits.max_nodes(n);
    }
    limits
}

/// A progress bar that draws nothing until [`show_progress`] reveals it.
pub fn progress_bar() -> ProgressBar {
    let bar = ProgressBar::hidden();
    bar.set_length(BAR_STEPS);
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed_precise} [{wide_bar}] {percent:>3}% (estimated) {msg}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

fn show_progress(bar: &ProgressBar, p: &Progress) {
    if p.elapsed < BAR_DELAY {
        return;
    }
    let plural = if p.solutions == 1 { "" } else { "s" };
    bar.set_message(format!(
        "{} nodes, {} solution{plural}",
        p.nodes, p.solutions
    ));
    if bar.is_hidden() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
    }
    bar.set_position((p.fraction.clamp(0.0, 1.0) * BAR_STEPS as f64) as u64);
}

/// Clears the progress bar, then reports an early stop (for budgets other
/// than those in `expected`) and, with `--stats`, the statistics. Returns
/// true when the search was stopped by a budget.
pub fn finish(
    bar: &ProgressBar,
    outcome: Outcome,
    stats: &Stats,
    args: &SearchArgs,
    expected: &[StopReason],
) -> bool {
    let engine = match stats.engine {
        Engine::Bits => "bits",
        Engine::Cells => "cells",
        Engine::Masks => "masks",
        _ => "links",
    };
    finish_named(bar, outcome, stats, args, expected, engine)
}

/// [`finish`] with the engine named in the statistics: the searches of
/// `exactly::multi` (multiplicities, costs) and `exactly::mincover` name
/// themselves.
pub fn finish_named(
    bar: &ProgressBar,
    outcome: Outcome,
    stats: &Stats,
    args: &SearchArgs,
    expected: &[StopReason],
    engine: &str,
) -> bool {
    bar.finish_and_clear();
    let stopped = match outcome {
        Outcome::Stopped(reason) if !expected.contains(&reason) => {
            report::message(&format!("stopped early: {reason}"));
            true
        }
        _ => false,
    };
    if args.stats {
        print_stats(stats, engine);
    }
    stopped
}

/// Rejects the options that only the exact-cover solver has.
pub fn check_multi_args(args: &SearchArgs) -> anyhow::Result<()> {
    if args.trace || args.seed.is_some() || args.engine != crate::cli::EngineArg::Auto {
        anyhow::bail!(
            "--trace, --seed and --engine apply to exact covers only, not to problems with multiplicities, costs or minimum covers"
        );
    }
    Ok(())
}

fn print_stats(stats: &Stats, engine: &str) {
    report::line(&format!("engine: {engine}"));
    report::line(&format!("nodes: {}", stats.nodes));
    if engine != "bits" && engine != "masks" {
        // Bitsets and item masks remove options wholesale and count no
        // link updates.
        report::line(&format!("updates: {}", stats.updates));
    }
    report::line(&format!("solutions: {}", stats.solutions));
    report::line(&format!("max depth: {}", stats.max_depth));
    report::line(&format!("time: {:.6} s", stats.elapsed.as_secs_f64()));
}
