//! The search modes of `--print`: `--find` (definitions), `--grep` (text by enclosing symbol),
//! `--refs` (uses of a name) and `--symbol` over directories, rendered from the
//! [`crate::search`] engine as text or JSON Lines.

use super::{json_line, picture, read, text, write_line, write_out, Outcome};
use crate::config::{Config, Mode};
use crate::document::Document;
use crate::error::{Error, Result};
use crate::outline::{Entry, Kind};
use crate::sanitize::{echo, for_terminal, name_for_terminal};
use crate::search::{
    self, CallParameters, Definition, FileHits, FindQuery, FindResult, HitGroup, OtherOverloads,
    Scope, Summary,
};
use crate::source::Loaded;
use crate::walk::{self, WalkOptions};
use serde::Serialize;
use std::fmt::Write as _;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::Path;

/// The longest body (in lines) `--find` prints for its only match without `--body`.
const FIND_BODY_MAX_LINES: usize = 100;

/// Several matches print their bodies without `--body` when there are at most this many,
/// all shown, ...
const FIND_BODIES_MAX_MATCHES: usize = 10;
/// ... and their bodies together span at most this many lines: overloads and namesakes short
/// enough to compare at once cost about what their list and one more call would.
const FIND_BODIES_MAX_LINES: usize = 60;

/// `--find` shows this many definitions unless `--max-results` says otherwise.
pub const FIND_MAX_RESULTS: usize = 50;

/// The walk a search makes for `config`.
pub(super) fn scope(config: &Config) -> Scope {
    Scope {
        paths: config.paths.clone(),
        walk: WalkOptions {
            hidden: config.hidden,
            only: config.language,
            globs: config.globs.clone(),
            any_language: matches!(config.mode, Mode::Grep(_)),
            no_parent_ignores: config.root.is_some(),
            confine: config.root.clone(),
            skip_lock_files: false,
        },
        no_tests: config.no_tests,
        root: config.root.clone(),
    }
}

/// Runs `--find`, `--grep` or `--refs`.
pub(super) fn run(config: &Config, out: &mut dyn Write, err: &mut dyn Write) -> Result<Outcome> {
    let scope = scope(config);
    match &config.mode {
        Mode::Find(query) => find(config, &scope, query, out, err),
        Mode::Grep(regex) => {
            let options = text_options(config);
            let mut printer = HitPrinter::new(config, out);
            let style = GroupStyle::of(config);
            let summary = search::grep_prepared(
                &scope,
                regex,
                options,
                |file| style.render(file),
                |file| printer.file(file),
            )?;
            printer.finish(err, &summary, &format!("'{}'", echo(regex.as_str())))
        }
        Mode::Refs(query) if !config.json && config.depth.is_some_and(|depth| depth > 1) => {
            super::callers::callers(config, query, config.depth.unwrap_or(1), out, err)
        }
        Mode::Refs(query) => {
            let options = text_options(config);
            let mut printer = HitPrinter::new(config, out);
            printer.definitions_first = !config.json;
            printer.parameters = query.parameters.clone();
            let style = GroupStyle::of(config);
            let summary = search::refs_prepared(
                &scope,
                query,
                options,
                |file| style.render(file),
                |file| printer.file(file),
            )?;
            printer.finish(err, &summary, &format!("uses of '{}'", echo(&query.text)))
        }
        _ => Err(Error::Usage("not a search mode".into())),
    }
}

pub(super) fn text_options(config: &Config) -> search::TextSearch {
    search::TextSearch {
        context: config.context,
        function_context: config.function_context,
        code_only: config.code_only,
        tokens: config.tokens,
    }
}

