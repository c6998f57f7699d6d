//! `exactly contest`: each judge's sample answered byte for byte, harder
//! cases checked against brute forces written here (sharing no code with
//! the engine or the front ends), and bad input refused with its line and
//! column.

use crate::common;

use std::fs;

use common::{root, run};

const CONTESTS: [&str; 6] = [
    "poj3074", "poj3076", "spoj1110", "hust1017", "noip2009", "poj1084",
];

/// Runs `exactly contest NAME -` on `input`; returns status, stdout, stderr.
fn contest(name: &str, input: &str) -> (i32, String, String) {
    let (code, out, err) = run(&["contest", name, "-"], input.as_bytes());
    (code.unwrap_or(-1), out, err)
}

/// Runs a contest whose every case must be answered.
fn answered(name: &str, input: &str) -> String {
    let (code, out, err) = contest(name, input);
    assert_eq!(code, 0, "{name}: {err}");
    assert!(err.is_empty(), "{name}: {err}");
    out
}

fn sample(name: &str) -> (String, String) {
    let dir = root().join("testdata/contest").join(name);
    let read = |file: &str| {
        fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{name}/{file}: {e}"))
    };
    (read("sample.in"), read("sample.out"))
}

#[test]
fn samples_are_answered_byte_for_byte() {
    for name in CONTESTS {
        let (input, expected) = sample(name);
        // From the file.
        let path = format!("testdata/contest/{name}/sample.in");
        let (code, out, err) = run(&["contest", name, &path], b"");
        assert_eq!(code, Some(0), "{name}: {err}");
        assert_eq!(out, expected, "{name} from the file");
        // From standard input.
        assert_eq!(answered(name, &input), expected, "{name} from stdin");
    }
}

#[test]
fn line_ends_trailing_blanks_and_a_missing_final_newline_change_nothing() {
    for name in CONTESTS {
        let (input, expected) = sample(name);
        let crlf = input.replace('\n', "\r\n");
        let trailing = input.replace('\n', " \t\n");
        let unterminated = input.trim_end().to_string();
        let leading_blank = format!("\n{input}\n\n");
        for variant in [crlf, trailing, unterminated, leading_blank] {
            assert_eq!(answered(name, &variant), expected, "{name}: {variant:?}");
        }
    }
    // A missing 'end' is read as the end of the input.
    let (input, expected) = sample("poj3074");
    assert_eq!(answered("poj3074", &input.replace("end\n", "")), expected);
    // The number formats are streams: line breaks may fall anywhere.
    for name in ["hust1017", "noip2009", "poj1084"] {
        let (input, expected) = sample(name);
        let one_line = input.split_whitespace().collect::<Vec<_>>().join(" ");
        let one_a_line = input.split_whitespace().collect::<Vec<_>>().join("\n");
        assert_eq!(answered(name, &one_line), expected, "{name}");
        assert_eq!(answered(name, &one_a_line), expected, "{name}");
    }
}

#[test]
fn several_grids_are_separated_as_each_judge_asks() {
    let (grid, solved) = sample("poj3076");
    // POJ 3076: a blank line between grids, none after the last.
    let out = answered("poj3076", &format!("{grid}\n{grid}\n\n{grid}"));
    assert_eq!(out, format!("{solved}\n{solved}\n{solved}"));
    // SPOJ: each grid followed by a blank line.
    let out = answered("spoj1110", &format!("3\n\n{grid}\n{grid}\n{grid}"));
    assert_eq!(out, format!("{solved}\n{solved}\n{solved}\n"));
}

/// A small deterministic random source (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// A random solved sudoku with `b`×`b` boxes, values 1..=b², row-major:
/// the shifted pattern, then symbols, rows within bands, bands, columns
/// within stacks and stacks permuted at random.
fn solved_grid(b: usize, rng: &mut Rng) -> Vec<u8> {
    let n = b * b;
    let mut symbols: Vec<u8> = (1..=n as u8).collect();
    rng.shuffle(&mut symbols);
    let order = |rng: &mut Rng| {
        let mut bands: Vec<usize> = (0..b).collect();
        rng.shuffle(&mut bands);
        let mut out = Vec::new();
        for band in bands {
            let mut inner: Vec<usize> = (0..b).collect();
            rng.shuffle(&mut inner);
            out.extend(inner.into_iter().map(|i| band * b + i));
        }
        out
    };
    let rows = order(rng);
    let cols = order(rng);
    let mut grid = vec![0; n * n];
    for r in 0..n {
        for c in 0..n {
            let (pr, pc) = (rows[r], cols[c]);
            grid[r * n + c] = symbols[(b * (pr % b) + pr / b + pc) % n];
        }
    }
    grid
}

