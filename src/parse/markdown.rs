//! Markdown outline: ATX and setext headings, nested by level.
//!
//! Headings come from pulldown-cmark (CommonMark + tables), so `#` lines inside fenced or
//! indented code, HTML blocks and YAML front matter are never headings. Only headings at the top
//! level of the document are listed (those inside block quotes, list items and footnotes are
//! content, not structure). A heading's section runs to the line before the next heading of the
//! same or a higher level, else to the last line of the file.

use crate::outline::{Entry, Kind};
use crate::parse::{count_lines, LineIndex};
use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

pub(crate) fn parse(text: &str) -> Vec<Entry> {
    if text.is_empty() {
        return Vec::new();
    }
    let source = blank_front_matter(text);
    let source = plain_fence_ends(&source);
    let text: &str = &source;
    let index = LineIndex::new(text);
    let last_line = count_lines(text).max(1);

    // (line, level, name)
    let mut heads: Vec<(usize, u8, String)> = Vec::new();
    let mut container_depth = 0usize;
    let mut options = Options::empty();
    options.insert(Options::ENABLE_TABLES);
    options.insert(Options::ENABLE_STRIKETHROUGH);
    for (event, range) in Parser::new_ext(text, options).into_offset_iter() {
        match event {
            Event::Start(
                Tag::BlockQuote(_) | Tag::List(_) | Tag::Item | Tag::FootnoteDefinition(_),
            ) => {
                container_depth += 1;
            }
            Event::End(
                TagEnd::BlockQuote(_) | TagEnd::List(_) | TagEnd::Item | TagEnd::FootnoteDefinition,
            ) => {
                container_depth = container_depth.saturating_sub(1);
            }
            Event::Start(Tag::Heading { level, .. }) if container_depth == 0 => {
                let raw = text.get(range.clone()).unwrap_or("");
                heads.push((
                    index.line_of(range.start),
                    level_number(level),
                    heading_name(raw),
                ));
            }
            _ => {}
        }
    }

    let mut flat = Vec::with_capacity(heads.len());
    for (i, (line, level, name)) in heads.iter().enumerate() {
        let end = heads
            .get(i + 1..)
            .unwrap_or(&[])
            .iter()
            .find(|(l2, lev2, _)| l2 > line && lev2 <= level)
            .map_or(last_line, |(l2, _, _)| l2.saturating_sub(1));
        let mut entry = Entry::new(Kind::Heading, name.clone(), *line, end);
        entry.level = Some(*level);
        flat.push((entry, *level));
    }
    nest(flat)
}

/// Nests headings: each one is a child of the nearest earlier heading of a lower level.
fn nest(flat: Vec<(Entry, u8)>) -> Vec<Entry> {
    let mut roots: Vec<Entry> = Vec::new();
    let mut stack: Vec<(Entry, u8)> = Vec::new();
    for (entry, level) in flat {
        while stack.last().is_some_and(|(_, top)| *top >= level) {
            pop_into(&mut stack, &mut roots);
        }
        stack.push((entry, level));
    }
    while !stack.is_empty() {
        pop_into(&mut stack, &mut roots);
    }
    roots
}

fn pop_into(stack: &mut Vec<(Entry, u8)>, roots: &mut Vec<Entry>) {
    if let Some((done, _)) = stack.pop() {
        match stack.last_mut() {
            Some((parent, _)) => parent.children.push(done),
            None => roots.push(done),
        }
    }
}

