//! Python outline scanner: classes, functions and methods (decorators and `async` in the
//! signature), and module-level UPPER_CASE constants.
//!
//! The text is masked first (comments and string contents blanked, see [`lex::mask`]), then cut
//! into logical lines: a physical line continues the previous one inside brackets, inside a
//! triple-quoted string, or after a backslash. Blank and comment-only lines are no statements.
//! An indentation stack of the open `def`/`class` blocks gives each statement its scope; a block
//! ends at the last logical line before the first statement indented no deeper than its header,
//! which is Python's `end_lineno`. Compound statements (`if`, `try`, `with`, `for`, `while`,
//! `match`) are transparent: what they hold belongs to the enclosing scope.

use std::sync::LazyLock;

use regex::Regex;

use crate::outline::{Entry, Kind};
use crate::parse::lex::{self, LexSpec};
use crate::parse::{one_line, signature, LineIndex};

/// `def name` / `async def name` at the start of a logical line (masked text).
static DEF_RE: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"^(async[ \t\f]+)?def[ \t\f]+([^\W\d]\w*)").ok());
/// `class Name` at the start of a logical line (masked text).
static CLASS_RE: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"^class[ \t\f]+([^\W\d]\w*)").ok());

/// Deepest bracket nesting read in an assignment target list (`(A, (B, C)) = ...`).
const MAX_TARGET_NESTING: usize = 8;

/// Longest constant signature (`NAME = value`) before it is cut with `…`.
const MAX_CONSTANT_SIGNATURE: usize = 100;

pub fn parse(text: &str) -> Vec<Entry> {
    let spec = LexSpec {
        line_comments: &["#"],
        quotes: b"'\"",
        backslash_escapes: true,
        triple_quotes: true,
        ..LexSpec::default()
    };
    let masked = lex::mask(text, &spec);
    if masked.len() != text.len() {
        return Vec::new();
    }
    let src = Source {
        orig: text.as_bytes(),
        masked: masked.as_bytes(),
        masked_text: &masked,
        text,
        lines: LineIndex::new(text),
    };
    let logicals = logical_lines(&src);
    build(&src, &logicals)
}

/// The file in both forms, byte for byte aligned.
struct Source<'a> {
    orig: &'a [u8],
    masked: &'a [u8],
    masked_text: &'a str,
    text: &'a str,
    lines: LineIndex,
}

impl Source<'_> {
    /// Original text of `start..end` with comments dropped (strings kept as written).
    fn clean(&self, start: usize, end: usize) -> String {
        let end = end.min(self.orig.len());
        let start = start.min(end);
        let (Some(orig), Some(masked)) = (self.orig.get(start..end), self.masked.get(start..end))
        else {
            return String::new();
        };
        let mut out = Vec::with_capacity(orig.len());
        let mut quotes = QuoteState::default();
        let mut in_comment = false;
        let mut j = 0;
        while j < orig.len() {
            let (o, m) = (orig[j], masked[j]);
            if o == b'\n' {
                in_comment = false;
                quotes.newline(orig, j);
                out.push(o);
                j += 1;
                continue;
            }
            if in_comment {
                j += 1;
                continue;
            }
            if !quotes.inside() && o == b'#' && m == b' ' {
                in_comment = true;
                j += 1;
                continue;
            }
            let step = quotes.step(masked, j);
            if let Some(bytes) = orig.get(j..j + step) {
                out.extend_from_slice(bytes);
            }
            j += step;
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    fn slice(&self, start: usize, end: usize) -> &str {
        self.text.get(start..end).unwrap_or("")
    }
}

/// String state while walking masked text, where only the quote delimiters of strings remain.
#[derive(Default)]
struct QuoteState {
    /// The open string's quote byte and whether it is triple-quoted.
    open: Option<(u8, bool)>,
}

impl QuoteState {
    fn inside(&self) -> bool {
        self.open.is_some()
    }

    /// Consumes the token at `j` (not a newline) and returns how many bytes it spans.
    fn step(&mut self, masked: &[u8], j: usize) -> usize {
        let byte = masked.get(j).copied().unwrap_or(0);
        let tripled = |q: u8| masked.get(j + 1) == Some(&q) && masked.get(j + 2) == Some(&q);
        match self.open {
            Some((quote, true)) if byte == quote && tripled(quote) => {
                self.open = None;
                3
            }
            Some((quote, false)) if byte == quote => {
                self.open = None;
                1
            }
            Some(_) => 1,
            None if byte == b'"' || byte == b'\'' => {
                if tripled(byte) {
                    self.open = Some((byte, true));
                    3
                } else {
                    self.open = Some((byte, false));
                    1
                }
            }
            None => 1,
        }
    }

    /// At the newline `orig[j]`: a one-line string ends unless a backslash escapes the newline
    /// (the masker follows the same rule).
    fn newline(&mut self, orig: &[u8], j: usize) {
        if let Some((_, false)) = self.open {
            let backslashes = orig[..j].iter().rev().take_while(|b| **b == b'\\').count();
            if backslashes % 2 == 0 {
                self.open = None;
            }
        }
    }
}

/// One logical line: a statement start and every physical line that continues it.
#[derive(Debug, Clone, Copy)]
struct Logical {
    /// Offset of the first non-blank byte.
    start: usize,
    /// Offset just past the last byte (before the final newline).
    end: usize,
    line: usize,
    end_line: usize,
    /// Indentation column (tabs to the next multiple of 8, as Python counts them).
    indent: usize,
}

fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | b'\x0c')
}

