//! SQL tokenizer and statement splitter.
//!
//! Tokens skip comments (`--`, nested `/* */`, `#` at a line start), and keep strings
//! (`'…''…'`, `E'…\'…'`, `$tag$ … $tag$`) and quoted identifiers (`"…"`, `` `…` ``) whole, so
//! that no keyword or `;` inside them is seen. Statements end at `;` (or the client delimiter
//! set by MySQL's `DELIMITER`), at a T-SQL `GO` line, an Oracle `/` line, or where a new
//! `CREATE`/`ALTER`/`DROP` starts a line at nesting depth 0 (scripts without semicolons).
//! Inside a routine or trigger, `BEGIN … END` blocks (and `CASE … END`) are tracked so their
//! inner semicolons do not end the statement; in a file with `GO` (or Oracle `/`) batches a
//! routine runs to the end of its batch, as T-SQL defines it. Backslash escapes apply to every
//! string in MySQL-looking files and old PostgreSQL dumps. psql meta-command lines (`\echo …`)
//! and pg_dump `COPY … FROM stdin` data are skipped.

use regex::Regex;
use std::sync::LazyLock;

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tok {
    /// A bare word: keyword, identifier, number, `$1`, `@var`.
    Word,
    /// A quoted identifier: `"…"` or `` `…` ``.
    Quoted,
    /// A string literal, dollar-quoted body included.
    Str,
    /// Any other single byte.
    Punct(u8),
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Token {
    pub(crate) kind: Tok,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// A statement that starts with `CREATE`: its tokens and the offset of its last byte (the `;`
/// or the end of its last token).
pub(crate) struct Statement {
    pub(crate) tokens: Vec<Token>,
    pub(crate) last_byte: usize,
}

/// Splits `text` into statements and hands each that starts with `CREATE` to `each` as it
/// ends, so a file of a million statements never holds more than one statement's tokens.
pub(crate) fn for_each_create_statement(text: &str, each: &mut dyn FnMut(&Statement)) {
    let mut splitter = Splitter {
        src: text.as_bytes(),
        batch_mode: has_batch_lines(text),
        backslash: backslash_strings(text),
        out: each,
        current: None,
        paren_depth: 0,
        block_depth: 0,
        pending: Pending::None,
        copy_data: false,
        delimiter: b";".to_vec(),
        spare_tokens: Vec::new(),
    };
    splitter.run();
}

/// Whether the file separates batches with T-SQL `GO` or Oracle `/` lines: a routine then
/// runs to the end of its batch.
fn has_batch_lines(text: &str) -> bool {
    text.lines()
        .any(|line| is_go_line(line.as_bytes()) || line.trim() == "/")
}

/// MySQL signs (backquoted table and column names, `ENGINE=`, `AUTO_INCREMENT`, `DELIMITER`)
/// or a PostgreSQL dump with `standard_conforming_strings = off`: strings then take backslash
/// escapes (`'it\'s'`); standard SQL strings do not.
fn backslash_strings(text: &str) -> bool {
    static SIGNS: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(concat!(
            r"(?im)\b(?:TABLE|INTO|EXISTS|VIEW|ON|REFERENCES|PROCEDURE|FUNCTION)\s+`",
            r"|^\s*`[^`\n]+`\s+\w|\bENGINE\s*=|\bAUTO_INCREMENT\b|^\s*DELIMITER\s",
            r"|\bstandard_conforming_strings\s*(?:=|TO)\s*'?off\b"
        ))
        .ok()
    });
    SIGNS.as_ref().is_some_and(|re| re.is_match(text))
}

fn is_go_line(line: &[u8]) -> bool {
    let trimmed = line.trim_ascii();
    let Some(head) = trimmed.get(..2) else {
        return false;
    };
    let rest = trimmed.get(2..).unwrap_or(&[]);
    head.eq_ignore_ascii_case(b"go")
        && (rest.is_empty()
            || rest.first().is_some_and(u8::is_ascii_whitespace)
                && rest.trim_ascii().iter().all(u8::is_ascii_digit))
}

