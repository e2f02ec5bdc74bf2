//! A type's whole picture in print mode: the lines `--find Type` adds for what adds to the
//! type (members written with their owner, one line per file), and `--symbol Type --depth N`,
//! the members of every declaration that adds to the type, each under its file and range.

use super::search::{max_output, plural};
use super::{json_line, read, text, write_line, write_out, Outcome};
use crate::config::Config;
use crate::document::Document;
use crate::error::Result;
use crate::outline::{select, Entry};
use crate::sanitize::{echo, name_for_terminal, path_for_terminal};
use crate::search::{Adds, Definition, EntryRef, FindResult, MemberGroup};
use crate::walk;
use serde::Serialize;
use std::fmt::Write as _;
use std::io::Write;

/// Members a group's text line names, at most.
const GROUP_NAMES: usize = 8;

/// What a definition line appends for a declaration that is one of several of its type.
pub(super) fn mark_suffix(adds: Option<Adds>) -> String {
    match adds {
        Some(adds @ (Adds::Partial | Adds::Reopened | Adds::Merged)) => {
            format!("  ({})", adds.as_str())
        }
        _ => String::new(),
    }
}

/// `path:L40-310 receiver methods (12): Start, Stop, … +4`, or the group as a JSON object.
pub(super) fn group_line(config: &Config, group: &MemberGroup) -> String {
    let path = walk::shown(&group.path).display().to_string();
    let (line, end_line) = group.range();
    if config.json {
        return json_line(&GroupObject {
            path: &path,
            hash: &group.hash,
            language: group.language.name(),
            adds: Adds::Members.as_str(),
            owner: group.members.first().and_then(|m| m.owner.as_deref()),
            count: group.members.len(),
            line,
            end_line,
            members: group.members.iter().map(MemberObject::of).collect(),
            in_test: group.in_test.then_some(true),
        });
    }
    let names: Vec<&str> = group
        .members
        .iter()
        .take(GROUP_NAMES)
        .map(|member| group.label(member))
        .collect();
    let mut text = format!(
        "{}:{} {} ({}): {}",
        name_for_terminal(&path),
        text::line_range(line, end_line),
        group.noun(),
        group.members.len(),
        name_for_terminal(&names.join(", "))
    );
    if group.members.len() > names.len() {
        let _ = write!(text, ", … +{}", group.members.len() - names.len());
    }
    text.push('\n');
    text
}

/// One file's members of a type declared outside it, as JSON.
#[derive(Serialize)]
struct GroupObject<'a> {
    path: &'a str,
    hash: &'a str,
    language: &'a str,
    /// Always `members`.
    adds: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    owner: Option<&'a str>,
    count: usize,
    line: usize,
    end_line: usize,
    members: Vec<MemberObject<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    in_test: Option<bool>,
}

/// One member of a [`GroupObject`].
#[derive(Serialize)]
struct MemberObject<'a> {
    id: &'a str,
    kind: &'a str,
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    signature: Option<&'a str>,
    line: usize,
    end_line: usize,
}

