//! A `--find` miss in a folder says where one level up defines the name.

use super::text;
use crate::sanitize::name_for_terminal;
use crate::search::{self, FindQuery, Scope};
use crate::walk;
use std::path::{Component, Path, PathBuf};

/// `; defined outside the paths: PATH:L149 kind NAME (…); search DIR` when the folders one
/// level above the paths define the name: the agent trial looked for `Validation` in the
/// folder of the type that uses it and was told only of near names, while three typealiases
/// stood in the folder beside it. Only relative folders below the current one are widened,
/// so the search never leaves what the user pointed at.
pub(super) fn found_in_a_wider_path(scope: &Scope, query: &FindQuery) -> Option<String> {
    let parents: Vec<PathBuf> = scope
        .paths
        .iter()
        .filter(|path| path.is_relative() && path.is_dir())
        .filter(|path| !path.components().any(|c| matches!(c, Component::ParentDir)))
        .filter_map(|path| path.parent())
        .filter(|parent| !parent.as_os_str().is_empty())
        .map(Path::to_path_buf)
        .collect();
    // Under `--root` a folder above it is refused: no hint rather than an error.
    let parents: Vec<PathBuf> = match &scope.root {
        Some(root) => parents
            .into_iter()
            .filter(|p| p.canonicalize().is_ok_and(|c| c.starts_with(root)))
            .collect(),
        None => parents,
    };
    if parents.is_empty() {
        return None;
    }
    let wider = Scope {
        paths: parents.clone(),
        ..scope.clone()
    };
    // A hint: a folder that cannot be read leaves it out, never fails the answer.
    let found = search::find(&wider, query, WIDER_SHOWN, None).ok()?;
    let first = found.matches.first()?;
    let more = match found.total.saturating_sub(1) {
        0 => String::new(),
        more => format!(" (+{more} more)"),
    };
    let folders: Vec<String> = parents.iter().map(|p| p.display().to_string()).collect();
    Some(format!(
        "; defined outside the paths: {}:{} {} {}{more}; search {}",
        name_for_terminal(&walk::shown(&first.path).display().to_string()),
        text::line_range(first.entry.line, first.entry.end_line),
        first.entry.kind,
        name_for_terminal(&first.entry.qualname),
        name_for_terminal(&folders.join(" ")),
    ))
}

/// How many matches the search of a wider path keeps: it only names the first.
const WIDER_SHOWN: usize = 1;
