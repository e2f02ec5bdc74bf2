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

/// Appends one source line as every answer numbers it: `120 text` (`120` alone for a blank
/// line), `120: text` for a search hit. A space after the number joins the line's own
/// indentation in one o200k token: `120: text` cost a token more a line (9% of a body), and
/// the two-space indent hit groups had before their lines another (23% of a `--refs -W`
/// answer with both).
pub(crate) fn push_numbered(out: &mut String, number: usize, hit: bool, text: &str) {
    let _ = match (hit, text.is_empty()) {
        (true, _) => writeln!(out, "{number}: {text}"),
        (false, true) => writeln!(out, "{number}"),
        (false, false) => writeln!(out, "{number} {text}"),
    };
}

/// Names each file once per run of lines about it: in search answers (`--grep`, `--refs`, the
/// `--find` list, the callers tree) a line that starts `L<n>` is in the file named by the
/// nearest line above that names one. Paths were the largest cost of a search line: eliding
/// repeats cut okhttp's `--refs Call` from 15,654 o200k tokens to 9,546.
#[derive(Debug, Default)]
pub(crate) struct PathRuns {
    /// The file the previous line named, as shown (escaped for the terminal).
    last: Option<String>,
}

impl PathRuns {
    /// Records that the line just written named `path`.
    pub(crate) fn named(&mut self, path: &str) {
        if self.last.as_deref() != Some(path) {
            self.last = Some(path.to_string());
        }
    }

    /// `text` (lines the first of which starts with `path:` or is `path` alone), with that
    /// leading `path:` left out when the line before named the same file. The caller says
    /// [`Self::named`] once it writes the text (a line may be sized first, and not written).
    pub(crate) fn elided<'t>(&self, path: &str, text: &'t str) -> &'t str {
        let same = self.last.as_deref() == Some(path);
        match text
            .strip_prefix(path)
            .and_then(|rest| rest.strip_prefix(':'))
        {
            Some(range) if same && range.starts_with('L') => range,
            _ => text,
        }
    }
}

#[cfg(test)]
mod path_runs_tests {
    use super::PathRuns;

    fn written<'t>(runs: &mut PathRuns, path: &str, text: &'t str) -> &'t str {
        let shown = runs.elided(path, text);
        runs.named(path);
        shown
    }

    #[test]
    fn a_path_is_named_once_per_run_of_its_lines() {
        let mut runs = PathRuns::default();
        assert_eq!(
            written(&mut runs, "a.rs", "a.rs:L1-3 fn f\n"),
            "a.rs:L1-3 fn f\n"
        );
        assert_eq!(written(&mut runs, "a.rs", "a.rs:L5 fn g\n"), "L5 fn g\n");
        assert_eq!(
            written(&mut runs, "b.rs", "b.rs:L2 fn h\n"),
            "b.rs:L2 fn h\n"
        );
        assert_eq!(
            written(&mut runs, "a.rs", "a.rs:L9 fn i\n"),
            "a.rs:L9 fn i\n"
        );
    }

    #[test]
    fn hits_outside_every_entry_keep_their_path_line() {
        let mut runs = PathRuns::default();
        assert_eq!(
            written(&mut runs, "a.rs", "a.rs:L1-3 fn f\n"),
            "a.rs:L1-3 fn f\n"
        );
        // A group with no entry is headed by its path alone: it must stay, or its hits would
        // read as the entry's above.
        assert_eq!(
            written(&mut runs, "a.rs", "a.rs\n  9: x\n"),
            "a.rs\n  9: x\n"
        );
        assert_eq!(written(&mut runs, "a.rs", "a.rs:L12 fn g\n"), "L12 fn g\n");
    }

    #[test]
    fn a_line_sized_but_not_written_names_nothing() {
        let runs = PathRuns::default();
        assert_eq!(runs.elided("a.rs", "a.rs:L1 fn f\n"), "a.rs:L1 fn f\n");
        assert_eq!(runs.elided("a.rs", "a.rs:L1 fn f\n"), "a.rs:L1 fn f\n");
    }
}
