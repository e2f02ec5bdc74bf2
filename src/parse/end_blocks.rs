//! What the `keyword … end` languages (Lua, Ruby) share: tokens read from masked text, and the
//! stack of open blocks that an `end` closes. A block is a keyword's (`function`, `def`,
//! `if`, `do` …), possibly a loop whose `do` is still to come (`while x do … end` takes one
//! `end`), or a bracket; an `end` closes the innermost keyword block and any bracket left open
//! in it. Each language says what its keyword blocks mean (the payload `T`): which one holds
//! an entry, which one is a function body.

use super::cursor::is_ident_byte;

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tok {
    /// A name or a keyword (Ruby's `@ivar`, `$global` and `empty?` included).
    Name,
    /// A quoted or long string (its contents blank in the masked text); only where the
    /// language's [`TokenRules`] read strings as tokens.
    Str,
    Number,
    /// `==`, `~=`, `<=`, `>=`, `..`, `...`, `::`, `//`, `<<`, `>>`, `=>`, `!=`, `**`:
    /// never an assignment's `=` nor a field's `.`.
    Operator,
    /// Any other byte.
    Punct(u8),
}

/// A token and where it lies in the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token {
    pub(crate) tok: Tok,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// How a language's words and strings read as tokens.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TokenRules {
    /// Bytes that may start a name before its first letter (`@`, `$` in Ruby).
    pub(crate) name_prefixes: &'static [u8],
    /// Bytes that may end a name (`?`, `!` in Ruby), unless `=` follows (`a!=b`).
    pub(crate) name_suffixes: &'static [u8],
    /// `"…"` and `'…'` are [`Tok::Str`] tokens; else their quotes are punctuation (Ruby,
    /// whose strings span lines and hold holes with quotes of their own).
    pub(crate) quoted_strings: bool,
    /// Lua's long strings `[[ … ]]`, `[==[ … ]==]` are [`Tok::Str`] tokens.
    pub(crate) long_strings: bool,
}

/// The tokens of `masked`.
pub(crate) fn tokenize(masked: &[u8], rules: TokenRules) -> Vec<Token> {
    let mut tokens = Vec::with_capacity(masked.len() / 4);
    let mut i = 0;
    while let Some(&byte) = masked.get(i) {
        if byte.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let at = |n: usize| masked.get(i + n).copied().unwrap_or(0);
        let (tok, len) = match byte {
            b'0'..=b'9' => (
                Tok::Number,
                run(masked, i, |b| is_ident_byte(b) || b == b'.'),
            ),
            _ if is_ident_byte(byte) => (Tok::Name, name_len(masked, i, rules)),
            _ if rules.name_prefixes.contains(&byte) => {
                let sigils = run(masked, i, |b| rules.name_prefixes.contains(&b));
                match masked.get(i + sigils).is_some_and(|b| is_ident_byte(*b)) {
                    true => (Tok::Name, sigils + name_len(masked, i + sigils, rules)),
                    false => (Tok::Punct(byte), 1),
                }
            }
            b'"' | b'\'' if rules.quoted_strings => {
                let close = masked[i + 1..]
                    .iter()
                    .position(|b| *b == byte || *b == b'\n')
                    .map_or(masked.len() - i, |n| n + 2);
                (Tok::Str, close)
            }
            b'[' if rules.long_strings && matches!(at(1), b'[' | b'=') => {
                match long_string(masked, i) {
                    Some(len) => (Tok::Str, len),
                    None => (Tok::Punct(b'['), 1),
                }
            }
            b'.' if at(1) == b'.' => (Tok::Operator, if at(2) == b'.' { 3 } else { 2 }),
            b'.' if at(1).is_ascii_digit() => (Tok::Number, run(masked, i + 1, is_ident_byte) + 1),
            b'=' | b'~' | b'<' | b'>' | b'!' if at(1) == b'=' => (Tok::Operator, 2),
            b'=' if at(1) == b'>' => (Tok::Operator, 2),
            b':' if at(1) == b':' => (Tok::Operator, 2),
            b'/' | b'*' if at(1) == byte => (Tok::Operator, 2),
            b'<' | b'>' if at(1) == byte => (Tok::Operator, 2),
            _ => (Tok::Punct(byte), 1),
        };
        i = (start + len.max(1)).min(masked.len());
        tokens.push(Token { tok, start, end: i });
    }
    tokens
}

/// The length of the name at `from`, with a suffix byte the rules allow.
fn name_len(masked: &[u8], from: usize, rules: TokenRules) -> usize {
    let len = run(masked, from, is_ident_byte);
    let suffix = masked.get(from + len).copied().unwrap_or(0);
    let then = masked.get(from + len + 1).copied().unwrap_or(0);
    match rules.name_suffixes.contains(&suffix) && then != b'=' {
        true => len + 1,
        false => len,
    }
}

/// Bytes from `from` while `keep` holds.
fn run(bytes: &[u8], from: usize, keep: impl Fn(u8) -> bool) -> usize {
    bytes[from..].iter().take_while(|b| keep(**b)).count()
}

