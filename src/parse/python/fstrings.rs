//! Search's mask for Python: the scanner's mask (comments and string contents blanked), with
//! the expressions of f-strings' replacement fields put back, so that `--refs name` finds
//! `f"{name.attr}"` and `--grep --code-only` sees the code there. The scanner itself keeps the
//! plain mask: what an f-string holds defines nothing.

use super::SPEC;
use crate::parse::lex;

/// `text` masked as search reads Python: see the module doc.
pub(crate) fn search_mask(text: &str, _jsx: bool) -> Vec<u8> {
    let src = text.as_bytes();
    let mut out = lex::mask_bytes(text, &SPEC);
    if out.len() != src.len() {
        return out;
    }
    let mut at = 0;
    while at < out.len() {
        let byte = out[at];
        if byte != b'"' && byte != b'\'' {
            at += 1;
            continue;
        }
        // A quote left by the mask opens a literal whose contents are blank up to the same
        // delimiter: no quote of that kind survives inside it.
        let triple = out.get(at..at + 3) == Some(&[byte; 3][..]);
        let delimiter_len = if triple { 3 } else { 1 };
        let contents = at + delimiter_len;
        // A one-quote literal ends on its line: one left open there (broken code) has no
        // fields worth putting back, and the next quote belongs to another literal.
        let close = match triple {
            true => memchr::memmem::find(&out[contents..], &[byte; 3]),
            false => memchr::memchr2(byte, b'\n', &out[contents..]),
        };
        let Some(close) = close.map(|n| contents + n) else {
            return out;
        };
        if out[close] == b'\n' {
            at = close + 1;
            continue;
        }
        if is_f_string(src, at) {
            keep_fields(src, &mut out, contents, close);
        }
        at = close + delimiter_len;
    }
    out
}

/// Whether the literal whose quote is at `quote` has an `f` among its prefix letters (`f`,
/// `rf`, `Fr`, …): the letters right before the quote, after no other word byte.
fn is_f_string(src: &[u8], quote: usize) -> bool {
    let letters = src[..quote]
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_alphabetic())
        .count();
    let start = quote - letters;
    let glued = start > 0 && lex::is_word_byte(src[start - 1]);
    (1..=2).contains(&letters) && !glued && src[start..quote].iter().any(|b| b | 0x20 == b'f')
}

/// Puts back the replacement fields' expressions in the literal contents `start..end`.
fn keep_fields(src: &[u8], out: &mut [u8], start: usize, end: usize) {
    let mut at = start;
    while at < end {
        match src[at] {
            // Doubled braces are literal braces.
            b'{' | b'}' if src.get(at + 1) == Some(&src[at]) => at += 2,
            b'{' => at = keep_field(src, out, at + 1, end),
            _ => at += 1,
        }
    }
}

/// Puts back one field's expression, from `from` (after its `{`) to its closing `}`; a
/// format spec (after a top-level `:` or `!`) stays blank but for its own nested fields.
/// Returns where the literal's text goes on.
fn keep_field(src: &[u8], out: &mut [u8], from: usize, end: usize) -> usize {
    let mut depth = 0usize;
    let mut in_spec = false;
    let mut at = from;
    while at < end {
        let byte = src[at];
        match byte {
            b'}' if depth == 0 => return at + 1,
            b'{' if in_spec => {
                at = keep_field(src, out, at + 1, end);
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'\'' | b'"' if !in_spec => {
                // A string inside the expression stays blank.
                let close = memchr::memchr(byte, &src[at + 1..end]).map_or(end, |n| at + 1 + n);
                out[at] = byte;
                if close < end {
                    out[close] = byte;
                }
                at = close + 1;
                continue;
            }
            b':' | b'!' if depth == 0 && src.get(at + 1) != Some(&b'=') => in_spec = true,
            _ => {}
        }
        if !in_spec {
            out[at] = byte;
        }
        at += 1;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::search_mask;
    use crate::lang::Language;
    use crate::parse::{lex, soup};

    fn searched(text: &str) -> String {
        String::from_utf8(search_mask(text, false)).expect("ASCII")
    }

    #[test]
    fn f_string_fields_are_code_and_their_text_is_not() {
        assert_eq!(
            searched("x = f\"{p.prefix}_{name!r:>{width}} {{run}}\" + g('{run}')\n"),
            "x = f\" p.prefix   name     width          \" + g('     ')\n"
        );
        assert_eq!(
            searched("y = rf'''a {k[\"run\"]}\n{v}''' # {run}\n"),
            "y = rf'''   k[\"   \"] \n v '''        \n"
        );
        // `!=` and `:=` inside a field are operators, not a conversion or a spec.
        assert_eq!(searched("f'{a != b}{(c := d)}'"), "f' a != b  (c := d) '");
        // Not f-strings: plain, bytes, a name glued to the quote.
        assert_eq!(searched("s = '{run}' + b'{run}'"), "s = '     ' + b'     '");
        assert_eq!(searched("elf'{run}'"), "elf'     '");
        // An f-string left open at its line's end puts nothing back.
        assert_eq!(searched("f'{a}\nb = '{c}'"), "f'   \nb = '   '");
    }

    /// Search's mask has the scanner's mask's shape (same length, same line breaks) and keeps
    /// every byte that mask keeps: it only blanks less.
    #[test]
    fn search_mask_blanks_a_subset_of_what_the_mask_blanks() {
        let result = soup::runner(256).run(&soup::text(Language::Python, 96), |text| {
            let scanner = lex::mask_bytes(&text, &super::SPEC);
            soup::blanks_less(text.as_bytes(), &scanner, &search_mask(&text, false))
        });
        if let Err(failure) = result {
            panic!("{failure}");
        }
    }
}
