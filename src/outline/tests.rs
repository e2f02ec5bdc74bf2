//! Tests of the outline model: wire names, ids and qualified names, clamped ranges, change
//! marks, the depth cap and one-line names.

use super::*;

fn leaf(name: &str, line: usize, end: usize) -> Entry {
    Entry::new(Kind::Function, name, line, end)
}

#[test]
fn wire_names_are_the_variants_in_snake_case() {
    for kind in Kind::ALL {
        let mut snake = String::new();
        for (index, ch) in format!("{kind:?}").char_indices() {
            if ch.is_ascii_uppercase() && index > 0 {
                snake.push('_');
            }
            snake.push(ch.to_ascii_lowercase());
        }
        assert_eq!(kind.as_str(), snake);
        assert_eq!(Kind::from_name(&snake), Some(kind));
    }
    assert_eq!(Kind::from_name("Function"), None);
}

#[test]
fn ids_and_qualnames_follow_positions() {
    let tree = vec![
        leaf("b", 10, 12),
        leaf("A", 1, 8).with_children(vec![leaf("m2", 5, 6), leaf("m1", 2, 3)]),
    ];
    let outline = Outline::new(Language::Python, 12, 100, tree);
    let flat: Vec<_> = outline
        .walk()
        .into_iter()
        .map(|(depth, e)| {
            (
                depth,
                outline.id_of(e).unwrap_or_default().to_string(),
                e.qualname(),
            )
        })
        .collect();
    assert_eq!(
        flat,
        vec![
            (0, "1".to_string(), "A"),
            (1, "1.1".to_string(), "A.m1"),
            (1, "1.2".to_string(), "A.m2"),
            (0, "2".to_string(), "b")
        ]
    );
    assert_eq!(outline.find_id("1.2").map(|e| e.name()), Some("m2"));
    assert!(outline.find_id("1.3").is_none());
    assert!(outline.find_id("0").is_none());
    assert!(outline.find_id("x").is_none());
}

#[test]
fn ranges_are_clamped_into_file_and_parent() {
    let tree = vec![leaf("A", 3, 99).with_children(vec![leaf("m", 1, 200)])];
    let outline = Outline::new(Language::Python, 10, 100, tree);
    let a = &outline.entries[0];
    assert_eq!((a.line, a.end_line), (3, 10));
    assert_eq!((a.children[0].line, a.children[0].end_line), (3, 10));
}

#[test]
fn changes_mark_containing_entries_and_filter() {
    let tree = vec![
        leaf("A", 1, 10).with_children(vec![leaf("a1", 2, 4), leaf("a2", 5, 9)]),
        leaf("B", 12, 20),
        leaf("C", 22, 25),
    ];
    let mut outline = Outline::new(Language::Python, 25, 0, tree);
    outline.mark_changes(vec![
        LineChange {
            kind: ChangeKind::Modified,
            start: 3,
            end: 3,
        },
        LineChange {
            kind: ChangeKind::DeletedBelow,
            start: 25,
            end: 25,
        },
    ]);
    let changed: Vec<_> = outline
        .walk()
        .into_iter()
        .filter(|(_, e)| e.changed)
        .map(|(_, e)| e.qualname())
        .collect();
    assert_eq!(changed, ["A", "A.a1", "C"]);
    assert!(outline.is_changed());
    outline.retain_changed();
    let kept: Vec<_> = outline.walk().into_iter().map(|(_, e)| e.name()).collect();
    assert_eq!(kept, ["A", "a1", "C"]);
}

#[test]
fn deep_trees_are_capped_without_recursion_and_marked() {
    let mut deep = leaf("leaf", 1, 1);
    for level in 0..200_000 {
        deep = leaf(&format!("n{level}"), 1, 1).with_children(vec![deep]);
    }
    let outline = Outline::new(Language::Json, 1, 0, vec![deep]);
    let walked = outline.walk();
    assert_eq!(walked.len(), MAX_DEPTH);
    let (depth, deepest) = walked.last().expect("entries");
    assert_eq!(*depth, MAX_DEPTH - 1);
    assert!(deepest.children.is_empty());
    assert_eq!(deepest.truncated, Some(Truncation::MaxNesting));
    // Nothing above the cap is marked: their children are all there.
    assert!(walked[..MAX_DEPTH - 1]
        .iter()
        .all(|(_, e)| e.truncated.is_none()));
}

