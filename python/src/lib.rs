//! Python bindings for `exactly`: a thin layer over the engine's public
//! API. Problems are built from Python objects (options labelled by any
//! hashable, items any hashable) or parsed from text; every search runs with
//! the GIL released, on a helper thread, while the calling thread watches
//! for Ctrl-C and the deadline.

// pyo3 0.22's `#[pymethods]` expansion converts each error into `PyErr`
// even when it is one already.
#![allow(clippy::useless_conversion)]

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use exactly::mincover::MinCover;
use exactly::multi::{CostSolver, CostedSolution, MultiSolver};
use exactly::zdd::{ZddBuilder, ZddError};
use exactly::{
    format, BuildError, ColorId, Engine, ItemId, Limits, OptionId, Outcome, Solution, Solver,
    StopReason,
};
use exactly_puzzles::sudoku;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyLong, PyString, PyTuple};

create_exception!(
    exactly,
    Stopped,
    PyException,
    "A search stopped by a budget (max_nodes=, timeout=, or limit= where a limit is not the \
     answer asked for) before it could finish.\n\n\
     Attributes: reason ('max_nodes', 'timeout' or 'limit'), partial (what the call found by \
     then, in the shape it returns), count (solutions found by then) and nodes (search nodes)."
);
create_exception!(
    exactly,
    ParseError,
    PyValueError,
    "Text that is not a problem.\n\n\
     Attributes: line and column (1-based), message (what was expected), path (the file, or \
     None for text)."
);

/// How often the waiting thread checks for signals and the deadline.
const TICK: Duration = Duration::from_millis(20);

/// The nodes a count on several threads first searches on one: a tree
/// that ends within them (about half a millisecond of search) is counted
/// without starting threads; a bigger one is counted again on all of them.
const PROBE_NODES: u64 = 1 << 13;

/// Solutions the lazy iterator's search may run ahead of its reader.
const AHEAD: usize = 64;

type Shared = exactly::Problem<u32>;

/// The budgets of one call.
#[derive(Clone, Default)]
struct Budget {
    nodes: Option<u64>,
    time: Option<Duration>,
    solutions: Option<u128>,
}

impl Budget {
    fn new(max_nodes: Option<i128>, timeout: Option<f64>, limit: Option<i128>) -> PyResult<Budget> {
        let nodes = match max_nodes {
            None => None,
            Some(n) => Some(u64::try_from(n).map_err(|_| {
                PyValueError::new_err(format!(
                    "max_nodes must be a non-negative integer below 2**64, got {n}"
                ))
            })?),
        };
        let time = match timeout {
            None => None,
            Some(t) if (0.0..1e12).contains(&t) => Some(Duration::from_secs_f64(t)),
            Some(t) => {
                return Err(PyValueError::new_err(format!(
                    "timeout must be a finite number of seconds >= 0, got {t}"
                )))
            }
        };
        let solutions = match limit {
            None => None,
            Some(n) => Some(u128::try_from(n).map_err(|_| {
                PyValueError::new_err(format!("limit must be a non-negative integer, got {n}"))
            })?),
        };
        Ok(Budget {
            nodes,
            time,
            solutions,
        })
    }

    fn limits(&self, cancel: &Arc<AtomicBool>) -> Limits {
        let mut limits = Limits::default().cancel_flag(cancel.clone());
        if let Some(n) = self.nodes {
            limits = limits.max_nodes(n);
        }
        if let Some(t) = self.time {
            limits = limits.max_time(t);
        }
        if let Some(n) = self.solutions {
            limits = limits.max_solutions(n);
        }
        limits
    }
}

/// The most threads one call may ask for.
const MAX_THREADS: usize = 1024;

/// The threads a call asked for, all cores by default.
fn thread_count(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
        Some(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        Some(n) => Err(PyValueError::new_err(format!(
            "threads must be from 1 to {MAX_THREADS}, got {n}"
        ))),
    }
}

/// Runs `work` on a helper thread with the GIL released
/// ([`exactly::parallel::watched`]). The calling thread wakes every
/// [`TICK`]: past `deadline` it sets `cancel` (and reports the
/// time as up); on a pending signal (Ctrl-C) it sets `cancel`, lets the
/// search wind down and returns the signal's exception.
fn interruptible<T: Send>(
    py: Python<'_>,
    cancel: &Arc<AtomicBool>,
    deadline: Option<Instant>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<(T, bool)> {
    let mut interrupted: Option<PyErr> = None;
    let mut timed_out = false;
    let result = py.allow_threads(|| {
        exactly::parallel::watched(work, TICK, || {
            if deadline.is_some_and(|d| Instant::now() >= d) && !timed_out {
                timed_out = true;
                cancel.store(true, Ordering::Relaxed);
            }
            if interrupted.is_none() {
                if let Err(e) = Python::with_gil(|py| py.check_signals()) {
                    interrupted = Some(e);
                    cancel.store(true, Ordering::Relaxed);
                }
            }
        })
    });
    match interrupted {
        Some(e) => Err(e),
        None => Ok((result, timed_out)),
    }
}

/// The name a stop reason goes by in `Stopped.reason`.
fn reason_word(reason: StopReason, timed_out: bool) -> &'static str {
    match reason {
        _ if timed_out => "timeout",
        StopReason::NodeLimit => "max_nodes",
        StopReason::TimeLimit => "timeout",
        StopReason::SolutionLimit => "limit",
        _ => "cancelled",
    }
}

