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
            let head = self.scan(i, end, Stop::HEAD);
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
                    ..Stop::NONE
                },
            );
            if self.at(s.at) == b'=' && self.at(s.at + 1) == b'>' {
                return Value::Arrow { arrow: s.at };
            }
        }
        Value::Other
    }

    /// Where the signature of a function-valued expression ends: just past an arrow's `=>`, or
    /// before a `function`'s body. `None` for any other value.
    pub(super) fn function_head_end(&self, value: Value, end: usize) -> Option<usize> {
        match value {
            Value::Arrow { arrow } => Some(arrow + 2),
            Value::Function { head_end } => Some(self.scan(head_end, end, Stop::HEAD).last + 1),
            Value::Class { .. } | Value::Other => None,
        }
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
            ..Stop::NONE
        };
        match value {
            Value::Arrow { arrow } => (self.scan(arrow, end, stop), true),
            Value::Function { head_end } => {
                let open = self.scan(head_end, end, Stop::HEAD);
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

    /// Classifies the value at `v` and scans it to its end, as [`Scanner::value_end`] does.
    /// A value in parentheses (`((a) => a)`, the comma expression `(0, function () {})`) is
    /// what its last operand is, when the parentheses are the whole value.
    pub(super) fn whole_value(&self, v: usize, end: usize, comma: bool) -> (Value, Scanned, bool) {
        let value = self.value(v, end);
        if value == Value::Other && self.at(v) == b'(' {
            if let Some(found) = self.parenthesised_value(v, end, comma) {
                return found;
            }
        }
        let (stopped, whole) = self.value_end(v, value, end, comma);
        (value, stopped, whole)
    }

    /// [`Scanner::whole_value`] of the parenthesised value at `open`, when its last operand
    /// is a whole function, arrow or class and nothing follows the parentheses (an IIFE's
    /// `(function () {})()` is a call, its value unknown).
    fn parenthesised_value(
        &self,
        open: usize,
        end: usize,
        comma: bool,
    ) -> Option<(Value, Scanned, bool)> {
        let close = self.close_of(open, end)?;
        let stopped = self.scan(
            open,
            end,
            Stop {
                comma,
                ..Stop::NONE
            },
        );
        if stopped.last != close {
            return None;
        }
        // Nested parentheses are peeled one at a time, a bounded number of times.
        let mut inner_open = open;
        let mut inner_close = close;
        for _ in 0..MAX_NESTING {
            let operand = self.skip_ws(self.last_operand(inner_open + 1, inner_close), inner_close);
            let value = self.value(operand, inner_close);
            if value == Value::Other {
                let nested = self.at(operand) == b'(';
                let nested_close = self.close_of(operand, inner_close);
                let last = self.scan(operand, inner_close, Stop::NONE);
                if !(nested && nested_close.is_some() && nested_close == Some(last.last)) {
                    return None;
                }
                inner_open = operand;
                inner_close = nested_close?;
                continue;
            }
            let (inner, whole) = self.value_end(operand, value, inner_close, false);
            return (whole && inner.at == inner_close).then_some((value, stopped, true));
        }
        None
    }

    /// Where the last top-level operand of the comma expression `start..close` starts.
    fn last_operand(&self, start: usize, close: usize) -> usize {
        let mut depth = 0usize;
        let mut operand = start;
        for at in start..close {
            match self.at(at) {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                b',' if depth == 0 => operand = at + 1,
                _ => {}
            }
        }
        operand
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
        loop {
            i = self.skip_ws(i, end);
            let Some(stopped) = self.declarator(kw, i, end, mods, out) else {
                return self.skip_statement(i, end);
            };
            // `let d` + newline + `, e`: a line that starts with a comma goes on with the list.
            let comma = if matches!(self.at(stopped.at), b'\n' | b'\r') {
                self.skip_ws(stopped.at, end)
            } else {
                stopped.at
            };
            if comma < end && self.at(comma) == b',' {
                i = comma + 1;
                continue;
            }
            return if stopped.at < end && self.at(stopped.at) == b';' {
                stopped.at + 1
            } else {
                stopped.at.max(i + 1)
            };
        }
    }

    /// One declarator at `name_start` (a name, or a destructuring pattern, whose names are
    /// listed each): its optional type and value. Returns where it stopped, or `None` when
    /// no declarator starts there.
    fn declarator(
        &self,
        kw: &[u8],
        name_start: usize,
        end: usize,
        mods: Mods,
        out: &mut Vec<Entry>,
    ) -> Option<Scanned> {
        let is_pattern = matches!(self.at(name_start), b'{' | b'[');
        let name_end = if is_pattern {
            self.close_of(name_start, end).map_or(end, |c| c + 1)
        } else {
            Some(self.word_end(name_start, end)).filter(|e| *e > name_start)?
        };
        let (mut stopped, mut declared_end) = self.declared_type(name_end, end);
        let j = stopped.at;
        let mut declared = Declared {
            kind: if kw == b"const" {
                Kind::Constant
            } else {
                Kind::Variable
            },
            sig_end: None,
            children: Vec::new(),
        };
        if self.at(j) == b'=' && self.at(j + 1) != b'=' {
            let v = self.skip_ws(j + 1, end);
            stopped = self.declared_value(v, end, &mut declared);
            declared_end = stopped.last + 1;
        } else if j < end && !matches!(self.at(j), b',' | b';' | b'\n' | b'\r' | b'}') {
            // Not a declarator we understand: end the statement there.
            stopped = self.scan(j, end, Stop::NONE);
            stopped.last = name_end.saturating_sub(1);
        }
        let last = stopped.last.max(name_start);
        if is_pattern {
            // Every name the pattern binds is declared by the statement. The pattern is the
            // same for all, so each one's signature names it (`const a`), as Python's
            // `A, B = 1, 2` targets are listed by name.
            for (s, e) in self.pattern_names(name_start, name_end.saturating_sub(1)) {
                let name = self.text(s, e);
                let sig = format!("{}{} {name}", mods.prefix(), String::from_utf8_lossy(kw));
                out.push(
                    Entry::new(declared.kind, name, self.line(s), self.line(last))
                        .with_signature(sig),
                );
            }
            return Some(stopped);
        }
        let sig_end = declared.sig_end.unwrap_or_else(|| {
            // Without a function or class value, the signature is the declared part on the
            // first line.
            let line_end = memchr::memchr(b'\n', self.m.get(name_start..).unwrap_or(&[]))
                .map_or(end, |n| name_start + n);
            line_end.min(declared_end.max(name_end))
        });
        let mut sig = mods.prefix();
        sig.push_str(&String::from_utf8_lossy(kw));
        sig.push(' ');
        sig.push_str(
            self.text(name_start, sig_end)
                .trim_end_matches(|c| declared.sig_end.is_none() && matches!(c, ',' | ';')),
        );
        out.push(
            Entry::new(
                declared.kind,
                self.text(name_start, name_end),
                self.line(name_start),
                self.line(last),
            )
            .with_signature(owned_signature(sig))
            .with_children(declared.children),
        );
        Some(stopped)
    }

    /// After a declarator's name ending at `name_end`: its definite-assignment `!` and its
    /// `: type`. Returns where that stops (`at`: the `=`, `,` or whatever follows; `last`: the
    /// declared part's last byte) and where the declared part ends.
    fn declared_type(&self, name_end: usize, end: usize) -> (Scanned, usize) {
        let mut j = self.skip_blank(name_end, end);
        if self.at(j) == b'!' {
            j = self.skip_blank(j + 1, end);
        }
        if self.at(j) != b':' {
            let stopped = Scanned {
                last: name_end.saturating_sub(1),
                at: j,
            };
            return (stopped, name_end);
        }
        let stopped = self.scan(
            j + 1,
            end,
            Stop {
                ty: true,
                comma: true,
                eq: true,
                ..Stop::NONE
            },
        );
        (stopped, stopped.last + 1)
    }

    /// Reads a declarator's value at `v` into `declared`: a whole function or arrow makes it
    /// a function, a whole class a class with its members, an object literal gives it the
    /// literal's methods. Returns where the value stopped.
    fn declared_value(&self, v: usize, end: usize, declared: &mut Declared) -> Scanned {
        let (value, stopped, whole) = self.whole_value(v, end, true);
        if !whole {
            if let Some(close) = self.whole_object(v, stopped.last, end) {
                declared.children = self.object_members(v + 1, close, 0);
            }
        } else if let Value::Class { open } = value {
            let close = self.close_of(open, end).unwrap_or(end);
            declared.kind = Kind::Class;
            declared.children = self.class_body(open + 1, close);
            declared.sig_end = Some(open);
        } else if let Some(head_end) = self.function_head_end(value, end) {
            declared.kind = Kind::Function;
            declared.sig_end = Some(head_end);
        }
        stopped
    }

    /// The target of an assignment statement at `i`: `name (. name | [ … ] | ( … ))*`. Returns
    /// where it ends and its last named part (`b` in `a.b`, the subscript in `a['b']`), which
    /// a call after it clears: `require('x').f` names `f`, `f()` nothing.
    fn assignment_target(&self, i: usize, end: usize) -> (usize, Option<(usize, usize)>) {
        let mut j = self.word_end(i, end);
        let mut last_prop: Option<(usize, usize)> = None;
        loop {
            let k = self.skip_ws(j, end);
            match self.at(k) {
                b'.' => {
                    let p = self.skip_ws(k + 1, end);
                    let pe = self.word_end(p, end);
                    if pe == p {
                        return (j, last_prop);
                    }
                    last_prop = Some((p, pe));
                    j = pe;
                }
                b'?' if self.at(k + 1) == b'.' => j = k + 1,
                b'(' => {
                    let Some(close) = self.close_of(k, end) else {
                        return (j, last_prop);
                    };
                    last_prop = None;
                    j = close + 1;
                }
                b'[' => {
                    let Some(close) = self.close_of(k, end) else {
                        return (j, last_prop);
                    };
                    last_prop = Some((k + 1, close));
                    j = close + 1;
                }
                _ => return (k, last_prop),
            }
        }
    }

    /// The assignment at `i`, `target =` (not `==`, `=>`): its target, named by its last part.
    fn assigned(&self, i: usize, end: usize) -> Option<Assigned> {
        let (j, last_prop) = self.assignment_target(i, end);
        // `name = function () {}` at the top level assigns a global as a declaration would
        // (sloppy-mode scripts); the name is its own last part.
        let word_end = self.word_end(i, end);
        let bare = (last_prop.is_none() && self.skip_ws(word_end, end) == j && word_end > i)
            .then_some((i, word_end));
        let name = last_prop.or(bare)?;
        if self.at(j) != b'=' || matches!(self.at(j + 1), b'=' | b'>') {
            return None;
        }
        Some(Assigned {
            start: i,
            name,
            bare: bare.is_some(),
            value: self.skip_ws(j + 1, end),
        })
    }

    /// An expression statement at `i`; records `a.b = function/arrow/class`, and each target
    /// of a chain (`A.prototype.m3 = A.prototype.m4 = () => {}`) as it records one.
    pub(super) fn assignment(&self, i: usize, end: usize, out: &mut Vec<Entry>) -> usize {
        let Some(first) = self.assigned(i, end) else {
            return self.skip_statement(i, end);
        };
        let mut v = first.value;
        let mut chained = Vec::new();
        while let Some(next) = self.assigned(v, end) {
            v = next.value;
            chained.push(next);
        }
        let (ps, pe) = first.name;
        let bare = first.bare.then_some(first.name);
        let value = self.value(v, end);
        if value == Value::Other && self.at(v) != b'(' {
            // `module.exports = { … }`: its methods are listed at this level.
            let span = self.scan(v, end, Stop::NONE);
            if let Some(close) = self.whole_object(v, span.last, end) {
                let members = self.object_members(v + 1, close, 0);
                if bare.is_some() {
                    // `MyClass = { m: function () {} }`: a global holding the methods, as
                    // `var MyClass = { … }` is.
                    let line_end = memchr::memchr(b'\n', self.m.get(i..).unwrap_or(&[]))
                        .map_or(end, |n| i + n);
                    let sig = self.text(i, line_end.min(span.last + 1));
                    out.push(
                        Entry::new(
                            Kind::Variable,
                            self.text(ps, pe),
                            self.line(i),
                            self.line(span.last),
                        )
                        .with_signature(signature(sig))
                        .with_children(members),
                    );
                } else {
                    out.extend(members);
                }
            }
            return span.at + 1;
        }
        let (value, span, whole) = self.whole_value(v, end, false);
        if !whole {
            return self.skip_statement(i, end);
        }
        let (head_end, children) = match value {
            Value::Class { open } => {
                let close = self.close_of(open, end).unwrap_or(end);
                (open, self.class_body(open + 1, close))
            }
            _ => {
                let Some(head_end) = self.function_head_end(value, end) else {
                    return self.skip_statement(i, end);
                };
                (head_end, Vec::new())
            }
        };
        for target in std::iter::once(&first).chain(&chained) {
            let (ps, pe) = target.name;
            let name = self.text(ps, pe);
            // `a['b'] = …` is a subscript, not a declaration-like member assignment.
            if name.is_empty() || self.at(ps.saturating_sub(1)) == b'[' {
                continue;
            }
            let kind = match value {
                Value::Class { .. } => Kind::Class,
                _ if self.text(target.start, ps).contains(".prototype") => Kind::Method,
                _ => Kind::Function,
            };
            out.push(
                Entry::new(kind, name, self.line(target.start), self.line(span.last))
                    .with_signature(signature(self.text(target.start, head_end)))
                    .with_children(children.clone()),
            );
        }
        if self.at(span.at) == b';' {
            span.at + 1
        } else {
            span.at.max(i + 1)
        }
    }
}

/// One `target =` of an assignment statement.
struct Assigned {
    /// Where the target starts.
    start: usize,
    /// The target's last named part (`b` in `a.b`), or the whole of a bare name.
    name: (usize, usize),
    /// The target is a bare name (`f = function () {}`).
    bare: bool,
    /// Where the assigned value starts.
    value: usize,
}

/// What a declarator declares, as far as its value tells.
struct Declared {
    kind: Kind,
    /// Where the signature ends, for a function or class value; else the declared part on
    /// its first line is the signature.
    sig_end: Option<usize>,
    /// A class's members, or the methods of an object literal.
    children: Vec<Entry>,
}
