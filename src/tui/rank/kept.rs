//! What the picker's index keeps for its whole life, in blocks that are never moved.
//!
//! Why not one allocation per string: the index thread frees the definitions the parse
//! threads made, and glibc hands the chunks it has just freed to its next small allocation,
//! so each small string the index kept sat in a parse thread's malloc arena, where a few kept
//! strings stop the arena from giving back the memory parsing freed around them. Blocks of
//! [`BLOCK`] bytes are too large for that reuse, and few.
//!
//! Why not one `Vec` of rows: doubling it copies the rows and frees the old buffer, a hole
//! in the heap as large as everything indexed so far (25 MB at 650,000 definitions) that
//! parsing then fills and the heap cannot give back. [`Rows`] grows by whole blocks instead.

use crate::outline::Kind;
use crate::search::rank::Candidate;
use std::path::PathBuf;

/// One indexed definition.
pub(super) struct Sym {
    /// Where its names lie in its file's [`IndexedFile::texts`]: the qualified name, and the
    /// owners as the shared ranking spells them.
    pub qual_start: u32,
    pub qual_end: u32,
    pub owners_start: u32,
    pub owners_end: u32,
    /// Byte offsets in the qualified name of the name as written and of the bare name.
    pub name_start: u32,
    pub bare_start: u32,
    /// The bare name's number in the table of distinct names.
    pub name: u32,
    pub kind: Kind,
    pub line: u32,
    pub file: u32,
    /// In a file of prose or data: ranked after code, as `--find` ranks it.
    pub not_code: bool,
    pub in_test: bool,
    /// A one-line declaration: listed after its namesakes' implementations.
    pub declaration: bool,
}

impl Sym {
    /// The qualified name, read from its file's `texts`.
    pub fn qualname<'t>(&self, texts: &'t str) -> &'t str {
        texts
            .get(self.qual_start as usize..self.qual_end as usize)
            .unwrap_or("")
    }

    pub fn bare<'t>(&self, texts: &'t str) -> &'t str {
        self.qualname(texts)
            .get(self.bare_start as usize..)
            .unwrap_or("")
    }

    /// What the shared ranking matches.
    pub fn candidate<'t>(&self, texts: &'t str) -> Candidate<'t> {
        let qualname = self.qualname(texts);
        Candidate {
            kind: self.kind,
            name: qualname.get(self.name_start as usize..).unwrap_or(""),
            bare: self.bare(texts),
            qualname,
            owners: texts
                .get(self.owners_start as usize..self.owners_end as usize)
                .unwrap_or(""),
        }
    }
}

/// One file as indexed: its definitions are `syms[start..end]`.
pub(super) struct IndexedFile {
    pub path: PathBuf,
    /// Its definitions' qualified names and owners, end to end, in [`Ranker::strings`].
    pub texts: Span,
    pub start: u32,
    pub end: u32,
    /// The file's place in path order (the order the scan met it in).
    pub order: u32,
    /// A newer version of the file was indexed since, or it is gone.
    pub retired: bool,
}

/// Bytes per block; a longer string gets a block of its own size.
const BLOCK: usize = 64 * 1024;
/// Rows per block of [`Rows`].
const ROWS_PER_BLOCK: usize = 1 << 14;

/// An append-only list of rows in blocks of [`ROWS_PER_BLOCK`].
pub(crate) struct Rows<T> {
    blocks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for Rows<T> {
    fn default() -> Self {
        Rows {
            blocks: Vec::new(),
            len: 0,
        }
    }
}

impl<T> Rows<T> {
    pub fn push(&mut self, row: T) {
        match self.blocks.last_mut() {
            Some(last) if last.len() < ROWS_PER_BLOCK => last.push(row),
            _ => {
                let mut block = Vec::with_capacity(ROWS_PER_BLOCK);
                block.push(row);
                self.blocks.push(block);
            }
        }
        self.len += 1;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn get(&self, at: usize) -> Option<&T> {
        self.blocks
            .get(at / ROWS_PER_BLOCK)
            .and_then(|block| block.get(at % ROWS_PER_BLOCK))
    }

    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.blocks.iter().flatten()
    }

