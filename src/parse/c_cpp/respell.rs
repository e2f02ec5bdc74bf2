//! Other spellings of the tokens the scanner reads: the digraphs `<% %> <: :> %:` (C95, C++)
//! and backslash-newline line splices, rewritten in the masked code to the usual forms so
//! that the directive pass and the scope scan see `{`, `}`, `[`, `]`, `#` and one line.

/// Rewrites the masked `code` (comments and literals already blanked) in place, byte for
/// byte: a digraph becomes its usual token and a space, a splice's backslash a space.
/// Offsets stay where they were, so names and signatures still come from the original text.
pub(super) fn respell(code: &mut [u8]) {
    let mut square_opened = false;
    let mut i = 0;
    while let Some(n) = memchr::memchr3(b'%', b'<', b'\\', code.get(i..).unwrap_or(&[])) {
        let at = i + n;
        let next = code.get(at + 1).copied();
        let usual = match (code[at], next) {
            (b'<', Some(b'%')) => Some(b'{'),
            (b'%', Some(b'>')) => Some(b'}'),
            (b'%', Some(b':')) => Some(b'#'),
            (b'<', Some(b':')) if opens_square(code, at) => {
                square_opened = true;
                Some(b'[')
            }
            (b'\\', _) => {
                if let Some(newline) = splice_newline(code, at) {
                    code[at] = b' ';
                    i = newline + 1;
                    continue;
                }
                None
            }
            _ => None,
        };
        match usual {
            Some(byte) => {
                code[at] = byte;
                code[at + 1] = b' ';
                i = at + 2;
            }
            None => i = at + 1,
        }
    }
    // `:>` closes only what `<:` opened; a file without one (nearly all) is not searched.
    if square_opened {
        for at in memchr::memmem::find_iter(code, b":>").collect::<Vec<_>>() {
            if code.get(at..at + 2) == Some(b":>") {
                code[at] = b']';
                code[at + 1] = b' ';
            }
        }
    }
}

/// Whether the `<:` at `at` is the digraph: C++ reads `<::` as `<` then `::` unless `:` or
/// `>` follows (`vector<::std::string>`).
fn opens_square(code: &[u8], at: usize) -> bool {
    code.get(at + 2) != Some(&b':') || matches!(code.get(at + 3), Some(b':' | b'>'))
}

/// The `\n` ending the line whose backslash is at `at`, when only blanks (a `\r`, the
/// trailing spaces compilers accept) stand between them: a line splice.
fn splice_newline(code: &[u8], at: usize) -> Option<usize> {
    let rest = code.get(at + 1..)?;
    let blanks = rest
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\r'))
        .count();
    (rest.get(blanks) == Some(&b'\n')).then_some(at + 1 + blanks)
}

#[cfg(test)]
mod tests {
    use super::respell;

    fn respelled(text: &str) -> String {
        let mut code = text.as_bytes().to_vec();
        respell(&mut code);
        String::from_utf8_lossy(&code).into_owned()
    }

    #[test]
    fn digraphs_become_their_usual_tokens() {
        assert_eq!(respelled("%:define A <%1%>"), "# define A { 1} ");
        assert_eq!(respelled("int a<:3:>;"), "int a[ 3] ;");
    }

    #[test]
    fn a_template_argument_list_opening_with_a_scope_is_no_digraph() {
        assert_eq!(respelled("v<::std::s> x; a<:3:>"), "v<::std::s> x; a[ 3] ");
        assert_eq!(respelled("v<::std::s> y :> z"), "v<::std::s> y :> z");
    }

    #[test]
    fn a_line_splice_joins_the_lines() {
        assert_eq!(respelled("int main \\\n(void)"), "int main  \n(void)");
        assert_eq!(respelled("f \\ \r\n()"), "f   \r\n()");
        assert_eq!(respelled("a \\ b\n"), "a \\ b\n");
    }
}
