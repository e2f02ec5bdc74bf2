//! Lexical rules of the data dialects that both the shared bracket scanner (`flow`) and a
//! dialect's own scanner read: TOML's dotted keys and strings, YAML's document markers. Kept
//! apart so that `flow` depends on no dialect module and the dialects depend on `flow`.

use super::Doc;

/// A key as written at `start`: bare and quoted parts joined by dots, spaces around the dots
/// dropped (`a . "b c"` -> `a."b c"`). Returns the name and the offset after the key.
pub(super) fn read_dotted_key(doc: &Doc, start: usize) -> Option<(String, usize)> {
    let bytes = doc.bytes;
    let mut name = String::new();
    let mut pos = start;
    loop {
        let part_start = pos;
        match bytes.get(pos) {
            Some(b'"' | b'\'') => pos = string_end(bytes, pos),
            _ => {
                while bytes.get(pos).is_some_and(|b| {
                    b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-' || *b >= 0x80
                }) {
                    pos += 1;
                }
            }
        }
        if pos == part_start {
            return None;
        }
        name.push_str(doc.slice(part_start, pos));
        let dot = skip_spaces(bytes, pos);
        if bytes.get(dot) != Some(&b'.') {
            return Some((name, pos));
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
