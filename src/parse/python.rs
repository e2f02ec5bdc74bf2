//! Python outline scanner: classes, functions and methods (decorators and `async` in the
//! signature), and module-level assignments (UPPER_CASE names as constants, others as variables).
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

mod constants;
pub(crate) mod fstrings;

/// `def name` / `async def name` at the start of a logical line (masked text); a backslash
/// line splice is a blank like any other.
static DEF_RE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"^(async(?:[ \t\f]|\\\r?\n)+)?def(?:[ \t\f]|\\\r?\n)+([^\W\d]\w*)").ok()
});
/// `class Name` at the start of a logical line (masked text).
static CLASS_RE: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"^class(?:[ \t\f]|\\\r?\n)+([^\W\d]\w*)").ok());

/// Python's comments and literals (string prefixes are read by the triple-quote rules).
pub(crate) const SPEC: LexSpec = LexSpec {
    line_comments: &["#"],
    quotes: b"'\"",
    backslash_escapes: true,
    triple_quotes: true,
    ..LexSpec::NONE
};

pub(crate) fn parse(text: &str) -> Vec<Entry> {
    let masked = lex::mask(text, &SPEC);
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
        let mut j = 0;
        while j < orig.len() {
            // Bytes that are no line break, no `#` and no quote delimiter (in the masked
            // text) are copied as they are, in one run.
            let plain = orig[j..]
                .iter()
                .zip(&masked[j..])
                .position(|(o, m)| matches!(o, b'\n' | b'#') || matches!(m, b'"' | b'\''));
            let run_end = plain.map_or(orig.len(), |n| j + n);
            out.extend_from_slice(&orig[j..run_end]);
            j = run_end;
            let (Some(&o), Some(&m)) = (orig.get(j), masked.get(j)) else {
                break;
            };
            if o == b'\n' {
                quotes.newline(orig, j);
                out.push(o);
                j += 1;
                continue;
            }
            if !quotes.inside() && o == b'#' && m == b' ' {
                // A comment: dropped up to its line break.
                j = memchr::memchr(b'\n', &orig[j..]).map_or(orig.len(), |n| j + n);
                continue;
            }
            let step = quotes.step(masked, j);
            if let Some(bytes) = orig.get(j..j + step) {
                out.extend_from_slice(bytes);
            }
            j += step;
        }
        String::from_utf8(out)
            .unwrap_or_else(|err| String::from_utf8_lossy(err.as_bytes()).into_owned())
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
            // The line break of a `\r\n` starts at its `\r`.
            let line = orig.get(..j).unwrap_or(&[]);
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let backslashes = line.iter().rev().take_while(|b| **b == b'\\').count();
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
        depth = bracket_depth_after(masked, first, line_end, &mut quotes, depth);
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

/// The bracket depth after the masked line `from..to`, from `depth` before it; brackets in
/// strings (whose quotes `quotes` follows across lines) do not count.
fn bracket_depth_after(
    masked: &[u8],
    from: usize,
    to: usize,
    quotes: &mut QuoteState,
    mut depth: usize,
) -> usize {
    let line = masked.get(..to).unwrap_or(masked);
    let mut j = from;
    while j < to {
        // Only brackets and quotes matter in code, only the closing quote in a string: the
        // bytes between are passed eight at a time or by memchr.
        let next = match quotes.open {
            None => line
                .get(j..)
                .and_then(|rest| lex::find_lane(rest, bracket_or_quote_lanes)),
            Some((quote, _)) => line.get(j..).and_then(|rest| memchr::memchr(quote, rest)),
        };
        let Some(n) = next else { break };
        j += n;
        if !quotes.inside() {
            match masked[j] {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        j += quotes.step(masked, j);
    }
    depth
}

/// `0x80` in the lanes of `word` holding a bracket or a quote (`[{` and `]}` differ only in
/// bit 5, `(` and `)` in bit 0).
fn bracket_or_quote_lanes(word: u64) -> u64 {
    let folded = word | lex::splat(0x20);
    lex::zero_lanes(folded ^ lex::splat(b'{'))
        | lex::zero_lanes(folded ^ lex::splat(b'}'))
        | lex::zero_lanes((word & lex::splat(0xfe)) ^ lex::splat(b'('))
        | lex::zero_lanes(word ^ lex::splat(b'"'))
        | lex::zero_lanes(word ^ lex::splat(b'\''))
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
            decorators.push(decorator_label(&one_line(
                &src.clean(logical.start, logical.end),
            )));
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
        } else if scope.is_none() || in_class {
            // Module-level bindings, and a class body's own (`context_class: type[Context] =
            // Context`, dataclass fields, enum members), which a lookup asks for by name.
            for mut entry in constants::constants(src, logical) {
                if in_class && entry.kind == Kind::Variable {
                    entry.kind = Kind::Property;
                }
                nodes.push(Node {
                    entry,
                    parent: scope,
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

/// Longest decorator shown in full in a signature; longer ones keep their name (`@name(…)`),
/// so that the signature still reaches the function's own name.
const MAX_DECORATOR_CHARS: usize = 60;

fn decorator_label(text: &str) -> String {
    if text.chars().count() <= MAX_DECORATOR_CHARS {
        return text.to_string();
    }
    match text.find('(') {
        Some(paren) if paren <= MAX_DECORATOR_CHARS => format!("{}(…)", text[..paren].trim_end()),
        _ => {
            let cut = text
                .char_indices()
                .nth(MAX_DECORATOR_CHARS)
                .map_or(text.len(), |(i, _)| i);
            format!("{}…", &text[..cut])
        }
    }
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

/// The keyword a definition's logical line opens with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opener {
    Def,
    AsyncDef,
    Class,
}

/// A definition's head: its keyword and its name's byte range in the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Head {
    keyword: Opener,
    name: (usize, usize),
}

/// What [`DEF_RE`] and [`CLASS_RE`] find at the start of a masked logical line, read byte by
/// byte: most lines open no definition and are told by their first bytes, without a regex
/// search. A name that meets a non-ASCII character is left to the regexes, which know
/// Unicode's word characters.
fn opener(head: &str) -> Option<Head> {
    let bytes = head.as_bytes();
    let after_blanks = |from: usize| {
        let blanks = blanks_and_splices(bytes.get(from..)?);
        (blanks > 0).then_some(from + blanks)
    };
    let (keyword, name_start) = if bytes.starts_with(b"def") {
        (Opener::Def, after_blanks(3)?)
    } else if bytes.starts_with(b"class") {
        (Opener::Class, after_blanks(5)?)
    } else if bytes.starts_with(b"async") {
        let def = after_blanks(5)?;
        if !bytes.get(def..)?.starts_with(b"def") {
            return None;
        }
        (Opener::AsyncDef, after_blanks(def + 3)?)
    } else {
        return None;
    };
    let first = *bytes.get(name_start)?;
    if first >= 0x80 {
        return opener_by_regex(head);
    }
    if !(first.is_ascii_alphabetic() || first == b'_') {
        return None;
    }
    let rest = bytes.get(name_start..)?;
    let len = rest
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    if rest.get(len).is_some_and(|b| *b >= 0x80) {
        return opener_by_regex(head);
    }
    Some(Head {
        keyword,
        name: (name_start, name_start + len),
    })
}

/// How many bytes at the start of `bytes` are blanks, backslash line splices (`def \`, the
/// name on the next line) counted as blanks.
fn blanks_and_splices(bytes: &[u8]) -> usize {
    let mut at = 0;
    loop {
        match bytes.get(at..).unwrap_or(&[]) {
            [b' ' | b'\t' | b'\x0c', ..] => at += 1,
            [b'\\', b'\n', ..] => at += 2,
            [b'\\', b'\r', b'\n', ..] => at += 3,
            _ => return at,
        }
    }
}

/// [`opener`] by the regexes, for names with non-ASCII characters.
fn opener_by_regex(head: &str) -> Option<Head> {
    if let Some(caps) = DEF_RE.as_ref().and_then(|re| re.captures(head)) {
        let name = caps.get(2)?;
        let keyword = if caps.get(1).is_some() {
            Opener::AsyncDef
        } else {
            Opener::Def
        };
        return Some(Head {
            keyword,
            name: (name.start(), name.end()),
        });
    }
    let name = CLASS_RE.as_ref()?.captures(head)?.get(1)?;
    Some(Head {
        keyword: Opener::Class,
        name: (name.start(), name.end()),
    })
}

/// A `def` or `class` entry for the logical line, with its decorators in the signature.
fn definition(
    src: &Source,
    logical: &Logical,
    head: &str,
    in_class: bool,
    decorators: &[String],
) -> Option<(Entry, bool)> {
    let opener = opener(head)?;
    let (kind, is_class) = match opener.keyword {
        Opener::Class => (Kind::Class, true),
        _ if in_class => (Kind::Method, false),
        _ => (Kind::Function, false),
    };
    let is_async = opener.keyword == Opener::AsyncDef;
    let name = head.get(opener.name.0..opener.name.1)?;
    let name_end = opener.name.1;
    let name_start = logical.start + opener.name.0;
    let head_end = header_colon(head.as_bytes(), name_end)
        .map(|colon| logical.start + colon)
        .unwrap_or_else(|| {
            // No colon: a broken header; keep its first line.
            let rest = head.as_bytes().get(name_end..).unwrap_or(&[]);
            let eol = memchr::memchr(b'\n', rest).map_or(rest.len(), |n| n);
            logical.start + name_end + eol
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
    let entry =
        Entry::new(kind, name, line, logical.end_line.max(line)).with_signature(signature(&sig));
    Some((entry, is_class))
}

#[cfg(test)]
mod tests;
