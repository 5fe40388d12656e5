//! CSS selectors: parsing, specificity, and matching against the element
//! being read, its open ancestors and their earlier siblings.
//!
//! Matching has three answers. Yes and no, and unsure when the answer
//! needs what we do not have: a pseudo-class about what comes later in the
//! page (`:has()`, or `:last-child` when the page was not read ahead), a
//! class that matches only ignoring case in a page that may be in quirks
//! mode, a syntax we do not know, an ancestor or sibling past what is kept.
//! The cascade lets an unsure rule hide, never show.
//!
//! Matching runs right to left, the way browsers do: a failure that ran out
//! of ancestors ends the search (no higher ancestor can do better), so a
//! chain of descendant and child combinators costs at most its length times
//! the depth. Every compound tested counts against a step limit per match.

use super::css::{css_unescape, split_top};

/// Compound selectors one match may test before its answer is unsure.
pub(super) const MAX_STEPS_PER_MATCH: u32 = 512;
/// `:is()`/`:not()` nested deeper than this are not parsed (unsure).
const MAX_SELECTOR_NESTING: usize = 8;

/// A three-valued answer: does this selector match?
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Match {
    No,
    Unsure,
    Yes,
}

impl Match {
    pub(super) fn and(self, o: Match) -> Match {
        self.min(o)
    }

    pub(super) fn or(self, o: Match) -> Match {
        self.max(o)
    }

    fn not(self) -> Match {
        match self {
            Match::Yes => Match::No,
            Match::No => Match::Yes,
            Match::Unsure => Match::Unsure,
        }
    }
}

/// What matching needs to know about one element.
#[derive(Debug, Default)]
pub(super) struct Node {
    /// Lowercase.
    pub(super) tag: std::rc::Rc<str>,
    /// The first `id` attribute.
    pub(super) id: Option<Box<str>>,
    /// From the first `class` attribute: sorted, without repeats.
    pub(super) classes: Box<[Box<str>]>,
    /// The same, ASCII-lowercased and sorted (for quirks-mode pages), when
    /// that differs.
    pub(super) classes_lower: Option<Box<[Box<str>]>>,
    /// The first value of each attribute the sheet asks about; names
    /// lowercase, sorted.
    pub(super) attrs: Box<[(Box<str>, Box<str>)]>,
    /// [`LINK`], [`CHECKED`]… from the attributes.
    pub(super) flags: u8,
    /// 1-based among its parent's element children; 0 when not known.
    pub(super) index: u32,
    /// 1-based among its siblings of the same tag; 0 when not known.
    pub(super) type_index: u32,
    /// What comes after it, from a read-ahead of the page.
    pub(super) after: Option<After>,
}

/// `<a href>`, `<area href>`, `<link href>`.
pub(super) const LINK: u8 = 1;
/// `checked` (input) or `selected` (option).
pub(super) const CHECKED: u8 = 2;
/// `disabled`.
pub(super) const DISABLED: u8 = 4;
/// A form control (`:enabled` and `:disabled` apply).
pub(super) const CONTROL: u8 = 8;
/// `open` (details, dialog).
pub(super) const OPEN: u8 = 16;

/// Facts about an element that only the rest of the page settles.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct After {
    /// Element siblings after it.
    pub(super) siblings: u32,
    /// Of those, the ones with its tag.
    pub(super) same_type: u32,
    /// No element children and no text.
    pub(super) empty: bool,
}

impl Node {
    /// The classes ASCII-lowercased, sorted.
    pub(super) fn lower_classes(&self) -> &[Box<str>] {
        self.classes_lower.as_deref().unwrap_or(&self.classes)
    }

    pub(super) fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.binary_search_by(|(n, _)| (**n).cmp(name)).ok().map(|i| &*self.attrs[i].1)
    }
}

/// An element in a [`Tree`], opaque to the matcher.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Ref(pub(super) u32, pub(super) u32);

/// One step from an element to its parent or previous sibling.
pub(super) enum Step {
    At(Ref),
    /// There is none.
    None,
    /// Not known (past what is kept).
    Unknown,
}

