//! Selecting parts of an outline: depth and node budgets (breadth first), and symbol lookup.
//!
//! Budgets keep two promises every output relies on: a shown node either lists *all* its
//! children or is marked cut (never a silent partial list), and when both caps could cut a node
//! the reason is the node budget. An entry the parser truncated (nesting limit) is always shown
//! cut, whatever the budget.

use super::{Entry, Outline, Truncation};
use rustc_hash::{FxHashMap, FxHashSet};
use std::borrow::Borrow;
use std::collections::VecDeque;

/// Limits on how much of an outline to show.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Budget {
    /// Deepest level shown; 1 = top level only. `None` = no limit.
    pub max_depth: Option<usize>,
    /// Most nodes shown, counted breadth first. `None` = no limit.
    pub max_nodes: Option<usize>,
}

/// Why a node's children are not shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    MaxDepth,
    MaxNodes,
    /// The parser itself did not list the children (see [`Entry::truncated`]); no budget
    /// shows them.
    MaxNesting,
}

impl Cut {
    pub fn as_str(self) -> &'static str {
        match self {
            Cut::MaxDepth => "max_depth",
            Cut::MaxNodes => "max_nodes",
            Cut::MaxNesting => Truncation::MaxNesting.as_str(),
        }
    }
}

/// An entry as shown: either expanded (all children, maybe none) or cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown<'a> {
    pub entry: &'a Entry,
    pub depth: usize,
    /// `Some` when expanded (complete); `None` when a cap cut this node.
    pub children: Option<Vec<Shown<'a>>>,
    pub cut: Option<Cut>,
}

/// The visible part of an outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection<'a> {
    pub roots: Vec<Shown<'a>>,
    /// Top-level entries left out because the node budget ran out.
    pub omitted: usize,
}

impl Selection<'_> {
    /// Shown nodes depth first, for line-by-line printing.
    pub fn walk(&self) -> Vec<&Shown<'_>> {
        fn visit<'s, 'a>(nodes: &'s [Shown<'a>], out: &mut Vec<&'s Shown<'a>>) {
            for node in nodes {
                out.push(node);
                if let Some(children) = &node.children {
                    visit(children, out);
                }
            }
        }
        let mut out = Vec::new();
        visit(&self.roots, &mut out);
        out
    }
}

/// Applies `budget` to `outline`: top level first, then each level in turn, expanding a node
/// only when all its children fit; once one does not, every later node is cut too, so the
/// budget is spent strictly breadth first.
pub fn select(outline: &Outline, budget: Budget) -> Selection<'_> {
    select_entries(&outline.entries, budget)
}

/// [`select`] over `entries` as the top level: a symbol's subtree, a type's members (entries
/// or references to them).
pub fn select_entries<E: Borrow<Entry>>(entries: &[E], budget: Budget) -> Selection<'_> {
    let max_depth = budget.max_depth.unwrap_or(usize::MAX).max(1);
    let entries = || entries.iter().map(Borrow::borrow);
    match budget.max_nodes {
        None => depth_only(entries(), max_depth),
        Some(max_nodes) => breadth_first(entries().collect(), max_depth, max_nodes),
    }
}

/// [`select_entries`] without a node budget: whether a node is shown whole then depends on its
/// depth alone, so the tree is built in one pass, with no breadth-first bookkeeping.
fn depth_only<'a>(entries: impl Iterator<Item = &'a Entry>, max_depth: usize) -> Selection<'a> {
    fn build(entry: &Entry, depth: usize, max_depth: usize) -> Shown<'_> {
        let cut = if entry.truncated.is_some() {
            Some(Cut::MaxNesting)
        } else if !entry.children.is_empty() && depth >= max_depth {
            Some(Cut::MaxDepth)
        } else {
            None
        };
        let children = cut.is_none().then(|| {
            entry
                .children
                .iter()
                .map(|child| build(child, depth + 1, max_depth))
                .collect()
        });
        Shown {
            entry,
            depth,
            children,
            cut,
        }
    }
    Selection {
        roots: entries.map(|e| build(e, 1, max_depth)).collect(),
        omitted: 0,
    }
}

