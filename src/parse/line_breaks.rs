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
    // Every `\n` ends a line (alone or after a `\r`), and so does every lone `\r`. The `\n`s
    // get memchr's vectorised count and only the `\r`s are visited one by one: one file with
    // `\r\n` endings in a parse's input used to send every line through the slower walk.
    count_newlines(bytes) + lone_cr_positions(bytes).count()
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
            // Sized by a vectorised count first: growing by doubling copied the starts of a
            // large file several times over.
            starts.reserve_exact(count_newlines(bytes));
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

    /// [`LineIndex::line_of`], answered at once when `offset` lies on 1-based line `near` or
    /// the one after it: for a caller that walks the file mostly in order.
    pub fn line_of_near(&self, offset: usize, near: usize) -> usize {
        let starts_at = |line: usize| self.starts.get(line.wrapping_sub(1)).copied();
        let on = |line: usize| {
            starts_at(line).is_some_and(|start| start <= offset)
                && starts_at(line + 1).is_none_or(|next| offset < next)
        };
        if on(near) {
            near
        } else if on(near + 1) {
            near + 1
        } else {
            self.line_of(offset)
        }
    }

    /// Byte offset where 1-based `line` starts (clamped to the last line).
    pub fn start_of(&self, line: usize) -> usize {
        let index = line.saturating_sub(1).min(self.starts.len() - 1);
        self.starts[index]
    }
}

/// Bytes counted at a time when [`LineCursor::start_of`] travels: a vectorised count skips
/// whole blocks, and only the last block is stepped through break by break.
const CURSOR_BLOCK: usize = 256;
/// Lines [`LineCursor::start_of`] steps over one break at a time before it counts blocks.
const CURSOR_STEPS: usize = 8;

/// [`LineIndex`]'s two questions for a consumer that asks them mostly in order, as a scanner
/// going down a file does, without building the table: the cursor moves from its last answer
/// by counting the line breaks in between (memchr's vectorised count), so a file costs about
/// one count over the distance travelled instead of a push per line. Text with a lone `\r`
/// (which the scanners never see, see [`lone_crs_as_newlines`]) gets a [`LineIndex`] instead.
#[derive(Debug)]
pub struct LineCursor<'a> {
    bytes: &'a [u8],
    /// The last answer: a 1-based line, the offset where it starts, and an offset on it up to
    /// which it is known to hold no break. Without the third, each question about a later
    /// offset of one long line searched it from its start again: a 10 MB one-line file of
    /// C functions took minutes.
    at: std::cell::Cell<(usize, usize, usize)>,
    index: Option<LineIndex>,
    /// Bytes searched for breaks, for the tests that hold the cursor linear.
    searched: std::cell::Cell<usize>,
}

