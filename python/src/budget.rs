//! Budgets and stops: the limits of one call, the thread count, the
//! interruptible wait on a helper thread and the `Stopped` exception.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use exactly::{Limits, StopReason};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::Stopped;

/// How often the waiting thread checks for signals and the deadline.
pub(crate) const TICK: Duration = Duration::from_millis(20);

/// The budgets of one call.
#[derive(Clone, Default)]
pub(crate) struct Budget {
    pub(crate) nodes: Option<u64>,
    pub(crate) time: Option<Duration>,
    pub(crate) solutions: Option<u128>,
}

impl Budget {
    pub(crate) fn new(
        max_nodes: Option<i128>,
        timeout: Option<f64>,
        limit: Option<i128>,
    ) -> PyResult<Budget> {
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

    pub(crate) fn limits(&self, cancel: &Arc<AtomicBool>) -> Limits {
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
pub(crate) fn thread_count(threads: Option<usize>) -> PyResult<usize> {
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
pub(crate) fn interruptible<T: Send>(
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
pub(crate) fn reason_word(reason: StopReason, timed_out: bool) -> &'static str {
    match reason {
        _ if timed_out => "timeout",
        StopReason::NodeLimit => "max_nodes",
        StopReason::TimeLimit => "timeout",
        StopReason::SolutionLimit => "limit",
        _ => "cancelled",
    }
}

/// A `Stopped` exception carrying the partial result.
pub(crate) fn stopped(
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

/// Names a stop for an unknown verdict.
pub(crate) fn stop_note(budget: &Budget, timed_out: bool) -> &'static str {
    if timed_out || (budget.time.is_some() && budget.nodes.is_none()) {
        "time limit reached"
    } else {
        "node limit reached"
    }
}
