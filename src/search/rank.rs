//! The one ranking of definitions, shared by `--find` (and MCP, which calls it) and the
//! viewer's picker: how a definition matches a [`FindQuery`] ([`tier`]) and the order of
//! matches ([`Rank`]). Both match the same [`Candidate`]s, built from the same outline
//! chain, so a query lists the same definitions in the same order wherever it is asked.

use super::definitions::{Defined, FileDefinitions};
use super::{each_file, is_test_entry, is_test_path, FindQuery, Scope, Summary};
use crate::document::Document;
use crate::outline::{Entry, Kind, Outline};
use std::ops::ControlFlow;
use std::path::PathBuf;

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

/// Where a match stands: by tier, then code before prose and data (`--find Error` in a
/// tree of API documents listed sixty YAML keys before the first Go type), then outside tests
/// before in them; ties keep path order, except that among namesakes an implementation comes
/// before a one-line declaration ([`implementations_first`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank {
    pub tier: Tier,
    /// In a file of prose or data (Markdown, JSON, YAML, TOML, HTML), not code.
    pub not_code: bool,
    pub in_test: bool,
}

impl Rank {
    /// How many distinct ranks there are (for per-rank buckets).
    pub const COUNT: usize = 12;

    /// The rank's position among all [`Rank::COUNT`], in order.
    pub fn index(self) -> usize {
        self.tier as usize * 4 + usize::from(self.not_code) * 2 + usize::from(self.in_test)
    }
}

/// The qualified name as namesakes share it, however the owner is written: `Stack::push`
/// (defined outside its class), `Stack.push` (declared in it) and Go's `(*Stack).push` are
/// one name.
pub fn namesake_key(qualname: &str) -> String {
    qualname
        .replace("::", ".")
        .replace("(*", "")
        .replace(").", ".")
}

/// Reorders ranked `items` so that within each group of namesakes of the same rank
/// (`key`), implementations come before one-line declarations (`declaration`: an overload
/// stub, a method declared in its class and defined outside it), each group keeping the
/// places it held: what was asked for is the body, which a declaration listed first hides.
pub fn implementations_first<T: Clone, K: std::hash::Hash + Eq>(
    items: &mut [T],
    key: impl Fn(&T) -> K,
    declaration: impl Fn(&T) -> bool,
) {
    let mut groups: rustc_hash::FxHashMap<K, Vec<usize>> = Default::default();
    for (at, item) in items.iter().enumerate() {
        groups.entry(key(item)).or_default().push(at);
    }
    for places in groups.into_values().filter(|places| places.len() > 1) {
        let mut members: Vec<T> = places.iter().map(|&at| items[at].clone()).collect();
        // Stable: implementations, and declarations, each keep their order.
        members.sort_by_key(|item| declaration(item));
        for (at, member) in places.into_iter().zip(members) {
            items[at] = member;
        }
    }
}

/// Whether an entry of `kind` spanning `line..=end_line` reads as a declaration without a
/// body: a one-line entry of a kind that has bodies (a field or a key is one line anyway).
pub fn is_declaration(kind: Kind, line: usize, end_line: usize) -> bool {
    let has_bodies = matches!(
        kind,
        Kind::Class
            | Kind::Function
            | Kind::Method
            | Kind::Procedure
            | Kind::Struct
            | Kind::Enum
            | Kind::Union
            | Kind::Trait
            | Kind::Impl
            | Kind::Interface
            | Kind::Module
            | Kind::Namespace
    );
    has_bodies && end_line <= line
}

/// Separates the segments of an owner path ([`owner_path`]).
const SEGMENT: char = '\u{1f}';
/// Separates the names one owner answers to, its dotted-path name first.
const ALTERNATIVE: char = '\u{1e}';

/// A definition as matched: what a query's name and owners are compared with.
#[derive(Debug, Clone, Copy)]
pub struct Candidate<'a> {
    pub kind: Kind,
    /// The name as the parser wrote it (`(*T).m`, `T::m`).
    pub name: &'a str,
    /// The name without the owners written into it (`m`).
    pub bare: &'a str,
    pub qualname: &'a str,
    /// The owners, as [`owner_path`] spells them.
    pub owners: &'a str,
}

impl<'a> Candidate<'a> {
    /// The candidate for `entry`, whose owners `owners` spells ([`owner_path`]).
    pub fn of_entry(entry: &'a Entry, owners: &'a str) -> Candidate<'a> {
        Candidate {
            kind: entry.kind,
            name: entry.name(),
            bare: entry.bare_name(),
            qualname: entry.qualname(),
            owners,
        }
    }

    /// The owner segments, innermost first, each the names it answers to.
    fn segments(&self) -> impl Iterator<Item = impl Iterator<Item = &'a str>> {
        let owners = self.owners;
        owners
            .rsplit(SEGMENT)
            .filter(move |_| !owners.is_empty())
            .map(|segment| segment.split(ALTERNATIVE))
    }

    /// The dotted path of owners and name (`(*T).m` under nothing is `T.m`): what a glob
    /// over a qualified name is matched against.
    fn dotted(&self) -> String {
        let mut path = String::new();
        if !self.owners.is_empty() {
            for segment in self.owners.split(SEGMENT) {
                path.push_str(segment.split(ALTERNATIVE).next().unwrap_or(""));
                path.push('.');
            }
        }
        path.push_str(self.bare);
        path
    }
}

