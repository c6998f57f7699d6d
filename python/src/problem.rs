//! The `Problem` class: building, reading and searching.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use exactly::mincover::MinCover;
use exactly::multi::{CostSolver, CostedSolution};
use exactly::zdd::{ZddBuilder, ZddError};
use exactly::{
    format, BuildError, ColorId, ItemId, Limits, OptionId, Outcome, Solver, StopReason, Warning,
};
use pyo3::exceptions::{PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyLong, PyString, PyTuple};

use crate::budget::{interruptible, reason_word, stopped, thread_count, Budget};
use crate::convert::{collection, lookup, mapping_pairs, parse_error, show};
use crate::solutions::{produce, Message, Solutions, AHEAD};

/// The nodes a count on several threads first searches on one: a tree
/// that ends within them (about half a millisecond of search) is counted
/// without starting threads; a bigger one is counted again on all of them.
const PROBE_NODES: u64 = 1 << 13;

pub(crate) type Shared = exactly::Problem<u32>;

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
pub(crate) struct Problem {
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

    pub(crate) fn solution_list(&self, py: Python<'_>, options: &[OptionId]) -> PyObject {
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
        let split = threads > 1 && budget.nodes.is_none() && budget.solutions.is_none();
        let start = Instant::now();
        let ((solutions, outcome, nodes), timed_out) = if split {
            let deadline = budget.time.and_then(|t| start.checked_add(t));
            let limits = Limits::default().cancel_flag(cancel.clone());
            interruptible(py, &cancel, deadline, || {
                // A search that ends within PROBE_NODES nodes is over
                // before threads would have started: count it on this one.
                let mut probe = Solver::new(problem).limits(limits.clone().max_nodes(PROBE_NODES));
                let c = probe.count();
                if c.outcome != Outcome::Stopped(StopReason::NodeLimit) {
                    return (c.solutions, c.outcome, probe.stats().nodes);
                }
                // Cut and counted on the threads as `exactly count --threads
                // N` counts: a problem with multiplicities split into
                // smaller problems, and a large exact cover counted by the
                // rest its forced moves leave.
                let c = exactly::parallel::count_within(problem, threads, &limits);
                (c.solutions, c.outcome, c.nodes)
            })?
        } else {
            let limits = budget.limits(&cancel);
            interruptible(py, &cancel, None, || {
                // `Solver` runs Algorithm M itself on multiplicities. A
                // stopped count is not resumed, so a large exact cover is
                // counted by the rest its forced moves leave under a
                // budget too.
                let mut s = Solver::new(problem).limits(limits).resumable(false);
                let c = s.count();
                (c.solutions, c.outcome, s.stats().nodes)
            })?
        };
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
            // Searched once: a large exact cover's first solution may
            // come from the rest its forced moves leave.
            let mut s = Solver::new(problem).limits(limits).resumable(false);
            (s.first(), s.stats().nodes)
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
        let empty = budget.solutions == Some(0);
        // The search runs ahead of the iteration on the engine's own
        // producer thread.
        let rx = (!empty).then(|| {
            exactly::parallel::read_ahead::<Message>(AHEAD, move |tx| produce(&problem, limits, tx))
        });
        Ok(Solutions {
            problem: slf.clone().unbind(),
            rx,
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
    /// primary item (with the line and column where the option starts, for
    /// a problem read from a text).
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.inner
            .warnings()
            .iter()
            .map(|w| match w {
                Warning::OptionWithoutPrimary {
                    at: Some((line, column)),
                    ..
                } => format!("line {line}, column {column}: {w}"),
                _ => w.to_string(),
            })
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
