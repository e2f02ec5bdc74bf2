//! The directory pane: folders and files from the walk; files without a parser dimmed, files
//! that differ from HEAD marked.

use super::{draw_tree, pane_block, title, tree_prefix, Palette};
use crate::sanitize::{name_for_terminal, path_for_terminal};
use crate::tui::app::{App, Focus};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::Frame;

/// Draws the directory pane in `rect`.
pub fn draw(frame: &mut Frame, app: &App, rect: Rect, palette: &Palette) {
    let focused = app.focus == Focus::Dir;
    let root = app.root_name();
    let block = pane_block(
        title(&root, app, Focus::Dir, app.dir.filter_query()),
        focused,
        palette,
    );
    let open = app.doc.as_ref().map(|d| d.path.as_path());
    draw_tree(
        frame,
        &app.dir,
        rect,
        block,
        focused,
        palette,
        |index, node| {
            let item = &node.item;
            let mut style = if item.outlinable {
                Default::default()
            } else {
                palette.dim()
            };
            if item.is_dir {
                style = palette.accent();
            }
            if app.dir.is_match(index) {
                style = palette.matched();
            }
            if item.error.is_some() {
                style = palette.deleted();
            }
            let name = name_for_terminal(&item.name);
            let name = if item.is_dir {
                format!("{name}/")
            } else {
                name.into_owned()
            };
            let shows = app.dir.shows_children(index);
            let mut spans = vec![tree_prefix(node, shows), Span::styled(name, style)];
            if let Some(target) = &item.link {
                spans.push(Span::styled(
                    format!(" → {}", path_for_terminal(target)),
                    palette.dim(),
                ));
            }
            if item.changed && app.options.diff {
                spans.push(Span::styled(" ●", palette.changed()));
            }
            if open == Some(item.path.as_path()) {
                spans.push(Span::styled(" ◂", palette.accent()));
            }
            Line::from(spans)
        },
    );
}
