//! A JavaScript/TypeScript masker that also understands JSX.
//!
//! Same contract as [`crate::parse::lex::mask`] (same length, newlines kept, comments and string
//! contents blanked, template literals blanked, regex literals blanked and delimited by `"`), plus: a JSX element is
//! blanked as a whole and its first and last bytes become `(` and `)`, so the rest of the
//! scanner sees one parenthesized expression. JSX text (`<p>Don't {x}</p>`) therefore cannot open a string or a brace.
//! `lex::mask` cannot be used for files that may hold JSX because it reads JSX text as code.

use crate::parse::lex::is_word_byte;

/// Keywords after which an expression (a regex literal or a JSX element) may start.
const EXPR_KEYWORDS: &[&[u8]] = &[
    b"case",
    b"delete",
    b"do",
    b"else",
    b"in",
    b"instanceof",
    b"new",
    b"of",
    b"return",
    b"throw",
    b"typeof",
    b"void",
    b"yield",
    b"await",
    b"default",
];

/// Whether `word` is one of [`EXPR_KEYWORDS`].
fn is_expression_keyword(word: &[u8]) -> bool {
    word.len() <= 10
        && word.first().is_some_and(u8::is_ascii_lowercase)
        && EXPR_KEYWORDS.contains(&word)
}

/// How [`Masker::plain_run`] reads a byte of code.
#[derive(Clone, Copy)]
enum CodeByte {
    /// Part of a word (see [`is_word_byte`]).
    Word,
    /// Whitespace, which leaves what an operand may follow as it was.
    Space,
    /// May start a comment, a literal, an element or a brace (`<` only with JSX).
    Special,
    /// Any other byte: it is noted as the last code byte.
    Operator,
}

/// [`CodeByte`] of every byte.
static CODE_BYTES: [CodeByte; 256] = {
    let mut table = [CodeByte::Operator; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        table[byte] = if b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80 {
            CodeByte::Word
        } else if b.is_ascii_whitespace() {
            CodeByte::Space
        } else if matches!(b, b'/' | b'\'' | b'"' | b'`' | b'{' | b'}' | b'<') {
            CodeByte::Special
        } else {
            CodeByte::Operator
        };
        byte += 1;
    }
    table
};

/// How many times a JSX guess may be abandoned (each costs a rescan) before JSX is given up.
const MAX_JSX_ABORTS: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CodeKind {
    Top,
    Subst,
    JsxExpr,
}

#[derive(Debug, Clone, Copy)]
enum Frame {
    Code { depth: usize, kind: CodeKind },
    Template,
    JsxTag { closing: bool },
    JsxChildren,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Literal {
    Template,
    Jsx,
}

struct Masker<'a> {
    src: &'a [u8],
    out: Vec<u8>,
    pos: usize,
    stack: Vec<Frame>,
    jsx: bool,
    /// Last non-space code byte, where it is, and where its word starts when it ends one.
    prev: u8,
    prev_pos: usize,
    prev_word: usize,
    /// The outermost template or JSX element being scanned: (start offset, kind).
    literal: Option<(usize, Literal)>,
    /// The outermost JSX element: (stack length before it, start offset).
    jsx_root: Option<(usize, usize)>,
    aborts: usize,
    /// Search's mask: the code inside templates (`${…}`) and JSX (tag names, `{…}`) stays,
    /// only their text is blanked, so that a use of a name there is found.
    keep_code: bool,
}

/// Masks `text`; with `jsx`, `<Tag …>` in expression position is read as JSX.
pub fn mask(text: &str, jsx: bool) -> Vec<u8> {
    masked(text, jsx, false)
}

/// Masks `text` for search: as [`mask`], but a template's `${…}` substitutions and a JSX
/// element's tag names and `{…}` expressions stay code (`--refs handleClick` finds
/// `onClick={handleClick}`); only template text, JSX text, attribute strings and comments are
/// blanked, and elements keep their own brackets.
pub fn search_mask(text: &str, jsx: bool) -> Vec<u8> {
    masked(text, jsx, true)
}

