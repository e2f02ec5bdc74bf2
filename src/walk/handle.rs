//! Directories entered through handles: a walked directory is opened once, by its own name
//! relative to its parent's open handle with `O_NOFOLLOW`, listed from that handle, and the
//! names it lists are opened relative to it again. A name from a listing holds no `/` and is
//! never `..`, so a link swapped in for it is refused by `O_NOFOLLOW` and nothing is resolved
//! twice: a folder replaced by a link out of `--root` between its listing and its entry is
//! simply not entered. (`openat2`'s `RESOLVE_BENEATH` would add nothing for one component.)

use rustix::fs::{AtFlags, FileType, Mode, OFlags, CWD};
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// What a listed name is, as the listing says (links are never followed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Dir,
    File,
    Link,
    /// A FIFO, socket or device.
    Special,
}

/// One name of a directory listing.
#[derive(Debug)]
pub(super) struct Named {
    pub name: OsString,
    pub kind: Kind,
}

/// Opens a directory the user named, links in its path followed as a path given on the
/// command line always is.
pub(super) fn open_named_dir(path: &Path) -> std::io::Result<File> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    Ok(File::from(rustix::fs::openat(
        CWD,
        path,
        flags,
        Mode::empty(),
    )?))
}

/// Opens the directory `name` inside the open directory `parent`, refusing a link.
pub(super) fn open_child_dir(parent: &File, name: &OsStr) -> std::io::Result<File> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    Ok(File::from(rustix::fs::openat(
        parent,
        name,
        flags,
        Mode::empty(),
    )?))
}

/// Opens `name` inside `dir` to read it without blocking (a FIFO swapped in never waits for
/// a writer); `follow` lets a link be followed (outside `--root` only).
pub(super) fn open_in(dir: &File, name: &OsStr, follow: bool) -> std::io::Result<File> {
    let mut flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC;
    if !follow {
        flags |= OFlags::NOFOLLOW;
    }
    Ok(File::from(rustix::fs::openat(
        dir,
        name,
        flags,
        Mode::empty(),
    )?))
}

/// The names in the open directory `dir` (`.` and `..` left out) in byte order, each with
/// its kind from the listing or, where the file system does not say, from `lstat`. A name
/// gone before it could be looked at is left out, as if listed a moment later.
pub(super) fn names(dir: &File) -> std::io::Result<Vec<Named>> {
    let mut listed = Vec::new();
    for_each_entry(dir, |name, file_type| {
        if name == b"." || name == b".." {
            return;
        }
        let name = OsStr::from_bytes(name);
        let kind = match kind_of(file_type) {
            Some(kind) => kind,
            None => match rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
                Ok(stat) => kind_of(FileType::from_raw_mode(stat.st_mode)).unwrap_or(Kind::Special),
                Err(_) => return,
            },
        };
        listed.push(Named {
            name: name.to_os_string(),
            kind,
        });
    })?;
    listed.sort_unstable_by(|a, b| a.name.cmp(&b.name));
    Ok(listed)
}

/// Calls `each` with every name the open directory `dir` lists and its type as listed. On
/// Linux the listing is read straight from the handle (`getdents64`): the handle was opened
/// for this listing alone and is read from its start, so the copy of it that `fdopendir`
/// needs (a second open of `.`, and `fcntl`) would be three system calls per directory
/// for nothing, a tenth of a walk's calls.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn for_each_entry(dir: &File, mut each: impl FnMut(&[u8], FileType)) -> std::io::Result<()> {
    let mut buffer = vec![std::mem::MaybeUninit::<u8>::uninit(); 32 * 1024];
    let mut entries = rustix::fs::RawDir::new(dir, &mut buffer);
    while let Some(entry) = entries.next() {
        let entry = entry?;
        each(entry.file_name().to_bytes(), entry.file_type());
    }
    Ok(())
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn for_each_entry(dir: &File, mut each: impl FnMut(&[u8], FileType)) -> std::io::Result<()> {
    for entry in rustix::fs::Dir::read_from(dir)? {
        let entry = entry?;
        each(entry.file_name().to_bytes(), entry.file_type());
    }
    Ok(())
}

fn kind_of(file_type: FileType) -> Option<Kind> {
    match file_type {
        FileType::Directory => Some(Kind::Dir),
        FileType::RegularFile => Some(Kind::File),
        FileType::Symlink => Some(Kind::Link),
        FileType::Unknown => None,
        _ => Some(Kind::Special),
    }
}

/// Whether `name` inside `dir`, links followed, is a directory (or, with `file`, a regular
/// file).
pub(super) fn followed_is(dir: &File, name: &OsStr, want: Kind) -> bool {
    rustix::fs::statat(dir, name, AtFlags::empty())
        .is_ok_and(|stat| kind_of(FileType::from_raw_mode(stat.st_mode)) == Some(want))
}

/// The target of the link `name` inside `dir`, as written.
pub(super) fn link_target(dir: &File, name: &OsStr) -> PathBuf {
    rustix::fs::readlinkat(dir, name, Vec::new())
        .map(|target| PathBuf::from(OsStr::from_bytes(target.as_bytes())))
        .unwrap_or_default()
}

/// The language of the regular file `name` in `dir` whose name says nothing: its `#!` line,
/// read from the file the listing named (a link swapped in since is not followed).
pub(super) fn first_line_language(dir: &File, name: &OsStr) -> Option<crate::lang::Language> {
    let file = open_in(dir, name, false).ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut head = Vec::with_capacity(crate::lang::FIRST_LINE_BYTES);
    file.take(crate::lang::FIRST_LINE_BYTES as u64)
        .read_to_end(&mut head)
        .ok()?;
    crate::lang::detect_by_first_line(&head)
}

/// Opens `.git/info/exclude` below `dir` one name at a time, each refusing a link.
pub(super) fn open_exclude_beneath(dir: &File) -> std::io::Result<File> {
    let git = open_child_dir(dir, OsStr::new(".git"))?;
    let info = open_child_dir(&git, OsStr::new("info"))?;
    open_in(&info, OsStr::new("exclude"), false)
}
