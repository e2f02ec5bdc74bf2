//! Golden files: every fixture under tests/fixtures/<language>/ is outlined as text and JSON and
//! compared with tests/golden/<language>/<file>.txt / .json. `UPDATE_GOLDEN=1` rewrites them;
//! a rewrite is a change to review, never a way to make a test pass.

use super::contract::assert_contract;
use super::util::{outline, run};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// Every fixture file, sorted, as (language folder, file name).
fn fixtures() -> Vec<(String, String)> {
    let mut found = Vec::new();
    let Ok(languages) = std::fs::read_dir(root().join("fixtures")) else {
        return found;
    };
    for language in languages.flatten() {
        let Ok(files) = std::fs::read_dir(language.path()) else {
            continue;
        };
        for file in files.flatten() {
            if file.path().is_file() {
                found.push((
                    language.file_name().to_string_lossy().into_owned(),
                    file.file_name().to_string_lossy().into_owned(),
                ));
            }
        }
    }
    found.sort();
    found
}

fn render(dir: &Path, file: &str, json: bool) -> String {
    let mut cmd = outline();
    cmd.current_dir(dir).arg("--print").arg(file);
    if json {
        cmd.arg("--json");
    } else {
        // The whole tree: a text outline is otherwise fitted to the file's size (print/fit.rs).
        cmd.args(["--depth", "99"]);
    }
    let (out, err, code) = run(cmd);
    assert_eq!(code, 0, "{file}: exit {code}, stderr: {err}");
    out
}

#[test]
fn golden_outputs_match() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut failures = Vec::new();
    let fixtures = fixtures();
    assert!(!fixtures.is_empty(), "no fixtures found");
    for (language, file) in &fixtures {
        let dir = root().join("fixtures").join(language);
        let golden_dir = root().join("golden").join(language);
        for (json, ext) in [(false, "txt"), (true, "json")] {
            let actual = render(&dir, file, json);
            if json {
                let value: serde_json::Value = serde_json::from_str(&actual)
                    .unwrap_or_else(|e| panic!("{language}/{file}: invalid JSON: {e}"));
                assert_contract(&value);
            }
            let golden = golden_dir.join(format!("{file}.{ext}"));
            if update {
                std::fs::create_dir_all(&golden_dir).expect("mkdir golden");
                std::fs::write(&golden, &actual).expect("write golden");
                continue;
            }
            match std::fs::read_to_string(&golden) {
                Ok(expected) if expected == actual => {}
                Ok(expected) => failures.push(format!(
                    "{language}/{file} ({ext}) differs from {}:\n--- expected\n{expected}\n--- actual\n{actual}",
                    golden.display()
                )),
                Err(_) => failures.push(format!(
                    "{language}/{file} ({ext}): no golden file {} (UPDATE_GOLDEN=1 writes it; review it)",
                    golden.display()
                )),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
