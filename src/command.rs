//! The `outline` command: arguments -> [`Config`] -> the viewer, print mode or the MCP server
//! -> an exit code. The binary's `main` only calls [`run`].

use crate::cli::{self, Args, McpArgs};
use crate::config::{Config, Mode};
use crate::error::Error;
use crate::print::{self, Outcome};
use crate::sanitize::name_for_terminal;
use clap::Parser;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// Runs the `outline` command on this process's arguments and returns its exit code: 0 ok,
/// 1 nothing found, 2 usage or I/O error, 3 stale (`--if-hash`). A closed pipe is not an error.
pub fn run() -> ExitCode {
    // `outline mcp ...` is the MCP server; only an exact first argument selects it, so a file
    // named `mcp` is still outlined as `outline ./mcp` or `outline --print mcp`.
    if std::env::args_os()
        .nth(1)
        .is_some_and(|first| first == "mcp")
    {
        return match parse(
            McpArgs::try_parse_from(std::env::args_os().skip(1)),
            "outline mcp --help",
        ) {
            Ok(args) => finish(crate::mcp::serve(args).map(|()| ExitCode::SUCCESS)),
            Err(code) => code,
        };
    }
    match parse(Args::try_parse(), "outline --help") {
        Ok(args) => finish(run_args(args)),
        Err(code) => code,
    }
}

/// clap's result, or the exit code after printing help, the version or a one-line usage error.
fn parse<T>(parsed: Result<T, clap::Error>, help: &str) -> Result<T, ExitCode> {
    match parsed {
        Ok(args) => Ok(args),
        Err(err) if !err.use_stderr() => {
            // --help and --version: clap's own text on stdout.
            let _ = err.print();
            Err(ExitCode::SUCCESS)
        }
        Err(err) => {
            let message = cli::usage_line(&err);
            let _ = writeln!(
                std::io::stderr(),
                "outline: {} (see '{help}')",
                name_for_terminal(&message)
            );
            Err(ExitCode::from(2))
        }
    }
}

/// Maps a run's result to the exit code; a closed pipe is not an error.
fn finish(result: Result<ExitCode, Error>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            // Messages name paths, and a path can hold any byte but `/` and NUL.
            let message = err.to_string();
            let _ = writeln!(
                std::io::stderr(),
                "outline: {}",
                name_for_terminal(&message)
            );
            ExitCode::from(2)
        }
    }
}

fn run_args(args: Args) -> Result<ExitCode, Error> {
    if let Some(code) = info(&args)? {
        return Ok(code);
    }
    let config = Config::from_args(args)?;
    if interactive(&config) && std::io::stdout().is_terminal() {
        crate::tui::run(&config)?;
        return Ok(ExitCode::SUCCESS);
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut err = std::io::stderr();
    let outcome = print::run(&config, &mut out, &mut err)?;
    out.flush().map_err(|e| Error::io("<stdout>", e))?;
    Ok(match outcome {
        Outcome::Success => ExitCode::SUCCESS,
        Outcome::NotFound => ExitCode::from(1),
        Outcome::PartialFailure => ExitCode::from(2),
        Outcome::Stale => ExitCode::from(3),
    })
}

/// Whether a terminal should get the viewer: not with `--print`, standard input, or a flag
/// that only makes sense for printed output (JSON, reads, budgets, filters).
fn interactive(config: &Config) -> bool {
    !config.print
        && !config.stdin
        && !config.json
        && matches!(config.mode, Mode::Outline)
        && config.paths.len() == 1
        && config.if_hash.is_none()
        && !config.changed_only
        && !config.sort_by_tokens
}

/// The flags that print something about the program rather than about a file.
fn info(args: &Args) -> Result<Option<ExitCode>, Error> {
    let mut out = std::io::stdout().lock();
    let stdout_error = |e| Error::io("<stdout>", e);
    if args.agent_guide {
        out.write_all(cli::AGENT_GUIDE.as_bytes())
            .map_err(stdout_error)?;
    } else if let Some(shell) = args.completions {
        cli::write_completions(shell, &mut out);
    } else if args.man {
        cli::write_man(&mut out).map_err(stdout_error)?;
    } else {
        return Ok(None);
    }
    out.flush().map_err(stdout_error)?;
    Ok(Some(ExitCode::SUCCESS))
}

fn is_broken_pipe(err: &Error) -> bool {
    matches!(err, Error::Io { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
}
