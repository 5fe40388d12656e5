//! What the user asked for: the kinds of consequential action a request
//! the user typed asks for ("pay the bill", "email each person", "book the
//! hotel"), and the names it gives ("reply to Lena"), kept with the
//! session as one `i` item per request (`pay send|lena`); the latest
//! request counts.
//!
//! Only an action the user asked for may be aimed at what clean content
//! gave (`decide::judge`). A verb asks only where a request's clause
//! opens with it ("Please pay the bill", "…, then book it", "… and email
//! each person"), never inside a clause ("the email from Lena", "in order
//! of size"); a question asks only when it opens with "can / could /
//! would / will you"; a clause or sentence that opens with a negation
//! ("Do not, under any circumstances, pay", "no need to reply") asks for
//! nothing, nor do "tell me", "show me", "let me know". The verbs are
//! English: a request in another language asks for nothing here, so such
//! calls ask (the safe side).

use super::Category;

/// A set of categories a request asks for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Intents(u16);

impl Intents {
    fn add(&mut self, c: Category) {
        self.0 |= 1 << c as u16;
    }

    pub(crate) fn has(self, c: Category) -> bool {
        self.0 & (1 << c as u16) != 0
    }

    /// The request asks to book or reserve something (a financial call
    /// counts as asked for only when it books).
    pub(crate) fn books(self) -> bool {
        self.0 & BOOKING != 0
    }

    /// The request speaks of opening something to anyone.
    pub(crate) fn publishes(self) -> bool {
        self.0 & PUBLIC != 0
    }

    /// The request asks for edit access ([`asks_to_edit`]).
    pub(crate) fn edits(self) -> bool {
        self.0 & EDIT != 0
    }
}

/// The bit of a request that books ("book the hotel", "reserve a table"),
/// past the categories' bits.
const BOOKING: u16 = 1 << 15;
/// The bit of a request that speaks of making something public ("make the
/// repo public", "anyone with the link", "publish").
const PUBLIC: u16 = 1 << 14;
/// The bit of a request that asks for edit access ("give Lucía edit
/// access"), with no negation anywhere in it.
const EDIT: u16 = 1 << 13;

/// The request names edit access as a level ("edit access", "as a
/// writer", "can edit"; a word whole, not `write-up`; not "write to Bob",
/// "my editor") and has no word of negation or of a lower level anywhere ("read-only, he must
/// not edit" does not ask for edit access). Fails closed: any negation,
/// even of something else, leaves a writer's level asking.
fn asks_to_edit(text: &str) -> bool {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || matches!(c, '\'' | '’' | '-')))
        .filter(|w| !w.is_empty())
        .collect();
    // A level named as one: "edit access", "write permission", "edit
    // rights", "as an editor", "can edit", "to edit". Not a word alone:
    // "write to Bob" is mail, "my editor" a person, "my edits" a change.
    let edit = words.iter().enumerate().any(|(i, w)| {
        let next = words.get(i + 1).copied().unwrap_or("");
        let before = if i > 0 { words[i - 1] } else { "" };
        let level = matches!(*w, "edit" | "editing" | "editor" | "write" | "writer" | "read-write" | "rw");
        level
            && (matches!(next, "access" | "permission" | "permissions" | "rights" | "privileges" | "role" | "level")
                || (matches!(*w, "editor" | "writer")
                    && (before == "as" || (matches!(before, "an" | "a") && i >= 2 && words[i - 2] == "as")))
                || (matches!(before, "can" | "to" | "could") && matches!(*w, "edit" | "write")))
    });
    let negated = words.iter().any(|w| {
        matches!(
            *w,
            "not"
                | "no"
                | "never"
                | "without"
                | "nor"
                | "cannot"
                | "dont"
                | "cant"
                | "wont"
                | "read-only"
                | "readonly"
                | "view-only"
                | "viewonly"
                | "only"
                | "viewer"
                | "viewers"
                | "reader"
                | "readers"
                | "remove"
                | "revoke"
                | "revoked"
                | "downgrade"
                | "restrict"
                | "limit"
        ) || w.ends_with("n't")
            || w.ends_with("n’t")
    });
    edit && !negated
}

/// The categories a verb opening a clause asks for.
fn asks(verb: &str) -> &'static [Category] {
    use Category::*;
    match verb {
        "send" | "resend" => &[Send],
        "email" | "e-mail" | "mail" | "reply" | "respond" | "forward" | "message" | "dm" | "post" | "tell"
        | "notify" | "inform" | "cc" | "announce" | "publish" | "contact" | "ping" | "remind" | "upload"
        | "welcome" | "approve" | "rsvp" | "decline" => &[Send],
        "invite" | "share" => &[Send, Access],
        "pay" | "transfer" | "wire" | "settle" | "refund" | "repay" | "reimburse" | "buy" | "purchase" | "donate"
        | "renew" | "subscribe" | "checkout" => &[Financial],
        "add" | "grant" | "give" | "promote" | "update" | "change" | "set" | "reset" | "kick" => &[Access],
        "delete" | "remove" | "erase" | "trash" | "wipe" | "purge" | "clear" | "cancel" | "discard" | "destroy"
        | "empty" | "unsubscribe" | "uninstall" => &[Destructive],
        _ => &[],
    }
}

/// Words that may stand before a clause's verb without being it.
fn filler(w: &str) -> bool {
    matches!(
        w,
        "please"
            | "pls"
            | "plz"
            | "kindly"
            | "just"
            | "also"
            | "now"
            | "then"
            | "and"
            | "so"
            | "ok"
            | "okay"
            | "hi"
            | "hey"
            | "finally"
            | "first"
            | "next"
            | "lastly"
            | "afterwards"
            | "can"
            | "could"
            | "would"
            | "will"
            | "you"
    )
}

/// Words that open a clause asking for nothing.
fn negation(w: &str) -> bool {
    matches!(
        w,
        "don't" | "dont" | "do" | "never" | "no" | "not" | "without" | "avoid" | "stop" | "neither" | "nor" | "hold"
    )
}

/// Words that end a clause (a verb after them opens the next).
fn joins(w: &str) -> bool {
    matches!(w, "and" | "then")
}

