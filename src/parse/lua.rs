//! Lua outline scanner: functions (`function f()`, `local function f()`, `function a.b:c()`
//! named `a.b.c`, a method), functions assigned to a name, a field or a key (`M.f = function`,
//! `local f = function`, `M["f"] = function`), tables assigned at the top level with their
//! function fields as children, and the other top-level variables (the first of each name).
//! Functions in function bodies are their children.
//!
//! The text is masked first by the shared masker (`--` and `--[[ ]]` comments, quoted and
//! `[==[ ]==]` long strings), then read as tokens. A function ends at the `end` that closes it,
//! counted over every block (`function`, `if`, `do`, `while … do`, `for … do`, `repeat …
//! until`): Lua's keywords are reserved, so a word `end` is always one.

use crate::outline::{Entry, Kind};
use crate::parse::end_blocks::{tokenize, Blocks, Tok, Token, TokenRules};
use crate::parse::lex::{self, LexSpec, LongBrackets};
use crate::parse::{signature, LineCursor};
use std::collections::HashSet;

/// Lua's names are plain; its strings and long strings are tokens.
const TOKENS: TokenRules = TokenRules {
    name_prefixes: b"",
    name_suffixes: b"",
    quoted_strings: true,
    long_strings: true,
};

/// Lua's comments and literals.
pub(crate) const SPEC: LexSpec = LexSpec {
    line_comments: &["--"],
    quotes: b"\"'",
    backslash_escapes: true,
    long_brackets: Some(LongBrackets::LUA),
    ..LexSpec::NONE
};

/// Outlines a Lua file.
pub(crate) fn parse(text: &str) -> Vec<Entry> {
    let masked = lex::mask_bytes(text, &SPEC);
    let tokens = tokenize(&masked, TOKENS);
    let mut scanner = Scanner {
        text,
        masked: &masked,
        tokens: &tokens,
        lines: LineCursor::new(text),
        blocks: Blocks::new(),
        open: Vec::new(),
        functions: 0,
        seen: HashSet::new(),
        out: Vec::new(),
    };
    for index in 0..tokens.len() {
        scanner.token(index);
    }
    while !scanner.open.is_empty() {
        scanner.close(text.len().saturating_sub(1), true);
    }
    scanner.out
}

/// What a keyword block is (brackets are the shared
/// [`Block::Bracket`](crate::parse::end_blocks::Block::Bracket); a table
/// constructor that is the innermost open entry is one with `entry`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opened {
    /// A function body; `entry`: it is the innermost open entry.
    Function { entry: bool },
    /// `if`, `do`, `repeat`, `while … do`, `for … do`.
    Keyword,
}

/// An entry whose end is still to come.
struct Open {
    entry: Entry,
    /// A table: kept at the top level, or when a function lies in it.
    table: bool,
}

struct Scanner<'a> {
    text: &'a str,
    /// `text` masked: where a comment starts, a variable's signature ends.
    masked: &'a [u8],
    tokens: &'a [Token],
    lines: LineCursor<'a>,
    blocks: Blocks<Opened>,
    open: Vec<Open>,
    /// Function bodies open: none at the top level.
    functions: usize,
    seen: HashSet<String>,
    out: Vec<Entry>,
}

