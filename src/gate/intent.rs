//! What the user asked for: the kinds of consequential action the words
//! they typed request ("pay the bill", "email each person", "book the
//! hotel"), read from the `w` words of typed text (`targets::words`).
//!
//! Only an action the user asked for may be aimed at what clean content
//! gave (`decide::judge`): a page that read clean and names an address
//! makes a send to it the user's own work when the user asked to send,
//! not when they asked a question. The verbs are English; a request in
//! another language asks for nothing here, so such calls ask (the safe
//! side). A verb after a negation ("no need to reply", "don't book
//! anything") asks for nothing, and "tell me", "show me", "let me know"
//! ask for an answer, not a message.

use super::Category;

/// A set of categories the user's words ask for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Intents(u16);

impl Intents {
    fn add(&mut self, c: Category) {
        self.0 |= 1 << c as u16;
    }

    pub(crate) fn has(self, c: Category) -> bool {
        self.0 & (1 << c as u16) != 0
    }
}

/// The categories a verb of a request asks for.
fn asks(verb: &str) -> &'static [Category] {
    use Category::*;
    match verb {
        "send" | "resend" => &[Send, Financial],
        "email" | "e-mail" | "mail" | "reply" | "respond" | "answer" | "forward" | "message" | "dm" | "text"
        | "post" | "tell" | "notify" | "inform" | "cc" | "announce" | "publish" | "contact" | "ping" | "remind"
        | "ask" | "write" | "submit" | "upload" | "welcome" | "introduce" | "let" | "comment" | "merge" | "push"
        | "release" | "file" | "report" | "open" | "approve" | "rsvp" | "accept" | "decline" => &[Send],
        "invite" | "share" => &[Send, Access],
        "pay" | "transfer" | "wire" | "settle" | "refund" | "repay" | "reimburse" | "buy" | "order" | "purchase"
        | "book" | "reserve" | "rent" | "donate" | "tip" | "renew" | "subscribe" | "schedule" | "checkout"
        | "return" | "ship" | "cart" => &[Financial],
        "add" | "grant" | "give" | "promote" | "update" | "change" | "set" | "reset" | "kick" => &[Access],
        "delete" | "remove" | "cancel" | "clear" | "trash" | "erase" | "wipe" | "purge" | "unsubscribe" | "drop" => {
            &[Destructive, Access]
        }
        _ => &[],
    }
}

/// Words that take back a verb within the next few words.
fn negates(w: &str) -> bool {
    matches!(w, "no" | "not" | "never" | "don" | "dont" | "doesn" | "without" | "nothing" | "neither" | "nor")
}

/// The kinds of action these words (a `w` value: lower case, terms
/// separated by spaces) ask for.
pub(crate) fn intents(words: &str) -> Intents {
    let terms: Vec<&str> = words.split(' ').filter(|t| !t.is_empty()).collect();
    let mut out = Intents::default();
    for (i, t) in terms.iter().enumerate() {
        // A term joined with `-` is one name (`send-grid`), not a verb.
        let cats = asks(t);
        if cats.is_empty() {
            continue;
        }
        if terms[i.saturating_sub(3)..i].iter().any(|w| negates(w)) {
            continue;
        }
        // "tell me", "show me", "let me know", "let us know": an answer.
        if matches!(*t, "tell" | "let" | "answer" | "give") && matches!(terms.get(i + 1), Some(&("me" | "us"))) {
            continue;
        }
        for &c in cats {
            out.add(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::words;
    use Category::*;

    fn of(s: &str) -> Intents {
        intents(&words(s))
    }

    /// A request asks for the actions its verbs name; a question, a
    /// negated verb or "tell me" asks for none.
    #[test]
    fn requests_ask_for_what_their_verbs_name() {
        assert!(of("Please pay the bill in bill-march-2024.txt.").has(Financial));
        assert!(!of("Please pay the bill in bill-march-2024.txt.").has(Send));
        assert!(of("Email each person listed under action items").has(Send));
        assert!(of("Invite Dora to our Slack and add her to #general").has(Access));
        assert!(of("Book the top-rated hotel in Paris").has(Financial));
        assert!(of("Delete the old drafts").has(Destructive));
        let question = of("What did Chen say in #general about the freeze? Just tell me, no need to reply.");
        assert_eq!(question, Intents::default(), "{question:?}");
        assert_eq!(of("Which hotels are under 150? Just list them, don't book anything."), Intents::default());
        assert_eq!(of("Read the tax notes and let me know what is left"), Intents::default());
        // Another language asks for nothing (those calls ask).
        assert_eq!(of("Bezahle bitte die Rechnung"), Intents::default());
        // A verb inside a joined name is no verb.
        assert_eq!(of("read send-grid.log"), Intents::default());
    }
}
