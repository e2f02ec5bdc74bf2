//! Reading one declaration of a brace language: its attributes, its modifiers, where its
//! statement ends (at `;`, or at a line break that does not continue it in Kotlin and Swift),
//! names written as paths, generics, and operator names.

use super::Scanner;
use crate::parse::cursor::{is_ident_byte, is_ident_start};

/// The bytes [`Scanner::head_stop`] acts on; it passes every other byte.
static HEAD_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let acted_on = b"{([;\"\n=<>,";
    let mut at = 0;
    while at < acted_on.len() {
        table[acted_on[at] as usize] = true;
        at += 1;
    }
    table
};

/// What stopped a scan of a declaration head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stop {
    /// A `{` at depth 0 (the body).
    Body,
    /// `;`, or a line break that ends the statement.
    End,
    /// `=` (not `==`, `=>`, `<=`, …): an initialiser or an expression body.
    Assign,
    /// `=>` (C#'s expression bodies).
    Arrow,
    /// `(` at depth 0.
    Paren,
    /// `,` at depth 0, outside `<…>` (the next declarator).
    Comma,
    /// The end of the region.
    Eof,
}

/// Which stops a head scan reports (an `End` and `Eof` always stop it).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Stops {
    pub(super) body: bool,
    pub(super) assign: bool,
    pub(super) paren: bool,
    pub(super) comma: bool,
}

impl Stops {
    /// A statement's end only.
    pub(super) const END: Stops = Stops {
        body: false,
        assign: false,
        paren: false,
        comma: false,
    };
    /// A type's or an extension's head: up to its body.
    pub(super) const BODY: Stops = Stops {
        body: true,
        ..Stops::END
    };
    /// The next declarator or constant.
    pub(super) const COMMA: Stops = Stops {
        comma: true,
        ..Stops::END
    };
}

impl<'a> Scanner<'a> {
    /// Past the attributes and annotations at `pos` (`@Name(…)`, `@a.b.C`, `@field:Json`,
    /// `[Attr(…)]`), whitespace included. `@interface` is a keyword, not an annotation.
    pub(super) fn skip_attributes(&self, mut pos: usize, end: usize) -> usize {
        loop {
            pos = self.skip_ws(pos, end);
            match self.at(pos) {
                b'@' if self.spec.at_annotations => {
                    let p = pos + 1;
                    if self.word(p, end).is_some_and(|(w, _, _)| w == "interface") {
                        return pos;
                    }
                    if self.at(p) == b'[' {
                        pos = self.skip_group(p, end);
                        continue;
                    }
                    let Some(after) = self.path_end(p, end) else {
                        return pos;
                    };
                    // `@field:Json` and `@get:JvmName`: a use-site target before the name.
                    let mut q = after;
                    if self.at(q) == b':' && self.at(q + 1) != b':' {
                        q = self.path_end(q + 1, end).unwrap_or(q + 1);
                    }
                    q = self.skip_generics(q, end);
                    pos = if self.at(q) == b'(' {
                        self.skip_group(q, end)
                    } else {
                        q
                    };
                }
                b'[' if self.spec.bracket_attributes => pos = self.skip_group(pos, end),
                _ => return pos,
            }
        }
    }

    /// Past spaces and tabs at `pos` (not line breaks, which may end a statement).
    pub(super) fn skip_blanks(&self, mut pos: usize, end: usize) -> usize {
        while pos < end && matches!(self.at(pos), b' ' | b'\t' | b'\r') {
            pos += 1;
        }
        pos
    }

    /// The end of a dotted path of identifiers at `pos` (`a.b.C`), if one starts there.
    pub(super) fn path_end(&self, pos: usize, end: usize) -> Option<usize> {
        let (_, mut e) = self.ident(pos, end)?;
        // PHP writes `App\Models\User`.
        while matches!(self.at(e), b'.' | b'\\') && is_ident_start(self.at(e + 1)) {
            e = self.ident(e + 1, end).map_or(e + 1, |(_, e)| e);
        }
        Some(e)
    }