fn find(
    config: &Config,
    scope: &Scope,
    query: &FindQuery,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Outcome> {
    let max = config.max_results.unwrap_or(FIND_MAX_RESULTS);
    let result = search::find(scope, query, max, config.tokens)?;
    let mut outcome = report_unreadable(err, &result.summary)?;
    if result.matches.is_empty() {
        if !nothing_read(&result.summary) {
            not_found(err, scope, query, &result)?;
        }
        write_out(
            err,
            partial_notes(&result.summary, Shown::AsNotes).as_bytes(),
        )?;
        return Ok(worst(outcome, Outcome::NotFound));
    }
    // One match saves a second call by printing its body, unless the body is long: "where
    // is yyparse" should not cost 2,000 lines. `--body` prints it whatever its length.
    let one_short_match = match result.matches.as_slice() {
        [found] => found.entry.end_line - found.entry.line < FIND_BODY_MAX_LINES,
        _ => false,
    };
    let additions = picture::has_additions(&result);
    let overloads = short_overloads(&result, query.names_parameters());
    // What the answer wrote so far, so that the build sites below stay within the cap.
    let written;
    if ((one_short_match || overloads) && !additions) || config.body {
        let mut all = result.matches.clone();
        all.extend(result.additions.iter().cloned());
        let mut bodies_text = Vec::new();
        outcome = worst(outcome, bodies(config, &all, &mut bodies_text, err)?);
        write_out(out, &bodies_text)?;
        let groups: String = result
            .groups
            .iter()
            .map(|g| picture::group_line(config, g))
            .collect();
        write_out(out, groups.as_bytes())?;
        written = bodies_text.len() + groups.len();
    } else {
        // The output cap bounds the list as it bounds every mode: the first line always
        // shows, and the cut is said below with the matches left out.
        let max_output = max_output(config);
        let mut text = String::new();
        let mut shown = 0;
        let named =
            |path: &Path| name_for_terminal(&walk::shown(path).display().to_string()).into_owned();
        let lines = result
            .matches
            .iter()
            .chain(&result.additions)
            .map(|found| (named(&found.path), definition_line(config, found)))
            .chain(
                result
                    .groups
                    .iter()
                    .map(|group| (named(&group.path), picture::group_line(config, group))),
            );
        let listed = result.matches.len() + result.additions.len() + result.groups.len();
        let mut paths = text::PathRuns::default();
        for (path, line) in lines {
            // JSON names no file as written, so nothing is elided there.
            let line = paths.elided(&path, &line);
            if shown > 0 && text.len() + line.len() > max_output {
                break;
            }
            if !config.json {
                paths.named(&path);
            }
            text.push_str(line);
            shown += 1;
        }
        if shown < listed {
            let omitted = result.total + result.picture_total - shown;
            let note = match config.json {
                true => format!(
                    "{{\"truncated\":true,\"truncation_reason\":\"max_output\",\"omitted\":{omitted}}}\n"
                ),
                false => format!(
                    "# … stopped at the output cap of {max_output} bytes after {shown} of {} matches (raise --max-output, or narrow with a kind, Type.name or PATH)\n",
                    crate::parse::thousands(result.total + result.picture_total)
                ),
            };
            text.push_str(&note);
            write_out(out, text.as_bytes())?;
            write_out(
                out,
                partial_notes(&result.summary, Shown::beside(config.json)).as_bytes(),
            )?;
            return Ok(outcome);
        }
        if let ([found], false, false) = (result.matches.as_slice(), config.json, additions) {
            let _ = writeln!(
                text,
                "# its body is {} lines: --body prints it, or --symbol {}#{}",
                found.entry.end_line - found.entry.line + 1,
                walk::shown(&found.path).display(),
                found.entry.id
            );
        }
        write_out(out, text.as_bytes())?;
        written = text.len();
    }
    // One plain name, with or without a kind (`--find 'struct Error'`): a type's build sites.
    let plain_name = query.parts.len() == 1 && query.glob().is_none();
    if let Some(name) = query.parts.first().filter(|_| plain_name) {
        let (spelled, homes) = super::built::homes(config, query, name, &result.matches);
        if let Some(spelled) = spelled {
            let section = super::built::section(scope, spelled, &homes)?;
            let (shown, hidden) =
                super::cap::cut_at_line(&section, max_output(config).saturating_sub(written));
            write_out(out, shown.as_bytes())?;
            if hidden > 0 {
                let note = format!(
                    "# … {hidden} lines of where it is built not shown: output cap of {} bytes reached (raise --max-output)\n",
                    max_output(config)
                );
                write_out(out, note.as_bytes())?;
            }
        }
    }
    let shown = result.matches.len() + result.additions.len() + result.groups.len();
    let more = result.total + result.picture_total - shown;
    if more > 0 {
        let note = match config.json {
            true => format!(
                "{{\"truncated\":true,\"truncation_reason\":\"max_results\",\"omitted\":{more}}}\n"
            ),
            false => format!("# … {more} more matches (raise --max-results, or narrow with a kind, Type.name or PATH)\n"),
        };
        write_out(out, note.as_bytes())?;
    }
    write_out(
        out,
        partial_notes(&result.summary, Shown::beside(config.json)).as_bytes(),
    )?;
    Ok(outcome)
}

/// Where notes on files searched only in part go.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Shown {
    /// Beside results, in their form: `# Limit:` lines, as `--print` says a file's limit.
    Text,
    /// Beside JSON results: one object per file.
    Json,
    /// No results: on standard error, with the other notes (the answer is a miss).
    AsNotes,
}

impl Shown {
    fn beside(json: bool) -> Shown {
        match json {
            true => Shown::Json,
            false => Shown::Text,
        }
    }
}

/// One line per file the search saw only in part (a read or outline limit): an answer, a
/// miss included, says when it may be missing something.
pub(super) fn partial_notes(summary: &Summary, shown: Shown) -> String {
    let mut text = String::new();
    for file in &summary.partial {
        let path = walk::shown(&file.path).display().to_string();
        match shown {
            Shown::Text => {
                let _ = writeln!(
                    text,
                    "# Limit: {}: {}",
                    name_for_terminal(&path),
                    file.reason
                );
            }
            Shown::Json => text.push_str(&json_line(&PartialObject {
                partial: true,
                path: &path,
                input_limit: &file.reason,
            })),
            Shown::AsNotes => {
                let _ = writeln!(
                    text,
                    "outline: {}: {}",
                    name_for_terminal(&path),
                    file.reason
                );
            }
        }
    }
    text
}

/// A file searched only in part, as JSON: `{"partial":true,"path":…,"input_limit":…}`.
#[derive(Serialize)]
struct PartialObject<'a> {
    partial: bool,
    path: &'a str,
    input_limit: &'a str,
}

/// The `--max-output` in force: text output is capped by default, JSON only when asked.
pub(super) fn max_output(config: &Config) -> usize {
    config.max_output.unwrap_or(match config.json {
        true => usize::MAX,
        false => super::directory::TEXT_MAX_OUTPUT,
    })
}

/// Whether the matches are overloads of one function or method (one qualified name: namesakes
/// of different owners are different answers, and namesake types are a type's picture,
/// listed with what each part is), all shown, and short together (see
/// [`FIND_BODIES_MAX_LINES`]). A query that names the parameters (`validate(_ validation`)
/// asks for those overloads whatever their owners: the bodies are what it compares, within
/// the budget of one match's body ([`FIND_BODY_MAX_LINES`]).
fn short_overloads(result: &FindResult, by_parameters: bool) -> bool {
    let matches = &result.matches;
    let Some(first) = matches.first() else {
        return false;
    };
    let callable = |found: &Definition| {
        matches!(found.entry.kind, Kind::Function | Kind::Method)
            && match by_parameters {
                true => found.entry.bare_name() == first.entry.bare_name(),
                false => found.entry.qualname == first.entry.qualname,
            }
    };
    let lines: usize = matches
        .iter()
        .map(|found| found.entry.end_line - found.entry.line + 1)
        .sum();
    // Overloads named by their parameters are what the query asked to read, as one match is:
    // they share its budget.
    let budget = match by_parameters {
        true => FIND_BODY_MAX_LINES,
        false => FIND_BODIES_MAX_LINES,
    };
    (2..=FIND_BODIES_MAX_MATCHES).contains(&matches.len())
        && result.total == matches.len()
        && matches.iter().all(callable)
        && lines <= budget
}

