//! `exactly` against Knuth's own programs, one thread to one thread, whole
//! processes on the same files.
//!
//! ```sh
//! cargo build --release -p exactly-cli          # in the main workspace
//! cd bench && DLX1=... SSXC1=... DLX2=... SSXCC=... DLX3=... DLX5=... \
//!     cargo run --release --bin knuth -- [--runs N] [--only TEXT]
//! ```
//!
//! `--only TEXT` keeps the rows whose instance name contains TEXT
//! (`--only min-cost`: the cost rows).
//!
//! Each Knuth program is found through the environment variable of its name
//! and skipped when it is unset (none is part of this repository; build them
//! from their literate sources with `ctangle` and a C compiler). `exactly` is
//! `../target/release/exactly`, or the path in `EXACTLY`. Instances are the
//! repository's test files, files this program writes (min-cost queens
//! problems, and a 64x64 sudoku counted and solved at least cost), and files
//! made by Knuth's generators, looked up in the folder `KNUTH_INSTANCES` and
//! skipped when absent:
//!
//! - `de-bruijn-2-4-6.dlx`: `de-bruijn-dlx 2 4 6`;
//! - `de-bruijn-3-4-7.dlx`: `de-bruijn-dlx 3 4 7` (large: 4,762 options,
//!   41,280 solutions);
//! - `macmahon-hexagon.dlx`: `macmahon-triangles-dlx` (the hexagon board);
//! - `motley-5x26.dlx`: `motley-dlx 5 26` (MCC, large: 4,731 options; no
//!   motley dissection of a 5x26 rectangle exists, which takes the search
//!   143,253 nodes to show);
//! - `motley-7.dlx`: `motley-dlx 7 7` (MCC: 352,546 motley dissections of
//!   a 7x7 square);
//! - `word-rect-5x5.dlx`: `word-rect-dlx words5-from-sgb:1000
//!   words5-from-sgb:1000` (XCC, large: 10,000 options; the 5x5 arrays
//!   whose rows and columns are all among the 1,000 commonest five-letter
//!   words of the Stanford GraphBase, `words5-from-sgb` in Knuth's
//!   `words.tgz`: 191 of them). The bench also solves it at least cost
//!   ([`costed_words`]: each word costs its rank in the list), a large
//!   instance for DLX5.
//!
//! The large instance, `sudoku-64-count` (a 64x64 sudoku with a third of its
//! cells open: 16,384 items, 8,998 options, 2,211,840 solutions), goes
//! 4,096 levels deep, a level per cell: SSXC1 as published stops at 500
//! (`max_level`, "Too many levels!") and needs a larger `savesize` too;
//! build it with both raised (10,000 and 100,000,000) to run it there.
//! `sudoku-64-min-cost` is the same grid with a cost on each placement
//! ([`costed_sudoku`]): a large instance for DLX5, which spends most of its
//! mems there reading the input (431 million of 624 million).
//!
//! The programs take turns on each instance, run by run (exactly, DLX1,
//! SSXC1, exactly, DLX1, ...), `--runs` times each (3 by default). The table
//! gives each program's median CPU time (user plus system time of the child
//! process, from `getrusage(RUSAGE_CHILDREN)` before and after it), which a
//! loaded machine inflates far less than wall time. Every run's solution
//! count is checked against the others' (Knuth's programs print it on stderr
//! as `Altogether N solutions`), and with costs the least cost (DLX5's `The
//! optimum cost is $N`). The CPU ratio is exactly's median CPU time
//! over that of the fastest Knuth program of the family (by median CPU
//! time), the wall ratio the same with the best wall times: below 1, exactly
//! is faster.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use exactly_puzzles::sudoku::generate::Rng;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    Xc,
    Xcc,
    Mcc,
    Costs,
}

impl Family {
    fn name(self) -> &'static str {
        match self {
            Family::Xc => "XC",
            Family::Xcc => "XCC",
            Family::Mcc => "MCC",
            Family::Costs => "costs",
        }
    }

    /// Knuth's programs for the family, fastest usually last.
    fn programs(self) -> &'static [&'static str] {
        match self {
            Family::Xc => &["DLX1", "SSXC1"],
            Family::Xcc => &["DLX2", "SSXCC"],
            Family::Mcc => &["DLX3"],
            Family::Costs => &["DLX5"],
        }
    }
}

