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
use unicode_truncate::UnicodeTruncateStr;
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
    // A query kept from the last visit is drawn selected: the first key replaces it.
    let query_style = match app.replace_query {
        true => palette.selected(true),
        false => Style::default(),
    };
    let (before, after) = app.line.split(query);
    let mut lines = vec![Line::from(vec![
        Span::styled("> ", palette.accent()),
        Span::styled(name_for_terminal(before).into_owned(), query_style),
        Span::styled("▏", palette.accent()),
        Span::styled(name_for_terminal(after).into_owned(), query_style),
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
            let tag = format!("{} ", kind_word(row.kind));
            // The place keeps its end (file name and line); it gives up room past 2/5 of
            // the row only to a name that needs it.
            let place = format!("{}:{}", shown(app, &row.path), row.line);
            let name_wants = tag.width() + row.qualname.width() + 2;
            let budget = (width * 2 / 5)
                .max(width.saturating_sub(name_wants))
                .max(12);
            let place = format!("  {}", keep_end(&place, budget));
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

/// `text` cut to `room` columns, with the characters at `matched` positions marked. A
/// qualified name too long for the row loses its start, never its end: the name is what the
/// row is for (`…Deserializer for &mut Reader.deserialize_map`).
fn marked(
    text: &str,
    matched: &[u32],
    room: usize,
    style: Style,
    palette: &Palette,
) -> Vec<Span<'static>> {
    let text = name_for_terminal(text);
    if text.width() <= room {
        return spans_marked(text.chars(), 0, matched, style, palette);
    }
    if room == 0 {
        return Vec::new();
    }
    let (tail, _) = text.unicode_truncate_start(room - 1);
    let dropped = text.chars().count() - tail.chars().count();
    let mut spans = vec![Span::styled("…", style)];
    spans.extend(spans_marked(
        text.chars().skip(dropped),
        dropped,
        matched,
        style,
        palette,
    ));
    spans
}

/// One span per character of `chars`, the first being character `first` of the text; those
/// at `matched` positions marked.
fn spans_marked(
    chars: impl Iterator<Item = char>,
    first: usize,
    matched: &[u32],
    style: Style,
    palette: &Palette,
) -> Vec<Span<'static>> {
    chars
        .enumerate()
        .map(|(i, c)| {
            let hit = matched.binary_search(&((first + i) as u32)).is_ok();
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
        let pending = results.running || results.due.is_some();
        let note = match (&results.ran, pending) {
            (_, true) => "searching…",
            (None, false) if results.kind == SearchKind::Text => {
                "type a regex: the tree is searched as you type"
            }
            (None, false) => "type a name: its uses are found as you type",
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
                    keep_end(&shown(app, path), width.saturating_sub(8)),
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
                    Span::raw(keep_end(&name_for_terminal(qualname), room)),
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

/// `text` cut to `room` columns from the left (`…de/mod.rs:1146`): a path's end says most.
fn keep_end(text: &str, room: usize) -> String {
    if text.width() <= room {
        return text.to_string();
    }
    match room {
        0 => String::new(),
        _ => format!("…{}", text.unicode_truncate_start(room - 1).0),
    }
}

/// A path as shown in the finder: relative to the viewer's root.
fn shown(app: &App, path: &Path) -> String {
    let rel = path.strip_prefix(&app.root).unwrap_or(path);
    path_for_terminal(crate::walk::shown(rel)).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::app::ColorMode;

    fn text(spans: &[Span]) -> String {
        spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn a_long_qualified_name_keeps_its_end_and_its_marks() {
        let palette = Palette::new(ColorMode::Mono, false);
        let name = "serde::Deserializer<'de> for &'a mut Reader.deserialize_map";
        let at = name.find("deserialize_map").unwrap() as u32;
        let matched: Vec<u32> = (at..at + 3).collect();
        let spans = marked(name, &matched, 23, Style::default(), &palette);
        assert_eq!(text(&spans), "…Reader.deserialize_map");
        let marked_text: String = spans
            .iter()
            .filter(|s| s.style == palette.matched())
            .map(|s| s.content.as_ref())
            .collect();
        assert_eq!(marked_text, "des");
        let short = marked("get", &[0], 10, Style::default(), &palette);
        assert_eq!(text(&short), "get");
        assert!(marked(name, &[], 0, Style::default(), &palette).is_empty());
        assert_eq!(keep_end("src/de/mod.rs:1146", 12), "…mod.rs:1146");
        assert_eq!(keep_end("a.rs:1", 12), "a.rs:1");
    }
}
