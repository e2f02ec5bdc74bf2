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
use std::path::{Path, PathBuf};

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
    /// `--root` (canonical): a file met in a directory is yielded only if its path, resolved
    /// when it is yielded, lies inside. The walk reads a directory by its path, so a folder
    /// swapped for a link out of the root while the walk enters it is listed from outside;
    /// the names it lists that lie outside (or no longer exist) are dropped here, and the
    /// files kept are checked again when opened ([`crate::source::read_in`]).
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
pub struct Walk {
    inner: ignore::Walk,
    options: WalkOptions,
}

impl Walk {
    /// Starts a walk over `paths` (at least one). Fails only on an invalid `--glob`.
    pub fn new(paths: &[PathBuf], options: WalkOptions) -> Result<Walk> {
        Ok(Walk {
            inner: builder(paths, &options)?.build(),
            options,
        })
    }

    fn keep(&self, entry: ignore::DirEntry) -> Option<Found> {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            return None;
        }
        let named = entry.depth() == 0;
        let path = entry.into_path();
        if let (Some(root), false) = (&self.options.confine, named) {
            if !path.canonicalize().is_ok_and(|real| real.starts_with(root)) {
                return None;
            }
        }
        if self.options.skip_lock_files && !named && lang::is_lock_file(&path) {
            return None;
        }
        let language = source::detect_language(&path);
        // `--lang` in a walk is a filter: a file is kept when its name (or, for a name that
        // says nothing, its `#!` line) says that language.
        let keep = match self.options.only {
            Some(only) => language == Some(only),
            None => language.is_some() || self.options.any_language,
        };
        keep.then_some(Found::File { path, language })
    }
}

impl Iterator for Walk {
    type Item = Found;

    fn next(&mut self) -> Option<Found> {
        loop {
            match self.inner.next()? {
                Ok(entry) => {
                    if let Some(found) = self.keep(entry) {
                        return Some(found);
                    }
                }
                Err(err) => return Some(Found::Unreadable(describe(&err))),
            }
        }
    }
}

