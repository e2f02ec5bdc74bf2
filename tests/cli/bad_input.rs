//! The bad-input table: hostile and odd inputs, generated at test time in a temp dir (nothing
//! large is committed). Every case must end within [`LIMIT`] with its exit code and at most
//! one line on stderr: no hang, no panic, no silent partial answer.

use super::util::{scrub, TestEnv};
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Every run must end within this; the slowest case (a 12 MB file read twice) takes well under
/// a second on a busy 2-core machine.
const LIMIT: Duration = Duration::from_secs(10);

/// What the child's standard input is.
enum Input {
    Nothing,
    Bytes(Vec<u8>),
    /// `pattern` written again and again until outline closes its end.
    Endless(&'static [u8]),
    File(&'static str),
}

/// Where the child's standard output goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Output {
    Captured,
    /// `/dev/full`: every write fails with ENOSPC.
    Full,
    /// A pipe whose reading end is closed at once.
    Closed,
}

/// What one run gave.
struct Ran {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs the real binary in `dir` with a scrubbed environment, killing it (and failing the
/// test) if it outlives [`LIMIT`].
fn run_in(dir: &Path, args: &[&str], input: Input, output: Output) -> Ran {
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("outline"));
    scrub(&mut command)
        .current_dir(dir)
        .args(args)
        .stderr(Stdio::piped());
    spawn_and_wait(command, args, input, output)
}

fn spawn_and_wait(mut command: Command, args: &[&str], input: Input, output: Output) -> Ran {
    command.stdin(match &input {
        Input::Nothing => Stdio::null(),
        Input::File(path) => Stdio::from(std::fs::File::open(path).expect("open input")),
        Input::Bytes(_) | Input::Endless(_) => Stdio::piped(),
    });
    command.stdout(match output {
        Output::Full => Stdio::from(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .expect("/dev/full"),
        ),
        Output::Captured | Output::Closed => Stdio::piped(),
    });
    let mut child = command.spawn().expect("spawn outline");
    if output == Output::Closed {
        drop(child.stdout.take());
    }
    let writer = child.stdin.take().map(|mut stdin| {
        std::thread::spawn(move || match input {
            Input::Bytes(bytes) => {
                let _ = stdin.write_all(&bytes);
            }
            Input::Endless(pattern) => {
                let block = pattern.repeat(64 * 1024 / pattern.len());
                while stdin.write_all(&block).is_ok() {}
            }
            Input::Nothing | Input::File(_) => {}
        })
    });
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let code = wait_within_limit(&mut child, args);
    if let Some(writer) = writer {
        writer.join().expect("stdin writer");
    }
    Ran {
        code,
        stdout: stdout.join().expect("stdout reader"),
        stderr: stderr.join().expect("stderr reader"),
    }
}

fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

fn wait_within_limit(child: &mut Child, args: &[&str]) -> i32 {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status.code().unwrap_or(-1);
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?}: still running after {LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Asserts the exit code and that stderr is empty (`stderr == ""`) or exactly one line
/// containing `stderr`.
fn expect(name: &str, ran: &Ran, code: i32, stderr: &str) {
    assert_eq!(ran.code, code, "{name}: exit code; stderr: {}", ran.stderr);
    if stderr.is_empty() {
        assert_eq!(ran.stderr, "", "{name}: stderr");
    } else {
        assert_eq!(ran.stderr.lines().count(), 1, "{name}: {}", ran.stderr);
        assert!(ran.stderr.contains(stderr), "{name}: {}", ran.stderr);
    }
}

/// Runs each `(name, args, message)` of `table`: exit 2, nothing on stdout, and one line on
/// stderr holding `message`.
fn expect_refused(env: &TestEnv, table: &[(&str, &[&str], &str)]) {
    for (name, args, message) in table {
        let ran = run_in(env.path(), args, Input::Nothing, Output::Captured);
        expect(name, &ran, 2, message);
        assert_eq!(ran.stdout, "", "{name}");
    }
}

fn write_bytes(env: &TestEnv, name: &str, bytes: &[u8]) {
    std::fs::write(env.path().join(name), bytes).expect("write");
}

fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
    let mut bytes = match big_endian {
        true => vec![0xFE, 0xFF],
        false => vec![0xFF, 0xFE],
    };
    for unit in text.encode_utf16() {
        bytes.extend_from_slice(&match big_endian {
            true => unit.to_be_bytes(),
            false => unit.to_le_bytes(),
        });
    }
    bytes
}

#[test]
fn special_files_are_refused_before_opening() {
    let env = TestEnv::new();
    let fifo = env.path().join("pipe.md");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let _socket = std::os::unix::net::UnixListener::bind(env.path().join("sock.md")).expect("bind");
    let table: &[(&str, &[&str], &str)] = &[
        (
            "fifo",
            &["--print", "pipe.md"],
            "pipe.md: a named pipe (FIFO)",
        ),
        (
            "fifo json",
            &["--print", "--json", "pipe.md"],
            "a named pipe",
        ),
        (
            "fifo read",
            &["--print", "--read", "pipe.md"],
            "a named pipe",
        ),
        (
            "fifo lines",
            &["--print", "--lines", "1:2", "pipe.md"],
            "a named pipe",
        ),
        ("socket", &["--print", "sock.md"], "sock.md: a socket"),
        (
            "dev zero",
            &["--print", "--lang", "md", "/dev/zero"],
            "a character device",
        ),
        (
            "dev urandom",
            &["--print", "--read", "/dev/urandom"],
            "a character device",
        ),
        (
            "dev null",
            &["--print", "--json", "/dev/null"],
            "a character device",
        ),
    ];
    expect_refused(&env, table);
}

#[test]
fn standard_input_stops_at_binary_or_at_the_read_cap() {
    let env = TestEnv::new();
    let args = ["--print", "--stdin", "--lang", "markdown"];
    let zeros = run_in(env.path(), &args, Input::Endless(b"\0"), Output::Captured);
    expect("endless zeros", &zeros, 0, "");
    assert_eq!(
        zeros.stdout,
        "outline: <stdin>: binary file, not outlined\n"
    );
    let random = run_in(
        env.path(),
        &args,
        Input::File("/dev/urandom"),
        Output::Captured,
    );
    expect("/dev/urandom", &random, 0, "");
    assert!(random.stdout.contains("binary file"), "{}", random.stdout);
    let text = run_in(
        env.path(),
        &args,
        Input::Endless(b"# heading\n"),
        Output::Captured,
    );
    expect(
        "endless text",
        &text,
        0,
        "stopped reading at the 10 MB read cap",
    );
    assert!(text
        .stdout
        .contains("# Limit: standard input stopped at the 10 MB read cap"));
}

#[test]
fn odd_but_valid_files_are_outlined() {
    let env = TestEnv::new();
    write_bytes(&env, "nul.py", b"def f():\n    return '\0'\n");
    let mut late_nul = "# Late\n".repeat(2000).into_bytes();
    late_nul.push(0);
    write_bytes(&env, "late.md", &late_nul);
    write_bytes(&env, "bom.md", b"\xEF\xBB\xBF# Title\n## Sub\n");
    write_bytes(&env, "le.md", &utf16("# Título\r\n## 🦀 Crab\r\n", false));
    write_bytes(&env, "be.md", &utf16("# Título\n## 🦀 Crab\n", true));
    write_bytes(&env, "crlf.md", b"# One\r\n\r\n## Two\r\ntext\r\n");
    write_bytes(&env, "empty.md", b"");
    write_bytes(&env, "latin1.md", b"# Caf\xe9 \xff\xfe\n");
    let table: &[(&str, &[&str], &str)] = &[
        (
            "NUL near the start",
            &["--print", "nul.py"],
            "binary file, not outlined",
        ),
        (
            "NUL past the probe",
            &["--print", "--depth", "1", "late.md"],
            "L2000-2001 h1 Late",
        ),
        (
            "UTF-8 BOM",
            &["--print", "bom.md"],
            "L1-2 h1 Title\n  L2 h2 Sub",
        ),
        (
            "UTF-16 LE",
            &["--print", "le.md"],
            "L1-2 h1 Título\n  L2 h2 🦀 Crab",
        ),
        (
            "UTF-16 BE",
            &["--print", "be.md"],
            "L1-2 h1 Título\n  L2 h2 🦀 Crab",
        ),
        (
            "UTF-16 lines",
            &["--print", "--lines", "2:2", "le.md"],
            "2 ## 🦀 Crab\n",
        ),
        (
            "CRLF",
            &["--print", "crlf.md"],
            "L1-4 h1 One\n  L3-4 h2 Two",
        ),
        (
            "CRLF lines",
            &["--print", "--lines", "3:4", "crlf.md"],
            "3 ## Two\n4 text\n",
        ),
        ("empty", &["--print", "empty.md"], "(no outline entries)"),
    ];
    for (name, args, stdout) in table {
        let ran = run_in(env.path(), args, Input::Nothing, Output::Captured);
        expect(name, &ran, 0, "");
        assert!(ran.stdout.contains(stdout), "{name}: {}", ran.stdout);
    }
    let empty_read = run_in(
        env.path(),
        &["--print", "--read", "empty.md"],
        Input::Nothing,
        Output::Captured,
    );
    expect("empty read", &empty_read, 0, "");
    assert_eq!(empty_read.stdout, "");
    // JSON `bytes` is the size on disk, whatever the decoded text's length.
    for (file, lines) in [("le.md", 2), ("be.md", 2), ("latin1.md", 1)] {
        let ran = run_in(
            env.path(),
            &["--print", "--json", file],
            Input::Nothing,
            Output::Captured,
        );
        let object: serde_json::Value = serde_json::from_str(&ran.stdout).expect("JSON");
        let size = std::fs::metadata(env.path().join(file))
            .expect("meta")
            .len();
        assert_eq!(object["bytes"], size, "{file}");
        assert_eq!(object["lines"], lines, "{file}");
    }
}

#[test]
fn paths_that_cannot_be_read_are_one_line_errors() {
    let env = TestEnv::new();
    let looped = env.path().join("loop.md");
    std::os::unix::fs::symlink(&looped, &looped).expect("symlink");
    // A file removed between the walk and the read looks like a link to nothing.
    std::os::unix::fs::symlink(env.path().join("gone.md"), env.path().join("deleted.md"))
        .expect("symlink");
    let long = format!("{}x.md", "a/".repeat(2046));
    assert_eq!(long.len(), 4096);
    let table: &[(&str, &[&str], &str)] = &[
        (
            "symlink loop",
            &["--print", "loop.md"],
            "loop.md: Too many levels of symbolic links",
        ),
        (
            "deleted",
            &["--print", "deleted.md"],
            "deleted.md: no such file or directory",
        ),
        (
            "deleted read",
            &["--print", "--read", "deleted.md"],
            "no such file or directory",
        ),
        ("4096-byte path", &["--print", &long], "File name too long"),
        (
            "directory read",
            &["--print", "--read", "."],
            "take one file, not a directory",
        ),
    ];
    expect_refused(&env, table);
}

/// Root reads every file, so the unreadable file is read by an unprivileged user (nobody)
/// when the tests run as root; when that user cannot run the binary, the case says so and
/// checks nothing.
#[test]
fn permission_denied_is_one_line() {
    use std::os::unix::fs::PermissionsExt;
    let env = TestEnv::new();
    let secret = env.path().join("secret.md");
    std::fs::write(&secret, "# Secret\n").expect("write");
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    std::fs::write(env.path().join("open.md"), "# Secret kept open\n").expect("write");
    // One file, then the searches over the directory: a file they cannot read is said, never
    // silently left out of the answer.
    for (args, message) in [
        (
            &["--print", "secret.md"][..],
            "secret.md: Permission denied",
        ),
        (
            &["--print", "--grep", "Secret", "."],
            "secret.md: Permission denied",
        ),
        (
            &["--print", "--find", "Secret", "."],
            "secret.md: Permission denied",
        ),
        (&["--print", "."], "secret.md: Permission denied"),
    ] {
        let Some(ran) = run_unreadable(&env, &secret, args) else {
            return;
        };
        assert_eq!(ran.code, 2, "{args:?}: {}", ran.stderr);
        assert!(ran.stderr.contains(message), "{args:?}: {}", ran.stderr);
    }
}

/// Runs `args` where `secret` cannot be read: as root, by user nobody; `None` (skipped, with
/// the reason printed) when nobody cannot run the binary.
fn run_unreadable(env: &TestEnv, secret: &Path, args: &[&str]) -> Option<Ran> {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    Some(if std::fs::read(secret).is_err() {
        run_in(env.path(), args, Input::Nothing, Output::Captured)
    } else {
        std::fs::set_permissions(env.path(), std::fs::Permissions::from_mode(0o755))
            .expect("chmod dir");
        let as_nobody = |args: &[&str]| {
            let mut command = Command::new(assert_cmd::cargo::cargo_bin("outline"));
            scrub(&mut command)
                .current_dir(env.path())
                .args(args)
                .stderr(Stdio::piped())
                .uid(65534)
                .gid(65534);
            command
        };
        let can_run = as_nobody(&["--version"])
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|status| status.success());
        if !can_run {
            eprintln!("skipped: running as root, and user nobody cannot run the binary");
            return None;
        }
        spawn_and_wait(as_nobody(args), args, Input::Nothing, Output::Captured)
    })
}

#[test]
fn closed_and_full_standard_output() {
    let env = TestEnv::new();
    env.write("long.md", &"# Heading\ntext\n".repeat(20_000));
    let args = ["--print", "--lines", "1:", "long.md"];
    let closed = run_in(env.path(), &args, Input::Nothing, Output::Closed);
    expect("closed pipe", &closed, 0, "");
    let full = run_in(env.path(), &args, Input::Nothing, Output::Full);
    expect("/dev/full", &full, 2, "No space left on device");
    let json = ["--print", "--json", "long.md"];
    let full = run_in(env.path(), &json, Input::Nothing, Output::Full);
    expect("/dev/full json", &full, 2, "No space left on device");
}

#[test]
fn cli_facts_about_paths() {
    let env = TestEnv::new();
    env.write("root/in.md", "# In\n");
    env.write("outside.md", "# Out\n");
    let table: &[(&str, &[&str], &str)] = &[
        (
            "if-hash dir",
            &["--print", "--if-hash", "xxh3:0", "root"],
            "--if-hash takes one file",
        ),
        (
            "root is a file",
            &["--print", "--root", "outside.md", "outside.md"],
            "not a directory",
        ),
        (
            "root missing",
            &["--print", "--root", "nope", "outside.md"],
            "--root nope",
        ),
    ];
    for (name, args, message) in table {
        let ran = run_in(env.path(), args, Input::Nothing, Output::Captured);
        expect(name, &ran, 2, message);
    }
    // Outside the root, a file that exists and one that does not get the same answer.
    let answer = |path: &str| {
        let ran = run_in(
            env.path(),
            &["--print", "--root", "root", path],
            Input::Nothing,
            Output::Captured,
        );
        expect(path, &ran, 2, "outside --root");
        ran.stderr.replacen(path, "PATH", 1)
    };
    let existing = answer("outside.md");
    for missing in [
        "missing.md",
        "root/../missing.md",
        "/no/such/file.md",
        "root/x/../../y",
    ] {
        assert_eq!(answer(missing), existing, "{missing}");
    }
    // A link inside the root to a missing file outside is outside, not "no such file".
    std::os::unix::fs::symlink(
        env.path().join("missing.md"),
        env.path().join("root/link.md"),
    )
    .expect("symlink");
    assert_eq!(answer("root/link.md"), existing);
    let inside_missing = run_in(
        env.path(),
        &["--print", "--root", "root", "root/nope.md"],
        Input::Nothing,
        Output::Captured,
    );
    expect(
        "missing inside",
        &inside_missing,
        2,
        "no such file or directory",
    );
}

#[test]
fn a_file_growing_while_read_is_read_up_to_its_size_at_open() {
    let env = TestEnv::new();
    let path = env.path().join("grow.md");
    std::fs::write(&path, "# Start\n".repeat(1000)).expect("write");
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let stop = Arc::clone(&stop);
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .expect("open for append");
        std::thread::spawn(move || {
            let block = "## More\n".repeat(8 * 1024);
            // At most 256 MB, so a regression fails by time rather than by filling the disk.
            for _ in 0..(256 << 20) / block.len() {
                if stop.load(Ordering::Relaxed) || file.write_all(block.as_bytes()).is_err() {
                    break;
                }
            }
        })
    };
    let ran = run_in(
        env.path(),
        &["--print", "--json", "grow.md"],
        Input::Nothing,
        Output::Captured,
    );
    let read = run_in(
        env.path(),
        &["--print", "--read", "grow.md"],
        Input::Nothing,
        Output::Captured,
    );
    stop.store(true, Ordering::Relaxed);
    writer.join().expect("writer");
    expect("growing file", &ran, 0, "");
    expect("growing file read", &read, 0, "");
    // The answer describes one prefix of the file: its size, its lines, its hash.
    let object: serde_json::Value = serde_json::from_str(&ran.stdout).expect("JSON");
    let bytes = std::fs::read(&path).expect("read back");
    let size = object["bytes"].as_u64().expect("bytes") as usize;
    assert!(size >= 8000 && size <= bytes.len());
    let prefix = &bytes[..size];
    let hash = format!("xxh3:{:016x}", xxhash_rust::xxh3::xxh3_64(prefix));
    assert_eq!(object["hash"], hash);
    let lines = prefix.iter().filter(|&&b| b == b'\n').count();
    assert_eq!(object["lines"], lines);
}

