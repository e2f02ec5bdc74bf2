//! The `?` overlay: every key from the keymap table with what it does.

use super::Palette;
use crate::tui::keys;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;

/// Draws the help box centred in `area`.
pub fn draw(frame: &mut Frame, area: Rect, palette: &Palette) {
    let rows = keys::help_rows();
    let width = 54.min(area.width);
    let height = (rows.len() as u16 + 3).min(area.height);
    let rect = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    let mut lines: Vec<Line> = rows
        .iter()
        .map(|(keys, help)| {
            Line::from(vec![
                Span::styled(format!(" {keys:<14}"), palette.accent()),
                Span::raw(help.to_string()),
            ])
        })
        .collect();
    lines.push(Line::styled(
        " mouse: click selects, wheel scrolls · any key closes",
        palette.dim(),
    ));
    let block = Block::default().borders(Borders::ALL).title(" Keys ");
    frame.render_widget(Clear, rect);
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}
