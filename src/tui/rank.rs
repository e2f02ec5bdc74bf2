//! The symbol picker's index and ranking, on a thread of its own so that no key waits on them.
//!
//! Definitions stream in from [`search::each_definition`] (one more background thread), queries
//! from the viewer; after each change the thread sends back the best [`SHOWN`] rows as a
//! [`Ranking`]. Matching is nucleo's fuzzy matcher (the one helix uses) on each definition's
//! name, or its qualified name when the query names an owner (`Buffer.set`), after a one-AND
//! prefilter on the letters present; the order is the engine's: an exact name first, then a
//! qualified-name suffix, then glob and fuzzy matches;
//! within each, code outside tests first ([`search::is_test_path`] and test modules); then the
//! fuzzy score; then path order. A query that only extends the last one re-scores only the last
//! matches, and large sets are scored on every core.
//!
//! The index keeps a compact row per definition (qualified name, kind, line, file and name
//! numbers) and a table of distinct names: each distinct name is scored once per query, and
//! the queries typed on the way to this one keep their matches, so typing on rescores only
//! the last matches and Backspace rescores nothing. While definitions stream in, each answer
//! ranks only what arrived since the last one against the best kept. Measured on 751,000
//! definitions (103 MB of sources, benches/picker.sh, load average 12 on 2 cores): a keystroke
//! is ranked and drawn in 12-15 ms (median), the process peaks near 125 MB.

use super::jobs::{Cancel, Message};
use crate::outline::Kind;
#[cfg(test)]
use crate::search::Defined;
use crate::search::{self, FileDefinitions, FindQuery, Scope, Summary};
use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

/// Rows sent to the viewer, best first; the counts say how many more matched.
pub const SHOWN: usize = 1000;
/// While definitions stream in, rankings are sent at most this often.
const SEND_EVERY: Duration = Duration::from_millis(40);
/// Below this many candidates one thread scores them all.
const PARALLEL_FROM: usize = 20_000;

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
    Query(String),
    Done(Result<Summary, String>),
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
        std::thread::spawn(move || {
            let result = search::each_definition(&scope, |file| {
                if scan_cancel.is_cancelled() || scan_tx.send(Input::Files(file)).is_err() {
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            });
            let _ = scan_tx.send(Input::Done(result.map_err(|e| e.to_string())));
        });
        std::thread::spawn(move || Ranker::new(generation, ui).run(rx));
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
}

impl Drop for SymbolIndex {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

/// One indexed definition.
struct Sym {
    qualname: Box<str>,
    /// Byte offset of the name inside `qualname` (the name ends it).
    name_start: u32,
    /// The name's number in the table of distinct names.
    name: u32,
    kind: Kind,
    line: u32,
    file: u32,
    in_test: bool,
    /// The letters, digits and `_` of the qualified name ([`char_mask`]).
    qual_mask: u64,
}

impl Sym {
    fn name(&self) -> &str {
        self.qualname.get(self.name_start as usize..).unwrap_or("")
    }
}

/// A bit per ASCII letter (either case), digit and `_` that `text` holds: a definition whose
/// mask lacks a bit of the query's cannot match it, which one AND tells before any scoring.
fn char_mask(text: &str) -> u64 {
    text.bytes().fold(0, |mask, b| {
        mask | match b.to_ascii_lowercase() {
            c @ b'a'..=b'z' => 1 << (c - b'a'),
            c @ b'0'..=b'9' => 1 << (26 + c - b'0'),
            b'_' => 1 << 36,
            _ => 0,
        }
    })
}

/// The distinct names of the index. Most queries match names only, and a big tree repeats
/// them (`new`, `fmt`, `from`): each distinct name is scored once per query.
#[derive(Default)]
struct Names {
    text: Vec<Box<str>>,
    masks: Vec<u64>,
    ids: rustc_hash::FxHashMap<Box<str>, u32>,
}

impl Names {
    /// The number of `name`, and whether it is new.
    fn intern(&mut self, name: &str) -> (u32, bool) {
        if let Some(&id) = self.ids.get(name) {
            return (id, false);
        }
        let id = self.text.len() as u32;
        self.text.push(name.into());
        self.masks.push(char_mask(name));
        self.ids.insert(name.into(), id);
        (id, true)
    }
}

/// A distinct name that matched: its tier and score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct NameHit {
    id: u32,
    tier: u8,
    score: u32,
}

