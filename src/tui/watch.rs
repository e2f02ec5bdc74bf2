//! The tree as it changes: the directories in view and the open file's directory are watched
//! (inotify and the like, through `notify`, non-recursively: a large tree costs a watch per
//! directory opened, not per directory it holds), and what changes arrives on the viewer's
//! one channel as [`Message::Changed`]. A burst of writes (a save, a checkout) comes as one
//! message per debounce period. When a watch cannot be set (inotify's limits), the viewer
//! says so and falls back to checking the open file's stamp.

use super::app::App;
use super::jobs::Message;
use notify_debouncer_mini::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_mini::{new_debouncer, DebounceEventResult, Debouncer};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;
use std::time::Duration;

/// Changes closer together than this come as one message.
const DEBOUNCE: Duration = Duration::from_millis(50);

/// The watches in place.
pub struct Watcher {
    debouncer: Debouncer<RecommendedWatcher>,
    watched: BTreeSet<PathBuf>,
    /// Why watching stopped, once it did: the viewer polls instead.
    pub failed: Option<String>,
}

impl Watcher {
    /// Starts the watcher thread; `Err` says why there is none.
    pub fn start(tx: Sender<Message>) -> Result<Watcher, String> {
        let debouncer = new_debouncer(DEBOUNCE, move |result: DebounceEventResult| {
            let message = match result {
                Ok(events) => Message::Changed(events.into_iter().map(|e| e.path).collect()),
                Err(err) => Message::WatchFailed(err.to_string()),
            };
            let _ = tx.send(message);
        })
        .map_err(|err| err.to_string())?;
        Ok(Watcher {
            debouncer,
            watched: BTreeSet::new(),
            failed: None,
        })
    }

    /// Watches exactly `wanted` (directories), adding and dropping watches as it changed.
    /// Returns why a watch could not be set, the first time one cannot.
    pub fn follow(&mut self, wanted: BTreeSet<PathBuf>) -> Option<String> {
        if self.failed.is_some() || wanted == self.watched {
            return None;
        }
        let watcher = self.debouncer.watcher();
        for gone in self.watched.difference(&wanted) {
            // A directory deleted meanwhile has lost its watch already.
            let _ = watcher.unwatch(gone);
        }
        for new in wanted.difference(&self.watched) {
            if let Err(err) = watcher.watch(new, RecursiveMode::NonRecursive) {
                if new.is_dir() {
                    let why = format!("watching {} failed ({err})", new.display());
                    self.failed = Some(why.clone());
                    return Some(why);
                }
            }
        }
        self.watched = wanted;
        None
    }
}

impl App {
    /// The directories whose changes the screen shows: the root, every directory open in
    /// the directory pane, and the open file's.
    pub fn in_view(&self) -> BTreeSet<PathBuf> {
        let mut dirs: BTreeSet<PathBuf> = self
            .dir
            .nodes()
            .iter()
            .filter(|n| n.item.is_dir && n.item.listed && n.expanded && n.item.link.is_none())
            .map(|n| n.item.path.clone())
            .collect();
        dirs.insert(self.root.clone());
        if let Some(parent) = self.doc.as_ref().and_then(|d| d.path.parent()) {
            dirs.insert(parent.to_path_buf());
        }
        dirs
    }

    /// Paths changed on disk: the directory pane is listed again (new, deleted and renamed
    /// files appear or go), the open file is read again when it is one of them (its outline,
    /// preview and git markers follow), and the symbol index takes each file as it is now.
    pub fn changed(&mut self, paths: Vec<PathBuf>) {
        let open = self.doc.as_ref().map(|d| d.path.clone());
        if open
            .as_ref()
            .is_some_and(|open| paths.iter().any(|p| p == open))
        {
            self.reload_doc();
        }
        let listed = |path: &Path| self.dir.nodes().iter().any(|n| n.item.path == path);
        let relist = paths.iter().any(|path| path.exists() != listed(path));
        if relist {
            self.reload_dir();
        } else {
            // Contents changed, not names: git's markers may have.
            self.refresh_git();
        }
        if let Some(index) = &self.symbols {
            let (gone, there): (Vec<PathBuf>, Vec<PathBuf>) =
                paths.into_iter().partition(|p| !p.exists());
            gone.iter().for_each(|path| index.remove(path));
            let files: Vec<PathBuf> = there
                .into_iter()
                .filter(|p| p.is_file() && Some(p) != open.as_ref())
                .collect();
            if !files.is_empty() {
                let mut scope = self.scope(false);
                scope.paths = files;
                index.reindex(scope);
            }
        }
    }
}
