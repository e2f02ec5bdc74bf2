//! Definitions across a tree: every outline entry matched against a [`FindQuery`], ranked
//! exact name first, then qualified suffix, then glob; within each, definitions outside tests
//! first, then path order. Memory holds at most the results that can still be shown.

use super::{
    each_file, is_test_entry, is_test_path, EntryRef, FindQuery, PartialNotes, Scope, Summary,
};
use crate::document::Document;
use crate::lang::Language;
use crate::outline::select::SymbolMatch;
use crate::outline::{Entry, Kind, Outline};
use crate::source;
use crate::tokens::Tokenizer;
use compact_str::CompactString;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

/// How well a definition matches: better tiers sort first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tier {
    /// The name (or the whole qualified name) as asked.
    Exact,
    /// The qualified name ends with the path asked (`Buffer.set` in `ratatui.Buffer.set`).
    Suffix,
    /// Matched by a glob.
    Glob,
}

/// One definition found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    pub path: PathBuf,
    pub language: Language,
    /// The file's content hash, for a stale-safe read of the body.
    pub hash: String,
    pub entry: EntryRef,
    /// In a test file or a test module.
    pub in_test: bool,
    pub tier: Tier,
}

/// The result of [`find`].
#[derive(Debug, Clone, Default)]
pub struct FindResult {
    /// The best matches, ranked, at most the number asked for.
    pub matches: Vec<Definition>,
    /// All matches, shown or not.
    pub total: usize,
    /// With no match: up to 10 names nearest the query (edit distance).
    pub nearest: Vec<String>,
    pub summary: Summary,
}

/// Every definition of one file, in source order (pre-order), for consumers that match on
/// their own (the viewer's fuzzy picker).
#[derive(Debug, Clone)]
pub struct FileDefinitions {
    pub path: PathBuf,
    pub language: Language,
    pub entries: Vec<Defined>,
}

/// One definition as an index keeps it: just what ranking and jumping need, one allocation
/// each (a large tree has hundreds of thousands).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defined {
    pub kind: Kind,
    pub qualname: String,
    /// Byte offset of the name in `qualname`, which it ends (0 where a qualified name
    /// does not end with the name).
    pub name_start: usize,
    /// 1-based.
    pub line: usize,
    /// In a test file or a test module.
    pub in_test: bool,
}

impl Defined {
    /// The name: the end of the qualified name.
    pub fn name(&self) -> &str {
        self.qualname
            .get(self.name_start..)
            .unwrap_or(&self.qualname)
    }
}

/// How many near names a failed search suggests.
const NEAREST: usize = 10;

/// Finds the definitions matching `query` below `scope`, at most `max_results` of them
/// ranked first; `tokens` counts each shown definition's tokens.
pub fn find(
    scope: &Scope,
    query: &FindQuery,
    max_results: usize,
    tokens: Option<Tokenizer>,
) -> crate::Result<FindResult> {
    // A file can define the name only if its text holds it: the others are never parsed.
    let filter = query.name_filter();
    let mut result = find_pass(scope, query, max_results, tokens, filter.as_ref())?;
    if result.total == 0 {
        // Suggestions need every name of the tree: a second pass, paid only on a miss.
        let again = find_pass(scope, query, max_results, tokens, None)?;
        result.nearest = again.nearest;
    }
    Ok(result)
}

