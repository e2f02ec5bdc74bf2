//! Kotlin: a row of the brace family (see [`crate::parse::brace`]). Statements end at line
//! breaks; string templates `${…}` hold code; comments nest; accessors follow properties.

use crate::outline::Kind;
use crate::parse::brace::{Decl, ParameterMembers, Spec};
use crate::parse::lex::{Backtick, Interpolation, LexSpec};

pub(crate) const SPEC: Spec = Spec {
    lex: LexSpec {
        triple_quotes: true,
        nested_comments: true,
        interpolation: Interpolation::DollarBrace,
        backtick: Backtick::Identifier,
        ..LexSpec::C_LIKE
    },
    modifiers: &[
        "abstract",
        "actual",
        "annotation",
        "companion",
        "const",
        "crossinline",
        "data",
        "enum",
        "expect",
        "external",
        "final",
        "infix",
        "inline",
        "inner",
        "internal",
        "lateinit",
        "noinline",
        "open",
        "operator",
        "override",
        "private",
        "protected",
        "public",
        "reified",
        "sealed",
        "suspend",
        "tailrec",
        "value",
        "vararg",
    ],
    keywords: &[
        ("class", Decl::Type(Kind::Class)),
        ("interface", Decl::Type(Kind::Interface)),
        ("object", Decl::Type(Kind::Class)),
        ("fun", Decl::Function),
        ("val", Decl::Property),
        ("var", Decl::Property),
        ("constructor", Decl::Named),
        ("typealias", Decl::Alias),
        ("init", Decl::Skip),
        ("package", Decl::Skip),
        ("import", Decl::Skip),
    ],
    at_annotations: true,
    bracket_attributes: false,
    line_ends: true,
    continuation_words: &["get", "set"],
    // Not `to`, `step` nor `in`: names a line may end with (`x += step`).
    infix_words: &["or", "and", "xor", "shl", "shr", "ushr", "until", "downTo"],
    transparent_blocks: &[],
    sigil: None,
    untagged_members: false,
    one_declarator: true,
    constructor_properties: ParameterMembers {
        words: &["val", "var"],
        kind: Kind::Property,
    },
};
