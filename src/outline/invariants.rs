//! The promises every outline keeps whatever the input, as code: the property tests and the
//! fuzz targets (`fuzz/`) run every parser's output through [`check`].

use super::{Entry, Outline, MAX_DEPTH};

/// Checks `outline` and returns the first broken promise, naming the entry:
/// - every range is `1 <= line <= end_line <= lines` (an empty file has no entries);
/// - children lie within their parent's range, sorted by line;
/// - ids are positional (`1.2` is the 2nd child of the 1st root): [`Outline::id_of`] gives
///   that id and [`Outline::find_id`] finds each entry by it;
/// - a qualname is the parent's qualname, `.`, and the name (`""` for an empty name);
/// - names and signatures are one line (the text format prints one line per entry);
/// - a truncated entry lists no children, and no entry is deeper than [`MAX_DEPTH`].
pub fn check(outline: &Outline) -> Result<(), String> {
    if outline.lines == 0 && !outline.entries.is_empty() {
        return Err(format!("{} entries in a file of no lines", outline.len()));
    }
    let root = Parent {
        id: "",
        qualname: "",
        line: 1,
        end_line: outline.lines.max(1),
        depth: 0,
    };
    check_level(outline, &outline.entries, &root)
}

/// What a level of entries is checked against.
struct Parent<'a> {
    id: &'a str,
    qualname: &'a str,
    line: usize,
    end_line: usize,
    depth: usize,
}

fn check_level(outline: &Outline, entries: &[Entry], parent: &Parent<'_>) -> Result<(), String> {
    let depth = parent.depth + 1;
    let mut previous_line = 0;
    for (index, entry) in entries.iter().enumerate() {
        let (id, qualname) = expected_names(parent, index, entry.name());
        let at = |problem: String| format!("entry {id} ({:?}): {problem}", entry.name());
        if outline.id_of(entry).as_deref() != Some(id.as_str()) {
            return Err(at(format!("id should be {id}")));
        }
        if entry.qualname() != qualname {
            return Err(at(format!("qualname should be {qualname:?}")));
        }
        if !outline
            .find_id(&id)
            .is_some_and(|found| std::ptr::eq(found, entry))
        {
            return Err(at("find_id does not lead to it".into()));
        }
        if entry.line < parent.line || entry.end_line > parent.end_line {
            return Err(at(format!(
                "lines {}-{} outside {}-{}",
                entry.line, entry.end_line, parent.line, parent.end_line
            )));
        }
        if entry.line > entry.end_line {
            return Err(at(format!("ends ({}) before it starts", entry.end_line)));
        }
        if entry.line < previous_line {
            return Err(at(format!("starts before the sibling at {previous_line}")));
        }
        previous_line = entry.line;
        let multi_line = |text: &str| text.contains(['\n', '\r']);
        if multi_line(entry.name()) || entry.signature.as_deref().is_some_and(multi_line) {
            return Err(at("name or signature spans lines".into()));
        }
        if entry.truncated.is_some() && !entry.children.is_empty() {
            return Err(at("truncated but lists children".into()));
        }
        if depth > MAX_DEPTH {
            return Err(at(format!("depth {depth} past {MAX_DEPTH}")));
        }
        let this = Parent {
            id: &id,
            qualname: entry.qualname(),
            line: entry.line,
            end_line: entry.end_line,
            depth,
        };
        check_level(outline, &entry.children, &this)?;
    }
    Ok(())
}

/// The id and qualname the entry at `index` under `parent` must have.
fn expected_names(parent: &Parent<'_>, index: usize, name: &str) -> (String, String) {
    // An empty name is `""` in a qualified name, so that `"".a` never reads as the top-level `a`.
    let segment = if name.is_empty() { "\"\"" } else { name };
    if parent.id.is_empty() {
        ((index + 1).to_string(), segment.to_string())
    } else {
        (
            format!("{}.{}", parent.id, index + 1),
            format!("{}.{segment}", parent.qualname),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Language;
    use crate::outline::{Kind, Truncation};

    fn sample() -> Outline {
        let tree = vec![
            Entry::new(Kind::Class, "A", 1, 5).with_children(vec![Entry::new(
                Kind::Method,
                "m",
                2,
                3,
            )]),
        ];
        Outline::new(Language::Python, 5, 0, tree)
    }

    #[test]
    fn a_normalized_outline_passes() {
        assert_eq!(check(&sample()), Ok(()));
    }

    #[test]
    fn each_broken_promise_is_caught() {
        type Breaker = (&'static str, fn(&mut Outline));
        let breakers: [Breaker; 6] = [
            ("id should be", |o| o.entries[0].children[0].index = 9),
            ("qualname", |o| o.entries[0].children[0].set_name("m")),
            ("outside", |o| o.entries[0].children[0].end_line = 9),
            ("spans lines", |o| {
                o.entries[0].signature = Some("class A(\n)".into())
            }),
            ("truncated", |o| {
                o.entries[0].truncated = Some(Truncation::MaxNesting)
            }),
            ("no lines", |o| o.lines = 0),
        ];
        for (want, break_it) in breakers {
            let mut outline = sample();
            break_it(&mut outline);
            let problem = check(&outline).expect_err(want);
            assert!(problem.contains(want), "{want}: {problem}");
        }
    }
}
