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
    let mut watcher = Watcher::start(app.jobs.tx.clone()).expect("a watcher");
    assert_eq!(watcher.follow(app.in_view()), None);
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
