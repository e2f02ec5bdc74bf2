//! Data files: JSON (with comments), YAML and TOML.
//!
//! Every key becomes a [`Kind::Key`] entry named by the key (unquoted) whose signature shows a
//! summary of its value: `provider: {3 keys}`, `models: [12 items]`, `port: 8080`. Objects and
//! mappings nest; the keys of objects inside arrays hang directly under the array's key (array
//! elements get no entries of their own). TOML tables are [`Kind::Table`] /
//! [`Kind::ArrayTable`] entries holding their keys.
//!
//! The scanners are hand-written, tolerant and iterative: broken input yields the structure seen
//! so far, nesting is tracked on an explicit stack, and entries deeper than [`MAX_DEPTH`] are not
//! listed (their ancestors still get their counts and end lines).

use crate::lang::Language;
use crate::outline::{Entry, Kind};
use crate::parse::{one_line, signature, LineIndex, MAX_SIGNATURE_CHARS};
use compact_str::CompactString;

mod flow;
mod json;
mod lexical;
mod toml;
mod yaml;

/// Deepest key nesting that is listed; deeper keys only count toward their ancestors.
pub const MAX_DEPTH: usize = 256;
/// Longest value shown in a signature before it is cut with `…`.
const MAX_VALUE_CHARS: usize = 40;

pub fn parse(text: &str, language: Language) -> Vec<Entry> {
    match language {
        Language::Json => json::parse(text),
        Language::Yaml => yaml::parse(text),
        Language::Toml => toml::parse(text),
        _ => Vec::new(),
    }
}

/// Where a new entry goes: the top level, under an entry, or nowhere (too deep to list).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Parent {
    Root,
    Node(usize),
    Hidden,
}

impl Parent {
    fn node(self) -> Option<usize> {
        match self {
            Parent::Node(index) => Some(index),
            _ => None,
        }
    }
}

/// What a key's value turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Value {
    /// Nothing seen (YAML `key:` with no value, broken input).
    Unset,
    /// The value's text is `start..end` of the document; shown through [`push_preview`].
    Scalar {
        start: usize,
        end: usize,
    },
    Object,
    Array,
}

#[derive(Debug)]
struct Node {
    kind: Kind,
    name: CompactString,
    line: usize,
    end: usize,
    parent: Option<usize>,
    depth: usize,
    value: Value,
    /// Keys of an object value / items of an array value.
    count: usize,
    /// YAML node properties written before the value (`&anchor`, `!tag`); rare, so boxed:
    /// a node is copied into the arena once per key, and a small one copies without a call.
    props: Option<Box<str>>,
    /// A TOML table header's brackets (1 for `[a]`, 2 for `[[a]]`), 0 for a key: a header's
    /// signature is its name in brackets.
    brackets: u8,
}

/// The entries of one file under construction, as a flat arena with parent links.
struct Doc<'a> {
    text: &'a str,
    bytes: &'a [u8],
    lines: LineIndex,
    /// Index into `lines` of the last answer: the scanners ask mostly in file order, so the
    /// next answer is nearly always that line or the next, found without a binary search.
    last_line: std::cell::Cell<usize>,
    nodes: Vec<Node>,
}

impl<'a> Doc<'a> {
    fn new(text: &'a str) -> Doc<'a> {
        Doc {
            text,
            bytes: text.as_bytes(),
            lines: LineIndex::new(text),
            last_line: std::cell::Cell::new(0),
            nodes: Vec::new(),
        }
    }

    fn line(&self, offset: usize) -> usize {
        let line = self.lines.line_of_near(offset, self.last_line.get());
        self.last_line.set(line);
        line
    }

    /// The line of the last byte of `start..end` (of `start` when empty).
    fn end_line(&self, start: usize, end: usize) -> usize {
        self.line(end.saturating_sub(1).max(start))
    }

    /// `start..end` of the text, empty when out of range or not on char boundaries.
    fn slice(&self, start: usize, end: usize) -> &'a str {
        self.text.get(start..end.min(self.text.len())).unwrap_or("")
    }

    /// Adds a key-like entry under `parent`; returns where its own children go.
    fn add(&mut self, parent: Parent, kind: Kind, name: CompactString, line: usize) -> Parent {
        let (parent, depth) = match parent {
            Parent::Hidden => return Parent::Hidden,
            Parent::Root => (None, 1),
            Parent::Node(index) => (
                Some(index),
                self.nodes.get(index).map_or(1, |node| node.depth + 1),
            ),
        };
        if depth > MAX_DEPTH {
            return Parent::Hidden;
        }
        // Each node becomes an entry: counted now, so the arena is bounded too.
        super::budget::count(line);
        self.nodes.push(Node {
            kind,
            name,
            line,
            end: line,
            parent,
            depth,
            value: Value::Unset,
            count: 0,
            props: None,
            brackets: 0,
        });
        Parent::Node(self.nodes.len() - 1)
    }

