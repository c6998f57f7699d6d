//! Counting at scale: `count --threads`, checkpoints, `estimate`, `plan`,
//! `count --plan --shard`, and `merge`.
//!
//! # File formats
//!
//! All are line-oriented text; `#` lines carry the header.
//!
//! A **plan** (`exactly plan FILE --cubes K`):
//! ```text
//! # exactly plan 1
//! # input <hash> depth <d> subproblems <K> above <solutions> nodes <nodes>
//! <index> <estimated nodes> <option>,<option>,...
//! ```
//! Options are 0-based option numbers of the problem; `<hash>` is a hash of
//! the problem as read (its Knuth text), so a plan is refused for another
//! input.
//!
//! A **result** (`exactly count --plan PLAN --shard i/N FILE`): the first
//! line is the shard's count (as for every `count`), then
//! ```text
//! # exactly result 1
//! # plan <hash> subproblems <K> above <solutions> nodes <nodes>
//! # shard <i>/<N>
//! <index> <solutions> <nodes>
//! ```
//!
//! A **checkpoint** (`count --checkpoint FILE`) has the header
//! `# exactly checkpoint 1` and `# input <hash> depth <d> subproblems <K>`,
//! then one `<index> <solutions> <nodes>` line per finished subproblem,
//! appended and flushed as each finishes. A last line cut short by a kill
//! (no newline) is ignored when resuming.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use exactly::parallel::{self, Split};
use exactly::{Engine, Limits, OptionId, Outcome, Problem, Solution, Solver, StopReason};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cli::{CountArgs, EstimateArgs, MergeArgs, PlanArgs, SearchArgs, Shard, SolveArgs};
use crate::input::{self, Input};
use crate::output::Printer;
use crate::report::{self, Status};
use crate::search;

/// Subproblems per worker thread when the tree is split for threads.
const PER_THREAD: usize = 64;
/// The deepest cut tried when looking for enough subproblems.
const MAX_DEPTH: usize = 64;

/// FNV-1a, 64 bits: a stable hash (the standard library's may change).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A hash of the problem as read: its Knuth text.
fn input_hash<L>(problem: &Problem<L>) -> String {
    let mut text = Vec::new();
    // Writing to memory cannot fail.
    let _ = exactly::format::write_dlx(problem, &mut text);
    format!("{:016x}", fnv1a(&text))
}

