//! Searches of files past the read limits (10 MB kept in memory, 50,000 lines outlined): text
//! search reads the whole file, and every answer that could not says which part it saw. The
//! large files are made in a temp dir by each test.

use super::mcp::{call, start, text};
use super::util::{json_lines, TestEnv};
use serde_json::json;

/// A Python file of a little over 11 MB: `needle` in a function at the top, and again in one
/// past the 10 MB read cap, on line `late_line`.
fn past_the_read_cap(env: &TestEnv) -> usize {
    let filler = format!("x = 1  # {}\n", "a".repeat(60));
    let count = 11 * 1024 * 1024 / filler.len();
    let mut text = String::from("def early():\n    needle += 1\n");
    text.push_str(&filler.repeat(count));
    text.push_str("def late():\n    needle += 2\n");
    env.write("big.py", &text);
    count + 4
}

/// A Python file of 60,002 lines: `past_limit` is defined after the 50,000 outlined.
fn past_the_line_limit(env: &TestEnv) {
    let mut text: String = (0..60_000).map(|i| format!("v{i} = {i}\n")).collect();
    text.push_str("def past_limit():\n    return 1\n");
    env.write("long.py", &text);
}

#[test]
fn grep_finds_hits_past_the_read_cap() {
    let env = TestEnv::new();
    let late = past_the_read_cap(&env);
    let (out, err, code) = env.print(&["--grep", "needle", "big.py"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("2:     needle += 1\n"), "{out}");
    assert!(
        out.contains(&format!("\n{late}:     needle += 2\n")),
        "{out}"
    );
    assert!(out.ends_with("# 2 hits in 1 file\n"), "{out}");
    // Context past the cap is read from the file too.
    let (out, _, _) = env.print(&["--grep", "needle", "-C", "1", "big.py"]);
    assert!(
        out.contains(&format!("\n{} def late():\n{late}:", late - 1)),
        "{out}"
    );
    let (out, _, _) = env.print(&["--json", "--grep", "needle \\+= 2", "big.py"]);
    let hits = json_lines(&out);
    assert_eq!(hits.len(), 1, "{out}");
    assert_eq!(
        (hits[0]["line"].as_u64(), hits[0]["column"].as_u64()),
        (Some(late as u64), Some(5))
    );
}

#[test]
fn grep_finds_a_hit_at_the_end_of_one_line_longer_than_the_cap() {
    let env = TestEnv::new();
    let before = 11 * 1024 * 1024;
    env.write("line.js", &format!("{}needle;", "x".repeat(before)));
    let (out, err, code) = env.print(&["--json", "--grep", "needle", "line.js"]);
    assert_eq!(code, 0, "{err}");
    let hits = json_lines(&out);
    assert_eq!(hits.len(), 1, "{out}");
    assert_eq!(hits[0]["line"], 1);
    assert_eq!(hits[0]["column"].as_u64(), Some(before as u64 + 1));
    assert!(hits[0]["text"]
        .as_str()
        .is_some_and(|t| t.contains("needle;")));
}

#[test]
fn code_aware_searches_say_they_stopped_at_the_read_cap() {
    let env = TestEnv::new();
    past_the_read_cap(&env);
    for args in [
        &["--grep", "needle", "--code-only", "big.py"][..],
        &["--refs", "needle", "big.py"],
    ] {
        let (out, err, code) = env.print(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(out.contains("2:     needle += 1\n"), "{out}");
        assert!(
            out.contains("# Limit: big.py: file has ") && out.contains("within the 10 MB read cap"),
            "{args:?}: {out}"
        );
        let mut json = vec!["--json"];
        json.extend_from_slice(args);
        let (out, _, _) = env.print(&json);
        let partial: Vec<_> = json_lines(&out)
            .into_iter()
            .filter(|v| v["partial"] == true)
            .collect();
        assert_eq!(partial.len(), 1, "{out}");
        assert_eq!(partial[0]["path"], "big.py");
    }
}

#[test]
fn find_says_which_outlines_were_cut() {
    let env = TestEnv::new();
    past_the_line_limit(&env);
    env.write("small.py", "def past_limitless():\n    pass\n");
    let note = "long.py: file has 60,002 lines; outlined the first 50,000; definitions past it were not searched";
    let (_, err, code) = env.print(&["--find", "past_limit", "."]);
    assert_eq!(code, 1);
    assert!(err.contains("no definition matches 'past_limit'"), "{err}");
    assert!(err.contains(&format!("outline: {note}\n")), "{err}");
    let (_, err, code) = env.print(&["--symbol", "past_limit", "long.py"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("definitions past it were not searched"),
        "{err}"
    );
    // Beside results, in their own form.
    let (out, _, code) = env.print(&["--find", "v4999*", "--max-results", "2", "."]);
    assert_eq!(code, 0);
    assert!(out.contains(&format!("# Limit: {note}\n")), "{out}");
    let (out, _, _) = env.print(&["--json", "--find", "v4999*", "."]);
    let last = json_lines(&out).pop().expect("a line");
    assert_eq!(last["partial"], true, "{out}");
    assert_eq!(last["path"], "long.py");
    // A name that the part left out does not hold says nothing.
    let (out, _, code) = env.print(&["--find", "v12", "."]);
    assert_eq!(code, 0);
    assert!(!out.contains("# Limit"), "{out}");
}

#[tokio::test]
async fn mcp_answers_say_so_too() {
    let env = TestEnv::new();
    let late = past_the_read_cap(&env);
    past_the_line_limit(&env);
    let client = start(env.path(), &[]).await;
    let grep = call(
        &client,
        "grep",
        json!({"pattern": "needle", "path": "big.py"}),
    )
    .await;
    assert!(
        text(&grep).contains(&format!("{late}:     needle += 2")),
        "{}",
        text(&grep)
    );
    let find = call(
        &client,
        "find",
        json!({"query": "past_limit", "path": "long.py"}),
    )
    .await;
    assert!(
        text(&find).contains("definitions past it were not searched"),
        "{}",
        text(&find)
    );
    let refs = call(&client, "refs", json!({"name": "needle", "path": "big.py"})).await;
    assert!(text(&refs).contains("# Limit: big.py:"), "{}", text(&refs));
    client.cancel().await.expect("stop");
}

#[test]
fn the_output_cap_bounds_find_and_a_group_of_grep_hits() {
    let env = TestEnv::new();
    let defs: String = (0..2_000)
        .map(|i| format!("def f{i}():\n    pass\n"))
        .collect();
    env.write("many.py", &defs);
    let hits: String = (0..20_000).map(|i| format!("hit line {i}\n")).collect();
    env.write("notes.txt", &hits);
    // --find: the list stops at the cap and says how many were left out.
    let args = [
        "--find",
        "f*",
        "--max-results",
        "100000",
        "--max-output",
        "2000",
        "many.py",
    ];
    let (out, err, code) = env.print(&args);
    assert_eq!(code, 0, "{err}");
    let (list, note) = out.rsplit_once("# … ").expect("a cut note");
    assert!(list.len() <= 2000, "{}", list.len());
    assert!(
        note.starts_with("stopped at the output cap of 2000 bytes after "),
        "{note}"
    );
    assert!(note.contains(" of 2,000 matches"), "{note}");
    let mut json = vec!["--json"];
    json.extend_from_slice(&args);
    let (out, _, _) = env.print(&json);
    let last = json_lines(&out).pop().expect("a line");
    assert_eq!(last["truncation_reason"], "max_output", "{out}");
    assert!(last["omitted"].as_u64().is_some_and(|n| n > 1_000), "{out}");
    // --grep: a file with no outline is one group, cut inside at the default 256 KB cap.
    let (out, _, code) = env.print(&["--grep", "hit", "notes.txt"]);
    assert_eq!(code, 0);
    assert!(out.len() < 256 * 1024 + 200, "{}", out.len());
    assert!(
        out.contains("# … stopped at the output cap of 262144 bytes"),
        "{}",
        &out[out.len() - 200..]
    );
    let (out, _, _) = env.print(&[
        "--json",
        "--grep",
        "hit",
        "--max-output",
        "300",
        "notes.txt",
    ]);
    let lines = json_lines(&out);
    assert!(lines.len() < 10, "{out}");
    assert_eq!(
        lines.last().map(|l| l["truncation_reason"].clone()),
        Some(json!("max_output"))
    );
}

#[tokio::test]
async fn messages_echo_a_short_prefix_of_a_long_argument() {
    let env = TestEnv::new();
    env.write("a.py", "def f():\n    pass\n");
    let long = "x".repeat(100_000);
    let bad_regex = format!("({long}");
    for args in [
        vec!["--find", long.as_str(), "."],
        vec!["--grep", bad_regex.as_str(), "."],
        vec!["--symbol", long.as_str(), "a.py"],
        vec!["--find", "f", "--kind", long.as_str(), "."],
        vec![long.as_str()],
    ] {
        let (_, err, code) = env.print(&args);
        assert_ne!(code, 0);
        assert!(
            err.len() < 1_000 && err.contains("xxx…"),
            "{}",
            &err[..err.len().min(300)]
        );
    }
    let client = start(env.path(), &[]).await;
    let find = call(&client, "find", json!({"query": long})).await;
    assert!(text(&find).len() < 1_000 && text(&find).contains("xxx…"));
    client.cancel().await.expect("stop");
}

/// `--max-output` holds for the answers about one file: text is cut after a whole line with
/// the cap's note, a JSON read object carries at most that many bytes of lines, and a file's
/// JSON object keeps as many whole entries as fit. Without the flag nothing is cut.
#[test]
fn the_output_cap_bounds_one_file_answers() {
    let env = TestEnv::new();
    let mut source: String = (0..5_000)
        .map(|i| format!("def f{i}(x):\n    return {i}  # the value of f{i}\n\n"))
        .collect();
    source.push_str("def long_one():\n");
    source.push_str(&"    x = 1\n".repeat(2_000));
    env.write("many.py", &source);
    let cap = 2000;
    let cap_note = "more lines not shown: output cap of 2000 bytes reached (raise --max-output)\n";
    for mode in [
        &[][..],
        &["--symbol", "long_one"],
        &["--lines", "1:5000"],
        &["--read"],
    ] {
        let mut args = mode.to_vec();
        args.push("many.py");
        let (whole, _, _) = env.print(&args);
        assert!(
            whole.len() > cap + 500 && !whole.contains(cap_note),
            "{mode:?}"
        );
        args.splice(0..0, ["--max-output", "2000"]);
        let (out, err, code) = env.print(&args);
        assert_eq!(code, 0, "{mode:?}: {err}");
        let (kept, note) = out.rsplit_once("# … ").expect("a cut note");
        assert!(
            kept.len() <= cap && whole.starts_with(kept),
            "{mode:?}: {out}"
        );
        assert!(note.ends_with(cap_note), "{mode:?}: {note}");
    }
    // JSON read objects: the lines stop within the cap and the note says where to go on.
    let (out, _, code) = env.print(&[
        "--json",
        "--max-output",
        "500",
        "--lines",
        "1:900",
        "many.py",
    ]);
    assert_eq!(code, 0);
    let object: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    let lines = object["text"].as_str().expect("text");
    assert!(!lines.is_empty() && lines.len() <= 500, "{out}");
    let next = object["end_line"].as_u64().expect("end_line") + 1;
    let note = object["note"].as_str().expect("a note");
    assert!(note.contains(&format!("--lines {next}:900")), "{note}");
    // A file's JSON object: whole entries, marked cut, within the cap, said on stderr.
    let (out, err, code) = env.print(&["--json", "--max-output", "2000", "many.py"]);
    assert_eq!(code, 0);
    assert!(out.len() <= cap, "{}", out.len());
    let object: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(object["truncated"], true, "{out}");
    assert!(err.contains("to fit the output cap of 2000 bytes"), "{err}");
}

/// A `--symbol` answer names ten namesakes on stderr and counts the rest: a one-line file of
/// `x=1;` repeated has a hundred thousand, which were once a hundred thousand lines.
#[test]
fn symbol_names_ten_namesakes_and_counts_the_rest() {
    let env = TestEnv::new();
    env.write("many.py", &"x = 1\n".repeat(15));
    let (out, err, code) = env.print(&["--symbol", "x", "many.py"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1 x = 1"), "{out}");
    assert_eq!(err.matches("also matches").count(), 10, "{err}");
    assert!(
        err.contains("… and 4 more match 'x'; list them all with --find"),
        "{err}"
    );
}
