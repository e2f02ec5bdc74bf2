//! The outline pane's numbers read at a glance (issue 26 item 12): line numbers right-aligned
//! in a column, token counts in their own column with thousands separators and a unit, as the
//! status bar writes them.

use super::{app, select_dir, settle};
use crate::tui::action::{update, Action};
use crate::tui::app::ColorMode;
use crate::tui::doc::Doc;

#[test]
fn line_and_token_columns_line_up_with_separators_and_a_unit() {
    let fx = super::fixture();
    let mut text = String::from("def early():\n");
    for i in 0..1200 {
        text.push_str(&format!(
            "    total_{i} = compute_something({i}, 'a string')\n"
        ));
    }
    text.push_str("\n\ndef late():\n    return 1\n");
    std::fs::write(fx.root.join("long.py"), text).unwrap();
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    app.loader = Doc::load;
    update(&mut app, Action::ToggleTokens);
    select_dir(&mut app, "long.py");
    update(&mut app, Action::Enter);
    settle(&mut app);
    let screen = super::render(&app, 120, 40);
    let row = |name: &str| {
        screen
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("no {name} row: {screen}"))
            .to_string()
    };
    let (early, late) = (row("early"), row("late"));
    assert!(late.contains(" 1,204 "), "{late}");
    assert!(
        early.contains("      1 "),
        "right-aligned under 1,204: {early}"
    );
    assert!(early.contains(" tok"), "{early}");
    let tokens = early
        .split_whitespace()
        .find(|word| word.contains(',') && word.trim_start_matches('~') != "1,204")
        .unwrap_or_default();
    assert!(!tokens.is_empty(), "a count with a separator: {early}");
    // The columns end where each other's end.
    let end = |line: &str, what: &str| {
        line.find(what)
            .map(|at| line[..at].chars().count() + what.chars().count())
    };
    assert_eq!(end(&early, " 1 "), end(&late, " 1,204 "), "{early}\n{late}");
    assert_eq!(end(&early, " tok"), end(&late, " tok"), "{early}\n{late}");
}
