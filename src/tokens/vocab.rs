//! A byte-pair vocabulary (o200k_base or cl100k_base), embedded as a compact table with an
//! index built at compile time, and tiktoken's merge rule to count the tokens of one
//! pre-split piece.
//!
//! Why not a crate's pre-built encoder: bpe-openai embeds 47 MB of automata for the two
//! vocabularies and spends 60-120 ms and ~65 MB deserialising one before the first count. The
//! table here is the vocabulary itself (each token's bytes in rank order, 1.6 MB for o200k,
//! packed by `assets/tokens/pack.py`) and its index (4 MB), read in place: nothing to load.
//! Counts are tiktoken's by construction (the same merge rule, lowest rank first, leftmost on
//! ties) and the tests check them against tiktoken's on every fixture and on random text.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::table;

/// No rank: the bytes are not a token (tiktoken's `Rank::MAX`).
const NONE: u32 = u32::MAX;

/// Pieces up to this many bytes merge with tiktoken's linear scan; longer ones (a minified
/// line, a base64 blob) through a heap, so a 100 KB piece costs milliseconds, not minutes.
const LINEAR_MERGE_MAX: usize = 128;

/// One vocabulary: its packed table and the index build.rs made of it, both read in place.
pub(crate) struct Vocabulary {
    /// The packed table (see `table`).
    table: &'static [u8],
    /// Where the tokens' bytes start in `table`.
    bytes_start: usize,
    /// The index: little-endian u64 slots, a power of two of them.
    index: &'static [u8],
    /// The ranks of two-byte tokens: a little-endian u32 per pair of bytes.
    pairs: &'static [u8],
}

impl Vocabulary {
    /// A vocabulary over a packed table, its index and its pair table.
    pub(crate) const fn new(
        table: &'static [u8],
        index: &'static [u8],
        pairs: &'static [u8],
    ) -> Vocabulary {
        Vocabulary {
            table,
            bytes_start: table::bytes_start(table),
            index,
            pairs,
        }
    }

    fn slots(&self) -> usize {
        self.index.len() / 8
    }

    fn entry(&self, at: usize) -> u64 {
        match self.index.get(at * 8..at * 8 + 8) {
            Some(bytes) => bytes.try_into().map_or(0, u64::from_le_bytes),
            None => 0,
        }
    }

    /// The rank of the token whose bytes are exactly `bytes`, or `NONE`.
    fn rank_or_none(&self, bytes: &[u8]) -> u32 {
        if let [first, second] = bytes {
            let at = (usize::from(*first) << 8 | usize::from(*second)) * 4;
            return match self.pairs.get(at..at + 4) {
                Some(rank) => rank.try_into().map_or(NONE, u32::from_le_bytes),
                None => NONE,
            };
        }
        let slots = self.slots();
        if slots == 0 {
            return NONE;
        }
        let hash = table::hash(bytes);
        let check = table::check(hash);
        let mask = slots - 1;
        let mut at = hash as usize & mask;
        while let Some((slot, slot_check)) = table::decode(self.entry(at)) {
            if slot_check == check && slot.len == bytes.len() {
                let start = self.bytes_start + slot.offset;
                let token = self.table.get(start..start + slot.len).unwrap_or(&[]);
                // Byte by byte: tokens are short, and a call to memcmp costs more.
                if token.len() == bytes.len() && token.iter().zip(bytes).all(|(a, b)| a == b) {
                    return slot.rank;
                }
            }
            at = (at + 1) & mask;
        }
        NONE
    }

    /// Whether `bytes` are exactly one token.
    pub(crate) fn is_token(&self, bytes: &[u8]) -> bool {
        self.rank_or_none(bytes) != NONE
    }

    /// The rank of the token whose bytes are exactly `bytes`, if there is one.
    #[cfg(test)]
    pub(crate) fn rank(&self, bytes: &[u8]) -> Option<u32> {
        Some(self.rank_or_none(bytes)).filter(|rank| *rank != NONE)
    }

