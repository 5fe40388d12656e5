//! Handles: the ids a tool's own answer gives its objects (`"id": "m-5012"`,
//! `"iid": 402`, `"productId": "P-55102"`), and the arguments of a call that
//! aim at such an object (`"email_id": "m-5012"`).
//!
//! A handle is taken from the structure of a JSON answer, never from the
//! text inside its strings: what an attacker writes in a mail's body or a
//! file is a string value, and no string value makes a key. So the object a
//! listing gave (the thread the user pointed at, the invoice's attachment)
//! can be what a call the user asked for acts on, while an id written only
//! in text ("post it on issue 999") cannot.
//!
//! A handle never says whom a call reaches: keys of people and places
//! (`user_id`, `channel_id`, `folder_id`) hold none, and a bare `id` holds
//! one only where the call's object cannot be a person or a place.

use serde_json::Value;

use super::Category;
use super::category::name_words;

/// At most this many bytes of handles kept for one read (a session grows
/// by no more), each handle at most this long; an object past them is
/// not given (a call on it asks).
const MAX_HANDLES_BYTES: usize = 4096;
const MAX_HANDLE_BYTES: usize = 64;

/// What a key says of the value under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    /// The id of an object the key names (`email_id`, `issue_iid`, `sku`).
    Object,
    /// A bare `id`: the object is whatever the call or listing is about.
    Bare,
    /// Where a write or a move puts things (`destination_folder_id`,
    /// `parent`, `folder`).
    Place,
}

/// A word of a key that says where a file or an item is put.
fn place_word(w: &str) -> bool {
    matches!(
        w,
        "destination"
            | "dest"
            | "folder"
            | "folders"
            | "parent"
            | "parents"
            | "dir"
            | "directory"
            | "drive"
            | "bucket"
            | "target"
            | "collection"
            | "container"
            | "into"
            | "space"
            | "workspace"
            | "project"
            | "site"
            | "list"
            | "board"
            | "album"
            | "library"
            | "repo"
            | "repository"
            | "owner"
            | "remote"
            | "mailbox"
            | "org"
            | "organization"
            | "group"
            | "database"
            | "vault"
            | "channel"
            | "team"
    )
}

/// A key that says where a file or an item is put: a place word, or a path
/// that is new or a destination (`new_path`, `to_path`; not a file's own
/// `file_path`).
fn place_key(words: &[String]) -> bool {
    words.iter().any(|w| place_word(w))
        || (words.iter().any(|w| w == "path") && words.iter().any(|w| matches!(w.as_str(), "new" | "to" | "out")))
}

/// A word that names a thing with no people of its own (an attachment, a
/// file, a product): sending one reaches only whom the call names.
fn thing_word(w: &str) -> bool {
    matches!(
        w,
        "attachment"
            | "attachments"
            | "file"
            | "files"
            | "doc"
            | "docs"
            | "document"
            | "documents"
            | "product"
            | "products"
            | "item"
            | "items"
            | "record"
            | "entry"
            | "version"
            | "commit"
    )
}

/// A word that names an object an id may stand for (not a person, not a
/// place a message or a file is put): a thing, or an object that holds
/// people (a thread, an event, an issue).
fn object_word(w: &str) -> bool {
    thing_word(w)
        || matches!(
            w,
            "email"
                | "emails"
                | "mail"
                | "message"
                | "messages"
                | "msg"
                | "thread"
                | "event"
                | "events"
                | "invitation"
                | "invitations"
                | "invite"
                | "meeting"
                | "appointment"
                | "issue"
                | "issues"
                | "pr"
                | "pull"
                | "mr"
                | "ticket"
                | "task"
                | "tasks"
                | "todo"
                | "note"
                | "comment"
                | "review"
                | "order"
                | "orders"
                | "cart"
                | "reservation"
                | "booking"
                | "transaction"
                | "transactions"
                | "bill"
                | "invoice"
                | "method"
                | "subscription"
                | "draft"
                | "release"
                | "job"
                | "run"
        )
}

