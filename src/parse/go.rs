//! Go outline scanner.
//!
//! Walks the top-level declarations of masked text (comments and literal contents blanked):
//! `func` (methods named `T.Name` / `(*T).Name`), every `type` spec, every name of a `const` /
//! `var` spec (groups included, the group itself not listed). Function bodies are skipped as
//! brace groups; a spec ends where Go's automatic semicolon insertion ends it.

use crate::outline::{Entry, Kind};
use crate::parse::cursor::{is_ident_byte, Cursor};
use crate::parse::lex::{self, Backtick, LexSpec};
use crate::parse::signature;

pub(crate) const SPEC: LexSpec = LexSpec {
    backtick: Backtick::Raw,
    ..LexSpec::C_LIKE
};

/// Outlines Go source.
pub(crate) fn parse(text: &str) -> Vec<Entry> {
    let masked = lex::mask(text, &SPEC);
    let scanner = Scanner {
        cur: Cursor::new(text, &masked),
    };
    scanner.top_level()
}

struct Scanner<'a> {
    cur: Cursor<'a>,
}

impl<'a> std::ops::Deref for Scanner<'a> {
    type Target = Cursor<'a>;

    fn deref(&self) -> &Cursor<'a> {
        &self.cur
    }
}

impl<'a> Scanner<'a> {
    /// Skips spaces and tabs only (not newlines).
    fn skip_blank(&self, mut pos: usize, end: usize) -> usize {
        while pos < end && matches!(self.at(pos), b' ' | b'\t' | b'\r') {
            pos += 1;
        }
        pos
    }

    /// Position after a quoted literal starting at `pos` (contents are masked, so the next
    /// same quote closes it).
    fn skip_quoted(&self, pos: usize, end: usize) -> usize {
        let quote = self.at(pos);
        let rest = self.m.get(pos + 1..end.min(self.m.len())).unwrap_or(&[]);
        rest.iter()
            .position(|b| *b == quote || (quote != b'`' && *b == b'\n'))
            .map_or(end, |n| pos + 1 + n + 1)
    }

    /// End of the line holding `pos` (the `\n` position or `end`).
    fn line_end(&self, pos: usize, end: usize) -> usize {
        self.m
            .get(pos.min(end)..end.min(self.m.len()))
            .and_then(|rest| memchr::memchr(b'\n', rest))
            .map_or(end, |n| pos + n)
    }

    fn top_level(&self) -> Vec<Entry> {
        let end = self.len();
        let mut out = Vec::new();
        let mut pos = 0;
        while pos < end {
            pos = self.skip_ws(pos, end);
            if pos >= end {
                break;
            }
            let byte = self.at(pos);
            if let Some((w, _, we)) = self.word(pos, end) {
                let next = match w {
                    "func" => self.func_decl(pos, we, end, &mut out),
                    "type" => self.type_decl(pos, we, end, &mut out),
                    "const" => self.value_decl(we, end, Kind::Constant, &mut out),
                    "var" => self.value_decl(we, end, Kind::Variable, &mut out),
                    "import" => {
                        let p = self.skip_ws(we, end);
                        if self.at(p) == b'(' {
                            self.skip_group(p, end)
                        } else {
                            self.line_end(p, end)
                        }
                    }
                    "package" => self.line_end(we, end),
                    _ => we,
                };
                pos = next.max(we);
            } else if matches!(byte, b'"' | b'\'' | b'`') {
                pos = self.skip_quoted(pos, end);
            } else if byte == b'{' {
                pos = self.close(pos, end).map_or(pos + 1, |c| c + 1);
            } else {
                pos += 1;
            }
        }
        out
    }

    /// `func [(recv)] Name[T any](params) results { body }`; `we` is the end of `func`.
    fn func_decl(&self, start: usize, we: usize, end: usize, out: &mut Vec<Entry>) -> usize {
        let mut p = self.skip_ws(we, end);
        let mut receiver = None;
        if self.at(p) == b'(' {
            let Some(c) = self.close(p, end) else {
                return p + 1;
            };
            receiver = Some(self.code_text(p + 1, c));
            p = self.skip_ws(c + 1, end);
        }
        let Some((name, _, name_end)) = self.word(p, end) else {
            return p;
        };
        let (sig_end, last, next) = self.func_rest(name_end, end);
        let name = match &receiver {
            Some(recv) => method_name(recv, name),
            None => name.to_string(),
        };
        let kind = if receiver.is_some() {
            Kind::Method
        } else {
            Kind::Function
        };
        let mut entry = Entry::new(kind, name, self.line(start), self.line(last))
            .with_signature(signature(&self.code_text(we, sig_end)));
        if self.at(sig_end) == b'{' && sig_end < last {
            entry = entry.with_children(self.local_types(sig_end + 1, last));
        }
        out.push(entry);
        next
    }

