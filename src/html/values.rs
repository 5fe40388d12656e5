//! CSS values: numbers and units, lengths (with `calc()`), font sizes and
//! angles, and the values that put a box out of sight (off screen, zero
//! size, clipped, transformed away).

use crate::document::HiddenReason;

use super::css::Style;
use super::{DEFAULT_FONT_PX, MAX_HIDDEN_OPACITY, OFFSCREEN_PX, POSITIONED_OFFSCREEN_PX};

/// `text-indent` at or below minus this pushes the text off the screen.
const OFFSCREEN_INDENT_PX: f64 = 999.0;
/// Assumed viewport (and containing block) size for vw, vh and %.
const VIEWPORT_PX: f64 = 1000.0;
/// A box this small (CSS pixels) with overflow hidden shows nothing readable.
const MAX_HIDDEN_BOX_PX: f64 = 1.0;

pub(super) fn first_word(v: &str) -> &str {
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

/// Split a number from its unit: `-12.5px` → (-12.5, "px").
pub(super) fn number_unit(s: &str) -> Option<(f64, &str)> {
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
/// which most email is in). `calc()`, `min()`, `max()` and `clamp()` of
/// sums and products are evaluated.
pub(super) fn length_px(s: &str, font_px: f64) -> Option<f64> {
    length_px_rem(s, font_px, DEFAULT_FONT_PX)
}

/// [`length_px`] with `rem` relative to `rem_px` (the root's font size).
pub(super) fn length_px_rem(s: &str, font_px: f64, rem_px: f64) -> Option<f64> {
    let s = s.trim();
    if s.contains('(') {
        return calc_px(s, font_px, rem_px);
    }
    let (n, unit) = number_unit(s)?;
    let px = match unit {
        "" | "px" => n,
        "em" => n * font_px,
        "rem" => n * rem_px,
        "ex" | "ch" => n * font_px / 2.0,
        "pt" => n * 96.0 / 72.0,
        "pc" => n * 16.0,
        "in" => n * 96.0,
        "cm" => n * 96.0 / 2.54,
        "mm" => n * 96.0 / 25.4,
        "q" => n * 96.0 / 101.6,
        "vw" | "vh" | "vmin" | "vmax" | "svw" | "svh" | "lvw" | "lvh" | "dvw" | "dvh" | "%" => n * VIEWPORT_PX / 100.0,
        // The other viewport units, and a container's (its size is not
        // known: the viewport's stands for it).
        "vi" | "vb" | "svi" | "svb" | "lvi" | "lvb" | "dvi" | "dvb" | "svmin" | "svmax" | "lvmin" | "lvmax"
        | "dvmin" | "dvmax" | "cqw" | "cqh" | "cqi" | "cqb" | "cqmin" | "cqmax" => n * VIEWPORT_PX / 100.0,
        "lh" => n * font_px * 1.2,
        "rlh" => n * rem_px * 1.2,
        "cap" | "ic" => n * font_px,
        "rcap" | "ric" => n * rem_px,
        "rex" | "rch" => n * rem_px / 2.0,
        _ => return None,
    };
    Some(px)
}

/// CSS maths: `calc()`, `min()`, `max()`, `clamp()`, `round()`, `mod()`,
/// `rem()`, `abs()`, `sign()`, the trigonometric functions, `pow()`,
/// `sqrt()`, `exp()`, `log()`, `hypot()`, with `+ - * /`, parentheses,
/// `pi` and `e`, lengths, angles and plain numbers.
fn calc_px(expr: &str, font_px: f64, rem_px: f64) -> Option<f64> {
    struct P<'a> {
        s: &'a str,
        font_px: f64,
        rem_px: f64,
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
        /// A parenthesised sum, or a function's comma-separated sums.
        fn group(&mut self) -> Option<Vec<(f64, bool)>> {
            self.depth += 1;
            if self.depth > 16 {
                return None;
            }
            let mut args = vec![self.sum()?];
            loop {
                self.ws();
                if let Some(r) = self.s.strip_prefix(',') {
                    self.s = r;
                    args.push(self.sum()?);
                } else {
                    break;
                }
            }
            self.s = self.s.strip_prefix(')')?;
            self.depth -= 1;
            Some(args)
        }
        /// (value, is a length) — plain numbers scale lengths.
        fn atom(&mut self) -> Option<(f64, bool)> {
            self.ws();
            let head = (0..=self.s.len().min(6)).rev().find(|&i| self.s.is_char_boundary(i)).unwrap_or(0);
            let lower = self.s[..head].to_ascii_lowercase();
            for name in [
                "calc(", "min(", "max(", "clamp(", "sin(", "cos(", "tan(", "asin(", "acos(", "atan(", "atan2(", "abs(",
                "sign(", "round(", "mod(", "rem(", "pow(", "sqrt(", "exp(", "log(", "hypot(", "(",
            ] {
                if !lower.starts_with(name) {
                    continue;
                }
                self.s = &self.s[name.len()..];
                let mut how = "nearest";
                if name == "round(" {
                    self.ws();
                    for word in ["nearest", "up", "down", "to-zero"] {
                        if let Some(rest) = self.s.strip_prefix(word).and_then(|r| r.trim_start().strip_prefix(',')) {
                            how = word;
                            self.s = rest;
                        }
                    }
                }
                let args = self.group()?;
                let length = args.iter().any(|a| a.1);
                let v = match (name, args.as_slice()) {
                    ("min(", a) => a.iter().map(|a| a.0).fold(f64::INFINITY, f64::min),
                    ("max(", a) => a.iter().map(|a| a.0).fold(f64::NEG_INFINITY, f64::max),
                    ("clamp(", [lo, v, hi]) => v.0.min(hi.0).max(lo.0),
                    ("calc(" | "(", [v]) => v.0,
                    ("sin(", [v]) => v.0.sin(),
                    ("cos(", [v]) => v.0.cos(),
                    ("tan(", [v]) => v.0.tan(),
                    ("abs(", [v]) => v.0.abs(),
                    ("sign(", [v]) => {
                        if v.0 == 0.0 {
                            0.0
                        } else {
                            v.0.signum()
                        }
                    }
                    ("asin(", [v]) => v.0.asin(),
                    ("acos(", [v]) => v.0.acos(),
                    ("atan(", [v]) => v.0.atan(),
                    ("atan2(", [y, x]) => y.0.atan2(x.0),
                    ("pow(", [a, b]) => a.0.powf(b.0),
                    ("sqrt(", [v]) => v.0.sqrt(),
                    ("exp(", [v]) => v.0.exp(),
                    ("log(", [v]) => v.0.ln(),
                    ("log(", [v, base]) => v.0.log(base.0),
                    ("hypot(", a) => a.iter().map(|v| v.0 * v.0).sum::<f64>().sqrt(),
                    ("round(", [v]) => round(how, v.0, 1.0)?,
                    ("round(", [v, step]) => round(how, v.0, step.0)?,
                    ("mod(", [a, b]) if b.0 != 0.0 => a.0.rem_euclid(b.0.abs()) * b.0.signum(),
                    ("rem(", [a, b]) if b.0 != 0.0 => a.0 % b.0,
                    _ => return None,
                };
                return Some((v, length));
            }
            let end = self
                .s
                .char_indices()
                .skip(1)
                .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '.' || c == '%'))
                .map_or(self.s.len(), |(i, _)| i);
            let tok = &self.s[..end];
            self.s = &self.s[end..];
            match tok.to_ascii_lowercase().as_str() {
                "pi" => return Some((std::f64::consts::PI, false)),
                "e" => return Some((std::f64::consts::E, false)),
                _ => {}
            }
            let (n, unit) = number_unit(tok)?;
            if unit.is_empty() {
                Some((n, false))
            } else if let Some(deg) = angle_deg(tok) {
                // An angle is a number (of radians) to CSS's trigonometry.
                Some((deg.to_radians(), false))
            } else {
                Some((length_px_rem(tok, self.font_px, self.rem_px)?, true))
            }
        }
    }
    let mut p = P { s: expr, font_px, rem_px, depth: 0 };
    let v = p.sum()?;
    p.ws();
    if p.s.is_empty() && v.0.is_finite() { Some(v.0) } else { None }
}

