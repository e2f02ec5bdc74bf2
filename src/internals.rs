//! Not part of the API: the handles the benches (`benches/tui.rs`, `benches/picker.rs`) and
//! the fuzz targets (`fuzz/`) need into crate-private modules, with no promise of stability.
//!
//! The viewer is reached through `Viewer`, a facade over its state with private fields, so
//! that nothing of the viewer becomes public through it and the dead-code lint still sees the
//! viewer as only the binary and the tests use it.

use crate::cli::Args;
use crate::config::Config;
use crate::error::{Error, Result};
use crate::highlight;
use crate::outline::Outline;
use crate::tui::app::{App, ColorMode, Focus};
use crate::tui::doc::Doc;
use clap::Parser;
use std::path::Path;
use std::time::{Duration, Instant};

pub use crate::print::json::contract::check_renderings;
pub use crate::tui::action::Action;
pub use syntect::highlighting::Theme;

/// The viewer's default syntax theme; the first call loads the syntax assets.
pub fn default_theme() -> Result<Theme> {
    highlight::theme(highlight::DEFAULT_THEME)
        .ok_or_else(|| Error::Usage("the default theme could not be loaded".into()))
}

/// The viewer without a terminal: its state, its update function and its frame.
pub struct Viewer {
    app: App,
}

/// What the symbol picker shows, as plain data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PickerState {
    /// The query typed, and the query the shown ranking answers.
    pub typed: String,
    pub ranked: String,
    /// Rows shown, definitions matching, definitions indexed and their files.
    pub rows: usize,
    pub matched: usize,
    pub indexed: usize,
    pub files: usize,
    /// The index covers the whole tree.
    pub done: bool,
    /// The selected row's qualified name.
    pub selected: Option<String>,
}

impl Viewer {
    /// The viewer as `outline ROOT` starts it, in true colour with `theme`.
    pub fn new(root: &Path, theme: Theme) -> Result<Viewer> {
        let args = Args::try_parse_from(["outline".as_ref(), root.as_os_str()])
            .map_err(|err| Error::Usage(crate::cli::usage_line(&err)))?;
        let config = Config::from_args(args)?;
        let app = App::new(root.to_path_buf(), &config, theme, ColorMode::TrueColor);
        Ok(Viewer { app })
    }

    /// Applies `action` as a key, the mouse or a resize would.
    pub fn update(&mut self, action: Action) {
        crate::tui::action::update(&mut self.app, action);
    }

    /// Opens `text` with `outline` as the file at `path`, focused in the preview; whether its
    /// syntax is highlighted.
    pub fn open_text(&mut self, path: &Path, text: String, outline: Outline) -> bool {
        let doc = Doc::from_parts(path, text, Some(outline), &self.app.theme);
        self.app.set_doc(doc);
        self.app.focus = Focus::Preview;
        self.app
            .doc
            .as_ref()
            .is_some_and(|doc| !doc.highlighter.is_plain())
    }

    /// Puts the preview's cursor on `line` (0-based) and the screen around it, as a jump does.
    pub fn jump_to_line(&mut self, line: usize) {
        self.app.jump_to_line(line);
        self.app.follow_cursor();
        self.app.sync();
    }

    /// Draws the whole screen.
    pub fn draw(&self, frame: &mut ratatui::Frame) {
        crate::tui::view::draw(frame, &self.app);
    }

    /// The symbol picker as it stands.
    pub fn picker(&self) -> PickerState {
        let picker = &self.app.picker;
        PickerState {
            typed: picker.query.clone(),
            ranked: picker.ranking.query.clone(),
            rows: picker.ranking.rows.len(),
            matched: picker.ranking.matched,
            indexed: picker.ranking.indexed,
            files: picker.ranking.files,
            done: picker.ranking.done,
            selected: picker.selected().map(|row| row.qualname.clone()),
        }
    }

    /// Applies background messages until `done` holds for the picker; false if it does not
    /// within `limit`.
    pub fn wait_for_picker(
        &mut self,
        done: impl Fn(&PickerState) -> bool,
        limit: Duration,
    ) -> bool {
        let start = Instant::now();
        while !done(&self.picker()) {
            let left = limit.saturating_sub(start.elapsed());
            match self.app.jobs.recv_timeout(left) {
                Some(message) if !left.is_zero() => self.app.receive(message),
                _ => return false,
            }
        }
        self.app.pump();
        true
    }
}
