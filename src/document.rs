//! The one Document every subcommand starts from: the bytes as read, and
//! what a reader gets from them (parts, hidden spans, entities, an email's
//! header facts). Types only, and what needs nothing but them; `load`
//! makes a Document from bytes, `input` reads the bytes.

use crate::input::{Input, ReadError};

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

    /// Read a whole input into a Document, refusing more than `cap` bytes;
    /// its source is the input's `source_label` (the file's name, `stdin`).
    pub fn read(input: &Input, cap: Option<u64>) -> Result<Document, ReadError> {
        Ok(Document { raw: input.read(cap)?, source: input.source_label(), ..Document::default() })
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

choices!(Kind, "type", [Auto, Email, Html, Text]);

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
    /// A positioned box with a negative `z-index`: drawn under the content
    /// around it (an opaque box laid over it hides it).
    Covered,
    /// `transform: scale(0)`, `rotateY(90deg)` and the like.
    Transform,
    /// The `hidden` attribute, `<input type=hidden>`.
    HiddenAttribute,
    /// `aria-hidden="true"`.
    AriaHidden,
    /// `<template>` content.
    Template,
    /// A shadow host's children that no `<slot>` of its declarative shadow
    /// root shows (the root is drawn in their place).
    Unslotted,
    /// The content of a closed `<details>` (all but its `<summary>`).
    ClosedDetails,
    /// A Markdown raw block for another output format (```` ```{=latex} ````):
    /// a renderer writing the page drops it.
    RawBlock,
    /// Markdown a renderer leaves out: a code fence's info string past its
    /// language word.
    NotRendered,
    /// An option of a drop-down list other than the one it shows.
    UnselectedOption,
    /// `<noscript>` content.
    Noscript,
    /// `<script>` or `<style>` bodies.
    Code,
    /// alt, title, aria-label, placeholder and `<meta name=description>` text:
    /// read by a model, not shown as page text.
    Attribute,
    /// Interface text and notes no reader sees as the page's: a Markdown
    /// link's title (a tooltip), an `<option>`'s value (what a form sends),
    /// an `<iframe srcdoc>`'s words, a `%%` comment (Obsidian, Mermaid), a
    /// Markdown page's front matter but the fields a site shows. Judged as
    /// a label's: a verb and its object are a button's there.
    Label,
    /// A note a source's authors leave each other and whoever fills in a
    /// template (a TeX comment: `% You must…`): judged only where it names
    /// an AI, or trips a rule.
    SourceComment,
    // Email (email.rs)
    /// Text the text/plain alternative has and the HTML part does not show.
    PlainOnly,
    /// Header fields a mail client does not show (`X-…`, `Comments`,
    /// `Keywords`…) and attachments' file names: read by a model, not the
    /// message's text.
    Metadata,
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
    /// Words written wholly in superscript or subscript letters (`ᵖˡᵉᵃˢᵉ
    /// ˢᵉⁿᵈ`): small raised type a reader skims over, read by a model as
    /// plain words.
    SmallLetters,
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
    /// The rest of a part past a markup reader's memory bound (HTML nested
    /// tens of thousands deep, more than 65,536 comments or other hidden
    /// runs in a text): withheld unread.
    Unrendered,
    /// Blurred past reading by a CSS filter (`filter: blur(6px)`).
    Blurred,
    /// Drawn as something else: a row of dots (`-webkit-text-security:
    /// disc`) or an image the element's `content` puts in its place.
    Masked,
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
            HiddenReason::Covered => "covered",
            HiddenReason::Transform => "transform",
            HiddenReason::HiddenAttribute => "hidden_attribute",
            HiddenReason::AriaHidden => "aria_hidden",
            HiddenReason::Template => "template",
            HiddenReason::Unslotted => "unslotted",
            HiddenReason::ClosedDetails => "closed_details",
            HiddenReason::RawBlock => "raw_block",
            HiddenReason::NotRendered => "not_rendered",
            HiddenReason::UnselectedOption => "unselected_option",
            HiddenReason::Noscript => "noscript",
            HiddenReason::Code => "code",
            HiddenReason::Attribute => "attribute",
            HiddenReason::Label => "label",
            HiddenReason::SourceComment => "source_comment",
            HiddenReason::PlainOnly => "plain_only",
            HiddenReason::Metadata => "metadata",
            HiddenReason::TagCharacters => "tag_characters",
            HiddenReason::VariationSelectors => "variation_selectors",
            HiddenReason::ZeroWidth => "zero_width",
            HiddenReason::Bidi => "bidi",
            HiddenReason::FormatCharacter => "format_character",
            HiddenReason::BlankFiller => "blank_filler",
            HiddenReason::SoftHyphen => "soft_hyphen",
            HiddenReason::SmallLetters => "small_letters",
            HiddenReason::Escape => "escape",
            HiddenReason::Concealed => "concealed",
            HiddenReason::Overwritten => "overwritten",
            HiddenReason::Unmapped => "unmapped",
            HiddenReason::Unrendered => "unrendered",
            HiddenReason::Blurred => "blurred",
            HiddenReason::Masked => "masked",
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
            HiddenReason::Offscreen => {
                "out of view (positioned off the screen, below many blank lines or far right on its line)"
            }
            HiddenReason::ZeroSize => "inside a zero-size box",
            HiddenReason::Clip => "clipped away",
            HiddenReason::Covered => "drawn under other content (a negative z-index)",
            HiddenReason::Transform => "transformed to nothing",
            HiddenReason::HiddenAttribute => "hidden attribute",
            HiddenReason::AriaHidden => "aria-hidden",
            HiddenReason::Template => "inside <template>",
            HiddenReason::Unslotted => "a shadow host's child no slot of its shadow root shows",
            HiddenReason::ClosedDetails => "folded away until opened (a closed <details>, a collapsed notebook cell)",
            HiddenReason::RawBlock => "in a raw block for another output format",
            HiddenReason::NotRendered => {
                "Markdown a renderer leaves out (a code fence's info string past its language, a table row's cells past its header's)"
            }
            HiddenReason::UnselectedOption => "an option a drop-down list shows only when opened",
            HiddenReason::Noscript => "inside <noscript>",
            HiddenReason::Code => "script or style body",
            HiddenReason::Attribute => "attribute text (alt, title, aria-label, meta)",
            HiddenReason::Label => {
                "interface text or a note (a link's title, an option's value, a frame's document, a %% comment, \
                 front matter a site does not show)"
            }
            HiddenReason::SourceComment => "a comment in a TeX source",
            HiddenReason::PlainOnly => "only in the text/plain part; the HTML part does not show it",
            HiddenReason::Metadata => {
                "mail metadata a client does not show (a header field, an attachment's name, text outside the parts, a parameter)"
            }
            HiddenReason::TagCharacters => "Unicode tag characters",
            HiddenReason::VariationSelectors => "variation selectors",
            HiddenReason::ZeroWidth => "zero-width characters",
            HiddenReason::Bidi => "bidi control characters",
            HiddenReason::FormatCharacter => "invisible format characters",
            HiddenReason::BlankFiller => "blank filler characters",
            HiddenReason::SoftHyphen => "soft hyphens",
            HiddenReason::SmallLetters => "written in superscript or subscript letters",
            HiddenReason::Escape => "terminal escape sequence",
            HiddenReason::Concealed => "concealed on a terminal",
            HiddenReason::Overwritten => "painted over on a terminal",
            HiddenReason::Unmapped => "past 65,536 invisible characters or escapes, withheld unread",
            HiddenReason::Unrendered => "markup past the reader's memory bound, withheld unread",
            HiddenReason::Blurred => "blurred past reading (a CSS blur filter)",
            HiddenReason::Masked => "drawn as dots or replaced by an image (CSS)",
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
    /// What one request the user typed asks for: the kinds of action its
    /// clauses open with, then `|` and the names it gives (the gate's own,
    /// one per trusted text, the latest counting).
    Request,
    /// The ids a tool's JSON answer gives its objects, from its keys
    /// (` m-5012 th_9021 `): the gate's own, never found in a document.
    Handle,
    /// The names a tool's JSON answer gives its objects' ids, a line
    /// `id name words` each (`u02wenli wen li`): the gate's own.
    Named,
    /// The words (and addresses, whole) of the sentences of a read that
    /// ask for something to be done (`please also cc ann@…`): the gate's
    /// own.
    Asked,
}

