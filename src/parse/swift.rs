//! Swift: a row of the brace family (see [`crate::parse::brace`]). Statements end at line
//! breaks; `\(…)` holds code; raw strings `#"…"#`; comments nest; extensions are named by the
//! type they extend.

use crate::outline::Kind;
use crate::parse::brace::{Decl, Spec};
use crate::parse::lex::{Interpolation, LexSpec};

pub(crate) const SPEC: Spec = Spec {
    lex: LexSpec {
        triple_quotes: true,
        nested_comments: true,
        hash_raw_strings: true,
        interpolation: Interpolation::BackslashParen,
        ..LexSpec::C_LIKE
    },
    modifiers: &[
        "borrowing",
        "consuming",
        "convenience",
        "distributed",
        "dynamic",
        "fileprivate",
        "final",
        "indirect",
        "infix",
        "internal",
        "isolated",
        "lazy",
        "mutating",
        "nonisolated",
        "nonmutating",
        "open",
        "optional",
        "override",
        "package",
        "postfix",
        "prefix",
        "private",
        "public",
        "required",
        "static",
        "unowned",
        "weak",
    ],
    keywords: &[
        ("class", Decl::Type(Kind::Class)),
        ("struct", Decl::Type(Kind::Struct)),
        ("enum", Decl::Enum),
        ("protocol", Decl::Type(Kind::Interface)),
        ("actor", Decl::Type(Kind::Class)),
        ("extension", Decl::Extension),
        ("func", Decl::Function),
        ("init", Decl::Named),
        ("deinit", Decl::Named),
        ("subscript", Decl::Named),
        ("var", Decl::Property),
        ("let", Decl::Property),
        ("typealias", Decl::Alias),
        ("associatedtype", Decl::Alias),
        ("case", Decl::Cases),
        ("import", Decl::Skip),
        ("operator", Decl::Skip),
        ("precedencegroup", Decl::Skip),
    ],
    at_annotations: true,
    bracket_attributes: false,
    line_ends: true,
    continuation_words: &[],
    transparent_blocks: &[],
    sigil: None,
    untagged_members: false,
    one_declarator: false,
};
