//! The one Document every subcommand starts from, and the one way to read input.
//!
//! `Input` names where bytes come from (a path, or stdin for `-` and for no
//! argument). `Input::open` is the single reading function: streaming commands
//! (`wrap`, `check`) read from it in chunks, and `Document::read` collects it
//! whole for the commands that need the text at once.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::path::{Path, PathBuf};

/// The label a document read from stdin carries unless `--source` names it.
pub const STDIN_LABEL: &str = "-";

/// Errors from reading input. Each names what could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("no input file and stdin is a terminal (pipe text in, or name a file; see --help)")]
    StdinIsTerminal,
    #[error("cannot read {path}: {source}")]
    Open { path: String, source: io::Error },
    #[error("cannot read {path}: it is a directory")]
    IsDirectory { path: String },
    #[error("cannot read {path}: {source}")]
    Read { path: String, source: io::Error },
    #[error("{path} is larger than the {cap}-byte limit (raise it with --max-bytes or INERTBOX_MAX_BYTES)")]
    TooLarge { path: String, cap: u64 },
}

/// Where a document's bytes come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Stdin,
    Path(PathBuf),
}

impl Input {
    /// `None` and `-` mean stdin; anything else is a path.
    pub fn from_arg(arg: Option<&OsStr>) -> Input {
        match arg {
            None => Input::Stdin,
            Some(a) if a == "-" => Input::Stdin,
            Some(a) => Input::Path(PathBuf::from(a)),
        }
    }

    /// The default source label: the path as given (lossy for non-UTF-8
    /// paths, as a terminal would show it), or `-` for stdin.
    pub fn label(&self) -> String {
        match self {
            Input::Stdin => STDIN_LABEL.to_string(),
            Input::Path(p) => p.to_string_lossy().into_owned(),
        }
    }

    pub fn is_stdin(&self) -> bool {
        matches!(self, Input::Stdin)
    }

    /// Open the input for reading. Stdin refuses to wait on a terminal.
    pub fn open(&self) -> Result<Box<dyn Read + Send>, ReadError> {
        match self {
            Input::Stdin => {
                let stdin = io::stdin();
                if stdin.is_terminal() {
                    return Err(ReadError::StdinIsTerminal);
                }
                Ok(Box::new(stdin))
            }
            Input::Path(p) => Ok(Box::new(open_file(p)?)),
        }
    }

    /// The size of a file input, if it is a regular file (used to pick the
    /// streaming path and to notice a file that changed between passes).
    pub fn file_len(&self) -> Option<u64> {
        match self {
            Input::Stdin => None,
            Input::Path(p) => std::fs::metadata(p).ok().filter(|m| m.is_file()).map(|m| m.len()),
        }
    }

    pub(crate) fn read_error(&self, source: io::Error) -> ReadError {
        ReadError::Read { path: self.display_name(), source }
    }

    /// How errors name this input: the path quoted, or "stdin".
    pub fn display_name(&self) -> String {
        match self {
            Input::Stdin => "stdin".to_string(),
            Input::Path(p) => format!("{:?}", p.to_string_lossy()),
        }
    }
}

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display_name())
    }
}

fn open_file(p: &Path) -> Result<File, ReadError> {
    let name = || format!("{:?}", p.to_string_lossy());
    let file = File::open(p).map_err(|source| ReadError::Open { path: name(), source })?;
    match file.metadata() {
        Ok(m) if m.is_dir() => Err(ReadError::IsDirectory { path: name() }),
        _ => Ok(file),
    }
}

/// Read everything from `r`, refusing more than `cap` bytes when a cap is set.
pub fn read_capped(r: impl Read, cap: Option<u64>) -> io::Result<Result<Vec<u8>, u64>> {
    read_capped_sized(r, cap, None)
}

fn read_capped_sized(mut r: impl Read, cap: Option<u64>, size: Option<u64>) -> io::Result<Result<Vec<u8>, u64>> {
    let mut raw = Vec::with_capacity(size.map_or(0, |n| n as usize + 1));
    match cap {
        None => {
            r.read_to_end(&mut raw)?;
            Ok(Ok(raw))
        }
        Some(cap) => {
            // Read one byte past the cap so "exactly at the cap" is allowed.
            r.take(cap.saturating_add(1)).read_to_end(&mut raw)?;
            if raw.len() as u64 > cap { Ok(Err(cap)) } else { Ok(Ok(raw)) }
        }
    }
}

