//! One file loaded for every consumer: a bounded read ([`crate::source`]), the outline
//! ([`crate::parse`]) and the annotations asked for (token counts, changes since HEAD).
//!
//! Print, search, the viewer and the MCP server all load files here, so each shows the same
//! entries, ids and ranges. Consumers pass narrow option structs (`Annotations`) built by
//! their entry point, never the whole configuration. Annotating is crate-private, since the
//! changes come from the crate's own git snapshot; an embedder counts tokens with
//! [`crate::tokens::annotate`].

use crate::error::Result;
use crate::git;
use crate::lang::{self, Language};
use crate::outline::Outline;
use crate::parse::{self, ParseOptions, MAX_BYTES};
use crate::source::{self, Extent, LineWindow, Loaded};
use crate::tokens::{self, Tokenizer};
use std::path::{Path, PathBuf};

/// One file (or standard input), read and, when its language is known, outlined.
#[derive(Debug, Clone)]
pub struct Document {
    pub path: PathBuf,
    /// The file name alone, for headers and messages.
    pub name: String,
    /// The text as read: decoded (lossily where need be), at most the read cap (see
    /// [`crate::source`]); [`Document::line_window`] reaches lines past it.
    pub text: String,
    /// The whole input's size on disk, line count and encoding, and whether `text` is all of it.
    pub extent: Extent,
    /// Content hash of every byte of the file (`xxh3:` + 16 hex digits).
    pub hash: String,
    /// `None` for a language without a parser (reads still work) and for binary files.
    pub outline: Option<Outline>,
    /// A NUL byte near the start: not text, nothing outlined.
    pub binary: bool,
}

/// What to add to a loaded outline.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Annotations {
    /// Count tokens of entries (to `max_depth`) and of the file.
    pub tokens: Option<Tokenizer>,
    /// Keep only entries changed since HEAD, with their parents (`--changed`).
    pub changed_only: bool,
    /// Deepest level that gets token counts (`None`: all).
    pub max_depth: Option<usize>,
}

impl Document {
    /// Reads and outlines the file at `path` as `language`, or as the language its name (or,
    /// for a name that says nothing, its `#!` line) says.
    pub fn open(path: &Path, language: Option<Language>) -> Result<Document> {
        Document::open_in(path, language, None)
    }

    /// [`Document::open`], and with a `root`, only a file that lies inside it once opened
    /// (see [`source::read_in`]).
    pub fn open_in(
        path: &Path,
        language: Option<Language>,
        root: Option<&Path>,
    ) -> Result<Document> {
        Ok(Document::from_read(
            path,
            language,
            source::read_in(path, root)?,
        ))
    }

    /// [`Document::open_in`] for a file a directory walk listed as a regular file
    /// ([`source::read_listed`]).
    pub(crate) fn open_listed(
        path: &Path,
        language: Option<Language>,
        root: Option<&Path>,
    ) -> Result<Document> {
        Ok(Document::from_read(
            path,
            language,
            source::read_listed(path, root)?,
        ))
    }

    fn from_read(path: &Path, language: Option<Language>, loaded: Loaded) -> Document {
        let language = language.or_else(|| match &loaded {
            Loaded::Text { text, .. } => lang::detect_with_head(path, text.as_bytes()),
            Loaded::Binary => None,
        });
        Document::from_loaded(path, loaded, language)
    }

    /// Outlines input that was already read (standard input, or a file read elsewhere).
    pub fn from_loaded(path: &Path, loaded: Loaded, language: Option<Language>) -> Document {
        let Loaded::Text { text, extent, hash } = loaded else {
            return Document {
                binary: true,
                ..Document::from_parts(path, String::new(), None)
            };
        };
        let outline = language.map(|language| {
            let options = ParseOptions {
                language,
                jsx: lang::may_contain_jsx(path),
                rake: lang::is_rake_file(path),
            };
            let mut outline = parse::outline_text(&text, options);
            apply_extent(&mut outline, &extent);
            outline
        });
        Document {
            hash,
            outline,
            extent,
            ..Document::from_parts(path, text, None)
        }
    }

    /// A document from text and an outline made elsewhere (tests, benchmarks, error stand-ins).
    pub fn from_parts(path: &Path, text: String, outline: Option<Outline>) -> Document {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        Document {
            path: path.to_path_buf(),
            name,
            extent: Extent::of_text(&text),
            text,
            hash: String::new(),
            outline,
            binary: false,
        }
    }

