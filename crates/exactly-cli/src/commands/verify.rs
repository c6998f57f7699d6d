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

use std::collections::{HashMap, HashSet};
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

/// Where a solution goes wrong (1-based line and column) and why.
type Fault = (usize, usize, String);

/// The most characters of the solutions file that a verdict quotes.
const EXCERPT_CHARS: usize = 40;

/// `text` escaped and cut to [`EXCERPT_CHARS`] characters (`...` marks a cut),
/// so that a verdict never repeats a long line.
fn excerpt(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        Some((end, _)) => format!("{}...", escape(&text[..end])),
        None => escape(text).to_string(),
    }
}

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
            Err((line, column, why)) => {
                all_valid = false;
                format!(
                    "solution {} ({}:{line}:{column}): {why}",
                    k + 1,
                    escape(&name)
                )
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
                b.lines.push((i + 1, line));
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
    /// Every item name of the problem, and every `item:color` that an
    /// option holds.
    names: HashSet<String>,
    format: Format,
}

impl OptionIndex {
    fn new(input: &Input) -> Self {
        let p = &input.problem;
        let mut by_key: HashMap<Vec<String>, usize> = HashMap::new();
        let mut groups: Vec<Vec<OptionId>> = Vec::new();
        let mut names: HashSet<String> = p.item_ids().map(|i| p.item_name(i).to_string()).collect();
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
            names.extend(key.iter().cloned());
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
            names,
            format: input.format,
        }
    }

    /// The group of options that a line of the solutions file names, or
    /// the column where it goes wrong and why.
    fn find(&self, line: &str) -> Result<usize, (usize, String)> {
        let first_column = format::tokens(line).next().map_or(1, |(c, _)| c);
        let mut toks = format::tokens(line);
        let mut key: Vec<String> = match self.format {
            // Cost tokens (`|3`) do not identify an option.
            Format::Dlx => {
                let mut key = Vec::new();
                for (column, t) in toks.filter(|(_, t)| !t.starts_with('|')) {
                    if !self.names.contains(t) {
                        return Err((
                            column,
                            format!(
                                "expected an item of the problem (with its color, if any), found '{}'",
                                excerpt(t)
                            ),
                        ));
                    }
                    key.push(t.to_string());
                }
                key
            }
            Format::Matrix => {
                // ` | line L` after a row is a remark.
                let (count_column, count) = toks.next().unwrap_or((1, ""));
                let ones: usize = count.parse().map_err(|_| {
                    (
                        count_column,
                        format!(
                            "expected the number of columns of a row, found '{}'",
                            excerpt(count)
                        ),
                    )
                })?;
                let mut columns = Vec::new();
                for (column, t) in toks.take_while(|&(_, t)| t != "|") {
                    let c = t.parse::<u64>().map_err(|_| {
                        (
                            column,
                            format!("expected a column number, found '{}'", excerpt(t)),
                        )
                    })?;
                    columns.push(c.to_string());
                }
                if columns.len() != ones {
                    return Err((
                        count_column,
                        format!("the row says {ones} columns but lists {}", columns.len()),
                    ));
                }
                columns
            }
        };
        let n = key.len();
        key.sort_unstable();
        self.by_key.get(&key).copied().ok_or_else(|| {
            let what = match self.format {
                Format::Dlx => "option",
                Format::Matrix => "row",
            };
            let unit = match (self.format, n) {
                (Format::Dlx, 1) => "item",
                (Format::Dlx, _) => "items",
                (Format::Matrix, 1) => "column",
                (Format::Matrix, _) => "columns",
            };
            (
                first_column,
                format!(
                    "no {what} of the problem has exactly the {n} {unit} '{}'",
                    excerpt(line.trim())
                ),
            )
        })
    }
}

