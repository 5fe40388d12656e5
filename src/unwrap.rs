//! The JSON a model was asked for, recovered from its reply: the first
//! balanced object or array, found through markdown fences and prose, with
//! strings and escapes respected (a brace inside a string, or a second
//! object later, does not confuse it).

/// Nesting deeper than this is not a value a model was asked for; the
/// scanner gives up on that candidate (and serde_json would refuse it).
const MAX_DEPTH: usize = 128;

/// Bytes the candidate scans may read in all, as a multiple of the reply's
/// length: replies full of unclosed brackets stay linear.
const SCAN_BUDGET_FACTOR: usize = 64;

/// The end (exclusive) of the balanced value starting at `start` (which
/// holds `{` or `[`), or None if it never closes properly. `budget` counts
/// down the bytes read.
fn balanced_end(b: &[u8], start: usize, budget: &mut usize) -> Option<usize> {
    let mut stack: Vec<u8> = Vec::new();
    let mut i = start;
    let mut in_string = false;
    while i < b.len() {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let c = b[i];
        if in_string {
            match c {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
        } else {
            match c {
                b'"' => in_string = true,
                b'{' | b'[' => {
                    if stack.len() >= MAX_DEPTH {
                        return None;
                    }
                    stack.push(if c == b'{' { b'}' } else { b']' });
                }
                b'}' | b']' => {
                    if stack.pop() != Some(c) {
                        return None;
                    }
                    if stack.is_empty() {
                        return Some(i + 1);
                    }
                }
                _ => {}
            }
        }
        i += 1;
    }
    None
}

/// The first balanced JSON object or array in `reply`, as written.
pub fn first_json(reply: &str) -> Option<&str> {
    let b = reply.as_bytes();
    let mut budget = b.len().saturating_mul(SCAN_BUDGET_FACTOR).max(1 << 20);
    let mut from = 0;
    while let Some(p) = memchr::memchr2(b'{', b'[', &b[from..]) {
        if budget == 0 {
            return None;
        }
        let start = from + p;
        if let Some(end) = balanced_end(b, start, &mut budget) {
            let candidate = &reply[start..end];
            if serde_json::from_str::<serde::de::IgnoredAny>(candidate).is_ok() {
                return Some(candidate);
            }
        }
        from = start + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn through_prose_and_fences() {
        let r = "Sure! Here is the data:\n```json\n{\"a\": \"x}\", \"b\": [1, {\"c\": \"\\\"{\"}]}\n```\nand also {\"second\": 1}";
        assert_eq!(first_json(r), Some("{\"a\": \"x}\", \"b\": [1, {\"c\": \"\\\"{\"}]}"));
    }

    #[test]
    fn skips_broken_candidates() {
        assert_eq!(first_json("[citation needed] then {\"ok\": true}"), Some("{\"ok\": true}"));
        assert_eq!(first_json("{not json} [1,2]"), Some("[1,2]"));
        assert_eq!(first_json("no json here"), None);
        assert_eq!(first_json("{\"unterminated\": 1"), None);
    }

    #[test]
    fn deep_nesting_is_bounded() {
        let deep = "[".repeat(100_000);
        assert_eq!(first_json(&deep), None);
    }
}
