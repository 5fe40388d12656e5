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
//! document once (twice when a selector needs what comes later, such as
//! `:last-child`: a first pass records it). An element stack of our own,
//! kept in step with lol_html's through end-tag handlers, carries what each
//! element passes to its children: a hiding reason (inherited, the outermost
//! wins), and the computed visibility, font size, colours, opacity, scale and
//! background that a child may change; and what selectors see of each open
//! element and its earlier siblings (`select.rs` matches them, right to left,
//! within a step budget).
//!
//! Limits, each erring towards reporting hidden: a rule we cannot be sure
//! matches (`:has()`, an unknown selector, past a limit) may hide, never
//! show. Implied end tags (a `<div>` closing an open `<p>`) are not
//! modelled, so such a `<p>` ends where lol_html ends it. Linked style
//! sheets are not fetched. Lengths in vw, vh and % assume a 1000 px
//! viewport.

mod colour;
mod css;
mod element;
mod entities;
pub(crate) use colour::lost_on_white;
pub(crate) use entities::decode_entities;
pub(crate) use entities::decode_one as decode_reference;
mod render;
mod select;
mod values;

#[cfg(test)]
pub(crate) use element::without_tags;
pub use render::{render, render_mail};

/// The character reference at the start of `s` (which starts with `&`), as a
/// browser decodes it in text (`&lt;`, `&LT`, `&#60;`, `&#x3c;`): the
/// character and the bytes it used. `fence` reads boundaries through them.
pub(crate) fn char_reference(s: &str) -> Option<(char, usize)> {
    entities::decode_one(s, false)
}

/// Maps keyed by what a page names (classes, attributes, selectors): foldhash,
/// seeded per process, rather than SipHash, for the many lookups an element
/// makes.
type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
type FastSet<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;

/// The font size of the root, in CSS pixels (every browser's default).
const DEFAULT_FONT_PX: f64 = 16.0;
/// Opacity at or below this is invisible for practical purposes.
const MAX_HIDDEN_OPACITY: f64 = 0.1;
/// A box moved this far left or up (CSS pixels) is off any screen.
const OFFSCREEN_PX: f64 = 1000.0;
/// How far a positioned box's edge (`top`, `left`, `right`) moves it off
/// the page: a line of text 200 px above or beside the page is out of it.
const POSITIONED_OFFSCREEN_PX: f64 = 200.0;
/// Text smaller than this (in CSS pixels, after transforms) cannot be read.
const MIN_READABLE_FONT_PX: f64 = 4.0;

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
