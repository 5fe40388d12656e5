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
//!
//! How: one quick scan collects the rules of every `<style>` block (so a rule
//! placed after the element it hides still applies), then lol_html streams the
//! document once. An element stack of our own, kept in step with lol_html's
//! through end-tag handlers, carries what each element passes to its children:
//! a hiding reason (inherited, the outermost wins), and the computed
//! visibility, font size, text colour and background that a child may change.
//!
//! Limits, each erring towards a reading a person would recognise: only
//! simple selectors (`tag`, `.class`, `#id` and compounds of them) from
//! `<style>` apply; rules with combinators, attribute selectors or
//! pseudo-classes are ignored. Implied end tags (a `<div>` closing an open
//! `<p>`) are not modelled, so such a `<p>` ends where lol_html ends it.
//! Closed `<details>` bodies count as visible. Lengths in vw, vh and % assume
//! a 1000 px viewport.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;

use lol_html::html_content::{Comment, Element, EndTag, TextChunk, TextType};
use lol_html::{HtmlRewriter, MemorySettings, Settings, doc_comments, doc_text, element};

use crate::document::{HiddenReason, Span};

/// Deeper elements share their 256th ancestor's frame: browsers cap nesting
/// too (Blink at 512), and the cap keeps memory per document bounded.
const MAX_DEPTH: usize = 256;
/// Memory the HTML parser may use (its stack of open elements, about 300
/// bytes each, and the buffer of the tag being read are most of it): past
/// it the rest of the page is withheld (`HiddenReason::Unrendered`), so a
/// page of a million unclosed tags costs what one of 100,000 does.
const MAX_PARSER_MEMORY: usize = 32 << 20;
/// The font size of the root, in CSS pixels (every browser's default).
const DEFAULT_FONT_PX: f64 = 16.0;
/// Text smaller than this (in CSS pixels) cannot be read.
const MIN_READABLE_FONT_PX: f64 = 4.0;
/// Opacity at or below this is invisible for practical purposes.
const MAX_HIDDEN_OPACITY: f64 = 0.1;
/// A box moved this far left or up (CSS pixels) is off any screen.
const OFFSCREEN_PX: f64 = 1000.0;
/// `text-indent` at or below minus this pushes the text off the screen.
const OFFSCREEN_INDENT_PX: f64 = 999.0;
/// Assumed viewport (and containing block) size for vw, vh and %.
const VIEWPORT_PX: f64 = 1000.0;
/// A box this small (CSS pixels) with overflow hidden shows nothing readable.
const MAX_HIDDEN_BOX_PX: f64 = 1.0;
/// Euclidean RGB distance under which text is lost in its background.
const NEAR_COLOUR_DISTANCE: f64 = 30.0;
/// Text this transparent is invisible on any background.
const MAX_HIDDEN_ALPHA: f64 = 0.1;
/// Style rules kept from `<style>` blocks (real pages have a few hundred).
const MAX_SELECTORS: usize = 4096;
/// Rules tried per element and index bucket (the latest, which win ties).
const MAX_CANDIDATES_PER_BUCKET: usize = 64;
/// Distinct inline styles whose parse is kept for reuse.
const MAX_CACHED_STYLES: usize = 512;
/// Nesting of `@media`/`@supports` blocks followed into.
const MAX_CSS_NESTING: usize = 8;
/// The longest entity name we look up (`CounterClockwiseContourIntegral`).
const MAX_ENTITY_NAME: usize = 32;

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
        let visible = || self.spans.iter().filter(|s| s.hidden.is_none()).map(|s| &self.text[s.range.clone()]);
        let mut out = String::with_capacity(visible().map(str::len).sum());
        out.extend(visible());
        out
    }

    /// Only the text a person would not see, span by span.
    pub fn hidden_text(&self) -> Vec<(&str, HiddenReason)> {
        self.spans.iter().filter_map(|s| s.hidden.map(|why| (&self.text[s.range.clone()], why))).collect()
    }
}

/// Render HTML bytes (UTF-8; invalid bytes become U+FFFD).
pub fn render(html: &[u8], base: usize) -> Rendered {
    let sheet = Sheet::from_html(html);
    let state = Rc::new(RefCell::new(Renderer::new(base, sheet)));
    {
        let on_element = {
            let state = Rc::clone(&state);
            move |el: &mut Element| {
                Renderer::on_element(&state, el, html);
                Ok(())
            }
        };
        let on_text = {
            let state = Rc::clone(&state);
            move |t: &mut TextChunk| {
                state.borrow_mut().on_text(t);
                Ok(())
            }
        };
        let on_comment = {
            let state = Rc::clone(&state);
            move |c: &mut Comment| {
                state.borrow_mut().on_comment(c);
                Ok(())
            }
        };
        let settings = Settings::new()
            // Never bail out on ambiguous markup: we want a best reading of any bytes.
            .with_strict(false)
            .append_element_content_handler(element!("*", on_element))
            .append_document_content_handler(doc_text!(on_text))
            .append_document_content_handler(doc_comments!(on_comment));
        let settings =
            settings.with_memory_settings(MemorySettings::new().with_max_allowed_memory_usage(MAX_PARSER_MEMORY));
        let mut rewriter = HtmlRewriter::new(settings, |_: &[u8]| {});
        // Our handlers never fail, so an error here is the parser's memory
        // bound (markup nested tens of thousands deep): the reading stops.
        let read = rewriter.write(html).and_then(|()| rewriter.end());
        if read.is_err() {
            state.borrow_mut().unrendered = true;
        }
    }
    let mut st = state.borrow_mut();
    st.flush_text();
    if st.unrendered {
        // What the parser did not reach is withheld as text, unread (the
        // rules still scan it); what it read stands.
        let from = st.seen.min(html.len());
        let rest = String::from_utf8_lossy(&html[from..]).into_owned();
        let raw = st.raw(from..html.len());
        st.out.push(&rest, Some(HiddenReason::Unrendered), Some(raw));
    }
    let Renderer { out, links, .. } = std::mem::replace(&mut *st, Renderer::new(base, Sheet::default()));
    Rendered { text: out.text, spans: out.spans, links }
}

/// Does this look like HTML (for kind sniffing)? A document type or an
/// `<html>`, `<head>` or `<body>` tag near the start says so; otherwise it
/// must open with a known tag, or open a known tag and close it again, or
/// carry several known tags and a closing one, so that a "<" in prose, a
/// comment in a README or a stray `<br>` is not enough.
pub fn looks_like_html(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(SNIFF_BYTES)];
    let lower: Vec<u8> = head.to_ascii_lowercase();
    let lower = lower.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&lower);
    if [&b"<!doctype html"[..], b"<html", b"<head", b"<body"].iter().any(|p| find(lower, p).is_some()) {
        return true;
    }
    let start = lower.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(lower.len());
    let (mut opens, mut closes) = (0, 0);
    let mut opened: Vec<&[u8]> = Vec::new();
    let mut i = 0;
    while let Some(off) = lower[i..].iter().position(|&b| b == b'<') {
        let at = i + off;
        let rest = &lower[at + 1..];
        let (closing, rest) = match rest.strip_prefix(b"/") {
            Some(r) => (true, r),
            None => (false, rest),
        };
        let name_len = rest.iter().position(|b| !b.is_ascii_alphanumeric()).unwrap_or(rest.len());
        let after = rest.get(name_len).copied();
        let ended = matches!(after, Some(b'>' | b' ' | b'\t' | b'\n' | b'\r' | b'/'));
        if ended && SNIFF_TAGS.contains(&&rest[..name_len]) {
            if at == start && !closing {
                return true;
            }
            let name = &rest[..name_len];
            if closing {
                if opened.contains(&name) {
                    return true;
                }
                closes += 1;
            } else {
                opens += 1;
                if !opened.contains(&name) {
                    opened.push(name);
                }
            }
        }
        i = at + 1;
    }
    opens >= 2 && closes >= 1
}

/// How much of the start of a document sniffing looks at.
const SNIFF_BYTES: usize = 8192;

/// Tags that mark a document as HTML when they open it or recur in it.
const SNIFF_TAGS: &[&[u8]] = &[
    b"a",
    b"b",
    b"blockquote",
    b"br",
    b"center",
    b"div",
    b"em",
    b"font",
    b"form",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"i",
    b"iframe",
    b"img",
    b"input",
    b"li",
    b"link",
    b"meta",
    b"ol",
    b"p",
    b"script",
    b"span",
    b"strong",
    b"style",
    b"table",
    b"td",
    b"title",
    b"tr",
    b"u",
    b"ul",
];

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(hay, needle)
}

// ---------------------------------------------------------------------------
// The renderer: text, spans and the element stack.

/// Text and spans being built; spans always cover `text` exactly.
#[derive(Default)]
struct Out {
    text: String,
    spans: Vec<Span>,
}

impl Out {
    /// Append `s` with one hidden-ness. Text from the same source run joins
    /// the previous span; separators (`raw: None`) join a span of the same
    /// hidden-ness.
    fn push(&mut self, s: &str, hidden: Option<HiddenReason>, raw: Option<Range<usize>>) {
        if s.is_empty() {
            return;
        }
        let start = self.text.len();
        self.text.push_str(s);
        let end = self.text.len();
        if let Some(last) = self.spans.last_mut()
            && last.hidden == hidden
        {
            match (&mut last.raw, raw.as_ref()) {
                (_, None) => {
                    last.range.end = end;
                    return;
                }
                (Some(prev), Some(r)) if prev.end == r.start => {
                    prev.end = r.end;
                    last.range.end = end;
                    return;
                }
                _ => {}
            }
        }
        let mut span = match hidden {
            None => Span::visible(start..end),
            Some(why) => Span::hidden(start..end, why),
        };
        span.raw = raw;
        self.spans.push(span);
    }

    /// A line break (block boundary) unless the text already ends with one
    /// that reads the same way.
    fn line_break(&mut self, hidden: Option<HiddenReason>, raw: Range<usize>) {
        if !self.text.ends_with('\n') || self.text.is_empty() {
            if !self.text.is_empty() {
                self.push_sep("\n", hidden, raw);
            }
            return;
        }
        // Ends with a newline already: enough, unless it is hidden and this
        // one must show (so visible words on both sides stay apart).
        let last_hidden = self.spans.last().and_then(|s| s.hidden);
        if hidden.is_none() && last_hidden.is_some() {
            self.push_sep("\n", hidden, raw);
        }
    }

    fn push_sep(&mut self, s: &str, hidden: Option<HiddenReason>, raw: Range<usize>) {
        let joins = self.spans.last().is_some_and(|l| l.hidden == hidden);
        self.push(s, hidden, if joins { None } else { Some(raw) });
    }

    /// A hidden run (comment, attribute text) set apart by spaces that are
    /// part of it, so it never merges with neighbouring words in `text` and
    /// never splits a visible word in two.
    fn push_hidden_run(&mut self, s: &str, why: HiddenReason, raw: Range<usize>) {
        if s.is_empty() {
            return;
        }
        let mut run = String::with_capacity(s.len() + 2);
        if !self.text.is_empty() && !self.text.ends_with(char::is_whitespace) {
            run.push(' ');
        }
        run.push_str(s);
        run.push(' ');
        let start = self.text.len();
        self.text.push_str(&run);
        let mut span = Span::hidden(start..self.text.len(), why);
        span.raw = Some(raw);
        self.spans.push(span);
    }
}

/// An RGB colour with alpha, components 0..=255 and alpha 0..=1.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Rgba {
    r: f64,
    g: f64,
    b: f64,
    a: f64,
}

const BLACK: Rgba = Rgba { r: 0.0, g: 0.0, b: 0.0, a: 1.0 };
const WHITE: Rgba = Rgba { r: 255.0, g: 255.0, b: 255.0, a: 1.0 };

impl Rgba {
    fn rgb(r: u32, g: u32, b: u32) -> Rgba {
        Rgba { r: r as f64, g: g as f64, b: b as f64, a: 1.0 }
    }

    fn from_hex24(v: u32) -> Rgba {
        Rgba::rgb(v >> 16 & 0xff, v >> 8 & 0xff, v & 0xff)
    }

    /// This colour painted over an opaque `under`.
    fn over(self, under: Rgba) -> Rgba {
        let a = self.a.clamp(0.0, 1.0);
        Rgba {
            r: self.r * a + under.r * (1.0 - a),
            g: self.g * a + under.g * (1.0 - a),
            b: self.b * a + under.b * (1.0 - a),
            a: 1.0,
        }
    }

    fn distance(self, other: Rgba) -> f64 {
        ((self.r - other.r).powi(2) + (self.g - other.g).powi(2) + (self.b - other.b).powi(2)).sqrt()
    }
}

/// What an element passes to its children.
#[derive(Debug, Clone)]
struct Frame {
    /// Matches the end-tag handler registered for this element.
    id: u64,
    /// Hidden with everything inside (the outermost reason).
    hidden: Option<HiddenReason>,
    /// Computed `visibility` is hidden or collapse (a child may undo it).
    invisible: bool,
    font_px: f64,
    color: Rgba,
    /// `-webkit-text-fill-color`, which paints over `color` when set.
    fill: Option<Rgba>,
    /// The opaque colour behind this element; `None` when an image or a
    /// gradient is (so the colour test cannot be trusted).
    bg: Option<Rgba>,
    /// Why text directly inside is hidden (cached from the fields above).
    text_reason: Option<HiddenReason>,
}

impl Frame {
    fn root() -> Frame {
        let mut f = Frame {
            id: 0,
            hidden: None,
            invisible: false,
            font_px: DEFAULT_FONT_PX,
            color: BLACK,
            fill: None,
            bg: Some(WHITE),
            text_reason: None,
        };
        f.text_reason = f.compute_text_reason();
        f
    }

    fn compute_text_reason(&self) -> Option<HiddenReason> {
        if self.hidden.is_some() {
            return self.hidden;
        }
        if self.invisible {
            return Some(HiddenReason::VisibilityHidden);
        }
        if self.font_px < MIN_READABLE_FONT_PX {
            return Some(HiddenReason::FontSize);
        }
        let paint = self.fill.unwrap_or(self.color);
        if paint.a <= MAX_HIDDEN_ALPHA {
            return Some(HiddenReason::Colour);
        }
        if let Some(bg) = self.bg
            && paint.over(bg).distance(bg) < NEAR_COLOUR_DISTANCE
        {
            return Some(HiddenReason::Colour);
        }
        None
    }

    /// Hidden-ness of the line breaks an element makes: only reasons that
    /// take the box out of the layout hide them (an invisible box still
    /// moves the text around it to new lines).
    fn break_reason(&self) -> Option<HiddenReason> {
        self.hidden.filter(|r| {
            matches!(
                r,
                HiddenReason::DisplayNone
                    | HiddenReason::HiddenAttribute
                    | HiddenReason::Template
                    | HiddenReason::Noscript
                    | HiddenReason::Code
                    | HiddenReason::Comment
            )
        })
    }
}

/// Text of one text node, gathered chunk by chunk.
struct Pending {
    text: String,
    raw: Range<usize>,
    decode: bool,
}

struct Renderer {
    base: usize,
    out: Out,
    links: Vec<String>,
    /// frames[0] is the document; never empty.
    frames: Vec<Frame>,
    next_id: u64,
    pending: Option<Pending>,
    sheet: Sheet,
    /// Parsed inline styles by their text: mail repeats the same long
    /// `style` attribute on every cell.
    style_cache: HashMap<String, Rc<[Decl]>>,
    /// How far into the input the parser has given us anything.
    seen: usize,
    /// The parser stopped at its memory bound.
    unrendered: bool,
}

/// The attributes render looks at, entity-decoded.
#[derive(Default)]
struct Attrs {
    style: Option<String>,
    class: Option<String>,
    id: Option<String>,
    hidden: bool,
    aria_hidden: bool,
    /// alt, title, aria-label, placeholder, in source order.
    texts: Vec<String>,
    kind: Option<String>,
    value: Option<String>,
    name: Option<String>,
    content: Option<String>,
    http_equiv: Option<String>,
    color: Option<String>,
    bgcolor: Option<String>,
    text_color: Option<String>,
    href: bool,
    links: Vec<String>,
}

