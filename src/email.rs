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
//!   Text no mail client shows but a model reading the raw message gets is
//!   kept too: the MIME preamble and epilogue, header-block lines that are
//!   not headers. A bare iCalendar object gives its fields; bytes that are
//!   not a message give one plain body.
//! - `plain_only(plain, html_visible)` finds the lines of a text/plain
//!   alternative that its HTML alternative does not show.
//! - `calendar_fields(ics)` reads the text fields of an iCalendar object.
//! - `looks_like_email(bytes)` sniffs RFC 5322 headers at the start.
//!
//! mail-parser does the MIME work (boundaries, transfer encodings, RFC 2047
//! words, RFC 2231 parameters, legacy charsets). This module decides what a
//! reader gets from its parts, in reading order, within fixed budgets
//! (`MAX_PARTS`, `MAX_DEPTH`, `MAX_TEXT_BYTES`; `ParsedEmail::truncated`
//! says when one cut the reading short), and opens attached messages itself
//! so their nesting stays bounded.

use std::ops::Range;

use crate::document::EmailMeta;

mod calendar;
mod parse;
mod plain_only;

pub use calendar::{calendar_field_shown, calendar_fields};
pub use parse::parse;
pub use plain_only::plain_only;

/// Attached messages are opened this many levels deep; deeper ones are only
/// listed. Real forwards rarely nest more than three.
pub const MAX_DEPTH: usize = 8;
/// MIME parts looked at in one message, attached messages included: a MIME
/// bomb stops here, and real mail has far fewer.
pub const MAX_PARTS: usize = 100;
/// Decoded text kept across all bodies: above any real mail's text, and
/// bounds what later stages scan.
pub const MAX_TEXT_BYTES: usize = 16 << 20;
/// Lines that could be MIME delimiters (`--…`) handed to the MIME parser,
/// which builds every part before the limits above apply: past this many
/// the rest of the message is not parsed (it is `truncated`), so a message
/// of a hundred thousand nested parts costs what one of a few thousand does.
pub const MAX_DELIMITER_LINES: usize = 4096;
/// Addresses kept per header (the rest are counted in one last entry).
pub const MAX_ADDRESSES: usize = 1000;
/// How much of the start `looks_like_email` reads: enough for the first
/// header lines, small enough to stay cheap.
const SNIFF_BYTES: usize = 4096;
/// RFC 5322 caps a line at 998 characters; a header name is far shorter.
const MAX_HEADER_NAME: usize = 76;
/// Header names that only mail has (two points each in the sniff).
const MAIL_HEADERS: &[&str] = &[
    "from",
    "received",
    "return-path",
    "message-id",
    "mime-version",
    "delivered-to",
    "dkim-signature",
    "in-reply-to",
    "references",
];
/// Header names that mail shares with other formats (one point each).
const SHARED_HEADERS: &[&str] = &["to", "cc", "subject", "date", "reply-to", "sender", "content-type"];

/// What kind of text a body holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    Plain,
    Html,
    /// A calendar field's value (already unescaped).
    Calendar,
    /// A header shown to the reader (the subject).
    Header,
    /// Header fields a mail client does not show, one `Name: value` line
    /// each, or an attachment's file name: text a model reads and a person
    /// does not see as the message.
    Metadata,
    /// A text part no client shows: one a multipart/related holds beside
    /// its root, not attached.
    Unshown,
}

/// One decoded text body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Body {
    /// `subject`, `text/plain body`, `text/html body`, `attachment "a.txt"`,
    /// `calendar DESCRIPTION`, `attached message > text/plain body`.
    pub location: String,
    pub kind: BodyKind,
    pub text: String,
    /// Byte range of this body in the message, when known: a header's value,
    /// a part's body (still transfer-encoded), or for a calendar field the
    /// part that holds it. `None` inside an attached message that was itself
    /// base64 or quoted-printable encoded.
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
    /// A budget cut the reading short: more than `MAX_PARTS` parts, attached
    /// messages deeper than `MAX_DEPTH`, or more than `MAX_TEXT_BYTES` of text.
    /// What was left out may hold anything.
    pub truncated: bool,
}

// ---------------------------------------------------------------------------
// Sniffing

