//! The arguments of `exactly sudoku` and its subcommands.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand, ValueEnum};

use super::*;

/// The exit statuses of `exactly sudoku`, as a literal.
macro_rules! sudoku_exit_codes {
    () => {
        "\
Exit status:
  0  every puzzle has a solution (unique, multiple, or solved with --first)
  1  some puzzle has no solution
  2  some record is not a valid puzzle (bad text, clashing givens), or usage
  3  some puzzle ran out of its --max-nodes or --timeout budget (unknown)"
    };
}

/// The exit statuses of `exactly sudoku`.
pub const SUDOKU_EXIT_CODES: &str = sudoku_exit_codes!();

/// The help of `exactly sudoku --every` (the shared [`EveryArg`], which
/// here needs --all).
const EVERY_HELP: &str = "With --all (which it needs), list only every M-th solution \
    (the M-th, the 2M-th, ...) of those up to --max-solutions, as Knuth's programs do with \
    their spacing option";

// The budgets of each puzzle, for `exactly sudoku` and `sudoku rate`.
#[derive(Debug, Args)]
pub struct PuzzleBudgetArgs {
    /// A node budget for each puzzle: a puzzle whose search runs out of it
    /// gets the verdict `unknown` (with the solutions found by then; with
    /// --target the score `unknown`), the batch goes on, and the exit
    /// status is 3.
    #[arg(long, value_name = "N", value_parser = parse_limit, allow_negative_numbers = true)]
    pub max_nodes: Option<u64>,

    /// A time budget for each puzzle, in seconds (fractions allowed), as
    /// --max-nodes.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub timeout: Option<Duration>,
}

impl PuzzleBudgetArgs {
    /// The engine's limits for one search within these budgets.
    pub fn limits(&self) -> exactly::Limits {
        let mut limits = exactly::Limits::default();
        if let Some(nodes) = self.max_nodes {
            limits = limits.max_nodes(nodes);
        }
        if let Some(time) = self.timeout {
            limits = limits.max_time(time);
        }
        limits
    }
}

/// `sudoku rate --max-nodes`: a rating runs several searches.
const RATE_MAX_NODES_HELP: &str = "A node budget for each puzzle: for each of its searches (the \
    check for one solution, the search-node count) and for the guesses of its rating. A puzzle \
    that runs out of it is rated `unknown`, the batch goes on, and the exit status is 3";

/// Output formats of `exactly sudoku`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SudokuFormat {
    /// One line per record: the solution, or a line starting with the
    /// verdict (`multiple COUNT SOLUTION`, `none`, `unknown [COUNT
    /// SOLUTION]`, `invalid: ERROR`).
    Line,
    /// The solution as a grid of lines, a blank line between records.
    Grid,
    /// One JSON object per record: line, verdict, solution, count, error
    /// (with --all, solutions: every solution listed).
    Json,
    /// As grid, each grid in Simple Sudoku's .ss form (`276|584|139` rows,
    /// `-----------` between bands of boxes).
    Ss,
    /// As grid, each grid in SadMan Software's .sdk form: a `[Puzzle]`
    /// line, then the rows.
    Sdk,
    /// As grid, each grid drawn with `+-------+` borders and `|` between
    /// boxes.
    Bordered,
    /// CSV: a header `quizzes,solutions,verdict,count,error`, then one row
    /// per record (with --all, one per solution); reads back with
    /// --input-format csv.
    Csv,
}

// Arguments of `exactly sudoku`.
#[derive(Debug, Args)]
#[command(after_long_help = concat!(sudoku_exit_codes!(), "\n\nExample:\n  $ exactly sudoku -j 2 testdata/sudoku/9x9.txt"))]
#[command(mut_arg("every", |a| a.requires("all").help(EVERY_HELP).long_help(EVERY_HELP)))]
pub struct SudokuArgs {
    /// Make, rate, hint or encode puzzles instead of solving them (a file
    /// named like a subcommand is read as `./gen`).
    #[command(subcommand)]
    pub tool: Option<SudokuTool>,

    /// The puzzles; `-` or nothing reads standard input. One puzzle per
    /// line, grids of lines separated by blank lines, or whitespace
    /// separated numbers (0 empty); Simple Sudoku .ss, SadMan .sdk,
    /// bordered prints, CSV (see --input-format); `#` starts a comment
    /// line. Each record
    /// gets one answer, in order; a bad record (bad bytes included) gets an
    /// `invalid:` answer and the batch goes on (exit status 2 at the end).
    /// An input with no puzzle at all is an error (exit status 2).
    #[arg(value_name = "FILE", default_value = "-")]
    pub file: PathBuf,

