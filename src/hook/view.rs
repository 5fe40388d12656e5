//! A cleaned view of a string and the way back to its original bytes: an
//! edit composed on the view (an `old_string` copied from it) is mapped
//! onto the original, keeping every removed span the edit did not touch.
//! Anything ambiguous is refused with the reason: an old string that is
//! not in the view, or is there more than once, or that touches a span
//! that was removed (or the placeholder standing for it).

use std::ops::Range;

use super::clean::Removal;

/// One stretch of the view: kept bytes (at `from` in the original), or a
/// placeholder for the original bytes `from..from + removed`.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Kept { view: Range<usize>, from: usize },
    Placeholder { view: Range<usize> },
}

/// The view of one original string and how it maps back.
#[derive(Debug, Clone)]
pub struct View {
    pub text: String,
    pieces: Vec<Piece>,
}

impl View {
    /// The view of `original` with `removed` (one string's removals, in
    /// order, not overlapping, as [`super::clean::clean_value`] gives them)
    /// replaced by their placeholders. None when a removal does not match
    /// the original (a record of another string).
    pub fn new(original: &str, removed: &[&Removal]) -> Option<View> {
        let mut text = String::with_capacity(original.len());
        let mut pieces = Vec::with_capacity(2 * removed.len() + 1);
        let mut last = 0;
        for r in removed {
            let end = r.at.checked_add(r.text.len())?;
            if r.at < last || original.get(r.at..end)? != r.text {
                return None;
            }
            let v = text.len();
            text.push_str(&original[last..r.at]);
            pieces.push(Piece::Kept { view: v..text.len(), from: last });
            let v = text.len();
            text.push_str(&r.placeholder);
            pieces.push(Piece::Placeholder { view: v..text.len() });
            last = end;
        }
        let v = text.len();
        text.push_str(&original[last..]);
        pieces.push(Piece::Kept { view: v..text.len(), from: last });
        Some(View { text, pieces })
    }

    /// The original offset of a kept byte of the view; None for a byte of a
    /// placeholder.
    pub fn source_of(&self, at: usize) -> Option<usize> {
        let i = self.pieces.partition_point(|p| self.view_of(p).end <= at);
        match self.pieces.get(i)? {
            Piece::Kept { view, from } if view.contains(&at) => Some(from + (at - view.start)),
            _ => None,
        }
    }

    fn view_of<'a>(&self, p: &'a Piece) -> &'a Range<usize> {
        match p {
            Piece::Kept { view, .. } | Piece::Placeholder { view } => view,
        }
    }

    /// Where in the original an edit of `old` (found once in the view) lands:
    /// the original byte range it replaces. The reason when it cannot be
    /// told.
    pub fn map_edit(&self, old: &str) -> Result<Range<usize>, String> {
        if old.is_empty() {
            return Err("the text to replace is empty".into());
        }
        let mut found = memchr::memmem::find_iter(self.text.as_bytes(), old.as_bytes());
        let Some(a) = found.next() else {
            return Err("the text to replace is not in what the model was shown".into());
        };
        if found.next().is_some() {
            return Err("the text to replace is in what the model was shown more than once".into());
        }
        let b = a + old.len();
        // A match inside one kept stretch maps byte for byte. One that
        // reaches into a placeholder, or across a removed span (an empty
        // placeholder strictly inside it), touches what the model never saw.
        for p in &self.pieces {
            match p {
                Piece::Kept { view, from } if view.start <= a && b <= view.end => {
                    return Ok(from + (a - view.start)..from + (b - view.start));
                }
                _ => {}
            }
        }
        Err("the text to replace spans text inertbox removed from what the model was shown; edit the file as it is (`inertbox hook reveal` shows what was removed)".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hook::clean::clean_value;
    use proptest::prelude::*;
    use serde_json::json;

    /// The original, its view and its removals, made by the real cleaner.
    fn view_of(original: &str) -> (View, Vec<Removal>) {
        let removed = clean_value(&json!(original), &[], usize::MAX).map(|c| c.removed).unwrap_or_default();
        let settled = removed.iter().any(|r| r.text.is_empty());
        assert!(!settled, "a second pass cannot be mapped: {original:?}");
        let view = View::new(original, &removed.iter().collect::<Vec<_>>()).expect("the removals fit");
        (view, removed)
    }

    #[test]
    fn an_edit_beside_a_removed_run_keeps_it() {
        let original = "alpha \u{200b}\u{200b}beta AKIAIOSFODNN7EXAMPLE gamma";
        let (view, _) = view_of(original);
        assert_eq!(view.text, "alpha beta [redacted: AWS access key] gamma");
        let r = view.map_edit("gamma").unwrap();
        let mut edited = original.to_string();
        edited.replace_range(r, "delta");
        assert_eq!(edited, "alpha \u{200b}\u{200b}beta AKIAIOSFODNN7EXAMPLE delta");
        assert!(view.map_edit("alpha beta").unwrap_err().contains("spans"));
        assert!(view.map_edit("[redacted").unwrap_err().contains("spans"));
        assert!(view.map_edit("a").unwrap_err().contains("more than once"));
        assert!(view.map_edit("zeta").unwrap_err().contains("not in"));
    }

    fn piece() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => "[a-z \n]{1,8}",
            1 => Just("\u{200b}\u{200b}".to_string()),
            1 => Just("\u{e0041}\u{e0042}".to_string()),
            1 => Just(" AKIAIOSFODNN7EXAMPLE ".to_string()),
        ]
    }

    proptest! {
        #[test]
        fn every_kept_byte_maps_to_its_source(pieces in proptest::collection::vec(piece(), 0..12)) {
            let original: String = pieces.concat();
            let (view, _) = view_of(&original);
            for (i, b) in view.text.bytes().enumerate() {
                if let Some(at) = view.source_of(i) {
                    prop_assert_eq!(original.as_bytes()[at], b);
                }
            }
        }

        #[test]
        fn an_edit_on_the_view_lands_as_by_hand(
            pieces in proptest::collection::vec(piece(), 1..12),
            start in 0usize..64, len in 1usize..12, new in "[A-Z]{0,5}",
        ) {
            let original: String = pieces.concat();
            let (view, _) = view_of(&original);
            let n = view.text.len();
            let (a, b) = (start.min(n), (start + len).min(n));
            prop_assume!(view.text.is_char_boundary(a) && view.text.is_char_boundary(b) && a < b);
            let old = &view.text[a..b];
            if let Ok(r) = view.map_edit(old) {
                let mut mapped = original.clone();
                mapped.replace_range(r, &new);
                // By hand: the old text is also once in the original (it is
                // kept bytes), so a plain replace there gives the same file.
                prop_assert_eq!(original.matches(old).count(), 1);
                prop_assert_eq!(mapped, original.replacen(old, &new, 1));
            }
        }
    }
}
