//! CSS: the properties that can hide text, declarations, and a style
//! sheet of the rules of every `<style>` block (nested rules, `@media`,
//! `@layer` and `@supports` followed), indexed for matching with
//! [`select`](super::select) and applied in cascade order.

use std::rc::Rc;

use crate::document::HiddenReason;

use super::colour::Tone;
use super::select::{self, Comb, Complex, Match, Matcher, Node, Parsed, Ref, Selector, Tree};
use super::values::{
    clip_hides, clip_path_hides, filter_blurs, filter_hides, first_word, font_shorthand_size, font_size_px, length_px,
    number_or_percent, opacity_value, placement, scale_factor, transform_list,
};
use super::{DEFAULT_FONT_PX, FastMap, FastSet, MAX_HIDDEN_OPACITY, MIN_READABLE_FONT_PX, OFFSCREEN_PX};

/// Nesting of rules and at-rule blocks followed into.
const MAX_CSS_NESTING: usize = 8;

/// The cascaded values of the properties that can hide text (lowercase,
/// unescaped). Later `set` calls win, so callers apply the cascade in order.
#[derive(Debug, Default, Clone)]
pub(super) struct Style {
    pub(super) display: Option<Rc<str>>,
    pub(super) content_visibility: Option<Rc<str>>,
    pub(super) visibility: Option<Rc<str>>,
    pub(super) opacity: Option<Rc<str>>,
    pub(super) filter: Option<Rc<str>>,
    pub(super) mix_blend_mode: Option<Rc<str>>,
    /// `isolation: isolate`: what is inside blends only with itself.
    pub(super) isolation: Option<Rc<str>>,
    /// `box-shadow`: an inset one of a wide spread paints the box.
    pub(super) box_shadow: Option<Rc<str>>,
    /// `background-clip`: at `text` the background paints the glyphs only.
    pub(super) background_clip: Option<Rc<str>>,
    /// What draws around the glyphs: `text-shadow`, `-webkit-text-stroke`.
    pub(super) text_shadow: Option<Rc<str>>,
    pub(super) text_stroke: Option<Rc<str>>,
    pub(super) font_size_adjust: Option<Rc<str>>,
    /// `-webkit-text-security`: text drawn as a row of dots.
    pub(super) text_security: Option<Rc<str>>,
    /// `content` of the element itself: an image there replaces its text.
    pub(super) content: Option<Rc<str>>,
    /// `contain`: paint containment clips what overflows, as `overflow:
    /// clip` does; size containment leaves a box no size of its content.
    pub(super) contain: Option<Rc<str>>,
    /// The last of what may give a box a height other than its content's
    /// (`min-height`, `contain-intrinsic-size`, `aspect-ratio`, padding,
    /// a flex or grid item's size).
    pub(super) sizing: Option<Rc<str>>,
    /// Outlook's `mso-hide: all`: not drawn by its Word engine.
    pub(super) mso_hide: Option<Rc<str>>,
    pub(super) font_size: Option<Rc<str>>,
    pub(super) color: Option<Rc<str>>,
    pub(super) fill: Option<Rc<str>>,
    pub(super) background: Option<Rc<str>>,
    pub(super) background_image: Option<Rc<str>>,
    pub(super) position: Option<Rc<str>>,
    /// `z-index`: below zero, a positioned box is drawn under the content
    /// around it.
    pub(super) z_index: Option<Rc<str>>,
    pub(super) left: Option<Rc<str>>,
    pub(super) top: Option<Rc<str>>,
    pub(super) right: Option<Rc<str>>,
    pub(super) margin_left: Option<Rc<str>>,
    pub(super) margin_top: Option<Rc<str>>,
    pub(super) text_indent: Option<Rc<str>>,
    pub(super) transform: Option<Rc<str>>,
    pub(super) translate: Option<Rc<str>>,
    pub(super) scale: Option<Rc<str>>,
    pub(super) rotate: Option<Rc<str>>,
    pub(super) transform_origin: Option<Rc<str>>,
    /// `perspective`: how far its children's 3D space is from the reader.
    pub(super) perspective: Option<Rc<str>>,
    /// `backface-visibility`: hidden, a box turned away shows nothing.
    pub(super) backface: Option<Rc<str>>,
    pub(super) width: Option<Rc<str>>,
    pub(super) height: Option<Rc<str>>,
    pub(super) max_width: Option<Rc<str>>,
    pub(super) max_height: Option<Rc<str>>,
    pub(super) overflow_x: Option<Rc<str>>,
    pub(super) overflow_y: Option<Rc<str>>,
    pub(super) clip: Option<Rc<str>>,
    pub(super) clip_path: Option<Rc<str>>,
    pub(super) zoom: Option<Rc<str>>,
    /// `line-clamp` or `-webkit-line-clamp`: the lines a box shows.
    pub(super) line_clamp: Option<Rc<str>>,
    /// `white-space`: `nowrap` keeps a box's text on one line.
    pub(super) white_space: Option<Rc<str>>,
    /// `unicode-bidi` and `direction`: an override to right-to-left shows
    /// the text reversed.
    pub(super) unicode_bidi: Option<Rc<str>>,
    pub(super) direction: Option<Rc<str>>,
    /// SVG's paint for text (`fill`) and its opacity.
    pub(super) svg_fill: Option<Rc<str>>,
    pub(super) fill_opacity: Option<Rc<str>>,
    pub(super) stroke: Option<Rc<str>>,
    /// SVG's `viewBox` attribute (not a CSS property).
    pub(super) viewbox: Option<Rc<str>>,
}

/// The property name, lowercased and unescaped, if it can hide text (checked
/// without allocating for the common case of a plain name).
fn relevant_property(raw: &str) -> Option<String> {
    let p = relevant_property_as_written(raw)?;
    // Logical sizes as the physical ones of a horizontal page.
    Some(match p.as_str() {
        "block-size" => "height".into(),
        "inline-size" => "width".into(),
        "max-block-size" => "max-height".into(),
        "max-inline-size" => "max-width".into(),
        "overflow-block" => "overflow-y".into(),
        "overflow-inline" => "overflow-x".into(),
        _ => p,
    })
}

fn relevant_property_as_written(raw: &str) -> Option<String> {
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

/// What may give a box a height other than its content's ([`Style::sizing`]).
const SIZING: [&str; 17] = [
    "min-height",
    "min-block-size",
    "contain-intrinsic-size",
    "contain-intrinsic-height",
    "contain-intrinsic-block-size",
    "aspect-ratio",
    "padding",
    "padding-top",
    "padding-bottom",
    "padding-block",
    "padding-block-start",
    "padding-block-end",
    "flex",
    "flex-grow",
    "flex-basis",
    "grid-row",
    "grid-area",
];

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
            | "mix-blend-mode"
            | "isolation"
            | "box-shadow"
            | "-webkit-box-shadow"
            | "background-clip"
            | "-webkit-background-clip"
            | "text-shadow"
            | "-webkit-text-stroke"
            | "-webkit-text-stroke-width"
            | "text-stroke"
            | "font-size-adjust"
            | "-webkit-text-security"
            | "text-security"
            | "content"
            | "contain"
            | "mso-hide"
            | "font-size"
            | "font"
            | "color"
            | "-webkit-text-fill-color"
            | "background"
            | "background-color"
            | "background-image"
            | "position"
            | "z-index"
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
            | "transform-origin"
            | "-webkit-transform-origin"
            | "perspective"
            | "-webkit-perspective"
            | "backface-visibility"
            | "-webkit-backface-visibility"
            | "width"
            | "height"
            | "max-width"
            | "max-height"
            | "block-size"
            | "inline-size"
            | "max-block-size"
            | "max-inline-size"
            | "overflow-block"
            | "overflow-inline"
            | "overflow"
            | "overflow-x"
            | "overflow-y"
            | "clip"
            | "clip-path"
            | "-webkit-clip-path"
            | "zoom"
            | "line-clamp"
            | "-webkit-line-clamp"
            | "white-space"
            | "fill"
            | "fill-opacity"
            | "stroke"
            | "unicode-bidi"
            | "direction"
    ) || SIZING.contains(&p)
}

/// CSS's system colours (CSS Color 4, the deprecated ones too) and
/// `currentcolor`, in lower case: valid colours the page does not set.
const SYSTEM_COLOURS: [&str; 43] = [
    "accentcolor",
    "accentcolortext",
    "activetext",
    "buttonborder",
    "buttonface",
    "buttontext",
    "canvas",
    "canvastext",
    "field",
    "fieldtext",
    "graytext",
    "highlight",
    "highlighttext",
    "linktext",
    "mark",
    "marktext",
    "selecteditem",
    "selecteditemtext",
    "visitedtext",
    "activeborder",
    "activecaption",
    "appworkspace",
    "background",
    "buttonhighlight",
    "buttonshadow",
    "captiontext",
    "inactiveborder",
    "inactivecaption",
    "inactivecaptiontext",
    "infobackground",
    "infotext",
    "menu",
    "menutext",
    "scrollbar",
    "threeddarkshadow",
    "threedface",
    "threedhighlight",
    "threedlightshadow",
    "threedshadow",
    "window",
    "windowframe",
    "windowtext",
    "currentcolor",
];

