//! State-model tests (actions in, state out) and whole-screen snapshots on ratatui's
//! TestBackend. The fixture's outline comes from a tiny scanner here, not from the real
//! parsers, so the snapshots do not move when a parser improves.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::action::{update, Action};
use super::app::{App, ColorMode, Focus};
use super::doc::{Doc, LoadOptions, ReadDoc};
use crate::config::Config;
use crate::outline::{Entry, Kind, Outline};
use crate::{git, highlight, Language};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::path::{Path, PathBuf};

const APP_PY: &str = r#""""Inventory service."""
import os


class Store:
    """Holds items."""

    def __init__(self, name):
        self.name = name
        self.items = {}

    def add(self, key, value):
        self.items[key] = value
        return value

    def get(self, key):
        return self.items.get(key)


def main():
    store = Store("main")
    store.add("a", 1)
    print(store.get("a"))


if __name__ == "__main__":
    main()
"#;

/// A stand-in Python scanner: top-level `class`/`def`, and `def` inside a class as methods.
fn fake_outline(text: &str) -> Outline {
    let lines: Vec<&str> = text.lines().collect();
    let mut entries: Vec<Entry> = Vec::new();
    let end_of = |start: usize, indent: usize| {
        let mut end = start;
        for (i, line) in lines.iter().enumerate().skip(start) {
            let depth = line.len() - line.trim_start().len();
            if !line.trim().is_empty() {
                if depth <= indent {
                    break;
                }
                end = i + 1;
            }
        }
        end
    };
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let Some(rest) = trimmed
            .strip_prefix("class ")
            .or_else(|| trimmed.strip_prefix("def "))
        else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        // As the real parsers do: the signature drops the keyword its kind already names.
        let signature = rest.trim_end_matches(':');
        let kind = match (trimmed.starts_with("class"), indent) {
            (true, _) => Kind::Class,
            (false, 0) => Kind::Function,
            _ => Kind::Method,
        };
        let entry = Entry::new(kind, name, i + 1, end_of(i + 1, indent)).with_signature(signature);
        match entries.last_mut() {
            Some(class) if indent > 0 && class.kind == Kind::Class => class.children.push(entry),
            _ => entries.push(entry),
        }
    }
    Outline::new(Language::Python, lines.len(), text.len(), entries)
}

fn fake_loader(path: &Path, _options: LoadOptions, _snapshot: Option<&git::Snapshot>) -> ReadDoc {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let outline = path
        .extension()
        .is_some_and(|e| e == "py")
        .then(|| fake_outline(&text));
    let mut doc = Doc::from_parts_read(path, text, outline);
    // As the real loader: the stamp tells a later save apart.
    doc.stamp = super::doc::stamp(path);
    doc
}

struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("project");
    std::fs::create_dir_all(root.join("docs")).unwrap();
    std::fs::write(root.join("app.py"), APP_PY).unwrap();
    std::fs::write(root.join("docs/guide.md"), "# Guide\n\nText.\n").unwrap();
    std::fs::write(root.join("notes.xyz"), "plain\n").unwrap();
    Fixture { _dir: dir, root }
}

fn config(root: &Path) -> Config {
    use clap::Parser;
    let args = crate::cli::Args::parse_from(["outline".as_ref(), root.as_os_str()]);
    Config::from_args(args).unwrap()
}

fn app(fx: &Fixture, color: ColorMode, size: (u16, u16)) -> App {
    let theme = highlight::theme(highlight::DEFAULT_THEME).unwrap();
    let mut app = App::new(fx.root.clone(), &config(&fx.root), theme, color);
    app.loader = fake_loader;
    app.cwd = fx.root.canonicalize().unwrap();
    update(&mut app, Action::Resize(size.0, size.1));
    app
}

/// `app` with app.py opened through the directory pane and read in full.
fn opened(fx: &Fixture, size: (u16, u16)) -> App {
    let mut app = app(fx, ColorMode::Mono, size);
    select_dir(&mut app, "app.py");
    update(&mut app, Action::Enter);
    settle(&mut app);
    app
}