/// The bodies of `matches` in rank order within the output cap: namesakes and overloads are
/// compared in one call. The first body always prints; past the cap, the rest are listed as
/// definition lines (while those fit) with a note, never dropped silently.
fn bodies(
    config: &Config,
    matches: &[Definition],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Outcome> {
    let max_output = max_output(config);
    // Several bodies are read to compare their code: each one's doc comment (a Javadoc
    // block can outweigh its method) is left out, and a last line says how to read it.
    let several = matches.len() > 1;
    let docs_left_out = config.docs
        && several
        && matches
            .iter()
            .any(|found| found.entry.doc_line < found.entry.line);
    let config = &Config {
        docs: config.docs && !several,
        ..config.clone()
    };
    let mut outcome = Outcome::Success;
    let mut written = 0;
    // Text bodies printed whole, to show a near-copy of one as the lines that differ.
    let mut whole: Vec<super::compare::Shown> = Vec::new();
    for (index, found) in matches.iter().enumerate() {
        let mut rendered = Vec::new();
        outcome = worst(
            outcome,
            body(config, found, false, false, &mut rendered, err)?,
        );
        let shown = std::str::from_utf8(&rendered)
            .ok()
            .filter(|_| !config.json)
            .and_then(super::compare::Shown::parse);
        if let Some(shown) = shown {
            match super::compare::as_difference(&whole, &shown) {
                Some(difference) => rendered = difference.into_bytes(),
                None => whole.push(shown),
            }
        }
        if index > 0 && written + rendered.len() > max_output {
            let mut rest = String::new();
            let mut listed = 0;
            for other in &matches[index..] {
                let line = definition_line(config, other);
                if written + rest.len() + line.len() > max_output {
                    break;
                }
                rest.push_str(&line);
                listed += 1;
            }
            let note = match config.json {
                true => format!(
                    "{{\"truncated\":true,\"truncation_reason\":\"max_output\",\"omitted\":{}}}\n",
                    matches.len() - index
                ),
                false => format!(
                    "# … stopped at the output cap of {max_output} bytes after {index} of {} bodies{} (raise --max-output, or read one with --symbol PATH#ID)\n",
                    matches.len(),
                    match listed {
                        0 => String::new(),
                        _ => format!("; {listed} more listed above by their lines"),
                    }
                ),
            };
            write_out(out, rest.as_bytes())?;
            write_out(out, note.as_bytes())?;
            return Ok(outcome);
        }
        written += rendered.len();
        write_out(out, &rendered)?;
    }
    if docs_left_out && !config.json {
        let note = "# doc comments above these bodies left out (--symbol reads one with them)\n";
        write_out(out, note.as_bytes())?;
    }
    Ok(outcome)
}

/// The signature with its name qualified (`pub fn Printer.chunk(&mut self)`), so that the name
/// is printed once; `qualname  signature` when the signature does not spell the name.
fn qualified_signature(qualname: &str, name: &str, signature: &str) -> String {
    let is_word = |byte: u8| byte.is_ascii_alphanumeric() || byte == b'_' || byte >= 0x80;
    let bytes = signature.as_bytes();
    let at = (!name.is_empty())
        .then(|| signature.match_indices(name))
        .into_iter()
        .flatten()
        .map(|(at, _)| at)
        .find(|&at| {
            let before = at.checked_sub(1).map(|i| bytes[i]);
            let after = bytes.get(at + name.len()).copied();
            !before.is_some_and(is_word) && !after.is_some_and(is_word)
        });
    match at {
        Some(at) => format!(
            "{}{qualname}{}",
            &signature[..at],
            &signature[at + name.len()..]
        ),
        None => format!("{qualname}  {signature}"),
    }
}

/// A signature as a definition line shows it after its kind: the kind printed once (`class
/// Cart`, not `class class Cart`) and the name qualified.
fn signature_label(kind: &str, qualname: &str, name: &str, signature: &str) -> String {
    let signature = signature
        .strip_prefix(kind)
        .and_then(|rest| rest.strip_prefix(' '))
        .unwrap_or(signature);
    qualified_signature(qualname, name, signature)
}

/// `path:L<start>-<end> <kind> <signature with the qualified name>`, or the JSON object.
fn definition_line(config: &Config, found: &Definition) -> String {
    let path = walk::shown(&found.path).display().to_string();
    let entry = &found.entry;
    if config.json {
        return json_line(&DefinitionObject {
            path,
            hash: &found.hash,
            language: found.language.name(),
            id: &entry.id,
            kind: entry.kind.as_str(),
            name: &entry.name,
            qualname: &entry.qualname,
            signature: entry.signature.as_deref().filter(|_| config.signatures),
            line: entry.line,
            end_line: entry.end_line,
            tokens: entry.tokens,
            in_test: found.in_test.then_some(true),
            adds: found.adds.map(search::Adds::as_str),
            implements: entry.implements.as_deref().filter(|_| found.adds.is_some()),
        });
    }
    // A Swift extension is an impl block to the model; the line says what the code says.
    let kind = match found.adds {
        Some(search::Adds::Extension) => "extension",
        _ => entry.kind.as_str(),
    };
    let label = match (config.signatures, &entry.signature) {
        (true, Some(signature)) => signature_label(kind, &entry.qualname, &entry.name, signature),
        _ => entry.qualname.to_string(),
    };
    let mut line = format!(
        "{}:{} {kind} {}{}",
        name_for_terminal(&path),
        text::line_range(entry.line, entry.end_line),
        name_for_terminal(&label),
        picture::mark_suffix(found.adds)
    );
    if let Some(tokens) = entry.tokens {
        let _ = write!(line, "  ({} tokens)", crate::parse::thousands(tokens));
    }
    line.push('\n');
    line
}

/// One definition found by `--find`, as JSON.
#[derive(Serialize)]
struct DefinitionObject<'a> {
    path: String,
    hash: &'a str,
    language: &'a str,
    id: &'a str,
    kind: &'a str,
    name: &'a str,
    qualname: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    signature: Option<&'a str>,
    line: usize,
    end_line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    tokens: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    in_test: Option<bool>,
    /// How it adds to the type asked for: `impl`, `extension`, `partial`, `reopened`, `merged`.
    #[serde(skip_serializing_if = "Option::is_none")]
    adds: Option<&'a str>,
    /// The trait or interface an impl block implements.
    #[serde(skip_serializing_if = "Option::is_none")]
    implements: Option<&'a str>,
}

