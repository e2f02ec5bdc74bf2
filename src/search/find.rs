//! Definitions across a tree: every outline entry matched against a [`FindQuery`] and ranked
//! by the shared [`super::rank`] (exact name, qualified suffix, glob; code outside tests
//! first; implementations before one-line declarations; then path order). Memory holds at
//! most the results that can still be shown.

use super::near::{merge_nearest, near_names, NearWords};
use super::picture::{self, Adds, MemberGroup};
use super::rank::{
    implementations_first, is_declaration, namesake_key, tier_of_chain, visit, Rank, Tier,
};
use super::{
    each_file, is_test_entry, is_test_path, EntryRef, FindQuery, PartialNotes, Scope, Summary,
};
use crate::document::Document;
use crate::lang::Language;
use crate::outline::select::SymbolMatch;
use crate::outline::{Entry, Outline};
use crate::source;
use crate::tokens::Tokenizer;
use compact_str::CompactString;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

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
    /// How it adds to the type asked for, when it is more than the type's one declaration:
    /// an impl block, an extension, a partial or reopened declaration ([`Adds`]).
    pub adds: Option<Adds>,
}

impl Definition {
    /// Where this match stands among the others ([`Rank`]).
    pub fn rank(&self) -> Rank {
        Rank {
            tier: self.tier,
            not_code: !self.language.is_code(),
            in_test: self.in_test,
        }
    }
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
    /// What else adds to the type a plain name asks for ([`Adds`]): impl blocks and
    /// extensions not named as asked, in path order, at most the number asked for.
    pub additions: Vec<Definition>,
    /// Members declared outside the type with the owner in their name, one group per file
    /// in path order, at most the number asked for.
    pub groups: Vec<MemberGroup>,
    /// All additions and groups, shown or not.
    pub picture_total: usize,
}

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
    let prefilter = match &filter {
        Some(filter) => Prefilter::Name(filter),
        None => Prefilter::None,
    };
    let mut result = find_pass(scope, query, max_results, tokens, prefilter)?;
    // Without a name to filter on (a glob), the pass gathered the near names already.
    if result.total + result.picture_total == 0 && filter.is_some() {
        // Suggestions need the names near the query: a second pass, paid only on a miss,
        // that outlines only the files that may define one.
        let prefilter =
            NearWords::new(query).map_or(Prefilter::None, |near| Prefilter::Near(Box::new(near)));
        let again = find_pass(scope, query, max_results, tokens, prefilter)?;
        result.nearest = again.nearest;
    }
    Ok(result)
}

/// Which files a pass outlines.
enum Prefilter<'a> {
    /// Every file.
    None,
    /// Files whose text holds the name asked for.
    Name(&'a regex::bytes::Regex),
    /// Files that may define a name near it (a miss's second pass).
    Near(Box<NearWords>),
}

impl Prefilter<'_> {
    fn passes(&self, language: Option<Language>, bytes: &[u8]) -> bool {
        match self {
            Prefilter::None => true,
            Prefilter::Name(filter) => filter.is_match(bytes),
            Prefilter::Near(near) => near.may_define(language, bytes),
        }
    }

    /// The name filter, which also tells what past a file's limit may define the name.
    fn name(&self) -> Option<&regex::bytes::Regex> {
        match self {
            Prefilter::Name(filter) => Some(filter),
            _ => None,
        }
    }
}

