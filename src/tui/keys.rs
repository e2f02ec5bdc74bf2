//! The keymap as a data table: key -> action, with the text the help overlay and the status
//! bar's hints show. Mouse events become actions here too.

use super::action::Action;
use super::app::Focus;
use super::line::LINE_KEYS;
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
    /// The first key of a two-key command (`g` of `gr`), or `None` for a single key.
    pub after: Option<char>,
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

pub(super) const fn key(
    code: KeyCode,
    action: Action,
    keys: &'static str,
    help: &'static str,
    scope: Scope,
) -> Binding {
    Binding {
        after: None,
        code,
        mods: KeyModifiers::NONE,
        action,
        keys,
        help,
        scope,
        hint: "",
    }
}

/// A two-key command: `first`, then `second`.
const fn chord(
    first: char,
    second: char,
    action: Action,
    keys: &'static str,
    help: &'static str,
) -> Binding {
    Binding {
        after: Some(first),
        ..key(Char(second), action, keys, help, Scope::All)
    }
}

/// The first key of two-key commands: it waits for the second (see [`chord`]).
const fn prefix(c: char, keys: &'static str, help: &'static str, scope: Scope) -> Binding {
    key(KeyCode::Char(c), Action::Prefix(c), keys, help, scope)
}

pub(super) const fn ctrl(
    c: char,
    action: Action,
    keys: &'static str,
    help: &'static str,
) -> Binding {
    Binding {
        after: None,
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
    prefix('g', "gg/G Home/End", "first / last", All),
    chord('g', 'g', Action::Top, "gg/G Home/End", ""),
    key(Char('G'), Action::Bottom, "gg/G Home/End", "", All),
    key(Home, Action::Top, "gg/G Home/End", "", All),
    key(End, Action::Bottom, "gg/G Home/End", "", All),
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
    key(KeyCode::Left, Action::ArrowLeft, "h/l ←/→", "", All),
    key(KeyCode::Right, Action::ArrowRight, "h/l ←/→", "", All),
    prefix(
        'z',
        "zh/zl ←/→",
        "preview: scroll long lines left / right",
        Preview,
    ),
    chord('z', 'h', Action::ScrollLeft, "zh/zl ←/→", ""),
    chord('z', 'l', Action::ScrollRight, "zh/zl ←/→", ""),
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
    hint(
        key(
            Char('S'),
            Action::Symbols,
            "S ^t",
            "find a symbol in the whole tree",
            All,
        ),
        "symbols",
    ),
    ctrl('t', Action::Symbols, "S ^t", ""),
    hint(
        key(
            Char('F'),
            Action::Search,
            "F g/",
            "search text in the whole tree",
            All,
        ),
        "search",
    ),
    chord('g', '/', Action::Search, "F g/", ""),
    chord(
        'g',
        'r',
        Action::References,
        "gr",
        "references of the selected entry",
    ),
    ctrl('o', Action::JumpBack, "^o ^n", "jump back / forward"),
    ctrl('n', Action::JumpForward, "^o ^n", ""),
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

/// What keys mean in the viewer's current state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyMode {
    Normal,
    /// Typing a pane's filter.
    Filter,
    /// The first key of a two-key command was pressed.
    Prefix(char),
    /// A finder view is open: typing edits its query.
    Input,
}

/// The action bound to a key press in `mode` (repeats count; releases are dropped).
pub fn action_for(event: KeyEvent, mode: KeyMode) -> Option<Action> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    let mut mods = event.modifiers;
    if matches!(event.code, Char(_) | KeyCode::BackTab) {
        mods.remove(KeyModifiers::SHIFT);
    }
    let bound = |after: Option<char>| {
        KEYMAP
            .iter()
            .find(|b| b.after == after && b.code == event.code && b.mods == mods)
            .map(|b| b.action)
    };
    match mode {
        KeyMode::Input => input_key(event.code, mods),
        KeyMode::Prefix(first) => Some(bound(Some(first)).unwrap_or(Action::Nothing)),
        KeyMode::Filter => filter_key(event.code, mods).or_else(|| bound(None)),
        KeyMode::Normal => bound(None),
    }
}

/// Keys while typing a filter: text edits it, Enter keeps it, arrows still move.
fn filter_key(code: KeyCode, mods: KeyModifiers) -> Option<Action> {
    if let Some(action) = super::line::line_key(code, mods) {
        return Some(action);
    }
    match code {
        Char(c) if !mods.contains(KeyModifiers::CONTROL) => Some(Action::FilterInput(c)),
        KeyCode::Backspace => Some(Action::FilterBackspace),
        Enter => Some(Action::FilterAccept),
        _ => None,
    }
}

/// The keys of a finder view (the symbol picker, a search): shown in the help after the
/// keymap. Typed characters edit the query.
pub const FINDER_KEYS: &[Binding] = &[
    key(
        Up,
        Action::Up,
        "↑/↓ Tab/S-Tab",
        "finder: previous / next",
        All,
    ),
    key(Down, Action::Down, "↑/↓ Tab/S-Tab", "", All),
    key(KeyCode::BackTab, Action::Up, "↑/↓ Tab/S-Tab", "", All),
    key(KeyCode::Tab, Action::Down, "↑/↓ Tab/S-Tab", "", All),
    key(
        PageUp,
        Action::PageUp,
        "PgUp/PgDn",
        "finder: page up / down",
        All,
    ),
    key(PageDown, Action::PageDown, "PgUp/PgDn", "", All),
    hint(
        key(
            Enter,
            Action::FilterAccept,
            "Enter",
            "finder: jump there (a changed search runs first)",
            All,
        ),
        "jump",
    ),
    hint(
        key(Esc, Action::Escape, "Esc", "finder: close", All),
        "close",
    ),
    key(
        KeyCode::Backspace,
        Action::FilterBackspace,
        "Backspace",
        "finder: edit the query",
        All,
    ),
    ctrl('c', Action::Quit, "^c", "quit"),
];

