//! Reading input for outlining: binary detection, lossy UTF-8, the content hash, and the read
//! cap that keeps a huge file from being loaded whole.

use crate::error::{Error, Result};
use crate::parse::MAX_BYTES;
use std::io::Read;
use std::path::Path;

/// How many leading bytes are checked for NUL to call a file binary (as git and ripgrep do).
const BINARY_PROBE: usize = 8 * 1024;

/// Input as far as outlining needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Loaded {
    /// Text, decoded lossily; `file_bytes` is the whole input's size, which exceeds
    /// `text.len()` when only the first [`MAX_BYTES`] were kept.
    Text {
        text: String,
        file_bytes: usize,
        /// Content hash of every byte of the input (see [`content_hash`]).
        hash: String,
    },
    /// A NUL byte in the first 8 KB.
    Binary,
}

/// Reads the file at `path`.
pub fn read(path: &Path) -> Result<Loaded> {
    let file = std::fs::File::open(path).map_err(|err| Error::io(path, err))?;
    let meta = file.metadata().map_err(|err| Error::io(path, err))?;
    if meta.is_dir() {
        return Err(Error::Usage(format!("{}: is a directory", path.display())));
    }
    read_capped(file, path)
}

/// Reads standard input like a file.
pub fn read_stdin() -> Result<Loaded> {
    read_capped(std::io::stdin().lock(), Path::new("<stdin>"))
}

/// Keeps the first [`MAX_BYTES`] (+1, to tell "exactly the cap" from "more"); streams the rest
/// through the hash only, so the hash covers the whole input while memory stays bounded.
fn read_capped(mut reader: impl Read, path: &Path) -> Result<Loaded> {
    let mut bytes = Vec::new();
    (&mut reader)
        .take(MAX_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| Error::io(path, err))?;
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    hasher.update(&bytes);
    let mut total = bytes.len();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(Error::io(path, err)),
        };
        hasher.update(&chunk[..n]);
        total += n;
    }
    Ok(decode(bytes, total, format_hash(hasher.digest())))
}

/// The content hash JSON carries and `--if-hash` checks: `xxh3:` and 16 hex digits.
pub fn content_hash(bytes: &[u8]) -> String {
    format_hash(xxhash_rust::xxh3::xxh3_64(bytes))
}

fn format_hash(value: u64) -> String {
    format!("xxh3:{value:016x}")
}

/// Decodes bytes already in memory; `file_bytes` is the whole input's size.
pub fn decode(bytes: Vec<u8>, file_bytes: usize, hash: String) -> Loaded {
    let probe = &bytes[..bytes.len().min(BINARY_PROBE)];
    if memchr::memchr(0, probe).is_some() {
        return Loaded::Binary;
    }
    let file_bytes = file_bytes.max(bytes.len());
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => String::from_utf8_lossy(err.as_bytes()).into_owned(),
    };
    Loaded::Text {
        text,
        file_bytes,
        hash,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_in_probe_means_binary() {
        assert_eq!(
            decode(b"abc\0def".to_vec(), 7, String::new()),
            Loaded::Binary
        );
        let mut late = vec![b'a'; BINARY_PROBE];
        late.push(0);
        assert!(matches!(
            decode(late, 0, String::new()),
            Loaded::Text { .. }
        ));
    }

    #[test]
    fn invalid_utf8_is_decoded_lossily() {
        let Loaded::Text {
            text, file_bytes, ..
        } = decode(b"a\xffb".to_vec(), 3, String::new())
        else {
            panic!("text expected");
        };
        assert_eq!(text, "a\u{FFFD}b");
        assert_eq!(file_bytes, 3);
    }

    #[test]
    fn streamed_hash_covers_bytes_past_the_cap() {
        let big = vec![b'x'; MAX_BYTES + 5000];
        let Ok(Loaded::Text {
            text,
            file_bytes,
            hash,
        }) = read_capped(&big[..], Path::new("big"))
        else {
            panic!("text expected");
        };
        assert_eq!(text.len(), MAX_BYTES + 1);
        assert_eq!(file_bytes, big.len());
        assert_eq!(hash, content_hash(&big));
        assert!(hash.starts_with("xxh3:") && hash.len() == 21, "{hash}");
    }
}