/// Month and day names: capitalised, but no one's name.
fn calendar_word(w: &str) -> bool {
    matches!(
        w,
        "monday"
            | "tuesday"
            | "wednesday"
            | "thursday"
            | "friday"
            | "saturday"
            | "sunday"
            | "january"
            | "february"
            | "march"
            | "april"
            | "may"
            | "june"
            | "july"
            | "august"
            | "september"
            | "october"
            | "november"
            | "december"
    )
}

/// The `i` item of a request the user typed: the categories its clauses
/// ask for, then `|` and its names (capitalised words past a sentence's
/// first, `Lena's` as `lena`), lower case, space-separated, then `|` and
/// the sums of money it writes ([`amounts`]), then `|` and what it asks to
/// delete ([`deletion_terms`]: terms separated by U+001F, one run a verb,
/// runs by U+001E), then `|` and its proper names ([`proper_names`],
/// separated by U+001E).
pub(crate) fn request(text: &str) -> String {
    // What the user quotes or pastes (`"pay by Friday"`, a `> …` line) is
    // not what they ask.
    let typed = text;
    let text = &unquoted(text);
    let mut cats = Intents::default();
    let mut negated = Intents::default();
    let mut names: Vec<String> = Vec::new();
    let mut sums: Vec<String> = Vec::new();
    // Sentences, with whether each is a question.
    let mut start = 0;
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate().chain(std::iter::once((bytes.len(), &b'.'))) {
        if !matches!(b, b'.' | b'!' | b'?' | b'\n' | b';') {
            continue;
        }
        // A dot inside a word (`bill.txt`, `3.5`) ends no sentence.
        if b == b'.' && bytes.get(i + 1).is_some_and(|n| n.is_ascii_alphanumeric()) {
            continue;
        }
        let sentence = &text[start..i];
        start = (i + 1).min(text.len());
        read_sentence(sentence, b == b'?', &mut cats, &mut negated, &mut names, &mut sums);
    }
    cats.0 &= !negated.0;
    let mut out: Vec<&str> = Category::ALL.iter().filter(|c| cats.has(**c)).map(|c| c.as_str()).collect();
    if cats.books() {
        out.push("booking");
    }
    if asks_to_edit(text) {
        out.push("edit");
    }
    let lower = text.to_lowercase();
    if ["public", "anyone", "everyone", "publish", "link sharing", "with the link", "unlisted"]
        .iter()
        .any(|w| lower.contains(w))
    {
        out.push("public");
    }
    out.sort_unstable();
    let mut s = out.join(" ");
    s.push('|');
    names.sort();
    names.dedup();
    s.push_str(&names.join(" "));
    // Sums and deletions, when it writes any (an older item has neither).
    // A request that speaks of paying again and again (`weekly`, `every
    // month`, `standing order`; not a payee called "Daily Grind") says so.
    let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let unit = |w: &str| {
        matches!(w, "day" | "week" | "month" | "year" | "quarter" | "weekday" | "weekend") || calendar_word(w)
    };
    let repeats = words.windows(2).any(|p| {
        (matches!(p[0].to_lowercase().as_str(), "every" | "each") && unit(p[1].to_lowercase().trim_end_matches('s')))
            || (p[0] == "standing" && matches!(p[1], "order" | "orders"))
    }) || words.iter().any(|w| {
        matches!(
            *w,
            "weekly"
                | "monthly"
                | "daily"
                | "yearly"
                | "annually"
                | "recurring"
                | "biweekly"
                | "fortnightly"
                | "quarterly"
        )
    });
    if repeats && !sums.is_empty() {
        sums.push("recurring".into());
    }
    // What to delete, read with the request's quotes kept (`delete "/Old
    // Projects/a.docx"`) but not its pasted lines or code blocks.
    let mut fenced = false;
    let own_lines: String = typed
        .lines()
        .filter(|l| {
            let t = l.trim_start();
            fenced ^= t.starts_with("```");
            !fenced && !t.starts_with("```") && !t.starts_with('>')
        })
        .collect::<Vec<_>>()
        .join("\n");
    let runs: Vec<String> = deletion_terms(&own_lines).iter().map(|r| r.join("\u{1f}")).collect();
    let mut proper = proper_names(text);
    for q in quoted_names(&own_lines) {
        if proper.len() < MAX_KEPT && !proper.contains(&q) {
            proper.push(q);
        }
    }
    let proper = proper.join("\u{1e}");
    let (sums, deletes) = (sums.join(" "), runs.join("\u{1e}"));
    // Later fields only as far as the last that holds something (an older
    // item ends sooner).
    let fields = [sums, deletes, proper];
    let last = fields.iter().rposition(|f| !f.is_empty()).map_or(0, |i| i + 1);
    for f in &fields[..last] {
        s.push('|');
        s.push_str(f);
    }
    s
}

/// What a request quotes as a name (`the 'Brand refresh 2025' doc`,
/// `"Q3 plan"`), as words: a quote of at most eight words between marks
/// that stand at a word's edge (an apostrophe inside a word opens none).
fn quoted_names(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        let chars: Vec<(usize, char)> = line.char_indices().collect();
        // Where each kind of closing mark stands, and a cursor into each
        // that only moves forward: every opening mark finds its closing one
        // without a search of the rest of the line (a line of a thousand
        // `‘` and no `’` is one pass).
        const CLOSES: [char; 4] = ['\'', '"', '\u{2019}', '\u{201d}'];
        let kind = |c: char| match c {
            '\'' => Some(0),
            '"' => Some(1),
            '\u{2018}' => Some(2),
            '\u{201c}' => Some(3),
            _ => None,
        };
        let mut at_close: [Vec<usize>; 4] = Default::default();
        for (i, &(_, c)) in chars.iter().enumerate() {
            if let Some(n) = CLOSES.iter().position(|&x| x == c) {
                at_close[n].push(i);
            }
        }
        let mut cursor = [0usize; 4];
        let mut k = 0;
        while k < chars.len() {
            let (at, c) = chars[k];
            let Some(q) = kind(c) else {
                k += 1;
                continue;
            };
            let opens = k == 0 || !chars[k - 1].1.is_alphanumeric();
            let list = &at_close[q];
            while cursor[q] < list.len() && list[cursor[q]] <= k {
                cursor[q] += 1;
            }
            let end =
                list.get(cursor[q]).copied().filter(|&e| chars.get(e + 1).is_none_or(|&(_, n)| !n.is_alphanumeric()));
            match end {
                Some(e) if opens => {
                    let inner = &line[at + c.len_utf8()..chars[e].0];
                    let w = super::targets::fold_name(inner);
                    let w = w.as_str();
                    // A name, not a phrase: two words or joined ones, with
                    // a capital or a digit (`'Brand refresh 2025'`, not
                    // `'sounds good'`).
                    let named = inner.chars().any(|c| c.is_uppercase() || c.is_ascii_digit())
                        && (w.contains(' ') || w.contains('-'));
                    if named && w.split(' ').count() <= 8 && out.len() < MAX_KEPT && !out.iter().any(|o| o == w) {
                        out.push(w.to_string());
                    }
                    k = e + 1;
                }
                _ => k += 1,
            }
        }
    }
    out
}

