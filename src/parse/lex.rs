//! Shared lexical scanning: blank out comments and string contents so that declaration regexes
//! and bracket matching see only code.
//!
//! [`mask`] returns text of the same byte length with the same newlines, where every comment and
//! the inside of every string literal is replaced by spaces. String delimiters stay, so a masked
//! `"{"` reads as `" "`. Offsets and line numbers found on the masked text are valid in the
//! original, which is where names and signatures are then read from.

mod php;
mod ruby;
mod strings;

/// How a language family writes comments and literals.
#[derive(Debug, Clone, Copy, Default)]
pub struct LexSpec {
    /// Line comment openers (`//`, `#`, `--`).
    pub line_comments: &'static [&'static str],
    /// Block comment delimiters (`/*`, `*/`).
    pub block_comment: Option<(&'static str, &'static str)>,
    /// Block comments nest (Rust, PostgreSQL).
    pub nested_comments: bool,
    /// Quote bytes that open a string closed by the same byte.
    pub quotes: &'static [u8],
    /// A backslash escapes the next byte inside quoted strings.
    pub backslash_escapes: bool,
    /// Quoted strings may run across lines (Rust); otherwise an unclosed string ends at the line
    /// end, which also limits the damage of a stray apostrophe in prose (JSX text, comments-like
    /// strings in Makefiles).
    pub multiline_strings: bool,
    /// `'` opens a char literal only when one closes it within a char; otherwise it is a Rust
    /// lifetime or label (`'a`, `'outer:`).
    pub rust_chars: bool,
    /// Rust raw strings `r"…"`, `r#"…"#`, `br##"…"##`.
    pub rust_raw_strings: bool,
    /// C++ raw strings `R"delim(…)delim"` with optional `u8`/`u`/`U`/`L` prefixes.
    pub cpp_raw_strings: bool,
    /// C++14 digit separators: `1'000'000` is a number, not a char literal.
    pub digit_separators: bool,
    /// Python triple-quoted strings (`"""`, `'''`) with any prefix.
    pub triple_quotes: bool,
    /// Backtick strings (Go raw strings, MySQL quoted identifiers). JavaScript's templates and
    /// regex literals need context this masker does not keep: see `js_ts::mask`.
    pub backtick: Backtick,
    /// PostgreSQL dollar quoting (`$$ … $$`, `$body$ … $body$`).
    pub dollar_quotes: bool,
    /// C# verbatim strings `@"…"` (`$@"…"`, `@$"…"`): no backslash escapes, `""` is a
    /// quote, line breaks allowed.
    pub verbatim_strings: bool,
    /// Swift raw strings `#"…"#`, `##"…"##`, `#"""…"""#`: no escapes, closed by the quote
    /// and as many `#`.
    pub hash_raw_strings: bool,
    /// Where a string holds code (see [`Interpolation`]). The code inside stays unmasked,
    /// brackets included, so one pass gives both the scanner's view (the hole's brackets pair
    /// up) and search's (an identifier in a hole is code).
    pub interpolation: Interpolation,
    /// Leveled long brackets (Lua's `[[ … ]]`, `[==[ … ]==]`), strings of their own and block
    /// comments after their comment opener (`--[[ … ]]`).
    pub long_brackets: Option<LongBrackets>,
    /// PHP: code lies between `<?php` (or `<?=`) and `?>`, the text around it is a template;
    /// heredocs `<<<ID … ID` and nowdocs `<<<'ID' … ID`; a `//` or `#` comment ends at `?>`.
    pub php: bool,
    /// Ruby: `=begin`/`=end` comments, heredocs (`<<~ID`, `<<-ID`, `<<ID`, quoted IDs),
    /// `%w[]`-style literals with any delimiter, regex literals told from division and
    /// `?a` character literals by what precedes them, and `__END__` ending the code.
    pub ruby: bool,
}

/// How a language writes code inside a string literal.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Interpolation {
    /// Strings hold no code.
    #[default]
    None,
    /// `"…${code}…"` in every `"` string (Kotlin).
    DollarBrace,
    /// `"…\(code)…"` in every `"` string (Swift).
    BackslashParen,
    /// `$"…{code}…"`: only a `$`-prefixed string has holes, `{{` is a brace (C#).
    DollarPrefixBrace,
    /// `"…{$code}…"` (PHP).
    BraceDollar,
    /// `"…#{code}…"` (Ruby; also its backticks, regex and `%Q`-style literals, heredocs).
    HashBrace,
}

/// A bracket form whose level is the count of a fill byte between two opening bytes; it
/// closes at the closing form of the same level, so `]]` inside `[=[ … ]=]` is text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LongBrackets {
    /// `[` in Lua.
    pub open: u8,
    /// `=` in Lua.
    pub fill: u8,
    /// `]` in Lua.
    pub close: u8,
    /// The line comment opener a long bracket turns into a block comment (`--`).
    pub comment: &'static str,
}