/// Whether `solved` is a sudoku solution (`b`×`b` boxes) keeping the
/// givens of `puzzle` (0 blank).
fn is_completion(b: usize, puzzle: &[u8], solved: &[u8]) -> bool {
    let n = b * b;
    if solved.len() != n * n {
        return false;
    }
    if puzzle.iter().zip(solved).any(|(&p, &s)| p != 0 && p != s) {
        return false;
    }
    let full = |cells: Vec<u8>| {
        let mut seen = vec![false; n + 1];
        cells.into_iter().all(|v| {
            (1..=n).contains(&usize::from(v)) && !std::mem::replace(&mut seen[usize::from(v)], true)
        })
    };
    (0..n).all(|i| {
        let box_r = i / b * b;
        let box_c = i % b * b;
        full((0..n).map(|j| solved[i * n + j]).collect())
            && full((0..n).map(|j| solved[j * n + i]).collect())
            && full(
                (0..n)
                    .map(|j| solved[(box_r + j / b) * n + box_c + j % b])
                    .collect(),
            )
    })
}

/// `grid` with `blanks` random cells emptied.
fn with_blanks(grid: &[u8], blanks: usize, rng: &mut Rng) -> Vec<u8> {
    let mut cells: Vec<usize> = (0..grid.len()).collect();
    rng.shuffle(&mut cells);
    let mut puzzle = grid.to_vec();
    for &c in &cells[..blanks] {
        puzzle[c] = 0;
    }
    puzzle
}

#[test]
fn poj3074_answers_are_completions_of_their_puzzles() {
    let mut rng = Rng(0x3074);
    let puzzles: Vec<Vec<u8>> = (0..200)
        .map(|i| with_blanks(&solved_grid(3, &mut rng), 40 + i % 25, &mut rng))
        .collect();
    let mut input = String::new();
    for p in &puzzles {
        input.extend(
            p.iter()
                .map(|&v| if v == 0 { '.' } else { char::from(b'0' + v) }),
        );
        input.push('\n');
    }
    input.push_str("end\n");
    let out = answered("poj3074", &input);
    let lines: Vec<&str> = out.split('\n').collect();
    assert_eq!(
        lines.len(),
        puzzles.len() + 1,
        "one line each, then the final line end"
    );
    for (p, line) in puzzles.iter().zip(&lines) {
        let solved: Vec<u8> = line.bytes().map(|c| c.wrapping_sub(b'0')).collect();
        assert!(is_completion(3, p, &solved), "{line}");
    }
}

#[test]
fn sixteen_by_sixteen_answers_are_completions_of_their_puzzles() {
    let mut rng = Rng(0x3076);
    let puzzles: Vec<Vec<u8>> = (0..12)
        .map(|i| with_blanks(&solved_grid(4, &mut rng), 120 + 10 * i, &mut rng))
        .collect();
    let grids: Vec<String> = puzzles
        .iter()
        .map(|p| {
            p.chunks(16)
                .map(|row| {
                    let mut line: String = row
                        .iter()
                        .map(|&v| {
                            if v == 0 {
                                '-'
                            } else {
                                char::from(b'A' + v - 1)
                            }
                        })
                        .collect();
                    line.push('\n');
                    line
                })
                .collect()
        })
        .collect();
    let read = |text: &str| -> Vec<u8> {
        text.lines()
            .flat_map(|l| l.bytes())
            .map(|c| c.wrapping_sub(b'A') + 1)
            .collect()
    };
    let poj = answered("poj3076", &grids.join("\n"));
    let spoj = answered(
        "spoj1110",
        &format!("{}\n{}", grids.len(), grids.join("\n")),
    );
    let poj_cases: Vec<&str> = poj.trim_end().split("\n\n").collect();
    let spoj_cases: Vec<&str> = spoj.trim_end().split("\n\n").collect();
    assert_eq!(poj_cases.len(), puzzles.len());
    assert_eq!(spoj_cases, poj_cases);
    for (p, case) in puzzles.iter().zip(&poj_cases) {
        assert!(is_completion(4, p, &read(case)), "{case}");
    }
}

