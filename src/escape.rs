//! What a person cannot see, and how text is shown so they can: the one
//! definition of an invisible character (`classify`, [`is_invisible`])
//! and the two ways text is escaped for display, a quote in a finding
//! ([`shown`]) and a label on a terminal ([`terminal_safe`]). A leaf:
//! every module that needs these calls them here.

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// Characters of text quoted in a finding.
const MAX_QUOTE: usize = 200;
/// A quoted run of invisible characters is counted this far; a longer one
/// ends the quote (`(65536+ invisible characters)…`).
const MAX_RUN_COUNTED: usize = 1 << 16;

/// What an invisible character is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Class {
    Tag,
    Selector,
    MongolianSelector,
    ZeroWidth,
    /// LRM, RLM, ALM.
    BidiMark,
    /// Embeddings, isolates and PDF.
    BidiEmbed,
    /// LRO, RLO.
    BidiOverride,
    SoftHyphen,
    Filler,
    /// Spaces other than U+0020 (legitimate alone, a channel in runs).
    Space,
    Format,
}

/// The pages of 256 characters of the Basic Multilingual Plane that hold
/// a character [`classify`] names: text in any other page is answered at
/// once (the match below is a chain of comparisons, run for every
/// character that is not ASCII). A test checks every character.
const BMP_PAGES_NAMED: [bool; 256] = {
    let pages = [0x00, 0x03, 0x06, 0x11, 0x16, 0x17, 0x18, 0x20, 0x28, 0x30, 0x31, 0xFE, 0xFF];
    let mut t = [false; 256];
    let mut i = 0;
    while i < pages.len() {
        t[pages[i]] = true;
        i += 1;
    }
    t
};

/// The class of a character that shows as nothing, or as a blank other
/// than the space (the invisible channels), or `None`.
pub(crate) fn classify(c: char) -> Option<Class> {
    let cp = c as u32;
    if cp < 0xA0 || (cp <= 0xFFFF && !BMP_PAGES_NAMED[(cp >> 8) as usize]) {
        return None;
    }
    classify_by_table(c)
}

/// [`classify`] without the look at the page first.
fn classify_by_table(c: char) -> Option<Class> {
    let class = match c as u32 {
        0x00..=0x9F => return None,
        0xA0 => Class::Space,
        0xAD => Class::SoftHyphen,
        0x034F => Class::Filler,
        0x061C => Class::BidiMark,
        0x115F | 0x1160 => Class::Filler,
        0x1680 => Class::Space,
        0x17B4 | 0x17B5 => Class::Filler,
        0x180B..=0x180D | 0x180F => Class::MongolianSelector,
        0x180E => Class::ZeroWidth,
        0x2000..=0x200A => Class::Space,
        0x200B..=0x200D => Class::ZeroWidth,
        0x200E | 0x200F => Class::BidiMark,
        0x202A..=0x202C | 0x2066..=0x2069 => Class::BidiEmbed,
        0x202D | 0x202E => Class::BidiOverride,
        0x202F | 0x205F => Class::Space,
        0x2060 => Class::ZeroWidth,
        0x2061..=0x2065 | 0x206A..=0x206F => Class::Format,
        0x2800 => Class::Filler,
        0x3000 => Class::Space,
        0x3164 => Class::Filler,
        0xFE00..=0xFE0F => Class::Selector,
        0xFEFF => Class::ZeroWidth,
        0xFFA0 => Class::Filler,
        0xFFF0..=0xFFFB => Class::Format,
        0x13430..=0x1343F | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A => Class::Format,
        0xE0000..=0xE007F => Class::Tag,
        0xE0100..=0xE01EF => Class::Selector,
        0xE0080..=0xE00FF | 0xE01F0..=0xE0FFF => Class::Format,
        // The rest of the Basic Multilingual Plane (its format characters
        // are all named above; Arabic's others are prepended marks) and
        // the planes of symbols and ideographs: no table look-up on hot
        // text. The test below checks every character.
        0x00A1..=0xFFFF | 0x1F000..=0x3FFFF => return None,
        _ => {
            if c.general_category() == GeneralCategory::Format && !is_prepended_mark(c) {
                Class::Format
            } else {
                return None;
            }
        }
    };
    Some(class)
}

