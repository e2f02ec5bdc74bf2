//! Unit tests of the HTML scanner.
#![allow(clippy::unwrap_used)]

use super::*;

fn flat(entries: &[Entry]) -> Vec<(String, usize, usize, usize)> {
    let mut out = Vec::new();
    fn visit(entries: &[Entry], depth: usize, out: &mut Vec<(String, usize, usize, usize)>) {
        for e in entries {
            out.push((e.name().to_string(), e.line, e.end_line, depth));
            visit(&e.children, depth + 1, out);
        }
    }
    visit(entries, 0, &mut out);
    out
}

fn e(name: &str, line: usize, end: usize, depth: usize) -> (String, usize, usize, usize) {
    (name.to_string(), line, end, depth)
}

#[test]
fn implied_end_tags_do_not_swallow_the_document() {
    let src = "<div id=\"a\">\n<p id=\"p1\">text\n<p id=\"p2\">more\n\n<div id=\"b\">x</div>\n<ul id=\"u\"><li id=\"l1\">one\n<li id=\"l2\">two\n</ul>\n<span id=\"s\">unclosed\n</div>\n<table id=\"t\"><tr id=\"r1\"><td id=\"c1\">1<td id=\"c2\">2\n<tr id=\"r2\"><td>3\n</table>\n<em id=\"e\">x <b id=\"bb\">y</em>\n</foo>\n";
    assert_eq!(
        flat(&parse(src)),
        vec![
            e("div#a", 1, 10, 0),
            e("p#p1", 2, 2, 1),
            e("p#p2", 3, 4, 1),
            e("div#b", 5, 5, 1),
            e("ul#u", 6, 8, 1),
            e("li#l1", 6, 6, 2),
            e("li#l2", 7, 7, 2),
            e("span#s", 9, 9, 1),
            e("table#t", 11, 13, 0),
            e("tr#r1", 11, 11, 1),
            e("td#c1", 11, 11, 2),
            e("td#c2", 11, 11, 2),
            e("tr#r2", 12, 12, 1),
            e("em#e", 14, 14, 0),
            e("b#bb", 14, 14, 1),
        ]
    );
}

#[test]
fn raw_text_comments_void_and_multiline_tags() {
    let src = "<!DOCTYPE html>\n<HTML id=h>\n<head><title>A <b>b</b></title>\n<script id=s>if (a<b && \"</div>\") {}</script>\n<STYLE>div > p { }</style></head>\n<body>\n<div\n  id=\"multi\"\n  data-x=\"a > b\"\n  class=\"c1  c2\">\n<svg><path id=pa d=\"M0\"/></svg>\n<img id=im src=x>\n<!-- <div id=com></div> -->\n<![CDATA[ <div id=cd></div> ]]>\n<br>\n</div>\n</body>\n</html>";
    assert_eq!(
        flat(&parse(src)),
        vec![
            e("html#h", 2, 18, 0),
            e("head", 3, 5, 1),
            e("title", 3, 3, 2),
            e("script#s", 4, 4, 2),
            e("style", 5, 5, 2),
            e("body", 6, 17, 1),
            e("div#multi", 7, 16, 2),
            e("svg", 11, 11, 3),
            e("path#pa", 11, 11, 4),
            // A void element ends where the next token starts (tree-sitter-html).
            e("img#im", 12, 13, 3),
        ]
    );
    let out = parse(src);
    let title = &out[0].children[0].children[0];
    assert_eq!(title.signature.as_deref(), Some("title A b"));
}

#[test]
fn headings_carry_their_text_and_odd_ids_keep_exact_names() {
    let src = "<section>\n  <h2 class=\"title\">Getting <em>started</em>\n  </h2>\n  <div id=\"ctl00:main\" class=\"x\"></div>\n</section>\r\n";
    let out = parse(src);
    assert_eq!(
        flat(&out),
        vec![
            e("section", 1, 5, 0),
            e("h2.title", 2, 3, 1),
            e("div#ctl00:main", 4, 4, 1)
        ]
    );
    assert_eq!(
        out[0].children[0].signature.as_deref(),
        Some("h2.title Getting started")
    );
    assert_eq!(
        out[0].children[1].signature.as_deref(),
        Some("div#ctl00:main.x")
    );
}

/// Depths (1-based) of the entries marked as cut by the nesting limit.
fn marked_depths(entries: &[Entry]) -> Vec<usize> {
    fn visit(entries: &[Entry], depth: usize, out: &mut Vec<usize>) {
        for e in entries {
            if e.truncated.is_some() {
                out.push(depth);
            }
            visit(&e.children, depth + 1, out);
        }
    }
    let mut out = Vec::new();
    visit(entries, 1, &mut out);
    out
}

