//! The interactive viewer: a directory pane, the open file's outline and a highlighted preview
//! over one state model ([`app::App`]). Events become [`action::Action`]s through the keymap
//! ([`keys`]), [`action::update`] applies them, and [`view`] draws the state.
//!
//! The terminal is always restored: [`terminal::Guard`] undoes raw mode and the alternate
//! screen on drop, on a panic, on a terminating signal and when the terminal goes away. The
//! screen is drawn only after something changed.

use crate::config::Config;
use crate::error::{Error, Result};
use crate::highlight;
use base64::Engine as _;
use jobs::Message;
use ratatui::backend::{Backend, CrosstermBackend};
use ratatui::crossterm::event::Event;
use ratatui::Terminal;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

mod input;

pub mod action;
pub mod app;
pub mod dirs;
pub mod doc;
pub mod files;
pub mod finder;
pub mod jobs;
pub mod jump;
pub mod keys;
pub mod layout;
pub mod line;
pub mod loading;
pub mod picker;
pub mod rank;
pub mod reach;
pub mod refind;
pub mod standin;
pub mod terminal;
pub mod theme;
pub mod tree;
pub mod view;
pub mod watch;

use action::{update, Action};
use app::{App, ColorMode, Effect, Focus};

/// How often the open file's stamp is checked.
const WATCH_EVERY: Duration = Duration::from_millis(500);

/// Builds the app for `config`: the directory of `config.path`, and the file itself opened and
/// focused when the path is a file. `light` is the terminal's background when known. The
/// syntax assets load on a thread meanwhile: the first frame shows plain text, coloured when
/// they arrive.
pub fn app_for(config: &Config, color: ColorMode, light: Option<bool>) -> Result<App> {
    let choice = theme::choose(config.theme.as_deref(), &theme::BatEnv::from_env(), light);
    let theme = highlight::theme(choice.name)
        .ok_or_else(|| Error::Usage(format!("theme '{}' could not be loaded", choice.name)))?;
    let path = &config.path;
    config.check_root(path)?;
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    let (root, file) = if meta.is_dir() {
        (path.clone(), None)
    } else {
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
        (
            parent.map_or_else(|| PathBuf::from("."), PathBuf::from),
            Some(path.clone()),
        )
    };
    // Background work starts once the first frame is drawn (`event_loop`).
    let mut app = App::holding_threads(root, config, theme, color);
    app.options.light = choice.light;
    app.note = choice.note;
    if !highlight::syntaxes_ready() {
        app.assets_pending = true;
        let (tx, first) = (app.jobs.tx.clone(), file.clone());
        app.background(move || {
            highlight::load_in_background(first, move || {
                let _ = tx.send(jobs::Message::AssetsReady);
            })
        });
    }
    if let Some(file) = file {
        let file = app.root.join(file.file_name().unwrap_or_default());
        app.open(&file);
        app.focus = Focus::Outline;
    }
    Ok(app)
}

/// Runs the viewer until the user quits.
pub fn run(config: &Config) -> Result<()> {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let colorterm = std::env::var("COLORTERM").ok();
    let color = ColorMode::detect(config.color, no_color, colorterm.as_deref());
    // Asked before the viewer takes the terminal; without colours the answer is not needed.
    let light = match color {
        ColorMode::Mono => None,
        _ => theme::terminal_is_light(),
    };
    let mut app = app_for(config, color, light)?;
    let guard = terminal::Guard::enter().map_err(tty_error)?;
    let mut terminal =
        Terminal::new(CrosstermBackend::new(std::io::stdout())).map_err(tty_error)?;
    let size = terminal.size().map_err(tty_error)?;
    update(&mut app, Action::Resize(size.width, size.height));
    app.message = app.note.take();
    let result = event_loop(&mut terminal, &mut app);
    drop(guard);
    result
}