fn input_key(code: KeyCode, mods: KeyModifiers) -> Option<Action> {
    if let Char(c) = code {
        if !mods.contains(KeyModifiers::CONTROL) && !mods.contains(KeyModifiers::ALT) {
            return Some(Action::FilterInput(c));
        }
    }
    super::line::line_key(code, mods).or_else(|| {
        FINDER_KEYS
            .iter()
            .find(|b| b.code == code && b.mods == mods)
            .map(|b| b.action)
    })
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

/// The help rows: one per distinct label and text, the keymap's then the finder's.
pub fn help_rows() -> Vec<(&'static str, &'static str)> {
    let mut rows: Vec<(&'static str, &'static str)> = Vec::new();
    for binding in KEYMAP.iter().chain(FINDER_KEYS).chain(LINE_KEYS) {
        let row = (binding.keys, binding.help);
        if !binding.help.is_empty() && !rows.contains(&row) {
            rows.push(row);
        }
    }
    rows
}

/// The status bar hints while a finder view is open.
pub fn finder_hints() -> Vec<(&'static str, &'static str)> {
    FINDER_KEYS
        .iter()
        .filter(|b| !b.hint.is_empty())
        .map(|b| (b.keys, b.hint))
        .collect()
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
        for table in [KEYMAP, FINDER_KEYS, LINE_KEYS] {
            for (i, a) in table.iter().enumerate() {
                for b in &table[i + 1..] {
                    assert!(
                        !(a.after == b.after && a.code == b.code && a.mods == b.mods),
                        "{:?} then {:?} bound twice",
                        a.after,
                        a.code
                    );
                }
            }
        }
        for binding in KEYMAP.iter().chain(FINDER_KEYS).chain(LINE_KEYS) {
            let shown = help_rows()
                .iter()
                .any(|(keys, help)| *keys == binding.keys && !help.is_empty());
            assert!(shown, "{} has no help text", binding.keys);
        }
        // Every two-key command starts with a key bound to wait for it.
        for binding in KEYMAP.iter().filter(|b| b.after.is_some()) {
            let first = binding.after.map(Char);
            assert!(KEYMAP.iter().any(|b| Some(b.code) == first
                && b.after.is_none()
                && matches!(b.action, Action::Prefix(_))));
        }
    }

    #[test]
    fn jump_keys_clash_with_nothing() {
        // Ctrl-I is Tab in terminals, so the forward key must be another one, bound once in
        // every mode.
        let forward: Vec<&Binding> = KEYMAP
            .iter()
            .chain(FINDER_KEYS)
            .filter(|b| b.code == Char('n') && b.mods == KeyModifiers::CONTROL)
            .collect();
        assert_eq!(forward.len(), 1);
        assert_eq!(forward[0].action, Action::JumpForward);
        let tab = action_for(
            KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE),
            KeyMode::Normal,
        );
        assert_eq!(tab, Some(Action::NextPane));
    }

    #[test]
    fn two_key_commands_and_finder_typing() {
        let press = |code, mode| action_for(KeyEvent::new(code, KeyModifiers::NONE), mode);
        assert_eq!(press(Char('g'), KeyMode::Normal), Some(Action::Prefix('g')));
        assert_eq!(
            press(Char('r'), KeyMode::Prefix('g')),
            Some(Action::References)
        );
        assert_eq!(press(Char('/'), KeyMode::Prefix('g')), Some(Action::Search));
        assert_eq!(press(Char('g'), KeyMode::Prefix('g')), Some(Action::Top));
        assert_eq!(
            press(Char('x'), KeyMode::Prefix('g')),
            Some(Action::Nothing)
        );
        assert_eq!(
            press(Char('l'), KeyMode::Prefix('z')),
            Some(Action::ScrollRight)
        );
        assert_eq!(
            press(Char('q'), KeyMode::Input),
            Some(Action::FilterInput('q'))
        );
        assert_eq!(
            press(Char('S'), KeyMode::Input),
            Some(Action::FilterInput('S'))
        );
        assert_eq!(press(KeyCode::Tab, KeyMode::Input), Some(Action::Down));
        assert_eq!(press(Enter, KeyMode::Input), Some(Action::FilterAccept));
        assert_eq!(press(Char('S'), KeyMode::Normal), Some(Action::Symbols));
    }

    #[test]
    fn keys_become_actions() {
        let press = |code, mods| action_for(KeyEvent::new(code, mods), KeyMode::Normal);
        assert_eq!(press(Char('j'), KeyModifiers::NONE), Some(Action::Down));
        assert_eq!(press(Char('G'), KeyModifiers::SHIFT), Some(Action::Bottom));
        assert_eq!(press(Char('c'), KeyModifiers::CONTROL), Some(Action::Quit));
        assert_eq!(press(Char('x'), KeyModifiers::NONE), None);
        let typed = action_for(
            KeyEvent::new(Char('q'), KeyModifiers::NONE),
            KeyMode::Filter,
        );
        assert_eq!(typed, Some(Action::FilterInput('q')));
        let mut release = KeyEvent::new(Char('j'), KeyModifiers::NONE);
        release.kind = KeyEventKind::Release;
        assert_eq!(action_for(release, KeyMode::Normal), None);
        assert!(hints(Focus::Preview).iter().any(|(k, _)| *k == "e"));
        assert!(!hints(Focus::Dir).iter().any(|(k, _)| *k == "e"));
    }
}
