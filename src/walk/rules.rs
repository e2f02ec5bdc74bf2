//! Which names a walk skips: `ignore`'s own matchers (gitignore files, `--glob` overrides)
//! combined with the precedence of `ignore::WalkBuilder` (which keeps it private): overrides
//! first; then, over the directories from the nearest up, the first `.ignore` that says
//! anything, else the first `.gitignore`, else the first `.git/info/exclude`, else the global
//! gitignore; hidden names last, unless a rule keeps them. The walk reads a directory's ignore
//! files through its open handle ([`super::handle`]), so the rules come from the very
//! directory listed.

use super::handle::{self, Named};
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::overrides::Override;
use ignore::Match;
use std::ffi::OsStr;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Rules that hold for the whole walk.
pub(super) struct Global {
    pub overrides: Override,
    pub git_global: Gitignore,
    /// Skip hidden names.
    pub hidden: bool,
    /// Ignore files above the walked paths count (not under `--root`).
    pub parents: bool,
    /// Ignore files are opened without following a link (under `--root`).
    pub confined: bool,
}

/// The ignore files of one directory, linked to those of the directories above it.
pub(super) struct Rules {
    parent: Option<Arc<Rules>>,
    /// The directory as walked (`./src`, not canonical): where a walked path starts.
    dir: PathBuf,
    ignore: Gitignore,
    git_ignore: Gitignore,
    git_exclude: Gitignore,
    /// A directory above the walked path (its rules match absolute paths).
    above: bool,
    /// The walked path made canonical, joined to paths matched against rules from above.
    absolute_base: Option<Arc<PathBuf>>,
}

impl Rules {
    /// The rules a walk of the directory `path` starts from: none, or with `parents` those of
    /// every directory above it. The error is a bad glob in one of those files.
    pub fn above(path: &Path, global: &Global) -> (Arc<Rules>, Option<ignore::Error>) {
        let mut rules = Arc::new(Rules::empty(PathBuf::new(), true, None));
        if !global.parents {
            return (rules, None);
        }
        let Ok(base) = path.canonicalize() else {
            return (rules, None);
        };
        let base = Arc::new(base);
        let mut errors = Vec::new();
        for dir in base
            .ancestors()
            .skip(1)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
        {
            let ignore = by_path(dir, dir, ".ignore", &mut errors);
            let git_ignore = by_path(dir, dir, ".gitignore", &mut errors);
            let git_exclude = match git_dir_of(dir) {
                Some(git_dir) => by_path(dir, &git_dir, "info/exclude", &mut errors),
                None => Gitignore::empty(),
            };
            rules = Arc::new(Rules {
                parent: Some(rules),
                dir: dir.to_path_buf(),
                ignore,
                git_ignore,
                git_exclude,
                above: true,
                absolute_base: Some(Arc::clone(&base)),
            });
        }
        let error = match errors.len() {
            0 => None,
            1 => errors.pop(),
            _ => Some(ignore::Error::Partial(errors)),
        };
        (rules, error)
    }

    fn empty(dir: PathBuf, above: bool, absolute_base: Option<Arc<PathBuf>>) -> Rules {
        Rules {
            parent: None,
            dir,
            ignore: Gitignore::empty(),
            git_ignore: Gitignore::empty(),
            git_exclude: Gitignore::empty(),
            above,
            absolute_base,
        }
    }

    /// The rules inside the directory `dir` (open as `handle`, listed as `names`): these plus
    /// its own ignore files. A directory without any shares its parent's rules, except the
    /// walked path itself (`named`), where paths from above start.
    pub fn enter(
        self: &Arc<Rules>,
        dir: &Path,
        handle: &File,
        names: &[Named],
        global: &Global,
        named: bool,
    ) -> Arc<Rules> {
        let has = |name: &str| names.iter().any(|n| n.name == name);
        let follow = !global.confined;
        let read = |name: &str| match has(name) {
            true => handle::open_in(handle, OsStr::new(name), follow)
                .map_or_else(|_| Gitignore::empty(), |file| from_file(dir, file, name)),
            false => Gitignore::empty(),
        };
        let ignore = read(".ignore");
        let git_ignore = read(".gitignore");
        let git_exclude = match has(".git") {
            true => exclude_of(dir, handle, global),
            false => Gitignore::empty(),
        };
        let nothing = ignore.is_empty() && git_ignore.is_empty() && git_exclude.is_empty();
        if nothing && !named {
            return Arc::clone(self);
        }
        Arc::new(Rules {
            parent: Some(Arc::clone(self)),
            dir: dir.to_path_buf(),
            ignore,
            git_ignore,
            git_exclude,
            above: false,
            absolute_base: self.absolute_base.clone(),
        })
    }

    /// Whether the walk skips `path` (a name listed in this directory).
    pub fn skips(&self, path: &Path, is_dir: bool, global: &Global) -> bool {
        let path = path.strip_prefix("./").unwrap_or(path);
        if !global.overrides.is_empty() {
            match global.overrides.matched(path, is_dir) {
                Match::Ignore(_) => return true,
                Match::Whitelist(_) => return false,
                Match::None => {}
            }
        }
        match self.matched(path, is_dir, global) {
            Match::Ignore(()) => true,
            Match::Whitelist(()) => false,
            Match::None => global.hidden && is_hidden(path),
        }
    }

