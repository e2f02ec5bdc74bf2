//! Validated configuration: the one place flags become decisions and defaults live.

use crate::cli::{Args, SortKey};
use crate::document::Annotations;
use crate::error::{Error, Result};
use crate::lang::Language;
use crate::outline::select::Budget;
use crate::search::{query, FindQuery, RefQuery};
use crate::tokens::Tokenizer;
use regex::Regex;
use std::path::PathBuf;

/// What to print.
#[derive(Debug, Clone)]
pub enum Mode {
    /// The outline (the default).
    Outline,
    /// Symbols' bodies (or members, with a depth), one query after another.
    Symbol(Vec<String>),
    /// Definitions across the paths.
    Find(FindQuery),
    /// A regex across the paths, hits grouped by enclosing entry.
    Grep(Regex),
    /// Uses of a name across the paths.
    Refs(RefQuery),
    /// The agent read: whole file when short, else head + outline + tail.
    Read,
    /// A line range.
    Lines(LineSpec),
}

/// A `--lines` request, before it meets a file's length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineSpec {
    /// `A:B`, inclusive; `A:` means to the end.
    Range { start: usize, end: Option<usize> },
    /// `A:+N`: N lines from A.
    Count { start: usize, count: usize },
    /// `-N:`: the last N lines.
    Last(usize),
}

impl LineSpec {
    /// Parses `A:B`, `A:`, `A:+N` or `-N:`.
    pub fn parse(spec: &str) -> Result<LineSpec> {
        let bad = || {
            Error::Usage(format!(
                "--lines takes A:B, A:+N or -N: (1-based, inclusive), not '{}'",
                crate::sanitize::echo(spec)
            ))
        };
        let number = |text: &str| text.trim().parse::<usize>().map_err(|_| bad());
        let (left, right) = spec.split_once(':').ok_or_else(bad)?;
        if let Some(last) = left.strip_prefix('-') {
            if !right.trim().is_empty() {
                return Err(bad());
            }
            return Ok(LineSpec::Last(number(last)?));
        }
        let start = number(left)?;
        if start == 0 {
            return Err(Error::Usage("--lines counts from line 1".into()));
        }
        if let Some(count) = right.strip_prefix('+') {
            return Ok(LineSpec::Count {
                start,
                count: number(count)?,
            });
        }
        if right.trim().is_empty() {
            return Ok(LineSpec::Range { start, end: None });
        }
        let end = number(right)?;
        if end < start {
            return Err(Error::Usage(format!(
                "--lines {spec}: the range is reversed (end before start)"
            )));
        }
        Ok(LineSpec::Range {
            start,
            end: Some(end),
        })
    }

    /// The inclusive range this asks for in a file of `total` lines, clamped into it, and
    /// whether clamping changed it. `None` when nothing of the file is asked for.
    pub fn resolve(self, total: usize) -> (Option<(usize, usize)>, bool) {
        let (start, end) = match self {
            LineSpec::Range { start, end } => (start, end.unwrap_or(usize::MAX)),
            LineSpec::Count { start, count } => {
                (start, start.saturating_add(count.saturating_sub(1)))
            }
            LineSpec::Last(count) => (total.saturating_sub(count) + 1, total),
        };
        let asked_past_end = match self {
            LineSpec::Range { end: None, .. } => start > total,
            LineSpec::Count { count: 0, .. } | LineSpec::Last(0) => true,
            _ => end > total,
        };
        if start > total || end < start {
            return (None, true);
        }
        (Some((start, end.min(total))), asked_past_end)
    }
}

pub use crate::cli::ColorChoice;

