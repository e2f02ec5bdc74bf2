//! The `outline` binary: parse arguments, dispatch, map the outcome to an exit code.

use clap::Parser;
use outliner::cli::Args;
use outliner::config::Config;
use outliner::print::{self, Outcome};
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
            let first = rendered.lines().next().unwrap_or("invalid arguments");
            let message = first.strip_prefix("error: ").unwrap_or(first);
            let _ = writeln!(
                std::io::stderr(),
                "outline: {message} (see 'outline --help')"
            );
            return ExitCode::from(2);
        }
    };
    match run(args) {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            let _ = writeln!(std::io::stderr(), "outline: {err}");
            ExitCode::from(2)
        }
    }
}

fn run(args: Args) -> Result<ExitCode, Error> {
    let config = Config::from_args(args)?;
    if !config.print && std::io::stdout().is_terminal() {
        // The interactive viewer is not built yet; print mode is what a terminal gets for now.
        let _ = writeln!(
            std::io::stderr(),
            "outline: the interactive viewer is not available yet; showing --print output"
        );
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
    })
}

fn is_broken_pipe(err: &Error) -> bool {
    matches!(err, Error::Io { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
}
