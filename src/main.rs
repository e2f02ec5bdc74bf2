//! The `outline` binary: parse arguments, dispatch, map the outcome to an exit code.

use clap::Parser;
use outliner::cli::{self, Args};
use outliner::config::{Config, Mode};
use outliner::print::{self, Outcome};
use outliner::sanitize::name_for_terminal;
use outliner::Error;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(err) if !err.use_stderr() => {
            // --help and --version: clap's own text on stdout.
            let _ = err.print();
            return ExitCode::SUCCESS;
        }
        Err(err) => {
            // A usage error: clap's first line only, so every bad input costs one line.
            let rendered = err.render().to_string();
            let paragraph = rendered.split("\n\n").next().unwrap_or("invalid arguments");
            let joined = paragraph.split_whitespace().collect::<Vec<_>>().join(" ");
            let message = joined.strip_prefix("error: ").unwrap_or(&joined);
            let _ = writeln!(
                std::io::stderr(),
                "outline: {} (see 'outline --help')",
                name_for_terminal(message)
            );
            return ExitCode::from(2);
        }
    };
    match run(args) {
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

fn run(args: Args) -> Result<ExitCode, Error> {
    if let Some(code) = info(&args)? {
        return Ok(code);
    }
    let config = Config::from_args(args)?;
    if interactive(&config) && std::io::stdout().is_terminal() {
        outliner::tui::run(&config)?;
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
