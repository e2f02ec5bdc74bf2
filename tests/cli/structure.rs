//! Text that stresses structure, end to end: nesting past a scanner's limit is marked, never
//! silent; same-line siblings keep source order; empty keys keep a qualname segment; lone-CR
//! files have lines; a line longer than the read cap is still outlined, with a note.

use super::contract::assert_contract;
use super::util::{json, run, TestEnv};
use serde_json::Value;

/// Every node, depth first.
fn nodes(file: &Value) -> Vec<&Value> {
    fn visit<'a>(nodes: &'a Value, out: &mut Vec<&'a Value>) {
        for node in nodes.as_array().into_iter().flatten() {
            out.push(node);
            visit(&node["children"], out);
        }
    }
    let mut out = Vec::new();
    visit(&file["entries"], &mut out);
    out
}

fn print_json(env: &TestEnv, file: &str, extra: &[&str]) -> Value {
    let mut cmd = env.cmd();
    cmd.args(["--print", "--json"]).args(extra).arg(file);
    let (out, err, code) = run(cmd);
    assert_eq!(code, 0, "{err}");
    let value = json(&out);
    assert_contract(&value);
    value
}

#[test]
fn nesting_limits_mark_the_deepest_node_in_every_output() {
    let env = TestEnv::new();
    // Each past its scanner's own limit, and HTML and CSS past the model's 50 levels.
    let cases = [
        (
            "deep.rs",
            "mod m {".repeat(60) + "fn f() {}" + &"}".repeat(60),
        ),
        (
            "deep.cpp",
            "namespace n {".repeat(70) + "int f() { return 0; }" + &"}".repeat(70),
        ),
        (
            "deep.ts",
            "namespace n {".repeat(20) + "function f() {}" + &"}".repeat(20),
        ),
        ("deep.html", "<div>".repeat(120) + "<p id=x></p>"),
        ("deep.css", "a {".repeat(120) + "b {}" + &"}".repeat(120)),
    ];
    for (name, text) in &cases {
        env.write(name, text);
        let file = print_json(&env, name, &[]);
        let marked: Vec<&Value> = nodes(&file)
            .into_iter()
            .filter(|n| n.get("truncated").is_some())
            .collect();
        assert_eq!(marked.len(), 1, "{name}: one node marked");
        assert_eq!(marked[0]["truncation_reason"], "max_nesting", "{name}");
        assert!(marked[0].get("children").is_none(), "{name}");
        // A depth budget that stops above it reports its own reason.
        let shallow = print_json(&env, name, &["--depth", "2"]);
        assert!(
            nodes(&shallow)
                .iter()
                .all(|n| n.get("truncation_reason").is_none_or(|r| r == "max_depth")),
            "{name}"
        );
        let mut text = env.cmd();
        text.args(["--print", "--depth", "99", name]);
        let (out, _, _) = run(text);
        assert_eq!(
            out.matches("… (deeper entries not outlined: nesting limit)")
                .count(),
            1,
            "{name}:\n{out}"
        );
    }
    // `--symbol` on the marked node says the same.
    let file = print_json(&env, "deep.rs", &[]);
    let marked = nodes(&file)
        .into_iter()
        .find(|n| n.get("truncated").is_some())
        .map(|n| n["id"].as_str().unwrap().to_string())
        .expect("a marked node");
    let mut cmd = env.cmd();
    cmd.args(["--print", "--json", "--symbol", &marked, "deep.rs"]);
    let (out, err, code) = run(cmd);
    assert_eq!(code, 0, "{err}");
    let read = json(&out);
    assert_eq!(read["node"]["truncation_reason"], "max_nesting");
    assert!(read["node"].get("children").is_none());
    let mut members = env.cmd();
    members.args(["--print", "--symbol", &marked, "--depth", "3", "deep.rs"]);
    let (out, err, code) = run(members);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("… (deeper entries not outlined: nesting limit)"),
        "{out}"
    );
    // Search still finds what lies inside, attributed to the marked node.
    let mut grep = env.cmd();
    grep.args(["--print", "--json", "--grep", "fn f", "deep.rs"]);
    let (out, err, code) = run(grep);
    assert_eq!(code, 0, "{err}");
    let hit = json(out.lines().next().expect("a hit"));
    assert_eq!(hit["entry"]["id"].as_str(), Some(marked.as_str()), "{out}");
}

