//! `exactly sudoku` answers as its input comes: each record is answered
//! before the input ends, so a batch of any length runs in bounded memory
//! and the first answers come at once.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::sync::mpsc;
use std::time::Duration;

const NINE: &str =
    "......1.9.....32.....62..4.....7..6..9.2....84.28.......7.5.9..983..1....2......7";
const NINE_SOLVED: &str =
    "276584139845913276139627845358179462791246358462835791617452983983761524524398617";

/// How long to wait for an answer before the test is called hung: no
/// measure of speed, only a guard against waiting forever.
const HANG: Duration = Duration::from_secs(300);

#[test]
fn answers_come_before_the_input_ends() {
    for args in [
        &["sudoku", "--threads", "1"][..],
        &["sudoku", "--threads", "3"],
    ] {
        let mut child = common::spawn(args);
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (send, lines) = mpsc::channel();
        let reading = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if send.send(line.expect("text")).is_err() {
                    break;
                }
            }
        });
        let mut next = || match lines.recv_timeout(HANG) {
            Ok(line) => line,
            Err(_) => {
                let _ = child.kill();
                panic!("no answer while the input is still open");
            }
        };
        // A puzzle on one line, then a bad record: each answered while
        // standard input stays open.
        writeln!(stdin, "{NINE}").unwrap();
        stdin.flush().unwrap();
        assert_eq!(next(), NINE_SOLVED);
        writeln!(stdin, "12x{}", &NINE[3..]).unwrap();
        stdin.flush().unwrap();
        let bad = next();
        assert!(
            bad.starts_with("invalid: line 2, column 3: bad character 'x'"),
            "{bad}"
        );
        // A grid, at the blank line that ends it.
        let grid: String = NINE
            .as_bytes()
            .chunks(9)
            .map(|row| format!("{}\n", std::str::from_utf8(row).unwrap()))
            .collect();
        writeln!(stdin, "{grid}").unwrap();
        stdin.flush().unwrap();
        assert_eq!(next(), "");
        let rows: Vec<String> = (0..9).map(|_| next()).collect();
        assert_eq!(rows.concat(), NINE_SOLVED);
        drop(stdin);
        let status = child.wait().unwrap();
        reading.join().unwrap();
        assert_eq!(status.code(), Some(2), "one record is invalid");
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
        assert!(err.contains("3 puzzles: 2 unique"), "{err}");
    }
}

#[test]
fn a_long_batch_gives_one_answer_a_record_in_order() {
    // More records than are solved together, with a bad one in the middle.
    let mut text = String::new();
    for k in 0..10_000 {
        match k {
            5_000 => text.push_str("12x\n"),
            _ => text.push_str("12..34..........\n"),
        }
    }
    // Read on the solver's thread (one thread) and on a thread of its own.
    for threads in ["1", "2"] {
        let args = ["sudoku", "--first", "--threads", threads];
        let (code, out, err) = common::run(&args, text.as_bytes());
        assert_eq!(code, Some(2), "{err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 10_000);
        assert!(
            lines[5_000].starts_with("invalid: line 5001"),
            "{}",
            lines[5_000]
        );
        // Each a solution that keeps the givens, the same one every time.
        let first = lines[0];
        let givens = "12..34..........";
        assert_eq!(first.len(), 16);
        assert!(givens
            .chars()
            .zip(first.chars())
            .all(|(g, c)| g == '.' || g == c));
        assert!(!first.contains('.'));
        assert!(
            lines
                .iter()
                .enumerate()
                .all(|(k, l)| k == 5_000 || *l == first),
            "{out}"
        );
    }
}

#[test]
fn a_read_error_ends_the_batch_naming_the_input() {
    // A directory opens, and its first read fails.
    let dir = common::root().join("testdata");
    let dir = dir.to_str().expect("a UTF-8 path");
    for threads in ["1", "2"] {
        let (code, out, err) = common::run(&["sudoku", "--threads", threads, dir], b"");
        assert_eq!(code, Some(2), "{err}");
        assert_eq!(out, "");
        assert!(err.contains(&format!("{dir}: cannot read")), "{err}");
    }
}
