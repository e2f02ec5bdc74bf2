//! The one directory walk: `ignore` rules (.gitignore, .ignore, hidden files), `--glob`
//! overrides, a language filter, any number of paths (files and directories mixed, as ripgrep
//! takes them), in a stable path order. Print, search and the viewer all walk through here.
//!
//! Files come out of [`Walk`] one at a time as the walk finds them, so a consumer can start
//! working before the walk ends and never holds the whole tree.

use crate::error::{Error, Result};
use crate::lang::{self, Language};
use crate::source;
use ignore::overrides::{Override, OverrideBuilder};
use rules::{Global, Rules};
use schedule::{Job, Pool};
use std::ffi::OsString;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

mod handle;
mod rules;
mod schedule;

/// What to walk and how.
#[derive(Debug, Clone, Default)]
pub struct WalkOptions {
    pub hidden: bool,
    /// Only files of this language.
    pub only: Option<Language>,
    /// ripgrep-style override globs: `*.rs` keeps matches only, `!tests/**` leaves matches out.
    pub globs: Vec<String>,
    /// Also yield files without a parser (text search reads every text file).
    pub any_language: bool,
    /// Read no ignore files or git configuration above the walked paths (`--root`), so
    /// nothing outside the root decides what is inside it.
    pub no_parent_ignores: bool,
    /// Leave out lock files met in a directory (a path given by name is always kept).
    pub skip_lock_files: bool,
    /// `--root` (canonical): a directory given by path is listed only if, once opened, it
    /// lies inside. Every directory below is entered through its parent's open handle,
    /// refusing links, so a folder swapped for a link out of the root is never listed; the
    /// files yielded are checked again when opened ([`crate::source::read_in`]).
    pub confine: Option<PathBuf>,
}

/// One thing the walk met.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// A file to read; `language` is `None` only with [`WalkOptions::any_language`].
    File {
        path: PathBuf,
        language: Option<Language>,
    },
    /// An entry that could not be read (permission denied, a broken link, a loop): one line.
    Unreadable(String),
}

impl Found {
    /// A note for a file whose name is not UTF-8: it is read, and shown with U+FFFD where
    /// its name has bytes that are not text.
    pub fn name_note(&self) -> Option<String> {
        match self {
            Found::File { path, .. } if path.to_str().is_none() => Some(format!(
                "{}: the name is not UTF-8; shown with U+FFFD in place of the bytes that are not text",
                path.display()
            )),
            _ => None,
        }
    }
}

/// The walk over every path given, in order; each directory's entries sorted by name.
/// Directories are listed on every core ahead of the reader (see `schedule.rs`); files come out
/// in the order a sequential walk meets them.
pub struct Walk {
    /// Listings being read, the innermost last.
    stack: Vec<std::vec::IntoIter<Item>>,
    pool: Pool,
}

/// What a directory's listing holds, in name order.
enum Item {
    Found(Found),
    /// A subdirectory, by the id of its job.
    Dir(u64),
}

/// How a directory job reaches its directory.
enum Place {
    /// A path given to the walk, opened as given.
    Named,
    /// A name listed in the open directory above.
    Child { parent: Arc<File>, name: OsString },
}

/// What every directory job of a walk shares.
struct Context {
    global: Global,
    options: WalkOptions,
}

impl Walk {
    /// Starts a walk over `paths` (at least one). Fails only on an invalid `--glob`.
    pub fn new(paths: &[PathBuf], options: WalkOptions) -> Result<Walk> {
        if paths.is_empty() {
            return Err(Error::Usage("no path to walk".into()));
        }
        let mut pool = Pool::new(Context::new(options)?);
        let mut top = Vec::new();
        let mut jobs = Vec::new();
        for (index, path) in paths.iter().enumerate() {
            match std::fs::metadata(path) {
                Err(err) => top.push(Item::Found(Found::Unreadable(
                    Error::io(path, err).to_string(),
                ))),
                Ok(meta) if meta.is_dir() => {
                    let (rules, error) = Rules::above(path, &pool.context().global);
                    if let Some(error) = error {
                        top.push(Item::Found(Found::Unreadable(describe(&error))));
                    }
                    let id = pool.next_id();
                    top.push(Item::Dir(id));
                    jobs.push(Job {
                        key: vec![index as u32],
                        id,
                        place: Place::Named,
                        path: path.clone(),
                        rules,
                    });
                }
                Ok(meta) if meta.is_file() => {
                    let language = source::detect_language(path);
                    if let Some(found) = pool.context().file(path.clone(), language) {
                        top.push(Item::Found(found));
                    }
                }
                Ok(_) => {}
            }
        }
        pool.start(jobs);
        Ok(Walk {
            stack: vec![top.into_iter()],
            pool,
        })
    }
}

impl Iterator for Walk {
    type Item = Found;

