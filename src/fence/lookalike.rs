//! Boundary look-alikes, found by what they look like. Each character is
//! read as its UTS #39 confusable skeleton (`о` → `o`, `❮` → `<`, `⁄` →
//! `/`, `ｍ` → `rn`), case folded, invisible characters dropped and HTML
//! character references (`&lt;`, `&#x3c;`) decoded, and a run that then
//! reads as our tag or a chat-template marker is one: [`boundaries`] finds
//! each and the characters that make it one (its brackets, pipes and
//! quotes), which `fence::defuse` replaces with visible substitutes.
//!
//! The markers: our tag (`untrusted` and `content` with anything but a
//! letter or digit between them), `<|name|>` tokens, `[INST]`, `<<SYS>>`,
//! prompt-section tags (`<system>`, `</instructions>`…), the role keys of
//! chat JSON (`"role":`) and INERTBOX anchors, each opening or closing,
//! with white space where a reader would skip it.
//!
//! Linear time: a match is tried only where a character reads as `<`, `[`
//! or `"`; a try reads white space, then a name of at most [`MAX_NAME`]
//! symbols, then, once the name is a marker's, a bounded run of attributes;
//! a try that fails while reading attributes stops at the next `<`, where
//! the next try starts, so no two failed tries read the same attributes.

use std::ops::Range;
use std::sync::LazyLock;

use super::fold_table::{FOLD, STARTS};
use crate::detect::normalize::skeleton_ascii;

/// The longest name a marker is read with (ours is 17 symbols, `<|…|>`
/// names up to 40).
const MAX_NAME: usize = 40;
/// Symbols of attributes after our tag's name, up to its `>`.
const MAX_OUR_ATTRIBUTES: usize = 200;
/// Symbols of attributes after a prompt-section tag's name, up to its `>`.
const MAX_SECTION_ATTRIBUTES: usize = 100;
/// Symbols between `untrusted` and `content` (`untrusted — content`).
const MAX_OUR_SEPARATOR: usize = 8;
/// Hex digits of an INERTBOX anchor's tag.
const MAX_ANCHOR_TAG: usize = 64;
/// Digits of an INERTBOX anchor's version.
const MAX_ANCHOR_VERSION: usize = 8;
/// A character reads as at most this many symbols (the longest skeleton
/// of one character is five, and `m` reads as `rn`).
const MAX_FOLD: usize = 12;
/// The symbol of a character that reads as nothing ASCII.
const OTHER: u8 = 0xFF;

/// Prompt-section tag names, without their separators (`system_prompt`,
/// `system-prompt`).
const SECTION_NAMES: &[&str] = &[
    "system",
    "systeminstruction",
    "systeminstructions",
    "systemprompt",
    "instruction",
    "instructions",
    "assistant",
    "user",
    "developer",
    "human",
    "tool",
    "toolcall",
    "toolresult",
    "functioncall",
    "functionresult",
    "functionresults",
    "email",
    "document",
    "context",
    "untrusted",
    "external",
    "information",
    "important",
    "admin",
    "imstart",
    "imend",
    // Gemma's turns, and a reasoning model's thoughts.
    "startofturn",
    "endofturn",
    "think",
    // Tool turns of other templates, and reminders an agent's host adds.
    "toolresponse",
    "toolresponses",
    "tools",
    "functioncalls",
    "functions",
    "invoke",
    "systemreminder",
    "systemmessage",
];

/// Names in square brackets: Llama 2's and Mistral's `[INST]`, Mistral's
/// `[SYSTEM_PROMPT]`, `[AVAILABLE_TOOLS]` and tool turns.
const SQUARE_NAMES: &[&str] =
    &["inst", "systemprompt", "availabletools", "toolcalls", "toolresults", "toolcontent", "think"];

/// `<|name|>` tokens read with look-alike pipes too (`<lim_startl>`); any
/// other name needs pipes that are not letters or digits.
const TOKEN_NAMES: &[&str] = &[
    "imstart",
    "imend",
    "imsep",
    "endoftext",
    "system",
    "user",
    "assistant",
    "tool",
    "eotid",
    "eomid",
    "startheaderid",
    "endheaderid",
    "beginoftext",
    "start",
    "end",
    "message",
    "channel",
    "constrain",
    "return",
    "call",
];

/// Keys of chat and tool-call JSON, without their separators.
const JSON_KEYS: &[&str] = &["role", "toolcalls", "toolcall", "functioncall", "tooluse", "toolresult", "recipientname"];

/// What one character reads as in a boundary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fold {
    /// Nothing: an invisible character.
    Skip,
    /// ASCII symbols: white space as one space, letters in lower case.
    Ascii(Symbols),
    /// Nothing a boundary is made of.
    Other,
}

/// Up to [`MAX_FOLD`] ASCII symbols.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Symbols {
    bytes: [u8; MAX_FOLD],
    len: u8,
}

