//! The bound on files queued between the picker's scan and its ranking thread.

use super::super::jobs::Cancel;
use std::sync::{Condvar, Mutex, PoisonError};
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
