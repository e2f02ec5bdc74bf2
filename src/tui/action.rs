//! What can happen to the TUI, and [`update`]: the one function that applies it to the state.

use super::app::{App, Effect, Focus};
use super::finder;
use super::layout;
use super::line::LineKind;
use super::picker::Overlay;
use ratatui::layout::Position;

/// Everything keys, the mouse, the terminal and the clock can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Up,
    Down,
    Top,
    Bottom,
    HalfPageDown,
    HalfPageUp,
    PageDown,
    PageUp,
    Left,
    Right,
    NextPane,
    PrevPane,
    Enter,
    Toggle,
    ExpandDepth(u8),
    CollapseAll,
    ExpandAll,
    PrevSymbol,
    NextSymbol,
    StartFilter,
    FilterInput(char),
    FilterBackspace,
    /// Cursor moves, deletions and history on the query line being typed.
    EditLine(super::line::LineEdit),
    FilterAccept,
    NextMatch,
    PrevMatch,
    Escape,
    Edit,
    Copy,
    ToggleTokens,
    ToggleDiff,
    ToggleHidden,
    Reload,
    Help,
    Quit,
    Suspend,
    /// A click at column, row.
    Click(u16, u16),
    /// The wheel at column, row: lines to scroll (negative: up).
    Wheel(u16, u16, i8),
    /// The terminal's new width and height.
    Resize(u16, u16),
    /// The open file changed on disk.
    FileChanged,
    /// The symbol picker (`S`, Ctrl-T).
    Symbols,
    /// Text search across the tree (`F`, `g/`).
    Search,
    /// Uses of the selected entry's name (`gr`).
    References,
    /// Back and forward in the jump list (Ctrl-O, Ctrl-N).
    JumpBack,
    JumpForward,
    /// The first key of a two-key command; the next key completes it.
    Prefix(char),
    /// A key that means nothing here (it ends a pending two-key command).
    Nothing,
    /// The preview scrolls sideways (`zh`/`zl`).
    ScrollLeft,
    ScrollRight,
    /// The arrow keys: sideways scrolling when the preview has focus, else `h`/`l`.
    ArrowLeft,
    ArrowRight,
}

/// Applies `action` to `app`, then brings scrolling and highlighting up to date.
pub fn update(app: &mut App, action: Action) {
    app.message = None;
    app.pending = match action {
        Action::Prefix(first) => Some(first),
        _ => None,
    };
    if app.help && !matches!(action, Action::Resize(..) | Action::Quit) {
        help_key(app, action);
        app.sync();
        return;
    }
    if app.overlay != Overlay::None {
        finder::update(app, action);
        app.sync();
        return;
    }
    match action {
        Action::Up => move_by(app, -1),
        Action::Down => move_by(app, 1),
        Action::Top => move_by(app, isize::MIN / 2),
        Action::Bottom => move_by(app, isize::MAX / 2),
        Action::HalfPageDown => move_by(app, page(app) / 2),
        Action::HalfPageUp => move_by(app, -page(app) / 2),
        Action::PageDown => move_by(app, page(app)),
        Action::PageUp => move_by(app, -page(app)),
        Action::Left => left(app),
        Action::Right => right(app),
        Action::NextPane => cycle(app, true),
        Action::PrevPane => cycle(app, false),
        Action::Enter => enter(app),
        Action::Toggle => toggle(app),
        Action::ExpandDepth(_) | Action::CollapseAll | Action::ExpandAll => fold(app, action),
        Action::PrevSymbol => symbol_step(app, false),
        Action::NextSymbol => symbol_step(app, true),
        Action::StartFilter
        | Action::FilterInput(_)
        | Action::FilterBackspace
        | Action::EditLine(_)
        | Action::FilterAccept
        | Action::NextMatch
        | Action::PrevMatch => filter(app, action),
        Action::Escape => escape(app),
        Action::Edit | Action::Copy | Action::Suspend => effect(app, action),
        Action::ToggleTokens | Action::ToggleDiff | Action::ToggleHidden => {
            toggle_option(app, action)
        }
        Action::Reload => {
            app.reload_dir();
            app.reload_doc();
            app.restart_symbols();
            app.message = Some("reloaded".into());
        }
        Action::Help => app.help = true,
        Action::Quit => app.quit = true,
        Action::Click(x, y) => click(app, x, y),
        Action::Wheel(x, y, lines) => wheel(app, x, y, lines),
        Action::Resize(w, h) => resize(app, w, h),
        Action::FileChanged => app.reload_doc(),
        Action::Symbols => finder::open_symbols(app),
        Action::Search => finder::open_search(app),
        Action::References => finder::references(app),
        Action::JumpBack => app.jump(true),
        Action::JumpForward => app.jump(false),
        Action::Prefix(_) | Action::Nothing => {}
        Action::ScrollLeft | Action::ScrollRight => {
            scroll_sideways(app, action == Action::ScrollRight)
        }
        Action::ArrowLeft if app.focus == Focus::Preview && app.preview.left > 0 => {
            scroll_sideways(app, false)
        }
        Action::ArrowRight if app.focus == Focus::Preview => scroll_sideways(app, true),
        Action::ArrowLeft => left(app),
        Action::ArrowRight => right(app),
    }
    app.sync();
}

