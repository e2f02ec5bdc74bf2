//! Reading parts of a file: a symbol's body, a line range, and the agent read (the whole file
//! when short; else head, outline and tail, so the next read can be exact).

use super::{json, json_line, text, write_line, write_out, Outcome};
use crate::config::{Config, LineSpec};
use crate::document::Document;
use crate::error::Result;
use crate::lang::Language;
use crate::outline::select::{self, Budget};
use crate::outline::{Entry, Kind, Outline};
use crate::sanitize::{lines_for_terminal, name_for_terminal, path_for_terminal};
use std::fmt::Write as _;
use std::io::Write;

/// Bodies and ranges stop after this many bytes, with a note on what to read next.
pub const MAX_READ_BYTES: usize = 100 * 1024;
/// `--read` shows a file whole up to this many lines.
pub const READ_WHOLE_LINES: usize = 200;
/// Longer files: this many lines from the top ...
pub const READ_HEAD: usize = 80;
/// ... and this many from the bottom.
pub const READ_TAIL: usize = 40;
/// At most this many namesakes of a `--symbol` answer are named on stderr, one line each (a
/// one-line file of `x=1;` has a hundred thousand `x`); the rest are counted.
const NAMESAKES_NOTED: usize = 10;
/// At most this many outline lines in a read: the first 25 and the last 5.
const OUTLINE_FIRST: usize = 25;
const OUTLINE_LAST: usize = 5;