#[test]
fn hostile_nesting_is_linear_and_depth_capped() {
    let src = "<div>".repeat(50_000) + &"</span>".repeat(50_000) + "</div>";
    let out = parse(&src);
    fn depth(entries: &[Entry]) -> usize {
        entries
            .iter()
            .map(|e| 1 + depth(&e.children))
            .max()
            .unwrap_or(0)
    }
    assert_eq!(depth(&out), MAX_DEPTH);
    assert_eq!(flat(&out).len(), MAX_DEPTH);
    assert_eq!(marked_depths(&out), [MAX_DEPTH]);
    let voids = "<div>".repeat(200) + &"<img id=i>".repeat(10);
    let voids = parse(&voids);
    assert_eq!(depth(&voids), MAX_DEPTH);
    assert_eq!(marked_depths(&voids), [MAX_DEPTH]);
    // One level short of the cap, void children still fit: nothing is dropped or marked.
    let fits = parse(&("<div>".repeat(MAX_DEPTH - 1) + "<img id=i>"));
    assert_eq!(depth(&fits), MAX_DEPTH);
    assert!(marked_depths(&fits).is_empty());
    let _ = parse(&"<?".repeat(20_000));
}

#[test]
fn titles_decode_entities_and_php_blocks_are_opaque() {
    let src = "<title>A &amp; B &mdash; C &#8212; &#x41; &bogus; &</title>\n<?php if ($a->b > 1) { echo '<div id=\"x\">'; } ?>\n<H2 ID=Top>T</H2>\n";
    let out = parse(src);
    assert_eq!(flat(&out), vec![e("title", 1, 1, 0), e("h2#Top", 3, 3, 0)]);
    assert_eq!(
        out[0].signature.as_deref(),
        Some("title A & B \u{2014} C \u{2014} A &bogus; &")
    );
    assert_eq!(out[1].signature.as_deref(), Some("h2#Top T"));
}

#[test]
fn junk_and_unclosed_input_do_not_panic() {
    for src in [
        "",
        "<",
        "<div",
        "<div id=\"x",
        "</",
        "<!--",
        "<script>",
        "<a href='>",
        "<é>",
        "a < b > c",
        "<div/><p>",
    ] {
        let _ = parse(src);
    }
    assert_eq!(flat(&parse("<div id=x>\n<p>\n")), vec![e("div#x", 1, 2, 0)]);
}

#[test]
fn paragraphs_and_list_items_close_like_tree_sitter() {
    // `<ul>` does not close a `<p>` (tree-sitter-html's list); `</div>` closes what is open in it.
    let src = "<div id=d>\n<p id=p>text\n<ul id=u><li>a\n<li id=b>b\n</ul>\n</div>\n<ol id=o>\n<li id=x><p id=q>para\n<li id=y>next\n</ol>\n";
    assert_eq!(
        flat(&parse(src)),
        vec![
            e("div#d", 1, 6, 0),
            e("p#p", 2, 5, 1),
            e("ul#u", 3, 5, 2),
            e("li#b", 4, 4, 3),
            e("ol#o", 7, 10, 0),
            // Only the innermost open element is checked, as tree-sitter-html does: an open
            // `<p>` may hold an `<li>`, so the second item nests in the first one's paragraph.
            e("li#x", 8, 9, 1),
            e("p#q", 8, 9, 2),
            e("li#y", 9, 9, 3),
        ]
    );
}

#[test]
fn unquoted_and_odd_attributes() {
    let src = "<div id=main class=wide data-a=\"x\" hidden>\n<input id='q' value=\"a>b\" disabled>\n<span id = \"spaced\"></span>\n<a href=/x/ id=link>l</a>\n</div>";
    let out = parse(src);
    assert_eq!(
        flat(&out),
        vec![
            e("div#main", 1, 5, 0),
            e("input#q", 2, 2, 1),
            e("span#spaced", 3, 3, 1),
            e("a#link", 4, 4, 1),
        ]
    );
    assert_eq!(out[0].signature.as_deref(), Some("div#main.wide"));
    let script = parse("<script SRC=\"/app.js\" defer></script>\n<script src=x.js />");
    let sigs: Vec<_> = script.iter().map(|e| e.signature.as_deref()).collect();
    assert_eq!(
        sigs,
        vec![Some("script src=/app.js"), Some("script src=x.js")]
    );
}
