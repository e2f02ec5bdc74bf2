//! Command-line flags as clap parses them. Nothing reads these directly but [`crate::config`],
//! which validates them into a [`crate::config::Config`].

use crate::lang::Language;
use crate::tokens::Tokenizer;
use clap::builder::{PossibleValue, PossibleValuesParser, RangedU64ValueParser, TypedValueParser};
use clap::{Parser, ValueEnum};
use std::ffi::OsStr;
use std::path::PathBuf;

/// Most preview lines per entry (`--preview`).
pub const MAX_PREVIEW: u64 = 10;

/// Shows the structure of code and documents: classes, functions, headings, keys, with line
/// ranges an agent or a person can jump to.
#[derive(Debug, Parser)]
#[command(
    name = "outline",
    version,
    about,
    max_term_width = 100,
    after_help = "As an MCP server for coding agents: outline mcp [--root DIR] (see outline mcp --help)."
)]
pub struct Args {
    /// Files and directories to outline or search, mixed as you like (default: the current
    /// directory).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Print the outline instead of opening the interactive viewer.
    #[arg(short, long)]
    pub print: bool,

    /// Print JSON: one object for a file, JSON Lines sorted by path for a directory.
    #[arg(long)]
    pub json: bool,

    /// Deepest level to show (1 = top level). Default: all for a file, 1 in directory mode.
    #[arg(short, long, value_name = "N", value_parser = at_least_one())]
    pub depth: Option<usize>,

    /// Show at most N entries, counted breadth first; cut nodes are marked.
    #[arg(long, value_name = "N", value_parser = at_least_one())]
    pub max_nodes: Option<usize>,

