//! `exactly sudoku`: solves a batch of sudokus, in parallel, and answers
//! each record in the input's order and style.

use std::borrow::Cow;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::Context;
use exactly::Limits;
use exactly_puzzles::sudoku::{
    self, Answer, Layout, Puzzle, Regions, Rules, Shape, Style, SudokuError, Template,
    TemplateSolver, Verdict,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cli::{SudokuArgs, SudokuFormat, TargetMethod};
use crate::input;
use crate::report::{self, Status};
use crate::search;

/// A record's answer, or why it has none.
type Outcome = Result<(Puzzle, Answer), SudokuError>;

/// Parses `RxC` into a box shape.
pub(crate) fn parse_box(text: &str) -> anyhow::Result<Shape> {
    let (r, c) = text
        .split_once(['x', 'X'])
        .with_context(|| format!("--box: expected RxC such as 2x5, found '{text}'"))?;
    let r: usize = r
        .trim()
        .parse()
        .with_context(|| format!("--box: bad row count '{r}'"))?;
    let c: usize = c
        .trim()
        .parse()
        .with_context(|| format!("--box: bad column count '{c}'"))?;
    Shape::new(r, c).context("--box")
}

type Job = (usize, Result<Puzzle, SudokuError>);
type Templates = HashMap<Shape, Result<Template, SudokuError>>;
type Solvers<'t> = HashMap<Shape, TemplateSolver<'t>>;

/// How each record is searched: solutions to look for, the rules, and the
/// budget of each puzzle.
struct Search<'a> {
    max: u64,
    rules: &'a Rules,
    limits: &'a Limits,
    /// On several threads and without a budget of the user's, a puzzle
    /// that takes more nodes than this is put off, and split across every
    /// thread once the rest are done: one hard puzzle then no longer keeps
    /// a single thread busy at the end.
    put_off: u64,
}

/// The most threads `exactly sudoku` runs: more are clamped to it (and a
/// batch runs no more threads than it has puzzles).
pub const MAX_THREADS: usize = 256;

/// The memory the solvers of all threads may take together: past it,
/// fewer threads run ([`sudoku::memory_per_solver`]).
pub const MEMORY_BUDGET: usize = 1 << 30;

/// The default [`Search::put_off`]: on `liviniuk_benchmarks_25x25.txt` it
/// puts off the two puzzles that take longest.
const PUT_OFF_NODES: u64 = 100_000;

/// Solves one record with the worker's solver for its shape.
fn solve_one<'t>(
    templates: &'t Templates,
    solvers: &mut Solvers<'t>,
    job: &Job,
    search: &Search<'_>,
) -> Outcome {
    if job.1.as_ref().is_ok_and(|p| p.regions.is_some()) {
        // A jigsaw with its own regions: encoded on its own, on this thread.
        return solve_split(job, search, 1);
    }
    let puzzle = job.1.clone()?;
    let shape = puzzle.grid.shape();
    let solver = match solvers.entry(shape) {
        Entry::Occupied(e) => e.into_mut(),
        Entry::Vacant(e) => match templates.get(&shape) {
            Some(Ok(t)) => e.insert(t.solver().limits(search.limits.clone())),
            Some(Err(err)) => return Err(err.clone()),
            // `solve_all` made a template for every valid record's shape.
            None => {
                return Err(SudokuError::ShapeMismatch {
                    size: shape.size(),
                    box_rows: shape.box_rows(),
                    box_cols: shape.box_cols(),
                })
            }
        },
    };
    let answer = solver.solve(&puzzle.grid, search.max)?;
    Ok((puzzle, answer))
}

/// Solves one record on `threads` threads ([`sudoku::solve_parallel`]).
fn solve_split(job: &Job, search: &Search<'_>, threads: usize) -> Outcome {
    let puzzle = job.1.clone()?;
    let rules = rules_of(&puzzle, search.rules);
    let answer = sudoku::solve_parallel(&puzzle.grid, search.max, &rules, search.limits, threads)?;
    Ok((puzzle, answer))
}

