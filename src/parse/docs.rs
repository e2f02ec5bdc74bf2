//! Leading documentation: where each entry's doc comments, comments, attributes and decorators
//! start, so that a symbol read can include them (`Entry::doc_line`).
//!
//! One pass serves every language. After a family scanner has built the tree, each entry looks
//! upward from its first line over the lines written directly above it: comment lines (`///`,
//! `/** … */`, `#`, `--`, `<!-- -->`), decorators (`@name(…)`) and attributes (`#[…]`,
//! `[[…]]`), each possibly spanning several lines. A blank line, any other code, the previous
//! sibling's last line or the parent's first line ends the walk. Inner docs (`//!`, `/*!`)
//! document the enclosing item, and a `#!` first line is a shebang: neither belongs to the entry
//! below. What is code and what is a comment is read from the text masked with the family's
//! lexical rules ([`lex::mask`]), so `#` inside a string or `//` inside a URL never counts.

use crate::outline::Entry;
use crate::parse::lex::{self, LexSpec};
use crate::parse::{js_ts, LineCursor};
use std::cell::RefCell;

/// What leads an entry in one language (its row in [`crate::lang::LANGUAGES`] holds them).
#[derive(Debug, Clone, Copy)]
pub(crate) struct DocRules {
    /// How comments and literals are written, for masking the lines above an entry.
    pub(crate) spec: LexSpec,
    /// Masked with the JavaScript masker (templates, regex literals) instead of `spec`.
    pub(crate) javascript: bool,
    /// Comment openers that document the enclosing item instead (`//!`).
    pub(crate) inner_docs: &'static [&'static str],
    /// Code that attaches to the item below it: decorators and attributes (`@`, `#[`).
    pub(crate) markers: &'static [&'static str],
    /// Indentation is syntax: a comment indented deeper than the entry ends the block above
    /// it (Python, YAML), so it is not the entry's.
    pub(crate) indented_scopes: bool,
}

impl DocRules {
    /// Comments above an entry lead it; no decorators, no inner docs, no indentation rule.
    pub(crate) const fn comments(spec: LexSpec) -> DocRules {
        DocRules {
            spec,
            javascript: false,
            inner_docs: &[],
            markers: &[],
            indented_scopes: false,
        }
    }
}

/// `#` comments and quoted strings (YAML, TOML, Makefiles, Dockerfiles).
pub(crate) const HASH_COMMENTS: LexSpec = LexSpec {
    line_comments: &["#"],
    block_comment: None,
    quotes: b"\"'",
    ..LexSpec::C_LIKE
};

/// Sets `doc_line` on every entry of a tree built from `text` (ranges already normalised).
pub(crate) fn attach(text: &str, rules: DocRules, entries: &mut [Entry]) {
    // A byte order mark is no code: three spaces keep every offset (it is three bytes).
    let mut unmarked = String::new();
    let text = match text.strip_prefix('\u{FEFF}') {
        Some(rest) => {
            unmarked = format!("   {rest}");
            unmarked.as_str()
        }
        None => text,
    };
    let docs = Docs {
        text,
        lines: LineCursor::new(text),
        rules,
        bom: !unmarked.is_empty(),
        climbed: RefCell::new(Vec::new()),
    };
    docs.attach_level(entries, 1);
}

struct Docs<'a> {
    text: &'a str,
    /// Entries are visited in order: a cursor answers without a table of every line.
    lines: LineCursor<'a>,
    rules: DocRules,
    /// The first line's first three bytes stand for a byte order mark.
    bom: bool,
    /// [`Climb::starts`] of the entry being read.
    climbed: RefCell<Vec<usize>>,
}

