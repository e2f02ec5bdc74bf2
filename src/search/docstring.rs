//! `-W` around a use in Python: the docstring that opens the enclosing function is prose about
//! that function, not about how it uses what was searched for. The agent trial's "who calls
//! `_find_error_handler`" answer printed three callers whole, and 57 of their 120 lines were
//! docstrings (`.. versionchanged::` notes included). Its first line stays, as a summary; the
//! rest is left out like any line `-W` does not show (the numbers jump, `--` marks the gap).

use super::EntryRef;
use crate::outline::Kind;
use std::ops::RangeInclusive;

/// Lines of a `def` or `class` header looked at, at most, for the `:` that ends it.
const MAX_HEADER_LINES: usize = 40;

/// The lines of `entry`'s docstring after its first (1-based, within `lines`), when the
/// entry is a Python function, method or class whose body opens with a docstring of more
/// than one line.
pub(super) fn rest_of_docstring(lines: &[&str], entry: &EntryRef) -> Option<RangeInclusive<usize>> {
    if !matches!(entry.kind, Kind::Function | Kind::Method | Kind::Class) {
        return None;
    }
    let header_end = header_end(lines, entry.line)?;
    let first = (header_end + 1..=entry.end_line)
        .find(|&n| lines.get(n - 1).is_some_and(|text| !text.trim().is_empty()))?;
    let opening = lines.get(first - 1)?.trim_start();
    let quotes = opening.trim_start_matches(['r', 'R', 'u', 'U']);
    let delimiter = ["\"\"\"", "'''"]
        .into_iter()
        .find(|d| quotes.starts_with(d))?;
    if quotes[3..].contains(delimiter) {
        return None; // one line
    }
    let last = (first + 1..=entry.end_line).find(|&n| {
        lines
            .get(n - 1)
            .is_some_and(|text| text.contains(delimiter))
    })?;
    Some(first + 1..=last)
}

/// The line where the header starting at `line` ends: its brackets closed and its last code
/// ending with `:`.
fn header_end(lines: &[&str], line: usize) -> Option<usize> {
    let mut depth = 0i32;
    for number in line..line + MAX_HEADER_LINES {
        let text = lines.get(number - 1)?;
        let code = text.split('#').next().unwrap_or_default();
        for byte in code.bytes() {
            match byte {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth -= 1,
                _ => {}
            }
        }
        if depth <= 0 && code.trim_end().ends_with(':') {
            return Some(number);
        }
    }
    None
}

/// `ranges` less the lines of `drop`.
pub(super) fn without(
    ranges: Vec<RangeInclusive<usize>>,
    drop: &RangeInclusive<usize>,
) -> Vec<RangeInclusive<usize>> {
    let mut kept = Vec::with_capacity(ranges.len() + 1);
    for range in ranges {
        let (start, end) = (*range.start(), *range.end());
        if end < *drop.start() || start > *drop.end() {
            kept.push(range);
            continue;
        }
        if start < *drop.start() {
            kept.push(start..=*drop.start() - 1);
        }
        if end > *drop.end() {
            kept.push(*drop.end() + 1..=end);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Language;
    use crate::outline::{Entry, Outline};

    fn method(line: usize, end_line: usize) -> EntryRef {
        let outline = Outline::new(
            Language::Python,
            100,
            0,
            vec![Entry::new(Kind::Method, "handle", line, end_line)],
        );
        EntryRef::of(&outline.entries[0], "1".to_string())
    }

    #[test]
    fn a_docstring_after_a_long_header_is_found_past_its_first_line() {
        let lines = [
            "    def handle(",
            "        self, e: Exception",
            "    ) -> Response:  # note: (",
            "        \"\"\"Handles it.",
            "",
            "        .. versionadded:: 0.3",
            "        \"\"\"",
            "        return self.find(e)",
        ];
        assert_eq!(rest_of_docstring(&lines, &method(1, 8)), Some(5..=7));
        let one_line = [
            "    def handle(self):",
            "        '''Handles it.'''",
            "        pass",
        ];
        assert_eq!(rest_of_docstring(&one_line, &method(1, 3)), None);
        let none = ["    def handle(self):", "        x = '''a", "        b'''"];
        assert_eq!(rest_of_docstring(&none, &method(1, 3)), None);
        let raw = [
            "def handle():",
            "    r\"\"\"A \\d.",
            "    \"\"\"",
            "    pass",
        ];
        assert_eq!(rest_of_docstring(&raw, &method(1, 4)), Some(3..=3));
    }

    #[test]
    fn dropping_lines_splits_the_ranges_they_fall_in() {
        assert_eq!(
            without(vec![1..=10, 12..=14], &(4..=6)),
            [1..=3, 7..=10, 12..=14]
        );
        assert_eq!(
            without(vec![4..=6], &(4..=6)),
            Vec::<RangeInclusive<usize>>::new()
        );
        assert_eq!(without(vec![1..=3], &(4..=6)), [1..=3]);
    }
}