/// The rules for a puzzle: `rules`, with the puzzle's own regions when it
/// has them (`--jigsaw`).
fn rules_of<'r>(puzzle: &Puzzle, rules: &'r Rules) -> Cow<'r, Rules> {
    match &puzzle.regions {
        Some(regions) => Cow::Owned(rules.clone().regions(Some(regions.clone()))),
        None => Cow::Borrowed(rules),
    }
}

/// A progress bar over the puzzles of a batch: drawn on standard error when
/// it is a terminal, once solving has lasted a second.
struct Progress {
    bar: ProgressBar,
    terminal: bool,
    start: Instant,
}

impl Progress {
    fn new(total: usize) -> Progress {
        let bar = ProgressBar::hidden();
        bar.set_length(total as u64);
        if let Ok(style) = ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {pos}/{len} puzzles, {eta} left",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress {
            bar,
            terminal: io::stderr().is_terminal(),
            start: Instant::now(),
        }
    }

    /// Counts `done` more puzzles solved.
    fn advance(&self, done: usize) {
        self.bar.inc(done as u64);
        if self.terminal && self.bar.is_hidden() && self.start.elapsed() >= search::BAR_DELAY {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// Solves every record on `threads` threads; answers in record order.
fn solve_all(
    records: Vec<sudoku::Record>,
    search: &Search<'_>,
    threads: usize,
) -> Vec<(usize, Outcome)> {
    let rules = search.rules;
    let jobs: Vec<Job> = records.into_iter().map(|r| (r.line, r.puzzle)).collect();
    // One template per grid shape in the input, shared by the workers; each
    // worker keeps a solver per shape.
    let mut templates: Templates = HashMap::new();
    for (_, puzzle) in &jobs {
        if let Some(p) = puzzle.as_ref().ok().filter(|p| p.regions.is_none()) {
            let shape = p.grid.shape();
            templates
                .entry(shape)
                .or_insert_with(|| Template::new(shape, rules));
        }
    }
    let templates = &templates;
    let progress = Progress::new(jobs.len());
    if threads > 1 && jobs.len() < threads {
        // Fewer puzzles than threads: each in turn, split across them all.
        return jobs
            .iter()
            .map(|j| {
                let outcome = solve_split(j, search, threads);
                progress.advance(1);
                (j.0, outcome)
            })
            .collect();
    }
    let threads = threads.clamp(1, jobs.len().max(1));
    if threads == 1 {
        let mut solvers = HashMap::new();
        return jobs
            .iter()
            .map(|j| {
                let outcome = solve_one(templates, &mut solvers, j, search);
                progress.advance(1);
                (j.0, outcome)
            })
            .collect();
    }
    // Workers take small batches in turn (of up to 8 puzzles, and at least
    // 16 batches a thread), so slow puzzles do not leave one thread with all
    // the work.
    let batch = (jobs.len() / (16 * threads)).clamp(1, 8);
    let limits = search.limits;
    let put_off = limits.nodes.is_none() && limits.time.is_none() && limits.cancel.is_none();
    let short = Limits::default().max_nodes(search.put_off);
    let first = Search {
        limits: if put_off { &short } else { limits },
        ..*search
    };
    let is_put_off =
        |o: &Outcome| put_off && matches!(o, Ok((_, a)) if a.verdict == Verdict::Unknown);
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, Outcome)>> = Mutex::new(Vec::with_capacity(jobs.len()));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut solvers = HashMap::new();
                loop {
                    let start = next.fetch_add(batch, Ordering::Relaxed);
                    if start >= jobs.len() {
                        break;
                    }
                    let end = (start + batch).min(jobs.len());
                    let batch: Vec<(usize, Outcome)> = (start..end)
                        .map(|i| {
                            let outcome = solve_one(templates, &mut solvers, &jobs[i], &first);
                            if !is_put_off(&outcome) {
                                progress.advance(1);
                            }
                            (i, outcome)
                        })
                        .collect();
                    if let Ok(mut done) = done.lock() {
                        done.extend(batch);
                    }
                }
            });
        }
    });
    let mut done = done.into_inner().unwrap_or_default();
    done.sort_unstable_by_key(|(i, _)| *i);
    for (i, outcome) in &mut done {
        if is_put_off(outcome) {
            *outcome = solve_split(&jobs[*i], search, threads);
            progress.advance(1);
        }
    }
    done.into_iter().map(|(i, o)| (jobs[i].0, o)).collect()
}

