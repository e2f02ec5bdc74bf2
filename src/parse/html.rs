//! HTML outline: the element tree, named `tag#id` (classes in the signature,
//! `tag#id.class1.class2`), or `tag.class1.class2` for elements without an id.
//!
//! A small tolerant tokenizer walks tags (comments, doctype, `<?…?>`, CDATA and the raw text of
//! `<script>`/`<style>` are skipped; attribute values may span lines and hold `>`), and a stack
//! builds the tree the way browsers and tree-sitter-html do for sloppy markup: void elements and
//! `/>` tags have no children, a start tag closes an open `<p>`, `<li>`, `<td>`, `<tr>`, `<dt>`,
//! `<dd>`, … it cannot nest in, an end tag closes the elements left open inside its element,
//! and a stray end tag is ignored. An element closed implicitly ends where the tag that closed
//! it starts.
//!
//! Listed: every element with an id, and the elements that give a page its shape (document,
//! sectioning, headings, forms, tables, lists, divs, templates, scripts and styles); inline
//! markup (`span`, `a`, `b`, `img`, `li`, `td`, …) is listed only when it has an id.

use crate::outline::{Entry, Kind, Truncation};
use crate::parse::{signature, LineCursor};
use rustc_hash::FxHashMap;
use std::borrow::Cow;

pub(crate) fn parse(text: &str) -> Vec<Entry> {
    if text.is_empty() {
        return Vec::new();
    }
    let mut builder = Builder {
        text,
        src: text.as_bytes(),
        lines: LineCursor::new(text),
        stack: vec![Open::root()],
        open_counts: FxHashMap::default(),
    };
    builder.run();
    builder.finish()
}

/// An element whose end has not been seen yet.
struct Open<'a> {
    /// Lower-case tag name (as written when it is: most are).
    tag: Cow<'a, str>,
    /// The entry to emit, `None` when the element is not listed (or for the document root).
    entry: Option<Entry>,
    children: Vec<Entry>,
    /// Offset just past the start tag (where the content starts).
    content_start: usize,
    /// Listed entries from the root down to this element, this one included.
    depth: usize,
}

/// Deepest nesting listed: a deeper element is dropped and the element at this depth is marked
/// [`Entry::cut_by_nesting`], so that no consumer of the tree recurses without bound on hostile
/// input (the builder itself is iterative).
pub(crate) const MAX_DEPTH: usize = crate::outline::MAX_DEPTH;

impl Open<'_> {
    fn root() -> Open<'static> {
        Open {
            tag: Cow::Borrowed(""),
            entry: None,
            children: Vec::new(),
            content_start: 0,
            depth: 0,
        }
    }
}

struct StartTag<'a> {
    /// Lower-case tag name.
    tag: Cow<'a, str>,
    id: Option<String>,
    /// The `class` value as written: its words are split out only for a listed element.
    class: Option<Cow<'a, str>>,
    /// The `src` of a `<script>` or `<iframe>`, shown in the signature.
    src: Option<String>,
    /// Offset just past the closing `>` (or where the tag was cut off).
    end: usize,
    self_closing: bool,
}

struct Builder<'a> {
    text: &'a str,
    src: &'a [u8],
    /// Lines are asked for as the tags come, in order: a cursor, not a table of every line.
    lines: LineCursor<'a>,
    stack: Vec<Open<'a>>,
    /// How many elements of each tag are open, so that a stray end tag costs no stack walk.
    /// Keyed by short tag names, looked up at every tag: hashed with Fx, not SipHash.
    open_counts: FxHashMap<String, usize>,
}

