//! Whole processes, one thread each: `exactly sudoku --threads 1 [--first]
//! FILE` against a small program that runs the `sudoku` crate (JCZSolve)
//! over the same file (this binary itself, run as `sudoku_process --crate
//! [--first] FILE`). Both read the file, solve every puzzle and print the
//! answers in the same words (the solution on a line; `multiple 2 …` or
//! `none`), which are checked against each other. Times are the children's
//! CPU times (`getrusage(RUSAGE_CHILDREN)`, user plus system), the median
//! of the runs, which take turns. The in-process rate of `exactly`'s
//! template solver on the same puzzles (CPU time of this process, parsing
//! excluded, the template built inside the timing) is the reference for the
//! CLI's overhead.
//!
//! ```text
//! cargo build --release -p exactly-cli            # in the repository
//! cargo run --release --bin sudoku_process -- [--runs N] [--exactly PATH] [FILE...]
//! ```
//!
//! The `exactly` binary is `--exactly PATH`, else `$EXACTLY`, else
//! `../target/release/exactly`. FILE defaults to every `*.txt` in
//! `../shared/data/sudoku9` beside the repository. With `TDOKU` set to the
//! path of tdoku's `run_benchmark`, it runs too (`-c1 -t2 -w1 -r0 -n N
//! -s tdoku [-f] FILE`, its own timing) and its rate is printed beside.
//!
//! To compare static binaries (README, "Install"), link both the same
//! way: build `exactly` and this bench with `--target
//! x86_64-unknown-linux-gnu --config 'target.x86_64-unknown-linux-gnu.rustflags
//! = ["-C", "target-feature=+crt-static"]'`, then run the bench's static
//! binary with `--exactly ../target/x86_64-unknown-linux-gnu/release/exactly`.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Duration;

use exactly_puzzles::sudoku::{self, Grid, Rules, Shape};

const USAGE: &str = "usage: sudoku_process [--runs N] [--exactly PATH] [FILE...]\n       \
                     sudoku_process --crate [--first] FILE";

/// User plus system time of a `getrusage` target.
fn cpu(who: libc::c_int) -> Duration {
    // SAFETY: `getrusage` fills the zeroed struct it is given.
    #[allow(unsafe_code)]
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(who, &mut usage);
        usage
    };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// The `--crate` program: every puzzle of FILE (lines of 81 cells; `#`
