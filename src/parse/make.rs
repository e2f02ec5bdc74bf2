//! Makefile outline scanner: one [`Kind::Target`] per rule target (`a b: c` gives `a` and `b`),
//! pattern rules and targets built from variables included, rules inside conditionals
//! included; a target-specific variable line (`prog: CFLAGS += -g`) is listed like a rule
//! with the assignment as its signature. Variables, `define` blocks, directives and GNU make special targets (`.PHONY`, …)
//! are not listed.
//!
//! The scan is line based, as make's own reader is: logical lines joined over `\` continuations,
//! recipe lines (tab or `.RECIPEPREFIX`) skipped while in a rule, `define … endef` bodies
//! skipped, and a rule told from an assignment by the first `:` or `=` outside `$(…)`/`${…}`.
//! A rule ends at its last recipe line; blank and comment lines between recipe lines belong to
//! it, trailing ones do not.

use crate::outline::{Entry, Kind};
use crate::parse::signature;

/// GNU make's special targets: instructions to make, not things to build.
const SPECIAL_TARGETS: &[&str] = &[
    ".PHONY",
    ".SUFFIXES",
    ".DEFAULT",
    ".PRECIOUS",
    ".INTERMEDIATE",
    ".SECONDARY",
    ".SECONDEXPANSION",
    ".DELETE_ON_ERROR",
    ".IGNORE",
    ".LOW_RESOLUTION_TIME",
    ".SILENT",
    ".EXPORT_ALL_VARIABLES",
    ".NOTPARALLEL",
    ".ONESHELL",
    ".POSIX",
    ".NOTINTERMEDIATE",
    ".WAIT",
    ".DEFAULT_GOAL",
    ".FEATURES",
    ".INCLUDE_DIRS",
    ".VARIABLES",
    ".RECIPEPREFIX",
];

/// First words that make a line a directive, never a rule.
const DIRECTIVES: &[&str] = &[
    "include", "-include", "sinclude", "export", "unexport", "override", "private", "vpath",
    "undefine", "ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "load", "-load",
];

/// Outlines a Makefile.
pub(crate) fn parse(text: &str) -> Vec<Entry> {
    let lines: Vec<&str> = text
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .collect();
    let mut out = Vec::new();
    let mut recipe_prefix = '\t';
    let mut in_rule = false;
    let mut define_depth = 0usize;
    let mut i = 0;
    while i < lines.len() {
        let line = lines.get(i).copied().unwrap_or("");
        if define_depth > 0 {
            let first = first_word(line);
            if first == "endef" {
                define_depth -= 1;
            } else if is_define(line) {
                define_depth += 1;
            }
            i += 1;
            continue;
        }
        if in_rule && line.starts_with(recipe_prefix) {
            i = logical_end(&lines, i) + 1;
            continue;
        }
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            i += 1;
            continue;
        }
        let last = logical_end(&lines, i);
        let logical = Logical::join(&lines, i, last);
        i = last + 1;
        let body = strip_comment(&logical.text);
        if is_define(body) {
            define_depth = 1;
            in_rule = false;
            continue;
        }
        let first = first_word(body);
        if DIRECTIVES.contains(&first) {
            if !matches!(
                first,
                "ifeq" | "ifneq" | "ifdef" | "ifndef" | "else" | "endif"
            ) {
                in_rule = false;
            }
            continue;
        }
        match classify(body) {
            Line::Assignment { name, value } => {
                in_rule = false;
                if name == ".RECIPEPREFIX" {
                    recipe_prefix = value.trim().chars().next().unwrap_or('\t');
                }
            }
            Line::Rule { colon, recipe_semi } => {
                in_rule = true;
                let header = &body[..recipe_semi.unwrap_or(body.len())];
                out.extend(rule_targets(
                    &lines,
                    &logical,
                    header,
                    colon,
                    last,
                    recipe_prefix,
                ));
            }
            Line::Other => {}
        }
    }
    out
}

