//! Criterion benchmarks `count/<instance>/<solver>`: every solution of each
//! bundled instance counted by `exactly`, `xcov` and `dlx`, each iteration
//! asserting the count.
//!
//! ```text
//! cargo bench --bench count                       # all
//! cargo bench --bench count -- count/queens-13/   # one instance
//! cargo bench --bench count -- --test             # smoke test: one run of each
//! ```

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use exactly_bench::{
    golden_counts, testdata_dir, Instance, Outcome, SolverKind, DEFAULT_INSTANCES,
};

fn count(c: &mut Criterion) {
    let dir = testdata_dir();
    let golden = golden_counts(&dir).expect("golden.tsv is readable");
    for name in DEFAULT_INSTANCES {
        let instance = Instance::load(&dir.join(format!("{name}.dlx"))).expect("instance parses");
        let mut group = c.benchmark_group(format!("count/{}", instance.name));
        group.sample_size(10);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(5));
        // The count in golden.tsv, or else what `exactly` finds.
        let expected = golden
            .get(name)
            .map(|&n| Outcome::Count(n))
            .unwrap_or_else(|| instance.count(SolverKind::Exactly));
        for solver in SolverKind::ALL {
            if instance.unsupported_by(solver).is_some() {
                continue;
            }
            group.bench_function(solver.name(), |b| {
                b.iter(|| {
                    assert_eq!(
                        instance.count(solver),
                        expected,
                        "{solver} on {}",
                        instance.name
                    )
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, count);
criterion_main!(benches);
