//! Counting at scale: `count --threads`, checkpoints, `estimate`, `plan`,
//! `count --plan --shard`, and `merge`.
//!
//! # File formats
//!
//! Plans, results and checkpoints are read and written by
//! [`exactly::records`], whose docs give the formats: every line carries a
//! checksum, so a damaged line is refused and named by its line. Before a
//! shard is counted its plan is checked against the problem's own tree cut
//! ([`parallel::check_split`]), and `merge` checks that every subproblem of
//! the plan is counted exactly once: together, proof that the total is the
//! problem's count.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};
use exactly::parallel;
use exactly::records::{self, CheckpointHeader, Record};
use exactly::{Engine, Limits, Outcome, Problem, Rest, Solution, Solver};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cli::{
    CountArgs, EstimateArgs, MergeArgs, PlanArgs, ResultFormat, SearchArgs, Shard, SolveArgs,
    StatsFormat,
};
use crate::input::{self, Input};
use crate::output::{self, Printer};
use crate::report::{self, Status};
use crate::search;

/// Subproblems per worker thread when the tree is split for threads.
const PER_THREAD: usize = parallel::SUBPROBLEMS_PER_THREAD;
/// The deepest cut tried when looking for enough subproblems: the tree's
/// own depth at most, since each level covers a primary item, and no
/// deeper than plan and checkpoint files go. Each cut is made from the
/// one above, so a deep one (past a large sudoku's thousands of forced
/// givens) costs the nodes above it, once.
fn max_depth<L>(problem: &Problem<L>) -> usize {
    problem.num_primary().min(records::MAX_DEPTH)
}

/// The error for a cut `depth` that no split of `problem` makes, in file
/// `name`.
fn too_deep<L>(name: &str, depth: usize, problem: &Problem<L>) -> anyhow::Error {
    anyhow!(
        "{name}:2:1: depth {depth} is deeper than any cut of this problem (at most {})",
        max_depth(problem)
    )
}

/// A hash of the problem as read: its Knuth text.
fn input_hash<L>(problem: &Problem<L>) -> String {
    let mut text = Vec::new();
    // Writing to memory cannot fail.
    let _ = exactly::format::write_dlx(problem, &mut text);
    format!("{:016x}", records::fnv1a(&text))
}

/// The most worker threads started, whatever `--threads` asks; fewer run
/// when there are fewer subproblems than threads.
pub const MAX_THREADS: usize = parallel::MAX_THREADS;

/// The most subproblems `plan --cubes` asks for.
pub const MAX_CUBES: usize = 1 << 20;

/// The number of threads to use: `--threads`, or every core, at most
/// [`MAX_THREADS`].
pub fn threads(requested: Option<usize>) -> usize {
    threads_at_most(requested, MAX_THREADS)
}

/// `--threads`, or every core, from 1 to `most`: the rule of every
/// command that runs threads.
pub fn threads_at_most(requested: Option<usize>, most: usize) -> usize {
    requested
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, most)
}

/// Whether a search can be split: budgets on nodes or solutions and traces
/// need the single search.
pub fn splittable(search: &SearchArgs) -> bool {
    search.limit.is_none()
        && search.max_nodes.is_none()
        && !search::traced(search)
        && search.report_every.is_none()
}

/// A progress bar over subproblems, drawn only on a terminal.
pub(crate) fn subproblem_bar(total: usize) -> ProgressBar {
    if report::quiet() || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed_precise} [{wide_bar}] {pos}/{len} subproblems, {msg} ({per_sec}, {eta} left)",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// The budget of a run on threads: `--timeout` is one deadline for all
/// workers ([`parallel::Pool::limits`]).
fn shared_limits(timeout: Option<Duration>) -> Limits {
    match timeout {
        Some(t) => Limits::default().max_time(t),
        None => Limits::default(),
    }
}

/// The checkpoint of a run: finished subproblems, by index.
struct Checkpoint {
    file: Mutex<File>,
    header: CheckpointHeader,
    done: BTreeMap<usize, (u128, u64)>,
}

