//! The view the brace-language scanners (Rust, Go) walk: the source, its masked copy, line
//! numbers, and every bracket paired with its closer in one pass.

use crate::outline::Entry;
use crate::parse::{lex, LineIndex};
use std::cell::Cell;

/// A masked source ready for scanning. Positions are byte offsets valid in both texts.
pub(crate) struct Cursor<'a> {
    /// The original text: names and signatures are read from here.
    pub(crate) src: &'a str,
    /// The masked text (see [`crate::parse::lex::mask`]): structure is read from here.
    pub(crate) m: &'a [u8],
    pub(crate) lines: LineIndex,
    /// Every `{`, `(`, `[` with its closer (matched per bracket kind), sorted by position.
    pairs: Vec<(u32, u32)>,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(src: &'a str, masked: &'a str) -> Cursor<'a> {
        Cursor {
            src,
            m: masked.as_bytes(),
            lines: LineIndex::new(src),
            pairs: bracket_pairs(masked.as_bytes()),
        }
    }

    pub(crate) fn at(&self, pos: usize) -> u8 {
        self.m.get(pos).copied().unwrap_or(0)
    }

    pub(crate) fn text(&self, start: usize, end: usize) -> &'a str {
        let end = end.min(self.src.len());
        self.src.get(start.min(end)..end).unwrap_or("")
    }

    /// The original text of `start..end` with comments dropped (string contents kept), for
    /// names and signatures.
    pub(crate) fn code_text(&self, start: usize, end: usize) -> String {
        let end = end.min(self.src.len()).min(self.m.len());
        let start = start.min(end);
        let src = self.src.as_bytes();
        // Every comment starts with `/`: a head without one (most) is its own text, told by
        // one search instead of the walk below (6% of a Kotlin parse).
        if memchr::memchr(b'/', src.get(start..end).unwrap_or(&[])).is_none() {
            return self.text(start, end).to_owned();
        }
        let mut out = String::with_capacity(end - start);
        let mut keep = start;
        let mut i = start;
        // The string open at `i`, by its quote: `//` inside `"http://x"` starts no comment.
        // Masked text keeps only the delimiters of `"` and backtick strings, so they pair up.
        let mut quote: Option<u8> = None;
        while i < end {
            let byte = self.at(i);
            if let Some(open) = quote {
                if byte == open {
                    quote = None;
                }
                i += 1;
                continue;
            }
            if byte == b'"' || byte == b'`' {
                quote = Some(byte);
                i += 1;
                continue;
            }
            let comment = byte == b' '
                && src.get(i) == Some(&b'/')
                && matches!(src.get(i + 1), Some(b'/' | b'*'));
            if comment {
                out.push_str(self.text(keep, i));
                // A line break stays one, so signature shaping knows where a line broke.
                let mut gap = ' ';
                while i < end && self.at(i).is_ascii_whitespace() {
                    if self.at(i) == b'\n' {
                        gap = '\n';
                    }
                    i += 1;
                }
                out.push(gap);
                keep = i;
            } else {
                i += 1;
            }
        }
        out.push_str(self.text(keep, end));
        out
    }

    pub(crate) fn line(&self, pos: usize) -> usize {
        self.lines.line_of(pos)
    }

    pub(crate) fn skip_ws(&self, mut pos: usize, end: usize) -> usize {
        while pos < end && self.at(pos).is_ascii_whitespace() {
            pos += 1;
        }
        pos
    }

    pub(crate) fn close(&self, open: usize, end: usize) -> Option<usize> {
        let open = u32::try_from(open).ok()?;
        let k = self.pairs.binary_search_by_key(&open, |p| p.0).ok()?;
        let close = usize::try_from(self.pairs.get(k)?.1).ok()?;
        (close < end).then_some(close)
    }

    pub(crate) fn skip_group(&self, open: usize, end: usize) -> usize {
        self.close(open, end).map_or(end, |c| c + 1)
    }

    /// The identifier starting at `pos` (ending by `end`), as `(start, end)`. Rust's raw
    /// identifiers (`r#type`) are one identifier; Go, the other language on a cursor, never
    /// writes `#` in code.
    pub(crate) fn ident(&self, pos: usize, end: usize) -> Option<(usize, usize)> {
        if pos >= end || !is_ident_start(self.at(pos)) {
            return None;
        }
        let mut from = pos;
        if self.at(pos) == b'r' && self.at(pos + 1) == b'#' && is_ident_start(self.at(pos + 2)) {
            from = pos + 2;
        }
        // Every head, modifier and name is read here: a table look-up per byte over a slice
        // (no bounds check per byte) instead of three comparisons and an index.
        let rest = self.m.get(from..end.min(self.m.len())).unwrap_or(&[]);
        let len = rest
            .iter()
            .position(|&byte| !IDENT_BYTES[usize::from(byte)])
            .unwrap_or(rest.len());
        Some((pos, from + len))
    }

    /// [`Cursor::ident`] with its text: `(word, start, end)`.
    pub(crate) fn word(&self, pos: usize, end: usize) -> Option<(&'a str, usize, usize)> {
        let (s, e) = self.ident(pos, end)?;
        Some((self.text(s, e), s, e))
    }

    pub(crate) fn len(&self) -> usize {
        self.m.len()
    }
}

