//! The library's error type. Every failure a user can cause maps to one variant with a one-line
//! message; `main` turns them into exit codes.

use std::path::PathBuf;

/// Errors from reading and outlining inputs.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{0}: no such file or directory")]
    NotFound(PathBuf),
    /// A FIFO, socket or device: refused before opening (it could block or never end).
    #[error("{path}: {kind}, not a regular file; not read")]
    NotRegular { path: PathBuf, kind: &'static str },
    /// The file's bytes changed between two reads of one run.
    #[error("{0}: changed while being read; run again")]
    Changed(PathBuf),
    /// With `--root`, a path that leads (or a file that, once opened, lies) outside the root.
    /// The same words whether or not the outside path exists, so the answer tells nothing
    /// about what lies outside.
    #[error("{path}: outside --root {root}")]
    OutsideRoot { path: PathBuf, root: PathBuf },
    #[error("{0}")]
    Usage(String),
}

impl Error {
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        let path = path.into();
        if source.kind() == std::io::ErrorKind::NotFound {
            Error::NotFound(path)
        } else {
            Error::Io { path, source }
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
