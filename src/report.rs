//! How scan reports are printed: for people (with colour on a terminal), as
//! JSON for scripts, and as SARIF 2.1.0 for code scanning.

use std::fmt::Write as _;

use anstyle::{AnsiColor, Style};
use serde_json::{Value, json};

use crate::detect::{Report, Severity, Verdict};
use crate::escape::terminal_safe;

const BOLD: Style = Style::new().bold();
const DIM: Style = Style::new().dimmed();

fn verdict_style(v: Verdict) -> Style {
    match v {
        Verdict::Allow => AnsiColor::Green.on_default().bold(),
        Verdict::Review => AnsiColor::Yellow.on_default().bold(),
        Verdict::Block => AnsiColor::Red.on_default().bold(),
    }
}

fn severity_style(s: Severity) -> Style {
    match s {
        Severity::Low => AnsiColor::Cyan.on_default(),
        Severity::Medium => AnsiColor::Yellow.on_default(),
        Severity::High => AnsiColor::Red.on_default().bold(),
    }
}

/// The line that names what was scanned: its kind, its source label and,
/// when `--source` named it otherwise, the input it came from (`input`, the
/// path as given or `stdin`); for an email also its sender and subject.
pub fn source_line(r: &Report, input: &str) -> String {
    let mut named = terminal_safe(&r.source);
    if r.source != input {
        named = format!("{named} ({})", terminal_safe(input));
    }
    match &r.email {
        Some(e) => {
            let from = e.from.first().map(String::as_str).unwrap_or("(no sender)");
            let subject = e.subject.as_deref().unwrap_or("(no subject)");
            format!("email {named} from {}: \"{}\"", terminal_safe(from), terminal_safe(&crate::escape::shown(subject)))
        }
        None => format!("{} {named}", r.kind.as_str()),
    }
}

/// One finding on one line, for a note beside other output (`wrap --scan`).
pub fn finding_line(f: &crate::detect::Finding) -> String {
    format!("{} {} [{}] line {}: \"{}\"", f.severity.as_str(), f.code.as_str(), f.rule, f.line, terminal_safe(&f.text))
}

/// The human report of the input named `input`. Styles are ANSI
/// sequences; the caller's stream strips them when colour is off.
pub fn human(r: &Report, input: &str) -> String {
    let mut s = String::new();
    let vs = verdict_style(r.verdict);
    let _ = writeln!(
        s,
        "{vs}{:<6}{vs:#} score {:<3}  {}",
        r.verdict.as_str().to_uppercase(),
        r.score,
        source_line(r, input)
    );
    for f in &r.findings {
        let ss = severity_style(f.severity);
        let mut place = format!("{}, line {}, col {}", f.location, f.line, f.column);
        if let Some(h) = f.hidden_by {
            let _ = write!(place, "  (hidden: {})", h.describe());
        }
        let _ = writeln!(
            s,
            "  {ss}{:<6}{ss:#} {BOLD}{}{BOLD:#}  {DIM}{}  [{}]{DIM:#}",
            f.severity.as_str(),
            f.code.as_str(),
            terminal_safe(&place),
            f.rule
        );
        let mut why = f.why.clone();
        if f.obfuscated {
            why.push_str("; disguised");
        }
        if f.quoted {
            why.push_str("; quoted as an example, counted lower");
        }
        let _ = writeln!(s, "         {}", terminal_safe(&why));
        let _ = writeln!(s, "         \"{}\"", terminal_safe(&f.text));
        if let Some(d) = &f.decoded {
            let _ = writeln!(s, "         decoded: \"{}\"", terminal_safe(&crate::escape::shown(d)));
        }
    }
    if r.findings_omitted > 0 {
        let _ = writeln!(s, "  … {} more findings not listed (counted in the score)", r.findings_omitted);
    }
    s
}

/// A report with the input it came from, first.
#[derive(serde::Serialize)]
struct Named<'a> {
    input: &'a str,
    #[serde(flatten)]
    report: &'a Report,
}

/// One report as one line of JSON (`scan --json` prints one per input,
/// one input or many): the report's fields after `input`, the path as
/// given or `stdin`.
pub fn json_line(r: &Report, input: &str) -> String {
    let mut s = serde_json::to_string(&Named { input, report: r }).expect("report serializes");
    s.push('\n');
    s
}

/// SARIF 2.1.0: one run, one result per finding, with file, line and column.
pub fn sarif(reports: &[(String, Report)]) -> String {
    let mut rules: Vec<Value> = Vec::new();
    let mut rule_ids: Vec<String> = Vec::new();
    let mut results: Vec<Value> = Vec::new();
    for (path, r) in reports {
        for f in &r.findings {
            let idx = match rule_ids.iter().position(|x| *x == f.rule) {
                Some(i) => i,
                None => {
                    rule_ids.push(f.rule.clone());
                    rules.push(json!({
                        "id": f.rule,
                        "name": f.code.as_str(),
                        "shortDescription": { "text": format!("{}: {}", f.code.as_str(), f.why) },
                        "properties": { "tags": ["security", "prompt-injection", f.code.as_str()] },
                    }));
                    rule_ids.len() - 1
                }
            };
            let level = match f.severity {
                Severity::High => "error",
                Severity::Medium => "warning",
                Severity::Low => "note",
            };
            let mut message = format!("{} ({}): {}", f.code.as_str(), f.severity.as_str(), f.why);
            if let Some(h) = f.hidden_by {
                let _ = write!(message, "; hidden: {}", h.describe());
            }
            if let Some(d) = &f.decoded {
                let _ = write!(message, "; decoded: {}", crate::escape::shown(d));
            }
            results.push(json!({
                "ruleId": f.rule,
                "ruleIndex": idx,
                "level": level,
                "message": { "text": message },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": { "uri": uri(path) },
                        "region": {
                            "startLine": f.line,
                            "startColumn": f.column,
                            "snippet": { "text": f.text },
                        },
                    },
                    "logicalLocations": [{ "name": f.location, "kind": "member" }],
                }],
                "properties": {
                    "code": f.code.as_str(),
                    "severity": f.severity.as_str(),
                    "hidden": f.hidden,
                    "obfuscated": f.obfuscated,
                    "verdict": r.verdict.as_str(),
                },
            }));
        }
    }
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "inertbox",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://github.com/inertbox/inertbox",
                "rules": rules,
            }},
            "results": results,
        }],
    });
    let mut s = serde_json::to_string_pretty(&doc).expect("sarif serializes");
    s.push('\n');
    s
}

/// A relative URI for a path as given (or `stdin`).
fn uri(path: &str) -> String {
    let p = path.strip_prefix("./").unwrap_or(path);
    p.chars()
        .map(|c| match c {
            ' ' => "%20".to_string(),
            '%' => "%25".to_string(),
            '#' => "%23".to_string(),
            '?' => "%3F".to_string(),
            c => c.to_string(),
        })
        .collect()
}
