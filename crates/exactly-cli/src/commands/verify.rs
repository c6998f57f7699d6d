//! `exactly verify`: check solutions, as `solve` prints them, against a problem.
//!
//! The solutions file holds blocks of option lines separated by blank lines
//! (lines starting with `|` are comments). Each line names an option of the
//! problem by its items, in any order, colors included: `x:red a` matches the
//! option `a x:red`. For the matrix format a line is a row, `k c1 ... ck`.
//! A row that `solve` labelled ` | line L` (a repeat of an earlier row) reads
//! as its row: what follows the `|` is a remark. The empty solution is the
//! line `| empty solution`, which `solve` prints for it. Lines end as the
//! problem readers say (`\n`, `\r\n` or `\r`). Every block is checked with
//! [`exactly::verify`]; the result is one line per solution on stdout, `ok`
//! or what is wrong. Checking takes time linear in the two files (and
//! `n log n` in the length of a line, whose items are sorted).

use std::collections::HashMap;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use anyhow::{bail, Context};
use exactly::format::{self, escape};
use exactly::{OptionId, VerifyError};

use crate::cli::VerifyArgs;
use crate::input::{self, Format, Input};
use crate::output::EMPTY_SOLUTION;
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
                format!("solution {} ({}:{line}): {why}", k + 1, escape(&name))
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

/// One solution of the solutions file: where it starts and its option lines.
#[derive(Debug, PartialEq, Eq)]
struct Block<'t> {
    first_line: usize,
    lines: Vec<Line<'t>>,
}

/// Blocks of non-blank, non-comment lines, separated by blank lines; the
/// line [`EMPTY_SOLUTION`] makes a block of its own even without options.
fn blocks(text: &str) -> Vec<Block<'_>> {
    let mut blocks = Vec::new();
    let mut block: Option<Block<'_>> = None;
    for (i, line) in format::lines(text).enumerate() {
        let t = line.trim();
        if t.is_empty() {
            blocks.extend(block.take());
            continue;
        }
        let is_option = !t.starts_with('|');
        if is_option || t == EMPTY_SOLUTION {
            let b = block.get_or_insert_with(|| Block {
                first_line: i + 1,
                lines: Vec::new(),
            });
            if is_option {
                b.lines.push((i + 1, t));
            }
        }
    }
    blocks.extend(block);
    blocks
}

/// Options of the problem by their sorted item names (with colors): each key
/// leads to a group of identical options.
struct OptionIndex {
    by_key: HashMap<Vec<String>, usize>,
    groups: Vec<Vec<OptionId>>,
    format: Format,
}

