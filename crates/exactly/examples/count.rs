//! Counts the solutions of a Knuth-format file and prints the statistics.
//!
//! `cargo run --release -p exactly --example count -- FILE [auto|cells|links|bits]`

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: count FILE")?;
    let text = std::fs::read_to_string(&path)?;
    let problem = exactly::format::parse_dlx(&text).map_err(|e| e.with_file(&path).to_string())?;
    let engine = match std::env::args().nth(2).as_deref() {
        Some("links") => exactly::Engine::Links,
        Some("bits") => exactly::Engine::Bits,
        Some("cells") => exactly::Engine::Cells,
        _ => exactly::Engine::Auto,
    };
    let mut solver = exactly::Solver::new(&problem).engine(engine);
    let count = solver.count();
    let s = solver.stats();
    println!(
        "{:?}: {} solutions, {} nodes, {} updates, depth {}, {:.3}s ({:?})",
        s.engine,
        count.solutions,
        s.nodes,
        s.updates,
        s.max_depth,
        s.elapsed.as_secs_f64(),
        count.outcome
    );
    Ok(())
}
