//! Writes the benchmark instances as Knuth-format `.dlx` files.
//!
//! ```text
//! cargo run --release --bin make-instances [DIR]     # DIR defaults to ../testdata
//! ```
//!
//! The encodings are the textbook ones; the counts in the header comments are
//! those of the literature (`testdata/golden.tsv` lists them for the checks).

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let dir = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(exactly_bench::testdata_dir);
    let files = [
        ("queens-13", queens(13)),
        ("queens-14", queens(14)),
        ("pentomino-6x10", pentominoes(6, 10, false)),
        ("pentomino-6x10-symbreak", pentominoes(6, 10, true)),
        ("langford-12", langford(12)),
    ];
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("make-instances: {}: {e}", dir.display());
        std::process::exit(1);
    }
    for (name, text) in files {
        let path = dir.join(format!("{name}.dlx"));
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("make-instances: {}: {e}", path.display());
            std::process::exit(1);
        }
        println!("wrote {}", path.display());
    }
}

/// `n` queens: primary items `r*` and `c*` in organ-pipe order (middle rows
/// and columns first), secondary items `a*` (r+c) and `b*` (r-c+n-1) for the
/// diagonals, those of length 1 omitted.
fn queens(n: usize) -> String {
    let mut s = String::new();
    let count = match n {
        13 => " 73712 solutions.",
        14 => " 365596 solutions.",
        _ => "",
    };
    writeln!(
        s,
        "| {n} queens: rows and columns in organ-pipe order, diagonals secondary.{count}"
    )
    .unwrap();
    let mut order = Vec::with_capacity(n);
    for k in 0..n {
        // n/2, n/2-1, n/2+1, n/2-2, ... (for 13: 6 5 7 4 8 ..., for 14: 7 6 8
        // 5 9 ... 1 13 0)
        let half = k.div_ceil(2);
        let i = if k % 2 == 1 {
            n / 2 - half
        } else {
            n / 2 + half
        };
        order.push(i);
    }
    let mut items: Vec<String> = Vec::new();
    for &i in &order {
        items.push(format!("r{i}"));
        items.push(format!("c{i}"));
    }
    items.push("|".to_string());
    let last = 2 * n - 2;
    for d in 1..last {
        items.push(format!("a{d}"));
    }
    for d in 1..last {
        items.push(format!("b{d}"));
    }
    writeln!(s, "{}", items.join(" ")).unwrap();
    for r in 0..n {
        for c in 0..n {
            let a = r + c;
            let b = r + n - 1 - c;
            write!(s, "r{r} c{c}").unwrap();
            if a != 0 && a != last {
                write!(s, " a{a}").unwrap();
            }
            if b != 0 && b != last {
                write!(s, " b{b}").unwrap();
            }
            s.push('\n');
        }
    }
    s
}

/// Langford pairs for `n`: item `d{i}` for each number, `p{j}` for each of the
/// 2n positions; number `i` at positions `j` and `j+i+1`. Mirror images are
/// both counted.
fn langford(n: usize) -> String {
    let mut s = String::new();
    let count = if n == 12 {
        " 216288 solutions (mirror images counted)."
    } else {
        ""
    };
    writeln!(s, "| Langford pairs, n = {n}.{count}").unwrap();
    let mut items: Vec<String> = (1..=n).map(|i| format!("d{i}")).collect();
    items.extend((1..=2 * n).map(|j| format!("p{j}")));
    writeln!(s, "{}", items.join(" ")).unwrap();
    for i in 1..=n {
        for j in 1..=2 * n {
            let k = j + i + 1;
            if k <= 2 * n {
                writeln!(s, "d{i} p{j} p{k}").unwrap();
            }
        }
    }
    s
}

/// The twelve pentominoes in Conway's names, as (row, column) cells.
const PENTOMINOES: [(char, [(i32, i32); 5]); 12] = [
    ('O', [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]),
    ('P', [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]),
    ('Q', [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3)]),
    ('R', [(0, 1), (0, 2), (1, 0), (1, 1), (2, 1)]),
    ('S', [(0, 2), (0, 3), (1, 0), (1, 1), (1, 2)]),
    ('T', [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)]),
    ('U', [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]),
    ('V', [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]),
    ('W', [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)]),
    ('X', [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]),
    ('Y', [(0, 2), (1, 0), (1, 1), (1, 2), (1, 3)]),
    ('Z', [(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)]),
];

/// The distinct orientations (rotations and reflections) of a piece, each
/// normalised to touch row 0 and column 0 and sorted, in order of discovery.
fn orientations(cells: &[(i32, i32); 5]) -> Vec<[(i32, i32); 5]> {
    let mut out: Vec<[(i32, i32); 5]> = Vec::new();
    let mut shape = *cells;
    for flip in 0..2 {
        if flip == 1 {
            for c in &mut shape {
                *c = (c.0, -c.1);
            }
        }
        for _ in 0..4 {
            for c in &mut shape {
                *c = (c.1, -c.0);
            }
            let r0 = shape.iter().map(|c| c.0).min().unwrap_or(0);
            let c0 = shape.iter().map(|c| c.1).min().unwrap_or(0);
            let mut norm = shape.map(|(r, c)| (r - r0, c - c0));
            norm.sort_unstable();
            if !out.contains(&norm) {
                out.push(norm);
            }
        }
    }
    out
}

fn base36(d: i32) -> char {
    char::from_digit(d as u32, 36).unwrap_or('?')
}

/// The twelve pentominoes in a `rows` × `cols` box: items the pieces, then the
/// cells `rc` (row digit, column digit, base 36). With `symbreak` the X
/// pentomino's centre is confined to the top-left quadrant, which leaves one
/// solution of each class under the box's four symmetries.
fn pentominoes(rows: i32, cols: i32, symbreak: bool) -> String {
    let mut s = String::new();
    let what = if symbreak {
        ", X centre confined to the top-left quadrant"
    } else {
        ""
    };
    let count = match (rows, cols, symbreak) {
        (6, 10, false) => " 9356 solutions.",
        (6, 10, true) => " 2339 solutions.",
        _ => "",
    };
    writeln!(
        s,
        "| The twelve pentominoes in a {rows}x{cols} box{what}.{count}"
    )
    .unwrap();
    let mut items: Vec<String> = PENTOMINOES.iter().map(|(n, _)| n.to_string()).collect();
    for r in 0..rows {
        for c in 0..cols {
            items.push(format!("{}{}", base36(r), base36(c)));
        }
    }
    writeln!(s, "{}", items.join(" ")).unwrap();
    for (name, cells) in &PENTOMINOES {
        for shape in orientations(cells) {
            let h = shape.iter().map(|c| c.0).max().unwrap_or(0) + 1;
            let w = shape.iter().map(|c| c.1).max().unwrap_or(0) + 1;
            for dr in 0..=rows - h {
                for dc in 0..=cols - w {
                    // The X is its own only orientation; its centre is at (1, 1).
                    if symbreak && *name == 'X' && (2 * (dr + 1) >= rows || 2 * (dc + 1) >= cols) {
                        continue;
                    }
                    write!(s, "{name}").unwrap();
                    for &(r, c) in &shape {
                        write!(s, " {}{}", base36(r + dr), base36(c + dc)).unwrap();
                    }
                    s.push('\n');
                }
            }
        }
    }
    s
}