/// A `--find` body as text: the entry's lines read again from its file, which must still hash
/// as it did when searched, without outlining it a second time (a 10 MB file's outline is
/// most of the memory such a read would take).
fn lines_of_body(
    config: &Config,
    found: &Definition,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Outcome> {
    let path = walk::shown(&found.path);
    let loaded = crate::source::read_in(path, config.root.as_deref())?;
    let unchanged = matches!(&loaded, Loaded::Text { hash, .. } if *hash == found.hash);
    if !unchanged {
        let message = format!(
            "outline: {} changed while it was searched; search again",
            found.path.display()
        );
        write_line(err, &message)?;
        return Ok(Outcome::PartialFailure);
    }
    let document = Document::from_loaded(path, loaded, None);
    let found = &found.entry;
    let mut entry = Entry::new(found.kind, found.name.as_str(), found.line, found.end_line);
    entry.set_qualname(&found.qualname);
    entry.signature = found.signature.as_deref().map(Into::into);
    entry.doc_line = found.doc_line;
    entry.level = found.level;
    read::symbol_entry(config, &document, &entry, out)
}

/// Prints the body of a definition found in a walk, read again from its file; `alone` when
/// it is a `--symbol` answer (a declaration then says it is one, and `others` whether other
/// matches were listed).
fn body(
    config: &Config,
    found: &Definition,
    alone: bool,
    others: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Outcome> {
    let path = walk::shown(&found.path);
    if !alone && !config.json && config.depth.is_none() {
        return lines_of_body(config, found, out, err);
    }
    let document = Document::open_in(path, Some(found.language), config.root.as_deref())?;
    let entry = document
        .outline
        .as_ref()
        .and_then(|outline| outline.find_id(&found.entry.id))
        .filter(|entry| entry.qualname() == found.entry.qualname);
    match entry {
        Some(entry) => {
            // The best of a `--symbol` search: a declaration is the answer only when no
            // definition was found (definitions rank first), which it says.
            let note = alone.then(|| read::declaration_note(&document, entry, others));
            if let Some(note) = note.flatten() {
                write_line(err, &note)?;
            }
            read::symbol_entry(config, &document, entry, out)
        }
        None => {
            let message = format!(
                "outline: {} changed while it was searched; search again",
                found.path.display()
            );
            write_line(err, &message)?;
            Ok(Outcome::PartialFailure)
        }
    }
}

/// No match: how many files were read, and what the query may have meant. When a kind was
/// asked for, the names that exist with other kinds are said (a second search, paid only on
/// a miss), never suggested back as if they were near misses.
fn not_found(
    err: &mut dyn Write,
    scope: &Scope,
    query: &FindQuery,
    result: &FindResult,
) -> Result<()> {
    let mut message = format!(
        "outline: no definition matches '{}' in {}",
        echo(&query.text),
        plural(result.summary.files, "file")
    );
    let mut other_kinds = Vec::new();
    if !query.kinds.is_empty() {
        let mut any_kind = query.clone();
        any_kind.kinds.clear();
        let loose = search::find(scope, &any_kind, FIND_MAX_RESULTS, None)?;
        other_kinds = loose.matches.iter().map(|m| m.entry.kind).collect();
        other_kinds.sort();
        other_kinds.dedup();
    }
    if !other_kinds.is_empty() {
        let kinds: Vec<&str> = other_kinds.iter().map(|k| k.as_str()).collect();
        let _ = write!(
            message,
            "; that name exists as {}: drop the kind",
            kinds.join(", ")
        );
    } else if let Some(wider) = super::wider::found_in_a_wider_path(scope, query) {
        message.push_str(&wider);
    } else if !result.nearest.is_empty() {
        let _ = write!(message, "; nearest names: {}", result.nearest.join(", "));
    }
    write_line(err, &message)
}

/// `1 file`, `2 files`.
pub(super) fn plural(count: usize, noun: &str) -> String {
    match count {
        1 => format!("1 {noun}"),
        n => format!("{} {noun}s", crate::parse::thousands(n)),
    }
}

/// `--symbol QUERY` over a directory (or several paths), or `PATH#ID` anywhere: the body of
/// the best definition; the others are listed on stderr with a `PATH#ID` to ask for exactly.
pub(super) fn symbol_in_tree(
    config: &Config,
    query: &str,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Outcome> {
    let kinds = Vec::new();
    let query = FindQuery::parse(query, &kinds)?;
    let result = search::find(&scope(config), &query, FIND_MAX_RESULTS, None)?;
    let outcome = report_unreadable(err, &result.summary)?;
    // The body is the answer: what may lie past a limit is said beside it, on stderr.
    let partial = partial_notes(&result.summary, Shown::AsNotes);
    if config.depth.is_some() && picture::is_spread(&result) {
        let shown = picture::members(config, &query.text, &result, out, err)?;
        write_out(err, partial.as_bytes())?;
        return Ok(worst(outcome, shown));
    }
    let mut matches = result.matches.clone();
    if config.depth.is_some() {
        // Members were asked for: a struct's impl (same name) has them, the struct may not.
        if let Some(index) = matches.iter().position(|m| m.entry.children > 0) {
            let with_members = matches.remove(index);
            matches.insert(0, with_members);
        }
    }
    // Among the best match's namesakes in its file, the implementation rather than an
    // overload's stub or a declaration (see `SymbolMatch::implementation_first`).
    if config.depth.is_none() && !matches.is_empty() {
        let best = crate::outline::select::implementation_index(
            &matches,
            |m| m.entry.end_line - m.entry.line,
            |a, b| a.path == b.path && a.entry.qualname == b.entry.qualname && a.tier == b.tier,
        );
        matches.swap(0, best);
    }
    let Some((best, others)) = matches.split_first() else {
        if !nothing_read(&result.summary) {
            not_found(err, &scope(config), &query, &result)?;
        }
        write_out(err, partial.as_bytes())?;
        return Ok(worst(outcome, Outcome::NotFound));
    };
    for other in others {
        let note = format!(
            "outline: '{}' also matches {}#{} {} {} (L{})",
            echo(&query.text),
            walk::shown(&other.path).display(),
            other.entry.id,
            other.entry.kind,
            other.entry.qualname,
            other.entry.line
        );
        write_line(err, &note)?;
    }
    let hidden = result.total - result.matches.len();
    if hidden > 0 {
        let note = format!("outline: … and {hidden} more matches\n");
        write_out(err, note.as_bytes())?;
    }
    let outcome = worst(
        outcome,
        body(config, best, true, !others.is_empty(), out, err)?,
    );
    write_out(err, partial.as_bytes())?;
    Ok(outcome)
}

/// Splits `src/a.rs#2.1` into the path and the id, when the part after `#` is an id.
pub(super) fn path_and_id(query: &str) -> Option<(&Path, &str)> {
    let (path, id) = query.rsplit_once('#')?;
    let is_id = !id.is_empty()
        && id
            .split('.')
            .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()));
    (is_id && !path.is_empty()).then(|| (Path::new(path), id))
}

/// Prints hit groups as files arrive, within the output caps.
/// How hit groups are written: the printer's settings that rendering needs, copied to the
/// worker threads so that each file's groups are rendered where it was searched.
#[derive(Debug, Clone, Copy)]
struct GroupStyle {
    json: bool,
    function_context: bool,
}

impl GroupStyle {
    fn of(config: &Config) -> GroupStyle {
        GroupStyle {
            json: config.json,
            function_context: config.function_context,
        }
    }

    /// `group` with its first `shown` hits.
    fn group(self, path: &str, group: &HitGroup, shown: usize) -> String {
        match self.json {
            true => json_group(path, group, shown),
            false => text_group(path, group, shown, self.function_context),
        }
    }

    /// Renders each of a file's groups whole, on the worker thread that searched it: the
    /// thread that prints in path order then only writes, and the serial part of a search
    /// stays small (it rendered every group: 7-9% of a two-core `--grep return`).
    fn render(self, hits: FileHits) -> RenderedFile {
        let path = walk::shown(&hits.path).display().to_string();
        let texts = hits
            .groups
            .iter()
            .map(|group| self.group(&path, group, group.hits.len()))
            .collect();
        RenderedFile { hits, path, texts }
    }
}

/// One file's hits, its path as shown, and each group rendered whole.
struct RenderedFile {
    hits: FileHits,
    path: String,
    texts: Vec<String>,
}

struct HitPrinter<'o> {
    json: bool,
    /// `-W`: a group whose entry is too long to show whole says how to read it.
    function_context: bool,
    out: &'o mut dyn Write,
    max_output: usize,
    max_hits: usize,
    written: usize,
    hits: usize,
    files: usize,
    /// Why printing stopped early.
    cut: Option<&'static str>,
    /// Text `--refs`: definition groups go first, so groups are held until the end. Uses past
    /// the hit cap are not kept, but the walk goes on: a definition may still come, and a cap
    /// must not hide it behind uses found earlier in path order.
    definitions_first: bool,
    held_definitions: Vec<super::uncalled::Held>,
    held_uses: Vec<super::uncalled::Held>,
    /// Uses left out as member accesses with no call (see [`super::uncalled`]).
    uncalled_uses: usize,
    held_use_hits: usize,
    /// Bytes of the groups held, definitions and uses apart: once either reaches the output
    /// cap, no later group of its kind can be shown (they print in order, definitions first,
    /// until the cap), so none is kept. Uses were kept to the end whatever the cap: `--refs
    /// new` on a 500 MB tree held 100 MB to print 256 KB.
    held_definition_bytes: usize,
    held_use_bytes: usize,
    /// The files shown, when groups are held (a file may show twice: definitions, uses).
    shown_paths: std::collections::BTreeSet<String>,
    /// Text: the file the previous group named, so that the next in it need not.
    paths: text::PathRuns,
    /// References: uses of local variables of the name, left out.
    local_uses: usize,
    /// References of `name(PARAMS`: the parameters asked for, and what other overloads'
    /// definitions and calls were left out.
    parameters: Option<CallParameters>,
    other_overloads: OtherOverloads,
    error: Option<Error>,
}

