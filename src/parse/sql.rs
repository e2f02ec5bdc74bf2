//! SQL outline scanner: one entry per `CREATE` statement of a table, view (materialized too),
//! index, function, aggregate, procedure, trigger, type, domain, sequence or schema, with the
//! columns of a table as [`Kind::Field`] children.
//!
//! `scan` splits the file into statements the way a SQL client does (comments, strings,
//! dollar quotes, `DELIMITER`, `GO`, `BEGIN … END` bodies); this module reads each `CREATE`
//! head: modifiers, the object kind, `IF NOT EXISTS`, and the object name without its schema,
//! unquoted (`"My Table"`, `` `t` ``, `[t]`). An entry spans from the `CREATE` line to the line
//! of the statement's last token (its `;`).

mod plsql;
mod scan;
mod table;

use crate::outline::{Entry, Kind};
use crate::parse::lex::LexSpec;
use crate::parse::{owned_signature, LineIndex};
use scan::{Statement, Tok, Token};

/// SQL's comments and strings for search's code mask ([`crate::parse::code_mask`]); the
/// scanner itself reads them with its own tokenizer (`scan`), which also knows `DELIMITER` and
/// batch lines.
pub(crate) const SPEC: LexSpec = LexSpec {
    line_comments: &["--"],
    block_comment: Some(("/*", "*/")),
    quotes: b"'",
    dollar_quotes: true,
    ..LexSpec::NONE
};

/// Outlines SQL text.
pub(crate) fn parse(text: &str) -> Vec<Entry> {
    let index = LineIndex::new(text);
    let mut entries = Vec::new();
    scan::for_each_create_statement(text, &mut |statement| {
        let head = Head {
            text,
            tokens: &statement.tokens,
        };
        entries.extend(head.entry(&index, statement));
    });
    entries
}

/// Words that may sit between `CREATE` and the object kind.
const MODIFIERS: &[&str] = &[
    "TEMP",
    "TEMPORARY",
    "GLOBAL",
    "LOCAL",
    "UNLOGGED",
    "UNIQUE",
    "CLUSTERED",
    "NONCLUSTERED",
    "FULLTEXT",
    "SPATIAL",
    "BITMAP",
    "RECURSIVE",
    "TRUSTED",
    "PROCEDURAL",
    "VIRTUAL",
    "FOREIGN",
    "EXTERNAL",
    "CONSTRAINT",
    "EDITIONABLE",
    "NONEDITIONABLE",
    "FORCE",
    "NOFORCE",
    "SECURE",
    "TRANSIENT",
    "VOLATILE",
    "COLUMNSTORE",
    "ROWSTORE",
    "EVENT",
    "MATERIALIZED",
];

