//! Top-level tokens of a declaration head: identifiers, literals, punctuation, and bracket
//! groups (`(…)`, `[…]`, `{…}`, template `<…>`) collapsed into one token each.

use crate::parse::lex::{for_each_lane, is_word_byte, skip_blanks, splat, zero_lanes};
use std::cell::RefCell;

/// Bracket pairs of one kind, sorted by opening offset; an opener that never closes has
/// [`NEVER`] for its close.
#[derive(Default)]
pub(super) struct Pairs(Vec<(usize, usize)>);

const NEVER: usize = usize::MAX;

/// `0x80` in the lanes of `word` holding a bracket: `[{` and `]}` differ from each other only
/// in bit 5, as do `(` and `)` in bit 0.
fn bracket_lanes(word: u64) -> u64 {
    let folded = word | splat(0x20);
    zero_lanes(folded ^ splat(b'{'))
        | zero_lanes(folded ^ splat(b'}'))
        | zero_lanes((word & splat(0xfe)) ^ splat(b'('))
}

/// Pairs of one kind from openers and closers met in order: each opener is recorded when it
/// is met (its close filled in later), so the list comes out sorted without a sort.
#[derive(Default)]
struct Matcher {
    open: Vec<usize>,
    pairs: Vec<(usize, usize)>,
}

impl Matcher {
    fn opener(&mut self, at: usize) {
        self.open.push(self.pairs.len());
        self.pairs.push((at, NEVER));
    }

    fn closer(&mut self, at: usize) {
        if let Some(pair) = self.open.pop().and_then(|k| self.pairs.get_mut(k)) {
            pair.1 = at;
        }
    }
}

impl Pairs {
    /// The `{}` pairs of `code`: few enough that memchr finds them one by one.
    pub(super) fn braces(code: &[u8]) -> Pairs {
        let mut matcher = Matcher::default();
        for at in memchr::memchr2_iter(b'{', b'}', code) {
            if code[at] == b'{' {
                matcher.opener(at);
            } else {
                matcher.closer(at);
            }
        }
        Pairs(matcher.pairs)
    }

    /// The `()` and `[]` pairs of the code of one scope, `start..end` without the brace
    /// groups inside it (`braces`): only a scope the scanner reads needs them, and the bodies
    /// it skips hold most of a file's brackets. Eight bytes at a time.
    pub(super) fn parens_and_brackets(
        code: &[u8],
        braces: &Pairs,
        start: usize,
        end: usize,
    ) -> [Pairs; 2] {
        let end = end.min(code.len());
        let mut parens = Matcher::default();
        let mut brackets = Matcher::default();
        let mut pos = start;
        let mut groups = braces.0[braces.0.partition_point(|p| p.0 < start)..].iter();
        while pos < end {
            let group = groups.find(|p| p.0 >= pos);
            let stop = group.map_or(end, |g| g.0.min(end));
            let run = code.get(pos..stop).unwrap_or(&[]);
            for_each_lane(run, bracket_lanes, |i| match run.get(i) {
                Some(b'(') => parens.opener(pos + i),
                Some(b')') => parens.closer(pos + i),
                Some(b'[') => brackets.opener(pos + i),
                Some(b']') => brackets.closer(pos + i),
                _ => {}
            });
            // A brace group that never closes runs to the end of the scope.
            pos = group.map_or(end, |g| g.1.saturating_add(1));
        }
        [Pairs(parens.pairs), Pairs(brackets.pairs)]
    }

