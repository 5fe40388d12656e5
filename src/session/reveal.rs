//! What a hook removed from a tool's output, kept by id beside the session
//! file (`ID.session.reveal/rID.json`), so `hook reveal ID` can give the
//! original back. Only the removed spans are kept, never the output.

use std::path::{Path, PathBuf};

/// An id `hook reveal` takes: `r` and 16 hex digits.
pub const ID_DIGITS: usize = 16;

/// The directory that keeps a session's removals.
pub fn dir_of(session: &Path) -> PathBuf {
    let mut p = session.as_os_str().to_owned();
    p.push(".reveal");
    PathBuf::from(p)
}

/// Whether `id` is one [`save`] could have made (no path can be named).
pub fn valid_id(id: &str) -> bool {
    id.len() == ID_DIGITS + 1
        && id.starts_with('r')
        && id[1..].bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Keep `record` under `id` beside the session file: a new file, mode
/// 0600, in a directory closed to everyone else.
pub fn save(session: &Path, id: &str, record: &serde_json::Value) -> std::io::Result<()> {
    if !valid_id(id) {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a reveal id"));
    }
    let dir = dir_of(session);
    super::create_private_dir(&dir)?;
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    let mut f = o.open(dir.join(format!("{id}.json")))?;
    let mut text = serde_json::to_string(record).map_err(std::io::Error::other)?;
    text.push('\n');
    std::io::Write::write_all(&mut f, text.as_bytes())
}

/// The record kept under `id`: looked for beside `session` when given,
/// else beside every session file in `sessions`.
pub fn load(id: &str, session: Option<&Path>, sessions: Option<&Path>) -> Result<serde_json::Value, String> {
    if !valid_id(id) {
        return Err(format!("{id:?} is not a reveal id (`r` and {ID_DIGITS} hex digits, as the hook's note gives it)"));
    }
    let name = format!("{id}.json");
    let mut places: Vec<PathBuf> = Vec::new();
    if let Some(s) = session {
        places.push(dir_of(s).join(&name));
    } else if let Some(dir) = sessions
        && let Ok(entries) = std::fs::read_dir(dir)
    {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().ends_with(".reveal") {
                places.push(e.path().join(&name));
            }
        }
    }
    for p in places {
        match std::fs::read(&p) {
            Ok(bytes) => {
                return serde_json::from_slice(&bytes)
                    .map_err(|e| format!("{}: not a reveal record ({e})", p.display()));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("cannot read {}: {e}", p.display())),
        }
    }
    Err(format!("no removed text is kept under {id} (another session's? pass its --session FILE)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_comes_back_by_id_and_odd_ids_name_no_path() {
        let dir = tempfile::tempdir().unwrap();
        let session = dir.path().join("s.session");
        let rec = serde_json::json!({"removed": [{"text": "x"}]});
        save(&session, "r0123456789abcdef", &rec).unwrap();
        assert_eq!(load("r0123456789abcdef", Some(&session), None).unwrap(), rec);
        assert_eq!(load("r0123456789abcdef", None, Some(dir.path())).unwrap(), rec);
        assert!(load("r0123456789abcdee", None, Some(dir.path())).is_err());
        for bad in ["../etc/passwd", "r0123", "r0123456789ABCDEF", "x0123456789abcdef", ""] {
            assert!(!valid_id(bad), "{bad}");
            assert!(load(bad, Some(&session), None).is_err());
        }
    }
}