impl Docs<'_> {
    /// Siblings in source order; docs may start at `floor` at the earliest.
    fn attach_level(&self, entries: &mut [Entry], mut floor: usize) {
        // (first line, doc line) of the previous sibling.
        let mut previous: Option<(usize, usize)> = None;
        for entry in entries {
            entry.doc_line = match previous {
                // Entries declared together (`typedef struct s {…} t;`, `A, B = 1, 2`,
                // `a b: c`) share the lines that lead their declaration.
                Some((line, doc_line)) if line == entry.line => doc_line,
                _ => self.doc_start(entry.line, floor),
            };
            previous = Some((entry.line, entry.doc_line));
            self.attach_level(&mut entry.children, entry.line + 1);
            floor = floor.max(entry.end_line + 1);
        }
    }

    /// `window` with comments and literals blanked, as the family's scanner sees it.
    fn mask(&self, window: &str) -> String {
        if !self.rules.javascript {
            return lex::mask(window, &self.rules.spec);
        }
        // Without JSX: a window above an entry starts in code, where `<` is rarely an element.
        let bytes = js_ts::mask::mask(window, false);
        String::from_utf8(bytes)
            .unwrap_or_else(|err| String::from_utf8_lossy(err.as_bytes()).into_owned())
    }

    /// The first line of what leads the entry at `line`, looking no higher than `floor`.
    fn doc_start(&self, line: usize, floor: usize) -> usize {
        if line <= floor {
            return line;
        }
        // Entries come in source order, so the cursor only moves on: two answers per entry,
        // and the lines above it are then found from the bottom up.
        let window_start = self.lines.start_of(floor);
        let window_end = self.lines.start_of(line).max(window_start);
        let climb = Climb {
            text: self.text,
            window_start,
            window_end,
            line,
            bom: self.bom,
            starts: &self.climbed,
        };
        self.climbed.borrow_mut().clear();
        if is_blank(climb.raw(line - 1)) {
            return line;
        }
        // Masking from `floor` starts in code: it is the file's start, the line after an
        // earlier sibling's end or after the parent's first line.
        let window = self.text.get(window_start..window_end).unwrap_or("");
        let masked = self.mask(window);
        Walk {
            docs: self,
            masked: &masked,
            climb,
            floor,
        }
        .run(line)
    }
}

/// The lines `floor..line` above an entry (the window `window_start..window_end` of the
/// text), found from the bottom up as the walk climbs: most walks stop after a line or two.
struct Climb<'t> {
    text: &'t str,
    window_start: usize,
    window_end: usize,
    line: usize,
    /// The first line's first three bytes stand for a byte order mark.
    bom: bool,
    /// `starts[k]`: where line `line - 1 - k` starts (a buffer kept for every entry).
    starts: &'t RefCell<Vec<usize>>,
}

impl Climb<'_> {
    /// Byte range of window line `at` (its break included); `None` outside the window.
    fn range(&self, at: usize) -> Option<(usize, usize)> {
        let k = self.line.checked_sub(at + 1)?;
        let mut starts = self.starts.borrow_mut();
        while starts.len() <= k {
            let below = starts.last().copied().unwrap_or(self.window_end);
            if below <= self.window_start {
                return None;
            }
            // `below - 1` is the break ending the line above `below`.
            let above = self.text.as_bytes().get(self.window_start..below - 1)?;
            let start = memchr::memrchr(b'\n', above)
                .map_or(self.window_start, |n| self.window_start + n + 1);
            starts.push(start);
        }
        let start = *starts.get(k)?;
        let end = if k == 0 {
            self.window_end
        } else {
            *starts.get(k - 1)?
        };
        Some((start, end))
    }

    /// The text of line `at` without its line break: a window line, or the entry's own.
    fn raw(&self, at: usize) -> &str {
        let (start, end) = if at == self.line {
            let rest = self.text.as_bytes().get(self.window_end..).unwrap_or(&[]);
            let len = memchr::memchr(b'\n', rest).map_or(rest.len(), |n| n + 1);
            (self.window_end, self.window_end + len)
        } else {
            match self.range(at) {
                Some(range) => range,
                None => return "",
            }
        };
        let start = start + if start == 0 && self.bom { 3 } else { 0 };
        self.text
            .get(start..end.max(start))
            .unwrap_or("")
            .trim_end_matches(['\n', '\r'])
    }
}

/// One upward walk over the masked lines `floor..line` above an entry.
struct Walk<'d, 'a> {
    docs: &'d Docs<'a>,
    /// The window, lines `floor..line`, masked; it starts at `climb.window_start`.
    masked: &'d str,
    climb: Climb<'a>,
    floor: usize,
}

