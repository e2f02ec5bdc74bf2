//! Drawing: views borrow the [`App`] and draw one frame; they never change state. One file per
//! pane below; this module holds the frame layout, the palette and the shared tree-pane code.
//!
//! Every string that came from a file or a file name goes through [`crate::sanitize`] here, at
//! the edge: a control character drawn raw would reach the terminal as-is.

use super::app::{App, ColorMode, Focus};
use super::layout;
use super::tree::{Item, Tree};
use crate::sanitize::name_for_terminal;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Paragraph};
use ratatui::Frame;

mod dir;
mod help;
mod outline;
mod picker;
mod preview;
mod status;

/// Draws the whole screen for `app`.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    if layout::too_small(area) {
        let note = Paragraph::new(format!(
            "terminal too small\n(need {}x{})",
            layout::MIN_WIDTH,
            layout::MIN_HEIGHT
        ));
        frame.render_widget(note, area);
        return;
    }
    let panes = layout::panes(area);
    let palette = Palette::new(app.options.color, app.options.light);
    if app.overlay != crate::tui::picker::Overlay::None {
        let (list, preview) = layout::finder(&panes);
        picker::draw(frame, app, list, &palette);
        preview::draw(frame, app, preview, &palette);
    } else {
        if let Some(rect) = panes.dir {
            dir::draw(frame, app, rect, &palette);
        }
        outline::draw(frame, app, panes.outline, &palette);
        preview::draw(frame, app, panes.preview, &palette);
    }
    status::draw(frame, app, panes.status, &palette);
    if app.help {
        help::draw(frame, area, app.help_top, &palette);
    }
}

/// The UI's styles for one colour mode and background. Mono uses only bold, dim and reverse
/// video.
pub struct Palette {
    pub mode: ColorMode,
    /// The terminal's background is light: darker inks, paler selection.
    pub light: bool,
}

/// A colour as 24-bit RGB and as its nearest xterm 256-colour index.
type Ink = ((u8, u8, u8), u8);

impl Palette {
    pub fn new(mode: ColorMode, light: bool) -> Palette {
        Palette { mode, light }
    }

    /// The ink for the background: `dark` on a dark terminal, `light` on a light one.
    fn ink(&self, dark: Ink, light: Ink) -> Style {
        let (rgb, indexed) = if self.light { light } else { dark };
        self.fg(rgb, indexed)
    }

    fn background(&self, dark: Ink, light: Ink) -> Option<Color> {
        let (rgb, indexed) = if self.light { light } else { dark };
        self.color(rgb, indexed)
    }

    fn color(&self, rgb: (u8, u8, u8), indexed: u8) -> Option<Color> {
        match self.mode {
            ColorMode::Mono => None,
            ColorMode::Ansi256 => Some(Color::Indexed(indexed)),
            ColorMode::TrueColor => Some(Color::Rgb(rgb.0, rgb.1, rgb.2)),
        }
    }

    fn fg(&self, rgb: (u8, u8, u8), indexed: u8) -> Style {
        self.color(rgb, indexed)
            .map_or_else(Style::default, |c| Style::default().fg(c))
    }

    /// A pane's border: focused panes are bold and thick.
    pub fn border(&self, focused: bool) -> (Style, BorderType) {
        match (focused, self.mode) {
            (true, ColorMode::Mono) => (
                Style::default().add_modifier(Modifier::BOLD),
                BorderType::Thick,
            ),
            (true, _) => (
                self.accent().add_modifier(Modifier::BOLD),
                BorderType::Thick,
            ),
            (false, _) => (self.dim(), BorderType::Plain),
        }
    }

    /// The selected row: a clear bar in the focused pane, a fainter one in the others (reverse
    /// video and underline without colours).
    pub fn selected(&self, focused: bool) -> Style {
        let bar = match focused {
            true => self.background(((50, 62, 92), 238), ((175, 205, 245), 153)),
            false => self.background(((38, 42, 50), 235), ((230, 233, 238), 254)),
        };
        match (focused, bar) {
            (true, Some(bg)) => Style::default().bg(bg).add_modifier(Modifier::BOLD),
            (true, None) => Style::default().add_modifier(Modifier::REVERSED),
            (false, Some(bg)) => Style::default().bg(bg),
            (false, None) => Style::default().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
        }
    }

    pub fn dim(&self) -> Style {
        match self.mode {
            ColorMode::Mono => Style::default().add_modifier(Modifier::DIM),
            _ => self.fg((110, 115, 125), 244),
        }
    }

    pub fn changed(&self) -> Style {
        self.ink(((229, 192, 123), 179), ((170, 105, 0), 130))
    }

    pub fn added(&self) -> Style {
        self.ink(((152, 195, 121), 114), ((40, 130, 40), 28))
    }

    pub fn deleted(&self) -> Style {
        self.ink(((224, 108, 117), 168), ((190, 40, 50), 124))
    }

    pub fn accent(&self) -> Style {
        self.ink(((97, 175, 239), 75), ((0, 95, 175), 25))
    }

    pub fn matched(&self) -> Style {
        self.changed().add_modifier(Modifier::BOLD)
    }