impl Symbols {
    const fn new() -> Symbols {
        Symbols { bytes: [0; MAX_FOLD], len: 0 }
    }

    const fn push(&mut self, b: u8) {
        self.bytes[self.len as usize] = b;
        self.len += 1;
    }

    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// `raw` (a skeleton) as symbols: lower case, and `i` read as `l` and
    /// `m` as `rn`, as `I` and `ｍ` already are (so case cannot split what
    /// the skeleton joins).
    pub(crate) const fn from_skeleton(raw: &[u8]) -> Symbols {
        let mut out = Symbols::new();
        let mut k = 0;
        while k < raw.len() {
            match raw[k].to_ascii_lowercase() {
                b'i' => out.push(b'l'),
                b'm' => {
                    out.push(b'r');
                    out.push(b'n');
                }
                b => out.push(b),
            }
            k += 1;
        }
        out
    }
}

/// How `c` reads in a boundary: white space as a space, its one-ASCII
/// skeleton (`skeleton_ascii`), nothing for an invisible character, else
/// what `fold_table` says (longer ASCII skeletons, the angle brackets
/// UTS #39 gives their own prototype `❬`, the dashes it reads as `ー`,
/// compatibility forms, dash and connector punctuation), then folded by
/// [`Symbols::from_skeleton`].
pub(crate) fn fold(c: char) -> Fold {
    if c.is_ascii() {
        return ASCII[c as usize];
    }
    fold_any(c)
}

fn fold_any(c: char) -> Fold {
    if c.is_whitespace() {
        return Fold::Ascii(Symbols::from_skeleton(b" "));
    }
    // Before the invisible ones: a braille blank reads as a space.
    if let Some(one) = skeleton_ascii(c) {
        return Fold::Ascii(Symbols::from_skeleton(&[one as u8]));
    }
    if crate::escape::is_invisible(c) {
        return Fold::Skip;
    }
    match FOLD.binary_search_by_key(&u32::from(c), |&(k, _)| k) {
        Ok(i) => {
            let raw = &FOLD[i].1;
            let len = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
            Fold::Ascii(Symbols::from_skeleton(&raw[..len]))
        }
        Err(_) => accented(c),
    }
}

/// A letter with accents reads as its letter (`ó`, or `o` and U+0301, as
/// `o`), and a combining mark on its own as nothing: an accent does not
/// make a tag name another.
fn accented(c: char) -> Fold {
    if is_mark(c) {
        return Fold::Skip;
    }
    if let Some(&(_, base)) = STROKED.iter().find(|&&(s, _)| s == c) {
        return fold(char::from(base));
    }
    let (mut base, mut marks_only) = (None, true);
    unicode_normalization::char::decompose_canonical(c, |d| match base {
        None => base = Some(d),
        Some(_) => marks_only &= is_mark(d),
    });
    match base {
        Some(b) if b != c && marks_only => match fold(b) {
            Fold::Ascii(s) => Fold::Ascii(s),
            Fold::Skip | Fold::Other => Fold::Other,
        },
        _ => Fold::Other,
    }
}

/// Latin letters whose stroke, bar or hook no decomposition removes (`ø`,
/// `đ`, `ɱ`), and the letter a reader sees in them.
const STROKED: &[(char, u8)] = &[
    ('ø', b'o'),
    ('Ø', b'o'),
    ('ɵ', b'o'),
    ('đ', b'd'),
    ('Đ', b'd'),
    ('ɗ', b'd'),
    ('ɖ', b'd'),
    ('ħ', b'h'),
    ('Ħ', b'h'),
    ('ɦ', b'h'),
    ('ł', b'l'),
    ('Ł', b'l'),
    ('ƚ', b'l'),
    ('ɫ', b'l'),
    ('ɬ', b'l'),
    ('ŧ', b't'),
    ('Ŧ', b't'),
    ('ƭ', b't'),
    ('ʈ', b't'),
    ('ɱ', b'm'),
    ('ʉ', b'u'),
    ('Ʉ', b'u'),
    ('ƀ', b'b'),
    ('Ƀ', b'b'),
    ('ɓ', b'b'),
    ('ɨ', b'i'),
    ('Ɨ', b'i'),
    ('ƶ', b'z'),
    ('Ƶ', b'z'),
    ('ȥ', b'z'),
    ('ɍ', b'r'),
    ('Ɍ', b'r'),
    ('ɽ', b'r'),
    ('ɏ', b'y'),
    ('Ɏ', b'y'),
    ('ƴ', b'y'),
    ('ǥ', b'g'),
    ('Ǥ', b'g'),
    ('ɠ', b'g'),
    ('ɉ', b'j'),
    ('Ɉ', b'j'),
    ('ƙ', b'k'),
    ('ꝁ', b'k'),
    ('ɲ', b'n'),
    ('ɳ', b'n'),
    ('ƞ', b'n'),
    ('ƥ', b'p'),
    ('ʠ', b'q'),
    ('ʂ', b's'),
    ('ȿ', b's'),
    ('ƈ', b'c'),
    ('ȼ', b'c'),
    ('ƒ', b'f'),
    ('ʋ', b'v'),
    ('ⱳ', b'w'),
    ('ɐ', b'a'),
    ('ⱥ', b'a'),
    ('ɇ', b'e'),
    ('Ɇ', b'e'),
];

