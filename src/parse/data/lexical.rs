//! Lexical rules of the data dialects that both the shared bracket scanner (`flow`) and a
//! dialect's own scanner read: TOML's dotted keys and strings, YAML's document markers. Kept
//! apart so that `flow` depends on no dialect module and the dialects depend on `flow`.

use super::Doc;
use compact_str::CompactString;

/// A key as written at `start`: bare and quoted parts joined by dots, spaces around the dots
/// dropped (`a . "b c"` -> `a."b c"`). Returns the name and the offset after the key.
pub(super) fn read_dotted_key(doc: &Doc, start: usize) -> Option<(CompactString, usize)> {
    // Most keys are written without spaces around their dots: then the name is the text as
    // written, copied in one allocation instead of built part by part.
    let (end, spaced) = dotted_key_end(doc.bytes, start)?;
    let name = if spaced {
        CompactString::from(joined_parts(doc, start))
    } else {
        CompactString::from(doc.slice(start, end))
    };
    Some((name, end))
}

/// The end of the bare or quoted part at `start` (`start` itself when there is none).
fn key_part_end(bytes: &[u8], start: usize) -> usize {
    match bytes.get(start) {
        Some(b'"' | b'\'') => string_end(bytes, start),
        _ => {
            let mut pos = start;
            while bytes.get(pos).is_some_and(|b| {
                b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-' || *b >= 0x80
            }) {
                pos += 1;
            }
            pos
        }
    }
}

/// The end of the dotted key at `start`, and whether spaces stand around any of its dots.
fn dotted_key_end(bytes: &[u8], start: usize) -> Option<(usize, bool)> {
    let mut spaced = false;
    let mut pos = start;
    loop {
        let end = key_part_end(bytes, pos);
        if end == pos {
            return None;
        }
        let dot = skip_spaces(bytes, end);
        if bytes.get(dot) != Some(&b'.') {
            return Some((end, spaced));
        }
        pos = skip_spaces(bytes, dot + 1);
        spaced |= dot != end || pos != dot + 1;
    }
}

/// The dotted key at `start` with the spaces around its dots dropped.
fn joined_parts(doc: &Doc, start: usize) -> String {
    let bytes = doc.bytes;
    let mut name = String::new();
    let mut pos = start;
    loop {
        let end = key_part_end(bytes, pos);
        name.push_str(doc.slice(pos, end));
        let dot = skip_spaces(bytes, end);
        if end == pos || bytes.get(dot) != Some(&b'.') {
            return name;
        }
        name.push('.');
        pos = skip_spaces(bytes, dot + 1);
    }
}

/// End of the TOML string at `start`: `"…"`, `'…'` (ending with their line when unclosed),
/// `"""…"""`, `'''…'''` (up to two extra quotes may close them).
pub(super) fn string_end(bytes: &[u8], start: usize) -> usize {
    let Some(&quote) = bytes.get(start) else {
        return start;
    };
    let rest = bytes.get(start..).unwrap_or(&[]);
    let triple = rest.len() >= 3 && rest.iter().take(3).all(|b| *b == quote);
    let mut pos = start + if triple { 3 } else { 1 };
    while let Some(&byte) = bytes.get(pos) {
        if byte == b'\\' && quote == b'"' {
            pos = crate::parse::lex::escape_end(bytes, pos);
            continue;
        }
        let line_break = byte == b'\n' || (byte == b'\r' && bytes.get(pos + 1) == Some(&b'\n'));
        if line_break && !triple {
            return pos;
        }
        if byte == quote {
            if !triple {
                return pos + 1;
            }
            let run = bytes
                .get(pos..)
                .unwrap_or(&[])
                .iter()
                .take_while(|b| **b == quote)
                .count();
            if run >= 3 {
                return pos + run.min(5);
            }
            pos += run;
            continue;
        }
        pos += 1;
    }
    bytes.len()
}

/// The offset after the spaces and tabs at `pos`.
pub(super) fn skip_spaces(bytes: &[u8], mut pos: usize) -> usize {
    while matches!(bytes.get(pos), Some(b' ' | b'\t')) {
        pos += 1;
    }
    pos
}

/// `---` or `...` followed by a blank or the line end, at the start of `rest`.
pub(super) fn is_document_marker(rest: &[u8]) -> bool {
    (rest.starts_with(b"---") || rest.starts_with(b"..."))
        && matches!(rest.get(3), None | Some(b' ' | b'\t' | b'\r' | b'\n'))
}