/// Columns the preview moves per sideways scroll.
const SIDEWAYS: usize = 8;

fn scroll_sideways(app: &mut App, right: bool) {
    app.preview.left = match right {
        // The longest line on screen keeps at least half a pane in sight.
        true => {
            let most = app.widest_line().saturating_sub(app.preview_width() / 2);
            (app.preview.left + SIDEWAYS).min(most.max(app.preview.left))
        }
        false => app.preview.left.saturating_sub(SIDEWAYS),
    };
}

/// Keys while the help is open: moving keys scroll it, any other key closes it.
fn help_key(app: &mut App, action: Action) {
    let delta: isize = match action {
        Action::Down => 1,
        Action::Up => -1,
        Action::PageDown | Action::HalfPageDown => 10,
        Action::PageUp | Action::HalfPageUp => -10,
        Action::Wheel(_, _, lines) => lines as isize,
        _ => {
            app.help = false;
            app.help_top = 0;
            return;
        }
    };
    let rows = super::keys::help_rows().len();
    let room = (app.area.height as usize).saturating_sub(3).max(1);
    app.help_top = ((app.help_top as isize + delta).max(0) as usize).min(rows.saturating_sub(room));
}

fn page(app: &App) -> isize {
    let panes = app.panes();
    let rect = match app.focus {
        Focus::Dir => panes.dir.unwrap_or(panes.outline),
        Focus::Outline => panes.outline,
        Focus::Preview => panes.preview,
    };
    layout::inner_height(rect).max(2) as isize
}

fn move_by(app: &mut App, delta: isize) {
    match app.focus {
        Focus::Dir => {
            app.dir.move_by(delta);
            preview_dir_selection(app);
        }
        Focus::Outline => {
            if app.outline_from.is_none() {
                app.outline_from = app.here();
            }
            app.outline.move_by(delta);
            app.jump_to_selected();
        }
        Focus::Preview => {
            let cursor = app.preview.cursor as isize + delta;
            app.preview.cursor = cursor.max(0) as usize;
            app.clamp_preview();
            app.follow_cursor();
        }
    }
}

/// Shows the file under the directory selection (a large one shows its first screen while it
/// loads). A link is followed only on Enter, so the preview says so instead.
pub(crate) fn preview_dir_selection(app: &mut App) {
    let Some(item) = app.dir.selected().map(|n| n.item.clone()) else {
        return;
    };
    if app.doc.as_ref().is_some_and(|d| d.path == item.path) {
        return;
    }
    if let Some(why) = &item.error {
        app.message = Some(why.clone());
    } else if item.is_dir || item.link.is_some() {
        // Never the previous file: the panes say what the selection is.
        app.show_standin(&item);
    } else {
        app.open(&item.path);
    }
}

fn focus_order(app: &App) -> Vec<Focus> {
    if app.dir_visible() {
        vec![Focus::Dir, Focus::Outline, Focus::Preview]
    } else {
        vec![Focus::Outline, Focus::Preview]
    }
}

fn cycle(app: &mut App, forward: bool) {
    let order = focus_order(app);
    let at = order.iter().position(|f| *f == app.focus).unwrap_or(0);
    let next = if forward {
        (at + 1) % order.len()
    } else {
        (at + order.len() - 1) % order.len()
    };
    app.focus = order[next];
    app.filtering = false;
    app.outline_from = None;
}