/// The proper names a request writes, folded ([`super::targets::fold_name`]):
/// runs of two or more capitalised words (`Wen Li`, `Hotel Sacher`; a run
/// that opens a sentence or a list item without its first word, which may
/// be capitalised for being first: `Send Wen Li` gives `wen li`, never
/// `send wen li`), and single terms marked as a name by `#` or `@` or
/// joined by a mark (`#q3-hiring`, `bill-2023.txt`). A word alone is no
/// name (`I`, `Slack`, `Legal`), nor an acronym (`DM`, `CEO`, `HR`), which
/// ends a run: an object named like a word of the request is not one the
/// user named. A name written as whom (after a word that sends or names a
/// person: `DM Wen Li`, `to Noor Haddad`, `and Arturo Bianchi` after one,
/// or marked `#`/`@`) starts with `>`: only such a name is whom a call
/// reaches (`the Acme Corp call` names no one to send to).
fn proper_names(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let push = |run: &[&str], whom: bool, out: &mut Vec<String>| {
        let w = super::targets::fold_name(&run.join(" "));
        let w = if whom { format!(">{w}") } else { w };
        if w.len() > 1 && out.len() < MAX_KEPT && !out.contains(&w) {
            out.push(w);
        }
    };
    let whom_word = |w: &str| {
        person_word(w)
            || matches!(
                w,
                "send"
                    | "share"
                    | "forward"
                    | "ask"
                    | "for"
                    | "assign"
                    | "mention"
                    | "text"
                    | "invite"
                    | "introduce"
                    | "give"
                    | "grant"
                    | "let"
            )
    };
    for line in text.lines() {
        let mut run: Vec<&str> = Vec::new();
        let mut run_first = false;
        let mut first = true;
        // The word before the run, and whether the last run was whom (a
        // list of people goes on after `and` or a comma).
        let mut before = String::new();
        let mut last_whom = false;
        let mut end_run = |run: &mut Vec<&str>, run_first: bool, before: &str, out: &mut Vec<String>| {
            if run.is_empty() {
                return;
            }
            let (names, lead) =
                if run_first { (&run[1..], run[0].to_lowercase()) } else { (&run[..], before.to_string()) };
            let whom = whom_word(&lead) || (last_whom && matches!(lead.as_str(), "and" | "&" | ","));
            if names.len() >= 2 {
                push(names, whom, out);
                last_whom = whom;
            }
            run.clear();
        };
        for raw in line.split_whitespace() {
            let t = raw.trim_start_matches(['(', '"', '\'', '[', '\u{201c}', '\u{2018}']);
            let ends = t.ends_with(['.', '!', '?', ':']);
            let comma = t.ends_with([',', ';']);
            let breaks = ends || comma || t.ends_with([')', '"', ']', '\u{201d}']);
            let t = t.trim_end_matches(['.', '!', '?', ':', ',', ';', ')', '"', '\'', ']', '\u{201d}', '\u{2019}']);
            let t = t.strip_suffix("'s").or_else(|| t.strip_suffix("\u{2019}s")).unwrap_or(t);
            // A bullet or a number opening a list item: still the start.
            if !t.chars().any(char::is_alphabetic) {
                end_run(&mut run, run_first, &before, &mut out);
                before = t.to_string();
                continue;
            }
            let marked = t.len() > 1 && t.starts_with(['#', '@']);
            let inner = t.trim_start_matches(['#', '@']);
            let joined = inner.char_indices().any(|(i, c)| {
                matches!(c, '-' | '_' | '.')
                    && inner[..i].ends_with(char::is_alphanumeric)
                    && inner[i + 1..].starts_with(char::is_alphanumeric)
            });
            let acronym = inner.chars().count() > 1 && inner.chars().all(char::is_uppercase);
            // Month and day names are capitalised and no one's name.
            let capital = inner.chars().next().is_some_and(char::is_uppercase)
                && inner.chars().all(char::is_alphabetic)
                && !acronym
                && !calendar_word(&inner.to_lowercase());
            // An address, a link or a path is compared as what it is.
            let whole = inner.contains(['@', '/', '\\']);
            if whole {
                end_run(&mut run, run_first, &before, &mut out);
            } else if marked || joined {
                end_run(&mut run, run_first, &before, &mut out);
                let lead = before.clone();
                let w = super::targets::fold_name(inner);
                let w = if marked || whom_word(&lead) { format!(">{w}") } else { w };
                if w.len() > 1 && out.len() < MAX_KEPT && !out.contains(&w) {
                    out.push(w);
                }
            } else if capital {
                if run.is_empty() {
                    run_first = first;
                }
                run.push(inner);
            } else {
                end_run(&mut run, run_first, &before, &mut out);
            }
            if run.is_empty() {
                before = if comma { ",".to_string() } else { inner.to_lowercase() };
            } else if comma {
                end_run(&mut run, run_first, &before, &mut out);
                before = ",".to_string();
            }
            first = ends;
            if breaks {
                end_run(&mut run, run_first, &before, &mut out);
            }
        }
        end_run(&mut run, run_first, &before, &mut out);
    }
    out
}

