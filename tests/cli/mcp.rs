//! `outline mcp` end to end: the built binary driven by rmcp's own client over stdio, in a
//! temp directory as its root. Every answer is checked against what the command line prints
//! for the same request, since the server must be a thin adapter over it.

use super::util::{outline, run, TestEnv};
use outliner::tokens::Tokenizer;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::time::Duration;

pub(crate) type Client = RunningService<RoleClient, ()>;

const APP: &str = "\
import os


class Loader:
    \"\"\"Loads things.\"\"\"

    def load(self, path):
        return open(path).read()

    def save(self, path, text):
        with open(path, 'w') as f:
            f.write(text)


def main():
    Loader().load(os.environ['X'])
";

/// The server started in `root` with `args` after `mcp`, connected through rmcp's client.
pub(crate) async fn start(root: &Path, args: &[&str]) -> Client {
    let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_outline")).configure(|cmd| {
        cmd.arg("mcp")
            .args(args)
            .current_dir(root)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default());
    });
    let transport = TokioChildProcess::new(command).expect("spawn outline mcp");
    ().serve(transport).await.expect("initialize")
}

pub(crate) async fn call(client: &Client, tool: &str, arguments: Value) -> CallToolResult {
    let arguments = arguments.as_object().cloned().expect("an object");
    let params = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
    client.call_tool(params).await.expect("a tool result")
}

/// The answer's first content block.
pub(crate) fn text(result: &CallToolResult) -> &str {
    result.content[0]
        .as_text()
        .expect("text content")
        .text
        .as_str()
}

fn is_error(result: &CallToolResult) -> bool {
    result.is_error == Some(true)
}

/// The command line's stdout for `args` in `dir`.
fn cli(dir: &Path, args: &[&str]) -> String {
    let mut cmd = outline();
    cmd.current_dir(dir).args(args);
    let (stdout, stderr, code) = run(cmd);
    assert_eq!(code, 0, "outline {args:?}: {stderr}");
    stdout
}

fn cli_hash(dir: &Path, file: &str) -> String {
    let object: Value =
        serde_json::from_str(&cli(dir, &["--print", "--json", file])).expect("json");
    object["hash"].as_str().expect("hash").to_string()
}

/// Proves the server still answers: an outline of the app file.
async fn still_answers(client: &Client) {
    let result = call(client, "outline", json!({"path": "app.py"})).await;
    assert!(!is_error(&result), "{}", text(&result));
    assert!(text(&result).contains("class Loader"));
}

pub(crate) fn env_with_app() -> TestEnv {
    let env = TestEnv::new();
    env.write("app.py", APP);
    env
}