    /// Type declarations inside a function body (`type pair struct{…}` in a func). `type` is a
    /// keyword, so every occurrence outside `x.(type)` starts one.
    fn local_types(&self, start: usize, end: usize) -> Vec<Entry> {
        let mut out = Vec::new();
        let mut pos = start;
        while let Some(n) = self
            .m
            .get(pos..end.min(self.m.len()))
            .and_then(|body| memchr::memmem::find(body, b"type"))
        {
            let at = pos + n;
            let we = at + 4;
            let before = self.m.get(start..at).unwrap_or(&[]).trim_ascii_end();
            let starts_statement = !is_ident_byte(self.at(at.wrapping_sub(1)))
                && !matches!(before.last(), Some(b'(' | b'.'))
                && self.at(we).is_ascii_whitespace();
            pos = if starts_statement {
                self.type_decl(at, we, end, &mut out).max(we)
            } else {
                we
            };
        }
        out
    }

    /// After a func name: `(signature end, last byte of the decl, resume position)`.
    fn func_rest(&self, mut pos: usize, end: usize) -> (usize, usize, usize) {
        let mut last_sig = pos.saturating_sub(1);
        while pos < end {
            match self.at(pos) {
                b'(' | b'[' => {
                    pos = self.skip_group(pos, end);
                    last_sig = pos - 1;
                    continue;
                }
                b'{' if self.after_type_keyword(pos) => {
                    pos = self.skip_group(pos, end);
                    last_sig = pos - 1;
                    continue;
                }
                b'{' => {
                    let close = self
                        .close(pos, end)
                        .or_else(|| self.column0_brace(pos, end));
                    return match close {
                        Some(c) => (pos, c, c + 1),
                        None => (pos, end.saturating_sub(1), end),
                    };
                }
                b'\n' => return (last_sig + 1, last_sig, pos + 1),
                b'"' | b'`' | b'\'' => {
                    pos = self.skip_quoted(pos, end);
                    last_sig = pos - 1;
                    continue;
                }
                byte if !byte.is_ascii_whitespace() => last_sig = pos,
                _ => {}
            }
            pos += 1;
        }
        (end, last_sig.min(end.saturating_sub(1)), end)
    }

    /// Fallback for an unbalanced body: the next `}` at the start of a line.
    fn column0_brace(&self, open: usize, end: usize) -> Option<usize> {
        let rest = self.m.get(open..end.min(self.m.len()))?;
        memchr::memmem::find(rest, b"\n}").map(|n| open + n + 1)
    }

    /// Whether the `{` at `pos` opens a `struct{…}` / `interface{…}` type literal.
    fn after_type_keyword(&self, pos: usize) -> bool {
        let before = self.m.get(..pos).unwrap_or(&[]);
        let trimmed = before.trim_ascii_end();
        (trimmed.ends_with(b"struct") || trimmed.ends_with(b"interface")) && {
            let n = trimmed.len();
            let kw = if trimmed.ends_with(b"struct") { 6 } else { 9 };
            n == kw || !is_ident_byte(trimmed.get(n - kw - 1).copied().unwrap_or(b' '))
        }
    }

    /// `type Spec` or `type ( Spec… )`; `we` is the end of `type`. A lone spec is listed from
    /// the line of `type` (at `start`), a grouped one from its own line.
    fn type_decl(&self, start: usize, we: usize, end: usize, out: &mut Vec<Entry>) -> usize {
        self.specs(we, end, |pos, limit, grouped| {
            let first = if grouped { pos } else { start };
            self.type_spec(first, pos, limit, out)
        })
    }

    /// `const`/`var` spec or group; `we` is the end of the keyword.
    fn value_decl(&self, we: usize, end: usize, kind: Kind, out: &mut Vec<Entry>) -> usize {
        self.specs(we, end, |pos, limit, _| {
            self.value_spec(pos, limit, kind, out)
        })
    }

