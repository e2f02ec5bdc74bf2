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
        } else {
            text.trim_matches(|c| c == '"' || c == '\'').to_string()
        };
        Some((name, name_end))
    }

    /// Members of an interface body: properties and method signatures (index, call and
    /// construct signatures are left out).
    pub(super) fn interface_body(&self, start: usize, end: usize) -> Vec<Entry> {
        let mut out = Vec::new();
        let mut i = start;
        while i < end {
            i = self.skip_ws(i, end);
            if i >= end {
                break;
            }
            if matches!(self.at(i), b';' | b',') {
                i += 1;
                continue;
            }
            let member_start = i;
            let mut j = i;
            loop {
                let word = self.word(j, end);
                if !matches!(word, b"readonly" | b"get" | b"set") {
                    break;
                }
                let n = self.skip_blank(j + word.len(), end);
                let c = self.at(n);
                if !(is_word_byte(c) || matches!(c, b'[' | b'"' | b'\'')) {
                    break;
                }
                j = n;
            }
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
                    ..Stop::default()
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
            i = stop.at.max(i) + 1;
        }
        out
    }

    /// Members of an enum body.
    pub(super) fn enum_body(&self, start: usize, end: usize) -> Vec<Entry> {
        let mut out = Vec::new();
        let mut i = start;
        while i < end {
            i = self.skip_ws(i, end);
            if i >= end {
                break;
            }
            let stop = self.scan(
                i,
                end,
                Stop {
                    comma: true,
                    no_asi: true,
                    ..Stop::default()
                },
            );
            if let Some((name, _)) = self.member_name(i, end) {
                let last = stop.last.max(i);
                out.push(
                    Entry::new(Kind::Constant, name, self.line(i), self.line(last))
                        .with_signature(signature(self.text(i, last + 1))),
                );
            }
            i = stop.at.max(i) + 1;
        }
        out
    }

    /// Members of a class body `start..end` (between the braces).
    pub(super) fn class_body(&self, start: usize, end: usize) -> Vec<Entry> {
        let mut out = Vec::new();
        let mut i = start;
        loop {
            i = self.skip_ws(i, end);
            if i >= end {
                break;
            }
            if self.at(i) == b';' || self.at(i) == b',' {
                i += 1;
                continue;
            }
            let next = self.member(i, end, &mut out);
            i = next.max(i + 1);
        }
        out
    }

    pub(super) fn member(&self, i: usize, end: usize, out: &mut Vec<Entry>) -> usize {
        let start = self.skip_decorators(i, end);
        let mut j = start;
        // Modifiers: a modifier word followed by another member-name token.
        loop {
            let word = self.word(j, end);
            if word.is_empty() || !MEMBER_MODIFIERS.contains(&word) {
                break;
            }
            let n = self.skip_ws(j + word.len(), end);
            let c = self.at(n);
            if word == b"static" && c == b'{' {
                // static initialization block
                return self.close_of(n, end).map_or(end, |c| c + 1);
            }
            let name_follows = is_word_byte(c) || matches!(c, b'#' | b'[' | b'*' | b'"' | b'\'');
            if !name_follows || self.line(n) != self.line(j) {
                break;
            }
            j = n;
        }
        if self.at(j) == b'*' {
            j = self.skip_ws(j + 1, end);
        }
        let name_start = j;
        let c = self.at(j);
        let name_end = if c == b'#' {
            self.word_end(j + 1, end)
        } else if is_word_byte(c) {
            self.word_end(j, end)
        } else if c == b'"' || c == b'\'' {
            match memchr::memchr(c, self.m.get(j + 1..end).unwrap_or(&[])) {
                Some(n) => j + 1 + n + 1,
                None => return self.skip_statement(j, end),
            }
        } else if c == b'[' {
            let Some(close) = self.close_of(j, end) else {
                return end;
            };
            // Index signature `[key: string]: T`
            let inner = self.skip_ws(j + 1, end);
            let after_word = self.skip_ws(self.word_end(inner, end), end);
            if self.at(after_word) == b':' && after_word > inner {
                return self.skip_member(close + 1, end);
            }
            close + 1
        } else {
            return self.skip_member(j, end);
        };
        if name_end <= name_start {
            return self.skip_member(j, end);
        }
        let name = self.text(name_start, name_end);
        let name = if name.starts_with('[') {
            crate::parse::one_line(name)
        } else {
            name.trim_matches(|c| c == '"' || c == '\'').to_string()
        };
        let mut k = self.skip_blank(name_end, end);
        if matches!(self.at(k), b'?' | b'!') {
            k = self.skip_blank(k + 1, end);
        }
        match self.at(k) {
            b'(' | b'<' => {
                let (head_end, close, next) = self.callable(k, end);
                let close = close.min(end.saturating_sub(1)).max(start);
                out.push(
                    Entry::new(Kind::Method, name, self.line(start), self.line(close))
                        .with_signature(signature(self.text(start, head_end))),
                );
                next
            }
            b'=' | b':' => {
                let mut stopped = Scanned { last: k, at: k };
                let mut v_at = None;
                if self.at(k) == b':' {
                    stopped = self.scan(
                        k + 1,
                        end,
                        Stop {
                            ty: true,
                            eq: true,
                            ..Stop::default()
                        },
                    );
                    if self.at(stopped.at) == b'=' {
                        v_at = Some(stopped.at);
                    }
                } else {
                    v_at = Some(k);
                }
                let mut kind = Kind::Property;
                let mut head_end = stopped.last + 1;
                if let Some(eq) = v_at {
                    let v = self.skip_ws(eq + 1, end);
                    let value = self.value(v, end);
                    let whole;
                    (stopped, whole) = self.value_end(v, value, end, false);
                    if whole {
                        match value {
                            Value::Arrow { arrow } => {
                                kind = Kind::Method;
                                head_end = arrow + 2;
                            }
                            Value::Function { head_end: h } => {
                                kind = Kind::Method;
                                let open = self.scan(
                                    h,
                                    end,
                                    Stop {
                                        ty: true,
                                        body: true,
                                        ..Stop::default()
                                    },
                                );
                                head_end = open.last + 1;
                            }
                            _ => {}
                        }
                    }
                    if kind == Kind::Property {
                        let line_end = memchr::memchr(b'\n', self.m.get(start..).unwrap_or(&[]))
                            .map_or(end, |n| start + n);
                        head_end = line_end.min(stopped.last + 1);
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

    pub(super) fn skip_member(&self, i: usize, end: usize) -> usize {
        let s = self.scan(i, end, Stop::default());
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
        let mut i = start;
        while i < end {
            i = self.skip_ws(i, end);
            if i >= end {
                break;
            }
            let entry_start = i;
            let mut j = i;
            loop {
                let word = self.word(j, end);
                if !matches!(word, b"async" | b"get" | b"set" | b"static") {
                    break;
                }
                let n = self.skip_blank(j + word.len(), end);
                let c = self.at(n);
                if !(is_word_byte(c) || matches!(c, b'[' | b'"' | b'\'' | b'*')) {
                    break;
                }
                j = n;
            }
            if self.at(j) == b'*' {
                j = self.skip_ws(j + 1, end);
            }
            let named = if self.at(j) == b'.' {
                None
            } else {
                self.member_name(j, end)
            };
            let Some((name, name_end)) = named else {
                i =
                    self.scan(
                        j,
                        end,
                        Stop {
                            comma: true,
                            ..Stop::default()
                        },
                    )
                    .at + 1;
                continue;
            };
            let k = self.skip_ws(name_end, end);
            let next = match self.at(k) {
                b'(' | b'<' => {
                    let (head_end, close, _) = self.callable(k, end);
                    let close = close.min(end.saturating_sub(1)).max(entry_start);
                    out.push(
                        Entry::new(Kind::Method, name, self.line(entry_start), self.line(close))
                            .with_signature(signature(self.text(entry_start, head_end))),
                    );
                    self.scan(
                        close + 1,
                        end,
                        Stop {
                            comma: true,
                            ..Stop::default()
                        },
                    )
                    .at + 1
                }
                b':' => {
                    let v = self.skip_ws(k + 1, end);
                    let value = self.value(v, end);
                    let (span, whole) = self.value_end(v, value, end, true);
                    let last = span.last.max(entry_start);
                    match value {
                        Value::Function { .. } | Value::Arrow { .. } if whole => {
                            let head_end = match value {
                                Value::Arrow { arrow } => arrow + 2,
                                _ => {
                                    self.scan(
                                        v,
                                        end,
                                        Stop {
                                            ty: true,
                                            body: true,
                                            ..Stop::default()
                                        },
                                    )
                                    .last
                                        + 1
                                }
                            };
                            out.push(
                                Entry::new(
                                    Kind::Method,
                                    name,
                                    self.line(entry_start),
                                    self.line(last),
                                )
                                .with_signature(signature(self.text(entry_start, head_end))),
                            );
                        }
                        _ => {
                            let (inner, cut) = match self.whole_object(v, span.last, end) {
                                Some(close) if nesting < MAX_NESTING => {
                                    (self.object_members(v + 1, close, nesting + 1), false)
                                }
                                Some(close) => (Vec::new(), self.has_code(v + 1, close)),
                                None => (Vec::new(), false),
                            };
                            if !inner.is_empty() || cut {
                                out.push(
                                    Entry::new(
                                        Kind::Property,
                                        name,
                                        self.line(entry_start),
                                        self.line(last),
                                    )
                                    .with_signature(signature(self.text(entry_start, k)))
                                    .with_children(inner)
                                    .cut_by_nesting(cut),
                                );
                            }
                        }
                    }
                    span.at + 1
                }
                _ => {
                    self.scan(
                        k,
                        end,
                        Stop {
                            comma: true,
                            ..Stop::default()
                        },
                    )
                    .at + 1
                }
            };
            i = next.max(i + 1);
        }
        out
    }
}
