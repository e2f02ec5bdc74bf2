//! The `?` overlay: every key from the keymap table with what it does, one per row, scrolled
//! when the terminal is too short for all of them.

use super::Palette;
use crate::tui::keys;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;

const KEYS_WIDTH: usize = 14;
const COLUMN_WIDTH: usize = 64;

/// Draws the help box centred in `area`, one key per row, from row `top` on: a terminal too
/// short for every row scrolls it (j/k, the arrows, the wheel) rather than cutting text.
pub fn draw(frame: &mut Frame, area: Rect, top: usize, palette: &Palette) {
    let rows = keys::help_rows();
    let width = (COLUMN_WIDTH + 2).min(area.width as usize) as u16;
    let room = (area.height as usize).saturating_sub(3).max(1);
    let top = top.min(rows.len().saturating_sub(room));
    let shown = rows.len().min(room);
    let height = (shown as u16 + 3).min(area.height);
    let rect = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    let column_width = (width as usize).saturating_sub(2);
    let mut lines: Vec<Line> = rows[top..top + shown]
        .iter()
        .map(|(keys, help)| Line::from(cell(keys, help, column_width, palette).to_vec()))
        .collect();
    let more = match (top > 0, top + shown < rows.len()) {
        (false, false) => "",
        (true, false) => "↑ more · ",
        (false, true) => "↓ more (j/k) · ",
        (true, true) => "↑↓ more · ",
    };
    lines.push(Line::styled(
        format!(" {more}click selects, wheel scrolls · other keys close"),
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