/// The number of threads to use: `--threads`, or every core.
pub fn threads(requested: Option<usize>) -> usize {
    requested
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// Whether a search can be split: budgets on nodes or solutions and traces
/// need the single search.
pub fn splittable(search: &SearchArgs) -> bool {
    search.limit.is_none() && search.max_nodes.is_none() && !search.trace
}

/// A progress bar over subproblems, drawn only on a terminal.
pub(crate) fn subproblem_bar(total: usize) -> ProgressBar {
    if !io::stderr().is_terminal() {
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

/// Limits shared by all workers: a wall-clock timeout becomes a cancel flag
/// raised by a timer thread.
fn shared_limits(timeout: Option<Duration>) -> Limits {
    let flag = Arc::new(AtomicBool::new(false));
    if let Some(t) = timeout {
        let raise = Arc::clone(&flag);
        std::thread::spawn(move || {
            std::thread::sleep(t);
            raise.store(true, Ordering::Relaxed);
        });
    }
    Limits::default().cancel_flag(flag)
}

/// The checkpoint of a run: finished subproblems, by index.
struct Checkpoint {
    file: Mutex<File>,
    done: BTreeMap<usize, (u128, u64)>,
}

fn header_checkpoint(hash: &str, split: &Split) -> String {
    format!(
        "# exactly checkpoint 1\n# input {hash} depth {} subproblems {}\n",
        split.depth,
        split.subproblems.len()
    )
}

/// Reads `path` if it exists (checking it was made for this input and
/// split) and opens it for appending; creates it otherwise. Returns the
/// checkpoint and the depth its split used (or `None` for a new file).
fn read_checkpoint_depth(path: &Path, hash: &str) -> anyhow::Result<Option<usize>> {
    let name = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read checkpoint {name}")),
    };
    let mut lines = text.lines();
    if lines.next() != Some("# exactly checkpoint 1") {
        bail!("{name}:1:1: not a checkpoint of exactly (expected '# exactly checkpoint 1')");
    }
    let second = lines.next().unwrap_or("");
    let fields: Vec<&str> = second.split_whitespace().collect();
    match fields.as_slice() {
        ["#", "input", h, "depth", d, "subproblems", _] => {
            if *h != hash {
                bail!("{name}:2:9: this checkpoint was made for another input (hash {h}, this input has {hash})");
            }
            let depth = d
                .parse()
                .with_context(|| format!("{name}:2: bad depth '{d}'"))?;
            Ok(Some(depth))
        }
        _ => bail!("{name}:2:1: expected '# input <hash> depth <d> subproblems <K>'"),
    }
}

fn open_checkpoint(path: &Path, hash: &str, split: &Split) -> anyhow::Result<Checkpoint> {
    let name = path.display().to_string();
    let mut done = BTreeMap::new();
    let exists = path.exists();
    if exists {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read checkpoint {name}"))?;
        let expected = header_checkpoint(hash, split);
        if !text.starts_with(&expected) {
            bail!(
                "{name}:2:1: this checkpoint was made for another split of the input (expected '{}')",
                expected.lines().nth(1).unwrap_or("")
            );
        }
        let complete = text.ends_with('\n');
        let body: Vec<&str> = text.lines().skip(2).collect();
        for (k, line) in body.iter().enumerate() {
            let line_no = k + 3;
            if k + 1 == body.len() && !complete {
                // Cut short by a kill while writing: that subproblem runs again.
                break;
            }
            let (index, solutions, nodes) = parse_record(line).with_context(|| {
                format!(
                    "{name}:{line_no}:1: expected '<index> <solutions> <nodes>', found '{line}'"
                )
            })?;
            if index >= split.subproblems.len() {
                bail!(
                    "{name}:{line_no}:1: subproblem {index} does not exist (the split has {})",
                    split.subproblems.len()
                );
            }
            if done.insert(index, (solutions, nodes)).is_some() {
                bail!("{name}:{line_no}:1: subproblem {index} is recorded twice");
            }
        }
        if !complete {
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
        file.write_all(header_checkpoint(hash, split).as_bytes())?;
        file.flush()?;
    }
    Ok(Checkpoint {
        file: Mutex::new(file),
        done,
    })
}

fn parse_record(line: &str) -> anyhow::Result<(usize, u128, u64)> {
    let f: Vec<&str> = line.split_whitespace().collect();
    let [i, s, n] = f.as_slice() else {
        bail!("wrong number of fields");
    };
    Ok((i.parse()?, s.parse()?, n.parse()?))
}

/// `count` on threads, with an optional checkpoint.
pub fn count_threads(
    args: &CountArgs,
    problem: &Problem<String>,
    threads: usize,
) -> anyhow::Result<Status> {
    let hash = input_hash(problem);
    let engine: Engine = args.search.engine.into();
    let resumed_depth = match &args.checkpoint {
        Some(path) => read_checkpoint_depth(path, &hash)?,
        None => None,
    };
    let split = match resumed_depth {
        Some(depth) => parallel::split(problem, engine, usize::MAX, depth),
        None => parallel::split(problem, engine, PER_THREAD * threads, MAX_DEPTH),
    };
    let checkpoint = match &args.checkpoint {
        Some(path) => Some(open_checkpoint(path, &hash, &split)?),
        None => None,
    };
    let n = split.subproblems.len();
    let mut skip = vec![false; n];
    let (mut solutions, mut nodes) = (0u128, 0u64);
    if let Some(c) = &checkpoint {
        for (&i, &(s, k)) in &c.done {
            skip[i] = true;
            solutions += s;
            nodes += k;
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
            if let Err(e) = f
                .write_all(format!("{i} {s} {k}\n").as_bytes())
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
    let counted = parallel::count_split(problem, engine, &split, threads, &limits, &skip, &on_done)
        .context("cannot split the search")?;
    bar.finish_and_clear();
    if let Some(e) = write_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e).context("cannot write the checkpoint");
    }
    let total = solutions + counted.solutions;
    let outcome = match counted.outcome {
        // The timer raises the cancel flag: report it as the timeout it is.
        Outcome::Stopped(StopReason::Cancelled) => Outcome::Stopped(StopReason::TimeLimit),
        other => other,
    };
    let mut stats = exactly::Stats::default();
    stats.engine = engine.resolve(problem);
    stats.nodes = nodes + counted.nodes;
    stats.solutions = total;
    stats.max_depth = counted.max_depth;
    stats.updates = counted.updates;
    stats.elapsed = started.elapsed();
    let stopped = search::finish(&ProgressBar::hidden(), outcome, &stats, &args.search, &[]);
    if args.search.stats {
        report::line(&format!(
            "threads: {threads}, subproblems: {n} at depth {}",
            split.depth
        ));
    }
    let mut out = io::stdout().lock();
    writeln!(out, "{total}")
        .and_then(|()| out.flush())
        .context("cannot write to standard output")?;
    Ok(Status::of_search(stopped, total))
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
        format!(
            "{mean:.0} (95% range {:.0} .. {:.0})",
            (mean - 2.0 * error).max(0.0),
            mean + 2.0 * error
        )
    };
    let mut out = io::stdout().lock();
    writeln!(out, "nodes: {}", range(e.nodes, e.nodes_error))
        .and_then(|()| writeln!(out, "solutions: {}", range(e.solutions, e.solutions_error)))
        .and_then(|()| writeln!(out, "probes: {}", e.probes))
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

/// `exactly plan`.
pub fn plan(args: &PlanArgs) -> anyhow::Result<Status> {
    let input = input::load(&args.problem.file, args.problem.input)?;
    exact_cover_only(&input, "plan")?;
    let problem = &input.problem;
    let split = parallel::split(problem, Engine::Auto, args.cubes, MAX_DEPTH);
    let mut out = BufWriter::new(io::stdout().lock());
    writeln!(out, "# exactly plan 1")?;
    writeln!(
        out,
        "# input {} depth {} subproblems {} above {} nodes {}",
        input_hash(problem),
        split.depth,
        split.subproblems.len(),
        split.solutions,
        split.nodes
    )?;
    let mut solver = Solver::new(problem);
    for (i, prefix) in split.subproblems.iter().enumerate() {
        let e = parallel::estimate_with(
            &mut solver,
            prefix,
            args.probes,
            parallel::subproblem_seed(i),
        )?;
        let options: Vec<String> = prefix.iter().map(|o| o.index().to_string()).collect();
        writeln!(out, "{i} {:.0} {}", e.nodes, options.join(","))?;
    }
    out.flush().context("cannot write to standard output")?;
    Ok(Status::Success)
}

/// A plan read back.
struct Plan {
    hash: String,
    split: Split,
    estimates: Vec<f64>,
}

fn read_plan(path: &Path) -> anyhow::Result<Plan> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read plan {name}"))?;
    let mut lines = text.lines();
    if lines.next() != Some("# exactly plan 1") {
        bail!("{name}:1:1: not a plan of exactly (expected '# exactly plan 1')");
    }
    let header: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
    let ["#", "input", hash, "depth", depth, "subproblems", k, "above", above, "nodes", nodes] =
        header.as_slice()
    else {
        bail!(
            "{name}:2:1: expected '# input <hash> depth <d> subproblems <K> above <n> nodes <n>'"
        );
    };
    let number = |t: &str, what: &str| -> anyhow::Result<u128> {
        t.parse()
            .with_context(|| format!("{name}:2: bad {what} '{t}'"))
    };
    let k = number(k, "subproblem count")? as usize;
    let mut split = Split {
        depth: number(depth, "depth")? as usize,
        subproblems: Vec::new(),
        solutions: number(above, "solution count")?,
        nodes: number(nodes, "node count")? as u64,
    };
    let mut estimates = Vec::new();
    for (n, line) in lines.enumerate() {
        let line_no = n + 3;
        let f: Vec<&str> = line.split_whitespace().collect();
        let bad = || {
            format!("{name}:{line_no}:1: expected '<index> <estimate> <options>', found '{line}'")
        };
        let (index, estimate, options) = match f.as_slice() {
            [i, e, o] => (i, e, *o),
            [i, e] => (i, e, ""),
            _ => bail!(bad()),
        };
        let index: usize = index.parse().with_context(bad)?;
        if index != split.subproblems.len() {
            bail!(
                "{name}:{line_no}:1: expected subproblem {}, found {index}",
                split.subproblems.len()
            );
        }
        estimates.push(estimate.parse::<f64>().with_context(bad)?);
        let prefix = options
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|s| s.parse::<usize>().map(OptionId::new))
            .collect::<Result<Vec<_>, _>>()
            .with_context(bad)?;
        split.subproblems.push(prefix);
    }
    if split.subproblems.len() != k {
        bail!(
            "{name}: the header announces {k} subproblems, the plan lists {}",
            split.subproblems.len()
        );
    }
    Ok(Plan {
        hash: hash.to_string(),
        split,
        estimates,
    })
}

/// `count --plan PLAN --shard i/N`: counts one shard's subproblems.
pub fn count_shard(
    args: &CountArgs,
    problem: &Problem<String>,
    plan_path: &Path,
    shard: Shard,
    threads: usize,
) -> anyhow::Result<Status> {
    let plan = read_plan(plan_path)?;
    let hash = input_hash(problem);
    if plan.hash != hash {
        bail!(
            "{}:2:9: this plan was made for another input (hash {}, this input has {hash})",
            plan_path.display(),
            plan.hash
        );
    }
    if problem.num_options()
        < plan
            .split
            .subproblems
            .iter()
            .flatten()
            .map(|o| o.index() + 1)
            .max()
            .unwrap_or(0)
    {
        bail!(
            "{}: the plan names options this input does not have",
            plan_path.display()
        );
    }
    let mine = &parallel::balance(&plan.estimates, shard.count)[shard.index];
    let mut skip = vec![true; plan.split.subproblems.len()];
    for &i in mine {
        skip[i] = false;
    }
    let records = Mutex::new(Vec::new());
    let limits = shared_limits(args.search.timeout);
    let engine: Engine = args.search.engine.into();
    let counted = parallel::count_split(
        problem,
        engine,
        &plan.split,
        threads,
        &limits,
        &skip,
        &|i, s, n| {
            records
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((i, s, n));
        },
    )
    .with_context(|| {
        format!(
            "{}: a subproblem does not replay on this input",
            plan_path.display()
        )
    })?;
    let mut records = records.into_inner().unwrap_or_else(|e| e.into_inner());
    records.sort_unstable();
    let total: u128 = records.iter().map(|r| r.1).sum();
    let stopped = counted.outcome != Outcome::Complete;
    if stopped {
        report::message("stopped early: the shard's result lists the subproblems finished");
    }
    let mut out = BufWriter::new(io::stdout().lock());
    writeln!(out, "{total}")?;
    writeln!(out, "# exactly result 1")?;
    writeln!(
        out,
        "# plan {} subproblems {} above {} nodes {}",
        plan.hash,
        plan.split.subproblems.len(),
        plan.split.solutions,
        plan.split.nodes
    )?;
    writeln!(out, "# shard {}/{}", shard.index, shard.count)?;
    for (i, s, n) in records {
        writeln!(out, "{i} {s} {n}")?;
    }
    out.flush().context("cannot write to standard output")?;
    Ok(if stopped {
        Status::Stopped
    } else {
        Status::Success
    })
}

/// `exactly merge`: checks that every subproblem was counted exactly once
/// and prints the total.
pub fn merge(args: &MergeArgs) -> anyhow::Result<Status> {
    let mut header: Option<(String, String)> = None;
    let mut seen: BTreeMap<usize, String> = BTreeMap::new();
    let mut total: u128 = 0;
    let mut k = 0usize;
    let mut above = 0u128;
    for path in &args.results {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
        let mut lines = text.lines();
        let first: u128 = lines
            .next()
            .unwrap_or("")
            .trim()
            .parse()
            .with_context(|| format!("{name}:1:1: expected the shard's count"))?;
        if lines.next() != Some("# exactly result 1") {
            bail!("{name}:2:1: not a result of exactly (expected '# exactly result 1')");
        }
        let plan_line = lines.next().unwrap_or("").to_string();
        let f: Vec<&str> = plan_line.split_whitespace().collect();
        let ["#", "plan", _, "subproblems", count, "above", a, "nodes", _] = f.as_slice() else {
            bail!("{name}:3:1: expected '# plan <hash> subproblems <K> above <n> nodes <n>'");
        };
        match &header {
            None => {
                header = Some((plan_line.clone(), name.clone()));
                k = count
                    .parse()
                    .with_context(|| format!("{name}:3: bad subproblem count"))?;
                above = a
                    .parse()
                    .with_context(|| format!("{name}:3: bad solution count"))?;
            }
            Some((line, first_file)) if *line != plan_line => {
                bail!("{name}:3:1: comes from another plan than {first_file}");
            }
            Some(_) => {}
        }
        let _shard = lines.next();
        let mut sum = 0u128;
        for (n, line) in lines.enumerate() {
            let line_no = n + 5;
            let (i, s, _) = parse_record(line).with_context(|| {
                format!(
                    "{name}:{line_no}:1: expected '<index> <solutions> <nodes>', found '{line}'"
                )
            })?;
            if i >= k {
                bail!("{name}:{line_no}:1: subproblem {i} does not exist (the plan has {k})");
            }
            if let Some(other) = seen.insert(i, format!("{name}:{line_no}")) {
                bail!("subproblem {i} is counted twice: {other} and {name}:{line_no}");
            }
            sum += s;
        }
        if sum != first {
            bail!("{name}:1:1: the shard's count {first} differs from the sum of its lines, {sum}");
        }
        total += sum;
    }
    if header.is_none() {
        bail!("no result files given");
    }
    if let Some(missing) = (0..k).find(|i| !seen.contains_key(i)) {
        let more = (0..k).filter(|i| !seen.contains_key(i)).count() - 1;
        bail!(
            "subproblem {missing} is missing from the results{}",
            if more > 0 {
                format!(" (and {more} more)")
            } else {
                String::new()
            }
        );
    }
    let mut out = io::stdout().lock();
    writeln!(out, "{}", total + above)
        .and_then(|()| out.flush())
        .context("cannot write to standard output")?;
    Ok(Status::of_search(false, total + above))
}

/// `solve --threads N`: the subproblems' solutions, streamed as found.
pub fn solve_threads(args: &SolveArgs, input: &Input, threads: usize) -> anyhow::Result<Status> {
    let problem = &input.problem;
    let engine: Engine = args.search.engine.into();
    let limits = shared_limits(args.search.timeout);
    let (split, above) =
        parallel::split_with_solutions(problem, engine, PER_THREAD * threads, MAX_DEPTH);
    let subproblems = split.subproblems;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let stopped_by = Mutex::new(None);
    let stdout = io::stdout();
    let mut printer = Printer::new(BufWriter::new(stdout.lock()), args.format, input, None);
    let mut found = 0u128;
    let mut failed = None;
    for s in &above {
        found += 1;
        if let Err(e) = printer.solution(&Solution::new(s.clone())) {
            failed.get_or_insert(e);
        }
    }
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<OptionId>>(1024);
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, stop, stopped_by, subproblems, limits) =
                (&next, &stop, &stopped_by, &subproblems, &limits);
            scope.spawn(move || {
                let mut solver = Solver::new(problem).engine(engine).limits(limits.clone());
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= subproblems.len() || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    solver.reset();
                    if solver.restrict(&subproblems[i]).is_err() {
                        // Prefixes from this problem's own split always replay.
                        break;
                    }
                    let outcome = solver.for_each(|s| {
                        if tx.send(s.options().to_vec()).is_err() {
                            std::ops::ControlFlow::Break(())
                        } else {
                            std::ops::ControlFlow::Continue(())
                        }
                    });
                    if let Outcome::Stopped(reason) = outcome {
                        stop.store(true, Ordering::Relaxed);
                        if reason != StopReason::Caller {
                            *stopped_by.lock().unwrap_or_else(|e| e.into_inner()) = Some(reason);
                        }
                        break;
                    }
                }
            });
        }
        drop(tx);
        if failed.is_none() {
            for options in rx {
                found += 1;
                if let Err(e) = printer.solution(&Solution::new(options)) {
                    failed = Some(e);
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
        }
    });
    let flushed = printer.finish();
    if let Some(e) = failed.or(flushed.err()) {
        return Err(e).context("cannot write to standard output");
    }
    let outcome = match stopped_by.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(StopReason::Cancelled) => Outcome::Stopped(StopReason::TimeLimit),
        Some(reason) => Outcome::Stopped(reason),
        None => Outcome::Complete,
    };
    let mut stats = exactly::Stats::default();
    stats.engine = engine.resolve(problem);
    stats.solutions = found;
    let stopped = search::finish(&ProgressBar::hidden(), outcome, &stats, &args.search, &[]);
    Ok(Status::of_search(stopped, found))
}