/// What to do and how to show it.
#[derive(Debug, Clone)]
pub struct Config {
    /// The first of `paths`: the one path of file modes and the viewer.
    pub path: PathBuf,
    /// Every path given (at least one).
    pub paths: Vec<PathBuf>,
    /// Read standard input instead of `path`.
    pub stdin: bool,
    /// `--print` was given (without it, a terminal would get the interactive viewer).
    pub print: bool,
    pub mode: Mode,
    pub json: bool,
    /// Explicit `--depth`; directory mode falls back to 1 and file mode to unlimited.
    pub depth: Option<usize>,
    pub max_nodes: Option<usize>,
    pub preview: usize,
    pub signatures: bool,
    pub line_numbers: bool,
    /// `--symbol` reads start at the entry's leading docs and attributes (`--no-docs`: off).
    pub docs: bool,
    pub language: Option<Language>,
    pub hidden: bool,
    /// `None`: the mode's default (see `print::directory`).
    pub max_files: Option<usize>,
    pub max_output: Option<usize>,
    pub if_hash: Option<String>,
    /// Canonical `--root`: every path must resolve inside it.
    pub root: Option<PathBuf>,
    /// Count tokens with this encoding (`--tokens`, `--tokenizer`, `--sort tokens`).
    pub tokens: Option<Tokenizer>,
    /// Changed-since-HEAD markers on (`--diff`, `--changed`).
    pub diff: bool,
    /// Keep only changed files and entries.
    pub changed_only: bool,
    /// Directory mode: largest files first.
    pub sort_by_tokens: bool,
    /// Interactive viewer: colour choice and syntax theme.
    pub color: ColorChoice,
    pub theme: Option<String>,
    /// Walk filters (`--glob`), ripgrep's override rules.
    pub globs: Vec<String>,
    /// Search modes: most results shown (`None`: the mode's default).
    pub max_results: Option<usize>,
    /// `--find`: print bodies too.
    pub body: bool,
    /// `--grep`: code only, never comments or strings.
    pub code_only: bool,
    /// `--grep`/`--refs`: context lines around hits.
    pub context: usize,
    /// `--grep`/`--refs`: each enclosing entry's body as context (`-W`).
    pub function_context: bool,
    /// Leave out test files and test modules.
    pub no_tests: bool,
}

impl Config {
    pub fn from_args(args: Args) -> Result<Config> {
        let kinds = match &args.kind {
            Some(list) => query::parse_kind_list(list)?,
            None => Vec::new(),
        };
        if !kinds.is_empty() && args.find.is_none() && args.symbol.is_empty() {
            return Err(Error::Usage("--kind goes with --find or --symbol".into()));
        }
        let mode = if let Some(query) = &args.find {
            Mode::Find(FindQuery::parse(query, &kinds)?)
        } else if let Some(pattern) = &args.grep {
            Mode::Grep(build_regex(pattern)?)
        } else if let Some(name) = &args.refs {
            Mode::Refs(RefQuery::parse(name)?)
        } else if !args.symbol.is_empty() {
            Mode::Symbol(args.symbol.clone())
        } else if args.read {
            Mode::Read
        } else if let Some(spec) = &args.lines {
            Mode::Lines(LineSpec::parse(spec)?)
        } else {
            Mode::Outline
        };
        let sort_by_tokens = args.sort == Some(SortKey::Tokens);
        let wants_tokens = args.tokens || args.tokenizer.is_some() || sort_by_tokens;
        let root = args.root.as_deref().map(canonical_root).transpose()?;
        let paths = match args.paths.is_empty() {
            true => vec![PathBuf::from(".")],
            false => args.paths,
        };
        Ok(Config {
            path: paths[0].clone(),
            paths,
            stdin: args.stdin,
            print: args.print,
            mode,
            json: args.json,
            depth: args.depth,
            max_nodes: args.max_nodes,
            preview: args.preview,
            signatures: !args.no_signatures,
            line_numbers: !args.no_line_numbers,
            docs: !args.no_docs,
            language: args.lang,
            hidden: args.hidden,
            max_files: args.max_files,
            max_output: args.max_output,
            if_hash: args.if_hash,
            root,
            tokens: wants_tokens.then(|| args.tokenizer.unwrap_or_default()),
            diff: args.diff || args.changed,
            changed_only: args.changed,
            sort_by_tokens,
            color: args.color.unwrap_or_default(),
            theme: args.theme.as_deref().map(check_theme).transpose()?,
            globs: args.glob,
            max_results: args.max_results,
            body: args.body,
            code_only: args.code_only,
            context: args.context.unwrap_or(0),
            function_context: args.function_context,
            no_tests: args.no_tests,
        })
    }

