//! A finder row is a picture of the tree when it was indexed or searched: by the time Enter
//! is pressed the file may have been saved again. A jump therefore remembers what the row
//! pointed at ([`Expected`]) and, once the file is read as it is now, goes to where that is
//! and says so in the status line ("moved: L16 -> L20"), or says it is gone.

use super::app::App;
use super::doc::Doc;
use crate::outline::Kind;
use std::path::PathBuf;

/// What a jump went to, as the row saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expected {
    pub path: PathBuf,
    /// 1-based, where the row said.
    pub line: usize,
    pub target: Target,
}

/// How the target is found again in a newer version of its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A picker row: the definition with this qualified name and kind.
    Definition { qualname: String, kind: Kind },
    /// A search or references hit: a line holding this text (cut around the match, `…` at
    /// a cut end).
    Line { text: String },
}

/// Where the target is in the file as read now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// Where the row said.
    Same,
    /// Elsewhere: 1-based line.
    Moved(usize),
    Gone,
}

impl Expected {
    /// Looks for the target in `doc`; of several matches the one nearest the old line wins.
    pub fn find_in(&self, doc: &Doc) -> Found {
        let nearest = |lines: &mut dyn Iterator<Item = usize>| {
            lines.min_by_key(|line| line.abs_diff(self.line))
        };
        let found = match &self.target {
            Target::Definition { qualname, kind } => nearest(
                &mut doc
                    .entries()
                    .into_iter()
                    .filter(|(_, e)| e.qualname() == *qualname && e.kind == *kind)
                    .map(|(_, e)| e.line),
            ),
            Target::Line { text } => {
                let text = text.trim_matches('…').trim();
                nearest(
                    &mut (0..doc.line_count())
                        .filter(|&i| doc.line(i).is_some_and(|line| line.contains(text)))
                        .map(|i| i + 1),
                )
            }
        };
        match found {
            Some(line) if line == self.line => Found::Same,
            Some(line) => Found::Moved(line),
            None => Found::Gone,
        }
    }

    /// The status line for `found`; `None` when the row was right.
    fn note(&self, found: Found, file: &str) -> Option<String> {
        let (what, since) = match &self.target {
            Target::Definition { qualname, .. } => (qualname.as_str(), "it was indexed"),
            Target::Line { .. } => ("the hit", "the search"),
        };
        let old = self.line;
        match found {
            Found::Same => None,
            Found::Moved(new) => Some(format!(
                "{what} moved: L{old} -> L{new} ({file} changed since {since})"
            )),
            Found::Gone => Some(format!(
                "{what} is gone from {file} (L{old}): it changed since {since}"
            )),
        }
    }
}

impl App {
    /// After a finder jump, once the file is read as it is now: when the target is elsewhere
    /// go there, and say so either way. Waits while a newer read of the file is under way.
    pub fn check_expected(&mut self) {
        if self.loading.is_some() {
            return;
        }
        let Some(doc) = self.doc.as_ref().filter(|d| !d.loading) else {
            return;
        };
        let Some(expect) = self.expect.take_if(|e| e.path == doc.path) else {
            return;
        };
        let found = expect.find_in(doc);
        let note = expect.note(found, &doc.name);
        if let Found::Moved(line) = found {
            self.jump_to_line(line - 1);
            self.follow_cursor();
            self.center_selection();
        }
        if note.is_some() {
            self.message = note;
        }
    }
}