fn level_number(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

/// The inline source text of a heading from its source range: an ATX line without its opening
/// and closing `#` runs, or a setext heading's text lines without the underline.
fn heading_name(raw: &str) -> String {
    let trimmed = raw.trim_start_matches([' ', '\t']);
    if trimmed.starts_with('#') {
        let line = trimmed.lines().next().unwrap_or("");
        let body = line.trim_start_matches('#');
        let body = body.trim_end();
        // A closing sequence: spaces then #'s at the end (or a line of #'s only).
        let without_close = body.trim_end_matches('#');
        let body = if without_close.len() < body.len()
            && (without_close.is_empty() || without_close.ends_with([' ', '\t']))
        {
            without_close
        } else {
            body
        };
        return crate::parse::one_line(body);
    }
    let lines: Vec<&str> = raw.lines().collect();
    let text_lines = match lines.split_last() {
        Some((last, rest))
            if !rest.is_empty()
                && last.trim().chars().all(|c| c == '=' || c == '-')
                && !last.trim().is_empty() =>
        {
            rest
        }
        _ => &lines[..],
    };
    crate::parse::one_line(&text_lines.join(" "))
}

/// Turns the blanks after a code fence's run (`~~~` then a tab, a form feed, a no-break
/// space) into spaces, byte for byte: a reader sees the fence close there, and the parser
/// would otherwise read on to the end of the file and lose every later heading.
fn plain_fence_ends(text: &str) -> std::borrow::Cow<'_, str> {
    let odd_blank = |c: char| c.is_whitespace() && !matches!(c, ' ' | '\r' | '\n');
    let fence_end = |line: &str| -> Option<usize> {
        let body = line.trim_start_matches(' ');
        let mark = body.chars().next().filter(|c| matches!(c, '`' | '~'))?;
        let run = body.len() - body.trim_start_matches(mark).len();
        let rest = body.get(run..)?;
        (run >= 3 && rest.chars().all(char::is_whitespace) && rest.chars().any(odd_blank))
            .then_some(line.len() - rest.len())
    };
    if !text.split('\n').any(|line| fence_end(line).is_some()) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let Some(at) = fence_end(line) else {
            out.push_str(line);
            continue;
        };
        out.push_str(line.get(..at).unwrap_or(""));
        for c in line.get(at..).unwrap_or("").chars() {
            if odd_blank(c) {
                out.extend(std::iter::repeat_n(' ', c.len_utf8()));
            } else {
                out.push(c);
            }
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Replaces YAML front matter (a `---` first line up to a `---` or `...` line within the first
/// 200 lines) by blank lines, keeping line numbers.
fn blank_front_matter(text: &str) -> std::borrow::Cow<'_, str> {
    let mut lines = text.split('\n');
    if lines.next().map(str::trim) != Some("---") {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut end = None;
    let mut offset = text.find('\n').map_or(text.len(), |n| n + 1);
    for line in lines.take(199) {
        let next = offset + line.len() + 1;
        if matches!(line.trim(), "---" | "...") {
            end = Some(next.min(text.len()));
            break;
        }
        offset = next;
    }
    let Some(end) = end else {
        return std::borrow::Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len());
    for ch in text.get(..end).unwrap_or("").chars() {
        out.push(if ch == '\n' { '\n' } else { ' ' });
    }
    out.push_str(text.get(end..).unwrap_or(""));
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn flat(entries: &[Entry]) -> Vec<(String, u8, usize, usize, usize)> {
        let mut out = Vec::new();
        fn visit(
            entries: &[Entry],
            depth: usize,
            out: &mut Vec<(String, u8, usize, usize, usize)>,
        ) {
            for e in entries {
                out.push((
                    e.name().to_string(),
                    e.level.unwrap_or(0),
                    e.line,
                    e.end_line,
                    depth,
                ));
                visit(&e.children, depth + 1, out);
            }
        }
        visit(entries, 0, &mut out);
        out
    }

    fn row(
        name: &str,
        level: u8,
        line: usize,
        end: usize,
        depth: usize,
    ) -> (String, u8, usize, usize, usize) {
        (name.to_string(), level, line, end, depth)
    }

    #[test]
    fn atx_and_setext_headings_nest_by_level() {
        let src = "# Title #\n\nintro\n\nUsage\n-----\n\n### Deep `code` ###\ntext\n\n## Next\n\nSetext\ntwo lines\n=====\nend\n";
        let got = flat(&parse(src));
        assert_eq!(
            got,
            vec![
                row("Title", 1, 1, 12, 0),
                row("Usage", 2, 5, 10, 1),
                row("Deep `code`", 3, 8, 10, 2),
                row("Next", 2, 11, 12, 1),
                row("Setext two lines", 1, 13, 16, 0),
            ]
        );
    }

    #[test]
    fn code_blocks_html_and_front_matter_are_not_headings() {
        let src = "---\ntitle: x\n---\n# Real\n\n```sh\n# not a heading\n```\n\n    # indented code\n\n<div>\n# inside html\n</div>\n\n~~~\n## fenced\n~~~\n";
        let got = flat(&parse(src));
        assert_eq!(got, vec![row("Real", 1, 4, 18, 0)]);
    }

    #[test]
    fn front_matter_is_not_setext_and_quotes_lists_are_skipped() {
        let src = "---\nlayout: post\n---\n\n> # quoted\n\n- # in list\n\n## Two\n";
        let got = flat(&parse(src));
        assert_eq!(got, vec![row("Two", 2, 9, 9, 0)]);
    }

    #[test]
    fn a_closing_fence_with_trailing_blanks_closes() {
        let src =
            "# A\n\n~~~\n## in code\n~~~\t\n\n## B\n\n```\r\ncode\r\n```\u{a0}\u{c}\r\n## C\n";
        let got = flat(&parse(src));
        assert_eq!(
            got,
            vec![
                row("A", 1, 1, 12, 0),
                row("B", 2, 7, 11, 1),
                row("C", 2, 12, 12, 1)
            ]
        );
    }

    #[test]
    fn tables_are_not_setext_headings() {
        let src = "# T\n\na | b\n--|--\n1 | 2\n";
        assert_eq!(flat(&parse(src)), vec![row("T", 1, 1, 5, 0)]);
    }

    #[test]
    fn crlf_no_final_newline_and_empty() {
        assert!(parse("").is_empty());
        let src = "# A\r\ntext\r\n## B ##\r\nmore";
        assert_eq!(
            flat(&parse(src)),
            vec![row("A", 1, 1, 4, 0), row("B", 2, 3, 4, 1)]
        );
        assert_eq!(flat(&parse("#")), vec![row("", 1, 1, 1, 0)]);
        assert!(parse("```\n# x").is_empty());
        let _ = parse("---\n---\n---");
        let _ = parse("\u{0}#\u{1}\n===\n");
    }

    #[test]
    fn heading_names_keep_inline_source() {
        let src = "# C#\n## *Emph* and [link](http://x) ##\n### # \n#### Trailing #hash\n    \n";
        let names: Vec<String> = flat(&parse(src)).into_iter().map(|row| row.0).collect();
        assert_eq!(
            names,
            vec!["C#", "*Emph* and [link](http://x)", "", "Trailing #hash"]
        );
    }

    #[test]
    fn skipped_levels_and_trailing_blank_lines() {
        let src = "### Deep first\n# Top\n#### Skip\n## Mid\n\n\n";
        assert_eq!(
            flat(&parse(src)),
            vec![
                row("Deep first", 3, 1, 1, 0),
                row("Top", 1, 2, 6, 0),
                row("Skip", 4, 3, 3, 1),
                row("Mid", 2, 4, 6, 1),
            ]
        );
    }
}