/// A `Stopped` exception carrying the partial result.
fn stopped(
    py: Python<'_>,
    reason: &str,
    partial: PyObject,
    count: u128,
    nodes: u64,
) -> PyResult<PyErr> {
    let what = match reason {
        "max_nodes" => "the node budget (max_nodes) ran out",
        "timeout" => "the time budget (timeout) ran out",
        "limit" => "the solution limit was reached",
        _ => "the search was cancelled",
    };
    let err = Stopped::new_err(format!(
        "search stopped: {what} after {nodes} nodes and {count} solutions; \
         the result so far is in .partial"
    ));
    let value = err.value_bound(py);
    value.setattr("reason", reason)?;
    value.setattr("partial", partial)?;
    value.setattr("count", count)?;
    value.setattr("nodes", nodes)?;
    Ok(err)
}

/// A parse error as `exactly.ParseError`.
fn parse_error(py: Python<'_>, e: &format::ParseError, path: Option<&str>) -> PyResult<PyErr> {
    let message = match path {
        Some(p) => e.with_file(p).to_string(),
        None => e.to_string(),
    };
    let err = ParseError::new_err(message);
    let value = err.value_bound(py);
    value.setattr("line", e.line)?;
    value.setattr("column", e.column)?;
    value.setattr("message", e.kind.to_string())?;
    value.setattr("path", path)?;
    Ok(err)
}

/// `repr(obj)`, for error messages.
fn show(obj: &Bound<'_, PyAny>) -> String {
    obj.repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "<object without repr>".to_string())
}

/// Rejects strings and bytes where a collection of items is expected (a
/// string would silently become its characters). `what` names the
/// collection in errors (made only for an error: this runs once per
/// option).
fn collection<'py>(
    obj: &Bound<'py, PyAny>,
    what: &dyn Fn() -> String,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    // Lists and tuples, the usual case, without the iterator protocol.
    if let Ok(list) = obj.downcast::<PyList>() {
        return Ok(list.iter().collect());
    }
    if let Ok(tuple) = obj.downcast::<PyTuple>() {
        return Ok(tuple.iter().collect());
    }
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(format!(
            "{} must be a list, tuple or set of items, not a string ({})",
            what(),
            show(obj)
        )));
    }
    let iter = obj.iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "{} must be a list, tuple or set of items, not {}",
            what(),
            obj.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    iter.collect()
}

/// `(key, value)` pairs of a mapping (anything with `.items()`).
fn mapping_pairs<'py>(
    obj: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<Vec<(Bound<'py, PyAny>, Bound<'py, PyAny>)>> {
    if !obj.hasattr("items")? {
        return Err(PyTypeError::new_err(format!(
            "{what} must be a dict, not {}",
            obj.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        )));
    }
    let mut pairs = Vec::new();
    for pair in obj.call_method0("items")?.iter()? {
        pairs.push(pair?.extract()?);
    }
    Ok(pairs)
}

/// Looks `key` up in `dict`, naming it in the error when it is unhashable.
fn lookup<'py>(
    dict: &Bound<'py, PyDict>,
    key: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    dict.get_item(key).map_err(|e| {
        if e.is_instance_of::<PyTypeError>(dict.py()) {
            PyTypeError::new_err(format!("{what} {} is not hashable", show(key)))
        } else {
            e
        }
    })
}

/// An exact-cover problem: options (each a set of items) to choose so that
/// every primary item is covered exactly once and every secondary item at
/// most once, or by options that agree on its color.
///
/// ``Problem(options, *, secondary=(), colors=None, primary=None, costs=None,
/// bounds=None)``: ``options`` maps any hashable label to an iterable of
/// hashable items, or is a list of options (labelled 0, 1, ...). Items not
/// listed in ``secondary`` are primary (or list them all in ``primary``).
/// ``colors`` maps a label to ``{item: color}`` for its secondary items;
/// ``costs`` maps a label to a non-negative integer cost; ``bounds`` maps a
/// primary item to how often it must be covered: ``u`` or ``(v, u)``.
///
/// Solutions are lists of the labels you gave, the very same objects.
/// An option without any primary item is dropped, as Knuth's programs do
/// (see ``warnings``).
#[pyclass(module = "exactly", frozen)]
struct Problem {
    inner: Arc<Shared>,
    /// Option labels, by the engine's label (an index).
    labels: Vec<PyObject>,
    /// Items, by engine item id.
    items: Vec<PyObject>,
}

/// How a problem's items are named in the engine: by their index.
fn item_index(name: &str) -> Option<usize> {
    name.parse().ok()
}

