//! Syntax highlighting for the TUI's preview: bat's extended syntax and theme sets (through
//! the `two-face` crate) and a per-file [`Highlighter`] that colours only the lines asked for.
//! Theme names are known without loading anything; the syntax set (the slow part) loads on
//! first use, or on a thread of its own ([`load_in_background`]) so that the viewer's first
//! frame never waits for it.
//!
//! Parsing a 100,000-line file in full takes seconds, so the highlighter keeps syntect's parse
//! state at a checkpoint every [`CHECKPOINT`] lines and caches coloured lines. A jump far past
//! the last checkpoint starts from a fresh state a little above the target instead of parsing
//! everything before it (approximate for constructs open across the gap, never slow). Lines
//! over [`MAX_LINE`] bytes and files over [`MAX_FILE`] bytes stay plain.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::OnceLock;
use syntect::highlighting::{HighlightIterator, HighlightState, Style, Theme};
use syntect::parsing::{ParseState, ScopeStack, SyntaxReference, SyntaxSet};

/// Lines between saved parse states.
pub const CHECKPOINT: usize = 1000;
/// Lines longer than this are shown plain (as bat does).
pub const MAX_LINE: usize = 16 * 1024;
/// Files larger than this are shown plain.
pub const MAX_FILE: usize = 8 * 1024 * 1024;
/// A jump further than this past the last checkpoint starts from a fresh state.
const FAR: usize = 5 * CHECKPOINT;
/// Lines parsed above a far target so that most constructs are open when it starts.
const WARMUP: usize = 100;
/// Cached lines kept before the cache is dropped and refilled.
const CACHE_LINES: usize = 20_000;
/// The theme used without `--theme`.
pub const DEFAULT_THEME: &str = "Monokai Extended";

/// One coloured run of a line: its style and byte range.
pub type Span = (Style, Range<usize>);

/// The theme used without `--theme` on a light terminal.
pub const DEFAULT_LIGHT_THEME: &str = "Monokai Extended Light";

fn themes() -> &'static two_face::theme::LazyThemeSet {
    static THEMES: OnceLock<two_face::theme::LazyThemeSet> = OnceLock::new();
    THEMES.get_or_init(|| two_face::theme::LazyThemeSet::from(two_face::theme::extra()))
}

static SYNTAXES: OnceLock<SyntaxSet> = OnceLock::new();

/// The syntax definitions, loaded on first use (tens of milliseconds: the viewer loads them
/// on a thread of its own with [`load_in_background`] and colours once they are ready).
fn syntaxes() -> &'static SyntaxSet {
    SYNTAXES.get_or_init(two_face::syntax::extra_no_newlines)
}

/// Loads the syntax definitions now, on this thread, if they are not loaded yet.
pub fn load_now() {
    syntaxes();
}

/// Whether the syntax definitions are loaded (so that looking a syntax up costs nothing).
pub fn syntaxes_ready() -> bool {
    SYNTAXES.get().is_some()
}

/// Loads the syntax definitions on a new thread, compiles the patterns of `first_file`'s
/// syntax (a Markdown file's take longer than the load itself), then calls `ready`.
pub fn load_in_background(
    first_file: Option<std::path::PathBuf>,
    ready: impl FnOnce() + Send + 'static,
) {
    std::thread::spawn(move || {
        let set = syntaxes();
        let first = first_file
            .as_deref()
            .and_then(|path| Some((path, head(path)?)));
        if let Some((path, text)) = first {
            if let Some(syntax) =
                syntax_for(path, crate::parse::iter_lines(&text).next().unwrap_or(""))
            {
                if start_warming(syntax, None) {
                    warm_up(set, syntax, &text);
                    finish_warming(syntax);
                }
            }
        }
        ready();
    });
}

/// Called when a syntax's patterns are compiled.
type Waiter = Box<dyn FnOnce() + Send>;

/// How far a syntax's patterns are compiled.
enum Warmth {
    /// On a thread; these are called when it is done.
    Warming(Vec<Waiter>),
    Warm,
}

/// Every syntax whose patterns were asked for, by name.
fn warming() -> &'static std::sync::Mutex<HashMap<String, Warmth>> {
    static WARMING: OnceLock<std::sync::Mutex<HashMap<String, Warmth>>> = OnceLock::new();
    WARMING.get_or_init(Default::default)
}

/// Whether `syntax`'s patterns are compiled, so that colouring a screen of it is quick.
pub fn is_warm(syntax: &SyntaxReference) -> bool {
    warming()
        .lock()
        .is_ok_and(|w| matches!(w.get(&syntax.name), Some(Warmth::Warm)))
}