/// The keywords a position, a margin, an indent or a size takes.
const LENGTH_KEYWORDS: [&str; 16] = [
    "auto",
    "none",
    "fit-content",
    "min-content",
    "max-content",
    "stretch",
    "-webkit-fill-available",
    "-moz-available",
    "-webkit-fit-content",
    "-moz-fit-content",
    "-webkit-min-content",
    "-webkit-max-content",
    "-moz-min-content",
    "-moz-max-content",
    "each-line",
    "hanging",
];

/// A value written with a function: kept as a browser keeps it, computed
/// or not (`round()`, `env()`, `anchor-size()`), but for `calc()`, `min()`,
/// `max()` and `clamp()` with a word CSS's maths does not take
/// (`calc(bogus)`), which is invalid: the declaration before stands.
fn css_math(v: &str) -> bool {
    let Some(open) = v.find('(') else { return false };
    if !matches!(v[..open].trim(), "calc" | "min" | "max" | "clamp" | "-webkit-calc") {
        return true;
    }
    const WORDS: &[&str] = &[
        "calc",
        "min",
        "max",
        "clamp",
        "round",
        "mod",
        "rem",
        "abs",
        "sign",
        "sin",
        "cos",
        "tan",
        "asin",
        "acos",
        "atan",
        "atan2",
        "pow",
        "sqrt",
        "hypot",
        "log",
        "exp",
        "env",
        "var",
        "attr",
        "anchor",
        "anchor-size",
        "calc-size",
        "e",
        "pi",
        "infinity",
        "nan",
        "up",
        "down",
        "nearest",
        "to-zero",
        "px",
        "em",
        "rem",
        "ex",
        "ch",
        "pt",
        "pc",
        "in",
        "cm",
        "mm",
        "q",
        "vw",
        "vh",
        "vmin",
        "vmax",
        "vi",
        "vb",
        "lh",
        "rlh",
        "cap",
        "ic",
        "cqw",
        "cqh",
        "cqi",
        "cqb",
        "cqmin",
        "cqmax",
        "deg",
        "rad",
        "grad",
        "turn",
        "x",
        "dppx",
        "fr",
        "webkit-calc",
        // (`anchor()` and `anchor-size()` inside.)
        "width",
        "height",
        "block",
        "inline",
        "self-block",
        "self-inline",
        "top",
        "left",
        "right",
        "bottom",
        "center",
        "start",
        "end",
        "self-start",
        "self-end",
        "inside",
        "outside",
    ];
    v.split(|c: char| !(c.is_ascii_alphabetic() || c == '-'))
        .filter(|w| !w.is_empty() && !w.starts_with("--"))
        .map(|w| w.trim_start_matches('-'))
        .all(|w| {
            w.is_empty()
                || WORDS.contains(&w)
                || w.strip_prefix("safe-area-inset-").is_some()
                || ["sv", "lv", "dv"].iter().any(|p| w.strip_prefix(p).is_some_and(|u| WORDS.contains(&u)))
        })
}

/// Is `value` one a browser keeps for `prop`? A declaration it cannot
/// parse is dropped, so an earlier one stands (`display:none;
/// display:nonsense` hides). Checked for the properties whose values are
/// a closed set or a number; for a colour or an opacity, a function we
/// do not read (`oklch(…)`, `calc(…)`) is kept as valid (`var(…)` is
/// resolved before); for `display` and `visibility`, none is.
fn valid_value(prop: &str, value: &str) -> bool {
    const GLOBAL: [&str; 5] = ["inherit", "initial", "unset", "revert", "revert-layer"];
    let v = value.trim();
    if GLOBAL.contains(&v) {
        return true;
    }
    match prop {
        // (One keyword, or an outer and an inner display: `none` and
        // `contents` stand alone.)
        "display" if v.split_ascii_whitespace().nth(1).is_some() && (v.contains("none") || v.contains("contents")) => {
            false
        }
        "display" => v.split_ascii_whitespace().all(|w| {
            matches!(
                w,
                "none"
                    | "block"
                    | "inline"
                    | "inline-block"
                    | "flex"
                    | "inline-flex"
                    | "grid"
                    | "inline-grid"
                    | "contents"
                    | "flow"
                    | "flow-root"
                    | "list-item"
                    | "run-in"
                    | "table"
                    | "inline-table"
                    | "table-row"
                    | "table-cell"
                    | "table-column"
                    | "table-row-group"
                    | "table-column-group"
                    | "table-header-group"
                    | "table-footer-group"
                    | "table-caption"
                    | "ruby"
                    | "ruby-base"
                    | "ruby-text"
                    | "ruby-base-container"
                    | "ruby-text-container"
                    | "math"
                    | "-webkit-box"
                    | "-webkit-inline-box"
                    | "-webkit-flex"
                    | "-webkit-inline-flex"
                    | "-moz-box"
                    | "-moz-inline-box"
            )
        }),
        "visibility" => matches!(v, "visible" | "hidden" | "collapse"),
        // A number, or a function we do not read (`round()`); `calc()`
        // and its kin only when they compute (`calc(bogus)` is dropped).
        "opacity" | "fill-opacity" => opacity_value(v).is_some() || css_math(v),
        "font-size" => font_size_px(v, DEFAULT_FONT_PX).is_some() || v == "math" || css_math(v),
        "left" | "top" | "right" | "margin-left" | "margin-top" | "text-indent" | "width" | "height" | "max-width"
        | "max-height" => {
            // (An indent may take keywords beside its length: `2em hanging`.)
            let length: String = if prop == "text-indent" {
                v.split_ascii_whitespace()
                    .filter(|w| !matches!(*w, "hanging" | "each-line"))
                    .collect::<Vec<_>>()
                    .join(" ")
            } else {
                v.to_string()
            };
            length_px(&length, DEFAULT_FONT_PX).is_some() || LENGTH_KEYWORDS.contains(&v) || css_math(&length)
        }
        // A colour function this reader parses and cannot (`oklch(bogus)`)
        // is dropped, so the colour before it stands; one it does not
        // read (another function, `calc()` inside) is kept.
        "color" | "background-color" | "-webkit-text-fill-color" => {
            super::colour::parse_colour_or(v, super::colour::BLACK).is_some()
                || SYSTEM_COLOURS.contains(&v)
                || (v.contains('(') && (v.contains("calc(") || !super::colour::read_function(v)))
        }
        _ => true,
    }
}