impl Scanner<'_> {
    fn tok(&self, index: usize) -> Option<&Token> {
        self.tokens.get(index)
    }

    fn is(&self, index: Option<usize>, tok: Tok) -> bool {
        index
            .and_then(|i| self.tok(i))
            .is_some_and(|t| t.tok == tok)
    }

    fn word(&self, index: usize) -> &str {
        self.tok(index)
            .filter(|t| t.tok == Tok::Name)
            .and_then(|t| self.text.get(t.start..t.end))
            .unwrap_or("")
    }

    fn line_of(&self, offset: usize) -> usize {
        self.lines.line_of(offset.min(self.text.len()))
    }

    /// The innermost bracket, if the innermost block is one.
    fn bracket(&self) -> Option<(u8, bool)> {
        self.blocks.bracket()
    }

    /// At a statement's level of the top level: no function body, no bracket open.
    fn top_statement(&self) -> bool {
        self.functions == 0 && self.bracket().is_none()
    }

    fn token(&mut self, index: usize) {
        let Some(&token) = self.tok(index) else {
            return;
        };
        match token.tok {
            Tok::Name => self.keyword(index),
            Tok::Punct(b'=') => self.assignment(index),
            Tok::Punct(byte @ (b'(' | b'[' | b'{')) => {
                let entry = byte == b'{' && self.table(index);
                self.blocks.open_bracket(byte, entry);
            }
            Tok::Punct(close @ (b')' | b']' | b'}')) => self.closing_bracket(close, token.start),
            _ => {}
        }
    }

    fn keyword(&mut self, index: usize) {
        match self.word(index) {
            "function" => self.function(index),
            "local" => self.local(index),
            "if" | "repeat" => self.blocks.open(Opened::Keyword, false),
            "while" | "for" => self.blocks.open(Opened::Keyword, true),
            "do" => {
                self.blocks.do_keyword(Opened::Keyword);
            }
            "end" | "until" => self.end(index),
            _ => {}
        }
    }

    /// A closing bracket at the byte `at`: ends the table it closes.
    fn closing_bracket(&mut self, close: u8, at: usize) {
        if self.blocks.close_bracket(close) == Some(true) {
            self.close(at, false);
        }
    }

    /// `end` or `until`: closes the innermost keyword block (and any bracket left open in it).
    fn end(&mut self, index: usize) {
        let at = self.tok(index).map_or(0, |t| t.start);
        let closed = self.blocks.end();
        for _ in 0..closed.entry_brackets {
            self.close(at, false);
        }
        if let Some(Opened::Function { entry }) = closed.what {
            self.functions = self.functions.saturating_sub(1);
            if entry {
                self.close(at, false);
            }
        }
    }

    /// At `function`: a named function statement, or a function value named by what it is
    /// assigned to, or an anonymous one (a callback: no entry, but a body to count).
    fn function(&mut self, index: usize) {
        let local = index
            .checked_sub(1)
            .is_some_and(|i| self.word(i) == "local");
        let named = if self.is(Some(index + 1), Tok::Name) {
            let (name, method, _) = self.chain_after(index + 1);
            let start = if local { index - 1 } else { index };
            Some((name, method, start))
        } else {
            self.assigned_to(index)
                .map(|(name, start)| (name, false, start))
        };
        let entry = named.is_some();
        if let Some((name, method, start)) = named {
            let kind = if method { Kind::Method } else { Kind::Function };
            self.open_entry(kind, name, start, self.params_end(index), false);
        }
        self.functions += 1;
        self.blocks.open(Opened::Function { entry }, false);
    }

    /// `a.b:c` from the name at `index`: the name with dots, whether it ends in `:` (a
    /// method), and the index past it.
    fn chain_after(&self, index: usize) -> (String, bool, usize) {
        let mut name = self.word(index).to_string();
        let mut method = false;
        let mut i = index + 1;
        while let Some(Tok::Punct(sep @ (b'.' | b':'))) = self.tok(i).map(|t| t.tok) {
            if !self.is(Some(i + 1), Tok::Name) {
                break;
            }
            name.push('.');
            name.push_str(self.word(i + 1));
            method = sep == b':';
            i += 2;
        }
        (name, method, i)
    }

    /// The name a value at `index` is assigned to, and the index of its statement's first
    /// token: `x = `, `local x = `, `a.b = `, `a["b"] = `, or a table field `b = `, `["b"] = `.
    fn assigned_to(&self, index: usize) -> Option<(String, usize)> {
        let equals = index.checked_sub(1)?;
        if self.tok(equals)?.tok != Tok::Punct(b'=') {
            return None;
        }
        let (name, first) = self.target_before(equals)?;
        match self.bracket() {
            Some((b'{', _)) => (!name.contains('.')).then_some((name, first)),
            Some(_) => None,
            None => {
                let before = first.checked_sub(1);
                let local = before.is_some_and(|i| self.word(i) == "local");
                if before.is_some_and(|i| self.tok(i).is_some_and(|t| t.tok == Tok::Punct(b','))) {
                    return None; // `a, b = …`: which value is whose is not read here
                }
                Some((name, if local { first - 1 } else { first }))
            }
        }
    }

    /// The assignment target ending just before the `=` at `equals`: `a.b.c` or `a["k"]`
    /// (`a.k`), and the index of its first token.
    fn target_before(&self, equals: usize) -> Option<(String, usize)> {
        let last = equals.checked_sub(1)?;
        let mut key = None;
        let mut end = last;
        if self.tok(last)?.tok == Tok::Punct(b']') {
            let string = self.tok(last.checked_sub(1)?)?;
            let open = last.checked_sub(2)?;
            if string.tok != Tok::Str || self.tok(open)?.tok != Tok::Punct(b'[') {
                return None;
            }
            let quoted = self.text.get(string.start..string.end)?;
            key = Some(quoted.get(1..quoted.len().checked_sub(1)?)?.to_string());
            match open.checked_sub(1).filter(|i| self.is(Some(*i), Tok::Name)) {
                Some(table) => end = table,
                None => return key.map(|key| (key, open)),
            }
        } else if self.tok(last)?.tok != Tok::Name {
            return None;
        }
        let mut first = end;
        while first >= 2
            && self.tok(first - 1)?.tok == Tok::Punct(b'.')
            && self.tok(first - 2)?.tok == Tok::Name
        {
            first -= 2;
        }
        let mut name = (first..=end)
            .step_by(2)
            .map(|i| self.word(i))
            .collect::<Vec<_>>()
            .join(".");
        if let Some(key) = key {
            name.push('.');
            name.push_str(&key);
        }
        Some((name, first))
    }

    /// The offset past the parameter list of the function keyword at `index`.
    fn params_end(&self, index: usize) -> usize {
        let close = self.tokens[index..]
            .iter()
            .take(64)
            .find(|t| t.tok == Tok::Punct(b')'));
        close.map_or_else(|| self.tok(index).map_or(0, |t| t.end), |t| t.end)
    }

    /// At `{`: whether it opens a table worth an entry (assigned at the top level, or a field
    /// of such a table), and opens it.
    fn table(&mut self, index: usize) -> bool {
        let in_table = matches!(self.bracket(), Some((b'{', true)));
        if self.functions > 0 || !(self.top_statement() || in_table) {
            return false;
        }
        let Some((name, start)) = self.assigned_to(index) else {
            return false;
        };
        let end = self.tok(index).map_or(0, |t| t.end);
        self.open_entry(Kind::Variable, name, start, end, true);
        true
    }

    fn open_entry(&mut self, kind: Kind, name: String, start: usize, head_end: usize, table: bool) {
        let start = self.tok(start).map_or(0, |t| t.start);
        let head = signature(self.text.get(start..head_end).unwrap_or(""));
        let line = self.line_of(start);
        let entry = Entry::new(kind, name, line, line).with_signature(head);
        self.open.push(Open { entry, table });
    }

    /// Ends the innermost open entry at the byte `at`; at the end of input (`eof`) every
    /// table is kept.
    fn close(&mut self, at: usize, eof: bool) {
        let Some(Open { mut entry, table }) = self.open.pop() else {
            return;
        };
        entry.end_line = self.line_of(at).max(entry.line);
        if table {
            let outermost = self.open.is_empty();
            let first = !outermost || self.seen.insert(entry.name().to_string());
            let holds_functions = entry.children.iter().any(|c| c.kind != Kind::Variable);
            let keep = (outermost && first) || holds_functions || eof;
            if !keep {
                return;
            }
        }
        match self.open.last_mut() {
            Some(parent) => parent.entry.children.push(entry),
            None => self.out.push(entry),
        }
    }

    /// `local a, b <const> = …` or `local a`: top-level variables, unless the value is a
    /// function or a table (read where it starts).
    fn local(&mut self, index: usize) {
        if !self.top_statement() || self.word(index + 1) == "function" {
            return;
        }
        let mut names = Vec::new();
        let mut i = index + 1;
        while self.is(Some(i), Tok::Name) {
            names.push(i);
            i += 1;
            if self.tok(i).is_some_and(|t| t.tok == Tok::Punct(b'<')) {
                i += 3; // an attribute: `<const>`, `<close>`
            }
            if !self.is(Some(i), Tok::Punct(b',')) {
                break;
            }
            i += 1;
        }
        let value = self.tok(i + 1).map(|t| t.tok);
        let assigns = self.is(Some(i), Tok::Punct(b'='));
        if assigns && names.len() == 1 && value == Some(Tok::Punct(b'{')) {
            return;
        }
        if assigns && names.len() == 1 && self.word(i + 1) == "function" {
            return;
        }
        for name in names {
            self.variable(name, index);
        }
    }

    /// `x = …` at the top level: a variable, unless the value is a function or a table.
    fn assignment(&mut self, index: usize) {
        if !self.top_statement() || self.word(index + 1) == "function" {
            return;
        }
        if self.is(Some(index + 1), Tok::Punct(b'{')) {
            return;
        }
        let Some(target) = index
            .checked_sub(1)
            .filter(|i| self.is(Some(*i), Tok::Name))
        else {
            return;
        };
        let before = target
            .checked_sub(1)
            .and_then(|i| self.tok(i))
            .map(|t| t.tok);
        let part_of_something = matches!(before, Some(Tok::Punct(b'.' | b':' | b',')))
            || target
                .checked_sub(1)
                .is_some_and(|i| matches!(self.word(i), "local" | "for"));
        if !part_of_something {
            self.variable(target, target);
        }
    }

    fn variable(&mut self, name: usize, start: usize) {
        let word = self.word(name).to_string();
        if word.is_empty() || !self.seen.insert(word.clone()) {
            return;
        }
        let from = self.tok(start).map_or(0, |t| t.start);
        let line = self.line_of(from);
        let line_end = self.text[from..]
            .find('\n')
            .map_or(self.text.len(), |n| from + n);
        // A comment is blank in the mask where the text has `--`.
        let comment = (from..line_end).find(|&i| {
            self.text.as_bytes().get(i..i + 2) == Some(b"--".as_slice())
                && self.masked.get(i) == Some(&b' ')
        });
        let line_end = comment.unwrap_or(line_end);
        let head = signature(self.text.get(from..line_end).unwrap_or(""));
        self.out
            .push(Entry::new(Kind::Variable, word, line, line).with_signature(head));
    }
}

#[cfg(test)]
mod tests;
