//! Lua tokens, read from masked text (comments blank, strings with blank contents).

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tok {
    /// A name or a keyword.
    Name,
    /// A quoted or long string (its contents blank in the masked text).
    Str,
    Number,
    /// `==`, `~=`, `<=`, `>=`, `..`, `...`, `::`, `//`, `<<`, `>>`: never an assignment's `=`
    /// nor a field's `.`.
    Operator,
    /// Any other byte.
    Punct(u8),
}

/// A token and where it lies in the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Token {
    pub(super) tok: Tok,
    pub(super) start: usize,
    pub(super) end: usize,
}

fn is_name_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte >= 0x80
}

/// The tokens of `masked`.
pub(super) fn tokenize(masked: &[u8]) -> Vec<Token> {
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
                run(masked, i, |b| is_name_byte(b) || b == b'.'),
            ),
            _ if is_name_byte(byte) => (Tok::Name, run(masked, i, is_name_byte)),
            b'"' | b'\'' => {
                let close = masked[i + 1..]
                    .iter()
                    .position(|b| *b == byte || *b == b'\n')
                    .map_or(masked.len() - i, |n| n + 2);
                (Tok::Str, close)
            }
            b'[' if matches!(at(1), b'[' | b'=') => match long_string(masked, i) {
                Some(len) => (Tok::Str, len),
                None => (Tok::Punct(b'['), 1),
            },
            b'.' if at(1) == b'.' => (Tok::Operator, if at(2) == b'.' { 3 } else { 2 }),
            b'.' if at(1).is_ascii_digit() => (Tok::Number, run(masked, i + 1, is_name_byte) + 1),
            b'=' | b'~' | b'<' | b'>' if at(1) == b'=' => (Tok::Operator, 2),
            b':' if at(1) == b':' => (Tok::Operator, 2),
            b'/' if at(1) == b'/' => (Tok::Operator, 2),
            b'<' | b'>' if at(1) == byte => (Tok::Operator, 2),
            _ => (Tok::Punct(byte), 1),
        };
        i = (start + len.max(1)).min(masked.len());
        tokens.push(Token { tok, start, end: i });
    }
    tokens
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
