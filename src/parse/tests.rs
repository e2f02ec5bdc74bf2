//! Tests of the entry points: limits, line breaks, byte order marks, nesting marks, signature
//! shaping and the hostile inputs every family must survive.

use super::*;
use crate::outline::{Kind, MAX_DEPTH};

/// `(depth, kind, name, line, end_line)` for every entry of a scanner's raw tree, depth first;
/// with `by_line`, each level sorted by first line then widest first (scanners that do not emit
/// in source order), else as emitted. Shared by the family scanners' tests.
pub(crate) fn flat_tree(
    entries: &[Entry],
    by_line: bool,
) -> Vec<(usize, &'static str, String, usize, usize)> {
    fn walk(
        entries: &[Entry],
        by_line: bool,
        depth: usize,
        out: &mut Vec<(usize, &'static str, String, usize, usize)>,
    ) {
        let mut level: Vec<&Entry> = entries.iter().collect();
        if by_line {
            level.sort_by_key(|e| (e.line, std::cmp::Reverse(e.end_line)));
        }
        for e in level {
            let name = e.name().to_string();
            out.push((depth, e.kind.as_str(), name, e.line, e.end_line));
            walk(&e.children, by_line, depth + 1, out);
        }
    }
    let mut out = Vec::new();
    walk(entries, by_line, 0, &mut out);
    out
}

/// One entry of a [`kind_tree`]: kind, name, line, end line, depth.
pub(crate) type KindRow = (Kind, String, usize, usize, usize);

/// `(kind, name, line, end_line, depth)` of every entry, depth first, each level in line
/// order: [`flat_tree`] in the order the keyword-family tests (Lua, Ruby, shell) write theirs.
pub(crate) fn kind_tree(entries: &[Entry]) -> Vec<KindRow> {
    flat_tree(entries, true)
        .into_iter()
        .filter_map(|(depth, kind, name, line, end)| {
            Some((Kind::from_name(kind)?, name, line, end, depth))
        })
        .collect()
}

/// A [`KindRow`] written briefly.
pub(crate) fn row(kind: Kind, name: &str, line: usize, end: usize, depth: usize) -> KindRow {
    (kind, name.to_string(), line, end, depth)
}

/// The raw tree of the family scanner for `options.language`, before [`Outline::new`].
fn parse_entries(text: &str, options: ParseOptions) -> Vec<Entry> {
    parse_lines_unified(&lone_crs_as_newlines(text), options)
}

#[test]
fn limits_cut_on_line_boundaries_and_say_so() {
    let text = "x\n".repeat(MAX_LINES + 10);
    let (cut, limit) = apply_limits(&text, count_lines(&text), text.len());
    assert_eq!(count_lines(cut), MAX_LINES);
    let limit = limit.expect("a limit is reported");
    assert_eq!(limit.lines_outlined, MAX_LINES);
    assert!(limit.reason.contains("50,010"), "{}", limit.reason);
    let small = "x\ny";
    assert_eq!(apply_limits(small, 2, 3), (small, None));
}

#[test]
fn a_line_longer_than_the_byte_limit_is_cut_inside_and_said() {
    // One line of JSON past the cap, with a multi-byte character across the cut.
    let mut text = "{\"a\": 1, \"b\": \"".to_string();
    text.push_str(&"é".repeat(MAX_BYTES / 2 + 10));
    text.push_str("\"}\n");
    let outline = outline_file(&text, text.len() + 5000, ParseOptions::new(Language::Json));
    let limit = outline.limit.as_ref().expect("a note");
    assert_eq!(limit.lines_outlined, 1);
    assert!(limit.reason.contains("line 1 is cut"), "{}", limit.reason);
    let names: Vec<_> = outline.walk().iter().map(|(_, e)| e.name()).collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(outline.lines, 1);
    // A short first line does not keep the huge second one from being outlined.
    let two = format!("// header\n{text}");
    let outline = outline_text(&two, ParseOptions::new(Language::JavaScript));
    let limit = outline.limit.as_ref().expect("a note");
    assert!(limit.reason.contains("line 2 is cut"), "{}", limit.reason);
    // A line that crosses the limit late is dropped whole: the cut stays on a boundary.
    let line = format!("x = {}\n", "1".repeat(295));
    let many = line.repeat(MAX_BYTES / line.len() + 100);
    assert!(count_lines(&many) < MAX_LINES);
    let (cut, limit) = apply_limits(&many, count_lines(&many), many.len());
    assert!(cut.ends_with('\n') && cut.len() <= MAX_BYTES);
    assert!(limit.is_some_and(|l| l.reason.contains("lines (")));
}

#[test]
fn lone_carriage_returns_break_lines_for_the_scanners_too() {
    let text = "def f():\r    pass\r# Doc.\rdef g():\r\n    pass\r";
    let outline = outline_text(text, ParseOptions::new(Language::Python));
    let got: Vec<_> = outline
        .walk()
        .iter()
        .map(|(_, e)| format!("{} {}-{} docs {}", e.name(), e.line, e.end_line, e.doc_line))
        .collect();
    assert_eq!(got, ["f 1-2 docs 1", "g 4-5 docs 3"]);
    assert_eq!(outline.lines, 5);
    assert_eq!(outline.bytes, text.len());
}

/// Depths (1-based) of the entries of a raw scanner tree marked as cut by nesting.
fn marked_depths(entries: &[Entry]) -> Vec<usize> {
    fn visit(entries: &[Entry], depth: usize, out: &mut Vec<usize>) {
        for entry in entries {
            if entry.truncated.is_some() {
                out.push(depth);
            }
            visit(&entry.children, depth + 1, out);
        }
    }
    let mut out = Vec::new();
    visit(entries, 1, &mut out);
    out
}

#[test]
fn scanner_nesting_limits_mark_the_entry_they_stop_at() {
    let nest =
        |open: &str, inner: &str, close: &str, n: usize| open.repeat(n) + inner + &close.repeat(n);
    // (language, input, depths of the marked entries in the scanner's own tree)
    let cases: Vec<(Language, String, Vec<usize>)> = vec![
        (
            Language::Rust,
            nest("mod m {", "fn f() {}", "}", 60),
            vec![48],
        ),
        (
            Language::Rust,
            nest("mod m {", "fn f() {}", "}", 47),
            vec![],
        ),
        // An `extern {}` block past the limit marks the module around it.
        (
            Language::Rust,
            nest("mod m {", "extern \"C\" { fn f(); }", "}", 47),
            vec![47],
        ),
        (
            Language::Cpp,
            nest("namespace n {", "int f() {}", "}", 70),
            vec![65],
        ),
        (
            Language::Cpp,
            nest("namespace n {", "int f() {}", "}", 64),
            vec![],
        ),
        (
            Language::Cpp,
            nest("struct S {", "int x;", "};", 66),
            vec![65],
        ),
        (
            Language::Cpp,
            nest("namespace n {", "extern \"C\" { int f(); }", "}", 64),
            vec![64],
        ),
        (
            Language::TypeScript,
            nest("namespace n {", "function f() {}", "}", 20),
            vec![17],
        ),
        (
            Language::TypeScript,
            nest("namespace n {", "class C { m() {} }", "}", 16),
            vec![17],
        ),
        (
            Language::TypeScript,
            nest("namespace n {", "declare global { var x: number }", "}", 16),
            vec![16],
        ),
        (
            Language::JavaScript,
            format!("const o = {}", nest("{ k: ", "{ m() {} }", " }", 20)),
            vec![18],
        ),
        (
            Language::JavaScript,
            format!("const o = {}", nest("{ k: ", "{ m() {} }", " }", 15)),
            vec![],
        ),
    ];
    for (language, text, want) in cases {
        let entries = parse_entries(&text, ParseOptions::new(language));
        assert_eq!(marked_depths(&entries), want, "{language}: {text}");
    }
}

#[test]
fn the_model_cap_marks_every_language_at_the_same_depth() {
    let deep = |open: &str, close: &str| open.repeat(200) + &close.repeat(200);
    let cases = [
        (Language::Html, deep("<div>", "</div>")),
        (Language::Css, deep("a {", "}")),
        (Language::Json, deep("{\"k\": ", "}")),
        (
            Language::Yaml,
            (0..200).map(|i| format!("{}k:\n", " ".repeat(i))).collect(),
        ),
        (
            Language::Python,
            (0..200)
                .map(|i| format!("{}class C:\n", " ".repeat(i)))
                .collect(),
        ),
    ];
    for (language, text) in cases {
        let outline = outline_text(&text, ParseOptions::new(language));
        assert_eq!(marked_depths(&outline.entries), [MAX_DEPTH], "{language}");
        assert_eq!(outline.len(), MAX_DEPTH, "{language}");
    }
}

/// Inputs that have crashed or slowed scanners elsewhere; each family must end, in order,
/// without panicking, on the stack a directory-mode worker thread gets.
#[test]
fn pathological_inputs_never_panic_or_overflow() {
    let deep = |open: &str, n: usize| open.repeat(n);
    let inputs: Vec<String> = vec![
        deep("{", 100_000),
        deep("[", 100_000),
        deep("(", 100_000),
        deep("<div>", 50_000),
        deep("a {", 50_000),
        (0..3000)
            .map(|i| format!("{}def f{i}():\n", " ".repeat(i)))
            .collect(),
        (0..3000)
            .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
            .collect(),
        "\"unclosed ' ` /* r#\" R\"x( $$ <!-- <script>".into(),
        "\0\u{1}\u{FFFD}}}}))]]]>>>".repeat(1000),
        "x".repeat(2_000_000),
        "\n".repeat(200_000),
    ];
    let handle = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(move || {
            for language in Language::ALL {
                for (index, text) in inputs.iter().enumerate() {
                    let started = std::time::Instant::now();
                    let outline = outline_text(
                        text,
                        ParseOptions {
                            language,
                            jsx: true,
                            rake: false,
                        },
                    );
                    assert!(outline.walk().iter().all(|(_, e)| e.line <= e.end_line));
                    // Generous bound: this catches quadratic blow-ups, not speed.
                    let took = started.elapsed();
                    assert!(
                        took.as_secs() < 20,
                        "{language} input {index} took {took:?}"
                    );
                }
            }
        })
        .expect("spawn");
    assert!(handle.join().is_ok(), "a scanner panicked");
}

#[test]
fn byte_order_mark_never_hides_the_first_entry() {
    // The cases each family once tested on its own, now through the one place that strips.
    let cases: &[(Language, &str, &[&str])] = &[
        (
            Language::Markdown,
            "\u{FEFF}# Title\n",
            &["heading Title 1-1"],
        ),
        (
            Language::TypeScript,
            "\u{FEFF}export const a = 1\n",
            &["constant a 1-1"],
        ),
        (
            Language::Go,
            "\u{FEFF}func main() {}",
            &["function main 1-1"],
        ),
        (
            Language::Python,
            "\u{FEFF}def f():\r\n    pass\r\nXY = 1",
            &["function f 1-2", "constant XY 3-3"],
        ),
        (
            Language::Rust,
            "\u{FEFF}fn main() {}",
            &["function main 1-1"],
        ),
        (
            Language::Yaml,
            "\u{FEFF}a:\n  b: 1\n",
            &["key a 1-2 a: {1 key}", "key b 2-2 b: 1"],
        ),
        (Language::Toml, "\u{FEFF}k = 1", &["key k 1-1 k: 1"]),
        (Language::Json, "\u{FEFF}{\"k\": 1}", &["key k 1-1 k: 1"]),
        (
            Language::Dockerfile,
            "\u{FEFF}FROM x\n",
            &["stage x 1-1 FROM x"],
        ),
        (
            Language::Makefile,
            "\u{FEFF}all: x\n",
            &["target all 1-1 all: x"],
        ),
    ];
    for (language, text, want) in cases {
        let outline = outline_text(text, ParseOptions::new(*language));
        let got: Vec<String> = outline
            .walk()
            .iter()
            .map(|(_, e)| {
                let sig = match (*language, &e.signature) {
                    (Language::Yaml | Language::Toml | Language::Json, Some(s))
                    | (Language::Dockerfile | Language::Makefile, Some(s)) => format!(" {s}"),
                    _ => String::new(),
                };
                format!("{} {} {}-{}{sig}", e.kind, e.name(), e.line, e.end_line)
            })
            .collect();
        assert_eq!(got, *want, "{language}");
    }
}

#[test]
fn signatures_are_normalised_in_one_place() {
    let cases = [
        (
            "set_stringn<T, S>(\n        &mut self,\n        x: usize,\n        style: S,\n    )",
            "set_stringn<T, S>(&mut self, x: usize, style: S)",
        ),
        (
            "f<\n    T: Copy,\n>(x: T)\n    -> T",
            "f<T: Copy>(x: T) -> T",
        ),
        ("const x = {", "const x"),
        ("TABLE = [", "TABLE"),
        ("let t =\n  (", "let t"),
        ("f(a = [1,\n 2,\n])", "f(a = [1, 2])"),
        ("cmp(a <= b) = {", "cmp(a <= b)"),
        ("x == {", "x == {"),
        ("f => {", "f => {"),
        ("ul > li", "ul > li"),
        ("a < b && c > d", "a < b && c > d"),
        ("t = (1,)", "t = (1,)"),
        ("f( a )", "f( a )"),
        ("name: \"Brace } Bracket ]\"", "name: \"Brace } Bracket ]\""),
        ("f(\n    a\n)", "f(a)"),
        ("{ a,\n  b,\n}", "{ a, b }"),
        ("Vec<\n  u8\n>", "Vec<u8>"),
        ("= {", "= {"),
        ("\tx\r\n  y ", "x y"),
    ];
    for (raw, want) in cases {
        assert_eq!(signature(raw), want, "{raw:?}");
        assert_eq!(super::owned_signature(raw.to_string()), want, "{raw:?}");
    }
}

#[test]
fn helpers_format_numbers_and_signatures() {
    assert_eq!(thousands(1234567), "1,234,567");
    assert_eq!(thousands(12), "12");
    assert_eq!(one_line("  def f(\n    a,\n    b)  "), "def f(a, b)");
    assert_eq!(signature("f(\n  a,\n  b\n) -> int"), "f(a, b) -> int");
    let long = signature(&"x".repeat(500));
    assert_eq!(long.chars().count(), MAX_SIGNATURE_CHARS + 1);
    assert!(long.ends_with('…'));
}

#[test]
fn ascii_words_join_as_the_char_by_char_rules_join_them() {
    let texts = [
        "",
        "   ",
        "fn f(\n    a,\n    b,\n) -> T",
        "x\x0b=\x0c1\r\n;",
        "a ( b ) [ c ] < d > e -> f => g",
        "call(\n  a,\n)\n{\n}\n>",
        "List<\n  Map<K, V>,\n>",
        "a,\r\n]",
        "  lead and trail  ",
        "word",
    ];
    assert_eq!(super::join_ascii_words("a\u{a0}b", usize::MAX), None);
    assert_eq!(super::join_words("a\u{a0}b  c", usize::MAX), "a b c");
    // Texts already joined, which `join_words` hands back without joining them.
    let joined = [
        "f(a, b) -> T",
        "x",
        "a ( b ) < c >",
        "é b",
        "a,\n)",
        " \r\nf(a) \r\n",
        "a\x0b",
    ];
    for text in texts.iter().chain(&joined) {
        for max in [0, 3, 10, usize::MAX] {
            assert_eq!(
                super::join_words(text, max),
                super::join_unicode_words(text, max),
                "{text:?} {max}"
            );
        }
    }
    for text in texts {
        for max in [0, 3, 10, usize::MAX] {
            assert_eq!(
                super::join_ascii_words(text, max),
                Some(super::join_unicode_words(text, max)),
                "{text:?} {max}"
            );
        }
    }
}

#[test]
fn dense_input_stops_at_the_entry_budget_and_says_so() {
    let count = |outline: &Outline| {
        outline
            .entries
            .iter()
            .map(Entry::subtree_len)
            .sum::<usize>()
    };
    // One line of `x=1;` statements, three budgets' worth: cut inside the line.
    let text = "x=1;".repeat(budget::MAX_ENTRIES * 3);
    let outline = outline_text(&text, ParseOptions::new(Language::Python));
    let made = count(&outline);
    assert!(
        made <= budget::MAX_ENTRIES && made > budget::MAX_ENTRIES / 4,
        "{made}"
    );
    let limit = outline.limit.as_ref().expect("a limit");
    assert!(limit.entries_cut && limit.cut_at.is_some(), "{limit:?}");
    assert!(
        limit.reason.starts_with("file has over 100,000 entries"),
        "{}",
        limit.reason
    );
    // Many lines of them: cut between lines, before the line that did not fit.
    let line = format!("{}\n", "x=1;".repeat(50));
    let text = line.repeat(budget::MAX_ENTRIES / 10);
    let outline = outline_text(&text, ParseOptions::new(Language::Python));
    assert!(count(&outline) <= budget::MAX_ENTRIES);
    let limit = outline.limit.as_ref().expect("a limit");
    assert_eq!(limit.cut_at, None, "{limit:?}");
    assert!(
        limit.lines_outlined < budget::MAX_ENTRIES / 50 + 1,
        "{limit:?}"
    );
    // Data files count their nodes: a dense JSON array is cut too.
    let json = format!("[{}1]", "{\"a\":1},".repeat(budget::MAX_ENTRIES * 2));
    let outline = outline_text(&json, ParseOptions::new(Language::Json));
    assert!(count(&outline) <= budget::MAX_ENTRIES);
    assert!(outline.limit.is_some_and(|limit| limit.entries_cut));
}