/// The part of the page a selector can look at from an element.
pub(super) trait Tree {
    fn node(&self, e: Ref) -> &Node;
    fn parent(&self, e: Ref) -> Step;
    fn prev(&self, e: Ref) -> Step;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Comb {
    Descendant,
    Child,
    Next,
    Later,
}

/// Compound selectors joined by combinators, right to left: `compounds[0]`
/// is the subject and `combs[i]` joins `compounds[i]` to `compounds[i + 1]`
/// on its left.
#[derive(Debug, Clone, Default)]
pub(super) struct Complex {
    pub(super) compounds: Vec<Compound>,
    pub(super) combs: Vec<Comb>,
}

#[derive(Debug, Clone, Default)]
pub(super) struct Compound {
    /// Lowercase; `None` for any.
    pub(super) tag: Option<Box<str>>,
    pub(super) ids: Vec<Box<str>>,
    pub(super) classes: Vec<Box<str>>,
    /// The classes ASCII-lowercased (quirks mode matches them so), made
    /// once, not at every match.
    pub(super) classes_lower: Vec<Box<str>>,
    pub(super) attrs: Vec<AttrSel>,
    pub(super) pseudos: Vec<Pseudo>,
}

#[derive(Debug, Clone)]
pub(super) struct AttrSel {
    /// Lowercase.
    pub(super) name: Box<str>,
    pub(super) test: Option<(AttrOp, Box<str>, Option<bool>)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum AttrOp {
    Equals,
    Word,
    Dash,
    Prefix,
    Suffix,
    Substring,
}

#[derive(Debug, Clone)]
pub(super) enum Pseudo {
    Not(Vec<Complex>),
    Is(Vec<Complex>),
    /// `:is()` that adds nothing to specificity.
    Where(Vec<Complex>),
    /// `an+b`, counted among siblings of the same type or all, from the
    /// start or the end.
    Nth {
        a: i64,
        b: i64,
        of_type: bool,
        from_end: bool,
    },
    /// `:only-child`, `:only-of-type`.
    Only {
        of_type: bool,
    },
    Root,
    Link,
    Checked,
    Disabled,
    Enabled,
    Defined,
    Open,
    Empty,
    /// A state a page is not in as it first shows (`:hover`, `:focus`).
    Never,
    /// What we cannot tell (`:has()`, an unknown pseudo-class).
    Unsure,
}

/// A parsed selector of a rule.
#[derive(Debug, Clone)]
pub(super) struct Selector {
    pub(super) complex: Complex,
    /// ids << 20 | classes, attributes and pseudo-classes << 10 | types.
    pub(super) specificity: u32,
    /// The most this selector can answer: unsure for one that styles part
    /// of the text only (`::first-line`), or under conditions we cannot
    /// tell (`@scope`, `@container`).
    pub(super) cap: Match,
    /// We accepted something a browser might reject (an unknown
    /// pseudo-class, a name starting with a digit, a namespace).
    pub(super) doubt: bool,
}

/// What a selector in a style sheet is.
#[derive(Debug)]
pub(super) enum Parsed {
    Selector(Selector),
    /// It styles a box of its own (`::before`, `::placeholder`), not the
    /// element's text.
    PseudoBox,
    /// It cannot match as the page first shows (`a:hover`).
    Never,
}

/// Parse one selector of a rule's list (no commas at the top level).
pub(super) fn parse(s: &str) -> Result<Parsed, ()> {
    let mut p = Parser { s, b: s.as_bytes(), i: 0, depth: 0, doubt: false, pseudo_element: None };
    p.ws();
    let complex = p.complex()?;
    p.ws();
    if p.i < p.b.len() {
        return Err(());
    }
    let cap = match p.pseudo_element {
        Some(PseudoElement::Box) => return Ok(Parsed::PseudoBox),
        Some(PseudoElement::Text) => Match::Unsure,
        None => Match::Yes,
    };
    if complex.compounds.iter().any(|c| c.pseudos.iter().any(|p| matches!(p, Pseudo::Never))) {
        return Ok(Parsed::Never);
    }
    let specificity = specificity(&complex);
    Ok(Parsed::Selector(Selector { complex, specificity, cap, doubt: p.doubt }))
}

/// A selector we could not parse, as far as it can be read: the ids,
/// classes and tag of its last compound (what a rule most likely styles),
/// never better than unsure. Nothing readable gives the universal selector.
pub(super) fn approximate(s: &str) -> Selector {
    let b = s.as_bytes();
    // The last compound starts after the last combinator or space outside
    // brackets and parentheses.
    let (mut depth, mut start) = (0usize, 0);
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth = depth.saturating_sub(1),
            b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'>' | b'+' | b'~' if depth == 0 => start = i + 1,
            _ => {}
        }
        i += 1;
    }
    let mut c = Compound::default();
    let (mut i, mut depth) = (start.min(b.len()), 0usize);
    while i < b.len() {
        let k = b[i];
        if k == b'(' || k == b'[' {
            depth += 1;
        } else if k == b')' || k == b']' {
            depth = depth.saturating_sub(1);
        } else if depth == 0 && (k == b'.' || k == b'#' || (i == start && ident_start(k))) {
            let from = if ident_start(k) { i } else { i + 1 };
            let end = ident_end(b, from);
            if end > from && s.is_char_boundary(end) && s.is_char_boundary(from) {
                let name: Box<str> = css_unescape(&s[from..end]).into();
                match k {
                    b'.' => {
                        c.classes_lower.push(name.to_ascii_lowercase().into());
                        c.classes.push(name);
                    }
                    b'#' => c.ids.push(name),
                    _ => c.tag = Some(name.to_ascii_lowercase().into()),
                }
                i = end;
                continue;
            }
        }
        i += 1;
    }
    let complex = Complex { compounds: vec![c], combs: Vec::new() };
    Selector { specificity: specificity(&complex), complex, cap: Match::Unsure, doubt: true }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PseudoElement {
    /// A box of its own: never the element's text.
    Box,
    /// Part of the element's text (`::first-line`).
    Text,
}

struct Parser<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    depth: usize,
    /// Something was accepted that a browser might reject.
    doubt: bool,
    pseudo_element: Option<PseudoElement>,
}

fn ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'-' || b == b'\\' || b >= 0x80
}

