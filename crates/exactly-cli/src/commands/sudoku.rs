//! `exactly sudoku`: solves a batch of sudokus, in parallel, and answers
//! each record in the input's order and style.

use std::borrow::Cow;
use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::sync::mpsc;
use std::time::Instant;

use anyhow::Context;
use exactly::format::ParseError;
use exactly::Limits;
use exactly_puzzles::sudoku::{
    self, Answer, Batch, InputFormat, Layout, Puzzle, Regions, Rules, Shape, Style, SudokuError,
    Verdict,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cli::{SudokuArgs, SudokuFormat, TargetMethod};
use crate::input;
use crate::output::Every;
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

/// The box shape and the regions that `--box` and `--regions` name. The
/// regions replace the boxes: without `--box`, any shape of their side will
/// do.
pub(crate) fn shape_and_regions(
    box_shape: Option<&str>,
    regions: Option<&Path>,
) -> anyhow::Result<(Option<Shape>, Option<Regions>)> {
    let mut shape = box_shape.map(parse_box).transpose()?;
    let regions = match regions {
        Some(path) => {
            let (name, bytes) = input::read_source(path)?;
            let text = input::decode(&name, bytes)?;
            let regions = Regions::parse(&text).map_err(|e| located(&name, e))?;
            let n = regions.size();
            shape = shape.or_else(|| Shape::infer(n)).or(Shape::new(1, n).ok());
            Some(regions)
        }
        None => None,
    };
    Ok((shape, regions))
}

/// Reads a file of puzzles (`-` for standard input) and returns its name
/// for messages and its text. Bytes that are not UTF-8 become U+FFFD, which
/// the reader names in the record that holds them: the rest of the batch
/// goes on.
pub(crate) fn read_batch(path: &Path) -> anyhow::Result<(String, String)> {
    let (name, bytes) = input::read_source(path)?;
    let text = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    Ok((name, text))
}

/// A file of puzzles, or standard input, read through a buffer.
type Input = io::BufReader<Box<dyn io::Read + Send>>;

/// Opens a file of puzzles (`-` for standard input) to read as its lines
/// come, with its name for messages.
fn open_batch(path: &Path) -> anyhow::Result<(String, Input)> {
    if path == Path::new("-") {
        let stdin: Box<dyn io::Read + Send> = Box::new(io::stdin());
        return Ok((
            input::STDIN_NAME.to_string(),
            io::BufReader::with_capacity(1 << 16, stdin),
        ));
    }
    let name = path.display().to_string();
    let file = fs::File::open(path).with_context(|| format!("{name}: cannot open"))?;
    let file: Box<dyn io::Read + Send> = Box::new(file);
    Ok((name, io::BufReader::with_capacity(1 << 16, file)))
}

/// The most records solved together: records are answered in chunks of
/// those that have come, so that answers follow the input as it comes and
/// no more than this many records (and [`IN_FLIGHT`] more) are held.
const CHUNK: usize = 4096;

/// [`CHUNK`] for a run on one thread, where a chunk shares out no work and
/// only takes memory: a chunk's records and answers (some 330 bytes a
/// record, besides the grids) stay below the allocator's threshold for a
/// mapping of their own, so each chunk takes the memory the one before
/// it gave back. PERF: at 4,096 each chunk's vectors were mapped afresh:
/// serg_benchmark's 10,000 puzzles with `--first` took 1,535 page faults,
/// against 227 (DESIGN.md, "Measurements", code-level choices).
const CHUNK_ONE_THREAD: usize = 256;

/// The most records read ahead and not yet taken. The channel that holds
/// them is made whole at the start, each slot written, so a small bound
/// keeps a short run short: at 4,096 its slots took some 130 page faults,
/// about 0.35 ms of a run on one puzzle.
const IN_FLIGHT: usize = 256;

/// The records of a batch ([`sudoku::Reader::records`]), as the input
/// comes.
struct Incoming {
    source: Source,
    name: String,
    /// The most records in a chunk: [`CHUNK`], or [`CHUNK_ONE_THREAD`].
    most: usize,
}

/// Where [`Incoming`] takes its records from.
enum Source {
    /// A thread of their own reads them, while the solvers work.
    Ahead(mpsc::Receiver<io::Result<sudoku::Record>>),
    /// The solver's thread reads them between chunks, for a run on one
    /// thread: a second thread handing records over cost more than the
    /// reading (serg_benchmark with `--first`: CPU time 1.9x on one
    /// core, and up to 1,900 context switches on two).
    Here(Box<sudoku::Records<Input>>),
}

impl Incoming {
    /// Reads `input` ahead on a thread of its own, unless `threads` is 1.
    fn start(reader: sudoku::Reader, input: Input, name: String, threads: usize) -> Incoming {
        let (source, most) = if threads == 1 {
            let records = Source::Here(Box::new(reader.records(input)));
            (records, CHUNK_ONE_THREAD)
        } else {
            let records = exactly::parallel::read_ahead(IN_FLIGHT, move |send| {
                for record in reader.records(input) {
                    let failed = record.is_err();
                    if send.send(record).is_err() || failed {
                        break;
                    }
                }
            });
            (Source::Ahead(records), CHUNK)
        };
        Incoming { source, name, most }
    }

    /// A read error, naming the input.
    fn failed(name: &str, error: io::Error) -> anyhow::Error {
        anyhow::Error::new(error).context(format!("{name}: cannot read"))
    }

    /// The next records: waits for one, then takes those that have come
    /// too (read ahead, or held in the input's buffer), up to
    /// [`Incoming::most`];
    /// none at the end of the input. A read error comes after the
    /// records before it.
    fn chunk(&mut self) -> (Vec<sudoku::Record>, Option<anyhow::Error>) {
        // PERF: made whole on one thread (its first 256 slots on several),
        // where its growth copied the records over and over.
        let mut chunk = Vec::with_capacity(self.most.min(CHUNK_ONE_THREAD));
        match &mut self.source {
            Source::Ahead(records) => {
                let mut next = records.recv().ok();
                while let Some(record) = next {
                    match record {
                        Ok(record) => chunk.push(record),
                        Err(e) => return (chunk, Some(Incoming::failed(&self.name, e))),
                    }
                    if chunk.len() == self.most {
                        break;
                    }
                    next = records.try_recv().ok();
                }
            }
            Source::Here(records) => {
                while let Some(record) = records.next() {
                    match record {
                        Ok(record) => chunk.push(record),
                        Err(e) => return (chunk, Some(Incoming::failed(&self.name, e))),
                    }
                    // The chunk is answered before a read that could wait.
                    if chunk.len() == self.most
                        || !records.ready() && records.get_ref().buffer().is_empty()
                    {
                        break;
                    }
                }
            }
        }
        (chunk, None)
    }
}

impl Iterator for Incoming {
    type Item = anyhow::Result<sudoku::Record>;

    fn next(&mut self) -> Option<Self::Item> {
        let record = match &mut self.source {
            Source::Ahead(records) => records.recv().ok()?,
            Source::Here(records) => records.next()?,
        };
        Some(record.map_err(|e| Incoming::failed(&self.name, e)))
    }
}

/// The most threads `exactly sudoku` runs: more are clamped to it (and a
/// batch runs no more threads than it has puzzles).
pub const MAX_THREADS: usize = 256;

/// The memory the solvers of all threads may take together: past it,
/// fewer threads run ([`sudoku::memory_per_solver`]).
pub const MEMORY_BUDGET: usize = 1 << 30;

/// The rules for a puzzle: `rules`, with the puzzle's own regions when it
/// has them (`--jigsaw`).
pub(crate) fn rules_of<'r>(puzzle: &Puzzle, rules: &'r Rules) -> Cow<'r, Rules> {
    match &puzzle.regions {
        Some(regions) => Cow::Owned(rules.clone().regions(Some(regions.clone()))),
        None => Cow::Borrowed(rules),
    }
}