    /// With `--root`, refuses `path` unless it resolves (links and `..` followed) inside the
    /// root, before a byte of it is read. A path outside gets the same error whether or not
    /// it exists, so the answer tells nothing about what lies outside. Print, the viewer and
    /// the MCP server (before it reads a file's hash) all check here, in the same words.
    /// A path can change after it is checked, so every read under a root checks again on the
    /// file it opened ([`crate::source::read_in`]).
    pub fn check_root(&self, path: &std::path::Path) -> Result<()> {
        match &self.root {
            Some(root) => crate::source::check_inside(path, root),
            None => Ok(()),
        }
    }

    /// The budget for one file shown on its own.
    pub fn file_budget(&self) -> Budget {
        Budget {
            max_depth: self.depth,
            max_nodes: self.max_nodes,
        }
    }

    /// The annotations every loaded file gets, token counts reaching `max_depth`.
    pub fn annotations(&self, max_depth: Option<usize>) -> Annotations {
        Annotations {
            tokens: self.tokens,
            changed_only: self.changed_only,
            max_depth,
        }
    }

    /// The budget for each file in directory mode: top level unless `--depth` says otherwise.
    pub fn directory_budget(&self) -> Budget {
        Budget {
            max_depth: Some(self.depth.unwrap_or(1)),
            max_nodes: self.max_nodes,
        }
    }
}

/// A `--theme` name as the theme set spells it; an unknown one is a usage error in every
/// mode (listing the names), not only when the viewer would use it.
fn check_theme(name: &str) -> Result<String> {
    crate::highlight::known_theme(name)
        .map(String::from)
        .ok_or_else(|| {
            Error::Usage(format!(
                "unknown theme '{name}'; known: {}",
                crate::highlight::theme_names().join(", ")
            ))
        })
}

/// Compiles a `--grep` pattern; a syntax error is one line naming the column.
pub fn build_regex(pattern: &str) -> Result<Regex> {
    if let Err(err) = regex_syntax::Parser::new().parse(pattern) {
        let (column, why) = match &err {
            regex_syntax::Error::Parse(e) => (e.span().start.column, e.kind().to_string()),
            regex_syntax::Error::Translate(e) => (e.span().start.column, e.kind().to_string()),
            other => (1, other.to_string()),
        };
        return Err(Error::Usage(format!(
            "--grep '{}': {} at column {column}",
            crate::sanitize::echo(pattern),
            crate::sanitize::echo(&why)
        )));
    }
    regex::RegexBuilder::new(pattern)
        .multi_line(true)
        .crlf(true)
        .build()
        .map_err(|e| {
            let why = e.to_string();
            let last = why.lines().last().unwrap_or("invalid pattern").trim();
            Error::Usage(format!(
                "--grep '{}': {}",
                crate::sanitize::echo(pattern),
                crate::sanitize::echo(last)
            ))
        })
}