/// The end of an identifier starting at `from` (escapes included).
fn ident_end(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\\' {
            // An escape: up to 6 hex digits and one space, or one character.
            if i + 1 >= bytes.len() {
                break;
            }
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
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn peek_at(&self, k: usize) -> Option<u8> {
        self.b.get(self.i + k).copied()
    }

    fn ws(&mut self) -> bool {
        let start = self.i;
        while self.peek().is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')) {
            self.i += 1;
        }
        self.i > start
    }

    /// An identifier (unescaped, case kept), or an error.
    fn ident(&mut self) -> Result<String, ()> {
        let start = self.i;
        match self.peek() {
            Some(b) if ident_start(b) => {}
            Some(b) if b.is_ascii_digit() => self.doubt = true,
            _ => return Err(()),
        }
        let end = ident_end(self.b, start);
        if end == start || !self.s.is_char_boundary(end) {
            return Err(());
        }
        self.i = end;
        Ok(css_unescape(&self.s[start..end]).into_owned())
    }

    fn complex(&mut self) -> Result<Complex, ()> {
        let mut compounds = vec![self.compound()?];
        let mut combs = Vec::new();
        loop {
            let spaced = self.ws();
            let comb = match self.peek() {
                None | Some(b',' | b')') => break,
                Some(b'>') => Comb::Child,
                Some(b'+') => Comb::Next,
                Some(b'~') => Comb::Later,
                Some(_) if spaced => Comb::Descendant,
                Some(_) => return Err(()),
            };
            if comb != Comb::Descendant {
                self.i += 1;
                self.ws();
            }
            if self.pseudo_element.is_some() {
                // Nothing may follow a pseudo-element.
                return Err(());
            }
            compounds.push(self.compound()?);
            combs.push(comb);
        }
        compounds.reverse();
        combs.reverse();
        Ok(Complex { compounds, combs })
    }

    fn compound(&mut self) -> Result<Compound, ()> {
        let start = self.i;
        let mut c = Compound::default();
        // A type or universal selector, maybe with a namespace prefix.
        let bar = |p: &Parser, k: usize| p.peek_at(k) == Some(b'|') && p.peek_at(k + 1) != Some(b'=');
        if self.peek() == Some(b'*') {
            self.i += 1;
            if bar(self, 0) {
                self.i += 1;
                c.tag = self.type_name()?;
            }
        } else if self.peek().is_some_and(ident_start) {
            let name = self.ident()?;
            if bar(self, 0) {
                self.i += 1;
                self.doubt = true;
                c.tag = self.type_name()?;
            } else {
                c.tag = Some(name.to_ascii_lowercase().into());
            }
        } else if bar(self, 0) {
            self.i += 1;
            self.doubt = true;
            c.tag = self.type_name()?;
        }
        loop {
            match self.peek() {
                Some(b'#') => {
                    self.i += 1;
                    c.ids.push(self.ident()?.into());
                }
                Some(b'.') => {
                    self.i += 1;
                    let class: Box<str> = self.ident()?.into();
                    c.classes_lower.push(class.to_ascii_lowercase().into());
                    c.classes.push(class);
                }
                Some(b'[') => c.attrs.push(self.attribute()?),
                Some(b':') => {
                    if let Some(p) = self.pseudo()? {
                        c.pseudos.push(p);
                    }
                }
                _ => break,
            }
        }
        if self.i == start {
            return Err(());
        }
        Ok(c)
    }

    /// After `ns|`: a name or `*`.
    fn type_name(&mut self) -> Result<Option<Box<str>>, ()> {
        if self.peek() == Some(b'*') {
            self.i += 1;
            return Ok(None);
        }
        Ok(Some(self.ident()?.to_ascii_lowercase().into()))
    }

    fn attribute(&mut self) -> Result<AttrSel, ()> {
        self.i += 1;
        self.ws();
        // A namespace prefix (`*|name`, `|name`, `ns|name`).
        if self.peek() == Some(b'*') && self.peek_at(1) == Some(b'|') {
            self.i += 2;
            self.doubt = true;
        } else if self.peek() == Some(b'|') && self.peek_at(1) != Some(b'=') {
            self.i += 1;
        }
        let mut name = self.ident()?;
        if self.peek() == Some(b'|') && self.peek_at(1) != Some(b'=') {
            self.i += 1;
            self.doubt = true;
            name = self.ident()?;
        }
        self.ws();
        let name: Box<str> = name.to_ascii_lowercase().into();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(AttrSel { name, test: None });
        }
        let op = match (self.peek(), self.peek_at(1)) {
            (Some(b'='), _) => AttrOp::Equals,
            (Some(b'~'), Some(b'=')) => AttrOp::Word,
            (Some(b'|'), Some(b'=')) => AttrOp::Dash,
            (Some(b'^'), Some(b'=')) => AttrOp::Prefix,
            (Some(b'$'), Some(b'=')) => AttrOp::Suffix,
            (Some(b'*'), Some(b'=')) => AttrOp::Substring,
            _ => return Err(()),
        };
        self.i += if op == AttrOp::Equals { 1 } else { 2 };
        self.ws();
        let value = match self.peek() {
            Some(q @ (b'"' | b'\'')) => self.string(q)?,
            _ => self.ident()?,
        };
        self.ws();
        let mut case = None;
        if let Some(f) = self.peek().filter(|b| b.is_ascii_alphabetic()) {
            self.i += 1;
            case = match f.to_ascii_lowercase() {
                b'i' => Some(false),
                b's' => Some(true),
                _ => return Err(()),
            };
            self.ws();
        }
        if self.peek() != Some(b']') {
            return Err(());
        }
        self.i += 1;
        Ok(AttrSel { name, test: Some((op, value.into(), case)) })
    }

    fn string(&mut self, quote: u8) -> Result<String, ()> {
        let start = self.i + 1;
        let mut i = start;
        while i < self.b.len() {
            match self.b[i] {
                b'\\' => i += 2,
                b'\n' => return Err(()),
                b if b == quote => {
                    let raw = self.s.get(start..i).ok_or(())?;
                    self.i = i + 1;
                    return Ok(css_unescape(raw).into_owned());
                }
                _ => i += 1,
            }
        }
        Err(())
    }

    /// The index just past the `)` that closes the `(` at `open`.
    fn close_paren(&self, open: usize) -> Result<usize, ()> {
        let (mut depth, mut quote, mut i) = (0usize, 0u8, open);
        while i < self.b.len() {
            let b = self.b[i];
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
                depth -= 1;
                if depth == 0 {
                    return Ok(i + 1);
                }
            }
            i += 1;
        }
        Err(())
    }

    /// A pseudo-class (`None` when it is a pseudo-element, recorded).
    fn pseudo(&mut self) -> Result<Option<Pseudo>, ()> {
        self.i += 1;
        let element = self.peek() == Some(b':');
        if element {
            self.i += 1;
        }
        let name = self.ident()?.to_ascii_lowercase();
        let args = if self.peek() == Some(b'(') {
            let end = self.close_paren(self.i)?;
            let inner = self.s.get(self.i + 1..end - 1).ok_or(())?;
            self.i = end;
            Some(inner)
        } else {
            None
        };
        let legacy_element = matches!(name.as_str(), "before" | "after" | "first-line" | "first-letter");
        if element || legacy_element {
            if self.pseudo_element.is_some() {
                return Err(());
            }
            let text = matches!(name.as_str(), "first-line" | "first-letter" | "details-content");
            self.pseudo_element = Some(if text { PseudoElement::Text } else { PseudoElement::Box });
            return Ok(None);
        }
        if self.pseudo_element.is_some() {
            // `::before:hover` and the like: the box, in some state.
            return Ok(None);
        }
        let nth = |a, b, of_type, from_end| Pseudo::Nth { a, b, of_type, from_end };
        let p = match (name.as_str(), args) {
            ("not", Some(a)) => Pseudo::Not(self.list(a, false)?),
            ("where", Some(a)) => Pseudo::Where(self.list(a, true)?),
            ("is" | "matches" | "any" | "-webkit-any" | "-moz-any", Some(a)) => Pseudo::Is(self.list(a, true)?),
            ("nth-child" | "nth-last-child" | "nth-of-type" | "nth-last-of-type", Some(a)) => {
                let (an_b, of) = split_of(a);
                let (a, b) = parse_nth(an_b)?;
                if of.is_some() {
                    Pseudo::Unsure
                } else {
                    nth(a, b, name.ends_with("of-type"), name.contains("-last-"))
                }
            }
            ("has" | "lang" | "dir" | "state", Some(_)) => Pseudo::Unsure,
            ("host" | "host-context" | "slotted" | "current" | "past" | "future", Some(_)) => Pseudo::Never,
            (_, Some(_)) => {
                self.doubt = true;
                Pseudo::Unsure
            }
            ("first-child", None) => nth(0, 1, false, false),
            ("last-child", None) => nth(0, 1, false, true),
            ("first-of-type", None) => nth(0, 1, true, false),
            ("last-of-type", None) => nth(0, 1, true, true),
            ("only-child", None) => Pseudo::Only { of_type: false },
            ("only-of-type", None) => Pseudo::Only { of_type: true },
            ("root" | "scope", None) => Pseudo::Root,
            ("link" | "any-link" | "-webkit-any-link" | "-moz-any-link", None) => Pseudo::Link,
            ("checked", None) => Pseudo::Checked,
            ("disabled", None) => Pseudo::Disabled,
            ("enabled", None) => Pseudo::Enabled,
            ("defined", None) => Pseudo::Defined,
            ("open", None) => Pseudo::Open,
            ("empty", None) => Pseudo::Empty,
            (
                "hover"
                | "active"
                | "focus"
                | "focus-visible"
                | "focus-within"
                | "target"
                | "target-within"
                | "visited"
                | "user-invalid"
                | "user-valid"
                | "-moz-ui-invalid"
                | "-moz-ui-valid"
                | "-moz-focusring"
                | "autofill"
                | "-webkit-autofill"
                | "fullscreen"
                | "-webkit-full-screen"
                | "-moz-full-screen"
                | "modal"
                | "popover-open"
                | "picture-in-picture"
                | "playing"
                | "paused"
                | "seeking"
                | "buffering"
                | "stalled"
                | "muted"
                | "volume-locked"
                | "current"
                | "past"
                | "future"
                | "drop"
                | "local-link"
                | "host",
                None,
            ) => Pseudo::Never,
            (
                "required" | "optional" | "read-only" | "read-write" | "placeholder-shown" | "default"
                | "indeterminate" | "valid" | "invalid" | "in-range" | "out-of-range" | "blank",
                None,
            ) => Pseudo::Unsure,
            _ => {
                self.doubt = true;
                Pseudo::Unsure
            }
        };
        Ok(Some(p))
    }

    /// The selector list inside `:is()` or `:not()`. In a forgiving list
    /// (`:is`, `:where`) a selector we cannot parse is unsure; in `:not()`
    /// it makes the whole selector one we cannot parse.
    fn list(&mut self, inner: &str, forgiving: bool) -> Result<Vec<Complex>, ()> {
        if self.depth >= MAX_SELECTOR_NESTING {
            return Err(());
        }
        let mut out = Vec::new();
        for part in split_top(inner, b',') {
            let mut p =
                Parser { s: part, b: part.as_bytes(), i: 0, depth: self.depth + 1, doubt: false, pseudo_element: None };
            p.ws();
            let parsed = p.complex().and_then(|c| {
                p.ws();
                if p.i < p.b.len() || p.pseudo_element.is_some() { Err(()) } else { Ok(c) }
            });
            match parsed {
                Ok(c) => {
                    self.doubt |= p.doubt;
                    out.push(c);
                }
                Err(()) if forgiving => out.push(Complex {
                    compounds: vec![Compound { pseudos: vec![Pseudo::Unsure], ..Compound::default() }],
                    combs: Vec::new(),
                }),
                Err(()) => return Err(()),
            }
        }
        if out.is_empty() {
            return Err(());
        }
        Ok(out)
    }
}

