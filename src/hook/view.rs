//! A cleaned view of a string and the way back to its original bytes: an
//! edit composed on the view (an `old_string` copied from it) is mapped
//! onto the original, keeping every removed span the edit did not touch.
//! Anything ambiguous is refused with the reason: an old string that is
//! not in the view, or is there more than once, or that touches a span
//! that was removed (or the placeholder standing for it).

use std::ops::Range;

use super::clean::Removal;

/// Lines added on each side of an edit, at most, to make it once in the
/// original (each step searches the whole file).
const MAX_WIDEN: usize = 32;

/// One stretch of the view: kept bytes (at `from` in the original), or a
/// placeholder for the original bytes `from..from + removed`.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Kept { view: Range<usize>, from: usize },
    Placeholder { view: Range<usize> },
}

impl Piece {
    fn view(&self) -> &Range<usize> {
        match self {
            Piece::Kept { view, .. } | Piece::Placeholder { view } => view,
        }
    }
}

/// Why an edit composed on a view cannot be mapped onto the original.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unmapped {
    /// The text to replace is not in the view: the edit was not composed
    /// on it (the model knew the file some other way).
    NotInView,
    /// The text to replace is in the view more than once.
    Twice,
    /// The text to replace, or the change, touches a removed span or the
    /// placeholder standing for it.
    Spans,
    /// The new text holds a placeholder: it would write the placeholder,
    /// not what it stands for.
    Placeholder,
    /// The text to replace is once in the view but more than once in the
    /// original (removed text holds it too), and no stretch of the view
    /// around it is once in the original.
    Hidden,
}

impl Unmapped {
    /// The reason, for the model and the user.
    pub fn reason(self) -> &'static str {
        match self {
            Unmapped::NotInView => "the text to replace is not in what the model was shown",
            Unmapped::Twice => "the text to replace is in what the model was shown more than once",
            Unmapped::Spans => {
                "the change touches text inertbox removed from what the model was shown (or the placeholder standing for it); edit around it (`inertbox hook reveal` shows what was removed)"
            }
            Unmapped::Placeholder => {
                "the new text holds a placeholder inertbox put in place of removed text; it would write the placeholder, not what was removed"
            }
            Unmapped::Hidden => {
                "the text to replace is also in text inertbox removed from what the model was shown; include more of the text around it"
            }
        }
    }
}

/// The view of one original string and how it maps back.
#[derive(Debug, Clone)]
pub struct View {
    pub text: String,
    pieces: Vec<Piece>,
    /// The placeholders and opening marks, for [`Unmapped::Placeholder`].
    placeholders: Vec<String>,
}

impl View {
    /// The view of `original` with `removed` (one string's removals, in
    /// order, not overlapping, as [`super::clean::clean_value`] gives them)
    /// replaced by their placeholders. None when a removal does not match
    /// the original (a record of another string), or was made by a second
    /// pass over the cleaned string (its offset is not in the original).
    pub fn new(original: &str, removed: &[&Removal]) -> Option<View> {
        let mut text = String::with_capacity(original.len());
        let mut pieces = Vec::with_capacity(2 * removed.len() + 1);
        let mut placeholders: Vec<String> = Vec::new();
        let mut last = 0;
        for r in removed {
            let end = r.at.checked_add(r.text.len())?;
            if r.late || r.at < last || original.get(r.at..end)? != r.text {
                return None;
            }
            let v = text.len();
            text.push_str(&original[last..r.at]);
            pieces.push(Piece::Kept { view: v..text.len(), from: last });
            let v = text.len();
            text.push_str(&r.placeholder);
            pieces.push(Piece::Placeholder { view: v..text.len() });
            // A closing mark (`"]`) is ordinary text on its own.
            if r.placeholder.starts_with('[') && !placeholders.contains(&r.placeholder) {
                placeholders.push(r.placeholder.clone());
            }
            last = end;
        }
        let v = text.len();
        text.push_str(&original[last..]);
        pieces.push(Piece::Kept { view: v..text.len(), from: last });
        Some(View { text, pieces, placeholders })
    }

