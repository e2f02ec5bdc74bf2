//! Parsing: text in, [`Outline`] out.
//!
//! [`outline_text`] and [`outline_file`] are the entry points. They cut the input at
//! [`MAX_BYTES`] or [`MAX_LINES`], turn lone carriage returns into newlines, drop a byte order
//! mark, run the family scanner that the language's row in `lang::LANGUAGES` names, and hand
//! the tree to [`Outline::new`] (order, ranges, ids) and to `docs` (where each entry's leading
//! comments, decorators and attributes start).
//!
//! There is no scanner trait: a scanner is a function from text to entries, named by the
//! `Family` in the language's row (data, with its mask rules), because scanners hold no state
//! between files and are called in one way. How each family reads its syntax:
//! - Python, Rust, Go and C/C++ run the shared masker (`lex`), which blanks comments and string
//!   contents, and read structure from the masked text; Rust and Go walk it with a `cursor` that
//!   pairs every bracket in one pass.
//! - JavaScript/TypeScript masks with its own masker (`js_ts::mask`: JSX text, regex literals
//!   told from division), CSS/SCSS/LESS with its own pass (unquoted `url(…)`, interpolations).
//! - SQL tokenizes and splits statements itself (`DELIMITER`, `GO` batches, dollar quotes).
//! - Markdown headings come from pulldown-cmark; HTML, JSON, YAML, TOML, Makefiles and
//!   Dockerfiles have tolerant scanners of their own, by tag, key or line.
//!
//! `lex` also masks the lines above entries for the doc pass, in every language, and text for
//! search's code mask. The helpers every scanner shares live here and in `line_breaks`:
//! signature shaping, line numbers.

use crate::lang::Language;
use crate::outline::{Entry, InputLimit, Outline};

pub(crate) mod brace;
pub(crate) mod budget;
pub(crate) mod c_cpp;
pub(crate) mod csharp;
pub(crate) mod css;
pub(crate) mod cursor;
pub(crate) mod data;
pub(crate) mod docker;
pub(crate) mod docs;
pub(crate) mod end_blocks;
pub(crate) mod go;
pub(crate) mod html;
pub(crate) mod java;
pub(crate) mod js_ts;
pub(crate) mod kotlin;
pub(crate) mod lex;
pub(crate) mod line_breaks;
pub(crate) mod lua;
pub(crate) mod make;
pub(crate) mod markdown;
pub(crate) mod php;
pub(crate) mod python;
pub(crate) mod ruby;
pub(crate) mod rust;
pub(crate) mod shell;
pub(crate) mod sql;
pub(crate) mod swift;

pub(crate) use line_breaks::{
    count_line_breaks, line_starts, lone_crs_as_newlines, lone_crs_as_newlines_in_bytes, LineCursor,
};
pub use line_breaks::{count_lines, iter_lines, lines, LineIndex};

#[cfg(test)]
mod properties;
#[cfg(test)]
pub(crate) mod soup;

/// Files larger than this are outlined up to this many bytes.
pub const MAX_BYTES: usize = 10 * 1024 * 1024;
/// Files longer than this are outlined up to this many lines.
pub const MAX_LINES: usize = 50_000;

/// Per-file facts a parser may need besides the text.
#[derive(Debug, Clone, Copy)]
pub struct ParseOptions {
    pub language: Language,
    /// JavaScript/TypeScript only: `<Tag>` may be JSX (see [`crate::lang::may_contain_jsx`]).
    pub jsx: bool,
    /// Ruby only: a Rakefile or `*.rake` file, where `task`, `namespace`, `file` and `rule`
    /// calls define tasks (see [`crate::lang::is_rake_file`]); elsewhere they are calls of
    /// other DSLs (Sinatra's `namespace '/foo'`), never definitions.
    pub rake: bool,
}

impl ParseOptions {
    pub fn new(language: Language) -> ParseOptions {
        ParseOptions {
            language,
            jsx: false,
            rake: false,
        }
    }
}

/// Outlines `text`, which is the whole file (already decoded, lossily if need be).
pub fn outline_text(text: &str, options: ParseOptions) -> Outline {
    outline_file(text, text.len(), options)
}