/// One walk over `scope`; with `filter`, files whose text it does not match are skipped.
fn find_pass(
    scope: &Scope,
    query: &FindQuery,
    max_results: usize,
    tokens: Option<Tokenizer>,
    filter: Option<&regex::bytes::Regex>,
) -> crate::Result<FindResult> {
    let found_any = AtomicBool::new(false);
    let mut ranked = Ranked::new(max_results);
    let mut nearest: Vec<(usize, String)> = Vec::new();
    let partial = PartialNotes::default();
    let mut summary = each_file(
        scope,
        |path, language| {
            // Data files may spell a key with escapes (`"a\u0041"`): always parsed.
            let data = matches!(
                language,
                Some(Language::Json | Language::Yaml | Language::Toml)
            );
            let worth = |bytes: &[u8]| data || filter.is_none_or(|f| f.is_match(bytes));
            let Some(loaded) = source::read_if(&path, scope.root.as_deref(), worth)? else {
                return Ok(None);
            };
            let document = Document::from_loaded(&path, loaded, language);
            if let Some(reason) = unsearched_rest(&document, filter) {
                partial.note(&path, reason);
            }
            // Names for suggestions are gathered only while nothing has matched anywhere.
            let suggest = filter.is_none() && !found_any.load(Ordering::Relaxed);
            let Some(mut file) = match_file(&document, query, tokens, suggest, max_results) else {
                return Ok(None);
            };
            if scope.no_tests {
                file.matches.retain(|found| !found.in_test);
                file.omitted -= file.omitted_in_test;
            }
            if !file.matches.is_empty() || file.omitted > 0 {
                found_any.store(true, Ordering::Relaxed);
            }
            Ok(Some(file))
        },
        |file| {
            ranked.total += file.omitted;
            file.matches.into_iter().for_each(|m| ranked.push(m));
            merge_nearest(&mut nearest, file.near);
            ControlFlow::Continue(())
        },
    )?;
    summary.partial = partial.into_sorted();
    let total = ranked.total;
    Ok(FindResult {
        matches: ranked.into_best(),
        total,
        nearest: match total {
            0 => nearest.into_iter().map(|(_, name)| name).collect(),
            _ => Vec::new(),
        },
        summary,
    })
}

/// Why `document`'s definitions were searched only in part, when its outline stopped at a
/// limit and what lies past it may define the name: the rest holds the name `filter` looks
/// for, or is not in memory to tell (a glob, with no filter, may match anything there).
fn unsearched_rest(document: &Document, filter: Option<&regex::bytes::Regex>) -> Option<String> {
    let limit = document.outline.as_ref()?.limit.as_ref()?;
    let may_define = match (document.extent.complete, filter) {
        (false, _) | (true, None) => true,
        (true, Some(filter)) => {
            // Offsets are those the parser saw: lone `\r`s as `\n`, same length.
            let text = crate::parse::lone_crs_as_newlines(&document.text);
            let bytes = text.as_bytes();
            let outlined = match limit.cut_at {
                Some(at) => at,
                None => limit
                    .lines_outlined
                    .checked_sub(1)
                    .and_then(|n| memchr::memchr_iter(b'\n', bytes).nth(n))
                    .map_or(bytes.len(), |at| at + 1),
            };
            filter.is_match(bytes.get(outlined..).unwrap_or_default())
        }
    };
    may_define.then(|| format!("{}; definitions past it were not searched", limit.reason))
}

/// Streams every definition below `scope`, file by file in path order.
pub fn each_definition(
    scope: &Scope,
    deliver: impl FnMut(FileDefinitions) -> ControlFlow<()>,
) -> crate::Result<Summary> {
    each_file(
        scope,
        |path, language| {
            let document = Document::open_in(&path, language, scope.root.as_deref())?;
            Ok(document
                .outline
                .as_ref()
                .map(|outline| definitions_of(path, outline)))
        },
        deliver,
    )
}

/// Every definition of one outlined file in pre-order, each marked when it is test code (a
/// test file, or inside a test module): what [`each_definition`] streams for each file, and
/// what a viewer sends again when it has read a newer version of the file.
pub fn definitions_of(path: PathBuf, outline: &Outline) -> FileDefinitions {
    let mut entries = Vec::new();
    let file_is_test = is_test_path(&path);
    visit(&outline.entries, &mut Vec::new(), &mut |chain| {
        let in_test = file_is_test || chain.iter().any(|e| is_test_entry(e));
        if let Some(entry) = chain.last() {
            let name_start = match entry.qualname.ends_with(entry.name.as_str()) {
                true => entry.qualname.len() - entry.name.len(),
                false => 0,
            };
            entries.push(Defined {
                kind: entry.kind,
                qualname: entry.qualname.to_string(),
                name_start,
                line: entry.line,
                in_test,
            });
        }
    });
    FileDefinitions {
        path,
        language: outline.language,
        entries,
    }
}