impl Walk<'_, '_> {
    /// Masked line `line` of the window (with its line break), empty outside the window.
    fn masked(&self, line: usize) -> &str {
        let Some((start, end)) = self.climb.range(line) else {
            return "";
        };
        let origin = self.climb.window_start;
        self.masked.get(start - origin..end - origin).unwrap_or("")
    }

    fn run(&self, line: usize) -> usize {
        let block = self.docs.rules.spec.block_comment;
        let entry_indent = indent_of(self.climb.raw(line));
        let too_deep =
            |raw_line: &str| self.docs.rules.indented_scopes && indent_of(raw_line) > entry_indent;
        let mut doc = line;
        // The last line of a block comment whose opening line is still above.
        let mut open_block: Option<usize> = None;
        let mut at = line - 1;
        while at >= self.floor {
            let raw_line = self.climb.raw(at);
            let raw = raw_line.trim();
            if !is_blank(self.masked(at)) {
                if open_block.is_some() {
                    break; // the comment opens after code on this line
                }
                match self.marker_start(at) {
                    Some(start) => {
                        doc = start;
                        at = start;
                    }
                    None => break,
                }
            } else if let Some(end) = open_block {
                if block.is_some_and(|(open, _)| raw.contains(open)) {
                    open_block = None;
                    if self.is_inner(raw) {
                        return end + 1;
                    }
                    doc = at;
                }
            } else if raw.is_empty()
                || self.is_inner(raw)
                || (at == 1 && raw.starts_with("#!"))
                || too_deep(raw_line)
            {
                break;
            } else if self.ends_block(raw) {
                open_block = Some(at);
            } else {
                doc = at;
            }
            at -= 1;
            if at == 0 {
                break;
            }
        }
        match open_block {
            // A block comment that opens after code belongs to that code.
            Some(end) => end + 1,
            None => doc,
        }
    }

    /// Whether a comment line is the last line of a block comment opened above it
    /// (` * more. */`), not a line comment that mentions `*/` (`/// see a/*/b`).
    fn ends_block(&self, comment: &str) -> bool {
        let spec = &self.docs.rules.spec;
        let Some((open, close)) = spec.block_comment else {
            return false;
        };
        let line_comment = spec
            .line_comments
            .iter()
            .any(|opener| comment.starts_with(opener));
        comment.contains(close) && !comment.starts_with(open) && !line_comment
    }

    fn is_inner(&self, comment: &str) -> bool {
        self.docs
            .rules
            .inner_docs
            .iter()
            .any(|opener| comment.starts_with(opener))
    }

    /// When the code line `at` ends a decorator or attribute, the line where it starts: the
    /// line itself when it starts with a marker, else the line opening the brackets it closes.
    fn marker_start(&self, at: usize) -> Option<usize> {
        let markers = self.docs.rules.markers;
        let starts_marker = |line: usize| {
            let text = self.masked(line).trim_start();
            markers.iter().any(|marker| text.starts_with(marker))
        };
        if markers.is_empty() {
            return None;
        }
        if starts_marker(at) {
            return Some(at);
        }
        let mut balance = bracket_balance(self.masked(at));
        let mut line = at;
        while balance < 0 && line > self.floor {
            line -= 1;
            balance += bracket_balance(self.masked(line));
        }
        (balance == 0 && line < at && starts_marker(line)).then_some(line)
    }
}

/// Whether `line` is whitespace only (`str::trim` would leave nothing), looking at bytes
/// while they are ASCII: most masked lines are a blanked comment, a run of spaces.
fn is_blank(line: &str) -> bool {
    match line
        .bytes()
        .position(|b| !matches!(b, b' ' | b'\t'..=b'\r'))
    {
        None => true,
        Some(i) if line.as_bytes()[i] < 0x80 => false,
        Some(i) => line.get(i..).unwrap_or("").trim().is_empty(),
    }
}

/// Width of a line's leading whitespace, in bytes.
fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// Opening minus closing brackets on a masked line.
fn bracket_balance(masked: &str) -> isize {
    masked.bytes().fold(0, |sum, byte| match byte {
        b'(' | b'[' | b'{' => sum + 1,
        b')' | b']' | b'}' => sum - 1,
        _ => sum,
    })
}

#[cfg(test)]
mod tests;
