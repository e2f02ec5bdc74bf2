//! Command-line flags as clap parses them. Nothing reads these directly but [`crate::config`],
//! which validates them into a [`crate::config::Config`].

use clap::Parser;
use std::path::PathBuf;

/// Shows the structure of code and documents: classes, functions, headings, keys, with line
/// ranges an agent or a person can jump to.
#[derive(Debug, Parser)]
#[command(name = "outline", version, about, max_term_width = 100)]
pub struct Args {
    /// File or directory to outline (default: the current directory).
    pub path: Option<PathBuf>,

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

    /// Print one symbol's body: an id (1.2), a qualified name, a name, a suffix, or @LINE.
    #[arg(short, long, value_name = "QUERY")]
    pub symbol: Option<String>,

    /// Parse as this language instead of guessing from the file name.
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,

    /// Directory mode: include hidden files and directories.
    #[arg(long)]
    pub hidden: bool,

    /// Directory mode: outline at most N files [default for text: 1000; JSON: no limit].
    #[arg(long, value_name = "N")]
    pub max_files: Option<usize>,

    /// Directory mode: stop adding files once the output reaches this many bytes
    /// [default for text: 262144; JSON: no limit].
    #[arg(long, value_name = "BYTES")]
    pub max_output: Option<usize>,
}