impl Renderer {
    fn new(base: usize, sheet: Sheet) -> Renderer {
        Renderer {
            base,
            out: Out::default(),
            links: Vec::new(),
            frames: vec![Frame::root()],
            next_id: 1,
            pending: None,
            sheet,
            style_cache: HashMap::new(),
            seen: 0,
            unrendered: false,
        }
    }

    fn top(&self) -> &Frame {
        // frames[0] is never popped: ids start at 1.
        self.frames.last().unwrap_or_else(|| unreachable!("the root frame is never popped"))
    }

    fn raw(&self, r: Range<usize>) -> Range<usize> {
        self.base + r.start..self.base + r.end
    }

    fn on_text(&mut self, t: &TextChunk) {
        let loc = t.source_location().bytes();
        self.seen = self.seen.max(loc.end);
        let decode = matches!(t.text_type(), TextType::Data | TextType::RCData);
        match &mut self.pending {
            Some(p) if p.decode == decode && p.raw.end == loc.start => {
                p.text.push_str(t.as_str());
                p.raw.end = loc.end;
            }
            _ => {
                self.flush_text();
                self.pending = Some(Pending { text: t.as_str().to_string(), raw: loc, decode });
            }
        }
        if t.last_in_text_node() {
            self.flush_text();
        }
    }

    fn flush_text(&mut self) {
        let Some(p) = self.pending.take() else { return };
        if p.text.is_empty() {
            return;
        }
        let why = self.top().text_reason;
        let raw = self.raw(p.raw);
        if p.decode && p.text.contains('&') {
            let mut s = String::with_capacity(p.text.len());
            decode_entities(&p.text, false, &mut s);
            self.out.push(&s, why, Some(raw));
        } else {
            self.out.push(&p.text, why, Some(raw));
        }
    }

    fn on_comment(&mut self, c: &Comment) {
        self.flush_text();
        self.seen = self.seen.max(c.source_location().bytes().end);
        let why = self.top().hidden.unwrap_or(HiddenReason::Comment);
        let raw = self.raw(c.source_location().bytes());
        self.out.push_hidden_run(&c.text(), why, raw);
    }

    fn on_element(state: &Rc<RefCell<Renderer>>, el: &mut Element, html: &[u8]) {
        let mut st = state.borrow_mut();
        st.flush_text();
        let tag = el.tag_name();
        let svg = el.namespace_uri() == "http://www.w3.org/2000/svg";
        st.seen = st.seen.max(el.source_location().bytes().end);
        let loc = st.raw(el.source_location().bytes());
        let mut attrs = read_attrs(el, html);
        st.links.append(&mut attrs.links);

        let frame = st.element_frame(&tag, svg, &attrs);
        let block = is_block(&tag);
        if block {
            st.out.line_break(frame.break_reason(), loc.clone());
        }
        st.attribute_texts(&tag, &attrs, &frame, loc.clone());

        if !el.can_have_content() {
            return;
        }
        let pushed = if st.frames.len() <= MAX_DEPTH {
            let id = frame.id;
            st.frames.push(frame);
            Some(id)
        } else {
            // Too deep for a frame of its own: anything it would hide makes
            // the rest of its deepest kept ancestor hidden, which errs
            // towards reporting.
            let reason = frame.text_reason;
            if let Some(top) = st.frames.last_mut()
                && top.text_reason.is_none()
                && reason.is_some()
            {
                top.hidden = reason;
                top.text_reason = reason;
            }
            None
        };
        // Too deep: no end-tag handler either (each unclosed element would
        // keep one alive, and lol_html its bookkeeping for it; the line
        // break a deep block's end would give is all that is lost).
        if pushed.is_none() {
            return;
        }
        drop(st);
        let state = Rc::clone(state);
        let handler: lol_html::EndTagHandler<'static> = Box::new(move |end: &mut EndTag| {
            state.borrow_mut().on_end(pushed, block, end.source_location().bytes());
            Ok(())
        });
        // can_have_content() is true, so this cannot fail.
        let _ = el.on_end_tag(handler);
    }

    /// An element ends, by its own end tag or because an ancestor's end tag
    /// closed it (lol_html then calls this with the ancestor's tag).
    fn on_end(&mut self, id: Option<u64>, block: bool, loc: Range<usize>) {
        self.flush_text();
        self.seen = self.seen.max(loc.end);
        let mut brk = None;
        if let Some(id) = id
            && let Some(pos) = self.frames.iter().rposition(|f| f.id == id)
            && pos > 0
        {
            brk = self.frames[pos].break_reason();
            self.frames.truncate(pos);
        } else if let Some(top) = self.frames.last() {
            brk = top.break_reason();
        }
        if block {
            let raw = self.raw(loc);
            self.out.line_break(brk, raw);
        }
    }

    /// alt, title, aria-label, placeholder, hidden input values and meta
    /// descriptions, each as its own hidden run where the element is.
    fn attribute_texts(&mut self, tag: &str, attrs: &Attrs, frame: &Frame, raw: Range<usize>) {
        let why = frame.hidden.unwrap_or(HiddenReason::Attribute);
        for t in &attrs.texts {
            self.out.push_hidden_run(t.trim(), why, raw.clone());
        }
        match tag {
            "input" => {
                let Some(value) = attrs.value.as_deref().map(str::trim).filter(|v| !v.is_empty()) else { return };
                let kind = attrs.kind.as_deref().unwrap_or("text").trim().to_ascii_lowercase();
                match kind.as_str() {
                    "hidden" => {
                        self.out.push_hidden_run(value, frame.hidden.unwrap_or(HiddenReason::HiddenAttribute), raw)
                    }
                    // The value is shown in the box or on the button.
                    "text" | "search" | "email" | "url" | "tel" | "number" | "submit" | "button" | "reset" => {
                        match frame.text_reason {
                            Some(why) => self.out.push_hidden_run(value, why, raw),
                            None => {
                                let sep = !self.out.text.is_empty() && !self.out.text.ends_with(char::is_whitespace);
                                self.out.push(&format!("{}{value} ", if sep { " " } else { "" }), None, Some(raw));
                            }
                        }
                    }
                    _ => self.out.push_hidden_run(value, why, raw),
                }
            }
            "meta" => {
                let key = attrs.name.as_deref().unwrap_or("").trim().to_ascii_lowercase();
                if matches!(key.as_str(), "description" | "og:description" | "twitter:description")
                    && let Some(content) = attrs.content.as_deref()
                {
                    self.out.push_hidden_run(content.trim(), why, raw);
                }
            }
            _ => {}
        }
    }

    /// The frame an element would push: its own hiding reason joined to its
    /// parent's, and the inherited properties it computes.
    fn element_frame(&mut self, tag: &str, svg: bool, attrs: &Attrs) -> Frame {
        let parent = self.top().clone();
        let id = self.next_id;
        self.next_id += 1;
        let mut style = Style::default();
        presentational_hints(tag, attrs, &mut style);
        self.sheet.apply(tag, attrs, &mut style);
        if let Some(inline) = &attrs.style {
            let decls = match self.style_cache.get(inline.as_str()) {
                Some(d) => Rc::clone(d),
                None => {
                    let d: Rc<[Decl]> = parse_declarations(inline).into();
                    if self.style_cache.len() < MAX_CACHED_STYLES {
                        self.style_cache.insert(inline.clone(), Rc::clone(&d));
                    }
                    d
                }
            };
            for d in decls.iter().filter(|d| !d.important) {
                style.set(&d.prop, d.value.clone());
            }
            self.sheet.apply_important(&mut style);
            for d in decls.iter().filter(|d| d.important) {
                style.set(&d.prop, d.value.clone());
            }
        } else {
            self.sheet.apply_important(&mut style);
        }

        let own = own_reason(tag, svg, attrs, &style);
        let mut f = Frame { id, hidden: parent.hidden.or(own), ..parent.clone() };
        if let Some(v) = &style.visibility {
            match first_word(v) {
                "hidden" | "collapse" => f.invisible = true,
                "visible" => f.invisible = false,
                _ => {}
            }
        }
        if let Some(v) = &style.font_size
            && let Some(px) = font_size_px(v, parent.font_px)
        {
            f.font_px = px;
        }
        if let Some(v) = &style.color
            && let Some(c) = parse_colour_or(v, parent.color)
        {
            f.color = c;
        }
        if let Some(v) = &style.fill
            && let Some(c) = parse_colour_or(v, f.color)
        {
            f.fill = Some(c);
        }
        f.bg = background(&style, parent.bg);
        f.text_reason = f.compute_text_reason();
        f
    }
}

fn first_word(v: &str) -> &str {
    v.split_ascii_whitespace().next().unwrap_or("")
}

/// The first value of a list, keeping `calc( … )` and other functions whole.
fn first_value(v: &str) -> &str {
    let v = v.trim_start();
    let mut depth = 0usize;
    for (i, b) in v.bytes().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            b if b.is_ascii_whitespace() && depth == 0 => return &v[..i],
            _ => {}
        }
    }
    v
}

/// Elements whose start and end are line boundaries.
fn is_block(tag: &str) -> bool {
    matches!(
        tag,
        "address"
            | "article"
            | "aside"
            | "blockquote"
            | "body"
            | "br"
            | "caption"
            | "center"
            | "dd"
            | "details"
            | "dialog"
            | "dir"
            | "div"
            | "dl"
            | "dt"
            | "fieldset"
            | "figcaption"
            | "figure"
            | "footer"
            | "form"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "head"
            | "header"
            | "hgroup"
            | "hr"
            | "html"
            | "iframe"
            | "legend"
            | "li"
            | "listing"
            | "main"
            | "menu"
            | "nav"
            | "noscript"
            | "ol"
            | "optgroup"
            | "option"
            | "p"
            | "plaintext"
            | "pre"
            | "script"
            | "section"
            | "select"
            | "style"
            | "summary"
            | "table"
            | "tbody"
            | "td"
            | "template"
            | "textarea"
            | "tfoot"
            | "th"
            | "thead"
            | "title"
            | "tr"
            | "ul"
            | "xmp"
    )
}

/// Link-bearing attributes.
fn is_link_attr(name: &str) -> bool {
    matches!(name, "href" | "src" | "action" | "formaction" | "poster" | "background" | "xlink:href")
}

/// Read attributes straight from the input where lol_html says they are
/// (no allocation for the many attributes that do not matter here).
fn read_attrs(el: &Element, html: &[u8]) -> Attrs {
    let mut a = Attrs::default();
    let source = |loc: Option<lol_html::html_content::SourceLocation>| {
        loc.and_then(|l| html.get(l.bytes())).and_then(|b| std::str::from_utf8(b).ok())
    };
    for attr in el.attributes() {
        let mut buf = [0u8; 24];
        let owned_name;
        let name = match source(attr.name_source_location()) {
            Some(n) if n.len() <= buf.len() => {
                buf[..n.len()].copy_from_slice(n.as_bytes());
                buf[..n.len()].make_ascii_lowercase();
                std::str::from_utf8(&buf[..n.len()]).unwrap_or("")
            }
            Some(_) => continue,
            None => {
                owned_name = attr.name();
                owned_name.as_str()
            }
        };
        let value = || {
            let raw = match source(attr.value_source_location()) {
                Some(v) => std::borrow::Cow::Borrowed(v),
                None => std::borrow::Cow::Owned(attr.value()),
            };
            if !raw.contains('&') {
                return raw.into_owned();
            }
            let mut s = String::with_capacity(raw.len());
            decode_entities(&raw, true, &mut s);
            s
        };
        match name {
            "style" => a.style = Some(value()),
            "class" => a.class = Some(value()),
            "id" => a.id = Some(value()),
            "hidden" => a.hidden = true,
            "aria-hidden" => a.aria_hidden = value().trim().eq_ignore_ascii_case("true"),
            "alt" | "title" | "aria-label" | "placeholder" | "aria-description" => a.texts.push(value()),
            "type" => a.kind = Some(value()),
            "value" => a.value = Some(value()),
            "name" | "property" if a.name.is_none() => a.name = Some(value()),
            "content" => a.content = Some(value()),
            "http-equiv" => a.http_equiv = Some(value()),
            "color" => a.color = Some(value()),
            "bgcolor" => a.bgcolor = Some(value()),
            "text" => a.text_color = Some(value()),
            "srcset" => {
                for candidate in value().split(',') {
                    if let Some(url) = candidate.split_ascii_whitespace().next() {
                        a.links.push(url.to_string());
                    }
                }
            }
            n if is_link_attr(n) => {
                if n == "href" {
                    a.href = true;
                }
                let v = value();
                let v = v.trim();
                if !v.is_empty() {
                    a.links.push(v.to_string());
                }
            }
            _ => {}
        }
    }
    // <meta http-equiv=refresh content="0; url=…"> sends the reader on.
    if a.http_equiv.as_deref().is_some_and(|h| h.trim().eq_ignore_ascii_case("refresh"))
        && let Some(content) = &a.content
        && let Some(pos) = content.to_ascii_lowercase().find("url=")
    {
        let url = content[pos + 4..].trim().trim_matches(|c| c == '\'' || c == '"').trim();
        if !url.is_empty() {
            a.links.push(url.to_string());
        }
    }
    a
}

/// Presentational attributes and the UA defaults that matter for colour:
/// the lowest layer of the cascade.
fn presentational_hints(tag: &str, attrs: &Attrs, style: &mut Style) {
    match tag {
        "a" if attrs.href => style.color = Some("#0000ee".into()),
        "button" => {
            style.color = Some("black".into());
            style.background = Some("#efefef".into());
        }
        "input" | "select" | "textarea" => {
            style.color = Some("black".into());
            style.background = Some("white".into());
        }
        "mark" => {
            style.color = Some("black".into());
            style.background = Some("yellow".into());
        }
        _ => {}
    }
    if let Some(c) = attrs.color.as_deref().or(if tag == "body" { attrs.text_color.as_deref() } else { None }) {
        style.color = Some(legacy_colour(c));
    }
    if let Some(c) = &attrs.bgcolor {
        style.background = Some(legacy_colour(c));
    }
}

/// HTML's legacy colour attributes accept hex without the `#`.
fn legacy_colour(v: &str) -> String {
    let v = v.trim();
    if (v.len() == 3 || v.len() == 6) && v.bytes().all(|b| b.is_ascii_hexdigit()) {
        format!("#{}", v.to_ascii_lowercase())
    } else {
        v.to_ascii_lowercase()
    }
}

/// The reason an element itself (not its ancestors) hides its content.
fn own_reason(tag: &str, svg: bool, attrs: &Attrs, style: &Style) -> Option<HiddenReason> {
    match tag {
        "script" | "style" => return Some(HiddenReason::Code),
        "template" => return Some(HiddenReason::Template),
        "noscript" => return Some(HiddenReason::Noscript),
        // Fallback content and UA `display:none` elements.
        "noembed" | "noframes" | "iframe" | "datalist" | "rp" => return Some(HiddenReason::DisplayNone),
        // SVG titles and descriptions are tooltips and metadata.
        "title" | "desc" | "metadata" if svg => return Some(HiddenReason::Attribute),
        _ => {}
    }
    let display = style.display.as_deref().map(first_word);
    if display == Some("none") || style.content_visibility.as_deref().map(first_word) == Some("hidden") {
        return Some(HiddenReason::DisplayNone);
    }
    // An author `display` other than none overrides the attribute's UA rule.
    if attrs.hidden && display.is_none() {
        return Some(HiddenReason::HiddenAttribute);
    }
    if attrs.aria_hidden {
        return Some(HiddenReason::AriaHidden);
    }
    if style.opacity.as_deref().and_then(number_or_percent).is_some_and(|o| o <= MAX_HIDDEN_OPACITY)
        || style.filter.as_deref().is_some_and(filter_hides)
    {
        return Some(HiddenReason::Opacity);
    }
    if offscreen(style) {
        return Some(HiddenReason::Offscreen);
    }
    if zero_size(style) {
        return Some(HiddenReason::ZeroSize);
    }
    if style.clip.as_deref().is_some_and(clip_hides) || style.clip_path.as_deref().is_some_and(clip_path_hides) {
        return Some(HiddenReason::Clip);
    }
    let t = style.transform.as_deref().map(transform_effect).unwrap_or_default();
    let t = t.or(style.translate.as_deref().map(translate_effect).unwrap_or_default());
    let t = t.or(style.scale.as_deref().map(scale_effect).unwrap_or_default());
    let t = t.or(style.rotate.as_deref().map(rotate_effect).unwrap_or_default());
    t.0
}

