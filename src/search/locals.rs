//! Local variables that share a name with what `--refs` looks for: `route = @request.path_info`
//! in a Ruby method, `let name = …` in a Rust function. Their uses are not references to the
//! definition, and listing them sent the agent trial's reader through a method that never
//! calls `route`.

use crate::lang::Language;
use crate::outline::{Entry, Kind};
use std::ops::RangeInclusive;

/// The locals declared so far in one file: each function's lines, from the declaration on.
#[derive(Debug, Default)]
pub(super) struct Locals {
    scopes: Vec<RangeInclusive<usize>>,
    /// Uses left out, declarations included.
    pub(super) left_out: usize,
}

impl Locals {
    /// Whether the occurrence of the name at `start..end` of `mask` (the code mask) on `line`,
    /// inside `function` (the innermost entry), is a local variable: declared there, or used
    /// after such a declaration in the same function. A call (`name(`) and a member use
    /// (`x.name`) are never one. Counts what it says yes to.
    pub(super) fn is_local(
        &mut self,
        language: Language,
        mask: &[u8],
        (start, end): (usize, usize),
        line: usize,
        function: Option<&Entry>,
        member: bool,
    ) -> bool {
        if member || followed_by(mask, end, b"(") {
            return false;
        }
        let local = match self.scopes.iter().any(|scope| scope.contains(&line)) {
            true => true,
            false => {
                let Some(function) = function.filter(|f| is_function(f.kind)) else {
                    return false;
                };
                let declared = declares(language, mask, start, end);
                if declared {
                    self.scopes.push(line..=function.end_line);
                }
                declared
            }
        };
        self.left_out += usize::from(local);
        local
    }
}

fn is_function(kind: Kind) -> bool {
    matches!(kind, Kind::Function | Kind::Method)
}

/// Whether the name at `start..end` is declared there as a local: after a declaring keyword
/// (`let`, `let mut`, `var`, `val`, `const`, `local`, `my`), before Go's `:=`, or (Ruby and
/// Python, where assigning declares) before a lone `=`.
fn declares(language: Language, mask: &[u8], start: usize, end: usize) -> bool {
    let before = mask[..start].trim_ascii_end();
    let keyword = before
        .rsplit(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
        .next()
        .unwrap_or_default();
    let keyword = match keyword == b"mut" {
        true => {
            let rest = before[..before.len() - 3].trim_ascii_end();
            match rest.ends_with(b"let") {
                true => b"let".as_slice(),
                false => keyword,
            }
        }
        false => keyword,
    };
    let by_keyword = matches!(
        (language, keyword),
        (
            Language::Rust | Language::Swift | Language::JavaScript | Language::TypeScript,
            b"let"
        ) | (
            Language::Swift | Language::Kotlin | Language::JavaScript | Language::TypeScript,
            b"var"
        ) | (Language::Kotlin, b"val")
            | (Language::JavaScript | Language::TypeScript, b"const")
            | (Language::Lua, b"local")
    );
    let assigned = match language {
        Language::Go => followed_by(mask, end, b":="),
        Language::Ruby | Language::Python => {
            followed_by(mask, end, b"=")
                && !followed_by(mask, end, b"==")
                && !followed_by(mask, end, b"=~")
                && !followed_by(mask, end, b"=>")
        }
        _ => false,
    };
    by_keyword || assigned
}

/// Whether the code after `end` (spaces skipped) starts with `text`.
fn followed_by(mask: &[u8], end: usize, text: &[u8]) -> bool {
    mask.get(end..)
        .is_some_and(|rest| rest.trim_ascii_start().starts_with(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared(language: Language, code: &str) -> bool {
        let start = code.find("route").unwrap_or(0);
        declares(language, code.as_bytes(), start, start + "route".len())
    }

    #[test]
    fn declarations_by_language() {
        assert!(declared(Language::Ruby, "route = @request.path_info"));
        assert!(!declared(Language::Ruby, "route == x"));
        assert!(!declared(Language::Ruby, "route =~ /x/"));
        assert!(!declared(Language::Ruby, "route 'GET', path"));
        assert!(declared(Language::Python, "route = x"));
        assert!(declared(Language::Rust, "let mut route = x;"));
        assert!(declared(Language::Rust, "let route: Route = x;"));
        assert!(!declared(Language::Rust, "route = x;"));
        assert!(declared(Language::Go, "route := x"));
        assert!(declared(Language::Kotlin, "val route = x"));
        assert!(declared(Language::JavaScript, "const route = x"));
        assert!(!declared(Language::Java, "route = x;"));
    }

    #[test]
    fn uses_after_a_declaration_in_the_same_function_are_local() {
        let function = Entry::new(Kind::Method, "process", 10, 20);
        let mut locals = Locals::default();
        let code = b"route = x";
        let mut local = |code: &[u8], line, function: Option<&Entry>, member| {
            locals.is_local(Language::Ruby, code, (0, 5), line, function, member)
        };
        // Before any declaration a bare use is a reference.
        assert!(!local(b"route 'GET'", 11, Some(&function), false));
        assert!(local(code, 12, Some(&function), false));
        assert!(local(b"route.empty?", 13, Some(&function), false));
        // A call and a member use are never the local; past the function, nothing is.
        assert!(!local(b"route(1)", 14, Some(&function), false));
        assert!(!local(b"route", 15, Some(&function), true));
        assert!(!local(b"route", 21, None, false));
        assert_eq!(locals.left_out, 2);
    }
}
