//! The finder views in action: opening the symbol picker, a text search or a references
//! search; keys while one is open (typing edits the query, arrows move, Enter jumps, Esc
//! closes); and the preview of the selected item. The work itself runs in the background
//! ([`super::rank`], [`super::jobs`]) on the one search engine.

use super::action::Action;
use super::app::{App, Focus, Peek, Preview};
use super::doc::Doc;
use super::jobs::Message;
use super::jobs::{self, Cancel, Needle};
use super::layout;
use super::line::{LineEdit, LineKind};
use super::loading::Lane;
use super::picker::{Overlay, ResultRow, Results, SearchKind};
use super::rank::SymbolIndex;
use super::refind::{Expected, Target};
use crate::search::RefQuery;
use ratatui::layout::Position;
use std::path::Path;
use std::time::{Duration, Instant};

/// A search runs once typing pauses this long (each key cancels the one running).
pub const SEARCH_PAUSE: Duration = Duration::from_millis(150);

/// `S`, Ctrl-T: the symbol picker, its index started on first use.
pub fn open_symbols(app: &mut App) {
    app.overlay = Overlay::Symbols;
    app.line.reset();
    app.filtering = false;
    app.replace_query = !app.picker.query.is_empty();
    if app.symbols.is_none() {
        start_index(app);
    }
    if let Some(index) = &app.symbols {
        index.query(&app.picker.query);
    }
    peek_selected(app);
}

fn start_index(app: &mut App) {
    let generation = app.jobs.next_id();
    let scope = app.scope(false);
    app.symbols = Some(SymbolIndex::start(scope, generation, app.jobs.tx.clone()));
}

impl App {
    /// `r` and `.`: the symbol index, if one was built, is built again from the tree as it
    /// is now (the old one stops).
    pub fn restart_symbols(&mut self) {
        if self.symbols.take().is_some() {
            start_index(self);
            if let Some(index) = &self.symbols {
                index.query(&self.picker.query);
            }
        }
    }
}

/// `F`, `g/`: the text search view, with the last text search's query and results.
pub fn open_search(app: &mut App) {
    app.filtering = false;
    if app.results.kind != SearchKind::Text {
        app.stop_search();
        app.results = Results::default();
    }
    app.overlay = Overlay::Search;
    app.line.reset();
    app.replace_query = !app.results.query.is_empty();
    peek_selected(app);
}

/// `gr`: the uses of the selected outline entry's name across the tree.
pub fn references(app: &mut App) {
    let Some(item) = app.outline.selected().map(|n| &n.item) else {
        app.message = Some("select an outline entry to find its references".into());
        return;
    };
    let entry = item.name.clone();
    // The model's owner facts, when the entry is found in the open file's outline.
    let modelled = app
        .doc
        .as_ref()
        .and_then(|doc| doc.outline.as_ref())
        .and_then(|outline| {
            let walk = outline.walk();
            let found = walk
                .into_iter()
                .find(|(_, e)| e.line == item.line && e.qualname() == item.qualname);
            found.map(|(_, e)| reference_subject(e))
        });
    let Some(name) = modelled.unwrap_or_else(|| identifier_of(&entry)) else {
        app.message = Some(format!("no identifier in '{entry}' to find the uses of"));
        return;
    };
    app.stop_search();
    app.results = Results {
        kind: SearchKind::References,
        query: name,
        ..Results::default()
    };
    app.overlay = Overlay::Search;
    app.filtering = false;
    app.replace_query = true;
    run_search(app);
}

/// What `gr` looks for on an entry: a method written with its owner (Go's `(*Daemon).Start`,
/// C++'s `Type::m`, Kotlin's `String.shout`) is used by its bare name, an impl block by its
/// type's (the model's owner facts).
fn reference_subject(entry: &crate::outline::Entry) -> Option<String> {
    match entry.kind {
        crate::outline::Kind::Impl => entry.owner().map(str::to_string),
        _ => identifier_of(entry.bare_name()),
    }
}

