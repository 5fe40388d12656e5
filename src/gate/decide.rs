//! Deciding: a call's plan (category and targets), the facts a session
//! gives about them, and the judgment by DESIGN.md's table.

use serde::Serialize;

use super::call::{is_local_command, sends_body, sql_change};
use super::category::hinted;
use super::targets::{self, strings, url_carries_data};
use super::wanted::Wanted;
use super::{
    Call, Category, Decision, History, Origin, Policy, Target, TargetKind, category, fold_confusables, secrets, shell,
    targets_of,
};

/// Targets named in one reason; the rest are counted (the full list is in
/// `targets`).
const MAX_LISTED: usize = 20;

/// The gate's answer with what it rests on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    pub decision: Decision,
    pub tool: String,
    pub category: Category,
    pub reasons: Vec<String>,
    pub targets: Vec<Target>,
}

/// A call read for what it aims at, before any session is looked at:
/// deciding is [`plan`], then [`facts`] (one pass over what was read), then
/// [`judge`]. A session file can give its facts while it is read
/// ([`crate::session::decide_in`]), without holding the file.
pub(crate) struct Plan {
    category: Category,
    found: Vec<(TargetKind, String)>,
    notes: Vec<String>,
    /// The kinds of credential the arguments carry.
    secrets: Vec<&'static str>,
    /// `found`, ready to be looked for in entity lists.
    pub(crate) wanted: Wanted,
}

/// What a session says about one call's targets (index by index with
/// [`Plan::wanted`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Facts {
    /// Untrusted content was read (and not forgotten).
    pub(crate) any_read: bool,
    /// Some of it had a review or block verdict.
    pub(crate) injected: bool,
    /// What was read mentions the target.
    pub(crate) in_content: Vec<bool>,
    /// Text the user typed or trusted mentions it.
    pub(crate) trusted: Vec<bool>,
    /// It is an address and the sender of something read.
    pub(crate) sender: Vec<bool>,
}

impl Facts {
    /// Nothing read, nothing trusted.
    pub(crate) fn none(targets: usize) -> Facts {
        Facts {
            any_read: false,
            injected: false,
            in_content: vec![false; targets],
            trusted: vec![false; targets],
            sender: vec![false; targets],
        }
    }
}

/// Find a call's category and targets.
pub(crate) fn plan(call: &Call, policy: &Policy) -> Plan {
    let (tool, tool_folded) = fold_confusables(&call.tool);
    let mut category = category(&tool, policy);
    let (mut found, mut notes) = targets_of(call);
    // What the tool's server says it does, unless the policy names it.
    if !policy.tools.contains_key(&tool)
        && let Some((raised, hints)) = hinted(category, &call.hints)
    {
        notes.push(format!(
            "the tool's server marks it with {hints}: judged as {} (not {})",
            raised.as_str(),
            category.as_str()
        ));
        category = raised;
    }
    // Names (a channel, a user, a file id), for calls that act on them (a
    // command line's are read as a command's, below; reads, writes and
    // drafts are judged by what they are aimed at in the content).
    if category.is_consequential() && category != Category::Execute {
        let (names, cut) = targets::names_of(&call.args);
        if cut && !found.iter().any(|(k, _)| *k == TargetKind::Unknown) {
            found.push((
                TargetKind::Unknown,
                format!(
                    "names past the limits ({} names, values of {} bytes)",
                    targets::MAX_NAMES,
                    targets::MAX_NAME_SCAN
                ),
            ));
        }
        found.extend(names.into_iter().map(|n| (TargetKind::Name, n)));
        found.sort();
        found.dedup();
    }
    let mut texts = Vec::new();
    strings(&call.args, 0, &mut texts);
    // A command line's hosts are its targets.
    if category == Category::Execute {
        found.extend(texts.iter().flat_map(|t| shell::hosts(&fold_confusables(t).0)).map(|h| (TargetKind::Domain, h)));
        found.sort();
        found.dedup();
    }
    let mut secrets: Vec<&'static str> = Vec::new();
    for k in secrets::texts_to_check(&call.args, &texts).iter().flat_map(|t| secrets::kinds(t)) {
        if !secrets.contains(&k) {
            secrets.push(k);
        }
    }
    if tool_folded {
        notes.insert(0, format!("look-alike letters in the tool name were read as Latin: {:?} → {tool:?}", call.tool));
    }
    // SQL that changes data or access runs it, whatever the tool is called
    // (`mcp__postgres__query {"sql": "DROP TABLE users"}`).
    if matches!(category, Category::Read | Category::Organize)
        && !policy.tools.contains_key(&tool)
        && let Some(stmt) = texts.iter().find_map(|t| sql_change(t))
    {
        category = Category::Execute;
        notes.push(format!("the arguments hold SQL that changes data or access ({stmt} …): judged as a command"));
    }
    // A request that carries a body sends it, whatever fetches it.
    if category == Category::Browse && !policy.tools.contains_key(&tool) && sends_body(&call.args) {
        category = Category::Send;
        notes
            .push("a browse call that sends a body (a method other than GET, or body data) is judged as a send".into());
    }
    let wanted = Wanted::new(&found);
    Plan { category, found, notes, secrets, wanted }
}