/// A count of the puzzles of a batch solved so far: drawn on standard error when
/// it is a terminal, once solving has lasted a second.
struct Progress {
    /// The bar, made only where it may be drawn.
    bar: Option<ProgressBar>,
    start: Instant,
}

impl Progress {
    fn new() -> Progress {
        let terminal = !report::quiet() && io::stderr().is_terminal();
        let bar = terminal.then(|| {
            let bar = ProgressBar::hidden();
            if let Ok(style) =
                ProgressStyle::with_template("{elapsed_precise} {pos} puzzles, {per_sec}")
            {
                bar.set_style(style);
            }
            bar
        });
        Progress {
            bar,
            start: Instant::now(),
        }
    }

    /// Counts `done` more puzzles solved: only where the bar may be drawn.
    /// PERF: the bar's count reads the clock; a batch of easy puzzles
    /// written to a file or a pipe spent 0.8% of its instructions there.
    fn advance(&self, done: usize) {
        let Some(bar) = &self.bar else {
            return;
        };
        bar.inc(done as u64);
        if bar.is_hidden() && self.start.elapsed() >= search::BAR_DELAY {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The error of an invalid record, with its line when the error has none.
pub(crate) fn error_text(line: usize, error: &SudokuError) -> String {
    match error {
        SudokuError::Parse(_) => error.to_string(),
        _ => format!("line {line}: {error}"),
    }
}

/// `style` with its layout a line.
fn on_a_line(style: Style) -> Style {
    Style {
        layout: Layout::Line,
        ..style
    }
}

/// A solution on one line, in the record's symbols.
fn one_line(style: Style, grid: &sudoku::Grid) -> String {
    let mut line = on_a_line(style).format(grid);
    line.truncate(line.trim_end().len());
    line
}

/// A solution as a grid of lines, in the record's symbols.
fn as_grid(style: Style, grid: &sudoku::Grid) -> String {
    let layout = match style.layout {
        Layout::Line => Layout::Grid,
        other => other,
    };
    Style { layout, ..style }.format(grid)
}

/// Draws a solution as a grid of lines (or another drawing).
type Draw = fn(Style, &sudoku::Grid) -> String;

/// A record's outcome as the writers see it.
struct Answered<'a> {
    line: usize,
    outcome: &'a Outcome,
    /// Why the solution the input gave differs from the solver's.
    mismatch: Option<&'a str>,
}

/// Why a solution given with a puzzle (a CSV `solutions` column) is
/// wrong, or `None` when it solves the puzzle (for a unique puzzle, it is
/// then the solver's solution).
fn mismatch(
    line: usize,
    given: &sudoku::Grid,
    puzzle: &Puzzle,
    answer: &Answer,
    rules: &Rules,
) -> Option<String> {
    let rules = rules_of(puzzle, rules);
    if given.solves_with(&puzzle.grid, &rules) {
        return None;
    }
    let n = puzzle.grid.size();
    let symbol = |v: u8| match v {
        0 => ".".to_string(),
        v => puzzle.style.symbol(v, n),
    };
    let Some(found) = &answer.solution else {
        return Some(format!(
            "line {line}: a solution is given, but the puzzle has none"
        ));
    };
    let cell = (0..n * n).find(|&k| given.cells()[k] != found.cells()[k])?;
    let (r, c) = (cell / n, cell % n);
    Some(format!(
        "line {line}: the given solution has {} at r{}c{}, the solution {}",
        symbol(given.get(r, c)),
        r + 1,
        c + 1,
        symbol(found.get(r, c))
    ))
}

/// The verdict word and solution count of an outcome.
fn verdict(outcome: &Outcome) -> (&'static str, u64) {
    match outcome {
        Ok((_, a)) => (a.verdict.word(), a.count),
        Err(_) => ("invalid", 0),
    }
}

/// Writes `WORD COUNT ` (a verdict and its count of solutions, then a
/// space), with no formatting machinery. PERF: `write!` took some 440
/// instructions a record of serg_benchmark, whose every puzzle has several
/// solutions (DESIGN.md, "Measurements", code-level choices).
fn write_verdict(out: &mut impl Write, word: &str, count: u64) -> io::Result<()> {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut left = count;
    loop {
        at -= 1;
        digits[at] = b'0' + (left % 10) as u8;
        left /= 10;
        if left == 0 {
            break;
        }
    }
    out.write_all(word.as_bytes())?;
    out.write_all(b" ")?;
    out.write_all(&digits[at..])?;
    out.write_all(b" ")
}

/// Writes one record as a line: the solution, or the verdict first; a
/// wrong given solution makes the line `mismatch: WHY`.
fn write_line(out: &mut impl Write, record: &Answered<'_>, second: bool) -> io::Result<()> {
    if let Some(why) = record.mismatch {
        return writeln!(out, "mismatch: {why}");
    }
    match record.outcome {
        Ok((p, a)) => match (&a.solution, a.verdict) {
            (Some(g), v @ (Verdict::Multiple | Verdict::Unknown)) => {
                write_verdict(out, v.word(), a.count)?;
                match a.second.as_ref().filter(|_| second) {
                    Some(h) => {
                        writeln!(out, "{} {}", one_line(p.style, g), one_line(p.style, h))
                    }
                    // PERF: as below, the line written straight to `out`:
                    // every answer of a file of puzzles with several
                    // solutions checked for uniqueness.
                    None => on_a_line(p.style).write(g, out),
                }
            }
            (Some(g), _) => {
                // PERF: written straight to `out`, with no string made for
                // it and not through `writeln!`'s formatting: the most
                // common answer by far. A line's style writes no space at
                // its end, so this is `one_line` and a newline.
                on_a_line(p.style).write(g, out)
            }
            (None, v) => writeln!(out, "{}", v.word()),
        },
        Err(e) => writeln!(out, "invalid: {}", error_text(record.line, e)),
    }
}

/// Writes one record as a grid: the solution, after a verdict line unless
/// it is the only one (a `mismatch: WHY` line when the given solution is
/// wrong).
fn write_grid(
    out: &mut impl Write,
    record: &Answered<'_>,
    second: bool,
    draw: Draw,
) -> io::Result<()> {
    match record.outcome {
        Ok((p, a)) => {
            if let Some(why) = record.mismatch {
                writeln!(out, "mismatch: {why}")?;
            } else if matches!(a.verdict, Verdict::Multiple | Verdict::Unknown)
                && a.solution.is_some()
            {
                writeln!(out, "{} {}", a.verdict.word(), a.count)?;
            } else if a.solution.is_none() {
                writeln!(out, "{}", a.verdict.word())?;
            }
            if let Some(g) = &a.solution {
                write!(out, "{}", draw(p.style, g))?;
            }
            match a.second.as_ref().filter(|_| second) {
                Some(h) => write!(out, "\n{}", draw(p.style, h)),
                None => Ok(()),
            }
        }
        Err(e) => writeln!(out, "invalid: {}", error_text(record.line, e)),
    }
}

/// Every solution of a record's puzzle, up to `max`, each checked against
/// the puzzle and its rules; with `every` M > 1, only the M-th, 2M-th, ...
/// of them (`--every`, as `solve` picks them).
fn every_solution<'p>(
    puzzle: &'p Puzzle,
    problem: &'p exactly::Problem<sudoku::Placement>,
    rules: &'p Rules,
    max: u64,
    every: u64,
) -> impl Iterator<Item = io::Result<sudoku::Grid>> + 'p {
    let mut every = Every::new(every);
    sudoku::solutions(&puzzle.grid, problem)
        .take(usize::try_from(max).unwrap_or(usize::MAX))
        .filter(move |_| every.next().is_some())
        .map(move |g| match g.solves_with(&puzzle.grid, rules) {
            true => Ok(g),
            false => Err(io::Error::other(
                "a solution found does not solve its puzzle",
            )),
        })
}

