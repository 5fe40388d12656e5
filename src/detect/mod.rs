//! Findings, score and verdict: what in a document speaks to an AI or hides
//! from a person.
//!
//! `scan` walks a loaded Document's parts. Two kinds of finding come out:
//! channel findings from the Document's hidden spans (smuggled Unicode,
//! invisible characters, bidi controls, hidden text that gives a direction),
//! and word findings from the rules in `rules` run over every part's text,
//! visible and hidden. Scanners take `&Document` and return values; they
//! never print.

pub mod decode;
pub mod links;
pub mod normalize;
pub mod obfuscation;

pub mod rules;

use serde::Serialize;

use crate::document::{Document, EmailMeta, Entity, HiddenReason, Kind, Part, Span};

/// Points per severity (DESIGN.md, "Verdict").
const HIGH_POINTS: f64 = 60.0;
const MEDIUM_POINTS: f64 = 25.0;
const LOW_POINTS: f64 = 8.0;
/// Default thresholds: review at 25 points, block at 50 (or any high).
pub const DEFAULT_REVIEW_AT: u32 = 25;
pub const DEFAULT_BLOCK_AT: u32 = 50;
/// The default size cap for scanned content (`--max-bytes`, `INERTBOX_MAX_BYTES`).
pub const DEFAULT_MAX_BYTES: u64 = 10 << 20;
/// Findings kept per report; the score still counts every one (bounded output
/// for inputs with 100k tiny findings).
const MAX_FINDINGS: usize = 200;
/// Characters of matched text quoted in a finding.
const MAX_QUOTE: usize = 200;

/// The stable finding codes scripts branch on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Code {
    Override,
    RoleHijack,
    FakeBoundary,
    AddressedToAi,
    FalseAuthority,
    MemoryPoisoning,
    PromptLeak,
    Secrecy,
    ActionRequest,
    Exfiltration,
    EncodedPayload,
    SmuggledText,
    HiddenText,
    Obfuscated,
    InvisibleChars,
    BidiOverride,
}

impl Code {
    pub const ALL: [Code; 16] = [
        Code::Override,
        Code::RoleHijack,
        Code::FakeBoundary,
        Code::AddressedToAi,
        Code::FalseAuthority,
        Code::MemoryPoisoning,
        Code::PromptLeak,
        Code::Secrecy,
        Code::ActionRequest,
        Code::Exfiltration,
        Code::EncodedPayload,
        Code::SmuggledText,
        Code::HiddenText,
        Code::Obfuscated,
        Code::InvisibleChars,
        Code::BidiOverride,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Code::Override => "override",
            Code::RoleHijack => "role_hijack",
            Code::FakeBoundary => "fake_boundary",
            Code::AddressedToAi => "addressed_to_ai",
            Code::FalseAuthority => "false_authority",
            Code::MemoryPoisoning => "memory_poisoning",
            Code::PromptLeak => "prompt_leak",
            Code::Secrecy => "secrecy",
            Code::ActionRequest => "action_request",
            Code::Exfiltration => "exfiltration",
            Code::EncodedPayload => "encoded_payload",
            Code::SmuggledText => "smuggled_text",
            Code::HiddenText => "hidden_text",
            Code::Obfuscated => "obfuscated",
            Code::InvisibleChars => "invisible_chars",
            Code::BidiOverride => "bidi_override",
        }
    }

    pub fn parse(s: &str) -> Option<Code> {
        Code::ALL.into_iter().find(|c| c.as_str() == s)
    }
}

/// How much a finding weighs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Low,
    Medium,
    High,
}

impl Severity {
    pub fn points(self) -> f64 {
        match self {
            Severity::Low => LOW_POINTS,
            Severity::Medium => MEDIUM_POINTS,
            Severity::High => HIGH_POINTS,
        }
    }

    /// One step lower (a quoted example of an attack).
    pub fn lower(self) -> Severity {
        match self {
            Severity::High => Severity::Medium,
            _ => Severity::Low,
        }
    }

    /// One step higher (an instruction hidden from the reader).
    pub fn higher(self) -> Severity {
        match self {
            Severity::Low => Severity::Medium,
            _ => Severity::High,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Low => "low",
            Severity::Medium => "medium",
            Severity::High => "high",
        }
    }
}

/// What a shell script branches on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Allow,
    Review,
    Block,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Allow => "allow",
            Verdict::Review => "review",
            Verdict::Block => "block",
        }
    }
}