#[test]
fn utf16_on_standard_input_is_decoded() {
    let env = TestEnv::new();
    let ran = run_in(
        env.path(),
        &["--print", "--stdin", "--lang", "markdown"],
        Input::Bytes(utf16("# Uno\n## Dos\n", true)),
        Output::Captured,
    );
    expect("UTF-16 stdin", &ran, 0, "");
    assert_eq!(
        ran.stdout,
        "# Outline: <stdin> (markdown)\n\nL1-2 h1 Uno\n  L2 h2 Dos\n"
    );
}

/// Line `n` of the generated 12 MB Markdown file: a heading every 100 lines.
fn big_line(n: usize) -> String {
    match n % 100 {
        1 => format!("## Section {n:06}"),
        _ => format!("line {n:06} {}", "x".repeat(60)),
    }
}

/// The number of lines that make the big file just over 12 MB.
fn big_file(env: &TestEnv) -> usize {
    let mut text = String::new();
    let mut lines = 0;
    while text.len() < 12 << 20 {
        lines += 1;
        text.push_str(&big_line(lines));
        text.push('\n');
    }
    env.write("big.md", &text);
    lines
}

/// The stdout of a run that must succeed with nothing on stderr.
fn text_of(env: &TestEnv, args: &[&str]) -> String {
    let ran = run_in(env.path(), args, Input::Nothing, Output::Captured);
    expect(&args.join(" "), &ran, 0, "");
    ran.stdout
}

