//! Work the viewer hands to background threads: text and reference searches through the one
//! [`crate::search`] engine, the symbol index ([`super::rank`]), large files and the syntax
//! assets. Every result comes back as a [`Message`] on one channel, the same one the terminal's
//! input arrives on ([`Message::Input`]): the event loop sleeps on it until something happens,
//! and no keypress waits on a scan.

use super::app::App;
use super::doc::ReadDoc;
use super::rank::Ranking;
use crate::search::{self, FileHits, RefQuery, Scope, Summary, TextSearch};
use regex::Regex;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;

/// What a background thread reports.
pub enum Message {
    /// The symbol picker's ranking changed: a new query, or more definitions indexed.
    Ranked(Ranking),
    /// One file's hits of search `job`, in path order.
    Hits { job: u64, file: FileHits },
    /// Search `job` ended: what it met, or why it could not run.
    SearchDone {
        job: u64,
        result: Result<Summary, String>,
    },
    /// A file opened with only its first screen read is now read in full.
    Loaded { job: u64, doc: Box<ReadDoc> },
    /// The same for the file a finder view previews.
    Peeked { job: u64, doc: Box<ReadDoc> },
    /// The syntax assets are loaded: the preview can be coloured.
    AssetsReady,
    /// Git status of the root's repository (`None`: not in a repository, or unreadable).
    Git(Option<std::sync::Arc<crate::git::Snapshot>>),
    /// Directories listed for the directory filter ([`super::reach`]).
    Reached(super::reach::Reached),
    /// A terminal event (a key, the mouse, a resize), or why the terminal could not be read.
    Input(std::io::Result<ratatui::crossterm::event::Event>),
    /// Paths changed on disk ([`super::watch`]).
    Changed(Vec<std::path::PathBuf>),
    /// The watcher stopped: why.
    WatchFailed(String),
}

/// The channel every background thread reports on, and the counter that names jobs so that
/// results of a job replaced since are dropped.
pub struct Jobs {
    pub tx: Sender<Message>,
    rx: Receiver<Message>,
    next: u64,
}

impl Default for Jobs {
    fn default() -> Self {
        let (tx, rx) = mpsc::channel();
        Jobs { tx, rx, next: 0 }
    }
}

impl Jobs {
    /// A fresh job number.
    pub fn next_id(&mut self) -> u64 {
        self.next += 1;
        self.next
    }

    /// The next message waiting, if any (never blocks).
    pub fn try_recv(&self) -> Option<Message> {
        self.rx.try_recv().ok()
    }

    /// Waits up to `timeout` for a message (tests and benchmarks wait for a scan this way).
    pub fn recv_timeout(&self, timeout: std::time::Duration) -> Option<Message> {
        self.rx.recv_timeout(timeout).ok()
    }
}

/// A flag that asks a background job to stop; the job checks it between files.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// What a text search looks for.
#[derive(Debug, Clone)]
pub enum Needle {
    /// A regex over every text file (`F`, `g/`).
    Text(Regex),
    /// The uses of a name in code (`gr`).
    References(RefQuery),
}

