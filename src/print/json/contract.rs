//! The JSON contract (README "JSON output") as code: the property tests and the fuzz targets
//! (`fuzz/`) render outlines both ways with [`check_renderings`], which parses the JSON back
//! and runs it through [`check`], and compares the file-object writer with serde_json.

use crate::outline::select::{select, Budget};
use crate::outline::Outline;
use crate::print::json::{file_object, NodeOptions};
use crate::print::text::{write_entries, TextOptions};
use serde_json::Value;

/// Renders `outline` (whose text has `lines`) under `budget` both ways and returns the first
/// broken promise: the JSON, parsed back with serde_json's default limits as a client would,
/// must keep the contract (`check`); the text must have one line per shown entry.
pub fn check_renderings(outline: &Outline, budget: Budget, lines: &[&str]) -> Result<(), String> {
    let selection = select(outline, budget);
    let options = NodeOptions {
        signatures: true,
        preview: 1,
        lines,
    };
    let object = file_object("f".into(), "xxh3:0", outline, &selection, options);
    let wire = serde_json::to_string(&object).map_err(|e| format!("serialize: {e}"))?;
    let mut written = Vec::new();
    object.write_json(&mut written);
    if written != wire.as_bytes() {
        let written = String::from_utf8_lossy(&written);
        return Err(format!(
            "the JSON writer differs from serde_json:\n{written}\n{wire}"
        ));
    }
    let value: Value = serde_json::from_str(&wire).map_err(|e| format!("parse back: {e}"))?;
    check(&value).map_err(|problem| format!("JSON contract: {problem}\n{wire}"))?;
    let mut rendered = String::new();
    let text_options = TextOptions {
        signatures: true,
        line_numbers: true,
        preview: 0,
        tokens: false,
        token_mark: "",
        diff: false,
        indent: "",
        lines,
    };
    write_entries(&mut rendered, &selection, text_options);
    let want = selection.walk().len() + usize::from(selection.omitted > 0);
    match rendered.split_terminator('\n').count() {
        got if got == want => Ok(()),
        got => Err(format!("{got} text lines for {want} entries:\n{rendered}")),
    }
}

/// Checks one file object as parsed back from the wire and returns the first broken promise:
/// - `children` present (complete) or `truncated: true` with a known `truncation_reason`, never
///   both, never `truncated: false`;
/// - the file is marked `max_nodes` with `omitted > 0` exactly when top-level entries are left
///   out;
/// - ids are positional under their parent, ranges are `1 <= line <= end_line <= lines` and a
///   child's range lies in its parent's.
pub fn check(file: &Value) -> Result<(), String> {
    match (file.get("truncated"), file.get("truncation_reason")) {
        (None, None) if file.get("omitted").is_none() => {}
        (Some(Value::Bool(true)), Some(reason)) if reason == "max_nodes" => {
            if file["omitted"].as_u64().unwrap_or(0) == 0 {
                return Err("a truncated file object must say how many it omitted".into());
            }
        }
        other => return Err(format!("file object truncation fields: {other:?}")),
    }
    let lines = file["lines"]
        .as_u64()
        .ok_or("file object without `lines`")?;
    let entries = file["entries"]
        .as_array()
        .ok_or("file object without `entries`")?;
    let root = Range {
        id: String::new(),
        line: 1,
        end_line: lines.max(1),
    };
    check_nodes(entries, &root)
}

/// A parent's id and range, which its children must respect.
struct Range {
    id: String,
    line: u64,
    end_line: u64,
}

