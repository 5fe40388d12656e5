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
    // On exit 2 stdout stays empty, whatever the format: the reasons go to stderr.
    match format {
        CheckFormat::Json if code != EXIT_CANNOT => {
            emit(checkrun::json_report(&checked, &problems).as_bytes(), ExitCode::from(code))
        }
        CheckFormat::Github if code != EXIT_CANNOT => {
            emit(checkrun::github_annotations(&checked, &problems).as_bytes(), ExitCode::from(code))
        }
        _ => {
            let mut err = io::stderr().lock();
            for line in checkrun::human_lines(&checked, &problems, a.quiet) {
                let _ = writeln!(err, "{line}");
            }
            Ok(ExitCode::from(code))
        }
    }
}
