//! The finder views, drawn over the directory and outline panes: the symbol picker (`kind
//! qualname  path:line` rows, matched letters marked) and the results of a text or references
//! search (files, enclosing entries, hits). The query line is at the top, counts in the title.

use super::outline::{kind_style, kind_word, truncate};
use super::{pane_block, Palette};
use crate::sanitize::{for_terminal, name_for_terminal, path_for_terminal};
use crate::tui::app::App;
use crate::tui::picker::{Cursor, Overlay, ResultRow, SearchKind};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};
use ratatui::Frame;
use std::path::Path;
use unicode_width::UnicodeWidthStr;

/// Draws the open finder view in `rect`.
pub fn draw(frame: &mut Frame, app: &App, rect: Rect, palette: &Palette) {
    let width = rect.width.saturating_sub(2) as usize;
    let height = (rect.height.saturating_sub(3) as usize).max(1);
    let (title, query, rows) = match app.overlay {
        Overlay::Symbols => (
            format!(" Symbols · {} ", app.picker.counts()),
            app.picker.query.as_str(),
            symbol_rows(app, width, height, palette),
        ),
        Overlay::Search => {
            let name = match app.results.kind {
                SearchKind::Text => "Search",
                SearchKind::References => "References",
            };
            (
                format!(" {name} · {} ", app.results.counts()),
                app.results.query.as_str(),
                result_rows(app, width, height, palette),
            )
        }
        Overlay::None => return,
    };
    let mut lines = vec![Line::from(vec![
        Span::styled("> ", palette.accent()),
        Span::raw(name_for_terminal(query).into_owned()),
        Span::styled("▏", palette.accent()),
    ])];
    lines.extend(rows);
    let block = pane_block(Line::raw(truncate(&title, width)), true, palette);
    frame.render_widget(Clear, rect);
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}

/// The visible window of `len` rows for `cursor` in `height` lines.
fn window(cursor: Cursor, len: usize, height: usize) -> std::ops::Range<usize> {
    let mut cursor = cursor;
    cursor.clamp(len, height);
    cursor.offset..(cursor.offset + height).min(len)
}

fn symbol_rows(app: &App, width: usize, height: usize, palette: &Palette) -> Vec<Line<'static>> {
    let ranking = &app.picker.ranking;
    if ranking.rows.is_empty() {
        let note = match (&ranking.note, ranking.done) {
            (Some(note), _) => note.clone(),
            (None, false) => "indexing…".to_string(),
            (None, true) if app.picker.query.is_empty() => "no definitions in this tree".into(),
            (None, true) => "no match".to_string(),
        };
        return vec![Line::styled(format!("  {note}"), palette.dim())];
    }
    window(app.picker.cursor, ranking.rows.len(), height)
        .map(|index| {
            let row = &ranking.rows[index];
            let place = format!("  {}:{}", shown(app, &row.path), row.line);
            let tag = format!("{} ", kind_word(row.kind));
            let room = width.saturating_sub(tag.width() + place.width());
            let name_style = match row.in_test {
                true => palette.dim(),
                false => Style::default(),
            };
            let mut spans = vec![Span::styled(tag, kind_style(row.kind, palette))];
            spans.extend(marked(
                &row.qualname,
                &row.matched,
                room,
                name_style,
                palette,
            ));
            let used: usize = spans.iter().map(|s| s.width()).sum();
            let pad = width.saturating_sub(used + place.width());
            spans.push(Span::raw(" ".repeat(pad)));
            spans.push(Span::styled(
                truncate(&place, width.saturating_sub(used)),
                palette.dim(),
            ));
            let mut line = Line::from(spans);
            if index == app.picker.cursor.selected {
                line = line.patch_style(palette.selected(true));
            }
            line
        })
        .collect()
}

/// `text` cut to `room` columns, with the characters at `matched` positions marked.
fn marked(
    text: &str,
    matched: &[u32],
    room: usize,
    style: Style,
    palette: &Palette,
) -> Vec<Span<'static>> {
    let text = truncate(&name_for_terminal(text), room);
    text.chars()
        .enumerate()
        .map(|(i, c)| {
            let hit = matched.binary_search(&(i as u32)).is_ok();
            Span::styled(c.to_string(), if hit { palette.matched() } else { style })
        })
        .collect()
}

fn result_rows(app: &App, width: usize, height: usize, palette: &Palette) -> Vec<Line<'static>> {
    let results = &app.results;
    let mut lines = Vec::new();
    if let Some(note) = &results.note {
        lines.push(Line::styled(
            format!("  {}", name_for_terminal(note)),
            palette.changed(),
        ));
    }
    if results.rows.is_empty() {
        let note = match (&results.ran, results.running) {
            (None, _) if results.kind == SearchKind::Text => {
                "type a regex, Enter searches the tree"
            }
            (None, _) => "type a name, Enter finds its uses",
            (Some(_), true) => "searching…",
            (Some(_), false) => "no match",
        };
        lines.push(Line::styled(format!("  {note}"), palette.dim()));
        return lines;
    }
    let height = height.saturating_sub(lines.len()).max(1);
    for index in window(results.cursor, results.rows.len(), height) {
        let mut line = match &results.rows[index] {
            ResultRow::File { path, hits } => Line::from(vec![
                Span::styled(
                    truncate(&shown(app, path), width.saturating_sub(8)),
                    palette.accent(),
                ),
                Span::styled(format!(" ({hits})"), palette.dim()),
            ]),
            ResultRow::Entry {
                kind,
                qualname,
                line,
                defines,
            } => {
                let tag = format!("  {} ", kind_word(*kind));
                let tail = format!(" {line}{}", if *defines { " · defines" } else { "" });
                let room = width.saturating_sub(tag.len() + tail.len());
                Line::from(vec![
                    Span::styled(tag, kind_style(*kind, palette)),
                    Span::raw(truncate(&name_for_terminal(qualname), room)),
                    Span::styled(tail, palette.dim()),
                ])
            }
            ResultRow::Hit {
                line,
                text,
                definition,
                ..
            } => {
                let number = format!("    {line:>5}{} ", if *definition { "*" } else { ":" });
                let room = width.saturating_sub(number.len());
                Line::from(vec![
                    Span::styled(number, palette.dim()),
                    Span::raw(truncate(
                        &for_terminal(text.trim_start()).replace('\t', " "),
                        room,
                    )),
                ])
            }
        };
        if index == results.cursor.selected {
            line = line.patch_style(palette.selected(true));
        }
        lines.push(line);
    }
    lines
}

/// A path as shown in the finder: relative to the viewer's root.
fn shown(app: &App, path: &Path) -> String {
    let rel = path.strip_prefix(&app.root).unwrap_or(path);
    path_for_terminal(crate::walk::shown(rel)).into_owned()
}
