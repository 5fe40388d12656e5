//! Colours: CSS colour values parsed to RGBA, the background an element
//! paints, and how close text may come to it before it is lost.

use super::DEFAULT_FONT_PX;
use super::css::{Style, split_top};
use super::values::{length_px, number_or_percent};

/// Euclidean RGB distance under which text is lost in its background.
pub(super) const NEAR_COLOUR_DISTANCE: f64 = 30.0;
/// Luminance contrast (WCAG's ratio, 1 to 21) under which text is lost in
/// its background however far apart the hues: yellow on white is 1.07,
/// `#eee` on white 1.16, `#ddd` 1.35.
pub(super) const MIN_CONTRAST: f64 = 1.15;
/// Text this transparent is invisible on any background.
pub(super) const MAX_HIDDEN_ALPHA: f64 = 0.1;

/// Is `v`, a CSS colour value (`transparent`, `#fff`, `snow`,
/// `rgb(255 255 255 / 0.5)`), lost as text on white: all but transparent,
/// or too close to white to read? (Math a page draws with KaTeX or
/// MathJax takes CSS colours: `$\color{#fff}{…}$`.)
pub(crate) fn lost_on_white(v: &str) -> bool {
    parse_colour_or(v.trim(), BLACK)
        .is_some_and(|c| c.a <= MAX_HIDDEN_ALPHA || c.over(WHITE).contrast(WHITE) < MIN_CONTRAST)
}

/// An RGB colour with alpha, components 0..=255 and alpha 0..=1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Rgba {
    r: f64,
    g: f64,
    b: f64,
    pub(super) a: f64,
}

pub(super) const BLACK: Rgba = Rgba { r: 0.0, g: 0.0, b: 0.0, a: 1.0 };
pub(super) const WHITE: Rgba = Rgba { r: 255.0, g: 255.0, b: 255.0, a: 1.0 };

impl Rgba {
    fn rgb(r: u32, g: u32, b: u32) -> Rgba {
        Rgba { r: r as f64, g: g as f64, b: b as f64, a: 1.0 }
    }

    /// This colour painted over an opaque `under`.
    pub(super) fn over(self, under: Rgba) -> Rgba {
        let a = self.a.clamp(0.0, 1.0);
        Rgba {
            r: self.r * a + under.r * (1.0 - a),
            g: self.g * a + under.g * (1.0 - a),
            b: self.b * a + under.b * (1.0 - a),
            a: 1.0,
        }
    }

    pub(super) fn distance(self, other: Rgba) -> f64 {
        ((self.r - other.r).powi(2) + (self.g - other.g).powi(2) + (self.b - other.b).powi(2)).sqrt()
    }

    /// Relative luminance of the (opaque) colour, 0 to 1.
    fn luminance(self) -> f64 {
        let lin = |c: f64| {
            let c = (c / 255.0).clamp(0.0, 1.0);
            if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
        };
        0.2126 * lin(self.r) + 0.7152 * lin(self.g) + 0.0722 * lin(self.b)
    }

    /// The contrast ratio of two opaque colours, 1 (none) to 21.
    pub(super) fn contrast(self, other: Rgba) -> f64 {
        let (a, b) = (self.luminance(), other.luminance());
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }
}

/// The opaque colour behind an element, from its background and its
/// parent's. A gradient of one colour (`linear-gradient(#fff, #fff)`, the
/// way mail keeps a client's dark mode from turning a box) is that colour;
/// an image or a gradient of several is no colour (`None`).
pub(super) fn background(style: &Style, parent: Option<Rgba>) -> Option<Rgba> {
    let under = painted(style, parent);
    // An inset shadow of a wide spread paints over the background, under
    // the text (`box-shadow: inset 0 0 0 999px #000`).
    match style.box_shadow.as_deref().and_then(inset_fill) {
        Some(fill) if fill.a >= 0.99 => Some(fill),
        Some(fill) => under.map(|u| fill.over(u)),
        None => under,
    }
}

/// An inset shadow spread this far (CSS pixels) fills a line of text's box.
const FILLING_SPREAD_PX: f64 = 50.0;