/// `2n+1 of .x` → ("2n+1", Some(".x")).
fn split_of(a: &str) -> (&str, Option<&str>) {
    let lower = a.to_ascii_lowercase();
    let b = lower.as_bytes();
    let mut i = 0;
    while let Some(off) = lower[i..].find("of") {
        let at = i + off;
        let before = at == 0 || b[at - 1].is_ascii_whitespace();
        let after = b.get(at + 2).is_none_or(u8::is_ascii_whitespace);
        if before && after && at > 0 {
            return (&a[..at], Some(&a[at + 2..]));
        }
        i = at + 2;
    }
    (a, None)
}

/// `an+b`: `odd`, `even`, `3`, `-n+3`, `2n + 1`.
fn parse_nth(s: &str) -> Result<(i64, i64), ()> {
    let t: String = s.chars().filter(|c| !c.is_ascii_whitespace()).collect::<String>().to_ascii_lowercase();
    let int = |s: &str| -> Result<i64, ()> {
        let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
        if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(());
        }
        s.parse::<i64>().map_err(|_| ())
    };
    match t.as_str() {
        "odd" => return Ok((2, 1)),
        "even" => return Ok((2, 0)),
        _ => {}
    }
    match t.find('n') {
        Some(n) => {
            let a = match &t[..n] {
                "" | "+" => 1,
                "-" => -1,
                x => int(x)?,
            };
            let rest = &t[n + 1..];
            let b = if rest.is_empty() { 0 } else { int(rest)? };
            if !rest.is_empty() && !rest.starts_with(['+', '-']) {
                return Err(());
            }
            Ok((a, b))
        }
        None => Ok((0, int(&t)?)),
    }
}