impl<'a> MemberObject<'a> {
    fn of(entry: &'a EntryRef) -> MemberObject<'a> {
        MemberObject {
            id: &entry.id,
            kind: entry.kind.as_str(),
            name: &entry.name,
            signature: entry.signature.as_deref(),
            line: entry.line,
            end_line: entry.end_line,
        }
    }
}

/// Whether `result` holds more than declarations named as asked.
pub(super) fn has_additions(result: &FindResult) -> bool {
    !result.additions.is_empty() || !result.groups.is_empty()
}

/// Whether `result` is a type spread over several parts: additions, or a declaration named
/// as asked that adds to the type (an inherent impl, an extension, a partial class).
pub(super) fn is_spread(result: &FindResult) -> bool {
    has_additions(result) || result.matches.iter().any(|found| found.adds.is_some())
}

/// `--symbol Type --depth N` for a type spread over several parts: every declaration and
/// addition with its members to depth N, then each file's members written with their owner,
/// within the output cap (a note says what the cap left out).
pub(super) fn members(
    config: &Config,
    query: &str,
    result: &FindResult,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Outcome> {
    let max_output = max_output(config);
    let mut outcome = Outcome::Success;
    let mut written = 0;
    let mut shown = 0;
    // Members were asked for: the parts that hold some first (a struct whose fields are not
    // outlined after its impl), as `--symbol Type --depth N` on one file answers.
    let mut declarations: Vec<&Definition> =
        result.matches.iter().chain(&result.additions).collect();
    declarations.sort_by_key(|found| found.entry.children == 0);
    // The type's members, not its namesake methods (`Error()` of every error type in Go): a
    // function with nothing under it answers no "members of" question.
    let namesake = |found: &Definition| is_bare_callable(found) && !member_of(found, query);
    let callables = declarations.iter().filter(|found| namesake(found)).count();
    if callables < declarations.len() {
        declarations.retain(|found| !namesake(found));
    }
    let declarations_count = declarations.len();
    let callables = match callables < result.matches.len() + result.additions.len() {
        true => callables,
        false => 0,
    };
    for found in declarations {
        let mut rendered = separator(config, shown).into_bytes();
        outcome = super::search::worst(outcome, declaration(config, found, &mut rendered, err)?);
        if shown > 0 && written + rendered.len() > max_output {
            break;
        }
        written += rendered.len();
        shown += 1;
        write_out(out, &rendered)?;
    }
    if shown == declarations_count {
        for group in &result.groups {
            let rendered = separator(config, shown) + &group_members(config, group, err)?;
            if shown > 0 && written + rendered.len() > max_output {
                break;
            }
            written += rendered.len();
            shown += 1;
            write_out(out, rendered.as_bytes())?;
        }
    }
    if callables > 0 && !config.json {
        let what = match callables {
            1 => "1 function or method".to_string(),
            n => format!("{n} functions or methods"),
        };
        let note = format!(
            "# {what} named '{}' left out (--find {} lists them)\n",
            echo(query),
            echo(query)
        );
        write_out(out, note.as_bytes())?;
    }
    let omitted = result.total + result.picture_total - shown - callables;
    if omitted > 0 {
        let note = match config.json {
            true => format!(
                "{{\"truncated\":true,\"truncation_reason\":\"max_output\",\"omitted\":{omitted}}}\n"
            ),
            false => format!(
                "# … {} of '{}' not shown (output cap {max_output} bytes, or past --max-results): narrow with PATH\n",
                plural(omitted, "part"),
                echo(query)
            ),
        };
        write_out(out, note.as_bytes())?;
    }
    Ok(outcome)
}

/// A function or method with no entries under it.
fn is_bare_callable(found: &Definition) -> bool {
    use crate::outline::Kind;
    found.entry.children == 0
        && matches!(
            found.entry.kind,
            Kind::Method | Kind::Function | Kind::Procedure | Kind::Macro
        )
}

/// Whether `found` is a member of the type named `query` (Go's `func (e Error) Error()`).
fn member_of(found: &Definition, query: &str) -> bool {
    found
        .entry
        .qualname
        .rsplit_once('.')
        .is_some_and(|(owner, _)| owner.rsplit('.').next() == Some(query))
}

/// A blank line between the parts of a text answer.
fn separator(config: &Config, shown: usize) -> String {
    match shown > 0 && !config.json {
        true => "\n".to_string(),
        false => String::new(),
    }
}

/// One declaration with its members, read again from its file.
fn declaration(
    config: &Config,
    found: &Definition,
    out: &mut Vec<u8>,
    err: &mut dyn Write,
) -> Result<Outcome> {
    let path = walk::shown(&found.path);
    let document = Document::open_in(path, Some(found.language), config.root.as_deref())?;
    match same_entry(&document, &found.entry) {
        Some(entry) => read::symbol_entry(config, &document, entry, out),
        None => changed(err, &found.path),
    }
}

/// The entry `found` names in `document`, unless the file changed since it was searched.
fn same_entry<'d>(document: &'d Document, found: &EntryRef) -> Option<&'d Entry> {
    document
        .outline
        .as_ref()
        .and_then(|outline| outline.find_id(&found.id))
        .filter(|entry| entry.qualname() == found.qualname)
}

fn changed(err: &mut dyn Write, path: &std::path::Path) -> Result<Outcome> {
    let message = format!(
        "outline: {} changed while it was searched; search again",
        path.display()
    );
    write_line(err, &message)?;
    Ok(Outcome::PartialFailure)
}

/// One file's members written with their owner: a header, then each member to the depth asked.
fn group_members(config: &Config, group: &MemberGroup, err: &mut dyn Write) -> Result<String> {
    let path = walk::shown(&group.path);
    let document = Document::open_in(path, Some(group.language), config.root.as_deref())?;
    let entries: Option<Vec<&Entry>> = group
        .members
        .iter()
        .map(|member| same_entry(&document, member))
        .collect();
    let (Some(entries), Some(outline)) = (entries, document.outline.as_ref()) else {
        changed(err, &group.path)?;
        return Ok(String::new());
    };
    let lines = document.lines();
    // The members are depth 2 of the type, as an impl block's are.
    let budget = select::Budget {
        max_depth: config.depth.map(|depth| depth.saturating_sub(1).max(1)),
        max_nodes: config.max_nodes,
    };
    let selection = select::select_entries(&entries, budget);
    if config.json {
        return Ok(super::file_json(
            config, &document, outline, &selection, &lines,
        ));
    }
    let (line, end_line) = group.range();
    let mut text = format!(
        "# {} of {} ({}, {})\n\n",
        group.noun(),
        name_for_terminal(&group.type_name),
        path_for_terminal(path),
        text::line_range(line, end_line),
    );
    text::write_entries(
        &mut text,
        &selection,
        super::text_options(config, "", &lines),
    );
    Ok(text)
}
