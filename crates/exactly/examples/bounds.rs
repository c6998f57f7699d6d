//! Measures what the lower bounds save: the cheapest solution of a
//! Knuth-format file with and without the branch-and-bound estimate, and the
//! minimum cover with and without the IDA* estimate.
//!
//! `cargo run --release -p exactly --example bounds -- FILE [K] [cover]`

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: bounds FILE [K] [cover]")?;
    let k: usize = std::env::args().nth(2).map_or(Ok(1), |s| s.parse())?;
    let cover = std::env::args().nth(3).as_deref() == Some("cover");
    let text = std::fs::read_to_string(&path)?;
    let problem = exactly::format::parse_dlx(&text).map_err(|e| e.with_file(&path).to_string())?;
    for on in [true, false] {
        let label = if on { "with" } else { "without" };
        if cover {
            let mut solver = exactly::mincover::MinCover::new(&problem)
                .weighted(problem.has_costs())
                .estimate(on);
            let (best, outcome) = solver.solve();
            let s = solver.stats();
            println!(
                "cover {label} estimate: minimum {:?}, {} nodes, {} iterations, {:.3}s ({outcome:?})",
                best.map(|b| b.cost),
                s.nodes,
                solver.iterations(),
                s.elapsed.as_secs_f64()
            );
        } else {
            let mut solver = exactly::multi::CostSolver::new(&problem).bound(on);
            let (best, outcome) = solver.best(k);
            let s = solver.stats();
            let costs: Vec<u128> = best.iter().map(|b| b.cost).collect();
            println!(
                "costs {label} bound: best {costs:?}, {} nodes, {} updates, {:.3}s ({outcome:?})",
                s.nodes,
                s.updates,
                s.elapsed.as_secs_f64()
            );
        }
    }
    Ok(())
}
