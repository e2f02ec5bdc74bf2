//! C#: a row of the brace family (see [`crate::parse::brace`]). Verbatim `@"…"`, raw
//! `"""…"""` and interpolated `$"…{code}…"` strings; attributes in brackets; members need no
//! keyword (properties, indexers, operators, finalisers included).

/// What leads a member: `///` XML docs and comments (preprocessor lines are no docs).
pub(crate) const DOCS_LEX: LexSpec = LexSpec {
    line_comments: &["//"],
    ..SPEC.lex
};

use crate::outline::Kind;
use crate::parse::brace::{Decl, ParameterMembers, Spec};
use crate::parse::lex::{Interpolation, LexSpec};

pub(crate) const SPEC: Spec = Spec {
    lex: LexSpec {
        // A `#` outside strings only starts a preprocessor line (`#if`, `#region`), which may
        // stand inside a declaration's head: read as a comment, the head stays whole.
        line_comments: &["//", "#"],
        triple_quotes: true,
        verbatim_strings: true,
        interpolation: Interpolation::DollarPrefixBrace,
        ..LexSpec::C_LIKE
    },
    modifiers: &[
        "abstract",
        "async",
        "const",
        "event",
        "extern",
        "file",
        "fixed",
        "internal",
        "new",
        "override",
        "partial",
        "private",
        "protected",
        "public",
        "readonly",
        "ref",
        "required",
        "scoped",
        "sealed",
        "static",
        "unsafe",
        "virtual",
        "volatile",
    ],
    keywords: &[
        ("class", Decl::Type(Kind::Class)),
        ("interface", Decl::Type(Kind::Interface)),
        ("struct", Decl::Type(Kind::Struct)),
        ("record", Decl::Type(Kind::Class)),
        ("enum", Decl::Enum),
        ("namespace", Decl::Namespace),
        ("delegate", Decl::Delegate),
        // C# 14's extension blocks, `extension<T>(Receiver<T> r) { members }`.
        ("extension", Decl::Type(Kind::Impl)),
        ("using", Decl::Skip),
        ("extern", Decl::Skip),
        ("global", Decl::Skip),
    ],
    at_annotations: false,
    bracket_attributes: true,
    line_ends: false,
    continuation_words: &[],
    infix_words: &[],
    transparent_blocks: &[],
    sigil: None,
    untagged_members: true,
    one_declarator: false,
    constructor_properties: ParameterMembers::NONE,
};