    /// Rows `start..end` (those that exist).
    pub fn range(&self, start: usize, end: usize) -> impl Iterator<Item = &T> {
        (start..end).map_while(|at| self.get(at))
    }
}

impl<T> IntoIterator for Rows<T> {
    type Item = T;
    type IntoIter = std::iter::Flatten<std::vec::IntoIter<Vec<T>>>;

    fn into_iter(self) -> Self::IntoIter {
        self.blocks.into_iter().flatten()
    }
}

impl<T> std::ops::Index<usize> for Rows<T> {
    type Output = T;

    fn index(&self, at: usize) -> &T {
        &self.blocks[at / ROWS_PER_BLOCK][at % ROWS_PER_BLOCK]
    }
}

/// Where a kept string lies.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Span {
    block: u32,
    start: u32,
    len: u32,
}

/// Append-only blocks of kept strings.
#[derive(Default)]
pub(crate) struct Strings {
    blocks: Vec<String>,
}

impl Strings {
    /// Keeps `text` and says where it lies.
    pub fn push(&mut self, text: &str) -> Span {
        let len = text.len();
        let fits = (self.blocks.last()).is_some_and(|last| last.capacity() - last.len() >= len);
        if !fits {
            self.blocks.push(String::with_capacity(len.max(BLOCK)));
        }
        let block = self.blocks.len() - 1;
        let Some(last) = self.blocks.last_mut() else {
            return Span::default();
        };
        let start = last.len();
        last.push_str(text);
        Span {
            block: block as u32,
            start: start as u32,
            len: len as u32,
        }
    }

    /// The string kept at `span` ("" for a span these blocks never gave).
    pub fn get(&self, span: Span) -> &str {
        let start = span.start as usize;
        (self.blocks.get(span.block as usize))
            .and_then(|block| block.get(start..start + span.len as usize))
            .unwrap_or("")
    }

    /// Bytes held, for the tests of compaction.
    #[cfg(test)]
    pub fn capacity(&self) -> usize {
        self.blocks.iter().map(String::capacity).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_found_again_across_blocks() {
        let mut rows = Rows::default();
        let count = ROWS_PER_BLOCK * 2 + 5;
        (0..count).for_each(|i| rows.push(i));
        assert_eq!(rows.len(), count);
        assert_eq!(
            rows.blocks.len(),
            3,
            "whole blocks, none grown past its size"
        );
        assert_eq!(rows[ROWS_PER_BLOCK + 1], ROWS_PER_BLOCK + 1);
        assert_eq!(rows.get(count), None);
        let across: Vec<usize> = rows
            .range(ROWS_PER_BLOCK - 1, ROWS_PER_BLOCK + 2)
            .copied()
            .collect();
        assert_eq!(
            across,
            [ROWS_PER_BLOCK - 1, ROWS_PER_BLOCK, ROWS_PER_BLOCK + 1]
        );
        assert_eq!(
            rows.range(count - 1, count + 10).count(),
            1,
            "only rows that exist"
        );
        assert!(rows.iter().copied().eq(0..count));
        assert!(rows.into_iter().eq(0..count));
    }

    #[test]
    fn strings_come_back_whole_across_blocks() {
        let mut strings = Strings::default();
        let long = "x".repeat(BLOCK + 10);
        let spans: Vec<(String, Span)> = (0..5000)
            .map(|i| format!("name{i}"))
            .chain([long.clone(), "after".to_string()])
            .map(|text| {
                let span = strings.push(&text);
                (text, span)
            })
            .collect();
        for (text, span) in &spans {
            assert_eq!(strings.get(*span), text);
        }
        assert!(
            strings.blocks.len() >= 2,
            "5,000 names fill more than a block"
        );
        assert_eq!(
            strings.get(Span {
                block: 99,
                start: 0,
                len: 1
            }),
            ""
        );
    }
}