struct Case {
    name: String,
    family: Family,
    file: PathBuf,
    /// exactly's arguments before the file.
    args: Vec<&'static str>,
    /// Arguments for Knuth's program (DLX5 takes a limit on solutions).
    knuth_args: Vec<&'static str>,
}

/// Min-cost n queens: placing a queen on (i, j) costs (37i + 91j + 13ij)
/// mod 100; rows and columns primary, diagonals secondary.
fn costed_queens(n: usize) -> String {
    let mut s = format!("| {n} queens, cost (37i + 91j + 13ij) mod 100\n");
    for i in 0..n {
        write!(s, "r{i} ").unwrap();
    }
    for j in 0..n {
        write!(s, "c{j} ").unwrap();
    }
    s.push('|');
    for d in 0..2 * n - 1 {
        write!(s, " a{d} b{d}").unwrap();
    }
    s.push('\n');
    for i in 0..n {
        for j in 0..n {
            let cost = (37 * i + 91 * j + 13 * i * j) % 100;
            writeln!(s, "r{i} c{j} a{} b{} |{cost}", i + j, i + n - 1 - j).unwrap();
        }
    }
    s
}

/// The board sizes of the min-cost queens instances: every size from the
/// first where DLX5 takes half a second or more (16 queens: 0.1 s).
const QUEENS_MIN_COST: std::ops::RangeInclusive<usize> = 20..=24;

/// Whether a line of a DLX file is blank or a comment.
fn blank_or_comment(line: &str) -> bool {
    let first = line.trim_start();
    first.is_empty() || first.starts_with('|')
}

/// `dlx` with ` |cost` after each option line, the cost given by `cost`
/// (called on the option lines in order); comments, blank lines and the
/// line of item names (the first other line) are copied as they are.
fn with_costs(dlx: &str, mut cost: impl FnMut(&str) -> u64) -> String {
    let mut out = String::with_capacity(dlx.len() + dlx.len() / 4);
    let mut items_seen = false;
    for line in dlx.lines() {
        out.push_str(line);
        if !blank_or_comment(line) && std::mem::replace(&mut items_seen, true) {
            write!(out, " |{}", cost(line)).unwrap();
        }
        out.push('\n');
    }
    out
}

/// A DLX file written by `exactly sudoku encode` with a cost on each
/// option: placing `v` at row `r`, column `c` (options `rRcC rR=V ...`)
/// costs (37r + 91c + 13rcv) mod 100.
fn costed_sudoku(dlx: &str) -> String {
    with_costs(dlx, |line| {
        let mut tokens = line.split_whitespace();
        let cell = tokens.next().and_then(|t| t.strip_prefix('r'));
        let (r, c) = cell
            .and_then(|t| t.split_once('c'))
            .expect("an option starts with its cell, rRcC");
        let v = tokens
            .next()
            .and_then(|t| t.split_once('='))
            .map(|(_, v)| v)
            .expect("an option's second item is rR=V");
        let num = |t: &str| t.parse::<u64>().expect("a number");
        let (r, c, v) = (num(r), num(c), num(v));
        (37 * r + 91 * c + 13 * r * c * v) % 100
    })
}

/// A file written by Knuth's `word-rect-dlx` with a cost on each option:
/// the rank of its word in the word list (0 for the commonest), so that the
/// cheapest solution is the array of the commonest words. Column options
/// (`Cj ...`) come first, a line per column for each word in turn, then row
/// options (`Ri ...`) likewise.
fn costed_words(dlx: &str) -> String {
    // Lines per word of each kind (the rows R0.. for a row word, the
    // columns C0.. for a column word), from the line of item names.
    let items = dlx
        .lines()
        .find(|l| !blank_or_comment(l))
        .unwrap_or_default();
    let primary = items.split('|').next().unwrap_or_default();
    let count = |c| {
        primary
            .split_whitespace()
            .filter(|t| t.starts_with(c))
            .count() as u64
    };
    let (rows, columns) = (count('R'), count('C'));
    assert!(
        rows > 0 && columns > 0,
        "word-rect-dlx names its rows R0.. and its columns C0.."
    );
    let (mut row_options, mut column_options) = (0, 0);
    with_costs(dlx, |line| {
        let (seen, per_word) = if line.starts_with('C') {
            (&mut column_options, columns)
        } else {
            (&mut row_options, rows)
        };
        *seen += 1;
        (*seen - 1) / per_word
    })
}