/// Every exact cover of `rows` over `columns` columns (1-based), by trying
/// every subset of rows.
fn brute_exact_covers(columns: usize, rows: &[Vec<usize>]) -> Vec<u32> {
    (0u32..1 << rows.len())
        .filter(|&set| {
            let mut count = vec![0; columns + 1];
            for (r, row) in rows.iter().enumerate() {
                if set >> r & 1 == 1 {
                    for &c in row {
                        count[c] += 1;
                    }
                }
            }
            count[1..].iter().all(|&k| k == 1)
        })
        .collect()
}

#[test]
fn hust1017_agrees_with_a_brute_force() {
    let mut rng = Rng(0x1017);
    let mut input = String::new();
    let mut cases = Vec::new();
    let mut solvable = 0;
    for _ in 0..400 {
        let columns = 1 + rng.below(7);
        let mut rows: Vec<Vec<usize>> = Vec::new();
        // Plant a cover half the time: a random partition of the columns.
        if rng.below(2) == 0 {
            let mut cols: Vec<usize> = (1..=columns).collect();
            rng.shuffle(&mut cols);
            let mut rest = &cols[..];
            while !rest.is_empty() {
                let take = 1 + rng.below(rest.len());
                rows.push(rest[..take].to_vec());
                rest = &rest[take..];
            }
        }
        while rows.len() < 1 + rng.below(11) {
            let row: Vec<usize> = (1..=columns).filter(|_| rng.below(3) == 0).collect();
            if !row.is_empty() {
                rows.push(row);
            }
        }
        rng.shuffle(&mut rows);
        input.push_str(&format!("{} {columns}\n", rows.len()));
        for row in &rows {
            let mut row = row.clone();
            rng.shuffle(&mut row);
            let cols: Vec<String> = row.iter().map(ToString::to_string).collect();
            input.push_str(&format!("{} {}\n", row.len(), cols.join(" ")));
        }
        let covers = brute_exact_covers(columns, &rows);
        solvable += usize::from(!covers.is_empty());
        cases.push((rows, covers));
    }
    assert!(solvable > 100 && solvable < 380, "{solvable}");
    let out = answered("hust1017", &input);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), cases.len());
    for ((rows, covers), line) in cases.iter().zip(&lines) {
        if covers.is_empty() {
            assert_eq!(*line, "NO", "{rows:?}");
            continue;
        }
        let numbers: Vec<usize> = line
            .split(' ')
            .map(|t| t.parse().expect("a number"))
            .collect();
        let (k, chosen) = (numbers[0], &numbers[1..]);
        assert_eq!(k, chosen.len(), "{line}");
        assert!(chosen.windows(2).all(|w| w[0] < w[1]), "ascending: {line}");
        let set = chosen.iter().fold(0u32, |s, &r| s | 1 << (r - 1));
        assert!(covers.contains(&set), "{rows:?}: {line}");
    }
}

