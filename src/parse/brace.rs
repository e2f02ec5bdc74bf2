//! The brace family's scanner: Java, C#, Kotlin and Swift, each configured by a [`Spec`]
//! (its lexical forms, modifiers, declaration keywords, how attributes are written, whether a
//! line break ends a statement) and nothing else.
//!
//! The walk reads a body (the file, a namespace, a type) one declaration at a time over masked
//! text (comments and string contents blanked, interpolation holes kept as code): attributes,
//! then modifiers, then either a keyword from the spec (`class`, `fun`, `var`, `init`, …) or,
//! in Java and C#, a member without one (`Type name(…)` is a method, `Type name;` a field,
//! `Type Name { get; }` a property). Type bodies are walked again; function bodies and
//! initialisers are skipped as bracket groups, so lambdas and anonymous classes never leak
//! entries. An entry starts on the line of its first modifier (attributes above it belong to
//! its docs) and ends at its closing brace, its `;`, or where a line-ended statement ends.

mod head;
mod params;

use crate::outline::{Entry, Kind};
use crate::parse::cursor::{Cursor, Nesting};
use crate::parse::lex::{self, LexSpec};
use crate::parse::signature;
use head::{Stop, Stops};

/// One language of the family.
pub(crate) struct Spec {
    pub(crate) lex: LexSpec,
    /// Words that may stand before a declaration and say nothing of what it declares.
    pub(crate) modifiers: &'static [&'static str],
    /// Declaration keywords and what each declares.
    pub(crate) keywords: &'static [(&'static str, Decl)],
    /// `@Name(…)` annotations (Java, Kotlin, Swift).
    pub(crate) at_annotations: bool,
    /// `[Name(…)]` attributes (C#).
    pub(crate) bracket_attributes: bool,
    /// A line break ends a statement unless the code around it continues it (Kotlin, Swift).
    pub(crate) line_ends: bool,
    /// Words that continue a statement when a line starts with them (Kotlin's `get`, `set`).
    pub(crate) continuation_words: &'static [&'static str],
    /// Infix words that continue a statement when a line ends with them (Kotlin's `a or\n
    /// b`, `x shl 8 or\n y`): the expression is not complete.
    pub(crate) infix_words: &'static [&'static str],
    /// Members written without a keyword: `Type name(…)` methods and constructors, `Type
    /// name;` fields, `Type Name { get; }` properties (Java, C#).
    pub(crate) untagged_members: bool,
    /// Statements whose blocks hold declarations of the same scope (PHP's `if
    /// (!function_exists('f')) { function f() {} }`): walked as if the block were not there.
    pub(crate) transparent_blocks: &'static [&'static str],
    /// Names of fields and properties keep their sigil (PHP's `$count`).
    pub(crate) sigil: Option<u8>,
    /// A `val`/`var` declares one name (Kotlin): a comma at the top of its initializer
    /// (`= object : A, B { … }`) starts no second declarator as Swift's `var a = 1, b = 2` does.
    pub(crate) one_declarator: bool,
    /// Constructor parameters that are members of the type: Kotlin's primary constructor
    /// `class User(val name: String, var age: Int)` (listed as its first members), PHP's
    /// promoted `__construct(private float $x)` (after the constructor).
    pub(crate) constructor_properties: ParameterMembers,
}

/// Which constructor parameters declare a member, and what the language calls it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ParameterMembers {
    /// Words that make a parameter a member (`val`, `var`; `private`, `readonly`).
    pub(crate) words: &'static [&'static str],
    /// The kind of the member, as the language's other member variables are outlined.
    pub(crate) kind: Kind,
}

impl ParameterMembers {
    /// No parameter declares a member.
    pub(crate) const NONE: ParameterMembers = ParameterMembers {
        words: &[],
        kind: Kind::Field,
    };
}

/// What a declaration keyword declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Decl {
    /// A type with a body of members (`class`, `interface`, `struct`, `record`, `object`).
    Type(Kind),
    /// An enum: its body starts with constants (`A, B(1) { … };`), members may follow.
    Enum,
    /// A C# namespace: block (`namespace A.B { … }`) or file-scoped (`namespace A.B;`).
    Namespace,
    /// `fun`, `func`: a function, a method in a type; Kotlin extensions are named `Type.name`.
    Function,
    /// A member named by its keyword: `init`, `deinit`, `subscript`, `constructor`.
    Named,
    /// `val`, `var`, `let`, `event`: one entry per declarator.
    Property,
    /// `typealias`, `associatedtype`: a type named after the keyword.
    Alias,
    /// Swift's `extension Type`, named by the extended type.
    Extension,
    /// Swift's `case a, b(Int)` in an enum.
    Cases,
    /// C#'s `delegate R Name(…);`.
    Delegate,
    /// A statement that declares nothing the outline lists (`package`, `import`, `using`).
    Skip,
}