pub(super) fn symbol(
    config: &Config,
    input: &Document,
    query: &str,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Outcome> {
    let Some(outline) = &input.outline else {
        let message = format!(
            "outline: no parser for {}, so it has no symbols; read lines with --lines A:B",
            input.name
        );
        write_line(err, &message)?;
        return Ok(Outcome::NotFound);
    };
    // The file's own lookup (ids, @LINE, names, suffixes), then the search engine's forms
    // (`impl Layout`, `Type::method`, trait impls, globs), so a query that works on a
    // directory works on a file too.
    let found = select::find_symbol(outline, query)
        .or_else(|| crate::search::find_in_outline(outline, query));
    let Some(mut found) = found else {
        let mut message = not_found_message(&input.name, query, &outline.entries);
        if let Some(limit) = &outline.limit {
            // The miss may be past the part outlined: say so, as a search does.
            let _ = write!(
                message,
                " ({}; definitions past it were not searched)",
                limit.reason
            );
        }
        write_line(err, &message)?;
        return Ok(Outcome::NotFound);
    };
    if config.depth.is_some() && found.entry.children.is_empty() {
        // Members were asked for: a struct's impl (same name) has them, the struct may not.
        if let Some(index) = found.others.iter().position(|o| !o.children.is_empty()) {
            let with_members = found.others.remove(index);
            found
                .others
                .insert(0, std::mem::replace(&mut found.entry, with_members));
        }
    }
    for other in found.others.iter().take(NAMESAKES_NOTED) {
        let note = format!(
            "outline: '{}' also matches {} {} {} (L{}); ask for it by id or qualified name",
            crate::sanitize::echo(query),
            outline.id_of(other).unwrap_or_default(),
            other.kind,
            other.qualname(),
            other.line
        );
        write_line(err, &note)?;
    }
    if let Some(more) = found
        .others
        .len()
        .checked_sub(NAMESAKES_NOTED)
        .filter(|n| *n > 0)
    {
        let note = format!(
            "outline: … and {} more match '{}'; list them all with --find",
            crate::parse::thousands(more),
            crate::sanitize::echo(query)
        );
        write_line(err, &note)?;
    }
    if let Some(note) = declaration_note(input, found.entry, !found.others.is_empty()) {
        write_line(err, &note)?;
    }
    symbol_entry(config, input, found.entry, out)
}

/// For a C or C++ function declared without its body (`void draw() const;` in a header, a
/// member declared in its class), a note that says so and where its definition is: a
/// namesake in the same file (`void W::draw() const { }`), else the other matches listed
/// (`others`), else nowhere in the paths searched.
pub(super) fn declaration_note(input: &Document, entry: &Entry, others: bool) -> Option<String> {
    let outline = input.outline.as_ref()?;
    if !matches!(outline.language, Language::C | Language::Cpp) || !declares(input, entry) {
        return None;
    }
    let key = crate::search::rank::namesake_key(entry.qualname());
    let definition = outline.walk().into_iter().map(|(_, e)| e).find(|e| {
        !std::ptr::eq(*e, entry)
            && matches!(e.kind, Kind::Function | Kind::Method)
            && crate::search::rank::namesake_key(e.qualname()) == key
            && !declares(input, e)
    });
    let name = name_for_terminal(entry.qualname());
    let line = entry.line;
    Some(match (definition, others) {
        (Some(definition), _) => format!(
            "outline: {name} (L{line}) is a declaration without a body; its definition: {} (L{})",
            name_for_terminal(definition.qualname()),
            definition.line
        ),
        (None, true) => format!(
            "outline: {name} (L{line}) is a declaration without a body; its definition may be among the other matches"
        ),
        (None, false) => format!(
            "outline: {name} (L{line}) is a declaration without a body; no definition of it is in the paths searched"
        ),
    })
}

/// Whether `entry` is one line that ends in `;` with no body: a declaration.
fn declares(input: &Document, entry: &Entry) -> bool {
    if !crate::search::rank::is_declaration(entry.kind, entry.line, entry.end_line) {
        return false;
    }
    let lines = input.lines();
    let Some(line) = entry.line.checked_sub(1).and_then(|i| lines.get(i)) else {
        return false;
    };
    let code = line.split("//").next().unwrap_or(line).trim_end();
    code.ends_with(';') && !code.contains('{')
}

/// Prints `entry` of `input`: its body, numbered, or with `--depth` its own outline (its
/// members to that depth) so that "what is in impl Buffer" costs the member list only.
pub(super) fn symbol_entry(
    config: &Config,
    input: &Document,
    entry: &Entry,
    out: &mut dyn Write,
) -> Result<Outcome> {
    if let Some(depth) = config.depth {
        let lines = input.lines();
        let budget = select::Budget {
            max_depth: Some(depth),
            max_nodes: config.max_nodes,
        };
        let selection = select::select_entries(std::slice::from_ref(entry), budget);
        let rendered = match (&input.outline, config.json) {
            (Some(outline), true) => {
                // The file object of the contract, holding only this entry's subtree.
                super::file_json(config, input, outline, &selection, &lines)
            }
            _ => {
                let mut text = format!(
                    "# {}: {} ({}, {}, members to depth {depth})\n\n",
                    text::kind_label(entry),
                    name_for_terminal(entry.qualname()),
                    path_for_terminal(crate::walk::shown(&input.path)),
                    text::line_range(entry.line, entry.end_line),
                );
                text::write_entries(
                    &mut text,
                    &selection,
                    super::text_options(config, "", &lines),
                );
                text
            }
        };
        write_out(out, rendered.as_bytes())?;
        return Ok(Outcome::Success);
    }
    // Docs, attributes and decorators above the entry come with it unless asked not to.
    let start = if config.docs {
        entry.doc_line
    } else {
        entry.line
    };
    let rendered = if config.json {
        // The text is the lines as written: numbering is for people reading the text form.
        let (body, shown_end) = read_lines(input, start, entry.end_line, false, read_cap(config))?;
        let mut object = json::ReadObject::new(input, start, shown_end, &body);
        let id = input.outline.as_ref().and_then(|o| o.id_of(entry));
        object.node = Some(json::Node::leaf(
            entry,
            id.unwrap_or_default(),
            config.signatures,
        ));
        json_line(&object)
    } else {
        let (body, shown_end) = numbered(input, start, entry.end_line)?;
        let docs_from = match start < entry.line {
            true => format!(", docs from L{start}"),
            false => String::new(),
        };
        let mut text = format!(
            "# {}: {} ({}, {}{docs_from})\n\n{}",
            text::kind_label(entry),
            name_for_terminal(entry.qualname()),
            path_for_terminal(crate::walk::shown(&input.path)),
            text::line_range(entry.line, entry.end_line),
            lines_for_terminal(&body)
        );
        push_cut_note(&mut text, shown_end, entry.end_line, MAX_READ_BYTES);
        text
    };
    write_out(out, rendered.as_bytes())?;
    Ok(Outcome::Success)
}

fn not_found_message(name: &str, query: &str, tops: &[Entry]) -> String {
    let query = crate::sanitize::echo(query);
    let mut message = format!("outline: no symbol matches '{query}' in {name}");
    if tops.is_empty() {
        message.push_str(" (the file has no outline entries)");
    } else {
        let names: Vec<String> = tops
            .iter()
            .take(20)
            .map(|e| format!("{} {}", e.kind, e.name()))
            .collect();
        let _ = write!(message, "; top-level symbols: {}", names.join(", "));
        if tops.len() > 20 {
            let _ = write!(message, " … and {} more", tops.len() - 20);
        }
    }
    message
}

pub(super) fn line_range(
    config: &Config,
    input: &Document,
    spec: LineSpec,
    out: &mut dyn Write,
) -> Result<Outcome> {
    let total = input.extent.lines;
    let (range, clamped) = spec.resolve(total);
    // JSON carries the lines as written (start_line numbers them), text numbers each line.
    let numbers = !config.json;
    let (body, start, shown_end, end) = match range {
        Some((start, end)) => {
            let (body, shown_end) = read_lines(input, start, end, numbers, read_cap(config))?;
            (body, start, shown_end, end)
        }
        None => (String::new(), 0, 0, 0),
    };
    let note = clamped.then(|| match range {
        Some((start, end)) => {
            format!("[clamped to lines {start}-{end}: the file has {total} lines]")
        }
        None => format!("[no such lines: the file has {total} lines]"),
    });
    let rendered = if config.json {
        let mut notes = note.clone().unwrap_or_default();
        push_cut_note(&mut notes, shown_end, end, read_cap(config));
        let notes = notes.trim_end();
        let mut object = json::ReadObject::new(input, start, shown_end, &body);
        object.note = (!notes.is_empty()).then_some(notes);
        json_line(&object)
    } else {
        let mut text = lines_for_terminal(&body).into_owned();
        push_cut_note(&mut text, shown_end, end, MAX_READ_BYTES);
        if let Some(note) = &note {
            text.push_str(note);
            text.push('\n');
        }
        text
    };
    write_out(out, rendered.as_bytes())?;
    Ok(Outcome::Success)
}

pub(super) fn agent_read(
    config: &Config,
    input: &Document,
    out: &mut dyn Write,
) -> Result<Outcome> {
    let total = input.extent.lines;
    let mut text = String::new();
    let mut omitted = None;
    if total <= READ_WHOLE_LINES {
        let (body, shown_end) = numbered(input, 1, total)?;
        text.push_str(&body);
        push_cut_note(&mut text, shown_end, total, MAX_READ_BYTES);
    } else {
        let tail_start = total - READ_TAIL + 1;
        let (head, head_end) = numbered(input, 1, READ_HEAD)?;
        text.push_str(&head);
        push_cut_note(&mut text, head_end, READ_HEAD, MAX_READ_BYTES);
        if let Some(outline) = &input.outline {
            let lines = input.lines();
            let options = super::text_options(config, "", &lines);
            push_outline_block(&mut text, outline, options);
        }
        let _ = writeln!(
            text,
            "[… lines {}–{} omitted: read a range with --lines A:B or a symbol with --symbol NAME …]",
            READ_HEAD + 1,
            tail_start - 1
        );
        let (tail, tail_end) = numbered(input, tail_start, total)?;
        text.push_str(&tail);
        push_cut_note(&mut text, tail_end, total, MAX_READ_BYTES);
        omitted = Some([READ_HEAD + 1, tail_start - 1]);
    }
    let rendered = if config.json {
        let cap = read_cap(config);
        if config.max_output.is_some() && text.len() > cap {
            let (kept, hidden) = super::cap::cut_at_line(&text, cap);
            text = format!(
                "{kept}[… {hidden} more lines not shown: output cap of {cap} bytes reached]\n"
            );
        }
        let mut object = json::ReadObject::new(input, usize::from(total > 0), total, &text);
        object.omitted = omitted;
        json_line(&object)
    } else {
        lines_for_terminal(&text).into_owned()
    };
    write_out(out, rendered.as_bytes())?;
    Ok(Outcome::Success)
}

/// `[outline: N top-level entries]`, the parse limit when one stopped the outline early, and
/// the top level in `--print`'s format, at most 30 lines: the first 25 and the last 5.
fn push_outline_block(text: &mut String, outline: &Outline, options: text::TextOptions<'_>) {
    let entries = &outline.entries;
    let _ = writeln!(text, "[outline: {} top-level entries]", entries.len());
    if let Some(limit) = &outline.limit {
        let _ = writeln!(text, "# Limit: {}", limit.reason);
    }
    let top_level = Budget {
        max_depth: Some(1),
        max_nodes: None,
    };
    let write = |text: &mut String, part: &[Entry]| {
        text::write_entries(text, &select::select_entries(part, top_level), options);
    };
    if entries.len() <= OUTLINE_FIRST + OUTLINE_LAST {
        write(text, entries);
        return;
    }
    write(text, &entries[..OUTLINE_FIRST]);
    let hidden = entries.len() - OUTLINE_FIRST - OUTLINE_LAST;
    let _ = writeln!(text, "[… {hidden} more …]");
    write(text, &entries[entries.len() - OUTLINE_LAST..]);
}

/// `start..=end` as `<n>: <text>` lines, stopping before [`MAX_READ_BYTES`] (the first line
/// always shows); returns the text and the last line included. Lines past what the loader
/// kept in memory are streamed from the file (see [`Document::line_window`]).
fn numbered(input: &Document, start: usize, end: usize) -> Result<(String, usize)> {
    read_lines(input, start, end, true, MAX_READ_BYTES)
}

/// The bytes of lines a JSON read object carries: [`MAX_READ_BYTES`], or less under
/// `--max-output` (a text answer is cut where it is written, see `print::cap`).
fn read_cap(config: &Config) -> usize {
    match (config.json, config.max_output) {
        (true, Some(limit)) => limit.min(MAX_READ_BYTES),
        _ => MAX_READ_BYTES,
    }
}

/// [`numbered`], or with `numbers` off the lines as written.
fn read_lines(
    input: &Document,
    start: usize,
    end: usize,
    numbers: bool,
    cap: usize,
) -> Result<(String, usize)> {
    let window = input.line_window(start.max(1), end, cap)?;
    let mut body = String::new();
    let mut last = start.saturating_sub(1);
    for (number, text) in (window.first..).zip(&window.lines) {
        if number > start && body.len() + text.len() + 12 > cap {
            break;
        }
        if numbers {
            super::text::push_numbered(&mut body, number, false, text);
        } else {
            let _ = writeln!(body, "{text}");
        }
        last = number;
    }
    if let Some(line) = window.cut_line.filter(|line| *line <= last) {
        let _ = writeln!(
            body,
            "[line {line} is longer than the {} MB read cap: cut there]",
            crate::parse::MAX_BYTES >> 20
        );
    }
    Ok((body, last))
}

/// The note after lines cut at `cap` bytes (the read cap, or a smaller `--max-output`).
fn push_cut_note(text: &mut String, shown_end: usize, end: usize, cap: usize) {
    if shown_end < end {
        let at = match cap {
            MAX_READ_BYTES => format!("{} KB", MAX_READ_BYTES / 1024),
            _ => format!("the output cap of {cap} bytes"),
        };
        let _ = writeln!(
            text,
            "[cut at {at}: lines {}-{end} not shown; read them with --lines {}:{end}]",
            shown_end + 1,
            shown_end + 1
        );
    }
}