impl Problem {
    fn from_parsed(py: Python<'_>, problem: exactly::Problem<String>) -> Problem {
        let items = problem
            .item_ids()
            .map(|i| {
                PyString::new_bound(py, problem.item_name(i))
                    .into_any()
                    .unbind()
            })
            .collect();
        let mut labels = Vec::with_capacity(problem.num_options());
        let inner = problem.map_labels(|text| {
            labels.push(PyString::new_bound(py, &text).into_any().unbind());
            (labels.len() - 1) as u32
        });
        Problem {
            inner: Arc::new(inner),
            labels,
            items,
        }
    }

    fn solution_list(&self, py: Python<'_>, options: &[OptionId]) -> PyObject {
        let problem = &*self.inner;
        PyList::new_bound(
            py,
            options
                .iter()
                .map(|&o| self.labels[*problem.label(o) as usize].clone_ref(py)),
        )
        .into_any()
        .unbind()
    }

    fn costed(&self, py: Python<'_>, c: &CostedSolution) -> PyObject {
        PyTuple::new_bound(
            py,
            [
                c.cost.into_py(py),
                self.solution_list(py, c.solution.options()),
            ],
        )
        .into_any()
        .unbind()
    }
}

#[pymethods]
impl Problem {
    #[new]
    #[pyo3(signature = (options, *, secondary=None, colors=None, primary=None, costs=None, bounds=None))]
    fn new<'py>(
        py: Python<'py>,
        options: &Bound<'py, PyAny>,
        secondary: Option<&Bound<'py, PyAny>>,
        colors: Option<&Bound<'py, PyAny>>,
        primary: Option<&Bound<'py, PyAny>>,
        costs: Option<&Bound<'py, PyAny>>,
        bounds: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Problem> {
        // The options, as (label, items).
        let mut opts: Vec<(Bound<'py, PyAny>, Vec<Bound<'py, PyAny>>)> = Vec::new();
        let labelled = options.hasattr("items")?
            && !options.is_instance_of::<PyString>()
            && !options.is_instance_of::<PyList>();
        if labelled {
            for (label, items) in mapping_pairs(options, "options")? {
                let items =
                    collection(&items, &|| format!("the items of option {}", show(&label)))?;
                opts.push((label, items));
            }
        } else {
            let list = collection(options, &|| "options".to_string())?;
            for (i, items) in list.into_iter().enumerate() {
                let items = collection(&items, &|| format!("the items of option {i}"))?;
                opts.push((i.into_py(py).into_bound(py), items));
            }
        }
        // Labels to options, for costs and colors (the first of equal
        // labels).
        let label_index = PyDict::new_bound(py);
        if costs.is_some() || colors.is_some() {
            for (i, (label, _)) in opts.iter().enumerate() {
                if lookup(&label_index, label, "option label")?.is_none() {
                    label_index.set_item(label, i)?;
                }
            }
        }
        let option_of = |key: &Bound<'_, PyAny>, what: &str| -> PyResult<usize> {
            match lookup(&label_index, key, "option label")? {
                Some(i) => i.extract(),
                None => Err(PyValueError::new_err(format!(
                    "{what} names option {}, which is not among the options",
                    show(key)
                ))),
            }
        };

