//! The names a destructuring pattern binds (`{ a, b: c, ...rest }`, `[d, , e = 1]`, nested):
//! each is a declared name of its statement, as `A, B = 1, 2` is in Python.

use super::*;

impl Scanner<'_> {
    /// The byte ranges of the names bound by the pattern whose bracket opens at `open` and
    /// closes at `close`, in source order.
    pub(super) fn pattern_names(&self, open: usize, close: usize) -> Vec<(usize, usize)> {
        let mut names = Vec::new();
        self.pattern(open, close, 0, &mut names);
        names
    }

    fn pattern(&self, open: usize, close: usize, nesting: usize, out: &mut Vec<(usize, usize)>) {
        // A stack guard: junk input could nest brackets without end.
        if nesting > MAX_NESTING {
            return;
        }
        let object = self.at(open) == b'{';
        let mut i = open + 1;
        while i < close {
            let item_end = self.list_item_end(i, close);
            let mut s = self.skip_ws(i, item_end);
            if self.m.get(s..s + 3) == Some(b"...") {
                s = self.skip_ws(s + 3, item_end);
            } else if object {
                // `key: target` binds the target; a shorthand `key` (`= default` or not)
                // binds the key itself.
                if let Some(colon) = self.top_level_colon(s, item_end) {
                    s = self.skip_ws(colon + 1, item_end);
                }
            }
            self.target(s, item_end, nesting, out);
            i = item_end + 1;
        }
    }

    /// One binding target at `s` (before `item_end`): a name, or a nested pattern.
    fn target(&self, s: usize, item_end: usize, nesting: usize, out: &mut Vec<(usize, usize)>) {
        match self.at(s) {
            b'{' | b'[' if s < item_end => {
                if let Some(c) = self.close_of(s, item_end) {
                    self.pattern(s, c, nesting + 1, out);
                }
            }
            _ => {
                let e = self.word_end(s, item_end);
                // A word that starts with a digit is a key or a value, never a binding.
                if e > s && !self.at(s).is_ascii_digit() {
                    out.push((s, e));
                }
            }
        }
    }

    /// The `,` ending the list item at `i` (brackets inside skipped), or `close`.
    fn list_item_end(&self, mut i: usize, close: usize) -> usize {
        while i < close {
            match self.at(i) {
                b',' => return i,
                b'(' | b'[' | b'{' => i = self.close_of(i, close).unwrap_or(close),
                _ => {}
            }
            i += 1;
        }
        close
    }

    /// The `:` of a `key: target` item in `s..item_end` (a computed `[key]` skipped), before
    /// any `=` default.
    fn top_level_colon(&self, mut i: usize, item_end: usize) -> Option<usize> {
        while i < item_end {
            match self.at(i) {
                b':' => return Some(i),
                b'=' => return None,
                b'(' | b'[' | b'{' => i = self.close_of(i, item_end)?,
                _ => {}
            }
            i += 1;
        }
        None
    }
}
