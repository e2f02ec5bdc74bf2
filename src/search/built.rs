//! Where a type is built: the uses of its name that make a value of it (`new Foo(`, Kotlin's
//! `Foo(`, Go's `&Foo{`, Ruby's `Foo.new`, Rust's `Foo {` or `Foo::new(`), and the functions
//! declared to return it (factories). "Where is a `CacheControl` constructed" was the one
//! part of a type question that a type's picture could not answer: an agent read every use
//! of the name instead, or stopped at the constructor calls and missed the factory that
//! callers use.

use crate::lang::Language;
use crate::outline::Kind;
use crate::parse::lex::is_word_byte;
use crate::search::EntryRef;

/// Whether the code line `line` (comments and strings as written) makes a value of the type
/// `name` in `language` at one of the places it names it.
pub fn constructs(language: Language, line: &str, name: &str) -> bool {
    line.match_indices(name).any(|(at, _)| {
        let before = &line[..at];
        let after = &line[at + name.len()..];
        let whole = !before.bytes().next_back().is_some_and(is_word_byte)
            && !after.bytes().next().is_some_and(is_word_byte);
        whole && builds_here(language, before, after)
    })
}

/// Whether the name between `before` and `after` is built there.
fn builds_here(language: Language, before: &str, after: &str) -> bool {
    let before = before.trim_end();
    // `new Request.Builder()` builds the nested type; Ruby's `.new`, Swift's `.init(` and
    // Rust's associated constructors are told apart below.
    let nested = after
        .strip_prefix('.')
        .or_else(|| after.strip_prefix("::"))
        .is_some_and(|rest| rest.bytes().next().is_some_and(|b| b.is_ascii_uppercase()));
    if nested {
        return false;
    }
    if ends_with_word(before, "new")
        || before.ends_with("make_unique<")
        || before.ends_with("make_shared<")
    {
        return true;
    }
    // Generic arguments written after the name (`Foo<T>(`, `Foo::<T>::new(`).
    let after = skip_generics(after.strip_prefix("::").map_or(after, |rest| {
        if rest.starts_with('<') {
            rest
        } else {
            after
        }
    }));
    match language {
        Language::Ruby => {
            after.starts_with(".new") && !after[4..].bytes().next().is_some_and(is_word_byte)
        }
        Language::Go => {
            (after.starts_with('{') && !before.ends_with(']'))
                || (before.ends_with("new(") && after.starts_with(')'))
        }
        Language::Rust => rust_builds(before, after),
        Language::Kotlin | Language::Swift | Language::Python | Language::Cpp => {
            call_builds(language, before, after)
        }
        _ => false,
    }
}

/// Rust: a struct literal `Foo {` (not a type written in a declaration, a signature or a
/// bound), a tuple struct `Foo(`, or an associated constructor `Foo::new(`.
fn rust_builds(before: &str, after: &str) -> bool {
    let declared = [
        "impl", "for", "dyn", "struct", "enum", "union", "trait", "type", "mod",
    ]
    .iter()
    .any(|word| ends_with_word(before, word));
    let typed = before.ends_with("->")
        || (before.ends_with(':') && !before.ends_with("::"))
        || before.ends_with('&')
        || before.ends_with("mut")
        || before.ends_with('<')
        || before.ends_with(',');
    let literal = after.trim_start().starts_with('{') && !declared && !typed;
    // `Ids::Outline(x)` is a variant of another type, `module::Outline {` the type.
    let variant = before.strip_suffix("::").is_some_and(|path| {
        let segment = path
            .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
            .next();
        segment.is_some_and(|s| s.starts_with(|c: char| c.is_ascii_uppercase()))
    });
    let tuple = after.starts_with('(') && !before.ends_with('.') && !variant;
    let associated = ["::new(", "::default(", "::with_", "::from("]
        .iter()
        .any(|call| after.starts_with(call));
    literal || tuple || associated
}

/// Kotlin, Swift, Python and C++, which build by calling the type: `Foo(` (not an
/// annotation, a member of something else, or Kotlin's supertype call), Swift's `Foo.init(`,
/// C++'s `Foo{`.
fn call_builds(language: Language, before: &str, after: &str) -> bool {
    let annotation = before.ends_with('@');
    let member = before.ends_with('.') || before.ends_with("::");
    // Kotlin's `class Bar : Foo(x)` calls a superclass constructor, not a build site.
    let supertype = language == Language::Kotlin && before.ends_with(':');
    let swift_init = language == Language::Swift && after.starts_with(".init(");
    let cpp_braces = language == Language::Cpp && after.starts_with('{');
    (after.starts_with('(') && !annotation && !member && !supertype) || swift_init || cpp_braces
}