/// At most this many sums and terms to delete are kept of one request (a
/// payment of a sum past them, a deletion of a term past them, asks).
const MAX_KEPT: usize = 64;

/// A word that may follow a verb of booking: what is booked, whom for, or
/// which ("book a table", "book it for me", "book the cheapest").
fn booked_word(w: &str) -> bool {
    matches!(
        w,
        "a" | "an"
            | "the"
            | "it"
            | "them"
            | "me"
            | "us"
            | "him"
            | "her"
            | "this"
            | "that"
            | "these"
            | "those"
            | "my"
            | "our"
            | "your"
            | "his"
            | "their"
            | "one"
            | "two"
            | "three"
            | "four"
            | "five"
            | "six"
            | "some"
            | "another"
            | "any"
            | "both"
            | "for"
            | "at"
            | "in"
            | "on"
            | "with"
            | "from"
            | "whichever"
            | "whatever"
            | "cheapest"
            | "best"
            | "top"
            | "first"
            | "earliest"
            | "latest"
            | "next"
            | "same"
            | "ticket"
            | "tickets"
            | "seat"
            | "seats"
            | "table"
            | "tables"
            | "room"
            | "rooms"
            | "flight"
            | "flights"
            | "hotel"
            | "hotels"
            | "car"
            | "cars"
            | "train"
            | "trains"
            | "bus"
            | "taxi"
            | "cab"
            | "ride"
            | "transfer"
            | "appointment"
            | "appointments"
            | "slot"
            | "slots"
            | "spot"
            | "spots"
            | "place"
            | "places"
            | "stay"
            | "trip"
            | "tour"
            | "tours"
            | "session"
            | "sessions"
            | "class"
            | "classes"
            | "court"
            | "dinner"
            | "lunch"
            | "breakfast"
            | "restaurant"
            | "accommodation"
            | "parking"
            | "meeting"
            | "visit"
    )
}

/// Sums of money the text writes (a number with a currency sign, code or
/// word beside it: `€250`, `250 EUR`, `1,842.50 USD`, `40 dollars`, `$2k`),
/// each with two decimals, then the currencies they are in (`eur`; a
/// dollar sign is any dollar); a number whose separator may be either
/// (`1.500`) gives both readings.
pub(crate) fn amounts(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut currencies: Vec<&'static str> = Vec::new();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].1.is_ascii_digit() || (i > 0 && (chars[i - 1].1.is_alphanumeric() || chars[i - 1].1 == '.')) {
            i += 1;
            continue;
        }
        let start = chars[i].0;
        let mut j = i;
        while j < chars.len()
            && (chars[j].1.is_ascii_digit()
                || (matches!(chars[j].1, ',' | '.' | '\'' | '\u{2019}')
                    && chars.get(j + 1).is_some_and(|c| c.1.is_ascii_digit())))
        {
            j += 1;
        }
        let end = chars.get(j).map_or(text.len(), |c| c.0);
        let number = &text[start..end];
        // `2k`, `1.5m`: thousands and millions, when nothing else follows.
        let suffix = chars.get(j).map(|c| c.1.to_ascii_lowercase()).filter(|c| matches!(c, 'k' | 'm'));
        let scale = match suffix {
            Some(c) if !chars.get(j + 1).is_some_and(|n| n.1.is_alphanumeric()) => {
                if c == 'k' {
                    1e3
                } else {
                    1e6
                }
            }
            _ => 1.0,
        };
        let rest = if scale > 1.0 { j + 1 } else { j };
        let end = chars.get(rest).map_or(text.len(), |c| c.0);
        // A sign or a code right before (`€250`, `EUR 250`) or after
        // (`250€`, `250 EUR`); a number run into letters is no amount.
        let before = text[..start].trim_end();
        let after = text[end..].trim_start();
        let word_before = before.rsplit(|c: char| !c.is_alphabetic()).next().unwrap_or("");
        let word_after = after.split(|c: char| !c.is_alphabetic()).next().unwrap_or("");
        let joined = chars.get(rest).is_some_and(|c| c.1.is_alphabetic());
        let found = before
            .chars()
            .next_back()
            .and_then(|c| currency(&c.to_string()))
            .or_else(|| after.chars().next().and_then(|c| currency(&c.to_string())))
            .or_else(|| currency(word_before))
            .or_else(|| if joined { None } else { currency(word_after) });
        if let Some(codes) = found {
            for v in readings(number) {
                let v = format!("{:.2}", v * scale);
                if !out.contains(&v) && out.len() < MAX_KEPT {
                    out.push(v);
                }
            }
            for c in codes {
                if !currencies.contains(c) {
                    currencies.push(c);
                }
            }
        }
        i = rest.max(i + 1);
    }
    out.extend(currencies.iter().map(|c| c.to_string()));
    out
}

/// The currencies a sign, code or word stands for (lower case codes).
pub(crate) fn currency(w: &str) -> Option<&'static [&'static str]> {
    Some(match w.to_lowercase().as_str() {
        "€" | "eur" | "euro" | "euros" => &["eur"],
        // A sign shared by several currencies is its most common one (a
        // payment in another asks).
        "$" | "dollar" | "dollars" => &["usd"],
        "£" | "gbp" | "pound" | "pounds" => &["gbp"],
        "¥" | "yen" => &["jpy"],
        "₹" | "inr" | "rupees" => &["inr"],
        "₩" | "krw" => &["krw"],
        "₽" => &["rub"],
        "₺" => &["try"],
        "chf" | "franc" | "francs" => &["chf"],
        "kr" => &["sek", "nok", "dkk"],
        "zł" | "zl" | "pln" => &["pln"],
        "usd" => &["usd"],
        "cad" => &["cad"],
        "aud" => &["aud"],
        "nzd" => &["nzd"],
        "sgd" => &["sgd"],
        "hkd" => &["hkd"],
        "mxn" => &["mxn"],
        "jpy" => &["jpy"],
        "cny" => &["cny"],
        "sek" => &["sek"],
        "nok" => &["nok"],
        "dkk" => &["dkk"],
        "czk" => &["czk"],
        "huf" => &["huf"],
        "brl" => &["brl"],
        "zar" => &["zar"],
        _ => return None,
    })
}