/// Outlines `text`, the first part of a file of `file_bytes` bytes (the reader stops a little
/// past [`MAX_BYTES`], so a huge file is never loaded whole).
pub fn outline_file(text: &str, file_bytes: usize, options: ParseOptions) -> Outline {
    // Same length as `text`, so byte counts and offsets stay those of the file.
    let text = lone_crs_as_newlines(text);
    let read_whole = file_bytes <= text.len();
    let total_lines = count_lines(&text);
    let (parsed, limit) = apply_limits(&text, total_lines, file_bytes.max(text.len()));
    let (parsed, entries, limit) = match scan_within_budget(parsed, options) {
        (entries, None) => (parsed, entries, limit),
        (entries, Some((end, cut))) => (&parsed[..end], entries, Some(cut)),
    };
    let lines = if read_whole {
        total_lines
    } else {
        // Only a prefix was read: the line total is unknown, the byte total is not.
        count_lines(parsed)
    };
    let mut outline = Outline::new(options.language, lines, file_bytes.max(text.len()), entries);
    if let Some(rules) = options.language.row().docs {
        docs::attach(parsed, rules, &mut outline.entries);
    }
    outline.limit = limit;
    outline
}

/// Runs the family scanner for `options.language` on `text`, whose line breaks are all `\n`
/// or `\r\n` already. Family scanners never see a byte order mark nor a lone carriage return:
/// both are dealt with here and by the caller, once for all of them.
fn parse_lines_unified(text: &str, options: ParseOptions) -> Vec<Entry> {
    // A UTF-8 byte order mark holds no newline, so dropping it keeps every line number.
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let language = options.language;
    match language.row().family {
        Family::Brace(spec) => brace::parse(text, spec),
        Family::CCpp => c_cpp::parse(text, language),
        Family::Css => css::parse(text),
        Family::Data => data::parse(text, language),
        Family::Docker => docker::parse(text),
        Family::Go => go::parse(text),
        Family::Html => html::parse(text),
        Family::JsTs => js_ts::parse(text, options),
        Family::Lua => lua::parse(text),
        Family::Make => make::parse(text),
        Family::Markdown => markdown::parse(text),
        Family::Python => python::parse(text),
        Family::Ruby => ruby::parse(text, options.rake),
        Family::Rust => rust::parse(text),
        Family::Shell => shell::parse(text),
        Family::Sql => sql::parse(text),
    }
}

/// Scans `text` with at most [`budget::MAX_ENTRIES`] entries made. When it holds more, a
/// shorter prefix is scanned again, and again, until one fits: first up to the line whose entry
/// did not fit (twice at most: entries need not come in line order), then half as much each
/// time (one dense line, as in minified data). Each try stops at the budget, so memory stays
/// bounded however dense the text; a cut is said as the other limits are, with how much of the
/// text was outlined (`Some((end, limit))`).
fn scan_within_budget(
    text: &str,
    options: ParseOptions,
) -> (Vec<Entry>, Option<(usize, InputLimit)>) {
    let mut end = text.len();
    let mut tries = 0;
    let entries = loop {
        let prefix = &text[..end];
        match budget::run(budget::MAX_ENTRIES, || parse_lines_unified(prefix, options)) {
            Ok(entries) => break entries,
            Err(line) => {
                tries += 1;
                let line_start = line
                    .checked_sub(2)
                    .and_then(|n| memchr::memchr_iter(b'\n', prefix.as_bytes()).nth(n))
                    .map_or(0, |at| at + 1);
                end = match tries <= 2 && line_start > 0 && line_start < end {
                    true => line_start,
                    false => floor_char_boundary(prefix, end / 2),
                };
            }
        }
    };
    if end == text.len() {
        return (entries, None);
    }
    let prefix = &text[..end];
    let whole_lines = end == 0 || prefix.ends_with('\n');
    let lines = count_lines(prefix);
    let max = thousands(budget::MAX_ENTRIES);
    let limit = match whole_lines {
        true => InputLimit {
            lines_outlined: lines,
            reason: format!(
                "file has over {max} entries; outlined the first {} lines ({} bytes)",
                thousands(lines),
                thousands(end)
            ),
            cut_at: None,
            entries_cut: true,
        },
        false => InputLimit {
            lines_outlined: lines,
            reason: format!(
                "file has over {max} entries; outlined the first {} bytes (line {} is cut there)",
                thousands(end),
                thousands(lines)
            ),
            cut_at: Some(end),
            entries_cut: true,
        },
    };
    (entries, Some((end, limit)))
}