/// Pairs every opening bracket with its closer in one pass, so that looking a closer up costs
/// a binary search instead of a scan (unclosed brackets in junk input stay linear).
/// Each bracket kind is counted on its own (a `)` never closes a `{`); unclosed = `u32::MAX`.
/// Offsets are `u32` (input is capped far below 4 GB; longer input simply stops pairing).
fn bracket_pairs(masked: &[u8]) -> Vec<(u32, u32)> {
    let mut pairs = Vec::new();
    let mut stacks: [Vec<usize>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    // Most bytes are no bracket: they are passed eight at a time.
    lex::for_each_lane(masked, bracket_lanes, |i| {
        let Ok(at) = u32::try_from(i) else {
            return;
        };
        let (kind, open) = match masked.get(i) {
            Some(b'{') => (0, true),
            Some(b'(') => (1, true),
            Some(b'[') => (2, true),
            Some(b'}') => (0, false),
            Some(b')') => (1, false),
            Some(b']') => (2, false),
            _ => return,
        };
        let Some(stack) = stacks.get_mut(kind) else {
            return;
        };
        if open {
            stack.push(pairs.len());
            pairs.push((at, u32::MAX));
        } else if let Some(pair) = stack.pop().and_then(|k| pairs.get_mut(k)) {
            pair.1 = at;
        }
    });
    pairs
}

/// Marks the lanes of `word` that hold a bracket: `[` and `]` fold onto `{` and `}` with the
/// 0x20 bit set (no other byte does), `(` and `)` onto `(` with the low bit cleared.
fn bracket_lanes(word: u64) -> u64 {
    let folded = word | lex::splat(0x20);
    lex::zero_lanes(folded ^ lex::splat(b'{'))
        | lex::zero_lanes(folded ^ lex::splat(b'}'))
        | lex::zero_lanes((word & lex::splat(0xfe)) ^ lex::splat(b'('))
}

pub(crate) fn is_ident_start(byte: u8) -> bool {
    byte.is_ascii_alphabetic() || byte == b'_' || byte >= 0x80
}

pub(crate) fn is_ident_byte(byte: u8) -> bool {
    IDENT_BYTES[usize::from(byte)]
}

/// [`is_ident_byte`]'s answer for every byte: ASCII letters and digits, `_`, non-ASCII.
static IDENT_BYTES: [bool; 256] = lex::word_byte_table(b"");

/// How deep a scanner's recursive walk of nested bodies is, and whether it left a body unread
/// at its limit: real code never nests that far, and junk must not overflow the stack. The
/// entry whose body was left unread is marked [`Entry::cut_by_nesting`].
pub(crate) struct Nesting {
    depth: Cell<usize>,
    cut: Cell<bool>,
    max: usize,
}

impl Nesting {
    pub(crate) fn new(max: usize) -> Nesting {
        Nesting {
            depth: Cell::new(0),
            cut: Cell::new(false),
            max,
        }
    }

    /// Runs `walk` over `region` one level deeper; past the limit, lists nothing and notes
    /// the cut when `region` holds more than whitespace.
    pub(crate) fn descend(&self, region: &[u8], walk: impl FnOnce() -> Vec<Entry>) -> Vec<Entry> {
        let depth = self.depth.get();
        if depth >= self.max {
            if region.iter().any(|b| !b.is_ascii_whitespace()) {
                self.cut.set(true);
            }
            return Vec::new();
        }
        self.depth.set(depth + 1);
        let out = walk();
        self.depth.set(depth);
        out
    }

    /// `entry` with the children `walk` lists, marked when a body below was cut.
    pub(crate) fn with_children(&self, entry: Entry, walk: impl FnOnce() -> Vec<Entry>) -> Entry {
        let outer = self.cut.replace(false);
        let entry = entry.with_children(walk());
        entry.cut_by_nesting(self.cut.replace(outer))
    }
}
