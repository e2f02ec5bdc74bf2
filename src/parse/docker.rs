//! Dockerfile outline scanner: one [`Kind::Stage`] per `FROM`, holding that stage's
//! instructions as [`Kind::Instruction`] children; instructions before the first `FROM`
//! (global `ARG`s) are top level.
//!
//! The scan is line based and follows the Dockerfile grammar directly: parser directives at the
//! top (`# escape=``), line continuations with the escape character (comment and blank lines
//! inside a continuation are skipped), and heredocs (`RUN <<EOF … EOF`, several per line, `<<-`
//! and quoted delimiters) whose bodies are not instructions.

use crate::outline::{Entry, Kind};
use crate::parse::signature;
use std::collections::HashSet;

/// Instruction keywords Docker knows; other words at a line start are not listed.
const INSTRUCTIONS: &[&str] = &[
    "ADD",
    "ARG",
    "CMD",
    "COPY",
    "ENTRYPOINT",
    "ENV",
    "EXPOSE",
    "FROM",
    "HEALTHCHECK",
    "LABEL",
    "MAINTAINER",
    "ONBUILD",
    "RUN",
    "SHELL",
    "STOPSIGNAL",
    "USER",
    "VOLUME",
    "WORKDIR",
];

/// One instruction: its keyword, first and last line, and its text as one line.
struct Instruction {
    keyword: String,
    line: usize,
    end_line: usize,
    text: String,
}

/// Outlines a Dockerfile.
pub(crate) fn parse(text: &str) -> Vec<Entry> {
    let lines: Vec<&str> = text
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .collect();
    let escape = escape_char(&lines);
    let instructions = scan(&lines, escape);
    build(instructions)
}

/// The escape character set by an `# escape=` parser directive at the top, else `\`.
fn escape_char(lines: &[&str]) -> char {
    for line in lines {
        let trimmed = line.trim();
        let Some(rest) = trimmed.strip_prefix('#') else {
            break;
        };
        let Some((key, value)) = rest.split_once('=') else {
            break;
        };
        let key = key.trim().to_ascii_lowercase();
        if key == "escape" {
            let value = value.trim();
            if value == "`" {
                return '`';
            }
            return '\\';
        }
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric()) {
            break;
        }
    }
    '\\'
}

/// Whether `line` ends with the escape character (trailing blanks allowed), and the line
/// without it.
fn continued(line: &str, escape: char) -> Option<&str> {
    line.trim_end().strip_suffix(escape)
}

fn is_comment(line: &str) -> bool {
    line.trim_start().starts_with('#')
}

fn scan(lines: &[&str], escape: char) -> Vec<Instruction> {
    let mut out = Vec::new();
    let mut unclosed: HashSet<(String, bool)> = HashSet::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines.get(i).copied().unwrap_or("");
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            i += 1;
            continue;
        }
        let start = i;
        let (text, mut last, next) = logical_line(lines, start, escape);
        i = next;
        let keyword: String = text
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect::<String>()
            .to_ascii_uppercase();
        // Heredoc bodies follow the logical line, one per `<<WORD` in order. A delimiter that
        // never closes was not a heredoc (`echo "<<EOF"`): nothing is skipped for it.
        if matches!(keyword.as_str(), "RUN" | "COPY" | "ADD" | "ONBUILD") {
            for (word, strip_tabs) in heredoc_words(&text) {
                if unclosed.contains(&(word.clone(), strip_tabs)) {
                    // It did not close after an earlier line, so not after this one either.
                    continue;
                }
                let closing = (i..lines.len()).find(|&k| {
                    let body = lines.get(k).copied().unwrap_or("");
                    let body = if strip_tabs {
                        body.trim_start_matches('\t')
                    } else {
                        body
                    };
                    body == word
                });
                match closing {
                    Some(k) => {
                        last = k;
                        i = k + 1;
                    }
                    None => {
                        unclosed.insert((word, strip_tabs));
                    }
                }
            }
        }
        if INSTRUCTIONS.contains(&keyword.as_str()) {
            out.push(Instruction {
                keyword,
                line: start + 1,
                end_line: last + 1,
                text,
            });
        }
    }
    out
}