/// A match: sorts best first by (tier, in tests, score, position).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Scored {
    tier: u8,
    in_test: bool,
    /// Inverted so that a higher score sorts first.
    anti_score: u32,
    at: u32,
}

/// A parsed picker query.
struct Query {
    text: String,
    /// `fn parse` keeps functions and methods only (the engine's kind words).
    kinds: Vec<Kind>,
    /// The name path for exact and suffix tiers, when the query is one.
    find: Option<FindQuery>,
    /// The fuzzy text: the query without a kind word, `::`, `/` and `->` written as `.`.
    fuzzy: String,
    /// Fuzzy pattern over the name, or over the qualified name when the query has an owner
    /// (`None`: everything matches).
    pattern: Option<Pattern>,
    /// The query names an owner (`Buffer.set`): match qualified names, one by one.
    qualified: bool,
    /// Bits every match must have ([`char_mask`]); 0 when the query can match without them
    /// (a negation).
    mask: u64,
}

impl Query {
    fn parse(text: &str) -> Query {
        let find = FindQuery::parse(text, &[]).ok();
        let kinds = find.as_ref().map(|f| f.kinds.clone()).unwrap_or_default();
        let glob = find.as_ref().and_then(|f| f.glob()).is_some();
        let fuzzy = match &find {
            Some(f) if !glob => f.parts.join("."),
            Some(_) => String::new(),
            None => text.trim().to_string(),
        };
        let pattern = (!fuzzy.is_empty())
            .then(|| Pattern::parse(&fuzzy, CaseMatching::Smart, Normalization::Smart));
        let owners = find.as_ref().is_some_and(|f| f.parts.len() > 1);
        let mask = match fuzzy.contains('!') {
            true => 0,
            false => char_mask(&fuzzy),
        };
        Query {
            text: text.to_string(),
            kinds,
            find,
            qualified: owners || fuzzy.contains('.'),
            fuzzy,
            pattern,
            mask,
        }
    }

    fn glob(&self) -> Option<&globset::GlobMatcher> {
        self.find.as_ref().and_then(|f| f.glob())
    }

    /// Whether every match of `self` is among the matches of `before` (typing narrowed it).
    fn narrows(&self, before: &Query) -> bool {
        !before.text.trim().is_empty()
            && self.text.starts_with(&before.text)
            && !self.text.contains(['!', '*', '?', '[', '|'])
            && self.kinds == before.kinds
    }

    fn wants(&self, sym: &Sym) -> bool {
        self.kinds.is_empty() || self.kinds.contains(&sym.kind)
    }

    /// How a name matches a query that is about names only: (tier, score).
    fn score_name(
        &self,
        name: &str,
        mask: u64,
        matcher: &mut Matcher,
        buf: &mut Vec<char>,
    ) -> Option<(u8, u32)> {
        if let Some(glob) = self.glob() {
            return glob.is_match(name).then_some((2, 0));
        }
        let Some(pattern) = &self.pattern else {
            return Some((2, 0));
        };
        if mask & self.mask != self.mask {
            return None;
        }
        let score = pattern.score(Utf32Str::new(name, buf), matcher)?;
        let exact = self
            .find
            .as_ref()
            .and_then(|f| f.parts.first().map(|part| f.same(part, name)))
            .unwrap_or(false);
        Some((if exact { 0 } else { 2 }, score))
    }