    /// Adds the annotations asked for: token counts, then changes against HEAD from
    /// `snapshot` (dropping unchanged entries for `changed_only`). An error means the markers
    /// could not be read; the outline is then left without them.
    pub(crate) fn annotate(
        &mut self,
        annotations: &Annotations,
        snapshot: Option<&git::Snapshot>,
    ) -> std::result::Result<(), git::GitError> {
        let Some(outline) = &mut self.outline else {
            return Ok(());
        };
        if let Some(tokenizer) = annotations.tokens {
            tokens::annotate(outline, &self.text, tokenizer, annotations.max_depth);
        }
        if let Some(snapshot) = snapshot {
            if !self.extent.complete {
                return Err(git::GitError::OverReadCap(self.name.clone()));
            }
            let changes = snapshot.changes(&self.path, self.text.as_bytes())?;
            outline.mark_changes(changes);
            if annotations.changed_only {
                outline.retain_changed();
            }
        }
        Ok(())
    }

    /// The text's lines without their line endings (only what is in memory: see
    /// [`Document::line_window`] for any line of the file).
    /// A line ends at `\n`, `\r\n` or a lone `\r`, as for the parser (see [`parse::lines`]).
    pub fn lines(&self) -> Vec<&str> {
        parse::lines(&self.text)
    }

    /// Lines `first..=last` of the whole file (absent past its end), at most `budget` bytes of
    /// them after the first: from memory when the text holds them, else by streaming the file
    /// again with bounded memory (an error if it changed since it was loaded).
    pub fn line_window(&self, first: usize, last: usize, budget: usize) -> Result<LineWindow<'_>> {
        let in_memory = match self.extent.complete {
            true => usize::MAX,
            // Only lines that end inside the text are whole.
            false => parse::count_line_breaks(self.text.as_bytes()),
        };
        if last <= in_memory {
            return Ok(source::window_of_text(&self.text, first, last, budget));
        }
        source::read_window(&self.path, &self.extent, &self.hash, first, last, budget)
    }
}

/// The outline describes the whole input, not the prefix that was parsed: its line count and
/// size on disk, and a limit note that says how much of it was outlined (and, when one line
/// was too long to keep whole, where it was cut).
fn apply_extent(outline: &mut Outline, extent: &Extent) {
    outline.lines = extent.lines;
    outline.bytes = extent.bytes;
    let Some(limit) = &mut outline.limit else {
        return;
    };
    let lines_outlined = parse::thousands(limit.lines_outlined);
    let outlined = match limit.cut_at {
        Some(cut_at) => format!(
            "the first {} bytes (line {lines_outlined} is cut there)",
            parse::thousands(cut_at)
        ),
        None => format!("the first {lines_outlined} lines"),
    };
    if limit.entries_cut {
        limit.reason = format!(
            "file has over {} entries ({}, {} bytes); outlined {outlined}",
            parse::thousands(parse::budget::MAX_ENTRIES),
            lines_of(extent.lines),
            parse::thousands(extent.bytes)
        );
    } else if extent.input_cut {
        limit.reason = format!(
            "standard input stopped at the {} MB read cap; outlined {outlined}",
            MAX_BYTES >> 20
        );
    } else if !extent.complete && limit.cut_at.is_some() {
        // A few long lines: the byte count is the fact that matters.
        limit.reason = format!(
            "file has {} bytes ({}); outlined {outlined}",
            parse::thousands(extent.bytes),
            lines_of(extent.lines)
        );
    } else if !extent.complete {
        limit.reason = format!(
            "file has {} lines ({} bytes); outlined {outlined}",
            parse::thousands(extent.lines),
            parse::thousands(extent.bytes)
        );
    }
}