fn json_of(env: &TestEnv, args: &[&str]) -> serde_json::Value {
    let stdout = text_of(env, args);
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {stdout}"))
}

fn numbered(lines: std::ops::RangeInclusive<usize>, line: fn(usize) -> String) -> String {
    lines.map(|n| format!("{n} {}\n", line(n))).collect()
}

#[test]
fn reads_past_the_read_cap_are_exact() {
    let env = TestEnv::new();
    let total = big_file(&env);
    assert!(total > 157_005, "{total}");
    let size = std::fs::metadata(env.path().join("big.md"))
        .expect("meta")
        .len();
    let outline = json_of(&env, &["--print", "--json", "big.md"]);
    assert_eq!(
        (outline["lines"].as_u64(), outline["bytes"].as_u64()),
        (Some(total as u64), Some(size))
    );
    let limit = outline["input_limit"].as_str().expect("input_limit");
    assert!(limit.contains("outlined the first 50,000 lines"), "{limit}");
    // The last lines, whole, and a range far past the 10 MB kept in memory.
    assert_eq!(
        text_of(&env, &["--print", "--lines", "-3:", "big.md"]),
        numbered(total - 2..=total, big_line)
    );
    assert_eq!(
        text_of(&env, &["--print", "--lines", "157000:157005", "big.md"]),
        numbered(157_000..=157_005, big_line)
    );
    assert_eq!(
        text_of(
            &env,
            &["--print", "--lines", &format!("{}:+5", total - 1), "big.md"]
        ),
        format!(
            "{}[clamped to lines {}-{total}: the file has {total} lines]\n",
            numbered(total - 1..=total, big_line),
            total - 1
        )
    );
    let lines_json = json_of(
        &env,
        &["--print", "--json", "--lines", "157000:157001", "big.md"],
    );
    assert_eq!(lines_json["lines"].as_u64(), Some(total as u64));
    let as_written: String = (157_000..=157_001).map(|n| big_line(n) + "\n").collect();
    assert_eq!(lines_json["text"], as_written);
    // --read: the true tail, and the outline says where it stopped.
    let read = text_of(&env, &["--print", "--read", "big.md"]);
    assert!(
        read.ends_with(&numbered(total - 39..=total, big_line)),
        "{read}"
    );
    assert!(read.contains("# Limit: file has"), "{read}");
    let read_json = json_of(&env, &["--print", "--json", "--read", "big.md"]);
    assert_eq!(read_json["lines"].as_u64(), Some(total as u64));
    assert!(read_json["input_limit"].is_string());
    let symbol = json_of(&env, &["--print", "--json", "--symbol", "@150", "big.md"]);
    assert_eq!(symbol["lines"].as_u64(), Some(total as u64));
    assert!(symbol["input_limit"].is_string());
    // The hash covers the bytes past the cap: changing the last line makes the read stale.
    let hash = outline["hash"].as_str().expect("hash").to_string();
    let if_hash = ["--print", "--if-hash", &hash, "--lines", "-1:", "big.md"];
    assert_eq!(text_of(&env, &if_hash), numbered(total..=total, big_line));
    let mut bytes = std::fs::read(env.path().join("big.md")).expect("read");
    let last = bytes.len() - 2;
    bytes[last] = b'y';
    std::fs::write(env.path().join("big.md"), bytes).expect("write");
    let stale = run_in(env.path(), &if_hash, Input::Nothing, Output::Captured);
    expect("stale past the cap", &stale, 3, "big.md changed");
}

