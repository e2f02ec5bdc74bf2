//! Line breaks, one definition for every consumer: a line ends at `\n`, `\r\n` or a lone `\r`
//! (old Mac files). [`count_lines`], [`count_line_breaks`], [`LineIndex`], [`lines`],
//! [`iter_lines`] and [`line_starts`] agree on it (so do the streaming reader's line counter
//! and line windows in `crate::source`, built on [`count_line_breaks`]), and
//! [`lone_crs_as_newlines`] rewrites lone `\r`s for the scanners, byte for byte, so that
//! offsets, sizes and hashes stay those of the file.

use std::borrow::Cow;

/// `text` with every lone carriage return (old Mac line endings) turned into a line feed, so
/// that scanners, line counts and line numbers all see the same lines. One byte for one byte:
/// offsets, lengths and the hash of the file stay true. `\r\n` is left alone.
pub(crate) fn lone_crs_as_newlines(text: &str) -> Cow<'_, str> {
    match lone_crs_as_newlines_in_bytes(text.as_bytes()) {
        Cow::Borrowed(_) => Cow::Borrowed(text),
        // Swapping one ASCII byte for another keeps the text valid UTF-8.
        Cow::Owned(bytes) => Cow::Owned(
            String::from_utf8(bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        ),
    }
}

/// [`lone_crs_as_newlines`] for bytes (the diff against HEAD numbers lines the same way).
pub(crate) fn lone_crs_as_newlines_in_bytes(bytes: &[u8]) -> Cow<'_, [u8]> {
    if lone_cr_positions(bytes).next().is_none() {
        return Cow::Borrowed(bytes);
    }
    let mut unified = bytes.to_vec();
    for index in lone_cr_positions(bytes) {
        unified[index] = b'\n';
    }
    Cow::Owned(unified)
}

/// Offsets of the carriage returns not followed by a line feed.
fn lone_cr_positions(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr_iter(b'\r', bytes).filter(move |&i| bytes.get(i + 1) != Some(&b'\n'))
}

/// Offsets just past each line break (`\n`, `\r\n`, or a lone `\r`).
fn line_break_ends(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr2_iter(b'\n', b'\r', bytes)
        .filter(move |&i| bytes[i] == b'\n' || bytes.get(i + 1) != Some(&b'\n'))
        .map(|i| i + 1)
}

/// Number of lines: line breaks (`\n`, `\r\n`, lone `\r`), plus one for a last line without
/// one.
pub fn count_lines(text: &str) -> usize {
    count_line_breaks(text.as_bytes())
        + usize::from(!text.is_empty() && !text.ends_with(['\n', '\r']))
}

/// Number of line breaks (`\n`, `\r\n`, lone `\r`) in `bytes`: the lines that end inside
/// them. A `\r` at the very end counts (a `\n` that may follow it elsewhere belongs to it).
pub(crate) fn count_line_breaks(bytes: &[u8]) -> usize {
    if memchr::memchr(b'\r', bytes).is_none() {
        memchr::memchr_iter(b'\n', bytes).count()
    } else {
        line_break_ends(bytes).count()
    }
}

/// Byte offsets where lines start, one per line [`count_lines`] counts (none for an empty
/// text), for a consumer that slices lines itself, such as the viewer's preview.
pub(crate) fn line_starts(text: &str) -> Vec<usize> {
    // The index also starts a line after a final line break, where no line is counted.
    let mut starts = LineIndex::new(text).starts;
    if starts.last() == Some(&text.len()) {
        starts.pop();
    }
    starts
}

/// The lines of `text` without their line breaks, which are `\n`, `\r\n` or a lone `\r`: the
/// lines [`count_lines`] counts and [`LineIndex`] numbers (like [`str::lines`], which does not
/// know lone carriage returns).
pub fn lines(text: &str) -> Vec<&str> {
    iter_lines(text).collect()
}

/// [`lines`] one at a time, for a consumer that wants only some of them.
pub fn iter_lines(text: &str) -> impl Iterator<Item = &str> + '_ {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut ends = line_break_ends(bytes);
    std::iter::from_fn(move || {
        let Some(end) = ends.next() else {
            let last = (start < text.len()).then(|| text.get(start..).unwrap_or(""));
            start = text.len();
            return last;
        };
        let mut line_end = end - 1;
        if bytes[line_end] == b'\n' && line_end > start && bytes[line_end - 1] == b'\r' {
            line_end -= 1;
        }
        let line = text.get(start..line_end).unwrap_or("");
        start = end;
        Some(line)
    })
}

/// Maps byte offsets to 1-based line numbers.
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Lines break at `\n`, `\r\n` and a lone `\r`, as [`count_lines`] counts them.
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        if memchr::memchr(b'\r', bytes).is_none() {
            starts.extend(memchr::memchr_iter(b'\n', bytes).map(|i| i + 1));
        } else {
            starts.extend(line_break_ends(bytes));
        }
        LineIndex { starts }
    }

    /// The 1-based line holding byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|start| *start <= offset)
    }

    /// Byte offset where 1-based `line` starts (clamped to the last line).
    pub fn start_of(&self, line: usize) -> usize {
        let index = line.saturating_sub(1).min(self.starts.len() - 1);
        self.starts[index]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_lines_with_and_without_final_newline() {
        assert_eq!(count_lines(""), 0);
        assert_eq!(count_lines("a"), 1);
        assert_eq!(count_lines("a\n"), 1);
        assert_eq!(count_lines("a\nb"), 2);
        assert_eq!(count_lines("\n\n"), 2);
    }

    #[test]
    fn line_index_maps_offsets() {
        let index = LineIndex::new("ab\ncd\n\nef");
        assert_eq!(index.line_of(0), 1);
        assert_eq!(index.line_of(2), 1);
        assert_eq!(index.line_of(3), 2);
        assert_eq!(index.line_of(6), 3);
        assert_eq!(index.line_of(7), 4);
        assert_eq!(index.start_of(4), 7);
        assert_eq!(index.start_of(99), 7);
    }

    #[test]
    fn lone_carriage_returns_break_lines() {
        let text = "def f():\r    pass\rdef g():\r\n    pass\r";
        assert_eq!(count_lines(text), 4);
        assert_eq!(
            lines(text),
            ["def f():", "    pass", "def g():", "    pass"]
        );
        assert_eq!(
            lines("a\n\nb\r\n"),
            "a\n\nb\r\n".lines().collect::<Vec<_>>()
        );
        assert_eq!(lines("\r\r"), ["", ""]);
        for sample in [text, "", "a", "a\n", "\r\r\n\n", "x\ry"] {
            assert_eq!(line_starts(sample).len(), count_lines(sample), "{sample:?}");
            assert_eq!(lines(sample).len(), count_lines(sample), "{sample:?}");
            assert_eq!(
                iter_lines(sample).count(),
                count_lines(sample),
                "{sample:?}"
            );
        }
        assert_eq!(line_starts("a\rb\r\nc"), [0, 2, 5]);
        assert_eq!(count_line_breaks(b"a\r"), 1);
        assert_eq!(count_line_breaks(b"a\r\nb"), 1);
        assert_eq!(count_line_breaks(b"\r\r\n\n"), 3);
        let index = LineIndex::new(text);
        assert_eq!(index.line_of(9), 2);
        assert_eq!(index.start_of(3), 18);
        assert_eq!(index.line_of(20), 3, "CRLF stays one break");
        assert_eq!(lone_crs_as_newlines(text).len(), text.len());
        assert!(matches!(lone_crs_as_newlines("a\r\nb"), Cow::Borrowed(_)));
    }
}