/// `1 line`, `2 lines`.
fn lines_of(count: usize) -> String {
    match count {
        1 => "1 line".to_string(),
        n => format!("{} lines", parse::thousands(n)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outline::Kind;

    #[test]
    fn loads_text_outlines_and_keeps_the_hash() {
        let bytes = b"def f():\n    pass\n";
        let doc = Document::from_loaded(
            Path::new("dir/a.py"),
            source::decode(bytes),
            Some(Language::Python),
        );
        assert_eq!(doc.name, "a.py");
        assert_eq!(doc.hash, source::content_hash(bytes));
        let outline = doc.outline.as_ref().expect("outlined");
        assert_eq!(outline.entries[0].kind, Kind::Function);
        assert_eq!(doc.lines(), ["def f():", "    pass"]);
        assert!(!doc.binary);
        let old_mac = Document::from_loaded(
            Path::new("a.py"),
            source::decode(b"def f():\r    pass\r\n\rx = 1"),
            Some(Language::Python),
        );
        assert_eq!(old_mac.lines(), ["def f():", "    pass", "", "x = 1"]);
        assert_eq!(old_mac.extent.lines, 4);
        assert_eq!(old_mac.outline.as_ref().map(|o| o.lines), Some(4));
        let window = old_mac.line_window(2, 4, 100).expect("in memory");
        assert_eq!(window.lines, ["    pass", "", "x = 1"]);
    }

    #[test]
    fn binary_and_unknown_languages_have_no_outline() {
        let binary = Document::from_loaded(Path::new("x.py"), Loaded::Binary, None);
        assert!(binary.binary && binary.outline.is_none() && binary.text.is_empty());
        let loaded = source::decode(b"hello\n");
        let plain = Document::from_loaded(Path::new("notes.txt"), loaded, None);
        assert!(!plain.binary && plain.outline.is_none());
        assert_eq!(plain.text, "hello\n");
    }

    #[test]
    fn annotate_counts_tokens_without_git() {
        let loaded = source::decode(b"def f():\n    return 1\n");
        let mut doc = Document::from_loaded(Path::new("a.py"), loaded, Some(Language::Python));
        let annotations = Annotations {
            tokens: Some(Tokenizer::Chars4),
            ..Annotations::default()
        };
        assert!(doc.annotate(&annotations, None).is_ok());
        let outline = doc.outline.as_ref().expect("outlined");
        assert!(outline.tokens.is_some() && outline.entries[0].tokens.is_some());
    }

    #[test]
    fn the_outline_reports_the_size_on_disk() {
        // Each invalid byte decodes to a three-byte U+FFFD: the text grows, the file does not.
        let bytes = b"# A \xff\xfe\xfd\n";
        let doc = Document::from_loaded(
            Path::new("a.md"),
            source::decode(bytes),
            Some(Language::Markdown),
        );
        assert!(doc.text.len() > bytes.len());
        let outline = doc.outline.as_ref().expect("outlined");
        assert_eq!((outline.bytes, outline.lines), (bytes.len(), 1));
    }

    #[test]
    fn lone_carriage_returns_end_lines_past_the_cap_too() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("old.md");
        let lines = MAX_BYTES / 10 + 100;
        // Old Mac line endings, and one `\r\n` whose `\r` is the last byte kept in memory.
        let mut text: String = (1..=lines).map(|n| format!("{n:09}\r")).collect();
        text.replace_range(MAX_BYTES - 8..MAX_BYTES + 2, "00000000\r\n");
        std::fs::write(&path, &text).expect("write");
        assert_eq!(parse::count_lines(&text), lines);
        let doc = Document::open(&path, Some(Language::Markdown)).expect("read");
        assert!(!doc.extent.complete && doc.text.ends_with('\r'));
        assert_eq!(doc.extent.lines, lines);
        let window = doc.line_window(lines - 1, lines, 1000).expect("streamed");
        assert_eq!(
            window.lines,
            [format!("{:09}", lines - 1), format!("{lines:09}")]
        );
        let every = parse::lines(&text);
        let astride = parse::count_lines(&doc.text);
        for (first, last) in [(astride - 1, astride), (astride, astride + 1)] {
            let window = doc.line_window(first, last, 1000).expect("read");
            assert_eq!(window.lines, every[first - 1..last], "{first}..={last}");
        }
    }

    #[test]
    fn lines_past_the_cap_are_streamed_and_checked_against_the_hash() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("big.md");
        let lines = MAX_BYTES / 10 + 100;
        let text: String = (1..=lines).map(|n| format!("{n:09}\n")).collect();
        std::fs::write(&path, &text).expect("write");
        let doc = Document::open(&path, Some(Language::Markdown)).expect("read");
        assert!(!doc.extent.complete);
        assert_eq!(doc.extent.lines, lines);
        assert_eq!(doc.outline.as_ref().map(|o| o.lines), Some(lines));
        let window = doc
            .line_window(lines - 1, lines + 5, 1000)
            .expect("streamed");
        assert_eq!(window.first, lines - 1);
        assert_eq!(
            window.lines,
            [format!("{:09}", lines - 1), format!("{lines:09}")]
        );
        std::fs::write(&path, text.replace("000000001", "changed!!")).expect("rewrite");
        let err = doc.line_window(lines, lines, 1000).expect_err("changed");
        assert!(
            err.to_string().contains("changed while being read"),
            "{err}"
        );
    }
}