    fn node_mut(&mut self, parent: Parent) -> Option<&mut Node> {
        parent.node().and_then(|index| self.nodes.get_mut(index))
    }

    fn set_end(&mut self, parent: Parent, line: usize) {
        if let Some(node) = self.node_mut(parent) {
            node.end = node.end.max(line);
        }
    }

    /// Records a scalar value `start..end` for the key at `parent`.
    fn set_scalar(&mut self, parent: Parent, start: usize, end: usize) {
        if parent.node().is_none() {
            return;
        }
        let line = self.end_line(start, end);
        if let Some(node) = self.node_mut(parent) {
            node.value = Value::Scalar { start, end };
            node.end = node.end.max(line);
        }
    }

    /// Builds the entry tree; its entries were counted as nodes (see [`Doc::add`]).
    fn finish(self) -> Vec<Entry> {
        super::budget::uncounted(|| self.build())
    }

    /// Builds the entry tree (iteratively: children always come after their parent).
    fn build(self) -> Vec<Entry> {
        let text = self.text;
        // Each node's children, pushed last first; sized up front, since data files have an
        // entry per line and growing these vectors one push at a time was a tenth of the work.
        let mut child_counts = vec![0u32; self.nodes.len()];
        let mut root_count = 0;
        for node in &self.nodes {
            match node.parent.and_then(|parent| child_counts.get_mut(parent)) {
                Some(count) => *count += 1,
                None => root_count += 1,
            }
        }
        let mut kids: Vec<Vec<Entry>> = child_counts
            .into_iter()
            .map(|count| Vec::with_capacity(count as usize))
            .collect();
        let mut roots = Vec::with_capacity(root_count);
        // Every key's signature is put together here first, then kept in a CompactString,
        // inline when short: no allocation per key for most of them.
        let mut scratch = String::new();
        for (index, node) in self.nodes.into_iter().enumerate().rev() {
            let plain = match node.brackets {
                0 => key_signature(&node, text, &mut scratch),
                brackets => table_signature(&node.name, brackets, &mut scratch),
            };
            let sig = shaped(&scratch, plain);
            let mut children = kids.get_mut(index).map(std::mem::take).unwrap_or_default();
            children.reverse();
            // Filled in place: the by-value builders copy the whole entry at each step.
            let mut entry = Entry::new(node.kind, node.name, node.line, node.end);
            entry.signature = (!sig.is_empty()).then_some(sig);
            entry.children = children;
            match node.parent.and_then(|parent| kids.get_mut(parent)) {
                Some(siblings) => siblings.push(entry),
                None => roots.push(entry),
            }
        }
        roots.reverse();
        roots
    }
}

/// Writes into `sig` (cleared first) `name: value`, the value summarised (`{3 keys}`,
/// `[1 item]`), properties before it; `text` is the document's. Returns whether the result
/// passes [`is_one_line`], judged part by part, so that the whole is not read again.
fn key_signature(node: &Node, text: &str, sig: &mut String) -> bool {
    let props = node.props.as_deref().unwrap_or("");
    let mut plain = is_one_line(&node.name) && (props.is_empty() || is_one_line(props));
    sig.clear();
    sig.push_str(&node.name);
    sig.push(':');
    if !props.is_empty() {
        sig.push(' ');
        sig.push_str(props);
    }
    let summary = |sig: &mut String, open: char, count: usize, one: &str, many: &str| {
        sig.push(' ');
        sig.push(open);
        if count > 0 {
            sig.push_str(itoa::Buffer::new().format(count));
            sig.push(' ');
            sig.push_str(if count == 1 { one } else { many });
        }
        sig.push(if open == '{' { '}' } else { ']' });
    };
    match &node.value {
        Value::Unset => {}
        Value::Scalar { start, end } => {
            let raw = text.get(*start..(*end).min(text.len())).unwrap_or("");
            let bare = sig.len();
            sig.push(' ');
            plain &= push_preview(sig, raw);
            if sig.len() == bare + 1 {
                sig.truncate(bare);
            }
        }
        Value::Object => summary(sig, '{', node.count, "key", "keys"),
        Value::Array => summary(sig, '[', node.count, "item", "items"),
    }
    plain
}