impl EntityKind {
    /// The kind's letter in a session record: upper case when every
    /// mention was hidden.
    pub fn letter(self, hidden: bool) -> char {
        let l = match self {
            EntityKind::Email => 'e',
            EntityKind::Url => 'u',
            EntityKind::Domain => 'd',
            EntityKind::Phone => 'p',
            EntityKind::Words => 'w',
            EntityKind::Request => 'i',
            EntityKind::Handle => 'h',
            EntityKind::Named => 'n',
            EntityKind::Asked => 'q',
        };
        if hidden { l.to_ascii_uppercase() } else { l }
    }

    /// The kind a letter names, in either case (`s`, a sender, is none).
    pub fn from_letter(letter: u8) -> Option<EntityKind> {
        match letter.to_ascii_lowercase() {
            b'e' => Some(EntityKind::Email),
            b'u' => Some(EntityKind::Url),
            b'd' => Some(EntityKind::Domain),
            b'p' => Some(EntityKind::Phone),
            b'w' => Some(EntityKind::Words),
            b'i' => Some(EntityKind::Request),
            b'h' => Some(EntityKind::Handle),
            b'n' => Some(EntityKind::Named),
            b'q' => Some(EntityKind::Asked),
            _ => None,
        }
    }
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

impl Document {
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
    /// The first `max` bytes (about) of [`Document::visible_text`], without
    /// building the rest.
    pub fn visible_head(&self, max: usize) -> String {
        visible_head(&self.parts, max)
    }

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

/// The first `max` bytes (about) of the text a person sees in `parts`, a
/// line after each part.
pub fn visible_head(parts: &[Part], max: usize) -> String {
    let mut out = String::new();
    for p in parts {
        for s in &p.spans {
            if out.len() >= max {
                return out;
            }
            if s.hidden.is_none() {
                let t = &p.text[s.range.clone()];
                out.push_str(&t[..t.floor_char_boundary(max - out.len())]);
            }
        }
        out.push('\n');
    }
    out
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
pub(crate) fn overlay(
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