fn nth_matches(a: i64, b: i64, index: i64) -> bool {
    if a == 0 {
        return index == b;
    }
    let d = index - b;
    d % a == 0 && d / a >= 0
}

/// (ids, classes, types) packed in one number that orders like the tuple.
fn specificity(c: &Complex) -> u32 {
    let (a, b, t) = c.compounds.iter().fold((0u32, 0u32, 0u32), |acc, c| {
        let s = compound_specificity(c);
        (acc.0 + s.0, acc.1 + s.1, acc.2 + s.2)
    });
    a.min(1023) << 20 | b.min(1023) << 10 | t.min(1023)
}

fn compound_specificity(c: &Compound) -> (u32, u32, u32) {
    let mut s = (c.ids.len() as u32, (c.classes.len() + c.attrs.len()) as u32, u32::from(c.tag.is_some()));
    for p in &c.pseudos {
        match p {
            Pseudo::Where(_) => {}
            Pseudo::Not(list) | Pseudo::Is(list) => {
                let most = list.iter().map(specificity).max().unwrap_or(0);
                s.0 += most >> 20;
                s.1 += most >> 10 & 1023;
                s.2 += most & 1023;
            }
            _ => s.1 += 1,
        }
    }
    s
}

/// Matching one selector against one element, within a step limit.
pub(super) struct Matcher<'a> {
    pub(super) tree: &'a dyn Tree,
    /// The page is in standards mode: classes and ids match by case.
    pub(super) standards: bool,
    pub(super) steps: u32,
}

/// Why a match failed: where the search may go on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fail {
    /// An earlier sibling of the element tried may still match.
    Sibling,
    /// A higher ancestor may still match.
    Ancestor,
    /// Nothing further up can match.
    Global,
}

