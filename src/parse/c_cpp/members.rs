//! Member functions a class body declares without defining them (`Widget();`, `~Widget();`,
//! `void draw() const;`, `virtual int size() = 0;`, `A(const A&) = delete;`): a header's
//! outline is its declarations, so they are entries of the class like the defined ones.

use super::head::Head;
use super::tokens::Tk;
use super::Scanner;
use crate::outline::{Entry, Kind};

impl Scanner<'_> {
    /// A member function declared by the statement `head..semi` of a class body, if any.
    pub(super) fn member_declaration(&self, head: usize, semi: usize, out: &mut Vec<Entry>) {
        // Most member statements are fields: no parameter list, nothing to tokenize.
        let text = self.ctx.code.get(head..semi).unwrap_or(b"");
        if memchr::memchr(b'(', text).is_none() {
            return;
        }
        let mut toks = self.head_tokens(head, semi);
        // `struct In { … } in;`: what precedes a brace group is its own (type) statement.
        if let Some(b) = toks.iter().rposition(|t| t.kind == Tk::Brace) {
            toks.drain(..=b);
        }
        // A friend names a function of another scope; typedefs and aliases are `statement`'s.
        if toks.iter().any(|t| {
            t.kind == Tk::Ident && matches!(self.ctx.text(t), b"friend" | b"typedef" | b"using")
        }) {
            return;
        }
        let lead = self.ctx.lead(&toks);
        let Some(params) = toks.iter().skip(lead).position(|t| t.kind == Tk::Paren) else {
            return;
        };
        let Some(last_end) = toks.last().map(|t| t.end) else {
            return;
        };
        // `= 0`, `= default`, `= delete` follow the declarator and stay in the signature; an
        // `=` before the parameters (`int x = f(1);`) is a field's initializer.
        let cut = toks
            .iter()
            .skip(lead + params + 1)
            .position(|t| self.ctx.is_punct(t, b"="))
            .map_or(toks.len(), |n| lead + params + 1 + n);
        toks.truncate(cut);
        let Head::Function { name, start, .. } = self.ctx.classify(&toks, lead, true) else {
            return;
        };
        let (Some(&(from, _)), Some(&(_, to))) = (name.first(), name.last()) else {
            return;
        };
        // `STDMETHOD_(int, Get)() = 0;`: a name inside a macro's arguments is what the macro
        // makes of it (clang sees a different declaration, or none), not a declared name.
        let before = self.ctx.code.get(..from).unwrap_or(b"");
        let inside_group = before
            .iter()
            .rev()
            .find(|b| !b.is_ascii_whitespace())
            .is_some_and(|b| matches!(b, b'(' | b','));
        if inside_group {
            return;
        }
        let name = super::text::tidy_operator(self.name_text(from, to));
        if from == start && !self.is_own_constructor(&name) {
            // Nothing before the name and not the class's own: a macro call (`Q_DISABLE_COPY(A);`,
            // `DECLARE_HANDLER(x);`), which declares what its expansion says, not a method.
            return;
        }
        let sig = self.sig_text(start, last_end, &[]);
        let line = self.line(start);
        out.push(Entry::new(Kind::Method, name, line, self.line(semi)).with_signature(sig));
    }

    /// Whether `name` (`Widget`, `~Widget`, `operator bool`) needs no return type in the class
    /// being read: its constructor, destructor or a conversion operator.
    fn is_own_constructor(&self, name: &str) -> bool {
        if name.starts_with('~') || name.starts_with("operator") {
            return true;
        }
        let Some((s, e)) = self.class_name.get() else {
            return false;
        };
        let class = self.name_text(s, e);
        // `A<T>` (a specialisation) and `outer::A` are constructed as `A`.
        let class = class.split('<').next().unwrap_or("");
        let class = class.rsplit("::").next().unwrap_or("");
        !class.is_empty() && class == name
    }
}
