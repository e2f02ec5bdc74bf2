//! Parsing: text in, [`Outline`] out. Dispatches to one scanner per language family and applies
//! the input size limits. Shared lexical tools live in [`lex`]; helpers for line arithmetic and
//! signatures live here.

use crate::lang::Language;
use crate::outline::{Entry, InputLimit, Outline};

pub mod c_cpp;
pub mod css;
pub mod cursor;
pub mod data;
pub mod docker;
mod docs;
pub mod go;
pub mod html;
pub mod js_ts;
pub mod lex;
pub mod make;
pub mod markdown;
pub mod python;
pub mod rust;
pub mod sql;

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
}

impl ParseOptions {
    pub fn new(language: Language) -> ParseOptions {
        ParseOptions {
            language,
            jsx: false,
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
    let total_lines = count_lines(text);
    let (parsed, mut limit) = apply_limits(text, total_lines);
    let entries = parse_entries(parsed, options);
    let mut outline = Outline::new(
        options.language,
        total_lines,
        file_bytes.max(text.len()),
        entries,
    );
    docs::attach(parsed, options.language, &mut outline.entries);
    if file_bytes > text.len() {
        // Only a prefix was read: the line total is unknown, the byte total is not.
        outline.lines = count_lines(parsed);
        if let Some(limit) = &mut limit {
            limit.reason = format!(
                "file has {} bytes; outlined the first {} lines",
                thousands(file_bytes),
                thousands(limit.lines_outlined)
            );
        }
    }
    outline.limit = limit;
    outline
}

/// Runs the family scanner for `options.language` on `text`.
/// Family scanners never see a byte order mark: it is dropped here, once for all of them.
pub fn parse_entries(text: &str, options: ParseOptions) -> Vec<Entry> {
    // A UTF-8 byte order mark holds no newline, so dropping it keeps every line number.
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    match options.language {
        Language::Python => python::parse(text),
        Language::Rust => rust::parse(text),
        Language::Go => go::parse(text),
        Language::JavaScript | Language::TypeScript => js_ts::parse(text, options),
        Language::C | Language::Cpp => c_cpp::parse(text, options.language),
        Language::Markdown => markdown::parse(text),
        Language::Json | Language::Yaml | Language::Toml => data::parse(text, options.language),
        Language::Html => html::parse(text),
        Language::Css => css::parse(text),
        Language::Sql => sql::parse(text),
        Language::Makefile => make::parse(text),
        Language::Dockerfile => docker::parse(text),
    }
}

/// `text` with comments and string contents blanked (same length, same newlines), as the
/// family scanner sees it: what search reads as code. `None` for languages that are not code
/// (Markdown, HTML, JSON, YAML, TOML), where nothing can be told apart that way.
pub fn code_mask(text: &str, options: ParseOptions) -> Option<Vec<u8>> {
    use lex::LexSpec;
    const SQL: LexSpec = LexSpec {
        line_comments: &["--"],
        block_comment: Some(("/*", "*/")),
        quotes: b"'",
        dollar_quotes: true,
        ..LexSpec::NONE
    };
    const HASH_COMMENTS: LexSpec = LexSpec {
        line_comments: &["#"],
        ..LexSpec::NONE
    };
    let spec = match options.language {
        Language::Python => &python::SPEC,
        Language::Rust => &rust::SPEC,
        Language::Go => &go::SPEC,
        Language::C | Language::Cpp => &c_cpp::SPEC,
        Language::Sql => &SQL,
        Language::Makefile | Language::Dockerfile => &HASH_COMMENTS,
        Language::JavaScript | Language::TypeScript => {
            return Some(js_ts::mask::mask(text, options.jsx))
        }
        Language::Css => return Some(css::mask(text.as_bytes()).0),
        Language::Markdown | Language::Html | Language::Json | Language::Yaml | Language::Toml => {
            return None
        }
    };
    Some(lex::mask(text, spec).into_bytes())
}

/// Cuts `text` at the byte and line limits (on a line boundary) and says what was cut.
fn apply_limits(text: &str, total_lines: usize) -> (&str, Option<InputLimit>) {
    if text.len() <= MAX_BYTES && total_lines <= MAX_LINES {
        return (text, None);
    }
    let mut end = 0;
    let mut lines = 0;
    for (index, _) in text.match_indices('\n') {
        if index + 1 > MAX_BYTES || lines == MAX_LINES {
            break;
        }
        end = index + 1;
        lines += 1;
    }
    let reason = if total_lines > MAX_LINES {
        format!(
            "file has {} lines; outlined the first {}",
            thousands(total_lines),
            thousands(lines)
        )
    } else {
        format!(
            "file has {} bytes; outlined the first {} lines ({} bytes)",
            thousands(text.len()),
            thousands(lines),
            thousands(end)
        )
    };
    (
        &text[..end],
        Some(InputLimit {
            lines_outlined: lines,
            reason,
        }),
    )
}

/// Number of lines: newlines, plus one for a last line without a newline.
pub fn count_lines(text: &str) -> usize {
    let newlines = memchr::memchr_iter(b'\n', text.as_bytes()).count();
    newlines + usize::from(!text.is_empty() && !text.ends_with('\n'))
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: usize) -> String {
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

/// Maps byte offsets to 1-based line numbers.
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        LineIndex { starts }
    }

    /// The 1-based line holding byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|start| *start <= offset)
    }

