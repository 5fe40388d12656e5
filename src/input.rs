//! Where bytes come from, and the one way to read them: `Input` names a
//! path or stdin (`-` and no argument), `Input::open` streams it (`wrap`,
//! `check`), `Input::read` collects it whole under a size cap (everything
//! else). Also here: the size cap every front end applies, and replacing a
//! file so readers see the old one or the new one, never half of either.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::path::{Path, PathBuf};

/// The size cap on one input (10 MiB) unless `--max-bytes` or
/// `INERTBOX_MAX_BYTES` says otherwise: every front end (the commands,
/// `serve`, `mcp`, the hooks) refuses or, for a hook, leaves unread what is
/// past it.
pub const DEFAULT_MAX_BYTES: u64 = 10 << 20;

/// The variable that sets the cap for every front end.
pub const MAX_BYTES_ENV: &str = "INERTBOX_MAX_BYTES";

/// The label `wrap` gives a document read from stdin unless `--source`
/// names it (the reference's).
pub const STDIN_LABEL: &str = "-";
/// How everything else names stdin: reports, fences, the session.
pub const STDIN_NAME: &str = "stdin";
/// A NUL byte this far into an input makes it binary (git's rule): text,
/// HTML and mail hold none, executables and images hold one early.
const BINARY_SNIFF: usize = 8000;

/// Errors from reading input. Each names what could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("no input file and stdin is a terminal (pipe text in, or name a file; see --help)")]
    StdinIsTerminal,
    #[error("cannot read {path}: {source}")]
    Open { path: String, source: io::Error },
    #[error("cannot read {path}: it is a directory")]
    IsDirectory { path: String },
    #[error("cannot read {path}: {source}")]
    Read { path: String, source: io::Error },
    #[error("{path} is larger than the {cap}-byte limit (raise it with --max-bytes or INERTBOX_MAX_BYTES)")]
    TooLarge { path: String, cap: u64 },
    #[error("{path} is binary ({why}), not text, HTML or email: nothing was read (extract its text first)")]
    Binary { path: String, why: String },
    #[error("{path} is UTF-16 text: convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)")]
    Utf16 { path: String },
}

/// Where a document's bytes come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Stdin,
    Path(PathBuf),
}

impl Input {
    /// `None` and `-` mean stdin; anything else is a path.
    pub fn from_arg(arg: Option<&OsStr>) -> Input {
        match arg {
            None => Input::Stdin,
            Some(a) if a == "-" => Input::Stdin,
            Some(a) => Input::Path(PathBuf::from(a)),
        }
    }

    /// The default source label: the path as given (lossy for non-UTF-8
    /// paths, as a terminal would show it), or `-` for stdin.
    pub fn label(&self) -> String {
        match self {
            Input::Stdin => STDIN_LABEL.to_string(),
            Input::Path(p) => p.to_string_lossy().into_owned(),
        }
    }

    /// How reports name this input: the path as given (lossy), or `stdin`.
    pub fn name(&self) -> String {
        match self {
            Input::Stdin => STDIN_NAME.to_string(),
            Input::Path(p) => p.to_string_lossy().into_owned(),
        }
    }

    /// The source label a document read from this input carries unless
    /// `--source` names it (`fence`, `gate`, the session): the file's name
    /// without its folders (a local path would end up in a prompt or a
    /// shared file), or `stdin`.
    pub fn source_label(&self) -> String {
        match self {
            Input::Stdin => STDIN_NAME.to_string(),
            Input::Path(p) => p.file_name().unwrap_or(p.as_os_str()).to_string_lossy().into_owned(),
        }
    }

    /// Refuse what was read from this input when it is not text: a NUL byte
    /// early on (an executable, an image, an archive), or UTF-16. `scan`
    /// and `fence` read text, HTML and mail; they never report a binary as
    /// allowed, nor put its bytes into a prompt as U+FFFD runs.
    pub fn refuse_binary(&self, raw: &[u8]) -> Result<(), ReadError> {
        if raw.starts_with(b"\xFF\xFE") || raw.starts_with(b"\xFE\xFF") {
            return Err(ReadError::Utf16 { path: self.display_name() });
        }
        match memchr::memchr(0, &raw[..raw.len().min(BINARY_SNIFF)]) {
            Some(at) => Err(ReadError::Binary { path: self.display_name(), why: format!("a NUL byte at offset {at}") }),
            None => Ok(()),
        }
    }

    /// The note for stderr when this input held nothing at all: an empty
    /// result is not a clean one (a command before the pipe may have failed).
    pub fn empty_note(&self, what: &str) -> String {
        match self {
            Input::Stdin => format!(
                "inertbox: stdin was empty (0 bytes; closed, /dev/null, or a command before the pipe printed nothing): {what}"
            ),
            Input::Path(_) => format!("inertbox: {} is empty (0 bytes): {what}", self.display_name()),
        }
    }

    pub fn is_stdin(&self) -> bool {
        matches!(self, Input::Stdin)
    }

    /// Open the input for reading. Stdin refuses to wait on a terminal.
    pub fn open(&self) -> Result<Box<dyn Read + Send>, ReadError> {
        match self {
            Input::Stdin => {
                let stdin = io::stdin();
                if stdin.is_terminal() {
                    return Err(ReadError::StdinIsTerminal);
                }
                Ok(Box::new(stdin))
            }
            Input::Path(p) => Ok(Box::new(open_file(p)?)),
        }
    }

    /// The input as a file, when it names one (`None` for stdin): a copy
    /// from a `File` can be left to the kernel.
    pub(crate) fn open_path(&self) -> Option<Result<File, ReadError>> {
        match self {
            Input::Stdin => None,
            Input::Path(p) => Some(open_file(p)),
        }
    }

