//! Directory mode: walk, parse files in parallel, print in path order within the caps.

use super::cap::{cut_at_line, first_lines};
use super::{json, text, text_options, write_line, write_out, Outcome};
use crate::config::Config;
use crate::error::{Error, Result};
use crate::git;
use crate::lang::Language;
use crate::outline::select::{self, Selection};
use crate::outline::Outline;
use crate::parallel;
use crate::sanitize::path_for_terminal;
use crate::search;
use crate::walk::{self, Found, Walk, WalkOptions};
use std::io::Write;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// Default caps for text output, which lands in a reader's context window. JSON Lines is read
/// by programs line by line and is uncapped unless the flags are given.
pub const TEXT_MAX_FILES: usize = 1000;
pub const TEXT_MAX_OUTPUT: usize = 256 * 1024;

/// One file's rendered output, or why it has none.
enum Rendered {
    Chunk {
        /// UTF-8; kept as bytes so that JSON lines go out without a validation pass.
        text: Vec<u8>,
        tokens: Option<usize>,
        /// Lines for stderr that do not fail the file (markers off for it, a name that is
        /// not UTF-8).
        notes: Vec<String>,
    },
    /// Binary, or left out by `--changed` or `--no-tests`.
    Skipped,
    Failed(String),
    /// Past `--max-files` or the output cap: not read, only counted.
    OverCap,
}

/// The caps of one run.
#[derive(Debug, Clone, Copy)]
struct Caps {
    max_files: usize,
    max_output: usize,
}

impl Caps {
    /// The flags' caps, else the defaults: capped for text, uncapped for JSON Lines.
    fn of(config: &Config) -> Caps {
        let default = |text| match config.json {
            true => usize::MAX,
            false => text,
        };
        Caps {
            max_files: config.max_files.unwrap_or(default(TEXT_MAX_FILES)),
            max_output: config.max_output.unwrap_or(default(TEXT_MAX_OUTPUT)),
        }
    }
}

pub(super) fn directory(
    config: &Config,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Outcome> {
    let snapshot = match config.diff {
        true => super::git_snapshot(&config.path, err)?,
        false => None,
    };
    let caps = Caps::of(config);
    // Number the files (not the unreadable entries) so that `--max-files` counts files.
    let files = Walk::new(&config.paths, walk_options(config))?.scan(0usize, |count, found| {
        let index = *count;
        *count += usize::from(matches!(found, Found::File { .. }));
        Some((index, found))
    });
    let mut printer = Printer::new(config, caps, out, err);
    if !config.json {
        let roots: Vec<String> = config
            .paths
            .iter()
            .map(|p| path_for_terminal(walk::shown(p)).into_owned())
            .collect();
        printer.write(format!("# Directory outline: {}\n", roots.join(" ")).as_bytes())?;
    }
    // Set once the output cap is reached: later files are counted, not read.
    let full = AtomicBool::new(false);
    let render = |(index, found): (usize, Found)| match found {
        Found::Unreadable(message) => Rendered::Failed(message),
        Found::File { .. } if index >= caps.max_files || full.load(Ordering::Relaxed) => {
            Rendered::OverCap
        }
        Found::File {
            path,
            language: Some(language),
        } => render_file(config, &path, language, snapshot.as_ref()),
        Found::File { .. } => Rendered::Skipped,
    };
    match config.sort_by_tokens {
        true => largest_first(files, render, &mut printer),
        false => in_path_order(files, render, &mut printer, &full),
    }
    printer.finish()
}

/// The walk of directory mode: every outlinable file, lock files left out.
fn walk_options(config: &Config) -> WalkOptions {
    WalkOptions {
        hidden: config.hidden,
        only: config.language,
        globs: config.globs.clone(),
        any_language: false,
        no_parent_ignores: config.root.is_some(),
        confine: config.root.clone(),
        // Generated: thousands of package entries that say nothing of the code.
        skip_lock_files: true,
    }
}

/// Writes each file as soon as it and every file before it are done.
fn in_path_order<I>(
    files: I,
    render: impl Fn(I::Item) -> Rendered + Sync,
    printer: &mut Printer,
    full: &AtomicBool,
) where
    I: Iterator + Send,
    I::Item: Send,
{
    parallel::ordered(files, render, |rendered| {
        printer.take(rendered);
        if printer.full {
            full.store(true, Ordering::Relaxed);
        }
        match printer.error.is_some() {
            true => ControlFlow::Break(()),
            false => ControlFlow::Continue(()),
        }
    });
}

/// `--sort tokens`: largest first needs every count before the first line, the one mode that
/// holds all files' output. The sort is stable, so equal counts keep path order.
fn largest_first<I>(files: I, render: impl Fn(I::Item) -> Rendered + Sync, printer: &mut Printer)
where
    I: Iterator + Send,
    I::Item: Send,
{
    let mut all = Vec::new();
    parallel::ordered(files, render, |rendered| {
        all.push(rendered);
        ControlFlow::Continue(())
    });
    all.sort_by_key(|item| match item {
        Rendered::Chunk { tokens, .. } => std::cmp::Reverse(tokens.unwrap_or(0)),
        _ => std::cmp::Reverse(0),
    });
    all.into_iter().for_each(|rendered| printer.take(rendered));
}

/// Writes rendered files within the caps and keeps the counts for the closing notes.
struct Printer<'w> {
    config: &'w Config,
    caps: Caps,
    out: &'w mut dyn Write,
    err: &'w mut dyn Write,
    written: usize,
    shown_files: usize,
    total_tokens: usize,
    over_files: usize,
    over_output: usize,
    /// The output cap was reached: later files are only counted.
    full: bool,
    outcome: Outcome,
    error: Option<crate::error::Error>,
}