/// Deeper bodies (types in types in …) are not walked: real code never nests this far, and
/// junk must not overflow the stack. The entry whose body is skipped is marked.
const MAX_DEPTH: usize = 48;

/// Outlines `text` in the language `spec` describes.
pub(crate) fn parse(text: &str, spec: &'static Spec) -> Vec<Entry> {
    let mut masked = lex::mask(text, &spec.lex);
    // No-break spaces indent some real code: read as the two spaces they take in bytes, they
    // separate words instead of starting one (identifiers may hold non-ASCII letters).
    if masked.contains('\u{a0}') {
        masked = masked.replace('\u{a0}', "  ");
    }
    let scanner = Scanner {
        cur: Cursor::new(text, &masked),
        spec,
        lead_bytes: lead_bytes(spec),
        nesting: Nesting::new(MAX_DEPTH),
    };
    let end = scanner.len();
    scanner.body(0, end, &Scope::FILE)
}

/// The first bytes of `spec`'s keywords and modifiers.
fn lead_bytes(spec: &Spec) -> [bool; 256] {
    let mut table = [false; 256];
    let words = spec.keywords.iter().map(|(word, _)| *word);
    for word in words.chain(spec.modifiers.iter().copied()) {
        if let Some(first) = word.bytes().next() {
            table[usize::from(first)] = true;
        }
    }
    table
}

/// Where a body lies.
#[derive(Debug, Clone, Copy)]
struct Scope<'s> {
    /// The name of the type whose body this is (constructors are named after it).
    type_name: Option<&'s str>,
    /// An enum's body: constants come first.
    enum_body: bool,
}

impl Scope<'_> {
    const FILE: Scope<'static> = Scope {
        type_name: None,
        enum_body: false,
    };
}

struct Scanner<'a> {
    cur: Cursor<'a>,
    spec: &'static Spec,
    /// The first bytes of the spec's keywords and modifiers: most words (types, names) start
    /// with none of them and are told apart without a table search.
    lead_bytes: [bool; 256],
    /// Bodies being walked, capped at [`MAX_DEPTH`].
    nesting: Nesting,
}

impl<'a> std::ops::Deref for Scanner<'a> {
    type Target = Cursor<'a>;

    fn deref(&self) -> &Cursor<'a> {
        &self.cur
    }
}

/// One declaration's head, read up to its first distinctive word.
struct Head<'s> {
    /// Where the declaration starts (after its attributes): the entry's first line.
    start: usize,
    /// The keyword (or, for an untagged member, the first word of its type) and where it ends.
    word: &'s str,
    word_end: usize,
    /// Modifiers seen (`enum` and `companion` change what a Kotlin class is).
    enum_modifier: bool,
    companion: bool,
    constant: bool,
}

impl<'a> Scanner<'a> {
    /// The entries of the body `start..end`.
    fn body(&self, start: usize, end: usize, scope: &Scope) -> Vec<Entry> {
        let region = self.m.get(start..end).unwrap_or(&[]);
        self.nesting
            .descend(region, || self.body_at_depth(start, end, scope))
    }

    fn body_at_depth(&self, start: usize, end: usize, scope: &Scope) -> Vec<Entry> {
        let mut out = Vec::new();
        let mut pos = start;
        if scope.enum_body {
            pos = self.enum_constants(start, end, &mut out);
        }
        while pos < end {
            pos = self.skip_ws(pos, end);
            if pos >= end {
                break;
            }
            let next = match self.at(pos) {
                b';' | b',' => pos + 1,
                // An initialiser block (`static { … }`, Kotlin's `init { … }` is a keyword).
                b'{' => self.skip_group(pos, end),
                // A preprocessor line (`#if`, `#region`): both branches are read.
                b'#' => self.line_end(pos, end),
                _ => self.declaration(pos, end, scope, &mut out),
            };
            pos = next.max(pos + 1);
        }
        out
    }

