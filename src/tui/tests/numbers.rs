//! The outline pane's numbers read at a glance (issue 26 item 12): line numbers right-aligned
//! in a column, token counts in their own column with thousands separators and a unit, as the
//! status bar writes them.

use super::app;
use crate::outline::{Entry, Kind, Outline};
use crate::tui::app::ColorMode;
use crate::tui::doc::Doc;

#[test]
fn line_and_token_columns_line_up_with_separators_and_a_unit() {
    let fx = super::fixture();
    let mut text = String::from("def early():\n");
    for i in 0..1200 {
        text.push_str(&format!("    total_{i} = {i}\n"));
    }
    text.push_str("\n\ndef late():\n    return 1\n");
    let mut early = Entry::new(Kind::Function, "early", 1, 1201);
    early.tokens = Some(18_403);
    let mut late = Entry::new(Kind::Function, "late", 1204, 1205);
    late.tokens = Some(8);
    let outline = Outline::new(crate::Language::Python, 1205, text.len(), vec![early, late]);
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    app.options.tokens = true;
    let doc = Doc::from_parts(&fx.root.join("long.py"), text, Some(outline), &app.theme);
    app.set_doc(doc);
    let screen = super::render(&app, 120, 40);
    let row = |name: &str| {
        screen
            .lines()
            .find(|l| l.contains(&format!("fn {name}")))
            .unwrap_or_else(|| panic!("no {name} row: {screen}"))
            .to_string()
    };
    let (early, late) = (row("early"), row("late"));
    assert!(late.contains(" 1,204 "), "{late}");
    assert!(early.contains("~18,403 tok"), "{early}");
    assert!(late.contains("      ~8 tok"), "right-aligned: {late}");
    // The columns end where each other's end.
    let end = |line: &str, what: &str| {
        line.find(what)
            .map(|at| line[..at].chars().count() + what.chars().count())
    };
    assert_eq!(
        end(&early, "     1 "),
        end(&late, " 1,204 "),
        "{early}\n{late}"
    );
    assert_eq!(end(&early, " tok"), end(&late, " tok"), "{early}\n{late}");
}
