//! The symbol picker's index and ranking, on a thread of its own so that no key waits on them.
//!
//! Definitions stream in from [`search::each_definition`] (one more background thread), queries
//! from the viewer; after each change the thread sends back the best [`SHOWN`] rows as a
//! [`Ranking`]. Matching is nucleo's fuzzy matcher (the one helix uses); the order is the
//! engine's: an exact name first, then a qualified-name suffix, then glob and fuzzy matches;
//! within each, code outside tests first ([`search::is_test_path`] and test modules); then the
//! fuzzy score; then path order. A query that only extends the last one re-scores only the last
//! matches, and large sets are scored on every core.
//!
//! The index keeps a compact row per definition (qualified name, kind, line, file number):
//! around 60 bytes, so a tree of half a million definitions stays near 30 MB.

use super::jobs::{Cancel, Message};
use crate::outline::Kind;
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
    kind: Kind,
    line: u32,
    file: u32,
    in_test: bool,
}

impl Sym {
    fn name(&self) -> &str {
        self.qualname.get(self.name_start as usize..).unwrap_or("")
    }
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
    /// Fuzzy pattern over the qualified name (`None`: everything matches).
    pattern: Option<Pattern>,
}

impl Query {
    fn parse(text: &str) -> Query {
        let find = FindQuery::parse(text, &[]).ok();
        let kinds = find.as_ref().map(|f| f.kinds.clone()).unwrap_or_default();
        // The fuzzy text drops a leading kind word and writes `::`, `/` and `->` as `.`, the
        // separator of qualified names.
        let fuzzy = match &find {
            Some(f) if f.glob().is_none() => f.parts.join("."),
            Some(_) => String::new(),
            None => text.trim().to_string(),
        };
        let pattern = (!fuzzy.is_empty())
            .then(|| Pattern::parse(&fuzzy, CaseMatching::Smart, Normalization::Smart));
        Query {
            text: text.to_string(),
            kinds,
            find,
            pattern,
        }
    }

    /// Whether every match of `self` is among the matches of `before` (typing narrowed it).
    fn narrows(&self, before: &Query) -> bool {
        !before.text.trim().is_empty()
            && self.text.starts_with(&before.text)
            && !self.text.contains(['!', '*', '?', '[', '|'])
            && self.kinds == before.kinds
    }

    fn score(
        &self,
        sym: &Sym,
        at: u32,
        matcher: &mut Matcher,
        buf: &mut Vec<char>,
    ) -> Option<Scored> {
        if !self.kinds.is_empty() && !self.kinds.contains(&sym.kind) {
            return None;
        }
        let glob = self.find.as_ref().and_then(|f| f.glob());
        let (tier, score) = if let Some(glob) = glob {
            let find = self.find.as_ref()?;
            let subject = match find.parts.len() {
                1 => sym.name(),
                _ => &sym.qualname,
            };
            (glob.is_match(subject).then_some(2)?, 0)
        } else if let Some(pattern) = &self.pattern {
            let score = pattern.score(Utf32Str::new(&sym.qualname, buf), matcher)?;
            (self.tier(sym), score)
        } else {
            (2, 0)
        };
        Some(Scored {
            tier,
            in_test: sym.in_test,
            anti_score: u32::MAX - score,
            at,
        })
    }

