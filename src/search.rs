//! Search across trees: definitions by name ([`find`]), text by enclosing symbol ([`grep`]) and
//! identifier references ([`refs`]). Every consumer (print, the viewer, the MCP server) uses
//! this engine, so all of them rank and group the same way.
//!
//! Files come from the one [`crate::walk`], are loaded by [`crate::document`] on every core
//! (`parallel::ordered`) and reach the caller in path order as soon as they are done, so the
//! first results of a large search arrive before the walk ends and memory stays bounded.

use crate::error::{Error, Result};
use crate::lang::Language;
use crate::outline::{Entry, Kind, Outline};
use crate::walk::{Found, Walk, WalkOptions};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

mod arguments;
mod blocks;
mod built;
mod definitions;
mod docstring;
mod find;
mod locals;
mod near;
mod picture;
pub(crate) mod query;
pub mod rank;
mod test_code;
mod text;

pub use built::{constructs, members_called, returns_type};
pub use definitions::{Defined, FileDefinitions, TextRanges};
pub use find::{find, find_in_outline, Definition, FindResult};
pub use picture::{Adds, MemberGroup};
pub use query::{CallParameters, FindQuery, RefQuery};
pub use rank::{definitions_of, each_definition, Rank, Tier};
pub use test_code::{drop_test_entries, is_test_entry, is_test_path};
pub use text::{grep, refs, FileHits, Hit, HitGroup, OtherOverloads, TextSearch, WHOLE_BODY_LINES};
pub(crate) use text::{grep_prepared, refs_prepared};

/// Where to search: the paths given (files and directories mixed) and how to walk them.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    pub paths: Vec<PathBuf>,
    pub walk: WalkOptions,
    /// Leave out test files and everything inside test modules.
    pub no_tests: bool,
    /// Read only files that lie inside this canonical directory once opened (`--root`).
    pub root: Option<PathBuf>,
}

/// The enclosing (or matched) entry of a result, without its children.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryRef {
    pub id: String,
    pub kind: Kind,
    pub name: String,
    pub qualname: String,
    pub signature: Option<String>,
    pub line: usize,
    pub end_line: usize,
    /// Where its docs start ([`Entry::doc_line`]).
    pub doc_line: usize,
    /// A heading's level.
    pub level: Option<u8>,
    /// Tokens of the entry's lines, when counts were asked for.
    pub tokens: Option<usize>,
    /// How many children the entry has.
    pub children: usize,
    /// Where the bare name starts in `name` ([`Entry::bare_name`]).
    bare_at: usize,
    /// The type the entry belongs to ([`Entry::owner`]).
    pub owner: Option<String>,
    /// The trait or interface it implements ([`Entry::implements`]).
    pub implements: Option<String>,
}

impl EntryRef {
    /// `entry` as a result, with its positional id `id` ([`Outline::id_of`]).
    pub(crate) fn of(entry: &Entry, id: String) -> EntryRef {
        EntryRef {
            id,
            kind: entry.kind,
            name: entry.name().to_string(),
            qualname: entry.qualname().to_string(),
            signature: entry.signature.as_deref().map(str::to_string),
            line: entry.line,
            end_line: entry.end_line,
            doc_line: entry.doc_line,
            level: entry.level,
            tokens: entry.tokens.map(|tokens| tokens as usize),
            children: entry.children.len(),
            bare_at: entry.name().len() - entry.bare_name().len(),
            owner: entry.owner().map(str::to_string),
            implements: entry.implements().map(str::to_string),
        }
    }

    /// The name without the owners written into it ([`Entry::bare_name`]).
    pub fn bare_name(&self) -> &str {
        self.name.get(self.bare_at..).unwrap_or(&self.name)
    }

    /// Where the bare name starts in `name`: what comes before are the owners written.
    pub fn bare_at(&self) -> usize {
        self.bare_at
    }
}

/// What a search met besides results.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Summary {
    /// Files read (parsed or searched).
    pub files: usize,
    /// One line per entry or file that could not be read.
    pub unreadable: Vec<String>,
    /// One line per file read whose name had to be shown lossily.
    pub notes: Vec<String>,
    /// The consumer stopped the search before the walk ended (an output cap).
    pub stopped: bool,
    /// Files searched only in part (past a read or outline limit), in path order: the
    /// answer may miss what lies past the part searched, and says so.
    pub partial: Vec<PartialFile>,
}