/// Writes one record with `--all`: a line `VERDICT COUNT` (or
/// `invalid: …`, `mismatch: …` before it), then every solution, one a line
/// or as grids separated by blank lines.
fn write_all(
    out: &mut impl Write,
    record: &Answered<'_>,
    draw: Option<Draw>,
    (max, every): (u64, u64),
    rules: &Rules,
) -> io::Result<()> {
    let (p, a) = match record.outcome {
        Ok(pa) => pa,
        Err(e) => return writeln!(out, "invalid: {}", error_text(record.line, e)),
    };
    if let Some(why) = record.mismatch {
        writeln!(out, "mismatch: {why}")?;
    }
    writeln!(out, "{} {}", a.verdict.word(), a.count)?;
    let rules = rules_of(p, rules);
    let problem = sudoku::encode_with(&p.grid, &rules).map_err(io::Error::other)?;
    for (k, g) in every_solution(p, &problem, &rules, max, every).enumerate() {
        let g = g?;
        match draw {
            Some(draw) => {
                if k > 0 {
                    writeln!(out)?;
                }
                write!(out, "{}", draw(p.style, &g))?;
            }
            None => writeln!(out, "{}", one_line(p.style, &g))?,
        }
    }
    Ok(())
}

/// The JSON object of one record, fields in this order.
#[derive(serde::Serialize)]
struct JsonRecord<'a> {
    line: usize,
    verdict: &'static str,
    solution: Option<String>,
    count: u64,
    error: Option<String>,
    /// With `--second`, a second solution when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    second: Option<String>,
    /// Why a given solution (a CSV column) is wrong.
    #[serde(skip_serializing_if = "Option::is_none")]
    mismatch: Option<&'a str>,
    /// With `--all`, every solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions: Option<Vec<String>>,
}

