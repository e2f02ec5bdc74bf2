//! The pre-split that comes before byte-pair merging: tiktoken's pattern for o200k_base or
//! cl100k_base cuts text into pieces (words with their leading space, runs of up to three
//! digits, punctuation runs, whitespace runs), and each piece is counted on its own.
//!
//! Why by hand: the patterns are Unicode regexes whose compilation costs ~8 ms and whose
//! anchored search costs ~100 ns a piece. On ASCII (nearly all code) the pattern reduces to a
//! few byte classes, decided here by a scanner; the moment a decision would look at a
//! non-ASCII character, that one piece is cut by the real regex instead (built on first need),
//! so the pieces are the regex's pieces everywhere. Tests compare both on every fixture and on
//! random text.

use std::sync::OnceLock;

use std::cell::RefCell;

use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::nfa::thompson;
use regex_automata::{Anchored, Input};

/// Which encoding's pattern splits the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pattern {
    O200k,
    Cl100k,
}

/// tiktoken's o200k_base pattern, as bpe-openai writes it for a regex engine without
/// look-around: the first pattern is tiktoken's without its look-ahead branch `\s+(?!\S)`
/// (`\s+$` covers its match at the end of the text), which the second pattern stands in for by
/// matching one whitespace character more and dropping it (`LOOKAHEAD`).
const O200K: [&str; 3] = [
    concat!(
        r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
        r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
        r"|\p{N}{1,3}",
        r"| ?[^\s\p{L}\p{N}]+[\r\n/]*",
        r"|\s*[\r\n]+",
        r"|\s+$",
    ),
    r"\s+\s",
    r"\s+",
];

/// tiktoken's cl100k_base pattern, split the same way.
const CL100K: [&str; 3] = [
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+$",
    r"\s+\s",
    r"\s+",
];

/// The pattern (by index) whose match ends with one look-ahead character to drop.
const LOOKAHEAD: usize = 1;

impl Pattern {
    fn sources(self) -> &'static [&'static str; 3] {
        match self {
            Pattern::O200k => &O200K,
            Pattern::Cl100k => &CL100K,
        }
    }

    /// The pattern as a lazy DFA, built on first need (text with a non-ASCII character).
    /// Only anchored forward searches are asked of it, so it is built without the reverse
    /// automaton and capture states a general regex needs: a third of the build time.
    fn dfa(self) -> Option<&'static DFA> {
        static O200K_DFA: OnceLock<Option<DFA>> = OnceLock::new();
        static CL100K_DFA: OnceLock<Option<DFA>> = OnceLock::new();
        let cell = match self {
            Pattern::O200k => &O200K_DFA,
            Pattern::Cl100k => &CL100K_DFA,
        };
        // The patterns are constants and a test builds them, so `None` is never seen.
        cell.get_or_init(|| {
            DFA::builder()
                .thompson(thompson::Config::new().which_captures(thompson::WhichCaptures::None))
                .build_many(self.sources())
                .ok()
        })
        .as_ref()
    }

    /// Runs `search` with this thread's cache for the pattern's DFA.
    fn with_cache<R>(self, dfa: &DFA, search: impl FnOnce(&mut Cache) -> R) -> R {
        thread_local! {
            static CACHES: RefCell<[Option<Cache>; 2]> = const { RefCell::new([None, None]) };
        }
        let slot = match self {
            Pattern::O200k => 0,
            Pattern::Cl100k => 1,
        };
        CACHES.with(|caches| match caches.try_borrow_mut() {
            Ok(mut caches) => search(caches[slot].get_or_insert_with(|| Cache::new(dfa))),
            // Only reachable by re-entrance, which nothing here does.
            Err(_) => search(&mut Cache::new(dfa)),
        })
    }

    /// The pieces of `text`, in order; together they are the whole text.
    pub(crate) fn split(self, text: &str) -> Pieces<'_> {
        Pieces {
            pattern: self,
            text,
            at: 0,
        }
    }

    /// Where the piece starting at `at` ends, by the regex: for pieces the ASCII scanners
    /// leave undecided, which are rare outside prose in other scripts.
    #[cold]
    #[inline(never)]
    fn regex_piece_end(self, text: &str, at: usize) -> usize {
        let one_char = || at + text[at..].chars().next().map_or(1, char::len_utf8);
        let Some(dfa) = self.dfa() else {
            return one_char();
        };
        let input = Input::new(&text[at..]).anchored(Anchored::Yes);
        // The patterns match every character, and this DFA has no reason to give up (no
        // Unicode word boundary, no cache clear limit): neither fallback is ever taken.
        let Ok(Some(found)) = self.with_cache(dfa, |cache| dfa.try_search_fwd(cache, &input))
        else {
            return one_char();
        };
        let mut end = at + found.offset();
        if found.pattern().as_usize() == LOOKAHEAD {
            end -= text[at..end].chars().next_back().map_or(0, char::len_utf8);
        }
        end.max(at + 1)
    }
}

