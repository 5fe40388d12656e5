//! MIME: parts, transfer encodings, RFC 2047/2231, charsets, calendar
//! invites, attached mail.
//!
//! Contract (used by document.rs):
//! - `parse(raw)` decodes an RFC 5322 message into its header facts and the
//!   text bodies a reader gets: the subject, text/plain and text/html parts
//!   (multipart/alternative, mixed, related), text attachments, text/calendar
//!   fields (SUMMARY, DESCRIPTION, LOCATION), attached message/rfc822 bodies
//!   (recursively, depth-limited). Each body has a location for reports and
//!   its byte range in `raw` when known.
//! - `plain_only(plain, html_visible)` finds the lines of a text/plain
//!   alternative that its HTML alternative does not show.
//! - `calendar_fields(ics)` reads the text fields of an iCalendar object.

use std::ops::Range;

use crate::document::EmailMeta;

/// What kind of text a body holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    Plain,
    Html,
    /// A calendar field's value (already unescaped).
    Calendar,
    /// A header shown to the reader (the subject).
    Header,
}

/// One decoded text body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Body {
    /// `subject`, `text/plain body`, `text/html body`, `attachment "a.txt"`,
    /// `calendar DESCRIPTION`, `attached message > text/plain body`.
    pub location: String,
    pub kind: BodyKind,
    pub text: String,
    /// Byte range of this body in the message, when known.
    pub raw: Option<Range<usize>>,
    /// Index of the multipart/alternative group this body belongs to, so
    /// plain and HTML alternatives can be compared.
    pub alternative: Option<usize>,
}

/// A decoded message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParsedEmail {
    pub meta: EmailMeta,
    pub bodies: Vec<Body>,
}

/// Does this look like a mail message (for kind sniffing)?
pub fn looks_like_email(bytes: &[u8]) -> bool {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(2048)]).to_ascii_lowercase();
    let has = |h: &str| head.starts_with(h) || head.contains(&format!("\n{h}"));
    (has("from:") || has("received:") || has("return-path:")) && (has("subject:") || has("to:") || has("mime-version:"))
}

/// Decode a message. Never fails: bytes that are not a message become one
/// plain body.
pub fn parse(raw: &[u8]) -> ParsedEmail {
    ParsedEmail {
        meta: EmailMeta::default(),
        bodies: vec![Body {
            location: "body".into(),
            kind: BodyKind::Plain,
            text: String::from_utf8_lossy(raw).into_owned(),
            raw: Some(0..raw.len()),
            alternative: None,
        }],
    }
}

/// Byte ranges of `plain`'s lines that `html_visible` does not show.
pub fn plain_only(plain: &str, html_visible: &str) -> Vec<Range<usize>> {
    let _ = (plain, html_visible);
    Vec::new()
}

/// The (NAME, value) text fields of an iCalendar object, unfolded and
/// unescaped: SUMMARY, DESCRIPTION, LOCATION, COMMENT, X-ALT-DESC…
pub fn calendar_fields(ics: &str) -> Vec<(String, String)> {
    let _ = ics;
    Vec::new()
}