/// CSS's `round(how, value, step)`.
fn round(how: &str, v: f64, step: f64) -> Option<f64> {
    if step == 0.0 {
        return None;
    }
    let q = v / step;
    let q = match how {
        "up" => q.ceil(),
        "down" => q.floor(),
        "to-zero" => q.trunc(),
        _ => q.round(),
    };
    Some(q * step)
}

pub(super) fn number_or_percent(s: &str) -> Option<f64> {
    let (n, unit) = number_unit(s)?;
    match unit {
        "" => Some(n),
        "%" => Some(n / 100.0),
        _ => None,
    }
}

/// A computed font size in pixels, or None when the value is not understood
/// (the inherited size then stands). `rem` is relative to `rem_px`.
pub(super) fn font_size_px(v: &str, parent_px: f64) -> Option<f64> {
    font_size_px_rem(v, parent_px, DEFAULT_FONT_PX)
}

pub(super) fn font_size_px_rem(v: &str, parent_px: f64, rem_px: f64) -> Option<f64> {
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
        _ if v.contains('(') => calc_px(v, parent_px, rem_px)?,
        _ => {
            let (n, unit) = number_unit(v)?;
            match unit {
                "%" => n * parent_px / 100.0,
                "vw" | "vh" | "vmin" | "vmax" => n * VIEWPORT_PX / 100.0,
                "" if n != 0.0 => return None,
                _ => length_px_rem(v, parent_px, rem_px)?,
            }
        }
    };
    (px >= 0.0).then_some(px)
}