/// Indentation column and offset of the first non-blank byte of the line at `start..end`.
fn indentation(masked: &[u8], start: usize, end: usize) -> (usize, usize) {
    let mut col = 0;
    let mut pos = start;
    if start == 0 && masked.starts_with("\u{feff}".as_bytes()) {
        pos = 3;
    }
    while pos < end {
        match masked.get(pos) {
            Some(b' ') => col += 1,
            Some(b'\t') => col = (col / 8 + 1) * 8,
            Some(b'\x0c') => col = 0,
            Some(b'\r') => {}
            _ => break,
        }
        pos += 1;
    }
    (col, pos)
}

/// Whether a line (masked, from its first non-blank byte) opens a `def` or `class`; such a line
/// never continues an expression, so it ends an unbalanced bracket.
fn starts_definition(rest: &[u8]) -> bool {
    let keyword = |word: &[u8]| {
        rest.starts_with(word)
            && rest
                .get(word.len())
                .is_some_and(|b| *b == b' ' || *b == b'\t')
    };
    keyword(b"def") || keyword(b"class") || keyword(b"async")
}

fn logical_lines(src: &Source) -> Vec<Logical> {
    let masked = src.masked;
    let mut out = Vec::new();
    let mut quotes = QuoteState::default();
    let mut depth = 0usize;
    let mut current: Option<Logical> = None;
    let mut line_start = 0;
    let mut line_no: usize = 1;
    while line_start < masked.len() {
        let line_end =
            memchr::memchr(b'\n', &masked[line_start..]).map_or(masked.len(), |n| line_start + n);
        let (indent, first) = indentation(masked, line_start, line_end);
        if let Some(open) = current {
            // Recovery: a bracket left open never swallows the next definition.
            if depth > 0
                && !quotes.inside()
                && masked.get(first..line_end).is_some_and(starts_definition)
            {
                let prev_end = line_start.saturating_sub(1);
                out.push(Logical {
                    end: prev_end,
                    ..open
                });
                current = None;
                depth = 0;
            }
        }
        if current.is_none() {
            if first >= line_end {
                line_start = line_end + 1;
                line_no += 1;
                continue;
            }
            current = Some(Logical {
                start: first,
                end: line_end,
                line: line_no,
                end_line: line_no,
                indent,
            });
        }
        let mut j = first;
        while j < line_end {
            if !quotes.inside() {
                match masked[j] {
                    b'(' | b'[' | b'{' => depth += 1,
                    b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                    _ => {}
                }
            }
            j += quotes.step(masked, j);
        }
        if line_end < masked.len() {
            quotes.newline(src.orig, line_end);
        }
        let last = masked[first.min(line_end)..line_end]
            .iter()
            .rev()
            .find(|b| !is_space(**b));
        if last.is_some() {
            if let Some(open) = current.as_mut() {
                // The last line with code: a comment line after a backslash adds nothing.
                open.end_line = line_no;
            }
        }
        let continues = quotes.inside() || depth > 0 || last == Some(&b'\\');
        if !continues {
            if let Some(open) = current.take() {
                out.push(Logical {
                    end: line_end,
                    ..open
                });
            }
        }
        line_start = line_end + 1;
        line_no += 1;
    }
    if let Some(open) = current {
        out.push(Logical {
            end: masked.len(),
            ..open
        });
    }
    out
}

