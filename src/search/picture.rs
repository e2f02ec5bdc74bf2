//! A type's whole picture for `--find Type`: besides the declarations named `Type`, every
//! declaration that adds to it anywhere in the paths, read from the model's owner facts
//! ([`Entry::owner`]): Rust `impl Trait for Type`, Swift extensions, and members declared
//! outside the type's body with the owner in their name (Go methods with a `Type`/`*Type`
//! receiver, Kotlin extension functions, C++ `Type::m`), grouped one per file; further
//! declarations of the type itself are marked (C# `partial`, Ruby reopened, TypeScript merged).

use super::{EntryRef, FindQuery};
use crate::lang::Language;
use crate::outline::{Entry, Kind};
use std::path::PathBuf;

/// How a declaration adds to a type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Adds {
    /// An impl block (`impl Type`, `impl Trait for Type`).
    Impl,
    /// A Swift extension.
    Extension,
    /// One of a C# partial type's declarations.
    Partial,
    /// A Ruby or PHP class declared again.
    Reopened,
    /// A TypeScript interface or namespace merged with another of its name.
    Merged,
    /// Members declared outside the type with the owner in their name ([`MemberGroup`]).
    Members,
}

impl Adds {
    /// The wire name JSON output carries as `adds`.
    pub fn as_str(self) -> &'static str {
        match self {
            Adds::Impl => "impl",
            Adds::Extension => "extension",
            Adds::Partial => "partial",
            Adds::Reopened => "reopened",
            Adds::Merged => "merged",
            Adds::Members => "members",
        }
    }
}

/// One file's members of the type declared outside its body, in source order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberGroup {
    pub path: PathBuf,
    pub language: Language,
    /// The file's content hash, for a stale-safe read.
    pub hash: String,
    pub members: Vec<EntryRef>,
    /// In a test file or a test module (every member).
    pub in_test: bool,
    /// The type the members add to, as the query named it.
    pub type_name: String,
}

impl MemberGroup {
    /// How the group names `member`: its bare name when it belongs to the type itself, else
    /// from the nested type on (`Builder.commonBuild` for `CacheControl.Builder.commonBuild`
    /// in the picture of `CacheControl`), so the line says which part of the type it adds to.
    pub fn label<'m>(&self, member: &'m EntryRef) -> &'m str {
        let type_name = self.type_name.as_str();
        if member
            .owner
            .as_deref()
            .is_some_and(|owner| owner.eq_ignore_ascii_case(type_name))
        {
            return member.bare_name();
        }
        let written = member.name.get(..member.bare_at()).unwrap_or_default();
        let nested = [".", "::"].iter().find_map(|separator| {
            let at = written.find(separator)?;
            let first = written.get(..at)?;
            first
                .eq_ignore_ascii_case(type_name)
                .then_some(at + separator.len())
        });
        match nested {
            Some(from) => member.name.get(from..).unwrap_or(&member.name),
            None => member.bare_name(),
        }
    }

    /// What the members are, as a reader calls them in the file's language.
    pub fn noun(&self) -> &'static str {
        match self.language {
            Language::Go => "receiver methods",
            Language::Kotlin | Language::Swift => "extension functions",
            Language::C | Language::Cpp => "out-of-class definitions",
            _ => "members",
        }
    }

    /// The first line of the first member and the last of the last.
    pub fn range(&self) -> (usize, usize) {
        let start = self.members.iter().map(|m| m.line).min().unwrap_or(0);
        let end = self
            .members
            .iter()
            .map(|m| m.end_line)
            .max()
            .unwrap_or(start);
        (start, end)
    }
}

/// Whether `query` asks for a picture: one plain name, no kind, no glob.
pub(crate) fn wanted(query: &FindQuery) -> bool {
    query.parts.len() == 1 && query.glob().is_none() && query.kinds.is_empty()
}

/// How `entry`, not named as asked, adds to the type `query` names, if it does: an impl
/// block or extension for it (a trait impl), or a member whose name holds it as owner.
pub(crate) fn addition(query: &FindQuery, language: Language, entry: &Entry) -> Option<Adds> {
    let name = query.parts.first()?;
    if !entry.owner().is_some_and(|owner| query.same(name, owner)) {
        // A member of a type nested in it, written outside both (Kotlin's
        // `fun CacheControl.Companion.parse`, C++'s `Outer::Inner::f`): part of the picture too.
        let nested = entry.kind != Kind::Impl
            && entry.owner_is_written()
            && entry.name_owners().count() > 1
            && entry
                .name_owners()
                .next()
                .is_some_and(|outer| query.same(name, outer));
        return nested.then_some(Adds::Members);
    }
    match entry.kind {
        Kind::Impl => Some(mark(language, entry).unwrap_or(Adds::Impl)),
        _ if entry.owner_is_written() => Some(Adds::Members),
        _ => None,
    }
}

/// What a declaration named as asked is in the picture, as far as it alone tells: an impl
/// block or extension, or one part of a partial type.
pub(crate) fn mark(language: Language, entry: &Entry) -> Option<Adds> {
    let signature = entry.signature.as_deref().unwrap_or_default();
    match entry.kind {
        Kind::Impl if signature.starts_with("extension") => Some(Adds::Extension),
        Kind::Impl if language == Language::Rust => Some(Adds::Impl),
        Kind::Class | Kind::Struct | Kind::Interface | Kind::Enum
            if signature.split_whitespace().any(|word| word == "partial") =>
        {
            Some(Adds::Partial)
        }
        _ => None,
    }
}