/// [`select_entries`] with a node budget, spent breadth first.
fn breadth_first(entries: Vec<&Entry>, max_depth: usize, max_nodes: usize) -> Selection<'_> {
    let mut remaining = max_nodes;
    let shown_roots = entries.len().min(remaining);
    remaining -= shown_roots;
    let mut exhausted = shown_roots < entries.len();

    // Decide expansion breadth first, recording for each visited entry whether it is expanded.
    // Entries are addressed by pointer: they live in `outline` for the whole call.
    let mut expanded: FxHashSet<*const Entry> = Default::default();
    let mut cut_reason: FxHashMap<*const Entry, Cut> = Default::default();
    let mut queue: VecDeque<(&Entry, usize)> =
        entries[..shown_roots].iter().map(|e| (*e, 1)).collect();
    while let Some((entry, depth)) = queue.pop_front() {
        let key: *const Entry = entry;
        if entry.truncated.is_some() {
            // Its children are unknown, so it costs no budget and is never expanded.
            cut_reason.insert(key, Cut::MaxNesting);
            continue;
        }
        if entry.children.is_empty() {
            expanded.insert(key);
            continue;
        }
        let fits = !exhausted && entry.children.len() <= remaining;
        if depth >= max_depth {
            cut_reason.insert(key, if fits { Cut::MaxDepth } else { Cut::MaxNodes });
            continue;
        }
        if !fits {
            exhausted = true;
            cut_reason.insert(key, Cut::MaxNodes);
            continue;
        }
        remaining -= entry.children.len();
        expanded.insert(key);
        queue.extend(entry.children.iter().map(|child| (child, depth + 1)));
    }

    fn build<'a>(
        entry: &'a Entry,
        depth: usize,
        expanded: &FxHashSet<*const Entry>,
        cut_reason: &FxHashMap<*const Entry, Cut>,
    ) -> Shown<'a> {
        let key: *const Entry = entry;
        let children = expanded.contains(&key).then(|| {
            entry
                .children
                .iter()
                .map(|child| build(child, depth + 1, expanded, cut_reason))
                .collect()
        });
        Shown {
            entry,
            depth,
            children,
            cut: cut_reason.get(&key).copied(),
        }
    }
    Selection {
        roots: entries[..shown_roots]
            .iter()
            .map(|entry| build(entry, 1, &expanded, &cut_reason))
            .collect(),
        omitted: entries.len() - shown_roots,
    }
}

/// The result of looking a symbol up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SymbolMatch<'a> {
    /// The entry to show: the first match in source order, or the implementation among
    /// namesakes (see `SymbolMatch::implementation_first`).
    pub entry: &'a Entry,
    /// Further matches of the same quality, for a more exact second call.
    pub others: Vec<&'a Entry>,
}

impl<'a> SymbolMatch<'a> {
    /// Shows the namesake (same qualified name) of the chosen entry that spans the most
    /// lines, the earliest on ties: overload stubs (Python's `@overload`, TypeScript's
    /// signatures) and forward declarations come before the implementation, and the first
    /// would be shown instead of the body that was asked for.
    pub(crate) fn implementation_first(mut self) -> SymbolMatch<'a> {
        let all: Vec<&Entry> = std::iter::once(self.entry)
            .chain(self.others.iter().copied())
            .collect();
        let index = implementation_index(
            &all,
            |e| e.end_line - e.line,
            |a, b| a.qualname() == b.qualname(),
        );
        if let Some(other) = index.checked_sub(1).and_then(|i| self.others.get_mut(i)) {
            self.entry = std::mem::replace(other, self.entry);
        }
        self
    }
}

/// Which of `matches` to show, the first being the one chosen: among its namesakes
/// (`namesake(first, other)`), the one spanning the most lines (`span`), the earliest on ties
/// (see [`SymbolMatch::implementation_first`]). Shared by a file's lookup and a tree's.
pub(crate) fn implementation_index<T>(
    matches: &[T],
    span: impl Fn(&T) -> usize,
    namesake: impl Fn(&T, &T) -> bool,
) -> usize {
    let Some(first) = matches.first() else {
        return 0;
    };
    let mut best = 0;
    for (index, candidate) in matches.iter().enumerate().skip(1) {
        if namesake(first, candidate) && span(candidate) > span(&matches[best]) {
            best = index;
        }
    }
    best
}