/// A node of the tree under construction; `parent` indexes an earlier node.
struct Node {
    entry: Entry,
    parent: Option<usize>,
    is_class: bool,
}

/// An open `def`/`class` block.
struct Block {
    indent: usize,
    node: usize,
}

fn build(src: &Source, logicals: &[Logical]) -> Vec<Entry> {
    let mut nodes: Vec<Node> = Vec::new();
    let mut stack: Vec<Block> = Vec::new();
    let mut decorators: Vec<String> = Vec::new();
    let mut prev_end_line = 0;
    for logical in logicals {
        while let Some(top) = stack.last() {
            if top.indent < logical.indent {
                break;
            }
            if let Some(node) = nodes.get_mut(top.node) {
                node.entry.end_line = prev_end_line.max(node.entry.line);
            }
            stack.pop();
        }
        let scope = stack.last().map(|block| block.node);
        let in_class = scope
            .and_then(|n| nodes.get(n))
            .is_some_and(|node| node.is_class);
        let head_str = src
            .masked_text
            .get(logical.start..logical.end)
            .unwrap_or("");
        let head = head_str.as_bytes();
        prev_end_line = logical.end_line;
        if head.first() == Some(&b'@') {
            decorators.push(one_line(&src.clean(logical.start, logical.end)));
            continue;
        }
        let found = definition(src, logical, head_str, in_class, &decorators);
        decorators.clear();
        if let Some((entry, is_class)) = found {
            nodes.push(Node {
                entry,
                parent: scope,
                is_class,
            });
            stack.push(Block {
                indent: logical.indent,
                node: nodes.len() - 1,
            });
        } else if scope.is_none() {
            for entry in constants(src, logical) {
                nodes.push(Node {
                    entry,
                    parent: None,
                    is_class: false,
                });
            }
        }
    }
    for block in stack.drain(..) {
        if let Some(node) = nodes.get_mut(block.node) {
            node.entry.end_line = prev_end_line.max(node.entry.line);
        }
    }
    assemble(nodes)
}

/// Turns the flat node list into a tree, children in source order.
fn assemble(mut nodes: Vec<Node>) -> Vec<Entry> {
    let mut roots = Vec::new();
    while let Some(node) = nodes.pop() {
        let mut entry = node.entry;
        entry.children.reverse();
        match node.parent.and_then(|p| nodes.get_mut(p)) {
            Some(parent) => parent.entry.children.push(entry),
            None => roots.push(entry),
        }
    }
    roots.reverse();
    roots
}

