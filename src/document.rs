//! One file loaded for every consumer: a bounded read ([`crate::source`]), the outline
//! ([`crate::parse`]) and the annotations asked for (token counts, changes since HEAD).
//!
//! Print, search, the viewer and the MCP server all load files here, so each shows the same
//! entries, ids and ranges. Consumers pass narrow option structs ([`Annotations`]) built by
//! their entry point, never the whole configuration.

use crate::error::Result;
use crate::git;
use crate::lang::{self, Language};
use crate::outline::Outline;
use crate::parse::{self, ParseOptions};
use crate::source::{self, Loaded};
use crate::tokens::{self, Tokenizer};
use std::path::{Path, PathBuf};

/// One file (or standard input), read and, when its language is known, outlined.
#[derive(Debug, Clone)]
pub struct Document {
    pub path: PathBuf,
    /// The file name alone, for headers and messages.
    pub name: String,
    /// The text as read: lossily decoded, at most the read cap (see [`crate::source`]).
    pub text: String,
    /// Content hash of every byte of the file (`xxh3:` + 16 hex digits).
    pub hash: String,
    /// `None` for a language without a parser (reads still work) and for binary files.
    pub outline: Option<Outline>,
    /// A NUL byte near the start: not text, nothing outlined.
    pub binary: bool,
}

/// What to add to a loaded outline.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Annotations {
    /// Count tokens of entries (to `max_depth`) and of the file.
    pub tokens: Option<Tokenizer>,
    /// Keep only entries changed since HEAD, with their parents (`--changed`).
    pub changed_only: bool,
    /// Deepest level that gets token counts (`None`: all).
    pub max_depth: Option<usize>,
}

impl Document {
    /// Reads and outlines the file at `path` as `language`, or as the language its name says.
    pub fn open(path: &Path, language: Option<Language>) -> Result<Document> {
        let language = language.or_else(|| lang::detect(path));
        Ok(Document::from_loaded(path, source::read(path)?, language))
    }

    /// Outlines input that was already read (standard input, or a file read elsewhere).
    pub fn from_loaded(path: &Path, loaded: Loaded, language: Option<Language>) -> Document {
        let Loaded::Text {
            text,
            file_bytes,
            hash,
        } = loaded
        else {
            return Document {
                binary: true,
                ..Document::from_parts(path, String::new(), None)
            };
        };
        let outline = language.map(|language| {
            let options = ParseOptions {
                language,
                jsx: lang::may_contain_jsx(path),
            };
            parse::outline_file(&text, file_bytes, options)
        });
        Document {
            hash,
            outline,
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
            text,
            hash: String::new(),
            outline,
            binary: false,
        }
    }

    /// Adds the annotations asked for: token counts, then changes against HEAD from
    /// `snapshot` (dropping unchanged entries for `changed_only`). An error means the markers
    /// could not be read; the outline is then left without them.
    pub fn annotate(
        &mut self,
        annotations: &Annotations,
        snapshot: Option<&git::Snapshot>,
    ) -> std::result::Result<(), String> {
        let Some(outline) = &mut self.outline else {
            return Ok(());
        };
        if let Some(tokenizer) = annotations.tokens {
            tokens::annotate(outline, &self.text, tokenizer, annotations.max_depth);
        }
        if let Some(snapshot) = snapshot {
            let changes = snapshot.changes(&self.path, self.text.as_bytes())?;
            outline.mark_changes(changes);
            if annotations.changed_only {
                outline.retain_changed();
            }
        }
        Ok(())
    }

    /// The text's lines without their line endings.
    pub fn lines(&self) -> Vec<&str> {
        self.text.lines().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outline::Kind;

    #[test]
    fn loads_text_outlines_and_keeps_the_hash() {
        let loaded = source::decode(b"def f():\n    pass\n".to_vec(), 18, "xxh3:1".into());
        let doc = Document::from_loaded(Path::new("dir/a.py"), loaded, Some(Language::Python));
        assert_eq!((doc.name.as_str(), doc.hash.as_str()), ("a.py", "xxh3:1"));
        let outline = doc.outline.as_ref().expect("outlined");
        assert_eq!(outline.entries[0].kind, Kind::Function);
        assert_eq!(doc.lines(), ["def f():", "    pass"]);
        assert!(!doc.binary);
    }

    #[test]
    fn binary_and_unknown_languages_have_no_outline() {
        let binary = Document::from_loaded(Path::new("x.py"), Loaded::Binary, None);
        assert!(binary.binary && binary.outline.is_none() && binary.text.is_empty());
        let loaded = source::decode(b"hello\n".to_vec(), 6, String::new());
        let plain = Document::from_loaded(Path::new("notes.txt"), loaded, None);
        assert!(!plain.binary && plain.outline.is_none());
        assert_eq!(plain.text, "hello\n");
    }

    #[test]
    fn annotate_counts_tokens_without_git() {
        let loaded = source::decode(b"def f():\n    return 1\n".to_vec(), 22, String::new());
        let mut doc = Document::from_loaded(Path::new("a.py"), loaded, Some(Language::Python));
        let annotations = Annotations {
            tokens: Some(Tokenizer::Chars4),
            ..Annotations::default()
        };
        assert_eq!(doc.annotate(&annotations, None), Ok(()));
        let outline = doc.outline.as_ref().expect("outlined");
        assert!(outline.tokens.is_some() && outline.entries[0].tokens.is_some());
    }
}