    /// The original offset of a kept byte of the view; None for a byte of a
    /// placeholder.
    pub fn source_of(&self, at: usize) -> Option<usize> {
        let i = self.pieces.partition_point(|p| p.view().end <= at);
        match self.pieces.get(i)? {
            Piece::Kept { view, from } if view.contains(&at) => Some(from + (at - view.start)),
            _ => None,
        }
    }

    /// The original range of the view's `a..b` when it lies in one kept
    /// stretch (an empty one at a stretch's edge included). A range that
    /// reaches into a placeholder, or across a removed span (an empty
    /// placeholder strictly inside it), touches what the model never saw.
    fn kept(&self, a: usize, b: usize) -> Option<Range<usize>> {
        self.pieces.iter().find_map(|p| match p {
            Piece::Kept { view, from } if view.start <= a && b <= view.end => {
                Some(from + (a - view.start)..from + (b - view.start))
            }
            _ => None,
        })
    }

    /// Whether `new` holds one of the view's placeholders.
    pub fn holds_placeholder(&self, new: &str) -> bool {
        self.placeholders.iter().any(|p| new.contains(p.as_str()))
    }

    /// Where in the original an edit of `old` (found once in the view) lands:
    /// the original byte range it replaces.
    pub fn map_edit(&self, old: &str) -> Result<Range<usize>, Unmapped> {
        let mut found = memchr::memmem::find_iter(self.text.as_bytes(), old.as_bytes());
        let Some(a) = found.next().filter(|_| !old.is_empty()) else {
            return Err(Unmapped::NotInView);
        };
        if found.next().is_some() {
            return Err(Unmapped::Twice);
        }
        self.kept(a, a + old.len()).ok_or(Unmapped::Spans)
    }

    /// [`View::map_edit`], and the smallest stretch of whole lines of the
    /// view around it (never past a removed span) that is once in the
    /// original: an edit that replaces that stretch, with its edges kept,
    /// lands where the model saw it. (original range of `old`, the stretch)
    pub fn map_edit_once(&self, original: &str, old: &str) -> Result<(Range<usize>, Range<usize>), Unmapped> {
        let at = self.map_edit(old)?;
        let (lo, hi) = self
            .pieces
            .iter()
            .find_map(|p| match p {
                Piece::Kept { view, from } if *from <= at.start && at.end <= from + view.len() => {
                    Some((*from, from + view.len()))
                }
                _ => None,
            })
            .ok_or(Unmapped::Spans)?;
        let bytes = original.as_bytes();
        let once = |r: &Range<usize>| memchr::memmem::find_iter(bytes, &bytes[r.clone()]).take(2).count() == 1;
        let mut wide = at.clone();
        for _ in 0..MAX_WIDEN {
            if once(&wide) {
                return Ok((at, wide));
            }
            if wide.start == lo && wide.end == hi {
                break;
            }
            let before = wide.start.saturating_sub(1).max(lo);
            wide.start = memchr::memrchr(b'\n', &bytes[lo..before]).map_or(lo, |i| lo + i + 1);
            wide.end = memchr::memchr(b'\n', &bytes[wide.end..hi]).map_or(hi, |i| wide.end + i + 1);
        }
        Err(Unmapped::Hidden)
    }

    /// Where every copy of `old` in the view lands in the original (an edit
    /// that replaces all of them).
    pub fn map_all(&self, old: &str) -> Result<Vec<Range<usize>>, Unmapped> {
        if old.is_empty() {
            return Err(Unmapped::NotInView);
        }
        let found: Vec<usize> = memchr::memmem::find_iter(self.text.as_bytes(), old.as_bytes()).collect();
        if found.is_empty() {
            return Err(Unmapped::NotInView);
        }
        found.into_iter().map(|a| self.kept(a, a + old.len()).ok_or(Unmapped::Spans)).collect()
    }