fn masked(text: &str, jsx: bool, keep_code: bool) -> Vec<u8> {
    let src = text.as_bytes();
    let mut m = Masker {
        src,
        out: src.to_vec(),
        pos: 0,
        stack: vec![Frame::Code {
            depth: 0,
            kind: CodeKind::Top,
        }],
        jsx,
        prev: b';',
        prev_pos: 0,
        prev_word: 0,
        literal: None,
        jsx_root: None,
        aborts: 0,
        keep_code,
    };
    if src.starts_with(b"#!") {
        let end = memchr::memchr(b'\n', src).unwrap_or(src.len());
        m.blank(0, end);
        m.pos = end;
    }
    m.run();
    m.out
}

impl Masker<'_> {
    fn at(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    fn blank(&mut self, start: usize, end: usize) {
        let end = end.min(self.out.len());
        if let Some(run) = self.out.get_mut(start.min(end)..end) {
            for byte in run {
                if *byte != b'\n' {
                    *byte = b' ';
                }
            }
        }
    }

    fn run(&mut self) {
        loop {
            if self.pos >= self.src.len() {
                if self.jsx_root.is_some() && self.aborts < MAX_JSX_ABORTS {
                    self.abort_jsx();
                    continue;
                }
                if let Some((start, _)) = self.literal.take() {
                    self.blank(start + 1, self.src.len());
                }
                return;
            }
            let Some(frame) = self.stack.last().copied() else {
                return;
            };
            match frame {
                Frame::Code { depth, kind } => self.code_step(depth, kind),
                Frame::Template => self.template_step(),
                Frame::JsxTag { closing } => self.tag_step(closing),
                Frame::JsxChildren => self.children_step(),
            }
        }
    }

    fn set_top(&mut self, frame: Frame) {
        if let Some(top) = self.stack.last_mut() {
            *top = frame;
        }
    }

    /// Leaves a literal frame; when that returns to plain code, blanks the whole literal.
    fn pop_literal(&mut self) {
        self.stack.pop();
        if self.stack.len() <= 1 && self.keep_code {
            // Its text was blanked as it was read.
            self.literal = None;
        } else if self.stack.len() <= 1 {
            if let Some((start, kind)) = self.literal.take() {
                match kind {
                    Literal::Template => self.blank(start + 1, self.pos.saturating_sub(1)),
                    Literal::Jsx => {
                        self.blank(start, self.pos);
                        if let Some(byte) = self.out.get_mut(start) {
                            *byte = b'(';
                        }
                        if let Some(byte) = self.out.get_mut(self.pos.saturating_sub(1)) {
                            *byte = b')';
                        }
                    }
                }
            }
        }
        if let Some((len, _)) = self.jsx_root {
            if self.stack.len() <= len {
                self.jsx_root = None;
            }
        }
        if matches!(self.stack.last(), Some(Frame::Code { .. })) {
            // A finished template or element is an operand: `/` after it divides.
            self.prev = b')';
            self.prev_pos = self.pos.saturating_sub(1);
        }
    }

    /// Gives up the current JSX guess: back to the `<`, read as an operator.
    fn abort_jsx(&mut self) {
        let Some((len, start)) = self.jsx_root.take() else {
            return;
        };
        self.aborts += 1;
        if self.aborts >= MAX_JSX_ABORTS {
            self.jsx = false;
        }
        self.stack.truncate(len.max(1));
        if let Some((lit_start, _)) = self.literal {
            if lit_start >= start {
                self.literal = None;
            }
        }
        // Restore what the guess blanked (only comments/strings inside it were touched).
        let end = self.pos.min(self.src.len());
        if let (Some(out), Some(src)) = (self.out.get_mut(start..end), self.src.get(start..end)) {
            out.copy_from_slice(src);
        }
        self.pos = start + 1;
        self.prev = b'<';
        self.prev_pos = start;
    }

    fn code_step(&mut self, depth: usize, kind: CodeKind) {
        let byte = self.src[self.pos];
        match byte {
            b'/' if self.at(self.pos + 1) == b'/' => {
                let start = self.pos;
                let end =
                    memchr::memchr(b'\n', &self.src[start..]).map_or(self.src.len(), |n| start + n);
                self.blank(start, end);
                self.pos = end;
            }
            b'/' if self.at(self.pos + 1) == b'*' => {
                let start = self.pos;
                let end = memchr::memmem::find(&self.src[start + 2..], b"*/")
                    .map_or(self.src.len(), |n| start + 2 + n + 2);
                self.blank(start, end);
                self.pos = end;
            }
            b'\'' | b'"' => {
                self.quoted(byte);
                self.note(byte, self.pos.saturating_sub(1));
            }
            b'`' => {
                if self.literal.is_none() {
                    self.literal = Some((self.pos, Literal::Template));
                }
                self.stack.push(Frame::Template);
                self.pos += 1;
            }
            b'/' if self.expression_allowed() && self.try_regex() => {}
            b'<' if self.jsx && self.expression_allowed() && self.looks_like_tag() => {
                if self.literal.is_none() {
                    self.literal = Some((self.pos, Literal::Jsx));
                }
                if self.jsx_root.is_none() {
                    self.jsx_root = Some((self.stack.len(), self.pos));
                }
                self.stack.push(Frame::JsxTag { closing: false });
                self.pos += 1;
            }
            b'{' => {
                self.set_top(Frame::Code {
                    depth: depth + 1,
                    kind,
                });
                self.note(byte, self.pos);
                self.pos += 1;
            }
            b'}' if depth == 0 && kind != CodeKind::Top => {
                self.pos += 1;
                self.stack.pop();
            }
            b'}' => {
                self.set_top(Frame::Code {
                    depth: depth.saturating_sub(1),
                    kind,
                });
                self.note(byte, self.pos);
                self.pos += 1;
            }
            _ => self.plain_run(),
        }
    }

    /// Reads code from `pos`, whose byte starts nothing (it is no comment, literal, element
    /// or brace), on while no byte may start one: most code is words, spaces and operators,
    /// and a turn of [`Masker::run`] for each byte would cost more than reading it.
    fn plain_run(&mut self) {
        let src = self.src;
        let mut pos = self.pos;
        while let Some(&byte) = src.get(pos) {
            match CODE_BYTES[usize::from(byte)] {
                CodeByte::Space => pos += 1,
                CodeByte::Word => {
                    let rest = src.get(pos..).unwrap_or(&[]);
                    let len = rest.iter().position(|b| !is_word_byte(*b));
                    let end = pos + len.unwrap_or(rest.len());
                    self.prev = byte;
                    self.prev_word = pos;
                    self.prev_pos = end - 1;
                    pos = end;
                }
                CodeByte::Special if pos > self.pos && (byte != b'<' || self.jsx) => break,
                CodeByte::Special | CodeByte::Operator => {
                    self.note(byte, pos);
                    pos += 1;
                }
            }
        }
        self.pos = pos;
    }

    /// Enters the code of a `${…}` substitution or a JSX `{…}` expression, its `{` just read.
    fn open_code(&mut self, kind: CodeKind) {
        self.prev = b'{';
        self.stack.push(Frame::Code { depth: 0, kind });
    }

    fn note(&mut self, byte: u8, pos: usize) {
        self.prev = byte;
        self.prev_pos = pos;
    }

    /// Whether an operand may start here (so `/` is a regex and `<` may be JSX).
    fn expression_allowed(&self) -> bool {
        let prev = self.prev;
        if is_word_byte(prev) {
            // Only a word ends at a word byte: asked at a `/` or `<`, seldom.
            let word = self.src.get(self.prev_word..=self.prev_pos).unwrap_or(&[]);
            return is_expression_keyword(word);
        }
        if prev == b'>' {
            // `=>` starts an expression; a closing `>` of generics or a comparison does not.
            return self.prev_pos > 0 && self.src.get(self.prev_pos - 1) == Some(&b'=');
        }
        !matches!(prev, b')' | b']' | b'}' | b'"' | b'\'' | b'`' | b'.')
    }

    /// `<` starts a JSX element: `<>`, `<div`, `<Foo.Bar`; not TSX generics `<T,>` / `<T extends U>`
    /// / `<T>(`.
    fn looks_like_tag(&self) -> bool {
        let next = self.at(self.pos + 1);
        if next == b'>' {
            return true;
        }
        if !next.is_ascii_alphabetic() && next != b'_' && next != b'$' {
            return false;
        }
        let mut i = self.pos + 1;
        while i < self.src.len()
            && (is_word_byte(self.src[i]) || self.src[i] == b'.' || self.src[i] == b'-')
        {
            i += 1;
        }
        let mut j = i;
        while j < self.src.len() && matches!(self.src[j], b' ' | b'\t') {
            j += 1;
        }
        match self.at(j) {
            b',' => false,
            b'=' => false,
            // `<T>(x: T) => x` is a generic arrow (TSX wants `<T,>`, but type positions allow it).
            b'>' => self.at(j + 1) != b'(',
            _ => !self.src[j..].starts_with(b"extends ") || j == i,
        }
    }

    fn quoted(&mut self, quote: u8) {
        let start = self.pos + 1;
        let mut i = start;
        while i < self.src.len() {
            let byte = self.src[i];
            if byte == b'\\' {
                i = crate::parse::lex::escape_end(self.src, i);
                continue;
            }
            if byte == quote || byte == b'\n' {
                break;
            }
            i += 1;
        }
        let end = i.min(self.src.len());
        self.blank(start, end);
        self.pos = if self.at(end) == quote { end + 1 } else { end };
    }

    /// A regex literal on one line: `/…/flags`, with classes `[…]` that may hold `/`.
    fn try_regex(&mut self) -> bool {
        let start = self.pos + 1;
        let mut i = start;
        let mut in_class = false;
        while i < self.src.len() {
            match self.src[i] {
                // A line break ends a regex literal, escaped or not.
                b'\\' if matches!(self.src.get(i + 1), Some(b'\n' | b'\r')) => return false,
                b'\\' => i += 1,
                b'[' => in_class = true,
                b']' => in_class = false,
                b'/' if !in_class => {
                    self.blank(start, i);
                    // Delimit it like a string so that no `/` operator is left behind.
                    if let Some(byte) = self.out.get_mut(start - 1) {
                        *byte = b'"';
                    }
                    if let Some(byte) = self.out.get_mut(i) {
                        *byte = b'"';
                    }
                    self.pos = i + 1;
                    self.note(b')', i);
                    return true;
                }
                b'\n' => return false,
                _ => {}
            }
            i += 1;
        }
        false
    }

    fn template_step(&mut self) {
        let start = self.pos;
        match self.src[self.pos] {
            b'\\' => self.pos = crate::parse::lex::escape_end(self.src, self.pos),
            b'`' => {
                self.pos += 1;
                self.pop_literal();
                return;
            }
            b'$' if self.at(self.pos + 1) == b'{' => {
                self.pos += 2;
                self.open_code(CodeKind::Subst);
                return;
            }
            _ => self.pos += 1,
        }
        self.blank_text(start, self.pos);
    }

    /// Blanks literal text as it is read, in search's mask (the whole literal is blanked
    /// when it closes otherwise).
    fn blank_text(&mut self, start: usize, end: usize) {
        if self.keep_code {
            self.blank(start, end);
        }
    }

    fn tag_step(&mut self, closing: bool) {
        let byte = self.src[self.pos];
        match byte {
            b'{' => {
                self.pos += 1;
                self.open_code(CodeKind::JsxExpr);
            }
            b'"' | b'\'' => {
                // JSX attribute strings have no escapes and may span lines.
                let end = memchr::memchr(byte, &self.src[self.pos + 1..]).map(|n| self.pos + 1 + n);
                match end {
                    Some(end) => {
                        self.blank_text(self.pos + 1, end);
                        self.pos = end + 1;
                    }
                    None => self.abort_or_eof(),
                }
            }
            b'/' if self.at(self.pos + 1) == b'>' => {
                self.pos += 2;
                self.pop_literal();
            }
            b'>' => {
                self.pos += 1;
                if closing {
                    self.pop_literal();
                } else {
                    self.set_top(Frame::JsxChildren);
                }
            }
            b'/' if self.at(self.pos + 1) == b'/' || self.at(self.pos + 1) == b'*' => {
                // Comments are allowed between attributes.
                let start = self.pos;
                let end = if self.at(self.pos + 1) == b'/' {
                    memchr::memchr(b'\n', &self.src[start..]).map_or(self.src.len(), |n| start + n)
                } else {
                    memchr::memmem::find(&self.src[start + 2..], b"*/")
                        .map_or(self.src.len(), |n| start + 4 + n)
                };
                self.blank_text(start, end);
                self.pos = end;
            }
            b'<' if self.pos > 0 && is_word_byte(self.src[self.pos - 1]) => {
                // TSX type arguments on a tag: `<Select<Option> value={x} />`.
                let mut depth = 0usize;
                let mut i = self.pos;
                while i < self.src.len() && i < self.pos + 400 {
                    match self.src[i] {
                        b'<' => depth += 1,
                        b'>' => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                break;
                            }
                        }
                        b'{' | b'}' | b'\n' => break,
                        _ => {}
                    }
                    i += 1;
                }
                if self.at(i) == b'>' && depth == 0 {
                    self.pos = i + 1;
                } else {
                    self.abort_or_eof();
                }
            }
            _ if is_word_byte(byte) || byte.is_ascii_whitespace() => self.pos += 1,
            b'.' | b':' | b'-' | b'=' => self.pos += 1,
            _ => self.abort_or_eof(),
        }
    }

    fn abort_or_eof(&mut self) {
        if self.jsx_root.is_some() {
            self.abort_jsx();
        } else {
            self.pos = self.src.len();
        }
    }

    fn children_step(&mut self) {
        let rest = &self.src[self.pos..];
        let Some(n) = memchr::memchr2(b'{', b'<', rest) else {
            self.pos = self.src.len();
            return;
        };
        self.blank_text(self.pos, self.pos + n);
        self.pos += n;
        if self.src[self.pos] == b'{' {
            self.pos += 1;
            self.open_code(CodeKind::JsxExpr);
        } else if self.at(self.pos + 1) == b'/' {
            self.pos += 2;
            self.set_top(Frame::JsxTag { closing: true });
        } else {
            self.pos += 1;
            self.stack.push(Frame::JsxTag { closing: false });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{mask, search_mask};
    use crate::lang::Language;
    use crate::parse::soup;

    fn searched(text: &str, jsx: bool) -> String {
        String::from_utf8(search_mask(text, jsx)).expect("ASCII in, ASCII out")
    }

    #[test]
    fn search_keeps_the_code_inside_templates_and_jsx() {
        assert_eq!(
            searched("x = `a ${f(b)} c ${`d ${g} e`} \\` h`;", false),
            "x = `  ${f(b)}   ${`  ${g}  `}     `;"
        );
        assert_eq!(
            searched("r = <B on={h} t=\"run()\">Hi {h()} run()</B>;", true),
            "r = <B on={h} t=\"     \">   {h()}      </B>;"
        );
        // Comments and strings inside kept code are still blanked.
        assert_eq!(
            searched("y = `${'run' /* run */ + k}`;", false),
            "y = `${'   '           + k}`;"
        );
        // The parser's mask still blanks the whole literal.
        assert_eq!(
            String::from_utf8(mask("x = `a ${f(b)} c`;", false)).expect("ASCII"),
            "x = `           `;"
        );
    }

    /// Search's mask has the mask's shape (same length, same line breaks) and keeps every
    /// byte the parser's mask keeps: it only blanks less.
    #[test]
    fn search_mask_blanks_a_subset_of_what_the_mask_blanks() {
        for language in [Language::JavaScript, Language::TypeScript] {
            let result = soup::runner(256).run(&soup::text(language, 96), |text| {
                for jsx in [false, true] {
                    let (scanner, search) = (mask(&text, jsx), search_mask(&text, jsx));
                    soup::blanks_less(text.as_bytes(), &scanner, &search)?;
                }
                Ok(())
            });
            if let Err(failure) = result {
                panic!("{language}: {failure}");
            }
        }
    }
}
