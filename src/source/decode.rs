//! Turning raw input bytes into text a chunk at a time: the encoding told by the first bytes
//! (a UTF-16 byte order mark, or NUL bytes that make a file binary), UTF-16 decoded to UTF-8
//! with `char::decode_utf16`, and the line count of what was decoded.

/// How the input's bytes encode its text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 (or ASCII); invalid sequences are decoded lossily at the end.
    #[default]
    Utf8,
    /// UTF-16, little-endian, announced by the byte order mark `FF FE`.
    Utf16Le,
    /// UTF-16, big-endian, announced by the byte order mark `FE FF`.
    Utf16Be,
}

impl Encoding {
    /// The encoding `probe` (the first bytes of the input) announces, or `None` for binary
    /// input: a NUL byte in the probe without a UTF-16 byte order mark (as git and ripgrep
    /// decide). UTF-32's mark starts like UTF-16 LE's and is binary here.
    pub fn sniff(probe: &[u8]) -> Option<Encoding> {
        if probe.starts_with(&[0xFF, 0xFE, 0, 0]) {
            return None;
        }
        if probe.starts_with(&[0xFF, 0xFE]) {
            return Some(Encoding::Utf16Le);
        }
        if probe.starts_with(&[0xFE, 0xFF]) {
            return Some(Encoding::Utf16Be);
        }
        match memchr::memchr(0, probe) {
            Some(_) => None,
            None => Some(Encoding::Utf8),
        }
    }

    /// A decoder for a stream in this encoding, starting at its first byte.
    pub(crate) fn decoder(self) -> Decoder {
        Decoder {
            encoding: self,
            // The UTF-16 byte order mark is a fact about the encoding, not text: it is skipped.
            skip: match self {
                Encoding::Utf8 => 0,
                Encoding::Utf16Le | Encoding::Utf16Be => 2,
            },
            odd_byte: None,
            high_surrogate: None,
            out: Vec::new(),
        }
    }

    /// `utf-8`, `utf-16le` or `utf-16be`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Utf16Le => "utf-16le",
            Encoding::Utf16Be => "utf-16be",
        }
    }
}

/// Decodes one stream chunk by chunk; a code unit or surrogate pair split between chunks is
/// carried over. UTF-8 passes through untouched (validated once, at the end, by the caller).
#[derive(Debug)]
pub(crate) struct Decoder {
    encoding: Encoding,
    /// Bytes of the byte order mark still to skip.
    skip: usize,
    odd_byte: Option<u8>,
    high_surrogate: Option<u16>,
    out: Vec<u8>,
}

impl Decoder {
    /// The UTF-8 bytes of `raw`, the next chunk of the stream.
    pub(crate) fn decode<'a>(&'a mut self, mut raw: &'a [u8]) -> &'a [u8] {
        let skipped = self.skip.min(raw.len());
        self.skip -= skipped;
        raw = &raw[skipped..];
        if self.encoding == Encoding::Utf8 {
            return raw;
        }
        self.out.clear();
        let mut units = Vec::with_capacity(raw.len() / 2 + 2);
        units.extend(self.high_surrogate.take());
        let mut bytes = raw;
        if let Some(first) = self.odd_byte.take() {
            match bytes.split_first() {
                Some((&second, rest)) => {
                    units.push(self.unit([first, second]));
                    bytes = rest;
                }
                None => self.odd_byte = Some(first),
            }
        }
        let pairs = bytes.chunks_exact(2);
        if let [last] = pairs.remainder() {
            self.odd_byte = Some(*last);
        }
        units.extend(pairs.map(|pair| self.unit([pair[0], pair[1]])));
        // A high surrogate at the end may pair with the first unit of the next chunk.
        if units.last().is_some_and(|u| (0xD800..0xDC00).contains(u)) {
            self.high_surrogate = units.pop();
        }
        self.push_units(&units);
        &self.out
    }

    /// What is left at the end of the stream: a lone byte or surrogate becomes U+FFFD.
    pub(crate) fn finish(&mut self) -> &[u8] {
        self.out.clear();
        let leftovers = usize::from(self.odd_byte.take().is_some())
            + usize::from(self.high_surrogate.take().is_some());
        for _ in 0..leftovers {
            self.push_char(char::REPLACEMENT_CHARACTER);
        }
        &self.out
    }

