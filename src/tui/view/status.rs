//! The status bar: the open file's facts on the left, the focused pane's key hints (or a
//! message, or the filter being typed) on the right.

use super::Palette;
use crate::parse::thousands;
use crate::sanitize::{name_for_terminal, path_for_terminal};
use crate::tui::app::{App, Focus};
use crate::tui::keys;
use crate::tui::picker::Overlay;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;
use unicode_truncate::UnicodeTruncateStr;
use unicode_width::UnicodeWidthStr;

/// Draws the status bar in `rect`.
pub fn draw(frame: &mut Frame, app: &App, rect: Rect, palette: &Palette) {
    let facts = facts(app);
    let width = rect.width as usize;
    let room = width.saturating_sub(facts.width() + 2);
    let right = right_side(app, room);
    let used = facts.width();
    let pad = width.saturating_sub(used + right.width());
    let line = Line::from(vec![
        Span::styled(facts, palette.accent()),
        Span::raw(" ".repeat(pad)),
        Span::styled(right, palette.dim()),
    ]);
    frame.render_widget(Paragraph::new(line), rect);
}

/// The right side in `room` columns: a message, the filter being typed, or key hints, with
/// `? help` kept last whenever it fits so that the help is never out of sight.
fn right_side(app: &App, room: usize) -> String {
    const HELP: &str = "? help";
    let text = if app.filtering {
        let mut text = "type to filter · Enter keep · Esc clear".to_string();
        if let Some(note) = reach_note(app) {
            text = format!("{note} · {text}");
        }
        if let Some((at, of)) = filtered_tree_position(app) {
            text = format!("match {at}/{of} · {text}");
        }
        text
    } else if let Some(message) = &app.message {
        name_for_terminal(message).into_owned()
    } else {
        let hints = match app.overlay {
            Overlay::None => keys::hints(app.focus),
            _ => keys::finder_hints(),
        };
        let mut parts: Vec<String> = hints
            .iter()
            .filter(|(k, _)| *k != "?")
            .map(|(k, h)| format!("{k} {h}"))
            .collect();
        if let Some(note) = reach_note(app) {
            parts.insert(0, note);
        }
        if app.polled.is_some() {
            parts.insert(0, "polled, not watched".into());
        }
        if let Some((at, of)) = filtered_tree_position(app) {
            parts.insert(0, format!("match {at}/{of}"));
        }
        let cut = app.outline.selected().is_some_and(|n| n.item.nesting_cut);
        if cut && app.focus == Focus::Outline && app.overlay == Overlay::None {
            parts.insert(0, "deeper not outlined: nesting limit".into());
        }
        // Hints drop from the end until `? help` fits after them.
        let help_width = HELP.width() + 3;
        while !parts.is_empty() && parts.join(" · ").width() + help_width > room {
            parts.pop();
        }
        parts.push(HELP.to_string());
        parts.join(" · ")
    };
    match text.width() > room {
        true => text.unicode_truncate(room).0.to_string(),
        false => text,
    }
}

/// How far the directory filter has searched below the listed directories: still
/// searching, or stopped at its cap.
fn reach_note(app: &App) -> Option<String> {
    let query = app.dir.filter_query()?;
    if app.focus != Focus::Dir || app.reach.is_none() {
        return None;
    }
    if !app.reached.answers(query) {
        return Some("searching folders…".into());
    }
    app.reached.capped.then(|| {
        format!(
            "first {} matches listed: type more",
            thousands(crate::tui::reach::MAX_MATCHES)
        )
    })
}

/// The filtered pane's selected match and number of matches.
fn filtered_tree_position(app: &App) -> Option<(usize, usize)> {
    match app.focus {
        Focus::Dir => app.dir.match_position(),
        _ => app.outline.match_position(),
    }
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
    if let Some(error) = &doc.error {
        parts.push(name_for_terminal(error).into_owned());
        return parts.join(" · ");
    }
    if doc.binary {
        parts.push(format!("binary file · {}", size(file_size(app, &doc.path))));
        return parts.join(" · ");
    }
    if doc.loading {
        parts.push(format!("reading {}…", size(file_size(app, &doc.path))));
        return parts.join(" · ");
    }
    parts.push(format!(
        "{} lines",
        thousands(doc.extent.lines.max(doc.line_count()))
    ));
    if !doc.extent.complete {
        parts.push(format!(
            "first {} of {} shown",
            size(doc.text.len()),
            size(doc.extent.bytes)
        ));
    }
    if app.focus == Focus::Preview && app.overlay == Overlay::None && doc.line_count() > 0 {
        let line = app.preview.cursor + 1;
        let percent = line * 100 / doc.line_count();
        parts.push(format!("line {} {percent}%", thousands(line)));
    }
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

/// A byte count as people read it: `980 B`, `12.4 KB`, `57.3 MB`.
pub(super) fn size(bytes: usize) -> String {
    match bytes {
        b if b < 1024 => format!("{b} B"),
        b if b < 1024 * 1024 => format!("{:.1} KB", b as f64 / 1024.0),
        b => format!("{:.1} MB", b as f64 / (1024.0 * 1024.0)),
    }
}

/// The size of the file `path` leads to, 0 when it cannot be told or lies outside `--root`.
fn file_size(app: &App, path: &std::path::Path) -> usize {
    match crate::source::stat_confined(path, app.confine.as_deref()) {
        Ok(Some(meta)) => meta.len() as usize,
        _ => 0,
    }
}