/// The colour of the last inset shadow that fills the box, if any.
fn inset_fill(v: &str) -> Option<Rgba> {
    split_top(v, b',').into_iter().rev().find_map(|shadow| {
        let tokens: Vec<&str> =
            split_top(shadow.trim(), b' ').into_iter().map(str::trim).filter(|t| !t.is_empty()).collect();
        if !tokens.iter().any(|t| t.eq_ignore_ascii_case("inset")) {
            return None;
        }
        let lengths: Vec<f64> = tokens.iter().filter_map(|t| length_px(t, DEFAULT_FONT_PX)).collect();
        let colour =
            tokens.iter().find_map(|t| parse_colour_or(t, BLACK).filter(|_| length_px(t, DEFAULT_FONT_PX).is_none()));
        (lengths.get(3).is_some_and(|s| *s >= FILLING_SPREAD_PX)).then(|| colour.unwrap_or(BLACK))
    })
}

/// What is drawn around a text's glyphs in a colour of its own: a
/// `-webkit-text-stroke` (its colour, else the text's), a `text-shadow` or
/// a `drop-shadow()` (the last one given); and whether it shows beside the
/// glyphs (an offset, a blur or a stroke of a pixel or so) or only where
/// the glyphs let it through (a shadow right under them).
pub(super) fn glyph_outline(style: &Style, text: Rgba) -> Option<(Rgba, bool)> {
    let colour_of = |tokens: &[&str]| {
        tokens.iter().find_map(|t| parse_colour_or(t, text).filter(|_| length_px(t, DEFAULT_FONT_PX).is_none()))
    };
    let shadow = |v: &str| {
        let tokens: Vec<&str> =
            split_top(v.trim(), b' ').into_iter().map(str::trim).filter(|t| !t.is_empty()).collect();
        let lengths: Vec<f64> = tokens.iter().filter_map(|t| length_px(t, DEFAULT_FONT_PX)).collect();
        let beside = lengths.iter().take(3).any(|l| l.abs() >= 1.0);
        (lengths.len() >= 2).then(|| (colour_of(&tokens).unwrap_or(text), beside))
    };
    let stroke = style.text_stroke.as_deref().and_then(|v| {
        let tokens: Vec<&str> = v.split_ascii_whitespace().collect();
        let width = tokens.iter().find_map(|t| match *t {
            "thin" => Some(1.0),
            "medium" => Some(3.0),
            "thick" => Some(5.0),
            _ => length_px(t, DEFAULT_FONT_PX),
        })?;
        (width >= 0.5).then(|| (colour_of(&tokens).unwrap_or(text), true))
    });
    let drop = style.filter.as_deref().and_then(|v| {
        super::values::functions(v)
            .filter(|(name, _)| name.eq_ignore_ascii_case("drop-shadow"))
            .filter_map(|(_, a)| shadow(a))
            .last()
    });
    let text_shadow = style.text_shadow.as_deref().and_then(|v| split_top(v, b',').into_iter().rev().find_map(shadow));
    stroke.or(text_shadow).or(drop)
}