/// The size in a `font` shorthand: the first length or size keyword, before
/// an optional `/line-height`.
pub(super) fn font_shorthand_size(v: &str) -> Option<&str> {
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

/// An angle in degrees (`deg`, `rad`, `grad`, `turn`; a bare number is deg).
pub(super) fn angle_deg(s: &str) -> Option<f64> {
    let (n, unit) = number_unit(s)?;
    Some(match unit {
        "" | "deg" => n,
        "rad" => n.to_degrees(),
        "grad" => n * 0.9,
        "turn" => n * 360.0,
        _ => return None,
    })
}

/// An opacity: a number, a percentage, or `calc()` and its kin of them.
pub(super) fn opacity_value(v: &str) -> Option<f64> {
    number_or_percent(v).or_else(|| v.contains('(').then(|| calc_px(v, DEFAULT_FONT_PX, DEFAULT_FONT_PX)).flatten())
}

/// `filter: opacity(x)` at or near 0.
pub(super) fn filter_hides(v: &str) -> bool {
    functions(v).any(|(name, args)| {
        name == "opacity" && number_or_percent(args.trim()).is_some_and(|o| o <= MAX_HIDDEN_OPACITY)
    })
}

/// `filter: blur(r)` with a radius of a quarter of the text's size or more
/// (16 px text blurred by 4 px is a smear).
pub(super) fn filter_blurs(v: &str) -> bool {
    functions(v).any(|(name, args)| {
        name == "blur" && length_px(args.trim(), DEFAULT_FONT_PX).is_some_and(|r| r >= DEFAULT_FONT_PX / 4.0)
    })
}

/// `name(args)` pairs in a value, in order; an argument may hold calls of
/// its own (`scale(sin(0))`, `drop-shadow(0 0 2px rgb(0 0 0))`).
pub(super) fn functions(v: &str) -> impl Iterator<Item = (&str, &str)> {
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
            let mut depth = 0usize;
            let close = rest[open..]
                .bytes()
                .position(|b| {
                    match b {
                        b'(' => depth += 1,
                        b')' => depth -= 1,
                        _ => {}
                    }
                    depth == 0
                })
                .map_or(rest.len(), |c| open + c);
            let args = &rest[open + 1..close];
            rest = rest.get(close + 1..).unwrap_or("");
            if !name.is_empty() {
                return Some((name, args));
            }
        }
    })
}

/// A function's arguments, split at commas and blanks outside parentheses.
fn args(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, b) in s.bytes().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            b',' | b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out.retain(|a| !a.is_empty());
    out
}