    /// Output format; by default each record is answered in its own style
    /// (a line for a one-line puzzle, a grid for a grid).
    #[arg(short = 'o', long, value_enum, value_name = "FORMAT")]
    pub format: Option<SudokuFormat>,

    /// Input format: auto tells each record's format apart (one-line
    /// puzzles, grids, Simple Sudoku .ss, SadMan .sdk `[Puzzle]` sections,
    /// bordered prints, CSV under a `quizzes,solutions` header); the others
    /// read the whole input in one format (line and sdm: every line a
    /// puzzle; grid, ss, bordered, sdk: every block of lines a grid; csv:
    /// every line a row, the header optional).
    #[arg(
        long,
        value_name = "FORMAT",
        default_value = "auto",
        value_parser = clap::builder::TypedValueParser::map(
            clap::builder::PossibleValuesParser::new(
                ["auto", "line", "grid", "ss", "sdk", "bordered", "csv", "sdm"]
            ),
            |s: String| exactly_puzzles::sudoku::InputFormat::from_name(&s).unwrap_or_default()
        )
    )]
    pub input_format: exactly_puzzles::sudoku::InputFormat,

    /// List every solution, up to --max-solutions, after a line with the
    /// verdict and count: one a line, grids separated by blank lines, a
    /// JSON array `solutions`, or a CSV row each.
    #[arg(long, conflicts_with_all = ["first", "second", "target", "max_nodes", "timeout"])]
    pub all: bool,

    /// Count solutions up to N: 2 (the default) tells unique from multiple.
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = parse_limit, allow_negative_numbers = true)]
    pub max_solutions: u64,

    // With --all (which it needs): only every M-th solution among those up
    // to --max-solutions.
    #[command(flatten)]
    pub every: EveryArg,

    /// Stop at the first solution, without checking uniqueness (verdict
    /// `solved`).
    #[arg(long)]
    pub first: bool,

    /// With a `multiple` verdict, also print a second solution: after the
    /// first on its line, after a blank line as a grid, as the JSON field
    /// `second`.
    #[arg(long, conflicts_with = "first")]
    pub second: bool,

    /// Worker threads (default: all cores); the output keeps the input
    /// order. At most 256, and no more than keep the solvers within 1 GiB
    /// (about 48 MiB a thread for 64x64 grids).
    #[arg(short = 'j', long, value_name = "N", value_parser = parse_threads, allow_negative_numbers = true)]
    pub threads: Option<usize>,

    #[command(flatten)]
    pub budget: PuzzleBudgetArgs,

    /// Box shape RxC (R rows by C columns), for sides whose shape cannot be
    /// inferred: perfect squares get square boxes, 6 gets 2x3, 8 2x4, 12 3x4.
    #[arg(long = "box", value_name = "RxC")]
    pub box_shape: Option<String>,

    /// X-sudoku: each main diagonal must also hold every symbol once.
    #[arg(long)]
    pub diagonals: bool,

    /// Also read grids smaller than 4x4 (sides 1 to 3), which are refused
    /// otherwise: a count line or a stray number is not taken for a 1x1
    /// puzzle. `--box` with a side below 4 asks for that side too.
    #[arg(long)]
    pub small: bool,

    /// Jigsaw sudoku: regions replacing the boxes, from a file of n lines of
    /// n labels (cells with the same label form a region), for every puzzle.
    #[arg(long, value_name = "FILE")]
    pub regions: Option<PathBuf>,

    /// Jigsaw sudokus, each with its own regions: every line holds a
    /// puzzle's cells, then whitespace and its region map, n² labels row by
    /// row (cells with the same label form a region).
    #[arg(long, conflicts_with_all = ["regions", "box_shape"])]
    pub jigsaw: bool,

    /// Target sudoku (NOIP 2009): print each puzzle's largest score, the
    /// sum of value × weight over all cells, taken over all its solutions
    /// (-1 when it has none). Weights default to 6 on the outer ring, one
    /// more per ring inwards.
    #[arg(long)]
    pub target: bool,

    /// Weights for --target: n lines of n non-negative integers.
    #[arg(long, value_name = "FILE", requires = "target")]
    pub weights: Option<PathBuf>,

    /// How --target searches: every solution (the default, the faster on
    /// NOIP's samples: DESIGN.md, "Measurements"), or branch-and-bound on
    /// costs.
    #[arg(long, value_enum, default_value_t = TargetMethod::Enumerate, requires = "target")]
    pub method: TargetMethod,
}

