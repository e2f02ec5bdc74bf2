//! The preprocessor pass: records `#define` macros, blanks every directive line, and chooses
//! which `#if` branches the code scan sees so that duplicated declaration heads do not merge.

use crate::outline::{Entry, Kind};
use crate::parse::signature;

/// Result of the preprocessor pass.
pub(super) struct Preprocessed {
    /// Masked text with directives and dropped `#if` branches blanked (newlines kept).
    pub code: Vec<u8>,
    pub macros: Vec<Entry>,
}

const MAX_GROUP_DEPTH: usize = 32;

struct Branch {
    /// First content line (0-based index into the line table).
    first: usize,
    /// One past the last content line.
    end: usize,
    /// `#if 0` / `#elif 0`: never compiled.
    dead: bool,
    /// For the first branch: whether the compiler most likely skips it (`#ifdef X`,
    /// `#if defined(_WIN32)`), so that the last branch is the one to keep.
    unlikely: bool,
}

/// Line table: byte range of every line without its `\n`.
fn line_table(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut lines = Vec::new();
    let mut start = 0;
    for nl in memchr::memchr_iter(b'\n', bytes) {
        lines.push((start, nl));
        start = nl + 1;
    }
    if start < bytes.len() {
        lines.push((start, bytes.len()));
    }
    lines
}

