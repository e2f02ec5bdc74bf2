//! The languages outliner knows: one table row per language (`LANGUAGES`) with its name,
//! its `--lang` aliases, the extensions and file names it is detected by, its family scanner,
//! and its lexical rules for search and for leading docs. Detection, `--lang`, the "no parser"
//! message and the parser's dispatch all read that table: adding a language is a [`Language`]
//! variant, its row and its scanner. Detection never reads content.

use crate::parse::docs::{self, DocRules};
use crate::parse::lex::LexSpec;
use crate::parse::{self, CodeMask, Scan};
use std::path::Path;

/// The file types outliner understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    C,
    Cpp,
    CSharp,
    Css,
    Dockerfile,
    Go,
    Html,
    Java,
    JavaScript,
    Json,
    Kotlin,
    Makefile,
    Markdown,
    Python,
    Rust,
    Sql,
    Swift,
    Toml,
    TypeScript,
    Yaml,
}

/// Everything outliner knows about one language. The rows of [`LANGUAGES`] are in the order of
/// [`Language`]'s variants (checked at compile time), so a language finds its row by index.
pub(crate) struct Row {
    pub(crate) language: Language,
    /// The name output and `--lang` use (`cpp`, `javascript`), lower case.
    pub(crate) name: &'static str,
    /// Other names `--lang` accepts, lower case (`c++`, `js`).
    pub(crate) aliases: &'static [&'static str],
    /// Extensions without the dot, lower case; matched case-insensitively.
    pub(crate) extensions: &'static [&'static str],
    /// Exact file names with no telling extension, matched before extensions. Lock files are
    /// listed one by one because `*.lock` is no format (`Cargo.lock` is TOML, `flake.lock`
    /// JSON, `yarn.lock` and `Gemfile.lock` neither), and tools' `rc` files are read in their
    /// usual form, JSON (with comments).
    pub(crate) file_names: &'static [&'static str],
    /// Prefixes of file names whose suffix names a variant, not a language
    /// (`Dockerfile.dev`); matched after exact names, before extensions.
    pub(crate) name_prefixes: &'static [&'static str],
    /// The family scanner: masked text in, entries out.
    pub(crate) scan: Scan,
    /// How search tells this language's code from its comments and strings.
    pub(crate) code_mask: CodeMask,
    /// What may lead an entry (doc comments, decorators, attributes), for symbol reads;
    /// `None` where nothing does (Markdown headings).
    pub(crate) docs: Option<DocRules>,
}

/// What leads a JavaScript or TypeScript entry: comments (templates and regex literals told
/// apart) and decorators.
const JS_DOCS: DocRules = DocRules {
    markers: &["@"],
    javascript: true,
    ..DocRules::comments(LexSpec::C_LIKE)
};

