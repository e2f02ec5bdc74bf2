//! The string forms that hold code or change the escape rule: interpolation holes
//! (`${…}`, `\(…)`, C#'s `$"{…}"`), C# verbatim strings and Swift raw strings. Kept apart from
//! the plain forms in the parent module, whose fast paths the other languages keep.

use super::{escape_end, is_word_byte, Interpolation, Scanner};

/// Holes nest (a string in a hole in a string …) at most this deep; deeper holes are read as
/// the string's text.
pub(super) const MAX_HOLE_DEPTH: usize = 16;

#[cfg(test)]
thread_local! {
    /// Holes read on this thread: tests hold the work of a scan to the size of its input.
    pub(super) static HOLES_READ: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How the body of one string literal is written.
#[derive(Clone, Copy)]
pub(super) struct Form {
    /// The byte that closes it.
    pub(super) quote: u8,
    /// An opening bracket that nests inside (`%w[a [b] c]`): each one takes a `quote` more.
    pub(super) nests: Option<u8>,
    /// Closed by three quotes (`"""`), may span lines.
    pub(super) triple: bool,
    /// `\x` escapes the next byte; otherwise `""` is a quote (verbatim strings).
    pub(super) backslash: bool,
    /// A line break inside is part of the string.
    pub(super) multiline: bool,
    /// Which holes this string opens.
    pub(super) holes: Interpolation,
}

impl Scanner<'_> {
    /// At a `"`: masks a string whose form the plain paths do not know (verbatim, or one that
    /// may hold interpolation holes). `false` when the spec has no such form for it.
    pub(super) fn try_special_string(&mut self) -> bool {
        let spec = self.spec;
        if !spec.verbatim_strings && spec.interpolation == Interpolation::None {
            return false;
        }
        let run = self.src.get(self.code_from..self.pos).unwrap_or(&[]);
        let prefix: &[u8] = [b"$@".as_slice(), b"@$", b"@", b"$"]
            .iter()
            .find_map(|marker| run.strip_suffix(*marker))
            .unwrap_or(run);
        let prefix_bytes = &run[prefix.len()..];
        // `x@"` is no prefix: the marker must stand alone.
        let standalone = prefix.last().is_none_or(|b| !is_word_byte(*b));
        let marked = |byte: u8| standalone && prefix_bytes.contains(&byte);
        let verbatim = spec.verbatim_strings && marked(b'@');
        let holes = match spec.interpolation {
            Interpolation::DollarPrefixBrace if !marked(b'$') => Interpolation::None,
            _ if self.holes >= MAX_HOLE_DEPTH => Interpolation::None,
            holes => holes,
        };
        if !verbatim && holes == Interpolation::None {
            return false;
        }
        // `@""""` is a verbatim string holding one quote: raw strings take no `@`.
        let triple = !verbatim && spec.triple_quotes && self.at(1) == b'"' && self.at(2) == b'"';
        let form = Form {
            quote: b'"',
            nests: None,
            triple,
            backslash: spec.backslash_escapes && !verbatim && !(triple && spec.verbatim_strings),
            multiline: triple || verbatim || spec.multiline_strings,
            holes,
        };
        self.string_body(form);
        true
    }

    /// Masks the body of a string opening at `pos` per `form`, keeping its holes' code.
    pub(super) fn string_body(&mut self, form: Form) {
        let len = self.src.len();
        let open = if form.triple { 3 } else { 1 };
        let mut i = self.pos + open;
        let mut text_from = i;
        let mut nested = 0usize;
        while i < len {
            let byte = self.src[i];
            let next = self.src.get(i + 1).copied().unwrap_or(0);
            let hole_bracket = match (form.holes, byte, next) {
                (Interpolation::DollarBrace, b'$', b'{') => Some(i + 1),
                (Interpolation::BackslashParen, b'\\', b'(') => Some(i + 1),
                (Interpolation::DollarPrefixBrace, b'{', b'{') => {
                    i += 2;
                    continue;
                }
                (Interpolation::DollarPrefixBrace, b'{', _) => Some(i),
                (Interpolation::BraceDollar, b'{', b'$') => Some(i),
                (Interpolation::HashBrace, b'#', b'{') => Some(i + 1),
                _ => None,
            };
            if let Some(bracket) = hole_bracket {
                self.blank(text_from, bracket);
                i = self.hole(bracket + 1);
                text_from = i;
                continue;
            }
            match byte {
                b'\\' if form.backslash => i = escape_end(self.src, i),
                b'\n' if !form.multiline => break,
                open if Some(open) == form.nests => {
                    nested += 1;
                    i += 1;
                }
                quote if quote == form.quote && nested > 0 => {
                    nested -= 1;
                    i += 1;
                }
                quote if quote == form.quote => {
                    if form.triple {
                        if self.src.get(i + 1) == Some(&quote)
                            && self.src.get(i + 2) == Some(&quote)
                        {
                            self.blank(text_from, i);
                            self.pos = i + 3;
                            return;
                        }
                        i += 1;
                    } else if !form.backslash && next == quote {
                        i += 2;
                    } else {
                        self.blank(text_from, i);
                        self.pos = i + 1;
                        return;
                    }
                }
                _ => i += 1,
            }
        }
        let end = i.min(len);
        self.blank(text_from, end);
        self.pos = end;
    }

    /// Reads the code of a hole from `from` to the bracket closing it (brackets paired,
    /// strings and comments inside masked), which stays unmasked; returns the position after
    /// that bracket.
    pub(super) fn hole(&mut self, from: usize) -> usize {
        #[cfg(test)]
        HOLES_READ.with(|read| read.set(read.get() + 1));
        let saved_from = self.code_from;
        self.holes += 1;
        self.pos = from;
        self.code_from = from;
        let mut depth = 0usize;
        let len = self.src.len();
        let mut end = len;
        while self.pos < len {
            if self.try_comment() || self.try_literal() {
                self.code_from = self.pos;
                continue;
            }
            match self.src[self.pos] {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => {
                    if depth == 0 {
                        // Its closer, or a mismatched one: junk must not swallow the file.
                        end = self.pos + 1;
                        break;
                    }
                    depth -= 1;
                }
                _ => {}
            }
            self.pos += 1;
        }
        self.holes -= 1;
        self.code_from = saved_from;
        end
    }

    /// At a `#`: masks a Swift raw string (`#"…"#`, `##"…"##`, `#"""…"""#`). `false` when the
    /// `#`s open no string (`#if`, `#selector`).
    pub(super) fn try_hash_raw(&mut self) -> bool {
        let start = self.pos;
        if start > 0 && (is_word_byte(self.src[start - 1]) || self.src[start - 1] == b'#') {
            return false;
        }
        let hashes = self.src[start..].iter().take_while(|b| **b == b'#').count();
        let quote = start + hashes;
        if self.src.get(quote) != Some(&b'"') {
            return false;
        }
        let triple = self.src.get(quote..quote + 3) == Some(b"\"\"\"".as_slice());
        let quotes = if triple { 3 } else { 1 };
        let body_start = quote + quotes;
        let mut closing = vec![b'"'; quotes];
        closing.extend(std::iter::repeat_n(b'#', hashes));
        let end = super::find(&self.src[body_start..], &closing)
            .map_or(self.src.len(), |n| body_start + n);
        self.blank(body_start, end);
        self.pos = (end + closing.len()).min(self.src.len());
        true
    }
}

