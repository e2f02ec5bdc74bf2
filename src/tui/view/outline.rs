//! The outline pane: the open file's entries as a collapsible tree with kind, label, start
//! line, and token counts and changed markers when those are on.

use super::{draw_tree, pane_block, title, tree_prefix, Palette};
use crate::outline::Kind;
use crate::parse::thousands;
use crate::sanitize::name_for_terminal;
use crate::tui::app::{App, Focus, OutlineItem};
use crate::tui::tree::Node;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;
use unicode_truncate::UnicodeTruncateStr;
use unicode_width::UnicodeWidthStr;

/// Draws the outline pane in `rect`.
pub fn draw(frame: &mut Frame, app: &App, rect: Rect, palette: &Palette) {
    let focused = app.focus == Focus::Outline;
    let block = pane_block(
        title("Outline", app, Focus::Outline, app.outline.filter_query()),
        focused,
        palette,
    );
    if app.outline.is_empty() {
        let note = match &app.doc {
            None => "Open a file: Enter in the directory pane".to_string(),
            Some(doc) if doc.error.is_some() => {
                name_for_terminal(doc.error.as_deref().unwrap_or_default()).into_owned()
            }
            Some(doc) if doc.loading => "reading the file…".to_string(),
            Some(doc) if doc.binary => "binary file".to_string(),
            Some(doc) if doc.outline.is_none() => "no parser for this file".to_string(),
            Some(_) => "(no outline entries)".to_string(),
        };
        frame.render_widget(Paragraph::new(note).style(palette.dim()).block(block), rect);
        return;
    }
    let width = rect.width.saturating_sub(2) as usize;
    let columns = Columns::of(app);
    draw_tree(
        frame,
        &app.outline,
        rect,
        block,
        focused,
        palette,
        |index, node| row(app, index, node, width, &columns, palette),
    );
}

/// The number columns at the right of every row, as wide as their widest entry, so that line
/// numbers and token counts line up and read at a glance: `  1,204  ~3,400 tok`.
struct Columns {
    line: usize,
    /// The token count's width with its estimate mark (0: counts are off).
    tokens: usize,
    mark: &'static str,
    /// Some row has a changed marker: every row keeps its column, so the numbers line up.
    marker: bool,
}

/// The unit after a token count: the status bar says "tokens".
const TOKEN_UNIT: &str = " tok";

impl Columns {
    fn of(app: &App) -> Columns {
        let nodes = app.outline.nodes();
        let widest = |n: usize| thousands(n).len();
        let line = nodes.iter().map(|n| widest(n.item.line)).max().unwrap_or(1);
        let encoding = app
            .doc
            .as_ref()
            .and_then(|doc| doc.outline.as_ref()?.tokens);
        let mark = encoding.map_or("~", |(_, encoding)| crate::tokens::estimate_mark(encoding));
        let tokens = match app.options.tokens {
            false => 0,
            true => nodes
                .iter()
                .filter_map(|n| n.item.tokens)
                .map(|t| widest(t) + mark.len())
                .max()
                .unwrap_or(0),
        };
        let marker = app.options.diff && nodes.iter().any(|n| n.item.changed);
        Columns {
            line,
            tokens,
            mark,
            marker,
        }
    }

    /// The columns' spans for `item`, and their width.
    fn spans(&self, item: &OutlineItem, palette: &Palette) -> (Vec<Span<'static>>, usize) {
        let mut spans = vec![Span::styled(
            format!(" {:>w$}", thousands(item.line), w = self.line),
            palette.dim(),
        )];
        let mut width = 1 + self.line;
        if self.tokens > 0 {
            let count = match item.tokens {
                Some(tokens) => format!("{}{}", self.mark, thousands(tokens)),
                None => String::new(),
            };
            spans.push(Span::raw(format!(" {count:>w$}", w = self.tokens)));
            spans.push(Span::styled(TOKEN_UNIT, palette.dim()));
            width += 1 + self.tokens + TOKEN_UNIT.len();
        }
        (spans, width)
    }
}

