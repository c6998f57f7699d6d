//! Sudoku: the `Answer` class and `exactly.sudoku.solve` / `solve_many`.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use exactly::{Limits, Outcome};
use exactly_puzzles::sudoku;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::budget::{interruptible, stop_note, stopped, thread_count, Budget};

/// The answer to a sudoku: ``verdict`` is "unique", "multiple", "none",
/// "invalid" (the text is not a valid puzzle; see ``error``) or "unknown"
/// (a budget ran out first). ``solution`` is the first solution found,
/// written as the puzzle was (or None); ``count`` the solutions found (at
/// most 2); ``error`` why the puzzle is invalid or unknown (or None);
/// ``nodes`` the search nodes.
#[pyclass(module = "exactly.sudoku", frozen, get_all)]
#[derive(Clone)]
pub(crate) struct Answer {
    verdict: String,
    solution: Option<String>,
    count: u64,
    error: Option<String>,
    nodes: u64,
}

#[pymethods]
impl Answer {
    fn __repr__(&self) -> String {
        format!(
            "Answer(verdict={:?}, solution={}, count={}, error={})",
            self.verdict,
            self.solution
                .as_ref()
                .map_or("None".to_string(), |s| format!("{s:?}")),
            self.count,
            self.error
                .as_ref()
                .map_or("None".to_string(), |s| format!("{s:?}")),
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.downcast::<Answer>().is_ok_and(|o| {
            let o = o.get();
            (&o.verdict, &o.solution, o.count, &o.error)
                == (&self.verdict, &self.solution, self.count, &self.error)
        })
    }
}

impl Answer {
    fn invalid(error: String) -> Answer {
        Answer {
            verdict: "invalid".into(),
            solution: None,
            count: 0,
            error: Some(error),
            nodes: 0,
        }
    }

    fn of(puzzle: &sudoku::Puzzle, answer: sudoku::Answer, reason: Option<&str>) -> Answer {
        let solution = answer
            .solution
            .as_ref()
            .map(|g| puzzle.style.format(g).trim_end().to_string());
        let verdict = answer.verdict.word().to_string();
        let error = (answer.verdict == sudoku::Verdict::Unknown)
            .then(|| format!("stopped: {}", reason.unwrap_or("budget ran out")));
        Answer {
            verdict,
            solution,
            count: answer.count,
            error,
            nodes: answer.nodes,
        }
    }
}

/// One puzzle's text as a puzzle, or its answer when it is not one.
fn read_puzzle(text: &str) -> Result<sudoku::Puzzle, Answer> {
    let mut records = sudoku::parse(text, None).into_iter();
    match (records.next(), records.next()) {
        (None, _) => Err(Answer::invalid("no puzzle in the text".into())),
        (Some(_), Some(second)) => Err(Answer::invalid(format!(
            "more than one puzzle in the text (another starts on line {}); use solve_many",
            second.line
        ))),
        (Some(record), None) => record.puzzle.map_err(|e| Answer::invalid(e.to_string())),
    }
}

/// Solves puzzles with one template solver per grid shape.
struct Solvers<'t> {
    templates: &'t [(sudoku::Shape, sudoku::Template)],
    solvers: Vec<Option<sudoku::TemplateSolver<'t>>>,
    limits: Limits,
}

impl<'t> Solvers<'t> {
    fn new(templates: &'t [(sudoku::Shape, sudoku::Template)], limits: Limits) -> Self {
        Solvers {
            templates,
            solvers: (0..templates.len()).map(|_| None).collect(),
            limits,
        }
    }

    fn solve(&mut self, puzzle: &sudoku::Puzzle) -> Answer {
        let result = match (
            &puzzle.regions,
            self.templates
                .iter()
                .position(|(s, _)| *s == puzzle.grid.shape()),
        ) {
            (None, Some(i)) => {
                let limits = &self.limits;
                let templates = self.templates;
                self.solvers[i]
                    .get_or_insert_with(|| templates[i].1.solver().limits(limits.clone()))
                    .solve(&puzzle.grid, 2)
            }
            _ => {
                let rules = sudoku::Rules::default().regions(puzzle.regions.clone());
                sudoku::solve_parallel(&puzzle.grid, 2, &rules, &self.limits, 1)
            }
        };
        match result {
            Ok(answer) => Answer::of(puzzle, answer, None),
            Err(e) => Answer::invalid(e.to_string()),
        }
    }
}

