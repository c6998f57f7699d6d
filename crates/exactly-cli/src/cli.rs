//! Command-line arguments, declared with clap's derive API.
//!
//! Each subcommand is one variant of [`Command`] holding its own argument
//! struct; options shared by every search ([`SearchArgs`]) and by every
//! problem reader ([`ProblemArgs`]) are flattened into them. A new subcommand
//! is a new variant in `subcommands!`, a new module under `commands/`, and
//! one dispatch arm. Argument structs and nested subcommand enums carry
//! plain comments, not doc comments, which clap would take for their
//! subcommand's about (see `subcommands!`).

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::input::InputFormat;
use crate::output::OutputFormat;

/// The exit statuses, as a literal (for `concat!` in the help texts).
macro_rules! exit_codes {
    () => {
        "\
Exit status:
  0  solutions found (solve), counted (count), or all solutions valid (verify)
  1  no solution, or (verify) some solution is invalid
  2  bad input or usage
  3  stopped early by a budget (--timeout, --max-nodes; for count also --limit)"
    };
}

/// The exit statuses, shown at the end of `-h`.
pub const EXIT_CODES: &str = exit_codes!();

/// The end of a subcommand's `--help`: the exit statuses, then an example
/// that runs from the repository's root (tests/help.rs runs every one).
macro_rules! long_help {
    ($example:literal) => {
        concat!(exit_codes!(), "\n\nExample:\n  $ ", $example)
    };
}

/// The end of `--help` for a subcommand whose exit status is 0 or 2: an
/// example that runs from the repository's root.
macro_rules! example {
    ($example:literal) => {
        concat!("Example:\n  $ ", $example)
    };
}

mod contest;
mod sudoku;

pub use contest::*;
pub use sudoku::*;

// `Cli` (with `Command`) builds every subcommand's arguments at once, as
// completions and man pages need; `Cli<LazyCommand>` builds a subcommand's
// only when a run reaches it, which is how a run parses. (The doc comment
// below is the program's about, so this note is not part of it.)
/// Exact cover, with secondary items and colors, by dancing links.
#[derive(Debug, Parser)]
#[command(name = "exactly", version, after_help = EXIT_CODES)]
pub struct Cli<C: Subcommand = Command> {
    /// What to do.
    #[command(subcommand)]
    pub command: C,

    /// Print nothing on stderr but the error that ends a run: no summary
    /// (sudoku), warning, progress bar or "stopped early" note (the exit
    /// status still tells). --stats, --profile, --trace and --report-every
    /// print all the same.
    #[arg(short, long, global = true)]
    pub quiet: bool,
}

