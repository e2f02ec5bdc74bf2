//! The bracketed-collection scanner shared by JSON documents, YAML flow collections and TOML
//! arrays / inline tables: `{ key: value, ... }` and `[ value, ... ]`, iterative and tolerant.

use super::{Doc, Parent, Value};
use crate::outline::Kind;
use compact_str::CompactString;

/// Which dialect of bracketed data is being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// JSON with `//` and `/* */` comments, trailing commas, bare words.
    Json,
    /// YAML flow collections: plain scalars with spaces, `#` comments, multi-line quotes.
    Yaml,
    /// TOML arrays and inline tables: `=` separators, dotted keys, triple-quoted strings.
    Toml,
}

/// Open collections beyond this many are only counted, not tracked.
const MAX_FRAMES: usize = 4096;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Object: a key may come. Array: a value may come.
    Ready,
    /// Object: a key and its separator were read; its value comes.
    Value,
    /// A value was read; a comma or the closer comes.
    After,
}

#[derive(Debug)]
struct Frame {
    object: bool,
    /// The key whose value this collection is.
    owner: Parent,
    /// Where keys inside go.
    parent: Parent,
    state: State,
    /// The latest key of an object.
    key: Parent,
    count: usize,
}

/// Result of scanning one collection.
pub(super) struct Scanned {
    /// Offset after the collection (or where scanning stopped).
    pub end: usize,
    /// Line of the last token read.
    pub last_line: usize,
}

/// Scans from the opening bracket at `start` until it closes (or the input ends, or for YAML a
/// line falls back to `stop_col` indentation or less). `owner` is the key the collection is the
/// value of; keys inside are entered under `parent`.
pub(super) fn scan(
    doc: &mut Doc,
    mode: Mode,
    start: usize,
    owner: Parent,
    parent: Parent,
    stop_col: Option<usize>,
) -> Scanned {
    let mut scanner = Scanner {
        mode,
        stop_col,
        pos: start,
        last_token_end: start,
        no_close: [usize::MAX; 2],
    };
    scanner.run(doc, owner, parent)
}

struct Scanner {
    mode: Mode,
    stop_col: Option<usize>,
    pos: usize,
    last_token_end: usize,
    /// For `"` and `'`: an offset from which no closing quote exists (avoids rescanning).
    no_close: [usize; 2],
}

impl Scanner {
    fn run(&mut self, doc: &mut Doc, owner: Parent, parent: Parent) -> Scanned {
        let bytes = doc.bytes;
        let mut stack: Vec<Frame> = Vec::new();
        let mut overflow = 0usize;
        loop {
            if !self.skip_blank(doc) {
                break;
            }
            let Some(&byte) = bytes.get(self.pos) else {
                break;
            };
            match byte {
                b'{' | b'[' => {
                    let (slot_owner, slot_parent) = self.begin_value(&mut stack, owner, parent);
                    self.pos += 1;
                    self.last_token_end = self.pos;
                    if stack.len() >= MAX_FRAMES {
                        overflow += 1;
                        continue;
                    }
                    stack.push(Frame {
                        object: byte == b'{',
                        owner: slot_owner,
                        parent: slot_parent,
                        state: State::Ready,
                        key: Parent::Hidden,
                        count: 0,
                    });
                }
                b'}' | b']' => {
                    let line = doc.line(self.pos);
                    self.pos += 1;
                    self.last_token_end = self.pos;
                    if overflow > 0 {
                        overflow -= 1;
                        continue;
                    }
                    let object = byte == b'}';
                    let Some(depth) = stack.iter().rposition(|frame| frame.object == object) else {
                        continue;
                    };
                    while stack.len() > depth {
                        if let Some(frame) = stack.pop() {
                            close(doc, &frame, line);
                        }
                    }
                    if stack.is_empty() && self.mode != Mode::Json {
                        return self.scanned(doc);
                    }
                }
                b',' => {
                    self.pos += 1;
                    if let Some(top) = stack.last_mut() {
                        top.state = State::Ready;
                    }
                }
                b':' | b'=' if self.is_separator(byte) => {
                    // A separator with no key before it (`{: 1}`, `[a: 1]`): the value follows.
                    self.pos += 1;
                    if let Some(top) = stack.last_mut() {
                        if top.state != State::Value {
                            top.key = Parent::Hidden;
                            top.state = State::Value;
                        }
                    }
                }
                _ => self.scalar_or_key(doc, &mut stack, owner, parent),
            }
            if stack.is_empty() && overflow == 0 && self.mode != Mode::Json {
                // A stray scalar where a collection was expected: nothing more to read.
                return self.scanned(doc);
            }
        }
        let line = doc.end_line(0, self.last_token_end);
        while let Some(frame) = stack.pop() {
            close(doc, &frame, line);
        }
        self.scanned(doc)
    }

