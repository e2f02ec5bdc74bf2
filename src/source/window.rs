//! Lines `first..=last` of an input, with bounded memory: from text in memory, or by streaming
//! a file again from its start when the lines lie past what the loader kept. The second read
//! is hashed and must match the first, so the lines belong to the file the line count and the
//! hash describe.

use super::{format_hash, open_regular, read_some, Extent, FileIdentity, CHUNK};
use crate::error::{Error, Result};
use crate::parse::MAX_BYTES;
use std::borrow::Cow;
use std::fs::File;
use std::io::Read;
use std::path::Path;

/// Some consecutive lines of an input, without their line endings (a line ends at `\n`,
/// `\r\n` or a lone `\r`, as for the parser).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineWindow<'t> {
    /// The number of the first line in `lines`.
    pub first: usize,
    pub lines: Vec<Cow<'t, str>>,
    /// A line longer than the read cap, kept only up to it.
    pub cut_line: Option<usize>,
}

/// Lines `first..=last` of `text`, which holds them whole.
pub fn window_of_text(text: &str, first: usize, last: usize, budget: usize) -> LineWindow<'_> {
    let mut window = LineWindow {
        first,
        ..LineWindow::default()
    };
    let mut taken = 0;
    for line in crate::parse::iter_lines(text).skip(first.saturating_sub(1)) {
        let number = window.first + window.lines.len();
        if number > last || !window.lines.is_empty() && taken + line.len() > budget {
            break;
        }
        taken += line.len();
        window.lines.push(Cow::Borrowed(line));
    }
    window
}

/// Lines `first..=last` of the file at `path`, read again from its start up to the size the
/// loader saw (`extent.bytes`); at most `budget` bytes of lines are kept after the first, and
/// the first up to the read cap. A file whose bytes no longer hash to `hash` is an error.
pub fn read_window(
    path: &Path,
    extent: &Extent,
    hash: &str,
    first: usize,
    last: usize,
    budget: usize,
) -> Result<LineWindow<'static>> {
    let file = open_again(path, extent)?;
    let mut reader = file.take(extent.bytes as u64);
    let mut decoder = extent.encoding.decoder();
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    let mut collector = Collector::new(first, last, budget);
    let mut chunk = vec![0u8; CHUNK];
    loop {
        let n = read_some(&mut reader, &mut chunk, path)?;
        if n == 0 {
            break;
        }
        hasher.update(&chunk[..n]);
        collector.push(decoder.decode(&chunk[..n]));
    }
    collector.push(decoder.finish());
    if format_hash(hasher.digest()) != hash {
        return Err(Error::Changed(path.to_path_buf()));
    }
    Ok(collector.finish())
}

/// Hands every line of the file at `path` from line `first` on to `visit`: its number, the
/// byte offset of the piece within the line, and the piece (without its line ending). The file
/// is read again from its start up to the size the loader saw (`extent.bytes`), with memory
/// bounded by one line: a line longer than the read cap comes in pieces of at most the cap,
/// cut on character boundaries. What `--grep` searches past the text kept in memory. A file
/// whose bytes no longer hash to `hash` is an error, returned once every line was visited
/// (so a caller keeps what it gathered only on success).
pub fn each_line_from(
    path: &Path,
    extent: &Extent,
    hash: &str,
    first: usize,
    visit: impl FnMut(usize, usize, &str),
) -> Result<()> {
    let file = open_again(path, extent)?;
    let mut reader = file.take(extent.bytes as u64);
    let mut decoder = extent.encoding.decoder();
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    let mut splitter = Splitter::new(first, MAX_BYTES, visit);
    let mut chunk = vec![0u8; CHUNK];
    loop {
        let n = read_some(&mut reader, &mut chunk, path)?;
        if n == 0 {
            break;
        }
        hasher.update(&chunk[..n]);
        splitter.push(decoder.decode(&chunk[..n]));
    }
    splitter.push(decoder.finish());
    splitter.finish();
    if format_hash(hasher.digest()) != hash {
        return Err(Error::Changed(path.to_path_buf()));
    }
    Ok(())
}

/// The file at `path` opened again for lines past what the loader kept: refused unless it is
/// the very file the loader read (where the system can tell), so a path swapped since for a
/// link, under `--root` one out of the root, reads nothing else. The bytes must then hash to
/// what the first read saw too (the file may have been written in place).
fn open_again(path: &Path, extent: &Extent) -> Result<File> {
    let (file, meta) = open_regular(path, None)?;
    match extent.file {
        Some(read) if FileIdentity::from_metadata(&meta) != Some(read) => {
            Err(Error::Changed(path.to_path_buf()))
        }
        _ => Ok(file),
    }
}

