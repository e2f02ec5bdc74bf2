//! Reading input with bounded work and memory. Special files (FIFOs, sockets, devices) are
//! refused before they are opened; a regular file is read up to the size it had when opened,
//! never more (a file that grows while read cannot keep a run going); standard input up to
//! the read cap. One streaming pass tells binary input from text (stopping there for binary),
//! decodes it (UTF-8, lossily; UTF-16 with a byte order mark), hashes every byte and counts
//! every line, but keeps only the first [`MAX_BYTES`] (+1) of text. Lines past that are read
//! by streaming the file again ([`read_window`]). [`resolve`] resolves paths for `--root`, and
//! [`read_in`] reads only files that lie inside it once opened.

use crate::error::{Error, Result};
use crate::lang::{self, Language};
use crate::parse::MAX_BYTES;
use std::fs::File;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

mod confine;
pub use confine::check_inside;
pub(crate) use confine::check_opened;
use confine::FileIdentity;
mod decode;
mod window;

pub use decode::Encoding;
use decode::LineCounter;
pub use window::{each_line_from, read_window, window_of_text, LineWindow};

/// How many leading bytes are checked for NUL to call a file binary (as git and ripgrep do).
const BINARY_PROBE: usize = 8 * 1024;
/// Decoded text kept in memory: the parse limit and one byte more, so the parser can tell a
/// file of exactly the limit from a larger one.
const KEEP_BYTES: usize = MAX_BYTES + 1;
/// Read size of the streaming passes.
const CHUNK: usize = 64 * 1024;

/// What the loader learned about the whole input while streaming it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Extent {
    /// Bytes read: a file's size on disk when it was opened, or what standard input gave
    /// before the read cap.
    pub bytes: usize,
    /// Lines in those bytes, counted as they streamed past (a last line without newline counts).
    pub lines: usize,
    /// The text in memory holds all of it. When false, the input is a file that can be read
    /// again for the rest (standard input is always complete: what was read is the input).
    pub complete: bool,
    /// Standard input went on past the read cap; the rest was not read.
    pub input_cut: bool,
    pub encoding: Encoding,
    /// The file the bytes came from (`None` for standard input, text made elsewhere, or where
    /// the system cannot tell): [`read_window`] and [`each_line_from`] read that file again,
    /// never another one its path names by then.
    pub(crate) file: Option<FileIdentity>,
}

impl Extent {
    /// The extent of `text` held whole in memory.
    pub fn of_text(text: &str) -> Extent {
        Extent {
            bytes: text.len(),
            lines: crate::parse::count_lines(text),
            complete: true,
            input_cut: false,
            encoding: Encoding::Utf8,
            file: None,
        }
    }
}

/// Input as far as outlining needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Loaded {
    /// Text, decoded (lossily where the bytes were not valid), at most [`MAX_BYTES`] + 1 bytes
    /// of it; `extent` describes the whole input.
    Text {
        text: String,
        extent: Extent,
        /// Content hash of every byte read, as JSON carries it and `--if-hash` checks it:
        /// `xxh3:` and 16 hex digits.
        hash: String,
    },
    /// A NUL byte in the first 8 KB (and no UTF-16 byte order mark): reading stopped there.
    Binary,
}

impl Loaded {
    /// Marks text as read from the file `identity` names.
    fn read_from(self, identity: Option<FileIdentity>) -> Loaded {
        match self {
            Loaded::Text {
                text,
                mut extent,
                hash,
            } => {
                extent.file = identity;
                Loaded::Text { text, extent, hash }
            }
            Loaded::Binary => Loaded::Binary,
        }
    }
}

/// Reads the file at `path`, after refusing anything that is not a regular file.
pub fn read(path: &Path) -> Result<Loaded> {
    read_in(path, None)
}

/// [`read`], and with a `root`, only a file that lies inside it once opened: the check is
/// made on the open file, not on its path, so a link swapped in after the path was checked
/// cannot lead the read outside. What `--root` confines.
pub fn read_in(path: &Path, root: Option<&Path>) -> Result<Loaded> {
    let (file, meta) = open_regular(path, root)?;
    read_opened(file, &meta, path)
}