impl<'a> JsonRecord<'a> {
    fn new(record: &Answered<'a>, second: bool) -> JsonRecord<'a> {
        let (word, count) = verdict(record.outcome);
        let (solution, second) = match record.outcome {
            Ok((p, a)) => (
                a.solution.as_ref().map(|g| one_line(p.style, g)),
                a.second
                    .as_ref()
                    .filter(|_| second)
                    .map(|g| one_line(p.style, g)),
            ),
            Err(_) => (None, None),
        };
        JsonRecord {
            line: record.line,
            verdict: word,
            solution,
            count,
            error: record
                .outcome
                .as_ref()
                .err()
                .map(|e| error_text(record.line, e)),
            second,
            mismatch: record.mismatch,
            solutions: None,
        }
    }
}

/// Writes one JSON object on a line.
fn write_object(out: &mut impl Write, object: &JsonRecord<'_>) -> io::Result<()> {
    let text = serde_json::to_string(object).map_err(io::Error::other)?;
    writeln!(out, "{text}")
}

/// Writes one record as a JSON object on one line.
fn write_json(out: &mut impl Write, record: &Answered<'_>, second: bool) -> io::Result<()> {
    write_object(out, &JsonRecord::new(record, second))
}

/// Writes one record as a JSON object with `solutions`, every solution
/// up to `max`, every `every`-th of them (`--all`; none for an invalid
/// record).
fn write_json_all(
    out: &mut impl Write,
    record: &Answered<'_>,
    (max, every): (u64, u64),
    rules: &Rules,
) -> io::Result<()> {
    let mut object = JsonRecord::new(record, false);
    if let Ok((p, _)) = record.outcome {
        let rules = rules_of(p, rules);
        let problem = sudoku::encode_with(&p.grid, &rules).map_err(io::Error::other)?;
        let all = every_solution(p, &problem, &rules, max, every)
            .map(|g| g.map(|g| one_line(p.style, &g)))
            .collect::<io::Result<Vec<String>>>()?;
        object.solutions = Some(all);
    }
    write_object(out, &object)
}

/// A CSV field: quoted, quotes doubled, when it holds a comma, a quote or
/// a line end.
fn csv_field(text: &str) -> Cow<'_, str> {
    if text.contains([',', '"', '\n', '\r']) {
        Cow::Owned(format!("\"{}\"", text.replace('"', "\"\"")))
    } else {
        Cow::Borrowed(text)
    }
}