    /// Past a `<…>` group at `pos` (generics, arrows `->` not counted), or `pos` when none
    /// opens there. Stops at a body, a statement end or a bracket that cannot be inside.
    pub(super) fn skip_generics(&self, pos: usize, end: usize) -> usize {
        if self.at(pos) != b'<' {
            return pos;
        }
        let mut depth = 0usize;
        let mut p = pos;
        while p < end {
            match self.at(p) {
                b'<' => depth += 1,
                b'>' if self.at(p.wrapping_sub(1)) != b'-' => {
                    depth -= 1;
                    if depth == 0 {
                        return p + 1;
                    }
                }
                b'(' | b'[' => {
                    p = self.skip_group(p, end);
                    continue;
                }
                b'{' | b'}' | b';' | b'=' | b')' | b']' => return pos,
                _ => {}
            }
            p += 1;
        }
        pos
    }

    /// Scans a head from `pos` at depth 0 (bracket groups skipped, `<…>` counted for commas)
    /// to the first of `stops`, a statement end or `end`. Returns where it stopped and why.
    pub(super) fn head_stop(&self, mut pos: usize, end: usize, stops: Stops) -> (usize, Stop) {
        let mut angles = 0usize;
        while pos < end {
            // Most bytes of a head (names, types, blanks) stop nothing and count nothing: one
            // search passes them instead of the match below, byte by byte.
            let rest = self.m.get(pos..end.min(self.m.len())).unwrap_or(&[]);
            let Some(skipped) = rest.iter().position(|&b| HEAD_BYTES[usize::from(b)]) else {
                break;
            };
            pos += skipped;
            let byte = self.at(pos);
            match byte {
                b'{' if stops.body => return (pos, Stop::Body),
                b'(' if stops.paren => return (pos, Stop::Paren),
                b'(' | b'[' | b'{' => {
                    pos = self.skip_group(pos, end);
                    continue;
                }
                b';' => return (pos, Stop::End),
                // A multi-line string's line breaks end nothing (its delimiters survive
                // masking, its text does not).
                b'"' if self.spec.line_ends && self.m.get(pos..pos + 3) == Some(b"\"\"\"") => {
                    pos = self
                        .m
                        .get(pos + 3..end.min(self.m.len()))
                        .and_then(|rest| memchr::memmem::find(rest, b"\"\"\""))
                        .map_or(end, |n| pos + 3 + n + 3);
                    continue;
                }
                b'\n' if self.spec.line_ends && !self.continues(pos, end) => {
                    // A body may open on the next line (`class A: B,\n  C\n{`).
                    let next = self.skip_ws(pos, end);
                    if !(stops.body && self.at(next) == b'{') {
                        return (pos, Stop::End);
                    }
                }
                b'=' => {
                    let next = self.at(pos + 1);
                    let prev = self.at(pos.wrapping_sub(1));
                    if next == b'>' && !self.spec.line_ends {
                        if stops.assign {
                            return (pos, Stop::Arrow);
                        }
                    } else if next != b'=' && !b"=!<>+-*/%&|^?:".contains(&prev) && stops.assign {
                        return (pos, Stop::Assign);
                    }
                    // `==`: both bytes are passed.
                    if next == b'=' || next == b'>' {
                        pos += 1;
                    }
                }
                b'<' => angles += 1,
                b'>' if self.at(pos.wrapping_sub(1)) != b'-' => angles = angles.saturating_sub(1),
                b',' if stops.comma && angles == 0 => return (pos, Stop::Comma),
                _ => {}
            }
            pos += 1;
        }
        (end, Stop::Eof)
    }

    /// The end of the statement holding `pos`: its `;` (included) or line break, bracket
    /// groups skipped.
    pub(super) fn statement_end(&self, pos: usize, end: usize) -> usize {
        let (stop, why) = self.head_stop(pos, end, Stops::END);
        match why {
            Stop::End if self.at(stop) == b';' => stop + 1,
            _ => stop,
        }
    }

