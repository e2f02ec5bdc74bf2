//! Near names for a `--find` that matched nothing: the definitions whose name is within a
//! few edits of the query's, best first. They need every definition's name, and outlining
//! a whole tree to learn them cost a miss 14x a hit (6.4 s against 0.44 s on cargo's
//! registry). Most files cannot hold a near name, and their text tells cheaply: a code
//! file's definition names are identifiers written in it, so a file whose words are all
//! too far from the query is skipped without being outlined ([`NearWords`]).

use super::FindQuery;
use crate::lang::Language;
use crate::parse::Family;
use compact_str::CompactString;

/// How many near names a failed search suggests.
pub(super) const NEAREST: usize = 10;

/// Up to how many punctuation bytes a definition name may add to the identifier written in
/// the text (`$x` in PHP, `~T` for a destructor, `empty?`, `operator==`): a file's words are
/// tried with this much more room, so that such a name's file is never skipped.
const PUNCTUATION_SLACK: usize = 2;

/// What a near name is: the query's last part, lower case, and how many edits it may differ
/// by (a third of its length, at least 2).
#[derive(Debug, Clone)]
pub(super) struct Nearness {
    wanted: String,
    limit: usize,
}

impl Nearness {
    pub(super) fn of(query: &FindQuery) -> Option<Nearness> {
        let wanted = query.parts.last()?.to_lowercase();
        let limit = (wanted.chars().count() / 3).max(2);
        Some(Nearness { wanted, limit })
    }

    /// How many edits `name` is from the query, when it is near; `lower` is scratch space.
    fn distance(&self, name: &str, limit: usize, lower: &mut String) -> Option<usize> {
        if name.len().abs_diff(self.wanted.len()) > limit {
            return None;
        }
        lower.clear();
        lower.extend(name.chars().flat_map(char::to_lowercase));
        let distance = strsim::levenshtein(lower, &self.wanted);
        (distance <= limit).then_some(distance)
    }
}

/// The names nearest the query's last part, at most [`NEAREST`], best first.
pub(super) fn near_names(names: &[CompactString], query: &FindQuery) -> Vec<(usize, String)> {
    let Some(nearness) = Nearness::of(query) else {
        return Vec::new();
    };
    let mut lower = String::new();
    let mut near: Vec<(usize, String)> = names
        .iter()
        .filter_map(|name| {
            let distance = nearness.distance(name, nearness.limit, &mut lower)?;
            Some((distance, name.to_string()))
        })
        .collect();
    near.sort();
    near.dedup_by(|a, b| a.1 == b.1);
    near.truncate(NEAREST);
    near
}

/// Adds one file's near names to those kept, keeping the best [`NEAREST`].
pub(super) fn merge_nearest(into: &mut Vec<(usize, String)>, more: Vec<(usize, String)>) {
    if more.is_empty() {
        return;
    }
    into.extend(more);
    into.sort();
    into.dedup_by(|a, b| a.1 == b.1);
    into.truncate(NEAREST);
}

/// Tells from a file's text whether it may define a near name, without outlining it.
#[derive(Debug, Clone)]
pub(super) struct NearWords {
    nearness: Nearness,
    /// How often each byte occurs in the lower-case query: a word's letters tell a lower
    /// bound of its edit distance before the distance itself is computed ([`Self::bag_distance`]).
    counts: [u16; 256],
    /// Each byte's class: a separator between words, a word byte the query holds, or a
    /// word byte it lacks (each one in a word is an edit at least).
    classes: [ByteClass; 256],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ByteClass {
    Separator,
    InQuery,
    NotInQuery,
}

impl NearWords {
    pub(super) fn new(query: &FindQuery) -> Option<NearWords> {
        let nearness = Nearness::of(query)?;
        let mut counts = [0u16; 256];
        for byte in nearness.wanted.bytes() {
            counts[usize::from(byte)] = counts[usize::from(byte)].saturating_add(1);
        }
        let classes = std::array::from_fn(|byte| {
            let byte = u8::try_from(byte).unwrap_or_default();
            match byte.is_ascii_alphanumeric() || byte == b'_' || byte >= 0x80 {
                false => ByteClass::Separator,
                true if counts[usize::from(byte.to_ascii_lowercase())] > 0 => ByteClass::InQuery,
                true => ByteClass::NotInQuery,
            }
        });
        Some(NearWords {
            nearness,
            counts,
            classes,
        })
    }

