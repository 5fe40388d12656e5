//! CSS: the properties that can hide text, declarations, and a stylesheet
//! of simple rules gathered from every `<style>` block.

use std::collections::HashMap;

use super::render::Attrs;
use super::values::{font_shorthand_size, length_px};
use super::{DEFAULT_FONT_PX, OFFSCREEN_PX};

/// Style rules kept from `<style>` blocks (real pages have a few hundred).
const MAX_SELECTORS: usize = 4096;
/// Rules tried per element and index bucket (the latest, which win ties).
const MAX_CANDIDATES_PER_BUCKET: usize = 64;
/// Nesting of `@media`/`@supports` blocks followed into.
const MAX_CSS_NESTING: usize = 8;

/// The cascaded values of the properties that can hide text (lowercase,
/// unescaped). Later `set` calls win, so callers apply the cascade in order.
#[derive(Debug, Default, Clone)]
pub(super) struct Style {
    pub(super) display: Option<String>,
    pub(super) content_visibility: Option<String>,
    pub(super) visibility: Option<String>,
    pub(super) opacity: Option<String>,
    pub(super) filter: Option<String>,
    pub(super) font_size: Option<String>,
    pub(super) color: Option<String>,
    pub(super) fill: Option<String>,
    pub(super) background: Option<String>,
    pub(super) background_image: Option<String>,
    pub(super) position: Option<String>,
    pub(super) left: Option<String>,
    pub(super) top: Option<String>,
    pub(super) right: Option<String>,
    pub(super) margin_left: Option<String>,
    pub(super) margin_top: Option<String>,
    pub(super) text_indent: Option<String>,
    pub(super) transform: Option<String>,
    pub(super) translate: Option<String>,
    pub(super) scale: Option<String>,
    pub(super) rotate: Option<String>,
    pub(super) width: Option<String>,
    pub(super) height: Option<String>,
    pub(super) max_width: Option<String>,
    pub(super) max_height: Option<String>,
    pub(super) overflow_x: Option<String>,
    pub(super) overflow_y: Option<String>,
    pub(super) clip: Option<String>,
    pub(super) clip_path: Option<String>,
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
    pub(super) fn set(&mut self, prop: &str, value: String) {
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
pub(super) struct Decl {
    pub(super) prop: String,
    pub(super) value: String,
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
pub(super) fn parse_declarations(block: &str) -> Vec<Decl> {
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
pub(super) struct Sheet {
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
    pub(super) fn from_html(html: &[u8]) -> Sheet {
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
    pub(super) fn apply(&mut self, tag: &str, attrs: &Attrs, style: &mut Style) {
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
    pub(super) fn apply_important(&mut self, style: &mut Style) {
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