/// Finds `query` in `outline`, trying in order: a node id (`1.2`), `@N` (innermost entry
/// containing line N, its leading docs included), an exact qualified name, an exact name, both case-insensitively, and a
/// qualified-name suffix (`Inner.method`).
pub fn find_symbol<'a>(outline: &'a Outline, query: &str) -> Option<SymbolMatch<'a>> {
    let query = query.trim();
    if query.is_empty() {
        return None;
    }
    if query
        .split('.')
        .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
    {
        if let Some(entry) = outline.find_id(query) {
            return Some(SymbolMatch {
                entry,
                others: Vec::new(),
            });
        }
    }
    if let Some(line) = query
        .strip_prefix('@')
        .and_then(|n| n.parse::<usize>().ok())
    {
        return innermost_at(&outline.entries, line).map(|entry| SymbolMatch {
            entry,
            others: Vec::new(),
        });
    }
    let all: Vec<&Entry> = outline.walk().into_iter().map(|(_, entry)| entry).collect();
    let lower = query.to_lowercase();
    let suffix = format!(".{lower}");
    // A name as written beats the same name in another case: `Execute` is not `execute`.
    let tiers: [&dyn Fn(&Entry) -> bool; 7] = [
        &|e| e.qualname() == query,
        &|e| e.name() == query,
        &|e| e.bare_name() == query,
        &|e| e.qualname().to_lowercase() == lower,
        &|e| e.name().to_lowercase() == lower,
        &|e| e.bare_name().to_lowercase() == lower,
        &|e| e.qualname().to_lowercase().ends_with(&suffix),
    ];
    // The best tier picks the entry; every other entry that matches at any tier is listed, so
    // a caller learns of `K.run` even when a top-level `run` won.
    let entry = tiers
        .iter()
        .find_map(|matches_tier| all.iter().copied().find(|e| matches_tier(e)))?;
    let others = all
        .iter()
        .copied()
        .filter(|e| !std::ptr::eq(*e, entry) && tiers.iter().any(|t| t(e)))
        .collect();
    Some(SymbolMatch { entry, others }.implementation_first())
}