        // The items: declared ones first, then primary items as options
        // first mention them.
        let index = PyDict::new_bound(py);
        let mut items: Vec<Bound<'py, PyAny>> = Vec::new();
        let mut is_secondary: Vec<bool> = Vec::new();
        let mut declare =
            |item: &Bound<'py, PyAny>, second: bool, what: &str| -> PyResult<Option<usize>> {
                if let Some(i) = lookup(&index, item, "item")? {
                    let i: usize = i.extract()?;
                    if is_secondary[i] != second {
                        return Err(PyValueError::new_err(format!(
                            "item {} is both primary and secondary",
                            show(item)
                        )));
                    }
                    return Err(PyValueError::new_err(format!(
                        "item {} is listed twice in {what}",
                        show(item)
                    )));
                }
                index.set_item(item, items.len())?;
                items.push(item.clone());
                is_secondary.push(second);
                Ok(Some(items.len() - 1))
            };
        let explicit = primary.is_some();
        if let Some(primary) = primary {
            for item in collection(primary, &|| "primary".to_string())? {
                declare(&item, false, "primary")?;
            }
        }
        if let Some(secondary) = secondary {
            for item in collection(secondary, &|| "secondary".to_string())? {
                declare(&item, true, "secondary")?;
            }
        }
        let mut entries: Vec<Vec<usize>> = Vec::with_capacity(opts.len());
        for (label, option) in &opts {
            let mut row = Vec::with_capacity(option.len());
            for item in option {
                let i = match lookup(&index, item, "item")? {
                    Some(i) => i.extract()?,
                    None if explicit => {
                        return Err(PyValueError::new_err(format!(
                            "option {}: item {} is in neither primary nor secondary",
                            show(label),
                            show(item)
                        )))
                    }
                    None => declare(item, false, "the options")?.unwrap_or_default(),
                };
                row.push(i);
            }
            entries.push(row);
        }

        // Multiplicities.
        let mut item_bounds: Vec<Option<(u32, u32)>> = vec![None; items.len()];
        if let Some(bounds) = bounds {
            for (item, b) in mapping_pairs(bounds, "bounds")? {
                let Some(i) = lookup(&index, &item, "item")? else {
                    return Err(PyValueError::new_err(format!(
                        "bounds name item {}, which no option holds",
                        show(&item)
                    )));
                };
                let i: usize = i.extract()?;
                if is_secondary[i] {
                    return Err(PyValueError::new_err(format!(
                        "bounds name secondary item {}; only primary items take bounds",
                        show(&item)
                    )));
                }
                let pair: (u32, u32) = match b.extract::<u32>() {
                    Ok(u) => (u, u),
                    Err(_) => b.extract().map_err(|_| {
                        PyTypeError::new_err(format!(
                            "the bounds of item {} must be u or (v, u) with non-negative integers, not {}",
                            show(&item),
                            show(&b)
                        ))
                    })?,
                };
                item_bounds[i] = Some(pair);
            }
        }

        // Costs.
        let mut option_costs = vec![0u64; opts.len()];
        if let Some(costs) = costs {
            for (label, cost) in mapping_pairs(costs, "costs")? {
                let i = option_of(&label, "costs")?;
                option_costs[i] = cost.extract().map_err(|_| {
                    PyValueError::new_err(format!(
                        "the cost of option {} must be an integer from 0 to 2**64-1, not {}",
                        show(&label),
                        show(&cost)
                    ))
                })?;
            }
        }

        // Colors.
        let mut option_colors: Vec<Option<Bound<'_, PyDict>>> = vec![None; opts.len()];
        if let Some(colors) = colors {
            for (label, map) in mapping_pairs(colors, "colors")? {
                let i = option_of(&label, "colors")?;
                let d = PyDict::new_bound(py);
                for (item, color) in mapping_pairs(&map, &format!("colors[{}]", show(&label)))? {
                    d.set_item(item, color).map_err(|_| {
                        PyTypeError::new_err(format!(
                            "colors[{}] holds an unhashable item",
                            show(&label)
                        ))
                    })?;
                }
                option_colors[i] = Some(d);
            }
        }

        // The engine's problem.
        let mut b = exactly::ProblemBuilder::<u32>::new();
        let total: usize = entries.iter().map(Vec::len).sum();
        b.reserve(items.len(), opts.len(), total);
        let mut ids: Vec<ItemId> = Vec::with_capacity(items.len());
        for (i, &second) in is_secondary.iter().enumerate() {
            let name = i.to_string();
            let id = if second {
                b.secondary(&name)
            } else if let Some((v, u)) = item_bounds[i] {
                b.primary_with_bounds(&name, v, u)
            } else {
                b.primary(&name)
            };
            ids.push(id.map_err(|e| match e {
                BuildError::BadBounds { min, max, .. } => PyValueError::new_err(format!(
                    "bad bounds ({min}, {max}) for item {}: need 0 <= v <= u and u >= 1",
                    show(&items[i])
                )),
                e => PyValueError::new_err(e.to_string()),
            })?);
        }
        let palette = PyDict::new_bound(py);
        let mut row: Vec<(ItemId, ColorId)> = Vec::new();
        for (o, ((label, option), cols)) in opts.iter().zip(&option_colors).enumerate() {
            row.clear();
            let mut colored = 0;
            for (item, &i) in option.iter().zip(&entries[o]) {
                let mut color = ColorId::NONE;
                if let Some(cols) = cols {
                    if let Some(c) = cols.get_item(item)? {
                        if !is_secondary[i] {
                            return Err(PyValueError::new_err(format!(
                                "option {}: primary item {} cannot have a color",
                                show(label),
                                show(item)
                            )));
                        }
                        colored += 1;
                        let name = match lookup(&palette, &c, "color")? {
                            Some(n) => n.extract::<String>()?,
                            None => {
                                let n = palette.len().to_string();
                                palette.set_item(&c, &n)?;
                                n
                            }
                        };
                        color = b
                            .color(&name)
                            .map_err(|e| PyValueError::new_err(e.to_string()))?;
                    }
                }
                row.push((ids[i], color));
            }
            if let Some(cols) = cols {
                if colored != cols.len() {
                    for (item, _) in cols.iter() {
                        if !option.iter().any(|x| x.eq(&item).unwrap_or(false)) {
                            return Err(PyValueError::new_err(format!(
                                "colors[{}] names item {}, which the option does not hold",
                                show(label),
                                show(&item)
                            )));
                        }
                    }
                }
            }
            b.add_option_with_cost(o as u32, option_costs[o], row.iter().copied())
                .map_err(|e| match e {
                    BuildError::RepeatedItem(name) => {
                        let item = item_index(&name)
                            .and_then(|i| items.get(i))
                            .map(show)
                            .unwrap_or(name);
                        PyValueError::new_err(format!(
                            "option {}: item {item} appears twice",
                            show(label)
                        ))
                    }
                    e => PyValueError::new_err(e.to_string()),
                })?;
        }
        let inner = b.build().map_err(|e| match e {
            BuildError::NoItems => PyValueError::new_err("the problem has no items"),
            e => PyValueError::new_err(e.to_string()),
        })?;
        Ok(Problem {
            inner: Arc::new(inner),
            labels: opts.into_iter().map(|(l, _)| l.unbind()).collect(),
            items: items.into_iter().map(Bound::unbind).collect(),
        })
    }

    /// Reads a problem from text in Knuth's DLX format (``format="dlx"``:
    /// an item line with ``|`` before the secondary items, ``u|name`` or
    /// ``v:u|name`` bounds, then one option a line, ``name:color`` colors and
    /// ``|n`` costs) or the HUST 1017 0/1-matrix format
    /// (``format="matrix"``). Labels are the options' lines, items their
    /// names. Raises ParseError with .line and .column.
    #[staticmethod]
    #[pyo3(signature = (text, format="dlx"))]
    fn parse(py: Python<'_>, text: &str, format: &str) -> PyResult<Problem> {
        let parsed = match format {
            "dlx" => format::parse_dlx(text),
            "matrix" => format::parse_matrix(text),
            other => {
                return Err(PyValueError::new_err(format!(
                    "unknown format {other:?}: expected \"dlx\" or \"matrix\""
                )))
            }
        };
        match parsed {
            Ok(p) => Ok(Problem::from_parsed(py, p)),
            Err(e) => Err(parse_error(py, &e, None)?),
        }
    }

    /// Reads a problem from a file; see ``parse`` for the formats. Parse
    /// errors name the file as well as the line and column.
    #[staticmethod]
    #[pyo3(signature = (path, format="dlx"))]
    fn read(py: Python<'_>, path: PathBuf, format: &str) -> PyResult<Problem> {
        if format != "dlx" && format != "matrix" {
            return Err(PyValueError::new_err(format!(
                "unknown format {format:?}: expected \"dlx\" or \"matrix\""
            )));
        }
        let bytes = std::fs::read(&path)?;
        let shown = path.display().to_string();
        let text = String::from_utf8(bytes).map_err(|e| {
            PyValueError::new_err(format!(
                "{shown}: not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ))
        })?;
        let parsed = if format == "dlx" {
            format::parse_dlx(&text)
        } else {
            format::parse_matrix(&text)
        };
        match parsed {
            Ok(p) => Ok(Problem::from_parsed(py, p)),
            Err(e) => Err(parse_error(py, &e, Some(&shown))?),
        }
    }

    /// Counts the solutions (an int of any size). ``threads``: how many
    /// threads search (default: all cores; a tree that ends within a few
    /// thousand nodes is counted on one). ``max_nodes``, ``timeout``
    /// (seconds) and ``limit`` (solutions) stop the search early by raising
    /// Stopped, whose ``partial`` is the count so far. A node budget or a
    /// limit searches on one thread.
    ///
    /// ``zdd=True`` counts through a decision diagram of all solutions
    /// (subproblems met again are counted once), on one thread: far faster
    /// where solutions are many but distinct subproblems few, as with
    /// independent parts, whose counts multiply. It takes no ``limit``; a
    /// diagram past 8 GiB raises MemoryError.
    #[pyo3(signature = (threads=None, *, max_nodes=None, timeout=None, limit=None, zdd=false))]
    fn count(
        &self,
        py: Python<'_>,
        threads: Option<usize>,
        max_nodes: Option<i128>,
        timeout: Option<f64>,
        limit: Option<i128>,
        zdd: bool,
    ) -> PyResult<PyObject> {
        let budget = Budget::new(max_nodes, timeout, limit)?;
        let threads = thread_count(threads)?;
        if zdd {
            return self.count_zdd(py, &budget);
        }
        let cancel = Arc::new(AtomicBool::new(false));
        let problem = &*self.inner;
        let split = threads > 1
            && !problem.has_multiplicities()
            && budget.nodes.is_none()
            && budget.solutions.is_none();
        let start = Instant::now();
        let (counted, timed_out) = if split {
            let deadline = budget.time.and_then(|t| start.checked_add(t));
            let limits = Limits::default().cancel_flag(cancel.clone());
            interruptible(py, &cancel, deadline, || {
                // A search that ends within PROBE_NODES nodes is over before
                // threads would have started: count it on this one.
                let mut probe = Solver::new(problem).limits(limits.clone().max_nodes(PROBE_NODES));
                let c = probe.count();
                if c.outcome != Outcome::Stopped(StopReason::NodeLimit) {
                    return Ok((c.solutions, c.outcome, probe.stats().nodes));
                }
                let cut = exactly::parallel::split(problem, Engine::Auto, 64 * threads, 64);
                let counted = exactly::parallel::count_split(
                    problem,
                    Engine::Auto,
                    &cut,
                    threads,
                    &limits,
                    &[],
                    &|_, _, _| {},
                );
                counted.map(|c| (c.solutions, c.outcome, c.nodes))
            })?
        } else {
            let limits = budget.limits(&cancel);
            interruptible(py, &cancel, None, || {
                if problem.has_multiplicities() {
                    let mut s = MultiSolver::new(problem).limits(limits);
                    let c = s.count();
                    Ok::<_, exactly::parallel::BadPrefix>((c.solutions, c.outcome, s.stats().nodes))
                } else {
                    let mut s = Solver::new(problem).limits(limits);
                    let c = s.count();
                    Ok((c.solutions, c.outcome, s.stats().nodes))
                }
            })?
        };
        let (solutions, outcome, nodes) =
            counted.map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
        match outcome {
            Outcome::Complete => Ok(solutions.into_py(py)),
            Outcome::Stopped(reason) => Err(stopped(
                py,
                reason_word(reason, timed_out),
                solutions.into_py(py),
                solutions,
                nodes,
            )?),
        }
    }

    /// The first solution, as a list of labels, or None when there is
    /// none. ``max_nodes`` and ``timeout`` raise Stopped (``partial`` None)
    /// when they run out first.
    #[pyo3(signature = (*, max_nodes=None, timeout=None))]
    fn first(
        &self,
        py: Python<'_>,
        max_nodes: Option<i128>,
        timeout: Option<f64>,
    ) -> PyResult<Option<PyObject>> {
        let budget = Budget::new(max_nodes, timeout, None)?;
        let cancel = Arc::new(AtomicBool::new(false));
        let limits = budget.limits(&cancel);
        let problem = &*self.inner;
        let ((found, nodes), _) = interruptible(py, &cancel, None, || {
            if problem.has_multiplicities() {
                let mut s = MultiSolver::new(problem).limits(limits);
                (s.first(), s.stats().nodes)
            } else {
                let mut s = Solver::new(problem).limits(limits);
                (s.first(), s.stats().nodes)
            }
        })?;
        match found {
            Ok(s) => Ok(s.map(|s| self.solution_list(py, s.options()))),
            Err(reason) => Err(stopped(
                py,
                reason_word(reason, false),
                py.None(),
                0,
                nodes,
            )?),
        }
    }

    /// All solutions, lazily: an iterator of lists of labels. The search
    /// runs on its own thread a few solutions ahead of the reader. ``limit``
    /// ends the iteration after that many; ``max_nodes`` and ``timeout``
    /// raise Stopped from ``next()`` (``count``: the solutions yielded).
    #[pyo3(signature = (limit=None, *, max_nodes=None, timeout=None))]
    fn solutions(
        slf: &Bound<'_, Self>,
        limit: Option<i128>,
        max_nodes: Option<i128>,
        timeout: Option<f64>,
    ) -> PyResult<Solutions> {
        let budget = Budget::new(max_nodes, timeout, limit)?;
        let cancel = Arc::new(AtomicBool::new(false));
        let limits = budget.limits(&cancel);
        let problem = slf.get().inner.clone();
        let (tx, rx) = mpsc::sync_channel::<Message>(AHEAD);
        let empty = budget.solutions == Some(0);
        if !empty {
            std::thread::Builder::new()
                .name("exactly-solutions".into())
                .spawn(move || produce(&problem, limits, &tx))
                .map_err(PyErr::from)?;
        }
        Ok(Solutions {
            problem: slf.clone().unbind(),
            rx: if empty { None } else { Some(rx) },
            cancel,
            yielded: 0,
        })
    }

    /// The cheapest solution by the options' costs, as ``(cost, solution)``,
    /// or None when there is no solution. Budgets raise Stopped with the
    /// best found so far (or None) in ``partial``.
    #[pyo3(signature = (*, max_nodes=None, timeout=None))]
    fn min_cost(
        &self,
        py: Python<'_>,
        max_nodes: Option<i128>,
        timeout: Option<f64>,
    ) -> PyResult<Option<PyObject>> {
        let (best, outcome, nodes) = self.cheapest(py, 1, max_nodes, timeout)?;
        let result = best.first().map(|c| self.costed(py, c));
        match outcome {
            Outcome::Complete => Ok(result),
            Outcome::Stopped(reason) => Err(stopped(
                py,
                reason_word(reason, false),
                result.into_py(py),
                best.len() as u128,
                nodes,
            )?),
        }
    }

    /// The ``k`` cheapest distinct costs, cheapest first, with one solution
    /// each: a list of ``(cost, solution)``. Budgets raise Stopped with the
    /// best found so far in ``partial``.
    #[pyo3(signature = (k, *, max_nodes=None, timeout=None))]
    fn best(
        &self,
        py: Python<'_>,
        k: i128,
        max_nodes: Option<i128>,
        timeout: Option<f64>,
    ) -> PyResult<PyObject> {
        let k = usize::try_from(k).map_err(|_| {
            PyValueError::new_err(format!("k must be a non-negative integer, got {k}"))
        })?;
        let (best, outcome, nodes) = self.cheapest(py, k, max_nodes, timeout)?;
        let list = PyList::new_bound(py, best.iter().map(|c| self.costed(py, c)))
            .into_any()
            .unbind();
        match outcome {
            Outcome::Complete => Ok(list),
            Outcome::Stopped(reason) => Err(stopped(
                py,
                reason_word(reason, false),
                list,
                best.len() as u128,
                nodes,
            )?),
        }
    }

    /// The fewest options covering every primary item at least once (the
    /// cheapest by cost with ``weighted=True``), as a list of labels, or
    /// None when some primary item is in no option. Budgets raise Stopped
    /// with the best cover found so far (or None) in ``partial``.
    #[pyo3(signature = (weighted=false, *, max_nodes=None, timeout=None))]
    fn min_cover(
        &self,
        py: Python<'_>,
        weighted: bool,
        max_nodes: Option<i128>,
        timeout: Option<f64>,
    ) -> PyResult<Option<PyObject>> {
        let budget = Budget::new(max_nodes, timeout, None)?;
        let cancel = Arc::new(AtomicBool::new(false));
        let limits = budget.limits(&cancel);
        let problem = &*self.inner;
        let (((cover, outcome), nodes), _) = interruptible(py, &cancel, None, || {
            let mut s = MinCover::new(problem).weighted(weighted).limits(limits);
            let r = s.solve();
            (r, s.stats().nodes)
        })?;
        let result = cover.as_ref().map(|c| self.solution_list(py, &c.options));
        match outcome {
            Outcome::Complete => Ok(result),
            Outcome::Stopped(reason) => Err(stopped(
                py,
                reason_word(reason, false),
                result.into_py(py),
                u128::from(cover.is_some()),
                nodes,
            )?),
        }
    }

    /// Number of items, primary and secondary.
    #[getter]
    fn num_items(&self) -> usize {
        self.inner.num_items()
    }

    /// Number of primary items.
    #[getter]
    fn num_primary(&self) -> usize {
        self.inner.num_primary()
    }

    /// Number of options (after dropping those without a primary item).
    #[getter]
    fn num_options(&self) -> usize {
        self.inner.num_options()
    }

    /// The items, primary and secondary, as given (or named in the text).
    #[getter]
    fn items(&self, py: Python<'_>) -> PyObject {
        PyList::new_bound(py, self.items.iter().map(|i| i.clone_ref(py)))
            .into_any()
            .unbind()
    }

    /// The labels of the options kept, in order.
    #[getter]
    fn labels(&self, py: Python<'_>) -> PyObject {
        let p = &*self.inner;
        PyList::new_bound(
            py,
            p.labels()
                .iter()
                .map(|&l| self.labels[l as usize].clone_ref(py)),
        )
        .into_any()
        .unbind()
    }

    /// Remarks made while building, such as options dropped for holding no
    /// primary item.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.inner
            .warnings()
            .iter()
            .map(|w| w.to_string())
            .collect()
    }

    /// Whether any option has a nonzero cost.
    #[getter]
    fn has_costs(&self) -> bool {
        self.inner.has_costs()
    }

    /// Whether any primary item has multiplicity bounds other than 1.
    #[getter]
    fn has_multiplicities(&self) -> bool {
        self.inner.has_multiplicities()
    }

    /// Whether any option gives a secondary item a color.
    #[getter]
    fn has_colors(&self) -> bool {
        self.inner.has_colors()
    }

    fn __repr__(&self) -> String {
        let p = &*self.inner;
        format!(
            "<exactly.Problem: {} items ({} primary), {} options>",
            p.num_items(),
            p.num_primary(),
            p.num_options()
        )
    }
}