/// What a session says about these targets (a plan's `wanted`): one walk
/// over each kind of record, each entity looked up in the index.
pub(crate) fn facts(ledger: &dyn History, wanted: &Wanted) -> Facts {
    let mut facts = Facts::none(wanted.len());
    facts.any_read = ledger.any_read();
    facts.injected = ledger.injected();
    if !wanted.is_empty() {
        let mut ranges = Vec::new();
        ledger.any_untrusted(&mut |e| {
            wanted.mentioned_by(e, &mut |r| ranges.push(r));
            false
        });
        facts.in_content = wanted.covered(ranges.drain(..));
        ledger.any_trusted(&mut |e| {
            wanted.trusted_by(e, &mut |r| ranges.push(r));
            false
        });
        facts.trusted = wanted.covered(ranges.drain(..));
        ledger.any_sender(&mut |s| {
            wanted.sender(s, &mut |r| ranges.push(r));
            false
        });
        facts.sender = wanted.covered(ranges.drain(..));
    }
    facts
}

/// Decide a call against the ledger and policy (DESIGN.md's table).
pub fn decide(call: &Call, ledger: &dyn History, policy: &Policy) -> Outcome {
    let plan = plan(call, policy);
    let facts = facts(ledger, &plan.wanted);
    judge(call, plan, &facts, policy)
}

