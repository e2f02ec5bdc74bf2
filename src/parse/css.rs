//! CSS, SCSS and LESS outline: rule sets and block at-rules, nested as written.
//!
//! One lexical pass blanks comments (`/* */`, and `//` line comments as SCSS/LESS and
//! tree-sitter-css read them), string contents, unquoted `url(…)` arguments, backslash escapes
//! and `#{…}` / `@{…}` interpolations, so that the braces and semicolons left are structure. A
//! second pass splits the text into statements at `;`, `{` and `}`: a statement ended by `{`
//! opens a rule set (its selector list is the name) or, when it starts with `@`, a block at-rule
//! (`@media …`, `@keyframes …`, `@mixin …`); statements ended by `;` are declarations or
//! statement at-rules and are not listed.

use crate::outline::{Entry, Kind, Truncation};
use crate::parse::{one_line, signature, LineIndex};

pub(crate) fn parse(text: &str) -> Vec<Entry> {
    if text.is_empty() {
        return Vec::new();
    }
    let (code, clean) = mask(text.as_bytes());
    let index = LineIndex::new(text);
    build(text, &code, &clean, &index)
}

struct Frame {
    /// `None` for a block without a usable head (its children go to the parent).
    entry: Option<Entry>,
    children: Vec<Entry>,
    /// Inside an `@keyframes` block (this one or an ancestor), whose keyframe selectors are
    /// not listed.
    keyframes: bool,
    /// Listed entries from the root down to this frame, this one included.
    depth: usize,
}

/// Deepest nesting listed: a deeper rule is dropped and the rule at this depth is marked
/// [`Entry::cut_by_nesting`], so that no consumer of the tree recurses without bound on hostile
/// input (the scanner itself is iterative).
pub(crate) const MAX_DEPTH: usize = crate::outline::MAX_DEPTH;

fn is_keyframes(entry: &Entry) -> bool {
    entry.kind == Kind::AtRule
        && entry
            .name()
            .split(|c: char| c.is_ascii_whitespace())
            .next()
            .is_some_and(|kw| kw.to_ascii_lowercase().ends_with("keyframes"))
}

fn build(text: &str, code: &[u8], clean: &[u8], index: &LineIndex) -> Vec<Entry> {
    let mut stack: Vec<Frame> = vec![Frame {
        entry: None,
        children: Vec::new(),
        keyframes: false,
        depth: 0,
    }];
    let mut stmt_start = 0usize;
    let mut paren = 0usize;
    let mut last_content = 0usize;
    for (pos, byte) in code.iter().enumerate() {
        match byte {
            b'(' | b'[' => paren += 1,
            b')' | b']' => paren = paren.saturating_sub(1),
            b';' if paren == 0 => stmt_start = pos + 1,
            b'{' => {
                paren = 0;
                // Keyframe selectors (`from`, `50%`) are steps of an animation, not structure.
                let (in_keyframes, parent_depth) = stack
                    .last()
                    .map_or((false, 0), |frame| (frame.keyframes, frame.depth));
                let entry = if in_keyframes {
                    None
                } else {
                    head_entry(text, clean, index, stmt_start, pos)
                };
                let keyframes = in_keyframes || entry.as_ref().is_some_and(is_keyframes);
                let depth = parent_depth + usize::from(entry.is_some());
                stack.push(Frame {
                    entry,
                    children: Vec::new(),
                    keyframes,
                    depth,
                });
                stmt_start = pos + 1;
            }
            b'}' => {
                paren = 0;
                if stack.len() > 1 {
                    let line = index.line_of(pos);
                    close_frame(&mut stack, line);
                }
                stmt_start = pos + 1;
            }
            _ => {}
        }
        if !byte.is_ascii_whitespace() {
            last_content = pos;
        }
    }
    // Unclosed blocks end at the last non-blank content.
    let end = index.line_of(last_content);
    while stack.len() > 1 {
        close_frame(&mut stack, end);
    }
    stack.pop().map(|frame| frame.children).unwrap_or_default()
}

