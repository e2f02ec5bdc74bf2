//! The library's error type. Every failure a user can cause maps to one variant with a one-line
//! message; `main` turns them into exit codes.

use crate::sanitize::echo_path;
use std::path::PathBuf;

/// Errors from reading and outlining inputs. Paths are echoed up to a short prefix
/// (`sanitize::echo`): an argument can be megabytes long.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{}: {source}", echo_path(path))]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: no such file or directory", echo_path(.0))]
    NotFound(PathBuf),
    /// A FIFO, socket or device: refused before opening (it could block or never end).
    #[error("{}: {kind}, not a regular file; not read", echo_path(path))]
    NotRegular { path: PathBuf, kind: &'static str },
    /// The file's bytes changed between two reads of one run.
    #[error("{}: changed while being read; run again", echo_path(.0))]
    Changed(PathBuf),
    /// With `--root`, a path that leads (or a file that, once opened, lies) outside the root.
    /// The same words whether or not the outside path exists, so the answer tells nothing
    /// about what lies outside.
    #[error("{}: outside --root {}", echo_path(path), root.display())]
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
