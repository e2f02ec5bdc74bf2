//! PHP's lexical forms: the template around `<?php … ?>` (blanked, so the code's structure
//! reads as if the file were all code) and heredocs `<<<ID … ID` / nowdocs `<<<'ID' … ID`.

use super::{find, is_word_byte, Scanner};

/// The tags that open code: `<?php`, the echo tag `<?=`.
const OPEN_TAGS: [&[u8]; 2] = [b"<?php", b"<?="];

/// Where the next opening tag ends at or after `from` (`None`: the rest is template). One
/// pass over `<?` candidates: searching for each tag on its own would read the rest of the
/// file once per `?>` when a tag never comes.
fn next_open_tag_end(src: &[u8], from: usize) -> Option<usize> {
    let rest = src.get(from..)?;
    memchr::memmem::find_iter(rest, b"<?").find_map(|at| {
        let tail = &rest[at..];
        OPEN_TAGS
            .iter()
            .find(|tag| tail.starts_with(tag))
            .map(|tag| from + at + tag.len())
    })
}

/// Attributes `#[` left unclosed after which the rest of a file's `#[` are line comments:
/// each unclosed one is read to the end of the file, and a file of them must stay linear.
const MAX_UNCLOSED_ATTRIBUTES: u32 = 8;

/// Where a line comment from `start` ends: at its line's end or at a `?>` before it, which
/// closes the code even there. An attribute `#[…]` is masked as a comment too, but it ends at
/// its closing bracket, on this line or a later one: code may follow it on the same line
/// (`f(#[\SensitiveParameter] $token) {`, `#[Pure] public function f()`). `unclosed` counts
/// the attributes of this file no bracket closed.
pub(super) fn comment_end(src: &[u8], start: usize, line_end: usize, unclosed: &mut u32) -> usize {
    if src.get(start..start + 2) == Some(b"#[") && *unclosed < MAX_UNCLOSED_ATTRIBUTES {
        match attribute_end(src, start + 2) {
            Some(end) => return end,
            None => *unclosed += 1,
        }
    }
    let line = src.get(start..line_end).unwrap_or(&[]);
    find(line, b"?>").map_or(line_end, |n| start + n)
}

#[cfg(test)]
thread_local! {
    /// Bytes the attribute scans read on this thread: tests hold them to the input's size.
    static ATTRIBUTE_BYTES_READ: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Just past the `]` that closes an attribute whose bracket opened before `from`: brackets
/// nest, and quoted strings (escapes included) hide theirs. `None` when it never closes.
fn attribute_end(src: &[u8], from: usize) -> Option<usize> {
    let end = attribute_scan(src, from);
    #[cfg(test)]
    ATTRIBUTE_BYTES_READ.with(|read| read.set(read.get() + end.unwrap_or(src.len()) - from));
    end
}

fn attribute_scan(src: &[u8], from: usize) -> Option<usize> {
    let mut depth = 1usize;
    let mut p = from;
    while let Some(&byte) = src.get(p) {
        match byte {
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(p + 1);
                }
            }
            b'\'' | b'"' => p = quoted_end(src, p)?,
            _ => {}
        }
        p += 1;
    }
    None
}

/// The position of the quote that closes the string opened at `open`.
fn quoted_end(src: &[u8], open: usize) -> Option<usize> {
    let quote = *src.get(open)?;
    let mut p = open + 1;
    while let Some(&byte) = src.get(p) {
        match byte {
            b'\\' => p += 2,
            _ if byte == quote => return Some(p),
            _ => p += 1,
        }
    }
    None
}

