//! Directory mode: walk, parse files in parallel, print in path order within the caps.

use super::{json, json_line, load, text, text_options, write_out, Outcome};
use crate::config::Config;
use crate::error::Result;
use crate::lang::Language;
use crate::outline::select;
use crate::walk::{self, WalkOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Default caps for text output, which lands in a reader's context window. JSON Lines is read
/// by programs line by line and is uncapped unless the flags are given.
pub const TEXT_MAX_FILES: usize = 1000;
pub const TEXT_MAX_OUTPUT: usize = 256 * 1024;

/// One file's rendered output, or why it has none.
enum Rendered {
    Chunk(String),
    Binary,
    Failed(String),
}

pub(super) fn directory(
    config: &Config,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Outcome> {
    let root = config.path.as_path();
    let max_files = config.max_files.unwrap_or(if config.json {
        usize::MAX
    } else {
        TEXT_MAX_FILES
    });
    let max_output = config.max_output.unwrap_or(if config.json {
        usize::MAX
    } else {
        TEXT_MAX_OUTPUT
    });
    let found = walk::walk(
        root,
        WalkOptions {
            hidden: config.hidden,
            only: config.language,
            max_files,
        },
    );
    let mut outcome = Outcome::Success;
    for warning in &found.warnings {
        write_out(err, format!("outline: {warning}\n").as_bytes())?;
        outcome = Outcome::PartialFailure;
    }
    let rendered = render_all(config, root, &found.files);

    let mut written = 0usize;
    if !config.json {
        let header = format!(
            "# Directory outline: {}\n",
            shown_path(root, root).display()
        );
        write_out(out, header.as_bytes())?;
        written += header.len();
    }
    let mut over_output = 0;
    for (index, item) in rendered.iter().enumerate() {
        match item {
            Rendered::Chunk(chunk) => {
                if written > 0 && written + chunk.len() > max_output {
                    over_output = rendered.len() - index;
                    break;
                }
                write_out(out, chunk.as_bytes())?;
                written += chunk.len();
            }
            Rendered::Binary => {}
            Rendered::Failed(message) => {
                write_out(err, format!("outline: {message}\n").as_bytes())?;
                outcome = Outcome::PartialFailure;
            }
        }
    }
    let left_out = found.over_cap + over_output;
    if left_out > 0 {
        let why = if over_output > 0 {
            format!(
                "output cap of {} bytes reached (raise --max-output)",
                max_output
            )
        } else {
            format!("--max-files {max_files} reached")
        };
        let note = if config.json {
            let reason = if over_output > 0 {
                "max_output"
            } else {
                "max_files"
            };
            format!("{{\"truncated\":true,\"truncation_reason\":\"{reason}\",\"omitted_files\":{left_out}}}\n")
        } else {
            format!("\n# … {left_out} more files not shown: {why}\n")
        };
        write_out(out, note.as_bytes())?;
    }
    Ok(outcome)
}

/// Renders every file on all cores; results keep the walk's order.
fn render_all(config: &Config, root: &Path, files: &[(PathBuf, Language)]) -> Vec<Rendered> {
    let slots: Vec<Mutex<Option<Rendered>>> = files.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(files.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some((path, language)) = files.get(index) else {
                    break;
                };
                let rendered = render_file(config, root, path, *language);
                if let Ok(mut slot) = slots[index].lock() {
                    *slot = Some(rendered);
                }
            });
        }
    });
    slots
        .into_iter()
        .map(|slot| {
            slot.into_inner().ok().flatten().unwrap_or_else(|| {
                Rendered::Failed("internal error: a file was not rendered".into())
            })
        })
        .collect()
}

fn render_file(config: &Config, root: &Path, path: &Path, language: Language) -> Rendered {
    let parsed = match load(path, language) {
        Ok(Some(parsed)) => parsed,
        Ok(None) => return Rendered::Binary,
        Err(error) => return Rendered::Failed(error.to_string()),
    };
    let shown = shown_path(root, path);
    let lines: Vec<&str> = parsed.text.lines().collect();
    let selection = select::select(&parsed.outline, config.directory_budget());
    if config.json {
        let options = json::NodeOptions {
            signatures: config.signatures,
            preview: config.preview,
            lines: &lines,
        };
        let object = json::file_object(
            shown.display().to_string(),
            &parsed.outline,
            &selection,
            options,
        );
        return Rendered::Chunk(json_line(&object));
    }
    let mut chunk = format!("\n## {} ({language})\n", shown.display());
    if let Some(limit) = &parsed.outline.limit {
        chunk.push_str(&format!("  # Limit: {}\n", limit.reason));
    }
    text::write_entries(&mut chunk, &selection, text_options(config, "  ", &lines));
    Rendered::Chunk(chunk)
}

/// Paths print as given joined with the file's path below; a bare `.` adds no `./` noise.
fn shown_path(root: &Path, path: &Path) -> PathBuf {
    if root == Path::new(".") {
        if let Ok(rest) = path.strip_prefix(".") {
            if !rest.as_os_str().is_empty() {
                return rest.to_path_buf();
            }
        }
    }
    path.to_path_buf()
}