/// Line `n` of the generated long Python files: one function per line.
fn def_line(n: usize) -> String {
    format!("def f{n}(): pass")
}

#[test]
fn outlines_past_the_line_limit_say_so_everywhere() {
    let env = TestEnv::new();
    for (file, total) in [("sixty.py", 60_000), ("hundred.py", 100_000)] {
        let text: String = (1..=total).map(|n| def_line(n) + "\n").collect();
        env.write(file, &text);
        let outline = json_of(&env, &["--print", "--json", file]);
        assert_eq!(outline["lines"].as_u64(), Some(total as u64), "{file}");
        let limit = outline["input_limit"].as_str().expect("input_limit");
        assert!(
            limit.contains("outlined the first 50,000"),
            "{file}: {limit}"
        );
        assert!(text_of(&env, &["--print", file]).contains("# Limit: file has"));
        let read = text_of(&env, &["--print", "--read", file]);
        assert!(
            read.contains("[outline: 50000 top-level entries]\n# Limit: file has"),
            "{read}"
        );
        assert!(
            read.ends_with(&numbered(total - 39..=total, def_line)),
            "{file}"
        );
        let read_json = json_of(&env, &["--print", "--json", "--read", file]);
        assert_eq!(read_json["input_limit"], outline["input_limit"]);
        assert_eq!(
            text_of(
                &env,
                &["--print", "--lines", &format!("{}:", total - 1), file]
            ),
            numbered(total - 1..=total, def_line)
        );
    }
}