impl<'a> Builder<'a> {
    fn run(&mut self) {
        let src = self.src;
        let len = src.len();
        let mut i = 0;
        // Cleared once a `<?` finds no `?>` after it, so that later ones do not search again.
        let mut pi_closes = true;
        while i < len {
            let Some(lt) = memchr::memchr(b'<', src.get(i..).unwrap_or(&[])).map(|n| i + n) else {
                break;
            };
            let rest = src.get(lt..).unwrap_or(&[]);
            let next = rest.get(1).copied().unwrap_or(0);
            if rest.starts_with(b"<!--") {
                i = find(src, lt + 4, b"-->").map_or(len, |n| n + 3);
            } else if rest.starts_with(b"<![CDATA[") {
                i = find(src, lt + 9, b"]]>").map_or(len, |n| n + 3);
            } else if next == b'?' {
                // `<?xml …?>`, `<?php … ?>`: to `?>`, else (bogus comment) to `>`.
                let close = if pi_closes {
                    find(src, lt + 2, b"?>")
                } else {
                    None
                };
                pi_closes = close.is_some();
                i = match close {
                    Some(n) => n + 2,
                    None => memchr::memchr(b'>', src.get(lt..).unwrap_or(&[]))
                        .map_or(len, |n| lt + n + 1),
                };
            } else if next == b'!' {
                i = memchr::memchr(b'>', src.get(lt..).unwrap_or(&[])).map_or(len, |n| lt + n + 1);
            } else if next == b'/' && rest.get(2).is_some_and(u8::is_ascii_alphabetic) {
                let name_end = lt + 2 + tag_name_len(src, lt + 2);
                let tag = ascii_lower(src.get(lt + 2..name_end).unwrap_or(&[]));
                let close = memchr::memchr(b'>', src.get(name_end..).unwrap_or(&[]))
                    .map_or(len, |n| name_end + n + 1);
                self.end_tag(&tag, lt, close);
                i = close;
            } else if next.is_ascii_alphabetic() {
                let start = parse_start_tag(src, lt);
                i = start.end;
                let raw: Option<&[u8]> = match &*start.tag {
                    _ if start.self_closing => None,
                    "script" => Some(b"</script"),
                    "style" => Some(b"</style"),
                    _ => None,
                };
                self.start_tag(start, lt);
                if let Some(needle) = raw {
                    // Raw text up to the matching end tag, which the loop then reads normally.
                    i = find_ignore_case(src, i, needle).unwrap_or(len);
                }
            } else {
                i = lt + 1;
            }
        }
    }

    fn start_tag(&mut self, start: StartTag<'a>, at: usize) {
        while self.stack.len() > 1
            && self
                .stack
                .last()
                .is_some_and(|top| !can_contain(&top.tag, &start.tag))
        {
            self.close_implicitly(at);
        }
        let line = self.lines.line_of(at);
        let listed = start.id.is_some() || is_structural(&start.tag);
        let entry = listed.then(|| {
            let entry = Entry::new(Kind::Element, element_name(&start), line, line);
            match &start.src {
                Some(src) => {
                    entry.with_signature(signature(&format!("{} src={src}", element_label(&start))))
                }
                None if start.classes().next().is_none() || start.id.is_none() => entry,
                None => entry.with_signature(signature(&element_label(&start))),
            }
        });
        if start.self_closing || is_void(&start.tag) {
            if let Some(mut entry) = entry {
                // A `/>` tag ends at its `>`. A void element without the slash ends, as in
                // tree-sitter-html, where the next token starts (after blanks and comments).
                let end = if start.self_closing {
                    start.end
                } else {
                    skip_blanks_and_comments(self.src, start.end)
                };
                entry.end_line = self.lines.line_of(end.saturating_sub(1)).max(line);
                let depth = self.stack.last().map_or(0, |parent| parent.depth) + 1;
                if depth > MAX_DEPTH {
                    self.mark_cut_at_cap();
                } else if let Some(parent) = self.stack.last_mut() {
                    parent.children.push(entry);
                }
            }
            return;
        }
        let depth =
            self.stack.last().map_or(0, |parent| parent.depth) + usize::from(entry.is_some());
        match self.open_counts.get_mut(&*start.tag) {
            Some(count) => *count += 1,
            None => {
                self.open_counts.insert(start.tag.to_string(), 1);
            }
        }
        self.stack.push(Open {
            tag: start.tag,
            entry,
            children: Vec::new(),
            content_start: start.end,
            depth,
        });
    }

    fn end_tag(&mut self, tag: &str, at: usize, close: usize) {
        if self.open_counts.get(tag).copied().unwrap_or(0) == 0 {
            return; // a stray end tag
        }
        let Some(depth) = self.stack.iter().skip(1).rposition(|open| open.tag == tag) else {
            return;
        };
        let depth = depth + 1;
        while self.stack.len() > depth + 1 {
            self.close_implicitly(at);
        }
        let end_line = self.lines.line_of(close.saturating_sub(1));
        self.close_top(end_line, at);
    }