impl Style {
    pub(super) fn set(&mut self, prop: &str, value: Rc<str>) {
        let v = Some(value);
        let value = v.as_deref().unwrap_or("");
        match prop {
            "display" => self.display = v,
            "content-visibility" => self.content_visibility = v,
            "visibility" => self.visibility = v,
            "opacity" => self.opacity = v,
            "filter" | "-webkit-filter" => self.filter = v,
            "mix-blend-mode" => self.mix_blend_mode = v,
            "isolation" => self.isolation = v,
            "box-shadow" | "-webkit-box-shadow" => self.box_shadow = v,
            "background-clip" | "-webkit-background-clip" => self.background_clip = v,
            "text-shadow" => self.text_shadow = v,
            "-webkit-text-stroke" | "-webkit-text-stroke-width" | "text-stroke" => self.text_stroke = v,
            "font-size-adjust" => self.font_size_adjust = v,
            "-webkit-text-security" | "text-security" => self.text_security = v,
            "content" => self.content = v,
            "contain" => self.contain = v,
            p if SIZING.contains(&p) => self.sizing = v,
            "mso-hide" => self.mso_hide = v,
            "font-size" => self.font_size = v,
            "font" => {
                if let Some(size) = font_shorthand_size(value) {
                    self.font_size = Some(size.into());
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
            "z-index" => self.z_index = v,
            "left" => self.left = v,
            "top" => self.top = v,
            "right" => self.right = v,
            "inset" => {
                let parts: Vec<&str> = split_top(value, b' ').into_iter().filter(|t| !t.is_empty()).collect();
                let get = |i: usize| parts.get(i).map(|s| Rc::from(*s));
                self.top = get(0);
                self.right = get(1).or(get(0));
                self.left = get(3).or(get(1)).or(get(0));
            }
            "margin-left" => self.margin_left = v,
            "margin-top" => self.margin_top = v,
            "margin" => {
                let parts: Vec<&str> = split_top(value, b' ').into_iter().filter(|t| !t.is_empty()).collect();
                let get = |i: usize| parts.get(i).map(|s| Rc::from(*s));
                self.margin_top = get(0);
                self.margin_left = get(3).or(get(1)).or(get(0));
            }
            "text-indent" => self.text_indent = v,
            "unicode-bidi" => self.unicode_bidi = v,
            "direction" => self.direction = v,
            "transform" | "-webkit-transform" | "-ms-transform" => self.transform = v,
            "translate" => self.translate = v,
            "scale" => self.scale = v,
            "rotate" => self.rotate = v,
            "transform-origin" | "-webkit-transform-origin" => self.transform_origin = v,
            "perspective" | "-webkit-perspective" => self.perspective = v,
            "backface-visibility" | "-webkit-backface-visibility" => self.backface = v,
            "width" => self.width = v,
            "height" => self.height = v,
            "max-width" => self.max_width = v,
            "max-height" => self.max_height = v,
            "overflow" => {
                let mut parts = value.split_ascii_whitespace();
                let x: Option<Rc<str>> = parts.next().map(Rc::from);
                self.overflow_y = parts.next().map(Rc::from).or(x.clone());
                self.overflow_x = x;
            }
            "overflow-x" => self.overflow_x = v,
            "overflow-y" => self.overflow_y = v,
            "clip" => self.clip = v,
            "clip-path" | "-webkit-clip-path" => self.clip_path = v,
            "zoom" => self.zoom = v,
            "line-clamp" | "-webkit-line-clamp" => self.line_clamp = v,
            "white-space" => self.white_space = v,
            "fill" => self.svg_fill = v,
            "fill-opacity" => self.fill_opacity = v,
            "stroke" => self.stroke = v,
            "viewbox" => self.viewbox = v,
            _ => {}
        }
    }
}

/// One declaration: property and value lowercased and unescaped.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Decl {
    pub(super) prop: String,
    /// A custom property's number on its page ([`Vars::id`]); 0 for
    /// every other property.
    pub(super) id: u32,
    pub(super) value: Rc<str>,
    pub(super) important: bool,
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
pub(super) fn split_top(s: &str, sep: u8) -> Vec<&str> {
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
pub(super) fn css_unescape(s: &str) -> std::borrow::Cow<'_, str> {
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

/// The custom properties (`--name: value`) a page declares, in its style
/// sheets or its `style` attributes. A name only page-wide rules declare
/// (`:root`, `html`, `body`, `*`), one way, is put in where a value is
/// parsed; a name also declared for some elements only (a rule's class, a
/// `style` attribute) is put in per element, as a browser inherits it
/// (the renderer keeps what each open element declares).
#[derive(Debug, Default)]
pub(super) struct Vars {
    /// Each name's value in the page-wide rules, when they all give it
    /// the same one.
    wide: FastMap<String, Option<String>>,
    /// The names declared for some elements, each with its value when
    /// every such declaration gives the same one.
    narrow: FastMap<String, Option<String>>,
    /// More declarations than are read: the maps are not the whole page.
    capped: bool,
    /// Some value is read per element ([`Vars::per_element`]).
    per_element: bool,
    /// Each custom property's number (from 1), as declarations name
    /// them: the renderer keeps its values in a list by number.
    ids: std::cell::RefCell<FastMap<Rc<str>, u32>>,
}

/// Declarations of custom properties read per page, and substitutions
/// per value.
const MAX_VARS: usize = 1 << 16;
/// The longest custom property value kept, its blanks run together.
const MAX_CUSTOM_VALUE: usize = 1024;
const MAX_VAR_DEPTH: usize = 4;

/// What a value with `var(…)` in it is, read from the page alone.
pub(super) enum VarValue {
    /// Every name in it has one value wherever it applies (or none, and
    /// the fallback is taken).
    Put(String),
    /// It cannot be put together: the declaration is invalid.
    Invalid,
    /// A name in it depends on the element: read in the cascade.
    PerElement,
}

impl Vars {
    /// One pass over the page for `--name:`.
    pub(super) fn from_html(html: &[u8]) -> Vars {
        let mut vars = Vars::default();
        let mut read = 0;
        // (Worked out once the page is read: every block and element asks.)
        let settle = |mut vars: Vars| {
            vars.per_element = vars.capped || !vars.narrow.is_empty() || vars.wide.values().any(Option::is_none);
            vars
        };
        for at in memchr::memmem::find_iter(html, b"--") {
            if at > 0 && (html[at - 1].is_ascii_alphanumeric() || matches!(html[at - 1], b'-' | b'_' | b'!')) {
                continue;
            }
            let name_end = html[at + 2..]
                .iter()
                .position(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_')))
                .map_or(html.len(), |n| at + 2 + n);
            if name_end == at + 2 || name_end - at > 64 {
                continue;
            }
            let rest = &html[name_end..];
            let spaces = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
            if rest.get(spaces) != Some(&b':') {
                continue;
            }
            read += 1;
            if read > MAX_VARS {
                vars.capped = true;
                break;
            }
            let value = &rest[spaces + 1..];
            let end = value.iter().take(256).position(|b| matches!(b, b';' | b'}' | b'"' | b'\'' | b'<' | b'\n'));
            let Some(end) = end else { continue };
            let value = String::from_utf8_lossy(&value[..end]).trim().to_ascii_lowercase();
            let name = String::from_utf8_lossy(&html[at..name_end]).to_ascii_lowercase();
            // Only a page-wide declaration holds everywhere; one in a
            // narrower rule or a `style` attribute holds for some
            // elements and what they hold.
            if page_wide(&html[at.saturating_sub(1024)..at]) {
                let value = Some(value);
                vars.wide
                    .entry(name)
                    .and_modify(|v| {
                        if *v != value {
                            *v = None
                        }
                    })
                    .or_insert(value);
            } else {
                let value = Some(value);
                vars.narrow
                    .entry(name)
                    .and_modify(|v| *v = v.take().filter(|v| Some(v) == value.as_ref()))
                    .or_insert(value);
            }
        }
        settle(vars)
    }

    /// A custom property's number, given on first sight.
    pub(super) fn id(&self, name: &str) -> u32 {
        let mut ids = self.ids.borrow_mut();
        if let Some(&id) = ids.get(name) {
            return id;
        }
        let id = ids.len() as u32 + 1;
        ids.insert(name.into(), id);
        id
    }

    /// The one value every declaration of a name on the page gives it,
    /// when there is one.
    pub(super) fn only_value(&self, name: &str) -> Option<&str> {
        let narrow = self.narrow.get(name)?.as_deref()?;
        match self.wide.get(name) {
            None => Some(narrow),
            Some(Some(w)) if w == narrow => Some(narrow),
            Some(_) => None,
        }
    }

    /// The number of a name some declaration gave one.
    pub(super) fn known_id(&self, name: &str) -> Option<u32> {
        self.ids.borrow().get(name).copied()
    }

    /// Are custom properties read per element on this page?
    pub(super) fn per_element(&self) -> bool {
        self.per_element
    }

    /// The value a name has where no element declares it: the page-wide
    /// rules' one value.
    pub(super) fn page_value(&self, name: &str) -> Option<&str> {
        self.wide.get(name).and_then(Option::as_deref)
    }

    /// `value` with each `var(--name)` or `var(--name, fallback)` put in,
    /// when the page gives each name one value everywhere.
    fn resolve(&self, value: &str) -> VarValue {
        let per_element = std::cell::Cell::new(false);
        let put = substitute(value, |name| {
            let wide = self.wide.get(name);
            if self.capped || self.narrow.contains_key(name) || matches!(wide, Some(None)) {
                per_element.set(true);
            }
            wide.and_then(Option::as_deref)
        });
        match put {
            _ if per_element.get() => VarValue::PerElement,
            Some(v) => VarValue::Put(v),
            None => VarValue::Invalid,
        }
    }
}

/// `value` with each `var(--name)` or `var(--name, fallback)` put in: the
/// name's value by `lookup`, else the fallback (MAX_VAR_DEPTH at most);
/// None when one has neither.
fn substitute<'a>(value: &str, lookup: impl Fn(&str) -> Option<&'a str>) -> Option<String> {
    let mut out = value.to_string();
    for _ in 0..MAX_VAR_DEPTH {
        let (start, close, name, fallback) = first_var(&out)?;
        let put = match lookup(name) {
            Some(v) => v.to_string(),
            None => fallback?.to_string(),
        };
        out.replace_range(start..=close, &put);
        if !out.contains("var(") {
            return Some(out);
        }
    }
    None
}

/// The first `var(…)` of a value: where it starts and closes, its name and
/// its fallback. None when it does not close.
pub(super) fn first_var(value: &str) -> Option<(usize, usize, &str, Option<&str>)> {
    let start = value.find("var(")?;
    let inner_start = start + 4;
    let close = matching_paren(value, inner_start)?;
    let inner = &value[inner_start..close];
    let (name, fallback) = match inner.split_once(',') {
        Some((n, f)) => (n.trim(), Some(f.trim())),
        None => (inner.trim(), None),
    };
    Some((start, close, name, fallback))
}

/// Is the block a declaration ends (`before` is what precedes it) a rule
/// for the whole page: its selector `:root`, `html`, `body` or `*`?
fn page_wide(before: &[u8]) -> bool {
    let Some(open) = before.iter().rposition(|&b| matches!(b, b'{' | b'}' | b'"' | b'\'')) else { return false };
    if before[open] != b'{' {
        return false;
    }
    let head = &before[..open];
    let from = head.iter().rposition(|&b| matches!(b, b'}' | b'>' | b';' | b'{')).map_or(0, |i| i + 1);
    let selector = String::from_utf8_lossy(&head[from..]).to_ascii_lowercase();
    selector.split(',').all(|s| matches!(s.trim(), ":root" | "html" | "body" | "*" | "html:root"))
}

/// Where the `)` closing a parenthesis opened before `from` is.
fn matching_paren(s: &str, from: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, b) in s.bytes().enumerate().skip(from) {
        match b {
            b'(' => depth += 1,
            b')' if depth == 0 => return Some(i),
            b')' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// `prop: value [!important]; …` → declarations (relevant ones only),
/// custom properties put in (`var(--bg)`) where the page gives them one
/// value; on a page that declares them per element, the custom properties
/// themselves (`--name`) and the values that use them, as written, for
/// the cascade to put together.
pub(super) fn parse_declarations(block: &str, vars: &Vars) -> Vec<Decl> {
    let block = strip_css_comments(block);
    let mut decls = Vec::new();
    let per_element = vars.per_element();
    // The custom properties, and where each is among them (a block may
    // declare thousands).
    let mut customs: Vec<Decl> = Vec::new();
    let mut custom_at: FastMap<String, usize> = FastMap::default();
    for part in split_top(&block, b';') {
        let Some(colon) = part.find(':') else { continue };
        let name = part[..colon].trim();
        if name.starts_with("--") {
            if per_element && name.len() <= 64 {
                let (value, important) = important_split(part[colon + 1..].trim().to_ascii_lowercase());
                // Blanks run together; a value longer than any that hides
                // is not kept (each use copies it).
                let value = value.split_ascii_whitespace().collect::<Vec<_>>().join(" ");
                if value.len() > MAX_CUSTOM_VALUE {
                    continue;
                }
                let prop = name.to_ascii_lowercase();
                let decl = Decl { id: vars.id(&prop), prop, value: value.into(), important };
                match custom_at.get(&decl.prop) {
                    Some(&i) if customs[i].important && !important => {}
                    Some(&i) => customs[i] = decl,
                    None => {
                        custom_at.insert(decl.prop.clone(), customs.len());
                        customs.push(decl);
                    }
                }
            }
            continue;
        }
        let Some(prop) = relevant_property(name) else { continue };
        let mut value = css_unescape(part[colon + 1..].trim()).into_owned();
        value.make_ascii_lowercase();
        let (mut value, important) = important_split(value);
        let mut checked = true;
        if value.contains("var(") {
            match vars.resolve(&value) {
                VarValue::Put(v) => value = v,
                // A value that cannot be put together is invalid, as a
                // browser finds it at computed-value time: left out.
                VarValue::Invalid => continue,
                // Checked once put together, per element.
                VarValue::PerElement => checked = false,
            }
        }
        // A value a browser cannot parse drops its declaration, so an
        // earlier one stands.
        if !value.is_empty() && (!checked || valid_value(&prop, &value)) {
            // Only the last of a property (of each importance) can decide
            // a value, and the same order of the kept ones gives the same
            // style; the list stays as short as the properties we read.
            if let Some(i) = decls.iter().position(|d: &Decl| d.prop == prop && d.important == important) {
                decls.remove(i);
            }
            decls.push(Decl { prop, id: 0, value: value.into(), important });
        }
    }
    decls.extend(customs);
    decls
}

/// The value of `prop` that hides most, for a value the page made too
/// costly to put together.
pub(super) fn hiding_value(prop: &str) -> Option<&'static str> {
    Some(match prop {
        "display" => "none",
        "visibility" | "content-visibility" => "hidden",
        "opacity" => "0",
        "color" | "-webkit-text-fill-color" => "transparent",
        "font-size" => "0",
        _ => return None,
    })
}

/// A value without its `!important`, and whether it had one.
fn important_split(mut value: String) -> (String, bool) {
    let mut important = false;
    if let Some(bang) = value.rfind('!')
        && value[bang + 1..].trim() == "important"
    {
        important = true;
        value.truncate(bang);
    }
    let trimmed = value.trim_end().len();
    value.truncate(trimmed);
    (value, important)
}

/// A custom property's value as a declaration uses it: each `var(…)` put
/// in by `lookup` (a name's value where the element stands), or its
/// fallback; None when it cannot be put together, or when the result is
/// no value of `prop` a browser keeps.
pub(super) fn put_vars<'a>(prop: &str, value: &str, lookup: impl Fn(&str) -> Option<&'a str>) -> Option<String> {
    substitute(value, lookup).filter(|out| !out.is_empty() && valid_value(prop, out))
}

/// Steps of selector matching a page may take per byte of it (and any page
/// this many more): past them, every rule of a bucket an element falls in
/// that could hide, hides (unsure), so a sheet built to be slow costs time
/// in proportion to the page and never shows what it hides.
const MATCH_STEPS_PER_BYTE: u64 = 1;
const MATCH_STEPS_BASE: u64 = 1 << 16;
/// Selectors kept whole (a framework's sheet has a few thousand). Past them
/// a rule is kept only as what it could hide, for the elements its last
/// compound names (unsure).
const MAX_RULES: usize = 1 << 14;
/// A nested rule's selector longer than this once its parents are put in
/// is read without them (unsure).
const MAX_NESTED_SELECTOR: usize = 4096;
/// Ancestor tokens checked before a selector is matched.
const MAX_ANCESTOR_TOKENS: usize = 4;
/// The cascade layer of rules outside any `@layer` (they win over layers).
const UNLAYERED: u32 = u32::MAX;

/// One selector of a style rule, with the declarations of every rule that
/// has the same selector text under the same conditions.
#[derive(Debug)]
struct Rule {
    sel: Selector,
    /// Tokens ([`token`]) its ancestors must carry.
    ancestors: Vec<u64>,
    layer: u32,
    /// Source position of the latest rule merged in.
    order: usize,
    /// The last value of each property only (shared by the selectors of
    /// one rule until one of them merges another rule in).
    decls: Rc<Vec<Decl>>,
    /// Its custom properties, apart: a rule may declare thousands, which
    /// only a page's budget of them reads.
    customs: Rc<Vec<Decl>>,
}

impl Rule {
    /// Merge declarations in: a later value of a property replaces the
    /// earlier one (and moves to the end, keeping shorthand order).
    fn add_decls(&mut self, decls: &[Decl], customs: &[Decl], order: usize) {
        self.order = order;
        for (mine, new) in [(&mut self.decls, decls), (&mut self.customs, customs)] {
            if new.is_empty() {
                continue;
            }
            let mine = Rc::make_mut(mine);
            // (One pass: a block may hold thousands of custom properties.)
            let keys: FastSet<(&str, bool)> = new.iter().map(|d| (d.prop.as_str(), d.important)).collect();
            mine.retain(|old| !keys.contains(&(old.prop.as_str(), old.important)));
            mine.extend(new.iter().cloned());
        }
    }
}

/// Rules an element falls in, by the most selective part of their subject.
#[derive(Debug, Default)]
struct Bucket {
    rules: Vec<usize>,
    /// What rules past [`MAX_RULES`] for this bucket could hide.
    overflow: Option<HiddenReason>,
    /// What any of its rules could hide (worked out when the matching
    /// budget runs out).
    summary: Option<Option<HiddenReason>>,
}

/// The rules that match an element, in cascade order, and what rules that
/// could not be matched (past a limit) might hide.
#[derive(Debug, Default)]
pub(super) struct Hits {
    pub(super) rules: Vec<(usize, Match)>,
    pub(super) unplaced: Option<HiddenReason>,
}

impl Hits {
    /// Is any answer unsure (so the element has a second, hiding reading)?
    pub(super) fn any_unsure(&self) -> bool {
        self.unplaced.is_some() || self.rules.iter().any(|(_, m)| *m == Match::Unsure)
    }
}

/// The conditions a block of rules is read under.
#[derive(Debug, Clone, Copy)]
struct Ctx {
    nesting: usize,
    layer: u32,
    /// Unsure inside `@scope`, `@container` and the like.
    cap: Match,
}

/// One item of a block: a declaration (or an at-rule statement) or a
/// nested block with its prelude.
enum Item<'a> {
    Decl(&'a str),
    Block(&'a str, &'a str),
}

/// The rules of every `<style>` block, indexed by the most selective part
/// of each selector's subject.
#[derive(Debug, Default)]
pub(super) struct Sheet {
    rules: Vec<Rule>,
    by_key: FastMap<String, usize>,
    index: FastMap<Box<str>, usize>,
    buckets: Vec<Bucket>,
    /// Attribute names its selectors test (kept for each element).
    pub(super) attr_names: FastSet<Box<str>>,
    /// A selector looks at siblings or positions (`+`, `~`, `:nth-child`).
    pub(super) uses_siblings: bool,
    /// A selector needs what comes later (`:last-child`, `:empty`).
    pub(super) uses_after: bool,
    /// The page declares standards mode: classes and ids match by case.
    pub(super) standards: bool,
    rules_seen: usize,
    layers: FastMap<String, u32>,
    budget: u64,
    pub(super) vars: Vars,
    /// The custom properties of rules for every element (`*`), by number,
    /// with their importance: every element declares them itself, so
    /// they are not given to elements one by one.
    pub(super) universal: FastMap<u32, (Rc<str>, bool)>,
}

impl Sheet {
    /// Collect the rules of every `<style>` element. A plain scan: a
    /// `<style>` a browser does not apply (inside a comment, a script, a
    /// `<template>`; not of CSS's type; an alternate) is read too, its
    /// rules unsure: they may hide, never show. A sheet placed after what
    /// it styles still applies, as it does in a browser once the page has
    /// loaded.
    pub(super) fn from_html(html: &[u8]) -> Sheet {
        let mut sheet = Sheet {
            standards: standards_mode(html),
            budget: MATCH_STEPS_BASE + MATCH_STEPS_PER_BYTE * html.len() as u64,
            vars: Vars::from_html(html),
            ..Sheet::default()
        };
        // A sheet a browser may not apply (in a comment, a script, a
        // `<template>` or `<noscript>`; of a type other than CSS; an
        // alternate one; disabled) may hide, never show.
        let mut context = Inert::default();
        let mut titles = Titles::default();
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
            let inert = context.at(html, at - 6);
            context.skip_to(body_end);
            if style_media_applies(start_tag) {
                let tag = String::from_utf8_lossy(start_tag).to_ascii_lowercase();
                // (Exactly: a browser applies `text/css`, not `text/css `.)
                let css_type = start_tag_attr(&tag, "type").is_none_or(|t| matches!(t, "" | "text/css"));
                let doubt = inert || !css_type || titles.alternate(&tag);
                let css = String::from_utf8_lossy(&html[body_start..body_end]);
                let css = strip_css_comments(&css);
                let cap = if doubt { Match::Unsure } else { Match::Yes };
                sheet.add_block(&css, None, Ctx { nesting: 0, layer: UNLAYERED, cap });
            }
            i = body_end;
        }
        // `<link rel="stylesheet" href="data:text/css,…">`, a sheet the page
        // holds itself.
        let mut context = Inert::default();
        let mut i = 0;
        while let Some(off) = find_ci(&html[i..], b"<link") {
            let at = i + off + 5;
            let Some(gt) = html[at..].iter().position(|&b| b == b'>') else { break };
            let tag = String::from_utf8_lossy(&html[at..at + gt]);
            let inert = context.at(html, at - 5);
            if let Some(css) = linked_data_sheet(&tag)
                && style_media_applies(tag.as_bytes())
            {
                let lower = tag.to_ascii_lowercase();
                let alternate = start_tag_attr(&lower, "rel").is_some_and(|r| r.contains("alternate"));
                let doubt =
                    inert || alternate || start_tag_attr(&lower, "disabled").is_some() || titles.alternate(&lower);
                let css = strip_css_comments(&css);
                let cap = if doubt { Match::Unsure } else { Match::Yes };
                sheet.add_block(&css, None, Ctx { nesting: 1, layer: UNLAYERED, cap });
            }
            i = at + gt;
        }
        sheet
    }

    pub(super) fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }

    /// Read a block: its declarations make a rule for `parents` (when it
    /// is a rule's body), then its nested rules and at-rules.
    fn add_block(&mut self, css: &str, parents: Option<&[(String, Match)]>, ctx: Ctx) {
        let items = block_items(css);
        if let Some(parents) = parents {
            let mut text = String::new();
            for item in &items {
                if let Item::Decl(d) = item {
                    text.push_str(d);
                    text.push(';');
                }
            }
            let decls = parse_declarations(&text, &self.vars);
            if !decls.is_empty() {
                self.add_rule(parents, &decls, ctx);
            }
        }
        for item in items {
            let (prelude, body) = match item {
                Item::Block(p, b) => (p, b),
                Item::Decl(d) => {
                    self.statement(d, ctx);
                    continue;
                }
            };
            if ctx.nesting >= MAX_CSS_NESTING {
                continue;
            }
            // `<!--` and `-->` around a sheet are ignored by CSS.
            let prelude = prelude.replace("<!--", " ").replace("-->", " ");
            let prelude = prelude.trim();
            let mut inner = Ctx { nesting: ctx.nesting + 1, ..ctx };
            if let Some(at) = prelude.strip_prefix('@') {
                let name: String = at.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
                let name = name.to_ascii_lowercase();
                let rest = at[name.len()..].trim();
                match name.as_str() {
                    "media" if !media_applies(rest) => continue,
                    "media" => {}
                    "supports" if rest.to_ascii_lowercase().starts_with("not") => inner.cap = Match::Unsure,
                    "supports" => {}
                    "layer" => inner.layer = self.layer(rest, ctx.layer),
                    "scope" | "container" | "document" | "-moz-document" => inner.cap = Match::Unsure,
                    // Keyframes, font faces, pages, starting styles, unknown.
                    _ => continue,
                }
                self.add_block(body, parents, inner);
                continue;
            }
            let selectors = match parents {
                None => split_top(prelude, b',')
                    .into_iter()
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(|s| (s.to_string(), Match::Yes))
                    .collect(),
                Some(p) => nested_selectors(p, prelude),
            };
            if !selectors.is_empty() {
                self.add_block(body, Some(&selectors), inner);
            }
        }
    }

    /// An at-rule statement (`@layer a, b;` orders layers); declarations
    /// outside any rule mean nothing.
    fn statement(&mut self, d: &str, ctx: Ctx) {
        let d = d.trim();
        if let Some(head) = d.get(..6)
            && head.eq_ignore_ascii_case("@layer")
        {
            for name in d[6..].split(',') {
                self.layer(name.trim(), ctx.layer);
            }
        }
        // `@import url("data:text/css;base64,…")`: a sheet the page holds
        // itself (one fetched from elsewhere is not read).
        if let Some(head) = d.get(..7)
            && head.eq_ignore_ascii_case("@import")
            && ctx.nesting < MAX_CSS_NESTING
            && let Some((css, media)) = imported_data_sheet(&d[7..])
            && (media.is_empty() || media_applies(media))
        {
            self.add_block(&strip_css_comments(&css), None, Ctx { nesting: ctx.nesting + 1, ..ctx });
        }
    }

    /// The rank of a layer by name (inside `parent`): layers rank in the
    /// order they are first named; an unnamed one is new each time.
    fn layer(&mut self, name: &str, parent: u32) -> u32 {
        let next = self.layers.len() as u32 + 1;
        if name.is_empty() {
            self.layers.insert(format!("{parent}/#{next}"), next);
            return next;
        }
        *self.layers.entry(format!("{parent}/{name}")).or_insert(next)
    }

    fn add_rule(&mut self, selectors: &[(String, Match)], decls: &[Decl], ctx: Ctx) {
        self.rules_seen += 1;
        let order = self.rules_seen;
        // A browser drops the whole rule when one selector of its list is
        // invalid: one we doubt makes every one of them unsure. (Parsed
        // twice rather than held: a list may be megabytes long.)
        let doubt = selectors.len() > 1
            && selectors.iter().any(|(s, _)| match select::parse(s) {
                Ok(Parsed::Selector(s)) => s.doubt,
                Ok(_) => false,
                Err(()) => true,
            });
        let (customs, decls): (Vec<Decl>, Vec<Decl>) = decls.iter().cloned().partition(|d| d.prop.starts_with("--"));
        let (shared, customs) = (Rc::new(decls), Rc::new(customs));
        for (text, cap) in selectors {
            let mut sel = match select::parse(text) {
                Ok(Parsed::Selector(s)) => s,
                Ok(Parsed::PseudoBox | Parsed::Never) => continue,
                Err(()) => select::approximate(text),
            };
            sel.cap = sel.cap.and(*cap).and(ctx.cap);
            if doubt || sel.doubt {
                sel.cap = sel.cap.and(Match::Unsure);
            }
            // Custom properties of a rule for every element are the page's.
            let customs = if text.trim() == "*" && sel.cap == Match::Yes && !customs.is_empty() {
                for d in customs.iter() {
                    let kept = self.universal.get(&d.id).is_some_and(|(_, important)| *important && !d.important);
                    if !kept {
                        self.universal.insert(d.id, (Rc::clone(&d.value), d.important));
                    }
                }
                Rc::new(Vec::new())
            } else {
                Rc::clone(&customs)
            };
            let key = format!("{}|{:?}|{text}", ctx.layer, sel.cap);
            if let Some(&idx) = self.by_key.get(&key) {
                self.rules[idx].add_decls(&shared, &customs, order);
                continue;
            }
            let mut names = Vec::new();
            sel.complex.attribute_names(&mut names);
            if self.rules.len() >= MAX_RULES {
                if let Some(why) = shared.iter().find_map(could_hide) {
                    let b = self.bucket(bucket_key(&sel.complex));
                    self.buckets[b].overflow.get_or_insert(why);
                    // An element is looked up by the attribute of its bucket.
                    self.attr_names.extend(names.into_iter().take(1));
                }
                continue;
            }
            let bucket = self.bucket(bucket_key(&sel.complex));
            self.attr_names.extend(names);
            self.uses_siblings |= sel.complex.uses_siblings();
            self.uses_after |= sel.complex.uses_after();
            let rule = Rule {
                ancestors: ancestor_tokens(&sel.complex),
                sel,
                layer: ctx.layer,
                order,
                decls: Rc::clone(&shared),
                customs: Rc::clone(&customs),
            };
            let idx = self.rules.len();
            self.by_key.insert(key, idx);
            self.rules.push(rule);
            self.buckets[bucket].rules.push(idx);
        }
    }

    fn bucket(&mut self, key: String) -> usize {
        if let Some(&b) = self.index.get(key.as_str()) {
            return b;
        }
        self.buckets.push(Bucket::default());
        self.index.insert(key.into(), self.buckets.len() - 1);
        self.buckets.len() - 1
    }

    /// The rules that match `subject` (whose node is `node`), in cascade
    /// order. `ancestors` counts the tokens of its ancestors when all of
    /// them are known.
    pub(super) fn matching(
        &mut self,
        tree: &dyn Tree,
        subject: Ref,
        node: &Node,
        ancestors: Option<&AncestorFilter>,
        hits: &mut Hits,
    ) {
        hits.rules.clear();
        hits.unplaced = None;
        if self.buckets.is_empty() {
            return;
        }
        let mut found: Vec<usize> = Vec::new();
        let mut key = String::new();
        let mut look = |key: &str| {
            if let Some(&b) = self.index.get(key) {
                found.push(b);
            }
        };
        if let Some(id) = &node.id {
            key.clear();
            key.push('#');
            key.push_str(&id.to_ascii_lowercase());
            look(&key);
        }
        let lower = node.lower_classes();
        for (i, c) in lower.iter().enumerate() {
            if i > 0 && lower[i - 1] == *c {
                continue;
            }
            key.clear();
            key.push('.');
            key.push_str(c);
            look(&key);
        }
        for (name, _) in node.attrs.iter() {
            key.clear();
            key.push('[');
            key.push_str(name);
            look(&key);
        }
        look(&node.tag);
        look("*");
        let Sheet { rules, buckets, budget, standards, .. } = self;
        for b in found {
            let bucket = &mut buckets[b];
            hits.unplaced = hits.unplaced.or(bucket.overflow);
            for &r in &bucket.rules {
                if *budget == 0 {
                    let summary = *bucket.summary.get_or_insert_with(|| {
                        bucket.rules.iter().find_map(|&r| rules[r].decls.iter().find_map(could_hide))
                    });
                    hits.unplaced = hits.unplaced.or(summary);
                    break;
                }
                *budget -= 1;
                let rule = &rules[r];
                if let Some(anc) = ancestors
                    && !rule.ancestors.iter().all(|&t| anc.maybe(t))
                {
                    continue;
                }
                let mut m = Matcher { tree, standards: *standards, steps: 0 };
                let got = m.matches(&rule.sel.complex, subject).and(rule.sel.cap);
                *budget = budget.saturating_sub(u64::from(m.steps));
                if got != Match::No {
                    hits.rules.push((r, got));
                }
            }
        }
        hits.rules.sort_by_key(|&(r, _)| (rules[r].layer, rules[r].sel.specificity, rules[r].order));
    }

    /// Apply the matching rules and the inline declarations in cascade
    /// order: sheet, inline, sheet `!important` (layers reversed), inline
    /// `!important`. `unsure` counts the rules we are not sure match.
    pub(super) fn cascade<'s>(
        &'s self,
        hits: &Hits,
        unsure: bool,
        inline: Option<&'s [Decl]>,
        mut apply: impl FnMut(&'s Decl),
    ) {
        self.walk(hits, unsure, inline, false, |d| {
            apply(d);
            true
        });
    }

    /// The custom properties of the rules that surely match and of the
    /// inline declarations, in cascade order, each visit taken from
    /// `budget` (none once it is spent).
    pub(super) fn cascade_customs<'s>(
        &'s self,
        hits: &Hits,
        inline: Option<&'s [Decl]>,
        budget: &mut u64,
        mut apply: impl FnMut(&'s Decl),
    ) {
        // (A rule we are not sure matches gives none: `restores`.)
        self.walk(hits, false, inline, true, |d| {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            apply(d);
            true
        });
    }

    /// The declarations (or, `customs`, the custom properties) of the
    /// matching rules and the inline ones in cascade order, until `apply`
    /// says stop.
    fn walk<'s>(
        &'s self,
        hits: &Hits,
        unsure: bool,
        inline: Option<&'s [Decl]>,
        customs: bool,
        mut apply: impl FnMut(&'s Decl) -> bool,
    ) {
        let take = |m: Match| m == Match::Yes || unsure;
        // A rule we are not sure matches may hide, never show again.
        let applies = |m: Match, d: &Decl| m == Match::Yes || !restores(d);
        let list = |r: usize| if customs { &self.rules[r].customs } else { &self.rules[r].decls };
        let inline = || inline.unwrap_or(&[]).iter().filter(move |d| d.prop.starts_with("--") == customs);
        let mut important = false;
        for &(r, m) in hits.rules.iter().filter(|(_, m)| take(*m)) {
            for d in list(r).iter().filter(|d| applies(m, d)) {
                if d.important {
                    important = true;
                } else if !apply(d) {
                    return;
                }
            }
        }
        for d in inline().filter(|d| !d.important) {
            if !apply(d) {
                return;
            }
        }
        if important {
            let mut imp: Vec<(usize, Match)> = hits.rules.iter().filter(|(_, m)| take(*m)).copied().collect();
            imp.sort_by_key(|&(r, _)| {
                (UNLAYERED - self.rules[r].layer, self.rules[r].sel.specificity, self.rules[r].order)
            });
            for (r, m) in imp {
                for d in list(r).iter().filter(|d| d.important && applies(m, d)) {
                    if !apply(d) {
                        return;
                    }
                }
            }
        }
        for d in inline().filter(|d| d.important) {
            if !apply(d) {
                return;
            }
        }
    }
}

/// The items of a block at its top level.
fn block_items(css: &str) -> Vec<Item<'_>> {
    let b = css.as_bytes();
    let (mut i, mut start, mut depth, mut quote) = (0, 0, 0usize, 0u8);
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i];
        if c == b'\\' {
            i += 2;
            continue;
        }
        if quote != 0 {
            if c == quote || c == b'\n' {
                quote = 0;
            }
        } else {
            match c {
                b'"' | b'\'' => quote = c,
                b'(' => depth += 1,
                b')' => depth = depth.saturating_sub(1),
                b';' if depth == 0 => {
                    out.push(Item::Decl(&css[start..i]));
                    start = i + 1;
                }
                b'{' => {
                    let close = matching_brace(b, i + 1);
                    out.push(Item::Block(&css[start..i], &css[i + 1..close]));
                    i = close + 1;
                    start = i;
                    depth = 0;
                    continue;
                }
                b'}' => start = i + 1,
                _ => {}
            }
        }
        i += 1;
    }
    if start < b.len() {
        out.push(Item::Decl(&css[start..]));
    }
    out
}

