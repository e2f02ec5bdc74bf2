//! Rust outline scanner.
//!
//! A small recursive-descent walk over masked text (comments and string contents blanked):
//! item lists (the file, inline `mod {}` bodies, `extern {}` blocks) yield items; `impl` and
//! `trait` bodies yield their associated fns (as methods), consts and types. Function bodies,
//! macro invocations and const/static values are skipped as balanced groups, except that the
//! statics declared inside `thread_local!` and `lazy_static!` are entries.

use crate::outline::{Entry, Kind};
use crate::parse::cursor::{is_ident_byte, is_ident_start, Cursor, Nesting};
use crate::parse::lex::{self, LexSpec};
use crate::parse::signature;
use std::ops::ControlFlow;

pub(crate) const SPEC: LexSpec = LexSpec {
    nested_comments: true,
    multiline_strings: true,
    rust_chars: true,
    rust_raw_strings: true,
    ..LexSpec::C_LIKE
};

/// Outlines Rust source.
pub(crate) fn parse(text: &str) -> Vec<Entry> {
    let masked = lex::mask(text, &SPEC);
    let scanner = Scanner {
        cur: Cursor::new(text, &masked),
        nesting: Nesting::new(MAX_DEPTH),
    };
    scanner.items(0, scanner.m.len(), Ctx::Module)
}

/// What kind of item list is being walked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// The file or a `mod {}` body.
    Module,
    /// An `impl` or `trait` body: fns are methods.
    Assoc,
    /// An `extern "C" {}` block.
    Foreign,
}

struct Scanner<'a> {
    cur: Cursor<'a>,
    /// Item lists being walked, capped at [`MAX_DEPTH`].
    nesting: Nesting,
}

/// Deeper item lists (mods in fns in impls …) are not descended into: real code never nests
/// this far, and junk input must not overflow the stack. The entry whose body is skipped is
/// marked [`Entry::cut_by_nesting`].
const MAX_DEPTH: usize = 48;

impl<'a> std::ops::Deref for Scanner<'a> {
    type Target = Cursor<'a>;

    fn deref(&self) -> &Cursor<'a> {
        &self.cur
    }
}