    /// Byte offset where 1-based `line` starts (clamped to the last line).
    pub fn start_of(&self, line: usize) -> usize {
        let index = line.saturating_sub(1).min(self.starts.len() - 1);
        self.starts[index]
    }
}

/// Joins a declaration that spans lines into one line, the one place signatures are shaped:
/// runs of whitespace (line breaks and indentation included) become one space. Where a line
/// broke, there is no space after `(`, `[` or `<` or before `)`, `]` or `>`, and a trailing
/// comma before a closing bracket goes (`f<\n  T,\n>(\n  a,\n)` reads `f<T>(a)`). What was
/// written on one line keeps its spacing: `a > b` is a comparison or a CSS combinator, `(1,)`
/// a tuple, and `"( x ]"` a string a data key's value shows as is.
pub fn one_line(text: &str) -> String {
    join_words(text, usize::MAX)
}

/// [`one_line`], stopping after the word that takes the result past `max_bytes`.
fn join_words(text: &str, max_bytes: usize) -> String {
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

/// Longest signature kept; longer ones end in `…` (a signature is a hint, the body is a read away).
pub const MAX_SIGNATURE_CHARS: usize = 200;

/// A declaration head as a signature: one line shaped by [`one_line`], without an
/// initialiser's opening (`const table = {` reads `const table`), at most
/// [`MAX_SIGNATURE_CHARS`] characters.
pub fn signature(text: &str) -> String {
    // Past this many bytes there are more characters than a signature keeps (4 bytes at most
    // per character), so the rest of a long head is never joined.
    let joined = join_words(text, 4 * MAX_SIGNATURE_CHARS);
    let joined = drop_open_initialiser(&joined);
    match joined.char_indices().nth(MAX_SIGNATURE_CHARS) {
        Some((cut, _)) => format!("{}…", joined[..cut].trim_end()),
        None => joined.to_string(),
    }
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

/// The offset of the bracket closing the one at `open` in masked text, counting only the same
/// bracket kind; `None` when it never closes.
pub fn matching_close(masked: &[u8], open: usize) -> Option<usize> {
    let (opener, closer) = match masked.get(open)? {
        b'{' => (b'{', b'}'),
        b'(' => (b'(', b')'),
        b'[' => (b'[', b']'),
        b'<' => (b'<', b'>'),
        _ => return None,
    };
    let mut depth = 0usize;
    for (i, byte) in masked.iter().enumerate().skip(open) {
        if *byte == opener {
            depth += 1;
        } else if *byte == closer {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_lines_with_and_without_final_newline() {
        assert_eq!(count_lines(""), 0);
        assert_eq!(count_lines("a"), 1);
        assert_eq!(count_lines("a\n"), 1);
        assert_eq!(count_lines("a\nb"), 2);
        assert_eq!(count_lines("\n\n"), 2);
    }

    #[test]
    fn line_index_maps_offsets() {
        let index = LineIndex::new("ab\ncd\n\nef");
        assert_eq!(index.line_of(0), 1);
        assert_eq!(index.line_of(2), 1);
        assert_eq!(index.line_of(3), 2);
        assert_eq!(index.line_of(6), 3);
        assert_eq!(index.line_of(7), 4);
        assert_eq!(index.start_of(4), 7);
        assert_eq!(index.start_of(99), 7);
    }

    #[test]
    fn limits_cut_on_line_boundaries_and_say_so() {
        let text = "x\n".repeat(MAX_LINES + 10);
        let (cut, limit) = apply_limits(&text, count_lines(&text));
        assert_eq!(count_lines(cut), MAX_LINES);
        let limit = limit.expect("a limit is reported");
        assert_eq!(limit.lines_outlined, MAX_LINES);
        assert!(limit.reason.contains("50,010"), "{}", limit.reason);
        let small = "x\ny";
        assert_eq!(apply_limits(small, 2), (small, None));
    }

    /// Inputs that have crashed or slowed scanners elsewhere; each family must end, in order,
    /// without panicking, on the stack a directory-mode worker thread gets.
    #[test]
    fn pathological_inputs_never_panic_or_overflow() {
        let deep = |open: &str, n: usize| open.repeat(n);
        let inputs: Vec<String> = vec![
            deep("{", 100_000),
            deep("[", 100_000),
            deep("(", 100_000),
            deep("<div>", 50_000),
            deep("a {", 50_000),
            (0..3000)
                .map(|i| format!("{}def f{i}():\n", " ".repeat(i)))
                .collect(),
            (0..3000)
                .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
                .collect(),
            "\"unclosed ' ` /* r#\" R\"x( $$ <!-- <script>".into(),
            "\0\u{1}\u{FFFD}}}}))]]]>>>".repeat(1000),
            "x".repeat(2_000_000),
            "\n".repeat(200_000),
        ];
        let handle = std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(move || {
                for language in Language::ALL {
                    for (index, text) in inputs.iter().enumerate() {
                        let started = std::time::Instant::now();
                        let outline = outline_text(
                            text,
                            ParseOptions {
                                language,
                                jsx: true,
                            },
                        );
                        assert!(outline.walk().iter().all(|(_, e)| e.line <= e.end_line));
                        // Generous bound: this catches quadratic blow-ups, not speed.
                        let took = started.elapsed();
                        assert!(
                            took.as_secs() < 20,
                            "{language} input {index} took {took:?}"
                        );
                    }
                }
            })
            .expect("spawn");
        assert!(handle.join().is_ok(), "a scanner panicked");
    }

    #[test]
    fn byte_order_mark_never_hides_the_first_entry() {
        // The cases each family once tested on its own, now through the one place that strips.
        let cases: &[(Language, &str, &[&str])] = &[
            (
                Language::Markdown,
                "\u{FEFF}# Title\n",
                &["heading Title 1-1"],
            ),
            (
                Language::TypeScript,
                "\u{FEFF}export const a = 1\n",
                &["constant a 1-1"],
            ),
            (
                Language::Go,
                "\u{FEFF}func main() {}",
                &["function main 1-1"],
            ),
            (
                Language::Python,
                "\u{FEFF}def f():\r\n    pass\r\nXY = 1",
                &["function f 1-2", "constant XY 3-3"],
            ),
            (
                Language::Rust,
                "\u{FEFF}fn main() {}",
                &["function main 1-1"],
            ),
            (
                Language::Yaml,
                "\u{FEFF}a:\n  b: 1\n",
                &["key a 1-2 a: {1 key}", "key b 2-2 b: 1"],
            ),
            (Language::Toml, "\u{FEFF}k = 1", &["key k 1-1 k: 1"]),
            (Language::Json, "\u{FEFF}{\"k\": 1}", &["key k 1-1 k: 1"]),
            (
                Language::Dockerfile,
                "\u{FEFF}FROM x\n",
                &["stage x 1-1 FROM x"],
            ),
            (
                Language::Makefile,
                "\u{FEFF}all: x\n",
                &["target all 1-1 all: x"],
            ),
        ];
        for (language, text, want) in cases {
            let outline = outline_text(text, ParseOptions::new(*language));
            let got: Vec<String> = outline
                .walk()
                .iter()
                .map(|(_, e)| {
                    let sig = match (*language, &e.signature) {
                        (Language::Yaml | Language::Toml | Language::Json, Some(s))
                        | (Language::Dockerfile | Language::Makefile, Some(s)) => format!(" {s}"),
                        _ => String::new(),
                    };
                    format!("{} {} {}-{}{sig}", e.kind, e.name, e.line, e.end_line)
                })
                .collect();
            assert_eq!(got, *want, "{language}");
        }
    }

    #[test]
    fn signatures_are_normalised_in_one_place() {
        let cases = [
            (
                "set_stringn<T, S>(\n        &mut self,\n        x: usize,\n        style: S,\n    )",
                "set_stringn<T, S>(&mut self, x: usize, style: S)",
            ),
            ("f<\n    T: Copy,\n>(x: T)\n    -> T", "f<T: Copy>(x: T) -> T"),
            ("const x = {", "const x"),
            ("TABLE = [", "TABLE"),
            ("let t =\n  (", "let t"),
            ("f(a = [1,\n 2,\n])", "f(a = [1, 2])"),
            ("cmp(a <= b) = {", "cmp(a <= b)"),
            ("x == {", "x == {"),
            ("f => {", "f => {"),
            ("ul > li", "ul > li"),
            ("a < b && c > d", "a < b && c > d"),
            ("t = (1,)", "t = (1,)"),
            ("f( a )", "f( a )"),
            ("name: \"Brace } Bracket ]\"", "name: \"Brace } Bracket ]\""),
            ("f(\n    a\n)", "f(a)"),
            ("{ a,\n  b,\n}", "{ a, b }"),
            ("Vec<\n  u8\n>", "Vec<u8>"),
            ("= {", "= {"),
            ("\tx\r\n  y ", "x y"),
        ];
        for (raw, want) in cases {
            assert_eq!(signature(raw), want, "{raw:?}");
        }
    }

    #[test]
    fn helpers_format_and_match() {
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(thousands(12), "12");
        assert_eq!(one_line("  def f(\n    a,\n    b)  "), "def f(a, b)");
        assert_eq!(matching_close(b"f(a(b)c)d", 1), Some(7));
        assert_eq!(signature("f(\n  a,\n  b\n) -> int"), "f(a, b) -> int");
        let long = signature(&"x".repeat(500));
        assert_eq!(long.chars().count(), MAX_SIGNATURE_CHARS + 1);
        assert!(long.ends_with('…'));
        assert_eq!(matching_close(b"{ {", 0), None);
    }
}