/// The owners of the entry ending `chain`, outermost first: each ancestor's written owners
/// and the ancestor itself, then the owners written into the entry's own name (Go's `(*T).m`,
/// C++'s `T::m`). An ancestor answers to its [`Entry::owner_names`]: its bare name and, for
/// `impl Trait for Type`, either side (`fmt::Display for Store<T>` answers to `Display` and
/// `Store`). Empty (no allocation) for a top-level plain name.
pub fn owner_path(chain: &[&Entry]) -> String {
    let Some((entry, ancestors)) = chain.split_last() else {
        return String::new();
    };
    let mut path = String::new();
    let segment = |path: &mut String, names: &mut dyn Iterator<Item = &str>| {
        if !path.is_empty() {
            path.push(SEGMENT);
        }
        for (i, name) in names.enumerate() {
            if i > 0 {
                path.push(ALTERNATIVE);
            }
            path.push_str(name);
        }
    };
    for ancestor in ancestors {
        for owner in ancestor.name_owners() {
            segment(&mut path, &mut std::iter::once(owner));
        }
        segment(
            &mut path,
            &mut ancestor.owner_names().filter(|n| !n.is_empty()),
        );
    }
    for owner in entry.name_owners() {
        segment(&mut path, &mut std::iter::once(owner));
    }
    path
}

/// How a definition whose bare name is `bare` matches `query` when the query is one name
/// (no owner, no glob), whatever its kind: [`tier`] then asks only that the kind be wanted.
/// An index that keeps distinct names scores each once with this.
pub fn name_tier(query: &FindQuery, bare: &str) -> Option<Tier> {
    let [name] = query.parts.as_slice() else {
        return None;
    };
    (query.glob().is_none() && query.same(name, bare)).then_some(Tier::Exact)
}

/// How `candidate` matches `query`, if it does: the one test every definition search uses.
pub fn tier(query: &FindQuery, candidate: &Candidate) -> Option<Tier> {
    if !query.wants_kind(candidate.kind) {
        return None;
    }
    if let Some(glob) = query.glob() {
        let matched = match query.parts.len() {
            1 => glob.is_match(candidate.name) || glob.is_match(candidate.bare),
            _ => glob.is_match(candidate.qualname) || glob.is_match(candidate.dotted()),
        };
        return matched.then_some(Tier::Glob);
    }
    let (name, owners) = query.parts.split_last()?;
    if !query.same(name, candidate.bare) {
        return None;
    }
    if owners.is_empty() {
        return Some(Tier::Exact);
    }
    // The query's owners, innermost first, each paired with the next owner segment.
    let mut segments = candidate.segments();
    for owner in owners.iter().rev() {
        if !segments.next()?.any(|answer| query.same(owner, answer)) {
            return None;
        }
    }
    Some(match segments.next() {
        None => Tier::Exact,
        Some(_) => Tier::Suffix,
    })
}

/// How the entry at the end of `chain` matches `query`, if it does.
pub(crate) fn tier_of_chain(query: &FindQuery, chain: &[&Entry]) -> Option<Tier> {
    let entry = chain.last()?;
    // Most entries of a tree fail on their name: refused before their owners are spelled.
    let named = query.glob().is_some()
        || query
            .parts
            .last()
            .is_some_and(|name| query.same(name, entry.bare_name()));
    if !named || !query.wants_kind(entry.kind) || !query.params_match(entry) {
        return None;
    }
    let owners = owner_path(chain);
    tier(query, &Candidate::of_entry(entry, &owners))
}

