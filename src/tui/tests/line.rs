//! The query lines edit like a shell line, through the real keymap (issue 26 item 10): the
//! picker's and a pane filter's, with history on Ctrl-P/N (and ↑ on an empty list).

use super::{app, opened, render, settle};
use crate::tui::action::{update, Action};
use crate::tui::app::{App, ColorMode, Focus};
use crate::tui::keys::{action_for, KeyMode};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Presses `code` with `mods` in `mode`, as the event loop would.
fn press(app: &mut App, mode: KeyMode, code: KeyCode, mods: KeyModifiers) {
    if let Some(action) = action_for(KeyEvent::new(code, mods), mode) {
        update(app, action);
    }
}

fn type_in(app: &mut App, mode: KeyMode, text: &str) {
    for c in text.chars() {
        press(app, mode, KeyCode::Char(c), KeyModifiers::NONE);
    }
}

#[test]
fn the_picker_query_edits_at_its_cursor_and_keeps_a_history() {
    let fx = super::fixture();
    let mut app = opened(&fx, (120, 40));
    let (input, none, ctrl) = (KeyMode::Input, KeyModifiers::NONE, KeyModifiers::CONTROL);
    update(&mut app, Action::Symbols);
    type_in(&mut app, input, "Store.gt");
    press(&mut app, input, KeyCode::Left, none);
    type_in(&mut app, input, "e");
    assert_eq!(app.picker.query, "Store.get");
    press(&mut app, input, KeyCode::Char('a'), ctrl);
    type_in(&mut app, input, "fn ");
    assert_eq!(app.picker.query, "fn Store.get");
    press(&mut app, input, KeyCode::End, none);
    press(&mut app, input, KeyCode::Backspace, KeyModifiers::ALT);
    assert_eq!(app.picker.query, "fn Store.");
    press(&mut app, input, KeyCode::Char('w'), ctrl);
    assert_eq!(app.picker.query, "fn ", "the word and the dot after it");
    type_in(&mut app, input, "Store");
    press(&mut app, input, KeyCode::Home, none);
    press(&mut app, input, KeyCode::Right, none);
    press(&mut app, input, KeyCode::Right, none);
    press(&mut app, input, KeyCode::Right, none);
    press(&mut app, input, KeyCode::Char('k'), ctrl);
    assert_eq!(app.picker.query, "fn ");
    press(&mut app, input, KeyCode::Char('u'), ctrl);
    assert_eq!(app.picker.query, "");
    type_in(&mut app, input, "Store.add");
    press(&mut app, input, KeyCode::Left, none);
    press(&mut app, input, KeyCode::Left, none);
    // The cursor is drawn where it is.
    let screen = render(&app, 120, 40);
    assert!(screen.contains("> Store.a▏dd"), "{screen}");
    settle(&mut app);
    update(&mut app, Action::FilterAccept);
    assert_eq!(app.doc.as_ref().map(|d| d.name.as_str()), Some("app.py"));
    // Back in the picker, Ctrl-U clears the kept query and Ctrl-P brings it back.
    update(&mut app, Action::Symbols);
    press(&mut app, input, KeyCode::Char('e'), ctrl);
    press(&mut app, input, KeyCode::Char('u'), ctrl);
    assert_eq!(app.picker.query, "");
    type_in(&mut app, input, "zzz_nothing");
    settle(&mut app);
    assert!(app.picker.ranking.rows.is_empty());
    // No rows to move through: ↑ walks the history, as Ctrl-P does.
    press(&mut app, input, KeyCode::Up, none);
    assert_eq!(app.picker.query, "Store.add");
    press(&mut app, input, KeyCode::Char('n'), ctrl);
    assert_eq!(app.picker.query, "zzz_nothing");
}

#[test]
fn a_pane_filter_edits_like_a_shell_line() {
    let fx = super::fixture();
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    app.focus = Focus::Dir;
    let (filter, none, ctrl) = (KeyMode::Filter, KeyModifiers::NONE, KeyModifiers::CONTROL);
    update(&mut app, Action::StartFilter);
    type_in(&mut app, filter, "ap.py");
    press(&mut app, filter, KeyCode::Home, none);
    press(&mut app, filter, KeyCode::Right, none);
    type_in(&mut app, filter, "p");
    assert_eq!(app.dir.filter_query(), Some("app.py"));
    assert!(render(&app, 120, 40).contains("/ap▏p.py"));
    press(&mut app, filter, KeyCode::Enter, none);
    update(&mut app, Action::StartFilter);
    press(&mut app, filter, KeyCode::Char('p'), ctrl);
    assert_eq!(app.dir.filter_query(), Some("app.py"));
}
