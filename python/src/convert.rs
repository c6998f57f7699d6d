//! Python objects to the engine's terms, and errors that name them.

use exactly::format;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};

use crate::ParseError;

/// A parse error as `exactly.ParseError`.
pub(crate) fn parse_error(
    py: Python<'_>,
    e: &format::ParseError,
    path: Option<&str>,
) -> PyResult<PyErr> {
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
pub(crate) fn show(obj: &Bound<'_, PyAny>) -> String {
    obj.repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "<object without repr>".to_string())
}

/// Rejects strings and bytes where a collection of items is expected (a
/// string would silently become its characters). `what` names the
/// collection in errors (made only for an error: this runs once per
/// option).
pub(crate) fn collection<'py>(
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
pub(crate) fn mapping_pairs<'py>(
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
pub(crate) fn lookup<'py>(
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