struct Current {
    tokens: Vec<Token>,
    is_create: bool,
    /// A routine, trigger or event: `BEGIN … END` blocks are tracked.
    routine: bool,
    /// `COPY … FROM stdin`: data lines follow its `;` up to a `\.` line.
    copy: bool,
    copy_stdin: bool,
    /// In a batch routine: the first `;` at depth 0, where it ends if the batch does not.
    first_semicolon: Option<usize>,
    last_end: usize,
    /// An Oracle package or type body, whose `IS`/`AS` opens a block its last `END` closes
    /// (its members' `;` do not end it); `Some(true)` once that block is open.
    unit: Option<bool>,
}

/// A keyword whose meaning depends on the token after it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pending {
    None,
    Begin,
    End,
}

struct Splitter<'a> {
    src: &'a [u8],
    batch_mode: bool,
    /// Strings take backslash escapes (MySQL, old PostgreSQL dumps).
    backslash: bool,
    /// Where each finished `CREATE` statement goes.
    out: &'a mut dyn FnMut(&Statement),
    current: Option<Current>,
    paren_depth: usize,
    block_depth: usize,
    pending: Pending,
    /// The statement just ended was `COPY … FROM stdin`.
    copy_data: bool,
    /// What ends a statement: `;`, or what MySQL's `DELIMITER` set.
    delimiter: Vec<u8>,
    /// The last statement's token vector, emptied: the next `CREATE` reuses its memory
    /// rather than growing a new vector token by token (5% of a SQL parse).
    spare_tokens: Vec<Token>,
}

const ROUTINE_WORDS: &[&str] = &[
    "FUNCTION",
    "PROCEDURE",
    "PROC",
    "TRIGGER",
    "EVENT",
    "PACKAGE",
];

