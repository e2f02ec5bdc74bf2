//! The preprocessor pass: records `#define` macros, blanks every directive line, and chooses
//! which `#if` branches the code scan sees so that duplicated declaration heads do not merge.

use crate::outline::{Entry, Kind};
use crate::parse::lex::blank;
use crate::parse::{signature, LineCursor};

/// Result of the preprocessor pass.
pub(super) struct Preprocessed {
    /// Masked text with directives and dropped `#if` branches blanked (newlines kept).
    pub code: Vec<u8>,
    pub macros: Vec<Entry>,
}

const MAX_GROUP_DEPTH: usize = 32;

struct Branch {
    /// Offset where the first content line starts.
    first: usize,
    /// Offset where the directive after the last content line starts (`usize::MAX`: the end
    /// of the text).
    end: usize,
    /// `#if 0` / `#elif 0`: never compiled.
    dead: bool,
    /// For the first branch: whether the compiler most likely skips it (`#ifdef X`,
    /// `#if defined(_WIN32)`), so that the last branch is the one to keep.
    unlikely: bool,
}

/// The end of the line holding `pos`: its `\n`, or the end of the text.
fn line_end(bytes: &[u8], pos: usize) -> usize {
    let pos = pos.min(bytes.len());
    memchr::memchr(b'\n', &bytes[pos..]).map_or(bytes.len(), |n| pos + n)
}