/// Streams every definition below `scope`, file by file in path order.
pub fn each_definition(
    scope: &Scope,
    deliver: impl FnMut(FileDefinitions) -> ControlFlow<()>,
) -> crate::Result<Summary> {
    each_file(
        scope,
        |path, language| {
            let document = Document::open_listed(&path, language, scope.root.as_deref())?;
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
    let file_is_test = is_test_path(&path);
    let mut definitions = FileDefinitions::new(path, outline.language);
    visit(&outline.entries, &mut Vec::new(), &mut |chain| {
        let in_test = file_is_test || chain.iter().any(|e| is_test_entry(e));
        if let Some(entry) = chain.last() {
            let qualname = entry.qualname();
            let suffix_at = |name: &str| match qualname.ends_with(name) {
                true => qualname.len() - name.len(),
                false => 0,
            };
            let name_start = suffix_at(entry.name());
            let bare_start = suffix_at(entry.bare_name()).max(name_start);
            definitions.push(Defined {
                kind: entry.kind,
                name_start,
                bare_start,
                owners: &owner_path(chain),
                qualname,
                line: entry.line,
                end_line: entry.end_line,
                in_test,
            });
        }
    });
    definitions
}

/// Calls `f` with the chain root..entry for every entry, in pre-order.
pub(crate) fn visit<'a>(
    entries: &'a [Entry],
    chain: &mut Vec<&'a Entry>,
    f: &mut dyn FnMut(&[&'a Entry]),
) {
    for entry in entries {
        chain.push(entry);
        f(chain);
        visit(&entry.children, chain, f);
        chain.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Language;

    /// How the last of `chain` (each entry the parent of the next) matches `query`, once
    /// the outline has filled its owner facts.
    fn chain_tier(query: &str, chain: &[Entry]) -> Option<Tier> {
        let query = FindQuery::parse(query, &[]).expect("valid");
        let nested = chain
            .iter()
            .rev()
            .cloned()
            .reduce(|child, parent| parent.with_children(vec![child]));
        let outline = Outline::new(Language::Rust, 100, 0, nested.into_iter().collect());
        let mut refs: Vec<&Entry> = Vec::new();
        let mut level = &outline.entries;
        while let Some(entry) = level.first() {
            refs.push(entry);
            level = &entry.children;
        }
        tier_of_chain(&query, &refs)
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
    fn owners_written_into_names_are_owners() {
        let go = [Entry::new(Kind::Method, "(*Daemon).Start", 5, 7)];
        assert_eq!(chain_tier("Start", &go), Some(Tier::Exact));
        assert_eq!(chain_tier("Daemon.Start", &go), Some(Tier::Exact));
        assert_eq!(chain_tier("(*Daemon).Start", &go), Some(Tier::Exact));
        assert_eq!(chain_tier("daemon.start", &go), Some(Tier::Exact));
        assert_eq!(chain_tier("Daemon.*", &go), Some(Tier::Glob));
        assert_eq!(chain_tier("Client.Start", &go), None);
        let class = Entry::new(Kind::Class, "Outer", 1, 20);
        let cpp = Entry::new(Kind::Method, "Inner::m", 2, 9);
        assert_eq!(chain_tier("Inner::m", &[class, cpp]), Some(Tier::Suffix));
    }

    #[test]
    fn a_name_alone_tiers_as_the_whole_candidate_does() {
        let entries = [
            Entry::new(Kind::Method, "(*Daemon).Start", 5, 7),
            Entry::new(Kind::Function, "start", 1, 1),
            Entry::new(Kind::Function, "Starter", 1, 1),
        ];
        for query in [
            "Start",
            "start",
            "Starter",
            "fn start",
            "Daemon.Start",
            "St*",
        ] {
            let query = FindQuery::parse(query, &[]).expect("valid");
            let outline = Outline::new(Language::Go, 9, 0, entries.to_vec());
            for entry in &outline.entries {
                let whole = tier(&query, &Candidate::of_entry(entry, ""));
                let alone = name_tier(&query, entry.bare_name());
                let one_name = query.parts.len() == 1 && query.glob().is_none();
                if one_name && query.wants_kind(entry.kind) {
                    assert_eq!(alone, whole, "{} on {}", query.text, entry.name());
                } else {
                    assert_eq!(alone, None, "{} on {}", query.text, entry.name());
                }
            }
        }
    }

    #[test]
    fn ranks_are_numbered_in_order() {
        let mut all: Vec<Rank> = Vec::new();
        for tier in [Tier::Exact, Tier::Suffix, Tier::Glob] {
            for not_code in [false, true] {
                for in_test in [false, true] {
                    all.push(Rank {
                        tier,
                        not_code,
                        in_test,
                    });
                }
            }
        }
        let indices: Vec<usize> = all.iter().map(|r| r.index()).collect();
        assert_eq!(indices, (0..Rank::COUNT).collect::<Vec<_>>());
        assert!(all.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn implementations_come_before_their_declarations_in_place() {
        // (qualname, one-line declaration)
        let mut items = [
            ("Stack.push", true),
            ("Queue.Push", true),
            ("f", true),
            ("Stack::push", false),
            ("f", true),
            ("f", false),
        ];
        implementations_first(&mut items, |item| namesake_key(item.0), |item| item.1);
        assert_eq!(
            items,
            [
                ("Stack::push", false),
                ("Queue.Push", true),
                ("f", false),
                ("Stack.push", true),
                ("f", true),
                ("f", true),
            ]
        );
        assert_eq!(namesake_key("(*Stack).push"), namesake_key("Stack::push"));
    }
}
