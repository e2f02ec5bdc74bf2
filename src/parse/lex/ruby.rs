//! Ruby's lexical forms beyond `#` comments and quotes: `=begin … =end` comments, heredocs
//! (`<<~ID`, `<<-ID`, `<<ID`, `<<~'ID'`: the body waits after the opening line, whose rest is
//! code, and several may open on one line), `%w[]`/`%q{}`/`%r{}`/`%()` literals with any
//! delimiter (brackets nest), regex literals, backtick commands and `?a` character literals,
//! and `__END__`, after which the file is data. A `/`, `%`, `?` or `<<` opens a literal only
//! where a value may start, read from what precedes it as Ruby's lexer does: `a / b` divides,
//! `x = /re/` and `split /,/` match.

use super::strings::Form;
use super::{find, is_word_byte, Interpolation, Scanner};

/// Bytes that may open a Ruby form the shared paths do not know (and `=`, for `=begin`,
/// where the text holds one).
pub(super) const OPENERS: &[u8] = b"`%/<?";

/// Words after which a value starts (`if /re/`, `return %w[a]`, `when ?a`).
const VALUE_KEYWORDS: &[&[u8]] = &[
    b"and", b"case", b"do", b"else", b"elsif", b"if", b"in", b"not", b"or", b"puts", b"return",
    b"then", b"unless", b"until", b"when", b"while", b"yield",
];

/// A heredoc body still to come: the code resumes at `resume` once the scan passes
/// `line_end`, the end of the line that opened it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Pending {
    line_end: usize,
    resume: usize,
}

/// Where the code ends: at a line `__END__` (the rest is data read by `DATA`), else the end.
pub(super) fn data_start(src: &[u8]) -> usize {
    const MARK: &[u8] = b"__END__";
    let mut from = 0;
    while let Some(n) = memchr::memmem::find(&src[from..], MARK) {
        let at = from + n;
        let line_start = at == 0 || src[at - 1] == b'\n';
        let rest = &src[at + MARK.len()..];
        let line_end = rest.is_empty() || rest.starts_with(b"\n") || rest.starts_with(b"\r\n");
        if line_start && line_end {
            return at;
        }
        from = at + MARK.len();
    }
    src.len()
}

/// The closing bracket of an opening one, else the delimiter itself (`%q|…|`).
fn closing_of(open: u8) -> (u8, Option<u8>) {
    match open {
        b'(' => (b')', Some(b'(')),
        b'[' => (b']', Some(b'[')),
        b'{' => (b'}', Some(b'{')),
        b'<' => (b'>', Some(b'<')),
        other => (other, None),
    }
}