/// The members of the type `name` that the code line `line` calls on the type itself
/// (`CacheControl.parse(`, `Foo::from_str(`, `Foo.create(`): a factory's callers build a
/// value too, one step away.
pub fn members_called(line: &str, name: &str) -> Vec<String> {
    line.match_indices(name)
        .filter_map(|(at, _)| {
            let before = line[..at].bytes().next_back();
            if before.is_some_and(|b| is_word_byte(b) || b == b'.') {
                return None;
            }
            let after = &line[at + name.len()..];
            let rest = after
                .strip_prefix("::")
                .or_else(|| after.strip_prefix('.'))?;
            let len = rest.bytes().take_while(|b| is_word_byte(*b)).count();
            let tail = &rest[len..];
            let tail = tail.strip_prefix("::").unwrap_or(tail);
            let called = skip_generics(tail).trim_start().starts_with('(');
            (len > 0 && called).then(|| rest[..len].to_string())
        })
        .collect()
}

/// Whether `text` ends with the whole word `word`.
fn ends_with_word(text: &str, word: &str) -> bool {
    text.strip_suffix(word)
        .is_some_and(|rest| !rest.bytes().next_back().is_some_and(is_word_byte))
}

/// `text` past a leading balanced `<…>`, or `text` itself.
fn skip_generics(text: &str) -> &str {
    if !text.starts_with('<') {
        return text;
    }
    let mut depth = 0usize;
    for (at, byte) in text.bytes().enumerate() {
        match byte {
            b'<' => depth += 1,
            b'>' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return &text[at + 1..];
                }
            }
            b'\n' | b';' | b'{' => return text,
            _ => {}
        }
    }
    text
}

/// Whether `entry`, a function or method, is declared to return the type `name` (itself,
/// a pointer to it, or a nullable one): a factory. The type's own constructors, and its
/// methods that return it (a builder's fluent setters, `copy()`), make nothing new for a
/// reader asking where it is built, unless they are static.
pub fn returns_type(language: Language, entry: &EntryRef, name: &str) -> bool {
    if !matches!(entry.kind, Kind::Function | Kind::Method) {
        return false;
    }
    let Some(signature) = entry.signature.as_deref() else {
        return false;
    };
    let own = entry
        .owner
        .as_deref()
        .is_some_and(|owner| owner.eq_ignore_ascii_case(name));
    let is_static = signature.split_whitespace().any(|word| word == "static");
    if own && !is_static {
        return false;
    }
    let Some((name_at, close)) = parameter_list(signature, entry.bare_name()) else {
        return false;
    };
    // A getter named after the type (`fun request(): Request`, `getRequest()`) hands out
    // one that exists.
    let bare = entry.bare_name();
    let getter = bare.eq_ignore_ascii_case(name)
        || bare
            .strip_prefix("get")
            .is_some_and(|rest| rest.eq_ignore_ascii_case(name));
    let parameters = signature[name_at..close]
        .split_once('(')
        .map_or("", |(_, p)| p);
    if getter && parameters.trim_end_matches(')').trim().is_empty() {
        return false;
    }
    let leading_return = matches!(
        language,
        Language::Java | Language::CSharp | Language::C | Language::Cpp
    );
    let returned = match leading_return {
        true => &signature[..name_at],
        // Up to a body or an expression body (`: Foo = make()`).
        false => signature[close..]
            .split(['{', '='])
            .next()
            .unwrap_or_default(),
    };
    has_word(returned, name)
}

