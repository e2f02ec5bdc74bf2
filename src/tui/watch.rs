//! The tree as it changes: the directories in view and the open file's directory are watched
//! (inotify and the like, through `notify`, non-recursively: a large tree costs a watch per
//! directory opened, not per directory it holds), and what changes arrives on the viewer's
//! one channel as [`Message::Changed`]. A burst of writes (a save, a checkout) comes as one
//! message per debounce period.
//!
//! Watching is bounded: at most [`WATCH_BUDGET`] directories are watched. With more open, or
//! when a watch cannot be set (inotify's limits, ENOSPC) or the watcher cannot start, the
//! viewer polls instead: the open file's stamp (as it always does) and the open directories'
//! modification times, at most [`POLL_BATCH`] of them per poll, and the status bar says so.

use super::app::App;
use super::jobs::Message;
use notify_debouncer_mini::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_mini::{new_debouncer, DebounceEventResult, Debouncer};
use std::collections::{BTreeSet, HashMap};
use std::ops::Bound;
use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;
use std::time::{Duration, SystemTime};

/// Changes closer together than this come as one message.
const DEBOUNCE: Duration = Duration::from_millis(50);

/// The most directories watched at once. inotify's per-user limit (`max_user_watches`: 8,192
/// on many kernels) is shared by every program the user runs (editors, language servers, file
/// managers), so the viewer takes a small share of it; past this many open directories it
/// polls them instead.
pub const WATCH_BUDGET: usize = 1_000;

/// Directories looked at per poll, round-robin: a poll costs a few milliseconds at most,
/// however many directories are open.
pub const POLL_BATCH: usize = 2_000;

/// The watches in place, or the polling that stands in for them.
pub struct Watcher {
    debouncer: Option<Debouncer<RecommendedWatcher>>,
    watched: BTreeSet<PathBuf>,
    budget: usize,
    /// Why the open directories are polled instead of watched, while they are.
    polling: Option<String>,
    /// Watching is not possible at all (the watcher did not start, or a watch failed): the
    /// viewer polls until it ends.
    broken: bool,
    /// Each polled directory's modification time when last looked at.
    stamps: HashMap<PathBuf, Option<SystemTime>>,
    /// The last directory the previous poll looked at: the next one goes on after it.
    polled_up_to: Option<PathBuf>,
}

impl Watcher {
    /// Starts the watcher thread, with the usual budget. Without a watcher (no inotify
    /// instance left), the viewer polls: [`Watcher::follow`] says so.
    pub fn start(tx: Sender<Message>) -> Watcher {
        Watcher::with_budget(tx, WATCH_BUDGET)
    }

    /// The same, watching at most `budget` directories.
    pub fn with_budget(tx: Sender<Message>, budget: usize) -> Watcher {
        let debouncer = new_debouncer(DEBOUNCE, move |result: DebounceEventResult| {
            let message = match result {
                Ok(events) => Message::Changed(events.into_iter().map(|e| e.path).collect()),
                Err(err) => Message::WatchFailed(err.to_string()),
            };
            let _ = tx.send(message);
        });
        let mut watcher = Watcher {
            debouncer: None,
            watched: BTreeSet::new(),
            budget,
            polling: None,
            broken: false,
            stamps: HashMap::new(),
            polled_up_to: None,
        };
        match debouncer {
            Ok(debouncer) => watcher.debouncer = Some(debouncer),
            Err(err) => {
                watcher.broken = true;
                watcher.polling = Some(format!("no file watching ({err})"));
            }
        }
        watcher
    }

    /// Why the tree is polled instead of watched, while it is.
    pub fn polling(&self) -> Option<&str> {
        self.polling.as_deref()
    }

    /// How many directories are watched now.
    #[cfg(test)]
    pub fn watch_count(&self) -> usize {
        self.watched.len()
    }