/// A nested rule's selectors with its parents put in: `&` stands for them
/// (as `:is(…)`), and a selector without `&` is their descendant.
fn nested_selectors(parents: &[(String, Match)], prelude: &str) -> Vec<(String, Match)> {
    let list: Vec<&str> = parents.iter().map(|(s, _)| s.as_str()).collect();
    let is = format!(":is({})", list.join(", "));
    let cap = parents.iter().map(|(_, m)| *m).min().unwrap_or(Match::Yes);
    let mut out = Vec::new();
    for n in split_top(prelude, b',') {
        let n = n.trim();
        if n.is_empty() {
            continue;
        }
        let amps = n.bytes().filter(|&b| b == b'&').count().max(1);
        if n.len() + amps * is.len() > MAX_NESTED_SELECTOR {
            // Too long to read with its parents: read alone, unsure (it
            // matches at least what it would with them).
            out.push((n.replace('&', "*"), Match::Unsure));
        } else if n.contains('&') {
            out.push((n.replace('&', &is), cap));
        } else {
            out.push((format!("{is} {n}"), cap));
        }
    }
    out
}

/// The bucket of a selector: its subject's id, else a class, else an
/// attribute name, else its tag, else the universal bucket.
fn bucket_key(c: &Complex) -> String {
    let Some(s) = c.compounds.first() else { return "*".into() };
    if let Some(id) = s.ids.first() {
        format!("#{}", id.to_ascii_lowercase())
    } else if let Some(class) = s.classes.first() {
        format!(".{}", class.to_ascii_lowercase())
    } else if let Some(a) = s.attrs.first() {
        format!("[{}", a.name)
    } else if let Some(t) = &s.tag {
        t.to_string()
    } else {
        "*".into()
    }
}