/// lines and blank lines skipped) solved with the `sudoku` crate, answered
/// as `exactly sudoku` answers it.
fn crate_main(first: bool, file: &Path) -> ExitCode {
    let input = match std::fs::File::open(file) {
        Ok(f) => std::io::BufReader::with_capacity(1 << 16, f),
        Err(e) => {
            eprintln!("sudoku_process: cannot read {}: {e}", file.display());
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut buffer = [[0u8; 81]; 2];
    for line in input.lines() {
        let Ok(line) = line else {
            return ExitCode::from(2);
        };
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Ok(s) = ::sudoku::Sudoku::from_str_line(line) else {
            let _ = writeln!(out, "invalid");
            continue;
        };
        let written = if first {
            match s.some_solution() {
                Some(g) => writeln!(out, "{}", g.to_str_line()),
                None => writeln!(out, "none"),
            }
        } else {
            match s.solutions_up_to_buffer(&mut buffer, 2) {
                0 => writeln!(out, "none"),
                1 => writeln!(out, "{}", line_of(&buffer[0])),
                _ => writeln!(out, "multiple 2 {}", line_of(&buffer[0])),
            }
        };
        if written.is_err() {
            return ExitCode::from(2);
        }
    }
    match out.flush() {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(2),
    }
}

/// A solved grid's 81 digits.
fn line_of(cells: &[u8; 81]) -> String {
    cells.iter().map(|&v| char::from(b'0' + v)).collect()
}

/// Runs `command` with stdout captured; its CPU time and output.
fn run_child(mut command: Command) -> Result<(Duration, Vec<u8>), String> {
    let before = cpu(libc::RUSAGE_CHILDREN);
    let output = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("cannot run {command:?}: {e}"))?;
    let spent = cpu(libc::RUSAGE_CHILDREN).saturating_sub(before);
    // Exit status 3: some puzzle has no solution, still an answer.
    if !output.status.success() && output.status.code() != Some(3) {
        return Err(format!(
            "{command:?} failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim_end()
        ));
    }
    Ok((spent, output.stdout))
}

/// The in-process time of `exactly`'s template solver on `grids`.
fn in_process(grids: &[Grid], max: u64) -> Duration {
    let before = cpu(libc::RUSAGE_SELF);
    let template = sudoku::Template::new(Shape::new(3, 3).expect("3x3 boxes"), &Rules::default())
        .expect("the empty grid encodes");
    let mut solver = template.solver();
    let mut solved = 0u64;
    for grid in grids {
        if let Ok(answer) = solver.solve(grid, max) {
            solved += answer.count;
        }
    }
    std::hint::black_box(solved);
    cpu(libc::RUSAGE_SELF).saturating_sub(before)
}

/// The puzzles/s that tdoku's own benchmark reports (CSV, one solver), or
/// why none.
fn tdoku(path: &Path, file: &Path, first: bool, puzzles: usize) -> Result<f64, String> {
    let mut command = Command::new(path);
    command.args(["-c1", "-t2", "-w1", "-r0", "-s", "tdoku"]);
    command.arg("-n").arg(puzzles.to_string());
    if first {
        command.arg("-f");
    }
    command.arg(file);
    let (_, out) = run_child(command)?;
    let text = String::from_utf8_lossy(&out);
    let row = text
        .lines()
        .rev()
        .find(|l| l.matches(',').count() >= 8)
        .ok_or_else(|| format!("no CSV row from tdoku: {}", text.trim_end()))?;
    // The last four fields: puzzles/s, µs/puzzle, % no guess, guesses.
    let fields: Vec<&str> = row.split(',').collect();
    fields[fields.len() - 4]
        .trim()
        .parse()
        .map_err(|_| format!("no rate in tdoku's row '{row}'"))
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// The puzzles of a file, as `exactly` reads them.
fn load(file: &Path) -> Result<Vec<Grid>, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let mut grids = Vec::new();
    for record in sudoku::parse(&text, None) {
        match record.puzzle {
            Ok(p) if p.grid.size() == 9 => grids.push(p.grid),
            Ok(_) => return Err(format!("{}: not a 9x9 grid", record.line)),
            Err(e) => return Err(format!("{}: {e}", record.line)),
        }
    }
    Ok(grids)
}

/// How many answers of two outputs differ: the same line, or both
/// `multiple` (which solutions come first is each solver's own), or with
/// `first` both a solution (several solutions: either may come first).
fn differences(a: &[u8], b: &[u8], first: bool) -> usize {
    let lines =
        |x: &[u8]| -> Vec<Vec<u8>> { x.split(|&c| c == b'\n').map(<[u8]>::to_vec).collect() };
    let (a, b) = (lines(a), lines(b));
    let same = |x: &[u8], y: &[u8]| {
        x == y
            || (x.starts_with(b"multiple") && y.starts_with(b"multiple"))
            || (first && x.len() == 81 && y.len() == 81)
    };
    a.iter().zip(&b).filter(|(x, y)| !same(x, y)).count() + a.len().abs_diff(b.len())
}

fn main() -> ExitCode {
    let mut runs = 5;
    let mut exactly = std::env::var_os("EXACTLY")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/release/exactly")
        });
    let mut files = Vec::new();
    let mut child = false;
    let mut first = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => match exactly_bench::runs_arg(&mut args, USAGE) {
                Ok(n) => runs = n,
                Err(code) => return code,
            },
            "--exactly" => match args.next() {
                Some(path) => exactly = PathBuf::from(path),
                None => {
                    eprintln!("--exactly needs a path\n{USAGE}");
                    return ExitCode::from(2);
                }
            },
            "--crate" => child = true,
            "--first" => first = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ => files.push(PathBuf::from(arg)),
        }
    }
    if child {
        return match files.as_slice() {
            [file] => crate_main(first, file),
            _ => {
                eprintln!("{USAGE}");
                ExitCode::from(2)
            }
        };
    }
    if files.is_empty() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/sudoku9");
        match std::fs::read_dir(&dir) {
            Ok(entries) => {
                files = entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "txt"))
                    .collect();
                files.sort();
            }
            Err(e) => {
                eprintln!("sudoku_process: cannot list {}: {e}", dir.display());
                return ExitCode::from(2);
            }
        }
    }
    let me = match std::env::current_exe() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("sudoku_process: cannot find this program: {e}");
            return ExitCode::from(2);
        }
    };
    let tdoku_path = std::env::var_os("TDOKU").map(PathBuf::from);
    println!(
        "{} (median CPU time of {runs} runs, one thread; puzzles/s)",
        exactly.display()
    );
    println!(
        "{:<36} {:<6} {:>10} {:>10} {:>10} {:>8} {:>8}{}",
        "file",
        "mode",
        "exactly",
        "sudoku",
        "in-proc",
        "x/crate",
        "cli/in",
        if tdoku_path.is_some() {
            "      tdoku"
        } else {
            ""
        }
    );
    let mut ok = true;
    for file in &files {
        let grids = match load(file) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("sudoku_process: {}: {e}", file.display());
                ok = false;
                continue;
            }
        };
        let name = file.file_name().map_or_else(
            || file.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        for first in [true, false] {
            let (mut t_x, mut t_s, mut t_i) = (Vec::new(), Vec::new(), Vec::new());
            for run in 0..runs {
                let mut x = Command::new(&exactly);
                x.args(["sudoku", "--threads", "1"]);
                if first {
                    x.arg("--first");
                }
                x.arg(file);
                let mut s = Command::new(&me);
                s.arg("--crate");
                if first {
                    s.arg("--first");
                }
                s.arg(file);
                let (rx, rs) = match (run_child(x), run_child(s)) {
                    (Ok(rx), Ok(rs)) => (rx, rs),
                    (Err(e), _) | (_, Err(e)) => {
                        eprintln!("sudoku_process: {e}");
                        return ExitCode::FAILURE;
                    }
                };
                if run == 0 {
                    let d = differences(&rx.1, &rs.1, first);
                    if d > 0 {
                        eprintln!(
                            "{name} {}: {d} answers differ between exactly and the sudoku crate",
                            if first { "first" } else { "unique" }
                        );
                        ok = false;
                    }
                }
                t_x.push(rx.0);
                t_s.push(rs.0);
                t_i.push(in_process(&grids, if first { 1 } else { 2 }));
            }
            let rate = |t: Duration| grids.len() as f64 / t.as_secs_f64().max(1e-9);
            let (r_x, r_s, r_i) = (
                rate(median(&mut t_x)),
                rate(median(&mut t_s)),
                rate(median(&mut t_i)),
            );
            let tdoku = match &tdoku_path {
                Some(path) => match tdoku(path, file, first, grids.len()) {
                    Ok(r) => format!(" {r:>10.0}"),
                    Err(e) => {
                        eprintln!("sudoku_process: tdoku: {e}");
                        format!(" {:>10}", "-")
                    }
                },
                None => String::new(),
            };
            println!(
                "{:<36} {:<6} {:>10.0} {:>10.0} {:>10.0} {:>7.2}x {:>7.2}x{tdoku}",
                name,
                if first { "first" } else { "unique" },
                r_x,
                r_s,
                r_i,
                r_x / r_s,
                r_x / r_i,
            );
            let _ = std::io::stdout().flush();
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