fn is_mark(c: char) -> bool {
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
    matches!(c.general_category(), GeneralCategory::NonspacingMark | GeneralCategory::EnclosingMark)
}

/// The ASCII characters' folds, as `fold_any` gives them (a test checks
/// every one): white space as a space, the five whose skeleton is another
/// character (`0` → `O`, `1`, `I` and `|` → `l`, `` ` `` → `'`), `"` as
/// itself, `%` (skeleton `º/₀`) as nothing a boundary is made of, and
/// the others as themselves.
static ASCII: [Fold; 128] = {
    let mut table = [Fold::Other; 128];
    let mut b = 0;
    while b < 128 {
        let raw: &[u8] = match b as u8 {
            b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ' => b" ",
            b'0' => b"O",
            b'1' | b'I' | b'|' => b"l",
            b'`' => b"'",
            b'%' => b"",
            _ => std::slice::from_ref(&ASCII_BYTES[b]),
        };
        if !raw.is_empty() {
            table[b] = Fold::Ascii(Symbols::from_skeleton(raw));
        }
        b += 1;
    }
    table
};

/// Every ASCII byte, to borrow one as a slice in a constant.
const ASCII_BYTES: [u8; 128] = {
    let mut bytes = [0; 128];
    let mut b = 0;
    while b < 128 {
        bytes[b] = b as u8;
        b += 1;
    }
    bytes
};

/// Whether a match can start at `c`: it reads as `<`, `[`, `"` or `'`.
fn starts(c: char) -> bool {
    if c.is_ascii() {
        return matches!(c, '<' | '[' | '"' | '\'' | '`');
    }
    STARTS.binary_search(&u32::from(c)).is_ok()
}

/// What a character of a boundary is, and what stands in for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Open,
    Close,
    SquareOpen,
    SquareClose,
    Pipe,
    OpenQuote,
    CloseQuote,
}

impl Role {
    /// A visible substitute no skeleton reads as a bracket, pipe or quote.
    pub(crate) fn substitute(self) -> char {
        match self {
            Role::Open => '(',
            Role::Close => ')',
            Role::SquareOpen => '⟦',
            Role::SquareClose => '⟧',
            Role::Pipe => '¦',
            Role::OpenQuote => '«',
            Role::CloseQuote => '»',
        }
    }
}

/// One character of a boundary look-alike and the role it plays, at a
/// byte range of the text (u32: input is capped far below 4 GiB). Flat and
/// small: 8 MiB of markers are a million of them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    pub start: u32,
    pub end: u32,
    pub role: Role,
}

/// One symbol of the folded text and the bytes it was read from.
#[derive(Debug, Clone, Copy)]
struct Sym {
    b: u8,
    at: usize,
    end: usize,
    /// The character is a letter or digit.
    alnum: bool,
}