/// Reads the header of the checkpoint at `path`, if the file exists,
/// checking it was made for this input.
fn read_checkpoint_header<L>(
    path: &Path,
    hash: &str,
    problem: &Problem<L>,
) -> anyhow::Result<Option<CheckpointHeader>> {
    let name = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read checkpoint {name}")),
    };
    let header = records::parse_checkpoint_header(&text).map_err(|e| anyhow!("{name}:{e}"))?;
    if header.input != hash {
        bail!(
            "{name}:2:9: this checkpoint was made for another input (hash {}, this input has {hash})",
            header.input
        );
    }
    if header.depth > max_depth(problem) {
        return Err(too_deep(&name, header.depth, problem));
    }
    Ok(Some(header))
}

fn open_checkpoint(path: &Path, header: CheckpointHeader) -> anyhow::Result<Checkpoint> {
    let name = path.display().to_string();
    let mut done = BTreeMap::new();
    let exists = path.exists();
    if exists {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read checkpoint {name}"))?;
        let read = records::parse_checkpoint(&text).map_err(|e| anyhow!("{name}:{e}"))?;
        if read.header != header {
            bail!(
                "{name}:2:1: this checkpoint was made for another split of the input (expected '{}')",
                header.write().lines().nth(1).unwrap_or("")
            );
        }
        for r in read.records {
            done.insert(r.index, (r.solutions, r.nodes));
        }
        if read.torn {
            // Drop the torn line so appends start on a line of their own.
            let keep: usize = text.rfind('\n').map_or(0, |i| i + 1);
            let f = OpenOptions::new().write(true).open(path)?;
            f.set_len(keep as u64)?;
        }
    }
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open checkpoint {name}"))?;
    if !exists {
        file.write_all(header.write().as_bytes())?;
        file.flush()?;
    }
    Ok(Checkpoint {
        file: Mutex::new(file),
        header,
        done,
    })
}

/// `count` on threads, with an optional checkpoint.
pub fn count_threads(
    args: &CountArgs,
    problem: &Problem<String>,
    threads: usize,
) -> anyhow::Result<Status> {
    let engine: Engine = args.search.engine.into();
    // The input's hash, written once, where a checkpoint names it.
    let hash = args.checkpoint.as_ref().map(|_| input_hash(problem));
    let resumed = match (&args.checkpoint, &hash) {
        (Some(path), Some(hash)) => read_checkpoint_header(path, hash, problem)?,
        _ => None,
    };
    // The checkpoint of a cut made `levels` below the root (the forced
    // levels above a rest's cut).
    let checkpoint = |split: &parallel::Split, levels: usize| match (&args.checkpoint, &hash) {
        (Some(path), Some(hash)) => {
            let header = CheckpointHeader {
                input: hash.clone(),
                depth: split.depth + levels,
                subproblems: split.subproblems.len(),
            };
            open_checkpoint(path, header).map(Some)
        }
        _ => Ok(None),
    };
    // A large exact cover is counted by what its forced moves leave, as on
    // one thread: its tree is the whole one's below the forced levels, so
    // its cut at depth d is the whole one's at the forced levels plus d,
    // the same subproblems in the same order, and a checkpoint names that
    // whole cut (and resumes one made on the whole problem). A cut above
    // the forced levels, or forced levels past the deepest cut a
    // checkpoint holds, leave the whole problem's.
    if engine == Engine::Auto {
        if let Some(rest) = Rest::of(problem) {
            let levels = rest.depth as usize;
            let split = match &resumed {
                Some(header) => header
                    .depth
                    .checked_sub(levels)
                    .map(|depth| parallel::split_at(&rest.problem, engine, depth)),
                None => {
                    // A checkpoint holds no cut deeper than the whole
                    // problem's deepest.
                    let most = match &args.checkpoint {
                        Some(_) => max_depth(problem).checked_sub(levels),
                        None => Some(usize::MAX),
                    };
                    most.map(|most| {
                        let most = most.min(max_depth(&rest.problem));
                        parallel::split_for_count(&rest.problem, engine, threads, most)
                    })
                }
            };
            if let Some(split) = split {
                let checkpoint = checkpoint(&split, levels)?;
                return count_cut(
                    args,
                    &rest.problem,
                    engine,
                    &split,
                    threads,
                    checkpoint,
                    Some(&rest),
                );
            }
        }
    }
    let split = match &resumed {
        Some(header) => parallel::split_at(problem, engine, header.depth),
        None => parallel::split_for_count(problem, engine, threads, max_depth(problem)),
    };
    let checkpoint = checkpoint(&split, 0)?;
    count_cut(args, problem, engine, &split, threads, checkpoint, None)
}