/// Declares the subcommands twice from one list: [`Command`], built at
/// once, and [`LazyCommand`], each variant built when a run reaches it
/// (clap's `defer`). Under `defer` a subcommand's arguments are added after
/// its own attributes, so a doc comment on an argument struct or a nested
/// subcommand enum would replace the subcommand's about: those carry plain
/// comments, and `a_run_parses_with_the_same_arguments_as_help_shows` checks
/// that both trees render the same help.
macro_rules! subcommands {
    ($($(#[$attr:meta])* $name:ident($args:ty),)*) => {
        /// The subcommands.
        #[derive(Debug, Subcommand)]
        pub enum Command {
            $($(#[$attr])* $name($args),)*
        }

        /// The subcommands, each built only when a run reaches it: a run of
        /// `exactly sudoku` builds no other subcommand's arguments.
        #[derive(Debug, Subcommand)]
        #[command(defer = true)]
        pub enum LazyCommand {
            $($(#[$attr])* $name($args),)*
        }

        impl From<LazyCommand> for Command {
            fn from(command: LazyCommand) -> Self {
                match command {
                    $(LazyCommand::$name(args) => Command::$name(args),)*
                }
            }
        }
    };
}

subcommands! {
    /// Print the solutions of a problem.
    #[command(after_help = EXIT_CODES)]
    Solve(SolveArgs),
    /// Count the solutions of a problem: the first line of output is the number.
    #[command(after_help = EXIT_CODES)]
    Count(CountArgs),
    /// Check solutions (as printed by `solve`) against a problem.
    #[command(after_help = EXIT_CODES)]
    Verify(VerifyArgs),
    /// Write a puzzle as a Knuth-format exact-cover file on stdout.
    Gen(GenArgs),
    /// Solve or count n-queens.
    #[command(after_help = EXIT_CODES)]
    Queens(QueensArgs),
    /// Solve or count Langford pairs.
    #[command(after_help = EXIT_CODES)]
    Langford(LangfordArgs),
    /// Solve or count a polyomino tiling (pieces and board from a file, or
    /// built in).
    #[command(after_help = EXIT_CODES)]
    Polyomino(PolyominoArgs),
    /// Estimate the search tree's size and solutions by random probes.
    Estimate(EstimateArgs),
    /// Split a problem into subproblems for `count --plan --shard` (a plan).
    Plan(PlanArgs),
    /// Add up shard results, checking each subproblem was counted once.
    #[command(after_help = EXIT_CODES)]
    Merge(MergeArgs),
    /// Solve a batch of sudokus (4x4 to 64x64), one answer per puzzle; or
    /// make, rate, hint or encode puzzles (subcommands).
    #[command(after_help = SUDOKU_EXIT_CODES, args_conflicts_with_subcommands = true)]
    Sudoku(SudokuArgs),
    /// Find a minimum cover: the fewest options (or the cheapest, with
    /// --weighted) covering every primary item at least once.
    #[command(after_help = EXIT_CODES)]
    Cover(CoverArgs),
    /// Square destroyer: the fewest matchsticks to remove from an N×N grid
    /// so that no square of any size is left.
    Squares(SquaresArgs),
    /// Contest problems (POJ 3074, POJ 3076, SPOJ 1110, HUST 1017, NOIP
    /// 2009, POJ 1084): the judge's input in, the judge's output out.
    #[command(after_help = CONTEST_EXIT_CODES)]
    Contest(ContestArgs),
    /// Build the zero-suppressed decision diagram (ZDD) of every solution
    /// and write it (Knuth's DLX6 text form, or JSON).
    #[command(after_help = EXIT_CODES)]
    Zdd(ZddArgs),
    /// Draw solutions uniformly at random, through the diagram of all
    /// solutions.
    #[command(after_help = EXIT_CODES)]
    Sample(SampleArgs),
    /// Write a shell completion script on stdout.
    Completions(CompletionsArgs),
    /// Write a man page (roff) on stdout: exactly(1), or a subcommand's.
    Man(ManArgs),
}

// Arguments of `exactly completions`.
#[derive(Debug, Args)]
#[command(after_long_help = example!("exactly completions bash > exactly.bash"))]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

// Arguments of `exactly man`.
#[derive(Debug, Args)]
#[command(after_long_help = example!("exactly man solve > exactly-solve.1"))]
pub struct ManArgs {
    /// A subcommand, for its own page (`exactly-solve(1)`); without one,
    /// the page `exactly(1)`.
    #[arg(value_name = "SUBCOMMAND")]
    pub subcommand: Option<String>,
}

// The budgets of a diagram build (`zdd`, `sample`, `count --zdd`).
#[derive(Debug, Args)]
pub struct ZddBudget {
    /// Stop after SECS seconds (a decimal number).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub timeout: Option<Duration>,

    /// Stop after N search nodes.
    #[arg(long, value_name = "N", value_parser = parse_limit, allow_negative_numbers = true)]
    pub max_nodes: Option<u64>,

    /// Stop when the diagram and its memo pass this many bytes (suffixes K,
    /// M, G for powers of 1024).
    #[arg(long, value_name = "BYTES", value_parser = parse_bytes, default_value = "8G", allow_negative_numbers = true)]
    pub max_memory: u64,

    /// Print statistics (search nodes, memos, hits, diagram nodes, bytes,
    /// time) on stderr.
    #[arg(short, long)]
    pub stats: bool,

    /// How --stats prints: `text` lines, or one `json` object on a line
    /// (implies --stats).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = StatsFormat::Text)]
    pub stats_format: StatsFormat,
}

/// How `exactly zdd` writes the diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ZddFormat {
    /// Knuth's DLX6 form, `id: (~v?lo:hi)` a line (ids in hexadecimal,
    /// options from 1), then the dummy root `id: (~0?0:root)`.
    Knuth,
    /// One JSON object: format, version, options, root, nodes `[[o, lo,
    /// hi], ...]` (node k has id k + 2; 0 is the empty family, 1 the empty
    /// solution; options from 0).
    Json,
}

// Arguments of `exactly zdd`.
#[derive(Debug, Args)]
#[command(after_long_help = long_help!("exactly zdd testdata/knuth-example.dlx"))]
pub struct ZddArgs {
    #[command(flatten)]
    pub problem: ProblemArgs,

    /// Output format.
    #[arg(short = 'o', long, value_enum, value_name = "FORMAT", default_value_t = ZddFormat::Knuth)]
    pub format: ZddFormat,

    #[command(flatten)]
    pub budget: ZddBudget,
}

// Arguments of `exactly sample`.
#[derive(Debug, Args)]
#[command(after_long_help = long_help!("exactly sample testdata/langford-11.dlx -n 3 --seed 7"))]
pub struct SampleArgs {
    #[command(flatten)]
    pub problem: ProblemArgs,

    /// Draw through the diagram of all solutions (the only method, and the
    /// default).
    #[arg(long)]
    pub zdd: bool,

    /// How many solutions to draw (with replacement).
    #[arg(short = 'n', long = "count", value_name = "K", default_value_t = 1, value_parser = parse_limit, allow_negative_numbers = true)]
    pub count: u64,

    /// Seed of the random draws: the same seed gives the same solutions.
    #[arg(long, value_name = "S", default_value_t = 0, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: u64,

    /// Output format.
    #[arg(short = 'o', long, value_enum, value_name = "FORMAT", default_value_t = OutputFormat::Knuth)]
    pub format: OutputFormat,

    #[command(flatten)]
    pub budget: ZddBudget,
}

/// Item order for n-queens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum QueensOrder {
    /// Middle rows and columns first (what makes the branching rule fast).
    Organ,
    /// Rows 0..n-1, then columns 0..n-1.
    Plain,
}

impl From<QueensOrder> for exactly_puzzles::queens::Order {
    fn from(order: QueensOrder) -> Self {
        match order {
            QueensOrder::Organ => exactly_puzzles::queens::Order::Organ,
            QueensOrder::Plain => exactly_puzzles::queens::Order::Plain,
        }
    }
}

// Arguments of `exactly gen`.
#[derive(Debug, Args)]
#[command(after_long_help = example!("exactly gen langford 3"))]
pub struct GenArgs {
    /// The puzzle to emit.
    #[command(subcommand)]
    pub kind: GenKind,
}

// The puzzles `exactly gen` knows, each built only when a run reaches it
// (a plain comment: see `subcommands!`).
#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum GenKind {
    /// N queens on an N×N board: rows and columns primary, diagonals secondary.
    Queens {
        /// Board size (1 to 1000).
        #[arg(value_parser = parse_size, allow_negative_numbers = true)]
        n: usize,
        /// Item order.
        #[arg(long, value_enum, default_value_t = QueensOrder::Organ)]
        order: QueensOrder,
    },
    /// Langford pairs 1..N: items d1..dN p1..p2N.
    Langford {
        /// The largest number (1 to 1000).
        #[arg(value_parser = parse_size, allow_negative_numbers = true)]
        n: usize,
        /// Count each pairing and its reversal once.
        #[arg(long)]
        symbreak: bool,
    },
    /// The twelve pentominoes in an R×C rectangle.
    Pentomino {
        /// Rectangle size, e.g. 6x10 (at most 36x36).
        #[arg(allow_hyphen_values = true)]
        size: String,
        /// Count each tiling once up to the rectangle's symmetries.
        #[arg(long)]
        symbreak: bool,
    },
    /// A polyomino tiling: pieces and board from a file, or built in.
    Polyomino(PolyominoSpec),
}

// Arguments of `exactly queens`.
#[derive(Debug, Args)]
#[command(after_long_help = long_help!("exactly queens 8 --count"))]
pub struct QueensArgs {
    /// Board size (1 to 1000).
    #[arg(value_parser = parse_size, allow_negative_numbers = true)]
    pub n: usize,
    /// Item order.
    #[arg(long, value_enum, default_value_t = QueensOrder::Organ)]
    pub order: QueensOrder,
    /// Print only the number of solutions.
    #[arg(long, conflicts_with = "every")]
    pub count: bool,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub every: EveryArg,
}

// Arguments of `exactly langford`.
#[derive(Debug, Args)]
#[command(after_long_help = long_help!("exactly langford 7 --count"))]
pub struct LangfordArgs {
    /// The largest number (1 to 1000).
    #[arg(value_parser = parse_size, allow_negative_numbers = true)]
    pub n: usize,
    /// Count each pairing and its reversal once.
    #[arg(long)]
    pub symbreak: bool,
    /// Print only the number of solutions.
    #[arg(long, conflicts_with = "every")]
    pub count: bool,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub every: EveryArg,
}

/// The built-in piece sets of `--set`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PieceSet {
    /// The five free tetrominoes (I, L, O, S, T).
    Tetrominoes,
    /// The twelve free pentominoes, in Conway's names (O to Z).
    Pentominoes,
    /// The thirty-five free hexominoes.
    Hexominoes,
}

// What defines a polyomino tiling, for `exactly polyomino` and `exactly gen
// polyomino`.
#[derive(Debug, Args)]
pub struct PolyominoSpec {
    /// Pieces and an optional board as ASCII art: blocks separated by blank
    /// lines, each a header (a piece name and an optional number of copies,
    /// or `board`) over a picture of '#' cells and '.' holes; lines starting
    /// with '|' are comments. `-` reads standard input, as does no FILE
    /// without --set.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,

    /// Use a built-in set of pieces (each once) instead of the file's pieces.
    #[arg(long, value_enum, value_name = "SET")]
    pub set: Option<PieceSet>,

    /// Tile an R×C rectangle (e.g. 6x10, at most 36x36) instead of the
    /// file's board.
    #[arg(long, value_name = "RxC", allow_hyphen_values = true)]
    pub board: Option<String>,

    /// Allow rotations only, not turning pieces over.
    #[arg(long)]
    pub one_sided: bool,

    /// Count each tiling once up to the board's symmetries.
    #[arg(long)]
    pub symbreak: bool,
}

// Arguments of `exactly polyomino`.
#[derive(Debug, Args)]
#[command(after_long_help = long_help!("exactly polyomino --set pentominoes --board 3x20 --symbreak"))]
pub struct PolyominoArgs {
    #[command(flatten)]
    pub spec: PolyominoSpec,
    /// Print only the number of solutions.
    #[arg(long, conflicts_with = "every")]
    pub count: bool,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub every: EveryArg,
}

// Where a problem comes from and how to read it.
#[derive(Debug, Args)]
pub struct ProblemArgs {
    /// The problem file; `-` or nothing reads standard input.
    #[arg(value_name = "FILE", default_value = "-")]
    pub file: PathBuf,

    /// Input format. `auto` reads the matrix format only when the first
    /// non-blank line holds exactly two non-negative integers and the whole
    /// input parses as a matrix; anything else is read as DLX.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = InputFormat::Dlx)]
    pub input: InputFormat,
}

// Options shared by the commands that search.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Stop after N solutions.
    #[arg(short = 'n', long, value_name = "N", value_parser = parse_limit, allow_negative_numbers = true)]
    pub limit: Option<u64>,

    /// Stop after SECS seconds (a positive decimal number; values past
    /// 10^9, about 31 years, mean 10^9).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub timeout: Option<Duration>,

    /// Stop after N search nodes (a positive integer).
    #[arg(long, value_name = "N", value_parser = parse_limit, allow_negative_numbers = true)]
    pub max_nodes: Option<u64>,

    /// Print statistics (nodes, updates, solutions, max depth, time) on stderr.
    #[arg(short, long)]
    pub stats: bool,

    /// How --stats prints: `text` lines, or one `json` object on a line
    /// (implies --stats).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = StatsFormat::Text)]
    pub stats_format: StatsFormat,

    /// Break ties between equally constrained items at random, from seed S.
    #[arg(long, value_name = "S", value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,

    /// Print every step of the search on stderr, indented by level.
    #[arg(long)]
    pub trace: bool,

    /// Trace only the steps at levels A to B, both included (`3..5`, `2..`,
    /// `..4`); implies --trace.
    #[arg(long, value_name = "A..B", value_parser = parse_levels, allow_negative_numbers = true)]
    pub trace_levels: Option<Levels>,

    /// After each traced step, print the nodes whose links it changed, one
    /// level deeper: `unlink item a` (a header leaves the list of items),
    /// `unlink option #3 (a d g) from d` (option 3's node, 0-based, leaves
    /// d's list), `relink` when they come back. The search uses dancing
    /// links (same tree). Implies --trace.
    #[arg(long)]
    pub trace_nodes: bool,

    /// Print a progress line on stderr every SECS seconds, terminal or not:
    /// elapsed time, nodes, solutions, estimated fraction done; with
    /// solve --min-cost or --best, also the best cost found so far. Runs
    /// one plain search (as --trace does), not a split one.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub report_every: Option<Duration>,

    /// At the end, print the nodes at each level of the search tree on
    /// stderr, as Knuth's programs do (counted from trace events: slower,
    /// and one plain search).
    #[arg(long)]
    pub profile: bool,

    /// Search representation: dancing links, dancing cells, bitsets, item
    /// masks, sparse bitsets, or chosen by the problem's shape. All explore
    /// the same tree.
    #[arg(long, value_enum, value_name = "ENGINE", default_value_t = EngineArg::Auto)]
    pub engine: EngineArg,
}

/// The `--stats-format` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatsFormat {
    /// `name: value` lines.
    Text,
    /// One JSON object on a line.
    Json,
}