/// [`read_in`] for a file a directory walk listed as a regular file: the listing already
/// said what a `stat` before opening would, so the file is opened at once (the type is still
/// checked on the open file, as [`open_regular`] does after its own open). A path `stat`ed
/// twice cost a walk more than opening it did.
pub(crate) fn read_listed(path: &Path, root: Option<&Path>) -> Result<Loaded> {
    let (file, meta) = open_checked(path, root)?;
    read_opened(file, &meta, path)
}

fn read_opened(file: File, meta: &std::fs::Metadata, path: &Path) -> Result<Loaded> {
    let (size, identity) = (meta.len(), FileIdentity::from_metadata(meta));
    Ok(stream(file.take(size), path, size as usize)?.read_from(identity))
}

/// Reads a file for a search that first asks `worth_reading` about its raw bytes: a file
/// within the read cap is read in one go and decoded only when they pass (most files of a
/// tree hold no hit, and are then neither hashed nor decoded); `Ok(None)` for one that does
/// not. A larger file, or one in UTF-16 (whose bytes a text pattern cannot see), is read in
/// full as [`read`] does. With a `root`, only a file inside it is read, as for [`read_in`].
/// Meant for the files a walk lists: it opens `path` before asking what it is, so a path
/// that may name a device belongs to [`read_in`].
pub fn read_if(
    path: &Path,
    root: Option<&Path>,
    worth_reading: impl Fn(&[u8]) -> bool,
) -> Result<Option<Loaded>> {
    let (file, meta) = open_checked(path, root)?;
    let (size, identity) = (meta.len(), FileIdentity::from_metadata(&meta));
    let loaded = read_opened_if(file, size, path, worth_reading)?;
    Ok(loaded.map(|loaded| loaded.read_from(identity)))
}

/// [`read_if`] on the `file` opened from `path`, `size` bytes long.
fn read_opened_if(
    file: File,
    size: u64,
    path: &Path,
    worth_reading: impl Fn(&[u8]) -> bool,
) -> Result<Option<Loaded>> {
    if size > MAX_BYTES as u64 {
        return stream(file.take(size), path, size as usize).map(Some);
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(size)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    let utf16 = bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]);
    if utf16 {
        return stream(&bytes[..], path, bytes.len()).map(Some);
    }
    if !worth_reading(&bytes) {
        return Ok(None);
    }
    // Not UTF-16, so UTF-8 or binary: the bytes read become the text without a copy.
    match Encoding::sniff(&bytes[..bytes.len().min(BINARY_PROBE)]) {
        Some(_) => stream_utf8(std::io::empty(), bytes, path).map(Some),
        None => Ok(Some(Loaded::Binary)),
    }
}

/// Reads standard input like a file, up to the read cap.
pub fn read_stdin() -> Result<Loaded> {
    let path = Path::new("<stdin>");
    let loaded = stream(std::io::stdin().lock().take(KEEP_BYTES as u64), path, 0)?;
    Ok(match loaded {
        Loaded::Text {
            text,
            mut extent,
            hash,
        } => {
            // What was read is the input: the line count and the hash describe the text kept.
            extent.input_cut = extent.bytes > MAX_BYTES || !extent.complete;
            extent.lines = crate::parse::count_lines(&text);
            extent.complete = true;
            Loaded::Text { text, extent, hash }
        }
        Loaded::Binary => Loaded::Binary,
    })
}

/// The language of the file at `path`: by its name, else, for a file whose name says nothing
/// (see [`lang::first_line_decides`]), by its first line, of which at most
/// [`lang::FIRST_LINE_BYTES`] are read. A file that cannot be opened has none here; reading
/// it for real says why.
pub fn detect_language(path: &Path) -> Option<Language> {
    if !lang::first_line_decides(path) {
        return lang::detect(path);
    }
    // Only the file the walk listed: a link swapped in since is not followed (the walk lists
    // no links as files), and a FIFO never blocks the open.
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        &mut options,
        libc::O_NONBLOCK | libc::O_NOFOLLOW,
    );
    let file = options.open(path).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut head = Vec::with_capacity(lang::FIRST_LINE_BYTES);
    file.take(lang::FIRST_LINE_BYTES as u64)
        .read_to_end(&mut head)
        .ok()?;
    lang::detect_by_first_line(&head)
}

