//! `--refs NAME --depth N`: who calls NAME, who calls those, to N levels, as one tree. A caller
//! chain cost an agent one call per level; this is one call, bounded and cycle-safe.
//!
//! Each level is a `--refs` of every function or method found at the level above (by its bare
//! name, so `Pool.run` is followed as `run`, as `--refs run` would be). A name already followed
//! is not followed again (recursion and diamonds print `(callers above)`), entries that are not
//! callable (a class body, a constant) end their branch, and at most [`MAX_FOLLOWED`] names are
//! followed in all: past it a branch ends in a note saying so.

use super::search::{scope, text_options};
use super::text::line_range;
use super::{write_out, Outcome};
use crate::config::Config;
use crate::error::{Error, Result};
use crate::outline::Kind;
use crate::sanitize::{echo, name_for_terminal};
use crate::search::{self, EntryRef, RefQuery, Scope, Summary};
use crate::walk;
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::io::Write;
use std::ops::ControlFlow;

/// Levels of callers one call may ask for: enough for a chain from a leaf helper up to an
/// entry point, few enough that the walk count (one per level) stays small.
pub(crate) const MAX_LEVELS: usize = 6;
/// Names followed in all, over every level: each costs a search of the paths.
pub(crate) const MAX_FOLLOWED: usize = 40;
/// Caller lines printed unless `--max-results` says otherwise.
pub(crate) const DEFAULT_MAX_CALLERS: usize = 100;

/// One entry that uses a name, with the lines where it does (and whether each only names it
/// without a call, see `super::uncalled`).
struct Caller {
    path: String,
    entry: EntryRef,
    lines: Vec<(usize, bool)>,
}

/// Prints the caller tree of `query` to `levels` levels.
pub(super) fn callers(
    config: &Config,
    query: &RefQuery,
    levels: usize,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Outcome> {
    if levels > MAX_LEVELS {
        return Err(Error::Usage(format!(
            "--refs --depth {levels}: at most {MAX_LEVELS} levels of callers"
        )));
    }
    let scope = scope(config);
    let mut tree = Tree {
        config,
        scope: &scope,
        callers: BTreeMap::new(),
        followed: HashSet::new(),
        summary: None,
        room: Room {
            lines: config.max_results.unwrap_or(DEFAULT_MAX_CALLERS),
            bytes: super::search::max_output(config),
            cut: false,
        },
        paths: super::text::PathRuns::default(),
    };
    tree.followed.insert(query.text.clone());
    let top = tree.callers_of(query)?;
    let mut text = format!(
        "# callers of '{}', {levels} levels (a name followed once; `--refs NAME` for one level with the lines)\n",
        echo(&query.text)
    );
    if top.is_empty() {
        write_out(
            err,
            format!("outline: no uses of '{}' in code\n", echo(&query.text)).as_bytes(),
        )?;
        return Ok(Outcome::NotFound);
    }
    let mut expanded = HashSet::new();
    expanded.insert(query.text.clone());
    tree.render(&top, None, 1, levels, &mut expanded, &mut text)?;
    if tree.room.cut {
        text.push_str("# … stopped at the caller cap (raise --max-results or --max-output, or narrow with PATH, --glob or --no-tests)\n");
    }
    write_out(out, text.as_bytes())?;
    let mut outcome = Outcome::Success;
    if let Some(summary) = &tree.summary {
        outcome = super::search::report_unreadable(err, summary)?;
        let notes = super::search::partial_notes(summary, super::search::Shown::Text);
        write_out(out, notes.as_bytes())?;
    }
    Ok(outcome)
}

struct Tree<'c> {
    config: &'c Config,
    scope: &'c Scope,
    /// Callers of each name searched so far.
    callers: BTreeMap<String, Vec<Caller>>,
    /// Names searched (or queued to be), bounded by [`MAX_FOLLOWED`].
    followed: HashSet<String>,
    /// The first search's summary: files that could not be read are said once.
    summary: Option<Summary>,
    room: Room,
    /// A caller in the file the line above named starts at its range.
    paths: super::text::PathRuns,
}

/// What is left of the output caps.
struct Room {
    lines: usize,
    bytes: usize,
    /// A caller was left out for want of room.
    cut: bool,
}

