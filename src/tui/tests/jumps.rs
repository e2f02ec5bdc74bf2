//! Jumps that keep their way back and land in sight (issue 26 item 15): Enter on an outline
//! entry is a jump Ctrl-O returns from, one Enter on a changed search runs it and jumps, and a
//! jump under a kept directory filter shows its file in the pane.

use super::{app, opened, settle};
use crate::tui::action::{update, Action};
use crate::tui::app::{App, ColorMode, Focus};
use crate::tui::picker::Overlay;

fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        update(app, Action::FilterInput(c));
    }
}

#[test]
fn enter_on_an_outline_entry_is_a_jump_ctrl_o_returns_from() {
    let fx = super::fixture();
    let mut app = opened(&fx, (120, 40));
    app.focus = Focus::Preview;
    for _ in 0..20 {
        update(&mut app, Action::Down);
    }
    let start = app.preview.cursor;
    assert_eq!(start, 20);
    update(&mut app, Action::PrevPane);
    assert_eq!(app.focus, Focus::Outline);
    // Moving through the outline moves the preview along; the place kept is the one before.
    update(&mut app, Action::Top);
    update(&mut app, Action::Down);
    update(&mut app, Action::Down);
    update(&mut app, Action::Enter);
    assert_eq!(app.focus, Focus::Preview);
    assert_ne!(app.preview.cursor, start);
    update(&mut app, Action::JumpBack);
    assert_eq!(app.preview.cursor, start, "{:?}", app.message);
}

#[test]
fn one_enter_on_a_changed_search_runs_it_and_jumps_to_its_first_hit() {
    let fx = super::fixture();
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    update(&mut app, Action::Search);
    type_text(&mut app, "return value");
    // Before the typing pause is over: the search has not run yet.
    update(&mut app, Action::FilterAccept);
    settle(&mut app);
    assert_eq!(app.overlay, Overlay::None, "{:?}", app.results.rows);
    assert_eq!(app.doc.as_ref().map(|d| d.name.as_str()), Some("app.py"));
    assert_eq!(app.preview.cursor + 1, 14);
}

#[test]
fn a_picker_jump_under_a_kept_directory_filter_shows_its_file() {
    let fx = super::fixture();
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    app.focus = Focus::Dir;
    update(&mut app, Action::StartFilter);
    type_text(&mut app, "guide");
    update(&mut app, Action::FilterAccept);
    settle(&mut app);
    assert_eq!(app.dir.filter_query(), Some("guide"));
    update(&mut app, Action::Symbols);
    type_text(&mut app, "Store.get");
    settle(&mut app);
    update(&mut app, Action::FilterAccept);
    settle(&mut app);
    let selected = app.dir.selected().map(|n| n.item.path.clone());
    assert_eq!(selected, Some(fx.root.join("app.py")));
    assert_eq!(app.dir.filter_query(), None);
    let note = app.message.clone().unwrap_or_default();
    assert!(note.contains("directory filter 'guide' cleared"), "{note}");
}
