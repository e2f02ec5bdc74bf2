//! JSON wire types of `--print --json`: serialize-only views of the model, exactly the contract
//! in docs (README "JSON output"). A file gives one [`FileObject`]; a directory gives one per
//! line (JSON Lines), sorted by path.

pub mod contract;
mod writer;

use crate::outline::select::{Selection, Shown};
use crate::outline::{CompactString, Entry, Outline};
use serde::Serialize;

/// One outlined file.
#[derive(Debug, Serialize)]
pub struct FileObject<'a> {
    /// The path as given, joined with the file's path below it in directory mode.
    pub path: String,
    /// Language name (`python`, `cpp`, ...).
    pub language: &'static str,
    /// Lines in the file (a last line without newline counts).
    pub lines: usize,
    /// Size on disk in bytes (of the encoded file, not of the decoded text).
    pub bytes: usize,
    /// Content hash of the file's bytes (`xxh3:` + 16 hex digits); `--if-hash` checks it.
    pub hash: &'a str,
    /// `--tokens`: tokens in the whole file, and the encoding that counted them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokenizer: Option<&'static str>,
    /// `--diff`: present (always `true`) when the file differs from HEAD.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changed: Option<bool>,
    /// Top-level entries and, nested, everything the caps let through.
    pub entries: Nodes<'a>,
    /// Present (always `true`) when the node budget ran out before every top-level entry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated: Option<bool>,
    /// `"max_nodes"` whenever `truncated` is present.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncation_reason: Option<&'static str>,
    /// Top-level entries left out by the node budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub omitted: Option<usize>,
    /// Set when the file was too large to outline whole: what was outlined.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_limit: Option<&'a str>,
}

/// One entry.
#[derive(Debug, Serialize)]
pub struct Node<'a> {
    /// Positional id: `1.2` is the 2nd child of the 1st root.
    #[serde(serialize_with = "str_of")]
    pub id: CompactString,
    /// `class`, `function`, `method`, `heading`, `key`, ... (snake_case).
    pub kind: &'static str,
    pub name: &'a str,
    /// Ancestors' names and this name joined with `.`.
    pub qualname: &'a str,
    /// The declaration on one line, when known and signatures are on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<&'a str>,
    /// Markdown heading level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// First line, 1-based.
    pub line: usize,
    /// Last line, inclusive.
    pub end_line: usize,
    /// Where the doc comments, comments, attributes and decorators written directly above the
    /// entry start; present only when that is before `line`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc_line: Option<usize>,
    /// `--tokens`: tokens of lines `line..=end_line`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<usize>,
    /// `--diff`: present (always `true`) on entries holding a change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changed: Option<bool>,
    /// `--preview N`: the source lines after `line`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preview: Option<Vec<&'a str>>,
    /// Present (even empty) exactly when this node was expanded: then it lists all children.
    /// Absent means a cap cut the node: unknown, never empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub children: Option<Nodes<'a>>,
    /// Present (always `true`) only on a node a cap cut, with `truncation_reason`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated: Option<bool>,
    /// `"max_depth"` or `"max_nodes"` (the latter when both apply), or `"max_nesting"` when the
    /// parser itself did not list the children (its nesting limit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncation_reason: Option<&'static str>,
}

fn str_of<S: serde::Serializer>(text: &CompactString, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(text)
}

/// A list of nodes, each built when the serializer reaches it: a directory's JSON is written
/// without first copying every shown entry into a tree of its own.
#[derive(Debug, Clone)]
pub struct Nodes<'a> {
    shown: &'a [Shown<'a>],
    options: NodeOptions<'a>,
    ids: Ids<'a>,
}

/// Where the nodes' positional ids come from: ids are not stored in the model, but made from
/// each entry's place among its siblings, under its parent's id.
#[derive(Debug, Clone)]
enum Ids<'a> {
    /// The nodes are entries of this outline, anywhere in it (a symbol's subtree, a type's
    /// members): it finds their places.
    Outline(&'a Outline),
    /// The nodes are the children of the entry with this id.
    Under(CompactString),
}

impl Ids<'_> {
    fn of(&self, entry: &Entry) -> CompactString {
        match self {
            Ids::Outline(outline) => outline.id_of(entry).unwrap_or_default(),
            Ids::Under(parent) => crate::outline::child_id(parent, entry),
        }
    }
}

impl Nodes<'_> {
    const NONE: Nodes<'static> = Nodes {
        shown: &[],
        options: NodeOptions {
            signatures: false,
            preview: 0,
            lines: &[],
        },
        ids: Ids::Under(CompactString::const_new("")),
    };
}

impl Serialize for Nodes<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(
            self.shown
                .iter()
                .map(|shown| node(shown, self.options, self.ids.of(shown.entry))),
        )
    }
}

/// Options that change what a node carries.
#[derive(Debug, Clone, Copy)]
pub struct NodeOptions<'t> {
    pub signatures: bool,
    pub preview: usize,
    /// The file's lines, for previews.
    pub lines: &'t [&'t str],
}