/// Modifiers worth keeping at the front of a signature.
const SHOWN_MODIFIERS: &[&str] = &[
    "TEMP",
    "TEMPORARY",
    "UNLOGGED",
    "UNIQUE",
    "RECURSIVE",
    "VIRTUAL",
    "FOREIGN",
    "CONSTRAINT",
    "EVENT",
    "MATERIALIZED",
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Object {
    Table,
    View,
    Index,
    Function,
    Aggregate,
    Procedure,
    Trigger,
    Type,
    Domain,
    Sequence,
    Schema,
    /// MySQL's and SQL Server's databases (PostgreSQL's and Oracle's too).
    Database,
    /// An Oracle PL/SQL package (specification or body), its routines as children.
    Package,
}

impl Object {
    fn from_word(word: &str) -> Option<Object> {
        Some(match word.to_ascii_uppercase().as_str() {
            "TABLE" => Object::Table,
            "VIEW" => Object::View,
            "INDEX" => Object::Index,
            "FUNCTION" => Object::Function,
            "AGGREGATE" => Object::Aggregate,
            "PROCEDURE" | "PROC" => Object::Procedure,
            "TRIGGER" => Object::Trigger,
            "TYPE" => Object::Type,
            "DOMAIN" => Object::Domain,
            "SEQUENCE" => Object::Sequence,
            "SCHEMA" => Object::Schema,
            "DATABASE" => Object::Database,
            "PACKAGE" => Object::Package,
            _ => return None,
        })
    }

    fn kind(self) -> Kind {
        match self {
            Object::Table => Kind::Table,
            Object::View => Kind::View,
            Object::Index => Kind::Index,
            Object::Function | Object::Aggregate => Kind::Function,
            Object::Procedure => Kind::Procedure,
            Object::Trigger => Kind::Trigger,
            Object::Type | Object::Domain => Kind::Type,
            Object::Sequence => Kind::Sequence,
            Object::Schema | Object::Database => Kind::Schema,
            Object::Package => Kind::Module,
        }
    }
}

/// Words ending the head of a routine: what follows is its body or its options.
const ROUTINE_STOP: &[&str] = &[
    "AS",
    "IS",
    "LANGUAGE",
    "IMMUTABLE",
    "STABLE",
    "VOLATILE",
    "STRICT",
    "SECURITY",
    "COST",
    "ROWS",
    "PARALLEL",
    "SET",
    "WINDOW",
    "LEAKPROOF",
    "CALLED",
    "BEGIN",
    "RETURN",
    "DETERMINISTIC",
    "READS",
    "MODIFIES",
    "CONTAINS",
    "NO",
    "COMMENT",
    "WITH",
    "EXTERNAL",
    "SUPPORT",
    "TRANSFORM",
    "NOT",
    "DECLARE",
    "SQL",
    "DEFINER",
    "INVOKER",
];

/// Words ending the head of a trigger.
const TRIGGER_STOP: &[&str] = &[
    "FOR",
    "EXECUTE",
    "BEGIN",
    "WHEN",
    "REFERENCING",
    "AS",
    "DEFERRABLE",
    "NOT",
    "INITIALLY",
    "FROM",
    "WITH",
];

struct Head<'a> {
    text: &'a str,
    tokens: &'a [Token],
}