// ---------------------------------------------------------------------------
// CSS: the properties that hide, declarations, a stylesheet of simple rules.

/// The cascaded values of the properties that can hide text (lowercase,
/// unescaped). Later `set` calls win, so callers apply the cascade in order.
#[derive(Debug, Default, Clone)]
struct Style {
    display: Option<String>,
    content_visibility: Option<String>,
    visibility: Option<String>,
    opacity: Option<String>,
    filter: Option<String>,
    font_size: Option<String>,
    color: Option<String>,
    fill: Option<String>,
    background: Option<String>,
    background_image: Option<String>,
    position: Option<String>,
    left: Option<String>,
    top: Option<String>,
    right: Option<String>,
    margin_left: Option<String>,
    margin_top: Option<String>,
    text_indent: Option<String>,
    transform: Option<String>,
    translate: Option<String>,
    scale: Option<String>,
    rotate: Option<String>,
    width: Option<String>,
    height: Option<String>,
    max_width: Option<String>,
    max_height: Option<String>,
    overflow_x: Option<String>,
    overflow_y: Option<String>,
    clip: Option<String>,
    clip_path: Option<String>,
}

/// The property name, lowercased and unescaped, if it can hide text (checked
/// without allocating for the common case of a plain name).
fn relevant_property(raw: &str) -> Option<String> {
    if raw.contains('\\') {
        let p = css_unescape(raw).to_ascii_lowercase();
        return is_relevant_property(&p).then_some(p);
    }
    let mut buf = [0u8; 32];
    let b = raw.as_bytes();
    if b.len() > buf.len() {
        return None;
    }
    buf[..b.len()].copy_from_slice(b);
    buf[..b.len()].make_ascii_lowercase();
    let p = std::str::from_utf8(&buf[..b.len()]).ok()?;
    is_relevant_property(p).then(|| p.to_string())
}

/// Properties kept from stylesheets (everything else cannot hide text).
fn is_relevant_property(p: &str) -> bool {
    matches!(
        p,
        "display"
            | "content-visibility"
            | "visibility"
            | "opacity"
            | "filter"
            | "-webkit-filter"
            | "font-size"
            | "font"
            | "color"
            | "-webkit-text-fill-color"
            | "background"
            | "background-color"
            | "background-image"
            | "position"
            | "left"
            | "top"
            | "right"
            | "inset"
            | "margin"
            | "margin-left"
            | "margin-top"
            | "text-indent"
            | "transform"
            | "-webkit-transform"
            | "-ms-transform"
            | "translate"
            | "scale"
            | "rotate"
            | "width"
            | "height"
            | "max-width"
            | "max-height"
            | "overflow"
            | "overflow-x"
            | "overflow-y"
            | "clip"
            | "clip-path"
            | "-webkit-clip-path"
    )
}

impl Style {
    fn set(&mut self, prop: &str, value: String) {
        let v = Some(value);
        let value = v.as_deref().unwrap_or("");
        match prop {
            "display" => self.display = v,
            "content-visibility" => self.content_visibility = v,
            "visibility" => self.visibility = v,
            "opacity" => self.opacity = v,
            "filter" | "-webkit-filter" => self.filter = v,
            "font-size" => self.font_size = v,
            "font" => {
                if let Some(size) = font_shorthand_size(value) {
                    self.font_size = Some(size.to_string());
                }
            }
            "color" => self.color = v,
            "-webkit-text-fill-color" => self.fill = v,
            "background" => {
                self.background = v;
                self.background_image = None;
            }
            "background-color" => self.background = v,
            "background-image" => self.background_image = v,
            "position" => self.position = v,
            "left" => self.left = v,
            "top" => self.top = v,
            "right" => self.right = v,
            "inset" => {
                let parts: Vec<&str> = split_top(value, b' ').into_iter().filter(|t| !t.is_empty()).collect();
                let get = |i: usize| parts.get(i).map(|s| s.to_string());
                self.top = get(0);
                self.right = get(1).or(get(0));
                self.left = get(3).or(get(1)).or(get(0));
            }
            "margin-left" => self.margin_left = v,
            "margin-top" => self.margin_top = v,
            "margin" => {
                let parts: Vec<&str> = split_top(value, b' ').into_iter().filter(|t| !t.is_empty()).collect();
                let get = |i: usize| parts.get(i).map(|s| s.to_string());
                self.margin_top = get(0);
                self.margin_left = get(3).or(get(1)).or(get(0));
            }
            "text-indent" => self.text_indent = v,
            "transform" | "-webkit-transform" | "-ms-transform" => self.transform = v,
            "translate" => self.translate = v,
            "scale" => self.scale = v,
            "rotate" => self.rotate = v,
            "width" => self.width = v,
            "height" => self.height = v,
            "max-width" => self.max_width = v,
            "max-height" => self.max_height = v,
            "overflow" => {
                let mut parts = value.split_ascii_whitespace();
                let x = parts.next().map(str::to_string);
                self.overflow_y = parts.next().map(str::to_string).or(x.clone());
                self.overflow_x = x;
            }
            "overflow-x" => self.overflow_x = v,
            "overflow-y" => self.overflow_y = v,
            "clip" => self.clip = v,
            "clip-path" | "-webkit-clip-path" => self.clip_path = v,
            _ => {}
        }
    }
}

/// One declaration: property and value lowercased and unescaped.
#[derive(Debug, Clone, PartialEq)]
struct Decl {
    prop: String,
    value: String,
    important: bool,
}

/// Replace `/* … */` comments with a space (a comment separates tokens).
fn strip_css_comments(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains("/*") {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        out.push(' ');
        match rest[start + 2..].find("*/") {
            Some(end) => rest = &rest[start + 2 + end + 2..],
            None => rest = "",
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// Split at top-level `sep` (not inside quotes, parentheses or after `\`).
fn split_top(s: &str, sep: u8) -> Vec<&str> {
    let mut parts = Vec::new();
    let bytes = s.as_bytes();
    let (mut depth, mut quote, mut start, mut i) = (0usize, 0u8, 0, 0);
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\\' {
            i += 2;
            continue;
        }
        if quote != 0 {
            if b == quote {
                quote = 0;
            }
        } else if b == b'"' || b == b'\'' {
            quote = b;
        } else if b == b'(' {
            depth += 1;
        } else if b == b')' {
            depth = depth.saturating_sub(1);
        } else if b == sep && depth == 0 {
            parts.push(&s[start..i]);
            start = i + 1;
        }
        i += 1;
    }
    if start <= s.len() {
        parts.push(s.get(start..).unwrap_or(""));
    }
    parts
}

/// Resolve CSS escapes: `\` + up to 6 hex digits (+ one whitespace), or
/// `\` + any other character for itself.
fn css_unescape(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('\\') {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let mut code = 0u32;
        let mut digits = 0;
        while digits < 6 {
            match chars.peek().and_then(|c| c.to_digit(16)) {
                Some(d) => {
                    code = code * 16 + d;
                    digits += 1;
                    chars.next();
                }
                None => break,
            }
        }
        if digits > 0 {
            if matches!(chars.peek(), Some(' ' | '\t' | '\n' | '\r' | '\x0c')) {
                chars.next();
            }
            let ch = match code {
                0 => '\u{FFFD}',
                _ => char::from_u32(code).unwrap_or('\u{FFFD}'),
            };
            out.push(ch);
        } else if let Some(next) = chars.next()
            && next != '\n'
        {
            out.push(next);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `prop: value [!important]; …` → declarations (relevant ones only).
fn parse_declarations(block: &str) -> Vec<Decl> {
    let block = strip_css_comments(block);
    let mut decls = Vec::new();
    for part in split_top(&block, b';') {
        let Some(colon) = part.find(':') else { continue };
        let Some(prop) = relevant_property(part[..colon].trim()) else { continue };
        let mut value = css_unescape(part[colon + 1..].trim()).into_owned();
        value.make_ascii_lowercase();
        let mut important = false;
        if let Some(bang) = value.rfind('!')
            && value[bang + 1..].trim() == "important"
        {
            important = true;
            value.truncate(bang);
        }
        let trimmed = value.trim_end().len();
        value.truncate(trimmed);
        if !value.is_empty() {
            // Only the last of a property (of each importance) can decide
            // a value, and the same order of the kept ones gives the same
            // style; the list stays as short as the properties we read.
            if let Some(i) = decls.iter().position(|d: &Decl| d.prop == prop && d.important == important) {
                decls.remove(i);
            }
            decls.push(Decl { prop, value, important });
        }
    }
    decls
}

/// A compound selector of a tag, ids and classes (`div.a#b`, `.a.b`, `*`).
#[derive(Debug, Clone)]
struct Selector {
    tag: Option<String>,
    ids: Vec<String>,
    classes: Vec<String>,
    specificity: u32,
    /// Source position of the latest rule merged in.
    order: usize,
    /// The declarations of every rule with this selector, the last value
    /// of each property only.
    decls: Vec<Decl>,
}

impl Selector {
    fn parse(s: &str, order: usize) -> Option<Selector> {
        let s = s.trim();
        if s.is_empty() {
            return None;
        }
        let mut sel =
            Selector { tag: None, ids: Vec::new(), classes: Vec::new(), specificity: 0, order, decls: Vec::new() };
        let bytes = s.as_bytes();
        let ident_end = |from: usize| {
            let mut i = from;
            while i < bytes.len() {
                let b = bytes[i];
                if b == b'\\' {
                    // An escape: up to 6 hex digits and one space, or one character.
                    let hex = bytes[i + 1..].iter().take(6).take_while(|b| b.is_ascii_hexdigit()).count();
                    i += 1 + hex.max(1);
                    if hex > 0 && bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
                        i += 1;
                    }
                } else if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b >= 0x80 {
                    i += 1;
                } else {
                    break;
                }
            }
            i.min(bytes.len())
        };
        let mut i = 0;
        if bytes[0] == b'*' {
            i = 1;
        } else if bytes[0].is_ascii_alphabetic() {
            let end = ident_end(0);
            sel.tag = Some(css_unescape(&s[..end]).to_ascii_lowercase());
            i = end;
        }
        while i < bytes.len() {
            let kind = bytes[i];
            if kind != b'.' && kind != b'#' {
                // Combinators, attribute selectors, pseudo-classes: not ours.
                return None;
            }
            let end = ident_end(i + 1);
            if end == i + 1 || !s.is_char_boundary(end) {
                return None;
            }
            let name = css_unescape(&s[i + 1..end]).into_owned();
            if kind == b'.' {
                sel.classes.push(name)
            } else {
                sel.ids.push(name)
            }
            i = end;
        }
        let (ids, classes, tags) = (sel.ids.len() as u32, sel.classes.len() as u32, u32::from(sel.tag.is_some()));
        sel.specificity = ids.min(255) << 16 | classes.min(255) << 8 | tags;
        Some(sel)
    }

    /// Selectors that match the same elements with the same specificity
    /// share one entry (so repeating a rule cannot crowd others out).
    fn key(&self) -> String {
        let mut ids = self.ids.clone();
        ids.sort();
        let mut classes = self.classes.clone();
        classes.sort();
        format!("{:?}|{ids:?}|{classes:?}|{}", self.tag, self.specificity)
    }

    /// Merge declarations in: a later value of a property replaces the
    /// earlier one (and moves to the end, keeping shorthand order).
    fn add_decls(&mut self, decls: &[Decl], order: usize) {
        self.order = order;
        for d in decls {
            self.decls.retain(|old| !(old.prop == d.prop && old.important == d.important));
            self.decls.push(d.clone());
        }
    }

    fn matches(&self, tag: &str, id: Option<&str>, classes: &[&str]) -> bool {
        self.tag.as_deref().is_none_or(|t| t == tag)
            && self.ids.iter().all(|i| id == Some(i.as_str()))
            && self.classes.iter().all(|c| classes.binary_search(&c.as_str()).is_ok())
    }
}

/// Rules from every `<style>` block, indexed by the most selective part
/// of each selector.
#[derive(Debug, Default)]
struct Sheet {
    selectors: Vec<Selector>,
    by_key: HashMap<String, usize>,
    rules_seen: usize,
    by_id: HashMap<String, Vec<usize>>,
    by_class: HashMap<String, Vec<usize>>,
    by_tag: HashMap<String, Vec<usize>>,
    universal: Vec<usize>,
    /// `!important` declarations matched by the element being styled, in
    /// cascade order, kept between `apply` and `apply_important`.
    important: Vec<(String, String)>,
}

impl Sheet {
    /// Collect the rules of every `<style>` element. A plain scan: a
    /// `<style>` inside a comment or script is read too, which can only hide
    /// more.
    fn from_html(html: &[u8]) -> Sheet {
        let mut sheet = Sheet::default();
        let mut i = 0;
        while let Some(off) = find_ci(&html[i..], b"<style") {
            let at = i + off + 6;
            match html.get(at) {
                Some(b'>' | b' ' | b'\t' | b'\n' | b'\r' | b'/' | b'\x0c') => {}
                _ => {
                    i = at;
                    continue;
                }
            }
            let Some(gt) = html[at..].iter().position(|&b| b == b'>') else { break };
            let start_tag = &html[at..at + gt];
            let body_start = at + gt + 1;
            let body_end = find_ci(&html[body_start..], b"</style").map_or(html.len(), |e| body_start + e);
            if style_media_applies(start_tag) {
                let css = String::from_utf8_lossy(&html[body_start..body_end]);
                sheet.add_css(&css, 0);
            }
            i = body_end;
            if sheet.selectors.len() >= MAX_SELECTORS {
                break;
            }
        }
        sheet
    }

    fn add_css(&mut self, css: &str, nesting: usize) {
        let css = strip_css_comments(css);
        let bytes = css.as_bytes();
        let mut i = 0;
        while i < bytes.len() && self.selectors.len() < MAX_SELECTORS {
            // Prelude: up to `{` (a rule or block) or `;` (an @-statement).
            let Some(off) = bytes[i..].iter().position(|&b| b == b'{' || b == b';' || b == b'}') else { break };
            let prelude = css[i..i + off].trim();
            let stop = bytes[i + off];
            if stop != b'{' {
                i += off + 1;
                continue;
            }
            let open = i + off + 1;
            let close = matching_brace(bytes, open);
            let body = &css[open..close];
            i = (close + 1).min(bytes.len());
            if let Some(at) = prelude.strip_prefix('@') {
                let name: String =
                    at.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect::<String>();
                let name = name.to_ascii_lowercase();
                let follow = match name.as_str() {
                    "media" => media_applies(&at[name.len()..]),
                    "supports" | "layer" | "container" | "document" | "-moz-document" | "scope" => true,
                    _ => false,
                };
                if follow && nesting < MAX_CSS_NESTING {
                    self.add_css(body, nesting + 1);
                }
                continue;
            }
            let decls = parse_declarations(body);
            if decls.is_empty() {
                continue;
            }
            self.rules_seen += 1;
            let order = self.rules_seen;
            for s in split_top(prelude, b',') {
                let Some(mut sel) = Selector::parse(s, order) else { continue };
                let key = sel.key();
                if let Some(&idx) = self.by_key.get(&key) {
                    self.selectors[idx].add_decls(&decls, order);
                    continue;
                }
                sel.add_decls(&decls, order);
                let idx = self.selectors.len();
                self.by_key.insert(key, idx);
                if let Some(id) = sel.ids.first() {
                    self.by_id.entry(id.clone()).or_default().push(idx);
                } else if let Some(c) = sel.classes.first() {
                    self.by_class.entry(c.clone()).or_default().push(idx);
                } else if let Some(t) = &sel.tag {
                    self.by_tag.entry(t.clone()).or_default().push(idx);
                } else {
                    self.universal.push(idx);
                }
                self.selectors.push(sel);
            }
        }
    }

    /// Apply the normal declarations of matching rules, in cascade order
    /// (specificity, then source order), and remember the important ones.
    fn apply(&mut self, tag: &str, attrs: &Attrs, style: &mut Style) {
        self.important.clear();
        if self.selectors.is_empty() {
            return;
        }
        let id = attrs.id.as_deref().map(str::trim).filter(|s| !s.is_empty());
        // Sorted and without repeats: a class named twice must not match
        // twice, and a selector's classes are looked up by binary search
        // (an element may carry thousands).
        let mut classes: Vec<&str> =
            attrs.class.as_deref().map(|c| c.split_ascii_whitespace().collect()).unwrap_or_default();
        classes.sort_unstable();
        classes.dedup();
        let mut hits: Vec<usize> = Vec::new();
        let mut take = |bucket: Option<&Vec<usize>>| {
            if let Some(b) = bucket {
                let from = b.len().saturating_sub(MAX_CANDIDATES_PER_BUCKET);
                for &idx in &b[from..] {
                    if self.selectors[idx].matches(tag, id, &classes) {
                        hits.push(idx);
                    }
                }
            }
        };
        if let Some(id) = id {
            take(self.by_id.get(id));
        }
        for c in &classes {
            take(self.by_class.get(*c));
        }
        take(self.by_tag.get(tag));
        take(Some(&self.universal));
        if hits.is_empty() {
            return;
        }
        hits.sort_by_key(|&i| (self.selectors[i].specificity, self.selectors[i].order));
        for &i in &hits {
            for d in &self.selectors[i].decls {
                if d.important {
                    self.important.push((d.prop.clone(), d.value.clone()));
                } else {
                    style.set(&d.prop, d.value.clone());
                }
            }
        }
    }

    /// Stylesheet `!important` declarations beat inline normal ones.
    fn apply_important(&mut self, style: &mut Style) {
        for (p, v) in self.important.drain(..) {
            style.set(&p, v);
        }
    }
}

/// Index of the `}` closing the block that starts at `open` (or the end).
fn matching_brace(bytes: &[u8], open: usize) -> usize {
    let (mut depth, mut quote, mut i) = (1usize, 0u8, open);
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\\' {
            i += 2;
            continue;
        }
        if quote != 0 {
            if b == quote || b == b'\n' {
                quote = 0;
            }
        } else if b == b'"' || b == b'\'' {
            quote = b;
        } else if b == b'{' {
            depth += 1;
        } else if b == b'}' {
            depth -= 1;
            if depth == 0 {
                return i;
            }
        }
        i += 1;
    }
    bytes.len()
}

/// Does a `@media` block apply on a desktop screen in light mode? Print,
/// speech, dark mode and narrow (phone) layouts do not.
fn media_applies(query: &str) -> bool {
    let q = query.to_ascii_lowercase();
    if q.contains("print") && !q.contains("screen") && !q.contains("all") {
        return false;
    }
    if q.contains("speech") || q.contains("prefers-color-scheme") || q.trim_start().starts_with("not") {
        return false;
    }
    for key in ["max-width", "max-device-width"] {
        let mut rest = q.as_str();
        while let Some(pos) = rest.find(key) {
            rest = &rest[pos + key.len()..];
            let v = rest.trim_start().trim_start_matches(':').trim_start();
            let end = v.find([')', ' ', ',']).unwrap_or(v.len());
            if let Some(px) = length_px(&v[..end], DEFAULT_FONT_PX)
                && px < OFFSCREEN_PX
            {
                return false;
            }
        }
    }
    true
}

/// `<style media=…>`: skip print-only sheets.
fn style_media_applies(start_tag: &[u8]) -> bool {
    let t = String::from_utf8_lossy(start_tag).to_ascii_lowercase();
    match t.find("media") {
        Some(pos) => {
            let v = t[pos + 5..].trim_start().trim_start_matches('=').trim_start();
            let v = v.trim_start_matches(['"', '\'']);
            let end = v.find(['"', '\'', '>']).unwrap_or(v.len());
            media_applies(&v[..end])
        }
        None => true,
    }
}

/// ASCII case-insensitive search.
fn find_ci(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let first = needle[0];
    let mut i = 0;
    while i + needle.len() <= hay.len() {
        let off = memchr::memchr(first, &hay[i..])?;
        let at = i + off;
        if at + needle.len() > hay.len() {
            return None;
        }
        if hay[at..at + needle.len()].eq_ignore_ascii_case(needle) {
            return Some(at);
        }
        i = at + 1;
    }
    None
}

// ---------------------------------------------------------------------------
// CSS values.

/// Split a number from its unit: `-12.5px` → (-12.5, "px").
fn number_unit(s: &str) -> Option<(f64, &str)> {
    let s = s.trim();
    let bytes = s.as_bytes();
    let mut i = 0;
    if matches!(bytes.first(), Some(b'+' | b'-')) {
        i = 1;
    }
    let digits_start = i;
    while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
        i += 1;
    }
    if i == digits_start {
        return None;
    }
    // Exponent, only when digits follow (so `1em` stays an em).
    if i + 1 < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
        let mut j = i + 1;
        if matches!(bytes.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        if bytes.get(j).is_some_and(u8::is_ascii_digit) {
            while j < bytes.len() && bytes[j].is_ascii_digit() {
                j += 1;
            }
            i = j;
        }
    }
    let n: f64 = s[..i].parse().ok()?;
    if !n.is_finite() {
        return None;
    }
    Some((n, &s[i..]))
}

