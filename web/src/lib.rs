//! The engine for the web page: plain `extern "C"` exports taking a JSON
//! request through linear memory and leaving a JSON answer there.
//!
//! The page calls [`alloc`] for a buffer, writes the UTF-8 request into it,
//! calls [`request`] (which takes the buffer back and returns the answer's
//! length) and reads the answer at [`output_ptr`]. The host supplies two
//! functions in the `env` module: `now_ms` (the clock behind the engine's
//! timing) and `progress` (called about every 100 ms while a search runs,
//! with the engine's node and solution counts and Knuth's estimate of the
//! fraction done); and `improved` (the cheapest-solution list so far, as
//! JSON at a pointer and length, while `min_cost` runs).
//!
//! Requests, by `cmd`:
//! - `count {text}`: the number of solutions of a DLX problem (with
//!   multiplicities too).
//! - `min_cost {text, k}`: the `k` cheapest solution costs (default 1),
//!   one solution each, as `exactly solve --best K` (`|cost` options), with
//!   progress; each time the list improves it goes to the host's
//!   `improved`, so that a page that stops the search keeps the best found.
//! - `list_start {text}`, then `list_next {n}`: solutions, lazily.
//! - `trace {text, max_nodes}`: every step of the search as the engine's
//!   trace events report it, each with its `exactly solve --trace` line and
//!   the links the engine's dancing links changed in it (`exactly solve
//!   --trace-nodes`), for the dance view.
//! - `sudoku {text, box, x, max, regions, jigsaw}`: sudoku records in any
//!   format the CLI reads; `regions` a region map for every record (as
//!   `exactly sudoku --regions` reads it), `jigsaw` records that end with
//!   their own (`--jigsaw`).
//! - `regions {text}`: a region map read, for the grid to draw.
//!
//! A DLX parse error answers `{"error": {line, column, message}}`.

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use exactly::format::parse_dlx;
use exactly::multi::{CostSolver, CostedSolution, MultiSolver};
use exactly::{Limits, OptionId, Outcome, Problem, Solver, StopReason, TraceEvent};
use exactly_puzzles::sudoku::{self, Rules, SudokuError};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

#[link(wasm_import_module = "env")]
extern "C" {
    /// Milliseconds since a fixed origin (`performance.now()`).
    fn now_ms() -> f64;
    /// A progress report from the engine.
    fn progress(nodes: f64, solutions: f64, fraction: f64, depth: u32, elapsed_ms: f64);
    /// The best solutions found so far by `min_cost`: UTF-8 JSON, read
    /// during the call.
    fn improved(ptr: *const u8, len: usize);
}

/// The host's clock.
fn now() -> f64 {
    // SAFETY: `now_ms` is a plain host function without arguments.
    unsafe { now_ms() }
}

/// How often the engine reports progress.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

/// The largest problem the dance view draws.
const DRAW_ITEMS: usize = 64;
const DRAW_OPTIONS: usize = 200;
const DRAW_ENTRIES: usize = 1200;

/// The most search-tree nodes a trace may take.
const MAX_TRACE_NODES: u64 = 20_000;

thread_local! {
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static LISTING: RefCell<Option<Solver<'static, String>>> = const { RefCell::new(None) };
}

/// A buffer of `len` bytes for a request; [`request`] takes it back.
#[no_mangle]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    Box::into_raw(vec![0u8; len].into_boxed_slice()).cast::<u8>()
}

/// Handles the request in the buffer `ptr..ptr + len` from [`alloc`] (which
/// it frees) and returns the length of the answer at [`output_ptr`].
///
/// # Safety
/// `ptr` and `len` must come from one call of [`alloc`], used once.
#[no_mangle]
pub unsafe extern "C" fn request(ptr: *mut u8, len: usize) -> usize {
    // SAFETY: the caller passes back a box made by `alloc` with this length.
    let bytes: Box<[u8]> = unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) };
    let answer = handle(&bytes).into_bytes();
    let n = answer.len();
    OUTPUT.with(|o| *o.borrow_mut() = answer);
    n
}

