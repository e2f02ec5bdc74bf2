//! Statements that name a type without a body of their own: `typedef`s (every declarator
//! of one, parenthesised names included) and `using X = …` aliases.

use super::head::{is_all_caps, is_type_keyword};
use super::tokens::{Tk, Tok};
use super::Scanner;
use crate::outline::{Entry, Kind};
use memchr::memmem::Finder;
use std::sync::LazyLock;

impl Scanner<'_> {
    /// A statement ending at `;`: typedefs and `using X = …` aliases.
    pub(super) fn statement(&self, head: usize, semi: usize, out: &mut Vec<Entry>) {
        static TYPEDEF: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("typedef"));
        static USING: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("using"));
        let text = self.ctx.code.get(head..semi).unwrap_or(b"");
        if TYPEDEF.find(text).is_none() && USING.find(text).is_none() {
            return;
        }
        let toks = self.head_tokens(head, semi);
        if toks.is_empty() {
            return;
        }
        let lead = self.ctx.lead(&toks);
        let Some(first) = toks.get(lead) else { return };
        let start = first.start;
        let i = self.ctx.skip_template(&toks, lead);
        let Some(t) = toks.get(i) else { return };
        let line = self.line(start);
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
                    let name = self.name_text(s, e);
                    out.push(
                        Entry::new(Kind::Typedef, name, line, end_line).with_signature(sig.clone()),
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
                let name = self.name_text(name.start, name.end);
                out.push(Entry::new(Kind::Typedef, name, line, end_line).with_signature(sig));
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
        if let Some(name) = self.parenthesised_name(piece) {
            return Some(name);
        }
        let mut last: Option<usize> = None;
        for (i, t) in piece.iter().enumerate() {
            // `typedef void fn(int)` ends at the parameters; `typedef ARRAY(int) name` does not.
            let ident_follows = piece
                .get(i + 1..)
                .is_some_and(|r| r.iter().any(|t| t.kind == Tk::Ident));
            if t.kind == Tk::Paren && i > 0 && last.is_some() && !ident_follows {
                break;
            }
            if t.kind == Tk::Ident && !is_type_keyword(self.ctx.text(t)) {
                last = Some(i);
            }
        }
        let mut at = last?;
        let tok = piece.get(at)?;
        // `typedef PNG_CALLBACK(void, *png_rw_ptr, (…))`: the name is the pointer inside.
        let group = piece.get(at + 1).filter(|g| g.kind == Tk::Paren);
        if let Some(group) = group.filter(|_| is_all_caps(self.ctx.text(tok))) {
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

    /// A declarator name in parentheses: `typedef struct S (T)(int);`, `typedef int (T)[4];`,
    /// `typedef int (T);`. Not a macro's arguments (`typedef ARRAY(int) name`, `FN(x)(y)`)
    /// nor a function type's one parameter (`typedef int f(size_t);`): the group follows a
    /// type or comes before the declarator's own parameters or bounds.
    fn parenthesised_name(&self, piece: &[Tok]) -> Option<(usize, usize)> {
        let at = piece.iter().position(|t| t.kind == Tk::Paren)?;
        let before = piece.get(at.checked_sub(1)?)?;
        let after = piece.get(at + 1);
        let declarator_follows = after.is_some_and(|t| matches!(t.kind, Tk::Paren | Tk::Bracket))
            && piece.get(at + 2).is_none();
        let type_before =
            before.kind == Tk::Ident && is_type_keyword(self.ctx.text(before)) && after.is_none();
        let macro_before = before.kind == Tk::Ident && is_all_caps(self.ctx.text(before));
        if !(declarator_follows || type_before) || macro_before {
            return None;
        }
        let group = piece.get(at)?;
        let inner = self
            .ctx
            .tokenize(group.start + 1, group.end.saturating_sub(1));
        match inner.as_slice() {
            [only] if only.kind == Tk::Ident && !is_type_keyword(self.ctx.text(only)) => {
                Some((only.start, only.end))
            }
            _ => None,
        }
    }
}