/// The error of an invalid record, with its line when the error has none.
pub(crate) fn error_text(line: usize, error: &SudokuError) -> String {
    match error {
        SudokuError::Parse { .. } => error.to_string(),
        _ => format!("line {line}: {error}"),
    }
}

/// A solution on one line, in the record's symbols.
fn one_line(style: Style, grid: &sudoku::Grid) -> String {
    let style = Style {
        layout: Layout::Line,
        ..style
    };
    style.format(grid).trim_end().to_string()
}

/// A solution as a grid of lines, in the record's symbols.
fn as_grid(style: Style, grid: &sudoku::Grid) -> String {
    let layout = match style.layout {
        Layout::Line => Layout::Grid,
        other => other,
    };
    Style { layout, ..style }.format(grid)
}

/// The verdict word and solution count of an outcome.
fn verdict(outcome: &Outcome) -> (&'static str, u64) {
    match outcome {
        Ok((_, a)) => (a.verdict.word(), a.count),
        Err(_) => ("invalid", 0),
    }
}

/// Writes one record as a line: the solution, or the verdict first.
fn write_line(
    out: &mut impl Write,
    line: usize,
    outcome: &Outcome,
    second: bool,
) -> io::Result<()> {
    match outcome {
        Ok((p, a)) => match (&a.solution, a.verdict) {
            (Some(g), v @ (Verdict::Multiple | Verdict::Unknown)) => {
                write!(out, "{} {} {}", v.word(), a.count, one_line(p.style, g))?;
                match a.second.as_ref().filter(|_| second) {
                    Some(h) => writeln!(out, " {}", one_line(p.style, h)),
                    None => writeln!(out),
                }
            }
            (Some(g), _) => writeln!(out, "{}", one_line(p.style, g)),
            (None, v) => writeln!(out, "{}", v.word()),
        },
        Err(e) => writeln!(out, "invalid: {}", error_text(line, e)),
    }
}

/// Writes one record as a grid: the solution, after a verdict line unless
/// it is the only one.
fn write_grid(
    out: &mut impl Write,
    line: usize,
    outcome: &Outcome,
    second: bool,
) -> io::Result<()> {
    match outcome {
        Ok((p, a)) => {
            if matches!(a.verdict, Verdict::Multiple | Verdict::Unknown) && a.solution.is_some() {
                writeln!(out, "{} {}", a.verdict.word(), a.count)?;
            } else if a.solution.is_none() {
                writeln!(out, "{}", a.verdict.word())?;
            }
            if let Some(g) = &a.solution {
                write!(out, "{}", as_grid(p.style, g))?;
            }
            match a.second.as_ref().filter(|_| second) {
                Some(h) => write!(out, "\n{}", as_grid(p.style, h)),
                None => Ok(()),
            }
        }
        Err(e) => writeln!(out, "invalid: {}", error_text(line, e)),
    }
}

/// The JSON object of one record, fields in this order.
#[derive(serde::Serialize)]
struct JsonRecord {
    line: usize,
    verdict: &'static str,
    solution: Option<String>,
    count: u64,
    error: Option<String>,
    /// With `--second`, a second solution when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    second: Option<String>,
}

