//! JavaScript/TypeScript outline scanner.
//!
//! The text is masked first (comments, strings, regex and template literals, and with
//! `ParseOptions.jsx` whole JSX elements blanked; see [`mask`]). A statement scanner then walks
//! the top level of the program and of namespace bodies, tracking only brackets, `;` and
//! newlines (automatic semicolon insertion), and reads declarations: functions (overloads and
//! ambient ones too), classes with their members, interfaces, type aliases, enums, namespaces,
//! every name declared by `const`/`let`/`var`, and `a.b = function/arrow/class` assignments.
//! Everything nested in brackets that is not a class or namespace body is skipped, so callbacks
//! and IIFE contents never reach the outline.

mod mask;
#[cfg(test)]
mod tests;

use crate::outline::{Entry, Kind};
use crate::parse::lex::is_word_byte;
use crate::parse::{signature, LineIndex, ParseOptions};

/// Deepest namespace/class nesting followed; deeper bodies are skipped (junk input guard).
const MAX_NESTING: usize = 16;

pub fn parse(text: &str, options: ParseOptions) -> Vec<Entry> {
    let mut masked = mask::mask(text, options.jsx);
    if text.starts_with('\u{feff}') {
        // A byte order mark is not part of the first word.
        if let Some(bom) = masked.get_mut(..3) {
            bom.fill(b' ');
        }
    }
    let scanner = Scanner {
        src: text,
        m: &masked,
        lines: LineIndex::new(text),
    };
    let mut out = Vec::new();
    scanner.region(0, masked.len(), 0, &mut out);
    out
}

/// What stops [`Scanner::scan`] besides the end of the statement.
#[derive(Debug, Clone, Copy, Default)]
struct Stop {
    /// `<`/`>` are brackets (type context) instead of operators.
    ty: bool,
    /// Stop at a top-level `,` (declarator lists).
    comma: bool,
    /// Stop at a top-level `=` that is not `==`/`=>` (type annotation before a value).
    eq: bool,
    /// Stop at a top-level `{` that cannot start an object type (a body after a head).
    body: bool,
    /// Stop at a top-level `=>` (return type of an arrow function).
    arrow: bool,
    /// Newlines never end the scan (class and interface heads run to their body).
    no_asi: bool,
}

/// Where a scan stopped.
#[derive(Debug, Clone, Copy)]
struct Scanned {
    /// Offset of the last significant byte before the stop (the statement's last byte).
    last: usize,
    /// Offset of the stopping byte (`;`, `,`, `=`, `{`, `=>`, a closing bracket, the newline,
    /// or the region end).
    at: usize,
}

/// Words after which a statement continues on the next line.
const CONTINUE_WORDS: &[&[u8]] = &[
    b"in",
    b"of",
    b"instanceof",
    b"typeof",
    b"new",
    b"delete",
    b"await",
    b"extends",
    b"keyof",
    b"as",
    b"satisfies",
    b"is",
    b"infer",
    b"readonly",
    b"unique",
    b"implements",
];

/// Words that may start a line continuing the previous one.
const CONTINUE_LINE_WORDS: &[&[u8]] = &[
    b"as",
    b"satisfies",
    b"instanceof",
    b"in",
    b"extends",
    b"implements",
];

/// Words after which a `{` opens an object type rather than a body.
const TYPE_EXPECTING_WORDS: &[&[u8]] = &[
    b"keyof",
    b"typeof",
    b"extends",
    b"is",
    b"infer",
    b"readonly",
    b"unique",
    b"asserts",
    b"implements",
    b"new",
];

const MEMBER_MODIFIERS: &[&[u8]] = &[
    b"public",
    b"private",
    b"protected",
    b"static",
    b"readonly",
    b"abstract",
    b"async",
    b"override",
    b"declare",
    b"accessor",
    b"get",
    b"set",
];

#[derive(Debug, Default, Clone, Copy)]
struct Mods {
    export: bool,
    default: bool,
    declare: bool,
    is_async: bool,
    is_abstract: bool,
}