impl Matcher<'_> {
    /// Does `sel` match element `e`?
    pub(super) fn matches(&mut self, sel: &Complex, e: Ref) -> Match {
        self.complex(sel, 0, e).0
    }

    fn complex(&mut self, sel: &Complex, i: usize, e: Ref) -> (Match, Fail) {
        let m = self.compound(&sel.compounds[i], e);
        if m == Match::No {
            return (Match::No, Fail::Sibling);
        }
        let Some(&comb) = sel.combs.get(i) else { return (m, Fail::Sibling) };
        let mut best = Match::No;
        let mut at = e;
        let step = |t: &dyn Tree, e: Ref| match comb {
            Comb::Descendant | Comb::Child => t.parent(e),
            Comb::Next | Comb::Later => t.prev(e),
        };
        let ran_out = if matches!(comb, Comb::Next | Comb::Later) { Fail::Ancestor } else { Fail::Global };
        let fail = loop {
            if self.steps > MAX_STEPS_PER_MATCH {
                best = best.or(Match::Unsure);
                break Fail::Global;
            }
            let next = match step(self.tree, at) {
                Step::At(n) => n,
                Step::None => break ran_out,
                Step::Unknown => {
                    best = best.or(Match::Unsure);
                    break ran_out;
                }
            };
            let (r, f) = self.complex(sel, i + 1, next);
            best = best.or(r);
            if best == Match::Yes || f == Fail::Global {
                break f;
            }
            match comb {
                Comb::Next => break f,
                Comb::Child => break Fail::Ancestor,
                Comb::Later if f == Fail::Ancestor => break f,
                _ => {}
            }
            at = next;
        };
        (m.and(best), fail)
    }

    fn compound(&mut self, c: &Compound, e: Ref) -> Match {
        self.steps += 1;
        let tree = self.tree;
        let n = tree.node(e);
        if let Some(t) = &c.tag
            && **t != *n.tag
        {
            return Match::No;
        }
        let mut m = Match::Yes;
        for id in &c.ids {
            m = m.and(match n.id.as_deref() {
                Some(v) if v == &**id => Match::Yes,
                Some(v) if !self.standards && v.eq_ignore_ascii_case(id) => Match::Unsure,
                _ => Match::No,
            });
            if m == Match::No {
                return m;
            }
        }
        for (class, lower) in c.classes.iter().zip(&c.classes_lower) {
            m = m.and(if n.classes.binary_search_by(|c| (**c).cmp(&**class)).is_ok() {
                Match::Yes
            } else if !self.standards && n.lower_classes().binary_search_by(|c| (**c).cmp(&**lower)).is_ok() {
                Match::Unsure
            } else {
                Match::No
            });
            if m == Match::No {
                return m;
            }
        }
        for a in &c.attrs {
            m = m.and(attribute(n, a));
            if m == Match::No {
                return m;
            }
        }
        for p in &c.pseudos {
            m = m.and(self.pseudo(p, e));
            if m == Match::No {
                return m;
            }
        }
        m
    }

    fn pseudo(&mut self, p: &Pseudo, e: Ref) -> Match {
        let tree = self.tree;
        let n = tree.node(e);
        let flag = |f: u8| if n.flags & f != 0 { Match::Yes } else { Match::No };
        match p {
            Pseudo::Not(list) => self.any(list, e).not(),
            Pseudo::Is(list) | Pseudo::Where(list) => self.any(list, e),
            &Pseudo::Only { of_type } => {
                let first = if of_type { n.type_index } else { n.index };
                let after = n.after.map(|a| if of_type { a.same_type } else { a.siblings });
                match (first, after) {
                    (1, Some(0)) => Match::Yes,
                    (0, _) | (1, None) => Match::Unsure,
                    _ => Match::No,
                }
            }
            &Pseudo::Nth { a, b, of_type, from_end } => {
                let index = match (from_end, n.after) {
                    (false, _) => i64::from(if of_type { n.type_index } else { n.index }),
                    (true, Some(after)) => i64::from(if of_type { after.same_type } else { after.siblings }) + 1,
                    (true, None) => 0,
                };
                if index == 0 {
                    Match::Unsure
                } else if nth_matches(a, b, index) {
                    Match::Yes
                } else {
                    Match::No
                }
            }
            Pseudo::Root => match self.tree.parent(e) {
                Step::None => Match::Yes,
                Step::At(_) => Match::No,
                Step::Unknown => Match::Unsure,
            },
            Pseudo::Link => flag(LINK),
            Pseudo::Checked => flag(CHECKED),
            Pseudo::Disabled => flag(DISABLED),
            Pseudo::Enabled => {
                if n.flags & CONTROL != 0 && n.flags & DISABLED == 0 {
                    Match::Yes
                } else {
                    Match::No
                }
            }
            // No script runs: a custom element is never defined.
            Pseudo::Defined => {
                if n.tag.contains('-') {
                    Match::No
                } else {
                    Match::Yes
                }
            }
            Pseudo::Open => flag(OPEN),
            Pseudo::Empty => match n.after {
                Some(a) if a.empty => Match::Yes,
                Some(_) => Match::No,
                None => Match::Unsure,
            },
            Pseudo::Never => Match::No,
            Pseudo::Unsure => Match::Unsure,
        }
    }

    fn any(&mut self, list: &[Complex], e: Ref) -> Match {
        let mut best = Match::No;
        for c in list {
            best = best.or(self.matches(c, e));
            if best == Match::Yes {
                break;
            }
        }
        best
    }
}

