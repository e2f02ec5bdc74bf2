//! Tests of the collapsible tree behind the directory and outline panes.

use super::*;

impl Item for &'static str {
    fn key(&self) -> &str {
        self
    }
}

fn sample() -> Tree<&'static str> {
    // a { b { c } d } e
    Tree::new(vec![(0, "a"), (1, "b"), (2, "c"), (1, "d"), (0, "e")], 1)
}

fn shown(tree: &Tree<&'static str>) -> Vec<&'static str> {
    tree.visible()
        .iter()
        .map(|&i| tree.nodes()[i].item)
        .collect()
}

#[test]
fn folding_and_depth() {
    let mut tree = sample();
    assert_eq!(shown(&tree), ["a", "b", "d", "e"]);
    tree.expand_to_depth(usize::MAX);
    assert_eq!(shown(&tree), ["a", "b", "c", "d", "e"]);
    tree.expand_to_depth(0);
    assert_eq!(shown(&tree), ["a", "e"]);
    tree.select(2);
    assert_eq!(shown(&tree), ["a", "b", "c", "d", "e"]);
    assert_eq!(tree.selected().map(|n| n.item), Some("c"));
    tree.move_by(-2);
    assert_eq!(tree.selected().map(|n| n.item), Some("a"));
    tree.toggle();
    assert_eq!(shown(&tree), ["a", "e"]);
    tree.move_by(10);
    assert_eq!(tree.selected().map(|n| n.item), Some("e"));
}

#[test]
fn closing_moves_selection_out_of_hidden_rows() {
    let mut tree = sample();
    tree.select(3);
    tree.expand_to_depth(1);
    assert_eq!(tree.selected().map(|n| n.item), Some("e"));
}

#[test]
fn filter_keeps_ancestors_and_cycles_matches() {
    let mut tree = sample();
    tree.set_filter("c");
    assert_eq!(shown(&tree), ["a", "b", "c"]);
    assert_eq!(tree.selected().map(|n| n.item), Some("c"));
    tree.set_filter("");
    assert_eq!(
        shown(&tree),
        ["a", "b", "c", "d", "e"],
        "the match stays in sight"
    );
    let mut tree = Tree::new(vec![(0, "ab"), (0, "x"), (0, "ba")], 1);
    tree.set_filter("a");
    tree.next_match(true);
    assert_eq!(tree.selected().map(|n| n.item), Some("ba"));
    tree.next_match(true);
    assert_eq!(tree.selected().map(|n| n.item), Some("ab"));
    tree.next_match(false);
    assert_eq!(tree.selected().map(|n| n.item), Some("ba"));
}

#[test]
fn clearing_a_filter_reveals_the_match() {
    let mut tree = sample();
    tree.expand_to_depth(1);
    assert_eq!(shown(&tree), ["a", "e"]);
    tree.set_filter("c");
    assert_eq!(tree.selected().map(|n| n.item), Some("c"));
    tree.set_filter("");
    assert_eq!(
        tree.selected().map(|n| n.item),
        Some("c"),
        "the match stays selected"
    );
    assert_eq!(
        shown(&tree),
        ["a", "b", "c", "d", "e"],
        "its parents opened"
    );
}

#[test]
fn children_load_lazily_and_keep_the_selection() {
    struct Lazy(&'static str, bool);
    impl Item for Lazy {
        fn key(&self) -> &str {
            self.0
        }
        fn expandable(&self) -> bool {
            self.1
        }
    }
    let mut tree = Tree::new(vec![(0, Lazy("dir", true)), (0, Lazy("file", false))], 1);
    assert!(
        tree.nodes()[0].has_children,
        "an unlisted directory can open"
    );
    tree.select(1);
    tree.set_children(0, vec![Lazy("x", false), Lazy("y", true)]);
    let names: Vec<&str> = tree
        .visible()
        .iter()
        .map(|&i| tree.nodes()[i].item.0)
        .collect();
    assert_eq!(names, ["dir", "x", "y", "file"]);
    assert_eq!(tree.selected().map(|n| n.item.0), Some("file"));
    assert_eq!(tree.nodes()[1].depth, 1);
    tree.select(2);
    tree.set_children(0, Vec::new());
    assert_eq!(tree.selected().map(|n| n.item.0), Some("dir"));
    assert!(
        !tree.nodes()[0].has_children,
        "an empty directory has no marker"
    );
    assert_eq!(tree.nodes().len(), 2);
}

#[test]
fn grafted_children_arrive_closed_and_show_while_filtering() {
    struct Lazy(&'static str, bool, bool);
    impl Item for Lazy {
        fn key(&self) -> &str {
            self.0
        }
        fn expandable(&self) -> bool {
            self.1 && !self.2
        }
    }
    let mut tree = Tree::new(
        vec![(0, Lazy("a", true, false)), (0, Lazy("zed", false, false))],
        0,
    );
    tree.select(1);
    tree.set_filter("q");
    assert!(tree.visible().is_empty());
    let grafted = tree.graft(|item| match item.0 {
        "a" => {
            item.2 = true;
            Some(vec![Lazy("b", true, false), Lazy("c", false, false)])
        }
        "b" => {
            item.2 = true;
            Some(vec![Lazy("quux", false, false)])
        }
        _ => None,
    });
    assert!(grafted);
    let names: Vec<&str> = tree
        .visible()
        .iter()
        .map(|&i| tree.nodes()[i].item.0)
        .collect();
    assert_eq!(names, ["a", "b", "quux"], "the match and its parents");
    assert_eq!(tree.selected().map(|n| n.item.0), Some("quux"));
    assert!(tree.shows_children(0) && tree.shows_children(1));
    assert!(!tree.nodes()[0].expanded, "grafted closed");
    tree.set_filter("");
    let names: Vec<&str> = tree
        .visible()
        .iter()
        .map(|&i| tree.nodes()[i].item.0)
        .collect();
    assert_eq!(
        names,
        ["a", "b", "quux", "c", "zed"],
        "the way to the match opened"
    );
    assert!(tree.shows_children(0));
}

#[test]
fn fuzzy_is_subsequence_and_smart_case() {
    assert!(fuzzy_match("gtu", "get_user"));
    assert!(!fuzzy_match("ug", "get_u"));
    assert!(fuzzy_match("U", "get_User"));
    assert!(!fuzzy_match("U", "get_user"));
}

#[test]
fn scrolling_keeps_selection_visible() {
    let items: Vec<(usize, &'static str)> = (0..50).map(|_| (0, "x")).collect();
    let mut tree = Tree::new(items, 1);
    tree.move_by(30);
    tree.scroll_into_view(10);
    assert_eq!(tree.offset, 21);
    tree.select_row(0);
    tree.scroll_into_view(10);
    assert_eq!(tree.offset, 0);
    let mut empty: Tree<&'static str> = Tree::new(Vec::new(), 1);
    empty.move_by(3);
    empty.toggle();
    empty.set_filter("x");
    assert!(empty.selected().is_none());
}

/// Issue 26 item 14: the directory filter's walk grafts rows in an order that depends on
/// timing; the filter's own pick is the first match in tree order once they are in, so the
/// same query ends on the same row. A row the user moved to stays.
#[test]
fn the_filters_pick_is_the_first_match_whatever_arrives_later() {
    let mut tree = Tree::new(vec![(0, "a"), (0, "b"), (0, "mx")], 1);
    tree.set_filter("x");
    assert_eq!(tree.selected().map(|n| n.item), Some("mx"));
    tree.graft(|item| (*item == "a").then(|| vec!["ax"]));
    assert_eq!(
        tree.selected().map(|n| n.item),
        Some("ax"),
        "{:?}",
        shown(&tree)
    );
    tree.next_match(true);
    assert_eq!(tree.selected().map(|n| n.item), Some("mx"));
    tree.graft(|item| (*item == "b").then(|| vec!["bx"]));
    assert_eq!(
        tree.selected().map(|n| n.item),
        Some("mx"),
        "the user's choice stays"
    );
}

#[test]
fn a_query_with_a_slash_matches_paths() {
    let items = vec![
        (0, "sub07"),
        (1, "mod041.rs"),
        (1, "mod042.rs"),
        (0, "sub08"),
        (1, "mod042.rs"),
    ];
    let mut tree = Tree::new(items, usize::MAX);
    tree.set_filter("sub07/mod042");
    assert_eq!(shown(&tree), ["sub07", "mod042.rs"]);
    assert_eq!(tree.selected_index(), 2);
    tree.set_filter("mod042");
    assert_eq!(tree.match_position(), Some((1, 2)));
}