/// A sudoku of side `b`² with `open` of its cells empty, as rows of numbers
/// (0 for an empty cell): the pattern grid (b·(r mod b) + ⌊r/b⌋ + c) mod
/// b², with its symbols, bands, stacks, and the rows and columns within
/// each shuffled, then random cells emptied. Such a grid has many
/// completions, so counting them is a long search on a large matrix.
fn open_sudoku(b: usize, open: f64, seed: u64) -> String {
    let n = b * b;
    let mut rng = Rng::new(seed);
    let shuffled = |mut v: Vec<usize>, rng: &mut Rng| {
        rng.shuffle(&mut v);
        v
    };
    let symbols = shuffled((1..=n).collect(), &mut rng);
    let lines = |rng: &mut Rng| -> Vec<usize> {
        let blocks = shuffled((0..b).collect(), rng);
        let mut order = Vec::with_capacity(n);
        for block in blocks {
            order.extend(
                shuffled((0..b).collect(), rng)
                    .into_iter()
                    .map(|k| block * b + k),
            );
        }
        order
    };
    let rows = lines(&mut rng);
    let cols = lines(&mut rng);
    let cells = shuffled((0..n * n).collect(), &mut rng);
    let mut empty = vec![false; n * n];
    for &c in &cells[..(open * (n * n) as f64) as usize] {
        empty[c] = true;
    }
    let mut text = String::new();
    for (r, &row) in rows.iter().enumerate() {
        let line: Vec<String> = cols
            .iter()
            .enumerate()
            .map(|(c, &col)| match empty[r * n + c] {
                true => "0".to_string(),
                false => symbols[(b * (row % b) + row / b + col) % n].to_string(),
            })
            .collect();
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    text
}

fn suite(testdata: &Path, scratch: &Path, exactly: &Path) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut add = |name: &str, family, file: PathBuf, args: Vec<&'static str>, knuth_args| {
        cases.push(Case {
            name: name.to_string(),
            family,
            file,
            args,
            knuth_args,
        })
    };
    let count = || vec!["count", "--threads", "1"];
    for name in ["queens-13", "langford-12", "pentomino-6x10"] {
        add(
            name,
            Family::Xc,
            testdata.join(format!("{name}.dlx")),
            count(),
            vec![],
        );
    }
    // A file made by one of Knuth's generators, when `KNUTH_INSTANCES` has it.
    let generated = |name: &str| {
        let dir = std::env::var_os("KNUTH_INSTANCES")?;
        Some(Path::new(&dir).join(format!("{name}.dlx"))).filter(|f| f.exists())
    };
    for name in [
        "de-bruijn-2-4-6",
        "de-bruijn-3-4-7",
        "macmahon-hexagon",
        "word-rect-5x5",
    ] {
        if let Some(file) = generated(name) {
            add(name, Family::Xcc, file, count(), vec![]);
        }
    }
    // Large: a 64x64 sudoku (16,384 items, over 4,096 options), past the
    // bitsets and the item masks, written by `exactly sudoku encode`.
    let sudoku_64 = {
        let grid = scratch.join("sudoku-64.txt");
        std::fs::write(&grid, open_sudoku(8, 0.34, 1)).expect("scratch file");
        let out = Command::new(exactly)
            .args(["sudoku", "encode"])
            .arg(&grid)
            .output()
            .expect("exactly runs");
        assert!(
            out.status.success(),
            "exactly sudoku encode failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("a DLX file is text")
    };
    {
        let file = scratch.join("sudoku-64-count.dlx");
        std::fs::write(&file, &sudoku_64).expect("scratch file");
        add("sudoku-64-count", Family::Xc, file, count(), vec![]);
    }
    add(
        "queens-dominate-8",
        Family::Mcc,
        testdata.join("queens-dominate-8.dlx"),
        count(),
        vec![],
    );
    for name in ["motley-5x26", "motley-7"] {
        if let Some(file) = generated(name) {
            add(name, Family::Mcc, file, count(), vec![]);
        }
    }
    // Each costs row is a file this program writes, solved at least cost.
    let mut min_cost = |name: &str, text: String| {
        let file = scratch.join(format!("{name}.dlx"));
        std::fs::write(&file, text).expect("scratch file");
        add(
            name,
            Family::Costs,
            file,
            vec!["solve", "--min-cost"],
            vec![],
        );
    };
    for n in QUEENS_MIN_COST {
        min_cost(&format!("queens-{n}-min-cost"), costed_queens(n));
    }
    // Large, with costs: the same 64x64 sudoku, each placement costed.
    min_cost("sudoku-64-min-cost", costed_sudoku(&sudoku_64));
    // Large, with costs and colors: the word rectangles, each word costed.
    if let Some(words) = generated("word-rect-5x5") {
        let text = std::fs::read_to_string(words).expect("instance file");
        min_cost("word-rect-5x5-min-cost", costed_words(&text));
    }
    cases
}

