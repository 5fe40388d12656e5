//! `inertbox fence`: untrusted content for a prompt, in a boundary it
//! cannot forge.

use std::process::ExitCode;

use anyhow::Result;

use inertbox::Document;
use inertbox::input::{Input, lossy};

use super::args::FenceArgs;
use super::{declared_email, emit, record};

pub fn run(a: FenceArgs) -> Result<ExitCode> {
    use inertbox::fence;
    if let Some(text) = &a.inline {
        let mut out = fence::inline(&lossy(text));
        out.push('\n');
        return emit(out.as_bytes(), ExitCode::SUCCESS);
    }
    let input = Input::from_arg(a.file.as_deref());
    let source = a.source.as_ref().map(lossy);
    let raw = Document::read(&input, Some(a.max_bytes))?.raw;
    input.refuse_binary(&raw)?;
    if raw.is_empty() {
        eprintln!("{}", input.empty_note("the fence holds nothing"));
    }
    let doc = Document::load(raw, a.kind, source.unwrap_or_else(|| input.source_label()));
    let report = inertbox::detect::scan(&doc, &inertbox::detect::Options::default());
    if let Some(session) = &a.session
        && let Err(e) = record(session, [(&report, declared_email(a.kind, &input))])
    {
        return Err(e);
    }
    let opts =
        fence::Options { source: doc.source.clone(), mode: a.mode, keep_hidden: a.keep_hidden, render: a.format };
    let fenced = fence::fence(&doc, report, &opts)?;
    let out = if a.json {
        let mut s = serde_json::to_string_pretty(&fenced).expect("fence serializes");
        s.push('\n');
        s
    } else if a.instructions {
        format!("{}\n{}", fenced.instructions, fenced.text)
    } else {
        fenced.text
    };
    emit(out.as_bytes(), ExitCode::SUCCESS)
}
