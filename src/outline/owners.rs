//! Owners as facts of the model: the type a member belongs to and, for an impl block and its
//! members, the trait it implements. [`Outline::new`](super::Outline::new) fills them once,
//! from what the tree tells (a member of a class, struct or impl block is owned by it) and from
//! the owner a parser wrote into a name (Go's `(*T).m`, C++'s `T::m`, Kotlin's `fun Foo.bar()`,
//! Lua's `M:f`), so that no consumer parses a name back.
//!
//! They are kept as byte offsets into the entry's qualified name (its name is the tail of it) (every owner is
//! written in the qualified name: the parent's segment or the name itself), 10 bytes in all
//! rather than a string each.

use super::{Entry, Kind};

/// A byte range in an entry's `qualname`; empty means none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
struct Span {
    start: u16,
    end: u16,
}

impl Span {
    /// `start..start + len`, when it fits the offsets kept (a qualified name past 64 KiB, a
    /// minified file's key, has no owner facts) and is not empty.
    fn at(start: usize, len: usize) -> Option<Span> {
        let end = u16::try_from(start.checked_add(len)?).ok()?;
        let start = u16::try_from(start).ok()?;
        (end > start).then_some(Span { start, end })
    }

    fn of(self, qualname: &str) -> Option<&str> {
        (self.end > self.start)
            .then(|| qualname.get(usize::from(self.start)..usize::from(self.end)))
            .flatten()
    }
}

/// Where an entry's owner facts lie in its strings; filled by
/// [`Outline::new`](super::Outline::new), empty on an entry built by hand until then. Read
/// them with [`Entry::bare_name`], [`Entry::owner`], [`Entry::implements`] and
/// [`Entry::name_owners`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Owners {
    /// Where the bare name starts in `name`: past the owners written into it (`(*T).` of
    /// `(*T).m`); 0 when the name holds none.
    bare_at: u16,
    /// The type the entry belongs to (for an impl block or an extension, the type it adds to).
    owner: Span,
    /// The trait or interface an impl block implements, and so do its members.
    implements: Span,
}

impl Entry {
    /// The name without the owners a parser wrote into it: Go names a method `T.Method` or
    /// `(*T).Method`, C++ a member defined outside its class `Type::method`, SQL an object
    /// `schema.table`. Lookups by name compare this (`--find Method`, `--refs Method`).
    pub fn bare_name(&self) -> &str {
        let name = self.name();
        name.get(usize::from(self.owners.bare_at)..).unwrap_or(name)
    }

    /// Whether the owner is written in the entry's own name (`(*T).m`, `T::m`, Kotlin's
    /// `Foo.bar`, an impl block's type): a member declared outside its type's body. Ruby's
    /// `self.x` is not: its owner is the class it sits in.
    pub fn owner_is_written(&self) -> bool {
        let own_name_at = self.name_at as usize;
        self.owner().is_some() && usize::from(self.owners.owner.start) >= own_name_at
    }

    /// The type this entry belongs to, as a lookup names it (`T` for Go's `(*T).m`, `Vec` for
    /// `impl<T> Vec<T>`, the class for a method declared in it); for an impl block or a Swift
    /// extension, the type it adds to.
    pub fn owner(&self) -> Option<&str> {
        self.owners.owner.of(self.qualname())
    }

    /// The trait or interface implemented, for `impl Trait for Type` and its members
    /// (`Display`, without path or generics).
    pub fn implements(&self) -> Option<&str> {
        self.owners.implements.of(self.qualname())
    }

    /// The owners written into the name, outermost first, as a lookup names them: Go's
    /// pointer receiver `(*T)` as `T`, generic arguments dropped (`Vec<T>::push` is owned by
    /// `Vec`). Empty when the name holds none (see [`Entry::bare_name`]).
    pub fn name_owners(&self) -> impl Iterator<Item = &str> {
        let written = self
            .name()
            .get(..usize::from(self.owners.bare_at))
            .unwrap_or_default();
        let separator = if written.ends_with("::") { "::" } else { "." };
        // Ruby's `def self.x` names its owner `self`: the entry it sits in, which lookups
        // reach as an ancestor.
        written
            .strip_suffix(separator)
            .unwrap_or(written)
            .split(separator)
            .filter(|owner| !owner.is_empty() && *owner != "self")
            .map(plain_owner)
    }