    /// The ignore files' verdict, in `ignore`'s precedence.
    fn matched(&self, path: &Path, is_dir: bool, global: &Global) -> Match<()> {
        let mut found = [Match::None, Match::None, Match::None];
        let within = self.chain().take_while(|rules| !rules.above);
        let mut top = None;
        for rules in within {
            rules.match_into(&mut found, path, is_dir);
            top = Some(rules);
        }
        if global.parents {
            if let (Some(base), Some(top)) = (&self.absolute_base, top) {
                let absolute = base.join(relative_to(path, &top.dir));
                for rules in self.chain().skip_while(|rules| !rules.above) {
                    rules.match_into(&mut found, &absolute, is_dir);
                }
            }
        }
        let [ignore, git_ignore, git_exclude] = found;
        ignore
            .or(git_ignore)
            .or(git_exclude)
            .or(unit(global.git_global.matched(path, is_dir)))
    }

    /// Fills each kind of ignore file not yet decided with this directory's verdict.
    fn match_into(&self, found: &mut [Match<()>; 3], path: &Path, is_dir: bool) {
        let files = [&self.ignore, &self.git_ignore, &self.git_exclude];
        for (verdict, file) in found.iter_mut().zip(files) {
            if verdict.is_none() {
                *verdict = unit(file.matched(path, is_dir));
            }
        }
    }

    fn chain(&self) -> impl Iterator<Item = &Rules> {
        std::iter::successors(Some(self), |rules| rules.parent.as_deref())
    }
}

fn unit<T>(verdict: Match<T>) -> Match<()> {
    match verdict {
        Match::None => Match::None,
        Match::Ignore(_) => Match::Ignore(()),
        Match::Whitelist(_) => Match::Whitelist(()),
    }
}

/// `path` below the walked directory `top`, as `ignore` joins it to the canonical walked
/// path (a walk of `.` keeps the path whole, so a hidden name is not cut).
fn relative_to<'p>(path: &'p Path, top: &Path) -> &'p Path {
    if top == Path::new(".") {
        return path;
    }
    let top = top.strip_prefix("./").unwrap_or(top);
    let rest = path.strip_prefix(top).unwrap_or(path);
    rest.strip_prefix("/").unwrap_or(rest)
}

/// A name that starts with a dot.
pub(super) fn is_hidden(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|name| name.as_encoded_bytes().starts_with(b"."))
}

/// A gitignore file read from its open handle, its globs relative to `dir`. Like `ignore`,
/// reading stops at a line that is not UTF-8 and a bad glob is skipped.
fn from_file(dir: &Path, file: impl Read, name: &str) -> Gitignore {
    let mut builder = GitignoreBuilder::new(dir);
    let from = dir.join(name);
    for (index, line) in BufReader::new(file).lines().enumerate() {
        let Ok(line) = line else { break };
        let line = match index {
            0 => line.trim_start_matches('\u{feff}'),
            _ => &line,
        };
        let _ = builder.add_line(Some(from.clone()), line);
    }
    builder.build().unwrap_or_else(|_| Gitignore::empty())
}

/// `.git/info/exclude` of the walked directory `dir` (open as `handle`): through the handle,
/// or, outside `--root`, where a worktree's `.git` file says the repository is.
fn exclude_of(dir: &Path, handle: &File, global: &Global) -> Gitignore {
    if global.confined {
        return handle::open_exclude_beneath(handle).map_or_else(
            |_| Gitignore::empty(),
            |file| from_file(dir, file, ".git/info/exclude"),
        );
    }
    match git_dir_of(dir) {
        Some(git_dir) => by_path(dir, &git_dir, "info/exclude", &mut Vec::new()),
        None => Gitignore::empty(),
    }
}

/// An ignore file read by its path (the directories above a walk, and a worktree's
/// repository), as `ignore` reads them: a missing file is no rules, a bad glob an error.
fn by_path(dir: &Path, from: &Path, name: &str, errors: &mut Vec<ignore::Error>) -> Gitignore {
    let path = from.join(name);
    let mut builder = GitignoreBuilder::new(dir);
    if path.exists() {
        if let Some(error) = builder.add(&path) {
            if !error.is_io() {
                errors.push(error);
            }
        }
    }
    builder.build().unwrap_or_else(|error| {
        errors.push(error);
        Gitignore::empty()
    })
}

/// Where the repository of a directory with a `.git` keeps `info/exclude`: `.git` itself, or
/// for a worktree (a `.git` file saying `gitdir: …`) the common directory it names.
fn git_dir_of(dir: &Path) -> Option<PathBuf> {
    let dot_git = dir.join(".git");
    let meta = dot_git.metadata().ok()?;
    if !meta.is_file() {
        return Some(dot_git);
    }
    let first_line = |path: &Path| -> Option<String> {
        let file = File::open(path).ok()?;
        BufReader::new(file).lines().next()?.ok()
    };
    let line = first_line(&dot_git)?;
    let real = PathBuf::from(line.strip_prefix("gitdir: ")?);
    let common = first_line(&real.join("commondir"))?;
    Some(match common.starts_with('.') {
        true => real.join(common),
        false => PathBuf::from(common),
    })
}
