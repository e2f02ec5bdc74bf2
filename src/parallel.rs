//! Work on many files at once, results in the order the files came: a producer (the walk)
//! feeds workers on every core, and the caller's thread receives each result as soon as it and
//! every result before it are done.
//!
//! Memory stays bounded whatever the number of files: at most [`WINDOW`] items are handed out
//! and not yet delivered, so one slow file can hold back at most that many finished results.
//! The consumer can stop the run early (an output cap reached); then no new work starts.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Condvar, Mutex};

/// Items handed out but not yet delivered, at most.
pub(crate) const WINDOW: usize = 256;

/// Runs `work` over `items` on all cores and calls `deliver` with each result in item order,
/// on the calling thread. `deliver` returning `Break` stops the run: items not yet started
/// are never worked on. `items` is pulled on a thread of its own (it may be a walk).
pub(crate) fn ordered<I, T, W, D>(items: I, work: W, mut deliver: D)
where
    I: Iterator + Send,
    I::Item: Send,
    T: Send,
    W: Fn(I::Item) -> T + Sync,
    D: FnMut(T) -> ControlFlow<()>,
{
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    let stop = AtomicBool::new(false);
    let permits = Permits::new(WINDOW);
    let (task_tx, task_rx) = mpsc::sync_channel::<(usize, I::Item)>(workers * 2);
    let task_rx = Mutex::new(task_rx);
    let (done_tx, done_rx) = mpsc::channel::<(usize, T)>();
    std::thread::scope(|scope| {
        let (stop, permits, task_rx, work) = (&stop, &permits, &task_rx, &work);
        scope.spawn(move || {
            for (index, item) in items.enumerate() {
                if !permits.acquire(stop) || task_tx.send((index, item)).is_err() {
                    break;
                }
            }
        });
        for _ in 0..workers {
            let done_tx = done_tx.clone();
            scope.spawn(move || loop {
                let task = task_rx.lock().ok().and_then(|rx| rx.recv().ok());
                let Some((index, item)) = task else { break };
                if stop.load(Ordering::Relaxed) {
                    continue; // drain so the producer is never left blocked
                }
                if done_tx.send((index, work(item))).is_err() {
                    break;
                }
            });
        }
        drop(done_tx);
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        for (index, result) in done_rx.iter() {
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&next) {
                next += 1;
                permits.release();
                if !stop.load(Ordering::Relaxed) && deliver(result).is_break() {
                    stop.store(true, Ordering::Relaxed);
                    permits.wake_all();
                }
            }
            if stop.load(Ordering::Relaxed) {
                waiting.clear();
            }
        }
    });
}

/// A counting semaphore: the producer takes one per item, the consumer gives one back per
/// delivered result.
struct Permits {
    free: Mutex<usize>,
    changed: Condvar,
}

impl Permits {
    fn new(count: usize) -> Permits {
        Permits {
            free: Mutex::new(count),
            changed: Condvar::new(),
        }
    }

    /// Waits for a permit; `false` when the run was stopped meanwhile.
    fn acquire(&self, stop: &AtomicBool) -> bool {
        let Ok(mut free) = self.free.lock() else {
            return false;
        };
        while *free == 0 && !stop.load(Ordering::Relaxed) {
            free = match self.changed.wait(free) {
                Ok(free) => free,
                Err(_) => return false,
            };
        }
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        *free -= 1;
        true
    }

    fn release(&self) {
        if let Ok(mut free) = self.free.lock() {
            *free += 1;
        }
        self.changed.notify_one();
    }

    fn wake_all(&self) {
        // Take the lock so a producer between its check and its wait cannot miss the wake-up.
        drop(self.free.lock());
        self.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_arrive_in_item_order() {
        let mut seen = Vec::new();
        ordered(
            0..2000u64,
            |n| {
                // Uneven work so that workers finish out of order.
                if n % 7 == 0 {
                    std::thread::yield_now();
                }
                n * 2
            },
            |doubled| {
                seen.push(doubled);
                ControlFlow::Continue(())
            },
        );
        assert_eq!(seen, (0..2000u64).map(|n| n * 2).collect::<Vec<_>>());
    }

    #[test]
    fn a_break_stops_new_work() {
        let started = std::sync::atomic::AtomicUsize::new(0);
        let mut delivered = 0;
        ordered(
            0..1_000_000u32,
            |n| {
                started.fetch_add(1, Ordering::Relaxed);
                n
            },
            |_| {
                delivered += 1;
                if delivered == 10 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
        assert_eq!(delivered, 10);
        // Only the window (plus what was queued) can have started after the break.
        assert!(started.load(Ordering::Relaxed) <= 10 + WINDOW + 64);
    }

    #[test]
    fn no_items_is_fine() {
        let mut calls = 0;
        ordered(
            std::iter::empty::<u8>(),
            |n| n,
            |_| {
                calls += 1;
                ControlFlow::Continue(())
            },
        );
        assert_eq!(calls, 0);
    }
}
