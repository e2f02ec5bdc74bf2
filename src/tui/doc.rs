//! The open file: its text split into lines, its outline (loaded and annotated by the shared
//! [`crate::document`] loader, as print mode does), its highlighter, and the stamp that tells
//! when it changed.

use crate::document::{Annotations, Document};
use crate::git;
use crate::highlight::{self, Highlighter};
use crate::lang::Language;
use crate::outline::{Entry, Outline};
use crate::parse::line_starts;
use crate::source::{Extent, Loaded};
use crate::tokens::Tokenizer;
use std::path::{Path, PathBuf};
use std::time::SystemTime;
use syntect::parsing::SyntaxReference;

/// A file's modification time and size: when either differs, the file is re-read.
pub type Stamp = Option<(SystemTime, u64)>;

/// Reads the stamp of `path` (`None` when it cannot be read).
pub fn stamp(path: &Path) -> Stamp {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

/// One file shown in the outline and preview panes; `H` is its highlighter, which a
/// document read on a thread ([`ReadDoc`]) gets on the viewer's.
pub struct Doc<H = Highlighter> {
    pub path: PathBuf,
    pub name: String,
    pub text: String,
    /// Byte offset of each line's start.
    starts: Vec<usize>,
    pub outline: Option<Outline>,
    pub binary: bool,
    pub stamp: Stamp,
    pub highlighter: H,
    /// Why the file could not be read, shown in the preview instead of text.
    pub error: Option<String>,
    /// The whole file's size and lines; `complete` is false past the read cap.
    pub extent: Extent,
    /// Only the first screen is read yet; the whole file is loading in the background.
    pub loading: bool,
    /// Stands for a directory-pane row that is not a file to read (a folder, a link):
    /// `error` says what it is, and nothing reads it again.
    pub standin: bool,
    /// The syntax assets were not loaded when the file was: it is shown plain until they are
    /// ([`Doc::colour_when_ready`]).
    colour_pending: bool,
}

/// A document read on a thread, before it gets its highlighter: syntect's parse states hold
/// Oniguruma's match regions, which cannot cross threads, so the viewer's thread adds it
/// ([`ReadDoc::highlighted`]).
pub type ReadDoc = Doc<Unhighlighted>;

/// The highlighter of a [`ReadDoc`] until it has one: whether to colour it at once (tests and
/// benchmarks), or plain until its syntax is ready as the viewer does.
#[derive(Debug, Clone, Copy, Default)]
pub struct Unhighlighted {
    at_once: bool,
}

/// What a load should parse as and annotate.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// `--lang`: parse every file as this language.
    pub language: Option<Language>,
    /// Token counts on, with this encoding.
    pub tokens: Option<Tokenizer>,
    pub diff: bool,
    /// `--root`: the file read must lie inside it, checked on the opened file (a file swapped
    /// for a link out of the root after the directory pane listed it is refused).
    pub root: Option<std::path::PathBuf>,
}

impl ReadDoc {
    /// Reads and outlines `path`; a read error becomes a document that says so. A FIFO, socket
    /// or device is refused by the shared read before it is opened, so a file replaced by one
    /// never blocks the input loop.
    pub fn load(path: &Path, options: LoadOptions, snapshot: Option<&git::Snapshot>) -> ReadDoc {
        let stamp = stamp(path);
        let (mut input, error) =
            match Document::open_in(path, options.language, options.root.as_deref()) {
                Ok(input) => (input, None),
                Err(err) => (
                    Document::from_parts(path, String::new(), None),
                    Some(err.to_string()),
                ),
            };
        let annotations = Annotations {
            tokens: options.tokens,
            ..Annotations::default()
        };
        let _ = input.annotate(&annotations, snapshot.filter(|_| options.diff));
        Doc::from_input(input, stamp, error)
    }

