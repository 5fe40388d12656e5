//! Colours: CSS colour values parsed to RGBA, the background an element
//! paints, and how close text may come to it before it is lost.

use super::css::{Style, split_top};
use super::values::{angle_deg, number_or_percent, number_unit};

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

    fn from_hex24(v: u32) -> Rgba {
        Rgba::rgb(v >> 16 & 0xff, v >> 8 & 0xff, v & 0xff)
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
/// parent's.
pub(super) fn background(style: &Style, parent: Option<Rgba>) -> Option<Rgba> {
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
pub(super) fn parse_colour_or(v: &str, current: Rgba) -> Option<Rgba> {
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
        if name.trim() == "light-dark" {
            // The light value: a page is light unless it asks for dark
            // (`color-scheme`, not read: a dark-only page is rare).
            // (One level: a value nested in itself is read no deeper.)
            let light = split_top(args, b',').into_iter().next()?;
            return if light.contains('(') && light.trim_start().starts_with("light-dark") {
                None
            } else {
                parse_colour_or(light, current)
            };
        }
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

    #[test]
    fn tables_are_sorted_for_binary_search() {
        assert!(NAMED_COLOURS.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(NAMED_COLOURS.len(), 148);
    }

    #[test]
    fn css_helpers() {
        assert_eq!(parse_colour_or("#FFF", BLACK), Some(WHITE));
        assert_eq!(parse_colour_or("rgb(255, 255, 255)", BLACK), Some(WHITE));
        assert_eq!(parse_colour_or("hsl(0 0% 100%)", BLACK), Some(WHITE));
        let c = |v: &str| parse_colour_or(v, BLACK).unwrap().contrast(WHITE);
        assert!((c("black") - 21.0).abs() < 0.01);
        assert!(c("#ffff00") < MIN_CONTRAST && c("#eeeeee") > MIN_CONTRAST && c("#dddddd") > 1.3);
    }
}
