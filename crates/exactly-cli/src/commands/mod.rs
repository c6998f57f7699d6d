//! One module per subcommand, each with a `run` that returns how it ended.

mod contest;
mod count;
mod cover;
mod docs;
#[cfg(feature = "mpi")]
mod mpi;
mod puzzles;
mod scale;
mod solve;
mod squares;
mod sudoku;
mod sudoku_tools;
mod verify;
mod zdd;

use crate::cli::Command;
use crate::input::Input;
use crate::report::{self, Status};

/// Runs a subcommand.
pub fn run(command: &Command) -> anyhow::Result<Status> {
    match command {
        Command::Solve(args) => solve::run(args),
        Command::Count(args) => count::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Gen(args) => puzzles::gen(args),
        Command::Queens(args) => puzzles::queens(args),
        Command::Langford(args) => puzzles::langford(args),
        Command::Sudoku(args) => match &args.tool {
            Some(tool) => sudoku_tools::run(tool),
            None => sudoku::run(args),
        },
        Command::Cover(args) => cover::min_cover(args),
        Command::Squares(args) => squares::run(args),
        Command::Contest(args) => contest::run(args),
        Command::Polyomino(args) => puzzles::polyomino(args),
        Command::Estimate(args) => scale::estimate(args),
        Command::Plan(args) => scale::plan(args),
        Command::Merge(args) => scale::merge(args),
        Command::Zdd(args) => zdd::write(args),
        Command::Sample(args) => zdd::sample(args),
        Command::Completions(args) => docs::completions(args),
        Command::Man(args) => docs::man(args),
    }
}

/// Prints the warnings of a problem on stderr.
fn print_warnings(input: &Input) {
    for w in &input.warnings {
        report::message(w);
    }
}