/// Writes one record as a JSON object on one line.
fn write_json(
    out: &mut impl Write,
    line: usize,
    outcome: &Outcome,
    second: bool,
) -> io::Result<()> {
    let (word, count) = verdict(outcome);
    let (solution, second) = match outcome {
        Ok((p, a)) => (
            a.solution.as_ref().map(|g| one_line(p.style, g)),
            a.second
                .as_ref()
                .filter(|_| second)
                .map(|g| one_line(p.style, g)),
        ),
        Err(_) => (None, None),
    };
    let error = outcome.as_ref().err().map(|e| error_text(line, e));
    let object = JsonRecord {
        line,
        verdict: word,
        solution,
        count,
        error,
        second,
    };
    let text = serde_json::to_string(&object).map_err(io::Error::other)?;
    writeln!(out, "{text}")
}

/// Runs `exactly sudoku`.
pub fn run(args: &SudokuArgs) -> anyhow::Result<Status> {
    let mut shape = args.box_shape.as_deref().map(parse_box).transpose()?;
    let regions = match &args.regions {
        Some(path) => {
            let (name, bytes) = input::read_source(path)?;
            let text = input::decode(&name, bytes)?;
            let regions = Regions::parse(&text).map_err(|e| located(&name, e))?;
            // The regions replace the boxes: any shape of the right side will do.
            let n = regions.size();
            shape = shape.or_else(|| Shape::infer(n)).or(Shape::new(1, n).ok());
            Some(regions)
        }
        None => None,
    };
    let (name, bytes) = input::read_source(&args.file)?;
    // Bytes that are not UTF-8 become U+FFFD, which the reader names in
    // the record that holds them: the rest of the batch goes on.
    let text = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    let start = Instant::now();
    let rules = Rules::default().diagonals(args.diagonals).regions(regions);
    let records = sudoku::Reader::new()
        .shape(shape)
        .rules(rules.clone())
        .small(args.small)
        .jigsaw(args.jigsaw)
        .read(&text);
    anyhow::ensure!(
        !records.is_empty(),
        "{name}: no puzzles: the input is empty or holds only comments and blank lines"
    );
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .min(MAX_THREADS);
    // Each thread holds solvers as large as the largest grid's: keep them
    // all within the memory budget.
    let side = records
        .iter()
        .filter_map(|r| r.puzzle.as_ref().ok())
        .map(|p| p.grid.size())
        .max()
        .unwrap_or(1);
    let per = sudoku::memory_per_solver(side).max(1);
    let fit = (MEMORY_BUDGET / per).max(1);
    if threads > fit {
        report::message(&format!(
            "{threads} threads would take more than {} MiB for {side}x{side} grids \
             (about {} MiB a thread): running {fit}",
            MEMORY_BUDGET >> 20,
            per.div_ceil(1 << 20)
        ));
    }
    let threads = threads.min(fit);
    let max = if args.first { 1 } else { args.max_solutions };
    if args.target {
        return target(args, records, &rules, &name);
    }
    let mut limits = Limits::default();
    if let Some(nodes) = args.max_nodes {
        limits = limits.max_nodes(nodes);
    }
    if let Some(time) = args.timeout {
        limits = limits.max_time(time);
    }
    let search = Search {
        max,
        rules: &rules,
        limits: &limits,
        put_off: PUT_OFF_NODES,
    };
    let outcomes = solve_all(records, &search, threads);
    let elapsed = start.elapsed();

    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut previous_grid: Option<bool> = None;
    const WORDS: [&str; 6] = ["unique", "multiple", "solved", "none", "invalid", "unknown"];
    let mut tally = [0usize; WORDS.len()];
    for (line, outcome) in &outcomes {
        let (word, _) = verdict(outcome);
        let slot = WORDS.iter().position(|w| *w == word).unwrap_or(4);
        tally[slot] += 1;
        let grid = match args.format {
            Some(SudokuFormat::Json) => {
                write_json(&mut out, *line, outcome, args.second)?;
                continue;
            }
            Some(SudokuFormat::Line) => false,
            Some(SudokuFormat::Grid) => true,
            // An invalid record answers in the layout of the record before.
            None => match outcome {
                Ok((p, _)) => p.style.layout != Layout::Line,
                Err(_) => previous_grid.unwrap_or(false),
            },
        };
        // A blank line between records when either is a grid.
        if previous_grid.is_some_and(|p| p || grid) {
            writeln!(out)?;
        }
        previous_grid = Some(grid);
        if grid {
            write_grid(&mut out, *line, outcome, args.second)?;
        } else {
            write_line(&mut out, *line, outcome, args.second)?;
        }
    }
    out.flush().context("cannot write to standard output")?;

    let total = outcomes.len();
    let rate = total as f64 / elapsed.as_secs_f64().max(1e-9);
    let plural = |k: usize| if k == 1 { "" } else { "s" };
    let mut summary = format!(
        "{total} puzzle{}: {} unique, {} multiple",
        plural(total),
        tally[0],
        tally[1]
    );
    if tally[2] > 0 {
        summary.push_str(&format!(", {} solved", tally[2]));
    }
    if tally[5] > 0 {
        summary.push_str(&format!(", {} unknown (out of budget)", tally[5]));
    }
    summary.push_str(&format!(
        ", {} none, {} invalid; {:.3} s, {:.*} puzzles/s on {threads} thread{}",
        tally[3],
        tally[4],
        elapsed.as_secs_f64(),
        if rate < 10.0 { 3 } else { 0 },
        rate,
        plural(threads)
    ));
    report::message(&summary);
    anyhow::ensure!(
        tally[4] == 0,
        "{name}: {} of {total} records are invalid",
        tally[4]
    );
    Ok(if tally[5] > 0 {
        Status::Stopped
    } else if tally[3] > 0 {
        Status::NoSolution
    } else {
        Status::Success
    })
}