/// One entry per target of the rule whose header (without an inline recipe) is `header`, its
/// `:` at `colon`, on the logical line `logical` ending at physical line `last`. A rule spans
/// its recipe; a target-specific variable (`prog: CFLAGS += -g`) only its own line.
fn rule_targets(
    lines: &[&str],
    logical: &Logical,
    header: &str,
    colon: usize,
    last: usize,
    recipe_prefix: char,
) -> Vec<Entry> {
    let rule_line = logical.first + 1;
    let end_line = if target_specific_variable(&header[colon..]) {
        last + 1
    } else {
        rule_end(lines, last, recipe_prefix) + 1
    };
    let sig = signature(header);
    words(&header[..colon])
        .into_iter()
        .map(|(word, offset)| (word.trim_end_matches('&'), offset))
        .filter(|(word, _)| !word.is_empty() && !SPECIAL_TARGETS.contains(word))
        .map(|(word, offset)| {
            let line = logical.line_of(offset) + 1;
            Entry::new(Kind::Target, word, line, end_line.max(rule_line))
                .with_signature(sig.clone())
        })
        .collect()
}

/// A logical line: physical lines `first..` joined, continuations replaced by a space.
struct Logical {
    text: String,
    first: usize,
    /// (offset in `text`, physical line index) where each physical line starts.
    starts: Vec<(usize, usize)>,
}

impl Logical {
    fn join(lines: &[&str], first: usize, last: usize) -> Logical {
        let mut text = String::new();
        let mut starts = Vec::new();
        for index in first..=last {
            let line = lines.get(index).copied().unwrap_or("");
            starts.push((text.len(), index));
            if index < last {
                text.push_str(line.strip_suffix('\\').unwrap_or(line));
                text.push(' ');
            } else {
                text.push_str(line);
            }
        }
        Logical {
            text,
            first,
            starts,
        }
    }

    /// The physical line index holding `offset` of the joined text.
    fn line_of(&self, offset: usize) -> usize {
        let at = self.starts.partition_point(|(start, _)| *start <= offset);
        self.starts
            .get(at.saturating_sub(1))
            .map_or(self.first, |(_, line)| *line)
    }
}

/// Whether the line ends with an odd number of backslashes (a continuation).
fn continues(line: &str) -> bool {
    line.bytes().rev().take_while(|b| *b == b'\\').count() % 2 == 1
}

/// Index of the last physical line of the logical line starting at `first`.
fn logical_end(lines: &[&str], first: usize) -> usize {
    let mut index = first;
    while index + 1 < lines.len() && continues(lines.get(index).copied().unwrap_or("")) {
        index += 1;
    }
    index
}

/// Index of the last line of a rule whose header ends at `header_last`: the last recipe line,
/// looking past blank and comment lines between recipe lines.
fn rule_end(lines: &[&str], header_last: usize, prefix: char) -> usize {
    let mut last = header_last;
    let mut index = header_last + 1;
    while let Some(line) = lines.get(index) {
        if line.starts_with(prefix) {
            index = logical_end(lines, index);
            last = index;
        } else if !(line.trim().is_empty() || line.trim_start().starts_with('#')) {
            break;
        }
        index += 1;
    }
    last
}

fn first_word(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// `define NAME`, optionally after `override`/`export`/`private`.
fn is_define(line: &str) -> bool {
    let mut words = line.split_whitespace();
    loop {
        match words.next() {
            Some("override" | "export" | "private") => continue,
            Some("define") => return true,
            _ => return false,
        }
    }
}

/// The line up to an unescaped `#`.
fn strip_comment(line: &str) -> &str {
    let bytes = line.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'\\' {
            i += 2;
            continue;
        }
        if b == b'#' {
            return line.get(..i).unwrap_or(line);
        }
        i += 1;
    }
    line
}

enum Line<'a> {
    Assignment {
        name: &'a str,
        value: &'a str,
    },
    /// A rule: the byte offset of its first top-level `:` and of a `;` starting an inline recipe.
    Rule {
        colon: usize,
        recipe_semi: Option<usize>,
    },
    Other,
}