    /// Wraps an already loaded document (tests and benchmarks build these from fixed text).
    pub(crate) fn from_input(input: Document, stamp: Stamp, error: Option<String>) -> ReadDoc {
        // Lines break where the parser breaks them (a lone `\r` too), so that entry lines and
        // preview lines agree.
        let starts = line_starts(&input.text);
        let extent = input.extent;
        Doc {
            path: input.path,
            name: input.name,
            starts,
            outline: input.outline,
            binary: input.binary,
            stamp,
            highlighter: Unhighlighted::default(),
            error,
            extent,
            loading: false,
            standin: false,
            colour_pending: true,
            text: input.text,
        }
    }

    /// A document from text and an outline made elsewhere, coloured as soon as it is
    /// highlighted (tests, benchmarks).
    pub fn from_parts_read(path: &Path, text: String, outline: Option<Outline>) -> ReadDoc {
        let input = Document::from_parts(path, text, outline);
        let mut doc = Doc::from_input(input, None, None);
        doc.highlighter.at_once = true;
        doc
    }

    /// The document with its highlighter, on the thread that colours it. No frame waits for
    /// syntax colours: the file shows plain until its syntax's assets are loaded and its
    /// patterns compiled ([`Doc::colour_when_ready`]), unless it is to be coloured at once.
    pub fn highlighted(self, theme: &syntect::highlighting::Theme) -> Doc {
        let at_once = self.highlighter.at_once;
        let syntax = at_once
            .then(|| {
                // Tests and benchmarks want colours from the start, whatever they cost.
                highlight::load_now();
                highlight::syntax_for(&self.path, first_line(&self.text))
            })
            .flatten();
        let highlighter = Highlighter::new(syntax, theme.clone(), self.text.len());
        Doc {
            path: self.path,
            name: self.name,
            starts: self.starts,
            outline: self.outline,
            binary: self.binary,
            stamp: self.stamp,
            highlighter,
            error: self.error,
            extent: self.extent,
            loading: self.loading,
            standin: self.standin,
            colour_pending: self.colour_pending && !at_once,
            text: self.text,
        }
    }
}

impl Doc {
    /// Attaches the file's syntax when it is ready to colour at once. Returns the syntax
    /// when it is loaded but its patterns are not compiled yet: the caller has them compiled
    /// on a thread ([`highlight::warm_in_background`]) and asks again.
    pub fn colour_when_ready(&mut self) -> Option<&'static SyntaxReference> {
        if !self.colour_pending || !highlight::syntaxes_ready() {
            return None;
        }
        let syntax = highlight::syntax_for(&self.path, first_line(&self.text));
        if let Some(cold) = syntax.filter(|s| !highlight::is_warm(s)) {
            return Some(cold);
        }
        self.colour_pending = false;
        let theme = self.highlighter.theme().clone();
        self.highlighter = Highlighter::new(syntax, theme, self.text.len());
        None
    }

    /// The first `bytes` of `path` as plain text, shown at once while the whole file loads in
    /// the background: whole lines only, decoded as the full read decodes (a NUL byte early on
    /// makes it a binary file, a UTF-16 mark is honoured). Anything but a regular file is
    /// refused before it is opened, as the full read refuses it, so no key waits on a FIFO.
    pub fn head(
        path: &Path,
        bytes: usize,
        root: Option<&Path>,
        theme: &syntect::highlighting::Theme,
    ) -> Doc {
        read_head(path, bytes, root).highlighted(theme)
    }

    /// What the panes show for `path` when it is not a file to read: `what` says what it is
    /// (in the outline, the preview and the status bar).
    pub fn standin(path: &Path, what: String, theme: &syntect::highlighting::Theme) -> Doc {
        let input = Document::from_parts(path, String::new(), None);
        let mut doc = Doc::from_input(input, None, Some(what));
        doc.standin = true;
        doc.highlighted(theme)
    }

    /// Builds a document from text and an outline made elsewhere (tests, benchmarks),
    /// coloured from the start.
    pub fn from_parts(
        path: &Path,
        text: String,
        outline: Option<Outline>,
        theme: &syntect::highlighting::Theme,
    ) -> Doc {
        Doc::from_parts_read(path, text, outline).highlighted(theme)
    }

    /// Colours lines `range` (0-based) so that the preview can draw them, within `budget`
    /// (see [`Highlighter::prepare_within`]); returns whether they are all coloured.
    pub fn prepare(
        &mut self,
        range: std::ops::Range<usize>,
        budget: Option<std::time::Duration>,
    ) -> bool {
        let Doc {
            highlighter,
            text,
            starts,
            ..
        } = self;
        let get = |i: usize| {
            let start = *starts.get(i)?;
            let end = starts.get(i + 1).copied().unwrap_or(text.len());
            text.get(start..end)
                .map(|l| l.trim_end_matches(['\n', '\r']))
        };
        highlighter.prepare_within(range, get, budget)
    }
}

