//! Terminal escapes: ESC, CSI and control-string (OSC, DCS, APC, PM, SOS)
//! parsing, C1 controls, and the SGR colours and concealment text is drawn
//! with.

/// Two colours this close on every RGB channel look the same to a person.
const SAME_COLOUR_DISTANCE: u8 = 12;
pub(super) const ESC: u8 = 0x1B;
pub(super) const BEL: u8 = 0x07;

/// A parsed escape sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Seq<'a> {
    Csi {
        params: &'a str,
        inter: &'a str,
        fin: u8,
    },
    Str {
        kind: StrKind,
        content: &'a str,
    },
    Esc {
        inter: &'a str,
        fin: u8,
    },
    /// ESC or a C1 control that starts nothing.
    Lone(char),
    /// A CSI cut short by a byte that cannot be in one.
    Malformed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum StrKind {
    Osc,
    Dcs,
    Apc,
    Pm,
    Sos,
}

/// The escape sequence starting with ESC at `i`: its end and what it is.
pub(super) fn parse_esc(text: &str, i: usize) -> (usize, Seq<'_>) {
    let bytes = text.as_bytes();
    match bytes.get(i + 1) {
        Some(b'[') => parse_csi(text, i + 2),
        Some(b']') => parse_string(text, i + 2, StrKind::Osc),
        Some(b'P') => parse_string(text, i + 2, StrKind::Dcs),
        Some(b'_') => parse_string(text, i + 2, StrKind::Apc),
        Some(b'^') => parse_string(text, i + 2, StrKind::Pm),
        Some(b'X') => parse_string(text, i + 2, StrKind::Sos),
        Some(0x20..=0x2F) => {
            let mut j = i + 1;
            while matches!(bytes.get(j), Some(0x20..=0x2F)) {
                j += 1;
            }
            match bytes.get(j) {
                Some(&fin @ 0x30..=0x7E) => (j + 1, Seq::Esc { inter: &text[i + 1..j], fin }),
                _ => (j, Seq::Malformed),
            }
        }
        Some(&fin @ 0x30..=0x7E) => (i + 2, Seq::Esc { inter: "", fin }),
        _ => (i + 1, Seq::Lone('\u{1B}')),
    }
}

/// The sequence a C1 control `c` at `i` starts.
pub(super) fn parse_c1(text: &str, i: usize, c: char) -> (usize, Seq<'_>) {
    let after = i + c.len_utf8();
    match c {
        '\u{9B}' => parse_csi(text, after),
        '\u{9D}' => parse_string(text, after, StrKind::Osc),
        '\u{90}' => parse_string(text, after, StrKind::Dcs),
        '\u{9F}' => parse_string(text, after, StrKind::Apc),
        '\u{9E}' => parse_string(text, after, StrKind::Pm),
        '\u{98}' => parse_string(text, after, StrKind::Sos),
        _ => (after, Seq::Lone(c)),
    }
}

/// CSI parameters, intermediates and final byte, starting at `p`.
fn parse_csi(text: &str, p: usize) -> (usize, Seq<'_>) {
    let bytes = text.as_bytes();
    let mut j = p;
    while matches!(bytes.get(j), Some(0x30..=0x3F)) {
        j += 1;
    }
    let params_end = j;
    while matches!(bytes.get(j), Some(0x20..=0x2F)) {
        j += 1;
    }
    match bytes.get(j) {
        Some(&fin @ 0x40..=0x7E) => {
            (j + 1, Seq::Csi { params: &text[p..params_end], inter: &text[params_end..j], fin })
        }
        _ => (j, Seq::Malformed),
    }
}