    /// Closes the innermost element without an end tag of its own: it ends where the tag that
    /// closes it starts (`at`), i.e. on the line of the byte before.
    fn close_implicitly(&mut self, at: usize) {
        let end_line = self.lines.line_of(at.saturating_sub(1));
        self.close_top(end_line, at);
    }

    fn close_top(&mut self, end_line: usize, content_end: usize) {
        if self.stack.len() < 2 {
            return;
        }
        let Some(open) = self.stack.pop() else { return };
        if let Some(count) = self.open_counts.get_mut(&*open.tag) {
            *count = count.saturating_sub(1);
        }
        if open.depth > MAX_DEPTH {
            if open.entry.is_some() {
                self.mark_cut_at_cap();
            }
            return;
        }
        let Some(parent) = self.stack.last_mut() else {
            return;
        };
        match open.entry {
            Some(mut entry) => {
                entry.end_line = end_line.max(entry.line);
                if is_titled(&open.tag) {
                    let content = self.text.get(open.content_start..content_end).unwrap_or("");
                    let title = inner_text(content);
                    if !title.is_empty() {
                        let sig = signature(&format!("{} {title}", entry.label()));
                        entry = entry.with_signature(sig);
                    }
                }
                entry.children = open.children;
                parent.children.push(entry);
            }
            None => parent.children.extend(open.children),
        }
    }

    /// Marks the open element at [`MAX_DEPTH`] as holding unlisted elements. Depths never
    /// decrease up the stack and grow by one per listed element, so the first open element at
    /// the cap is that element.
    fn mark_cut_at_cap(&mut self) {
        let at_cap = self.stack.partition_point(|open| open.depth < MAX_DEPTH);
        if let Some(entry) = self.stack.get_mut(at_cap).and_then(|o| o.entry.as_mut()) {
            entry.truncated = Some(Truncation::MaxNesting);
        }
    }

    fn finish(mut self) -> Vec<Entry> {
        let len = self.src.len();
        while self.stack.len() > 1 {
            self.close_implicitly(len);
        }
        self.stack
            .pop()
            .map(|root| root.children)
            .unwrap_or_default()
    }
}

/// Reads the start tag at `lt` (`<` followed by a letter): its name, id and classes, and where
/// it ends. Attribute values may be quoted (spanning lines, holding `>`) or bare.
fn parse_start_tag(src: &[u8], lt: usize) -> StartTag<'_> {
    let len = src.len();
    let name_end = lt + 1 + tag_name_len(src, lt + 1);
    let tag = ascii_lower(src.get(lt + 1..name_end).unwrap_or(&[]));
    let mut id = None;
    let mut class = None;
    let mut source = None;
    let wants_src = matches!(&*tag, "script" | "iframe");
    let mut i = name_end;
    let mut self_closing = false;
    loop {
        while i < len && src[i].is_ascii_whitespace() {
            i += 1;
        }
        let Some(&byte) = src.get(i) else { break };
        match byte {
            b'>' => {
                i += 1;
                break;
            }
            b'/' if src.get(i + 1) == Some(&b'>') => {
                self_closing = true;
                i += 2;
                break;
            }
            b'/' => i += 1,
            // A new tag before this one closed: treat this one as ended.
            b'<' => break,
            _ => {
                let Some(Attribute {
                    name: attr,
                    value,
                    end,
                }) = attribute(src, i)
                else {
                    // A stray quote or `=`: skip it.
                    i += 1;
                    continue;
                };
                i = end;
                let Some(value) = value else {
                    continue;
                };
                if attr.eq_ignore_ascii_case(b"id") {
                    let value = String::from_utf8_lossy(value);
                    id = Some(value.trim().to_string()).filter(|v| !v.is_empty());
                } else if wants_src && attr.eq_ignore_ascii_case(b"src") {
                    source = Some(String::from_utf8_lossy(value).trim().to_string());
                } else if attr.eq_ignore_ascii_case(b"class") {
                    class = Some(String::from_utf8_lossy(value));
                }
            }
        }
    }
    StartTag {
        tag,
        id,
        class,
        src: source,
        end: i.min(len),
        self_closing,
    }
}