/// Offset of the first `:` at bracket depth 0 in masked `bytes` from `from`.
fn header_colon(bytes: &[u8], from: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, byte) in bytes.iter().enumerate().skip(from) {
        match byte {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b':' if depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

/// A `def` or `class` entry for the logical line, with its decorators in the signature.
fn definition(
    src: &Source,
    logical: &Logical,
    head: &str,
    in_class: bool,
    decorators: &[String],
) -> Option<(Entry, bool)> {
    let (kind, name, is_async, is_class) =
        if let Some(caps) = DEF_RE.as_ref().and_then(|re| re.captures(head)) {
            let name = caps.get(2)?;
            let kind = if in_class {
                Kind::Method
            } else {
                Kind::Function
            };
            (kind, name, caps.get(1).is_some(), false)
        } else {
            let caps = CLASS_RE.as_ref()?.captures(head)?;
            (Kind::Class, caps.get(1)?, false, true)
        };
    let name_start = logical.start + name.start();
    let head_end = header_colon(head.as_bytes(), name.end())
        .map(|colon| logical.start + colon)
        .unwrap_or_else(|| {
            // No colon: a broken header; keep its first line.
            let rest = head.as_bytes().get(name.end()..).unwrap_or(&[]);
            let eol = memchr::memchr(b'\n', rest).map_or(rest.len(), |n| n);
            logical.start + name.end() + eol
        });
    let mut sig = String::new();
    for decorator in decorators {
        sig.push_str(decorator);
        sig.push(' ');
    }
    if is_async {
        sig.push_str("async ");
    }
    sig.push_str(&src.clean(name_start, head_end));
    let line = logical.line;
    let entry = Entry::new(kind, name.as_str(), line, logical.end_line.max(line))
        .with_signature(signature(&sig));
    Some((entry, is_class))
}

/// Module-level `NAME = ...`, `A = B = ...`, `A, B = ...`, `NAME: T = ...` and `NAME: T` with
/// UPPER_CASE names, one entry per name.
fn constants(src: &Source, logical: &Logical) -> Vec<Entry> {
    let mut out = Vec::new();
    let masked = src.masked;
    let first = masked.get(logical.start).copied().unwrap_or(0);
    let target_start = first.is_ascii_alphabetic() || first >= 0x80 || b"_([*".contains(&first);
    if !target_start {
        return out;
    }
    for (start, end) in statements(masked, logical.start, logical.end) {
        statement_constants(src, start, end, &mut out);
    }
    out
}

/// The `;`-separated statements of a logical line, as trimmed offset ranges.
fn statements(masked: &[u8], start: usize, end: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut from = start;
    let bytes = masked.get(start..end).unwrap_or(&[]);
    for (i, byte) in bytes.iter().enumerate() {
        match byte {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b';' if depth == 0 => {
                out.push((from, start + i));
                from = start + i + 1;
            }
            _ => {}
        }
    }
    out.push((from, end));
    out.into_iter()
        .filter_map(|(s, e)| trim_range(masked, s, e))
        .collect()
}

fn trim_range(masked: &[u8], mut start: usize, mut end: usize) -> Option<(usize, usize)> {
    while start < end && masked.get(start).is_some_and(|b| b.is_ascii_whitespace()) {
        start += 1;
    }
    while end > start && masked.get(end - 1).is_some_and(|b| b.is_ascii_whitespace()) {
        end -= 1;
    }
    (start < end).then_some((start, end))
}

/// Offsets of the assignment `=` signs at bracket depth 0 (not `==`, `<=`, `+=`, `:=`, ...).
fn assignment_signs(bytes: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    for (i, byte) in bytes.iter().enumerate() {
        match byte {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'=' if depth == 0 => {
                let prev = if i > 0 {
                    bytes.get(i - 1).copied()
                } else {
                    None
                };
                let next = bytes.get(i + 1).copied();
                let compound = prev.is_some_and(|p| b"=!<>:+-*/%&|^@~".contains(&p));
                if !compound && next != Some(b'=') {
                    out.push(i);
                }
            }
            _ => {}
        }
    }
    out
}

fn is_upper_constant(name: &str) -> bool {
    let rest = name.trim_start_matches('_');
    let mut chars = rest.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && rest.len() >= 2
        && rest
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

fn is_identifier(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_alphabetic())
        && chars.all(|c| c == '_' || c.is_alphanumeric())
}

/// The names a target list binds (`A`, `A, B`, `(A, *B)`), as offset ranges relative to
/// `bytes`; `None` when it is not a plain target list (attributes, subscripts, expressions).
fn target_names(bytes: &[u8], base: usize, out: &mut Vec<(usize, usize)>) -> bool {
    nested_target_names(bytes, base, out, 0)
}

/// [`target_names`] at bracket `nesting`; deep nesting is no plain target list.
fn nested_target_names(
    bytes: &[u8],
    base: usize,
    out: &mut Vec<(usize, usize)>,
    nesting: usize,
) -> bool {
    if nesting > MAX_TARGET_NESTING {
        return false;
    }
    let Some((start, end)) = trim_range(bytes, 0, bytes.len()) else {
        return false;
    };
    let inner = &bytes[start..end];
    if let (Some(b'(' | b'['), Some(b')' | b']')) = (inner.first(), inner.last()) {
        let items = inner.get(1..inner.len() - 1).unwrap_or(&[]);
        return split_items(items, base + start + 1, out, true, nesting);
    }
    split_items(inner, base + start, out, false, nesting)
}

fn split_items(
    bytes: &[u8],
    base: usize,
    out: &mut Vec<(usize, usize)>,
    bracketed: bool,
    nesting: usize,
) -> bool {
    let mut depth = 0usize;
    let mut from = 0;
    let mut items = Vec::new();
    for (i, byte) in bytes.iter().enumerate() {
        match byte {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                items.push((from, i));
                from = i + 1;
            }
            _ => {}
        }
    }
    items.push((from, bytes.len()));
    let several = items.len() > 1;
    for (s, e) in items {
        let Some((s, e)) = trim_range(bytes, s, e) else {
            if several || bracketed {
                continue; // trailing comma, `()`
            }
            return false;
        };
        let mut item = &bytes[s..e];
        let mut offset = s;
        if item.first() == Some(&b'*') {
            item = &item[1..];
            offset += 1;
            let skip = item.iter().take_while(|b| b.is_ascii_whitespace()).count();
            item = &item[skip..];
            offset += skip;
        }
        if matches!(item.first(), Some(b'(' | b'[')) {
            if !nested_target_names(item, base + offset, out, nesting + 1) {
                return false;
            }
        } else if is_identifier(item) {
            out.push((base + offset, base + offset + item.len()));
        } else {
            return false;
        }
    }
    true
}

fn statement_constants(src: &Source, start: usize, end: usize, out: &mut Vec<Entry>) {
    let Some(bytes) = src.masked.get(start..end) else {
        return;
    };
    let signs = assignment_signs(bytes);
    let mut names: Vec<(usize, usize)> = Vec::new();
    let first_target_end = signs.first().copied().unwrap_or(bytes.len());
    // `NAME: annotation` (with or without a value) binds exactly one name.
    let first = &bytes[..first_target_end];
    if let Some(colon) = header_colon(first, 0) {
        let name = trim_range(first, 0, colon);
        let annotated = trim_range(first, colon + 1, first.len()).is_some();
        if let (Some((s, e)), true) = (name, annotated) {
            if is_identifier(&first[s..e]) {
                names.push((start + s, start + e));
            }
        }
    } else if !signs.is_empty() {
        let mut from = 0;
        for sign in &signs {
            let mut found = Vec::new();
            if !target_names(&bytes[from..*sign], start + from, &mut found) {
                break;
            }
            names.extend(found);
            from = sign + 1;
        }
    }
    if names.is_empty() {
        return;
    }
    let end_line = src.lines.line_of(end.saturating_sub(1));
    // The statement is the signature when it binds one name; with several (`A, B = 1, 2`,
    // `A = B = 1`) it would label each of them the same, so the name alone is clearer.
    let sig = if names.len() == 1 {
        let statement = one_line(&src.clean(start, end));
        match statement.char_indices().nth(MAX_CONSTANT_SIGNATURE) {
            Some((cut, _)) => format!("{}…", statement[..cut].trim_end()),
            None => statement,
        }
    } else {
        String::new()
    };
    for (s, e) in names {
        let name = src.slice(s, e);
        if !is_upper_constant(name) {
            continue;
        }
        let line = src.lines.line_of(s);
        out.push(
            Entry::new(Kind::Constant, name, line, end_line.max(line))
                .with_signature(signature(&sig)),
        );
    }
}

#[cfg(test)]
mod tests;
