//! Where the panes go for a terminal size. Pure geometry, shared by the views (to draw), by
//! `update` (page sizes, scrolling) and by mouse handling (which pane a click hit).

use ratatui::layout::{Constraint, Direction, Layout, Rect};

/// Below this width the directory pane is hidden.
pub const DIR_PANE_MIN_WIDTH: u16 = 80;
/// Below this size only a "terminal too small" note is drawn.
pub const MIN_WIDTH: u16 = 30;
pub const MIN_HEIGHT: u16 = 6;

/// The rectangles of one frame. `dir` is `None` when the pane is hidden.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Panes {
    pub dir: Option<Rect>,
    pub outline: Rect,
    pub preview: Rect,
    pub status: Rect,
}

/// Whether `area` is too small to draw the panes.
pub fn too_small(area: Rect) -> bool {
    area.width < MIN_WIDTH || area.height < MIN_HEIGHT
}

/// Splits `area` into the panes and the status bar.
pub fn panes(area: Rect) -> Panes {
    let [main, status] = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Min(1), Constraint::Length(1)])
        .areas(area);
    if area.width < DIR_PANE_MIN_WIDTH {
        let [outline, preview] = Layout::default()
            .direction(Direction::Horizontal)
            .constraints([Constraint::Percentage(38), Constraint::Min(10)])
            .areas(main);
        return Panes {
            dir: None,
            outline,
            preview,
            status,
        };
    }
    let dir_width = (area.width / 5).clamp(18, 40);
    let outline_width = (area.width * 3 / 10).clamp(24, 60);
    let [dir, outline, preview] = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([
            Constraint::Length(dir_width),
            Constraint::Length(outline_width),
            Constraint::Min(10),
        ])
        .areas(main);
    Panes {
        dir: Some(dir),
        outline,
        preview,
        status,
    }
}

/// While a finder view is open: its list, over the directory and outline panes and wider
/// where they would leave it little room (3/5 of the width, the preview keeping at least
/// 30 columns), and the preview beside it.
pub fn finder(panes: &Panes) -> (Rect, Rect) {
    let left = panes
        .dir
        .map_or(panes.outline, |dir| dir.union(panes.outline));
    let total = left.width + panes.preview.width;
    let width = (total * 3 / 5)
        .min(total.saturating_sub(30))
        .max(left.width);
    let list = Rect { width, ..left };
    let preview = Rect {
        x: left.x + width,
        width: total - width,
        ..panes.preview
    };
    (list, preview)
}

/// Rows of content inside a bordered pane.
pub fn inner_height(rect: Rect) -> usize {
    rect.height.saturating_sub(2) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_terminals_hide_the_directory_pane() {
        let wide = panes(Rect::new(0, 0, 120, 40));
        assert!(wide.dir.is_some());
        assert_eq!(wide.status.y, 39);
        let narrow = panes(Rect::new(0, 0, 79, 24));
        assert!(narrow.dir.is_none());
        assert_eq!(narrow.outline.width + narrow.preview.width, 79);
        assert!(too_small(Rect::new(0, 0, 20, 5)));
        assert!(!too_small(Rect::new(0, 0, 80, 24)));
        for width in [80, 120, 200] {
            let panes = panes(Rect::new(0, 0, width, 30));
            let (list, preview) = finder(&panes);
            assert_eq!(list.width + preview.width, width);
            assert!(
                list.width >= width * 3 / 5 && preview.width >= 30,
                "{width}"
            );
            assert_eq!((list.y, list.height), (preview.y, preview.height));
        }
    }
}