/// The folded text from a byte offset, a symbol at a time; cheap to copy,
/// so a try can look ahead and go back.
#[derive(Clone, Copy)]
struct Reader<'a> {
    text: &'a str,
    pos: usize,
    pending: Symbols,
    next: u8,
    at: usize,
    alnum: bool,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str, pos: usize) -> Reader<'a> {
        Reader { text, pos, pending: Symbols::new(), next: 0, at: pos, alnum: false }
    }

    fn next(&mut self) -> Option<Sym> {
        loop {
            if self.next < self.pending.len {
                let b = self.pending.bytes[usize::from(self.next)];
                self.next += 1;
                return Some(Sym { b, at: self.at, end: self.pos, alnum: self.alnum });
            }
            let rest = self.text.get(self.pos..).filter(|r| !r.is_empty())?;
            let (c, used) = read_char(rest);
            self.at = self.pos;
            self.pos += used;
            self.alnum = c.is_alphanumeric();
            match fold(c) {
                Fold::Skip => {}
                Fold::Other => return Some(Sym { b: OTHER, at: self.at, end: self.pos, alnum: self.alnum }),
                Fold::Ascii(s) => {
                    self.pending = s;
                    self.next = 0;
                }
            }
        }
    }

    fn peek(&self) -> Option<Sym> {
        let mut ahead = *self;
        ahead.next()
    }

    /// The next symbol if it is `b`.
    fn eat(&mut self, b: u8) -> Option<Sym> {
        let mut ahead = *self;
        let s = ahead.next().filter(|s| s.b == b)?;
        *self = ahead;
        Some(s)
    }

    /// Skip white space; how many symbols.
    fn spaces(&mut self) -> usize {
        let mut n = 0;
        while self.eat(b' ').is_some() {
            n += 1;
        }
        n
    }

    /// The folded `word` next, symbol by symbol, with at most one space
    /// between two of them (`s y s`).
    fn word(&mut self, word: &[u8]) -> bool {
        let mut ahead = *self;
        for (i, &b) in word.iter().enumerate() {
            if i > 0 && ahead.peek().is_some_and(|s| s.b == b' ') {
                ahead.next();
            }
            if ahead.next().is_none_or(|s| s.b != b) {
                return false;
            }
        }
        *self = ahead;
        true
    }

    /// One of `names` next: as a name, or letter-spaced (`s t a r t _ o f`).
    fn known(&mut self, names: &Names) -> bool {
        let mut plain = *self;
        if plain.name().is_some_and(|n| names.has(n.as_bytes())) {
            *self = plain;
            return true;
        }
        let mut spaced = *self;
        if spaced.spaced_name().is_some_and(|n| names.has(n.as_bytes())) {
            *self = spaced;
            return true;
        }
        let mut words = *self;
        if words.words_name().is_some_and(|n| names.has(n.as_bytes())) {
            *self = words;
            return true;
        }
        false
    }

    /// A name written as words with white space between (`start of
    /// turn`, `s  y  s`), returned without the spaces, `-` and `_`.
    fn words_name(&mut self) -> Option<Name> {
        let mut out = Name { bytes: [0; MAX_NAME], len: 0 };
        let mut n = 0;
        loop {
            let mut ahead = *self;
            // At most a few blanks between two words.
            let gap = (0..4).take_while(|_| ahead.eat(b' ').is_some()).count();
            let Some(s) = ahead.peek().filter(|s| s.b.is_ascii_alphanumeric() || s.b == b'-' || s.b == b'_') else {
                break;
            };
            if gap == 4 || (gap > 0 && n == 0) {
                break;
            }
            n += 1;
            if n > MAX_NAME {
                return None;
            }
            ahead.next();
            if s.b.is_ascii_alphanumeric() {
                out.push(s.b);
            }
            *self = ahead;
        }
        Some(out)
    }

    /// A name: letters, digits, `-` and `_`, at most [`MAX_NAME`]
    /// symbols, returned without the `-` and `_`; None when longer.
    fn name(&mut self) -> Option<Name> {
        let mut out = Name { bytes: [0; MAX_NAME], len: 0 };
        let mut n = 0;
        while let Some(s) = self.peek().filter(|s| s.b.is_ascii_alphanumeric() || s.b == b'-' || s.b == b'_') {
            n += 1;
            if n > MAX_NAME {
                return None;
            }
            if s.b.is_ascii_alphanumeric() {
                out.push(s.b);
            }
            self.next();
        }
        Some(out)
    }

    /// A name written a character at a time with one space between (`s y
    /// s t e m`), returned without the spaces, `-` and `_`; None when two of
    /// its symbols touch or it is longer than [`MAX_NAME`].
    fn spaced_name(&mut self) -> Option<Name> {
        let in_name = |s: &Sym| s.b.is_ascii_alphanumeric() || s.b == b'-' || s.b == b'_';
        let mut out = Name { bytes: [0; MAX_NAME], len: 0 };
        for n in 0.. {
            let s = self.peek().filter(in_name)?;
            if n == MAX_NAME {
                return None;
            }
            self.next();
            if s.b.is_ascii_alphanumeric() {
                out.push(s.b);
            }
            // The rest of the character's symbols (`m` reads as `rn`).
            while let Some(more) = self.peek().filter(|m| m.at == s.at && in_name(m)) {
                if out.len == MAX_NAME {
                    return None;
                }
                self.next();
                if more.b.is_ascii_alphanumeric() {
                    out.push(more.b);
                }
            }
            if self.peek().is_some_and(|s| in_name(&s)) {
                return None;
            }
            let mut gap = *self;
            if gap.eat(b' ').is_none() || !gap.peek().is_some_and(|s| in_name(&s)) {
                break;
            }
            *self = gap;
        }
        Some(out)
    }
}

/// A name as read, without its separators.
struct Name {
    bytes: [u8; MAX_NAME],
    len: usize,
}

