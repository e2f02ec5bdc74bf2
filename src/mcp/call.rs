//! One tool call, run exactly as the command line would run it: the request becomes an argv,
//! clap's [`Args`] and [`Config::from_args`] validate it, and [`print::run`] writes the answer
//! into memory. Nothing here knows how a mode prints; it only captures and classifies.

use super::params::Request;
use crate::cli::{self, Args};
use crate::config::Config;
use crate::print::{self, Outcome};
use crate::source::{self, Loaded};
use clap::Parser;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// Diagnostics kept per call; past this a walk's messages are dropped (the answer is not).
const MAX_DIAGNOSTIC_BYTES: usize = 64 * 1024;

/// What a finished call produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Printed {
    /// An answer: standard output, diagnostics (without the `outline: ` prefix), and whether
    /// the output was stopped at the capture limit (so more would have followed).
    Answer {
        out: String,
        notes: String,
        overflowed: bool,
    },
    /// A refusal or failure, as one or a few lines for the client.
    Error(String),
}

/// Runs print mode for `config`, capturing at most `limit` bytes of output. Stops early, with
/// an error, once `cancel` is set.
pub fn run(config: &Config, limit: usize, cancel: &AtomicBool) -> Printed {
    let mut out = Capture::new(limit, cancel, false);
    let mut err = Capture::new(MAX_DIAGNOSTIC_BYTES, cancel, true);
    let outcome = print::run(config, &mut out, &mut err);
    if cancel.load(Ordering::Relaxed) {
        return Printed::Error("cancelled".into());
    }
    let notes = diagnostics(&err.bytes);
    let overflowed = out.overflowed;
    let answer = || Printed::Answer {
        out: String::from_utf8_lossy(&out.bytes).into_owned(),
        notes: notes.clone(),
        overflowed,
    };
    match outcome {
        // Nothing printed and something could not be read (a search of a missing path): the
        // command line's exit 2 with an empty stdout, an error as `outline` of that path is.
        Ok(Outcome::PartialFailure) if out.bytes.is_empty() => {
            Printed::Error(or_default(notes, "nothing could be read"))
        }
        Ok(Outcome::Success | Outcome::PartialFailure) => answer(),
        // The capture refused more output: what it holds is the start of a longer answer.
        Err(_) if overflowed => answer(),
        Ok(Outcome::NotFound) => Printed::Error(or_default(notes, "nothing found")),
        Ok(Outcome::Stale) => Printed::Error(format!("stale: {}", or_default(notes, "changed"))),
        Err(error) => Printed::Error(error.to_string()),
    }
}

/// The validated configuration for `request` inside `root`, or the one-line message the
/// command line would print.
pub fn config(root: &Path, request: &Request) -> Result<Config, String> {
    let mut argv = vec![
        "outline".to_string(),
        "--print".into(),
        format!("--root={}", root.display()),
    ];
    argv.extend(request.flags.iter().cloned());
    // After `--` a path is a path, even one that starts with a dash.
    argv.push("--".into());
    argv.extend(request.paths.iter().cloned());
    let args = Args::try_parse_from(argv).map_err(|err| cli::usage_line(&err))?;
    Config::from_args(args).map_err(|err| err.to_string())
}

/// The content hash of `path` when it is a single regular file inside the root, read before
/// the answer is printed: if the file changes in between, the hash is the older one and a
/// later `if_hash` reports the change, never the reverse. A binary file is refused here.
pub fn file_hash(config: &Config, request: &Request) -> Result<Option<String>, String> {
    let [path] = request.paths.as_slice() else {
        return Ok(None);
    };
    let path = Path::new(path);
    if !path.is_file() {
        // A folder, or a path print will refuse with its own words.
        return Ok(None);
    }
    config.check_root(path).map_err(|err| err.to_string())?;
    match source::read_in(path, config.root.as_deref()).map_err(|err| err.to_string())? {
        Loaded::Text { hash, .. } => Ok(Some(hash)),
        Loaded::Binary => Err(format!(
            "{}: binary file, nothing to outline or read",
            path.display()
        )),
    }
}

fn or_default(notes: String, default: &str) -> String {
    match notes.trim().is_empty() {
        true => default.to_string(),
        false => notes.trim_end().to_string(),
    }
}

/// Standard error's lines without the program-name prefix the command line puts on them.
fn diagnostics(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(|line| line.strip_prefix("outline: ").unwrap_or(line))
        .fold(String::new(), |mut notes, line| {
            notes.push_str(line);
            notes.push('\n');
            notes
        })
}

/// An in-memory writer that holds at most `limit` bytes. Past it, output fails (so a long
/// walk stops) unless `discard` says to drop the excess quietly (diagnostics). Every write
/// fails once the call is cancelled, which is how a synchronous print run is stopped.
struct Capture<'a> {
    bytes: Vec<u8>,
    limit: usize,
    cancel: &'a AtomicBool,
    discard: bool,
    overflowed: bool,
}

impl<'a> Capture<'a> {
    fn new(limit: usize, cancel: &'a AtomicBool, discard: bool) -> Capture<'a> {
        Capture {
            bytes: Vec::new(),
            limit,
            cancel,
            discard,
            overflowed: false,
        }
    }
}

impl Write for Capture<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.cancel.load(Ordering::Relaxed) {
            return Err(std::io::Error::other("cancelled"));
        }
        let room = self.limit.saturating_sub(self.bytes.len());
        if room == 0 && !buf.is_empty() {
            self.overflowed = true;
            return match self.discard {
                true => Ok(buf.len()),
                false => Err(std::io::Error::other(
                    "answer longer than the capture limit",
                )),
            };
        }
        let taken = buf.len().min(room);
        self.bytes.extend_from_slice(&buf[..taken]);
        Ok(taken)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_stops_at_its_limit_and_on_cancel() {
        let cancel = AtomicBool::new(false);
        let mut capture = Capture::new(5, &cancel, false);
        assert!(capture.write_all(b"abcdefgh").is_err());
        assert_eq!(
            (capture.bytes.as_slice(), capture.overflowed),
            (&b"abcde"[..], true)
        );
        let mut quiet = Capture::new(3, &cancel, true);
        assert!(quiet.write_all(b"abcdefgh").is_ok());
        assert_eq!(quiet.bytes, b"abc");
        cancel.store(true, Ordering::Relaxed);
        assert!(quiet.write_all(b"x").is_err());
    }

    #[test]
    fn diagnostics_lose_the_program_prefix() {
        assert_eq!(
            diagnostics(b"outline: a.py changed\nplain\n"),
            "a.py changed\nplain\n"
        );
    }
}