fn is_word_start(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// Whether `b` continues a word (`$`, `@` and `#` too): one table look-up, as the splitter
/// asks it of every byte of every word.
fn is_word_byte(b: u8) -> bool {
    WORD_BYTES[usize::from(b)]
}

/// [`is_word_byte`]'s answer for every byte.
static WORD_BYTES: [bool; 256] = crate::parse::lex::word_byte_table(b"$@#");

impl Splitter<'_> {
    fn at(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    fn line_end(&self, i: usize) -> usize {
        memchr::memchr(b'\n', self.src.get(i..).unwrap_or(&[])).map_or(self.src.len(), |n| i + n)
    }

    fn word_at(&self, i: usize) -> &[u8] {
        let mut j = i;
        while j < self.src.len() && is_word_byte(self.src[j]) {
            j += 1;
        }
        self.src.get(i..j).unwrap_or(&[])
    }

    fn run(&mut self) {
        let mut line_start = true;
        let mut i = 0;
        while i < self.src.len() {
            let c = self.src[i];
            if c == b'\n' {
                line_start = true;
                i += 1;
                continue;
            }
            if c.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            if line_start {
                if let Some(line_end) = self.client_command(i) {
                    i = line_end;
                    continue;
                }
            }
            let first_on_line = line_start;
            line_start = false;
            if self.delimiter != b";" && self.src[i..].starts_with(&self.delimiter) {
                self.settle_pending(None);
                self.flush(Some(i + self.delimiter.len() - 1));
                i += self.delimiter.len();
                continue;
            }
            if c == b'-' && self.at(i + 1) == b'-' {
                i = self.line_end(i);
                continue;
            }
            if c == b'/' && self.at(i + 1) == b'*' {
                i = self.block_comment(i);
                continue;
            }
            let (kind, end) = self.lex(i);
            let end = end.min(self.src.len());
            self.token(
                Token {
                    kind,
                    start: i,
                    end,
                },
                first_on_line,
            );
            i = end;
            if self.copy_data {
                // pg_dump data after `COPY … FROM stdin;`: skip to the `\.` line.
                self.copy_data = false;
                i = self.copy_data_end(i);
                line_start = true;
            }
        }
        self.settle_pending(None);
        self.flush(None);
    }

    /// At the start of a line, `i` its first non-blank byte: when the line is a command to the
    /// client rather than SQL (a psql meta-command `\echo …`, a MySQL `#` comment line,
    /// `DELIMITER //`, a T-SQL `GO` or an Oracle `/` batch line), acts on it and returns the
    /// line's end.
    fn client_command(&mut self, i: usize) -> Option<usize> {
        let c = self.src.get(i).copied()?;
        if !matches!(c, b'\\' | b'#' | b'd' | b'D' | b'g' | b'G' | b'/') {
            return None;
        }
        let eol = self.line_end(i);
        if c == b'\\' || c == b'#' {
            return Some(eol);
        }
        let line = self.src.get(i..eol).unwrap_or(&[]);
        let word = self.word_at(i);
        if word.eq_ignore_ascii_case(b"delimiter")
            && line.get(word.len()).is_some_and(u8::is_ascii_whitespace)
        {
            let new = line.get(word.len()..).unwrap_or(&[]).trim_ascii();
            let new = new.split(u8::is_ascii_whitespace).next().unwrap_or(&[]);
            if !new.is_empty() {
                let new = new.to_vec();
                self.flush(None);
                self.delimiter = new;
                return Some(eol);
            }
        }
        if is_go_line(line) || line.trim_ascii() == b"/" {
            self.flush(None);
            return Some(eol);
        }
        None
    }

    /// The token starting at `i` (no comment, no blank): its kind and its end. Strings and
    /// quoted identifiers are read whole; `'…'` takes backslash escapes in MySQL-looking files
    /// and as PostgreSQL's `E'…'`.
    fn lex(&self, i: usize) -> (Tok, usize) {
        let c = self.at(i);
        let word_end = |from: usize| {
            from + self
                .src
                .get(from..)
                .unwrap_or(&[])
                .iter()
                .take_while(|b| is_word_byte(**b))
                .count()
        };
        match c {
            b'\'' => {
                let escapes = self.backslash
                    || i > 0
                        && matches!(self.src[i - 1], b'E' | b'e')
                        && (i < 2 || !is_word_byte(self.src[i - 2]));
                (Tok::Str, self.quoted(i, b'\'', escapes))
            }
            b'"' => (Tok::Quoted, self.quoted(i, b'"', self.backslash)),
            b'`' => (Tok::Quoted, self.quoted(i, b'`', false)),
            b'$' => match self.dollar_quote(i) {
                Some(end) => (Tok::Str, end),
                // `$1`: a positional parameter.
                None if self.at(i + 1).is_ascii_digit() => (Tok::Word, word_end(i + 1)),
                None => (Tok::Punct(c), i + 1),
            },
            b'@' | b'#' if is_word_start(self.at(i + 1)) || self.at(i + 1) == b'@' => {
                (Tok::Word, word_end(i + 1))
            }
            _ if is_word_start(c) => (Tok::Word, word_end(i)),
            _ => (Tok::Punct(c), i + 1),
        }
    }

    /// Offset just past the `\.` line ending the data that starts after `from`'s line.
    fn copy_data_end(&self, from: usize) -> usize {
        let mut line = self.line_end(from) + 1;
        while line < self.src.len() {
            let end = self.line_end(line);
            let text = self.src.get(line..end).unwrap_or(&[]);
            if text.strip_suffix(b"\r").unwrap_or(text) == b"\\." {
                return end;
            }
            line = end + 1;
        }
        self.src.len()
    }

    fn block_comment(&self, start: usize) -> usize {
        let mut depth = 0usize;
        let mut i = start;
        while i < self.src.len() {
            if self.src[i] == b'/' && self.at(i + 1) == b'*' {
                depth += 1;
                i += 2;
            } else if self.src[i] == b'*' && self.at(i + 1) == b'/' {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return i;
                }
            } else {
                i += 1;
            }
        }
        self.src.len()
    }

    /// End (exclusive) of a quoted run opened at `start`; a doubled quote is an escape.
    fn quoted(&self, start: usize, quote: u8, backslash: bool) -> usize {
        let mut i = start + 1;
        while i < self.src.len() {
            let b = self.src[i];
            if backslash && b == b'\\' {
                i += 2;
                continue;
            }
            if b == quote {
                if self.at(i + 1) == quote {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i += 1;
        }
        self.src.len()
    }

    /// End (exclusive) of a `$tag$ … $tag$` string opened at `start`, if one opens there.
    fn dollar_quote(&self, start: usize) -> Option<usize> {
        if start > 0 && is_word_byte(self.src[start - 1]) {
            return None;
        }
        let rest = self.src.get(start + 1..)?;
        let tag_len = rest
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_' || **b >= 0x80)
            .count();
        if rest.get(tag_len) != Some(&b'$') || rest.first().is_some_and(u8::is_ascii_digit) {
            return None;
        }
        let tag = self.src.get(start..start + tag_len + 2)?;
        let body = start + tag.len();
        let end = memchr::memmem::find(self.src.get(body..)?, tag)
            .map_or(self.src.len(), |n| body + n + tag.len());
        Some(end)
    }

    fn text(&self, token: &Token) -> &[u8] {
        self.src.get(token.start..token.end).unwrap_or(&[])
    }

    fn is_word(&self, token: &Token, word: &str) -> bool {
        token.kind == Tok::Word && self.text(token).eq_ignore_ascii_case(word.as_bytes())
    }

    /// Resolves a pending `BEGIN`/`END` now that the token after it (if any) is known.
    fn settle_pending(&mut self, next: Option<&Token>) {
        match self.pending {
            Pending::None => {}
            Pending::Begin => {
                let not_block = next.is_some_and(|t| {
                    t.kind == Tok::Punct(b';')
                        || ["TRANSACTION", "TRAN", "WORK", "DISTRIBUTED"]
                            .iter()
                            .any(|w| self.is_word(t, w))
                });
                if !not_block {
                    self.block_depth += 1;
                }
            }
            Pending::End => {
                let other = next.is_some_and(|t| {
                    ["IF", "LOOP", "WHILE", "REPEAT", "FOR"]
                        .iter()
                        .any(|w| self.is_word(t, w))
                });
                if !other {
                    self.block_depth = self.block_depth.saturating_sub(1);
                }
            }
        }
        self.pending = Pending::None;
    }

    /// Takes the next token: ends the current statement where it ends (a delimiter, a new
    /// definition at a line start), starts one, or adds the token to it.
    fn token(&mut self, token: Token, first_on_line: bool) {
        self.settle_pending(Some(&token));
        let routine = self.current.as_ref().is_some_and(|c| c.routine);
        let batch_routine = routine && self.batch_mode;
        if first_on_line && self.paren_depth == 0 && token.kind == Tok::Word {
            self.end_before_line_start(&token);
        }
        let semicolon_ends = self.delimiter == b";";
        if token.kind == Tok::Punct(b';') && semicolon_ends && self.block_depth == 0 {
            if !batch_routine {
                if self.current.is_some() {
                    self.flush(Some(token.start));
                }
                return;
            }
            if let Some(current) = self.current.as_mut() {
                current.first_semicolon.get_or_insert(token.start);
            }
        }
        if self.current.is_none() {
            let is_create = self.is_word(&token, "CREATE");
            let mut tokens = Vec::new();
            if is_create {
                tokens = std::mem::take(&mut self.spare_tokens);
                tokens.push(token);
            }
            self.current = Some(Current {
                tokens,
                is_create,
                routine: false,
                copy: self.is_word(&token, "COPY"),
                copy_stdin: false,
                first_semicolon: None,
                last_end: token.end,
                unit: None,
            });
            self.paren_depth = 0;
            self.block_depth = 0;
            return;
        }
        self.extend(token, routine);
    }

    /// At a word starting a line outside brackets: ends the current statement when a new one
    /// starts there (scripts without semicolons). In a batch routine, only a definition at
    /// the left margin after one of its `;` does, ending it at that `;`.
    fn end_before_line_start(&mut self, token: &Token) {
        let Some(current) = self.current.as_ref() else {
            return;
        };
        let (routine, create) = (current.routine, current.is_create);
        let at_column_0 = token.start == 0 || self.at(token.start - 1) == b'\n';
        let starts = ["CREATE", "ALTER", "DROP"]
            .iter()
            .any(|w| self.is_word(token, w));
        if routine && self.batch_mode {
            // A routine runs to the end of its batch, but a definition starting at the left
            // margin after one of its `;` means the batch line seen was not a separator:
            // the routine ends at that `;`.
            let semicolon = current.first_semicolon;
            if starts && at_column_0 && self.block_depth == 0 && semicolon.is_some() {
                self.flush(semicolon);
            }
            return;
        }
        // A statement that cannot continue a table, view or index definition.
        let other = create
            && !routine
            && ["INSERT", "UPDATE", "DELETE", "GRANT", "REVOKE", "TRUNCATE"]
                .iter()
                .any(|w| self.is_word(token, w));
        if (starts && (self.block_depth == 0 || at_column_0)) || other {
            self.flush(None);
        }
    }

    /// Adds `token` to the current statement: notes `COPY … FROM stdin`, tells a routine by
    /// its first words, and tracks brackets and (in a routine) `BEGIN … END` blocks.
    fn extend(&mut self, token: Token, routine: bool) {
        let starts_unit = self.current.as_ref().is_some_and(|c| {
            c.is_create && c.unit.is_none() && self.starts_unit(&c.tokens, &token)
        });
        let Some(current) = self.current.as_mut() else {
            return;
        };
        current.last_end = token.end;
        let word = self.src.get(token.start..token.end).unwrap_or(&[]);
        let is_word = |w: &str| token.kind == Tok::Word && word.eq_ignore_ascii_case(w.as_bytes());
        if current.copy && is_word("STDIN") {
            current.copy_stdin = true;
        }
        if current.is_create {
            if current.tokens.len() < 10 && ROUTINE_WORDS.iter().any(|w| is_word(w)) {
                current.routine = true;
            }
            if starts_unit {
                current.routine = true;
                current.unit = Some(false);
            }
            current.tokens.push(token);
        }
        match token.kind {
            Tok::Punct(b'(') => self.paren_depth += 1,
            Tok::Punct(b')') => self.paren_depth = self.paren_depth.saturating_sub(1),
            Tok::Word if routine && self.paren_depth == 0 => {
                let unit = self.current.as_mut().and_then(|c| c.unit.as_mut());
                if let Some(open @ false) = unit {
                    if is_word("IS") || is_word("AS") {
                        *open = true;
                        self.block_depth += 1;
                        return;
                    }
                }
                if is_word("BEGIN") {
                    self.pending = Pending::Begin;
                } else if is_word("END") {
                    self.pending = Pending::End;
                } else if self.block_depth > 0 && is_word("CASE") {
                    self.block_depth += 1;
                }
            }
            _ => {}
        }
    }

    /// Whether `token`, after the statement's `tokens`, names an Oracle unit that holds
    /// routines: `CREATE [OR REPLACE] [NON]EDITIONABLE PACKAGE [BODY]` or `… TYPE BODY`.
    fn starts_unit(&self, tokens: &[Token], token: &Token) -> bool {
        let created = |before: &[Token]| {
            before.last().is_some_and(|t| {
                ["CREATE", "REPLACE", "EDITIONABLE", "NONEDITIONABLE"]
                    .iter()
                    .any(|w| self.is_word(t, w))
            })
        };
        if self.is_word(token, "PACKAGE") {
            return created(tokens);
        }
        let Some((kind, before)) = tokens.split_last() else {
            return false;
        };
        self.is_word(token, "BODY")
            && (self.is_word(kind, "PACKAGE") || self.is_word(kind, "TYPE"))
            && created(before)
    }

    /// Ends the current statement; `last_byte` is its terminator when it has one.
    fn flush(&mut self, last_byte: Option<usize>) {
        self.pending = Pending::None;
        self.paren_depth = 0;
        self.block_depth = 0;
        if let Some(current) = self.current.take() {
            self.copy_data = current.copy_stdin && last_byte.is_some();
            if current.is_create {
                let statement = Statement {
                    tokens: current.tokens,
                    last_byte: last_byte.unwrap_or(current.last_end.saturating_sub(1)),
                };
                (self.out)(&statement);
                self.spare_tokens = statement.tokens;
                self.spare_tokens.clear();
            }
        }
    }
}