    /// The colour of a syntect style's foreground, if the mode draws colours.
    pub fn syntax(&self, color: syntect::highlighting::Color) -> Style {
        let c = match self.mode {
            ColorMode::Mono => return Style::default(),
            // bat's ANSI themes put a palette index in `r` with alpha 0, and "default" as alpha 1.
            _ if color.a == 0 => Color::Indexed(color.r),
            _ if color.a == 1 => return Style::default(),
            ColorMode::TrueColor => Color::Rgb(color.r, color.g, color.b),
            ColorMode::Ansi256 => Color::Indexed(rgb_to_256(color.r, color.g, color.b)),
        };
        Style::default().fg(c)
    }
}

/// The nearest entry of the xterm 256-colour cube or grey ramp.
pub fn rgb_to_256(r: u8, g: u8, b: u8) -> u8 {
    let level = |v: u8| {
        if v < 48 {
            0
        } else if v < 115 {
            1
        } else {
            (v - 35) / 40
        }
    };
    let (lr, lg, lb) = (level(r), level(g), level(b));
    let cube = 16 + 36 * lr + 6 * lg + lb;
    let value = |l: u8| if l == 0 { 0 } else { 55 + 40 * l as i32 };
    let cube_dist = sq(value(lr) - r as i32) + sq(value(lg) - g as i32) + sq(value(lb) - b as i32);
    let avg = (r as i32 + g as i32 + b as i32) / 3;
    let grey_index = ((avg - 8).max(0) / 10).min(23);
    let grey = 8 + 10 * grey_index;
    let grey_dist = sq(grey - r as i32) + sq(grey - g as i32) + sq(grey - b as i32);
    if grey_dist < cube_dist {
        232 + grey_index as u8
    } else {
        cube
    }
}

fn sq(v: i32) -> i32 {
    v * v
}

/// A bordered block titled `title`, styled for focus.
pub fn pane_block<'a>(title: Line<'a>, focused: bool, palette: &Palette) -> Block<'a> {
    let (style, kind) = palette.border(focused);
    Block::default()
        .borders(Borders::ALL)
        .border_type(kind)
        .border_style(style)
        .title(title)
}

/// Draws the visible window of `tree` in `rect`, one line per row from `row`.
pub fn draw_tree<T: Item>(
    frame: &mut Frame,
    tree: &Tree<T>,
    rect: Rect,
    block: Block,
    focused: bool,
    palette: &Palette,
    row: impl Fn(usize, &super::tree::Node<T>) -> Line<'static>,
) {
    let height = layout::inner_height(rect);
    let lines: Vec<Line> = tree
        .visible()
        .iter()
        .skip(tree.offset)
        .take(height)
        .map(|&index| {
            let node = &tree.nodes()[index];
            let mut line = row(index, node);
            if index == tree.selected_index() {
                line = line.patch_style(palette.selected(focused));
            }
            line
        })
        .collect();
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}

/// The fold marker and indentation in front of a tree row; `open`: its children show.
pub fn tree_prefix<T>(node: &super::tree::Node<T>, open: bool) -> Span<'static> {
    let marker = match (node.has_children, open) {
        (false, _) => "  ",
        (true, true) => "▾ ",
        (true, false) => "▸ ",
    };
    Span::raw(format!("{}{marker}", "  ".repeat(node.depth)))
}

/// The focused pane's title, with the filter when one is active.
pub fn title(name: &str, app: &App, pane: Focus, query: Option<&str>) -> Line<'static> {
    let mut text = format!(" {name} ");
    if let Some(query) = query {
        match app.filtering && app.focus == pane {
            true => {
                let (before, after) = app.line.split(query);
                text.push_str(&format!("/{before}▏{after} "));
            }
            false => text.push_str(&format!("/{query} ")),
        }
    }
    Line::raw(name_for_terminal(&text).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_focused_selection_is_clear_and_the_others_fainter() {
        for light in [false, true] {
            let palette = Palette::new(ColorMode::TrueColor, light);
            let (focused, other) = (palette.selected(true), palette.selected(false));
            assert_ne!(focused.bg, other.bg);
            assert!(focused.add_modifier.contains(Modifier::BOLD));
            let lightness = |style: Style| match style.bg {
                Some(Color::Rgb(r, g, b)) => r as u32 + g as u32 + b as u32,
                other => panic!("{other:?}"),
            };
            // The focused bar stands further from the terminal's background.
            match light {
                false => assert!(lightness(focused) > lightness(other)),
                true => assert!(lightness(focused) < lightness(other)),
            }
        }
        let mono = Palette::new(ColorMode::Mono, false);
        assert!(mono
            .selected(true)
            .add_modifier
            .contains(Modifier::REVERSED));
        assert_ne!(
            Palette::new(ColorMode::Ansi256, true).accent(),
            Palette::new(ColorMode::Ansi256, false).accent()
        );
    }

    #[test]
    fn colours_map_to_the_256_palette() {
        assert_eq!(rgb_to_256(0, 0, 0), 16);
        assert_eq!(rgb_to_256(255, 255, 255), 231);
        assert_eq!(rgb_to_256(128, 128, 128), 244);
        assert_eq!(rgb_to_256(255, 0, 0), 196);
    }
}