/// The levels of `--trace-levels`, both included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Levels {
    /// The first level traced.
    pub first: u32,
    /// The last level traced.
    pub last: u32,
}

impl Levels {
    /// Whether `level` is traced.
    pub fn contains(self, level: u32) -> bool {
        (self.first..=self.last).contains(&level)
    }
}

/// Parses `A..B`, `A..` or `..B` (levels from 0, both ends included).
fn parse_levels(text: &str) -> Result<Levels, String> {
    let bad = || format!("expected levels A..B (such as 2..5, 3.. or ..4), found '{text}'");
    let (a, b) = text.trim().split_once("..").ok_or_else(bad)?;
    let level = |t: &str, default: u32| -> Result<u32, String> {
        if t.is_empty() {
            Ok(default)
        } else {
            t.parse::<u32>().map_err(|_| bad())
        }
    };
    let (first, last) = (level(a, 0)?, level(b, u32::MAX)?);
    if first > last {
        return Err(format!("levels {text}: the first is past the last"));
    }
    Ok(Levels { first, last })
}

/// The `--engine` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// Bitsets for small problems (at most 64 primary items and 512
    /// options); else item masks when they suit the problem (no colors,
    /// items of at most 64 options, options of at most 8 items); else
    /// bitsets up to 4096 options; beyond, sparse bitsets for problems with
    /// colors, cells for long options (3+ items on average), links
    /// otherwise.
    Auto,
    /// Dancing links.
    Links,
    /// Dancing cells.
    Cells,
    /// Bitsets of available options (memory quadratic in the options).
    Bits,
    /// Item masks (items of at most 64 options, options of at most 8
    /// items, no colors; links otherwise).
    Masks,
    /// Sparse bitsets: each item's options as bits over the words that
    /// hold them (memory linear in the entries).
    Sparse,
}

