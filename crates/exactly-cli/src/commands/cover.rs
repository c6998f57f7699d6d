//! Searches beyond exact cover: `solve --min-cost` and `--best K`, and
//! `exactly cover --min`. (`solve` and `count` on problems with
//! multiplicities go through `Solver`, which routes them to Algorithm M.)

use std::io::{self, BufWriter, Write};
use std::sync::{Arc, Mutex};

use anyhow::Context;
use exactly::mincover::MinCover;
use exactly::multi::{CostSolver, CostedSolution};
use serde::Serialize;

use crate::cli::{CoverArgs, SolveArgs};
use crate::input::Input;
use crate::output::OutputFormat;
use crate::report::Status;
use crate::search;

#[derive(Serialize)]
struct JsonCosted<'a> {
    cost: u128,
    options: Vec<&'a str>,
    indices: Vec<usize>,
}

/// Writes one costed solution in `format`.
fn write_costed(
    out: &mut impl Write,
    format: OutputFormat,
    input: &Input,
    best: &CostedSolution,
    first: bool,
) -> io::Result<()> {
    let problem = &input.problem;
    let options = best.solution.options();
    let indices = || {
        options
            .iter()
            .map(|&o| input.positions.get(o.index()).copied().unwrap_or(o.index()))
    };
    match format {
        OutputFormat::Knuth => {
            if !first {
                writeln!(out)?;
            }
            writeln!(out, "| cost {}", best.cost)?;
            for &o in options {
                writeln!(out, "{}", problem.label(o))?;
            }
            if options.is_empty() {
                writeln!(out, "{}", crate::output::EMPTY_SOLUTION)?;
            }
        }
        OutputFormat::Json => {
            let record = JsonCosted {
                cost: best.cost,
                options: options.iter().map(|&o| problem.label(o).as_str()).collect(),
                indices: indices().collect(),
            };
            let json = serde_json::to_string(&record).map_err(io::Error::other)?;
            writeln!(out, "{json}")?;
        }
        OutputFormat::Indices => {
            let list: Vec<String> = indices().map(|i| i.to_string()).collect();
            writeln!(out, "{}: {}", best.cost, list.join(" "))?;
        }
    }
    Ok(())
}

/// `solve --min-cost` and `solve --best K`: the cheapest solutions by
/// branch-and-bound, each printed with its cost.
pub fn solve_costs(args: &SolveArgs, input: &Input) -> anyhow::Result<Status> {
    search::check_cost_args(&args.search)?;
    if args.mpi {
        anyhow::bail!(
            "--mpi applies to exact covers only, not to --min-cost, --best or multiplicities"
        );
    }
    let k = args
        .best
        .map_or(1, |k| usize::try_from(k).unwrap_or(usize::MAX));
    let bar = search::progress_bar();
    let mut solver = CostSolver::new(&input.problem).limits(search::limits(&args.search));
    // Progress names the best cost found so far, once there is one.
    let best_so_far: Arc<Mutex<Option<u128>>> = Arc::default();
    let seen = Arc::clone(&best_so_far);
    let note = move || match *seen.lock().unwrap_or_else(|e| e.into_inner()) {
        Some(cost) => format!(", best cost so far {cost}"),
        None => String::new(),
    };
    if let Some((every, report)) = search::progress_reporter(&args.search, &bar, note) {
        solver = solver.on_progress(every, report);
    }
    let (best, outcome) = solver.best_with(k, |list| {
        *best_so_far.lock().unwrap_or_else(|e| e.into_inner()) = list.first().map(|b| b.cost);
    });
    let stats = *solver.stats();
    let stopped = search::finish_named(&bar, outcome, &stats, &args.search, &[], "costs");
    let mut out = BufWriter::new(io::stdout().lock());
    for (n, b) in best.iter().enumerate() {
        write_costed(&mut out, args.format, input, b, n == 0)
            .context("cannot write to standard output")?;
    }
    out.flush().context("cannot write to standard output")?;
    if stopped && !best.is_empty() {
        crate::report::message("the costs printed are the best found before the search stopped");
    }
    Ok(Status::of_search(stopped, best.len() as u128))
}

/// The name of a problem file in messages (`<stdin>` for `-`).
fn source_name(path: &std::path::Path) -> String {
    if path == std::path::Path::new("-") {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// `exactly cover --min`: a minimum cover by IDA*. The first line of output
/// is the minimum (number of options, or their total cost with
/// `--weighted`), then the chosen options.
///
/// What the search would ignore is refused: `--limit` (one cover is
/// printed), and problems with secondary items, colors or multiplicities
/// (each primary item is covered at least once, nothing else is counted).
pub fn min_cover(args: &CoverArgs) -> anyhow::Result<Status> {
    search::check_multi_args(&args.search)?;
    if args.search.limit.is_some() {
        anyhow::bail!("--limit does not apply to cover --min, which prints one minimum cover");
    }
    let input = crate::input::load(&args.problem.file, args.problem.input)?;
    let problem = &input.problem;
    let ignored = [
        (problem.has_multiplicities(), "multiplicities"),
        (problem.has_colors(), "colors"),
        (
            problem.num_primary() < problem.num_items(),
            "secondary items",
        ),
    ];
    if let Some((_, what)) = ignored.iter().find(|(has, _)| *has) {
        anyhow::bail!(
            "{}: cover --min covers each primary item at least once and takes no {what}; remove them, or use solve or count",
            source_name(&args.problem.file)
        );
    }
    super::print_warnings(&input);
    let bar = search::progress_bar();
    let mut limits = search::limits(&args.search);
    limits.solutions = None;
    let mut solver = MinCover::new(&input.problem)
        .weighted(args.weighted)
        .limits(limits);
    let (cover, outcome) = solver.solve();
    let stats = *solver.stats();
    let stopped = search::finish_named(&bar, outcome, &stats, &args.search, &[], "min-cover");
    if args.search.stats || args.search.stats_format == crate::cli::StatsFormat::Json {
        search::print_iterations(solver.iterations(), args.search.stats_format);
    }
    let Some(cover) = cover else {
        if !stopped {
            crate::report::message("no cover: some primary item is in no option");
        }
        return Ok(Status::of_search(stopped, 0));
    };
    let costed = CostedSolution {
        cost: cover.cost,
        solution: exactly::Solution::new(cover.options),
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let problem = &input.problem;
    let written = match args.format {
        OutputFormat::Json => write_costed(&mut out, args.format, &input, &costed, true),
        OutputFormat::Knuth => writeln!(out, "{}", costed.cost).and_then(|()| {
            costed
                .solution
                .options()
                .iter()
                .try_for_each(|&o| writeln!(out, "{}", problem.label(o)))
        }),
        OutputFormat::Indices => {
            let list: Vec<String> = costed
                .solution
                .options()
                .iter()
                .map(|&o| {
                    let i = input.positions.get(o.index()).copied().unwrap_or(o.index());
                    i.to_string()
                })
                .collect();
            writeln!(out, "{}\n{}", costed.cost, list.join(" "))
        }
    };
    written
        .and_then(|()| out.flush())
        .context("cannot write to standard output")?;
    Ok(Status::of_search(stopped, 1))
}