/// Positioned (or indented, or pulled by a margin) far off the screen.
pub(super) fn offscreen(style: &Style) -> bool {
    let far = |v: &Option<std::rc::Rc<str>>, limit: f64| {
        v.as_deref().and_then(|v| length_px(first_value(v), DEFAULT_FONT_PX)).is_some_and(|px| px <= -limit)
    };
    let position = style.position.as_deref().map(first_word);
    // Taken out of the flow, a box 200 px off the page is out of it; moved
    // relative to its place (a card pulled up over a banner), only a long
    // way is.
    let limit = match position {
        Some("absolute" | "fixed") => Some(POSITIONED_OFFSCREEN_PX),
        Some("relative") => Some(OFFSCREEN_PX),
        _ => None,
    };
    // A box of a set width pulled left by as much (`margin-left:-900px;
    // width:800px`) ends before the page does.
    let px = |v: &Option<std::rc::Rc<str>>| v.as_deref().and_then(|v| length_px(first_value(v), DEFAULT_FONT_PX));
    // (A box of a pixel or so is the zero-size test's.)
    let width =
        px(&style.width).filter(|w| *w > MAX_HIDDEN_BOX_PX && style.width.as_deref().is_some_and(|w| !w.contains('%')));
    let pulled = |v: &Option<std::rc::Rc<str>>| px(v).zip(width).is_some_and(|(at, w)| at < 0.0 && at + w <= 0.0);
    limit.is_some_and(|limit| far(&style.left, limit) || far(&style.top, limit) || far(&style.right, limit))
        || (matches!(position, Some("absolute" | "fixed")) && pulled(&style.left))
        || pulled(&style.margin_left)
        || far(&style.margin_left, OFFSCREEN_PX)
        || far(&style.margin_top, OFFSCREEN_PX)
        || far(&style.text_indent, OFFSCREEN_INDENT_PX)
}

/// A box of (near) zero width or height that clips what overflows: by
/// its `overflow` or its paint containment (`contain: paint`), or by default (`clips_by_default`: SVG, `<marquee>`)
/// unless it lets overflow show.
pub(super) fn zero_size(style: &Style, clips_by_default: bool) -> bool {
    let clips = |v: &Option<std::rc::Rc<str>>| match v.as_deref().map(first_word) {
        Some("hidden" | "clip") => true,
        None => clips_by_default,
        Some(_) => false,
    };
    // Paint containment clips at the box's edge as `overflow: clip` does.
    let contained = style.contain.as_deref().is_some_and(|v| {
        v.split_ascii_whitespace().any(|w| ["strict", "content", "paint"].iter().any(|c| w.eq_ignore_ascii_case(c)))
    });
    if !contained && !clips(&style.overflow_x) && !clips(&style.overflow_y) {
        return false;
    }
    let tiny = |v: &Option<std::rc::Rc<str>>| {
        v.as_deref().and_then(|v| length_px(first_value(v), DEFAULT_FONT_PX)).is_some_and(|px| px <= MAX_HIDDEN_BOX_PX)
    };
    tiny(&style.width) || tiny(&style.height) || tiny(&style.max_width) || tiny(&style.max_height)
}

/// How much a transform, `scale` or `zoom` value shrinks what is inside
/// (along its most shrunk direction), when it says: `scale(0.01)` → 0.01.
pub(super) fn scale_factor(v: &str) -> Option<f64> {
    if !v.contains('(') {
        // `scale: 0.5 0.2`, `zoom: 50%`.
        let f = args(v).iter().take(2).filter_map(|a| number_or_percent(a)).map(f64::abs).fold(f64::INFINITY, f64::min);
        return f.is_finite().then_some(f);
    }
    let m = transform_list(v, None);
    (m != Affine::SAME).then(|| m.shrink())
}

/// `clip: rect(top, right, bottom, left)` with no area.
pub(super) fn clip_hides(v: &str) -> bool {
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
pub(super) fn clip_path_hides(v: &str) -> bool {
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
            // A box of no width or height (`xywh(0 0 0 0)`; `rect(t r b
            // l)` with its edges met: `rect(0 0 0 0)`).
            "xywh" => a.get(2..4).is_some_and(|wh| wh.iter().any(|s| number_unit(s).is_some_and(|(n, _)| n <= 0.0))),
            "rect" => {
                let px: Vec<Option<f64>> = a.iter().map(|s| number_unit(s).map(|(n, _)| n)).collect();
                matches!(px.as_slice(), [Some(t), Some(r), Some(b), Some(l)] if b <= t || r <= l)
            }
            // A polygon whose points are all one, or a path that only
            // moves: no area.
            "polygon" => {
                let xy: Vec<&str> = a.iter().copied().filter(|s| !matches!(*s, "evenodd" | "nonzero")).collect();
                let points: Vec<&[&str]> = xy.chunks(2).collect();
                let same = |i: usize| points.iter().all(|p| p.get(i) == points[0].get(i));
                xy.len() >= 2 && xy.len().is_multiple_of(2) && (same(0) || same(1))
            }
            "path" => {
                let d = a.join(" ");
                let d = d.trim_matches(|c| c == '\'' || c == '"');
                !d.is_empty()
                    && d.chars().all(|c| matches!(c, 'M' | 'm' | 'Z' | 'z' | ' ' | ',' | '.' | '-' | '0'..='9'))
                    && d.chars().filter(|c| c.is_ascii_alphabetic()).all(|c| matches!(c, 'M' | 'm'))
            }
            _ => false,
        }
    })
}

