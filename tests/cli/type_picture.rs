//! A type's whole picture: `--find Type` lists every declaration that adds to the type
//! anywhere in the paths, marked as what it is, and `--symbol Type --depth 2` the members of
//! all of them, each under its file and range; the same over JSON and MCP.

use super::mcp::{call, start, text};
use super::util::{json_lines, TestEnv};
use serde_json::json;

/// A tree where each language spreads one type over two files.
fn spread_types() -> TestEnv {
    let env = TestEnv::new();
    env.write(
        "go/daemon.go",
        "package daemon\n\ntype Daemon struct {\n\tname string\n}\n\nfunc (d *Daemon) Start() error {\n\treturn nil\n}\n",
    );
    env.write(
        "go/stop.go",
        "package daemon\n\nfunc (d *Daemon) Stop() {\n}\n\nfunc (d Daemon) Name() string {\n\treturn d.name\n}\n\nfunc helper() {}\n",
    );
    env.write(
        "rust/entry.rs",
        "pub struct Entry {\n    pub name: String,\n}\n\nimpl Entry {\n    pub fn new() -> Entry {\n        Entry { name: String::new() }\n    }\n}\n",
    );
    env.write(
        "rust/show/display.rs",
        "use std::fmt;\n\nimpl fmt::Display for Entry {\n    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n        f.write_str(&self.name)\n    }\n}\n",
    );
    env.write(
        "swift/Shape.swift",
        "class Shape {\n    func area() -> Double {\n        return 0\n    }\n}\n",
    );
    env.write(
        "swift/Shape+Draw.swift",
        "extension Shape: Drawable {\n    func draw() {\n    }\n}\n",
    );
    env.write(
        "kotlin/Text.kt",
        "class Text {\n    fun size(): Int {\n        return 0\n    }\n}\n",
    );
    env.write(
        "kotlin/Shout.kt",
        "fun Text.shout(): String {\n    return \"!\"\n}\n",
    );
    env.write(
        "csharp/Form.cs",
        "public partial class Form {\n    void Load() {\n    }\n}\n",
    );
    env.write(
        "csharp/Form.Designer.cs",
        "public partial class Form {\n    void InitializeComponent() {\n    }\n}\n",
    );
    env.write("ts/a.ts", "export interface Box {\n  a: number;\n}\n");
    env.write(
        "ts/b.ts",
        "export interface Box {\n  b: string;\n}\nexport namespace Box {\n  export const x = 1;\n}\n",
    );
    env.write(
        "ruby/cart.rb",
        "class Cart\n  def total\n    0\n  end\nend\n",
    );
    env.write(
        "ruby/discount.rb",
        "class Cart\n  def discount\n    1\n  end\nend\n",
    );
    env
}

