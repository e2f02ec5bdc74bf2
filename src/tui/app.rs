//! The TUI's state: focus, options, the three panes' states and the open document. No drawing
//! code lives here; `action::update` is what changes it, with the helpers below.

use super::doc::{Doc, LoadOptions, ReadDoc};
use super::files::DirItem;
use super::jobs::{Cancel, Jobs, Message};
use super::jump::JumpList;
use super::layout::{self, Panes};
use super::picker::{Overlay, Picker, Results};
use super::rank::SymbolIndex;
use super::reach::{Reach, ReachStatus};
use super::tree::{Item, Tree};
use crate::config::{ColorChoice, Config};
use crate::git;
use crate::lang::Language;
use crate::outline::Kind;
use crate::search::Scope;
use crate::tokens::Tokenizer;
use crate::walk::WalkOptions;
use ratatui::layout::Rect;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use syntect::highlighting::Theme;

/// Which pane keys go to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    Dir,
    Outline,
    Preview,
}

/// How colours are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorMode {
    /// No colours: focus and selection by bold and reverse video.
    Mono,
    Ansi256,
    TrueColor,
}

impl ColorMode {
    /// Decides from `--color`, `NO_COLOR` and `COLORTERM` (passed in so tests stay hermetic).
    pub fn detect(choice: ColorChoice, no_color: bool, colorterm: Option<&str>) -> ColorMode {
        if choice == ColorChoice::Never || (choice == ColorChoice::Auto && no_color) {
            return ColorMode::Mono;
        }
        match colorterm {
            Some("truecolor" | "24bit") => ColorMode::TrueColor,
            _ => ColorMode::Ansi256,
        }
    }
}

/// Toggles the keys flip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    pub tokens: bool,
    pub diff: bool,
    pub hidden: bool,
    pub color: ColorMode,
    /// The terminal's background is light.
    pub light: bool,
}

/// One row of the outline pane: the entry facts it shows and jumps by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutlineItem {
    pub kind: Kind,
    /// Markdown heading level (1-6).
    pub level: Option<u8>,
    pub name: String,
    pub label: String,
    pub qualname: String,
    pub line: usize,
    pub end_line: usize,
    pub tokens: Option<usize>,
    pub changed: bool,
    /// The parser's nesting limit stopped here: entries inside are not outlined (print mode
    /// says the same from the same model field).
    pub nesting_cut: bool,
}

impl Item for OutlineItem {
    fn key(&self) -> &str {
        &self.name
    }
}

/// The preview's scroll position and cursor, as 0-based lines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Preview {
    pub top: usize,
    pub cursor: usize,
    /// Columns scrolled off the left edge (long lines).
    pub left: usize,
}

/// A file shown in the preview while a finder view is open: the selected symbol or hit, not
/// yet jumped to. `line..=end_line` (1-based) is marked.
pub struct Peek {
    pub doc: Doc,
    pub view: Preview,
    pub line: usize,
    pub end_line: usize,
}

/// Work the event loop must do outside `update` (it needs the terminal).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Open `$VISUAL`/`$EDITOR` on a file at a line, then reload.
    Edit(PathBuf, usize),
    /// Copy text to the clipboard with OSC 52.
    Copy(String),
    /// Stop the process (Ctrl-Z) and redraw when it continues.
    Suspend,
}

/// Reads and outlines a file; [`Doc::load`] unless a test supplies its own.
pub type Loader = fn(&Path, LoadOptions, Option<&git::Snapshot>) -> ReadDoc;