#[test]
fn diff_markers_honour_the_read_cap() {
    let env = TestEnv::new();
    big_file(&env);
    env.write("small.md", "# Small\n");
    super::git::git(env.path(), &["init", "-q"]);
    super::git::git(env.path(), &["add", "."]);
    super::git::git(env.path(), &["commit", "-q", "-m", "init"]);
    let big = env.path().join("big.md");
    let mut text = std::fs::read_to_string(&big).expect("read");
    text.push_str("## Appended\n");
    std::fs::write(&big, &text).expect("append");
    let ran = run_in(
        env.path(),
        &["--print", "--diff", "--depth", "1", "big.md"],
        Input::Nothing,
        Output::Captured,
    );
    expect(
        "big changed file",
        &ran,
        0,
        "diff markers off: big.md is over the 10 MB read cap",
    );
    assert!(ran.stdout.contains("h2 Section 000001\n"));
    // In a directory the file still shows, without markers, and the run does not fail.
    let ran = run_in(
        env.path(),
        &["--print", "--diff", "."],
        Input::Nothing,
        Output::Captured,
    );
    expect(
        "big changed file in a directory",
        &ran,
        0,
        "diff markers off: big.md is over the 10 MB read cap",
    );
    assert!(ran.stdout.contains("## big.md") && ran.stdout.contains("## small.md"));
    // HEAD's version past the cap, the file on disk small again.
    std::fs::write(&big, "# Now small\n").expect("shrink");
    let ran = run_in(
        env.path(),
        &["--print", "--diff", "--depth", "1", "big.md"],
        Input::Nothing,
        Output::Captured,
    );
    expect(
        "big HEAD version",
        &ran,
        0,
        "its HEAD version is over the 10 MB read cap",
    );
}