/// Does a transform turn a box's back to the reader: rotated about the x
/// or the y axis (or an axis in their plane) by a half turn, give or take
/// a quarter, an odd number of times (`rotateY(180deg)`, `rotateX(0.5turn)`,
/// `rotate3d(0, 1, 0, 180deg)`)? With `backface-visibility: hidden` the
/// box then shows nothing: a flip card's back, until a class turns it.
pub(super) fn turned_away(transform: Option<&str>, rotate: Option<&str>) -> bool {
    let away = |d: f64| {
        let r = d.rem_euclid(360.0);
        r > 90.0 && r < 270.0
    };
    let mut turned = false;
    for (name, a) in transform.into_iter().flat_map(functions) {
        let a = args(a);
        let flips = match name {
            "rotatex" | "rotatey" => a.first().and_then(|s| angle_deg(s)).is_some_and(away),
            "rotate3d" if a.len() == 4 => {
                let axis: Vec<f64> = a[..3].iter().map(|s| number_unit(s).map_or(0.0, |(n, _)| n)).collect();
                axis[2] == 0.0 && (axis[0] != 0.0 || axis[1] != 0.0) && angle_deg(a[3]).is_some_and(away)
            }
            _ => false,
        };
        turned ^= flips;
    }
    if let Some(r) = rotate {
        let a = args(r);
        if a.first().is_some_and(|s| matches!(*s, "x" | "y")) && a.get(1).and_then(|s| angle_deg(s)).is_some_and(away) {
            turned ^= true;
        }
    }
    turned
}

/// Where a transform puts a box, as a 2D map (`matrix(a, b, c, d, e, f)`:
/// x' = a·x + c·y + e, y' = b·x + d·y + f), seen from the front: a turn
/// about x or y shrinks the other axis by its cosine, a push back under a
/// perspective shrinks all by p / (p − z).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Affine([f64; 6]);

/// A box shrunk below this (along its most shrunk direction) is not drawn
/// readably whatever its text's size.
const MIN_SHRINK: f64 = 0.01;

impl Affine {
    pub(super) const SAME: Affine = Affine([1.0, 0.0, 0.0, 1.0, 0.0, 0.0]);

    fn scale(x: f64, y: f64) -> Affine {
        Affine([x, 0.0, 0.0, y, 0.0, 0.0])
    }

    fn shift(x: f64, y: f64) -> Affine {
        Affine([1.0, 0.0, 0.0, 1.0, x, y])
    }

    /// `self`, with `inner` applied first (CSS's `A B` applies B first).
    fn then(self, inner: Affine) -> Affine {
        let [a, b, c, d, e, f] = self.0;
        let [a2, b2, c2, d2, e2, f2] = inner.0;
        Affine([
            a * a2 + c * b2,
            b * a2 + d * b2,
            a * c2 + c * d2,
            b * c2 + d * d2,
            a * e2 + c * f2 + e,
            b * e2 + d * f2 + f,
        ])
    }

    /// How much lengths along the most shrunk direction are kept (the
    /// smaller singular value): 0.01 for `scale(0.01)`, 1 for any turn, 0
    /// for `skewX(90deg)` or a map that flattens the box to a line.
    pub(super) fn shrink(self) -> f64 {
        let [a, b, c, d, ..] = self.0;
        let t = a * a + b * b + c * c + d * d;
        let det = (a * d - b * c).abs();
        let largest = ((t + (t * t - 4.0 * det * det).max(0.0).sqrt()) / 2.0).sqrt();
        if largest > 0.0 && largest.is_finite() { det / largest } else { 0.0 }
    }

    /// Shrunk to nothing, or moved far off.
    pub(super) fn hides(self) -> Option<HiddenReason> {
        if !self.0.iter().all(|v| v.is_finite()) || self.shrink() < MIN_SHRINK {
            Some(HiddenReason::Transform)
        } else if self.0[4].abs() >= OFFSCREEN_PX || self.0[5].abs() >= OFFSCREEN_PX {
            Some(HiddenReason::Offscreen)
        } else {
            None
        }
    }
}