    /// How a definition matches a query that names an owner, on its qualified name.
    fn score_qualified(
        &self,
        sym: &Sym,
        at: u32,
        matcher: &mut Matcher,
        buf: &mut Vec<char>,
    ) -> Option<Scored> {
        if !self.wants(sym) {
            return None;
        }
        let (tier, score) = if let Some(glob) = self.glob() {
            (glob.is_match(&*sym.qualname).then_some(2)?, 0)
        } else if let Some(pattern) = &self.pattern {
            if sym.qual_mask & self.mask != self.mask {
                return None;
            }
            let score = pattern.score(Utf32Str::new(&sym.qualname, buf), matcher)?;
            (self.tier(sym), score)
        } else {
            (2, 0)
        };
        Some(scored(sym, at, tier, score))
    }

    /// 0: the whole qualified name as typed; 1: a qualified suffix; 2: fuzzy.
    fn tier(&self, sym: &Sym) -> u8 {
        let Some(find) = &self.find else { return 2 };
        let Some((name, owners)) = find.parts.split_last() else {
            return 2;
        };
        if !find.same(name, sym.name()) {
            return 2;
        }
        if owners.is_empty() || find.same(&find.parts.join("."), &sym.qualname) {
            return 0;
        }
        let owner_path = format!(".{}.", owners.join("."));
        let before_name = &sym.qualname[..sym.name_start as usize];
        let dotted = format!(".{before_name}");
        match dotted.len() >= owner_path.len()
            && find.same(&dotted[dotted.len() - owner_path.len()..], &owner_path)
        {
            true => 1,
            false => 2,
        }
    }
}

fn scored(sym: &Sym, at: u32, tier: u8, score: u32) -> Scored {
    Scored {
        tier,
        in_test: sym.in_test,
        anti_score: u32::MAX - score,
        at,
    }
}

/// One file as indexed: its definitions are `syms[start..end]`.
struct IndexedFile {
    path: PathBuf,
    start: u32,
    end: u32,
    /// A newer version of the file was indexed since.
    retired: bool,
}