#[test]
fn same_line_siblings_keep_source_order() {
    let env = TestEnv::new();
    env.write("a.html", "<div></div><section>\n<p>x</p>\n</section>\n");
    env.write("a.css", ".a{} @media x {\n.b{}\n}\n");
    for (name, want) in [
        ("a.html", ["1 div", "2 section"]),
        ("a.css", ["1 .a", "2 @media x"]),
    ] {
        let file = print_json(&env, name, &[]);
        let got: Vec<String> = file["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .map(|n| {
                format!(
                    "{} {}",
                    n["id"].as_str().unwrap(),
                    n["name"].as_str().unwrap()
                )
            })
            .collect();
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn an_empty_key_keeps_a_qualname_segment() {
    let env = TestEnv::new();
    env.write("e.json", "{\"\": {\"a\": 1},\n \"a\": 2}\n");
    let file = print_json(&env, "e.json", &[]);
    let qualnames: Vec<&str> = nodes(&file)
        .iter()
        .map(|n| n["qualname"].as_str().unwrap())
        .collect();
    assert_eq!(qualnames, ["\"\"", "\"\".a", "a"]);
    let mut cmd = env.cmd();
    cmd.args(["--print", "--symbol", "a", "e.json"]);
    let (out, err, code) = run(cmd);
    assert_eq!(code, 0);
    assert!(out.starts_with("# key: a (e.json, L2)"), "{out}");
    assert!(err.contains("\"\".a"), "{err}");
}

#[test]
fn lone_carriage_returns_end_lines_in_every_output() {
    let env = TestEnv::new();
    env.write(
        "old.py",
        "def f():\r    return 1\rclass K:\r    def m(self):\r        pass\r",
    );
    let file = print_json(&env, "old.py", &[]);
    assert_eq!(file["lines"], 5);
    let ranges: Vec<String> = nodes(&file)
        .iter()
        .map(|n| {
            format!(
                "{} {}-{}",
                n["qualname"].as_str().unwrap(),
                n["line"],
                n["end_line"]
            )
        })
        .collect();
    assert_eq!(ranges, ["f 1-2", "K 3-5", "K.m 4-5"]);
    let mut symbol = env.cmd();
    symbol.args(["--print", "--symbol", "K.m", "old.py"]);
    let (out, _, code) = run(symbol);
    assert_eq!(code, 0);
    assert!(
        out.contains("4     def m(self):\n5         pass\n"),
        "{out}"
    );
    let mut lines = env.cmd();
    lines.args(["--print", "--json", "--lines", "2:2", "old.py"]);
    let (out, _, _) = run(lines);
    let read = json(&out);
    assert_eq!(read["lines"], 5);
    assert_eq!(read["text"], "    return 1\n");
    // Search numbers and cuts lines the same way; a `#` comment ends at the `\r`.
    env.write(
        "hits.py",
        "def f():\r    return 1 # run\rclass K:\r    def m(self):\r        run()\r",
    );
    let mut grep = env.cmd();
    grep.args(["--print", "--grep", "run", "-C", "1", "hits.py"]);
    let (out, err, code) = run(grep);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "hits.py:L1-2 function f\n\
         1 def f():\n\
         2:     return 1 # run\n\
         3 class K:\n\
         L4-5 method K.m\n\
         4     def m(self):\n\
         5:         run()\n\
         # 2 hits in 1 file\n"
    );
    let mut code_only = env.cmd();
    code_only.args([
        "--print",
        "--json",
        "--grep",
        "run",
        "--code-only",
        "hits.py",
    ]);
    let (out, err, code) = run(code_only);
    assert_eq!(code, 0, "{err}");
    let hits: Vec<Value> = out.lines().map(json).collect();
    let lines: Vec<&Value> = hits.iter().filter_map(|hit| hit.get("line")).collect();
    assert_eq!(lines, [&Value::from(5)], "{out}");
}

#[test]
fn a_one_line_file_past_the_read_cap_is_outlined_with_a_note() {
    let env = TestEnv::new();
    // 11 MB of minified JSON on one line, built here rather than committed.
    let items = "1,".repeat(5_500_000);
    env.write(
        "big.json",
        &format!("{{\"head\": {{\"k\": 1}}, \"items\": [{items}0]}}"),
    );
    let file = print_json(&env, "big.json", &[]);
    let limit = file["input_limit"].as_str().expect("a note");
    assert!(limit.contains("line 1 is cut"), "{limit}");
    let names: Vec<&str> = nodes(&file)
        .iter()
        .map(|n| n["qualname"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["head", "head.k", "items"]);
    let mut text = env.cmd();
    text.args(["--print", "big.json"]);
    let (out, _, _) = run(text);
    assert!(out.contains("# Limit: file has 11,000,"), "{out}");
}
