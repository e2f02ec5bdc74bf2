//! A picker query and how one indexed definition scores against it. Tiers come from the
//! search engine's one ranking ([`crate::search::rank`]), so that the picker lists what
//! `--find` lists in the same order; nucleo's fuzzy matcher (the one helix uses) then ranks
//! what no tier takes, on the bare name, or on the qualified name when the query names an
//! owner (`Buffer.set`).

use super::kept::{Span, Strings};
use super::Sym;
use crate::outline::Kind;
use crate::search::rank;
use crate::search::FindQuery;
use hashbrown::HashTable;
use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Matcher, Utf32Str};
use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;

/// Below this many candidates one thread scores them all.
pub(super) const PARALLEL_FROM: usize = 20_000;

/// The tier of a fuzzy match, after every tier of the shared ranking.
const FUZZY: u8 = 3;

/// A bit per ASCII letter (either case), digit and `_` that `text` holds: a definition whose
/// mask lacks a bit of the query's cannot match it, which one AND tells before any scoring.
pub(super) fn char_mask(text: &str) -> u64 {
    text.bytes().fold(0, |mask, b| {
        mask | match b.to_ascii_lowercase() {
            c @ b'a'..=b'z' => 1 << (c - b'a'),
            c @ b'0'..=b'9' => 1 << (26 + c - b'0'),
            b'_' => 1 << 36,
            _ => 0,
        }
    })
}

/// The distinct bare names of the index. Most queries match names only, and a big tree
/// repeats them (`new`, `fmt`, `from`): each distinct name is scored once per query. The
/// names are kept in [`Strings`] blocks and found again through a table of their numbers.
#[derive(Default)]
pub(super) struct Names {
    strings: Strings,
    spans: Vec<Span>,
    pub masks: Vec<u64>,
    ids: HashTable<u32>,
}

impl Names {
    /// The number of `name`, and whether it is new.
    pub fn intern(&mut self, name: &str) -> (u32, bool) {
        let hash = FxBuildHasher.hash_one(name);
        let (strings, spans) = (&self.strings, &self.spans);
        if let Some(&id) = (self.ids).find(hash, |&id| strings.get(spans[id as usize]) == name) {
            return (id, false);
        }
        let id = self.spans.len() as u32;
        self.spans.push(self.strings.push(name));
        self.masks.push(char_mask(name));
        let (strings, spans) = (&self.strings, &self.spans);
        self.ids.insert_unique(hash, id, |&id| {
            FxBuildHasher.hash_one(strings.get(spans[id as usize]))
        });
        (id, true)
    }

    /// The name numbered `id`.
    pub fn get(&self, id: u32) -> Option<&str> {
        self.spans
            .get(id as usize)
            .map(|&span| self.strings.get(span))
    }

    pub fn len(&self) -> usize {
        self.spans.len()
    }
}

/// How a distinct name matched: its tier ([`rank::Tier`] as a number, [`FUZZY`] after them) and
/// fuzzy score.
pub(super) type Verdict = (u8, u32);

/// A distinct name that matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct NameHit {
    pub id: u32,
    pub tier: u8,
    pub score: u32,
}

/// A match: sorts best first by the shared [`rank::Rank`] (fuzzy matches after its tiers),
/// then fuzzy score, then path order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Scored {
    pub tier: u8,
    pub not_code: bool,
    pub in_test: bool,
    /// Inverted so that a higher score sorts first.
    pub anti_score: u32,
    /// The file's place in path order, then the definition's place in the index (source
    /// order within a file).
    pub order: u32,
    pub at: u32,
}

/// A match on `sym` (at index `at`, in a file `order`th in path order).
pub(super) fn scored(sym: &Sym, at: u32, order: u32, (tier, score): Verdict) -> Scored {
    Scored {
        tier,
        not_code: sym.not_code,
        in_test: sym.in_test,
        anti_score: u32::MAX - score,
        order,
        at,
    }
}