impl Scanner<'_> {
    /// Whether a value may start at `pos`: at a line's start, after an operator, an opening
    /// bracket or a keyword, or after a method name and a space when no space follows
    /// (`split /,/`, but `a / b`).
    fn value_may_start(&self) -> bool {
        let before = &self.out[..self.pos];
        let code_end = before
            .iter()
            .rposition(|b| !matches!(b, b' ' | b'\t'))
            .map_or(0, |n| n + 1);
        let Some(&last) = before.get(code_end.wrapping_sub(1)) else {
            return true;
        };
        if !is_word_byte(last) {
            return b"\n(,=[{|&!?:;~+-*<>^%".contains(&last);
        }
        let word_start = before[..code_end]
            .iter()
            .rposition(|b| !is_word_byte(*b))
            .map_or(0, |n| n + 1);
        let word = &before[word_start..code_end];
        if VALUE_KEYWORDS.contains(&word) {
            return true;
        }
        let after = self.src.get(self.pos + 1).copied().unwrap_or(b' ');
        let spaced_before = code_end < self.pos;
        let is_method_call = !word.first().is_some_and(u8::is_ascii_digit);
        is_method_call && spaced_before && !after.is_ascii_whitespace() && after != b'='
    }

    /// At one of [`OPENERS`] or a quote: masks a Ruby literal that opens here. `None` when
    /// the byte is left to the shared paths, `Some(false)` when it opens nothing.
    pub(super) fn try_ruby_literal(&mut self, byte: u8, prev: u8) -> Option<bool> {
        // `$"`, `$'`, `$/`, `$?`: global variables, not literals.
        if prev == b'$' && self.pos >= 1 && !self.inside_word(self.pos - 1) {
            return Some(false);
        }
        match byte {
            b'`' => {
                self.interpolating(b'`', None, false);
                Some(true)
            }
            b'/' => Some(
                self.value_may_start() && {
                    self.interpolating(b'/', None, false);
                    true
                },
            ),
            b'%' => Some(self.try_percent()),
            b'?' => Some(self.try_char()),
            b'<' => Some(self.try_ruby_heredoc()),
            b'=' => Some(false),
            _ => None,
        }
    }

    /// Whether the byte at `at` continues a word (`a$` is no global's `$`).
    fn inside_word(&self, at: usize) -> bool {
        at > 0 && is_word_byte(self.src[at - 1]) && self.src[at - 1] != b'$'
    }

    /// Masks a literal opening at `pos` with the delimiter there, closed by `close`.
    fn interpolating(&mut self, close: u8, nests: Option<u8>, plain: bool) {
        let holes = match plain || self.holes >= super::strings::MAX_HOLE_DEPTH {
            true => Interpolation::None,
            false => Interpolation::HashBrace,
        };
        self.string_body(Form {
            quote: close,
            nests,
            triple: false,
            backslash: true,
            // A regex misread from a division must not swallow the lines below.
            multiline: close != b'/',
            holes,
        });
    }

    /// `%w[…]`, `%i(…)`, `%q{…}`, `%Q<…>`, `%r|…|`, `%(…)`: where a value may start.
    fn try_percent(&mut self) -> bool {
        let kind = self.src.get(self.pos + 1).copied().unwrap_or(0);
        let (delimiter_at, plain) = match kind {
            b'q' | b'w' | b'i' | b's' => (self.pos + 2, true),
            b'Q' | b'W' | b'I' | b'r' | b'x' => (self.pos + 2, false),
            _ => (self.pos + 1, false),
        };
        let Some(&open) = self.src.get(delimiter_at) else {
            return false;
        };
        let delimiter = open.is_ascii_punctuation() && open != b'=';
        if !delimiter || !self.value_may_start() {
            return false;
        }
        let (close, nests) = closing_of(open);
        self.pos = delimiter_at;
        self.interpolating(close, nests, plain);
        true
    }

    /// `?a`, `?\n`, `?"`: a character literal where a value may start (`x ? a : b` is none).
    fn try_char(&mut self) -> bool {
        let Some(&first) = self.src.get(self.pos + 1) else {
            return false;
        };
        if first.is_ascii_whitespace() || self.inside_word(self.pos) || !self.value_may_start() {
            return false;
        }
        let width = match first {
            b'\\' => 2,
            _ => super::utf8_width(first),
        };
        let end = self.pos + 1 + width;
        if self.src.get(end).is_some_and(|b| is_word_byte(*b)) {
            return false;
        }
        self.blank(self.pos + 1, end);
        self.pos = end.min(self.src.len());
        true
    }

    /// `=begin` at a line's start: a comment to the line `=end`, both lines included.
    pub(super) fn try_embedded_doc(&mut self) -> bool {
        let at_line_start = self.pos == 0 || self.src[self.pos - 1] == b'\n';
        if !at_line_start || !self.starts_with("=begin") || !self.word_ends(self.pos + 6) {
            return false;
        }
        let start = self.pos;
        let mut line = start;
        let end = loop {
            let Some(next) = memchr::memchr(b'\n', &self.src[line..]).map(|n| line + n + 1) else {
                break self.src.len();
            };
            line = next;
            if self.src[line..].starts_with(b"=end") && self.word_ends(line + 4) {
                break memchr::memchr(b'\n', &self.src[line..])
                    .map_or(self.src.len(), |n| line + n);
            }
        };
        self.blank(start, end);
        self.pos = end;
        true
    }

    /// Whether a word ends at `at`: the end, or a blank follows.
    fn word_ends(&self, at: usize) -> bool {
        self.src.get(at).is_none_or(u8::is_ascii_whitespace)
    }

    /// `<<~ID`, `<<-ID`, `<<ID`, `<<~'ID'`, `<<"ID"`: masks the body, which starts on the
    /// line after the opener (or after the body of a heredoc opened before it on that line)
    /// and ends at the line holding only `ID` (indented for `~` and `-`).
    fn try_ruby_heredoc(&mut self) -> bool {
        // In a hole of a heredoc body being read ahead, a heredoc's body would lie inside the
        // outer body, which is text already; reading it ahead too nested the look-ahead once
        // per level, and a 4 KB file of such openers took minutes (found by fuzzing).
        if !self.starts_with("<<") || self.ahead_in_heredoc {
            return false;
        }
        let mut p = self.pos + 2;
        let indented = matches!(self.src.get(p), Some(b'~' | b'-'));
        if indented {
            p += 1;
        }
        let quote = self.src.get(p).copied().filter(|b| b"'\"`".contains(b));
        let id_start = p + usize::from(quote.is_some());
        let id_len = self.src[id_start.min(self.src.len())..]
            .iter()
            .take_while(|b| is_word_byte(**b))
            .count();
        let id_end = id_start + id_len;
        let closed = match quote {
            Some(q) => self.src.get(id_end) == Some(&q),
            None => true,
        };
        // A bare `<<x` is a shift unless a value may start there and the name is a constant.
        let bare_ok = indented
            || quote.is_some()
            || self.src.get(id_start).is_some_and(u8::is_ascii_uppercase);
        if id_len == 0 || !closed || !bare_ok || !self.value_may_start() {
            return false;
        }
        let id = &self.src[id_start..id_end];
        let line_end =
            memchr::memchr(b'\n', &self.src[id_end..]).map_or(self.src.len(), |n| id_end + n);
        let body_start = match self.heredoc {
            Some(pending) if pending.line_end == line_end => pending.resume,
            _ => (line_end + 1).min(self.src.len()),
        };
        let (body_end, resume) = heredoc_end(self.src, body_start, id, indented);
        let plain = quote == Some(b'\'');
        self.heredoc_body(body_start, body_end, plain);
        self.heredoc = Some(Pending { line_end, resume });
        self.pos = id_end + usize::from(quote.is_some());
        true
    }

    /// Blanks a heredoc body; an interpolating one keeps the code of its `#{…}` holes.
    fn heredoc_body(&mut self, start: usize, end: usize, plain: bool) {
        let (saved_pos, saved_from, saved_ahead) =
            (self.pos, self.code_from, self.ahead_in_heredoc);
        let mut text_from = start;
        if !plain && self.holes < super::strings::MAX_HOLE_DEPTH {
            self.ahead_in_heredoc = true;
            while let Some(n) = find(&self.src[text_from..end], b"#{") {
                let bracket = text_from + n + 1;
                self.blank(text_from, bracket);
                text_from = self.hole(bracket + 1).min(end);
            }
        }
        self.blank(text_from, end);
        self.pos = saved_pos;
        self.code_from = saved_from;
        self.ahead_in_heredoc = saved_ahead;
    }

    /// Past a line that opened heredocs: the scan resumes after their bodies. `true` when it
    /// moved `pos`.
    pub(super) fn skip_heredoc_bodies(&mut self) -> bool {
        match self.heredoc {
            Some(pending) if self.pos > pending.line_end => {
                self.heredoc = None;
                if self.pos < pending.resume {
                    self.pos = pending.resume;
                    return true;
                }
                false
            }
            _ => false,
        }
    }
}

