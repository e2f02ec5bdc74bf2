//! Declarations in a type's header parameters: a record's components (`record P(int x, int
//! y)`) and the properties a primary constructor declares (Kotlin's `class User(val name:
//! String)`), listed as the type's first members.

use super::head::Stops;
use super::{signature, Scanner};
use crate::outline::{Entry, Kind};

impl Scanner<'_> {
    /// A record's or primary constructor's components (`record P(int x, int y)`), as fields:
    /// the parameter list right after the name (generics skipped), before `stop`.
    pub(super) fn record_components(
        &self,
        after_name: usize,
        stop: usize,
        end: usize,
    ) -> Vec<Entry> {
        let p = self.skip_generics(self.skip_ws(after_name, end), end);
        let p = self.skip_ws(p, end);
        if self.at(p) != b'(' || p >= stop || self.spec.line_ends {
            return Vec::new();
        }
        let Some(close) = self.close(p, end) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut from = p + 1;
        while from < close {
            let stops = Stops::COMMA;
            let (stop, _) = self.head_stop(from, close, stops);
            let part_start = self.skip_attributes(from, stop);
            // The name ends where a default value starts (`string? Zero = null`): nothing
            // before the default (a type, a name) holds an `=`.
            let part = self.m.get(part_start..stop).unwrap_or(&[]);
            let name_end = memchr::memchr(b'=', part).map_or(stop, |n| part_start + n);
            if let Some((s, e)) = self.word_before(name_end, part_start) {
                let line = self.line(part_start);
                out.push(
                    Entry::new(Kind::Field, self.text(s, e), line, self.line(e))
                        .with_signature(signature(&self.head_text(part_start, name_end))),
                );
            }
            from = stop + 1;
        }
        out
    }

    /// The properties a primary constructor declares, where the language has them: the
    /// parameters written with one of [`super::Spec::constructor_properties`] (`val`, `var`).
    /// The list follows the name, its generics, and any modifiers, annotations and the
    /// `constructor` keyword (`class A<T> @Inject internal constructor(`), before `stop`.
    pub(super) fn constructor_properties(
        &self,
        after_name: usize,
        stop: usize,
        end: usize,
    ) -> Vec<Entry> {
        let words = self.spec.constructor_properties;
        if words.is_empty() {
            return Vec::new();
        }
        let mut p = self.skip_generics(self.skip_ws(after_name, end), end);
        loop {
            p = self.skip_attributes(p, end);
            if p >= stop {
                return Vec::new();
            }
            if self.at(p) == b'(' {
                break;
            }
            match self.word(p, end) {
                Some((word, _, e))
                    if word == "constructor" || self.spec.modifiers.contains(&word) =>
                {
                    p = e
                }
                _ => return Vec::new(),
            }
        }
        let Some(close) = self.close(p, end) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut from = p + 1;
        while from < close {
            let (part_end, _) = self.head_stop(from, close, Stops::COMMA);
            let part_start = self.skip_attributes(from, part_end);
            out.extend(self.constructor_property(part_start, part_end, words));
            from = part_end + 1;
        }
        out
    }

    /// The parameter `start..end` as a property, when one of `words` declares it: named by
    /// the word before its first `:` (`private val name: Type = default`).
    fn constructor_property(&self, start: usize, end: usize, words: &[&str]) -> Option<Entry> {
        let part = self.m.get(start..end)?;
        let colon = start + memchr::memchr(b':', part)?;
        let (s, e) = self.word_before(colon, start)?;
        if !self
            .text(start, s)
            .split_whitespace()
            .any(|w| words.contains(&w))
        {
            return None;
        }
        let declared_end = memchr::memchr(b'=', part).map_or(end, |n| start + n);
        let entry = Entry::new(
            Kind::Property,
            self.text(s, e),
            self.line(s),
            self.last_code_line(start, end),
        );
        Some(entry.with_signature(signature(&self.head_text(start, declared_end))))
    }
}