/// Where the last answer lies.
#[no_mangle]
pub extern "C" fn output_ptr() -> *const u8 {
    OUTPUT.with(|o| o.borrow().as_ptr())
}

#[derive(Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case")]
enum Request {
    Count {
        text: String,
    },
    MinCost {
        text: String,
        k: Option<usize>,
    },
    ListStart {
        text: String,
    },
    ListNext {
        n: usize,
    },
    Trace {
        text: String,
        max_nodes: Option<u64>,
    },
    Sudoku(SudokuRequest),
    Regions {
        text: String,
    },
}

#[derive(Deserialize)]
struct SudokuRequest {
    text: String,
    /// Box rows and columns, when the text alone cannot tell.
    #[serde(rename = "box")]
    shape: Option<(usize, usize)>,
    /// X-sudoku: the diagonals are regions too.
    #[serde(default)]
    x: bool,
    /// Solutions to look for (2 tells unique from multiple).
    max: Option<u64>,
    /// The most records answered.
    limit: Option<usize>,
    /// Jigsaw: a region map for every record, as `--regions` reads it.
    regions: Option<String>,
    /// Jigsaw records, each line ending with its region map (`--jigsaw`).
    #[serde(default)]
    jigsaw: bool,
}

/// The answer to a request, as JSON text.
fn handle(bytes: &[u8]) -> String {
    exactly::time::set_clock(now);
    let request: Request = match serde_json::from_slice(bytes) {
        Ok(r) => r,
        Err(e) => return json!({ "fatal": format!("bad request: {e}") }).to_string(),
    };
    let result = match request {
        Request::Count { text } => count(&text),
        Request::MinCost { text, k } => min_cost(&text, k.unwrap_or(1)),
        Request::ListStart { text } => list_start(&text),
        Request::ListNext { n } => Ok(list_next(n)),
        Request::Trace { text, max_nodes } => trace(&text, max_nodes.unwrap_or(MAX_TRACE_NODES)),
        // A batch's records are written straight to text, with no tree of
        // values in between: most of a batch's time outside the solves.
        Request::Sudoku(r) => return solve_sudoku(&r),
        Request::Regions { text } => Ok(read_regions(&text)),
    };
    result.unwrap_or_else(|e| e).to_string()
}

/// Parses a DLX problem, or the error answer.
fn parse(text: &str) -> Result<Problem<String>, Value> {
    parse_dlx(text).map_err(|e| {
        json!({ "error": { "line": e.line, "column": e.column, "message": e.kind.to_string() } })
    })
}

/// Parses a DLX problem that an exact-cover search takes (costs left
/// aside): multiplicities are for counting and the cheapest solution.
fn parse_exact(text: &str, what: &str) -> Result<Problem<String>, Value> {
    let problem = parse(text)?;
    if problem.has_multiplicities() {
        return Err(json!({ "error": {
            "line": 1, "column": 1,
            "message": format!("a problem with multiplicities: {what} is left to `exactly solve`; here, count its solutions or find a cheapest one"),
        }}));
    }
    Ok(problem)
}

/// The sizes of a problem.
fn info(p: &Problem<String>) -> Value {
    json!({
        "items": p.num_items(),
        "primary": p.num_primary(),
        "options": p.num_options(),
        "entries": p.num_entries(),
        "colors": p.has_colors(),
    })
}

fn outcome_word(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Complete => "complete",
        Outcome::Stopped(StopReason::NodeLimit) => "node limit",
        Outcome::Stopped(StopReason::TimeLimit) => "time limit",
        Outcome::Stopped(StopReason::SolutionLimit) => "solution limit",
        Outcome::Stopped(_) => "stopped",
    }
}

fn report(p: &exactly::Progress) {
    // SAFETY: `progress` is a plain host function taking numbers.
    unsafe {
        progress(
            p.nodes as f64,
            p.solutions as f64,
            p.fraction,
            p.depth,
            p.elapsed.as_secs_f64() * 1000.0,
        )
    }
}