/// Where a chunked line splitter stands: which line the next byte belongs to, and what the
/// last chunk left open. [`Splitter`] and [`Collector`] split the same way and differ only in
/// what they keep of each line.
struct LineBreaks {
    /// The first line wanted: whole chunks before it are only counted.
    first: usize,
    /// The line the next byte belongs to.
    line: usize,
    /// Bytes of the current line seen since its last break (a last line without one counts).
    pending: bool,
    /// The last byte seen was a `\r` that ended a line: a `\n` right after it belongs to it.
    after_cr: bool,
}

impl LineBreaks {
    fn new(first: usize) -> LineBreaks {
        LineBreaks {
            first: first.max(1),
            line: 1,
            pending: false,
            after_cr: false,
        }
    }

    /// Whether the current line is one of those wanted.
    fn wanted(&self) -> bool {
        self.line >= self.first
    }

    /// The next piece of a line in `bytes` and whether a line break ends it, taking it off
    /// `bytes`; `None` once the chunk is used up. A line ends at `\n` or `\r`; the `\n` of a
    /// `\r\n` is skipped, and a chunk wholly before the first line wanted is only counted.
    fn next_piece<'b>(&mut self, bytes: &mut &'b [u8]) -> Option<(&'b [u8], bool)> {
        if bytes.is_empty() {
            return None;
        }
        // A `\r` that ended the last chunk may be half of a `\r\n`.
        if std::mem::take(&mut self.after_cr) && bytes[0] == b'\n' {
            *bytes = &bytes[1..];
            if bytes.is_empty() {
                return None;
            }
        }
        if self.line < self.first {
            let breaks = super::decode::breaks_in_chunk(bytes, false);
            if self.line + breaks < self.first {
                self.line += breaks;
                let last = bytes.last().copied();
                self.pending = !matches!(last, Some(b'\n' | b'\r'));
                self.after_cr = last == Some(b'\r');
                *bytes = &[];
                return None;
            }
        }
        let (piece, rest, ends) = match memchr::memchr2(b'\n', b'\r', bytes) {
            Some(i) => {
                self.after_cr = bytes[i] == b'\r';
                (&bytes[..i], &bytes[i + 1..], true)
            }
            None => (&bytes[..], &[][..], false),
        };
        self.pending = !ends;
        *bytes = rest;
        Some((piece, ends))
    }
}

/// Splits decoded text fed in chunks into lines (ending at `\n`, `\r\n` or a lone `\r`) and
/// hands those from `first` on to `visit`, in pieces of at most `max_piece` bytes.
struct Splitter<F> {
    breaks: LineBreaks,
    max_piece: usize,
    current: Vec<u8>,
    /// Bytes of the current line handed on already.
    offset: usize,
    visit: F,
}

impl<F: FnMut(usize, usize, &str)> Splitter<F> {
    fn new(first: usize, max_piece: usize, visit: F) -> Splitter<F> {
        Splitter {
            breaks: LineBreaks::new(first),
            max_piece: max_piece.max(4),
            current: Vec::new(),
            offset: 0,
            visit,
        }
    }

    fn push(&mut self, mut bytes: &[u8]) {
        while let Some((piece, ends)) = self.breaks.next_piece(&mut bytes) {
            if self.breaks.wanted() {
                self.append(piece);
            }
            if ends {
                self.end_line();
            }
        }
    }

    /// Adds `piece` to the current line, handing on a full piece whenever one fills up.
    fn append(&mut self, mut piece: &[u8]) {
        while self.current.len() + piece.len() > self.max_piece {
            let room = self.max_piece - self.current.len();
            self.current.extend_from_slice(&piece[..room]);
            piece = &piece[room..];
            // Back to a character boundary: the bytes after it open the next piece.
            let cut = char_floor(&self.current);
            let carried = self.current.split_off(cut);
            self.emit();
            self.current = carried;
        }
        self.current.extend_from_slice(piece);
    }

    fn emit(&mut self) {
        let text = String::from_utf8_lossy(&self.current);
        (self.visit)(self.breaks.line, self.offset, &text);
        self.offset += self.current.len();
        self.current.clear();
    }

    fn end_line(&mut self) {
        if self.breaks.wanted() {
            self.emit();
        }
        self.offset = 0;
        self.breaks.line += 1;
    }

    fn finish(mut self) {
        if self.breaks.pending {
            self.end_line();
        }
    }
}