/// The exit statuses of `exactly sudoku rate`, `hint` and `encode`.
pub const SUDOKU_TOOL_EXIT_CODES: &str = "\
Exit status:
  0  every record answered
  1  (rate) some puzzle has no solution or several; (encode) never
  2  some record is not a valid puzzle, or usage
  3  (rate) some puzzle ran out of its --max-nodes or --timeout budget";

/// The exit statuses of `exactly sudoku gen`.
pub const SUDOKU_GEN_EXIT_CODES: &str = "\
Exit status:
  0  every puzzle made
  1  some puzzle could not be made within --attempts (the others are printed)
  2  usage";

// The subcommands of `exactly sudoku`, each built only when a run reaches
// it (a plain comment: see `subcommands!`).
#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum SudokuTool {
    /// Make new puzzles, each with one solution and minimal (removing any
    /// clue, or any symmetric pair of clues with --symmetry, gives several
    /// solutions).
    #[command(after_help = SUDOKU_GEN_EXIT_CODES)]
    Gen(SudokuGenArgs),
    /// Rate puzzles: the hardest solving technique each needs, the steps of
    /// each technique, the guesses, and the exact-cover search's nodes.
    #[command(after_help = SUDOKU_TOOL_EXIT_CODES)]
    Rate(SudokuRateArgs),
    /// The next logical step of each puzzle: the technique, the cells it
    /// rests on, and what it places or removes.
    #[command(after_help = SUDOKU_TOOL_EXIT_CODES)]
    Hint(SudokuHintArgs),
    /// Write one puzzle as a Knuth-format exact-cover file: the whole
    /// matrix (324 items for 9x9), for `exactly count` or Knuth's programs.
    #[command(after_help = SUDOKU_TOOL_EXIT_CODES)]
    Encode(SudokuEncodeArgs),
}

// The puzzles read by `sudoku rate`, `hint` and `encode`.
#[derive(Debug, Args)]
pub struct SudokuInputArgs {
    /// The puzzles, as `exactly sudoku` reads them; `-` or nothing reads
    /// standard input.
    #[arg(value_name = "FILE", default_value = "-")]
    pub file: PathBuf,

    /// Box shape RxC, for sides whose shape cannot be inferred.
    #[arg(long = "box", value_name = "RxC")]
    pub box_shape: Option<String>,

    /// X-sudoku: each main diagonal must also hold every symbol once.
    #[arg(long)]
    pub diagonals: bool,

    /// Jigsaw sudoku: regions replacing the boxes, from a file of n lines of
    /// n labels, for every puzzle.
    #[arg(long, value_name = "FILE")]
    pub regions: Option<PathBuf>,

    /// Jigsaw sudokus, each line a puzzle's cells, then whitespace and its
    /// region map (n² labels row by row).
    #[arg(long, conflicts_with_all = ["regions", "box_shape"])]
    pub jigsaw: bool,
}

/// Output formats of `exactly sudoku rate` and `hint`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SudokuToolFormat {
    /// One line per record.
    Line,
    /// One JSON object per record.
    Json,
}

// Arguments of `exactly sudoku rate`.
#[derive(Debug, Args)]
#[command(mut_arg("max_nodes", |a| a.help(RATE_MAX_NODES_HELP)))]
pub struct SudokuRateArgs {
    #[command(flatten)]
    pub input: SudokuInputArgs,

    /// Output format.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = SudokuToolFormat::Line)]
    pub format: SudokuToolFormat,

    /// Worker threads (default: all cores, at most 256): records are rated
    /// in parallel, and the output keeps the input order.
    #[arg(short = 'j', long, value_name = "N", value_parser = parse_threads, allow_negative_numbers = true)]
    pub threads: Option<usize>,

    #[command(flatten)]
    pub budget: PuzzleBudgetArgs,
}

// Arguments of `exactly sudoku hint`.
#[derive(Debug, Args)]
pub struct SudokuHintArgs {
    #[command(flatten)]
    pub input: SudokuInputArgs,

    /// Output format.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = SudokuToolFormat::Line)]
    pub format: SudokuToolFormat,
}

// Arguments of `exactly sudoku encode`.
#[derive(Debug, Args)]
pub struct SudokuEncodeArgs {
    #[command(flatten)]
    pub input: SudokuInputArgs,