    /// 0: the name (or the whole qualified name) as typed; 1: a qualified suffix; 2: fuzzy.
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

/// The ranking thread's state.
struct Ranker {
    generation: u64,
    ui: Sender<Message>,
    syms: Vec<Sym>,
    files: Vec<PathBuf>,
    query: Query,
    matched: Vec<Scored>,
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
            query: Query::parse(""),
            matched: Vec::new(),
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
            let mut query_changed = false;
            let mut input = Some(first);
            while let Some(next) = input.take() {
                match next {
                    Input::Files(file) => self.add(file),
                    Input::Query(text) => {
                        self.set_query(&text);
                        query_changed = true;
                    }
                    Input::Done(result) => self.finish(result),
                }
                input = rx.try_recv().ok();
            }
            let due = self.last_sent.is_none_or(|at| at.elapsed() >= SEND_EVERY);
            if (query_changed || self.done || due) && self.send().is_err() {
                return;
            }
        }
    }

    fn add(&mut self, file: FileDefinitions) {
        let number = self.files.len() as u32;
        self.files.push(file.path);
        let first = self.syms.len();
        for (entry, in_test) in file.entries {
            let name_start = entry.qualname.len().saturating_sub(entry.name.len());
            self.syms.push(Sym {
                name_start: name_start as u32,
                qualname: entry.qualname.into_boxed_str(),
                kind: entry.kind,
                line: entry.line as u32,
                file: number,
                in_test,
            });
        }
        let (matcher, buf) = (&mut self.matchers[0], &mut Vec::new());
        for (at, sym) in self.syms.iter().enumerate().skip(first) {
            if let Some(scored) = self.query.score(sym, at as u32, matcher, buf) {
                self.matched.push(scored);
            }
        }
    }

    fn set_query(&mut self, text: &str) {
        if text == self.query.text {
            return;
        }
        let query = Query::parse(text);
        let candidates: Vec<u32> = match query.narrows(&self.query) {
            true => self.matched.iter().map(|m| m.at).collect(),
            false => (0..self.syms.len() as u32).collect(),
        };
        self.query = query;
        self.matched = score_all(&self.query, &self.syms, &candidates, &mut self.matchers);
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

    /// The best [`SHOWN`] matches as rows.
    fn ranking(&mut self) -> Ranking {
        let shown = SHOWN.min(self.matched.len());
        if shown > 0 && shown < self.matched.len() {
            self.matched.select_nth_unstable(shown - 1);
        }
        self.matched[..shown].sort_unstable();
        let mut indices = Vec::new();
        let matcher = &mut self.matchers[0];
        let rows = self.matched[..shown]
            .iter()
            .filter_map(|m| {
                let sym = self.syms.get(m.at as usize)?;
                indices.clear();
                if let Some(pattern) = &self.query.pattern {
                    let mut buf = Vec::new();
                    let haystack = Utf32Str::new(&sym.qualname, &mut buf);
                    pattern.indices(haystack, matcher, &mut indices);
                    indices.sort_unstable();
                    indices.dedup();
                }
                Some(Row {
                    kind: sym.kind,
                    qualname: sym.qualname.to_string(),
                    path: self.files.get(sym.file as usize)?.clone(),
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
            indexed: self.syms.len(),
            files: self.files.len(),
            done: self.done,
            note: self.note.clone(),
        }
    }
}

/// Scores `candidates` (positions in `syms`) for `query`, split over the matchers' threads
/// when there are many.
fn score_all(
    query: &Query,
    syms: &[Sym],
    candidates: &[u32],
    matchers: &mut [Matcher],
) -> Vec<Scored> {
    let score_chunk = |chunk: &[u32], matcher: &mut Matcher| {
        let mut buf = Vec::new();
        chunk
            .iter()
            .filter_map(|&at| query.score(syms.get(at as usize)?, at, matcher, &mut buf))
            .collect::<Vec<_>>()
    };
    if candidates.len() < PARALLEL_FROM || matchers.len() < 2 {
        return match matchers.first_mut() {
            Some(matcher) => score_chunk(candidates, matcher),
            None => Vec::new(),
        };
    }
    let size = candidates.len().div_ceil(matchers.len());
    std::thread::scope(|scope| {
        let handles: Vec<_> = candidates
            .chunks(size)
            .zip(matchers.iter_mut())
            .map(|(chunk, matcher)| scope.spawn(move || score_chunk(chunk, matcher)))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sym(qualname: &str, name: &str, kind: Kind, in_test: bool) -> Sym {
        Sym {
            qualname: qualname.into(),
            name_start: (qualname.len() - name.len()) as u32,
            kind,
            line: 1,
            file: 0,
            in_test,
        }
    }

    fn order(query: &str, syms: &[Sym]) -> Vec<String> {
        let query = Query::parse(query);
        let mut matchers = vec![Matcher::new(Config::DEFAULT)];
        let candidates: Vec<u32> = (0..syms.len() as u32).collect();
        let mut scored = score_all(&query, syms, &candidates, &mut matchers);
        scored.sort_unstable();
        scored
            .iter()
            .map(|s| syms[s.at as usize].qualname.to_string())
            .collect()
    }

    #[test]
    fn exact_names_first_then_suffix_then_fuzzy_and_tests_last_in_each() {
        let syms = [
            sym("parse_args", "parse_args", Kind::Function, false),
            sym("tests.parse", "parse", Kind::Function, true),
            sym("Parser.parse", "parse", Kind::Method, false),
            sym("parse", "parse", Kind::Function, false),
            sym("Parser", "Parser", Kind::Struct, false),
            sym("unrelated", "unrelated", Kind::Function, false),
        ];
        let found = order("parse", &syms);
        let mut exact = found[..2].to_vec();
        exact.sort();
        assert_eq!(exact, ["Parser.parse", "parse"], "{found:?}");
        assert_eq!(found[2], "tests.parse", "{found:?}");
        assert!(found[3..].contains(&"parse_args".to_string()), "{found:?}");
        assert_eq!(order("Parser::parse", &syms), ["Parser.parse"]);
        assert_eq!(order("struct pars", &syms), ["Parser"]);
        assert_eq!(order("parse_*", &syms), ["parse_args"]);
        assert_eq!(order("", &syms).len(), 6, "an empty query lists everything");
    }

    #[test]
    fn typing_on_narrows_and_editing_widens() {
        let a = Query::parse("pa");
        let b = Query::parse("par");
        assert!(b.narrows(&a));
        assert!(!a.narrows(&b));
        assert!(!Query::parse("pa!x").narrows(&a));
        assert!(!b.narrows(&Query::parse("")));
    }

    #[test]
    fn parallel_scoring_keeps_every_match() {
        let syms: Vec<Sym> = (0..PARALLEL_FROM * 2)
            .map(|i| {
                let name = format!("item_{i}");
                sym(&name, &name, Kind::Function, i % 2 == 0)
            })
            .collect();
        let query = Query::parse("item_1");
        let candidates: Vec<u32> = (0..syms.len() as u32).collect();
        let mut two = vec![Matcher::new(Config::DEFAULT), Matcher::new(Config::DEFAULT)];
        let mut one = vec![Matcher::new(Config::DEFAULT)];
        let mut parallel = score_all(&query, &syms, &candidates, &mut two);
        let mut serial = score_all(&query, &syms, &candidates, &mut one);
        parallel.sort_unstable();
        serial.sort_unstable();
        assert_eq!(parallel, serial);
        assert!(!serial.is_empty());
    }
}
