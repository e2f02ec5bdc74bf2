//! The members of a brace-family body: functions, constructors and other members named by
//! their keyword, properties and fields, aliases, Swift extensions and cases, and the Java and
//! C# members written without a keyword.

use super::head::{Stop, Stops};
use super::{Head, Scanner, Scope};
use crate::outline::{Entry, Kind};
use crate::parse::signature;

/// Where a member's body or expression ends.
struct Extent {
    /// The head ends here (a body's `{`, `=`, `=>`, `;` or the statement's end).
    head_end: usize,
    /// The last line.
    end_line: usize,
    /// Where the walk resumes.
    next: usize,
    /// The body's braces, when it has one.
    body: Option<(usize, usize)>,
}

impl Scanner<'_> {
    /// From `pos` (after a member's name and parameters): its body `{ … }`, its expression
    /// (`= expr`, `=> expr;`) or nothing (`;`, or the line's end), and where it all ends.
    fn member_extent(&self, start: usize, pos: usize, end: usize) -> Extent {
        let stops = Stops {
            body: true,
            assign: true,
            ..Stops::END
        };
        let (stop, why) = self.head_stop(pos, end, stops);
        match why {
            Stop::Body => {
                let close = self.close(stop, end).unwrap_or(end);
                let last = close.min(self.len().saturating_sub(1));
                Extent {
                    head_end: stop,
                    end_line: self.line(last),
                    next: close + 1,
                    body: Some((stop, close)),
                }
            }
            Stop::Assign | Stop::Arrow => {
                let next = self.statement_end(stop + 1, end);
                Extent {
                    head_end: stop,
                    end_line: self.last_code_line(start, next),
                    next,
                    body: None,
                }
            }
            _ => {
                let next = self.statement_end(stop, end);
                Extent {
                    head_end: stop,
                    end_line: self.last_code_line(start, next),
                    next,
                    body: None,
                }
            }
        }
    }

    /// `fun`/`func`: `fun <T> Recv<T>.name(…): R { … }`, `func name<T>(…) -> R`, `static func
    /// == (…)`. A Kotlin extension is named `Recv.name`.
    pub(super) fn function(
        &self,
        head: &Head,
        end: usize,
        scope: &Scope,
        out: &mut Vec<Entry>,
    ) -> usize {
        let mut p = self.skip_ws(head.word_end, end);
        // Kotlin's `fun <T> name`, but not Swift's operator `func <*> (…)`.
        let generics =
            self.ident(self.skip_ws(p + 1, end), end).is_some() || self.at(p + 1) == b'@';
        if self.at(p) == b'<' && generics {
            p = self.skip_ws(self.skip_generics(p, end), end);
        }
        // PHP's `function &byReference()`, but not Swift's `func && (…)`.
        if self.at(p) == b'&' && self.ident(self.skip_ws(p + 1, end), end).is_some() {
            p = self.skip_ws(p + 1, end);
        }
        // Kotlin's extension on a function type, `fun <T> (suspend () -> T).name(…)`: named
        // by the member alone.
        if self.at(p) == b'(' {
            let q = self.skip_group(p, end);
            let q = if self.at(q) == b'?' { q + 1 } else { q };
            if self.at(q) == b'.' {
                p = q + 1;
            }
        }
        let Some((mut name, mut name_end)) = self.declared_name(p, end, true) else {
            return self.statement_end(p, end);
        };
        // Swift's `func ==<T>(…)`: the generics' `<` is not part of the operator.
        if name.len() > 1 && name.ends_with('<') && self.ident(name_end, end).is_some() {
            name.pop();
            name_end -= 1;
        }
        let (name, name_end) = self.extension_name(name, name_end, end);
        let params = self.skip_ws(self.skip_generics(self.skip_ws(name_end, end), end), end);
        if self.at(params) != b'(' {
            return self.statement_end(name_end, end);
        }
        let after = self.skip_group(params, end);
        let extent = self.member_extent(head.start, after, end);
        let sig = signature(&self.head_text(head.start, extent.head_end));
        let entry = Entry::new(
            Self::function_kind(scope),
            name,
            self.line(head.start),
            extent.end_line,
        )
        .with_signature(sig);
        let promoted = entry.name() == "__construct" && scope.type_name.is_some();
        out.push(entry);
        // PHP 8's `__construct(private float $x)` declares the property `$x` too.
        if promoted && !self.spec.constructor_properties.words.is_empty() {
            out.extend(self.parameter_properties(params, end));
        }
        extent.next
    }

    /// `init(…)`, `init?(…)`, `deinit { … }`, `subscript(…) -> T { … }`, Kotlin's
    /// `constructor(…) : this(…) { … }`: named by the keyword.
    pub(super) fn named_member(&self, head: &Head, end: usize, out: &mut Vec<Entry>) -> usize {
        let mut p = head.word_end;
        if matches!(self.at(p), b'?' | b'!') {
            p += 1;
        }
        let p = self.skip_ws(self.skip_generics(p, end), end);
        let after = if self.at(p) == b'(' {
            self.skip_group(p, end)
        } else {
            p
        };
        let extent = self.member_extent(head.start, after, end);
        let sig = signature(&self.head_text(head.start, extent.head_end));
        out.push(
            Entry::new(
                Kind::Method,
                head.word,
                self.line(head.start),
                extent.end_line,
            )
            .with_signature(sig),
        );
        extent.next
    }

    /// A Kotlin extension's name from its first word `name` (ending at `name_end`): the
    /// receiver type and the member, `Recv.name` for `Recv.name`, `Recv<T>.name`, `Recv?.name`
    /// and `a.b.Recv.name` (a package's lowercase segments left out), `Outer.Companion.name`;
    /// `name` itself when no receiver comes first.
    fn extension_name(&self, mut name: String, mut name_end: usize, end: usize) -> (String, usize) {
        let mut receiver: Vec<String> = Vec::new();
        // Most names have no receiver: no allocation for them.
        let q = self.skip_generics(name_end, end);
        if !matches!(self.at(q), b'.' | b'?') {
            return (name, name_end);
        }
        loop {
            let q = self.skip_generics(name_end, end);
            let q = if self.at(q) == b'?' { q + 1 } else { q };
            if self.at(q) != b'.' {
                break;
            }
            let Some((next, next_end)) = self.declared_name(q + 1, end, false) else {
                break;
            };
            receiver.push(std::mem::replace(&mut name, next));
            name_end = next_end;
        }
        // The type starts at its first capitalized segment (the last one if none is).
        let package = receiver
            .iter()
            .take_while(|s| !s.starts_with(char::is_uppercase));
        let skip = package.count().min(receiver.len().saturating_sub(1));
        receiver.drain(..skip);
        receiver.push(name);
        (receiver.join("."), name_end)
    }

    /// `val`/`var`/`let`/`event` declarators from `from`: `var a = 1, b = 2`, `val x: Int get()
    /// = 1`, `var body: some View { … }`. Destructuring (`val (a, b) = …`) lists nothing.
    pub(super) fn properties(
        &self,
        head: &Head,
        from: usize,
        end: usize,
        scope: &Scope,
        out: &mut Vec<Entry>,
    ) -> usize {
        // Kotlin's `const val`, PHP's `const X = 1`.
        let constant = head.constant || head.word == "const";
        let kind = match (scope.type_name.is_some(), constant) {
            (_, true) => Kind::Constant,
            (true, false) => Kind::Property,
            (false, false) => Kind::Variable,
        };
        let mut p = self.skip_ws(from, end);
        let mut first = true;
        loop {
            p = self.skip_ws(self.skip_generics(p, end), end);
            let Some((name, name_end)) = self.declared_name(p, end, false) else {
                return self.statement_end(p, end);
            };
            // A Kotlin extension property: `val Recv.name`, `val KClass<*>.name`.
            let (name, name_end) = self.extension_name(name, name_end, end);
            let comma = !self.spec.one_declarator;
            let stops = Stops {
                body: true,
                assign: true,
                comma,
                ..Stops::END
            };
            let (mut stop, mut why) = self.head_stop(name_end, end, stops);
            let mut sig_end = stop;
            // An initializer is an expression: a `{` in it is a block (`get() = if (a) {
            // … } else { … }`), not a body as Swift's `var body: some View { … }` has.
            if why == Stop::Assign {
                (stop, why) = self.head_stop(
                    stop + 1,
                    end,
                    Stops {
                        comma,
                        ..Stops::END
                    },
                );
                sig_end = stop;
            }
            let (sig_end, end_line, next) = match why {
                Stop::Body => {
                    let close = self.close(stop, end).unwrap_or(end);
                    let last = close.min(self.len().saturating_sub(1));
                    (stop, self.line(last), close + 1)
                }
                _ => (sig_end, self.last_code_line(p, stop), stop),
            };
            let sig_start = if first { head.start } else { p };
            first = false;
            let sig = signature(&self.head_text(sig_start, sig_end));
            let sig = sig.split(" = ").next().unwrap_or("").to_string();
            out.push(Entry::new(kind, name, self.line(head.start), end_line).with_signature(sig));
            match why {
                Stop::Comma => p = stop + 1,
                Stop::Body => {
                    // `var x = 0 { didSet … }` ends at its brace; a Kotlin getter may follow.
                    return self.accessors(next, end, out);
                }
                Stop::End | Stop::Eof => {
                    return self.accessors(self.statement_end(stop, end), end, out)
                }
                _ => return self.statement_end(stop, end),
            }
        }
    }

    /// Kotlin accessors on the lines after a property (`get() = …`, `private set`): the
    /// property's entry (the last in `out`) is extended over them.
    fn accessors(&self, mut pos: usize, end: usize, out: &mut [Entry]) -> usize {
        if self.spec.continuation_words.is_empty() {
            return pos;
        }
        loop {
            let start = self.skip_ws(pos, end);
            let head = self.head(start, end);
            let Some(head) = head.filter(|h| self.spec.continuation_words.contains(&h.word)) else {
                return pos;
            };
            // `get() = …`, `get() { … }`, or a bare `private set` ending its line.
            let p = self.skip_blanks(head.word_end, end);
            let after = if self.at(p) == b'(' {
                self.skip_group(p, end)
            } else {
                p
            };
            let extent = self.member_extent(start, after, end);
            if let Some(last) = out.last_mut() {
                last.end_line = last.end_line.max(extent.end_line);
            }
            pos = extent.next;
        }
    }

    /// `typealias Name<T> = …`, `associatedtype Item: P`.
    pub(super) fn alias(&self, head: &Head, end: usize, out: &mut Vec<Entry>) -> usize {
        let p = self.skip_ws(head.word_end, end);
        let Some((name, _)) = self.declared_name(p, end, false) else {
            return self.statement_end(p, end);
        };
        let next = self.statement_end(p, end);
        let sig = signature(&self.head_text(head.start, next));
        let sig = sig.trim_end_matches(';').to_string();
        out.push(
            Entry::new(
                Kind::Type,
                name,
                self.line(head.start),
                self.last_code_line(head.start, next),
            )
            .with_signature(sig),
        );
        next
    }

    /// Swift's `extension A.B: P where … { … }`, named `A.B` so that `--find B` finds it.
    pub(super) fn extension(&self, head: &Head, end: usize, out: &mut Vec<Entry>) -> usize {
        let p = self.skip_ws(head.word_end, end);
        // `extension [Element]`, `extension [K: V]`: sugar for a generic type.
        let name_end = match self.at(p) {
            b'[' => Some(self.skip_group(p, end)),
            _ => self.path_end(p, end),
        };
        let Some(name_end) = name_end else {
            return self.statement_end(p, end);
        };
        let name = self.text(p, name_end);
        let (stop, why) = self.head_stop(name_end, end, Stops::BODY);
        let sig = signature(&self.head_text(head.start, stop));
        if why != Stop::Body {
            return self.statement_end(stop, end);
        }
        let close = self.close(stop, end).unwrap_or(end);
        let last = close.min(self.len().saturating_sub(1));
        let entry = Entry::new(Kind::Impl, name, self.line(head.start), self.line(last))
            .with_signature(sig);
        let simple = name.rsplit('.').next().unwrap_or(name);
        let scope = Scope {
            type_name: Some(simple),
            enum_body: false,
        };
        out.push(self.with_body(entry, stop, close, &scope));
        close + 1
    }

    /// Swift's `case a, b(Int), c = 3` in an enum: one constant each.
    pub(super) fn cases(&self, from: usize, end: usize, out: &mut Vec<Entry>) -> usize {
        let mut p = from;
        loop {
            p = self.skip_ws(p, end);
            let Some((name, name_end)) = self.declared_name(p, end, false) else {
                return self.statement_end(p, end);
            };
            let (stop, why) = self.head_stop(name_end, end, Stops::COMMA);
            out.push(
                Entry::new(
                    Kind::Constant,
                    name,
                    self.line(p),
                    self.last_code_line(p, stop),
                )
                .with_signature(signature(&self.head_text(p, stop))),
            );
            if why != Stop::Comma {
                return self.statement_end(stop, end);
            }
            p = stop + 1;
        }
    }

    /// A Java or C# member without a keyword, from its first type word: a method or
    /// constructor (`T name(…)`), an operator (`T operator +(…)`), an indexer (`T this[…]`), a
    /// property (`T Name { get; }`, `T Name => …;`) or fields (`T a = 1, b;`). A delegate
    /// (`kind` given) is read as a method head.
    pub(super) fn untagged(
        &self,
        head: &Head,
        end: usize,
        scope: &Scope,
        kind: Option<Kind>,
        out: &mut Vec<Entry>,
    ) -> usize {
        let from = if kind.is_some() {
            head.word_end
        } else {
            head.start
        };
        let stops = Stops {
            body: true,
            assign: true,
            paren: true,
            ..Stops::END
        };
        let (mut stop, mut why) = self.head_stop(from, end, stops);
        // A tuple type (`static (int, string) F()`): no name before its `(`.
        while why == Stop::Paren
            && self.operator_name(from, stop).is_none()
            && self
                .word_before(stop, from)
                .is_none_or(|(s, e)| self.is_modifier(self.text(s, e)))
        {
            (stop, why) = self.head_stop(self.skip_group(stop, end), end, stops);
        }
        match why {
            Stop::Paren => self.method(head, from, stop, end, scope, kind, out),
            Stop::Body | Stop::Arrow if self.indexer_before(from, stop) => {
                self.member_named(head, "this", stop, end, Kind::Property, out)
            }
            Stop::Body | Stop::Arrow => match self.word_before(stop, from) {
                Some((s, e)) => {
                    let name = self.text(s, e);
                    // Java's compact record constructor: `Point { … }` (no member is named
                    // like its type otherwise, in Java or C#).
                    let kind = if Some(name) == scope.type_name {
                        Kind::Method
                    } else {
                        Kind::Property
                    };
                    self.member_named(head, name, stop, end, kind, out)
                }
                None => self.statement_end(stop, end),
            },
            _ => {
                let field_head = Head { ..*head };
                self.fields(&field_head, from, end, out)
            }
        }
    }

    /// `this[int i]` just before `stop`.
    fn indexer_before(&self, from: usize, stop: usize) -> bool {
        let code = self.m.get(from..stop).unwrap_or(&[]);
        let trimmed = code.trim_ascii_end();
        trimmed.ends_with(b"]") && {
            let text = String::from_utf8_lossy(trimmed);
            text.rsplit_once("this").is_some_and(|(before, after)| {
                after.trim_start().starts_with('[')
                    && before
                        .chars()
                        .last()
                        .is_none_or(|c| !c.is_alphanumeric() && c != '_')
            })
        }
    }

    /// A member whose head ends at `stop` (a body `{`, `=>` or `(`), named `name`.
    fn member_named(
        &self,
        head: &Head,
        name: &str,
        stop: usize,
        end: usize,
        kind: Kind,
        out: &mut Vec<Entry>,
    ) -> usize {
        let extent = self.member_extent(head.start, stop, end);
        let mut next = extent.next;
        let mut end_line = extent.end_line;
        // `int X { get; set; } = 5;`: the initialiser is part of the property.
        if extent.body.is_some() {
            let q = self.skip_ws(next, end);
            if self.at(q) == b'=' && self.at(q + 1) != b'>' {
                next = self.statement_end(q, end);
                end_line = self.last_code_line(head.start, next);
            }
        }
        let sig = signature(&self.head_text(head.start, extent.head_end));
        out.push(Entry::new(kind, name, self.line(head.start), end_line).with_signature(sig));
        next
    }

    /// `T name<U>(…) throws X { … }` and the like, the `(` at `paren`.
    #[allow(clippy::too_many_arguments)]
    fn method(
        &self,
        head: &Head,
        from: usize,
        paren: usize,
        end: usize,
        scope: &Scope,
        kind: Option<Kind>,
        out: &mut Vec<Entry>,
    ) -> usize {
        let name = match self.operator_name(from, paren) {
            Some(name) => name,
            None => match self.word_before(paren, from) {
                Some((s, e)) => {
                    let tilde = s > from && self.at(s - 1) == b'~';
                    let bare = self.text(s, e);
                    if tilde {
                        format!("~{bare}")
                    } else {
                        bare.to_string()
                    }
                }
                None => return self.statement_end(paren, end),
            },
        };
        let after = self.skip_group(paren, end);
        let extent = self.member_extent(head.start, after, end);
        let sig = signature(&self.head_text(head.start, extent.head_end));
        let kind = kind.unwrap_or(Self::function_kind(scope));
        out.push(
            Entry::new(kind, name, self.line(head.start), extent.end_line).with_signature(sig),
        );
        extent.next
    }

    /// `operator +`, `implicit operator int`, `operator true` when the word `operator` stands
    /// in `from..paren`.
    fn operator_name(&self, from: usize, paren: usize) -> Option<String> {
        // Every method head is asked: a searcher built once, not per call (its set-up cost
        // more than the search on short heads).
        static OPERATOR: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
            std::sync::LazyLock::new(|| memchr::memmem::Finder::new("operator"));
        let code = self.text(from, paren);
        let at = OPERATOR.find_iter(code.as_bytes()).find(|&i| {
            let before_ok = code[..i].chars().last().is_none_or(|c| c.is_whitespace());
            let after = code[i + 8..].chars().next();
            before_ok && after.is_none_or(|c| !c.is_alphanumeric() && c != '_')
        })?;
        let before = code[..at].trim_end();
        let conversion = ["implicit", "explicit"]
            .into_iter()
            .find(|word| before.ends_with(word));
        let symbol = code[at + 8..]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        Some(match conversion {
            Some(word) => format!("{word} operator {symbol}"),
            None => format!("operator {symbol}"),
        })
    }

    /// `T a = 1, b, c[] = {…};`: one field per declarator, each named by the word before its
    /// `=`, `,` or `;`.
    fn fields(&self, head: &Head, from: usize, end: usize, out: &mut Vec<Entry>) -> usize {
        let kind = if head.constant {
            Kind::Constant
        } else {
            Kind::Field
        };
        let mut p = from;
        let line = self.line(head.start);
        loop {
            let stops = Stops {
                assign: true,
                comma: true,
                ..Stops::END
            };
            let (stop, why) = self.head_stop(p, end, stops);
            let mut name_end = stop;
            // C-style arrays: `int a[] = …`.
            while name_end > p && self.at(name_end - 1).is_ascii_whitespace() {
                name_end -= 1;
            }
            while name_end > p && self.at(name_end - 1) == b']' {
                name_end = self.m[..name_end - 1]
                    .iter()
                    .rposition(|b| *b == b'[')
                    .unwrap_or(p);
            }
            let Some((s, e)) = self.word_before(name_end, p) else {
                return self.statement_end(stop, end);
            };
            let (next_stop, next_why) = match why {
                Stop::Assign => self.head_stop(stop + 1, end, Stops::COMMA),
                _ => (stop, why),
            };
            // `$count` keeps its sigil where the language writes one.
            let s = match self.spec.sigil {
                Some(sigil) if s > p && self.at(s - 1) == sigil => s - 1,
                _ => s,
            };
            let sig_start = if p == from { head.start } else { s };
            let sig = signature(&self.head_text(sig_start, e));
            out.push(
                Entry::new(
                    kind,
                    self.text(s, e),
                    line.max(self.line(sig_start)),
                    self.last_code_line(s, next_stop + 1),
                )
                .with_signature(sig),
            );
            if next_why != Stop::Comma {
                return self.statement_end(next_stop, end);
            }
            p = next_stop + 1;
        }
    }
}
