//! Several bodies printed to be compared (`--find NAME --body`, a few short overloads): a body
//! that repeats most of one printed above shows only the lines that differ. "How do the two
//! differ?" was answered by reading both whole: Flask's and Blueprint's `open_resource` are
//! 27 lines each and differ in one, a default argument.

use similar::{ChangeTag, TextDiff};
use std::fmt::Write as _;

/// Bodies shorter than this print whole: a diff saves nothing on them.
const MIN_LINES: usize = 6;
/// The share of lines a body must have in common with one above to be shown as the lines that
/// differ from it.
const MIN_SHARED: f32 = 0.6;

/// A text body as [`super::search`] renders it: its header, then `N text` lines.
pub(super) struct Shown {
    header: String,
    lines: Vec<(usize, String)>,
}

impl Shown {
    /// `rendered` read back; `None` for anything else (JSON, a note, a declaration only).
    pub(super) fn parse(rendered: &str) -> Option<Shown> {
        let (header, body) = rendered.split_once("\n\n")?;
        let lines = body
            .lines()
            .map(|line| {
                let (number, text) = line.split_once(' ').unwrap_or((line, ""));
                Some((number.parse().ok()?, text.to_string()))
            })
            .collect::<Option<Vec<_>>>()?;
        (lines.len() >= MIN_LINES).then(|| Shown {
            header: header.to_string(),
            lines,
        })
    }

    /// `(path, L1-9)` of the header: where the body is, to name it as the one above.
    fn place(&self) -> &str {
        self.header
            .rfind(" (")
            .map_or(self.header.as_str(), |at| &self.header[at + 1..])
    }
}

/// The text of `shown`'s lines, without their numbers.
fn texts(shown: &Shown) -> Vec<&str> {
    shown.lines.iter().map(|(_, text)| text.as_str()).collect()
}

/// `next` as the lines that differ from the most similar of `above`, when it shares at least
/// [`MIN_SHARED`] of its lines with it: its header, a line naming the body above, then
/// `- N text` for that body's lines it lacks and `+ N text` for its own.
pub(super) fn as_difference(above: &[Shown], next: &Shown) -> Option<String> {
    let theirs = texts(next);
    let (base, shared) = above
        .iter()
        .map(|base| {
            let ours = texts(base);
            (
                base,
                TextDiff::configure().diff_slices(&ours, &theirs).ratio(),
            )
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    if shared < MIN_SHARED {
        return None;
    }
    let ours = texts(base);
    let diff = TextDiff::configure().diff_slices(&ours, &theirs);
    let mut out = format!(
        "{}\n# the body {} above, except (- there, + here):\n",
        next.header,
        base.place()
    );
    for change in diff.iter_all_changes() {
        let (mark, (number, text)) = match change.tag() {
            ChangeTag::Equal => continue,
            ChangeTag::Delete => ('-', &base.lines[change.old_index()?]),
            ChangeTag::Insert => ('+', &next.lines[change.new_index()?]),
        };
        let _ = match text.is_empty() {
            true => writeln!(out, "{mark} {number}"),
            false => writeln!(out, "{mark} {number} {text}"),
        };
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rendered(header: &str, first: usize, lines: &[&str]) -> String {
        let body: String = (first..)
            .zip(lines)
            .map(|(n, text)| format!("{n} {text}\n"))
            .collect();
        format!("{header}\n\n{body}")
    }

    const FLASK: [&str; 7] = [
        "def open_resource(",
        "    self, resource, mode=\"rb\", encoding=None",
        "):",
        "    if mode not in {\"r\", \"rt\", \"rb\"}:",
        "        raise ValueError(\"Resources can only be opened for reading.\")",
        "    path = os.path.join(self.root_path, resource)",
        "    return open(path, mode, encoding=encoding)",
    ];

    #[test]
    fn a_near_copy_shows_the_lines_that_differ() {
        let first = Shown::parse(&rendered(
            "# method: Flask.open_resource (app.py, L10-16)",
            10,
            &FLASK,
        ))
        .expect("a body");
        let mut copy = FLASK;
        copy[1] = "    self, resource, mode=\"rb\", encoding=\"utf-8\"";
        let next = Shown::parse(&rendered(
            "# method: Blueprint.open_resource (bp.py, L40-46)",
            40,
            &copy,
        ))
        .expect("a body");
        assert_eq!(
            as_difference(&[first], &next).as_deref(),
            Some(
                "# method: Blueprint.open_resource (bp.py, L40-46)\n\
                 # the body (app.py, L10-16) above, except (- there, + here):\n\
                 - 11     self, resource, mode=\"rb\", encoding=None\n\
                 + 41     self, resource, mode=\"rb\", encoding=\"utf-8\"\n"
            )
        );
    }

    #[test]
    fn different_or_short_bodies_print_whole() {
        let first =
            Shown::parse(&rendered("# method: A.f (a.py, L1-7)", 1, &FLASK)).expect("a body");
        let other: Vec<String> = (0..7).map(|i| format!("    step_{i}()")).collect();
        let other: Vec<&str> = other.iter().map(String::as_str).collect();
        let next =
            Shown::parse(&rendered("# method: B.f (b.py, L1-7)", 1, &other)).expect("a body");
        assert!(as_difference(&[first], &next).is_none());
        assert!(Shown::parse(&rendered("# method: C.f (c.py, L1-2)", 1, &FLASK[..2])).is_none());
        assert!(Shown::parse("{\"json\": true}\n").is_none());
    }
}