/// Opens `path` for reading when it is a regular file (links followed), with its size then.
/// The type is checked before opening (opening a FIFO waits for a writer, a device may never
/// end) and again on the open file, which was opened without blocking in case the path was
/// replaced in between. With a `root`, the open file must lie inside it: checked on the file
/// itself, not on its path, since a link swapped in after a path was checked would lead the
/// read elsewhere ([`confine::check_opened`]).
/// The metadata of what `path` leads to (links followed), read from the opened file itself, and
/// with a `root` only when that file lies inside it. Stating the path after checking it would
/// answer for whatever a link swapped in between leads to: a file's size or type outside the
/// root. Opened without reading (`O_PATH` on Linux, else without blocking), so a FIFO or a
/// device is only looked at. `Ok(None)` when the file lies outside the root.
pub(crate) fn stat_confined(
    path: &Path,
    root: Option<&Path>,
) -> std::io::Result<Option<std::fs::Metadata>> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(any(target_os = "linux", target_os = "android"))]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_PATH);
    #[cfg(all(unix, not(any(target_os = "linux", target_os = "android"))))]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(path)?;
    if let Some(root) = root {
        if confine::check_opened(&file, path, root).is_err() {
            return Ok(None);
        }
    }
    file.metadata().map(Some)
}

/// Opens `path` if it is a regular file (inside `root` when given); with the open file, what
/// `stat` says of it (its length, its identity).
pub(crate) fn open_regular(path: &Path, root: Option<&Path>) -> Result<(File, std::fs::Metadata)> {
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    refuse_unless_regular(path, meta.file_type())?;
    open_checked(path, root)
}

/// Opens `path` without blocking and keeps it only if the open file is a regular file (inside
/// `root` when given), with what `stat` says of it.
fn open_checked(path: &Path, root: Option<&Path>) -> Result<(File, std::fs::Metadata)> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(path).map_err(|e| Error::io(path, e))?;
    if let Some(root) = root {
        confine::check_opened(&file, path, root)?;
    }
    let meta = file.metadata().map_err(|e| Error::io(path, e))?;
    refuse_unless_regular(path, meta.file_type())?;
    Ok((file, meta))
}

fn refuse_unless_regular(path: &Path, file_type: std::fs::FileType) -> Result<()> {
    if file_type.is_file() {
        return Ok(());
    }
    if file_type.is_dir() {
        return Err(Error::Usage(format!("{}: is a directory", path.display())));
    }
    Err(Error::NotRegular {
        path: path.to_path_buf(),
        kind: special_kind(file_type),
    })
}