impl LongBrackets {
    /// Lua's: `[[`, `[==[`, and `--[[` comments.
    pub const LUA: LongBrackets = LongBrackets {
        open: b'[',
        fill: b'=',
        close: b']',
        comment: "--",
    };

    /// The level of the long bracket opening at `at` in `src` (`[==[` is 2), if one opens.
    fn level_at(&self, src: &[u8], at: usize) -> Option<usize> {
        let rest = src.get(at..)?;
        if rest.first() != Some(&self.open) {
            return None;
        }
        let level = rest[1..].iter().take_while(|b| **b == self.fill).count();
        (rest.get(1 + level) == Some(&self.open)).then_some(level)
    }

    /// The offset just past the long bracket of `level` whose body starts at `from`, and
    /// where its body ends (both the end of `src` when it never closes).
    fn end(&self, src: &[u8], from: usize, level: usize) -> (usize, usize) {
        let mut closing = vec![self.close];
        closing.extend(std::iter::repeat_n(self.fill, level));
        closing.push(self.close);
        let body = src.get(from..).unwrap_or(&[]);
        find(body, &closing).map_or((src.len(), src.len()), |n| {
            (from + n, from + n + closing.len())
        })
    }
}

impl LexSpec {
    /// No comments and no literals: every byte is code. The base other specs build on in
    /// constant context, where `Default::default()` cannot be called.
    pub const NONE: LexSpec = LexSpec {
        line_comments: &[],
        block_comment: None,
        nested_comments: false,
        quotes: b"",
        backslash_escapes: false,
        multiline_strings: false,
        rust_chars: false,
        rust_raw_strings: false,
        cpp_raw_strings: false,
        digit_separators: false,
        triple_quotes: false,
        backtick: Backtick::None,
        dollar_quotes: false,
        verbatim_strings: false,
        hash_raw_strings: false,
        interpolation: Interpolation::None,
        long_brackets: None,
        php: false,
        ruby: false,
    };

    /// The C family's common ground: `//` and `/* */` comments, `"` and `'` literals with
    /// backslash escapes, nothing else. Languages add their own forms on top
    /// (`LexSpec { rust_raw_strings: true, ..LexSpec::C_LIKE }`).
    pub const C_LIKE: LexSpec = LexSpec {
        line_comments: &["//"],
        block_comment: Some(("/*", "*/")),
        quotes: b"\"'",
        backslash_escapes: true,
        ..LexSpec::NONE
    };
}

/// What a backtick starts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Backtick {
    /// An ordinary character.
    #[default]
    None,
    /// A raw string to the next backtick (Go); also MySQL quoted identifiers.
    Raw,
    /// A quoted identifier to the next backtick on its line (Kotlin's and Swift's
    /// `` `a test's name` ``): code, left as written, so that a quote inside it opens nothing.
    Identifier,
}

/// Masks comments and string contents of `text` per `spec`. See the module docs.
pub fn mask(text: &str, spec: &LexSpec) -> String {
    // Masking only ever writes ASCII spaces over whole runs between ASCII delimiters, so the
    // result stays UTF-8; the lossy path is a guard that cannot panic.
    String::from_utf8(mask_bytes(text, spec))
        .unwrap_or_else(|err| String::from_utf8_lossy(err.as_bytes()).into_owned())
}

/// [`mask`] as bytes, for a scanner that reads bytes anyway (no UTF-8 check of the result).
pub fn mask_bytes(text: &str, spec: &LexSpec) -> Vec<u8> {
    let bytes = text.as_bytes();
    // Ruby stops reading at `__END__`: what follows is data.
    let code_end = match spec.ruby {
        true => ruby::data_start(bytes),
        false => bytes.len(),
    };
    let mut scanner = Scanner {
        src: &bytes[..code_end],
        out: bytes.to_vec(),
        spec,
        openers: Openers::new(spec, &bytes[..code_end]),
        holes: 0,
        pos: 0,
        code_from: 0,
        heredoc: None,
        ahead_in_heredoc: false,
        unclosed_attributes: 0,
    };
    if spec.php {
        scanner.leading_template();
    }
    scanner.code();
    let mut out = scanner.out;
    blank(&mut out, code_end, bytes.len());
    out
}

/// Most opener bytes a spec may have for the `memchr3` searches (three per group); a spec with
/// more is scanned with a byte table instead.
const MAX_OPENER_BYTES: usize = 12;

/// Finds the bytes that can open a comment or literal under `spec`; every other byte is plain
/// code that the scanner jumps over with `memchr3`, one search per group of three opener
/// bytes, each search's last answer kept until the scan passes it. Raw strings are not
/// openers of their own: they are recognised at their quote, by looking back at the prefix.
/// Built for every masked window, so it allocates nothing.
struct Openers {
    groups: [Search; MAX_OPENER_BYTES / 3],
    len: usize,
    /// Every opener byte, for a spec with more than [`MAX_OPENER_BYTES`] of them.
    table: Option<[bool; 256]>,
}

