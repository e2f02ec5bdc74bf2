//! Token counts of pieces seen before. Code repeats its words, so nearly every piece of a file
//! was counted earlier in it or in a file before it: a per-thread memo answers those, and a
//! memo shared by the threads of a directory run keeps each distinct piece that is not a token
//! from being merged once per thread (merging costs about a microsecond, a lock tens of
//! nanoseconds).

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{LazyLock, Mutex, PoisonError};

use rustc_hash::{FxBuildHasher, FxHashMap};

/// Pieces each map remembers before it starts over (bounds its memory).
const LIMIT: usize = 200_000;

/// One thread's memo for one encoding. FxHash: the keys are short and ours.
#[derive(Default)]
pub(super) struct Memo {
    /// Pieces of 2 to 7 bytes, keyed by their bytes and length packed into a u64: hashing and
    /// comparing one word is cheaper than looking a piece up in the vocabulary, and the small
    /// entries keep the hot part of the map in cache.
    small: FxHashMap<u64, u32>,
    /// Pieces of 8 to 15 bytes, packed the same way into a u128.
    medium: FxHashMap<u128, u32>,
    /// Longer pieces that are not a token themselves.
    long: FxHashMap<Box<str>, u32>,
}

thread_local! {
    /// One memo per encoding (o200k, cl100k).
    static MEMOS: std::cell::RefCell<[Memo; 2]> = Default::default();
}

/// Runs `work` with this thread's memo for encoding `slot`, borrowed once for a whole text.
pub(super) fn with_memo<R>(slot: usize, work: impl FnOnce(&mut Memo) -> R) -> R {
    MEMOS.with(|memos| match memos.try_borrow_mut() {
        Ok(mut memos) => work(&mut memos[slot]),
        // Only reachable by re-entrance, which nothing here does: count without the memo.
        Err(_) => work(&mut Memo::default()),
    })
}

/// The bytes of a piece of at most 15 bytes, first byte lowest.
fn pack(bytes: &[u8]) -> u128 {
    bytes
        .iter()
        .rev()
        .fold(0, |key, byte| key << 8 | u128::from(*byte))
}

impl Memo {
    /// The count of a piece of 2 to 15 bytes: remembered, or `count` of it, remembered.
    pub(super) fn short(&mut self, bytes: &[u8], count: impl FnOnce(&[u8]) -> usize) -> usize {
        if bytes.len() <= 7 {
            let key = pack(bytes) as u64 | (bytes.len() as u64) << 56;
            remembered(&mut self.small, key, || count(bytes))
        } else {
            let key = pack(bytes) | (bytes.len() as u128) << 120;
            remembered(&mut self.medium, key, || count(bytes))
        }
    }

    /// The count of a longer piece that is not a token: remembered, or `count` of it.
    pub(super) fn long(&mut self, piece: &str, count: impl FnOnce(&[u8]) -> usize) -> usize {
        if let Some(count) = self.long.get(piece) {
            return *count as usize;
        }
        let count = count(piece.as_bytes());
        insert(&mut self.long, Box::from(piece), count);
        count
    }
}

fn remembered<K: Hash + Eq>(
    map: &mut FxHashMap<K, u32>,
    key: K,
    count: impl FnOnce() -> usize,
) -> usize {
    if let Some(count) = map.get(&key) {
        return *count as usize;
    }
    let count = count();
    insert(map, key, count);
    count
}

fn insert<K: Hash + Eq>(map: &mut FxHashMap<K, u32>, key: K, count: usize) {
    if map.len() >= LIMIT {
        map.clear();
    }
    map.insert(key, u32::try_from(count).unwrap_or(u32::MAX));
}

type Shared = Mutex<FxHashMap<Box<[u8]>, u32>>;

/// Merged counts of pieces that are not tokens, per encoding, shared by every thread.
static MERGED: [LazyLock<Shared>; 2] = [
    LazyLock::new(|| Mutex::new(HashMap::with_hasher(FxBuildHasher))),
    LazyLock::new(|| Mutex::new(HashMap::with_hasher(FxBuildHasher))),
];

/// The merged count of `bytes` (not a token) in encoding `slot`: from the shared memo, or
/// `merge` of it (outside the lock: merging is the slow part), remembered for every thread.
pub(super) fn merged(slot: usize, bytes: &[u8], merge: impl FnOnce(&[u8]) -> usize) -> usize {
    let shared = &MERGED[slot];
    // A thread that panicked holding the lock left a map that is whole: keep using it.
    let lock = || shared.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(count) = lock().get(bytes) {
        return *count as usize;
    }
    let count = merge(bytes);
    insert(&mut lock(), Box::from(bytes), count);
    count
}