/// Looks `query` up in one outline with the search's forms (`impl Layout`, `Type::method`,
/// trait impls, globs): the best tier's first entry in source order, and every other match.
pub fn find_in_outline<'a>(outline: &'a Outline, query: &str) -> Option<SymbolMatch<'a>> {
    let query = FindQuery::parse(query, &[]).ok()?;
    let mut matches: Vec<(Tier, &'a Entry)> = Vec::new();
    visit(&outline.entries, &mut Vec::new(), &mut |chain| {
        if let (Some(tier), Some(entry)) = (tier_of(&query, chain), chain.last()) {
            matches.push((tier, entry));
        }
    });
    // Stable: equal tiers keep source order.
    matches.sort_by_key(|(tier, _)| *tier);
    let mut entries = matches.into_iter().map(|(_, entry)| entry);
    let entry = entries.next()?;
    let found = SymbolMatch {
        entry,
        others: entries.collect(),
    };
    Some(found.implementation_first())
}

/// One file's matches and, while nothing matched anywhere yet, its names nearest the query.
struct FileMatches {
    matches: Vec<Definition>,
    /// Matches past what [`Ranked`] could keep of their rank, counted only.
    omitted: usize,
    /// How many of those are in test code.
    omitted_in_test: usize,
    near: Vec<(usize, String)>,
}

fn match_file(
    document: &Document,
    query: &FindQuery,
    tokens: Option<Tokenizer>,
    suggest: bool,
    max_results: usize,
) -> Option<FileMatches> {
    let path = &document.path;
    let outline = document.outline.as_ref()?;
    let file_is_test = is_test_path(path);
    // Lines only to count tokens: a vector of every line is a fifth of a large file again.
    let lines = match tokens {
        Some(_) => document.lines(),
        None => Vec::new(),
    };
    let mut matches = Vec::new();
    let mut names = Vec::new();
    // Per rank, what `Ranked` keeps: a file where every entry matches (`--find x` over
    // 100,000 constants) costs the results that can be shown, not a copy of its outline.
    let mut kept = [0usize; 6];
    let (mut omitted, mut omitted_in_test) = (0, 0);
    visit(&outline.entries, &mut Vec::new(), &mut |chain| {
        let Some(entry) = chain.last() else { return };
        let Some(tier) = tier_of(query, chain) else {
            if suggest {
                names.push(CompactString::from(entry.bare_name()));
            }
            return;
        };
        let in_test = file_is_test || chain.iter().any(|e| is_test_entry(e));
        let rank = tier as usize * 2 + usize::from(in_test);
        match kept.get_mut(rank) {
            Some(count) if *count < max_results => *count += 1,
            _ => {
                omitted += 1;
                omitted_in_test += usize::from(in_test);
                return;
            }
        }
        let mut found = EntryRef::of(entry);
        found.tokens = tokens.map(|t| t.count(&entry_text(&lines, entry)));
        matches.push(Definition {
            path: path.clone(),
            language: outline.language,
            hash: document.hash.clone(),
            entry: found,
            in_test,
            tier,
        });
    });
    let near = match matches.is_empty() {
        true => near_names(&names, query),
        false => Vec::new(),
    };
    Some(FileMatches {
        matches,
        omitted,
        omitted_in_test,
        near,
    })
}

/// The lines of `entry`, joined as they stand in the file.
fn entry_text(lines: &[&str], entry: &Entry) -> String {
    let start = entry.line.saturating_sub(1).min(lines.len());
    let end = entry.end_line.min(lines.len()).max(start);
    let mut text = lines[start..end].join("\n");
    text.push('\n');
    text
}

/// Calls `f` with the chain root..entry for every entry, in pre-order.
fn visit<'a>(entries: &'a [Entry], chain: &mut Vec<&'a Entry>, f: &mut dyn FnMut(&[&'a Entry])) {
    for entry in entries {
        chain.push(entry);
        f(chain);
        visit(&entry.children, chain, f);
        chain.pop();
    }
}