impl<'o> HitPrinter<'o> {
    fn new(config: &Config, out: &'o mut dyn Write) -> HitPrinter<'o> {
        HitPrinter {
            json: config.json,
            function_context: config.function_context,
            out,
            max_output: max_output(config),
            max_hits: config.max_results.unwrap_or(usize::MAX),
            written: 0,
            hits: 0,
            files: 0,
            cut: None,
            definitions_first: false,
            held_definitions: Vec::new(),
            held_uses: Vec::new(),
            uncalled_uses: 0,
            held_use_hits: 0,
            held_definition_bytes: 0,
            held_use_bytes: 0,
            shown_paths: std::collections::BTreeSet::new(),
            paths: text::PathRuns::default(),
            local_uses: 0,
            parameters: None,
            other_overloads: OtherOverloads::default(),
            error: None,
        }
    }

    /// Writes one file's groups (or holds them, definitions first); `Break` once a cap is
    /// reached or output failed.
    fn file(&mut self, file: RenderedFile) -> ControlFlow<()> {
        let RenderedFile { hits, path, texts } = file;
        self.local_uses += hits.local_uses;
        self.other_overloads += hits.other_overloads;
        if hits.groups.is_empty() {
            return ControlFlow::Continue(());
        }
        if self.definitions_first {
            self.hold(&path, hits.groups, texts);
            return ControlFlow::Continue(());
        }
        self.files += 1;
        for (group, text) in hits.groups.iter().zip(&texts) {
            self.show(&path, group, text)?;
        }
        ControlFlow::Continue(())
    }

    /// Keeps a file's groups that may still be shown: definitions until they fill the output
    /// cap, uses until they fill it or are as many as the hit cap.
    fn hold(&mut self, path: &str, groups: Vec<HitGroup>, texts: Vec<String>) {
        for (group, text) in groups.into_iter().zip(texts) {
            if group.defines() {
                if self.held_definition_bytes < self.max_output {
                    self.held_definition_bytes += text.len();
                    self.held_definitions.push((path.to_string(), group, text));
                }
            } else if self.held_use_hits >= self.max_hits {
                self.cut = Some("max_results");
            } else if self.held_use_bytes < self.max_output {
                self.held_use_hits += group.hits.len();
                self.held_use_bytes += text.len();
                self.held_uses.push((path.to_string(), group, text));
            }
        }
    }

    /// Writes one group within the caps, `whole` being it rendered with all its hits;
    /// `Break` once a cap is reached or output failed.
    fn show(&mut self, path: &str, group: &HitGroup, whole: &str) -> ControlFlow<()> {
        let mut shown = group.hits.len().min(self.max_hits - self.hits);
        let style = GroupStyle {
            json: self.json,
            function_context: self.function_context,
        };
        // A group in the file the group above named starts at its range. JSON names no
        // file as written, so nothing is elided there.
        let named = name_for_terminal(path);
        let paths = &self.paths;
        let render = |shown: usize| {
            paths
                .elided(&named, &style.group(path, group, shown))
                .to_string()
        };
        // Rendered again only when the hit cap cuts the group.
        let mut rendered = match shown == group.hits.len() {
            true => std::borrow::Cow::Borrowed(self.paths.elided(&named, whole)),
            false => std::borrow::Cow::Owned(render(shown)),
        };
        let room = self.max_output.saturating_sub(self.written);
        let mut over_cap = false;
        if rendered.len() > room {
            // A group may be a whole file's hits (a file with no outline is one group): the
            // most of its hits that fit, found by halving, and at least one hit in all, so
            // that a cap below one hit still says something.
            let (mut fits, mut over) = (0, shown);
            while fits + 1 < over {
                let mid = fits + (over - fits) / 2;
                match render(mid).len() <= room {
                    true => fits = mid,
                    false => over = mid,
                }
            }
            shown = match (fits, self.hits) {
                (0, 0) => 1,
                _ => fits,
            };
            if shown == 0 {
                self.cut = Some("max_output");
                return ControlFlow::Break(());
            }
            rendered = std::borrow::Cow::Owned(render(shown));
            over_cap = true;
        }
        self.written += rendered.len();
        self.hits += shown;
        if !self.json {
            self.paths.named(&named);
        }
        if let Err(error) = write_out(self.out, rendered.as_bytes()) {
            self.error = Some(error);
            return ControlFlow::Break(());
        }
        if over_cap {
            self.cut = Some("max_output");
            return ControlFlow::Break(());
        }
        if shown < group.hits.len() || self.hits == self.max_hits {
            self.cut = Some("max_results");
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    /// Writes the held groups, definitions first, within the caps.
    fn show_held(&mut self) {
        let definitions = std::mem::take(&mut self.held_definitions);
        let mut uses = std::mem::take(&mut self.held_uses);
        if super::uncalled::only_callables_defined(&definitions) {
            let style = GroupStyle {
                json: self.json,
                function_context: self.function_context,
            };
            let render = |path: &str, group: &HitGroup| style.group(path, group, group.hits.len());
            let (kept, dropped) = super::uncalled::without_uncalled(uses, render);
            uses = kept;
            self.uncalled_uses = dropped;
        }
        for (path, group, text) in definitions.iter().chain(&uses) {
            self.shown_paths.insert(path.clone());
            if self.show(path, group, text).is_break() {
                break;
            }
        }
        self.files = self.shown_paths.len();
    }

    /// Writes held groups and the closing notes; the outcome is 1 when nothing was found.
    fn finish(mut self, err: &mut dyn Write, summary: &Summary, what: &str) -> Result<Outcome> {
        if self.definitions_first {
            self.show_held();
        }
        if let Some(error) = self.error.take() {
            return Err(error);
        }
        let outcome = report_unreadable(err, summary)?;
        if self.hits == 0 {
            if !nothing_read(summary) {
                let message = format!(
                    "outline: no match for {what} in {}{}{}",
                    plural(summary.files, "file"),
                    self.locals_note(),
                    self.overloads_note()
                ) + &self.uncalled_note();
                write_line(err, &message)?;
            }
            write_out(err, partial_notes(summary, Shown::AsNotes).as_bytes())?;
            return Ok(worst(outcome, Outcome::NotFound));
        }
        let partial = partial_notes(summary, Shown::beside(self.json));
        write_out(self.out, partial.as_bytes())?;
        let note = match (self.cut, self.json) {
            (Some(reason), true) => {
                format!("{{\"truncated\":true,\"truncation_reason\":\"{reason}\"}}\n")
            }
            (Some("max_results"), false) => format!(
                "# … stopped after {} hits (raise --max-results, or narrow with PATH or --glob)\n",
                self.hits
            ),
            (Some(_), false) => format!(
                "# … stopped at the output cap of {} bytes after {} in {} (raise --max-output, or narrow with PATH or --glob)\n",
                self.max_output, plural(self.hits, "hit"), plural(self.files, "file")
            ),
            (None, true) => self.overloads_json(),
            (None, false) => format!(
                "# {} in {}{}{}{}\n",
                plural(self.hits, "hit"),
                plural(self.files, "file"),
                self.locals_note(),
                self.overloads_note(),
                self.uncalled_note()
            ),
        };
        write_out(self.out, note.as_bytes())?;
        Ok(outcome)
    }
}

impl HitPrinter<'_> {
    /// `; 3 definitions and 17 calls of other overloads left out (calls kept pass 1
    /// argument)`, for a `name(PARAMS` query.
    fn overloads_note(&self) -> String {
        let Some(parameters) = &self.parameters else {
            return String::new();
        };
        let OtherOverloads { definitions, calls } = self.other_overloads;
        let counts = match (definitions, calls) {
            (0, 0) => return format!("; calls kept pass {}", parameters.describe()),
            (0, calls) => plural(calls, "call"),
            (definitions, 0) => plural(definitions, "definition"),
            (definitions, calls) => format!(
                "{} and {}",
                plural(definitions, "definition"),
                plural(calls, "call")
            ),
        };
        format!(
            "; {counts} of other overloads left out (calls kept pass {})",
            parameters.describe()
        )
    }

    /// `{"other_overloads_left_out":{"definitions":3,"calls":17}}`, the JSON form of [`Self::overloads_note`].
    fn overloads_json(&self) -> String {
        match &self.parameters {
            Some(_) => format!(
                "{{\"other_overloads_left_out\":{{\"definitions\":{},\"calls\":{}}}}}\n",
                self.other_overloads.definitions, self.other_overloads.calls
            ),
            None => String::new(),
        }
    }

    /// `; 3 uses with no call left out (a field or property of the same name)`.
    fn uncalled_note(&self) -> String {
        match self.uncalled_uses {
            0 => String::new(),
            uses => format!(
                "; {} with no call left out (a field or property of the same name)",
                plural(uses, "use")
            ),
        }
    }

    /// `; 5 uses of local variables of the name left out`, when some were.
    fn locals_note(&self) -> String {
        match self.local_uses {
            0 => String::new(),
            uses => format!(
                "; {} of local variables of the name left out",
                plural(uses, "use")
            ),
        }
    }
}

/// `path:L<start>-<end> <kind> <qualname>` (or `path` outside every entry), then `N: text` per
/// hit and, with context, `N text` per context line and `--` between runs that do not touch.
pub(super) fn text_group(
    path: &str,
    group: &HitGroup,
    shown: usize,
    function_context: bool,
) -> String {
    let path = name_for_terminal(path);
    if let Some(line) = lone_definition_line(&path, group, shown) {
        return line;
    }
    let mut text = match &group.entry {
        Some(entry) => format!(
            "{path}:{} {} {}",
            text::line_range(entry.line, entry.end_line),
            entry.kind,
            name_for_terminal(&entry.qualname)
        ),
        None => path.to_string(),
    };
    if let Some(tokens) = group.entry.as_ref().and_then(|e| e.tokens) {
        let _ = write!(text, "  ({} tokens)", crate::parse::thousands(tokens));
    }
    if group.defines() {
        text.push_str("  [definition]");
    }
    text.push('\n');
    // Context past a hit the caps left out would stand for that hit: it stops before it.
    let unshown = group.hits.get(shown).map_or(usize::MAX, |hit| hit.line);
    let mut lines: Vec<(usize, char, &str)> = group.hits[..shown]
        .iter()
        .map(|hit| (hit.line, ':', hit.text.as_str()))
        .chain(
            group
                .context
                .iter()
                .filter(|(n, _)| *n < unshown)
                .map(|(n, t)| (*n, '-', t.as_str())),
        )
        .collect();
    lines.sort_by_key(|(n, _, _)| *n);
    let mut previous = None;
    for (number, mark, line) in lines {
        if !group.context.is_empty() && previous.is_some_and(|p: usize| number > p + 1) {
            text.push_str("--\n");
        }
        super::text::push_numbered(&mut text, number, mark == ':', &for_terminal(line));
        previous = Some(number);
    }
    if let (true, Some(entry)) = (function_context, &group.entry) {
        let lines = entry.end_line + 1 - entry.line;
        // `-W` shows a code entry's first line; prose (a Markdown section) only its hits.
        let shown_as_code = group.context.iter().any(|(n, _)| *n == entry.line)
            || group.hits.iter().any(|hit| hit.line == entry.line);
        if lines > search::WHOLE_BODY_LINES && shown_as_code {
            let _ = writeln!(
                text,
                "… {lines} lines: --symbol {path}#{} reads it whole",
                entry.id
            );
        }
    }
    text
}

/// A group that is only a definition, as one line: `path:L<start>-<end> <kind> <signature>
/// [definition]`, as `--find` lists it. Namesakes defined in many places cost a line each, and
/// the signature tells them apart better than the name's line alone. `None` for other groups
/// (uses inside the definition, context) and entries without a signature.
fn lone_definition_line(path: &str, group: &HitGroup, shown: usize) -> Option<String> {
    let ([hit], 1, true) = (group.hits.as_slice(), shown, group.context.is_empty()) else {
        return None;
    };
    let entry = group.entry.as_ref().filter(|_| hit.definition)?;
    let signature = entry.signature.as_deref()?;
    let kind = entry.kind.as_str();
    // The name as the signature writes it: `Buffer.readLine` for a Kotlin extension, the bare
    // `route` of Ruby's `self.route`.
    let name = match signature.contains(entry.name.as_str()) {
        true => entry.name.as_str(),
        false => entry.bare_name(),
    };
    let label = signature_label(kind, &entry.qualname, name, signature);
    let mut line = format!(
        "{path}:{} {kind} {}",
        text::line_range(entry.line, entry.end_line),
        name_for_terminal(&label)
    );
    if let Some(tokens) = entry.tokens {
        let _ = write!(line, "  ({} tokens)", crate::parse::thousands(tokens));
    }
    line.push_str("  [definition]\n");
    Some(line)
}

/// One JSON object per hit.
fn json_group(path: &str, group: &HitGroup, shown: usize) -> String {
    let entry = group.entry.as_ref().map(|e| HitEntry {
        id: &e.id,
        kind: e.kind.as_str(),
        qualname: &e.qualname,
        line: e.line,
        end_line: e.end_line,
        tokens: e.tokens,
    });
    group.hits[..shown]
        .iter()
        .map(|hit| {
            json_line(&HitObject {
                path,
                line: hit.line,
                column: hit.column,
                text: &hit.text,
                entry: entry.as_ref(),
                definition: hit.definition.then_some(true),
            })
        })
        .collect()
}

/// One `--grep`/`--refs` hit as JSON.
#[derive(Serialize)]
struct HitObject<'a> {
    path: &'a str,
    line: usize,
    column: usize,
    text: &'a str,
    /// The innermost entry enclosing the hit; `null` outside every entry.
    entry: Option<&'a HitEntry<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    definition: Option<bool>,
}

#[derive(Serialize)]
struct HitEntry<'a> {
    id: &'a str,
    kind: &'a str,
    qualname: &'a str,
    line: usize,
    end_line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    tokens: Option<usize>,
}

