//! The arguments of `exactly contest`.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::{parse_limit, parse_seconds};

/// The contests and exit statuses of `exactly contest`, shown at the end of
/// `-h`.
macro_rules! contest_exit_codes {
    () => {
        "\
Contests:
  poj3074   9x9 sudokus, 81 characters a line, until 'end'
  poj3076   16x16 sudokus of A-P and '-', blank lines between
  spoj1110  a count T, then T 16x16 sudokus
  hust1017  exact cover: 'N M' then N rows 'c j1 ... jc', cases until the end
  noip2009  target sudoku: 9 lines of 9 numbers (0 blank), the best score
  poj1084   square destroyer: T, then per case n, and k missing sticks

Exit status:
  0  every case answered
  1  some sudoku case has no solution (nothing printed for it)
  2  bad input (nothing printed for the bad case), or usage
  3  some case ran out of its --max-nodes or --timeout budget (nothing
     printed for it)"
    };
}

/// The exit statuses of `exactly contest`.
pub const CONTEST_EXIT_CODES: &str = contest_exit_codes!();

// Arguments of `exactly contest`.
#[derive(Debug, Args)]
#[command(after_long_help = concat!(contest_exit_codes!(), "\n\nExample:\n  $ exactly contest poj3074 testdata/contest/poj3074/sample.in"))]
pub struct ContestArgs {
    /// The contest problem (see the list below).
    #[arg(value_name = "NAME", value_parser = parse_contest)]
    pub name: exactly_puzzles::contest::Contest,

    /// The judge's input; `-` or nothing reads standard input.
    #[arg(value_name = "FILE", default_value = "-")]
    pub file: PathBuf,

    /// A node budget for each case's search: a case that runs out of it
    /// gets nothing on standard output and a message on standard error,
    /// the cases after it go on, and the exit status is 3.
    #[arg(long, value_name = "N", value_parser = parse_limit, allow_negative_numbers = true)]
    pub max_nodes: Option<u64>,

    /// A time budget for each case's search, in seconds (fractions
    /// allowed), as --max-nodes.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub timeout: Option<Duration>,
}

/// Parses a contest name.
fn parse_contest(text: &str) -> Result<exactly_puzzles::contest::Contest, String> {
    text.parse()
}
