//! Credentials in a call's arguments. After untrusted content was read, a
//! call that carries one to a target the user did not give is blocked; the
//! reason names the kind of secret, never its value.
//!
//! The formats (`patterns::GATE_SECRET`): private key blocks; AWS access
//! key ids; GitHub, GitLab, Slack, npm, Stripe live, Google API,
//! Anthropic, OpenAI, SendGrid, Hugging Face and PyPI keys; JSON web
//! tokens; Slack webhooks; Azure storage keys; a password in a link; HTTP
//! authorization headers; and assignments of a secret-named variable
//! (`*SECRET*`, `*TOKEN*`, `*PASS*`, `*API_KEY*`, `*PRIVATE_KEY*`,
//! `*ACCESS_KEY*`, `*CREDENTIAL*`, as in a `.env` file, a header or a
//! quoted JSON key) to a value of twelve (quoted: eight) or more characters.

use std::sync::LazyLock;

use crate::patterns;
use crate::prebuilt::Matcher;

static SECRET: LazyLock<Matcher> = LazyLock::new(|| Matcher::by_pattern(patterns::GATE_SECRET));

/// What a call's credentials are looked for in: each string as written;
/// as it reads with invisible characters taken out and `%` escapes
/// decoded, when it has either; and each object entry with a string value
/// as a header line (`{"Authorization": "Bearer …"}`, `{"password": "…"}`).
pub(super) fn texts_to_check<'a>(args: &serde_json::Value, texts: &'a [String]) -> Vec<std::borrow::Cow<'a, str>> {
    use std::borrow::Cow;
    let mut out: Vec<Cow<'a, str>> = texts.iter().map(|t| Cow::Borrowed(t.as_str())).collect();
    for t in texts {
        // Invisible characters are outside ASCII: most text skips this.
        let visible = if t.is_ascii() { Cow::Borrowed(t.as_str()) } else { crate::invisible::strip(t) };
        if visible.contains('%') {
            out.push(Cow::Owned(percent_encoding::percent_decode_str(&visible).decode_utf8_lossy().into_owned()));
        } else if let Cow::Owned(v) = visible {
            out.push(Cow::Owned(v));
        }
    }
    let mut stack = vec![(args, 0usize)];
    let mut lines = 0;
    while let Some((v, depth)) = stack.pop() {
        match v {
            serde_json::Value::Object(o) if depth <= super::MAX_ARG_DEPTH => {
                for (k, x) in o {
                    // A header or a secret-named entry is short; a long
                    // value is read as itself above.
                    if let Some(s) = x.as_str().filter(|s| s.len() <= 1024)
                        && lines < super::MAX_ARG_STRINGS
                    {
                        lines += 1;
                        out.push(Cow::Owned(format!("{k}: {s}")));
                    }
                    stack.push((x, depth + 1));
                }
            }
            serde_json::Value::Array(a) if depth <= super::MAX_ARG_DEPTH => {
                stack.extend(a.iter().map(|x| (x, depth + 1)));
            }
            _ => {}
        }
    }
    out
}

/// The kinds of credential in `text`, each once, in order of first sight.
pub(super) fn kinds(text: &str) -> Vec<&'static str> {
    let mut out = Vec::new();
    // The pattern costs a fresh process to build (every gate call is one):
    // it runs only on text that holds what every format starts with.
    if text.len() < 16 || !may_hold_one(text) {
        return out;
    }
    SECRET.for_each_match(text, |r| {
        let k = kind(&text[r]);
        if !out.contains(&k) {
            out.push(k);
        }
    });
    out
}

/// Each credential in `text`: its byte range and its kind, in order. A
/// secret-named variable or an authorization header keeps its name: the
/// range is its value alone.
pub(crate) fn redactions(text: &str) -> Vec<(std::ops::Range<usize>, &'static str)> {
    let mut out = Vec::new();
    if text.len() < 16 || !may_hold_one(text) {
        return out;
    }
    for r in secret_matches(text) {
        let k = kind(&text[r.clone()]);
        let mut start = r.start;
        if k == "a secret-named variable's value" || k == "an HTTP authorization header" {
            let m = &text[r.clone()];
            if let Some(sep) = m.find([':', '=']) {
                let after = &m[sep + 1..];
                let value = after.trim_start_matches([' ', '\t', '"', '\'']);
                start = r.end - value.len();
            }
        }
        if start < r.end {
            out.push((start..r.end, k));
        }
    }
    out
}