/// A document: the bytes exactly as read, where they came from, and what a
/// reader gets from them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Document {
    /// The original bytes, never altered: wrap and check hash exactly these.
    pub raw: Vec<u8>,
    /// The source label (`--source`, the path, or `-`).
    pub source: String,
    /// What the bytes were read as (never `Auto` after `load`).
    pub kind: Kind,
    /// What a reader gets, part by part (empty until `load`).
    pub parts: Vec<Part>,
    /// Every address, link, domain and phone number (empty until `load`);
    /// shared with the scan's report.
    pub entities: std::sync::Arc<[Entity]>,
    /// Headers and attachments, for emails.
    pub email: Option<EmailMeta>,
    /// Link and image targets found in markup (href, src…), which a reader
    /// of the rendered text does not see.
    pub links: Vec<String>,
}

impl Document {
    /// A document from bytes already in memory.
    pub fn from_bytes(raw: Vec<u8>, source: impl Into<String>) -> Document {
        Document { raw, source: source.into(), ..Document::default() }
    }

    /// Read a whole input into a Document, refusing more than `cap` bytes.
    pub fn read(input: &Input, cap: Option<u64>) -> Result<Document, ReadError> {
        let r = input.open()?;
        // A file's length, when known, sizes the buffer (one byte over, to
        // see the end): doubling as it reads would hold up to twice the input.
        let hint = input.file_len().filter(|&n| cap.is_none_or(|c| n <= c));
        match read_capped_sized(r, cap, hint).map_err(|e| input.read_error(e))? {
            Ok(raw) => Ok(Document { raw, source: input.label(), ..Document::default() }),
            Err(cap) => Err(ReadError::TooLarge { path: input.display_name(), cap }),
        }
    }
}

// ---------------------------------------------------------------------------
// What a reader sees: parts, hidden spans, entities.

/// What the bytes are. `Auto` sniffs: mail headers make an email, markup
/// makes HTML, anything else is text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    #[default]
    Auto,
    Text,
    Html,
    Email,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Auto => "auto",
            Kind::Text => "text",
            Kind::Html => "html",
            Kind::Email => "email",
        }
    }
}

/// Why a span of text is hidden from a person who looks at the rendered
/// content, while a model reading the text gets it. The names are a stable
/// contract (they appear in JSON reports as `hidden`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HiddenReason {
    // HTML and CSS (html.rs)
    /// `<!-- … -->`
    Comment,
    /// `display:none`, including through a `<style>` rule or an escaped property name.
    DisplayNone,
    /// `visibility:hidden` or `collapse`.
    VisibilityHidden,
    /// `opacity` (or `filter: opacity()`) at or near 0.
    Opacity,
    /// `font-size` 0 or too small to read.
    FontSize,
    /// Text colour equal or close to its background (white on white,
    /// `transparent`, `<font color>`).
    Colour,
    /// Positioned or indented off the screen, or translated away.
    Offscreen,
    /// A zero-size box with overflow hidden (`max-height:0`, `width:0`…).
    ZeroSize,
    /// `clip`/`clip-path` that shows nothing.
    Clip,
    /// `transform: scale(0)`, `rotateY(90deg)` and the like.
    Transform,
    /// The `hidden` attribute, `<input type=hidden>`.
    HiddenAttribute,
    /// `aria-hidden="true"`.
    AriaHidden,
    /// `<template>` content.
    Template,
    /// `<noscript>` content.
    Noscript,
    /// `<script>` or `<style>` bodies.
    Code,
    /// alt, title, aria-label, placeholder and `<meta name=description>` text:
    /// read by a model, not shown as page text.
    Attribute,
    // Email (email.rs)
    /// Text the text/plain alternative has and the HTML part does not show.
    PlainOnly,
    // Unicode (invisible.rs)
    /// Unicode tag characters (U+E0000–U+E007F) spelling ASCII.
    TagCharacters,
    /// Variation selectors carrying bytes.
    VariationSelectors,
    /// Zero-width characters (binary payloads or splitting words).
    ZeroWidth,
    /// Bidi controls that reorder what a person sees.
    Bidi,
    /// Other format (Cf) characters: invisible operators, interlinear annotation, shorthand format controls.
    FormatCharacter,
    /// Blank fillers: Hangul fillers, Braille blank, U+034F, U+17B4/5, odd spaces used as bits.
    BlankFiller,
    /// Soft hyphens inside words.
    SoftHyphen,
    // Terminal (invisible.rs)
    /// An escape sequence (CSI, OSC, DCS, APC, C1): not shown, may carry data.
    Escape,
    /// Text a terminal would not show: SGR 8 (conceal) or foreground = background.
    Concealed,
    /// Text a carriage return, backspace or cursor movement paints over.
    Overwritten,
    // Limits (document.rs)
    /// The rest of a part past the first 65,536 characters that could start
    /// a run of invisible characters or escapes: withheld unread.
    Unmapped,
    /// The rest of an HTML part past the parser's memory bound (markup
    /// nested tens of thousands deep): withheld unread.
    Unrendered,
}

