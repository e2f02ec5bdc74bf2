//! Module-level assignments and `type` aliases: the names a statement binds, UPPER_CASE ones
//! as constants and every other name (`__all__`, `_table`, `logger`) as a variable, each
//! spanning the whole statement (a 50-line dict literal covers all its lines).

use crate::outline::{Entry, Kind};
use crate::parse::{one_line, signature};

use super::{header_colon, Logical, Source};

/// Deepest bracket nesting read in an assignment target list (`(A, (B, C)) = ...`).
const MAX_TARGET_NESTING: usize = 8;

/// Longest constant signature (`NAME = value`) before it is cut with `…`.
const MAX_CONSTANT_SIGNATURE: usize = 100;

/// Module-level `NAME = ...`, `A = B = ...`, `A, B = ...`, `NAME: T = ...` and `NAME: T`, one
/// entry per name bound.
pub(super) fn constants(src: &Source, logical: &Logical) -> Vec<Entry> {
    let mut out = Vec::new();
    let masked = src.masked;
    let first = masked.get(logical.start).copied().unwrap_or(0);
    let target_start = first.is_ascii_alphabetic() || first >= 0x80 || b"_([*".contains(&first);
    // A binding needs an `=` or an annotation's `:`: imports and calls have neither.
    let line = masked.get(logical.start..logical.end).unwrap_or(&[]);
    if !target_start || memchr::memchr2(b'=', b':', line).is_none() {
        return out;
    }
    for (start, end) in statements(masked, logical.start, logical.end) {
        statement_constants(src, start, end, &mut out);
    }
    out
}

/// The `;`-separated statements of a logical line, as trimmed offset ranges.
fn statements(masked: &[u8], start: usize, end: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut from = start;
    let bytes = masked.get(start..end).unwrap_or(&[]);
    for (i, byte) in bytes.iter().enumerate() {
        match byte {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b';' if depth == 0 => {
                out.push((from, start + i));
                from = start + i + 1;
            }
            _ => {}
        }
    }
    out.push((from, end));
    out.into_iter()
        .filter_map(|(s, e)| trim_range(masked, s, e))
        .collect()
}

fn trim_range(masked: &[u8], mut start: usize, mut end: usize) -> Option<(usize, usize)> {
    while start < end && masked.get(start).is_some_and(|b| b.is_ascii_whitespace()) {
        start += 1;
    }
    while end > start && masked.get(end - 1).is_some_and(|b| b.is_ascii_whitespace()) {
        end -= 1;
    }
    (start < end).then_some((start, end))
}

/// Offsets of the assignment `=` signs at bracket depth 0 (not `==`, `<=`, `+=`, `:=`, ...).
fn assignment_signs(bytes: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    for (i, byte) in bytes.iter().enumerate() {
        match byte {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'=' if depth == 0 => {
                let prev = if i > 0 {
                    bytes.get(i - 1).copied()
                } else {
                    None
                };
                let next = bytes.get(i + 1).copied();
                let compound = prev.is_some_and(|p| b"=!<>:+-*/%&|^@~".contains(&p));
                if !compound && next != Some(b'=') {
                    out.push(i);
                }
            }
            _ => {}
        }
    }
    out
}

fn is_upper_constant(name: &str) -> bool {
    let rest = name.trim_start_matches('_');
    let mut chars = rest.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && rest.len() >= 2
        && rest
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

fn is_identifier(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_alphabetic())
        && chars.all(|c| c == '_' || c.is_alphanumeric())
}

/// The names a target list binds (`A`, `A, B`, `(A, *B)`), as offset ranges relative to
/// `bytes`; `None` when it is not a plain target list (attributes, subscripts, expressions).
fn target_names(bytes: &[u8], base: usize, out: &mut Vec<(usize, usize)>) -> bool {
    nested_target_names(bytes, base, out, 0)
}

/// [`target_names`] at bracket `nesting`; deep nesting is no plain target list.
fn nested_target_names(
    bytes: &[u8],
    base: usize,
    out: &mut Vec<(usize, usize)>,
    nesting: usize,
) -> bool {
    if nesting > MAX_TARGET_NESTING {
        return false;
    }
    let Some((start, end)) = trim_range(bytes, 0, bytes.len()) else {
        return false;
    };
    let inner = &bytes[start..end];
    if let (Some(b'(' | b'['), Some(b')' | b']')) = (inner.first(), inner.last()) {
        let items = inner.get(1..inner.len() - 1).unwrap_or(&[]);
        return split_items(items, base + start + 1, out, true, nesting);
    }
    split_items(inner, base + start, out, false, nesting)
}

