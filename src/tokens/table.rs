//! The layout of an embedded vocabulary and of its index, shared by `build.rs` (which builds
//! the index at compile time) and `vocab` (which reads both in place).
//!
//! The packed table (`assets/tokens/*.bin`, see `pack.py` there): the token count `n` as a
//! little-endian u32, then each token's length (1..=128) in rank order, then the tokens' bytes
//! in rank order. The index: a power-of-two number of little-endian u64 slots, an open-addressing
//! hash table (linear probing) from a token's bytes to its rank. Built at compile time, it
//! costs nothing to load: the first count reads a few of its pages, not all 4 MB.

use xxhash_rust::xxh3::xxh3_64;

/// A slot: where the token's bytes start (21 bits), its length less one (7 bits), its rank
/// plus one (18 bits; 0 marks an empty slot) and the top 18 bits of its hash, compared before
/// the bytes so that most probes of a non-token never read a token.
const OFFSET_BITS: u32 = 21;
const LENGTH_BITS: u32 = 7;
const RANK_BITS: u32 = 18;
const RANK_SHIFT: u32 = OFFSET_BITS + LENGTH_BITS;
const CHECK_SHIFT: u32 = RANK_SHIFT + RANK_BITS;

/// The hash both sides agree on.
pub(crate) fn hash(bytes: &[u8]) -> u64 {
    xxh3_64(bytes)
}

/// Where the tokens' bytes start in a packed table.
pub(crate) const fn bytes_start(table: &[u8]) -> usize {
    match table {
        [a, b, c, d, ..] => 4 + u32::from_le_bytes([*a, *b, *c, *d]) as usize,
        _ => 0,
    }
}

/// A decoded slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Slot {
    pub(crate) offset: usize,
    pub(crate) len: usize,
    pub(crate) rank: u32,
}

/// The slot's check bits for a hash.
pub(crate) fn check(hash: u64) -> u64 {
    hash >> CHECK_SHIFT
}

/// Decodes `entry`: `None` for an empty slot, else the token and its check bits.
pub(crate) fn decode(entry: u64) -> Option<(Slot, u64)> {
    let rank = (entry >> RANK_SHIFT) & ((1 << RANK_BITS) - 1);
    if rank == 0 {
        return None;
    }
    let slot = Slot {
        offset: (entry & ((1 << OFFSET_BITS) - 1)) as usize,
        len: ((entry >> OFFSET_BITS) & ((1 << LENGTH_BITS) - 1)) as usize + 1,
        rank: rank as u32 - 1,
    };
    Some((slot, entry >> CHECK_SHIFT))
}

/// Unpacking a table and building its index: what build.rs runs, and the tests check.
#[cfg_attr(
    not(test),
    allow(
        dead_code,
        reason = "build.rs builds the index; the library only reads it"
    )
)]
pub(crate) mod build {
    use super::*;

    /// A packed table split into its parts.
    pub(crate) struct Packed<'t> {
        pub(crate) lengths: &'t [u8],
        pub(crate) bytes: &'t [u8],
    }

    impl<'t> Packed<'t> {
        /// The parts of `table`, or `None` if it is not a packed table.
        pub(crate) fn new(table: &'t [u8]) -> Option<Packed<'t>> {
            let count = u32::from_le_bytes(table.get(..4)?.try_into().ok()?) as usize;
            let lengths = table.get(4..4 + count)?;
            let bytes = table.get(4 + count..)?;
            Some(Packed { lengths, bytes })
        }
    }

    fn encode(slot: Slot, hash: u64) -> Option<u64> {
        let rank = u64::from(slot.rank) + 1;
        let fits = slot.offset < 1 << OFFSET_BITS
            && (1..=1 << LENGTH_BITS).contains(&slot.len)
            && rank < 1 << RANK_BITS;
        fits.then(|| {
            slot.offset as u64
                | ((slot.len as u64 - 1) << OFFSET_BITS)
                | (rank << RANK_SHIFT)
                | (check(hash) << CHECK_SHIFT)
        })
    }

    /// The ranks of the two-byte tokens, as the bytes build.rs writes: a little-endian u32 for
    /// every pair of bytes (first byte major), `u32::MAX` where the pair is not a token. Merging
    /// starts from pairs, so most lookups are these.
    pub(crate) fn build_pairs(table: &[u8]) -> Result<Vec<u8>, String> {
        let packed = Packed::new(table).ok_or("not a packed vocabulary table")?;
        let mut pairs = vec![u32::MAX; 1 << 16];
        let mut offset = 0;
        for (rank, len) in packed.lengths.iter().enumerate() {
            let len = usize::from(*len);
            if let Some([first, second]) = packed.bytes.get(offset..offset + len) {
                pairs[usize::from(*first) << 8 | usize::from(*second)] = rank as u32;
            }
            offset += len;
        }
        Ok(pairs.iter().flat_map(|rank| rank.to_le_bytes()).collect())
    }

    /// The index of a packed table, as the bytes build.rs writes: slots for a load factor of at
    /// most 1/2 (0.38 for both vocabularies: short probe runs), each token in the first free slot
    /// from its hash.
    pub(crate) fn build_index(table: &[u8]) -> Result<Vec<u8>, String> {
        let packed = Packed::new(table).ok_or("not a packed vocabulary table")?;
        let size = (packed.lengths.len() * 2).next_power_of_two().max(2);
        let mask = size - 1;
        let mut slots = vec![0u64; size];
        let mut offset = 0;
        for (rank, len) in packed.lengths.iter().enumerate() {
            let len = usize::from(*len);
            let token = packed
                .bytes
                .get(offset..offset + len)
                .ok_or("the table ends inside a token")?;
            let hash = hash(token);
            let slot = Slot {
                offset,
                len,
                rank: rank as u32,
            };
            let entry = encode(slot, hash).ok_or("a token does not fit a slot")?;
            let mut at = hash as usize & mask;
            while slots[at] != 0 {
                at = (at + 1) & mask;
            }
            slots[at] = entry;
            offset += len;
        }
        Ok(slots.iter().flat_map(|slot| slot.to_le_bytes()).collect())
    }
}