/// Where a heredoc body from `start` ends (the end of its closing line, blanked with it: the
/// identifier is no code) and where the code resumes (the line after it); the end of `src`
/// for both when it never closes.
fn heredoc_end(src: &[u8], start: usize, id: &[u8], indented: bool) -> (usize, usize) {
    let mut line = start;
    while line < src.len() {
        let line_end = memchr::memchr(b'\n', &src[line..]).map_or(src.len(), |n| line + n);
        let text = &src[line..line_end];
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        let text = match indented {
            true => text.trim_ascii(),
            false => text,
        };
        if text == id {
            return (line_end, (line_end + 1).min(src.len()));
        }
        line = line_end + 1;
    }
    (src.len(), src.len())
}

#[cfg(test)]
mod tests {
    use crate::parse::lex::mask;
    use crate::parse::lex::strings::HOLES_READ;

    #[test]
    fn heredocs_opened_in_the_holes_of_a_heredoc_body_are_not_read_ahead_again() {
        // An unclosed heredoc whose body holds unclosed holes, each opening three heredocs
        // more: each of those read the rest of the file ahead, once per level (fuzzing found
        // an 819-byte file of this taking over 30 s). No hole is now read twice.
        let mut src = String::from("x = <<~A\n");
        for _ in 0..12 {
            src.push_str("#{(\ny = <<~B + <<~C + <<~D\n");
        }
        let read = |src: &str| {
            HOLES_READ.with(|read| read.set(0));
            masked(src);
            HOLES_READ.with(|read| read.get())
        };
        let read = read(&src);
        assert!(read <= src.matches("#{").count(), "{read} holes read");
    }