/// The background's own colour over the parent's.
fn painted(style: &Style, parent: Option<Rgba>) -> Option<Rgba> {
    let image = |v: &str| v.contains("url(") || v.contains("gradient(") || v.contains("image-set(");
    if let Some(v) = style.background_image.as_deref().filter(|v| image(v)) {
        return one_colour_gradient(v).map(|c| c.over(parent.unwrap_or(WHITE)));
    }
    let Some(v) = style.background.as_deref() else { return parent };
    if image(v) {
        return one_colour_gradient(v).map(|c| c.over(parent.unwrap_or(WHITE)));
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

/// The colour of a value whose only image is a gradient whose stops are
/// all one colour (within [`NEAR_COLOUR_DISTANCE`]), drawn opaque.
fn one_colour_gradient(v: &str) -> Option<Rgba> {
    if v.contains("url(") || v.contains("image-set(") {
        return None;
    }
    let mut first: Option<Rgba> = None;
    let mut rest = v;
    while let Some(at) = rest.find("gradient(") {
        let inner = &rest[at + "gradient(".len()..];
        let mut depth = 1usize;
        let end = inner.bytes().position(|b| {
            match b {
                b'(' => depth += 1,
                b')' => depth -= 1,
                _ => {}
            }
            depth == 0
        })?;
        for part in split_top(&inner[..end], b',') {
            // A stop is a colour and positions; the first part may be a
            // direction (`to right`, `45deg`, `circle at top`).
            let Some(c) = split_top(part.trim(), b' ').into_iter().find_map(|t| parse_colour_or(t.trim(), BLACK))
            else {
                continue;
            };
            if c.a < 0.99 {
                return None;
            }
            match first {
                None => first = Some(c),
                Some(f) if f.distance(c) < NEAR_COLOUR_DISTANCE => {}
                Some(_) => return None,
            }
        }
        rest = &inner[end..];
    }
    first
}

/// What a `filter` does to every colour drawn inside, a channel (0 to 1)
/// at a time: `clamp(k·x + d, lo, hi)`. `brightness()`, `contrast()` and
/// `invert()` are of that shape, and so is any chain of them (`contrast(0)
/// brightness(2)` turns all to white). Filters that move hues
/// (`grayscale()`, `hue-rotate()`…) and SVG filters are not read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Tone {
    k: f64,
    d: f64,
    lo: f64,
    hi: f64,
}

impl Tone {
    pub(super) const SAME: Tone = Tone { k: 1.0, d: 0.0, lo: 0.0, hi: 1.0 };

    /// The chain of a `filter` value, first function first.
    pub(super) fn of_filter(v: &str) -> Tone {
        let mut tone = Tone::SAME;
        for (name, args) in super::values::functions(v) {
            let amount = || super::values::number(args.trim()).filter(|n| *n >= 0.0);
            let step = match name.to_ascii_lowercase().as_str() {
                "brightness" => amount().map(|b| (b, 0.0)),
                "contrast" => amount().map(|c| (c, 0.5 - 0.5 * c)),
                "invert" => amount().map(|a| a.min(1.0)).map(|a| (1.0 - 2.0 * a, a)),
                _ => None,
            };
            if let Some((k, d)) = step {
                tone = Tone { k, d, lo: 0.0, hi: 1.0 }.after(tone);
            }
        }
        tone
    }

    /// `self` applied to what `first` gives.
    pub(super) fn after(self, first: Tone) -> Tone {
        let (a, b) = (self.k * first.lo + self.d, self.k * first.hi + self.d);
        Tone {
            k: self.k * first.k,
            d: self.k * first.d + self.d,
            lo: a.min(b).max(self.lo).min(self.hi),
            hi: a.max(b).min(self.hi).max(self.lo),
        }
    }

    pub(super) fn apply(self, c: Rgba) -> Rgba {
        let f = |x: f64| (self.k * x / 255.0 + self.d).clamp(self.lo, self.hi) * 255.0;
        Rgba { r: f(c.r), g: f(c.g), b: f(c.b), a: c.a }
    }
}

/// A `mix-blend-mode` that changes how text meets what is behind it (the
/// separable modes; `hue`, `color`… are not read).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Blend {
    Multiply,
    Screen,
    Overlay,
    Darken,
    Lighten,
    Dodge,
    Burn,
    HardLight,
    SoftLight,
    Difference,
    Exclusion,
}

impl Blend {
    pub(super) fn of(v: &str) -> Option<Blend> {
        Some(match v.to_ascii_lowercase().as_str() {
            "multiply" => Blend::Multiply,
            "screen" => Blend::Screen,
            "overlay" => Blend::Overlay,
            "darken" => Blend::Darken,
            "lighten" | "plus-lighter" => Blend::Lighten,
            "color-dodge" => Blend::Dodge,
            "color-burn" => Blend::Burn,
            "hard-light" => Blend::HardLight,
            "soft-light" => Blend::SoftLight,
            "difference" => Blend::Difference,
            "exclusion" => Blend::Exclusion,
            _ => return None,
        })
    }

    /// `top` drawn over the opaque `under` in this mode (alpha kept).
    pub(super) fn mix(self, top: Rgba, under: Rgba) -> Rgba {
        let hard = |b: f64, s: f64| if s <= 0.5 { b * 2.0 * s } else { b + (2.0 * s - 1.0) - b * (2.0 * s - 1.0) };
        let f = |s: f64, b: f64| {
            let (s, b) = (s / 255.0, b / 255.0);
            let v = match self {
                Blend::Multiply => s * b,
                Blend::Screen => s + b - s * b,
                Blend::Overlay => hard(s, b),
                Blend::Darken => s.min(b),
                Blend::Lighten => s.max(b),
                Blend::Dodge if b == 0.0 => 0.0,
                Blend::Dodge if s >= 1.0 => 1.0,
                Blend::Dodge => (b / (1.0 - s)).min(1.0),
                Blend::Burn if b >= 1.0 => 1.0,
                Blend::Burn if s <= 0.0 => 0.0,
                Blend::Burn => 1.0 - ((1.0 - b) / s).min(1.0),
                Blend::HardLight => hard(b, s),
                // (Near enough to tell text lost from text seen.)
                Blend::SoftLight => (1.0 - 2.0 * s) * b * b + 2.0 * s * b,
                Blend::Difference => (s - b).abs(),
                Blend::Exclusion => s + b - 2.0 * s * b,
            };
            v.clamp(0.0, 1.0) * 255.0
        };
        Rgba { r: f(top.r, under.r), g: f(top.g, under.g), b: f(top.b, under.b), a: top.a }
    }
}

