//! JSON-RPC framing in front of rmcp's stdio transport. rmcp drops a line that is not JSON
//! without a word (a truncated object, `hello world`, invalid UTF-8, a trailing NUL, arrays
//! nested past serde_json's depth limit); JSON-RPC asks for a `-32700` parse error, so that a
//! client learns its request was never read instead of waiting for an answer. Every line from
//! the client is checked here first: JSON goes on to rmcp unchanged, anything else gets the
//! error (with `id: null`, as the id could not be read). Only the client's unreadable lines
//! are answered, so an answer echoed back cannot start a storm: it is JSON.
//!
//! rmcp's answers and these errors share standard output through one writer that copies whole
//! lines only, so an error never lands inside an answer.
//!
//! The client going away (its input ends, or its output breaks) is told to the tool calls at
//! once through [`Gone`]: rmcp itself waits up to 5 s for calls in flight after its input ends,
//! and a call that never writes would run on to its end.

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, watch};

/// Longest line read from the client, as rmcp's own limit: past it, the line is skipped to
/// its end and answered with a parse error, never buffered whole.
const MAX_LINE: usize = 16 * 1024 * 1024;
/// Room between the two halves of each pipe to rmcp.
const PIPE: usize = 64 * 1024;

/// The pipes rmcp reads and writes as it would the stdio itself, and the client's departure.
pub struct Checked {
    /// What rmcp reads: the client's JSON lines.
    pub input: tokio::io::DuplexStream,
    /// What rmcp writes: its answers, copied to the client.
    pub output: tokio::io::DuplexStream,
    /// Resolves once the client is gone.
    pub gone: Gone,
}

/// Serves `input` and `output` (the client's stdio) through [`Checked`]'s pipes. Ends when the
/// client goes away (rmcp then sees its input end) or rmcp closes its writer.
pub fn checked<R, W>(input: R, output: W) -> Checked
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (rmcp_reads, to_rmcp) = tokio::io::duplex(PIPE);
    let (rmcp_writes, from_rmcp) = tokio::io::duplex(PIPE);
    let (errors, pending) = mpsc::channel(16);
    let (left, gone) = watch::channel(false);
    let left = std::sync::Arc::new(left);
    tokio::spawn(read_client(input, to_rmcp, errors, left.clone()));
    tokio::spawn(write_client(from_rmcp, pending, output, left));
    Checked {
        input: rmcp_reads,
        output: rmcp_writes,
        gone: Gone(gone),
    }
}

/// The client's departure, awaited by every tool call so that its work stops with it.
#[derive(Clone)]
pub struct Gone(watch::Receiver<bool>);

impl Gone {
    /// Resolves once the client's input has ended or its output broke.
    pub async fn wait(mut self) {
        // An error means both copying tasks have ended: nobody is left to answer either.
        let _ = self.0.wait_for(|gone| *gone).await;
    }
}

/// Copies the client's JSON lines to rmcp and turns every other line into a parse error.
async fn read_client<R, W>(
    input: R,
    mut to_rmcp: W,
    errors: mpsc::Sender<Vec<u8>>,
    left: std::sync::Arc<watch::Sender<bool>>,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
    let mut output_broke = left.subscribe();
    loop {
        line.clear();
        let read = tokio::select! {
            read = read_line(&mut input, &mut line) => read,
            // Answers can no longer reach the client: stop reading its requests.
            _ = output_broke.wait_for(|gone| *gone) => break,
        };
        let verdict = match read {
            Ok(Line::End) | Err(_) => break,
            Ok(Line::TooLong) => Err(format!("line longer than {MAX_LINE} bytes")),
            Ok(Line::Whole) => check(trim(&line)),
        };
        let sent = match verdict {
            Ok(true) => to_rmcp.write_all(&line).await.is_ok() && to_rmcp.flush().await.is_ok(),
            Ok(false) => true, // blank: nothing to answer
            Err(why) => errors.send(parse_error(&why)).await.is_ok(),
        };
        if !sent {
            break;
        }
    }
    // Dropping the pipe ends rmcp's input, so a client that goes away ends the server; the
    // calls in flight stop now rather than when rmcp stops waiting for them.
    left.send_replace(true);
}

/// What one read gave.
enum Line {
    /// A line, with its newline (or the last bytes before the end).
    Whole,
    /// Longer than [`MAX_LINE`]: skipped to its end, `line` left empty.
    TooLong,
    /// The client closed its side.
    End,
}

/// Reads one line into `line`, holding at most [`MAX_LINE`] bytes of it.
async fn read_line<R: AsyncRead + Unpin>(
    input: &mut BufReader<R>,
    line: &mut Vec<u8>,
) -> std::io::Result<Line> {
    let n = (&mut *input)
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', line)
        .await?;
    if n == 0 {
        return Ok(Line::End);
    }
    if line.ends_with(b"\n") || line.len() <= MAX_LINE {
        return Ok(Line::Whole);
    }
    line.clear();
    loop {
        let mut rest = Vec::new();
        let n = (&mut *input)
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut rest)
            .await?;
        if n == 0 || rest.ends_with(b"\n") {
            return Ok(Line::TooLong);
        }
    }
}

/// Deepest nesting rmcp's parser reads (serde_json stops at 128 levels); a message nested
/// deeper is dropped by it, so it is answered here.
const MAX_DEPTH: usize = 127;