/// The language table, in [`Language`] order (which is name order).
pub(crate) const LANGUAGES: [Row; 20] = [
    Row {
        language: Language::C,
        name: "c",
        aliases: &[],
        extensions: &["c", "h"],
        file_names: &[],
        name_prefixes: &[],
        scan: |text, _| parse::c_cpp::parse(text, Language::C),
        code_mask: CodeMask::Lex(&parse::c_cpp::SPEC),
        docs: Some(DocRules {
            markers: &["[["],
            ..DocRules::comments(LexSpec::C_LIKE)
        }),
    },
    Row {
        language: Language::Cpp,
        name: "cpp",
        aliases: &["c++", "cxx"],
        extensions: &["cc", "cpp", "cxx", "hh", "hpp", "hxx"],
        file_names: &[],
        name_prefixes: &[],
        scan: |text, _| parse::c_cpp::parse(text, Language::Cpp),
        code_mask: CodeMask::Lex(&parse::c_cpp::SPEC),
        docs: Some(DocRules {
            markers: &["[["],
            ..DocRules::comments(parse::c_cpp::SPEC)
        }),
    },
    Row {
        language: Language::CSharp,
        name: "csharp",
        aliases: &["c#", "cs"],
        extensions: &["cs", "csx"],
        file_names: &[],
        name_prefixes: &[],
        scan: |text, _| parse::brace::parse(text, &parse::csharp::SPEC),
        code_mask: CodeMask::Lex(&parse::csharp::SPEC.lex),
        docs: Some(DocRules {
            markers: &["["],
            ..DocRules::comments(parse::csharp::DOCS_LEX)
        }),
    },
    Row {
        language: Language::Css,
        name: "css",
        aliases: &[],
        extensions: &["css", "less", "scss"],
        file_names: &[],
        name_prefixes: &[],
        scan: |text, _| parse::css::parse(text),
        code_mask: CodeMask::Own(|text, _| parse::css::mask(text.as_bytes()).0),
        docs: Some(DocRules::comments(LexSpec::C_LIKE)),
    },
    Row {
        language: Language::Dockerfile,
        name: "dockerfile",
        aliases: &["docker"],
        extensions: &["dockerfile"],
        file_names: &["Containerfile", "Dockerfile"],
        name_prefixes: &["Containerfile.", "Dockerfile."],
        scan: |text, _| parse::docker::parse(text),
        code_mask: CodeMask::Lex(&parse::HASH_COMMENTS),
        docs: Some(DocRules::comments(docs::HASH_COMMENTS)),
    },
    Row {
        language: Language::Go,
        name: "go",
        aliases: &[],
        extensions: &["go"],
        file_names: &[],
        name_prefixes: &[],
        scan: |text, _| parse::go::parse(text),
        code_mask: CodeMask::Lex(&parse::go::SPEC),
        docs: Some(DocRules::comments(parse::go::SPEC)),
    },
    Row {
        language: Language::Html,
        name: "html",
        aliases: &[],
        extensions: &["htm", "html"],
        file_names: &[],
        name_prefixes: &[],
        scan: |text, _| parse::html::parse(text),
        code_mask: CodeMask::NotCode,
        docs: Some(DocRules::comments(LexSpec {
            line_comments: &[],
            block_comment: Some(("<!--", "-->")),
            quotes: b"",
            ..LexSpec::C_LIKE
        })),
    },
    Row {
        language: Language::Java,
        name: "java",
        aliases: &[],
        extensions: &["java"],
        file_names: &[],
        name_prefixes: &[],
        scan: |text, _| parse::brace::parse(text, &parse::java::SPEC),
        code_mask: CodeMask::Lex(&parse::java::SPEC.lex),
        docs: Some(DocRules {
            markers: &["@"],
            ..DocRules::comments(parse::java::SPEC.lex)
        }),
    },
    Row {
        language: Language::JavaScript,
        name: "javascript",
        aliases: &["js", "jsx"],
        extensions: &["cjs", "js", "jsx", "mjs"],
        file_names: &[],
        name_prefixes: &[],
        scan: parse::js_ts::parse,
        code_mask: CodeMask::Own(parse::js_ts::mask::search_mask),
        docs: Some(JS_DOCS),
    },
    Row {
        language: Language::Json,
        name: "json",
        aliases: &[],
        extensions: &["json", "jsonc"],
        file_names: &[
            ".babelrc",
            ".eslintrc",
            ".jshintrc",
            ".prettierrc",
            ".stylelintrc",
            ".swcrc",
            "Pipfile.lock",
            "composer.lock",
            "deno.lock",
            "flake.lock",
        ],
        name_prefixes: &[],
        scan: |text, _| parse::data::parse(text, Language::Json),
        code_mask: CodeMask::NotCode,
        docs: Some(DocRules::comments(LexSpec::C_LIKE)),
    },
    Row {
        language: Language::Kotlin,
        name: "kotlin",
        aliases: &["kt", "kts"],
        extensions: &["kt", "kts"],
        file_names: &[],
        name_prefixes: &[],
        scan: |text, _| parse::brace::parse(text, &parse::kotlin::SPEC),
        code_mask: CodeMask::Lex(&parse::kotlin::SPEC.lex),
        docs: Some(DocRules {
            markers: &["@"],
            ..DocRules::comments(parse::kotlin::SPEC.lex)
        }),
    },
    Row {
        language: Language::Makefile,
        name: "makefile",
        aliases: &["make"],
        // `.mak`: nmake and older GNU make projects name their include files so.
        extensions: &["mak", "mk"],
        file_names: &["BSDmakefile", "GNUmakefile", "Makefile", "makefile"],
        name_prefixes: &[],
        scan: |text, _| parse::make::parse(text),
        code_mask: CodeMask::Lex(&parse::HASH_COMMENTS),
        docs: Some(DocRules::comments(docs::HASH_COMMENTS)),
    },
    Row {
        language: Language::Markdown,
        name: "markdown",
        aliases: &["md"],
        extensions: &["markdown", "md"],
        file_names: &[],
        name_prefixes: &[],
        scan: |text, _| parse::markdown::parse(text),
        code_mask: CodeMask::NotCode,
        docs: None,
    },
    Row {
        language: Language::Python,
        name: "python",
        aliases: &["py"],
        extensions: &["py", "pyi"],
        file_names: &[],
        name_prefixes: &[],
        scan: |text, _| parse::python::parse(text),
        code_mask: CodeMask::Own(parse::python::fstrings::search_mask),
        docs: Some(DocRules {
            markers: &["@"],
            indented_scopes: true,
            ..DocRules::comments(parse::python::SPEC)
        }),
    },
    Row {
        language: Language::Rust,
        name: "rust",
        aliases: &["rs"],
        extensions: &["rs"],
        file_names: &[],
        name_prefixes: &[],
        scan: |text, _| parse::rust::parse(text),
        code_mask: CodeMask::Lex(&parse::rust::SPEC),
        docs: Some(DocRules {
            inner_docs: &["//!", "/*!"],
            markers: &["#["],
            ..DocRules::comments(parse::rust::SPEC)
        }),
    },
    Row {
        language: Language::Sql,
        name: "sql",
        aliases: &[],
        extensions: &["sql"],
        file_names: &[],
        name_prefixes: &[],
        scan: |text, _| parse::sql::parse(text),
        code_mask: CodeMask::Lex(&parse::sql::SPEC),
        docs: Some(DocRules::comments(LexSpec {
            line_comments: &["--"],
            nested_comments: true,
            backslash_escapes: false,
            dollar_quotes: true,
            ..LexSpec::C_LIKE
        })),
    },
    Row {
        language: Language::Swift,
        name: "swift",
        aliases: &[],
        extensions: &["swift"],
        file_names: &[],
        name_prefixes: &[],
        scan: |text, _| parse::brace::parse(text, &parse::swift::SPEC),
        code_mask: CodeMask::Lex(&parse::swift::SPEC.lex),
        docs: Some(DocRules {
            markers: &["@"],
            ..DocRules::comments(parse::swift::SPEC.lex)
        }),
    },
    Row {
        language: Language::Toml,
        name: "toml",
        aliases: &[],
        extensions: &["toml"],
        file_names: &[
            "Cargo.lock",
            "Gopkg.lock",
            "Pipfile",
            "pdm.lock",
            "poetry.lock",
            "uv.lock",
        ],
        name_prefixes: &[],
        scan: |text, _| parse::data::parse(text, Language::Toml),
        code_mask: CodeMask::NotCode,
        docs: Some(DocRules::comments(LexSpec {
            triple_quotes: true,
            ..docs::HASH_COMMENTS
        })),
    },
    Row {
        language: Language::TypeScript,
        name: "typescript",
        aliases: &["ts", "tsx"],
        extensions: &["cts", "mts", "ts", "tsx"],
        file_names: &[],
        name_prefixes: &[],
        scan: parse::js_ts::parse,
        code_mask: CodeMask::Own(parse::js_ts::mask::search_mask),
        docs: Some(JS_DOCS),
    },
    Row {
        language: Language::Yaml,
        name: "yaml",
        aliases: &["yml"],
        extensions: &["yaml", "yml"],
        file_names: &[".clang-format", ".clang-tidy", ".clangd", ".yamllint"],
        name_prefixes: &[],
        scan: |text, _| parse::data::parse(text, Language::Yaml),
        code_mask: CodeMask::NotCode,
        docs: Some(DocRules {
            indented_scopes: true,
            ..DocRules::comments(docs::HASH_COMMENTS)
        }),
    },
];

