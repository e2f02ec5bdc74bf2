//! The shell's words: which bytes make one, which words assign, which commands declare.

/// Whether `byte` goes on a word: anything but blanks, the operators `; & | ( ) < >`, quotes,
/// `$` and `\` (which the lexer reads itself). `#`, `{`, `}` and `=` are word bytes: `a#b`
/// is one word, and `{`, `}` are keywords only as words of their own.
pub(super) fn is_word_byte(byte: u8) -> bool {
    !matches!(
        byte,
        b' ' | b'\t'
            | b'\r'
            | b'\n'
            | b';'
            | b'&'
            | b'|'
            | b'('
            | b')'
            | b'<'
            | b'>'
            | b'"'
            | b'\''
            | b'`'
            | b'$'
            | b'\\'
    )
}

/// A command whose words are definitions at the top level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Declaring {
    /// `export`, `readonly`, `declare`, `typeset`, `local`: `NAME=value` words.
    Variables,
    /// `alias`: `name=value` words, where a name may hold more than identifier bytes.
    Aliases,
}

impl Declaring {
    /// The declaring command `word` names, if any.
    pub(super) fn of(word: &[u8]) -> Option<Declaring> {
        match word {
            b"export" | b"readonly" | b"declare" | b"typeset" | b"local" => {
                Some(Declaring::Variables)
            }
            b"alias" => Some(Declaring::Aliases),
            _ => None,
        }
    }
}

/// The name a word assigns: `NAME=…`, `NAME+=…`, `NAME[i]=…` (the name without its index),
/// or for an alias anything before the `=`. `None` for any other word.
pub(super) fn assigned_name(word: &[u8], declaring: Option<Declaring>) -> Option<&str> {
    let equals = memchr::memchr(b'=', word)?;
    let before = &word[..equals];
    if declaring == Some(Declaring::Aliases) {
        return (!before.is_empty() && !before.starts_with(b"-"))
            .then(|| std::str::from_utf8(before).ok())
            .flatten();
    }
    let before = before.strip_suffix(b"+").unwrap_or(before);
    let name = match memchr::memchr(b'[', before) {
        Some(bracket) if before.ends_with(b"]") => &before[..bracket],
        Some(_) => return None,
        None => before,
    };
    let identifier = name
        .first()
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
        && name.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_');
    identifier.then(|| std::str::from_utf8(name).ok()).flatten()
}

/// `line` without the comment that ends it: from a `#` where a word starts, outside quotes.
pub(super) fn without_comment(line: &str) -> &str {
    let bytes = line.as_bytes();
    let mut quote = None;
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        match (quote, byte) {
            (None, b'\\') | (Some(b'"'), b'\\') => i += 1,
            (None, b'\'' | b'"') => quote = Some(byte),
            (Some(open), _) if open == byte => quote = None,
            (None, b'#') if i == 0 || bytes[i - 1].is_ascii_whitespace() => {
                return line[..i].trim_end();
            }
            _ => {}
        }
        i += 1;
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignments_and_their_names() {
        let variables = Some(Declaring::Variables);
        let aliases = Some(Declaring::Aliases);
        assert_eq!(assigned_name(b"FOO=1", None), Some("FOO"));
        assert_eq!(assigned_name(b"PATH+=:x", variables), Some("PATH"));
        assert_eq!(assigned_name(b"arr[3]=x", None), Some("arr"));
        assert_eq!(assigned_name(b"_a1=", None), Some("_a1"));
        assert_eq!(assigned_name(b"1a=x", None), None);
        assert_eq!(assigned_name(b"a-b=x", None), None);
        assert_eq!(assigned_name(b"--opt=x", None), None);
        assert_eq!(assigned_name(b"echo", None), None);
        assert_eq!(assigned_name(b"ll=", aliases), Some("ll"));
        assert_eq!(assigned_name(b"..=", aliases), Some(".."));
        assert_eq!(assigned_name(b"-g=", aliases), None);
    }

    #[test]
    fn comments_end_a_line_outside_quotes() {
        assert_eq!(without_comment("A=1 # note"), "A=1");
        assert_eq!(without_comment("A='x # y' # z"), "A='x # y'");
        assert_eq!(without_comment("A=\"\\\" # y\""), "A=\"\\\" # y\"");
        assert_eq!(without_comment("A=${#x}a#b"), "A=${#x}a#b");
    }
}
