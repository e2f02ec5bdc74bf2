//! Which language a file is, from its name: one sorted table of extensions and one of file
//! names, each mapping to a [`Language`]. Detection never reads content.

use serde::Serialize;
use std::path::Path;

/// The file types outliner understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    C,
    Cpp,
    Css,
    Dockerfile,
    Go,
    Html,
    JavaScript,
    Json,
    Makefile,
    Markdown,
    Python,
    Rust,
    Sql,
    Toml,
    TypeScript,
    Yaml,
}

impl Language {
    /// Every language, in name order.
    pub const ALL: [Language; 16] = [
        Language::C,
        Language::Cpp,
        Language::Css,
        Language::Dockerfile,
        Language::Go,
        Language::Html,
        Language::JavaScript,
        Language::Json,
        Language::Makefile,
        Language::Markdown,
        Language::Python,
        Language::Rust,
        Language::Sql,
        Language::Toml,
        Language::TypeScript,
        Language::Yaml,
    ];

    /// The name output and `--lang` use (`cpp`, `javascript`).
    pub fn name(self) -> &'static str {
        match self {
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::Css => "css",
            Language::Dockerfile => "dockerfile",
            Language::Go => "go",
            Language::Html => "html",
            Language::JavaScript => "javascript",
            Language::Json => "json",
            Language::Makefile => "makefile",
            Language::Markdown => "markdown",
            Language::Python => "python",
            Language::Rust => "rust",
            Language::Sql => "sql",
            Language::Toml => "toml",
            Language::TypeScript => "typescript",
            Language::Yaml => "yaml",
        }
    }

    /// Parses a language name as printed by [`Language::name`], plus common aliases.
    pub fn from_name(name: &str) -> Option<Language> {
        let lower = name.to_ascii_lowercase();
        let alias = match lower.as_str() {
            "c++" | "cxx" => "cpp",
            "js" | "jsx" => "javascript",
            "ts" | "tsx" => "typescript",
            "py" => "python",
            "rs" => "rust",
            "md" => "markdown",
            "yml" => "yaml",
            "make" => "makefile",
            "docker" => "dockerfile",
            other => other,
        };
        Language::ALL.into_iter().find(|lang| lang.name() == alias)
    }
}

impl std::fmt::Display for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Lower-case extension (without dot) to language; sorted by extension, checked by a test.
const EXTENSIONS: &[(&str, Language)] = &[
    ("c", Language::C),
    ("cc", Language::Cpp),
    ("cjs", Language::JavaScript),
    ("cpp", Language::Cpp),
    ("css", Language::Css),
    ("cts", Language::TypeScript),
    ("cxx", Language::Cpp),
    ("dockerfile", Language::Dockerfile),
    ("go", Language::Go),
    ("h", Language::C),
    ("hh", Language::Cpp),
    ("hpp", Language::Cpp),
    ("htm", Language::Html),
    ("html", Language::Html),
    ("hxx", Language::Cpp),
    ("js", Language::JavaScript),
    ("json", Language::Json),
    ("jsonc", Language::Json),
    ("jsx", Language::JavaScript),
    ("less", Language::Css),
    ("markdown", Language::Markdown),
    ("md", Language::Markdown),
    ("mjs", Language::JavaScript),
    ("mk", Language::Makefile),
    ("mts", Language::TypeScript),
    ("py", Language::Python),
    ("pyi", Language::Python),
    ("rs", Language::Rust),
    ("scss", Language::Css),
    ("sql", Language::Sql),
    ("toml", Language::Toml),
    ("ts", Language::TypeScript),
    ("tsx", Language::TypeScript),
    ("yaml", Language::Yaml),
    ("yml", Language::Yaml),
];