/// Attribute values the HTML standard compares without case.
fn case_insensitive_value(name: &str) -> bool {
    matches!(
        name,
        "accept"
            | "accept-charset"
            | "align"
            | "alink"
            | "axis"
            | "bgcolor"
            | "charset"
            | "checked"
            | "clear"
            | "codetype"
            | "color"
            | "compact"
            | "declare"
            | "defer"
            | "dir"
            | "direction"
            | "disabled"
            | "enctype"
            | "face"
            | "frame"
            | "hreflang"
            | "http-equiv"
            | "lang"
            | "language"
            | "link"
            | "media"
            | "method"
            | "multiple"
            | "nohref"
            | "noresize"
            | "noshade"
            | "nowrap"
            | "readonly"
            | "rel"
            | "rev"
            | "rules"
            | "scope"
            | "scrolling"
            | "selected"
            | "shape"
            | "target"
            | "text"
            | "type"
            | "valign"
            | "valuetype"
            | "vlink"
    )
}

fn attribute(n: &Node, a: &AttrSel) -> Match {
    let Some(v) = n.attr(&a.name) else { return Match::No };
    let Some((op, want, case)) = &a.test else { return Match::Yes };
    let sensitive = case.unwrap_or(!case_insensitive_value(&a.name));
    let (v, want) = if sensitive {
        (std::borrow::Cow::Borrowed(v), std::borrow::Cow::Borrowed(&**want))
    } else {
        (std::borrow::Cow::Owned(v.to_ascii_lowercase()), std::borrow::Cow::Owned(want.to_ascii_lowercase()))
    };
    let hit = match op {
        AttrOp::Equals => *v == *want,
        AttrOp::Word => !want.is_empty() && v.split_ascii_whitespace().any(|w| w == &*want),
        AttrOp::Dash => *v == *want || v.strip_prefix(&*want).is_some_and(|r| r.starts_with('-')),
        AttrOp::Prefix => !want.is_empty() && v.starts_with(&*want),
        AttrOp::Suffix => !want.is_empty() && v.ends_with(&*want),
        AttrOp::Substring => !want.is_empty() && v.contains(&*want),
    };
    if hit { Match::Yes } else { Match::No }
}

impl Complex {
    /// Names of the attributes its attribute selectors test, anywhere.
    pub(super) fn attribute_names(&self, out: &mut Vec<Box<str>>) {
        for c in &self.compounds {
            out.extend(c.attrs.iter().map(|a| a.name.clone()));
            for p in &c.pseudos {
                if let Pseudo::Not(l) | Pseudo::Is(l) | Pseudo::Where(l) = p {
                    l.iter().for_each(|c| c.attribute_names(out));
                }
            }
        }
    }

    /// Does it look at siblings (`+`, `~`, positions)?
    pub(super) fn uses_siblings(&self) -> bool {
        self.combs.iter().any(|c| matches!(c, Comb::Next | Comb::Later))
            || self.compounds.iter().any(|c| {
                c.pseudos.iter().any(|p| match p {
                    Pseudo::Nth { .. } | Pseudo::Only { .. } => true,
                    Pseudo::Not(l) | Pseudo::Is(l) | Pseudo::Where(l) => l.iter().any(Complex::uses_siblings),
                    _ => false,
                })
            })
    }