/// A number, a percentage (`50%` is 0.5) or CSS maths of them
/// (`calc(1/3)`, `sin(0)`).
pub(super) fn number(s: &str) -> Option<f64> {
    number_or_percent(s).or_else(|| s.contains('(').then(|| calc_px(s, DEFAULT_FONT_PX, DEFAULT_FONT_PX)).flatten())
}

fn radians(s: &str) -> Option<f64> {
    angle_deg(s).map(f64::to_radians).or_else(|| number(s).filter(|_| s.contains('(')))
}

/// A push along z under a perspective `p`: shrinks by p / (p − z); at or
/// behind the reader (z ≥ p) it is not drawn.
fn depth(z: f64, p: Option<f64>) -> Affine {
    match p {
        Some(p) if z >= p => Affine::scale(0.0, 0.0),
        Some(p) => Affine::scale(p / (p - z), p / (p - z)),
        None => Affine::SAME,
    }
}

/// A turn by `angle` about the axis (x, y, z), seen from the front.
fn turn(x: f64, y: f64, z: f64, angle: f64) -> Affine {
    let norm = (x * x + y * y + z * z).sqrt();
    if norm == 0.0 {
        return Affine::SAME;
    }
    let (x, y, z) = (x / norm, y / norm, z / norm);
    let (s, c) = angle.sin_cos();
    let t = 1.0 - c;
    // The rotation matrix's top left 2×2, which is what reaches the page.
    Affine([t * x * x + c, t * x * y + s * z, t * x * y - s * z, t * y * y + c, 0.0, 0.0])
}

/// A `transform` value's map; `perspective` is the parent's, until a
/// `perspective()` in the list sets one. Functions not read count as none.
pub(super) fn transform_list(v: &str, mut perspective: Option<f64>) -> Affine {
    let mut m = Affine::SAME;
    for (name, a) in functions(v) {
        let a = args(a);
        let n = |i: usize| a.get(i).and_then(|s| number(s));
        let len = |i: usize| a.get(i).map_or(Some(0.0), |s| length_px(s, DEFAULT_FONT_PX));
        let ang = |i: usize| a.get(i).and_then(|s| radians(s));
        let f = match name.to_ascii_lowercase().as_str() {
            "translate" => len(0).zip(len(1)).map(|(x, y)| Affine::shift(x, y)),
            "translatex" => len(0).map(|x| Affine::shift(x, 0.0)),
            "translatey" => len(0).map(|y| Affine::shift(0.0, y)),
            "translatez" => len(0).map(|z| depth(z, perspective)),
            "translate3d" => {
                len(0).zip(len(1)).zip(len(2)).map(|((x, y), z)| Affine::shift(x, y).then(depth(z, perspective)))
            }
            "perspective" => {
                perspective = a.first().and_then(|s| length_px(s, DEFAULT_FONT_PX)).filter(|p| *p > 0.0);
                None
            }
            "scale" => n(0).map(|x| Affine::scale(x, n(1).unwrap_or(x))),
            "scalex" => n(0).map(|x| Affine::scale(x, 1.0)),
            "scaley" => n(0).map(|y| Affine::scale(1.0, y)),
            "scale3d" => n(0).zip(n(1)).map(|(x, y)| Affine::scale(x, y)),
            "rotate" | "rotatez" => ang(0).map(|t| turn(0.0, 0.0, 1.0, t)),
            "rotatex" => ang(0).map(|t| turn(1.0, 0.0, 0.0, t)),
            "rotatey" => ang(0).map(|t| turn(0.0, 1.0, 0.0, t)),
            "rotate3d" => n(0).zip(n(1)).zip(n(2)).zip(ang(3)).map(|(((x, y), z), t)| turn(x, y, z, t)),
            "skew" => ang(0).map(|x| Affine([1.0, ang(1).unwrap_or(0.0).tan(), x.tan(), 1.0, 0.0, 0.0])),
            "skewx" => ang(0).map(|x| Affine([1.0, 0.0, x.tan(), 1.0, 0.0, 0.0])),
            "skewy" => ang(0).map(|y| Affine([1.0, y.tan(), 0.0, 1.0, 0.0, 0.0])),
            "matrix" if a.len() == 6 => {
                let m: Option<Vec<f64>> = (0..6).map(n).collect();
                m.map(|m| Affine([m[0], m[1], m[2], m[3], m[4], m[5]]))
            }
            // Its 2D part, in the homogeneous coordinate it gives.
            "matrix3d" if a.len() == 16 => {
                let m: Option<Vec<f64>> = (0..16).map(n).collect();
                m.map(|m| {
                    let w = m[15];
                    if w.abs() < 1e-9 {
                        Affine::scale(0.0, 0.0)
                    } else {
                        Affine([m[0] / w, m[1] / w, m[4] / w, m[5] / w, m[12] / w, m[13] / w])
                    }
                })
            }
            _ => None,
        };
        if let Some(f) = f {
            m = m.then(f);
        }
    }
    m
}

