//! Directory mode: walk, parse files in parallel, print in path order within the caps.

use super::{json, json_line, text, text_options, write_out, Outcome};
use crate::config::Config;
use crate::document::Document;
use crate::error::Result;
use crate::git;
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
    Chunk {
        text: String,
        tokens: Option<usize>,
    },
    /// Binary, or left out by `--changed`.
    Skipped,
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
    let snapshot = match config.diff {
        true => super::git_snapshot(root, err)?,
        false => None,
    };
    let mut rendered = render_all(config, root, &found.files, snapshot.as_ref());
    if config.sort_by_tokens {
        // Largest first; the sort is stable, so equal counts keep path order.
        rendered.sort_by_key(|item| match item {
            Rendered::Chunk { tokens, .. } => std::cmp::Reverse(tokens.unwrap_or(0)),
            _ => std::cmp::Reverse(0),
        });
    }

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
    let (mut total_tokens, mut counted_files) = (0usize, 0usize);
    for (index, item) in rendered.iter().enumerate() {
        match item {
            Rendered::Chunk {
                text: chunk,
                tokens,
            } => {
                // The first file always shows: a cap below one file still says something.
                if counted_files > 0 && written + chunk.len() > max_output {
                    over_output = rendered.len() - index;
                    break;
                }
                write_out(out, chunk.as_bytes())?;
                written += chunk.len();
                total_tokens += tokens.unwrap_or(0);
                counted_files += 1;
            }
            Rendered::Skipped => {}
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
    if let (Some(tokenizer), false) = (config.tokens, config.json) {
        let total = format!(
            "\n# Total: ~{} tokens in {} files ({})\n",
            crate::parse::thousands(total_tokens),
            crate::parse::thousands(counted_files),
            tokenizer.encoding()
        );
        write_out(out, total.as_bytes())?;
    }
    Ok(outcome)
}

/// Renders every file on all cores; results keep the walk's order.
fn render_all(
    config: &Config,
    root: &Path,
    files: &[(PathBuf, Language)],
    snapshot: Option<&git::Snapshot>,
) -> Vec<Rendered> {
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
                let rendered = render_file(config, root, path, *language, snapshot);
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

fn render_file(
    config: &Config,
    root: &Path,
    path: &Path,
    language: Language,
    snapshot: Option<&git::Snapshot>,
) -> Rendered {
    if config.changed_only && !snapshot.is_some_and(|s| s.is_changed(path)) {
        return Rendered::Skipped;
    }
    let mut input = match Document::open(path, Some(language)) {
        Ok(input) => input,
        Err(error) => return Rendered::Failed(error.to_string()),
    };
    let depth = config.directory_budget().max_depth;
    if let Err(reason) = input.annotate(&config.annotations(depth), snapshot) {
        return Rendered::Failed(format!("{}: diff markers off: {reason}", path.display()));
    }
    let Some(outline) = input.outline.as_ref().filter(|_| !input.binary) else {
        return Rendered::Skipped;
    };
    let tokens = outline.tokens.map(|(tokens, _)| tokens);
    let shown = shown_path(root, path);
    let lines = input.lines();
    let selection = select::select(outline, config.directory_budget());
    if config.json {
        let options = json::NodeOptions {
            signatures: config.signatures,
            preview: config.preview,
            lines: &lines,
        };
        let object = json::file_object(
            shown.display().to_string(),
            &input.hash,
            outline,
            &selection,
            options,
        );
        return Rendered::Chunk {
            text: json_line(&object),
            tokens,
        };
    }
    let mut chunk = format!("\n## {} ({})", shown.display(), super::file_facts(outline));
    if config.diff && outline.is_changed() {
        chunk.push_str("  [CHANGED]");
    }
    chunk.push('\n');
    if let Some(limit) = &outline.limit {
        chunk.push_str(&format!("  # Limit: {}\n", limit.reason));
    }
    text::write_entries(&mut chunk, &selection, text_options(config, "  ", &lines));
    Rendered::Chunk {
        text: chunk,
        tokens,
    }
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
