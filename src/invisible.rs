//! Invisible Unicode and terminal escapes: find them, decode what they spell,
//! strip them.
//!
//! Contract (used by document.rs, detect.rs and fence.rs):
//! - `find(text)` returns every hidden run in `text`, in order, not
//!   overlapping, each with a reason and, where the run spells something
//!   (tag characters, variation-selector bytes, zero-width binary, an OSC 8
//!   link target), the decoded text.
//! - `strip(text)` returns what a person sees: the runs removed. It is
//!   idempotent: `strip(strip(x)) == strip(x)`.

use std::ops::Range;

use crate::document::HiddenReason;

/// One hidden run in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// Byte range into the text (on char boundaries).
    pub range: Range<usize>,
    pub reason: HiddenReason,
    /// What the run spells, when it spells something.
    pub decoded: Option<String>,
    /// Legitimate formatting that `strip` removes but a scanner never reports.
    pub benign: bool,
}

/// Every hidden run in `text`, in order, not overlapping.
pub fn find(text: &str) -> Vec<Run> {
    let _ = text;
    Vec::new()
}

/// The text with every hidden run removed.
pub fn strip(text: &str) -> String {
    let runs = find(text);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for r in runs {
        out.push_str(&text[at..r.range.start]);
        at = r.range.end;
    }
    out.push_str(&text[at..]);
    out
}