/// Iterator over the pieces of a text.
pub(crate) struct Pieces<'t> {
    pattern: Pattern,
    text: &'t str,
    at: usize,
}

impl Pieces<'_> {
    /// Where the next piece ends (it starts where the last one ended), or `None` at the end of
    /// the text: the iterator without making a `&str` of each piece.
    #[inline(always)]
    pub(crate) fn next_end(&mut self) -> Option<usize> {
        let start = self.at;
        let bytes = self.text.as_bytes();
        if start >= bytes.len() {
            return None;
        }
        let ascii = match self.pattern {
            Pattern::O200k => o200k_piece_end(bytes, start),
            Pattern::Cl100k => cl100k_piece_end(bytes, start),
        };
        let end = match ascii {
            Some(end) => end,
            None => self.pattern.regex_piece_end(self.text, start),
        };
        self.at = end;
        Some(end)
    }
}

impl<'t> Iterator for Pieces<'t> {
    type Item = &'t str;

    fn next(&mut self) -> Option<&'t str> {
        let start = self.at;
        let end = self.next_end()?;
        self.text.get(start..end)
    }
}

// Byte classes of the patterns, on ASCII: `\s` is tab, line feed, vertical tab, form feed,
// carriage return and space; `\p{L}` letters, `\p{N}` digits; everything else is punctuation.
// One table lookup answers every class question a scanner asks.

const UPPER: u8 = 1;
const LOWER: u8 = 2;
const DIGIT: u8 = 4;
/// `\s`.
const SPACE: u8 = 8;
/// `[\r\n]`.
const BREAK: u8 = 16;
/// `[^\s\p{L}\p{N}]`: punctuation, symbols and control characters.
const PUNCT: u8 = 32;
/// `[^\r\n\p{L}\p{N}]`: the one character a word may carry in front of it.
const LEAD: u8 = 64;
/// Not ASCII: a Unicode character, which only the regex classifies.
const HIGH: u8 = 128;
const LETTER: u8 = UPPER | LOWER;

/// The classes of every byte.
static CLASSES: [u8; 256] = {
    let mut classes = [0u8; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        classes[byte] = match b {
            b'A'..=b'Z' => UPPER,
            b'a'..=b'z' => LOWER,
            b'0'..=b'9' => DIGIT,
            b'\r' | b'\n' => SPACE | BREAK,
            b'\t' | 0x0b | 0x0c | b' ' => SPACE | LEAD,
            0x80..=0xff => HIGH,
            _ => PUNCT | LEAD,
        };
        byte += 1;
    }
    classes
};

/// The classes of the byte at `at`; 0 past the end of the text.
#[inline(always)]
fn class(text: &[u8], at: usize) -> u8 {
    text.get(at).map_or(0, |byte| CLASSES[*byte as usize])
}

/// Skips the bytes from `at` in any of `classes`: where the run stops, and the classes of the
/// byte there (0 at the end of the text, `HIGH` at a non-ASCII byte, a character the classes
/// might take in).
#[inline(always)]
fn skip(text: &[u8], mut at: usize, classes: u8) -> (usize, u8) {
    loop {
        let found = class(text, at);
        if found & classes == 0 {
            return (at, found);
        }
        at += 1;
    }
}

/// `(?i:'s|'t|'re|'ve|'m|'ll|'d)` at `at`: its end, `at` for no match, `None` for undecidable
/// (a non-ASCII character where a letter of it would be: `ſ` folds to `s`).
fn contraction_end(text: &[u8], at: usize) -> Option<usize> {
    if text.get(at) != Some(&b'\'') {
        return Some(at);
    }
    let letter = |i: usize| text.get(at + i).map(u8::to_ascii_lowercase);
    if letter(1).is_some_and(|b| !b.is_ascii()) {
        return None;
    }
    Some(match (letter(1), letter(2)) {
        (Some(b's' | b't' | b'm' | b'd'), _) => at + 2,
        (Some(b'r' | b'v'), Some(b'e')) | (Some(b'l'), Some(b'l')) => at + 3,
        (Some(b'r' | b'v' | b'l'), Some(b)) if !b.is_ascii() => return None,
        _ => at,
    })
}

