//! `--print`: the headless mode. Outlines a file, a directory or one symbol's body, as text or
//! JSON, to any writer; diagnostics go to a second writer. Never touches the terminal.

use crate::config::Config;
use crate::error::{Error, Result};
use crate::lang::{self, Language};
use crate::outline::select;
use crate::outline::{Entry, Outline};
use crate::parse::{self, ParseOptions};
use crate::source::{self, Loaded};
use std::io::Write;
use std::path::Path;

pub mod json;
pub mod text;

/// Bodies printed by `--symbol` stop after this many bytes, with a note on what to read next.
pub const MAX_SYMBOL_BYTES: usize = 100 * 1024;

/// How a print run ended, for the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Everything asked for was printed.
    Success,
    /// A `--symbol` matched nothing.
    NotFound,
    /// Output was printed but some files could not be read.
    PartialFailure,
}

/// Runs print mode for `config`, writing data to `out` and diagnostics to `err`.
pub fn run(config: &Config, out: &mut dyn Write, err: &mut dyn Write) -> Result<Outcome> {
    let path = config.path.as_path();
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    if meta.is_dir() {
        if config.symbol.is_some() {
            return Err(Error::Usage(
                "--symbol needs a file, not a directory".into(),
            ));
        }
        return directory(config, out, err);
    }
    file(config, out, err)
}

/// A file, parsed.
struct Parsed {
    outline: Outline,
    text: String,
}

/// Reads and parses one file; `Ok(None)` when it is binary (nothing to outline).
fn load(path: &Path, language: Language) -> Result<Option<Parsed>> {
    let Loaded::Text { text, file_bytes } = source::read(path)? else {
        return Ok(None);
    };
    let options = ParseOptions {
        language,
        jsx: lang::may_contain_jsx(path),
    };
    let outline = parse::outline_file(&text, file_bytes, options);
    Ok(Some(Parsed { outline, text }))
}

fn display_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

fn file(config: &Config, out: &mut dyn Write, err: &mut dyn Write) -> Result<Outcome> {
    let path = config.path.as_path();
    let name = display_name(path);
    let Some(language) = config.language.or_else(|| lang::detect(path)) else {
        let message = format!(
            "outline: no parser for {name}; supported: {}",
            lang::supported_summary()
        );
        write_note(config, out, err, &message)?;
        return Ok(Outcome::Success);
    };
    let Some(parsed) = load(path, language)? else {
        write_note(
            config,
            out,
            err,
            &format!("outline: {name}: binary file, not outlined"),
        )?;
        return Ok(Outcome::Success);
    };
    let lines: Vec<&str> = parsed.text.lines().collect();
    if let Some(query) = &config.symbol {
        return symbol(config, &parsed.outline, &lines, &name, query, out, err);
    }
    let selection = select::select(&parsed.outline, config.file_budget());
    let rendered = if config.json {
        let options = json::NodeOptions {
            signatures: config.signatures,
            preview: config.preview,
            lines: &lines,
        };
        let object = json::file_object(
            path.display().to_string(),
            &parsed.outline,
            &selection,
            options,
        );
        json_line(&object)
    } else {
        let mut text = format!("# Outline: {name} ({language})\n");
        if let Some(limit) = &parsed.outline.limit {
            text.push_str(&format!("# Limit: {}\n", limit.reason));
        }
        text.push('\n');
        if parsed.outline.is_empty() {
            text.push_str("(no outline entries)\n");
        }
        text::write_entries(&mut text, &selection, text_options(config, "", &lines));
        text
    };
    write_out(out, rendered.as_bytes())?;
    Ok(Outcome::Success)
}

/// A note that stands in for an outline: on stdout in text mode (it is the answer), on stderr
/// in JSON mode (stdout must stay parseable).
fn write_note(
    config: &Config,
    out: &mut dyn Write,
    err: &mut dyn Write,
    message: &str,
) -> Result<()> {
    let line = format!("{message}\n");
    if config.json {
        write_out(err, line.as_bytes())
    } else {
        write_out(out, line.as_bytes())
    }
}