    /// Where the change from the view to `content` (a whole new text
    /// composed on the view) lands: the original range it replaces and
    /// the text that replaces it. The text both share at the start and at
    /// the end stays as the original has it, removed spans included; the
    /// change must lie in one kept stretch.
    pub fn map_write(&self, content: &str) -> Result<(Range<usize>, String), Unmapped> {
        let (v, c) = (self.text.as_bytes(), content.as_bytes());
        let mut head = v.iter().zip(c).take_while(|(x, y)| x == y).count();
        while !(self.text.is_char_boundary(head) && content.is_char_boundary(head)) {
            head -= 1;
        }
        let room = v.len().min(c.len()) - head;
        let mut tail = v.iter().rev().zip(c.iter().rev()).take(room).take_while(|(x, y)| x == y).count();
        while !(self.text.is_char_boundary(v.len() - tail) && content.is_char_boundary(c.len() - tail)) {
            tail -= 1;
        }
        let changed = &content[head..c.len() - tail];
        if self.holds_placeholder(changed) {
            return Err(Unmapped::Placeholder);
        }
        let at = self.kept(head, v.len() - tail).ok_or(Unmapped::Spans)?;
        Ok((at, changed.to_string()))
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
        assert!(!removed.iter().any(|r| r.late), "a second pass cannot be mapped: {original:?}");
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
        assert_eq!(view.map_edit("alpha beta"), Err(Unmapped::Spans));
        assert_eq!(view.map_edit("[redacted"), Err(Unmapped::Spans));
        assert_eq!(view.map_edit("a"), Err(Unmapped::Twice));
        assert_eq!(view.map_edit("zeta"), Err(Unmapped::NotInView));
        assert_eq!(view.map_edit(""), Err(Unmapped::NotInView));
    }

    #[test]
    fn an_edit_once_in_the_view_but_twice_in_the_file_is_widened() {
        // The hidden passage holds "total" too.
        let original = "<p>total</p>\n<p style=\"display:none\">total</p>\n<p>sum</p>\n";
        let (view, _) = view_of(original);
        assert_eq!(view.text.matches("total").count(), 1, "{}", view.text);
        let (at, wide) = view.map_edit_once(original, "total").unwrap();
        assert_eq!(&original[at.clone()], "total");
        assert_eq!(&original[wide.clone()], "<p>total</p>\n");
        assert_eq!(original.matches(&original[wide]).count(), 1);
        // The same with a credential that holds the text.
        let key = "EXAMPLE\n AKIAIOSFODNN7EXAMPLE \n";
        let (view, _) = view_of(key);
        let (at, wide) = view.map_edit_once(key, "EXAMPLE").unwrap();
        assert_eq!((at, wide), (0..7, 0..8));
        // No stretch of the view around it is once in the file.
        let twice = "total\u{200b}total\u{200b}";
        let (view, _) = view_of(twice);
        assert_eq!(view.map_edit("totaltotal"), Err(Unmapped::Spans));
    }

    /// The original with a write composed on its view made.
    fn landed(view: &View, original: &str, content: &str) -> Result<String, Unmapped> {
        let (at, new) = view.map_write(content)?;
        Ok(format!("{}{new}{}", &original[..at.start], &original[at.end..]))
    }

    #[test]
    fn a_whole_new_text_keeps_the_spans_it_did_not_touch() {
        let original = "alpha \u{200b}\u{200b}beta AKIAIOSFODNN7EXAMPLE gamma\n";
        let (view, _) = view_of(original);
        let written = view.text.replace("gamma", "delta");
        assert_eq!(
            landed(&view, original, &written).unwrap(),
            "alpha \u{200b}\u{200b}beta AKIAIOSFODNN7EXAMPLE delta\n"
        );
        // The view written back unchanged is the original.
        assert_eq!(landed(&view, original, &view.text).unwrap(), original);
        // Rewriting across a removed span, or moving a placeholder, is refused.
        assert_eq!(landed(&view, original, "all new\n"), Err(Unmapped::Spans));
        let moved = format!("{}\n[redacted: AWS access key]", view.text);
        assert_eq!(landed(&view, original, &moved), Err(Unmapped::Placeholder));
        // Bytes shared at the edges never split a character.
        let (view, _) = view_of("é\u{200b}x");
        assert_eq!(landed(&view, "é\u{200b}x", "êx").unwrap(), "ê\u{200b}x");
        assert_eq!(landed(&view, "é\u{200b}x", "éy").unwrap(), "é\u{200b}y");
    }

