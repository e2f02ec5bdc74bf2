//! How many arguments a call passes, read from the code mask after its name: what tells the
//! overloads of `--refs name(PARAMS` apart where receivers' types are unknown.

use crate::lang::Language;

/// The longest argument list read to count a call's arguments.
const MAX_ARGUMENT_LIST_BYTES: usize = 64 * 1024;

/// How many arguments the call whose name ends at byte `end` passes: those between the
/// parentheses that follow (after generic arguments: `f<T>(`, `f::<T>(`), plus a trailing
/// closure where the language passes one (Swift, Kotlin: `f(a) { … }`,
/// `f { … }`). `None` when no argument list follows (a reference, an import, Ruby's `f a, b`):
/// such a use is kept, as nothing tells its overload.
pub(crate) fn call_arguments(mask: &[u8], end: usize, language: Language) -> Option<usize> {
    let trailing_closures = matches!(language, Language::Swift | Language::Kotlin);
    let mut at = skip_spaces(mask, end);
    at = skip_generic_arguments(mask, at);
    let (mut count, after) = match mask.get(at) {
        Some(b'(') => {
            let (count, close) = count_arguments(mask, at + 1)?;
            (count, skip_spaces(mask, close + 1))
        }
        Some(b'{') if trailing_closures => (0, at),
        _ => return None,
    };
    if trailing_closures && mask.get(after) == Some(&b'{') {
        count += 1;
    }
    Some(count)
}

/// `at` moved past spaces and tabs (an argument list stays on the name's line).
fn skip_spaces(mask: &[u8], mut at: usize) -> usize {
    while matches!(mask.get(at), Some(b' ' | b'\t')) {
        at += 1;
    }
    at
}

/// `at` moved past `<…>` (or Rust's `::<…>`) when that holds only what type arguments are made
/// of; else `at` unchanged (`a < b` is a comparison).
fn skip_generic_arguments(mask: &[u8], at: usize) -> usize {
    let open = match mask.get(at..at + 3) {
        Some(b"::<") => at + 2,
        _ => at,
    };
    if mask.get(open) != Some(&b'<') {
        return at;
    }
    let mut depth = 0usize;
    for (offset, &b) in mask[open..].iter().enumerate() {
        match b {
            b'<' => depth += 1,
            b'>' => {
                depth -= 1;
                if depth == 0 {
                    return skip_spaces(mask, open + offset + 1);
                }
            }
            b if b.is_ascii_alphanumeric() || b" _,.:&*?[]".contains(&b) => {}
            _ => return at,
        }
    }
    at
}

/// The arguments of a list whose `(` ends just before `start`: the count (commas outside
/// brackets, an empty list and a trailing comma counted right) and where its `)` is. `None`
/// when the list does not close in the text.
fn count_arguments(mask: &[u8], start: usize) -> Option<(usize, usize)> {
    let (mut depth, mut count, mut current_has_text) = (0usize, 0, false);
    // An argument list that does not close within this many bytes is not one: the scan is
    // bounded for every occurrence of the name.
    let end = mask.len().min(start + MAX_ARGUMENT_LIST_BYTES);
    for (offset, &b) in mask.get(start..end)?.iter().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' if depth == 0 => {
                return Some((count + usize::from(current_has_text), start + offset));
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                count += usize::from(current_has_text);
                current_has_text = false;
                continue;
            }
            _ => {}
        }
        current_has_text |= !b.is_ascii_whitespace();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The count for the first `f` of `code`.
    fn count(code: &str, language: Language) -> Option<usize> {
        let end = code.find('f').expect("a call of f") + 1;
        call_arguments(code.as_bytes(), end, language)
    }

    #[test]
    fn arguments_are_counted_at_the_top_level_of_the_list() {
        assert_eq!(count("f()", Language::Java), Some(0));
        assert_eq!(
            count("f(a, g(b, c), [d, e], { x, y })", Language::Java),
            Some(4)
        );
        // A trailing comma adds no argument; a list may span lines.
        assert_eq!(count("f(\n  a,\n  b,\n)", Language::Rust), Some(2));
        // Generic arguments come before the list.
        assert_eq!(count("f<K, V>(m)", Language::Kotlin), Some(1));
        assert_eq!(count("f::<u8>(a, b)", Language::Rust), Some(2));
        // No list: a reference, or Ruby's command call, tells no count.
        assert_eq!(count("val r = f", Language::Kotlin), None);
        assert_eq!(count("f 'GET', path", Language::Ruby), None);
        assert_eq!(count("f < b", Language::Java), None);
        // An unclosed list is no call.
        assert_eq!(count("f(a, b", Language::Java), None);
    }

    #[test]
    fn trailing_closures_are_arguments_where_the_language_passes_them() {
        assert_eq!(count("f { x in x }", Language::Swift), Some(1));
        assert_eq!(count("f(a) { it }", Language::Kotlin), Some(2));
        assert_eq!(count("f(a) { |x| x }", Language::Ruby), Some(1));
        assert_eq!(count("f { x }", Language::Ruby), None);
    }
}
