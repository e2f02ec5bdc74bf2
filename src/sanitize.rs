//! Text from files and file names made safe for a terminal. A file can hold `ESC [2J` or an OSC
//! 52 clipboard write, and a file name can hold a newline; shown raw, either would drive the
//! user's terminal or forge lines of output. Every control character (C0, DEL, C1) becomes a
//! visible escape instead, as `ls -b` and git's quoted paths show them: `\e`, `\n`, `\r`, `\t`,
//! `\x07`. Printable text, backslashes included, passes unchanged, so the common case costs one
//! scan and no copy.
//!
//! These are for the terminal edges only (the viewer's panes, `--print` text, messages on
//! stderr). JSON keeps the exact text: its serializer escapes control characters itself.

use std::borrow::Cow;
use std::path::Path;

/// One line of file text (a body line, an outline label): every control character except tab
/// becomes a visible escape; a line break in it would forge a line, so it is escaped too.
pub fn for_terminal(text: &str) -> Cow<'_, str> {
    escape(text, |c| c == '\t')
}

/// Several lines of file text: line breaks and tabs stay, every other control character becomes
/// a visible escape (a carriage return too, which would let a line overwrite what came before).
pub fn lines_for_terminal(text: &str) -> Cow<'_, str> {
    escape(text, |c| c == '\t' || c == '\n')
}

/// A file name or a one-line message that embeds one: every control character, tab and line
/// break included, becomes a visible escape, so one name is always one line.
pub fn name_for_terminal(text: &str) -> Cow<'_, str> {
    escape(text, |_| false)
}

/// A path as [`name_for_terminal`] shows a name (not UTF-8 parts shown lossily, as `display`).
pub fn path_for_terminal(path: &Path) -> Cow<'_, str> {
    match path.to_string_lossy() {
        Cow::Borrowed(text) => name_for_terminal(text),
        Cow::Owned(text) => Cow::Owned(name_for_terminal(&text).into_owned()),
    }
}

/// How much of an argument a message echoes back, in characters.
pub const ECHO_CHARS: usize = 80;

/// An argument as a message echoes it: its first [`ECHO_CHARS`] characters, then `…` when there
/// were more. A 10 MB `--find` argument must not come back whole in "no definition matches".
pub fn echo(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(ECHO_CHARS) {
        None => Cow::Borrowed(text),
        Some((cut, _)) => Cow::Owned(format!("{}…", &text[..cut])),
    }
}

/// A path as a message echoes it ([`echo`] of its text, not UTF-8 parts shown lossily).
pub fn echo_path(path: &Path) -> String {
    echo(&path.to_string_lossy()).into_owned()
}

/// Escapes the control characters of `text` that `keep` does not allow through.
fn escape(text: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && !keep(c);
    // Every control character is C0 (a byte below 0x20), DEL, or C1 (U+0080-U+009F, whose
    // UTF-8 starts with 0xC2): a byte scan passes over the text that needs no escape (nearly
    // all of it) without decoding characters; from the first candidate on, characters decide.
    let candidate = text
        .bytes()
        .position(|b| b < 0x20 || b == 0x7f || b == 0xc2)
        .unwrap_or(text.len());
    let Some(first) = text[candidate..]
        .find(unsafe_char)
        .map(|offset| candidate + offset)
    else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str(&text[..first]);
    for c in text[first..].chars() {
        if unsafe_char(c) {
            push_escape(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The visible form of one control character (all of them are below U+00A0).
fn push_escape(out: &mut String, c: char) {
    match c {
        '\x1b' => out.push_str("\\e"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c => out.push_str(&format!("\\x{:02x}", u32::from(c))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed_unchanged() {
        for text in [
            "",
            "fn main() -> i32",
            "naïve 日本語 \\e literal",
            "a\tb",
            "£5 © ¬",
        ] {
            assert!(matches!(for_terminal(text), Cow::Borrowed(t) if t == text));
        }
        assert!(matches!(lines_for_terminal("a\n\tb\n"), Cow::Borrowed(_)));
    }

    #[test]
    fn escape_sequences_become_visible() {
        let heading = "Title \x1b[2J\x1b]0;pwned\x07";
        assert_eq!(for_terminal(heading), "Title \\e[2J\\e]0;pwned\\x07");
        let osc52 = "\x1b]52;c;cHduZWQ=\x1b\\";
        assert_eq!(name_for_terminal(osc52), "\\e]52;c;cHduZWQ=\\e\\");
        assert_eq!(for_terminal("a\x7fb\u{85}c\u{9b}d"), "a\\x7fb\\x85c\\x9bd");
        assert_eq!(for_terminal("\0"), "\\x00");
        // A character that shares C1's first byte (0xC2) before the control character.
        assert_eq!(for_terminal("£1\u{85}é"), "£1\\x85é");
    }

    #[test]
    fn each_variant_keeps_only_its_whitespace() {
        let text = "a\tb\nc\rd";
        assert_eq!(for_terminal(text), "a\tb\\nc\\rd");
        assert_eq!(lines_for_terminal(text), "a\tb\nc\\rd");
        assert_eq!(name_for_terminal(text), "a\\tb\\nc\\rd");
    }

    #[test]
    fn nothing_escaped_holds_a_control_character() {
        let all: String = (0u32..0x250).filter_map(char::from_u32).collect();
        for escaped in [
            for_terminal(&all),
            lines_for_terminal(&all),
            name_for_terminal(&all),
        ] {
            assert!(!escaped
                .chars()
                .any(|c| c.is_control() && c != '\t' && c != '\n'));
        }
        assert!(!name_for_terminal(&all).contains(['\t', '\n']));
    }

    #[test]
    fn paths_are_escaped_like_names() {
        let path = Path::new("dir/evil\n## fake.md");
        assert_eq!(path_for_terminal(path), "dir/evil\\n## fake.md");
        assert!(matches!(
            path_for_terminal(Path::new("src/a.rs")),
            Cow::Borrowed("src/a.rs")
        ));
    }

    #[cfg(unix)]
    #[test]
    fn non_utf8_paths_are_lossy_and_escaped() {
        use std::os::unix::ffi::OsStrExt;
        let path = Path::new(std::ffi::OsStr::from_bytes(b"a\xff\x1b.rs"));
        assert_eq!(path_for_terminal(path), "a\u{fffd}\\e.rs");
    }
}
