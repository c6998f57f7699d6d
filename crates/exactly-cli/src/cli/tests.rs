use super::*;
use clap::CommandFactory;

#[test]
fn arguments_are_consistent() {
    Cli::command().debug_assert();
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
