//! `outline mcp` speed, measured with a real MCP client (rmcp's, over the child's stdio):
//! - start: process spawn to the `initialize` answer, over N starts (target: under 20 ms);
//! - round-trip: the `outline` tool on a 37 KB file, N sequential calls on one connection
//!   (target: median under 1 ms).
//!
//! Run through benches/mcp.sh (which builds the release binary first), or
//! `cargo bench --bench mcp -- [--starts N] [--calls N] [--file PATH]`.
//! `OUTLINE_BIN` points at another binary; the default is target/release/outline.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark that cannot run should stop loudly

use rmcp::model::CallToolRequestParams;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::ServiceExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

struct Options {
    starts: usize,
    calls: usize,
    file: Option<PathBuf>,
}

fn options() -> Options {
    let mut options = Options {
        starts: 50,
        calls: 1000,
        file: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().expect("a value after the flag");
        match arg.as_str() {
            "--starts" => options.starts = value().parse().expect("a count"),
            "--calls" => options.calls = value().parse().expect("a count"),
            "--file" => options.file = Some(PathBuf::from(value())),
            // cargo bench passes --bench; anything else is a mistake worth hearing about.
            "--bench" => {}
            other => panic!("unknown argument {other}"),
        }
    }
    options
}

fn binary() -> PathBuf {
    std::env::var_os("OUTLINE_BIN").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/outline"),
        PathBuf::from,
    )
}

/// A 37 KB Python file made of whole copies of a fixture: the same bytes on every machine.
fn generated_file(dir: &Path) -> PathBuf {
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/python/config_loader.py");
    let unit = std::fs::read_to_string(fixture).expect("fixture");
    let copies = (37 * 1024usize).div_ceil(unit.len());
    let path = dir.join("bench_37k.py");
    std::fs::write(&path, unit.repeat(copies)).expect("write");
    path
}

fn command(root: &Path) -> tokio::process::Command {
    tokio::process::Command::new(binary()).configure(|cmd| {
        cmd.arg("mcp").current_dir(root);
    })
}

fn summary(name: &str, mut samples: Vec<Duration>) {
    samples.sort_unstable();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let mean = samples.iter().sum::<Duration>() / samples.len() as u32;
    println!(
        "{name}: n={} median {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, min {:.3} ms, mean {:.3} ms",
        samples.len(),
        ms(at(0.5)),
        ms(at(0.9)),
        ms(at(0.99)),
        ms(samples[0]),
        ms(mean)
    );
}

async fn starts(root: &Path, n: usize) -> Vec<Duration> {
    let mut samples = Vec::with_capacity(n);
    for _ in 0..n {
        let started = Instant::now();
        let transport = TokioChildProcess::new(command(root)).expect("spawn");
        // serve() returns once the server has answered `initialize`.
        let client = ().serve(transport).await.expect("initialize");
        samples.push(started.elapsed());
        client.cancel().await.expect("close");
    }
    samples
}

async fn round_trips(root: &Path, file: &Path, n: usize) -> Vec<Duration> {
    let client =
        ().serve(TokioChildProcess::new(command(root)).expect("spawn"))
            .await
            .expect("initialize");
    let arguments = serde_json::json!({"path": file.to_str().expect("utf-8 path")});
    let params = CallToolRequestParams::new("outline")
        .with_arguments(arguments.as_object().cloned().expect("object"));
    let first = client.call_tool(params.clone()).await.expect("answer");
    assert_ne!(first.is_error, Some(true), "{first:?}");
    let answer = &first.content[0].as_text().expect("text").text;
    println!(
        "outline answer: {} bytes, {} lines",
        answer.len(),
        answer.lines().count()
    );
    // Let the vocabulary warm-up thread finish before timing.
    tokio::time::sleep(Duration::from_millis(300)).await;
    for _ in 0..50 {
        client.call_tool(params.clone()).await.expect("answer");
    }
    let mut samples = Vec::with_capacity(n);
    for _ in 0..n {
        let started = Instant::now();
        let result = client.call_tool(params.clone()).await.expect("answer");
        samples.push(started.elapsed());
        assert_ne!(result.is_error, Some(true));
    }
    client.cancel().await.expect("close");
    samples
}

fn main() {
    let options = options();
    assert!(
        binary().exists(),
        "no {}: build it first (cargo build --release)",
        binary().display()
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let file = options
        .file
        .clone()
        .unwrap_or_else(|| generated_file(dir.path()));
    let file = file.canonicalize().expect("the file exists");
    let root = file.parent().expect("a parent").to_path_buf();
    let bytes = std::fs::metadata(&file).expect("metadata").len();
    println!("binary: {}", binary().display());
    println!("file: {} ({bytes} bytes)", file.display());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        summary(
            "start to initialize answered",
            starts(&root, options.starts).await,
        );
        summary(
            "outline round-trip",
            round_trips(&root, &file, options.calls).await,
        );
    });
}