/// The most memory a diagram for `count(zdd=True)` may take (as the CLI's
/// `count --zdd`).
const ZDD_BYTES: u64 = 8 << 30;

impl Problem {
    /// `count(zdd=True)`.
    fn count_zdd(&self, py: Python<'_>, budget: &Budget) -> PyResult<PyObject> {
        if budget.solutions.is_some() {
            return Err(PyValueError::new_err(
                "limit does not apply to count(zdd=True), which counts every solution",
            ));
        }
        let cancel = Arc::new(AtomicBool::new(false));
        let limits = budget.limits(&cancel);
        let problem = &*self.inner;
        let (built, _) = interruptible(py, &cancel, None, || {
            ZddBuilder::new(problem)
                .limits(limits)
                .max_bytes(ZDD_BYTES)
                .build()
                .map(|zdd| zdd.count().to_string())
        })?;
        match built {
            // The count in decimal, since it may pass 2**128.
            Ok(digits) => Ok(py.get_type_bound::<PyLong>().call1((digits,))?.unbind()),
            Err(ZddError::Stopped { reason, stats, .. }) => Err(stopped(
                py,
                reason_word(reason, false),
                py.None(),
                0,
                stats.nodes,
            )?),
            Err(e @ (ZddError::Memory { .. } | ZddError::TooManyNodes)) => {
                Err(PyMemoryError::new_err(e.to_string()))
            }
            Err(e) => Err(PyValueError::new_err(e.to_string())),
        }
    }

