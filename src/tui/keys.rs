//! The keymap as a data table: key -> action, with the text the help overlay and the status
//! bar's hints show. Mouse events become actions here too.

use super::action::Action;
use super::app::Focus;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEvent, MouseEventKind,
};

/// Which panes a binding's hint belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    All,
    Trees,
    Outline,
    Preview,
}

/// One row of the keymap.
#[derive(Debug, Clone, Copy)]
pub struct Binding {
    pub code: KeyCode,
    pub mods: KeyModifiers,
    pub action: Action,
    /// The key as the help shows it (one label may cover several rows).
    pub keys: &'static str,
    pub help: &'static str,
    pub scope: Scope,
    /// The status bar's short hint ("" for none).
    pub hint: &'static str,
}

const fn key(
    code: KeyCode,
    action: Action,
    keys: &'static str,
    help: &'static str,
    scope: Scope,
) -> Binding {
    Binding {
        code,
        mods: KeyModifiers::NONE,
        action,
        keys,
        help,
        scope,
        hint: "",
    }
}

const fn ctrl(c: char, action: Action, keys: &'static str, help: &'static str) -> Binding {
    Binding {
        code: KeyCode::Char(c),
        mods: KeyModifiers::CONTROL,
        action,
        keys,
        help,
        scope: Scope::All,
        hint: "",
    }
}

const fn hint(mut binding: Binding, short: &'static str) -> Binding {
    binding.hint = short;
    binding
}

use KeyCode::{Char, Down, End, Enter, Esc, Home, PageDown, PageUp, Up};
use Scope::{All, Outline, Preview, Trees};

/// Every key binding. Rows with the same `keys` label are shown once in the help.
pub const KEYMAP: &[Binding] = &[
    hint(
        key(Char('j'), Action::Down, "j/k ↓/↑", "move down / up", All),
        "move",
    ),
    key(Char('k'), Action::Up, "j/k ↓/↑", "", All),
    key(Down, Action::Down, "j/k ↓/↑", "", All),
    key(Up, Action::Up, "j/k ↓/↑", "", All),
    key(Char('g'), Action::Top, "g/G Home/End", "first / last", All),
    key(Char('G'), Action::Bottom, "g/G Home/End", "", All),
    key(Home, Action::Top, "g/G Home/End", "", All),
    key(End, Action::Bottom, "g/G Home/End", "", All),
    ctrl('d', Action::HalfPageDown, "^d/^u", "half page down / up"),
    ctrl('u', Action::HalfPageUp, "^d/^u", ""),
    key(
        PageDown,
        Action::PageDown,
        "PgDn/PgUp",
        "page down / up",
        All,
    ),
    key(PageUp, Action::PageUp, "PgDn/PgUp", "", All),
    hint(
        key(
            Char('h'),
            Action::Left,
            "h/l ←/→",
            "fold / unfold, or change pane",
            All,
        ),
        "fold/pane",
    ),
    key(Char('l'), Action::Right, "h/l ←/→", "", All),
    key(KeyCode::Left, Action::Left, "h/l ←/→", "", All),
    key(KeyCode::Right, Action::Right, "h/l ←/→", "", All),
    hint(
        key(
            KeyCode::Tab,
            Action::NextPane,
            "Tab/S-Tab",
            "next / previous pane",
            All,
        ),
        "pane",
    ),
    key(KeyCode::BackTab, Action::PrevPane, "Tab/S-Tab", "", All),
    hint(
        key(
            Enter,
            Action::Enter,
            "Enter",
            "open / jump to symbol",
            Trees,
        ),
        "open",
    ),
    key(Char(' '), Action::Toggle, "Space", "fold / unfold", Trees),
    key(
        Char('1'),
        Action::ExpandDepth(1),
        "1-9",
        "expand outline to depth",
        Outline,
    ),
    key(Char('2'), Action::ExpandDepth(2), "1-9", "", Outline),
    key(Char('3'), Action::ExpandDepth(3), "1-9", "", Outline),
    key(Char('4'), Action::ExpandDepth(4), "1-9", "", Outline),
    key(Char('5'), Action::ExpandDepth(5), "1-9", "", Outline),
    key(Char('6'), Action::ExpandDepth(6), "1-9", "", Outline),
    key(Char('7'), Action::ExpandDepth(7), "1-9", "", Outline),
    key(Char('8'), Action::ExpandDepth(8), "1-9", "", Outline),
    key(Char('9'), Action::ExpandDepth(9), "1-9", "", Outline),
    key(
        Char('0'),
        Action::CollapseAll,
        "0 / *",
        "collapse / expand all",
        Outline,
    ),
    key(Char('*'), Action::ExpandAll, "0 / *", "", Outline),
    hint(
        key(
            Char('}'),
            Action::NextSymbol,
            "{ / }",
            "previous / next symbol",
            Preview,
        ),
        "symbol",
    ),
    key(Char('{'), Action::PrevSymbol, "{ / }", "", Preview),
    hint(
        key(Char('/'), Action::StartFilter, "/", "filter (fuzzy)", Trees),
        "filter",
    ),
    key(
        Char('n'),
        Action::NextMatch,
        "n/N",
        "next / previous match",
        Trees,
    ),
    key(Char('N'), Action::PrevMatch, "n/N", "", Trees),
    key(Esc, Action::Escape, "Esc", "clear filter, close help", All),
    hint(
        key(Char('e'), Action::Edit, "e", "open in $EDITOR", Preview),
        "edit",
    ),
    key(Char('y'), Action::Copy, "y", "copy path:line", All),
    key(
        Char('t'),
        Action::ToggleTokens,
        "t",
        "token counts on/off",
        All,
    ),
    key(
        Char('d'),
        Action::ToggleDiff,
        "d",
        "diff markers on/off",
        All,
    ),
    key(
        Char('.'),
        Action::ToggleHidden,
        ".",
        "hidden files on/off",
        All,
    ),
    key(Char('r'), Action::Reload, "r", "reload", All),
    hint(key(Char('?'), Action::Help, "?", "help", All), "help"),
    hint(key(Char('q'), Action::Quit, "q", "quit", All), "quit"),
    ctrl('c', Action::Quit, "^c", "quit"),
    ctrl('z', Action::Suspend, "^z", "suspend"),
];

