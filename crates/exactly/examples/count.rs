//! Counts the solutions of a Knuth-format file and prints the statistics,
//! and with a node budget the time per node.
//!
//! `cargo run --release -p exactly --example count -- FILE [auto|cells|links|bits|masks] [MAX_NODES]`

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or("usage: count FILE [ENGINE] [MAX_NODES]")?;
    let text = std::fs::read_to_string(&path)?;
    let problem = exactly::format::parse_dlx(&text).map_err(|e| e.with_file(&path).to_string())?;
    let engine = match args.next().as_deref() {
        Some("links") => exactly::Engine::Links,
        Some("bits") => exactly::Engine::Bits,
        Some("cells") => exactly::Engine::Cells,
        Some("masks") => exactly::Engine::Masks,
        Some("sparse") => exactly::Engine::Sparse,
        _ => exactly::Engine::Auto,
    };
    let mut limits = exactly::Limits::default();
    if let Some(n) = args.next() {
        limits = limits.max_nodes(n.parse()?);
    }
    // The structure is built on first use: time that apart.
    let mut build = exactly::Solver::new(&problem)
        .engine(engine)
        .limits(exactly::Limits::default().max_nodes(0));
    let start = std::time::Instant::now();
    build.count();
    let built = start.elapsed();
    let mut solver = exactly::Solver::new(&problem).engine(engine).limits(limits);
    let start = std::time::Instant::now();
    let count = solver.count();
    let search = start.elapsed().saturating_sub(built);
    let s = solver.stats();
    println!(
        "{:?}: {} solutions, {} nodes, {} updates, depth {}, {:.3}s ({:?}); building {:.4}s, {:.0} ns a node after",
        s.engine,
        count.solutions,
        s.nodes,
        s.updates,
        s.max_depth,
        s.elapsed.as_secs_f64(),
        count.outcome,
        built.as_secs_f64(),
        search.as_secs_f64() * 1e9 / s.nodes.max(1) as f64,
    );
    Ok(())
}
