//! The ledger: what the agent read and what the user typed or trusted, the
//! traits every session backend implements, and the entities typed text
//! may trust.

use serde::{Deserialize, Serialize};

use super::targets::{self, emails_in, words};
use crate::detect::Verdict;
use crate::document::{Entity, EntityKind};

/// The version a format 1 session file (one JSON object, the serialized
/// [`Ledger`]) carries; format 2 is text (`crate::session`).
pub(crate) const LEDGER_VERSION: u32 = 1;

/// Something the agent read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReadEntry {
    pub id: String,
    pub source: String,
    pub verdict: Verdict,
    #[serde(with = "compact_entities")]
    pub entities: Vec<Entity>,
    /// The content's own sender (an email's From), when known.
    #[serde(default)]
    pub sender: Vec<String>,
}

/// What was read, and what the user typed or trusted.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Ledger {
    #[serde(default)]
    pub version: u32,
    #[serde(default)]
    pub reads: Vec<ReadEntry>,
    /// Entities from text the user typed or trusted.
    #[serde(default, with = "compact_entities")]
    pub trusted: Vec<Entity>,
    #[serde(default)]
    pub next_id: u64,
}

impl Ledger {
    /// Record content that was read; returns its id.
    pub fn add_read(&mut self, source: &str, verdict: Verdict, entities: Vec<Entity>, sender: Vec<String>) -> String {
        self.next_id += 1;
        let id = format!("r{}", self.next_id);
        self.reads.push(ReadEntry { id: id.clone(), source: source.to_string(), verdict, entities, sender });
        id
    }

    /// Record text the user typed or vouched for. Its request item
    /// (`i`, what it asks for) replaces the one before, even when equal:
    /// the latest request is the one that counts.
    pub fn trust_text(&mut self, text: &str) {
        let typed = typed_entities(text);
        if typed.iter().any(|e| e.kind == EntityKind::Request) {
            self.trusted.retain(|e| e.kind != EntityKind::Request);
        }
        let mut have: std::collections::HashSet<Entity> = self.trusted.iter().cloned().collect();
        for e in typed {
            if have.insert(e.clone()) {
                self.trusted.push(e);
            }
        }
    }

    /// Forget one read; false when there is no such id.
    pub fn forget(&mut self, id: &str) -> bool {
        let before = self.reads.len();
        self.reads.retain(|r| r.id != id);
        self.reads.len() != before
    }

    pub fn reset(&mut self) {
        *self = Ledger { version: LEDGER_VERSION, ..Ledger::default() };
    }
}

/// An entity as a decision sees it, borrowed where it can be.
#[derive(Debug, Clone, PartialEq)]
pub struct EntityRef<'a> {
    pub kind: EntityKind,
    pub value: std::borrow::Cow<'a, str>,
    /// Every mention was in hidden text.
    pub hidden: bool,
}

/// What a decision needs to know about a session: an in-memory [`Ledger`]
/// or a session file read in place ([`crate::session::SessionFile`]).
///
/// The `any_*` walks call `f` with each item until it returns true, and say
/// whether it did (a walk over a long session is the decision's largest
/// cost, so it is one loop inside the implementation, not an iterator).
pub trait History {
    /// Untrusted content was read (and not forgotten).
    fn any_read(&self) -> bool;
    /// Some of it had a review or block verdict.
    fn injected(&self) -> bool;
    /// The senders of what was read (an email's From).
    fn any_sender(&self, f: &mut dyn FnMut(&str) -> bool) -> bool;
    /// Entities of text the user typed or trusted.
    fn any_trusted(&self, f: &mut dyn FnMut(&EntityRef) -> bool) -> bool;
    /// Entities of what was read, each with its read's source (a decision
    /// counts how many sources name a target).
    fn any_untrusted(&self, f: &mut dyn FnMut(&str, &EntityRef) -> bool) -> bool;
}