    fn cheapest(
        &self,
        py: Python<'_>,
        k: usize,
        max_nodes: Option<i128>,
        timeout: Option<f64>,
    ) -> PyResult<(Vec<CostedSolution>, Outcome, u64)> {
        let budget = Budget::new(max_nodes, timeout, None)?;
        let cancel = Arc::new(AtomicBool::new(false));
        let limits = budget.limits(&cancel);
        let problem = &*self.inner;
        let ((best, outcome, nodes), _) = interruptible(py, &cancel, None, || {
            let mut s = CostSolver::new(problem).limits(limits);
            let (best, outcome) = s.best(k);
            (best, outcome, s.stats().nodes)
        })?;
        Ok((best, outcome, nodes))
    }
}

/// What the search thread of [`Solutions`] sends.
enum Message {
    /// A solution's options.
    Solution(Vec<OptionId>),
    /// The search ended.
    End(Outcome, u64),
}

/// The search thread of [`Solutions`]: every solution goes down the
/// channel; the search ends when the reader hangs up.
fn produce(problem: &Shared, limits: Limits, tx: &mpsc::SyncSender<Message>) {
    let visit = |s: &Solution| match tx.send(Message::Solution(s.options().to_vec())) {
        Ok(()) => ControlFlow::Continue(()),
        Err(_) => ControlFlow::Break(()),
    };
    let (outcome, nodes) = if problem.has_multiplicities() {
        let mut s = MultiSolver::new(problem).limits(limits);
        (s.for_each(visit), s.stats().nodes)
    } else {
        let mut s = Solver::new(problem).limits(limits);
        (s.for_each(visit), s.stats().nodes)
    };
    let _ = tx.send(Message::End(outcome, nodes));
}

