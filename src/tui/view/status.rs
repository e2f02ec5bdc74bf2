//! The status bar: the open file's facts on the left, the focused pane's key hints (or a
//! message, or the filter being typed) on the right.

use super::Palette;
use crate::parse::thousands;
use crate::sanitize::{name_for_terminal, path_for_terminal};
use crate::tui::app::App;
use crate::tui::keys;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

/// Draws the status bar in `rect`.
pub fn draw(frame: &mut Frame, app: &App, rect: Rect, palette: &Palette) {
    let facts = facts(app);
    let right = if app.filtering {
        "type to filter · Enter keep · Esc clear".to_string()
    } else if let Some(message) = &app.message {
        name_for_terminal(message).into_owned()
    } else {
        keys::hints(app.focus)
            .iter()
            .map(|(k, h)| format!("{k} {h}"))
            .collect::<Vec<_>>()
            .join(" · ")
    };
    let width = rect.width as usize;
    let used = facts.chars().count();
    let room = width.saturating_sub(used + 2);
    let right: String = if right.chars().count() > room {
        right.chars().take(room).collect()
    } else {
        right
    };
    let pad = width.saturating_sub(used + right.chars().count());
    let line = Line::from(vec![
        Span::styled(facts, palette.accent()),
        Span::raw(" ".repeat(pad)),
        Span::styled(right, palette.dim()),
    ]);
    frame.render_widget(Paragraph::new(line), rect);
}

/// `src/app.py · python · 120 lines · 900 tokens · 2 changed` (`~900` for an estimate).
fn facts(app: &App) -> String {
    let Some(doc) = &app.doc else {
        return format!(" {}/", name_for_terminal(&app.root_name()));
    };
    let shown = doc.path.strip_prefix(&app.root).unwrap_or(&doc.path);
    let mut parts = vec![format!(" {}", path_for_terminal(shown))];
    if let Some(outline) = &doc.outline {
        parts.push(outline.language.to_string());
    }
    parts.push(format!("{} lines", thousands(doc.line_count())));
    if let Some((tokens, encoding)) = doc
        .outline
        .as_ref()
        .and_then(|o| o.tokens)
        .filter(|_| app.options.tokens)
    {
        let mark = crate::tokens::estimate_mark(encoding);
        parts.push(format!("{mark}{} tokens", thousands(tokens)));
    }
    if let Some(limit) = doc.outline.as_ref().and_then(|o| o.limit.as_ref()) {
        parts.push(format!(
            "outlined {} lines",
            thousands(limit.lines_outlined)
        ));
    }
    let changed = app
        .outline
        .nodes()
        .iter()
        .filter(|n| n.item.changed)
        .count();
    if app.options.diff && changed > 0 {
        parts.push(format!("{changed} changed"));
    }
    parts.join(" · ")
}