/// Compiles `syntax`'s patterns on a thread (once per syntax), with the first lines of
/// `path` as the sample, then calls `ready`. When they are being compiled already, `ready`
/// is called once that ends; when they are compiled, at once. Every caller is told: two
/// viewers (or a viewer and the start-up load) asking for one syntax both hear back.
pub fn warm_in_background(
    syntax: &'static SyntaxReference,
    path: &std::path::Path,
    ready: impl FnOnce() + Send + 'static,
) {
    if !start_warming(syntax, Some(Box::new(ready))) {
        return;
    }
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        let text = head(&path).unwrap_or_default();
        warm_up(syntaxes(), syntax, &text);
        finish_warming(syntax);
    });
}

/// Marks `syntax` as being compiled and returns `true` when no one compiles it yet (the
/// caller then does). Otherwise `ready` waits for the compiler, or is called now when the
/// patterns are compiled already.
fn start_warming(syntax: &SyntaxReference, ready: Option<Waiter>) -> bool {
    let Ok(mut states) = warming().lock() else {
        return false;
    };
    match states.get_mut(&syntax.name) {
        Some(Warmth::Warming(waiters)) => {
            waiters.extend(ready);
            false
        }
        Some(Warmth::Warm) => {
            drop(states);
            ready.into_iter().for_each(|ready| ready());
            false
        }
        None => {
            states.insert(
                syntax.name.clone(),
                Warmth::Warming(ready.into_iter().collect()),
            );
            true
        }
    }
}

/// Marks `syntax` as compiled and calls everyone who waited for it (outside the lock).
fn finish_warming(syntax: &SyntaxReference) {
    let waiters = match warming().lock() {
        Ok(mut states) => match states.insert(syntax.name.clone(), Warmth::Warm) {
            Some(Warmth::Warming(waiters)) => waiters,
            _ => Vec::new(),
        },
        Err(_) => Vec::new(),
    };
    waiters.into_iter().for_each(|ready| ready());
}

/// The first 16 KB of `path`, lossily decoded; `None` unless it is a readable regular file.
fn head(path: &std::path::Path) -> Option<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    // Only a regular file: opening a FIFO waits for a writer, and this thread would never end
    // (nor would every later wait for the same syntax).
    let (file, _) = crate::source::open_regular(path, None).ok()?;
    file.take(16 * 1024).read_to_end(&mut bytes).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// Parses the first lines of `text` as `syntax` and throws the result away, so that the
/// patterns they need are compiled before the viewer asks for them.
fn warm_up(set: &SyntaxSet, syntax: &SyntaxReference, text: &str) {
    let mut parse = ParseState::new(syntax);
    for line in crate::parse::iter_lines(text).take(200) {
        let _ = parse.parse_line(line, set);
    }
}

/// The theme called `name` (exact, then case-insensitive), if there is one.
pub fn theme(name: &str) -> Option<Theme> {
    let themes = themes();
    let exact = themes.get(name);
    let found = exact.or_else(|| {
        let real = themes
            .theme_names()
            .find(|known| known.eq_ignore_ascii_case(name))?;
        themes.get(real)
    });
    found.cloned()
}

/// The names `--theme` accepts (known without loading any theme).
pub fn theme_names() -> Vec<&'static str> {
    two_face::theme::EmbeddedLazyThemeSet::theme_names()
        .iter()
        .map(|name| name.as_name())
        .collect()
}

/// The known theme called `name` (case-insensitively), spelled as the theme set spells it.
pub fn known_theme(name: &str) -> Option<&'static str> {
    theme_names()
        .into_iter()
        .find(|known| known.eq_ignore_ascii_case(name))
}

/// The syntax for a file: by extension, by file name, by its first line, then by the
/// language outliner reads it as (`.bats` is shell, `.rockspec` Lua), through that language's
/// extensions.
pub fn syntax_for(path: &std::path::Path, first_line: &str) -> Option<&'static SyntaxReference> {
    let set = syntaxes();
    let by_ext = path
        .extension()
        .and_then(|e| e.to_str())
        .and_then(|e| set.find_syntax_by_extension(e));
    let by_name = || {
        path.file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| set.find_syntax_by_extension(n))
    };
    let by_language = || {
        let language = crate::lang::detect_with_head(path, first_line.as_bytes())?;
        language
            .row()
            .extensions
            .iter()
            .find_map(|ext| set.find_syntax_by_extension(ext))
    };
    by_ext
        .or_else(by_name)
        .or_else(|| set.find_syntax_by_first_line(first_line))
        .or_else(by_language)
}

