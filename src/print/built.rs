//! Text `--find Type`: after a constructible type's picture, where values of it are built
//! (the lines that construct one, under the entry each sits in) and which functions are
//! declared to return one, so "what is this type and where is it made" is one call. Found
//! with one `--refs Type` pass over the same paths ([`search::built`]).

use super::search::text_group;
use super::text::PathRuns;
use crate::config::Config;
use crate::error::Result;
use crate::outline::Kind;
use crate::sanitize::{echo, name_for_terminal};
use crate::search::{self, Definition, EntryRef, FindQuery, HitGroup, RefQuery, Scope, TextSearch};
use crate::walk;
use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::path::Path;

/// Build sites listed, at most.
const MAX_SITES: usize = 8;
/// Lines shown of one site, at most.
const SITE_LINES: usize = 2;
/// Factories listed, at most.
const MAX_FACTORIES: usize = 6;

/// The type's name as the code spells it (smart case may have matched `cachecontrol`) and the
/// files that declare it as a type a value is made of, when `--find` of `name` found any
/// (text only: JSON lines keep the contract's objects).
pub(super) fn homes<'d>(
    config: &Config,
    query: &FindQuery,
    name: &str,
    matches: &'d [Definition],
) -> (Option<&'d str>, Vec<&'d Path>) {
    if config.json {
        return (None, Vec::new());
    }
    let types: Vec<&Definition> = matches
        .iter()
        .filter(|found| {
            query.same(name, found.entry.bare_name())
                && matches!(found.entry.kind, Kind::Class | Kind::Struct)
        })
        .collect();
    let spelled = types.first().map(|found| found.entry.bare_name());
    let homes = types.iter().map(|found| walk::shown(&found.path)).collect();
    (spelled, homes)
}

/// A site or a factory: its file as shown, its first line, and its lines.
struct Listed {
    path: String,
    line: usize,
    text: String,
}

/// Sites, factories and lines that call a member on the type itself (`CacheControl.parse(`,
/// kept until the pass ends and the factories are known) held, at most, each: the rest are
/// counted.
const MAX_KEPT: usize = 200;

/// The build sites and factories of the type `name` below `scope`, as text ("" for none).
pub(super) fn section(scope: &Scope, name: &str, homes: &[&Path]) -> Result<String> {
    let query = RefQuery::parse(name)?;
    let (mut sites, mut factories) = (Vec::new(), Vec::new());
    let mut candidates: Vec<(String, HitGroup, Vec<String>)> = Vec::new();
    let (mut more_sites, mut more_factories) = (0, 0);
    search::refs(scope, &query, TextSearch::default(), |file| {
        let Some(language) = file.language else {
            return ControlFlow::Continue(());
        };
        let path = walk::shown(&file.path).display().to_string();
        for group in file.groups {
            // A type's own body declares (an enum's `Outline(&'a Outline)` variant); what
            // builds is code: functions, methods, properties and initialisers.
            let declares = group.entry.as_ref().is_some_and(|entry| {
                matches!(
                    entry.kind,
                    Kind::Enum | Kind::Struct | Kind::Interface | Kind::Trait | Kind::Union
                )
            });
            if declares {
                continue;
            }
            let (building, rest): (Vec<_>, Vec<_>) = group
                .hits
                .iter()
                .filter(|hit| !hit.definition)
                .cloned()
                .partition(|hit| search::constructs(language, &hit.text, name));
            if !building.is_empty() {
                match sites.len() < MAX_KEPT {
                    true => sites.push(site(&path, &group, building)),
                    false => more_sites += 1,
                }
                continue;
            }
            let called: Vec<String> = rest
                .iter()
                .flat_map(|hit| search::members_called(&hit.text, name))
                .collect();
            if !called.is_empty() && candidates.len() < MAX_KEPT {
                candidates.push((path.clone(), group.clone(), called));
            }
            if let Some(entry) = group
                .entry
                .filter(|e| search::returns_type(language, e, name))
            {
                match factories.len() < MAX_KEPT {
                    true => factories.push(factory(&path, &entry)),
                    false => more_factories += 1,
                }
            }
        }
        ControlFlow::Continue(())
    })?;
    // A factory's callers on the type (`CacheControl.parse(headers)`) build one too.
    let factory_names: Vec<&str> = factories.iter().map(|f| f.name.as_str()).collect();
    for (path, group, called) in &candidates {
        if called
            .iter()
            .any(|member| factory_names.contains(&member.as_str()))
        {
            let hits = group
                .hits
                .iter()
                .filter(|hit| {
                    let members = search::members_called(&hit.text, name);
                    members.iter().any(|m| factory_names.contains(&m.as_str()))
                })
                .cloned()
                .collect();
            sites.push(site(path, group, hits));
        }
    }
    let mut factories: Vec<Listed> = factories.into_iter().map(|f| f.listed).collect();
    // Code before tests, then nearest a declaration of the type (the best-ranked first
    // among equals): its own package's code before samples and tools.
    for listed in [&mut sites, &mut factories] {
        listed.sort_by_cached_key(|item| {
            let path = Path::new(&item.path);
            let nearest = homes
                .iter()
                .enumerate()
                .map(|(rank, home)| (folder_distance(home, path), rank))
                .min();
            let in_test = search::is_test_path(path);
            (in_test, nearest, item.path.clone(), item.line)
        });
    }
    let mut text = String::new();
    let name = echo(name);
    let total = (sites.len() + more_sites, MAX_SITES);
    list(&mut text, &sites, total, "site", |counted| {
        format!("# built at ({counted}; --refs {name} -W shows every use):")
    });
    let total = (factories.len() + more_factories, MAX_FACTORIES);
    list(&mut text, &factories, total, "function", |counted| {
        format!("# returned by ({counted}):")
    });
    Ok(text)
}

