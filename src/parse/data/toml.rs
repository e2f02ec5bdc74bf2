//! TOML: `[table]` and `[[array.table]]` headers with the keys under them, top-level keys,
//! dotted keys (`a.b = 1`, named `a.b`), inline tables and arrays (keys inside listed), and
//! multi-line strings and arrays whose content is never read as keys.

use super::flow::{self, Mode};
use super::lexical::{read_dotted_key, skip_spaces, string_end};
use super::{Doc, Parent};
use crate::outline::{Entry, Kind};

pub(super) fn parse(text: &str) -> Vec<Entry> {
    let mut doc = Doc::new(text);
    let bytes = doc.bytes;
    let mut table = Parent::Root;
    let mut pos = 0;
    while pos < bytes.len() {
        pos = skip_spaces(bytes, pos);
        match bytes.get(pos) {
            None => break,
            Some(b'\n' | b'\r' | b'#') => {}
            Some(b'[') => {
                let array = bytes.get(pos + 1) == Some(&b'[');
                let from = pos + if array { 2 } else { 1 };
                let line = doc.line(pos);
                let (name, after) =
                    read_dotted_key(&doc, skip_spaces(bytes, from)).unwrap_or_default();
                let (kind, brackets) = match array {
                    true => (Kind::ArrayTable, 2),
                    false => (Kind::Table, 1),
                };
                table = doc.add(Parent::Root, kind, name, line);
                if let Some(node) = doc.node_mut(table) {
                    node.brackets = brackets;
                }
                pos = after.max(pos + 1);
            }
            Some(_) => {
                pos = key_value(&mut doc, pos, table);
                continue;
            }
        }
        pos = next_line(bytes, pos);
    }
    doc.finish()
}

/// Reads `key = value` at `start` into an entry under `table`; returns the start of the next
/// line to read.
fn key_value(doc: &mut Doc, start: usize, table: Parent) -> usize {
    let bytes = doc.bytes;
    let Some((name, after)) = read_dotted_key(doc, start) else {
        return next_line(bytes, start);
    };
    let eq = skip_spaces(bytes, after);
    if bytes.get(eq) != Some(&b'=') {
        return next_line(bytes, eq);
    }
    let line = doc.line(start);
    let key = doc.add(table, Kind::Key, name, line);
    if let Some(node) = doc.node_mut(table) {
        node.count += 1;
    }
    let value = skip_spaces(bytes, eq + 1);
    if let Some(b'[' | b'{') = bytes.get(value) {
        let scanned = flow::scan(doc, Mode::Toml, value, key, key, None);
        doc.set_end(key, scanned.last_line);
        doc.set_end(table, scanned.last_line);
        // An unclosed collection stops at the start of a table header line: read it next.
        let at_line_start = scanned.end > 0 && bytes.get(scanned.end - 1) == Some(&b'\n');
        return if at_line_start {
            scanned.end
        } else {
            next_line(bytes, scanned.end)
        };
    }
    let end = match bytes.get(value) {
        Some(b'"' | b'\'') => {
            let end = string_end(bytes, value);
            doc.set_scalar(key, value, end);
            end
        }
        Some(b'\n' | b'\r' | b'#') | None => value,
        Some(_) => {
            let line_end = memchr::memchr(b'\n', bytes.get(value..).unwrap_or(&[]))
                .map_or(bytes.len(), |at| value + at);
            let rest = doc.slice(value, line_end);
            let len = rest.find('#').unwrap_or(rest.len());
            let end = value + rest.get(..len).unwrap_or("").trim_end().len();
            doc.set_scalar(key, value, end.max(value + 1));
            end
        }
    };
    let end_line = doc.end_line(start, end);
    doc.set_end(key, end_line);
    doc.set_end(table, end_line);
    next_line(bytes, end)
}

/// The start of the line after the one holding `pos`.
fn next_line(bytes: &[u8], pos: usize) -> usize {
    memchr::memchr(b'\n', bytes.get(pos..).unwrap_or(&[])).map_or(bytes.len(), |at| pos + at + 1)
}
