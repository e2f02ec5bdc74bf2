//! Directory mode: walk rules, order, JSON Lines, caps.

use super::contract::assert_contract;
use super::util::{json_lines, run, TestEnv};

fn tree() -> TestEnv {
    let env = TestEnv::new();
    env.write(".gitignore", "build/\n");
    env.write("b.md", "# B\n## B1\n");
    env.write("a.py", "def a():\n    pass\n");
    env.write("src/c.md", "# C\n");
    env.write("build/gen.py", "def gen(): pass\n");
    env.write(".hidden/h.md", "# H\n");
    env.write("notes.txt", "not outlined\n");
    env
}

#[test]
fn text_lists_files_in_path_order_with_top_level_entries() {
    let env = tree();
    let mut cmd = env.cmd();
    cmd.args(["--print", "."]);
    let (out, err, code) = run(cmd);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "# Directory outline: .\n\n## a.py (python)\n  L1-2 function a()\n\n## b.md (markdown)\n  L1-2 h1 B  (1: B1)\n\n## src/c.md (markdown)\n  L1 h1 C\n"
    );
}

#[test]
fn json_lines_sorted_with_joined_paths() {
    let env = tree();
    let mut cmd = env.cmd();
    cmd.args(["--print", "--json", "--depth", "2", "--hidden", "."]);
    let (out, _, code) = run(cmd);
    assert_eq!(code, 0);
    let files = json_lines(&out);
    let paths: Vec<&str> = files.iter().filter_map(|f| f["path"].as_str()).collect();
    assert_eq!(paths, [".hidden/h.md", "a.py", "b.md", "src/c.md"]);
    files.iter().for_each(assert_contract);
    assert_eq!(files[2]["entries"][0]["children"][0]["name"], "B1");

    let mut sub = env.cmd();
    sub.args(["--print", "--json", "src"]);
    let (out, _, _) = run(sub);
    assert!(out.starts_with("{\"path\":\"src/c.md\""), "{out}");
}

#[test]
fn caps_end_with_a_note() {
    let env = tree();
    let mut files = env.cmd();
    files.args(["--print", "--max-files", "1", "."]);
    let (out, _, code) = run(files);
    assert_eq!(code, 0);
    assert!(
        out.ends_with("\n# … 2 more files not shown: --max-files 1 reached\n"),
        "{out}"
    );

    let mut bytes = env.cmd();
    bytes.args(["--print", "--max-output", "60", "."]);
    let (out, _, _) = run(bytes);
    assert!(out.contains("## a.py") && !out.contains("## b.md"), "{out}");
    assert!(
        out.ends_with(
            "more files not shown: output cap of 60 bytes reached (raise --max-output)\n"
        ),
        "{out}"
    );

    let mut json = env.cmd();
    json.args(["--print", "--json", "--max-files", "2", "."]);
    let (out, _, _) = run(json);
    let last = out.lines().last().unwrap_or("");
    assert_eq!(
        last,
        "{\"truncated\":true,\"truncation_reason\":\"max_files\",\"omitted_files\":1}"
    );
}

#[test]
fn lang_filters_directory_mode() {
    let env = tree();
    let mut cmd = env.cmd();
    cmd.args(["--print", "--lang", "python", "."]);
    let (out, _, _) = run(cmd);
    assert!(out.contains("## a.py") && !out.contains(".md"), "{out}");
}

#[test]
fn several_paths_and_globs() {
    let env = tree();
    let mut cmd = env.cmd();
    cmd.args(["--print", "src", "a.py"]);
    let (out, _, code) = run(cmd);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "# Directory outline: src a.py\n\n## src/c.md (markdown)\n  L1 h1 C\n\n## a.py (python)\n  L1-2 function a()\n"
    );
    let mut globbed = env.cmd();
    globbed.args(["--print", "--glob", "!*.md", "."]);
    let (out, _, _) = run(globbed);
    assert!(out.contains("## a.py") && !out.contains(".md"), "{out}");
}

