//! The languages outliner knows: one table row per language (`LANGUAGES`) with its name,
//! its `--lang` aliases, the extensions and file names it is detected by, its family scanner,
//! and its lexical rules for search and for leading docs. Detection, `--lang`, the "no parser"
//! message and the parser's dispatch all read that table: adding a language is a [`Language`]
//! variant, its row and its scanner. Detection reads no file: a file whose name says nothing
//! is recognised by its first line ([`detect_by_first_line`]), which the caller reads.

use crate::parse::docs::{self, DocRules};
use crate::parse::lex::LexSpec;
use crate::parse::{self, CodeMask, Family};
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
    Lua,
    Makefile,
    Markdown,
    Php,
    Python,
    Ruby,
    Rust,
    Shell,
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
    /// Interpreters a `#!` first line names (`python`, `bash`), lower case and without a
    /// version: `python3.11` and `lua5.4` are read as `python` and `lua` (see
    /// [`detect_by_first_line`]). Only files with no telling name are read for it.
    pub(crate) interpreters: &'static [&'static str],
    /// The scanner that reads it (and, for a brace language, its spec): data the parser core
    /// dispatches on, so this table names no parse function.
    pub(crate) family: Family,
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
pub(crate) const LANGUAGES: [Row; 24] = [
    Row {
        language: Language::C,
        name: "c",
        aliases: &[],
        extensions: &["c", "h"],
        file_names: &[],
        name_prefixes: &[],
        interpreters: &[],
        family: Family::CCpp,
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
        interpreters: &[],
        family: Family::CCpp,
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
        interpreters: &[],
        family: Family::Brace(&parse::csharp::SPEC),
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
        interpreters: &[],
        family: Family::Css,
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
        interpreters: &[],
        family: Family::Docker,
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
        interpreters: &[],
        family: Family::Go,
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
        interpreters: &[],
        family: Family::Html,
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
        interpreters: &[],
        family: Family::Brace(&parse::java::SPEC),
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
        interpreters: &["bun", "node", "nodejs"],
        family: Family::JsTs,
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
        interpreters: &[],
        family: Family::Data,
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
        interpreters: &[],
        family: Family::Brace(&parse::kotlin::SPEC),
        code_mask: CodeMask::Lex(&parse::kotlin::SPEC.lex),
        docs: Some(DocRules {
            markers: &["@"],
            ..DocRules::comments(parse::kotlin::SPEC.lex)
        }),
    },
    Row {
        language: Language::Lua,
        name: "lua",
        aliases: &[],
        extensions: &["lua", "rockspec"],
        file_names: &[".luacheckrc"],
        name_prefixes: &[],
        interpreters: &["lua", "luajit"],
        family: Family::Lua,
        code_mask: CodeMask::Lex(&parse::lua::SPEC),
        docs: Some(DocRules::comments(parse::lua::SPEC)),
    },
    Row {
        language: Language::Makefile,
        name: "makefile",
        aliases: &["make"],
        // `.mak`: nmake and older GNU make projects name their include files so.
        extensions: &["mak", "mk"],
        file_names: &["BSDmakefile", "GNUmakefile", "Makefile", "makefile"],
        name_prefixes: &[],
        interpreters: &[],
        family: Family::Make,
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
        interpreters: &[],
        family: Family::Markdown,
        code_mask: CodeMask::NotCode,
        docs: None,
    },
    Row {
        language: Language::Php,
        name: "php",
        aliases: &[],
        extensions: &["php", "phtml"],
        file_names: &[],
        name_prefixes: &[],
        interpreters: &["php"],
        family: Family::Brace(&parse::php::SPEC),
        code_mask: CodeMask::Lex(&parse::php::SPEC.lex),
        docs: Some(DocRules {
            markers: &["#["],
            ..DocRules::comments(parse::php::DOCS_LEX)
        }),
    },
    Row {
        language: Language::Python,
        name: "python",
        aliases: &["py"],
        extensions: &["py", "pyi"],
        file_names: &[],
        name_prefixes: &[],
        interpreters: &["python"],
        family: Family::Python,
        code_mask: CodeMask::Own(parse::python::fstrings::search_mask),
        docs: Some(DocRules {
            markers: &["@"],
            indented_scopes: true,
            ..DocRules::comments(parse::python::SPEC)
        }),
    },
    Row {
        language: Language::Ruby,
        name: "ruby",
        aliases: &["rb"],
        extensions: &["gemspec", "rake", "rb", "rbw", "ru"],
        file_names: &[
            "Gemfile",
            "Guardfile",
            "Rakefile",
            "Vagrantfile",
            "rakefile",
        ],
        name_prefixes: &[],
        interpreters: &["jruby", "rake", "ruby", "truffleruby"],
        family: Family::Ruby,
        code_mask: CodeMask::Lex(&parse::ruby::SPEC),
        docs: Some(DocRules::comments(parse::ruby::SPEC)),
    },
    Row {
        language: Language::Rust,
        name: "rust",
        aliases: &["rs"],
        extensions: &["rs"],
        file_names: &[],
        name_prefixes: &[],
        interpreters: &[],
        family: Family::Rust,
        code_mask: CodeMask::Lex(&parse::rust::SPEC),
        docs: Some(DocRules {
            inner_docs: &["//!", "/*!"],
            markers: &["#["],
            ..DocRules::comments(parse::rust::SPEC)
        }),
    },
    Row {
        language: Language::Shell,
        name: "shell",
        aliases: &["bash", "sh", "zsh"],
        extensions: &["bash", "bats", "ksh", "sh", "zsh"],
        file_names: &[
            ".bash_profile",
            ".bashrc",
            ".profile",
            ".zprofile",
            ".zshrc",
        ],
        name_prefixes: &[],
        interpreters: &["ash", "bash", "dash", "ksh", "mksh", "sh", "zsh"],
        family: Family::Shell,
        code_mask: CodeMask::Own(parse::shell::search_mask),
        docs: Some(DocRules::comments(docs::HASH_COMMENTS)),
    },
    Row {
        language: Language::Sql,
        name: "sql",
        aliases: &[],
        extensions: &["sql"],
        file_names: &[],
        name_prefixes: &[],
        interpreters: &[],
        family: Family::Sql,
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
        interpreters: &[],
        family: Family::Brace(&parse::swift::SPEC),
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
        interpreters: &[],
        family: Family::Data,
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
        // Deno and ts-node scripts are TypeScript as often as not, and the TypeScript scanner
        // reads JavaScript too.
        interpreters: &["deno", "ts-node", "tsx"],
        family: Family::JsTs,
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
        interpreters: &[],
        family: Family::Data,
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

    /// Whether it is code (comments and strings apart from the rest), not prose or data.
    pub(crate) fn is_code(self) -> bool {
        !matches!(self.row().code_mask, crate::parse::CodeMask::NotCode)
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

/// The most of a file [`detect_by_first_line`] looks at: a `#!` line longer than this names
/// no interpreter a kernel would run (Linux reads 256 bytes of it).
pub const FIRST_LINE_BYTES: usize = 256;

/// Whether the language of `path` may come from its first line: its name says nothing
/// ([`detect`] finds no language) and it has no extension (`bin/deploy`, a Git hook), or what
/// follows its last dot is a version rather than an extension (`python3.11-config`,
/// `tool-1.2`). A file with an extension we do not read (`notes.txt`, `data.bin`) is never
/// opened to ask.
pub fn first_line_decides(path: &Path) -> bool {
    no_extension(path) && detect(path).is_none()
}

/// Whether `path` has no extension: none at all, or one that is all digits or holds more
/// than letters and digits (`.11-config`), which no file type is named by.
fn no_extension(path: &Path) -> bool {
    let Some(ext) = path.extension() else {
        return true;
    };
    let ext = ext.as_encoded_bytes();
    ext.iter().all(u8::is_ascii_digit) || !ext.iter().all(u8::is_ascii_alphanumeric)
}

/// The language of `path` by its name, else (for a file [`first_line_decides`] about) by
/// `head`, the start of its content.
pub fn detect_with_head(path: &Path, head: &[u8]) -> Option<Language> {
    detect(path).or_else(|| {
        no_extension(path)
            .then(|| detect_by_first_line(head))
            .flatten()
    })
}

/// The language a `#!` first line names, from at most [`FIRST_LINE_BYTES`] of `head` (the
/// start of a file): `#!/bin/sh`, `#!/usr/bin/env -S python3 -u`, `#! /usr/bin/lua5.4`. The
/// interpreter is the last path segment of the first word, or with `env` the first word after
/// `env`'s own flags and `NAME=value` settings; a version suffix (`3.11`, `5.4`, `-2.1`) is
/// dropped before it is looked up among the rows' `interpreters`. Text only: a NUL byte, or a
/// first line that is not UTF-8, names nothing.
pub fn detect_by_first_line(head: &[u8]) -> Option<Language> {
    let head = head.get(..FIRST_LINE_BYTES).unwrap_or(head);
    let line = head.strip_prefix(b"#!")?;
    let line = line.split(|b| *b == b'\n').next().unwrap_or(line);
    if line.contains(&0) {
        return None;
    }
    let line = std::str::from_utf8(line).ok()?;
    let mut words = line.split_ascii_whitespace();
    let mut program = base_name(words.next()?);
    if program == "env" {
        // `env -S x`, `env -u VAR x`, `env A=1 x`: flags and settings come before the program.
        let mut takes_value = false;
        program = words
            .find(|word| {
                let skip = takes_value || word.starts_with('-') || word.contains('=');
                takes_value = matches!(*word, "-u" | "--unset" | "-C" | "--chdir");
                !skip
            })
            .map(base_name)?;
    }
    let name = without_version(program).to_ascii_lowercase();
    LANGUAGES
        .iter()
        .find(|row| row.interpreters.contains(&name.as_str()))
        .map(|row| row.language)
}

/// The last segment of a path: `/usr/bin/env` is `env`.
fn base_name(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

/// `python3.11` as `python`, `lua5.4` as `lua`, `luajit-2.1` as `luajit`: versions are a
/// rule, not a list of every release.
fn without_version(program: &str) -> &str {
    let bare = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    let bare = bare.strip_suffix(['-', '_']).unwrap_or(bare);
    if bare.is_empty() {
        program
    } else {
        bare
    }
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
/// A Rakefile or a `*.rake` file: Ruby whose `task` and `namespace` calls define tasks.
pub fn is_rake_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or("");
    matches!(
        name,
        "Rakefile" | "rakefile" | "Rakefile.rb" | "rakefile.rb"
    ) || path
        .extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("rake"))
}

/// Whether a file of a JavaScript-family language may contain JSX (by its extension).
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
        let interpreters = column(|row| row.interpreters.to_vec());
        // An interpreter is listed bare: a version would never match (it is dropped first).
        assert!(
            interpreters
                .iter()
                .all(|name| lower(name) && without_version(name) == *name),
            "{interpreters:?}"
        );
        for mut values in [names, extensions, file_names, prefixes, interpreters] {
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
            ("deploy.sh", Some(Language::Shell)),
            ("test/api.bats", Some(Language::Shell)),
            (".bashrc", Some(Language::Shell)),
            ("init.lua", Some(Language::Lua)),
            ("busted-2.1.rockspec", Some(Language::Lua)),
        ];
        for (path, want) in cases {
            assert_eq!(detect(Path::new(path)), want, "{path}");
        }
    }

    #[test]
    fn detects_by_first_line() {
        let cases: [(&[u8], Option<Language>); 22] = [
            (b"#!/usr/bin/python3\nimport os\n", Some(Language::Python)),
            (b"#!/usr/bin/env python3.11 -u\n", Some(Language::Python)),
            (b"#! /usr/local/bin/python2\r\n", Some(Language::Python)),
            (
                b"#!/usr/bin/env -S node --no-warnings\n",
                Some(Language::JavaScript),
            ),
            (
                b"#!/usr/bin/env -u HOME A=1 nodejs",
                Some(Language::JavaScript),
            ),
            (
                b"#!/usr/bin/env -S deno run --allow-net\n",
                Some(Language::TypeScript),
            ),
            (b"#!/usr/bin/env\n", None),
            (b"#!/usr/bin/env -S\n", None),
            (b"#!/usr/bin/perl -w\n", None),
            (b"#!/bin/sh\n", Some(Language::Shell)),
            (b"#!/usr/bin/env bash\n", Some(Language::Shell)),
            (b"#!/bin/bash -eu\n", Some(Language::Shell)),
            (b"#!/usr/bin/env zsh\n", Some(Language::Shell)),
            (b"#!/usr/bin/env lua5.4\n", Some(Language::Lua)),
            (b"#!/usr/bin/luajit-2.1 -O3\n", Some(Language::Lua)),
            (b"#!\n", None),
            (b"# python3\n", None),
            (b"import os\n#!/usr/bin/python3\n", None),
            (b"#!/usr/bin/python3\0\n", None),
            (b"#!/usr/bin/\xffpython3\n", None),
            (b"\xef\xbb\xbf#!/usr/bin/python3\n", None),
            (b"", None),
        ];
        for (head, want) in cases {
            let shown = String::from_utf8_lossy(head);
            assert_eq!(detect_by_first_line(head), want, "{shown:?}");
        }
        // Past the first 256 bytes nothing is read: an interpreter there names nothing.
        let mut long = b"#!/usr/bin/env ".to_vec();
        long.extend([b' '; FIRST_LINE_BYTES]);
        long.extend(b"python3\n");
        assert_eq!(detect_by_first_line(&long), None);
    }

    #[test]
    fn the_first_line_decides_only_for_names_that_say_nothing() {
        let script = b"#!/usr/bin/env python3\n";
        let cases = [
            ("bin/deploy", true, Some(Language::Python)),
            (".git/hooks/pre-commit", true, Some(Language::Python)),
            ("bin/python3.11-config", true, Some(Language::Python)),
            ("bin/tool-1.2", true, Some(Language::Python)),
            ("song.mp3", false, None),
            ("notes.txt", false, None),
            ("tool.rs", false, Some(Language::Rust)),
            ("Makefile", false, Some(Language::Makefile)),
        ];
        for (path, decides, want) in cases {
            let path = Path::new(path);
            assert_eq!(first_line_decides(path), decides, "{}", path.display());
            assert_eq!(detect_with_head(path, script), want, "{}", path.display());
        }
    }

    #[test]
    fn the_summary_lists_extensions_then_file_names() {
        let summary = supported_summary();
        assert!(summary.starts_with(".bash .bats .c .cc .cjs"), "{summary}");
        assert!(
            summary.ends_with("makefile pdm.lock poetry.lock rakefile uv.lock"),
            "{summary}"
        );
        assert!(
            summary.contains(" .lua .mak .markdown .md .mjs .mk .mts "),
            "{summary}"
        );
        assert!(
            summary.contains(" .rake .rb .rbw .rockspec .rs .ru "),
            "{summary}"
        );
    }
}