/// Longest colour value read (after runs of white space are one space).
const MAX_COLOUR_LEN: usize = 1024;

/// Parse a colour; `inherit`/`currentcolor` give `current`. CSS Color 4's
/// functions (`rgb()`, `hsl()`, `hwb()`, `lab()`, `lch()`, `oklab()`,
/// `oklch()`, relative colours `rgb(from white r g b)`) and named colours
/// through `csscolorparser`; `light-dark()`, `color-mix()`, `color()` and the
/// system colours a page is drawn on here.
pub(super) fn parse_colour_or(v: &str, current: Rgba) -> Option<Rgba> {
    let v = v.trim();
    match v {
        "inherit" | "currentcolor" | "unset" => return Some(current),
        "initial" => return Some(BLACK),
        "transparent" => return Some(Rgba { a: 0.0, ..BLACK }),
        // A light page's own colours: `Canvas` is its background.
        "canvas" | "window" | "field" => return Some(WHITE),
        "canvastext" | "windowtext" | "fieldtext" | "buttontext" => return Some(BLACK),
        _ => {}
    }
    if let Some(hex) = v.strip_prefix('#') {
        return parse_hex(hex);
    }
    let Some(open) = v.find('(') else {
        // A name (the crate also reads hex digits without `#`, which CSS
        // does not; no colour's name is only such letters).
        let name = v.bytes().all(|b| b.is_ascii_alphabetic()) && v.bytes().any(|b| b > b'f');
        return name.then(|| csscolorparser::parse(v).ok()).flatten().map(from_crate);
    };
    let name = v[..open].trim();
    let args = v[open + 1..].trim_end().strip_suffix(')')?;
    match name {
        "light-dark" => {
            // The light value: a page is light unless it asks for dark
            // (`color-scheme`, not read: a dark-only page is rare).
            // (One level: a value nested in itself is read no deeper.)
            let light = split_top(args, b',').into_iter().next()?;
            if light.contains('(') && light.trim_start().starts_with("light-dark") {
                None
            } else {
                parse_colour_or(light, current)
            }
        }
        "color-mix" => colour_mix(args, current),
        "color" => colour_in_space(args),
        "rgb" | "rgba" | "hsl" | "hsla" | "hwb" | "lab" | "lch" | "oklab" | "oklch" => {
            let spaced = v.split_ascii_whitespace().collect::<Vec<_>>().join(" ");
            if spaced.len() > MAX_COLOUR_LEN || spaced.contains("var(") {
                return None;
            }
            csscolorparser::parse(&spaced).ok().map(from_crate)
        }
        _ => None,
    }
}

/// Is `v` written with a colour function [`parse_colour_or`] reads?
pub(super) fn read_function(v: &str) -> bool {
    v.find('(').is_some_and(|open| {
        matches!(
            v[..open].trim(),
            "light-dark"
                | "color-mix"
                | "color"
                | "rgb"
                | "rgba"
                | "hsl"
                | "hsla"
                | "hwb"
                | "lab"
                | "lch"
                | "oklab"
                | "oklch"
        )
    })
}

fn from_crate(c: csscolorparser::Color) -> Rgba {
    let ch = |x: f32| (f64::from(x) * 255.0).clamp(0.0, 255.0);
    Rgba { r: ch(c.r), g: ch(c.g), b: ch(c.b), a: f64::from(c.a).clamp(0.0, 1.0) }
}

