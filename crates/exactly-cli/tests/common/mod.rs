//! Running the real `exactly` binary from integration tests.

#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

/// The crate's directory, where the tests run the binary: its `testdata/`
/// holds links to the files the tests need (the repository's `testdata/`
/// and exactly-puzzles' sudoku files), carried as plain files by the
/// package, so the paths the tests name are those of the repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `name` with this run's process id, under the folder Cargo gives
/// integration tests for their files (inside the build folder, so
/// nothing is left in the system's temporary folder): a run's scratch
/// folder or file, apart from another run's.
pub fn scratch_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()))
}

/// The `exactly` binary, to be run from the crate's directory.
pub fn exactly() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_exactly"));
    cmd.current_dir(root());
    cmd
}

/// Starts `exactly` with `args`, its standard input, output and error
/// piped.
pub fn spawn(args: &[&str]) -> Child {
    exactly()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the exactly binary starts")
}

/// Runs `exactly` with `args` and `stdin`; returns the status code, stdout
/// and stderr.
pub fn run(args: &[&str], stdin: &[u8]) -> (Option<i32>, String, String) {
    let mut child = spawn(args);
    let mut input = child.stdin.take().expect("stdin is piped");
    let stdin = stdin.to_vec();
    // Feed stdin from another thread so a full stdout pipe cannot deadlock us.
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let output = child.wait_with_output().expect("exactly runs");
    feeder.join().expect("stdin feeder");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}