/// Applies background work's results until none is under way (as the event loop would,
/// drawing in between).
fn settle(app: &mut App) {
    let settled = app.settle(std::time::Duration::from_secs(60));
    assert!(
        settled,
        "background work never ended: loading {:?}, peek {:?}, git {}, assets {}, search {}, colouring {}, due {:?}",
        app.loading,
        app.peek_loading,
        app.git_pending,
        app.assets_pending,
        app.results.running,
        app.colouring,
        app.results.due
    );
}

/// Selects `rel` (a path below the root) in the directory pane, listing its directories.
fn select_dir(app: &mut App, rel: &str) {
    let path = app.root.join(rel);
    app.reveal(&path);
    assert_eq!(
        app.dir.selected().map(|n| n.item.path.clone()),
        Some(path),
        "{rel} is listed"
    );
}

fn selected_name(app: &App) -> Option<&str> {
    app.outline.selected().map(|n| n.item.qualname.as_str())
}

fn render(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| super::view::draw(f, app)).unwrap();
    let buffer = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..h {
        let row: String = (0..w)
            .map(|x| buffer[(x, y)].symbol().to_string())
            .collect();
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}

mod finder;
mod jumps;
mod line;
mod numbers;
mod open;
mod truth;
mod watch;

#[test]
fn opening_a_file_focuses_its_outline() {
    let fx = fixture();
    let app = opened(&fx, (120, 40));
    assert_eq!(app.focus, Focus::Outline);
    assert_eq!(app.outline.visible().len(), 5);
    assert_eq!(selected_name(&app), Some("Store"));
    assert_eq!(app.doc.as_ref().map(Doc::line_count), Some(27));
}

#[test]
fn moving_in_the_outline_jumps_the_preview_and_enter_focuses_it() {
    let fx = fixture();
    let mut app = opened(&fx, (120, 40));
    update(&mut app, Action::Down);
    update(&mut app, Action::Down);
    assert_eq!(selected_name(&app), Some("Store.add"));
    assert_eq!((app.preview.top, app.preview.cursor), (11, 11));
    update(&mut app, Action::Enter);
    assert_eq!(app.focus, Focus::Preview);
    update(&mut app, Action::Down);
    update(&mut app, Action::Down);
    update(&mut app, Action::Down);
    update(&mut app, Action::Down);
    assert_eq!(
        selected_name(&app),
        Some("Store.get"),
        "outline follows the cursor"
    );
    update(&mut app, Action::NextSymbol);
    assert_eq!(selected_name(&app), Some("main"));
    update(&mut app, Action::PrevSymbol);
    assert_eq!(selected_name(&app), Some("Store.get"));
}

#[test]
fn folding_keys_change_the_visible_rows() {
    let fx = fixture();
    let mut app = opened(&fx, (120, 40));
    update(&mut app, Action::CollapseAll);
    assert_eq!(app.outline.visible().len(), 2);
    update(&mut app, Action::ExpandAll);
    assert_eq!(app.outline.visible().len(), 5);
    update(&mut app, Action::Left);
    assert_eq!(app.outline.visible().len(), 2, "h folds the open class");
    update(&mut app, Action::Right);
    assert_eq!(app.outline.visible().len(), 5);
    update(&mut app, Action::Toggle);
    assert_eq!(app.outline.visible().len(), 2);
    update(&mut app, Action::ExpandDepth(2));
    assert_eq!(app.outline.visible().len(), 5);
}

#[test]
fn filter_narrows_and_escape_clears() {
    let fx = fixture();
    let mut app = opened(&fx, (120, 40));
    update(&mut app, Action::StartFilter);
    assert!(app.filtering);
    for c in "ad".chars() {
        update(&mut app, Action::FilterInput(c));
    }
    assert_eq!(selected_name(&app), Some("Store.add"));
    assert_eq!(app.outline.visible().len(), 2, "the match and its class");
    update(&mut app, Action::FilterAccept);
    assert!(!app.filtering);
    update(&mut app, Action::NextMatch);
    assert_eq!(selected_name(&app), Some("Store.add"));
    update(&mut app, Action::Escape);
    assert_eq!(app.outline.visible().len(), 5);
}