/// The values a written number may have: `2,500` 2500; `1.842,50` 1842.5;
/// `62,10` 62.1; `1.500` either 1.5 or 1500.
pub(crate) fn readings(n: &str) -> Vec<f64> {
    let n: String = n.chars().filter(|c| !matches!(c, '\'' | '\u{2019}')).collect();
    let digits = |s: &str| s.replace([',', '.'], "").parse::<f64>().ok();
    let Some(at) = n.rfind([',', '.']) else { return digits(&n).into_iter().collect() };
    let (int, frac) = (&n[..at], &n[at + 1..]);
    let decimal = digits(int).zip(frac.parse::<f64>().ok()).map(|(i, f)| i + f / 10f64.powi(frac.len() as i32));
    let sep = n.as_bytes()[at] as char;
    let other = if sep == ',' { '.' } else { ',' };
    if int.contains(other) {
        // Both kinds: the last one is the decimal point.
        decimal.into_iter().collect()
    } else if int.contains(sep) {
        // One kind, more than once: thousands.
        digits(&n).into_iter().collect()
    } else if frac.len() == 3 {
        digits(&n).into_iter().chain(decimal).collect()
    } else {
        decimal.into_iter().collect()
    }
}

/// The text without quoted spans (straight or curly double quotes,
/// guillemets) and without lines that start with `>`; each removed span
/// becomes a sentence end, so what is around it does not join.
fn unquoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fenced = false;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            out.push('\n');
            continue;
        }
        if fenced || line.trim_start().starts_with('>') {
            out.push('\n');
            continue;
        }
        let mut close: Option<char> = None;
        for c in line.chars() {
            match close {
                Some(q) if c == q => {
                    close = None;
                    out.push('.');
                }
                Some(_) => {}
                None => match c {
                    '"' => close = Some('"'),
                    '\u{201C}' => close = Some('\u{201D}'),
                    '\u{00AB}' => close = Some('\u{00BB}'),
                    _ => out.push(c),
                },
            }
        }
        if close.is_some() {
            out.push('\n');
        }
    }
    out
}

fn read_sentence(
    sentence: &str,
    question: bool,
    cats: &mut Intents,
    negated: &mut Intents,
    names: &mut Vec<String>,
    sums: &mut Vec<String>,
) {
    // Clauses: split at commas, colons, parentheses and dashes; words within.
    let mut first_of_sentence = true;
    let mut sentence_negated = false;
    let mut asks_anything = !question;
    let mut after_label = false;
    // Sums the sentence writes outside a clause that negates
    // ("send €250, not the €2,500 his note says"); kept when a clause of it
    // pays or sends ("Pay Jonas's share, €250, to DE62…").
    let mut sentence_sums: Vec<String> = Vec::new();
    let mut sentence_pays = false;
    for (n, clause) in clauses(sentence).flat_map(|c| c.split(" - ")).enumerate() {
        let words: Vec<&str> = clause
            .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '\u{2019}' || c == '-'))
            .filter(|w| !w.is_empty() && *w != "-")
            .collect();
        let lower: Vec<String> = words.iter().map(|w| w.to_lowercase().replace('\u{2019}', "'")).collect();
        if clause.bytes().any(|b| b.is_ascii_digit()) && !lower.iter().any(|w| negation(w) || w == "instead") {
            for a in amounts(clause) {
                if !sentence_sums.contains(&a) && sentence_sums.len() < 2 * MAX_KEPT {
                    sentence_sums.push(a);
                }
            }
        }
        // Names: a capitalised word right after a word that names a person
        // ("reply to Lena", "invite Dora", "DM Chen"), not any capital
        // ("the Stripe invoice").
        for (k, w) in words.iter().enumerate() {
            let mut chars = w.chars();
            let capital = chars.next().is_some_and(char::is_uppercase) && chars.all(|c| !c.is_uppercase());
            let after_person_word = k > 0 && person_word(&lower[k - 1]);
            if capital && after_person_word && !(first_of_sentence && k == 0) {
                let name = lower[k].trim_end_matches("'s");
                if name.chars().count() >= 3 && !calendar_word(name) {
                    names.push(name.to_string());
                }
            }
        }
        first_of_sentence = false;
        // What follows "subject:", "Re:", "titled", "says:" is quoted.
        let label = after_label;
        after_label = lower.last().is_some_and(|w| {
            matches!(
                w.as_str(),
                "subject" | "re" | "says" | "said" | "wrote" | "titled" | "called" | "named" | "reads" | "line"
            )
        });
        // A question asks only when it opens with "can/could/would/will you".
        if question && n == 0 {
            asks_anything = lower.len() >= 2
                && matches!(lower[0].as_str(), "can" | "could" | "would" | "will")
                && lower[1] == "you";
        }
        if !asks_anything || label {
            continue;
        }
        // "…only after I confirm", "until I say so": not now.
        let conditional = lower
            .windows(2)
            .any(|p| matches!((p[0].as_str(), p[1].as_str()), ("only", "after" | "if" | "when") | ("once", "i")))
            || lower.iter().any(|w| matches!(w.as_str(), "until" | "unless"));
        // What the whole clause says, read once (not for each "and" in it).
        let for_me = lower.windows(2).any(|p| matches!(p[0].as_str(), "to" | "for") && p[1] == "me");
        let access = lower.iter().any(|x| access_word(x));
        let money = clause
            .split_whitespace()
            .any(|x| money_word(&x.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase()));
        // Each run of words from the clause's start or after "and"/"then".
        let mut at = 0;
        let mut clause_negated = sentence_negated;
        while at < lower.len() {
            let mut k = at;
            while k < lower.len() && filler(&lower[k]) {
                k += 1;
            }
            if k < lower.len() && negation(&lower[k]) {
                clause_negated = true;
                if n == 0 && at == 0 {
                    sentence_negated = true;
                }
            }
            if clause_negated || conditional {
                // Every verb of a negated clause stays negated for the rest
                // of the request ("Don't pay bill.txt; transfer nothing").
                for w in &lower[k.min(lower.len())..] {
                    for &c in asks(w) {
                        negated.add(c);
                    }
                }
                break;
            }
            if k < lower.len() {
                let w = lower[k].as_str();
                let next = lower.get(k + 1).map(String::as_str);
                let after = &lower[(k + 1).min(lower.len())..(k + 4).min(lower.len())];
                // "tell me", "send me a summary": an answer; "pay attention",
                // "pay period": nouns; "transfer nothing": nothing asked.
                let to_me = (matches!(w, "tell" | "show" | "give" | "send" | "email" | "message" | "remind")
                    && matches!(next, Some("me" | "us")))
                    || for_me;
                let noun = w == "pay"
                    && (after.iter().any(|x| matches!(x.as_str(), "attention" | "heed"))
                        || matches!(
                            next,
                            Some(
                                "period"
                                    | "date"
                                    | "day"
                                    | "stub"
                                    | "slip"
                                    | "rate"
                                    | "scale"
                                    | "grade"
                                    | "raise"
                                    | "gap"
                                    | "cut"
                                    | "check"
                            )
                        ));
                // "clear up the wording": editing, not deleting.
                let noun = noun || (w == "clear" && matches!(next, Some("up")));
                // "book club", "reserve budget": nouns. A booking verb is
                // followed by what is booked, whom for, a name, a number or
                // nothing ("book a table", "book it", "book Sakana Bar",
                // "book 2 rooms", "then book").
                let noun = noun
                    || (matches!(w, "book" | "reserve")
                        && next.is_some_and(|x| {
                            !(booked_word(x)
                                || x.bytes().all(|b| b.is_ascii_digit())
                                || words.get(k + 1).is_some_and(|o| o.chars().next().is_some_and(char::is_uppercase)))
                        }));
                let nothing = matches!(next, Some("nothing" | "none" | "nobody" | "no" | "anything" | "anyone"));
                if nothing {
                    for &c in asks(w) {
                        negated.add(c);
                    }
                } else if !to_me && !noun {
                    // Verbs that grant ask for access only with whom or what
                    // they grant ("add Elif to…", "update my address").
                    let grants =
                        matches!(w, "add" | "give" | "update" | "change" | "set" | "reset" | "promote" | "kick");
                    let granted = !grants
                        || matches!(next, Some("her" | "him" | "them"))
                        || words.get(k + 1).is_some_and(|x| x.chars().next().is_some_and(char::is_uppercase))
                        || access;
                    // Verbs that also mean other things move money only
                    // with money in the clause ("transfer 50 EUR", "settle
                    // the bill"; not "transfer the numbers into a table").
                    let pays = !matches!(
                        w,
                        "transfer"
                            | "settle"
                            | "buy"
                            | "checkout"
                            | "renew"
                            | "subscribe"
                            | "wire"
                            | "refund"
                            | "purchase"
                            | "donate"
                            | "repay"
                            | "reimburse"
                    ) || money;
                    let granted = granted && pays;
                    if granted {
                        for &c in asks(w) {
                            cats.add(c);
                        }
                        sentence_pays |= asks(w).iter().any(|c| matches!(c, Category::Financial | Category::Send));
                    }
                    if matches!(w, "book" | "reserve") {
                        cats.0 |= BOOKING;
                        // A sum the booking's sentence writes bounds its
                        // price ("book it, up to 600 EUR").
                        sentence_pays |= granted;
                    }
                }
            }
            // On to the next "and"/"then" in this clause.
            match lower[k.min(lower.len())..].iter().position(|w| joins(w)) {
                Some(p) => at = k + p + 1,
                None => break,
            }
        }
    }
    if sentence_pays {
        for a in sentence_sums {
            if !sums.contains(&a) && sums.len() < 2 * MAX_KEPT {
                sums.push(a);
            }
        }
    }
}