/// Prepended concatenation marks (Arabic number signs and the like) are
/// format characters with a visible glyph spanning the digits after them.
pub(crate) fn is_prepended_mark(c: char) -> bool {
    matches!(c as u32, 0x0600..=0x0605 | 0x06DD | 0x070F | 0x0890 | 0x0891 | 0x08E2 | 0x110BD | 0x110CD)
}

/// A character that renders as nothing: every class but the blanks other
/// than the space (which show as space), and the format characters.
pub fn is_invisible(c: char) -> bool {
    classify(c).is_some_and(|k| k != Class::Space)
}

/// What display escapes: control characters (but line feed and tab) and
/// invisible ones.
fn is_hidden(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t' || is_invisible(c)
}

/// Text as written, made printable: invisible and control characters become
/// `\u{…}` escapes (a long run of them is shown by its ends and its length),
/// long text is cut with an ellipsis.
pub fn shown(s: &str) -> String {
    let hidden = is_hidden;
    let mut chars = s.chars().peekable();
    let mut out = String::new();
    let mut n = 0;
    while let Some(c) = chars.next() {
        if n >= MAX_QUOTE {
            out.push('…');
            break;
        }
        n += 1;
        if !hidden(c) {
            out.push(c);
            continue;
        }
        // A run of hidden characters, counted up to a bound: a finding on
        // a megabyte run costs what one on a short run does (the quote
        // ends after a run that long).
        let mut run = vec![c];
        while run.len() < MAX_RUN_COUNTED
            && let Some(d) = chars.next_if(|&d| hidden(d))
        {
            run.push(d);
        }
        if run.len() > 3 {
            let last = run[run.len() - 1];
            let more = if chars.peek().is_some_and(|&d| hidden(d)) { "+" } else { "" };
            let k = run.len();
            out.push_str(&format!("\\u{{{:x}}}…\\u{{{:x}}} ({k}{more} invisible characters)", c as u32, last as u32));
            if !more.is_empty() {
                out.push('…');
                break;
            }
        } else {
            for d in run {
                out.push_str(&format!("\\u{{{:x}}}", d as u32));
            }
        }
    }
    out
}

/// Make text safe to print on a terminal: line ends and tabs, control
/// characters (C0, DEL, C1) and invisible ones (bidi controls included)
/// become `\uXXXX` escapes, so a label can neither repaint the screen nor
/// hide part of itself.
pub fn terminal_safe(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_hidden(c) => out.push_str(&format!("\\u{:04x}", c as u32)),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_escapes_invisible_characters() {
        assert_eq!(shown("a\u{200b}b\u{e0041}\u{1b}"), "a\\u{200b}b\\u{e0041}\\u{1b}");
        assert_eq!(shown("x\u{e0041}\u{e0042}\u{e0043}\u{e0044}y"), "x\\u{e0041}…\\u{e0044} (4 invisible characters)y");
    }

    #[test]
    fn terminal_safe_escapes_controls_bidi_and_invisible() {
        assert_eq!(terminal_safe("a\u{1b}[2Jb\nc\u{202e}d é"), "a\\u001b[2Jb\\nc\\u202ed é");
        assert_eq!(terminal_safe("pay\u{200b}roll\u{e0041}"), "pay\\u200broll\\ue0041");
    }

    /// One definition: what renders as nothing is every format character
    /// but the prepended marks (which show over the digits after them),
    /// the fillers and the variation selectors; never a letter or a space.
    #[test]
    fn invisible_is_format_fillers_and_selectors() {
        for c in [
            '\u{200b}',
            '\u{200d}',
            '\u{202e}',
            '\u{2066}',
            '\u{feff}',
            '\u{ad}',
            '\u{e0041}',
            '\u{fe0f}',
            '\u{3164}',
            '\u{180b}',
        ] {
            assert!(is_invisible(c), "{c:?}");
        }
        for c in ['a', ' ', '\u{a0}', '\u{3000}', '\u{600}', '\u{6dd}', 'é', '中'] {
            assert!(!is_invisible(c), "{c:?}");
        }
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            assert_eq!(classify(c), classify_by_table(c), "{c:?}: its page is not passed over");
            if c.general_category() == GeneralCategory::Format && !is_prepended_mark(c) {
                assert!(is_invisible(c), "format character {c:?}");
            }
        }
    }
}
