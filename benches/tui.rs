//! TUI frame times on ratatui's TestBackend at 200x50 for a 100,000-line Python file:
//! - `frame/{top,middle,end}`: one full-screen frame after a jump there, once that region has
//!   been highlighted (the steady state while reading);
//! - `jump_and_frame/{middle,end}`: a jump to a region never highlighted, then its frame;
//! - `open_first_frame`: building the document and drawing its first frame.
//!
//!     cargo bench --bench tui
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use outliner::internals::{self, Action, Viewer};
use outliner::outline::{Entry, Kind, Outline};
use outliner::Language;
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

const LINES: usize = 100_000;
const FUNCTION_EVERY: usize = 20;

/// 100,000 lines of Python: a class every 1,000 lines, a method every 20.
fn source() -> String {
    let mut text = String::with_capacity(LINES * 40);
    for i in 0..LINES {
        let line = match i % FUNCTION_EVERY {
            _ if i % 1000 == 0 => format!("class Block{}:", i / 1000),
            0 => format!("    def method_{i}(self, value: int) -> int:"),
            1 => "        \"\"\"Doubles the value, with a comment.\"\"\"  # note".to_string(),
            _ => format!("        value = value * 2 + {i}  # step"),
        };
        text.push_str(&line);
        text.push('\n');
    }
    text
}

/// The outline the parser would give, built directly so the bench does not depend on it.
fn outline() -> Outline {
    let classes = (0..LINES / 1000)
        .map(|c| {
            let start = c * 1000;
            let methods = (1..1000 / FUNCTION_EVERY)
                .map(|m| {
                    let line = start + m * FUNCTION_EVERY + 1;
                    Entry::new(
                        Kind::Method,
                        format!("method_{}", line - 1),
                        line,
                        line + 19,
                    )
                    .with_signature(format!("def method_{}(self, value: int) -> int", line - 1))
                })
                .collect();
            Entry::new(Kind::Class, format!("Block{c}"), start + 1, start + 1000)
                .with_children(methods)
        })
        .collect();
    Outline::new(Language::Python, LINES, LINES * 40, classes)
}

fn app(root: &Path, path: &Path, text: String) -> Viewer {
    let theme = internals::default_theme().unwrap();
    let mut app = Viewer::new(root, theme).unwrap();
    assert!(app.open_text(path, text, outline()), "highlighted");
    app.update(Action::Resize(200, 50));
    app
}

fn draw(terminal: &mut Terminal<TestBackend>, app: &Viewer) {
    terminal.draw(|f| app.draw(f)).unwrap();
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let path: PathBuf = dir.path().join("big.py");
    let text = source();
    std::fs::write(&path, &text).unwrap();
    let started = Instant::now();
    let _ = internals::default_theme();
    eprintln!(
        "syntax and theme assets, first load: {:?}",
        started.elapsed()
    );

    let mut terminal = Terminal::new(TestBackend::new(200, 50)).unwrap();
    let mut group = c.benchmark_group("frame");
    for (name, line) in [("top", 0), ("middle", LINES / 2), ("end", LINES - 10)] {
        let mut app = app(dir.path(), &path, text.clone());
        app.jump_to_line(line);
        group.bench_function(name, |b| b.iter(|| draw(&mut terminal, black_box(&app))));
    }
    group.finish();

    let mut group = c.benchmark_group("jump_and_frame");
    group.sample_size(10);
    for (name, line) in [("middle", LINES / 2), ("end", LINES - 10)] {
        group.bench_function(name, |b| {
            b.iter_batched(
                || app(dir.path(), &path, text.clone()),
                |mut app| {
                    app.jump_to_line(line);
                    draw(&mut terminal, &app);
                    app
                },
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();

    let mut group = c.benchmark_group("open");
    group.sample_size(10);
    group.bench_function("first_frame", |b| {
        b.iter_batched(
            || text.clone(),
            |text| {
                let app = app(dir.path(), &path, text);
                draw(&mut terminal, &app);
                app
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