    /// Show N source lines (0-10) after each entry.
    #[arg(long, value_name = "N", default_value_t = 0,
          value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_PREVIEW))]
    pub preview: usize,

    /// Show names instead of signatures.
    #[arg(long)]
    pub no_signatures: bool,

    /// Leave out the `L<n>` line-number prefix.
    #[arg(long)]
    pub no_line_numbers: bool,

    /// Print one symbol's body: an id (1.2), a qualified name, a name, a suffix, or @LINE; in
    /// a directory, the best definition found (or PATH#ID). Repeat for several; with --depth,
    /// the symbol's members instead of its body.
    #[arg(short, long, value_name = "QUERY", conflicts_with_all = ["read", "lines", "find", "grep", "refs"])]
    pub symbol: Vec<String>,

    /// Find definitions across the paths: a name, Type.method (or Type::method), a glob
    /// (`set_*`), optionally after a kind (`struct Worker`, `fn new`); `name(PREFIX` keeps the
    /// overloads whose parameters begin so (`setDateFormat(String`, `peek()`). Smart case.
    #[arg(short, long, value_name = "QUERY", conflicts_with_all = ["read", "lines", "grep", "refs"])]
    pub find: Option<String>,

    /// Search the paths for a regex (Rust syntax); hits are grouped under the symbol that
    /// encloses them.
    #[arg(long, value_name = "PATTERN", conflicts_with_all = ["read", "lines", "refs"])]
    pub grep: Option<String>,

    /// Where NAME is used in code (not in comments or strings), grouped by enclosing symbol,
    /// definitions first; Type.method keeps member uses (after `.`, `::`, C's `->`) and bare
    /// calls inside Type's own members; NAME(PARAMS keeps that overload's definitions and the
    /// calls passing as many arguments. Local variables, other overloads: left out (counted).
    #[arg(long, value_name = "NAME", conflicts_with_all = ["read", "lines"])]
    pub refs: Option<String>,

    /// --find: only these kinds, comma-separated (fn, class, struct, method, …).
    #[arg(long, value_name = "LIST")]
    pub kind: Option<String>,

    /// --find: show at most N definitions [default: 50]; --grep/--refs: at most N hits.
    #[arg(long, value_name = "N", value_parser = at_least_one())]
    pub max_results: Option<usize>,

    /// --find: print the bodies of the definitions found, not only their lines.
    #[arg(long)]
    pub body: bool,

    /// --grep: skip matches inside comments and strings (only files of code are searched).
    #[arg(long)]
    pub code_only: bool,

    /// --grep/--refs: show N lines of context around each hit (no further than the file).
    #[arg(short = 'C', long, value_name = "N")]
    pub context: Option<usize>,

    /// --grep/--refs: show each enclosing function (class…) whole when it has at most 60
    /// lines, else its first line, the block heads above each hit (the if/else chain) and a
    /// line around it (git grep's -W)
    #[arg(short = 'W', long)]
    pub function_context: bool,

    /// Walks: include (`*.rs`) or exclude (`!tests/**`) files by glob, as ripgrep's --glob.
    /// Repeatable.
    #[arg(short, long, value_name = "GLOB")]
    pub glob: Vec<String>,

    /// With --symbol: start at the symbol's own first line, leaving out the doc comments,
    /// attributes and decorators above it.
    #[arg(long)]
    pub no_docs: bool,

    /// Read a file for an agent: all of it when short; else head, outline, tail.
    #[arg(long, conflicts_with = "lines")]
    pub read: bool,

    /// Print lines A:B (inclusive), A:+N (N lines from A) or -N: (the last N), numbered.
    #[arg(long, value_name = "RANGE", allow_hyphen_values = true)]
    pub lines: Option<String>,

    /// Refuse (exit 3) unless the file's content hash (JSON "hash") is still H.
    #[arg(long, value_name = "H")]
    pub if_hash: Option<String>,

    /// Refuse any path that resolves outside DIR (symlinks and .. included).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,

    /// Read the text from standard input (needs --lang).
    #[arg(long, requires = "lang", conflicts_with = "paths")]
    pub stdin: bool,

    /// Print a short guide for coding agents and exit.
    #[arg(long)]
    pub agent_guide: bool,

    /// Print shell completions for SHELL (bash, zsh, fish, elvish, powershell) and exit.
    #[arg(long, value_name = "SHELL")]
    pub completions: Option<clap_complete::Shell>,

    /// Print the man page (roff) and exit.
    #[arg(long)]
    pub man: bool,

    /// Show token counts per entry and per file (exact for OpenAI encodings).
    #[arg(short, long)]
    pub tokens: bool,

    /// Encoding for --tokens: o200k (default), cl100k, or chars4 (bytes/4, no vocabulary).
    #[arg(long, value_name = "NAME", value_enum, ignore_case = true)]
    pub tokenizer: Option<Tokenizer>,

    /// Mark entries changed since HEAD (staged, unstaged and untracked), via git.
    #[arg(long)]
    pub diff: bool,

    /// Only changed files, and in them only changed entries with their parents (implies --diff).
    #[arg(long)]
    pub changed: bool,

    /// Directory mode: order files by path (default) or by tokens, largest first.
    #[arg(long, value_name = "KEY", value_enum)]
    pub sort: Option<SortKey>,

    /// Parse as this language instead of guessing from the file name (aliases such as ts, py
    /// and md work too).
    #[arg(long, value_name = "LANG", value_parser = LanguageParser)]
    pub lang: Option<Language>,

    /// Leave out test code: test files and directories (tests/, test_*.py, *_test.go,
    /// *.spec.ts, …) and test modules (`mod tests`).
    #[arg(long)]
    pub no_tests: bool,

    /// Directory mode: include hidden files and directories.
    #[arg(long)]
    pub hidden: bool,

    /// Colours in the interactive viewer: auto (default; NO_COLOR turns them off), always, never.
    #[arg(long, value_name = "WHEN", value_enum)]
    pub color: Option<ColorChoice>,

    /// Syntax theme for the interactive viewer's preview (a bat theme name).
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,

    /// Directory mode: outline at most N files [default for text: 1000; JSON: no limit].
    #[arg(long, value_name = "N", value_parser = at_least_one())]
    pub max_files: Option<usize>,

    /// Stop the output at this many bytes: directory mode stops adding files, one file's
    /// answer is cut at a line [default for a directory's text: 262144; else no limit].
    #[arg(long, value_name = "BYTES")]
    pub max_output: Option<usize>,
}