impl Mods {
    fn prefix(&self) -> String {
        let mut out = String::new();
        for (on, word) in [
            (self.export, "export "),
            (self.default, "default "),
            (self.declare, "declare "),
            (self.is_abstract, "abstract "),
            (self.is_async, "async "),
        ] {
            if on {
                out.push_str(word);
            }
        }
        out
    }
}

/// What a value expression is, as far as the outline cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Value {
    /// `function …` / `async function …`: the offset of its `{` (if any) for the signature.
    Function {
        head_end: usize,
    },
    /// An arrow function: the offset of its `=>`.
    Arrow {
        arrow: usize,
    },
    /// `class … {`: the offset of its body's `{`.
    Class {
        open: usize,
    },
    Other,
}

struct Scanner<'a> {
    src: &'a str,
    m: &'a [u8],
    lines: LineIndex,
}

impl Scanner<'_> {
    fn at(&self, i: usize) -> u8 {
        self.m.get(i).copied().unwrap_or(0)
    }

    fn line(&self, offset: usize) -> usize {
        self.lines.line_of(offset)
    }

    /// The original text of `start..end`, empty when out of range or not on char boundaries.
    fn text(&self, start: usize, end: usize) -> &str {
        self.src.get(start..end.max(start)).unwrap_or("")
    }

    fn skip_ws(&self, mut i: usize, end: usize) -> usize {
        while i < end && self.at(i).is_ascii_whitespace() {
            i += 1;
        }
        i
    }

    /// Skips spaces and tabs only (stays on the line).
    fn skip_blank(&self, mut i: usize, end: usize) -> usize {
        while i < end && matches!(self.at(i), b' ' | b'\t' | b'\r') {
            i += 1;
        }
        i
    }

    /// End of the word starting at `i` (`i` itself when no word starts there).
    fn word_end(&self, i: usize, end: usize) -> usize {
        let mut j = i;
        while j < end && is_word_byte(self.at(j)) {
            j += 1;
        }
        j
    }

    fn word(&self, i: usize, end: usize) -> &[u8] {
        self.m.get(i..self.word_end(i, end)).unwrap_or(&[])
    }

    /// The next word after `i` (skipping whitespace) and its start.
    fn next_word(&self, i: usize, end: usize) -> (usize, &[u8]) {
        let j = self.skip_ws(i, end);
        (j, self.word(j, end))
    }

    /// The bracket closing the one at `open` (any of `([{`, counted together), or `None`.
    fn close_of(&self, open: usize, end: usize) -> Option<usize> {
        let mut depth = 0usize;
        let mut i = open;
        while i < end {
            match self.at(i) {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Some(i);
                    }
                }
                _ => {}
            }
            i += 1;
        }
        None
    }

    /// The `>` closing the `<` at `open` in a type context (brackets inside skipped, `=>` is not a
    /// closer); `None` when something that cannot be in type arguments comes first.
    fn angle_close(&self, open: usize, end: usize) -> Option<usize> {
        let mut depth = 0usize;
        let mut i = open;
        let limit = end.min(open.saturating_add(1000));
        while i < limit {
            match self.at(i) {
                b'<' => {
                    depth += 1;
                    if depth > 8 {
                        return None;
                    }
                }
                b'&' | b'|' if self.at(i + 1) == self.at(i) => return None,
                b'>' if self.at(i.saturating_sub(1)) != b'=' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Some(i);
                    }
                }
                b'(' | b'[' | b'{' => i = self.close_of(i, limit)?,
                b';' | b')' | b']' | b'}' => return None,
                _ => {}
            }
            i += 1;
        }
        None
    }

    /// In an expression, `<` right after a name that opens type arguments of a call
    /// (`useState<A, B>(x)`): the offset of the closing `>`.
    fn call_type_args(&self, open: usize, end: usize) -> Option<usize> {
        let mut p = open;
        while p > 0 && self.at(p - 1).is_ascii_whitespace() {
            p -= 1;
        }
        let prev = if p == 0 { b';' } else { self.at(p - 1) };
        let adjacent = p == open && is_word_byte(prev);
        // A generic arrow function `<T>(x: T) => x` starts where an operand is expected.
        let operand_expected = matches!(
            prev,
            b'=' | b'(' | b',' | b':' | b'?' | b'[' | b'{' | b';' | b'|' | b'&'
        ) || (prev == b'>' && p >= 2 && self.at(p - 2) == b'=');
        if !adjacent && !operand_expected {
            return None;
        }
        let close = self.angle_close(open, end)?;
        let next = self.skip_blank(close + 1, end);
        let c = self.at(next);
        if c == b'(' || c == b'`' {
            return Some(close);
        }
        // `x as Map<K, V>`, `new Set<A>()`: type arguments right after a name, followed by
        // something a comparison's right operand could not be.
        let ends_operand = next >= end
            || matches!(
                c,
                b')' | b',' | b';' | b']' | b'}' | b'.' | b'[' | b'?' | b'|' | b'&' | b'\n' | b'\r'
            )
            || (c == b'=' && self.at(next + 1) != b'=');
        (adjacent && ends_operand).then_some(close)
    }

    /// Scans a statement (or part of one) from `start` to its end per `stop`.
    fn scan(&self, start: usize, end: usize, stop: Stop) -> Scanned {
        let mut depth = 0usize;
        // The last significant byte so far: at the start, the token before it.
        let mut last = start;
        while last > start.saturating_sub(256) && last > 0 && self.at(last).is_ascii_whitespace() {
            last -= 1;
        }
        let mut i = start;
        while i < end {
            let c = self.at(i);
            match c {
                b'(' | b'[' | b'{' => {
                    if depth == 0 && c == b'{' && stop.body && !self.type_expected(start, last, i) {
                        return Scanned { last, at: i };
                    }
                    depth += 1;
                }
                b')' | b']' | b'}' => {
                    if depth == 0 {
                        return Scanned { last, at: i };
                    }
                    depth -= 1;
                }
                b'`' => {
                    // A template literal is masked whole; its newlines are not line ends.
                    let close = memchr::memchr(b'`', self.m.get(i + 1..end).unwrap_or(&[]))
                        .map_or(end, |n| i + 1 + n);
                    last = close.min(end.saturating_sub(1));
                    i = close + 1;
                    continue;
                }
                b'<' if stop.ty => depth += 1,
                b'>' if stop.ty && self.at(i.saturating_sub(1)) != b'=' && depth > 0 => depth -= 1,
                b'<' if depth == 0 => {
                    // Only top-level commas and line ends matter, so only there are type
                    // arguments told from comparisons.
                    if let Some(close) = self.call_type_args(i, end) {
                        last = close;
                        i = close + 1;
                        continue;
                    }
                }
                _ => {}
            }
            if depth == 0 {
                match c {
                    b';' => return Scanned { last, at: i },
                    b',' if stop.comma => return Scanned { last, at: i },
                    b'=' if stop.eq
                        && !matches!(self.at(i + 1), b'=' | b'>')
                        && !is_op(self.at(i.saturating_sub(1))) =>
                    {
                        return Scanned { last, at: i }
                    }
                    b'=' if stop.arrow && self.at(i + 1) == b'>' => return Scanned { last, at: i },
                    b'\n' if i > start && !stop.no_asi => {
                        let next = self.skip_ws(i, end);
                        if !(stop.body && self.at(next) == b'{') && self.asi_ends(last, next, end) {
                            return Scanned { last, at: i };
                        }
                        // The statement goes on: resume at the next token (blank runs once).
                        i = next;
                        continue;
                    }
                    _ => {}
                }
            }
            if !c.is_ascii_whitespace() {
                last = i;
            }
            i += 1;
        }
        Scanned { last, at: end }
    }

    /// In a head scanned from `start`, whether a `{` at `brace` opens an object type (the type so
    /// far is empty or ends in an operator) rather than a body.
    fn type_expected(&self, start: usize, last: usize, brace: usize) -> bool {
        if last < start || last >= brace || self.at(last).is_ascii_whitespace() {
            return true;
        }
        let prev = self.at(last);
        if is_word_byte(prev) {
            let mut s = last;
            while s > start && is_word_byte(self.at(s - 1)) {
                s -= 1;
            }
            let word = self.m.get(s..=last).unwrap_or(&[]);
            return TYPE_EXPECTING_WORDS.contains(&word);
        }
        match prev {
            b')' | b']' | b'}' | b'\'' | b'"' | b'`' | b'!' => false,
            b'>' => self.at(last.saturating_sub(1)) == b'=',
            _ => true,
        }
    }

    /// At a top-level newline: whether automatic semicolon insertion ends the statement whose
    /// last significant byte is `last` and whose next line starts at `next`.
    fn asi_ends(&self, last: usize, next: usize, end: usize) -> bool {
        let prev = self.at(last);
        if is_word_byte(prev) {
            let mut s = last;
            while s > 0 && is_word_byte(self.at(s - 1)) {
                s -= 1;
            }
            let property = s > 0 && self.at(s - 1) == b'.';
            if !property && CONTINUE_WORDS.contains(&self.m.get(s..=last).unwrap_or(&[])) {
                return false;
            }
        } else {
            let before = self.at(last.saturating_sub(1));
            match prev {
                b'+' | b'-' if before == prev => {}
                b'>' if before == b'=' => return false,
                b'=' | b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^' | b'~' | b'<'
                | b'?' | b':' | b',' | b'(' | b'[' | b'{' | b'.' | b'@' => return false,
                _ => {}
            }
        }
        if next >= end {
            return true;
        }
        match self.at(next) {
            b'.' | b'?' | b':' | b'|' | b'&' | b'+' | b'*' | b'/' | b'%' | b'=' | b',' | b'>'
            | b'^' => self.at(next) == b'+' && self.at(next + 1) == b'+',
            b'-' => self.at(next + 1) == b'-',
            _ => {
                let word = self.word(next, end);
                !CONTINUE_LINE_WORDS.contains(&word)
            }
        }
    }

    /// Outlines the statements of `start..end` (the program or a namespace body) into `out`.
    fn region(&self, start: usize, end: usize, nesting: usize, out: &mut Vec<Entry>) {
        let mut i = start;
        loop {
            i = self.skip_ws(i, end);
            if i >= end {
                break;
            }
            let next = self.statement(i, end, nesting, out);
            i = next.max(i + 1);
        }
    }

    /// Skips decorators (`@a.b(…)`) starting at `i`; returns the next token.
    fn skip_decorators(&self, mut i: usize, end: usize) -> usize {
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
    fn statement(&self, i: usize, end: usize, nesting: usize, out: &mut Vec<Entry>) -> usize {
        let mut j = self.skip_decorators(i, end);
        let start = j;
        let mut mods = Mods::default();
        loop {
            let (k, word) = self.next_word(j, end);
            let after = k + word.len();
            let (n, next) = self.next_word(after, end);
            match word {
                b"export" => {
                    mods.export = true;
                    let c = self.at(n);
                    if next.is_empty() && c != b'@' {
                        // `export { a as b }`, `export * from`, `export = x`
                        return self.skip_statement(after, end);
                    }
                    if matches!(next, b"as" | b"import") {
                        return self.skip_statement(after, end);
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
                _ => {
                    j = k;
                    break;
                }
            }
        }
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
                }
                close + 1
            }
            b"const" | b"let" | b"var" if next_is_name || matches!(self.at(n), b'{' | b'[') => {
                self.declarations(word, n, end, mods, out)
            }
            b"import" => self.skip_statement(after, end),
            _ if mods.default => self.skip_statement(k, end),
            _ if !word.is_empty() && !mods.export && !mods.declare => self.assignment(k, end, out),
            _ => self.skip_statement(k, end),
        }
    }

    fn skip_statement(&self, i: usize, end: usize) -> usize {
        self.scan(i, end, Stop::default()).at + 1
    }

    /// Parameters and return type after a name: `<T>(a: A): R` then `{` body or the end of a
    /// signature. Returns (head end, end of the whole thing, next statement offset).
    fn callable(&self, i: usize, end: usize) -> (usize, usize, usize) {
        let mut j = self.skip_ws(i, end);
        if self.at(j) == b'<' {
            if let Some(close) = self.angle_close(j, end) {
                j = self.skip_ws(close + 1, end);
            }
        }
        let head = self.scan(
            j,
            end,
            Stop {
                ty: true,
                body: true,
                ..Stop::default()
            },
        );
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

    fn function(
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
                .with_signature(signature(&sig)),
        );
        next
    }

    /// A class head and body at `kw` (`class`); `after` is right after the keyword.
    #[allow(clippy::too_many_arguments)]
    fn class(
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
                ..Stop::default()
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
                .with_signature(signature(&sig))
                .with_children(members),
        );
        close + 1
    }

    /// `interface`/`enum` named at `name`: a head, then a braced body.
    fn simple_block(
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
                ..Stop::default()
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
            .with_signature(signature(&sig))
            .with_children(children),
        );
        close + 1
    }

    /// A member name at `i`: an identifier, `#private`, a quoted string or `[computed]`; returns
    /// (name, end offset). `None` for anything else, index signatures included.
    fn member_name(&self, i: usize, end: usize) -> Option<(String, usize)> {
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
    fn interface_body(&self, start: usize, end: usize) -> Vec<Entry> {
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
    fn enum_body(&self, start: usize, end: usize) -> Vec<Entry> {
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

    fn type_alias(
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
                ..Stop::default()
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
            .with_signature(signature(&sig)),
        );
        s.at + 1
    }

    #[allow(clippy::too_many_arguments)]
    fn namespace(
        &self,
        start: usize,
        name: usize,
        end: usize,
        mods: Mods,
        nesting: usize,
        out: &mut Vec<Entry>,
    ) -> usize {
        let head = self.scan(
            name,
            end,
            Stop {
                ty: true,
                body: true,
                ..Stop::default()
            },
        );
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
                .with_signature(signature(&format!("{}{keyword}{raw}", mods.prefix()))),
            );
            return head.at + 1;
        }
        let close = self.close_of(head.at, end).unwrap_or(end);
        let mut children = Vec::new();
        if nesting < MAX_NESTING {
            self.region(head.at + 1, close, nesting + 1, &mut children);
        }
        out.push(
            Entry::new(
                Kind::Namespace,
                display,
                self.line(start),
                self.line(close.min(end.saturating_sub(1))),
            )
            .with_signature(signature(&format!("{}{keyword}{raw}", mods.prefix())))
            .with_children(children),
        );
        close + 1
    }

    /// Classifies the value expression starting at `v`.
    fn value(&self, v: usize, end: usize) -> Value {
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
    fn value_end(&self, v: usize, value: Value, end: usize, comma: bool) -> (Scanned, bool) {
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
    fn declarations(
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
    fn assignment(&self, i: usize, end: usize, out: &mut Vec<Entry>) -> usize {
        // The target: name (. name | [ … ])+
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
            return self.skip_statement(i, end);
        }
        let (span, whole) = self.value_end(v, value, end, false);
        if !whole {
            return self.skip_statement(i, end);
        }
        let name = self
            .text(ps, pe)
            .trim()
            .trim_matches(|c| c == '"' || c == '\'' || c == '`')
            .to_string();
        let target = self.text(i, j);
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

    /// Members of a class body `start..end` (between the braces).
    fn class_body(&self, start: usize, end: usize) -> Vec<Entry> {
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

    fn member(&self, i: usize, end: usize, out: &mut Vec<Entry>) -> usize {
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

    fn skip_member(&self, i: usize, end: usize) -> usize {
        let s = self.scan(i, end, Stop::default());
        s.at + 1
    }
}

fn is_op(byte: u8) -> bool {
    matches!(
        byte,
        b'=' | b'!' | b'<' | b'>' | b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^' | b'?'
    )
}