/// A file searched only in part, and which part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartialFile {
    pub path: PathBuf,
    /// What was searched and why not the rest (`file has 60,002 lines; outlined the first
    /// 50,000; definitions past it were not searched`).
    pub reason: String,
}

/// [`PartialFile`]s noted by the loaders, which run on every core.
#[derive(Debug, Default)]
pub(crate) struct PartialNotes(Mutex<Vec<PartialFile>>);

impl PartialNotes {
    pub(crate) fn note(&self, path: &Path, reason: String) {
        // A poisoned lock means a loader panicked; the note is still worth keeping.
        let mut notes = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        notes.push(PartialFile {
            path: path.to_path_buf(),
            reason,
        });
    }

    /// The notes in path order (the loaders finish in any order).
    pub(crate) fn into_sorted(self) -> Vec<PartialFile> {
        let mut notes = self
            .0
            .into_inner()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        notes.sort_by(|a, b| a.path.cmp(&b.path));
        notes
    }
}

/// What became of one file of a walk.
enum Visit<T> {
    /// Left out (`--no-tests`): not searched.
    Skipped,
    /// Searched; `None` when it holds nothing for the search (or is binary); with a note on
    /// its name when that is not UTF-8.
    Read(Option<T>, Option<String>),
    /// Could not be read: one line saying why.
    Failed(String),
}

/// Walks `scope`, loads each file with `load` on every core and hands each result to
/// `deliver` in path order; a file `load` could not read lands in [`Summary::unreadable`],
/// never silently dropped. `deliver` returning `Break` ends the search early.
pub(crate) fn each_file<T, L, D>(scope: &Scope, load: L, mut deliver: D) -> Result<Summary>
where
    T: Send,
    L: Fn(PathBuf, Option<Language>) -> Result<Option<T>> + Sync,
    D: FnMut(T) -> ControlFlow<()>,
{
    let walk = Walk::new(&scope.paths, scope.walk.clone())?;
    let mut summary = Summary::default();
    let summary_ref = &mut summary;
    crate::parallel::ordered(
        walk,
        |found| match found {
            Found::File { path, .. } if scope.no_tests && is_test_path(&path) => Visit::Skipped,
            found @ Found::File { .. } => {
                let note = found.name_note();
                let Found::File { path, language } = found else {
                    return Visit::Skipped;
                };
                match load(path, language) {
                    Ok(value) => Visit::Read(value, note),
                    // The walk follows no link, so a file that lies outside the root once
                    // opened was swapped for one (or its folder was) after the walk met it:
                    // left out as the link would have been, and its name (which names what
                    // lies outside) not shown.
                    Err(Error::OutsideRoot { .. }) => Visit::Skipped,
                    Err(error) => Visit::Failed(error.to_string()),
                }
            }
            Found::Unreadable(message) => Visit::Failed(message),
        },
        |visit| match visit {
            Visit::Skipped => ControlFlow::Continue(()),
            Visit::Read(value, note) => {
                summary_ref.files += 1;
                summary_ref.notes.extend(note);
                let Some(value) = value else {
                    return ControlFlow::Continue(());
                };
                let flow = deliver(value);
                summary_ref.stopped |= flow.is_break();
                flow
            }
            Visit::Failed(message) => {
                summary_ref.unreadable.push(message);
                ControlFlow::Continue(())
            }
        },
    );
    Ok(summary)
}

pub(crate) use crate::outline::select::innermost_at;

/// The entries of `outline` from the root down to the innermost one holding `line`, an
/// entry's leading docs and attributes included (as [`innermost_at`] reads them).
pub(crate) fn ancestors_at(outline: &Outline, line: usize) -> Vec<&Entry> {
    let mut chain = Vec::new();
    let mut level = &outline.entries[..];
    while let Some(entry) = level
        .iter()
        .rev()
        .find(|e| e.doc_line <= line && line <= e.end_line)
    {
        chain.push(entry);
        level = &entry.children;
    }
    chain
}