impl Head<'_> {
    fn tok(&self, i: usize) -> Option<&Token> {
        self.tokens.get(i)
    }

    fn src(&self, token: &Token) -> &str {
        self.text.get(token.start..token.end).unwrap_or("")
    }

    /// The word at `i`, if that token is a bare word.
    fn word(&self, i: usize) -> Option<&str> {
        self.tok(i)
            .filter(|t| t.kind == Tok::Word)
            .map(|t| self.src(t))
    }

    fn is(&self, i: usize, word: &str) -> bool {
        self.word(i).is_some_and(|w| w.eq_ignore_ascii_case(word))
    }

    fn is_any(&self, i: usize, words: &[&str]) -> bool {
        self.word(i)
            .is_some_and(|w| words.iter().any(|x| w.eq_ignore_ascii_case(x)))
    }

    fn is_punct(&self, i: usize, byte: u8) -> bool {
        self.tok(i).is_some_and(|t| t.kind == Tok::Punct(byte))
    }

    /// Tokens `from..to` as one line, spaced as in the source, comments dropped.
    fn joined(&self, from: usize, to: usize) -> String {
        let tokens = self
            .tokens
            .get(from..to.min(self.tokens.len()))
            .unwrap_or(&[]);
        // Each gap becomes at most one byte, so the source span bounds the length: one
        // allocation instead of a string grown push by push (4.9% of a SQL parse).
        let span = match (tokens.first(), tokens.last()) {
            (Some(first), Some(last)) => last.end.saturating_sub(first.start),
            _ => 0,
        };
        let mut out = String::with_capacity(span);
        let mut prev_end: Option<usize> = None;
        for token in tokens {
            if let Some(end) = prev_end.filter(|end| *end < token.start) {
                // A line break stays one, so signature shaping knows where a line broke.
                let gap = self.text.get(end..token.start).unwrap_or(" ");
                out.push(if gap.contains('\n') { '\n' } else { ' ' });
            }
            out.push_str(self.src(token));
            prev_end = Some(token.end);
        }
        owned_signature(out)
    }

    /// Index just past the bracket group opening at `open` (`(`), or the end.
    fn skip_group(&self, open: usize) -> usize {
        let mut depth = 0usize;
        let mut i = open;
        while let Some(token) = self.tok(i) {
            match token.kind {
                Tok::Punct(b'(') => depth += 1,
                Tok::Punct(b')') => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return i + 1;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        i
    }

    /// A possibly qualified name at `i` (`a.b."C"`, `[dbo].[t]`): its last part unquoted and
    /// the index after it.
    fn name(&self, mut i: usize) -> Option<(String, usize)> {
        let mut last = None;
        loop {
            let token = self.tok(i)?;
            let part = match token.kind {
                Tok::Word => {
                    i += 1;
                    self.src(token).to_string()
                }
                Tok::Quoted => {
                    i += 1;
                    let name = unquote(self.src(token));
                    if self.src(token).starts_with('`') && name.contains('.') {
                        // BigQuery's `project.dataset.table`: one quoted path.
                        name.rsplit('.').next().unwrap_or_default().to_string()
                    } else {
                        name
                    }
                }
                Tok::Punct(b'[') => {
                    let close = (i + 1..i + 64).find(|&k| self.is_punct(k, b']'))?;
                    let part = if close == i + 1 {
                        String::new()
                    } else {
                        let start = self.tok(i + 1)?.start;
                        let end = self.tok(close - 1)?.end;
                        self.text.get(start..end).unwrap_or("").to_string()
                    };
                    i = close + 1;
                    part
                }
                _ => return last.map(|name| (name, i)),
            };
            last = Some(part);
            if self.is_punct(i, b'.') {
                i += 1;
            } else {
                return last.map(|name| (name, i));
            }
        }
    }

    fn entry(&self, index: &LineIndex, statement: &Statement) -> Option<Entry> {
        let (object, shown, mut i) = self.object()?;
        if object == Object::Index && self.is(i, "CONCURRENTLY") {
            i += 1;
        }
        if self.is(i, "IF") && self.is(i + 1, "NOT") && self.is(i + 2, "EXISTS") {
            i += 3;
        }
        // `PACKAGE BODY p`, `TYPE BODY t` (Oracle) define what the specification declared;
        // `DATABASE LINK l` names a link.
        let qualifier = match object {
            Object::Package | Object::Type if self.is(i, "BODY") => Some("BODY"),
            Object::Database if self.is(i, "LINK") => Some("LINK"),
            _ => None,
        };
        if qualifier.is_some() {
            i += 1;
        }
        let create = self.tok(0)?;
        let line = index.line_of(create.start);
        let end_line = index.line_of(statement.last_byte.max(create.start));
        let name_at = i;
        let (name, after) = if object == Object::Index && self.is(i, "ON") {
            let at = if self.is(i + 1, "ONLY") { i + 2 } else { i + 1 };
            let (table, after) = self.name(at)?;
            (format!("on {table}"), after)
        } else if object == Object::Schema && self.is(i, "AUTHORIZATION") {
            self.name(i + 1)?
        } else {
            self.name(i)?
        };
        if name.is_empty() {
            return None;
        }
        let mut children = Vec::new();
        let body = match object {
            Object::Table => {
                let (sig, columns) = self.table(name_at, after, index);
                children = columns;
                sig
            }
            Object::View => self.until(name_at, &["AS", "WITH"]),
            Object::Index => self.index(name_at),
            Object::Function | Object::Procedure | Object::Aggregate => self.routine(name_at),
            Object::Trigger => self.until(name_at, TRIGGER_STOP),
            Object::Package => {
                children = self.unit_members(name_at, index);
                self.until(name_at, &["IS", "AS"])
            }
            Object::Type if qualifier.is_some() => {
                children = self.unit_members(name_at, index);
                self.until(name_at, &["IS", "AS"])
            }
            Object::Type
            | Object::Domain
            | Object::Sequence
            | Object::Schema
            | Object::Database => self.joined(name_at, self.tokens.len()),
        };
        let mut sig = shown.join(" ");
        if let Some(word) = qualifier {
            if !sig.is_empty() {
                sig.push(' ');
            }
            sig.push_str(word);
        }
        if !sig.is_empty() {
            sig.push(' ');
        }
        sig.push_str(&body);
        Some(
            Entry::new(object.kind(), name, line, end_line)
                .with_signature(owned_signature(sig))
                .with_children(children),
        )
    }

    /// What the statement creates, after `CREATE [OR REPLACE]` and its modifiers: the object,
    /// the modifiers a signature shows (`TEMPORARY`, `UNIQUE`, …) and the index after the
    /// object's keyword. `None` for anything not outlined (`CREATE EVENT` without `TRIGGER`,
    /// an unknown word).
    fn object(&self) -> Option<(Object, Vec<String>, usize)> {
        let mut i = 1;
        if self.is(i, "OR") && self.is_any(i + 1, &["REPLACE", "ALTER"]) {
            i += 2;
        }
        let mut shown: Vec<String> = Vec::new();
        // A head is a few words; a long run of modifiers is not one.
        for _ in 0..16 {
            let word = self.word(i)?;
            if self.is(i, "EVENT") && !self.is(i + 1, "TRIGGER") {
                return None;
            }
            if self.is(i, "MATERIALIZED") && !self.is(i + 1, "VIEW") {
                return None;
            }
            if let Some(object) = Object::from_word(word) {
                return Some((object, shown, i + 1));
            }
            if self.is_any(i, MODIFIERS) {
                if self.is_any(i, SHOWN_MODIFIERS) {
                    shown.push(word.to_ascii_uppercase());
                }
                i += 1;
            } else if self.is_any(i, &["DEFINER", "ALGORITHM"]) {
                // `DEFINER = user@host`, `ALGORITHM = MERGE`: skip to the next known word.
                i += 1;
                let limit = i + 8;
                while i < limit
                    && !self
                        .word(i)
                        .is_some_and(|w| Object::from_word(w).is_some() || is_modifier_like(w))
                {
                    i += 1;
                }
            } else if self.is(i, "SQL") && self.is(i + 1, "SECURITY") {
                i += 3;
            } else {
                return None;
            }
        }
        None
    }

    /// Head tokens from `from` up to the first of `stop` outside brackets.
    fn until(&self, from: usize, stop: &[&str]) -> String {
        let mut i = from;
        while i < self.tokens.len() {
            if self.is_punct(i, b'(') {
                i = self.skip_group(i);
                continue;
            }
            if i > from && self.is_any(i, stop) {
                break;
            }
            i += 1;
        }
        self.joined(from, i)
    }

    /// `name(params) RETURNS type`: up to the body or the first routine option.
    fn routine(&self, from: usize) -> String {
        let mut i = from;
        while let Some(token) = self.tok(i) {
            match token.kind {
                Tok::Punct(b'(') => {
                    i = self.skip_group(i);
                    continue;
                }
                Tok::Word if i > from => {
                    if self.is(i, "RETURNS") && self.is(i + 1, "NULL") {
                        break;
                    }
                    if self.is_any(i, ROUTINE_STOP) {
                        break;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        self.joined(from, i)
    }

    /// `name ON table USING method (columns)`.
    fn index(&self, from: usize) -> String {
        let mut i = from;
        let mut seen_on = false;
        while let Some(token) = self.tok(i) {
            if self.is(i, "ON") {
                seen_on = true;
            }
            if token.kind == Tok::Punct(b'(') {
                i = self.skip_group(i);
                if seen_on {
                    break;
                }
                continue;
            }
            i += 1;
        }
        self.joined(from, i)
    }
}

fn is_modifier_like(word: &str) -> bool {
    MODIFIERS.iter().any(|m| m.eq_ignore_ascii_case(word))
        || ["SQL", "ALGORITHM", "DEFINER"]
            .iter()
            .any(|m| m.eq_ignore_ascii_case(word))
}

/// `"My ""T"""` -> `My "T"`; `` `t` `` -> `t`.
fn unquote(quoted: &str) -> String {
    let Some(quote) = quoted.chars().next() else {
        return String::new();
    };
    let inner = quoted
        .strip_prefix(quote)
        .map(|s| s.strip_suffix(quote).unwrap_or(s))
        .unwrap_or(quoted);
    let doubled: String = [quote, quote].iter().collect();
    inner.replace(&doubled, &quote.to_string())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
