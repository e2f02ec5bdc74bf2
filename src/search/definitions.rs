//! What an index of definitions keeps of each file: its definitions' names end to end in one
//! string, and where each definition's lie in it.

use super::rank::{is_declaration, Candidate};
use crate::lang::Language;
use crate::outline::Kind;
use std::ops::Range;
use std::path::PathBuf;

/// Every definition of one file, in source order (pre-order), for consumers that match on
/// their own (the viewer's picker). The names of all its definitions lie end to end in one
/// string: a file's definitions are two allocations, not two per definition, so what a
/// parse thread hands to an index is a few blocks that leave its malloc arena whole when
/// freed (small strings freed late, one by one, kept 40 MB of freed memory resident there).
#[derive(Debug, Clone)]
pub struct FileDefinitions {
    pub path: PathBuf,
    pub language: Language,
    texts: String,
    entries: Vec<Placed>,
}

/// How many definitions back [`FileDefinitions::push`] looks for the same owners.
const OWNERS_LOOKBACK: usize = 8;

/// Where one definition's names lie in [`FileDefinitions::texts`], and the rest of it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Placed {
    kind: Kind,
    qualname: Range<usize>,
    owners: Range<usize>,
    name_start: usize,
    bare_start: usize,
    line: usize,
    end_line: usize,
    in_test: bool,
}

/// Byte ranges of a definition's qualified name and owners in [`FileDefinitions::texts`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextRanges {
    pub qualname: Range<usize>,
    pub owners: Range<usize>,
}

impl FileDefinitions {
    /// No definitions yet.
    pub fn new(path: PathBuf, language: Language) -> FileDefinitions {
        FileDefinitions {
            path,
            language,
            texts: String::new(),
            entries: Vec::new(),
        }
    }

    /// Appends a definition. Owners spelled as one of the last eight definitions spelled
    /// them are kept once (a type's members follow one another, their own locals between).
    pub fn push(&mut self, defined: Defined<'_>) {
        let qualname = self.append(defined.qualname);
        let repeated = (self.entries.iter().rev().take(OWNERS_LOOKBACK))
            .find(|before| self.texts.get(before.owners.clone()) == Some(defined.owners))
            .map(|before| before.owners.clone());
        let owners = match repeated {
            Some(owners) => owners,
            None => self.append(defined.owners),
        };
        self.entries.push(Placed {
            kind: defined.kind,
            qualname,
            owners,
            name_start: defined.name_start,
            bare_start: defined.bare_start,
            line: defined.line,
            end_line: defined.end_line,
            in_test: defined.in_test,
        });
    }

    fn append(&mut self, text: &str) -> Range<usize> {
        let start = self.texts.len();
        self.texts.push_str(text);
        start..self.texts.len()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The definitions, in source order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Defined<'_>> {
        self.entries.iter().map(|placed| self.defined(placed))
    }

    /// The names of every definition end to end, for an index that keeps them whole; with
    /// [`FileDefinitions::ranges`], where each definition's lie.
    pub fn texts(&self) -> &str {
        &self.texts
    }

    /// Where each definition's names lie in [`FileDefinitions::texts`], in source order.
    pub fn ranges(&self) -> impl ExactSizeIterator<Item = TextRanges> + '_ {
        self.entries.iter().map(|placed| TextRanges {
            qualname: placed.qualname.clone(),
            owners: placed.owners.clone(),
        })
    }

    fn defined<'a>(&'a self, placed: &Placed) -> Defined<'a> {
        Defined {
            kind: placed.kind,
            qualname: self.texts.get(placed.qualname.clone()).unwrap_or(""),
            name_start: placed.name_start,
            bare_start: placed.bare_start,
            owners: self.texts.get(placed.owners.clone()).unwrap_or(""),
            line: placed.line,
            end_line: placed.end_line,
            in_test: placed.in_test,
        }
    }
}

/// One definition as an index keeps it: just what ranking and jumping need (a large tree
/// has hundreds of thousands).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Defined<'a> {
    pub kind: Kind,
    pub qualname: &'a str,
    /// Byte offset of the name as written in `qualname`, which it ends (0 where a qualified
    /// name does not end with the name).
    pub name_start: usize,
    /// Byte offset of the bare name ([`Entry::bare_name`](crate::outline::Entry::bare_name)) in `qualname`.
    pub bare_start: usize,
    /// The owners, as [`owner_path`](super::rank::owner_path) spells them.
    pub owners: &'a str,
    /// 1-based first and last lines.
    pub line: usize,
    pub end_line: usize,
    /// In a test file or a test module.
    pub in_test: bool,
}

impl<'a> Defined<'a> {
    /// The name as written: the end of the qualified name.
    pub fn name(&self) -> &'a str {
        self.qualname
            .get(self.name_start..)
            .unwrap_or(self.qualname)
    }

    /// The bare name ([`Entry::bare_name`](crate::outline::Entry::bare_name)).
    pub fn bare(&self) -> &'a str {
        self.qualname.get(self.bare_start..).unwrap_or(self.name())
    }

    /// What [`tier`](super::rank::tier) matches.
    pub fn candidate(&self) -> Candidate<'a> {
        Candidate {
            kind: self.kind,
            name: self.name(),
            bare: self.bare(),
            qualname: self.qualname,
            owners: self.owners,
        }
    }

    /// Whether this is a one-line declaration ([`is_declaration`]).
    pub fn is_declaration(&self) -> bool {
        is_declaration(self.kind, self.line, self.end_line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defined<'a>(qualname: &'a str, owners: &'a str, line: usize) -> Defined<'a> {
        Defined {
            kind: Kind::Method,
            qualname,
            name_start: qualname.rfind('.').map_or(0, |dot| dot + 1),
            bare_start: qualname.rfind('.').map_or(0, |dot| dot + 1),
            owners,
            line,
            end_line: line + 2,
            in_test: false,
        }
    }

    #[test]
    fn definitions_come_back_as_pushed_with_shared_owners_kept_once() {
        let pushed = [
            defined("Store", "", 1),
            defined("Store.get", "Store", 2),
            defined("Store.get.inner", "Store\u{1f}get", 3),
            defined("Store.put", "Store", 6),
            defined("Cache.get", "Cache", 9),
        ];
        let mut file = FileDefinitions::new(PathBuf::from("a.rs"), Language::Rust);
        pushed.iter().for_each(|d| file.push(*d));
        assert_eq!(file.len(), pushed.len());
        assert!(file.iter().eq(pushed.iter().copied()));
        assert_eq!(file.iter().nth(3).map(|d| d.bare()), Some("put"));
        let ranges: Vec<TextRanges> = file.ranges().collect();
        assert_eq!(
            ranges[3].owners, ranges[1].owners,
            "`Store` is kept once for both members"
        );
        let names: usize = pushed.iter().map(|d| d.qualname.len()).sum();
        let owners = "Store".len() + "Store\u{1f}get".len() + "Cache".len();
        assert_eq!(file.texts().len(), names + owners);
        for (d, at) in file.iter().zip(file.ranges()) {
            assert_eq!(&file.texts()[at.qualname], d.qualname);
            assert_eq!(&file.texts()[at.owners], d.owners);
        }
    }
}