/// The scanner a language's row names. Most families read one language or tell theirs apart
/// by the language they are given (C and C++, the data formats); a brace language is its spec.
#[derive(Clone, Copy)]
pub(crate) enum Family {
    Brace(&'static brace::Spec),
    CCpp,
    Css,
    Data,
    Docker,
    Go,
    Html,
    JsTs,
    Lua,
    Make,
    Markdown,
    Python,
    Ruby,
    Rust,
    Shell,
    Sql,
}

/// How search tells a language's code from its comments and strings (see [`code_mask`]).
#[derive(Clone, Copy)]
pub(crate) enum CodeMask {
    /// Not code (Markdown, HTML, data): nothing to tell apart.
    NotCode,
    /// The shared masker with these rules.
    Lex(&'static lex::LexSpec),
    /// The family's own masker (the text, and whether it may hold JSX).
    Own(fn(&str, bool) -> Vec<u8>),
}

/// The comments of Makefiles and Dockerfiles: `#` to the end of the line, no strings.
pub(crate) const HASH_COMMENTS: lex::LexSpec = lex::LexSpec {
    line_comments: &["#"],
    ..lex::LexSpec::NONE
};

/// `text` with comments and string contents blanked (same length, same newlines, a lone `\r`
/// turned into `\n`), as the family scanner sees it: what search reads as code. `None` for
/// languages that are not code (Markdown, HTML, JSON, YAML, TOML), where nothing can be told
/// apart that way.
pub(crate) fn code_mask(text: &str, options: ParseOptions) -> Option<Vec<u8>> {
    // A line comment ends at a lone `\r` too, as it does for the scanners.
    let text = &*lone_crs_as_newlines(text);
    match options.language.row().code_mask {
        CodeMask::NotCode => None,
        CodeMask::Lex(spec) => Some(lex::mask(text, spec).into_bytes()),
        CodeMask::Own(mask) => Some(mask(text, options.jsx)),
    }
}

/// Cuts `text` (line breaks unified) at the byte and line limits and says what was cut. The
/// cut falls on a line boundary, unless the line that crosses the byte limit would take more
/// than half of what may be outlined with it (minified JSON, one-line bundles): then that line
/// is cut at the limit, on a character boundary, so a huge line never leaves nothing outlined.
fn apply_limits(text: &str, total_lines: usize, file_bytes: usize) -> (&str, Option<InputLimit>) {
    if text.len() <= MAX_BYTES && total_lines <= MAX_LINES {
        return (text, None);
    }
    let mut end = 0;
    let mut lines = 0;
    for index in memchr::memchr_iter(b'\n', text.as_bytes()) {
        if index + 1 > MAX_BYTES || lines == MAX_LINES {
            break;
        }
        end = index + 1;
        lines += 1;
    }
    let split = lines < MAX_LINES && text.len() > MAX_BYTES && end < MAX_BYTES / 2;
    let reason = if split {
        end = floor_char_boundary(text, MAX_BYTES);
        lines += 1;
        format!(
            "file has {} bytes; outlined the first {} (line {} is cut there)",
            thousands(file_bytes),
            thousands(end),
            thousands(lines)
        )
    } else if lines == MAX_LINES && file_bytes <= text.len() {
        format!(
            "file has {} lines; outlined the first {}",
            thousands(total_lines),
            thousands(lines)
        )
    } else {
        format!(
            "file has {} bytes; outlined the first {} lines ({} bytes)",
            thousands(file_bytes),
            thousands(lines),
            thousands(end)
        )
    };
    let limit = InputLimit {
        lines_outlined: lines,
        reason,
        cut_at: split.then_some(end),
        entries_cut: false,
    };
    (text.get(..end).unwrap_or(""), Some(limit))
}

/// The largest char boundary of `text` at or below `index`.
fn floor_char_boundary(text: &str, index: usize) -> usize {
    let mut index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

/// `1234567` as `1,234,567`.
pub(crate) fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// Joins a declaration that spans lines into one line, the one place signatures are shaped:
/// runs of whitespace (line breaks and indentation included) become one space. Where a line
/// broke, there is no space after `(`, `[` or `<` or before `)`, `]` or `>`, and a trailing
/// comma before a closing bracket goes (`f<\n  T,\n>(\n  a,\n)` reads `f<T>(a)`). What was
/// written on one line keeps its spacing: `a > b` is a comparison or a CSS combinator, `(1,)`
/// a tuple, and `"( x ]"` a string a data key's value shows as is.
pub(crate) fn one_line(text: &str) -> String {
    join_words(text, usize::MAX)
}

/// [`one_line`], stopping after the word that takes the result past `max_bytes`.
fn join_words(text: &str, max_bytes: usize) -> String {
    if let Some(core) = joined_core(text, max_bytes) {
        return core.to_owned();
    }
    join_ascii_words(text, max_bytes).unwrap_or_else(|| join_unicode_words(text, max_bytes))
}

/// `text` without the whitespace at its ends when that is all [`join_words`] would change:
/// ASCII words apart by single spaces (and no more than `max_bytes`). Most heads are written
/// so; two branch-free folds (they vectorise) tell it for a fraction of what joining byte by
/// byte costs. Whitespace at the ends goes whatever it holds: no word meets it.
fn joined_core(text: &str, max_bytes: usize) -> Option<&str> {
    let core = text.trim_ascii();
    let bytes = core.as_bytes();
    if bytes.len() > max_bytes {
        return None;
    }
    // Non-ASCII (joined char by char) or whitespace other than a space.
    let odd = bytes.iter().fold(false, |odd, &b| {
        odd | (b >= 0x80) | (b'\t'..=b'\r').contains(&b)
    });
    let pairs = bytes.iter().zip(bytes.get(1..).unwrap_or(&[]));
    let doubled = pairs.fold(false, |doubled, (&a, &b)| {
        doubled | (a == b' ' && b == b' ')
    });
    (!odd && !doubled).then_some(core)
}

/// [`join_words`] char by char, for text with non-ASCII characters (and whitespace).
fn join_unicode_words(text: &str, max_bytes: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max_bytes));
    let mut rest = text;
    while let Some(word_start) = rest.find(|c: char| !c.is_whitespace()) {
        let (gap, from_word) = rest.split_at(word_start);
        let word_end = from_word
            .find(char::is_whitespace)
            .unwrap_or(from_word.len());
        let (word, after) = from_word.split_at(word_end);
        rest = after;
        // Every rule applies where words meet: what ends the output, the gap, how the word starts.
        let broke = gap.contains(['\n', '\r']);
        let first = word.chars().next().unwrap_or(' ');
        if broke && matches!(first, ')' | ']' | '}' | '>') && out.ends_with(',') {
            out.pop();
        }
        let tight = match (out.chars().next_back(), first) {
            (None, _) => true,
            (Some('(' | '[' | '<'), _) | (_, ')' | ']') => broke,
            (Some(prev), '>') => broke && !matches!(prev, '-' | '='),
            _ => false,
        };
        if !gap.is_empty() && !tight {
            out.push(' ');
        }
        out.push_str(word);
        if out.len() > max_bytes {
            break;
        }
    }
    out
}

/// [`join_words`] for ASCII text, byte by byte: the same rules, where whitespace is the six
/// ASCII bytes `char::is_whitespace` accepts (vertical tab included). `None` when it meets a
/// non-ASCII byte before it is done (the text is then joined char by char), so a long text
/// is never scanned further than joining reads it.
fn join_ascii_words(text: &str, max_bytes: usize) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len().min(max_bytes));
    let mut i = 0;
    // Gaps and words are found by searching slices (a table look-up per byte, no bounds
    // check): multi-line heads, Kotlin's most of all, are joined here.
    while let Some(rest) = bytes.get(i..).filter(|rest| !rest.is_empty()) {
        let gap_len = rest
            .iter()
            .position(|&b| !is_ascii_space(b))
            .unwrap_or(rest.len());
        let gap = rest.get(..gap_len).unwrap_or(&[]);
        let broke = gap.iter().any(|&b| b == b'\n' || b == b'\r');
        let from_word = rest.get(gap_len..).unwrap_or(&[]);
        let Some(&first) = from_word.first() else {
            break;
        };
        let word_len = from_word
            .iter()
            .position(|&b| is_ascii_space(b))
            .unwrap_or(from_word.len());
        let word = from_word.get(..word_len).unwrap_or(&[]);
        if !word.is_ascii() {
            return None;
        }
        let word_start = i + gap_len;
        i = word_start + word_len;
        if broke && matches!(first, b')' | b']' | b'}' | b'>') && out.ends_with(',') {
            out.pop();
        }
        let tight = match (out.as_bytes().last(), first) {
            (None, _) => true,
            (Some(b'(' | b'[' | b'<'), _) | (_, b')' | b']') => broke,
            (Some(prev), b'>') => broke && !matches!(prev, b'-' | b'='),
            _ => false,
        };
        if gap_len > 0 && !tight {
            out.push(' ');
        }
        out.push_str(text.get(word_start..i).unwrap_or(""));
        if out.len() > max_bytes {
            break;
        }
    }
    Some(out)
}