fn text_options<'t>(
    config: &Config,
    indent: &'static str,
    lines: &'t [&'t str],
) -> text::TextOptions<'t> {
    text::TextOptions {
        signatures: config.signatures,
        line_numbers: config.line_numbers,
        preview: config.preview,
        indent,
        lines,
    }
}

/// The source lines shown under an entry by `--preview n`: those after its first line, inside it.
pub fn preview_lines<'a>(entry: &Entry, lines: &[&'a str], n: usize) -> Vec<&'a str> {
    let last = entry.end_line.min(entry.line + n);
    (entry.line + 1..=last)
        .filter_map(|line| lines.get(line - 1).copied())
        .collect()
}

fn symbol(
    config: &Config,
    outline: &Outline,
    lines: &[&str],
    name: &str,
    query: &str,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Outcome> {
    let Some(found) = select::find_symbol(outline, query) else {
        let tops: Vec<&str> = outline
            .entries
            .iter()
            .take(20)
            .map(|e| e.name.as_str())
            .collect();
        let more = outline.entries.len().saturating_sub(20);
        let mut message = format!("outline: no symbol matches '{query}' in {name}");
        if tops.is_empty() {
            message.push_str(" (the file has no outline entries)");
        } else {
            message.push_str(&format!("; top-level symbols: {}", tops.join(", ")));
            if more > 0 {
                message.push_str(&format!(" … and {more} more"));
            }
        }
        write_out(err, format!("{message}\n").as_bytes())?;
        return Ok(Outcome::NotFound);
    };
    for other in &found.others {
        let note = format!(
            "outline: '{query}' also matches {} {} (L{}); ask for it by id or qualified name\n",
            other.id, other.qualname, other.line
        );
        write_out(err, note.as_bytes())?;
    }
    let entry = found.entry;
    let (body, shown_end) = numbered_body(lines, entry.line, entry.end_line);
    let rendered = if config.json {
        let object = json::SymbolObject::new(
            &config.path,
            outline,
            entry,
            shown_end,
            &body,
            config.signatures,
        );
        json_line(&object)
    } else {
        let mut text = format!(
            "# {}: {} ({name}, L{}-L{})\n\n",
            text::kind_label(entry),
            entry.qualname,
            entry.line,
            entry.end_line
        );
        text.push_str(&body);
        if shown_end < entry.end_line {
            text.push_str(&format!(
                "[cut at {} KB: lines {}-{} not shown; read them with --symbol @{} or a line range]\n",
                MAX_SYMBOL_BYTES / 1024,
                shown_end + 1,
                entry.end_line,
                shown_end + 1
            ));
        }
        text
    };
    write_out(out, rendered.as_bytes())?;
    Ok(Outcome::Success)
}

/// `start..=end` as `<n>: <text>` lines, stopping before [`MAX_SYMBOL_BYTES`]; returns the
/// text and the last line included.
fn numbered_body(lines: &[&str], start: usize, end: usize) -> (String, usize) {
    let mut body = String::new();
    let mut last = start.saturating_sub(1);
    for number in start..=end {
        let Some(text) = lines.get(number - 1) else {
            break;
        };
        let line = format!("{number}: {text}\n");
        if body.len() + line.len() > MAX_SYMBOL_BYTES && number > start {
            break;
        }
        body.push_str(&line);
        last = number;
    }
    (body, last)
}

fn json_line<T: serde::Serialize>(value: &T) -> String {
    // Serialising our own wire types cannot fail (no maps with non-string keys, no I/O).
    let mut line = serde_json::to_string(value).unwrap_or_default();
    line.push('\n');
    line
}

/// Writes all of `bytes`; a closed pipe surfaces as an I/O error that main treats as quiet.
fn write_out(out: &mut dyn Write, bytes: &[u8]) -> Result<()> {
    out.write_all(bytes).map_err(|e| Error::io("<stdout>", e))
}

mod directory;
use directory::directory;