/// Colours the lines of one file on demand, remembering parse states and results.
pub struct Highlighter {
    syntax: Option<&'static SyntaxReference>,
    theme: Theme,
    checkpoints: Vec<(ParseState, HighlightState)>,
    /// Where a parse that ran out of time stopped: the next line, the states before it and
    /// whether they are exact, so that the next call goes on from there.
    resume: Option<(usize, ParseState, HighlightState, bool)>,
    cache: HashMap<usize, Vec<Span>>,
}

impl Highlighter {
    /// A highlighter for a file; `None` syntax (or a file over [`MAX_FILE`]) means plain text.
    pub fn new(syntax: Option<&'static SyntaxReference>, theme: Theme, bytes: usize) -> Self {
        let syntax = syntax.filter(|_| bytes <= MAX_FILE);
        Highlighter {
            syntax,
            theme,
            checkpoints: Vec::new(),
            resume: None,
            cache: HashMap::new(),
        }
    }

    /// The theme's default style (plain text, background).
    pub fn theme(&self) -> &Theme {
        &self.theme
    }

    pub fn is_plain(&self) -> bool {
        self.syntax.is_none()
    }

    /// The cached spans of 0-based line `index`, if it has been highlighted.
    pub fn cached(&self, index: usize) -> Option<&[Span]> {
        self.cache.get(&index).map(Vec::as_slice)
    }

    /// Highlights lines `range` (0-based) unless cached; `line(i)` gives line `i`'s text.
    #[cfg(test)]
    pub fn prepare<'a>(&mut self, range: Range<usize>, line: impl Fn(usize) -> Option<&'a str>) {
        self.prepare_within(range, line, None);
    }

    /// As [`Highlighter::prepare`], stopping once `budget` is spent (a line far into a file
    /// needs every line above it parsed: at a few thousand lines a second, a key must not wait
    /// for that). Returns whether every line of `range` is coloured; if not, the next call
    /// goes on where this one stopped, and the lines not coloured yet are drawn plain.
    pub fn prepare_within<'a>(
        &mut self,
        range: Range<usize>,
        line: impl Fn(usize) -> Option<&'a str>,
        budget: Option<std::time::Duration>,
    ) -> bool {
        let Some(syntax) = self.syntax else {
            return true;
        };
        let wanted = |i: &usize| line(*i).is_some();
        if self.cache.len() > CACHE_LINES {
            self.cache.clear();
        }
        // Parsing starts at or above the first line still to colour, not the range's first:
        // a parse that stopped inside the range resumes there, where restarting above the
        // range could spend every call's budget again on the same lines and never get further.
        let Some(first_missing) = range
            .clone()
            .filter(wanted)
            .find(|i| !self.cache.contains_key(i))
        else {
            return true;
        };
        let started = std::time::Instant::now();
        let (mut at, mut parse, mut state, exact) = self.start_for(first_missing, syntax);
        let highlighter = syntect::highlighting::Highlighter::new(&self.theme);
        let set = syntaxes();
        let mut parsed = 0;
        while at < range.end {
            // A few lines at least, so that every call gets somewhere.
            if parsed >= 16 && budget.is_some_and(|budget| started.elapsed() >= budget) {
                self.resume = Some((at, parse, state, exact));
                return false;
            }
            let Some(text) = line(at) else { break };
            if exact && at % CHECKPOINT == 0 && at / CHECKPOINT == self.checkpoints.len() {
                self.checkpoints.push((parse.clone(), state.clone()));
            }
            let spans = if text.len() > MAX_LINE {
                vec![(Style::default(), 0..text.len())]
            } else {
                let ops = parse.parse_line(text, set).unwrap_or_default();
                spans_of(
                    HighlightIterator::new(&mut state, &ops, text, &highlighter),
                    text,
                )
            };
            if at >= range.start {
                self.cache.insert(at, spans);
            }
            at += 1;
            parsed += 1;
        }
        true
    }

    /// Where to start parsing for line `target`: the line, parse state, highlight state, and
    /// whether that state is exact (reached from line 1). Where a parse that ran out of time
    /// stopped is taken when it is nearer than any checkpoint.
    fn start_for(
        &mut self,
        target: usize,
        syntax: &SyntaxReference,
    ) -> (usize, ParseState, HighlightState, bool) {
        let start = self.checkpoint_for(target, syntax);
        match self.resume.take() {
            Some(resume) if resume.0 <= target && resume.0 > start.0 => resume,
            _ => start,
        }
    }

    /// The nearest checkpoint at or above `target`, or a fresh state above it when the last
    /// checkpoint is too far.
    fn checkpoint_for(
        &mut self,
        target: usize,
        syntax: &SyntaxReference,
    ) -> (usize, ParseState, HighlightState, bool) {
        let wanted = target / CHECKPOINT;
        if let Some((parse, state)) = self.checkpoints.get(wanted) {
            return (wanted * CHECKPOINT, parse.clone(), state.clone(), true);
        }
        let reached = self.checkpoints.len().saturating_sub(1) * CHECKPOINT;
        if target.saturating_sub(reached) <= FAR {
            if let Some((parse, state)) = self.checkpoints.last() {
                return (reached, parse.clone(), state.clone(), true);
            }
            let (parse, state) = self.fresh(syntax);
            return (0, parse, state, true);
        }
        let (parse, state) = self.fresh(syntax);
        (target.saturating_sub(WARMUP), parse, state, false)
    }

    fn fresh(&self, syntax: &SyntaxReference) -> (ParseState, HighlightState) {
        let highlighter = syntect::highlighting::Highlighter::new(&self.theme);
        (
            ParseState::new(syntax),
            HighlightState::new(&highlighter, ScopeStack::new()),
        )
    }
}