/// `--root` as a canonical directory: every path is checked against it.
fn canonical_root(dir: &std::path::Path) -> Result<PathBuf> {
    let root = dir
        .canonicalize()
        .map_err(|e| Error::Usage(format!("--root {}: {e}", dir.display())))?;
    if !root.is_dir() {
        return Err(Error::Usage(format!(
            "--root {}: not a directory",
            dir.display()
        )));
    }
    Ok(root)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn config(args: &[&str]) -> Result<Config> {
        let mut argv = vec!["outline"];
        argv.extend_from_slice(args);
        Config::from_args(Args::parse_from(argv))
    }

    #[test]
    fn defaults() {
        let c = config(&["--print"]).expect("valid");
        assert_eq!(c.path, PathBuf::from("."));
        assert_eq!(c.paths, [PathBuf::from(".")]);
        assert!(c.signatures && c.line_numbers && c.docs && !c.json);
        assert!(!config(&["--no-docs"]).expect("valid").docs);
        assert!(matches!(c.mode, Mode::Outline));
        assert_eq!(c.file_budget(), Budget::default());
        assert_eq!(c.directory_budget().max_depth, Some(1));
        assert_eq!((c.max_files, c.max_output), (None, None));
        assert_eq!((c.tokens, c.diff, c.changed_only), (None, false, false));
        let t = config(&["--sort", "tokens", "--changed"]).expect("valid");
        assert_eq!(
            (t.tokens, t.diff, t.changed_only),
            (Some(Tokenizer::O200k), true, true)
        );
        let c = config(&["--tokenizer", "cl100k"]).expect("valid");
        assert_eq!(c.tokens, Some(Tokenizer::Cl100k));
    }

    #[test]
    fn clap_refuses_values_off_their_range_or_list() {
        for bad in [
            &["--preview", "11"][..],
            &["--depth", "0"],
            &["--max-nodes", "0"],
            &["--max-files", "0"],
            &["--max-results", "0"],
            &["--lang", "cobol"],
            &["--sort", "size"],
            &["--color", "sometimes"],
            &["--tokenizer", "gpt2"],
        ] {
            let mut argv = vec!["outline"];
            argv.extend_from_slice(bad);
            let err = Args::try_parse_from(argv).expect_err("refused");
            let line = crate::cli::usage_line(&err);
            assert!(
                line.starts_with("invalid value") && line.contains(bad[0]),
                "{line}"
            );
        }
        let c = config(&[
            "--lang",
            "TS",
            "--tokenizer",
            "CL100K_BASE",
            "--color",
            "never",
        ]);
        let c = c.expect("valid");
        assert_eq!(c.language, Some(Language::TypeScript));
        assert_eq!(
            (c.tokens, c.color),
            (Some(Tokenizer::Cl100k), ColorChoice::Never)
        );
        // Every language is reachable by its own name.
        for language in Language::ALL {
            let c = config(&["--lang", language.name()]).expect("valid");
            assert_eq!(c.language, Some(language));
        }
    }

    #[test]
    fn rejects_out_of_range_values() {
        for bad in [
            &["--lines", "9:3"][..],
            &["--lines", "0:3"],
            &["--lines", "x"],
            &["--lines", "-3:5"],
            &["--root", "/no/such/dir"],
            &["--root", "/dev/null"],
            &["--theme", "no-such-theme"],
            &["--print", "--theme", "no-such-theme"],
        ] {
            assert!(matches!(config(bad), Err(Error::Usage(_))), "{bad:?}");
        }
        let theme = config(&["--theme", "nord"]).expect("valid").theme;
        assert_eq!(theme.as_deref(), Some("Nord"));
    }

    #[test]
    fn line_specs_parse_and_clamp() {
        let parse = |s| LineSpec::parse(s).expect("valid");
        assert_eq!(parse("3:5").resolve(10), (Some((3, 5)), false));
        assert_eq!(parse("3:50").resolve(10), (Some((3, 10)), true));
        assert_eq!(parse("3:").resolve(10), (Some((3, 10)), false));
        assert_eq!(parse("4:+3").resolve(10), (Some((4, 6)), false));
        assert_eq!(parse("9:+3").resolve(10), (Some((9, 10)), true));
        assert_eq!(parse("-3:").resolve(10), (Some((8, 10)), false));
        assert_eq!(parse("-30:").resolve(10), (Some((1, 10)), false));
        assert_eq!(parse("11:12").resolve(10), (None, true));
        assert_eq!(parse("1:1").resolve(0), (None, true));
        assert_eq!(parse("5:5").resolve(10), (Some((5, 5)), false));
    }
}
