//! `--find`, `--grep`, `--refs` and `--symbol` over trees, on tests/fixtures/search/tree (its
//! README names the traps) plus files made here that a walk must skip: ignored, hidden, binary.

use super::util::{json_lines, TestEnv};
use std::collections::BTreeSet;
use std::path::Path;

/// The fixture tree copied into a temp dir, with the files a walk must skip added.
fn tree() -> TestEnv {
    let env = TestEnv::new();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/search/tree");
    copy_dir(&source, env.path());
    env.write(".ignore", "ignored/\n");
    env.write("ignored/skip.rs", "pub fn run() {}\n");
    env.write(".hidden/secret.rs", "pub fn run() {}\n");
    std::fs::write(env.path().join("src/blob.rs"), b"\0pub fn run() {}\n").expect("write");
    env
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("fixture dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// `path qualname` of each `--find --json` result.
fn found(env: &TestEnv, args: &[&str]) -> Vec<String> {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let (out, err, code) = env.print(&all);
    assert_eq!(code, 0, "{args:?}: {err}");
    // One match prints its body: a read object whose `node` is the definition.
    json_lines(&out)
        .iter()
        .filter_map(|v| {
            let qualname = v
                .get("qualname")
                .or_else(|| v.get("node")?.get("qualname"))?;
            Some(format!("{} {}", v["path"].as_str()?, qualname.as_str()?))
        })
        .collect()
}

#[test]
fn find_ranks_exact_names_then_test_code_then_path_order() {
    let env = tree();
    assert_eq!(
        found(&env, &["--find", "run"]),
        [
            "scripts/jobs.py Handler.run",
            "scripts/jobs.py run",
            "src/pool.rs Pool.run",
            "src/worker.rs Worker.run",
            "web/app.ts run",
            "web/app.ts Runner.run",
            // Test code last: a test module, then a test directory.
            "src/worker.rs tests.run",
            "tests/integration.rs run",
        ]
    );
}

#[test]
fn find_ranks_code_before_prose_and_data() {
    let env = TestEnv::new();
    env.write("api/spec.yaml", "Error:\n  type: object\n");
    env.write("docs/Error.md", "# Error\n\nWhat an error says.\n");
    env.write(
        "errors/error.go",
        "package errors\n\ntype Error struct {\n\tMsg string\n}\n",
    );
    env.write(
        "errors/error_test.go",
        "package errors\n\ntype Error struct{}\n",
    );
    assert_eq!(
        found(&env, &["--find", "Error"]),
        [
            "errors/error.go Error",
            "errors/error_test.go Error",
            "api/spec.yaml Error",
            "docs/Error.md Error",
        ]
    );
}

#[test]
fn find_text_lines_and_the_cap_note() {
    let env = tree();
    let (out, _, code) = env.print(&["--find", "run", "--max-results", "2"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "scripts/jobs.py:L5-7 method Handler.run(self, job)",
            "L10-13 function run(jobs)",
            "# … 6 more matches (raise --max-results, or narrow with a kind, Type.name or PATH)",
        ]
    );
}

#[test]
fn find_qualified_forms_print_the_one_body() {
    let env = tree();
    for query in ["Pool.run", "Pool::run", "Pool/run", "method Pool.run"] {
        let (out, err, code) = env.print(&["--find", query]);
        assert_eq!(code, 0, "{query}: {err}");
        assert!(
            out.starts_with("# method: Pool.run (src/pool.rs, L13-16)\n\n13     pub fn run(&self)"),
            "{query}:\n{out}"
        );
    }
}

#[test]
fn find_globs_kinds_and_smart_case() {
    let env = tree();
    assert_eq!(
        found(&env, &["--find", "class Run*"]),
        ["web/app.ts Runner"]
    );
    assert_eq!(
        found(&env, &["--find", "Worker", "--kind", "struct"]),
        ["src/worker.rs Worker"]
    );
    // Lower case matches any case; an upper-case letter makes the query exact.
    assert!(found(&env, &["--find", "runner"]).contains(&"web/app.ts Runner".to_string()));
    let (_, _, code) = env.print(&["--find", "RUNNER"]);
    assert_eq!(code, 1);
    let globbed = found(&env, &["--find", "fn run*", "--max-results", "50"]);
    for name in [
        "src/pool.rs run_pool",
        "web/app.spec.ts runSpec",
        "tests/integration.rs runs",
    ] {
        assert!(globbed.contains(&name.to_string()), "{name} in {globbed:?}");
    }
    assert!(
        !globbed.iter().any(|f| f.ends_with("Runner")),
        "a class is not a fn"
    );
}

#[test]
fn find_skips_ignored_hidden_and_binary_files() {
    let env = tree();
    let all = found(&env, &["--find", "run", "--max-results", "50"]);
    for skipped in ["ignored/", ".hidden/", "src/blob.rs"] {
        assert!(
            !all.iter().any(|f| f.starts_with(skipped)),
            "{skipped}: {all:?}"
        );
    }
    let hidden = found(&env, &["--find", "run", "--hidden", "--max-results", "50"]);
    assert!(hidden.iter().any(|f| f.starts_with(".hidden/")));
}

#[test]
fn find_takes_several_paths_globs_and_languages() {
    let env = tree();
    assert_eq!(
        found(&env, &["--find", "run", "web", "scripts/jobs.py"]),
        // Paths in the order given, as ripgrep does.
        [
            "web/app.ts run",
            "web/app.ts Runner.run",
            "scripts/jobs.py Handler.run",
            "scripts/jobs.py run",
        ]
    );
    assert_eq!(
        found(&env, &["--find", "run", "--glob", "*.py"]),
        ["scripts/jobs.py Handler.run", "scripts/jobs.py run"]
    );
    let no_tests = found(&env, &["--find", "run", "-g", "!tests/**", "-g", "!src/**"]);
    assert_eq!(no_tests.len(), 4, "{no_tests:?}");
    assert_eq!(
        found(&env, &["--find", "run", "--lang", "typescript"]),
        ["web/app.ts run", "web/app.ts Runner.run"]
    );
}

#[test]
fn find_without_a_match_suggests_near_names() {
    let env = tree();
    let (out, err, code) = env.print(&["--find", "wroker"]);
    assert_eq!((out.as_str(), code), ("", 1));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no definition matches 'wroker'"), "{err}");
    assert!(err.contains("nearest names: Worker"), "{err}");
    let (_, err, code) = env.print(&["--find", "banana split"]);
    assert_eq!(code, 2);
    assert!(err.contains("'banana' is not a kind"), "{err}");
}

#[test]
fn symbol_in_a_directory_reads_the_best_match_and_lists_the_rest() {
    let env = tree();
    let (out, err, code) = env.print(&["--symbol", "run", "."]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("# method: Handler.run (scripts/jobs.py, L5-7)"),
        "{out}"
    );
    assert!(
        err.contains("also matches scripts/jobs.py#2 function run (L10)"),
        "{err}"
    );
    assert!(
        err.contains("also matches tests/integration.rs#1 function run (L1)"),
        "{err}"
    );
    // The listed PATH#ID reads exactly that entry.
    let (out, _, code) = env.print(&["--symbol", "tests/integration.rs#1"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("# function: run (tests/integration.rs, L1-3)"),
        "{out}"
    );
    let (_, err, code) = env.print(&["--symbol", "nothing_like_it", "src"]);
    assert_eq!(code, 1);
    assert!(err.contains("no definition matches"), "{err}");
}

#[test]
fn several_symbols_and_members_to_a_depth() {
    let env = tree();
    let (out, err, code) = env.print(&["--symbol", "Pool.new", "--symbol", "Worker.new", "src"]);
    assert_eq!(code, 0, "{err}");
    let headers: Vec<&str> = out.lines().filter(|l| l.starts_with("# ")).collect();
    assert_eq!(
        headers,
        [
            "# method: Pool.new (src/pool.rs, L8-11)",
            "# method: Worker.new (src/worker.rs, L9-11)"
        ]
    );
    let (out, err, code) = env.print(&["--symbol", "impl Worker", "--depth", "2", "src"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("# impl: Worker (src/worker.rs, L8-21, members to depth 2)"),
        "{out}"
    );
    assert!(
        out.contains("  L9-11 method pub new(id: usize) -> Worker"),
        "{out}"
    );
    assert!(
        out.contains("  L14-20 method pub run(&self) -> usize"),
        "{out}"
    );
    assert!(!out.contains("let label"), "members, not the body:\n{out}");
}

/// The hit objects of a `--grep` or `--refs` search in JSON (the lines that have a `line`).
fn hits(env: &TestEnv, args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let (out, err, code) = env.print(&all);
    assert_eq!(code, 0, "{args:?}: {err}");
    json_lines(&out)
        .into_iter()
        .filter(|v| v.get("line").is_some())
        .collect()
}

/// A hit's path and line.
fn place(hit: &serde_json::Value) -> (String, u64) {
    let path = hit["path"].as_str().expect("path").to_string();
    (path, hit["line"].as_u64().expect("line"))
}

/// The hit lines of `--grep --json` per path.
fn grep_lines(env: &TestEnv, args: &[&str]) -> BTreeSet<(String, u64)> {
    hits(env, args).iter().map(place).collect()
}

fn lines_of(hits: &BTreeSet<(String, u64)>, path: &str) -> Vec<u64> {
    hits.iter()
        .filter(|(p, _)| p == path)
        .map(|(_, l)| *l)
        .collect()
}

#[test]
fn grep_groups_hits_by_enclosing_symbol() {
    let env = tree();
    let (out, err, code) = env.print(&["--grep", r"\.run\(\)", "src"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "src/pool.rs:L13-16 method Pool.run\n\
         15:         self.workers.iter().map(|w| w.run()).sum()\n\
         L19-21 function run_pool\n\
         20:     pool.run()\n\
         src/worker.rs:L23-25 function start\n\
         24:     worker.run()\n\
         L32-34 function tests.run\n\
         33:         assert_eq!(Worker::new(1).run(), 12);\n\
         # 4 hits in 2 files\n"
    );
}

#[test]
fn grep_code_only_skips_comments_and_strings() {
    let env = tree();
    let all = grep_lines(&env, &["--grep", "run", "src/worker.rs"]);
    assert_eq!(
        lines_of(&all, "src/worker.rs"),
        [1, 13, 14, 15, 16, 17, 18, 19, 24, 32, 33]
    );
    let code = grep_lines(&env, &["--grep", "run", "--code-only", "src/worker.rs"]);
    // Gone: the //! and /// comments (1, 13), the string and comment of 15, the raw
    // string of 16; kept: code, including `rerun` and `run_all` (a regex, not a word search).
    assert_eq!(
        lines_of(&code, "src/worker.rs"),
        [14, 17, 18, 19, 24, 32, 33]
    );
    let ts = grep_lines(&env, &["--grep", "run", "--code-only", "web/app.ts"]);
    assert_eq!(
        lines_of(&ts, "web/app.ts"),
        [2, 9, 10],
        "template text is a string"
    );
}

#[test]
fn grep_reads_every_text_file_but_not_binary_or_ignored_ones() {
    let env = tree();
    let (out, _, code) = env.print(&["--grep", "release|pub fn run"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("notes.txt\n1: Remember to run the pool before release.\n"),
        "{out}"
    );
    assert!(!out.contains("blob.rs") && !out.contains("ignored/") && !out.contains(".hidden"));
    // A file that is not code has no comments or strings to tell apart: --code-only skips it.
    let (out, _, _) = env.print(&["--grep", "release", "--code-only"]);
    assert!(!out.contains("notes.txt"), "{out}");
}

#[test]
fn grep_context_json_caps_and_errors() {
    let env = tree();
    let (out, _, code) = env.print(&["--grep", "workers.iter", "-C", "1", "src/pool.rs"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("14 ") && out.contains("15: ") && out.contains("16     }"),
        "{out}"
    );
    let (out, _, _) = env.print(&["--json", "--grep", "fn start", "src"]);
    let hit = &json_lines(&out)[0];
    assert_eq!(hit["path"], "src/worker.rs");
    assert_eq!(
        (hit["line"].as_u64(), hit["column"].as_u64()),
        (Some(23), Some(5))
    );
    assert_eq!(hit["text"], "pub fn start(worker: &Worker) -> usize {");
    assert_eq!(hit["entry"]["qualname"], "start");
    assert_eq!(hit["entry"]["kind"], "function");
    assert_eq!(
        (
            hit["entry"]["line"].as_u64(),
            hit["entry"]["end_line"].as_u64()
        ),
        (Some(23), Some(25))
    );
    assert_eq!(hit["entry"]["id"], "3");
    let (out, _, code) = env.print(&["--grep", "run", "--max-results", "3"]);
    assert_eq!(code, 0);
    assert_eq!(
        out.lines()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
            .count(),
        3,
        "{out}"
    );
    assert!(
        out.ends_with(
            "# … stopped after 3 hits (raise --max-results, or narrow with PATH or --glob)\n"
        ),
        "{out}"
    );
    let (out, err, code) = env.print(&["--grep", "a(b"]);
    assert_eq!((out.as_str(), code), ("", 2));
    assert_eq!(err, "outline: --grep 'a(b': unclosed group at column 2\n");
    let (_, err, code) = env.print(&["--grep", "zzz_nowhere"]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with("outline: no match for 'zzz_nowhere'"),
        "{err}"
    );
}

/// (path, line, is definition) of `--refs --json`.
fn ref_hits(env: &TestEnv, args: &[&str]) -> Vec<(String, u64, bool)> {
    hits(env, args)
        .iter()
        .map(|hit| {
            let (path, line) = place(hit);
            (path, line, hit.get("definition").is_some())
        })
        .collect()
}

#[test]
fn refs_are_code_only_whole_words_with_definitions_marked() {
    let env = tree();
    let hits = ref_hits(
        &env,
        &[
            "--refs",
            "run",
            "src/worker.rs",
            "scripts/jobs.py",
            "web/app.ts",
        ],
    );
    let at = |path: &str| -> Vec<(u64, bool)> {
        hits.iter()
            .filter(|h| h.0 == path)
            .map(|h| (h.1, h.2))
            .collect()
    };
    assert_eq!(
        at("src/worker.rs"),
        [(14, true), (24, false), (32, true), (33, false)]
    );
    assert_eq!(
        at("scripts/jobs.py"),
        [(5, true), (10, true), (13, false), (17, false)]
    );
    assert_eq!(at("web/app.ts"), [(2, true), (9, true), (10, false)]);
}

#[test]
fn refs_skip_literal_prefixes() {
    let env = tree();
    // `b"b"` and `b''` are bytes literals: only the parameter and its use count.
    let hits = ref_hits(&env, &["--refs", "b", "scripts/jobs.py"]);
    let lines: Vec<u64> = hits.iter().map(|h| h.1).collect();
    assert_eq!(lines, [20, 21], "{hits:?}");
}

#[test]
fn refs_in_ruby_tell_bang_and_query_methods_apart() {
    let env = TestEnv::new();
    env.write(
        "app.rb",
        "class App\n  def route(v)\n    v\n  end\n\n  def route!\n    route(1) if route? != route!\n    x = route!= 2\n    route ? 1 : 2\n  end\nend\n",
    );
    let lines = |name: &str| -> Vec<u64> {
        ref_hits(&env, &["--refs", name, "app.rb"])
            .iter()
            .map(|h| h.1)
            .collect()
    };
    // `route!` (line 6, 7) and `route?` are other methods; `route!=` is `route !=`.
    assert_eq!(lines("route"), [2, 7, 8, 9]);
    assert_eq!(lines("route!"), [6, 7]);
    assert_eq!(lines("route?"), [7]);
}

#[test]
fn refs_text_lists_definitions_first() {
    let env = tree();
    let (out, err, code) = env.print(&["--refs", "run", "src"]);
    assert_eq!(code, 0, "{err}");
    // Numbered lines are the hits under each header.
    let headers: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert_eq!(
        headers,
        [
            "src/pool.rs:L13-16 method Pool.run  [definition]",
            "src/worker.rs:L14-20 method pub Worker.run(&self) -> usize  [definition]",
            "L32-34 function tests.run  [definition]",
            "src/pool.rs:L19-21 function run_pool",
            "src/worker.rs:L23-25 function start",
            "# 7 hits in 2 files",
        ]
    );
}

#[test]
fn refs_to_a_member_keep_member_uses_and_that_type_s_definition() {
    let env = tree();
    let hits = ref_hits(&env, &["--refs", "Pool.run", "."]);
    let defs: Vec<&(String, u64, bool)> = hits.iter().filter(|h| h.2).collect();
    assert_eq!(defs.len(), 1, "{hits:?}");
    assert_eq!((defs[0].0.as_str(), defs[0].1), ("src/pool.rs", 13));
    // Plain calls `run(jobs)` are not member uses; `.run()` calls are.
    assert!(
        !hits.iter().any(|h| h.0 == "scripts/jobs.py" && h.1 == 17),
        "{hits:?}"
    );
    assert!(
        hits.iter().any(|h| h.0 == "scripts/jobs.py" && h.1 == 13),
        "{hits:?}"
    );
    assert!(
        hits.iter().any(|h| h.0 == "src/pool.rs" && h.1 == 20),
        "{hits:?}"
    );
}

#[test]
fn find_prints_short_overloads_whole_and_lists_many() {
    let env = TestEnv::new();
    let overload = |i: usize| format!("  void set(int{i} a) {{\n    x = a;\n  }}\n");
    let three: String = (0..3).map(overload).collect();
    env.write("A.java", &format!("class A {{\n{three}}}\n"));
    let (out, err, code) = env.print(&["--find", "A.set", "A.java"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("# method: A.set").count(), 3, "{out}");
    assert!(out.contains("6     x = a;"), "{out}");
    // Eleven overloads (or a longer span together) stay a list, as namesakes of other owners do.
    let eleven: String = (0..11).map(overload).collect();
    env.write(
        "B.java",
        &format!("class B {{\n{eleven}}}\nclass C {{\n{}}}\n", overload(0)),
    );
    let (out, _, _) = env.print(&["--find", "B.set", "B.java"]);
    assert!(!out.contains("# method:"), "{out}");
    assert_eq!(out.matches("method void B.set(").count(), 11, "{out}");
    env.write(
        "M.java",
        &format!("class M {{\n{0}}}\nclass N {{\n{0}}}\n", overload(0)),
    );
    let (out, _, _) = env.print(&["--find", "set", "M.java"]);
    assert!(!out.contains("# method:"), "{out}");
    assert_eq!(out.lines().count(), 2, "{out}");
}

#[test]
fn several_bodies_leave_their_doc_comments_out_and_say_so() {
    let env = TestEnv::new();
    let documented = |i: usize| {
        format!("  /**\n   * Sets it, way {i}.\n   */\n  void set(int{i} a) {{\n    x = a;\n  }}\n")
    };
    let two: String = (0..2).map(documented).collect();
    env.write("D.java", &format!("class D {{\n{two}}}\n"));
    let (out, err, code) = env.print(&["--find", "D.set", "D.java"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("# method: D.set").count(), 2, "{out}");
    assert!(!out.contains("Sets it"), "{out}");
    assert!(
        out.ends_with(
            "# doc comments above these bodies left out (--symbol reads one with them)\n"
        ),
        "{out}"
    );
    // Asked without docs, there is nothing to say; one body keeps its docs.
    let (out, _, _) = env.print(&["--find", "D.set", "--no-docs", "D.java"]);
    assert!(!out.contains("doc comments"), "{out}");
    let (out, _, _) = env.print(&["--find", "D.set(int1", "D.java"]);
    assert!(out.contains("Sets it, way 1."), "{out}");
}

#[test]
fn symbol_says_when_its_answer_is_a_declaration_only() {
    let env = TestEnv::new();
    env.write("w.h", "class W {\n public:\n  void draw() const;\n};\n");
    let note = "W.draw (L3) is a declaration without a body";
    let (out, err, code) = env.print(&["--symbol", "W.draw", "w.h"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("3   void draw() const;"), "{out}");
    assert!(err.contains(note), "{err}");
    // With the definition in the paths searched, the definition is the answer.
    env.write(
        "w.cpp",
        "#include \"w.h\"\nvoid W::draw() const {\n  paint();\n}\n",
    );
    let (out, err, _) = env.print(&["--symbol", "W.draw", "."]);
    assert!(out.contains("3   paint();"), "{out}");
    assert!(!err.contains(note), "{err}");
    assert!(
        err.contains("also matches w.h#1.1 method W.draw (L3)"),
        "{err}"
    );
    // A one-line definition in the same file is where the declaration points.
    env.write(
        "one_line/w.cpp",
        "class W {\n public:\n  void draw() const;\n};\nvoid W::draw() const { }\n",
    );
    let (_, err, _) = env.print(&["--symbol", "W.draw", "one_line/w.cpp"]);
    assert!(err.contains("its definition: W::draw (L5)"), "{err}");
    let (_, err, _) = env.print(&["--symbol", "W.draw", "one_line"]);
    assert!(!err.contains("no definition"), "{err}");
    // A one-line definition is no declaration.
    env.write("one.cpp", "void one() { }\n");
    let (_, err, _) = env.print(&["--symbol", "one", "one.cpp"]);
    assert!(!err.contains("declaration"), "{err}");
}

#[test]
fn searches_obey_root_and_tokens() {
    let env = tree();
    let (_, err, code) = env.print(&["--root", "src", "--find", "run", "web"]);
    assert_eq!(code, 2);
    assert!(err.contains("outside --root"), "{err}");
    let (out, _, code) = env.print(&[
        "--root",
        ".",
        "--find",
        "Pool.new",
        "--tokens",
        "--max-results",
        "1",
        "--no-signatures",
    ]);
    assert_eq!(code, 0);
    assert!(out.starts_with("# method: Pool.new"), "{out}");
    let (out, _, _) = env.print(&["--find", "new", "--tokens", "--no-signatures"]);
    let first = out.lines().next().unwrap_or("");
    assert!(
        first.starts_with("src/pool.rs:L8-11 method Pool.new  ("),
        "{out}"
    );
    assert!(first.ends_with(" tokens)"), "{out}");
}

#[test]
fn no_tests_leaves_test_code_out_of_searches() {
    let env = tree();
    assert_eq!(
        found(&env, &["--find", "run", "--no-tests"]).len(),
        6,
        "the two test definitions are gone"
    );
    let hits = ref_hits(&env, &["--refs", "run", "--no-tests", "src", "tests"]);
    assert!(!hits.iter().any(|h| h.0.starts_with("tests/")), "{hits:?}");
    assert!(
        !hits.iter().any(|h| h.0 == "src/worker.rs" && h.1 >= 27),
        "{hits:?}"
    );
    let greps = grep_lines(&env, &["--grep", "run", "--no-tests", "scripts"]);
    assert!(
        !greps.iter().any(|(p, _)| p.contains("test_jobs")),
        "{greps:?}"
    );
}

#[test]
fn a_file_takes_the_same_queries_as_a_directory() {
    let env = tree();
    for path in ["src/worker.rs", "src"] {
        let (out, err, code) = env.print(&["--symbol", "impl Worker", "--depth", "2", path]);
        assert_eq!(code, 0, "{path}: {err}");
        assert!(
            out.contains("  L14-20 method pub run(&self) -> usize"),
            "{path}: {out}"
        );
        // Members asked of a name that is a struct and its impl: the impl has them.
        let (out, err, code) = env.print(&["--symbol", "Worker", "--depth", "2", path]);
        assert_eq!(code, 0, "{path}: {err}");
        assert!(out.starts_with("# impl: Worker"), "{path}: {out}");
    }
    let (out, _, code) = env.print(&["--symbol", "Worker::run", "src/worker.rs"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("# method: Worker.run (src/worker.rs, L14-20"),
        "{out}"
    );
}

#[test]
fn misses_say_what_exists_and_counts_read_well() {
    let env = tree();
    let (_, err, code) = env.print(&["--find", "Worker", "--kind", "field"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("that name exists as struct, impl: drop the kind"),
        "{err}"
    );
    let (out, _, _) = env.print(&["--grep", "fn start", "src"]);
    assert!(out.ends_with("# 1 hit in 1 file\n"), "{out}");
}

#[test]
fn names_that_carry_their_owner_are_found_by_bare_and_qualified_names() {
    let env = tree();
    // Go methods (`(*Queue).Push`, `Queue.Len`) and a C++ member defined outside its class
    // (`Stack::push`): by the bare name, by Type.method in any spelling, by Go's own form.
    for (query, expected) in [
        ("Push", "lib/queue.go (*Queue).Push"),
        ("Queue.Push", "lib/queue.go (*Queue).Push"),
        ("(*Queue).Push", "lib/queue.go (*Queue).Push"),
        ("method Queue::Len", "lib/queue.go Queue.Len"),
    ] {
        assert_eq!(found(&env, &["--find", query]), [expected], "{query}");
    }
    // The member's declaration in its class is found with its definition outside it, the
    // definition first (an implementation before a one-line declaration).
    let both = ["lib/stack.cpp Stack::push", "lib/stack.cpp Stack.push"];
    assert_eq!(found(&env, &["--find", "Stack.push"]), both);
    // Smart case: lower case finds both cases, upper case only its own.
    assert_eq!(
        found(&env, &["--find", "push"]),
        [
            "lib/queue.go (*Queue).Push",
            "lib/stack.cpp Stack::push",
            "lib/stack.cpp Stack.push"
        ]
    );
    // A glob over the qualified path sees the owner as written in source (and the field).
    assert_eq!(
        found(&env, &["--find", "Queue.*"]),
        [
            "lib/queue.go Queue.items",
            "lib/queue.go (*Queue).Push",
            "lib/queue.go Queue.len",
            "lib/queue.go Queue.Len"
        ]
    );
    // `--symbol` prefers the name in the case asked for over an earlier one in another case.
    let (out, err, code) = env.print(&["--symbol", "Len", "lib/queue.go"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("# method: Queue.Len "), "{out}");
}

#[test]
fn refs_mark_definitions_whose_names_carry_their_owner() {
    let env = tree();
    for query in ["Push", "Queue.Push", "(*Queue).Push"] {
        let hits = ref_hits(&env, &["--refs", query, "lib"]);
        let defs: Vec<(&str, u64)> = hits
            .iter()
            .filter(|h| h.2)
            .map(|h| (h.0.as_str(), h.1))
            .collect();
        assert_eq!(defs, [("lib/queue.go", 7)], "{query}: {hits:?}");
        assert!(hits.iter().any(|h| h.1 == 16 && !h.2), "{query}: {hits:?}");
    }
    // Another type's member is not that definition.
    let hits = ref_hits(&env, &["--refs", "Other.Push", "lib"]);
    assert!(hits.iter().all(|h| !h.2), "{hits:?}");
}

#[test]
fn refs_want_one_identifier() {
    let env = tree();
    // `run(` and `run()` name parameters (see lean_answers).
    for query in ["(run", "run)x", "a b", "x+y"] {
        let (out, err, code) = env.print(&["--refs", query]);
        assert_eq!(code, 2, "{query}: {out}");
        assert!(err.contains("give one identifier"), "{query}: {err}");
    }
}

#[test]
fn refs_see_code_inside_f_strings_templates_and_jsx_but_not_their_text() {
    let env = tree();
    let lines = |name: &str, path: &str| -> Vec<(u64, bool)> {
        ref_hits(&env, &["--refs", name, path])
            .into_iter()
            .map(|(_, line, definition)| (line, definition))
            .collect()
    };
    // Line 8's first f-string holds a use; its second holds the name only as text.
    assert_eq!(
        lines("render_label", "lib/labels.py"),
        [(1, true), (8, false)]
    );
    // Template text (7) and JSX text (10) are not uses; `${…}` (6) and `{…}` (9) are.
    assert_eq!(
        lines("renderLabel", "lib/labels.tsx"),
        [(1, true), (6, false), (9, false)]
    );
    // --code-only greps read the same way.
    let (out, err, code) = env.print(&["--grep", "renderLabel", "--code-only", "lib/labels.tsx"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("9: ") && !out.contains("10: "), "{out}");
}

#[test]
fn refs_under_a_hit_cap_still_list_definitions_first() {
    let env = tree();
    // `Worker` is used in src/pool.rs before its definition in src/worker.rs (path order): the
    // cap must not leave only that use.
    let (out, err, code) = env.print(&["--refs", "Worker", "--max-results", "1", "."]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(
            "src/worker.rs:L4-6 struct pub Worker  [definition]\n# … stopped after 1 hits"
        ),
        "{out}"
    );
    assert!(
        out.ends_with(
            "# … stopped after 1 hits (raise --max-results, or narrow with PATH or --glob)\n"
        ),
        "{out}"
    );
    // Uncapped, every hit shows, definitions first, and files are counted once each.
    let (out, _, _) = env.print(&["--refs", "Worker", "."]);
    assert!(
        out.starts_with("src/worker.rs:L4-6 struct pub Worker  [definition]"),
        "{out}"
    );
    let files: BTreeSet<&str> = out
        .lines()
        .filter(|line| !line.starts_with(|c: char| c == '#' || c.is_ascii_digit()))
        // A line in the file named above starts at its range.
        .filter(|line| {
            !line.starts_with('L') || !line[1..].starts_with(|c: char| c.is_ascii_digit())
        })
        .filter_map(|line| line.split(':').next())
        .collect();
    let summary = out.lines().last().unwrap_or("");
    assert!(
        summary.ends_with(&format!("in {} files", files.len())),
        "{out}"
    );
}

#[test]
fn symbol_shows_the_implementation_not_an_overload_stub() {
    let env = tree();
    // The two `@typing.overload` stubs come first in source; the body asked for is the third.
    for paths in [&["lib/overloads.py"][..], &["lib"][..]] {
        let mut args = vec!["--symbol", "Reader.read"];
        args.extend_from_slice(paths);
        let (out, err, code) = env.print(&args);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.starts_with("# method: Reader.read (lib/overloads.py, L11-13)"),
            "{paths:?}:\n{out}"
        );
        // The stubs stay one exact call away.
        assert!(err.contains("(L6)") && err.contains("(L9)"), "{err}");
    }
}

#[test]
fn find_prints_a_long_only_match_as_a_line_and_says_how_to_read_it() {
    let env = TestEnv::new();
    let body: String = (0..150).map(|i| format!("    x{i} = {i}\n")).collect();
    env.write("long.py", &format!("def long_one():\n{body}    return 0\n"));
    env.write("short.py", "def short_one():\n    return 1\n");
    let (out, err, code) = env.print(&["--find", "long_one"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "long.py:L1-152 function long_one()\n\
         # its body is 152 lines: --body prints it, or --symbol long.py#1\n"
    );
    let (out, _, _) = env.print(&["--find", "long_one", "--body"]);
    assert_eq!(
        out.lines().filter(|l| l.contains(" = ")).count(),
        150,
        "{out}"
    );
    // A short one still prints its body: no second call needed.
    let (out, _, _) = env.print(&["--find", "short_one"]);
    assert!(out.contains("2     return 1"), "{out}");
}

#[test]
fn hits_on_doc_comments_and_decorators_belong_to_what_they_document() {
    let env = tree();
    // `--symbol` reads these lines as the entry's docs; grep groups them the same way.
    let (out, err, code) = env.print(&["--grep", "adds a job", "lib/queue.go"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("lib/queue.go:L7 method (*Queue).Push\n6: "),
        "{out}"
    );
    let (out, _, _) = env.print(&["--grep", "typing.overload", "lib/overloads.py"]);
    assert!(
        out.starts_with("lib/overloads.py:L6 method Reader.read\n5: "),
        "{out}"
    );
}

#[test]
fn python_class_attributes_are_found_by_name() {
    let env = tree();
    assert_eq!(
        found(&env, &["--find", "context_class"]),
        ["lib/settings.py Settings.context_class"]
    );
    assert_eq!(
        found(&env, &["--find", "Settings.retries"]),
        ["lib/settings.py Settings.retries"]
    );
    // A method's local binding is no attribute.
    let (_, _, code) = env.print(&["--find", "local_only"]);
    assert_eq!(code, 1);
}

#[test]
fn function_context_shows_short_bodies_whole_and_says_how_to_read_long_ones() {
    let env = tree();
    let (out, err, code) = env.print(&["--grep", "workers.iter", "-W", "src/pool.rs"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "src/pool.rs:L13-16 method Pool.run\n13     pub fn run(&self) -> usize {\n14         /* a block comment: run run run */\n15:         self.workers.iter().map(|w| w.run()).sum()\n16     }\n# 1 hit in 1 file\n"
    );
    let mut long = String::from("def long_one():\n");
    for line in 0..80 {
        long.push_str(&format!("    step_{line} = {line}\n"));
    }
    env.write("long.py", &long);
    let (out, _, _) = env.print(&["--grep", "step_40 =", "--function-context", "long.py"]);
    assert_eq!(
        out,
        "long.py:L1-81 function long_one\n1 def long_one():\n--\n41     step_39 = 39\n42:     step_40 = 40\n43     step_41 = 41\n… 81 lines: --symbol long.py#1 reads it whole\n# 1 hit in 1 file\n"
    );
    // A definition is shown by its signature alone: the uses are the answer.
    let (out, _, _) = env.print(&["--refs", "run_pool", "-W", "src"]);
    assert!(
        out.starts_with(
            "src/pool.rs:L19-21 function pub run_pool(pool: &Pool) -> usize  [definition]\n"
        ),
        "{out}"
    );
    assert!(!out.contains("\n20 "), "{out}");
}

#[test]
fn find_body_prints_every_body_within_the_output_cap() {
    let env = tree();
    let (out, err, code) = env.print(&["--find", "new", "--body", "src"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("# method: Pool.new (src/pool.rs, L8-11)"),
        "{out}"
    );
    assert!(
        out.contains("# method: Worker.new (src/worker.rs, L9-11)"),
        "{out}"
    );
    // Past the cap the first body still prints, the rest are listed by their lines.
    let (out, _, code) = env.print(&["--find", "new", "--body", "--max-output", "250", "src"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("# method: Pool.new (src/pool.rs, L8-11)"),
        "{out}"
    );
    assert!(
        out.contains("\nsrc/worker.rs:L9-11 method pub Worker.new(id: usize) -> Worker\n# … stopped at the output cap of 250 bytes after 1 of 2 bodies; 1 more listed above"),
        "{out}"
    );
}

#[test]
fn refs_to_a_depth_print_a_bounded_tree_of_callers() {
    let env = tree();
    let (out, err, code) = env.print(&["--refs", "Worker.new", "--depth", "3", "src"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("# callers of 'Worker.new', 3 levels"),
        "{out}"
    );
    assert_eq!(lines[1], "src/pool.rs:L8-11 method Pool.new  (uses at L9)");
    // The next level nests under its callee; a namesake is not its own caller.
    assert_eq!(
        lines[2],
        "  src/worker.rs:L32-34 function tests.run  (uses at L33)"
    );
    assert!(
        lines[3].starts_with("    src/pool.rs:L13-16 method Pool.run"),
        "{out}"
    );
    // A caller met again is not followed twice.
    assert_eq!(
        lines.last().copied(),
        Some("L32-34 function tests.run  (uses at L33)  (callers above)")
    );
    // ... in the file named by the nearest line above that names one.
    let named_above = lines[..lines.len() - 1]
        .iter()
        .rev()
        .find_map(|line| line.trim_start().split_once(":L").map(|(path, _)| path));
    assert_eq!(named_above, Some("src/worker.rs"), "{out}");
    // Bounded: by levels, and by the caller cap with a note.
    let (_, err, code) = env.print(&["--refs", "run", "--depth", "7", "src"]);
    assert_eq!(code, 2);
    assert!(err.contains("at most 6 levels"), "{err}");
    let (out, _, _) = env.print(&[
        "--refs",
        "Worker.new",
        "--depth",
        "3",
        "--max-results",
        "2",
        "src",
    ]);
    assert!(out.ends_with("# … stopped at the caller cap (raise --max-results or --max-output, or narrow with PATH, --glob or --no-tests)\n"), "{out}");
    assert_eq!(out.lines().count(), 4, "{out}");
}