/// One walk over `scope`, outlining the files `prefilter` passes.
fn find_pass(
    scope: &Scope,
    query: &FindQuery,
    max_results: usize,
    tokens: Option<Tokenizer>,
    prefilter: Prefilter,
) -> crate::Result<FindResult> {
    let filter = prefilter.name();
    let found_any = AtomicBool::new(false);
    let mut ranked = Ranked::new(max_results);
    let (mut additions, mut groups, mut picture_total) = (Vec::new(), Vec::new(), 0);
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
            let worth = |bytes: &[u8]| data || prefilter.passes(language, bytes);
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
                file.additions.retain(|found| !found.in_test);
                file.group = file.group.take().filter(|group| !group.in_test);
            }
            let added = !file.additions.is_empty() || file.group.is_some();
            if !file.matches.is_empty() || file.omitted > 0 || added {
                found_any.store(true, Ordering::Relaxed);
            }
            Ok(Some(file))
        },
        |file| {
            ranked.total += file.omitted;
            file.matches.into_iter().for_each(|m| ranked.push(m));
            picture_total +=
                file.additions.len() + file.additions_omitted + file.group.iter().len();
            let room = max_results.saturating_sub(additions.len() + groups.len());
            additions.extend(file.additions.into_iter().take(room));
            let room = max_results.saturating_sub(additions.len() + groups.len());
            groups.extend(file.group.into_iter().take(room));
            merge_nearest(&mut nearest, file.near);
            ControlFlow::Continue(())
        },
    )?;
    summary.partial = partial.into_sorted();
    let total = ranked.total;
    // Stable: test code last, each part keeping path order.
    additions.sort_by_key(|found: &Definition| found.in_test);
    groups.sort_by_key(|group: &MemberGroup| group.in_test);
    let mut matches = ranked.into_best();
    if picture::wanted(query) {
        mark_redeclarations(&mut matches);
        // The type's own declarations first, then what adds to it, each keeping its rank.
        let adds_on = |found: &Definition| matches!(found.adds, Some(Adds::Impl | Adds::Extension));
        matches.sort_by_key(|found| (found.rank(), adds_on(found)));
    }
    Ok(FindResult {
        matches,
        total,
        additions,
        groups,
        picture_total,
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

/// Looks `query` up in one outline with the search's forms (`impl Layout`, `Type::method`,
/// trait impls, globs): the best tier's first entry in source order, and every other match.
pub fn find_in_outline<'a>(outline: &'a Outline, query: &str) -> Option<SymbolMatch<'a>> {
    let query = FindQuery::parse(query, &[]).ok()?;
    let mut matches: Vec<(Tier, &'a Entry)> = Vec::new();
    visit(&outline.entries, &mut Vec::new(), &mut |chain| {
        if let (Some(tier), Some(entry)) = (tier_of_chain(&query, chain), chain.last()) {
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

/// Marks each further declaration of a type already listed as its language calls it
/// (reopened, merged), unless it is marked already (a partial type, an impl block).
fn mark_redeclarations(matches: &mut [Definition]) {
    let mut seen = rustc_hash::FxHashSet::default();
    for found in matches {
        let again = !seen.insert((found.language, namesake_key(&found.entry.qualname)));
        if again && found.adds.is_none() {
            found.adds = picture::redeclared(found.language, found.entry.kind);
        }
    }
}

/// One file's matches and, while nothing matched anywhere yet, its names nearest the query.
struct FileMatches {
    matches: Vec<Definition>,
    /// Matches past what [`Ranked`] could keep of their rank, counted only.
    omitted: usize,
    /// How many of those are in test code.
    omitted_in_test: usize,
    near: Vec<(usize, String)>,
    /// What adds to the type asked for without its name ([`picture::addition`]).
    additions: Vec<Definition>,
    /// Additions past what could be shown, counted only.
    additions_omitted: usize,
    group: Option<MemberGroup>,
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
    let mut kept = [0usize; Rank::COUNT];
    let (mut omitted, mut omitted_in_test) = (0, 0);
    let picture = picture::wanted(query);
    let (mut additions, mut members) = (Vec::new(), Vec::new());
    let mut additions_omitted = 0;
    let mut members_in_test = true;
    let mut type_name: Option<String> = None;
    let language = outline.language;
    let definition = |entry: &Entry, id, in_test, tier, adds| {
        let mut found = EntryRef::of(entry, id);
        found.tokens = tokens.map(|t| t.count(&entry_text(&lines, entry)));
        Definition {
            path: path.clone(),
            language,
            hash: document.hash.clone(),
            entry: found,
            in_test,
            tier,
            adds,
        }
    };
    visit(&outline.entries, &mut Vec::new(), &mut |chain| {
        let Some(entry) = chain.last() else { return };
        let id = || crate::outline::chain_id(chain.iter().copied());
        let in_test = || file_is_test || chain.iter().any(|e| is_test_entry(e));
        let Some(tier) = tier_of_chain(query, chain) else {
            match picture
                .then(|| picture::addition(query, language, entry))
                .flatten()
            {
                Some(Adds::Members) => {
                    // The type as the code spells it (the query may differ in case).
                    if type_name.is_none() {
                        type_name = spelled_type(query, entry).map(str::to_string);
                    }
                    members_in_test &= in_test();
                    members.push(EntryRef::of(entry, id()));
                }
                Some(adds) if additions.len() < max_results => {
                    additions.push(definition(entry, id(), in_test(), Tier::Exact, Some(adds)));
                }
                Some(_) => additions_omitted += 1,
                None if suggest => names.push(CompactString::from(entry.bare_name())),
                None => {}
            }
            return;
        };
        let in_test = in_test();
        let rank = Rank {
            tier,
            not_code: !language.is_code(),
            in_test,
        };
        match kept.get_mut(rank.index()) {
            Some(count) if *count < max_results => *count += 1,
            _ => {
                omitted += 1;
                omitted_in_test += usize::from(in_test);
                return;
            }
        }
        let adds = picture.then(|| picture::mark(language, entry)).flatten();
        matches.push(definition(entry, id(), in_test, tier, adds));
    });
    let group = (!members.is_empty()).then(|| MemberGroup {
        path: path.clone(),
        language,
        hash: document.hash.clone(),
        members,
        in_test: members_in_test,
        type_name: type_name.unwrap_or_default(),
    });
    let near = match matches.is_empty() && additions.is_empty() && group.is_none() {
        true => near_names(&names, query),
        false => Vec::new(),
    };
    Some(FileMatches {
        matches,
        omitted,
        omitted_in_test,
        near,
        additions,
        additions_omitted,
        group,
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

/// The best `limit` matches by ([`Rank`], path order): results arrive in path order, so the
/// first `limit` of each rank's bucket are the only ones that can be shown.
struct Ranked {
    limit: usize,
    buckets: [Vec<Definition>; Rank::COUNT],
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
        if let Some(bucket) = self.buckets.get_mut(found.rank().index()) {
            if bucket.len() < self.limit {
                bucket.push(found);
            }
        }
    }

    fn into_best(self) -> Vec<Definition> {
        let limit = self.limit;
        let mut best: Vec<Definition> = self.buckets.into_iter().flatten().take(limit).collect();
        implementations_first(
            &mut best,
            |found| (found.rank(), namesake_key(&found.entry.qualname)),
            |found| is_declaration(found.entry.kind, found.entry.line, found.entry.end_line),
        );
        best
    }
}

/// The type `query` names as `entry`'s name writes it: its owner, or the outer type of the
/// nested type it belongs to.
fn spelled_type<'e>(query: &FindQuery, entry: &'e Entry) -> Option<&'e str> {
    let name = query.parts.first()?;
    entry
        .owner()
        .into_iter()
        .chain(entry.name_owners())
        .find(|owner| query.same(name, owner))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outline::Kind;

    #[test]
    fn ranking_keeps_the_best_per_bucket() {
        let def = |tier, in_test, line| Definition {
            path: PathBuf::from("a.rs"),
            language: Language::Rust,
            hash: String::new(),
            entry: EntryRef::of(&Entry::new(Kind::Function, "f", line, line), "1".into()),
            in_test,
            tier,
            adds: None,
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
}