impl<H> Doc<H> {
    /// Number of lines.
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// Line `index` (0-based) without its line ending.
    pub fn line(&self, index: usize) -> Option<&str> {
        let start = *self.starts.get(index)?;
        let end = self
            .starts
            .get(index + 1)
            .copied()
            .unwrap_or(self.text.len());
        let line = self.text.get(start..end)?;
        Some(line.trim_end_matches(['\n', '\r']))
    }

    /// The entries in pre-order with their depth.
    pub fn entries(&self) -> Vec<(usize, &Entry)> {
        self.outline.as_ref().map(Outline::walk).unwrap_or_default()
    }
}

/// The first `bytes` of `path` as plain text ([`Doc::head`]).
fn read_head(path: &Path, bytes: usize, root: Option<&Path>) -> ReadDoc {
    use std::io::Read;
    let mut buf = Vec::new();
    let read = crate::source::open_regular(path, root).and_then(|(file, _)| {
        file.take(bytes as u64)
            .read_to_end(&mut buf)
            .map_err(|e| crate::Error::io(path, e))
    });
    if let Err(err) = read {
        let input = Document::from_parts(path, String::new(), None);
        let mut doc = Doc::from_input(input, None, Some(err.to_string()));
        doc.loading = true;
        return doc;
    }
    let more = buf.len() >= bytes;
    let text = match crate::source::decode(&buf) {
        Loaded::Binary => {
            let input = Document {
                binary: true,
                ..Document::from_parts(path, String::new(), None)
            };
            return Doc::from_input(input, stamp(path), None);
        }
        Loaded::Text { mut text, .. } => {
            if more {
                // The last line may go on past what was read.
                let whole = text.rfind(['\n', '\r']).map_or(0, |at| at + 1);
                text.truncate(whole);
            }
            text
        }
    };
    let mut doc = Doc::from_input(Document::from_parts(path, text, None), stamp(path), None);
    doc.loading = true;
    doc
}

fn first_line(text: &str) -> &str {
    crate::parse::iter_lines(text).next().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_split_without_endings() {
        assert_eq!(line_starts(""), Vec::<usize>::new());
        assert_eq!(line_starts("a\nb"), vec![0, 2]);
        assert_eq!(line_starts("a\r\nb\n"), vec![0, 3]);
        let theme = highlight::theme(highlight::DEFAULT_THEME).expect("theme");
        let doc = Doc::from_parts(Path::new("x.py"), "a\r\nb\n".into(), None, &theme);
        assert_eq!(doc.line_count(), 2);
        assert_eq!(
            (doc.line(0), doc.line(1), doc.line(2)),
            (Some("a"), Some("b"), None)
        );
        let old_mac = Doc::from_parts(Path::new("x.py"), "a\rb\r\nc\r".into(), None, &theme);
        assert_eq!(old_mac.line_count(), 3);
        let lines: Vec<_> = (0..3).filter_map(|i| old_mac.line(i)).collect();
        assert_eq!(lines, ["a", "b", "c"]);
    }
}