/// The count of `split`'s subproblems on threads, with the checkpoint's
/// records skipped and new ones written to it, printed with the stats.
/// With `above`, the problem is its rest, and the stats are the whole
/// problem's.
fn count_cut<L: Sync>(
    args: &CountArgs,
    problem: &Problem<L>,
    engine: Engine,
    split: &parallel::Split,
    threads: usize,
    checkpoint: Option<Checkpoint>,
    above: Option<&Rest>,
) -> anyhow::Result<Status> {
    let n = split.subproblems.len();
    let mut skip = vec![false; n];
    let (mut solutions, mut nodes) = (0u128, 0u64);
    if let Some(c) = &checkpoint {
        for (&i, &(s, k)) in &c.done {
            skip[i] = true;
            solutions = solutions
                .checked_add(s)
                .context("the checkpoint's counts add up past 2^128")?;
            nodes = nodes
                .checked_add(k)
                .context("the checkpoint's nodes add up past 2^64")?;
        }
    }
    let bar = subproblem_bar(n);
    bar.set_position(skip.iter().filter(|&&s| s).count() as u64);
    let found = Mutex::new(solutions + split.solutions);
    let write_error = Mutex::new(None);
    let started = Instant::now();
    let on_done = |i: usize, s: u128, k: u64| {
        if let Some(c) = &checkpoint {
            let mut f = c.file.lock().unwrap_or_else(|e| e.into_inner());
            let record = Record {
                index: i,
                solutions: s,
                nodes: k,
            };
            if let Err(e) = f
                .write_all(c.header.record(&record).as_bytes())
                .and_then(|()| f.flush())
            {
                write_error
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert(e);
            }
        }
        let mut total = found.lock().unwrap_or_else(|e| e.into_inner());
        *total += s;
        bar.set_message(format!("{total} solutions"));
        bar.inc(1);
    };
    let limits = shared_limits(args.search.timeout);
    let counted = parallel::count_split(problem, engine, split, threads, &limits, &skip, &on_done)
        .context("cannot split the search")?;
    bar.finish_and_clear();
    if let Some(e) = write_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e).context("cannot write the checkpoint");
    }
    let total = solutions
        .checked_add(counted.solutions)
        .context("the count is past 2^128")?;
    let outcome = counted.outcome;
    let mut stats = exactly::Stats::default();
    stats.engine = engine.resolve(problem);
    stats.nodes = nodes.saturating_add(counted.nodes);
    stats.solutions = total;
    stats.max_depth = counted.max_depth;
    stats.updates = counted.updates;
    stats.elapsed = started.elapsed();
    if let Some(rest) = above {
        rest.add_forced(&mut stats.nodes, &mut stats.updates, &mut stats.max_depth);
    }
    let stopped = search::finish(&ProgressBar::hidden(), outcome, &stats, &args.search, &[]);
    if args.search.stats || args.search.stats_format == StatsFormat::Json {
        let levels = above.map_or(0, |rest| rest.depth as usize);
        let depth = split.depth.saturating_add(levels);
        let work = skip.iter().filter(|&&s| !s).count();
        let used = threads.min(work).max(1);
        report::line(&match args.search.stats_format {
            StatsFormat::Text => format!("threads: {used}, subproblems: {n} at depth {depth}"),
            StatsFormat::Json => {
                format!("{{\"threads\":{used},\"subproblems\":{n},\"depth\":{depth}}}")
            }
        });
    }
    output::print_count(args.format, &total, outcome.is_complete())?;
    Ok(Status::of_search(stopped, total))
}

