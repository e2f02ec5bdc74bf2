//! The symbol picker's index and ranking, on a thread of its own so that no key waits on them.
//!
//! Definitions stream in from [`search::each_definition`] (one more background thread), queries
//! from the viewer; after each change the thread sends back the best [`SHOWN`] rows as a
//! [`Ranking`]. The order is the search engine's one ranking ([`search::rank`], which
//! `--find` uses on the same candidates): exact names, qualified suffixes and globs by the
//! shared rank, then fuzzy matches (nucleo, see [`query`]); ties by fuzzy score, then path
//! order. A query that only extends the last one re-scores only the last matches, and large
//! sets are scored on every core.
//!
//! A file read again (saved, reloaded, or met twice by a scan and a refresh) replaces its
//! rows: its old rows are retired at once and their memory given back once they are half
//! the index.
//!
//! The index keeps a compact row per definition (qualified name, kind, line, file and name
//! numbers) and a table of distinct names: each distinct name is scored once per query, and
//! the queries typed on the way to this one keep their matches, so typing on rescores only
//! the last matches and Backspace rescores nothing. While definitions stream in, each answer
//! ranks only what arrived since the last one against the best kept.
//!
//! Memory: rows and names live in blocks ([`kept`]), and what the parse threads made is freed
//! on a thread that ends with the scan. Measured with benches/picker.rs on 2 cores: moby
//! (648,299 definitions) 93 MB resident with the full index, peak 117-125 MB (151-155 and
//! 164-175 MB before); 100 MB of crate sources (682,855 definitions) 78 MB, peak 95 MB; a
//! keystroke is ranked and drawn in 5-7 ms (median).

use super::jobs::{Cancel, Message};
use crate::outline::Kind;
use crate::search::rank::{implementations_first, is_declaration, namesake_key};
use crate::search::{self, FileDefinitions, Scope, Summary};
use handoff::{Backlog, Freer};
use kept::{IndexedFile, Rows, Strings, Sym};
use nucleo_matcher::{Config, Matcher, Utf32Str};
use query::{in_parallel, score_names, scored, NameHit, Names, Query, Scored, Verdict};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Rows sent to the viewer, best first; the counts say how many more matched.
pub const SHOWN: usize = 1000;
/// While definitions stream in, rankings are sent at most this often.
const SEND_EVERY: Duration = Duration::from_millis(40);
/// Retired rows are dropped from memory once they are this many and half the index.
const COMPACT_FROM: usize = 4096;
/// The most bytes of names one file's definitions keep: offsets into them are `u32`.
const MAX_TEXT: usize = u32::MAX as usize;

mod handoff;
mod kept;
mod query;
#[cfg(test)]
mod tests;

/// One row of the picker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub kind: Kind,
    pub qualname: String,
    pub path: PathBuf,
    /// 1-based line of the definition.
    pub line: usize,
    pub in_test: bool,
    /// Character positions of `qualname` that matched the query, for highlighting.
    pub matched: Vec<u32>,
}

/// The best rows for a query and what the index holds so far.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ranking {
    /// The index that ranked (a rebuilt index has a new one).
    pub generation: u64,
    pub query: String,
    pub rows: Vec<Row>,
    /// Definitions matching the query (rows holds the first [`SHOWN`]).
    pub matched: usize,
    /// Definitions indexed so far, and the files they came from.
    pub indexed: usize,
    pub files: usize,
    /// The scan of the tree ended.
    pub done: bool,
    /// Why the scan could not run, or entries it could not read.
    pub note: Option<String>,
}

enum Input {
    Files(FileDefinitions),
    /// A file read again since it was indexed: its definitions now.
    Refresh(FileDefinitions),
    /// A file gone from the tree.
    Remove(PathBuf),
    Query(String),
    Done(Result<Summary, String>),
    /// A reading of the whole tree again starts or ends (see [`Ranker::spent`]).
    Rescan {
        started: bool,
    },
}

/// The handle of a running index: queries go in; rankings come back as [`Message::Ranked`].
/// Dropping it stops the scan and the thread.
pub struct SymbolIndex {
    tx: Sender<Input>,
    cancel: Cancel,
    pub generation: u64,
}