    fn scanned(&self, doc: &Doc) -> Scanned {
        Scanned {
            end: self.pos,
            last_line: doc.end_line(0, self.last_token_end),
        }
    }

    fn is_separator(&self, byte: u8) -> bool {
        match self.mode {
            Mode::Toml => byte == b'=',
            Mode::Json | Mode::Yaml => byte == b':',
        }
    }

    /// Claims the value slot of the innermost collection: returns the key the value belongs to
    /// and where keys inside it go.
    fn begin_value(&self, stack: &mut [Frame], owner: Parent, parent: Parent) -> (Parent, Parent) {
        let Some(top) = stack.last_mut() else {
            return (owner, parent);
        };
        let slot = if top.object {
            match top.state {
                State::Value => (top.key, top.key),
                _ => (Parent::Hidden, top.parent),
            }
        } else {
            if top.state == State::Ready || self.mode != Mode::Yaml {
                top.count += 1;
            }
            (Parent::Hidden, top.parent)
        };
        top.state = State::After;
        slot
    }

    /// Reads a scalar; in an object where a key may come, a scalar followed by the separator is
    /// a key.
    fn scalar_or_key(&mut self, doc: &mut Doc, stack: &mut [Frame], owner: Parent, parent: Parent) {
        let start = self.pos;
        let key_position = stack.last().is_some_and(|top| {
            top.object
                && (top.state == State::Ready
                    || (top.state == State::After && self.mode != Mode::Yaml))
        });
        if key_position {
            if let Some((name, after)) = self.read_key(doc) {
                let save = self.pos;
                self.pos = after;
                if self.skip_to_separator(doc) {
                    self.last_token_end = after;
                    let line = doc.line(start);
                    if let Some(top) = stack.last_mut() {
                        let key = doc.add(top.parent, Kind::Key, name, line);
                        top.count += 1;
                        top.key = key;
                        top.state = State::Value;
                    }
                    return;
                }
                self.pos = save;
            }
        }
        let end = self.read_scalar(doc);
        self.pos = end.max(start + 1);
        self.last_token_end = self.pos;
        // A YAML plain scalar running on after a line break continues the previous value.
        let continuation =
            self.mode == Mode::Yaml && stack.last().is_some_and(|top| top.state == State::After);
        if continuation {
            if let Some(top) = stack.last() {
                if top.object {
                    let line = doc.end_line(start, self.pos);
                    doc.set_end(top.key, line);
                }
            }
            return;
        }
        let (slot_owner, _) = self.begin_value(stack, owner, parent);
        doc.set_scalar(slot_owner, start, self.pos);
    }

    /// Reads a key at `self.pos` without moving; returns its name and the offset after it.
    fn read_key(&mut self, doc: &Doc) -> Option<(CompactString, usize)> {
        let bytes = doc.bytes;
        let start = self.pos;
        match self.mode {
            Mode::Toml => super::lexical::read_dotted_key(doc, start),
            Mode::Json => {
                let end = self.read_scalar(doc);
                let raw = doc.slice(start, end);
                let mut name = if bytes.get(start) == Some(&b'"') {
                    unescape_json(strip_quotes(raw))
                } else {
                    CompactString::from(raw)
                };
                // A name is one line: `"a\nb"` reads `a b`.
                if name.chars().any(char::is_control) {
                    name = super::clean_name(&name.replace(char::is_control, " "));
                }
                Some((name, end))
            }
            Mode::Yaml => {
                let end = self.read_scalar(doc);
                let raw = doc.slice(start, end).trim();
                Some((super::clean_name(strip_quotes(raw)), end))
            }
        }
    }

    /// After a key: skips blanks (and comments in JSON) up to the separator and past it.
    fn skip_to_separator(&mut self, doc: &Doc) -> bool {
        let bytes = doc.bytes;
        let mut pos = self.pos;
        loop {
            match bytes.get(pos) {
                Some(b' ' | b'\t') => pos += 1,
                Some(b'\r' | b'\n') if self.mode == Mode::Json => pos += 1,
                Some(b'/') if self.mode == Mode::Json => {
                    let save = self.pos;
                    self.pos = pos;
                    let skipped = self.skip_comment(doc);
                    pos = self.pos;
                    self.pos = save;
                    if !skipped {
                        return false;
                    }
                }
                Some(&byte) if self.is_separator(byte) => {
                    self.pos = pos + 1;
                    return true;
                }
                _ => return false,
            }
        }
    }

    /// The end of the scalar starting at `self.pos` (not moving).
    fn read_scalar(&mut self, doc: &Doc) -> usize {
        let bytes = doc.bytes;
        let start = self.pos;
        match (self.mode, bytes.get(start)) {
            (Mode::Toml, Some(b'"' | b'\'')) => super::lexical::string_end(bytes, start),
            (_, Some(&quote @ (b'"' | b'\''))) if quote == b'"' || self.mode == Mode::Yaml => {
                quoted_end(
                    bytes,
                    start,
                    quote,
                    self.mode == Mode::Yaml,
                    &mut self.no_close,
                )
            }
            _ => self.plain_end(bytes, start),
        }
    }