/// `Ok(true)` for JSON rmcp can read, `Ok(false)` for a blank line, `Err` with the reason for
/// anything else. The check keeps nothing (`IgnoredAny`) and uses no deep stack.
fn check(line: &[u8]) -> Result<bool, String> {
    if line.trim_ascii().is_empty() {
        return Ok(false);
    }
    // JSON text is UTF-8, and `IgnoredAny` skips strings without decoding them.
    if let Err(err) = std::str::from_utf8(line) {
        return Err(format!("invalid UTF-8 at byte {}", err.valid_up_to()));
    }
    // `IgnoredAny` skips nested values without counting them.
    if nesting(line) > MAX_DEPTH {
        return Err(format!("nested deeper than {MAX_DEPTH} levels"));
    }
    serde_json::from_slice::<serde::de::IgnoredAny>(line)
        .map(|_| true)
        .map_err(|err| err.to_string())
}

/// How deep arrays and objects nest in `json`, brackets inside strings not counted.
fn nesting(json: &[u8]) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for &byte in json {
        match (in_string, byte) {
            (true, _) if escaped => escaped = false,
            (true, b'\\') => escaped = true,
            (true, b'"') | (false, b'"') => in_string = !in_string,
            (false, b'[' | b'{') => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            (false, b']' | b'}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// The line without its line ending (`\n` or `\r\n`).
fn trim(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// The JSON-RPC parse error for a line that could not be read, as one line.
fn parse_error(why: &str) -> Vec<u8> {
    let error = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": -32700, "message": format!("Parse error: {why}")},
    });
    let mut line = error.to_string().into_bytes();
    line.push(b'\n');
    line
}

/// Copies rmcp's answers to the client a whole line at a time, and the parse errors between
/// them.
async fn write_client<R, W>(
    from_rmcp: R,
    mut errors: mpsc::Receiver<Vec<u8>>,
    mut output: W,
    left: std::sync::Arc<watch::Sender<bool>>,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut answers = BufReader::new(from_rmcp);
    let mut line = Vec::new();
    let mut errors_open = true;
    loop {
        // `read_until` keeps what it read in `line` when the other branch wins, and goes on
        // from there the next time: an answer is written only once it is whole.
        let ready = tokio::select! {
            // Errors first: those already sent go out even when rmcp has closed its side.
            biased;
            error = errors.recv(), if errors_open => match error {
                Some(error) => error,
                None => {
                    errors_open = false;
                    continue;
                }
            },
            read = answers.read_until(b'\n', &mut line) => match read {
                Ok(0) | Err(_) => break,
                Ok(_) if line.ends_with(b"\n") => std::mem::take(&mut line),
                Ok(_) => continue,
            },
        };
        if output.write_all(&ready).await.is_err() || output.flush().await.is_err() {
            // A broken pipe: the client is gone.
            left.send_replace(true);
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_json_is_passed_on() {
        assert_eq!(
            check(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            Ok(true)
        );
        assert_eq!(check(b""), Ok(false));
        assert_eq!(check(b" \t"), Ok(false));
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        for bad in [
            &b"hello world"[..],
            b"{\"jsonrpc\":",
            b"{\"a\":\"\xff\xfe\"}",
            b"{}\0",
            deep.as_bytes(),
        ] {
            let shown = String::from_utf8_lossy(&bad[..bad.len().min(40)]).into_owned();
            assert!(check(bad).is_err(), "{shown:?}");
        }
        let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        // The same limit as serde_json's own parser, which rmcp's is.
        for depth in [MAX_DEPTH, MAX_DEPTH + 1] {
            let json = nested(depth);
            let parsed = serde_json::from_str::<serde_json::Value>(&json).is_ok();
            assert_eq!(check(json.as_bytes()).is_ok(), parsed, "{depth}");
        }
        assert!(check(nested(MAX_DEPTH).as_bytes()).is_ok());
        assert_eq!(nesting(br#"{"a": "[[[{", "b": ["\"]"]}"#), 2);
        assert_eq!(trim(b"{}\r\n"), b"{}");
    }

    #[test]
    fn the_error_is_one_json_rpc_line() {
        let line = parse_error("expected value at line 1 column 1");
        assert!(line.ends_with(b"\n") && !line[..line.len() - 1].contains(&b'\n'));
        let value: serde_json::Value = serde_json::from_slice(&line).expect("JSON");
        assert_eq!(value["error"]["code"], -32700);
        assert_eq!(value["id"], serde_json::Value::Null);
    }

    #[tokio::test]
    async fn bad_lines_are_answered_and_good_ones_passed_on() {
        let (mut client, server_input) = tokio::io::duplex(1024);
        let (server_output, sink) = tokio::io::duplex(4096);
        let Checked {
            input: mut rmcp_reads,
            output: rmcp_writes,
            gone,
        } = checked(server_input, server_output);
        client
            .write_all(b"hello world\n{\"id\":1}\r\n\n{\"trailing\":0}\0\n")
            .await
            .expect("write");
        drop(client);
        let mut passed = Vec::new();
        rmcp_reads.read_to_end(&mut passed).await.expect("read");
        assert_eq!(passed, b"{\"id\":1}\r\n");
        // The end of the client's input is its departure.
        tokio::time::timeout(std::time::Duration::from_secs(5), gone.wait())
            .await
            .expect("the client's departure is told");
        // rmcp closing its side ends the writer once the errors already sent are out.
        drop(rmcp_writes);
        let mut answered = String::new();
        BufReader::new(sink)
            .read_to_string(&mut answered)
            .await
            .expect("read");
        assert_eq!(answered.lines().count(), 2, "{answered}");
        assert!(
            answered.lines().all(|line| line.contains("-32700")),
            "{answered}"
        );
    }
}
