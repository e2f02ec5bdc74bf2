//! Members of class, interface and enum bodies.

use super::*;

impl Scanner<'_> {
    /// A member name at `i`: an identifier, `#private`, a quoted string or `[computed]`; returns
    /// (name, end offset). `None` for anything else, index signatures included.
    pub(super) fn member_name(&self, i: usize, end: usize) -> Option<(String, usize)> {
        let c = self.at(i);
        let name_end = if c == b'#' {
            self.word_end(i + 1, end)
        } else if is_word_byte(c) {
            self.word_end(i, end)
        } else if c == b'"' || c == b'\'' {
            i + 1 + memchr::memchr(c, self.m.get(i + 1..end)?)? + 1
        } else if c == b'[' {
            let close = self.close_of(i, end)?;
            let inner = self.skip_ws(i + 1, end);
            let after_word = self.skip_ws(self.word_end(inner, end), end);
            if after_word > inner && self.at(after_word) == b':' {
                return None;
            }
            close + 1
        } else {
            return None;
        };
        if name_end <= i || (c == b'#' && name_end == i + 1) {
            return None;
        }
        let text = self.text(i, name_end);
        let name = if text.starts_with('[') {
            crate::parse::one_line(text)
        } else if c == b'"' || c == b'\'' {
            // The key as written inside its own quotes: `'"hello'` is `"hello`.
            text.get(1..text.len().saturating_sub(1))
                .unwrap_or_default()
                .to_string()
        } else {
            text.to_string()
        };
        Some((name, name_end))
    }

    /// Members of an interface body: properties and method signatures (index, call and
    /// construct signatures are left out).
    pub(super) fn interface_body(&self, start: usize, end: usize) -> Vec<Entry> {
        let mut out = Vec::new();
        self.each_item(start, end, |i| {
            if matches!(self.at(i), b';' | b',') {
                return i + 1;
            }
            self.interface_member(i, end, &mut out)
        });
        out
    }

    /// One member of an interface body at `member_start`; returns where the next may start.
    fn interface_member(&self, member_start: usize, end: usize, out: &mut Vec<Entry>) -> usize {
        let j = self.skip_modifiers(member_start, end, &[b"readonly", b"get", b"set"], b"[\"'");
        let construct = self.word(j, end) == b"new"
            && matches!(self.at(self.skip_blank(j + 3, end)), b'(' | b'<');
        let named = if construct {
            None
        } else {
            self.member_name(j, end)
        };
        let k = named.as_ref().map_or(j, |(_, e)| self.skip_blank(*e, end));
        let k = if self.at(k) == b'?' {
            self.skip_blank(k + 1, end)
        } else {
            k
        };
        let stop = self.scan(
            k,
            end,
            Stop {
                ty: true,
                comma: true,
                ..Stop::NONE
            },
        );
        if let Some((name, _)) = named {
            let kind = match self.at(k) {
                b'(' | b'<' => Some(Kind::Method),
                b':' => Some(Kind::Property),
                b';' | b',' | b'\n' | b'\r' | b'}' => Some(Kind::Property),
                _ if k >= end => Some(Kind::Property),
                _ => None,
            };
            if let Some(kind) = kind {
                let last = stop.last.max(member_start);
                out.push(
                    Entry::new(kind, name, self.line(member_start), self.line(last))
                        .with_signature(signature(
                            self.text(member_start, last + 1)
                                .trim_end_matches([';', ',']),
                        )),
                );
            }
        }
        stop.at + 1
    }

    /// Members of an enum body.
    pub(super) fn enum_body(&self, start: usize, end: usize) -> Vec<Entry> {
        let mut out = Vec::new();
        self.each_item(start, end, |i| {
            let stop = self.scan(
                i,
                end,
                Stop {
                    comma: true,
                    no_asi: true,
                    ..Stop::NONE
                },
            );
            if let Some((name, _)) = self.member_name(i, end) {
                let last = stop.last.max(i);
                out.push(
                    Entry::new(Kind::Constant, name, self.line(i), self.line(last))
                        .with_signature(signature(self.text(i, last + 1))),
                );
            }
            stop.at + 1
        });
        out
    }

    /// Members of a class body `start..end` (between the braces).
    pub(super) fn class_body(&self, start: usize, end: usize) -> Vec<Entry> {
        let mut out = Vec::new();
        self.each_item(start, end, |i| {
            if matches!(self.at(i), b';' | b',') {
                return i + 1;
            }
            self.member(i, end, &mut out)
        });
        out
    }

    /// One class member at `i`: a method, a field (a method when its value is a function or
    /// an arrow), or a static block, skipped. Returns where the next member may start.
    pub(super) fn member(&self, i: usize, end: usize, out: &mut Vec<Entry>) -> usize {
        let start = self.skip_decorators(i, end);
        if self.word(start, end) == b"static" {
            let open = self.skip_ws(start + 6, end);
            if self.at(open) == b'{' {
                // A static initialization block: no member.
                return self.close_of(open, end).map_or(end, |c| c + 1);
            }
        }
        let mut j = self.skip_modifiers(start, end, MEMBER_MODIFIERS, b"#[*\"'");
        if self.at(j) == b'*' {
            j = self.skip_ws(j + 1, end);
        }
        let Some((name, name_end)) = self.member_name(j, end) else {
            return self.skip_member(j, end);
        };
        let mut k = self.skip_blank(name_end, end);
        if matches!(self.at(k), b'?' | b'!') {
            k = self.skip_blank(k + 1, end);
        }
        match self.at(k) {
            b'(' | b'<' => {
                let (method, _, next) = self.method(name, start, k, end);
                out.push(method);
                next
            }
            b'=' | b':' => self.field(start, name, k, end, out),
            c if k >= end || matches!(c, b';' | b'\n' | b'\r' | b'}' | b',') => {
                // A field without type or value: `foo;` / `foo` + newline.
                out.push(
                    Entry::new(
                        Kind::Property,
                        name,
                        self.line(start),
                        self.line(name_end - 1),
                    )
                    .with_signature(signature(self.text(start, name_end))),
                );
                if c == b';' {
                    k + 1
                } else {
                    k
                }
            }
            _ => self.skip_member(k, end),
        }
    }

    /// A class field from `start` whose type (`:`) or value (`=`) starts at `k`: a property,
    /// or a method when its value is wholly a function or an arrow. Returns where the next
    /// member may start.
    fn field(
        &self,
        start: usize,
        name: String,
        k: usize,
        end: usize,
        out: &mut Vec<Entry>,
    ) -> usize {
        let mut stopped = Scanned { last: k, at: k };
        let value_at = if self.at(k) == b':' {
            stopped = self.scan(
                k + 1,
                end,
                Stop {
                    ty: true,
                    eq: true,
                    ..Stop::NONE
                },
            );
            (self.at(stopped.at) == b'=').then_some(stopped.at)
        } else {
            Some(k)
        };
        let mut kind = Kind::Property;
        let mut head_end = stopped.last + 1;
        if let Some(eq) = value_at {
            let v = self.skip_ws(eq + 1, end);
            let value = self.value(v, end);
            let whole;
            (stopped, whole) = self.value_end(v, value, end, false);
            match self.function_head_end(value, end).filter(|_| whole) {
                Some(function_head) => {
                    kind = Kind::Method;
                    head_end = function_head;
                }
                None => {
                    // A property's signature is its first line, value included.
                    let line_end = memchr::memchr(b'\n', self.m.get(start..).unwrap_or(&[]))
                        .map_or(end, |n| start + n);
                    head_end = line_end.min(stopped.last + 1);
                }
            }
        }
        out.push(
            Entry::new(
                kind,
                name,
                self.line(start),
                self.line(stopped.last.max(start)),
            )
            .with_signature(signature(self.text(start, head_end).trim_end_matches(';'))),
        );
        if self.at(stopped.at) == b';' {
            stopped.at + 1
        } else {
            stopped.at
        }
    }

    /// Skips the modifier words among `words` before a member name at `i`. A word counts as a
    /// modifier only when a name follows it on its line (a word, or a byte of `name_starts`):
    /// `get` alone, or `get()`, is the member's name.
    fn skip_modifiers(&self, i: usize, end: usize, words: &[&[u8]], name_starts: &[u8]) -> usize {
        let mut j = i;
        loop {
            let word = self.word(j, end);
            if word.is_empty() || !words.contains(&word) {
                return j;
            }
            let n = self.skip_blank(j + word.len(), end);
            let c = self.at(n);
            if !(is_word_byte(c) || name_starts.contains(&c)) {
                return j;
            }
            j = n;
        }
    }

    pub(super) fn skip_member(&self, i: usize, end: usize) -> usize {
        let s = self.scan(i, end, Stop::NONE);
        s.at + 1
    }

    /// When the expression at `v` is exactly one object literal ending at `last`: its `}`.
    pub(super) fn whole_object(&self, v: usize, last: usize, end: usize) -> Option<usize> {
        if self.at(v) != b'{' {
            return None;
        }
        let close = self.close_of(v, end)?;
        (close == last).then_some(close)
    }

    /// Methods and function-valued properties of an object literal `start..end` (between the
    /// braces), and keys whose object values hold some, with those as children.
    pub(super) fn object_members(&self, start: usize, end: usize, nesting: usize) -> Vec<Entry> {
        let mut out = Vec::new();
        self.each_item(start, end, |i| {
            self.object_member(i, end, nesting, &mut out)
        });
        out
    }

    /// One member of an object literal at `start`: a method, a key whose value is a function
    /// or an arrow, or a key whose object value holds some. Returns where the next may start.
    fn object_member(
        &self,
        start: usize,
        end: usize,
        nesting: usize,
        out: &mut Vec<Entry>,
    ) -> usize {
        let mut j =
            self.skip_modifiers(start, end, &[b"async", b"get", b"set", b"static"], b"[\"'*");
        if self.at(j) == b'*' {
            j = self.skip_ws(j + 1, end);
        }
        let named = if self.at(j) == b'.' {
            None
        } else {
            self.member_name(j, end)
        };
        let Some((name, name_end)) = named else {
            return self.skip_list_item(j, end);
        };
        let k = self.skip_ws(name_end, end);
        match self.at(k) {
            b'(' | b'<' => {
                let (method, close, _) = self.method(name, start, k, end);
                out.push(method);
                self.skip_list_item(close + 1, end)
            }
            b':' => self.object_key(start, name, k, end, nesting, out),
            _ => self.skip_list_item(k, end),
        }
    }

    /// A `key: value` member from `start`, its `:` at `colon`: a method when the value is
    /// wholly a function or an arrow, a property holding the members of an object value, or
    /// nothing. Returns where the next member may start.
    fn object_key(
        &self,
        start: usize,
        name: String,
        colon: usize,
        end: usize,
        nesting: usize,
        out: &mut Vec<Entry>,
    ) -> usize {
        let v = self.skip_ws(colon + 1, end);
        let value = self.value(v, end);
        let (span, whole) = self.value_end(v, value, end, true);
        let last = span.last.max(start);
        if let Some(head_end) = self.function_head_end(value, end).filter(|_| whole) {
            out.push(
                Entry::new(Kind::Method, name, self.line(start), self.line(last))
                    .with_signature(signature(self.text(start, head_end))),
            );
            return span.at + 1;
        }
        let (inner, cut) = match self.whole_object(v, span.last, end) {
            Some(close) if nesting < MAX_NESTING => {
                (self.object_members(v + 1, close, nesting + 1), false)
            }
            Some(close) => (Vec::new(), self.has_code(v + 1, close)),
            None => (Vec::new(), false),
        };
        if !inner.is_empty() || cut {
            out.push(
                Entry::new(Kind::Property, name, self.line(start), self.line(last))
                    .with_signature(signature(self.text(start, colon)))
                    .with_children(inner)
                    .cut_by_nesting(cut),
            );
        }
        span.at + 1
    }

    /// The method `name` declared at `start` whose parameters (or type parameters) open at
    /// `k`, with where it ends (clamped into `start..end`) and where the next member may start.
    fn method(&self, name: String, start: usize, k: usize, end: usize) -> (Entry, usize, usize) {
        let (head_end, close, next) = self.callable(k, end);
        let close = close.min(end.saturating_sub(1)).max(start);
        let entry = Entry::new(Kind::Method, name, self.line(start), self.line(close))
            .with_signature(signature(self.text(start, head_end)));
        (entry, close, next)
    }

    /// Skips to the end of the list item at `i`; returns where the next one may start.
    fn skip_list_item(&self, i: usize, end: usize) -> usize {
        self.scan(i, end, Stop::ITEM).at + 1
    }
}