impl<'w> Printer<'w> {
    fn new(
        config: &'w Config,
        caps: Caps,
        out: &'w mut dyn Write,
        err: &'w mut dyn Write,
    ) -> Printer<'w> {
        Printer {
            config,
            caps,
            out,
            err,
            written: 0,
            shown_files: 0,
            total_tokens: 0,
            over_files: 0,
            over_output: 0,
            full: false,
            outcome: Outcome::Success,
            error: None,
        }
    }

    fn write(&mut self, text: &[u8]) -> Result<()> {
        self.written += text.len();
        write_out(self.out, text)
    }

    fn take(&mut self, rendered: Rendered) {
        if self.error.is_some() {
            return;
        }
        let result = match rendered {
            Rendered::Chunk {
                text,
                tokens,
                notes,
            } => notes
                .iter()
                .try_for_each(|note| write_line(self.err, &format!("outline: {note}")))
                .and_then(|()| self.chunk(text, tokens)),
            Rendered::Skipped => Ok(()),
            Rendered::OverCap => {
                match self.full {
                    true => self.over_output += 1,
                    false => self.over_files += 1,
                }
                Ok(())
            }
            Rendered::Failed(message) => {
                self.outcome = Outcome::PartialFailure;
                write_line(self.err, &format!("outline: {message}"))
            }
        };
        if let Err(error) = result {
            self.error = Some(error);
        }
    }

    /// Writes one file's output. One that does not fit is cut after its last entry line
    /// that fits, with a note (text), or left out (a JSON line cannot be cut); either way
    /// later files are only counted. The first file always shows something.
    fn chunk(&mut self, text: Vec<u8>, tokens: Option<usize>) -> Result<()> {
        if self.full {
            self.over_output += 1;
            return Ok(());
        }
        let room = self.caps.max_output.saturating_sub(self.written);
        let first = self.shown_files == 0;
        if text.len() <= room || (first && self.config.json) {
            self.shown_files += 1;
            self.total_tokens += tokens.unwrap_or(0);
            return self.write(&text);
        }
        self.full = true;
        let text = String::from_utf8_lossy(&text);
        // A text chunk is a blank line, the file's header, then one line per entry.
        let room = match first {
            true => room.max(first_lines(&text, 3)),
            false => room,
        };
        let (cut, hidden) = cut_at_line(&text, room);
        if self.config.json || cut.lines().count() < 3 {
            self.over_output += 1;
            return Ok(());
        }
        self.shown_files += 1;
        self.write(cut.as_bytes())?;
        let note = format!(
            "  # … {hidden} more lines of this file not shown: output cap of {} bytes reached (raise --max-output)\n",
            self.caps.max_output
        );
        self.write(note.as_bytes())
    }

    fn finish(mut self) -> Result<Outcome> {
        if let Some(error) = self.error.take() {
            return Err(error);
        }
        let left_out = self.over_files + self.over_output;
        if left_out > 0 {
            let reason = match self.over_output > 0 {
                true => "max_output",
                false => "max_files",
            };
            let note = match (self.config.json, self.over_output > 0) {
                (true, _) => format!(
                    "{{\"truncated\":true,\"truncation_reason\":\"{reason}\",\"omitted_files\":{left_out}}}\n"
                ),
                (false, true) => format!(
                    "\n# … {left_out} more files not shown: output cap of {} bytes reached (raise --max-output)\n",
                    self.caps.max_output
                ),
                (false, false) => format!(
                    "\n# … {left_out} more files not shown: --max-files {} reached\n",
                    self.caps.max_files
                ),
            };
            write_out(self.out, note.as_bytes())?;
        }
        if let (Some(tokenizer), false) = (self.config.tokens, self.config.json) {
            let total = format!(
                "\n# Total: {}{} tokens in {} files ({})\n",
                crate::tokens::estimate_mark(tokenizer.encoding()),
                crate::parse::thousands(self.total_tokens),
                crate::parse::thousands(self.shown_files),
                tokenizer.encoding()
            );
            write_out(self.out, total.as_bytes())?;
        }
        Ok(self.outcome)
    }
}

