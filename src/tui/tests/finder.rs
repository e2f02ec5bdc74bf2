//! State-model tests and snapshots of the finder views (symbol picker, text search,
//! references) and the jump list. The searches run on the real engine in the background;
//! `settle` waits for them as the event loop would keep drawing.

use super::{app, opened, render, select_dir, selected_name, Fixture};
use crate::tui::action::{update, Action};
use crate::tui::app::{App, ColorMode, Focus};
use crate::tui::picker::{Overlay, ResultRow, SearchKind};
use std::time::Duration;

fn settle(app: &mut App) {
    assert!(
        app.settle(Duration::from_secs(20)),
        "background work never ended"
    );
}

fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        update(app, Action::FilterInput(c));
    }
}

/// Runs the typed search as the end of a typing pause does (Enter would also jump).
fn run_typed(app: &mut App) {
    app.results.due = Some(std::time::Instant::now());
    assert!(crate::tui::finder::start_due_search(app));
}

fn open_name(app: &App) -> Option<String> {
    app.doc.as_ref().map(|d| d.name.clone())
}

/// The fixture with the guide open, focus on its outline.
fn on_guide(fx: &Fixture, size: (u16, u16)) -> App {
    let mut app = app(fx, ColorMode::Mono, size);
    select_dir(&mut app, "docs/guide.md");
    update(&mut app, Action::Enter);
    settle(&mut app);
    app
}

#[test]
fn picker_ranks_streamed_definitions_and_enter_jumps_across_files() {
    let fx = super::fixture();
    let mut app = on_guide(&fx, (120, 40));
    assert_eq!(open_name(&app).as_deref(), Some("guide.md"));
    update(&mut app, Action::Symbols);
    assert_eq!(app.overlay, Overlay::Symbols);
    settle(&mut app);
    let ranking = &app.picker.ranking;
    assert!(ranking.done && ranking.files >= 2, "{ranking:?}");
    assert!(ranking.rows.iter().any(|r| r.qualname == "Store.get"));
    assert!(ranking.rows.iter().any(|r| r.qualname == "Guide"));
    type_text(&mut app, "get");
    settle(&mut app);
    let first = app.picker.selected().unwrap().clone();
    assert_eq!(first.qualname, "Store.get", "an exact name ranks first");
    let peek = app.peek.as_ref().expect("the preview shows the selection");
    assert_eq!(peek.doc.name, "app.py");
    assert_eq!(peek.line, 16);
    assert_eq!(
        open_name(&app).as_deref(),
        Some("guide.md"),
        "not jumped yet"
    );

    update(&mut app, Action::FilterAccept);
    assert_eq!(app.overlay, Overlay::None);
    assert_eq!(open_name(&app).as_deref(), Some("app.py"));
    assert_eq!(selected_name(&app), Some("Store.get"));
    assert_eq!(app.preview.cursor, 15);
    assert_eq!(app.focus, Focus::Outline);

    update(&mut app, Action::JumpBack);
    assert_eq!(
        open_name(&app).as_deref(),
        Some("guide.md"),
        "Ctrl-O comes back"
    );
    update(&mut app, Action::JumpForward);
    assert_eq!(open_name(&app).as_deref(), Some("app.py"));
    assert_eq!(app.preview.cursor, 15);
}

#[test]
fn clicks_select_a_row_and_a_second_click_jumps() {
    let fx = super::fixture();
    let mut app = on_guide(&fx, (120, 40));
    update(&mut app, Action::Symbols);
    type_text(&mut app, "e");
    settle(&mut app);
    let rect = app.panes().dir.unwrap();
    // The rows start under the border and the query line.
    update(&mut app, Action::Click(rect.x + 3, rect.y + 3));
    assert_eq!(app.picker.cursor.selected, 1);
    let second = app.picker.selected().unwrap().clone();
    update(&mut app, Action::Click(rect.x + 3, rect.y + 3));
    assert_eq!(app.overlay, Overlay::None);
    assert_eq!(app.preview.cursor + 1, second.line);
}