/// `count` on threads for a problem with multiplicities: split into
/// smaller problems ([`parallel::count_multi`]), each counted on one
/// thread.
pub fn count_multi_threads(
    args: &CountArgs,
    problem: &Problem<String>,
    threads: usize,
) -> anyhow::Result<Status> {
    let started = Instant::now();
    let bar = subproblem_bar(0);
    let found = Mutex::new(0u128);
    let on_split = |n: usize| bar.set_length(n as u64);
    let on_done = |_: usize, s: u128, _: u64| {
        let mut total = found.lock().unwrap_or_else(|e| e.into_inner());
        *total += s;
        bar.set_message(format!("{total} solutions"));
        bar.inc(1);
    };
    let limits = shared_limits(args.search.timeout);
    let counted = parallel::count_multi(problem, threads, &limits, &on_split, &on_done);
    bar.finish_and_clear();
    let n = counted.done.len();
    let mut stats = exactly::Stats::default();
    stats.nodes = counted.nodes;
    stats.solutions = counted.solutions;
    stats.max_depth = counted.max_depth;
    stats.updates = counted.updates;
    stats.elapsed = started.elapsed();
    let stopped = search::finish_named(
        &ProgressBar::hidden(),
        counted.outcome,
        &stats,
        &args.search,
        &[],
        "multiplicities",
    );
    if args.search.stats || args.search.stats_format == StatsFormat::Json {
        let used = threads.min(n).max(1);
        report::line(&match args.search.stats_format {
            StatsFormat::Text => format!("threads: {used}, subproblems: {n}"),
            StatsFormat::Json => format!("{{\"threads\":{used},\"subproblems\":{n}}}"),
        });
    }
    output::print_count(
        args.format,
        &counted.solutions,
        counted.outcome.is_complete(),
    )?;
    Ok(Status::of_search(stopped, counted.solutions))
}

/// Refuses problems the exact-cover search would misread.
fn exact_cover_only(input: &Input, command: &str) -> anyhow::Result<()> {
    if input.problem.has_multiplicities() {
        bail!("{command} handles exact covers only, not problems with multiplicities");
    }
    Ok(())
}

/// `exactly estimate`.
pub fn estimate(args: &EstimateArgs) -> anyhow::Result<Status> {
    let input = input::load(&args.problem.file, args.problem.input)?;
    exact_cover_only(&input, "estimate")?;
    let mut limits = Limits::default();
    if let Some(t) = args.timeout {
        limits = limits.max_time(t);
    }
    if let Some(n) = args.max_nodes {
        limits = limits.max_nodes(n);
    }
    let mut solver = Solver::new(&input.problem);
    let (e, outcome) =
        parallel::estimate_within(&mut solver, &[], args.probes, args.seed, &limits)?;
    let range = |mean: f64, error: f64| {
        if !error.is_finite() {
            return format!("{mean:.0} (one probe gives no range)");
        }
        format!(
            "{mean:.0} (95% range {:.0} .. {:.0})",
            (mean - 2.0 * error).max(0.0),
            mean + 2.0 * error
        )
    };
    let mut out = io::stdout().lock();
    match args.format {
        ResultFormat::Text => writeln!(out, "nodes: {}", range(e.nodes, e.nodes_error))
            .and_then(|()| writeln!(out, "solutions: {}", range(e.solutions, e.solutions_error)))
            .and_then(|()| writeln!(out, "probes: {}", e.probes)),
        ResultFormat::Json => {
            let json = JsonEstimate {
                nodes: JsonRange::new(e.nodes, e.nodes_error),
                solutions: JsonRange::new(e.solutions, e.solutions_error),
                probes: e.probes,
                complete: outcome.is_complete(),
            };
            writeln!(out, "{}", serde_json::to_string(&json)?)
        }
    }
    .and_then(|()| out.flush())
    .context("cannot write to standard output")?;
    if let Outcome::Stopped(reason) = outcome {
        report::message(&format!(
            "stopped early: {reason} (after {} of {} probes)",
            e.probes, args.probes
        ));
        return Ok(Status::Stopped);
    }
    Ok(Status::Success)
}