impl<'a> Scanner<'a> {
    /// The word after `pos` (whitespace skipped).
    fn next_word(&self, pos: usize, end: usize) -> Option<&'a str> {
        self.word(self.skip_ws(pos, end), end).map(|w| w.0)
    }

    /// Scans a declaration head to its body `{` or its `;`, skipping `(…)` and `[…]` groups.
    /// Returns the position of that byte, or `end`.
    fn head_end(&self, mut pos: usize, end: usize) -> usize {
        while pos < end {
            match self.at(pos) {
                b'(' | b'[' => pos = self.skip_group(pos, end),
                b'{' | b';' => return pos,
                _ => pos += 1,
            }
        }
        end
    }

    /// Scans to the `;` ending a statement, skipping all bracket groups. Returns its position
    /// or `end`.
    fn semi_end(&self, mut pos: usize, end: usize) -> usize {
        while pos < end {
            match self.at(pos) {
                b'(' | b'[' | b'{' => pos = self.skip_group(pos, end),
                b';' => return pos,
                _ => pos += 1,
            }
        }
        end
    }

    fn items(&self, start: usize, end: usize, ctx: Ctx) -> Vec<Entry> {
        let region = self.m.get(start..end).unwrap_or(&[]);
        self.nesting
            .descend(region, || self.items_at_depth(start, end, ctx))
    }

    /// `entry` with the items of `start..end` as children, marked when the nesting limit left
    /// some of them unread (there or in an `extern {}` block inside).
    fn with_items(&self, entry: Entry, start: usize, end: usize, ctx: Ctx) -> Entry {
        self.nesting
            .with_children(entry, || self.items(start, end, ctx))
    }

    fn items_at_depth(&self, start: usize, end: usize, ctx: Ctx) -> Vec<Entry> {
        let mut out = Vec::new();
        let mut pos = start;
        while pos < end {
            pos = self.skip_ws(pos, end);
            if pos >= end {
                break;
            }
            let byte = self.at(pos);
            if byte == b'#' {
                let mut p = pos + 1;
                if self.at(p) == b'!' {
                    p += 1;
                }
                p = self.skip_ws(p, end);
                pos = if self.at(p) == b'[' {
                    self.skip_group(p, end)
                } else {
                    pos + 1
                };
            } else if is_ident_start(byte) {
                let word_end = self.ident(pos, end).map_or(pos + 1, |(_, e)| e);
                if self.inside_expression(pos, start) {
                    pos = word_end;
                    continue;
                }
                pos = self
                    .item(pos, end, ctx, &mut out)
                    .filter(|next| *next > pos)
                    .unwrap_or(word_end);
            } else if matches!(byte, b'{' | b'(' | b'[') {
                // A block or expression group: never read items out of it.
                pos = self.close(pos, end).map_or(pos + 1, |c| c + 1);
            } else {
                pos += 1;
            }
        }
        out
    }

    /// Whether the word at `pos` continues a type or expression rather than starting an item:
    /// `'static`, `*const T`, `&raw const x`, `x as *mut T`, `: impl Trait`, `= const { … }`.
    fn inside_expression(&self, pos: usize, region_start: usize) -> bool {
        let before = self.m.get(region_start..pos).unwrap_or(&[]);
        let Some(prev) = before.iter().rposition(|b| !b.is_ascii_whitespace()) else {
            return false;
        };
        let byte = before.get(prev).copied().unwrap_or(b' ');
        if matches!(
            byte,
            b'*' | b'&'
                | b'\''
                | b'='
                | b'('
                | b','
                | b':'
                | b'<'
                | b'>'
                | b'.'
                | b'|'
                | b'!'
                | b'+'
        ) {
            return true;
        }
        before[..=prev].ends_with(b"raw")
            && !before[..prev.saturating_sub(2)]
                .last()
                .is_some_and(|b| is_ident_byte(*b))
    }

    /// Parses the item starting at `start` (its first modifier or keyword), pushing entries to
    /// `out`. Returns where scanning resumes, or `None` when no item starts here.
    fn item(&self, start: usize, end: usize, ctx: Ctx, out: &mut Vec<Entry>) -> Option<usize> {
        let mut p = start;
        loop {
            p = self.skip_ws(p, end);
            let (w, ws, we) = self.word(p, end)?;
            match w {
                "pub" => {
                    let q = self.skip_ws(we, end);
                    p = if self.at(q) == b'(' {
                        self.skip_group(q, end)
                    } else {
                        we
                    };
                }
                "unsafe" | "async" | "default" | "safe" | "auto" => {
                    // A modifier only before an item keyword (`unsafe fn`, not `unsafe {`).
                    if !self.next_word(we, end).is_some_and(is_item_keyword) {
                        return None;
                    }
                    p = we;
                }
                "const" => {
                    if matches!(
                        self.next_word(we, end),
                        Some("fn" | "unsafe" | "async" | "extern")
                    ) {
                        p = we;
                    } else {
                        return Some(self.value_item(start, ws, we, end, ctx, Kind::Constant, out));
                    }
                }
                "static" => {
                    return Some(self.value_item(start, ws, we, end, ctx, Kind::Static, out));
                }
                "extern" => match self.extern_item(we, end, out) {
                    ControlFlow::Continue(abi_end) => p = abi_end,
                    ControlFlow::Break(next) => return next,
                },
                "fn" => {
                    let kind = if ctx == Ctx::Assoc {
                        Kind::Method
                    } else {
                        Kind::Function
                    };
                    return Some(self.named_item(start, ws, we, end, kind, out));
                }
                "struct" | "enum" | "union" => {
                    if w == "union" && self.ident(self.skip_ws(we, end), end).is_none() {
                        return None;
                    }
                    let kind = match w {
                        "struct" => Kind::Struct,
                        "enum" => Kind::Enum,
                        _ => Kind::Union,
                    };
                    return Some(self.named_item(start, ws, we, end, kind, out));
                }
                "trait" => return Some(self.named_item(start, ws, we, end, Kind::Trait, out)),
                "mod" => return Some(self.named_item(start, ws, we, end, Kind::Module, out)),
                "impl" => return Some(self.impl_item(start, ws, we, end, out)),
                "type" => return Some(self.value_item(start, ws, we, end, ctx, Kind::Type, out)),
                "use" => return Some(self.semi_end(we, end) + 1),
                "macro_rules" if self.at(we) == b'!' => {
                    return Some(self.macro_rules(start, we + 1, end, out));
                }
                _ => return self.macro_call(w, we, end, out),
            }
        }
    }

    /// After `extern` (ending at `we`): an `extern "C" { … }` block, whose items are listed at
    /// this level (`Break` with where scanning resumes), `extern crate …;` (skipped), or an ABI
    /// before an item (`extern "C" fn`: `Continue` at the item's next word). `Break(None)` when
    /// no item follows.
    fn extern_item(
        &self,
        we: usize,
        end: usize,
        out: &mut Vec<Entry>,
    ) -> ControlFlow<Option<usize>, usize> {
        let mut q = self.skip_ws(we, end);
        if self.at(q) == b'"' {
            q = self
                .m
                .get(q + 1..end.min(self.m.len()))
                .and_then(|rest| rest.iter().position(|b| *b == b'"'))
                .map_or(end, |n| q + n + 2);
            q = self.skip_ws(q, end);
        }
        if self.at(q) == b'{' {
            let close = self.close(q, end);
            let inner_end = close.unwrap_or(end);
            out.extend(self.items(q + 1, inner_end, Ctx::Foreign));
            return ControlFlow::Break(Some(close.map_or(end, |c| c + 1)));
        }
        match self.word(q, end) {
            Some(("crate", _, _)) => ControlFlow::Break(Some(self.semi_end(q, end) + 1)),
            Some(_) => ControlFlow::Continue(q),
            None => ControlFlow::Break(None),
        }
    }

    /// Skips a macro invocation `path::name! (…)`, `name! {…}`, `name![…];` whose path starts
    /// with `first` and continues at `pos`; `None` when this is not one. The statics that
    /// `thread_local!` and `lazy_static!` declare are items like any other and become entries.
    fn macro_call(
        &self,
        first: &str,
        mut pos: usize,
        end: usize,
        out: &mut Vec<Entry>,
    ) -> Option<usize> {
        let mut name = first;
        while self.at(pos) == b':' && self.at(pos + 1) == b':' {
            let (s, e) = self.ident(pos + 2, end)?;
            name = self.text(s, e);
            pos = e;
        }
        if self.at(pos) != b'!' {
            return None;
        }
        let mut q = self.skip_ws(pos + 1, end);
        if let Some((_, e)) = self.ident(q, end) {
            q = self.skip_ws(e, end);
        }
        if !matches!(self.at(q), b'(' | b'[' | b'{') {
            return Some(q);
        }
        let after = self.skip_group(q, end);
        if matches!(name, "thread_local" | "lazy_static") {
            let inner_end = self.close(q, end).unwrap_or(end);
            let statics = self.items(q + 1, inner_end, Ctx::Module);
            out.extend(statics.into_iter().filter(|e| e.kind == Kind::Static));
        }
        let r = self.skip_ws(after, end);
        Some(if self.at(r) == b';' { r + 1 } else { after })
    }

    /// Name after the keyword ending at `kw_end`: `(name, name_start)`.
    fn name_after(&self, kw_end: usize, end: usize) -> Option<(&'a str, usize, usize)> {
        let p = self.skip_ws(kw_end, end);
        self.word(p, end)
    }

    /// The signature: `start..head_end` without the keyword at `kw_start..kw_end`.
    fn sig(&self, start: usize, kw_start: usize, kw_end: usize, head_end: usize) -> String {
        let before = self.code_text(start, kw_start);
        let after = self.code_text(kw_end, head_end);
        let sig = signature(&format!("{before} {after}"));
        match sig.strip_suffix(',') {
            Some(trimmed) => trimmed.to_string(),
            None => sig,
        }
    }

    fn entry(&self, kind: Kind, name: &str, start: usize, last: usize) -> Entry {
        Entry::new(kind, name, self.line(start), self.line(last))
    }

    /// For a head ending at `head` (`{` or `;`): the position of the last byte of the item and
    /// where scanning resumes.
    fn block_end(&self, head: usize, end: usize) -> (usize, usize) {
        if head >= end {
            return (end.saturating_sub(1), end);
        }
        if self.at(head) == b'{' {
            match self.close(head, end) {
                Some(c) => (c, c + 1),
                None => (end.saturating_sub(1), end),
            }
        } else {
            (head, head + 1)
        }
    }

    /// fn / struct / enum / union / trait / mod: a name, a head up to `{…}` or `;` (tuple
    /// structs: `(…)` then `;`). A trait's or module's `{…}` is an item list, read for
    /// children, and so are the items declared in a function body's statement list (helper
    /// fns, local types, impls).
    fn named_item(
        &self,
        start: usize,
        ws: usize,
        we: usize,
        end: usize,
        kind: Kind,
        out: &mut Vec<Entry>,
    ) -> usize {
        let Some((name, _, name_end)) = self.name_after(we, end) else {
            return we;
        };
        let head = self.head_end(name_end, end);
        let (last, next) = self.block_end(head, end);
        let mut entry = self
            .entry(kind, name, start, last)
            .with_signature(self.sig(start, ws, we, head));
        let items = match kind {
            Kind::Module | Kind::Function | Kind::Method => Some(Ctx::Module),
            Kind::Trait => Some(Ctx::Assoc),
            _ => None,
        };
        if let Some(ctx) = items.filter(|_| self.at(head) == b'{' && head < end) {
            entry = self.with_items(entry, head + 1, last.max(head + 1), ctx);
        }
        out.push(entry);
        next
    }

    /// const / static / type: `name … ;` (values may hold any bracket groups).
    #[allow(clippy::too_many_arguments)]
    fn value_item(
        &self,
        start: usize,
        ws: usize,
        we: usize,
        end: usize,
        ctx: Ctx,
        kind: Kind,
        out: &mut Vec<Entry>,
    ) -> usize {
        let mut p = self.skip_ws(we, end);
        if kind == Kind::Static {
            // `static mut X`, and `lazy_static!`'s `static ref X`.
            if let Some(("mut" | "ref", _, e)) = self.word(p, end) {
                p = self.skip_ws(e, end);
            }
        }
        let Some((name, _, name_end)) = self.word(p, end) else {
            return we;
        };
        let semi = self.semi_end(name_end, end);
        let last = semi.min(end.saturating_sub(1));
        // The signature stops before the value.
        let eq = self.find_assign(name_end, semi);
        let kind = if ctx == Ctx::Assoc && kind == Kind::Static {
            Kind::Constant
        } else {
            kind
        };
        out.push(
            self.entry(kind, name, start, last)
                .with_signature(self.sig(start, ws, we, eq)),
        );
        (semi + 1).min(end.max(semi + 1))
    }

    /// `impl<G> Trait for Type<G> where … { … }`, named `Trait for Type<G>` or `Type<G>`.
    fn impl_item(
        &self,
        start: usize,
        ws: usize,
        we: usize,
        end: usize,
        out: &mut Vec<Entry>,
    ) -> usize {
        let mut p = self.skip_ws(we, end);
        if self.at(p) == b'<' {
            p = self.skip_angles(p, end);
        }
        let head = self.head_end(p, end);
        let name_end = self.find_word(p, head, "where").unwrap_or(head);
        // An inherent impl (`impl<T> Stack<T>`) and a negative one (`impl !Send for T`) are
        // named by the bare type, so that `Stack.push` finds the method; a trait impl keeps
        // both as written (`From<u8> for Stack<T>`): several may exist for one type.
        let trait_for = self.find_word(p, name_end, "for");
        let name = match trait_for {
            Some(f) if self.at(p) == b'!' => strip_generics(&self.code_text(f + 3, name_end)),
            Some(_) => signature(&self.code_text(p, name_end)),
            None => strip_generics(&self.code_text(p, name_end)),
        };
        let (last, next) = self.block_end(head, end);
        let mut entry = self
            .entry(
                Kind::Impl,
                if name.is_empty() { "impl" } else { &name },
                start,
                last,
            )
            .with_signature(self.sig(start, ws, we, head));
        if self.at(head) == b'{' && head < end {
            entry = self.with_items(entry, head + 1, last.max(head + 1), Ctx::Assoc);
        }
        out.push(entry);
        next
    }

    /// Skips `<…>` generics at `open` (`->` and `=>` are not closers). Stops at `{` or `;`.
    fn skip_angles(&self, open: usize, end: usize) -> usize {
        let mut depth = 0usize;
        let mut pos = open;
        while pos < end {
            match self.at(pos) {
                b'<' => depth += 1,
                b'>' if pos > 0 && matches!(self.at(pos - 1), b'-' | b'=') => {}
                b'>' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return pos + 1;
                    }
                }
                b'(' | b'[' => {
                    pos = self.skip_group(pos, end);
                    continue;
                }
                b'{' | b';' => return pos,
                _ => {}
            }
            pos += 1;
        }
        end
    }

    /// The `=` starting a value in `from..to` (not one inside generics such as
    /// `type R<T, E = Error> = …` or `Box<dyn Iterator<Item = u8>>`); `to` when there is none.
    fn find_assign(&self, from: usize, to: usize) -> usize {
        let mut depth = 0usize;
        let mut pos = from;
        while pos < to {
            let prev = if pos > 0 { self.at(pos - 1) } else { b' ' };
            match self.at(pos) {
                b'(' | b'[' | b'{' => {
                    pos = self.skip_group(pos, to);
                    continue;
                }
                b'<' => depth += 1,
                b'>' if !matches!(prev, b'-' | b'=') => depth = depth.saturating_sub(1),
                b'=' if depth == 0 && !matches!(self.at(pos + 1), b'=' | b'>') => return pos,
                _ => {}
            }
            pos += 1;
        }
        to
    }

    /// The first whole word `word` in `from..to`.
    fn find_word(&self, from: usize, to: usize, word: &str) -> Option<usize> {
        let hay = self.m.get(from..to.min(self.m.len()))?;
        let needle = word.as_bytes();
        let mut i = 0;
        while let Some(n) = memchr::memmem::find(hay.get(i..)?, needle) {
            let s = i + n;
            let before_ok = s == 0 || !is_ident_byte(hay.get(s - 1).copied().unwrap_or(b' '));
            let after_ok = !is_ident_byte(hay.get(s + needle.len()).copied().unwrap_or(b' '));
            if before_ok && after_ok {
                return Some(from + s);
            }
            i = s + 1;
        }
        None
    }

    /// `macro_rules! name { … }` or `( … );`; `pos` is just after the `!`.
    fn macro_rules(&self, start: usize, pos: usize, end: usize, out: &mut Vec<Entry>) -> usize {
        let Some((name, _, name_end)) = self.name_after(pos, end) else {
            return pos;
        };
        let open = self.skip_ws(name_end, end);
        if !matches!(self.at(open), b'(' | b'[' | b'{') || open >= end {
            return name_end;
        }
        let (mut last, next) = match self.close(open, end) {
            Some(c) => (c, c + 1),
            None => (end.saturating_sub(1), end),
        };
        let mut next = next;
        if self.at(open) != b'{' {
            let r = self.skip_ws(next, end);
            if self.at(r) == b';' && r < end {
                last = r;
                next = r + 1;
            }
        }
        out.push(
            self.entry(Kind::Macro, name, start, last)
                .with_signature(name),
        );
        next
    }
}

/// Whether `word` may follow a modifier such as `unsafe` or `async` in an item's head.
fn is_item_keyword(word: &str) -> bool {
    matches!(
        word,
        "fn" | "unsafe"
            | "async"
            | "extern"
            | "impl"
            | "trait"
            | "mod"
            | "const"
            | "type"
            | "static"
            | "auto"
    )
}

/// `Stack<T, Vec<T>>` as `Stack`: the type without its generic arguments, on one line.
fn strip_generics(text: &str) -> String {
    let mut depth = 0usize;
    let mut out = String::with_capacity(text.len());
    let mut prev = ' ';
    for ch in text.chars() {
        match ch {
            '<' => depth += 1,
            '>' if prev != '-' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(ch),
            _ => {}
        }
        prev = ch;
    }
    signature(&out)
}

#[cfg(test)]
mod tests;