/// A length in CSS pixels. `em` is relative to `font_px`; vw, vh and % to
/// the assumed viewport. Unitless numbers count as pixels (quirks mode,
/// which most email is in). `calc()` of sums and products is evaluated.
fn length_px(s: &str, font_px: f64) -> Option<f64> {
    let s = s.trim();
    if let Some(inner) = s.strip_prefix("calc(").and_then(|r| r.strip_suffix(')')) {
        return calc_px(inner, font_px);
    }
    let (n, unit) = number_unit(s)?;
    let px = match unit {
        "" | "px" => n,
        "em" => n * font_px,
        "rem" => n * DEFAULT_FONT_PX,
        "ex" | "ch" => n * font_px / 2.0,
        "pt" => n * 96.0 / 72.0,
        "pc" => n * 16.0,
        "in" => n * 96.0,
        "cm" => n * 96.0 / 2.54,
        "mm" => n * 96.0 / 25.4,
        "q" => n * 96.0 / 101.6,
        "vw" | "vh" | "vmin" | "vmax" | "svw" | "svh" | "lvw" | "lvh" | "dvw" | "dvh" | "%" => n * VIEWPORT_PX / 100.0,
        _ => return None,
    };
    Some(px)
}

/// `calc()` with `+ - * /` and parentheses, lengths and plain numbers.
fn calc_px(expr: &str, font_px: f64) -> Option<f64> {
    struct P<'a> {
        s: &'a str,
        font_px: f64,
        depth: usize,
    }
    impl P<'_> {
        fn ws(&mut self) {
            self.s = self.s.trim_start();
        }
        fn sum(&mut self) -> Option<(f64, bool)> {
            let mut acc = self.product()?;
            loop {
                self.ws();
                let op = self.s.chars().next();
                if !matches!(op, Some('+' | '-')) {
                    return Some(acc);
                }
                self.s = &self.s[1..];
                let rhs = self.product()?;
                acc.0 = if op == Some('+') { acc.0 + rhs.0 } else { acc.0 - rhs.0 };
                acc.1 |= rhs.1;
            }
        }
        fn product(&mut self) -> Option<(f64, bool)> {
            let mut acc = self.atom()?;
            loop {
                self.ws();
                let op = self.s.chars().next();
                if !matches!(op, Some('*' | '/')) {
                    return Some(acc);
                }
                self.s = &self.s[1..];
                let rhs = self.atom()?;
                if op == Some('*') {
                    acc = (acc.0 * rhs.0, acc.1 || rhs.1);
                } else if rhs.0 != 0.0 {
                    acc.0 /= rhs.0;
                } else {
                    return None;
                }
            }
        }
        /// (value, is a length) — plain numbers scale lengths.
        fn atom(&mut self) -> Option<(f64, bool)> {
            self.ws();
            let rest = self.s.strip_prefix("calc(").map(|r| ("(", r));
            let s = match rest {
                Some((_, r)) => {
                    self.s = r;
                    "("
                }
                None => self.s,
            };
            if s == "(" || self.s.starts_with('(') {
                if s != "(" {
                    self.s = &self.s[1..];
                }
                self.depth += 1;
                if self.depth > 16 {
                    return None;
                }
                let v = self.sum()?;
                self.ws();
                self.s = self.s.strip_prefix(')')?;
                return Some(v);
            }
            let end = self
                .s
                .char_indices()
                .skip(1)
                .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '.' || c == '%'))
                .map_or(self.s.len(), |(i, _)| i);
            let tok = &self.s[..end];
            self.s = &self.s[end..];
            let (n, unit) = number_unit(tok)?;
            if unit.is_empty() { Some((n, false)) } else { Some((length_px(tok, self.font_px)?, true)) }
        }
    }
    let mut p = P { s: expr, font_px, depth: 0 };
    let v = p.sum()?;
    p.ws();
    if p.s.is_empty() && v.0.is_finite() { Some(v.0) } else { None }
}

fn number_or_percent(s: &str) -> Option<f64> {
    let (n, unit) = number_unit(s)?;
    match unit {
        "" => Some(n),
        "%" => Some(n / 100.0),
        _ => None,
    }
}

/// A computed font size in pixels, or None when the value is not understood
/// (the inherited size then stands).
fn font_size_px(v: &str, parent_px: f64) -> Option<f64> {
    let v = first_value(v);
    let px = match v {
        "xx-small" => 9.0,
        "x-small" => 10.0,
        "small" => 13.0,
        "medium" => 16.0,
        "large" => 18.0,
        "x-large" => 24.0,
        "xx-large" => 32.0,
        "xxx-large" => 48.0,
        "smaller" => parent_px / 1.2,
        "larger" => parent_px * 1.2,
        "inherit" | "unset" => parent_px,
        "initial" => DEFAULT_FONT_PX,
        _ => {
            if let Some(inner) = v.strip_prefix("calc(") {
                calc_px(inner.strip_suffix(')')?, parent_px)?
            } else {
                let (n, unit) = number_unit(v)?;
                match unit {
                    "%" => n * parent_px / 100.0,
                    "vw" | "vh" | "vmin" | "vmax" => n * VIEWPORT_PX / 100.0,
                    "" if n != 0.0 => return None,
                    _ => length_px(v, parent_px)?,
                }
            }
        }
    };
    (px >= 0.0).then_some(px)
}

/// The size in a `font` shorthand: the first length or size keyword, before
/// an optional `/line-height`.
fn font_shorthand_size(v: &str) -> Option<&str> {
    for tok in v.split_ascii_whitespace() {
        let size = tok.split('/').next().unwrap_or(tok);
        if size.is_empty() {
            continue;
        }
        let keyword = matches!(
            size,
            "xx-small" | "x-small" | "small" | "medium" | "large" | "x-large" | "xx-large" | "smaller" | "larger"
        );
        let length = number_unit(size).is_some_and(|(n, u)| !u.is_empty() || n == 0.0);
        if keyword || length {
            return Some(size);
        }
    }
    None
}

/// The opaque colour behind an element, from its background and its
/// parent's.
fn background(style: &Style, parent: Option<Rgba>) -> Option<Rgba> {
    let image = |v: &str| v.contains("url(") || v.contains("gradient(") || v.contains("image-set(");
    if style.background_image.as_deref().is_some_and(image) {
        return None;
    }
    let Some(v) = style.background.as_deref() else { return parent };
    if image(v) {
        return None;
    }
    let colour = split_top(v, b' ')
        .into_iter()
        .flat_map(|t| split_top(t, b','))
        .find_map(|tok| parse_colour_or(tok.trim(), WHITE).filter(|_| !tok.trim().is_empty()));
    match colour {
        Some(c) if c.a > 0.0 => match parent {
            Some(p) => Some(c.over(p)),
            None if c.a >= 0.99 => Some(c),
            None => None,
        },
        _ => parent,
    }
}

/// Parse a colour; `inherit`/`currentcolor` give `current`.
fn parse_colour_or(v: &str, current: Rgba) -> Option<Rgba> {
    let v = v.trim();
    match v {
        "inherit" | "currentcolor" | "unset" => return Some(current),
        "initial" => return Some(BLACK),
        "transparent" => return Some(Rgba { a: 0.0, ..BLACK }),
        _ => {}
    }
    if let Some(hex) = v.strip_prefix('#') {
        return parse_hex(hex);
    }
    if let Some(open) = v.find('(') {
        let name = &v[..open];
        let args = v[open + 1..].trim_end().strip_suffix(')')?;
        return parse_colour_function(name, args);
    }
    NAMED_COLOURS.binary_search_by(|(n, _)| (*n).cmp(v)).ok().map(|i| Rgba::from_hex24(NAMED_COLOURS[i].1))
}

fn parse_hex(hex: &str) -> Option<Rgba> {
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let d = |i: usize| u32::from_str_radix(&hex[i..i + 1], 16).unwrap_or(0);
    let dd = |i: usize| u32::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0);
    match hex.len() {
        3 => Some(Rgba::rgb(d(0) * 17, d(1) * 17, d(2) * 17)),
        4 => Some(Rgba { a: (d(3) * 17) as f64 / 255.0, ..Rgba::rgb(d(0) * 17, d(1) * 17, d(2) * 17) }),
        6 => Some(Rgba::rgb(dd(0), dd(2), dd(4))),
        8 => Some(Rgba { a: dd(6) as f64 / 255.0, ..Rgba::rgb(dd(0), dd(2), dd(4)) }),
        _ => None,
    }
}

/// rgb()/rgba()/hsl()/hsla(), comma or space syntax, `/ alpha`.
fn parse_colour_function(name: &str, args: &str) -> Option<Rgba> {
    let args = args.replace(['/', ','], " ");
    let parts: Vec<&str> = args.split_ascii_whitespace().collect();
    if parts.len() < 3 {
        return None;
    }
    let alpha = match parts.get(3) {
        Some(a) => number_or_percent(a)?.clamp(0.0, 1.0),
        None => 1.0,
    };
    match name.trim() {
        "rgb" | "rgba" => {
            let ch = |s: &str| -> Option<f64> {
                let (n, unit) = number_unit(s)?;
                let v = match unit {
                    "" => n,
                    "%" => n * 2.55,
                    _ => return None,
                };
                Some(v.clamp(0.0, 255.0))
            };
            Some(Rgba { r: ch(parts[0])?, g: ch(parts[1])?, b: ch(parts[2])?, a: alpha })
        }
        "hsl" | "hsla" => {
            let h = angle_deg(parts[0])?;
            let pct = |s: &str| number_unit(s).map(|(n, _)| (n / 100.0).clamp(0.0, 1.0));
            let (s, l) = (pct(parts[1])?, pct(parts[2])?);
            let (r, g, b) = hsl_to_rgb(h, s, l);
            Some(Rgba { r, g, b, a: alpha })
        }
        _ => None,
    }
}

fn hsl_to_rgb(h: f64, s: f64, l: f64) -> (f64, f64, f64) {
    let h = h.rem_euclid(360.0) / 360.0;
    let q = if l < 0.5 { l * (1.0 + s) } else { l + s - l * s };
    let p = 2.0 * l - q;
    let f = |t: f64| {
        let t = t.rem_euclid(1.0);
        let v = if t < 1.0 / 6.0 {
            p + (q - p) * 6.0 * t
        } else if t < 0.5 {
            q
        } else if t < 2.0 / 3.0 {
            p + (q - p) * (2.0 / 3.0 - t) * 6.0
        } else {
            p
        };
        v * 255.0
    };
    (f(h + 1.0 / 3.0), f(h), f(h - 1.0 / 3.0))
}

/// An angle in degrees (`deg`, `rad`, `grad`, `turn`; a bare number is deg).
fn angle_deg(s: &str) -> Option<f64> {
    let (n, unit) = number_unit(s)?;
    Some(match unit {
        "" | "deg" => n,
        "rad" => n.to_degrees(),
        "grad" => n * 0.9,
        "turn" => n * 360.0,
        _ => return None,
    })
}

/// `filter: opacity(x)` at or near 0.
fn filter_hides(v: &str) -> bool {
    functions(v).any(|(name, args)| {
        name == "opacity" && number_or_percent(args.trim()).is_some_and(|o| o <= MAX_HIDDEN_OPACITY)
    })
}

