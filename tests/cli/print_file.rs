//! `--print` on one file: text format, options, symbol reads, limits.

use super::contract::assert_contract;
use super::util::{json, TestEnv};

const DOC: &str = "# Guide\n\nIntro.\n\n## Install\n\nRun it.\n\n## Usage\n\nMore.\n";

const PY: &str = "\
import os

MAX_SIZE = 10


class Loader(Base):
    \"\"\"def not_a_function(): pass\"\"\"

    def load(self, path: str) -> str:
        return path

    @property
    def name(self) -> str:
        return 'x'


def load(x):
    return x
";

#[test]
fn text_format_has_header_and_aligned_lines() {
    let env = TestEnv::new();
    env.write("guide.md", DOC);
    let (out, err, code) = env.print(&["guide.md"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "# Outline: guide.md (markdown)\n\nL1-11 h1 Guide\n  L5-8 h2 Install\n  L9-11 h2 Usage\n"
    );
    let (plain, _, _) = env.print(&["--no-line-numbers", "guide.md"]);
    assert!(plain.contains("\nh1 Guide\n  h2 Install\n"), "{plain}");
}

#[test]
fn signatures_previews_and_names() {
    let env = TestEnv::new();
    env.write("app.py", PY);
    let (out, _, _) = env.print(&["app.py"]);
    assert!(out.contains("L6-14 class Loader(Base)\n"), "{out}");
    assert!(
        out.contains("  L9-10 method load(self, path: str) -> str\n"),
        "{out}"
    );
    assert!(out.contains("@property name(self) -> str"), "{out}");
    assert!(!out.contains("not_a_function"), "{out}");
    let (names, _, _) = env.print(&["--no-signatures", "app.py"]);
    assert!(names.contains("L6-14 class Loader\n"), "{names}");
    let (preview, _, _) = env.print(&["--preview", "1", "app.py"]);
    assert!(
        preview.contains(
            "  L9-10 method load(self, path: str) -> str\n          |         return path\n"
        ),
        "{preview}"
    );
}

#[test]
fn json_file_object_carries_the_model() {
    let env = TestEnv::new();
    env.write("app.py", PY);
    let (out, _, code) = env.print(&["--json", "app.py"]);
    assert_eq!(code, 0);
    let file = json(&out);
    assert_contract(&file);
    assert_eq!(file["path"], "app.py");
    assert_eq!(file["language"], "python");
    assert_eq!(file["lines"], 18);
    assert_eq!(file["bytes"], PY.len());
    let loader = &file["entries"][1];
    assert_eq!(loader["id"], "2");
    assert_eq!(loader["kind"], "class");
    assert_eq!(
        (loader["line"].as_u64(), loader["end_line"].as_u64()),
        (Some(6), Some(14))
    );
    assert_eq!(loader["children"][1]["qualname"], "Loader.name");
    assert_eq!(loader["children"][1]["id"], "2.2");
}

#[test]
fn symbol_reads_body_by_id_name_qualname_and_line() {
    let env = TestEnv::new();
    env.write("app.py", PY);
    for query in ["Loader.load", "2.1", "@10", "loader.LOAD"] {
        let (out, _, code) = env.print(&["--symbol", query, "app.py"]);
        assert_eq!(code, 0, "{query}");
        assert_eq!(
            out,
            "# method: Loader.load (app.py, L9-10)\n\n9     def load(self, path: str) -> str:\n10         return path\n",
            "{query}"
        );
    }
    // A bare name matching twice: the first in source order, the other listed on stderr.
    let (out, err, code) = env.print(&["--symbol", "load", "app.py"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("# function: load (app.py, L17-18)"),
        "{out}"
    );
    assert!(err.contains("2.1 method Loader.load (L9)"), "{err}");
}

#[test]
fn symbol_not_found_exits_1_and_lists_top_level() {
    let env = TestEnv::new();
    env.write("app.py", PY);
    let (out, err, code) = env.print(&["--symbol", "nothing", "app.py"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "outline: no symbol matches 'nothing' in app.py; top-level symbols: constant MAX_SIZE, class Loader, function load\n"
    );
}

#[test]
fn symbol_json_has_node_and_text() {
    let env = TestEnv::new();
    env.write("app.py", PY);
    let (out, _, code) = env.print(&["--json", "--symbol", "name", "app.py"]);
    assert_eq!(code, 0);
    let value = json(&out);
    assert_eq!(value["node"]["qualname"], "Loader.name");
    assert_eq!(
        (
            value["node"]["line"].as_u64(),
            value["node"]["doc_line"].as_u64()
        ),
        (Some(13), Some(12))
    );
    assert_eq!(
        (value["start_line"].as_u64(), value["end_line"].as_u64()),
        (Some(12), Some(14))
    );
    assert_eq!(
        value["text"], "    @property\n    def name(self) -> str:\n        return 'x'\n",
        "the text is the raw lines, without numbers"
    );
}

#[test]
fn symbol_reads_start_at_docs_unless_no_docs() {
    let env = TestEnv::new();
    env.write(
        "lib.rs",
        "//! Crate docs.\n\n/// Adds.\n///\n/// # Panics\n/// Never.\n#[inline]\npub fn add(a: u8) -> u8 {\n    a\n}\n",
    );
    let (out, _, code) = env.print(&["--symbol", "add", "lib.rs"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "# function: add (lib.rs, L8-10, docs from L3)\n\n3 /// Adds.\n4 ///\n5 /// # Panics\n6 /// Never.\n7 #[inline]\n8 pub fn add(a: u8) -> u8 {\n9     a\n10 }\n"
    );
    let (out, _, _) = env.print(&["--symbol", "add", "--no-docs", "lib.rs"]);
    assert_eq!(
        out,
        "# function: add (lib.rs, L8-10)\n\n8 pub fn add(a: u8) -> u8 {\n9     a\n10 }\n"
    );
    // A line inside the docs finds the entry they document.
    let (out, _, _) = env.print(&["--symbol", "@5", "lib.rs"]);
    assert!(out.starts_with("# function: add "), "{out}");
    let (out, _, _) = env.print(&["--json", "--symbol", "add", "--no-docs", "lib.rs"]);
    let value = json(&out);
    assert_eq!(value["start_line"], 8);
    assert_eq!(value["node"]["doc_line"], 3);
}

#[test]
fn huge_symbol_bodies_are_cut_with_a_pointer() {
    let env = TestEnv::new();
    let body: String = (0..5000)
        .map(|i| format!("    x{i} = '{}'\n", "y".repeat(40)))
        .collect();
    env.write("big.py", &format!("def big():\n{body}"));
    let (out, _, code) = env.print(&["--symbol", "big", "big.py"]);
    assert_eq!(code, 0);
    assert!(out.len() < 110 * 1024, "{}", out.len());
    let last = out.lines().last().unwrap_or("");
    assert!(last.starts_with("[cut at 100 KB: lines "), "{last}");
    assert!(last.contains("-5001 not shown"), "{last}");
}

#[test]
fn lang_flag_overrides_detection() {
    let env = TestEnv::new();
    env.write("notes.txt", DOC);
    let (out, _, code) = env.print(&["--lang", "md", "notes.txt"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("# Outline: notes.txt (markdown)"), "{out}");
}

#[test]
fn crlf_empty_and_no_final_newline() {
    let env = TestEnv::new();
    env.write("crlf.md", "# A\r\n\r\ntext\r\n## B\r\nmore");
    let (out, _, _) = env.print(&["--json", "crlf.md"]);
    let file = json(&out);
    assert_eq!(file["lines"], 5);
    assert_eq!(file["entries"][0]["name"], "A");
    assert_eq!(file["entries"][0]["children"][0]["end_line"], 5);
    env.write("empty.py", "");
    let (out, _, code) = env.print(&["empty.py"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "# Outline: empty.py (python)\n\n(no outline entries)\n"
    );
}

#[test]
fn oversized_files_are_outlined_up_to_the_limit_and_say_so() {
    let env = TestEnv::new();
    let text: String = (0..50_010).map(|i| format!("def f{i}():\n")).collect();
    env.write("long.py", &text);
    let (out, _, code) = env.print(&["--json", "long.py"]);
    assert_eq!(code, 0);
    let file = json(&out);
    assert_eq!(file["lines"], 50_010);
    assert_eq!(file["entries"].as_array().map(Vec::len), Some(50_000));
    assert_eq!(
        file["input_limit"],
        "file has 50,010 lines; outlined the first 50,000"
    );
    let (text_out, _, _) = env.print(&["--depth", "1", "long.py"]);
    assert!(
        text_out.contains("# Limit: file has 50,010 lines"),
        "{}",
        &text_out[..200]
    );
}

#[test]
fn invalid_utf8_is_decoded_lossily() {
    let env = TestEnv::new();
    let path = env.path().join("latin1.md");
    std::fs::write(&path, b"# Caf\xe9\n").expect("write");
    let (out, _, code) = env.print(&["latin1.md"]);
    assert_eq!(code, 0);
    assert!(out.contains("h1 Caf\u{FFFD}"), "{out}");
}

#[test]
fn json_line_reads_cut_at_the_cap_say_so_in_the_note() {
    let env = TestEnv::new();
    let body: String = (1..=5000)
        .map(|i| format!("x{i} = '{}'\n", "y".repeat(40)))
        .collect();
    env.write("big.py", &body);
    let (out, _, code) = env.print(&["--json", "--lines", "1:5000", "big.py"]);
    assert_eq!(code, 0);
    let value = json(&out);
    let shown_end = value["end_line"].as_u64().unwrap_or(0);
    assert!((1..5000).contains(&shown_end), "{value}");
    let text = value["text"].as_str().unwrap_or_default();
    assert_eq!(text.lines().count() as u64, shown_end);
    assert!(text.starts_with("x1 = '"), "{text:.40}");
    let note = value["note"].as_str().unwrap_or_default();
    assert!(
        note.starts_with(&format!(
            "[cut at 100 KB: lines {}-5000 not shown",
            shown_end + 1
        )),
        "{note}"
    );
}