/// The ranking thread's state.
struct Ranker {
    generation: u64,
    ui: Sender<Message>,
    syms: Vec<Sym>,
    files: Vec<IndexedFile>,
    /// The number of each path's current version in `files`.
    numbers: rustc_hash::FxHashMap<PathBuf, u32>,
    /// Definitions of files read again since: never ranked, and not counted.
    retired_syms: usize,
    names: Names,
    query: Query,
    /// For a query about names: each distinct name's (tier, score), `None` for no match.
    verdicts: Vec<Option<(u8, u32)>>,
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
        Ranker {
            generation,
            ui,
            syms: Vec::new(),
            files: Vec::new(),
            numbers: Default::default(),
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
        }
    }

    /// Handles inputs until the viewer and the scan are gone; several waiting inputs are
    /// taken together so that one ranking answers them all.
    fn run(mut self, rx: Receiver<Input>) {
        while let Ok(first) = rx.recv() {
            let mut changed = false;
            let mut latest_query = None;
            let mut input = Some(first);
            while let Some(next) = input.take() {
                match next {
                    Input::Files(file) => self.add(file),
                    Input::Refresh(file) => changed |= self.refresh(file),
                    Input::Query(text) => latest_query = Some(text),
                    Input::Done(result) => self.finish(result),
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

    fn add(&mut self, file: FileDefinitions) {
        let number = self.files.len() as u32;
        let start = self.syms.len() as u32;
        self.numbers.insert(file.path.clone(), number);
        self.files.push(IndexedFile {
            path: file.path,
            start,
            end: start + file.entries.len() as u32,
            retired: false,
        });
        // Names scored for one query are not scored for the queries before it.
        self.history.clear();
        let (matcher, buf) = (&mut self.matchers[0], &mut Vec::new());
        for entry in file.entries {
            let (name, new) = self.names.intern(entry.name());
            let sym = Sym {
                name_start: entry.name_start as u32,
                name,
                qual_mask: char_mask(&entry.qualname),
                qualname: entry.qualname.into_boxed_str(),
                kind: entry.kind,
                line: entry.line as u32,
                file: number,
                in_test: entry.in_test,
            };
            let at = self.syms.len() as u32;
            let query = &self.query;
            let found = if query.qualified {
                query.score_qualified(&sym, at, matcher, buf)
            } else {
                if new {
                    let (text, mask) = (
                        &self.names.text[name as usize],
                        self.names.masks[name as usize],
                    );
                    self.verdicts
                        .push(query.score_name(text, mask, matcher, buf));
                }
                let verdict = self.verdicts.get(name as usize).copied().flatten();
                verdict
                    .filter(|_| query.wants(&sym))
                    .map(|(tier, score)| scored(&sym, at, tier, score))
            };
            self.matched.extend(found);
            self.syms.push(sym);
        }
    }

    /// Takes a file's definitions as read now; returns whether the index changed.
    fn refresh(&mut self, file: FileDefinitions) -> bool {
        let Some(&number) = self.numbers.get(&file.path) else {
            // A file created since the scan (or one the scan has not reached yet: it will
            // come again, and then replace this version).
            self.add(file);
            return true;
        };
        let indexed = &self.files[number as usize];
        let old = &self.syms[indexed.start as usize..indexed.end as usize];
        let same = old.len() == file.entries.len()
            && old.iter().zip(&file.entries).all(|(sym, entry)| {
                *sym.qualname == entry.qualname
                    && sym.line as usize == entry.line
                    && sym.kind == entry.kind
            });
        if same {
            return false;
        }
        self.files[number as usize].retired = true;
        self.retired_syms += old.len();
        let files = &self.files;
        let syms = &self.syms;
        self.matched
            .retain(|m| !files[syms[m.at as usize].file as usize].retired);
        self.rebuilt();
        self.add(file);
        true
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
        if query.qualified {
            let files = &self.files;
            let candidates: Vec<u32> = match query.narrows(&self.query) && self.query.qualified {
                true => self.matched.iter().map(|m| m.at).collect(),
                false => (0..self.syms.len() as u32)
                    .filter(|&at| !files[self.syms[at as usize].file as usize].retired)
                    .collect(),
            };
            self.query = query;
            self.matched =
                score_qualified(&self.query, &self.syms, &candidates, &mut self.matchers);
        } else {
            self.query = query;
            let hits = self.name_hits();
            self.verdicts = vec![None; self.names.text.len()];
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
                    let (tier, score) = verdicts.get(sym.name as usize).copied().flatten()?;
                    Some(scored(sym, at as u32, tier, score))
                })
                .collect();
        }
    }

    /// The names matching the current query, from the narrowest earlier query it extends.
    fn name_hits(&mut self) -> Vec<NameHit> {
        let query = &self.query;
        let cacheable = query.glob().is_none() && query.pattern.is_some();
        if !cacheable {
            self.history.clear();
            let all: Vec<u32> = (0..self.names.text.len() as u32).collect();
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
        let all: Vec<u32> = (0..self.names.text.len() as u32).collect();
        let hits = score_names(query, &self.names, &all, &mut self.matchers);
        self.history.push((query.fuzzy.clone(), hits.clone()));
        hits
    }

    fn finish(&mut self, result: Result<Summary, String>) {
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
        let rows = self
            .top
            .iter()
            .filter_map(|m| {
                let sym = self.syms.get(m.at as usize)?;
                indices.clear();
                if let Some(pattern) = &query.pattern {
                    let mut buf = Vec::new();
                    let haystack = match query.qualified {
                        true => &sym.qualname,
                        false => sym.name(),
                    };
                    pattern.indices(Utf32Str::new(haystack, &mut buf), matcher, &mut indices);
                    indices.sort_unstable();
                    indices.dedup();
                    // Positions in the name move by the owner's characters in the qualname.
                    if !query.qualified {
                        let owner = sym.qualname[..sym.name_start as usize].chars().count();
                        indices.iter_mut().for_each(|i| *i += owner as u32);
                    }
                }
                Some(Row {
                    kind: sym.kind,
                    qualname: sym.qualname.to_string(),
                    path: self.files.get(sym.file as usize)?.path.clone(),
                    line: sym.line as usize,
                    in_test: sym.in_test,
                    matched: indices.clone(),
                })
            })
            .collect();
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

/// Runs `score` over `items` split across the matchers' threads when there are many.
fn in_parallel<I: Sync, T: Send>(
    items: &[I],
    matchers: &mut [Matcher],
    score: impl Fn(&I, &mut Matcher, &mut Vec<char>) -> Option<T> + Sync,
) -> Vec<T> {
    let chunk = |part: &[I], matcher: &mut Matcher| {
        let mut buf = Vec::new();
        part.iter()
            .filter_map(|item| score(item, matcher, &mut buf))
            .collect::<Vec<T>>()
    };
    if items.len() < PARALLEL_FROM || matchers.len() < 2 {
        return match matchers.first_mut() {
            Some(matcher) => chunk(items, matcher),
            None => Vec::new(),
        };
    }
    let size = items.len().div_ceil(matchers.len());
    let chunk = &chunk;
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(size)
            .zip(matchers.iter_mut())
            .map(|(part, matcher)| scope.spawn(move || chunk(part, matcher)))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

/// Scores the names numbered `candidates` for a query about names.
fn score_names(
    query: &Query,
    names: &Names,
    candidates: &[u32],
    matchers: &mut [Matcher],
) -> Vec<NameHit> {
    in_parallel(candidates, matchers, |&id, matcher, buf| {
        let text = names.text.get(id as usize)?;
        let mask = names.masks.get(id as usize).copied().unwrap_or(0);
        let (tier, score) = query.score_name(text, mask, matcher, buf)?;
        Some(NameHit { id, tier, score })
    })
}

/// Scores the definitions at `candidates` for a query that names an owner.
fn score_qualified(
    query: &Query,
    syms: &[Sym],
    candidates: &[u32],
    matchers: &mut [Matcher],
) -> Vec<Scored> {
    in_parallel(candidates, matchers, |&at, matcher, buf| {
        query.score_qualified(syms.get(at as usize)?, at, matcher, buf)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definitions `(qualname, name, kind, in_test)` indexed as the ranking thread does.
    fn ranker(defs: &[(&str, &str, Kind, bool)]) -> Ranker {
        let (ui, _) = mpsc::channel();
        let mut ranker = Ranker::new(1, ui);
        for (i, (qualname, name, kind, in_test)) in defs.iter().enumerate() {
            let entry = Defined {
                kind: *kind,
                qualname: qualname.to_string(),
                name_start: qualname.len() - name.len(),
                line: i + 1,
                in_test: *in_test,
            };
            ranker.add(FileDefinitions {
                path: PathBuf::from(format!("f{i}.rs")),
                language: crate::Language::Rust,
                entries: vec![entry],
            });
        }
        ranker
    }

    fn order(ranker: &mut Ranker, query: &str) -> Vec<String> {
        ranker.set_query(query);
        ranker
            .ranking()
            .rows
            .into_iter()
            .map(|r| r.qualname)
            .collect()
    }

    const DEFS: &[(&str, &str, Kind, bool)] = &[
        ("parse_args", "parse_args", Kind::Function, false),
        ("tests.parse", "parse", Kind::Function, true),
        ("Parser.parse", "parse", Kind::Method, false),
        ("parse", "parse", Kind::Function, false),
        ("Parser", "Parser", Kind::Struct, false),
        ("unrelated", "unrelated", Kind::Function, false),
        ("Store.get", "get", Kind::Method, false),
    ];

    #[test]
    fn exact_names_first_then_suffix_then_fuzzy_and_tests_last_in_each() {
        let mut ranker = ranker(DEFS);
        let found = order(&mut ranker, "parse");
        let mut exact = found[..2].to_vec();
        exact.sort();
        assert_eq!(exact, ["Parser.parse", "parse"], "{found:?}");
        assert_eq!(found[2], "tests.parse", "{found:?}");
        assert!(found[3..].contains(&"parse_args".to_string()), "{found:?}");
        assert_eq!(order(&mut ranker, "Parser::parse"), ["Parser.parse"]);
        assert_eq!(order(&mut ranker, "struct pars"), ["Parser"]);
        assert_eq!(order(&mut ranker, "parse_*"), ["parse_args"]);
        assert_eq!(
            order(&mut ranker, "").len(),
            7,
            "an empty query lists everything"
        );
    }

    #[test]
    fn names_match_unless_the_query_names_an_owner() {
        let mut ranker = ranker(DEFS);
        assert!(
            order(&mut ranker, "store").is_empty(),
            "an owner alone is no name"
        );
        assert_eq!(order(&mut ranker, "store.get"), ["Store.get"]);
        assert_eq!(order(&mut ranker, "Prser"), ["Parser"]);
        let matched = ranker.ranking().rows[0].matched.clone();
        assert_eq!(matched, [0, 2, 3, 4, 5]);
        ranker.set_query("get");
        assert_eq!(
            ranker.ranking().rows[0].matched,
            [6, 7, 8],
            "positions in the qualname"
        );
        assert_eq!(char_mask("a_Z9"), 1 | 1 << 25 | 1 << 35 | 1 << 36);
        assert_eq!(
            Query::parse("!x").mask,
            0,
            "a negation matches without its letters"
        );
    }

    #[test]
    fn typing_on_and_backspace_reuse_earlier_matches() {
        let mut ranker = ranker(DEFS);
        let direct = order(&mut ranker, "pars");
        ranker.set_query("p");
        ranker.set_query("pa");
        assert_eq!(ranker.history.len(), 2);
        assert_eq!(order(&mut ranker, "pars"), direct);
        assert_eq!(ranker.history.len(), 3);
        ranker.set_query("pa");
        assert_eq!(
            ranker.history.len(),
            2,
            "Backspace returns to the kept level"
        );
        ranker.set_query("get");
        assert_eq!(ranker.history.len(), 1);
        let a = Query::parse("pa");
        assert!(Query::parse("par").narrows(&a));
        assert!(!a.narrows(&Query::parse("par")));
        assert!(!Query::parse("pa!x").narrows(&a));
    }

    #[test]
    fn definitions_added_while_a_query_is_active_are_ranked() {
        let late = ranker(&DEFS[6..]);
        let mut ranker = ranker(&DEFS[..2]);
        ranker.set_query("get");
        assert!(ranker.ranking().rows.is_empty());
        for (sym, path) in late
            .syms
            .into_iter()
            .zip(late.files.into_iter().map(|f| f.path))
        {
            let entry = Defined {
                kind: sym.kind,
                qualname: sym.qualname.to_string(),
                name_start: sym.name_start as usize,
                line: 9,
                in_test: false,
            };
            ranker.add(FileDefinitions {
                path,
                language: crate::Language::Rust,
                entries: vec![entry],
            });
        }
        assert_eq!(ranker.ranking().rows[0].qualname, "Store.get");
    }

    #[test]
    fn parallel_scoring_keeps_every_match() {
        let names: Vec<String> = (0..PARALLEL_FROM * 2)
            .map(|i| format!("item_{i}"))
            .collect();
        let mut table = Names::default();
        for name in &names {
            table.intern(name);
        }
        let query = Query::parse("item_1");
        let all: Vec<u32> = (0..names.len() as u32).collect();
        let mut two = vec![Matcher::new(Config::DEFAULT), Matcher::new(Config::DEFAULT)];
        let mut one = vec![Matcher::new(Config::DEFAULT)];
        let parallel = score_names(&query, &table, &all, &mut two);
        let serial = score_names(&query, &table, &all, &mut one);
        assert_eq!(parallel, serial);
        assert!(!serial.is_empty());
    }
}