    /// The size of a file input, if it is a regular file (used to pick the
    /// streaming path and to notice a file that changed between passes).
    pub fn file_len(&self) -> Option<u64> {
        match self {
            Input::Stdin => None,
            Input::Path(p) => std::fs::metadata(p).ok().filter(|m| m.is_file()).map(|m| m.len()),
        }
    }

    pub(crate) fn read_error(&self, source: io::Error) -> ReadError {
        ReadError::Read { path: self.display_name(), source }
    }

    /// How errors name this input: the path quoted, or "stdin".
    pub fn display_name(&self) -> String {
        match self {
            Input::Stdin => "stdin".to_string(),
            Input::Path(p) => format!("{:?}", p.to_string_lossy()),
        }
    }
}

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display_name())
    }
}

fn open_file(p: &Path) -> Result<File, ReadError> {
    let name = || format!("{:?}", p.to_string_lossy());
    let file = File::open(p).map_err(|source| ReadError::Open { path: name(), source })?;
    match file.metadata() {
        Ok(m) if m.is_dir() => Err(ReadError::IsDirectory { path: name() }),
        _ => Ok(file),
    }
}

/// Read everything from `r`, refusing more than `cap` bytes when a cap is set.
pub fn read_capped(r: impl Read, cap: Option<u64>) -> io::Result<Result<Vec<u8>, u64>> {
    read_capped_sized(r, cap, None)
}

fn read_capped_sized(mut r: impl Read, cap: Option<u64>, size: Option<u64>) -> io::Result<Result<Vec<u8>, u64>> {
    let mut raw = Vec::with_capacity(size.map_or(0, |n| n as usize + 1));
    match cap {
        None => {
            r.read_to_end(&mut raw)?;
            Ok(Ok(raw))
        }
        Some(cap) => {
            // Read one byte past the cap so "exactly at the cap" is allowed.
            r.take(cap.saturating_add(1)).read_to_end(&mut raw)?;
            if raw.len() as u64 > cap { Ok(Err(cap)) } else { Ok(Ok(raw)) }
        }
    }
}

impl Input {
    /// Read the whole input, refusing more than `cap` bytes.
    pub fn read(&self, cap: Option<u64>) -> Result<Vec<u8>, ReadError> {
        let r = self.open()?;
        // A file's length, when known, sizes the buffer (one byte over, to
        // see the end): doubling as it reads would hold up to twice the input.
        let hint = self.file_len().filter(|&n| cap.is_none_or(|c| n <= c));
        match read_capped_sized(r, cap, hint).map_err(|e| self.read_error(e))? {
            Ok(raw) => Ok(raw),
            Err(cap) => Err(ReadError::TooLarge { path: self.display_name(), cap }),
        }
    }
}

/// Replace a file's contents: written to a temporary file in the same
/// directory, then renamed over the original, so readers see the old file
/// or the new one, never half of either. Permissions are kept.
pub fn replace_file(path: &Path, contents: &[u8]) -> io::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let perms = std::fs::metadata(path)?.permissions();
    // A new file, never one already there: in a directory others can write
    // to, a link planted under the name would have had our bytes written
    // through it. A name taken is passed over.
    let (tmp, mut f) = (0..100)
        .find_map(|n| {
            let tmp = dir.join(format!(".{name}.inertbox-{}-{n}.tmp", std::process::id()));
            match std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp) {
                Ok(f) => Some(Ok((tmp, f))),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => None,
                Err(e) => Some(Err(e)),
            }
        })
        .unwrap_or_else(|| Err(io::Error::new(io::ErrorKind::AlreadyExists, "no free name for a temporary file")))?;
    let result = (|| {
        io::Write::write_all(&mut f, contents)?;
        f.sync_all()?;
        std::fs::set_permissions(&tmp, perms)?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Turn an OS string (an argument) into text without panicking on bad bytes:
/// invalid UTF-8 becomes U+FFFD, as the reference's argv decoding does.
pub fn lossy(arg: &OsString) -> String {
    arg.to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn replace_file_never_writes_through_a_planted_link() {
        let dir = tempfile::tempdir().unwrap();
        let (target, victim) = (dir.path().join("pins.json"), dir.path().join("victim"));
        std::fs::write(&target, b"old").unwrap();
        std::fs::write(&victim, b"victim's").unwrap();
        let planted = dir.path().join(format!(".pins.json.inertbox-{}-0.tmp", std::process::id()));
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        replace_file(&target, b"new").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        assert_eq!(std::fs::read(&victim).unwrap(), b"victim's");
        assert!(std::fs::symlink_metadata(&planted).unwrap().file_type().is_symlink());
    }

    #[test]
    fn dash_and_none_mean_stdin() {
        assert_eq!(Input::from_arg(None), Input::Stdin);
        assert_eq!(Input::from_arg(Some(OsStr::new("-"))), Input::Stdin);
        assert_eq!(Input::from_arg(Some(OsStr::new("a.txt"))), Input::Path("a.txt".into()));
        assert_eq!(Input::Stdin.label(), "-");
        assert_eq!(Input::Path("dir/a.txt".into()).label(), "dir/a.txt");
    }

    #[test]
    fn read_capped_allows_exactly_the_cap() {
        assert_eq!(read_capped(&b"abcd"[..], Some(4)).unwrap(), Ok(b"abcd".to_vec()));
        assert_eq!(read_capped(&b"abcde"[..], Some(4)).unwrap(), Err(4));
        assert_eq!(read_capped(&b"abcde"[..], None).unwrap(), Ok(b"abcde".to_vec()));
    }

    #[test]
    fn missing_file_is_an_open_error_naming_the_path() {
        let err = Input::Path("/nonexistent/x".into()).read(None).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/x"), "{err}");
    }
}