/// How a caller is searched for in turn: a method as `Type.method` (member uses only), anything
/// else by its bare name; `None` for what is not called (a class body, a constant).
fn follow_query(entry: &EntryRef) -> Option<String> {
    let name = entry.bare_name();
    match entry.kind {
        Kind::Method => Some(match &entry.owner {
            Some(owner) => format!("{owner}.{name}"),
            None => name.to_string(),
        }),
        Kind::Function | Kind::Procedure | Kind::Macro => Some(name.to_string()),
        _ => None,
    }
}

impl Tree<'_> {
    /// The entries that use `query`'s name in code, definitions left out.
    fn callers_of(&mut self, query: &RefQuery) -> Result<Vec<Caller>> {
        let mut found: Vec<Caller> = Vec::new();
        // As text `--refs` does (see `super::uncalled`): when the name is defined only as
        // callables, a use that does not call is a namesake field's, no caller.
        let (mut defined, mut only_callables) = (false, true);
        let options = search::TextSearch {
            context: 0,
            function_context: false,
            ..text_options(self.config)
        };
        let summary = search::refs(self.scope, query, options, |file| {
            let path = walk::shown(&file.path).display().to_string();
            for group in file.groups {
                let defines = group.defines();
                let Some(entry) = group.entry else { continue };
                if defines {
                    defined = true;
                    only_callables &= follow_query(&entry).is_some();
                }
                let lines: Vec<(usize, bool)> = group
                    .hits
                    .iter()
                    .filter(|hit| !hit.definition)
                    .map(|hit| (hit.line, hit.uncalled_member))
                    .collect();
                if lines.is_empty() {
                    continue;
                }
                match found.last_mut() {
                    Some(last) if last.path == path && last.entry.id == entry.id => {
                        last.lines.extend(lines)
                    }
                    _ => found.push(Caller {
                        path: path.clone(),
                        entry,
                        lines,
                    }),
                }
            }
            ControlFlow::Continue(())
        })?;
        self.summary.get_or_insert(summary);
        if defined && only_callables {
            for caller in &mut found {
                caller.lines.retain(|(_, uncalled)| !uncalled);
            }
            found.retain(|caller| !caller.lines.is_empty());
        }
        Ok(found)
    }

    /// Writes `callers` (those of `parent`, when it is an entry) and, to `levels`, theirs.
    fn render(
        &mut self,
        callers: &[Caller],
        parent: Option<(&str, &str)>,
        level: usize,
        levels: usize,
        expanded: &mut HashSet<String>,
        text: &mut String,
    ) -> Result<()> {
        let indent = "  ".repeat(level - 1);
        for caller in callers {
            let entry = &caller.entry;
            // Uses are found by name: an entry using a namesake of itself (`Pool.new` calling
            // `Worker::new`) is not its own caller.
            if parent == Some((caller.path.as_str(), entry.id.as_str())) {
                continue;
            }
            let lines: Vec<String> = caller.lines.iter().map(|(n, _)| format!("L{n}")).collect();
            let named = name_for_terminal(&caller.path);
            let whole = format!(
                "{named}:{} {} {}  (uses at {})",
                line_range(entry.line, entry.end_line),
                entry.kind,
                name_for_terminal(&entry.qualname),
                lines.join(", ")
            );
            let line = format!("{indent}{}", self.paths.elided(&named, &whole));
            if self.room.lines == 0 || self.room.bytes < line.len() + 1 {
                self.room.cut = true;
                return Ok(());
            }
            self.room.lines -= 1;
            self.room.bytes -= line.len() + 1;
            text.push_str(&line);
            self.paths.named(&named);
            let followed = follow_query(entry);
            let Some(name) = followed.filter(|_| level < levels) else {
                text.push('\n');
                continue;
            };
            if expanded.contains(&name) {
                text.push_str("  (callers above)\n");
                continue;
            }
            if !self.followed.contains(&name) && self.followed.len() >= MAX_FOLLOWED {
                let _ = writeln!(
                    text,
                    "  (not followed: {MAX_FOLLOWED} names searched; --refs {name} --depth {} goes on)",
                    levels - level
                );
                continue;
            }
            text.push('\n');
            self.followed.insert(name.clone());
            let next = match self.callers.remove(&name) {
                Some(known) => known,
                None => match RefQuery::parse(&name) {
                    Ok(query) => self.callers_of(&query)?,
                    Err(_) => Vec::new(),
                },
            };
            expanded.insert(name.clone());
            let this = Some((caller.path.as_str(), entry.id.as_str()));
            self.render(&next, this, level + 1, levels, expanded, text)?;
            self.callers.insert(name, next);
        }
        Ok(())
    }
}
