//! Reading a file for outlining: binary detection, lossy UTF-8, and the read cap that keeps a
//! huge file from being loaded whole.

use crate::error::{Error, Result};
use crate::parse::MAX_BYTES;
use std::io::Read;
use std::path::Path;

/// How many leading bytes are checked for NUL to call a file binary (as git and ripgrep do).
const BINARY_PROBE: usize = 8 * 1024;

/// A file's contents as far as outlining needs them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Loaded {
    /// Text, decoded lossily; `file_bytes` is the size on disk, which exceeds `text.len()`
    /// when only the first [`MAX_BYTES`] were read.
    Text { text: String, file_bytes: usize },
    /// A NUL byte in the first 8 KB.
    Binary,
}

/// Reads `path`, at most [`MAX_BYTES`] plus one line's worth, so a multi-gigabyte file costs
/// no more than the part that will be outlined.
pub fn read(path: &Path) -> Result<Loaded> {
    let file = std::fs::File::open(path).map_err(|err| Error::io(path, err))?;
    let meta = file.metadata().map_err(|err| Error::io(path, err))?;
    if meta.is_dir() {
        return Err(Error::Usage(format!("{}: is a directory", path.display())));
    }
    let file_bytes = meta.len();
    let mut bytes = Vec::with_capacity(file_bytes.min(MAX_BYTES as u64 + 1) as usize);
    file.take(MAX_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| Error::io(path, err))?;
    Ok(decode(
        bytes,
        usize::try_from(file_bytes).unwrap_or(usize::MAX),
    ))
}

/// Decodes bytes already in memory (standard input, tests).
pub fn decode(bytes: Vec<u8>, file_bytes: usize) -> Loaded {
    let probe = &bytes[..bytes.len().min(BINARY_PROBE)];
    if memchr::memchr(0, probe).is_some() {
        return Loaded::Binary;
    }
    let file_bytes = file_bytes.max(bytes.len());
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => String::from_utf8_lossy(err.as_bytes()).into_owned(),
    };
    Loaded::Text { text, file_bytes }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_in_probe_means_binary() {
        assert_eq!(decode(b"abc\0def".to_vec(), 7), Loaded::Binary);
        let mut late = vec![b'a'; BINARY_PROBE];
        late.push(0);
        assert!(matches!(decode(late, 0), Loaded::Text { .. }));
    }

    #[test]
    fn invalid_utf8_is_decoded_lossily() {
        let Loaded::Text { text, file_bytes } = decode(b"a\xffb".to_vec(), 3) else {
            panic!("text expected");
        };
        assert_eq!(text, "a\u{FFFD}b");
        assert_eq!(file_bytes, 3);
    }
}
