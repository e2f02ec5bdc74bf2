//! Shell outline scanner (sh, bash, zsh, ksh, bats): functions (`f() {`, `function f {`,
//! `function f() (`, nested ones as children, ended by their closing brace or parenthesis),
//! bats `@test "name" {` blocks named by their description, and the variables and aliases a
//! reader looks for: assignments at the top level (`FOO=`, `export FOO=`, `readonly`, `declare`,
//! `alias ll=…`), the first of each name, outside every block and function.
//!
//! One pass over the bytes with a stack of what is open, as the shell's own reader goes: `{ }`
//! groups, `( )` subshells and `$( )`, `$(( ))`, `${ }`, double quotes (whose `$( )` and
//! `${ }` are code again), backticks and `case … esac` (whose patterns end at a `)` that closes
//! nothing). Heredoc bodies (`<<EOF`, `<<'EOF'`, `<<-EOF`) are read after the line that
//! opens them and are text; `#` starts a comment only where a word starts (`a#b` is a word).
//! The same pass yields search's code mask: comments, quoted text and heredoc bodies blanked,
//! substitutions inside double quotes left as code.

use crate::outline::Entry;
use crate::parse::lex::blank;
use crate::parse::LineCursor;
use std::collections::HashSet;

mod definitions;
mod inside;
mod words;

use words::Declaring;

/// Outlines a shell script.
pub(crate) fn parse(text: &str) -> Vec<Entry> {
    Lexer::new(text, false).run().0
}

/// What search treats as code in a shell script (see the module docs).
pub(crate) fn search_mask(text: &str, _jsx: bool) -> Vec<u8> {
    Lexer::new(text, true).run().1
}

/// Something open that the reader is inside of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Frame {
    /// `{ … }`; `func`: the body of the innermost open function.
    Group { func: bool },
    /// `( … )`, `$( … )`, `<( … )`; `func` as for a group.
    Paren { func: bool },
    /// The words of an array, `a=( … )` or `a+=( … )`: no command starts in it, so `do`,
    /// `esac` or `}` there (zsh's list of reserved words) open and close nothing.
    Array,
    /// `$(( … ))` or `(( … ))`, with the parentheses open inside it.
    Arith { depth: usize },
    /// `${ … }`, with the braces open inside it.
    Param { depth: usize },
    /// `" … "`.
    Quote,
    /// `` ` … ` ``.
    Backtick,
    /// `case … esac`.
    Case(Stage),
}

/// Where a `case` statement is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Between `case` and `in`.
    Head,
    /// Reading a pattern; `begun` once a byte of it was read (a `(` then opens a group),
    /// `depth` the groups open in it (`@(a|b)`).
    Pattern { begun: bool, depth: usize },
    /// The commands of a branch, up to `;;` or `esac`.
    Body,
}

/// A function whose body is open.
struct Open {
    name: String,
    signature: String,
    start: usize,
    children: Vec<Entry>,
}

/// A heredoc whose body starts after the current line.
struct Heredoc {
    delimiter: Vec<u8>,
    /// `<<-`: the closing line may be indented with tabs.
    strip_tabs: bool,
}