/// The pattern's matches, searched only in the lines that hold one of the
/// strings every match holds (no match crosses a line): a long output
/// with the word "token" in it once was searched whole, and building the
/// lazy DFA's states for that cost a hook 4 ms on a 49 KB source file.
fn secret_matches(text: &str) -> Vec<std::ops::Range<usize>> {
    let holds = |rest: &[u8]| {
        STARTS.iter().any(|s| rest.starts_with(s.as_bytes()))
            || rest.starts_with(b"://")
            || WORDS.iter().any(|w| rest.get(..w.len()).is_some_and(|r| r.eq_ignore_ascii_case(w)))
    };
    crate::prebuilt::matches_in_lines(&SECRET, text, &FIRST_BYTES, holds)
}

/// Every byte a string of `STARTS`, `://` or `WORDS` (either case) starts with.
const FIRST_BYTES: [u8; 21] = *b"-AgxkSsnehpaK:TtPCcHh";

/// Literal starts of the formats, and the words of a secret-named
/// variable (any case) with an `=` or `:` after them: every match of the
/// pattern holds one (a test checks the formats).
const STARTS: &[&str] = &[
    "-----BEGIN ",
    "AKIA",
    "ASIA",
    "ABIA",
    "ACCA",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "glpat-",
    "xox",
    "k_live_",
    "AIza",
    "sk-",
    "npm_",
    "eyJ",
    "SG.",
    "hf_",
    "pypi-",
    "hooks.slack.com",
    "AccountKey=",
];
const WORDS: &[&[u8]] = &[b"secret", b"token", b"pass", b"key", b"credential", b"authorization"];

fn may_hold_one(text: &str) -> bool {
    if STARTS.iter().any(|s| memchr::memmem::find(text.as_bytes(), s.as_bytes()).is_some()) {
        return true;
    }
    // A link with a password: `://`, then `:` and `@` before any `/` or
    // white space (each scan ends at the next `/`, so the text is read once).
    for at in memchr::memmem::find_iter(text.as_bytes(), b"://") {
        let rest = &text.as_bytes()[at + 3..];
        let end = rest.iter().position(|&c| c == b'/' || c.is_ascii_whitespace()).unwrap_or(rest.len());
        if let Some(colon) = memchr::memchr(b':', &rest[..end])
            && memchr::memchr(b'@', &rest[colon..end]).is_some()
        {
            return true;
        }
    }
    let b = text.as_bytes();
    (memchr::memchr2(b'=', b':', b).is_some())
        && b.windows(3).enumerate().any(|(i, w)| {
            WORDS.iter().any(|word| {
                w.eq_ignore_ascii_case(&word[..3])
                    && b[i..].len() >= word.len()
                    && b[i..i + word.len()].eq_ignore_ascii_case(word)
            })
        })
}