/// The action bound to a key press (repeats count; releases are dropped).
pub fn action_for(event: KeyEvent, filtering: bool) -> Option<Action> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    let mut mods = event.modifiers;
    if matches!(event.code, Char(_) | KeyCode::BackTab) {
        mods.remove(KeyModifiers::SHIFT);
    }
    if filtering {
        if let Some(action) = filter_key(event.code, mods) {
            return Some(action);
        }
    }
    KEYMAP
        .iter()
        .find(|b| b.code == event.code && b.mods == mods)
        .map(|b| b.action)
}

/// Keys while typing a filter: text edits it, Enter keeps it, arrows still move.
fn filter_key(code: KeyCode, mods: KeyModifiers) -> Option<Action> {
    match code {
        Char(c) if !mods.contains(KeyModifiers::CONTROL) => Some(Action::FilterInput(c)),
        KeyCode::Backspace => Some(Action::FilterBackspace),
        Enter => Some(Action::FilterAccept),
        _ => None,
    }
}

/// The action for a mouse event: clicks select, the wheel scrolls.
pub fn mouse_action(event: MouseEvent) -> Option<Action> {
    let (x, y) = (event.column, event.row);
    match event.kind {
        MouseEventKind::Down(_) => Some(Action::Click(x, y)),
        MouseEventKind::ScrollDown => Some(Action::Wheel(x, y, 3)),
        MouseEventKind::ScrollUp => Some(Action::Wheel(x, y, -3)),
        _ => None,
    }
}

/// The help rows: one per distinct label, in table order.
pub fn help_rows() -> Vec<(&'static str, &'static str)> {
    let mut rows: Vec<(&'static str, &'static str)> = Vec::new();
    for binding in KEYMAP {
        if !rows.iter().any(|(keys, _)| *keys == binding.keys) {
            rows.push((binding.keys, binding.help));
        }
    }
    rows
}

/// The status bar hints for the focused pane.
pub fn hints(focus: Focus) -> Vec<(&'static str, &'static str)> {
    let wanted = |scope: Scope| match scope {
        All => true,
        Trees => focus != Focus::Preview,
        Outline => focus == Focus::Outline,
        Preview => focus != Focus::Dir,
    };
    KEYMAP
        .iter()
        .filter(|b| !b.hint.is_empty() && wanted(b.scope))
        .map(|b| (b.keys.split(' ').next().unwrap_or(b.keys), b.hint))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keymap_has_no_duplicate_keys_and_every_label_has_help() {
        for (i, a) in KEYMAP.iter().enumerate() {
            for b in &KEYMAP[i + 1..] {
                assert!(
                    !(a.code == b.code && a.mods == b.mods),
                    "{:?} bound twice",
                    a.code
                );
            }
        }
        for (keys, help) in help_rows() {
            assert!(!help.is_empty(), "{keys} has no help text");
        }
    }

    #[test]
    fn keys_become_actions() {
        let press = |code, mods| action_for(KeyEvent::new(code, mods), false);
        assert_eq!(press(Char('j'), KeyModifiers::NONE), Some(Action::Down));
        assert_eq!(press(Char('G'), KeyModifiers::SHIFT), Some(Action::Bottom));
        assert_eq!(press(Char('c'), KeyModifiers::CONTROL), Some(Action::Quit));
        assert_eq!(press(Char('x'), KeyModifiers::NONE), None);
        let typed = action_for(KeyEvent::new(Char('q'), KeyModifiers::NONE), true);
        assert_eq!(typed, Some(Action::FilterInput('q')));
        let mut release = KeyEvent::new(Char('j'), KeyModifiers::NONE);
        release.kind = KeyEventKind::Release;
        assert_eq!(action_for(release, false), None);
        assert!(hints(Focus::Preview).iter().any(|(k, _)| *k == "e"));
        assert!(!hints(Focus::Dir).iter().any(|(k, _)| *k == "e"));
    }
}
