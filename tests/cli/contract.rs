//! The two `children`/`truncated` contracts, checked on any JSON file object, and budgets.

use super::util::{json, run, TestEnv};
use serde_json::Value;

/// Panics unless every node in `file` keeps the print contract.
pub fn assert_contract(file: &Value) {
    let entries = file["entries"].as_array().expect("entries array");
    match file.get("truncated") {
        None => assert!(file.get("omitted").is_none() && file.get("truncation_reason").is_none()),
        Some(t) => {
            assert_eq!(t, &Value::Bool(true), "truncated is only ever true");
            assert_eq!(file["truncation_reason"], "max_nodes");
            assert!(file["omitted"].as_u64().unwrap_or(0) > 0);
        }
    }
    for node in entries {
        assert_node(node, "");
    }
}

fn assert_node(node: &Value, parent_id: &str) {
    let id = node["id"].as_str().expect("id");
    if !parent_id.is_empty() {
        assert!(
            id.starts_with(&format!("{parent_id}.")),
            "{id} under {parent_id}"
        );
    }
    for key in ["kind", "name", "qualname"] {
        assert!(node[key].is_string(), "{key} in {node}");
    }
    let (line, end) = (
        node["line"].as_u64().expect("line"),
        node["end_line"].as_u64().expect("end"),
    );
    assert!(line >= 1 && end >= line, "range {line}-{end}");
    if let Some(doc) = node.get("doc_line") {
        let doc = doc.as_u64().expect("doc_line is a number");
        assert!(
            doc >= 1 && doc < line,
            "doc_line {doc} only ever before line {line}"
        );
    }
    match (node.get("children"), node.get("truncated")) {
        (Some(children), None) => {
            assert!(node.get("truncation_reason").is_none());
            for child in children.as_array().expect("children array") {
                let (cl, ce) = (
                    child["line"].as_u64().unwrap_or(0),
                    child["end_line"].as_u64().unwrap_or(0),
                );
                assert!(
                    cl >= line && ce <= end,
                    "child {cl}-{ce} outside {line}-{end}"
                );
                if let Some(doc) = child["doc_line"].as_u64() {
                    assert!(
                        doc > line,
                        "child docs from {doc} reach the parent's line {line}"
                    );
                }
                assert_node(child, id);
            }
        }
        (None, Some(truncated)) => {
            assert_eq!(truncated, &Value::Bool(true));
            let reason = node["truncation_reason"].as_str().expect("reason");
            assert!(
                ["max_depth", "max_nodes", "max_nesting"].contains(&reason),
                "{reason}"
            );
        }
        other => panic!("node {id} breaks the children/truncated contract: {other:?}"),
    }
}

const NESTED_MD: &str = "# A\n## A1\n### A1a\n## A2\n# B\n## B1\n# C\n";

#[test]
fn depth_cut_marks_nodes_with_children() {
    let env = TestEnv::new();
    env.write("doc.md", NESTED_MD);
    let mut cmd = env.cmd();
    cmd.args(["--print", "--json", "--depth", "1", "doc.md"]);
    let (out, _, code) = run(cmd);
    assert_eq!(code, 0);
    let file = json(&out);
    assert_contract(&file);
    let entries = file["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), 3);
    assert_eq!(entries[0]["truncation_reason"], "max_depth");
    assert_eq!(entries[2]["children"], serde_json::json!([]));
}

#[test]
fn node_budget_marks_file_and_nodes() {
    let env = TestEnv::new();
    env.write("doc.md", NESTED_MD);
    let mut cmd = env.cmd();
    cmd.args(["--print", "--json", "--max-nodes", "2", "doc.md"]);
    let (out, _, _) = run(cmd);
    let file = json(&out);
    assert_contract(&file);
    assert_eq!(file["omitted"], 1);
    assert_eq!(file["entries"][0]["truncation_reason"], "max_nodes");

    let mut text = env.cmd();
    text.args(["--print", "--max-nodes", "2", "doc.md"]);
    let (out, _, _) = run(text);
    assert!(out.contains("h1 A  … (+2 hidden)"), "{out}");
    assert!(out.contains("… 1 more top-level entries"), "{out}");
}

#[test]
fn both_caps_on_one_node_report_max_nodes() {
    let env = TestEnv::new();
    env.write("doc.md", NESTED_MD);
    let mut cmd = env.cmd();
    cmd.args([
        "--print",
        "--json",
        "--max-nodes",
        "3",
        "--depth",
        "1",
        "doc.md",
    ]);
    let (out, _, _) = run(cmd);
    let file = json(&out);
    assert_contract(&file);
    assert_eq!(file["entries"][0]["truncation_reason"], "max_nodes");
}