impl Name {
    fn push(&mut self, b: u8) {
        self.bytes[self.len] = b;
        self.len += 1;
    }

    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// The character at the start of `rest`, or the character a reference
/// or an escape there stands for (`&lt;`, JSON's and JavaScript's `\u003c`,
/// `\x3c` and `\/`, Markdown's `\[`), and the bytes it used.
fn read_char(rest: &str) -> (char, usize) {
    if rest.starts_with('&')
        && let Some(r) = crate::html::char_reference(rest)
    {
        return r;
    }
    if rest.starts_with('\\')
        && let Some(r) = escaped(rest)
    {
        return r;
    }
    let c = rest.chars().next().expect("not empty");
    (c, c.len_utf8())
}

/// The character a backslash escape at the start of `rest` stands for.
fn escaped(rest: &str) -> Option<(char, usize)> {
    let b = rest.as_bytes();
    let hex = |digits: &[u8]| {
        let s = std::str::from_utf8(digits).ok()?;
        u32::from_str_radix(s, 16).ok().and_then(char::from_u32)
    };
    match b.get(1)? {
        b'u' if b.len() >= 6 && b[2..6].iter().all(u8::is_ascii_hexdigit) => Some((hex(&b[2..6])?, 6)),
        b'x' if b.len() >= 4 && b[2..4].iter().all(u8::is_ascii_hexdigit) => Some((hex(&b[2..4])?, 4)),
        &c if c.is_ascii_punctuation() && c != b'\\' => Some((char::from(c), 2)),
        _ => None,
    }
}

/// Names folded as text is, once.
struct Names(Vec<Vec<u8>>);

impl Names {
    fn new(names: &[&str]) -> Names {
        Names(names.iter().map(|n| fold_word(n)).collect())
    }

    fn has(&self, name: &[u8]) -> bool {
        self.0.iter().any(|n| n == name)
    }
}

/// `word` folded, symbol by symbol.
fn fold_word(word: &str) -> Vec<u8> {
    word.chars()
        .flat_map(|c| match fold(c) {
            Fold::Ascii(s) => s.as_bytes().to_vec(),
            Fold::Skip | Fold::Other => Vec::new(),
        })
        .collect()
}

struct Words {
    sections: Names,
    squares: Names,
    tokens: Names,
    keys: Names,
    untrusted: Vec<u8>,
    content: Vec<u8>,
    sys: Vec<u8>,
    inertbox: Vec<u8>,
    begin: Vec<u8>,
    end: Vec<u8>,
}

static WORDS: LazyLock<Words> = LazyLock::new(|| Words {
    sections: Names::new(SECTION_NAMES),
    squares: Names::new(SQUARE_NAMES),
    tokens: Names::new(TOKEN_NAMES),
    keys: Names::new(JSON_KEYS),
    untrusted: fold_word("untrusted"),
    content: fold_word("content"),
    sys: fold_word("sys"),
    inertbox: fold_word("inertbox"),
    begin: fold_word("begin"),
    end: fold_word("end"),
});

/// The characters a try marked so far (kept between tries, so a failed
/// try allocates nothing).
type Marks = Vec<(Range<usize>, Role)>;

/// The marks of each boundary look-alike in `text`, leftmost look-alike
/// first (a tag's closing bracket comes after what its attributes hold, so
/// marks are not in text order); empty when there is none.
pub(crate) fn boundaries(text: &str) -> Vec<Mark> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut marks = Marks::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        // Bytes that cannot start a character that starts a match.
        if b < 0x80 && !matches!(b, b'<' | b'[' | b'"' | b'\'' | b'`' | b'&' | b'\\') || (0x80..0xC0).contains(&b) {
            i += 1;
            continue;
        }
        let (c, used) = read_char(&text[i..]);
        let step = if matches!(b, b'&' | b'\\') { 1 } else { used };
        marks.clear();
        if starts(c)
            && let Some((_, resume)) = try_at(text, i, &mut marks)
        {
            out.extend(marks.iter().map(|(r, role)| Mark { start: r.start as u32, end: r.end as u32, role: *role }));
            i = resume;
        } else {
            i += step;
        }
    }
    out
}

/// The look-alike that starts at byte `i`, if one does: where it ends and
/// where the search goes on.
fn try_at(text: &str, i: usize, marks: &mut Marks) -> Option<(usize, usize)> {
    let mut r = Reader::new(text, i);
    let first = r.next()?;
    match first.b {
        b'<' => {
            marks.push((first.at..first.end, Role::Open));
            angle(r, marks)
        }
        b'[' => {
            marks.push((first.at..first.end, Role::SquareOpen));
            square(r, marks).map(|end| (end, end))
        }
        b'"' | b'\'' => {
            marks.push((first.at..first.end, Role::OpenQuote));
            quoted_key(r, marks).map(|end| (end, end))
        }
        _ => None,
    }
}

/// After a `<`: `<<SYS>>`, a `<|name|>` token, our tag or a prompt-section
/// tag. The end of the match, and where the search goes on.
fn angle(r: Reader, marks: &mut Marks) -> Option<(usize, usize)> {
    let w = &*WORDS;
    // `<<SYS>>`, `<</SYS>>` (`< <SYS> >` too).
    let mut t = r;
    t.spaces();
    if let Some(second) = t.eat(b'<') {
        t.spaces();
        t.eat(b'/');
        t.spaces();
        if t.word(&w.sys) {
            t.spaces();
            if let Some(a) = t.eat(b'>') {
                t.spaces();
                if let Some(b) = t.eat(b'>') {
                    marks.push((second.at..second.end, Role::Open));
                    marks.push((a.at..a.end, Role::Close));
                    marks.push((b.at..b.end, Role::Close));
                    return Some((b.end, b.end));
                }
            }
        }
    }
    let mut head = r;
    head.spaces();
    if let Some(end) = token(head, marks) {
        return Some((end, end));
    }
    let mut t = head;
    if t.eat(b'/').is_some() {
        t.spaces();
    }
    if let Some(found) = our_tag(t, marks) {
        return Some(found);
    }
    section(t, marks)
}