    fn unit(&self, pair: [u8; 2]) -> u16 {
        match self.encoding {
            Encoding::Utf16Be => u16::from_be_bytes(pair),
            _ => u16::from_le_bytes(pair),
        }
    }

    fn push_units(&mut self, units: &[u16]) {
        for decoded in char::decode_utf16(units.iter().copied()) {
            self.push_char(decoded.unwrap_or(char::REPLACEMENT_CHARACTER));
        }
    }

    fn push_char(&mut self, ch: char) {
        let mut buffer = [0u8; 4];
        self.out
            .extend_from_slice(ch.encode_utf8(&mut buffer).as_bytes());
    }
}

/// Counts lines in decoded text fed in chunks, by the rule of [`crate::parse::count_lines`]:
/// newlines, plus one for a last line without a newline.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct LineCounter {
    newlines: usize,
    last: Option<u8>,
}

impl LineCounter {
    pub(crate) fn feed(&mut self, text: &[u8]) {
        self.newlines += memchr::memchr_iter(b'\n', text).count();
        if let Some(&last) = text.last() {
            self.last = Some(last);
        }
    }

    pub(crate) fn lines(&self) -> usize {
        self.newlines + usize::from(self.last.is_some_and(|b| b != b'\n'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
        let mut bytes = if big_endian {
            vec![0xFE, 0xFF]
        } else {
            vec![0xFF, 0xFE]
        };
        for unit in text.encode_utf16() {
            let pair = match big_endian {
                true => unit.to_be_bytes(),
                false => unit.to_le_bytes(),
            };
            bytes.extend_from_slice(&pair);
        }
        bytes
    }

    /// Decodes `bytes` fed in chunks of `size`.
    fn decode_in_chunks(encoding: Encoding, bytes: &[u8], size: usize) -> String {
        let mut decoder = encoding.decoder();
        let mut out = Vec::new();
        for chunk in bytes.chunks(size) {
            out.extend_from_slice(decoder.decode(chunk));
        }
        out.extend_from_slice(decoder.finish());
        String::from_utf8(out).expect("decoder output is UTF-8")
    }

    #[test]
    fn sniffs_byte_order_marks_and_binary() {
        let text = "# Título\n## 🦀 crab\r\n";
        assert_eq!(
            Encoding::sniff(&utf16(text, false)),
            Some(Encoding::Utf16Le)
        );
        assert_eq!(Encoding::sniff(&utf16(text, true)), Some(Encoding::Utf16Be));
        assert_eq!(Encoding::sniff(b"plain"), Some(Encoding::Utf8));
        assert_eq!(Encoding::sniff(b"\xEF\xBB\xBFbom"), Some(Encoding::Utf8));
        assert_eq!(Encoding::sniff(b"a\0b"), None);
        assert_eq!(Encoding::sniff(b"\xFF\xFE\0\0utf32"), None);
    }

    #[test]
    fn utf16_decodes_across_any_chunk_boundary() {
        let text = "# Título\n## 🦀 crab\r\nend";
        for big_endian in [false, true] {
            let bytes = utf16(text, big_endian);
            let encoding = Encoding::sniff(&bytes).expect("text");
            for size in 1..=7 {
                assert_eq!(decode_in_chunks(encoding, &bytes, size), text, "{size}");
            }
        }
    }

    #[test]
    fn broken_utf16_becomes_replacement_characters() {
        // A lone low surrogate, then a lone high surrogate and an odd final byte.
        let bytes = [0xFF, 0xFE, 0x00, 0xDC, b'a', 0, 0x00, 0xD8, b'b'];
        assert_eq!(
            decode_in_chunks(Encoding::Utf16Le, &bytes, 3),
            "\u{FFFD}a\u{FFFD}\u{FFFD}"
        );
    }

    #[test]
    fn counts_lines_like_the_parser() {
        for text in ["", "a", "a\n", "a\nb", "a\r\nb\r\n", "\n\n", "x\ny\nz\n"] {
            let mut counter = LineCounter::default();
            for chunk in text.as_bytes().chunks(2) {
                counter.feed(chunk);
            }
            assert_eq!(counter.lines(), crate::parse::count_lines(text), "{text:?}");
        }
    }
}
