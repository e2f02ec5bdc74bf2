//! The words that define: keywords in command position, function heads and bodies, bats
//! tests, and the top-level assignments a command makes.

use super::words::{assigned_name, without_comment, Declaring};
use super::{Frame, Lexer, Open, Stage};
use crate::outline::{Entry, Kind};
use crate::parse::signature;

impl Lexer<'_> {
    /// A word in code: a keyword where a command starts, an assignment, a function's name, or
    /// an ordinary word.
    pub(super) fn word(&mut self) {
        let start = self.pos;
        self.skip_word();
        if self.pos == start {
            // A byte no word holds and no rule above took (`!` alone is a word too).
            self.pos += 1;
            return;
        }
        let word = &self.src[start..self.pos];
        let alone = !matches!(self.at(0), b'"' | b'\'' | b'`' | b'$' | b'\\');
        if alone && word == b"in" && self.frames.last() == Some(&Frame::Case(Stage::Head)) {
            self.set_top(Frame::Case(Stage::Pattern {
                begun: false,
                depth: 0,
            }));
            return;
        }
        if self.cmd_start && alone && self.keyword(start) {
            return;
        }
        let assigns = self.cmd_start || self.declaring.is_some();
        if let Some(name) = assigned_name(word, self.declaring).filter(|_| assigns) {
            if self.top_level() {
                self.assigned.push((name.to_string(), start));
            }
            return; // an assignment before a command leaves the command to come
        }
        if self.cmd_start && self.frames.is_empty() {
            self.has_command = true;
            self.declaring = self.top_level().then(|| Declaring::of(word)).flatten();
        }
        if self.cmd_start && alone && self.function_parens() {
            self.function_body(start, word_text(self.text, start, start + word.len()));
            return;
        }
        self.cmd_start = false;
    }

    /// Handles the keyword `start..pos` in command position; false when it is none.
    pub(super) fn keyword(&mut self, start: usize) -> bool {
        match &self.src[start..self.pos] {
            b"function" => self.function_keyword(start),
            b"case" => {
                self.frames.push(Frame::Case(Stage::Head));
                self.cmd_start = false;
            }
            // A reserved word may follow the end of a compound command (`fi }`, `esac; }`).
            b"esac" => {
                if matches!(self.frames.last(), Some(Frame::Case(_))) {
                    self.frames.pop();
                }
            }
            // `for` stays in command position so that `for ((…))` reads as arithmetic.
            b"if" | b"while" | b"until" | b"for" | b"select" => self.blocks += 1,
            b"fi" | b"done" => self.blocks = self.blocks.saturating_sub(1),
            b"then" | b"do" | b"else" | b"elif" | b"!" | b"time" => {}
            b"{" => self.frames.push(Frame::Group { func: false }),
            b"}" => {
                if let Some(Frame::Group { func }) = self.frames.last().copied() {
                    self.frames.pop();
                    if func {
                        self.close_function(start);
                    }
                }
            }
            b"@test" => return self.bats_test(start),
            _ => return false,
        }
        true
    }

    /// After a word in command position: whether `()` follows (spaces allowed), which makes
    /// the word a function's name; moves past it when it does.
    pub(super) fn function_parens(&mut self) -> bool {
        let mut i = self.pos;
        let skip_blanks = |i: &mut usize| {
            while matches!(self.src.get(*i), Some(b' ' | b'\t')) {
                *i += 1;
            }
        };
        skip_blanks(&mut i);
        if self.src.get(i) != Some(&b'(') {
            return false;
        }
        i += 1;
        skip_blanks(&mut i);
        if self.src.get(i) != Some(&b')') {
            return false;
        }
        self.pos = i + 1;
        true
    }

    /// After the keyword `function` at `start`: the name, optional `()`, then the body.
    pub(super) fn function_keyword(&mut self, start: usize) {
        while matches!(self.at(0), b' ' | b'\t') {
            self.pos += 1;
        }
        let name_start = self.pos;
        self.skip_word();
        if self.pos == name_start {
            self.cmd_start = false;
            return;
        }
        if &self.src[name_start..self.pos] == b"{" {
            // zsh's anonymous function `function { … }`: a group run at once, no name.
            self.frames.push(Frame::Group { func: false });
            self.cmd_start = true;
            return;
        }
        let name = word_text(self.text, name_start, self.pos);
        self.function_parens();
        self.function_body(start, name);
    }

    /// After a function's head (`start..pos`): opens its body, a group or a subshell after
    /// any blank lines and comments. A body of another kind (`f() if …`) gives the function
    /// its head's lines.
    pub(super) fn function_body(&mut self, start: usize, name: String) {
        let head = signature(&self.text[start..self.pos]);
        loop {
            match self.at(0) {
                b' ' | b'\t' | b'\r' | b'\n' => self.pos += 1,
                b'#' => self.comment(),
                _ => break,
            }
        }
        let frame = match self.at(0) {
            b'{' => Frame::Group { func: true },
            b'(' => Frame::Paren { func: true },
            _ => {
                let line = self.line_of(start);
                self.push_entry(Entry::new(Kind::Function, name, line, line).with_signature(head));
                self.cmd_start = true;
                return;
            }
        };
        self.open.push(Open {
            name,
            signature: head,
            start,
            children: Vec::new(),
        });
        self.frames.push(frame);
        self.pos += 1;
        self.cmd_start = true;
        self.has_command = true;
    }

    /// `@test "description" {` (bats): a test named by its description, to the brace that
    /// closes its body.
    pub(super) fn bats_test(&mut self, start: usize) -> bool {
        let line_end =
            memchr::memchr(b'\n', &self.src[start..]).map_or(self.src.len(), |n| start + n);
        let Some(brace) = memchr::memrchr(b'{', &self.src[self.pos..line_end]) else {
            return false;
        };
        let brace = self.pos + brace;
        let description = self.text[self.pos..brace].trim();
        let unquoted = description
            .strip_prefix('"')
            .and_then(|d| d.strip_suffix('"'))
            .or_else(|| {
                description
                    .strip_prefix('\'')
                    .and_then(|d| d.strip_suffix('\''))
            });
        let name = unquoted.unwrap_or(description).to_string();
        self.open.push(Open {
            name,
            signature: signature(&self.text[start..brace]),
            start,
            children: Vec::new(),
        });
        self.frames.push(Frame::Group { func: true });
        self.pos = brace + 1;
        self.cmd_start = true;
        self.has_command = true;
        true
    }

    /// Ends the innermost open function at the byte `end` (its closing brace or parenthesis).
    pub(super) fn close_function(&mut self, end: usize) {
        let Some(open) = self.open.pop() else {
            return;
        };
        let entry = Entry::new(
            Kind::Function,
            open.name,
            self.line_of(open.start),
            self.line_of(end),
        )
        .with_signature(open.signature)
        .with_children(open.children);
        self.push_entry(entry);
    }

    pub(super) fn push_entry(&mut self, entry: Entry) {
        match self.open.last_mut() {
            Some(parent) => parent.children.push(entry),
            None => self.out.push(entry),
        }
    }

    /// At the end of a command: its top-level assignments become entries, unless a command
    /// word made them that command's environment (`LANG=C sort`).
    pub(super) fn end_command(&mut self) {
        if !self.frames.is_empty() {
            return; // a line break inside `$( )` or `( )` ends no top-level command
        }
        let keep = !self.has_command || self.declaring.is_some();
        if keep && !self.assigned.is_empty() {
            let end_line = self.line_of(self.pos.saturating_sub(1));
            for (name, start) in std::mem::take(&mut self.assigned) {
                if self.seen.insert(name.clone()) {
                    let line = self.line_of(start);
                    let head = statement_head(self.text, self.command_start, start);
                    let entry = Entry::new(Kind::Variable, name, line, end_line.max(line));
                    self.out.push(entry.with_signature(head));
                }
            }
        }
        self.assigned.clear();
        self.declaring = None;
        self.has_command = false;
        self.command_start = self.pos;
    }
}

/// `text[start..end]` as an owned name.
fn word_text(text: &str, start: usize, end: usize) -> String {
    text.get(start..end).unwrap_or("").to_string()
}

/// The signature of an assignment at `start`: its line from the command's first word on
/// (`export PATH=…`), read from `from` when that is on the same line, without a comment.
fn statement_head(text: &str, from: usize, start: usize) -> String {
    let line_start = text[..start].rfind('\n').map_or(0, |n| n + 1);
    let from = if from >= line_start && from <= start {
        from
    } else {
        start
    };
    let line_end = text[start..].find('\n').map_or(text.len(), |n| start + n);
    signature(without_comment(text.get(from..line_end).unwrap_or("")))
}
