//! Statements of the program and of namespace bodies: declarations, their heads and extents.

use super::*;

impl Scanner<'_> {
    /// Outlines the statements of `start..end` (the program or a namespace body) into `out`.
    pub(super) fn region(&self, start: usize, end: usize, nesting: usize, out: &mut Vec<Entry>) {
        self.each_item(start, end, |i| self.statement(i, end, nesting, out));
    }

    /// Skips decorators (`@a.b(…)`) starting at `i`; returns the next token.
    pub(super) fn skip_decorators(&self, mut i: usize, end: usize) -> usize {
        while self.at(i) == b'@' && i < end {
            let mut j = self.skip_ws(i + 1, end);
            loop {
                j = self.word_end(j, end);
                let k = self.skip_ws(j, end);
                if self.at(k) == b'.' {
                    j = self.skip_ws(k + 1, end);
                } else {
                    j = k;
                    break;
                }
            }
            if self.at(j) == b'<' {
                if let Some(close) = self.angle_close(j, end) {
                    j = self.skip_ws(close + 1, end);
                }
            }
            if self.at(j) == b'(' {
                j = self.close_of(j, end).map_or(end, |c| c + 1);
            }
            if j <= i {
                return i + 1;
            }
            i = self.skip_ws(j, end);
        }
        i
    }

    /// One statement at `i`: records what it declares, returns where the next one may start.
    pub(super) fn statement(
        &self,
        i: usize,
        end: usize,
        nesting: usize,
        out: &mut Vec<Entry>,
    ) -> usize {
        let start = self.skip_decorators(i, end);
        let (j, mods) = match self.modifiers(start, end) {
            Ok(found) => found,
            Err(next) => return next,
        };
        let (k, word) = self.next_word(j, end);
        let after = k + word.len();
        let (n, next) = self.next_word(after, end);
        let next_is_name = !next.is_empty() && !next[0].is_ascii_digit();
        match word {
            b"function" => self.function(start, after, end, mods, out),
            b"class" => self.class(start, k, after, end, mods, nesting, out),
            b"interface" if next_is_name => {
                self.simple_block(Kind::Interface, start, n, end, mods, out)
            }
            b"enum" if next_is_name => self.simple_block(Kind::Enum, start, n, end, mods, out),
            b"const" if next == b"enum" => {
                let (n2, _) = self.next_word(n + 4, end);
                self.simple_block(Kind::Enum, start, n2, end, mods, out)
            }
            b"type" if next_is_name && !mods.default => self.type_alias(start, n, end, mods, out),
            b"namespace" | b"module" if next_is_name || matches!(self.at(n), b'"' | b'\'') => {
                self.namespace(start, n, end, mods, nesting, out)
            }
            b"global" if mods.declare && self.at(n) == b'{' => {
                let close = self.close_of(n, end).unwrap_or(end);
                if nesting < MAX_NESTING {
                    self.region(n + 1, close, nesting + 1, out);
                } else if self.has_code(n + 1, close) {
                    self.cut.set(true);
                }
                close + 1
            }
            b"const" | b"let" | b"var" if next_is_name || matches!(self.at(n), b'{' | b'[') => {
                self.declarations(word, n, end, mods, out)
            }
            b"import" => self.skip_statement(after, end),
            _ if mods.default => {
                // `export default { … }`: its methods are listed at this level.
                let span = self.scan(k, end, Stop::NONE);
                if let Some(close) = self.whole_object(k, span.last, end) {
                    out.extend(self.object_members(k + 1, close, 0));
                }
                span.at + 1
            }
            _ if !word.is_empty() && !mods.export && !mods.declare => self.assignment(k, end, out),
            _ => self.skip_statement(k, end),
        }
    }

    /// The modifiers starting a statement at `start` (`export`, `default`, `declare`,
    /// `abstract`, `async`): where the declaration after them starts, and what they were.
    /// `Err` with where the next statement may start for an `export` that declares nothing
    /// (`export { a as b }`, `export * from`, `export = x`, `export import`).
    fn modifiers(&self, start: usize, end: usize) -> Result<(usize, Mods), usize> {
        let mut j = start;
        let mut mods = Mods::default();
        loop {
            let (k, word) = self.next_word(j, end);
            let after = k + word.len();
            let (n, next) = self.next_word(after, end);
            match word {
                b"export" => {
                    mods.export = true;
                    let declares_nothing = (next.is_empty() && self.at(n) != b'@')
                        || matches!(next, b"as" | b"import");
                    if declares_nothing {
                        return Err(self.skip_statement(after, end));
                    }
                    j = self.skip_decorators(n, end);
                }
                b"default" if mods.export => {
                    mods.default = true;
                    j = after;
                }
                b"declare" if is_word_byte(self.at(n)) && !next.is_empty() => {
                    mods.declare = true;
                    j = after;
                }
                b"abstract" if next == b"class" => {
                    mods.is_abstract = true;
                    j = after;
                }
                b"async" if next == b"function" && self.line(n) == self.line(k) => {
                    mods.is_async = true;
                    j = after;
                }
                _ => return Ok((k, mods)),
            }
        }
    }

    pub(super) fn skip_statement(&self, i: usize, end: usize) -> usize {
        self.scan(i, end, Stop::NONE).at + 1
    }

    /// Parameters and return type after a name: `<T>(a: A): R` then `{` body or the end of a
    /// signature. Returns (head end, end of the whole thing, next statement offset).
    pub(super) fn callable(&self, i: usize, end: usize) -> (usize, usize, usize) {
        let mut j = self.skip_ws(i, end);
        if self.at(j) == b'<' {
            if let Some(close) = self.angle_close(j, end) {
                j = self.skip_ws(close + 1, end);
            }
        }
        let head = self.scan(j, end, Stop::HEAD);
        if head.at < end && self.at(head.at) == b'{' {
            let close = self.close_of(head.at, end).unwrap_or(end.saturating_sub(1));
            (head.at, close, close + 1)
        } else {
            let next = if self.at(head.at) == b';' {
                head.at + 1
            } else {
                head.at
            };
            (head.last + 1, head.last, next)
        }
    }

    pub(super) fn function(
        &self,
        start: usize,
        after: usize,
        end: usize,
        mods: Mods,
        out: &mut Vec<Entry>,
    ) -> usize {
        let mut j = self.skip_ws(after, end);
        let generator = self.at(j) == b'*';
        if generator {
            j = self.skip_ws(j + 1, end);
        }
        let name_start = j;
        let name_end = self.word_end(j, end);
        let (head_end, close, next) = self.callable(name_end, end);
        let name = if name_end > name_start {
            self.text(name_start, name_end).to_string()
        } else if mods.default {
            "default".to_string()
        } else {
            return next;
        };
        let mut sig = mods.prefix();
        if generator {
            sig.push('*');
        }
        if name_end == name_start {
            sig.push_str("function");
        }
        sig.push_str(self.text(name_start, head_end));
        out.push(
            Entry::new(Kind::Function, name, self.line(start), self.line(close))
                .with_signature(owned_signature(sig)),
        );
        next
    }

    /// A class head and body at `kw` (`class`); `after` is right after the keyword.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn class(
        &self,
        start: usize,
        kw: usize,
        after: usize,
        end: usize,
        mods: Mods,
        nesting: usize,
        out: &mut Vec<Entry>,
    ) -> usize {
        let (n, next) = self.next_word(after, end);
        let named = !next.is_empty() && next != b"extends" && next != b"implements";
        let head = self.scan(
            kw,
            end,
            Stop {
                ty: true,
                body: true,
                no_asi: true,
                ..Stop::NONE
            },
        );
        if head.at >= end || self.at(head.at) != b'{' {
            return head.at + 1;
        }
        let name = if named {
            self.text(n, n + next.len()).to_string()
        } else if mods.default {
            "default".to_string()
        } else {
            return head.at + 1;
        };
        let close = self.close_of(head.at, end).unwrap_or(end.saturating_sub(1));
        let cut = nesting >= MAX_NESTING && self.has_code(head.at + 1, close);
        let members = if nesting < MAX_NESTING {
            self.class_body(head.at + 1, close)
        } else {
            Vec::new()
        };
        let sig = format!(
            "{}{}",
            mods.prefix(),
            self.text(if named { n } else { kw }, head.at)
        );
        out.push(
            Entry::new(Kind::Class, name, self.line(start), self.line(close))
                .with_signature(owned_signature(sig))
                .with_children(members)
                .cut_by_nesting(cut),
        );
        close + 1
    }

    /// `interface`/`enum` named at `name`: a head, then a braced body.
    pub(super) fn simple_block(
        &self,
        kind: Kind,
        start: usize,
        name: usize,
        end: usize,
        mods: Mods,
        out: &mut Vec<Entry>,
    ) -> usize {
        let name_end = self.word_end(name, end);
        let head = self.scan(
            name,
            end,
            Stop {
                ty: true,
                body: true,
                no_asi: true,
                ..Stop::NONE
            },
        );
        let mut children = Vec::new();
        let close = if head.at < end && self.at(head.at) == b'{' {
            let close = self.close_of(head.at, end).unwrap_or(end.saturating_sub(1));
            children = if kind == Kind::Enum {
                self.enum_body(head.at + 1, close)
            } else {
                self.interface_body(head.at + 1, close)
            };
            close
        } else {
            head.last
        };
        let mut sig = mods.prefix();
        if kind == Kind::Enum && self.text(start, name).contains("const") {
            sig.push_str("const ");
        }
        sig.push_str(self.text(name, head.at.min(end)));
        out.push(
            Entry::new(
                kind,
                self.text(name, name_end),
                self.line(start),
                self.line(close),
            )
            .with_signature(owned_signature(sig))
            .with_children(children),
        );
        close + 1
    }

    pub(super) fn type_alias(
        &self,
        start: usize,
        name: usize,
        end: usize,
        mods: Mods,
        out: &mut Vec<Entry>,
    ) -> usize {
        let name_end = self.word_end(name, end);
        let s = self.scan(
            name_end,
            end,
            Stop {
                ty: true,
                ..Stop::NONE
            },
        );
        let mut s = s;
        let semi = self.skip_ws(s.at, end);
        if self.at(s.at) != b';' && self.at(semi) == b';' {
            // `type A = B` + newline + `;(x as A).y = z`: the `;` still ends the alias.
            s = Scanned {
                last: semi,
                at: semi,
            };
        }
        let first_line_end =
            memchr::memchr(b'\n', self.m.get(name..).unwrap_or(&[])).map_or(end, |n| name + n);
        let sig = format!(
            "{}{}",
            mods.prefix(),
            self.text(name, first_line_end.min(s.last + 1))
        );
        out.push(
            Entry::new(
                Kind::Type,
                self.text(name, name_end),
                self.line(start),
                self.line(s.last),
            )
            .with_signature(owned_signature(sig)),
        );
        s.at + 1
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn namespace(
        &self,
        start: usize,
        name: usize,
        end: usize,
        mods: Mods,
        nesting: usize,
        out: &mut Vec<Entry>,
    ) -> usize {
        let head = self.scan(name, end, Stop::HEAD);
        let raw = self.text(name, head.last + 1).trim();
        // `module "x"` keeps its keyword; the kind already says namespace.
        let keyword = if self.text(start, name).trim_end().ends_with("module") {
            "module "
        } else {
            ""
        };
        let display = raw.trim_matches(|c| c == '"' || c == '\'').to_string();
        if head.at >= end || self.at(head.at) != b'{' {
            // `declare module "x";`
            out.push(
                Entry::new(
                    Kind::Namespace,
                    display,
                    self.line(start),
                    self.line(head.last),
                )
                .with_signature(owned_signature(format!("{}{keyword}{raw}", mods.prefix()))),
            );
            return head.at + 1;
        }
        let close = self.close_of(head.at, end).unwrap_or(end);
        let mut children = Vec::new();
        let outer = self.cut.replace(false);
        let mut cut = false;
        if nesting < MAX_NESTING {
            self.region(head.at + 1, close, nesting + 1, &mut children);
        } else {
            cut = self.has_code(head.at + 1, close);
        }
        // A `declare global {}` inside left unread marks this namespace too.
        cut |= self.cut.replace(outer);
        out.push(
            Entry::new(
                Kind::Namespace,
                display,
                self.line(start),
                self.line(close.min(end.saturating_sub(1))),
            )
            .with_signature(owned_signature(format!("{}{keyword}{raw}", mods.prefix())))
            .with_children(children)
            .cut_by_nesting(cut),
        );
        close + 1
    }
}
