//! Declaration heads: the code between the end of the previous statement and a `{` or `;`,
//! cut into top-level tokens (bracket groups collapsed) and classified.

use super::tokens::{Ctx, Tk, Tok};
use crate::outline::Kind;

/// Names that can sit before `(` without being a function name. Asked of every word in a
/// head: a `match` on the bytes, not a walk down a list.
fn is_not_name(w: &[u8]) -> bool {
    matches!(
        w,
        b"if"
            | b"for"
            | b"while"
            | b"switch"
            | b"catch"
            | b"return"
            | b"sizeof"
            | b"alignof"
            | b"_Alignof"
            | b"decltype"
            | b"typeof"
            | b"__typeof__"
            | b"__typeof"
            | b"noexcept"
            | b"throw"
            | b"requires"
            | b"static_assert"
            | b"_Static_assert"
            | b"do"
            | b"else"
            | b"case"
            | b"goto"
            | b"new"
            | b"delete"
            | b"defined"
            | b"__builtin_offsetof"
            | b"offsetof"
            | b"co_return"
            | b"co_await"
            | b"co_yield"
            | b"explicit"
            | b"using"
            | b"namespace"
            | b"typedef"
    )
}

/// Statement keywords: a head containing one at top level is code, not a declaration.
fn is_statement_word(w: &[u8]) -> bool {
    matches!(
        w,
        b"if" | b"for" | b"while" | b"switch" | b"return" | b"do" | b"else" | b"case" | b"goto"
    )
}

/// What a head before `{` declares.
#[derive(Debug)]
pub(super) enum Head {
    Namespace {
        name: Option<(usize, usize)>,
        start: usize,
    },
    Extern,
    Type {
        kind: Kind,
        /// Byte range of the name (qualified, template arguments included).
        name: Option<(usize, usize)>,
        start: usize,
    },
    Function {
        name: Vec<(usize, usize)>,
        start: usize,
        sig_end: usize,
    },
    Other,
}

/// A function declarator found in a head: name pieces and the parameter group index.
struct Declarator {
    /// Byte ranges whose concatenation is the name.
    name: Vec<(usize, usize)>,
    /// Index of the first name token (for the junk-prefix rule).
    first: usize,
    /// Index of the parameter group.
    params: usize,
    /// The name carries a qualifier, `~` or `operator`.
    special: bool,
}

pub(super) fn is_type_keyword(w: &[u8]) -> bool {
    matches!(
        w,
        b"int"
            | b"char"
            | b"short"
            | b"long"
            | b"unsigned"
            | b"signed"
            | b"float"
            | b"double"
            | b"void"
            | b"bool"
            | b"_Bool"
            | b"const"
            | b"volatile"
            | b"struct"
            | b"union"
            | b"enum"
            | b"class"
            | b"typename"
            | b"restrict"
            | b"__restrict"
            | b"auto"
            | b"static"
            | b"inline"
            | b"extern"
    )
}

pub(super) fn is_all_caps(w: &[u8]) -> bool {
    w.len() >= 2
        && w.iter()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_')
        && w.iter().any(u8::is_ascii_uppercase)
}

