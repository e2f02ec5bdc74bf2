//! Oracle PL/SQL units that hold routines: `CREATE [OR REPLACE] PACKAGE [BODY] name IS|AS …
//! END name;` and `CREATE TYPE BODY name AS … END;`. Their functions and procedures are the
//! unit's children, as a class's methods are.

use super::scan::Tok;
use super::Head;
use crate::outline::{Entry, Kind};
use crate::parse::LineIndex;

/// Words that may lead a member routine of a type body (`MAP MEMBER FUNCTION`, …).
const MEMBER_PREFIXES: &[&str] = &[
    "MEMBER",
    "STATIC",
    "CONSTRUCTOR",
    "MAP",
    "ORDER",
    "FINAL",
    "INSTANTIABLE",
    "OVERRIDING",
    "NOT",
];

/// `END` followed by one of these closes a statement, not a block.
const END_OF_STATEMENT: &[&str] = &["IF", "LOOP", "WHILE", "REPEAT", "FOR"];

impl Head<'_> {
    /// The routines declared or defined at the top level of the unit whose head starts at
    /// token `from` (its name): after the unit's `IS`/`AS`, up to its last `END`.
    pub(super) fn unit_members(&self, from: usize, index: &LineIndex) -> Vec<Entry> {
        let Some(body) = (from..self.tokens.len()).find(|&i| self.is_any(i, &["IS", "AS"])) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut i = body + 1;
        while i < self.tokens.len() {
            if self.is_punct(i, b'(') {
                i = self.skip_group(i);
                continue;
            }
            let starts_member = self.is_any(i, &["FUNCTION", "PROCEDURE"])
                && !(i > 0 && self.is_any(i - 1, &["DROP", "ALTER"]));
            if !starts_member {
                // The unit's initialization block: nothing below it is a member.
                if self.is(i, "BEGIN") {
                    break;
                }
                i += 1;
                continue;
            }
            let start = self.member_start(i, body + 1);
            let (entry, next) = self.member(start, i, index);
            out.extend(entry);
            i = next.max(i + 1);
        }
        out
    }

    /// The first token of the member whose `FUNCTION`/`PROCEDURE` keyword is at `key`: its
    /// prefixes (`MAP MEMBER`, `OVERRIDING`), not before `floor`.
    fn member_start(&self, key: usize, floor: usize) -> usize {
        let mut start = key;
        while start > floor && self.is_any(start - 1, MEMBER_PREFIXES) {
            start -= 1;
        }
        start
    }

    /// The member routine at `start` (keyword at `key`) and the token after it: a spec's
    /// declaration ends at its `;`, a body's definition at the `;` after its `END`.
    fn member(&self, start: usize, key: usize, index: &LineIndex) -> (Option<Entry>, usize) {
        let Some((name, after)) = self.name(key + 1) else {
            return (None, key + 1);
        };
        let mut i = after;
        // The head: parameters, `RETURN type`, options, up to `IS`/`AS` or `;`.
        while i < self.tokens.len() && !self.is_punct(i, b';') && !self.is_any(i, &["IS", "AS"]) {
            if self.is_punct(i, b'(') {
                i = self.skip_group(i);
            } else {
                i += 1;
            }
        }
        let head_end = i;
        let last = if self.is_punct(i, b';') {
            i
        } else {
            self.routine_body_end(i + 1)
        };
        let kind = if self.is(key, "PROCEDURE") {
            Kind::Procedure
        } else {
            Kind::Function
        };
        let line = |k: usize| {
            self.tok(k.min(self.tokens.len().saturating_sub(1)))
                .map_or(1, |t| index.line_of(t.start))
        };
        let entry = Entry::new(kind, name, line(start), line(last))
            .with_signature(self.joined(start, head_end));
        (Some(entry), last + 1)
    }

    /// After a member's `IS`/`AS` at `from`: the `;` ending its definition (after the `END`
    /// that closes its `BEGIN`), or the one ending an external one (`AS LANGUAGE C …;`).
    fn routine_body_end(&self, from: usize) -> usize {
        let mut depth = 0usize;
        let mut opened = false;
        let mut i = from;
        while i < self.tokens.len() {
            if self.is_punct(i, b';') && depth == 0 && (opened || self.external(from)) {
                return i;
            }
            if self.is(i, "BEGIN") || self.is(i, "CASE") {
                depth += 1;
                opened = true;
            } else if self.is(i, "END") && !self.is_any(i + 1, END_OF_STATEMENT) {
                depth = depth.saturating_sub(1);
            }
            i += 1;
        }
        self.tokens.len().saturating_sub(1)
    }

    /// Whether the routine body at `from` is a call specification (`LANGUAGE C`, `EXTERNAL`),
    /// which has no `BEGIN … END`.
    fn external(&self, from: usize) -> bool {
        self.is_any(from, &["LANGUAGE", "EXTERNAL"])
            || self.tok(from).is_some_and(|t| t.kind == Tok::Punct(b';'))
    }
}
