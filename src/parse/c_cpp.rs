//! C and C++ outline scanner (one scanner for both: C++ constructs appear in `.h` files).
//!
//! Three passes: [`lex::mask`] blanks comments and literals; [`pre`] records `#define`s, blanks
//! directive lines and drops `#if` branches that would duplicate a declaration head; then a
//! scope scanner walks file, namespace and class bodies statement by statement, classifying
//! the head before each `{` ([`head`]) and skipping every other brace group whole (function
//! bodies, initializers, enum bodies), so nothing inside a body is ever mistaken for a
//! declaration.

mod head;
mod pre;

use crate::lang::Language;
use crate::outline::{Entry, Kind};
use crate::parse::lex::{self, Backtick, LexSpec};
use crate::parse::{signature, LineIndex};
use head::{is_all_caps, is_type_keyword, Ctx, Head, Pairs, Tk, Tok};

const SPEC: LexSpec = LexSpec {
    line_comments: &["//"],
    block_comment: Some(("/*", "*/")),
    nested_comments: false,
    quotes: b"\"'",
    backslash_escapes: true,
    multiline_strings: false,
    rust_chars: false,
    rust_raw_strings: false,
    cpp_raw_strings: true,
    digit_separators: true,
    triple_quotes: false,
    backtick: Backtick::None,
    js_regex: false,
    dollar_quotes: false,
};

/// Nesting deeper than this is skipped rather than recursed into.
const MAX_DEPTH: usize = 64;
/// Brace groups one statement may hold before its head is given up (see [`Scanner::scope`]).
const MAX_GROUPS_IN_HEAD: usize = 8;
/// Statements remembered for K&R definitions (`int f(a) int a; {`).
const KR_STATEMENTS: usize = 24;