    /// Does it need what comes later in the page (`:last-child`, `:empty`)?
    pub(super) fn uses_after(&self) -> bool {
        self.compounds.iter().any(|c| {
            c.pseudos.iter().any(|p| match p {
                Pseudo::Nth { from_end, .. } => *from_end,
                Pseudo::Empty | Pseudo::Only { .. } => true,
                Pseudo::Not(l) | Pseudo::Is(l) | Pseudo::Where(l) => l.iter().any(Complex::uses_after),
                _ => false,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page as nested lists: each node with its parent and previous
    /// sibling, by index.
    struct Page {
        nodes: Vec<(Node, Option<usize>, Option<usize>)>,
    }

    impl Tree for Page {
        fn node(&self, e: Ref) -> &Node {
            &self.nodes[e.0 as usize].0
        }
        fn parent(&self, e: Ref) -> Step {
            self.nodes[e.0 as usize].1.map_or(Step::None, |p| Step::At(Ref(p as u32, 0)))
        }
        fn prev(&self, e: Ref) -> Step {
            self.nodes[e.0 as usize].2.map_or(Step::None, |p| Step::At(Ref(p as u32, 0)))
        }
    }

    fn node(tag: &str, classes: &[&str], attrs: &[(&str, &str)], index: u32) -> Node {
        let mut c: Vec<Box<str>> = classes.iter().map(|c| (*c).into()).collect();
        c.sort();
        let mut lower: Vec<Box<str>> = classes.iter().map(|c| c.to_ascii_lowercase().into()).collect();
        lower.sort();
        let mut a: Vec<(Box<str>, Box<str>)> = attrs.iter().map(|(n, v)| ((*n).into(), (*v).into())).collect();
        a.sort();
        Node {
            tag: tag.into(),
            classes: c.into(),
            classes_lower: Some(lower.into()),
            attrs: a.into(),
            index,
            type_index: index,
            ..Node::default()
        }
    }

    /// html > body > div.wrap > (p.a, p#b[data-x=1].note, span.x)
    fn page() -> Page {
        Page {
            nodes: vec![
                (node("html", &[], &[], 1), None, None),
                (node("body", &[], &[], 1), Some(0), None),
                (node("div", &["wrap"], &[], 1), Some(1), None),
                (node("p", &["a"], &[], 1), Some(2), None),
                (
                    Node { id: Some("b".into()), ..node("p", &["note"], &[("data-x", "1"), ("lang", "EN-us")], 2) },
                    Some(2),
                    Some(3),
                ),
                (node("span", &["x", "Y"], &[], 3), Some(2), Some(4)),
            ],
        }
    }

    fn m(sel: &str, at: u32, standards: bool) -> Match {
        let s = match parse(sel) {
            Ok(Parsed::Selector(s)) => s,
            Ok(Parsed::Never) => return Match::No,
            other => panic!("{sel}: {other:?}"),
        };
        let p = page();
        let mut matcher = Matcher { tree: &p, standards, steps: 0 };
        let cap = if s.doubt { Match::Unsure } else { s.cap };
        matcher.matches(&s.complex, Ref(at, 0)).and(cap)
    }

    #[test]
    fn combinators_and_compounds() {
        use Match::*;
        let span = 5;
        for (sel, want) in [
            (".x", Yes),
            ("div .x", Yes),
            ("div > .x", Yes),
            ("body > .x", No),
            ("body .x", Yes),
            (".a + .x", No),
            ("#b + .x", Yes),
            (".a ~ .x", Yes),
            (".a ~ span", Yes),
            ("p ~ p", No),
            ("html body div.wrap > p.a ~ span.x", Yes),
            ("div p .x", No),
            (".wrap > .note + span:nth-child(3)", Yes),
            ("span:nth-child(2n+1)", Yes),
            ("span:nth-child(even)", No),
            ("span:first-child", No),
            (":not(.x)", No),
            (":not(.a, .b)", Yes),
            (":is(.q, .x)", Yes),
            ("div:where(.wrap) :is(span)", Yes),
            ("span:hover", No),
            ("span:last-child", Unsure),
            ("span:has(b)", Unsure),
            ("*", Yes),
            (".X", No),
            ("SPAN.x", Yes),
        ] {
            assert_eq!(m(sel, span, true), want, "{sel}");
        }
        // Quirks mode (or a page whose mode we do not know): case differs.
        assert_eq!(m(".X", span, false), Unsure);
        assert_eq!(m(".y", span, false), Unsure);
        assert_eq!(m(".Y", span, false), Yes);
    }

    #[test]
    fn attribute_selectors() {
        use Match::*;
        let p = 4;
        for (sel, want) in [
            ("[data-x]", Yes),
            ("[data-x='1']", Yes),
            ("[data-x=\"2\"]", No),
            ("[data-y]", No),
            ("[lang|=en]", Yes),
            ("[lang^=EN]", Yes),
            ("[data-x='1' i]", Yes),
            ("p[data-x]#b.note", Yes),
            ("[DATA-X]", Yes),
        ] {
            assert_eq!(m(sel, p, true), want, "{sel}");
        }
    }

    #[test]
    fn specificity_orders_like_the_standard() {
        let s = |sel: &str| match parse(sel) {
            Ok(Parsed::Selector(s)) => s.specificity,
            other => panic!("{sel}: {other:?}"),
        };
        assert!(s("#a") > s(".a.b.c"));
        assert!(s(".a") > s("div p span"));
        assert_eq!(s(":where(#a) p"), s("p"));
        assert_eq!(s(":is(#a, p)"), s("#a"));
        assert_eq!(s(":not(.a)"), s(".b"));
        assert_eq!(s("[x]"), s(".y"));
    }

    #[test]
    fn what_parses_and_what_does_not() {
        assert!(matches!(parse("p::before"), Ok(Parsed::PseudoBox)));
        assert!(matches!(parse("a:hover .x"), Ok(Parsed::Never)));
        assert!(matches!(parse("p::first-line"), Ok(Parsed::Selector(Selector { cap: Match::Unsure, .. }))));
        assert!(matches!(parse(".x:-moz-weird"), Ok(Parsed::Selector(Selector { doubt: true, .. }))));
        for bad in ["", ".", "#", "p >", "> p", "[x", "[x==y]", ":not()", "p::before .x", "a!b", ":nth-child(x)"] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        let a = approximate("div > !.x#y:bogus(");
        assert_eq!(a.cap, Match::Unsure);
        assert_eq!(&*a.complex.compounds[0].classes[0], "x");
        assert_eq!(&*a.complex.compounds[0].ids[0], "y");
    }

    #[test]
    fn nth_forms() {
        assert_eq!(parse_nth("odd"), Ok((2, 1)));
        assert_eq!(parse_nth(" -n + 3 "), Ok((-1, 3)));
        assert_eq!(parse_nth("+5"), Ok((0, 5)));
        assert_eq!(parse_nth("2N-1"), Ok((2, -1)));
        assert!(parse_nth("n2").is_err());
        assert!(nth_matches(-1, 3, 1) && nth_matches(-1, 3, 3) && !nth_matches(-1, 3, 4));
        assert!(nth_matches(2, 1, 5) && !nth_matches(2, 1, 4));
        assert_eq!(split_of("2n+1 of .x"), ("2n+1 ", Some(" .x")));
    }
}