/// A parsed picker query.
pub(super) struct Query {
    pub text: String,
    /// `fn parse` keeps functions and methods only (the engine's kind words).
    pub kinds: Vec<Kind>,
    /// The query as `--find` reads it, when it reads as one.
    pub find: Option<FindQuery>,
    /// The fuzzy text: the query without a kind word, `::`, `/` and `->` written as `.`.
    pub fuzzy: String,
    /// Fuzzy pattern over the bare name, or over the qualified name when the query has an
    /// owner (`None`: everything matches).
    pub pattern: Option<Pattern>,
    /// The query names an owner (`Buffer.set`) or is a glob: every definition is matched
    /// whole, one by one.
    pub qualified: bool,
    /// Bits every match must have ([`char_mask`]); 0 when the query can match without them
    /// (a negation).
    pub mask: u64,
}

impl Query {
    pub fn parse(text: &str) -> Query {
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
            qualified: owners || glob || fuzzy.contains('.'),
            fuzzy,
            pattern,
            mask,
        }
    }

    /// Whether every match of `self` is among the matches of `before` (typing narrowed it).
    pub fn narrows(&self, before: &Query) -> bool {
        !before.text.trim().is_empty()
            && self.text.starts_with(&before.text)
            && !self.text.contains(['!', '*', '?', '[', '|'])
            && self.kinds == before.kinds
    }

    pub fn wants(&self, sym: &Sym) -> bool {
        self.kinds.is_empty() || self.kinds.contains(&sym.kind)
    }

    /// How a bare name matches a query about names only: (tier, score).
    pub fn score_name(
        &self,
        name: &str,
        mask: u64,
        matcher: &mut Matcher,
        buf: &mut Vec<char>,
    ) -> Option<Verdict> {
        let Some(pattern) = &self.pattern else {
            return Some((FUZZY, 0));
        };
        if let Some(tier) = self.find.as_ref().and_then(|f| rank::name_tier(f, name)) {
            return Some((tier as u8, 0));
        }
        if mask & self.mask != self.mask {
            return None;
        }
        let score = pattern.score(Utf32Str::new(name, buf), matcher)?;
        Some((FUZZY, score))
    }

    /// How a definition matches a query matched whole (an owner named, or a glob).
    pub fn score_qualified(
        &self,
        sym: &Sym,
        texts: &str,
        matcher: &mut Matcher,
        buf: &mut Vec<char>,
    ) -> Option<Verdict> {
        if !self.wants(sym) {
            return None;
        }
        if let Some(find) = &self.find {
            if let Some(tier) = rank::tier(find, &sym.candidate(texts)) {
                return Some((tier as u8, 0));
            }
            if find.glob().is_some() {
                return None;
            }
        }
        let Some(pattern) = &self.pattern else {
            return Some((FUZZY, 0));
        };
        // Taken here, not kept per definition: the shared ranking above has just read the
        // name, and 8 bytes a definition is 5 MB on a large tree.
        let qualname = sym.qualname(texts);
        if char_mask(qualname) & self.mask != self.mask {
            return None;
        }
        let score = pattern.score(Utf32Str::new(qualname, buf), matcher)?;
        Some((FUZZY, score))
    }
}

/// Runs `score` over `items` split across the matchers' threads when there are many.
pub(super) fn in_parallel<I: Sync, T: Send>(
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
        // A chunk that panicked would lose its matches silently: the panic goes on instead.
        handles
            .into_iter()
            .flat_map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

/// Scores the names numbered `candidates` for a query about names.
pub(super) fn score_names(
    query: &Query,
    names: &Names,
    candidates: &[u32],
    matchers: &mut [Matcher],
) -> Vec<NameHit> {
    in_parallel(candidates, matchers, |&id, matcher, buf| {
        let text = names.get(id)?;
        let mask = names.masks.get(id as usize).copied().unwrap_or(0);
        let (tier, score) = query.score_name(text, mask, matcher, buf)?;
        Some(NameHit { id, tier, score })
    })
}
