//! The fixed regexes outside the rule table, in one place so the build
//! script can compile them ahead of time with the rules (the library's
//! `prebuilt` looks them up).
//! Each is used as `Matcher::by_pattern(patterns::NAME)`; `\b` is
//! written `(?-u:\b)` where a lazy DFA must run it (a Unicode word
//! boundary stops the lazy DFA at the first non-ASCII byte). Runs are
//! unbounded (`[^\]\n]*`, not `{0,200}`) where a line or a closing
//! character bounds them anyway: a bounded run of a Unicode class is that
//! many copies of it in the automaton, which cost more to build than the
//! whole search.

// src/detect/decode.rs
pub const DECODE_ASCII85_BLOCK: &str = r"<~[!-u\s]{10,}~>";
pub const DECODE_PERCENT_RUN: &str = r"(?:[A-Za-z0-9._~+-]*%[0-9A-Fa-f]{2}){4,}[A-Za-z0-9._~+-]*";
pub const DECODE_ESCAPE_RUN: &str = r"(?:\\u\{?[0-9a-fA-F]{4,6}\}?|\\U[0-9a-fA-F]{8}|\\x[0-9a-fA-F]{2}|\\x\{[0-9a-fA-F]{1,6}\}|\\[0-7]{3}|[ \w.,!?'-])*(?:\\u\{?[0-9a-fA-F]{4,6}\}?|\\U[0-9a-fA-F]{8}|\\x[0-9a-fA-F]{2}|\\x\{[0-9a-fA-F]{1,6}\})(?:\\u\{?[0-9a-fA-F]{4,6}\}?|\\U[0-9a-fA-F]{8}|\\x[0-9a-fA-F]{2}|\\x\{[0-9a-fA-F]{1,6}\}|[ \w.,!?'-]){4,}";
pub const DECODE_ENTITY_RUN: &str = r"(?:&#[xX]?[0-9a-fA-F]{1,6};[^&<]{0,3}){4,}";
// src/detect/links.rs
pub const LINKS_MD_IMAGE: &str =
    r#"!\[(?:\\.|[^\[\]\n\\]|\[(?:\\.|[^\[\]\n\\])*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)"#;
pub const LINKS_MD_LINK: &str = r#"(?:^|[^!])\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)"#;
pub const LINKS_MD_REF_IMAGE: &str = r"!\[((?:\\.|[^\[\]\n\\]|\[(?:\\.|[^\[\]\n\\])*\])*)\](?:\[([^\]\n]*)\])?";
pub const LINKS_MD_REF_DEF: &str = r"(?m)^\s{0,3}\[([^\]\n]+)\]:\s*<?(\S+?)>?(?:\s|$)";
pub const LINKS_HTML_IMG: &str = r#"(?i)<(?:img|source)(?-u:\b)[^>]*?(?-u:\b)src(?:set)?\s*=\s*["']?([^"'\s>,]+)"#;
pub const LINKS_URL_ANY: &str = r#"(?i)(?-u:\b)https?://[^\s<>"'`)\]]+"#;
pub const LINKS_TEMPLATE: &str = r"(?i)\{\{?\s*[a-z_$][a-z0-9_ .'$-]{0,60}\}\}?|\$\{[^}]{1,60}\}|\$\([^)]{1,80}\)|\[\[[^\]]{1,60}\]\]|<[a-z_ -]{2,40}>|(?-u:\b)(?:insert|your|user)_?[a-z]*_?(?:here|data|email|name|password|secret|key|history|info|summary|conversation)(?-u:\b)";
pub const LINKS_CAPS_PLACEHOLDER: &str = r"(?-u:\b)[A-Z]{2,}(?:_[A-Z0-9]{2,})+(?-u:\b)";
// src/entities.rs
pub const ENTITIES_EMAIL: &str = r"(?-u:\b)[a-zA-Z0-9][a-zA-Z0-9._%+-]{0,63}@(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,24}(?-u:\b)";
pub const ENTITIES_URL: &str =
    r#"(?i)(?-u:\b)(?:https?|ftp|wss?)://[^\s<>"'`\x00-\x1f\x7f]+|(?-u:\b)www\.[a-z0-9-]+(?:\.[a-z0-9-]+)+[^\s<>"'`]*"#;
pub const ENTITIES_DOMAIN: &str =
    r"(?-u:\b)(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+([a-zA-Z]{2,24})(?-u:\b)";