#[derive(Clone, Copy, Default)]
struct Search {
    bytes: [u8; 3],
    /// The offset of the next of `bytes` at or after the last query (`usize::MAX`: none left);
    /// `None` before the first search.
    next: Option<usize>,
}

impl Openers {
    /// The openers of `spec`, for scanning `src` (Ruby's `=` opens only `=begin`, so it is
    /// one only where `src` holds one: `=` is common code).
    fn new(spec: &LexSpec, src: &[u8]) -> Openers {
        let mut bytes = [0u8; MAX_OPENER_BYTES];
        let mut count = 0;
        let mut table: Option<[bool; 256]> = None;
        let mut add = |byte: u8| {
            if let Some(table) = table.as_mut() {
                table[usize::from(byte)] = true;
            } else if !bytes[..count].contains(&byte) {
                match bytes.get_mut(count) {
                    Some(slot) => {
                        *slot = byte;
                        count += 1;
                    }
                    None => {
                        let mut all = [false; 256];
                        bytes.iter().for_each(|b| all[usize::from(*b)] = true);
                        all[usize::from(byte)] = true;
                        table = Some(all);
                    }
                }
            }
        };
        let comment_openers = spec
            .line_comments
            .iter()
            .chain(spec.block_comment.iter().map(|(open, _)| open));
        comment_openers
            .filter_map(|opener| opener.as_bytes().first().copied())
            .for_each(&mut add);
        spec.quotes.iter().copied().for_each(&mut add);
        if spec.backtick != Backtick::None {
            add(b'`');
        }
        if spec.dollar_quotes {
            add(b'$');
        }
        if spec.hash_raw_strings {
            add(b'#');
        }
        if let Some(long) = spec.long_brackets {
            add(long.open);
        }
        if spec.php {
            add(b'?');
            add(b'<');
        }
        if spec.ruby {
            ruby::OPENERS.iter().copied().for_each(&mut add);
            if memchr::memmem::find(src, b"=begin").is_some() {
                add(b'=');
            }
        }
        let mut groups = [Search::default(); MAX_OPENER_BYTES / 3];
        for (group, chunk) in groups.iter_mut().zip(bytes[..count].chunks(3)) {
            // A short group repeats its first byte: memchr3 finds it all the same.
            let first = chunk.first().copied().unwrap_or(0);
            group.bytes = [
                first,
                chunk.get(1).copied().unwrap_or(first),
                chunk.get(2).copied().unwrap_or(first),
            ];
        }
        Openers {
            groups,
            len: count.div_ceil(3),
            table,
        }
    }

    /// The first opener at or after `from` (which never decreases), or `src.len()`.
    fn find(&mut self, src: &[u8], from: usize) -> usize {
        let rest = src.get(from..).unwrap_or(&[]);
        if let Some(table) = &self.table {
            return rest
                .iter()
                .position(|b| table[usize::from(*b)])
                .map_or(src.len(), |n| from + n);
        }
        let mut first = src.len();
        for search in self.groups.iter_mut().take(self.len) {
            let next = match search.next {
                Some(next) if next >= from => next,
                _ => {
                    let [a, b, c] = search.bytes;
                    memchr::memchr3(a, b, c, rest).map_or(usize::MAX, |n| from + n)
                }
            };
            search.next = Some(next);
            first = first.min(next);
        }
        first
    }
}

struct Scanner<'a> {
    src: &'a [u8],
    /// How many interpolation holes enclose `pos`: past [`strings::MAX_HOLE_DEPTH`] a
    /// string's holes are read as text, so nested junk cannot overflow the stack.
    holes: usize,
    out: Vec<u8>,
    spec: &'a LexSpec,
    openers: Openers,
    pos: usize,
    /// Where the current run of code started (just after the last comment or literal): a raw
    /// string prefix read back from its quote must lie inside it.
    code_from: usize,
    /// Ruby: heredoc bodies wait after the line that opened them; the code resumes past them.
    heredoc: Option<ruby::Pending>,
    /// Ruby: the holes of a heredoc body are being read, ahead of `pos`, which then goes back.
    ahead_in_heredoc: bool,
    /// PHP: attributes `#[` that no bracket closed (each read to the end of the file).
    unclosed_attributes: u32,
}