#[test]
fn reload_keeps_the_selected_symbol() {
    let fx = fixture();
    let mut app = opened(&fx, (120, 40));
    update(&mut app, Action::Down);
    update(&mut app, Action::Down);
    assert_eq!(selected_name(&app), Some("Store.add"));
    let path = fx.root.join("app.py");
    std::fs::write(
        &path,
        format!("import sys\ndef first():\n    pass\n{APP_PY}"),
    )
    .unwrap();
    update(&mut app, Action::FileChanged);
    settle(&mut app);
    assert_eq!(selected_name(&app), Some("Store.add"));
    assert_eq!(app.outline.nodes().len(), 6);
}

#[test]
fn panes_cycle_and_narrow_terminals_skip_the_directory() {
    let fx = fixture();
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    assert_eq!(app.focus, Focus::Dir);
    update(&mut app, Action::Bottom);
    assert_eq!(app.focus, Focus::Dir);
    let shown = app.doc.as_ref().map(|d| d.name.clone());
    assert_eq!(
        shown.as_deref(),
        Some("notes.xyz"),
        "moving previews small files"
    );
    update(&mut app, Action::NextPane);
    update(&mut app, Action::NextPane);
    assert_eq!(app.focus, Focus::Preview);
    update(&mut app, Action::NextPane);
    assert_eq!(app.focus, Focus::Dir);
    update(&mut app, Action::Resize(70, 24));
    assert_eq!(app.focus, Focus::Outline);
    update(&mut app, Action::PrevPane);
    update(&mut app, Action::PrevPane);
    assert_eq!(app.focus, Focus::Outline);
}

#[test]
fn effects_quit_help_and_toggles() {
    let fx = fixture();
    let mut app = opened(&fx, (120, 40));
    update(&mut app, Action::Copy);
    assert_eq!(
        app.effect,
        Some(super::app::Effect::Copy("app.py:5".into()))
    );
    update(&mut app, Action::Help);
    assert!(app.help);
    update(&mut app, Action::Down);
    assert!(app.help, "moving keys scroll the help");
    update(&mut app, Action::ToggleTokens);
    assert!(!app.help, "other keys close the help");
    update(&mut app, Action::ToggleDiff);
    assert!(!app.options.diff);
    update(&mut app, Action::Quit);
    assert!(app.quit);
}

#[test]
fn mouse_clicks_focus_and_select() {
    let fx = fixture();
    let mut app = opened(&fx, (120, 40));
    let panes = app.panes();
    let dir = panes.dir.unwrap();
    // Row 2 of the pane: app.py, after the closed docs/.
    update(&mut app, Action::Click(dir.x + 3, dir.y + 2));
    assert_eq!(app.focus, Focus::Dir);
    update(&mut app, Action::Click(dir.x + 3, dir.y + 2));
    assert_eq!(app.focus, Focus::Outline, "a second click opens the file");
    settle(&mut app);
    let outline = panes.outline;
    update(&mut app, Action::Click(outline.x + 3, outline.y + 4));
    assert_eq!(selected_name(&app), Some("Store.get"));
    let preview = panes.preview;
    update(&mut app, Action::Click(preview.x + 5, preview.y + 2));
    assert_eq!(app.focus, Focus::Preview);
    update(&mut app, Action::Wheel(preview.x + 5, preview.y + 2, 3));
    update(&mut app, Action::Wheel(preview.x + 5, preview.y + 2, -9));
    assert_eq!(app.preview.top, 0);
}

#[test]
fn colour_mode_follows_flags_and_environment() {
    use crate::config::ColorChoice;
    assert_eq!(
        ColorMode::detect(ColorChoice::Auto, true, None),
        ColorMode::Mono
    );
    assert_eq!(
        ColorMode::detect(ColorChoice::Never, false, None),
        ColorMode::Mono
    );
    assert_eq!(
        ColorMode::detect(ColorChoice::Always, true, Some("truecolor")),
        ColorMode::TrueColor
    );
    assert_eq!(
        ColorMode::detect(ColorChoice::Auto, false, None),
        ColorMode::Ansi256
    );
}