pub const ENTITIES_PHONE: &str = r"(?:\+[0-9]{1,3}[ .-]?)?(?:\([0-9]{1,4}\)[ .-]?)?[0-9]{2,4}(?:[ .-][0-9]{2,4}){1,4}";
// src/gate.rs
pub const GATE_IBAN_RE: &str = r"(?-u:\b)[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?(?-u:\b)";
pub const GATE_ACCOUNT_RE: &str = r"(?-u:\b)[0-9]{8,18}(?-u:\b)";
pub const GATE_PHONE_RE: &str = r"\+[0-9][0-9 ().-]{6,18}[0-9]|\(?[0-9]{3}\)?[ .-][0-9]{3}[ .-][0-9]{4}";
/// Credentials (`gate::secrets` names each kind by its prefix).
pub const GATE_SECRET: &str = concat!(
    r"-----BEGIN [A-Z ]{0,24}PRIVATE KEY(?: BLOCK)?-----",
    r"|(?-u:\b)(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}(?-u:\b)",
    r"|(?-u:\b)(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})",
    r"|(?-u:\b)glpat-[A-Za-z0-9_-]{20,}",
    r"|(?-u:\b)xox[abposr]-[A-Za-z0-9-]{10,}",
    r"|(?-u:\b)[sr]k_live_[A-Za-z0-9]{16,}",
    r"|(?-u:\b)AIza[0-9A-Za-z_-]{35}",
    r"|(?-u:\b)sk-ant-[A-Za-z0-9_-]{20,}",
    r"|(?-u:\b)sk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{32,}",
    r"|(?-u:\b)npm_[A-Za-z0-9]{36}",
    r"|(?-u:\b)eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}",
    r"|(?-u:\b)SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}",
    r"|(?-u:\b)hf_[A-Za-z0-9]{30,}",
    r"|(?-u:\b)pypi-[A-Za-z0-9_-]{50,}",
    r"|https://hooks\.slack\.com/services/[A-Za-z0-9/]{20,}",
    r"|AccountKey=[A-Za-z0-9+/=]{20,}",
    // A password in a link (`postgres://app:pw@db/…`).
    r"|[A-Za-z][A-Za-z0-9+.-]{1,20}://[^\s:/@]{1,64}:[^\s/@]{6,}@",
    // An HTTP credential header.
    r"|(?i:authorization|proxy-authorization)[ \t]*:[ \t]*(?i:bearer|basic|token|digest)[ \t]+[A-Za-z0-9+/_.~=-]{12,}",
    // An assignment at the start of a line, as in a `.env` file, a shell
    // script or an HTTP header (a query parameter named `token` is not one).
    r"|(?m:^)[ \t]*(?:export[ \t]+)?[A-Za-z0-9_-]*(?i:secret|token|pass(?:w(?:or)?d)?|api[_-]?key|private[_-]?key|access[_-]?key|credential)[A-Za-z0-9_-]*[ \t]*[=:][ \t]*[\x22']?[A-Za-z0-9+/_.~-]{12,}",
    // A quoted secret-named key and its value, as in JSON or YAML.
    r"|[\x22'][A-Za-z0-9_-]*(?i:secret|token|pass(?:w(?:or)?d)?|api[_-]?key|private[_-]?key|access[_-]?key|credential)[A-Za-z0-9_-]*[\x22'][ \t]*:[ \t]*[\x22'][^\x22'\s]{8,}[\x22']",
);
/// Every pattern above, for the build script (and the tests).
pub const ALL: &[&str] = &[
    DECODE_ASCII85_BLOCK,
    DECODE_PERCENT_RUN,
    DECODE_ESCAPE_RUN,
    DECODE_ENTITY_RUN,
    LINKS_MD_IMAGE,
    LINKS_MD_LINK,
    LINKS_MD_REF_IMAGE,
    LINKS_MD_REF_DEF,
    LINKS_HTML_IMG,
    LINKS_URL_ANY,
    LINKS_TEMPLATE,
    LINKS_CAPS_PLACEHOLDER,
    ENTITIES_EMAIL,
    ENTITIES_URL,
    ENTITIES_DOMAIN,
    ENTITIES_PHONE,
    GATE_IBAN_RE,
    GATE_ACCOUNT_RE,
    GATE_PHONE_RE,
    GATE_SECRET,
];

/// The form the build script compiles and `prebuilt` looks up: everything in the
/// blob is compiled with `.` matching a line break (as the rules want),
/// so these patterns, written for the `regex` crate's defaults, say
/// otherwise in a group around them.
pub fn blob_form(p: &str) -> String {
    format!("(?-s:{p})")
}