impl SymbolIndex {
    /// Starts indexing `scope` and ranking for the empty query.
    pub fn start(scope: Scope, generation: u64, ui: Sender<Message>) -> SymbolIndex {
        let (tx, rx) = mpsc::channel();
        let cancel = Cancel::default();
        let scan_tx = tx.clone();
        let scan_cancel = cancel.clone();
        let backlog = Arc::new(Backlog::default());
        let scan_backlog = Arc::clone(&backlog);
        std::thread::spawn(move || {
            let result = search::each_definition(&scope, |file| {
                scan_backlog.wait_for_room(&scan_cancel);
                if scan_cancel.is_cancelled() || scan_tx.send(Input::Files(file)).is_err() {
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            });
            let _ = scan_tx.send(Input::Done(result.map_err(|e| e.to_string())));
        });
        std::thread::spawn(move || Ranker::new(generation, ui).run(rx, &backlog));
        SymbolIndex {
            tx,
            cancel,
            generation,
        }
    }

    /// Ranks the index for `query` (the answer arrives as a message).
    pub fn query(&self, query: &str) {
        let _ = self.tx.send(Input::Query(query.to_string()));
    }

    /// Replaces what the index holds for one file with its definitions as read now (the
    /// viewer read it again: opened, previewed, saved from elsewhere). Nothing changes when
    /// they are the same; otherwise a new ranking follows.
    pub fn refresh(&self, file: FileDefinitions) {
        let _ = self.tx.send(Input::Refresh(file));
    }

    /// Reads the files of `scope` again on a thread of their own and takes each as it is now
    /// (files changed on disk).
    pub fn reindex(&self, scope: Scope) {
        let tx = self.tx.clone();
        std::thread::spawn(move || {
            let _ = tx.send(Input::Rescan { started: true });
            let _ = search::each_definition(&scope, |file| match tx.send(Input::Refresh(file)) {
                Ok(()) => ControlFlow::Continue(()),
                Err(_) => ControlFlow::Break(()),
            });
            let _ = tx.send(Input::Rescan { started: false });
        });
    }

    /// Drops what the index holds for a file that is gone (deleted, renamed away).
    pub fn remove(&self, path: &Path) {
        let _ = self.tx.send(Input::Remove(path.to_path_buf()));
    }
}

impl Drop for SymbolIndex {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

/// The ranking thread's state.
struct Ranker {
    generation: u64,
    ui: Sender<Message>,
    /// Definitions as the parse threads made them, once copied into the index, are freed on
    /// a thread of their own while a scan runs (see [`kept`] for why not here).
    spent: Option<Freer>,
    syms: Rows<Sym>,
    files: Vec<IndexedFile>,
    /// The files' texts ([`IndexedFile::texts`]).
    strings: Strings,
    /// The number of each path's current version in `files`.
    numbers: rustc_hash::FxHashMap<PathBuf, u32>,
    /// The next file's place in path order.
    next_order: u32,
    /// Definitions of retired files: never ranked, and not counted.
    retired_syms: usize,
    names: Names,
    query: Query,
    /// For a query about names: each distinct name's verdict, `None` for no match.
    verdicts: Vec<Option<Verdict>>,
    /// The name matches of the queries typed on the way to this one (each narrowing the one
    /// before), so that typing on scores only the last matches and Backspace costs nothing.
    history: Vec<(String, Vec<NameHit>)>,
    matched: Vec<Scored>,
    /// The best [`SHOWN`] of `matched[..seen]`, in order.
    top: Vec<Scored>,
    seen: usize,
    matchers: Vec<Matcher>,
    done: bool,
    note: Option<String>,
    last_sent: Option<Instant>,
}

impl Ranker {
    fn new(generation: u64, ui: Sender<Message>) -> Ranker {
        let workers = std::thread::available_parallelism().map_or(1, usize::from);
        let mut ranker = Ranker {
            generation,
            ui,
            spent: None,
            syms: Rows::default(),
            files: Vec::new(),
            strings: Strings::default(),
            numbers: Default::default(),
            next_order: 0,
            retired_syms: 0,
            names: Names::default(),
            query: Query::parse(""),
            verdicts: Vec::new(),
            history: Vec::new(),
            matched: Vec::new(),
            top: Vec::new(),
            seen: 0,
            matchers: (0..workers)
                .map(|_| Matcher::new(Config::DEFAULT))
                .collect(),
            done: false,
            note: None,
            last_sent: None,
        };
        // The first scan starts with the index.
        ranker.start_freeing();
        ranker
    }