/// Everything the TUI knows.
pub struct App {
    pub root: PathBuf,
    /// `--lang`: every file parses as this language.
    pub language: Option<Language>,
    /// The encoding token counts use when they are on (`t`).
    pub tokenizer: Tokenizer,
    pub theme: Theme,
    pub focus: Focus,
    pub options: Options,
    pub dir: Tree<DirItem>,
    pub outline: Tree<OutlineItem>,
    pub doc: Option<Doc>,
    pub preview: Preview,
    /// The terminal area; the layout follows from it.
    pub area: Rect,
    /// Typing a filter for the focused tree.
    pub filtering: bool,
    pub help: bool,
    /// A one-line note for the status bar (errors, "copied").
    pub message: Option<String>,
    /// Why the tree is polled instead of watched, while it is ([`super::watch`]): the status
    /// bar says so.
    pub polled: Option<String>,
    pub effect: Option<Effect>,
    pub quit: bool,
    /// Git status of the root's repository, shared with background loads.
    pub snapshot: Option<Arc<git::Snapshot>>,
    pub loader: Loader,
    /// The directory `outline` was started in: `y` copies paths relative to it.
    pub cwd: PathBuf,
    /// `--glob` rules for the finder's walks.
    pub globs: Vec<String>,
    /// `--root`: links are followed and searches walk only inside it.
    pub confine: Option<PathBuf>,
    /// The finder view open over the left panes, and the state of each.
    pub overlay: Overlay,
    pub picker: Picker,
    pub results: Results,
    /// The definition index behind the picker, started the first time it opens.
    pub symbols: Option<SymbolIndex>,
    /// Stops the running text or references search.
    pub search_cancel: Option<Cancel>,
    /// What the preview shows while a finder view is open.
    pub peek: Option<Peek>,
    pub jumps: JumpList,
    /// The first key of a two-key command (`g`, `z`) waiting for its second.
    pub pending: Option<char>,
    /// The help overlay's first row shown.
    pub help_top: usize,
    /// Background work reports here.
    pub jobs: Jobs,
    /// The background load of the open file, if one is under way (its job number).
    pub loading: Option<u64>,
    /// The background load of the previewed file of a finder view, if one is under way.
    pub peek_loading: Option<u64>,
    /// The syntax assets are loading on a thread; the preview is coloured once they arrive.
    pub assets_pending: bool,
    /// A note for the first frame's status bar (a `BAT_THEME` that names no theme).
    pub note: Option<String>,
    /// Git status is being read on a thread.
    pub git_pending: bool,
    /// The walk that takes the directory filter below the listed directories, once started.
    pub reach: Option<Reach>,
    /// How far it has answered the directory filter.
    pub reached: ReachStatus,
    /// What a finder jump went to, checked against the file once it is read.
    pub expect: Option<super::refind::Expected>,
    /// The finder's query is the one kept from its last visit: the first key replaces it.
    pub replace_query: bool,
    /// The query line's cursor and the histories of every kind of query line.
    pub line: super::line::LineState,
    /// Where the preview was when moving through the outline began: Enter on an entry keeps
    /// it in the jump list, so Ctrl-O comes back to it (the moves themselves are not jumps).
    pub outline_from: Option<super::jump::Location>,
    /// The preview's lines on screen are not all coloured yet: [`App::sync`] goes on with
    /// them on the next turn of the event loop.
    pub colouring: bool,
    /// Background work not started yet (`None`: work starts at once).
    held: Option<Vec<Held>>,
    /// The loader lanes' threads, once started ([`Lane`](super::loading::Lane)).
    pub(crate) lanes: [Option<std::sync::mpsc::Sender<super::loading::LoadRequest>>; 2],
}

/// Background work waiting for the first frame.
type Held = Box<dyn FnOnce() + Send>;

/// Time spent colouring the preview per turn of the event loop: a screen far into a file
/// needs every line above it parsed, so it is coloured over several turns, keys in between.
const COLOUR_BUDGET: Duration = Duration::from_millis(6);

/// How much of a file is read on the key path for its first screen; the whole file is read
/// and outlined on a thread.
pub const HEAD_BYTES: usize = 64 * 1024;

impl App {
    /// An app showing `root`, without a file open yet.
    pub fn new(root: PathBuf, config: &Config, theme: Theme, color: ColorMode) -> App {
        App::build(root, config, theme, color, None)
    }

    /// The same, with its first background threads (git status, reading the file opened,
    /// syntax assets) held until [`App::release_held`]: the viewer releases them once the
    /// first frame is drawn, so that on a busy machine they do not slow it down.
    pub fn holding_threads(root: PathBuf, config: &Config, theme: Theme, color: ColorMode) -> App {
        App::build(root, config, theme, color, Some(Vec::new()))
    }

    fn build(
        root: PathBuf,
        config: &Config,
        theme: Theme,
        color: ColorMode,
        held: Option<Vec<Held>>,
    ) -> App {
        let options = Options {
            tokens: config.tokens.is_some(),
            diff: true,
            hidden: config.hidden,
            color,
            light: false,
        };
        let dir = Tree::new(Vec::new(), 1);
        let mut app = App {
            root,
            language: config.language,
            tokenizer: config.tokens.unwrap_or_default(),
            theme,
            focus: Focus::Dir,
            options,
            dir,
            outline: Tree::new(Vec::new(), 1),
            doc: None,
            preview: Preview::default(),
            area: Rect::new(0, 0, 120, 40),
            filtering: false,
            help: false,
            message: None,
            polled: None,
            effect: None,
            quit: false,
            snapshot: None,
            loader: Doc::load,
            cwd: crate::source::resolve(Path::new(".")),
            globs: config.globs.clone(),
            confine: config.root.clone(),
            overlay: Overlay::None,
            picker: Picker::default(),
            results: Results::default(),
            symbols: None,
            search_cancel: None,
            peek: None,
            jumps: JumpList::default(),
            pending: None,
            help_top: 0,
            jobs: Jobs::default(),
            loading: None,
            peek_loading: None,
            assets_pending: false,
            note: None,
            git_pending: false,
            reach: None,
            reached: ReachStatus::default(),
            expect: None,
            replace_query: false,
            line: Default::default(),
            outline_from: None,
            colouring: false,
            held,
            lanes: [None, None],
        };
        app.list_root();
        app.refresh_git();
        app
    }

