//! The policy (DESIGN.md's): trusted domains and addresses, tool
//! categories, decision overrides, and the one JSON shape it is read from.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Category, Decision, GateError};

/// The policy object (DESIGN.md): trusted domains and addresses, tool
/// categories the heuristic gets wrong, and decision overrides.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    #[serde(default)]
    pub trusted: Trusted,
    /// Tool name → category.
    #[serde(default)]
    pub tools: BTreeMap<String, Category>,
    /// Decision for a category once untrusted content was read, replacing
    /// the table's (clean and injected alike).
    #[serde(default, rename = "afterUntrusted")]
    pub after_untrusted: BTreeMap<Category, Decision>,
    /// Decision for a category always, even before anything was read (the
    /// stricter of this and the table wins).
    #[serde(default)]
    pub always: BTreeMap<Category, Decision>,
    /// After clean content, an action the user's request asks for may aim
    /// at an address, account or name that content lists as data: not
    /// named in a sentence that asks for something (`please also cc …`,
    /// `must be shared with …`, `DM … instead`), with no look-alike of it
    /// read. Off by default: a row added to a list the user pointed at is
    /// then the user's ([docs/gate.md](../../docs/gate.md#policy)).
    #[serde(default, rename = "listedTargets")]
    pub listed_targets: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trusted {
    #[serde(default)]
    pub domains: Vec<String>,
    #[serde(default)]
    pub addresses: Vec<String>,
}

impl Policy {
    /// Parse a policy from JSON; unknown keys and unknown categories are
    /// errors that name them.
    pub fn from_json(text: &str, path: &str) -> Result<Policy, GateError> {
        let err = |why: String| GateError::Policy { path: path.to_string(), why };
        let v: Value = serde_json::from_str(text).map_err(|e| err(e.to_string()))?;
        // serde would read a struct from an array too (`{"trusted":
        // [["evil.test"]]}` trusting evil.test): only the documented shape.
        policy_shape(&v).map_err(err)?;
        serde_json::from_value(v).map_err(|e| err(e.to_string()))
    }

    pub fn load(path: &Path) -> Result<Policy, GateError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| GateError::Policy { path: path.display().to_string(), why: e.to_string() })?;
        Policy::from_json(&text, &path.display().to_string())
    }

    pub(super) fn trusts_domain(&self, d: &str) -> bool {
        let d = d.to_lowercase();
        self.trusted.domains.iter().any(|t| {
            let t = t.to_lowercase();
            d == t || d.ends_with(&format!(".{t}"))
        })
    }

    pub(super) fn trusts_address(&self, a: &str) -> bool {
        let a = a.to_lowercase();
        self.trusted.addresses.iter().any(|t| t.to_lowercase() == a)
            || a.rsplit_once('@').is_some_and(|(_, d)| self.trusts_domain(d))
    }
}

/// The policy's documented shape: an object whose `trusted` is an object of
/// string lists, and whose `tools`, `afterUntrusted` and `always` are
/// objects of strings (their keys and values are checked by serde).
fn policy_shape(v: &Value) -> Result<(), String> {
    let object = |v: &Value, what: &str| match v {
        Value::Object(o) => Ok(o.clone()),
        other => Err(format!("{what} must be an object, not {}", json_type(other))),
    };
    for (k, x) in object(v, "the policy")? {
        match k.as_str() {
            "trusted" => {
                for (k, list) in object(&x, "\"trusted\"")? {
                    let ok = list.as_array().is_some_and(|a| a.iter().all(Value::is_string));
                    if !ok {
                        return Err(format!("\"trusted\".{k:?} must be a list of strings"));
                    }
                }
            }
            "listedTargets" if !x.is_boolean() => {
                return Err(format!("\"listedTargets\" must be true or false, not {}", json_type(&x)));
            }
            "tools" | "afterUntrusted" | "always" => {
                for (name, c) in object(&x, &format!("{k:?}"))? {
                    if !c.is_string() {
                        return Err(format!("{k:?}.{name:?} must be a string, not {}", json_type(&c)));
                    }
                }
            }
            // Unknown keys: serde names them.
            _ => {}
        }
    }
    Ok(())
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::category;

    #[test]
    fn a_policy_takes_only_its_documented_shape() {
        for bad in [
            r#"{"trusted": [["evil.test"]]}"#,
            r#"[[["evil.test"]]]"#,
            r#"{"trusted": {"domains": "evil.test"}}"#,
            r#"{"trusted": {"domains": [["evil.test"]]}}"#,
            r#"{"tools": [["send", "read"]]}"#,
            r#"{"always": {"send": ["allow"]}}"#,
            r#"{"listedTargets": "yes"}"#,
            r#"{"listedTargets": 1}"#,
        ] {
            let e = Policy::from_json(bad, "p").unwrap_err().to_string();
            assert!(e.starts_with("policy p:"), "{bad}: {e}");
        }
        let p = Policy::from_json(r#"{"trusted": {"domains": ["corp.example"]}}"#, "p").unwrap();
        assert_eq!(p.trusted.domains, vec!["corp.example"]);
        assert!(!p.listed_targets);
        assert!(Policy::from_json(r#"{"listedTargets": true}"#, "p").unwrap().listed_targets);
    }

    #[test]
    fn policy_names_tools_and_rejects_unknown_keys() {
        let p = Policy::from_json(r#"{"tools": {"qb_create_bill": "financial"}}"#, "p").unwrap();
        assert_eq!(category("qb_create_bill", &p), Category::Financial);
        let e = Policy::from_json(r#"{"trustd": {}}"#, "p").unwrap_err().to_string();
        assert!(e.contains("trustd"), "{e}");
        let e = Policy::from_json(r#"{"tools": {"x": "sendish"}}"#, "p").unwrap_err().to_string();
        assert!(e.contains("sendish"), "{e}");
    }
}