/// The file as Knuth's programs read it: colors renamed to single
/// characters (his programs take one character per color) when some color
/// is longer. Returns the path to feed them.
fn knuth_file(file: &Path, scratch: &Path) -> PathBuf {
    let text = std::fs::read_to_string(file).expect("instance file");
    let mut names: Vec<String> = Vec::new();
    let mut long = false;
    let mut out = String::with_capacity(text.len());
    let mut items_seen = false;
    for line in text.lines() {
        let is_comment = blank_or_comment(line);
        let is_item_line = !items_seen && !is_comment;
        items_seen |= is_item_line;
        if is_item_line || is_comment || !line.contains(':') {
            out.push_str(line);
        } else {
            let tokens: Vec<String> = line
                .split_whitespace()
                .map(|t| match t.split_once(':') {
                    Some((item, color)) if !item.is_empty() && !t.starts_with('|') => {
                        long |= color.chars().count() > 1;
                        let k = names.iter().position(|c| c == color).unwrap_or_else(|| {
                            names.push(color.to_string());
                            names.len() - 1
                        });
                        let code =
                            b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                .get(k)
                                .copied()
                                .expect("at most 62 colors");
                        format!("{item}:{}", code as char)
                    }
                    _ => t.to_string(),
                })
                .collect();
            out.push_str(&tokens.join(" "));
        }
        out.push('\n');
    }
    if !long {
        return file.to_path_buf();
    }
    let path = scratch.join(file.file_name().expect("a file name"));
    std::fs::write(&path, out).expect("scratch file");
    path
}