fn close_frame(stack: &mut Vec<Frame>, end_line: usize) {
    let Some(frame) = stack.pop() else { return };
    if frame.depth > MAX_DEPTH {
        if frame.entry.is_some() {
            mark_cut_at_cap(stack);
        }
        return;
    }
    let Some(parent) = stack.last_mut() else {
        return;
    };
    match frame.entry {
        Some(mut entry) => {
            entry.end_line = end_line.max(entry.line);
            entry.children = frame.children;
            parent.children.push(entry);
        }
        None => parent.children.extend(frame.children),
    }
}

/// Marks the open rule at [`MAX_DEPTH`] as holding unlisted rules. Depths never decrease up the
/// stack and grow by one per listed rule, so the first frame at the cap is that rule.
fn mark_cut_at_cap(stack: &mut [Frame]) {
    let at_cap = stack.partition_point(|f| f.depth < MAX_DEPTH);
    if let Some(entry) = stack.get_mut(at_cap).and_then(|f| f.entry.as_mut()) {
        entry.truncated = Some(Truncation::MaxNesting);
    }
}

/// The entry a `{` at `open` starts, from the statement text `start..open`.
fn head_entry(
    text: &str,
    clean: &[u8],
    index: &LineIndex,
    start: usize,
    open: usize,
) -> Option<Entry> {
    let head_bytes = clean.get(start..open)?;
    let first = head_bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    let begin = start + first;
    // The clean text differs from the source only by blanked comments (ASCII spaces), so
    // slicing it on char boundaries of the source is safe; fall back to lossy conversion.
    let raw = match (
        text.get(begin..open),
        std::str::from_utf8(clean.get(begin..open)?),
    ) {
        (Some(_), Ok(s)) => s.to_string(),
        _ => String::from_utf8_lossy(clean.get(begin..open)?).into_owned(),
    };
    let name = one_line(&raw);
    if name.is_empty() {
        return None;
    }
    let line = index.line_of(begin);
    let kind = if name.starts_with('@') && !is_less_detached(&name) {
        Kind::AtRule
    } else {
        Kind::Rule
    };
    let mut entry = Entry::new(kind, name.clone(), line, line);
    if name.chars().count() > crate::parse::MAX_SIGNATURE_CHARS {
        entry = entry.with_signature(signature(&name));
    }
    Some(entry)
}