/// The end of a word whose letters end at `end`, where a byte of classes `stop` is: `None` if
/// that is a non-ASCII character, past a contraction if one follows.
#[inline(always)]
fn word_end(text: &[u8], end: usize, stop: u8) -> Option<usize> {
    match stop {
        HIGH => None,
        _ if stop & PUNCT != 0 => contraction_end(text, end),
        _ => Some(end),
    }
}

/// The whitespace branches both patterns end with: `\s*[\r\n]+` (up to the run's last line
/// break), `\s+$` (a run that ends the text), `\s+(?!\S)` (the run but its last character, if
/// longer than one), `\s+`.
fn space_piece_end(text: &[u8], at: usize) -> Option<usize> {
    let mut end = at;
    let mut last_break = None;
    let stop = loop {
        let found = class(text, end);
        if found & SPACE == 0 {
            break found;
        }
        if found & BREAK != 0 {
            last_break = Some(end);
        }
        end += 1;
    };
    if stop == HIGH {
        return None;
    }
    if let Some(last_break) = last_break {
        return Some(last_break + 1);
    }
    if end == text.len() || end - at == 1 {
        return Some(end);
    }
    Some(end - 1)
}

/// `\p{N}{1,3}` at a digit.
fn digits_end(text: &[u8], at: usize) -> Option<usize> {
    let mut end = at + 1;
    while end < at + 3 && class(text, end) & DIGIT != 0 {
        end += 1;
    }
    match end < at + 3 && class(text, end) & HIGH != 0 {
        true => None,
        false => Some(end),
    }
}

/// ` ?[^\s\p{L}\p{N}]+` then a run of `tail` bytes, at `at`: `Some(end)` if it matches
/// (`Some(None)` if that depends on a non-ASCII character), `None` if it does not.
#[inline(always)]
fn punct_piece_end(text: &[u8], at: usize, tail: impl Fn(u8) -> bool) -> Option<Option<usize>> {
    let start = at + usize::from(text.get(at) == Some(&b' '));
    match class(text, start) {
        HIGH => return Some(None),
        classes if classes & PUNCT != 0 => {}
        _ => return None,
    }
    let (mut end, stop) = skip(text, start, PUNCT);
    if stop == HIGH {
        return Some(None);
    }
    while text.get(end).is_some_and(|byte| tail(*byte)) {
        end += 1;
    }
    Some(Some(end))
}

// Eight bytes at a time: a word's letters end within the eight bytes from their start in
// nearly all text, and finding where from masks costs no branch on each letter (whose
// mispredicted loop exits were a good part of the scan's time).

/// A byte of ones in each of a word's eight bytes, and of the high bits.
const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = ONES * 0x80;

/// The bytes of `word` (eight bytes of text, first lowest) from `low` to `high` (both ASCII),
/// as the high bit of each. Exact up to the first non-ASCII byte, which is never in the range
/// (its carry may touch the bytes after it, which no caller reads).
#[inline(always)]
fn within(word: u64, low: u8, high: u8) -> u64 {
    let at_least_low = word.wrapping_add(ONES * u64::from(0x80 - low));
    let above_high = word.wrapping_add(ONES * u64::from(0x7f - high));
    at_least_low & !above_high & !word & HIGHS
}

/// How many bytes from the lowest are set in `members` (high bits only), up to 8.
#[inline(always)]
fn leading_members(members: u64) -> u32 {
    (!members & HIGHS).trailing_zeros() / 8
}

/// The end of o200k's letters from `at` (upper-case, then lower-case), if they end within
/// eight bytes and eight are there to read.
#[inline(always)]
fn o200k_letters_in_word(text: &[u8], at: usize) -> Option<usize> {
    let word = u64::from_le_bytes(*text.get(at..)?.first_chunk::<8>()?);
    let upper = leading_members(within(word, b'A', b'Z'));
    let lower = within(word, b'a', b'z').checked_shr(8 * upper).unwrap_or(0);
    let letters = upper + leading_members(lower);
    (letters < 8).then_some(at + letters as usize)
}