impl From<EngineArg> for exactly::Engine {
    fn from(e: EngineArg) -> Self {
        match e {
            EngineArg::Auto => exactly::Engine::Auto,
            EngineArg::Links => exactly::Engine::Links,
            EngineArg::Cells => exactly::Engine::Cells,
            EngineArg::Bits => exactly::Engine::Bits,
            EngineArg::Masks => exactly::Engine::Masks,
            EngineArg::Sparse => exactly::Engine::Sparse,
        }
    }
}

// Arguments of `exactly solve`.
#[derive(Debug, Args)]
#[command(after_long_help = long_help!("exactly solve testdata/knuth-example.dlx"))]
pub struct SolveArgs {
    #[command(flatten)]
    pub problem: ProblemArgs,

    /// Output format.
    #[arg(short = 'o', long, value_enum, value_name = "FORMAT", default_value_t = OutputFormat::Knuth)]
    pub format: OutputFormat,

    /// Print one cheapest solution (option costs are the `|n` tokens), by
    /// branch-and-bound; its cost comes first (`| cost N` in knuth format).
    #[arg(long, conflicts_with_all = ["best", "every"])]
    pub min_cost: bool,

    /// Print the K cheapest distinct solution costs, one solution each,
    /// cheapest first.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "every", allow_negative_numbers = true)]
    pub best: Option<u64>,