fn kind(m: &str) -> &'static str {
    let starts = |p: &str| m.starts_with(p);
    if starts("-----BEGIN") {
        "a private key"
    } else if ["AKIA", "ASIA", "ABIA", "ACCA"].iter().any(|p| starts(p)) {
        "an AWS access key"
    } else if starts("gh") || starts("github_pat_") {
        "a GitHub token"
    } else if starts("glpat-") {
        "a GitLab token"
    } else if starts("xox") {
        "a Slack token"
    } else if starts("sk_live_") || starts("rk_live_") {
        "a Stripe live key"
    } else if starts("AIza") {
        "a Google API key"
    } else if starts("sk-ant-") {
        "an Anthropic API key"
    } else if starts("sk-") {
        "an OpenAI API key"
    } else if starts("npm_") {
        "an npm token"
    } else if starts("eyJ") {
        "a JSON web token"
    } else if starts("SG.") {
        "a SendGrid key"
    } else if starts("hf_") {
        "a Hugging Face token"
    } else if starts("pypi-") {
        "a PyPI token"
    } else if starts("https://hooks.slack.com/") {
        "a Slack webhook"
    } else if starts("AccountKey=") {
        "an Azure storage key"
    } else if m.contains("://") {
        "a password in a link"
    } else if m.get(..13).is_some_and(|h| h.eq_ignore_ascii_case("authorization"))
        || m.get(..19).is_some_and(|h| h.eq_ignore_ascii_case("proxy-authorization"))
    {
        "an HTTP authorization header"
    } else {
        "a secret-named variable's value"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Searching only the lines that hold a needle finds what a search of
    /// the whole text finds: every format glued into texts of many lines
    /// with prose, code and every needle's first byte around them.
    #[test]
    fn secrets_found_line_by_line_are_those_of_the_whole_text() {
        for s in STARTS.iter().map(|s| s.as_bytes()).chain([&b"://"[..]]) {
            assert!(FIRST_BYTES.contains(&s[0]), "{s:?}");
        }
        for w in WORDS {
            assert!(FIRST_BYTES.contains(&w[0]) && FIRST_BYTES.contains(&w[0].to_ascii_uppercase()), "{w:?}");
        }
        let bits = [
            "key AKIAIOSFODNN7EXAMPLE ok",
            "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB",
            "-----BEGIN RSA PRIVATE KEY-----",
            "DB_PASS=hunter2hunter2hunter2",
            "  export API_KEY='abcdef0123456789abcd'",
            "Authorization: Bearer abcdef0123456789abcd",
            r#"{"Secret_Token": "Summer2024!xyz"}"#,
            "postgres://app:s3cretpass@db.internal/app",
            "https://hooks.slack.com/services/T0000/B0000/abcdefghijklmnopqrstuvwx",
            "fn token(x: &str) -> Key { pass(x) }",
            "the password policy requires twelve characters",
            "\n",
            " ",
            "é",
        ];
        let mut rng = crate::testing::Lcg::new(3);
        for _ in 0..400 {
            let text = rng.join(&bits, 40).replace("\\n", "\n");
            let whole: Vec<_> = SECRET.find_iter(&text).map(|m| m.start()..m.end()).collect();
            assert_eq!(secret_matches(&text), whole, "{text:?}");
        }
    }

    #[test]
    fn redactions_keep_a_variable_or_header_name() {
        for (text, kept) in [
            ("DB_PASS=hunter2hunter2hunter2", "DB_PASS="),
            ("Authorization: Bearer abcdef0123456789abcd", "Authorization: "),
            ("key AKIAIOSFODNN7EXAMPLE ok", "key "),
        ] {
            let r = redactions(text);
            assert_eq!(r.len(), 1, "{text}");
            assert_eq!(&text[..r[0].0.start], kept, "{text}");
        }
        assert!(redactions("nothing secret in here at all").is_empty());
    }

    #[test]
    fn each_format_is_named() {
        for (text, want) in [
            ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn", "a private key"),
            ("-----BEGIN RSA PRIVATE KEY-----", "a private key"),
            ("key AKIAIOSFODNN7EXAMPLE ok", "an AWS access key"),
            ("ghp_0123456789abcdefghijklmnopqrstuvwxyzAB", "a GitHub token"),
            ("github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "a GitHub token"),
            ("glpat-abcdefghijklmnopqrst", "a GitLab token"),
            ("xoxb-1234567890-abcdefghij", "a Slack token"),
            ("sk_live_0123456789abcdefABCD", "a Stripe live key"),
            ("AIzaSyA0123456789abcdefghijklmnopqrstuv", "a Google API key"),
            ("sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "an Anthropic API key"),
            ("sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD", "an OpenAI API key"),
            ("npm_abcdefghijklmnopqrstuvwxyz0123456789", "an npm token"),
            (
                "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
                "a JSON web token",
            ),
            ("DATABASE_PASSWORD=hunter2hunter2hunter2", "a secret-named variable's value"),
            ("export API_KEY='abcdef0123456789abcd'", "a secret-named variable's value"),
            ("DB_PASS=hunter2hunter2hunter2", "a secret-named variable's value"),
            ("X-Api-Key: abcdef0123456789abcd", "a secret-named variable's value"),
            (r#"{"password": "Summer2024!x"}"#, "a secret-named variable's value"),
            ("Authorization: Bearer abcdef0123456789abcd", "an HTTP authorization header"),
            ("https://hooks.slack.com/services/T0000/B0000/abcdefghijklmnopqrstuvwx", "a Slack webhook"),
            ("postgres://app:s3cretpass@db.internal/app", "a password in a link"),
            (
                "DefaultEndpointsProtocol=https;AccountName=x;AccountKey=abcdefghijklmnopqrstuvwxyz012345==",
                "an Azure storage key",
            ),
            ("SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123456789", "a SendGrid key"),
            ("hf_abcdefghijklmnopqrstuvwxyz0123456789", "a Hugging Face token"),
        ] {
            assert_eq!(kinds(text), vec![want], "{text}");
        }
        for text in [
            "the password policy requires twelve characters",
            "AKIA is a prefix",
            "sk-learn is a library",
            "token = 1234",
            "see https://github.com/org/repo",
            "mail me at https://x.test/a or a@b.test",
            r#"{"passenger": "Ada"}"#,
            "Authorization: none",
        ] {
            assert!(kinds(text).is_empty(), "{text}");
        }
    }
}
