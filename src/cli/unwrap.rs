//! `inertbox unwrap`: the first JSON value in a model's reply.

use std::process::ExitCode;

use anyhow::Result;

use inertbox::Document;
use inertbox::input::Input;

use super::args::UnwrapArgs;
use super::emit;

pub fn run(a: UnwrapArgs) -> Result<ExitCode> {
    let input = Input::from_arg(a.file.as_deref());
    let doc = Document::read(&input, Some(a.max_bytes))?;
    let text = String::from_utf8_lossy(&doc.raw);
    match inertbox::unwrap::first_json(&text) {
        Some(v) => {
            let mut s = v.to_string();
            s.push('\n');
            emit(s.as_bytes(), ExitCode::SUCCESS)
        }
        None => {
            eprintln!("inertbox: no JSON object or array in the reply");
            Ok(ExitCode::from(1))
        }
    }
}