/// Tells a rule from an assignment: whichever of `:` and `=` comes first outside `$(…)`.
fn classify(line: &str) -> Line<'_> {
    let bytes = line.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'$' if matches!(bytes.get(i + 1), Some(b'(' | b'{')) => {
                depth += 1;
                i += 2;
                continue;
            }
            b'$' => {
                // `$$`, `$@`, `$x`: one variable character.
                i += 2;
                continue;
            }
            b'(' | b'{' if depth > 0 => depth += 1,
            b')' | b'}' if depth > 0 => depth -= 1,
            b'\\' => {
                i += 2;
                continue;
            }
            b'=' if depth == 0 => {
                let name_end = if i > 0 && matches!(bytes.get(i - 1), Some(b'?' | b'+' | b'!')) {
                    i - 1
                } else {
                    i
                };
                return Line::Assignment {
                    name: line.get(..name_end).unwrap_or("").trim(),
                    value: line.get(i + 1..).unwrap_or(""),
                };
            }
            b':' if depth == 0 => {
                if is_drive_letter(bytes, i) {
                    i += 1;
                    continue;
                }
                let mut j = i + 1;
                while bytes.get(j) == Some(&b':') && j < i + 3 {
                    j += 1;
                }
                if bytes.get(j) == Some(&b'=') {
                    return Line::Assignment {
                        name: line.get(..i).unwrap_or("").trim(),
                        value: line.get(j + 1..).unwrap_or(""),
                    };
                }
                if line.get(..i).is_none_or(|t| t.trim().is_empty()) {
                    return Line::Other;
                }
                return Line::Rule {
                    colon: i,
                    recipe_semi: recipe_semicolon(bytes, j),
                };
            }
            _ => {}
        }
        i += 1;
    }
    Line::Other
}

/// `C:\dir` in a Windows path: a lone letter before `:\`.
fn is_drive_letter(bytes: &[u8], colon: usize) -> bool {
    colon >= 1
        && bytes.get(colon - 1).is_some_and(u8::is_ascii_alphabetic)
        && (colon == 1
            || bytes
                .get(colon - 2)
                .is_some_and(|b| b.is_ascii_whitespace() || *b == b'"'))
        && bytes.get(colon + 1) == Some(&b'\\')
}

