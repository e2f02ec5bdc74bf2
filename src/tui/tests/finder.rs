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

fn open_name(app: &App) -> Option<String> {
    app.doc.as_ref().map(|d| d.name.clone())
}

/// The fixture with the guide open, focus on its outline.
fn on_guide(fx: &Fixture, size: (u16, u16)) -> App {
    let mut app = app(fx, ColorMode::Mono, size);
    select_dir(&mut app, "docs/guide.md");
    update(&mut app, Action::Enter);
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
    update(&mut app, Action::FilterAccept);
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
    type_text(&mut app, "(unclosed");
    update(&mut app, Action::FilterAccept);
    assert!(!app.results.running);
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
        update(&mut app, Action::FilterAccept);
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