    /// Handles inputs until the viewer and the scan are gone; several waiting inputs are
    /// taken together so that one ranking answers them all.
    fn run(mut self, rx: Receiver<Input>, backlog: &Backlog) {
        while let Ok(first) = rx.recv() {
            let mut changed = false;
            let mut latest_query = None;
            let mut input = Some(first);
            while let Some(next) = input.take() {
                match next {
                    Input::Files(file) => {
                        backlog.took_one();
                        changed |= self.put(file)
                    }
                    Input::Refresh(file) => changed |= self.put(file),
                    Input::Remove(path) => changed |= self.remove(&path),
                    Input::Query(text) => latest_query = Some(text),
                    Input::Done(result) => self.finish(result),
                    Input::Rescan { started: true } => self.start_freeing(),
                    Input::Rescan { started: false } => self.stop_freeing(),
                }
                input = rx.try_recv().ok();
            }
            if let Some(text) = latest_query {
                self.set_query(&text);
                changed = true;
            }
            let due = self.last_sent.is_none_or(|at| at.elapsed() >= SEND_EVERY);
            if (changed || self.done || due) && self.send().is_err() {
                return;
            }
        }
    }

    /// Takes a file's definitions as read now, in place of any the index holds for it (the
    /// scan and a viewer's refresh may both bring the same file); returns whether the index
    /// changed.
    fn put(&mut self, file: FileDefinitions) -> bool {
        let order = match self.numbers.get(&file.path) {
            Some(&number) => {
                let indexed = &self.files[number as usize];
                let texts = self.strings.get(indexed.texts);
                let same = (indexed.end - indexed.start) as usize == file.len()
                    && (self
                        .syms
                        .range(indexed.start as usize, indexed.end as usize))
                    .zip(file.iter())
                    .all(|(sym, entry)| {
                        sym.qualname(texts) == entry.qualname
                            && sym.line as usize == entry.line
                            && sym.kind == entry.kind
                            && sym.declaration
                                == is_declaration(entry.kind, entry.line, entry.end_line)
                    });
                if same {
                    self.release(file);
                    return false;
                }
                let order = indexed.order;
                self.remove(&file.path);
                order
            }
            None => {
                self.next_order += 1;
                self.next_order
            }
        };
        self.add(file, order);
        true
    }

    /// Retires what the index holds for `path`; returns whether it held anything.
    fn remove(&mut self, path: &Path) -> bool {
        let Some(number) = self.numbers.remove(path) else {
            return false;
        };
        let file = &mut self.files[number as usize];
        file.retired = true;
        self.retired_syms += (file.end - file.start) as usize;
        let files = &self.files;
        let syms = &self.syms;
        self.matched
            .retain(|m| !files[syms[m.at as usize].file as usize].retired);
        self.rebuilt();
        if self.retired_syms >= COMPACT_FROM && self.retired_syms * 2 >= self.syms.len() {
            self.compact();
        }
        true
    }

    /// Drops the rows of retired files from memory, renumbering the rest.
    fn compact(&mut self) {
        let mut new_at = vec![u32::MAX; self.syms.len()];
        let mut new_file = vec![u32::MAX; self.files.len()];
        let mut files = Vec::with_capacity(self.numbers.len());
        let mut syms = Rows::default();
        let mut strings = Strings::default();
        let mut old_syms = std::mem::take(&mut self.syms).into_iter().enumerate();
        for (number, file) in std::mem::take(&mut self.files).into_iter().enumerate() {
            let rows = old_syms.by_ref().take((file.end - file.start) as usize);
            if file.retired {
                rows.for_each(drop);
                continue;
            }
            new_file[number] = files.len() as u32;
            let start = syms.len() as u32;
            for (at, mut sym) in rows {
                new_at[at] = syms.len() as u32;
                sym.file = files.len() as u32;
                syms.push(sym);
            }
            let end = syms.len() as u32;
            let texts = strings.push(self.strings.get(file.texts));
            files.push(IndexedFile {
                start,
                end,
                texts,
                ..file
            });
        }
        for number in self.numbers.values_mut() {
            *number = new_file[*number as usize];
        }
        for m in &mut self.matched {
            m.at = new_at[m.at as usize];
        }
        self.matched.retain(|m| m.at != u32::MAX);
        self.syms = syms;
        self.files = files;
        self.strings = strings;
        self.retired_syms = 0;
        self.rebuilt();
    }