impl FileObject<'_> {
    /// This object as one line of JSON Lines (newline included), in a buffer sized for it.
    pub(crate) fn json_line(&self) -> Vec<u8> {
        let mut line = Vec::with_capacity(self.size_hint());
        self.write_json(&mut line);
        line.push(b'\n');
        line
    }

    /// About how many bytes this object takes as JSON (a node is mostly 100 to 250), to size
    /// the buffer it is written into.
    fn size_hint(&self) -> usize {
        fn count(shown: &[Shown]) -> usize {
            shown
                .iter()
                .map(|s| 1 + s.children.as_deref().map_or(0, count))
                .sum()
        }
        256 + self.path.len() + 192 * count(self.entries.shown)
    }
}

/// Builds the wire object for one file.
pub fn file_object<'a>(
    path: String,
    hash: &'a str,
    outline: &'a Outline,
    selection: &'a Selection<'a>,
    options: NodeOptions<'a>,
) -> FileObject<'a> {
    let cut = selection.omitted > 0;
    FileObject {
        path,
        language: outline.language.name(),
        lines: outline.lines,
        bytes: outline.bytes,
        hash,
        tokens: outline.tokens.map(|(tokens, _)| tokens),
        tokenizer: outline.tokens.map(|(_, name)| name),
        changed: outline.is_changed().then_some(true),
        entries: Nodes {
            shown: &selection.roots,
            options,
            ids: Ids::Outline(outline),
        },
        truncated: cut.then_some(true),
        truncation_reason: cut.then_some("max_nodes"),
        omitted: cut.then_some(selection.omitted),
        input_limit: outline.limit.as_ref().map(|limit| limit.reason.as_str()),
    }
}

fn node<'a>(shown: &'a Shown<'a>, options: NodeOptions<'a>, id: CompactString) -> Node<'a> {
    let entry = shown.entry;
    let preview =
        (options.preview > 0).then(|| super::preview_lines(entry, options.lines, options.preview));
    let children = shown.children.as_ref().map(|children| Nodes {
        shown: children,
        options,
        ids: Ids::Under(id.clone()),
    });
    Node {
        id,
        kind: entry.kind.as_str(),
        name: entry.name(),
        qualname: entry.qualname(),
        signature: entry.signature.as_deref().filter(|_| options.signatures),
        level: entry.level,
        line: entry.line,
        end_line: entry.end_line,
        doc_line: entry.has_docs().then_some(entry.doc_line),
        tokens: entry.tokens.map(|tokens| tokens as usize),
        changed: entry.changed.then_some(true),
        preview,
        children,
        truncated: shown.cut.map(|_| true),
        truncation_reason: shown.cut.map(|cut| cut.as_str()),
    }
}

/// `--symbol`, `--lines` and `--read` with `--json`: the text read and where it came from.
#[derive(Debug, Serialize)]
pub struct ReadObject<'a> {
    pub path: String,
    /// Language name, absent for a file without a parser.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<&'static str>,
    /// Lines in the whole file (counted over all of it, also past the read cap).
    pub lines: usize,
    pub hash: &'a str,
    /// First and last line of `text` (0 and 0 when no line was read).
    pub start_line: usize,
    pub end_line: usize,
    /// `--symbol` and `--lines`: the lines as written, `start_line` to `end_line`. `--read`:
    /// each line as `<n>: <text>`, with the outline block and notes between head and tail.
    pub text: &'a str,
    /// `--read` of a long file: the first and last line left out between head and tail.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub omitted: Option<[usize; 2]>,
    /// `--lines` clamped into the file or cut at the read cap: what happened, one note a line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<&'a str>,
    /// `--symbol`: the entry read (its children are not listed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node: Option<Node<'a>>,
    /// Set when the file was too large to outline whole: what was outlined (as in
    /// [`FileObject`]), so entries past that point are known to be missing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_limit: Option<&'a str>,
}

impl<'a> ReadObject<'a> {
    pub(crate) fn new(
        input: &'a crate::document::Document,
        start_line: usize,
        end_line: usize,
        text: &'a str,
    ) -> ReadObject<'a> {
        ReadObject {
            path: input.path.display().to_string(),
            language: input.outline.as_ref().map(|o| o.language.name()),
            lines: input.extent.lines,
            hash: &input.hash,
            start_line,
            end_line,
            text,
            omitted: None,
            note: None,
            node: None,
            input_limit: input
                .outline
                .as_ref()
                .and_then(|outline| outline.limit.as_ref())
                .map(|limit| limit.reason.as_str()),
        }
    }
}

impl<'a> Node<'a> {
    /// The entry alone, without its children (`--symbol` reads the body, not the subtree);
    /// marked as cut by depth when it has children, or by the parser's nesting limit, so the
    /// contract still holds.
    /// `id` is the entry's positional id ([`Outline::id_of`]).
    pub fn leaf(entry: &'a Entry, id: CompactString, signatures: bool) -> Node<'a> {
        let cut = match entry.truncated {
            Some(truncation) => Some(truncation.as_str()),
            None => (!entry.children.is_empty()).then_some("max_depth"),
        };
        Node {
            id,
            kind: entry.kind.as_str(),
            name: entry.name(),
            qualname: entry.qualname(),
            signature: entry.signature.as_deref().filter(|_| signatures),
            level: entry.level,
            line: entry.line,
            end_line: entry.end_line,
            doc_line: entry.has_docs().then_some(entry.doc_line),
            tokens: entry.tokens.map(|tokens| tokens as usize),
            changed: entry.changed.then_some(true),
            preview: None,
            children: cut.is_none().then_some(Nodes::NONE),
            truncated: cut.map(|_| true),
            truncation_reason: cut,
        }
    }
}
