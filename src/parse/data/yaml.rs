//! YAML: block mappings by indentation, sequences (`- key: v` keys hang under the sequence's
//! key), flow collections (`{a: 1}`, `[..]`, read by the shared bracket scanner), quoted and
//! block scalars (`|`, `>`: their content is never keys), anchors, aliases, tags, comments and
//! several documents per file (`---`, `...`; documents get no entries of their own).

use super::flow::{self, Mode};
use super::lexical::{is_document_marker, skip_spaces};
use super::{Doc, Parent, Value};
use crate::outline::{Entry, Kind};
use compact_str::CompactString;

/// An open block node: a key waiting for (or holding) its value, or a sequence entry.
#[derive(Debug)]
struct Frame {
    /// Column of the key or of the `-`.
    col: usize,
    key: bool,
    /// The key's entry, or for a sequence entry where keys inside it go.
    node: Parent,
    /// A scalar value began on the node's line: more-indented lines continue it.
    inline: bool,
    /// Holds a block collection (keys or `-` entries on lines of their own), which extends
    /// over comment lines up to the next content line.
    block: bool,
}

struct Parser<'d, 't> {
    doc: &'d mut Doc<'t>,
    stack: Vec<Frame>,
    /// Last line holding content (not blank, not only a comment).
    last_content: usize,
    /// Last line holding only a comment.
    last_comment: usize,
    /// Set at the end of the input: open block collections then run to the last line, as do
    /// block scalars reaching the end (their trailing blank lines are theirs).
    eof_line: usize,
    /// Offsets from which no closing `"` / `'` exists.
    no_close: [usize; 2],
    /// Reading the value after an explicit key's `:`.
    in_explicit: bool,
    /// The last line end found, as `(from, end)`: `end` is the first line break at or after
    /// `from`. A line is asked about several times (key, value, next line); one search serves.
    known_end: std::cell::Cell<(usize, usize)>,
}

pub(super) fn parse(text: &str) -> Vec<Entry> {
    let mut doc = Doc::new(text);
    let mut parser = Parser {
        doc: &mut doc,
        stack: Vec::new(),
        last_content: 1,
        last_comment: 0,
        eof_line: 0,
        no_close: [usize::MAX; 2],
        in_explicit: false,
        known_end: std::cell::Cell::new((usize::MAX, 0)),
    };
    parser.run();
    doc.finish()
}

/// `{{`, `{%` or `{#`: a template expression, read as plain text.
fn is_template(rest: &[u8]) -> bool {
    matches!(rest, [b'{', b'{' | b'%' | b'#', ..])
}

fn is_blank(byte: Option<&u8>) -> bool {
    matches!(byte, None | Some(b' ' | b'\t' | b'\r' | b'\n'))
}

