//! `inertbox man`: the manual pages, one per command (clap_mangen), printed
//! one at a time or written into a directory.

use std::process::ExitCode;

use anyhow::{Context as _, Result, bail};

use super::args::{Cli, ManArgs};
use super::emit;

pub fn run(a: ManArgs) -> Result<ExitCode> {
    // Built as the pages name each other: `inertbox-scan`, no `help` command.
    let mut cmd = <Cli as clap::CommandFactory>::command().disable_help_subcommand(true);
    cmd.build();
    if let Some(dir) = &a.dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {:?}", dir.display().to_string()))?;
        clap_mangen::generate_to(cmd, dir)
            .with_context(|| format!("cannot write the pages into {:?}", dir.display().to_string()))?;
        let mut pages: Vec<String> = std::fs::read_dir(dir)
            .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .filter(|p| {
                p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("inertbox"))
                    && p.extension().is_some_and(|e| e == "1")
            })
            .map(|p| p.display().to_string())
            .collect();
        pages.sort();
        for p in pages {
            eprintln!("inertbox: wrote {p}");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut page = &cmd;
    for word in &a.command {
        let Some(sub) = page.find_subcommand(word) else {
            let known: Vec<&str> = page.get_subcommands().map(|c| c.get_name()).collect();
            bail!(
                "man: no command {word:?} in {} (commands: {})",
                page.get_display_name().unwrap_or("inertbox"),
                known.join(", ")
            );
        };
        page = sub;
    }
    let mut out = Vec::new();
    clap_mangen::Man::new(page.clone()).render(&mut out).context("cannot render the manual")?;
    emit(&out, ExitCode::SUCCESS)
}