/// One attribute of a start tag, as written.
struct Attribute<'a> {
    name: &'a [u8],
    /// `None` without `=`. Quoted values may span lines and hold `>`; bare ones end at a blank
    /// or a `>`.
    value: Option<&'a [u8]>,
    /// Where reading the tag goes on.
    end: usize,
}

/// The attribute starting at `i` in a start tag; `None` when no name starts there.
fn attribute(src: &[u8], i: usize) -> Option<Attribute<'_>> {
    let len = src.len();
    let stops =
        |byte: u8| matches!(byte, b'<' | b'>' | b'"' | b'\'' | b'=') || byte.is_ascii_whitespace();
    let name_end = i + src
        .get(i..)?
        .iter()
        .take_while(|b| !stops(**b) && **b != b'/')
        .count();
    if name_end == i {
        return None;
    }
    let name = src.get(i..name_end)?;
    let skip_blanks = |from: usize| {
        from + src
            .get(from..)
            .unwrap_or(&[])
            .iter()
            .take_while(|b| b.is_ascii_whitespace())
            .count()
    };
    let eq = skip_blanks(name_end);
    if src.get(eq) != Some(&b'=') {
        return Some(Attribute {
            name,
            value: None,
            end: name_end,
        });
    }
    let j = skip_blanks(eq + 1);
    let (value, after) = match src.get(j) {
        Some(&quote @ (b'"' | b'\'')) => {
            let close =
                memchr::memchr(quote, src.get(j + 1..).unwrap_or(&[])).map_or(len, |n| j + 1 + n);
            (src.get(j + 1..close).unwrap_or(&[]), (close + 1).min(len))
        }
        _ => {
            let k = j + src
                .get(j..)
                .unwrap_or(&[])
                .iter()
                .take_while(|b| !stops(**b))
                .count();
            (src.get(j..k).unwrap_or(&[]), k)
        }
    };
    Some(Attribute {
        name,
        value: Some(value),
        end: after,
    })
}

impl StartTag<'_> {
    /// The words of the `class` attribute.
    fn classes(&self) -> std::str::SplitWhitespace<'_> {
        self.class.as_deref().unwrap_or("").split_whitespace()
    }
}

/// The name: `tag#id`, or without an id the tag and its first classes (`div.card.wide`).
fn element_name(start: &StartTag) -> String {
    match &start.id {
        Some(id) => format!("{}#{id}", start.tag),
        None => element_label(start),
    }
}

/// The label: `tag#id.class1.class2` (the first few classes).
fn element_label(start: &StartTag) -> String {
    let mut label = String::with_capacity(64);
    label.push_str(&start.tag);
    if let Some(id) = &start.id {
        label.push('#');
        label.push_str(id);
    }
    for class in start.classes().take(4) {
        label.push('.');
        label.push_str(class);
    }
    label
}

/// The text of an element's content with tags removed and whitespace collapsed.
fn inner_text(content: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for ch in content.chars().take(600) {
        match ch {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(ch),
            _ => {}
        }
    }
    crate::parse::one_line(&decode_entities(&out))
}

/// Decodes the character references a title is likely to hold (`&amp;`, `&mdash;`, `&#8212;`,
/// `&#x2014;`); others stay as written.
fn decode_entities(text: &str) -> String {
    if !text.contains('&') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(rest.get(..amp).unwrap_or(""));
        rest = rest.get(amp..).unwrap_or("");
        let semi = rest.get(..12).unwrap_or(rest).find(';');
        let decoded = semi.and_then(|semi| {
            let name = rest.get(1..semi)?;
            let ch = match name {
                "amp" => '&',
                "lt" => '<',
                "gt" => '>',
                "quot" => '"',
                "apos" => '\'',
                "nbsp" => ' ',
                "mdash" => '\u{2014}',
                "ndash" => '\u{2013}',
                "hellip" => '\u{2026}',
                "copy" => '\u{a9}',
                "reg" => '\u{ae}',
                "trade" => '\u{2122}',
                "laquo" => '\u{ab}',
                "raquo" => '\u{bb}',
                "middot" => '\u{b7}',
                _ => {
                    let number = name.strip_prefix('#')?;
                    let code = match number.strip_prefix(['x', 'X']) {
                        Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                        None => number.parse().ok()?,
                    };
                    char::from_u32(code)?
                }
            };
            Some((ch, semi + 1))
        });
        match decoded {
            Some((ch, len)) => {
                out.push(ch);
                rest = rest.get(len..).unwrap_or("");
            }
            None => {
                out.push('&');
                rest = rest.get(1..).unwrap_or("");
            }
        }
    }
    out.push_str(rest);
    out
}