    /// Reads git status on a thread (a large work tree takes a while): the panes show at
    /// once, and change markers appear when it arrives ([`Message::Git`]).
    pub fn refresh_git(&mut self) {
        self.git_pending = true;
        let (root, tx) = (self.root.clone(), self.jobs.tx.clone());
        self.background(move || {
            let _ = tx.send(Message::Git(git::snapshot(&root).ok().map(Arc::new)));
        });
    }

    /// Runs `work` on a thread of its own, now or (before the first frame) once it is drawn.
    pub fn background(&mut self, work: impl FnOnce() + Send + 'static) {
        match &mut self.held {
            Some(held) => held.push(Box::new(work)),
            None => {
                std::thread::spawn(work);
            }
        }
    }

    /// Starts the background work held for the first frame; from now on work starts at once.
    pub fn release_held(&mut self) {
        for work in self.held.take().into_iter().flatten() {
            std::thread::spawn(work);
        }
    }

    /// Marks the listed directory rows from the git status now known.
    pub(crate) fn mark_changes(&mut self) {
        let snapshot = self.snapshot.clone();
        for index in 0..self.dir.nodes().len() {
            let Some(item) = self.dir.item_mut(index) else {
                continue;
            };
            let path = item.path.clone();
            item.changed = snapshot.as_ref().is_some_and(|s| match item.is_dir {
                true => item.link.is_none() && s.has_changes_under(&path),
                false => s.is_changed(&path),
            });
        }
    }

    /// What keys mean now: typing into a finder or a filter, completing a two-key command,
    /// or commands.
    pub fn key_mode(&self) -> super::keys::KeyMode {
        use super::keys::KeyMode;
        if self.overlay != Overlay::None {
            KeyMode::Input
        } else if self.filtering {
            KeyMode::Filter
        } else if let Some(first) = self.pending {
            KeyMode::Prefix(first)
        } else {
            KeyMode::Normal
        }
    }

    /// The walk a finder makes: the viewer's root with its hidden-file and glob settings;
    /// `any_language` for text search, which reads files without a parser too.
    pub fn scope(&self, any_language: bool) -> Scope {
        Scope {
            paths: vec![self.root.clone()],
            walk: self.walk_options(any_language),
            no_tests: false,
            root: self.confine.clone(),
        }
    }

    /// The walk rules of the directory pane and the finders.
    pub fn walk_options(&self, any_language: bool) -> WalkOptions {
        WalkOptions {
            hidden: self.options.hidden,
            only: None,
            globs: self.globs.clone(),
            any_language,
            no_parent_ignores: self.confine.is_some(),
            confine: self.confine.clone(),
            // As the search modes: a lock file is searched; the pane lists everything.
            skip_lock_files: false,
        }
    }

    /// The pane layout for the current size.
    pub fn panes(&self) -> Panes {
        layout::panes(self.area)
    }

    /// Columns inside the preview pane.
    pub fn preview_width(&self) -> usize {
        self.panes().preview.width.saturating_sub(2) as usize
    }

    /// Rows of text the preview shows.
    pub fn preview_height(&self) -> usize {
        layout::inner_height(self.panes().preview).max(1)
    }