/// Input, background results and (later) file events arrive on one channel: the loop sleeps
/// on it until a message comes or the next timed thing is due (a search after a typing
/// pause, the open file's stamp check), instead of polling busy flags.
fn event_loop<B: Backend>(terminal: &mut Terminal<B>, app: &mut App) -> Result<()> {
    let input = input::Reader::spawn(app.jobs.tx.clone());
    let mut watcher = watch::Watcher::start(app.jobs.tx.clone());
    let mut dirty = true;
    let mut last_watch = Instant::now();
    while !app.quit {
        if dirty {
            terminal
                .draw(|frame| view::draw(frame, app))
                .map_err(tty_error)?;
            dirty = false;
            app.release_held();
        }
        if let Some(note) = watcher.follow(&app.in_view()) {
            app.message = Some(note);
            app.polled = watcher.polling().map(str::to_string);
            dirty = true;
        }
        let wait = next_wait(app, last_watch);
        let mut received = false;
        let mut next = app.jobs.recv_timeout(wait);
        while let Some(message) = next {
            match message {
                Message::Input(event) => dirty |= take_input(app, event.map_err(tty_error)?),
                message => {
                    app.receive(message);
                    received = true;
                }
            }
            next = app.jobs.try_recv();
        }
        dirty |= app.after_messages(received);
        if last_watch.elapsed() >= WATCH_EVERY {
            last_watch = Instant::now();
            if file_changed(app) {
                update(app, Action::FileChanged);
                dirty = true;
            }
            let dirs = watcher.poll(&app.in_view());
            if !dirs.is_empty() {
                app.dirs_changed(&dirs);
                dirty = true;
            }
        }
        if app.colouring {
            // The preview's colours go on where the last turn stopped.
            app.sync();
            dirty = true;
        }
        if let Some(effect) = app.effect.take() {
            // The program run outside the viewer reads the terminal alone meanwhile.
            let paused = input.pause();
            run_effect(terminal, app, effect)?;
            drop(paused);
            dirty = true;
        }
    }
    Ok(())
}

/// How long the loop may sleep: not at all while colours are being added, until a search's
/// typing pause ends, at most until the next stamp check.
fn next_wait(app: &App, last_watch: Instant) -> Duration {
    if app.colouring {
        return Duration::ZERO;
    }
    let watch = WATCH_EVERY.saturating_sub(last_watch.elapsed());
    match app.results.due {
        Some(due) => due.saturating_duration_since(Instant::now()).min(watch),
        None => watch,
    }
}

/// Applies one terminal event; returns whether the screen changed.
fn take_input(app: &mut App, event: Event) -> bool {
    let action = match event {
        Event::Key(key) => keys::action_for(key, app.key_mode()),
        Event::Mouse(mouse) => keys::mouse_action(mouse),
        Event::Resize(w, h) => Some(Action::Resize(w, h)),
        _ => None,
    };
    let Some(action) = action else {
        return false;
    };
    update(app, action);
    true
}

fn file_changed(app: &App) -> bool {
    app.doc
        .as_ref()
        .is_some_and(|doc| doc::stamp(&doc.path) != doc.stamp)
}

/// Does what `update` asked for but cannot do itself.
fn run_effect<B: Backend>(terminal: &mut Terminal<B>, app: &mut App, effect: Effect) -> Result<()> {
    match effect {
        Effect::Copy(text) => {
            let mut out = std::io::stdout();
            let encoded = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
            let _ = write!(out, "\x1b]52;c;{encoded}\x07");
            let _ = out.flush();
            app.message = Some(format!("copied {text}"));
        }
        Effect::Edit(path, line) => {
            let status = outside_tui(|| edit(&path, line));
            app.message = status.err();
            app.reload_doc();
        }
        Effect::Suspend => {
            outside_tui(terminal::suspend);
        }
    }
    terminal.clear().map_err(tty_error)?;
    app.sync();
    Ok(())
}

/// Leaves the TUI, runs `work`, and comes back.
fn outside_tui<T>(work: impl FnOnce() -> T) -> T {
    terminal::restore();
    let result = work();
    let _ = terminal::setup();
    result
}

/// Opens `$VISUAL` or `$EDITOR` (default `vi`) at `line`. The variable is split into words as
/// a shell would (quotes kept together), as bat and git do: `code --wait` and
/// `"/opt/My Editor/edit" -w` both work.
fn edit(path: &std::path::Path, line: usize) -> std::result::Result<(), String> {
    let editor = std::env::var("VISUAL")
        .or_else(|_| std::env::var("EDITOR"))
        .unwrap_or_else(|_| "vi".into());
    let (program, args) = editor_command(&editor)?;
    let status = std::process::Command::new(&program)
        .args(args)
        .arg(format!("+{line}"))
        .arg(path)
        .status()
        .map_err(|e| format!("{program}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{program} exited with {status}"))
    }
}

/// The program and leading arguments of an editor command (`vi` when it is empty).
fn editor_command(command: &str) -> std::result::Result<(String, Vec<String>), String> {
    let mut words = shlex::split(command)
        .ok_or_else(|| format!("cannot split the editor command {command:?}"))?
        .into_iter();
    let program = words.next().unwrap_or_else(|| "vi".into());
    Ok((program, words.collect()))
}

fn tty_error(err: std::io::Error) -> Error {
    Error::io("<terminal>", err)
}

#[cfg(test)]
mod tests;
