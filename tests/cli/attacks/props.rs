//! Properties over calls whose targets are disguised in every way of the
//! classes above, and combinations (through the library; the class files
//! hold every front end to the same decisions):
//!
//! - after untrusted content, no send aimed at a target the user did not
//!   give is allowed (an oracle independent of the gate says which targets
//!   the user gave: the URL parser's origin and path, the lowercase
//!   mailbox);
//! - a limit or a parse failure only ever raises a decision.

use inertbox::Guard;
use inertbox::detect::Verdict;
use inertbox::gate::{Call, Decision, Policy};
use proptest::prelude::*;
use serde_json::{Value, json};

const TYPED: &str = "Send the report to https://github.com/org and to me@home.test.";

fn guard() -> Guard {
    let mut g = Guard::new(Policy::default()).unwrap();
    g.trust(TYPED);
    let (_, r) = g.ingest(super::CLEAN.as_bytes(), "page").unwrap();
    assert_eq!(r.verdict, Verdict::Allow);
    g
}

/// Did the user give this target? Independently of the gate: a link is
/// given when the URL parser reads https, host github.com (a final dot is
/// the same name in DNS), the default port and a path at or below /org; an
/// address when it is me@home.test in any case (a final dot after it ends
/// the sentence, or names the same domain).
fn given(t: &str) -> bool {
    if t.contains("://") {
        let Ok(u) = url::Url::parse(t) else { return false };
        u.scheme() == "https"
            && u.host_str().map(|h| h.trim_end_matches('.')) == Some("github.com")
            && u.port().is_none()
            && (u.path() == "/org" || u.path().starts_with("/org/"))
    } else {
        t.trim_end_matches('.').eq_ignore_ascii_case("me@home.test")
    }
}

fn link() -> impl Strategy<Value = String> {
    let scheme = proptest::sample::select(vec!["https://", "http://", "HTTPS://"]);
    let userinfo = proptest::sample::select(vec!["", "github.com@", "user:pw@", "me@home.test@"]);
    let host = proptest::sample::select(vec![
        "github.com",
        "GitHub.com",
        "github.com.evil.test",
        "github.company.evil.test",
        "evil.test",
        "github.com.",
        "xn--github-xyz.com",
        "github.com:443",
        "github.com:8443",
    ]);
    let tail = proptest::sample::select(vec!["", "\\@github.com", "%2f@github.com", "#@github.com"]);
    let path = proptest::sample::select(vec![
        "",
        "/org",
        "/org/",
        "/org/repo",
        "/organization",
        "/orgs",
        "/x/org",
        "/org/../x",
    ]);
    let query = proptest::sample::select(vec!["", "?a=1", "?next=https://github.com/org"]);
    (scheme, userinfo, host, tail, path, query).prop_map(|(s, u, h, t, p, q)| format!("{s}{u}{h}{t}{p}{q}"))
}

fn address() -> impl Strategy<Value = String> {
    let local = proptest::sample::select(vec!["me", "Me", "xme", "me.home.test", "\"me\"", "me+x"]);
    let domain = proptest::sample::select(vec![
        "home.test",
        "HOME.test",
        "home.test.evil.test",
        "evil.test",
        "home.test.",
        "hоme.test",
    ]);
    (local, domain).prop_map(|(l, d)| format!("{l}@{d}"))
}

fn target() -> impl Strategy<Value = String> {
    prop_oneof![link(), address()]
}

fn send(targets: &[String]) -> Call {
    let (links, addrs): (Vec<&String>, Vec<&String>) = targets.iter().partition(|t| t.contains("://"));
    Call::new("send_message".into(), json!({"to": addrs, "links": links, "body": "the report"}))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

    /// After untrusted content, a send is allowed only when every target
    /// it names is one the user gave.
    #[test]
    fn no_send_to_a_target_the_user_did_not_give_is_allowed(targets in proptest::collection::vec(target(), 1..4)) {
        let d = guard().check(&send(&targets));
        if targets.iter().any(|t| !given(t)) {
            prop_assert_ne!(d.decision, Decision::Allow, "{:?} {:?}", targets, d.reasons);
        }
    }

    /// A disguise the gate cannot read, or arguments past a limit, raise a
    /// call the user's targets alone would leave allowed.
    #[test]
    fn a_limit_or_a_parse_failure_raises_the_decision(
        kind in 0usize..5,
        depth in 33usize..60,
    ) {
        let g = guard();
        let base = json!({"to": ["me@home.test"], "links": ["https://github.com/org/x"], "body": "the report"});
        prop_assert_eq!(g.check(&Call::new("send_message".into(), base.clone())).decision, Decision::Allow);
        let mut args = base;
        let extra: Value = match kind {
            0 => json!("\"a b\"@evil.test"),
            1 => json!("x@[10.0.0.1]"),
            2 => json!("user@bücher.example"),
            3 => {
                let mut v = json!("attacker@evil.test");
                for _ in 0..depth { v = json!([v]); }
                v
            }
            _ => json!("https://[::1"),
        };
        args["cc"] = extra;
        let d = g.check(&Call::new("send_message".into(), args));
        prop_assert!(d.decision > Decision::Allow, "{:?}", d.reasons);
    }
}