    fn masked(src: &str) -> String {
        let out = mask(src, &crate::parse::ruby::SPEC);
        assert_eq!(out.len(), src.len());
        assert_eq!(out.lines().count(), src.lines().count(), "{out}");
        out
    }

    #[test]
    fn heredocs_mask_their_bodies_and_keep_the_opening_line() {
        let src = "x = f(<<~A, <<-'B') do\n  def a; end\nA\n  def b\n  B\ny = <<C\nend\nC\nz";
        let out = masked(src);
        assert_eq!(
            out,
            "x = f(<<~A, <<-'B') do\n            \n \n       \n   \ny = <<C\n   \n \nz"
        );
        let holes = masked("s = <<~T\n  #{ call(1) } end\nT\n");
        assert_eq!(holes, "s = <<~T\n   { call(1) }    \n \n");
        assert_eq!(masked("a << b\nx <<y"), "a << b\nx <<y");
    }

    #[test]
    fn percent_literals_nest_their_brackets_and_interpolate_by_kind() {
        assert_eq!(masked("%w[a [b] end] + x"), "%w[         ] + x");
        assert_eq!(
            masked("x = %Q(#{end}); %q{#{e}}"),
            "x = %Q( {end}); %q{    }"
        );
        assert_eq!(masked("x = %|def|; y % 3"), "x = %|   |; y % 3");
        assert_eq!(masked("puts %(end)\n"), "puts %(   )\n");
    }

    #[test]
    fn regexes_are_told_from_division() {
        assert_eq!(masked("a = b / c / d"), "a = b / c / d");
        assert_eq!(masked("x = /end/i\n"), "x = /   /i\n");
        assert_eq!(masked("s.split /end/"), "s.split /   /");
        assert_eq!(masked("if /#{a}x/ =~ s"), "if / {a} / =~ s");
        assert_eq!(masked("f(x) / 2 # /"), "f(x) / 2    ");
    }

    #[test]
    fn chars_globals_comments_and_end_of_code() {
        assert_eq!(masked("c == ?\" or x ? a : b"), "c == ?  or x ? a : b");
        assert_eq!(masked("a = $\" + $'"), "a = $\" + $'");
        let src = "=begin\ndef x\n=end\ndef y\n__END__\ndef z\n";
        assert_eq!(masked(src), "      \n     \n    \ndef y\n       \n     \n");
        assert_eq!(masked("`ls #{d}`"), "`    {d}`");
        assert_eq!(masked("empty? ? 1 : 2"), "empty? ? 1 : 2");
    }
}
