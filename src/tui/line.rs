//! The query lines (the picker's, a search's, a pane filter's) edit like a shell line: the
//! cursor moves by character and word, Home/End and Ctrl-A/E, Ctrl-U/W/K and Alt-Backspace
//! delete, and each kind of line has its own history (Ctrl-P/N, or ↑/↓ in a finder whose list
//! is empty: elsewhere ↑/↓ move the list, as in fzf and helix). The editing itself is
//! `tui-input`'s; only one line is typed at a time, so one cursor serves all of them.

use super::action::Action;
use super::keys::{ctrl, key, Binding, Scope};
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use tui_input::{Input, InputRequest};

/// An edit of the query line other than typing a character or Backspace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEdit {
    Left,
    Right,
    WordLeft,
    WordRight,
    Home,
    End,
    /// The character under the cursor.
    Delete,
    /// The word before the cursor (Ctrl-W, Alt-Backspace).
    DeleteWordBack,
    /// Everything before the cursor (Ctrl-U).
    DeleteToStart,
    /// Everything from the cursor on (Ctrl-K).
    DeleteToEnd,
    /// The history's older and newer lines.
    Older,
    Newer,
}

/// Which history a line's queries go to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    Symbols,
    Search,
    References,
    Filter,
}

/// Lines remembered per kind; the oldest go first.
const HISTORY_LEN: usize = 100;

const fn alt(code: KeyCode, edit: LineEdit, keys: &'static str, help: &'static str) -> Binding {
    Binding {
        mods: KeyModifiers::ALT,
        ..key(code, Action::EditLine(edit), keys, help, Scope::All)
    }
}

const fn plain(code: KeyCode, edit: LineEdit, keys: &'static str, help: &'static str) -> Binding {
    key(code, Action::EditLine(edit), keys, help, Scope::All)
}

const fn control(c: char, edit: LineEdit, keys: &'static str, help: &'static str) -> Binding {
    ctrl(c, Action::EditLine(edit), keys, help)
}

/// The keys of a query line (a finder's or a pane filter's), before the view's own keys.
pub const LINE_KEYS: &[Binding] = &[
    plain(
        KeyCode::Left,
        LineEdit::Left,
        "←/→ Alt-b/f",
        "query: cursor by character / word",
    ),
    plain(KeyCode::Right, LineEdit::Right, "←/→ Alt-b/f", ""),
    alt(KeyCode::Char('b'), LineEdit::WordLeft, "←/→ Alt-b/f", ""),
    alt(KeyCode::Char('f'), LineEdit::WordRight, "←/→ Alt-b/f", ""),
    plain(
        KeyCode::Home,
        LineEdit::Home,
        "Home/End ^a/e",
        "query: start / end of the line",
    ),
    plain(KeyCode::End, LineEdit::End, "Home/End ^a/e", ""),
    control('a', LineEdit::Home, "Home/End ^a/e", ""),
    control('e', LineEdit::End, "Home/End ^a/e", ""),
    control(
        'w',
        LineEdit::DeleteWordBack,
        "^w Alt-⌫",
        "query: delete the word before",
    ),
    alt(KeyCode::Backspace, LineEdit::DeleteWordBack, "^w Alt-⌫", ""),
    control(
        'u',
        LineEdit::DeleteToStart,
        "^u/^k",
        "query: delete to the start / end",
    ),
    control('k', LineEdit::DeleteToEnd, "^u/^k", ""),
    plain(KeyCode::Delete, LineEdit::Delete, "Del", "query: delete"),
    control(
        'p',
        LineEdit::Older,
        "^p/^n",
        "query: history (↑/↓ too, on an empty list)",
    ),
    control('n', LineEdit::Newer, "^p/^n", ""),
];

/// The action of a query-line key, if it is one.
pub fn line_key(code: KeyCode, mods: KeyModifiers) -> Option<Action> {
    LINE_KEYS
        .iter()
        .find(|b| b.code == code && b.mods == mods)
        .map(|b| b.action)
}

/// The cursor of the line being typed and every kind's history.
#[derive(Debug, Clone, Default)]
pub struct LineState {
    /// In characters; `None`: at the end (where a line opened or set by the viewer starts).
    pub cursor: Option<usize>,
    histories: [History; 4],
    /// The history being walked: the line typed before walking it, and how far back.
    walk: Option<(String, usize)>,
}

#[derive(Debug, Clone, Default)]
struct History(Vec<String>);

impl LineState {
    /// A line opened or set from outside: the cursor at its end, no history walk.
    pub fn reset(&mut self) {
        self.cursor = None;
        self.walk = None;
    }

    /// Keeps `line` in `kind`'s history (once, as its newest).
    pub fn remember(&mut self, kind: LineKind, line: &str) {
        let history = &mut self.histories[kind as usize].0;
        if line.trim().is_empty() {
            return;
        }
        history.retain(|old| old != line);
        history.push(line.to_string());
        if history.len() > HISTORY_LEN {
            history.remove(0);
        }
        self.walk = None;
    }

    /// Types `c` at the cursor.
    pub fn insert(&mut self, line: &mut String, c: char) {
        self.apply(line, InputRequest::InsertChar(c));
    }

    /// Erases the character before the cursor.
    pub fn backspace(&mut self, line: &mut String) {
        self.apply(line, InputRequest::DeletePrevChar);
    }