/// User plus system time of the children waited for so far.
fn children_cpu() -> Duration {
    // SAFETY: `getrusage` fills the zeroed struct it is given.
    #[allow(unsafe_code)]
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// One run's times: wall clock, and the child's user plus system time.
#[derive(Clone, Copy, Debug)]
struct Times {
    wall: Duration,
    cpu: Duration,
}

/// Runs `command` once with its output piped; its times, stdout and stderr.
fn run_once(mut command: Command) -> (Times, String, String) {
    let cpu = children_cpu();
    let start = Instant::now();
    let o = command
        .stderr(Stdio::piped())
        .stdout(Stdio::piped())
        .output()
        .expect("the program runs");
    let times = Times {
        wall: start.elapsed(),
        cpu: children_cpu().saturating_sub(cpu),
    };
    (
        times,
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The median of `times` (the lower middle one for an even count).
fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times
        .get((times.len().max(1) - 1) / 2)
        .copied()
        .unwrap_or_default()
}

/// Several runs of one program: median CPU time and best wall time.
#[derive(Default)]
struct Runs {
    times: Vec<Times>,
}

impl Runs {
    fn cpu(&self) -> Duration {
        median(self.times.iter().map(|t| t.cpu).collect())
    }

    fn wall(&self) -> Duration {
        self.times.iter().map(|t| t.wall).min().unwrap_or_default()
    }
}

/// `Altogether N solutions` in a Knuth program's report.
fn knuth_count(stderr: &str) -> Option<u128> {
    let at = stderr.find("Altogether ")?;
    stderr[at + 11..].split_whitespace().next()?.parse().ok()
}

/// `The optimum cost is $N` in DLX5's report.
fn knuth_cost(stderr: &str) -> Option<u128> {
    let at = stderr.find("The optimum cost is $")?;
    let digits: String = stderr[at + 21..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut runs_wanted = 3;
    if let Some(at) = args.iter().position(|a| a == "--runs") {
        runs_wanted = args.get(at + 1).and_then(|r| r.parse().ok()).unwrap_or(3);
        args.drain(at..(at + 2).min(args.len()));
    }
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|at| args.get(at + 1).cloned());
    let bench = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let exactly = std::env::var_os("EXACTLY")
        .map(PathBuf::from)
        .unwrap_or_else(|| bench.join("../target/release/exactly"));
    if !exactly.exists() {
        eprintln!(
            "knuth: {} not found: build it with `cargo build --release -p exactly-cli`, or set EXACTLY",
            exactly.display()
        );
        std::process::exit(2);
    }
    let scratch = std::env::temp_dir().join(format!("exactly-knuth-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch folder");
    let testdata = bench.join("../testdata");
    println!(
        "| family | instance | exactly CPU (s) | Knuth's programs CPU (s) | fastest | CPU ratio | wall ratio |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for case in suite(&testdata, &scratch, &exactly) {
        if only
            .as_ref()
            .is_some_and(|o| !case.name.contains(o.as_str()))
        {
            continue;
        }
        let knuth_input = knuth_file(&case.file, &scratch);
        // exactly first, then each Knuth program that is set; they take
        // turns run by run, so that a change in the machine's load falls on
        // all of them alike.
        let mut programs: Vec<(&str, PathBuf)> = vec![("exactly", exactly.clone())];
        for &program in case.family.programs() {
            if let Some(path) = std::env::var_os(program) {
                programs.push((program, PathBuf::from(path)));
            }
        }
        let command = |at: usize| {
            let (name, path) = &programs[at];
            let mut c = Command::new(path);
            if *name == "exactly" {
                c.args(&case.args).arg(&case.file);
            } else {
                c.args(&case.knuth_args)
                    .stdin(std::fs::File::open(&knuth_input).expect("instance file"));
            }
            c
        };
        let mut runs: Vec<Option<Runs>> = programs.iter().map(|_| Some(Runs::default())).collect();
        let mut our_count: Option<u128> = None;
        for _ in 0..runs_wanted {
            for (at, slot) in runs.iter_mut().enumerate() {
                let Some(r) = slot else { continue };
                let (times, out, err) = run_once(command(at));
                let name = programs[at].0;
                // The number of solutions, or with costs the least cost.
                let count = if at == 0 {
                    let count = if case.family == Family::Costs {
                        out.lines()
                            .rev()
                            .find_map(|l| l.strip_prefix("| cost "))
                            .and_then(|c| c.trim().parse().ok())
                    } else {
                        out.lines().next().and_then(|l| l.trim().parse().ok())
                    };
                    if count.is_none() {
                        eprintln!("knuth: exactly gave no answer on {}: {err}", case.name);
                        *slot = None;
                        break;
                    }
                    count
                } else {
                    let theirs = if case.family == Family::Costs {
                        knuth_cost(&err)
                    } else {
                        knuth_count(&err)
                    };
                    let Some(theirs) = theirs else {
                        eprintln!("knuth: {name} failed on {}: {}", case.name, err.trim());
                        *slot = None;
                        continue;
                    };
                    Some(theirs)
                };
                if at == 0 {
                    our_count = count;
                } else if let (Some(ours), Some(theirs)) = (our_count, count) {
                    assert_eq!(ours, theirs, "{name} answers differently on {}", case.name);
                }
                r.times.push(times);
            }
            if runs[0].is_none() {
                break;
            }
        }
        let Some(ours) = runs[0].take() else {
            continue;
        };
        let knuth: Vec<(&str, Runs)> = programs[1..]
            .iter()
            .zip(runs.drain(1..))
            .filter_map(|((name, _), r)| Some((*name, r?)))
            .collect();
        let listed: Vec<String> = knuth
            .iter()
            .map(|(p, r)| format!("{p} {:.3}", r.cpu().as_secs_f64()))
            .collect();
        let fastest = knuth.iter().min_by_key(|(_, r)| r.cpu());
        let (name, cpu_ratio, wall_ratio) = match fastest {
            Some((p, r)) => (
                p.to_string(),
                format!("{:.2}", ours.cpu().as_secs_f64() / r.cpu().as_secs_f64()),
                format!("{:.2}", ours.wall().as_secs_f64() / r.wall().as_secs_f64()),
            ),
            None => ("–".into(), "–".into(), "–".into()),
        };
        println!(
            "| {} | {} | {:.3} | {} | {name} | {cpu_ratio} | {wall_ratio} |",
            case.family.name(),
            case.name,
            ours.cpu().as_secs_f64(),
            if listed.is_empty() {
                "not set".into()
            } else {
                listed.join(", ")
            },
        );
    }
    let _ = std::fs::remove_dir_all(&scratch);
}
