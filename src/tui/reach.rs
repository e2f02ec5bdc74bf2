//! The directory filter's reach below what the pane has listed. The pane lists a directory only
//! when it is opened, so a filter over the listed rows alone could not find a file in a
//! directory never opened. Here the one walker ([`crate::walk::Walk`]) goes through the whole
//! tree once, on a thread, keeping every path; for each query the directories holding a match
//! are listed (the pane's own listing, [`files::list`]) and sent to the viewer top-down, which
//! grafts them into the pane, closed, so the filter shows the matches where they live.
//!
//! Nothing here runs on the key path: queries go in as messages, listings come back as
//! [`Message::Reached`], and a newer query stops the listing for the old one.

use super::files::{self, DirItem};
use super::jobs::{Cancel, Message};
use super::tree::fuzzy_match;
use crate::git::Snapshot;
use crate::walk::{Found, Walk, WalkOptions};
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Matches followed at most for one query: past them the filter says to type more.
pub const MAX_MATCHES: usize = 2_000;
/// Paths the walk hands over at once.
const BATCH: usize = 2_048;
/// Listings are sent at least this often while a query is being answered.
const SEND_EVERY: Duration = Duration::from_millis(30);

/// Directories listed for a query, top-down, and how far the answer has got.
#[derive(Debug)]
pub struct Reached {
    pub generation: u64,
    pub query: String,
    /// Each directory with its rows, parents before children.
    pub listings: Vec<(PathBuf, Vec<DirItem>)>,
    /// The walk is over and every match of `query` found so far is listed.
    pub settled: bool,
    /// More than [`MAX_MATCHES`] matched: only the first are listed.
    pub capped: bool,
}

/// How far the directory filter's query has been answered below the listed directories.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReachStatus {
    /// The query of the last answer.
    pub query: String,
    pub settled: bool,
    pub capped: bool,
}

impl ReachStatus {
    /// Whether every match of `query` is listed (or the first [`MAX_MATCHES`] are).
    pub fn answers(&self, query: &str) -> bool {
        self.query == query && self.settled
    }
}

enum Input {
    Found(Vec<PathBuf>),
    WalkDone,
    Query(String),
}

/// The handle of a running walk; dropping it stops the walk and the thread.
pub struct Reach {
    tx: Sender<Input>,
    cancel: Cancel,
    pub generation: u64,
}

impl Reach {
    /// Starts walking `root` with the pane's rules; the rows it lists carry `snapshot`'s
    /// change marks.
    pub fn start(
        root: PathBuf,
        options: WalkOptions,
        snapshot: Option<Arc<Snapshot>>,
        generation: u64,
        ui: Sender<Message>,
    ) -> Reach {
        let (tx, rx) = mpsc::channel();
        let cancel = Cancel::default();
        let (walk_tx, walk_cancel) = (tx.clone(), cancel.clone());
        let (walk_root, walk_options) = (root.clone(), options.clone());
        std::thread::spawn(move || walk(&walk_root, walk_options, &walk_tx, &walk_cancel));
        let lister = Lister::new(root, options, snapshot, generation, ui, cancel.clone());
        std::thread::spawn(move || lister.run(rx));
        Reach {
            tx,
            cancel,
            generation,
        }
    }

    /// Answers `query` (the empty query stops answering).
    pub fn query(&self, query: &str) {
        let _ = self.tx.send(Input::Query(query.to_string()));
    }
}

