//! Hostile text: escape sequences in file content and in file names never reach a terminal raw
//! from `--print` text output or its messages; JSON keeps the exact text.

use super::util::{json, outline, run, TestEnv};

const HEADING: &str =
    "# Title \x1b[2J\x1b]0;pwned\x07\n\nclip \x1b]52;c;cHduZWQ=\x07 end\n\n## Two\n";
const ESC_NAME: &str = "e\x1bvil.md";
const NEWLINE_NAME: &str = "x\n## fake.md";

fn hostile_tree() -> TestEnv {
    let env = TestEnv::new();
    env.write(ESC_NAME, HEADING);
    env.write(NEWLINE_NAME, "# Fine\n");
    env
}

/// Runs `outline` with `args` in `env` and checks neither stream holds ESC, BEL or CR.
fn run_clean(env: &TestEnv, args: &[&str]) -> (String, String, i32) {
    let mut cmd = env.cmd();
    cmd.args(args);
    let (out, err, code) = run(cmd);
    for (stream, text) in [("stdout", &out), ("stderr", &err)] {
        let raw = text.chars().find(|c| c.is_control() && *c != '\n');
        assert_eq!(
            raw, None,
            "{args:?}: raw control character on {stream}:\n{text}"
        );
    }
    (out, err, code)
}

#[test]
fn text_output_shows_escapes_visibly() {
    let env = hostile_tree();
    let (out, _, code) = run_clean(&env, &["--print", "."]);
    assert_eq!(code, 0);
    assert!(out.contains("## e\\evil.md (markdown)"), "{out}");
    assert!(out.contains("h1 Title \\e[2J\\e]0;pwned\\x07"), "{out}");
    assert!(out.contains("## x\\n## fake.md (markdown)"), "{out}");
    assert!(
        !out.lines().any(|line| line.starts_with("## fake.md")),
        "a newline in a name forged a line:\n{out}"
    );

    let (out, _, _) = run_clean(&env, &["--print", "--preview", "3", ESC_NAME]);
    assert!(out.starts_with("# Outline: e\\evil.md (markdown)"), "{out}");
    assert!(out.contains("| clip \\e]52;c;cHduZWQ=\\x07 end"), "{out}");
}

#[test]
fn reads_and_their_headers_show_escapes_visibly() {
    let env = hostile_tree();
    for args in [
        &["--print", "--read", ESC_NAME][..],
        &["--print", "--lines", "1:3", ESC_NAME],
        &["--print", "--symbol", "1", ESC_NAME],
    ] {
        let (out, _, code) = run_clean(&env, args);
        assert_eq!(code, 0, "{args:?}");
        assert!(
            out.contains("3 clip \\e]52;c;cHduZWQ=\\x07 end"),
            "{args:?}:\n{out}"
        );
    }
    let (out, _, _) = run_clean(&env, &["--print", "--symbol", "1", ESC_NAME]);
    assert!(
        out.starts_with("# h1: Title \\e[2J\\e]0;pwned\\x07 (e\\evil.md, L1-5)\n"),
        "{out}"
    );
    let (_, err, code) = run_clean(&env, &["--print", "--symbol", "nope", ESC_NAME]);
    assert_eq!(code, 1);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("in e\\evil.md; top-level symbols: heading Title \\e[2J"),
        "{err}"
    );
}

#[test]
fn messages_on_stderr_show_names_visibly() {
    let env = hostile_tree();
    let (_, err, code) = run_clean(&env, &["--print", "missing\x1b]0;x\x07\n.md"]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("missing\\e]0;x\\x07\\n.md"), "{err}");
    std::fs::write(env.path().join("bin\x1b.py"), b"\0\x01").unwrap();
    let (out, _, _) = run_clean(&env, &["--print", "bin\x1b.py"]);
    assert_eq!(out, "outline: bin\\e.py: binary file, not outlined\n");
}

#[test]
fn json_keeps_the_exact_text() {
    let env = hostile_tree();
    let mut cmd = outline();
    cmd.current_dir(env.path())
        .args(["--print", "--json", ESC_NAME]);
    let (out, _, code) = run(cmd);
    assert_eq!(code, 0);
    assert!(!out.contains('\x1b'), "serde escapes control characters");
    let value = json(&out);
    assert_eq!(value["path"], ESC_NAME);
    assert_eq!(value["entries"][0]["name"], "Title \x1b[2J\x1b]0;pwned\x07");
}

#[test]
fn searches_show_escapes_visibly() {
    let env = hostile_tree();
    let (out, _, _) = run_clean(&env, &["--print", "--grep", "clip", "."]);
    assert!(
        out.starts_with("e\\evil.md:L1-5 heading Title \\e[2J"),
        "{out}"
    );
    assert!(
        out.contains("3: clip \\e]52;c;cHduZWQ=\\x07 end\n"),
        "{out}"
    );
    let (out, _, _) = run_clean(&env, &["--print", "--find", "Fine", "."]);
    assert!(
        out.starts_with("# h1: Fine (x\\n## fake.md, L1)\n"),
        "{out}"
    );
    let (out, _, _) = run_clean(&env, &["--print", "--find", "Two", "."]);
    assert!(
        out.starts_with("# h2: Title \\e[2J\\e]0;pwned\\x07.Two (e\\evil.md"),
        "{out}"
    );
    let (_, err, code) = run_clean(&env, &["--print", "--grep", "\x1b]0;x", "."]);
    assert_eq!((code, err.lines().count()), (1, 1), "{err}");
}

/// A node cut by `--depth` lists its children's names on its line: file text like any label.
const CUT_CHILD: &str = "# Top\n\n## Sub \x1b]0;pwned\x07\x1b[2J\n\ntext\n";

#[test]
fn names_listed_for_a_depth_cut_show_escapes_visibly() {
    let env = TestEnv::new();
    env.write("notes.md", CUT_CHILD);
    let listed = "h1 Top  (1: Sub \\e]0;pwned\\x07\\e[2J)";
    // Directory mode cuts every file at the top level; a file is cut by `--depth`.
    for args in [
        &["--print", "."][..],
        &["--print", "--depth", "1", "notes.md"],
    ] {
        let (out, _, code) = run_clean(&env, args);
        assert_eq!(code, 0, "{args:?}");
        assert!(out.contains(listed), "{args:?}:\n{out}");
    }
}

#[tokio::test]
async fn names_listed_for_a_depth_cut_reach_mcp_text_escaped() {
    use super::mcp::{call, start, text};
    let env = TestEnv::new();
    env.write("notes.md", CUT_CHILD);
    let client = start(env.path(), &[]).await;
    for arguments in [
        serde_json::json!({"path": "."}),
        serde_json::json!({"path": "notes.md", "depth": 1}),
    ] {
        let result = call(&client, "outline", arguments.clone()).await;
        let answer = text(&result);
        assert!(
            !answer.contains(['\x1b', '\x07']),
            "{arguments}: raw escape:\n{answer:?}"
        );
        assert!(
            answer.contains("(1: Sub \\e]0;pwned"),
            "{arguments}:\n{answer}"
        );
    }
    client.cancel().await.expect("close");
}