/// One thing found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub code: Code,
    /// Stable rule id, e.g. `override.ignore_previous`.
    pub rule: String,
    pub severity: Severity,
    /// The part it is in (`body`, `subject`, `text/html body`…).
    #[serde(rename = "where")]
    pub location: String,
    /// Byte offsets in the input as read (approximate inside decoded parts).
    pub start: usize,
    pub end: usize,
    /// 1-based line and column (characters) of `start` in the input.
    pub line: usize,
    pub column: usize,
    /// The text as written (invisible characters shown as escapes).
    pub text: String,
    /// True when a person would not see this text.
    pub hidden: bool,
    /// Why it is hidden, when it is.
    pub hidden_by: Option<HiddenReason>,
    pub why: String,
    /// True when it matched only after undoing a disguise (look-alike
    /// letters, zero-width splits, leetspeak, spacing…).
    pub obfuscated: bool,
    /// What hidden or encoded text decodes to, when it does.
    pub decoded: Option<String>,
    /// True when the match reads as a quoted example; it counts one step lower.
    pub quoted: bool,
}

/// Scan options (the CLI flags).
#[derive(Debug, Clone)]
pub struct Options {
    pub review_at: u32,
    pub block_at: u32,
    /// Codes to leave out of the report and the score.
    pub ignore: Vec<Code>,
}

impl Default for Options {
    fn default() -> Self {
        Options { review_at: DEFAULT_REVIEW_AT, block_at: DEFAULT_BLOCK_AT, ignore: Vec::new() }
    }
}

/// The result of a scan.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub source: String,
    pub kind: Kind,
    pub verdict: Verdict,
    pub score: u32,
    /// One line: the verdict and what it rests on.
    pub summary: String,
    /// The distinct reasons, most severe first.
    pub reasons: Vec<String>,
    pub findings: Vec<Finding>,
    /// Findings beyond the report cap, counted in the score but not listed.
    pub findings_omitted: usize,
    pub entities: Vec<Entity>,
    pub email: Option<EmailMeta>,
}

/// A finding before it is placed in the input (offsets inside a part's text).
#[derive(Debug, Clone)]
pub(crate) struct Hit {
    pub code: Code,
    pub rule: &'static str,
    pub severity: Severity,
    pub range: std::ops::Range<usize>,
    pub why: String,
    pub obfuscated: bool,
    pub decoded: Option<String>,
    pub quoted: bool,
}

/// Scan a loaded document.
pub fn scan(doc: &Document, opts: &Options) -> Report {
    let mut findings = Vec::new();
    for part in &doc.parts {
        let mut hits = channel_hits(part);
        hits.extend(rules::scan_part(part));
        hits.extend(decode::scan(&part.text));
        hits.extend(links::scan(&part.text));
        hits.extend(obfuscation::scan(&part.text));
        for h in hits {
            if opts.ignore.contains(&h.code) {
                continue;
            }
            findings.push(place(part, h));
        }
    }
    findings.extend(link_findings(doc).into_iter().filter(|f| !opts.ignore.contains(&f.code)));
    findings.sort_by(|a, b| b.severity.cmp(&a.severity).then(a.start.cmp(&b.start)).then(a.rule.cmp(&b.rule)));
    let (score, any_high) = score(&findings);
    let verdict = if any_high || score >= opts.block_at {
        Verdict::Block
    } else if score >= opts.review_at {
        Verdict::Review
    } else {
        Verdict::Allow
    };
    let mut reasons: Vec<String> = Vec::new();
    for f in &findings {
        let r = format!("{}: {}", f.code.as_str(), f.why);
        if !reasons.contains(&r) {
            reasons.push(r);
        }
    }
    let summary = match findings.first() {
        None => format!("{}: nothing found", verdict.as_str()),
        Some(top) => format!(
            "{}: {} finding{} (score {score}); most severe: {} ({})",
            verdict.as_str(),
            findings.len(),
            if findings.len() == 1 { "" } else { "s" },
            top.code.as_str(),
            top.severity.as_str()
        ),
    };
    let omitted = findings.len().saturating_sub(MAX_FINDINGS);
    findings.truncate(MAX_FINDINGS);
    set_line_columns(doc, &mut findings);
    Report {
        source: doc.source.clone(),
        kind: doc.kind,
        verdict,
        score,
        summary,
        reasons,
        findings,
        findings_omitted: omitted,
        entities: doc.entities.clone(),
        email: doc.email.clone(),
    }
}