struct Lexer<'a> {
    src: &'a [u8],
    text: &'a str,
    pos: usize,
    mask: Option<Vec<u8>>,
    lines: LineCursor<'a>,
    frames: Vec<Frame>,
    heredocs: Vec<Heredoc>,
    /// The next word is in command position (where `function`, `case`, `{` are keywords).
    cmd_start: bool,
    /// `if`, `for`, `while`, `until` and `select` blocks open (no frame: their words only
    /// decide what is top level).
    blocks: usize,
    /// The command being read started with `export`, `alias`, … at the top level.
    declaring: Option<Declaring>,
    /// The command being read has a command word (its assignments are then its environment).
    has_command: bool,
    /// Top-level assignments of the command being read: (name, start offset).
    assigned: Vec<(String, usize)>,
    command_start: usize,
    seen: HashSet<String>,
    open: Vec<Open>,
    out: Vec<Entry>,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str, want_mask: bool) -> Lexer<'a> {
        Lexer {
            src: text.as_bytes(),
            text,
            pos: 0,
            mask: want_mask.then(|| text.as_bytes().to_vec()),
            lines: LineCursor::new(text),
            frames: Vec::new(),
            heredocs: Vec::new(),
            cmd_start: true,
            blocks: 0,
            declaring: None,
            has_command: false,
            assigned: Vec::new(),
            command_start: 0,
            seen: HashSet::new(),
            open: Vec::new(),
            out: Vec::new(),
        }
    }

    fn run(mut self) -> (Vec<Entry>, Vec<u8>) {
        while self.pos < self.src.len() {
            match self.frames.last().copied() {
                Some(Frame::Quote) => self.in_quote(),
                Some(Frame::Param { depth }) => self.in_param(depth),
                Some(Frame::Arith { depth }) => self.in_arith(depth),
                Some(Frame::Case(Stage::Pattern { begun, depth })) => self.in_pattern(begun, depth),
                _ => self.in_code(),
            }
        }
        self.end_command();
        // What is still open ends with the text (on its last line, not after its last newline).
        let end = self.src.len().saturating_sub(1);
        while !self.open.is_empty() {
            self.close_function(end);
        }
        (self.out, self.mask.unwrap_or_default())
    }

    fn at(&self, offset: usize) -> u8 {
        self.src.get(self.pos + offset).copied().unwrap_or(0)
    }

    fn line_of(&self, offset: usize) -> usize {
        self.lines.line_of(offset.min(self.src.len()))
    }

    fn blank(&mut self, start: usize, end: usize) {
        if let Some(mask) = &mut self.mask {
            blank(mask, start, end);
        }
    }

    /// Whether a word may start at `pos`: `#` there opens a comment.
    fn at_word_start(&self) -> bool {
        self.pos == 0
            || matches!(
                self.src[self.pos - 1],
                b' ' | b'\t' | b'\r' | b'\n' | b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>'
            )
    }

    /// Top level: no frame, no block, no function open.
    fn top_level(&self) -> bool {
        self.frames.is_empty() && self.blocks == 0
    }

    /// Past a backslash and the byte it escapes (a `\r\n` as one line break).
    fn skip_escape(&mut self) {
        let next = self.at(1);
        self.pos += if next == b'\r' && self.at(2) == b'\n' {
            3
        } else {
            2
        };
        self.pos = self.pos.min(self.src.len());
    }

    fn in_code(&mut self) {
        match self.src[self.pos] {
            // A run of blanks at once: they are most of the bytes between words.
            b' ' | b'\t' | b'\r' => {
                self.pos += 1;
                while matches!(self.at(0), b' ' | b'\t' | b'\r') {
                    self.pos += 1;
                }
            }
            b'\n' => self.newline(),
            b'#' if self.at_word_start() => self.comment(),
            b'\'' => self.single_quoted(false),
            b'"' => {
                self.pos += 1;
                self.frames.push(Frame::Quote);
                self.cmd_start = false;
            }
            b'`' => self.backtick(),
            b'\\' => {
                // A line continuation leaves the command where it was.
                let continuation = matches!(self.at(1), b'\n' | b'\r');
                self.skip_escape();
                self.cmd_start &= continuation;
            }
            b'$' => self.dollar(),
            b'<' | b'>' => self.redirect(),
            b'(' => self.open_paren(),
            b')' => self.close_paren(),
            b';' => self.semicolon(),
            b'&' | b'|' => {
                self.pos += 1;
                self.end_command();
                self.cmd_start = true;
            }
            _ => self.word(),
        }
    }

    /// Whether the words of an array are being read.
    fn in_array(&self) -> bool {
        self.frames.last() == Some(&Frame::Array)
    }

    fn newline(&mut self) {
        self.pos += 1;
        self.end_command();
        self.cmd_start = !self.in_array();
        if !self.heredocs.is_empty() {
            self.heredoc_bodies();
        }
    }

    fn comment(&mut self) {
        let start = self.pos;
        let end = memchr::memchr(b'\n', &self.src[start..]).map_or(self.src.len(), |n| start + n);
        self.blank(start, end);
        self.pos = end;
    }

    /// `'…'`, or with `escapes` the body of `$'…'` (where `\'` is a quote).
    fn single_quoted(&mut self, escapes: bool) {
        let start = self.pos + 1;
        let mut i = start;
        while let Some(&byte) = self.src.get(i) {
            match byte {
                b'\\' if escapes => i += 2,
                b'\'' => break,
                _ => i += 1,
            }
        }
        let end = i.min(self.src.len());
        self.blank(start, end);
        self.pos = (end + 1).min(self.src.len());
        self.cmd_start = false;
    }

    fn backtick(&mut self) {
        self.pos += 1;
        if self.frames.last() == Some(&Frame::Backtick) {
            self.frames.pop();
            self.cmd_start = false;
        } else {
            self.frames.push(Frame::Backtick);
            self.cmd_start = true;
        }
    }

    /// At a `$`: a substitution, an expansion, a quote, or a parameter.
    fn dollar(&mut self) {
        self.cmd_start = false;
        match (self.at(1), self.at(2)) {
            (b'(', b'(') => {
                self.pos += 3;
                self.frames.push(Frame::Arith { depth: 0 });
            }
            (b'(', _) => {
                self.pos += 2;
                self.frames.push(Frame::Paren { func: false });
                self.cmd_start = true;
            }
            (b'{', _) => {
                self.pos += 2;
                self.frames.push(Frame::Param { depth: 0 });
            }
            (b'\'', _) => {
                self.pos += 1;
                self.single_quoted(true);
            }
            // `$#`, `$$`, `$"`: one special parameter (or a quote read next).
            (b'#' | b'$', _) => self.pos += 2,
            _ => self.pos += 1,
        }
    }

    fn redirect(&mut self) {
        let here = self.src[self.pos] == b'<';
        match (here, self.at(1), self.at(2)) {
            (_, b'(', _) => {
                self.pos += 2;
                self.frames.push(Frame::Paren { func: false });
                self.cmd_start = true;
            }
            (true, b'<', b'<') => self.pos += 3,
            (true, b'<', _) => self.heredoc(),
            _ => self.pos += 1,
        }
    }

    fn open_paren(&mut self) {
        let array = self.pos > 0 && self.src[self.pos - 1] == b'=' || self.in_array();
        if array {
            self.pos += 1;
            self.frames.push(Frame::Array);
            self.cmd_start = false;
            return;
        }
        if self.cmd_start && self.at(1) == b'(' {
            self.pos += 2;
            self.frames.push(Frame::Arith { depth: 0 });
            return;
        }
        self.pos += 1;
        self.frames.push(Frame::Paren { func: false });
        self.cmd_start = true;
    }

    fn close_paren(&mut self) {
        if self.in_array() {
            self.frames.pop();
            self.pos += 1;
            self.cmd_start = false;
            return;
        }
        if let Some(Frame::Paren { func }) = self.frames.last().copied() {
            self.frames.pop();
            if func {
                self.close_function(self.pos);
            }
        }
        self.pos += 1;
        self.cmd_start = false;
    }

    fn semicolon(&mut self) {
        let len = match (self.at(1), self.at(2)) {
            (b';', b'&') => 3,
            (b';' | b'&', _) => 2,
            _ => 1,
        };
        if len > 1 && self.frames.last() == Some(&Frame::Case(Stage::Body)) {
            self.set_top(Frame::Case(Stage::Pattern {
                begun: false,
                depth: 0,
            }));
        }
        self.pos += len;
        self.end_command();
        self.cmd_start = true;
    }

    fn set_top(&mut self, frame: Frame) {
        if let Some(top) = self.frames.last_mut() {
            *top = frame;
        }
    }
}

#[cfg(test)]
mod tests;
