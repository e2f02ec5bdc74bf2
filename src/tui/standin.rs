//! A directory-pane row that is not a file to read (a folder, a symbolic link) still gets
//! the outline, preview and status bar: they say what it is, never the file shown before.

use super::app::App;
use super::doc::Doc;
use super::files::DirItem;
use crate::walk::{self, ListedKind, WalkOptions};
use std::path::Path;

/// Entries counted at most for a folder's summary: the count is a glance, not a walk.
const COUNT_AT_MOST: usize = 10_000;

impl App {
    /// Shows what `item` (a folder or a link) is in place of a file.
    pub fn show_standin(&mut self, item: &DirItem) {
        let what = match &item.link {
            Some(target) => link_summary(&item.path, target, self.confine.as_deref()),
            None => folder_summary(&item.path, &self.walk_options(true)),
        };
        self.loading = None;
        self.set_doc(Doc::standin(&item.path, what, &self.theme));
    }
}

/// "folder · 3 folders, 12 files · Enter opens it": the rows Enter would list, read as the
/// directory pane reads them (through the walk, so under `--root` a folder swapped for a link
/// out of it is refused, not counted).
fn folder_summary(path: &Path, options: &WalkOptions) -> String {
    let listing = match walk::list_dir(path, options) {
        Ok(listing) => listing,
        Err(err) => return format!("folder · not readable ({err})"),
    };
    let (mut folders, mut files) = (0usize, 0usize);
    for entry in listing.entries.iter().take(COUNT_AT_MOST) {
        match matches!(
            entry.kind,
            ListedKind::Dir | ListedKind::Link { to_dir: true, .. }
        ) {
            true => folders += 1,
            false => files += 1,
        }
    }
    let counted = |n: usize, one: &str, many: &str| {
        let more = if folders + files >= COUNT_AT_MOST {
            "+"
        } else {
            ""
        };
        let word = if n == 1 { one } else { many };
        format!("{}{more} {word}", crate::parse::thousands(n))
    };
    match folders + files {
        0 => "folder · empty".into(),
        _ => format!(
            "folder · {}, {} · Enter opens it",
            counted(folders, "folder", "folders"),
            counted(files, "file", "files")
        ),
    }
}

/// "link → ../x · dangling", "link → /etc · outside --root /srv", or where it leads and that
/// Enter follows it.
fn link_summary(path: &Path, target: &Path, root: Option<&Path>) -> String {
    let head = format!("link → {}", target.display());
    if let Some(root) = root {
        if crate::source::check_inside(path, root).is_err() {
            return format!("{head} · outside --root {}", root.display());
        }
    }
    // What the link leads to, told from the file opened (and checked inside the root), not
    // from the path again: a link swapped in after the check must not reveal what it leads to.
    match crate::source::stat_confined(path, root) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => format!("{head} · dangling"),
        Err(err) => format!("{head} · {err}"),
        // Swapped since the check for a link that leads outside.
        Ok(None) => match root {
            Some(root) => format!("{head} · outside --root {}", root.display()),
            None => format!("{head} · cannot be opened"),
        },
        Ok(Some(meta)) if meta.is_dir() => format!("{head} · a folder · Enter follows the link"),
        Ok(Some(_)) => format!("{head} · Enter follows the link"),
    }
}