/// One file of the walk, loaded, annotated and rendered as text or a JSON line.
fn render_file(
    config: &Config,
    path: &Path,
    language: Language,
    snapshot: Option<&git::Snapshot>,
) -> Rendered {
    if config.changed_only && !snapshot.is_some_and(|s| s.is_changed(path)) {
        return Rendered::Skipped;
    }
    if config.no_tests && search::is_test_path(path) {
        return Rendered::Skipped;
    }
    let mut input = match super::open_listed(config, path, language) {
        Ok(input) => input,
        // The walk follows no link: a file that lies outside the root once opened was
        // swapped (or its folder was) after the walk met it. Left out as the link would
        // have been, without its name, which names what lies outside.
        Err(Error::OutsideRoot { .. }) => return Rendered::Skipped,
        Err(error) => return Rendered::Failed(error.to_string()),
    };
    let budget = config.directory_budget();
    let mut notes: Vec<String> = Found::File {
        path: path.to_path_buf(),
        language: Some(language),
    }
    .name_note()
    .into_iter()
    .collect();
    // Markers that cannot be read (a file over the read cap) leave the outline without them.
    if let Err(reason) = input.annotate(&config.annotations(budget.max_depth), snapshot) {
        notes.push(format!("{}: diff markers off: {reason}", path.display()));
    }
    let Some(outline) = input.outline.as_ref().filter(|_| !input.binary) else {
        return Rendered::Skipped;
    };
    // Only previews read the file's lines: cutting every file into lines cost a directory run
    // about as much as parsing it.
    let lines = if config.preview > 0 {
        input.lines()
    } else {
        Vec::new()
    };
    let selection = select::select(outline, budget);
    let shown = walk::shown(path);
    let text = match config.json {
        true => {
            let options = json::NodeOptions {
                signatures: config.signatures,
                preview: config.preview,
                lines: &lines,
            };
            let name = shown.display().to_string();
            let object = json::file_object(name, &input.hash, outline, &selection, options);
            object.json_line()
        }
        false => text_chunk(config, shown, outline, &selection, &lines).into_bytes(),
    };
    Rendered::Chunk {
        text,
        tokens: outline.tokens.map(|(tokens, _)| tokens),
        notes,
    }
}

/// A file's text output: a blank line, its header (with its limit, if one was met), then
/// one line per entry.
fn text_chunk(
    config: &Config,
    shown: &Path,
    outline: &Outline,
    selection: &Selection,
    lines: &[&str],
) -> String {
    let mut chunk = format!(
        "\n## {} ({})",
        path_for_terminal(shown),
        super::file_facts(outline)
    );
    if config.diff && outline.is_changed() {
        chunk.push_str("  [CHANGED]");
    }
    chunk.push('\n');
    if let Some(limit) = &outline.limit {
        chunk.push_str(&format!("  # Limit: {}\n", limit.reason));
    }
    text::write_entries(&mut chunk, selection, text_options(config, "  ", lines));
    chunk
}
