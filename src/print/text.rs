//! The text format of `--print`: `<indent>L<start>-<end> <kind> <signature>` per entry.
//!
//! Every token on an outline line carries information an agent asks with: the range says what
//! `--lines` to read (no padding: a right-aligned column cost a token a line and said nothing),
//! the kind and signature what the entry is. `L<start>` alone marks a one-line entry.

use crate::outline::select::{Cut, Selection, Shown};
use crate::outline::{Entry, Kind};
use crate::sanitize::for_terminal;
use std::fmt::Write;

/// What each line shows.
#[derive(Debug, Clone, Copy)]
pub struct TextOptions<'t> {
    pub signatures: bool,
    pub line_numbers: bool,
    pub preview: usize,
    /// Append `  (N tokens)` to entries that carry a count.
    pub tokens: bool,
    /// What precedes a count: `~` for an estimate (`chars4`), nothing for an exact encoding.
    pub token_mark: &'static str,
    /// Append `  [CHANGED]` to changed entries.
    pub diff: bool,
    /// Extra indent before every line (directory mode indents entries under `## file`).
    pub indent: &'static str,
    pub lines: &'t [&'t str],
}

/// The label of an entry's kind in text: Markdown headings read `h2`, everything else its kind.
pub fn kind_label(entry: &Entry) -> String {
    match (entry.kind, entry.level) {
        (Kind::Heading, Some(level)) => format!("h{level}"),
        (kind, _) => kind.as_str().to_string(),
    }
}

/// Children's names a depth cut lists on the parent's line, at most.
const CHILD_NAMES: usize = 6;

/// `  (21: new, empty, filled, … +15)`: what a depth cut hid, by name, so that `--depth 1`
/// still says which methods an `impl` holds. Every name shows when a few more would not pay.
fn push_child_names(out: &mut String, children: &[Entry]) {
    let shown = match children.len() <= CHILD_NAMES + 2 {
        true => children.len(),
        false => CHILD_NAMES,
    };
    // Names are file text like any label: a heading can hold ESC or BEL.
    let names: Vec<_> = children[..shown]
        .iter()
        .map(|c| for_terminal(c.name()))
        .collect();
    let _ = write!(out, "  ({}: {}", children.len(), names.join(", "));
    if shown < children.len() {
        let _ = write!(out, ", … +{}", children.len() - shown);
    }
    out.push(')');
}

/// Appends the lines of `selection` to `out`.
pub fn write_entries(out: &mut String, selection: &Selection<'_>, options: TextOptions<'_>) {
    for shown in selection.walk() {
        write_entry(out, shown, options);
    }
    if selection.omitted > 0 {
        let _ = writeln!(
            out,
            "{}… {} more top-level entries (raise --max-nodes)",
            options.indent, selection.omitted
        );
    }
}

/// `L98-172`, or `L98` for an entry on one line: one form for every surface that names a range.
pub fn line_range(start: usize, end: usize) -> String {
    match end > start {
        true => format!("L{start}-{end}"),
        false => format!("L{start}"),
    }
}

fn write_entry(out: &mut String, shown: &Shown<'_>, options: TextOptions<'_>) {
    let entry = shown.entry;
    let indent = "  ".repeat(shown.depth.saturating_sub(1));
    let prefix = match options.line_numbers {
        true => format!("{} ", line_range(entry.line, entry.end_line)),
        false => String::new(),
    };
    let label = for_terminal(if options.signatures {
        entry.label()
    } else {
        entry.name()
    });
    let kind = kind_label(entry);
    // A signature that opens with the kind word (`class Cart < Base`, `module Shop`) says it
    // once: `class class Cart` cost a token and said nothing.
    match label
        .strip_prefix(kind.as_str())
        .is_some_and(|rest| rest.starts_with(' '))
    {
        true => {
            let _ = write!(out, "{}{indent}{prefix}{label}", options.indent);
        }
        false => {
            let _ = write!(out, "{}{indent}{prefix}{kind} {label}", options.indent);
        }
    }
    if let (true, Some(tokens)) = (options.tokens, entry.tokens) {
        let _ = write!(
            out,
            "  ({}{} tokens)",
            options.token_mark,
            crate::parse::thousands(tokens as usize)
        );
    }
    if options.diff && entry.changed {
        out.push_str("  [CHANGED]");
    }
    match shown.cut {
        Some(Cut::MaxNesting) => out.push_str("  … (deeper entries not outlined: nesting limit)"),
        Some(Cut::MaxDepth) => push_child_names(out, &entry.children),
        Some(Cut::MaxNodes) => {
            let _ = write!(out, "  … (+{} hidden)", entry.children.len());
        }
        None => {}
    }
    out.push('\n');
    if options.preview > 0 {
        let pad = " ".repeat(prefix.chars().count() + indent.len() + 2);
        for text in super::preview_lines(entry, options.lines, options.preview) {
            let _ = writeln!(out, "{}{pad}| {}", options.indent, for_terminal(text));
        }
    }
}
