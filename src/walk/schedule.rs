//! Directories listed on every core, handed out in path order. Each directory is a job: open,
//! list, read its ignore files, filter and sort its names ([`super::enter`]). Its files and
//! its subdirectories (new jobs) form its listing, in name order. The walk's reader takes
//! listings depth first, so files come out in exactly the order of a sequential walk, while
//! workers list the directories it will need next: jobs are started nearest first (the
//! position of a directory in the walk is the list of its name indices, which order like
//! the walk), and at most [`AHEAD`] listings wait unread, so memory and open handles stay
//! bounded whatever the tree. A reader that needs a listing no worker has started lists it
//! itself, so the walk never waits on a full queue, and still works without threads.

use super::{enter, Context, Item, Place};
use std::collections::{BinaryHeap, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// Listings done or being made by workers and not yet read, at most.
const AHEAD: usize = 128;

/// One directory to list.
pub(super) struct Job {
    /// Its position in the walk: the index of each name on the way down.
    pub key: Vec<u32>,
    pub id: u64,
    pub place: Place,
    pub path: PathBuf,
    pub rules: Arc<super::rules::Rules>,
}

impl PartialEq for Job {
    fn eq(&self, other: &Job) -> bool {
        self.key == other.key
    }
}
impl Eq for Job {}
impl PartialOrd for Job {
    fn partial_cmp(&self, other: &Job) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Job {
    /// Reversed, so the heap's top is the job first in walk order.
    fn cmp(&self, other: &Job) -> std::cmp::Ordering {
        other.key.cmp(&self.key)
    }
}

#[derive(Default)]
struct State {
    queue: BinaryHeap<Job>,
    finished: HashMap<u64, Vec<Item>>,
    /// Listings finished or in the making by workers, not yet taken by the reader.
    ahead: usize,
    busy: usize,
    /// Workers waiting for work, and whether the reader waits for a listing: a wake-up is a
    /// system call even with nobody waiting, so only those who wait are woken.
    idle: usize,
    reader_waiting: bool,
    stopped: bool,
}

impl State {
    /// Wakes as many idle workers as there are jobs for them.
    fn wake_workers(&self, work: &Condvar, jobs: usize) {
        match jobs.min(self.idle) {
            0 => {}
            1 => work.notify_one(),
            _ => work.notify_all(),
        }
    }
}

pub(super) struct Shared {
    context: Context,
    state: Mutex<State>,
    /// A job was queued, a listing taken, or the walk stopped.
    work: Condvar,
    /// A listing finished.
    done: Condvar,
    ids: AtomicU64,
}

/// The directory jobs of one walk and the threads that run them.
pub(super) struct Pool {
    shared: Arc<Shared>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Pool {
    pub fn new(context: Context) -> Pool {
        Pool {
            shared: Arc::new(Shared {
                context,
                state: Mutex::default(),
                work: Condvar::new(),
                done: Condvar::new(),
                ids: AtomicU64::new(0),
            }),
            threads: Vec::new(),
        }
    }

    pub fn context(&self) -> &Context {
        &self.shared.context
    }

    pub fn next_id(&self) -> u64 {
        self.shared.ids.fetch_add(1, Ordering::Relaxed)
    }

    /// Queues the walked directories and starts the workers (none when there is nothing to
    /// list; fewer, or none, when threads cannot be had: the reader lists what it needs).
    pub fn start(&mut self, jobs: Vec<Job>) {
        if jobs.is_empty() {
            return;
        }
        lock(&self.shared).queue.extend(jobs);
        let workers = std::thread::available_parallelism().map_or(1, usize::from);
        for _ in 0..workers {
            let shared = Arc::clone(&self.shared);
            let spawned = std::thread::Builder::new()
                .name("outline-walk".into())
                .spawn(move || work(&shared));
            match spawned {
                Ok(thread) => self.threads.push(thread),
                Err(_) => break,
            }
        }
    }

    /// The listing of directory `id`, once made (by a worker, or here).
    pub fn listing(&self, id: u64) -> Vec<Item> {
        let shared = &*self.shared;
        let mut state = lock(shared);
        loop {
            if let Some(items) = state.finished.remove(&id) {
                state.ahead -= 1;
                // A worker may wait for this free place (and there is a job for it).
                if state.ahead + 1 == AHEAD {
                    state.wake_workers(&shared.work, state.queue.len().min(1));
                }
                return items;
            }
            // Not started by a worker: the job first in walk order is this one (every
            // directory before it was read already), so list it here.
            if state.queue.peek().is_some_and(|job| job.id == id) {
                if let Some(job) = state.queue.pop() {
                    state.busy += 1;
                    drop(state);
                    let (items, children) = enter(&shared.context, job, || self.next_id());
                    state = lock(shared);
                    state.busy -= 1;
                    let queued = children.len();
                    state.queue.extend(children);
                    state.wake_workers(&shared.work, queued);
                    return items;
                }
            }
            state.reader_waiting = true;
            state = match shared.done.wait(state) {
                Ok(state) => state,
                Err(_) => return Vec::new(),
            };
            state.reader_waiting = false;
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        lock(&self.shared).stopped = true;
        self.shared.work.notify_all();
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

fn lock(shared: &Shared) -> MutexGuard<'_, State> {
    shared
        .state
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A worker: lists the directory first in walk order while fewer than [`AHEAD`] listings
/// wait, until the walk is stopped or nothing is left to list.
fn work(shared: &Shared) {
    let mut state = lock(shared);
    loop {
        if state.stopped {
            return;
        }
        if state.ahead < AHEAD {
            if let Some(job) = state.queue.pop() {
                state.ahead += 1;
                state.busy += 1;
                drop(state);
                let id = job.id;
                let (items, children) = enter(&shared.context, job, || {
                    shared.ids.fetch_add(1, Ordering::Relaxed)
                });
                state = lock(shared);
                state.busy -= 1;
                state.finished.insert(id, items);
                let queued = children.len();
                state.queue.extend(children);
                if state.reader_waiting {
                    shared.done.notify_one();
                }
                state.wake_workers(&shared.work, queued);
                continue;
            }
        }
        if state.queue.is_empty() && state.busy == 0 {
            // Nothing queued and nothing being listed: no job can come any more.
            if state.idle > 0 {
                shared.work.notify_all();
            }
            return;
        }
        state.idle += 1;
        state = match shared.work.wait(state) {
            Ok(state) => state,
            Err(_) => return,
        };
        state.idle -= 1;
    }
}