    pub(super) fn close_of(&self, open: usize) -> Option<usize> {
        let i = self.0.binary_search_by_key(&open, |p| p.0).ok()?;
        self.0.get(i).map(|p| p.1).filter(|close| *close != NEVER)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tk {
    Ident,
    Paren,
    Bracket,
    Brace,
    Angle,
    Str,
    Punct,
}

/// A token; for groups `start` is the opener and `end` is one past the closer.
#[derive(Debug, Clone, Copy)]
pub(super) struct Tok {
    pub kind: Tk,
    pub start: usize,
    pub end: usize,
}

impl Tok {
    /// The group of `kind` opened at `open` and closed at `close`; without a close, the
    /// opener alone, as punctuation.
    fn group(kind: Tk, open: usize, close: Option<usize>) -> Tok {
        match close {
            Some(c) => Tok {
                kind,
                start: open,
                end: c + 1,
            },
            None => Tok {
                kind: Tk::Punct,
                start: open,
                end: open + 1,
            },
        }
    }
}

pub(super) struct Ctx<'a> {
    pub code: &'a [u8],
    pub braces: Pairs,
    /// `()` and `[]` pairs of the scope being read (see [`Ctx::enter_scope`]).
    scope: RefCell<[Pairs; 2]>,
}

const MAX_TOKENS: usize = 3000;

/// ASCII letters and digits, `_`, `$` and non-ASCII bytes: [`is_word_byte`]'s table, one
/// look-up for each byte of every name a head holds.
pub(super) fn is_ident_byte(b: u8) -> bool {
    is_word_byte(b)
}

/// Words that take a parenthesised argument and only decorate a declaration.
fn is_attribute_word(w: &[u8]) -> bool {
    matches!(
        w,
        b"__attribute__"
            | b"__attribute"
            | b"__declspec"
            | b"alignas"
            | b"_Alignas"
            | b"__asm__"
            | b"__asm"
            | b"asm"
            | b"_Pragma"
            | b"__pragma"
    )
}

/// The top-level tokens of a range, in order (see [`Ctx::tokens`]); at most [`MAX_TOKENS`].
pub(super) struct Tokens<'c, 'a> {
    ctx: &'c Ctx<'a>,
    at: usize,
    end: usize,
    last: Option<Tok>,
    count: usize,
}

impl Iterator for Tokens<'_, '_> {
    type Item = Tok;

    fn next(&mut self) -> Option<Tok> {
        let code = self.ctx.code;
        if self.count >= MAX_TOKENS {
            return None;
        }
        while code.get(self.at).is_some_and(u8::is_ascii_whitespace) && self.at < self.end {
            // One blank between tokens is the usual gap; longer runs (blanked comments and
            // directives) are passed eight bytes at a time.
            let next_is_blank = code.get(self.at + 1).is_some_and(u8::is_ascii_whitespace);
            self.at = if next_is_blank {
                skip_blanks(code.get(..self.end).unwrap_or(code), self.at)
            } else {
                self.at + 1
            };
        }
        if self.at >= self.end {
            return None;
        }
        let tok = self.ctx.token_at(self.at, self.end, self.last.as_ref());
        self.at = tok.end.max(tok.start + 1);
        self.last = Some(tok);
        self.count += 1;
        Some(tok)
    }
}

impl Ctx<'_> {
    pub(super) fn text(&self, t: &Tok) -> &[u8] {
        self.code.get(t.start..t.end).unwrap_or(b"")
    }

    pub(super) fn is_word(&self, t: &Tok, word: &[u8]) -> bool {
        t.kind == Tk::Ident && self.text(t) == word
    }

    pub(super) fn is_punct(&self, t: &Tok, p: &[u8]) -> bool {
        t.kind == Tk::Punct && self.text(t) == p
    }