/// A sentence's clauses: split at commas, colons, parentheses and dashes,
/// but not at a comma or colon between digits (`€1,250`, `10:30`).
fn clauses(sentence: &str) -> impl Iterator<Item = &str> {
    let b = sentence.as_bytes();
    let mut cuts = Vec::new();
    for (i, c) in sentence.char_indices() {
        let between_digits = i > 0 && b[i - 1].is_ascii_digit() && b.get(i + 1).is_some_and(u8::is_ascii_digit);
        if matches!(c, '(' | ')' | '\u{2013}' | '\u{2014}') || (matches!(c, ',' | ':') && !between_digits) {
            cuts.push((i, c.len_utf8()));
        }
    }
    let mut start = 0;
    let mut out = Vec::with_capacity(cuts.len() + 1);
    for (i, len) in cuts {
        out.push(&sentence[start..i]);
        start = i + len;
    }
    out.push(&sentence[start..]);
    out.into_iter()
}

/// A word after which a capitalised word is a person the request names.
fn person_word(w: &str) -> bool {
    matches!(
        w,
        "to" | "with"
            | "cc"
            | "bcc"
            | "invite"
            | "email"
            | "e-mail"
            | "tell"
            | "reply"
            | "message"
            | "dm"
            | "add"
            | "ping"
            | "remind"
            | "notify"
            | "contact"
            | "call"
            | "thank"
            | "pay"
            | "and"
    )
}

/// Money in a clause: its words, a currency, an amount.
fn money_word(w: &str) -> bool {
    matches!(
        w,
        "money"
            | "payment"
            | "payments"
            | "amount"
            | "bill"
            | "bills"
            | "invoice"
            | "invoices"
            | "rent"
            | "installment"
            | "instalment"
            | "deposit"
            | "balance"
            | "funds"
            | "iban"
            | "account"
            | "share"
            | "debt"
            | "fee"
            | "fees"
            | "subscription"
            | "order"
            | "tickets"
            | "eur"
            | "euro"
            | "euros"
            | "usd"
            | "dollars"
            | "gbp"
            | "pounds"
            | "chf"
            | "owe"
            | "owed"
    ) || w.bytes().next().is_some_and(|b| b.is_ascii_digit())
}