fn trim_line(bytes: &[u8], (start, end): (usize, usize)) -> (usize, usize) {
    let mut s = start;
    let mut e = end;
    while s < e && matches!(bytes.get(s), Some(b' ' | b'\t' | b'\x0c')) {
        s += 1;
    }
    while e > s && matches!(bytes.get(e - 1), Some(b' ' | b'\t' | b'\r' | b'\x0c')) {
        e -= 1;
    }
    (s, e)
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

fn word_at(bytes: &[u8], pos: usize) -> (usize, usize) {
    let mut s = pos;
    while s < bytes.len() && matches!(bytes[s], b' ' | b'\t') {
        s += 1;
    }
    let mut e = s;
    while e < bytes.len() && is_ident_byte(bytes[e]) {
        e += 1;
    }
    (s, e)
}

pub(super) fn preprocess(text: &str, masked: &str) -> Preprocessed {
    let src = text.as_bytes();
    let bytes = masked.as_bytes();
    let mut code = bytes.to_vec();
    let lines = line_table(bytes);
    let mut macros = Vec::new();
    let mut groups: Vec<Vec<Branch>> = Vec::new();
    // `#if` nesting past MAX_GROUP_DEPTH is counted, not tracked (keeps the pass linear).
    let mut untracked = 0usize;
    let mut li = 0;
    while li < lines.len() {
        let Some(&line) = lines.get(li) else { break };
        let (s, e) = trim_line(bytes, line);
        if bytes.get(s) != Some(&b'#') || s >= e {
            li += 1;
            continue;
        }
        // The directive runs on while its lines end with a backslash.
        let mut lj = li;
        // (A backslash inside a comment still splices; so does a block comment left open.)
        let mut in_comment = false;
        while let Some(&l) = lines.get(lj) {
            let (ts, te) = trim_line(src, l);
            in_comment = block_comment_open_after(
                src.get(ts..te).unwrap_or(b""),
                bytes.get(ts..te).unwrap_or(b""),
                in_comment,
            );
            let spliced = te > ts && src.get(te - 1) == Some(&b'\\');
            if (spliced || in_comment) && lj + 1 < lines.len() {
                lj += 1;
            } else {
                break;
            }
        }
        let dir_end = lines.get(lj).map_or(e, |l| l.1);
        blank(&mut code, s, dir_end);
        let (ws, we) = word_at(bytes, s + 1);
        let word = bytes.get(ws..we).unwrap_or(b"");
        let rest_end = lines.get(li).map_or(e, |l| trim_line(bytes, *l).1);
        let rest = bytes.get(we..rest_end.max(we)).unwrap_or(b"");
        match word {
            b"define" => {
                if let Some(entry) = define_entry(src, we, dir_end, li + 1, lj + 1) {
                    macros.push(entry);
                }
            }
            b"if" | b"ifdef" | b"ifndef" if groups.len() >= MAX_GROUP_DEPTH => untracked += 1,
            b"endif" if untracked > 0 => untracked -= 1,
            b"elif" | b"else" | b"elifdef" | b"elifndef" if untracked > 0 => {}
            b"if" | b"ifdef" | b"ifndef" => groups.push(vec![Branch {
                first: lj + 1,
                end: lines.len(),
                dead: word == b"if" && is_zero(rest),
                unlikely: word == b"ifdef" || (word == b"if" && unlikely_condition(rest)),
            }]),
            b"elif" | b"else" | b"elifdef" | b"elifndef" => {
                if let Some(group) = groups.last_mut() {
                    if let Some(last) = group.last_mut() {
                        last.end = li;
                    }
                    group.push(Branch {
                        first: lj + 1,
                        end: lines.len(),
                        dead: word == b"elif" && is_zero(rest),
                        unlikely: false,
                    });
                }
            }
            b"endif" => {
                if let Some(mut group) = groups.pop() {
                    if let Some(last) = group.last_mut() {
                        last.end = li;
                    }
                    let after = next_code_byte(&code, &lines, lj + 1);
                    settle(&mut code, &lines, &group, after);
                }
            }
            _ => {}
        }
        li = lj + 1;
    }
    while let Some(group) = groups.pop() {
        settle(&mut code, &lines, &group, None);
    }
    Preprocessed { code, macros }
}

/// `defined(X)` without negation, or a platform test: most likely false on the reference
/// configuration (Linux, no feature macros).
fn unlikely_condition(rest: &[u8]) -> bool {
    let text = String::from_utf8_lossy(rest);
    if text.contains('!') || text.contains("__cplusplus") {
        return false;
    }
    text.contains("defined")
        || ["WIN", "MSC", "APPLE", "MOBILE", "ANDROID", "MAC"]
            .iter()
            .any(|w| text.contains(w))
}

/// The first code byte from line `from` on, skipping directive lines.
fn next_code_byte(code: &[u8], lines: &[(usize, usize)], from: usize) -> Option<u8> {
    for &(s, e) in lines.iter().skip(from).take(200) {
        let (ts, te) = trim_line(code, (s, e));
        match code.get(ts) {
            Some(b'#') => continue,
            Some(b) if ts < te => return Some(*b),
            _ => {}
        }
    }
    None
}

/// Whether a `/* … */` comment is still open at the end of `line`; `masked` (the same line
/// masked) tells string literals apart, their quotes being kept.
fn block_comment_open_after(line: &[u8], masked: &[u8], mut open: bool) -> bool {
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i + 1 < line.len() {
        let m = masked.get(i).copied().unwrap_or(b' ');
        if !open {
            match quote {
                Some(q) if m == q => quote = None,
                None if m == b'"' || m == b'\'' => quote = Some(m),
                _ => {}
            }
        }
        if quote.is_some() {
            i += 1;
            continue;
        }
        match (line[i], line[i + 1], open) {
            (b'/', b'*', false) => {
                open = true;
                i += 2;
            }
            (b'*', b'/', true) => {
                open = false;
                i += 2;
            }
            (b'/', b'/', false) => return false,
            _ => i += 1,
        }
    }
    open
}

fn is_zero(rest: &[u8]) -> bool {
    let t: Vec<u8> = rest
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace() && *b != b'(' && *b != b')')
        .collect();
    t == b"0" || t == b"false"
}

fn blank(code: &mut [u8], start: usize, end: usize) {
    let end = end.min(code.len());
    for byte in code.get_mut(start.min(end)..end).unwrap_or(&mut []) {
        if *byte != b'\n' {
            *byte = b' ';
        }
    }
}