impl Drop for Reach {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

/// Hands every file of the tree to the lister, in batches.
fn walk(root: &Path, options: WalkOptions, tx: &Sender<Input>, cancel: &Cancel) {
    let Ok(walk) = Walk::new(&[root.to_path_buf()], options) else {
        let _ = tx.send(Input::WalkDone);
        return;
    };
    let mut batch = Vec::with_capacity(BATCH);
    for found in walk {
        if cancel.is_cancelled() {
            return;
        }
        if let Found::File { path, .. } = found {
            batch.push(path);
        }
        if batch.len() >= BATCH && tx.send(Input::Found(std::mem::take(&mut batch))).is_err() {
            return;
        }
    }
    let _ = tx.send(Input::Found(batch));
    let _ = tx.send(Input::WalkDone);
}

/// The listing thread's state.
struct Lister {
    root: PathBuf,
    options: WalkOptions,
    snapshot: Option<Arc<Snapshot>>,
    generation: u64,
    ui: Sender<Message>,
    cancel: Cancel,
    /// Every file walked, and every directory above one (below the root).
    files: Vec<PathBuf>,
    dirs: Vec<PathBuf>,
    seen_dirs: HashSet<PathBuf>,
    walked: bool,
    query: String,
    /// How many files and directories were matched against `query`.
    scanned: (usize, usize),
    matches: usize,
    /// Directories to list for `query`, parents first (depth, path).
    waiting: BTreeSet<(usize, PathBuf)>,
    /// Directories sent already (the viewer keeps them).
    listed: HashSet<PathBuf>,
    /// Something was taken that is not answered yet.
    dirty: bool,
}

impl Lister {
    /// A lister that has seen nothing yet: no files walked, no query, nothing sent.
    fn new(
        root: PathBuf,
        options: WalkOptions,
        snapshot: Option<Arc<Snapshot>>,
        generation: u64,
        ui: Sender<Message>,
        cancel: Cancel,
    ) -> Lister {
        Lister {
            root,
            options,
            snapshot,
            generation,
            ui,
            cancel,
            files: Vec::new(),
            dirs: Vec::new(),
            seen_dirs: HashSet::new(),
            walked: false,
            query: String::new(),
            scanned: (0, 0),
            matches: 0,
            waiting: BTreeSet::new(),
            listed: HashSet::new(),
            dirty: false,
        }
    }

    fn run(mut self, rx: Receiver<Input>) {
        loop {
            // Wait only when everything taken is answered.
            if !self.dirty {
                match rx.recv() {
                    Ok(input) => self.take(input),
                    Err(_) => return,
                }
            }
            while let Ok(input) = rx.try_recv() {
                self.take(input);
            }
            if self.cancel.is_cancelled() || self.answer(&rx).is_err() {
                return;
            }
        }
    }

    fn take(&mut self, input: Input) {
        self.dirty = true;
        match input {
            Input::Found(paths) => {
                for path in paths {
                    self.add_dirs_above(&path);
                    self.files.push(path);
                }
            }
            Input::WalkDone => self.walked = true,
            Input::Query(query) if query != self.query => {
                self.query = query;
                self.scanned = (0, 0);
                self.matches = 0;
                self.waiting.clear();
            }
            Input::Query(_) => {}
        }
    }

    fn add_dirs_above(&mut self, path: &Path) {
        let mut at = path.parent();
        while let Some(dir) = at.filter(|d| *d != self.root && d.starts_with(&self.root)) {
            if !self.seen_dirs.insert(dir.to_path_buf()) {
                break;
            }
            self.dirs.push(dir.to_path_buf());
            at = dir.parent();
        }
    }

    /// Matches what was not matched yet against the query and lists the directories the
    /// matches need; stops early when a new query arrives (it is picked up next round).
    fn answer(&mut self, rx: &Receiver<Input>) -> Result<(), mpsc::SendError<Message>> {
        self.dirty = false;
        if self.query.is_empty() {
            return Ok(());
        }
        self.match_new();
        let mut listings = Vec::new();
        let mut last_sent = Instant::now();
        while let Some((_, dir)) = self.waiting.pop_first() {
            if self.listed.insert(dir.clone()) {
                let rows = files::list(&dir, &dir, &self.options, self.snapshot.as_deref());
                listings.push((dir, rows));
            }
            if last_sent.elapsed() >= SEND_EVERY {
                self.send(std::mem::take(&mut listings), &self.query, false)?;
                last_sent = Instant::now();
            }
            match rx.try_recv() {
                Ok(input) => {
                    // A new query ends this answer (the next round answers it: `take` marked
                    // it to be answered); more paths from the walk may need more directories.
                    let query = self.query.clone();
                    self.take(input);
                    if self.query != query {
                        return self.send(listings, &query, false);
                    }
                    self.dirty = false;
                    self.match_new();
                }
                Err(TryRecvError::Empty) => {}
                Err(TryRecvError::Disconnected) => return Ok(()),
            }
        }
        self.send(listings, &self.query, self.walked)
    }