/// `estimate --format json`.
#[derive(serde::Serialize)]
struct JsonEstimate {
    nodes: JsonRange,
    solutions: JsonRange,
    probes: u64,
    /// False when a budget stopped the probes early.
    complete: bool,
}

/// A mean with its 95% range (mean ± 2 standard errors, at least 0); no
/// range (`null`) after a single probe.
#[derive(serde::Serialize)]
struct JsonRange {
    mean: f64,
    low: Option<f64>,
    high: Option<f64>,
}

impl JsonRange {
    fn new(mean: f64, error: f64) -> JsonRange {
        let finite = error.is_finite();
        JsonRange {
            mean,
            low: finite.then(|| (mean - 2.0 * error).max(0.0)),
            high: finite.then_some(mean + 2.0 * error),
        }
    }
}

/// `exactly plan`.
pub fn plan(args: &PlanArgs) -> anyhow::Result<Status> {
    if args.cubes > MAX_CUBES {
        bail!(
            "--cubes {}: at most {MAX_CUBES} subproblems can be asked for",
            args.cubes
        );
    }
    let input = input::load(&args.problem.file, args.problem.input)?;
    exact_cover_only(&input, "plan")?;
    let problem = &input.problem;
    let start = Instant::now();
    let mut limits = Limits::default();
    if let Some(t) = args.timeout {
        limits = limits.max_time(t);
    }
    if let Some(n) = args.max_nodes {
        limits = limits.max_nodes(n);
    }
    let (split, outcome, visited) = parallel::split_within(
        problem,
        Engine::Auto,
        args.cubes,
        max_depth(problem),
        &limits,
    );
    if let Outcome::Stopped(reason) = outcome {
        report::message(&format!("plan: {reason} while splitting; no plan written"));
        return Ok(Status::Stopped);
    }
    limits.nodes = limits.nodes.map(|n| n.saturating_sub(visited));
    limits.time = limits.time.map(|t| t.saturating_sub(start.elapsed()));
    let mut solver = Solver::new(problem);
    let (estimates, outcome) =
        parallel::estimate_split_within(&mut solver, &split, args.probes, &limits)?;
    if let Outcome::Stopped(reason) = outcome {
        report::message(&format!(
            "plan: {reason} after estimating {} of {} subproblems; no plan written",
            estimates.len(),
            split.subproblems.len()
        ));
        return Ok(Status::Stopped);
    }
    let plan = records::Plan {
        input: input_hash(problem),
        split,
        estimates,
    };
    let mut out = io::stdout().lock();
    out.write_all(records::write_plan(&plan).as_bytes())
        .and_then(|()| out.flush())
        .context("cannot write to standard output")?;
    Ok(Status::Success)
}

/// Reads the plan at `path` and checks it is this problem's tree cut.
/// Returns it with its id.
fn read_plan(path: &Path, problem: &Problem<String>) -> anyhow::Result<(records::Plan, String)> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read plan {name}"))?;
    let plan = records::parse_plan(&text).map_err(|e| anyhow!("{name}:{e}"))?;
    let hash = input_hash(problem);
    if plan.input != hash {
        bail!(
            "{name}:2:9: this plan was made for another input (hash {}, this input has {hash})",
            plan.input
        );
    }
    if plan.split.depth > max_depth(problem) {
        return Err(too_deep(&name, plan.split.depth, problem));
    }
    if let Err(e) = parallel::check_split(problem, &plan.split) {
        let line = match e {
            // Subproblem i is on line i + 3.
            parallel::SplitMismatch::Subproblem { index } => index + 3,
            _ => 2,
        };
        bail!("{name}:{line}:1: not this problem's plan: {e}");
    }
    Ok((plan, records::plan_id(&text)))
}