/// Writes one record as CSV rows `quizzes,solutions,verdict,count,error`:
/// one row, or with `--all` (`all`: the most solutions and the M of
/// `--every`) one per solution.
/// The puzzle and solutions are on one line each, `.` empty; the error
/// column holds why the record is invalid or its given solution wrong.
fn write_csv(
    out: &mut impl Write,
    record: &Answered<'_>,
    all: Option<(u64, u64)>,
    rules: &Rules,
) -> io::Result<()> {
    let (word, count) = verdict(record.outcome);
    let error = match record.outcome {
        Err(e) => Some(error_text(record.line, e)),
        Ok(_) => record.mismatch.map(str::to_string),
    };
    let error = error.as_deref().map(csv_field).unwrap_or_default();
    let (p, a) = match record.outcome {
        Ok(pa) => pa,
        Err(_) => return writeln!(out, ",,{word},{count},{error}"),
    };
    let quiz = csv_field(&one_line(p.style, &p.grid)).into_owned();
    let mut row = |g: Option<&sudoku::Grid>| {
        let solution = g.map(|g| one_line(p.style, g)).unwrap_or_default();
        writeln!(
            out,
            "{quiz},{},{word},{count},{error}",
            csv_field(&solution)
        )
    };
    match all {
        None => row(a.solution.as_ref()),
        Some((max, every)) => {
            let rules = rules_of(p, rules);
            let problem = sudoku::encode_with(&p.grid, &rules).map_err(io::Error::other)?;
            let mut any = false;
            for g in every_solution(p, &problem, &rules, max, every) {
                row(Some(&g?))?;
                any = true;
            }
            match any {
                true => Ok(()),
                false => row(None),
            }
        }
    }
}