/// Where `bare` starts in `signature` as the name of its parameter list, and where that
/// list closes.
fn parameter_list(signature: &str, bare: &str) -> Option<(usize, usize)> {
    if bare.is_empty() {
        return None;
    }
    let (name_at, _) = signature.match_indices(bare).find(|(at, _)| {
        let rest = skip_generics(&signature[at + bare.len()..]);
        let before = signature[..*at].bytes().next_back();
        !before.is_some_and(is_word_byte) && (rest.starts_with('(') || rest.starts_with('['))
    })?;
    let open = name_at + signature[name_at..].find('(')?;
    let mut depth = 0usize;
    for (at, byte) in signature[open..].bytes().enumerate() {
        match byte {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some((name_at, open + at + 1));
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether `word` stands in `text` as a whole identifier.
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        !text[..at].bytes().next_back().is_some_and(is_word_byte)
            && !text[at + word.len()..]
                .bytes()
                .next()
                .is_some_and(is_word_byte)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outline::Entry;

    #[test]
    fn members_called_on_the_type_are_named() {
        assert_eq!(members_called("  x = Foo.parse(headers)", "Foo"), ["parse"]);
        assert_eq!(
            members_called("Foo::from_str::<T>(s) + Foo::X", "Foo"),
            ["from_str"]
        );
        assert!(members_called("a.Foo.parse(x); Foo.FIELD; FooBar.make()", "Foo").is_empty());
    }

    #[test]
    fn a_value_is_built_where_the_language_writes_a_construction() {
        let yes = [
            (Language::Java, "    return new Foo(a, b);"),
            (Language::Java, "List<Foo> x = new Foo<>();"),
            (Language::CSharp, "var f = new Foo { A = 1 };"),
            (Language::Php, "$f = new Foo($x);"),
            (Language::TypeScript, "const f = new Foo<T>(x)"),
            (Language::Kotlin, "  return Foo(noCache = true)"),
            (Language::Swift, "let f = Foo(a: 1)"),
            (Language::Swift, "let f = Foo.init(a: 1)"),
            (Language::Python, "    app = Foo(__name__)"),
            (Language::Go, "\tparsed = &Foo{Err: err}"),
            (Language::Go, "\treturn Foo{}"),
            (Language::Go, "\tf := new(Foo)"),
            (Language::Ruby, "  @foo = Foo.new(x)"),
            (Language::Rust, "    Foo { a, b }"),
            (Language::Rust, "    let f = Foo::new();"),
            (Language::Rust, "    Ok(Foo(1))"),
            (Language::Rust, "    let f = crate::foo::Foo { a };"),
            (Language::Cpp, "auto f = std::make_unique<Foo>(1);"),
        ];
        for (language, line) in yes {
            assert!(constructs(language, line, "Foo"), "{language:?}: {line}");
        }
        let no = [
            (Language::Java, "    Foo foo = make();"),
            (Language::Java, "    return FooBar(x);"),
            (Language::Kotlin, "  @Foo(1) fun f() {}"),
            (Language::Kotlin, "class Bar : Foo(x) {"),
            (Language::Kotlin, "  val x: Foo = make()"),
            (Language::Kotlin, "  x.Foo(1)"),
            (Language::Python, "class Bar(Foo):"),
            (Language::Python, "    isinstance(x, Foo)"),
            (Language::Go, "\tvar errs []Foo{}"),
            (Language::Go, "func (f *Foo) Run() {"),
            (Language::Rust, "impl Foo {"),
            (Language::Rust, "fn make() -> Foo {"),
            (Language::Rust, "impl Display for Foo {"),
            (Language::Rust, "            Ids::Foo(outline) => 1,"),
            (Language::Ruby, "  Foo.newest"),
            (Language::Java, "    Foo foo = new Foo.Builder().build();"),
            (Language::Kotlin, "    val b = Foo.Builder()"),
            (Language::Lua, "local f = Foo(1)"),
        ];
        for (language, line) in no {
            assert!(!constructs(language, line, "Foo"), "{language:?}: {line}");
        }
    }

    fn entry(kind: Kind, name: &str, signature: &str) -> EntryRef {
        let outline = crate::outline::Outline::new(
            Language::Kotlin,
            10,
            0,
            vec![Entry::new(kind, name, 1, 2).with_signature(signature)],
        );
        EntryRef::of(&outline.entries[0], "1".to_string())
    }

    #[test]
    fn a_factory_is_declared_to_return_the_type() {
        let factory = |language, kind, name, signature| {
            returns_type(language, &entry(kind, name, signature), "Foo")
        };
        let method = Kind::Method;
        assert!(factory(
            Language::Kotlin,
            method,
            "Companion.parse",
            "fun parse(h: Headers): Foo"
        ));
        assert!(factory(
            Language::Kotlin,
            Kind::Function,
            "Foo.Builder.commonBuild",
            "internal fun Foo.Builder.commonBuild(): Foo"
        ));
        assert!(factory(
            Language::Go,
            method,
            "(*Context).Error",
            "(c *Context) Error(err error) *Foo"
        ));
        assert!(factory(
            Language::Python,
            Kind::Function,
            "make",
            "def make(x) -> Foo:"
        ));
        assert!(factory(
            Language::Java,
            method,
            "Maker.make",
            "public static Foo make(int x)"
        ));
        assert!(factory(
            Language::Java,
            method,
            "Foo.of",
            "public static Foo of(int x)"
        ));
        // The receiver of an extension is no return type; a builder's own setters return it.
        assert!(!factory(
            Language::Kotlin,
            Kind::Function,
            "Foo.render",
            "fun Foo.render(): String"
        ));
        assert!(!factory(
            Language::Java,
            method,
            "Foo.copy",
            "public Foo copy()"
        ));
        assert!(!factory(
            Language::Java,
            method,
            "Maker.use",
            "public void use(Foo foo)"
        ));
        assert!(!factory(
            Language::Kotlin,
            Kind::Class,
            "Foo",
            "class Foo(x: Int)"
        ));
        assert!(!factory(
            Language::Kotlin,
            method,
            "Call.foo",
            "fun foo(): Foo"
        ));
        assert!(!factory(
            Language::Java,
            method,
            "Call.getFoo",
            "public Foo getFoo()"
        ));
        assert!(factory(
            Language::Kotlin,
            method,
            "Call.foo",
            "fun foo(x: Int): Foo"
        ));
    }
}