// Row `i` describes the variant with discriminant `i`: what lets `Language::row` index.
const _: () = {
    let mut index = 0;
    while index < LANGUAGES.len() {
        assert!(LANGUAGES[index].language as usize == index);
        index += 1;
    }
};

impl Language {
    /// Every language, in name order.
    pub const ALL: [Language; LANGUAGES.len()] = {
        let mut all = [Language::C; LANGUAGES.len()];
        let mut index = 0;
        while index < all.len() {
            all[index] = LANGUAGES[index].language;
            index += 1;
        }
        all
    };

    /// This language's row of [`LANGUAGES`].
    pub(crate) fn row(self) -> &'static Row {
        &LANGUAGES[self as usize]
    }

    /// The name output and `--lang` use (`cpp`, `javascript`).
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// Parses a language name as printed by [`Language::name`], or one of its aliases (`c++`,
    /// `js`, `yml`), in any case.
    pub fn from_name(name: &str) -> Option<Language> {
        let lower = name.to_ascii_lowercase();
        let lower = lower.as_str();
        LANGUAGES
            .iter()
            .find(|row| row.name == lower || row.aliases.contains(&lower))
            .map(|row| row.language)
    }
}

impl std::fmt::Display for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The language of `path`: by exact file name, then by a variant's prefix (`Dockerfile.dev`),
/// then by extension (case-insensitive).
pub fn detect(path: &Path) -> Option<Language> {
    // A name that is not UTF-8 is read lossily: `caf\xe9.py` is still Python.
    let name = path.file_name()?.to_string_lossy();
    let name = name.as_ref();
    let by_name = LANGUAGES.iter().find(|row| row.file_names.contains(&name));
    let by_prefix = || {
        LANGUAGES.iter().find(|row| {
            row.name_prefixes
                .iter()
                .any(|prefix| name.starts_with(prefix))
        })
    };
    if let Some(row) = by_name.or_else(by_prefix) {
        return Some(row.language);
    }
    let ext = path.extension()?.to_string_lossy().to_ascii_lowercase();
    LANGUAGES
        .iter()
        .find(|row| row.extensions.contains(&ext.as_str()))
        .map(|row| row.language)
}

