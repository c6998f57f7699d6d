//! The memory of a search grows linearly with the problem: `count` on `k|a`
//! with `k` copies of option `a` (a path `k` levels deep, each level with up
//! to `k` candidates) once kept a copy of every level's candidates, memory
//! quadratic in `k`. The bytes allocated are counted by a global allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// A global allocator can only be written with `unsafe`; this one is a
// test's instrument and adds no unsafe code to the library.
// SAFETY: every call is forwarded to the system allocator unchanged; the
// counters only observe the sizes.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = NOW.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on to `System`.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        NOW.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on to `System`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most bytes in use at once while counting the solutions of `k|a`
/// with `k` copies of option `a`, above what was in use before the search.
fn peak_of_search(k: usize) -> usize {
    let text = format!("{k}|a\n{}", "a\n".repeat(k));
    let problem = exactly::format::parse_dlx(&text).unwrap();
    drop(text);
    let base = NOW.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let mut solver = exactly::multi::MultiSolver::new(&problem);
    assert_eq!(solver.count().solutions, 1);
    drop(solver);
    PEAK.load(Ordering::Relaxed) - base
}

#[test]
fn memory_of_a_deep_multiplicity_search_is_linear() {
    // One test in this binary: no other thread allocates meanwhile.
    let small = peak_of_search(1000);
    let large = peak_of_search(10_000);
    // Vectors grow by doubling, so linear memory may show up to 20x here;
    // the quadratic layout took 100x.
    assert!(
        large <= 25 * small,
        "10x the options took {:.1}x the memory ({small} -> {large} bytes)",
        large as f64 / small as f64
    );
}