/// The fewest sticks of an `n`×`n` grid, besides `missing`, whose removal
/// leaves no square: every set of present sticks, smallest first.
fn brute_square_destroyer(n: usize, missing: &[usize]) -> usize {
    // Sticks numbered as the statement says: each grid line's n horizontal
    // sticks, then the n + 1 vertical sticks of the row below it.
    let horizontal = |line: usize, col: usize| line * (2 * n + 1) + col + 1;
    let vertical = |row: usize, line: usize| row * (2 * n + 1) + n + line + 1;
    let mut squares: Vec<u64> = Vec::new();
    for size in 1..=n {
        for r in 0..=n - size {
            for c in 0..=n - size {
                let mut mask = 0u64;
                for k in 0..size {
                    for stick in [
                        horizontal(r, c + k),
                        horizontal(r + size, c + k),
                        vertical(r + k, c),
                        vertical(r + k, c + size),
                    ] {
                        mask |= 1 << stick;
                    }
                }
                squares.push(mask);
            }
        }
    }
    let gone = missing.iter().fold(0u64, |m, &s| m | 1 << s);
    let present: Vec<usize> = (1..=2 * n * (n + 1))
        .filter(|s| gone >> s & 1 == 0)
        .collect();
    // Subsets of `present` of size k, as masks, by recursion.
    fn some_subset(present: &[usize], k: usize, chosen: u64, squares: &[u64]) -> bool {
        if k == 0 {
            return squares.iter().all(|&s| s & chosen != 0);
        }
        (0..present.len())
            .any(|i| some_subset(&present[i + 1..], k - 1, chosen | 1 << present[i], squares))
    }
    (0..=present.len())
        .find(|&k| some_subset(&present, k, gone, &squares))
        .unwrap_or(present.len())
}

#[test]
fn poj1084_agrees_with_a_brute_force() {
    let mut rng = Rng(0x1084);
    let mut cases = Vec::new();
    for i in 0..60 {
        let n = 1 + i % 3;
        let sticks = 2 * n * (n + 1);
        let missing: Vec<usize> = (0..rng.below(sticks / 2 + 1))
            .map(|_| 1 + rng.below(sticks))
            .collect();
        cases.push((n, missing));
    }
    let mut input = format!("{}\n", cases.len());
    for (n, missing) in &cases {
        let list: Vec<String> = missing.iter().map(ToString::to_string).collect();
        input.push_str(&format!("{n}\n{} {}\n", missing.len(), list.join(" ")));
    }
    let expected: String = cases
        .iter()
        .map(|(n, missing)| format!("{}\n", brute_square_destroyer(*n, missing)))
        .collect();
    assert_eq!(answered("poj1084", &input), expected);
    // The literature: 1, 3 and 6 sticks for the intact 1x1, 2x2 and 3x3 grids.
    assert_eq!(answered("poj1084", "3\n1\n0\n2\n0\n3\n0\n"), "1\n3\n6\n");
}

/// The best target score of a 9x9 puzzle (0 blank) by trying every value
/// in every blank cell, or -1.
fn brute_target(puzzle: &[u8]) -> i64 {
    fn fits(grid: &[u8], cell: usize, v: u8) -> bool {
        let (r, c) = (cell / 9, cell % 9);
        (0..9).all(|j| {
            grid[r * 9 + j] != v
                && grid[j * 9 + c] != v
                && grid[(r / 3 * 3 + j / 3) * 9 + c / 3 * 3 + j % 3] != v
        })
    }
    fn best(grid: &mut Vec<u8>, blanks: &[usize]) -> i64 {
        let Some((&cell, rest)) = blanks.split_first() else {
            return (0..81)
                .map(|i| {
                    let (r, c) = (i / 9, i % 9);
                    let ring = r.min(c).min(8 - r).min(8 - c);
                    i64::from(grid[i]) * (6 + ring as i64)
                })
                .sum();
        };
        let mut top = -1;
        for v in 1..=9 {
            if fits(grid, cell, v) {
                grid[cell] = v;
                top = top.max(best(grid, rest));
                grid[cell] = 0;
            }
        }
        top
    }
    // Givens that clash leave no solution.
    let mut grid = puzzle.to_vec();
    for cell in 0..81 {
        let v = grid[cell];
        if v != 0 {
            grid[cell] = 0;
            let ok = fits(&grid, cell, v);
            grid[cell] = v;
            if !ok {
                return -1;
            }
        }
    }
    let blanks: Vec<usize> = (0..81).filter(|&i| grid[i] == 0).collect();
    best(&mut grid, &blanks)
}