/// How a further declaration of a type already declared reads in `language`: Ruby and PHP
/// reopen a class, TypeScript merges interfaces and namespaces.
pub(crate) fn redeclared(language: Language, kind: Kind) -> Option<Adds> {
    let type_like = matches!(
        kind,
        Kind::Class | Kind::Module | Kind::Interface | Kind::Namespace | Kind::Trait
    );
    match language {
        _ if !type_like => None,
        Language::Ruby | Language::Php => Some(Adds::Reopened),
        Language::TypeScript | Language::JavaScript => Some(Adds::Merged),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outline::Outline;

    fn facts(language: Language, entries: Vec<Entry>, query: &str) -> Vec<Option<Adds>> {
        let outline = Outline::new(language, 100, 0, entries);
        let query = FindQuery::parse(query, &[]).expect("valid");
        outline
            .walk()
            .into_iter()
            .map(|(_, entry)| addition(&query, language, entry))
            .collect()
    }

    #[test]
    fn impls_and_members_written_with_their_owner_add_to_the_type() {
        let method = |name: &str, line| Entry::new(Kind::Method, name, line, line + 1);
        let rust = vec![
            Entry::new(Kind::Struct, "Entry", 1, 5),
            Entry::new(Kind::Impl, "Entry", 6, 9).with_children(vec![method("new", 7)]),
            Entry::new(Kind::Impl, "fmt::Display for Entry", 10, 19)
                .with_children(vec![method("fmt", 11)]),
            Entry::new(Kind::Impl, "From<Entry> for String", 20, 29),
        ];
        let adds = facts(Language::Rust, rust, "Entry");
        let impl_ = Some(Adds::Impl);
        assert_eq!(adds, [None, impl_, None, impl_, None, None]);
        let marks: Vec<Option<Adds>> = Outline::new(
            Language::Rust,
            9,
            0,
            vec![Entry::new(Kind::Impl, "Entry", 1, 2)],
        )
        .entries
        .iter()
        .map(|entry| mark(Language::Rust, entry))
        .collect();
        assert_eq!(marks, [impl_]);
        let go = vec![
            Entry::new(Kind::Struct, "Daemon", 1, 5),
            method("(*Daemon).Start", 6),
            method("Daemon.Name", 8),
            method("(*Client).Start", 10),
        ];
        let members = Some(Adds::Members);
        assert_eq!(
            facts(Language::Go, go, "Daemon"),
            [None, members, members, None]
        );
    }

    #[test]
    fn members_of_a_nested_type_written_outside_add_to_the_outer_type() {
        let function = |name: &str, line| Entry::new(Kind::Function, name, line, line + 1);
        let kotlin = vec![
            function("CacheControl.commonToString", 1),
            function("CacheControl.Companion.commonParse", 3),
            function("CacheControl.Builder.commonBuild", 5),
            function("Other.Builder.commonBuild", 7),
            function("Long.clamp", 9),
        ];
        let members = Some(Adds::Members);
        assert_eq!(
            facts(Language::Kotlin, kotlin.clone(), "CacheControl"),
            [members, members, members, None, None]
        );
        // Asked for the nested type itself, its own members only.
        assert_eq!(
            facts(Language::Kotlin, kotlin.clone(), "Builder"),
            [None, None, members, members, None]
        );
        let outline = Outline::new(Language::Kotlin, 100, 0, kotlin);
        let group = MemberGroup {
            path: PathBuf::from("c.kt"),
            language: Language::Kotlin,
            hash: String::new(),
            members: outline
                .walk()
                .into_iter()
                .map(|(depth, entry)| EntryRef::of(entry, depth.to_string()))
                .collect(),
            in_test: false,
            type_name: "CacheControl".to_string(),
        };
        let labels: Vec<&str> = group.members.iter().map(|m| group.label(m)).collect();
        assert_eq!(
            labels,
            [
                "commonToString",
                "Companion.commonParse",
                "Builder.commonBuild",
                "commonBuild",
                "clamp"
            ]
        );
    }

    #[test]
    fn swift_extensions_and_csharp_partials_are_marked() {
        let swift = vec![Entry::new(Kind::Impl, "Foo", 1, 3).with_signature("extension Foo: P")];
        assert_eq!(
            facts(Language::Swift, swift, "Foo"),
            [Some(Adds::Extension)]
        );
        let partial =
            Entry::new(Kind::Class, "Foo", 1, 3).with_signature("public partial class Foo");
        assert_eq!(mark(Language::CSharp, &partial), Some(Adds::Partial));
        assert_eq!(
            facts(Language::CSharp, vec![partial], "Foo"),
            [None],
            "named, not added"
        );
        assert_eq!(
            redeclared(Language::Ruby, Kind::Class),
            Some(Adds::Reopened)
        );
        assert_eq!(redeclared(Language::Ruby, Kind::Method), None);
        assert_eq!(redeclared(Language::Rust, Kind::Struct), None);
    }

    #[test]
    fn only_a_plain_name_asks_for_a_picture() {
        let wants = |q: &str| wanted(&FindQuery::parse(q, &[]).expect("valid"));
        assert!(wants("Entry"));
        assert!(!wants("struct Entry") && !wants("Ent*") && !wants("Entry.new"));
    }
}
