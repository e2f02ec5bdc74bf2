//! The `?` overlay: every key from the keymap table with what it does, in as many columns as
//! the terminal's height needs.

use super::Palette;
use crate::tui::keys;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;

const KEYS_WIDTH: usize = 14;
const COLUMN_WIDTH: usize = 52;

/// Draws the help box centred in `area`.
pub fn draw(frame: &mut Frame, area: Rect, palette: &Palette) {
    let rows = keys::help_rows();
    let room = (area.height as usize).saturating_sub(3).max(1);
    let columns = rows.len().div_ceil(room).max(1);
    let per_column = rows.len().div_ceil(columns);
    let column_width = COLUMN_WIDTH.min((area.width as usize).saturating_sub(2) / columns);
    let width = (column_width * columns + 2).min(area.width as usize) as u16;
    let height = (per_column as u16 + 3).min(area.height);
    let rect = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    let mut lines: Vec<Line> = (0..per_column)
        .map(|r| {
            let spans = (0..columns)
                .filter_map(|c| rows.get(c * per_column + r))
                .flat_map(|(keys, help)| cell(keys, help, column_width, palette))
                .collect::<Vec<_>>();
            Line::from(spans)
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

/// One `keys  help` cell padded to `width` columns.
fn cell(keys: &str, help: &str, width: usize, palette: &Palette) -> [Span<'static>; 2] {
    let help_width = width.saturating_sub(KEYS_WIDTH + 1);
    let help: String = help.chars().take(help_width).collect();
    [
        Span::styled(format!(" {keys:<w$}", w = KEYS_WIDTH), palette.accent()),
        Span::raw(format!("{help:<help_width$}")),
    ]
}
