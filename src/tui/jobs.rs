//! Work the viewer hands to background threads: text and reference searches through the one
//! [`crate::search`] engine, the symbol index ([`super::rank`]), large files and the syntax
//! assets. Every result comes back as a [`Message`] on one channel that the event loop drains
//! between keys ([`super::app::App::pump`]), so no keypress waits on a scan.

use super::doc::Doc;
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
    Loaded { job: u64, doc: Box<Doc> },
    /// The same for the file a finder view previews.
    Peeked { job: u64, doc: Box<Doc> },
    /// The syntax assets are loaded: the preview can be coloured.
    AssetsReady,
    /// Git status of the root's repository (`None`: not in a repository, or unreadable).
    Git(Option<std::sync::Arc<crate::git::Snapshot>>),
    /// Directories listed for the directory filter ([`super::reach`]).
    Reached(super::reach::Reached),
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
