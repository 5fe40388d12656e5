//! Loading: bytes to a Document's parts, hidden spans and entities. The
//! one place that calls the email, HTML, invisible-character and entity
//! readers; what a kind is comes from `sniff` unless the caller says.

use crate::document::{Document, EmailMeta, HiddenReason, Kind, Part, Span, overlay, split_spans};
use crate::input::{Input, ReadError};

/// Guess the kind of a document from its first bytes.
pub fn sniff(raw: &[u8]) -> Kind {
    if crate::email::looks_like_email(raw) {
        Kind::Email
    } else if crate::html::looks_like_html(raw) {
        Kind::Html
    } else {
        Kind::Text
    }
}

impl Document {
    /// Read bytes as `kind` (sniffed when `Auto`): parts with their hidden
    /// spans, entities, and for email the header facts. Never fails: bytes
    /// that are not what they claim become text.
    pub fn load(raw: Vec<u8>, kind: Kind, source: impl Into<String>) -> Document {
        let kind = if kind == Kind::Auto { sniff(&raw) } else { kind };
        let mut doc = Document { raw, source: source.into(), kind, ..Document::default() };
        let mut links = Vec::new();
        match kind {
            Kind::Email => load_email(&mut doc, &mut links),
            Kind::Html => {
                let r = crate::html::render(&doc.raw, 0);
                links.extend(r.links);
                let len = doc.raw.len();
                doc.parts.push(Part { location: "body".into(), text: r.text, spans: r.spans, raw: Some(0..len) });
            }
            Kind::Text | Kind::Auto => load_text(&mut doc),
        }
        for part in &mut doc.parts {
            refine_invisible(part);
        }
        doc.entities = crate::entities::extract(&doc, &links).into();
        doc.links = links;
        doc
    }

    /// Read an input and load it.
    pub fn read_and_load(
        input: &Input,
        kind: Kind,
        cap: Option<u64>,
        source: Option<String>,
    ) -> Result<Document, ReadError> {
        let d = Document::read(input, cap)?;
        Ok(Document::load(d.raw, kind, source.unwrap_or(d.source)))
    }
}

/// Markdown and plain text: one part. HTML comments in it are hidden (a
/// Markdown renderer drops them); an iCalendar object adds its fields.
fn load_text(doc: &mut Document) {
    // Valid UTF-8 (the usual case) is checked by the faster validator.
    let text = match std::str::from_utf8(&doc.raw) {
        Ok(t) => t.to_owned(),
        Err(_) => String::from_utf8_lossy(&doc.raw).into_owned(),
    };
    let lossless = text.len() == doc.raw.len();
    let mut spans = Vec::new();
    let mut at = 0;
    let finder = memchr::memmem::Finder::new(b"<!--");
    while let Some(p) = finder.find(&text.as_bytes()[at..]) {
        let start = at + p;
        let end = memchr::memmem::find(&text.as_bytes()[start + 4..], b"-->").map_or(text.len(), |q| start + 4 + q + 3);
        if start > at {
            spans.push(Span::visible(at..start));
        }
        spans.push(Span::hidden(start..end, HiddenReason::Comment));
        at = end;
    }
    if at < text.len() {
        spans.push(Span::visible(at..text.len()));
    }
    if lossless {
        for s in &mut spans {
            s.raw = Some(s.range.clone());
        }
    }
    let is_calendar = text.trim_start().starts_with("BEGIN:VCALENDAR");
    let fields = if is_calendar { crate::email::calendar_fields(&text) } else { Vec::new() };
    let len = doc.raw.len();
    doc.parts.push(Part { location: "body".into(), text, spans, raw: Some(0..len) });
    if is_calendar {
        for (name, value) in fields {
            let n = value.len();
            doc.parts.push(Part {
                location: format!("calendar {name}"),
                text: value,
                spans: if n == 0 { Vec::new() } else { vec![Span::visible(0..n)] },
                raw: None,
            });
        }
    }
}

fn load_email(doc: &mut Document, links: &mut Vec<String>) {
    use crate::email::BodyKind;
    let parsed = crate::email::parse(&doc.raw);
    // The visible text of each alternative group's HTML, to find what only
    // the plain alternative says.
    let mut html_visible: std::collections::HashMap<usize, String> = std::collections::HashMap::new();
    let mut parts: Vec<(Part, BodyKind, Option<usize>)> = Vec::new();
    for body in parsed.bodies {
        let base = body.raw.as_ref().map_or(0, |r| r.start);
        match body.kind {
            BodyKind::Html => {
                let r = crate::html::render(body.text.as_bytes(), base);
                links.extend(r.links.iter().cloned());
                if let Some(g) = body.alternative {
                    html_visible.entry(g).or_default().push_str(&r.visible_text());
                }
                // Offsets inside a decoded body do not map to the message
                // bytes; keep the body's own range.
                let spans = r
                    .spans
                    .into_iter()
                    .map(|mut s| {
                        s.raw = body.raw.clone();
                        s
                    })
                    .collect();
                parts.push((
                    Part { location: body.location, text: r.text, spans, raw: body.raw },
                    body.kind,
                    body.alternative,
                ));
            }
            kind => {
                let n = body.text.len();
                let mut span = Span::visible(0..n);
                span.raw = body.raw.clone();
                let spans = if n == 0 { Vec::new() } else { vec![span] };
                parts.push((
                    Part { location: body.location, text: body.text, spans, raw: body.raw },
                    kind,
                    body.alternative,
                ));
            }
        }
    }
    for (part, kind, group) in &mut parts {
        if *kind != BodyKind::Plain {
            continue;
        }
        let Some(visible) = group.and_then(|g| html_visible.get(&g)) else { continue };
        let only = crate::email::plain_only(&part.text, visible);
        if !only.is_empty() {
            part.spans = split_spans(&part.spans, &only, HiddenReason::PlainOnly, None);
        }
    }
    doc.parts = parts.into_iter().map(|(p, _, _)| p).collect();
    doc.email = Some(EmailMeta { truncated: parsed.truncated, ..parsed.meta });
}

/// Mark invisible characters and escape sequences inside a part. Past the
/// first `MAX_CANDIDATES` characters that could start a run, the rest of
/// the part is one span withheld unread (`Unmapped`), benign when nothing
/// in it is reported.
fn refine_invisible(part: &mut Part) {
    use crate::invisible::{MAX_CANDIDATES, any_reported, find, mappable_end};
    let end = mappable_end(&part.text, 0, MAX_CANDIDATES);
    let runs = find(&part.text[..end]);
    let mut reasons: Vec<HiddenReason> = runs.iter().map(|r| r.reason).collect();
    let mut triples: Vec<_> = runs.into_iter().map(|r| (r.range, r.decoded, r.benign)).collect();
    if end < part.text.len() {
        reasons.push(HiddenReason::Unmapped);
        triples.push((end..part.text.len(), None, !any_reported(&part.text, end)));
    }
    if triples.is_empty() {
        return;
    }
    part.spans = overlay(&part.spans, &triples, |i| reasons[i]);
}