    /// Appends a file's definitions, scoring each for the current query.
    fn add(&mut self, file: FileDefinitions, order: u32) {
        // Offsets into the file's names are `u32`: past 4 GiB of them (no file the reader
        // accepts comes near it), the rest of the file's definitions are left out.
        let kept = (file.ranges())
            .take_while(|at| at.qualname.end.max(at.owners.end) <= MAX_TEXT)
            .count();
        let texts = self.strings.push(file.texts());
        let number = self.files.len() as u32;
        let start = self.syms.len() as u32;
        self.numbers.insert(file.path.as_path().into(), number);
        self.files.push(IndexedFile {
            path: file.path.as_path().into(),
            texts,
            start,
            end: start + kept as u32,
            order,
            retired: false,
        });
        let texts = self.strings.get(texts);
        // Names scored for one query are not scored for the queries before it.
        self.history.clear();
        let (matcher, buf) = (&mut self.matchers[0], &mut Vec::new());
        for (entry, at) in file.iter().zip(file.ranges()).take(kept) {
            let (name, new) = self.names.intern(entry.bare());
            let sym = Sym {
                qual_start: at.qualname.start as u32,
                qual_end: at.qualname.end as u32,
                owners_start: at.owners.start as u32,
                owners_end: at.owners.end as u32,
                name_start: entry.name_start as u32,
                bare_start: entry.bare_start as u32,
                name,
                kind: entry.kind,
                line: entry.line as u32,
                file: number,
                not_code: !file.language.is_code(),
                in_test: entry.in_test,
                declaration: is_declaration(entry.kind, entry.line, entry.end_line),
            };
            let at = self.syms.len() as u32;
            let query = &self.query;
            let verdict = if query.qualified {
                query.score_qualified(&sym, texts, matcher, buf)
            } else {
                if new {
                    let (text, mask) = (
                        self.names.get(name).unwrap_or(""),
                        self.names.masks[name as usize],
                    );
                    self.verdicts
                        .push(query.score_name(text, mask, matcher, buf));
                }
                let verdict = self.verdicts.get(name as usize).copied().flatten();
                verdict.filter(|_| query.wants(&sym))
            };
            self.matched
                .extend(verdict.map(|v| scored(&sym, at, order, v)));
            self.syms.push(sym);
        }
        self.release(file);
    }

    /// Frees what the parse threads made, on the [`Freer`] while a scan runs.
    fn release(&self, file: FileDefinitions) {
        match &self.spent {
            Some(freer) => freer.free(file),
            None => drop(file),
        }
    }

    fn set_query(&mut self, text: &str) {
        if text == self.query.text {
            return;
        }
        self.rescore(Query::parse(text));
    }

    /// Scores the index for `query` (narrowing the last matches when it extends them).
    fn rescore(&mut self, query: Query) {
        self.rebuilt();
        let (files, syms, strings) = (&self.files, &self.syms, &self.strings);
        if query.qualified {
            let candidates: Vec<u32> = match query.narrows(&self.query) && self.query.qualified {
                true => self.matched.iter().map(|m| m.at).collect(),
                false => (0..syms.len() as u32)
                    .filter(|&at| !files[syms[at as usize].file as usize].retired)
                    .collect(),
            };
            self.query = query;
            let query = &self.query;
            self.matched = in_parallel(&candidates, &mut self.matchers, |&at, matcher, buf| {
                let sym = syms.get(at as usize)?;
                let file = &files[sym.file as usize];
                let verdict = query.score_qualified(sym, strings.get(file.texts), matcher, buf)?;
                Some(scored(sym, at, file.order, verdict))
            });
        } else {
            self.query = query;
            let hits = self.name_hits();
            self.verdicts = vec![None; self.names.len()];
            for hit in &hits {
                self.verdicts[hit.id as usize] = Some((hit.tier, hit.score));
            }
            let (query, verdicts, files) = (&self.query, &self.verdicts, &self.files);
            self.matched = self
                .syms
                .iter()
                .enumerate()
                .filter(|(_, sym)| query.wants(sym) && !files[sym.file as usize].retired)
                .filter_map(|(at, sym)| {
                    let verdict = verdicts.get(sym.name as usize).copied().flatten()?;
                    Some(scored(
                        sym,
                        at as u32,
                        files[sym.file as usize].order,
                        verdict,
                    ))
                })
                .collect();
        }
    }

    /// The names matching the current query, from the narrowest earlier query it extends.
    fn name_hits(&mut self) -> Vec<NameHit> {
        let query = &self.query;
        let cacheable = query.pattern.is_some();
        if !cacheable {
            self.history.clear();
            let all: Vec<u32> = (0..self.names.len() as u32).collect();
            return score_names(query, &self.names, &all, &mut self.matchers);
        }
        while let Some((fuzzy, hits)) = self.history.last() {
            if *fuzzy == query.fuzzy {
                return hits.clone();
            }
            if query.fuzzy.starts_with(fuzzy.as_str()) && !query.fuzzy.contains('!') {
                let candidates: Vec<u32> = hits.iter().map(|hit| hit.id).collect();
                let hits = score_names(query, &self.names, &candidates, &mut self.matchers);
                self.history.push((query.fuzzy.clone(), hits.clone()));
                return hits;
            }
            self.history.pop();
        }
        let all: Vec<u32> = (0..self.names.len() as u32).collect();
        let hits = score_names(query, &self.names, &all, &mut self.matchers);
        self.history.push((query.fuzzy.clone(), hits.clone()));
        hits
    }

