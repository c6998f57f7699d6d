//! Python bindings for `exactly`: a thin layer over the engine's public
//! API. Problems are built from Python objects (options labelled by any
//! hashable, items any hashable) or parsed from text; every search runs with
//! the GIL released, on a helper thread, while the calling thread watches
//! for Ctrl-C and the deadline.

// pyo3 0.22's `#[pymethods]` expansion converts each error into `PyErr`
// even when it is one already.
#![allow(clippy::useless_conversion)]

mod budget;
mod convert;
mod problem;
mod solutions;
mod sudoku;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;

use problem::Problem;
use solutions::Solutions;
use sudoku::{sudoku_solve, sudoku_solve_many, Answer};

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