fn left(app: &mut App) {
    let collapsed = match app.focus {
        Focus::Dir => app.dir.set_expanded(false) || to_parent(&mut app.dir),
        Focus::Outline => {
            let moved = app.outline.set_expanded(false) || to_parent(&mut app.outline);
            if moved {
                app.jump_to_selected();
            }
            moved
        }
        Focus::Preview => false,
    };
    if !collapsed && app.focus != order_first(app) {
        cycle(app, false);
    }
}

fn order_first(app: &App) -> Focus {
    focus_order(app)[0]
}

fn to_parent<T: super::tree::Item>(tree: &mut super::tree::Tree<T>) -> bool {
    match tree.parent(tree.selected_index()) {
        Some(parent) => {
            tree.select(parent);
            true
        }
        None => false,
    }
}

fn right(app: &mut App) {
    match app.focus {
        Focus::Dir => {
            let index = app.dir.selected_index();
            let was_dir = app.open_dir(index, false);
            if !was_dir {
                enter(app);
            }
        }
        Focus::Outline if !app.outline.set_expanded(true) => app.focus = Focus::Preview,
        _ => {}
    }
}

fn enter(app: &mut App) {
    app.filtering = false;
    match app.focus {
        Focus::Dir => {
            let index = app.dir.selected_index();
            let Some(node) = app.dir.selected() else {
                return;
            };
            let item = node.item.clone();
            if item.is_dir && item.listed && node.expanded {
                app.dir.toggle();
            } else if item.is_dir {
                app.open_dir(index, true);
            } else if let Some(why) = &item.error {
                app.message = Some(why.clone());
            } else if item.link.is_some() {
                match app.follow(&item) {
                    Ok(_) => {
                        app.open(&item.path);
                        app.focus = Focus::Outline;
                    }
                    Err(why) => app.message = Some(why),
                }
            } else {
                app.open(&item.path);
                app.focus = Focus::Outline;
            }
        }
        Focus::Outline => {
            if let Some(from) = app.outline_from.take().or_else(|| app.here()) {
                app.jumps.push(from);
            }
            app.jump_to_selected();
            app.focus = Focus::Preview;
        }
        Focus::Preview => {}
    }
}

fn toggle(app: &mut App) {
    let index = app.dir.selected_index();
    let unlisted = app
        .dir
        .selected()
        .is_some_and(|n| n.item.is_dir && !n.item.listed);
    match app.focus {
        Focus::Dir if unlisted => {
            app.open_dir(index, false);
        }
        Focus::Dir => app.dir.toggle(),
        Focus::Outline => app.outline.toggle(),
        Focus::Preview => {}
    }
}

fn fold(app: &mut App, action: Action) {
    let depth = match action {
        Action::ExpandDepth(n) => n as usize,
        Action::CollapseAll => 1,
        _ => usize::MAX,
    };
    match app.focus {
        Focus::Dir => app.dir.expand_to_depth(depth),
        _ => app.outline.expand_to_depth(depth),
    }
}

/// `{`/`}`: the previous or next entry in source order, from the preview's cursor.
fn symbol_step(app: &mut App, forward: bool) {
    let cursor = app.preview.cursor + 1;
    let lines = app.outline.nodes().iter().map(|n| n.item.line);
    let target = if forward {
        lines.filter(|&l| l > cursor).min()
    } else {
        lines.filter(|&l| l < cursor).max()
    };
    if let Some(line) = target {
        app.jump_to_line(line - 1);
        app.follow_cursor();
    }
}

fn filter(app: &mut App, action: Action) {
    if app.focus == Focus::Preview {
        app.focus = Focus::Outline;
    }
    let tree_query = |app: &App| match app.focus {
        Focus::Dir => app.dir.filter_query().unwrap_or("").to_string(),
        _ => app.outline.filter_query().unwrap_or("").to_string(),
    };
    let mut query = tree_query(app);
    match action {
        Action::StartFilter => {
            app.filtering = true;
            app.line.reset();
            query.clear();
            if app.focus == Focus::Dir {
                // The walk below unlisted directories starts while the query is typed.
                app.reach_for("");
            }
        }
        Action::FilterInput(c) => app.line.insert(&mut query, c),
        Action::FilterBackspace => app.line.backspace(&mut query),
        Action::EditLine(edit) => {
            if !app.line.edit(&mut query, LineKind::Filter, edit) {
                return;
            }
        }
        Action::FilterAccept => {
            app.filtering = false;
            app.line.remember(LineKind::Filter, &tree_query(app));
            if app.focus == Focus::Dir {
                preview_dir_selection(app);
            }
            return;
        }
        Action::NextMatch | Action::PrevMatch => {
            let forward = action == Action::NextMatch;
            match app.focus {
                Focus::Dir => {
                    app.dir.next_match(forward);
                    preview_dir_selection(app);
                }
                _ => {
                    app.outline.next_match(forward);
                    app.jump_to_selected();
                }
            }
            return;
        }
        _ => return,
    }
    match app.focus {
        Focus::Dir => {
            app.dir.set_filter(&query);
            app.reach_for(&query);
            preview_dir_selection(app);
        }
        _ => {
            app.outline.set_filter(&query);
            app.jump_to_selected();
        }
    }
}