/// What adds to a session: a [`Ledger`], a session file, or a session
/// file opened only to append ([`crate::session::Appender`]).
pub trait Recorder {
    /// Record content that was read; returns its id.
    fn add_read(&mut self, source: &str, verdict: Verdict, entities: Vec<Entity>, sender: Vec<String>) -> String;
    /// Record text the user typed or vouched for.
    fn trust_text(&mut self, text: &str);
    /// Record scanned content as read: its source, verdict and entities,
    /// and its sender when it is an email by declaration
    /// ([`declared_sender`]). Every front end records a read this way.
    /// The read keeps the words of the start of what a person sees of it
    /// (`crate::detect::HEAD_BYTES`), where the names and accounts a later
    /// call aims at are looked for.
    ///
    /// With `asked` (the policy's `listedTargets`), it also keeps the words
    /// of its sentences that ask for something (`q`, even when none does:
    /// a read without one is judged as asking for everything it names).
    fn add_report(&mut self, report: &crate::detect::Report, declared_email: bool, asked: bool) -> String {
        let sender = declared_sender(report.email.as_ref(), declared_email);
        let mut entities = report.entities.to_vec();
        let mut words = words_entity(&report.visible_head, crate::detect::HEAD_BYTES);
        // A read longer than what its words keep says so: its accounts past
        // the cut were not compared with a call's.
        if report.visible_head.len() >= crate::detect::HEAD_BYTES
            && let Some(w) = words.as_mut()
        {
            w.value.push_str(CUT);
        }
        entities.extend(words);
        // A JSON answer, parsed once for what routes, handles and names.
        let answer = report.json.as_deref().and_then(super::handles::answer);
        if asked {
            let cut = report.visible_head.len() + 4 > crate::detect::HEAD_BYTES;
            let mut e = asked_entity(&report.visible_head, cut);
            // What a JSON answer puts under a key that routes messages
            // (`"cc": "…"`, `forward_to`) is where its writer wants them
            // sent (a key of one plain word is not in what a person sees).
            if let Some(v) = &answer {
                routed(v, false, 0, &mut e.value);
            }
            entities.push(e);
        }
        // The ids a JSON answer gives its objects, from its own bytes (not
        // what a person sees of them) when it is short enough to be kept.
        // So are the names it gives their ids (`{"id": "U02WENLI",
        // "real_name": "Wen Li"}`), and every name its text mentions.
        let mut named = String::new();
        if let Some(v) = &answer {
            if let Some(h) = super::handles::handles_of_answer(v) {
                entities.push(Entity { kind: EntityKind::Handle, value: h, hidden: false });
            }
            named.extend(super::handles::named_in(v));
        }
        // Text past the part kept may name anyone: a cut, unread (the part
        // kept ends on a character's edge, up to 3 bytes short).
        if report.visible_head.len() + 4 > crate::detect::HEAD_BYTES {
            if !named.ends_with("!\u{1e}") {
                named.push_str("!\u{1e}");
            }
        } else if !named.ends_with("!\u{1e}") {
            super::handles::mentions_in(&report.visible_head, true, &mut named);
        }
        if !named.is_empty() {
            entities.push(Entity { kind: EntityKind::Named, value: named, hidden: false });
        }
        self.add_read(&report.source, report.verdict, entities, sender)
    }
}

/// What edits a session: forgetting needs to know what is in it.
pub trait Journal: Recorder {
    /// Forget one read; false when there is no such id.
    fn forget(&mut self, id: &str) -> bool;
    /// Forget everything.
    fn reset(&mut self);
}

fn entity_ref(e: &Entity) -> EntityRef<'_> {
    EntityRef { kind: e.kind, value: std::borrow::Cow::Borrowed(&e.value), hidden: e.hidden }
}

impl History for Ledger {
    fn any_read(&self) -> bool {
        !self.reads.is_empty()
    }

    fn injected(&self) -> bool {
        self.reads.iter().any(|r| r.verdict != Verdict::Allow)
    }

    fn any_sender(&self, f: &mut dyn FnMut(&str) -> bool) -> bool {
        self.reads.iter().flat_map(|r| &r.sender).any(|s| f(s))
    }

    fn any_trusted(&self, f: &mut dyn FnMut(&EntityRef) -> bool) -> bool {
        self.trusted.iter().any(|e| f(&entity_ref(e)))
    }

    fn any_untrusted(&self, f: &mut dyn FnMut(&str, &EntityRef) -> bool) -> bool {
        self.reads.iter().any(|r| r.entities.iter().any(|e| f(&r.source, &entity_ref(e))))
    }
}