impl HiddenReason {
    /// The stable snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            HiddenReason::Comment => "comment",
            HiddenReason::DisplayNone => "display_none",
            HiddenReason::VisibilityHidden => "visibility_hidden",
            HiddenReason::Opacity => "opacity",
            HiddenReason::FontSize => "font_size",
            HiddenReason::Colour => "colour",
            HiddenReason::Offscreen => "offscreen",
            HiddenReason::ZeroSize => "zero_size",
            HiddenReason::Clip => "clip",
            HiddenReason::Transform => "transform",
            HiddenReason::HiddenAttribute => "hidden_attribute",
            HiddenReason::AriaHidden => "aria_hidden",
            HiddenReason::Template => "template",
            HiddenReason::Noscript => "noscript",
            HiddenReason::Code => "code",
            HiddenReason::Attribute => "attribute",
            HiddenReason::PlainOnly => "plain_only",
            HiddenReason::TagCharacters => "tag_characters",
            HiddenReason::VariationSelectors => "variation_selectors",
            HiddenReason::ZeroWidth => "zero_width",
            HiddenReason::Bidi => "bidi",
            HiddenReason::FormatCharacter => "format_character",
            HiddenReason::BlankFiller => "blank_filler",
            HiddenReason::SoftHyphen => "soft_hyphen",
            HiddenReason::Escape => "escape",
            HiddenReason::Concealed => "concealed",
            HiddenReason::Overwritten => "overwritten",
            HiddenReason::Unmapped => "unmapped",
            HiddenReason::Unrendered => "unrendered",
        }
    }

    /// A short phrase for human reports.
    pub fn describe(self) -> &'static str {
        match self {
            HiddenReason::Comment => "inside an HTML comment",
            HiddenReason::DisplayNone => "display:none",
            HiddenReason::VisibilityHidden => "visibility:hidden",
            HiddenReason::Opacity => "transparent (opacity near 0)",
            HiddenReason::FontSize => "font too small to read",
            HiddenReason::Colour => "text colour matches its background",
            HiddenReason::Offscreen => "positioned off the screen",
            HiddenReason::ZeroSize => "inside a zero-size box",
            HiddenReason::Clip => "clipped away",
            HiddenReason::Transform => "transformed to nothing",
            HiddenReason::HiddenAttribute => "hidden attribute",
            HiddenReason::AriaHidden => "aria-hidden",
            HiddenReason::Template => "inside <template>",
            HiddenReason::Noscript => "inside <noscript>",
            HiddenReason::Code => "script or style body",
            HiddenReason::Attribute => "attribute text (alt, title, aria-label, meta)",
            HiddenReason::PlainOnly => "only in the text/plain part; the HTML part does not show it",
            HiddenReason::TagCharacters => "Unicode tag characters",
            HiddenReason::VariationSelectors => "variation selectors",
            HiddenReason::ZeroWidth => "zero-width characters",
            HiddenReason::Bidi => "bidi control characters",
            HiddenReason::FormatCharacter => "invisible format characters",
            HiddenReason::BlankFiller => "blank filler characters",
            HiddenReason::SoftHyphen => "soft hyphens",
            HiddenReason::Escape => "terminal escape sequence",
            HiddenReason::Concealed => "concealed on a terminal",
            HiddenReason::Overwritten => "painted over on a terminal",
            HiddenReason::Unmapped => "past 65,536 invisible characters or escapes, withheld unread",
            HiddenReason::Unrendered => "markup nested too deep to render, withheld unread",
        }
    }

    /// Unicode smuggling channels: invisible characters that spell a payload.
    pub fn is_invisible_unicode(self) -> bool {
        matches!(
            self,
            HiddenReason::TagCharacters
                | HiddenReason::VariationSelectors
                | HiddenReason::ZeroWidth
                | HiddenReason::Bidi
                | HiddenReason::FormatCharacter
                | HiddenReason::BlankFiller
                | HiddenReason::SoftHyphen
        )
    }
}