/// `|name|>` after a `<`: a chat-template token.
fn token(mut t: Reader, marks: &mut Marks) -> Option<usize> {
    let first = t.eat(b'l')?;
    // The name, the closing pipe and white space: at most this many.
    let mut body = [first; MAX_NAME + 2];
    let mut n = 0;
    let close = loop {
        let s = t.next()?;
        match s.b {
            b'>' => break s,
            b'<' => return None,
            _ if n == body.len() => return None,
            _ => {
                body[n] = s;
                n += 1;
            }
        }
    };
    while n > 0 && body[n - 1].b == b' ' {
        n -= 1;
    }
    if n < 2 || body[n - 1].b != b'l' {
        return None;
    }
    let last = body[n - 1];
    let body = &body[..n - 1];
    let mut name = Name { bytes: [0; MAX_NAME], len: 0 };
    for s in body.iter().filter(|s| !matches!(s.b, b'-' | b'_' | b' ')) {
        if name.len == MAX_NAME {
            return None;
        }
        name.push(s.b);
    }
    let known = WORDS.tokens.has(name.as_bytes());
    let any = !first.alnum
        && !last.alnum
        && body
            .iter()
            .all(|s| s.b.is_ascii_alphanumeric() || matches!(s.b, b'-' | b'_' | b' ') || s.b == OTHER && !s.alnum);
    if !known && !any {
        return None;
    }
    marks.push((first.at..first.end, Role::Pipe));
    marks.push((last.at..last.end, Role::Pipe));
    marks.push((close.at..close.end, Role::Close));
    Some(close.end)
}

/// `untrusted-content` and what follows it up to its `>` (or the next
/// `<`), after a `<` and an optional `/`.
fn our_tag(mut t: Reader, marks: &mut Marks) -> Option<(usize, usize)> {
    let w = &*WORDS;
    if !t.word(&w.untrusted) {
        return None;
    }
    let mut separator = 0;
    while !t.word(&w.content) {
        separator += 1;
        match t.next() {
            // Anything that reads as a dash or a space (`Ⲻ` is a letter
            // that reads as `-`), and anything else but letters, digits
            // and brackets.
            Some(s)
                if separator <= MAX_OUR_SEPARATOR
                    && (matches!(s.b, b'-' | b'_' | b' ')
                        || !s.alnum && !s.b.is_ascii_alphanumeric() && !matches!(s.b, b'<' | b'>')) => {}
            _ => return None,
        }
    }
    let head = t.pos;
    let mut end = head;
    for _ in 0..MAX_OUR_ATTRIBUTES {
        // Another tag starts: this one ends unclosed.
        let Some(s) = t.peek().filter(|s| s.b != b'<') else { break };
        t.next();
        end = s.end;
        if s.b == b'>' {
            marks.push((s.at..s.end, Role::Close));
            break;
        }
    }
    Some((end, head))
}

/// A prompt-section tag's name and attributes up to its `>` (or the next
/// `<`), after a `<` and an optional `/`.
fn section(mut t: Reader, marks: &mut Marks) -> Option<(usize, usize)> {
    if !t.known(&WORDS.sections) {
        return None;
    }
    let head = t.pos;
    let spaced = t.spaces() > 0;
    if let Some(s) = t.eat(b'>') {
        marks.push((s.at..s.end, Role::Close));
        return Some((s.end, s.end));
    }
    let mut ahead = t;
    if ahead.eat(b'/').is_some() {
        ahead.spaces();
        if let Some(s) = ahead.eat(b'>') {
            marks.push((s.at..s.end, Role::Close));
            return Some((s.end, s.end));
        }
    }
    if !spaced {
        return None;
    }
    let mut end = head;
    for _ in 0..MAX_SECTION_ATTRIBUTES {
        let s = t.next()?;
        match s.b {
            b'>' => {
                marks.push((s.at..s.end, Role::Close));
                return Some((s.end, head));
            }
            // Another tag starts: this one ends unclosed (were it left as
            // it is, defusing the other would close it).
            b'<' => return Some((end, head)),
            _ => end = s.end,
        }
    }
    None
}