/// Does this look like a mail message (for kind sniffing)? True when the
/// bytes open with RFC 5322 header lines (after an optional BOM and mbox
/// `From ` line), at least two of them, naming mail headers. Prose or
/// markdown that mentions `From:` further down does not count.
pub fn looks_like_email(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(SNIFF_BYTES)];
    let truncated = head.len() < bytes.len();
    let mut rest = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    if rest.starts_with(b"From ") {
        match memchr::memchr(b'\n', rest) {
            Some(nl) => rest = &rest[nl + 1..],
            None => return false,
        }
    }
    let (mut headers, mut points) = (0usize, 0usize);
    while !rest.is_empty() {
        let (line, next) = match memchr::memchr(b'\n', rest) {
            Some(nl) => (&rest[..nl], &rest[nl + 1..]),
            // A line cut by the sniff window says nothing either way.
            None if truncated => break,
            None => (rest, &rest[rest.len()..]),
        };
        rest = next;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            break;
        }
        if line[0] == b' ' || line[0] == b'\t' {
            if headers == 0 {
                return false;
            }
            continue;
        }
        let Some(name) = header_name(line) else { return false };
        headers += 1;
        if MAIL_HEADERS.iter().any(|h| h.as_bytes().eq_ignore_ascii_case(name)) {
            points += 2;
        } else if SHARED_HEADERS.iter().any(|h| h.as_bytes().eq_ignore_ascii_case(name)) {
            points += 1;
        }
    }
    headers >= 2 && points >= 2
}

