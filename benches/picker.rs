//! The symbol picker on a large tree, as a user meets it (the viewer's own App, index and
//! ranking threads, a 200x50 frame drawn on ratatui's TestBackend after each answer):
//! - first results: from `S` until the first ranked rows are drawn;
//! - full index: from `S` until every file is indexed;
//! - keystroke: from a typed character until its re-ranked list is drawn (each prefix of a
//!   few queries, typed on the full index), median and worst;
//! - resident memory of the whole process once the index is full, and its peak.
//!
//! Run `benches/picker.sh` (it assembles a 100 MB tree of real sources first), or
//! `PICKER_TREE=/some/large/checkout cargo bench --bench picker`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use outliner::internals::{self, Action, PickerState, Viewer};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

const QUERIES: &[&str] = &["parse", "new", "Buffer", "fn write", "serialize_map"];

fn main() {
    let Some(root) = std::env::var_os("PICKER_TREE").map(PathBuf::from) else {
        eprintln!("picker bench: set PICKER_TREE to a large tree (benches/picker.sh makes one)");
        return;
    };
    let mut app = app(&root);
    let mut terminal = Terminal::new(TestBackend::new(200, 50)).unwrap();
    // What the viewer holds before the picker opens: the rest is the picker's.
    let before_rss = rss_now();
    let start = Instant::now();
    app.update(Action::Symbols);
    draw(&mut terminal, &app);
    let first = wait(&mut app, |picker| picker.rows > 0);
    draw(&mut terminal, &app);
    let first = first.then(|| start.elapsed());
    let done = wait(&mut app, |picker| picker.done);
    let full = done.then(|| start.elapsed());
    let index_cpu = cpu_time();
    let indexed_rss = rss_now();
    let ranking = app.picker();
    println!(
        "tree {}: {} definitions in {} files",
        root.display(),
        ranking.indexed,
        ranking.files
    );
    println!("first results  {}", ms(first));
    println!("RSS before the picker opened {before_rss}, with the full index {indexed_rss}");
    // CPU time too: on a shared machine the wall time says as much about the other load.
    println!(
        "full index     {} (process CPU {:.2} s on {} cores)",
        ms(full),
        index_cpu.as_secs_f64(),
        std::thread::available_parallelism().map_or(1, usize::from)
    );

    let mut times = Vec::new();
    for query in QUERIES {
        for c in query.chars() {
            let t0 = Instant::now();
            app.update(Action::FilterInput(c));
            let typed = t0.elapsed();
            let answered = wait(&mut app, |picker| picker.ranked == picker.typed);
            draw(&mut terminal, &app);
            assert!(answered, "no ranking for '{}'", app.picker().typed);
            times.push(t0.elapsed());
            if std::env::var_os("PICKER_VERBOSE").is_some() {
                println!(
                    "    {:<14} key {:>6.1} ms, ranked+drawn {:>6.1} ms",
                    app.picker().typed,
                    typed.as_secs_f64() * 1e3,
                    t0.elapsed().as_secs_f64() * 1e3
                );
            }
        }
        let picker = app.picker();
        println!(
            "  '{query}': {} matches, first {:?}",
            picker.matched,
            picker.selected.unwrap_or_default()
        );
        for _ in query.chars() {
            app.update(Action::FilterBackspace);
        }
        wait(&mut app, |picker| picker.ranked == picker.typed);
    }
    times.sort();
    let median = times[times.len() / 2];
    let worst = times[times.len() - 1];
    println!(
        "keystroke to re-ranked list: median {:.1} ms, worst {:.1} ms ({} keys)",
        median.as_secs_f64() * 1e3,
        worst.as_secs_f64() * 1e3,
        times.len()
    );
    println!("peak RSS       {}", peak_rss());
}

fn app(root: &std::path::Path) -> Viewer {
    let theme = internals::default_theme().unwrap();
    let mut app = Viewer::new(root, theme).unwrap();
    app.update(Action::Resize(200, 50));
    app
}

/// Applies background messages until `done` holds (false after 60 s).
fn wait(app: &mut Viewer, done: impl Fn(&PickerState) -> bool) -> bool {
    app.wait_for_picker(done, Duration::from_secs(60))
}

fn draw(terminal: &mut Terminal<TestBackend>, app: &Viewer) {
    terminal.draw(|f| app.draw(f)).unwrap();
}

fn ms(time: Option<Duration>) -> String {
    time.map_or("did not finish".into(), |t| {
        format!("{:.0} ms", t.as_secs_f64() * 1e3)
    })
}

/// User and system CPU time of the whole process so far (every thread), from
/// /proc/self/stat (in clock ticks, taken as 100 per second as on Linux).
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    let ticks: u64 = [11, 12]
        .iter()
        .filter_map(|&i| fields.get(i)?.parse::<u64>().ok())
        .sum();
    Duration::from_millis(ticks * 10)
}

/// VmHWM from /proc/self/status.
fn peak_rss() -> String {
    status_field("VmHWM:")
}

/// Resident memory now (the index held, the indexing threads' buffers freed or not).
fn rss_now() -> String {
    status_field("VmRSS:")
}

/// A field of /proc/self/status, as written there ("183852 kB").
fn status_field(name: &str) -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(name))
                .map(|l| l.trim_start_matches(name).trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}