/// Whether `path` is a package manager's lock file (`Cargo.lock`, `package-lock.json`, …):
/// generated data that directory outlines leave out unless it is named.
pub(crate) fn is_lock_file(path: &Path) -> bool {
    let Some(name) = path.file_name().map(|n| n.to_string_lossy()) else {
        return false;
    };
    name.ends_with(".lock")
        || matches!(
            name.as_ref(),
            "package-lock.json" | "npm-shrinkwrap.json" | "pnpm-lock.yaml"
        )
}

/// Whether a JavaScript/TypeScript file may hold JSX: `.jsx` and `.tsx` always, `.js` too since
/// React code often uses it. In `.ts` files `<T>` is a type, never an element.
pub fn may_contain_jsx(path: &Path) -> bool {
    let ext = path
        .extension()
        .and_then(|ext| ext.to_str())
        .map(str::to_ascii_lowercase);
    matches!(ext.as_deref(), Some("jsx" | "tsx" | "js" | "mjs" | "cjs"))
}

/// A one-line list of what is supported, for the "no parser" message: every extension, then
/// every file name, each in byte order.
pub(crate) fn supported_summary() -> String {
    let mut extensions: Vec<String> = LANGUAGES
        .iter()
        .flat_map(|row| row.extensions)
        .map(|ext| format!(".{ext}"))
        .collect();
    extensions.sort_unstable();
    let mut file_names: Vec<&str> = LANGUAGES
        .iter()
        .flat_map(|row| row.file_names.iter().copied())
        .collect();
    file_names.sort_unstable();
    extensions.extend(file_names.into_iter().map(String::from));
    extensions.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every value of one column of the table, in table order.
    fn column(pick: fn(&Row) -> Vec<&'static str>) -> Vec<&'static str> {
        LANGUAGES.iter().flat_map(pick).collect()
    }

    #[test]
    fn no_value_is_claimed_twice_and_names_are_lower_case() {
        let names = column(|row| [&[row.name], row.aliases].concat());
        let extensions = column(|row| row.extensions.to_vec());
        let lower = |value: &&str| *value == value.to_ascii_lowercase();
        assert!(names.iter().all(lower), "{names:?}");
        assert!(extensions.iter().all(lower), "{extensions:?}");
        let file_names = column(|row| row.file_names.to_vec());
        let prefixes = column(|row| row.name_prefixes.to_vec());
        for mut values in [names, extensions, file_names, prefixes] {
            values.sort_unstable();
            assert!(values.windows(2).all(|w| w[0] < w[1]), "{values:?}");
        }
    }

    #[test]
    fn every_language_is_reachable_and_named_in_order() {
        for row in &LANGUAGES {
            let lang = row.language;
            assert!(
                !row.extensions.is_empty() || !row.file_names.is_empty(),
                "{lang} has no extension or file name"
            );
            assert_eq!(Language::from_name(lang.name()), Some(lang));
            for alias in row.aliases {
                assert_eq!(Language::from_name(alias), Some(lang), "{alias}");
            }
        }
        assert!(Language::ALL.windows(2).all(|w| w[0].name() < w[1].name()));
        assert_eq!(Language::from_name("C++"), Some(Language::Cpp));
        assert_eq!(Language::from_name("perl"), None);
    }

    #[test]
    fn detects_by_name_and_extension() {
        let cases = [
            ("src/app.PY", Some(Language::Python)),
            ("Makefile", Some(Language::Makefile)),
            ("rules.mk", Some(Language::Makefile)),
            ("build/win32.mak", Some(Language::Makefile)),
            ("build/Dockerfile", Some(Language::Dockerfile)),
            ("Dockerfile.dev", Some(Language::Dockerfile)),
            ("Containerfile.json", Some(Language::Dockerfile)),
            ("api.dockerfile", Some(Language::Dockerfile)),
            ("x.tsx", Some(Language::TypeScript)),
            ("x.h", Some(Language::C)),
            ("x.hpp", Some(Language::Cpp)),
            ("README", None),
            ("archive.tar.gz", None),
            ("Cargo.lock", Some(Language::Toml)),
            ("sub/poetry.lock", Some(Language::Toml)),
            ("uv.lock", Some(Language::Toml)),
            ("Pipfile", Some(Language::Toml)),
            ("Pipfile.lock", Some(Language::Json)),
            ("flake.lock", Some(Language::Json)),
            ("yarn.lock", None),
            ("Gemfile.lock", None),
            ("other.lock", None),
            (".clang-format", Some(Language::Yaml)),
            (".clang-tidy", Some(Language::Yaml)),
            (".babelrc", Some(Language::Json)),
            (".eslintrc", Some(Language::Json)),
            ("package-lock.json", Some(Language::Json)),
            ("CMakeLists.txt", None),
            ("Justfile", None),
            ("Main.java", Some(Language::Java)),
            ("Program.cs", Some(Language::CSharp)),
            ("build.gradle.kts", Some(Language::Kotlin)),
            ("Package.swift", Some(Language::Swift)),
        ];
        for (path, want) in cases {
            assert_eq!(detect(Path::new(path)), want, "{path}");
        }
    }

    #[test]
    fn the_summary_lists_extensions_then_file_names() {
        let summary = supported_summary();
        assert!(
            summary.starts_with(".c .cc .cjs .cpp .cs .css .csx"),
            "{summary}"
        );
        assert!(
            summary.ends_with("makefile pdm.lock poetry.lock uv.lock"),
            "{summary}"
        );
        assert!(
            summary.contains(" .less .mak .markdown .md .mjs .mk .mts "),
            "{summary}"
        );
    }
}
