//! Validated configuration: the one place flags become decisions and defaults live.

use crate::cli::Args;
use crate::error::{Error, Result};
use crate::lang::Language;
use crate::outline::select::Budget;
use std::path::PathBuf;

/// Most preview lines per entry.
pub const MAX_PREVIEW: usize = 10;

/// What to do and how to show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    pub path: PathBuf,
    /// `--print` was given (without it, a terminal would get the interactive viewer).
    pub print: bool,
    pub json: bool,
    /// Explicit `--depth`; directory mode falls back to 1 and file mode to unlimited.
    pub depth: Option<usize>,
    pub max_nodes: Option<usize>,
    pub preview: usize,
    pub signatures: bool,
    pub line_numbers: bool,
    pub symbol: Option<String>,
    pub language: Option<Language>,
    pub hidden: bool,
    /// `None`: the mode's default (see `print::directory`).
    pub max_files: Option<usize>,
    pub max_output: Option<usize>,
}

impl Config {
    pub fn from_args(args: Args) -> Result<Config> {
        if args.preview > MAX_PREVIEW {
            return Err(Error::Usage(format!(
                "--preview takes 0 to {MAX_PREVIEW} lines, not {}",
                args.preview
            )));
        }
        if args.depth == Some(0) {
            return Err(Error::Usage("--depth must be at least 1".into()));
        }
        if args.max_nodes == Some(0) {
            return Err(Error::Usage("--max-nodes must be at least 1".into()));
        }
        if args.max_files == Some(0) {
            return Err(Error::Usage("--max-files must be at least 1".into()));
        }
        let language = match &args.lang {
            None => None,
            Some(name) => Some(Language::from_name(name).ok_or_else(|| {
                let known: Vec<_> = Language::ALL.iter().map(|l| l.name()).collect();
                Error::Usage(format!(
                    "unknown language '{name}'; known: {}",
                    known.join(", ")
                ))
            })?),
        };
        Ok(Config {
            path: args.path.unwrap_or_else(|| PathBuf::from(".")),
            print: args.print,
            json: args.json,
            depth: args.depth,
            max_nodes: args.max_nodes,
            preview: args.preview,
            signatures: !args.no_signatures,
            line_numbers: !args.no_line_numbers,
            symbol: args.symbol,
            language,
            hidden: args.hidden,
            max_files: args.max_files,
            max_output: args.max_output,
        })
    }

    /// The budget for one file shown on its own.
    pub fn file_budget(&self) -> Budget {
        Budget {
            max_depth: self.depth,
            max_nodes: self.max_nodes,
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
        assert!(c.signatures && c.line_numbers && !c.json);
        assert_eq!(c.file_budget(), Budget::default());
        assert_eq!(c.directory_budget().max_depth, Some(1));
        assert_eq!((c.max_files, c.max_output), (None, None));
    }

    #[test]
    fn rejects_out_of_range_values() {
        for bad in [
            &["--preview", "11"][..],
            &["--depth", "0"],
            &["--max-nodes", "0"],
            &["--max-files", "0"],
            &["--lang", "cobol"],
        ] {
            assert!(matches!(config(bad), Err(Error::Usage(_))), "{bad:?}");
        }
        assert_eq!(
            config(&["--lang", "TS"]).expect("valid").language,
            Some(Language::TypeScript)
        );
    }
}