    #[command(flatten)]
    pub search: SearchArgs,

    /// Worker threads (default: 1; at most 1024 start, and no more than
    /// there are subproblems). With more, solutions stream out as the
    /// threads find them, in no fixed order (the set never changes).
    /// --limit, --max-nodes and --trace run one plain search instead.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), allow_negative_numbers = true)]
    pub threads: Option<u64>,

    /// Solve under `mpirun`: rank 0 hands out subproblems to the other
    /// ranks, each searching them on --threads threads (default 1), and
    /// prints every solution they send (needs a build with the `mpi`
    /// feature).
    #[arg(long, conflicts_with = "every", hide = cfg!(not(feature = "mpi")))]
    pub mpi: bool,

    #[command(flatten)]
    pub every: EveryArg,
}

// `--every M`, for the commands that print solutions (`solve`, `queens`,
// `langford`, `polyomino`, and `sudoku --all`).
#[derive(Debug, Args)]
pub struct EveryArg {
    /// Print only every M-th solution (the M-th, the 2M-th, ...), as Knuth's
    /// programs do with their spacing option; `solve -o json` records keep
    /// each solution's number.
    #[arg(long, value_name = "M", default_value_t = 1, value_parser = parse_limit, allow_negative_numbers = true)]
    pub every: u64,
}