    /// The names this entry answers to as the owner of its members: its bare name and, for
    /// an impl block, the type and the trait (`fmt::Display for Store<T>` answers to
    /// `Display` and `Store`).
    pub fn owner_names(&self) -> impl Iterator<Item = &str> {
        let sides = match self.kind {
            Kind::Impl => [self.owner(), self.implements()],
            _ => [None, None],
        };
        std::iter::once(self.bare_name()).chain(sides.into_iter().flatten())
    }
}

/// What a child's owner facts come from: the type its parent stands for, if the parent is one.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Owning {
    owner: Span,
    implements: Span,
}

/// Fills `entry`'s owner facts (its `name` and `qualname` final, on one line) under a parent
/// that stands for `owning`, and returns what it stands for to its own children.
pub(super) fn fill(entry: &mut Entry, owning: Owning) -> Owning {
    let (owners, owning) = owners_of(entry, owning);
    entry.owners = owners;
    owning
}

/// [`fill`]'s facts for `entry`: its own, and what it stands for to its children.
fn owners_of(entry: &Entry, owning: Owning) -> (Owners, Owning) {
    let name = entry.name();
    // The name ends the qualified name and is a slice of it: a span is where a part of the
    // name lies in the qualified name.
    let qualname = entry.qualname();
    let span = |part: &str| Span::at(offset_in(qualname, part), part.len());
    let mut owners = Owners::default();
    if let Some((written, bare)) = written_owners(entry.kind, name) {
        owners.bare_at = u16::try_from(name.len() - bare.len()).unwrap_or(0);
        let innermost = written.rsplit(['.', ':']).next().unwrap_or(written);
        // An impl block's name is a type, not a member: its owner is the type it names.
        if owners.bare_at > 0 && innermost != "self" && entry.kind != Kind::Impl {
            owners.owner = span(plain_owner(innermost)).unwrap_or_default();
        }
    }
    if owners.owner == Span::default() && entry.kind == Kind::Impl {
        let (trait_side, type_side) = impl_sides(name);
        owners.owner = type_side.and_then(span).unwrap_or_default();
        owners.implements = trait_side.and_then(span).unwrap_or_default();
    }
    if owners.owner == Span::default() {
        owners.owner = owning.owner;
        owners.implements = owning.implements;
    }
    let stands_for = match entry.kind {
        Kind::Impl => Owning {
            owner: owners.owner,
            implements: owners.implements,
        },
        Kind::Class | Kind::Struct | Kind::Enum | Kind::Union | Kind::Trait | Kind::Interface => {
            let bare = name.get(usize::from(owners.bare_at)..).unwrap_or(name);
            Owning {
                owner: span(plain_owner(bare)).unwrap_or_default(),
                implements: Span::default(),
            }
        }
        _ => Owning::default(),
    };
    (owners, stands_for)
}

/// Whether `name` holds nothing that [`written_owners`] or [`plain_owner`] would cut: all
/// ASCII, no whitespace, no path separator (`.`, `:`) and no bracket they strip (`(`, `<`,
/// `[`). Most names are such identifiers, and one pass over their bytes answers for the
/// char-by-char searches those make (they cost more than the rest of the tree's walk), and
/// both return at once.
fn is_plain(name: &str) -> bool {
    name.bytes()
        .all(|b| b.is_ascii_graphic() && !matches!(b, b'.' | b':' | b'(' | b'<' | b'['))
}

/// Where `part`, a slice of `whole`, starts in it.
fn offset_in(whole: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(whole.as_ptr() as usize)
}

/// Splits `name` into the owners a parser wrote into it and its bare name, when it is such a
/// name: no spaces, no empty segment, and an entry kind whose names are identifiers (a
/// heading's `v1.2` or a CSS rule's `div.note` are not paths). The separator is `::` if the
/// name has one, else `.`.
fn written_owners(kind: Kind, name: &str) -> Option<(&str, &str)> {
    if matches!(
        kind,
        Kind::Heading | Kind::Rule | Kind::AtRule | Kind::Element | Kind::Document
    ) || is_plain(name)
        || name.contains(char::is_whitespace)
    {
        return None;
    }
    // Byte and char patterns, not `&str` ones: a substring searcher is set up per call, and
    // this runs for every entry of every outline (5% of a Kotlin parse).
    let (owners, bare, complete) = if name.as_bytes().windows(2).any(|pair| pair == b"::") {
        let (owners, bare) = name.rsplit_once("::")?;
        (
            owners,
            bare,
            owners.split("::").all(|owner| !owner.is_empty()),
        )
    } else {
        let (owners, bare) = name.rsplit_once('.')?;
        (
            owners,
            bare,
            owners.split('.').all(|owner| !owner.is_empty()),
        )
    };
    (complete && !bare.is_empty()).then_some((owners, bare))
}