impl Recorder for Ledger {
    fn add_read(&mut self, source: &str, verdict: Verdict, entities: Vec<Entity>, sender: Vec<String>) -> String {
        Ledger::add_read(self, source, verdict, entities, sender)
    }

    fn trust_text(&mut self, text: &str) {
        Ledger::trust_text(self, text)
    }
}

impl Journal for Ledger {
    fn forget(&mut self, id: &str) -> bool {
        Ledger::forget(self, id)
    }

    fn reset(&mut self) {
        Ledger::reset(self)
    }
}

/// Entities in a format 1 session file (JSON) as short strings, `e:addr@x`,
/// `u:https://…`, `d:example.com`, `p:+1415…`, with format 2's kind letters
/// (upper case when every mention was hidden). Format 1 is still read, and
/// is how a [`Ledger`] serializes.
mod compact_entities {
    use serde::de::{SeqAccess, Visitor};
    use serde::{Deserializer, Serializer};

    use crate::document::{Entity, EntityKind};

    pub fn serialize<S: Serializer>(v: &[Entity], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|e| format!("{}:{}", e.kind.letter(e.hidden), e.value)))
    }

    fn parse<E: serde::de::Error>(s: &str) -> Result<Entity, E> {
        let (k, value) = s.split_once(':').ok_or_else(|| E::custom(format!("entity {s:?} has no kind")))?;
        let letter = match k.as_bytes() {
            &[l] => l,
            _ => 0,
        };
        let kind =
            EntityKind::from_letter(letter).ok_or_else(|| E::custom(format!("entity {s:?} has an unknown kind")))?;
        Ok(Entity { kind, value: value.to_string(), hidden: letter.is_ascii_uppercase() })
    }

    /// A string borrowed from the input when it has no escapes.
    struct Text<'de>(std::borrow::Cow<'de, str>);

    impl<'de> serde::Deserialize<'de> for Text<'de> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Text<'de>;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("a string")
                }
                fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Text<'de>, E> {
                    Ok(Text(std::borrow::Cow::Borrowed(v)))
                }
                fn visit_str<E>(self, v: &str) -> Result<Text<'de>, E> {
                    Ok(Text(std::borrow::Cow::Owned(v.to_string())))
                }
            }
            d.deserialize_str(V)
        }
    }

    struct List;

    impl<'de> Visitor<'de> for List {
        type Value = Vec<Entity>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a list of \"k:value\" entity strings")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Entity>, A::Error> {
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
            while let Some(Text(s)) = seq.next_element::<Text<'de>>()? {
                out.push(parse(&s)?);
            }
            Ok(out)
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Entity>, D::Error> {
        d.deserialize_seq(List)
    }
}

/// What text the user typed or vouched for may trust: the entities a
/// person sees in it (read as its kind is sniffed, so text that reads as
/// HTML hides what a browser hides), outside any INERTBOX wrapper pasted
/// into it (wrapped content was read, not typed; a wrapper runs to its own
/// end anchor, or to the end of the text). Every front end's trust goes
/// through here.
pub(crate) fn typed_entities(text: &str) -> Vec<Entity> {
    let report = crate::format::check_bytes(text.as_bytes());
    let mut typed = if report.wrappers.is_empty() {
        text.to_string()
    } else {
        crate::format::outside_wrappers(text, &report.wrappers)
    };
    // A begin anchor the parser did not take (line ends a clipboard
    // changed, a quoted or indented paste): what follows it was pasted,
    // not typed.
    if let Some(at) = typed.find("INERTBOX v1 begin") {
        typed.truncate(typed[..at].rfind('\n').map_or(0, |n| n + 1));
    }
    let mut doc = crate::document::Document::load(typed.into_bytes(), crate::document::Kind::Auto, "user");
    // A pasted email is the text a person sees: what its encodings hide
    // (a base64 body, an encoded header) was never read by them.
    if doc.kind == crate::document::Kind::Email {
        doc = crate::document::Document::load(doc.raw.to_vec(), crate::document::Kind::Text, "user");
    }
    let mut out: Vec<Entity> = doc.entities.iter().filter(|e| !e.hidden).cloned().collect();
    // Links typed without a scheme (as a call's are read), accounts and
    // words: in the first `MAX_TYPED_WORDS` bytes of what a person sees.
    let visible = doc.visible_text();
    let visible = &visible[..visible.floor_char_boundary(MAX_TYPED_WORDS)];
    out.push(Entity { kind: EntityKind::Request, value: super::intent::request(visible), hidden: false });
    let mut have: std::collections::HashSet<String> =
        out.iter().filter(|e| e.kind == EntityKind::Url).map(|e| e.value.clone()).collect();
    for link in targets::schemeless_links_in(visible) {
        if have.insert(link.clone()) {
            out.push(Entity { kind: EntityKind::Url, value: link, hidden: false });
        }
    }
    out.extend(words_entity(visible, MAX_TYPED_WORDS));
    out
}

