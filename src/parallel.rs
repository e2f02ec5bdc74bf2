//! Work on many files at once, results in the order the files came: a producer (the walk)
//! feeds workers on every core, and the caller's thread receives each result as soon as it and
//! every result before it are done.
//!
//! Memory stays bounded whatever the number of files: at most a window of items (128 per
//! worker thread) are handed out and not yet delivered, so one slow file can hold back at most
//! that many finished results.
//! The consumer can stop the run early (an output cap reached); then no new work starts.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Condvar, Mutex};

/// Items handed out but not yet delivered, at most, per worker thread. Results are delivered
/// in order, so a slow file holds back every chunk handed out after it: with a fixed window of
/// 256 items (16 chunks), 16 workers each held one chunk and all but one waited whenever a
/// large file came up, and the full outline of a 534 MB tree took as long on 16 cores as on 8.
const WINDOW_PER_WORKER: usize = 8 * CHUNK;

/// Items handed out but not yet delivered, at most, for `workers` threads.
fn window(workers: usize) -> usize {
    WINDOW_PER_WORKER * workers.max(2)
}

/// Items in one hand-out, at most. Handing out files one at a time made every file cost two
/// thread wake-ups (a worker for the task, the caller for the result): a third of the run on
/// a large tree went to futex calls and context switches. The first chunks are smaller so the
/// first results still arrive after one file.
const CHUNK: usize = 16;

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
    let permits = Permits::new(window(workers));
    // A chunk is known by its position in the sequence of chunks.
    let (task_tx, task_rx) = mpsc::sync_channel::<(usize, Vec<I::Item>)>(workers * 2);
    let task_rx = Mutex::new(task_rx);
    let (done_tx, done_rx) = mpsc::channel::<(usize, Vec<T>)>();
    std::thread::scope(|scope| {
        let (stop, permits, task_rx, work) = (&stop, &permits, &task_rx, &work);
        scope.spawn(move || hand_out(items, permits, stop, &task_tx));
        for _ in 0..workers {
            let done_tx = done_tx.clone();
            scope.spawn(move || loop {
                let task = task_rx.lock().ok().and_then(|rx| rx.recv().ok());
                let Some((chunk_index, chunk)) = task else {
                    break;
                };
                let mut results = Vec::with_capacity(chunk.len());
                for item in chunk {
                    if stop.load(Ordering::Relaxed) {
                        break; // the rest is dropped; the producer is never left blocked
                    }
                    results.push(work(item));
                }
                if done_tx.send((chunk_index, results)).is_err() {
                    break;
                }
            });
        }
        drop(done_tx);
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        for (chunk_index, results) in done_rx.iter() {
            waiting.insert(chunk_index, results);
            while let Some(results) = waiting.remove(&next) {
                next += 1;
                let count = results.len();
                for result in results {
                    if !stop.load(Ordering::Relaxed) && deliver(result).is_break() {
                        stop.store(true, Ordering::Relaxed);
                        permits.wake_all();
                    }
                }
                permits.release(count);
            }
            if stop.load(Ordering::Relaxed) {
                waiting.clear();
            }
        }
    });
}

/// Pulls `items` and sends them in chunks (1, 2, 4, … up to [`CHUNK`] items), each once
/// permits for all its items are taken, until the items end or the run is stopped.
fn hand_out<I: Iterator>(
    mut items: I,
    permits: &Permits,
    stop: &AtomicBool,
    tasks: &mpsc::SyncSender<(usize, Vec<I::Item>)>,
) {
    let mut size = 1;
    for chunk_index in 0.. {
        if !permits.acquire(size, stop) {
            return;
        }
        let chunk: Vec<I::Item> = items.by_ref().take(size).collect();
        if chunk.len() < size {
            permits.release(size - chunk.len());
        }
        if chunk.is_empty() || tasks.send((chunk_index, chunk)).is_err() {
            return;
        }
        size = (size * 2).min(CHUNK);
    }
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

    /// Waits for `count` permits (at most the total); `false` when the run was stopped
    /// meanwhile.
    fn acquire(&self, count: usize, stop: &AtomicBool) -> bool {
        let Ok(mut free) = self.free.lock() else {
            return false;
        };
        while *free < count && !stop.load(Ordering::Relaxed) {
            free = match self.changed.wait(free) {
                Ok(free) => free,
                Err(_) => return false,
            };
        }
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        *free -= count;
        true
    }

    fn release(&self, count: usize) {
        if let Ok(mut free) = self.free.lock() {
            *free += count;
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
        let workers = std::thread::available_parallelism().map_or(1, usize::from);
        assert!(started.load(Ordering::Relaxed) <= 10 + window(workers) + 64);
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