    /// Applies `edit` to `line`, a line of `kind`; returns whether the text changed.
    pub fn edit(&mut self, line: &mut String, kind: LineKind, edit: LineEdit) -> bool {
        let request = match edit {
            LineEdit::Left => InputRequest::GoToPrevChar,
            LineEdit::Right => InputRequest::GoToNextChar,
            LineEdit::WordLeft => InputRequest::GoToPrevWord,
            LineEdit::WordRight => InputRequest::GoToNextWord,
            LineEdit::Home => InputRequest::GoToStart,
            LineEdit::End => InputRequest::GoToEnd,
            LineEdit::Delete => InputRequest::DeleteNextChar,
            LineEdit::DeleteWordBack => InputRequest::DeletePrevWord,
            LineEdit::DeleteToEnd => InputRequest::DeleteTillEnd,
            LineEdit::DeleteToStart => {
                // tui-input 0.14 has no "delete to start": keep what follows the cursor.
                let at = self.at(line);
                let rest: String = line.chars().skip(at).collect();
                let changed = rest.len() != line.len();
                *line = rest;
                self.cursor = Some(0).filter(|_| !line.is_empty());
                return changed;
            }
            LineEdit::Older | LineEdit::Newer => {
                return self.walk_history(line, kind, edit == LineEdit::Older)
            }
        };
        self.apply(line, request)
    }

    /// The line split at the cursor, for drawing it there.
    pub fn split<'a>(&self, line: &'a str) -> (&'a str, &'a str) {
        let at = self.at(line);
        let byte = line.char_indices().nth(at).map_or(line.len(), |(i, _)| i);
        line.split_at(byte)
    }

    fn at(&self, line: &str) -> usize {
        let len = line.chars().count();
        self.cursor.unwrap_or(len).min(len)
    }

    fn apply(&mut self, line: &mut String, request: InputRequest) -> bool {
        let at = self.at(line);
        let mut input = Input::new(std::mem::take(line)).with_cursor(at);
        let changed = input.handle(request).is_some_and(|state| state.value);
        let at = input.cursor();
        *line = input.value().to_string();
        self.cursor = (at < line.chars().count()).then_some(at);
        if changed {
            self.walk = None;
        }
        changed
    }

    /// Replaces `line` with the history's older (or newer) line; past the newest, the line
    /// typed before the walk comes back.
    fn walk_history(&mut self, line: &mut String, kind: LineKind, older: bool) -> bool {
        let history = &self.histories[kind as usize].0;
        let (typed, back) = self.walk.clone().unwrap_or((line.clone(), 0));
        let back = match older {
            true if back < history.len() => back + 1,
            true => return false,
            false if back == 0 => return false,
            false => back - 1,
        };
        let shown = match back {
            0 => typed.clone(),
            n => history[history.len() - n].clone(),
        };
        self.walk = (back > 0).then_some((typed, back));
        self.cursor = None;
        let changed = *line != shown;
        *line = shown;
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edited(text: &str, cursor: Option<usize>, edits: &[LineEdit]) -> (String, String) {
        let mut state = LineState {
            cursor,
            ..LineState::default()
        };
        let mut line = text.to_string();
        for &edit in edits {
            state.edit(&mut line, LineKind::Search, edit);
        }
        let (before, after) = state.split(&line);
        (before.to_string(), after.to_string())
    }

    #[test]
    fn the_cursor_moves_and_deletes_like_a_shell_line() {
        use LineEdit::*;
        let both = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(
            edited("fn parse", None, &[Left, Left]),
            both("fn par", "se")
        );
        assert_eq!(edited("fn parse", None, &[Home]), both("", "fn parse"));
        assert_eq!(edited("fn parse", Some(0), &[End]), both("fn parse", ""));
        assert_eq!(edited("fn parse", None, &[WordLeft]), both("fn ", "parse"));
        assert_eq!(edited("fn parse", None, &[DeleteWordBack]), both("fn ", ""));
        assert_eq!(
            edited("fn parse", Some(3), &[DeleteToStart]),
            both("", "parse")
        );
        assert_eq!(edited("fn parse", Some(2), &[DeleteToEnd]), both("fn", ""));
        assert_eq!(edited("fn parse", Some(0), &[Delete]), both("", "n parse"));
        // Multi-byte characters are one step each.
        assert_eq!(edited("née", None, &[Left, Left]), both("n", "ée"));
    }

    #[test]
    fn typing_goes_in_at_the_cursor() {
        let mut state = LineState::default();
        let mut line = "pars".to_string();
        state.edit(&mut line, LineKind::Symbols, LineEdit::Home);
        state.insert(&mut line, 'x');
        assert_eq!(line, "xpars");
        state.edit(&mut line, LineKind::Symbols, LineEdit::End);
        state.backspace(&mut line);
        assert_eq!((line.as_str(), state.cursor), ("xpar", None));
    }

    #[test]
    fn history_walks_back_and_returns_to_the_typed_line() {
        let mut state = LineState::default();
        state.remember(LineKind::Search, "alpha");
        state.remember(LineKind::Search, "beta");
        state.remember(LineKind::Search, "alpha");
        state.remember(LineKind::Symbols, "other kind");
        let mut line = "typed".to_string();
        let mut step = |edit| {
            state.edit(&mut line, LineKind::Search, edit);
            line.clone()
        };
        assert_eq!(step(LineEdit::Older), "alpha");
        assert_eq!(step(LineEdit::Older), "beta");
        assert_eq!(step(LineEdit::Older), "beta", "the oldest stays");
        assert_eq!(step(LineEdit::Newer), "alpha");
        assert_eq!(step(LineEdit::Newer), "typed");
        assert_eq!(step(LineEdit::Newer), "typed");
    }
}
