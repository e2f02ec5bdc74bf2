//! The state of the two finder views that sit over the directory and outline panes: the symbol
//! picker (`S`, Ctrl-T) and the results of a text search or a references search (`F`, `g/`,
//! `gr`). Both are a typed query over a list with a selection; the preview pane shows the
//! selected item. The rows come from background work ([`super::rank`], [`super::jobs`]).

use super::rank::{Ranking, Row};
use crate::outline::Kind;
use crate::search::{EntryRef, FileHits};
use std::path::{Path, PathBuf};

/// A selection and scroll offset over a list of rows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cursor {
    pub selected: usize,
    pub offset: usize,
}

impl Cursor {
    /// Keeps the selection inside `len` rows and on screen in a window of `height`.
    pub fn clamp(&mut self, len: usize, height: usize) {
        self.selected = self.selected.min(len.saturating_sub(1));
        let height = height.max(1);
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + height {
            self.offset = self.selected + 1 - height;
        }
        self.offset = self.offset.min(len.saturating_sub(height));
    }
}

/// Which finder view is open over the left panes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overlay {
    None,
    /// The symbol picker.
    Symbols,
    /// Text search or references results.
    Search,
}

/// The symbol picker: the query typed and the latest ranking of the index.
#[derive(Debug, Clone, Default)]
pub struct Picker {
    pub query: String,
    pub ranking: Ranking,
    pub cursor: Cursor,
}

impl Picker {
    /// The selected row, if any.
    pub fn selected(&self) -> Option<&Row> {
        self.ranking.rows.get(self.cursor.selected)
    }

    /// Takes a new ranking; the selection goes back to the top when the query changed, and
    /// otherwise stays on the definition it was on (rows that arrive above it, while the
    /// tree is indexed, must not change what Enter opens).
    pub fn accept(&mut self, ranking: Ranking) {
        let same_query =
            ranking.query == self.ranking.query && ranking.generation == self.ranking.generation;
        let was = self.selected().filter(|_| same_query).cloned();
        self.ranking = ranking;
        if !same_query {
            self.cursor = Cursor::default();
            return;
        }
        let same_row = |row: &Row, was: &Row| {
            row.path == was.path && row.line == was.line && row.qualname == was.qualname
        };
        if let Some(at) =
            was.and_then(|was| self.ranking.rows.iter().position(|row| same_row(row, &was)))
        {
            self.cursor.selected = at;
        }
    }

    pub fn move_by(&mut self, delta: isize) {
        let last = self.ranking.rows.len().saturating_sub(1) as isize;
        self.cursor.selected =
            (self.cursor.selected as isize + delta).clamp(0, last.max(0)) as usize;
    }

    /// "12 of 3,400 · indexing 210 files…" for the title.
    pub fn counts(&self) -> String {
        let r = &self.ranking;
        let matched = crate::parse::thousands(r.matched);
        let mut text = match r.query.trim().is_empty() {
            true => format!("{matched} definitions"),
            false => format!("{matched} of {}", crate::parse::thousands(r.indexed)),
        };
        if r.matched > r.rows.len() {
            text.push_str(&format!(", best {} shown", r.rows.len()));
        }
        if !r.done {
            text.push_str(&format!(" · indexing, {} files so far…", r.files));
        }
        text
    }
}

/// What a search view searched for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchKind {
    /// A regex over the tree.
    Text,
    /// The uses of a name.
    References,
}

/// One row of a search view: a file, an enclosing entry, or a hit to jump to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResultRow {
    File {
        path: PathBuf,
        hits: usize,
    },
    Entry {
        kind: Kind,
        qualname: String,
        line: usize,
        /// References: this entry defines the name.
        defines: bool,
    },
    Hit {
        path: PathBuf,
        line: usize,
        column: usize,
        text: String,
        definition: bool,
    },
}

/// Hits kept at most; a search that finds more stops and says so.
pub const MAX_HITS: usize = 10_000;