/// Decide a planned call on what the session says about it.
pub(crate) fn judge(call: &Call, plan: Plan, facts: &Facts, policy: &Policy) -> Outcome {
    let Plan { category, found, notes, secrets, .. } = plan;
    let untrusted_read = facts.any_read;
    let injected = facts.injected;
    let mut targets = Vec::new();
    for (i, (kind, value)) in found.into_iter().enumerate() {
        let origin = if facts.trusted[i]
            || (kind == TargetKind::Email && policy.trusts_address(&value))
            || (kind == TargetKind::Domain && policy.trusts_domain(&value))
            || (kind == TargetKind::Url && link_host(&value).is_some_and(|h| policy.trusts_domain(&h)))
        {
            Origin::Trusted
        } else if facts.sender[i] {
            Origin::Sender
        } else if facts.in_content[i] {
            Origin::Untrusted
        } else {
            Origin::New
        };
        targets.push(Target { kind, value, origin });
    }

    let mut reasons = notes;
    let mut decision = Decision::Allow;
    let raise = |d: &mut Decision, to: Decision, why: String, reasons: &mut Vec<String>| {
        if to > *d {
            *d = to;
        }
        reasons.push(why);
    };

    if untrusted_read {
        let state =
            if injected { "content that looked like an injection was read" } else { "untrusted content was read" };
        // Targets that matter for this category: domains are implied by
        // addresses and links, so only the most specific kinds count.
        // (A domain is implied when it is an address's domain or a link's
        // host; one set of those, not a search of every target for each.)
        let implied: std::collections::HashSet<String> = targets
            .iter()
            .filter_map(|o| match o.kind {
                TargetKind::Email => o.value.rsplit_once('@').map(|(_, d)| d.to_lowercase()),
                TargetKind::Url => link_host(&o.value),
                _ => None,
            })
            .collect();
        let specific: Vec<&Target> = targets
            .iter()
            .filter(|t| t.kind != TargetKind::Domain || !implied.contains(&t.value.to_lowercase()))
            .collect();
        // What only the content mentioned, and what the gate could not read
        // (judged as the content's: it may be anything).
        let from_content: Vec<&&Target> =
            specific.iter().filter(|t| t.origin == Origin::Untrusted || t.kind == TargetKind::Unknown).collect();
        let to_sender =
            !specific.is_empty() && specific.iter().all(|t| matches!(t.origin, Origin::Sender | Origin::Trusted));
        // The user's own work: every target is one the user gave (typed,
        // trusted, or found in clean content a call aimed only at what the
        // user gave read).
        let own = !specific.is_empty() && specific.iter().all(|t| t.origin == Origin::Trusted);
        let any_sender = specific.iter().any(|t| t.origin == Origin::Sender);

        if let Some(&d) = policy.after_untrusted.get(&category) {
            raise(
                &mut decision,
                d,
                format!("policy: {} tools are {} after untrusted content", category.as_str(), d.as_str()),
                &mut reasons,
            );
        } else {
            match category {
                Category::Read | Category::Organize => {}
                Category::Write | Category::Draft if !from_content.is_empty() && injected => {
                    raise(
                        &mut decision,
                        Decision::Confirm,
                        format!(
                            "a {} aimed at {} that only the content mentioned, after {state}",
                            category.as_str(),
                            list(&from_content)
                        ),
                        &mut reasons,
                    );
                }
                Category::Browse if injected => {
                    raise(&mut decision, Decision::Confirm, format!("browsing after {state}"), &mut reasons);
                }
                Category::Browse if specific.iter().any(|t| t.kind == TargetKind::Unknown) => {
                    raise(
                        &mut decision,
                        Decision::Confirm,
                        format!("browsing to {} that the gate cannot read, after {state}", list(&from_content)),
                        &mut reasons,
                    );
                }
                Category::Write | Category::Draft | Category::Browse => {}
                c if c.is_consequential() => {
                    if !from_content.is_empty() {
                        let d = if injected { Decision::Block } else { Decision::Confirm };
                        raise(
                            &mut decision,
                            d,
                            format!(
                                "{} {} call aimed at {} that only the content mentioned, after {state}",
                                article(c),
                                c.as_str(),
                                list(&from_content)
                            ),
                            &mut reasons,
                        );
                    } else if to_sender && c == Category::Send {
                        if injected {
                            let d = if any_sender { Decision::Block } else { Decision::Confirm };
                            raise(
                                &mut decision,
                                d,
                                format!("a send to {} after {state}", list(&specific.iter().collect::<Vec<_>>())),
                                &mut reasons,
                            );
                        } else {
                            reasons.push(format!(
                                "a send to the content's sender or a trusted address ({})",
                                list(&specific.iter().collect::<Vec<_>>())
                            ));
                        }
                    } else if own && c != Category::Execute {
                        let given = list(&specific.iter().collect::<Vec<_>>());
                        if injected {
                            raise(
                                &mut decision,
                                Decision::Confirm,
                                format!(
                                    "{} {} call aimed only at what the user gave ({given}), after {state}",
                                    article(c),
                                    c.as_str()
                                ),
                                &mut reasons,
                            );
                        } else {
                            reasons.push(format!(
                                "{} {} call aimed only at what the user gave ({given})",
                                article(c),
                                c.as_str()
                            ));
                        }
                    } else if c == Category::Execute && injected && is_local_command(call) {
                        raise(
                            &mut decision,
                            Decision::Confirm,
                            format!(
                                "a local command (no network, no deletion, nothing the content named) after {state}"
                            ),
                            &mut reasons,
                        );
                    } else {
                        let d = if injected { Decision::Block } else { Decision::Confirm };
                        let new: Vec<&&Target> = specific.iter().filter(|t| t.origin == Origin::New).collect();
                        let aim = if new.is_empty() {
                            String::new()
                        } else {
                            format!(" aimed at {}, which the user did not give,", list(&new))
                        };
                        raise(
                            &mut decision,
                            d,
                            format!("{} {} call{aim} after {state}", article(c), c.as_str()),
                            &mut reasons,
                        );
                    }
                }
                _ => {}
            }
        }
    }
    // A credential leaving to a destination the user did not give (or to
    // one the gate cannot see, from a tool that sends, fetches or runs):
    // block, naming the kind of secret, never its value.
    if untrusted_read && !secrets.is_empty() {
        let not_given: Vec<&Target> = targets.iter().filter(|t| t.origin != Origin::Trusted).collect();
        let unseen = targets.is_empty()
            && matches!(category, Category::Send | Category::Browse | Category::Execute | Category::Unknown);
        if !not_given.is_empty() || unseen {
            let to = if unseen {
                "a destination the gate cannot see".to_string()
            } else {
                list(&not_given.iter().collect::<Vec<_>>())
            };
            raise(
                &mut decision,
                Decision::Block,
                format!(
                    "the call carries {} to {to}, which the user did not give, after untrusted content was read",
                    secrets.join(" and ")
                ),
                &mut reasons,
            );
        }
    }
    // A link nobody gave the model (the content's links count only as they
    // were written), carrying data in any part of it: confirm.
    for t in &targets {
        if t.kind == TargetKind::Url
            && t.origin == Origin::New
            && untrusted_read
            && let Some(part) = url_carries_data(&t.value)
        {
            raise(
                &mut decision,
                Decision::Confirm,
                format!("a link nobody gave the model carries data in its {part}: {}", t.value),
                &mut reasons,
            );
        }
    }
    if let Some(&d) = policy.always.get(&category) {
        raise(
            &mut decision,
            d,
            format!("policy: {} tools are always at least {}", category.as_str(), d.as_str()),
            &mut reasons,
        );
    }
    if reasons.is_empty() {
        reasons.push(if untrusted_read {
            format!("{} tools are allowed after untrusted content", category.as_str())
        } else {
            "no untrusted content has been read".to_string()
        });
    }
    Outcome { decision, tool: call.tool.clone(), category, reasons, targets }
}

/// A link target's host, as the URL parser reads it.
fn link_host(link: &str) -> Option<String> {
    url::Url::parse(link).ok()?.host_str().map(|h| h.trim_end_matches('.').to_ascii_lowercase())
}

fn article(c: Category) -> &'static str {
    if matches!(c.as_str().as_bytes()[0], b'a' | b'e' | b'i' | b'o' | b'u') { "an" } else { "a" }
}

fn list(ts: &[&&Target]) -> String {
    let mut s = ts.iter().take(MAX_LISTED).map(|t| t.value.as_str()).collect::<Vec<_>>().join(", ");
    if ts.len() > MAX_LISTED {
        s.push_str(&format!(" and {} more", ts.len() - MAX_LISTED));
    }
    s
}

/// A one-line summary for people.
pub fn summary(o: &Outcome) -> String {
    let mut s = format!("{} {} ({})", o.decision.as_str().to_uppercase(), o.tool, o.category.as_str());
    for r in &o.reasons {
        s.push_str("\n  - ");
        s.push_str(&crate::escape::terminal_safe(r));
    }
    s.push('\n');
    s
}