/// Esc ends a filter with its match still selected and its parents opened (see
/// `Tree::set_filter`), so the preview stays true to the selection.
fn escape(app: &mut App) {
    app.filtering = false;
    let dir_filtered = app.dir.filter_query().is_some();
    let outline_filtered = app.outline.filter_query().is_some();
    app.dir.set_filter("");
    app.outline.set_filter("");
    if let Some(reach) = &app.reach {
        reach.query("");
    }
    if dir_filtered && app.focus == Focus::Dir {
        preview_dir_selection(app);
    }
    if outline_filtered && app.focus != Focus::Dir {
        app.jump_to_selected();
    }
}

fn effect(app: &mut App, action: Action) {
    app.effect = match action {
        Action::Suspend => Some(Effect::Suspend),
        Action::Edit => app.location().map(|(path, line)| Effect::Edit(path, line)),
        _ => app.location().map(|(path, line)| {
            Effect::Copy(format!("{}:{line}", app.path_from_cwd(&path).display()))
        }),
    };
}

fn toggle_option(app: &mut App, action: Action) {
    match action {
        Action::ToggleTokens => {
            app.options.tokens = !app.options.tokens;
            app.reload_doc();
        }
        Action::ToggleDiff => app.options.diff = !app.options.diff,
        _ => {
            app.options.hidden = !app.options.hidden;
            app.reload_dir();
            app.restart_symbols();
        }
    }
}

fn click(app: &mut App, x: u16, y: u16) {
    let panes = app.panes();
    let row = |rect: ratatui::layout::Rect| y.saturating_sub(rect.y + 1) as usize;
    let at = Position::new(x, y);
    if let Some(dir) = panes.dir.filter(|r| r.contains(at)) {
        let before = (app.focus, app.dir.selected_row());
        app.focus = Focus::Dir;
        app.dir.select_row(app.dir.offset + row(dir));
        if before == (Focus::Dir, app.dir.selected_row()) {
            // A second click on the selected row opens it, like Enter.
            enter(app);
        } else {
            preview_dir_selection(app);
        }
    } else if panes.outline.contains(at) {
        app.focus = Focus::Outline;
        app.outline
            .select_row(app.outline.offset + row(panes.outline));
        app.jump_to_selected();
    } else if panes.preview.contains(at) {
        app.focus = Focus::Preview;
        app.preview.cursor = app.preview.top + row(panes.preview);
        app.clamp_preview();
        app.follow_cursor();
    }
}

fn wheel(app: &mut App, x: u16, y: u16, lines: i8) {
    let panes = app.panes();
    let delta = lines as isize;
    let at = Position::new(x, y);
    if panes.dir.is_some_and(|r| r.contains(at)) {
        app.dir.move_by(delta);
    } else if panes.outline.contains(at) {
        app.outline.move_by(delta);
    } else if panes.preview.contains(at) {
        let height = app.preview_height();
        let lines = app.doc.as_ref().map_or(0, |d| d.line_count());
        let top = (app.preview.top as isize + delta).max(0) as usize;
        app.preview.top = top.min(lines.saturating_sub(height));
        let bottom = app.preview.top + height - 1;
        app.preview.cursor = app.preview.cursor.clamp(app.preview.top, bottom);
        app.follow_cursor();
    }
}

fn resize(app: &mut App, w: u16, h: u16) {
    app.area = ratatui::layout::Rect::new(0, 0, w, h);
    if app.focus == Focus::Dir && !app.dir_visible() {
        app.focus = Focus::Outline;
    }
}
