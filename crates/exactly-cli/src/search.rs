//! Setting a solver up from the shared search options (budgets, seed, trace,
//! progress bar, progress lines, level profile) and reporting how the search
//! ended.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Duration;

use exactly::{Engine, Limits, Outcome, Problem, Progress, Solver, Stats, StopReason, TraceEvent};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cli::{SearchArgs, StatsFormat};
use crate::report;
use exactly::trace::Tracer;

/// Steps of the progress bar (its length).
const BAR_STEPS: u64 = 10_000;

/// A run must last this long before the progress bar appears.
pub(crate) const BAR_DELAY: Duration = Duration::from_secs(1);

/// How often the solver reports progress.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

/// Nodes at each level of the search tree, counted from trace events for
/// `--profile` and printed by [`finish`]. A process runs one such search.
static PROFILE: Mutex<Vec<u64>> = Mutex::new(Vec::new());

/// Whether the options ask for trace events (`--trace`, `--trace-levels`,
/// `--profile`): the search then runs on one thread, calling back at every
/// step.
pub fn traced(args: &SearchArgs) -> bool {
    args.trace || args.trace_levels.is_some() || args.trace_nodes || args.profile
}

/// A solver for `problem` with the budgets, seed and trace of `args`,
/// progress lines every `--report-every` seconds, and otherwise a progress
/// bar (hidden until the run has lasted a second, and only when stderr is a
/// terminal, no trace is printed and `--quiet` is not given).
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
    if traced(args) {
        let print = args.trace || args.trace_levels.is_some() || args.trace_nodes;
        let levels = args.trace_levels;
        let profile = args.profile;
        let mut tracer = Tracer::new(problem).nodes(args.trace_nodes);
        // Node changes are shown with the step they belong to.
        let mut step_shown = true;
        if let Ok(mut counts) = PROFILE.lock() {
            counts.clear();
            counts.push(1);
        }
        solver = solver.on_trace(move |event| {
            if profile {
                if let TraceEvent::Try { level, .. } = *event {
                    // Trying an option at level L enters a node at L + 1;
                    // the root is the one node at level 0.
                    count_node(level as usize + 1);
                }
            }
            if print {
                // The tracer sees every event (it numbers the solutions);
                // only the lines of the chosen levels are printed.
                if let Some(line) = tracer.line(event) {
                    let shown = match (levels, event_level(event)) {
                        (Some(l), Some(level)) => l.contains(level),
                        (_, None) if is_node_change(event) => step_shown,
                        _ => true,
                    };
                    if event_level(event).is_some() {
                        step_shown = shown;
                    }
                    if shown {
                        report::line(&line);
                    }
                }
            }
        });
        if args.trace_nodes {
            solver = solver.trace_nodes(true);
        }
    }
    if let Some((every, report)) = progress_reporter(args, bar, String::new) {
        solver = solver.on_progress(every, report);
    }
    solver
}

/// A progress report, called from the search.
pub type ReportFn = Box<dyn FnMut(&Progress) + Send>;

/// How often and how the search reports progress, if at all: a
/// `--report-every` line, else (unless traced or quiet) the bar on a
/// terminal. `note` adds to each report (`, best cost so far 12`).
pub fn progress_reporter(
    args: &SearchArgs,
    bar: &ProgressBar,
    note: impl Fn() -> String + Send + 'static,
) -> Option<(Duration, ReportFn)> {
    if let Some(every) = args.report_every {
        Some((
            every,
            Box::new(move |p| report::line(&format!("{}{}", progress_line(p), note()))),
        ))
    } else if !traced(args) && !report::quiet() && std::io::stderr().is_terminal() {
        let bar = bar.clone();
        Some((
            PROGRESS_INTERVAL,
            Box::new(move |p| show_progress(&bar, p, &note())),
        ))
    } else {
        None
    }
}

/// Whether `event` reports a link changed by the step before it.
fn is_node_change(event: &TraceEvent) -> bool {
    matches!(event, TraceEvent::Unlink { .. } | TraceEvent::Relink { .. })
}

/// Adds a node at `level` to the profile.
fn count_node(level: usize) {
    if let Ok(mut counts) = PROFILE.lock() {
        if counts.len() <= level {
            counts.resize(level + 1, 0);
        }
        counts[level] += 1;
    }
}

/// The level of a trace event (none for kinds of event this code does not
/// know, which are then always printed).
fn event_level(event: &TraceEvent) -> Option<u32> {
    match *event {
        TraceEvent::Choose { level, .. }
        | TraceEvent::Try { level, .. }
        | TraceEvent::Solution { level }
        | TraceEvent::Backtrack { level } => Some(level),
        _ => None,
    }
}