/// Checks one block; on failure returns the line and column to point at
/// and why.
fn check(input: &Input, index: &OptionIndex, block: &Block<'_>) -> Result<(), Fault> {
    let p = &input.problem;
    let first_line = block.first_line;
    // Block-wide faults point at the first option of the block.
    let first_column = block
        .lines
        .first()
        .and_then(|&(_, text)| format::tokens(text).next())
        .map_or(1, |(c, _)| c);
    let mut chosen: Vec<OptionId> = Vec::with_capacity(block.lines.len());
    let mut line_of: HashMap<OptionId, usize> = HashMap::new();
    // Per group of identical options: how many this block has taken.
    let mut taken: HashMap<usize, usize> = HashMap::new();
    for &(n, text) in &block.lines {
        exactly::work::add(1);
        let group = index.find(text).map_err(|(column, why)| (n, column, why))?;
        let ids = &index.groups[group];
        // Identical options are interchangeable: take one not chosen yet, or
        // the first again when all are (which `verify` reports as chosen twice).
        let used = taken.entry(group).or_default();
        // Every group holds at least one option.
        let Some(&id) = ids.get(*used).or(ids.first()) else {
            continue;
        };
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
            first_column,
            format!("option {} is chosen twice", describe(o)),
        ),
        VerifyError::ColorClash {
            item,
            first,
            second,
        } => (
            first_line,
            first_column,
            format!(
                "secondary item '{}' is covered by {} and {}, which do not share a color",
                escape(&item),
                describe(first),
                describe(second)
            ),
        ),
        other => (first_line, first_column, other.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::InputFormat;

    fn verdicts(problem: &str, format: InputFormat, solutions: &str) -> Vec<Result<(), Fault>> {
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
            [(3, vec![(3, "a b"), (4, " c ")]), (8, vec![(8, "d")])]
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
            Err((
                4,
                1,
                "no option of the problem has exactly the 2 items 'b a'".to_string()
            ))
        );
        assert_eq!(
            v[2],
            Err((
                6,
                1,
                "secondary item 'x' is covered by 'b x:blue' (line 6) and 'a x:red' (line 7), \
                 which do not share a color"
                    .to_string()
            ))
        );
        assert_eq!(
            v[3],
            Err((
                10,
                1,
                "no option of the problem has exactly the 1 item 'b'".to_string()
            ))
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
                1,
                "primary item 'b' is covered 0 times, but must be covered 1..=1 times".to_string()
            ))
        );
        assert_eq!(
            v[1],
            Err((3, 1, "option 'a' (line 3) is chosen twice".to_string()))
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
            Err((5, 1, "the row says 2 columns but lists 1".to_string()))
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
                1,
                "primary item 'a' is covered 4 times, but must be covered 3..=3 times".to_string()
            ))
        );
        let v = verdicts("2|a\na\n", InputFormat::Dlx, "a\na\n");
        assert_eq!(
            v[0],
            Err((1, 1, "option 'a' (line 1) is chosen twice".to_string()))
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
            Err((
                1,
                1,
                "expected an item of the problem (with its color, if any), found 'a\\u{1b}'"
                    .to_string()
            ))
        );
    }

    #[test]
    fn a_bad_line_is_named_by_its_column_and_quoted_in_short() {
        // A long line whose last item is unknown: its column, and only
        // the item, cut short.
        let long_name = "z".repeat(1000);
        let line = format!("  {} {long_name}\n", "a ".repeat(5000));
        let v = verdicts("a\na\n", InputFormat::Dlx, &line);
        let (line_no, column, why) = v[0].clone().unwrap_err();
        // Two spaces, 5,000 times "a ", one more space: the unknown item
        // starts at column 2 + 10,000 + 1 + 1.
        assert_eq!((line_no, column), (1, 2 + 2 * 5000 + 2));
        assert!(why.starts_with("expected an item of the problem"), "{why}");
        assert!(why.len() < 150, "{why}");
        // Known items that no option holds together: the first item's
        // column and an excerpt of the line.
        let v = verdicts(
            "a b\na\nb\n",
            InputFormat::Dlx,
            &format!("   {}\n", "a b ".repeat(5000)),
        );
        let (line_no, column, why) = v[0].clone().unwrap_err();
        assert_eq!((line_no, column), (1, 4));
        assert!(
            why.starts_with("no option of the problem has exactly the 10000 items 'a b a b"),
            "{why}"
        );
        assert!(why.ends_with("...'"), "{why}");
        assert!(why.len() < 150, "{why}");
        // Matrix rows: a count that disagrees, a column that is no number.
        let v = verdicts(
            "2 3\n2 1 3\n1 2\n",
            InputFormat::Matrix,
            "1 2\n 3 1 3\n\n1 2\n2 1 x\n",
        );
        assert_eq!(
            v[0],
            Err((2, 2, "the row says 3 columns but lists 2".to_string()))
        );
        assert_eq!(
            v[1],
            Err((5, 5, "expected a column number, found 'x'".to_string()))
        );
    }
}