    /// End of an unquoted word: JSON bare words, TOML values, YAML flow plain scalars.
    fn plain_end(&self, bytes: &[u8], start: usize) -> usize {
        let mut pos = start;
        while let Some(&byte) = bytes.get(pos) {
            let stop = match self.mode {
                Mode::Json => {
                    matches!(
                        byte,
                        b'{' | b'}'
                            | b'['
                            | b']'
                            | b','
                            | b':'
                            | b'"'
                            | b' '
                            | b'\t'
                            | b'\r'
                            | b'\n'
                    ) || (byte == b'/' && matches!(bytes.get(pos + 1), Some(b'/' | b'*')))
                }
                Mode::Toml => matches!(
                    byte,
                    b'{' | b'}' | b'[' | b']' | b',' | b'=' | b'#' | b' ' | b'\t' | b'\r' | b'\n'
                ),
                Mode::Yaml => {
                    matches!(byte, b'{' | b'}' | b'[' | b']' | b',' | b'\r' | b'\n')
                        || (byte == b':'
                            && pos > start
                            && matches!(
                                bytes.get(pos + 1),
                                None | Some(
                                    b' ' | b'\t' | b'\r' | b'\n' | b',' | b'[' | b']' | b'{' | b'}'
                                )
                            ))
                        || (byte == b'#'
                            && pos > start
                            && matches!(bytes.get(pos - 1), Some(b' ' | b'\t')))
                }
            };
            if stop {
                break;
            }
            pos += 1;
        }
        // Trailing blanks of a YAML plain scalar are not part of it.
        while pos > start && matches!(bytes.get(pos - 1), Some(b' ' | b'\t')) {
            pos -= 1;
        }
        pos.max(start + 1).min(bytes.len().max(start))
    }

    /// Skips whitespace and comments. Returns false when YAML scanning must stop here (a line
    /// not indented past the enclosing block, or a document marker).
    fn skip_blank(&mut self, doc: &Doc) -> bool {
        let bytes = doc.bytes;
        loop {
            match bytes.get(self.pos) {
                Some(b' ' | b'\t' | b'\r') => self.pos += 1,
                Some(b'\n') => {
                    self.pos += 1;
                    if self.mode == Mode::Yaml && self.yaml_stops_at_line(bytes) {
                        return false;
                    }
                    if self.mode == Mode::Toml && toml_header_line(bytes, self.pos) {
                        return false;
                    }
                }
                Some(b'#') if self.mode != Mode::Json => self.skip_line_rest(bytes),
                Some(b'/') if self.mode == Mode::Json => {
                    if !self.skip_comment(doc) {
                        return true;
                    }
                }
                _ => return true,
            }
        }
    }

    fn skip_line_rest(&mut self, bytes: &[u8]) {
        self.pos = memchr::memchr(b'\n', bytes.get(self.pos..).unwrap_or(&[]))
            .map_or(bytes.len(), |at| self.pos + at);
    }

    /// Skips a `//` or `/* */` comment at `self.pos`; false when there is none.
    fn skip_comment(&mut self, doc: &Doc) -> bool {
        let bytes = doc.bytes;
        match bytes.get(self.pos + 1) {
            Some(b'/') => {
                self.skip_line_rest(bytes);
                true
            }
            Some(b'*') => {
                let from = self.pos + 2;
                self.pos = memchr::memmem::find(bytes.get(from..).unwrap_or(&[]), b"*/")
                    .map_or(bytes.len(), |at| from + at + 2);
                true
            }
            _ => false,
        }
    }

    /// At a line start inside a YAML flow collection: does the enclosing block end here?
    fn yaml_stops_at_line(&self, bytes: &[u8]) -> bool {
        let rest = bytes.get(self.pos..).unwrap_or(&[]);
        if super::lexical::is_document_marker(rest) {
            return true;
        }
        let Some(stop_col) = self.stop_col else {
            return false;
        };
        let indent = rest.iter().take_while(|b| **b == b' ').count();
        match rest.get(indent) {
            None | Some(b'\n' | b'\r' | b'#' | b']' | b'}' | b',') => false,
            Some(_) => indent <= stop_col,
        }
    }
}