/// How the entry at the end of `chain` matches `query`, if it does.
fn tier_of(query: &FindQuery, chain: &[&Entry]) -> Option<Tier> {
    let (entry, ancestors) = chain.split_last()?;
    if !query.wants_kind(entry.kind) {
        return None;
    }
    if let Some(glob) = query.glob() {
        let matched = match query.parts.len() {
            1 => glob.is_match(entry.name.as_str()) || glob.is_match(entry.bare_name()),
            _ => glob.is_match(entry.qualname.as_str()) || glob.is_match(dotted_path(chain)),
        };
        return matched.then_some(Tier::Glob);
    }
    let (name, owners) = query.parts.split_last()?;
    if !query.same(name, entry.bare_name()) {
        return None;
    }
    if owners.is_empty() {
        return Some(Tier::Exact);
    }
    // Owners innermost first: those written into the entry's own name (Go's `(*T).m`, C++'s
    // `T::m`), then the entries it sits in.
    let written: Vec<&str> = entry.name_owners().collect();
    let mut candidates = written
        .iter()
        .rev()
        .map(|owner| Owner::Written(owner))
        .chain(
            ancestors
                .iter()
                .rev()
                .map(|ancestor| Owner::Entry(ancestor)),
        );
    for owner in owners.iter().rev() {
        let matched = match candidates.next()? {
            Owner::Written(written) => query.same(owner, written),
            Owner::Entry(ancestor) => owner_matches(query, owner, ancestor),
        };
        if !matched {
            return None;
        }
    }
    Some(match candidates.next() {
        None => Tier::Exact,
        Some(_) => Tier::Suffix,
    })
}

