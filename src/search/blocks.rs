//! `-W` on a long entry: which lines around a hit say under what condition it runs and what
//! becomes of its result. The heads of the blocks above it (`if`, `for`, the branches of a
//! chain), the small block that holds it, the handlers of a `try` it sits in (`catch`,
//! `except`, `rescue`) and the check of what its line produced (`if err != nil`): the question
//! "how does each caller handle a failure" is answered below a call more often than above it.

use super::EntryRef;

/// The lines `-W` shows around `hit` inside `entry`, besides the hit and a line either side.
pub(super) fn around_hit(lines: &[&str], entry: Option<&EntryRef>, hit: usize) -> Vec<usize> {
    let Some(entry) = entry else {
        return Vec::new();
    };
    let heads = scope_heads(lines, Some(entry), hit);
    let mut shown = small_block_around(lines, Some(entry), hit);
    shown.extend(handlers_after(lines, entry, hit, &heads));
    shown.extend(check_after(lines, entry, hit));
    shown.extend(heads);
    shown
}

/// The indentation of 1-based `line` of `lines` in bytes; `None` for a blank line or one not
/// in memory (blank lines open and close no block).
pub(super) fn indent_at(lines: &[&str], line: usize) -> Option<usize> {
    let text = lines.get(line.checked_sub(1)?)?;
    let trimmed = text.trim_start();
    (!trimmed.is_empty()).then(|| text.len() - trimmed.len())
}

/// How far up from a hit [`scope_heads`] looks, in lines.
const MAX_HEAD_SCAN: usize = 400;

/// The lines that open the blocks around `hit` inside `entry` (`if (x) {`, `for …:`): going
/// up from the hit, each line indented less than every line below it, so `-W` on a long
/// function says under what condition the hit runs. A head that goes on a chain (`} else if`,
/// `elif`, `catch`) brings the chain's earlier heads at its indentation up to the opening
/// one, as the hit runs only when their conditions failed. Lines not in memory are not looked
/// at.
pub(super) fn scope_heads(lines: &[&str], entry: Option<&EntryRef>, hit: usize) -> Vec<usize> {
    let Some(entry) = entry else {
        return Vec::new();
    };
    let indent = |line: usize| indent_at(lines, line);
    let Some(mut least) = indent(hit) else {
        return Vec::new();
    };
    let first = (entry.line + 1).max(hit.saturating_sub(MAX_HEAD_SCAN));
    let mut heads = Vec::new();
    // The indentation of a chain whose opening head is still above.
    let mut chain: Option<usize> = None;
    for line in (first..hit).rev() {
        let Some(width) = indent(line) else {
            continue;
        };
        if width < least || chain == Some(width) {
            least = width;
            heads.push(line);
            let text = lines.get(line - 1).map_or("", |text| text.trim_start());
            chain = goes_on_a_chain(text).then_some(width);
        }
    }
    heads
}

/// The longest block [`small_block_around`] prints whole, head and closing line included.
const SMALL_BLOCK_LINES: usize = 8;

/// The lines of the innermost block around `hit` (its head, the lines indented under it, and
/// a closing line at the head's indentation), when it is at most [`SMALL_BLOCK_LINES`] long:
/// `-W` on a long function shows the branch that holds the hit whole, the comment that says
/// why and the line after it included, where the heads and one line either side left a gap
/// the fresh agent trial read again with `--lines`.
fn small_block_around(lines: &[&str], entry: Option<&EntryRef>, hit: usize) -> Vec<usize> {
    let Some(entry) = entry else {
        return Vec::new();
    };
    let indent = |line: usize| indent_at(lines, line);
    let Some(width) = indent(hit) else {
        return Vec::new();
    };
    let first = (entry.line + 1).max(hit.saturating_sub(SMALL_BLOCK_LINES));
    let Some((head, head_width)) = (first..hit)
        .rev()
        .find_map(|line| indent(line).filter(|w| *w < width).map(|w| (line, w)))
    else {
        return Vec::new();
    };
    let last_line = entry
        .end_line
        .min(lines.len())
        .min(head + SMALL_BLOCK_LINES);
    let mut end = hit;
    for line in hit + 1..=last_line {
        match indent(line) {
            None => continue,
            Some(w) if w > head_width => end = line,
            Some(w) => {
                let text = lines.get(line - 1).map_or("", |text| text.trim_start());
                let closes = text.starts_with(['}', ')', ']']) || text.starts_with("end");
                if w == head_width && closes {
                    end = line;
                }
                return match end + 1 - head <= SMALL_BLOCK_LINES {
                    true => (head..=end).collect(),
                    false => Vec::new(),
                };
            }
        }
    }
    Vec::new()
}

