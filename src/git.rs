//! Changed-since-HEAD markers through git2 (no git subprocess, no network code): one status
//! pass per repository, then for each changed file a zero-context diff of its HEAD blob (its
//! old path when git sees a rename) against the bytes on disk, which covers staged and unstaged
//! changes alike.

use crate::outline::{ChangeKind, LineChange};
use crate::parse::MAX_BYTES;
use git2::{Repository, Status, StatusOptions};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Why changed-since-HEAD markers are off, for a whole run or for one file.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    #[error("not inside a git repository")]
    NotARepository,
    #[error("a bare repository has no work tree")]
    Bare,
    #[error("{}: {source}", path.display())]
    WorkTree {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("git status failed: {}", .0.message())]
    Status(#[source] git2::Error),
    /// HEAD's version of a file could not be read (repository, tree, object or diff).
    #[error("{}: {}", path.display(), source.message())]
    Head { path: PathBuf, source: git2::Error },
    /// Diffing needs both sides whole; past the read cap neither is loaded.
    #[error("{0} is over the {mb} MB read cap", mb = MAX_BYTES >> 20)]
    OverReadCap(String),
    #[error("{}: its HEAD version is over the {mb} MB read cap", .0.display(), mb = MAX_BYTES >> 20)]
    HeadOverReadCap(PathBuf),
}

/// What git says about one path, relative to the work tree.
#[derive(Debug, Clone, PartialEq, Eq)]
enum FileState {
    /// Not in HEAD: every line is new.
    New,
    /// In HEAD at this path (its old path after a rename); compare with that blob.
    Changed(PathBuf),
}

/// A repository's changed files, gathered once, shareable across threads.
#[derive(Debug)]
pub struct Snapshot {
    git_dir: PathBuf,
    workdir: PathBuf,
    states: HashMap<PathBuf, FileState>,
}

/// The repository holding `path` and its canonical work tree, or why markers are off.
fn open(path: &Path) -> Result<(Repository, PathBuf), GitError> {
    let repo = Repository::discover(path).map_err(|_| GitError::NotARepository)?;
    let workdir = repo.workdir().ok_or(GitError::Bare)?;
    let workdir = workdir
        .canonicalize()
        .map_err(|source| GitError::WorkTree {
            path: workdir.to_path_buf(),
            source,
        })?;
    Ok((repo, workdir))
}

/// The status of one file only: one stat and an index lookup instead of a walk of the whole
/// work tree, so markers for a file cost the same in a repository of ten files or ten thousand.
/// A file that looks new may be the target of a rename, which only the full pass can tell.
pub fn snapshot_file(path: &Path) -> Result<Snapshot, GitError> {
    let (repo, workdir) = open(path)?;
    let rel = path
        .canonicalize()
        .ok()
        .and_then(|p| p.strip_prefix(&workdir).ok().map(Path::to_path_buf));
    let Some(rel) = rel else {
        return snapshot(path);
    };
    let Ok(status) = repo.status_file(&rel) else {
        return snapshot(path);
    };
    let head_is_born = repo.head().is_ok();
    let mut states = HashMap::new();
    if !status.is_empty() && !status.contains(Status::IGNORED) {
        let looks_new = status.intersects(Status::WT_NEW | Status::INDEX_NEW);
        if looks_new && head_is_born {
            return snapshot(path);
        }
        let state = match head_is_born {
            true => FileState::Changed(rel.clone()),
            false => FileState::New,
        };
        states.insert(rel, state);
    }
    Ok(Snapshot {
        git_dir: repo.path().to_path_buf(),
        workdir,
        states,
    })
}

/// Opens the repository holding `path` and gathers the status of its whole work tree (one pass
/// for a directory outline), or says why markers are off.
pub fn snapshot(path: &Path) -> Result<Snapshot, GitError> {
    let (repo, workdir) = open(path)?;
    let mut options = StatusOptions::new();
    options
        .include_untracked(true)
        .recurse_untracked_dirs(true)
        .include_ignored(false)
        .renames_head_to_index(true)
        .renames_index_to_workdir(true);
    let statuses = repo
        .statuses(Some(&mut options))
        .map_err(GitError::Status)?;
    let head_is_born = repo.head().is_ok();
    let mut states = HashMap::new();
    for entry in statuses.iter() {
        let status = entry.status();
        // CURRENT is the empty set: an unchanged file has no bits at all.
        if status.is_empty() || status.contains(Status::IGNORED) {
            continue;
        }
        // `entry.path()` is the *old* path of a rename; the work tree holds the new one.
        let new_path = [entry.index_to_workdir(), entry.head_to_index()]
            .into_iter()
            .flatten()
            .find_map(|delta| delta.new_file().path().map(PathBuf::from))
            .or_else(|| entry.path().ok().map(PathBuf::from));
        let Some(new_path) = new_path else {
            continue;
        };
        let renamed_from = [entry.head_to_index(), entry.index_to_workdir()]
            .into_iter()
            .flatten()
            .filter(|delta| delta.status() == git2::Delta::Renamed)
            .find_map(|delta| delta.old_file().path().map(PathBuf::from));
        let is_new =
            status.intersects(Status::WT_NEW | Status::INDEX_NEW) && renamed_from.is_none();
        let state = if is_new || !head_is_born {
            FileState::New
        } else {
            FileState::Changed(renamed_from.unwrap_or_else(|| new_path.clone()))
        };
        states.insert(new_path, state);
    }
    Ok(Snapshot {
        git_dir: repo.path().to_path_buf(),
        workdir,
        states,
    })
}