/// The start of the line holding `pos`.
fn line_start(bytes: &[u8], pos: usize) -> usize {
    let pos = pos.min(bytes.len());
    memchr::memrchr(b'\n', &bytes[..pos]).map_or(0, |n| n + 1)
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

/// Runs the pass over `masked` (the masked `text`), which becomes the code the scope scanner
/// reads. Directives are found by their `#` (a `memchr` jump), not line by line.
pub(super) fn preprocess(text: &str, masked: Vec<u8>, lines: &LineCursor) -> Preprocessed {
    let src = text.as_bytes();
    let mut code = masked;
    let mut macros = Vec::new();
    let mut groups: Vec<Vec<Branch>> = Vec::new();
    // `#if` nesting past MAX_GROUP_DEPTH is counted, not tracked (keeps the pass linear).
    let mut untracked = 0usize;
    // Branches the compiler most likely skips, for `drop_unclosed_openers`.
    let mut skipped: Vec<(usize, usize)> = Vec::new();
    let mut from = 0;
    while let Some(n) = memchr::memchr(b'#', code.get(from..).unwrap_or(&[])) {
        let hash = from + n;
        let start = line_start(&code, hash);
        let indent = code.get(start..hash).unwrap_or(&[]);
        if !indent.iter().all(|b| matches!(b, b' ' | b'\t' | b'\x0c')) {
            from = hash + 1;
            continue;
        }
        let dir_end = directive_end(src, &code, start);
        let (ws, we) = word_at(&code, hash + 1);
        let first_line_end = trim_line(&code, (start, line_end(&code, start))).1;
        let word = code.get(ws..we).unwrap_or(b"");
        let rest = code.get(we..first_line_end.max(we)).unwrap_or(b"");
        let next_line = (dir_end + 1).min(code.len());
        match word {
            b"define" => {
                let (line, end_line) = (lines.line_of(hash), lines.line_of(dir_end));
                if let Some(entry) = define_entry(src, we, dir_end, line, end_line) {
                    macros.push(entry);
                }
            }
            b"if" | b"ifdef" | b"ifndef" if groups.len() >= MAX_GROUP_DEPTH => untracked += 1,
            b"endif" if untracked > 0 => untracked -= 1,
            b"elif" | b"else" | b"elifdef" | b"elifndef" if untracked > 0 => {}
            b"if" | b"ifdef" | b"ifndef" => groups.push(vec![Branch {
                first: next_line,
                end: usize::MAX,
                dead: word == b"if" && is_zero(rest),
                unlikely: word == b"ifdef" || (word == b"if" && unlikely_condition(rest)),
            }]),
            b"elif" | b"else" | b"elifdef" | b"elifndef" => {
                let dead = word == b"elif" && is_zero(rest);
                if let Some(group) = groups.last_mut() {
                    if let Some(last) = group.last_mut() {
                        last.end = start;
                    }
                    group.push(Branch {
                        first: next_line,
                        end: usize::MAX,
                        dead,
                        unlikely: false,
                    });
                }
            }
            b"endif" => {
                if let Some(mut group) = groups.pop() {
                    if let Some(last) = group.last_mut() {
                        last.end = start;
                    }
                    let after = next_code_byte(&code, next_line);
                    settle(&mut code, &group, after);
                    skipped.extend(likely_skipped(code.len(), &group));
                }
            }
            _ => {}
        }
        // Blanked last: the word and condition were read from it, and the branches settled
        // above end before its line.
        blank(&mut code, hash, dir_end);
        from = dir_end + 1;
    }
    while let Some(group) = groups.pop() {
        settle(&mut code, &group, None);
        skipped.extend(likely_skipped(code.len(), &group));
    }
    drop_unclosed_openers(&mut code, &skipped);
    Preprocessed { code, macros }
}

/// The end (`\n` or end of text) of the directive whose line starts at `start`: it runs on
/// while its lines end with a backslash, or while a block comment is open (a backslash inside
/// a comment still splices; so does a block comment left open).
fn directive_end(src: &[u8], code: &[u8], start: usize) -> usize {
    let mut in_comment = false;
    let mut line = start;
    loop {
        let end = line_end(code, line);
        let (ts, te) = trim_line(src, (line, end));
        in_comment = block_comment_open_after(
            src.get(ts..te).unwrap_or(b""),
            code.get(ts..te).unwrap_or(b""),
            in_comment,
        );
        let spliced = te > ts && src.get(te - 1) == Some(&b'\\');
        if (spliced || in_comment) && end + 1 < code.len() {
            line = end + 1;
        } else {
            return end;
        }
    }
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

/// The first code byte from the line starting at `from` on, skipping directive lines.
fn next_code_byte(code: &[u8], from: usize) -> Option<u8> {
    let mut line = from;
    for _ in 0..200 {
        if line >= code.len() {
            return None;
        }
        let end = line_end(code, line);
        let (ts, te) = trim_line(code, (line, end));
        match code.get(ts) {
            Some(b'#') => {}
            Some(b) if ts < te => return Some(*b),
            _ => {}
        }
        line = end + 1;
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

/// Whether a branch stands on its own: balanced brackets that never dip below zero, ending
/// after a complete statement. Branches that do not are alternatives of one another (two heads
/// of one function), so only one is kept.
fn self_contained(code: &[u8], after: Option<u8>) -> bool {
    let scan = brackets(code);
    // A branch ending in `)` is a macro call (`NAMESPACE_BEGIN(x)`) unless a body follows.
    let head_follows = matches!(after, Some(b'{' | b':' | b';' | b',' | b')' | b'-'));
    scan.never_negative
        && scan.closed
        && (matches!(scan.last, None | Some(b';' | b'}' | b':' | b','))
            || (scan.last == Some(b')') && !head_follows))
}

/// What a branch's braces and parentheses say about it.
struct Brackets {
    /// No bracket closes before it opens (the scan stops at the first that does).
    never_negative: bool,
    /// Every bracket is closed at the end.
    closed: bool,
    /// The last byte that is not whitespace.
    last: Option<u8>,
    /// The length of the longest prefix made of complete items: it ends right after a `}` or
    /// `;` with every bracket closed.
    complete: usize,
}

fn brackets(code: &[u8]) -> Brackets {
    let (mut braces, mut parens) = (0i64, 0i64);
    let mut scan = Brackets {
        never_negative: true,
        closed: true,
        last: None,
        complete: 0,
    };
    for (at, &b) in code.iter().enumerate() {
        match b {
            b'{' => braces += 1,
            b'}' => braces -= 1,
            b'(' => parens += 1,
            b')' => parens -= 1,
            _ => {}
        }
        if braces < 0 || parens < 0 {
            scan.never_negative = false;
            return scan;
        }
        if !b.is_ascii_whitespace() {
            scan.last = Some(b);
        }
        if braces == 0 && parens == 0 && matches!(b, b'}' | b';') {
            scan.complete = at + 1;
        }
    }
    scan.closed = braces == 0 && parens == 0;
    scan
}

/// The content of `branch`: from its first line to the end of the line before the directive
/// that ends it; `None` when it has no line.
fn branch_range(len: usize, branch: &Branch) -> Option<(usize, usize)> {
    let (end, last_end) = match branch.end {
        usize::MAX => (len, len),
        end => (end, end.saturating_sub(1)),
    };
    (branch.first < end).then_some((branch.first, last_end.max(branch.first)))
}

fn settle(code: &mut [u8], group: &[Branch], after: Option<u8>) {
    let mut live = Vec::new();
    for branch in group {
        let Some((s, e)) = branch_range(code.len(), branch) else {
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
            // Complete items before an open head in a branch before the one kept (`wmain` in
            // `#ifdef WIN32`, before the `umain` head that pairs with `main` under `#else`)
            // stay. After the kept branch they would land in its open body: blanked.
            if n < keep {
                let kept = brackets(code.get(s..e).unwrap_or(&[])).complete;
                blank(code, s + kept, e);
            } else if n > keep {
                blank(code, s, e);
            }
        }
    }
}

/// The branches of `group` the compiler most likely skips: the first of an unlikely
/// condition (`#ifdef NEVER`), the later ones (`#else`) of any other.
fn likely_skipped(len: usize, group: &[Branch]) -> Vec<(usize, usize)> {
    let first_unlikely = group.first().is_some_and(|b| b.unlikely);
    group
        .iter()
        .enumerate()
        .filter(|&(n, _)| (n == 0) == first_unlikely)
        .filter_map(|(_, branch)| branch_range(len, branch))
        .collect()
}

/// A `{` that no `}` in the file closes would hold the rest of the file as its body. Opened in
/// a branch the compiler most likely skips (`typedef struct {` under `#ifdef NEVER`, its
/// other half never written), it is skipped: that branch is blanked from its last complete
/// item on. Branches kept by the compiler (an include guard's) are left as they are.
fn drop_unclosed_openers(code: &mut [u8], skipped: &[(usize, usize)]) {
    if skipped.is_empty() {
        return;
    }
    let mut open = Vec::new();
    for at in memchr::memchr2_iter(b'{', b'}', code) {
        if code[at] == b'{' {
            open.push(at);
        } else {
            open.pop();
        }
    }
    for brace in open {
        let holder = skipped
            .iter()
            .filter(|&&(s, e)| s <= brace && brace < e)
            .min_by_key(|&&(s, e)| e - s);
        if let Some(&(s, e)) = holder {
            let complete = brackets(code.get(s..e).unwrap_or(&[])).complete;
            blank(code, s + complete, e);
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