/// Whether a block's head line goes on a chain begun above it: a branch or handler after the
/// first (`} else {`, `elif x:`, `elsif`, `} catch (E e) {`, `except E:`, `rescue`).
fn goes_on_a_chain(head: &str) -> bool {
    let head = head.strip_prefix('}').unwrap_or(head).trim_start();
    let word: String = head
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    matches!(
        word.as_str(),
        "else" | "elif" | "elsif" | "elseif" | "catch" | "except" | "finally" | "rescue" | "ensure"
    )
}

/// The text of 1-based `line` without its indentation ("" past the lines in memory).
fn trimmed<'l>(lines: &[&'l str], line: usize) -> &'l str {
    line.checked_sub(1)
        .and_then(|index| lines.get(index))
        .map_or("", |text| text.trim())
}

/// The last line of the block under `head` (indented deeper than `width`, blank lines inside
/// it skipped), no further than `last`; `head` itself when nothing is indented under it.
fn block_end(lines: &[&str], head: usize, width: usize, last: usize) -> usize {
    let mut end = head;
    for line in head + 1..=last {
        match indent_at(lines, line) {
            None => continue,
            Some(w) if w > width => end = line,
            Some(_) => break,
        }
    }
    end
}

/// `end`, or the line after it when that line only closes the block (`}`, `end`, `})`).
fn with_closer(lines: &[&str], end: usize, width: usize, last: usize) -> usize {
    let next = (end + 1..=last).find(|&line| indent_at(lines, line).is_some());
    match next {
        Some(line)
            if indent_at(lines, line) == Some(width) && only_closes(trimmed(lines, line)) =>
        {
            line
        }
        _ => end,
    }
}

/// Whether a line only closes a block: `}`, `});`, `end`, shell's `fi`, `done`, `esac`.
fn only_closes(text: &str) -> bool {
    matches!(
        text.trim_end_matches([';', ')', ']', ',']),
        "}" | "end" | "fi" | "done" | "esac"
    )
}