#[test]
fn editor_commands_split_as_a_shell_would() {
    let split = |command| super::editor_command(command).expect("splits");
    assert_eq!(split("vi"), ("vi".into(), vec![]));
    assert_eq!(split(""), ("vi".into(), vec![]));
    assert_eq!(split("code --wait"), ("code".into(), vec!["--wait".into()]));
    assert_eq!(
        split("'/opt/My Editor/edit' -w"),
        ("/opt/My Editor/edit".into(), vec!["-w".into()])
    );
    assert!(super::editor_command("vi 'unclosed").is_err());
}

#[test]
fn snapshots() {
    let fx = fixture();
    for (w, h) in [(120, 40), (80, 24)] {
        let start = app(&fx, ColorMode::Mono, (w, h));
        insta::assert_snapshot!(format!("startup_{w}x{h}"), render(&start, w, h));
        let mut app = opened(&fx, (w, h));
        insta::assert_snapshot!(format!("python_outline_{w}x{h}"), render(&app, w, h));
        update(&mut app, Action::Down);
        update(&mut app, Action::Down);
        update(&mut app, Action::Enter);
        insta::assert_snapshot!(format!("jump_to_method_{w}x{h}"), render(&app, w, h));
        update(&mut app, Action::StartFilter);
        update(&mut app, Action::FilterInput('g'));
        update(&mut app, Action::FilterInput('e'));
        insta::assert_snapshot!(format!("filter_{w}x{h}"), render(&app, w, h));
        update(&mut app, Action::Escape);
        update(&mut app, Action::Help);
        insta::assert_snapshot!(format!("help_{w}x{h}"), render(&app, w, h));
    }
    let mut tiny = opened(&fx, (120, 40));
    update(&mut tiny, Action::Resize(20, 5));
    insta::assert_snapshot!("tiny_20x5", render(&tiny, 20, 5));
}

#[test]
fn no_color_draws_no_colours_but_shows_focus_and_selection() {
    use ratatui::style::{Color, Modifier};
    let fx = fixture();
    let app = opened(&fx, (120, 40));
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    terminal.draw(|f| super::view::draw(f, &app)).unwrap();
    let buffer = terminal.backend().buffer();
    let cells = buffer.content();
    assert!(cells
        .iter()
        .all(|c| c.fg == Color::Reset && c.bg == Color::Reset));
    assert!(cells
        .iter()
        .any(|c| c.modifier.contains(Modifier::REVERSED)));
    insta::assert_snapshot!("no_color_120x40", render(&app, 120, 40));
    let mut coloured = opened(&fx, (120, 40));
    coloured.options.color = ColorMode::TrueColor;
    coloured.sync();
    terminal.draw(|f| super::view::draw(f, &coloured)).unwrap();
    let cells = terminal.backend().buffer().content();
    assert!(cells.iter().any(|c| matches!(c.fg, Color::Rgb(..))));
}

#[test]
fn odd_input_never_panics() {
    let fx = fixture();
    std::fs::write(fx.root.join("bin.py"), b"\0\x01\x02").unwrap();
    std::fs::write(fx.root.join("empty.py"), "").unwrap();
    std::fs::write(fx.root.join("ctl.py"), "a\x1b[31m\tb\u{200b}\r\n".repeat(3)).unwrap();
    for name in ["bin.py", "empty.py", "ctl.py"] {
        let mut app = app(&fx, ColorMode::Ansi256, (100, 30));
        app.loader = Doc::load;
        select_dir(&mut app, name);
        update(&mut app, Action::Enter);
        for action in [
            Action::Bottom,
            Action::NextSymbol,
            Action::Enter,
            Action::PageDown,
            Action::Right,
            Action::Resize(3, 2),
            Action::Wheel(5, 5, 3),
            Action::Click(0, 0),
        ] {
            update(&mut app, action);
            let _ = render(&app, app.area.width, app.area.height);
        }
    }
}