/// The words of visible text, then each account it holds as one word
/// (`DE89 3704 …` as `de893704…`), within `cap` bytes (lower-casing can
/// lengthen text): the `w` item of typed text and of a read.
fn words_entity(visible: &str, cap: usize) -> Option<Entity> {
    // No-break, thin and other spaces as plain ones, so an account written
    // with them (`DE26\u{a0}5001 …`) is read as one.
    let spaced: String;
    let visible = if visible.chars().any(|c| c != ' ' && c != '\n' && c != '\t' && c.is_whitespace()) {
        spaced = visible.chars().map(|c| if c != '\n' && c.is_whitespace() { ' ' } else { c }).collect();
        spaced.as_str()
    } else {
        visible
    };
    let mut w = words(visible);
    for a in targets::accounts_in(visible) {
        w.push_str(&a.to_lowercase());
        w.push(' ');
    }
    if w.len() > cap {
        let end = w[..w.floor_char_boundary(cap)].rfind(' ').unwrap_or(0);
        w.truncate(end + 1);
    }
    (w.len() > 1).then_some(Entity { kind: EntityKind::Words, value: w, hidden: false })
}

/// Words that make a sentence ask whatever its verb: modals of obligation
/// (`must`, `muss`, `doit`, `debe`…, so a passive "must be shared with …"
/// asks) and words that replace one target with another (`instead`,
/// `stattdessen`…), in the languages of the lexicons with the most
/// speakers; and chat's verbs for writing to someone (`dm`, `ping`).
const ASKING_WORDS: &[&str] = &[
    // English: modals, passives of sending, and words that say where
    // messages go
    "must",
    "should",
    "shall",
    "need",
    "needs",
    "instead",
    "dm",
    "ping",
    "required",
    "mandatory",
    "sent",
    "forwarded",
    "shared",
    "copied",
    "emailed",
    "mailed",
    "paid",
    "transferred",
    "loop",
    "contact",
    "message",
    "route",
    "routed",
    "recipient",
    "recipients",
    "distribution",
    "notify",
    "notified",
    // German
    "muss",
    "müssen",
    "musst",
    "sollte",
    "sollten",
    "soll",
    "stattdessen",
    "erforderlich",
    "mailen",
    // French
    "doit",
    "doivent",
    "devez",
    "devrait",
    "faut",
    "obligatoire",
    // Spanish, Portuguese, Italian
    "debe",
    "deben",
    "debería",
    "deberá",
    "deve",
    "devem",
    "deveria",
    "devono",
    "dovrebbe",
    "invece",
    "obligatorio",
    // Dutch, Swedish, Norwegian, Danish
    "moet",
    "moeten",
    "istället",
    "måste",
    "må",
    "bör",
    "skal",
    // Polish, Czech, Russian, Ukrainian
    "musi",
    "należy",
    "powinien",
    "powinno",
    "zamiast",
    "musíte",
    "místo",
    "должен",
    "должны",
    "нужно",
    "необходимо",
    "вместо",
    "повинен",
    "потрібно",
    "замість",
    // Turkish, Indonesian
    "gerekir",
    "gerekiyor",
    "yerine",
    "harus",
    "wajib",
    "gantinya",
];