/// A text or references search: its query, its rows so far and how it ended.
#[derive(Debug, Clone)]
pub struct Results {
    pub kind: SearchKind,
    pub query: String,
    /// The query whose results are shown (`None` before the first run).
    pub ran: Option<String>,
    pub rows: Vec<ResultRow>,
    pub cursor: Cursor,
    /// The running search's job number (messages of other jobs are dropped).
    pub job: u64,
    pub running: bool,
    /// When the query typed last starts its search (typing has to pause first).
    pub due: Option<std::time::Instant>,
    pub files: usize,
    pub hits: usize,
    /// When the search stopped at [`MAX_HITS`]: how many hits it had met by then (the
    /// whole of the file it stopped in), a floor for what narrowing has to cut.
    pub capped: Option<usize>,
    /// Why the search failed or stopped early, or what it could not read.
    pub note: Option<String>,
    /// Enter ran this search (its query had changed): its first hit is jumped to when it
    /// arrives, so one Enter is enough. Typing again or closing the view drops it.
    pub jump_when_found: bool,
}

impl Default for Results {
    fn default() -> Self {
        Results {
            kind: SearchKind::Text,
            query: String::new(),
            ran: None,
            rows: Vec::new(),
            cursor: Cursor::default(),
            job: 0,
            running: false,
            due: None,
            files: 0,
            hits: 0,
            capped: None,
            note: None,
            jump_when_found: false,
        }
    }
}

impl Results {
    /// Clears the rows for a new run of `query` as `job`.
    pub fn restart(&mut self, job: u64) {
        self.ran = Some(self.query.clone());
        self.rows.clear();
        self.cursor = Cursor::default();
        self.job = job;
        self.running = true;
        self.files = 0;
        self.hits = 0;
        self.capped = None;
        self.note = None;
    }

    /// Adds one file's hits; returns `false` once [`MAX_HITS`] are kept (the search should stop).
    pub fn add(&mut self, file: FileHits) -> bool {
        let count: usize = file.groups.iter().map(|g| g.hits.len()).sum();
        let first_hit = self.hits == 0;
        let met = self.hits + count;
        self.files += 1;
        self.rows.push(ResultRow::File {
            path: file.path.clone(),
            hits: count,
        });
        for group in file.groups {
            if let Some(entry) = &group.entry {
                self.rows.push(entry_row(entry, group.defines()));
            }
            for hit in group.hits {
                if self.hits >= MAX_HITS {
                    self.capped = Some(met);
                    return false;
                }
                self.hits += 1;
                self.rows.push(ResultRow::Hit {
                    path: file.path.clone(),
                    line: hit.line,
                    column: hit.column,
                    text: hit.text,
                    definition: hit.definition,
                });
            }
        }
        if first_hit {
            self.cursor.selected = self.next_hit(0, true).unwrap_or(0);
        }
        true
    }

    /// The hit row at or after (`forward`) / before `from`.
    fn next_hit(&self, from: usize, forward: bool) -> Option<usize> {
        let is_hit = |i: &usize| matches!(self.rows.get(*i), Some(ResultRow::Hit { .. }));
        match forward {
            true => (from..self.rows.len()).find(is_hit),
            false => (0..=from.min(self.rows.len().saturating_sub(1)))
                .rev()
                .find(is_hit),
        }
    }

    /// Moves the selection `delta` hits, skipping file and entry rows.
    pub fn move_by(&mut self, delta: isize) {
        let mut at = self.cursor.selected;
        for _ in 0..delta.unsigned_abs() {
            let next = match delta > 0 {
                true => self.next_hit(at + 1, true),
                false => at.checked_sub(1).and_then(|i| self.next_hit(i, false)),
            };
            match next {
                Some(next) => at = next,
                None => break,
            }
        }
        self.cursor.selected = at;
    }

    /// The selected hit's file and 1-based line.
    pub fn selected(&self) -> Option<(&Path, usize)> {
        match self.rows.get(self.cursor.selected)? {
            ResultRow::Hit { path, line, .. } => Some((path.as_path(), *line)),
            _ => None,
        }
    }

    /// "grep 'x' · 12 hits in 3 files · searching…" for the title; a search stopped at the
    /// cap says so: "10,000 of at least 10,509 hits in 1,975 files: narrow the search".
    pub fn counts(&self) -> String {
        let plural = |n: usize, one: &str, many: &str| {
            format!(
                "{} {}",
                crate::parse::thousands(n),
                if n == 1 { one } else { many }
            )
        };
        let hits = match self.capped {
            Some(met) => format!(
                "{} of at least {}",
                crate::parse::thousands(self.hits),
                plural(met, "hit", "hits")
            ),
            None => plural(self.hits, "hit", "hits"),
        };
        let mut text = format!("{hits} in {}", plural(self.files, "file", "files"));
        if self.capped.is_some() {
            text.push_str(": narrow the search");
        }
        if self.running || self.due.is_some() {
            text.push_str(" · searching…");
        }
        // While the next query waits for typing to pause, the rows are the last query's.
        if let Some(ran) = self.ran.as_deref().filter(|ran| *ran != self.query) {
            text.push_str(&format!(" · for '{ran}'"));
        }
        text
    }
}