/// The innermost entry holding `line`, its leading docs and attributes included: a hit on a
/// doc comment or a decorator belongs to what it documents.
pub(crate) fn innermost_at(entries: &[Entry], line: usize) -> Option<&Entry> {
    let entry = entries
        .iter()
        .rev()
        .find(|e| e.doc_line <= line && line <= e.end_line)?;
    innermost_at(&entry.children, line).or(Some(entry))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Language;
    use crate::outline::Kind;

    fn e(name: &str, line: usize, end: usize, children: Vec<Entry>) -> Entry {
        Entry::new(Kind::Class, name, line, end).with_children(children)
    }

    /// A(1-20){a1(2-5){x(3-4)}, a2(6-10)}, B(21-30){b1(22-25)}, C(31-31)
    fn sample() -> Outline {
        let tree = vec![
            e(
                "A",
                1,
                20,
                vec![
                    e("a1", 2, 5, vec![e("x", 3, 4, vec![])]),
                    e("a2", 6, 10, vec![]),
                ],
            ),
            e("B", 21, 30, vec![e("b1", 22, 25, vec![])]),
            e("C", 31, 31, vec![]),
        ];
        Outline::new(Language::Python, 31, 0, tree)
    }

    fn shape(selection: &Selection<'_>) -> Vec<String> {
        selection
            .walk()
            .iter()
            .map(|s| {
                let state = match (&s.children, s.cut) {
                    (Some(_), _) => "open".to_string(),
                    (None, Some(cut)) => cut.as_str().to_string(),
                    (None, None) => "??".to_string(),
                };
                format!("{}:{state}", s.entry.qualname())
            })
            .collect()
    }

    #[test]
    fn without_a_node_budget_the_one_pass_equals_the_breadth_first_walk() {
        let mut outline = sample();
        outline.entries[1].children[0].truncated = Some(Truncation::MaxNesting);
        outline.entries[2].truncated = Some(Truncation::MaxNesting);
        for max_depth in 1..=4 {
            let one_pass = depth_only(outline.entries.iter(), max_depth);
            let walked = breadth_first(outline.entries.iter().collect(), max_depth, usize::MAX);
            assert_eq!(one_pass, walked, "max_depth {max_depth}");
        }
        let cut = shape(&depth_only(outline.entries.iter(), 2));
        assert!(cut.contains(&"A.a1:max_depth".to_string()), "{cut:?}");
        assert!(cut.contains(&"B.b1:max_nesting".to_string()), "{cut:?}");
    }

    #[test]
    fn no_budget_shows_everything() {
        let outline = sample();
        let selection = select(&outline, Budget::default());
        assert_eq!(selection.walk().len(), 7);
        assert_eq!(selection.omitted, 0);
    }

    #[test]
    fn depth_cuts_nodes_with_children_only() {
        let outline = sample();
        let selection = select(
            &outline,
            Budget {
                max_depth: Some(1),
                max_nodes: None,
            },
        );
        assert_eq!(shape(&selection), ["A:max_depth", "B:max_depth", "C:open"]);
    }

    #[test]
    fn node_budget_is_breadth_first_and_never_partial() {
        let outline = sample();
        let budget = |n| Budget {
            max_depth: None,
            max_nodes: Some(n),
        };
        // 3 roots fit, A's two children do not (1 left): everything after is cut.
        assert_eq!(
            shape(&select(&outline, budget(4))),
            ["A:max_nodes", "B:max_nodes", "C:open"]
        );
        // 5: roots + A's children; B's child fits too (1 left)? 3+2=5, 0 left: B is cut.
        assert_eq!(
            shape(&select(&outline, budget(5))),
            [
                "A:open",
                "A.a1:max_nodes",
                "A.a2:open",
                "B:max_nodes",
                "C:open"
            ]
        );
        let two = select(&outline, budget(2));
        assert_eq!(two.omitted, 1);
        assert_eq!(shape(&two), ["A:max_nodes", "B:max_nodes"]);
    }

    #[test]
    fn both_caps_report_max_nodes() {
        let outline = sample();
        let selection = select(
            &outline,
            Budget {
                max_depth: Some(1),
                max_nodes: Some(3),
            },
        );
        assert_eq!(shape(&selection), ["A:max_nodes", "B:max_nodes", "C:open"]);
    }

    #[test]
    fn nesting_truncation_is_a_cut_under_every_budget() {
        let mut deep = e("deep", 3, 4, vec![]);
        deep.truncated = Some(Truncation::MaxNesting);
        let tree = vec![e("A", 1, 9, vec![e("inner", 2, 8, vec![deep])])];
        let outline = Outline::new(Language::Rust, 9, 0, tree);
        assert_eq!(
            shape(&select(&outline, Budget::default())),
            ["A:open", "A.inner:open", "A.inner.deep:max_nesting"]
        );
        // A truncated entry costs nothing: three nodes are enough to reach it.
        let three = Budget {
            max_depth: Some(3),
            max_nodes: Some(3),
        };
        assert_eq!(
            shape(&select(&outline, three)),
            ["A:open", "A.inner:open", "A.inner.deep:max_nesting"]
        );
        // Caps that cut above it still say so.
        let shallow = Budget {
            max_depth: Some(2),
            max_nodes: None,
        };
        assert_eq!(
            shape(&select(&outline, shallow)),
            ["A:open", "A.inner:max_depth"]
        );
    }

    #[test]
    fn symbol_lookup_prefers_ids_then_exact_then_loose() {
        let outline = sample();
        let name = |q: &str| find_symbol(&outline, q).map(|m| m.entry.qualname());
        assert_eq!(name("1.1.1"), Some("A.a1.x"));
        assert_eq!(name("A.a2"), Some("A.a2"));
        assert_eq!(name("b1"), Some("B.b1"));
        assert_eq!(name("a.A2"), Some("A.a2"));
        assert_eq!(name("a1.x"), Some("A.a1.x"));
        assert_eq!(name("@4"), Some("A.a1.x"));
        assert_eq!(name("@6"), Some("A.a2"));
        assert_eq!(name("@99"), None);
        assert_eq!(name("nope"), None);
        assert_eq!(name("9.9"), None);
    }

    #[test]
    fn several_matches_list_the_others() {
        let tree = vec![
            e("run", 1, 2, vec![]),
            e("K", 3, 9, vec![e("run", 4, 5, vec![])]),
        ];
        let outline = Outline::new(Language::Python, 9, 0, tree);
        let found = find_symbol(&outline, "run").expect("found");
        assert_eq!(found.entry.line, 1);
        assert_eq!(found.others.len(), 1);
        assert_eq!(found.others[0].qualname(), "K.run");
    }
}