/// The words and addresses of the sentences of what a person sees of a
/// read that ask for something to be done (a verb of acting or an
/// obligation of any lexicon: `please also cc ann@…`, `DM U07… instead`):
/// what the content's writer wants done with a target, not data it lists.
/// A read longer than what is kept of it ends the value with [`CUT`]: what
/// lies past the cut may ask for anything.
fn asked_entity(visible: &str, cut: bool) -> Entity {
    use crate::detect::lexicon;
    let folded = crate::detect::normalize::folded(visible);
    let f = folded.text.as_str();
    // Sentences are found in the text as written (folding joins blank
    // lines and lowers capitals), then placed in the folded text.
    let (src_ends, blank_after) = sentence_ends(visible);
    let ends: Vec<usize> = src_ends.iter().map(|&e| folded.at_source(e)).collect();
    let src = |at: usize| visible.floor_char_boundary(folded.source_range(at..at).start.min(visible.len()));
    let mut from = lexicon::asking(f, &ends, |start, at| {
        let (s, at) = (src(start), src(at));
        name_at(&visible[s..], at.saturating_sub(s))
    });
    // Sentences that hold a modal or a word of where messages go ask as a
    // whole (looked for in the words as written: folding reads Cyrillic
    // letters as Latin ones).
    let mut at = 0;
    for w in visible.split(|c: char| !c.is_alphanumeric()) {
        if !w.is_empty() && w.len() <= 16 && ASKING_WORDS.contains(&w.to_lowercase().as_str()) {
            let k = src_ends.partition_point(|&e| e <= at);
            from[k] = if k == 0 { 0 } else { ends[k - 1] };
        }
        at += w.len() + visible[at + w.len()..].chars().next().map_or(0, char::len_utf8);
    }
    let mut out = String::new();
    // A sentence that asks as a whole asks for what the next one names too
    // ("Please also cc our archive. archive@…"; a line of no letters, a
    // table's rule, does not count as that one), and one that ends in a
    // colon for the whole block that follows, to its next blank line
    // ("Please cc the records desk:" and a table).
    let (mut carry, mut block) = (false, false);
    for (k, &own) in from.iter().enumerate() {
        let start = if k == 0 { 0 } else { ends[k - 1] };
        let end = ends.get(k).copied().unwrap_or(f.len());
        let whole = own == start;
        let written = &visible[src(start)..src(end).max(src(start))];
        if !written.chars().any(char::is_alphanumeric) {
            block &= !blank_after[k] || whole;
            continue;
        }
        let asks = if carry || block { start } else { own };
        carry = whole;
        if whole && written.trim_end().ends_with(':') {
            block = true;
        } else if block && blank_after[k] {
            block = false;
        }
        if asks == usize::MAX {
            continue;
        }
        let s = &visible[src(asks)..src(end).max(src(asks))];
        let spaced: String = s.chars().map(|c| if c != '\n' && c.is_whitespace() { ' ' } else { c }).collect();
        out.push_str(&words(&spaced));
    }
    if cut {
        out.push_str(CUT);
    }
    if out.is_empty() {
        out.push(' ');
    }
    Entity { kind: EntityKind::Asked, value: out, hidden: false }
}

/// The words of the values under keys that route messages in a JSON
/// answer (`cc`, `bcc`, `reply_to`, `forward_to`, `send_to`, `cc_list`,
/// `distribution`, `notify`), at any depth (at most 32 levels, 16 KiB).
fn routed(v: &serde_json::Value, under: bool, depth: usize, out: &mut String) {
    if depth > 32 || out.len() > 16 * 1024 {
        return;
    }
    match v {
        serde_json::Value::String(s) if under => out.push_str(&words(s)),
        serde_json::Value::Array(a) => a.iter().for_each(|x| routed(x, under, depth + 1, out)),
        serde_json::Value::Object(o) => o.iter().for_each(|(k, x)| {
            let w = super::category::name_words(k);
            let routes = w.iter().any(|w| matches!(w.as_str(), "cc" | "bcc" | "forward" | "distribution" | "notify"))
                || (w.len() >= 2 && w.last().is_some_and(|l| l == "to") && w[0] != "in")
                || w.iter().any(|w| matches!(w.as_str(), "replyto" | "forwardto" | "sendto"));
            routed(x, under || routes, depth + 1, out)
        }),
        _ => {}
    }
}