impl Scanner<'_> {
    /// A file that opens with template text: blanked up to its first opening tag. A file with
    /// no tag at all is code throughout (a PHP library file run with `php -r`, a snippet).
    pub(super) fn leading_template(&mut self) {
        if let Some(end) = next_open_tag_end(self.src, 0) {
            self.blank(0, end);
            self.pos = end;
            self.code_from = end;
        }
    }

    /// At `?>`: blanks the template that follows, up to and including the next opening tag.
    pub(super) fn try_template(&mut self) -> bool {
        if !self.starts_with("?>") {
            return false;
        }
        let start = self.pos;
        let end = next_open_tag_end(self.src, start + 2).unwrap_or(self.src.len());
        self.blank(start, end);
        self.pos = end;
        true
    }

    /// At `<`: masks a heredoc or nowdoc (`<<<ID`, `<<<"ID"`, `<<<'ID'`) to its closing
    /// identifier, which stands first on its line (indented or not) and is no longer word.
    pub(super) fn try_heredoc(&mut self) -> bool {
        if !self.starts_with("<<<") {
            return false;
        }
        let mut p = self.pos + 3;
        while matches!(self.src.get(p), Some(b' ' | b'\t')) {
            p += 1;
        }
        let quote = self
            .src
            .get(p)
            .copied()
            .filter(|b| matches!(b, b'"' | b'\''));
        if quote.is_some() {
            p += 1;
        }
        let id_start = p;
        while self.src.get(p).is_some_and(|b| is_word_byte(*b)) {
            p += 1;
        }
        if p == id_start {
            return false;
        }
        let id = &self.src[id_start..p];
        if let Some(q) = quote {
            if self.src.get(p) != Some(&q) {
                return false;
            }
            p += 1;
        }
        let Some(body_start) = memchr::memchr(b'\n', &self.src[p..]).map(|n| p + n + 1) else {
            return false;
        };
        let mut line = body_start;
        let end = loop {
            if line >= self.src.len() {
                break self.src.len();
            }
            let line_end =
                memchr::memchr(b'\n', &self.src[line..]).map_or(self.src.len(), |n| line + n);
            let text = &self.src[line..line_end];
            let indent = text
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\t'))
                .count();
            let closes = text[indent..].starts_with(id)
                && !text
                    .get(indent + id.len())
                    .is_some_and(|b| is_word_byte(*b));
            if closes {
                break line + indent;
            }
            line = line_end + 1;
        };
        self.blank(body_start, end);
        self.pos = (end + id.len()).min(self.src.len());
        true
    }
}

#[cfg(test)]
mod tests {
    use crate::parse::lex::{mask, Interpolation, LexSpec};

    const PHP: LexSpec = LexSpec {
        line_comments: &["//", "#"],
        php: true,
        interpolation: Interpolation::BraceDollar,
        ..LexSpec::C_LIKE
    };

    #[test]
    fn templates_heredocs_and_comments_closed_by_the_tag() {
        let src = "<h1>{</h1>\n<?php function f() { // c ?> <p>}</p> <?php }\n$s = <<<EOT\n  function g() {\n  EOT;\n$t = \"{$a[\"}\"]}\";\n?>tail {";
        let masked = mask(src, &PHP);
        assert_eq!(masked.len(), src.len());
        assert!(
            !masked.contains("<h1>") && !masked.contains("<p>"),
            "{masked}"
        );
        assert!(
            !masked.contains("function g") && !masked.contains("tail"),
            "{masked}"
        );
        assert!(masked.contains("function f() {"), "{masked}");
        let opens = masked.matches('{').count();
        let closes = masked.matches('}').count();
        assert_eq!(opens, closes, "{masked}");
    }

    #[test]
    fn an_attribute_is_masked_to_its_bracket_and_code_after_it_stays() {
        let src = "<?php\nfunction f(#[\\SensitiveParameter] $token, #[A(['x' => ']'])] $b) {\n}\n#[Pure] function g() {}\n#[B(\n  c: [1, 2],\n)]\nfunction h() {}\n# a comment (\n#[Never closed\nfunction k() {}";
        let masked = mask(src, &PHP);
        assert_eq!(masked.len(), src.len());
        assert!(masked.contains("$token, "), "{masked}");
        assert!(masked.contains("$b) {\n}"), "{masked}");
        assert!(
            !masked.contains("Sensitive") && !masked.contains("=>"),
            "{masked}"
        );
        assert!(masked.contains("function g() {}"), "{masked}");
        assert!(
            !masked.contains("c: [1"),
            "a multi-line attribute: {masked}"
        );
        assert!(masked.contains("function h() {}"), "{masked}");
        assert!(!masked.contains("a comment ("), "{masked}");
        assert!(
            masked.contains("function k() {}") && !masked.contains("Never"),
            "an unclosed attribute is a line comment: {masked}"
        );
    }

    #[test]
    fn unclosed_attributes_stay_linear() {
        // Each unclosed `#[` reads to the end of the file: past a few, the rest are line
        // comments. Without the bound this file is read about 40,000 x 120,000 / 2 times over.
        let src = format!("<?php\n{}function f() {{}}\n", "#[ [\n".repeat(40_000));
        super::ATTRIBUTE_BYTES_READ.with(|read| read.set(0));
        let masked = mask(&src, &PHP);
        let read = super::ATTRIBUTE_BYTES_READ.with(|read| read.get());
        assert_eq!(masked.len(), src.len());
        assert!(
            masked.contains("function f() {}"),
            "the code after them stays"
        );
        assert!(
            read <= 10 * src.len(),
            "{read} bytes read for {}",
            src.len()
        );
    }

    #[test]
    fn a_file_without_tags_is_all_code() {
        assert_eq!(mask("function f() {}", &PHP), "function f() {}");
    }
}