/// The end of the letters from `at`, if they end within eight bytes and eight are there to
/// read.
#[inline(always)]
fn letters_in_word(text: &[u8], at: usize) -> Option<usize> {
    let word = u64::from_le_bytes(*text.get(at..)?.first_chunk::<8>()?);
    let letters = leading_members(within(word, b'A', b'Z') | within(word, b'a', b'z'));
    (letters < 8).then_some(at + letters as usize)
}

/// One piece of o200k_base's pattern at `at`, on ASCII; `None` when a non-ASCII character
/// decides it.
#[inline(always)]
fn o200k_piece_end(text: &[u8], at: usize) -> Option<usize> {
    let first = class(text, at);
    // Words: an optional lead, then upper-case then lower-case letters (either run may be
    // empty but not both), then an optional contraction.
    let letters = at + usize::from(first & LEAD != 0);
    let next = class(text, letters);
    if next & LETTER != 0 {
        let end = match o200k_letters_in_word(text, letters) {
            Some(end) => end,
            None => {
                let (end, stop) = skip(text, letters, UPPER);
                match stop & LOWER {
                    0 => end,
                    _ => skip(text, end, LOWER).0,
                }
            }
        };
        return word_end(text, end, class(text, end));
    }
    o200k_other_end(text, at, first, next)
}

/// `o200k_piece_end` past the words.
fn o200k_other_end(text: &[u8], at: usize, first: u8, next: u8) -> Option<usize> {
    if next == HIGH {
        return None;
    }
    if first & DIGIT != 0 {
        return digits_end(text, at);
    }
    if let Some(end) = punct_piece_end(text, at, |b| matches!(b, b'\r' | b'\n' | b'/')) {
        return end;
    }
    space_piece_end(text, at)
}

/// One piece of cl100k_base's pattern at `at`, on ASCII; `None` when a non-ASCII character
/// decides it.
#[inline(always)]
fn cl100k_piece_end(text: &[u8], at: usize) -> Option<usize> {
    let first = class(text, at);
    let letters = at + usize::from(first & LEAD != 0);
    let next = class(text, letters);
    // A contraction comes first, but a word never starts with `'` unless it is the lead.
    if next & LETTER != 0 && text.get(at) != Some(&b'\'') {
        let (end, stop) = match letters_in_word(text, letters) {
            Some(end) => (end, class(text, end)),
            None => skip(text, letters, LETTER),
        };
        return match stop {
            HIGH => None,
            _ => Some(end),
        };
    }
    cl100k_other_end(text, at, first, letters, next)
}

