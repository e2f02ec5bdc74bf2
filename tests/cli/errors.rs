//! Bad input: one line on stderr, the right exit code, no panic, no partial output.

use super::util::{run, TestEnv};
use std::io::{BufRead, BufReader};
use std::process::Stdio;

fn fails(args: &[&str], code: i32, message: &str) {
    let env = TestEnv::new();
    let mut cmd = env.cmd();
    cmd.args(args);
    let (out, err, got) = run(cmd);
    assert_eq!(got, code, "{args:?}: {err}");
    assert_eq!(out, "", "{args:?}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line expected: {err}");
    assert!(err.contains(message), "{args:?}: {err}");
}

/// Bad command lines: the arguments after `--print`, the exit code, and what the one line on
/// stderr says. Values off a flag's range or list are clap's words; `--theme` is checked in
/// every mode, not only where the viewer would use it, and lists the names.
#[rustfmt::skip]
const BAD: &[(&[&str], i32, &str)] = &[
    (&["missing.py"], 2, "outline: missing.py: no such file or directory"),
    (&["--depth", "0", "."], 2, "invalid value '0' for '--depth <N>': 0 is not in 1.."),
    (&["--preview", "11", "."], 2, "invalid value '11' for '--preview <N>': 11 is not in 0..=10"),
    (&["--lang", "cobol", "."], 2, "'cobol' for '--lang <LANG>' [possible values: c, cpp, csharp, css,"),
    (&["--sort", "size", "."], 2, "'size' for '--sort <KEY>' [possible values: path, tokens]"),
    (&["--tokenizer", "gpt2", "."], 2, "[possible values: o200k, cl100k, chars4]"),
    (&["--theme", "Nope", "."], 2, "unknown theme 'Nope'; known: ansi, base16,"),
    (&["--read", "."], 2, "--read and --lines take one file"),
    (&["--symbol", "x", "."], 1, "no definition matches 'x' in 0 files"),
    (&["--no-such-flag"], 2, "--no-such-flag"),
];

#[test]
fn usage_and_io_errors_exit_2_with_one_line() {
    for (args, code, message) in BAD {
        let mut all = vec!["--print"];
        all.extend_from_slice(args);
        fails(&all, *code, message);
    }
}

#[test]
fn unsupported_and_binary_files_are_notes_with_exit_0() {
    let env = TestEnv::new();
    env.write("notes.txt", "hello\n");
    std::fs::write(env.path().join("blob.py"), b"\x00\x01binary").expect("write");
    let mut cmd = env.cmd();
    cmd.args(["--print", "notes.txt"]);
    let (out, _, code) = run(cmd);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("outline: no parser for notes.txt; supported: .bash .bats .c .cc"),
        "{out}"
    );
    assert_eq!(out.lines().count(), 1);
    let mut cmd = env.cmd();
    cmd.args(["--print", "blob.py"]);
    let (out, _, code) = run(cmd);
    assert_eq!(
        (code, out.as_str()),
        (0, "outline: blob.py: binary file, not outlined\n")
    );
    // In JSON mode stdout stays clean: the note goes to stderr.
    let mut cmd = env.cmd();
    cmd.args(["--print", "--json", "notes.txt"]);
    let (out, err, code) = run(cmd);
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(err.contains("no parser for notes.txt"));
}

#[test]
fn unreadable_file_exits_2() {
    let env = TestEnv::new();
    let path = env.write("secret.md", "# S\n");
    let mut perms = std::fs::metadata(&path).expect("meta").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o000);
    std::fs::set_permissions(&path, perms).expect("chmod");
    if std::fs::read(&path).is_ok() {
        return; // running as root: permissions do not apply, nothing to test here
    }
    fails(&["--print", "secret.md"], 2, "secret.md: Permission denied");
}

#[test]
fn closed_pipe_exits_quietly() {
    let env = TestEnv::new();
    for i in 0..400 {
        env.write(&format!("d/f{i:03}.md"), "# T\n## U\n");
    }
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("outline"))
        .current_dir(env.path())
        .args(["--print", "--depth", "2", "d"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let stdout = child.stdout.take().expect("stdout");
    let mut first = String::new();
    BufReader::new(stdout).read_line(&mut first).expect("read");
    // The reader is dropped here: the pipe closes while outline is still writing.
    let output = child.wait_with_output().expect("wait");
    assert_eq!(first, "# Directory outline: d\n");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

#[test]
fn symlink_loop_is_one_line_exit_2() {
    let env = TestEnv::new();
    let looped = env.path().join("loop.md");
    std::os::unix::fs::symlink(&looped, &looped).expect("symlink");
    fails(&["--print", "loop.md"], 2, "loop.md");
}

#[test]
fn a_missing_path_is_one_line_in_every_search_mode() {
    let env = TestEnv::new();
    for mode in [
        &["--find", "f"][..],
        &["--grep", "f"],
        &["--refs", "f"],
        &["--symbol", "f"],
    ] {
        let mut args = mode.to_vec();
        args.push("nosuchdir");
        let (out, err, code) = env.print(&args);
        assert_eq!(code, 2, "{mode:?}");
        assert_eq!(out, "", "{mode:?}");
        assert_eq!(
            err, "outline: nosuchdir: no such file or directory\n",
            "{mode:?}"
        );
    }
}