/// Steps from the folder of `a` to the folder of `b`, up then down the tree.
fn folder_distance(a: &Path, b: &Path) -> usize {
    let (Some(a), Some(b)) = (a.parent(), b.parent()) else {
        return 0;
    };
    let shared = a
        .components()
        .zip(b.components())
        .take_while(|(x, y)| x == y)
        .count();
    a.components().count() + b.components().count() - 2 * shared
}

/// A group's construction lines under its entry.
/// At most [`SITE_LINES`] of them: a function that builds one in every branch shows where.
fn site(path: &str, group: &HitGroup, hits: Vec<search::Hit>) -> Listed {
    let shown = HitGroup {
        hits,
        context: Vec::new(),
        entry: group.entry.clone(),
    };
    let lines = shown.hits.len().min(SITE_LINES);
    let mut text = text_group(path, &shown, lines, false);
    if shown.hits.len() > lines {
        let more = match shown.hits.len() - lines {
            1 => "1 more line builds".to_string(),
            n => format!("{n} more lines build"),
        };
        let _ = writeln!(text, "… {more} one in it");
    }
    Listed {
        path: path.to_string(),
        line: shown.hits.first().map_or(0, |hit| hit.line),
        text,
    }
}

/// A function returning the type, by its bare name.
struct Factory {
    name: String,
    listed: Listed,
}

/// `path:L259 method CacheControl.Builder.build`.
fn factory(path: &str, entry: &EntryRef) -> Factory {
    let text = format!(
        "{}:{} {} {}\n",
        name_for_terminal(path),
        super::text::line_range(entry.line, entry.end_line),
        entry.kind,
        name_for_terminal(&entry.qualname)
    );
    Factory {
        name: entry.bare_name().to_string(),
        listed: Listed {
            path: path.to_string(),
            line: entry.line,
            text,
        },
    }
}

/// `listed` under a header that `heading` writes around their count (`total` of them, at
/// most `shown` listed), each file named once per run of its lines; nothing when empty.
fn list(
    text: &mut String,
    listed: &[Listed],
    (total, shown): (usize, usize),
    noun: &str,
    heading: impl Fn(&str) -> String,
) {
    if listed.is_empty() {
        return;
    }
    let counted = match total {
        1 => format!("1 {noun}"),
        _ if total > shown => format!("{total} {noun}s, the first {shown} shown"),
        _ => format!("{total} {noun}s"),
    };
    text.push_str(&heading(&counted));
    text.push('\n');
    let mut paths = PathRuns::default();
    for item in listed.iter().take(shown) {
        let path = name_for_terminal(&item.path);
        text.push_str(paths.elided(&path, &item.text));
        paths.named(&path);
    }
}