impl Snapshot {
    /// Whether any file below the directory `dir` differs from HEAD.
    pub fn has_changes_under(&self, dir: &Path) -> bool {
        self.relative(dir)
            .is_some_and(|rel| self.states.keys().any(|path| path.starts_with(&rel)))
    }

    /// Whether `path` differs from HEAD (untracked counts).
    pub fn is_changed(&self, path: &Path) -> bool {
        self.relative(path)
            .is_some_and(|rel| self.states.contains_key(&rel))
    }

    /// The changed lines of `path`, whose current text (decoded, as loaded) is `current`; empty
    /// when unchanged.
    pub fn changes(&self, path: &Path, current: &[u8]) -> Result<Vec<LineChange>, GitError> {
        let Some(rel) = self.relative(path) else {
            return Ok(Vec::new());
        };
        match self.states.get(&rel) {
            None => Ok(Vec::new()),
            Some(FileState::New) => Ok(all_added(current)),
            Some(FileState::Changed(old_path)) => self.diff_with_head(old_path, current),
        }
    }

    fn relative(&self, path: &Path) -> Option<PathBuf> {
        let absolute = path.canonicalize().ok()?;
        absolute
            .strip_prefix(&self.workdir)
            .ok()
            .map(Path::to_path_buf)
    }

    fn diff_with_head(&self, old_path: &Path, current: &[u8]) -> Result<Vec<LineChange>, GitError> {
        let head_error = |source| GitError::Head {
            path: old_path.to_path_buf(),
            source,
        };
        // A handle per call: git2 repositories are not shared between threads.
        let repo = Repository::open(&self.git_dir).map_err(head_error)?;
        let tree = repo
            .head()
            .and_then(|head| head.peel_to_tree())
            .map_err(head_error)?;
        let entry = match tree.get_path(old_path) {
            Ok(entry) => entry,
            Err(_) => return Ok(all_added(current)),
        };
        // The object header gives the size without inflating the blob: HEAD's version is held
        // to the same read cap as the file on disk.
        let (size, _) = repo
            .odb()
            .and_then(|odb| odb.read_header(entry.id()))
            .map_err(head_error)?;
        if size > MAX_BYTES {
            return Err(GitError::HeadOverReadCap(old_path.to_path_buf()));
        }
        let blob = repo.find_blob(entry.id()).map_err(head_error)?;
        // Decoded as the file on disk was (UTF-16, lossy UTF-8), so only real edits differ.
        let old = match crate::source::decode(blob.content()) {
            crate::source::Loaded::Text { text, .. } => text.into_bytes(),
            crate::source::Loaded::Binary => blob.content().to_vec(),
        };
        let mut options = git2::DiffOptions::new();
        options.context_lines(0);
        // Lines numbered as the outline numbers them: a lone `\r` ends a line too.
        let old = crate::parse::lone_crs_as_newlines_in_bytes(&old);
        let current = crate::parse::lone_crs_as_newlines_in_bytes(current);
        let patch =
            git2::Patch::from_buffers(&old, Some(old_path), &current, None, Some(&mut options))
                .map_err(head_error)?;
        let mut changes = Vec::new();
        for index in 0..patch.num_hunks() {
            let Ok((hunk, _)) = patch.hunk(index) else {
                continue;
            };
            changes.push(hunk_change(
                hunk.old_lines() as usize,
                hunk.new_start() as usize,
                hunk.new_lines() as usize,
            ));
        }
        Ok(changes)
    }
}

/// One zero-context hunk as a change: lines only added, lines replaced, or lines removed.
fn hunk_change(old_lines: usize, new_start: usize, new_lines: usize) -> LineChange {
    let (kind, start, end) = match (old_lines, new_lines) {
        (_, 0) => (ChangeKind::DeletedBelow, new_start, new_start),
        (0, n) => (ChangeKind::Added, new_start, new_start + n - 1),
        (_, n) => (ChangeKind::Modified, new_start, new_start + n - 1),
    };
    LineChange { kind, start, end }
}

fn all_added(current: &[u8]) -> Vec<LineChange> {
    let text = String::from_utf8_lossy(current);
    let lines = crate::parse::count_lines(&text);
    if lines == 0 {
        return Vec::new();
    }
    vec![LineChange {
        kind: ChangeKind::Added,
        start: 1,
        end: lines,
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks_become_changes() {
        assert_eq!(hunk_change(0, 3, 2).kind, ChangeKind::Added);
        assert_eq!(
            (hunk_change(0, 3, 2).start, hunk_change(0, 3, 2).end),
            (3, 4)
        );
        assert_eq!(hunk_change(2, 5, 1).kind, ChangeKind::Modified);
        let deleted = hunk_change(3, 7, 0);
        assert_eq!((deleted.kind, deleted.start), (ChangeKind::DeletedBelow, 7));
        assert!(all_added(b"").is_empty());
        assert_eq!(all_added(b"a\nb").first().map(|c| c.end), Some(2));
    }
}