    /// Frees what a scan's parse threads make on a [`Freer`] from now on.
    fn start_freeing(&mut self) {
        self.spent.get_or_insert_with(Freer::start);
    }

    /// Ends the [`Freer`] with the scan, before the ranking that says the index is complete.
    fn stop_freeing(&mut self) {
        if let Some(freer) = self.spent.take() {
            freer.stop();
        }
    }

    fn finish(&mut self, result: Result<Summary, String>) {
        self.stop_freeing();
        self.done = true;
        self.note = match result {
            Err(err) => Some(err),
            Ok(summary) if !summary.unreadable.is_empty() => Some(format!(
                "{} entries could not be read",
                summary.unreadable.len()
            )),
            Ok(_) => None,
        };
    }

    fn send(&mut self) -> Result<(), mpsc::SendError<Message>> {
        self.last_sent = Some(Instant::now());
        let ranking = self.ranking();
        self.ui.send(Message::Ranked(ranking))
    }

    /// Brings [`Ranker::top`] up to date with the matches added since it was last: the best
    /// of the old best and the new ones, so that a send while a large tree streams in costs
    /// what arrived since the last one, not the whole index.
    fn update_top(&mut self) {
        let seen = self.seen.min(self.matched.len());
        let fresh = &mut self.matched[seen..];
        let best = SHOWN.min(fresh.len());
        if best > 0 && best < fresh.len() {
            fresh.select_nth_unstable(best - 1);
        }
        let mut top = std::mem::take(&mut self.top);
        top.extend_from_slice(&fresh[..best]);
        top.sort_unstable();
        top.truncate(SHOWN);
        self.top = top;
        self.seen = self.matched.len();
    }

    /// `matched` was rebuilt, not added to: the best are found again from all of it.
    fn rebuilt(&mut self) {
        self.top.clear();
        self.seen = 0;
    }

    /// The best [`SHOWN`] matches as rows.
    fn ranking(&mut self) -> Ranking {
        self.update_top();
        let mut indices = Vec::new();
        let matcher = &mut self.matchers[0];
        let query = &self.query;
        let mut rows: Vec<(u8, bool, bool, Row)> = self
            .top
            .iter()
            .filter_map(|m| {
                let sym = self.syms.get(m.at as usize)?;
                let file = self.files.get(sym.file as usize)?;
                let texts = self.strings.get(file.texts);
                indices.clear();
                if let Some(pattern) = &query.pattern {
                    let mut buf = Vec::new();
                    let haystack = match query.qualified {
                        true => sym.qualname(texts),
                        false => sym.bare(texts),
                    };
                    pattern.indices(Utf32Str::new(haystack, &mut buf), matcher, &mut indices);
                    indices.sort_unstable();
                    indices.dedup();
                    // Positions in the bare name move by the owners' characters before it.
                    if !query.qualified {
                        let owner = sym.qualname(texts)[..sym.bare_start as usize]
                            .chars()
                            .count();
                        indices.iter_mut().for_each(|i| *i += owner as u32);
                    }
                }
                let row = Row {
                    kind: sym.kind,
                    qualname: sym.qualname(texts).to_string(),
                    path: file.path.clone(),
                    line: sym.line as usize,
                    in_test: sym.in_test,
                    matched: indices.clone(),
                };
                Some((m.tier, sym.not_code, sym.declaration, row))
            })
            .collect();
        implementations_first(
            &mut rows,
            |(tier, not_code, _, row)| (*tier, *not_code, row.in_test, namesake_key(&row.qualname)),
            |(_, _, declaration, _)| *declaration,
        );
        let rows = rows.into_iter().map(|(_, _, _, row)| row).collect();
        Ranking {
            generation: self.generation,
            query: self.query.text.clone(),
            rows,
            matched: self.matched.len(),
            indexed: self.syms.len() - self.retired_syms,
            files: self.numbers.len(),
            done: self.done,
            note: self.note.clone(),
        }
    }
}