impl Scanner<'_> {
    fn at(&self, offset: usize) -> u8 {
        self.src.get(self.pos + offset).copied().unwrap_or(0)
    }

    fn starts_with(&self, needle: &str) -> bool {
        self.src[self.pos..].starts_with(needle.as_bytes())
    }

    /// Blanks `start..end`, keeping line breaks so line numbers survive.
    fn blank(&mut self, start: usize, end: usize) {
        blank(&mut self.out, start, end);
    }

    /// Scans code to the end, skipping plain code up to the next byte that may open a comment
    /// or literal.
    fn code(&mut self) {
        while self.pos < self.src.len() {
            self.pos = self.openers.find(self.src, self.pos);
            if self.skip_heredoc_bodies() {
                continue;
            }
            if self.pos >= self.src.len() {
                break;
            }
            if self.try_comment() || self.try_literal() {
                self.code_from = self.pos;
            } else {
                self.pos += 1;
            }
        }
    }

    fn try_comment(&mut self) -> bool {
        if self.spec.php && self.try_template() {
            return true;
        }
        if self.spec.ruby && self.try_embedded_doc() {
            return true;
        }
        for opener in self.spec.line_comments {
            if self.starts_with(opener) {
                let start = self.pos;
                if let Some(long) = self.spec.long_brackets.filter(|l| l.comment == *opener) {
                    let bracket = start + opener.len();
                    if let Some(level) = long.level_at(self.src, bracket) {
                        let (_, end) = long.end(self.src, bracket + level + 2, level);
                        self.blank(start, end);
                        self.pos = end;
                        return true;
                    }
                }
                let mut end =
                    memchr::memchr(b'\n', &self.src[start..]).map_or(self.src.len(), |n| start + n);
                if self.spec.php {
                    end = php::comment_end(self.src, start, end, &mut self.unclosed_attributes);
                }
                self.blank(start, end);
                self.pos = end;
                return true;
            }
        }
        if let Some((open, close)) = self.spec.block_comment {
            if self.starts_with(open) {
                let start = self.pos;
                self.pos += open.len();
                self.block_comment_end(open, close);
                self.blank(start, self.pos);
                return true;
            }
        }
        false
    }

    /// Moves past the delimiter closing a block comment whose opener ends at `pos` (to the end
    /// when it never closes). Searches jump straight to the next candidate delimiter, so a long
    /// comment costs a memchr, not a comparison per byte.
    fn block_comment_end(&mut self, open: &str, close: &str) {
        let len = self.src.len();
        if !self.spec.nested_comments {
            self.pos = find(&self.src[self.pos..], close.as_bytes())
                .map_or(len, |n| self.pos + n + close.len());
            return;
        }
        let (Some(&first_open), Some(&first_close)) =
            (open.as_bytes().first(), close.as_bytes().first())
        else {
            self.pos = len;
            return;
        };
        let mut depth = 1usize;
        while self.pos < len {
            match memchr::memchr2(first_open, first_close, &self.src[self.pos..]) {
                Some(n) => self.pos += n,
                None => {
                    self.pos = len;
                    return;
                }
            }
            if self.starts_with(close) {
                self.pos += close.len();
                depth -= 1;
                if depth == 0 {
                    return;
                }
            } else if self.starts_with(open) {
                self.pos += open.len();
                depth += 1;
            } else {
                self.pos += 1;
            }
        }
    }

    fn try_literal(&mut self) -> bool {
        let byte = self.src[self.pos];
        let prev = if self.pos > 0 {
            self.src[self.pos - 1]
        } else {
            b'\n'
        };
        if byte == b'"' && self.spec.rust_raw_strings && self.try_rust_raw() {
            return true;
        }
        if byte == b'"' && self.spec.cpp_raw_strings && self.try_cpp_raw() {
            return true;
        }
        if byte == b'<' && self.spec.php {
            return self.try_heredoc();
        }
        if self.spec.ruby {
            if let Some(masked) = self.try_ruby_literal(byte, prev) {
                return masked;
            }
        }
        if byte == b'#' && self.spec.hash_raw_strings {
            return self.try_hash_raw();
        }
        if byte == b'"' && self.try_special_string() {
            return true;
        }
        if self.spec.dollar_quotes && byte == b'$' && self.try_dollar_quote(prev) {
            return true;
        }
        if let Some(long) = self.spec.long_brackets {
            if let Some(level) = long.level_at(self.src, self.pos) {
                let body = self.pos + level + 2;
                let (body_end, end) = long.end(self.src, body, level);
                self.blank(body, body_end);
                self.pos = end;
                return true;
            }
        }
        if byte == b'`' && self.spec.backtick == Backtick::Raw {
            self.raw_to(b'`');
            return true;
        }
        if byte == b'`' && self.spec.backtick == Backtick::Identifier {
            // An unclosed one is a stray backtick: only the byte itself is passed.
            let rest = &self.src[self.pos + 1..];
            let close = rest.iter().position(|b| matches!(b, b'`' | b'\n'));
            self.pos += match close {
                Some(n) if rest[n] == b'`' => n + 2,
                _ => 1,
            };
            return true;
        }
        if !self.spec.quotes.contains(&byte) {
            return false;
        }
        if self.spec.triple_quotes && self.at(1) == byte && self.at(2) == byte {
            self.triple_quoted(byte);
            return true;
        }
        if byte == b'\'' && self.spec.digit_separators && is_digit_separator(self.src, self.pos) {
            return false;
        }
        if byte == b'\'' && self.spec.rust_chars {
            return self.try_rust_char();
        }
        self.quoted(byte);
        true
    }

    /// An ordinary quoted string; ends at the closing quote, or at the line end when strings
    /// cannot span lines (a stray quote then costs one line at most).
    fn quoted(&mut self, quote: u8) {
        let start = self.pos + 1;
        let len = self.src.len();
        let mut i = start;
        while let Some(n) = memchr::memchr3(quote, b'\\', b'\n', self.src.get(i..).unwrap_or(&[])) {
            i += n;
            match self.src[i] {
                b'\\' if self.spec.backslash_escapes => i = escape_end(self.src, i),
                b'\n' if !self.spec.multiline_strings => break,
                byte if byte == quote => {
                    self.blank(start, i);
                    self.pos = i + 1;
                    return;
                }
                _ => i += 1,
            }
        }
        let end = i.min(len);
        self.blank(start, end);
        self.pos = end;
    }

    fn triple_quoted(&mut self, quote: u8) {
        let start = self.pos + 3;
        let len = self.src.len();
        let mut i = start;
        while let Some(n) = memchr::memchr2(quote, b'\\', self.src.get(i..).unwrap_or(&[])) {
            i += n;
            if self.src[i] == b'\\' {
                i = escape_end(self.src, i);
                continue;
            }
            if self.src.get(i + 1) == Some(&quote) && self.src.get(i + 2) == Some(&quote) {
                self.blank(start, i);
                self.pos = i + 3;
                return;
            }
            i += 1;
        }
        self.blank(start, len);
        self.pos = len;
    }

    fn raw_to(&mut self, close: u8) {
        let start = self.pos + 1;
        let end = memchr::memchr(close, &self.src[start.min(self.src.len())..])
            .map_or(self.src.len(), |n| start + n);
        self.blank(start, end);
        self.pos = (end + 1).min(self.src.len());
    }

    /// At a `"`: whether it opens a Rust raw string (`r"`, `r#"`, `br##"`, `cr"`), read back
    /// from the quote; then masks it.
    fn try_rust_raw(&mut self) -> bool {
        let quote = self.pos;
        let run = self.src.get(self.code_from..quote).unwrap_or(&[]);
        let hashes = run.iter().rev().take_while(|b| **b == b'#').count();
        let Some(r) = (quote - hashes).checked_sub(1) else {
            return false;
        };
        if r < self.code_from || self.src[r] != b'r' {
            return false;
        }
        // `br"` / `cr"` start at the `b`; either way the byte before the prefix is no word byte.
        let prefixed = r > self.code_from && matches!(self.src[r - 1], b'b' | b'c');
        let start = if prefixed { r - 1 } else { r };
        if start > 0 && is_word_byte(self.src[start - 1]) {
            return false;
        }
        let body_start = quote + 1;
        let mut closing = vec![b'"'];
        closing.extend(std::iter::repeat_n(b'#', hashes));
        let end =
            find(&self.src[body_start..], &closing).map_or(self.src.len(), |n| body_start + n);
        self.blank(body_start, end);
        self.pos = (end + closing.len()).min(self.src.len());
        true
    }

    /// At a `"`: whether it opens a C++ raw string (`R"delim(…)delim"`, with a `u8`, `u`, `U`
    /// or `L` prefix or none), read back from the quote; then masks it.
    fn try_cpp_raw(&mut self) -> bool {
        let quote = self.pos;
        let run = self.src.get(self.code_from..quote).unwrap_or(&[]);
        let prefix_len = ["u8R", "uR", "UR", "LR", "R"]
            .iter()
            .find(|p| run.ends_with(p.as_bytes()))
            .map(|p| p.len());
        let Some(prefix_len) = prefix_len else {
            return false;
        };
        let start = quote - prefix_len;
        if start > 0 && is_word_byte(self.src[start - 1]) {
            return false;
        }
        let delim_start = quote + 1;
        let Some(paren) = self.src[delim_start..]
            .iter()
            .take(17)
            .position(|b| *b == b'(')
        else {
            return false;
        };
        let delim = &self.src[delim_start..delim_start + paren];
        if delim
            .iter()
            .any(|b| b.is_ascii_whitespace() || *b == b')' || *b == b'\\')
        {
            return false;
        }
        let mut closing = vec![b')'];
        closing.extend_from_slice(delim);
        closing.push(b'"');
        let body_start = delim_start + paren + 1;
        let end =
            find(&self.src[body_start..], &closing).map_or(self.src.len(), |n| body_start + n);
        self.blank(body_start, end);
        self.pos = (end + closing.len()).min(self.src.len());
        true
    }

    fn try_dollar_quote(&mut self, prev: u8) -> bool {
        if is_word_byte(prev) {
            return false;
        }
        let rest = &self.src[self.pos + 1..];
        let tag_len = rest
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        if rest.get(tag_len) != Some(&b'$') || rest.first().is_some_and(u8::is_ascii_digit) {
            return false;
        }
        let tag = &self.src[self.pos..self.pos + tag_len + 2];
        let body_start = self.pos + tag.len();
        let end = find(&self.src[body_start..], tag).map_or(self.src.len(), |n| body_start + n);
        self.blank(body_start, end);
        self.pos = (end + tag.len()).min(self.src.len());
        true
    }

    /// A Rust `'`: a char literal when a closing quote follows one (possibly escaped) char,
    /// otherwise a lifetime or loop label, left as code.
    fn try_rust_char(&mut self) -> bool {
        let rest = &self.src[self.pos + 1..];
        let len = if rest.first() == Some(&b'\\') {
            // '\n', '\'', '\x7f', '\u{1F600}'
            rest.iter().skip(2).position(|b| *b == b'\'').map(|n| n + 2)
        } else {
            let width = rest.first().map_or(1, |b| utf8_width(*b));
            (rest.get(width) == Some(&b'\'')).then_some(width)
        };
        match len {
            Some(len) if len <= 12 => {
                self.blank(self.pos + 1, self.pos + 1 + len);
                self.pos += len + 2;
                true
            }
            _ => false,
        }
    }
}