#[tokio::test]
async fn tools_are_listed_with_schemas() {
    let env = env_with_app();
    let client = start(env.path(), &[]).await;
    let tools = client.list_all_tools().await.expect("tools");
    let mut names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        ["find", "grep", "lines", "outline", "read", "refs", "symbol"]
    );
    for tool in &tools {
        let schema = &tool.input_schema;
        assert_eq!(schema["type"], "object", "{}", tool.name);
        assert_eq!(schema["additionalProperties"], false, "{}", tool.name);
        assert!(
            schema["properties"]["max_tokens"].is_object(),
            "{}",
            tool.name
        );
        assert!(schema["properties"]["json"].is_object(), "{}", tool.name);
        let description = tool.description.as_deref().unwrap_or_default();
        assert!(description.contains("Example: {"), "{}", tool.name);
    }
    let required = |name: &str| {
        let tool = tools.iter().find(|tool| tool.name == name).expect("listed");
        tool.input_schema
            .get("required")
            .cloned()
            .unwrap_or_default()
    };
    assert_eq!(required("symbol"), json!(["path", "query"]));
    assert_eq!(required("lines"), json!(["path", "range"]));
    assert_eq!(required("read"), json!(["path"]));
    assert_eq!(required("outline"), Value::Null);
    assert_eq!(required("find"), json!(["query"]));
    assert_eq!(required("grep"), json!(["pattern"]));
    assert_eq!(required("refs"), json!(["name"]));
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn each_tool_answers_as_the_command_line_does() {
    let env = env_with_app();
    env.write("docs/guide.md", "# Guide\n\n## Install\n\ntext\n");
    let dir = env.path();
    let hash = cli_hash(dir, "app.py");
    let client = start(dir, &[]).await;
    let cases = [
        (
            "outline",
            json!({"path": "app.py"}),
            vec!["--print", "app.py"],
        ),
        (
            "outline",
            json!({"path": "app.py", "depth": 1, "signatures": false}),
            vec!["--print", "--depth", "1", "--no-signatures", "app.py"],
        ),
        (
            "symbol",
            json!({"path": "app.py", "query": "Loader.save"}),
            vec!["--print", "--symbol", "Loader.save", "app.py"],
        ),
        ("read", json!({"path": "app.py"}), vec!["--read", "app.py"]),
        (
            "lines",
            json!({"path": "app.py", "range": "-3:"}),
            vec!["--lines", "-3:", "app.py"],
        ),
    ];
    for (tool, arguments, argv) in cases {
        let result = call(&client, tool, arguments.clone()).await;
        assert!(!is_error(&result), "{tool} {arguments}: {}", text(&result));
        let expected = format!("{}hash: {hash}\n", cli(dir, &argv));
        assert_eq!(text(&result), expected, "{tool} {arguments}");
    }
    // Several symbols, in a folder, and a symbol's members.
    let several = call(
        &client,
        "symbol",
        json!({"path": ".", "query": ["Loader.load", "main"]}),
    )
    .await;
    let argv = [
        "--print",
        "--symbol",
        "Loader.load",
        "--symbol",
        "main",
        ".",
    ];
    assert_eq!(text(&several), cli(dir, &argv));
    assert!(text(&several).contains("def main():"), "{}", text(&several));
    let members = call(
        &client,
        "symbol",
        json!({"path": "app.py", "query": "Loader", "depth": 1}),
    )
    .await;
    let argv = ["--print", "--symbol", "Loader", "--depth", "1", "app.py"];
    assert_eq!(text(&members), format!("{}hash: {hash}\n", cli(dir, &argv)));
    // A folder has no single hash; JSON carries each file's.
    let folder = call(&client, "outline", json!({"path": "docs"})).await;
    assert_eq!(text(&folder), cli(dir, &["--print", "docs"]));
    let json_answer = call(&client, "outline", json!({"path": "app.py", "json": true})).await;
    let object: Value = serde_json::from_str(text(&json_answer)).expect("json");
    assert_eq!(object["hash"], hash.as_str());
    assert_eq!(object["entries"][0]["name"], "Loader");
    let read = call(
        &client,
        "lines",
        json!({"path": "app.py", "range": "4:4", "json": true}),
    )
    .await;
    let object: Value = serde_json::from_str(text(&read)).expect("json");
    assert_eq!(
        (object["text"].as_str(), object["start_line"].as_u64()),
        (Some("class Loader:\n"), Some(4))
    );
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn searches_answer_as_the_command_line_does() {
    let env = env_with_app();
    env.write(
        "src/store.py",
        "from app import Loader\n\n\ndef keep(path):\n    # Loader is named in a comment\n    return Loader().load(path)\n",
    );
    let dir = env.path();
    let client = start(dir, &[]).await;
    let cases = [
        (
            "find",
            json!({"query": "load"}),
            vec!["--print", "--find", "load", "."],
        ),
        (
            "find",
            json!({"query": "*", "kind": "class", "path": ["app.py", "src"]}),
            vec!["--print", "--find", "*", "--kind", "class", "app.py", "src"],
        ),
        (
            "grep",
            json!({"pattern": "Loader\\(\\)", "glob": "*.py", "context": 1}),
            vec![
                "--print",
                "--grep",
                "Loader\\(\\)",
                "--glob",
                "*.py",
                "-C",
                "1",
                ".",
            ],
        ),
        (
            "grep",
            json!({"pattern": "Loader", "code_only": true, "path": "src"}),
            vec!["--print", "--grep", "Loader", "--code-only", "src"],
        ),
        (
            "refs",
            json!({"name": "Loader", "json": true}),
            vec!["--print", "--refs", "Loader", "--json", "."],
        ),
        (
            "refs",
            json!({"name": "save(self, path, text)"}),
            vec!["--print", "--refs", "save(self, path, text)", "."],
        ),
        (
            "refs",
            json!({"name": "Loader", "function_context": true}),
            vec!["--print", "--refs", "Loader", "-W", "."],
        ),
    ];
    for (tool, arguments, argv) in cases {
        let result = call(&client, tool, arguments.clone()).await;
        assert!(!is_error(&result), "{tool} {arguments}: {}", text(&result));
        assert_eq!(text(&result), cli(dir, &argv), "{tool} {arguments}");
    }
    // Nothing found is a tool error that says so (the command line's exit 1).
    let none = call(&client, "find", json!({"query": "no_such_name"})).await;
    assert!(
        is_error(&none) && text(&none).contains("no definition matches"),
        "{}",
        text(&none)
    );
    let bad = call(&client, "grep", json!({"pattern": "("})).await;
    assert!(
        is_error(&bad) && text(&bad).contains("column"),
        "{}",
        text(&bad)
    );
    let outside = call(&client, "refs", json!({"name": "x", "path": ".."})).await;
    assert!(
        is_error(&outside) && text(&outside).contains("outside --root"),
        "{}",
        text(&outside)
    );
    // A missing path is an error in every tool, in the same words.
    for (tool, arguments) in [
        ("outline", json!({"path": "nosuch"})),
        ("find", json!({"query": "load", "path": "nosuch"})),
        ("grep", json!({"pattern": "load", "path": "nosuch"})),
        ("refs", json!({"name": "load", "path": "nosuch"})),
    ] {
        let missing = call(&client, tool, arguments).await;
        assert!(is_error(&missing), "{tool}: {}", text(&missing));
        assert_eq!(
            text(&missing).trim_end(),
            "nosuch: no such file or directory",
            "{tool}"
        );
    }
    // A search is cut by result lines, with a way to narrow it.
    env.write("many.py", &many_functions(300));
    let cut = call(
        &client,
        "grep",
        json!({"pattern": "return", "max_tokens": 300}),
    )
    .await;
    assert!(
        text(&cut).contains("more lines not shown; narrow with path or glob"),
        "{}",
        text(&cut)
    );
    assert!(tokens(text(&cut)) <= 300);
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn a_stale_hash_is_refused_and_a_fresh_one_reads() {
    let env = env_with_app();
    let dir = env.path();
    let client = start(dir, &[]).await;
    let hash = cli_hash(dir, "app.py");
    let fresh = call(
        &client,
        "symbol",
        json!({"path": "app.py", "query": "main", "if_hash": hash}),
    )
    .await;
    assert!(
        !is_error(&fresh) && text(&fresh).contains("def main():"),
        "{}",
        text(&fresh)
    );
    env.write("app.py", &APP.replace("main", "start"));
    let stale_calls = [
        (
            "symbol",
            json!({"path": "app.py", "query": "start", "if_hash": hash}),
        ),
        ("read", json!({"path": "app.py", "if_hash": hash})),
        (
            "lines",
            json!({"path": "app.py", "range": "1:2", "if_hash": hash}),
        ),
    ];
    for (tool, arguments) in stale_calls {
        let stale = call(&client, tool, arguments).await;
        assert!(is_error(&stale), "{tool}: {}", text(&stale));
        assert!(
            text(&stale).starts_with("stale: app.py changed"),
            "{}",
            text(&stale)
        );
    }
    still_answers(&client).await;
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn paths_outside_the_root_are_refused() {
    let env = TestEnv::new();
    env.write("secret.py", "def secret():\n    pass\n");
    env.write("root/app.py", APP);
    let root = env.path().join("root");
    #[cfg(unix)]
    std::os::unix::fs::symlink(env.path().join("secret.py"), root.join("link.py"))
        .expect("symlink");
    let client = start(&root, &[]).await;
    let outside = env.path().join("secret.py");
    let mut attempts = vec![
        ("lines", json!({"path": "../secret.py", "range": "1:2"})),
        ("outline", json!({"path": outside.to_str().expect("utf-8")})),
        ("outline", json!({"path": ".."})),
        ("read", json!({"path": "sub/../../secret.py"})),
    ];
    if cfg!(unix) {
        attempts.push(("symbol", json!({"path": "link.py", "query": "secret"})));
    }
    for (tool, arguments) in attempts {
        let result = call(&client, tool, arguments.clone()).await;
        assert!(is_error(&result), "{tool} {arguments}: {}", text(&result));
        let message = text(&result);
        assert!(
            message.contains("outside --root") || message.contains("no such file"),
            "{arguments}: {message}"
        );
        assert!(!message.contains("def secret"), "{message}");
        still_answers(&client).await;
    }
    // The root itself and absolute paths inside it are fine.
    let inside = root.join("app.py");
    let result = call(
        &client,
        "outline",
        json!({"path": inside.to_str().expect("utf-8")}),
    )
    .await;
    assert!(!is_error(&result), "{}", text(&result));
    client.cancel().await.expect("close");
}

/// A Python file with `n` small functions.
fn many_functions(n: usize) -> String {
    (0..n)
        .map(|i| format!("def function_number_{i}(argument_{i}, other_{i}):\n    return argument_{i} + other_{i}\n\n"))
        .collect()
}

fn tokens(text: &str) -> usize {
    Tokenizer::O200k.count(text)
}

#[tokio::test]
async fn answers_are_cut_to_max_tokens_with_a_way_to_the_rest() {
    let env = TestEnv::new();
    env.write("big.py", &many_functions(400));
    let client = start(env.path(), &["--max-tokens", "600"]).await;
    outline_is_cut_by_whole_entries(&client).await;
    lines_cut_name_the_rest(&client).await;
    json_cut_stays_parseable(&client).await;

    // A folder is cut by lines, whole files' entries at a time.
    env.write("more/a.py", &many_functions(200));
    let folder = call(&client, "outline", json!({"path": "more"})).await;
    assert!(
        text(&folder).contains("more lines not shown"),
        "{}",
        text(&folder)
    );
    assert!(tokens(text(&folder)) <= 600);

    let tiny = call(
        &client,
        "outline",
        json!({"path": "big.py", "max_tokens": 10}),
    )
    .await;
    assert!(
        is_error(&tiny) && text(&tiny).contains("at least 200"),
        "{}",
        text(&tiny)
    );
    client.cancel().await.expect("close");
}

/// A file's outline keeps whole entries (the contract's max_nodes cut) and says so.
async fn outline_is_cut_by_whole_entries(client: &Client) {
    let outline = call(client, "outline", json!({"path": "big.py"})).await;
    let answer = text(&outline);
    assert!(tokens(answer) <= 600, "{} tokens", tokens(answer));
    assert!(
        answer.contains("[cut to fit max_tokens=600: the first "),
        "{answer}"
    );
    assert!(answer.contains("more top-level entries"), "{answer}");
    assert!(answer
        .lines()
        .last()
        .expect("lines")
        .starts_with("hash: xxh3:"));
}

/// Lines: the note names the range left, and asking for it continues where the cut was.
async fn lines_cut_name_the_rest(client: &Client) {
    let lines = call(
        client,
        "lines",
        json!({"path": "big.py", "range": "1:1200", "max_tokens": 300}),
    )
    .await;
    let answer = text(&lines);
    assert!(tokens(answer) <= 300, "{} tokens", tokens(answer));
    let range = answer
        .split("\"range\": \"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no range in {answer}"));
    let (first, last) = range.split_once(':').expect("A:B");
    assert_eq!(last, "1200");
    let shown_last = answer
        .lines()
        .rev()
        .find_map(|l| l.split(' ').next()?.parse::<usize>().ok());
    assert_eq!(
        shown_last.map(|n| n + 1).map(|n| n.to_string()).as_deref(),
        Some(first)
    );
    let rest = call(
        client,
        "lines",
        json!({"path": "big.py", "range": range, "max_tokens": 300}),
    )
    .await;
    assert!(
        text(&rest).starts_with(&format!("{first} ")),
        "{}",
        text(&rest)
    );
}

/// JSON stays parseable: a read object says it was cut, a file object uses max_nodes.
async fn json_cut_stays_parseable(client: &Client) {
    let json_read = call(
        client,
        "read",
        json!({"path": "big.py", "json": true, "max_tokens": 300}),
    )
    .await;
    let object: Value = serde_json::from_str(text(&json_read)).expect("json");
    assert_eq!(
        (
            object["truncated"].as_bool(),
            object["truncation_reason"].as_str()
        ),
        (Some(true), Some("max_tokens"))
    );
    let note = json_read
        .content
        .get(1)
        .and_then(|c| c.as_text())
        .expect("a note");
    assert!(note.text.contains("lines tool"), "{}", note.text);
    // `lines` in JSON carries the lines as written: the cut sets end_line from start_line, and
    // the note's range starts right after it.
    let json_lines = call(
        client,
        "lines",
        json!({"path": "big.py", "range": "3:1200", "json": true, "max_tokens": 300}),
    )
    .await;
    let object: Value = serde_json::from_str(text(&json_lines)).expect("json");
    let kept = object["text"].as_str().expect("text").lines().count() as u64;
    assert!(kept > 0, "{object}");
    assert_eq!(object["end_line"].as_u64(), Some(2 + kept), "{object}");
    let note = json_lines
        .content
        .get(1)
        .and_then(|c| c.as_text())
        .expect("a note");
    assert!(
        note.text
            .contains(&format!("\"range\": \"{}:1200\"", 3 + kept)),
        "{}",
        note.text
    );
    let json_outline = call(client, "outline", json!({"path": "big.py", "json": true})).await;
    let object: Value = serde_json::from_str(text(&json_outline)).expect("json");
    assert_eq!(object["truncation_reason"], "max_nodes");
    assert!(tokens(text(&json_outline)) <= 600);
}

#[tokio::test]
async fn the_server_stays_up_across_bad_requests() {
    let env = env_with_app();
    std::fs::write(env.path().join("blob.bin"), b"\x00\x01binary\x00").expect("write");
    let mut huge = std::fs::File::create(env.path().join("huge.py")).expect("create");
    let block = many_functions(1000);
    while huge.metadata().expect("meta").len() < 50 * 1024 * 1024 {
        huge.write_all(block.as_bytes()).expect("write");
    }
    drop(huge);
    let client = start(env.path(), &[]).await;

    // Unknown tool: a protocol error, and the server goes on.
    let params = CallToolRequestParams::new("no_such_tool");
    assert!(client.call_tool(params).await.is_err());
    still_answers(&client).await;

    let bad = [
        ("read", json!({"path": 42})),
        ("lines", json!({"path": "app.py"})),
        ("lines", json!({"path": "app.py", "range": "9:3"})),
        ("lines", json!({"path": "app.py", "range": "x"})),
        ("outline", json!({"path": "app.py", "depth": "deep"})),
        ("outline", json!({"path": "app.py", "depth": 0})),
        ("outline", json!({"pth": "app.py"})),
        ("read", json!({"path": "missing.py"})),
        ("read", json!({"path": "."})),
        ("outline", json!({"path": "blob.bin"})),
        ("lines", json!({"path": "blob.bin", "range": "1:2"})),
        (
            "symbol",
            json!({"path": "app.py", "query": "nothing_like_it"}),
        ),
        ("read", json!({"path": "--json"})),
    ];
    for (tool, arguments) in bad {
        let result = client
            .call_tool(
                CallToolRequestParams::new(tool)
                    .with_arguments(arguments.as_object().cloned().expect("object")),
            )
            .await;
        match result {
            Ok(result) => {
                assert!(is_error(&result), "{tool} {arguments}: {}", text(&result));
                assert!(!text(&result).is_empty());
            }
            Err(error) => assert!(!error.to_string().is_empty()),
        }
        still_answers(&client).await;
    }
    // A 50 MB file is answered as the command line answers it (its first 10 MB, said so),
    // within the budget.
    let huge = call(
        &client,
        "outline",
        json!({"path": "huge.py", "max_tokens": 500}),
    )
    .await;
    assert!(!is_error(&huge), "{}", text(&huge));
    assert!(
        text(&huge).contains("# Limit:") && tokens(text(&huge)) <= 500,
        "{}",
        text(&huge)
    );
    let tail = call(&client, "lines", json!({"path": "huge.py", "range": "-2:"})).await;
    assert!(!is_error(&tail), "{}", text(&tail));
    still_answers(&client).await;
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn calls_in_flight_are_answered_concurrently() {
    let env = env_with_app();
    env.write("big.py", &many_functions(2000));
    let client = start(env.path(), &[]).await;
    let tasks: Vec<_> = (0..8)
        .map(|i| {
            let peer = client.peer().clone();
            tokio::spawn(async move {
                let (tool, arguments) = match i % 2 {
                    0 => ("outline", json!({"path": "big.py"})),
                    _ => ("symbol", json!({"path": "app.py", "query": "Loader.load"})),
                };
                let params = CallToolRequestParams::new(tool)
                    .with_arguments(arguments.as_object().cloned().expect("object"));
                peer.call_tool(params).await
            })
        })
        .collect();
    for task in tasks {
        let result = task.await.expect("joined").expect("answered");
        assert!(!is_error(&result), "{}", text(&result));
    }
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn a_cancelled_call_leaves_the_server_answering() {
    let env = env_with_app();
    for i in 0..300 {
        env.write(&format!("tree/m{i}.py"), &many_functions(50));
    }
    let client = start(env.path(), &[]).await;
    let arguments = json!({"path": "tree", "json": true, "depth": 2});
    let params = CallToolRequestParams::new("outline")
        .with_arguments(arguments.as_object().cloned().expect("object"));
    // rmcp's client sends notifications/cancelled when a call's future is dropped.
    let cut_short = tokio::time::timeout(Duration::from_millis(2), client.call_tool(params)).await;
    assert!(
        cut_short.is_err(),
        "the call should still have been running"
    );
    still_answers(&client).await;
    client.cancel().await.expect("close");
}

#[test]
fn bad_server_flags_are_usage_errors() {
    for args in [
        &["mcp", "--root", "/no/such/dir"][..],
        &["mcp", "--max-tokens", "5"],
        &["mcp", "--bogus"],
    ] {
        let mut cmd = outline();
        cmd.args(args).write_stdin("");
        let (_, stderr, code) = run(cmd);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    // A file named `mcp` is still outlined when it is not the first argument.
    let env = TestEnv::new();
    env.write("mcp", "# Title\n");
    let (stdout, _, code) = run({
        let mut cmd = env.cmd();
        cmd.args(["--print", "--lang", "markdown", "mcp"]);
        cmd
    });
    assert_eq!(code, 0);
    assert!(stdout.contains("h1 Title"), "{stdout}");
}