    /// The original made of `pieces`, its view, and `start..start + len`
    /// clamped to the view; None when that range splits a character (or
    /// is empty and `empty` is false).
    fn view_range(pieces: &[String], start: usize, len: usize, empty: bool) -> Option<(String, View, usize, usize)> {
        let original: String = pieces.concat();
        let (view, _) = view_of(&original);
        let n = view.text.len();
        let (a, b) = (start.min(n), (start + len).min(n));
        let fits = view.text.is_char_boundary(a) && view.text.is_char_boundary(b) && (empty || a < b);
        fits.then_some((original, view, a, b))
    }

    fn piece() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => "[a-z \n]{1,8}",
            1 => Just("\u{200b}\u{200b}".to_string()),
            1 => Just("\u{e0041}\u{e0042}".to_string()),
            1 => Just(" AKIAIOSFODNN7EXAMPLE ".to_string()),
        ]
    }

    /// Pieces whose kept text is also inside a removed credential, so an
    /// edit of it is once in the view and twice in the original.
    fn piece_shared() -> impl Strategy<Value = String> {
        prop_oneof![
            3 => "[a-z \n]{1,8}",
            2 => Just("EXAMPLE\n".to_string()),
            1 => Just("\u{200b}\u{200b}".to_string()),
            2 => Just(" AKIAIOSFODNN7EXAMPLE ".to_string()),
        ]
    }

    proptest! {
        #[test]
        fn a_widened_edit_made_as_the_host_makes_it_lands_as_by_hand(
            pieces in proptest::collection::vec(piece_shared(), 1..12),
            start in 0usize..96, len in 1usize..10, new in "[a-z]{0,5}",
        ) {
            let picked = view_range(&pieces, start, len, false);
            prop_assume!(picked.is_some());
            let (original, view, a, b) = picked.expect("assumed");
            let old = &view.text[a..b];
            if let Ok((at, wide)) = view.map_edit_once(&original, old) {
                // Where the host would make it on the view: the first copy
                // (copies may overlap; the host counts them apart).
                let first = view.text.find(old).expect("found");
                prop_assert_eq!(view.source_of(first), Some(at.start));
                // The host replaces the one copy of the widened old text.
                let old_wide = &original[wide.clone()];
                let new_wide = format!("{}{new}{}", &original[wide.start..at.start], &original[at.end..wide.end]);
                prop_assert_eq!(original.matches(old_wide).count(), 1);
                let by_host = original.replacen(old_wide, &new_wide, 1);
                let mut by_hand = original.clone();
                by_hand.replace_range(at, &new);
                prop_assert_eq!(by_host, by_hand);
            }
        }

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
            let picked = view_range(&pieces, start, len, false);
            prop_assume!(picked.is_some());
            let (original, view, a, b) = picked.expect("assumed");
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

        #[test]
        fn a_write_on_the_view_lands_as_by_hand(
            pieces in proptest::collection::vec(piece(), 1..12),
            start in 0usize..64, len in 0usize..12, new in "[A-Z]{0,4}",
        ) {
            let picked = view_range(&pieces, start, len, true);
            prop_assume!(picked.is_some());
            let (original, view, a, b) = picked.expect("assumed");
            // `#` is in no view: the change is exactly a..b.
            let new = format!("#{new}#");
            let written = format!("{}{new}{}", &view.text[..a], &view.text[b..]);
            let by_hand = view.kept(a, b).map(|r| format!("{}{new}{}", &original[..r.start], &original[r.end..]));
            prop_assert_eq!(landed(&view, &original, &written), by_hand.ok_or(Unmapped::Spans));
        }
    }
}