/// A lazy iterator over a problem's solutions (see Problem.solutions).
#[pyclass(module = "exactly")]
struct Solutions {
    problem: Py<Problem>,
    rx: Option<mpsc::Receiver<Message>>,
    cancel: Arc<AtomicBool>,
    yielded: u128,
}

#[pymethods]
impl Solutions {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<PyObject>> {
        let Some(mut rx) = self.rx.take() else {
            return Ok(None);
        };
        let message = loop {
            match rx.try_recv() {
                Ok(m) => break m,
                Err(mpsc::TryRecvError::Disconnected) => {
                    return Err(pyo3::exceptions::PyRuntimeError::new_err(
                        "the search thread ended without a result",
                    ))
                }
                Err(mpsc::TryRecvError::Empty) => {}
            }
            let (back, got) = py.allow_threads(move || {
                let got = rx.recv_timeout(TICK);
                (rx, got)
            });
            rx = back;
            match got {
                Ok(m) => break m,
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(pyo3::exceptions::PyRuntimeError::new_err(
                        "the search thread ended without a result",
                    ))
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        self.cancel.store(true, Ordering::Relaxed);
                        return Err(e);
                    }
                }
            }
        };
        match message {
            Message::Solution(options) => {
                self.rx = Some(rx);
                self.yielded += 1;
                Ok(Some(self.problem.get().solution_list(py, &options)))
            }
            Message::End(outcome, nodes) => match outcome {
                Outcome::Stopped(r @ (StopReason::NodeLimit | StopReason::TimeLimit)) => Err(
                    stopped(py, reason_word(r, false), py.None(), self.yielded, nodes)?,
                ),
                _ => Ok(None),
            },
        }
    }
}

