//! The directory pane's contents: an `ignore` walk (the same rules as [`crate::walk`]: gitignore,
//! hidden files) that, unlike the print walk, also keeps files without a parser so the pane can
//! show them dimmed, turned into tree rows with folders first.

use super::tree::Item;
use crate::{git, lang};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Entries listed at most, so that a huge tree cannot stall start-up.
pub const MAX_ENTRIES: usize = 50_000;

/// One row of the directory pane.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirItem {
    pub name: String,
    pub path: PathBuf,
    pub is_dir: bool,
    /// A parser exists for this file.
    pub outlinable: bool,
    /// Differs from HEAD (git status).
    pub changed: bool,
}

impl Item for DirItem {
    fn key(&self) -> &str {
        &self.name
    }
}

#[derive(Default)]
struct Folder {
    folders: BTreeMap<String, Folder>,
    files: Vec<String>,
}

/// Lists `root` as `(depth, item)` rows in pre-order: folders first, then files, by name.
pub fn list(root: &Path, hidden: bool, snapshot: Option<&git::Snapshot>) -> Vec<(usize, DirItem)> {
    let mut top = Folder::default();
    let walker = ignore::WalkBuilder::new(root)
        .hidden(!hidden)
        .require_git(false)
        .follow_links(false)
        .build();
    for entry in walker.flatten().take(MAX_ENTRIES) {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Ok(rel) = entry.path().strip_prefix(root) else {
            continue;
        };
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let Some((file, dirs)) = parts.split_last() else {
            continue;
        };
        let mut folder = &mut top;
        for dir in dirs {
            folder = folder.folders.entry(dir.clone()).or_default();
        }
        folder.files.push(file.clone());
    }
    let mut rows = Vec::new();
    flatten(&top, root, 0, snapshot, &mut rows);
    rows
}

fn flatten(
    folder: &Folder,
    dir: &Path,
    depth: usize,
    snapshot: Option<&git::Snapshot>,
    rows: &mut Vec<(usize, DirItem)>,
) {
    for (name, sub) in &folder.folders {
        let path = dir.join(name);
        let at = rows.len();
        rows.push((
            depth,
            DirItem {
                name: name.clone(),
                path: path.clone(),
                is_dir: true,
                outlinable: true,
                changed: false,
            },
        ));
        flatten(sub, &path, depth + 1, snapshot, rows);
        let changed = rows[at + 1..].iter().any(|(_, item)| item.changed);
        rows[at].1.changed = changed;
    }
    let mut files = folder.files.clone();
    files.sort();
    for name in files {
        let path = dir.join(&name);
        rows.push((
            depth,
            DirItem {
                outlinable: lang::detect(&path).is_some(),
                changed: snapshot.is_some_and(|s| s.is_changed(&path)),
                name,
                path,
                is_dir: false,
            },
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn folders_first_and_ignored_files_skipped() -> std::io::Result<()> {
        let dir = tempfile::tempdir()?;
        let root = dir.path();
        fs::create_dir_all(root.join("src"))?;
        fs::write(root.join(".gitignore"), "skip.py\n")?;
        fs::write(root.join("skip.py"), "")?;
        fs::write(root.join("a.py"), "")?;
        fs::write(root.join("notes.xyz"), "")?;
        fs::write(root.join("src/m.rs"), "")?;
        let rows = list(root, false, None);
        let names: Vec<(usize, &str, bool)> = rows
            .iter()
            .map(|(d, i)| (*d, i.name.as_str(), i.outlinable))
            .collect();
        assert_eq!(
            names,
            [
                (0, "src", true),
                (1, "m.rs", true),
                (0, "a.py", true),
                (0, "notes.xyz", false)
            ]
        );
        Ok(())
    }
}
