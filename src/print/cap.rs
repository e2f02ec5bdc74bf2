//! `--max-output` for the answers about one file (its outline, a symbol, a line range, the
//! agent read): the text is cut after its last whole line within the cap, with the note
//! directory mode writes, so the flag holds everywhere it is given. Directory mode cuts
//! per file with the same helpers.

use std::io::Write;

/// The longest prefix of `text` of whole lines within `room` bytes, and how many lines
/// were left out.
pub(super) fn cut_at_line(text: &str, room: usize) -> (&str, usize) {
    let mut end = 0;
    for (index, _) in text.match_indices('\n') {
        if index + 1 > room {
            break;
        }
        end = index + 1;
    }
    let hidden = text[end..].lines().count();
    (&text[..end], hidden)
}

/// Bytes of the first `n` lines of `text`.
pub(super) fn first_lines(text: &str, n: usize) -> usize {
    text.match_indices('\n')
        .nth(n.saturating_sub(1))
        .map_or(text.len(), |(index, _)| index + 1)
}

/// A writer that passes text on until `limit` bytes, then keeps whole lines only and counts
/// the rest; [`OutputCap::finish`] writes the note. Print writes each answer as one piece, so
/// a piece that does not fit is cut at its last line that does.
pub(super) struct OutputCap<'w> {
    out: &'w mut dyn Write,
    /// `None`: everything passes (JSON, or no `--max-output`).
    limit: Option<usize>,
    written: usize,
    hidden_lines: usize,
}

impl<'w> OutputCap<'w> {
    pub(super) fn new(out: &'w mut dyn Write, limit: Option<usize>) -> OutputCap<'w> {
        OutputCap {
            out,
            limit,
            written: 0,
            hidden_lines: 0,
        }
    }

    /// Writes the note when something was left out.
    pub(super) fn finish(self) -> std::io::Result<()> {
        match (self.limit, self.hidden_lines) {
            (Some(limit), hidden) if hidden > 0 => writeln!(
                self.out,
                "# … {hidden} more lines not shown: output cap of {limit} bytes reached (raise --max-output)"
            ),
            _ => Ok(()),
        }
    }
}

impl Write for OutputCap<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let Some(limit) = self.limit else {
            return self.out.write(buf);
        };
        if self.hidden_lines > 0 {
            self.hidden_lines += line_count(buf);
            return Ok(buf.len());
        }
        let room = limit.saturating_sub(self.written);
        if buf.len() <= room {
            self.out.write_all(buf)?;
            self.written += buf.len();
            return Ok(buf.len());
        }
        let text = String::from_utf8_lossy(buf);
        // The answer's first line always shows, so that a cut answer still says what it is.
        let room = match self.written {
            0 => room.max(first_lines(&text, 1)),
            _ => room,
        };
        let (cut, hidden) = cut_at_line(&text, room);
        self.out.write_all(cut.as_bytes())?;
        self.written += cut.len();
        // A piece with no line left out still counts one, so the note is written.
        self.hidden_lines += hidden.max(1);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

fn line_count(bytes: &[u8]) -> usize {
    String::from_utf8_lossy(bytes).lines().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capped(limit: Option<usize>, pieces: &[&str]) -> String {
        let mut out = Vec::new();
        let mut cap = OutputCap::new(&mut out, limit);
        for piece in pieces {
            cap.write_all(piece.as_bytes()).expect("write");
        }
        cap.finish().expect("finish");
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn text_is_cut_at_a_whole_line_with_a_note() {
        let text = "# Outline: a.py\n\nL1 def a\nL2 def b\nL3 def c\n";
        assert_eq!(capped(None, &[text]), text);
        assert_eq!(capped(Some(text.len()), &[text]), text);
        assert_eq!(
            capped(Some(30), &[text, "more\n"]),
            "# Outline: a.py\n\nL1 def a\n# … 3 more lines not shown: output cap of 30 bytes reached (raise --max-output)\n"
        );
        // The first line shows whatever the cap.
        assert!(capped(Some(1), &[text]).starts_with("# Outline: a.py\n# … 4 more lines"));
        // A second piece that does not fit is cut too.
        assert_eq!(
            capped(Some(20), &["one\n", "two\nthree four five six\n"]),
            "one\ntwo\n# … 1 more lines not shown: output cap of 20 bytes reached (raise --max-output)\n"
        );
    }
}