/// Writes one record's answer as `--format` asks (`previous_grid`: whether
/// the record before was drawn as a grid; `None` before the first).
fn write_record(
    out: &mut impl Write,
    args: &SudokuArgs,
    record: &Answered<'_>,
    previous_grid: &mut Option<bool>,
    max: u64,
    rules: &Rules,
) -> io::Result<()> {
    let listing = (max, args.every.every);
    // How a grid is drawn; `None` for one line.
    let draw: Option<Draw> = match args.format {
        Some(SudokuFormat::Json) => {
            return match args.all {
                true => write_json_all(out, record, listing, rules),
                false => write_json(out, record, args.second),
            };
        }
        Some(SudokuFormat::Csv) => {
            return write_csv(out, record, args.all.then_some(listing), rules);
        }
        Some(SudokuFormat::Line) => None,
        Some(SudokuFormat::Grid) => Some(as_grid),
        Some(SudokuFormat::Ss) => Some(|s: Style, g: &sudoku::Grid| s.format_ss(g)),
        Some(SudokuFormat::Sdk) => Some(|s: Style, g: &sudoku::Grid| s.format_sdk(g)),
        Some(SudokuFormat::Bordered) => Some(|s: Style, g: &sudoku::Grid| s.format_bordered(g)),
        // An invalid record answers in the layout of the record before.
        None => match record.outcome {
            Ok((p, _)) => (p.style.layout != Layout::Line).then_some(as_grid as Draw),
            Err(_) => previous_grid.unwrap_or(false).then_some(as_grid as Draw),
        },
    };
    let grid = draw.is_some();
    // A blank line between records when either is a grid.
    if previous_grid.is_some_and(|p| p || grid) {
        writeln!(out)?;
    }
    *previous_grid = Some(grid);
    match (args.all, draw) {
        (true, _) => write_all(out, record, draw, listing, rules),
        (false, Some(draw)) => write_grid(out, record, args.second, draw),
        (false, None) => write_line(out, record, args.second),
    }
}