/// Runs a search on a thread of its own; each file with hits, then the end, arrive as
/// messages tagged `job`. Setting `cancel` stops it before the next file is delivered.
pub fn spawn_search(scope: Scope, needle: Needle, job: u64, tx: Sender<Message>, cancel: Cancel) {
    std::thread::spawn(move || {
        let options = TextSearch::default();
        let deliver = |file: FileHits| {
            if file.groups.is_empty() {
                return ControlFlow::Continue(()); // only locals named as asked
            }
            if cancel.is_cancelled() || tx.send(Message::Hits { job, file }).is_err() {
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        };
        let result = match &needle {
            Needle::Text(regex) => search::grep(&scope, regex, options, deliver),
            Needle::References(query) => search::refs(&scope, query, options, deliver),
        };
        let result = result.map_err(|err| err.to_string());
        let _ = tx.send(Message::SearchDone { job, result });
    });
}

impl App {
    /// Whether background work is under way whose results the screen is waiting for (tests
    /// wait on it; the event loop sleeps on the channel instead).
    #[cfg(test)]
    pub fn busy(&self) -> bool {
        let ranking = &self.picker.ranking;
        let indexing = self.symbols.as_ref().is_some_and(|index| {
            ranking.generation != index.generation
                || !ranking.done
                || ranking.query != self.picker.query
        });
        let reaching = self.reach.is_some()
            && self
                .dir
                .filter_query()
                .is_some_and(|query| !self.reached.answers(query));
        indexing
            || reaching
            || self.colouring
            || self.results.running
            || self.results.due.is_some()
            || self.loading.is_some()
            || self.peek_loading.is_some()
            || self.assets_pending
            || self.git_pending
    }

    /// Applies every message background work has sent; returns whether anything changed.
    pub fn pump(&mut self) -> bool {
        let mut received = false;
        while let Some(message) = self.jobs.try_recv() {
            self.receive(message);
            received = true;
        }
        self.after_messages(received)
    }

    /// What follows a batch of messages (`received`: there were some): a search whose typing
    /// pause ended starts, and a new ranking's selection is previewed. Returns whether the
    /// screen changed.
    pub fn after_messages(&mut self, received: bool) -> bool {
        let changed = super::finder::start_due_search(self) || received;
        if changed {
            super::finder::peek_selected(self);
            self.sync();
        }
        changed
    }

    /// Waits until no background work is under way, up to `timeout`, applying messages as
    /// they come (tests; the event loop never waits). Returns whether it settled.
    #[cfg(test)]
    pub fn settle(&mut self, timeout: std::time::Duration) -> bool {
        use std::time::{Duration, Instant};
        let start = Instant::now();
        loop {
            super::finder::start_due_search(self);
            // A new ranking may select another file to preview, which starts its load.
            super::finder::peek_selected(self);
            if self.colouring {
                self.sync();
            }
            if !self.busy() {
                break;
            }
            let left = timeout.saturating_sub(start.elapsed());
            if left.is_zero() {
                return false;
            }
            if self.colouring {
                // Colours go on without sleeping, but results still arrive: a preview whose
                // lines are not loaded yet stays uncoloured until its load is received.
                if let Some(message) = self.jobs.recv_timeout(Duration::ZERO) {
                    self.receive(message);
                }
                continue;
            }
            // A search waiting for typing to pause starts when its time comes.
            let wait = self.results.due.map_or(left, |due| {
                due.saturating_duration_since(Instant::now())
                    .min(left)
                    .max(Duration::from_millis(1))
            });
            if let Some(message) = self.jobs.recv_timeout(wait) {
                self.receive(message);
            }
        }
        self.sync();
        true
    }

    /// Applies one message from background work; results of replaced jobs are dropped.
    pub fn receive(&mut self, message: Message) {
        match message {
            // The event loop takes input off the channel itself (a key becomes an action).
            Message::Input(_) => {}
            Message::Changed(paths) => self.changed(paths),
            Message::WatchFailed(why) => {
                self.message = Some(format!("{why}: polling the open file"));
            }
            Message::Ranked(ranking) => {
                let current = self.symbols.as_ref().map(|s| s.generation);
                if current == Some(ranking.generation) {
                    self.picker.accept(ranking);
                }
            }
            Message::Hits { job, file } => {
                if job == self.results.job && self.results.running {
                    if !self.results.add(file) {
                        self.stop_search();
                    }
                    if self.results.jump_when_found {
                        super::finder::jump_to_first_found(self);
                    }
                }
            }
            Message::SearchDone { job, result } => {
                if job == self.results.job {
                    self.results.running = false;
                    let results = &mut self.results;
                    match result {
                        Err(err) => results.note = Some(err),
                        Ok(summary) if results.note.is_none() && !summary.unreadable.is_empty() => {
                            results.note = Some(format!(
                                "{} entries could not be read",
                                summary.unreadable.len()
                            ));
                        }
                        Ok(summary) if results.note.is_none() && !summary.partial.is_empty() => {
                            results.note = Some(format!(
                                "{} searched only in part (past a read limit)",
                                match summary.partial.len() {
                                    1 => "1 file".to_string(),
                                    n => format!("{n} files"),
                                }
                            ));
                        }
                        Ok(_) => {}
                    }
                }
            }
            Message::Loaded { job, doc } => {
                let current = self.doc.as_ref().map(|d| d.path.as_path());
                if self.loading == Some(job) && current == Some(doc.path.as_path()) {
                    self.loading = None;
                    self.swap_doc(doc.highlighted(&self.theme));
                    self.check_expected();
                }
            }
            Message::Peeked { job, doc } => {
                if self.peek_loading == Some(job) {
                    self.peek_loading = None;
                    let doc = doc.highlighted(&self.theme);
                    self.refresh_index(&doc);
                    if let Some(peek) = self.peek.as_mut().filter(|p| p.doc.path == doc.path) {
                        peek.doc = doc;
                    }
                }
            }
            Message::AssetsReady => self.assets_pending = false,
            Message::Git(snapshot) => {
                self.git_pending = false;
                let had = self.snapshot.is_some();
                self.snapshot = snapshot;
                self.mark_changes();
                // The open file's diff markers need the status; without one before or now,
                // there is nothing to redo.
                if had || self.snapshot.is_some() {
                    self.reload_doc();
                }
            }
            Message::Reached(reached) => self.graft_reached(reached),
        }
    }

    /// Stops the running text or references search, keeping what it found.
    pub fn stop_search(&mut self) {
        if let Some(cancel) = self.search_cancel.take() {
            cancel.cancel();
        }
        self.results.running = false;
    }
}
