//! The one Document every subcommand starts from, and the one way to read input.
//!
//! `Input` names where bytes come from (a path, or stdin for `-` and for no
//! argument). `Input::open` is the single reading function: streaming commands
//! (`wrap`, `check`) read from it in chunks, and `Document::read` collects it
//! whole for the commands that need the text at once.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::path::{Path, PathBuf};

/// The label a document read from stdin carries unless `--source` names it.
pub const STDIN_LABEL: &str = "-";

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
    #[error(
        "{path} is larger than the {cap}-byte limit (raise it with --max-bytes or INERTBOX_MAX_BYTES)"
    )]
    TooLarge { path: String, cap: u64 },
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

    /// The size of a file input, if it is a regular file (used to pick the
    /// streaming path and to notice a file that changed between passes).
    pub fn file_len(&self) -> Option<u64> {
        match self {
            Input::Stdin => None,
            Input::Path(p) => std::fs::metadata(p)
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.len()),
        }
    }

    pub(crate) fn read_error(&self, source: io::Error) -> ReadError {
        ReadError::Read {
            path: self.display_name(),
            source,
        }
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
    let file = File::open(p).map_err(|source| ReadError::Open {
        path: name(),
        source,
    })?;
    match file.metadata() {
        Ok(m) if m.is_dir() => Err(ReadError::IsDirectory { path: name() }),
        _ => Ok(file),
    }
}

/// Read everything from `r`, refusing more than `cap` bytes when a cap is set.
pub fn read_capped(mut r: impl Read, cap: Option<u64>) -> io::Result<Result<Vec<u8>, u64>> {
    let mut raw = Vec::new();
    match cap {
        None => {
            r.read_to_end(&mut raw)?;
            Ok(Ok(raw))
        }
        Some(cap) => {
            // Read one byte past the cap so "exactly at the cap" is allowed.
            r.take(cap.saturating_add(1)).read_to_end(&mut raw)?;
            if raw.len() as u64 > cap {
                Ok(Err(cap))
            } else {
                Ok(Ok(raw))
            }
        }
    }
}

/// A document: the bytes exactly as read, and where they came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// The original bytes, never altered: wrap and check hash exactly these.
    pub raw: Vec<u8>,
    /// The source label (`--source`, the path, or `-`).
    pub source: String,
}

impl Document {
    /// A document from bytes already in memory.
    pub fn from_bytes(raw: Vec<u8>, source: impl Into<String>) -> Document {
        Document {
            raw,
            source: source.into(),
        }
    }

    /// Read a whole input into a Document, refusing more than `cap` bytes.
    pub fn read(input: &Input, cap: Option<u64>) -> Result<Document, ReadError> {
        let r = input.open()?;
        match read_capped(r, cap).map_err(|e| input.read_error(e))? {
            Ok(raw) => Ok(Document {
                raw,
                source: input.label(),
            }),
            Err(cap) => Err(ReadError::TooLarge {
                path: input.display_name(),
                cap,
            }),
        }
    }
}

/// Turn an OS string (an argument) into text without panicking on bad bytes:
/// invalid UTF-8 becomes U+FFFD, as the reference's argv decoding does.
pub fn lossy(arg: &OsString) -> String {
    arg.to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dash_and_none_mean_stdin() {
        assert_eq!(Input::from_arg(None), Input::Stdin);
        assert_eq!(Input::from_arg(Some(OsStr::new("-"))), Input::Stdin);
        assert_eq!(
            Input::from_arg(Some(OsStr::new("a.txt"))),
            Input::Path("a.txt".into())
        );
        assert_eq!(Input::Stdin.label(), "-");
        assert_eq!(Input::Path("dir/a.txt".into()).label(), "dir/a.txt");
    }

    #[test]
    fn read_capped_allows_exactly_the_cap() {
        assert_eq!(
            read_capped(&b"abcd"[..], Some(4)).unwrap(),
            Ok(b"abcd".to_vec())
        );
        assert_eq!(read_capped(&b"abcde"[..], Some(4)).unwrap(), Err(4));
        assert_eq!(
            read_capped(&b"abcde"[..], None).unwrap(),
            Ok(b"abcde".to_vec())
        );
    }

    #[test]
    fn missing_file_is_an_open_error_naming_the_path() {
        let err = Document::read(&Input::Path("/nonexistent/x".into()), None).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/x"), "{err}");
    }
}
