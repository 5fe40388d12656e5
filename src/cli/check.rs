//! `inertbox check`: verify wrapped documents (human lines, JSON, GitHub
//! annotations).

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Result;

use inertbox::checkrun;

use super::args::{CheckArgs, CheckFormat};
use super::{EXIT_CANNOT, emit};

pub fn run(a: CheckArgs) -> Result<ExitCode> {
    let (targets, problems) = checkrun::collect_targets(&a.paths);
    let checked = checkrun::check_targets(targets);
    let code = checkrun::exit_code(&checked, &problems);
    let format = if a.json { CheckFormat::Json } else { a.format.unwrap_or(CheckFormat::Human) };
    // Notes (nothing to check, git could not list a directory) go to stderr
    // whatever the format, --quiet too: a run that checked nothing, or fewer
    // files than asked, never passes without a word.
    let say = |lines: Vec<String>| {
        let mut err = io::stderr().lock();
        for line in lines {
            let _ = writeln!(err, "{line}");
        }
    };
    // On exit 2 stdout stays empty, whatever the format: the reasons go to stderr.
    let out = match format {
        CheckFormat::Json if code != EXIT_CANNOT => checkrun::json_report(&checked, &problems),
        CheckFormat::Github if code != EXIT_CANNOT => checkrun::github_annotations(&checked, &problems),
        _ => {
            say(checkrun::human_lines(&checked, &problems, a.quiet));
            String::new()
        }
    };
    say(checkrun::notes(&checked, &problems));
    emit(out.as_bytes(), ExitCode::from(code))
}