impl<'a> LineCursor<'a> {
    /// Lines break at `\n`, `\r\n` and a lone `\r`, as [`LineIndex`] breaks them.
    pub fn new(text: &'a str) -> LineCursor<'a> {
        let bytes = text.as_bytes();
        let index = lone_cr_positions(bytes)
            .next()
            .is_some()
            .then(|| LineIndex::new(text));
        LineCursor {
            bytes,
            at: std::cell::Cell::new((1, 0, 0)),
            index,
            searched: std::cell::Cell::new(0),
        }
    }

    /// The 1-based line holding byte `offset`, as [`LineIndex::line_of`].
    pub fn line_of(&self, offset: usize) -> usize {
        if let Some(index) = &self.index {
            return index.line_of(offset);
        }
        let (line, start, clean_to) = self.at.get();
        let offset = offset.min(self.bytes.len());
        let here = if offset < start {
            let back = count_newlines(&self.bytes[offset..start]);
            let line_start = memchr::memrchr(b'\n', &self.bytes[..offset]).map_or(0, |n| n + 1);
            self.searched(start - line_start);
            (line - back, line_start, offset)
        } else if offset <= clean_to {
            (line, start, clean_to)
        } else {
            // Only the bytes past those already known to hold no break are searched.
            let from = clean_to.max(start);
            let between = &self.bytes[from..offset];
            self.searched(between.len());
            match memchr::memrchr(b'\n', between) {
                Some(last) => (line + count_newlines(between), from + last + 1, offset),
                None => (line, start, offset),
            }
        };
        self.at.set(here);
        here.0
    }

    fn searched(&self, bytes: usize) {
        self.searched.set(self.searched.get().saturating_add(bytes));
    }

    /// Byte offset where 1-based `line` starts (clamped to the last line), as
    /// [`LineIndex::start_of`].
    pub fn start_of(&self, line: usize) -> usize {
        if let Some(index) = &self.index {
            return index.start_of(line);
        }
        let target = line.max(1);
        let (at, start, _) = self.at.get();
        let (line, start) = if target >= at {
            self.forward(at, start, target - at)
        } else {
            self.backward(at, start, at - target)
        };
        self.at.set((line, start, start));
        start
    }

    /// The line `lines` below line `at` (starting at `start`), or the last line.
    fn forward(&self, mut at: usize, mut start: usize, mut lines: usize) -> (usize, usize) {
        let len = self.bytes.len();
        // A few lines on: step from break to break.
        while lines > 0 && lines <= CURSOR_STEPS {
            match memchr::memchr(b'\n', &self.bytes[start..]) {
                Some(n) => (at, start, lines) = (at + 1, start + n + 1, lines - 1),
                None => return (at, start),
            }
        }
        // Farther: count whole blocks, large then small, then step through the last one.
        let mut pos = start;
        let mut block_len = CURSOR_BLOCK * 16;
        while lines > 0 {
            let block = &self.bytes[pos..(pos + block_len).min(len)];
            if block.is_empty() {
                // Past the last break: the last line.
                let last = memchr::memrchr(b'\n', self.bytes).map_or(0, |n| n + 1);
                return (at, last.max(start));
            }
            let breaks = count_newlines(block);
            if breaks < lines {
                (at, lines, pos) = (at + breaks, lines - breaks, pos + block.len());
            } else if block_len > CURSOR_BLOCK {
                block_len = CURSOR_BLOCK;
            } else {
                for newline in memchr::memchr_iter(b'\n', block).take(lines) {
                    (at, start) = (at + 1, pos + newline + 1);
                }
                lines = 0;
            }
        }
        (at, start)
    }

    /// The line `lines` above line `at` (which starts at `start`).
    fn backward(&self, at: usize, start: usize, lines: usize) -> (usize, usize) {
        let target = at.saturating_sub(lines);
        if target <= 1 {
            return (1, 0);
        }
        // Line `target` starts after break number `target - 1`; the break just before `start`
        // is number `at - 1`, so the one wanted is `lines` breaks further back.
        let mut wanted = lines;
        let mut pos = start.saturating_sub(1);
        if wanted <= CURSOR_STEPS {
            for newline in memchr::memrchr_iter(b'\n', &self.bytes[..pos]).take(wanted) {
                pos = newline;
                wanted -= 1;
            }
            return if wanted == 0 {
                (target, pos + 1)
            } else {
                (1, 0)
            };
        }
        let mut block_len = CURSOR_BLOCK * 16;
        while pos > 0 {
            let from = pos.saturating_sub(block_len);
            let block = &self.bytes[from..pos];
            let breaks = count_newlines(block);
            if breaks < wanted {
                (wanted, pos) = (wanted - breaks, from);
            } else if block_len > CURSOR_BLOCK {
                block_len = CURSOR_BLOCK;
            } else {
                let newline = memchr::memrchr_iter(b'\n', block).nth(wanted - 1);
                return (target, newline.map_or(0, |n| from + n + 1));
            }
        }
        (1, 0)
    }
}

fn count_newlines(bytes: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', bytes).count()
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

    #[test]
    fn line_of_near_answers_as_line_of_whatever_the_hint() {
        for sample in ["", "\n", "a", "ab\ncd\n\nef", "a\rb\r\nc\n", "x\n\n\ny\n"] {
            let index = LineIndex::new(sample);
            for offset in 0..=sample.len() + 2 {
                for near in 0..=count_lines(sample) + 3 {
                    let want = index.line_of(offset);
                    assert_eq!(
                        index.line_of_near(offset, near),
                        want,
                        "{sample:?} {offset} {near}"
                    );
                }
            }
        }
    }

    #[test]
    fn line_cursor_searches_a_long_line_once_going_down() {
        // The C scanner's case: one line of 20,000 functions, asked about each in turn.
        let text = "int a(){}".repeat(20_000) + "\nint b(){}\n";
        let cursor = LineCursor::new(&text);
        for offset in (0..text.len()).step_by(9) {
            cursor.line_of(offset);
        }
        assert_eq!(cursor.line_of(text.len() - 3), 2);
        // Each byte searched about once, where searching from the line's start each time
        // made it 10,000 times.
        assert!(
            cursor.searched.get() <= 2 * text.len(),
            "{} bytes searched in a text of {}",
            cursor.searched.get(),
            text.len()
        );
    }

    #[test]
    fn line_cursor_answers_as_the_index_does_in_any_order() {
        let mut text = String::new();
        for n in 0..700 {
            text.push_str(&"x".repeat(n % 37));
            text.push_str(if n % 5 == 0 { "\r\n" } else { "\n" });
            if n % 11 == 0 {
                text.push('\n');
            }
        }
        text.push_str("tail");
        for sample in [text.as_str(), "", "\n", "a", "a\n\nb\n", "a\rb\r\nc\n"] {
            let index = LineIndex::new(sample);
            let cursor = LineCursor::new(sample);
            let len = sample.len();
            // Down, up, far jumps, past the end.
            let offsets = (0..=len + 2)
                .chain((0..=len).rev())
                .chain([len / 2, 3, len, 0]);
            for offset in offsets {
                assert_eq!(cursor.line_of(offset), index.line_of(offset), "{offset}");
            }
            let lines = count_lines(sample) + 3;
            let order = (0..=lines)
                .chain((0..=lines).rev())
                .chain([lines / 2, 1, lines, 2]);
            for line in order {
                assert_eq!(cursor.start_of(line), index.start_of(line), "line {line}");
                let offset = index.start_of(line);
                assert_eq!(cursor.line_of(offset), index.line_of(offset), "{offset}");
            }
        }
    }
}