const FOUR_LINES: &str = "def hello():\n    print('hello')\n\nhello()\n";

/// The answer of `args` in `env`, which must succeed.
fn answer(env: &TestEnv, args: &[&str]) -> String {
    let ran = run_in(env.path(), args, Input::Nothing, Output::Captured);
    expect(&format!("{args:?}"), &ran, 0, "");
    ran.stdout
}

#[test]
fn context_is_bounded_by_the_file_not_by_the_number() {
    let env = TestEnv::new();
    env.write("a.py", FOUR_LINES);
    let whole = answer(&env, &["--print", "--grep", "hello", "-C", "4", "a.py"]);
    assert!(whole.contains("\n3\n"), "{whole}");
    for context in ["4294967296", "18446744073709551615"] {
        let started = Instant::now();
        let got = answer(&env, &["--print", "--grep", "hello", "-C", context, "a.py"]);
        assert_eq!(got, whole, "-C {context}");
        assert!(started.elapsed() < Duration::from_secs(3), "-C {context}");
        let refs = answer(&env, &["--print", "--refs", "hello", "-C", context, "a.py"]);
        assert!(refs.contains("\n3\n"), "--refs -C {context}: {refs}");
    }
}

#[test]
fn every_number_is_bounded_or_refused_in_one_line() {
    let env = TestEnv::new();
    env.write("a.py", FOUR_LINES);
    const MAX: &str = "18446744073709551615";
    // The largest number each flag takes answers at once, as a large enough one would.
    for args in [
        &["--print", "--depth", MAX, "a.py"][..],
        &["--print", "--max-nodes", MAX, "a.py"],
        &["--print", "--find", "hello", "--max-results", MAX, "."],
        &["--print", "--grep", "hello", "--max-results", MAX, "."],
        &["--print", "--max-files", MAX, "."],
        &["--print", "--max-output", MAX, "."],
        &["--print", "--lines", &format!("1:+{MAX}"), "a.py"],
        &["--print", "--lines", &format!("{MAX}:{MAX}"), "a.py"],
        &["--print", "--lines", &format!("-{MAX}:"), "a.py"],
    ] {
        let ran = run_in(env.path(), args, Input::Nothing, Output::Captured);
        assert_eq!(ran.code, 0, "{args:?}: {}", ran.stderr);
        assert!(ran.stderr.lines().count() <= 1, "{args:?}: {}", ran.stderr);
    }
    // One past it, or out of a flag's range, is one line naming the flag.
    let past = "18446744073709551616";
    let table: &[(&str, &[&str], &str)] = &[
        (
            "context",
            &["--print", "--grep", "x", "-C", past, "a.py"],
            "--context",
        ),
        ("depth", &["--print", "--depth", past, "a.py"], "--depth"),
        ("depth 0", &["--print", "--depth", "0", "a.py"], "--depth"),
        (
            "max-nodes",
            &["--print", "--max-nodes", past, "a.py"],
            "--max-nodes",
        ),
        (
            "preview",
            &["--print", "--preview", "11", "a.py"],
            "--preview",
        ),
        (
            "max-results",
            &["--print", "--find", "x", "--max-results", past],
            "--max-results",
        ),
        (
            "max-files",
            &["--print", "--max-files", past, "."],
            "--max-files",
        ),
        (
            "max-output",
            &["--print", "--max-output", past, "."],
            "--max-output",
        ),
        (
            "lines",
            &["--print", "--lines", &format!("{past}:1"), "a.py"],
            "--lines",
        ),
    ];
    expect_refused(&env, table);
}

#[tokio::test]
async fn mcp_context_is_bounded_by_the_file_too() {
    use super::mcp::{call, start, text};
    let env = TestEnv::new();
    env.write("a.py", FOUR_LINES);
    let client = start(env.path(), &[]).await;
    let grep =
        |context: u64| serde_json::json!({"pattern": "hello", "path": "a.py", "context": context});
    let whole = call(&client, "grep", grep(4)).await;
    for context in [4_294_967_296, u64::MAX] {
        let started = Instant::now();
        let got = call(&client, "grep", grep(context)).await;
        assert_eq!(text(&got), text(&whole), "context {context}");
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "context {context}"
        );
    }
    let zero = serde_json::json!({"pattern": "hello", "context": u64::MAX, "max_results": 0});
    let refused = call(&client, "grep", zero).await;
    assert_eq!(refused.is_error, Some(true), "{}", text(&refused));
    assert_eq!(text(&refused).lines().count(), 1, "{}", text(&refused));
    client.cancel().await.expect("close");
}