/// After a `[`: `[INST]`, `[/SYSTEM_PROMPT]` and the other square
/// names, or an INERTBOX anchor.
fn square(mut t: Reader, marks: &mut Marks) -> Option<usize> {
    let w = &*WORDS;
    t.spaces();
    let head = t;
    if t.eat(b'/').is_some() {
        t.spaces();
    }
    if t.known(&w.squares) {
        t.spaces();
        let s = t.eat(b']')?;
        marks.push((s.at..s.end, Role::SquareClose));
        return Some(s.end);
    }
    // The white space between the parts may go (a blank a strip removed).
    let mut t = head;
    if !t.word(&w.inertbox) {
        return None;
    }
    t.spaces();
    t.eat(b'v')?;
    t.spaces();
    let digit = |b: u8| b.is_ascii_digit() || matches!(b, b'o' | b'l');
    let hex = |b: u8| digit(b) || (b'a'..=b'f').contains(&b);
    if run(&mut t, digit, MAX_ANCHOR_VERSION) == 0 {
        return None;
    }
    t.spaces();
    if !(t.word(&w.begin) || t.word(&w.end)) {
        return None;
    }
    t.spaces();
    if run(&mut t, hex, MAX_ANCHOR_TAG + 1) > MAX_ANCHOR_TAG {
        return None;
    }
    t.spaces();
    let s = t.eat(b']')?;
    marks.push((s.at..s.end, Role::SquareClose));
    Some(s.end)
}

/// Skip up to `most` symbols that `ok` takes, with at most one space
/// between two of them (`1 a 2 b`); how many.
fn run(t: &mut Reader, ok: impl Fn(u8) -> bool, most: usize) -> usize {
    let mut n = 0;
    while n < most && t.peek().is_some_and(|s| ok(s.b)) {
        t.next();
        n += 1;
        let mut gap = *t;
        if gap.eat(b' ').is_some() && gap.peek().is_some_and(|s| ok(s.b)) {
            *t = gap;
        }
    }
    n
}