/// An owner a query's path is paired with.
enum Owner<'a> {
    /// Written into the entry's name.
    Written(&'a str),
    /// An entry the definition sits in.
    Entry(&'a Entry),
}

/// The chain's names as one dotted path, owners written into names split out (`(*T).m` under
/// nothing is `T.m`): what a glob over a qualified name is matched against.
fn dotted_path(chain: &[&Entry]) -> String {
    let mut path = String::new();
    for entry in chain {
        for part in entry.name_owners().chain([entry.bare_name()]) {
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(part);
        }
    }
    path
}

/// The names an owner entry answers to: its name, and for `impl Trait for Type` either side,
/// with generics and module paths dropped (`fmt::Display for Store<T>` answers to `Display`,
/// `fmt::Display` and `Store`).
fn owner_names(ancestor: &Entry) -> impl Iterator<Item = &str> {
    let sides = ancestor.name.split(" for ").flat_map(|side| {
        let plain = side.split('<').next().unwrap_or(side).trim();
        let last = plain.rsplit("::").next().unwrap_or(plain);
        [plain, last]
    });
    std::iter::once(ancestor.name.as_str()).chain(sides)
}

fn owner_matches(query: &FindQuery, owner: &str, ancestor: &Entry) -> bool {
    owner_names(ancestor).any(|name| query.same(owner, name))
}

/// Whether `owner`, exactly as written, names `ancestor` (see [`owner_names`]).
pub(crate) fn owner_matches_name(owner: &str, ancestor: &Entry) -> bool {
    owner_names(ancestor).any(|name| name == owner)
}

/// The names nearest the query's last part, at most [`NEAREST`], best first.
fn near_names(names: &[CompactString], query: &FindQuery) -> Vec<(usize, String)> {
    let Some(wanted) = query.parts.last() else {
        return Vec::new();
    };
    let wanted = wanted.to_lowercase();
    let limit = (wanted.chars().count() / 3).max(2);
    let mut near: Vec<(usize, String)> = names
        .iter()
        .filter(|name| name.len().abs_diff(wanted.len()) <= limit)
        .filter_map(|name| {
            let distance = strsim::levenshtein(&name.to_lowercase(), &wanted);
            (distance <= limit).then(|| (distance, name.to_string()))
        })
        .collect();
    near.sort();
    near.dedup_by(|a, b| a.1 == b.1);
    near.truncate(NEAREST);
    near
}

fn merge_nearest(into: &mut Vec<(usize, String)>, more: Vec<(usize, String)>) {
    if more.is_empty() {
        return;
    }
    into.extend(more);
    into.sort();
    into.dedup_by(|a, b| a.1 == b.1);
    into.truncate(NEAREST);
}

/// The best `limit` matches by (tier, in tests, path order): results arrive in path order,
/// so the first `limit` of each (tier, in tests) bucket are the only ones that can be shown.
struct Ranked {
    limit: usize,
    buckets: [Vec<Definition>; 6],
    total: usize,
}

impl Ranked {
    fn new(limit: usize) -> Ranked {
        Ranked {
            limit,
            buckets: Default::default(),
            total: 0,
        }
    }

    fn push(&mut self, found: Definition) {
        self.total += 1;
        let index = found.tier as usize * 2 + usize::from(found.in_test);
        if let Some(bucket) = self.buckets.get_mut(index) {
            if bucket.len() < self.limit {
                bucket.push(found);
            }
        }
    }

    fn into_best(self) -> Vec<Definition> {
        let limit = self.limit;
        self.buckets.into_iter().flatten().take(limit).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outline::Kind;

    fn chain_tier(query: &str, chain: &[Entry]) -> Option<Tier> {
        let query = FindQuery::parse(query, &[]).expect("valid");
        let refs: Vec<&Entry> = chain.iter().collect();
        tier_of(&query, &refs)
    }

    #[test]
    fn tiers_follow_the_owner_chain() {
        let module = Entry::new(Kind::Module, "buffer", 1, 99);
        let imp = Entry::new(Kind::Impl, "Buffer", 2, 90);
        let method = Entry::new(Kind::Method, "set_stringn", 3, 9);
        let chain = [module, imp, method];
        assert_eq!(chain_tier("set_stringn", &chain[2..]), Some(Tier::Exact));
        assert_eq!(chain_tier("set_stringn", &chain), Some(Tier::Exact));
        assert_eq!(chain_tier("Buffer.set_stringn", &chain), Some(Tier::Suffix));
        assert_eq!(
            chain_tier("Buffer::set_stringn", &chain[1..]),
            Some(Tier::Exact)
        );
        assert_eq!(
            chain_tier("buffer.Buffer.set_stringn", &chain),
            Some(Tier::Exact)
        );
        assert_eq!(chain_tier("Other.set_stringn", &chain), None);
        assert_eq!(chain_tier("set_*", &chain), Some(Tier::Glob));
        assert_eq!(chain_tier("fn set_stringn", &chain), Some(Tier::Exact));
        assert_eq!(chain_tier("struct set_stringn", &chain), None);
        assert_eq!(
            chain_tier("SET_STRINGN", &chain),
            None,
            "upper case is exact"
        );
        assert_eq!(chain_tier("set_stringN", &chain), None);
    }

    #[test]
    fn trait_impls_answer_to_both_sides() {
        let imp = Entry::new(Kind::Impl, "fmt::Display for Store<T>", 1, 9);
        let method = Entry::new(Kind::Method, "fmt", 2, 5);
        let chain = [imp, method];
        for query in ["Store.fmt", "Display.fmt", "Store::fmt"] {
            assert_eq!(chain_tier(query, &chain), Some(Tier::Exact), "{query}");
        }
    }

    #[test]
    fn ranking_keeps_the_best_per_bucket() {
        let def = |tier, in_test, line| Definition {
            path: PathBuf::from("a.rs"),
            language: Language::Rust,
            hash: String::new(),
            entry: EntryRef::of(&Entry::new(Kind::Function, "f", line, line)),
            in_test,
            tier,
        };
        let mut ranked = Ranked::new(2);
        ranked.push(def(Tier::Glob, false, 1));
        ranked.push(def(Tier::Exact, true, 2));
        ranked.push(def(Tier::Exact, false, 3));
        ranked.push(def(Tier::Exact, false, 4));
        ranked.push(def(Tier::Exact, false, 5));
        assert_eq!(ranked.total, 5);
        let lines: Vec<usize> = ranked.into_best().iter().map(|d| d.entry.line).collect();
        assert_eq!(lines, [3, 4]);
    }

    #[test]
    fn nearest_names_by_edit_distance() {
        let names: Vec<CompactString> = ["set_string", "set_style", "get", "setstringn"]
            .iter()
            .map(|s| CompactString::from(*s))
            .collect();
        let query = FindQuery::parse("set_stringn", &[]).expect("valid");
        let near: Vec<String> = near_names(&names, &query)
            .into_iter()
            .map(|n| n.1)
            .collect();
        assert_eq!(near, ["set_string", "setstringn"]);
    }
}