/// How `exactly count`, `estimate` and `merge` print their result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ResultFormat {
    /// Plain text: the number alone on the first line (`estimate`:
    /// `name: value` lines).
    Text,
    /// One JSON object on a line.
    Json,
}

// Arguments of `exactly count`.
#[derive(Debug, Args)]
#[command(after_long_help = long_help!("exactly count -j 2 testdata/langford-11.dlx"))]
pub struct CountArgs {
    #[command(flatten)]
    pub problem: ProblemArgs,

    #[command(flatten)]
    pub search: SearchArgs,

    /// Output format: the count alone on a line, or one JSON object
    /// `{"solutions": N, "complete": true}` (`complete` is false when a
    /// budget stopped the search, so that N is a lower bound).
    #[arg(short = 'o', long, value_enum, value_name = "FORMAT", default_value_t = ResultFormat::Text, conflicts_with_all = ["plan", "mpi"])]
    pub format: ResultFormat,

    /// Worker threads (default: every core; at most 1024 start, and no
    /// more than there are subproblems). The tree is split into at
    /// least 64 subproblems per thread (16 where the next level holds far
    /// more); counts never depend on N. --limit,
    /// --max-nodes and --trace run one plain search instead.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), allow_negative_numbers = true)]
    pub threads: Option<u64>,

    /// Record each finished subproblem in FILE and skip those already
    /// recorded there (resume a killed run with the same FILE).
    #[arg(long, value_name = "FILE", conflicts_with = "plan")]
    pub checkpoint: Option<PathBuf>,

    /// Count the subproblems of a plan made by `exactly plan` (with --shard).
    #[arg(long, value_name = "PLAN", requires = "shard")]
    pub plan: Option<PathBuf>,

    /// Count under `mpirun`: rank 0 hands subproblems to the other ranks,
    /// each counting them on --threads threads (default 1), and prints the
    /// total (needs a build with the `mpi` feature).
    #[arg(long, conflicts_with_all = ["plan", "checkpoint"], hide = cfg!(not(feature = "mpi")))]
    pub mpi: bool,

    /// Count through the diagram of all solutions (a memoised search, see
    /// `exactly zdd`): counts past 2^128 are exact. Budgets as for `zdd`
    /// (--timeout, --max-nodes); --limit, --seed, --trace, --engine and
    /// --threads do not apply.
    #[arg(long, conflicts_with_all = ["plan", "checkpoint", "mpi", "threads"])]
    pub zdd: bool,

    /// With --zdd, stop when the diagram and its memo pass this many bytes
    /// (suffixes K, M, G).
    #[arg(long, value_name = "BYTES", value_parser = parse_bytes, requires = "zdd", allow_negative_numbers = true)]
    pub max_memory: Option<u64>,

    /// The shard of the plan to count, `i/N` with 0 <= i < N: prints the
    /// shard's count, then one result line per subproblem, for `merge`.
    #[arg(long, value_name = "i/N", requires = "plan", value_parser = parse_shard, allow_negative_numbers = true)]
    pub shard: Option<Shard>,
}

/// One shard of a plan: `index` of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 0-based shard number.
    pub index: usize,
    /// Number of shards.
    pub count: usize,
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    let (i, n) = text
        .split_once('/')
        .ok_or_else(|| format!("expected i/N, found '{text}'"))?;
    let index: usize = i.parse().map_err(|_| format!("bad shard number '{i}'"))?;
    let count: usize = n.parse().map_err(|_| format!("bad shard count '{n}'"))?;
    if count == 0 || index >= count {
        return Err(format!("shard {index}/{count}: need 0 <= i < N"));
    }
    Ok(Shard { index, count })
}

// Arguments of `exactly estimate`.
#[derive(Debug, Args)]
#[command(after_long_help = long_help!("exactly estimate testdata/queens-13.dlx --probes 100"))]
pub struct EstimateArgs {
    #[command(flatten)]
    pub problem: ProblemArgs,

