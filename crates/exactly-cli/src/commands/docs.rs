//! `exactly completions SHELL` and `exactly man`: documents generated from
//! the argument definitions, so they never disagree with `--help`.

use std::io::{self, Write};

use anyhow::Context;
use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs, ManArgs};
use crate::report::Status;

/// Writes the completion script for `args.shell` on stdout.
pub fn completions(args: &CompletionsArgs) -> anyhow::Result<Status> {
    let mut command = <Cli>::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "exactly", &mut script);
    write_stdout(&script)
}

/// Writes a man page in roff on stdout: `exactly(1)` (the overview, the
/// global options and the list of subcommands), or with a subcommand's
/// name its own page, `exactly-solve(1)` and so on.
pub fn man(args: &ManArgs) -> anyhow::Result<Status> {
    let mut command = <Cli>::command();
    command.build();
    let page = match &args.subcommand {
        None => command,
        Some(name) => {
            let Some(sub) = command
                .get_subcommands()
                .find(|s| s.get_name() == name && !s.is_hide_set())
            else {
                let names: Vec<&str> = command
                    .get_subcommands()
                    .filter(|s| !s.is_hide_set())
                    .map(|s| s.get_name())
                    .collect();
                anyhow::bail!(
                    "exactly man {name}: no such subcommand (one of {})",
                    names.join(", ")
                );
            };
            sub.clone()
                .display_name(format!("exactly-{name}"))
                .bin_name(format!("exactly {name}"))
                .version(env!("CARGO_PKG_VERSION"))
        }
    };
    let mut text = Vec::new();
    clap_mangen::Man::new(page)
        .source(format!("exactly {}", env!("CARGO_PKG_VERSION")))
        .manual("exactly manual")
        .render(&mut text)?;
    write_stdout(&text)
}

fn write_stdout(bytes: &[u8]) -> anyhow::Result<Status> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .context("cannot write to standard output")?;
    Ok(Status::Success)
}
