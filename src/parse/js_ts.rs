//! JavaScript/TypeScript outline scanner.
//!
//! The text is masked first (comments, strings, regex and template literals, and with
//! `ParseOptions.jsx` whole JSX elements blanked; see `mask`). A statement scanner then walks
//! the top level of the program and of namespace bodies, tracking only brackets, `;` and
//! newlines (automatic semicolon insertion), and reads declarations: functions (overloads and
//! ambient ones too), classes with their members, interfaces, type aliases, enums, namespaces,
//! every name declared by `const`/`let`/`var`, and `a.b = function/arrow/class` assignments.
//! Everything nested in brackets that is not a class or namespace body is skipped, so callbacks
//! and IIFE contents never reach the outline.

pub(crate) mod mask;
mod members;
mod patterns;
mod statements;
#[cfg(test)]
mod tests;
mod values;

use crate::outline::{Entry, Kind};
use crate::parse::lex::is_word_byte;
use crate::parse::{owned_signature, signature, LineIndex, ParseOptions};

/// Deepest namespace/class nesting followed, and deepest object literal nesting read for
/// methods; deeper bodies are skipped (a stack guard against junk input) and the entry whose
/// body is skipped is marked [`Entry::cut_by_nesting`].
const MAX_NESTING: usize = 16;

pub(crate) fn parse(text: &str, options: ParseOptions) -> Vec<Entry> {
    let masked = mask::mask(text, options.jsx);
    let scanner = Scanner {
        src: text,
        m: &masked,
        lines: LineIndex::new(text),
        cut: std::cell::Cell::new(false),
    };
    let mut out = Vec::new();
    scanner.region(0, masked.len(), 0, &mut out);
    out
}

/// What stops [`Scanner::scan`] besides the end of the statement.
#[derive(Debug, Clone, Copy)]
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

impl Stop {
    /// Only the end of the statement (or of the enclosing brackets) stops the scan.
    const NONE: Stop = Stop {
        ty: false,
        comma: false,
        eq: false,
        body: false,
        arrow: false,
        no_asi: false,
    };
    /// A declaration head, types and all, up to its body's `{`.
    const HEAD: Stop = Stop {
        ty: true,
        body: true,
        ..Stop::NONE
    };
    /// One item of a comma-separated list (object members, declarators).
    const ITEM: Stop = Stop {
        comma: true,
        ..Stop::NONE
    };
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
    /// Set when a `declare global {}` body was not read for [`MAX_NESTING`]; the namespace
    /// around it is then marked.
    cut: std::cell::Cell<bool>,
}

impl Scanner<'_> {
    /// Whether the masked text `start..end` holds anything but blanks (a body that may hold
    /// entries, when a nesting limit keeps it from being read).
    fn has_code(&self, start: usize, end: usize) -> bool {
        let end = end.min(self.m.len());
        self.m
            .get(start.min(end)..end)
            .is_some_and(|body| body.iter().any(|b| !b.is_ascii_whitespace()))
    }

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

    /// Walks the items of a list or body `start..end` (statements, members, entries): calls
    /// `item` at the start of each, past white space, and goes on where it says the next may
    /// start (always forward, so a confused item cannot stall the walk).
    fn each_item(&self, start: usize, end: usize, mut item: impl FnMut(usize) -> usize) {
        let mut i = start;
        loop {
            i = self.skip_ws(i, end);
            if i >= end {
                break;
            }
            i = item(i).max(i + 1);
        }
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

    /// End of the word starting at `i` (`i` itself when no word starts there). A unicode
    /// escape (`\u00E9`, `\u{1F600}`) is part of a name as the character it stands for.
    fn word_end(&self, i: usize, end: usize) -> usize {
        let mut j = i;
        loop {
            while j < end && is_word_byte(self.at(j)) {
                j += 1;
            }
            match self.unicode_escape_end(j, end) {
                Some(after) => j = after,
                None => return j,
            }
        }
    }

    /// The end of the unicode escape at `i`: `\u` and four hex digits, or `\u{…}`.
    fn unicode_escape_end(&self, i: usize, end: usize) -> Option<usize> {
        if self.at(i) != b'\\' || self.at(i + 1) != b'u' {
            return None;
        }
        let (digits, after) = if self.at(i + 2) == b'{' {
            let close = memchr::memchr(b'}', self.m.get(i + 3..end.min(i + 12))?)?;
            (self.m.get(i + 3..i + 3 + close)?, i + 4 + close)
        } else {
            (self.m.get(i + 2..i + 6)?, i + 6)
        };
        let hex = !digits.is_empty() && digits.iter().all(u8::is_ascii_hexdigit);
        (hex && after <= end).then_some(after)
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
                // `\u{…}` in a name is no brace group.
                b'\\' if self.at(i + 2) == b'{' => {
                    if let Some(after) = self.unicode_escape_end(i, end) {
                        last = after - 1;
                        i = after;
                        continue;
                    }
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
                    // The line break starts at the `\r` of a `\r\n`.
                    b'\n'
                        if i - usize::from(self.at(i.wrapping_sub(1)) == b'\r') > start
                            && !stop.no_asi =>
                    {
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
            // `.in` is a property and `/x/is` a regex's flags, not operators.
            let property = s > 0 && matches!(self.at(s - 1), b'.' | b'"' | b'`');
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
}

fn is_op(byte: u8) -> bool {
    matches!(
        byte,
        b'=' | b'!' | b'<' | b'>' | b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^' | b'?'
    )
}
