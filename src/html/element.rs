//! An element by itself: whether its tag breaks lines or belongs in the
//! head, the attributes render reads (entity-decoded, the first of each),
//! the hints they add beneath the cascade, and whether its tag, attributes
//! and own style hide it. What it inherits from ancestors is render.rs's.

use lol_html::html_content::Element;

use crate::document::HiddenReason;

use super::css::Style;
use super::entities::decode_entities;
use super::values::{
    clip_hides, clip_path_hides, filter_blurs, filter_hides, first_word, number_unit, offscreen, opacity_value,
    turned_away, zero_size,
};
use super::{FastSet, MAX_HIDDEN_OPACITY};

/// The shortest `data-` attribute value read as text.
const DATA_ATTR_MIN: usize = 16;

/// Elements a parser puts in the head when they come before the body's
/// content.
pub(super) fn is_head_content(tag: &str) -> bool {
    matches!(tag, "head" | "title" | "meta" | "link" | "style" | "script" | "base" | "noscript" | "template")
}

/// A block with size containment (`contain: strict`, or `size`) that
/// clips (paint containment or `overflow`) and that nothing gives a height:
/// a box of no height, its text cut off. Not an inline box (containment
/// does not apply), a box placed by its insets, nor a flex or grid item
/// (`arranged`: the row or track sizes it).
pub(super) fn contained_empty(tag: &str, style: &Style, arranged: bool) -> bool {
    let Some(contain) = style.contain.as_deref() else { return false };
    let has = |w: &str| contain.split_ascii_whitespace().any(|t| t.eq_ignore_ascii_case(w));
    let clips =
        |v: &Option<std::rc::Rc<str>>| v.as_deref().map(first_word).is_some_and(|w| matches!(w, "hidden" | "clip"));
    let block = match style.display.as_deref().map(first_word) {
        Some(d) => d != "inline" && d != "contents" && d != "none",
        None => is_block(tag),
    };
    // A size of zero is no size (`min-height: 0`, `contain-intrinsic-size: 0 0`).
    let sized = style
        .sizing
        .as_deref()
        .is_some_and(|v| v.split_ascii_whitespace().any(|t| number_unit(t).is_none_or(|(n, _)| n != 0.0)));
    let placed = style.position.as_deref().map(first_word).is_some_and(|p| matches!(p, "absolute" | "fixed"));
    (has("strict") || has("size"))
        && (has("strict") || has("paint") || has("content") || clips(&style.overflow_x) || clips(&style.overflow_y))
        && style.height.is_none()
        && style.max_height.is_none()
        && !sized
        && block
        && !placed
        && !arranged
}