/// After a `"` or `'`: a chat JSON key (or a Python dict's), its closing
/// quote and the `:`. A quote may be two apostrophes (`''role'':`).
fn quoted_key(mut t: Reader, marks: &mut Marks) -> Option<usize> {
    let quote = |b: u8| b == b'"' || b == b'\'';
    if let Some(s) = t.eat(b'\'') {
        marks.push((s.at..s.end, Role::OpenQuote));
    }
    t.spaces();
    if !t.known(&WORDS.keys) {
        return None;
    }
    t.spaces();
    let q = t.next().filter(|s| quote(s.b))?;
    marks.push((q.at..q.end, Role::CloseQuote));
    if let Some(s) = t.eat(b'\'') {
        marks.push((s.at..s.end, Role::CloseQuote));
    }
    t.spaces();
    let colon = t.eat(b':')?;
    Some(colon.end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_normalization::UnicodeNormalization;
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

    fn skeleton(c: char) -> String {
        unicode_security::confusable_detection::skeleton(c.encode_utf8(&mut [0; 4])).collect()
    }

    /// What a character reads as before [`Symbols::from_skeleton`], by
    /// UTS #39 (unicode-security) and NFKC: the specification `fold` and
    /// its table follow.
    fn spec_raw(c: char) -> Option<String> {
        let sk = skeleton(c);
        if !sk.is_empty() && sk.is_ascii() {
            // The skeleton of `"` is two apostrophes; it stays one symbol.
            return Some(if sk == "''" { "\"".into() } else { sk });
        }
        match sk.as_str() {
            // UTS #39's prototypes of the angle brackets (`⟨`, `〈`) and the
            // long dashes (`—`, `―`).
            "\u{276C}" => return Some("<".into()),
            "\u{276D}" => return Some(">".into()),
            "\u{30FC}" => return Some("-".into()),
            _ => {}
        }
        // Angle-shaped brackets UTS #39 leaves as themselves: double ones
        // (`《`, `⟪`) and the less-than-with-dot (`⋖`).
        match c {
            '\u{300A}' | '\u{27EA}' | '\u{22D6}' | '\u{FE3D}' => return Some("<".into()),
            '\u{300B}' | '\u{27EB}' | '\u{22D7}' | '\u{FE3E}' => return Some(">".into()),
            _ => {}
        }
        let nfkc: String = std::iter::once(c).nfkc().collect();
        let mut one = nfkc.chars();
        if let (Some(d), None) = (one.next(), one.next())
            && d != c
            && let Some(raw) = spec_raw(d)
        {
            return Some(raw);
        }
        match c.general_category() {
            GeneralCategory::DashPunctuation => Some("-".into()),
            GeneralCategory::ConnectorPunctuation => Some("_".into()),
            _ => None,
        }
    }

    fn spec_fold(c: char) -> Fold {
        if c.is_whitespace() {
            return Fold::Ascii(Symbols::from_skeleton(b" "));
        }
        let sk = skeleton(c);
        if sk.len() == 1 && sk.is_ascii() {
            return Fold::Ascii(Symbols::from_skeleton(sk.as_bytes()));
        }
        if crate::escape::is_invisible(c) {
            return Fold::Skip;
        }
        if let Some(raw) = spec_raw(c) {
            return Fold::Ascii(Symbols::from_skeleton(raw.as_bytes()));
        }
        // Accents: a combining mark reads as nothing, a letter with
        // accents (by its canonical decomposition) as its letter.
        if matches!(c.general_category(), GeneralCategory::NonspacingMark | GeneralCategory::EnclosingMark) {
            return Fold::Skip;
        }
        if let Some(&(_, base)) = STROKED.iter().find(|&&(s, _)| s == c) {
            return spec_fold(char::from(base));
        }
        let nfd: Vec<char> = std::iter::once(c).nfd().collect();
        let marks_only = nfd[1..]
            .iter()
            .all(|m| matches!(m.general_category(), GeneralCategory::NonspacingMark | GeneralCategory::EnclosingMark));
        if nfd[0] == c || !marks_only {
            return Fold::Other;
        }
        match spec_fold(nfd[0]) {
            Fold::Ascii(s) => Fold::Ascii(s),
            Fold::Skip | Fold::Other => Fold::Other,
        }
    }

    /// `fold_table.rs` as the specification makes it: what `skeleton_ascii`
    /// does not say, and where a match can start.
    fn fold_table_source() -> String {
        let mut rows = String::new();
        let mut starts = Vec::new();
        let mut n_rows = 0;
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            if c.is_whitespace() || crate::escape::is_invisible(c) {
                continue;
            }
            let sk = skeleton(c);
            let one_ascii = sk.len() == 1 && sk.is_ascii();
            if !one_ascii && let Some(raw) = spec_raw(c) {
                assert!(raw.len() <= 5 && !raw.contains('\0'), "{c:?}: {raw:?}");
                let padded: String = (0..5)
                    .map(|i| match raw.as_bytes().get(i) {
                        None => "\\0".to_string(),
                        Some(b'"') => "\\\"".to_string(),
                        Some(b'\\') => "\\\\".to_string(),
                        Some(&b) if b.is_ascii_graphic() || b == b' ' => char::from(b).to_string(),
                        Some(b) => format!("\\x{b:02x}"),
                    })
                    .collect();
                rows.push_str(&format!("    ({:#x}, *b\"{padded}\"),\n", u32::from(c)));
                n_rows += 1;
            }
            if !c.is_ascii()
                && let Fold::Ascii(s) = spec_fold(c)
                && matches!(s.as_bytes().first(), Some(b'<' | b'[' | b'"' | b'\''))
            {
                starts.push(c);
            }
        }
        // One a line with the character, its comment aligned as rustfmt
        // aligns it.
        let width = starts.iter().map(|&c| format!("{:#x},", u32::from(c)).len()).max().unwrap_or(0);
        let n_starts = starts.len();
        let starts: String =
            starts.iter().map(|&c| format!("    {:width$} // {c}\n", format!("{:#x},", u32::from(c)))).collect();
        format!(
            "{}pub(super) static FOLD: [(u32, [u8; 5]); {n_rows}] = [\n{rows}];\n\n\
             /// The characters past ASCII that read as `<`, `[`, `\"` or `'`, sorted: where a\n\
             /// boundary look-alike can start.\n\
             pub(super) static STARTS: [u32; {n_starts}] = [\n{starts}];\n",
            concat!(
                "// @generated by `fence::lookalike::tests::fold_table_is_unicode_securitys`\n",
                "// (src/fence/lookalike.rs) from unicode-security's confusables and\n",
                "// unicode-normalization's NFKC, at the versions in Cargo.lock. Do not edit;\n",
                "// regenerate with `INERTBOX_REGENERATE=1 cargo test --lib fold_table`.\n",
                "\n",
                "//! What `fence::lookalike::fold` reads a character as where\n",
                "//! `skeleton_ascii` has no answer, sorted, padded with NUL: a skeleton of\n",
                "//! two to five ASCII characters (`m` → `rn`, `\u{2033}` → `\"`), the angle\n",
                "//! brackets and long dashes UTS #39 gives their own prototype (`\u{27E8}` → `<`,\n",
                "//! `\u{2014}` → `-`), a compatibility form (`\u{24E4}` → `u`), dash and connector\n",
                "//! punctuation (`-`, `_`). Plain arrays: no pointers to relocate.\n",
                "\n",
            )
        )
    }

    /// The committed table is what unicode-security and NFKC say, and
    /// `fold` reads every character as the specification does. With
    /// INERTBOX_REGENERATE set, the table is written anew first.
    #[test]
    fn fold_table_is_unicode_securitys() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/fence/fold_table.rs");
        let want = fold_table_source();
        crate::testing::generated_file_is_current(path, &want, "fold_table");
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            assert_eq!(fold(c), spec_fold(c), "{c:?} U+{:04X}", u32::from(c));
        }
    }
}
