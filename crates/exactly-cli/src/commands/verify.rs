//! `exactly verify`: check solutions, as `solve` prints them, against a problem.
//!
//! The solutions file holds blocks of option lines separated by blank lines
//! (lines starting with `|` are comments). Each line names an option of the
//! problem by its items, in any order, colors included: `x:red a` matches the
//! option `a x:red`. For the matrix format a line is a row, `k c1 ... ck`.
//! Every block is checked with [`exactly::verify`]; the result is one line per
//! solution on stdout, `ok` or what is wrong.

use std::collections::HashMap;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use anyhow::{bail, Context};
use exactly::{OptionId, VerifyError};

use crate::cli::VerifyArgs;
use crate::input::{self, Format, Input};
use crate::report::{self, Status};

/// A line of the solutions file: its 1-based number and its text.
type Line<'t> = (usize, &'t str);

/// Checks every solution; `Success` when all are valid.
pub fn run(args: &VerifyArgs) -> anyhow::Result<Status> {
    let stdin = Path::new("-");
    if args.problem == stdin && args.solutions == stdin {
        bail!("PROBLEM and SOLUTIONS cannot both be read from standard input");
    }
    let input = input::load(&args.problem, args.input)?;
    super::print_warnings(&input);
    let (name, bytes) = input::read_source(&args.solutions)?;
    let text = input::decode(&name, bytes)?;
    let blocks = blocks(&text);
    if blocks.is_empty() {
        report::message(&format!("{name}: no solutions to verify"));
        return Ok(Status::NoSolution);
    }
    let index = OptionIndex::new(&input);
    let mut out = BufWriter::new(io::stdout().lock());
    let mut all_valid = true;
    for (k, block) in blocks.iter().enumerate() {
        let verdict = match check(&input, &index, block) {
            Ok(()) => "ok".to_string(),
            Err((line, why)) => {
                all_valid = false;
                format!("solution {} ({name}:{line}): {why}", k + 1)
            }
        };
        writeln!(out, "{verdict}").context("cannot write to standard output")?;
    }
    out.flush().context("cannot write to standard output")?;
    Ok(if all_valid {
        Status::Success
    } else {
        Status::NoSolution
    })
}

/// Blocks of non-blank, non-comment lines.
fn blocks(text: &str) -> Vec<Vec<Line<'_>>> {
    let mut blocks = Vec::new();
    let mut block = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() {
            if !block.is_empty() {
                blocks.push(std::mem::take(&mut block));
            }
        } else if !t.starts_with('|') {
            block.push((i + 1, t));
        }
    }
    if !block.is_empty() {
        blocks.push(block);
    }
    blocks
}

/// Options of the problem by their sorted item names (with colors).
struct OptionIndex {
    by_key: HashMap<Vec<String>, Vec<OptionId>>,
    format: Format,
}

impl OptionIndex {
    fn new(input: &Input) -> Self {
        let p = &input.problem;
        let mut by_key: HashMap<Vec<String>, Vec<OptionId>> = HashMap::new();
        for o in p.option_ids() {
            let mut key: Vec<String> = p
                .option(o)
                .iter()
                .map(|e| {
                    if e.color.is_none() {
                        p.item_name(e.item).to_string()
                    } else {
                        format!("{}:{}", p.item_name(e.item), p.color_name(e.color))
                    }
                })
                .collect();
            key.sort_unstable();
            by_key.entry(key).or_default().push(o);
        }
        OptionIndex {
            by_key,
            format: input.format,
        }
    }

    /// The key of a line of the solutions file, if it is well formed.
    fn key(&self, line: &str) -> Option<Vec<String>> {
        let mut key: Vec<String> = match self.format {
            // Cost tokens (`|3`) do not identify an option.
            Format::Dlx => line
                .split_whitespace()
                .filter(|t| !t.starts_with('|'))
                .map(str::to_string)
                .collect(),
            Format::Matrix => {
                let mut toks = line.split_whitespace();
                let ones: usize = toks.next()?.parse().ok()?;
                let columns: Vec<String> = toks
                    .map(|t| t.parse::<u64>().map(|c| c.to_string()))
                    .collect::<Result<_, _>>()
                    .ok()?;
                if columns.len() != ones {
                    return None;
                }
                columns
            }
        };
        key.sort_unstable();
        Some(key)
    }