/// Templates for the shapes among `puzzles`.
fn templates(puzzles: &[Result<sudoku::Puzzle, Answer>]) -> Vec<(sudoku::Shape, sudoku::Template)> {
    let mut out: Vec<(sudoku::Shape, sudoku::Template)> = Vec::new();
    for p in puzzles.iter().flatten() {
        let shape = p.grid.shape();
        if p.regions.is_none() && !out.iter().any(|(s, _)| *s == shape) {
            if let Ok(t) = sudoku::Template::new(shape, &sudoku::Rules::default()) {
                out.push((shape, t));
            }
        }
    }
    out
}

/// Solves one sudoku (see exactly.sudoku.solve).
#[pyfunction]
#[pyo3(signature = (puzzle, *, max_nodes=None, timeout=None))]
pub(crate) fn sudoku_solve(
    py: Python<'_>,
    puzzle: &Bound<'_, PyAny>,
    max_nodes: Option<i128>,
    timeout: Option<f64>,
) -> PyResult<Answer> {
    let text: String = puzzle.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "a puzzle must be a str, not {}",
            puzzle
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    let budget = Budget::new(max_nodes, timeout, None)?;
    let puzzle = match read_puzzle(&text) {
        Ok(p) => p,
        Err(answer) => return Ok(answer),
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let limits = budget.limits(&cancel);
    let (answer, _) = interruptible(py, &cancel, None, || {
        let rules = sudoku::Rules::default().regions(puzzle.regions.clone());
        match sudoku::solve_parallel(&puzzle.grid, 2, &rules, &limits, 1) {
            Ok(a) => Answer::of(&puzzle, a, Some(stop_note(&budget, false))),
            Err(e) => Answer::invalid(e.to_string()),
        }
    })?;
    if answer.verdict == "unknown" {
        let reason = if stop_note(&budget, false).starts_with("time") {
            "timeout"
        } else {
            "max_nodes"
        };
        let (count, nodes) = (u128::from(answer.count), answer.nodes);
        return Err(stopped(py, reason, answer.into_py(py), count, nodes)?);
    }
    Ok(answer)
}

/// Solves many sudokus (see exactly.sudoku.solve_many).
#[pyfunction]
#[pyo3(signature = (puzzles, threads=None, *, max_nodes=None, timeout=None))]
pub(crate) fn sudoku_solve_many(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    threads: Option<usize>,
    max_nodes: Option<i128>,
    timeout: Option<f64>,
) -> PyResult<Vec<Answer>> {
    let budget = Budget::new(max_nodes, timeout, None)?;
    let threads = thread_count(threads)?;
    let read: Vec<Result<sudoku::Puzzle, Answer>> = if let Ok(text) = puzzles.downcast::<PyString>()
    {
        sudoku::parse(&text.extract::<String>()?, None)
            .into_iter()
            .map(|r| r.puzzle.map_err(|e| Answer::invalid(e.to_string())))
            .collect()
    } else {
        let mut out = Vec::new();
        for (i, line) in puzzles.iter()?.enumerate() {
            let line = line?;
            let text: String = line.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                    "puzzle {i} must be a str, not {}",
                    line.get_type()
                        .name()
                        .map(|n| n.to_string())
                        .unwrap_or_default()
                ))
            })?;
            out.push(read_puzzle(&text));
        }
        out
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let limits = budget.limits(&cancel);
    let n = read.len();
    let (answers, timed_out) = interruptible(py, &cancel, None, || {
        let templates = templates(&read);
        // Records are handed out in order by the engine's one pool.
        let items: Vec<usize> = (0..n).collect();
        let run = exactly::parallel::Pool::new(threads.min(n.div_ceil(8)).max(1)).run(
            &items,
            || Solvers::new(&templates, limits.clone()),
            |solvers, i, _| {
                let answer = match &read[i] {
                    Ok(p) => solvers.solve(p),
                    Err(a) => a.clone(),
                };
                Ok::<_, std::convert::Infallible>(exactly::parallel::Item {
                    value: answer,
                    nodes: 0,
                    outcome: Outcome::Complete,
                })
            },
            |_, _| {},
        );
        // Nothing stops this pool: every record has its answer, in order.
        match run {
            Ok(run) => run
                .items
                .into_iter()
                .map(|(_, item)| item.value)
                .collect::<Vec<_>>(),
            Err(failed) => match failed.error {},
        }
    })?;
    let note = stop_note(&budget, timed_out);
    Ok(answers
        .into_iter()
        .map(|mut a| {
            if a.verdict == "unknown" {
                a.error = Some(format!("stopped: {note}"));
            }
            a
        })
        .collect())
}