/// Read, load and scan each input. All inputs are read before any is
/// scanned, so an unreadable one stops the run before anything is printed.
pub fn scan_inputs(
    inputs: &[crate::document::Input],
    kind: Kind,
    cap: u64,
    source: Option<&str>,
    opts: &Options,
) -> Result<Vec<(String, Report)>, crate::document::ReadError> {
    let docs =
        inputs.iter().map(|i| Document::read(i, Some(cap)).map(|d| (i.label(), d))).collect::<Result<Vec<_>, _>>()?;
    Ok(docs
        .into_iter()
        .map(|(label, d)| {
            let doc = Document::load(d.raw, kind, source.map_or(label.clone(), str::to_string));
            (label, scan(&doc, opts))
        })
        .collect())
}

/// The score: each finding's points, each repeat of a rule half the one
/// before; and whether any high finding is present.
pub fn score(findings: &[Finding]) -> (u32, bool) {
    let mut seen: std::collections::HashMap<&str, i32> = std::collections::HashMap::new();
    let mut total = 0.0;
    let mut any_high = false;
    let mut sorted: Vec<&Finding> = findings.iter().collect();
    sorted.sort_by_key(|f| std::cmp::Reverse(f.severity));
    for f in sorted {
        let n = seen.entry(&f.rule).or_insert(0);
        total += f.severity.points() * 0.5f64.powi(*n);
        *n += 1;
        any_high |= f.severity == Severity::High;
    }
    (total.round().min(u32::MAX as f64) as u32, any_high)
}

/// Turn a hit inside a part into a finding placed in the input.
fn place(part: &Part, h: Hit) -> Finding {
    let span = span_at(part, h.range.start);
    let hidden_by =
        span.and_then(|s| s.hidden).or(if h.code == Code::SmuggledText { span.and_then(|s| s.hidden) } else { None });
    let (start, end) = match span.and_then(|s| s.raw.clone().map(|r| (s, r))) {
        // The span's text is the input's text when the lengths agree.
        Some((s, r)) if r.len() == s.range.len() => {
            (r.start + (h.range.start - s.range.start), (r.start + (h.range.end - s.range.start)).min(r.end))
        }
        Some((_, r)) => (r.start, r.end),
        None => part.raw.clone().map_or((0, 0), |r| (r.start, r.end)),
    };
    let written = &part.text[h.range.clone()];
    Finding {
        code: h.code,
        rule: h.rule.to_string(),
        severity: if h.quoted { h.severity.lower() } else { h.severity },
        location: part.location.clone(),
        start,
        end,
        line: 0,
        column: 0,
        text: shown(written),
        hidden: hidden_by.is_some(),
        hidden_by,
        why: h.why,
        obfuscated: h.obfuscated,
        decoded: h.decoded,
        quoted: h.quoted,
    }
}

/// Line and column for the findings that are reported (not every finding:
/// the score counts them all, the report lists a bounded number). One pass
/// over the input's line starts, offsets visited in increasing order.
fn set_line_columns(doc: &Document, findings: &mut [Finding]) {
    let starts: Vec<usize> = std::iter::once(0).chain(memchr::memchr_iter(b'\n', &doc.raw).map(|p| p + 1)).collect();
    let mut order: Vec<usize> = (0..findings.len()).collect();
    order.sort_by_key(|&i| findings[i].start);
    // (line start, offset counted to, columns so far)
    let mut memo: Option<(usize, usize, usize)> = None;
    for i in order {
        let at = findings[i].start.min(doc.raw.len());
        let line = starts.partition_point(|&s| s <= at);
        let line_start = starts[line - 1];
        let (from, cols) = match memo {
            Some((ls, upto, c)) if ls == line_start && upto <= at => (upto, c),
            _ => (line_start, 0),
        };
        let cols = cols + String::from_utf8_lossy(&doc.raw[from..at]).chars().count();
        memo = Some((line_start, at, cols));
        findings[i].line = line;
        findings[i].column = cols + 1;
    }
}

/// Findings for link targets in markup (an image that loads a URL carrying
/// data), placed where the URL is written in the input.
fn link_findings(doc: &Document) -> Vec<Finding> {
    let mut out = Vec::new();
    for url in &doc.links {
        let Some(h) = links::judge_target(url) else { continue };
        let at = memchr::memmem::find(&doc.raw, url.as_bytes());
        let (start, end) = at.map_or((0, 0), |a| (a, a + url.len()));
        out.push(Finding {
            code: h.code,
            rule: h.rule.to_string(),
            severity: h.severity,
            location: "link target".into(),
            start,
            end,
            line: 0,
            column: 0,
            text: shown(url),
            hidden: true,
            hidden_by: Some(HiddenReason::Attribute),
            why: h.why,
            obfuscated: false,
            decoded: None,
            quoted: false,
        });
    }
    out
}

