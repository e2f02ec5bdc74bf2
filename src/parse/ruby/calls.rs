//! Statements that define by calling: constants (`X = …`, a class when `Struct.new`,
//! `Data.define` or `Class.new` makes it), `attr_*` fields, `alias`, `alias_method` and
//! `define_method` with a literal name, Rake's `task`/`namespace`/`file`/`rule` outside
//! classes and methods. RSpec/minitest `describe`/`it` blocks are not entries: no parser
//! counts them as definitions (nor do we in JavaScript), and on a spec-heavy project they were
//! a fifth of all entries; `--grep '^\s*(describe|it) '` finds them.

use super::{Scanner, Scope};
use crate::outline::Kind;
use crate::parse::end_blocks::Tok;

/// Rake's calls that name a task (`namespace` names a group of them).
const RAKE: &[&str] = &[
    "task",
    "file",
    "directory",
    "multitask",
    "rule",
    "namespace",
];

/// How far a call's arguments are read for its block (`do` or `{`), in tokens.
const MAX_ARGUMENT_TOKENS: usize = 256;

impl Scanner<'_> {
    /// A name that starts a statement: a constant assignment or a defining call.
    pub(super) fn statement_call(&mut self, index: usize) {
        let word = self.word(index);
        if word.starts_with(|c: char| c.is_ascii_uppercase()) {
            self.constant(index);
            return;
        }
        let in_code = || self.in_code_scope();
        match word {
            "attr_reader" | "attr_writer" | "attr_accessor" | "attr" => self.fields(index),
            "alias" => {
                // `alias new old`, `alias :new :old`, `alias x= y=`, `alias $new $old`.
                let from = self.tok(index).map_or(0, |t| t.end);
                let mut start = crate::parse::lex::skip_blanks(self.masked, from);
                if self.masked.get(start) == Some(&b':') {
                    start += 1;
                }
                let end = super::method_name_end(self.masked, start);
                let name = self.text.get(start..end).unwrap_or("");
                if !name.is_empty() && !name.contains('.') {
                    self.leaf(Kind::Method, name.to_string(), index);
                }
            }
            "alias_method" | "define_method" => {
                if let Some(name) = self.first_argument(index) {
                    self.call_entry(index, Kind::Method, name, Scope::Body, true);
                }
            }
            _ if self.rake && RAKE.contains(&word) && !in_code() => {
                if let Some(name) = self.first_argument(index) {
                    let kind = match word {
                        "namespace" => Kind::Namespace,
                        _ => Kind::Target,
                    };
                    self.call_entry(index, kind, name, Scope::Group, word != "namespace");
                }
            }
            _ => {}
        }
    }

    /// `X = …`, `A::B = …`.
    fn constant(&mut self, index: usize) {
        let (name, after) = self.constant_path(index);
        let assigns = self.is(after, Tok::Punct(b'='))
            && self
                .tok(after + 1)
                .is_some_and(|t| t.tok != Tok::Punct(b'~'));
        if !assigns {
            return;
        }
        let value = (self.word(after + 1), self.word(after + 3));
        let kind = match value {
            ("Struct", "new") | ("Data", "define") | ("Class", "new") => Kind::Class,
            ("Module", "new") => Kind::Module,
            _ => Kind::Constant,
        };
        let start = self.tok(index).map_or(0, |t| t.start);
        let head_end = self.line_end(start);
        self.open_entry(kind, name, start, head_end);
        self.open_statement();
    }

    /// `attr_reader :a, :b` (or strings): a field per name, on its own line.
    fn fields(&mut self, index: usize) {
        let mut i = index + 1;
        if self.is(i, Tok::Punct(b'(')) {
            i += 1;
        }
        let call = self.tok(index).map_or(0, |t| t.start);
        let head = super::signature(self.text.get(call..self.line_end(call)).unwrap_or(""));
        while let Some(name) = self.literal(i) {
            let at = self.tok(i).map_or(0, |t| t.start);
            let line = self.line_of(at);
            let field = crate::outline::Entry::new(Kind::Field, name, line, line);
            self.push(field.with_signature(head.clone()));
            i = self.past_literal(i);
            if !self.is(i, Tok::Punct(b',')) {
                return;
            }
            i += 1;
        }
    }

    /// An entry for a defining call: to the end of its block when one follows it (the block
    /// then holds what `scope` says), else on its line when `leaf` allows one.
    fn call_entry(&mut self, index: usize, kind: Kind, name: String, scope: Scope, leaf: bool) {
        match self.block_after(index) {
            Some(block) => {
                let start = self.tok(index).map_or(0, |t| t.start);
                let head_end = self.tok(block).map_or(start, |t| t.start);
                self.open_entry(kind, name, start, head_end);
                self.block_entry = Some((block, scope));
            }
            None if leaf => self.leaf(kind, name, index),
            None => {}
        }
    }

    /// An entry on the line of token `index`.
    fn leaf(&mut self, kind: Kind, name: String, index: usize) {
        let at = self.tok(index).map_or(0, |t| t.start);
        let head = super::signature(self.text.get(at..self.line_end(at)).unwrap_or(""));
        let line = self.line_of(at);
        self.push(crate::outline::Entry::new(kind, name, line, line).with_signature(head));
    }

    fn push(&mut self, entry: crate::outline::Entry) {
        match self.open.last_mut() {
            Some(parent) => parent.children.push(entry),
            None => self.out.push(entry),
        }
    }

    /// The `do` or `{` that opens the block of the call at `index`, on the call's statement.
    fn block_after(&self, index: usize) -> Option<usize> {
        let mut depth = 0usize;
        let last = (index + MAX_ARGUMENT_TOKENS).min(self.tokens.len());
        for i in index + 1..last {
            if self.breaks_before(i) && !self.continues(i - 1) {
                return None;
            }
            match self.tok(i)?.tok {
                Tok::Punct(b'(' | b'[') => depth += 1,
                Tok::Punct(b'{') if depth == 0 => {
                    let after_arguments = i == index + 1 || self.is(i - 1, Tok::Punct(b')'));
                    return after_arguments.then_some(i);
                }
                Tok::Punct(b'{') => depth += 1,
                Tok::Punct(b')' | b']' | b'}') => depth = depth.checked_sub(1)?,
                Tok::Name if depth == 0 && self.word(i) == "do" && self.is_keyword(i) => {
                    return Some(i)
                }
                Tok::Punct(b';') => return None,
                _ => {}
            }
        }
        None
    }

    /// The first argument of the call at `index` when it is a literal name: `:x`, `"x"`,
    /// `x:` (a task with dependencies), `(:x`.
    fn first_argument(&self, index: usize) -> Option<String> {
        let mut first = index + 1;
        if self.is(first, Tok::Punct(b'(')) {
            first += 1;
        }
        if self.is(first, Tok::Name) && self.is(first + 1, Tok::Punct(b':')) {
            return Some(self.word(first).to_string());
        }
        self.literal(first)
    }

    /// Whether token `index` is a `:` glued to the name after it.
    fn is_symbol(&self, index: usize) -> bool {
        let (Some(colon), Some(name)) = (self.tok(index), self.tok(index + 1)) else {
            return false;
        };
        colon.tok == Tok::Punct(b':') && name.tok == Tok::Name && colon.end == name.start
    }

    /// The name a literal at `index` holds: a `:symbol`, or a string on one line.
    fn literal(&self, index: usize) -> Option<String> {
        if self.is_symbol(index) {
            return Some(self.word(index + 1).to_string());
        }
        let quote = self.tok(index)?;
        let Tok::Punct(byte @ (b'"' | b'\'')) = quote.tok else {
            return None;
        };
        let close = self.tok(index + 1)?;
        let text = self.text.get(quote.end..close.start)?;
        (close.tok == Tok::Punct(byte) && !text.contains('\n')).then(|| text.to_string())
    }

    /// The index past the literal at `index` (see [`Scanner::literal`]).
    fn past_literal(&self, index: usize) -> usize {
        index + 2
    }
}
