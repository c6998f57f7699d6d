use super::*;
use clap::CommandFactory;

#[test]
fn arguments_are_consistent() {
    <Cli>::command().debug_assert();
}

#[test]
fn levels() {
    assert_eq!(parse_levels("2..5"), Ok(Levels { first: 2, last: 5 }));
    assert_eq!(
        parse_levels("3.."),
        Ok(Levels {
            first: 3,
            last: u32::MAX
        })
    );
    assert_eq!(parse_levels("..4"), Ok(Levels { first: 0, last: 4 }));
    assert!(parse_levels("5..2").is_err());
    assert!(parse_levels("5").is_err());
    assert!(parse_levels("a..b").is_err());
    assert!(Levels { first: 2, last: 3 }.contains(3));
    assert!(!Levels { first: 2, last: 3 }.contains(4));
}

#[test]
fn bytes() {
    assert_eq!(parse_bytes("10"), Ok(10));
    assert_eq!(parse_bytes("2K"), Ok(2048));
    assert_eq!(parse_bytes("8G"), Ok(8 << 30));
    assert!(parse_bytes("0").is_err());
    assert!(parse_bytes("-1").is_err());
    assert!(parse_bytes("99999999999G").is_err());
    assert!(parse_bytes("G").is_err());
}

#[test]
fn limits() {
    assert_eq!(parse_limit("7"), Ok(7));
    assert!(parse_limit("0").is_err());
    assert!(parse_limit("-3").is_err());
}

#[test]
fn seconds() {
    assert_eq!(parse_seconds("1.5"), Ok(Duration::from_millis(1500)));
    assert!(parse_seconds("0").is_err());
    assert!(parse_seconds("0.0").is_err());
    assert!(parse_seconds("-0").is_err());
    assert!(parse_seconds("-1").is_err());
    assert!(parse_seconds("inf").is_err());
    assert!(parse_seconds("NaN").is_err());
    assert!(parse_seconds("soon").is_err());
    assert_eq!(
        parse_seconds("1e300"),
        Ok(Duration::from_secs(1_000_000_000))
    );
    // One rule for every budget: what rounds to no time is refused as
    // 0 is, whatever its spelling.
    for tiny in ["1e-300", "4e-10", "0.0000000001", "5e-324"] {
        let err = parse_seconds(tiny).unwrap_err();
        assert!(err.contains("rounds to no time"), "{tiny}: {err}");
    }
    assert_eq!(parse_seconds("1e-9"), Ok(Duration::from_nanos(1)));
    assert_eq!(parse_seconds("2e-9"), Ok(Duration::from_nanos(2)));
}

#[test]
fn sizes_and_seeds() {
    assert_eq!(parse_size("8"), Ok(8));
    assert!(parse_size("0").unwrap_err().contains("positive integer"));
    assert!(parse_size("-1").unwrap_err().contains("positive integer"));
    assert!(parse_size("99999999999999999999999")
        .unwrap_err()
        .contains("too large"));
    assert_eq!(parse_seed("0"), Ok(0));
    assert!(parse_seed("-1").unwrap_err().contains("from 0 to"));
}

/// Every command's help, short and long, and usage, down the tree. The
/// `help` subcommands are left out: clap copies into them the tree as it
/// stands when their parent is built (for completions, which use the eager
/// tree), and a run's `exactly help gen queens` looks up the real commands.
fn helps(command: &mut clap::Command, path: &str, out: &mut Vec<(String, String)>) {
    out.push((path.to_string(), command.render_help().to_string()));
    out.push((path.to_string(), command.render_long_help().to_string()));
    out.push((path.to_string(), command.render_usage().to_string()));
    for sub in command
        .get_subcommands_mut()
        .filter(|sub| sub.get_name() != "help")
    {
        let path = format!("{path} {}", sub.get_name());
        helps(sub, &path, out);
    }
}

#[test]
fn a_run_parses_with_the_same_arguments_as_help_shows() {
    let mut eager = <Cli>::command();
    let mut lazy = Cli::<LazyCommand>::command();
    eager.build();
    lazy.build();
    let (mut eager_helps, mut lazy_helps) = (Vec::new(), Vec::new());
    helps(&mut eager, "exactly", &mut eager_helps);
    helps(&mut lazy, "exactly", &mut lazy_helps);
    assert!(eager_helps.len() > 60, "{} helps", eager_helps.len());
    assert_eq!(eager_helps.len(), lazy_helps.len());
    for ((path, eager), (_, lazy)) in eager_helps.iter().zip(&lazy_helps) {
        assert_eq!(eager, lazy, "`{path}`: the lazy tree's help differs");
    }
}

#[test]
fn a_lazy_subcommand_is_built_only_when_reached() {
    let lazy = Cli::<LazyCommand>::command();
    let sudoku = lazy.find_subcommand("sudoku").expect("sudoku");
    assert_eq!(sudoku.get_arguments().count(), 0);
    assert!(sudoku.get_about().is_some());
    let cli = Cli::<LazyCommand>::try_parse_from(["exactly", "sudoku", "--threads", "1", "x.txt"])
        .expect("parses");
    match Command::from(cli.command) {
        Command::Sudoku(args) => assert_eq!(args.threads, Some(1)),
        other => panic!("parsed as {other:?}"),
    }
}