/// `name(args)` pairs in a value, in order.
fn functions(v: &str) -> impl Iterator<Item = (&str, &str)> {
    let mut rest = v;
    std::iter::from_fn(move || {
        loop {
            let open = rest.find('(')?;
            let name_start = rest[..open]
                .char_indices()
                .rev()
                .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '-'))
                .map_or(0, |(i, c)| i + c.len_utf8());
            let name = &rest[name_start..open];
            let close = rest[open..].find(')').map_or(rest.len(), |c| open + c);
            let args = &rest[open + 1..close];
            rest = rest.get(close + 1..).unwrap_or("");
            if !name.is_empty() {
                return Some((name, args));
            }
        }
    })
}

fn args(s: &str) -> Vec<&str> {
    s.split(|c: char| c == ',' || c.is_ascii_whitespace()).filter(|a| !a.is_empty()).collect()
}

/// Positioned (or indented, or pulled by a margin) far off the screen.
fn offscreen(style: &Style) -> bool {
    let far = |v: &Option<String>, limit: f64| {
        v.as_deref().and_then(|v| length_px(first_value(v), DEFAULT_FONT_PX)).is_some_and(|px| px <= -limit)
    };
    let positioned =
        style.position.as_deref().map(first_word).is_some_and(|p| matches!(p, "absolute" | "fixed" | "relative"));
    (positioned && (far(&style.left, OFFSCREEN_PX) || far(&style.top, OFFSCREEN_PX) || far(&style.right, OFFSCREEN_PX)))
        || far(&style.margin_left, OFFSCREEN_PX)
        || far(&style.margin_top, OFFSCREEN_PX)
        || far(&style.text_indent, OFFSCREEN_INDENT_PX)
}

/// A box of (near) zero width or height that clips what overflows.
fn zero_size(style: &Style) -> bool {
    let clips = |v: &Option<String>| v.as_deref().map(first_word).is_some_and(|o| matches!(o, "hidden" | "clip"));
    if !clips(&style.overflow_x) && !clips(&style.overflow_y) {
        return false;
    }
    let tiny = |v: &Option<String>| {
        v.as_deref().and_then(|v| length_px(first_value(v), DEFAULT_FONT_PX)).is_some_and(|px| px <= MAX_HIDDEN_BOX_PX)
    };
    tiny(&style.width) || tiny(&style.height) || tiny(&style.max_width) || tiny(&style.max_height)
}

/// `clip: rect(top, right, bottom, left)` with no area.
fn clip_hides(v: &str) -> bool {
    functions(v).any(|(name, a)| {
        if name != "rect" {
            return false;
        }
        let a = args(a);
        if a.len() != 4 {
            return false;
        }
        let px: Vec<Option<f64>> = a.iter().map(|s| length_px(s, DEFAULT_FONT_PX)).collect();
        match (px[0], px[1], px[2], px[3]) {
            (Some(t), Some(r), Some(b), Some(l)) => b - t <= MAX_HIDDEN_BOX_PX || r - l <= MAX_HIDDEN_BOX_PX,
            _ => false,
        }
    })
}

/// `clip-path` that leaves nothing: inset of half or more on both sides of
/// an axis, a circle or ellipse of radius 0.
fn clip_path_hides(v: &str) -> bool {
    functions(v).any(|(name, a)| {
        let a: Vec<&str> = args(a).into_iter().take_while(|s| *s != "round" && *s != "at").collect();
        match name {
            "inset" => {
                let pct: Vec<Option<f64>> = a
                    .iter()
                    .map(|s| match number_unit(s) {
                        Some((n, "%")) => Some(n),
                        Some((0.0, _)) => Some(0.0),
                        _ => None,
                    })
                    .collect();
                let get = |i: usize| pct.get(i).copied().flatten();
                let (t, r, b, l) = match pct.len() {
                    1 => (get(0), get(0), get(0), get(0)),
                    2 => (get(0), get(1), get(0), get(1)),
                    3 => (get(0), get(1), get(2), get(1)),
                    4 => (get(0), get(1), get(2), get(3)),
                    _ => return false,
                };
                let full = |a: Option<f64>, b: Option<f64>| matches!((a, b), (Some(a), Some(b)) if a + b >= 100.0);
                full(t, b) || full(l, r)
            }
            "circle" | "ellipse" => a
                .iter()
                .take(if name == "circle" { 1 } else { 2 })
                .any(|s| number_unit(s).is_some_and(|(n, _)| n <= 0.0)),
            _ => false,
        }
    })
}

/// What a transform does to readability: (reason, found).
#[derive(Default, Clone, Copy)]
struct Effect(Option<HiddenReason>);

impl Effect {
    fn or(self, other: Effect) -> Effect {
        Effect(self.0.or(other.0))
    }
}

fn far_px(s: &str) -> bool {
    length_px(s, DEFAULT_FONT_PX).is_some_and(|px| px.abs() >= OFFSCREEN_PX)
}

fn zero_scale(s: &str) -> bool {
    number_or_percent(s).is_some_and(|n| n.abs() < 0.01)
}

/// Rotated edge-on about the x or y axis (90° or 270°).
fn edge_on(s: &str) -> bool {
    angle_deg(s).is_some_and(|d| {
        let r = d.rem_euclid(180.0);
        (r - 90.0).abs() < 1.0
    })
}

fn transform_effect(v: &str) -> Effect {
    let mut e = Effect::default();
    for (name, a) in functions(v) {
        let a = args(a);
        let found = match name {
            "translate" | "translatex" | "translatey" | "translate3d" => {
                a.iter().any(|s| far_px(s)).then_some(HiddenReason::Offscreen)
            }
            "scale" | "scalex" | "scaley" => a.iter().take(2).any(|s| zero_scale(s)).then_some(HiddenReason::Transform),
            "scale3d" => a.iter().take(2).any(|s| zero_scale(s)).then_some(HiddenReason::Transform),
            "rotatex" | "rotatey" => a.first().is_some_and(|s| edge_on(s)).then_some(HiddenReason::Transform),
            "rotate3d" if a.len() == 4 => {
                let axis: Vec<f64> = a[..3].iter().map(|s| number_unit(s).map_or(0.0, |(n, _)| n)).collect();
                (axis[2] == 0.0 && (axis[0] != 0.0 || axis[1] != 0.0) && edge_on(a[3]))
                    .then_some(HiddenReason::Transform)
            }
            "matrix" if a.len() == 6 => {
                let n: Vec<f64> = a.iter().map(|s| number_unit(s).map_or(1.0, |(n, _)| n)).collect();
                if (n[0] * n[3] - n[1] * n[2]).abs() < 1e-4 {
                    Some(HiddenReason::Transform)
                } else if n[4].abs() >= OFFSCREEN_PX || n[5].abs() >= OFFSCREEN_PX {
                    Some(HiddenReason::Offscreen)
                } else {
                    None
                }
            }
            _ => None,
        };
        e = e.or(Effect(found));
    }
    e
}

fn translate_effect(v: &str) -> Effect {
    Effect(args(v).iter().any(|s| far_px(s)).then_some(HiddenReason::Offscreen))
}

fn scale_effect(v: &str) -> Effect {
    Effect(args(v).iter().take(2).any(|s| zero_scale(s)).then_some(HiddenReason::Transform))
}

fn rotate_effect(v: &str) -> Effect {
    let a = args(v);
    let about_xy = a.first().is_some_and(|s| matches!(*s, "x" | "y"));
    Effect((about_xy && a.get(1).is_some_and(|s| edge_on(s))).then_some(HiddenReason::Transform))
}

// ---------------------------------------------------------------------------
// HTML character references.