/// Exact file names with no telling extension; sorted, checked by a test. Decided by name
/// only: lock files are listed one by one because `*.lock` is no format (`Cargo.lock` is TOML,
/// `flake.lock` JSON, `yarn.lock` and `Gemfile.lock` neither), and tools' `rc` files are read
/// in their usual form, JSON (with comments).
const FILE_NAMES: &[(&str, Language)] = &[
    (".babelrc", Language::Json),
    (".clang-format", Language::Yaml),
    (".clang-tidy", Language::Yaml),
    (".clangd", Language::Yaml),
    (".eslintrc", Language::Json),
    (".jshintrc", Language::Json),
    (".prettierrc", Language::Json),
    (".stylelintrc", Language::Json),
    (".swcrc", Language::Json),
    (".yamllint", Language::Yaml),
    ("BSDmakefile", Language::Makefile),
    ("Cargo.lock", Language::Toml),
    ("Containerfile", Language::Dockerfile),
    ("Dockerfile", Language::Dockerfile),
    ("GNUmakefile", Language::Makefile),
    ("Gopkg.lock", Language::Toml),
    ("Makefile", Language::Makefile),
    ("Pipfile", Language::Toml),
    ("Pipfile.lock", Language::Json),
    ("composer.lock", Language::Json),
    ("deno.lock", Language::Json),
    ("flake.lock", Language::Json),
    ("makefile", Language::Makefile),
    ("pdm.lock", Language::Toml),
    ("poetry.lock", Language::Toml),
    ("uv.lock", Language::Toml),
];

/// The language of `path`, by file name first, then by extension (case-insensitive).
pub fn detect(path: &Path) -> Option<Language> {
    // A name that is not UTF-8 is read lossily: `caf\xe9.py` is still Python.
    let name = path.file_name()?.to_string_lossy();
    let name = name.as_ref();
    if let Ok(index) = FILE_NAMES.binary_search_by(|(known, _)| known.cmp(&name)) {
        return Some(FILE_NAMES[index].1);
    }
    // `Dockerfile.dev`, `Containerfile.prod`: a suffix names a variant, not a language.
    if name.starts_with("Dockerfile.") || name.starts_with("Containerfile.") {
        return Some(Language::Dockerfile);
    }
    let ext = path.extension()?.to_string_lossy().to_ascii_lowercase();
    EXTENSIONS
        .binary_search_by(|(known, _)| known.cmp(&ext.as_str()))
        .ok()
        .map(|index| EXTENSIONS[index].1)
}

/// Whether `path` is a package manager's lock file (`Cargo.lock`, `package-lock.json`, …):
/// generated data that directory outlines leave out unless it is named.
pub fn is_lock_file(path: &Path) -> bool {
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

/// A one-line list of what is supported, for the "no parser" message.
pub fn supported_summary() -> String {
    let mut exts: Vec<String> = EXTENSIONS
        .iter()
        .map(|(ext, _)| format!(".{ext}"))
        .collect();
    exts.extend(FILE_NAMES.iter().map(|(name, _)| name.to_string()));
    exts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_and_unique() {
        assert!(EXTENSIONS.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(FILE_NAMES.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(EXTENSIONS
            .iter()
            .all(|(ext, _)| *ext == ext.to_ascii_lowercase()));
    }

    #[test]
    fn every_language_is_reachable_and_named_uniquely() {
        for lang in Language::ALL {
            let by_ext = EXTENSIONS.iter().any(|(_, l)| *l == lang);
            let by_name = FILE_NAMES.iter().any(|(_, l)| *l == lang);
            assert!(by_ext || by_name, "{lang} has no extension or file name");
            assert_eq!(Language::from_name(lang.name()), Some(lang));
        }
        assert!(Language::ALL.windows(2).all(|w| w[0].name() < w[1].name()));
    }

    #[test]
    fn detects_by_name_and_extension() {
        let cases = [
            ("src/app.PY", Some(Language::Python)),
            ("Makefile", Some(Language::Makefile)),
            ("rules.mk", Some(Language::Makefile)),
            ("build/Dockerfile", Some(Language::Dockerfile)),
            ("Dockerfile.dev", Some(Language::Dockerfile)),
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
        ];
        for (path, want) in cases {
            assert_eq!(detect(Path::new(path)), want, "{path}");
        }
    }
}
