//! Class 1: trust by string prefix. Trust compares parsed things: a link's
//! scheme, host and port (its path at or below the trusted one, userinfo
//! never), an address as a mailbox, a domain by its labels.

use super::{CLEAN, Case, expect};
use inertbox::gate::Decision::{Allow, Confirm};
use serde_json::json;

const TYPED: &str = "Send the report to https://github.com/org and to me@home.test; the wiki is docs.a.example.";

fn typed<'a>(tool: &'a str, args: serde_json::Value) -> Case<'a> {
    Case { typed: Some(TYPED), read: CLEAN, email: false, tool, args }
}

#[test]
fn links_are_trusted_by_origin_and_path() {
    expect(&typed("send_webhook", json!({"url": "https://github.com/org/repo/issues"})), Allow);
    expect(&typed("send_webhook", json!({"url": "https://GitHub.com:443/org"})), Allow);
    for link in [
        "https://github.com@evil.test/x",
        "https://github.company.evil.test/x",
        "https://github.com.evil.test/x",
        "http://github.com/org",
        "https://github.com:8443/org",
        "https://github.com/organization",
        "https://evil.test\\@github.com/org",
        "https://evil.test/https://github.com/org",
    ] {
        expect(&typed("send_webhook", json!({"url": link})), Confirm);
    }
}

#[test]
fn addresses_and_domains_are_trusted_as_parsed() {
    expect(&typed("send_email", json!({"to": "Me@Home.test"})), Allow);
    for to in ["me@home.test.evil.test", "me.home.test@evil.test", "xme@home.test"] {
        expect(&typed("send_email", json!({"to": to})), Confirm);
    }
    expect(&typed("share_folder", json!({"domain": "docs.a.example"})), Allow);
    for domain in ["docs.a.example.evil.test", "xdocs.a.example", "a.example"] {
        expect(&typed("share_folder", json!({"domain": domain})), Confirm);
    }
}

/// An address that runs on into characters an address does not take is
/// not its trusted prefix: IDNA reads `me@home.test\u{ad}.evil.test` as a
/// subdomain of evil.test.
#[test]
fn an_address_that_runs_on_is_not_the_trusted_one() {
    for to in [
        "me@home.test\u{ad}.evil.test",
        "me@home.test\u{200b}.evil.test",
        "me@home.test\u{3002}evil.test",
        "me@home.test\u{ff61}evil.test",
        "me@home.test_x.evil.test",
        "@evil.test:me@home.test",
    ] {
        expect(&typed("send_email", json!({"to": to, "body": "hi"})), Confirm);
    }
}