    pub(super) fn new(code: &[u8]) -> Ctx<'_> {
        Ctx {
            code,
            braces: Pairs::braces(code),
            scope: RefCell::default(),
        }
    }

    /// Pairs the `()` and `[]` of the scope `start..end` (brace groups inside it excluded),
    /// for reading it; returns the enclosing scope's pairs, for [`Ctx::leave_scope`].
    pub(super) fn enter_scope(&self, start: usize, end: usize) -> [Pairs; 2] {
        let pairs = Pairs::parens_and_brackets(self.code, &self.braces, start, end);
        self.scope.replace(pairs)
    }

    pub(super) fn leave_scope(&self, outer: [Pairs; 2]) {
        self.scope.replace(outer);
    }

    /// The close of the `(`, `[` or `{` at `open`, if it comes before `end`.
    pub(super) fn group_close(&self, open: usize, end: usize) -> Option<usize> {
        let close = match self.code.get(open) {
            Some(b'{') => self.braces.close_of(open),
            Some(b'(') => self.scope.borrow()[0].close_of(open),
            Some(b'[') => self.scope.borrow()[1].close_of(open),
            _ => None,
        };
        close.filter(|c| *c < end)
    }

    /// Top-level tokens of `start..end`.
    pub(super) fn tokenize(&self, start: usize, end: usize) -> Vec<Tok> {
        // No more tokens than bytes; most heads hold a few, read without a regrowth.
        let mut toks = Vec::with_capacity(end.saturating_sub(start).min(16));
        toks.extend(self.tokens(start, end));
        toks
    }

    /// [`Ctx::tokenize`] one token at a time, for a caller that may stop after a few.
    pub(super) fn tokens(&self, start: usize, end: usize) -> Tokens<'_, '_> {
        Tokens {
            ctx: self,
            at: start,
            end: end.min(self.code.len()),
            last: None,
            count: 0,
        }
    }

    /// The token at `i` (not a blank) in `..end`; `last` is the token before it (a `<` after
    /// a name opens template arguments).
    fn token_at(&self, i: usize, end: usize, last: Option<&Tok>) -> Tok {
        let code = self.code;
        let b = code[i];
        if is_ident_byte(b) {
            let mut e = i + 1;
            while e < end && is_ident_byte(code[e]) {
                e += 1;
            }
            Tok {
                kind: Tk::Ident,
                start: i,
                end: e,
            }
        } else if b == b'"' || b == b'\'' {
            let e = code
                .get(i + 1..end)
                .and_then(|rest| memchr::memchr(b, rest))
                .map_or(end, |n| i + 1 + n + 1);
            Tok {
                kind: Tk::Str,
                start: i,
                end: e,
            }
        } else if let Some(kind) = match b {
            b'(' => Some(Tk::Paren),
            b'[' => Some(Tk::Bracket),
            b'{' => Some(Tk::Brace),
            _ => None,
        } {
            Tok::group(kind, i, self.group_close(i, end))
        } else if b == b'<' && self.angle_allowed(last) {
            Tok::group(Tk::Angle, i, self.angle_close(i, end))
        } else if (b == b':' && code.get(i + 1) == Some(&b':'))
            || (b == b'-' && code.get(i + 1) == Some(&b'>'))
            || (b == b'&' && code.get(i + 1) == Some(&b'&'))
        {
            Tok {
                kind: Tk::Punct,
                start: i,
                end: (i + 2).min(end),
            }
        } else {
            Tok {
                kind: Tk::Punct,
                start: i,
                end: i + 1,
            }
        }
    }

    fn angle_allowed(&self, last: Option<&Tok>) -> bool {
        match last {
            Some(t) if t.kind == Tk::Ident => {
                let w = self.text(t);
                w != b"operator" && !w.first().is_some_and(u8::is_ascii_digit)
            }
            _ => false,
        }
    }

    fn angle_close(&self, open: usize, end: usize) -> Option<usize> {
        let mut depth = 0usize;
        let mut j = open;
        while j < end {
            match self.code[j] {
                // `1 << 4` and `i <= 9` in a template argument are operators: no list opens.
                b'<' if j > open && matches!(self.code.get(j + 1), Some(b'<' | b'=')) => j += 1,
                // `bool B = i < 10`: a `<` spaced on both sides compares (a nested list
                // follows its template's name: `vector<pair<A, B>>`).
                b'<' if j > open && self.spaced(j) => {}
                b'<' => depth += 1,
                // `>=` compares as `<=` does (`value >= a && value <= b`).
                b'>' if self.code.get(j + 1) == Some(&b'=') => j += 1,
                b'>' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Some(j);
                    }
                }
                b'-' if self.code.get(j + 1) == Some(&b'>') => j += 1,
                b'(' | b'[' => j = self.group_close(j, end)?,
                b'{' | b'}' | b';' => return None,
                _ => {}
            }
            j += 1;
        }
        None
    }

    /// Whether the byte at `at` has white space on both sides.
    fn spaced(&self, at: usize) -> bool {
        let blank = |b: Option<&u8>| b.is_some_and(u8::is_ascii_whitespace);
        blank(self.code.get(at.wrapping_sub(1))) && blank(self.code.get(at + 1))
    }

    /// Drops attributes (`[[…]]`, `__attribute__((…))`, `__declspec(…)`, `alignas(…)`).
    pub(super) fn strip_attributes(&self, mut toks: Vec<Tok>) -> Vec<Tok> {
        // In place: most heads have no attribute, and a kept token only ever moves left.
        let mut kept = 0;
        let mut i = 0;
        while let Some(&t) = toks.get(i) {
            i += 1;
            if t.kind == Tk::Bracket && self.code.get(t.start + 1) == Some(&b'[') {
                continue;
            }
            if t.kind == Tk::Ident {
                let w = self.text(&t);
                if is_attribute_word(w) {
                    if toks.get(i).is_some_and(|n| n.kind == Tk::Paren) {
                        i += 1;
                    }
                    continue;
                }
                if w == b"__extension__" {
                    continue;
                }
            }
            if let Some(slot) = toks.get_mut(kept) {
                *slot = t;
            }
            kept += 1;
        }
        toks.truncate(kept);
        toks
    }
}