/// Elements whose start and end are line boundaries.
pub(super) fn is_block(tag: &str) -> bool {
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

/// Markup's text with its tags left out (a tag becomes a space).
pub(crate) fn without_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// Link-bearing attributes.
fn is_link_attr(name: &str) -> bool {
    matches!(
        name,
        "href"
            | "src"
            | "action"
            | "formaction"
            | "poster"
            | "background"
            | "xlink:href"
            | "data"
            | "cite"
            | "longdesc"
    )
}

/// Attributes read once (the first of each counts): their bit in a mask.
fn single_attr_bit(name: &str) -> Option<u32> {
    let bit = match name {
        "style" => 0,
        "class" => 1,
        "id" => 2,
        "hidden" => 3,
        "aria-hidden" => 4,
        "type" => 5,
        "value" => 6,
        "name" | "property" => 7,
        "content" => 8,
        "http-equiv" => 9,
        "color" => 10,
        "bgcolor" => 11,
        "text" => 12,
        "open" => 13,
        "checked" | "selected" => 14,
        "disabled" => 15,
        _ => return svg_presentation(name).map(|(i, _)| 16 + i),
    };
    Some(bit)
}

/// SVG presentation attributes: (index, the property each sets).
fn svg_presentation(name: &str) -> Option<(u32, &'static str)> {
    Some(match name {
        "fill" => (0, "fill"),
        "fill-opacity" => (1, "fill-opacity"),
        "opacity" => (2, "opacity"),
        "display" => (3, "display"),
        "visibility" => (4, "visibility"),
        "font-size" => (5, "font-size"),
        "transform" => (6, "transform"),
        "width" => (7, "width"),
        "height" => (8, "height"),
        "overflow" => (9, "overflow"),
        "viewbox" => (10, "viewbox"),
        "stroke" => (11, "stroke"),
        // Where text is drawn (not CSS properties: read by `own_reason`).
        "x" => (12, "x"),
        "y" => (13, "y"),
        _ => return None,
    })
}

/// The attributes render looks at, entity-decoded; of each, the first (as
/// a browser reads a tag that repeats one).
#[derive(Debug, Default, Clone)]
pub(super) struct Attrs {
    pub(super) style: Option<String>,
    /// An `<iframe>`'s `srcdoc`, its tags left out.
    pub(super) srcdoc: Option<String>,
    pub(super) class: Option<String>,
    pub(super) id: Option<String>,
    pub(super) hidden: bool,
    pub(super) aria_hidden: Option<bool>,
    pub(super) open: bool,
    /// `popover`: shown only when a script or a button opens it.
    pub(super) popover: bool,
    /// `shadowrootmode` on a `<template>`: a declarative shadow root, drawn
    /// in place of its host's children (cleared when its parent cannot
    /// host one, or has one already: the template is then inert).
    pub(super) shadow_root: bool,
    pub(super) checked: bool,
    /// `multiple` (a list box shows its options, a drop-down one).
    pub(super) multiple: bool,
    pub(super) disabled: bool,
    /// alt, title, aria-label, placeholder, and repeated values, in source order.
    pub(super) texts: Vec<String>,
    pub(super) kind: Option<String>,
    pub(super) value: Option<String>,
    pub(super) name: Option<String>,
    pub(super) content: Option<String>,
    pub(super) http_equiv: Option<String>,
    pub(super) color: Option<String>,
    pub(super) bgcolor: Option<String>,
    pub(super) text_color: Option<String>,
    /// `dir`, for `<bdo>`.
    pub(super) dir: Option<String>,
    pub(super) href: bool,
    pub(super) links: Vec<String>,
    /// SVG presentation attributes as the properties they set.
    pub(super) presentation: Vec<(&'static str, String)>,
    /// Attributes the style sheet's selectors test, names lowercase.
    pub(super) tested: Vec<(Box<str>, Box<str>)>,
}

impl Attrs {
    /// Add what `later` has and this lacks (a repeated `<html>` or `<body>`).
    pub(super) fn merge_missing(&mut self, later: Attrs) {
        macro_rules! keep_first {
            ($($f:ident),*) => { $( if self.$f.is_none() { self.$f = later.$f; } )* };
        }
        keep_first!(
            style,
            class,
            id,
            aria_hidden,
            kind,
            value,
            name,
            content,
            http_equiv,
            color,
            bgcolor,
            text_color,
            dir
        );
        self.hidden |= later.hidden;
        self.open |= later.open;
        self.popover |= later.popover;
        self.checked |= later.checked;
        self.disabled |= later.disabled;
        self.href |= later.href;
        for (p, v) in later.presentation {
            if !self.presentation.iter().any(|(q, _)| *q == p) {
                self.presentation.push((p, v));
            }
        }
        for (n, v) in later.tested {
            if !self.tested.iter().any(|(m, _)| *m == n) {
                self.tested.push((n, v));
            }
        }
    }
}

/// Read attributes straight from the input where lol_html says they are
/// (no allocation for the many attributes that do not matter here). Of an
/// attribute a tag repeats, the first counts, as in a browser; a repeated
/// value is kept as hidden text.
pub(super) fn read_attrs(el: &Element, html: &[u8], tested: &FastSet<Box<str>>, svg: bool) -> Attrs {
    let mut a = Attrs::default();
    let mut seen: u32 = 0;
    // Made on first use: seeding a hasher for every element costs.
    let mut tested_seen: Option<FastSet<Box<str>>> = None;
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
            // Long names matter only to the sheet's attribute selectors.
            Some(n) if !tested.is_empty() => {
                owned_name = n.to_ascii_lowercase();
                owned_name.as_str()
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
        if !tested.is_empty() && tested.contains(name) && tested_seen.get_or_insert_default().insert(name.into()) {
            a.tested.push((name.into(), value().into()));
        }
        if let Some(bit) = single_attr_bit(name) {
            if seen & 1 << bit != 0 {
                if name == "value" {
                    a.texts.push(value());
                }
                continue;
            }
            seen |= 1 << bit;
        }
        match name {
            "style" => {
                let v = value();
                // What its `url()`s name, a browser loads.
                a.links.extend(crate::detect::links::css_urls(&v).into_iter().map(|(_, u)| u));
                a.style = Some(v);
            }
            "class" => a.class = Some(value()),
            "id" => a.id = Some(value()),
            "hidden" => a.hidden = true,
            "aria-hidden" => a.aria_hidden = Some(value().trim().eq_ignore_ascii_case("true")),
            "open" => a.open = true,
            "popover" => a.popover = true,
            // (Only this name and these keywords: `shadowroot`, the old
            // name, and ` open` leave the template inert.)
            "shadowrootmode" => {
                let v = value();
                a.shadow_root = v.eq_ignore_ascii_case("open") || v.eq_ignore_ascii_case("closed");
            }
            "checked" | "selected" => a.checked = true,
            "multiple" => a.multiple = true,
            "disabled" => a.disabled = true,
            "alt" | "title" | "aria-label" | "placeholder" | "aria-description" => a.texts.push(value()),
            // A frame's whole document in an attribute: its words, tags
            // left out (what the frame shows is judged by its size and
            // style, as the element's own text is).
            "srcdoc" => a.srcdoc = Some(without_tags(&value())),
            // A script's data, never shown: read when long enough to hold a
            // sentence or an encoded one.
            n if n.starts_with("data-") => {
                let v = value();
                if v.trim().len() >= DATA_ATTR_MIN {
                    a.texts.push(v);
                }
            }
            "type" => a.kind = Some(value()),
            "value" => a.value = Some(value()),
            "name" | "property" | "itemprop" => a.name = Some(value()),
            "content" => a.content = Some(value()),
            "http-equiv" => a.http_equiv = Some(value()),
            // (MathML's colours and size as HTML's.)
            "color" | "mathcolor" => a.color = Some(value()),
            "bgcolor" | "mathbackground" => a.bgcolor = Some(value()),
            "mathsize" => a.presentation.push(("font-size", value())),
            "text" => a.text_color = Some(value()),
            "dir" => a.dir = Some(value()),
            // Addresses a click sends a request to, beside its target.
            "ping" => a.links.extend(value().split_ascii_whitespace().map(str::to_string)),
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
            n if svg => {
                if let Some((_, prop)) = svg_presentation(n) {
                    a.presentation.push((prop, value()));
                }
            }
            // HTML's size attributes map to `width` and `height` (what
            // clips by default, a `<marquee width=0>`, then shows nothing).
            "width" => a.presentation.push(("width", value())),
            "height" => a.presentation.push(("height", value())),
            // Any other attribute that holds words (`aria-roledescription`,
            // `summary`, `abbr`, `label`, one a page makes up) is never
            // drawn and is read by what reads the markup; not an event
            // handler's script.
            n if !n.starts_with("on")
                && attr.value_source_location().is_none_or(|l| l.bytes().len() >= DATA_ATTR_MIN) =>
            {
                let v = value();
                if v.trim().len() >= DATA_ATTR_MIN && v.trim().contains(' ') {
                    a.texts.push(v);
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
pub(super) fn presentational_hints(tag: &str, svg: bool, attrs: &Attrs, style: &mut Style) {
    match tag {
        "a" if attrs.href && !svg => style.color = Some("#0000ee".into()),
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
        // The UA's `font-size: smaller` (nested, they shrink to nothing).
        "small" | "sub" | "sup" if !svg => style.font_size = Some("smaller".into()),
        _ => {}
    }
    if let Some(c) = attrs.color.as_deref().or(if tag == "body" { attrs.text_color.as_deref() } else { None }) {
        style.color = Some(legacy_colour(c).into());
    }
    if let Some(c) = &attrs.bgcolor {
        style.background = Some(legacy_colour(c).into());
    }
    for (prop, value) in &attrs.presentation {
        let mut v = value.trim().to_ascii_lowercase();
        // SVG lengths without a unit are user units (pixels).
        if matches!(*prop, "font-size" | "width" | "height") && number_unit(&v).is_some_and(|(_, u)| u.is_empty()) {
            v.push_str("px");
        }
        style.set(prop, v.into());
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

/// SVG text placed a long way up or left of the drawing's origin (`<text
/// x="-2000">`), in a drawing whose `viewBox` starts near it: outside the
/// viewport. (A drawing whose `viewBox` starts far up or left, a map
/// centred on its origin, draws there: `far_origin`.)
pub(super) fn svg_text_offscreen(tag: &str, attrs: &Attrs, far_origin: bool) -> bool {
    !far_origin
        && matches!(tag, "text" | "tspan")
        && attrs.presentation.iter().any(|(p, v)| {
            matches!(*p, "x" | "y")
                && v.split(|c: char| c == ',' || c.is_ascii_whitespace())
                    .find(|t| !t.is_empty())
                    .and_then(|t| t.trim_end_matches("px").parse::<f64>().ok())
                    .is_some_and(|n| n <= -super::OFFSCREEN_PX)
        })
}

/// An SVG `viewBox` whose drawing starts a long way up or left of its
/// origin (`-3000 -3000 6000 6000`).
pub(super) fn far_origin(v: &str) -> bool {
    let n: Vec<f64> =
        v.split(|c: char| c == ',' || c.is_ascii_whitespace()).filter_map(|t| t.trim().parse().ok()).collect();
    n.len() == 4 && (n[0] <= -super::OFFSCREEN_PX / 2.0 || n[1] <= -super::OFFSCREEN_PX / 2.0)
}

/// An SVG `viewBox` with no width or height: nothing inside is drawn.
fn empty_viewbox(v: &str) -> bool {
    let n: Vec<f64> =
        v.split(|c: char| c == ',' || c.is_ascii_whitespace()).filter_map(|t| t.trim().parse().ok()).collect();
    n.len() == 4 && (n[2] == 0.0 || n[3] == 0.0)
}

/// Can an element with this tag host a shadow root (a custom element, or
/// one of the HTML elements `attachShadow` accepts)?
pub(super) fn shadow_host(tag: &str) -> bool {
    tag.contains('-')
        || matches!(
            tag,
            "article"
                | "aside"
                | "blockquote"
                | "body"
                | "div"
                | "footer"
                | "h1"
                | "h2"
                | "h3"
                | "h4"
                | "h5"
                | "h6"
                | "header"
                | "main"
                | "nav"
                | "p"
                | "section"
                | "span"
        )
}

/// The reason an element itself (not its ancestors) hides its content.
pub(super) fn own_reason(tag: &str, svg: bool, attrs: &Attrs, style: &Style) -> Option<HiddenReason> {
    match tag {
        "script" | "style" => return Some(HiddenReason::Code),
        "template" if !attrs.shadow_root => return Some(HiddenReason::Template),
        "noscript" => return Some(HiddenReason::Noscript),
        // Fallback content (never drawn by a browser that draws the element)
        // and UA `display:none` elements.
        "noembed" | "noframes" | "iframe" | "datalist" | "rp" | "canvas" | "video" | "audio" | "progress" | "meter"
            if !svg =>
        {
            return Some(HiddenReason::DisplayNone);
        }
        // MathML: an annotation (another notation of the formula) is never
        // drawn, a phantom takes room and draws nothing.
        "annotation" | "annotation-xml" if !svg => return Some(HiddenReason::DisplayNone),
        "mphantom" if !svg => return Some(HiddenReason::VisibilityHidden),
        // SVG titles and descriptions are tooltips and metadata.
        "title" | "desc" | "metadata" if svg => return Some(HiddenReason::Attribute),
        // SVG definitions are drawn only where something refers to them.
        "defs" | "symbol" | "clippath" | "mask" | "pattern" | "marker" | "lineargradient" | "radialgradient"
        | "filter"
            if svg =>
        {
            return Some(HiddenReason::DisplayNone);
        }
        _ => {}
    }
    let display = style.display.as_deref().map(first_word);
    // (A table column's box draws none of its content.)
    if matches!(display, Some("none" | "table-column" | "table-column-group"))
        || style.content_visibility.as_deref().map(first_word) == Some("hidden")
    {
        return Some(HiddenReason::DisplayNone);
    }
    // An author `display` other than none overrides the attribute's UA rule.
    if attrs.hidden && display.is_none() {
        return Some(HiddenReason::HiddenAttribute);
    }
    // So it does the UA's `display:none` of a dialog not opened and of a
    // popover (shown only when a script or a button opens them).
    if display.is_none() && ((tag == "dialog" && !svg && !attrs.open) || attrs.popover) {
        return Some(HiddenReason::DisplayNone);
    }
    if attrs.aria_hidden == Some(true) {
        return Some(HiddenReason::AriaHidden);
    }
    if style.mso_hide.as_deref().map(first_word) == Some("all") {
        return Some(HiddenReason::DisplayNone);
    }
    // Drawn as something else: a row of dots (a password box's look), or
    // an image the element's own `content` puts in place of its text.
    if style.text_security.as_deref().map(first_word).is_some_and(|w| matches!(w, "disc" | "circle" | "square"))
        || style.content.as_deref().is_some_and(|v| {
            let v = v.trim_start();
            ["url(", "image-set(", "-webkit-image-set(", "linear-gradient(", "radial-gradient(", "conic-gradient("]
                .iter()
                .any(|f| v.len() >= f.len() && v[..f.len()].eq_ignore_ascii_case(f))
        })
    {
        return Some(HiddenReason::Masked);
    }
    if style.opacity.as_deref().and_then(opacity_value).is_some_and(|o| o <= MAX_HIDDEN_OPACITY)
        || style.filter.as_deref().is_some_and(filter_hides)
    {
        return Some(HiddenReason::Opacity);
    }
    if style.filter.as_deref().is_some_and(filter_blurs) {
        return Some(HiddenReason::Blurred);
    }
    if offscreen(style) {
        return Some(HiddenReason::Offscreen);
    }
    // Overridden to right to left (`<bdo dir=rtl>`, `unicode-bidi:
    // bidi-override; direction: rtl`), text is drawn reversed: a person
    // sees letters backwards, a model reads them in order.
    let rtl = |v: Option<&str>| v.map(first_word).is_some_and(|d| d.eq_ignore_ascii_case("rtl"));
    let overridden = style.unicode_bidi.as_deref().map(first_word).is_some_and(|u| u.ends_with("override"));
    if (overridden && (rtl(style.direction.as_deref()) || rtl(attrs.dir.as_deref())))
        || (tag == "bdo" && rtl(attrs.dir.as_deref()))
    {
        return Some(HiddenReason::Bidi);
    }
    // SVG viewports and `<marquee>` clip what overflows them by default.
    let clips_by_default = (svg && matches!(tag, "svg" | "image")) || matches!(tag, "foreignobject" | "marquee");
    if zero_size(style, clips_by_default)
        || (svg && tag == "svg" && style.viewbox.as_deref().is_some_and(empty_viewbox))
    {
        return Some(HiddenReason::ZeroSize);
    }
    if style.clip.as_deref().is_some_and(clip_hides) || style.clip_path.as_deref().is_some_and(clip_path_hides) {
        return Some(HiddenReason::Clip);
    }
    // A positioned box stacked below zero is drawn before (under) the
    // boxes around it: text a page lays an opaque box over.
    let positioned = style.position.as_deref().map(first_word).is_some_and(|p| p != "static");
    if positioned && style.z_index.as_deref().map(first_word).and_then(|z| z.parse::<i64>().ok()).is_some_and(|z| z < 0)
    {
        return Some(HiddenReason::Covered);
    }
    if style.backface.as_deref().map(first_word) == Some("hidden")
        && turned_away(style.transform.as_deref(), style.rotate.as_deref())
    {
        return Some(HiddenReason::Transform);
    }
    // (What a transform does is the caller's: it needs the parent's
    // perspective.)
    None
}