/// Turns syntect's `(style, text)` pieces into byte ranges of `line`.
fn spans_of<'a>(pieces: impl Iterator<Item = (Style, &'a str)>, line: &str) -> Vec<Span> {
    let mut at = 0;
    let mut spans = Vec::new();
    for (style, piece) in pieces {
        let end = (at + piece.len()).min(line.len());
        spans.push((style, at..end));
        at = end;
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_warm_up_never_waits_on_a_fifo() {
        // Was: the sample was read with a plain open, which waits for a writer on a FIFO: the
        // thread never ended, and neither did any wait for colours in that syntax.
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("pipe.erl");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("note: mkfifo failed; skipping the FIFO test");
            return;
        }
        let syntax = syntaxes().find_syntax_by_extension("erl").expect("erlang");
        let (tx, rx) = std::sync::mpsc::channel();
        warm_in_background(syntax, &fifo, move || {
            let _ = tx.send(());
        });
        assert!(rx.recv_timeout(std::time::Duration::from_secs(30)).is_ok());
    }

    #[test]
    fn everyone_who_asks_for_a_warm_up_hears_back() {
        // Was: a second viewer asking while the first one's warm-up ran was never told, and
        // waited for colours forever.
        let syntax = syntaxes().find_syntax_by_extension("rb").expect("ruby");
        let (tx, rx) = std::sync::mpsc::channel();
        let path = std::path::Path::new("no/such/file.rb");
        for asker in 0..3 {
            let tx = tx.clone();
            warm_in_background(syntax, path, move || {
                let _ = tx.send(asker);
            });
        }
        let mut heard: Vec<i32> = (0..3)
            .filter_map(|_| rx.recv_timeout(std::time::Duration::from_secs(30)).ok())
            .collect();
        heard.sort_unstable();
        assert_eq!(heard, [0, 1, 2]);
        assert!(is_warm(syntax));
    }
    use std::path::Path;

    #[test]
    fn every_language_the_outline_reads_is_highlighted() {
        let mut missing = Vec::new();
        for row in &crate::lang::LANGUAGES {
            for ext in row.extensions {
                let path = format!("x.{ext}");
                if syntax_for(Path::new(&path), "").is_none() {
                    missing.push(path);
                }
            }
        }
        assert!(missing.is_empty(), "no syntax for {missing:?}");
    }

    #[test]
    fn scripts_are_highlighted_by_extension_or_first_line() {
        let cases = [
            ("a.sh", "", "Bourne Again Shell (bash)"),
            ("t.bats", "", "Bourne Again Shell (bash)"),
            (
                "bin/deploy",
                "#!/usr/bin/env bash",
                "Bourne Again Shell (bash)",
            ),
            ("init.lua", "", "Lua"),
            ("x-1.0.rockspec", "", "Lua"),
            ("bin/tool", "#!/usr/bin/env lua5.4", "Lua"),
        ];
        for (path, first, want) in cases {
            let syntax = syntax_for(Path::new(path), first).map(|s| s.name.as_str());
            assert_eq!(syntax, Some(want), "{path}");
        }
    }

    fn lines(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("x_{i} = \"s{i}\"  # c")).collect()
    }

    #[test]
    fn highlights_viewport_and_keeps_checkpoints() {
        let text = lines(12_000);
        let syntax = syntax_for(Path::new("a.py"), "");
        assert!(syntax.is_some());
        let theme = theme(DEFAULT_THEME).expect("default theme exists");
        let mut h = Highlighter::new(syntax, theme, 1000);
        let get = |i: usize| text.get(i).map(String::as_str);
        h.prepare(2500..2550, get);
        assert_eq!(h.checkpoints.len(), 3);
        let spans = h.cached(2500).expect("cached");
        assert!(spans.len() > 2, "{spans:?}");
        assert_eq!(spans.last().map(|s| s.1.end), Some(text[2500].len()));
        // Far jump: no checkpoints past the gap, but the lines are coloured.
        h.prepare(11_000..11_050, get);
        assert_eq!(h.checkpoints.len(), 3);
        assert!(h.cached(11_049).is_some());
        assert!(h.cached(12_000).is_none());
    }

    #[test]
    fn a_time_budget_colours_a_far_line_over_several_calls() {
        let text = lines(3_000);
        let syntax = syntax_for(Path::new("a.py"), "");
        let theme = theme(DEFAULT_THEME).expect("default theme exists");
        let mut whole = Highlighter::new(syntax, theme.clone(), 1000);
        let get = |i: usize| text.get(i).map(String::as_str);
        whole.prepare(2_500..2_510, get);
        let mut h = Highlighter::new(syntax, theme, 1000);
        let budget = Some(std::time::Duration::from_micros(200));
        let mut calls = 0;
        while !h.prepare_within(2_500..2_510, get, budget) {
            calls += 1;
            assert!(calls < 100_000, "no progress");
        }
        assert!(calls > 1, "the work was split");
        for i in 2_500..2_510 {
            assert_eq!(h.cached(i), whole.cached(i), "the same colours at line {i}");
        }
        assert_eq!(h.checkpoints.len(), 3, "checkpoints kept on the way");
        assert!(h.prepare_within(2_500..2_510, get, budget));
    }

    /// A range taller than one call's work, far below a checkpoint: each call goes on where
    /// the last stopped inside the range (restarting above it lived-locked the viewer's
    /// colouring loop, with every call parsing the same lines).
    #[test]
    fn a_range_taller_than_one_call_is_coloured_over_calls() {
        let text = lines(3_000);
        let syntax = syntax_for(Path::new("a.py"), "");
        let theme = theme(DEFAULT_THEME).expect("default theme exists");
        let mut whole = Highlighter::new(syntax, theme.clone(), 1000);
        let get = |i: usize| text.get(i).map(String::as_str);
        whole.prepare(2_500..2_540, get);
        let mut h = Highlighter::new(syntax, theme, 1000);
        h.prepare(0..2_001, get);
        // A zero budget parses the 16 lines every call makes.
        let budget = Some(std::time::Duration::ZERO);
        let mut calls = 0;
        while !h.prepare_within(2_500..2_540, get, budget) {
            calls += 1;
            assert!(calls < 200, "no progress after {calls} calls");
        }
        for i in 2_500..2_540 {
            assert_eq!(h.cached(i), whole.cached(i), "the same colours at line {i}");
        }
    }

    #[test]
    fn long_lines_big_files_and_unknown_syntax_are_plain() {
        let long = "a".repeat(MAX_LINE + 1);
        let theme = theme("base16").expect("case-insensitive lookup");
        let syntax = syntax_for(Path::new("a.rs"), "");
        let mut h = Highlighter::new(syntax, theme.clone(), 10);
        h.prepare(0..1, |_| Some(long.as_str()));
        assert_eq!(h.cached(0).map(<[Span]>::len), Some(1));
        assert!(Highlighter::new(syntax, theme.clone(), MAX_FILE + 1).is_plain());
        assert!(syntax_for(Path::new("x.unknownext"), "").is_none());
        assert!(Highlighter::new(None, theme, 10).is_plain());
        assert!(super::theme("no such theme").is_none());
        assert_eq!(
            known_theme("monokai extended light"),
            Some(DEFAULT_LIGHT_THEME)
        );
        assert!(theme_names().contains(&DEFAULT_THEME));
        assert!(super::theme(DEFAULT_LIGHT_THEME).is_some());
        // A syntax no other test opens, so that nothing else warms it meanwhile.
        let haskell = syntax_for(Path::new("x.hs"), "").expect("haskell");
        assert!(!is_warm(haskell));
        let (tx, rx) = std::sync::mpsc::channel();
        warm_in_background(haskell, Path::new("/no/such/file.hs"), move || {
            let _ = tx.send(());
        });
        assert!(rx.recv_timeout(std::time::Duration::from_secs(20)).is_ok());
        assert!(is_warm(haskell));
    }
}