/// The identifier whose uses `gr` finds for an entry named `name`: the name itself, or for
/// an impl block (`Display for dyn Expected + '_`, `AsRef<[u8]> for Buffer`) the type's own
/// name, without its path (`core::fmt::Debug` gives `Debug`) or generics.
fn identifier_of(name: &str) -> Option<String> {
    let subject = name.rsplit(" for ").next().unwrap_or(name).trim();
    let mut subject = subject.trim_start_matches(['&', '*', '(', '[']);
    while let Some(rest) = ["dyn ", "impl ", "mut ", "const "]
        .iter()
        .find_map(|keyword| subject.strip_prefix(keyword))
    {
        subject = rest.trim_start_matches(['&', '*']);
    }
    let path: &str = subject
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .next()?;
    let ident = path.rsplit("::").next()?;
    (!ident.is_empty()).then(|| ident.to_string())
}

/// Starts the search view's query, replacing any search still running.
fn run_search(app: &mut App) {
    app.stop_search();
    app.results.due = None;
    let query = app.results.query.clone();
    let needle = match app.results.kind {
        SearchKind::Text => crate::config::build_regex(&query).map(Needle::Text),
        SearchKind::References => RefQuery::parse(&query)
            .map(Needle::References)
            .map_err(|_| crate::Error::Usage("give one identifier, or Type.method".into())),
    };
    let needle = match needle {
        Ok(needle) => needle,
        Err(err) => {
            // The last query's rows and counts would read as this one's.
            app.results.restart(0);
            app.results.running = false;
            app.results.ran = None;
            app.results.note = Some(err.to_string());
            return;
        }
    };
    let job = app.jobs.next_id();
    app.results.restart(job);
    let cancel = Cancel::default();
    app.search_cancel = Some(cancel.clone());
    let scope = app.scope(app.results.kind == SearchKind::Text);
    jobs::spawn_search(scope, needle, job, app.jobs.tx.clone(), cancel);
}

/// Applies `action` while a finder view is open.
pub fn update(app: &mut App, action: Action) {
    match action {
        Action::FilterInput(c) => edit_query(app, Some(c)),
        Action::FilterBackspace => edit_query(app, None),
        Action::EditLine(edit) => edit_line(app, edit),
        // On an empty list the arrows have nothing to move: they walk the history.
        Action::Up if list_is_empty(app) => edit_line(app, LineEdit::Older),
        Action::Down if list_is_empty(app) => edit_line(app, LineEdit::Newer),
        Action::Up => move_by(app, -1),
        Action::Down => move_by(app, 1),
        Action::PageUp => move_by(app, -list_height(app)),
        Action::PageDown => move_by(app, list_height(app)),
        Action::Top => move_by(app, isize::MIN / 2),
        Action::Bottom => move_by(app, isize::MAX / 2),
        Action::FilterAccept => accept(app),
        Action::Escape => close(app),
        Action::Quit => app.quit = true,
        Action::Resize(w, h) => app.area = ratatui::layout::Rect::new(0, 0, w, h),
        Action::Wheel(_, _, lines) => move_by(app, lines as isize),
        Action::Click(x, y) => click(app, x, y),
        _ => {}
    }
    peek_selected(app);
}

/// A click on a row of the list selects it (a hit, in a search view); a second click jumps.
fn click(app: &mut App, x: u16, y: u16) {
    let (rect, _) = layout::finder(&app.panes());
    // Below the border and the query line (and a search's note line).
    let note = usize::from(app.overlay == Overlay::Search && app.results.note.is_some());
    let first = rect.y as usize + 2 + note;
    if !rect.contains(Position::new(x, y)) || (y as usize) < first {
        return;
    }
    let row = y as usize - first;
    let cursor = match app.overlay {
        Overlay::Symbols => app.picker.cursor,
        _ => app.results.cursor,
    };
    let index = cursor.offset + row;
    let again = index == cursor.selected;
    match app.overlay {
        Overlay::Symbols if index < app.picker.ranking.rows.len() => {
            app.picker.cursor.selected = index
        }
        Overlay::Search if matches!(app.results.rows.get(index), Some(ResultRow::Hit { .. })) => {
            app.results.cursor.selected = index
        }
        _ => return,
    }
    if again {
        accept(app);
    }
}

/// Types `c` into the query, or erases its last character (`None`). A query kept from the
/// last visit is replaced by the first key, as a selected text field would be.
fn edit_query(app: &mut App, c: Option<char>) {
    let replace = std::mem::take(&mut app.replace_query);
    let query = match app.overlay {
        Overlay::Symbols => &mut app.picker.query,
        Overlay::Search => &mut app.results.query,
        Overlay::None => return,
    };
    match (replace, c) {
        (true, _) => {
            *query = c.map(String::from).unwrap_or_default();
            app.line.reset();
        }
        (false, Some(c)) => app.line.insert(query, c),
        (false, None) => app.line.backspace(query),
    }
    query_changed(app);
}