/// One outline row: fold marker, signature (or kind tag and name), line, tokens, marker.
fn row(
    app: &App,
    index: usize,
    node: &Node<OutlineItem>,
    width: usize,
    columns: &Columns,
    palette: &Palette,
) -> Line<'static> {
    let item = &node.item;
    let prefix = tree_prefix(node, app.outline.shows_children(index));
    let (numbers, numbers_width) = columns.spans(item, palette);
    let marker = item.changed && app.options.diff;
    // Where the parser's nesting limit cut the tree, the row says so (as print mode does).
    let fixed = prefix.width() + numbers_width + if columns.marker { 2 } else { 0 };
    let cut = match item.nesting_cut {
        false => "",
        // The longest note that leaves the name its room.
        true => {
            let wanted = item.name.chars().count().min(16) + 6;
            [
                " … deeper not outlined (nesting limit)",
                " … nesting limit",
                " …",
            ]
            .into_iter()
            .find(|note| fixed + note.chars().count() + wanted <= width)
            .unwrap_or(" …")
        }
    };
    let used = fixed + cut.chars().count();
    let room = width.saturating_sub(used);
    let name_style = match app.outline.is_match(index) {
        true => palette.matched(),
        false => Style::default(),
    };
    // Signatures never repeat their kind's keyword (the model drops it), so every row shows the
    // kind tag, then the signature when it fits, else the name.
    let tag = format!("{} ", kind_tag(item));
    let (label, name) = (
        name_for_terminal(&item.label),
        name_for_terminal(&item.name),
    );
    let label = match label != name && label.width() + tag.len() <= room {
        true => label.into_owned(),
        false => truncate(&name, room.saturating_sub(tag.len())),
    };
    // The numbers stand at the right edge, in columns.
    let pad = room.saturating_sub(tag.len() + label.width());
    let mut spans = vec![
        prefix,
        Span::styled(tag, kind_style(item.kind, palette)),
        Span::styled(label, name_style),
        Span::styled(cut, palette.changed()),
        Span::raw(" ".repeat(pad)),
    ];
    spans.extend(numbers);
    if marker {
        spans.push(Span::styled(" ●", palette.changed()));
    } else if columns.marker {
        spans.push(Span::raw("  "));
    }
    Line::from(spans)
}

/// A short tag for an item's kind (`fn`, `class`; `##` for a level-2 heading).
fn kind_tag(item: &OutlineItem) -> std::borrow::Cow<'static, str> {
    match (item.kind, item.level) {
        (Kind::Heading, Some(level)) => "#".repeat(usize::from(level.clamp(1, 6))).into(),
        (kind, _) => kind_word(kind).into(),
    }
}

pub(super) fn kind_word(kind: Kind) -> &'static str {
    match kind {
        Kind::Function | Kind::Procedure => "fn",
        Kind::Method => "mth",
        Kind::Heading => "#",
        Kind::Constant | Kind::Static => "const",
        Kind::Variable => "var",
        Kind::Property | Kind::Field => "fld",
        other => other.as_str(),
    }
}

pub(super) fn kind_style(kind: Kind, palette: &Palette) -> Style {
    match kind {
        Kind::Function | Kind::Method | Kind::Procedure | Kind::Macro => palette.accent(),
        Kind::Heading | Kind::Class | Kind::Struct | Kind::Enum | Kind::Trait | Kind::Interface => {
            palette.changed()
        }
        _ => palette.dim(),
    }
}

/// Cuts `text` to `width` terminal columns (wide characters take two), ending in `…` when cut.
pub(super) fn truncate(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_string();
    }
    match width {
        0 => String::new(),
        _ => format!("{}…", text.unicode_truncate(width - 1).0),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_kind_tag_is_a_filter_for_its_kind() {
        for kind in super::Kind::ALL {
            let word = super::kind_word(kind);
            if word == "#" {
                continue;
            }
            let kinds = crate::search::query::kinds_for_word(word).unwrap_or_default();
            assert!(kinds.contains(&kind), "'{word}' does not filter {kind}");
        }
    }

    use super::{kind_tag, truncate};
    use crate::outline::{Entry, Kind};
    use crate::tui::app::outline_item;

    #[test]
    fn truncation_counts_terminal_columns() {
        assert_eq!(truncate("parse_file", 10), "parse_file");
        assert_eq!(truncate("parse_file", 6), "parse…");
        // Each of these takes two columns: four of them fill eight.
        assert_eq!(truncate("名前空間", 8), "名前空間");
        assert_eq!(truncate("名前空間", 7), "名前空…");
        assert_eq!(truncate("名前空間", 6), "名前…");
        assert_eq!(truncate("abc", 0), "");
    }

    #[test]
    fn headings_show_their_level() {
        let heading = |level| {
            let mut entry = Entry::new(Kind::Heading, "Install", 1, 1);
            entry.level = Some(level);
            kind_tag(&outline_item(&entry)).into_owned()
        };
        assert_eq!(heading(1), "#");
        assert_eq!(heading(2), "##");
        assert_eq!(heading(6), "######");
        let function = Entry::new(Kind::Function, "f", 1, 1);
        assert_eq!(kind_tag(&outline_item(&function)), "fn");
    }
}
