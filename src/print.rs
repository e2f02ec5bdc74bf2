//! `--print`: the headless mode. Outlines a file, a directory or standard input as text or JSON,
//! or reads part of a file (a symbol, a line range, the agent read). Data goes to one writer,
//! diagnostics to another; the terminal is never touched.

use crate::config::{Config, Mode};
use crate::document::Document;
use crate::error::{Error, Result};
use crate::git;
use crate::lang;
use crate::outline::select;
use crate::outline::{Entry, Outline};
use crate::parse;
use crate::sanitize::name_for_terminal;
use crate::source;
use std::io::Write;
use std::path::Path;

mod built;
mod callers;
mod cap;
mod compare;
mod directory;
mod fit;
pub mod json;
mod picture;
mod read;
mod search;
pub mod text;
mod uncalled;
mod wider;

/// How a print run ended, for the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Everything asked for was printed.
    Success,
    /// A `--symbol` matched nothing.
    NotFound,
    /// Output was printed but some files could not be read.
    PartialFailure,
    /// `--if-hash` did not match: the file changed since it was outlined.
    Stale,
}

/// Runs print mode for `config`, writing data to `out` and diagnostics to `err`.
pub fn run(config: &Config, out: &mut dyn Write, err: &mut dyn Write) -> Result<Outcome> {
    if config.stdin {
        let stdin = Path::new("<stdin>");
        let mut input = Document::from_loaded(stdin, source::read_stdin()?, config.language);
        if input.extent.input_cut {
            let note = format!(
                "outline: <stdin>: stopped reading at the {} MB read cap; the rest was not read\n",
                parse::MAX_BYTES >> 20
            );
            write_out(err, note.as_bytes())?;
        }
        if config.diff {
            write_line(
                err,
                "outline: diff markers off: standard input has no git history",
            )?;
        }
        // Without a snapshot only tokens are counted, which cannot fail.
        let _ = input.annotate(&config.annotations(config.depth), None);
        return file(config, input, out, err);
    }
    for path in &config.paths {
        config.check_root(path)?;
    }
    if let Mode::Find(_) | Mode::Grep(_) | Mode::Refs(_) = config.mode {
        return search::run(config, out, err);
    }
    let path = config.path.as_path();
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    let one_file = config.paths.len() == 1 && !meta.is_dir();
    if config.if_hash.is_some() && !one_file {
        return Err(Error::Usage(
            "--if-hash takes one file (a hash is of one file), not a directory or several paths"
                .into(),
        ));
    }
    match &config.mode {
        Mode::Outline if !one_file => return directory::directory(config, out, err),
        Mode::Symbol(queries) if !one_file => return symbols(config, queries, out, err),
        Mode::Read | Mode::Lines(_) if !one_file => {
            return Err(Error::Usage(
                "--read and --lines take one file, not a directory or several paths".into(),
            ))
        }
        _ => {}
    }
    let mut input = open(config, path, config.language)?;
    let snapshot = match config.diff {
        true => git_snapshot(path, err)?,
        false => None,
    };
    if let Err(reason) = input.annotate(&config.annotations(config.depth), snapshot.as_ref()) {
        write_line(err, &format!("outline: diff markers off: {reason}"))?;
    }
    file(config, input, out, err)
}

/// Loads a file for printing: `--no-tests` drops its test modules.
pub(crate) fn open(
    config: &Config,
    path: &Path,
    language: Option<crate::lang::Language>,
) -> Result<Document> {
    without_tests(
        config,
        Document::open_in(path, language, config.root.as_deref())?,
    )
}

/// [`open`] for a file the directory walk listed ([`Document::open_listed`]).
pub(crate) fn open_listed(
    config: &Config,
    path: &Path,
    language: crate::lang::Language,
) -> Result<Document> {
    let document = Document::open_listed(path, Some(language), config.root.as_deref())?;
    without_tests(config, document)
}

/// `document`, less its test entries under `--no-tests`.
fn without_tests(config: &Config, mut document: Document) -> Result<Document> {
    if let (true, Some(outline)) = (config.no_tests, &mut document.outline) {
        crate::search::drop_test_entries(&mut outline.entries);
    }
    Ok(document)
}