    /// Which record of the input to encode (from 1).
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = parse_size, allow_negative_numbers = true)]
    pub record: usize,
}

/// Which clues `exactly sudoku gen` removes together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SymmetryArg {
    /// Each clue on its own.
    None,
    /// A clue and its image under a half turn.
    Rotational,
    /// A clue and its mirror image across the vertical middle line.
    Mirror,
}

/// Output formats of `exactly sudoku gen`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SudokuGenFormat {
    /// One puzzle a line (a jigsaw's line ends with its region map), as
    /// `exactly sudoku` (with `--jigsaw` for jigsaws) reads it.
    Line,
    /// One puzzle as a grid of lines, a blank line between puzzles (not for
    /// --jigsaw).
    Grid,
    /// One JSON object a line: index, puzzle, solution, clues, regions, and
    /// the rating (level, nodes, guesses, steps).
    Json,
}

// Arguments of `exactly sudoku gen`.
#[derive(Debug, Args)]
pub struct SudokuGenArgs {
    /// Grid side N (4 to 64; default 9, or the side of --box).
    #[arg(long, value_name = "N", value_parser = parse_size, allow_negative_numbers = true)]
    pub size: Option<usize>,

    /// Box shape RxC (R rows by C columns), for sides whose shape cannot be
    /// inferred (N a square: square boxes; 6: 2x3; 8: 2x4; 12: 3x4).
    #[arg(long = "box", value_name = "RxC")]
    pub box_shape: Option<String>,

    /// X-sudoku: each main diagonal also holds every symbol once.
    #[arg(long)]
    pub diagonals: bool,

    /// Jigsaw sudoku: each puzzle gets random regions of its own (connected,
    /// N cells each) in place of the boxes.
    #[arg(long)]
    pub jigsaw: bool,

    /// How many puzzles.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = parse_limit, allow_negative_numbers = true)]
    pub count: u64,

    /// Seed: the same seed (and options) gives the same puzzles, whatever
    /// the threads.
    #[arg(long, value_name = "S", default_value_t = 0, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: u64,

    /// Which clues are removed together.
    #[arg(long, value_enum, value_name = "SYMMETRY", default_value_t = SymmetryArg::None)]
    pub symmetry: SymmetryArg,

    /// Keep only puzzles with at most N clues (drawing new ones, up to
    /// --attempts).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub clues: Option<usize>,

    /// Keep only puzzles at least this hard: a level (given, naked-single,
    /// hidden-single, pointing, claiming, naked-pair, naked-triple,
    /// naked-quad, hidden-pair, hidden-triple, hidden-quad, x-wing,
    /// swordfish, xy-wing, guessing) or a number of search nodes.
    #[arg(long, value_name = "RATING")]
    pub min_rating: Option<String>,

    /// Keep only puzzles at most this hard (as --min-rating).
    #[arg(long, value_name = "RATING")]
    pub max_rating: Option<String>,

    /// Attempts per puzzle to meet --clues and the ratings.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = parse_limit, allow_negative_numbers = true)]
    pub attempts: u64,

    /// Budget of each search of a uniqueness check while removing clues, in
    /// conflicts (default 100,000; a check out of it keeps the clue, tried
    /// again at the end with 16 times the budget; see docs/SUDOKU.md).
    #[arg(long, value_name = "N", value_parser = parse_limit, allow_negative_numbers = true)]
    pub max_nodes: Option<u64>,

    /// A time budget for each puzzle, in seconds (fractions allowed), all
    /// its attempts and ratings together: a puzzle not made within it is
    /// left out with a message on stderr, the others are still made (the
    /// same ones as without the budget), and the exit status is 3.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub timeout: Option<Duration>,

    /// Keep a puzzle some of whose clues could not be checked within
    /// either budget (they stay: the puzzle is unique but not proven
    /// minimal; JSON field `unproven`) instead of drawing a new one.
    #[arg(long)]
    pub allow_unproven: bool,

    /// Worker threads (default: all cores); the output keeps the order.
    #[arg(long, value_name = "N", value_parser = parse_threads, allow_negative_numbers = true)]
    pub threads: Option<usize>,

    /// Output format.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = SudokuGenFormat::Line)]
    pub format: SudokuGenFormat,
}

/// The `--method` values of `exactly sudoku --target`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TargetMethod {
    /// Branch-and-bound with the cost solver's admissible bound.
    Bound,
    /// Enumerate every solution and keep the best score.
    Enumerate,
}