#[test]
fn picker_escape_leaves_everything_as_it_was() {
    let fx = super::fixture();
    let mut app = opened(&fx, (120, 40));
    update(&mut app, Action::Down);
    let before = (selected_name(&app).map(String::from), app.preview);
    update(&mut app, Action::Symbols);
    settle(&mut app);
    type_text(&mut app, "main");
    settle(&mut app);
    update(&mut app, Action::Down);
    update(&mut app, Action::Escape);
    assert_eq!(app.overlay, Overlay::None);
    assert!(app.peek.is_none());
    let after = (selected_name(&app).map(String::from), app.preview);
    assert_eq!(before, after);
    update(&mut app, Action::JumpBack);
    assert!(
        app.message.is_some(),
        "no jump was made, so there is nowhere to go back to"
    );
}

#[test]
fn jumping_with_no_file_open_says_why_nothing_moved() {
    let fx = super::fixture();
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    assert!(app.doc.is_none());
    for key in [Action::JumpBack, Action::JumpForward] {
        app.message = None;
        update(&mut app, key);
        let note = app.message.clone().unwrap_or_default();
        assert!(note.contains("no file open"), "{note:?}");
    }
}

#[test]
fn picker_query_with_no_match_says_so() {
    let fx = super::fixture();
    let mut app = opened(&fx, (120, 40));
    update(&mut app, Action::Symbols);
    type_text(&mut app, "zzzqqq");
    settle(&mut app);
    assert!(app.picker.ranking.rows.is_empty());
    assert!(app.peek.is_none());
    let screen = render(&app, 120, 40);
    assert!(screen.contains("no match"), "{screen}");
    update(&mut app, Action::FilterAccept);
    assert_eq!(app.overlay, Overlay::Symbols, "Enter on nothing stays");
}