/// Decode character references into `out`. In attributes, a legacy name
/// without `;` followed by a letter, digit or `=` stays as written.
fn decode_entities(s: &str, in_attr: bool, out: &mut String) {
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        match decode_one(rest, in_attr) {
            Some((decoded, used)) => {
                out.push_str(decoded.encode_utf8(&mut [0; 4]));
                rest = &rest[used..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
}

/// One reference at the start of `s` (which starts with `&`): the character
/// and the bytes it used.
fn decode_one(s: &str, in_attr: bool) -> Option<(char, usize)> {
    let bytes = s.as_bytes();
    if bytes.get(1) == Some(&b'#') {
        let (hex, start) = match bytes.get(2) {
            Some(b'x' | b'X') => (true, 3),
            _ => (false, 2),
        };
        let radix = if hex { 16 } else { 10 };
        let mut i = start;
        let mut code: u32 = 0;
        while let Some(d) = bytes.get(i).and_then(|&b| (b as char).to_digit(radix)) {
            code = code.saturating_mul(radix).saturating_add(d).min(0x11_0000);
            i += 1;
        }
        if i == start {
            return None;
        }
        if bytes.get(i) == Some(&b';') {
            i += 1;
        }
        let ch = match code {
            0 | 0xD800..=0xDFFF | 0x11_0000.. => '\u{FFFD}',
            0x80..=0x9F => char::from_u32(WINDOWS_1252[(code - 0x80) as usize]).unwrap_or('\u{FFFD}'),
            _ => char::from_u32(code).unwrap_or('\u{FFFD}'),
        };
        return Some((ch, i));
    }
    let run = bytes[1..].iter().take(MAX_ENTITY_NAME).take_while(|b| b.is_ascii_alphanumeric()).count();
    if run == 0 {
        return None;
    }
    let name = &s[1..1 + run];
    if bytes.get(1 + run) == Some(&b';')
        && let Some((ch, _)) = entity(name)
    {
        return Some((ch, run + 2));
    }
    // Legacy names work without `;`, longest first (`&notin` → ¬in).
    for len in (2..=run.min(6)).rev() {
        if let Some((ch, true)) = entity(&name[..len]) {
            let next = bytes.get(1 + len).copied();
            if len == run && next == Some(b';') {
                return Some((ch, len + 2));
            }
            if in_attr && (len < run || next == Some(b'=')) {
                return None;
            }
            return Some((ch, len + 1));
        }
    }
    None
}

/// (character, usable without `;`) for a named reference.
fn entity(name: &str) -> Option<(char, bool)> {
    match name {
        "amp" => return Some(('&', true)),
        "nbsp" => return Some(('\u{a0}', true)),
        "lt" => return Some(('<', true)),
        "gt" => return Some(('>', true)),
        "quot" => return Some(('"', true)),
        _ => {}
    }
    ENTITIES.binary_search_by(|(n, _, _)| (*n).cmp(name)).ok().map(|i| (ENTITIES[i].1, ENTITIES[i].2))
}

/// What `&#128;`–`&#159;` mean (the HTML spec maps them through windows-1252).
const WINDOWS_1252: [u32; 32] = [
    0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D,
    0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D,
    0x017E, 0x0178,
];

/// Named references (sorted by name): every HTML 4 name, and every HTML 5
/// name for an ASCII, Latin-1 or General Punctuation character (spaces,
/// dashes, invisible joiners and operators). The flag marks the legacy
/// names that also work without `;`.
const ENTITIES: &[(&str, char, bool)] = &[
    ("AElig", '\u{C6}', true),
    ("AMP", '\u{26}', true),
    ("Aacute", '\u{C1}', true),
    ("Acirc", '\u{C2}', true),
    ("Agrave", '\u{C0}', true),
    ("Alpha", '\u{391}', false),
    ("ApplyFunction", '\u{2061}', false),
    ("Aring", '\u{C5}', true),
    ("Atilde", '\u{C3}', true),
    ("Auml", '\u{C4}', true),
    ("Beta", '\u{392}', false),
    ("COPY", '\u{A9}', true),
    ("Ccedil", '\u{C7}', true),
    ("Cedilla", '\u{B8}', false),
    ("CenterDot", '\u{B7}', false),
    ("Chi", '\u{3A7}', false),
    ("CloseCurlyDoubleQuote", '\u{201D}', false),
    ("CloseCurlyQuote", '\u{2019}', false),
    ("Dagger", '\u{2021}', false),
    ("Delta", '\u{394}', false),
    ("DiacriticalAcute", '\u{B4}', false),
    ("DiacriticalGrave", '\u{60}', false),
    ("Dot", '\u{A8}', false),
    ("DoubleDot", '\u{A8}', false),
    ("ETH", '\u{D0}', true),
    ("Eacute", '\u{C9}', true),
    ("Ecirc", '\u{CA}', true),
    ("Egrave", '\u{C8}', true),
    ("Epsilon", '\u{395}', false),
    ("Eta", '\u{397}', false),
    ("Euml", '\u{CB}', true),
    ("GT", '\u{3E}', true),
    ("Gamma", '\u{393}', false),
    ("Hat", '\u{5E}', false),
    ("Iacute", '\u{CD}', true),
    ("Icirc", '\u{CE}', true),
    ("Igrave", '\u{CC}', true),
    ("InvisibleComma", '\u{2063}', false),
    ("InvisibleTimes", '\u{2062}', false),
    ("Iota", '\u{399}', false),
    ("Iuml", '\u{CF}', true),
    ("Kappa", '\u{39A}', false),
    ("LT", '\u{3C}', true),
    ("Lambda", '\u{39B}', false),
    ("MediumSpace", '\u{205F}', false),
    ("Mu", '\u{39C}', false),
    ("NegativeMediumSpace", '\u{200B}', false),
    ("NegativeThickSpace", '\u{200B}', false),
    ("NegativeThinSpace", '\u{200B}', false),
    ("NegativeVeryThinSpace", '\u{200B}', false),
    ("NewLine", '\u{A}', false),
    ("NoBreak", '\u{2060}', false),
    ("NonBreakingSpace", '\u{A0}', false),
    ("Ntilde", '\u{D1}', true),
    ("Nu", '\u{39D}', false),
    ("OElig", '\u{152}', false),
    ("Oacute", '\u{D3}', true),
    ("Ocirc", '\u{D4}', true),
    ("Ograve", '\u{D2}', true),
    ("Omega", '\u{3A9}', false),
    ("Omicron", '\u{39F}', false),
    ("OpenCurlyDoubleQuote", '\u{201C}', false),
    ("OpenCurlyQuote", '\u{2018}', false),
    ("Oslash", '\u{D8}', true),
    ("Otilde", '\u{D5}', true),
    ("Ouml", '\u{D6}', true),
    ("OverBar", '\u{203E}', false),
    ("Phi", '\u{3A6}', false),
    ("Pi", '\u{3A0}', false),
    ("PlusMinus", '\u{B1}', false),
    ("Prime", '\u{2033}', false),
    ("Psi", '\u{3A8}', false),
    ("QUOT", '\u{22}', true),
    ("REG", '\u{AE}', true),
    ("Rho", '\u{3A1}', false),
    ("Scaron", '\u{160}', false),
    ("Sigma", '\u{3A3}', false),
    ("THORN", '\u{DE}', true),
    ("Tab", '\u{9}', false),
    ("Tau", '\u{3A4}', false),
    ("Theta", '\u{398}', false),
    ("ThinSpace", '\u{2009}', false),
    ("Uacute", '\u{DA}', true),
    ("Ucirc", '\u{DB}', true),
    ("Ugrave", '\u{D9}', true),
    ("UnderBar", '\u{5F}', false),
    ("Upsilon", '\u{3A5}', false),
    ("Uuml", '\u{DC}', true),
    ("Verbar", '\u{2016}', false),
    ("Vert", '\u{2016}', false),
    ("VerticalLine", '\u{7C}', false),
    ("VeryThinSpace", '\u{200A}', false),
    ("Xi", '\u{39E}', false),
    ("Yacute", '\u{DD}', true),
    ("Yuml", '\u{178}', false),
    ("ZeroWidthSpace", '\u{200B}', false),
    ("Zeta", '\u{396}', false),
    ("aacute", '\u{E1}', true),
    ("acirc", '\u{E2}', true),
    ("acute", '\u{B4}', true),
    ("aelig", '\u{E6}', true),
    ("af", '\u{2061}', false),
    ("agrave", '\u{E0}', true),
    ("alefsym", '\u{2135}', false),
    ("alpha", '\u{3B1}', false),
    ("amp", '\u{26}', true),
    ("and", '\u{2227}', false),
    ("ang", '\u{2220}', false),
    ("angst", '\u{C5}', false),
    ("apos", '\u{27}', false),
    ("aring", '\u{E5}', true),
    ("ast", '\u{2A}', false),
    ("asymp", '\u{2248}', false),
    ("atilde", '\u{E3}', true),
    ("auml", '\u{E4}', true),
    ("backprime", '\u{2035}', false),
    ("bdquo", '\u{201E}', false),
    ("beta", '\u{3B2}', false),
    ("bprime", '\u{2035}', false),
    ("brvbar", '\u{A6}', true),
    ("bsemi", '\u{204F}', false),
    ("bsol", '\u{5C}', false),
    ("bull", '\u{2022}', false),
    ("bullet", '\u{2022}', false),
    ("cap", '\u{2229}', false),
    ("caret", '\u{2041}', false),
    ("ccedil", '\u{E7}', true),
    ("cedil", '\u{B8}', true),
    ("cent", '\u{A2}', true),
    ("centerdot", '\u{B7}', false),
    ("chi", '\u{3C7}', false),
    ("circ", '\u{2C6}', false),
    ("circledR", '\u{AE}', false),
    ("clubs", '\u{2663}', false),
    ("colon", '\u{3A}', false),
    ("comma", '\u{2C}', false),
    ("commat", '\u{40}', false),
    ("cong", '\u{2245}', false),
    ("copy", '\u{A9}', true),
    ("crarr", '\u{21B5}', false),
    ("cup", '\u{222A}', false),
    ("curren", '\u{A4}', true),
    ("dArr", '\u{21D3}', false),
    ("dagger", '\u{2020}', false),
    ("darr", '\u{2193}', false),
    ("dash", '\u{2010}', false),
    ("ddagger", '\u{2021}', false),
    ("deg", '\u{B0}', true),
    ("delta", '\u{3B4}', false),
    ("diams", '\u{2666}', false),
    ("die", '\u{A8}', false),
    ("div", '\u{F7}', false),
    ("divide", '\u{F7}', true),
    ("dollar", '\u{24}', false),
    ("eacute", '\u{E9}', true),
    ("ecirc", '\u{EA}', true),
    ("egrave", '\u{E8}', true),
    ("empty", '\u{2205}', false),
    ("emsp", '\u{2003}', false),
    ("emsp13", '\u{2004}', false),
    ("emsp14", '\u{2005}', false),
    ("ensp", '\u{2002}', false),
    ("epsilon", '\u{3B5}', false),
    ("equals", '\u{3D}', false),
    ("equiv", '\u{2261}', false),
    ("eta", '\u{3B7}', false),
    ("eth", '\u{F0}', true),
    ("euml", '\u{EB}', true),
    ("euro", '\u{20AC}', false),
    ("excl", '\u{21}', false),
    ("exist", '\u{2203}', false),
    ("fnof", '\u{192}', false),
    ("forall", '\u{2200}', false),
    ("frac12", '\u{BD}', true),
    ("frac14", '\u{BC}', true),
    ("frac34", '\u{BE}', true),
    ("frasl", '\u{2044}', false),
    ("gamma", '\u{3B3}', false),
    ("ge", '\u{2265}', false),
    ("grave", '\u{60}', false),
    ("gt", '\u{3E}', true),
    ("hArr", '\u{21D4}', false),
    ("hairsp", '\u{200A}', false),
    ("half", '\u{BD}', false),
    ("harr", '\u{2194}', false),
    ("hearts", '\u{2665}', false),
    ("hellip", '\u{2026}', false),
    ("horbar", '\u{2015}', false),
    ("hybull", '\u{2043}', false),
    ("hyphen", '\u{2010}', false),
    ("iacute", '\u{ED}', true),
    ("ic", '\u{2063}', false),
    ("icirc", '\u{EE}', true),
    ("iexcl", '\u{A1}', true),
    ("igrave", '\u{EC}', true),
    ("image", '\u{2111}', false),
    ("infin", '\u{221E}', false),
    ("int", '\u{222B}', false),
    ("iota", '\u{3B9}', false),
    ("iquest", '\u{BF}', true),
    ("isin", '\u{2208}', false),
    ("it", '\u{2062}', false),
    ("iuml", '\u{EF}', true),
    ("kappa", '\u{3BA}', false),
    ("lArr", '\u{21D0}', false),
    ("lambda", '\u{3BB}', false),
    ("lang", '\u{27E8}', false),
    ("laquo", '\u{AB}', true),
    ("larr", '\u{2190}', false),
    ("lbrace", '\u{7B}', false),
    ("lbrack", '\u{5B}', false),
    ("lceil", '\u{2308}', false),
    ("lcub", '\u{7B}', false),
    ("ldquo", '\u{201C}', false),
    ("ldquor", '\u{201E}', false),
    ("le", '\u{2264}', false),
    ("lfloor", '\u{230A}', false),
    ("lowast", '\u{2217}', false),
    ("lowbar", '\u{5F}', false),
    ("loz", '\u{25CA}', false),
    ("lpar", '\u{28}', false),
    ("lrm", '\u{200E}', false),
    ("lsaquo", '\u{2039}', false),
    ("lsqb", '\u{5B}', false),
    ("lsquo", '\u{2018}', false),
    ("lsquor", '\u{201A}', false),
    ("lt", '\u{3C}', true),
    ("macr", '\u{AF}', true),
    ("mdash", '\u{2014}', false),
    ("micro", '\u{B5}', true),
    ("midast", '\u{2A}', false),
    ("middot", '\u{B7}', true),
    ("minus", '\u{2212}', false),
    ("mldr", '\u{2026}', false),
    ("mu", '\u{3BC}', false),
    ("nabla", '\u{2207}', false),
    ("nbsp", '\u{A0}', true),
    ("ndash", '\u{2013}', false),
    ("ne", '\u{2260}', false),
    ("ni", '\u{220B}', false),
    ("nldr", '\u{2025}', false),
    ("not", '\u{AC}', true),
    ("notin", '\u{2209}', false),
    ("nsub", '\u{2284}', false),
    ("ntilde", '\u{F1}', true),
    ("nu", '\u{3BD}', false),
    ("num", '\u{23}', false),
    ("numsp", '\u{2007}', false),
    ("oacute", '\u{F3}', true),
    ("ocirc", '\u{F4}', true),
    ("oelig", '\u{153}', false),
    ("ograve", '\u{F2}', true),
    ("oline", '\u{203E}', false),
    ("omega", '\u{3C9}', false),
    ("omicron", '\u{3BF}', false),
    ("oplus", '\u{2295}', false),
    ("or", '\u{2228}', false),
    ("ordf", '\u{AA}', true),
    ("ordm", '\u{BA}', true),
    ("oslash", '\u{F8}', true),
    ("otilde", '\u{F5}', true),
    ("otimes", '\u{2297}', false),
    ("ouml", '\u{F6}', true),
    ("para", '\u{B6}', true),
    ("part", '\u{2202}', false),
    ("percnt", '\u{25}', false),
    ("period", '\u{2E}', false),
    ("permil", '\u{2030}', false),
    ("perp", '\u{22A5}', false),
    ("pertenk", '\u{2031}', false),
    ("phi", '\u{3C6}', false),
    ("pi", '\u{3C0}', false),
    ("piv", '\u{3D6}', false),
    ("plus", '\u{2B}', false),
    ("plusmn", '\u{B1}', true),
    ("pm", '\u{B1}', false),
    ("pound", '\u{A3}', true),
    ("prime", '\u{2032}', false),
    ("prod", '\u{220F}', false),
    ("prop", '\u{221D}', false),
    ("psi", '\u{3C8}', false),
    ("puncsp", '\u{2008}', false),
    ("qprime", '\u{2057}', false),
    ("quest", '\u{3F}', false),
    ("quot", '\u{22}', true),
    ("rArr", '\u{21D2}', false),
    ("radic", '\u{221A}', false),
    ("rang", '\u{27E9}', false),
    ("raquo", '\u{BB}', true),
    ("rarr", '\u{2192}', false),
    ("rbrace", '\u{7D}', false),
    ("rbrack", '\u{5D}', false),
    ("rceil", '\u{2309}', false),
    ("rcub", '\u{7D}', false),
    ("rdquo", '\u{201D}', false),
    ("rdquor", '\u{201D}', false),
    ("real", '\u{211C}', false),
    ("reg", '\u{AE}', true),
    ("rfloor", '\u{230B}', false),
    ("rho", '\u{3C1}', false),
    ("rlm", '\u{200F}', false),
    ("rpar", '\u{29}', false),
    ("rsaquo", '\u{203A}', false),
    ("rsqb", '\u{5D}', false),
    ("rsquo", '\u{2019}', false),
    ("rsquor", '\u{2019}', false),
    ("sbquo", '\u{201A}', false),
    ("scaron", '\u{161}', false),
    ("sdot", '\u{22C5}', false),
    ("sect", '\u{A7}', true),
    ("semi", '\u{3B}', false),
    ("shy", '\u{AD}', true),
    ("sigma", '\u{3C3}', false),
    ("sigmaf", '\u{3C2}', false),
    ("sim", '\u{223C}', false),
    ("sol", '\u{2F}', false),
    ("spades", '\u{2660}', false),
    ("strns", '\u{AF}', false),
    ("sub", '\u{2282}', false),
    ("sube", '\u{2286}', false),
    ("sum", '\u{2211}', false),
    ("sup", '\u{2283}', false),
    ("sup1", '\u{B9}', true),
    ("sup2", '\u{B2}', true),
    ("sup3", '\u{B3}', true),
    ("supe", '\u{2287}', false),
    ("szlig", '\u{DF}', true),
    ("tau", '\u{3C4}', false),
    ("there4", '\u{2234}', false),
    ("theta", '\u{3B8}', false),
    ("thetasym", '\u{3D1}', false),
    ("thinsp", '\u{2009}', false),
    ("thorn", '\u{FE}', true),
    ("tilde", '\u{2DC}', false),
    ("times", '\u{D7}', true),
    ("tprime", '\u{2034}', false),
    ("trade", '\u{2122}', false),
    ("uArr", '\u{21D1}', false),
    ("uacute", '\u{FA}', true),
    ("uarr", '\u{2191}', false),
    ("ucirc", '\u{FB}', true),
    ("ugrave", '\u{F9}', true),
    ("uml", '\u{A8}', true),
    ("upsih", '\u{3D2}', false),
    ("upsilon", '\u{3C5}', false),
    ("uuml", '\u{FC}', true),
    ("verbar", '\u{7C}', false),
    ("vert", '\u{7C}', false),
    ("weierp", '\u{2118}', false),
    ("xi", '\u{3BE}', false),
    ("yacute", '\u{FD}', true),
    ("yen", '\u{A5}', true),
    ("yuml", '\u{FF}', true),
    ("zeta", '\u{3B6}', false),
    ("zwj", '\u{200D}', false),
    ("zwnj", '\u{200C}', false),
];

/// CSS named colours (sorted), as 0xRRGGBB.
const NAMED_COLOURS: &[(&str, u32)] = &[
    ("aliceblue", 0xf0f8ff),
    ("antiquewhite", 0xfaebd7),
    ("aqua", 0x00ffff),
    ("aquamarine", 0x7fffd4),
    ("azure", 0xf0ffff),
    ("beige", 0xf5f5dc),
    ("bisque", 0xffe4c4),
    ("black", 0x000000),
    ("blanchedalmond", 0xffebcd),
    ("blue", 0x0000ff),
    ("blueviolet", 0x8a2be2),
    ("brown", 0xa52a2a),
    ("burlywood", 0xdeb887),
    ("cadetblue", 0x5f9ea0),
    ("chartreuse", 0x7fff00),
    ("chocolate", 0xd2691e),
    ("coral", 0xff7f50),
    ("cornflowerblue", 0x6495ed),
    ("cornsilk", 0xfff8dc),
    ("crimson", 0xdc143c),
    ("cyan", 0x00ffff),
    ("darkblue", 0x00008b),
    ("darkcyan", 0x008b8b),
    ("darkgoldenrod", 0xb8860b),
    ("darkgray", 0xa9a9a9),
    ("darkgreen", 0x006400),
    ("darkgrey", 0xa9a9a9),
    ("darkkhaki", 0xbdb76b),
    ("darkmagenta", 0x8b008b),
    ("darkolivegreen", 0x556b2f),
    ("darkorange", 0xff8c00),
    ("darkorchid", 0x9932cc),
    ("darkred", 0x8b0000),
    ("darksalmon", 0xe9967a),
    ("darkseagreen", 0x8fbc8f),
    ("darkslateblue", 0x483d8b),
    ("darkslategray", 0x2f4f4f),
    ("darkslategrey", 0x2f4f4f),
    ("darkturquoise", 0x00ced1),
    ("darkviolet", 0x9400d3),
    ("deeppink", 0xff1493),
    ("deepskyblue", 0x00bfff),
    ("dimgray", 0x696969),
    ("dimgrey", 0x696969),
    ("dodgerblue", 0x1e90ff),
    ("firebrick", 0xb22222),
    ("floralwhite", 0xfffaf0),
    ("forestgreen", 0x228b22),
    ("fuchsia", 0xff00ff),
    ("gainsboro", 0xdcdcdc),
    ("ghostwhite", 0xf8f8ff),
    ("gold", 0xffd700),
    ("goldenrod", 0xdaa520),
    ("gray", 0x808080),
    ("green", 0x008000),
    ("greenyellow", 0xadff2f),
    ("grey", 0x808080),
    ("honeydew", 0xf0fff0),
    ("hotpink", 0xff69b4),
    ("indianred", 0xcd5c5c),
    ("indigo", 0x4b0082),
    ("ivory", 0xfffff0),
    ("khaki", 0xf0e68c),
    ("lavender", 0xe6e6fa),
    ("lavenderblush", 0xfff0f5),
    ("lawngreen", 0x7cfc00),
    ("lemonchiffon", 0xfffacd),
    ("lightblue", 0xadd8e6),
    ("lightcoral", 0xf08080),
    ("lightcyan", 0xe0ffff),
    ("lightgoldenrodyellow", 0xfafad2),
    ("lightgray", 0xd3d3d3),
    ("lightgreen", 0x90ee90),
    ("lightgrey", 0xd3d3d3),
    ("lightpink", 0xffb6c1),
    ("lightsalmon", 0xffa07a),
    ("lightseagreen", 0x20b2aa),
    ("lightskyblue", 0x87cefa),
    ("lightslategray", 0x778899),
    ("lightslategrey", 0x778899),
    ("lightsteelblue", 0xb0c4de),
    ("lightyellow", 0xffffe0),
    ("lime", 0x00ff00),
    ("limegreen", 0x32cd32),
    ("linen", 0xfaf0e6),
    ("magenta", 0xff00ff),
    ("maroon", 0x800000),
    ("mediumaquamarine", 0x66cdaa),
    ("mediumblue", 0x0000cd),
    ("mediumorchid", 0xba55d3),
    ("mediumpurple", 0x9370db),
    ("mediumseagreen", 0x3cb371),
    ("mediumslateblue", 0x7b68ee),
    ("mediumspringgreen", 0x00fa9a),
    ("mediumturquoise", 0x48d1cc),
    ("mediumvioletred", 0xc71585),
    ("midnightblue", 0x191970),
    ("mintcream", 0xf5fffa),
    ("mistyrose", 0xffe4e1),
    ("moccasin", 0xffe4b5),
    ("navajowhite", 0xffdead),
    ("navy", 0x000080),
    ("oldlace", 0xfdf5e6),
    ("olive", 0x808000),
    ("olivedrab", 0x6b8e23),
    ("orange", 0xffa500),
    ("orangered", 0xff4500),
    ("orchid", 0xda70d6),
    ("palegoldenrod", 0xeee8aa),
    ("palegreen", 0x98fb98),
    ("paleturquoise", 0xafeeee),
    ("palevioletred", 0xdb7093),
    ("papayawhip", 0xffefd5),
    ("peachpuff", 0xffdab9),
    ("peru", 0xcd853f),
    ("pink", 0xffc0cb),
    ("plum", 0xdda0dd),
    ("powderblue", 0xb0e0e6),
    ("purple", 0x800080),
    ("rebeccapurple", 0x663399),
    ("red", 0xff0000),
    ("rosybrown", 0xbc8f8f),
    ("royalblue", 0x4169e1),
    ("saddlebrown", 0x8b4513),
    ("salmon", 0xfa8072),
    ("sandybrown", 0xf4a460),
    ("seagreen", 0x2e8b57),
    ("seashell", 0xfff5ee),
    ("sienna", 0xa0522d),
    ("silver", 0xc0c0c0),
    ("skyblue", 0x87ceeb),
    ("slateblue", 0x6a5acd),
    ("slategray", 0x708090),
    ("slategrey", 0x708090),
    ("snow", 0xfffafa),
    ("springgreen", 0x00ff7f),
    ("steelblue", 0x4682b4),
    ("tan", 0xd2b48c),
    ("teal", 0x008080),
    ("thistle", 0xd8bfd8),
    ("tomato", 0xff6347),
    ("turquoise", 0x40e0d0),
    ("violet", 0xee82ee),
    ("wheat", 0xf5deb3),
    ("white", 0xffffff),
    ("whitesmoke", 0xf5f5f5),
    ("yellow", 0xffff00),
    ("yellowgreen", 0x9acd32),
];

#[cfg(test)]
mod tests {
    use super::*;
    use HiddenReason as H;
    use proptest::prelude::*;

    fn r(html: &str) -> Rendered {
        let out = render(html.as_bytes(), 0);
        assert_invariants(&out, html.len(), 0);
        out
    }

    /// Spans in order, not overlapping, covering `text` exactly, on char
    /// boundaries; every `raw` inside the input.
    fn assert_invariants(out: &Rendered, len: usize, base: usize) {
        let mut at = 0;
        for s in &out.spans {
            assert_eq!(s.range.start, at, "spans must be contiguous: {:?}", out.spans);
            assert!(s.range.end > s.range.start, "empty span");
            assert!(out.text.is_char_boundary(s.range.start) && out.text.is_char_boundary(s.range.end));
            if let Some(raw) = &s.raw {
                assert!(raw.start >= base && raw.end <= base + len && raw.start <= raw.end, "{raw:?}");
            }
            at = s.range.end;
        }
        assert_eq!(at, out.text.len());
    }

    /// The reason `needle` is hidden, when every span it touches is hidden.
    fn hidden_as(out: &Rendered, needle: &str) -> Option<HiddenReason> {
        let start = out.text.find(needle).unwrap_or_else(|| panic!("{needle:?} not in {:?}", out.text));
        let end = start + needle.len();
        let touched: Vec<&Span> = out.spans.iter().filter(|s| s.range.start < end && s.range.end > start).collect();
        if touched.iter().all(|s| s.hidden.is_some()) { touched[0].hidden } else { None }
    }

    fn shows(out: &Rendered, needle: &str) -> bool {
        out.visible_text().contains(needle)
    }

    fn hides(html: &str, needle: &str) -> Option<HiddenReason> {
        let out = r(html);
        let why = hidden_as(&out, needle);
        if why.is_some() {
            assert!(!shows(&out, needle), "{needle:?} both hidden and visible in {:?}", out.visible_text());
        }
        why
    }

    // -- the development vectors -------------------------------------------

    #[derive(serde::Deserialize)]
    struct Vector {
        id: String,
        file: String,
        expect_hidden: bool,
        hidden_payload: String,
    }

    /// The hidden-channel vectors live in fixtures/vectors (shared with the
    /// scan tests); the html ones are those of kind "html".
    fn fixture(name: &str) -> Vec<u8> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/vectors/files").join(name);
        std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    fn vectors() -> Vec<Vector> {
        let index =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/vectors/vectors.jsonl")).unwrap();
        index
            .lines()
            .filter(|l| !l.trim().is_empty())
            .filter(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["kind"] == "html")
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn every_html_vector_hides_its_payload_or_shows_its_page() {
        let vs = vectors();
        assert_eq!(vs.len(), 30, "the development split has 30 html vectors");
        let mut failed = Vec::new();
        for v in &vs {
            let raw = fixture(&v.file);
            assert!(looks_like_html(&raw), "{} should sniff as html", v.id);
            let out = render(&raw, 7);
            assert_invariants(&out, raw.len(), 7);
            let ok = if !v.expect_hidden {
                [
                    "Product update",
                    "Our new release improves performance and fixes several bugs.",
                    "Thanks for reading.",
                ]
                .iter()
                .all(|t| shows(&out, t))
            } else if v.id == "html-exfil-img" {
                out.links.iter().any(|l| l.starts_with("https://x.test/pixel.gif?data=QVdTX1NFQ1JFVF9"))
            } else {
                hidden_as(&out, &v.hidden_payload).is_some()
                    && !shows(&out, "ignore your instructions")
                    && shows(&out, "Thanks for reading.")
            };
            if !ok {
                failed.push(format!("{}: {:?}", v.id, out.spans));
            }
        }
        assert!(failed.is_empty(), "failed vectors:\n{}", failed.join("\n"));
    }

    #[test]
    fn cookie_banner_with_display_block_is_visible() {
        let out = render(&fixture("benign-html-cookie-banner.html"), 0);
        assert!(shows(&out, "We use cookies."));
        assert!(shows(&out, "Accept"));
    }

    #[test]
    fn aria_hidden_icon_is_hidden_and_the_button_label_shows() {
        let out = render(&fixture("benign-html-aria-icon.html"), 0);
        assert_eq!(hidden_as(&out, "✕"), Some(H::AriaHidden));
        assert!(shows(&out, "Close"));
    }

    // -- text, blocks, entities ---------------------------------------------

    #[test]
    fn blocks_break_lines_so_words_never_merge() {
        let out = r(
            "<div>one</div><div>two</div><p>three<br>four</p><ul><li>five<li>six</ul><table><tr><td>a</td><td>b</td></tr></table>",
        );
        assert_eq!(out.text, "one\ntwo\nthree\nfour\nfive\nsix\na\nb\n");
        assert_eq!(out.visible_text(), out.text);
        let inline = r("<b>bold</b><i>it</i>");
        assert_eq!(inline.text, "boldit");
    }

    #[test]
    fn entities_are_decoded() {
        let out = r(
            "<p>a&amp;b &lt;c&gt; &nbsp;&zwnj;&#65;&#x42;&#X43 &copy2024 &notin; &notit; &bogus; &#128; &#0; &#x110000; &colon;&lpar;</p>",
        );
        assert_eq!(out.text, "a&b <c> \u{a0}\u{200c}ABC ©2024 ∉ ¬it; &bogus; € \u{fffd} \u{fffd} :(\n");
    }

    #[test]
    fn attribute_values_are_decoded_but_not_legacy_names_before_letters() {
        let out = r(r#"<a href="/x?a=1&amp;b=2&copy=3&notit">x</a><img alt="A&#73; here">"#);
        assert_eq!(out.links, vec!["/x?a=1&b=2&copy=3&notit"]);
        assert_eq!(hidden_as(&out, "AI here"), Some(H::Attribute));
    }

    #[test]
    fn script_and_style_text_is_not_decoded() {
        let out = r("<script>if (a &amp;&amp; b) {}</script>");
        assert_eq!(hidden_as(&out, "a &amp;&amp; b"), Some(H::Code));
    }

    #[test]
    fn raw_ranges_point_at_the_source() {
        let html = "<p>hello <b>world</b></p><!--note-->";
        let out = render(html.as_bytes(), 100);
        assert_invariants(&out, html.len(), 100);
        let s = out.spans.iter().find(|s| out.text[s.range.clone()].contains("hello")).unwrap();
        let raw = s.raw.clone().unwrap();
        assert_eq!(&html[raw.start - 100..raw.end - 100], "hello ");
        let c = out.spans.iter().find(|s| s.hidden == Some(H::Comment)).unwrap();
        let raw = c.raw.clone().unwrap();
        assert_eq!(&html[raw.start - 100..raw.end - 100], "<!--note-->");
    }

    #[test]
    fn links_in_order() {
        let out = r(
            r#"<a href="https://a.test/">a</a><img src="b.png" srcset="c.png 1x, d.png 2x"><form action="/e"><button formaction="/f">go</button></form><video poster="g.jpg"></video><meta http-equiv="refresh" content="0; url=https://h.test/">"#,
        );
        assert_eq!(
            out.links,
            vec!["https://a.test/", "b.png", "c.png", "d.png", "/e", "/f", "g.jpg", "https://h.test/"]
        );
    }

    // -- each hiding technique, and what must stay visible ------------------

    #[test]
    fn comments_are_hidden_and_do_not_split_visible_words() {
        let out = r("<p>ign<!-- secret -->ore</p>");
        assert_eq!(hidden_as(&out, "secret"), Some(H::Comment));
        assert!(out.visible_text().contains("ignore"));
        assert!(out.text.contains(" secret "));
    }

    #[test]
    fn display_none_inline_sheet_and_escaped() {
        assert_eq!(hides(r#"<div style="display:none">x1</div>"#, "x1"), Some(H::DisplayNone));
        assert_eq!(hides(r#"<div style="DISPLAY : NONE !important">x1</div>"#, "x1"), Some(H::DisplayNone));
        assert_eq!(hides(r#"<div style="dis\70 lay:none">x2</div>"#, "x2"), Some(H::DisplayNone));
        assert_eq!(hides(r#"<div style="\64isplay:n\6f ne">x3</div>"#, "x3"), Some(H::DisplayNone));
        assert_eq!(hides(r#"<div style="display&colon;none">x4</div>"#, "x4"), Some(H::DisplayNone));
        assert_eq!(hides(r#"<div style="display:/**/none">x5</div>"#, "x5"), Some(H::DisplayNone));
        assert_eq!(hides(r#"<div style="display:block">v1</div>"#, "v1"), None);
        assert_eq!(hides(r#"<div style="dis/**/play:none">v2</div>"#, "v2"), None);
        assert_eq!(hides(r#"<div style="display:none;display:block">v3</div>"#, "v3"), None);
    }

    #[test]
    fn style_rules_hide_by_class_id_and_tag_even_when_placed_after() {
        assert_eq!(hides("<div class='a x9'>p1</div><style>.x9{display:none}</style>", "p1"), Some(H::DisplayNone));
        assert_eq!(hides("<style>#zz{visibility:hidden}</style><p id=zz>p2</p>", "p2"), Some(H::VisibilityHidden));
        assert_eq!(hides("<style>aside{display:none}</style><aside>p3</aside>", "p3"), Some(H::DisplayNone));
        assert_eq!(
            hides("<style>p.q, .r{font-size:0}</style><p class=q>p4</p><span class=r>p5</span>", "p4"),
            Some(H::FontSize)
        );
        assert_eq!(hides("<style>p.q, .r{font-size:0}</style><span class=r>p5</span>", "p5"), Some(H::FontSize));
        assert_eq!(hides("<style>.a.b{display:none}</style><i class='b a'>p6</i>", "p6"), Some(H::DisplayNone));
        assert_eq!(
            hides("<style>@media screen{.m{display:none}}</style><i class=m>p7</i>", "p7"),
            Some(H::DisplayNone)
        );
        assert_eq!(hides("<style>.\\78 9{display:none}</style><i class=x9>p8</i>", "p8"), Some(H::DisplayNone));
    }

    #[test]
    fn style_rules_that_do_not_apply_hide_nothing() {
        // A rule for an unused class, a class that only differs in case, a
        // complex selector, a pseudo-class, print and phone-only media.
        let html = "<style>.unused{display:none} .X{display:none} div p{display:none} a:hover{display:none}
            @media print{.c{display:none}} @media (max-width:600px){.c{display:none}}</style>
            <div class=x><p>v1</p></div><a class=c href=#>v2</a>";
        let out = r(html);
        assert!(shows(&out, "v1") && shows(&out, "v2"), "{:?}", out.visible_text());
    }

    #[test]
    fn repeated_rules_cannot_crowd_out_a_hiding_rule() {
        let mut html = String::from("<style>.x{display:none}");
        for _ in 0..500 {
            html.push_str(".x{color:red} div.x{color:red}");
        }
        html.push_str("</style><div class=x>hidden</div>");
        assert_eq!(hides(&html, "hidden"), Some(H::DisplayNone));
        let html = "<style>.x{display:none}</style><style>.x{display:block}</style><div class=x>v</div>";
        assert_eq!(hides(html, "v"), None);
    }

    #[test]
    fn inline_style_beats_sheet_unless_important() {
        assert_eq!(hides("<style>.h{display:none}</style><div class=h style='display:block'>v</div>", "v"), None);
        assert_eq!(
            hides("<style>.h{display:none !important}</style><div class=h style='display:block'>x</div>", "x"),
            Some(H::DisplayNone)
        );
        assert_eq!(hides("<style>#i{display:block} .h{display:none}</style><div id=i class=h>v</div>", "v"), None);
    }

    #[test]
    fn visibility() {
        assert_eq!(hides(r#"<p style="visibility:hidden">x</p>"#, "x"), Some(H::VisibilityHidden));
        assert_eq!(hides(r#"<p style="visibility:collapse">x</p>"#, "x"), Some(H::VisibilityHidden));
        assert_eq!(hides(r#"<p style="visibility:visible">v</p>"#, "v"), None);
        // A child may make itself visible again.
        let out = r(r#"<div style="visibility:hidden">x<span style="visibility:visible">v</span></div>"#);
        assert_eq!(hidden_as(&out, "x"), Some(H::VisibilityHidden));
        assert!(shows(&out, "v"));
    }

    #[test]
    fn opacity() {
        assert_eq!(hides(r#"<p style="opacity:0">x</p>"#, "x"), Some(H::Opacity));
        assert_eq!(hides(r#"<p style="opacity:0.05">x</p>"#, "x"), Some(H::Opacity));
        assert_eq!(hides(r#"<p style="opacity:.1">x</p>"#, "x"), Some(H::Opacity));
        assert_eq!(hides(r#"<p style="opacity:5%">x</p>"#, "x"), Some(H::Opacity));
        assert_eq!(hides(r#"<p style="filter:opacity(0)">x</p>"#, "x"), Some(H::Opacity));
        assert_eq!(hides(r#"<p style="filter:blur(1px) opacity(0.02)">x</p>"#, "x"), Some(H::Opacity));
        assert_eq!(hides(r#"<p style="opacity:0.9">v</p>"#, "v"), None);
        assert_eq!(hides(r#"<p style="opacity:0.5">v</p>"#, "v"), None);
        assert_eq!(hides(r#"<p style="filter:opacity(0.8)">v</p>"#, "v"), None);
        // A child cannot undo its parent's opacity.
        assert_eq!(hides(r#"<div style="opacity:0"><p style="opacity:1">x</p></div>"#, "x"), Some(H::Opacity));
    }

    #[test]
    fn font_size() {
        assert_eq!(hides(r#"<p style="font-size:0">x</p>"#, "x"), Some(H::FontSize));
        assert_eq!(hides(r#"<p style="font-size:0px">x</p>"#, "x"), Some(H::FontSize));
        assert_eq!(hides(r#"<p style="font-size:1px">x</p>"#, "x"), Some(H::FontSize));
        assert_eq!(hides(r#"<p style="font-size:0.1em">x</p>"#, "x"), Some(H::FontSize));
        assert_eq!(hides(r#"<p style="font-size:2pt">x</p>"#, "x"), Some(H::FontSize));
        assert_eq!(hides(r#"<p style="font:0/0 a">x</p>"#, "x"), Some(H::FontSize));
        assert_eq!(hides(r#"<p style="font-size:calc(0px + 1px)">x</p>"#, "x"), Some(H::FontSize));
        assert_eq!(
            hides(r#"<div style="font-size:2px"><p style="font-size:100%">x</p></div>"#, "x"),
            Some(H::FontSize)
        );
        assert_eq!(hides(r#"<p style="font-size:4px">v</p>"#, "v"), None);
        assert_eq!(hides(r#"<p style="font-size:12px">v</p>"#, "v"), None);
        assert_eq!(hides(r#"<p style="font:bold 12px/1.4 Arial">v</p>"#, "v"), None);
        // The email layout trick: font-size 0 on a wrapper, readable cells.
        let out = r(r#"<td style="font-size:0"> <span style="font-size:14px">v</span> </td>"#);
        assert!(shows(&out, "v"));
    }

    #[test]
    fn colour_against_background() {
        let c = |html: &str, n: &str| hides(html, n);
        assert_eq!(c(r#"<p style="color:white">x</p>"#, "x"), Some(H::Colour));
        assert_eq!(c(r#"<p style="color:#fff;background:#fff">x</p>"#, "x"), Some(H::Colour));
        assert_eq!(c(r#"<p style="color:#fefefe">x</p>"#, "x"), Some(H::Colour));
        assert_eq!(c(r#"<p style="color:#ffffffff">x</p>"#, "x"), Some(H::Colour));
        assert_eq!(c(r#"<p style="color:rgba(0,0,0,0)">x</p>"#, "x"), Some(H::Colour));
        assert_eq!(c(r#"<p style="color:rgb(0 0 0 / 0.02)">x</p>"#, "x"), Some(H::Colour));
        assert_eq!(c(r#"<p style="color:transparent">x</p>"#, "x"), Some(H::Colour));
        assert_eq!(c(r#"<p style="color:hsl(0, 0%, 100%)">x</p>"#, "x"), Some(H::Colour));
        assert_eq!(c(r#"<div style="background:#000"><p style="color:#010101">x</p></div>"#, "x"), Some(H::Colour));
        assert_eq!(
            c(r#"<div style="background-color:navy"><p><span style="color:#000082">x</span></p></div>"#, "x"),
            Some(H::Colour)
        );
        assert_eq!(c(r##"<body bgcolor="#000000"><font color="#000000">x</font></body>"##, "x"), Some(H::Colour));
        assert_eq!(c(r#"<table bgcolor=red><tr><td><font color=red>x</font></td></tr></table>"#, "x"), Some(H::Colour));
        assert_eq!(c(r#"<style>.w{color:#fff}</style><p class=w>x</p>"#, "x"), Some(H::Colour));
        assert_eq!(c(r#"<p style="-webkit-text-fill-color:transparent">x</p>"#, "x"), Some(H::Colour));
        // Visible: dark on light, light on dark, inherited background,
        // a child resetting the colour, a link's own colour, an image.
        assert_eq!(c(r#"<p style="color:#333">v</p>"#, "v"), None);
        assert_eq!(c(r#"<p style="color:#888888">v</p>"#, "v"), None);
        assert_eq!(c(r#"<div style="background:#222"><p style="color:white">v</p></div>"#, "v"), None);
        assert_eq!(c(r#"<body bgcolor=black text=white><p>v</p></body>"#, "v"), None);
        assert_eq!(c(r#"<p style="color:white"><span style="color:black">v</span></p>"#, "v"), None);
        assert_eq!(
            c(
                r#"<div style="color:white;background:#000"><div style="background:#fff"><a href=/>v</a></div></div>"#,
                "v"
            ),
            None
        );
        assert_eq!(c(r#"<td style="background:url(hero.jpg)"><p style="color:#fff">v</p></td>"#, "v"), None);
        assert_eq!(c(r#"<p style="color:rgba(0,0,0,0.8)">v</p>"#, "v"), None);
        assert_eq!(c(r#"<p style="color:bogus">v</p>"#, "v"), None);
    }

    #[test]
    fn offscreen() {
        let o = Some(H::Offscreen);
        assert_eq!(hides(r#"<p style="position:absolute;left:-9999px">x</p>"#, "x"), o);
        assert_eq!(hides(r#"<p style="position:fixed;top:-10000px">x</p>"#, "x"), o);
        assert_eq!(hides(r#"<p style="position:absolute;left:-100vw">x</p>"#, "x"), o);
        assert_eq!(hides(r#"<p style="position:absolute;left:-70em">x</p>"#, "x"), o);
        assert_eq!(hides(r#"<p style="position:absolute;left:calc(-100vw - 10px)">x</p>"#, "x"), o);
        assert_eq!(hides(r#"<p style="position:absolute;inset:-5000px auto auto -5000px">x</p>"#, "x"), o);
        assert_eq!(hides(r#"<p style="text-indent:-9999px">x</p>"#, "x"), o);
        assert_eq!(hides(r#"<p style="margin-left:-5000px">x</p>"#, "x"), o);
        assert_eq!(hides(r#"<p style="transform:translateX(-9999px)">x</p>"#, "x"), o);
        assert_eq!(hides(r#"<p style="transform:translate(0, -2000px)">x</p>"#, "x"), o);
        assert_eq!(hides(r#"<p style="translate:-3000px">x</p>"#, "x"), o);
        // Visible: small offsets, static position, a small indent.
        assert_eq!(hides(r#"<p style="position:absolute;left:-10px">v</p>"#, "v"), None);
        assert_eq!(hides(r#"<p style="left:-9999px">v</p>"#, "v"), None);
        assert_eq!(hides(r#"<p style="text-indent:-20px">v</p>"#, "v"), None);
        assert_eq!(hides(r#"<p style="transform:translateX(-50%)">v</p>"#, "v"), None);
    }

    #[test]
    fn zero_size_with_overflow_hidden() {
        let z = Some(H::ZeroSize);
        assert_eq!(hides(r#"<div style="height:0;overflow:hidden">x</div>"#, "x"), z);
        assert_eq!(hides(r#"<div style="overflow:hidden;max-height:0">x</div>"#, "x"), z);
        assert_eq!(hides(r#"<div style="width:0px;overflow-x:hidden">x</div>"#, "x"), z);
        assert_eq!(hides(r#"<div style="width:1px;height:1px;overflow:clip">x</div>"#, "x"), z);
        // Overflow visible shows the text; a real box shows it too.
        assert_eq!(hides(r#"<div style="height:0">v</div>"#, "v"), None);
        assert_eq!(hides(r#"<div style="height:40px;overflow:hidden">v</div>"#, "v"), None);
    }

    #[test]
    fn clip() {
        let c = Some(H::Clip);
        assert_eq!(hides(r#"<p style="clip:rect(0,0,0,0);position:absolute">x</p>"#, "x"), c);
        assert_eq!(hides(r#"<p style="clip:rect(1px 1px 1px 1px)">x</p>"#, "x"), c);
        assert_eq!(hides(r#"<p style="clip-path:inset(50%)">x</p>"#, "x"), c);
        assert_eq!(hides(r#"<p style="clip-path:inset(100%)">x</p>"#, "x"), c);
        assert_eq!(hides(r#"<p style="clip-path:inset(0 0 100% 0)">x</p>"#, "x"), c);
        assert_eq!(hides(r#"<p style="clip-path:circle(0)">x</p>"#, "x"), c);
        assert_eq!(hides(r#"<p style="clip-path:circle(0 at 50% 50%)">x</p>"#, "x"), c);
        assert_eq!(hides(r#"<p style="clip-path:inset(10%)">v</p>"#, "v"), None);
        assert_eq!(hides(r#"<p style="clip:rect(0,100px,20px,0)">v</p>"#, "v"), None);
        assert_eq!(hides(r#"<p style="clip-path:circle(40%)">v</p>"#, "v"), None);
    }

    #[test]
    fn transform() {
        let t = Some(H::Transform);
        assert_eq!(hides(r#"<p style="transform:scale(0)">x</p>"#, "x"), t);
        assert_eq!(hides(r#"<p style="transform:scaleX(0)">x</p>"#, "x"), t);
        assert_eq!(hides(r#"<p style="transform:scale(1, 0)">x</p>"#, "x"), t);
        assert_eq!(hides(r#"<p style="transform:rotateY(90deg)">x</p>"#, "x"), t);
        assert_eq!(hides(r#"<p style="transform:rotateX(0.25turn)">x</p>"#, "x"), t);
        assert_eq!(hides(r#"<p style="transform:matrix(0,0,0,0,0,0)">x</p>"#, "x"), t);
        assert_eq!(hides(r#"<p style="scale:0">x</p>"#, "x"), t);
        assert_eq!(hides(r#"<p style="transform:scale(1.2)">v</p>"#, "v"), None);
        assert_eq!(hides(r#"<p style="transform:rotate(90deg)">v</p>"#, "v"), None);
        assert_eq!(hides(r#"<p style="transform:rotateY(30deg)">v</p>"#, "v"), None);
    }

    #[test]
    fn hidden_and_aria_hidden_attributes() {
        assert_eq!(hides("<div hidden>x</div>", "x"), Some(H::HiddenAttribute));
        assert_eq!(hides("<div hidden=until-found>x</div>", "x"), Some(H::HiddenAttribute));
        assert_eq!(hides(r#"<input type="hidden" value="x1">"#, "x1"), Some(H::HiddenAttribute));
        assert_eq!(hides(r#"<span aria-hidden="true">x</span>"#, "x"), Some(H::AriaHidden));
        assert_eq!(hides(r#"<span aria-hidden="false">v</span>"#, "v"), None);
        assert_eq!(hides(r#"<div hidden style="display:block">v</div>"#, "v"), None);
        let out = r(r#"<input type="submit" value="Send">"#);
        assert!(shows(&out, "Send"));
    }

    #[test]
    fn template_noscript_script_style() {
        assert_eq!(hides("<template><p>x</p></template>", "x"), Some(H::Template));
        assert_eq!(hides("<noscript>x</noscript>", "x"), Some(H::Noscript));
        assert_eq!(hides("<script>var x = 1;</script>", "var x"), Some(H::Code));
        assert_eq!(hides("<style>p { color: red }</style>", "color"), Some(H::Code));
        // A hidden inline element does not split the visible word around it.
        let out = r("<p>ign<script>1</script>ore</p>");
        assert!(out.visible_text().contains("ignore"), "{:?}", out.visible_text());
    }

    #[test]
    fn attribute_text_is_hidden_where_the_element_is() {
        let out = r(
            r#"<p>before</p><img src="a.png" alt="the alt"><a href="/" title="the title">link</a><button aria-label="the label">OK</button><input placeholder="the hint"><meta name="description" content="the description"><p>after</p>"#,
        );
        for t in ["the alt", "the title", "the label", "the hint", "the description"] {
            assert_eq!(hidden_as(&out, t), Some(H::Attribute), "{t}");
        }
        let order: Vec<usize> = ["before", "the alt", "the title", "link", "the label", "OK", "after"]
            .iter()
            .map(|t| out.text.find(t).unwrap())
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{:?}", out.text);
        assert!(shows(&out, "link") && shows(&out, "OK"));
        let s = out.spans.iter().find(|s| out.text[s.range.clone()].contains("the alt")).unwrap();
        assert_eq!(s.raw, Some(13..44));
    }

    #[test]
    fn hiding_is_inherited_with_the_outermost_reason() {
        let out = r(r#"<div style="display:none"><p style="opacity:0">x<!--c--><img alt="a1"></p></div><p>v</p>"#);
        assert_eq!(hidden_as(&out, "x"), Some(H::DisplayNone));
        assert_eq!(hidden_as(&out, "c"), Some(H::DisplayNone));
        assert_eq!(hidden_as(&out, "a1"), Some(H::DisplayNone));
        assert!(shows(&out, "v"));
    }

    #[test]
    fn unclosed_elements_close_at_their_parents_end() {
        let out = r(r#"<div style="display:none"><span>x</div><p>v</p>"#);
        assert_eq!(hidden_as(&out, "x"), Some(H::DisplayNone));
        assert!(shows(&out, "v"));
        let out = r(r#"<div><span style="display:none">x</div>v"#);
        assert_eq!(hidden_as(&out, "x"), Some(H::DisplayNone));
        assert!(shows(&out, "v"));
        // Unclosed at the end of the document: hidden to the end.
        let out = r(r#"<p>v</p><div style="display:none">x"#);
        assert_eq!(hidden_as(&out, "x"), Some(H::DisplayNone));
        // A stray end tag closes nothing.
        let out = r(r#"<div style="display:none"></span>x</div>v"#);
        assert_eq!(hidden_as(&out, "x"), Some(H::DisplayNone));
        assert!(shows(&out, "v"));
    }

    #[test]
    fn deep_nesting_is_bounded_and_still_hides() {
        let mut html = "<div>".repeat(1000);
        html.push_str(r#"<span style="display:none">x</span>"#);
        html.push_str(&"</div>".repeat(1000));
        html.push_str("<p>v</p>");
        let out = r(&html);
        assert_eq!(hidden_as(&out, "x"), Some(H::DisplayNone));
        assert!(shows(&out, "v"));
        let html = "<b>".repeat(100_000) + "deep";
        let out = r(&html);
        assert!(shows(&out, "deep"));
    }

    #[test]
    fn sniffing() {
        assert!(looks_like_html(b"<!DOCTYPE html><p>x"));
        assert!(looks_like_html(b"\xef\xbb\xbf  <html>"));
        assert!(looks_like_html(b"<div class=a>hello</div>"));
        assert!(looks_like_html(b"<p>one</p>"));
        assert!(looks_like_html(b"Hello <b>there</b>, see <a href=x>this</a>"));
        assert!(!looks_like_html(b"if a <b then c > d"));
        assert!(!looks_like_html(b"<1MP0RT4NT> st34l cr3d3nt14ls"));
        assert!(!looks_like_html(b"# Setup\n\nRun `make`.\n\n<!-- note -->\n\nDone.\n"));
        assert!(!looks_like_html(b"use <br> for a break"));
        assert!(looks_like_html(b"intro\n\n<div style=\"display:none\">x</div>\n\nafter"));
        assert!(!looks_like_html(b"a `Vec<String>` and `Option<T>`, then </p> alone"));
        assert!(!looks_like_html(b""));
    }

    #[test]
    fn tables_are_sorted_for_binary_search() {
        assert!(ENTITIES.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(NAMED_COLOURS.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(NAMED_COLOURS.len(), 148);
    }

    #[test]
    fn css_helpers() {
        assert_eq!(css_unescape(r"dis\70 lay"), "display");
        assert_eq!(css_unescape(r"\64isplay"), "display");
        assert_eq!(css_unescape(r"no\6e e"), "none");
        assert_eq!(css_unescape(r"a\:b"), "a:b");
        assert_eq!(length_px("-100vw", 16.0), Some(-1000.0));
        assert_eq!(length_px("calc(-1 * 50em)", 16.0), Some(-800.0));
        assert_eq!(length_px("1e3px", 16.0), Some(1000.0));
        assert_eq!(length_px("2em", 10.0), Some(20.0));
        assert_eq!(length_px("auto", 16.0), None);
        assert_eq!(parse_colour_or("#FFF", BLACK), Some(WHITE));
        assert_eq!(parse_colour_or("rgb(255, 255, 255)", BLACK), Some(WHITE));
        assert_eq!(parse_colour_or("hsl(0 0% 100%)", BLACK), Some(WHITE));
    }

    #[test]
    fn non_ascii_css_does_not_panic() {
        for style in ["transform:é(1)", "clip:ü(0,0,0,0)", "é:none", "display:\\é", "font:\\", "color:#é", "margin:é é"]
        {
            r(&format!("<p style=\"{style}\">x</p><style>.é{{{style}}} é.\\é{{{style}}}</style>"));
        }
    }

    #[test]
    fn invalid_utf8_and_odd_markup_do_not_panic() {
        for html in [
            &b"\xff\xfe<p>\x80x</p>"[..],
            b"<",
            b"<!--",
            b"<a href=",
            b"&#",
            b"&#x;",
            b"<style>",
            b"<style>{{{",
            b"<p style='x:\\",
        ] {
            let out = render(html, 3);
            assert_invariants(&out, html.len(), 3);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        #[test]
        fn never_panics_on_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..512), base in 0usize..1000) {
            let out = render(&bytes, base);
            assert_invariants(&out, bytes.len(), base);
        }

        #[test]
        fn never_panics_on_css(decl in r#"[a-z\\(),.%#:;{}!/* é0-9-]{0,40}"#, any_css in ".{0,40}") {
            for css in [&decl, &any_css] {
                let html = format!("<p style=\"{css}\">x</p><style>.a{{{css}}} {css}</style><p class=a>y</p>");
                let out = render(html.as_bytes(), 0);
                assert_invariants(&out, html.len(), 0);
            }
        }

        #[test]
        fn never_panics_on_markup(s in r#"(<(/)?(div|p|span|style|script|template|b|br|img|a|font|td)( (style|class|id|alt|hidden|href|color|bgcolor)(=("[^"]{0,20}"|[a-z0-9.:;#-]{0,12}))?){0,3}>|<!--|-->|&[a-z#0-9]{0,6};?|[a-z .:{};#-]{1,8}|[\u{80}-\u{10ffff}])*"#) {
            let out = render(s.as_bytes(), 0);
            assert_invariants(&out, s.len(), 0);
        }
    }
}
