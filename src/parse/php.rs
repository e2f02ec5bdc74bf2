//! PHP: a row of the brace family (see [`crate::parse::brace`]). Code between `<?php` and
//! `?>` (the template around it blanked), heredocs, `{$…}` holes in double-quoted strings,
//! `#` comments beside `#[…]` attributes, `$`-named properties, and declarations inside `if`
//! blocks (`if (!function_exists('f')) { function f() {} }`) listed as if the block were not
//! there.

use crate::outline::Kind;
use crate::parse::brace::{Decl, ParameterMembers, Spec};
use crate::parse::lex::{Interpolation, LexSpec};

pub(crate) const SPEC: Spec = Spec {
    lex: LexSpec {
        // `#[` opens an attribute, not a comment: both are docs above a member, and as a
        // comment the attribute's brackets never confuse the structure.
        line_comments: &["//", "#"],
        php: true,
        interpolation: Interpolation::BraceDollar,
        multiline_strings: true,
        ..LexSpec::C_LIKE
    },
    modifiers: &[
        "abstract",
        "final",
        "private",
        "protected",
        "public",
        "readonly",
        "static",
        "var",
    ],
    keywords: &[
        ("class", Decl::Type(Kind::Class)),
        ("interface", Decl::Type(Kind::Interface)),
        ("trait", Decl::Type(Kind::Trait)),
        ("enum", Decl::Enum),
        ("function", Decl::Function),
        ("namespace", Decl::Namespace),
        ("const", Decl::Property),
        ("case", Decl::Cases),
        ("use", Decl::Skip),
        ("require", Decl::Skip),
        ("require_once", Decl::Skip),
        ("include", Decl::Skip),
        ("include_once", Decl::Skip),
        ("declare", Decl::Skip),
        ("return", Decl::Skip),
    ],
    at_annotations: false,
    bracket_attributes: false,
    line_ends: false,
    continuation_words: &[],
    infix_words: &[],
    untagged_members: true,
    one_declarator: false,
    constructor_properties: ParameterMembers {
        words: &["public", "protected", "private", "readonly"],
        kind: Kind::Field,
    },
    transparent_blocks: &["if", "else", "elseif", "try", "catch", "finally"],
    sigil: Some(b'$'),
};

/// What leads a member: `/** … */` PHPDoc, comments and `#[…]` attributes.
pub(crate) const DOCS_LEX: LexSpec = LexSpec {
    line_comments: &["//"],
    ..SPEC.lex
};