/// The first top-level `;` after `from`: the start of an inline recipe.
fn recipe_semicolon(bytes: &[u8], from: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = from;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'$' if matches!(bytes.get(i + 1), Some(b'(' | b'{')) => {
                depth += 1;
                i += 1;
            }
            b'(' | b'{' if depth > 0 => depth += 1,
            b')' | b'}' if depth > 0 => depth -= 1,
            b';' if depth == 0 => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// `target: VAR = value` (also `:=`, `+=`, `?=`, `!=`, `export VAR=…`): a target-specific
/// variable, not a rule of its own. `rest` starts at the rule's colon.
fn target_specific_variable(rest: &str) -> bool {
    let after = rest.trim_start_matches(':').trim_start_matches('&');
    // Static pattern rules (`objs: %.o: %.c`) have a second colon but no assignment.
    let after = after.trim_start();
    let modifier = ["export ", "override ", "private ", "unexport "]
        .iter()
        .any(|m| after.starts_with(m));
    modifier || (matches!(classify(after), Line::Assignment { .. }) && !after.starts_with('='))
}

/// Whitespace-separated words at `$(…)` depth 0, with their byte offsets.
fn words(text: &str) -> Vec<(&str, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start: Option<usize> = None;
    let mut i = 0;
    while i <= bytes.len() {
        let b = bytes.get(i).copied().unwrap_or(b' ');
        let space = b.is_ascii_whitespace() && depth == 0;
        if space {
            if let Some(s) = start.take() {
                out.push((text.get(s..i).unwrap_or(""), s));
            }
        } else {
            if start.is_none() {
                start = Some(i);
            }
            match b {
                b'$' if matches!(bytes.get(i + 1), Some(b'(' | b'{')) => {
                    depth += 1;
                    i += 1;
                }
                b'(' | b'{' if depth > 0 => depth += 1,
                b')' | b'}' if depth > 0 => depth -= 1,
                _ => {}
            }
        }
        i += 1;
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn flat(src: &str) -> Vec<(String, usize, usize)> {
        parse(src)
            .into_iter()
            .map(|e| (e.name().to_string(), e.line, e.end_line))
            .collect()
    }

    fn t(n: &str, l: usize, e: usize) -> (String, usize, usize) {
        (n.to_string(), l, e)
    }

    #[test]
    fn rules_targets_and_recipes() {
        let src = "CC := gcc\nOBJS = a.o \\\n  b.o\n.PHONY: all clean\n\nall: prog lib | dir # build all\n\t$(CC) -o $@ $^\n\n\t@echo done: ok\n\n# trailing\n\nprog lib: $(OBJS)\n\techo x\n%.o: %.c\n\t$(CC) -c $<\n$(OBJDIR)/%.o:: src/%.c ; $(CC) -c $<\nclean:\n";
        assert_eq!(
            flat(src),
            vec![
                t("all", 6, 9),
                t("prog", 13, 14),
                t("lib", 13, 14),
                t("%.o", 15, 16),
                t("$(OBJDIR)/%.o", 17, 17),
                t("clean", 18, 18),
            ]
        );
        let entries = parse(src);
        assert_eq!(entries[0].signature.as_deref(), Some("all: prog lib | dir"));
        assert_eq!(
            entries[4].signature.as_deref(),
            Some("$(OBJDIR)/%.o:: src/%.c")
        );
    }

    #[test]
    fn assignments_defines_and_conditionals() {
        let src = "X ::= a:b\nY != date +%H:%M\nZ = $(if $(A),a:b)\nexport PATH := /bin:/usr/bin\n$(foreach t,$(T),$(eval $(t): dep))\ndefine RULE\nfoo: bar\n\techo\nendef\nifeq ($(OS),Windows_NT)\nwin: ; echo C:\\x\nelse\nunix:\n\techo a\nendif\nprog: CFLAGS += -g\nprog: export V=1\nstatic: %.o: %.c\n";
        assert_eq!(
            flat(src),
            vec![
                t("win", 11, 11),
                t("unix", 13, 14),
                t("prog", 16, 16),
                t("prog", 17, 17),
                t("static", 18, 18)
            ]
        );
    }

    #[test]
    fn continued_targets_and_recipe_prefix() {
        let src =
            "a \\\n b: c \\\n  d\n\tcmd \\\n  more\n.RECIPEPREFIX = >\ne:\n> echo e\n\tnot: x\n";
        assert_eq!(
            flat(src),
            vec![t("a", 1, 5), t("b", 2, 5), t("e", 7, 8), t("not", 9, 9)]
        );
    }

    #[test]
    fn crlf_grouped_and_junk() {
        let src = "a b &: c\r\n\tgen\r\n\r\nd:\r\n\tx";
        assert_eq!(flat(src), vec![t("a", 1, 2), t("b", 1, 2), t("d", 4, 5)]);
        assert!(parse("").is_empty());
        parse(":\n::\n$(\n${{{\n\\");
        parse("define x\n");
        parse("a: $(\n\t\\");
    }

    #[test]
    fn comments_escapes_and_inline_recipes() {
        let src = "lint: src \\# not a comment # real comment\n\t@echo a=b\nrun: ; echo x=y: z\n$(call rule,a:b)\ndist/%.tar.gz: $(shell find src -name '*.c') ; tar czf $@ $^\n";
        let entries = parse(src);
        let names: Vec<_> = entries.iter().map(|e| e.name()).collect();
        assert_eq!(names, vec!["lint", "run", "dist/%.tar.gz"]);
        assert_eq!(
            entries[0].signature.as_deref(),
            Some("lint: src \\# not a comment")
        );
        assert_eq!(entries[0].end_line, 2);
        assert_eq!(entries[1].signature.as_deref(), Some("run:"));
        assert_eq!(
            entries[2].signature.as_deref(),
            Some("dist/%.tar.gz: $(shell find src -name '*.c')")
        );
    }

    #[test]
    fn recipe_context_and_trailing_lines() {
        let src = "build:\n\tgo build\n\n# between\n\tgo vet\n\n\n# after\n\nVAR = 1\n\tnot a recipe: after an assignment\n";
        assert_eq!(
            flat(src),
            vec![
                t("build", 1, 5),
                t("not", 11, 11),
                t("a", 11, 11),
                t("recipe", 11, 11)
            ]
        );
    }
}
