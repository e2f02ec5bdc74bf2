//! Names and signatures as written: the original text of a range, with comments and
//! directives dropped and skipped brace groups shown as `{…}`.

use super::Scanner;
use crate::parse::owned_signature;

impl Scanner<'_> {
    /// Original text of `start..end` on one line, comments removed, brace groups in `skip`
    /// shown as `{…}`.
    pub(super) fn sig_text(&self, start: usize, end: usize, skip: &[(usize, usize)]) -> String {
        owned_signature(utf8(self.clean(start, end, skip)))
    }

    /// A name read from the original text, comments and directives in between dropped.
    pub(super) fn name_text(&self, start: usize, end: usize) -> String {
        compact(&self.clean(start, end, &[]))
    }

    /// Original bytes of `start..end` with comments and preprocessor lines blanked (string
    /// literals kept), brace groups in `skip` shown as `{…}`.
    fn clean(&self, start: usize, end: usize, skip: &[(usize, usize)]) -> Vec<u8> {
        let code = self.ctx.code;
        let end = end.min(self.src.len()).min(code.len());
        let mut out = Vec::with_capacity(end.saturating_sub(start));
        let mut quote: Option<u8> = None;
        let mut i = start;
        while i < end {
            // Up to the next brace group to show as `{…}` (groups are top-level tokens, so
            // none starts inside a string).
            let group = skip
                .iter()
                .filter(|r| r.0 >= i && r.0 < end)
                .min_by_key(|r| r.0);
            let stop = group.map_or(end, |r| r.0);
            while i < stop {
                i = match quote {
                    Some(q) => {
                        let close = memchr::memchr(q, &code[i..stop]).map(|n| i + n);
                        let to = close.map_or(stop, |c| c + 1);
                        out.extend_from_slice(&self.src[i..to]);
                        if close.is_some() {
                            quote = None;
                        }
                        to
                    }
                    None => {
                        let open = memchr::memchr2(b'"', b'\'', &code[i..stop]).map(|n| i + n);
                        let to = open.unwrap_or(stop);
                        // Code as written, blanked bytes (comments, directives) as spaces.
                        let run = code[i..to].iter().zip(&self.src[i..to]);
                        out.extend(run.map(|(c, s)| if *c == b' ' { b' ' } else { *s }));
                        if let Some(open) = open {
                            out.push(self.src[open]);
                            quote = Some(code[open]);
                            open + 1
                        } else {
                            to
                        }
                    }
                };
            }
            if let Some(&(_, group_end)) = group {
                out.extend_from_slice("{…}".as_bytes());
                i = group_end.max(stop + 1);
            }
        }
        out
    }
}

/// `bytes` as text, invalid UTF-8 replaced (cut from the original text on token bounds, it
/// is valid but for a file that was not).
fn utf8(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes)
        .unwrap_or_else(|err| String::from_utf8_lossy(err.as_bytes()).into_owned())
}

/// Name text without whitespace, except one space between two word characters.
fn compact(bytes: &[u8]) -> String {
    // Most names are one word of ASCII: nothing to compact.
    if bytes
        .iter()
        .all(|b| b.is_ascii() && !b.is_ascii_whitespace() && *b != 0x0b)
    {
        return utf8(bytes.to_vec());
    }
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for ch in text.chars() {
        if ch.is_whitespace() {
            pending_space = true;
            continue;
        }
        if pending_space {
            let prev_word = out
                .chars()
                .last()
                .is_some_and(|c| c.is_alphanumeric() || c == '_');
            if prev_word && (ch.is_alphanumeric() || ch == '_') {
                out.push(' ');
            }
            pending_space = false;
        }
        out.push(ch);
    }
    out
}

/// `operator <` pieces joined: `operator<`, `operator new[]`, `operator bool`.
pub(super) fn tidy_operator(name: String) -> String {
    // A window compare, not str::find: names are short, and find sets up a two-way
    // searcher for every one of them.
    let Some(at) = name
        .as_bytes()
        .windows("operator".len())
        .position(|window| window == b"operator")
    else {
        return name;
    };
    let (before, after) = name.split_at(at + "operator".len());
    let rest = after.trim();
    let word = rest
        .chars()
        .next()
        .is_some_and(|c| c.is_alphanumeric() || c == '_');
    let mut sym = String::new();
    for part in rest.split(' ') {
        if part.is_empty() {
            continue;
        }
        let needs_space = sym
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
            && part
                .chars()
                .next()
                .is_some_and(|c| c.is_alphanumeric() || c == '_');
        if needs_space {
            sym.push(' ');
        }
        sym.push_str(part);
    }
    if word {
        format!("{before} {sym}")
    } else {
        format!("{before}{sym}")
    }
}