/// `--sort`: the order of files in directory mode.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum SortKey {
    /// By path.
    #[default]
    Path,
    /// By token count, largest first.
    Tokens,
}

/// `--color`: when the interactive viewer uses colour.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour unless `NO_COLOR` is set.
    #[default]
    Auto,
    Always,
    Never,
}

/// A count that must be at least 1 (`--depth`, `--max-nodes`, `--max-files`, `--max-results`).
fn at_least_one() -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(1..)
}

/// `--tokenizer`: each encoding by its short name (`o200k`), its `_base` name as JSON spells
/// it (`o200k_base`) an alias.
impl ValueEnum for Tokenizer {
    fn value_variants<'a>() -> &'a [Self] {
        &[Tokenizer::O200k, Tokenizer::Cl100k, Tokenizer::Chars4]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        let encoding = self.encoding();
        let short = encoding.trim_end_matches("_base");
        let value = PossibleValue::new(short);
        Some(match short == encoding {
            true => value,
            false => value.alias(encoding),
        })
    }
}

/// `--lang`: a name or alias [`Language::from_name`] knows. The names are the possible values,
/// so help, completions and the error for an unknown one list them.
#[derive(Debug, Clone, Copy)]
struct LanguageParser;

impl LanguageParser {
    fn names() -> PossibleValuesParser {
        PossibleValuesParser::new(Language::ALL.map(Language::name))
    }
}

impl TypedValueParser for LanguageParser {
    type Value = Language;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Language, clap::Error> {
        if let Some(language) = value.to_str().and_then(Language::from_name) {
            return Ok(language);
        }
        // Neither a name nor an alias: clap's own error for a value off the list, which names
        // them all and suggests a near one.
        let name = Self::names().parse_ref(cmd, arg, value)?;
        Language::from_name(&name)
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidValue).with_cmd(cmd))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            Language::ALL
                .iter()
                .map(|language| PossibleValue::new(language.name())),
        ))
    }
}

/// Writes completions for `shell` to `out`.
pub fn write_completions(shell: clap_complete::Shell, out: &mut dyn std::io::Write) {
    let mut command = <Args as clap::CommandFactory>::command();
    clap_complete::generate(shell, &mut command, "outline", out);
}

/// Writes the man page to `out`.
pub fn write_man(out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let command = <Args as clap::CommandFactory>::command();
    clap_mangen::Man::new(command).render(out)
}

/// The guide for coding agents, also shipped as assets/agent-guide.md.
pub const AGENT_GUIDE: &str = include_str!("../assets/agent-guide.md");

// Chosen by main when the first argument is exactly `mcp`, before `Args` is parsed, so the
// positional PATH keeps working everywhere else (`outline ./mcp` outlines a file named `mcp`).
/// `outline mcp`: the flags of the MCP server.
#[derive(Debug, Parser)]
#[command(
    name = "outline mcp",
    bin_name = "outline mcp",
    version,
    about = "Serves outline's modes as Model Context Protocol tools over stdio, for coding agents.",
    long_about = None,
    max_term_width = 100
)]
pub struct McpArgs {
    /// Directory every path argument must resolve inside; paths are relative to it
    /// (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,

    /// Default token budget of every answer (a call's `max_tokens` overrides it).
    #[arg(long, value_name = "N", default_value_t = 8000)]
    pub max_tokens: usize,
}

/// clap's error as one line (its first paragraph, without the `error: ` prefix), so every bad
/// input costs one line, on the command line and in an MCP tool error alike.
pub fn usage_line(err: &clap::Error) -> String {
    let rendered = err.render().to_string();
    let paragraph = rendered.split("\n\n").next().unwrap_or("invalid arguments");
    let joined = paragraph.split_whitespace().collect::<Vec<_>>().join(" ");
    joined
        .strip_prefix("error: ")
        .unwrap_or(&joined)
        .to_string()
}