/// The offset of the first byte at or after `from` that is neither whitespace nor in a comment.
fn skip_blanks_and_comments(src: &[u8], from: usize) -> usize {
    let mut i = from;
    loop {
        while src.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        if src.get(i..).is_some_and(|rest| rest.starts_with(b"<!--")) {
            i = find(src, i + 4, b"-->").map_or(src.len(), |n| n + 3);
        } else {
            return i.min(src.len());
        }
    }
}

fn tag_name_len(src: &[u8], from: usize) -> usize {
    src.get(from..)
        .unwrap_or(&[])
        .iter()
        .take_while(|b| !b.is_ascii_whitespace() && !matches!(b, b'/' | b'>' | b'<'))
        .count()
}

/// A tag name in lower case: borrowed when it is written so (most are), else a copy.
fn ascii_lower(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(name) if !name.bytes().any(|b| b.is_ascii_uppercase()) => Cow::Borrowed(name),
        Ok(name) => Cow::Owned(name.to_ascii_lowercase()),
        Err(_) => Cow::Owned(String::from_utf8_lossy(bytes).to_ascii_lowercase()),
    }
}

fn find(src: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(src.get(from..)?, needle).map(|n| from + n)
}

/// The next `needle` (lower-case ASCII) at or after `from`, ignoring ASCII case.
fn find_ignore_case(src: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    let mut i = from;
    while let Some(n) = memchr::memchr(b'<', src.get(i..)?) {
        let at = i + n;
        if src
            .get(at..at + needle.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(needle))
        {
            return Some(at);
        }
        i = at + 1;
    }
    None
}

fn is_void(tag: &str) -> bool {
    matches!(
        tag,
        "area"
            | "base"
            | "basefont"
            | "bgsound"
            | "br"
            | "col"
            | "command"
            | "embed"
            | "frame"
            | "hr"
            | "image"
            | "img"
            | "input"
            | "isindex"
            | "keygen"
            | "link"
            | "menuitem"
            | "meta"
            | "nextid"
            | "param"
            | "source"
            | "track"
            | "wbr"
    )
}

/// Whether an open `parent` may hold a `child` start tag; when not, the parent ends first.
fn can_contain(parent: &str, child: &str) -> bool {
    match parent {
        "li" => child != "li",
        "dt" | "dd" => !matches!(child, "dt" | "dd"),
        "p" => !closes_paragraph(child),
        "colgroup" => child == "col",
        "rb" | "rt" | "rp" => !matches!(child, "rb" | "rt" | "rp"),
        "optgroup" => child != "optgroup",
        "tr" => child != "tr",
        "td" | "th" => !matches!(child, "td" | "th" | "tr"),
        _ => true,
    }
}

fn closes_paragraph(tag: &str) -> bool {
    matches!(
        tag,
        "address"
            | "article"
            | "aside"
            | "blockquote"
            | "details"
            | "div"
            | "dl"
            | "fieldset"
            | "figcaption"
            | "figure"
            | "footer"
            | "form"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "header"
            | "hr"
            | "main"
            | "nav"
            | "ol"
            | "p"
            | "pre"
            | "section"
    )
}

/// Elements listed even without an id: the ones that give a page its shape.
fn is_structural(tag: &str) -> bool {
    matches!(
        tag,
        "html"
            | "head"
            | "body"
            | "title"
            | "main"
            | "header"
            | "footer"
            | "nav"
            | "section"
            | "article"
            | "aside"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "hgroup"
            | "div"
            | "form"
            | "fieldset"
            | "table"
            | "ul"
            | "ol"
            | "dl"
            | "template"
            | "dialog"
            | "details"
            | "figure"
            | "iframe"
            | "svg"
            | "script"
            | "style"
            | "noscript"
    )
}

/// Elements whose text is shown in the signature.
fn is_titled(tag: &str) -> bool {
    matches!(tag, "title" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
}

#[cfg(test)]
mod tests;
