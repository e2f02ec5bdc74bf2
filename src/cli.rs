//! Command-line flags as clap parses them. Nothing reads these directly but [`crate::config`],
//! which validates them into a [`crate::config::Config`].

use clap::Parser;
use std::path::PathBuf;

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
    #[arg(short, long, value_name = "N")]
    pub depth: Option<usize>,

    /// Show at most N entries, counted breadth first; cut nodes are marked.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<usize>,

    /// Show N source lines (0-10) after each entry.
    #[arg(long, value_name = "N", default_value_t = 0)]
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
    /// (`set_*`), optionally after a kind (`struct Worker`, `fn new`). Smart case.
    #[arg(short, long, value_name = "QUERY", conflicts_with_all = ["read", "lines", "grep", "refs"])]
    pub find: Option<String>,

    /// Search the paths for a regex (Rust syntax); hits are grouped under the symbol that
    /// encloses them.
    #[arg(long, value_name = "PATTERN", conflicts_with_all = ["read", "lines", "refs"])]
    pub grep: Option<String>,

    /// Where NAME is used in code (not in comments or strings), grouped by enclosing symbol,
    /// definitions first; Type.method keeps member uses (after `.`, `::`, `->`) only.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["read", "lines"])]
    pub refs: Option<String>,

    /// --find: only these kinds, comma-separated (fn, class, struct, method, …).
    #[arg(long, value_name = "LIST")]
    pub kind: Option<String>,

    /// --find: show at most N definitions [default: 50]; --grep/--refs: at most N hits.
    #[arg(long, value_name = "N")]
    pub max_results: Option<usize>,

    /// --find: print the bodies of the definitions found, not only their lines.
    #[arg(long)]
    pub body: bool,

    /// --grep: skip matches inside comments and strings (only files of code are searched).
    #[arg(long)]
    pub code_only: bool,

    /// --grep/--refs: show N lines of context around each hit.
    #[arg(short = 'C', long, value_name = "N")]
    pub context: Option<usize>,

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
    #[arg(long, value_name = "NAME")]
    pub tokenizer: Option<String>,

    /// Mark entries changed since HEAD (staged, unstaged and untracked), via git.
    #[arg(long)]
    pub diff: bool,

    /// Only changed files, and in them only changed entries with their parents (implies --diff).
    #[arg(long)]
    pub changed: bool,

    /// Directory mode: order files by path (default) or by tokens, largest first.
    #[arg(long, value_name = "KEY", value_parser = ["path", "tokens"])]
    pub sort: Option<String>,

    /// Parse as this language instead of guessing from the file name.
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,

    /// Leave out test code: test files and directories (tests/, test_*.py, *_test.go,
    /// *.spec.ts, …) and test modules (`mod tests`).
    #[arg(long)]
    pub no_tests: bool,

    /// Directory mode: include hidden files and directories.
    #[arg(long)]
    pub hidden: bool,

    /// Colours in the interactive viewer: auto (default; NO_COLOR turns them off), always, never.
    #[arg(long, value_name = "WHEN", value_parser = ["auto", "always", "never"])]
    pub color: Option<String>,

    /// Syntax theme for the interactive viewer's preview (a bat theme name).
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,

    /// Directory mode: outline at most N files [default for text: 1000; JSON: no limit].
    #[arg(long, value_name = "N")]
    pub max_files: Option<usize>,

    /// Directory mode: stop adding files once the output reaches this many bytes
    /// [default for text: 262144; JSON: no limit].
    #[arg(long, value_name = "BYTES")]
    pub max_output: Option<usize>,
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