    fn next(&mut self) -> Option<Found> {
        loop {
            let listing = self.stack.last_mut()?;
            match listing.next() {
                Some(Item::Found(found)) => return Some(found),
                Some(Item::Dir(id)) => {
                    let items = self.pool.listing(id);
                    self.stack.push(items.into_iter());
                }
                None => {
                    self.stack.pop();
                }
            }
        }
    }
}

impl Context {
    fn new(options: WalkOptions) -> Result<Context> {
        let global = Global {
            overrides: overrides(&options.globs)?,
            git_global: match options.no_parent_ignores {
                true => ignore::gitignore::Gitignore::empty(),
                false => global_gitignore(),
            },
            hidden: !options.hidden,
            parents: !options.no_parent_ignores,
            confined: options.confine.is_some(),
        };
        Ok(Context { global, options })
    }

    /// `path` as the walk yields it, if the language filter keeps it.
    fn file(&self, path: PathBuf, language: Option<Language>) -> Option<Found> {
        // `--lang` in a walk is a filter: a file is kept when its name (or, for a name that
        // says nothing, its `#!` line) says that language.
        let keep = match self.options.only {
            Some(only) => language == Some(only),
            None => language.is_some() || self.options.any_language,
        };
        keep.then_some(Found::File { path, language })
    }

    /// Opens the directory of `job`: a named one as given (and, under `--root`, only if it
    /// lies inside once open), a listed one by name from its parent, refusing a link.
    /// `Ok(None)`: the name is no longer a directory (swapped for a link or a file since it
    /// was listed), so there is nothing to list.
    fn open(&self, job: &Job) -> Result<Option<File>> {
        let opened = match &job.place {
            Place::Named => handle::open_named_dir(&job.path),
            Place::Child { parent, name } => handle::open_child_dir(parent, name),
        };
        let dir = match opened {
            Ok(dir) => dir,
            Err(err) if matches!(job.place, Place::Child { .. }) && swapped(&err) => {
                return Ok(None)
            }
            Err(err) => return Err(Error::io(&job.path, err)),
        };
        if let (Some(root), Place::Named) = (&self.options.confine, &job.place) {
            source::check_opened(&dir, &job.path, root)?;
        }
        Ok(Some(dir))
    }
}

/// An open with `O_NOFOLLOW | O_DIRECTORY` that met a link or a file where a directory was.
fn swapped(err: &std::io::Error) -> bool {
    matches!(
        err.raw_os_error(),
        Some(libc::ELOOP) | Some(libc::ENOTDIR) | Some(libc::ENOENT)
    )
}

/// Lists the directory of `job`: its files (filtered) and subdirectories (new jobs, with ids
/// from `next_id`) in name order. What cannot be read is one [`Found::Unreadable`] line.
fn enter(context: &Context, job: Job, mut next_id: impl FnMut() -> u64) -> (Vec<Item>, Vec<Job>) {
    let unreadable = |err: Error| {
        (
            vec![Item::Found(Found::Unreadable(err.to_string()))],
            vec![],
        )
    };
    let dir = match context.open(&job) {
        Ok(Some(dir)) => dir,
        Ok(None) => return (Vec::new(), Vec::new()),
        Err(err) => return unreadable(err),
    };
    let names = match handle::names(&dir) {
        Ok(names) => names,
        Err(err) => return unreadable(Error::io(&job.path, err)),
    };
    let global = &context.global;
    let named = matches!(job.place, Place::Named);
    let rules = job.rules.enter(&job.path, &dir, &names, global, named);
    let dir = Arc::new(dir);
    let (mut items, mut children) = (Vec::new(), Vec::new());
    for (index, listed) in names.into_iter().enumerate() {
        let is_dir = match listed.kind {
            handle::Kind::Dir => true,
            handle::Kind::File => false,
            handle::Kind::Link | handle::Kind::Special => continue,
        };
        // `.git` is never entered, even with hidden files shown.
        if listed.name == ".git" {
            continue;
        }
        let path = job.path.join(&listed.name);
        if rules.skips(&path, is_dir, global) {
            continue;
        }
        if is_dir {
            let id = next_id();
            items.push(Item::Dir(id));
            let mut key = job.key.clone();
            key.push(index as u32);
            children.push(Job {
                key,
                id,
                place: Place::Child {
                    parent: Arc::clone(&dir),
                    name: listed.name,
                },
                path,
                rules: Arc::clone(&rules),
            });
            continue;
        }
        if context.options.skip_lock_files && lang::is_lock_file(&path) {
            continue;
        }
        let language = match lang::first_line_decides(&path) {
            true => handle::first_line_language(&dir, &listed.name),
            false => lang::detect(&path),
        };
        if let Some(found) = context.file(path, language) {
            items.push(Item::Found(found));
        }
    }
    (items, children)
}

