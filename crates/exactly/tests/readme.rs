//! The repository's README shows the same library example as the crate's
//! README, whose example runs as a doctest (`ReadmeDoctests` in `lib.rs`).
//! `testdata/repository-README.md` links to the repository's README, which
//! the package carries as a plain file, so the check runs there too.

use std::path::Path;

/// The first ```rust block of a Markdown text.
fn rust_block(text: &str) -> Option<&str> {
    let start = text.find("```rust\n")? + "```rust\n".len();
    let len = text[start..].find("```")?;
    Some(&text[start..start + len])
}

#[test]
fn repository_readme_shows_the_doctested_example() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let crate_readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let root_readme = std::fs::read_to_string(dir.join("testdata/repository-README.md")).unwrap();
    let tested = rust_block(&crate_readme).expect("a rust block in crates/exactly/README.md");
    let shown = rust_block(&root_readme).expect("a rust block in README.md");
    assert_eq!(
        shown, tested,
        "README.md's library example differs from crates/exactly/README.md's (the doctested one)"
    );
}