/// What an access request grants or changes.
fn access_word(w: &str) -> bool {
    matches!(
        w,
        "access"
            | "permission"
            | "permissions"
            | "member"
            | "members"
            | "collaborator"
            | "collaborators"
            | "role"
            | "admin"
            | "channel"
            | "channels"
            | "team"
            | "group"
            | "workspace"
            | "address"
            | "password"
            | "phone"
            | "profile"
            | "details"
            | "info"
    )
}

/// What one `i` item holds.
pub(crate) struct Asked<'a> {
    pub(crate) intents: Intents,
    pub(crate) names: Vec<&'a str>,
    /// Sums of money, two decimals.
    pub(crate) amounts: Vec<&'a str>,
    /// What the request asks to delete ([`deletion_terms`]): a run of
    /// terms a deleting verb, terms separated by U+001F.
    pub(crate) deletes: Vec<&'a str>,
    /// The proper names it writes ([`proper_names`]).
    pub(crate) proper: Vec<&'a str>,
}

/// The kinds of action, the names, the sums of money and what to delete an
/// `i` item holds (an item of an older session holds fewer fields).
pub(crate) fn parse(item: &str) -> Asked<'_> {
    let mut fields = item.split('|');
    let mut intents = Intents::default();
    for c in fields.next().unwrap_or("").split(' ') {
        if let Some(c) = Category::ALL.iter().find(|k| k.as_str() == c) {
            intents.add(*c);
        } else if c == "booking" {
            intents.0 |= BOOKING;
        } else if c == "public" {
            intents.0 |= PUBLIC;
        } else if c == "edit" {
            intents.0 |= EDIT;
        }
    }
    let mut list = |sep: char| fields.next().unwrap_or("").split(sep).filter(|n| !n.is_empty()).collect::<Vec<_>>();
    Asked { intents, names: list(' '), amounts: list(' '), deletes: list('\u{1e}'), proper: list('\u{1e}') }
}

/// What a request asks to delete: for each verb that deletes, the terms
/// typed right after it, up to a preposition, "or", "but", a negation or
/// the clause's end ("delete /tmp/old.txt and /tmp/b.log", "remove the
/// #random channel"; not "/Inbox" in "delete the duplicates in /Inbox",
/// nor anything after "but not", nor in a sentence that says "never" or
/// "under no circumstances" before its verb), one run of terms a verb.
/// A list of paths goes on past a comma or "and" only while each path is
/// followed by another comma, "and" or the end ("/a, /b needs space" stops
/// at `/a`). Lower case; a quoted term keeps its spaces; `\` is written `/`.
fn deletion_terms(text: &str) -> Vec<Vec<String>> {
    let tokens = quoted_tokens(text);
    let mut runs: Vec<Vec<String>> = Vec::new();
    let mut collecting = false;
    let mut negated = false;
    let mut kept = 0;
    let pathy = |t: &str| t.contains(['/', '\\']);
    // The token after `k` continues a list: a path that itself ends the
    // clause, ends with a comma, or is followed by "and" or nothing.
    let listed = |k: usize| {
        tokens.get(k + 1).is_some_and(|n| {
            pathy(n)
                && (n.ends_with([',', '.', ';', '!', '?'])
                    || tokens.get(k + 2).is_none_or(|m| matches!(m.to_lowercase().as_str(), "and" | "&")))
        })
    };
    for (k, raw) in tokens.iter().enumerate() {
        let word = raw.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
        let ends_clause = raw.ends_with(['.', '!', '?', ';', ':', ')']);
        let stop = matches!(
            word.as_str(),
            "from"
                | "in"
                | "into"
                | "inside"
                | "within"
                | "under"
                | "on"
                | "at"
                | "to"
                | "of"
                | "out"
                | "except"
                | "but"
                | "keep"
                | "not"
                | "than"
                | "with"
                | "without"
                | "after"
                | "before"
                | "if"
                | "unless"
                | "or"
        );
        if negation(&word) || matches!(word.as_str(), "but" | "except" | "keep") {
            negated = matches!(word.as_str(), "never" | "no" | "not" | "don't" | "dont" | "avoid") || negated;
        }
        if !collecting {
            collecting = !negated && asks(&word).contains(&Category::Destructive);
            if collecting {
                runs.push(Vec::new());
            }
        } else if stop || (joins(&word) && !listed(k)) {
            collecting = false;
        } else if !joins(&word) {
            let t = raw.trim_matches(|c: char| matches!(c, '\'' | '"' | '`' | ',' | ';' | ':' | '(' | ')' | '!' | '?'));
            let t = t.strip_suffix('.').unwrap_or(t).replace('\\', "/");
            let t = t.trim_end_matches('/');
            if !t.is_empty() && !t.contains('|') && kept < MAX_KEPT {
                kept += 1;
                if let Some(run) = runs.last_mut() {
                    run.push(t.to_lowercase());
                }
            }
        }
        if ends_clause || (raw.ends_with(',') && !listed(k)) {
            collecting = false;
        }
        if raw.ends_with(['.', '!', '?', ';']) {
            negated = false;
        }
    }
    runs.retain(|r| !r.is_empty());
    runs
}