/// One `--report-every` line: `progress: 2.000 s, 1234 nodes, 5 solutions,
/// 12.50% done (estimated), level 7`.
pub fn progress_line(p: &Progress) -> String {
    let plural = if p.solutions == 1 { "" } else { "s" };
    format!(
        "progress: {:.3} s, {} nodes, {} solution{plural}, {:.2}% done (estimated), level {}",
        p.elapsed.as_secs_f64(),
        p.nodes,
        p.solutions,
        100.0 * p.fraction.clamp(0.0, 1.0),
        p.depth
    )
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

fn show_progress(bar: &ProgressBar, p: &Progress, note: &str) {
    if p.elapsed < BAR_DELAY {
        return;
    }
    let plural = if p.solutions == 1 { "" } else { "s" };
    bar.set_message(format!(
        "{} nodes, {} solution{plural}{note}",
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
    finish_named(
        bar,
        outcome,
        stats,
        args,
        expected,
        representation(stats.engine),
    )
}

/// The search named in the statistics of `Solver` on `problem`:
/// `multiplicities` when it routed the problem to Algorithm M, else the
/// representation that searched.
pub fn engine_name(problem: &Problem<String>, stats: &Stats) -> &'static str {
    if problem.has_multiplicities() {
        "multiplicities"
    } else {
        representation(stats.engine)
    }
}

/// The name of a representation in the statistics.
fn representation(engine: Engine) -> &'static str {
    match engine {
        Engine::Bits => "bits",
        Engine::Cells => "cells",
        Engine::Masks => "masks",
        Engine::Sparse => "sparse",
        _ => "links",
    }
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
    if args.stats || args.stats_format == StatsFormat::Json {
        print_stats(stats, engine, args.stats_format);
    }
    if args.profile {
        print_profile(args.stats_format);
    }
    stopped
}

/// Prints the nodes at each level, as Knuth's programs do at the end of a
/// run: `Profile:`, then `level: nodes` lines (or a JSON object with the
/// array `profile`, with `--stats-format json`).
fn print_profile(format: StatsFormat) {
    let counts = PROFILE.lock().map(|c| c.clone()).unwrap_or_default();
    match format {
        StatsFormat::Json => {
            report::line(&serde_json::json!({ "profile": counts }).to_string());
        }
        StatsFormat::Text => {
            report::line("Profile:");
            for (level, n) in counts.iter().enumerate() {
                report::line(&format!("{level:3}: {n:>12}"));
            }
        }
    }
}

/// The IDA* iterations of a minimum cover (`cover --min`, `squares`) after
/// its statistics: `iterations: N`, or with `--stats-format json` a second
/// object `{"iterations": N}`.
pub fn print_iterations(iterations: impl std::fmt::Display, format: StatsFormat) {
    report::line(&match format {
        StatsFormat::Text => format!("iterations: {iterations}"),
        StatsFormat::Json => format!("{{\"iterations\":{iterations}}}"),
    });
}

/// Rejects what a search across MPI ranks would not keep: a trace or
/// progress (one plain search), and budgets and a seed (each rank runs its
/// own searches on its share of the subproblems).
pub fn check_mpi_args(args: &SearchArgs) -> anyhow::Result<()> {
    if traced(args) || args.report_every.is_some() {
        anyhow::bail!(
            "--trace, --trace-levels, --profile and --report-every need one plain search, not --mpi"
        );
    }
    if args.limit.is_some()
        || args.timeout.is_some()
        || args.max_nodes.is_some()
        || args.seed.is_some()
    {
        anyhow::bail!(
            "--limit, --timeout, --max-nodes and --seed are not kept across MPI ranks: leave them out with --mpi, or search without --mpi"
        );
    }
    Ok(())
}

/// Rejects the options that only the exact-cover solver has.
pub fn check_multi_args(args: &SearchArgs) -> anyhow::Result<()> {
    if args.report_every.is_some() {
        anyhow::bail!(
            "--report-every applies to exact covers and to solve --min-cost and --best, not to counting multiplicities or minimum covers"
        );
    }
    check_cost_args(args)
}

/// [`check_multi_args`] for `solve --min-cost` and `--best`, whose search
/// reports progress (`--report-every`).
pub fn check_cost_args(args: &SearchArgs) -> anyhow::Result<()> {
    if traced(args) || args.seed.is_some() || args.engine != crate::cli::EngineArg::Auto {
        anyhow::bail!(
            "--trace, --trace-levels, --trace-nodes, --profile, --seed and --engine apply to exact covers only, not to problems with multiplicities, costs or minimum covers"
        );
    }
    Ok(())
}

/// `--stats-format json`: the statistics as one object.
#[derive(serde::Serialize)]
struct JsonStats<'a> {
    engine: &'a str,
    nodes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    updates: Option<u64>,
    solutions: u128,
    max_depth: u32,
    seconds: f64,
}

/// Whether the representation named `engine` counts link updates.
fn counts_updates(engine: &str) -> bool {
    !matches!(engine, "bits" | "masks" | "sparse")
}

/// Prints `stats` on stderr as `name: value` lines, or as one
/// [`JsonStats`] object with `--stats-format json`.
pub fn print_stats(stats: &Stats, engine: &str, format: StatsFormat) {
    if format == StatsFormat::Json {
        // Bitsets (dense or sparse) and item masks count no link updates:
        // the field is left out for them.
        let object = JsonStats {
            engine,
            nodes: stats.nodes,
            updates: counts_updates(engine).then_some(stats.updates),
            solutions: stats.solutions,
            max_depth: stats.max_depth,
            seconds: stats.elapsed.as_secs_f64(),
        };
        // Serializing plain numbers and strings cannot fail.
        if let Ok(json) = serde_json::to_string(&object) {
            report::line(&json);
        }
        return;
    }
    report::line(&format!("engine: {engine}"));
    report::line(&format!("nodes: {}", stats.nodes));
    if counts_updates(engine) {
        // Bitsets (dense or sparse) and item masks remove options
        // wholesale and count no link updates.
        report::line(&format!("updates: {}", stats.updates));
    }
    report::line(&format!("solutions: {}", stats.solutions));
    report::line(&format!("max depth: {}", stats.max_depth));
    report::line(&format!("time: {:.6} s", stats.elapsed.as_secs_f64()));
}
