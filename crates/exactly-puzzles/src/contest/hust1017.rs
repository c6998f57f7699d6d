//! HUST 1017 *Exact cover*.
//!
//! Input: cases until the end of the input, each `N M` (rows and columns of
//! a 0/1 matrix) followed by `N` rows `c j1 ... jc`: the number of ones of
//! the row, then their columns (1-based). Numbers are read as a stream, so
//! line breaks may fall anywhere.
//!
//! Output: one line per case, `k r1 ... rk`: the number of rows chosen, then
//! the rows (1-based, ascending), so that every column has a one in exactly
//! one of them; `NO` when there is no such choice. With several choices, the
//! first the solver finds.
//!
//! ```
//! let text = "6 7\n3 1 4 7\n2 1 4\n3 4 5 7\n3 3 5 6\n4 2 3 6 7\n2 2 7\n2 2\n1 1\n1 1\n";
//! let answers = exactly_puzzles::contest::hust1017::answers(text);
//! assert_eq!(answers[0].as_deref(), Ok("3 2 4 6\n"));
//! assert_eq!(answers[1].as_deref(), Ok("NO\n"));
//! ```

use std::collections::HashSet;

use exactly::{ColorId, Limits, ProblemBuilder, Solver};

use super::{Answer, ContestError, Token, Tokens};

/// The largest `N` or `M` accepted (the judge's bound is 1000). Memory is
/// allocated only for what the input holds, whatever the header says.
pub const MAX_SIZE: u64 = u32::MAX as u64;

/// One case: its header token, the column count, and each row's columns
/// (0-based).
struct Case<'a> {
    header: Token<'a>,
    columns: u64,
    rows: Vec<Vec<u32>>,
}

/// Reads one case; an error in a row's columns (out of range, repeated)
/// is returned with the case read to its end, so the next case can follow.
fn read<'a>(tokens: &mut Tokens<'a>) -> Result<(Case<'a>, Option<ContestError>), ContestError> {
    let (header, rows) = tokens.number("the number of rows N", 0, MAX_SIZE)?;
    let (_, columns) = tokens.number("the number of columns M", 0, MAX_SIZE)?;
    // Each row takes at least one number: a header claiming more rows than
    // numbers follow is refused before anything is allocated.
    tokens.ensure_backed(&header, rows, |left| {
        format!("the case announces {rows} rows, but only {left} numbers follow")
    })?;
    let mut case = Case {
        header,
        columns,
        rows: Vec::with_capacity(rows as usize),
    };
    let mut problem = None;
    for r in 1..=rows {
        let what = format!("the number of ones of row {r}");
        let (count_token, count) = tokens.number(&what, 0, columns)?;
        tokens.ensure_backed(&count_token, count, |left| {
            format!("row {r} announces {count} ones, but only {left} numbers follow")
        })?;
        let mut row: Vec<u32> = Vec::with_capacity(count as usize);
        // The columns of the row so far, to find one given twice in one
        // step (a scan of the row would make a long row quadratic).
        let mut seen: HashSet<u32> = HashSet::with_capacity(count as usize);
        for _ in 0..count {
            let token = tokens.peek();
            let (token, c) = match tokens.number("a column number", 1, columns.max(1)) {
                Ok(found) => found,
                // A number out of range: the case goes on to its end.
                Err(e) if token.is_some_and(|t| t.text.bytes().all(|b| b.is_ascii_digit())) => {
                    problem.get_or_insert(e);
                    continue;
                }
                Err(e) => return Err(e),
            };
            // In range: `c <= columns <= u32::MAX`.
            let c = (c - 1) as u32;
            exactly::work::add(1);
            if !seen.insert(c) {
                problem.get_or_insert(ContestError::bad(
                    token.line,
                    token.column,
                    format!("column {} appears twice in row {r}", c + 1),
                ));
            }
            row.push(c);
        }
        case.rows.push(row);
    }
    Ok((case, problem))
}

/// Solves one case: the line of its answer.
fn solve(case: &Case<'_>, limits: &Limits) -> Answer {
    let at = |message: String| ContestError::bad(case.header.line, case.header.column, message);
    // A column no row has a one in cannot be covered; past that check the
    // columns are no more than the numbers of the input.
    if case.columns == 0 {
        // Nothing to cover: the empty choice.
        return Ok("0\n".to_string());
    }
    let mut used: Vec<u32> = case.rows.iter().flatten().copied().collect();
    used.sort_unstable();
    used.dedup();
    if (used.len() as u64) < case.columns {
        return Ok("NO\n".to_string());
    }
    let mut b: ProblemBuilder<usize> = ProblemBuilder::new();
    let entries = case.rows.iter().map(Vec::len).sum();
    b.reserve(used.len(), case.rows.len(), entries);
    let mut items = Vec::with_capacity(used.len());
    for c in 1..=case.columns {
        items.push(b.primary(&c.to_string()).map_err(|e| at(e.to_string()))?);
    }
    for (r, row) in case.rows.iter().enumerate() {
        if row.is_empty() {
            continue;
        }
        let entries = row.iter().map(|&c| (items[c as usize], ColorId::NONE));
        b.add_option(r + 1, entries)
            .map_err(|e| at(e.to_string()))?;
    }
    let problem = b.build().map_err(|e| at(e.to_string()))?;
    let found = Solver::new(&problem)
        .limits(limits.clone())
        .first()
        .map_err(|e| ContestError::stopped(case.header.line, case.header.column, Some(e)))?;
    Ok(match found {
        None => "NO\n".to_string(),
        Some(solution) => {
            let mut rows: Vec<usize> = solution
                .options()
                .iter()
                .map(|&o| *problem.label(o))
                .collect();
            rows.sort_unstable();
            let mut line = rows.len().to_string();
            for r in rows {
                line.push(' ');
                line.push_str(&r.to_string());
            }
            line.push('\n');
            line
        }
    })
}

/// Every case's answer, in order. Reading stops at a number that is
/// missing or not a number, since what follows cannot be framed.
pub fn answers(text: &str) -> Vec<Answer> {
    answers_within(text, &Limits::default())
}

/// [`answers`] with a budget for each case's search
/// ([`super::answers_within`]).
pub fn answers_within(text: &str, limits: &Limits) -> Vec<Answer> {
    let mut tokens = Tokens::new(text);
    let mut out = Vec::new();
    while !tokens.is_empty() {
        match read(&mut tokens) {
            Ok((_, Some(e))) => out.push(Err(e)),
            Ok((case, None)) => out.push(solve(&case, limits)),
            Err(e) => {
                out.push(Err(e));
                break;
            }
        }
    }
    out
}