    /// After a `type`, `const` or `var` keyword ending at `we`: one spec, or a `( … )` group of
    /// them. `spec(pos, limit, grouped)` reads the spec starting at `pos` (ending by `limit`)
    /// and says where scanning resumes; returns where it resumes after the whole declaration.
    fn specs(
        &self,
        we: usize,
        end: usize,
        mut spec: impl FnMut(usize, usize, bool) -> usize,
    ) -> usize {
        let p = self.skip_ws(we, end);
        if self.at(p) != b'(' {
            return spec(p, end, false);
        }
        let group_end = self.close(p, end).unwrap_or(end);
        let mut q = p + 1;
        while q < group_end {
            q = self.skip_ws(q, group_end);
            if q >= group_end {
                break;
            }
            q = if self.ident(q, group_end).is_some() {
                spec(q, group_end, true).max(q + 1)
            } else {
                q + 1
            };
        }
        (group_end + 1).min(end.max(group_end))
    }

    /// One type spec at `pos`, listed from line of `start`; returns the resume position.
    fn type_spec(&self, start: usize, pos: usize, limit: usize, out: &mut Vec<Entry>) -> usize {
        let Some((name, _, name_end)) = self.word(pos, limit) else {
            return pos + 1;
        };
        let mut p = name_end;
        if self.at(p) == b'[' {
            p = self.skip_group(p, limit);
        }
        p = self.skip_blank(p, limit);
        if self.at(p) == b'=' {
            p = self.skip_blank(p + 1, limit);
        }
        let (kind, sig_end, body) = match self.word(p, limit) {
            // The kind names the keyword: `Server struct` -> `Server`.
            Some(("struct", s, e)) => (Kind::Struct, s, self.body(e, limit)),
            Some(("interface", s, e)) => (Kind::Interface, s, self.body(e, limit)),
            _ => (Kind::Type, 0, None),
        };
        let members = body.map_or_else(Vec::new, |(open, close)| self.members(kind, open, close));
        let (last, next) = self.spec_end(pos, limit);
        let sig_end = if sig_end == 0 {
            self.line_end(pos, limit).min(last + 1)
        } else {
            sig_end
        };
        out.push(
            Entry::new(kind, name, self.line(start), self.line(last))
                .with_signature(signature(
                    self.code_text(pos, sig_end)
                        .trim_end_matches(['=', ' ', '\t']),
                ))
                .with_children(members),
        );
        next
    }

    /// The braces of the `struct{…}` / `interface{…}` body after its keyword (ending at
    /// `from`), if it has one.
    fn body(&self, from: usize, limit: usize) -> Option<(usize, usize)> {
        let open = self.skip_ws(from, limit);
        let close = (self.at(open) == b'{').then(|| self.close(open, limit))??;
        Some((open, close))
    }

    /// A struct's fields (one per name; an embedded type by its last name, `*pkg.T` as `T`)
    /// or an interface's methods (embedded interfaces and type sets are not listed), read
    /// declaration by declaration between the braces `open` and `close`.
    fn members(&self, kind: Kind, open: usize, close: usize) -> Vec<Entry> {
        let mut out = Vec::new();
        let mut q = open + 1;
        while q < close {
            q = self.skip_ws(q, close);
            if q >= close {
                break;
            }
            let (last, next) = self.spec_end(q, close);
            let end_line = self.line(last.max(q));
            // Up to a field's tag: `json:"name"` is no part of what a field is.
            let text_end = (q..=last)
                .find(|&i| matches!(self.at(i), b'"' | b'`'))
                .unwrap_or(last + 1);
            let sig = signature(self.code_text(q, text_end).trim_end());
            let names = self.member_names(kind, q, text_end);
            for (name, at) in names {
                let member = match kind {
                    Kind::Interface => Kind::Method,
                    _ => Kind::Field,
                };
                out.push(
                    Entry::new(member, name, self.line(at), end_line).with_signature(sig.clone()),
                );
            }
            q = next.max(q + 1);
        }
        out
    }

    /// The names one member declaration `q..end` binds, with where each is written.
    fn member_names(&self, kind: Kind, q: usize, end: usize) -> Vec<(&'a str, usize)> {
        let Some((first, _, first_end)) = self.word(q, end) else {
            // `*T` / `*pkg.T`: an embedded pointer (structs only).
            return match (kind, self.at(q)) {
                (Kind::Struct, b'*') => self.embedded(q + 1, end),
                _ => Vec::new(),
            };
        };
        let after = self.skip_blank(first_end, end);
        match (kind, self.at(after)) {
            (Kind::Interface, b'(') => vec![(first, q)],
            (Kind::Interface, _) => Vec::new(),
            // `a, b int`.
            (_, b',') => {
                let mut names = vec![(first, q)];
                let mut p = after;
                while self.at(p) == b',' {
                    let at = self.skip_ws(p + 1, end);
                    let Some((name, _, name_end)) = self.word(at, end) else {
                        break;
                    };
                    names.push((name, at));
                    p = self.skip_blank(name_end, end);
                }
                names
            }
            // `pkg.T`: embedded, named by its last name.
            (_, b'.') => self.embedded(q, end),
            // `name T`, or an embedded `T` alone: named by the word.
            _ => vec![(first, q)],
        }
    }

