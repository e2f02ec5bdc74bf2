//! Java: a row of the brace family (see [`crate::parse::brace`]). Text blocks are triple
//! quoted; annotations are `@Name(…)`; members need no keyword.

use crate::outline::Kind;
use crate::parse::brace::{Decl, ParameterMembers, Spec};
use crate::parse::lex::LexSpec;

pub(crate) const SPEC: Spec = Spec {
    lex: LexSpec {
        triple_quotes: true,
        ..LexSpec::C_LIKE
    },
    modifiers: &[
        "abstract",
        "default",
        "final",
        "native",
        "non-sealed",
        "private",
        "protected",
        "public",
        "sealed",
        "static",
        "strictfp",
        "synchronized",
        "transient",
        "volatile",
    ],
    keywords: &[
        ("class", Decl::Type(Kind::Class)),
        ("interface", Decl::Type(Kind::Interface)),
        ("record", Decl::Type(Kind::Class)),
        ("enum", Decl::Enum),
        ("package", Decl::Skip),
        ("import", Decl::Skip),
        ("module", Decl::Skip),
    ],
    at_annotations: true,
    bracket_attributes: false,
    line_ends: false,
    continuation_words: &[],
    infix_words: &[],
    transparent_blocks: &[],
    sigil: None,
    untagged_members: true,
    one_declarator: false,
    constructor_properties: ParameterMembers::NONE,
};