impl OptionIndex {
    fn new(input: &Input) -> Self {
        let p = &input.problem;
        let mut by_key: HashMap<Vec<String>, usize> = HashMap::new();
        let mut groups: Vec<Vec<OptionId>> = Vec::new();
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
            exactly::work::add(key.len() as u64);
            key.sort_unstable();
            let group = *by_key.entry(key).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[group].push(o);
        }
        OptionIndex {
            by_key,
            groups,
            format: input.format,
        }
    }

    /// The key of a line of the solutions file, if it is well formed.
    fn key(&self, line: &str) -> Option<Vec<String>> {
        let toks = format::tokens(line).map(|(_, t)| t);
        let mut key: Vec<String> = match self.format {
            // Cost tokens (`|3`) do not identify an option.
            Format::Dlx => toks
                .filter(|t| !t.starts_with('|'))
                .map(str::to_string)
                .collect(),
            Format::Matrix => {
                // ` | line L` after a row is a remark.
                let mut toks = toks.take_while(|&t| t != "|");
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

    /// The group of options with these items, if any.
    fn lookup(&self, line: &str) -> Option<usize> {
        self.by_key.get(&self.key(line)?).copied()
    }
}

/// Checks one block; on failure returns the line to point at and why.
fn check(input: &Input, index: &OptionIndex, block: &Block<'_>) -> Result<(), (usize, String)> {
    let p = &input.problem;
    let first_line = block.first_line;
    let mut chosen: Vec<OptionId> = Vec::with_capacity(block.lines.len());
    let mut line_of: HashMap<OptionId, usize> = HashMap::new();
    // Per group of identical options: how many this block has taken.
    let mut taken: HashMap<usize, usize> = HashMap::new();
    for &(n, text) in &block.lines {
        exactly::work::add(1);
        let no_match = || {
            (
                n,
                format!("no option of the problem matches '{}'", escape(text)),
            )
        };
        let group = index.lookup(text).ok_or_else(no_match)?;
        let ids = &index.groups[group];
        // Identical options are interchangeable: take one not chosen yet, or
        // the first again when all are (which `verify` reports as chosen twice).
        let used = taken.entry(group).or_default();
        let id = ids
            .get(*used)
            .or(ids.first())
            .copied()
            .ok_or_else(no_match)?;
        *used += 1;
        line_of.entry(id).or_insert(n);
        chosen.push(id);
    }
    let describe = |o: usize| -> String {
        let id = OptionId::new(o);
        match (p.labels().get(o), line_of.get(&id)) {
            (Some(label), Some(line)) => format!("'{}' (line {line})", escape(label)),
            (Some(label), None) => format!("'{}'", escape(label)),
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
                "secondary item '{}' is covered by {} and {}, which do not share a color",
                escape(&item),
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
        let lines: Vec<_> = b.iter().map(|b| (b.first_line, b.lines.clone())).collect();
        assert_eq!(
            lines,
            [(3, vec![(3, "a b"), (4, "c")]), (8, vec![(8, "d")])]
        );
        assert!(blocks("\n\n| only comments\n").is_empty());
        // The empty solution, alone or between others, and CR line ends.
        let b = blocks("a\r\r| empty solution\r\r| c\r\rb\r");
        let lines: Vec<_> = b.iter().map(|b| (b.first_line, b.lines.len())).collect();
        assert_eq!(lines, [(1, 1), (3, 0), (7, 1)]);
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

    /// The steps of checking `solutions` against `problem`.
    fn steps(problem: &str, format: InputFormat, solutions: &str) -> u64 {
        let before = exactly::work::steps();
        let v = verdicts(problem, format, solutions);
        assert!(v.iter().all(Result::is_ok), "{v:?}");
        exactly::work::steps() - before
    }

    #[test]
    fn checking_a_large_multiplicity_grows_linearly() {
        // Every line matches the same group of k identical options.
        let work = |k: usize| {
            let problem = format!("{k}|a\n{}", "a\n".repeat(k));
            steps(&problem, InputFormat::Dlx, &"a\n".repeat(k))
        };
        let (small, large) = (work(500), work(5000));
        assert!(large <= 12 * small, "{small} -> {large}");
    }

    #[test]
    fn identical_options_are_taken_in_turn() {
        let v = verdicts(
            "3|a\na\na\na\na\n",
            InputFormat::Dlx,
            "a\na\na\n\na\na\na\na\n",
        );
        assert_eq!(v[0], Ok(()));
        assert_eq!(
            v[1],
            Err((
                5,
                "primary item 'a' is covered 4 times, but must be covered 3..=3 times".to_string()
            ))
        );
        let v = verdicts("2|a\na\n", InputFormat::Dlx, "a\na\n");
        assert_eq!(
            v[0],
            Err((1, "option 'a' (line 1) is chosen twice".to_string()))
        );
    }

    #[test]
    fn the_empty_solution_and_repeated_rows() {
        let v = verdicts("0:1|a\na\n", InputFormat::Dlx, "| empty solution\n\na\n");
        assert_eq!(v, [Ok(()), Ok(())]);
        let v = verdicts("a\na\n", InputFormat::Dlx, "| empty solution\n");
        assert!(v[0].is_err());
        let v = verdicts(
            "2 1\n1 1\n1 1\n",
            InputFormat::Matrix,
            "1 1\n\n1 1 | line 3\n\n1 1 | anything\n",
        );
        assert_eq!(v, [Ok(()), Ok(()), Ok(())]);
    }

    #[test]
    fn names_in_verdicts_are_escaped() {
        let v = verdicts("a\na\n", InputFormat::Dlx, "a\x1b\n");
        assert_eq!(
            v[0],
            Err((1, "no option of the problem matches 'a\\u{1b}'".to_string()))
        );
    }
}