/// Blanks `start..end` of `out`, keeping line breaks so line numbers survive: a fill per line.
pub fn blank(out: &mut [u8], start: usize, end: usize) {
    let end = end.min(out.len());
    let Some(mut region) = out.get_mut(start.min(end)..end) else {
        return;
    };
    while let Some(n) = memchr::memchr(b'\n', region) {
        let (line, rest) = region.split_at_mut(n);
        line.fill(b' ');
        region = rest.get_mut(1..).unwrap_or_default();
    }
    region.fill(b' ');
}

/// A word with `byte` in each of its eight lanes.
pub const fn splat(byte: u8) -> u64 {
    0x0101_0101_0101_0101 * byte as u64
}

/// `0x80` in each byte lane of `word` that is zero, `0` elsewhere. Exact, unlike the usual
/// has-a-zero-byte test: no borrow runs into the lane above, so every mark is a real match.
pub const fn zero_lanes(word: u64) -> u64 {
    let low7 = splat(0x7f);
    !(((word & low7) + low7) | word | low7)
}

/// Calls `found` with the offset of every byte of `bytes` whose lane `lanes` marks with `0x80`
/// (built from [`zero_lanes`]), in order, eight bytes at a time: a word-at-a-time search for
/// byte sets `memchr` has no search for, or matches too dense for its per-match start-up.
pub fn for_each_lane(bytes: &[u8], lanes: impl Fn(u64) -> u64, mut found: impl FnMut(usize)) {
    let mut report = |base: usize, mut marks: u64| {
        while marks != 0 {
            found(base + (marks.trailing_zeros() / 8) as usize);
            marks &= marks - 1;
        }
    };
    let mut chunks = bytes.chunks_exact(8);
    let mut base = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        report(base, lanes(u64::from_le_bytes(word)));
        base += 8;
    }
    let tail = chunks.remainder();
    if !tail.is_empty() {
        let mut word = [0u8; 8];
        word[..tail.len()].copy_from_slice(tail);
        // Only the lanes the tail fills: padding must not match.
        let real = u64::MAX >> (64 - 8 * tail.len());
        report(base, lanes(u64::from_le_bytes(word)) & real);
    }
}