pub fn parse(text: &str, _language: Language) -> Vec<Entry> {
    let masked = lex::mask(text, &SPEC);
    let pre = pre::preprocess(text, &masked);
    let code = pre.code;
    let [braces, parens, brackets] = Pairs::all(&code);
    let ctx = Ctx {
        braces,
        parens,
        brackets,
        code: &code,
    };
    let scanner = Scanner {
        src: text.as_bytes(),
        ctx,
        lines: LineIndex::new(text),
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
    lines: LineIndex,
}

impl Scanner<'_> {
    fn line(&self, offset: usize) -> usize {
        self.lines.line_of(offset)
    }

    /// Entries declared in `start..end` (a scope body without its braces).
    fn scope(&self, start: usize, end: usize, scope: Scope, depth: usize) -> Vec<Entry> {
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
            match code[i] {
                b';' => {
                    self.statement(head, i, &mut out);
                    if statements.len() >= KR_STATEMENTS {
                        statements.remove(0);
                    }
                    statements.push((head, i));
                    head = i + 1;
                    groups_in_head = 0;
                }
                b'{' => {
                    let close = self.ctx.braces.close_of(i).filter(|c| *c < end);
                    let limit = close.unwrap_or(end);
                    let next = close.map_or(end, |c| c + 1);
                    if depth >= MAX_DEPTH {
                        i = next;
                        continue;
                    }
                    if let Some(entry) = self.brace(head, i, limit, scope, depth, &statements) {
                        let is_function = matches!(entry.kind, Kind::Function | Kind::Method);
                        let resets = is_function || entry.kind == Kind::Namespace;
                        if entry.name.is_empty() {
                            // Transparent: `extern "C"`, anonymous namespaces and types.
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
                b'(' => {
                    if let Some(c) = self.ctx.parens.close_of(i).filter(|c| *c < end) {
                        i = c + 1;
                        continue;
                    }
                }
                b'[' => {
                    if let Some(c) = self.ctx.brackets.close_of(i).filter(|c| *c < end) {
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

    /// `public:`, `private:`, `protected:`, Qt's `signals:` / `public slots:`.
    fn access_label_before(&self, head: usize, colon: usize) -> bool {
        let code = self.ctx.code;
        let mut e = colon;
        while e > head && code.get(e - 1).is_some_and(u8::is_ascii_whitespace) {
            e -= 1;
        }
        let mut s = e;
        while s > head && code.get(s - 1).is_some_and(|b| head::is_ident_byte(*b)) {
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
        let mut toks = self.head_tokens(head, open);
        let line_of = |o: usize| self.line(o);
        let mut lead = self.ctx.lead(&toks, &line_of);
        // Constructor initializer list: `A() : x{1}, y(2) {` — a `{` right after a member or
        // base name initializes it; the body `{` follows `)` or `}`.
        let rest = toks.get(lead..).unwrap_or(&[]);
        let init_colon = rest.iter().position(|t| t.kind == Tk::Paren).and_then(|p| {
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
        });
        if let Some(colon) = init_colon {
            let member = rest.last().is_some_and(|t| {
                matches!(t.kind, Tk::Ident | Tk::Angle)
                    || (t.kind == Tk::Punct && self.ctx.text(t) == b"::")
            });
            if member && rest.len() > colon + 1 {
                return None;
            }
        } else if let Some(b) = toks.iter().rposition(|t| t.kind == Tk::Brace) {
            // A brace group already in the head ends whatever came before (an unrecognised
            // block).
            toks.drain(..=b);
            if toks.is_empty() {
                return None;
            }
            lead = self.ctx.lead(&toks, &line_of);
        }
        if toks.is_empty() {
            if scope == Scope::File {
                return self.knr_function(statements, close);
            }
            return None;
        }
        let end_line = self.line(close.min(self.src.len().saturating_sub(1)));
        match self.ctx.classify(&toks, lead, scope == Scope::Class) {
            Head::Namespace { name, start } => {
                let kids = self.scope(open + 1, close, Scope::File, depth + 1);
                match name {
                    Some((s, e)) => {
                        let name = compact(self.src.get(s..e).unwrap_or(b""));
                        Some(
                            Entry::new(Kind::Namespace, name.clone(), self.line(start), end_line)
                                .with_signature(name)
                                .with_children(kids),
                        )
                    }
                    None => Some(Entry::new(Kind::Namespace, "", 1, 1).with_children(kids)),
                }
            }
            Head::Extern => {
                let kids = self.scope(open + 1, close, Scope::File, depth + 1);
                Some(Entry::new(Kind::Namespace, "", 1, 1).with_children(kids))
            }
            Head::Type { kind, name, start } => {
                let kids = if kind == Kind::Enum {
                    Vec::new()
                } else {
                    self.scope(open + 1, close, Scope::Class, depth + 1)
                };
                match name {
                    Some((s, e)) => {
                        let name = compact(self.src.get(s..e).unwrap_or(b""));
                        let sig = self.sig_text(s, open, &[]);
                        Some(
                            Entry::new(kind, name, self.line(start), end_line)
                                .with_signature(sig)
                                .with_children(kids),
                        )
                    }
                    // Anonymous: its members belong to the enclosing scope.
                    None if kids.is_empty() => None,
                    None => Some(Entry::new(kind, "", 1, 1).with_children(kids)),
                }
            }
            Head::Function {
                name,
                start,
                sig_end,
            } => {
                let from = name.first().map_or(0, |r| r.0);
                let to = name.last().map_or(0, |r| r.1);
                let name = compact(self.src.get(from..to).unwrap_or(b""));
                let name = tidy_operator(&name);
                let kind = if scope == Scope::Class {
                    Kind::Method
                } else {
                    Kind::Function
                };
                let sig = self.sig_text(start, sig_end, &[]);
                Some(Entry::new(kind, name, self.line(start), end_line).with_signature(sig))
            }
            Head::Other => None,
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
                let line_of = |o: usize| self.line(o);
                let lead = self.ctx.lead(&toks, &line_of);
                let start = toks.get(lead)?.start;
                let name = compact(self.src.get(name_tok.start..name_tok.end)?);
                let sig = self.sig_text(start, toks.get(p)?.end, &[]);
                let end_line = self.line(close.min(self.src.len().saturating_sub(1)));
                return Some(
                    Entry::new(Kind::Function, name, self.line(start), end_line)
                        .with_signature(sig),
                );
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

    /// A statement ending at `;`: typedefs and `using X = …` aliases.
    fn statement(&self, head: usize, semi: usize, out: &mut Vec<Entry>) {
        let text = self.ctx.code.get(head..semi).unwrap_or(b"");
        if memchr::memmem::find(text, b"typedef").is_none()
            && memchr::memmem::find(text, b"using").is_none()
        {
            return;
        }
        let toks = self.head_tokens(head, semi);
        if toks.is_empty() {
            return;
        }
        let line_of = |o: usize| self.line(o);
        let lead = self.ctx.lead(&toks, &line_of);
        let Some(first) = toks.get(lead) else { return };
        let start = first.start;
        let i = self.ctx.skip_template(&toks, lead);
        let Some(t) = toks.get(i) else { return };
        let end_line = self.line(semi);
        if self.ctx.is_word(t, b"typedef") {
            let sig_start = toks.get(i + 1).map_or(semi, |t| t.start);
            let braces: Vec<(usize, usize)> = toks
                .iter()
                .filter(|t| t.kind == Tk::Brace)
                .map(|t| (t.start, t.end))
                .collect();
            let sig = self.sig_text(sig_start, semi, &braces);
            let rest = toks.get(i + 1..).unwrap_or(&[]);
            for piece in rest.split(|t| t.kind == Tk::Punct && self.ctx.text(t) == b",") {
                if let Some((s, e)) = self.declarator_name(piece) {
                    let name = compact(self.src.get(s..e).unwrap_or(b""));
                    out.push(
                        Entry::new(Kind::Typedef, name, self.line(start), end_line)
                            .with_signature(sig.clone()),
                    );
                }
            }
        } else if self.ctx.is_word(t, b"using") {
            let Some(name) = toks.get(i + 1) else { return };
            let eq = toks
                .iter()
                .skip(i + 2)
                .position(|t| t.kind == Tk::Punct && self.ctx.text(t) == b"=");
            if name.kind == Tk::Ident && eq == Some(0) {
                let sig = self.sig_text(name.start, semi, &[]);
                let name = compact(self.src.get(name.start..name.end).unwrap_or(b""));
                out.push(
                    Entry::new(Kind::Typedef, name, self.line(start), end_line).with_signature(sig),
                );
            }
        }
    }

    /// The name a typedef declarator introduces: `T`, `*PT`, `(*fp)(int)`, `arr[4]`, `fn(int)`.
    fn declarator_name(&self, piece: &[Tok]) -> Option<(usize, usize)> {
        for t in piece {
            if t.kind == Tk::Paren && self.ctx.is_pointer_declarator(t) {
                let inner = self.ctx.tokenize(t.start + 1, t.end.saturating_sub(1));
                return self.declarator_name(&inner);
            }
        }
        let mut last: Option<usize> = None;
        for (i, t) in piece.iter().enumerate() {
            if t.kind == Tk::Paren && i > 0 && last.is_some() {
                break;
            }
            if t.kind == Tk::Ident && !is_type_keyword(self.ctx.text(t)) {
                last = Some(i);
            }
        }
        let mut at = last?;
        let tok = piece.get(at)?;
        // `typedef PNG_CALLBACK(void, *png_rw_ptr, (…))`: the name is the pointer inside.
        if let Some(group) = piece.get(at + 1).filter(|g| g.kind == Tk::Paren) {
            let inner = self
                .ctx
                .tokenize(group.start + 1, group.end.saturating_sub(1));
            if let Some(w) = inner.windows(2).find(|w| {
                w[0].kind == Tk::Punct && self.ctx.text(&w[0]) == b"*" && w[1].kind == Tk::Ident
            }) {
                return Some((w[1].start, w[1].end));
            }
        }
        // `*handle_t DEPRECATED_ATTR`: a trailing attribute macro after the real name.
        if is_all_caps(self.ctx.text(tok)) && at >= 2 {
            let prev = piece.get(at - 1)?;
            let before = piece.get(at - 2)?;
            let typed = (before.kind == Tk::Punct && matches!(self.ctx.text(before), b"*" | b"&"))
                || (before.kind == Tk::Ident
                    && is_type_keyword(self.ctx.text(before))
                    && !matches!(
                        self.ctx.text(before),
                        b"struct" | b"union" | b"enum" | b"class"
                    ));
            if prev.kind == Tk::Ident && typed && !is_type_keyword(self.ctx.text(prev)) {
                at -= 1;
            }
        }
        piece.get(at).map(|t| (t.start, t.end))
    }

    /// Original text of `start..end` on one line, comments removed, brace groups in `skip`
    /// shown as `{…}`.
    fn sig_text(&self, start: usize, end: usize, skip: &[(usize, usize)]) -> String {
        let code = self.ctx.code;
        let end = end.min(self.src.len()).min(code.len());
        let mut out = Vec::with_capacity(end.saturating_sub(start));
        let mut quote: Option<u8> = None;
        let mut i = start;
        while i < end {
            if let Some(&(_, e)) = skip.iter().find(|r| r.0 == i) {
                out.extend_from_slice("{…}".as_bytes());
                i = e.max(i + 1);
                continue;
            }
            let c = code[i];
            match quote {
                Some(q) => {
                    out.push(self.src[i]);
                    if c == q {
                        quote = None;
                    }
                }
                None => {
                    if c == b'"' || c == b'\'' {
                        quote = Some(c);
                    }
                    out.push(if c == b' ' { b' ' } else { self.src[i] });
                }
            }
            i += 1;
        }
        signature(&String::from_utf8_lossy(&out))
    }
}

/// Name text without whitespace, except one space between two word characters.
fn compact(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for ch in text.chars() {
        if ch.is_whitespace() {
            pending_space = true;
            continue;
        }
        if pending_space {
            let prev_word = out
                .chars()
                .last()
                .is_some_and(|c| c.is_alphanumeric() || c == '_');
            if prev_word && (ch.is_alphanumeric() || ch == '_') {
                out.push(' ');
            }
            pending_space = false;
        }
        out.push(ch);
    }
    out
}

/// `operator <` pieces joined: `operator<`, `operator new[]`, `operator bool`.
fn tidy_operator(name: &str) -> String {
    let Some(at) = name.find("operator") else {
        return name.to_string();
    };
    let (before, after) = name.split_at(at + "operator".len());
    let rest = after.trim();
    let word = rest
        .chars()
        .next()
        .is_some_and(|c| c.is_alphanumeric() || c == '_');
    let mut sym = String::new();
    for part in rest.split(' ') {
        if part.is_empty() {
            continue;
        }
        let needs_space = sym
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
            && part
                .chars()
                .next()
                .is_some_and(|c| c.is_alphanumeric() || c == '_');
        if needs_space {
            sym.push(' ');
        }
        sym.push_str(part);
    }
    if word {
        format!("{before} {sym}")
    } else {
        format!("{before}{sym}")
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod dump {
    //! Development aid: `OUTLINE_DUMP_DIR=dir cargo test --lib dump_dir -- --ignored --nocapture`
    //! prints print-contract JSON Lines for the C/C++ files under `dir`.
    use super::*;
    use crate::parse::{outline_text, ParseOptions};

    fn walk(dir: &std::path::Path, files: &mut Vec<std::path::PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, files);
            } else {
                files.push(p);
            }
        }
    }

    fn node(e: &Entry) -> serde_json::Value {
        serde_json::json!({
            "kind": e.kind.as_str(), "name": e.name, "line": e.line, "end_line": e.end_line,
            "signature": e.signature,
            "children": e.children.iter().map(node).collect::<Vec<_>>(),
        })
    }

    #[test]
    #[ignore]
    fn dump_dir() {
        let Ok(dir) = std::env::var("OUTLINE_DUMP_DIR") else {
            return;
        };
        let mut files = Vec::new();
        walk(std::path::Path::new(&dir), &mut files);
        files.sort();
        let mut out = String::new();
        for f in files {
            let Some(lang) = crate::lang::detect(&f) else {
                continue;
            };
            if !matches!(lang, Language::C | Language::Cpp) {
                continue;
            }
            let bytes = std::fs::read(&f).unwrap();
            let text = String::from_utf8_lossy(&bytes);
            let o = outline_text(&text, ParseOptions::new(lang));
            let v = serde_json::json!({"path": f.to_string_lossy(), "entries": o.entries.iter().map(node).collect::<Vec<_>>()});
            out.push_str(&v.to_string());
            out.push('\n');
        }
        std::fs::write(std::env::var("OUTLINE_DUMP_OUT").unwrap(), out).unwrap();
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// `(depth, kind, name, line, end_line)` for every entry, depth first.
    fn flat(text: &str) -> Vec<(usize, &'static str, String, usize, usize)> {
        fn walk(
            entries: &[Entry],
            depth: usize,
            out: &mut Vec<(usize, &'static str, String, usize, usize)>,
        ) {
            let mut sorted: Vec<&Entry> = entries.iter().collect();
            sorted.sort_by_key(|e| (e.line, std::cmp::Reverse(e.end_line)));
            for e in sorted {
                out.push((depth, e.kind.as_str(), e.name.clone(), e.line, e.end_line));
                walk(&e.children, depth + 1, out);
            }
        }
        let mut out = Vec::new();
        walk(&parse(text, Language::Cpp), 0, &mut out);
        out
    }

    fn names(text: &str) -> Vec<(String, usize, usize)> {
        flat(text)
            .into_iter()
            .map(|(_, _, n, l, e)| (n, l, e))
            .collect()
    }

    fn e(name: &str, line: usize, end: usize) -> (String, usize, usize) {
        (name.to_string(), line, end)
    }

    #[test]
    fn c_functions_structs_typedefs_and_macros() {
        let src = "#include <stdio.h>\n\
#define MAX 10\n\
#define SQ(x) \\\n  ((x) * (x))\n\
struct point { int x, y; };\n\
typedef struct { int a; } pair_t;\n\
typedef struct node { struct node *next; } node_t, *node_p;\n\
typedef int (*cmp_fn)(const void *, const void *);\n\
typedef unsigned long ulong;\n\
struct point origin = { 0, 0 };\n\
struct point;\n\
static int\n\
add (int a, int b)\n\
{\n\
  if (a) { return a; }\n\
  return b;\n\
}\n";
        assert_eq!(
            names(src),
            vec![
                e("MAX", 2, 2),
                e("SQ", 3, 4),
                e("point", 5, 5),
                e("pair_t", 6, 6),
                e("node", 7, 7),
                e("node_t", 7, 7),
                e("node_p", 7, 7),
                e("cmp_fn", 8, 8),
                e("ulong", 9, 9),
                e("add", 12, 17),
            ]
        );
        let kinds: Vec<_> = flat(src).into_iter().map(|f| f.1).collect();
        assert_eq!(
            kinds,
            vec![
                "macro", "macro", "struct", "typedef", "struct", "typedef", "typedef", "typedef",
                "typedef", "function"
            ]
        );
    }

    #[test]
    fn preprocessor_alternative_heads_keep_one() {
        let src = "#ifdef WIDE\nint f(long a)\n#else\nint f(int a)\n#endif\n{\n  return a;\n}\n\
#if defined(_WIN32)\nstatic void g(void) {\n#else\nstatic void g(void) {\n#endif\n}\n\
#ifndef X\nint h(void) { return 1; }\n#else\nint h(void) { return 2; }\n#endif\n";
        let got = names(src);
        assert_eq!(got.iter().filter(|n| n.0 == "f").count(), 1, "{got:?}");
        assert!(got.contains(&e("f", 4, 8)), "{got:?}");
        assert!(got.contains(&e("g", 12, 14)), "{got:?}");
        assert!(
            got.contains(&e("h", 16, 16)) && got.contains(&e("h", 18, 18)),
            "{got:?}"
        );
    }

    #[test]
    fn if_zero_blocks_and_macros_in_every_branch() {
        let src = "#if 0\nint dead( { \n#define IN_DEAD 1\n#else\n#define LIVE 2\n#endif\nint ok(void) { return 0; }\n";
        assert_eq!(
            names(src),
            vec![e("IN_DEAD", 3, 3), e("LIVE", 5, 5), e("ok", 7, 7)]
        );
    }

    #[test]
    fn knr_and_attributes_and_function_pointers() {
        let src = "int\nold(a, b)\n  int a;\n  char *b;\n{\n  return a;\n}\n\
static inline PGDLLEXPORT int exported(void) { return 1; }\n\
__attribute__((noreturn)) void die(const char *msg) { for (;;) {} }\n\
void (*signal(int sig, void (*func)(int)))(int) {\n  return func;\n}\n\
int BZ_API(BZ2_bzRead) (int *bzerror) { return 0; }\n";
        assert_eq!(
            names(src),
            vec![
                e("old", 1, 7),
                e("exported", 8, 8),
                e("die", 9, 9),
                e("signal", 10, 12),
                e("BZ2_bzRead", 13, 13)
            ]
        );
    }

    #[test]
    fn cpp_classes_methods_and_operators() {
        let src = r#"namespace outer::inner {
template <typename T>
class [[nodiscard]] Box final : public Base<T> {
public:
    Box() : value_(1), other_{2} {}
    explicit Box(T v) noexcept : value_(v) { }
    ~Box() override = default;
    Box(const Box&) = delete;
    bool operator<(const Box& o) const { return value_ < o.value_; }
    T operator()(int x) const { return value_; }
    operator bool() const { return true; }
    auto get() const -> const T& { return value_; }
    enum class Mode : int { A, B };
    using value_type = T;
private:
    T value_;
    int other_;
};

template <typename T>
void Box<T>::set(T v) {
    auto f = [](int x) { return x; };
    value_ = v;
}
}  // namespace outer::inner
"#;
        assert_eq!(
            flat(src),
            vec![
                (0, "namespace", "outer::inner".to_string(), 1, 25),
                (1, "class", "Box".to_string(), 2, 18),
                (2, "method", "Box".to_string(), 5, 5),
                (2, "method", "Box".to_string(), 6, 6),
                (2, "method", "operator<".to_string(), 9, 9),
                (2, "method", "operator()".to_string(), 10, 10),
                (2, "method", "operator bool".to_string(), 11, 11),
                (2, "method", "get".to_string(), 12, 12),
                (2, "enum", "Mode".to_string(), 13, 13),
                (2, "typedef", "value_type".to_string(), 14, 14),
                (1, "function", "Box<T>::set".to_string(), 20, 24),
            ]
        );
    }

    #[test]
    fn traps_in_literals_comments_and_control_flow() {
        let src = "const char *s = \"int fake(void) {\";\n\
char c = '{';\n\
int big = 1'000'000;\n\
auto raw = R\"x(void nope() { )x\";\n\
/* int commented(void) { } */\n\
// void line_comment() {\n\
int real(int x) {\n\
  if (x) {\n\
    while (x--) { }\n\
  }\n\
  switch (x) { case 1: break; }\n\
  return '}';\n\
}\n";
        assert_eq!(names(src), vec![e("real", 7, 13)]);
    }

    #[test]
    fn extern_c_is_transparent_and_gtest_macros_are_functions() {
        let src = "#ifdef __cplusplus\nextern \"C\" {\n#endif\nint c_api(void) { return 0; }\n#ifdef __cplusplus\n}\n#endif\n\
TEST(Suite, Name) {\n  EXPECT_EQ(1, 1);\n}\n";
        assert_eq!(names(src), vec![e("c_api", 4, 4), e("TEST", 8, 10)]);
    }

    #[test]
    fn macro_lines_before_declarations_do_not_move_the_start() {
        let src = "NS_BEGIN(detail)\n\nclass Widget : public QObject {\n    Q_OBJECT\n    int count() const { return 1; }\npublic slots:\n    void reset() {}\n};\nNS_END(detail)\n";
        assert_eq!(
            names(src),
            vec![e("Widget", 3, 8), e("count", 5, 5), e("reset", 7, 7)]
        );
    }

    #[test]
    fn crlf_tabs_and_no_final_newline() {
        let src =
            "struct A {\r\n\tint x;\r\n};\r\n#define Z 1\r\nint\tf(void)\r\n{\r\n\treturn 0;\r\n}";
        assert_eq!(names(src), vec![e("A", 1, 3), e("Z", 4, 4), e("f", 5, 8)]);
        let got = parse(src, Language::C);
        let z = got.iter().find(|e| e.name == "Z").unwrap();
        assert_eq!(z.signature.as_deref(), Some("Z 1"));
    }

    #[test]
    fn signatures_drop_bodies_and_comments() {
        let src = "static int /* why */ add(int a,\n        int b) // sum\n{\n  return a + b;\n}\nclass K : public B { };\n";
        let got = parse(src, Language::Cpp);
        assert_eq!(
            got[0].signature.as_deref(),
            Some("static int add(int a, int b)")
        );
        assert_eq!(got[1].signature.as_deref(), Some("K : public B"));
    }

    #[test]
    fn empty_junk_and_unbalanced_input_never_panic() {
        for src in [
            "",
            "{",
            "}",
            "int f(",
            "class A {",
            "#define",
            "#if\n#else\n#elif\n#endif\n#endif",
            "template<",
            "operator",
            "int operator",
            "a::b::~",
            "typedef",
            "using X =",
            "\"unterminated",
            "R\"x(",
            "'",
            "\u{0}\u{1}\u{ff}",
            "struct { struct { struct {",
            "void f() { } } } } int g() {}",
            "(((((",
            ")))))",
            "int f() : {",
            "namespace {",
        ] {
            let _ = parse(src, Language::Cpp);
            let _ = parse(src, Language::C);
        }
        let deep = "namespace a {".repeat(5000);
        let _ = parse(&deep, Language::Cpp);
    }

    #[test]
    fn out_of_line_members_and_free_operators() {
        let src = "A::A(int x)\n    : x_(x), y_{2}, z_{}\n{\n}\n\
A::~A() {}\n\
A::operator int() const { return x_; }\n\
std::ostream &operator<<(std::ostream &os, const A &a) { return os; }\n\
template <typename T,\n          typename U>\nauto add(T t, U u) -> decltype(t + u) {\n  return t + u;\n}\n\
template <>\nvoid show<int>(int v) {}\n\
A &A::operator=(const A &) = default;\n\
auto lambda = [](int x) { return x * 2; };\n\
std::vector<std::pair<int, int>> pairs() { return {}; }\n\
namespace { int hidden() { return 0; } }\n\
namespace alias = std::chrono;\n\
union U { int i; float f; };\n\
enum Color { RED, GREEN };\n";
        assert_eq!(
            names(src),
            vec![
                e("A::A", 1, 4),
                e("A::~A", 5, 5),
                e("A::operator int", 6, 6),
                e("operator<<", 7, 7),
                e("add", 8, 12),
                e("show<int>", 13, 14),
                e("pairs", 17, 17),
                e("hidden", 18, 18),
                e("U", 20, 20),
                e("Color", 21, 21),
            ]
        );
    }

    #[test]
    fn gnu_style_and_prototypes() {
        let src = "static int\nfoo (void)\n{\n  return 0;\n}\n\nint bar (int);\nextern void baz(void);\nvoid\nqux (a)\n     int a;\n{\n}\n";
        assert_eq!(names(src), vec![e("foo", 1, 5), e("qux", 9, 13)]);
    }

    #[test]
    fn macro_wrapped_declarators_and_typedef_macros() {
        let src =
            "extern __inline int\n__NTH (opt_short (const struct opt *o))\n{\n  return 0;\n}\n\
inline int (index)() const { return 0; }\n\
typedef PNG_CALLBACK(void, *png_rw_ptr, (png_structp, size_t));\n\
typedef struct hd *hd_t ATTR_DEPRECATED;\n\
typedef struct _win_st WINDOW;\n\
typedef unsigned int UINT32;\n\
void print(const ::std::string &s, ostream *os) {}\n";
        assert_eq!(
            names(src),
            vec![
                e("opt_short", 1, 5),
                e("index", 6, 6),
                e("png_rw_ptr", 7, 7),
                e("hd_t", 8, 8),
                e("WINDOW", 9, 9),
                e("UINT32", 10, 10),
                e("print", 11, 11),
            ]
        );
    }

    #[test]
    fn unclosed_function_ends_at_file_end() {
        let got = names("int f(void) {\n  return 0;\n");
        assert_eq!(got, vec![e("f", 1, 2)]);
    }
}