    /// The options with these items, if any.
    fn lookup(&self, line: &str) -> Option<&[OptionId]> {
        self.by_key.get(&self.key(line)?).map(Vec::as_slice)
    }
}

/// Checks one block; on failure returns the line to point at and why.
fn check(input: &Input, index: &OptionIndex, block: &[Line<'_>]) -> Result<(), (usize, String)> {
    let p = &input.problem;
    let first_line = block.first().map_or(0, |&(n, _)| n);
    let mut chosen: Vec<OptionId> = Vec::with_capacity(block.len());
    let mut line_of: HashMap<OptionId, usize> = HashMap::new();
    for &(n, text) in block {
        let Some(ids) = index.lookup(text) else {
            return Err((n, format!("no option of the problem matches '{text}'")));
        };
        // Identical options are interchangeable: take one not chosen yet.
        let id = ids
            .iter()
            .copied()
            .find(|o| !chosen.contains(o))
            .or_else(|| ids.first().copied());
        let Some(id) = id else {
            return Err((n, format!("no option of the problem matches '{text}'")));
        };
        line_of.entry(id).or_insert(n);
        chosen.push(id);
    }
    let describe = |o: usize| -> String {
        let id = OptionId::new(o);
        match (p.labels().get(o), line_of.get(&id)) {
            (Some(label), Some(line)) => format!("'{label}' (line {line})"),
            (Some(label), None) => format!("'{label}'"),
            _ => format!("option #{o}"),
        }
    };
    exactly::verify(p, &chosen).map_err(|e| match e {
        VerifyError::RepeatedOption(o) => (
            first_line,
            format!("option {} is chosen twice", describe(o)),
        ),
        VerifyError::ColorClash {
            item,
            first,
            second,
        } => (
            first_line,
            format!(
                "secondary item '{item}' is covered by {} and {}, which do not share a color",
                describe(first),
                describe(second)
            ),
        ),
        other => (first_line, other.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::InputFormat;

    fn verdicts(
        problem: &str,
        format: InputFormat,
        solutions: &str,
    ) -> Vec<Result<(), (usize, String)>> {
        let input = input::parse("p", problem, format).unwrap();
        let index = OptionIndex::new(&input);
        blocks(solutions)
            .iter()
            .map(|b| check(&input, &index, b))
            .collect()
    }

    #[test]
    fn blocks_split_on_blank_lines() {
        let b = blocks("\n| c\na b\n c \n\n\n| x\nd\n");
        assert_eq!(b, [vec![(3, "a b"), (4, "c")], vec![(8, "d")]]);
        assert!(blocks("\n\n| only comments\n").is_empty());
    }

    #[test]
    fn matches_options_by_items_and_colors() {
        let problem = "a b | x\na x:red\nb x:red\nb x:blue\na |4\n";
        let v = verdicts(
            problem,
            InputFormat::Dlx,
            "x:red a\nx:red b\n\nb a\n\nb x:blue\na x:red\n\na |4\nb\n",
        );
        assert_eq!(v[0], Ok(()));
        assert_eq!(
            v[1],
            Err((4, "no option of the problem matches 'b a'".to_string()))
        );
        assert_eq!(
            v[2],
            Err((
                6,
                "secondary item 'x' is covered by 'b x:blue' (line 6) and 'a x:red' (line 7), \
                 which do not share a color"
                    .to_string()
            ))
        );
        assert_eq!(
            v[3],
            Err((10, "no option of the problem matches 'b'".to_string()))
        );
    }

    #[test]
    fn repeated_and_missing_items() {
        let problem = "a b\na\nb\na b\n";
        let v = verdicts(problem, InputFormat::Dlx, "a\n\na\nb\na\n");
        assert_eq!(
            v[0],
            Err((
                1,
                "primary item 'b' is covered 0 times, but must be covered 1..=1 times".to_string()
            ))
        );
        assert_eq!(
            v[1],
            Err((3, "option 'a' (line 3) is chosen twice".to_string()))
        );
    }

    #[test]
    fn matrix_rows_match_by_columns() {
        let v = verdicts(
            "2 3\n2 1 3\n1 2\n",
            InputFormat::Matrix,
            "2 3 1\n1 02\n\n1 2\n2 1\n",
        );
        assert_eq!(v[0], Ok(()));
        assert_eq!(
            v[1],
            Err((5, "no option of the problem matches '2 1'".to_string()))
        );
    }
}
