//! Unit tests for the go scanner: realistic snippets with the lexical and grammar traps.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

fn flat(text: &str) -> Vec<(&'static str, String, usize, usize)> {
    parse(text)
        .into_iter()
        .map(|e| (e.kind.as_str(), e.name().to_string(), e.line, e.end_line))
        .collect()
}

#[test]
fn funcs_and_methods() {
    let src = "//go:build linux\n\npackage server\n\nimport (\n\t\"fmt\"\n)\n\n// Start starts.\nfunc (s *Server) Start(\n\tctx context.Context,\n) (err error) {\n\tr := '{'\n\tq := `}\n}`\n\treturn nil\n}\n\nfunc (m Map[K, V]) Get(k K) V { return m[k] }\nfunc (l *List[T]) Push(v T) {}\nfunc Map[T any, U any](xs []T, f func(T) U) []U {\n\treturn nil\n}\nfunc asm(x int) int\nfunc iface() interface{ M() } {\n\treturn nil\n}\n";
    assert_eq!(
        flat(src),
        vec![
            ("method", "(*Server).Start".into(), 10, 17),
            ("method", "Map.Get".into(), 19, 19),
            ("method", "(*List).Push".into(), 20, 20),
            ("function", "Map".into(), 21, 23),
            ("function", "asm".into(), 24, 24),
            ("function", "iface".into(), 25, 27),
        ]
    );
    let entries = parse(src);
    assert_eq!(
        entries[0].signature.as_deref(),
        Some("(s *Server) Start(ctx context.Context) (err error)")
    );
    assert_eq!(entries[4].signature.as_deref(), Some("asm(x int) int"));
    let commented = parse("func f(\n\ta int, // the a\n\tb string, /* b */\n) {}\n");
    assert_eq!(
        commented[0].signature.as_deref(),
        Some("f(a int, b string)")
    );
}

#[test]
fn types_consts_and_vars() {
    let src = "package p\n\ntype (\n\tServer struct {\n\t\tName string `json:\"name,omitempty\"`\n\t\tmu   sync.Mutex\n\t}\n\tHandler interface {\n\t\tServe()\n\t}\n\tID = string\n)\n\ntype Pair[K comparable, V any] struct{ k K; v V }\ntype Arr [4]int\n\nconst (\n\tA = iota\n\tB\n\t_\n\tC\n)\n\nvar a, b = 1,\n\t2\nvar handler = func() {\n\tfmt.Println(\"}\")\n}\nvar (\n\tx int\n\ty = map[string]int{\n\t\t\"a\": 1,\n\t}\n)\n";
    assert_eq!(
        flat(src),
        vec![
            ("struct", "Server".into(), 4, 7),
            ("interface", "Handler".into(), 8, 10),
            ("type", "ID".into(), 11, 11),
            ("struct", "Pair".into(), 14, 14),
            ("type", "Arr".into(), 15, 15),
            ("constant", "A".into(), 18, 18),
            ("constant", "B".into(), 19, 19),
            ("constant", "C".into(), 21, 21),
            ("variable", "a".into(), 24, 25),
            ("variable", "b".into(), 24, 25),
            ("variable", "handler".into(), 26, 28),
            ("variable", "x".into(), 30, 30),
            ("variable", "y".into(), 31, 33),
        ]
    );
    let entries = parse(src);
    assert_eq!(entries[0].signature.as_deref(), Some("Server"));
    assert_eq!(entries[2].signature.as_deref(), Some("ID = string"));
    assert_eq!(entries[10].signature.as_deref(), Some("handler = func()"));
    assert_eq!(entries[8].signature.as_deref(), Some("a"));
    let typed = parse("var lo, hi int = 1, 2\n");
    assert_eq!(typed[1].signature.as_deref(), Some("hi int"));
}

#[test]
fn literals_and_comments_hide_braces_and_keywords() {
    let src = "package p\n\n// func commented() {\n/* type Hidden struct { */\ntype T struct {\n\tA string `json:\"a,{\"`\n\tB rune\n}\n\nfunc q() string {\n\tr := '{'\n\te := '\\''\n\treturn `\nfunc fake() {\n}\n` + \"}\"\n}\n\nvar after = 1\n";
    assert_eq!(
        flat(src),
        vec![
            ("struct", "T".into(), 5, 8),
            ("function", "q".into(), 10, 17),
            ("variable", "after".into(), 19, 19),
        ]
    );
}