#[test]
fn truncated_entries_list_no_partial_children() {
    let mut cut = leaf("A", 1, 9).with_children(vec![leaf("seen", 2, 3)]);
    cut.truncated = Some(Truncation::MaxNesting);
    let outline = Outline::new(Language::Rust, 9, 0, vec![cut]);
    assert!(outline.entries[0].children.is_empty());
    assert_eq!(outline.len(), 1);
}

#[test]
fn same_line_siblings_keep_scanner_order() {
    // `<div></div><section>…`: the longer sibling must not jump ahead of the first.
    let tree = vec![leaf("div", 1, 1), leaf("section", 1, 3), leaf("p", 2, 2)];
    let outline = Outline::new(Language::Html, 3, 0, tree);
    let ids: Vec<_> = outline
        .walk()
        .into_iter()
        .map(|(_, e)| format!("{} {}", outline.id_of(e).unwrap_or_default(), e.name()))
        .collect();
    assert_eq!(ids, ["1 div", "2 section", "3 p"]);
}

#[test]
fn names_and_signatures_are_one_line() {
    let tree = vec![leaf("a\r\nb\rc\nd", 1, 1).with_signature("f(\n  x)")];
    let outline = Outline::new(Language::JavaScript, 1, 0, tree);
    assert_eq!(outline.entries[0].name(), "a b c d");
    assert_eq!(outline.entries[0].signature.as_deref(), Some("f(   x)"));
}

#[test]
fn empty_names_have_a_visible_qualname_segment() {
    let tree = vec![
        leaf("", 1, 2).with_children(vec![leaf("a", 2, 2)]),
        leaf("a", 3, 3),
    ];
    let outline = Outline::new(Language::Json, 3, 0, tree);
    let qualnames: Vec<_> = outline
        .walk()
        .into_iter()
        .map(|(_, e)| e.qualname())
        .collect();
    assert_eq!(qualnames, ["\"\"", "\"\".a", "a"]);
}

#[test]
fn has_line_break_finds_every_break_at_any_position() {
    for len in 0..40 {
        for at in 0..len {
            for byte in [b'\n', b'\r', b'\t', 0x0b, 0x0c, 0x00, b' ', 0x0e, 0xff] {
                let mut text = vec![b'x'; len];
                text[at] = byte;
                let want = byte == b'\n' || byte == b'\r';
                assert_eq!(
                    has_line_break(&text),
                    want,
                    "len {len} at {at} byte {byte:#x}"
                );
            }
        }
    }
}

#[test]
fn an_entry_fits_in_128_bytes() {
    // Parsers move entries while they build and sort trees: every byte is copied per move.
    assert!(
        std::mem::size_of::<Entry>() <= 128,
        "{}",
        std::mem::size_of::<Entry>()
    );
}

#[test]
fn ids_survive_filtering_and_name_entries_anywhere_in_the_tree() {
    let tree = vec![
        leaf("a", 1, 1),
        leaf("B", 2, 9).with_children(vec![leaf("x", 3, 4), leaf("y", 5, 6), leaf("z", 7, 8)]),
    ];
    let mut outline = Outline::new(Language::Python, 9, 0, tree);
    let y = &outline.entries[1].children[1];
    assert_eq!(outline.id_of(y).as_deref(), Some("2.2"));
    // An entry from elsewhere has no id here.
    assert_eq!(outline.id_of(&leaf("y", 5, 6)), None);
    // `--changed` keeps what changed: the ids still name the entries of the whole outline.
    outline.mark_changes(vec![crate::outline::LineChange {
        kind: crate::outline::ChangeKind::Modified,
        start: 7,
        end: 7,
    }]);
    outline.retain_changed();
    let z = &outline.entries[0].children[0];
    assert_eq!((z.name(), outline.id_of(z).as_deref()), ("z", Some("2.3")));
    assert_eq!(outline.find_id("2.3").map(|e| e.name()), Some("z"));
    assert!(outline.find_id("2.1").is_none());
}

#[test]
fn a_name_is_the_tail_of_its_qualified_name() {
    let tree = vec![leaf("A", 1, 5).with_children(vec![leaf("", 2, 2), leaf("two\nlines", 3, 3)])];
    let outline = Outline::new(Language::Python, 5, 0, tree);
    let names: Vec<_> = outline
        .walk()
        .into_iter()
        .map(|(_, e)| (e.name(), e.qualname()))
        .collect();
    assert_eq!(
        names,
        [("A", "A"), ("", "A.\"\""), ("two lines", "A.two lines")]
    );
    // Outlining again (a selection rebuilt into an outline) keeps the same names.
    let again = Outline::new(Language::Python, 5, 0, outline.entries.clone());
    assert_eq!(again, outline);
}