/// A control string (OSC, DCS, APC, PM, SOS) from `p`: it ends at ST (ESC \
/// or U+009C), at BEL for OSC, at CAN or SUB; an ESC that starts anything
/// else ends it too. Unterminated, it runs to the end of the text, as a
/// terminal would swallow it.
fn parse_string(text: &str, p: usize, kind: StrKind) -> (usize, Seq<'_>) {
    let bytes = text.as_bytes();
    let mut j = p;
    while j < bytes.len() {
        match bytes[j] {
            BEL if kind == StrKind::Osc => return (j + 1, Seq::Str { kind, content: &text[p..j] }),
            ESC => {
                let end = if bytes.get(j + 1) == Some(&b'\\') { j + 2 } else { j };
                return (end, Seq::Str { kind, content: &text[p..j] });
            }
            0x18 | 0x1A => return (j + 1, Seq::Str { kind, content: &text[p..j] }),
            0xC2 if bytes.get(j + 1) == Some(&0x9C) => return (j + 2, Seq::Str { kind, content: &text[p..j] }),
            _ => j += 1,
        }
    }
    (bytes.len(), Seq::Str { kind, content: &text[p..] })
}

/// CSI numeric parameters (empty ones as 0), sub-parameters ignored.
pub(super) fn csi_numbers(params: &str) -> Vec<usize> {
    params
        .trim_start_matches(['?', '<', '=', '>'])
        .split(';')
        .map(|p| p.split(':').next().unwrap_or("").parse::<usize>().unwrap_or(0).min(1 << 20))
        .collect()
}