/// The offset of the first byte of `bytes` whose lane `lanes` marks (see [`for_each_lane`]).
pub fn find_lane(bytes: &[u8], lanes: impl Fn(u64) -> u64) -> Option<usize> {
    let mut chunks = bytes.chunks_exact(8);
    let mut base = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let marks = lanes(u64::from_le_bytes(word));
        if marks != 0 {
            return Some(base + (marks.trailing_zeros() / 8) as usize);
        }
        base += 8;
    }
    let tail = chunks.remainder();
    let mut word = [0u8; 8];
    word[..tail.len()].copy_from_slice(tail);
    let real = u64::MAX
        .checked_shr(64 - 8 * tail.len() as u32)
        .unwrap_or(0);
    let marks = lanes(u64::from_le_bytes(word)) & real;
    (marks != 0).then(|| base + (marks.trailing_zeros() / 8) as usize)
}

/// The first offset at or after `from` whose byte is not ASCII whitespace (or the length).
/// Masked code is mostly blanks where comments and directives were: runs of spaces and line
/// breaks are passed over eight bytes at a time.
pub fn skip_blanks(bytes: &[u8], mut from: usize) -> usize {
    let other = |word: u64| {
        !(zero_lanes(word ^ splat(b' ')) | zero_lanes(word ^ splat(b'\n'))) & splat(0x80)
    };
    loop {
        let rest = bytes.get(from..).unwrap_or(&[]);
        let Some(n) = find_lane(rest, other) else {
            return bytes.len();
        };
        from += n;
        // Tabs, carriage returns and form feeds are blanks too, passed one at a time.
        match bytes[from..].iter().position(|b| !b.is_ascii_whitespace()) {
            Some(0) => return from,
            Some(more) => from += more,
            None => return bytes.len(),
        }
    }
}