#[cfg(unix)]
fn special_kind(file_type: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_fifo() {
        "a named pipe (FIFO)"
    } else if file_type.is_socket() {
        "a socket"
    } else if file_type.is_char_device() {
        "a character device"
    } else if file_type.is_block_device() {
        "a block device"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special_kind(_: std::fs::FileType) -> &'static str {
    "a special file"
}

/// `path` made absolute with every link and `..` resolved, for `--root` checks that must give
/// the same answer for an outside path whether or not it exists. Where the path does not exist (or
/// cannot be looked at) the rest is resolved by hand: links that exist are followed, `.` and
/// `..` are applied lexically. A chain of more than 40 links resolves to nothing (outside).
pub fn resolve(path: &Path) -> PathBuf {
    if let Ok(resolved) = path.canonicalize() {
        return resolved;
    }
    let absolute = match std::env::current_dir() {
        Ok(cwd) => cwd.join(path),
        Err(_) => path.to_path_buf(),
    };
    let mut pending: Vec<PathBuf> = absolute
        .components()
        .rev()
        .map(|c| PathBuf::from(c.as_os_str()))
        .collect();
    let mut resolved = PathBuf::new();
    let mut links = 0;
    while let Some(part) = pending.pop() {
        match part.components().next() {
            Some(Component::ParentDir) => {
                resolved.pop();
            }
            Some(Component::CurDir) | None => {}
            Some(_) => {
                resolved.push(&part);
                let Ok(target) = std::fs::read_link(&resolved) else {
                    continue;
                };
                links += 1;
                if links > 40 {
                    return PathBuf::new();
                }
                resolved.pop();
                pending.extend(
                    target
                        .components()
                        .rev()
                        .map(|c| PathBuf::from(c.as_os_str())),
                );
            }
        }
    }
    resolved
}

/// The one streaming pass: probe for binary, then decode, hash and count every byte while
/// keeping the first [`KEEP_BYTES`] of text. `expected` is how many bytes the reader should
/// give (a file's size; 0 when unknown), so the text buffer is allocated once.
fn stream(mut reader: impl Read, path: &Path, expected: usize) -> Result<Loaded> {
    // The probe is read straight into the text buffer: `read_to_end` fills spare capacity
    // without zeroing it first, and UTF-8 (nearly every file) is then kept as read, not copied.
    let mut kept = Vec::with_capacity(expected.min(KEEP_BYTES));
    read_up_to(&mut reader, &mut kept, BINARY_PROBE, path)?;
    let Some(encoding) = Encoding::sniff(&kept) else {
        return Ok(Loaded::Binary);
    };
    match encoding {
        Encoding::Utf8 => stream_utf8(reader, kept, path),
        Encoding::Utf16Le | Encoding::Utf16Be => stream_decoded(reader, kept, encoding, path),
    }
}

/// The rest of a UTF-8 stream whose first bytes are `kept`: read into `kept` up to the cap,
/// and past it only hashed and counted.
fn stream_utf8(mut reader: impl Read, mut kept: Vec<u8>, path: &Path) -> Result<Loaded> {
    let room = KEEP_BYTES - kept.len();
    read_up_to(&mut reader, &mut kept, room, path)?;
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    let mut lines = LineCounter::default();
    hasher.update(&kept);
    lines.feed(&kept);
    let mut bytes = kept.len();
    if kept.len() == KEEP_BYTES {
        bytes += for_each_chunk(&mut reader, Vec::new(), path, |chunk| {
            hasher.update(chunk);
            lines.feed(chunk);
        })?;
    }
    let extent = Extent {
        bytes,
        lines: lines.lines(),
        complete: bytes == kept.len(),
        input_cut: false,
        encoding: Encoding::Utf8,
        file: None,
    };
    Ok(Loaded::Text {
        text: utf8_lossy(kept),
        extent,
        hash: format_hash(hasher.digest()),
    })
}

/// The rest of a UTF-16 stream whose first bytes are `probe`, decoded chunk by chunk.
fn stream_decoded(
    mut reader: impl Read,
    probe: Vec<u8>,
    encoding: Encoding,
    path: &Path,
) -> Result<Loaded> {
    let mut decoder = encoding.decoder();
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    let mut sink = TextSink::default();
    let mut bytes = probe.len();
    hasher.update(&probe);
    sink.push(decoder.decode(&probe));
    bytes += for_each_chunk(&mut reader, probe, path, |chunk| {
        hasher.update(chunk);
        sink.push(decoder.decode(chunk));
    })?;
    sink.push(decoder.finish());
    let extent = Extent {
        bytes,
        lines: sink.lines.lines(),
        complete: sink.decoded == sink.kept.len(),
        input_cut: false,
        encoding,
        file: None,
    };
    Ok(Loaded::Text {
        text: utf8_lossy(sink.kept),
        extent,
        hash: format_hash(hasher.digest()),
    })
}

/// `bytes` as text, invalid sequences replaced (the valid case takes the buffer as it is).
fn utf8_lossy(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => String::from_utf8_lossy(err.as_bytes()).into_owned(),
    }
}

/// Appends up to `limit` more bytes from `reader` to `buffer` (fewer at the end of input).
fn read_up_to(
    reader: &mut impl Read,
    buffer: &mut Vec<u8>,
    limit: usize,
    path: &Path,
) -> Result<()> {
    reader
        .take(limit as u64)
        .read_to_end(buffer)
        .map(drop)
        .map_err(|err| Error::io(path, err))
}

/// Where decoded text goes: counted whole, kept up to [`KEEP_BYTES`].
#[derive(Default)]
struct TextSink {
    kept: Vec<u8>,
    decoded: usize,
    lines: LineCounter,
}

impl TextSink {
    fn push(&mut self, text: &[u8]) {
        self.decoded += text.len();
        self.lines.feed(text);
        let room = KEEP_BYTES.saturating_sub(self.kept.len()).min(text.len());
        self.kept.extend_from_slice(&text[..room]);
    }
}