/// A cursor move, deletion or history step on the finder's query line.
fn edit_line(app: &mut App, edit: LineEdit) {
    // Moving in a kept query keeps it: only typing replaces it.
    app.replace_query = false;
    let kind = line_kind(app);
    let query = match app.overlay {
        Overlay::Symbols => &mut app.picker.query,
        Overlay::Search => &mut app.results.query,
        Overlay::None => return,
    };
    if app.line.edit(query, kind, edit) {
        query_changed(app);
    }
}

/// Which history the open finder's query line uses.
fn line_kind(app: &App) -> LineKind {
    match (app.overlay, app.results.kind) {
        (Overlay::Symbols, _) => LineKind::Symbols,
        (_, SearchKind::Text) => LineKind::Search,
        (_, SearchKind::References) => LineKind::References,
    }
}

fn list_is_empty(app: &App) -> bool {
    match app.overlay {
        Overlay::Symbols => app.picker.ranking.rows.is_empty(),
        _ => app.results.rows.is_empty(),
    }
}

/// The query was edited: the picker ranks it at once, a search waits for typing to pause.
fn query_changed(app: &mut App) {
    match app.overlay {
        Overlay::Symbols => {
            if let Some(index) = &app.symbols {
                index.query(&app.picker.query);
            }
        }
        _ => schedule_search(app),
    }
}

/// The search query changed: the running search stops now, and the new one starts when
/// typing pauses ([`start_due_search`]). An empty query clears the view.
fn schedule_search(app: &mut App) {
    app.stop_search();
    app.results.jump_when_found = false;
    let results = &mut app.results;
    if results.query.is_empty() {
        results.due = None;
        results.rows.clear();
        results.cursor = Default::default();
        results.ran = None;
        results.note = None;
        results.files = 0;
        results.hits = 0;
    } else {
        results.due = Some(Instant::now() + SEARCH_PAUSE);
    }
}

/// Starts the search whose typing pause is over; returns whether one started.
pub fn start_due_search(app: &mut App) -> bool {
    let due = app.results.due.is_some_and(|due| Instant::now() >= due);
    if due {
        run_search(app);
    }
    due
}

fn move_by(app: &mut App, delta: isize) {
    match app.overlay {
        Overlay::Symbols => app.picker.move_by(delta),
        Overlay::Search => app.results.move_by(delta),
        Overlay::None => {}
    }
}

/// Rows of the finder's list on screen.
pub fn list_height(app: &App) -> isize {
    let (rect, _) = layout::finder(&app.panes());
    // Borders and the query line.
    layout::inner_height(rect).saturating_sub(1).max(1) as isize
}

/// Enter: jump to the selected symbol or hit; in a search whose query changed, run it first.
fn accept(app: &mut App) {
    match app.overlay {
        Overlay::Symbols => {
            app.line
                .remember(LineKind::Symbols, &app.picker.query.clone());
            if let Some(row) = app.picker.selected().cloned() {
                let target = Target::Definition {
                    qualname: row.qualname.clone(),
                    kind: row.kind,
                };
                jump_checked(app, row.path, row.line, target);
            }
        }
        Overlay::Search => {
            let kind = line_kind(app);
            app.line.remember(kind, &app.results.query.clone());
            let stale = app.results.ran.as_deref() != Some(app.results.query.as_str());
            if stale && !app.results.query.is_empty() {
                run_search(app);
                app.results.jump_when_found = app.results.running;
            } else if let Some(ResultRow::Hit {
                path, line, text, ..
            }) = app.results.rows.get(app.results.cursor.selected).cloned()
            {
                jump_checked(app, path, line, Target::Line { text });
            }
        }
        Overlay::None => {}
    }
}

/// Jumps to a row's place, checked against the file as it is now ([`super::refind`]).
fn jump_checked(app: &mut App, path: std::path::PathBuf, line: usize, target: Target) {
    app.expect = Some(Expected {
        path: path.clone(),
        line,
        target,
    });
    app.goto(&path, line);
    app.check_expected();
}

/// The first hit of a search that Enter ran has arrived: jump to it.
pub fn jump_to_first_found(app: &mut App) {
    if app.overlay == Overlay::Search && app.results.selected().is_some() {
        app.results.jump_when_found = false;
        accept(app);
    }
}