/// The tokens of the open elements, as a counting Bloom filter: two of
/// 4,096 counters per token, bumped as an element opens and lowered as it
/// closes. "Maybe there" is the quick test before a selector is matched
/// (a hash map's lookups were most of matching's time); a false "maybe"
/// only costs the full match.
#[derive(Debug)]
pub(super) struct AncestorFilter(Box<[u32; FILTER_SLOTS]>);

const FILTER_SLOTS: usize = 4096;

impl Default for AncestorFilter {
    fn default() -> AncestorFilter {
        AncestorFilter(Box::new([0; FILTER_SLOTS]))
    }
}

impl AncestorFilter {
    fn slots(t: u64) -> [usize; 2] {
        let m = t.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        [(m >> 52) as usize % FILTER_SLOTS, (m >> 36) as usize % FILTER_SLOTS]
    }

    pub(super) fn add(&mut self, t: u64) {
        for s in Self::slots(t) {
            self.0[s] += 1;
        }
    }

    pub(super) fn remove(&mut self, t: u64) {
        for s in Self::slots(t) {
            self.0[s] = self.0[s].saturating_sub(1);
        }
    }

    fn maybe(&self, t: u64) -> bool {
        Self::slots(t).iter().all(|&s| self.0[s] > 0)
    }
}

