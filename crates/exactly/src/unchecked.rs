//! Unchecked indexing for the search's hot loops. With the two calls in
//! `solver/search.rs` into searches compiled for the CPU's features, the
//! only `unsafe` in the crate (DESIGN.md, "Safety").
//!
//! PERF: `cargo run --release -p exactly --example count` on
//! testdata/pentomino-6x10.dlx, and the benchmark in `bench/` on every
//! instance, run faster since the hide loops stopped checking bounds (the
//! figures: DESIGN.md, "Safety").
//!
//! The structures index their own arrays with values they stored
//! themselves when they were built from a validated [`Problem`]: every link,
//! item number, set position and trail entry is an index into the array it
//! is used with, and the search only permutes such values. Debug builds
//! (and so the test suite, whose profile keeps debug assertions) check every
//! access; the `debug-checks` feature also re-checks whole structures after
//! every backtrack.
//!
//! [`Problem`]: crate::Problem

/// Slice access by `u32` index without bounds checks in release builds.
pub(crate) trait At<T: Copy> {
    /// The element at `i`, which must be in bounds.
    fn at(&self, i: u32) -> T;
    /// The element at `i`, mutably; `i` must be in bounds.
    fn at_mut(&mut self, i: u32) -> &mut T;
    /// The elements from `i` on; `i` must be at most the length.
    fn from(&self, i: u32) -> &[T];
}

impl<T: Copy> At<T> for [T] {
    #[inline(always)]
    fn at(&self, i: u32) -> T {
        debug_assert!((i as usize) < self.len(), "index {i} out of {}", self.len());
        // SAFETY: callers pass indices that the structure stored itself and
        // that are in bounds by construction (see the module docs); debug
        // builds assert it above.
        #[allow(unsafe_code)]
        unsafe {
            *self.get_unchecked(i as usize)
        }
    }

    #[inline(always)]
    fn at_mut(&mut self, i: u32) -> &mut T {
        debug_assert!((i as usize) < self.len(), "index {i} out of {}", self.len());
        // SAFETY: as for `at`.
        #[allow(unsafe_code)]
        unsafe {
            self.get_unchecked_mut(i as usize)
        }
    }

    #[inline(always)]
    fn from(&self, i: u32) -> &[T] {
        debug_assert!((i as usize) <= self.len(), "index {i} past {}", self.len());
        // SAFETY: as for `at`.
        #[allow(unsafe_code)]
        unsafe {
            self.get_unchecked(i as usize..)
        }
    }
}

/// Whether the processor has the `popcnt` instruction, which the bitset
/// representation's innermost loop uses to count bits (the baseline x86-64
/// target lacks it): [`crate::Solver`] then runs that search compiled with
/// it.
///
/// PERF: `examples/count` with `bits` on langford-12, queens-13 and
/// pentomino 6x10 runs faster with `popcnt` than with the portable bit
/// count (the figures: DESIGN.md, "Safety").
#[cfg(target_arch = "x86_64")]
pub(crate) fn has_popcnt() -> bool {
    std::arch::is_x86_feature_detected!("popcnt")
}

/// Whether the processor has AVX2 and the bit-manipulation instructions
/// (BMI1, BMI2, POPCNT, LZCNT): [`crate::Solver`] then runs the item-mask
/// search compiled with them.
#[cfg(target_arch = "x86_64")]
pub(crate) fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("lzcnt")
}

/// The position of the first of `cells` below `limit`, all of them
/// compared as signed numbers (each must be below `i32::MAX`, and so must
/// `limit`), looked for 16 at a time with AVX2; `None` if there is none.
/// `cells` holds a multiple of 16. The outer `None`: the processor lacks
/// AVX2, and the caller looks portably.
///
/// PERF: two comparisons and two mask moves a block, where the portable
/// loop (which the compiler turns into a comparison and a shift a cell)
/// took a quarter of the instructions of a 64x64 sudoku's search by item
/// masks (DESIGN.md, "Item masks").
#[inline(always)]
pub(crate) fn first_below_avx2(cells: &[u32], limit: u32) -> Option<Option<usize>> {
    debug_assert!(cells.len() % 16 == 0);
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        #[allow(unsafe_code)]
        return Some(unsafe { first_below_avx2_with(cells, limit) });
    }
    let _ = (cells, limit);
    None
}

/// [`first_below_avx2`], compiled with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
#[allow(unsafe_code)]
unsafe fn first_below_avx2_with(cells: &[u32], limit: u32) -> Option<usize> {
    use std::arch::x86_64::{
        __m256i, _mm256_castsi256_ps, _mm256_cmpgt_epi32, _mm256_loadu_si256, _mm256_movemask_ps,
        _mm256_set1_epi32,
    };
    let l = _mm256_set1_epi32(limit as i32);
    for (b, block) in cells.chunks_exact(16).enumerate() {
        // SAFETY: each block holds 16 `u32`s, two unaligned loads of 8.
        let (lo, hi) = unsafe {
            (
                _mm256_loadu_si256(block.as_ptr().cast::<__m256i>()),
                _mm256_loadu_si256(block.as_ptr().add(8).cast::<__m256i>()),
            )
        };
        let lo = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(l, lo))) as u32;
        let hi = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(l, hi))) as u32;
        let hit = lo | hi << 8;
        if hit != 0 {
            return Some(b * 16 + hit.trailing_zeros() as usize);
        }
    }
    None
}