/// An owner as a lookup names it: `(*T)` is `T`, `Vec<T>` is `Vec`, Go's `List[T]` is `List`.
fn plain_owner(owner: &str) -> &str {
    if is_plain(owner) {
        return owner;
    }
    let owner = owner
        .strip_prefix("(*")
        .and_then(|inner| inner.strip_suffix(')'))
        .unwrap_or(owner);
    owner.split(['<', '[']).next().unwrap_or(owner)
}

/// The trait and the type an impl block names (`fmt::Display for Store<T>`: `Display`,
/// `Store`; Swift's `extension Foo` is named `Foo`): each the last path segment of the
/// identifier, behind references, `dyn` and generics.
fn impl_sides(name: &str) -> (Option<&str>, Option<&str>) {
    match name.rsplit_once(" for ") {
        Some((trait_side, type_side)) => (type_in(trait_side), type_in(type_side)),
        None => (None, type_in(name)),
    }
}

/// The type a written type names: `&mut dyn Sink` is `Sink`, `core::fmt::Debug` is `Debug`,
/// `[String]` is `String`.
fn type_in(written: &str) -> Option<&str> {
    let mut subject = written.trim().trim_start_matches(['&', '*', '(', '[', '!']);
    while let Some(rest) = ["dyn ", "impl ", "mut ", "const "]
        .iter()
        .find_map(|keyword| subject.strip_prefix(keyword))
    {
        subject = rest.trim_start_matches(['&', '*']);
    }
    let path = subject
        .split(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | ':' | '.')))
        .next()?;
    let ident = path.rsplit([':', '.']).next()?;
    (!ident.is_empty()).then_some(ident)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Language;
    use crate::outline::Outline;

    fn outlined(entries: Vec<Entry>) -> Outline {
        Outline::new(Language::Rust, 100, 0, entries)
    }

    #[test]
    fn owners_written_into_a_name_split_from_the_bare_name() {
        let split = |kind: Kind, name: &str| {
            let outline = outlined(vec![Entry::new(kind, name, 1, 1)]);
            let entry = &outline.entries[0];
            let owners: Vec<String> = entry.name_owners().map(str::to_string).collect();
            let owner = entry.owner().map(str::to_string);
            (owners, entry.bare_name().to_string(), owner)
        };
        let path = |owners: &[&str], bare: &str| {
            let list = owners.iter().map(|o| o.to_string()).collect::<Vec<_>>();
            let owner = owners.last().map(|o| o.to_string());
            (list, bare.to_string(), owner)
        };
        assert_eq!(
            split(Kind::Method, "(*Queue).Push"),
            path(&["Queue"], "Push")
        );
        let go = outlined(vec![Entry::new(Kind::Method, "(*Queue).Push", 1, 1)]);
        assert!(go.entries[0].owner_is_written());
        assert_eq!(split(Kind::Method, "Queue.Len"), path(&["Queue"], "Len"));
        assert_eq!(
            split(Kind::Method, "(*List[T]).Push"),
            path(&["List"], "Push")
        );
        assert_eq!(
            split(Kind::Function, "ns::Vec<T>::push"),
            path(&["ns", "Vec"], "push")
        );
        assert_eq!(
            split(Kind::Table, "public.users"),
            path(&["public"], "users")
        );
        // Not paths: plain names, prose, selectors, half-written paths.
        for (kind, name) in [
            (Kind::Function, "run"),
            (Kind::Heading, "v1.2"),
            (Kind::Rule, "div.note"),
            (Kind::Rule, ".btn"),
            (Kind::Method, "Queue."),
            (Kind::Function, "::main"),
            (Kind::Function, "a..b"),
        ] {
            assert_eq!(split(kind, name), path(&[], name), "{kind:?} {name}");
        }
    }

    #[test]
    fn plain_names_are_those_no_owner_search_would_cut() {
        let names = [
            "run",
            "Queue.Len",
            "(*Queue).Push",
            "ns::push",
            "Vec<T>",
            "List[T]",
            "a b",
            "a\u{a0}b",
            "caf\u{e9}",
            "std:x",
            "x-y",
            "$count",
            "operator==",
            "@Input",
            "",
        ];
        for name in names {
            if is_plain(name) {
                assert_eq!(written_owners(Kind::Method, name), None, "{name}");
                assert_eq!(plain_owner(name), name, "{name}");
            }
        }
        let plain: Vec<&str> = names.into_iter().filter(|name| is_plain(name)).collect();
        assert_eq!(plain, ["run", "x-y", "$count", "operator==", "@Input", ""]);
    }

    #[test]
    fn members_are_owned_by_the_type_they_are_declared_in() {
        let method = |name: &str| Entry::new(Kind::Method, name, 3, 4);
        let outline = outlined(vec![
            Entry::new(Kind::Impl, "fmt::Display for Store<T>", 1, 9)
                .with_children(vec![method("fmt")]),
            Entry::new(Kind::Class, "Cart", 10, 19).with_children(vec![
                method("total"),
                // Ruby's `class << self`: owned by the class it sits in.
                method("self.build"),
                Entry::new(Kind::Class, "Line", 14, 18).with_children(vec![method("price")]),
            ]),
            Entry::new(Kind::Impl, "Vec", 20, 29).with_children(vec![method("push")]),
            Entry::new(Kind::Module, "util", 30, 39).with_children(vec![method("helper")]),
        ]);
        let facts: Vec<(&str, Option<&str>, Option<&str>)> = outline
            .walk()
            .into_iter()
            .map(|(_, e)| (e.bare_name(), e.owner(), e.implements()))
            .collect();
        let written: Vec<&str> = outline
            .walk()
            .into_iter()
            .filter(|(_, e)| e.owner_is_written())
            .map(|(_, e)| e.bare_name())
            .collect();
        assert_eq!(
            written,
            ["fmt::Display for Store<T>", "Vec"],
            "impl blocks name theirs"
        );
        assert_eq!(
            facts,
            [
                ("fmt::Display for Store<T>", Some("Store"), Some("Display")),
                ("fmt", Some("Store"), Some("Display")),
                ("Cart", None, None),
                ("total", Some("Cart"), None),
                ("build", Some("Cart"), None),
                ("Line", Some("Cart"), None),
                ("price", Some("Line"), None),
                ("Vec", Some("Vec"), None),
                ("push", Some("Vec"), None),
                ("util", None, None),
                ("helper", None, None),
            ]
        );
        let imp = &outline.entries[0];
        let names: Vec<&str> = imp.owner_names().collect();
        assert_eq!(names, ["fmt::Display for Store<T>", "Store", "Display"]);
    }

    #[test]
    fn impl_sides_name_the_types_behind_references_and_paths() {
        for (name, want) in [
            (
                "Drop for AndroidSystemProperties",
                (Some("Drop"), Some("AndroidSystemProperties")),
            ),
            (
                "Display for dyn Expected + '_",
                (Some("Display"), Some("Expected")),
            ),
            ("AsRef<[u8]> for Buffer", (Some("AsRef"), Some("Buffer"))),
            ("core::fmt::Debug", (None, Some("Debug"))),
            (
                "std::io::Write for &mut Reader<R>",
                (Some("Write"), Some("Reader")),
            ),
            ("[String]", (None, Some("String"))),
            ("Outer.Inner", (None, Some("Inner"))),
            ("<>", (None, None)),
        ] {
            assert_eq!(impl_sides(name), want, "{name}");
        }
    }

    #[test]
    fn owners_past_the_kept_offsets_are_left_out() {
        let long = "k".repeat(70_000);
        let outline = outlined(vec![Entry::new(Kind::Class, long.as_str(), 1, 9)
            .with_children(vec![Entry::new(Kind::Method, "m", 2, 3)])]);
        assert_eq!(outline.entries[0].children[0].owner(), None);
    }
}
