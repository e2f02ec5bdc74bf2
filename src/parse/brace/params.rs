//! Declarations in parameter lists: a record's components (`record P(int x, int y)`) and the
//! properties a constructor declares (Kotlin's primary `class User(val name: String)`, PHP's
//! promoted `__construct(private float $x)`), listed as members of the type.

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
        if self.spec.constructor_properties.words.is_empty() {
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
        self.parameter_properties(p, end)
    }

    /// The properties the parameter list opening at `open` declares: each parameter written
    /// with one of [`super::Spec::constructor_properties`].
    pub(super) fn parameter_properties(&self, open: usize, end: usize) -> Vec<Entry> {
        let Some(close) = self.close(open, end) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut from = open + 1;
        while from < close {
            let (part_end, _) = self.head_stop(from, close, Stops::COMMA);
            let part_start = self.skip_attributes(from, part_end);
            out.extend(self.parameter_property(part_start, part_end));
            from = part_end + 1;
        }
        out
    }

    /// The parameter `start..end` as a property, when one of the row's words declares it:
    /// named by its `$name` where names carry a sigil (`private float $x = 0.0`), else by the
    /// word before its first `:` (`private val name: Type = default`).
    fn parameter_property(&self, start: usize, end: usize) -> Option<Entry> {
        let part = self.m.get(start..end)?;
        let (s, e) = match self.spec.sigil {
            Some(sigil) => {
                let at = start + memchr::memchr(sigil, part)?;
                let (_, e) = self.ident(at + 1, end)?;
                (at, e)
            }
            None => self.word_before(start + memchr::memchr(b':', part)?, start)?,
        };
        let members = self.spec.constructor_properties;
        if !self
            .text(start, s)
            .split_whitespace()
            .any(|w| members.words.contains(&w))
        {
            return None;
        }
        let declared_end = memchr::memchr(b'=', part).map_or(end, |n| start + n);
        let entry = Entry::new(
            members.kind,
            self.text(s, e),
            self.line(s),
            self.last_code_line(start, end),
        );
        Some(entry.with_signature(signature(&self.head_text(start, declared_end))))
    }
}
