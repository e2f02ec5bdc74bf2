//! Ruby outline scanner: modules, classes (`class A::B < C`), methods (`def x`, `def self.x`,
//! `def obj.x`, endless `def x = 1`, operators `def ==(o)`, `def []=(k, v)`), `class << self`
//! (a scope without an entry of its own, whose methods are named `self.x`), constants (a
//! class when `Struct.new`, `Data.define` or `Class.new` makes them, with their block's
//! methods as children), `attr_*` fields, `alias`/`alias_method`/`define_method` with a
//! literal name, Rake tasks and namespaces, and RSpec/minitest `describe`/`context`/`it`
//! blocks named by their description.
//!
//! The text is masked first by the shared masker (comments, `=begin`, strings with their
//! `#{}` holes kept, heredocs, `%w[]` literals, regexes), then read as tokens. A block ends
//! at the `end` that closes it, counted over every opener (`class module def if unless while
//! until case begin for do`, on the shared [`Blocks`] stack Lua uses too), except the
//! modifiers (`x if y`: an `if` after a value on its line) and a loop's own `do`; a keyword
//! after `.` or `::`, as a `:symbol` or as a `key:` is a name.

use crate::outline::{Entry, Kind};
use crate::parse::end_blocks::{tokenize, Blocks, Tok, Token, TokenRules};
use crate::parse::lex::{self, Interpolation, LexSpec};
use crate::parse::{signature, LineCursor};

mod calls;

/// Ruby's comments and literals.
pub(crate) const SPEC: LexSpec = LexSpec {
    line_comments: &["#"],
    quotes: b"\"'",
    backslash_escapes: true,
    multiline_strings: true,
    interpolation: Interpolation::HashBrace,
    ruby: true,
    ..LexSpec::NONE
};

/// `@ivar`, `$global` and `empty?` are names; quotes are punctuation (strings span lines).
const TOKENS: TokenRules = TokenRules {
    name_prefixes: b"@$",
    name_suffixes: b"?!",
    quoted_strings: false,
    long_strings: false,
};

/// Outlines a Ruby file.
/// Outlines a Ruby file; `rake`: it is a Rakefile or `*.rake` (its task calls are entries).
pub(crate) fn parse(text: &str, rake: bool) -> Vec<Entry> {
    let masked = lex::mask_bytes(text, &SPEC);
    let tokens = tokenize(&masked, TOKENS);
    let mut scanner = Scanner {
        text,
        masked: &masked,
        tokens: &tokens,
        lines: LineCursor::new(text),
        blocks: Blocks::new(),
        open: Vec::new(),
        statements: Vec::new(),
        block_entry: None,
        skip_to: 0,
        rake,
        out: Vec::new(),
    };
    for index in 0..tokens.len() {
        scanner.token(index);
    }
    let last = tokens.last().map_or(0, |t| t.end.saturating_sub(1));
    scanner.end_statement(last);
    while !scanner.open.is_empty() {
        scanner.close(last);
    }
    scanner.out
}

/// What a keyword block is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opened {
    /// A block whose entry is the innermost open one.
    Entry(Scope),
    /// `class << target` (the token index of `target`): methods in it are `target.x`.
    Singleton(usize),
    /// `if`, `while`, `begin`, a `do` block of no entry …
    Plain,
}

/// What an entry's block holds, for what the statements in it mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// A class or module body: `def` makes methods, `attr_*` fields.
    Namespace,
    /// A method body: what is defined in it is local.
    Body,
    /// A Rake namespace or task, an RSpec group or example.
    Group,
}

/// An entry that ends with its statement (a constant, an endless method), not at an `end`:
/// it closes at the first line break outside the brackets and blocks open when it began.
#[derive(Debug, Clone, Copy)]
struct Statement {
    depth: usize,
}