/// The six ASCII bytes `char::is_whitespace` accepts (vertical tab included).
fn is_ascii_space(byte: u8) -> bool {
    ASCII_SPACES[usize::from(byte)]
}

/// [`is_ascii_space`]'s answer for every byte.
static ASCII_SPACES: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = b'\t';
    while byte <= b'\r' {
        table[byte as usize] = true;
        byte += 1;
    }
    table[b' ' as usize] = true;
    table
};

/// Longest signature kept; longer ones end in `…` (a signature is a hint, the body is a read away).
pub(crate) const MAX_SIGNATURE_CHARS: usize = 200;

/// A declaration head as a signature: one line shaped by [`one_line`], without an
/// initialiser's opening (`const table = {` reads `const table`), at most
/// [`MAX_SIGNATURE_CHARS`] characters.
pub(crate) fn signature(text: &str) -> String {
    // Past this many bytes there are more characters than a signature keeps (4 bytes at most
    // per character), so the rest of a long head is never joined.
    shape_signature(join_words(text, 4 * MAX_SIGNATURE_CHARS))
}

/// [`signature`] of a head the caller built and owns: a head already on one line is shaped
/// in place, without a copy.
pub(crate) fn owned_signature(mut text: String) -> String {
    let Some(core_len) = joined_core(&text, 4 * MAX_SIGNATURE_CHARS).map(str::len) else {
        return signature(&text);
    };
    // The core is `text` without its leading and trailing whitespace.
    let start = text.len() - text.trim_ascii_start().len();
    let end = start + core_len;
    text.truncate(end);
    text.drain(..start);
    shape_signature(text)
}