/// The span holding a byte offset of a part's text.
pub(crate) fn span_at(part: &Part, at: usize) -> Option<&Span> {
    let i = part.spans.partition_point(|s| s.range.end <= at);
    part.spans.get(i).filter(|s| s.range.start <= at)
}

/// Text as written, made printable: invisible and control characters become
/// `\u{…}` escapes (a long run of them is shown by its ends and its length),
/// long text is cut with an ellipsis.
pub fn shown(s: &str) -> String {
    let hidden = |c: char| c.is_control() && c != '\n' && c != '\t' || is_invisible(c);
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let mut n = 0;
    while i < chars.len() {
        if n >= MAX_QUOTE {
            out.push('…');
            break;
        }
        let c = chars[i];
        if hidden(c) {
            let run = chars[i..].iter().take_while(|&&c| hidden(c)).count();
            if run > 3 {
                let last = chars[i + run - 1];
                out.push_str(&format!("\\u{{{:x}}}…\\u{{{:x}}} ({run} invisible characters)", c as u32, last as u32));
            } else {
                for &c in &chars[i..i + run] {
                    out.push_str(&format!("\\u{{{:x}}}", c as u32));
                }
            }
            i += run;
            n += 1;
            continue;
        }
        out.push(c);
        i += 1;
        n += 1;
    }
    out
}