fn count(text: &str) -> Result<Value, Value> {
    let problem = parse(text)?;
    let start = now();
    if problem.has_multiplicities() {
        // As `exactly count` does: Knuth's Algorithm M.
        let mut solver = MultiSolver::new(&problem).on_progress(PROGRESS_INTERVAL, report);
        let c = solver.count();
        return Ok(json!({
            "info": info(&problem),
            "count": c.solutions.to_string(),
            "outcome": outcome_word(c.outcome),
            "nodes": solver.stats().nodes,
            "ms": now() - start,
            "engine": "multiplicities",
        }));
    }
    // A large exact cover is counted by the rest its forced moves leave,
    // as `exactly count` does: the forced levels are the whole tree's first
    // nodes.
    let (solutions, outcome, stats) = match exactly::Rest::of(&problem) {
        Some(rest) => count_in_slices(&rest.problem, Some(&rest)),
        None => count_in_slices(&problem, None),
    };
    Ok(json!({
        "info": info(&problem),
        "count": solutions.to_string(),
        "outcome": outcome_word(outcome),
        "nodes": stats.nodes,
        "ms": now() - start,
        "engine": format!("{:?}", stats.engine),
    }))
}

/// Counts `problem`, the rest `above` leaves of the problem the page
/// counts if any (its progress and counts are then the whole problem's),
/// in slices of [`COUNT_SLICE`] nodes, each a new call of the search: the
/// browser first runs the engine as its baseline compiler made it and
/// moves a hot function to its optimizing compiler only for the function's
/// next call, so one call that counts for seconds would run unoptimized to
/// the end.
fn count_in_slices<L>(
    problem: &Problem<L>,
    above: Option<&exactly::Rest>,
) -> (u128, Outcome, exactly::Stats) {
    let mut solver = Solver::new(problem).on_progress(PROGRESS_INTERVAL, move |p| match above {
        Some(rest) => report(&rest.whole_progress(p)),
        None => report(p),
    });
    let mut solutions = 0u128;
    let mut until = 0u64;
    let outcome = loop {
        until = until.saturating_add(COUNT_SLICE);
        solver = solver.limits(Limits::default().max_nodes(until));
        let c = solver.count();
        solutions += c.solutions;
        if c.outcome != Outcome::Stopped(StopReason::NodeLimit) || until == u64::MAX {
            break c.outcome;
        }
    };
    let mut stats = *solver.stats();
    if let Some(rest) = above {
        rest.add_forced(&mut stats.nodes, &mut stats.updates, &mut stats.max_depth);
    }
    (solutions, outcome, stats)
}

/// The nodes a count searches in one call (see [`count`]).
const COUNT_SLICE: u64 = 1 << 18;

/// The most costs `min_cost` keeps.
const MAX_BEST: usize = 1000;

/// Costed solutions as the page lists them (and `exactly solve --best K
/// --format json` writes them): cost, options' lines, 0-based indices.
fn costed(problem: &Problem<String>, best: &[CostedSolution]) -> Value {
    best.iter()
        .map(|b| {
            let options = b.solution.options();
            json!({
                "cost": b.cost.to_string(),
                "options": options.iter().map(|&o| problem.label(o)).collect::<Vec<_>>(),
                "indices": options.iter().map(|o| o.index()).collect::<Vec<_>>(),
            })
        })
        .collect()
}

/// The `k` cheapest solution costs, one solution each, as `exactly solve
/// --best K` (`--min-cost` for one) finds them, with progress reports and
/// each improvement of the list sent to the host as it is found.
fn min_cost(text: &str, k: usize) -> Result<Value, Value> {
    let problem = parse(text)?;
    let k = k.clamp(1, MAX_BEST);
    let start = now();
    let mut solver = CostSolver::new(&problem).on_progress(PROGRESS_INTERVAL, report);
    let (best, outcome) = solver.best_with(k, |list| {
        let bytes = json!({ "best": costed(&problem, list), "ms": now() - start }).to_string();
        // SAFETY: `improved` is a host function that reads `len` bytes at
        // `ptr` before it returns; the string outlives the call.
        unsafe { improved(bytes.as_ptr(), bytes.len()) }
    });
    let stats = solver.stats();
    Ok(json!({
        "info": info(&problem),
        "k": k,
        "best": costed(&problem, &best),
        "outcome": outcome_word(outcome),
        "nodes": stats.nodes,
        "solutions": stats.solutions.to_string(),
        "ms": now() - start,
    }))
}