impl Ctx<'_> {
    /// Index of the first token of the declaration proper: skips lines that hold only an
    /// all-caps macro word or a macro call (`Q_OBJECT`, `MODULE_LICENSE("x")`) before it.
    pub(super) fn lead(&self, toks: &[Tok]) -> usize {
        let mut i = self.lead_junk(toks);
        // `template<…> template<…> R A<T>::f()`: the declaration starts at the last one.
        while toks.get(i).is_some_and(|t| self.is_word(t, b"template"))
            && toks.get(i + 1).is_some_and(|t| t.kind == Tk::Angle)
            && toks
                .get(i + 2)
                .is_some_and(|t| self.is_word(t, b"template"))
        {
            i += 2;
        }
        i
    }

    fn lead_junk(&self, toks: &[Tok]) -> usize {
        let mut i = 0;
        loop {
            let Some(t) = toks.get(i) else { return i };
            if t.kind != Tk::Ident {
                return i;
            }
            let w = self.text(t);
            if !is_all_caps(w) {
                return i;
            }
            let call = toks.get(i + 1).is_some_and(|n| n.kind == Tk::Paren);
            let (last, next) = if call { (i + 1, i + 2) } else { (i, i + 1) };
            let (Some(lt), Some(nt)) = (toks.get(last), toks.get(next)) else {
                return i;
            };
            // After a call, `const`/`noexcept`… continue a declarator rather than start one.
            let continues = nt.kind == Tk::Ident
                && !(call
                    && matches!(
                        self.text(nt),
                        b"const"
                            | b"noexcept"
                            | b"override"
                            | b"final"
                            | b"throw"
                            | b"try"
                            | b"volatile"
                            | b"requires"
                    ));
            if continues && self.line_break_between(lt.end.saturating_sub(1), nt.start) {
                i = next;
            } else {
                return i;
            }
        }
    }

    /// Whether a line ends in `from..to` (masking keeps every line break).
    fn line_break_between(&self, from: usize, to: usize) -> bool {
        self.code
            .get(from..to)
            .is_some_and(|between| memchr::memchr(b'\n', between).is_some())
    }

    /// Skips `template<…>` and `export` at `i`.
    pub(super) fn skip_template(&self, toks: &[Tok], mut i: usize) -> usize {
        loop {
            match toks.get(i) {
                Some(t) if self.is_word(t, b"template") => {
                    i += 1;
                    if toks.get(i).is_some_and(|t| t.kind == Tk::Angle) {
                        i += 1;
                    }
                }
                Some(t) if self.is_word(t, b"export") => i += 1,
                _ => return i,
            }
        }
    }

    pub(super) fn classify(&self, toks: &[Tok], lead: usize, in_class: bool) -> Head {
        let Some(first) = toks.get(lead) else {
            return Head::Other;
        };
        let start = first.start;
        let mut i = self.skip_template(toks, lead);
        // `export { … }` (C++20 modules) exports what it holds, as `extern "C" {` links it.
        if i == toks.len() && toks.last().is_some_and(|t| self.is_word(t, b"export")) {
            return Head::Extern;
        }
        if toks.get(i).is_some_and(|t| self.is_word(t, b"extern"))
            && toks.get(i + 1).is_some_and(|t| t.kind == Tk::Str)
        {
            if i + 2 == toks.len() {
                return Head::Extern;
            }
            i += 2;
        }
        let rest = toks.get(i..).unwrap_or(&[]);
        let ns_at = usize::from(rest.first().is_some_and(|t| self.is_word(t, b"inline")));
        if rest
            .get(ns_at)
            .is_some_and(|t| self.is_word(t, b"namespace"))
        {
            let names = rest.get(ns_at + 1..).unwrap_or(&[]);
            if names.iter().any(|t| self.is_punct(t, b"=")) {
                return Head::Other;
            }
            // `a::b::c`, then possibly attributes or a macro (`std _GLIBCXX_VISIBILITY(default)`).
            let mut end = 0;
            while let Some(t) = names.get(end) {
                let expect_ident = end % 2 == 0;
                if (expect_ident && t.kind == Tk::Ident)
                    || (!expect_ident && self.is_punct(t, b"::"))
                {
                    end += 1;
                } else {
                    break;
                }
            }
            let name = match (names.first(), names.get(end.saturating_sub(1))) {
                (Some(a), Some(b)) if end > 0 && a.kind == Tk::Ident => Some((a.start, b.end)),
                _ => None,
            };
            return Head::Namespace { name, start };
        }
        if let Some(head) = self.type_head(rest, start) {
            return head;
        }
        self.function_head(rest, start, in_class)
    }

    /// `class|struct|union|enum [class] [macros] Name[<…>] [final] [: bases]`.
    fn type_head(&self, toks: &[Tok], start: usize) -> Option<Head> {
        let key = toks.iter().position(|t| {
            t.kind == Tk::Ident && matches!(self.text(t), b"class" | b"struct" | b"union" | b"enum")
        })?;
        let before = toks.get(..key)?;
        if before
            .iter()
            .any(|t| self.is_punct(t, b"=") || t.kind == Tk::Str || t.kind == Tk::Brace)
        {
            return None;
        }
        // The type starts at its key (`typedef\n struct S {`, `MACRO(x) class A {`), or at
        // its `template<…>` line.
        let start = if toks.first().is_some_and(|f| f.start > start) {
            start
        } else {
            toks.get(key)?.start
        };
        let kind = match self.text(toks.get(key)?) {
            b"class" => Kind::Class,
            b"struct" => Kind::Struct,
            b"union" => Kind::Union,
            _ => Kind::Enum,
        };
        let mut m = key + 1;
        if kind == Kind::Enum
            && toks
                .get(m)
                .is_some_and(|t| self.is_word(t, b"class") || self.is_word(t, b"struct"))
        {
            m += 1;
        }
        let mut chain: Option<(usize, usize)> = None;
        let mut prev_colons = false;
        let mut j = m;
        while let Some(t) = toks.get(j) {
            match t.kind {
                Tk::Ident => {
                    let w = self.text(t);
                    let is_last = toks.get(j + 1).is_none_or(|n| self.is_punct(n, b":"));
                    if (w == b"final" || w == b"sealed") && is_last && chain.is_some() {
                    } else if prev_colons {
                        chain = chain.map(|(s, _)| (s, t.end)).or(Some((t.start, t.end)));
                    } else {
                        chain = Some((t.start, t.end));
                    }
                    prev_colons = false;
                }
                Tk::Angle if chain.is_some() && !prev_colons => {
                    chain = chain.map(|(s, _)| (s, t.end));
                }
                Tk::Punct if self.text(t) == b"::" => {
                    prev_colons = true;
                    if chain.is_none() {
                        chain = Some((t.start, t.end));
                    } else {
                        chain = chain.map(|(s, _)| (s, t.end));
                    }
                }
                Tk::Punct if self.text(t) == b":" => break,
                // `struct ALIGNED_(64) state {`: a macro call before the name.
                Tk::Paren
                    if toks
                        .get(j.wrapping_sub(1))
                        .is_some_and(|p| p.kind == Tk::Ident && is_all_caps(self.text(p))) =>
                {
                    chain = None;
                }
                _ => return None,
            }
            j += 1;
        }
        Some(Head::Type {
            kind,
            name: chain,
            start,
        })
    }

    fn function_head(&self, toks: &[Tok], start: usize, in_class: bool) -> Head {
        if toks
            .iter()
            .any(|t| t.kind == Tk::Ident && is_statement_word(self.text(t)))
        {
            return Head::Other;
        }
        let first_paren = toks.iter().position(|t| t.kind == Tk::Paren);
        let cut = first_paren
            .and_then(|p| {
                toks.iter()
                    .skip(p + 1)
                    .position(|t| self.is_punct(t, b":"))
                    .map(|n| p + 1 + n)
            })
            .unwrap_or(toks.len());
        let toks = toks.get(..cut).unwrap_or(toks);
        let mut found: Vec<Declarator> = Vec::new();
        let mut k = 0;
        while k < toks.len() && found.len() < 2 {
            if let Some(d) = self.declarator_at(toks, k) {
                k = d.params + 1;
                found.push(d);
            } else {
                k += 1;
            }
        }
        let Some(first) = found.first() else {
            return Head::Other;
        };
        let mut chosen = first;
        let mut start = start;
        if first.first == 0 && !first.special {
            // `MACRO(x) int f(void)`: a macro call, then a declaration of its own.
            // `GIT_INLINE(int) f(void)`: a macro that spells the return type.
            let type_macro = toks
                .get(first.first)
                .is_some_and(|t| is_all_caps(self.text(t)));
            if let Some(later) = found.get(1) {
                if later.first > first.params + 1 {
                    chosen = later;
                    start = toks.get(first.params + 1).map_or(start, |t| t.start);
                } else if type_macro {
                    chosen = later;
                }
            }
        } else if !first.special {
            // `static void NORETURN PRINTF_STYLE(1, 2) die(const char *fmt, ...)`.
            let macro_like = |d: &Declarator| {
                d.name
                    .first()
                    .is_some_and(|&(s, e)| is_all_caps(self.code.get(s..e).unwrap_or(b"")))
            };
            if let Some(later) = found.get(1) {
                if macro_like(first) && !macro_like(later) {
                    chosen = later;
                }
            }
        }
        // `MATCHER(M, "") {`: a macro invocation with more than identifiers as arguments.
        if chosen.first == 0 && !chosen.special && !in_class {
            if let Some(p) = toks.get(chosen.params) {
                let inner = self.tokenize(p.start + 1, p.end.saturating_sub(1));
                if inner.iter().any(|t| matches!(t.kind, Tk::Str | Tk::Paren)) {
                    return Head::Other;
                }
            }
        }
        // `=` outside the name (not `operator=`) means an initializer, not a definition.
        let name_end = chosen.name.last().map_or(0, |r| r.1);
        let name_start = chosen.name.first().map_or(0, |r| r.0);
        if toks
            .iter()
            .any(|t| self.is_punct(t, b"=") && !(t.start >= name_start && t.end <= name_end))
        {
            return Head::Other;
        }
        let sig_end = toks.last().map_or(start, |t| t.end);
        Head::Function {
            name: chosen.name.clone(),
            start,
            sig_end,
        }
    }

    /// A function declarator whose name or parameter group starts at token `k`.
    fn declarator_at(&self, toks: &[Tok], k: usize) -> Option<Declarator> {
        let t = toks.get(k)?;
        if self.is_word(t, b"operator") {
            return self.operator_at(toks, k);
        }
        if t.kind == Tk::Paren && self.is_pointer_declarator(t) {
            let inner = self.tokenize(t.start + 1, t.end - 1);
            let mut j = 0;
            while j < inner.len() {
                if let Some(mut d) = self.declarator_at(&inner, j) {
                    d.first = k.max(1);
                    d.params = k;
                    d.special = true;
                    return Some(d);
                }
                j += 1;
            }
            return None;
        }
        if t.kind == Tk::Paren && toks.get(k + 1).is_some_and(|n| n.kind == Tk::Paren) {
            // `int (max)(int a, int b)`: a parenthesised name dodges function-like macros.
            let inner = self.tokenize(t.start + 1, t.end.saturating_sub(1));
            if let [only] = inner.as_slice() {
                if only.kind == Tk::Ident && !is_not_name(self.text(only)) {
                    return Some(Declarator {
                        name: vec![(only.start, only.end)],
                        first: k.max(1),
                        params: k + 1,
                        special: true,
                    });
                }
            }
        }
        if t.kind != Tk::Ident {
            return None;
        }
        let w = self.text(t);
        if is_not_name(w) || is_type_keyword(w) || w.first().is_some_and(u8::is_ascii_digit) {
            return None;
        }
        let mut p = k + 1;
        let mut name_end = t.end;
        if toks.get(p).is_some_and(|n| n.kind == Tk::Angle) {
            name_end = toks.get(p).map_or(name_end, |n| n.end);
            p += 1;
        }
        let params = toks.get(p)?;
        if params.kind != Tk::Paren || self.is_pointer_declarator(params) {
            return None;
        }
        // `__NTH (f (int a))`: a macro wrapped around the whole declarator (glibc).
        if is_all_caps(w) {
            let inner = self.tokenize(params.start + 1, params.end.saturating_sub(1));
            if let [name, group, rest @ ..] = inner.as_slice() {
                if name.kind == Tk::Ident
                    && group.kind == Tk::Paren
                    && rest.iter().all(|t| t.kind == Tk::Ident)
                    && !is_not_name(self.text(name))
                {
                    return Some(Declarator {
                        name: vec![(name.start, name.end)],
                        first: k,
                        params: p,
                        special: true,
                    });
                }
            }
        }
        // `NAME(inner)(params)`: a macro that builds the name (`BZ_API(f)(…)`).
        if toks.get(p + 1).is_some_and(|n| n.kind == Tk::Paren) && is_all_caps(w) {
            let inner = self.tokenize(params.start + 1, params.end - 1);
            if let Some(last) = inner.iter().rev().find(|t| t.kind == Tk::Ident) {
                return Some(Declarator {
                    name: vec![(last.start, last.end)],
                    first: k,
                    params: p + 1,
                    special: true,
                });
            }
        }
        let (first, special) = self.qualifier_start(toks, k);
        Some(Declarator {
            name: vec![(toks.get(first).map_or(t.start, |f| f.start), name_end)],
            first,
            params: p,
            special,
        })
    }

    /// Walks back over `~` and `A<T>::` qualifiers before the name token at `k`.
    fn qualifier_start(&self, toks: &[Tok], k: usize) -> (usize, bool) {
        let mut first = k;
        let mut special = false;
        if first > 0 && toks.get(first - 1).is_some_and(|t| self.is_punct(t, b"~")) {
            first -= 1;
            special = true;
        }
        while first > 0 && toks.get(first - 1).is_some_and(|t| self.is_punct(t, b"::")) {
            special = true;
            first -= 1;
            if first > 0 && toks.get(first - 1).is_some_and(|t| t.kind == Tk::Angle) {
                first -= 1;
            }
            if first > 0 && toks.get(first - 1).is_some_and(|t| t.kind == Tk::Ident) {
                first -= 1;
            }
        }
        (first, special)
    }

    fn operator_at(&self, toks: &[Tok], k: usize) -> Option<Declarator> {
        let mut params = k + 1;
        let is_call = toks.get(k + 1).is_some_and(|t| {
            t.kind == Tk::Paren
                && self
                    .text(t)
                    .iter()
                    .all(|b| matches!(b, b'(' | b')' | b' ' | b'\t'))
        }) && toks.get(k + 2).is_some_and(|t| t.kind == Tk::Paren);
        if is_call {
            params = k + 2;
        } else {
            while toks.get(params).is_some_and(|t| t.kind != Tk::Paren) {
                params += 1;
            }
        }
        if params >= toks.len() || params == k + 1 {
            return None;
        }
        let (first, _) = self.qualifier_start(toks, k);
        let mut name = Vec::new();
        if first < k {
            let a = toks.get(first)?.start;
            let b = toks.get(k - 1)?.end;
            name.push((a, b));
        }
        for t in toks.get(k..params)? {
            name.push((t.start, t.end));
        }
        Some(Declarator {
            name,
            first,
            params,
            special: true,
        })
    }

    /// `(*name…)`, `(&name…)`, `(^name…)`, `(__stdcall *name…)`, `(Cls::*name…)`. Asked of
    /// every parameter list, whose first token or two tell: it is read token by token.
    pub(super) fn is_pointer_declarator(&self, t: &Tok) -> bool {
        let mut inner = self.tokens(t.start + 1, t.end.saturating_sub(1));
        let Some(f) = inner.next() else { return false };
        if f.kind == Tk::Punct && matches!(self.text(&f), b"*" | b"&" | b"&&" | b"^") {
            return true;
        }
        if f.kind != Tk::Ident {
            return false;
        }
        let conv = matches!(
            self.text(&f),
            b"__stdcall"
                | b"__cdecl"
                | b"__fastcall"
                | b"__thiscall"
                | b"__vectorcall"
                | b"WINAPI"
                | b"CALLBACK"
                | b"APIENTRY"
                | b"WINAPIV"
        );
        let second = inner.next();
        if conv && second.is_some_and(|s| self.text(&s) == b"*") {
            return true;
        }
        // `(Cls::*name)`, `(A::B::*name)`: a qualifier chain from the first token, then `::*`
        // (not a parameter list like `(T Cls::*mp)`). A chain that breaks first is no answer.
        let mut at = 1;
        let mut current = second;
        while let Some(c) = current {
            let next = inner.next();
            if self.is_punct(&c, b"::") && next.is_some_and(|n| self.is_punct(&n, b"*")) {
                return true;
            }
            let chained = if at % 2 == 0 {
                c.kind == Tk::Ident
            } else {
                self.is_punct(&c, b"::")
            };
            if !chained {
                return false;
            }
            current = next;
            at += 1;
        }
        false
    }
}