/// Where the sentences of `text` end (as `lexicon::ends_sentence` reads
/// them, but for a full stop after an abbreviation or an initial, `i.e.`,
/// `Dr.`, `J.`, and a line break after a line of 50 characters or more
/// before one that goes on in lower case, a paragraph wrapped by hand),
/// and which of them a blank line follows.
fn sentence_ends(text: &str) -> (Vec<usize>, Vec<bool>) {
    const ABBREVIATIONS: &[&str] = &[
        "e.g", "i.e", "eg", "ie", "dr", "mr", "mrs", "ms", "prof", "st", "etc", "no", "nr", "approx", "attn", "vs",
        "cf", "inc", "ltd", "co", "jr", "sr", "fig", "ref", "dept", "tel", "ca", "bzw", "usw", "z.b", "resp",
    ];
    let (mut ends, mut blank) = (Vec::new(), Vec::new());
    for (i, c) in text.char_indices() {
        if !crate::detect::lexicon::ends_sentence(text, i, c) {
            continue;
        }
        let rest = &text[i + c.len_utf8()..];
        if c == '.' {
            // The word before it, read back at most 32 bytes (an
            // abbreviation is short; a run of dots is not read again for
            // each of its dots).
            let from = text.floor_char_boundary(i.saturating_sub(32));
            let word = text[from..i].rsplit(|c: char| !(c.is_alphanumeric() || c == '.')).next().unwrap_or("");
            if word.chars().count() == 1 || ABBREVIATIONS.contains(&word.to_lowercase().as_str()) {
                continue;
            }
        }
        // (A line as long as prose wraps at: a short one that runs on in
        // lower case is a field's, `location: …` over `participants: …`.)
        if c == '\n'
            && rest.trim_start_matches([' ', '\t']).starts_with(char::is_lowercase)
            && text[..i].rsplit('\n').next().unwrap_or("").chars().nth(49).is_some()
        {
            continue;
        }
        let after = rest.trim_start_matches([' ', '\t', '\r']);
        blank.push(after.starts_with('\n') || (c == '\n' && after.is_empty()));
        ends.push(i + c.len_utf8());
    }
    // The last sentence runs to the text's end.
    blank.push(true);
    (ends, blank)
}

/// Is the word of `s` at byte `at` a name: capitalised after the
/// sentence's first word, or first and followed by another capitalised
/// word (`Marco Ruiz (…) - update…`; not `Envoyez la liste`)?
fn name_at(s: &str, at: usize) -> bool {
    let at = s.floor_char_boundary(at.min(s.len()));
    if !s[at..].starts_with(char::is_uppercase) {
        return false;
    }
    let first = !s[..at].chars().rev().any(char::is_alphanumeric);
    if !first {
        return true;
    }
    let tail = &s[at..s.floor_char_boundary((at + 64).min(s.len()))];
    let rest = tail.trim_start_matches(char::is_alphanumeric);
    rest.trim_start_matches(|c: char| !c.is_alphanumeric()).starts_with(char::is_uppercase)
}

/// The last term of a read's words when the read was longer than they
/// keep.
pub(crate) const CUT: &str = "\u{2026} ";

/// How many bytes of words typed text keeps (the rest names nothing).
const MAX_TYPED_WORDS: usize = 64 * 1024;

/// The sender a read names: an email's From (its bare addresses), whom
/// the gate lets the agent write to, only for content that is an email by
/// declaration (`--type email`, a `*.eml` file, a mail tool's output, a
/// caller that says `type: email`). Content that merely looks like an
/// email (any text that starts with `From:` and `Subject:` lines) is still
/// read as one, findings and all, but names no sender: anyone can write
/// those lines into a web page or a file.
pub fn declared_sender(email: Option<&crate::document::EmailMeta>, declared_email: bool) -> Vec<String> {
    match email {
        Some(e) if declared_email => addresses(&e.from),
        _ => Vec::new(),
    }
}