/// Where `bytes` (UTF-8, perhaps cut in a character) may be cut: before a character that
/// starts in its last three bytes and is not whole, else at its end. Never 0 for a non-empty
/// piece, so every piece makes progress.
fn char_floor(bytes: &[u8]) -> usize {
    let len = bytes.len();
    for back in 1..=3.min(len) {
        let byte = bytes[len - back];
        if byte & 0xC0 == 0x80 {
            continue; // a continuation byte: look further back for its start
        }
        let width = match byte {
            0xF0.. => 4,
            0xE0.. => 3,
            0xC0.. => 2,
            _ => 1,
        };
        return match width > back && len - back > 0 {
            true => len - back,
            false => len,
        };
    }
    len
}

/// Picks the window's lines out of decoded text fed in chunks.
struct Collector {
    breaks: LineBreaks,
    last: usize,
    budget: usize,
    current: Vec<u8>,
    taken: usize,
    full: bool,
    window: LineWindow<'static>,
}

impl Collector {
    fn new(first: usize, last: usize, budget: usize) -> Collector {
        Collector {
            breaks: LineBreaks::new(first),
            last,
            budget,
            current: Vec::new(),
            taken: 0,
            full: false,
            window: LineWindow {
                first: first.max(1),
                ..LineWindow::default()
            },
        }
    }

    fn push(&mut self, mut bytes: &[u8]) {
        while !self.full && self.breaks.line <= self.last {
            let Some((piece, ends)) = self.breaks.next_piece(&mut bytes) else {
                return;
            };
            if self.breaks.wanted() {
                self.append(piece);
            }
            if ends {
                self.end_line();
            }
        }
    }

    /// Adds to the current line what fits: the first line up to the read cap, later lines
    /// up to the budget (a later line that does not fit ends the window).
    fn append(&mut self, piece: &[u8]) {
        let room = match self.window.lines.is_empty() {
            true => MAX_BYTES,
            false => self.budget.saturating_sub(self.taken) + 1,
        };
        let fits = room.saturating_sub(self.current.len()).min(piece.len());
        self.current.extend_from_slice(&piece[..fits]);
        if fits < piece.len() && self.window.lines.is_empty() {
            self.window.cut_line = Some(self.breaks.line);
        }
    }

    fn end_line(&mut self) {
        if self.breaks.wanted() {
            let bytes = std::mem::take(&mut self.current);
            if !self.window.lines.is_empty() && self.taken + bytes.len() > self.budget {
                self.full = true;
            } else {
                self.taken += bytes.len();
                let text = String::from_utf8(bytes)
                    .unwrap_or_else(|err| String::from_utf8_lossy(err.as_bytes()).into_owned());
                self.window.lines.push(Cow::Owned(text));
            }
        }
        self.breaks.line += 1;
    }

    fn finish(mut self) -> LineWindow<'static> {
        if self.breaks.pending && !self.full && self.breaks.line <= self.last {
            self.end_line();
        }
        self.window
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(text: &str, first: usize, last: usize, budget: usize, chunk: usize) -> Vec<String> {
        let mut collector = Collector::new(first, last, budget);
        for piece in text.as_bytes().chunks(chunk) {
            collector.push(piece);
        }
        let window = collector.finish();
        assert_eq!(window.first, first);
        window.lines.into_iter().map(Cow::into_owned).collect()
    }

    #[test]
    fn streamed_windows_match_lines_of_text() {
        let text = "one\ntwo\r\n\nfour\rfive\r\r\nseven";
        let all = crate::parse::lines(text);
        assert_eq!(all.len(), 7);
        for chunk in 1..=text.len() {
            for first in 1..=8 {
                for last in first..=8 {
                    let expected: Vec<&str> = all
                        .iter()
                        .skip(first - 1)
                        .take(last + 1 - first)
                        .copied()
                        .collect();
                    assert_eq!(
                        collect(text, first, last, 1000, chunk),
                        expected,
                        "{first}..{last} by {chunk}"
                    );
                    let in_memory = window_of_text(text, first, last, 1000);
                    assert_eq!(in_memory.lines, expected);
                }
            }
        }
    }

    #[test]
    fn the_budget_stops_after_the_first_line() {
        let text = "aaaa\nbbbb\ncccc\n";
        assert_eq!(collect(text, 1, 3, 9, 3), ["aaaa", "bbbb"]);
        assert_eq!(collect(text, 1, 3, 2, 3), ["aaaa"]);
        assert_eq!(window_of_text(text, 1, 3, 9).lines, ["aaaa", "bbbb"]);
        assert_eq!(window_of_text(text, 1, 3, 2).lines, ["aaaa"]);
    }