struct Scanner<'a> {
    text: &'a str,
    /// A Rakefile or `*.rake`: `task` and `namespace` calls define tasks.
    rake: bool,
    /// `text` masked: where a comment starts, a signature ends.
    masked: &'a [u8],
    tokens: &'a [Token],
    lines: LineCursor<'a>,
    blocks: Blocks<Opened>,
    /// Entries whose end is still to come, innermost last.
    open: Vec<Entry>,
    /// Open statement entries, innermost last.
    statements: Vec<Statement>,
    /// The `do` or `{` (token index) that opens the block of an entry already pushed on
    /// `open`, and the scope it opens.
    block_entry: Option<(usize, Scope)>,
    /// Tokens before this offset were read as part of a head (a method's name and
    /// parameters): not keywords.
    skip_to: usize,
    out: Vec<Entry>,
}

/// Words after which an expression goes on (a keyword after them starts a value).
const OPERATOR_WORDS: &[&str] = &[
    "and", "or", "not", "then", "else", "elsif", "do", "begin", "case", "when", "in", "if",
    "unless", "while", "until", "rescue", "ensure",
];

impl<'a> Scanner<'a> {
    fn tok(&self, index: usize) -> Option<&Token> {
        self.tokens.get(index)
    }

    fn text_of(&self, index: usize) -> &'a str {
        self.tok(index)
            .and_then(|t| self.text.get(t.start..t.end))
            .unwrap_or("")
    }

    fn word(&self, index: usize) -> &'a str {
        match self.tok(index) {
            Some(t) if t.tok == Tok::Name => self.text.get(t.start..t.end).unwrap_or(""),
            _ => "",
        }
    }

    fn is(&self, index: usize, tok: Tok) -> bool {
        self.tok(index).is_some_and(|t| t.tok == tok)
    }

    fn line_of(&self, offset: usize) -> usize {
        self.lines.line_of(offset.min(self.text.len()))
    }

    /// Whether a line break lies between token `index` and the one before it.
    fn breaks_before(&self, index: usize) -> bool {
        let Some(prev) = index.checked_sub(1).and_then(|i| self.tok(i)) else {
            return true;
        };
        let start = self.tok(index).map_or(self.masked.len(), |t| t.start);
        memchr::memchr(b'\n', self.masked.get(prev.end..start).unwrap_or(&[])).is_some()
    }

    /// Whether token `index` ends a value, so a keyword right after it on its line is a
    /// modifier.
    fn ends_value(&self, index: usize) -> bool {
        match self.tok(index).map(|t| t.tok) {
            Some(Tok::Number) => true,
            Some(Tok::Name) => {
                let word = self.word(index);
                !OPERATOR_WORDS.contains(&word) || !self.is_keyword(index)
            }
            Some(Tok::Punct(byte)) => b")]}\"'`/".contains(&byte),
            _ => false,
        }
    }

    /// Whether the expression goes on past token `index` at a line's end (`a +`, `x,`).
    fn continues(&self, index: usize) -> bool {
        match self.tok(index).map(|t| t.tok) {
            Some(Tok::Operator) => true,
            Some(Tok::Punct(byte)) => b",\\.=(+-*|&[{:?<>%!~^".contains(&byte),
            Some(Tok::Name) => matches!(self.word(index), "and" | "or" | "not"),
            _ => false,
        }
    }

    /// Whether token `index` starts a statement: first, after `;`, or first on its line
    /// when the line before does not go on.
    fn starts_statement(&self, index: usize) -> bool {
        let Some(prev) = index.checked_sub(1) else {
            return true;
        };
        if self.is(prev, Tok::Punct(b';')) {
            return true;
        }
        let then_or_do = matches!(self.word(prev), "then" | "do" | "else" | "begin")
            || self.is(prev, Tok::Punct(b'|'));
        (self.breaks_before(index) && !self.continues(prev)) || then_or_do
    }

    /// Whether the name at `index` is a keyword where it stands: not a method called with
    /// `.`/`&.`/`::`, a `:symbol` nor a `key:`.
    fn is_keyword(&self, index: usize) -> bool {
        let Some(token) = self.tok(index) else {
            return false;
        };
        let adjacent_before = |byte: u8| {
            index
                .checked_sub(1)
                .and_then(|i| self.tok(i))
                .is_some_and(|t| t.tok == Tok::Punct(byte) && t.end == token.start)
        };
        let after_member = index
            .checked_sub(1)
            .and_then(|i| self.tok(i))
            .is_some_and(|t| t.tok == Tok::Punct(b'.') || self.text_of(index - 1) == "::");
        let label = self
            .tok(index + 1)
            .is_some_and(|t| t.tok == Tok::Punct(b':') && t.start == token.end);
        !(after_member || adjacent_before(b':') || label)
    }

    fn token(&mut self, index: usize) {
        let Some(&token) = self.tok(index) else {
            return;
        };
        if self.breaks_before(index) {
            if let Some(prev) = index.checked_sub(1) {
                if !self.continues(prev) && !self.leads_chain(index) {
                    self.end_statement(self.tok(prev).map_or(0, |t| t.start));
                }
            }
            // A loop's condition ended without its `do`.
            self.blocks.no_do();
        }
        if token.start < self.skip_to {
            return;
        }
        match token.tok {
            Tok::Name => self.name(index),
            Tok::Punct(b';') => {
                self.blocks.no_do();
                self.end_statement(token.start);
            }
            Tok::Punct(byte @ (b'(' | b'[' | b'{')) => {
                let entry = match self.block_entry {
                    Some((at, scope)) if at == index => {
                        self.block_entry = None;
                        Some(scope)
                    }
                    _ => None,
                };
                self.blocks.open_bracket(byte, entry.is_some());
            }
            Tok::Punct(close @ (b')' | b']' | b'}')) => self.closing_bracket(close, token.start),
            _ => {}
        }
    }

    /// Whether token `index` continues the line before it (`.map`, `&.x`, `&& y`).
    fn leads_chain(&self, index: usize) -> bool {
        match self.tok(index).map(|t| t.tok) {
            Some(Tok::Punct(b'.' | b'&' | b'|')) => true,
            Some(Tok::Name) => matches!(self.word(index), "and" | "or"),
            _ => false,
        }
    }

    fn name(&mut self, index: usize) {
        let word = self.word(index);
        if !self.is_keyword(index) {
            return;
        }
        match word {
            "def" => self.def(index),
            "class" if self.text_of(index + 1) == "<<" => {
                self.blocks.open(Opened::Singleton(index + 2), false);
            }
            "class" => self.namespace(index, Kind::Class),
            "module" => self.namespace(index, Kind::Module),
            "if" | "unless" | "while" | "until" => {
                let modifier = index.checked_sub(1).is_some_and(|prev| {
                    self.ends_value(prev)
                        && !self.breaks_before(index)
                        && !self.is(prev, Tok::Punct(b';'))
                });
                if !modifier {
                    let awaits_do = matches!(word, "while" | "until");
                    self.blocks.open(Opened::Plain, awaits_do);
                }
            }
            "for" => self.blocks.open(Opened::Plain, true),
            "case" | "begin" => self.blocks.open(Opened::Plain, false),
            "do" => {
                let entry = match self.block_entry {
                    Some((at, scope)) if at == index => {
                        self.block_entry = None;
                        Some(scope)
                    }
                    _ => None,
                };
                match entry {
                    Some(scope) => self.blocks.open(Opened::Entry(scope), false),
                    None => {
                        self.blocks.do_keyword(Opened::Plain);
                    }
                }
            }
            "end" => self.end(index),
            _ if self.starts_statement(index) => self.statement_call(index),
            _ => {}
        }
    }

    /// A closing bracket at the byte `at`: ends the `{ }` block entry it closes.
    fn closing_bracket(&mut self, close: u8, at: usize) {
        if self.blocks.close_bracket(close) == Some(true) {
            self.close(at);
        }
    }

    /// `end`: closes the innermost keyword block and the brackets left open in it.
    fn end(&mut self, index: usize) {
        let at = self.tok(index).map_or(0, |t| t.start);
        // A statement on the `end`'s line ends before it (`X = 1 end`).
        let before = index
            .checked_sub(1)
            .and_then(|i| self.tok(i))
            .map_or(at, |t| t.start);
        self.end_statement(before);
        let closed = self.blocks.end();
        for _ in 0..closed.entry_brackets {
            self.close(at);
        }
        if let Some(Opened::Entry(_)) = closed.what {
            self.close(at);
        }
    }

    /// The scope of the innermost entry or singleton block (`None` at the top level), and
    /// the singleton target when that is a `class << x`.
    fn scope(&self) -> (Option<Scope>, Option<usize>) {
        for opened in self.blocks.keywords().rev() {
            match opened {
                Opened::Entry(scope) => return (Some(scope), None),
                Opened::Singleton(target) => return (Some(Scope::Namespace), Some(target)),
                Opened::Plain => {}
            }
        }
        (None, None)
    }

    /// Whether any enclosing block is a class, module or method.
    fn in_code_scope(&self) -> bool {
        self.blocks.keywords().any(|opened| {
            matches!(
                opened,
                Opened::Entry(Scope::Namespace | Scope::Body) | Opened::Singleton(_)
            )
        })
    }

    /// `class A::B < C` or `module A::B`.
    fn namespace(&mut self, index: usize, kind: Kind) {
        let (name, _) = self.constant_path(index + 1);
        if name.is_empty() {
            self.blocks.open(Opened::Plain, false);
            return;
        }
        let start = self.tok(index).map_or(0, |t| t.start);
        let head_end = self.line_end(start);
        self.open_entry(kind, name, start, head_end);
        self.blocks.open(Opened::Entry(Scope::Namespace), false);
    }

    /// `A::B::C` (or `::A`) from token `index`: the path as written and the index past it.
    fn constant_path(&self, mut index: usize) -> (String, usize) {
        let mut name = String::new();
        if self.text_of(index) == "::" {
            index += 1;
        }
        while self.is(index, Tok::Name) {
            name.push_str(self.word(index));
            if self.text_of(index + 1) != "::" || !self.is(index + 2, Tok::Name) {
                return (name, index + 1);
            }
            name.push_str("::");
            index += 2;
        }
        (name, index)
    }

    /// Where the line holding `offset` ends, before any comment on it.
    fn line_end(&self, offset: usize) -> usize {
        let end = memchr::memchr(b'\n', self.masked.get(offset..).unwrap_or(&[]))
            .map_or(self.masked.len(), |n| offset + n);
        let comment = (offset..end).find(|&i| {
            self.text.as_bytes().get(i) == Some(&b'#') && self.masked.get(i) == Some(&b' ')
        });
        comment.unwrap_or(end)
    }

    /// `def` and its head: the name (with a receiver, an operator, a `?`, `!` or `=`), the
    /// parameters, and a body to its `end`, or an endless body (`= value`) to its statement's.
    fn def(&mut self, index: usize) {
        let Some(def) = self.tok(index).copied() else {
            return;
        };
        let bytes = self.masked;
        let name_start = lex::skip_blanks(bytes, def.end);
        let name_end = method_name_end(bytes, name_start);
        let mut name = self
            .text
            .get(name_start..name_end)
            .unwrap_or("")
            .to_string();
        let mut after = skip_spaces(bytes, name_end);
        let parenthesised = bytes.get(after) == Some(&b'(');
        if parenthesised {
            after = skip_spaces(bytes, matching_paren(bytes, after));
        }
        let endless = bytes.get(after) == Some(&b'=')
            && !matches!(bytes.get(after + 1), Some(b'=' | b'~' | b'>'));
        let head_end = if parenthesised || endless {
            after
        } else {
            // `def x a, b` to the line's end or a `;` (`def close; end`).
            let line_end = self.line_end(name_end).max(name_end);
            memchr::memchr(b';', &bytes[name_end..line_end]).map_or(line_end, |n| name_end + n)
        };
        self.skip_to = match (endless, parenthesised) {
            (true, _) => after + 1,
            (false, true) => head_end,
            (false, false) => name_end,
        };
        if name.is_empty() {
            self.blocks.open(Opened::Plain, false);
            return;
        }
        let (scope, singleton) = self.scope();
        if let Some(target) = singleton {
            name = format!("{}.{name}", self.word(target));
        }
        // A method of a class, a module, or a constant's `Struct.new do … end`.
        let owner_is_type = self
            .open
            .last()
            .is_some_and(|owner| matches!(owner.kind, Kind::Class | Kind::Module));
        let kind = match scope {
            Some(Scope::Namespace) => Kind::Method,
            _ if owner_is_type || self.in_code_scope() => Kind::Method,
            _ => Kind::Function,
        };
        self.open_entry(kind, name, def.start, head_end.max(name_end));
        if endless {
            self.open_statement();
        } else {
            self.blocks.open(Opened::Entry(Scope::Body), false);
        }
    }

    fn open_entry(&mut self, kind: Kind, name: String, start: usize, head_end: usize) {
        let head = signature(self.text.get(start..head_end).unwrap_or(""));
        let line = self.line_of(start);
        self.open
            .push(Entry::new(kind, name, line, line).with_signature(head));
    }

    /// Ends the innermost open entry at the byte `at`.
    fn close(&mut self, at: usize) {
        let Some(mut entry) = self.open.pop() else {
            return;
        };
        entry.end_line = self.line_of(at).max(entry.line);
        match self.open.last_mut() {
            Some(parent) => parent.children.push(entry),
            None => self.out.push(entry),
        }
    }

    /// The innermost open entry ends with the statement it starts.
    fn open_statement(&mut self) {
        self.statements.push(Statement {
            depth: self.blocks.depth(),
        });
    }

    /// Ends the entries of the statements (constants, endless methods) that end at the byte
    /// `at`: those begun outside every block still open.
    fn end_statement(&mut self, at: usize) {
        while let Some(statement) = self.statements.last() {
            if self.blocks.depth() > statement.depth {
                return;
            }
            self.statements.pop();
            self.close(at);
        }
    }
}