/// Runs `exactly sudoku`: records are read, solved and answered a chunk at
/// a time, in order, as the input comes.
pub fn run(args: &SudokuArgs) -> anyhow::Result<Status> {
    let (shape, regions) = shape_and_regions(args.box_shape.as_deref(), args.regions.as_deref())?;
    let start = Instant::now();
    let rules = Rules::default().diagonals(args.diagonals).regions(regions);
    if args.jigsaw
        && !matches!(
            args.input_format,
            InputFormat::Auto | InputFormat::Line | InputFormat::Sdm
        )
    {
        anyhow::bail!(
            "--jigsaw reads one puzzle a line with its region map: --input-format {} does \
             not apply (use auto, line or sdm)",
            args.input_format.name()
        );
    }
    let reader = sudoku::Reader::new()
        .shape(shape)
        .rules(rules.clone())
        .small(args.small)
        .jigsaw(args.jigsaw)
        .format(args.input_format);
    let (name, input) = open_batch(&args.file)?;
    let threads = super::scale::threads_at_most(args.threads, MAX_THREADS);
    let mut incoming = Incoming::start(reader, input, name.clone(), threads);
    let max = if args.first { 1 } else { args.max_solutions };
    let limits = args.budget.limits();
    if args.target {
        return target(args, incoming, &rules, &limits, &name);
    }

    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut previous_grid: Option<bool> = None;
    const WORDS: [&str; 6] = ["unique", "multiple", "solved", "none", "invalid", "unknown"];
    let mut tally = [0usize; WORDS.len()];
    let mut mismatched = 0usize;
    let mut total = 0usize;
    // The threads run: fewer for large grids, whose solvers must fit in
    // the memory budget together; the largest side told about so far.
    let mut ran = threads;
    let mut told = 0;
    let progress = Progress::new();
    // One batch for every chunk, so that its workers' leanings carry over.
    let mut batch = Batch::new(max, rules.clone(), limits.clone(), threads);
    loop {
        let (records, failed) = incoming.chunk();
        if records.is_empty() {
            if let Some(e) = failed {
                return Err(e);
            }
            break;
        }
        // Each thread holds solvers as large as the largest grid's: keep
        // them all within the memory budget.
        let side = records
            .iter()
            .filter_map(|r| r.puzzle.as_ref().ok())
            .map(|p| p.grid.size())
            .max()
            .unwrap_or(1);
        let per = sudoku::memory_per_solver(side).max(1);
        let fit = (MEMORY_BUDGET / per).max(1);
        if threads > fit && side > told {
            told = side;
            report::message(&format!(
                "{threads} threads would take more than {} MiB for {side}x{side} grids \
                 (about {} MiB a thread): running {fit}",
                MEMORY_BUDGET >> 20,
                per.div_ceil(1 << 20)
            ));
        }
        ran = ran.min(fit);
        batch.threads = threads.min(fit);
        // Solutions given with the puzzles (CSV), checked against the solver's.
        let givens: Vec<Option<sudoku::Grid>> =
            records.iter().map(|r| r.solution.clone()).collect();
        let outcomes = sudoku::solve_batch(records, &batch, &|k| progress.advance(k));
        if total == 0 && args.format == Some(SudokuFormat::Csv) {
            writeln!(out, "quizzes,solutions,verdict,count,error")?;
        }
        total += outcomes.len();
        for ((line, outcome), given) in outcomes.iter().zip(&givens) {
            let (word, _) = verdict(outcome);
            let slot = WORDS.iter().position(|w| *w == word).unwrap_or(4);
            tally[slot] += 1;
            let wrong = match (given, outcome) {
                (Some(g), Ok((p, a))) => mismatch(*line, g, p, a, &rules),
                _ => None,
            };
            mismatched += usize::from(wrong.is_some());
            let record = Answered {
                line: *line,
                outcome,
                mismatch: wrong.as_deref(),
            };
            write_record(&mut out, args, &record, &mut previous_grid, max, &rules)?;
        }
        out.flush().context("cannot write to standard output")?;
        if let Some(e) = failed {
            return Err(e);
        }
    }
    drop(progress);
    anyhow::ensure!(
        total > 0,
        "{name}: no puzzles: the input is empty or holds only comments and blank lines"
    );
    let elapsed = start.elapsed();
    let threads = ran;
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
    if mismatched > 0 {
        summary.push_str(&format!(
            "; {mismatched} given solution{} wrong",
            plural(mismatched)
        ));
    }
    report::message(&summary);
    anyhow::ensure!(
        tally[4] == 0,
        "{name}: {} of {total} records are invalid",
        tally[4]
    );
    anyhow::ensure!(
        mismatched == 0,
        "{name}: {mismatched} of {total} given solutions do not match the puzzles'"
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
    /// A budget ran out: the best score is not known.
    Unknown,
}

impl std::fmt::Display for TargetScore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TargetScore::Best(score) => write!(f, "{score}"),
            TargetScore::None => write!(f, "-1"),
            TargetScore::Unknown => write!(f, "unknown"),
        }
    }
}

