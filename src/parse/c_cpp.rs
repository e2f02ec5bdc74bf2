//! C and C++ outline scanner (one scanner for both: C++ constructs appear in `.h` files).
//!
//! Three passes: [`lex::mask`] blanks comments and literals (`respell` turns digraphs and
//! line splices into the usual tokens); `pre` records `#define`s, blanks
//! directive lines and drops `#if` branches that would duplicate a declaration head; then a
//! scope scanner walks file, namespace and class bodies statement by statement, classifying
//! the head before each `{` (`head`) and skipping every other brace group whole (function
//! bodies, initializers, enum bodies), so nothing inside a body is ever mistaken for a
//! declaration.

mod head;
mod members;
mod pre;
mod respell;
mod text;
mod tokens;
mod typedefs;

use crate::lang::Language;
use crate::outline::{Entry, Kind};
use crate::parse::lex::{self, find_lane, splat, zero_lanes, LexSpec};
use crate::parse::LineCursor;
use head::Head;
use tokens::{Ctx, Tk, Tok};

pub(crate) const SPEC: LexSpec = LexSpec {
    cpp_raw_strings: true,
    digit_separators: true,
    ..LexSpec::C_LIKE
};

/// Scopes deeper than this are not read (a stack guard: each level is a recursion); the entry
/// whose body is skipped is marked [`Entry::cut_by_nesting`].
const MAX_DEPTH: usize = 64;
/// Brace groups one statement may hold before its head is given up (see [`Scanner::scope`]).
const MAX_GROUPS_IN_HEAD: usize = 16;
/// Statements remembered for K&R definitions (`int f(a) int a; {`).
const KR_STATEMENTS: usize = 24;

pub fn parse(text: &str, _language: Language) -> Vec<Entry> {
    let lines = LineCursor::new(text);
    let mut masked = lex::mask_bytes(text, &SPEC);
    respell::respell(&mut masked);
    // The pass has its own cursor: it goes down the file once before the scan starts over.
    let pre = pre::preprocess(text, masked, &LineCursor::new(text));
    let code = pre.code;
    let ctx = Ctx::new(&code);
    let scanner = Scanner {
        src: text.as_bytes(),
        ctx,
        lines,
        cut_below: std::cell::Cell::new(false),
        class_name: std::cell::Cell::new(None),
    };
    let mut entries = scanner.scope(0, code.len(), Scope::File, 0);
    insert_by_range(&mut entries, pre.macros);
    entries
}

/// Puts every entry of `items` into the innermost entry of `entries` whose range holds it.
fn insert_by_range(entries: &mut Vec<Entry>, items: Vec<Entry>) {
    if items.is_empty() {
        return;
    }
    entries.sort_by_key(|e| (e.line, std::cmp::Reverse(e.end_line)));
    let mut buckets: Vec<Vec<Entry>> = Vec::new();
    buckets.resize_with(entries.len(), Vec::new);
    let mut here = Vec::new();
    for item in items {
        // Siblings do not overlap: only the last one starting before `item` can hold it.
        let holder = entries
            .partition_point(|e| e.line < item.line)
            .checked_sub(1)
            .filter(|&i| entries.get(i).is_some_and(|e| item.end_line <= e.end_line));
        match holder.and_then(|i| buckets.get_mut(i)) {
            Some(bucket) => bucket.push(item),
            None => here.push(item),
        }
    }
    for (entry, bucket) in entries.iter_mut().zip(buckets) {
        insert_by_range(&mut entry.children, bucket);
    }
    entries.extend(here);
}

/// `0x80` in the lanes of `word` holding a byte the scope scan acts on: a bracket (`()[]{}`,
/// see `tokens`), `;` or `:` (which differ in bit 0).
fn scope_lanes(word: u64) -> u64 {
    let folded = word | splat(0x20);
    zero_lanes(folded ^ splat(b'{'))
        | zero_lanes(folded ^ splat(b'}'))
        | zero_lanes((word & splat(0xfe)) ^ splat(b'('))
        | zero_lanes((word & splat(0xfe)) ^ splat(b':'))
}

/// A scope without a name of its own, whose entries belong to the enclosing one.
fn transparent(kids: Vec<Entry>, cut: bool) -> Entry {
    Entry::new(Kind::Namespace, "", 1, 1)
        .with_children(kids)
        .cut_by_nesting(cut)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// File, namespace or `extern "C"` body.
    File,
    /// class/struct/union body.
    Class,
}