/// The user's global gitignore (git's `core.excludesFile`), as `ignore` finds it.
fn global_gitignore() -> ignore::gitignore::Gitignore {
    let cwd = std::env::current_dir().unwrap_or_default();
    ignore::gitignore::GitignoreBuilder::new(cwd)
        .build_global()
        .0
}

/// One entry of a directory listing ([`list_dir`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    pub path: PathBuf,
    pub name: String,
    pub kind: ListedKind,
}

/// What a listed entry is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListedKind {
    Dir,
    /// A regular file, and the language its name says (`None`: no parser).
    File(Option<Language>),
    /// A symbolic link, never followed by the listing: its target as written, and whether
    /// that target is a directory (`false` for a file or a broken link).
    Link {
        target: PathBuf,
        to_dir: bool,
    },
    /// A FIFO, socket or device: listed, never read.
    Special,
}

/// One directory's entries.
#[derive(Debug, Default)]
pub struct Listing {
    /// In name order.
    pub entries: Vec<Listed>,
    /// One line per entry (or the directory itself) that could not be read.
    pub unreadable: Vec<String>,
}

/// The entries of `dir` alone (its subdirectories are not entered), under the same rules as
/// [`Walk`]: the viewer's directory pane lists each directory this way when it is opened, so
/// no tree is walked whole and no entry cap is needed.
pub fn list_dir(dir: &Path, options: &WalkOptions) -> Result<Listing> {
    let context = Context::new(options.clone())?;
    let mut listing = Listing::default();
    let (rules, error) = Rules::above(dir, &context.global);
    if let Some(error) = error {
        listing.unreadable.push(describe(&error));
    }
    let job = Job {
        key: Vec::new(),
        id: 0,
        place: Place::Named,
        path: dir.to_path_buf(),
        rules,
    };
    let handle = match context.open(&job) {
        Ok(Some(handle)) => handle,
        Ok(None) => return Ok(listing),
        Err(err @ Error::OutsideRoot { .. }) => return Err(err),
        Err(err) => {
            listing.unreadable.push(err.to_string());
            return Ok(listing);
        }
    };
    let names = match handle::names(&handle) {
        Ok(names) => names,
        Err(err) => {
            listing.unreadable.push(Error::io(dir, err).to_string());
            return Ok(listing);
        }
    };
    let rules = job.rules.enter(dir, &handle, &names, &context.global, true);
    for listed in names {
        if listed.name == ".git" {
            continue;
        }
        let path = dir.join(&listed.name);
        let is_dir = listed.kind == handle::Kind::Dir;
        if rules.skips(&path, is_dir, &context.global) {
            continue;
        }
        let kind = match listed.kind {
            handle::Kind::Link => ListedKind::Link {
                target: handle::link_target(&handle, &listed.name),
                to_dir: handle::followed_is(&handle, &listed.name, handle::Kind::Dir),
            },
            handle::Kind::Dir => ListedKind::Dir,
            handle::Kind::File => ListedKind::File(match lang::first_line_decides(&path) {
                true => handle::first_line_language(&handle, &listed.name),
                false => lang::detect(&path),
            }),
            handle::Kind::Special => ListedKind::Special,
        };
        listing.entries.push(Listed {
            name: listed.name.to_string_lossy().into_owned(),
            path,
            kind,
        });
    }
    Ok(listing)
}

/// ripgrep's `--glob` rules, relative to the current directory.
fn overrides(globs: &[String]) -> Result<Override> {
    let mut builder = OverrideBuilder::new(std::env::current_dir().unwrap_or_default());
    for glob in globs {
        builder
            .add(glob)
            .map_err(|e| Error::Usage(format!("--glob {glob}: {e}")))?;
    }
    builder
        .build()
        .map_err(|e| Error::Usage(format!("--glob: {e}")))
}

/// A path as the user would type it from the current directory: `./x` loses its `./`.
pub fn shown(path: &Path) -> &Path {
    match path.strip_prefix(".") {
        Ok(rest) if !rest.as_os_str().is_empty() => rest,
        _ => path,
    }
}

/// A walk error as one line in the words of [`crate::Error`] (`nosuch: no such file or
/// directory`), not the walker's (`IO error for operation on nosuch: No such file or
/// directory (os error 2)`), so that a missing path reads the same in every mode.
fn describe(err: &ignore::Error) -> String {
    let mut err = err;
    let mut path = None;
    loop {
        match err {
            ignore::Error::WithPath {
                path: at,
                err: inner,
            } => {
                path = Some(at.clone());
                err = inner;
            }
            ignore::Error::WithDepth { err: inner, .. }
            | ignore::Error::WithLineNumber { err: inner, .. } => {
                err = inner;
            }
            ignore::Error::Io(io) => {
                if let Some(path) = path {
                    let io = std::io::Error::new(io.kind(), io.to_string());
                    return crate::Error::io(path, io).to_string();
                }
                return err.to_string();
            }
            _ => return err.to_string(),
        }
    }
}

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;
