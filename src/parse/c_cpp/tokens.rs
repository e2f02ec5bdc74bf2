//! Top-level tokens of a declaration head: identifiers, literals, punctuation, and bracket
//! groups (`(…)`, `[…]`, `{…}`, template `<…>`) collapsed into one token each.

use crate::parse::lex::{for_each_lane, splat, zero_lanes};

/// Bracket pairs of one kind found in one pass, sorted by opening offset; an opener that
/// never closes has [`NEVER`] for its close.
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

impl Pairs {
    /// Pairs of `{}`, `()` and `[]` in one pass over `code`, eight bytes at a time. Openers
    /// are recorded as they come, so each list is sorted without a sort.
    pub(super) fn all(code: &[u8]) -> [Pairs; 3] {
        let mut stacks: [Vec<usize>; 3] = Default::default();
        let mut pairs: [Vec<(usize, usize)>; 3] = Default::default();
        for_each_lane(code, bracket_lanes, |i| {
            let (kind, open) = match code.get(i) {
                Some(b'{') => (0, true),
                Some(b'}') => (0, false),
                Some(b'(') => (1, true),
                Some(b')') => (1, false),
                Some(b'[') => (2, true),
                Some(b']') => (2, false),
                _ => return,
            };
            let (Some(stack), Some(found)) = (stacks.get_mut(kind), pairs.get_mut(kind)) else {
                return;
            };
            if open {
                stack.push(found.len());
                found.push((i, NEVER));
            } else if let Some(pair) = stack.pop().and_then(|k| found.get_mut(k)) {
                pair.1 = i;
            }
        });
        pairs.map(Pairs)
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

pub(super) struct Ctx<'a> {
    pub code: &'a [u8],
    pub braces: Pairs,
    pub parens: Pairs,
    pub brackets: Pairs,
}

const MAX_TOKENS: usize = 3000;

pub(super) fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// Words that take a parenthesised argument and only decorate a declaration.
const ATTRIBUTE_WORDS: &[&[u8]] = &[
    b"__attribute__",
    b"__attribute",
    b"__declspec",
    b"alignas",
    b"_Alignas",
    b"__asm__",
    b"__asm",
    b"asm",
    b"_Pragma",
    b"__pragma",
];

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

    fn group_close(&self, pairs: &Pairs, open: usize, end: usize) -> Option<usize> {
        pairs.close_of(open).filter(|c| *c < end)
    }

    /// Top-level tokens of `start..end`.
    pub(super) fn tokenize(&self, start: usize, end: usize) -> Vec<Tok> {
        let code = self.code;
        let end = end.min(code.len());
        let mut toks: Vec<Tok> = Vec::new();
        let mut i = start;
        while i < end && toks.len() < MAX_TOKENS {
            let b = code[i];
            let tok = if b.is_ascii_whitespace() {
                i += 1;
                continue;
            } else if is_ident_byte(b) {
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
            } else if let Some((kind, pairs)) = match b {
                b'(' => Some((Tk::Paren, &self.parens)),
                b'[' => Some((Tk::Bracket, &self.brackets)),
                b'{' => Some((Tk::Brace, &self.braces)),
                _ => None,
            } {
                match self.group_close(pairs, i, end) {
                    Some(c) => Tok {
                        kind,
                        start: i,
                        end: c + 1,
                    },
                    None => Tok {
                        kind: Tk::Punct,
                        start: i,
                        end: i + 1,
                    },
                }
            } else if b == b'<' && self.angle_allowed(&toks) {
                match self.angle_close(i, end) {
                    Some(c) => Tok {
                        kind: Tk::Angle,
                        start: i,
                        end: c + 1,
                    },
                    None => Tok {
                        kind: Tk::Punct,
                        start: i,
                        end: i + 1,
                    },
                }
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
            };
            i = tok.end.max(i + 1);
            toks.push(tok);
        }
        toks
    }

    fn angle_allowed(&self, toks: &[Tok]) -> bool {
        match toks.last() {
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
                b'<' => depth += 1,
                b'>' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Some(j);
                    }
                }
                b'-' if self.code.get(j + 1) == Some(&b'>') => j += 1,
                b'(' => j = self.group_close(&self.parens, j, end)?,
                b'[' => j = self.group_close(&self.brackets, j, end)?,
                b'{' | b'}' | b';' => return None,
                _ => {}
            }
            j += 1;
        }
        None
    }

    /// Drops attributes (`[[…]]`, `__attribute__((…))`, `__declspec(…)`, `alignas(…)`).
    pub(super) fn strip_attributes(&self, toks: Vec<Tok>) -> Vec<Tok> {
        let mut out = Vec::with_capacity(toks.len());
        let mut i = 0;
        while let Some(t) = toks.get(i) {
            if t.kind == Tk::Bracket && self.code.get(t.start + 1) == Some(&b'[') {
                i += 1;
                continue;
            }
            if t.kind == Tk::Ident {
                let w = self.text(t);
                if ATTRIBUTE_WORDS.contains(&w) {
                    i += 1;
                    if toks.get(i).is_some_and(|n| n.kind == Tk::Paren) {
                        i += 1;
                    }
                    continue;
                }
                if w == b"__extension__" {
                    i += 1;
                    continue;
                }
            }
            out.push(*t);
            i += 1;
        }
        out
    }
}