    /// Output format: `name: value` lines, or one JSON object with `nodes`
    /// and `solutions` (each `mean`, `low`, `high`; no range after one
    /// probe), `probes` and `complete`.
    #[arg(short = 'o', long, value_enum, value_name = "FORMAT", default_value_t = ResultFormat::Text)]
    pub format: ResultFormat,

    /// Number of random probes (at least 1; with 1 the range is unknown).
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..), allow_negative_numbers = true)]
    pub probes: u64,

    /// Seed of the random probes.
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: u64,

    /// Stop probing after SECS seconds and report the probes made so far
    /// (exit status 3).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub timeout: Option<Duration>,

    /// Stop probing once the probes have visited N nodes in all, and report
    /// the probes made so far (exit status 3).
    #[arg(long, value_name = "N", value_parser = parse_limit, allow_negative_numbers = true)]
    pub max_nodes: Option<u64>,
}

// Arguments of `exactly plan`.
#[derive(Debug, Args)]
#[command(after_long_help = example!("exactly plan testdata/langford-11.dlx --cubes 16"))]
pub struct PlanArgs {
    #[command(flatten)]
    pub problem: ProblemArgs,

    /// Split into at least this many subproblems (at most 1048576).
    #[arg(long, value_name = "K", default_value_t = 1024, value_parser = parse_size, allow_negative_numbers = true)]
    pub cubes: usize,

    /// Random probes per subproblem for its size estimate (more probes,
    /// better balanced shards: on pentomino 6x10 cut into 2192 subproblems,
    /// 8 shards' largest load was 1.20, 1.15 and 1.05 times the mean with 64,
    /// 256 and 1024 probes; contiguous blocks gave 1.81). At least 1.
    #[arg(long, value_name = "N", default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..), allow_negative_numbers = true)]
    pub probes: u64,

    /// Give up after SECS seconds (the split and the probes together): no
    /// plan is written, and the exit status is 3.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub timeout: Option<Duration>,

    /// Give up once the split and the probes have visited N nodes in all:
    /// no plan is written, and the exit status is 3.
    #[arg(long, value_name = "N", value_parser = parse_limit, allow_negative_numbers = true)]
    pub max_nodes: Option<u64>,
}

// Arguments of `exactly merge`.
#[derive(Debug, Args)]
#[command(after_long_help = long_help!("exactly plan testdata/langford-11.dlx --cubes 16 > l11.plan && exactly count --plan l11.plan --shard 0/1 testdata/langford-11.dlx > l11.0 && exactly merge l11.0"))]
pub struct MergeArgs {
    /// Result files written by `count --plan PLAN --shard i/N`.
    #[arg(value_name = "RESULTS", required = true)]
    pub results: Vec<PathBuf>,

    /// Output format: the total alone on a line, or one JSON object
    /// `{"solutions": N, "results": FILES}`.
    #[arg(short = 'o', long, value_enum, value_name = "FORMAT", default_value_t = ResultFormat::Text)]
    pub format: ResultFormat,
}

// Arguments of `exactly verify`.
#[derive(Debug, Args)]
#[command(after_long_help = long_help!("exactly solve testdata/knuth-example.dlx | exactly verify testdata/knuth-example.dlx -"))]
pub struct VerifyArgs {
    /// The problem file (`-` reads standard input).
    #[arg(value_name = "PROBLEM")]
    pub problem: PathBuf,

    /// The solutions: blocks of option lines separated by blank lines, as
    /// `exactly solve` prints them (`-` reads standard input).
    #[arg(value_name = "SOLUTIONS")]
    pub solutions: PathBuf,

    /// Input format of the problem (see `exactly solve --help`).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = InputFormat::Dlx)]
    pub input: InputFormat,
}

// Arguments of `exactly cover`.
#[derive(Debug, Args)]
#[command(after_long_help = long_help!("exactly cover --min testdata/knuth-example.dlx"))]
pub struct CoverArgs {
    #[command(flatten)]
    pub problem: ProblemArgs,

    /// Find a cover with the fewest options (IDA*); the only mode so far.
    #[arg(long, required = true)]
    pub min: bool,

    /// Minimize the sum of the options' costs (`|n`) instead of their number.
    #[arg(long)]
    pub weighted: bool,

    /// Output format: the minimum on the first line, then the options
    /// (knuth), or one JSON object with `cost` and `options`, or the
    /// 0-based option indices on the second line.
    #[arg(short = 'o', long, value_enum, value_name = "FORMAT", default_value_t = OutputFormat::Knuth)]
    pub format: OutputFormat,