/// Where a method name written from `from` ends: a word with a receiver (`self.x`, `obj.x`)
/// and a `?`, `!` or `=` suffix (`x=` when no space parts them), or an operator (`==`, `[]=`,
/// `+@`, `<=>`, `` ` ``).
fn method_name_end(bytes: &[u8], from: usize) -> usize {
    let is_word = |b: u8| lex::is_word_byte(b) || b == b'@';
    let operator = |b: u8| b"+-*/%<>=!~^&|[]@`".contains(&b);
    let mut i = from;
    loop {
        let start = i;
        if bytes.get(i).is_some_and(|b| is_word(*b)) {
            while bytes.get(i).is_some_and(|b| is_word(*b)) {
                i += 1;
            }
            match bytes.get(i) {
                Some(b'?' | b'!') if bytes.get(i + 1) != Some(&b'=') => i += 1,
                Some(b'=') if !matches!(bytes.get(i + 1), Some(b'=' | b'~' | b'>')) => {
                    // `x=(v)` and `x= v` are setters; `x = 1` is an endless method.
                    i += 1;
                }
                _ => {}
            }
        } else {
            while bytes.get(i).is_some_and(|b| operator(*b)) && i - start < 3 {
                i += 1;
            }
        }
        // A receiver: `self.` or `obj.` before the name.
        if i > start && bytes.get(i) == Some(&b'.') && bytes.get(i - 1) != Some(&b'=') {
            i += 1;
            continue;
        }
        return i;
    }
}

/// The offset past the `)` closing the `(` at `open` (masked text: strings cannot fool it),
/// or the end of that line when it does not close there … within a few lines.
fn matching_paren(bytes: &[u8], open: usize) -> usize {
    let mut depth = 0usize;
    for (i, byte) in bytes.iter().enumerate().skip(open).take(4096) {
        match byte {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    (open + 1).min(bytes.len())
}

/// The first offset at or after `from` that is no space or tab.
fn skip_spaces(bytes: &[u8], from: usize) -> usize {
    from + bytes
        .get(from..)
        .unwrap_or(&[])
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count()
}

#[cfg(test)]
mod tests;
