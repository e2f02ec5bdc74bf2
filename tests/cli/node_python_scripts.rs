//! Node and Python scripts with no extension, told by their `#!` line (issue 30, item 11):
//! `env` with or without `-S` and flags, and an interpreter named by its full path and version.
//! A file outlined by name, the walk over a directory, and `--find` across it agree.

use super::util::{json_lines, TestEnv};

/// Four scripts with no telling name, and a file whose name and first line say nothing.
fn scripts() -> TestEnv {
    let env = TestEnv::new();
    env.write("bin/serve", "#!/usr/bin/env node\nfunction serve() {}\n");
    env.write(
        "bin/build",
        "#!/usr/bin/env -S node --experimental-vm-modules --no-warnings\nconst build = () => 1;\n",
    );
    env.write(
        "bin/migrate",
        "#!/usr/bin/python3.12\ndef migrate():\n    pass\n",
    );
    env.write(
        "bin/runner",
        "#!/usr/bin/env python3\nclass Runner:\n    pass\n",
    );
    env.write("bin/NOTES", "function nothing() {}\n");
    env
}

const EXPECTED: [(&str, &str, &str); 4] = [
    ("bin/build", "javascript", "build"),
    ("bin/migrate", "python", "migrate"),
    ("bin/runner", "python", "Runner"),
    ("bin/serve", "javascript", "serve"),
];

#[test]
fn each_script_is_outlined_by_name() {
    let env = scripts();
    for (path, language, name) in EXPECTED {
        let (out, err, code) = env.print(&["--json", path]);
        assert_eq!((code, err.as_str()), (0, ""), "{path}");
        let files = json_lines(&out);
        assert_eq!(files.len(), 1, "{path}: {out}");
        assert_eq!(files[0]["language"], language, "{path}: {out}");
        assert_eq!(files[0]["entries"][0]["name"], name, "{path}: {out}");
    }
}

#[test]
fn the_walk_keeps_the_scripts_and_only_them() {
    let env = scripts();
    let (out, err, code) = env.print(&["--json", "."]);
    assert_eq!((code, err.as_str()), (0, ""));
    let found: Vec<(String, String, String)> = json_lines(&out)
        .iter()
        .map(|file| {
            let text = |v: &serde_json::Value| v.as_str().unwrap_or("").to_string();
            (
                text(&file["path"]),
                text(&file["language"]),
                text(&file["entries"][0]["name"]),
            )
        })
        .collect();
    let expected: Vec<(String, String, String)> = EXPECTED
        .iter()
        .map(|(p, l, n)| (p.to_string(), l.to_string(), n.to_string()))
        .collect();
    assert_eq!(found, expected, "{out}");
}

#[test]
fn find_over_a_directory_reaches_every_script() {
    let env = scripts();
    for (query, header) in [
        ("serve", "# function: serve (bin/serve, L2)"),
        ("build", "# function: build (bin/build, L2)"),
        ("migrate", "# function: migrate (bin/migrate, L2-3)"),
        ("Runner", "# class: Runner (bin/runner, L2-3)"),
    ] {
        let (out, _, code) = env.print(&["--find", query, "bin"]);
        assert_eq!(code, 0, "{query}: {out}");
        assert!(out.starts_with(header), "{query}: {out}");
    }
    let (out, _, _) = env.print(&["--find", "nothing", "bin"]);
    assert!(!out.contains("NOTES"), "{out}");
}