    /// Watches exactly `wanted` (directories), adding and dropping watches as it changed,
    /// or polls them when they are more than the budget or a watch cannot be set. Returns a
    /// note for the status bar when the viewer starts polling or goes back to watching.
    pub fn follow(&mut self, wanted: &BTreeSet<PathBuf>) -> Option<String> {
        if self.broken {
            return None;
        }
        if wanted.len() > self.budget {
            if self.polling.is_some() {
                return None;
            }
            self.unwatch_all();
            let why = format!(
                "{} directories open, over the {} watched",
                crate::parse::thousands(wanted.len()),
                crate::parse::thousands(self.budget)
            );
            return Some(self.poll_instead(why));
        }
        let resumed = self.polling.take().is_some();
        if let Err(why) = self.watch_exactly(wanted) {
            self.unwatch_all();
            self.broken = true;
            return Some(self.poll_instead(why));
        }
        resumed.then(|| "watching the tree again".to_string())
    }

    /// Adds and drops watches so that `wanted` is what is watched; `Err` says why a watch
    /// could not be set.
    fn watch_exactly(&mut self, wanted: &BTreeSet<PathBuf>) -> Result<(), String> {
        if *wanted == self.watched {
            return Ok(());
        }
        let Some(debouncer) = self.debouncer.as_mut() else {
            return Err("no file watching".into());
        };
        let watcher = debouncer.watcher();
        for gone in self.watched.difference(wanted) {
            // A directory deleted meanwhile has lost its watch already.
            let _ = watcher.unwatch(gone);
        }
        let mut watched: BTreeSet<PathBuf> = self.watched.intersection(wanted).cloned().collect();
        let mut failed = None;
        for new in wanted.difference(&self.watched) {
            match watcher.watch(new, RecursiveMode::NonRecursive) {
                Ok(()) => {
                    watched.insert(new.clone());
                }
                // One deleted meanwhile is no failure: the next listing drops it.
                Err(_) if !new.is_dir() => {}
                Err(err) => {
                    failed = Some(format!("watching {} failed ({err})", new.display()));
                    break;
                }
            }
        }
        self.watched = watched;
        failed.map_or(Ok(()), Err)
    }

    fn unwatch_all(&mut self) {
        if let Some(debouncer) = self.debouncer.as_mut() {
            let watcher = debouncer.watcher();
            for dir in &self.watched {
                let _ = watcher.unwatch(dir);
            }
        }
        self.watched.clear();
    }

    /// Switches to polling for `why`; the note that says so.
    fn poll_instead(&mut self, why: String) -> String {
        self.stamps.clear();
        self.polled_up_to = None;
        let note = format!("{why}: polling the open file and directories");
        self.polling = Some(why);
        note
    }

    /// While polling, the directories of `wanted` whose modification time changed (a file
    /// created, deleted or renamed in them) since they were last looked at; at most
    /// [`POLL_BATCH`] are looked at, going on where the last poll stopped. A directory seen
    /// for the first time is remembered, not reported. Nothing while watching.
    pub fn poll(&mut self, wanted: &BTreeSet<PathBuf>) -> Vec<PathBuf> {
        if self.polling.is_none() {
            return Vec::new();
        }
        self.stamps.retain(|dir, _| wanted.contains(dir));
        let after = match self.polled_up_to.take() {
            Some(last) => wanted.range((Bound::Excluded(last), Bound::Unbounded)),
            None => wanted.range::<PathBuf, _>(..),
        };
        // Past the last directory the batch wraps around to the first.
        let batch: Vec<&PathBuf> = after
            .chain(wanted.iter())
            .take(POLL_BATCH.min(wanted.len()))
            .collect();
        let mut changed = Vec::new();
        for dir in &batch {
            let now = modified(dir);
            match self.stamps.insert((*dir).clone(), now) {
                Some(before) if before != now => changed.push((*dir).clone()),
                _ => {}
            }
        }
        self.polled_up_to = batch.last().map(|dir| (*dir).clone());
        changed.sort();
        changed.dedup();
        changed
    }
}

/// A directory's modification time: `None` when it cannot be read (deleted, say), which is
/// itself a change from a time.
fn modified(dir: &Path) -> Option<SystemTime> {
    std::fs::metadata(dir).and_then(|m| m.modified()).ok()
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

    /// Directories found changed by a poll: the directory pane is listed again (new,
    /// deleted and renamed files appear or go), with git's markers.
    pub fn dirs_changed(&mut self, dirs: &[PathBuf]) {
        if !dirs.is_empty() {
            self.reload_dir();
        }
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