/// A byte range of a part's text, visible or hidden.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    /// Byte range into `Part::text` (always on char boundaries).
    pub range: std::ops::Range<usize>,
    /// `None` when a person sees this text.
    pub hidden: Option<HiddenReason>,
    /// What a hidden run spells when decoded (tag characters to ASCII,
    /// zero-width binary to bytes, an OSC 8 link's target…).
    pub decoded: Option<String>,
    /// Where the span's text came from in `Document::raw`, when known.
    pub raw: Option<std::ops::Range<usize>>,
    /// Legitimate formatting (a colour escape, a hyphenation hint): removed
    /// from fenced text, never reported.
    pub benign: bool,
}

impl Span {
    pub fn visible(range: std::ops::Range<usize>) -> Span {
        Span { range, hidden: None, decoded: None, raw: None, benign: false }
    }

    pub fn hidden(range: std::ops::Range<usize>, why: HiddenReason) -> Span {
        Span { range, hidden: Some(why), decoded: None, raw: None, benign: false }
    }

    /// Hidden from a person and not mere formatting.
    pub fn is_suspect(&self) -> bool {
        self.hidden.is_some() && !self.benign
    }
}

/// One thing a reader gets from a document: a body, the subject, an
/// attachment's text, a calendar field, an attached email's body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// Where this text is, for reports: `body`, `subject`, `text/html body`,
    /// `attachment "notes.txt"`, `calendar DESCRIPTION`, `attached message > body`.
    pub location: String,
    /// The decoded text a model would read, hidden text included.
    pub text: String,
    /// Spans in order, not overlapping, covering `text` exactly.
    pub spans: Vec<Span>,
    /// The part's byte range in `Document::raw`, when known.
    pub raw: Option<std::ops::Range<usize>>,
}

/// Kinds of entity the gate cares about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntityKind {
    Email,
    Url,
    Domain,
    Phone,
    /// The words of text the user typed or gave, as a name is compared
    /// ([`crate::gate::words`]): the gate's own, never found in a document.
    Words,
}

/// An address, link, domain or phone number mentioned anywhere in the
/// document (hidden text included).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Entity {
    pub kind: EntityKind,
    /// Normalised: lowercase for emails and domains, as written for URLs,
    /// digits only (with a leading +) for phones.
    pub value: String,
    /// True when every mention is in hidden text.
    pub hidden: bool,
}

/// What an email says about itself.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct EmailMeta {
    pub from: Vec<String>,
    pub to: Vec<String>,
    pub cc: Vec<String>,
    pub reply_to: Vec<String>,
    pub subject: Option<String>,
    pub date: Option<String>,
    pub attachments: Vec<Attachment>,
    /// A limit cut the reading short (`crate::email::MAX_PARTS` parts,
    /// `MAX_DEPTH` levels of attached mail, `MAX_TEXT_BYTES` of text, or
    /// more MIME delimiter lines than are parsed): the rest was not read.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

/// An attachment, by name and type.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Attachment {
    pub name: Option<String>,
    pub content_type: String,
    pub size: usize,
}

