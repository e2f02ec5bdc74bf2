//! The directory walk: `ignore` rules (.gitignore, .ignore, hidden files), files with a parser
//! only, sorted by path, capped. Shared by directory mode and, later, the TUI's directory pane.

use crate::lang::{self, Language};
use std::path::{Path, PathBuf};

/// What to walk and how.
#[derive(Debug, Clone, Copy, Default)]
pub struct WalkOptions {
    pub hidden: bool,
    /// Only files of this language.
    pub only: Option<Language>,
    pub max_files: usize,
}

/// The files found, in path order, and what was left out.
#[derive(Debug, Default)]
pub struct WalkResult {
    pub files: Vec<(PathBuf, Language)>,
    /// Outlinable files beyond `max_files`.
    pub over_cap: usize,
    /// One line per unreadable entry (permission denied, a broken link).
    pub warnings: Vec<String>,
}

/// Walks `root`, keeping files whose language is known (and matches `only`).
pub fn walk(root: &Path, options: WalkOptions) -> WalkResult {
    let mut result = WalkResult::default();
    let walker = ignore::WalkBuilder::new(root)
        .hidden(!options.hidden)
        .require_git(false)
        .follow_links(false)
        .build();
    for item in walker {
        match item {
            Ok(dir_entry) => {
                if !dir_entry.file_type().is_some_and(|t| t.is_file()) {
                    continue;
                }
                let path = dir_entry.into_path();
                let Some(language) = lang::detect(&path) else {
                    continue;
                };
                if options.only.is_none_or(|only| only == language) {
                    result.files.push((path, language));
                }
            }
            Err(err) => result.warnings.push(err.to_string()),
        }
    }
    result.files.sort_unstable();
    if result.files.len() > options.max_files {
        result.over_cap = result.files.len() - options.max_files;
        result.files.truncate(options.max_files);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn respects_gitignore_hidden_and_caps() -> std::io::Result<()> {
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
        let names = |options| {
            walk(root, options)
                .files
                .iter()
                .map(|(p, _)| p.strip_prefix(root).unwrap_or(p).display().to_string())
                .collect::<Vec<_>>()
        };
        let all = WalkOptions {
            max_files: 100,
            ..Default::default()
        };
        assert_eq!(names(all), ["b.py", "src/a.rs", "src/deep/c.go"]);
        let hidden = WalkOptions {
            hidden: true,
            ..all
        };
        assert!(names(hidden).contains(&".hidden/h.py".to_string()));
        let only = WalkOptions {
            only: Some(Language::Rust),
            ..all
        };
        assert_eq!(names(only), ["src/a.rs"]);
        let capped = walk(
            root,
            WalkOptions {
                max_files: 2,
                ..all
            },
        );
        assert_eq!((capped.files.len(), capped.over_cap), (2, 1));
        Ok(())
    }
}
