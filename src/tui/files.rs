//! The directory pane's rows: one directory at a time, listed by the one walker
//! ([`crate::walk::list_dir`]) when the user opens it, so a huge tree opens at once and no
//! entry is left out. Directories come first, then files, each by name (as broot and yazi
//! sort); files without a parser are kept (shown dimmed), empty directories and symbolic links
//! (with their target) are listed, `.git` never is.

use super::tree::Item;
use crate::git;
use crate::walk::{self, ListedKind, WalkOptions};
use std::cmp::Ordering;
use std::path::{Path, PathBuf};

/// One row of the directory pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirItem {
    pub name: String,
    pub path: PathBuf,
    /// A directory, or a link to one.
    pub is_dir: bool,
    /// A parser exists for this file.
    pub outlinable: bool,
    /// Differs from HEAD (git status); for a directory, something below it does.
    pub changed: bool,
    /// A symbolic link: where it points, as written.
    pub link: Option<PathBuf>,
    /// A directory whose entries are in the tree below it.
    pub listed: bool,
    /// A row standing for what could not be listed: why.
    pub error: Option<String>,
}

impl Item for DirItem {
    fn key(&self) -> &str {
        &self.name
    }

    fn expandable(&self) -> bool {
        self.is_dir && !self.listed && self.error.is_none()
    }
}

impl DirItem {
    /// A row saying why a directory's entries are missing.
    fn unreadable(dir: &Path, why: String) -> DirItem {
        DirItem {
            name: why.clone(),
            path: dir.to_path_buf(),
            is_dir: false,
            outlinable: false,
            changed: false,
            link: None,
            listed: false,
            error: Some(why),
        }
    }
}

/// The rows of `dir` (one level), directories first, then by name; what could not be read
/// becomes rows that say so. `shown_as` is the path the rows hang under (a link to `dir`
/// lists under the link's own path).
pub fn list(
    dir: &Path,
    shown_as: &Path,
    options: &WalkOptions,
    snapshot: Option<&git::Snapshot>,
) -> Vec<DirItem> {
    let listing = match walk::list_dir(dir, options) {
        Ok(listing) => listing,
        Err(err) => return vec![DirItem::unreadable(shown_as, err.to_string())],
    };
    let mut rows: Vec<DirItem> = listing
        .entries
        .into_iter()
        .map(|entry| {
            // The name as the system spells it: `entry.name` is for showing, and a name that
            // is not UTF-8 shows with U+FFFD, which names no file.
            let path = match entry.path.file_name() {
                Some(name) => shown_as.join(name),
                None => shown_as.join(&entry.name),
            };
            let (is_dir, outlinable, link) = match entry.kind {
                ListedKind::Dir => (true, true, None),
                ListedKind::File(language) => (false, language.is_some(), None),
                ListedKind::Link { target, to_dir } => {
                    {
                        // Named by the target's name, else read through the link as opening it would.
                        let language = crate::lang::detect(&target)
                            .or_else(|| crate::source::detect_language(&entry.path));
                        (to_dir, language.is_some(), Some(target))
                    }
                }
                ListedKind::Special => (false, false, None),
            };
            let changed = snapshot.is_some_and(|s| match is_dir && link.is_none() {
                true => s.has_changes_under(&entry.path),
                false => s.is_changed(&entry.path),
            });
            DirItem {
                name: entry.name,
                path,
                is_dir,
                outlinable,
                changed,
                link,
                listed: false,
                error: None,
            }
        })
        .collect();
    rows.sort_by(order);
    rows.extend(
        listing
            .unreadable
            .into_iter()
            .map(|why| DirItem::unreadable(shown_as, why)),
    );
    rows
}

/// Directories first, then names without regard to case, then exactly.
fn order(a: &DirItem, b: &DirItem) -> Ordering {
    b.is_dir
        .cmp(&a.is_dir)
        .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
        .then_with(|| a.name.cmp(&b.name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn folders_first_one_level_and_ignored_files_skipped() -> std::io::Result<()> {
        let dir = tempfile::tempdir()?;
        let root = dir.path();
        fs::create_dir_all(root.join("src"))?;
        fs::create_dir_all(root.join("Empty"))?;
        fs::write(root.join(".gitignore"), "skip.py\n")?;
        fs::write(root.join("skip.py"), "")?;
        fs::write(root.join("b.py"), "")?;
        fs::write(root.join("A.md"), "")?;
        fs::write(root.join("notes.xyz"), "")?;
        fs::write(root.join("src/m.rs"), "")?;
        let rows = list(root, root, &WalkOptions::default(), None);
        let names: Vec<(&str, bool, bool)> = rows
            .iter()
            .map(|i| (i.name.as_str(), i.is_dir, i.outlinable))
            .collect();
        assert_eq!(
            names,
            [
                ("Empty", true, true),
                ("src", true, true),
                ("A.md", false, true),
                ("b.py", false, true),
                ("notes.xyz", false, false)
            ]
        );
        assert!(rows.iter().all(|r| r.expandable() == r.is_dir));
        Ok(())
    }

    #[test]
    fn an_unreadable_directory_is_a_row_that_says_so() {
        let rows = list(
            Path::new("/no/such/dir"),
            Path::new("/no/such/dir"),
            &WalkOptions::default(),
            None,
        );
        assert_eq!(rows.len(), 1);
        assert!(rows[0].error.is_some() && !rows[0].expandable());
    }
}
