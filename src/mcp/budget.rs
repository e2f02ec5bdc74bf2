//! Token budgets: where an answer must be cut so that it fits `max_tokens` (o200k, counted by
//! [`crate::tokens`]), always at a line boundary, since every line of an answer is one entry,
//! one source line or one result.

use crate::tokens::Tokenizer;

/// The encoding budgets are counted in: the one current models use.
const TOKENIZER: Tokenizer = Tokenizer::O200k;

/// Tokens in `text`.
pub fn count(text: &str) -> usize {
    TOKENIZER.count(text)
}

/// Whether `text` fits in `max` tokens. A token is at least one byte, so text no longer than
/// `max` bytes fits without loading the vocabulary (most answers are never counted), and a
/// longer one is counted only until the answer is known.
pub fn fits(text: &str, max: usize) -> bool {
    TOKENIZER.fits(text, max)
}

/// The byte offset of the first line of `text` that does not fit in `max` tokens, or `None`
/// when all of it fits. Lines are counted one by one and the counting stops at the cut, so a
/// long answer costs about `max` tokens of counting, not its whole length.
pub fn cut_point(text: &str, max: usize) -> Option<usize> {
    if text.len() <= max {
        return None;
    }
    let mut used = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        used += count(line);
        if used > max {
            return Some(back_to_fit(text, offset, max));
        }
        offset += line.len();
    }
    None
}

/// A line's tokens counted alone can differ by a token or two from the same line counted in
/// context; step back whole lines until the prefix counted as one text fits.
fn back_to_fit(text: &str, mut offset: usize, max: usize) -> usize {
    while offset > 0 && !fits(&text[..offset], max) {
        offset = text[..offset - 1]
            .rfind('\n')
            .map_or(0, |newline| newline + 1);
    }
    offset
}

/// The longest prefix of one over-long line (a minified file's only line, say) that fits in
/// `max` tokens, ending on a character boundary.
pub fn line_prefix(line: &str, max: usize) -> &str {
    if fits(line, max) {
        return line;
    }
    // Invariant: the prefix up to `good` fits, the one up to `bad` does not.
    let (mut good, mut bad) = (0, line.len());
    while bad - good > 1 {
        let middle = (good + bad) / 2;
        if fits(&line[..floor_char_boundary(line, middle)], max) {
            good = middle;
        } else {
            bad = middle;
        }
    }
    &line[..floor_char_boundary(line, good)]
}

fn floor_char_boundary(text: &str, mut index: usize) -> usize {
    index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_fits_without_counting() {
        assert!(fits("abc", 3));
        assert_eq!(cut_point("one\ntwo\n", 100), None);
    }

    #[test]
    fn cuts_fall_on_line_boundaries_and_fit() {
        let text: String = (0..200)
            .map(|i| format!("line number {i} of many\n"))
            .collect();
        let cut = cut_point(&text, 150).expect("over budget");
        assert!(cut > 0 && text[..cut].ends_with('\n'));
        assert!(count(&text[..cut]) <= 150);
        // The next line would not have fitted.
        let next = text[cut..].find('\n').expect("more lines") + cut + 1;
        assert!(count(&text[..next]) > 150);
    }

    #[test]
    fn an_over_long_line_is_cut_inside_on_a_char_boundary() {
        let line = "é".repeat(5000);
        let prefix = line_prefix(&line, 100);
        assert!(count(prefix) <= 100 && prefix.chars().count() > 50);
        assert!(count(&line[..prefix.len() + 2]) > 100);
    }
}