/// A tag, class or id as a number, case folded (`kind` is b't', b'.' or b'#').
pub(super) fn token(kind: u8, name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ u64::from(kind);
    for b in name.bytes() {
        h ^= u64::from(b.to_ascii_lowercase());
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Tokens of the compounds that must be ancestors of the subject (those
/// joined to their right by a descendant or child combinator).
fn ancestor_tokens(c: &Complex) -> Vec<u64> {
    let mut out = Vec::new();
    for (j, comp) in c.compounds.iter().enumerate().skip(1) {
        if !matches!(c.combs[j - 1], Comb::Descendant | Comb::Child) {
            continue;
        }
        let tokens = comp
            .tag
            .iter()
            .map(|t| token(b't', t))
            .chain(comp.ids.iter().map(|i| token(b'#', i)))
            .chain(comp.classes.iter().map(|c| token(b'.', c)));
        for t in tokens {
            if out.len() < MAX_ANCESTOR_TOKENS && !out.contains(&t) {
                out.push(t);
            }
        }
    }
    out
}

/// What a declaration could hide, whatever else applies (for rules that
/// could not be matched: past a limit, every one that could hide does).
fn could_hide(d: &Decl) -> Option<HiddenReason> {
    let v = &*d.value;
    let word = first_word(v);
    let far = |v: &str| {
        v.split_ascii_whitespace().any(|t| length_px(t, DEFAULT_FONT_PX).is_some_and(|px| px <= -OFFSCREEN_PX))
    };
    let tiny = |v: &str| length_px(v, DEFAULT_FONT_PX).is_some_and(|px| px <= 1.0);
    let small_scale = |v: &str| scale_factor(v).is_some_and(|s| s * DEFAULT_FONT_PX < MIN_READABLE_FONT_PX);
    let why = match d.prop.as_str() {
        "display" if word == "none" => HiddenReason::DisplayNone,
        "content-visibility" if word == "hidden" => HiddenReason::DisplayNone,
        "visibility" if matches!(word, "hidden" | "collapse") => HiddenReason::VisibilityHidden,
        "opacity" if number_or_percent(v).is_some_and(|o| o <= MAX_HIDDEN_OPACITY) => HiddenReason::Opacity,
        "filter" | "-webkit-filter" if filter_hides(v) => HiddenReason::Opacity,
        "filter" | "-webkit-filter" if filter_blurs(v) => HiddenReason::Blurred,
        // (What a filter or a blending does to a colour may hide it.)
        "filter" | "-webkit-filter" if Tone::of_filter(v) != Tone::SAME => HiddenReason::Colour,
        "mix-blend-mode" if word != "normal" => HiddenReason::Colour,
        "font-size" | "font"
            if font_shorthand_size(v)
                .or(Some(v))
                .and_then(|s| font_size_px(s, DEFAULT_FONT_PX))
                .is_some_and(|px| px < MIN_READABLE_FONT_PX) =>
        {
            HiddenReason::FontSize
        }
        "color" | "-webkit-text-fill-color" | "fill" | "fill-opacity" | "background" | "background-color" => {
            HiddenReason::Colour
        }
        "left" | "top" | "right" | "inset" | "margin" | "margin-left" | "margin-top" | "text-indent" if far(v) => {
            HiddenReason::Offscreen
        }
        "width" | "height" | "max-width" | "max-height" if tiny(v) => HiddenReason::ZeroSize,
        "clip" if clip_hides(v) => HiddenReason::Clip,
        "clip-path" | "-webkit-clip-path" if clip_path_hides(v) => HiddenReason::Clip,
        "transform" | "-webkit-transform" | "-ms-transform" => {
            let m = transform_list(v, None);
            let small = m.shrink() * DEFAULT_FONT_PX < MIN_READABLE_FONT_PX;
            return m.hides().or(small.then_some(HiddenReason::Transform));
        }
        "scale" | "zoom" if small_scale(v) => HiddenReason::Transform,
        "translate" | "rotate" => {
            let mut style = Style::default();
            style.set(&d.prop, d.value.clone());
            return placement(&style, None).hides();
        }
        _ => return None,
    };
    Some(why)
}

/// Does a declaration only ever make text easier to see (`display:block`,
/// `visibility:visible`, a readable size)? Such a value from a rule we are
/// not sure matches is not applied.
fn restores(d: &Decl) -> bool {
    let v = &*d.value;
    let word = first_word(v);
    let not_tiny =
        |v: &str| length_px(v, DEFAULT_FONT_PX).is_some_and(|px| px > 1.0) || word == "auto" || word == "none";
    match d.prop.as_str() {
        // (A custom property may show as well as hide.)
        p if p.starts_with("--") => true,
        "display" => word != "none",
        "content-visibility" => word != "hidden",
        "visibility" => word == "visible",
        "opacity" => number_or_percent(v).is_some_and(|o| o >= 1.0),
        "filter" | "-webkit-filter" => word == "none",
        "mix-blend-mode" => word == "normal",
        "overflow" | "overflow-x" | "overflow-y" => matches!(word, "visible" | "auto" | "scroll"),
        "position" => word == "static",
        "z-index" => word == "auto" || word.parse::<i64>().is_ok_and(|z| z >= 0),
        "transform" | "-webkit-transform" | "-ms-transform" | "translate" | "rotate" => word == "none",
        "scale" | "zoom" => word == "none" || scale_factor(v).is_some_and(|f| f >= 1.0),
        "clip" => word == "auto",
        "clip-path" | "-webkit-clip-path" => word == "none",
        "font-size" => font_size_px(v, DEFAULT_FONT_PX).is_some_and(|px| px >= DEFAULT_FONT_PX),
        "width" | "height" | "max-width" | "max-height" => not_tiny(v),
        "left" | "top" | "right" | "margin-left" | "margin-top" | "text-indent" => {
            length_px(v, DEFAULT_FONT_PX).is_some_and(|px| px > -OFFSCREEN_PX) || word == "auto"
        }
        _ => false,
    }
}

/// Is the page in standards mode (`<!DOCTYPE html>` and the strict
/// doctypes)? Otherwise (no doctype, or an old one) it may be in quirks
/// mode, where classes and ids match ignoring case.
fn standards_mode(html: &[u8]) -> bool {
    let head = &html[..html.len().min(4096)];
    let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    let mut rest = head;
    loop {
        let trimmed = rest.iter().position(|b| !b.is_ascii_whitespace()).map_or(&rest[rest.len()..], |p| &rest[p..]);
        if trimmed.starts_with(b"<!--") {
            match memchr::memmem::find(trimmed, b"-->") {
                Some(end) => rest = &trimmed[end + 3..],
                None => return false,
            }
            continue;
        }
        rest = trimmed;
        break;
    }
    if rest.len() < 9 || !rest[..9].eq_ignore_ascii_case(b"<!doctype") {
        return false;
    }
    let end = rest.iter().position(|&b| b == b'>').unwrap_or(rest.len());
    let doctype = String::from_utf8_lossy(&rest[9..end]).to_ascii_lowercase();
    let words: Vec<&str> = doctype.split_ascii_whitespace().collect();
    words == ["html"]
        || doctype.contains("about:legacy-compat")
        || doctype.contains("strict")
        || doctype.contains("xhtml 1.1")
        || (doctype.contains("transitional") && doctype.contains("http://www.w3.org/tr/"))
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

/// Does a media query list apply on a desktop screen (1000 px wide) in
/// light mode? Print, speech, dark mode and narrow (phone) layouts do not;
/// `not` turns a query round.
fn media_applies(query: &str) -> bool {
    let q = query.to_ascii_lowercase();
    split_top(&q, b',').into_iter().any(|one| media_query_applies(one.trim()))
}

fn media_query_applies(q: &str) -> bool {
    let (negate, q) = match q.strip_prefix("not ") {
        Some(rest) => (true, rest.trim_start()),
        None => (false, q),
    };
    let q = q.strip_prefix("only ").map_or(q, str::trim_start);
    let mut applies = true;
    if !q.is_empty() && !q.starts_with('(') {
        let kind = q.split(|c: char| c.is_ascii_whitespace() || c == '(').next().unwrap_or("");
        applies = matches!(kind, "all" | "screen");
    }
    // Each `(feature: value)` at the top level.
    let mut rest = q;
    while let Some(open) = rest.find('(') {
        let close = rest[open..].find(')').map_or(rest.len(), |c| open + c);
        let feature = &rest[open + 1..close];
        rest = rest.get(close + 1..).unwrap_or("");
        let (name, value) = feature.split_once(':').unwrap_or((feature, ""));
        let (name, value) = (name.trim(), value.trim());
        let px = || length_px(value, DEFAULT_FONT_PX);
        applies &= match name {
            "prefers-color-scheme" => value != "dark",
            "max-width" | "max-device-width" => px().is_none_or(|px| px >= OFFSCREEN_PX),
            "min-width" | "min-device-width" => px().is_none_or(|px| px <= OFFSCREEN_PX),
            _ => true,
        };
    }
    applies != negate
}

/// The text of a `data:text/css` link (base64 or percent-encoded).
fn data_sheet(url: &str) -> Option<String> {
    let url = url.trim();
    let rest = url.get(..5).filter(|h| h.eq_ignore_ascii_case("data:")).map(|_| &url[5..])?;
    let (head, payload) = rest.split_once(',')?;
    let mut params = head.split(';');
    if !params.next()?.trim().eq_ignore_ascii_case("text/css") {
        return None;
    }
    // Percent escapes first (`%3D` in base64 too), then base64 as
    // leniently as a browser reads it.
    let payload: Vec<u8> = percent_encoding::percent_decode_str(payload).collect();
    let bytes = if params.any(|p| p.trim().eq_ignore_ascii_case("base64")) {
        use base64::Engine;
        use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
        let cfg = GeneralPurposeConfig::new()
            .with_decode_padding_mode(DecodePaddingMode::Indifferent)
            .with_decode_allow_trailing_bits(true);
        let clean: Vec<u8> = payload.into_iter().filter(|c| !c.is_ascii_whitespace()).collect();
        let clean = clean.strip_suffix(b"==").or_else(|| clean.strip_suffix(b"=")).unwrap_or(&clean);
        GeneralPurpose::new(&base64::alphabet::STANDARD, cfg).decode(clean).ok()?
    } else {
        payload
    };
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// What follows `@import`: a `data:` sheet's text, and the media query
/// after it (empty when none).
fn imported_data_sheet(rest: &str) -> Option<(String, &str)> {
    let rest = rest.trim_start();
    // A quoted string, alone or in `url( … )`, ends at its quote (a `)`
    // inside it is the sheet's); an unquoted `url(` at the first `)`.
    let quoted = |r: &str| -> Option<(usize, usize)> {
        let quote = r.chars().next().filter(|c| matches!(c, '"' | '\''))?;
        Some((1, 1 + r[1..].find(quote)?))
    };
    let (url, after) = if let Some(r) = rest.get(..4).filter(|h| h.eq_ignore_ascii_case("url(")).map(|_| &rest[4..]) {
        let r = r.trim_start();
        match quoted(r) {
            Some((from, to)) => (&r[from..to], r[to + 1..].trim_start().strip_prefix(')')?),
            None => {
                let close = r.find(')')?;
                (r[..close].trim(), &r[close + 1..])
            }
        }
    } else {
        let (from, to) = quoted(rest)?;
        (&rest[from..to], &rest[to + 1..])
    };
    // `layer(…)` and `supports(…)` before the media: the sheet applies in
    // its layer, and under a condition the gate cannot test as if it held
    // (it can only hide more).
    let mut media = after.trim().trim_end_matches(';').trim();
    for f in ["layer", "supports"] {
        if media.get(..f.len()).is_some_and(|h| h.eq_ignore_ascii_case(f)) {
            let r = &media[f.len()..];
            media = if let Some(inner) = r.strip_prefix('(') {
                let mut depth = 1usize;
                let end = inner.char_indices().find_map(|(i, c)| {
                    match c {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    (depth == 0).then_some(i)
                });
                end.map_or("", |e| inner[e + 1..].trim())
            } else if r.is_empty() || r.starts_with(char::is_whitespace) {
                r.trim()
            } else {
                media
            };
        }
    }
    Some((data_sheet(url)?, media))
}

/// A `<link>` start tag (after `<link`) that is a style sheet whose
/// `href` is a `data:` link: its text.
fn linked_data_sheet(tag: &str) -> Option<String> {
    let lower = tag.to_ascii_lowercase();
    if !lower.contains("stylesheet") {
        return None;
    }
    // `href` as an attribute of its own (not `hreflang`, `data-href`).
    let pos = lower.match_indices("href").map(|(p, _)| p).find(|&p| {
        lower[..p].ends_with(|c: char| c.is_ascii_whitespace() || c == '/' || c == '"' || c == '\'')
            && lower[p + 4..].trim_start().starts_with('=')
    })?;
    let v = tag[pos + 4..].trim_start().strip_prefix('=')?.trim_start();
    let v = match v.chars().next()? {
        q @ ('"' | '\'') => &v[1..1 + v[1..].find(q)?],
        _ => v.split(|c: char| c.is_ascii_whitespace() || c == '>').next()?,
    };
    let mut url = String::new();
    crate::html::decode_entities(v, true, &mut url);
    data_sheet(&url)
}

/// Where a plain scan of a page stands: in a comment, a script or another
/// element whose content is text (`<title>`, `<textarea>`, `<xmp>`,
/// `<iframe>`…), a `<template>` or `<noscript>`, whose style sheets a
/// browser does not apply to the page. Moves forward only (linear over a
/// page).
#[derive(Default)]
struct Inert {
    pos: usize,
    comment: bool,
    /// Inside an element whose content is text, until this end tag.
    raw: Option<&'static [u8]>,
    noscript: bool,
    templates: usize,
}

impl Inert {
    /// Is `to` inside such a place?
    fn at(&mut self, html: &[u8], to: usize) -> bool {
        while self.pos < to {
            let rest = &html[self.pos..to];
            if self.comment {
                match memchr::memmem::find(rest, b"-->") {
                    Some(o) => (self.pos, self.comment) = (self.pos + o + 3, false),
                    None => self.pos = to,
                }
                continue;
            }
            if let Some(end) = self.raw {
                match find_ci(rest, end) {
                    Some(o) => (self.pos, self.raw) = (self.pos + o + end.len(), None),
                    None => self.pos = to,
                }
                continue;
            }
            let Some(o) = memchr::memchr(b'<', rest) else {
                self.pos = to;
                break;
            };
            let tag = &html[self.pos + o + 1..];
            let starts = |name: &[u8]| {
                tag.len() > name.len()
                    && tag[..name.len()].eq_ignore_ascii_case(name)
                    && !tag[name.len()].is_ascii_alphanumeric()
            };
            self.pos += o + 1;
            const RAW: [(&[u8], &[u8]); 8] = [
                (b"script", b"</script"),
                (b"title", b"</title"),
                (b"textarea", b"</textarea"),
                (b"xmp", b"</xmp"),
                (b"iframe", b"</iframe"),
                (b"noembed", b"</noembed"),
                (b"noframes", b"</noframes"),
                (b"plaintext", b"\0\0never"),
            ];
            if tag.starts_with(b"!--") {
                (self.pos, self.comment) = (self.pos + 3, true);
            } else if let Some(&(_, end)) = RAW.iter().find(|(name, _)| starts(name)) {
                self.raw = Some(end);
            } else if starts(b"noscript") {
                self.noscript = true;
            } else if starts(b"/noscript") {
                self.noscript = false;
            } else if starts(b"template") {
                self.templates += 1;
            } else if starts(b"/template") {
                self.templates = self.templates.saturating_sub(1);
            }
        }
        self.comment || self.raw.is_some() || self.noscript || self.templates > 0
    }

    /// Go on past a sheet's body (no markup is read inside it).
    fn skip_to(&mut self, to: usize) {
        self.pos = self.pos.max(to);
    }
}

/// The sheets' titles: the first titled sheet names the preferred set; a
/// sheet titled otherwise is an alternate, which a browser does not apply.
#[derive(Default)]
struct Titles {
    preferred: Option<String>,
}

impl Titles {
    fn alternate(&mut self, lower_tag: &str) -> bool {
        let Some(title) = start_tag_attr(lower_tag, "title").map(str::trim).filter(|t| !t.is_empty()) else {
            return false;
        };
        match &self.preferred {
            Some(p) => p != title,
            None => {
                self.preferred = Some(title.to_string());
                false
            }
        }
    }
}

/// The value of the attribute `name` in a start tag's text (lowercased),
/// or "" when it stands without one.
fn start_tag_attr<'a>(lower: &'a str, name: &str) -> Option<&'a str> {
    let boundary = |c: char| c.is_ascii_whitespace() || matches!(c, '/' | '"' | '\'');
    let pos = lower.match_indices(name).map(|(p, _)| p).find(|&p| {
        (p == 0 || lower[..p].ends_with(boundary))
            && lower[p + name.len()..]
                .chars()
                .next()
                .is_none_or(|c| c.is_ascii_whitespace() || matches!(c, '=' | '/' | '>'))
    })?;
    let Some(v) = lower[pos + name.len()..].trim_start().strip_prefix('=') else { return Some("") };
    let v = v.trim_start();
    Some(match v.chars().next() {
        Some(q @ ('"' | '\'')) => v[1..].split(q).next().unwrap_or(""),
        _ => v.split(|c: char| c.is_ascii_whitespace() || c == '>').next().unwrap_or(""),
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn css_helpers() {
        assert_eq!(css_unescape(r"dis\70 lay"), "display");
        assert_eq!(css_unescape(r"\64isplay"), "display");
        assert_eq!(css_unescape(r"no\6e e"), "none");
        assert_eq!(css_unescape(r"a\:b"), "a:b");
    }
}