/// End of the string quoted with `quote` at `start` (after its closing quote). Without
/// `multiline` (JSON, a YAML key) a line break ends it; a `multiline` one (a YAML scalar) may
/// span lines, but an unclosed one ends with its line. `no_close` keeps, for `"` and `'`, an
/// offset from which no closing quote exists, so that many unclosed strings are not each
/// scanned to the end.
pub(super) fn quoted_end(
    bytes: &[u8],
    start: usize,
    quote: u8,
    multiline: bool,
    no_close: &mut [usize; 2],
) -> usize {
    let slot = usize::from(quote == b'\'');
    // Computed only when needed: a minified file is one long line.
    let line_end = || {
        memchr::memchr(b'\n', bytes.get(start..).unwrap_or(&[]))
            .map_or(bytes.len(), |at| start + at)
    };
    if multiline && no_close[slot] <= start {
        return line_end();
    }
    let mut pos = start + 1;
    loop {
        // Jump to the next byte that matters.
        let rest = bytes.get(pos..).unwrap_or(&[]);
        let found = if multiline {
            memchr::memchr2(quote, b'\\', rest)
        } else {
            memchr::memchr3(quote, b'\\', b'\n', rest)
        };
        let Some(skip) = found else {
            break;
        };
        pos += skip;
        let Some(&byte) = bytes.get(pos) else {
            break;
        };
        if byte == quote {
            if quote == b'\'' && bytes.get(pos + 1) == Some(&b'\'') {
                pos += 2;
                continue;
            }
            return pos + 1;
        }
        if byte == b'\\' && quote == b'"' {
            pos += 2;
            continue;
        }
        if byte == b'\n' && !multiline {
            return pos;
        }
        pos += 1;
    }
    if multiline {
        no_close[slot] = start;
    }
    line_end()
}

/// A line that can only be a TOML table header (`[name]`, `[[a.b]]`), never part of an array:
/// an unclosed array stops there.
fn toml_header_line(bytes: &[u8], start: usize) -> bool {
    let line_end = memchr::memchr(b'\n', bytes.get(start..).unwrap_or(&[]))
        .map_or(bytes.len(), |at| start + at);
    let line = bytes.get(start..line_end).unwrap_or(&[]);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let trimmed = line.trim_ascii();
    let Some(inner) = trimmed.strip_prefix(b"[") else {
        return false;
    };
    let inner = inner.strip_prefix(b"[").unwrap_or(inner);
    let inner = inner.trim_ascii_start();
    let Some(close) = inner.iter().position(|b| *b == b']') else {
        return false;
    };
    let name = inner.get(..close).unwrap_or(&[]).trim_ascii();
    let after = inner.get(close..).unwrap_or(&[]);
    let after = after
        .strip_prefix(b"]]")
        .or_else(|| after.strip_prefix(b"]"))
        .unwrap_or(after);
    let after = after.trim_ascii();
    let identifier = name
        .first()
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
        && name.iter().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b' ' | b'"' | b'\'')
        })
        && !matches!(name, b"true" | b"false" | b"inf" | b"nan");
    identifier && (after.is_empty() || after.starts_with(b"#"))
}

/// Closes a collection on `line`: its key gets the summary and the end line.
fn close(doc: &mut Doc, frame: &Frame, line: usize) {
    if let Some(node) = doc.node_mut(frame.owner) {
        node.value = if frame.object {
            Value::Object
        } else {
            Value::Array
        };
        node.count = frame.count;
        node.end = node.end.max(line);
    }
}

/// `"abc"` -> `abc`; anything else unchanged.
pub(super) fn strip_quotes(raw: &str) -> &str {
    let bytes = raw.as_bytes();
    match (bytes.first(), bytes.last()) {
        (Some(&first), Some(&last))
            if bytes.len() >= 2 && first == last && (first == b'"' || first == b'\'') =>
        {
            raw.get(1..raw.len() - 1).unwrap_or(raw)
        }
        (Some(b'"'), _) => raw.get(1..).unwrap_or(raw),
        _ => raw,
    }
}

/// Decodes JSON string escapes (`\"`, `\n`, `\u00e9`); invalid escapes stay as written.
pub(super) fn unescape_json(raw: &str) -> CompactString {
    if !raw.contains('\\') {
        return CompactString::from(raw);
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(ch) = chars.next() {
        if ch != '\\' {
            out.push(ch);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('u') => {
                let hex: String = chars.clone().take(4).collect();
                match u32::from_str_radix(&hex, 16)
                    .ok()
                    .filter(|_| hex.len() == 4)
                {
                    Some(code) => {
                        chars.nth(3);
                        let mut code = code;
                        // A surrogate pair: \ud83d\ude00.
                        if (0xD800..0xDC00).contains(&code) && chars.as_str().starts_with("\\u") {
                            let low: String = chars.clone().skip(2).take(4).collect();
                            if let Ok(low) = u32::from_str_radix(&low, 16) {
                                if (0xDC00..0xE000).contains(&low) {
                                    chars.nth(5);
                                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                                }
                            }
                        }
                        out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                    }
                    None => out.push_str("\\u"),
                }
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    CompactString::from(out)
}