#[test]
fn escape_sequences_from_files_and_names_are_drawn_visibly() {
    let fx = fixture();
    let name = "e\x1bvil\nname.md";
    let text = "# Title \x1b[2J\x1b]0;pwned\x07\n\nclip \x1b]52;c;cHduZWQ=\x07 tab\there\n";
    std::fs::write(fx.root.join(name), text).unwrap();
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    app.loader = Doc::load;
    select_dir(&mut app, name);
    update(&mut app, Action::Enter);
    settle(&mut app);
    update(&mut app, Action::Right);
    app.message = Some(format!("copied {name}:1"));
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    terminal.draw(|f| super::view::draw(f, &app)).unwrap();
    let raw = terminal
        .backend()
        .buffer()
        .content()
        .iter()
        .flat_map(|cell| cell.symbol().chars())
        .find(|c| c.is_control());
    assert_eq!(raw, None, "a control character reached the screen");
    let screen = render(&app, 120, 40);
    assert!(screen.contains("e\\evil\\nname.md"), "names:\n{screen}");
    assert!(
        screen.contains("Title \\e[2J\\e]0;pwned\\x07"),
        "outline:\n{screen}"
    );
    assert!(
        screen.contains("clip \\e]52;c;cHduZWQ=\\x07 tab    here"),
        "preview:\n{screen}"
    );
    insta::assert_snapshot!("hostile_names_120x40", render(&app, 120, 40));
}

/// Loads `path` with the real loader on another thread; `None` when it has not returned in 5 s.
fn load_within_5s(path: &Path) -> Option<Option<String>> {
    let path = path.to_path_buf();
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let doc = Doc::load(&path, LoadOptions::default(), None);
        let _ = send.send(doc.error);
    });
    receive.recv_timeout(std::time::Duration::from_secs(5)).ok()
}

#[cfg(unix)]
#[test]
fn special_files_are_refused_without_blocking() {
    let fx = fixture();
    let fifo = fx.root.join("pipe.py");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("note: mkfifo failed; skipping the FIFO test");
        return;
    }
    for path in [fifo.as_path(), Path::new("/dev/zero")] {
        let error = load_within_5s(path).expect("the load returned");
        let error = error.expect("the load refused");
        assert!(error.contains("not a regular file"), "{error}");
    }
    let error = load_within_5s(&fx.root.join("app.py")).expect("the load returned");
    assert_eq!(error, None);
}

#[cfg(unix)]
#[test]
fn an_open_file_replaced_by_a_fifo_is_refused_on_reload() {
    let fx = fixture();
    let mut app = opened(&fx, (120, 40));
    app.loader = Doc::load;
    let path = fx.root.join("app.py");
    std::fs::remove_file(&path).unwrap();
    let made = std::process::Command::new("mkfifo").arg(&path).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("note: mkfifo failed; skipping the FIFO test");
        return;
    }
    // The load is checked on a thread first, so a regression fails instead of hanging.
    assert!(load_within_5s(&path).is_some(), "the load blocked");
    update(&mut app, Action::FileChanged);
    settle(&mut app);
    let screen = render(&app, 120, 40);
    // The outline pane and the preview both give the reason (issue 12).
    assert_eq!(screen.matches("a named pipe (FIFO)").count(), 2, "{screen}");
    let error = app.doc.as_ref().and_then(|doc| doc.error.as_deref());
    assert!(
        error.is_some_and(|e| e.ends_with("(FIFO), not a regular file; not read")),
        "{error:?}"
    );
}

#[test]
fn the_loop_sleeps_on_its_channel_while_work_runs_and_takes_input_from_it() {
    let fx = fixture();
    let mut app = opened(&fx, (80, 24));
    // A search under way with nothing due: the loop sleeps until a message or the stamp
    // check, where it used to wake every 5 ms to look.
    app.results.running = true;
    app.colouring = false;
    let start = std::time::Instant::now();
    assert!(super::next_wait(&app, start) >= super::WATCH_EVERY / 2);
    app.colouring = true;
    assert_eq!(super::next_wait(&app, start), std::time::Duration::ZERO);
    app.colouring = false;
    let due = std::time::Instant::now() + std::time::Duration::from_millis(40);
    app.results.due = Some(due);
    assert!(super::next_wait(&app, start) <= std::time::Duration::from_millis(40));
    // Keys arrive as messages on the one channel and become actions.
    use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    let key = KeyEvent::new(KeyCode::Char('?'), KeyModifiers::NONE);
    assert!(super::take_input(&mut app, Event::Key(key)));
    assert!(app.help, "? opened the help");
}
