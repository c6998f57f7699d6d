//! Builds the diagram of all solutions of a Knuth-format file and prints its
//! size, the count through it, and the build and count times.
//!
//! `cargo run --release -p exactly --example zdd -- FILE...`

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path)?;
        let problem =
            exactly::format::parse_dlx(&text).map_err(|e| e.with_file(&path).to_string())?;
        let start = std::time::Instant::now();
        let zdd = exactly::zdd::ZddBuilder::new(&problem).build()?;
        let built = start.elapsed();
        let start = std::time::Instant::now();
        let count = zdd.count();
        let counted = start.elapsed();
        let stats = zdd.stats();
        println!(
            "{path}: {count} solutions, {} diagram nodes, {} search nodes, {} memos, {} hits, {} bytes; build {:.3} s, count {:.3} ms",
            zdd.len(),
            stats.nodes,
            stats.memos,
            stats.hits,
            stats.bytes,
            built.as_secs_f64(),
            counted.as_secs_f64() * 1e3
        );
    }
    Ok(())
}