/// Reads `reader` to its end [`CHUNK`] bytes at a time into `buffer` (its old contents are
/// overwritten), handing each chunk read to `take`; returns how many bytes that was.
fn for_each_chunk(
    reader: &mut impl Read,
    mut buffer: Vec<u8>,
    path: &Path,
    mut take: impl FnMut(&[u8]),
) -> Result<usize> {
    buffer.resize(CHUNK, 0);
    let mut total = 0;
    loop {
        let n = read_some(reader, &mut buffer, path)?;
        if n == 0 {
            return Ok(total);
        }
        total += n;
        take(&buffer[..n]);
    }
}

/// One `read`, retried when interrupted by a signal.
fn read_some(reader: &mut impl Read, buffer: &mut [u8], path: &Path) -> Result<usize> {
    loop {
        match reader.read(buffer) {
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
            result => return result.map_err(|err| Error::io(path, err)),
        }
    }
}

/// The content hash of `bytes` in one pass, as [`read`] computes it while streaming (tests).
#[cfg(test)]
pub(crate) fn content_hash(bytes: &[u8]) -> String {
    format_hash(xxhash_rust::xxh3::xxh3_64(bytes))
}

fn format_hash(value: u64) -> String {
    format!("xxh3:{value:016x}")
}

/// Loads bytes already in memory as if read from a file (tests, and input read elsewhere).
pub fn decode(bytes: &[u8]) -> Loaded {
    // Reading from a slice cannot fail.
    stream(bytes, Path::new("<memory>"), bytes.len()).unwrap_or(Loaded::Binary)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(loaded: Loaded) -> (String, Extent, String) {
        match loaded {
            Loaded::Text { text, extent, hash } => (text, extent, hash),
            Loaded::Binary => panic!("text expected"),
        }
    }

    #[test]
    fn nul_in_probe_means_binary() {
        assert_eq!(decode(b"abc\0def"), Loaded::Binary);
        let mut late = vec![b'a'; BINARY_PROBE];
        late.push(0);
        assert!(matches!(decode(&late), Loaded::Text { .. }));
    }

    #[test]
    fn binary_input_is_not_read_past_the_probe() {
        let mut endless = std::io::repeat(0);
        let mut counted = (&mut endless).take(u64::MAX);
        assert_eq!(
            stream(&mut counted, Path::new("zero"), 0).ok(),
            Some(Loaded::Binary)
        );
        assert_eq!(u64::MAX - counted.limit(), BINARY_PROBE as u64);
    }

    #[test]
    fn invalid_utf8_is_decoded_lossily_and_counted_raw() {
        let (text, extent, hash) = text_of(decode(b"a\xffb"));
        assert_eq!(text, "a\u{FFFD}b");
        assert_eq!((extent.bytes, extent.lines, extent.complete), (3, 1, true));
        assert_eq!(hash, content_hash(b"a\xffb"));
    }

    #[test]
    fn utf16_with_a_byte_order_mark_is_text() {
        let mut bytes = vec![0xFF, 0xFE];
        for unit in "# Título\n## Dos\n".encode_utf16() {
            bytes.extend_from_slice(&unit.to_le_bytes());
        }
        let (text, extent, hash) = text_of(decode(&bytes));
        assert_eq!(text, "# Título\n## Dos\n");
        assert_eq!(extent.encoding, Encoding::Utf16Le);
        assert_eq!((extent.bytes, extent.lines), (bytes.len(), 2));
        assert_eq!(hash, content_hash(&bytes));
    }

    #[test]
    fn streamed_hash_and_lines_cover_bytes_past_the_cap() {
        let mut big = "line\n".repeat(MAX_BYTES / 5 + 1000).into_bytes();
        big.extend_from_slice(b"last");
        let (text, extent, hash) = text_of(decode(&big));
        assert_eq!(text.len(), KEEP_BYTES);
        assert_eq!(extent.bytes, big.len());
        assert_eq!(extent.lines, MAX_BYTES / 5 + 1001);
        assert!(!extent.complete);
        assert_eq!(hash, content_hash(&big));
        assert!(hash.starts_with("xxh3:") && hash.len() == 21, "{hash}");
    }

    #[cfg(unix)]
    #[test]
    fn resolve_follows_links_and_dot_dots_past_what_exists() {
        let dir = tempfile::tempdir().expect("temp dir");
        let base = dir.path().canonicalize().expect("canonical");
        std::fs::create_dir(base.join("root")).expect("mkdir");
        std::os::unix::fs::symlink(base.join("gone/x"), base.join("root/out")).expect("link");
        std::os::unix::fs::symlink("../root", base.join("root/up")).expect("link");
        let cases = [
            ("root", "root"),
            ("root/missing/../../y", "y"),
            ("root/out", "gone/x"),
            ("root/out/../z", "gone/z"),
            ("root/up/up/./new", "root/new"),
        ];
        for (path, expected) in cases {
            assert_eq!(resolve(&base.join(path)), base.join(expected), "{path}");
        }
        std::os::unix::fs::symlink(base.join("root/loop"), base.join("root/loop")).expect("loop");
        assert_eq!(resolve(&base.join("root/loop/x")), PathBuf::new());
    }

    #[cfg(unix)]
    #[test]
    fn a_confined_stat_answers_for_the_opened_file_only_inside_the_root() {
        let dir = tempfile::tempdir().expect("temp dir");
        let base = dir.path().canonicalize().expect("canonical");
        let root = base.join("root");
        std::fs::create_dir(&root).expect("mkdir");
        std::fs::write(root.join("in.txt"), "12345").expect("write");
        std::fs::write(base.join("secret.txt"), "123456789").expect("write");
        std::os::unix::fs::symlink(base.join("secret.txt"), root.join("out")).expect("link");
        std::os::unix::fs::symlink(&base, root.join("up")).expect("link");
        std::os::unix::fs::symlink(base.join("gone"), root.join("dangling")).expect("link");
        std::os::unix::fs::symlink("in.txt", root.join("inside")).expect("link");
        let size =
            |name: &str| stat_confined(&root.join(name), Some(&root)).map(|m| m.map(|m| m.len()));
        assert_eq!(size("in.txt").ok(), Some(Some(5)));
        assert_eq!(size("inside").ok(), Some(Some(5)));
        // Outside: nothing about the file is told, neither its size nor its type.
        assert_eq!(size("out").ok(), Some(None));
        assert_eq!(size("up").ok(), Some(None));
        let dangling = size("dangling").expect_err("dangling");
        assert_eq!(dangling.kind(), std::io::ErrorKind::NotFound);
        // Without a root, the link is followed.
        let unconfined = stat_confined(&root.join("out"), None).expect("stat");
        assert_eq!(unconfined.map(|m| m.len()), Some(9));
    }

    #[cfg(unix)]
    #[test]
    fn special_files_are_refused_before_opening() {
        for (path, kind) in [
            ("/dev/null", "a character device"),
            ("/dev/zero", "a character device"),
        ] {
            let err = read(Path::new(path)).expect_err("refused");
            assert!(err.to_string().contains(kind), "{err}");
        }
        let dir = tempfile::tempdir().expect("temp dir");
        let socket = dir.path().join("s");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).expect("bind");
        let err = read(&socket).expect_err("refused");
        assert!(err.to_string().contains("a socket"), "{err}");
    }

    /// A name the walk listed as a file may be something else by the time it is read: opened
    /// without a `stat` first, it must still be refused on the open file, and a FIFO with no
    /// writer must not hold the read up.
    #[cfg(unix)]
    #[test]
    fn a_listed_file_swapped_for_a_fifo_or_a_folder_is_refused_without_waiting() {
        use rustix::fs::{FileType, Mode, CWD};
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("listed.py");
        rustix::fs::mknodat(CWD, &fifo, FileType::Fifo, Mode::RUSR | Mode::WUSR, 0)
            .expect("mkfifo");
        let err = read_listed(&fifo, None).expect_err("refused");
        assert!(err.to_string().contains("(FIFO)"), "{err}");
        let err = read_if(&fifo, None, |_| true).expect_err("refused");
        assert!(err.to_string().contains("(FIFO)"), "{err}");
        let folder = dir.path().join("folder.py");
        std::fs::create_dir(&folder).expect("mkdir");
        let err = read_listed(&folder, None).expect_err("refused");
        assert!(err.to_string().contains("is a directory"), "{err}");
        let file = dir.path().join("file.py");
        std::fs::write(&file, "x = 1\n").expect("write");
        assert!(matches!(read_listed(&file, None), Ok(Loaded::Text { .. })));
    }
}