/// Esc: back to the panes as they were (a running search goes on; its results stay).
fn close(app: &mut App) {
    app.overlay = Overlay::None;
    app.results.jump_when_found = false;
    app.peek = None;
    app.peek_loading = None;
    if app.focus == Focus::Dir && !app.dir_visible() {
        app.focus = Focus::Outline;
    }
}

/// Loads the selected item's file into the preview (reusing it while the file is the same)
/// and puts its line near the top.
pub fn peek_selected(app: &mut App) {
    let target = match app.overlay {
        Overlay::Symbols => app.picker.selected().map(|r| (r.path.clone(), r.line)),
        Overlay::Search => app.results.selected().map(|(p, l)| (p.to_path_buf(), l)),
        Overlay::None => None,
    };
    let Some((path, line)) = target else {
        app.peek = None;
        return;
    };
    let loaded = app.peek.as_ref().is_some_and(|p| p.doc.path == path);
    if !loaded {
        let peek = load_peek(app, &path);
        app.peek = Some(peek);
    }
    let height = app.preview_height();
    if let Some(peek) = &mut app.peek {
        let cursor = line.saturating_sub(1);
        let end_line = definition_end(peek, line);
        peek.line = line;
        peek.end_line = end_line;
        // A little context above the line, as an editor's peek shows.
        peek.view = Preview {
            top: cursor.saturating_sub(height / 5),
            cursor,
            ..peek.view
        };
    }
}

/// How much of a previewed file is read on the key path: more than the open file's first
/// screen, since the selected line may lie well into the file.
const PEEK_HEAD: usize = 256 * 1024;

/// The selected item's file: what is read at once, the whole file on a thread
/// ([`Message::Peeked`]), so moving through results never waits on a file.
fn load_peek(app: &mut App, path: &Path) -> Peek {
    // The open file too is read again rather than shared: the open file's state (folds,
    // cursor) must stay as it was when the finder closes without a jump.
    let job = app.spawn_load(path, Lane::Peek, |job, doc| Message::Peeked { job, doc });
    app.peek_loading = Some(job);
    let doc = Doc::head(path, PEEK_HEAD, app.confine.as_deref(), &app.theme);
    Peek {
        doc,
        view: Preview::default(),
        line: 1,
        end_line: 1,
    }
}

/// The last line of the entry that starts at `line`, or `line` itself.
fn definition_end(peek: &Peek, line: usize) -> usize {
    peek.doc
        .entries()
        .iter()
        .filter(|(_, e)| e.line == line)
        .map(|(_, e)| e.end_line)
        .min()
        .unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::{identifier_of, reference_subject};
    use crate::outline::Kind;

    #[test]
    fn gr_looks_for_a_method_by_its_bare_name_and_an_impl_by_its_type() {
        let cases = [
            (Kind::Method, "(*Daemon).ContainerStart", "ContainerStart"),
            (Kind::Method, "Client.ContainerCreate", "ContainerCreate"),
            (Kind::Function, "Widget::draw", "draw"),
            (Kind::Function, "String.shout", "shout"),
            (Kind::Impl, "Display for Buffer", "Buffer"),
            (Kind::Impl, "[String]", "String"),
            (Kind::Class, "Registry", "Registry"),
        ];
        for (kind, name, want) in cases {
            let entries = vec![crate::outline::Entry::new(kind, name, 1, 1)];
            let outline = crate::outline::Outline::new(crate::lang::Language::Go, 1, 0, entries);
            assert_eq!(
                reference_subject(&outline.entries[0]).as_deref(),
                Some(want),
                "{name}"
            );
        }
    }

    #[test]
    fn references_look_for_the_identifier_an_entry_names() {
        let cases = [
            ("get", "get"),
            (
                "Drop for AndroidSystemProperties",
                "AndroidSystemProperties",
            ),
            ("Display for dyn Expected + '_", "Expected"),
            ("AsRef<[u8]> for Buffer", "Buffer"),
            ("core::fmt::Debug", "Debug"),
            ("Vec<T>", "Vec"),
            ("std::io::Write for &mut Reader<R>", "Reader"),
            ("Trait for &mut dyn Sink", "Sink"),
        ];
        for (name, ident) in cases {
            assert_eq!(identifier_of(name).as_deref(), Some(ident), "{name}");
        }
        assert_eq!(identifier_of("<>"), None);
    }
}