    /// `entry` with the members of the body `open..close` (the braces' positions).
    fn with_body(&self, entry: Entry, open: usize, close: usize, scope: &Scope) -> Entry {
        self.nesting
            .with_children(entry, || self.body(open + 1, close, scope))
    }

    /// The source of a head, for its signature: comments dropped, and masked preprocessor
    /// lines too (C#'s `#if` between a class and its bases). Of a head written twice, `#if A`
    /// one way `#else` another, the signature is the first way.
    fn head_text(&self, start: usize, end: usize) -> String {
        let directives = self.spec.lex.line_comments.contains(&"#");
        let src = self.src.as_bytes().get(start..end.min(self.src.len()));
        if !directives || src.is_none_or(|src| memchr::memchr(b'#', src).is_none()) {
            return self.code_text(start, end);
        }
        let mut out = String::new();
        let mut from = start;
        let mut line_start = start;
        // Inside an `#else`/`#elif` branch: the `#if`s opened in it, not yet closed.
        let mut skipping: Option<usize> = None;
        while line_start < end {
            let line_end = self.line_end(line_start, end);
            let src = self.src.as_bytes();
            let first = (line_start..line_end)
                .find(|i| !src.get(*i).is_some_and(u8::is_ascii_whitespace))
                .unwrap_or(line_end);
            let masked_directive = src.get(first) == Some(&b'#')
                && self
                    .m
                    .get(first..line_end)
                    .is_some_and(|m| m.iter().all(u8::is_ascii_whitespace));
            if masked_directive {
                let directive = self.src.get(first + 1..line_end).unwrap_or("").trim_start();
                // PHP's `#` lines are comments, not directives.
                let word = |w: &str| !self.spec.lex.php && directive.starts_with(w);
                skipping = match skipping {
                    None => {
                        out.push_str(&self.code_text(from, line_start));
                        (word("else") || word("elif")).then_some(0)
                    }
                    Some(open) if word("if") => Some(open + 1),
                    Some(0) if word("endif") => None,
                    Some(open) if word("endif") => Some(open - 1),
                    still => still,
                };
                from = line_end;
            }
            line_start = line_end + 1;
        }
        if skipping.is_none() {
            out.push_str(&self.code_text(from, end));
        }
        out
    }

    fn line_end(&self, pos: usize, end: usize) -> usize {
        self.m
            .get(pos..end.min(self.m.len()))
            .and_then(|rest| memchr::memchr(b'\n', rest))
            .map_or(end, |n| pos + n)
    }

