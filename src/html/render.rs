//! The renderer: one lol_html pass over the document, an element stack kept
//! in step with it, and the text and spans a model reads, each marked with
//! why a person would not see it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;

use lol_html::html_content::{Comment, Element, EndTag, TextChunk, TextType};
use lol_html::{HtmlRewriter, MemorySettings, Settings, doc_comments, doc_text, element};

use crate::document::{HiddenReason, Span};

use super::colour::{BLACK, MAX_HIDDEN_ALPHA, NEAR_COLOUR_DISTANCE, Rgba, WHITE, background, parse_colour_or};
use super::css::{Decl, Sheet, Style, parse_declarations};
use super::entities::decode_entities;
use super::values::{
    clip_hides, clip_path_hides, filter_hides, first_word, font_size_px, number_or_percent, offscreen, rotate_effect,
    scale_effect, transform_effect, translate_effect, zero_size,
};
use super::{DEFAULT_FONT_PX, MAX_HIDDEN_OPACITY};

/// Deeper elements share their 256th ancestor's frame: browsers cap nesting
/// too (Blink at 512), and the cap keeps memory per document bounded.
const MAX_DEPTH: usize = 256;
/// Memory the HTML parser may use (its stack of open elements, about 300
/// bytes each, and the buffer of the tag being read are most of it): past
/// it the rest of the page is withheld (`HiddenReason::Unrendered`), so a
/// page of a million unclosed tags costs what one of 100,000 does.
const MAX_PARSER_MEMORY: usize = 32 << 20;
/// Text smaller than this (in CSS pixels) cannot be read.
const MIN_READABLE_FONT_PX: f64 = 4.0;
/// Distinct inline styles whose parse is kept for reuse.
const MAX_CACHED_STYLES: usize = 512;

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
pub(super) struct Attrs {
    style: Option<String>,
    pub(super) class: Option<String>,
    pub(super) id: Option<String>,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::looks_like_html;
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