    /// In a line-ended language, whether the line break at `nl` continues the statement: the
    /// line ends with an operator, a comma or an opening, or the next one starts with a
    /// member access, an operator, `where` or (Kotlin) an accessor.
    pub(super) fn continues(&self, nl: usize, end: usize) -> bool {
        let before = self.m.get(..nl).unwrap_or(&[]);
        let last = before
            .iter()
            .rposition(|b| !matches!(b, b' ' | b'\t' | b'\r'))
            .map(|i| (i, before[i]));
        if let Some((i, byte)) = last {
            let arrow = byte == b'>' && before.get(i.wrapping_sub(1)) == Some(&b'-');
            // Not `?`, `!` nor `*`: an optional type, an unwrapped one and a star import end
            // their lines (`var a: T?`, `import a.*`).
            // `<` too: generics opened at a line's end (`: Hook<\n  suspend A.() -> B\n> {`).
            // `%` and `/` too: an operator's right side follows (a `//` comment is masked).
            if b"=,.([<:+-&|%/".contains(&byte) || arrow {
                return true;
            }
            // A `where` alone at a line's end: its requirements follow (`extension A\nwhere\n
            // Self: B\n{`).
            let line = &before[..=i];
            let infix = self.spec.infix_words.iter().any(|word| {
                let at = line.len().saturating_sub(word.len());
                line.ends_with(word.as_bytes()) && (at == 0 || !is_ident_byte(line[at - 1]))
            });
            if infix {
                return true;
            }
            let word_start = line.len() - 5.min(line.len());
            let lone = word_start == 0 || !is_ident_byte(line[word_start - 1]);
            if line.ends_with(b"where") && lone {
                return true;
            }
        }
        let next = self.skip_ws(nl, end);
        match self.at(next) {
            // `>` too: the generics a line-end `<` opened close (`    > {`).
            b'.' | b'?' | b':' | b'=' | b'&' | b'|' | b'+' | b'*' | b'/' | b'%' | b'>' => true,
            b'-' => self.at(next + 1) == b'>',
            _ => self
                .word(next, end)
                .is_some_and(|(w, _, _)| w == "where" || self.spec.continuation_words.contains(&w)),
        }
    }

    /// The line of the last code byte before `pos` (a statement's end line).
    pub(super) fn last_code_line(&self, start: usize, pos: usize) -> usize {
        let bytes = self.m.get(start..pos.min(self.m.len())).unwrap_or(&[]);
        let last = bytes
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())
            .map_or(start, |i| start + i);
        self.line(last)
    }

    /// A declared name at `pos`: an identifier, a backticked one (`` `test name` ``, Kotlin
    /// and Swift), or (where `operators`) a run of operator characters (`==`, `<*>`).
    pub(super) fn declared_name(
        &self,
        pos: usize,
        end: usize,
        operators: bool,
    ) -> Option<(String, usize)> {
        if self.at(pos) == b'`' {
            let rest = self.m.get(pos + 1..end.min(self.m.len()))?;
            let close = rest.iter().position(|b| *b == b'`' || *b == b'\n')?;
            let name = self.text(pos + 1, pos + 1 + close);
            return (rest[close] == b'`' && !name.is_empty())
                .then(|| (name.to_string(), pos + close + 2));
        }
        if let Some((s, e)) = self.ident(pos, end) {
            return Some((self.text(s, e).to_string(), e));
        }
        if !operators {
            return None;
        }
        let len = self
            .m
            .get(pos..end.min(self.m.len()))?
            .iter()
            .take_while(|b| b"=!<>+-*/%&|^~?.".contains(b))
            .count();
        (len > 0).then(|| (self.text(pos, pos + len).to_string(), pos + len))
    }

    /// The word before `pos` (whitespace skipped), for names read backwards from `(`.
    pub(super) fn word_before(&self, pos: usize, start: usize) -> Option<(usize, usize)> {
        let mut e = pos;
        while e > start && self.at(e - 1).is_ascii_whitespace() {
            e -= 1;
        }
        // `Foo<T>(`: the name is before the generics.
        if e > start && self.at(e - 1) == b'>' {
            let mut depth = 0usize;
            let mut p = e;
            while p > start {
                p -= 1;
                match self.at(p) {
                    b'>' => depth += 1,
                    b'<' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
            }
            e = p;
            while e > start && self.at(e - 1).is_ascii_whitespace() {
                e -= 1;
            }
        }
        let mut s = e;
        while s > start && is_ident_byte(self.at(s - 1)) {
            s -= 1;
        }
        (s < e && is_ident_start(self.at(s))).then_some((s, e))
    }
}