/// A joined head cut to a signature in place: the open initialiser dropped, at most
/// [`MAX_SIGNATURE_CHARS`] characters.
fn shape_signature(mut joined: String) -> String {
    // The head without its initialiser is a prefix of the joined text.
    let head = drop_open_initialiser(&joined).len();
    joined.truncate(head);
    // No more characters than bytes: a short head is never cut.
    if joined.len() > MAX_SIGNATURE_CHARS {
        if let Some((cut, _)) = joined.char_indices().nth(MAX_SIGNATURE_CHARS) {
            let kept = joined.get(..cut).unwrap_or("").trim_end().len();
            joined.truncate(kept);
            joined.push('…');
        }
    }
    joined
}

/// `x = {`, `x = [` and `x = (` as `x`: the value opens and the signature stops before it.
/// Compound operators (`==`, `<=`, `=>`) are no initialiser.
fn drop_open_initialiser(text: &str) -> &str {
    let Some(rest) = text.strip_suffix(['{', '[', '(']) else {
        return text;
    };
    let Some(before) = rest.trim_end().strip_suffix('=') else {
        return text;
    };
    let head = before.trim_end();
    let compound = head.ends_with([
        '=', '!', '<', '>', '+', '-', '*', '/', '%', '&', '|', '^', ':',
    ]);
    if head.is_empty() || compound {
        text
    } else {
        head
    }
}

#[cfg(test)]
mod tests;
