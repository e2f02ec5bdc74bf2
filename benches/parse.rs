//! Parse throughput per language (MB/s) on the fixtures, each repeated to about 1 MB so that
//! fixed costs do not dominate, plus the 10,000-line file target.
//!
//!     cargo bench --bench parse

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use outliner::lang;
use outliner::parse::{outline_text, ParseOptions};
use outliner::tokens::Tokenizer;
use std::hint::black_box;
use std::path::{Path, PathBuf};

const TARGET_BYTES: usize = 1 << 20;

/// Every fixture of one language folder, concatenated and repeated to about 1 MB.
fn corpus(folder: &Path) -> Option<(ParseOptions, String)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .ok()?
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    let first = files.first()?;
    let language = lang::detect(first)?;
    let options = ParseOptions {
        language,
        jsx: lang::may_contain_jsx(first),
        rake: lang::is_rake_file(first),
    };
    let one: String = files
        .iter()
        .filter_map(|path| std::fs::read_to_string(path).ok())
        .map(|text| {
            if text.ends_with('\n') {
                text
            } else {
                text + "\n"
            }
        })
        .collect();
    if one.is_empty() {
        return None;
    }
    let repeats = TARGET_BYTES / one.len() + 1;
    Some((options, one.repeat(repeats)))
}

fn throughput(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut folders: Vec<PathBuf> = std::fs::read_dir(&root)
        .map(|dir| dir.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    folders.sort();
    let mut group = c.benchmark_group("parse");
    group.sample_size(20);
    for folder in folders {
        let Some((options, text)) = corpus(&folder) else {
            continue;
        };
        group.throughput(Throughput::Bytes(text.len() as u64));
        let name = folder
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        group.bench_with_input(BenchmarkId::from_parameter(name), &text, |b, text| {
            b.iter(|| outline_text(black_box(text), options))
        });
    }
    group.finish();
}

/// The latency target: a 10,000-line file in under 5 ms of parse time.
fn ten_thousand_lines(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut group = c.benchmark_group("10k_lines");
    group.sample_size(20);
    for language in ["python", "rust", "typescript", "cpp"] {
        let Some((options, text)) = corpus(&root.join(language)) else {
            continue;
        };
        let lines: String = text.lines().take(10_000).flat_map(|l| [l, "\n"]).collect();
        group.bench_with_input(BenchmarkId::from_parameter(language), &lines, |b, text| {
            b.iter(|| outline_text(black_box(text), options))
        });
    }
    group.finish();
}

/// Token counting throughput (MB/s) with each encoding, on about 1 MB of the Python fixtures.
fn token_counting(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let Some((_, text)) = corpus(&root.join("python")) else {
        return;
    };
    let mut group = c.benchmark_group("tokens");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(text.len() as u64));
    for tokenizer in [Tokenizer::O200k, Tokenizer::Cl100k, Tokenizer::Chars4] {
        tokenizer.count("warm up: load the vocabulary outside the timing");
        group.bench_with_input(
            BenchmarkId::from_parameter(tokenizer.encoding()),
            &text,
            |b, text| b.iter(|| tokenizer.count(black_box(text))),
        );
    }
    group.finish();
}

criterion_group!(benches, throughput, ten_thousand_lines, token_counting);
criterion_main!(benches);
