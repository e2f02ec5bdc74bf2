//! Token counts of pieces seen before. Code repeats its words, so nearly every piece of a file
//! was counted earlier in it or in a file before it: a per-thread memo answers those, and a
//! memo shared by the threads of a directory run keeps each distinct long piece that is not a
//! token from being merged once per thread (merging costs about a microsecond, a lock tens of
//! nanoseconds).
//!
//! Short pieces (up to 15 bytes: nearly all) live in direct-mapped caches whose slots hold the
//! piece's bytes, its length and its count in one or two machine words: a lookup is a multiply,
//! a load and a compare, with nothing to allocate. A piece that loses its slot to another is
//! counted again when it comes back, which costs a vocabulary probe: a cheaper miss than a
//! general hash map's every hit.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, PoisonError};

use rustc_hash::{FxBuildHasher, FxHashMap};

/// Pieces the long-piece maps remember before they start over (bounds their memory).
const LIMIT: usize = 200_000;

/// Slots of the cache of 1- to 7-byte pieces (a power of two: 512 KB of u64s).
const SHORT_BITS: u32 = 16;
/// Slots of the cache of 8- to 15-byte pieces (a power of two: 256 KB of u128s).
const MEDIUM_BITS: u32 = 14;

/// The odd constant of Fibonacci hashing: the slot is the top bits of key times it.
const MIX: u64 = 0x9E37_79B9_7F4A_7C15;

/// One thread's memo for one encoding.
pub(super) struct Memo {
    /// Pieces of 1 to 7 bytes: slot = bytes (bits 0..56, first byte lowest), length (bits
    /// 56..60), count (bits 60..64); 0 is an empty slot (no key has length 0).
    short: Box<[u64]>,
    /// Pieces of 8 to 15 bytes, the same way in a u128: bytes in bits 0..120, length in
    /// 120..124, count in 124..128.
    medium: Box<[u128]>,
    /// Longer pieces that are not a token themselves. FxHash: the keys are ours.
    long: FxHashMap<Box<str>, u32>,
}

impl Default for Memo {
    fn default() -> Memo {
        Memo {
            short: vec![0; 1 << SHORT_BITS].into_boxed_slice(),
            medium: vec![0; 1 << MEDIUM_BITS].into_boxed_slice(),
            long: FxHashMap::default(),
        }
    }
}

thread_local! {
    /// One memo per encoding (o200k, cl100k), made on first use.
    static MEMOS: std::cell::RefCell<[Option<Memo>; 2]> = const { std::cell::RefCell::new([None, None]) };
}

/// Runs `work` with this thread's memo for encoding `slot`, borrowed once for a whole text.
pub(super) fn with_memo<R>(slot: usize, work: impl FnOnce(&mut Memo) -> R) -> R {
    MEMOS.with(|memos| match memos.try_borrow_mut() {
        Ok(mut memos) => match memos.get_mut(slot) {
            Some(memo) => work(memo.get_or_insert_with(Memo::default)),
            None => work(&mut Memo::default()),
        },
        // Only reachable by re-entrance, which nothing here does: count without the memo.
        Err(_) => work(&mut Memo::default()),
    })
}

/// The bytes of a piece of at most 16 bytes, first byte lowest.
fn pack(bytes: &[u8]) -> u128 {
    bytes
        .iter()
        .rev()
        .fold(0, |key, byte| key << 8 | u128::from(*byte))
}

/// The `len` bytes of `text` from `start` (at most 7), first byte lowest: one load when 8
/// bytes are there to read, which is everywhere but a text's last few bytes.
#[inline(always)]
fn load_short(text: &[u8], start: usize, len: usize) -> u64 {
    match text.get(start..).and_then(|rest| rest.first_chunk::<8>()) {
        Some(word) => u64::from_le_bytes(*word) & ((1 << (8 * (len & 7))) - 1),
        None => pack(text.get(start..start + len).unwrap_or(&[])) as u64,
    }
}

/// `load_short` for 8 to 16 bytes.
#[inline(always)]
fn load_medium(text: &[u8], start: usize, len: usize) -> u128 {
    match text.get(start..).and_then(|rest| rest.first_chunk::<16>()) {
        Some(word) => u128::from_le_bytes(*word) & (u128::MAX >> (128 - 8 * len.clamp(1, 16))),
        None => pack(text.get(start..start + len).unwrap_or(&[])),
    }
}

impl Memo {
    /// The count of the piece `text[start..start + len]`, `len` from 1 to 15: remembered, or
    /// `count` of it, remembered. Inlined up to the lookup; a miss is out of line.
    #[inline(always)]
    pub(super) fn short(
        &mut self,
        text: &[u8],
        start: usize,
        len: usize,
        count: impl FnOnce() -> usize,
    ) -> usize {
        if len <= 7 {
            let key = load_short(text, start, len) | (len as u64) << 56;
            let slot = (key.wrapping_mul(MIX) >> (64 - SHORT_BITS)) as usize;
            match self.short.get(slot) {
                Some(entry) if entry & (u64::MAX >> 4) == key => (entry >> 60) as usize,
                _ => self.short_miss(slot, key, count),
            }
        } else {
            let key = load_medium(text, start, len) | (len as u128) << 120;
            let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(23);
            let slot = (folded.wrapping_mul(MIX) >> (64 - MEDIUM_BITS)) as usize;
            match self.medium.get(slot) {
                Some(entry) if entry & (u128::MAX >> 4) == key => (entry >> 124) as usize,
                _ => self.medium_miss(slot, key, count),
            }
        }
    }

    #[cold]
    #[inline(never)]
    fn short_miss(&mut self, slot: usize, key: u64, count: impl FnOnce() -> usize) -> usize {
        let count = count();
        // A piece has at most as many tokens as bytes, so the count fits its four bits.
        if let (Some(entry), true) = (self.short.get_mut(slot), count < 16) {
            *entry = key | (count as u64) << 60;
        }
        count
    }

    #[cold]
    #[inline(never)]
    fn medium_miss(&mut self, slot: usize, key: u128, count: impl FnOnce() -> usize) -> usize {
        let count = count();
        if let (Some(entry), true) = (self.medium.get_mut(slot), count < 16) {
            *entry = key | (count as u128) << 124;
        }
        count
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

fn insert<K: std::hash::Hash + Eq>(map: &mut FxHashMap<K, u32>, key: K, count: usize) {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Pieces that share a slot, a prefix or trailing zero bytes keep their own counts.
    #[test]
    fn pieces_keep_their_own_counts() {
        let mut memo = Memo::default();
        let text = b"abc\0abc\0\0abcdefghijklmn\0";
        let pieces = [
            (0, 1),
            (0, 2),
            (0, 3),
            (0, 4),
            (3, 1),
            (4, 5),
            (9, 8),
            (9, 15),
            (10, 15),
        ];
        for round in 0..2 {
            for (i, (start, len)) in pieces.iter().enumerate() {
                let counted = memo.short(text, *start, *len, || i + 1);
                assert_eq!(counted, i + 1, "round {round}: piece {i}");
            }
        }
        // Near the end of the text, where no 16-byte load fits.
        assert_eq!(memo.short(text, text.len() - 3, 3, || 7), 7);
        assert_eq!(memo.short(text, text.len() - 3, 3, || 1), 7);
    }
}