#[test]
fn noip2009_agrees_with_a_brute_force() {
    let mut rng = Rng(0x2009);
    let mut none = 0;
    for i in 0..30 {
        let mut puzzle = with_blanks(&solved_grid(3, &mut rng), 6 + i % 20, &mut rng);
        if i % 5 == 0 {
            // Change a given: often no solution is left.
            let cell = (0..81).find(|&c| puzzle[c] != 0).unwrap_or(0);
            puzzle[cell] = puzzle[cell] % 9 + 1;
        }
        let text: String = puzzle
            .chunks(9)
            .map(|row| {
                let row: Vec<String> = row.iter().map(ToString::to_string).collect();
                row.join(" ") + "\n"
            })
            .collect();
        let want = brute_target(&puzzle);
        none += usize::from(want == -1);
        assert_eq!(answered("noip2009", &text), format!("{want}\n"), "{text}");
    }
    assert!(none > 0);
}

#[test]
fn bad_input_names_its_line_and_column() {
    let grid16 = sample("poj3076").0;
    let cases: Vec<(&str, String, &str)> = vec![
        // A short line, a bad character, a word after the puzzle.
        ("poj3074", "123\nend\n".into(), "<stdin>:1:4: expected 81 cells ('1'-'9' or '.'), the line ends after 3"),
        ("poj3074", format!("{}x\nend\n", ".".repeat(80)), "<stdin>:1:81: expected a cell ('1'-'9' or '.'), found 'x'"),
        ("poj3074", format!("{}\nend\n", ".".repeat(82)), "<stdin>:1:82: expected 81 cells ('1'-'9' or '.'), found more"),
        ("poj3074", format!("{} 1\n", ".".repeat(81)), "<stdin>:1:83: expected one puzzle of 81 characters on the line, found another word '1'"),
        ("poj3074", format!("{}\nend\nmore\n", ".".repeat(81)), "<stdin>:3:1: unexpected 'more' after 'end' on line 2"),
        // A bad letter, a short grid, a long one.
        ("poj3076", grid16.replacen("K---J", "K---Q", 1), "<stdin>:13:5: expected a cell ('A'-'P' or '-'), found 'Q'"),
        ("poj3076", grid16.lines().take(15).collect::<Vec<_>>().join("\n"), "<stdin>:16:1: expected 16 rows in the grid starting on line 1, found 15 (a blank line or the end of the input)"),
        ("poj3076", format!("{grid16}A\n"), "<stdin>:17:1: expected a blank line after the 16 rows of the grid starting on line 1"),
        // T larger than the grids present, smaller, not a number.
        ("spoj1110", format!("2\n{grid16}"), "<stdin>:17:17: the first line announces 2 grids, but the input ends after 1"),
        ("spoj1110", format!("1\n{grid16}\n{grid16}"), "<stdin>:19:1: a grid past the 1 announced on line 1"),
        ("spoj1110", format!("x\n{grid16}"), "<stdin>:1:1: expected the number of grids, a non-negative integer, found 'x'"),
        // Row indices out of range, repeated, missing; huge sizes.
        ("hust1017", "2 3\n1 4\n1 1\n".into(), "<stdin>:2:3: a column number must be between 1 and 3, not 4"),
        ("hust1017", "1 3\n2 2 2\n".into(), "<stdin>:2:5: column 2 appears twice in row 1"),
        ("hust1017", "3 3\n1 1\n".into(), "<stdin>:1:1: the case announces 3 rows, but only 2 numbers follow"),
        ("hust1017", "2 3\n1 1\n".into(), "<stdin>:2:4: expected the number of ones of row 2, found the end of the input"),
        ("hust1017", "1 3\n1\n".into(), "<stdin>:2:1: row 1 announces 1 ones, but only 0 numbers follow"),
        ("hust1017", "1000000000000 1000000000000\n".into(), "<stdin>:1:1: the number of rows N must be between 0 and 4294967295, not 1000000000000"),
        ("hust1017", "1 4000000000\n1 1\n".into(), "at least not allocated"),
        ("hust1017", "1 3\n1 x\n".into(), "<stdin>:2:3: expected a column number, a non-negative integer, found 'x'"),
        // T larger than the cases present; a stick out of range; n too large.
        ("poj1084", "3\n2\n0\n".into(), "<stdin>:3:2: the first number announces 3 cases, but the input ends after 1"),
        ("poj1084", "1\n1\n1 5\n".into(), "<stdin>:3:3: a stick number must be between 1 and 4, not 5"),
        ("poj1084", "1\n11\n0\n".into(), "<stdin>:2:1: the grid size n must be between 1 and 10, not 11"),
        ("poj1084", "1\n2\n99999999999 1\n".into(), "<stdin>:3:1: 99999999999 missing sticks announced, but only 1 numbers follow"),
        ("poj1084", "1\n1\n0\n7\n".into(), "<stdin>:4:1: expected the end of the input after the 1 cases announced, found '7'"),
        // Too few numbers, too many, a value out of range.
        ("noip2009", "1 2 3\n".into(), "<stdin>:1:6: expected 81 numbers from 0 to 9 (9 lines of 9), the input ends after 3"),
        ("noip2009", format!("{}7\n", "0 ".repeat(81)), "<stdin>:1:163: expected the end of the input after 81 numbers, found '7'"),
        ("noip2009", format!("10 {}", "0 ".repeat(80)), "<stdin>:1:1: a cell must be between 0 and 9, not 10"),
    ];
    for (name, input, message) in cases {
        let (code, out, err) = contest(name, &input);
        if message == "at least not allocated" {
            // 4e9 columns and one row: no cover, answered without
            // allocating the columns.
            assert_eq!((code, out.as_str()), (0, "NO\n"), "{err}");
            continue;
        }
        assert_eq!(code, 2, "{name} {input:?}: {err}");
        let first = err.lines().next().unwrap_or_default();
        assert_eq!(first, format!("exactly: {message}"), "{name} {input:?}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_bad_case_is_reported_and_the_others_answered() {
    let (input, expected) = sample("poj3074");
    let lines: Vec<&str> = input.lines().collect();
    let bad = format!("{}\n{}\n{}\nend\n", lines[0], "1".repeat(81), lines[1]);
    let (code, out, err) = contest("poj3074", &bad);
    assert_eq!(code, 1, "{err}");
    assert_eq!(out, expected);
    assert!(
        err.starts_with("exactly: <stdin>:2:1: the puzzle has no solution: givens clash"),
        "{err}"
    );
    // Empty input: no cases, nothing to print.
    assert_eq!(contest("poj3074", ""), (0, String::new(), String::new()));
    // An empty hust1017 matrix is covered by no rows.
    assert_eq!(answered("hust1017", "0 0\n2 0\n0\n0\n"), "0\n0\n");
    // Not UTF-8.
    let (code, _, err) = run(&["contest", "poj3074", "-"], b"\xff\n");
    assert_eq!(code, Some(2));
    assert!(err.contains("<stdin>:1:1: invalid UTF-8"), "{err}");
}

#[test]
fn a_case_out_of_budget_gets_no_answer_and_status_3() {
    // An empty target sudoku needs a search of every grid: 1,000 nodes
    // cannot prove its best score.
    let empty = "0 0 0 0 0 0 0 0 0\n".repeat(9);
    let (code, out, err) = run(
        &["contest", "noip2009", "--max-nodes", "1000", "-"],
        empty.as_bytes(),
    );
    assert_eq!(code, Some(3), "{err}");
    assert_eq!(out, "");
    assert!(err.contains("<stdin>:1:1: the search stopped"), "{err}");
    // A budget each case can meet changes nothing, case by case.
    for name in ["poj3074", "hust1017", "poj1084"] {
        let (input, expected) = sample(name);
        let (code, out, err) = run(
            &[
                "contest",
                name,
                "--max-nodes",
                "1000000",
                "--timeout",
                "60",
                "-",
            ],
            input.as_bytes(),
        );
        assert_eq!((code, out), (Some(0), expected), "{name}: {err}");
    }
    // The cases after a stopped one are still tried, each on its own.
    let (input, _) = sample("poj3074");
    let (code, out, err) = run(
        &["contest", "poj3074", "--max-nodes", "1", "-"],
        input.as_bytes(),
    );
    assert_eq!((code, out.as_str()), (Some(3), ""), "{err}");
    assert!(err.contains("<stdin>:1:1: the search stopped"), "{err}");
    assert!(err.contains("<stdin>:2:1: the search stopped"), "{err}");
}
