//! Reads confined to a directory (`--root`). A path checked before it is opened can change
//! before it is opened (a file swapped for a link that leads outside, a directory for a link
//! to another tree), so the check is made on the file that was opened: where the system can
//! name an open file's path (Linux's `/proc/self/fd`), that path; elsewhere the path resolved
//! again must lie inside and name the very file that is open (same device and inode).

use crate::error::{Error, Result};
use std::fs::File;
use std::path::{Path, PathBuf};

/// Refuses `path` unless it resolves (links and `..` followed) inside `root` (a canonical
/// directory). A path outside gets the same error whether or not it exists or can be read,
/// so the answer tells nothing about what lies outside: the command line, the MCP server and
/// the viewer all check here.
pub fn check_inside(path: &Path, root: &Path) -> Result<()> {
    match super::resolve(path).starts_with(root) {
        true => Ok(()),
        false => Err(Error::OutsideRoot {
            path: path.to_path_buf(),
            root: root.to_path_buf(),
        }),
    }
}

/// Refuses `file`, opened from `path`, unless the file itself lies inside `root` (a canonical
/// directory), in the words of [`crate::config::Config::check_root`].
pub(crate) fn check_opened(file: &File, path: &Path, root: &Path) -> Result<()> {
    let inside = match opened_path(file) {
        Some(real) => real.starts_with(root),
        None => {
            let resolved = super::resolve(path);
            resolved.starts_with(root) && same_file(file, &resolved)
        }
    };
    match inside {
        true => Ok(()),
        false => Err(Error::OutsideRoot {
            path: path.to_path_buf(),
            root: root.to_path_buf(),
        }),
    }
}

/// The path of the open `file` as the kernel names it, or `None` where it cannot say (no
/// `/proc` mounted, another system).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn opened_path(file: &File) -> Option<PathBuf> {
    use std::os::fd::AsRawFd;
    let link = std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd())).ok()?;
    // Anything else (`anon_inode:…`, `pipe:[…]`) is not a path in a tree.
    link.is_absolute().then_some(link)
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn opened_path(_: &File) -> Option<PathBuf> {
    None
}

/// Which file an open handle reads (device and inode): a second read of a path for lines past
/// the read cap must read the very file the first read did, not whatever the path names by
/// then (a link swapped in, under `--root` one that leads outside).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FileIdentity {
    device: u64,
    inode: u64,
}

impl FileIdentity {
    /// The identity of a file in what `stat` said of it (the open file's, taken when it was
    /// opened), or `None` where the system cannot tell it.
    #[cfg(unix)]
    pub(crate) fn from_metadata(meta: &std::fs::Metadata) -> Option<FileIdentity> {
        use std::os::unix::fs::MetadataExt;
        Some(FileIdentity {
            device: meta.dev(),
            inode: meta.ino(),
        })
    }

    #[cfg(not(unix))]
    pub(crate) fn from_metadata(_: &std::fs::Metadata) -> Option<FileIdentity> {
        None
    }
}

/// Whether `path` names the open `file` itself.
#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(open), Ok(named)) => open.dev() == named.dev() && open.ino() == named.ino(),
        _ => false,
    }
}

/// Without inodes to compare, the resolved path is all there is to check.
#[cfg(not(unix))]
fn same_file(_: &File, _: &Path) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_file_opened_through_a_link_is_judged_where_it_lies() {
        let dir = tempfile::tempdir().expect("temp dir");
        let base = dir.path().canonicalize().expect("canonical");
        let (root, outside) = (base.join("root"), base.join("outside"));
        std::fs::create_dir_all(&root).expect("mkdir");
        std::fs::create_dir_all(&outside).expect("mkdir");
        std::fs::write(root.join("in.py"), "x = 1\n").expect("write");
        std::fs::write(outside.join("secret.py"), "s = 1\n").expect("write");
        let link = root.join("link.py");
        std::os::unix::fs::symlink(outside.join("secret.py"), &link).expect("symlink");
        // Opened through the link (as after a swap), then judged: outside.
        let file = File::open(&link).expect("open");
        let refused = check_opened(&file, &link, &root);
        assert!(
            matches!(refused, Err(Error::OutsideRoot { .. })),
            "{refused:?}"
        );
        // The path now names a file inside, but the file open is still the outside one.
        std::fs::remove_file(&link).expect("unlink");
        std::fs::write(&link, "x = 2\n").expect("write");
        assert!(check_opened(&file, &link, &root).is_err());
        assert!(!same_file(&file, &link));
        let inside = File::open(root.join("in.py")).expect("open");
        assert!(check_opened(&inside, &root.join("in.py"), &root).is_ok());
        assert!(same_file(&inside, &root.join("in.py")));
    }
}