    /// Matches the files and directories walked since the last round.
    fn match_new(&mut self) {
        let (files_done, dirs_done) = self.scanned;
        let mut needed = Vec::new();
        let new_files = &self.files[files_done..];
        for path in new_files.iter().chain(&self.dirs[dirs_done..]) {
            if self.matches >= MAX_MATCHES {
                break;
            }
            // A query with a `/` matches the path below the root (`sub07/mod042`).
            let name = match self.query.contains('/') {
                true => path
                    .strip_prefix(&self.root)
                    .ok()
                    .map(|p| p.to_string_lossy()),
                false => path.file_name().map(|n| n.to_string_lossy()),
            };
            if name.is_some_and(|n| fuzzy_match(&self.query, &n)) {
                self.matches += 1;
                needed.extend(path.parent().map(Path::to_path_buf));
            }
        }
        self.scanned = (self.files.len(), self.dirs.len());
        for dir in needed {
            let mut at = Some(dir.as_path());
            while let Some(dir) = at.filter(|d| *d != self.root && d.starts_with(&self.root)) {
                if self.listed.contains(dir) {
                    break;
                }
                let depth = dir.components().count();
                if !self.waiting.insert((depth, dir.to_path_buf())) {
                    break;
                }
                at = dir.parent();
            }
        }
    }

    /// Sends `listings`, made for `query`; `settled` when that query is answered in full.
    fn send(
        &self,
        listings: Vec<(PathBuf, Vec<DirItem>)>,
        query: &str,
        settled: bool,
    ) -> Result<(), mpsc::SendError<Message>> {
        let reached = Reached {
            generation: self.generation,
            query: query.to_string(),
            listings,
            settled,
            capped: settled && self.matches >= MAX_MATCHES,
        };
        self.ui.send(Message::Reached(reached))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn lister(root: &Path, ui: Sender<Message>) -> Lister {
        let options = WalkOptions {
            any_language: true,
            ..WalkOptions::default()
        };
        Lister::new(root.to_path_buf(), options, None, 1, ui, Cancel::default())
    }

    #[test]
    fn a_query_typed_during_an_answer_is_answered_next() -> std::io::Result<()> {
        let dir = tempfile::tempdir()?;
        let root = dir.path();
        for sub in ["a/one", "a/two", "b/three"] {
            fs::create_dir_all(root.join(sub))?;
            fs::write(root.join(sub).join("other.txt"), "")?;
        }
        fs::write(root.join("b/three/router.txt"), "")?;
        let (ui, from_lister) = mpsc::channel();
        let (tx, rx) = mpsc::channel();
        let mut lister = lister(root, ui);
        let mut paths: Vec<PathBuf> = ["a/one", "a/two", "b/three"]
            .iter()
            .map(|sub| root.join(sub).join("other.txt"))
            .collect();
        paths.push(root.join("b/three/router.txt"));
        lister.take(Input::Found(paths));
        lister.take(Input::WalkDone);
        lister.take(Input::Query("o".into()));
        // Typed while "o" is being answered.
        tx.send(Input::Query("router".into())).ok();
        lister.answer(&rx).ok();
        assert!(lister.dirty, "the new query waits to be answered");
        lister.answer(&rx).ok();
        let answers: Vec<Reached> = from_lister
            .try_iter()
            .filter_map(|m| match m {
                Message::Reached(r) => Some(r),
                _ => None,
            })
            .collect();
        let first = &answers[0];
        assert_eq!((first.query.as_str(), first.settled), ("o", false));
        let last = answers.last().unwrap();
        assert_eq!((last.query.as_str(), last.settled), ("router", true));
        let listed: Vec<PathBuf> = answers
            .iter()
            .flat_map(|r| r.listings.iter().map(|(dir, _)| dir.clone()))
            .collect();
        assert!(listed.contains(&root.join("b/three")), "{listed:?}");
        assert!(!last.capped);
        Ok(())
    }

    #[test]
    fn answers_say_when_they_are_complete() {
        let status = ReachStatus {
            query: "x".into(),
            settled: true,
            capped: false,
        };
        assert!(status.answers("x"));
        assert!(!status.answers("xy"));
        assert!(!ReachStatus::default().answers("x"));
    }
}