    fn split(
        text: &str,
        first: usize,
        max_piece: usize,
        chunk: usize,
    ) -> Vec<(usize, usize, String)> {
        let mut seen = Vec::new();
        let mut splitter = Splitter::new(first, max_piece, |line, offset, piece: &str| {
            seen.push((line, offset, piece.to_string()))
        });
        for piece in text.as_bytes().chunks(chunk) {
            splitter.push(piece);
        }
        splitter.finish();
        seen
    }

    #[test]
    fn split_lines_are_the_lines_of_text() {
        let text = "one\ntwo\r\n\nfour\rfive\r\r\nseven";
        let all = crate::parse::lines(text);
        for chunk in 1..=text.len() {
            for first in 1..=8 {
                let expected: Vec<(usize, usize, String)> = all
                    .iter()
                    .enumerate()
                    .skip(first - 1)
                    .map(|(i, line)| (i + 1, 0, line.to_string()))
                    .collect();
                assert_eq!(
                    split(text, first, 100, chunk),
                    expected,
                    "{first} by {chunk}"
                );
            }
        }
        assert!(split("a\n", 2, 100, 1).is_empty());
    }

    #[test]
    fn long_lines_split_into_pieces_on_character_boundaries() {
        let text = "abcdéfghij\nxy";
        for chunk in 1..=text.len() {
            let pieces = split(text, 1, 4, chunk);
            let joined: String = pieces
                .iter()
                .filter(|(line, _, _)| *line == 1)
                .map(|(_, _, piece)| piece.as_str())
                .collect();
            assert_eq!(joined, "abcdéfghij", "by {chunk}");
            for (line, offset, piece) in &pieces {
                assert!(piece.len() <= 4 && !piece.contains('\u{FFFD}'));
                if *line == 1 {
                    assert_eq!(&text[*offset..*offset + piece.len()], piece);
                }
            }
            assert_eq!(pieces.last(), Some(&(2, 0, "xy".to_string())));
        }
    }

    #[test]
    fn a_final_line_without_newline_counts() {
        assert_eq!(collect("a\nb", 2, 9, 100, 1), ["b"]);
        assert!(collect("a\n", 2, 9, 100, 1).is_empty());
        assert!(collect("a\r", 2, 9, 100, 1).is_empty());
        assert_eq!(collect("a\rb", 2, 9, 100, 1), ["b"]);
    }

    /// The lines past the cap come from the file that was read, or from none: a path swapped
    /// since for a link to another file with the very same bytes (where only the hash was
    /// checked, the link could lead out of `--root`) is refused, and so is a copy renamed
    /// over it; the same file read again is not.
    #[cfg(unix)]
    #[test]
    fn a_second_read_reads_the_file_that_was_read_or_none() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (path, twin) = (dir.path().join("a.py"), dir.path().join("twin.py"));
        let text = "one\ntwo\nthree\n";
        std::fs::write(&path, text).expect("write");
        std::fs::write(&twin, text).expect("write");
        let window = |path: &Path| {
            let super::super::Loaded::Text { extent, hash, .. } =
                super::super::read(path).expect("read")
            else {
                panic!("not text");
            };
            (extent, hash)
        };
        let (extent, hash) = window(&path);
        // Kept linked, so that its inode is not given to the files made below.
        std::fs::hard_link(&path, dir.path().join("kept.py")).expect("link");
        let lines = read_window(&path, &extent, &hash, 2, 3, 100).expect("the same file");
        assert_eq!(lines.lines, ["two", "three"]);
        let link = dir.path().join("link.py");
        std::os::unix::fs::symlink(&twin, &link).expect("symlink");
        std::fs::rename(&link, &path).expect("swap in a link");
        let refused = read_window(&path, &extent, &hash, 2, 3, 100);
        assert!(matches!(refused, Err(Error::Changed(_))), "{refused:?}");
        let refused = each_line_from(&path, &extent, &hash, 1, |_, _, _| {});
        assert!(matches!(refused, Err(Error::Changed(_))), "{refused:?}");
        std::fs::copy(&twin, &link).expect("copy");
        std::fs::rename(&link, &path).expect("a copy renamed over it");
        let refused = read_window(&path, &extent, &hash, 2, 3, 100);
        assert!(matches!(refused, Err(Error::Changed(_))), "{refused:?}");
        let (extent, hash) = window(&path);
        assert!(each_line_from(&path, &extent, &hash, 1, |_, _, _| {}).is_ok());
    }
}