impl serde::Serialize for TargetScore {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            TargetScore::Best(score) => s.serialize_u128(*score),
            TargetScore::None => s.serialize_i8(-1),
            TargetScore::Unknown => s.serialize_str("unknown"),
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
        // An error about a whole line points at its first column.
        SudokuError::Parse(e) => {
            let e = ParseError {
                column: e.column.max(1),
                ..e
            };
            anyhow::anyhow!("{}", e.with_file(file))
        }
        other => anyhow::anyhow!("{file}: {other}"),
    }
}

/// `exactly sudoku --target`: one line per record, the best score (or -1,
/// or `unknown` when the budget ran out), or `invalid: …`; JSON objects
/// with `line`, `score`, `solution`, `error`.
fn target(
    args: &SudokuArgs,
    records: Incoming,
    rules: &Rules,
    limits: &Limits,
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
    let (mut unsolvable, mut invalid, mut stopped) = (0usize, 0usize, 0usize);
    let mut total = 0usize;
    for record in records {
        let record = record?;
        total += 1;
        let line = record.line;
        let result = record.puzzle.and_then(|p| {
            let weights = given
                .clone()
                .unwrap_or_else(|| sudoku::Weights::rings(p.grid.size()));
            let rules = rules_of(&p, rules);
            sudoku::best_score_within(&p.grid, &rules, &weights, method, limits)
                .map(|best| (p, best))
        });
        let (score, solution, error) = match &result {
            Ok((p, sudoku::Target::Best(score, grid))) => (
                TargetScore::Best(*score),
                Some(one_line(p.style, grid)),
                None,
            ),
            Ok((_, sudoku::Target::Stopped(_))) => {
                stopped += 1;
                (TargetScore::Unknown, None, None)
            }
            Ok((_, _)) => {
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
        out.flush().context("cannot write to standard output")?;
    }
    anyhow::ensure!(
        total > 0,
        "{name}: no puzzles: the input is empty or holds only comments and blank lines"
    );
    anyhow::ensure!(invalid == 0, "{name}: {invalid} records are invalid");
    Ok(if stopped > 0 {
        Status::Stopped
    } else if unsolvable > 0 {
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
    fn a_verdict_is_written_as_format_writes_it() {
        for count in [0, 1, 9, 10, 99, 100, 12_345, u64::MAX / 7, u64::MAX] {
            let mut out = Vec::new();
            write_verdict(&mut out, "multiple", count).unwrap();
            assert_eq!(
                String::from_utf8(out).unwrap(),
                format!("multiple {count} ")
            );
        }
    }
}
