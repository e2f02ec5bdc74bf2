//! The open file's life in the viewer: its first screen read at once, the whole of it read
//! and outlined on a loader lane, shown (keeping folds and selection when it is read again),
//! its definitions handed to the symbol index, and a picker jump checked against it.
//!
//! Each lane is one thread that reads the latest file asked of it: a request not started
//! when a newer one arrives is dropped, so moving past many files reads only the one the
//! cursor stops on, and no key waits on a read.

use super::app::{outline_item, App, Loader, Preview, HEAD_BYTES};
use super::doc::{Doc, LoadOptions, ReadDoc};
use super::jobs::Message;
use super::tree::Tree;
use crate::git;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;

/// The loader lanes: the open file, and the file a finder view previews.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    Open = 0,
    Peek = 1,
}

/// One file to read on a lane, and where its result goes.
pub struct LoadRequest {
    job: u64,
    path: PathBuf,
    options: LoadOptions,
    snapshot: Option<Arc<git::Snapshot>>,
    loader: Loader,
    wrap: fn(u64, Box<ReadDoc>) -> Message,
    tx: Sender<Message>,
}

/// A lane's thread: reads the newest request waiting, drops the older ones; ends when the
/// viewer is gone.
fn run_lane(requests: Receiver<LoadRequest>) {
    while let Ok(mut request) = requests.recv() {
        while let Ok(newer) = requests.try_recv() {
            request = newer;
        }
        let LoadRequest {
            job,
            path,
            options,
            snapshot,
            loader,
            wrap,
            tx,
        } = request;
        let doc = loader(&path, options, snapshot.as_deref());
        if tx.send(wrap(job, Box::new(doc))).is_err() {
            return;
        }
    }
}

impl App {
    pub(crate) fn load_options(&self) -> LoadOptions {
        LoadOptions {
            language: self.language,
            tokens: self.options.tokens.then_some(self.tokenizer),
            diff: true,
            root: self.confine.clone(),
        }
    }

    /// Opens `path` in the outline and preview panes and selects it in the directory pane.
    /// Only its first screen is read here; the whole file is read and outlined on a thread
    /// ([`Message::Loaded`]), so no key waits on a file, however large.
    pub fn open(&mut self, path: &Path) {
        self.reveal(path);
        self.set_doc(Doc::head(
            path,
            HEAD_BYTES,
            self.confine.as_deref(),
            &self.theme,
        ));
        self.load_in_background(path);
    }

    /// Reads and outlines `path` on a thread; the result arrives as [`Message::Loaded`].
    fn load_in_background(&mut self, path: &Path) {
        let job = self.spawn_load(path, Lane::Open, |job, doc| Message::Loaded { job, doc });
        self.loading = Some(job);
    }

    /// Loads `path` on `lane` with the viewer's loader and options; `wrap` makes the message
    /// the result arrives in. Returns the job number.
    pub(crate) fn spawn_load(
        &mut self,
        path: &Path,
        lane: Lane,
        wrap: fn(u64, Box<ReadDoc>) -> Message,
    ) -> u64 {
        let job = self.jobs.next_id();
        let mut request = LoadRequest {
            job,
            path: path.to_path_buf(),
            options: self.load_options(),
            snapshot: self.snapshot.clone(),
            loader: self.loader,
            wrap,
            tx: self.jobs.tx.clone(),
        };
        // A lane whose thread is gone (it never is, short of a panic) is started again.
        for _ in 0..2 {
            let sender = match self.lanes[lane as usize].take() {
                Some(sender) => sender,
                None => {
                    let (sender, receiver) = std::sync::mpsc::channel();
                    self.background(move || run_lane(receiver));
                    sender
                }
            };
            match sender.send(request) {
                Ok(()) => {
                    self.lanes[lane as usize] = Some(sender);
                    break;
                }
                Err(std::sync::mpsc::SendError(back)) => request = back,
            }
        }
        job
    }

    /// Shows `doc`, rebuilding the outline tree (all levels open).
    pub fn set_doc(&mut self, doc: Doc) {
        self.refresh_index(&doc);
        let rows = doc
            .entries()
            .into_iter()
            .map(|(depth, e)| (depth, outline_item(e)))
            .collect();
        self.outline = Tree::new(rows, usize::MAX);
        self.outline_from = None;
        self.doc = Some(doc);
        self.preview = Preview::default();
    }

    /// Re-reads the open file on a thread; the version shown stays until the new one
    /// arrives, which keeps the folds, the selected symbol and the preview's place.
    pub fn reload_doc(&mut self) {
        let Some(path) = self
            .doc
            .as_ref()
            .filter(|d| !d.standin)
            .map(|d| d.path.clone())
        else {
            return;
        };
        self.load_in_background(&path);
    }

    /// Tells the symbol index the definitions of a file just read in full, so that the
    /// picker never offers a definition where a newer version of the file no longer has it.
    pub(crate) fn refresh_index(&self, doc: &Doc) {
        let Some(index) = &self.symbols else {
            return;
        };
        match &doc.outline {
            _ if doc.loading || doc.standin => {}
            Some(outline) if doc.error.is_none() && doc.extent.complete => {
                index.refresh(crate::search::definitions_of(doc.path.clone(), outline));
            }
            // Gone, or no longer outlined: the picker offers none of its old definitions.
            None if doc.error.is_some() => index.remove(&doc.path),
            _ => {}
        }
    }

    /// Shows a new version of the open file: entries that still exist keep their folds, the
    /// selected entry stays selected (by qualified name), the preview stays where it was.
    pub(crate) fn swap_doc(&mut self, doc: Doc) {
        let keep = self.outline.selected().map(|n| n.item.qualname.clone());
        let restore = keep.clone();
        let folded: std::collections::HashSet<String> = self
            .outline
            .nodes()
            .iter()
            .filter(|n| n.has_children && !n.expanded)
            .map(|n| n.item.qualname.clone())
            .collect();
        let query = self.outline.filter_query().map(String::from);
        let preview = self.preview;
        self.set_doc(doc);
        self.outline
            .fold_where(|item| folded.contains(&item.qualname));
        if let Some(name) = restore {
            let found = self
                .outline
                .nodes()
                .iter()
                .position(|n| n.item.qualname == name);
            if let Some(index) = found {
                self.outline.select(index);
            }
        }
        if let Some(query) = query {
            self.outline.set_filter(&query);
        }
        self.preview = preview;
        if keep.is_none() {
            // The first full read of a file opened with its first screen: the outline
            // follows the preview's place (a jump's target).
            self.clamp_preview();
            self.follow_cursor();
            self.center_selection();
        }
    }
}