fn entry_row(entry: &EntryRef, defines: bool) -> ResultRow {
    ResultRow::Entry {
        kind: entry.kind,
        qualname: entry.qualname.clone(),
        line: entry.line,
        defines,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Hit, HitGroup};

    fn hits(path: &str, lines: &[usize]) -> FileHits {
        FileHits {
            path: PathBuf::from(path),
            language: None,
            hash: String::new(),
            local_uses: 0,
            other_overloads: Default::default(),
            groups: vec![HitGroup {
                entry: None,
                hits: lines
                    .iter()
                    .map(|&line| Hit {
                        line,
                        column: 1,
                        text: format!("line {line}"),
                        definition: false,
                        uncalled_member: false,
                    })
                    .collect(),
                context: Vec::new(),
            }],
        }
    }

    #[test]
    fn selection_skips_headers_and_stops_at_the_ends() {
        let mut results = Results::default();
        results.restart(1);
        assert!(results.add(hits("a.py", &[3, 9])));
        assert!(results.add(hits("b.py", &[1])));
        assert_eq!(results.selected(), Some((Path::new("a.py"), 3)));
        results.move_by(2);
        assert_eq!(results.selected(), Some((Path::new("b.py"), 1)));
        results.move_by(5);
        assert_eq!(results.selected(), Some((Path::new("b.py"), 1)));
        results.move_by(-1);
        assert_eq!(results.selected(), Some((Path::new("a.py"), 9)));
        results.move_by(-9);
        assert_eq!(results.selected(), Some((Path::new("a.py"), 3)));
        assert_eq!((results.files, results.hits), (2, 3));
    }

    #[test]
    fn the_selection_stays_on_its_definition_while_rows_arrive_above_it() {
        let row = |name: &str, line| Row {
            kind: crate::outline::Kind::Function,
            qualname: name.into(),
            path: PathBuf::from("a.rs"),
            line,
            in_test: false,
            matched: Vec::new(),
        };
        let ranking = |rows: Vec<Row>| Ranking {
            query: "get".into(),
            rows,
            ..Ranking::default()
        };
        let mut picker = Picker::default();
        picker.accept(ranking(vec![row("get_all", 1), row("getter", 2)]));
        picker.move_by(1);
        assert_eq!(picker.selected().map(|r| r.line), Some(2));
        // The exact match arrives on top while the index is built.
        picker.accept(ranking(vec![
            row("get", 9),
            row("get_all", 1),
            row("getter", 2),
        ]));
        assert_eq!(
            picker.selected().map(|r| r.qualname.as_str()),
            Some("getter")
        );
        // A new query starts at the top.
        picker.accept(Ranking {
            query: "gett".into(),
            ..ranking(vec![row("getter", 2), row("get", 9)])
        });
        assert_eq!(picker.cursor.selected, 0);
    }

    #[test]
    fn too_many_hits_stop_with_a_note() {
        let mut results = Results::default();
        results.restart(1);
        let many: Vec<usize> = (1..=MAX_HITS + 5).collect();
        assert!(!results.add(hits("big.txt", &many)));
        assert_eq!(results.hits, MAX_HITS);
        results.running = false;
        assert_eq!(
            results.counts(),
            "10,000 of at least 10,005 hits in 1 file: narrow the search"
        );
    }

    #[test]
    fn cursor_stays_in_the_list_and_on_screen() {
        let mut cursor = Cursor {
            selected: 50,
            offset: 0,
        };
        cursor.clamp(30, 10);
        assert_eq!((cursor.selected, cursor.offset), (29, 20));
        cursor.selected = 2;
        cursor.clamp(30, 10);
        assert_eq!(cursor.offset, 2);
        cursor.clamp(0, 10);
        assert_eq!((cursor.selected, cursor.offset), (0, 0));
    }
}
