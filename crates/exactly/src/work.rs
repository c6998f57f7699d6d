//! A count of the elementary steps the readers and checkers take (characters
//! scanned, entries checked, options looked up), per thread.
//!
//! Tests use it to show that reading and verifying grow linearly with the
//! input: the count is exact and repeatable where wall time is noisy. It is
//! not used by the search, whose own statistics are in
//! [`Stats`](crate::Stats).
//!
//! ```
//! let before = exactly::work::steps();
//! exactly::format::parse_dlx("a b\na\nb\n")?;
//! assert!(exactly::work::steps() > before);
//! # Ok::<(), exactly::format::ParseError>(())
//! ```

use std::cell::Cell;

thread_local! {
    static STEPS: Cell<u64> = const { Cell::new(0) };
}

/// The steps counted on this thread so far.
pub fn steps() -> u64 {
    STEPS.with(Cell::get)
}

/// Counts `n` more steps on this thread (for readers outside this crate).
///
/// ```
/// let before = exactly::work::steps();
/// exactly::work::add(3);
/// assert_eq!(exactly::work::steps(), before + 3);
/// ```
pub fn add(n: u64) {
    STEPS.with(|s| s.set(s.get().wrapping_add(n)));
}