/// A `--target` score: the best (up to 64 × (2^64 − 1) × 4,096, so a
/// u128), or -1 when there is none.
#[derive(Clone, Copy)]
enum TargetScore {
    Best(u128),
    None,
}

impl std::fmt::Display for TargetScore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TargetScore::Best(score) => write!(f, "{score}"),
            TargetScore::None => write!(f, "-1"),
        }
    }
}

impl serde::Serialize for TargetScore {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            TargetScore::Best(score) => s.serialize_u128(*score),
            TargetScore::None => s.serialize_i8(-1),
        }
    }
}

/// The JSON object of one `--target` record.
#[derive(serde::Serialize)]
struct TargetRecord {
    line: usize,
    score: TargetScore,
    solution: Option<String>,
    error: Option<String>,
}

/// A reader's error in a whole-file input (`--regions`, `--weights`), as
/// `file:line:column: message`.
pub(crate) fn located(file: &str, error: SudokuError) -> anyhow::Error {
    match error {
        SudokuError::Parse {
            line,
            column,
            message,
        } => anyhow::anyhow!("{file}:{line}:{}: {message}", column.unwrap_or(1)),
        other => anyhow::anyhow!("{file}: {other}"),
    }
}

/// `exactly sudoku --target`: one line per record, the best score (or -1),
/// or `invalid: …`; JSON objects with `line`, `score`, `solution`, `error`.
fn target(
    args: &SudokuArgs,
    records: Vec<sudoku::Record>,
    rules: &Rules,
    name: &str,
) -> anyhow::Result<Status> {
    let given = match &args.weights {
        Some(path) => {
            let (file, bytes) = input::read_source(path)?;
            let text = input::decode(&file, bytes)?;
            Some(sudoku::Weights::parse(&text).map_err(|e| located(&file, e))?)
        }
        None => None,
    };
    let method = match args.method {
        TargetMethod::Bound => sudoku::Method::BranchAndBound,
        TargetMethod::Enumerate => sudoku::Method::Enumerate,
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let (mut unsolvable, mut invalid) = (0usize, 0usize);
    for record in records {
        let line = record.line;
        let result = record.puzzle.and_then(|p| {
            let weights = given
                .clone()
                .unwrap_or_else(|| sudoku::Weights::rings(p.grid.size()));
            let rules = rules_of(&p, rules);
            sudoku::best_score(&p.grid, &rules, &weights, method).map(|best| (p, best))
        });
        let (score, solution, error) = match &result {
            Ok((p, Some((score, grid)))) => (
                TargetScore::Best(*score),
                Some(one_line(p.style, grid)),
                None,
            ),
            Ok((_, None)) => {
                unsolvable += 1;
                (TargetScore::None, None, None)
            }
            Err(e) => {
                invalid += 1;
                (TargetScore::None, None, Some(error_text(line, e)))
            }
        };
        if args.format == Some(SudokuFormat::Json) {
            let object = TargetRecord {
                line,
                score,
                solution,
                error,
            };
            let text = serde_json::to_string(&object).map_err(io::Error::other)?;
            writeln!(out, "{text}")?;
        } else if let Some(e) = error {
            writeln!(out, "invalid: {e}")?;
        } else {
            writeln!(out, "{score}")?;
        }
    }
    out.flush().context("cannot write to standard output")?;
    anyhow::ensure!(invalid == 0, "{name}: {invalid} records are invalid");
    Ok(if unsolvable > 0 {
        Status::NoSolution
    } else {
        Status::Success
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_shapes() {
        assert_eq!(parse_box("2x5").unwrap(), Shape::new(2, 5).unwrap());
        assert!(parse_box("2by5").is_err());
        assert!(parse_box("0x5").is_err());
        assert!(parse_box("9x9").is_err());
    }

    #[test]
    fn threads_keep_the_order() {
        let text = "1.3.\n..1.\n.1..\n2.4.\n\n".repeat(40) + "11..............\n";
        let search = Search {
            max: 2,
            rules: &Rules::default(),
            limits: &Limits::default(),
            put_off: PUT_OFF_NODES,
        };
        let one = solve_all(sudoku::parse(&text, None), &search, 1);
        let four = solve_all(sudoku::parse(&text, None), &search, 4);
        assert_eq!(one.len(), 41);
        let lines = |v: &[(usize, Outcome)]| v.iter().map(|(l, _)| *l).collect::<Vec<_>>();
        assert_eq!(lines(&one), lines(&four));
        assert!(four[40].1.is_err());
    }

    #[test]
    fn puzzles_put_off_get_the_answers_of_a_serial_run() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/sudoku");
        let mut text = String::new();
        for file in ["9x9.txt", "16x16.txt", "6x6.txt", "invalid.txt"] {
            text += &std::fs::read_to_string(root.join(file)).unwrap();
        }
        // Several solutions, and none.
        text += "12..34..........\n123....4........\n";
        let (rules, limits) = (Rules::default(), Limits::default());
        let search = |put_off| Search {
            max: 2,
            rules: &rules,
            limits: &limits,
            put_off,
        };
        let serial = solve_all(sudoku::parse(&text, None), &search(PUT_OFF_NODES), 1);
        // Every puzzle but the trivial ones is put off and split.
        let split = solve_all(sudoku::parse(&text, None), &search(5), 3);
        assert_eq!(serial.len(), split.len());
        let mut put_off = 0;
        for ((line, a), (line2, b)) in serial.iter().zip(&split) {
            assert_eq!(line, line2);
            match (a, b) {
                (Ok((_, a)), Ok((_, b))) => {
                    assert_eq!((a.verdict, a.count), (b.verdict, b.count), "line {line}");
                    if a.verdict == Verdict::Unique {
                        assert_eq!(a.solution, b.solution, "line {line}");
                    }
                    put_off += usize::from(a.nodes > 5);
                }
                (Err(a), Err(b)) => assert_eq!(a, b),
                _ => panic!("line {line}: {a:?} against {b:?}"),
            }
        }
        assert!(put_off > 10, "{put_off}");
    }
}