/// The first non-ASCII byte at or after `from`, eight bytes at a time.
pub(crate) fn next_non_ascii(b: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while let Some(chunk) = b.get(i..i + 8) {
        let high = u64::from_le_bytes(chunk.try_into().expect("eight bytes")) & 0x8080_8080_8080_8080;
        if high != 0 {
            return Some(i + (high.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    b.get(i..)?.iter().position(|c| !c.is_ascii()).map(|p| i + p)
}

/// Characters that render as nothing.
pub fn is_invisible(c: char) -> bool {
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
    matches!(c, '\u{115f}' | '\u{1160}' | '\u{3164}' | '\u{ffa0}' | '\u{2800}' | '\u{034f}' | '\u{17b4}' | '\u{17b5}')
        || ('\u{fe00}'..='\u{fe0f}').contains(&c)
        || ('\u{e0100}'..='\u{e01ef}').contains(&c)
        || c.general_category() == GeneralCategory::Format
}

/// Findings from the Document's hidden spans.
fn channel_hits(part: &Part) -> Vec<Hit> {
    let mut hits = Vec::new();
    for s in &part.spans {
        let Some(why) = s.hidden else { continue };
        if s.benign {
            continue;
        }
        let text = &part.text[s.range.clone()];
        let payload =
            s.decoded.as_deref().map(str::trim).filter(|d| d.chars().filter(|c| c.is_alphanumeric()).count() >= 2);
        match why {
            HiddenReason::TagCharacters
            | HiddenReason::VariationSelectors
            | HiddenReason::ZeroWidth
            | HiddenReason::BlankFiller
            | HiddenReason::SoftHyphen
            | HiddenReason::FormatCharacter
                if payload.is_some() =>
            {
                hits.push(Hit {
                    code: Code::SmuggledText,
                    rule: smuggle_rule(why),
                    severity: Severity::High,
                    range: s.range.clone(),
                    why: format!("{} spell out hidden text", why.describe()),
                    obfuscated: false,
                    decoded: payload.map(str::to_string),
                    quoted: false,
                });
            }
            HiddenReason::Bidi => hits.push(Hit {
                code: Code::BidiOverride,
                rule: "bidi.control",
                severity: Severity::Medium,
                range: s.range.clone(),
                why: "bidi control characters reorder what a person sees".into(),
                obfuscated: false,
                decoded: s.decoded.clone(),
                quoted: false,
            }),
            HiddenReason::ZeroWidth
            | HiddenReason::BlankFiller
            | HiddenReason::SoftHyphen
            | HiddenReason::FormatCharacter
            | HiddenReason::TagCharacters
            | HiddenReason::VariationSelectors => hits.push(Hit {
                code: Code::InvisibleChars,
                rule: invisible_rule(why),
                // Legitimate uses (emoji joiners, Persian ZWNJ, hyphenation
                // hints) never become spans; what is left hides something.
                severity: Severity::Medium,
                range: s.range.clone(),
                why: format!("{} a person cannot see", why.describe()),
                obfuscated: false,
                decoded: None,
                quoted: false,
            }),
            HiddenReason::Escape => {
                if let Some(p) = payload {
                    hits.push(Hit {
                        code: Code::HiddenText,
                        rule: "hidden.escape_payload",
                        severity: if rules::is_directive(p) { Severity::High } else { Severity::Medium },
                        range: s.range.clone(),
                        why: "a terminal escape sequence carries text a person does not see".into(),
                        obfuscated: false,
                        decoded: Some(p.to_string()),
                        quoted: false,
                    });
                }
            }
            _ => {
                // Hidden markup or terminal text: a finding when it gives
                // the reader (the model) a direction.
                if rules::is_directive(text) {
                    hits.push(Hit {
                        code: Code::HiddenText,
                        rule: "hidden.directive",
                        severity: Severity::High,
                        range: trimmed(text, s.range.clone()),
                        why: format!("hidden text ({}) gives the reader a direction", why.describe()),
                        obfuscated: false,
                        decoded: None,
                        quoted: false,
                    });
                }
            }
        }
    }
    hits
}

fn trimmed(text: &str, r: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let lead = text.len() - text.trim_start().len();
    let trail = text.len() - text.trim_end().len();
    if lead + trail >= r.len() { r } else { r.start + lead..r.end - trail }
}

fn smuggle_rule(why: HiddenReason) -> &'static str {
    match why {
        HiddenReason::TagCharacters => "smuggled.tag_characters",
        HiddenReason::VariationSelectors => "smuggled.variation_selectors",
        HiddenReason::ZeroWidth => "smuggled.zero_width_binary",
        HiddenReason::BlankFiller => "smuggled.blank_binary",
        HiddenReason::SoftHyphen => "smuggled.soft_hyphen_binary",
        _ => "smuggled.format_characters",
    }
}

fn invisible_rule(why: HiddenReason) -> &'static str {
    match why {
        HiddenReason::ZeroWidth => "invisible.zero_width",
        HiddenReason::BlankFiller => "invisible.blank_filler",
        HiddenReason::SoftHyphen => "invisible.soft_hyphen",
        HiddenReason::TagCharacters => "invisible.tag_characters",
        HiddenReason::VariationSelectors => "invisible.variation_selectors",
        _ => "invisible.format_character",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(rule: &str, sev: Severity) -> Finding {
        Finding {
            code: Code::Override,
            rule: rule.into(),
            severity: sev,
            location: "body".into(),
            start: 0,
            end: 0,
            line: 1,
            column: 1,
            text: String::new(),
            hidden: false,
            hidden_by: None,
            why: String::new(),
            obfuscated: false,
            decoded: None,
            quoted: false,
        }
    }

    #[test]
    fn repeats_of_a_rule_count_half_the_one_before() {
        let f = vec![finding("a", Severity::Medium), finding("a", Severity::Medium), finding("a", Severity::Medium)];
        assert_eq!(score(&f), (25 + 13 + 6, false)); // 25 + 12.5 + 6.25 = 43.75 → 44
        let g = vec![finding("a", Severity::Low), finding("b", Severity::Low)];
        assert_eq!(score(&g), (16, false));
        assert_eq!(score(&[finding("x", Severity::High)]), (60, true));
    }

    #[test]
    fn codes_round_trip_their_names() {
        for c in Code::ALL {
            assert_eq!(Code::parse(c.as_str()), Some(c));
        }
        assert_eq!(Code::parse("nope"), None);
    }

    #[test]
    fn shown_escapes_invisible_characters() {
        assert_eq!(shown("a\u{200b}b\u{e0041}\u{1b}"), "a\\u{200b}b\\u{e0041}\\u{1b}");
        assert_eq!(shown("x\u{e0041}\u{e0042}\u{e0043}\u{e0044}y"), "x\\u{e0041}…\\u{e0044} (4 invisible characters)y");
    }

    #[test]
    fn severity_steps() {
        assert_eq!(Severity::High.lower(), Severity::Medium);
        assert_eq!(Severity::Medium.lower(), Severity::Low);
        assert_eq!(Severity::Low.higher(), Severity::Medium);
    }
}