fn key_kind(key: &str) -> Option<Key> {
    let words = name_words(key);
    if place_key(&words) {
        return Some(Key::Place);
    }
    let last = words.last()?.as_str();
    if matches!(last, "sku" | "skus" | "iid" | "iids") {
        return Some(Key::Object);
    }
    if !matches!(last, "id" | "ids" | "uid" | "number" | "num" | "no") {
        return None;
    }
    match words.len() {
        // A bare number may be a phone's.
        1 if matches!(last, "id" | "ids" | "uid") => Some(Key::Bare),
        1 => None,
        n => object_word(&words[n - 2]).then_some(Key::Object),
    }
}

/// A value as a handle: lower case, short, one token.
fn handle(v: &Value) -> Option<String> {
    let s = match v {
        Value::String(s) => s.trim().to_lowercase(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    (!s.is_empty() && s.len() <= MAX_HANDLE_BYTES && !s.chars().any(|c| c.is_whitespace() || c.is_control()))
        .then_some(s)
}

/// The handles a call's arguments aim at (lower case): values under object
/// keys (`email_id`, `file_id`, `issue_iid`) of a send or an access call,
/// at most [`super::targets::MAX_NAMES`] (the rest are no handles, so a
/// call on them asks). Never in a financial call: what it buys or books
/// picks whom it pays (a listing may hold the attacker's product or room).
/// A bare `id` is none: whether it is a thing or whom, the tool knows.
pub(super) fn handles_of(args: &Value, category: Category) -> Vec<String> {
    if !matches!(category, Category::Send | Category::Access) {
        return Vec::new();
    }
    let mut out = Vec::new();
    walk(args, None, 0, &mut |k, v| {
        if k == Key::Object && out.len() < super::targets::MAX_NAMES {
            out.extend(handle(v));
        }
    });
    out
}

/// The handles of a call that name a thing with no people of its own (an
/// attachment, a file, a product): sending one to whom the call names
/// reaches only them, where a thread, a draft or an event reaches whoever
/// it holds.
pub(super) fn carried_of(args: &Value) -> Vec<String> {
    fn walk(v: &Value, carried: bool, depth: usize, out: &mut Vec<String>) {
        if depth > super::MAX_ARG_DEPTH {
            return;
        }
        match v {
            Value::Object(o) => o.iter().for_each(|(k, x)| {
                let words = name_words(k);
                let n = words.len();
                let here = key_kind(k) == Some(Key::Object)
                    && (matches!(words[n - 1].as_str(), "sku" | "skus") || (n >= 2 && thing_word(&words[n - 2])));
                walk(x, here, depth + 1, out)
            }),
            Value::Array(a) => a.iter().for_each(|x| walk(x, carried, depth + 1, out)),
            _ => {
                if carried && out.len() < super::targets::MAX_NAMES {
                    out.extend(handle(v))
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(args, false, 0, &mut out);
    out
}

/// Where a call puts things: the values under its place keys (lower case),
/// as written (a path keeps its spaces), and whether there were more than
/// [`super::targets::MAX_NAMES`] or some lay too deep to read (then the
/// call is judged as putting things anywhere).
pub(super) fn places_of(args: &Value) -> (Vec<String>, bool) {
    let mut out = Vec::new();
    let mut more = false;
    let deep = walk(args, None, 0, &mut |k, v| {
        if k == Key::Place {
            let s = match v {
                Value::String(s) => s.trim().to_lowercase(),
                Value::Number(n) => n.to_string(),
                _ => return,
            };
            if s.is_empty() {
            } else if out.len() < super::targets::MAX_NAMES {
                out.push(s);
            } else {
                more = true;
            }
        }
    });
    (out, deep || more)
}

/// Call `each` with every (key kind, value) under a handle key; an array
/// under one gives each of its items.
fn walk(v: &Value, under: Option<Key>, depth: usize, each: &mut dyn FnMut(Key, &Value)) -> bool {
    walk_from(v, under, depth, false, each)
}

/// [`walk`]; in an answer (`answer`), not below maps whose keys the
/// content's writer chose.
/// True when some of it was too deep to read.
fn walk_from(v: &Value, under: Option<Key>, depth: usize, answer: bool, each: &mut dyn FnMut(Key, &Value)) -> bool {
    if depth > super::MAX_ARG_DEPTH {
        return true;
    }
    match v {
        // Below a place key, every value is where (`parent: {"id": …}`).
        Value::Object(o) if under == Some(Key::Place) => {
            o.values().fold(false, |cut, x| walk_from(x, under, depth + 1, answer, each) | cut)
        }
        Value::Object(o) => o
            .iter()
            .filter(|(k, _)| !(answer && written_keys(k)))
            .fold(false, |cut, (k, x)| walk_from(x, key_kind(k), depth + 1, answer, each) | cut),
        Value::Array(a) => a.iter().fold(false, |cut, x| walk_from(x, under, depth + 1, answer, each) | cut),
        _ => {
            if let Some(k) = under {
                each(k, v)
            }
            false
        }
    }
}

/// Maps whose keys the content's writer chose (a mail's headers, custom
/// properties, labels): no handle is taken below them
/// (`"headers": {"X-Team-Folder-Id": …}`).
fn written_keys(key: &str) -> bool {
    let words = name_words(key);
    key.starts_with(['x', 'X']) && matches!(key.get(1..2), Some("-" | "_"))
        || words.last().is_some_and(|w| {
            matches!(
                w.as_str(),
                "headers"
                    | "header"
                    | "properties"
                    | "props"
                    | "metadata"
                    | "meta"
                    | "labels"
                    | "attributes"
                    | "attrs"
                    | "fields"
                    | "params"
                    | "parameters"
                    | "extra"
                    | "custom"
                    | "tags"
                    | "annotations"
                    | "variables"
                    | "vars"
                    | "preferences"
                    | "prefs"
                    | "settings"
                    | "answers"
            )
        })
}

/// The handles a tool's answer gives, when it is JSON read whole: ` a b `
/// (lower case, each once), or none. Only keys are read for where a handle
/// stands; no string is parsed again.
/// Nothing is taken below a map whose keys the writer of the content
/// chose ([`written_keys`]).
#[cfg(test)]
pub(super) fn handles_in(text: &str) -> Option<String> {
    answer(text).and_then(|v| handles_of_answer(&v))
}

/// A tool's answer as JSON, when it is JSON read whole.
pub(super) fn answer(text: &str) -> Option<Value> {
    let t = text.trim_start();
    if !(t.starts_with('{') || t.starts_with('[')) {
        return None;
    }
    serde_json::from_str(t).ok()
}

/// [`handles_in`] of a parsed answer.
pub(super) fn handles_of_answer(v: &Value) -> Option<String> {
    let mut seen = std::collections::HashSet::new();
    let mut out = String::from(" ");
    walk_from(v, None, 0, true, &mut |_, x| {
        if out.len() + MAX_HANDLE_BYTES < MAX_HANDLES_BYTES
            && let Some(h) = handle(x)
            && seen.insert(h.clone())
        {
            out.push_str(&h);
            out.push(' ');
        }
    });
    (out.len() > 1).then_some(out)
}

/// A key whose value is an object's own name (`name`, `real_name`,
/// `displayName`, `title`, `filename`, `login`), not a subject or a note.
fn name_key(key: &str) -> bool {
    let words = name_words(key);
    match words.as_slice() {
        [w] => matches!(w.as_str(), "name" | "title" | "filename" | "login" | "username" | "handle"),
        [a, w] => {
            matches!(w.as_str(), "name")
                && matches!(a.as_str(), "real" | "display" | "full" | "user" | "file" | "channel" | "group" | "team")
        }
        _ => false,
    }
}

/// A key whose object is someone who wrote, sent or is on a thing
/// (`from`, `author`, `attendees`): a name there is whatever they chose to
/// be called, not the thing's.
fn role_key(key: &str) -> bool {
    name_words(key).iter().any(|w| {
        matches!(
            w.as_str(),
            "from"
                | "sender"
                | "author"
                | "authors"
                | "creator"
                | "owner"
                | "owners"
                | "organizer"
                | "organiser"
                | "to"
                | "cc"
                | "bcc"
                | "reply"
                | "recipient"
                | "recipients"
                | "attendee"
                | "attendees"
                | "participant"
                | "participants"
                | "invitee"
                | "invitees"
                | "guest"
                | "guests"
                | "assignee"
                | "assignees"
                | "reviewer"
                | "reviewers"
                | "mention"
                | "mentions"
                | "by"
                | "host"
                | "seller"
                | "merchant"
                | "payee"
                | "shared"
                | "invited"
        )
    })
}

/// A word for what people write about things (`reviews`, `comments`,
/// `messages`): under a key of it, what writers call themselves or title
/// their text is no object an answer lists, and a tool named with it
/// lists only by its map's keys (`decide::writings_tool`).
pub(super) fn writing_word(w: &str) -> bool {
    matches!(
        w,
        "review"
            | "reviews"
            | "comment"
            | "comments"
            | "post"
            | "posts"
            | "message"
            | "messages"
            | "replies"
            | "feedback"
            | "note"
            | "notes"
            | "testimonial"
            | "testimonials"
            | "thread"
            | "threads"
            | "tip"
            | "tips"
            | "rating"
            | "ratings"
            | "story"
            | "stories"
            | "news"
            | "article"
            | "articles"
            | "blog"
            | "qa"
            | "q"
            | "faq"
            | "recommendation"
            | "recommendations"
            | "wishlist"
            | "wishlists"
            | "photo"
            | "photos"
            | "question"
            | "questions"
            | "answer"
            | "answers"
            | "discussion"
            | "discussions"
            | "forum"
            | "mention"
            | "mentions"
            | "reply"
    )
}

/// A key whose items people wrote ([`writing_word`], any word of it:
/// `reviews_list`).
fn writing_key(key: &str) -> bool {
    name_words(key).iter().any(|w| writing_word(w))
}

/// The names a tool's JSON answer gives its objects, one record each
/// (records end with U+001E, which a session file keeps unescaped):
/// `+idents name` for an object that is one of the answer's items (the
/// answer itself, its list's items, or under one key of it: `{"members":
/// [...]}`, `{"channel": {...}}`; never below a key of someone who wrote or
/// is on a thing, `from`, `attendees`, or of what people wrote, `reviews`,
/// `comments`, or of a map the content's writer keyed), whose id or address a call may aim at; `=name` for such an
/// item with neither; `*name` for each key with a blank in it of an answer
/// that is a map (`{"Maison Verlaine": …}`: a name, not a field's);
/// `-idents name` for every other object that bears a name, at any depth
/// (a namesake there still makes a name ambiguous).
/// `idents` are the object's id (`id`, its one own `…_id`, else its
/// `login`) and its own address (`email`; only for a person's name, not a
/// `title`), comma-joined, or `?` for none; the name
/// as words ([`super::words`], no end spaces), from a name key, a nested
/// `profile` or `name` object's, or `first_name` and `last_name` joined.
/// Past [`MAX_NAMED_BYTES`] a last line `!` says the list was cut.
pub(super) fn named_in(v: &Value) -> Option<String> {
    /// The object's names, each with whether it is a person's (an address
    /// beside it is theirs).
    fn names(o: &serde_json::Map<String, Value>) -> Vec<(String, bool)> {
        let mut out = Vec::new();
        let add = |k: &str, x: &str, out: &mut Vec<(String, bool)>| {
            let w = super::targets::fold_name(x);
            if !w.is_empty() && w.len() <= super::targets::MAX_NAME_BYTES {
                out.push((w, !matches!(name_words(k).last().map(String::as_str), Some("title" | "filename"))));
            }
        };
        // A first and a last name, joined: at the object's own level and in
        // a nested `profile` or `name` object.
        let parts = |m: &serde_json::Map<String, Value>, nested: bool, out: &mut Vec<(String, bool)>| {
            let (mut given, mut family) = (None, None);
            for (k, x) in m {
                let Value::String(t) = x else { continue };
                match name_words(k).join("_").as_str() {
                    "first_name" | "given_name" | "first" | "given" | "givenname" | "firstname" => given = Some(t),
                    "last_name" | "family_name" | "surname" | "last" | "family" | "familyname" | "lastname" => {
                        family = Some(t)
                    }
                    _ if name_key(k) || (nested && name_words(k).last().is_some_and(|w| w == "name")) => add(k, t, out),
                    _ => {}
                }
            }
            if let (Some(g), Some(f)) = (given, family) {
                add("name", &format!("{g} {f}"), out);
            }
        };
        parts(o, false, &mut out);
        for (k, x) in o {
            if let Value::Object(inner) = x
                && matches!(k.as_str(), "profile" | "name" | "names")
            {
                parts(inner, true, &mut out);
            }
        }
        out
    }
    /// The object's id and whether it is its login, and its address.
    fn idents(o: &serde_json::Map<String, Value>) -> (Option<String>, Option<&String>, Option<String>) {
        // Its `id`, or else its one key that is an id of its own
        // (`venue_id`; not a `parent_id` or an `owner_id`, nor one of two),
        // or else an account's login (`{"login": "sven-lq"}`).
        let own = |k: &String| {
            name_words(k).last().is_some_and(|w| w == "id") && !role_key(k) && key_kind(k) != Some(Key::Place)
        };
        let login = |k: &String| matches!(k.as_str(), "login" | "username" | "user_name" | "handle");
        let plain = |h: Option<String>| h.filter(|h| !h.contains(','));
        let (id, by) = match o.get("id") {
            Some(v) => (plain(handle(v)), None),
            None => {
                let mut ids = o.iter().filter(|(k, _)| own(k));
                match (ids.next(), ids.next()) {
                    (Some((_, v)), None) => (plain(handle(v)), None),
                    (None, _) => match o.iter().find(|(k, _)| login(k)) {
                        Some((k, v)) => (plain(handle(v)), Some(k)),
                        None => (None, None),
                    },
                    _ => (None, None),
                }
            }
        };
        // Its own address, not a `manager_email`.
        let address = o
            .iter()
            .find(|(k, _)| {
                let w = name_words(k);
                let w: Vec<&str> = w.iter().map(String::as_str).collect();
                matches!(w.as_slice(), ["email" | "mail"] | ["email", "address"] | ["primary", "email"])
            })
            .and_then(|(_, v)| plain(handle(v)))
            .filter(|a| a.contains('@'));
        (id, by, address)
    }
    fn object(o: &serde_json::Map<String, Value>, item: bool, out: &mut String) -> bool {
        let names = names(o);
        if names.is_empty() {
            return true;
        }
        let (id, by, address) = idents(o);
        for (name, person) in names {
            // A login is the object's id, not a name it bears.
            if by.is_some_and(|k| {
                o.get(k).and_then(Value::as_str).is_some_and(|l| super::targets::words(l).trim() == name)
            }) {
                continue;
            }
            let mut ids: Vec<&str> = id.iter().map(String::as_str).collect();
            if person {
                ids.extend(address.as_deref());
            }
            let ids = if ids.is_empty() { "?".to_string() } else { ids.join(",") };
            if out.len() + ids.len() + name.len() + 3 > MAX_NAMED_BYTES {
                out.push_str("!\u{1e}");
                return false;
            }
            // An item with no id is listed by its name alone (`=name`).
            if item && ids == "?" {
                out.push('=');
            } else {
                out.push(if item { '+' } else { '-' });
                out.push_str(&ids);
                out.push(' ');
            }
            out.push_str(&name);
            out.push('\u{1e}');
        }
        true
    }
    /// `keys`: how many object keys lie between the answer and here;
    /// `aside`: below someone's key or a writer's map. False once cut.
    fn walk(v: &Value, keys: usize, aside: bool, depth: usize, out: &mut String) -> bool {
        if depth > super::MAX_ARG_DEPTH {
            return true;
        }
        match v {
            Value::Array(a) => a.iter().all(|x| walk(x, keys, aside, depth + 1, out)),
            Value::Object(o) => {
                object(o, keys <= 1 && !aside, out)
                    && o.iter().all(|(k, x)| {
                        k == "profile"
                            || k == "name"
                            || walk(
                                x,
                                keys + 1,
                                aside || role_key(k) || written_keys(k) || writing_key(k),
                                depth + 1,
                                out,
                            )
                    })
            }
            _ => true,
        }
    }
    let mut out = String::new();
    // An answer that is a map of names (`{"Maison Verlaine": "Rating:
    // 4.7 …"}`, `{"Miznon": …}`) lists an object under each: a key with a
    // blank or a letter past ASCII in it, or one capital then small
    // letters, is a name, not a field's (`status`, `ResponseMetadata`).
    let named_key = |k: &str| {
        let k = k.trim();
        let mut chars = k.chars();
        k.contains(char::is_whitespace)
            || k.chars().any(|c| c.is_alphabetic() && !c.is_ascii())
            || (chars.next().is_some_and(|c| c.is_ascii_uppercase()) && chars.all(|c| c.is_ascii_lowercase()))
    };
    // A value that says nothing is there (`null`, `"not found"`, `[]`)
    // is an echo of what was asked, not an object.
    let nothing = |x: &Value| match x {
        Value::Null => true,
        Value::String(t) => {
            let t = t.trim().to_lowercase();
            t.is_empty()
                || t.contains("not found")
                || t.contains("no such")
                || t.contains("unknown")
                || t.contains("n/a")
                || t.contains("error")
                || (t.starts_with("no ") && t.contains("found"))
        }
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.is_empty(),
        _ => false,
    };
    if let Value::Object(o) = v {
        for k in o.iter().filter(|(k, x)| named_key(k) && !nothing(x)).map(|(k, _)| k) {
            let name = super::targets::fold_name(k);
            if name.is_empty() || name.len() > super::targets::MAX_NAME_BYTES {
                continue;
            }
            if out.len() + name.len() + 4 > MAX_NAMED_BYTES {
                out.push_str("!\u{1e}");
                return Some(out);
            }
            out.push('*');
            out.push_str(&name);
            out.push('\u{1e}');
        }
    }
    walk(v, 0, false, 0, &mut out);
    (!out.is_empty()).then_some(out)
}

/// The names a read's visible text mentions, one line `~name` each: every
/// stretch of two to four words of a run of capitalised words a space
/// apart (`Wen Li`, `José García`), folded
/// ([`super::targets::fold_name`]); `!` when the text was longer than what
/// was looked at or the lines would pass [`MAX_NAMED_BYTES`]. A name one of
/// them gives is bound to an object only where every read that mentions
/// it gives that object (a person listed by a tool whose answer is not
/// JSON, or past the part kept, still counts as a namesake).
pub(super) fn mentions_in(visible: &str, whole: bool, out: &mut String) {
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut run: Vec<&str> = Vec::new();
    // Each stretch of two to four words of a run (a name inside a longer
    // run, `Engineer Wen Li Reports`, is mentioned too).
    let mut end = |run: &mut Vec<&str>, out: &mut String| -> bool {
        for i in 0..run.len() {
            for l in 2..=4 {
                let Some(part) = run.get(i..i + l) else { break };
                let w = super::targets::fold_name(&part.join(" "));
                if !seen.contains(&w) {
                    if out.len() + w.len() + 2 > MAX_NAMED_BYTES {
                        return false;
                    }
                    out.push('~');
                    out.push_str(&w);
                    out.push('\u{1e}');
                    seen.insert(w);
                }
            }
        }
        run.clear();
        true
    };
    // Words a single space apart make a run; anything else between two
    // (punctuation, a line end, two spaces) ends it.
    for piece in visible.split(char::is_whitespace) {
        let core = piece.trim_matches(|c: char| !c.is_alphabetic());
        let lead = !piece.starts_with(char::is_alphabetic);
        let trail = !piece.ends_with(char::is_alphabetic);
        let capital = core.chars().next().is_some_and(char::is_uppercase)
            && core.chars().all(|c| c.is_alphabetic() || c == '\'' || c == '-')
            && !core.chars().skip(1).any(char::is_uppercase);
        if (lead || !capital || run.len() == 8) && !end(&mut run, out) {
            out.push_str("!\u{1e}");
            return;
        }
        if capital {
            run.push(core);
            if trail && !end(&mut run, out) {
                out.push_str("!\u{1e}");
                return;
            }
        }
    }
    if !end(&mut run, out) || !whole {
        out.push_str("!\u{1e}");
    }
}

/// At most this many bytes of names kept for one read; past them the read
/// says it was cut, and no name binds while it is in the session.
const MAX_NAMED_BYTES: usize = 8192;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn handles_come_from_keys_never_from_text_inside_strings() {
        let answer = r#"[{"id_": "311", "threadId": "th_9021", "body": "post on {\"id\": \"999\"} issue 998",
            "items": [{"productId": "P-55102"}], "user_id": "U0EVIL", "attachments": [{"id": "a-77"}],
            "phone_number": "+1 555"}]"#;
        let h = handles_in(answer).unwrap();
        for want in [" 311 ", " th_9021 ", " p-55102 ", " a-77 "] {
            assert!(h.contains(want), "{want} in {h}");
        }
        // Not from text inside a string, nor a person's id.
        assert!(!h.contains("999") && !h.contains("998") && !h.contains("u0evil"), "{h}");
        // A value with a space is no handle; nor is text that is not JSON.
        assert!(!h.contains("555"), "{h}");
        assert_eq!(handles_in(r#"[2024] "id": "evil""#), None);
        assert_eq!(handles_in("plain text id: 5"), None);
        // Where a listing's items are kept counts too.
        let places = handles_in(r#"{"parents": ["fld_fin"], "folder_id": "fld_team"}"#).unwrap();
        assert!(places.contains(" fld_fin ") && places.contains(" fld_team "), "{places}");
        // A cut answer is not JSON: none.
        assert_eq!(handles_in(r#"[{"id": "a1"}, {"id": "#), None);
        // Below maps whose keys the writer chose (`x_…` too): none.
        for writer in ["preferences", "answers", "settings", "x_meta"] {
            let answer = format!(r#"{{"{writer}": {{"folder_id": "fld_evil"}}}}"#);
            assert_eq!(handles_in(&answer), None, "{answer}");
        }
    }

    #[test]
    fn a_call_aims_at_handles_only_under_object_keys() {
        let args = json!({"email_id": "m-5012", "to": ["x@y.test"], "user_id": "U0EVIL", "channel_id": "C1",
            "folder_id": "F9", "ids": ["f1", "f2"], "issueNumber": 31, "phone_number": "5550100"});
        let mut h = handles_of(&args, Category::Send);
        h.sort();
        assert_eq!(h, ["31", "m-5012"]);
        // A bare `id` may be whom (`send_message {"id": "U0…"}`): never a handle.
        assert!(handles_of(&json!({"id": "AAMk-1"}), Category::Send).is_empty());
        assert!(handles_of(&json!({"id": "U0EVIL"}), Category::Send).is_empty());
        assert!(handles_of(&json!({"id": "U0EVIL"}), Category::Access).is_empty());
        assert_eq!(handles_of(&json!({"file_id": "wl-88"}), Category::Access), ["wl-88"]);
        assert!(handles_of(&json!({"product_id": "P-1"}), Category::Financial).is_empty());
        // At most MAX_NAMES; places past it, or too deep, are a cut list.
        let many: Vec<Value> = (0..200).map(|i| json!({"email_id": format!("m{i}")})).collect();
        assert_eq!(handles_of(&json!({"items": many}), Category::Send).len(), super::super::targets::MAX_NAMES);
        let folders: Vec<Value> = (0..200).map(|i| json!({"folder_id": format!("f{i}")})).collect();
        assert!(places_of(&json!({"x": folders})).1);
        let mut deep = json!({"folder_id": "f"});
        for _ in 0..40 {
            deep = json!({"a": deep});
        }
        assert!(places_of(&deep).1);
        assert!(!places_of(&json!({"folder_id": "f"})).1);
    }

    #[test]
    fn names_come_from_an_answers_items() {
        let n = |t: &str| named_in(&super::answer(t).unwrap());
        let users = r#"{"members": [{"id": "U02WENLI", "name": "wen.li", "real_name": "Wen Li"},
            {"venue_id": "v_5518", "name": "Sakana Bar", "address": "9 Wharf Lane"}]}"#;
        assert_eq!(n(users).unwrap(), "+u02wenli wen-li\u{1e}+u02wenli wen li\u{1e}+v_5518 sakana bar\u{1e}");
        let people = r#"[{"login": "sven-lq", "name": "Sven Lindqvist"}, {"name": "Lucía Fernández", "email": "Lucia@x.test"},
            {"id": "u_3", "name": "Ana", "emailAddress": "ana@x.test", "manager_email": "boss@x.test"},
            {"id": "T-1", "title": "Wen Li", "email": "wen@evil.test"},
            {"id": "u_4", "profile": {"real_name": "Dana Park"}, "author": {"first_name": "Wen", "last_name": "Li"}}]"#;
        assert_eq!(
            n(people).unwrap(),
            "+sven-lq sven lindqvist\u{1e}+lucia@x.test lucia fernandez\u{1e}+u_3,ana@x.test ana\u{1e}+t-1 wen li\u{1e}+u_4 dana park\u{1e}-? wen li\u{1e}"
        );
        // Past the budget, a cut.
        let many: Vec<Value> =
            (0..2000).map(|i| json!({"id": format!("u{i}"), "name": format!("Person {i}")})).collect();
        assert!(n(&Value::Array(many).to_string()).unwrap().ends_with("\u{1e}!\u{1e}"));
        // An object someone wrote or is on, a map its writer keyed, an
        // object two keys down, an id that is a place's or one of two.
        for t in [
            r#"{"id": "m1", "from": {"id": "U0EVIL", "name": "Wen Li"}}"#,
            r#"{"labels": {"id": "U0EVIL", "name": "Wen Li"}}"#,
            r#"{"a": {"b": {"id": "U0EVIL", "name": "Wen Li"}}}"#,
            r#"[{"parent_id": "F0EVIL", "name": "Wen Li"}, {"order_id": "o1", "product_id": "p1", "title": "Lamp"}]"#,
            r#"[{"id": "has space", "name": "Wen Li"}, {"id": "U1", "subject": "Wen Li"}]"#,
        ] {
            assert!(n(t).is_none_or(|l| !l.split('\u{1e}').any(|l| l.starts_with('+'))), "{t}: {:?}", n(t));
        }
    }

    /// Any JSON answer: every handle is a value under an id or place key
    /// of its structure, and no text inside a string (however much JSON it
    /// holds) gives one.
    fn answer() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let key = prop_oneof![
            Just("id"),
            Just("email_id"),
            Just("threadId"),
            Just("folder_id"),
            Just("parent"),
            Just("body"),
            Just("user_id"),
            Just("items"),
            Just("name"),
            Just("from")
        ];
        // Strings an attacker writes: JSON text with id keys in it.
        let text =
            "[a-z ]{0,6}".prop_map(|s| format!(r#"{s} {{"id": "evil{s}", "threadId": ["evil"]}} \"id\":\"evil\""#));
        let leaf = prop_oneof![text.prop_map(Value::String), (0u32..100).prop_map(|n| Value::String(format!("ok{n}")))];
        leaf.prop_recursive(4, 40, 6, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::vec((key.clone(), inner), 0..4)
                    .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
            ]
        })
    }

    proptest::proptest! {
        #[test]
        fn no_string_gives_a_handle(v in answer()) {
            let text = serde_json::to_string(&v).unwrap();
            if let Some(h) = handles_in(&text) {
                proptest::prop_assert!(!h.contains("evil"), "{h} from {text}");
                for w in h.split(' ').filter(|w| !w.is_empty()) {
                    proptest::prop_assert!(w.starts_with("ok"), "{w} from {text}");
                }
            }
            if let Some(n) = named_in(&v) {
                for line in n.split('\u{1e}').filter(|l| l.starts_with('+')) {
                    let ids = line[1..].split(' ').next().unwrap_or("");
                    proptest::prop_assert!(ids.split(',').all(|i| i.starts_with("ok")), "{line} from {text}");
                }
            }
        }
    }
}