#[test]
fn the_output_cap_cuts_inside_a_file_at_an_entry() {
    let env = TestEnv::new();
    let body: String = (0..200)
        .map(|i| format!("def f{i}():\n    pass\n"))
        .collect();
    env.write("big.py", &body);
    env.write("later.py", "def later():\n    pass\n");
    let mut cmd = env.cmd();
    cmd.args(["--print", "--max-output", "2000", "."]);
    let (out, _, code) = run(cmd);
    assert_eq!(code, 0);
    assert!(out.len() < 2400, "{} bytes:\n{out}", out.len());
    let cut_note = out
        .lines()
        .find(|l| l.contains("more lines of this file not shown"))
        .unwrap_or_else(|| panic!("no cut note:\n{out}"));
    assert!(cut_note.contains("output cap of 2000 bytes"), "{cut_note}");
    // Every line before the note is a whole entry line.
    let entries: Vec<&str> = out.lines().filter(|l| l.starts_with("  L")).collect();
    assert!(entries.len() > 10, "{out}");
    assert!(entries.iter().all(|l| l.ends_with("()")), "{out}");
    assert!(
        out.ends_with(
            "# … 1 more files not shown: output cap of 2000 bytes reached (raise --max-output)\n"
        ),
        "{out}"
    );
}

#[test]
fn no_tests_leaves_out_test_files_and_modules() {
    let env = TestEnv::new();
    env.write(
        "src/lib.rs",
        "pub fn api() {}\n\n#[cfg(test)]\nmod tests {\n    fn t() {}\n}\n",
    );
    env.write("tests/it.rs", "fn it() {}\n");
    env.write("app/test_app.py", "def test_x():\n    pass\n");
    let mut cmd = env.cmd();
    cmd.args(["--print", "--no-tests", "."]);
    let (out, _, code) = run(cmd);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "# Directory outline: .\n\n## src/lib.rs (rust)\n  L1 function pub api()\n"
    );
    let mut file = env.cmd();
    file.args(["--print", "--no-tests", "src/lib.rs"]);
    let (out, _, _) = run(file);
    assert!(out.contains("api") && !out.contains("tests"), "{out}");
}

#[test]
fn depth_cuts_name_the_children() {
    let env = TestEnv::new();
    let methods: String = (0..10)
        .map(|i| format!("    def m{i}(self):\n        pass\n"))
        .collect();
    env.write(
        "k.py",
        &format!("class K:\n{methods}\nclass Small:\n    def a(self):\n        pass\n"),
    );
    let mut cmd = env.cmd();
    cmd.args(["--print", "."]);
    let (out, _, _) = run(cmd);
    assert!(
        out.contains("class K  (10: m0, m1, m2, m3, m4, m5, … +4)"),
        "{out}"
    );
    assert!(out.contains("class Small  (1: a)"), "{out}");
}

#[test]
fn names_that_are_not_utf8_are_shown_lossily_with_a_note() {
    use std::os::unix::ffi::OsStrExt;
    let env = TestEnv::new();
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9.py");
    std::fs::write(env.path().join(name), "def brew():\n    pass\n").expect("write");
    for args in [&["--print", "."][..], &["--print", "--find", "brew", "."]] {
        let mut cmd = env.cmd();
        cmd.args(args);
        let (out, err, code) = run(cmd);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(out.contains("caf\u{FFFD}.py"), "{args:?}: {out}");
        assert!(out.contains("brew"), "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("the name is not UTF-8"), "{args:?}: {err}");
    }
}

#[test]
fn lock_files_are_left_out_of_directory_outlines_unless_named() {
    let env = TestEnv::new();
    env.write("Cargo.lock", "version = 4\n\n[[package]]\nname = \"a\"\n");
    env.write("src/lib.rs", "pub fn api() {}\n");
    let mut cmd = env.cmd();
    cmd.args(["--print", "."]);
    let (out, _, _) = run(cmd);
    assert!(
        !out.contains("Cargo.lock") && out.contains("## src/lib.rs"),
        "{out}"
    );
    let mut named = env.cmd();
    named.args(["--print", "Cargo.lock", "src"]);
    let (out, _, _) = run(named);
    assert!(out.contains("## Cargo.lock (toml)"), "{out}");
}