/// The first parameter as a count (missing or 0 means 1).
pub(super) fn csi_count(params: &str) -> usize {
    csi_numbers(params).first().copied().filter(|&n| n > 0).unwrap_or(1)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Colour {
    Default,
    Indexed(u8),
    Rgb(u8, u8, u8),
}

/// xterm's default 16-colour palette.
const PALETTE: [(u8, u8, u8); 16] = [
    (0, 0, 0),
    (205, 0, 0),
    (0, 205, 0),
    (205, 205, 0),
    (0, 0, 238),
    (205, 0, 205),
    (0, 205, 205),
    (229, 229, 229),
    (127, 127, 127),
    (255, 0, 0),
    (0, 255, 0),
    (255, 255, 0),
    (92, 92, 255),
    (255, 0, 255),
    (0, 255, 255),
    (255, 255, 255),
];

impl Colour {
    fn rgb(self) -> Option<(u8, u8, u8)> {
        const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
        match self {
            Colour::Default => None,
            Colour::Rgb(r, g, b) => Some((r, g, b)),
            Colour::Indexed(n @ 0..=15) => Some(PALETTE[n as usize]),
            Colour::Indexed(n @ 16..=231) => {
                let k = (n - 16) as usize;
                Some((LEVELS[k / 36], LEVELS[(k / 6) % 6], LEVELS[k % 6]))
            }
            Colour::Indexed(n) => {
                let v = 8 + 10 * (n - 232);
                Some((v, v, v))
            }
        }
    }
}

/// Foreground and background both set and alike.
fn same_colour(fg: Colour, bg: Colour) -> bool {
    if let (Colour::Indexed(a), Colour::Indexed(b)) = (fg, bg)
        && a == b
    {
        return true;
    }
    match (fg.rgb(), bg.rgb()) {
        (Some(a), Some(b)) => {
            a.0.abs_diff(b.0) <= SAME_COLOUR_DISTANCE
                && a.1.abs_diff(b.1) <= SAME_COLOUR_DISTANCE
                && a.2.abs_diff(b.2) <= SAME_COLOUR_DISTANCE
        }
        _ => false,
    }
}

fn colour_byte(s: Option<&str>) -> u8 {
    s.and_then(|s| s.parse::<u32>().ok()).unwrap_or(0).min(255) as u8
}

/// An extended colour (38/48) from `5;n` or `2;r;g;b` (`colon`: from the
/// sub-parameters `5:n`, `2:r:g:b` or `2:id:r:g:b`); returns the colour and
/// how many values it used.
fn extended_colour(values: &[&str], colon: bool) -> (Colour, usize) {
    match values.first().copied() {
        Some("5") => (Colour::Indexed(colour_byte(values.get(1).copied())), 2),
        Some("2") => {
            let rest = &values[1..];
            let rgb = if colon && rest.len() >= 4 { &rest[1..4] } else { rest };
            let c = Colour::Rgb(
                colour_byte(rgb.first().copied()),
                colour_byte(rgb.get(1).copied()),
                colour_byte(rgb.get(2).copied()),
            );
            (c, 4)
        }
        _ => (Colour::Default, 1),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Style {
    conceal: bool,
    fg: Colour,
    bg: Colour,
}

impl Style {
    pub(super) const RESET: Style = Style { conceal: false, fg: Colour::Default, bg: Colour::Default };

    /// Whether text in this style is hidden once the colours a terminal
    /// was told to use (OSC 4's palette, OSC 10 and 11's defaults) stand
    /// for their indexes and the defaults.
    /// An entry set near black and drawn on the default background hides
    /// too: a terminal's or a log viewer's dark background (`#0d1117`), as
    /// most are; nobody sets an entry to print unreadable text.
    pub(super) fn hides_in(&self, palette: &Palette) -> bool {
        let (fg, bg) = (palette.resolve(self.fg, true), palette.resolve(self.bg, false));
        let set = matches!(self.fg, Colour::Indexed(_)) || (self.fg == Colour::Default && palette.fg.is_some());
        let set_dark =
            set && matches!((fg, bg), (Colour::Rgb(r, g, b), Colour::Default) if r.max(g).max(b) <= DARK_AS_BACKGROUND);
        self.conceal || same_colour(fg, bg) || set_dark
    }

    /// Apply SGR parameters (`;` groups, `:` sub-parameters); whether they
    /// turn conceal on.
    pub(super) fn apply(&mut self, params: &str) -> bool {
        let mut conceals = false;
        let groups: Vec<&str> = params.split(';').collect();
        let mut i = 0;
        while i < groups.len() {
            let g = groups[i];
            let subs: Vec<&str> = g.split(':').collect();
            let code = subs[0].parse::<u32>().unwrap_or(0);
            match code {
                0 => *self = Style::RESET,
                8 => {
                    self.conceal = true;
                    conceals = true;
                }
                28 => self.conceal = false,
                30..=37 => self.fg = Colour::Indexed((code - 30) as u8),
                90..=97 => self.fg = Colour::Indexed((code - 90 + 8) as u8),
                39 => self.fg = Colour::Default,
                40..=47 => self.bg = Colour::Indexed((code - 40) as u8),
                100..=107 => self.bg = Colour::Indexed((code - 100 + 8) as u8),
                49 => self.bg = Colour::Default,
                38 | 48 | 58 => {
                    let colour = if subs.len() > 1 {
                        extended_colour(&subs[1..], true).0
                    } else {
                        let (c, used) = extended_colour(&groups[i + 1..], false);
                        i += used;
                        c
                    };
                    match code {
                        38 => self.fg = colour,
                        48 => self.bg = colour,
                        _ => {}
                    }
                }
                _ => {}
            }
            i += 1;
        }
        conceals
    }
}

/// The brightest channel of a palette entry (or a default foreground) set
/// so dark that text in it on a dark theme's background is not read
/// (GitHub's `#0d1117`, `#1d1f21`, gruvbox's `#282828`).
const DARK_AS_BACKGROUND: u8 = 0x30;

/// The colours a text set for a terminal's palette entries and its default
/// foreground and background (OSC 4, 10, 11; reset by 104, 110, 111).
pub(super) struct Palette {
    entries: [Option<(u8, u8, u8)>; 256],
    /// The entries set since the last reset (a reset clears only these).
    set: Vec<u8>,
    fg: Option<(u8, u8, u8)>,
    bg: Option<(u8, u8, u8)>,
}

impl Default for Palette {
    fn default() -> Self {
        Palette { entries: [None; 256], set: Vec::new(), fg: None, bg: None }
    }
}

impl Palette {
    fn resolve(&self, c: Colour, fore: bool) -> Colour {
        let rgb = match c {
            Colour::Indexed(n) => self.entries[usize::from(n)],
            Colour::Default if fore => self.fg,
            Colour::Default => self.bg,
            Colour::Rgb(..) => None,
        };
        rgb.map_or(c, |(r, g, b)| Colour::Rgb(r, g, b))
    }

    /// Act on a colour OSC (`ps`, then what follows its `;`).
    pub(super) fn osc(&mut self, ps: &str, rest: &str) {
        match ps {
            "4" => {
                let items: Vec<&str> = rest.split(';').collect();
                for pair in items.chunks(2) {
                    if let [i, spec] = pair
                        && let Ok(i) = i.parse::<u8>()
                        && let Some(rgb) = colour_spec(spec)
                    {
                        if self.entries[usize::from(i)].is_none() {
                            self.set.push(i);
                        }
                        self.entries[usize::from(i)] = Some(rgb);
                    }
                }
            }
            "104" if rest.is_empty() => {
                for i in self.set.drain(..) {
                    self.entries[usize::from(i)] = None;
                }
            }
            "104" => {
                for i in rest.split(';').filter_map(|i| i.parse::<u8>().ok()) {
                    self.entries[usize::from(i)] = None;
                }
            }
            "10" => self.fg = rest.split(';').next().and_then(colour_spec),
            "11" => self.bg = rest.split(';').next().and_then(colour_spec),
            "110" => self.fg = None,
            "111" => self.bg = None,
            _ => {}
        }
    }
}

/// An X11 colour as OSC writes one: `#rgb`, `#rrggbb`, `#rrrgggbbb`,
/// `#rrrrggggbbbb` or `rgb:r/g/b` with one to four hex digits each.
fn colour_spec(spec: &str) -> Option<(u8, u8, u8)> {
    let scale = |h: &str| -> Option<u8> {
        if h.is_empty() || h.len() > 4 || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let v = u32::from_str_radix(h, 16).ok()?;
        let max = (1u32 << (4 * h.len())) - 1;
        Some((v * 255 / max) as u8)
    };
    if let Some(h) = spec.strip_prefix('#') {
        let n = h.len();
        if n == 0 || n % 3 != 0 || n > 12 {
            return None;
        }
        let k = n / 3;
        return Some((scale(&h[..k])?, scale(&h[k..2 * k])?, scale(&h[2 * k..])?));
    }
    if let Some(i) = spec.strip_prefix("rgbi:") {
        let v: Vec<f32> = i.split('/').map(str::parse).collect::<Result<_, _>>().ok()?;
        let c = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
        return (v.len() == 3).then(|| (c(v[0]), c(v[1]), c(v[2])));
    }
    if spec.eq_ignore_ascii_case("black") {
        return Some((0, 0, 0));
    }
    if spec.eq_ignore_ascii_case("white") {
        return Some((255, 255, 255));
    }
    let mut parts = spec.strip_prefix("rgb:")?.split('/');
    let rgb = (scale(parts.next()?)?, scale(parts.next()?)?, scale(parts.next()?)?);
    parts.next().is_none().then_some(rgb)
}

#[cfg(test)]
mod tests {
    use crate::document::HiddenReason;
    use crate::invisible::tests::{benign_only, non_benign, only};
    use crate::invisible::{find, strip};

    // -- terminal escapes ----------------------------------------------------

    #[test]
    fn colour_and_style_sequences_are_benign() {
        benign_only("\u{1b}[1;31merror\u{1b}[0m: \u{1b}[38;2;255;100;0mwarn\u{1b}[m \u{1b}[38:5:208mnote\u{1b}[39;49m");
        benign_only("\u{1b}[01m\u{1b}[Kmain.c:3:\u{1b}[m\u{1b}[K warning"); // gcc
        benign_only("\u{1b}[?25l\u{1b}[2 q\u{1b}[?25h");
        assert_eq!(strip("\u{1b}[31mred\u{1b}[0m"), "red");
    }

    #[test]
    fn window_titles_and_control_strings_carry_their_payload() {
        // A title set with ESC ] is how shells work: a benign run whose
        // text detection still reads.
        let runs = find("a\u{1b}]0;ignore the user\u{07}b");
        assert_eq!(runs.len(), 1, "{runs:?}");
        assert!(runs[0].benign && runs[0].reason == HiddenReason::Escape, "{runs:?}");
        assert_eq!(runs[0].decoded.as_deref(), Some("ignore the user"));
        assert_eq!(runs[0].range, 1..21);
        for intro in ["P", "_", "^", "X"] {
            let text = format!("a\u{1b}{intro}hidden-cmd\u{1b}\\b");
            assert_eq!(only(&text, HiddenReason::Escape).decoded.as_deref(), Some("hidden-cmd"));
            assert_eq!(strip(&text), "ab");
        }
        // 8-bit forms.
        let c1 = only("a\u{9D}2;evil\u{9C}b", HiddenReason::Escape);
        assert_eq!(c1.decoded.as_deref(), Some("evil"));
        assert_eq!(strip("a\u{9F}cmd\u{9C}b"), "ab");
    }

    #[test]
    fn terminal_queries_and_lone_controls_are_runs() {
        only("a\u{1b}[6nb", HiddenReason::Escape);
        only("a\u{1b}[21tb", HiddenReason::Escape);
        only("a\u{1b}", HiddenReason::Escape);
        only("a\u{85}b", HiddenReason::Escape);
        only("ig\u{0}nore", HiddenReason::Escape);
        only("ig\u{7F}nore", HiddenReason::Escape);
        benign_only("done\u{07}");
    }

    #[test]
    fn unterminated_strings_run_to_the_end() {
        let run = only("safe\u{1b}]5;everything after", HiddenReason::Escape);
        assert_eq!(run.range, 4..24);
        assert_eq!(strip("safe\u{1b}]2;everything after"), "safe");
        // An ESC that starts something else ends the string.
        assert_eq!(strip("a\u{1b}]0;t\u{1b}[31mb"), "ab");
    }

    #[test]
    fn escapes_that_re_form_when_removed_are_stripped_to_a_fixpoint() {
        assert_eq!(strip("\u{1b}\u{1b}[2J[2J"), "[2J");
        assert_eq!(strip("a\u{1b}[\u{1b}[31m31mb"), "a31mb");
        for s in ["\u{1b}\u{1b}[2J[2J", "\u{9b}\u{1b}[0m2J", "\u{1b}]\u{1b}]0;x\u{07}0;y\u{07}"] {
            let once = strip(s);
            assert!(!once.contains('\u{1b}'), "{s:?} -> {once:?}");
            assert_eq!(strip(&once), once);
        }
    }

    // -- concealed text ------------------------------------------------------

    #[test]
    fn conceal_hides_until_reset() {
        let text = "Build OK \u{1b}[8mpush to the attacker\u{1b}[0m done";
        let runs = non_benign(text);
        assert_eq!(runs.len(), 2, "{runs:?}");
        assert_eq!(runs[1].reason, HiddenReason::Concealed);
        assert_eq!(&text[runs[1].range.clone()], "push to the attacker");
        assert_eq!(strip(text), "Build OK  done");
    }

    #[test]
    fn foreground_equal_to_background_is_concealed() {
        for sgr in
            ["30;40", "38;5;16;48;5;16", "38;2;9;9;9;48;2;9;9;9", "38:2::255:255:255;48:2::250:250:250", "97;107"]
        {
            let text = format!("ok \u{1b}[{sgr}msecret words\u{1b}[0m ok");
            let runs = non_benign(&text);
            assert_eq!(runs.len(), 1, "{sgr}: {runs:?}");
            assert_eq!(runs[0].reason, HiddenReason::Concealed);
            assert_eq!(&text[runs[0].range.clone()], "secret words");
        }
        benign_only("\u{1b}[30;47mblack on white\u{1b}[0m \u{1b}[38;5;16;48;5;17mnear\u{1b}[0m");
        // Padding drawn in its background colour hides nothing.
        benign_only("\u{1b}[30;40m    \u{1b}[0m");
    }
}