    /// An embedded field's name: the last name of its type (`pkg.T` is `T`).
    fn embedded(&self, q: usize, end: usize) -> Vec<(&'a str, usize)> {
        let mut at = self.skip_blank(q, end);
        let mut found = None;
        while let Some((name, start, name_end)) = self.word(at, end) {
            found = Some((name, start));
            if self.at(name_end) != b'.' {
                break;
            }
            at = name_end + 1;
        }
        found.into_iter().collect()
    }

    /// `a, b T = x, y`: one entry per name (except `_`), all ending where the spec ends.
    fn value_spec(&self, pos: usize, limit: usize, kind: Kind, out: &mut Vec<Entry>) -> usize {
        let mut names = Vec::new();
        let mut p = pos;
        while let Some((name, s, e)) = self.word(p, limit) {
            names.push((name, s));
            let q = self.skip_ws(e, limit);
            if self.at(q) != b',' {
                break;
            }
            p = self.skip_ws(q + 1, limit);
        }
        if names.is_empty() {
            return pos + 1;
        }
        let (last, next) = self.spec_end(pos, limit);
        let sig_end = self.line_end(pos, limit).min(last + 1);
        let text = self.code_text(pos, sig_end);
        let mut sig = text.trim_end();
        if let Some(stripped) = sig.strip_suffix('{') {
            sig = stripped;
        }
        let single = names.len() == 1;
        let after_names = names.last().map_or(pos, |(name, s)| s + name.len());
        let type_part = self
            .text(after_names, sig_end.max(after_names))
            .split('=')
            .next()
            .unwrap_or("")
            .trim();
        for (name, s) in names {
            if name == "_" {
                continue;
            }
            // `a, b = 1, 2`: each name gets its own head (`a int`), not the shared values.
            let sig = if single {
                signature(sig)
            } else {
                signature(&format!("{name} {type_part}"))
            };
            out.push(Entry::new(kind, name, self.line(s), self.line(last)).with_signature(sig));
        }
        next
    }

    /// Where a spec starting at `pos` ends, by Go's semicolon insertion: a `;`, a newline after
    /// an identifier, literal or closing bracket at bracket depth 0, or the `)` closing its group.
    /// Returns `(last byte of the spec, resume position)`.
    fn spec_end(&self, pos: usize, limit: usize) -> (usize, usize) {
        let mut depth = 0usize;
        let mut last = pos;
        let mut i = pos;
        while i < limit {
            let byte = self.at(i);
            match byte {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => {
                    if depth == 0 {
                        return (last, i);
                    }
                    depth -= 1;
                }
                b';' if depth == 0 => return (last, i + 1),
                b'\n' if depth == 0 && self.ends_statement(last) => return (last, i + 1),
                b'"' | b'\'' | b'`' => {
                    let after = self.skip_quoted(i, limit);
                    last = after.saturating_sub(1).max(i);
                    i = after.max(i + 1);
                    continue;
                }
                _ => {}
            }
            if !byte.is_ascii_whitespace() {
                last = i;
            }
            i += 1;
        }
        (last.min(limit.saturating_sub(1)), limit)
    }

    /// Whether a newline after the byte at `last` inserts a semicolon.
    fn ends_statement(&self, last: usize) -> bool {
        let byte = self.at(last);
        is_ident_byte(byte)
            || matches!(byte, b')' | b']' | b'}' | b'"' | b'\'' | b'`')
            || (matches!(byte, b'+' | b'-') && last > 0 && self.at(last - 1) == byte)
    }
}

/// `T.Name` for a value receiver, `(*T).Name` for a pointer one; type parameters dropped.
fn method_name(receiver: &str, name: &str) -> String {
    let mut depth = 0usize;
    let mut plain = String::with_capacity(receiver.len());
    for ch in receiver.chars() {
        match ch {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            _ if depth == 0 => plain.push(ch),
            _ => {}
        }
    }
    let pointer = plain.contains('*');
    let base = plain
        .split(|c: char| c.is_whitespace() || matches!(c, '*' | '(' | ')' | ','))
        .rfind(|t| !t.is_empty());
    match base {
        Some(base) if pointer => format!("(*{base}).{name}"),
        Some(base) => format!("{base}.{name}"),
        None => name.to_string(),
    }
}

#[cfg(test)]
mod tests;
