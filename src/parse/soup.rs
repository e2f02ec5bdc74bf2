//! Token soups for property tests: random mixes of the tokens each language's scanner treats as
//! significant (brackets, quotes, comment and string openers, keywords, line breaks of every
//! kind), so that generated inputs reach the scanners' corner cases far more often than random
//! bytes would. Test-only.

use crate::lang::Language;
use proptest::prelude::*;

/// Tokens every language gets: structure, quotes, blanks, line breaks, odd characters.
const COMMON: &[&str] = &[
    "\n", "\n", "\r\n", "\r", " ", "  ", "    ", "\t", "{", "}", "(", ")", "[", "]", "<", ">", ";",
    ",", ":", "=", ".", "\"", "'", "`", "/", "*", "\\", "#", "-", "a", "b", "x1", "é", "日本",
    "\u{FEFF}", "\0", "\u{1b}",
];

/// The tokens that matter to `language`'s scanner.
fn tokens(language: Language) -> &'static [&'static str] {
    match language {
        Language::Python => &[
            "def ",
            "class ",
            "async def ",
            "@dec\n",
            "'''",
            "\"\"\"",
            "lambda ",
            "return ",
            "if x:",
            "else:",
            "X = 1",
            "f\"",
            "r'",
            "pass",
            "->",
            "\\\n",
            "match x:",
        ],
        Language::Rust => &[
            "fn ",
            "mod ",
            "impl ",
            "trait ",
            "struct ",
            "enum ",
            "pub ",
            "extern \"C\" ",
            "macro_rules! ",
            "r#\"",
            "\"#",
            "'a",
            "'x'",
            "b'",
            "/*",
            "*/",
            "//",
            "///",
            "#[",
            "#![",
            "const ",
            "static ",
            "type ",
            "union ",
            "where ",
            "->",
            "::",
            "impl<T> ",
            "unsafe ",
            "async ",
        ],
        Language::Go => &[
            "func ",
            "type ",
            "struct ",
            "interface ",
            "package p\n",
            "var ",
            "const ",
            "import ",
            "//",
            "/*",
            "*/",
            "(r *R) ",
            "map[",
            "chan ",
            "go:generate",
        ],
        Language::JavaScript | Language::TypeScript => &[
            "function ",
            "class ",
            "interface ",
            "namespace ",
            "declare global ",
            "export ",
            "default ",
            "const ",
            "let ",
            "var ",
            "=>",
            "${",
            "//",
            "/*",
            "*/",
            "<div>",
            "</div>",
            "<A/>",
            "enum ",
            "type ",
            "module.exports = ",
            "async ",
            "get ",
            "static ",
            "constructor",
            "extends ",
            "?.",
            "/re/g",
            "declare module ",
            "abstract ",
            "m() {}",
            "k: ",
        ],
        Language::C | Language::Cpp => &[
            "#define X ",
            "#if 0\n",
            "#ifdef A\n",
            "#else\n",
            "#endif\n",
            "struct ",
            "class ",
            "namespace ",
            "extern \"C\" ",
            "typedef ",
            "template<",
            "public:",
            "R\"x(",
            ")x\"",
            "int ",
            "void ",
            "operator",
            "::",
            "~",
            "enum ",
            "union ",
            "\\\n",
            "//",
            "/*",
            "*/",
            "f()",
            "S::S() : a{1} ",
        ],
        Language::Markdown => &[
            "# ", "## ", "###### ", "===\n", "---\n", "```\n", "~~~", "> ", "- ", "1. ", "<!--",
            "-->", "<div>", "[x]: ", "\\#", "+++\n", "* ",
        ],
        Language::Json => &[
            "\"k\"", "\"\"", "1", "true", "null", "//", "/*", "*/", "\"\\\"\"", "\"a.b\"",
        ],
        Language::Yaml => &[
            "k:",
            "k: v",
            "- ",
            "---\n",
            "...\n",
            "? ",
            "&a ",
            "*a",
            "!tag ",
            "|\n",
            ">-\n",
            "'q'",
            "\"q\"",
            "\"\":",
            "<<: ",
            "%YAML 1.2\n",
        ],
        Language::Toml => &[
            "[t]", "[[a]]", "k = ", "\"\"\"", "'''", "a.b = ", "1", "\"s\"", "\"\" = ", "[\"\"]",
        ],
        Language::Html => &[
            "<div>",
            "</div>",
            "<p>",
            "<section id=a>",
            "</section>",
            "<img id=i>",
            "<br/>",
            "<!--",
            "-->",
            "<script>",
            "</script>",
            "<style>",
            "</style>",
            "<![CDATA[",
            "]]>",
            "<?",
            "?>",
            "<!DOCTYPE html>",
            "<li>",
            "<table>",
            "<td>",
            "=\"",
            "&amp;",
            "<title>",
            "</title>",
            "<h1 class=\"a b\">",
            "</h1>",
            "</span>",
        ],
        Language::Css => &[
            ".c",
            "#i",
            "@media x",
            "@keyframes k",
            "@{v}",
            "#{",
            "url(",
            "//",
            "from",
            "50%",
            "&",
            "@import ",
            "color: red",
            "@mixin m",
            "a, b",
        ],
        Language::Sql => &[
            "CREATE TABLE t (",
            "CREATE FUNCTION f() ",
            "AS $$",
            "$$",
            "$tag$",
            "BEGIN",
            "END",
            "--",
            "/*",
            "*/",
            "CREATE VIEW v AS ",
            "CREATE INDEX i ON t",
            "GO\n",
            "DELIMITER //\n",
            "CASE",
            "CREATE PROCEDURE p ",
            "CREATE TRIGGER tr ",
            "LANGUAGE ",
        ],
        Language::Makefile => &[
            "all:",
            "target: dep\n",
            "define X\n",
            "endef\n",
            ".PHONY: a\n",
            "ifeq (a,b)\n",
            "endif\n",
            "X := 1\n",
            "\\\n",
            "$(X)",
            "%.o: %.c\n",
            "include x\n",
            "\t",
        ],
        Language::Shell => &[
            "f() {",
            "function g ",
            "}",
            "$(",
            "${",
            "$((",
            "))",
            "<<EOF\n",
            "<<-'E'\n",
            "\nEOF\n",
            "\tE\n",
            "case x in ",
            "a) ",
            ";;",
            "esac",
            "X=1 ",
            "export ",
            "alias a=",
            "@test \"t\" {",
            "# c",
            "`",
            "$'",
            "if ",
            "fi",
        ],
        Language::Dockerfile => &[
            "FROM x AS b\n",
            "RUN a ",
            "COPY ",
            "ENV A=1\n",
            "ARG X\n",
            "# syntax=x\n",
            "<<EOF\n",
            "EOF\n",
            "ENTRYPOINT [\"a\"]\n",
            "\\\n",
            "WORKDIR /\n",
            "from y\n",
        ],
    }
}