/// The first `needle` (a closing delimiter: a few bytes) in `haystack`. Each search is short
/// and made once, where building a `memmem` finder costs more than the search: find the
/// needle's last byte with memchr and check the bytes before it.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let (&last, _) = needle.split_last()?;
    let mut from = needle.len() - 1;
    while let Some(n) = memchr::memchr(last, haystack.get(from..)?) {
        let end = from + n + 1;
        let start = end - needle.len();
        if haystack.get(start..end) == Some(needle) {
            return Some(start);
        }
        from = end;
    }
    None
}

/// Whether `byte` may be part of a word (an identifier or keyword, `$` and non-ASCII
/// included): one table look-up, as the maskers and scanners ask it of most bytes they read.
pub fn is_word_byte(byte: u8) -> bool {
    WORD_BYTES[usize::from(byte)]
}

/// [`is_word_byte`]'s answer for every byte: ASCII letters and digits, `_`, `$`, and any
/// byte of a multi-byte character.
static WORD_BYTES: [bool; 256] = word_byte_table(b"$");

/// A table of the bytes that may be part of a word: ASCII letters and digits, `_`, any byte
/// of a multi-byte character, and the family's `extra` bytes (`$`; SQL adds `@` and `#`).
pub const fn word_byte_table(extra: &[u8]) -> [bool; 256] {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        table[byte] = b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80;
        byte += 1;
    }
    let mut at = 0;
    while at < extra.len() {
        table[extra[at] as usize] = true;
        at += 1;
    }
    table
}

