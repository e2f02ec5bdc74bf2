//! The tree as it changes: the watcher's messages, and what the viewer does with them (the
//! directory pane, the open file, the symbol index), without `r`.

use super::{app, opened, select_dir, settle, Fixture};
use crate::tui::action::{update, Action};
use crate::tui::app::{App, ColorMode};
use crate::tui::watch::Watcher;
use std::time::{Duration, Instant};

fn listed(app: &App, name: &str) -> bool {
    app.dir.nodes().iter().any(|n| n.item.name == name)
}

/// Applies messages until `done` holds, as the event loop would, for at most five seconds.
fn until(app: &mut App, mut done: impl FnMut(&App) -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(5) {
        if done(app) {
            return true;
        }
        if let Some(message) = app.jobs.recv_timeout(Duration::from_millis(20)) {
            app.receive(message);
            app.after_messages(true);
        }
    }
    done(app)
}

#[test]
fn a_watched_directory_reports_files_created_and_deleted() {
    let fx: Fixture = super::fixture();
    let mut app = opened(&fx, (80, 24));
    let mut watcher = Watcher::start(app.jobs.tx.clone());
    assert_eq!(watcher.follow(&app.in_view()), None);
    let new = fx.root.join("created.py");
    std::fs::write(&new, "def created():\n    pass\n").unwrap();
    assert!(until(&mut app, |app| listed(app, "created.py")), "appeared");
    std::fs::remove_file(&new).unwrap();
    assert!(until(&mut app, |app| !listed(app, "created.py")), "went");
}

#[test]
fn changes_relist_the_pane_reload_the_open_file_and_update_the_index() {
    let fx = super::fixture();
    let mut app = opened(&fx, (80, 24));
    update(&mut app, Action::Symbols);
    settle(&mut app);
    update(&mut app, Action::Escape);
    let indexed = app.picker.ranking.indexed;
    let lines = app.doc.as_ref().map(|d| d.entries().len());

    // Created: listed, and its definitions indexed.
    let new = fx.root.join("created.py");
    std::fs::write(&new, "def created_here():\n    pass\n").unwrap();
    app.changed(vec![new.clone()]);
    assert!(listed(&app, "created.py"));
    let count = |app: &App| app.picker.ranking.indexed;
    assert!(until(&mut app, |app| count(app) == indexed + 1), "indexed");

    // The open file saved from outside: read again.
    let open = app.doc.as_ref().unwrap().path.clone();
    let mut text = std::fs::read_to_string(&open).unwrap();
    text.push_str("\ndef appended():\n    pass\n");
    std::fs::write(&open, text).unwrap();
    app.changed(vec![open]);
    settle(&mut app);
    let now = app.doc.as_ref().map(|d| d.entries().len());
    assert_eq!(
        now,
        lines.map(|n| n + 1),
        "the new definition is in the outline"
    );
    // The index takes the saved file on its own thread: wait for it, or the count below
    // could read one more before the deletion is taken.
    assert!(until(&mut app, |app| count(app) == indexed + 2), "appended");

    // Deleted: gone from the pane and the index.
    std::fs::remove_file(&new).unwrap();
    app.changed(vec![new]);
    assert!(!listed(&app, "created.py"));
    assert!(
        until(&mut app, |app| count(app) == indexed + 1),
        "created gone, appended in: {}",
        count(&app)
    );
    update(&mut app, Action::Symbols);
    settle(&mut app);
    let rows = &app.picker.ranking.rows;
    assert!(rows.iter().any(|r| r.qualname == "appended"));
    assert!(!rows.iter().any(|r| r.qualname == "created_here"));
}

#[test]
fn the_directories_in_view_are_the_root_the_open_ones_and_the_open_files() {
    let fx = super::fixture();
    let mut app = app(&fx, ColorMode::Mono, (80, 24));
    assert!(app.in_view().iter().eq([&fx.root]), "{:?}", app.in_view());
    select_dir(&mut app, "docs/guide.md");
    update(&mut app, Action::Enter);
    settle(&mut app);
    let docs = fx.root.join("docs");
    assert!(app.in_view().contains(&docs), "{:?}", app.in_view());
}

/// Applies what the event loop does with a watcher's note: the message, and the status bar's
/// standing note while the tree is polled.
fn follow(app: &mut App, watcher: &mut Watcher) -> Option<String> {
    let note = watcher.follow(&app.in_view());
    if let Some(note) = &note {
        app.message = Some(note.clone());
        app.polled = watcher.polling().map(str::to_string);
    }
    note
}

#[test]
fn over_the_watch_budget_the_open_directories_are_polled_and_the_bar_says_so() {
    // Was: every open directory took an inotify watch, however many (100,000 directories
    // open would exhaust the user's watches), and a failed watch left them unwatched.
    let fx = super::fixture();
    let mut app = opened(&fx, (120, 24));
    let mut watcher = Watcher::with_budget(app.jobs.tx.clone(), 1);
    select_dir(&mut app, "docs/guide.md");
    let docs = fx.root.join("docs");
    assert!(app.in_view().len() > 1, "{:?}", app.in_view());

    let note = follow(&mut app, &mut watcher).expect("a note");
    assert!(note.contains("over the 1 watched"), "{note}");
    assert!(note.contains("polling"), "{note}");
    assert_eq!(watcher.watch_count(), 0, "nothing watched past the budget");
    app.message = None;
    let bar = super::render(&app, 120, 24);
    assert!(
        bar.lines()
            .last()
            .is_some_and(|l| l.contains("polled, not watched")),
        "{bar}"
    );

    // The first poll learns the directories; a file created later shows in the next one.
    assert!(watcher.poll(&app.in_view()).is_empty());
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(docs.join("new.md"), "# New\n").unwrap();
    let changed = watcher.poll(&app.in_view());
    assert_eq!(changed, std::slice::from_ref(&docs));
    app.dirs_changed(&changed);
    assert!(listed(&app, "new.md"));
    assert!(watcher.poll(&app.in_view()).is_empty(), "reported once");

    // Back within the budget: watched again, and the bar no longer says polled.
    let mut roomy = Watcher::with_budget(app.jobs.tx.clone(), 1);
    roomy.follow(&app.in_view());
    let mut single = std::collections::BTreeSet::new();
    single.insert(fx.root.clone());
    assert_eq!(
        roomy.follow(&single).as_deref(),
        Some("watching the tree again")
    );
    assert_eq!(roomy.polling(), None);
    assert_eq!(roomy.watch_count(), 1);
    assert!(roomy.poll(&single).is_empty(), "no polling while watching");
}

#[test]
fn a_poll_looks_at_a_bounded_batch_and_goes_round() {
    let dir = tempfile::tempdir().unwrap();
    let many: std::collections::BTreeSet<_> = (0..crate::tui::watch::POLL_BATCH + 5)
        .map(|i| dir.path().join(format!("d{i:05}")))
        .collect();
    for d in &many {
        std::fs::create_dir(d).unwrap();
    }
    let (tx, _rx) = std::sync::mpsc::channel();
    let mut watcher = Watcher::with_budget(tx, 10);
    assert!(watcher.follow(&many).is_some());
    // Two polls learn every directory (the batch wraps around past the last).
    assert!(watcher.poll(&many).is_empty());
    assert!(watcher.poll(&many).is_empty());
    let first = many.iter().next().unwrap().clone();
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(first.join("x"), "").unwrap();
    // The third poll starts after where the second stopped and wraps round to the first.
    assert_eq!(watcher.poll(&many), [first]);
}