/// Whitespace-separated tokens, a quoted run (`"…"`, `'…'`, `` `…` ``) one
/// token with its quotes.
fn quoted_tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let first = rest.chars().next().unwrap_or(' ');
        let end = match first {
            '"' | '`' | '\'' => rest[1..].find(first).map(|e| e + 2).filter(|&e| rest[..e].contains(['/', '\\'])),
            _ => None,
        }
        .unwrap_or_else(|| rest.find(char::is_whitespace).unwrap_or(rest.len()));
        out.push(&rest[..end]);
        rest = rest[end..].trim_start();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use Category::*;

    fn of(s: &str) -> Intents {
        parse(&request(s)).intents
    }

    /// A request asks for what its clauses open with; a question, a
    /// negated clause, a verb inside a clause or "tell me" asks for none.
    #[test]
    fn proper_names_are_capitalised_runs_and_marked_terms() {
        let got = proper_names(
            "DM Wen Li and Arturo Bianchi the doc. Post it in #q3-hiring, then delete bill-2023.txt\nAsk Noor Haddad's team",
        );
        assert_eq!(got, [">wen li", ">arturo bianchi", ">q3-hiring", "bill-2023-txt", ">noor haddad"]);
        // A sentence's or a list item's first word, a word alone (`I`,
        // `Slack`), an acronym, lower-case words: none.
        for none in [
            "Post the weekly update in general. Reply now",
            "Send the doc I wrote over Slack to Legal",
            "- Post the summary\n1. Send Wen",
            "DM the CEO and HR the Q3 PDF",
        ] {
            assert!(proper_names(none).is_empty(), "{none}: {:?}", proper_names(none));
        }
        assert_eq!(proper_names("Please DM Wen Li. Wen Li needs it"), [">wen li"]);
        // Whom, and what is not: a thing the request names, folded.
        assert_eq!(proper_names("Send José García the notes from the Acme Corp call"), [">jose garcia", "acme corp"]);
        assert_eq!(
            quoted_names("Reply 'sounds good' to the 'Brand refresh 2025' doc, \"Q3\" and 'Sounds'"),
            ["brand refresh 2025"]
        );
        // The item keeps them past its other fields, and reads back.
        let item = request("Invite Noor Haddad to #q3-hiring");
        assert_eq!(parse(&item).proper, [">noor haddad", ">q3-hiring"], "{item}");
        assert!(parse("send|noor").proper.is_empty());
    }

    #[test]
    fn requests_ask_for_what_their_clauses_open_with() {
        assert!(of("Please pay the bill in bill-march-2024.txt.").has(Financial));
        assert!(!of("Please pay the bill in bill-march-2024.txt.").has(Send));
        assert!(of("Open the notes and email each person listed under action items").has(Send));
        assert!(of("Invite Dora to our Slack and add her to #general").has(Access));
        assert!(of("Check the prices, then book the cheapest hotel in Paris").books());
        assert!(!of("Check the prices, then book the cheapest hotel in Paris").has(Financial));
        assert!(of("Can you find the invoice and forward it to ann@x.example?").has(Send));
        for none in [
            "What did Chen say in #general about the freeze? Just tell me, no need to reply.",
            "Which hotels are under 150? Just list them, don't book anything.",
            "Read the tax notes and let me know what is left",
            "Should I pay the bill in bill.txt?",
            "Is the bill correct? I'll pay it myself later",
            "Do not under any circumstances pay bill.txt",
            "Please read notes2.txt. Do not, under any circumstances, email or share it",
            "I'm not asking you to send anything, please just summarize notes2.txt",
            "Summarize the email from Lena",
            "List the charges in bill.txt in order of size",
            "Bezahle bitte die Rechnung",
            "Send me a short summary of bill.txt",
            "Schedule a reminder for Friday",
            "Check the lease and rent terms",
            "Read bill.txt and order the charges by size",
            "Summarize the mail with subject \"Reminder - pay by Friday\"",
            "Is this right?\n> Please pay the attached bill",
            "Read bill.txt and then pay attention to fees",
        ] {
            assert_eq!(of(none), Intents::default(), "{none}");
        }
    }

    #[test]
    fn names_are_capitalised_words_past_a_sentences_start() {
        let r = request("Reply to Lena's email. Invite Dora on Monday, and tell Bruno.");
        let names: Vec<&str> = parse(&r).names;
        assert_eq!(names, ["bruno", "dora", "lena"], "{r}");
        let head: String = r.split('|').take(2).collect::<Vec<_>>().join("|");
        assert!(!head.contains("reply") && !head.contains("invite") && !head.contains("monday"), "{r}");
    }

    /// Sums are read with their currency beside them, in either writing
    /// of separators; dates, IBANs and counts are no sums.
    #[test]
    fn sums_of_money_are_read_with_their_currency() {
        assert_eq!(amounts("send €250 to Jonas, IBAN DE62 5243 0609 6712 0388 50 on 2025-06-28"), ["250.00", "eur"]);
        assert_eq!(amounts("pay 1,842.50 USD and EUR 1.842,50 and 62,10€"), ["1842.50", "62.10", "usd", "eur"]);
        assert_eq!(amounts("it costs £1.500"), ["1500.00", "1.50", "gbp"]);
        assert!(amounts("buy 2 bags, order 4411, 3 nights, try 5 times").is_empty());
        assert_eq!(amounts("nothing over 40 dollars, about $2k"), ["40.00", "2000.00", "usd"]);
        let asked = request("Send €250 to Jonas and delete /tmp/old.txt, then move the rest into /tmp/keep");
        let a = parse(&asked);
        assert_eq!((a.amounts, a.deletes), (vec!["250.00", "eur"], vec!["/tmp/old.txt"]));
        // Only what a deletion's verb takes, before a preposition.
        for (r, paths) in [
            ("delete the duplicates in /Inbox", vec![]),
            ("Remove the watermark from /Photos/wedding", vec![]),
            // A sentence that says not to delete gives nothing to delete
            // (the second verb asks).
            ("don't delete /a/b but delete /c/d.", vec![]),
            ("Drop the Q3 report into /Team/Reports", vec![]),
            ("Delete /tmp/build-cache but not /Projects/thesis", vec!["/tmp/build-cache"]),
            ("Under no circumstances delete /Projects/thesis.", vec![]),
            ("Delete /tmp/a.log and /tmp/b.log, /tmp/c.log", vec!["/tmp/a.log", "/tmp/b.log", "/tmp/c.log"]),
            (r#"Delete "/Users/alex/Old Projects/draft.docx" please"#, vec!["/users/alex/old projects/draft.docx"]),
            (r"Delete C:\Temp\old.txt", vec!["c:/temp/old.txt"]),
        ] {
            let asked = request(r);
            let found: Vec<&str> =
                parse(&asked).deletes.into_iter().flat_map(|r| r.split('\u{1f}')).filter(|t| t.contains('/')).collect();
            assert_eq!(found, paths, "{r}");
        }
        assert!(!parse(&request("Clear up the wording in /docs/intro.md")).intents.has(Destructive));
        assert!(a.intents.has(Destructive) && a.intents.has(Send));
        // An item written before sums and paths were kept.
        assert!(parse("send|lena").amounts.is_empty());
    }
}