#[test]
fn text_search_groups_hits_by_file_and_entry_and_jumps() {
    let fx = super::fixture();
    let mut app = on_guide(&fx, (120, 40));
    update(&mut app, Action::Search);
    assert_eq!(app.overlay, Overlay::Search);
    type_text(&mut app, r"self\.items");
    run_typed(&mut app);
    assert!(app.results.ran.is_some());
    settle(&mut app);
    let results = &app.results;
    assert_eq!((results.files, results.hits), (1, 3), "{:?}", results.rows);
    assert!(matches!(&results.rows[0], ResultRow::File { hits: 3, .. }));
    let entries: Vec<&str> = results
        .rows
        .iter()
        .filter_map(|r| match r {
            ResultRow::Entry { qualname, .. } => Some(qualname.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(entries, ["Store.__init__", "Store.add", "Store.get"]);
    assert_eq!(results.selected().map(|(_, line)| line), Some(10));
    update(&mut app, Action::Down);
    update(&mut app, Action::FilterAccept);
    assert_eq!(open_name(&app).as_deref(), Some("app.py"));
    assert_eq!(selected_name(&app), Some("Store.add"));
    assert_eq!(app.preview.cursor, 12);
    update(&mut app, Action::JumpBack);
    assert_eq!(open_name(&app).as_deref(), Some("guide.md"));
    // The search view keeps its results for the next visit.
    update(&mut app, Action::Search);
    assert_eq!(app.results.hits, 3);
}

#[test]
fn a_bad_regex_is_one_line_in_the_view() {
    let fx = super::fixture();
    let mut app = opened(&fx, (120, 40));
    update(&mut app, Action::Search);
    type_text(&mut app, "items");
    run_typed(&mut app);
    settle(&mut app);
    assert!(app.results.hits > 0);
    type_text(&mut app, "(unclosed");
    update(&mut app, Action::FilterAccept);
    assert!(!app.results.running);
    // The last query's hits and counts are not left under the error as if they were its.
    assert!(app.results.rows.is_empty(), "{:?}", app.results.rows);
    assert_eq!(app.results.hits, 0);
    let note = app.results.note.clone().unwrap_or_default();
    assert!(
        note.contains("unclosed") || note.contains("group"),
        "{note}"
    );
    assert_eq!(note.lines().count(), 1);
}

#[test]
fn references_of_the_selected_entry() {
    let fx = super::fixture();
    let mut app = opened(&fx, (120, 40));
    update(&mut app, Action::Down);
    update(&mut app, Action::Down);
    assert_eq!(selected_name(&app), Some("Store.add"));
    update(&mut app, Action::Prefix('g'));
    assert_eq!(app.pending, Some('g'));
    update(&mut app, Action::References);
    assert_eq!(app.overlay, Overlay::Search);
    assert_eq!(app.results.kind, SearchKind::References);
    assert_eq!(app.results.query, "add");
    settle(&mut app);
    let lines: Vec<(usize, bool)> = app
        .results
        .rows
        .iter()
        .filter_map(|r| match r {
            ResultRow::Hit {
                line, definition, ..
            } => Some((*line, *definition)),
            _ => None,
        })
        .collect();
    assert_eq!(lines, [(12, true), (22, false)]);
    update(&mut app, Action::Down);
    update(&mut app, Action::FilterAccept);
    assert_eq!(selected_name(&app), Some("main"));
    update(&mut app, Action::JumpBack);
    assert_eq!(selected_name(&app), Some("Store.add"));
}

#[test]
fn references_need_an_entry() {
    let fx = super::fixture();
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    update(&mut app, Action::References);
    assert_eq!(app.overlay, Overlay::None);
    assert!(app.message.is_some());
}

#[test]
fn finder_snapshots() {
    let fx = super::fixture();
    for (w, h) in [(120, 40), (80, 24)] {
        let mut app = on_guide(&fx, (w, h));
        update(&mut app, Action::Symbols);
        type_text(&mut app, "e");
        settle(&mut app);
        insta::assert_snapshot!(format!("picker_{w}x{h}"), render(&app, w, h));
        update(&mut app, Action::Escape);
        update(&mut app, Action::Search);
        type_text(&mut app, "items");
        run_typed(&mut app);
        settle(&mut app);
        insta::assert_snapshot!(format!("search_{w}x{h}"), render(&app, w, h));
        update(&mut app, Action::Escape);
        let mut app = opened(&fx, (w, h));
        update(&mut app, Action::Down);
        update(&mut app, Action::Down);
        update(&mut app, Action::References);
        settle(&mut app);
        insta::assert_snapshot!(format!("references_{w}x{h}"), render(&app, w, h));
        update(&mut app, Action::FilterAccept);
        update(&mut app, Action::JumpBack);
        insta::assert_snapshot!(format!("jump_back_{w}x{h}"), render(&app, w, h));
    }
}

#[test]
fn text_search_runs_as_you_type_and_each_key_replaces_the_last_search() {
    let fx = super::fixture();
    let mut app = on_guide(&fx, (120, 40));
    update(&mut app, Action::Search);
    type_text(&mut app, "self.ite");
    assert!(
        !app.results.running && app.results.due.is_some(),
        "the search waits for typing to pause"
    );
    settle(&mut app);
    assert_eq!(
        app.results.ran.as_deref(),
        Some("self.ite"),
        "no Enter needed"
    );
    assert_eq!(app.results.hits, 3);
    type_text(&mut app, "ms\\[key\\]");
    assert_eq!(app.results.hits, 3, "the last rows stay until the new ones");
    let screen = render(&app, 120, 40);
    assert!(screen.contains("for 'self.ite'"), "{screen}");
    settle(&mut app);
    assert_eq!(app.results.ran.as_deref(), Some(r"self.items\[key\]"));
    assert_eq!((app.results.files, app.results.hits), (1, 1));
    // Backspace to nothing clears the view; nothing runs.
    for _ in 0..r"self.items\[key\]".len() {
        update(&mut app, Action::FilterBackspace);
    }
    assert!(app.results.rows.is_empty() && app.results.due.is_none());
    assert!(render(&app, 120, 40).contains("searched as you type"));
}

#[test]
fn a_key_typed_while_a_search_runs_cancels_it() {
    let fx = super::fixture();
    let mut app = on_guide(&fx, (120, 40));
    update(&mut app, Action::Search);
    type_text(&mut app, "store");
    assert!(super::super::finder::SEARCH_PAUSE > Duration::ZERO);
    std::thread::sleep(super::super::finder::SEARCH_PAUSE);
    super::super::finder::start_due_search(&mut app);
    assert!(app.results.running, "the pause is over: the search runs");
    let first = app.results.job;
    type_text(&mut app, "s");
    assert!(!app.results.running, "stopped by the key");
    settle(&mut app);
    assert_ne!(app.results.job, first);
    assert_eq!(app.results.ran.as_deref(), Some("stores"));
    assert_eq!(app.results.hits, 0);
}

#[test]
fn reload_builds_the_symbol_index_again() {
    let fx = super::fixture();
    let mut app = on_guide(&fx, (120, 40));
    update(&mut app, Action::Symbols);
    settle(&mut app);
    let before = app.picker.ranking.generation;
    update(&mut app, Action::Escape);
    // Saved from another terminal in a file the viewer never opened.
    std::fs::write(
        fx.root.join("docs/later.py"),
        "def brand_new():\n    pass\n",
    )
    .unwrap();
    update(&mut app, Action::Reload);
    update(&mut app, Action::Symbols);
    type_text(&mut app, "brand_new");
    settle(&mut app);
    assert_ne!(app.picker.ranking.generation, before, "a new index");
    let row = app.picker.selected().expect("the new definition is found");
    assert_eq!(row.qualname, "brand_new");
}

#[test]
fn a_picker_row_older_than_its_file_jumps_to_where_the_definition_is_now() {
    let fx = super::fixture();
    let mut app = on_guide(&fx, (120, 40));
    update(&mut app, Action::Symbols);
    type_text(&mut app, "Store.get");
    settle(&mut app);
    assert_eq!(app.picker.selected().map(|r| r.line), Some(16));
    // Saved from another terminal after it was indexed (and previewed): three lines more
    // above it, and `main` gone.
    let path = fx.root.join("app.py");
    let text = super::APP_PY.replace("def main():", "def start():");
    std::fs::write(&path, format!("import a\nimport b\nimport c\n{text}")).unwrap();
    update(&mut app, Action::FilterAccept);
    settle(&mut app);
    assert_eq!(open_name(&app).as_deref(), Some("app.py"));
    assert_eq!(selected_name(&app), Some("Store.get"));
    assert_eq!(app.preview.cursor + 1, 19, "where it is now, not line 16");
    let note = app.message.clone().unwrap_or_default();
    assert!(note.contains("Store.get moved: L16 -> L19"), "{note}");
    // The index took the new version: `main` is gone from the picker, `start` is there.
    update(&mut app, Action::Symbols);
    for _ in 0.."Store.get".len() {
        update(&mut app, Action::FilterBackspace);
    }
    type_text(&mut app, "main");
    settle(&mut app);
    assert!(
        app.picker.ranking.rows.iter().all(|r| r.qualname != "main"),
        "{:?}",
        app.picker.ranking.rows
    );
}

/// The file the row points into is the open one, saved since it was read and indexed: the
/// jump must not trust the version on screen (the watcher's reload may not have come yet).
#[test]
fn a_picker_jump_into_the_open_file_saved_since_finds_the_definition() {
    let fx = super::fixture();
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    select_dir(&mut app, "app.py");
    update(&mut app, Action::Enter);
    settle(&mut app);
    update(&mut app, Action::Symbols);
    type_text(&mut app, "Store.get");
    settle(&mut app);
    assert_eq!(app.picker.selected().map(|r| r.line), Some(16));
    let path = fx.root.join("app.py");
    std::fs::write(&path, format!("#\n#\n#\n#\n{}", super::APP_PY)).unwrap();
    update(&mut app, Action::FilterAccept);
    settle(&mut app);
    assert_eq!(
        app.preview.cursor + 1,
        20,
        "the definition, not the comment above it"
    );
    assert_eq!(selected_name(&app), Some("Store.get"));
    let note = app.message.clone().unwrap_or_default();
    assert!(note.contains("Store.get moved: L16 -> L20"), "{note}");
}

#[test]
fn a_search_hit_in_a_file_saved_since_the_search_finds_its_line() {
    let fx = super::fixture();
    let mut app = on_guide(&fx, (120, 40));
    update(&mut app, Action::Search);
    type_text(&mut app, "return value");
    run_typed(&mut app);
    settle(&mut app);
    assert_eq!(app.results.selected().map(|(_, line)| line), Some(14));
    let path = fx.root.join("app.py");
    std::fs::write(&path, format!("#\n#\n#\n#\n{}", super::APP_PY)).unwrap();
    update(&mut app, Action::FilterAccept);
    settle(&mut app);
    assert_eq!(open_name(&app).as_deref(), Some("app.py"));
    assert_eq!(app.preview.cursor + 1, 18);
    let note = app.message.clone().unwrap_or_default();
    assert!(note.contains("the hit moved: L14 -> L18"), "{note}");
}

#[test]
fn a_picker_row_whose_definition_is_gone_says_so() {
    let fx = super::fixture();
    let mut app = on_guide(&fx, (120, 40));
    update(&mut app, Action::Symbols);
    type_text(&mut app, "main");
    settle(&mut app);
    assert_eq!(
        app.picker.selected().map(|r| r.qualname.as_str()),
        Some("main")
    );
    let path = fx.root.join("app.py");
    let text = super::APP_PY.replace("main", "start");
    std::fs::write(&path, format!("# a longer header\n{text}")).unwrap();
    update(&mut app, Action::FilterAccept);
    settle(&mut app);
    let note = app.message.clone().unwrap_or_default();
    assert!(note.contains("main is gone from app.py"), "{note}");
}

#[test]
fn moving_through_results_reads_only_a_first_screen_on_the_key() {
    let fx = super::fixture();
    let mut app = on_guide(&fx, (120, 40));
    update(&mut app, Action::Symbols);
    type_text(&mut app, "Store");
    settle(&mut app);
    let peek = app.peek.as_ref().expect("a preview");
    assert!(!peek.doc.loading);
    update(&mut app, Action::Escape);
    update(&mut app, Action::Symbols);
    let peek = app.peek.as_ref().expect("a preview");
    assert!(
        peek.doc.loading && peek.doc.line(4) == Some("class Store:"),
        "the first screen at once, the whole file on a thread"
    );
    settle(&mut app);
    let peek = app.peek.as_ref().unwrap();
    assert!(!peek.doc.loading);
    assert_eq!(
        (peek.line, peek.end_line),
        (5, 17),
        "the definition's range"
    );
}

#[test]
fn live_search_snapshots() {
    let fx = super::fixture();
    for (w, h) in [(120, 40), (80, 24)] {
        let mut app = on_guide(&fx, (w, h));
        update(&mut app, Action::Search);
        type_text(&mut app, "return");
        insta::assert_snapshot!(format!("search_typing_{w}x{h}"), render(&app, w, h));
        settle(&mut app);
        insta::assert_snapshot!(format!("search_live_{w}x{h}"), render(&app, w, h));
    }
}

#[test]
fn a_query_kept_from_the_last_visit_is_replaced_by_the_first_key() {
    let fx = super::fixture();
    let mut app = on_guide(&fx, (120, 40));
    update(&mut app, Action::Symbols);
    type_text(&mut app, "get");
    update(&mut app, Action::Escape);
    update(&mut app, Action::Symbols);
    assert_eq!(app.picker.query, "get", "kept, shown selected");
    assert!(app.replace_query);
    type_text(&mut app, "ma");
    assert_eq!(app.picker.query, "ma");
    settle(&mut app);
    assert_eq!(app.picker.ranking.query, "ma");
    update(&mut app, Action::Escape);
    update(&mut app, Action::Search);
    type_text(&mut app, "items");
    update(&mut app, Action::Escape);
    update(&mut app, Action::Search);
    update(&mut app, Action::FilterBackspace);
    assert_eq!(app.results.query, "", "Backspace erases a kept query whole");
    assert!(app.results.rows.is_empty());
}

#[test]
fn reloading_keeps_one_row_per_definition() {
    let fx = super::fixture();
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    select_dir(&mut app, "app.py");
    update(&mut app, Action::Enter);
    settle(&mut app);
    update(&mut app, Action::Symbols);
    settle(&mut app);
    let before = app.picker.ranking.indexed;
    assert!(before > 0);
    update(&mut app, Action::Escape);
    // `r`: the index is built again while the open file is read again (a refresh that may
    // reach the new index before its scan reaches the file).
    update(&mut app, Action::Reload);
    update(&mut app, Action::Symbols);
    settle(&mut app);
    let ranking = &app.picker.ranking;
    assert!(ranking.done);
    assert_eq!(ranking.indexed, before, "{ranking:?}");
    let mut rows: Vec<_> = ranking.rows.iter().map(|r| (&r.path, r.line)).collect();
    let all = rows.len();
    rows.sort();
    rows.dedup();
    assert_eq!(rows.len(), all, "no definition listed twice");
}