fn utf8_width(first: u8) -> usize {
    match first {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

/// `'` inside a number (`1'000`, `0xFF'FF`): the word it sits in starts with a digit.
fn is_digit_separator(src: &[u8], pos: usize) -> bool {
    let next_is_digit = src.get(pos + 1).is_some_and(u8::is_ascii_hexdigit);
    if pos == 0 || !next_is_digit || !src[pos - 1].is_ascii_alphanumeric() {
        return false;
    }
    let word_start = src[..pos]
        .iter()
        .rposition(|b| !(b.is_ascii_alphanumeric() || *b == b'\'' || *b == b'.'))
        .map_or(0, |n| n + 1);
    src[word_start].is_ascii_digit()
}

/// Where the backslash escape at `i` ends: past the escaped byte, or past a whole `\r\n` (an
/// escaped line break is one, whatever the line-break style).
pub fn escape_end(src: &[u8], i: usize) -> usize {
    if src.get(i + 1) == Some(&b'\r') && src.get(i + 2) == Some(&b'\n') {
        i + 3
    } else {
        i + 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_byte_tables_add_only_their_extra_bytes() {
        let sql = word_byte_table(b"$@#");
        for byte in 0..=255u8 {
            let plain = byte.is_ascii_alphanumeric() || byte == b'_' || byte >= 0x80;
            assert_eq!(is_word_byte(byte), plain || byte == b'$', "{byte:#x}");
            assert_eq!(
                sql[usize::from(byte)],
                plain || b"$@#".contains(&byte),
                "{byte:#x}"
            );
        }
    }

    const C_LIKE: LexSpec = LexSpec {
        cpp_raw_strings: true,
        digit_separators: true,
        ..LexSpec::C_LIKE
    };

    #[test]
    fn long_brackets_are_strings_and_after_the_comment_opener_comments() {
        let lua = LexSpec {
            line_comments: &["--"],
            quotes: b"\"'",
            backslash_escapes: true,
            long_brackets: Some(LongBrackets::LUA),
            ..LexSpec::NONE
        };
        let src =
            "a = [[x]] b = [==[ ]] end ]==] --[[ f\nend ]] c --[=[ ]] ]=] d -- e\nt[ [1] ] = [=";
        let want =
            "a = [[ ]] b = [==[        ]==]       \n       c              d     \nt[ [1] ] = [=";
        assert_eq!(mask(src, &lua), want);
        assert_eq!(mask("x = [[\nfunction", &lua), "x = [[\n        ");
    }

    #[test]
    fn masks_comments_and_string_contents_keeping_length() {
        let src = "a = \"{x}\"; // }\n/* { \n */ b = '}';";
        let out = mask(src, &C_LIKE);
        assert_eq!(out.len(), src.len());
        assert_eq!(out, "a = \"   \";     \n     \n    b = ' ';");
    }

    #[test]
    fn cpp_raw_strings_and_digit_separators() {
        let src = "auto s = R\"x(a)\" { )x\"; int n = 1'000; char c = '{';";
        let out = mask(src, &C_LIKE);
        assert!(!out[..24].contains('{'), "{out}");
        assert!(out.contains("1'000"), "{out}");
        assert!(out.ends_with("c = ' ';"), "{out}");
    }

    #[test]
    fn rust_lifetimes_raw_strings_and_nested_comments() {
        let spec = LexSpec {
            line_comments: &["//"],
            block_comment: Some(("/*", "*/")),
            nested_comments: true,
            quotes: b"\"'",
            backslash_escapes: true,
            multiline_strings: true,
            rust_chars: true,
            rust_raw_strings: true,
            ..LexSpec::default()
        };
        let src = "fn f<'a>(x: &'a str) { let c = '{'; let r = r#\"}\"#; /* /* } */ } */ }";
        let out = mask(src, &spec);
        assert_eq!(out.matches('{').count(), 1, "{out}");
        assert_eq!(out.matches('}').count(), 1, "{out}");
        assert!(out.contains("<'a>"));
        let escaped = mask("let q = '\\''; let e = '\\u{1F600}'; x", &spec);
        assert_eq!(escaped, "let q = '  '; let e = '         '; x");
    }

    #[test]
    fn raw_string_prefixes_are_read_back_from_the_quote() {
        // A prefix glued to a word is no prefix: `xR"` is the word `xR` then a plain string.
        let out = mask("a = u8R\"d(\")d\"; b = xR\"(\"; c", &C_LIKE);
        assert_eq!(out, "a = u8R\"d( )d\"; b = xR\" \"; c");
        let rust = LexSpec {
            rust_raw_strings: true,
            multiline_strings: true,
            ..LexSpec::C_LIKE
        };
        let out = mask("br#\"\"}\"#; xr\"{\"; 'r'r\"a\"", &rust);
        assert_eq!(out, "br#\"  \"#; xr\" \"; ' 'r\" \"");
    }

    #[test]
    fn a_spec_with_many_opener_bytes_is_scanned_with_a_table() {
        let spec = LexSpec {
            line_comments: &["#", ";", "%", "--"],
            quotes: b"\"'`|~^&",
            dollar_quotes: true,
            block_comment: Some(("(*", "*)")),
            ..LexSpec::NONE
        };
        let out = mask("a |x| b ~y~ c (* z *) d ^w^ e ; f\ng", &spec);
        assert_eq!(out, "a | | b ~ ~ c         d ^ ^ e    \ng");
    }

    #[test]
    fn lane_search_finds_exactly_the_marked_bytes() {
        let text: Vec<u8> = (0..=255u8)
            .chain(b"a\nb\n\n\x0a\x8a".iter().copied())
            .collect();
        for len in [0, 1, 7, 8, 9, 200, text.len()] {
            let bytes = &text[..len];
            let mut found = Vec::new();
            for_each_lane(bytes, |w| zero_lanes(w ^ splat(b'\n')), |i| found.push(i));
            let expected: Vec<usize> = memchr::memchr_iter(b'\n', bytes).collect();
            assert_eq!(found, expected, "{len}");
            let mut zeros = Vec::new();
            for_each_lane(bytes, zero_lanes, |i| zeros.push(i));
            let expected: Vec<usize> = memchr::memchr_iter(0, bytes).collect();
            assert_eq!(zeros, expected, "{len}");
        }
    }

    #[test]
    fn first_lane_and_blank_skipping_agree_with_plain_searches() {
        let text = b"  \n  \t\r x  \n\n        \x0c y;                z";
        for from in 0..=text.len() {
            let expected = text[from..]
                .iter()
                .position(|b| !b.is_ascii_whitespace())
                .map_or(text.len(), |n| from + n);
            assert_eq!(skip_blanks(text, from), expected, "{from}");
            let semicolon = |w: u64| zero_lanes(w ^ splat(b';'));
            let expected = text[from..].iter().position(|b| *b == b';');
            assert_eq!(find_lane(&text[from..], semicolon), expected, "{from}");
        }
    }

    #[test]
    fn python_triple_quotes_and_prefixes() {
        let spec = LexSpec {
            line_comments: &["#"],
            quotes: b"\"'",
            backslash_escapes: true,
            triple_quotes: true,
            ..LexSpec::default()
        };
        let src = "x = '''\ndef f():\n''' # def g\ny = rb\"def\"\n";
        let out = mask(src, &spec);
        assert!(!out.contains("def"), "{out}");
        assert_eq!(out.lines().count(), src.lines().count());
    }

    #[test]
    fn unclosed_literals_end_without_panic() {
        for src in [
            "\"abc", "'", "/* never", "r#\"x", "R\"d(", "`x", "$$ body", "'\\",
        ] {
            let spec = LexSpec {
                rust_raw_strings: true,
                cpp_raw_strings: true,
                dollar_quotes: true,
                backtick: Backtick::Raw,
                ..C_LIKE
            };
            assert_eq!(mask(src, &spec).len(), src.len(), "{src}");
        }
    }

    #[test]
    fn non_ascii_inside_strings_stays_valid_utf8() {
        let src = "s = \"héllo {\"; t = 'é'";
        let out = mask(src, &C_LIKE);
        assert_eq!(out.len(), src.len());
        assert!(!out.contains('{'));
    }
}
