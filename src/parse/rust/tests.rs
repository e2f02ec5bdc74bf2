//! Unit tests for the rust scanner: realistic snippets with the lexical and grammar traps.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

/// (depth, kind, name, line, end_line) in source order.
fn flat(text: &str) -> Vec<(usize, &'static str, String, usize, usize)> {
    crate::parse::tests::flat_tree(&parse(text), false)
}

fn names(text: &str) -> Vec<String> {
    flat(text).into_iter().map(|e| e.2).collect()
}

#[test]
fn items_with_attributes_docs_and_visibility() {
    let src = "//! crate docs\nuse std::fmt;\n\n/// A point.\n#[derive(Debug,\n    Clone)]\npub(crate) struct Point {\n    x: i32,\n}\n\n#[cfg(test)]\nconst fn zero() -> i32 { 0 }\n";
    let got = flat(src);
    assert_eq!(
        got,
        vec![
            (0, "struct", "Point".into(), 7, 9),
            (0, "function", "zero".into(), 12, 12),
        ]
    );
    let outline = parse(src);
    assert_eq!(outline[0].signature.as_deref(), Some("pub(crate) Point"));
    assert_eq!(outline[1].signature.as_deref(), Some("const zero() -> i32"));
    let value = parse("pub const X: Box<dyn Fn() -> u8> = Box::new(|| 1);\ntype R<T, E = Error> = Result<T, E>;\nimpl<T> A for B<T>\nwhere\n    T: C,\n{}\n");
    let sigs: Vec<_> = value
        .iter()
        .map(|e| e.signature.as_deref().unwrap_or(""))
        .collect();
    assert_eq!(
        sigs,
        vec![
            "pub X: Box<dyn Fn() -> u8>",
            "R<T, E = Error>",
            "<T> A for B<T> where T: C"
        ]
    );
}

#[test]
fn impls_traits_and_methods() {
    let src = r##"impl<'a, T: Fn() -> u8> fmt::Display for Wrapper<'a, Vec<T>>
where
    T: Clone,
{
    type Out = u8;
    const N: usize = 3;
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = '{';
        let s = r#"}"#;
        write!(f, "{}", c)
    }
}

pub unsafe trait Visitor<'de>: Sized {
    type Value;
    fn visit(self) -> Self::Value;
    fn default_visit(&self) -> bool {
        true
    }
}

impl<T: Into<Vec<u8>>> Stack<T> {}
"##;
    let got = flat(src);
    assert_eq!(
        got,
        vec![
            (
                0,
                "impl",
                "fmt::Display for Wrapper<'a, Vec<T>>".into(),
                1,
                12
            ),
            (1, "type", "Out".into(), 5, 5),
            (1, "constant", "N".into(), 6, 6),
            (1, "method", "fmt".into(), 7, 11),
            (0, "trait", "Visitor".into(), 14, 20),
            (1, "type", "Value".into(), 15, 15),
            (1, "method", "visit".into(), 16, 16),
            (1, "method", "default_visit".into(), 17, 19),
            (0, "impl", "Stack".into(), 22, 22),
        ]
    );
    let outline = parse(src);
    assert_eq!(
        outline[1].signature.as_deref(),
        Some("pub unsafe Visitor<'de>: Sized")
    );
    assert_eq!(
        outline[1].children[1].signature.as_deref(),
        Some("visit(self) -> Self::Value")
    );
}

#[test]
fn modules_macros_and_values() {
    let src = "mod a;\npub mod b {\n    pub(super) static mut COUNT: u32 = 0;\n    macro_rules! m {\n        ($x:expr) => { $x };\n    }\n    macro_rules! n (\n        () => {}\n    );\n}\nlazy_static! {\n    static ref X: u8 = 1;\n}\nconst _: () = {\n    impl Foo for Bar {}\n};\ntype R<T, E = Error> = Result<T, E>;\nstruct Unit;\nstruct Pair(u8, u8);\nstruct W<T> where T: Copy { t: T }\nunion U { a: u8 }\nenum E { A { x: u8 }, B(u8) }\nfn r#type() {}\nfn p(x: *const u8) -> &'static str {\n    let y = x as *const u8;\n    let z = &raw const Q;\n    \"\"\n}\n";
    let got = flat(src);
    assert_eq!(
        got,
        vec![
            (0, "module", "a".into(), 1, 1),
            (0, "module", "b".into(), 2, 10),
            (1, "static", "COUNT".into(), 3, 3),
            (1, "macro", "m".into(), 4, 6),
            (1, "macro", "n".into(), 7, 9),
            (0, "static", "X".into(), 12, 12),
            (0, "constant", "_".into(), 14, 16),
            (0, "type", "R".into(), 17, 17),
            (0, "struct", "Unit".into(), 18, 18),
            (0, "struct", "Pair".into(), 19, 19),
            (0, "struct", "W".into(), 20, 20),
            (0, "union", "U".into(), 21, 21),
            (0, "enum", "E".into(), 22, 22),
            (0, "function", "r#type".into(), 23, 23),
            (0, "function", "p".into(), 24, 28),
        ]
    );
}