/// Whether a block head opens a `try` whose handlers follow it: `try {`, `try:`, Swift's
/// `do {`, Ruby's `begin`, and an expression `val x = try {` or `x = begin`.
fn opens_a_try(head: &str) -> bool {
    let head = head.trim_end_matches(['{', ':', ' ']);
    let first = head
        .split(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or("");
    let last = head
        .rsplit(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or("");
    matches!(first, "try" | "begin") || head == "do" || matches!(last, "try" | "begin")
}

/// The handlers (`} catch (E e) {`, `except E:`, `rescue`, `finally`) of the `try` blocks
/// among `heads`, each with its body when at most [`SMALL_BLOCK_LINES`] long.
fn handlers_after(lines: &[&str], entry: &EntryRef, hit: usize, heads: &[usize]) -> Vec<usize> {
    let last = entry
        .end_line
        .min(lines.len())
        .min(hit.saturating_add(MAX_HEAD_SCAN));
    let mut shown = Vec::new();
    for &head in heads {
        let Some(width) = indent_at(lines, head).filter(|_| opens_a_try(trimmed(lines, head)))
        else {
            continue;
        };
        let mut line = hit + 1;
        while line <= last {
            match indent_at(lines, line) {
                None => line += 1,
                Some(w) if w > width => line += 1,
                Some(w) if w < width => break,
                Some(_) if !goes_on_a_chain(trimmed(lines, line)) => break,
                Some(_) => {
                    let end = block_end(lines, line, width, last);
                    shown.push(line);
                    if end - line < SMALL_BLOCK_LINES {
                        shown.extend(line + 1..=end);
                    }
                    line = end + 1;
                }
            }
        }
    }
    shown
}

/// Whether a line opens a check: `if`, `} else if`, Swift's `guard`, Ruby's `unless`.
fn opens_a_check(text: &str) -> bool {
    let text = text.trim_start_matches(['}', ' ']);
    let first = text
        .split(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or("");
    matches!(first, "if" | "guard" | "unless") || text.starts_with("else if")
}

/// The names a line assigns (`x, err := f()`, `val plan = …`, `rv = f()`), from the text
/// before its first `=` that is not part of a comparison or an arrow.
fn assigned_names(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let Some(at) = (0..bytes.len()).find(|&i| {
        bytes[i] == b'='
            && bytes
                .get(i + 1)
                .is_none_or(|next| !matches!(next, b'=' | b'>' | b'~'))
            && (i == 0 || !matches!(bytes[i - 1], b'=' | b'!' | b'<' | b'>'))
    }) else {
        return Vec::new();
    };
    text[..at]
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|word| !word.is_empty())
        .filter(|word| !matches!(*word, "val" | "var" | "let" | "const" | "local" | "mut"))
        .collect()
}

/// The check of what `hit`'s line produced, when at most [`SMALL_BLOCK_LINES`] long: the
/// block the hit's line opens when it is a check (`if err := f(); err != nil {`), else the
/// check right after it of a name it assigns (`if err != nil {` after `x, err := f()`).
fn check_after(lines: &[&str], entry: &EntryRef, hit: usize) -> Vec<usize> {
    let Some(width) = indent_at(lines, hit) else {
        return Vec::new();
    };
    // Only a small block is shown: looking further than twice its size finds none (and keeps
    // a hit in a huge entry from costing the entry's length).
    let last = entry
        .end_line
        .min(lines.len())
        .min(hit.saturating_add(2 * SMALL_BLOCK_LINES));
    let text = trimmed(lines, hit);
    let head = match opens_a_check(text) {
        true => hit,
        false => {
            let names = assigned_names(text);
            // The statement after the hit's, past its continuation lines.
            let next =
                (hit + 1..=last).find(|&line| indent_at(lines, line).is_some_and(|w| w <= width));
            let checks = |line: usize| {
                let next_text = trimmed(lines, line);
                opens_a_check(next_text)
                    && next_text
                        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .any(|word| names.contains(&word))
            };
            match next {
                Some(line) if indent_at(lines, line) == Some(width) && checks(line) => line,
                _ => return Vec::new(),
            }
        }
    };
    let end = block_end(lines, head, width, last);
    if end == head {
        return Vec::new();
    }
    let end = with_closer(lines, end, width, last);
    match end + 1 - head <= SMALL_BLOCK_LINES {
        true => (head..=end).collect(),
        false => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry_lines(line: usize, end_line: usize) -> EntryRef {
        let entry = crate::outline::Entry::new(crate::outline::Kind::Function, "f", line, end_line);
        EntryRef::of(&entry, "1".into())
    }

    #[test]
    fn a_small_block_around_a_hit_is_shown_whole() {
        let lines = [
            "fn f() {",           // 1
            "    if a {",         // 2
            "        one();",     // 3
            "    } else if b {",  // 4
            "        // why",     // 5
            "        let m = 1;", // 6
            "        fail(m);",   // 7
            "    }",              // 8
            "    done();",        // 9
        ];
        let entry = entry_lines(1, 9);
        assert_eq!(small_block_around(&lines, Some(&entry), 7), [4, 5, 6, 7, 8]);
        // A block longer than the limit is left to the heads.
        let mut long: Vec<&str> = vec!["fn f() {", "    if b {"];
        long.extend(std::iter::repeat_n("        step();", SMALL_BLOCK_LINES));
        long.push("    }");
        let entry = entry_lines(1, long.len());
        assert!(small_block_around(&long, Some(&entry), 4).is_empty());
    }

    #[test]
    fn a_chain_of_branches_brings_its_earlier_heads() {
        let text = "void f() {\n  if (a) {\n    x();\n  } else if (b) {\n    y();\n  } else {\n    try {\n      z();\n    } catch (E e) {\n      hit();\n    }\n  }\n}";
        let lines: Vec<&str> = text.lines().collect();
        let entry = entry_lines(1, 13);
        // `} catch` brings `try {`; `} else {` brings `} else if (b) {` and `if (a) {`.
        assert_eq!(scope_heads(&lines, Some(&entry), 10), [9, 7, 6, 4, 2]);
        // A head that opens its chain brings nothing more.
        assert_eq!(scope_heads(&lines, Some(&entry), 3), [2]);
        assert!(goes_on_a_chain("} elsif x") && goes_on_a_chain("except KeyError:"));
        assert!(!goes_on_a_chain("elsewhere()") && !goes_on_a_chain("} while (x);"));
    }

    #[test]
    fn the_handlers_of_a_try_around_a_hit_are_shown() {
        let text = "fun f() {\n  val plan = try {\n    planner.plan()\n  } catch (e: IOException) {\n    return fail(e)\n  } finally {\n    done()\n  }\n  use(plan)\n}";
        let lines: Vec<&str> = text.lines().collect();
        let entry = entry_lines(1, 10);
        let shown = around_hit(&lines, Some(&entry), 3);
        for line in [2, 4, 5, 6, 7] {
            assert!(shown.contains(&line), "line {line} in {shown:?}");
        }
        assert!(!shown.contains(&9), "{shown:?}");
        let python = [
            "def run(info):",
            "    try:",
            "        app = info.load_app()",
            "    except NoAppException as e:",
            "        echo(e)",
            "        sys.exit(2)",
            "    return app",
        ];
        let shown = around_hit(&python, Some(&entry_lines(1, 7)), 3);
        assert!([2, 4, 5, 6].iter().all(|l| shown.contains(l)), "{shown:?}");
        assert!(!shown.contains(&7), "{shown:?}");
        // An `if` head above a hit is no `try`: nothing after the hit is brought.
        let plain = [
            "def f():",
            "    if a:",
            "        x = g()",
            "    else:",
            "        y()",
        ];
        assert!(!around_hit(&plain, Some(&entry_lines(1, 5)), 3).contains(&4));
    }

    /// Any lines, any entry and hit: what `-W` adds lies inside the entry and the file, and
    /// nothing panics (blank lines, tabs, unbalanced closers, a hit on the entry's last line).
    #[test]
    fn lines_around_a_hit_stay_inside_the_entry() {
        use proptest::prelude::*;
        let line = "( {0,6}|\t{0,2})(try \\{|try:|begin|do \\{|\\} catch \\(e\\) \\{|except E:|rescue|finally:|if err != nil \\{|x, err := f\\(\\)|\\}|end|call\\(\\)|)";
        let case = (
            prop::collection::vec(line, 1..40),
            1usize..40,
            0usize..40,
            0usize..40,
        );
        let result = crate::parse::soup::runner(512).run(&case, |(lines, first, span, hit)| {
            let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
            let first = first.min(lines.len());
            let last = (first + span).min(lines.len());
            let hit = (first + hit % (last - first + 1)).min(last);
            let entry = entry_lines(first, last);
            for line in around_hit(&lines, Some(&entry), hit) {
                prop_assert!(
                    (first..=last).contains(&line),
                    "{line} outside {first}..={last}"
                );
            }
            Ok(())
        });
        if let Err(failure) = result {
            panic!("{failure}");
        }
    }

    #[test]
    fn the_check_of_what_a_hit_assigns_is_shown() {
        let go = [
            "func f() error {",
            "\tx, err := load()",
            "\tif err != nil {",
            "\t\treturn fmt.Errorf(\"load: %w\", err)",
            "\t}",
            "\treturn use(x)",
            "}",
        ];
        assert_eq!(check_after(&go, &entry_lines(1, 7), 2), [3, 4, 5]);
        // The hit's own line is the check.
        let inline = [
            "func f() {",
            "\tif err := load(); err != nil {",
            "\t\tpanic(err)",
            "\t}",
            "}",
        ];
        assert_eq!(check_after(&inline, &entry_lines(1, 5), 2), [2, 3, 4]);
        // A check of another name, or a comparison on the hit's line, brings nothing.
        let other = ["func f() {", "\tif a == load() {", "}"];
        assert!(check_after(&other, &entry_lines(1, 3), 2).is_empty());
        let unrelated = [
            "func f() {",
            "\tx := load()",
            "\tif ready {",
            "\t\tgo()",
            "\t}",
            "}",
        ];
        assert!(check_after(&unrelated, &entry_lines(1, 6), 2).is_empty());
        assert_eq!(assigned_names("val (a, b) = pair()"), ["a", "b"]);
        assert!(assigned_names("if a == b {").is_empty() && assigned_names("f(x => x)").is_empty());
        assert!(opens_a_try("val plan = try {") && opens_a_try("begin") && opens_a_try("do {"));
        assert!(!opens_a_try("retry()") && !opens_a_try("tryLock {"));
    }
}