    /// The bag distance of `word` (ASCII-lowered) from the query: how many of its bytes the
    /// query lacks or the other way round, whichever is more. One edit changes each count by
    /// at most one, so it is never more than the edit distance, and most words of a file are
    /// told far by it in a few instructions a byte.
    fn bag_distance(&self, word: &[u8], counts: &mut [u16; 256]) -> usize {
        let mut extra = 0;
        for byte in word {
            let slot = &mut counts[usize::from(byte.to_ascii_lowercase())];
            match slot.checked_sub(1) {
                Some(left) => *slot = left,
                None => extra += 1,
            }
        }
        // Restore the counts for the next word.
        for byte in word {
            let at = usize::from(byte.to_ascii_lowercase());
            counts[at] = self.counts[at];
        }
        let missing = self.nearness.wanted.len() - (word.len() - extra);
        extra.max(missing)
    }

    /// Whether a file of `language` holding `bytes` may define a near name. Only code files
    /// are judged by their words: a heading, a key, a selector or a table's name is not one
    /// identifier (`Getting started`, `server.port`), so those files are always outlined.
    /// A code definition named by a string (an RSpec `describe "..."`, a bats `@test`) is not
    /// a word either and is not suggested from a file that holds no near word.
    pub(super) fn may_define(&self, language: Option<Language>, bytes: &[u8]) -> bool {
        let judged_by_words = language.is_some_and(|language| {
            !matches!(
                language.row().family,
                Family::Css
                    | Family::Data
                    | Family::Docker
                    | Family::Html
                    | Family::Make
                    | Family::Markdown
                    | Family::Sql
            )
        });
        !judged_by_words || self.holds_near_word(bytes)
    }

    /// Whether some word of `bytes` (a run of letters, digits, `_` and non-ASCII) is within
    /// the query's limit plus [`PUNCTUATION_SLACK`] edits of it. A name within the limit
    /// that is such a word plus at most that much punctuation is within that many edits of
    /// its word, so no file holding a near name is skipped. One pass over the bytes counts
    /// each word's bytes the query lacks; the few words that length and that count leave
    /// are told by their bag distance, and only then by their edit distance.
    fn holds_near_word(&self, bytes: &[u8]) -> bool {
        let limit = self.nearness.limit + PUNCTUATION_SLACK;
        let wanted = self.nearness.wanted.len();
        let mut lower = String::new();
        let mut counts = self.counts;
        // Called for the few words that length and lacking bytes leave.
        let mut near = |word: &[u8]| {
            self.bag_distance(word, &mut counts) <= limit && {
                let word = String::from_utf8_lossy(word);
                self.nearness.distance(&word, limit, &mut lower).is_some()
            }
        };
        let (mut start, mut lacking) = (0, 0);
        for (at, byte) in bytes.iter().enumerate() {
            match self.classes[usize::from(*byte)] {
                ByteClass::Separator => {
                    let word = &bytes[start..at];
                    if lacking <= limit && word.len().abs_diff(wanted) <= limit && near(word) {
                        return true;
                    }
                    (start, lacking) = (at + 1, 0);
                }
                ByteClass::InQuery => {}
                ByteClass::NotInQuery => lacking += 1,
            }
        }
        let word = bytes.get(start..).unwrap_or_default();
        lacking <= limit && word.len().abs_diff(wanted) <= limit && near(word)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(text: &str) -> FindQuery {
        FindQuery::parse(text, &[]).expect("valid")
    }

    #[test]
    fn nearest_names_by_edit_distance() {
        let names: Vec<CompactString> = ["set_string", "set_style", "get", "setstringn"]
            .iter()
            .map(|s| CompactString::from(*s))
            .collect();
        let near: Vec<String> = near_names(&names, &query("set_stringn"))
            .into_iter()
            .map(|n| n.1)
            .collect();
        assert_eq!(near, ["set_string", "setstringn"]);
    }

    #[test]
    fn a_code_file_is_outlined_only_when_a_word_is_near() {
        let near = NearWords::new(&query("ContainerCreate")).expect("a name");
        let rust = Some(Language::Rust);
        assert!(near.may_define(rust, b"fn container_create() {}"));
        assert!(near.may_define(rust, b"impl X { fn ContainerCreat(&self) {} }"));
        assert!(!near.may_define(rust, b"fn start() { let create = 1; }"));
        // Punctuation a name adds to its word: `$containerCreat` in PHP.
        let short = NearWords::new(&query("emptyq")).expect("a name");
        assert!(short.may_define(Some(Language::Ruby), b"def empty?; end"));
    }

    #[test]
    fn files_whose_names_are_not_words_are_always_outlined() {
        let near = NearWords::new(&query("getting_started")).expect("a name");
        assert!(near.may_define(Some(Language::Markdown), b"# Nothing alike\n"));
        assert!(near.may_define(None, b"whatever"));
        assert!(!near.may_define(Some(Language::Python), b"def other(): pass\n"));
    }
}