#[test]
fn statics_inside_thread_local_and_lazy_static_are_entries() {
    let src = "std::thread_local! {\n    /// Docs.\n    pub static CACHE: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };\n    static DEPTH: Cell<u32> = Cell::new(0)\n}\nlazy_static::lazy_static! {\n    pub static ref TABLE: HashMap<u8, u8> = {\n        let mut m = HashMap::new();\n        m\n    };\n}\nvec![static_not_an_item];\nfn after() {}\n";
    assert_eq!(
        flat(src),
        vec![
            (0, "static", "CACHE".into(), 3, 3),
            (0, "static", "DEPTH".into(), 4, 4),
            (0, "static", "TABLE".into(), 7, 10),
            (0, "function", "after".into(), 13, 13),
        ]
    );
    let outline = parse(src);
    assert_eq!(
        outline[0].signature.as_deref(),
        Some("pub CACHE: RefCell<Vec<u8>>")
    );
    assert_eq!(
        outline[2].signature.as_deref(),
        Some("pub ref TABLE: HashMap<u8, u8>")
    );
}

#[test]
fn extern_blocks_and_fn_modifiers() {
    let src = "extern crate alloc;\nextern \"C\" {\n    fn abs(x: i32) -> i32;\n    static errno: i32;\n}\npub async unsafe fn a() {}\npub extern \"C\" fn b(\n    x: *const u8,\n) -> Option<Box<dyn Fn(u8) -> u8>>\nwhere\n    u8: Copy,\n{\n    struct Local;\n    impl Local {}\n}\nunsafe impl<T> Send for Ptr<T> {}\nimpl !Sync for Ptr2 {}\n";
    let got = flat(src);
    assert_eq!(
        got,
        vec![
            (0, "function", "abs".into(), 3, 3),
            (0, "static", "errno".into(), 4, 4),
            (0, "function", "a".into(), 6, 6),
            (0, "function", "b".into(), 7, 15),
            (1, "struct", "Local".into(), 13, 13),
            (1, "impl", "Local".into(), 14, 14),
            (0, "impl", "Send for Ptr<T>".into(), 16, 16),
            (0, "impl", "Ptr2".into(), 17, 17),
        ]
    );
    let outline = parse(src);
    assert_eq!(
        outline[2].signature.as_deref(),
        Some("pub async unsafe a()")
    );
    assert_eq!(
        outline[4].signature.as_deref(),
        Some("unsafe <T> Send for Ptr<T>")
    );
}

#[test]
fn comments_strings_and_crlf() {
    let src = "/* fn hidden() {} /* nested */ fn also() {} */\r\nfn real(s: &str) -> &'static str {\r\n    let _ = b\"}\";\r\n    let _ = '}';\r\n    \"fn fake() {\"\r\n}\r\n\tfn tabbed<'a>(x: &'a u8) -> &'a u8 { x }";
    assert_eq!(
        flat(src),
        vec![
            (0, "function", "real".into(), 2, 6),
            (0, "function", "tabbed".into(), 7, 7),
        ]
    );
}

#[test]
fn signatures_drop_comments_but_keep_strings() {
    let src = "pub extern \"C\" fn f(\n    a: u8, // the a\n    b: u8, /* b */\n) {}\n";
    assert_eq!(
        parse(src)[0].signature.as_deref(),
        Some("pub extern \"C\" f(a: u8, b: u8)")
    );
}

#[test]
fn fn_bodies_list_items_but_not_macro_or_expression_contents() {
    let src = "fn outer() {\n    let f = |x: u8| -> u8 { x };\n    quote! { fn generated() {} }\n    if f(1) == 1 {\n        fn in_block() {}\n    }\n    const LIMIT: usize = 4;\n    fn helper<'a>(s: &'a str) -> &'a str { s }\n    let _ = (LIMIT, helper(\"fn x() {\"));\n}\n";
    assert_eq!(
        flat(src),
        vec![
            (0, "function", "outer".into(), 1, 10),
            (1, "constant", "LIMIT".into(), 7, 7),
            (1, "function", "helper".into(), 8, 8),
        ]
    );
}

#[test]
fn junk_never_panics() {
    for src in [
        "",
        "fn",
        "fn (",
        "impl<",
        "impl<T {",
        "struct",
        "mod m {",
        "extern \"C",
        "macro_rules!",
        "macro_rules! x",
        "pub(",
        "#[",
        "#",
        "}}}{{{",
        "const X: u8 = {",
        "static mut",
        "unsafe",
        "é fn ü() {}",
        "r#",
        "trait T { fn a(",
    ] {
        let _ = parse(src);
    }
    assert_eq!(names("mod m {\n fn f() {}\n"), vec!["m", "f"]);
    // Unclosed brackets stay linear: each closer is looked up, never rescanned.
    let deep = format!("{}fn f() {{}}\n", "{ ( [ fn g() {\n".repeat(20_000));
    let started = std::time::Instant::now();
    let _ = parse(&deep);
    assert!(started.elapsed().as_secs() < 5);
    assert_eq!(flat("mod m {\n fn f() {}\n")[0].4, 2);
}

#[test]
fn an_item_cut_off_by_the_end_keeps_its_whole_head() {
    for src in ["pub struct S(u8)", "mod m { struct S(u8) }", "pub trait T"] {
        let entries = parse(src);
        let deepest = std::iter::successors(entries.first(), |e| e.children.first()).last();
        let signature = deepest.and_then(|e| e.signature.as_deref().map(str::to_string));
        assert!(
            signature
                .as_deref()
                .is_some_and(|s| s.ends_with("S(u8)") || s.ends_with(" T")),
            "{src}: {signature:?}"
        );
    }
}