/// Where `translate`, `rotate`, `scale` and `transform` put a box, in that
/// order, about its `transform-origin` (lengths only: a box's size is not
/// known, so a percentage or a keyword counts as its corner); `perspective`
/// is the parent's.
pub(super) fn placement(style: &Style, perspective: Option<f64>) -> Affine {
    let mut m = Affine::SAME;
    if let Some(v) = &style.translate {
        let a = args(v);
        let len = |i: usize| a.get(i).map_or(Some(0.0), |s| length_px(s, DEFAULT_FONT_PX));
        if let Some((x, y)) = len(0).zip(len(1)) {
            m = m.then(Affine::shift(x, y).then(depth(len(2).unwrap_or(0.0), perspective)));
        }
    }
    if let Some(v) = &style.rotate {
        let a = args(v);
        let turned = match a.as_slice() {
            [t] => radians(t).map(|t| turn(0.0, 0.0, 1.0, t)),
            [axis, t] => radians(t).and_then(|t| match *axis {
                "x" => Some(turn(1.0, 0.0, 0.0, t)),
                "y" => Some(turn(0.0, 1.0, 0.0, t)),
                "z" => Some(turn(0.0, 0.0, 1.0, t)),
                _ => None,
            }),
            [x, y, z, t] => {
                number(x).zip(number(y)).zip(number(z)).zip(radians(t)).map(|(((x, y), z), t)| turn(x, y, z, t))
            }
            _ => None,
        };
        m = m.then(turned.unwrap_or(Affine::SAME));
    }
    if let Some(v) = &style.scale {
        let a = args(v);
        if let Some(x) = a.first().and_then(|s| number(s)) {
            m = m.then(Affine::scale(x, a.get(1).and_then(|s| number(s)).unwrap_or(x)));
        }
    }
    if let Some(v) = &style.transform {
        m = m.then(transform_list(v, perspective));
    }
    if m == Affine::SAME {
        return m;
    }
    let origin = style.transform_origin.as_deref().map(args).unwrap_or_default();
    let at = |i: usize| {
        origin.get(i).filter(|s| !s.contains('%')).and_then(|s| length_px(s, DEFAULT_FONT_PX)).unwrap_or(0.0)
    };
    let (x, y) = (at(0), at(1));
    Affine::shift(x, y).then(m).then(Affine::shift(-x, -y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn css_helpers() {
        assert_eq!(length_px("-100vw", 16.0), Some(-1000.0));
        assert_eq!(length_px("calc(-1 * 50em)", 16.0), Some(-800.0));
        assert_eq!(length_px("1e3px", 16.0), Some(1000.0));
        assert_eq!(length_px("2em", 10.0), Some(20.0));
        assert_eq!(length_px("auto", 16.0), None);
        assert_eq!(length_px("min(-9999px, 0px)", 16.0), Some(-9999.0));
        assert_eq!(length_px("max(1px, 2em)", 16.0), Some(32.0));
        assert_eq!(length_px("clamp(0px, 50vw, 1px)", 16.0), Some(1.0));
        assert_eq!(length_px_rem("2rem", 16.0, 1.0), Some(2.0));
        assert_eq!(font_size_px("min(0px, 1em)", 16.0), Some(0.0));
        assert_eq!(scale_factor("scale(0.01)"), Some(0.01));
        assert_eq!(scale_factor("translate(1px) scalex(0.5) scale(0.5)"), Some(0.25));
        assert_eq!(scale_factor("50%"), Some(0.5));
        // A turn keeps sizes; a skew shrinks across its slant.
        assert!(scale_factor("rotate(3deg)").is_some_and(|f| (f - 1.0).abs() < 1e-9));
        assert!(scale_factor("skewX(45deg)").is_some_and(|f| f > 0.6 && f < 0.65));
        assert_eq!(scale_factor("none"), None);
        assert_eq!(scale_factor("bogus(1)"), None);
    }
}
