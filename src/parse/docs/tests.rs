use crate::lang::Language;
use crate::parse::{outline_text, ParseOptions};

/// `name line doc_line` for every entry, depth first.
fn docs(language: Language, text: &str) -> Vec<String> {
    outline_text(text, ParseOptions::new(language))
        .walk()
        .iter()
        .map(|(_, e)| format!("{} {} {}", e.name(), e.line, e.doc_line))
        .collect()
}

#[test]
fn rust_doc_comments_attributes_and_inner_docs() {
    let text = "\
//! Crate docs: not the first item's.
fn first() {}

// License header, then a blank line.

/// Doc line one.
/// Doc line two.
#[derive(Debug)]
// A plain comment between attributes.
#[cfg_attr(
    feature = \"serde\",
    derive(Serialize)
)]
pub struct S;
/** Block doc. */
fn after_sibling() {}
/*! inner block */
fn after_inner() {}
impl S {
    /// Method docs.
    #[inline]
    fn m(&self) {}
}
/* A block
   comment over lines. */
const C: u8 = 1;
let_me = 1; /* starts after code
   and ends here */
fn trailing() {}
";
    assert_eq!(
        docs(Language::Rust, text),
        [
            "first 2 2",
            "S 14 6",
            "after_sibling 16 15",
            "after_inner 18 18",
            "S 19 19",
            "m 22 20",
            "C 26 24",
            "trailing 29 29",
        ]
    );
}

#[test]
fn line_comments_mentioning_block_ends_and_shared_lines() {
    let rust = "fn a() {}\n/// See <https://docs.rs/x/*/y>.\n///     /* body */\nfn b() {}\n";
    assert_eq!(docs(Language::Rust, rust), ["a 1 1", "b 4 2"]);
    let c = "/* Config. */\ntypedef struct config_s {\n    int x;\n} config;\n";
    assert_eq!(
        docs(Language::C, c),
        ["config_s 2 1", "config 2 1"],
        "a typedef shares its struct's docs"
    );
    let python = "# Weekdays.\n(MON, TUE) = range(2)\n";
    assert_eq!(docs(Language::Python, python), ["MON 2 1", "TUE 2 1"]);
}

#[test]
fn rust_statics_in_macros_take_their_docs() {
    let text = "thread_local! {\n    /// Per thread.\n    static COUNT: u32 = 0;\n}\n";
    assert_eq!(docs(Language::Rust, text), ["COUNT 3 2"]);
}

#[test]
fn python_decorators_comments_and_indentation() {
    let text = "\
#!/usr/bin/env python
def main():
    pass

# Helper comment.
@decorator
@other(
    \"arg\",  # comment in the call
)
def helper():
    pass
    # trailing comment of helper's body
def next_one():
    x = '''
# not a comment
'''
class K:
    # Comment above a method.
    @staticmethod
    def m():
        pass
";
    assert_eq!(
        docs(Language::Python, text),
        [
            "main 2 2",
            "helper 10 5",
            "next_one 13 13",
            "K 17 17",
            "m 20 18",
        ]
    );
}

#[test]
fn c_like_languages_take_comments_and_jsdoc() {
    let go = "package p\n\n// Sum adds.\n// It is pure.\nfunc Sum() {}\n// not above: blank below\n\nfunc Two() {}\n";
    assert_eq!(docs(Language::Go, go), ["Sum 5 3", "Two 8 8"]);
    let ts = "/**\n * JSDoc.\n */\n@Component({\n  selector: 'x',\n})\nexport class A {\n  // field\n  @Input() b = () => 1;\n}\n";
    assert_eq!(docs(Language::TypeScript, ts), ["A 7 1", "b 9 8"]);
    let c = "#include <x.h>\n/* Returns one. */\nint one(void) { return 1; }\n[[nodiscard]]\nint two(void) { return 2; }\n";
    assert_eq!(docs(Language::Cpp, c), ["one 3 2", "two 5 4"]);
    let js = "const url = 'http://x'; // not a doc of f\nfunction f() {}\n";
    assert_eq!(docs(Language::JavaScript, js), ["url 1 1", "f 2 2"]);
}

#[test]
fn data_and_build_languages_take_hash_and_dash_comments() {
    let sql = "-- Users of the shop.\nCREATE TABLE users (id int);\n";
    assert_eq!(docs(Language::Sql, sql), ["users 2 1", "id 2 2"]);
    let toml = "# Build settings.\n[build]\n# The jobs.\njobs = 2\n";
    assert_eq!(docs(Language::Toml, toml), ["build 2 1", "jobs 4 3"]);
    let yaml = "a:\n  b: 1\n  # deeper: belongs to a's block\nc: 2\n# about d\nd: 3\n";
    assert_eq!(
        docs(Language::Yaml, yaml),
        ["a 1 1", "b 2 2", "c 4 4", "d 6 5"]
    );
    let make = "# Builds it.\nall: x\n";
    assert_eq!(docs(Language::Makefile, make), ["all 2 1"]);
    let md = "<!-- c -->\n# Title\n";
    assert_eq!(docs(Language::Markdown, md), ["Title 2 2"]);
}

#[test]
fn byte_order_mark_and_first_lines_are_safe() {
    let text = "\u{FEFF}# comment\nX = 1\n";
    assert_eq!(docs(Language::Python, text), ["X 2 1"]);
    assert_eq!(docs(Language::Rust, "fn a() {}"), ["a 1 1"]);
}
