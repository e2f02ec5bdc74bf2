//! Value-carrying statements: `const`/`let`/`var` declarators and `a.b = …` assignments, and
//! what their values are (function, arrow, class or anything else).

use super::*;

impl Scanner<'_> {
    /// Classifies the value expression starting at `v`.
    pub(super) fn value(&self, v: usize, end: usize) -> Value {
        let mut i = v;
        let word = self.word(i, end);
        if word == b"async" {
            let (n, next) = self.next_word(i + 5, end);
            let async_value = next == b"function"
                || (self.line(n) == self.line(i)
                    && (matches!(self.at(n), b'(' | b'<') || !next.is_empty()));
            if !async_value {
                return Value::Other;
            }
            i = n;
        }
        let word = self.word(i, end);
        if word == b"function" {
            return Value::Function { head_end: i };
        }
        if word == b"class" {
            let head = self.scan(
                i,
                end,
                Stop {
                    ty: true,
                    body: true,
                    ..Stop::default()
                },
            );
            if self.at(head.at) == b'{' {
                return Value::Class { open: head.at };
            }
            return Value::Other;
        }
        if !word.is_empty() && !word[0].is_ascii_digit() {
            let j = self.skip_ws(i + word.len(), end);
            if self.at(j) == b'=' && self.at(j + 1) == b'>' {
                return Value::Arrow { arrow: j };
            }
            return Value::Other;
        }
        let mut j = i;
        if self.at(j) == b'<' {
            match self.angle_close(j, end) {
                Some(close) => j = self.skip_ws(close + 1, end),
                None => return Value::Other,
            }
        }
        if self.at(j) != b'(' {
            return Value::Other;
        }
        let Some(close) = self.close_of(j, end) else {
            return Value::Other;
        };
        let k = self.skip_ws(close + 1, end);
        if self.at(k) == b'=' && self.at(k + 1) == b'>' {
            return Value::Arrow { arrow: k };
        }
        if self.at(k) == b':' {
            let s = self.scan(
                k + 1,
                end,
                Stop {
                    ty: true,
                    arrow: true,
                    comma: true,
                    ..Stop::default()
                },
            );
            if self.at(s.at) == b'=' && self.at(s.at + 1) == b'>' {
                return Value::Arrow { arrow: s.at };
            }
        }
        Value::Other
    }

    /// Scans the value expression at `v` to its end. Also says whether a function/class value is
    /// the whole expression (not `function () {}.call(x)`). Heads are skipped by structure, so
    /// commas in their type arguments (`(): Map<K, V> => …`) do not split declarators.
    pub(super) fn value_end(
        &self,
        v: usize,
        value: Value,
        end: usize,
        comma: bool,
    ) -> (Scanned, bool) {
        let stop = Stop {
            comma,
            ..Stop::default()
        };
        match value {
            Value::Arrow { arrow } => (self.scan(arrow, end, stop), true),
            Value::Function { head_end } => {
                let open = self.scan(
                    head_end,
                    end,
                    Stop {
                        ty: true,
                        body: true,
                        ..Stop::default()
                    },
                );
                if self.at(open.at) != b'{' {
                    return (self.scan(v, end, stop), false);
                }
                let close = self.close_of(open.at, end);
                let s = self.scan(open.at, end, stop);
                (s, close == Some(s.last))
            }
            Value::Class { open } => {
                let close = self.close_of(open, end);
                let s = self.scan(open, end, stop);
                (s, close == Some(s.last))
            }
            Value::Other => (self.scan(v, end, stop), false),
        }
    }

    /// `const`/`let`/`var` declarators starting at `i`.
    pub(super) fn declarations(
        &self,
        kw: &[u8],
        mut i: usize,
        end: usize,
        mods: Mods,
        out: &mut Vec<Entry>,
    ) -> usize {
        let base_kind = if kw == b"const" {
            Kind::Constant
        } else {
            Kind::Variable
        };
        loop {
            i = self.skip_ws(i, end);
            let name_start = i;
            let name_end;
            if matches!(self.at(i), b'{' | b'[') {
                // Destructuring: its names are optional; skip the pattern.
                name_end = self.close_of(i, end).map_or(end, |c| c + 1);
            } else {
                name_end = self.word_end(i, end);
                if name_end == name_start {
                    return self.skip_statement(i, end);
                }
            }
            let mut j = self.skip_blank(name_end, end);
            if self.at(j) == b'!' {
                j = self.skip_blank(j + 1, end);
            }
            let mut declared_end = name_end;
            let mut stopped = Scanned {
                last: name_end.saturating_sub(1),
                at: j,
            };
            if self.at(j) == b':' {
                stopped = self.scan(
                    j + 1,
                    end,
                    Stop {
                        ty: true,
                        comma: true,
                        eq: true,
                        ..Stop::default()
                    },
                );
                declared_end = stopped.last + 1;
                j = stopped.at;
            }
            let mut kind = base_kind;
            let mut sig_end = None;
            let mut children = Vec::new();
            if self.at(j) == b'=' && self.at(j + 1) != b'=' {
                let v = self.skip_ws(j + 1, end);
                let value = self.value(v, end);
                let whole;
                (stopped, whole) = self.value_end(v, value, end, true);
                if whole {
                    match value {
                        Value::Function { head_end } => {
                            kind = Kind::Function;
                            let open = self.scan(
                                head_end,
                                end,
                                Stop {
                                    ty: true,
                                    body: true,
                                    ..Stop::default()
                                },
                            );
                            sig_end = Some(open.last + 1);
                        }
                        Value::Arrow { arrow } => {
                            kind = Kind::Function;
                            sig_end = Some(arrow + 2);
                        }
                        Value::Class { open } => {
                            kind = Kind::Class;
                            let close = self.close_of(open, end).unwrap_or(end);
                            children = self.class_body(open + 1, close);
                            sig_end = Some(open);
                        }
                        Value::Other => {}
                    }
                } else if let Some(close) = self.whole_object(v, stopped.last, end) {
                    children = self.object_members(v + 1, close, 0);
                }
                declared_end = stopped.last + 1;
            } else if j < end && !matches!(self.at(j), b',' | b';' | b'\n' | b'\r' | b'}') {
                // Not a declarator we understand: end the statement there.
                stopped = self.scan(j, end, Stop::default());
                stopped.last = name_end.saturating_sub(1);
            }
            let is_pattern = matches!(self.at(name_start), b'{' | b'[');
            if !is_pattern {
                let sig_text = match sig_end {
                    Some(e) => self.text(name_start, e).to_string(),
                    None => {
                        let line_end =
                            memchr::memchr(b'\n', self.m.get(name_start..).unwrap_or(&[]))
                                .map_or(end, |n| name_start + n);
                        self.text(name_start, line_end.min(declared_end.max(name_end)))
                            .trim_end_matches([',', ';'])
                            .to_string()
                    }
                };
                let mut sig = mods.prefix();
                sig.push_str(&String::from_utf8_lossy(kw));
                sig.push(' ');
                sig.push_str(&sig_text);
                let last = stopped.last.max(name_start);
                out.push(
                    Entry::new(
                        kind,
                        self.text(name_start, name_end),
                        self.line(name_start),
                        self.line(last),
                    )
                    .with_signature(signature(&sig))
                    .with_children(children),
                );
            }
            if stopped.at < end && self.at(stopped.at) == b',' {
                i = stopped.at + 1;
                continue;
            }
            return if stopped.at < end && self.at(stopped.at) == b';' {
                stopped.at + 1
            } else {
                stopped.at.max(i + 1)
            };
        }
    }

    /// An expression statement at `i`; records `a.b = function/arrow/class`.
    pub(super) fn assignment(&self, i: usize, end: usize, out: &mut Vec<Entry>) -> usize {
        // The target: name (. name | [ … ] | ( … ))+, ending in `. name`
        let mut j = self.word_end(i, end);
        let mut last_prop: Option<(usize, usize)> = None;
        loop {
            let k = self.skip_ws(j, end);
            match self.at(k) {
                b'.' => {
                    let p = self.skip_ws(k + 1, end);
                    let pe = self.word_end(p, end);
                    if pe == p {
                        break;
                    }
                    last_prop = Some((p, pe));
                    j = pe;
                }
                b'?' if self.at(k + 1) == b'.' => j = k + 1,
                b'(' => {
                    // `require('x').f = …`: a call inside the chain names nothing itself.
                    let Some(close) = self.close_of(k, end) else {
                        break;
                    };
                    last_prop = None;
                    j = close + 1;
                }
                b'[' => {
                    let Some(close) = self.close_of(k, end) else {
                        break;
                    };
                    last_prop = Some((k + 1, close));
                    j = close + 1;
                }
                _ => {
                    j = k;
                    break;
                }
            }
        }
        let Some((ps, pe)) = last_prop else {
            return self.skip_statement(i, end);
        };
        if self.at(j) != b'=' || matches!(self.at(j + 1), b'=' | b'>') {
            return self.skip_statement(i, end);
        }
        let v = self.skip_ws(j + 1, end);
        let value = self.value(v, end);
        if value == Value::Other {
            // `module.exports = { … }`: its methods are listed at this level.
            let span = self.scan(v, end, Stop::default());
            if let Some(close) = self.whole_object(v, span.last, end) {
                out.extend(self.object_members(v + 1, close, 0));
            }
            return span.at + 1;
        }
        let (span, whole) = self.value_end(v, value, end, false);
        if !whole {
            return self.skip_statement(i, end);
        }
        let target = self.text(i, j);
        if self.at(ps.saturating_sub(1)) == b'[' {
            // `a['b'] = …` is a subscript, not a declaration-like member assignment.
            return self.skip_statement(i, end);
        }
        let name = self.text(ps, pe).to_string();
        let (kind, head_end, children) = match value {
            Value::Function { head_end } => {
                let open = self.scan(
                    head_end,
                    end,
                    Stop {
                        ty: true,
                        body: true,
                        ..Stop::default()
                    },
                );
                let kind = if target.contains(".prototype") {
                    Kind::Method
                } else {
                    Kind::Function
                };
                (kind, open.last + 1, Vec::new())
            }
            Value::Arrow { arrow } => {
                let kind = if target.contains(".prototype") {
                    Kind::Method
                } else {
                    Kind::Function
                };
                (kind, arrow + 2, Vec::new())
            }
            Value::Class { open } => {
                let close = self.close_of(open, end).unwrap_or(end);
                (Kind::Class, open, self.class_body(open + 1, close))
            }
            Value::Other => return self.skip_statement(i, end),
        };
        if !name.is_empty() {
            out.push(
                Entry::new(kind, name, self.line(i), self.line(span.last))
                    .with_signature(signature(self.text(i, head_end)))
                    .with_children(children),
            );
        }
        if self.at(span.at) == b';' {
            span.at + 1
        } else {
            span.at.max(i + 1)
        }
    }
}