/// Options of `count` that a plan's shard cannot honour.
fn refuse_with_plan(search: &SearchArgs) -> anyhow::Result<()> {
    let ignored = [
        (search.limit.is_some(), "--limit"),
        (search.max_nodes.is_some(), "--max-nodes"),
        (search.trace, "--trace"),
        (search.trace_levels.is_some(), "--trace-levels"),
        (search.trace_nodes, "--trace-nodes"),
        (search.profile, "--profile"),
        (search.report_every.is_some(), "--report-every"),
        (search.seed.is_some(), "--seed"),
    ];
    if let Some((_, option)) = ignored.iter().find(|(on, _)| *on) {
        bail!(
            "{option} does not apply to count --plan: a shard counts each of its subproblems whole (--timeout stops it early)"
        );
    }
    Ok(())
}

/// `count --plan PLAN --shard i/N`: counts one shard's subproblems.
pub fn count_shard(
    args: &CountArgs,
    problem: &Problem<String>,
    plan_path: &Path,
    shard: Shard,
    threads: usize,
) -> anyhow::Result<Status> {
    refuse_with_plan(&args.search)?;
    let (plan, id) = read_plan(plan_path, problem)?;
    let groups = parallel::balance(&plan.estimates, shard.count);
    let mine = groups.get(shard.index).map_or(&[][..], Vec::as_slice);
    let mut skip = vec![true; plan.split.subproblems.len()];
    for &i in mine {
        skip[i] = false;
    }
    let found = Mutex::new(Vec::new());
    let limits = shared_limits(args.search.timeout);
    let engine: Engine = args.search.engine.into();
    let started = Instant::now();
    let counted = parallel::count_split(
        problem,
        engine,
        &plan.split,
        threads,
        &limits,
        &skip,
        &|i, s, n| {
            found
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(Record {
                    index: i,
                    solutions: s,
                    nodes: n,
                });
        },
    )
    .with_context(|| {
        format!(
            "{}: a subproblem does not replay on this input",
            plan_path.display()
        )
    })?;
    let mut found = found.into_inner().unwrap_or_else(|e| e.into_inner());
    found.sort_unstable();
    let stopped = counted.outcome != Outcome::Complete;
    if stopped {
        report::message("stopped early: the shard's result lists the subproblems finished");
    }
    if args.search.stats || args.search.stats_format == StatsFormat::Json {
        let nodes = found.iter().fold(0u64, |t, r| t.saturating_add(r.nodes));
        let (done, all) = (found.len(), plan.split.subproblems.len());
        let seconds = started.elapsed().as_secs_f64();
        let used = threads.min(mine.len()).max(1);
        report::line(&match args.search.stats_format {
            StatsFormat::Text => format!(
                "shard {}/{}: {done} of {all} subproblems, {nodes} nodes, {seconds:.3}s, threads: {used}",
                shard.index, shard.count,
            ),
            StatsFormat::Json => format!(
                "{{\"shard\":{},\"shards\":{},\"subproblems_done\":{done},\"subproblems\":{all},\"nodes\":{nodes},\"seconds\":{seconds},\"threads\":{used}}}",
                shard.index, shard.count,
            ),
        });
    }
    let result = records::ShardResult {
        plan: records::PlanHeader::of(&id, &plan),
        shard: (shard.index, shard.count),
        records: found,
    };
    let text = records::write_result(&result).context("the shard's count is past 2^128")?;
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("cannot write to standard output")?;
    Ok(if stopped {
        Status::Stopped
    } else {
        Status::Success
    })
}