#[test]
fn local_types_in_function_bodies() {
    let src = "func f(v any) {\n\ttype pair struct {\n\t\ta, b int\n\t}\n\tswitch v.(type) {\n\t}\n\tvar typeName = 1\n\ttype (\n\t\tid int\n\t)\n}\n";
    let entries = parse(src);
    let kids: Vec<_> = entries[0]
        .children
        .iter()
        .map(|e| (e.kind.as_str(), e.name(), e.line, e.end_line))
        .collect();
    assert_eq!(kids, vec![("struct", "pair", 2, 4), ("type", "id", 9, 9)]);
}

#[test]
fn crlf_no_final_newline_and_junk() {
    let src = "package p\r\n\r\nfunc a() {\r\n}\r\n\r\nconst X = 1\r\nfunc b() {}";
    assert_eq!(
        flat(src),
        vec![
            ("function", "a".into(), 3, 4),
            ("constant", "X".into(), 6, 6),
            ("function", "b".into(), 7, 7),
        ]
    );
    for junk in [
        "",
        "func",
        "func (",
        "func (x",
        "type",
        "type (",
        "var",
        "var (",
        "const ( A =",
        "func f() {",
        "type T struct {",
        "`",
        "'",
        "\"",
        "}}}{{{",
        "func ()",
        "var x = `",
        "é",
    ] {
        let _ = parse(junk);
    }
    let deep = "{ ( [ func g() {\nvar x = {\n".repeat(20_000);
    let started = std::time::Instant::now();
    let _ = parse(&deep);
    assert!(started.elapsed().as_secs() < 5);
    // An unbalanced body ends at the next column-0 brace.
    assert_eq!(
        flat("func a() {\n\tif x {\n}\n\nfunc b() {}\n"),
        vec![
            ("function", "a".into(), 1, 3),
            ("function", "b".into(), 5, 5)
        ]
    );
}

#[test]
fn comment_markers_inside_strings_stay_in_signatures() {
    let src =
        "package p\n\nvar home = \"http://example.com\" // the site\nvar raw = `a /* b */ c`\n";
    let sigs: Vec<String> = parse(src)
        .into_iter()
        .filter_map(|e| e.signature.map(String::from))
        .collect();
    assert_eq!(
        sigs,
        ["home = \"http://example.com\"", "raw = `a /* b */ c`"]
    );
}

#[test]
fn struct_fields_and_interface_methods_are_members() {
    let src = "package m\n\ntype T struct {\n\tsync.Mutex\n\t*pkg.Base\n\ta, b int `json:\"a\"`\n\tInner struct {\n\t\tx int\n\t}\n\tfn func(int) error\n}\n\ntype R interface {\n\tio.Reader\n\tRead(p []byte) (n int, err error)\n\t~int | string\n}\n";
    let outline = crate::parse::outline_text(
        src,
        crate::parse::ParseOptions::new(crate::lang::Language::Go),
    );
    let members: Vec<(String, String, usize, usize)> = outline
        .walk()
        .into_iter()
        .filter(|(depth, _)| *depth == 1)
        .map(|(_, e)| {
            (
                e.kind.to_string(),
                e.qualname().to_string(),
                e.line,
                e.end_line,
            )
        })
        .collect();
    let want = [
        ("field", "T.Mutex", 4, 4),
        ("field", "T.Base", 5, 5),
        ("field", "T.a", 6, 6),
        ("field", "T.b", 6, 6),
        ("field", "T.Inner", 7, 9),
        ("field", "T.fn", 10, 10),
        ("method", "R.Read", 15, 15),
    ];
    let want: Vec<(String, String, usize, usize)> = want
        .iter()
        .map(|(k, q, l, e)| (k.to_string(), q.to_string(), *l, *e))
        .collect();
    assert_eq!(members, want);
}