/// Standard output of a successful `outline` run.
fn stdout(env: &TestEnv, args: &[&str]) -> String {
    let (out, err, code) = env.print(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

#[test]
fn find_lists_a_go_types_receiver_methods_one_line_per_file() {
    let env = spread_types();
    let out = stdout(&env, &["--find", "Daemon", "go"]);
    assert_eq!(
        out,
        "go/daemon.go:L3-5 struct Daemon\n\
         L7-9 receiver methods (1): Start\n\
         go/stop.go:L3-8 receiver methods (2): Stop, Name\n"
    );
}

#[test]
fn find_lists_rust_impls_after_the_type_itself() {
    let env = spread_types();
    let out = stdout(&env, &["--find", "Entry", "rust"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "rust/entry.rs:L1-3 struct pub Entry",
            "L5-9 impl Entry",
            "rust/show/display.rs:L3-7 impl fmt::Display for Entry",
            "# built at (1 site; --refs Entry -W shows every use):",
            "rust/entry.rs:L6-8 method Entry.new",
            "7:         Entry { name: String::new() }",
        ]
    );
}

#[test]
fn find_marks_extensions_partials_and_reopened_classes() {
    let env = spread_types();
    let cases = [
        (
            "Shape",
            "swift/Shape+Draw.swift:L1-4 extension Shape: Drawable",
        ),
        (
            "Text",
            "kotlin/Shout.kt:L1-3 extension functions (1): shout",
        ),
        (
            "Form",
            "csharp/Form.cs:L1-4 class public partial class Form  (partial)",
        ),
        ("Cart", "ruby/discount.rb:L1-5 class Cart  (reopened)"),
        // The second declaration in ts/b.ts is in the file named on the line above.
        ("Box", "L4-6 namespace export Box  (merged)"),
    ];
    for (query, line) in cases {
        let out = stdout(&env, &["--find", query, "."]);
        assert!(out.lines().any(|l| l == line), "{query}: {out}");
        assert!(out.lines().count() >= 2, "{query}: {out}");
    }
}

#[test]
fn find_json_says_what_each_addition_is() {
    let env = spread_types();
    let out = stdout(&env, &["--json", "--find", "Entry", "rust"]);
    let objects = json_lines(&out);
    let adds: Vec<(&str, &str)> = objects
        .iter()
        .map(|o| {
            (
                o["adds"].as_str().unwrap_or("-"),
                o["implements"].as_str().unwrap_or("-"),
            )
        })
        .collect();
    assert_eq!(adds, [("-", "-"), ("impl", "-"), ("impl", "Display")]);
    let out = stdout(&env, &["--json", "--find", "Daemon", "go"]);
    let group = &json_lines(&out)[2];
    assert_eq!(group["adds"], "members");
    assert_eq!(group["owner"], "Daemon");
    assert_eq!(group["count"], 2);
    assert_eq!(group["members"][1]["name"], "Daemon.Name");
}

#[test]
fn additions_count_against_max_results_with_a_note() {
    let env = spread_types();
    let out = stdout(&env, &["--find", "Daemon", "--max-results", "1", "go"]);
    assert!(
        out.starts_with("go/daemon.go:L3-5 struct Daemon\n"),
        "{out}"
    );
    assert!(
        out.contains("go/daemon.go:L3-5 struct Daemon\nL7-9 receiver methods (1): Start"),
        "{out}"
    );
    assert!(out.contains("# … 1 more matches"), "{out}");
    assert!(!out.contains("go/stop.go"), "{out}");
}

#[test]
fn additions_stop_at_the_output_cap_with_a_note() {
    let env = spread_types();
    let out = stdout(&env, &["--find", "Daemon", "--max-output", "80", "go"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[2].starts_with("# … stopped at the output cap of 80 bytes after 2 of 3 matches"),
        "{out}"
    );
}

#[test]
fn symbol_with_depth_lists_the_members_of_every_part() {
    let env = spread_types();
    let out = stdout(&env, &["--symbol", "Daemon", "--depth", "2", "go"]);
    for member in [
        "L4 field name string",
        "# receiver methods of Daemon (go/daemon.go, L7-9)",
        "L7-9 method (d *Daemon) Start() error",
        "# receiver methods of Daemon (go/stop.go, L3-8)",
        "L6-8 method (d Daemon) Name() string",
    ] {
        assert!(out.contains(member), "{member}: {out}");
    }
    assert!(!out.contains("helper"), "{out}");
    // JSON: one file object per part, holding only that part's entries.
    let out = stdout(
        &env,
        &["--json", "--symbol", "Daemon", "--depth", "2", "go"],
    );
    let parts: Vec<(String, usize)> = json_lines(&out)
        .iter()
        .map(|o| {
            (
                o["path"].as_str().unwrap_or("").to_string(),
                o["entries"].as_array().map_or(0, Vec::len),
            )
        })
        .collect();
    let want = [("go/daemon.go", 1), ("go/daemon.go", 1), ("go/stop.go", 2)];
    assert_eq!(parts, want.map(|(p, n)| (p.to_string(), n)));
    let out = stdout(&env, &["--symbol", "Entry", "--depth", "2", "rust"]);
    for member in [
        "rust/entry.rs",
        "new() -> Entry",
        "rust/show/display.rs",
        "method fmt(",
    ] {
        assert!(out.contains(member), "{member}: {out}");
    }
}

#[test]
fn symbol_with_depth_lists_an_inherent_impl_beside_its_struct() {
    let env = TestEnv::new();
    env.write(
        "lib.rs",
        "pub struct Stack {\n    items: Vec<u8>,\n}\n\nimpl Stack {\n    pub fn push(&mut self) {\n    }\n}\n",
    );
    let out = stdout(&env, &["--symbol", "Stack", "--depth", "2", "."]);
    // The part with members first, as on one file; the struct (fields not outlined) after.
    assert!(out.starts_with("# impl: Stack (lib.rs, L5-8"), "{out}");
    assert!(out.contains("L6-7 method pub push(&mut self)"), "{out}");
    assert!(out.contains("\n# struct: Stack (lib.rs, L1-3"), "{out}");
}

/// A Kotlin type built by its builder and a companion factory, which other classes call;
/// a nested builder, a getter and a type annotation build nothing.
fn built_type() -> TestEnv {
    let env = TestEnv::new();
    env.write(
        "lib/Cache.kt",
        "class Cache internal constructor(val size: Int) {\n  class Builder {\n    fun build(): Cache = commonBuild()\n  }\n\n  companion object {\n    fun parse(text: String): Cache = commonParse(text)\n  }\n}\n",
    );
    env.write(
        "lib/CacheCommon.kt",
        "internal fun Cache.Builder.commonBuild(): Cache {\n  return Cache(1)\n}\n\ninternal fun Cache.Companion.commonParse(text: String): Cache {\n  return Cache(text.length)\n}\n",
    );
    env.write(
        "lib/Request.kt",
        "class Request {\n  val cache: Cache\n    get() {\n      return Cache.parse(\"x\")\n    }\n\n  fun cache(): Cache = cache\n\n  fun builder() = Cache.Builder()\n}\n",
    );
    env.write(
        "app/Main.java",
        "class Main {\n  Cache make() {\n    return new Cache.Builder().build();\n  }\n}\n",
    );
    env
}

#[test]
fn find_says_where_a_type_is_built_and_what_returns_one() {
    let env = built_type();
    let out = stdout(&env, &["--find", "Cache", "."]);
    let built = out
        .split_once("# built at")
        .map(|(_, rest)| rest)
        .unwrap_or_else(|| panic!("no build sites: {out}"));
    assert_eq!(
        built.lines().collect::<Vec<_>>(),
        [
            " (3 sites; --refs Cache -W shows every use):",
            "lib/CacheCommon.kt:L1-3 function Cache.Builder.commonBuild",
            "2:   return Cache(1)",
            "L5-7 function Cache.Companion.commonParse",
            "6:   return Cache(text.length)",
            "lib/Request.kt:L2-5 property Request.cache",
            "4:       return Cache.parse(\"x\")",
            // Nearest the type's declaration first.
            "# returned by (3 functions):",
            "lib/Cache.kt:L3 method Cache.Builder.build",
            "L7 method Cache.Companion.parse",
            "app/Main.java:L2-4 method Main.make",
        ],
        "{out}"
    );
    // The extensions of its nested builder and companion are part of its picture.
    assert!(
        out.contains("extension functions (2): Builder.commonBuild, Companion.commonParse"),
        "{out}"
    );
    // Smart case: a lower-case query finds the type and its sites as the code spells it.
    let lower = stdout(&env, &["--find", "cache", "."]);
    assert!(
        lower.contains("# built at (3 sites; --refs Cache -W"),
        "{lower}"
    );
    // A kind narrows the declarations, not the build sites.
    let narrowed = stdout(&env, &["--find", "class Cache", "."]);
    assert!(narrowed.contains("# built at (3 sites;"), "{narrowed}");
    // The output cap holds for them too, with a note.
    let capped = stdout(&env, &["--find", "Cache", ".", "--max-output", "200"]);
    assert!(capped.len() <= 200 + 120, "{capped}");
    assert!(
        capped.ends_with("lines of where it is built not shown: output cap of 200 bytes reached (raise --max-output)\n"),
        "{capped}"
    );
    // JSON lines keep the contract's objects.
    let json = stdout(&env, &["--find", "Cache", ".", "--json"]);
    assert!(!json.contains("built at"), "{json}");
}

#[tokio::test]
async fn mcp_find_and_symbol_show_the_whole_type() {
    let env = spread_types();
    let client = start(env.path(), &[]).await;
    let found = call(&client, "find", json!({"query": "Entry", "path": "rust"})).await;
    assert!(
        text(&found).contains("rust/show/display.rs:L3-7 impl fmt::Display for Entry"),
        "{}",
        text(&found)
    );
    let members = call(
        &client,
        "symbol",
        json!({"query": "Daemon", "path": "go", "depth": 2}),
    )
    .await;
    assert!(text(&members).contains("Stop()"), "{}", text(&members));
    let built = call(&client, "find", json!({"query": "Entry", "path": "rust"})).await;
    assert!(
        text(&built).contains("# built at (1 site;"),
        "{}",
        text(&built)
    );
    client.cancel().await.expect("close");
}

#[test]
fn members_inside_the_body_are_not_additions() {
    let env = TestEnv::new();
    env.write(
        "app.rb",
        "class App\n  class << self\n    def build\n    end\n  end\n\n  def self.run\n  end\nend\n",
    );
    let out = stdout(&env, &["--find", "App", "."]);
    assert!(
        out.contains("class App") && !out.contains("members ("),
        "{out}"
    );
}

#[test]
fn symbol_with_depth_leaves_out_namesake_functions_and_says_so() {
    let env = spread_types();
    env.write(
        "go/status.go",
        "package daemon\n\ntype Status struct{}\n\nfunc (s Status) Daemon() string {\n\treturn \"\"\n}\n\nfunc (d Daemon) Daemon() string {\n\treturn d.name\n}\n",
    );
    let out = stdout(&env, &["--symbol", "Daemon", "--depth", "2", "go"]);
    // The type's own method of its name stays; another type's namesake method goes, counted.
    assert!(out.contains("(d Daemon) Daemon() string"), "{out}");
    assert!(!out.contains("(s Status) Daemon()"), "{out}");
    assert!(
        out.ends_with(
            "# 1 function or method named 'Daemon' left out (--find Daemon lists them)\n"
        ),
        "{out}"
    );
    assert!(out.contains("L4 field name string"), "{out}");
}