fn split_items(
    bytes: &[u8],
    base: usize,
    out: &mut Vec<(usize, usize)>,
    bracketed: bool,
    nesting: usize,
) -> bool {
    let mut depth = 0usize;
    let mut from = 0;
    let mut items = Vec::new();
    for (i, byte) in bytes.iter().enumerate() {
        match byte {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                items.push((from, i));
                from = i + 1;
            }
            _ => {}
        }
    }
    items.push((from, bytes.len()));
    let several = items.len() > 1;
    for (s, e) in items {
        let Some((s, e)) = trim_range(bytes, s, e) else {
            if several || bracketed {
                continue; // trailing comma, `()`
            }
            return false;
        };
        let mut item = &bytes[s..e];
        let mut offset = s;
        if item.first() == Some(&b'*') {
            item = &item[1..];
            offset += 1;
            let skip = item.iter().take_while(|b| b.is_ascii_whitespace()).count();
            item = &item[skip..];
            offset += skip;
        }
        if matches!(item.first(), Some(b'(' | b'[')) {
            if !nested_target_names(item, base + offset, out, nesting + 1) {
                return false;
            }
        } else if is_identifier(item) {
            out.push((base + offset, base + offset + item.len()));
        } else if !several || !is_attribute_or_subscript(item) {
            // `VAR2, VAR1.x = …` binds VAR2 and sets an attribute, which names nothing here.
            return false;
        }
    }
    true
}

/// A target that sets a part of an object (`a.b`, `a[0]`, `a.b[i].c`), binding no name.
fn is_attribute_or_subscript(item: &[u8]) -> bool {
    let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_' || *b >= 0x80;
    let head = item.iter().take_while(|b| word(b)).count();
    let mut at = head;
    let mut parts = 0;
    while at < item.len() {
        match item.get(at) {
            Some(b'.') => {
                let name = item.get(at + 1..).unwrap_or(&[]);
                let len = name.iter().take_while(|b| word(b)).count();
                if len == 0 {
                    return false;
                }
                at += 1 + len;
            }
            Some(b'[') => match close_of_subscript(item, at) {
                Some(close) => at = close + 1,
                None => return false,
            },
            _ => return false,
        }
        parts += 1;
    }
    head > 0 && parts > 0
}

/// The `]` closing the `[` at `open` in `item`.
fn close_of_subscript(item: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (at, byte) in item.iter().enumerate().skip(open) {
        match byte {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return (*byte == b']').then_some(at);
                }
            }
            _ => {}
        }
    }
    None
}

/// `type Name = …` or `type Name[T] = …` (Python 3.12): a type alias named `Name`, as
/// TypeScript's `type Name = …` is. `type = 1` and `type(x)` assign or call a name `type`.
fn type_alias(src: &Source, start: usize, end: usize) -> Option<Entry> {
    let bytes = src.masked.get(start..end)?;
    let after_keyword = bytes.strip_prefix(b"type")?;
    let blanks = after_keyword
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\x0c'))
        .count();
    let rest = after_keyword.get(blanks..)?;
    let len = rest
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_' || **b >= 0x80)
        .count();
    let name_at = 4 + blanks;
    if blanks == 0 || !is_identifier(rest.get(..len)?) {
        return None;
    }
    let signs = assignment_signs(bytes);
    let sign = *signs.first()?;
    let between = trim_range(bytes, name_at + len, sign);
    let params =
        between.is_none_or(|(s, e)| bytes.get(s) == Some(&b'[') && bytes.get(e - 1) == Some(&b']'));
    if !params {
        return None;
    }
    let name = src.slice(start + name_at, start + name_at + len);
    let line = src.lines.line_of(start);
    let end_line = src.lines.line_of(end.saturating_sub(1));
    let sig = one_line(&src.clean(start + name_at, end));
    Some(Entry::new(Kind::Type, name, line, end_line.max(line)).with_signature(signature(&sig)))
}

fn statement_constants(src: &Source, start: usize, end: usize, out: &mut Vec<Entry>) {
    if let Some(alias) = type_alias(src, start, end) {
        out.push(alias);
        return;
    }
    let Some(bytes) = src.masked.get(start..end) else {
        return;
    };
    let signs = assignment_signs(bytes);
    let mut names: Vec<(usize, usize)> = Vec::new();
    let first_target_end = signs.first().copied().unwrap_or(bytes.len());
    // `NAME: annotation` (with or without a value) binds exactly one name.
    let first = &bytes[..first_target_end];
    if let Some(colon) = header_colon(first, 0) {
        let name = trim_range(first, 0, colon);
        let annotated = trim_range(first, colon + 1, first.len()).is_some();
        if let (Some((s, e)), true) = (name, annotated) {
            if is_identifier(&first[s..e]) {
                names.push((start + s, start + e));
            }
        }
    } else if !signs.is_empty() {
        let mut from = 0;
        for sign in &signs {
            let mut found = Vec::new();
            if !target_names(&bytes[from..*sign], start + from, &mut found) {
                break;
            }
            names.extend(found);
            from = sign + 1;
        }
    }
    if names.is_empty() {
        return;
    }
    let end_line = src.lines.line_of(end.saturating_sub(1));
    // The statement is the signature when it binds one name; with several (`A, B = 1, 2`,
    // `A = B = 1`) it would label each of them the same, so the name alone is clearer.
    let sig = if names.len() == 1 {
        let statement = one_line(&src.clean(start, end));
        match statement.char_indices().nth(MAX_CONSTANT_SIGNATURE) {
            Some((cut, _)) => format!("{}…", statement[..cut].trim_end()),
            None => statement,
        }
    } else {
        String::new()
    };
    for (s, e) in names {
        let name = src.slice(s, e);
        let kind = if is_upper_constant(name) {
            Kind::Constant
        } else {
            Kind::Variable
        };
        let line = src.lines.line_of(s);
        out.push(Entry::new(kind, name, line, end_line.max(line)).with_signature(signature(&sig)));
    }
}
