//! Agent reading modes: --read, --lines, --if-hash, --root, --stdin, and the info flags.

use super::util::{json, run, TestEnv};

/// A Markdown file of `n` lines with a heading every 10 lines.
fn markdown_lines(n: usize) -> String {
    (1..=n)
        .map(|i| {
            if i % 10 == 1 {
                format!("# S{i}\n")
            } else {
                format!("text {i}\n")
            }
        })
        .collect()
}

fn read(env: &TestEnv, args: &[&str]) -> (String, String, i32) {
    let mut cmd = env.cmd();
    cmd.args(args);
    run(cmd)
}

#[test]
fn short_files_are_read_whole_up_to_200_lines() {
    let env = TestEnv::new();
    for n in [150, 200] {
        env.write("f.md", &markdown_lines(n));
        let (out, _, code) = read(&env, &["--read", "f.md"]);
        assert_eq!(code, 0);
        assert_eq!(out.lines().count(), n, "{n}");
        assert!(out.starts_with("1 # S1\n2 text 2\n"));
        assert!(out.ends_with(&format!("{n} text {n}\n")));
    }
}

#[test]
fn long_files_read_as_head_outline_tail() {
    let env = TestEnv::new();
    env.write("f.md", &markdown_lines(201));
    let (out, _, _) = read(&env, &["--read", "f.md"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[79], "80 text 80");
    assert_eq!(lines[80], "[outline: 21 top-level entries]");
    assert_eq!(lines[81], "L1-10 h1 S1", "the same format as --print");
    assert_eq!(
        lines[102],
        "[… lines 81–161 omitted: read a range with --lines A:B or a symbol with --symbol NAME …]"
    );
    assert_eq!(lines[103], "162 text 162");
    assert_eq!(lines.last().copied(), Some("201 # S201"));

    env.write("big.md", &markdown_lines(3000));
    let (out, _, _) = read(&env, &["--read", "big.md"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[80], "[outline: 300 top-level entries]");
    assert_eq!(lines[81 + 24], "L241-250 h1 S241");
    assert_eq!(lines[81 + 25], "[… 270 more …]");
    assert_eq!(lines[81 + 26], "L2951-2960 h1 S2951");
    assert_eq!(
        lines[81 + 31],
        "[… lines 81–2960 omitted: read a range with --lines A:B or a symbol with --symbol NAME …]"
    );
    assert_eq!(lines.len(), 80 + 1 + 30 + 1 + 1 + 40);

    let (out, _, _) = read(&env, &["--read", "--json", "big.md"]);
    let value = json(&out);
    assert_eq!(value["omitted"], serde_json::json!([81, 2960]));
    assert_eq!(value["lines"], 3000);
}

#[test]
fn unsupported_types_read_without_an_outline_block() {
    let env = TestEnv::new();
    env.write("log.txt", &"line\n".repeat(300));
    let (out, _, code) = read(&env, &["--read", "log.txt"]);
    assert_eq!(code, 0);
    assert!(!out.contains("[outline:"));
    assert!(out.contains("[… lines 81–260 omitted"));
    assert_eq!(out.lines().count(), 121);
}

#[test]
fn every_lines_form_and_edge() {
    let env = TestEnv::new();
    env.write(
        "f.txt",
        &(1..=10).map(|i| format!("l{i}\n")).collect::<String>(),
    );
    let cases: [(&str, &str); 7] = [
        ("3:4", "3 l3\n4 l4\n"),
        ("9:", "9 l9\n10 l10\n"),
        ("5:+2", "5 l5\n6 l6\n"),
        ("-2:", "9 l9\n10 l10\n"),
        ("10:10", "10 l10\n"),
        (
            "9:20",
            "9 l9\n10 l10\n[clamped to lines 9-10: the file has 10 lines]\n",
        ),
        ("11:12", "[no such lines: the file has 10 lines]\n"),
    ];
    for (spec, want) in cases {
        let (out, err, code) = read(&env, &["--lines", spec, "f.txt"]);
        assert_eq!((code, out.as_str(), err.as_str()), (0, want, ""), "{spec}");
    }
    for bad in ["4:2", "0:3", "a:b", "3"] {
        let (out, err, code) = read(&env, &["--lines", bad, "f.txt"]);
        assert_eq!((code, out.as_str()), (2, ""), "{bad}");
        assert_eq!(err.lines().count(), 1, "{bad}: {err}");
    }
    let (out, _, _) = read(&env, &["--lines", "2:3", "--json", "f.txt"]);
    let value = json(&out);
    assert_eq!(
        (value["start_line"].as_u64(), value["end_line"].as_u64()),
        (Some(2), Some(3))
    );
    // JSON carries the lines as written: start_line numbers them.
    assert_eq!(value["text"], "l2\nl3\n");
    assert!(value.get("note").is_none(), "{value}");
}

#[test]
fn if_hash_refuses_stale_reads_with_exit_3() {
    let env = TestEnv::new();
    env.write("f.md", "# A\nbody\n# B\n");
    let (out, _, _) = read(&env, &["--print", "--json", "f.md"]);
    let hash = json(&out)["hash"].as_str().unwrap_or_default().to_string();
    assert!(hash.starts_with("xxh3:"), "{hash}");
    for mode in [&["--symbol", "A"][..], &["--lines", "1:2"], &["--read"]] {
        let mut args = vec!["--if-hash", hash.as_str(), "f.md"];
        args.extend_from_slice(mode);
        let (_, _, code) = read(&env, &args);
        assert_eq!(code, 0, "{mode:?}");
    }
    env.write("f.md", "# A\nnew body\n# B\n");
    let (out, err, code) = read(&env, &["--if-hash", &hash, "--symbol", "A", "f.md"]);
    assert_eq!((code, out.as_str()), (3, ""));
    assert!(err.contains("f.md changed: its hash is xxh3:"), "{err}");
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn root_confines_every_path() {
    let env = TestEnv::new();
    let inside = env.write("root/in.md", "# In\n");
    env.write("outside.md", "# Out\n");
    std::fs::create_dir_all(env.path().join("elsewhere")).expect("mkdir");
    env.write("elsewhere/x.md", "# X\n");
    let link = |target: &str, name: &str| {
        std::os::unix::fs::symlink(env.path().join(target), env.path().join("root").join(name))
            .expect("symlink");
    };
    link("outside.md", "file-link.md");
    link("elsewhere", "dir-link");
    std::os::unix::fs::symlink(env.path().join("root/loop"), env.path().join("root/loop"))
        .expect("loop");
    let root = env.path().join("root");
    let root = root.to_str().unwrap_or_default();
    let allowed = |path: &str| read(&env, &["--root", root, "--print", path]);
    assert_eq!(allowed(inside.to_str().unwrap_or_default()).2, 0);
    assert_eq!(allowed("root/in.md").2, 0);
    let outside = env.path().join("outside.md");
    for refused in [
        "root/../outside.md",
        outside.to_str().unwrap_or_default(),
        "root/file-link.md",
        "root/dir-link",
        "root/dir-link/x.md",
        "root/loop",
    ] {
        let (out, err, code) = allowed(refused);
        assert_eq!((code, out.as_str()), (2, ""), "{refused}: {err}");
        assert_eq!(err.lines().count(), 1, "{refused}: {err}");
    }
    // A walk under --root lists only what is inside: links out are not followed.
    let (out, _, code) = allowed("root");
    assert_eq!(code, 0);
    assert!(
        out.contains("in.md") && !out.contains("x.md") && !out.contains("Out"),
        "{out}"
    );
}

#[test]
fn stdin_needs_a_language() {
    let env = TestEnv::new();
    let mut cmd = env.cmd();
    cmd.args(["--print", "--stdin", "--lang", "markdown"])
        .write_stdin("# From stdin\n## Sub\n");
    let (out, _, code) = run(cmd);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "# Outline: <stdin> (markdown)\n\nL1-2 h1 From stdin\n  L2 h2 Sub\n"
    );
    let (_, err, code) = read(&env, &["--print", "--stdin"]);
    assert_eq!(code, 2);
    assert!(err.contains("--lang"), "{err}");
}

#[test]
fn guide_completions_and_man_page() {
    let env = TestEnv::new();
    let (guide, _, code) = read(&env, &["--agent-guide"]);
    assert_eq!(code, 0);
    let shipped = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/agent-guide.md"
    ))
    .expect("asset");
    assert_eq!(guide, shipped);
    // The guide teaches the whole tool for at most 1,000 o200k tokens: an agent reads it first.
    let mut count = env.cmd();
    count
        .args([
            "--print", "--json", "--tokens", "--stdin", "--lang", "markdown",
        ])
        .write_stdin(guide.clone());
    let (counted, _, _) = run(count);
    let tokens: serde_json::Value = serde_json::from_str(&counted).expect("json");
    let tokens = tokens["tokens"].as_u64().unwrap_or(u64::MAX);
    assert!(tokens <= 1_000, "the agent guide costs {tokens} tokens");
    for flag in [
        "--find",
        "--grep",
        "-W",
        "--refs",
        "--depth",
        "--symbol",
        "--lines",
        "--read",
        "--if-hash",
        "outline mcp",
    ] {
        assert!(guide.contains(flag), "the guide never names {flag}");
    }
    for shell in ["bash", "zsh", "fish"] {
        let (out, _, code) = read(&env, &["--completions", shell]);
        assert_eq!(code, 0);
        assert!(out.contains("symbol") && out.contains("if-hash"), "{shell}");
    }
    let (man, _, code) = read(&env, &["--man"]);
    assert_eq!(code, 0);
    assert!(
        man.contains(".TH outline 1") && man.contains("if\\-hash"),
        "{}",
        &man[..200.min(man.len())]
    );
}
