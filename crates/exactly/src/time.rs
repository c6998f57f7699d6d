//! The clock behind time budgets, progress intervals and [`Stats::elapsed`](crate::Stats).
//!
//! On every target with a system clock this is [`std::time::Instant`]. On
//! `wasm32-unknown-unknown` there is no clock in `std` (`Instant::now`
//! panics there), so the host hands one in with [`set_clock`]: a function
//! giving milliseconds from any fixed origin, such as JavaScript's
//! `performance.now()`. Until one is set, time stands still there: elapsed
//! times are zero, time budgets never run out and progress is reported at
//! the first check only.
//!
//! ```
//! let start = exactly::time::Instant::now();
//! let stats = exactly::Solver::new(&exactly::format::parse_dlx("a\na\n")?).count();
//! assert_eq!(stats.solutions, 1);
//! assert!(start.elapsed() < std::time::Duration::from_secs(60));
//! # Ok::<(), exactly::format::ParseError>(())
//! ```

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use wasm::{set_clock, Instant};

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod wasm {
    use std::ops::Sub;
    use std::sync::OnceLock;
    use std::time::Duration;

    static CLOCK: OnceLock<fn() -> f64> = OnceLock::new();

    /// Sets the clock: `now` returns milliseconds since a fixed origin and
    /// never goes back. Only the first call counts.
    pub fn set_clock(now: fn() -> f64) {
        let _ = CLOCK.set(now);
    }

    /// A moment, in milliseconds from the clock's origin.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        /// Now, by the clock set with [`set_clock`] (zero without one).
        pub fn now() -> Instant {
            Instant(CLOCK.get().map_or(0.0, |now| now()))
        }

        /// The time since `self` (zero if the clock went back).
        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }

        /// The time from `earlier` to `self` (zero if `earlier` is later).
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_secs_f64(((self.0 - earlier.0) / 1000.0).max(0.0))
        }
    }

    impl Sub<Duration> for Instant {
        type Output = Instant;

        fn sub(self, d: Duration) -> Instant {
            Instant(self.0 - d.as_secs_f64() * 1000.0)
        }
    }
}