/// The field name of an RFC 5322 header line (`Name: value`, with the
/// obsolete spaces before the colon allowed), or `None` if it is not one.
fn header_name(line: &[u8]) -> Option<&[u8]> {
    let colon = memchr::memchr(b':', &line[..line.len().min(MAX_HEADER_NAME + 8)])?;
    let name = line[..colon].trim_ascii_end();
    let printable = |b: &u8| (b'!'..=b'~').contains(b);
    (!name.is_empty() && name.len() <= MAX_HEADER_NAME && name.iter().all(printable)).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// This module's own fixtures are in fixtures/email; the shared
    /// hidden-channel vectors (and their index) in fixtures/vectors.
    pub(super) fn fixture(name: &str) -> Vec<u8> {
        let own = format!("{}/fixtures/email/{name}", env!("CARGO_MANIFEST_DIR"));
        let shared = format!("{}/fixtures/vectors/files/{name}", env!("CARGO_MANIFEST_DIR"));
        let path = if std::path::Path::new(&own).exists() { own } else { shared };
        std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// The message's text bodies, without its metadata (header fields a
    /// client does not show, file names), for tests of the MIME walk.
    pub(super) fn text_only(mut email: ParsedEmail) -> ParsedEmail {
        email.bodies.retain(|b| b.kind != BodyKind::Metadata);
        email
    }

    pub(super) fn locations(email: &ParsedEmail) -> Vec<&str> {
        email.bodies.iter().map(|b| b.location.as_str()).collect()
    }

    pub(super) fn body<'a>(email: &'a ParsedEmail, location: &str) -> &'a Body {
        email.bodies.iter().find(|b| b.location == location).unwrap_or_else(|| {
            panic!("no body at {location:?}; have {:?}", locations(email));
        })
    }

    pub(super) fn raw_of<'a>(raw: &'a [u8], b: &Body) -> &'a str {
        std::str::from_utf8(&raw[b.raw.clone().expect("raw range")]).unwrap()
    }

    /// Tag characters spelled out as the ASCII they encode.
    fn untag(text: &str) -> String {
        text.chars()
            .map(|c| match u32::from(c) {
                t @ 0xE0020..=0xE007E => char::from((t - 0xE0000) as u8),
                _ => c,
            })
            .collect()
    }

    /// Just enough of an HTML renderer for the vectors (html.rs is the real
    /// one): tags become spaces, a few entities are decoded. None of the
    /// vectors' hidden HTML has words, so hidden and visible agree here.
    fn naive_visible(html: &str) -> String {
        crate::html::without_tags(html)
            .replace("&amp;", "&")
            .replace("&nbsp;", "\u{a0}")
            .replace("&zwnj;", "\u{200c}")
            .replace("&#847;", "\u{34f}")
    }

    /// plain_only over a parsed email's first alternative group.
    fn plain_only_of(email: &ParsedEmail) -> (String, Vec<Range<usize>>) {
        let plain = email.bodies.iter().find(|b| b.kind == BodyKind::Plain && b.alternative == Some(0)).unwrap();
        let html = email.bodies.iter().find(|b| b.kind == BodyKind::Html && b.alternative == Some(0)).unwrap();
        let ranges = plain_only(&plain.text, &naive_visible(&html.text));
        (plain.text.clone(), ranges)
    }

    // --- vectors ---------------------------------------------------------

    #[derive(serde::Deserialize)]
    struct Vector {
        id: String,
        file: String,
        expect_hidden: bool,
        hidden_payload: String,
    }

    fn vectors() -> Vec<Vector> {
        let lines =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/vectors/vectors.jsonl")).unwrap();
        let v: Vec<Vector> = lines
            .lines()
            .filter(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                v["kind"] == "email" || v["file"].as_str().is_some_and(|f| f.ends_with(".ics"))
            })
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(v.len(), 6);
        v
    }

    #[test]
    fn every_attack_vector_payload_is_in_some_body() {
        for v in vectors().iter().filter(|v| v.expect_hidden) {
            let email = parse(&fixture(&v.file));
            let payload = v.hidden_payload.trim_end_matches('.').trim_end();
            let payload = payload.strip_suffix("...").unwrap_or(payload).trim_end();
            assert!(
                email.bodies.iter().any(|b| untag(&b.text).contains(payload)),
                "{}: {payload:?} not in {:#?}",
                v.id,
                email.bodies
            );
        }
    }

    #[test]
    fn plain_only_flags_exactly_the_injected_line() {
        let v = vectors().into_iter().find(|v| v.id == "email-plain-only-instructions").unwrap();
        let (plain, ranges) = plain_only_of(&parse(&fixture(&v.file)));
        let at = plain.find(&v.hidden_payload).unwrap();
        assert_eq!(ranges, vec![at..at + v.hidden_payload.len()]);
    }

    #[test]
    fn benign_vectors_have_nothing_plain_only() {
        for v in vectors().iter().filter(|v| !v.expect_hidden) {
            let (plain, ranges) = plain_only_of(&parse(&fixture(&v.file)));
            let flagged: Vec<&str> = ranges.iter().map(|r| &plain[r.clone()]).collect();
            assert!(flagged.iter().all(|t| t.trim().is_empty()), "{}: {flagged:?}", v.id);
        }
    }

    #[test]
    fn html_that_shows_more_than_the_plain_part_is_not_plain_only() {
        let (_, ranges) = plain_only_of(&parse(&fixture("email-html-white-text.eml")));
        assert_eq!(ranges, Vec::<Range<usize>>::new());
    }

    #[test]
    fn vectors_sniff_as_email_and_the_ics_as_calendar() {
        for v in vectors() {
            let raw = fixture(&v.file);
            assert_eq!(looks_like_email(&raw), v.file.ends_with(".eml"), "{}", v.id);
        }
        let email = parse(&fixture("ics-file-description.ics"));
        assert_eq!(locations(&email), ["calendar SUMMARY", "calendar DESCRIPTION"]);
        assert!(email.bodies.iter().all(|b| b.kind == BodyKind::Calendar));
    }

    // --- sniffing --------------------------------------------------------

    #[test]
    fn sniffs_mail_headers_at_the_start() {
        for yes in [
            &b"From: a@b.c\nTo: d@e.f\n\nhi"[..],
            b"Received: from x by y; Tue, 1 Jan 2024\r\n  continued\r\nSubject: s\r\n\r\n",
            b"From sender@x Mon May 13 09:00:00 2024\nFrom: a@b.c\nSubject: hi\n\nbody",
            b"\xEF\xBB\xBFreturn-path: <a@b.c>\nmessage-id: <1@b.c>\n",
            b"Subject: hi\nDate: Tue, 1 Jan 2024 00:00:00 +0000\n\n",
            b"X-Custom: 1\nMIME-Version: 1.0\nContent-Type: text/plain\n\nbody",
            b"Delivered-To: a@b.c\nX-Y : obsolete space before colon\n",
        ] {
            assert!(looks_like_email(yes), "{:?}", String::from_utf8_lossy(yes));
        }
    }

    #[test]
    fn written_fixtures_sniff_as_email() {
        for name in [
            "qp-latin1.eml",
            "shift-jis.eml",
            "rfc2231-filename.eml",
            "nested-calendar.eml",
            "related-inline-image.eml",
        ] {
            assert!(looks_like_email(&fixture(name)), "{name}");
        }
    }

    #[test]
    fn long_header_blocks_sniff_despite_the_window() {
        let mut raw = b"From: a@b.c\r\nTo: d@e.f\r\n".to_vec();
        for i in 0..200 {
            raw.extend(format!("X-Long-Header-{i}: {}\r\n", "v".repeat(40)).as_bytes());
        }
        raw.extend(b"\r\nbody");
        assert!(raw.len() > SNIFF_BYTES);
        assert!(looks_like_email(&raw));
    }

    #[test]
    fn prose_and_markdown_with_a_from_line_do_not_sniff() {
        for no in [
            &b""[..],
            b"From: a@b.c",
            b"Hello,\nFrom: a@b.c\nTo: d@e.f\n",
            b"# Notes\n\nFrom: Bob\nTo: Ann\nSubject: x\n",
            b"From: Alice\nThanks for the help yesterday, see you soon.\n",
            b"title: My post\ndate: 2024-01-01\ntags: [a]\n",
            b"HTTP/1.1 200 OK\r\nDate: Tue\r\nContent-Type: text/html\r\n",
            b" From: a@b.c\nTo: d@e.f\n",
            b"From a@b.c",
            b"\x00\x01\x02From: a@b.c\nTo: d@e.f\n",
            b"To: a@b.c\nNote: nothing else\n",
        ] {
            assert!(!looks_like_email(no), "{:?}", String::from_utf8_lossy(no));
        }
    }
}