    /// Reads attributes and modifiers from `pos`; `None` when no word follows (an
    /// initialiser block `static { … }`, junk).
    fn head(&self, pos: usize, end: usize) -> Option<Head<'a>> {
        let start = self.skip_attributes(pos, end);
        let mut p = start;
        let mut head = Head {
            start,
            word: "",
            word_end: start,
            enum_modifier: false,
            companion: false,
            constant: false,
        };
        loop {
            // Java's generic methods: `<T> T get()`.
            if self.at(p) == b'<' {
                let after = self.skip_generics(p, end);
                if after > p {
                    p = self.skip_ws(after, end);
                    continue;
                }
            }
            // Java's `@interface`: the annotation marker is part of the keyword. C#'s `~T()`.
            let word_at = if matches!(self.at(p), b'@' | b'~') {
                p + 1
            } else {
                p
            };
            let Some((mut word, _, mut word_end)) = self.word(word_at, end) else {
                // A C# tuple type (`(int, string) F()`) starts a member; a block is no head.
                return (self.at(p) == b'(').then_some(head);
            };
            // Java's `non-sealed` is one modifier written as two words.
            if word == "non" && self.text(word_end, word_end + 7) == "-sealed" {
                word_end += 7;
                word = self.text(p, word_end);
            }
            let leads = word_at == p && self.more_head_follows(word_end, end);
            // A keyword before another declaration keyword is a modifier: Swift's `class
            // func`, Kotlin's `fun interface`, C#'s `record struct`.
            let is_modifier = leads
                && (self.is_modifier(word)
                    || (self.is_keyword(word)
                        && self
                            .next_word(word_end, end)
                            .is_some_and(|w| self.is_keyword(w))));
            if !is_modifier {
                head.word = word;
                head.word_end = word_end;
                return Some(head);
            }
            head.enum_modifier |= word == "enum";
            head.companion |= word == "companion";
            head.constant |= word == "const";
            // Swift's `private(set)`: the modifier's argument is part of it.
            let word_end = if self.at(word_end) == b'(' {
                self.skip_group(word_end, end)
            } else {
                word_end
            };
            p = self.skip_attributes(word_end, end);
        }
    }

    /// What the keyword `word` declares, if it is one.
    fn keyword(&self, word: &str) -> Option<Decl> {
        let first = usize::from(word.bytes().next()?);
        if !self.lead_bytes[first] {
            return None;
        }
        let found = self.spec.keywords.iter().find(|(w, _)| *w == word);
        found.map(|(_, decl)| *decl)
    }

    /// Whether `word` declares something (a keyword other than `import` and the like).
    fn is_keyword(&self, word: &str) -> bool {
        self.keyword(word).is_some_and(|decl| decl != Decl::Skip)
    }

    fn is_modifier(&self, word: &str) -> bool {
        let lead = word
            .bytes()
            .next()
            .is_some_and(|b| self.lead_bytes[usize::from(b)]);
        lead && self.spec.modifiers.contains(&word)
    }

    fn next_word(&self, pos: usize, end: usize) -> Option<&'a str> {
        self.word(self.skip_ws(pos, end), end).map(|(w, _, _)| w)
    }

    /// Whether a modifier word leads a declaration: a word, an attribute or an initialiser
    /// block follows it. Otherwise it is a name (`val data = 1`, `fun open()`).
    fn more_head_follows(&self, word_end: usize, end: usize) -> bool {
        let next = self.skip_ws(word_end, end);
        let byte = self.at(next);
        crate::parse::cursor::is_ident_start(byte)
            || matches!(byte, b'@' | b'[' | b'`' | b'{' | b'(')
    }

    /// Reads the declaration at `pos`, pushing its entries; returns where the walk resumes.
    fn declaration(&self, pos: usize, end: usize, scope: &Scope, out: &mut Vec<Entry>) -> usize {
        let Some(head) = self.head(pos, end) else {
            let at = self.skip_attributes(pos, end);
            // `static { … }`: an initialiser block, no entry.
            let block = self.m[at..end.min(self.m.len())]
                .iter()
                .position(|b| !b.is_ascii_whitespace() && !b.is_ascii_alphabetic())
                .map(|n| at + n)
                .filter(|b| self.at(*b) == b'{');
            return match block {
                Some(open) => self.skip_group(open, end),
                None => self.statement_end(pos, end),
            };
        };
        let keyword = self.keyword(head.word);
        match keyword {
            Some(Decl::Type(_)) if head.enum_modifier => {
                self.type_decl(&head, Kind::Enum, true, end, out)
            }
            Some(Decl::Type(kind)) => self.type_decl(&head, kind, false, end, out),
            Some(Decl::Enum) => self.type_decl(&head, Kind::Enum, true, end, out),
            Some(Decl::Namespace) => self.namespace(&head, end, out),
            Some(Decl::Function) => self.function(&head, end, scope, out),
            Some(Decl::Named) => self.named_member(&head, end, out),
            Some(Decl::Property) => self.properties(&head, head.word_end, end, scope, out),
            Some(Decl::Alias) => self.alias(&head, end, out),
            Some(Decl::Extension) => self.extension(&head, end, out),
            Some(Decl::Cases) => self.cases(head.word_end, end, out),
            Some(Decl::Delegate) => self.untagged(&head, end, scope, Some(Kind::Type), out),
            Some(Decl::Skip) => self.skipped_statement(head.word_end, end),
            None if self.spec.untagged_members && scope.type_name.is_some() => {
                self.untagged(&head, end, scope, None, out)
            }
            None if self.spec.transparent_blocks.contains(&head.word) => {
                self.transparent_block(head.word_end, end, scope, out)
            }
            // C#'s top-level statements (a console program's `Program.cs`): one with a block,
            // `if (…) { … }` or a local function, ends with its block, not at the next `;`
            // past it (which swallowed every type declared after them).
            None if self.spec.untagged_members => self.skipped_statement(head.word_end, end),
            None => self.statement_end(head.word_end, end),
        }
    }

    /// `import a.b;`, `use A, B { A::x insteadof B; }`: to its `;`, or to the end of a block
    /// that ends it.
    fn skipped_statement(&self, from: usize, end: usize) -> usize {
        match self.head_stop(from, end, Stops::BODY) {
            (open, Stop::Body) => self.skip_group(open, end),
            (stop, _) => self.statement_end(stop, end),
        }
    }

    /// `if (…) { … }`, `else { … }`, `try { … }`: the block's declarations are listed as if
    /// it were not there.
    fn transparent_block(
        &self,
        from: usize,
        end: usize,
        scope: &Scope,
        out: &mut Vec<Entry>,
    ) -> usize {
        let (stop, why) = self.head_stop(from, end, Stops::BODY);
        if why != Stop::Body {
            return self.statement_end(stop, end);
        }
        let close = self.close(stop, end).unwrap_or(end);
        let region = self.m.get(stop + 1..close).unwrap_or(&[]);
        let inner = self
            .nesting
            .descend(region, || self.body(stop + 1, close, scope));
        out.extend(inner);
        close + 1
    }

    /// The kind a function has here: a method in a type, a function elsewhere.
    fn function_kind(scope: &Scope) -> Kind {
        if scope.type_name.is_some() {
            Kind::Method
        } else {
            Kind::Function
        }
    }

    /// A type declaration: `class Name<T>(…) : Base where … { body }` or one with no body.
    fn type_decl(
        &self,
        head: &Head,
        kind: Kind,
        enum_body: bool,
        end: usize,
        out: &mut Vec<Entry>,
    ) -> usize {
        let p = self.skip_ws(head.word_end, end);
        let named = self.declared_name(p, end, false);
        let (name, after_name) = match named {
            // `companion object { … }` is named `Companion`, as Kotlin names it.
            Some((name, e)) if !(head.companion && name == "where") => (name, e),
            _ if head.companion || head.word == "object" => ("Companion".to_string(), p),
            // C#'s `extension(Receiver r) { … }` is named by its keyword; its receiver is the
            // signature's.
            _ if head.word == "extension" && matches!(self.at(p), b'(' | b'<') => {
                ("extension".to_string(), p)
            }
            _ => return self.statement_end(p, end),
        };
        let stops = Stops::BODY;
        let (mut stop, mut why) = self.head_stop(after_name, end, stops);
        // Kotlin's `class A\n  internal constructor(…) {`: the primary constructor may open
        // the next line.
        if why == Stop::End && self.at(stop) == b'\n' {
            if let Some(ctor) = self.head(stop, end).filter(|h| h.word == "constructor") {
                (stop, why) = self.head_stop(ctor.word_end, end, stops);
            }
        }
        let sig = signature(&self.head_text(head.start, stop));
        let line = self.line(head.start);
        // A record's parameters are its properties; a C# 12 class's or struct's primary
        // constructor parameters are only in scope (`class C(int x)` has no member `x`).
        let record = (self.head_text(head.start, head.word_end).split_whitespace())
            .any(|word| word == "record");
        let record_params = match record {
            true => self.record_components(after_name, stop, end),
            false => self.constructor_properties(after_name, stop, end),
        };
        if why != Stop::Body {
            let last = if self.at(stop) == b';' {
                stop
            } else {
                stop.saturating_sub(1)
            };
            let entry = Entry::new(kind, name, line, self.last_code_line(head.start, last + 1))
                .with_signature(sig)
                .with_children(record_params);
            out.push(entry);
            return self.statement_end(stop, end);
        }
        let close = self.close(stop, end).unwrap_or(end);
        let entry = Entry::new(
            kind,
            name.as_str(),
            line,
            self.line(close.min(self.len().saturating_sub(1))),
        )
        .with_signature(sig);
        let inner = Scope {
            type_name: Some(&name),
            enum_body,
        };
        let mut entry = self.with_body(entry, stop, close, &inner);
        if !record_params.is_empty() {
            let mut children = record_params;
            children.append(&mut entry.children);
            entry.children = children;
        }
        out.push(entry);
        close + 1
    }

    /// An enum's constants, from the body's start to the `;` ending them (or the body's end):
    /// `A, B(1), C { … }`. Returns where the members start.
    fn enum_constants(&self, start: usize, end: usize, out: &mut Vec<Entry>) -> usize {
        let mut pos = start;
        loop {
            let at = self.skip_attributes(pos, end);
            if at >= end {
                return end;
            }
            let Some((name, name_end)) = self.declared_name(at, end, false) else {
                return at;
            };
            // Swift writes `case`; a member keyword or a modifier means the constants are done
            // (Java: `enum E { ; void f() {} }` has none).
            let is_keyword = self.keyword(&name).is_some() || self.is_modifier(&name);
            if is_keyword {
                return at;
            }
            let stops = Stops {
                body: true,
                comma: true,
                ..Stops::END
            };
            let (mut stop, mut why) = self.head_stop(name_end, end, stops);
            let sig = signature(&self.head_text(at, stop));
            let mut entry = Entry::new(
                Kind::Constant,
                name,
                self.line(at),
                self.last_code_line(at, stop),
            );
            if why == Stop::Body {
                let close = self.close(stop, end).unwrap_or(end);
                let entry_end = self.line(close.min(self.len().saturating_sub(1)));
                entry = Entry::new(Kind::Constant, entry.name(), entry.line, entry_end);
                entry = self.with_body(entry, stop, close, &Scope::FILE_TYPE);
                let commas = Stops::COMMA;
                (stop, why) = self.head_stop(close + 1, end, commas);
            }
            out.push(entry.with_signature(sig));
            match why {
                Stop::Comma => pos = stop + 1,
                Stop::End if self.at(stop) == b';' => return stop + 1,
                _ => return stop,
            }
        }
    }

    /// A C# namespace: `namespace A.B { … }` with its members as children, or `namespace
    /// A.B;` owning the rest of the file.
    fn namespace(&self, head: &Head, end: usize, out: &mut Vec<Entry>) -> usize {
        let p = self.skip_ws(head.word_end, end);
        // PHP's global namespace block, `namespace { … }`: its members are the file's.
        if self.at(p) == b'{' {
            return self.transparent_block(p, end, &Scope::FILE, out);
        }
        let Some(name_end) = self.path_end(p, end) else {
            return self.statement_end(p, end);
        };
        let name = self.text(p, name_end);
        let line = self.line(head.start);
        let sig = signature(&self.head_text(head.start, name_end));
        let (stop, why) = self.head_stop(name_end, end, Stops::BODY);
        if why == Stop::Body {
            let close = self.close(stop, end).unwrap_or(end);
            let entry = Entry::new(
                Kind::Namespace,
                name,
                line,
                self.line(close.min(self.len().saturating_sub(1))),
            )
            .with_signature(sig);
            out.push(self.with_body(entry, stop, close, &Scope::FILE));
            return close + 1;
        }
        let rest = self.statement_end(stop, end);
        // It owns the file up to the next file-scoped namespace (one is all C# allows; junk or
        // concatenated files may hold more, and must not nest them ever deeper).
        let until = self.next_file_scoped_namespace(rest, end);
        let last = self.last_code_line(head.start, until);
        let entry = Entry::new(Kind::Namespace, name, line, last).with_signature(sig);
        let entry = entry.with_children(self.body(rest, until, &Scope::FILE));
        out.push(entry);
        until
    }

    /// The start of the next `namespace A.B;` at depth 0 in `from..end`, or `end`.
    fn next_file_scoped_namespace(&self, from: usize, end: usize) -> usize {
        let mut pos = from;
        while pos < end {
            match self.at(pos) {
                b'{' | b'(' | b'[' => pos = self.skip_group(pos, end),
                byte if crate::parse::cursor::is_ident_start(byte) => {
                    let Some((word, _, word_end)) = self.word(pos, end) else {
                        return end;
                    };
                    if word == "namespace"
                        && pos
                            .checked_sub(1)
                            .is_none_or(|b| !crate::parse::cursor::is_ident_byte(self.at(b)))
                    {
                        let after = self.skip_ws(word_end, end);
                        let path_end = self.path_end(after, end).unwrap_or(after);
                        if self.at(self.skip_ws(path_end, end)) == b';' {
                            return pos;
                        }
                    }
                    pos = word_end;
                }
                _ => pos += 1,
            }
        }
        end
    }
}

impl Scope<'_> {
    /// The body of an enum constant or an anonymous type: members, no constructor name.
    const FILE_TYPE: Scope<'static> = Scope {
        type_name: Some(""),
        enum_body: false,
    };
}

mod members;
#[cfg(test)]
mod tests;