// ---------------------------------------------------------------------------
// Loading: bytes to parts, spans and entities.

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

    /// 1-based line and column (in characters) of a byte offset in `raw`.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.raw.len());
        let before = &self.raw[..offset];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        let col = String::from_utf8_lossy(&before[line_start..]).chars().count() + 1;
        (line, col)
    }

    /// All text a person sees, part by part (hidden spans removed).
    pub fn visible_text(&self) -> String {
        let mut out = String::new();
        for p in &self.parts {
            for s in &p.spans {
                if s.hidden.is_none() {
                    out.push_str(&p.text[s.range.clone()]);
                }
            }
            out.push('\n');
        }
        out
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

/// Overlay hidden ranges onto a partition of spans: each range becomes its
/// own span with `why` (and `decoded`), splitting what it overlaps.
pub fn split_spans(
    spans: &[Span],
    ranges: &[std::ops::Range<usize>],
    why: HiddenReason,
    decoded: Option<&[Option<String>]>,
) -> Vec<Span> {
    let runs: Vec<(std::ops::Range<usize>, Option<String>, bool)> = ranges
        .iter()
        .enumerate()
        .map(|(i, r)| (r.clone(), decoded.and_then(|d| d.get(i).cloned().flatten()), false))
        .collect();
    overlay(spans, &runs, |_| why)
}

/// The generic overlay: `runs` are sorted, non-overlapping (range, decoded, benign).
fn overlay(
    spans: &[Span],
    runs: &[(std::ops::Range<usize>, Option<String>, bool)],
    why: impl Fn(usize) -> HiddenReason,
) -> Vec<Span> {
    let mut out = Vec::with_capacity(spans.len() + runs.len() * 2);
    let mut ri = 0;
    for s in spans {
        // Invisible characters inside text that markup already hides (the
        // padding of an email preheader) change nothing for a reader; only a
        // run that spells something is worth its own span there.
        while ri < runs.len() && runs[ri].0.end <= s.range.start {
            ri += 1;
        }
        if s.hidden.is_some()
            && !runs[ri..].iter().take_while(|(r, _, _)| r.start < s.range.end).any(|(_, d, _)| d.is_some())
        {
            out.push(s.clone());
            continue;
        }
        let mut at = s.range.start;
        while at < s.range.end {
            // Skip runs that end before this point.
            while ri < runs.len() && runs[ri].0.end <= at {
                ri += 1;
            }
            match runs.get(ri) {
                Some((r, dec, benign)) if r.start < s.range.end => {
                    let start = r.start.max(at);
                    if start > at {
                        out.push(Span { range: at..start, raw: sub_raw(s, at..start), ..s.clone() });
                    }
                    let end = r.end.min(s.range.end);
                    out.push(Span {
                        range: start..end,
                        hidden: Some(why(ri)),
                        decoded: if start == r.start { dec.clone() } else { None },
                        raw: sub_raw(s, start..end),
                        benign: *benign && s.hidden.is_none(),
                    });
                    at = end;
                }
                _ => {
                    out.push(Span { range: at..s.range.end, raw: sub_raw(s, at..s.range.end), ..s.clone() });
                    at = s.range.end;
                }
            }
        }
    }
    out
}

/// The raw range of a piece of a span: exact when the span's text maps to
/// the input byte for byte, else the whole span's range.
fn sub_raw(s: &Span, piece: std::ops::Range<usize>) -> Option<std::ops::Range<usize>> {
    let raw = s.raw.clone()?;
    if raw.len() == s.range.len() {
        Some(raw.start + (piece.start - s.range.start)..raw.start + (piece.end - s.range.start))
    } else {
        Some(raw)
    }
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

/// Replace a file's contents: written to a temporary file in the same
/// directory, then renamed over the original, so readers see the old file
/// or the new one, never half of either. Permissions are kept.
pub fn replace_file(path: &Path, contents: &[u8]) -> io::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.inertbox-{}.tmp", std::process::id()));
    let result = (|| {
        let perms = std::fs::metadata(path)?.permissions();
        let mut f = File::create(&tmp)?;
        io::Write::write_all(&mut f, contents)?;
        f.sync_all()?;
        std::fs::set_permissions(&tmp, perms)?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Turn an OS string (an argument) into text without panicking on bad bytes:
/// invalid UTF-8 becomes U+FFFD, as the reference's argv decoding does.
pub fn lossy(arg: &OsString) -> String {
    arg.to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dash_and_none_mean_stdin() {
        assert_eq!(Input::from_arg(None), Input::Stdin);
        assert_eq!(Input::from_arg(Some(OsStr::new("-"))), Input::Stdin);
        assert_eq!(Input::from_arg(Some(OsStr::new("a.txt"))), Input::Path("a.txt".into()));
        assert_eq!(Input::Stdin.label(), "-");
        assert_eq!(Input::Path("dir/a.txt".into()).label(), "dir/a.txt");
    }

    #[test]
    fn read_capped_allows_exactly_the_cap() {
        assert_eq!(read_capped(&b"abcd"[..], Some(4)).unwrap(), Ok(b"abcd".to_vec()));
        assert_eq!(read_capped(&b"abcde"[..], Some(4)).unwrap(), Err(4));
        assert_eq!(read_capped(&b"abcde"[..], None).unwrap(), Ok(b"abcde".to_vec()));
    }

    #[test]
    fn missing_file_is_an_open_error_naming_the_path() {
        let err = Document::read(&Input::Path("/nonexistent/x".into()), None).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/x"), "{err}");
    }
}