/// `cl100k_piece_end` past the words.
fn cl100k_other_end(text: &[u8], at: usize, first: u8, letters: usize, next: u8) -> Option<usize> {
    if first == HIGH {
        return None;
    }
    let contraction = contraction_end(text, at)?;
    if contraction > at {
        return Some(contraction);
    }
    if next == HIGH {
        return None;
    }
    if next & LETTER != 0 {
        return match skip(text, letters, LETTER) {
            (_, HIGH) => None,
            (end, _) => Some(end),
        };
    }
    if first & DIGIT != 0 {
        return digits_end(text, at);
    }
    if let Some(end) = punct_piece_end(text, at, |b| matches!(b, b'\r' | b'\n')) {
        return end;
    }
    space_piece_end(text, at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::sync::LazyLock;

    /// tiktoken's patterns as tiktoken writes them, true look-ahead and all, run by
    /// fancy-regex: the pieces ours must equal.
    fn reference(pattern: Pattern, text: &str) -> Vec<&str> {
        static O200K: LazyLock<fancy_regex::Regex> =
            LazyLock::new(|| fancy_regex::Regex::new(tiktoken_rs::O200K_BASE_PAT_STR).unwrap());
        static CL100K: LazyLock<fancy_regex::Regex> = LazyLock::new(|| {
            fancy_regex::Regex::new(concat!(
                r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}",
                r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
            ))
            .unwrap()
        });
        let regex = match pattern {
            Pattern::O200k => &O200K,
            Pattern::Cl100k => &CL100K,
        };
        regex.find_iter(text).map(|m| m.unwrap().as_str()).collect()
    }

    fn ours(pattern: Pattern, text: &str) -> Vec<&str> {
        pattern.split(text).collect()
    }

    #[test]
    fn the_regexes_compile() {
        assert!(Pattern::O200k.dfa().is_some());
        assert!(Pattern::Cl100k.dfa().is_some());
    }

    /// The pattern's corners, with the pieces both encodings cut (checked against the
    /// reference too, so a wrong expectation cannot pass).
    #[test]
    fn corners_of_the_patterns() {
        let cases: &[(&str, &[&str], &[&str])] = &[
            ("  hello", &[" ", " hello"], &[" ", " hello"]),
            ("HELLOworld", &["HELLOworld"], &["HELLOworld"]),
            ("helloWorld", &["hello", "World"], &["helloWorld"]),
            (
                "I'm it's 'S",
                &["I'm", " it's", " '", "S"],
                &["I", "'m", " it", "'s", " '", "S"],
            ),
            ("x1234", &["x", "123", "4"], &["x", "123", "4"]),
            (
                " (a) //\n//x",
                &[" (", "a", ")", " //\n//", "x"],
                &[" (", "a", ")", " //\n", "//", "x"],
            ),
            (
                "a \n\n  b  ",
                &["a", " \n\n", " ", " b", "  "],
                &["a", " \n\n", " ", " b", "  "],
            ),
            ("\t\tx\r\n", &["\t", "\tx", "\r\n"], &["\t", "\tx", "\r\n"]),
            ("\u{1}\u{7f}a", &["\u{1}\u{7f}", "a"], &["\u{1}\u{7f}", "a"]),
            ("café ſ'ſ", &["café", " ſ'ſ"], &["café", " ſ", "'ſ"]),
            (
                "a\u{a0}b 12²",
                &["a", "\u{a0}b", " ", "12²"],
                &["a", "\u{a0}b", " ", "12²"],
            ),
        ];
        for (text, o200k, cl100k) in cases {
            for (pattern, expected) in [(Pattern::O200k, o200k), (Pattern::Cl100k, cl100k)] {
                assert_eq!(
                    &reference(pattern, text),
                    expected,
                    "{pattern:?} reference on {text:?}"
                );
                assert_eq!(&ours(pattern, text), expected, "{pattern:?} on {text:?}");
            }
        }
    }

    #[test]
    fn pieces_equal_the_reference_on_every_fixture() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let mut files = 0;
        for dir in std::fs::read_dir(root).into_iter().flatten().flatten() {
            for file in std::fs::read_dir(dir.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                let Ok(text) = std::fs::read_to_string(file.path()) else {
                    continue;
                };
                for pattern in [Pattern::O200k, Pattern::Cl100k] {
                    assert!(
                        ours(pattern, &text) == reference(pattern, &text),
                        "{pattern:?} splits {} otherwise",
                        file.path().display()
                    );
                }
                files += 1;
            }
        }
        assert!(files > 50, "only {files} fixtures read");
    }

    /// Text drawn from the characters the patterns tell apart: ASCII classes, contractions,
    /// and Unicode letters, marks, digits and spaces next to them.
    fn soup() -> impl Strategy<Value = String> {
        const PIECES: &[&str] = &[
            "a", "Z", "q", "0", "7", " ", "  ", "\t", "\n", "\r", "\r\n", "\u{b}", "\u{c}", "'",
            "'s", "'T", "'re", "'Ve", "'LL", "'l", "'d", "'M", "/", "//", ".", "(", "_", "-",
            "\u{0}", "\u{1f}", "\u{7f}", "é", "É", "ſ", "K", "\u{301}", "ǅ", "ʰ", "東", "\u{a0}",
            "\u{2003}", "\u{85}", "²", "٣", "—", "🚀",
        ];
        prop::collection::vec(prop::sample::select(PIECES), 0..48).prop_map(|p| p.concat())
    }

    #[test]
    fn pieces_equal_the_reference_on_random_text() {
        let result = crate::parse::soup::runner(2048).run(&soup(), |text| {
            for pattern in [Pattern::O200k, Pattern::Cl100k] {
                prop_assert_eq!(
                    ours(pattern, &text),
                    reference(pattern, &text),
                    "{:?}",
                    pattern
                );
            }
            Ok(())
        });
        if let Err(failure) = result {
            panic!("{failure}");
        }
    }
}