/// The logical line starting at `start`: its text, continuations followed (skipping the
/// comment and blank lines between them) and joined with a space, its last line, and the
/// line after it all.
fn logical_line(lines: &[&str], start: usize, escape: char) -> (String, usize, usize) {
    let mut text = String::new();
    let mut i = start;
    loop {
        let current = lines.get(i).copied().unwrap_or("");
        let last = i;
        let Some(head) = continued(current, escape) else {
            text.push_str(current);
            return (text, last, last + 1);
        };
        text.push_str(head);
        text.push(' ');
        i += 1;
        while lines
            .get(i)
            .is_some_and(|next| is_comment(next) || next.trim().is_empty())
        {
            i += 1;
        }
        if i >= lines.len() {
            return (text, last, i);
        }
    }
}

/// The heredoc delimiters opened on an instruction line: `<<EOF`, `<<-EOF`, `<<"EOF"`,
/// `<<'EOF'`, with whether leading tabs of the body are stripped (`<<-`).
fn heredoc_words(text: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(found) = text.get(i..).and_then(|rest| rest.find("<<")) {
        let mut j = i + found + 2;
        i = j;
        if bytes.get(j) == Some(&b'<') {
            // `<<<` is a here-string, not a heredoc.
            i = j + 1;
            continue;
        }
        let strip_tabs = bytes.get(j) == Some(&b'-');
        if strip_tabs {
            j += 1;
        }
        let quote = match bytes.get(j) {
            Some(&q) if q == b'"' || q == b'\'' => {
                j += 1;
                Some(q)
            }
            _ => None,
        };
        let start = j;
        while bytes
            .get(j)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-' || *b == b'.')
        {
            j += 1;
        }
        let word = text.get(start..j).unwrap_or("");
        let starts_well = word
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_');
        if let Some(q) = quote {
            if bytes.get(j) != Some(&q) {
                continue;
            }
            j += 1;
        }
        i = j;
        if starts_well {
            out.push((word.to_string(), strip_tabs));
        }
    }
    out
}

fn build(instructions: Vec<Instruction>) -> Vec<Entry> {
    let mut roots = Vec::new();
    let mut stage: Option<(Entry, Vec<Entry>)> = None;
    for ins in instructions {
        let sig = signature(&ins.text);
        if ins.keyword == "FROM" {
            if let Some((entry, kids)) = stage.take() {
                roots.push(entry.with_children(kids));
            }
            let name = stage_name(&ins.text);
            let entry = Entry::new(Kind::Stage, name, ins.line, ins.end_line).with_signature(sig);
            stage = Some((entry, Vec::new()));
            continue;
        }
        let entry =
            Entry::new(Kind::Instruction, ins.keyword, ins.line, ins.end_line).with_signature(sig);
        match stage.as_mut() {
            Some((parent, kids)) => {
                parent.end_line = parent.end_line.max(entry.end_line);
                kids.push(entry);
            }
            None => roots.push(entry),
        }
    }
    if let Some((entry, kids)) = stage.take() {
        roots.push(entry.with_children(kids));
    }
    roots
}