#[cfg(test)]
mod tests {
    use crate::parse::lex::{mask, Interpolation, LexSpec};

    const KOTLIN: LexSpec = LexSpec {
        triple_quotes: true,
        nested_comments: true,
        interpolation: Interpolation::DollarBrace,
        ..LexSpec::C_LIKE
    };
    const SWIFT: LexSpec = LexSpec {
        triple_quotes: true,
        nested_comments: true,
        hash_raw_strings: true,
        interpolation: Interpolation::BackslashParen,
        ..LexSpec::C_LIKE
    };
    const CSHARP: LexSpec = LexSpec {
        triple_quotes: true,
        verbatim_strings: true,
        interpolation: Interpolation::DollarPrefixBrace,
        ..LexSpec::C_LIKE
    };

    #[test]
    fn kotlin_templates_keep_their_code_and_mask_their_strings() {
        let src = r#"val s = "${ if (a) "}" else "{" } x" ; f()"#;
        let masked = mask(src, &KOTLIN);
        assert_eq!(masked.len(), src.len());
        assert_eq!(masked, r#"val s = " { if (a) " " else " " }  " ; f()"#);
    }

    #[test]
    fn swift_holes_and_raw_strings() {
        let src = "let a = \"v: \\(d[\"k\"]) }\"; let b = #\"a \" { \"#; #if X";
        let masked = mask(src, &SWIFT);
        assert_eq!(
            masked,
            "let a = \"    (d[\" \"])  \"; let b = #\"      \"#; #if X"
        );
    }

    #[test]
    fn csharp_verbatim_and_interpolated_strings() {
        let src = r#"var p = @"C:\dir\" + $"{{x}} {map["}"]} y"; var q = $@"a""{b}";"#;
        let masked = mask(src, &CSHARP);
        assert_eq!(masked.len(), src.len());
        assert_eq!(
            masked,
            r#"var p = @"       " + $"      {map[" "]}  "; var q = $@"   {b}";"#
        );
    }

    #[test]
    fn runaway_holes_stop_at_the_depth_cap() {
        let src = "\"${\"".repeat(200);
        let masked = mask(&src, &KOTLIN);
        assert_eq!(masked.len(), src.len());
    }
}