/// LESS detached ruleset `@detached: {`: a variable, listed as a rule.
fn is_less_detached(name: &str) -> bool {
    name.ends_with(':')
        && name.get(1..name.len().saturating_sub(1)).is_some_and(|v| {
            v.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
}

/// Returns (code, clean): `code` has comments, string contents, unquoted url arguments,
/// escapes and interpolations blanked; `clean` has only comments blanked.
pub(crate) fn mask(src: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let mut code = src.to_vec();
    let mut clean = src.to_vec();
    let blank = |buf: &mut Vec<u8>, from: usize, to: usize| {
        for b in buf.get_mut(from..to).unwrap_or(&mut []) {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    };
    let len = src.len();
    let mut i = 0;
    while i < len {
        let byte = src[i];
        let next = src.get(i + 1).copied().unwrap_or(0);
        match byte {
            b'/' if next == b'*' => {
                let end = memchr::memmem::find(src.get(i + 2..).unwrap_or(&[]), b"*/")
                    .map_or(len, |n| i + 2 + n + 2);
                blank(&mut code, i, end);
                blank(&mut clean, i, end);
                i = end;
            }
            b'/' if next == b'/' && (i == 0 || src[i - 1] != b':') => {
                let end = memchr::memchr(b'\n', src.get(i..).unwrap_or(&[])).map_or(len, |n| i + n);
                blank(&mut code, i, end);
                blank(&mut clean, i, end);
                i = end;
            }
            b'"' | b'\'' => {
                let end = string_end(src, i);
                // Up to the closing quote, or to the line end of a string left open.
                let closed = end > i + 1 && src.get(end - 1) == Some(&byte);
                let content_end = if closed { end - 1 } else { end };
                blank(&mut code, i + 1, content_end);
                i = end;
            }
            b'\\' => {
                // An escaped byte (`.a\{`, `.sm\:flex`) is never structure.
                let end = (i + 2).min(len);
                blank(&mut code, i, end);
                i = end;
            }
            b'#' | b'@' if next == b'{' => {
                let end = interpolation_end(src, i + 1);
                blank(&mut code, i, end);
                i = end;
            }
            b'u' | b'U' if is_url_start(src, i) => {
                let open = i + 4;
                let mut j = open;
                while j < len && (src[j] == b' ' || src[j] == b'\t') {
                    j += 1;
                }
                if j < len && (src[j] == b'"' || src[j] == b'\'') {
                    i = open;
                    continue;
                }
                let close = src
                    .get(open..)
                    .unwrap_or(&[])
                    .iter()
                    .position(|b| *b == b')' || *b == b'\n')
                    .map_or(len, |n| open + n);
                blank(&mut code, open, close);
                i = close;
            }
            _ => i += 1,
        }
    }
    (code, clean)
}

fn is_url_start(src: &[u8], i: usize) -> bool {
    let word = src.get(i..i + 4).unwrap_or(&[]);
    word.eq_ignore_ascii_case(b"url(")
        && (i == 0
            || !(src[i - 1].is_ascii_alphanumeric() || src[i - 1] == b'-' || src[i - 1] == b'_'))
}

/// Offset just past the string opened at `open`; an unescaped newline ends it (CSS strings
/// cannot span lines; an escaped one, `\\` then `\n` or `\r\n`, continues it).
fn string_end(src: &[u8], open: usize) -> usize {
    let quote = src[open];
    let mut i = open + 1;
    while i < src.len() {
        match src[i] {
            b'\\' if src.get(i + 1..i + 3) == Some(b"\r\n") => i += 3,
            b'\\' => i += 2,
            b'\n' => return i,
            b if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    src.len()
}

/// Offset just past the `}` closing the interpolation brace at `open` (nesting counted, one
/// line at most so that a stray `#{` cannot swallow the file).
fn interpolation_end(src: &[u8], open: usize) -> usize {
    let mut depth = 0usize;
    let mut i = open;
    while i < src.len() {
        match src[i] {
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            b'\n' => return i,
            b'"' | b'\'' => {
                i = string_end(src, i);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    src.len()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn flat(entries: &[Entry]) -> Vec<(Kind, String, usize, usize, usize)> {
        let mut out = Vec::new();
        fn visit(
            entries: &[Entry],
            depth: usize,
            out: &mut Vec<(Kind, String, usize, usize, usize)>,
        ) {
            for e in entries {
                out.push((e.kind, e.name().to_string(), e.line, e.end_line, depth));
                visit(&e.children, depth + 1, out);
            }
        }
        visit(entries, 0, &mut out);
        out
    }

    fn r(name: &str, line: usize, end: usize, depth: usize) -> (Kind, String, usize, usize, usize) {
        (Kind::Rule, name.to_string(), line, end, depth)
    }

    fn at(
        name: &str,
        line: usize,
        end: usize,
        depth: usize,
    ) -> (Kind, String, usize, usize, usize) {
        (Kind::AtRule, name.to_string(), line, end, depth)
    }

    #[test]
    fn rules_media_and_multiline_selector_lists() {
        let src = "@charset \"utf-8\";\n@import url(x.css);\nhtml,\nbody  >  p {\n  margin: 0;\n}\n@media (min-width: 10px) and (max-width: 20px) {\n  .a { color: red !important; }\n}\n";
        assert_eq!(
            flat(&parse(src)),
            vec![
                r("html, body > p", 3, 6, 0),
                at("@media (min-width: 10px) and (max-width: 20px)", 7, 9, 0),
                r(".a", 8, 8, 1),
            ]
        );
    }

    #[test]
    fn braces_in_strings_comments_and_urls() {
        let src = "/* a { */\na[title=\"}{\"]::after { content: '}'; }\n.b { background: url(data:image/png;base64,iVB{}=); }\n.c { background: url(http://x.org/{a}.png) }\n// .d { }\n.e { }\n";
        assert_eq!(
            flat(&parse(src)),
            vec![
                r("a[title=\"}{\"]::after", 2, 2, 0),
                r(".b", 3, 3, 0),
                r(".c", 4, 4, 0),
                r(".e", 6, 6, 0),
            ]
        );
    }

    #[test]
    fn scss_nesting_interpolation_and_mixins() {
        let src = "$w: 10px;\n@mixin pad($x) {\n  padding: $x;\n}\n.card-#{$name} {\n  color: red;\n  &:hover { color: blue; }\n  .title,\n  .sub { margin: #{$w}; }\n  @include pad(1px);\n  @media print { display: none; }\n}\n";
        assert_eq!(
            flat(&parse(src)),
            vec![
                at("@mixin pad($x)", 2, 4, 0),
                r(".card-#{$name}", 5, 12, 0),
                r("&:hover", 7, 7, 1),
                r(".title, .sub", 8, 9, 1),
                at("@media print", 11, 11, 1),
            ]
        );
    }

    #[test]
    fn keyframes_font_face_and_minified() {
        let src = "@keyframes spin{from{transform:rotate(0)}50%{opacity:.5}to{transform:rotate(1turn)}}@font-face{font-family:x;src:url(a.woff)}a:hover,b{c:d}";
        assert_eq!(
            flat(&parse(src)),
            vec![
                at("@keyframes spin", 1, 1, 0),
                at("@font-face", 1, 1, 0),
                r("a:hover,b", 1, 1, 0),
            ]
        );
    }

    #[test]
    fn crlf_escapes_and_unbalanced_input() {
        let src = ".sm\\:flex {\r\n  display: flex;\r\n}\r\n.x\\{ {}\r\n";
        assert_eq!(
            flat(&parse(src)),
            vec![r(".sm\\:flex", 1, 3, 0), r(".x\\{", 4, 4, 0)]
        );
        assert_eq!(
            flat(&parse(".a {\n  color: red;\n\n")),
            vec![r(".a", 1, 2, 0)]
        );
        assert_eq!(flat(&parse("}\n} .b { }")), vec![r(".b", 2, 2, 0)]);
        for junk in [
            "", "{", "}", "\"", "/*", "url(", "#{", "@{", "\\", "a{b{c{", "é{ü}",
        ] {
            let _ = parse(junk);
        }
    }

    #[test]
    fn hostile_nesting_is_linear_and_depth_capped() {
        let src = "a{".repeat(50_000);
        let out = parse(&src);
        fn depth(entries: &[Entry]) -> usize {
            entries
                .iter()
                .map(|e| 1 + depth(&e.children))
                .max()
                .unwrap_or(0)
        }
        assert_eq!(depth(&out), MAX_DEPTH);
        assert_eq!(flat(&out).len(), MAX_DEPTH);
        // Only the rule at the cap is marked: every rule above it lists all its children.
        let marks = |entries: &[Entry]| {
            let mut marks = Vec::new();
            let mut level = entries;
            while let Some(first) = level.first() {
                marks.push(first.truncated.is_some());
                level = &first.children;
            }
            marks
        };
        let mut want = vec![false; MAX_DEPTH];
        want[MAX_DEPTH - 1] = true;
        assert_eq!(marks(&out), want);
        // Exactly at the cap nothing is dropped, so nothing is marked.
        let at_cap = parse(&("a{".repeat(MAX_DEPTH) + &"}".repeat(MAX_DEPTH)));
        assert_eq!(marks(&at_cap), vec![false; MAX_DEPTH]);
        let keyframes = "@keyframes k{".to_string() + &"a{".repeat(50_000);
        assert_eq!(flat(&parse(&keyframes)).len(), 1);
    }

    #[test]
    fn comments_after_colons_urls_and_statements() {
        let src = "@import url(\"a;b.css\");\n@use 'x' with ($a: 1);\n.a { b: url(//cdn/x;y.png); } // trailing { comment\n.b:not(.c) { }\n/* .d { } */ .e{}";
        assert_eq!(
            flat(&parse(src)),
            vec![r(".a", 3, 3, 0), r(".b:not(.c)", 4, 4, 0), r(".e", 5, 5, 0)]
        );
    }

    #[test]
    fn less_guards_and_detached_rulesets() {
        let src = ".m(@a) when (iscolor(@a)) {\n  color: @a;\n}\n@detached: {\n  background: red;\n};\n.@{prefix}-btn { .m(red); }\n";
        assert_eq!(
            flat(&parse(src)),
            vec![
                r(".m(@a) when (iscolor(@a))", 1, 3, 0),
                r("@detached:", 4, 6, 0),
                r(".@{prefix}-btn", 7, 7, 0),
            ]
        );
    }
}