/// `color-mix(in <space>, A [p%], B [q%])`, mixed in sRGB (near enough to
/// tell whether text is lost on white in any space).
fn colour_mix(args: &str, current: Rgba) -> Option<Rgba> {
    let parts = split_top(args, b',');
    let [space, a, b] = parts.as_slice() else { return None };
    if !space.trim_start().starts_with("in ") {
        return None;
    }
    let with_share = |part: &str| -> Option<(Rgba, Option<f64>)> {
        let words = split_top(part.trim(), b' ');
        let words: Vec<&str> = words.into_iter().filter(|w| !w.is_empty()).collect();
        match words.as_slice() {
            [c] => Some((parse_colour_or(c, current)?, None)),
            [c, p] | [p, c] if p.ends_with('%') => {
                Some((parse_colour_or(c, current)?, Some(number_or_percent(p)?.clamp(0.0, 1.0))))
            }
            _ => None,
        }
    };
    let ((ca, pa), (cb, pb)) = (with_share(a)?, with_share(b)?);
    let (pa, pb) = match (pa, pb) {
        (None, None) => (0.5, 0.5),
        (Some(p), None) => (p, 1.0 - p),
        (None, Some(q)) => (1.0 - q, q),
        (Some(p), Some(q)) => (p, q),
    };
    let total = pa + pb;
    if total <= 0.0 {
        return None;
    }
    let (wa, wb) = (pa / total, pb / total);
    // Shares under 100% in all make the mix that much transparent.
    let alpha = (ca.a * wa + cb.a * wb) * total.min(1.0);
    Some(Rgba { r: ca.r * wa + cb.r * wb, g: ca.g * wa + cb.g * wb, b: ca.b * wa + cb.b * wb, a: alpha })
}

/// `color(<space> r g b [/ alpha])` in an RGB space (`srgb`, `display-p3`,
/// `a98-rgb`…), read as sRGB; other spaces are not read.
fn colour_in_space(args: &str) -> Option<Rgba> {
    let args = args.replace('/', " ");
    let mut words = args.split_ascii_whitespace();
    let space = words.next()?;
    if !matches!(space, "srgb" | "srgb-linear" | "display-p3" | "a98-rgb" | "prophoto-rgb" | "rec2020") {
        return None;
    }
    let mut ch = || number_or_percent(words.next()?).map(|x| (x * 255.0).clamp(0.0, 255.0));
    let (r, g, b) = (ch()?, ch()?, ch()?);
    let a = match words.next() {
        Some(a) => number_or_percent(a)?.clamp(0.0, 1.0),
        None => 1.0,
    };
    Some(Rgba { r, g, b, a })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn css_helpers() {
        assert_eq!(parse_colour_or("#FFF", BLACK), Some(WHITE));
        assert_eq!(parse_colour_or("rgb(255, 255, 255)", BLACK), Some(WHITE));
        assert_eq!(parse_colour_or("hsl(0 0% 100%)", BLACK), Some(WHITE));
        let c = |v: &str| parse_colour_or(v, BLACK).unwrap().contrast(WHITE);
        assert!((c("black") - 21.0).abs() < 0.01);
        assert!(c("#ffff00") < MIN_CONTRAST && c("#eeeeee") > MIN_CONTRAST && c("#dddddd") > 1.3);
    }

    #[test]
    fn colour_spaces_and_functions() {
        let white = |v: &str| parse_colour_or(v, BLACK).map(|c| c.over(WHITE).contrast(WHITE) < MIN_CONTRAST);
        for v in [
            "white",
            "snow",
            "hwb(0 100% 0%)",
            "lab(100 0 0)",
            "lch(99.5 0 0)",
            "oklab(1 0 0)",
            "oklch(100% 0 0)",
            "rgb(from white r g b)",
            "hsl(from black h s 100)",
            "color(srgb 1 1 1)",
            "color(display-p3 0.99 0.99 0.99 / 1)",
            "color-mix(in srgb, white 99%, black)",
            "color-mix(in oklch, #fff, #fefefe)",
            "rgb(255\n255\t255)",
            "canvas",
            "rgb(from white calc(r - 1) g b)",
        ] {
            assert_eq!(white(v), Some(true), "{v}");
        }
        for v in ["black", "oklch(40% 0.1 250)", "lab(20 10 10)", "color-mix(in srgb, white 50%, black)", "canvastext"]
        {
            assert_eq!(white(v), Some(false), "{v}");
        }
        // Not CSS: hex digits without `#`, the crate's `hsv()`; a colour
        // inside a mix that is not one.
        for v in
            ["fff", "ffffff", "beaded", "hsv(0 0% 100%)", "color-mix(in srgb, nonsense, white)", "color(xyz 1 1 1)"]
        {
            assert_eq!(parse_colour_or(v, BLACK), None, "{v}");
        }
        // Transparency through a mix's shares.
        let faint = parse_colour_or("color-mix(in srgb, black 5%, transparent 5%)", BLACK).unwrap();
        assert!(faint.a < 0.1);
    }
}