    /// The root folder's name, as the directory pane's title shows it.
    pub fn root_name(&self) -> String {
        self.root
            .canonicalize()
            .unwrap_or_else(|_| self.root.clone())
            .file_name()
            .map_or_else(
                || self.root.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
    }

    /// Whether the directory pane is shown at the current size.
    pub fn dir_visible(&self) -> bool {
        self.panes().dir.is_some()
    }

    /// Moves the preview so that 0-based `line` is at the top, with the cursor on it.
    pub fn jump_to_line(&mut self, line: usize) {
        self.preview.top = line;
        self.preview.cursor = line;
        self.clamp_preview();
    }

    /// Scrolls the preview to the selected outline entry's first line.
    pub fn jump_to_selected(&mut self) {
        if let Some(line) = self.outline.selected().map(|n| n.item.line) {
            self.jump_to_line(line.saturating_sub(1));
        }
    }

    /// Selects the deepest outline entry holding the preview's cursor (parents opened).
    pub fn follow_cursor(&mut self) {
        let line = self.preview.cursor + 1;
        let deepest = self
            .outline
            .nodes()
            .iter()
            .enumerate()
            .filter(|(_, n)| n.item.line <= line && line <= n.item.end_line)
            .max_by_key(|(_, n)| n.depth)
            .map(|(i, _)| i);
        if let Some(index) = deepest {
            if self.outline.filter_query().is_none() {
                self.outline.select(index);
            }
        }
    }

    /// The widest line on screen in the preview, in characters (sideways scrolling stops
    /// there).
    pub fn widest_line(&self) -> usize {
        let Some(doc) = &self.doc else { return 0 };
        let top = self.preview.top;
        (top..top + self.preview_height())
            .filter_map(|i| doc.line(i))
            .map(|line| line.chars().count())
            .max()
            .unwrap_or(0)
    }

    /// Keeps the preview's cursor and top inside the file and the cursor on screen.
    pub fn clamp_preview(&mut self) {
        // While only the first screen is read, a jump's line may lie past it: it is kept,
        // and shown once the whole file arrives.
        if self.doc.as_ref().is_some_and(|d| d.loading) {
            return;
        }
        let lines = self.doc.as_ref().map_or(0, Doc::line_count);
        let height = self.preview_height();
        let last = lines.saturating_sub(1);
        self.preview.cursor = self.preview.cursor.min(last);
        if self.preview.cursor < self.preview.top {
            self.preview.top = self.preview.cursor;
        } else if self.preview.cursor >= self.preview.top + height {
            self.preview.top = self.preview.cursor + 1 - height;
        }
        // The top may pass the last screenful so that a jump always puts its line at the top.
        self.preview.top = self.preview.top.min(last);
        self.preview.top = self.preview.top.min(self.preview.cursor);
    }

    /// Brings scroll offsets in line with selections and colours the visible preview lines.
    pub fn sync(&mut self) {
        let panes = self.panes();
        if let Some(dir) = panes.dir {
            self.dir.scroll_into_view(layout::inner_height(dir));
        }
        self.outline
            .scroll_into_view(layout::inner_height(panes.outline));
        self.clamp_preview();
        let top = self.preview.top;
        let height = self.preview_height();
        // Colours wait for the whole warm-up (assets loaded and the first file's patterns
        // compiled), so that no frame waits on it.
        let colour = !self.assets_pending;
        let mut cold = Vec::new();
        let mut coloured = true;
        if let Some(doc) = &mut self.doc {
            if colour {
                cold.extend(doc.colour_when_ready().map(|s| (s, doc.path.clone())));
            }
            coloured &= doc.prepare(top..top + height, Some(COLOUR_BUDGET));
        }
        let list = super::finder::list_height(self) as usize;
        let rows = self.picker.ranking.rows.len();
        self.picker.cursor.clamp(rows, list);
        let noted = usize::from(self.results.note.is_some());
        let rows = self.results.rows.len();
        self.results.cursor.clamp(rows, list.saturating_sub(noted));
        if let Some(peek) = self.peek.as_mut().filter(|_| self.overlay != Overlay::None) {
            let top = peek.view.top;
            if colour {
                let doc = &mut peek.doc;
                cold.extend(doc.colour_when_ready().map(|s| (s, doc.path.clone())));
            }
            coloured &= peek.doc.prepare(top..top + height, Some(COLOUR_BUDGET));
        }
        self.colouring = !coloured;
        for (syntax, path) in cold {
            self.assets_pending = true;
            let tx = self.jobs.tx.clone();
            crate::highlight::warm_in_background(syntax, &path, move || {
                let _ = tx.send(Message::AssetsReady);
            });
        }
    }

    /// `path` as the user would type it in the directory `outline` was started in: relative
    /// below it, absolute elsewhere.
    pub fn path_from_cwd(&self, path: &Path) -> PathBuf {
        let absolute = crate::source::resolve(path);
        match absolute.strip_prefix(&self.cwd) {
            Ok(rel) if !rel.as_os_str().is_empty() => rel.to_path_buf(),
            _ => absolute,
        }
    }

    /// `path:line` of the selection, for copying and for the editor.
    pub fn location(&self) -> Option<(PathBuf, usize)> {
        // (The path as loaded; `copy_text` rewrites it for the clipboard.)
        let doc = self.doc.as_ref()?;
        let line = match self.focus {
            Focus::Preview => self.preview.cursor + 1,
            _ => self.outline.selected().map_or(1, |n| n.item.line),
        };
        Some((doc.path.clone(), line))
    }
}

/// The outline row for an entry.
pub fn outline_item(entry: &crate::outline::Entry) -> OutlineItem {
    OutlineItem {
        kind: entry.kind,
        level: entry.level,
        name: entry.name().to_string(),
        label: entry.label().to_string(),
        qualname: entry.qualname().to_string(),
        line: entry.line,
        end_line: entry.end_line,
        tokens: entry.tokens.map(|tokens| tokens as usize),
        changed: entry.changed,
        nesting_cut: entry.truncated == Some(crate::outline::Truncation::MaxNesting),
    }
}