    #[command(flatten)]
    pub search: SearchArgs,
}

// Arguments of `exactly squares`.
#[derive(Debug, Args)]
#[command(after_long_help = example!("exactly squares 3"))]
pub struct SquaresArgs {
    /// Grid size (squares per side), 1 to 10.
    #[arg(value_parser = parse_size, allow_negative_numbers = true)]
    pub n: usize,

    /// Matchsticks already missing, numbered from 1 as in POJ 1084:
    /// row by row, each row of horizontal sticks followed by the vertical
    /// ones below it.
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse_size, allow_hyphen_values = true)]
    pub removed: Vec<usize>,

    /// Print statistics (nodes, updates, IDA* iterations, time) on stderr.
    #[arg(short, long)]
    pub stats: bool,

    /// How --stats prints: `text` lines, or one `json` object on a line
    /// (implies --stats).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = StatsFormat::Text)]
    pub stats_format: StatsFormat,

    /// Search without the IDA* estimate (plain iterative deepening), to
    /// measure what the estimate saves.
    #[arg(long)]
    pub no_estimate: bool,

    /// Stop after SECS seconds (exit status 3, nothing on standard output).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub timeout: Option<Duration>,

    /// Stop after N search nodes (exit status 3, nothing on standard output).
    #[arg(long, value_name = "N", value_parser = parse_limit, allow_negative_numbers = true)]
    pub max_nodes: Option<u64>,
}

/// Parses a positive number of solutions.
fn parse_limit(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("expected a positive integer, found '{text}'")),
    }
}

/// Parses a positive number of bytes, with an optional suffix K, M or G
/// (powers of 1024).
fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (digits, unit) = match t.char_indices().last() {
        Some((i, 'K' | 'k')) => (&t[..i], 1u64 << 10),
        Some((i, 'M' | 'm')) => (&t[..i], 1 << 20),
        Some((i, 'G' | 'g')) => (&t[..i], 1 << 30),
        _ => (t, 1),
    };
    match digits.parse::<u64>().ok().and_then(|n| n.checked_mul(unit)) {
        Some(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "expected a positive number of bytes (suffix K, M or G allowed), found '{text}'"
        )),
    }
}

/// Parses a positive number of threads.
fn parse_threads(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "expected a positive number of threads, found '{text}'"
        )),
    }
}

/// Parses a puzzle size: a positive integer.
fn parse_size(text: &str) -> Result<usize, String> {
    let digits = text.trim();
    let positive = || format!("expected a positive integer, found '{text}'");
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(positive());
    }
    match digits.parse::<usize>() {
        Ok(0) => Err(positive()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{text}' is too large")),
    }
}

/// Parses a random seed: an integer from 0 to 2^64 - 1.
fn parse_seed(text: &str) -> Result<u64, String> {
    text.trim()
        .parse::<u64>()
        .map_err(|_| format!("expected an integer from 0 to {}, found '{text}'", u64::MAX))
}

/// The longest time budget, in seconds (about 31.7 years): longer ones are
/// cut to it, so that adding the budget to the current time cannot overflow.
pub const MAX_TIMEOUT_SECS: f64 = 1e9;

/// Parses a positive, finite number of seconds: the one parser of every
/// command's time budget (`--timeout`, `--report-every`). Values past
/// [`MAX_TIMEOUT_SECS`] are cut to it; negative and non-finite ones are
/// refused, and so are positive ones that round to no time at all (below
/// half a nanosecond), as `0` is.
pub(crate) fn parse_seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("expected a number of seconds, found '{text}'"))?;
    if !secs.is_finite() {
        return Err(format!(
            "expected a positive, finite number of seconds, found '{text}'"
        ));
    }
    if secs < 0.0 {
        return Err(format!(
            "expected a positive number of seconds, found '{text}'"
        ));
    }
    let time = Duration::from_secs_f64(secs.min(MAX_TIMEOUT_SECS));
    if time.is_zero() {
        let why = if secs == 0.0 {
            String::new()
        } else {
            " (it rounds to no time at all; the shortest is 1e-9, a nanosecond)".to_string()
        };
        return Err(format!(
            "expected a positive number of seconds, found '{text}'{why}; leave the budget out \
             for no time limit"
        ));
    }
    Ok(time)
}

#[cfg(test)]
mod tests;
