//! The preview pane: the open file with line numbers, a diff gutter, the selected entry's range
//! marked, and syntax colours for the lines `App::sync` highlighted (plain text otherwise).

use super::{pane_block, Palette};
use crate::outline::{ChangeKind, LineChange};
use crate::sanitize::{for_terminal, name_for_terminal};
use crate::tui::app::{App, Focus};
use crate::tui::doc::Doc;
use crate::tui::picker::Overlay;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

/// Draws the preview pane in `rect`.
pub fn draw(frame: &mut Frame, app: &App, rect: Rect, palette: &Palette) {
    let focused = app.focus == Focus::Preview && app.overlay == Overlay::None;
    // While a finder view is open the preview shows its selected item instead.
    let (doc, view, range) = match app.peek.as_ref().filter(|_| app.overlay != Overlay::None) {
        Some(peek) => (Some(&peek.doc), peek.view, Some((peek.line, peek.end_line))),
        None => (
            app.doc.as_ref(),
            app.preview,
            app.outline
                .selected()
                .map(|n| (n.item.line, n.item.end_line)),
        ),
    };
    let Some(doc) = doc else {
        let block = pane_block(Line::raw(" Preview "), focused, palette);
        frame.render_widget(Paragraph::new("").block(block), rect);
        return;
    };
    let title = format!(" {} ", name_for_terminal(&doc.name));
    let block = pane_block(Line::raw(title), focused, palette);
    if let Some(note) = doc.error.as_deref().or(doc.binary.then_some("binary file")) {
        let note = name_for_terminal(note).into_owned();
        let note = Paragraph::new(note).wrap(Wrap { trim: false });
        frame.render_widget(note.block(block), rect);
        return;
    }
    let height = rect.height.saturating_sub(2) as usize;
    let width = rect.width.saturating_sub(2) as usize;
    let digits = doc.line_count().max(1).to_string().len();
    let changes = doc
        .outline
        .as_ref()
        .and_then(|o| o.changes.as_deref())
        .filter(|_| app.options.diff);
    let lines: Vec<Line> = (view.top..view.top + height)
        .filter_map(|index| {
            let text = doc.line(index)?;
            let number = index + 1;
            let mut number_style = palette.dim();
            if index == view.cursor && focused {
                number_style = palette.selected(true);
            }
            let mut spans = vec![
                Span::styled(format!("{number:>digits$} "), number_style),
                gutter(number, changes, palette),
                range_mark(number, range, palette),
            ];
            let shown = content(doc, index, text, (view.left + width) * 4, palette);
            spans.extend(skip_columns(shown, view.left));
            let mut line = Line::from(spans);
            if index == view.cursor && focused && palette.mode != crate::tui::app::ColorMode::Mono {
                line = line.patch_style(palette.selected(false));
            }
            Some(line)
        })
        .collect();
    let mut lines = lines;
    // Past the read cap the last line in memory is cut: the note stands in its place.
    if !doc.extent.complete && view.top + lines.len() >= doc.line_count() {
        if lines.len() >= height {
            lines.pop();
        }
        lines.push(Line::styled(
            format!(
                "… the file goes on: the first {} of {} are shown (the read cap)",
                super::status::size(doc.text.len()),
                super::status::size(doc.extent.bytes)
            ),
            palette.changed(),
        ));
    }
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}

/// The diff column: `+` added, `~` modified, `_` lines deleted below, blank otherwise.
fn gutter(number: usize, changes: Option<&[LineChange]>, palette: &Palette) -> Span<'static> {
    let hit = changes.and_then(|all| {
        all.iter().find(|c| match c.kind {
            ChangeKind::DeletedBelow => c.start == number || (c.start == 0 && number == 1),
            _ => c.start <= number && number <= c.end,
        })
    });
    match hit.map(|c| c.kind) {
        Some(ChangeKind::Added) => Span::styled("+", palette.added()),
        Some(ChangeKind::Modified) => Span::styled("~", palette.changed()),
        Some(ChangeKind::DeletedBelow) => Span::styled("_", palette.deleted()),
        None => Span::raw(" "),
    }
}

/// The selected entry's range: a bar beside its lines.
fn range_mark(number: usize, range: Option<(usize, usize)>, palette: &Palette) -> Span<'static> {
    match range {
        Some((start, end)) if start <= number && number <= end => {
            Span::styled("│ ", palette.accent().add_modifier(Modifier::BOLD))
        }
        _ => Span::raw("  "),
    }
}

/// The line's text as styled spans, tabs expanded, cut after `max_bytes` bytes.
fn content(
    doc: &Doc,
    index: usize,
    text: &str,
    max_bytes: usize,
    palette: &Palette,
) -> Vec<Span<'static>> {
    let cut = floor_boundary(text, max_bytes);
    let Some(spans) = doc
        .highlighter
        .cached(index)
        .filter(|_| palette.mode != crate::tui::app::ColorMode::Mono)
    else {
        return vec![Span::raw(expand_tabs(&text[..cut]))];
    };
    spans
        .iter()
        .filter(|(_, r)| r.start < cut)
        .filter_map(|(style, r)| {
            let piece = text.get(r.start..r.end.min(cut))?;
            let mut out: Style = palette.syntax(style.foreground);
            if style
                .font_style
                .contains(syntect::highlighting::FontStyle::BOLD)
            {
                out = out.add_modifier(Modifier::BOLD);
            }
            Some(Span::styled(expand_tabs(piece), out))
        })
        .collect()
}

/// Drops the first `left` characters of a line's spans (sideways scrolling).
fn skip_columns(spans: Vec<Span<'static>>, left: usize) -> Vec<Span<'static>> {
    if left == 0 {
        return spans;
    }
    let mut skip = left;
    spans
        .into_iter()
        .filter_map(|span| {
            let count = span.content.chars().count();
            if skip >= count {
                skip -= count;
                return None;
            }
            let rest: String = span.content.chars().skip(skip).collect();
            skip = 0;
            Some(Span::styled(rest, span.style))
        })
        .collect()
}

fn floor_boundary(text: &str, max: usize) -> usize {
    if text.len() <= max {
        return text.len();
    }
    let mut at = max;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Tabs become four spaces and other control characters visible escapes (`\e`), so the
/// terminal never receives raw escapes from file content.
fn expand_tabs(text: &str) -> String {
    for_terminal(text).replace('\t', "    ")
}