/// The length of the long string `[==[ … ]==]` opening at `at`, if one opens there.
fn long_string(masked: &[u8], at: usize) -> Option<usize> {
    let level = masked[at + 1..].iter().take_while(|b| **b == b'=').count();
    if masked.get(at + 1 + level) != Some(&b'[') {
        return None;
    }
    let mut closing = vec![b']'];
    closing.extend(std::iter::repeat_n(b'=', level));
    closing.push(b']');
    let body = at + level + 2;
    let end = memchr::memmem::find(&masked[body..], &closing)
        .map_or(masked.len(), |n| body + n + closing.len());
    Some(end - at)
}

/// One open block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Block<T> {
    /// A keyword's block, which an `end` closes; `awaiting_do`: a loop whose `do` (part of
    /// the same block) is still to come.
    Keyword { what: T, awaiting_do: bool },
    /// `(`, `[` or `{`; `entry`: it holds an open entry (a table, a `{ }` block).
    Bracket { byte: u8, entry: bool },
}

/// What an `end` closed: the keyword block, if one was open, and how many entry-holding
/// brackets left open inside it were closed with it.
pub(crate) struct Closed<T> {
    pub(crate) what: Option<T>,
    pub(crate) entry_brackets: usize,
}

/// The open blocks, innermost last.
#[derive(Debug)]
pub(crate) struct Blocks<T> {
    stack: Vec<Block<T>>,
}

impl<T: Copy> Blocks<T> {
    pub(crate) fn new() -> Blocks<T> {
        Blocks { stack: Vec::new() }
    }

    /// Opens a keyword block; a loop (`while`, `until`, `for`) waits for its `do`.
    pub(crate) fn open(&mut self, what: T, awaiting_do: bool) {
        self.stack.push(Block::Keyword { what, awaiting_do });
    }

    /// At `do`: the `do` of the innermost loop when it waits for one (`true`), else a block
    /// of its own (`what`).
    pub(crate) fn do_keyword(&mut self, what: T) -> bool {
        if let Some(Block::Keyword { awaiting_do, .. }) = self.stack.last_mut() {
            if *awaiting_do {
                *awaiting_do = false;
                return true;
            }
        }
        self.open(what, false);
        false
    }

    /// The innermost loop stops waiting for a `do` (its condition ended without one).
    pub(crate) fn no_do(&mut self) {
        if let Some(Block::Keyword { awaiting_do, .. }) = self.stack.last_mut() {
            *awaiting_do = false;
        }
    }

    pub(crate) fn open_bracket(&mut self, byte: u8, entry: bool) {
        self.stack.push(Block::Bracket { byte, entry });
    }

    /// At a closing bracket: pops the innermost block when it is the matching bracket, and
    /// says whether that bracket held an entry (`None`: it did not match, nothing popped).
    pub(crate) fn close_bracket(&mut self, close: u8) -> Option<bool> {
        let open = match close {
            b')' => b'(',
            b']' => b'[',
            _ => b'{',
        };
        match self.stack.last().copied() {
            Some(Block::Bracket { byte, entry }) if byte == open => {
                self.stack.pop();
                Some(entry)
            }
            _ => None,
        }
    }

    /// At `end`: closes the innermost keyword block and the brackets left open in it.
    pub(crate) fn end(&mut self) -> Closed<T> {
        let mut entry_brackets = 0;
        while let Some(block) = self.stack.pop() {
            match block {
                Block::Bracket { entry, .. } => entry_brackets += usize::from(entry),
                Block::Keyword { what, .. } => {
                    return Closed {
                        what: Some(what),
                        entry_brackets,
                    }
                }
            }
        }
        Closed {
            what: None,
            entry_brackets,
        }
    }

    /// The innermost bracket, if the innermost block is one: its byte and whether it holds
    /// an entry.
    pub(crate) fn bracket(&self) -> Option<(u8, bool)> {
        match self.stack.last() {
            Some(Block::Bracket { byte, entry }) => Some((*byte, *entry)),
            _ => None,
        }
    }

    /// The keyword blocks' payloads, outermost first.
    pub(crate) fn keywords(&self) -> impl DoubleEndedIterator<Item = T> + '_ {
        self.stack.iter().filter_map(|block| match block {
            Block::Keyword { what, .. } => Some(*what),
            Block::Bracket { .. } => None,
        })
    }

    pub(crate) fn depth(&self) -> usize {
        self.stack.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_end_closes_a_loop_with_its_do_and_the_brackets_left_in_it() {
        let mut blocks = Blocks::new();
        blocks.open('w', true);
        assert!(blocks.do_keyword('d'));
        blocks.open_bracket(b'{', true);
        blocks.open_bracket(b'(', false);
        let closed = blocks.end();
        assert_eq!((closed.what, closed.entry_brackets), (Some('w'), 1));
        assert!(blocks.end().what.is_none());
        assert!(!blocks.do_keyword('d'));
        assert_eq!(blocks.close_bracket(b')'), None);
        assert_eq!(blocks.depth(), 1);
    }

    #[test]
    fn ruby_names_take_their_sigils_and_suffixes() {
        let rules = TokenRules {
            name_prefixes: b"@$",
            name_suffixes: b"?!",
            quoted_strings: false,
            long_strings: false,
        };
        let text = b"@@a.b? $c!=d ::e => \"";
        let words: Vec<_> = tokenize(text, rules)
            .iter()
            .map(|t| std::str::from_utf8(&text[t.start..t.end]).unwrap_or(""))
            .collect();
        assert_eq!(
            words,
            ["@@a", ".", "b?", "$c", "!=", "d", "::", "e", "=>", "\""]
        );
    }
}