/// Says which entries could not be read; the outcome is then a partial failure (exit 2).
pub(super) fn report_unreadable(err: &mut dyn Write, summary: &Summary) -> Result<Outcome> {
    for note in &summary.notes {
        write_line(err, &format!("outline: {note}"))?;
    }
    for line in &summary.unreadable {
        write_line(err, &format!("outline: {line}"))?;
    }
    Ok(match summary.unreadable.is_empty() {
        true => Outcome::Success,
        false => Outcome::PartialFailure,
    })
}

/// Whether no file could be read at all (every path missing or unreadable, each already
/// reported): "no match in 0 files" would only repeat it.
fn nothing_read(summary: &Summary) -> bool {
    summary.files == 0 && !summary.unreadable.is_empty()
}

/// The outcome that matters more for the exit code: errors over "not found" over success.
pub(super) fn worst(a: Outcome, b: Outcome) -> Outcome {
    let rank = |o: Outcome| match o {
        Outcome::Success => 0,
        Outcome::NotFound => 1,
        Outcome::Stale => 2,
        Outcome::PartialFailure => 3,
    };
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    use super::{qualified_signature, GroupStyle, HitPrinter};
    use crate::config::Config;
    use crate::search::{FileHits, Hit, HitGroup};
    use clap::Parser;

    /// One file with one group of one hit on `run`, a definition or a use.
    fn file_hits(path: &str, definition: bool) -> FileHits {
        FileHits {
            path: path.into(),
            language: None,
            hash: String::new(),
            groups: vec![HitGroup {
                entry: None,
                hits: vec![Hit {
                    line: 1,
                    column: 1,
                    text: format!("{} run() {{ run(); }}", "x".repeat(60)),
                    definition,
                    uncalled_member: false,
                }],
                context: Vec::new(),
            }],
            local_uses: 0,
            other_overloads: Default::default(),
        }
    }

    #[test]
    fn text_refs_hold_only_the_groups_the_output_cap_can_show() {
        let args = ["outline", "--refs", "run", "--max-output", "2000", "."];
        let config = Config::from_args(crate::cli::Args::parse_from(args)).expect("config");
        let style = GroupStyle::of(&config);
        let mut out = Vec::new();
        let mut printer = HitPrinter::new(&config, &mut out);
        printer.definitions_first = true;
        for file in 0..1000 {
            let _ = printer.file(style.render(file_hits(&format!("use{file:04}.rs"), false)));
        }
        // About 100 bytes a group: what fills 2,000 bytes, not all 1,000.
        let held = printer.held_uses.len();
        assert!((20..=25).contains(&held), "{held} use groups held");
        // A definition found after the uses still goes first.
        let _ = printer.file(style.render(file_hits("zdef.rs", true)));
        let finished = printer.finish(&mut Vec::new(), &Default::default(), "uses of 'run'");
        assert!(finished.is_ok());
        let text = String::from_utf8(out).expect("utf-8");
        assert!(text.starts_with("zdef.rs"), "{text}");
        assert!(text.contains("use0000.rs") && text.contains("stopped at the output cap"));
    }

    #[test]
    fn the_name_in_a_signature_is_qualified_once() {
        assert_eq!(
            qualified_signature(
                "Printer.chunk",
                "chunk",
                "pub chunk(&mut self, chunked: usize)"
            ),
            "pub Printer.chunk(&mut self, chunked: usize)"
        );
        assert_eq!(
            qualified_signature("Holder", "Holder", "class Holder(Base)"),
            "class Holder(Base)"
        );
        // A longer word that contains the name is not the name.
        assert_eq!(
            qualified_signature("A.run", "run", "rerun(run_id)"),
            "A.run  rerun(run_id)"
        );
    }
}