impl Drop for Solutions {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// The answer to a sudoku: ``verdict`` is "unique", "multiple", "none",
/// "invalid" (the text is not a valid puzzle; see ``error``) or "unknown"
/// (a budget ran out first). ``solution`` is the first solution found,
/// written as the puzzle was (or None); ``count`` the solutions found (at
/// most 2); ``error`` why the puzzle is invalid or unknown (or None);
/// ``nodes`` the search nodes.
#[pyclass(module = "exactly.sudoku", frozen, get_all)]
#[derive(Clone)]
struct Answer {
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

/// Names a stop for an unknown verdict.
fn stop_note(budget: &Budget, timed_out: bool) -> &'static str {
    if timed_out || (budget.time.is_some() && budget.nodes.is_none()) {
        "time limit reached"
    } else {
        "node limit reached"
    }
}

/// Solves one sudoku (see exactly.sudoku.solve).
#[pyfunction]
#[pyo3(signature = (puzzle, *, max_nodes=None, timeout=None))]
fn sudoku_solve(
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
fn sudoku_solve_many(
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

/// The compiled core of the `exactly` package.
#[pymodule]
fn _exactly(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Problem>()?;
    m.add_class::<Solutions>()?;
    m.add_class::<Answer>()?;
    m.add("Stopped", py.get_type_bound::<Stopped>())?;
    m.add("ParseError", py.get_type_bound::<ParseError>())?;
    m.add_function(wrap_pyfunction!(sudoku_solve, m)?)?;
    m.add_function(wrap_pyfunction!(sudoku_solve_many, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
