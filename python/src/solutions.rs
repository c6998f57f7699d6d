//! The lazy iterator over a problem's solutions.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;

use exactly::{Limits, OptionId, Outcome, Solution, Solver, StopReason};
use pyo3::prelude::*;

use crate::budget::{reason_word, stopped, TICK};
use crate::problem::{Problem, Shared};

/// Solutions the lazy iterator's search may run ahead of its reader.
pub(crate) const AHEAD: usize = 64;

/// What the search thread of [`Solutions`] sends.
pub(crate) enum Message {
    /// A solution's options.
    Solution(Vec<OptionId>),
    /// The search ended.
    End(Outcome, u64),
}

/// The search thread of [`Solutions`]: every solution goes down the
/// channel; the search ends when the reader hangs up.
pub(crate) fn produce(problem: &Shared, limits: Limits, tx: &mpsc::SyncSender<Message>) {
    let visit = |s: &Solution| match tx.send(Message::Solution(s.options().to_vec())) {
        Ok(()) => ControlFlow::Continue(()),
        Err(_) => ControlFlow::Break(()),
    };
    // `Solver` runs Algorithm M itself on multiplicities. One visit runs
    // to the end, so a large exact cover's solutions may come from the
    // rest its forced moves leave.
    let mut s = Solver::new(problem).limits(limits).resumable(false);
    let (outcome, nodes) = (s.for_each(visit), s.stats().nodes);
    let _ = tx.send(Message::End(outcome, nodes));
}

/// A lazy iterator over a problem's solutions (see Problem.solutions).
#[pyclass(module = "exactly")]
pub(crate) struct Solutions {
    pub(crate) problem: Py<Problem>,
    pub(crate) rx: Option<mpsc::Receiver<Message>>,
    pub(crate) cancel: Arc<AtomicBool>,
    pub(crate) yielded: u128,
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