fn check_nodes(nodes: &[Value], parent: &Range) -> Result<(), String> {
    for (index, node) in nodes.iter().enumerate() {
        let id = node["id"].as_str().ok_or("node without id")?;
        let want = match parent.id.as_str() {
            "" => (index + 1).to_string(),
            parent_id => format!("{parent_id}.{}", index + 1),
        };
        if id != want {
            return Err(format!("node {id}: should be {want}"));
        }
        for key in ["kind", "name", "qualname"] {
            if !node[key].is_string() {
                return Err(format!("node {id}: `{key}` is not a string"));
            }
        }
        let (line, end_line) = (node["line"].as_u64(), node["end_line"].as_u64());
        let (Some(line), Some(end_line)) = (line, end_line) else {
            return Err(format!("node {id}: lines missing"));
        };
        if line < parent.line || end_line < line || end_line > parent.end_line {
            return Err(format!(
                "node {id}: lines {line}-{end_line} outside {}-{}",
                parent.line, parent.end_line
            ));
        }
        let this = Range {
            id: id.to_string(),
            line,
            end_line,
        };
        check_expansion(node, &this)?;
    }
    Ok(())
}

/// Contracts 1 and 2: complete `children`, or a cut node with its reason and no children.
fn check_expansion(node: &Value, this: &Range) -> Result<(), String> {
    let id = &this.id;
    match (node.get("children"), node.get("truncated")) {
        (Some(Value::Array(children)), None) => {
            if node.get("truncation_reason").is_some() {
                return Err(format!("node {id}: a reason without `truncated`"));
            }
            check_nodes(children, this)
        }
        (None, Some(Value::Bool(true))) => match node["truncation_reason"].as_str() {
            Some("max_depth" | "max_nodes" | "max_nesting") => Ok(()),
            other => Err(format!("node {id}: truncation_reason {other:?}")),
        },
        other => Err(format!("node {id}: children/truncated {other:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Language;
    use crate::parse::{self, soup, ParseOptions};
    use proptest::test_runner::TestCaseError;
    use serde_json::json;

    /// Parses `text` as `language` and checks both renderings under `budget`.
    fn check_text(text: &str, language: Language, budget: Budget) -> Result<(), String> {
        let outline = parse::outline_text(text, ParseOptions::new(language));
        check_renderings(&outline, budget, &parse::lines(text))
    }

    #[test]
    fn every_language_renders_within_the_contract() {
        let budgets = [
            Budget::default(),
            Budget {
                max_depth: Some(1),
                max_nodes: None,
            },
            Budget {
                max_depth: Some(2),
                max_nodes: Some(4),
            },
        ];
        for language in Language::ALL {
            let result = soup::runner(64).run(&soup::text(language, 96), |text| {
                for budget in budgets {
                    check_text(&text, language, budget).map_err(TestCaseError::fail)?;
                }
                Ok(())
            });
            if let Err(failure) = result {
                panic!("{language}: {failure}");
            }
        }
    }

    #[test]
    fn the_deepest_outline_parses_back_with_default_limits() {
        let deep = "<div>".repeat(500);
        assert_eq!(check_text(&deep, Language::Html, Budget::default()), Ok(()));
    }

    #[test]
    fn contract_breaches_are_named() {
        let good = json!({"lines": 5, "entries": [
            {"id": "1", "kind": "class", "name": "A", "qualname": "A", "line": 1, "end_line": 5,
             "children": [{"id": "1.1", "kind": "method", "name": "m", "qualname": "A.m",
                           "line": 2, "end_line": 3, "truncated": true,
                           "truncation_reason": "max_nesting"}]}]});
        assert_eq!(check(&good), Ok(()));
        type Breach = (&'static str, fn(&mut Value));
        let breaches: [Breach; 5] = [
            ("children/truncated", |v| {
                v["entries"][0]["truncated"] = json!(true);
            }),
            ("should be", |v| {
                v["entries"][0]["children"][0]["id"] = json!("1.2")
            }),
            ("outside", |v| v["entries"][0]["end_line"] = json!(6)),
            ("truncation_reason", |v| {
                v["entries"][0]["children"][0]["truncation_reason"] = json!("cap")
            }),
            ("omitted", |v| {
                v["truncated"] = json!(true);
                v["truncation_reason"] = json!("max_nodes");
            }),
        ];
        for (want, breach) in breaches {
            let mut file = good.clone();
            breach(&mut file);
            let problem = check(&file).expect_err(want);
            assert!(problem.contains(want), "{want}: {problem}");
        }
    }
}