/// `FROM [--platform=…] image [AS name]`: the alias when there is one, else the image.
fn stage_name(text: &str) -> String {
    let words: Vec<&str> = text
        .split_whitespace()
        .skip(1)
        .filter(|w| !w.starts_with("--"))
        .collect();
    let image = words.first().copied().unwrap_or("?");
    match (words.get(1), words.get(2)) {
        (Some(kw), Some(alias)) if kw.eq_ignore_ascii_case("as") => (*alias).to_string(),
        _ => image.to_string(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn flat(entries: &[Entry]) -> Vec<(usize, String, usize, usize)> {
        fn go(e: &[Entry], d: usize, out: &mut Vec<(usize, String, usize, usize)>) {
            for x in e {
                out.push((d, x.name().to_string(), x.line, x.end_line));
                go(&x.children, d + 1, out);
            }
        }
        let mut out = Vec::new();
        go(entries, 0, &mut out);
        out
    }

    fn s(d: usize, n: &str, l: usize, e: usize) -> (usize, String, usize, usize) {
        (d, n.to_string(), l, e)
    }

    #[test]
    fn stages_and_instructions() {
        let src = "# syntax=docker/dockerfile:1\nARG GO=1.22\n\nFROM --platform=$BUILDPLATFORM golang:${GO} AS build\nWORKDIR /src\nRUN go mod download && \\\n    # a comment inside\n    go build ./...\n\n# trailing comment\nfrom alpine:3.19\ncopy --from=build /out /bin\nCMD [\"app\", \"--serve\"]\n\n";
        let got = flat(&parse(src));
        assert_eq!(
            got,
            vec![
                s(0, "ARG", 2, 2),
                s(0, "build", 4, 8),
                s(1, "WORKDIR", 5, 5),
                s(1, "RUN", 6, 8),
                s(0, "alpine:3.19", 11, 13),
                s(1, "COPY", 12, 12),
                s(1, "CMD", 13, 13),
            ]
        );
        let entries = parse(src);
        assert_eq!(
            entries[1].signature.as_deref(),
            Some("FROM --platform=$BUILDPLATFORM golang:${GO} AS build")
        );
        assert_eq!(
            entries[1].children[1].signature.as_deref(),
            Some("RUN go mod download && go build ./...")
        );
    }

    #[test]
    fn heredocs_are_not_instructions() {
        let src = "FROM debian\nRUN <<EOF bash\nset -e\nRUN not an instruction\nEOF\nCOPY <<-\"A\" /a <<B /b\n\tFROM x\n\tA\nB body\nB\nUSER me";
        assert_eq!(
            flat(&parse(src)),
            vec![
                s(0, "debian", 1, 11),
                s(1, "RUN", 2, 5),
                s(1, "COPY", 6, 10),
                s(1, "USER", 11, 11),
            ]
        );
    }

    #[test]
    fn escape_directive_and_crlf() {
        let src = "# escape=`\r\nFROM mcr.microsoft.com/windows AS win\r\nRUN dir C:\\ `\r\n    && echo hi\r\nWORKDIR C:\\app\\\r\n";
        assert_eq!(
            flat(&parse(src)),
            vec![s(0, "win", 2, 5), s(1, "RUN", 3, 4), s(1, "WORKDIR", 5, 5)]
        );
    }

    #[test]
    fn junk_does_not_panic() {
        assert!(parse("").is_empty());
        assert!(parse("\\\n\\").is_empty());
        let got = parse("FROM\nRUN <<\nRUN <<'X\nENV a=b \\");
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].name(), "?");
        let got = parse("FROM a\nRUN echo \"<<EOF\"\nUSER x");
        assert_eq!(got[0].children.len(), 2);
        parse("\u{feff}FROM x\n\u{0}\u{1}");
    }

    #[test]
    fn onbuild_json_forms_and_trailing_blanks() {
        let src = "FROM node:20 AS base   \nONBUILD RUN npm ci\nCMD[\"node\", \"a.js\"]\nRUN echo a \\  \n\n    && echo b\nNOTANINSTRUCTION x\n\n# end\n";
        assert_eq!(
            flat(&parse(src)),
            vec![
                s(0, "base", 1, 6),
                s(1, "ONBUILD", 2, 2),
                s(1, "CMD", 3, 3),
                s(1, "RUN", 4, 6),
            ]
        );
        assert_eq!(
            parse(src)[0].children[2].signature.as_deref(),
            Some("RUN echo a && echo b")
        );
    }
}