/// `exactly merge`: checks that the results come from one plan and count
/// every subproblem exactly once, and prints the total.
pub fn merge(args: &MergeArgs) -> anyhow::Result<Status> {
    let mut results = Vec::with_capacity(args.results.len());
    let names: Vec<String> = args
        .results
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    for (path, name) in args.results.iter().zip(&names) {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
        results.push(records::parse_result(&text).map_err(|e| anyhow!("{name}:{e}"))?);
    }
    let total = records::merge(&results).map_err(|e| {
        use records::MergeError as E;
        match &e {
            E::OtherPlan { file } | E::ShardTwice { file, .. } | E::ShardCount { file, .. } => {
                anyhow!("{}:3:1: {e} ({})", names[*file], names[0])
            }
            E::NoSuchSubproblem { file, .. } => anyhow!("{}: {e}", names[*file]),
            E::Twice { files, .. } => {
                anyhow!("{e}: in {} and {}", names[files.0], names[files.1])
            }
            _ => anyhow!("{e}"),
        }
    })?;
    match args.format {
        ResultFormat::Text => output::print_count(args.format, &total, true)?,
        ResultFormat::Json => {
            let json = serde_json::json!({ "results": names });
            let mut out = io::stdout().lock();
            // The total goes in as its digits: a JSON number of any size.
            writeln!(
                out,
                "{{\"solutions\":{total},\"complete\":true,\"results\":{}}}",
                json["results"]
            )
            .and_then(|()| out.flush())
            .context("cannot write to standard output")?;
        }
    }
    Ok(Status::of_search(false, total))
}

/// `solve --threads N`: the subproblems' solutions, printed as found (the
/// workers take turns at the printer).
pub fn solve_threads(args: &SolveArgs, input: &Input, threads: usize) -> anyhow::Result<Status> {
    let problem = &input.problem;
    let engine: Engine = args.search.engine.into();
    let limits = shared_limits(args.search.timeout);
    let (split, above) =
        parallel::split_with_solutions(problem, engine, PER_THREAD * threads, max_depth(problem));
    let subproblems = split.subproblems;
    let mut printer = Printer::new(BufWriter::new(io::stdout()), args.format, input, None)
        .every(args.every.every);
    let mut found = 0u128;
    let mut failed = None;
    for s in &above {
        found += 1;
        if let Err(e) = printer.solution(&Solution::new(s.clone())) {
            failed.get_or_insert(e);
        }
    }
    let printer = Mutex::new((printer, found, failed));
    let mut outcome = Outcome::Complete;
    if printer.lock().map_or(true, |p| p.2.is_none()) {
        let items: Vec<usize> = (0..subproblems.len()).collect();
        let run = parallel::Pool::new(threads)
            .limits(&limits)
            .run(
                &items,
                || Solver::new(problem).engine(engine),
                |solver, i, control| {
                    *solver =
                        std::mem::replace(solver, Solver::new(problem)).limits(control.limits());
                    solver.reset_to(&subproblems[i])?;
                    let outcome = solver.for_each(|s| {
                        let mut p = printer.lock().unwrap_or_else(|e| e.into_inner());
                        let (printer, found, failed) = &mut *p;
                        *found += 1;
                        match printer.solution(s) {
                            Ok(()) => ControlFlow::Continue(()),
                            Err(e) => {
                                failed.get_or_insert(e);
                                ControlFlow::Break(())
                            }
                        }
                    });
                    Ok::<_, exactly::PrefixError>(parallel::Item {
                        value: (),
                        nodes: solver.stats().nodes,
                        outcome,
                    })
                },
                |_, _| {},
            )
            .map_err(parallel::BadPrefix::from)
            .context("cannot split the search")?;
        outcome = run.outcome;
    }
    let (mut printer, found, failed) = printer.into_inner().unwrap_or_else(|e| e.into_inner());
    let flushed = printer.finish();
    if let Some(e) = failed.or(flushed.err()) {
        return Err(e).context("cannot write to standard output");
    }
    let mut stats = exactly::Stats::default();
    stats.engine = engine.resolve(problem);
    stats.solutions = found;
    let stopped = search::finish(&ProgressBar::hidden(), outcome, &stats, &args.search, &[]);
    Ok(Status::of_search(stopped, found))
}