/// Starts a lazy listing. The problem lives as long as the worker, which
/// the page replaces for each listing.
fn list_start(text: &str) -> Result<Value, Value> {
    let problem: &'static Problem<String> = Box::leak(Box::new(parse_exact(text, "listing")?));
    let solver = Solver::new(problem).on_progress(PROGRESS_INTERVAL, report);
    LISTING.with(|l| *l.borrow_mut() = Some(solver));
    Ok(json!({ "info": info(problem) }))
}

/// The next `n` solutions of the listing: each as its options' lines and
/// their 0-based indices, in the order the search chose them.
fn list_next(n: usize) -> Value {
    LISTING.with(|l| {
        let mut l = l.borrow_mut();
        let Some(solver) = l.as_mut() else {
            return json!({ "fatal": "no listing started" });
        };
        let problem = solver.problem();
        let start = now();
        let mut found = Vec::new();
        let outcome = solver.for_each(|s| {
            let labels: Vec<&str> = s.labels(problem).into_iter().map(String::as_str).collect();
            let indices: Vec<usize> = s.options().iter().map(|o| o.index()).collect();
            found.push(json!({ "options": labels, "indices": indices }));
            if found.len() >= n {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        let done = found.len() < n;
        json!({
            "solutions": found,
            "done": done,
            "outcome": if done { outcome_word(outcome) } else { "more" },
            "nodes": solver.stats().nodes,
            "ms": now() - start,
        })
    })
}

// ---------------------------------------------------------------------------
// The dance view.

/// The links as the engine's trace events leave them: which item headers
/// and which option nodes are out of their lists. Nothing here decides
/// what leaves: the engine reports every node its dancing links unlink and
/// relink ([`Solver::trace_nodes`]), and this only applies the reports.
struct Dance<'p> {
    p: &'p Problem<String>,
    /// The options of each item, in input order.
    lists: Vec<Vec<u32>>,
    /// Items whose header is out of the list of items.
    covered: Vec<bool>,
    /// Option nodes out of their item's list, by (item, option).
    gone: std::collections::HashSet<(u32, u32)>,
    /// The options tried on the current path, by level.
    path: Vec<OptionId>,
    /// The engine's own wording of each step (the lines of `--trace`).
    tracer: exactly::trace::Tracer<'p>,
}

impl<'p> Dance<'p> {
    fn new(p: &'p Problem<String>) -> Dance<'p> {
        let mut lists = vec![Vec::new(); p.num_items()];
        for o in p.option_ids() {
            for e in p.option(o) {
                lists[e.item.index()].push(o.index() as u32);
            }
        }
        Dance {
            p,
            lists,
            covered: vec![false; p.num_items()],
            gone: std::collections::HashSet::new(),
            path: Vec::new(),
            tracer: exactly::trace::Tracer::new(p),
        }
    }

    /// Options still in `item`'s list.
    fn size(&self, item: usize) -> usize {
        let i = item as u32;
        self.lists[item]
            .iter()
            .filter(|&&o| !self.gone.contains(&(i, o)))
            .count()
    }

    /// Applies one node change the engine reported, as `[code, item,
    /// option]` for the page (code 0 unlink, 1 relink; option -1 for the
    /// item's header); `None` for other events.
    fn change(&mut self, event: &TraceEvent) -> Option<[i64; 3]> {
        let (item, option, back) = match *event {
            TraceEvent::Unlink { item, option } => (item, option, false),
            TraceEvent::Relink { item, option } => (item, option, true),
            _ => return None,
        };
        let i = item.index() as u32;
        match option {
            None => self.covered[item.index()] = !back,
            Some(o) if back => {
                self.gone.remove(&(i, o.index() as u32));
            }
            Some(o) => {
                self.gone.insert((i, o.index() as u32));
            }
        }
        let o = option.map_or(-1, |o| o.index() as i64);
        Some([i64::from(back), i64::from(i), o])
    }

    /// The step for one event (its `--trace` line and what it shows), before
    /// the node changes that follow it; `None` for other events.
    fn step(&mut self, event: &TraceEvent) -> Option<Value> {
        let p = self.p;
        let (_, text) = self.tracer.text(event)?;
        Some(match *event {
            TraceEvent::Choose {
                level,
                item,
                options,
            } => {
                self.path.truncate(level as usize);
                let sizes: Vec<[usize; 2]> = (0..p.num_primary())
                    .filter(|&i| !self.covered[i])
                    .map(|i| [i, self.size(i)])
                    .collect();
                let seen = self.size(item.index());
                json!({
                    "kind": "choose", "level": level, "item": item.index(), "options": options,
                    "sizes": sizes, "consistent": seen == options as usize,
                    "text": text,
                })
            }
            TraceEvent::Try {
                level,
                option,
                k,
                d,
            } => {
                self.path.truncate(level as usize);
                self.path.push(option);
                json!({
                    "kind": "try", "level": level, "option": option.index(), "k": k, "d": d,
                    "text": text,
                })
            }
            TraceEvent::Solution { level } => {
                let chosen: Vec<usize> = self
                    .path
                    .iter()
                    .take(level as usize)
                    .map(|o| o.index())
                    .collect();
                json!({
                    "kind": "solution", "level": level, "solution": chosen,
                    "text": text,
                })
            }
            TraceEvent::Backtrack { level } => {
                self.path.truncate(level as usize);
                json!({ "kind": "backtrack", "level": level, "text": text })
            }
            _ => return None,
        })
    }
}

fn trace(text: &str, max_nodes: u64) -> Result<Value, Value> {
    let problem = parse_exact(text, "the dance")?;
    let p = &problem;
    let drawable = p.num_items() <= DRAW_ITEMS
        && p.num_options() <= DRAW_OPTIONS
        && p.num_entries() <= DRAW_ENTRIES;
    if !drawable {
        return Ok(json!({ "info": info(p), "drawable": false }));
    }
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let mut solver = Solver::new(p)
        .limits(Limits::default().max_nodes(max_nodes))
        .trace_nodes(true)
        .on_trace(move |e| {
            if let Ok(mut v) = sink.lock() {
                v.push(*e);
            }
        });
    let outcome = solver.for_each(|_| ControlFlow::Continue(()));
    let nodes = solver.stats().nodes;
    drop(solver);
    let events = std::mem::take(
        &mut *events
            .lock()
            .map_err(|_| json!({ "fatal": "trace lost" }))?,
    );
    let mut dance = Dance::new(p);
    let mut steps: Vec<Value> = Vec::new();
    let mut delta = Vec::new();
    for e in &events {
        if let Some(op) = dance.change(e) {
            delta.push(op);
        } else if let Some(step) = dance.step(e) {
            if let Some(last) = steps.last_mut() {
                last["delta"] = json!(std::mem::take(&mut delta));
            }
            steps.push(step);
        }
    }
    if let Some(last) = steps.last_mut() {
        last["delta"] = json!(delta);
    }
    let items: Vec<Value> = p
        .item_ids()
        .map(|i| json!({ "name": p.item_name(i), "primary": i.index() < p.num_primary() }))
        .collect();
    let options: Vec<Value> = p
        .option_ids()
        .map(|o| {
            let entries: Vec<Value> = p
                .option(o)
                .iter()
                .map(|e| {
                    let color = (!e.color.is_none()).then(|| p.color_name(e.color).to_string());
                    json!([e.item.index(), color])
                })
                .collect();
            json!({ "label": p.label(o), "entries": entries })
        })
        .collect();
    Ok(json!({
        "info": info(p),
        "drawable": true,
        "items": items,
        "options": options,
        "steps": steps,
        "nodes": nodes,
        "outcome": outcome_word(outcome),
    }))
}

// ---------------------------------------------------------------------------
// Sudoku.

/// The most records one request answers.
const MAX_RECORDS: usize = 10_000;

fn sudoku_error(line: usize, error: &SudokuError) -> String {
    match error {
        SudokuError::Parse(_) => error.to_string(),
        _ => format!("line {line}: {error}"),
    }
}

/// A region map's error as the page shows it: where in the map it lies.
fn regions_error(e: &SudokuError) -> String {
    format!("region map: {e}")
}

/// A box shape for a grid of side `n` with regions of their own: the boxes
/// only name the grid's side.
fn shape_for_regions(n: usize) -> Option<sudoku::Shape> {
    sudoku::Shape::infer(n).or_else(|| sudoku::Shape::new(1, n).ok())
}

/// Each cell's 0-based region, row by row.
fn region_cells(regions: &sudoku::Regions) -> Vec<usize> {
    let n = regions.size();
    (0..n * n).map(|i| regions.region(i / n, i % n)).collect()
}

fn read_regions(text: &str) -> Value {
    match sudoku::Regions::parse(text) {
        Ok(regions) => {
            let n = regions.size();
            let shape = shape_for_regions(n);
            json!({
                "size": n,
                "box": shape.map(|s| [s.box_rows(), s.box_cols()]),
                "regions": region_cells(&regions),
            })
        }
        Err(e) => json!({ "error": regions_error(&e) }),
    }
}

/// The answer to a sudoku request: its records, up to the limit, and how
/// many the text held.
#[derive(Serialize)]
struct SudokuAnswer {
    records: Vec<SudokuRecord>,
    total: usize,
}

/// One record of a sudoku request. The grids are the cells' values (0:
/// empty) in reading order; `text` and `second_text` are the solutions as
/// one line in the record's own symbols.
#[derive(Default, Serialize)]
struct SudokuRecord {
    line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    size: Option<usize>,
    #[serde(rename = "box", skip_serializing_if = "Option::is_none")]
    shape: Option<[usize; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    givens: Option<Vec<u8>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    symbols: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    regions: Option<Vec<usize>>,
    verdict: &'static str,
    /// The two clashing cells, `[row, col]` from 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    clash: Option<[[usize; 2]; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solution: Option<Vec<u8>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    second: Option<Vec<u8>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    second_text: Option<String>,
}

impl SudokuRecord {
    fn invalid(line: usize, error: String) -> SudokuRecord {
        SudokuRecord {
            line,
            verdict: "invalid",
            error: Some(error),
            ..SudokuRecord::default()
        }
    }
}

fn solve_sudoku(r: &SudokuRequest) -> String {
    let text = |answer: &SudokuAnswer| {
        serde_json::to_string(answer)
            .unwrap_or_else(|e| json!({ "fatal": e.to_string() }).to_string())
    };
    let invalid = |error: String| {
        text(&SudokuAnswer {
            records: vec![SudokuRecord::invalid(1, error)],
            total: 1,
        })
    };
    let mut shape = match r.shape.map(|(a, b)| sudoku::Shape::new(a, b)).transpose() {
        Ok(s) => s,
        Err(e) => return invalid(e.to_string()),
    };
    let regions = match r.regions.as_deref().map(sudoku::Regions::parse).transpose() {
        Ok(g) => g,
        Err(e) => return invalid(regions_error(&e)),
    };
    if let Some(g) = &regions {
        // The regions replace the boxes: any shape of their side will do.
        if shape.is_none_or(|s| s.size() != g.size()) {
            shape = shape_for_regions(g.size());
        }
    }
    let rules = Rules::default().diagonals(r.x).regions(regions);
    let max = r.max.unwrap_or(2).max(1);
    let limit = r.limit.unwrap_or(MAX_RECORDS).min(MAX_RECORDS);
    let mut records = sudoku::Reader::new()
        .shape(shape)
        .rules(rules.clone())
        .jigsaw(r.jigsaw)
        .read(&r.text);
    let total = records.len();
    records.truncate(limit);
    // One template per box shape, encoded once: its solvers take each
    // puzzle's givens as assumptions, as `exactly sudoku` does for batches.
    let mut shapes: Vec<sudoku::Shape> = Vec::new();
    for record in &records {
        if let Ok(p) = &record.puzzle {
            if p.regions.is_none() && !shapes.contains(&p.grid.shape()) {
                shapes.push(p.grid.shape());
            }
        }
    }
    let templates: Vec<Option<sudoku::Template>> = shapes
        .iter()
        .map(|&shape| sudoku::Template::new(shape, &rules).ok())
        .collect();
    let mut solvers: Vec<Option<sudoku::TemplateSolver<'_>>> = templates
        .iter()
        .map(|t| t.as_ref().map(sudoku::Template::solver))
        .collect();
    let out: Vec<SudokuRecord> = records
        .into_iter()
        .map(|record| {
            let line = record.line;
            let puzzle = match record.puzzle {
                Ok(p) => p,
                Err(e) => {
                    let mut v = SudokuRecord::invalid(line, sudoku_error(line, &e));
                    if let SudokuError::Clash { first, second, .. } = &e {
                        if let (Some(a), Some(b)) = (cell_of(first), cell_of(second)) {
                            v.clash = Some([[a.0, a.1], [b.0, b.1]]);
                        }
                    }
                    return v;
                }
            };
            let rules = match &puzzle.regions {
                Some(regions) => rules.clone().regions(Some(regions.clone())),
                None => rules.clone(),
            };
            let grid = &puzzle.grid;
            let shape = grid.shape();
            let line_style = sudoku::Style {
                layout: sudoku::Layout::Line,
                ..puzzle.style
            };
            let one_line = |g: &sudoku::Grid| line_style.format(g).trim_end().to_string();
            let mut v = SudokuRecord {
                line,
                size: Some(grid.size()),
                shape: Some([shape.box_rows(), shape.box_cols()]),
                givens: Some(grid.cells().to_vec()),
                symbols: Some(
                    (1..=grid.size())
                        .map(|v| puzzle.style.symbol(v as u8, grid.size()))
                        .collect(),
                ),
                regions: rules.regions.as_ref().map(region_cells),
                ..SudokuRecord::default()
            };
            if let Some(c) = grid.clash_with(&rules) {
                v.verdict = "invalid";
                v.clash = Some([[c.first.0, c.first.1], [c.second.0, c.second.1]]);
                v.error = Some(sudoku_error(
                    line,
                    &SudokuError::Clash {
                        first: cell(c.first),
                        second: cell(c.second),
                        symbol: puzzle.style.symbol(c.value, grid.size()),
                    },
                ));
                return v;
            }
            let start = now();
            let slot = shapes
                .iter()
                .position(|&s| s == shape && puzzle.regions.is_none());
            let answer = match slot.and_then(|i| solvers[i].as_mut()) {
                Some(solver) => solver.solve(grid, max),
                None => sudoku::solve_with(grid, max, &rules),
            };
            match answer {
                Ok(a) => {
                    v.verdict = a.verdict.word();
                    v.count = Some(a.count);
                    v.nodes = Some(a.nodes);
                    v.ms = Some(now() - start);
                    v.solution = a.solution.as_ref().map(|g| g.cells().to_vec());
                    v.text = a.solution.as_ref().map(one_line);
                    v.second = a.second.as_ref().map(|g| g.cells().to_vec());
                    v.second_text = a.second.as_ref().map(one_line);
                }
                Err(e) => {
                    v.verdict = "invalid";
                    v.error = Some(sudoku_error(line, &e));
                }
            }
            v
        })
        .collect();
    text(&SudokuAnswer {
        records: out,
        total,
    })
}

/// A cell's name as the CLI writes it: `r1c1`.
fn cell((row, col): (usize, usize)) -> String {
    format!("r{}c{}", row + 1, col + 1)
}

/// The 0-based `(row, col)` of a cell named `r1c1` (as clashes name them).
fn cell_of(name: &str) -> Option<(usize, usize)> {
    let (r, c) = name.strip_prefix('r')?.split_once('c')?;
    Some((
        r.parse::<usize>().ok()?.checked_sub(1)?,
        c.parse::<usize>().ok()?.checked_sub(1)?,
    ))
}