impl<'t> Parser<'_, 't> {
    fn bytes(&self) -> &'t [u8] {
        self.doc.bytes
    }

    fn line_end(&self, pos: usize) -> usize {
        let (from, end) = self.known_end.get();
        if from <= pos && pos <= end {
            return end;
        }
        let bytes = self.bytes();
        let end = memchr::memchr(b'\n', bytes.get(pos..).unwrap_or(&[]))
            .map_or(bytes.len(), |at| pos + at);
        self.known_end.set((pos, end));
        end
    }

    fn next_line(&self, pos: usize) -> usize {
        (self.line_end(pos) + 1).min(self.bytes().len())
    }

    fn run(&mut self) {
        let len = self.bytes().len();
        let mut pos = 0;
        while pos < len {
            let line_start = pos;
            let bytes = self.bytes();
            let indent = bytes
                .get(line_start..)
                .unwrap_or(&[])
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\t'))
                .count();
            let at = line_start + indent;
            match bytes.get(at) {
                Some(b'#') => {
                    self.last_comment = self.doc.line(at);
                    pos = self.next_line(line_start);
                    continue;
                }
                None | Some(b'\n' | b'\r') => {
                    pos = self.next_line(line_start);
                    continue;
                }
                Some(b'%') if indent == 0 => {
                    pos = self.next_line(line_start);
                    continue;
                }
                // A template directive line (Helm / Go `{{- if }}`, Jinja `{% for %}`): it is
                // no YAML node, and the YAML around it reads on as if it were a comment.
                Some(b'{') if is_template(bytes.get(at..).unwrap_or(&[])) => {
                    self.last_comment = self.doc.line(at);
                    pos = self.next_line(line_start);
                    continue;
                }
                _ => {}
            }
            if indent == 0 && is_document_marker(bytes.get(at..).unwrap_or(&[])) {
                self.pop_all();
                let rest = skip_spaces(bytes, at + 3);
                pos = match bytes.get(rest) {
                    None | Some(b'\n' | b'\r' | b'#') => self.next_line(line_start),
                    Some(_) if bytes.get(at) == Some(&b'-') => {
                        self.last_content = self.doc.line(at);
                        self.value(rest)
                    }
                    Some(_) => self.next_line(line_start),
                };
                continue;
            }
            let is_seq = bytes.get(at) == Some(&b'-') && is_blank(bytes.get(at + 1));
            // `: value` under a `? key` at the same indentation.
            let is_value = bytes.get(at) == Some(&b':') && is_blank(bytes.get(at + 1));
            while let Some(top) = self.stack.last() {
                let keep = top.key && !top.inline && (is_seq || is_value);
                if top.col > indent || (top.col == indent && !keep) {
                    self.pop();
                } else {
                    break;
                }
            }
            self.last_content = self.doc.line(at);
            if self
                .stack
                .last()
                .is_some_and(|top| top.inline && indent > top.col)
            {
                // A plain scalar continued on a more-indented line.
                pos = self.next_line(line_start);
                continue;
            }
            pos = self.item(line_start, at);
        }
        self.eof_line = crate::parse::count_lines(self.doc.text);
        self.pop_all();
    }

    fn pop(&mut self) {
        if let Some(frame) = self.stack.pop() {
            if frame.key {
                let end = if frame.block {
                    self.last_content.max(self.last_comment).max(self.eof_line)
                } else {
                    self.last_content
                };
                self.doc.set_end(frame.node, end);
            }
        }
    }

    fn pop_all(&mut self) {
        while !self.stack.is_empty() {
            self.pop();
        }
    }

    /// Where keys of a value starting now go.
    fn context(&self) -> Parent {
        self.stack.last().map_or(Parent::Root, |top| top.node)
    }

    /// Notes a new key or sequence entry in the value of the key on top of the stack.
    fn count_in_top(&mut self, value: Value) {
        let Some(top) = self.stack.last_mut() else {
            return;
        };
        if !top.key {
            return;
        }
        top.block = true;
        let node = top.node;
        if let Some(node) = self.doc.node_mut(node) {
            if node.value != value {
                node.value = value;
                node.count = 0;
            }
            node.count += 1;
        }
    }

    /// Reads the content of a line from `at` (sequence dashes, a key, a value); returns the
    /// start of the next line to read.
    fn item(&mut self, line_start: usize, mut at: usize) -> usize {
        loop {
            let bytes = self.bytes();
            let col = at - line_start;
            if bytes.get(at) == Some(&b'-') && is_blank(bytes.get(at + 1)) {
                self.count_in_top(Value::Array);
                let node = self.context();
                self.stack.push(Frame {
                    col,
                    key: false,
                    node,
                    inline: false,
                    block: false,
                });
                at = skip_spaces(bytes, at + 1);
                if matches!(bytes.get(at), None | Some(b'\n' | b'\r' | b'#')) {
                    return self.next_line(at);
                }
                continue;
            }
            if matches!(bytes.get(at), Some(b'?' | b':')) && is_blank(bytes.get(at + 1)) {
                return self.explicit(line_start, at, col);
            }
            if let Some((name, after)) = self.key_at(at) {
                self.open_key(name, at, col);
                let bytes = self.bytes();
                let value = skip_spaces(bytes, after);
                if matches!(bytes.get(value), None | Some(b'\n' | b'\r' | b'#')) {
                    return self.next_line(value);
                }
                return self.value(value);
            }
            if self.stack.last().is_some_and(|top| top.key && top.block) {
                // A stray scalar among the keys of a mapping is no value of the mapping's key.
                return self.next_line(at);
            }
            return self.value(at);
        }
    }

    /// `? key` (an explicit key, read as a one-line scalar) or the `: value` that follows it.
    fn explicit(&mut self, line_start: usize, at: usize, col: usize) -> usize {
        let bytes = self.bytes();
        let rest = skip_spaces(bytes, at + 1);
        if bytes.get(at) == Some(&b':') {
            if matches!(bytes.get(rest), None | Some(b'\n' | b'\r' | b'#')) {
                return self.next_line(rest);
            }
            // The value may itself be a compact mapping or sequence (`: name: x`); one level
            // only, so that `: : : …` cannot recurse.
            if self.in_explicit {
                return self.next_line(rest);
            }
            self.in_explicit = true;
            let next = self.item(line_start, rest);
            self.in_explicit = false;
            return next;
        }
        let line_end = self.line_end(rest);
        let text = self.doc.slice(rest, line_end);
        let text = match text.find(" #") {
            Some(cut) => text.get(..cut).unwrap_or(text),
            None => text,
        };
        let name = super::clean_name(flow::strip_quotes(text.trim()));
        if name.is_empty() {
            return self.next_line(at);
        }
        self.open_key(name, at, col);
        self.next_line(at)
    }

    /// Adds the key `name` found at `at` (column `col`) to the mapping on top of the stack
    /// and makes it the top: what follows at a deeper column is its value.
    fn open_key(&mut self, name: CompactString, at: usize, col: usize) {
        self.count_in_top(Value::Object);
        let line = self.doc.line(at);
        let context = self.context();
        let node = self.doc.add(context, Kind::Key, name, line);
        self.stack.push(Frame {
            col,
            key: true,
            node,
            inline: false,
            block: false,
        });
    }

    /// A key at `at` on this line: a plain or quoted scalar followed by `:` and a blank.
    /// Returns its name and the offset after the colon.
    fn key_at(&mut self, at: usize) -> Option<(CompactString, usize)> {
        let bytes = self.bytes();
        // Node properties before a key (`&anchor key: v`) stay in its name, as YAML parsers
        // report the key node's text.
        let mut start = at;
        while matches!(bytes.get(start), Some(b'&' | b'!')) {
            while !is_blank(bytes.get(start)) {
                start += 1;
            }
            start = skip_spaces(bytes, start);
        }
        if start != at {
            if bytes.get(start).is_some_and(|b| b.is_ascii_whitespace()) {
                return None;
            }
            let (_, after) = self.key_at(start)?;
            let raw = self.doc.slice(at, after - 1).trim();
            return Some((super::clean_name(raw), after));
        }
        let line_end = self.line_end(at);
        let first = *bytes.get(at)?;
        if first == b'"' || first == b'\'' {
            let end = self.quoted_end(at, false);
            if end > line_end || bytes.get(end - 1) != Some(&first) || end == at + 1 {
                return None;
            }
            let colon = skip_spaces(bytes, end);
            if bytes.get(colon) != Some(&b':') {
                return None;
            }
            let raw = self.doc.slice(at, end);
            return Some((super::clean_name(flow::strip_quotes(raw)), colon + 1));
        }
        if matches!(
            first,
            b'[' | b'{'
                | b']'
                | b'}'
                | b'|'
                | b'>'
                | b'*'
                | b'&'
                | b'!'
                | b'%'
                | b'@'
                | b'`'
                | b'#'
                | b','
                | b'?'
        ) {
            return None;
        }
        let mut pos = at;
        while pos < line_end {
            let byte = *bytes.get(pos)?;
            if byte == b':' && is_blank(bytes.get(pos + 1)) {
                let name = self.doc.slice(at, pos).trim();
                if name.is_empty() {
                    return None;
                }
                return Some((super::clean_name(name), pos + 1));
            }
            if byte == b'#' && matches!(bytes.get(pos.wrapping_sub(1)), Some(b' ' | b'\t')) {
                return None;
            }
            pos += 1;
        }
        None
    }

    /// Reads a value at `at` for the node on top of the stack; returns the next line to read.
    fn value(&mut self, mut at: usize) -> usize {
        let owner = match self.stack.last() {
            Some(top) if top.key => top.node,
            _ => Parent::Hidden,
        };
        // Node properties: `&anchor`, `!tag`.
        let props_start = at;
        let mut props_end = at;
        loop {
            let bytes = self.bytes();
            if !matches!(bytes.get(at), Some(b'&' | b'!')) {
                break;
            }
            while !is_blank(bytes.get(at)) {
                at += 1;
            }
            props_end = at;
            at = skip_spaces(bytes, at);
        }
        if props_end > props_start {
            let props = super::one_line(self.doc.slice(props_start, props_end));
            if let Some(node) = self.doc.node_mut(owner) {
                node.props = Some(props.into_boxed_str());
            }
        }
        let bytes = self.bytes();
        match bytes.get(at) {
            None | Some(b'\n' | b'\r' | b'#') => self.next_line(at),
            Some(b'{' | b'[') if !is_template(bytes.get(at..).unwrap_or(&[])) => {
                let stop_col = self.stack.last().map(|top| top.col);
                let parent = self.context();
                let scanned = flow::scan(self.doc, Mode::Yaml, at, owner, parent, stop_col);
                self.last_content = self.last_content.max(scanned.last_line);
                self.set_inline();
                let end = scanned.end;
                if end >= self.bytes().len()
                    || self.bytes().get(end.wrapping_sub(1)) == Some(&b'\n')
                {
                    end
                } else {
                    self.next_line(end)
                }
            }
            Some(b'|' | b'>') => self.block_scalar(at, owner),
            Some(b'"' | b'\'') => {
                let end = self.quoted_end(at, true);
                self.doc.set_scalar(owner, at, end);
                self.last_content = self.last_content.max(self.doc.end_line(at, end));
                self.set_inline();
                self.next_line(end.saturating_sub(1).max(at))
            }
            Some(_) => {
                let line_end = self.line_end(at);
                let mut end = at;
                let mut pos = at;
                while pos < line_end {
                    let byte = bytes.get(pos).copied().unwrap_or(b'\n');
                    if byte == b'#' && matches!(bytes.get(pos.wrapping_sub(1)), Some(b' ' | b'\t'))
                    {
                        break;
                    }
                    if !matches!(byte, b' ' | b'\t' | b'\r') {
                        end = pos + 1;
                    }
                    pos += 1;
                }
                self.doc.set_scalar(owner, at, end);
                self.set_inline();
                self.next_line(at)
            }
        }
    }

    fn set_inline(&mut self) {
        if let Some(top) = self.stack.last_mut() {
            top.inline = true;
        }
    }

    /// A `|` / `>` block scalar: its lines are those indented past the node holding it.
    fn block_scalar(&mut self, at: usize, owner: Parent) -> usize {
        let min_indent = self.stack.last().map(|top| top.col + 1);
        let mut content_end = self.line_end(at);
        let mut pos = self.next_line(at);
        let len = self.bytes().len();
        while pos < len {
            let bytes = self.bytes();
            let rest = bytes.get(pos..).unwrap_or(&[]);
            let indent = rest.iter().take_while(|b| **b == b' ').count();
            let blank = matches!(rest.get(indent), None | Some(b'\n' | b'\r'))
                || (matches!(rest.get(indent), Some(b'\t'))
                    && rest
                        .iter()
                        .skip(indent)
                        .take_while(|b| **b != b'\n')
                        .all(|b| b.is_ascii_whitespace()));
            if !blank {
                let inside = match min_indent {
                    Some(min) => indent >= min,
                    None => !is_document_marker(rest),
                };
                if !inside {
                    break;
                }
                content_end = self.line_end(pos);
            }
            pos = self.next_line(pos);
        }
        self.doc.set_scalar(owner, at, content_end);
        self.last_content = self.last_content.max(self.doc.end_line(at, content_end));
        if pos >= len {
            // Trailing blank lines at the end of the input belong to the scalar.
            self.last_content = self
                .last_content
                .max(crate::parse::count_lines(self.doc.text));
        }
        // Resume at the first line after the last content line.
        let resume = (content_end + 1).min(len);
        resume.max(self.next_line(at)).min(len)
    }

    /// End of a quoted scalar at `at` (after the closing quote). A quoted scalar may span
    /// lines when `multiline`; an unclosed one ends with its line.
    fn quoted_end(&mut self, at: usize, multiline: bool) -> usize {
        let bytes = self.doc.bytes;
        let Some(&quote) = bytes.get(at) else {
            return at;
        };
        flow::quoted_end(bytes, at, quote, multiline, &mut self.no_close)
    }
}