/// The JSON file object of `selection` (the contract's one object for a file), as a line.
pub(crate) fn file_json(
    config: &Config,
    input: &Document,
    outline: &Outline,
    selection: &select::Selection<'_>,
    lines: &[&str],
) -> String {
    let options = json::NodeOptions {
        signatures: config.signatures,
        preview: config.preview,
        lines,
    };
    let path = input.path.display().to_string();
    let object = json::file_object(path, &input.hash, outline, selection, options);
    // The writer writes UTF-8 only: every string it copies is one.
    String::from_utf8(object.json_line()).unwrap_or_default()
}

/// `--symbol` over a directory or several paths: each query in turn, searched in the tree
/// unless it names its file (`PATH#ID`).
fn symbols(
    config: &Config,
    queries: &[String],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Outcome> {
    let mut outcome = Outcome::Success;
    for query in queries {
        let result = match search::path_and_id(query) {
            Some(_) => symbol_by_path(config, query, out, err)?,
            None => search::symbol_in_tree(config, query, out, err)?,
        };
        outcome = search::worst(outcome, result);
    }
    Ok(outcome)
}

/// `--symbol PATH#ID`: exactly that entry of that file (as listed by an earlier search).
fn symbol_by_path(
    config: &Config,
    query: &str,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Outcome> {
    let Some((path, id)) = search::path_and_id(query) else {
        return Ok(Outcome::NotFound);
    };
    config.check_root(path)?;
    let input = Document::open_in(path, config.language, config.root.as_deref())?;
    if let Some(expected) = &config.if_hash {
        if *expected != input.hash {
            let message = format!(
                "outline: {} changed: its hash is {}, not {expected}; outline it again",
                path.display(),
                input.hash
            );
            write_line(err, &message)?;
            return Ok(Outcome::Stale);
        }
    }
    read::symbol(config, &input, id, out, err)
}

/// The repository status for markers, or `None` after saying in one line why they are off
/// (outside a repository is not an error).
pub(crate) fn git_snapshot(path: &Path, err: &mut dyn Write) -> Result<Option<git::Snapshot>> {
    let snapshot = match path.is_dir() {
        true => git::snapshot(path),
        false => git::snapshot_file(path),
    };
    match snapshot {
        Ok(snapshot) => Ok(Some(snapshot)),
        Err(reason) => {
            write_line(err, &format!("outline: diff markers off: {reason}"))?;
            Ok(None)
        }
    }
}

/// One file's answer, cut by `--max-output` when the flag is given (a text answer at a line;
/// JSON objects are cut where they are built).
fn file(
    config: &Config,
    input: Document,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Outcome> {
    let text_limit = config.max_output.filter(|_| !config.json);
    let mut capped = cap::OutputCap::new(out, text_limit);
    let outcome = file_answer(config, input, &mut capped, err)?;
    capped.finish().map_err(|e| Error::io("<stdout>", e))?;
    Ok(outcome)
}

fn file_answer(
    config: &Config,
    input: Document,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Outcome> {
    if input.binary {
        let note = format!("outline: {}: binary file, not outlined", input.name);
        write_note(config, out, err, &note)?;
        return Ok(Outcome::Success);
    }
    if let Some(expected) = &config.if_hash {
        if *expected != input.hash {
            let message = format!(
                "outline: {} changed: its hash is {}, not {expected}; outline it again",
                input.path.display(),
                input.hash
            );
            write_line(err, &message)?;
            return Ok(Outcome::Stale);
        }
    }
    match &config.mode {
        Mode::Read => read::agent_read(config, &input, out),
        Mode::Lines(spec) => read::line_range(config, &input, *spec, out),
        Mode::Symbol(queries) => {
            let mut outcome = Outcome::Success;
            for query in queries {
                let result = match search::path_and_id(query) {
                    Some(_) => symbol_by_path(config, query, out, err)?,
                    None => read::symbol(config, &input, query, out, err)?,
                };
                outcome = search::worst(outcome, result);
            }
            Ok(outcome)
        }
        Mode::Outline => outline(config, &input, out, err),
        Mode::Find(_) | Mode::Grep(_) | Mode::Refs(_) => search::run(config, out, err),
    }
}

fn outline(
    config: &Config,
    input: &Document,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Outcome> {
    let Some(outline) = &input.outline else {
        let message = format!(
            "outline: no parser for {}; supported: {}",
            input.name,
            lang::supported_summary()
        );
        write_note(config, out, err, &message)?;
        return Ok(Outcome::Success);
    };
    let lines = input.lines();
    let selection = select::select(outline, config.file_budget());
    let rendered = if config.json {
        let json = file_json(config, input, outline, &selection, &lines);
        match config.max_output {
            Some(limit) if json.len() > limit => {
                json_within(config, input, outline, &selection, limit, err)?
            }
            _ => json,
        }
    } else {
        let name = name_for_terminal(&input.name);
        let mut text = format!("# Outline: {name} ({})\n", file_facts(outline));
        if let Some(limit) = &outline.limit {
            text.push_str(&format!("# Limit: {}\n", limit.reason));
        }
        let options = text_options(config, "", &lines);
        let (entries, note) = match fits_to_file(config) {
            true => fit::fitted(outline, input.text.len(), options),
            false => {
                let mut entries = String::new();
                text::write_entries(&mut entries, &selection, options);
                (entries, None)
            }
        };
        if let Some(note) = note {
            text.push_str(&note);
            text.push('\n');
        }
        text.push('\n');
        if outline.is_empty() {
            text.push_str("(no outline entries)\n");
        }
        text.push_str(&entries);
        text
    };
    write_out(out, rendered.as_bytes())?;
    Ok(Outcome::Success)
}

/// The file's JSON object with as many entries as fit in `limit` bytes (breadth first, as
/// `--max-nodes` would cut it, and marked so), and a note on stderr saying so.
fn json_within(
    config: &Config,
    input: &Document,
    outline: &Outline,
    selection: &select::Selection<'_>,
    limit: usize,
    err: &mut dyn Write,
) -> Result<String> {
    let lines = input.lines();
    let render = |nodes: usize| {
        let mut budget = config.file_budget();
        budget.max_nodes = Some(nodes);
        file_json(
            config,
            input,
            outline,
            &select::select(outline, budget),
            &lines,
        )
    };
    // The most entries that fit, found by halving the range (each try renders at most the
    // entries shown); one entry is shown whatever the cap.
    let (mut fits, mut over) = (1, selection.walk().len());
    while over - fits > 1 {
        let middle = fits + (over - fits) / 2;
        match render(middle).len() <= limit {
            true => fits = middle,
            false => over = middle,
        }
    }
    let note = format!(
        "outline: {}: cut to {fits} entries to fit the output cap of {limit} bytes (raise --max-output)",
        input.name
    );
    write_line(err, &note)?;
    Ok(render(fits))
}

/// Whether a file's text outline is sized to the file ([`fit`]): only when nothing asked for a
/// shape of its own (a depth, a node count, previews, changed entries only).
fn fits_to_file(config: &Config) -> bool {
    config.depth.is_none()
        && config.max_nodes.is_none()
        && config.preview == 0
        && !config.changed_only
}

/// `python`, or with token counts `python, 1,204 lines, 9,870 tokens` (`~9,870` when the
/// count is an estimate).
fn file_facts(outline: &Outline) -> String {
    match outline.tokens {
        None => outline.language.to_string(),
        Some((tokens, encoding)) => format!(
            "{}, {} lines, {}{} tokens",
            outline.language,
            parse::thousands(outline.lines),
            crate::tokens::estimate_mark(encoding),
            parse::thousands(tokens)
        ),
    }
}

/// A note that stands in for an outline: on stdout in text mode (it is the answer), on stderr
/// in JSON mode (stdout must stay parseable).
fn write_note(
    config: &Config,
    out: &mut dyn Write,
    err: &mut dyn Write,
    message: &str,
) -> Result<()> {
    if config.json {
        write_line(err, message)
    } else {
        write_line(out, message)
    }
}

/// Writes a one-line message and its line break; the names it embeds came from files, so every
/// control character in it is shown as a visible escape.
pub(crate) fn write_line(to: &mut dyn Write, message: &str) -> Result<()> {
    let line = format!("{}\n", name_for_terminal(message));
    write_out(to, line.as_bytes())
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
        tokens: config.tokens.is_some(),
        token_mark: config.tokens.map_or("", |tokenizer| {
            crate::tokens::estimate_mark(tokenizer.encoding())
        }),
        diff: config.diff,
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
