//! JSON wire types of `--print --json`: serialize-only views of the model, exactly the contract
//! in docs (README "JSON output"). A file gives one [`FileObject`]; a directory gives one per
//! line (JSON Lines), sorted by path.

use crate::outline::select::{Selection, Shown};
use crate::outline::Outline;
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
    /// Size in bytes.
    pub bytes: usize,
    /// Top-level entries and, nested, everything the caps let through.
    pub entries: Vec<Node<'a>>,
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
    pub id: &'a str,
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
    /// `--preview N`: the source lines after `line`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preview: Option<Vec<&'a str>>,
    /// Present (even empty) exactly when this node was expanded: then it lists all children.
    /// Absent means a cap cut the node: unknown, never empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub children: Option<Vec<Node<'a>>>,
    /// Present (always `true`) only on a node a cap cut, with `truncation_reason`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated: Option<bool>,
    /// `"max_depth"` or `"max_nodes"` (the latter when both apply).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncation_reason: Option<&'static str>,
}

/// Options that change what a node carries.
#[derive(Debug, Clone, Copy)]
pub struct NodeOptions<'t> {
    pub signatures: bool,
    pub preview: usize,
    /// The file's lines, for previews.
    pub lines: &'t [&'t str],
}

/// Builds the wire object for one file.
pub fn file_object<'a>(
    path: String,
    outline: &'a Outline,
    selection: &Selection<'a>,
    options: NodeOptions<'a>,
) -> FileObject<'a> {
    let cut = selection.omitted > 0;
    FileObject {
        path,
        language: outline.language.name(),
        lines: outline.lines,
        bytes: outline.bytes,
        entries: selection
            .roots
            .iter()
            .map(|shown| node(shown, options))
            .collect(),
        truncated: cut.then_some(true),
        truncation_reason: cut.then_some("max_nodes"),
        omitted: cut.then_some(selection.omitted),
        input_limit: outline.limit.as_ref().map(|limit| limit.reason.as_str()),
    }
}

fn node<'a>(shown: &Shown<'a>, options: NodeOptions<'a>) -> Node<'a> {
    let entry = shown.entry;
    let preview =
        (options.preview > 0).then(|| super::preview_lines(entry, options.lines, options.preview));
    Node {
        id: &entry.id,
        kind: entry.kind.as_str(),
        name: &entry.name,
        qualname: &entry.qualname,
        signature: entry.signature.as_deref().filter(|_| options.signatures),
        level: entry.level,
        line: entry.line,
        end_line: entry.end_line,
        preview,
        children: shown
            .children
            .as_ref()
            .map(|children| children.iter().map(|c| node(c, options)).collect()),
        truncated: shown.cut.map(|_| true),
        truncation_reason: shown.cut.map(|cut| cut.as_str()),
    }
}

/// `--symbol` with `--json`: the entry and its body.
#[derive(Debug, Serialize)]
pub struct SymbolObject<'a> {
    pub path: String,
    pub language: &'static str,
    /// First and last line of the text below (the body may be cut before `node.end_line`).
    pub start_line: usize,
    pub end_line: usize,
    /// The lines, each as `<n>: <text>`.
    pub text: &'a str,
    pub node: Node<'a>,
}

impl<'a> SymbolObject<'a> {
    pub fn new(
        path: &std::path::Path,
        outline: &'a Outline,
        entry: &'a crate::outline::Entry,
        shown_end: usize,
        text: &'a str,
        signatures: bool,
    ) -> SymbolObject<'a> {
        SymbolObject {
            path: path.display().to_string(),
            language: outline.language.name(),
            start_line: entry.line,
            end_line: shown_end,
            text,
            node: Node {
                id: &entry.id,
                kind: entry.kind.as_str(),
                name: &entry.name,
                qualname: &entry.qualname,
                signature: entry.signature.as_deref().filter(|_| signatures),
                level: entry.level,
                line: entry.line,
                end_line: entry.end_line,
                preview: None,
                children: None,
                truncated: None,
                truncation_reason: None,
            },
        }
    }
}