/// Texts of up to `max_tokens` tokens of `language`, a few random characters mixed in.
pub fn text(language: Language, max_tokens: usize) -> impl Strategy<Value = String> {
    let token = prop_oneof![
        4 => prop::sample::select(tokens(language)).prop_map(str::to_string),
        4 => prop::sample::select(COMMON).prop_map(str::to_string),
        1 => any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(token, 0..max_tokens).prop_map(|tokens| tokens.concat())
}

/// A deterministic runner (the same cases every run, so CI never flakes) running `cases` cases
/// (the `PROPTEST_CASES` environment variable overrides it, to explore further), persisting
/// nothing: a failure prints its minimal input, which becomes a unit test.
pub fn runner(cases: u32) -> proptest::test_runner::TestRunner {
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(cases);
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
}

/// Checks that `search`, a search mask of `src`, has the shape of `scanner`, the scanner's
/// mask of it (same length, line breaks where `src` has them), and keeps every byte `scanner`
/// keeps: a search mask only blanks less.
pub fn blanks_less(src: &[u8], scanner: &[u8], search: &[u8]) -> Result<(), TestCaseError> {
    prop_assert_eq!(search.len(), src.len());
    for (i, &byte) in src.iter().enumerate() {
        prop_assert_eq!(byte == b'\n', search[i] == b'\n', "line break at {}", i);
        if scanner[i] == byte {
            prop_assert_eq!(search[i], byte, "kept by the scanner's mask at {}", i);
        }
    }
    Ok(())
}