struct Scanner<'a> {
    src: &'a [u8],
    ctx: Ctx<'a>,
    /// Lines are asked for in order, near where the scan is: a cursor, not a table.
    lines: LineCursor<'a>,
    /// Set when a transparent scope (`extern "C"`, an anonymous namespace or type) was not read
    /// for the nesting limit: the named entry around it is then marked, see [`Scanner::body`].
    cut_below: std::cell::Cell<bool>,
    /// The name of the class whose body is being read (its constructors have no return type).
    class_name: std::cell::Cell<Option<(usize, usize)>>,
}

impl Scanner<'_> {
    fn line(&self, offset: usize) -> usize {
        self.lines.line_of(offset)
    }

    /// Entries declared in `start..end` (a scope body without its braces).
    fn scope(&self, start: usize, end: usize, scope: Scope, depth: usize) -> Vec<Entry> {
        let outer = self.ctx.enter_scope(start, end);
        let entries = self.scan_scope(start, end, scope, depth);
        self.ctx.leave_scope(outer);
        entries
    }

    /// [`Scanner::scope`] with the scope's brackets paired.
    fn scan_scope(&self, start: usize, end: usize, scope: Scope, depth: usize) -> Vec<Entry> {
        let code = self.ctx.code;
        let end = end.min(code.len());
        let mut out = Vec::new();
        let mut head = start;
        let mut statements: Vec<(usize, usize)> = Vec::new();
        // Brace groups kept inside the current statement (`= {…}`, `x{1}` initializers); past
        // a few the statement is data, and re-reading its head at every `{` would be quadratic.
        let mut groups_in_head = 0usize;
        let mut i = start;
        while i < end {
            // Only `;{([}:` matter here; blanked comments and directives are most of the rest.
            i = code
                .get(i..end)
                .and_then(|rest| find_lane(rest, scope_lanes))
                .map_or(end, |n| i + n);
            if i >= end {
                break;
            }
            match code[i] {
                b';' => {
                    self.statement(head, i, &mut out);
                    if scope == Scope::Class {
                        self.member_declaration(head, i, &mut out);
                    }
                    if statements.len() >= KR_STATEMENTS {
                        statements.remove(0);
                    }
                    statements.push((head, i));
                    head = i + 1;
                    groups_in_head = 0;
                }
                b'{' => {
                    let close = self.ctx.group_close(i, end);
                    let limit = close.unwrap_or(end);
                    let next = close.map_or(end, |c| c + 1);
                    if let Some(entry) = self.brace(head, i, limit, scope, depth, &statements) {
                        let is_function = matches!(entry.kind, Kind::Function | Kind::Method);
                        let resets = is_function || entry.kind == Kind::Namespace;
                        if entry.name().is_empty() {
                            // Transparent: `extern "C"`, anonymous namespaces and types.
                            if entry.truncated.is_some() {
                                self.cut_below.set(true);
                            }
                            out.extend(entry.children);
                        } else {
                            out.push(entry);
                        }
                        if resets {
                            head = next;
                            statements.clear();
                            groups_in_head = 0;
                        }
                    }
                    if head < next {
                        groups_in_head += 1;
                        if groups_in_head > MAX_GROUPS_IN_HEAD {
                            head = next;
                            groups_in_head = 0;
                        }
                    }
                    i = next;
                    continue;
                }
                b'(' | b'[' => {
                    if let Some(c) = self.ctx.group_close(i, end) {
                        i = c + 1;
                        continue;
                    }
                }
                b'}' => {
                    head = i + 1;
                    statements.clear();
                    groups_in_head = 0;
                }
                b':' if scope == Scope::Class
                    && code.get(i + 1) != Some(&b':')
                    && i > 0
                    && code.get(i - 1) != Some(&b':')
                    && self.access_label_before(head, i) =>
                {
                    head = i + 1;
                }
                _ => {}
            }
            i += 1;
        }
        out
    }

    /// The entries of the body between `open` and `close` of a scope at `depth`, and whether
    /// the nesting limit left part of it unread (this body, or a transparent scope inside it).
    fn body(&self, open: usize, close: usize, scope: Scope, depth: usize) -> (Vec<Entry>, bool) {
        if depth >= MAX_DEPTH {
            let inside = self.ctx.code.get(open + 1..close).unwrap_or(&[]);
            return (Vec::new(), inside.iter().any(|b| !b.is_ascii_whitespace()));
        }
        let outer = self.cut_below.replace(false);
        let kids = self.scope(open + 1, close, scope, depth + 1);
        (kids, self.cut_below.replace(outer))
    }

    /// `public:`, `private:`, `protected:`, Qt's `signals:` / `public slots:`.
    fn access_label_before(&self, head: usize, colon: usize) -> bool {
        let code = self.ctx.code;
        let mut e = colon;
        while e > head && code.get(e - 1).is_some_and(u8::is_ascii_whitespace) {
            e -= 1;
        }
        let mut s = e;
        while s > head && code.get(s - 1).is_some_and(|b| tokens::is_ident_byte(*b)) {
            s -= 1;
        }
        matches!(
            code.get(s..e).unwrap_or(b""),
            b"public"
                | b"private"
                | b"protected"
                | b"signals"
                | b"slots"
                | b"Q_SIGNALS"
                | b"Q_SLOTS"
        )
    }

    fn head_tokens(&self, start: usize, end: usize) -> Vec<Tok> {
        let toks = self.ctx.tokenize(start, end);
        self.ctx.strip_attributes(toks)
    }

    /// Handles the `{` at `open` whose body ends at `close`; `Some` with an empty name means a
    /// transparent scope whose children belong to the enclosing one.
    fn brace(
        &self,
        head: usize,
        open: usize,
        close: usize,
        scope: Scope,
        depth: usize,
        statements: &[(usize, usize)],
    ) -> Option<Entry> {
        let toks = self.head_tokens(head, open);
        if toks.is_empty() {
            if scope == Scope::File {
                return self.knr_function(statements, close);
            }
            return None;
        }
        let (toks, lead) = self.body_head(toks)?;
        // Lines are asked for in source order (start, what the body holds, end): the cursor
        // then only moves on.
        match self.ctx.classify(&toks, lead, scope == Scope::Class) {
            Head::Namespace { name, start } => {
                let line = self.line(start);
                let (kids, cut) = self.body(open, close, Scope::File, depth);
                let end_line = self.end_line(close);
                match name {
                    Some((s, e)) => self.namespaces(s, e, line, end_line, kids, cut),
                    None => Some(transparent(kids, cut)),
                }
            }
            Head::Extern => {
                let (kids, cut) = self.body(open, close, Scope::File, depth);
                Some(transparent(kids, cut))
            }
            Head::Type { kind, name, start } => {
                self.type_definition(kind, name, start, open, close, depth)
            }
            Head::Function {
                name,
                start,
                sig_end,
            } => {
                let from = name.first().map_or(0, |r| r.0);
                let to = name.last().map_or(0, |r| r.1);
                let name = self.name_text(from, to);
                let name = text::tidy_operator(name);
                let kind = if scope == Scope::Class {
                    Kind::Method
                } else {
                    Kind::Function
                };
                let sig = self.sig_text(start, sig_end, &[]);
                let line = self.line(start);
                Some(Entry::new(kind, name, line, self.end_line(close)).with_signature(sig))
            }
            Head::Other => None,
        }
    }

    /// The line of a body's closing brace at `close` (the last line when it is missing).
    fn end_line(&self, close: usize) -> usize {
        self.line(close.min(self.src.len().saturating_sub(1)))
    }

    /// The head of a `{` (its tokens, not empty, and where the declaration in them starts),
    /// or `None` when the `{` opens no body to outline: it initializes a member in a
    /// constructor's initializer list, or nothing follows a brace group already in the head.
    fn body_head(&self, mut toks: Vec<Tok>) -> Option<(Vec<Tok>, usize)> {
        let lead = self.ctx.lead(&toks);
        let rest = toks.get(lead..).unwrap_or(&[]);
        if let Some(colon) = self.initializer_colon(rest) {
            // `A() : x{1}, y(2) {` — a `{` right after a member or base name initializes it;
            // the body `{` follows `)` or `}`.
            let member = rest.last().is_some_and(|t| {
                matches!(t.kind, Tk::Ident | Tk::Angle)
                    || (t.kind == Tk::Punct && self.ctx.text(t) == b"::")
            });
            if member && rest.len() > colon + 1 {
                return None;
            }
            return Some((toks, lead));
        }
        let Some(b) = toks.iter().rposition(|t| t.kind == Tk::Brace) else {
            return Some((toks, lead));
        };
        // A brace group already in the head ends whatever came before (an unrecognised
        // block).
        toks.drain(..=b);
        if toks.is_empty() {
            return None;
        }
        let lead = self.ctx.lead(&toks);
        Some((toks, lead))
    }

    /// In a head's tokens from its declaration on: the `:` that opens a constructor's
    /// initializer list (after the parameters, and not the `:` of a base-class list).
    fn initializer_colon(&self, rest: &[Tok]) -> Option<usize> {
        let p = rest.iter().position(|t| t.kind == Tk::Paren)?;
        let colon = rest
            .iter()
            .skip(p + 1)
            .position(|t| t.kind == Tk::Punct && self.ctx.text(t) == b":")
            .map(|n| p + 1 + n)?;
        let typeish = rest.get(..colon)?.iter().any(|t| {
            t.kind == Tk::Brace
                || (t.kind == Tk::Ident
                    && matches!(self.ctx.text(t), b"class" | b"struct" | b"union" | b"enum"))
        });
        (!typeish).then_some(colon)
    }

    /// `namespace a::b {` named at `s..e`: `a` holding `b`, as the compiler sees it, with the
    /// body's entries `kids` in the innermost.
    fn namespaces(
        &self,
        s: usize,
        e: usize,
        line: usize,
        end_line: usize,
        kids: Vec<Entry>,
        cut: bool,
    ) -> Option<Entry> {
        let full = self.name_text(s, e);
        let mut entry: Option<Entry> = None;
        let mut kids = Some(kids);
        for part in full.rsplit("::").filter(|p| !p.is_empty()) {
            let innermost = entry.is_none();
            let inner = entry
                .take()
                .map_or_else(|| kids.take().unwrap_or_default(), |e| vec![e]);
            entry = Some(
                Entry::new(Kind::Namespace, part, line, end_line)
                    .with_signature(part)
                    .with_children(inner)
                    .cut_by_nesting(innermost && cut),
            );
        }
        entry
    }

    /// A class, struct, union or enum body at `open..close`, its head naming it at `name`
    /// (anonymous without one: then its members belong to the enclosing scope).
    fn type_definition(
        &self,
        kind: Kind,
        name: Option<(usize, usize)>,
        start: usize,
        open: usize,
        close: usize,
        depth: usize,
    ) -> Option<Entry> {
        let line = name.map(|_| self.line(start));
        let (kids, cut) = if kind == Kind::Enum {
            (Vec::new(), false)
        } else {
            let outer = self.class_name.replace(name);
            let body = self.body(open, close, Scope::Class, depth);
            self.class_name.set(outer);
            body
        };
        match name.zip(line) {
            Some(((s, e), line)) => {
                let name = self.name_text(s, e);
                let sig = self.sig_text(s, open, &[]);
                Some(
                    Entry::new(kind, name, line, self.end_line(close))
                        .with_signature(sig)
                        .with_children(kids)
                        .cut_by_nesting(cut),
                )
            }
            None if kids.is_empty() && !cut => None,
            None => Some(transparent(kids, cut)),
        }
    }

    /// A K&R definition: `int f(a, b) int a; char *b; {` — the head before `{` is empty and
    /// the statements before it are the parameter declarations.
    fn knr_function(&self, statements: &[(usize, usize)], close: usize) -> Option<Entry> {
        for (back, &(s, e)) in statements.iter().rev().enumerate() {
            let toks = self.head_tokens(s, e);
            if toks.is_empty() {
                return None;
            }
            if let Some(p) = toks.iter().position(|t| t.kind == Tk::Paren) {
                let name_tok = p.checked_sub(1).and_then(|n| toks.get(n))?;
                if name_tok.kind != Tk::Ident || !self.ident_list(toks.get(p)?) {
                    // A parameter declaration may hold parentheses: `int (*cb)();`.
                    if back + 1 < statements.len() && self.simple_declaration(&toks) {
                        continue;
                    }
                    return None;
                }
                let lead = self.ctx.lead(&toks);
                let start = toks.get(lead)?.start;
                let name = self.name_text(name_tok.start, name_tok.end);
                let sig = self.sig_text(start, toks.get(p)?.end, &[]);
                let line = self.line(start);
                let end_line = self.line(close.min(self.src.len().saturating_sub(1)));
                return Some(Entry::new(Kind::Function, name, line, end_line).with_signature(sig));
            }
            if !self.simple_declaration(&toks) {
                return None;
            }
        }
        None
    }

    fn ident_list(&self, group: &Tok) -> bool {
        let inner = self
            .ctx
            .tokenize(group.start + 1, group.end.saturating_sub(1));
        !inner.is_empty()
            && inner.iter().enumerate().all(|(i, t)| {
                if i % 2 == 0 {
                    t.kind == Tk::Ident && self.ctx.text(t) != b"void"
                } else {
                    self.ctx.text(t) == b","
                }
            })
    }

    fn simple_declaration(&self, toks: &[Tok]) -> bool {
        toks.iter().all(|t| match t.kind {
            Tk::Ident | Tk::Bracket | Tk::Paren => true,
            Tk::Punct => matches!(self.ctx.text(t), b"*" | b"," | b"::"),
            _ => false,
        })
    }
}

#[cfg(test)]
mod tests;
