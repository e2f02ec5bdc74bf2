//! What passes between the picker's scan and its ranking thread: a bound on the files queued,
//! and the thread that frees them once indexed.

use super::super::jobs::Cancel;
use crate::search::FileDefinitions;
use std::sync::mpsc::{self, Sender};
use std::sync::{Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

/// Files the scan has sent and the ranker not yet taken. The scan waits while there are
/// [`BACKLOG`]: parsing can outrun indexing, and what waits would otherwise have no bound
/// but the tree.
#[derive(Default)]
pub(super) struct Backlog {
    queued: Mutex<usize>,
    taken: Condvar,
}

/// The most files queued between the scan and the ranker.
const BACKLOG: usize = 64;

impl Backlog {
    /// Waits until fewer than [`BACKLOG`] files are queued (or the scan is cancelled), then
    /// counts one more.
    pub fn wait_for_room(&self, cancel: &Cancel) {
        let mut queued = self.queued.lock().unwrap_or_else(PoisonError::into_inner);
        while *queued >= BACKLOG && !cancel.is_cancelled() {
            // A timeout, so that a cancelled scan is seen even with no ranker taking files.
            queued = (self.taken.wait_timeout(queued, Duration::from_millis(50)))
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        *queued += 1;
    }

    pub fn took_one(&self) {
        let mut queued = self.queued.lock().unwrap_or_else(PoisonError::into_inner);
        *queued = queued.saturating_sub(1);
        self.taken.notify_one();
    }
}

/// Frees, on a thread of its own, the definitions the parse threads made once the index has
/// copied them. Freed on the ranking thread, glibc would hand their chunks to its next small
/// allocations, and the index would keep memory in the parse threads' malloc arenas.
///
/// It ends with each scan: glibc gives a thread's cache of the chunks it freed back to their
/// arenas only when the thread exits, and until then those chunks keep the parse threads'
/// arenas from returning their memory (moby: 20-50 MB more resident).
pub(super) struct Freer {
    spent: Sender<FileDefinitions>,
    thread: JoinHandle<()>,
}

impl Freer {
    pub fn start() -> Freer {
        let (spent, freeing) = mpsc::channel::<FileDefinitions>();
        let thread = std::thread::spawn(move || freeing.into_iter().for_each(drop));
        Freer { spent, thread }
    }

    pub fn free(&self, file: FileDefinitions) {
        // The thread is gone only if it panicked: then the file is freed here.
        if let Err(mpsc::SendError(file)) = self.spent.send(file) {
            drop(file);
        }
    }

    /// Returns once everything sent has been freed and the thread has ended.
    pub fn stop(self) {
        drop(self.spent);
        let _ = self.thread.join();
    }
}