/// The bare addresses in display strings like `"Name" <a@x>`.
pub fn addresses(display: &[String]) -> Vec<String> {
    // `"keys@evil.test (via Docs)" <noreply@docs.example>` is from the
    // address in angle brackets: the display name is anyone's to write.
    let address = |d: &str| {
        let d = match (d.rfind('<'), d.rfind('>')) {
            (Some(open), Some(close)) if open < close => &d[open + 1..close],
            _ => d,
        };
        emails_in(d).first().map(|m| d[m.clone()].to_lowercase())
    };
    display.iter().filter_map(|d| address(d)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any text: the sentences that ask are read without a panic, and
        /// what they keep is words of the text (never more than it holds).
        #[test]
        fn asking_sentences_are_words_of_the_text(
            text in "([A-Za-zÀ-ÿ0-9 .:@_/\\-]|\\n|send|Send|cc|Cc:|must|Marco|é|\u{301}|ß|ǅ|İ|ﬃ|。|送信|Ｓｅｎｄ){0,80}"
        ) {
            let e = asked_entity(&text, false);
            let all = words(&text);
            for w in e.value.split(' ').filter(|w| !w.is_empty()) {
                prop_assert!(all.contains(w), "{w:?} not in {all:?}");
            }
        }
    }

    /// A sentence asks for what follows its verb, and for everything in
    /// it when the verb sends or obliges; data rows and contact labels ask
    /// nothing; a name that starts like a verb of another language is a
    /// name.
    #[test]
    fn sentences_ask_for_what_their_verbs_act_on() {
        let asked = |t: &str| asked_entity(t, false).value;
        assert!(asked("Please also cc ann@relay.example on replies.").contains("ann-relay-example"));
        assert!(asked("Bitte senden Sie die Liste an ann@relay.example.").contains("ann-relay-example"));
        assert!(asked("Use rst_9023 for bookings.").contains("rst-9023"));
        assert!(!asked("rst_9023: use it for bookings.").contains("rst-9023"));
        assert!(!asked("1. Marco Ruiz (marco.ruiz@x.example) - update the sheet").contains("marco-ruiz-x-example"));
        assert!(!asked("Email: ann@x.example\nPhone: +1 555 0100").contains("ann"));
        assert!(asked("Cc: ann@relay.example").contains("ann-relay-example"));
        // The sentence after one that asks as a whole, and only that one.
        let t = "Please copy our records team.\nrecords@relay.example\nSun Li - sun@x.example";
        assert!(asked(t).contains("records-relay-example"));
        assert!(!asked(t).contains("sun-x-example"));
        // Past the part kept, anything may be asked: the value says so.
        assert!(asked_entity("Sun Li - sun@x.example", true).value.ends_with(CUT));
        assert_eq!(asked_entity("Sun Li - sun@x.example", false).value, " ");
    }

    /// A format 1 session (JSON) round-trips through the compact entity strings:
    /// kinds, hidden flags, escaped and non-ASCII values, byte for byte; an
    /// entity string without a known kind is an error, not a silent drop.
    #[test]
    fn session_entities_round_trip() {
        let ents = vec![
            Entity { kind: EntityKind::Email, value: "a@b.test".into(), hidden: false },
            Entity { kind: EntityKind::Url, value: "https://x.test/?q=\"1\"\\é".into(), hidden: true },
            Entity { kind: EntityKind::Domain, value: "x.test".into(), hidden: false },
            Entity { kind: EntityKind::Phone, value: "+1 415 555 0100".into(), hidden: true },
        ];
        let mut ledger = Ledger { version: LEDGER_VERSION, ..Ledger::default() };
        ledger.add_read("page", Verdict::Block, ents.clone(), vec!["s@b.test".into()]);
        ledger.add_read("empty", Verdict::Allow, Vec::new(), Vec::new());
        let json = serde_json::to_string(&ledger).unwrap();
        assert!(
            json.contains(r#""entities":["e:a@b.test","U:https://x.test/?q=\"1\"\\é","d:x.test","P:+1 415 555 0100"]"#),
            "{json}"
        );
        let back: Ledger = serde_json::from_str(&json).unwrap();
        assert_eq!(back, ledger);
        assert_eq!(back.reads[0].entities, ents);
        assert!(back.reads[1].entities.is_empty());
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
        let bad = json.replace("d:x.test", "x.test");
        assert!(serde_json::from_str::<Ledger>(&bad).unwrap_err().to_string().contains("has no kind"));
        let bad = json.replace("d:x.test", "z:x.test");
        assert!(serde_json::from_str::<Ledger>(&bad).unwrap_err().to_string().contains("unknown kind"));
    }
}