/// Writes into `sig` (cleared first) a TOML table's header, `name` in `brackets` pairs of
/// brackets (`[a.b]`, `[[a.b]]`). Returns whether it passes [`is_one_line`].
fn table_signature(name: &str, brackets: u8, sig: &mut String) -> bool {
    let brackets = usize::from(brackets);
    sig.clear();
    sig.extend(std::iter::repeat_n('[', brackets));
    sig.push_str(name);
    sig.extend(std::iter::repeat_n(']', brackets));
    is_one_line(sig)
}

/// `sig` shaped by [`signature`], which leaves most key signatures as they are: short, words
/// apart by single spaces (`one_line`, which the caller judged), no opening bracket at the
/// end. Those skip it.
fn shaped(sig: &str, one_line: bool) -> CompactString {
    let plain = one_line && sig.len() <= MAX_SIGNATURE_CHARS && !sig.ends_with(['{', '[', '(']);
    if plain {
        CompactString::from(sig)
    } else {
        CompactString::from(signature(sig))
    }
}

/// Whether `bytes` has no space at either end, no two spaces in a row, and no byte that
/// `breaks` (a line break, a tab, …). One pass, no set-up: this runs on every key's name,
/// value and signature.
fn single_spaced(bytes: &[u8], breaks: impl Fn(u8) -> bool) -> bool {
    let mut after_space = true;
    for &byte in bytes {
        if byte == b' ' {
            if after_space {
                return false;
            }
            after_space = true;
        } else if breaks(byte) {
            return false;
        } else {
            after_space = false;
        }
    }
    !after_space || bytes.is_empty()
}

/// Appends a value as shown in a signature: one line, at most [`MAX_VALUE_CHARS`] characters.
/// Returns whether what it appended passes [`is_one_line`].
fn push_preview(sig: &mut String, raw: &str) -> bool {
    // Most values are short single words: no need to rebuild them. The first test is the
    // stricter one (a vertical tab fails it), so that one pass over most values answers both
    // questions.
    let short = raw.len() <= MAX_VALUE_CHARS;
    if short && single_spaced(raw.as_bytes(), |b| matches!(b, b'\t'..=b'\r')) {
        sig.push_str(raw);
        return raw.is_ascii() || !has_unicode_whitespace(raw);
    }
    if short && single_spaced(raw.as_bytes(), |b| b.is_ascii_whitespace()) {
        // Kept as written, vertical tab and all: the signature is then reshaped whole.
        sig.push_str(raw);
        return false;
    }
    // Look at a bounded prefix only: a value may be a megabyte-long string. A short prefix
    // nearly always joins to more characters than are shown (URLs, hashes, prose); only one
    // that joins shorter (runs of whitespace) is read further. Joining a prefix yields a prefix
    // of the longer join up to its last word, so both give the same preview.
    for limit in [MAX_VALUE_CHARS * 2, MAX_VALUE_CHARS * 8] {
        let mut cut = raw.len().min(limit);
        while !raw.is_char_boundary(cut) {
            cut -= 1;
        }
        let joined = one_line(raw.get(..cut).unwrap_or(""));
        // Joined text has no whitespace but single spaces between words: it is one line.
        if let Some((at, _)) = joined.char_indices().nth(MAX_VALUE_CHARS) {
            sig.push_str(joined.get(..at).unwrap_or("").trim_end());
            sig.push('…');
            return true;
        }
        if cut == raw.len() || limit == MAX_VALUE_CHARS * 8 {
            sig.push_str(&joined);
            if cut < raw.len() {
                sig.push('…');
            }
            return true;
        }
    }
    true
}

/// Collapses whitespace runs in a key name to single spaces.
fn clean_name(raw: &str) -> CompactString {
    if is_one_line(raw) {
        return CompactString::from(raw);
    }
    CompactString::from(one_line(raw))
}

/// Whether [`one_line`] would leave `text` as it is: words apart by single spaces, no other
/// whitespace. Most key names and values are, and skip it.
fn is_one_line(text: &str) -> bool {
    // Tab, line feed, vertical tab, form feed, carriage return.
    single_spaced(text.as_bytes(), |b| matches!(b, b'\t'..=b'\r'))
        && (text.is_ascii() || !has_unicode_whitespace(text))
}

/// Whitespace beyond ASCII (no-break space, ideographic space, …), which [`one_line`] also
/// collapses.
fn has_unicode_whitespace(text: &str) -> bool {
    text.chars().any(|c| !c.is_ascii() && c.is_whitespace())
}

#[cfg(test)]
mod tests;