/// The `ignore` walk every consumer shares: its rules, links never followed, `.git` never
/// entered (even with hidden files shown), entries in name order.
fn builder(paths: &[PathBuf], options: &WalkOptions) -> Result<ignore::WalkBuilder> {
    let (first, rest) = paths
        .split_first()
        .ok_or_else(|| Error::Usage("no path to walk".into()))?;
    let mut builder = ignore::WalkBuilder::new(first);
    for path in rest {
        builder.add(path);
    }
    builder
        .hidden(!options.hidden)
        .require_git(false)
        .follow_links(false)
        .parents(!options.no_parent_ignores)
        .git_global(!options.no_parent_ignores)
        .overrides(overrides(&options.globs)?)
        .filter_entry(|entry| entry.file_name() != ".git")
        .sort_by_file_name(|a, b| a.cmp(b));
    Ok(builder)
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
    let mut builder = builder(&[dir.to_path_buf()], options)?;
    builder.max_depth(Some(1));
    let mut listing = Listing::default();
    for entry in builder.build() {
        let entry = match entry {
            Ok(entry) if entry.depth() == 0 => continue,
            Ok(entry) => entry,
            Err(err) => {
                listing.unreadable.push(describe(&err));
                continue;
            }
        };
        let Some(file_type) = entry.file_type() else {
            continue;
        };
        let path = entry.path().to_path_buf();
        let kind = if file_type.is_symlink() {
            ListedKind::Link {
                target: std::fs::read_link(&path).unwrap_or_default(),
                to_dir: path.is_dir(),
            }
        } else if file_type.is_dir() {
            ListedKind::Dir
        } else if file_type.is_file() {
            ListedKind::File(source::detect_language(&path))
        } else {
            ListedKind::Special
        };
        listing.entries.push(Listed {
            name: entry.file_name().to_string_lossy().into_owned(),
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
mod tests {
    use super::*;
    use std::fs;

    fn tree() -> std::io::Result<tempfile::TempDir> {
        let dir = tempfile::tempdir()?;
        let root = dir.path();
        fs::create_dir_all(root.join("src/deep"))?;
        fs::create_dir_all(root.join(".hidden"))?;
        fs::write(root.join(".gitignore"), "ignored.py\n")?;
        fs::write(root.join("ignored.py"), "x = 1\n")?;
        fs::write(root.join("b.py"), "")?;
        fs::write(root.join("src/a.rs"), "")?;
        fs::write(root.join("src/deep/c.go"), "")?;
        fs::write(root.join("notes.txt"), "")?;
        fs::write(root.join(".hidden/h.py"), "")?;
        Ok(dir)
    }

    fn names(root: &Path, paths: &[PathBuf], options: WalkOptions) -> Vec<String> {
        Walk::new(paths, options)
            .expect("walk")
            .filter_map(|found| match found {
                Found::File { path, .. } => Some(
                    path.strip_prefix(root)
                        .unwrap_or(&path)
                        .display()
                        .to_string(),
                ),
                Found::Unreadable(_) => None,
            })
            .collect()
    }

    #[test]
    fn respects_gitignore_hidden_and_language() -> std::io::Result<()> {
        let dir = tree()?;
        let root = dir.path();
        let all = WalkOptions::default();
        let here = [root.to_path_buf()];
        assert_eq!(
            names(root, &here, all.clone()),
            ["b.py", "src/a.rs", "src/deep/c.go"]
        );
        let hidden = WalkOptions {
            hidden: true,
            ..all.clone()
        };
        assert!(names(root, &here, hidden).contains(&".hidden/h.py".to_string()));
        let only = WalkOptions {
            only: Some(Language::Rust),
            ..all.clone()
        };
        assert_eq!(names(root, &here, only), ["src/a.rs"]);
        let text = WalkOptions {
            any_language: true,
            ..all
        };
        assert!(names(root, &here, text).contains(&"notes.txt".to_string()));
        Ok(())
    }

    #[test]
    fn a_name_that_says_nothing_is_read_for_its_first_line() -> std::io::Result<()> {
        let dir = tempfile::tempdir()?;
        let root = dir.path();
        fs::create_dir_all(root.join("bin"))?;
        fs::write(root.join("bin/deploy"), "#!/usr/bin/env python3\nx = 1\n")?;
        fs::write(root.join("bin/binary"), "#!/usr/bin/python3\0\n")?;
        fs::write(root.join("bin/LICENSE"), "MIT\n")?;
        // A telling extension wins over the first line; another extension is never read.
        fs::write(root.join("bin/tool.rs"), "#!/usr/bin/env python3\n")?;
        fs::write(root.join("bin/tool.txt"), "#!/usr/bin/env python3\n")?;
        let here = [root.to_path_buf()];
        let found: Vec<Found> = Walk::new(&here, WalkOptions::default())
            .expect("walk")
            .collect();
        let languages: Vec<(String, Option<Language>)> = found
            .into_iter()
            .filter_map(|found| match found {
                Found::File { path, language } => {
                    let name = path.file_name()?.to_string_lossy().into_owned();
                    Some((name, language))
                }
                Found::Unreadable(_) => None,
            })
            .collect();
        assert_eq!(
            languages,
            [
                ("deploy".to_string(), Some(Language::Python)),
                ("tool.rs".to_string(), Some(Language::Rust)),
            ]
        );
        let listing = list_dir(&root.join("bin"), &WalkOptions::default()).expect("listed");
        let deploy = listing.entries.iter().find(|e| e.name == "deploy");
        assert_eq!(
            deploy.map(|e| &e.kind),
            Some(&ListedKind::File(Some(Language::Python)))
        );
        Ok(())
    }

    #[test]
    fn several_paths_and_globs() -> std::io::Result<()> {
        let dir = tree()?;
        let root = dir.path();
        let paths = [root.join("src/deep"), root.join("b.py")];
        assert_eq!(
            names(root, &paths, WalkOptions::default()),
            ["src/deep/c.go", "b.py"]
        );
        let here = [root.to_path_buf()];
        let rust_only = WalkOptions {
            globs: vec!["*.rs".into()],
            ..WalkOptions::default()
        };
        assert_eq!(names(root, &here, rust_only), ["src/a.rs"]);
        let no_src = WalkOptions {
            globs: vec!["!src/**".into(), "!**/src/**".into()],
            ..WalkOptions::default()
        };
        assert_eq!(names(root, &here, no_src), ["b.py"]);
        let bad = WalkOptions {
            globs: vec!["a{".into()],
            ..WalkOptions::default()
        };
        assert!(matches!(Walk::new(&here, bad), Err(Error::Usage(_))));
        Ok(())
    }

    #[test]
    fn listing_one_level_with_links_empty_dirs_and_no_git() -> std::io::Result<()> {
        let dir = tree()?;
        let root = dir.path();
        fs::create_dir_all(root.join(".git/objects"))?;
        fs::write(root.join(".git/hook.py"), "")?;
        fs::create_dir_all(root.join("empty"))?;
        #[cfg(unix)]
        std::os::unix::fs::symlink("src", root.join("link"))?;
        let options = WalkOptions {
            hidden: true,
            ..WalkOptions::default()
        };
        let listing = list_dir(root, &options).expect("listed");
        let listed: Vec<&str> = listing.entries.iter().map(|e| e.name.as_str()).collect();
        assert!(!listed.contains(&".git"), "{listed:?}");
        assert!(
            listed.contains(&"empty") && listed.contains(&".hidden"),
            "{listed:?}"
        );
        assert!(
            !listed.contains(&"ignored.py") && !listed.contains(&"a.rs"),
            "{listed:?}"
        );
        assert!(
            listed.contains(&"notes.txt"),
            "files without a parser are listed"
        );
        #[cfg(unix)]
        {
            let link = listing
                .entries
                .iter()
                .find(|e| e.name == "link")
                .expect("link");
            let to_src = ListedKind::Link {
                target: PathBuf::from("src"),
                to_dir: true,
            };
            assert_eq!(link.kind, to_src);
        }
        let walked = names(root, &[root.to_path_buf()], options);
        assert!(walked.iter().all(|p| !p.starts_with(".git")), "{walked:?}");
        Ok(())
    }

    #[test]
    fn shown_paths_drop_the_dot() {
        assert_eq!(shown(Path::new("./src/a.rs")), Path::new("src/a.rs"));
        assert_eq!(shown(Path::new(".")), Path::new("."));
        assert_eq!(shown(Path::new("src")), Path::new("src"));
    }
}