/// Whether a branch stands on its own: balanced brackets that never dip below zero, ending
/// after a complete statement. Branches that do not are alternatives of one another (two heads
/// of one function), so only one is kept.
fn self_contained(code: &[u8], after: Option<u8>) -> bool {
    let (mut braces, mut parens) = (0i64, 0i64);
    let mut last = None;
    for &b in code {
        match b {
            b'{' => braces += 1,
            b'}' => braces -= 1,
            b'(' => parens += 1,
            b')' => parens -= 1,
            _ => {}
        }
        if braces < 0 || parens < 0 {
            return false;
        }
        if !b.is_ascii_whitespace() {
            last = Some(b);
        }
    }
    // A branch ending in `)` is a macro call (`NAMESPACE_BEGIN(x)`) unless a body follows.
    let head_follows = matches!(after, Some(b'{' | b':' | b';' | b',' | b')' | b'-'));
    braces == 0
        && parens == 0
        && (matches!(last, None | Some(b';' | b'}' | b':' | b','))
            || (last == Some(b')') && !head_follows))
}

fn branch_range(lines: &[(usize, usize)], branch: &Branch) -> Option<(usize, usize)> {
    if branch.first >= branch.end {
        return None;
    }
    let start = lines.get(branch.first)?.0;
    let end = lines.get(branch.end - 1)?.1;
    Some((start, end.max(start)))
}

fn settle(code: &mut [u8], lines: &[(usize, usize)], group: &[Branch], after: Option<u8>) {
    let mut live = Vec::new();
    for branch in group {
        let Some((s, e)) = branch_range(lines, branch) else {
            continue;
        };
        if branch.dead {
            blank(code, s, e);
        } else {
            live.push((s, e));
        }
    }
    if live.len() < 2 {
        return;
    }
    let all_fine = live
        .iter()
        .all(|&(s, e)| self_contained(code.get(s..e).unwrap_or(&[]), after));
    if !all_fine {
        let keep = if group.first().is_some_and(|b| b.unlikely && !b.dead) {
            live.len() - 1
        } else {
            0
        };
        for (n, &(s, e)) in live.iter().enumerate() {
            if n != keep {
                blank(code, s, e);
            }
        }
    }
}

/// A `#define` entry: `name_from` is just after the `define` word.
fn define_entry(
    src: &[u8],
    name_from: usize,
    dir_end: usize,
    line: usize,
    end_line: usize,
) -> Option<Entry> {
    let (ns, ne) = word_at(src, name_from);
    if ne <= ns {
        return None;
    }
    let name = String::from_utf8_lossy(src.get(ns..ne)?).into_owned();
    let mut head_end = ne;
    if src.get(ne) == Some(&b'(') {
        if let Some(close) = src.get(ne..dir_end)?.iter().position(|b| *b == b')') {
            head_end = ne + close + 1;
        }
    }
    let mut sig = String::from_utf8_lossy(src.get(ns..head_end)?).into_owned();
    // A short one-line value helps (`#define MAX_LEN 256`); long bodies do not.
    let value_end = src
        .get(head_end..dir_end)?
        .iter()
        .position(|b| *b == b'\n')
        .map_or(dir_end, |n| head_end + n);
    let value = String::from_utf8_lossy(src.get(head_end..value_end)?).into_owned();
    let value = strip_comment(&value);
    let value = value.trim();
    if !value.is_empty() && !value.ends_with('\\') && value.chars().count() <= 60 {
        sig.push(' ');
        sig.push_str(value);
    }
    Some(Entry::new(Kind::Macro, name, line, end_line).with_signature(signature(&sig)))
}

fn strip_comment(value: &str) -> String {
    let mut cut = value.len();
    if let Some(i) = value.find("//") {
        cut = cut.min(i);
    }
    if let Some(i) = value.find("/*") {
        cut = cut.min(i);
    }
    value.get(..cut).unwrap_or(value).to_string()
}
