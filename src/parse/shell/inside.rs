//! What the lexer reads inside quotes, `${ }`, `$(( ))`, `case` patterns and heredocs.

use super::words::is_word_byte;
use super::{Frame, Heredoc, Lexer, Stage};

impl Lexer<'_> {
    /// At `<<`: notes the heredoc whose body follows this line.
    pub(super) fn heredoc(&mut self) {
        let mut i = self.pos + 2;
        let strip_tabs = self.src.get(i) == Some(&b'-');
        i += usize::from(strip_tabs);
        while matches!(self.src.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        // The delimiter is the word with its quotes removed: `'EOF'`, `"EOF"`, `\EOF`, `E"O"F`.
        let mut delimiter = Vec::new();
        while let Some(&byte) = self.src.get(i) {
            match byte {
                b'\'' | b'"' => {
                    let close = memchr::memchr(byte, &self.src[i + 1..]).map(|n| i + 1 + n);
                    let Some(close) = close else { break };
                    delimiter.extend_from_slice(&self.src[i + 1..close]);
                    i = close + 1;
                }
                b'\\' => {
                    delimiter.extend(self.src.get(i + 1).copied());
                    i += 2;
                }
                _ if is_word_byte(byte) || byte == b'$' => {
                    delimiter.push(byte);
                    i += 1;
                }
                _ => break,
            }
        }
        self.pos = i.min(self.src.len());
        self.cmd_start = false;
        if !delimiter.is_empty() {
            self.heredocs.push(Heredoc {
                delimiter,
                strip_tabs,
            });
        }
    }

    /// At the start of the line after a heredoc's: skips every pending body, blanked.
    pub(super) fn heredoc_bodies(&mut self) {
        for heredoc in std::mem::take(&mut self.heredocs) {
            let body = self.pos;
            let mut line_start = self.pos;
            loop {
                if line_start >= self.src.len() {
                    self.blank(body, self.src.len());
                    self.pos = self.src.len();
                    return;
                }
                let rest = &self.src[line_start..];
                let line_end =
                    memchr::memchr(b'\n', rest).map_or(self.src.len(), |n| line_start + n);
                let mut line = &self.src[line_start..line_end];
                line = line.strip_suffix(b"\r").unwrap_or(line);
                if heredoc.strip_tabs {
                    let tabs = line.iter().take_while(|b| **b == b'\t').count();
                    line = &line[tabs..];
                }
                if line == heredoc.delimiter.as_slice() {
                    self.blank(body, line_start);
                    self.pos = (line_end + 1).min(self.src.len());
                    break;
                }
                line_start = line_end + 1;
            }
        }
    }

    /// Inside `" … "`: text up to the closing quote, or a substitution that is code.
    pub(super) fn in_quote(&mut self) {
        let mut start = self.pos;
        while let Some(&byte) = self.src.get(self.pos) {
            match byte {
                b'"' => {
                    self.blank(start, self.pos);
                    self.pos += 1;
                    self.frames.pop();
                    return;
                }
                b'\\' => self.skip_escape(),
                b'$' if matches!(self.at(1), b'(' | b'{') => {
                    self.blank(start, self.pos);
                    self.dollar();
                    return;
                }
                b'`' => {
                    self.blank(start, self.pos);
                    self.backtick();
                    return;
                }
                // `$name` is interpolated: code, as search's `--refs name` should see it.
                b'$' if self.at(1).is_ascii_alphabetic() || self.at(1) == b'_' => {
                    self.blank(start, self.pos);
                    self.pos += 1;
                    while self.at(0).is_ascii_alphanumeric() || self.at(0) == b'_' {
                        self.pos += 1;
                    }
                    start = self.pos;
                }
                _ => self.pos += 1,
            }
        }
        self.blank(start, self.pos);
    }

    /// Inside `${ … }`: code without comments or heredocs, up to the brace that closes it.
    pub(super) fn in_param(&mut self, depth: usize) {
        let quoted = self.frames.len() >= 2 && self.frames[self.frames.len() - 2] == Frame::Quote;
        match self.src[self.pos] {
            b'}' if depth == 0 => {
                self.frames.pop();
                self.pos += 1;
            }
            b'}' => {
                self.set_top(Frame::Param { depth: depth - 1 });
                self.pos += 1;
            }
            b'{' => {
                self.set_top(Frame::Param { depth: depth + 1 });
                self.pos += 1;
            }
            b'\\' => self.skip_escape(),
            b'"' => {
                self.pos += 1;
                self.frames.push(Frame::Quote);
            }
            // Inside double quotes a `'` is a character: `"${x%\'}"`, `"${x:-'a'}"`.
            b'\'' if !quoted => self.single_quoted(false),
            b'$' => self.dollar(),
            b'`' => self.backtick(),
            _ => self.pos += 1,
        }
    }

    /// Inside `$(( … ))`: arithmetic, up to the `))` that closes it.
    pub(super) fn in_arith(&mut self, depth: usize) {
        match self.src[self.pos] {
            b'(' => {
                self.set_top(Frame::Arith { depth: depth + 1 });
                self.pos += 1;
            }
            b')' if depth > 0 => {
                self.set_top(Frame::Arith { depth: depth - 1 });
                self.pos += 1;
            }
            b')' => {
                self.frames.pop();
                self.pos += if self.at(1) == b')' { 2 } else { 1 };
                self.cmd_start = false;
            }
            b'\\' => self.skip_escape(),
            b'"' => {
                self.pos += 1;
                self.frames.push(Frame::Quote);
            }
            b'$' => self.dollar(),
            b'`' => self.backtick(),
            _ => self.pos += 1,
        }
    }

    /// Inside a `case` pattern: up to the `)` that ends it, or `esac`.
    pub(super) fn in_pattern(&mut self, begun: bool, depth: usize) {
        let pattern = |begun, depth| Frame::Case(Stage::Pattern { begun, depth });
        match self.src[self.pos] {
            b' ' | b'\t' | b'\r' | b'|' => self.pos += 1,
            b'\n' => self.newline(),
            b'#' if !begun && self.at_word_start() => self.comment(),
            b'(' if !begun => {
                self.set_top(pattern(true, 0));
                self.pos += 1;
            }
            b'(' => {
                self.set_top(pattern(true, depth + 1));
                self.pos += 1;
            }
            b')' if depth > 0 => {
                self.set_top(pattern(true, depth - 1));
                self.pos += 1;
            }
            b')' => {
                self.set_top(Frame::Case(Stage::Body));
                self.pos += 1;
                self.cmd_start = true;
            }
            byte => {
                self.set_top(pattern(true, depth));
                match byte {
                    b'"' => {
                        self.pos += 1;
                        self.frames.push(Frame::Quote);
                    }
                    b'\'' => self.single_quoted(false),
                    b'$' => self.dollar(),
                    b'\\' => self.skip_escape(),
                    b'`' => self.backtick(),
                    _ => {
                        let start = self.pos;
                        self.skip_word();
                        if !begun && self.word_is(start, b"esac") {
                            self.frames.pop();
                            self.cmd_start = false;
                        }
                        self.pos = self.pos.max(start + 1);
                    }
                }
            }
        }
    }

    pub(super) fn skip_word(&mut self) {
        while self.src.get(self.pos).is_some_and(|b| is_word_byte(*b)) {
            self.pos += 1;
        }
    }

    /// Whether the word `start..pos` is `keyword`, standing alone (no quote or `$` goes on
    /// with it).
    pub(super) fn word_is(&self, start: usize, keyword: &[u8]) -> bool {
        &self.src[start..self.pos] == keyword
            && !matches!(self.at(0), b'"' | b'\'' | b'`' | b'$' | b'\\')
    }
}