    /// Every token's bytes, in rank order.
    #[cfg(test)]
    pub(crate) fn tokens(&self) -> impl Iterator<Item = &'static [u8]> {
        let packed = table::build::Packed::new(self.table);
        let (lengths, bytes) = packed.map_or((&[][..], &[][..]), |p| (p.lengths, p.bytes));
        lengths.iter().scan(0, move |offset, len| {
            let token = bytes.get(*offset..*offset + usize::from(*len));
            *offset += usize::from(*len);
            token
        })
    }

    /// Tokens that merging the bytes of `piece` pair by pair leaves (lowest rank first,
    /// leftmost on ties): tiktoken's count of a piece that is not a token itself.
    pub(crate) fn merge_count(&self, piece: &[u8]) -> usize {
        if piece.len() <= 1 {
            return piece.len();
        }
        if piece.len() <= LINEAR_MERGE_MAX {
            self.merge_linear(piece)
        } else {
            self.merge_heap(piece)
        }
    }

    /// tiktoken's `byte_pair_merge`, counting: `parts[i]` is where part `i` starts and the rank
    /// of merging it with part `i + 1`; merge the lowest (leftmost on ties) until none is left.
    /// Short pieces (nearly all that reach here) keep their parts on the stack.
    fn merge_linear(&self, piece: &[u8]) -> usize {
        const ON_STACK: usize = 32;
        if piece.len() <= ON_STACK {
            let mut parts = [(0, NONE); ON_STACK + 1];
            self.merge_parts(piece, &mut parts[..piece.len() + 1])
        } else {
            self.merge_parts(piece, &mut vec![(0, NONE); piece.len() + 1])
        }
    }

    /// `merge_linear` in `parts`, one more than the piece's bytes: returns how many are left.
    fn merge_parts(&self, piece: &[u8], parts: &mut [(usize, u32)]) -> usize {
        for (start, part) in parts.iter_mut().enumerate() {
            let pair = piece.get(start..start + 2);
            *part = (start, pair.map_or(NONE, |pair| self.rank_or_none(pair)));
        }
        let mut len = parts.len();
        // The rank of merging part `i` with the part after part `i + 1`, read before part
        // `i + 1` is removed (hence `i + 3`).
        let merged_rank = |parts: &[(usize, u32)], len: usize, i: usize| match i + 3 < len {
            true => self.rank_or_none(piece.get(parts[i].0..parts[i + 3].0).unwrap_or(&[])),
            false => NONE,
        };
        loop {
            let mut lowest = (NONE, 0);
            for (i, (_, rank)) in parts[..len - 1].iter().enumerate() {
                if *rank < lowest.0 {
                    lowest = (*rank, i);
                }
            }
            if lowest.0 == NONE {
                break;
            }
            let i = lowest.1;
            if i > 0 {
                parts[i - 1].1 = merged_rank(parts, len, i - 1);
            }
            parts[i].1 = merged_rank(parts, len, i);
            parts.copy_within(i + 2..len, i + 1);
            len -= 1;
        }
        len - 1
    }

    /// The same merges as `merge_linear` in O(n log n): parts in a linked list, candidate pairs
    /// in a min-heap ordered by (rank, start), so the lowest rank and then the leftmost pair
    /// comes first, as in the linear scan. A heap entry whose pair has since changed is skipped.
    fn merge_heap(&self, piece: &[u8]) -> usize {
        let n = piece.len();
        // `next[s]`: where the part starting at `s` ends; `prev[s]`: where the part before it
        // starts (`usize::MAX` for none); `alive[s]`: a part starts at `s`.
        let mut next: Vec<usize> = (1..=n).collect();
        let mut prev: Vec<usize> = (0..n).map(|s| s.wrapping_sub(1)).collect();
        let mut alive = vec![true; n];
        let mut heap = BinaryHeap::with_capacity(n);
        let push_pair = |heap: &mut BinaryHeap<_>, start: usize, end: usize| {
            let rank = self.rank_or_none(&piece[start..end]);
            if rank != NONE {
                heap.push(Reverse((rank, start, end)));
            }
        };
        for start in 0..n - 1 {
            push_pair(&mut heap, start, start + 2);
        }
        let mut parts = n;
        while let Some(Reverse((_, start, end))) = heap.pop() {
            let second = next[start];
            if !alive[start] || second >= n || next[second] != end {
                continue; // stale: one of the two parts has merged since
            }
            alive[second] = false;
            next[start] = end;
            if end < n {
                prev[end] = start;
                push_pair(&mut heap, start, next[end]);
            }
            if let Some(before) = prev.get(start).copied().filter(|b| *b != usize::MAX) {
                push_pair(&mut heap, before, end);
            }
            parts -= 1;
        }
        parts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn vocabularies() -> [(&'static Vocabulary, &'static tiktoken_rs::CoreBPE); 2] {
        [
            (
                &crate::tokens::O200K.vocabulary,
                tiktoken_rs::o200k_base_singleton(),
            ),
            (
                &crate::tokens::CL100K.vocabulary,
                tiktoken_rs::cl100k_base_singleton(),
            ),
        ]
    }

    #[test]
    fn every_token_is_tiktokens_token_and_found_at_its_rank() {
        for (vocabulary, reference) in vocabularies() {
            let mut count = 0;
            for (rank, token) in vocabulary.tokens().enumerate() {
                let rank = rank as u32;
                let expected = reference.decode_bytes(&[rank]).ok();
                assert_eq!(Some(token), expected.as_deref(), "rank {rank}");
                assert_eq!(vocabulary.rank(token), Some(rank), "{token:?}");
                count += 1;
            }
            assert!(count > 100_000, "only {count} tokens");
            assert!(
                reference.decode_bytes(&[count]).is_err(),
                "a token is missing"
            );
        }
    }

    #[test]
    fn the_embedded_index_and_pairs_are_the_ones_the_table_gives() {
        for (vocabulary, _) in vocabularies() {
            let index = table::build::build_index(vocabulary.table);
            assert!(index.as_deref() == Ok(vocabulary.index), "stale index");
            let pairs = table::build::build_pairs(vocabulary.table);
            assert!(pairs.as_deref() == Ok(vocabulary.pairs), "stale pairs");
        }
    }

    #[test]
    fn non_tokens_are_not_found() {
        let (vocabulary, _) = vocabularies()[0];
        for bytes in [&b""[..], b"zqxjzqxjzqxj", &[0xff; 40]] {
            assert_eq!(vocabulary.rank(bytes), None, "{bytes:?}");
        }
    }

    /// The heap merge (long pieces) makes the same merges as tiktoken's linear scan. (Counts
    /// against tiktoken itself: `tokens::tests`.)
    #[test]
    fn heap_and_linear_merges_agree() {
        let pieces = "[ ]?([a-zA-Z]{2,40}|[a-z]{100,300}|[=/*#.,;:(){}-]{2,300}|[a-zé東ſ]{2,60})";
        let result = crate::parse::soup::runner(512).run(&pieces, |piece| {
            for (vocabulary, _) in vocabularies() {
                let bytes = piece.as_bytes();
                prop_assert_eq!(vocabulary.merge_heap(bytes), vocabulary.merge_linear(bytes));
            }
            Ok(())
        });
        if let Err(failure) = result {
            panic!("{failure}");
        }
    }
}
