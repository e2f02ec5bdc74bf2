//! A file's text outline sized to the file: an outline is worth printing when it costs much
//! less than reading the file, so without `--depth` or `--max-nodes` the text outline of one
//! file stays within about a fourteenth of the file's bytes (never under [`FLOOR_BYTES`]).
//!
//! It gives up detail in steps, each still naming every top-level entry so that the next
//! question (`--symbol NAME`, `--depth N`) can be asked: the whole tree; fewer levels, a cut
//! node listing its children's names; top-level names without signatures; top-level names
//! packed by kind. A note under the header says what was left out and how to get it. Measured
//! with `benches/read_floor.py` (outline a known file, then read one function): see the README.

use super::text::{self, TextOptions};
use crate::outline::select::{self, Budget};
use crate::outline::{Entry, Outline};
use crate::sanitize::for_terminal;
use std::fmt::Write;

/// The least a fitted outline may take, whatever the file's size: small files show whole.
pub(crate) const FLOOR_BYTES: usize = 1_500;
/// An outline is fitted to at most one part in this many of the file's bytes.
pub(crate) const FILE_SHARE: usize = 14;

/// The entry lines of `outline` and, when detail was left out to fit, the note that says so.
pub(crate) fn fitted(
    outline: &Outline,
    file_bytes: usize,
    options: TextOptions<'_>,
) -> (String, Option<String>) {
    let room = FLOOR_BYTES.max(file_bytes / FILE_SHARE);
    let deepest = outline
        .walk()
        .iter()
        .map(|(depth, _)| depth + 1)
        .max()
        .unwrap_or(1);
    for depth in (1..=deepest).rev() {
        let text = at_depth(outline, depth, options);
        if text.len() <= room {
            let note = (depth < deepest).then(|| {
                format!(
                    "# Depth {depth} of {deepest} shown, to stay near 1/{FILE_SHARE} of the file: --depth {deepest} for all"
                )
            });
            return (text, note);
        }
    }
    if options.signatures {
        let names = TextOptions {
            signatures: false,
            ..options
        };
        let text = at_depth(outline, 1, names);
        if text.len() <= room {
            let note = format!(
                "# Top-level names shown, to stay near 1/{FILE_SHARE} of the file: --depth 1 adds signatures{}",
                all_levels(deepest)
            );
            return (text, Some(note));
        }
    }
    let note = format!(
        "# Top-level entries by kind, to stay near 1/{FILE_SHARE} of the file: --depth 1 lists one a line{}",
        all_levels(deepest)
    );
    (packed(&outline.entries, options.indent), Some(note))
}

/// `, --depth 3 for all` when there is more than the top level.
fn all_levels(deepest: usize) -> String {
    match deepest > 1 {
        true => format!(", --depth {deepest} for all"),
        false => String::new(),
    }
}

fn at_depth(outline: &Outline, depth: usize, options: TextOptions<'_>) -> String {
    let budget = Budget {
        max_depth: Some(depth),
        max_nodes: None,
    };
    let mut out = String::new();
    text::write_entries(&mut out, &select::select(outline, budget), options);
    out
}

/// `function: main L10, parse L40, …` a line per run of one kind, in file order.
fn packed(entries: &[Entry], indent: &str) -> String {
    let mut out = String::new();
    let mut current = None;
    for entry in entries {
        let kind = text::kind_label(entry);
        if current.as_ref() != Some(&kind) {
            if current.is_some() {
                out.push('\n');
            }
            let _ = write!(out, "{indent}{kind}: ");
            current = Some(kind);
        } else {
            out.push_str(", ");
        }
        let _ = write!(out, "{} L{}", for_terminal(entry.name()), entry.line);
    }
    if current.is_some() {
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Language;

    fn options() -> TextOptions<'static> {
        TextOptions {
            signatures: true,
            line_numbers: true,
            preview: 0,
            tokens: false,
            token_mark: "",
            diff: false,
            indent: "",
            lines: &[],
        }
    }

    fn python(source: &str) -> Outline {
        crate::parse::outline_text(source, crate::parse::ParseOptions::new(Language::Python))
    }

    #[test]
    fn a_small_file_shows_whole_without_a_note() {
        let outline = python("class A:\n    def run(self, x):\n        return x\n");
        let (text, note) = fitted(&outline, 60, options());
        assert_eq!(text, "L1-3 class A\n  L2-3 method run(self, x)\n");
        assert_eq!(note, None);
    }

    #[test]
    fn a_large_outline_loses_levels_before_names() {
        let mut source = String::new();
        for class in 0..40 {
            let _ = writeln!(source, "class Holder{class}:");
            for method in 0..8 {
                let _ = writeln!(
                    source,
                    "    def method_{method}(self, argument):\n        pass"
                );
            }
        }
        let outline = python(&source);
        let (text, note) = fitted(&outline, 120_000, options());
        assert!(text.len() <= 120_000 / FILE_SHARE, "{}", text.len());
        assert!(
            text.starts_with("L1-17 class Holder0  (8: method_0,"),
            "{text}"
        );
        let note = note.unwrap_or_default();
        assert!(
            note.contains("Depth 1 of 2") && note.contains("--depth 2"),
            "{note}"
        );
    }

    #[test]
    fn too_many_top_level_entries_are_packed_by_kind() {
        let mut source = String::new();
        for function in 0..300 {
            let _ = writeln!(
                source,
                "def function_number_{function}(first_argument, second_argument):\n    pass"
            );
        }
        let outline = python(&source);
        let (text, note) = fitted(&outline, 20_000, options());
        assert!(
            text.starts_with("function: function_number_0 L1, function_number_1 L3,"),
            "{text}"
        );
        assert_eq!(text.lines().count(), 1);
        assert!(note.unwrap_or_default().contains("by kind"));
    }
}
