//! Changed-since-HEAD markers on real repositories built in temp dirs with hermetic git config.

use super::util::{json, run, TestEnv};
use std::path::Path;
use std::process::Command;

const APP: &str = "\
def first():
    a = 1
    b = 2
    c = 3
    return a


def second():
    x = 1
    y = 2
    z = 3
    return x


def third():
    return 3
";

/// `git` with no global or system config, a fixed identity and no pager.
pub fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .args([
            "-c",
            "user.name=Test",
            "-c",
            "user.email=test@example.com",
            "-c",
            "core.autocrlf=false",
        ])
        .args(["-c", "init.defaultBranch=main"])
        .args(args)
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?}");
}

/// A repository with APP committed as app.py.
fn repo() -> TestEnv {
    let env = TestEnv::new();
    env.write("app.py", APP);
    git(env.path(), &["init", "-q"]);
    git(env.path(), &["add", "."]);
    git(env.path(), &["commit", "-q", "-m", "init"]);
    env
}

/// Names of changed entries per `--diff --json` on `file`.
fn changed(env: &TestEnv, file: &str) -> Vec<String> {
    let mut cmd = env.cmd();
    cmd.args(["--print", "--json", "--diff", file]);
    let (out, err, code) = run(cmd);
    assert_eq!(code, 0, "{err}");
    let value = json(&out);
    let mut names = Vec::new();
    fn collect(nodes: &serde_json::Value, names: &mut Vec<String>) {
        for node in nodes.as_array().into_iter().flatten() {
            if node["changed"] == true {
                names.push(node["qualname"].as_str().unwrap_or_default().to_string());
            }
            collect(&node["children"], names);
        }
    }
    collect(&value["entries"], &mut names);
    names
}

fn edit(env: &TestEnv, file: &str, from: &str, to: &str) {
    let path = env.path().join(file);
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(text.contains(from), "{from}");
    std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
}

#[test]
fn unstaged_staged_and_both() {
    let env = repo();
    assert!(changed(&env, "app.py").is_empty());
    edit(&env, "app.py", "y = 2", "y = 20");
    assert_eq!(changed(&env, "app.py"), ["second"]);
    git(env.path(), &["add", "app.py"]);
    assert_eq!(changed(&env, "app.py"), ["second"], "staged only");
    edit(&env, "app.py", "return 3", "return 30");
    assert_eq!(
        changed(&env, "app.py"),
        ["second", "third"],
        "staged and unstaged"
    );
}

#[test]
fn deletions_mark_the_containing_function() {
    for (from, to, want) in [
        ("    a = 1\n", "", "first"),                // top of the body
        ("    y = 2\n", "", "second"),               // middle
        ("    z = 3\n    return x\n", "", "second"), // end of the body
    ] {
        let env = repo();
        edit(&env, "app.py", from, to);
        assert_eq!(changed(&env, "app.py"), [want], "deleting {from:?}");
    }
}

#[test]
fn untracked_nested_and_crlf_files() {
    let env = repo();
    env.write("pkg/sub/new.py", "def fresh():\n    pass\n");
    assert_eq!(changed(&env, "pkg/sub/new.py"), ["fresh"]);
    env.write(
        "win.py",
        "def a():\r\n    return 1\r\n\r\n\r\ndef b():\r\n    return 2\r\n",
    );
    git(env.path(), &["add", "win.py"]);
    git(env.path(), &["commit", "-q", "-m", "crlf"]);
    assert!(changed(&env, "win.py").is_empty());
    edit(&env, "win.py", "return 2", "return 22");
    assert_eq!(changed(&env, "win.py"), ["b"]);
}

#[test]
fn renamed_file_compares_with_its_old_path() {
    let env = repo();
    git(env.path(), &["mv", "app.py", "renamed.py"]);
    assert!(
        changed(&env, "renamed.py").is_empty(),
        "a pure rename changes nothing"
    );
    edit(&env, "renamed.py", "return 3", "return 4");
    assert_eq!(changed(&env, "renamed.py"), ["third"]);
}

#[test]
fn no_commits_and_no_repository() {
    let env = TestEnv::new();
    env.write("app.py", APP);
    let mut cmd = env.cmd();
    cmd.args(["--print", "--diff", "app.py"]);
    let (out, err, code) = run(cmd);
    assert_eq!(code, 0);
    assert_eq!(
        err,
        "outline: diff markers off: not inside a git repository\n"
    );
    assert!(!out.contains("[CHANGED]"));

    git(env.path(), &["init", "-q"]);
    assert_eq!(
        changed(&env, "app.py"),
        ["first", "second", "third"],
        "no commits: all new"
    );
}

#[test]
fn directory_mode_marks_and_filters_changed_files() {
    let env = repo();
    env.write("other.py", "def other():\n    pass\n");
    git(env.path(), &["add", "other.py"]);
    git(env.path(), &["commit", "-q", "-m", "other"]);
    edit(&env, "app.py", "return 3", "return 33");
    let mut cmd = env.cmd();
    cmd.args(["--print", "--diff", "."]);
    let (out, _, code) = run(cmd);
    assert_eq!(code, 0);
    assert!(out.contains("## app.py (python)  [CHANGED]\n"), "{out}");
    assert!(out.contains("function third()  [CHANGED]"), "{out}");
    assert!(out.contains("## other.py (python)\n"), "{out}");

    let mut only = env.cmd();
    only.args(["--print", "--changed", "."]);
    let (out, _, _) = run(only);
    assert!(!out.contains("other.py"), "{out}");
    assert!(out.contains("third") && !out.contains("first"), "{out}");
}
