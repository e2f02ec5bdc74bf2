#![allow(clippy::unwrap_used)]

use super::parse;
use crate::outline::{Entry, Kind};

/// `(depth, kind, name, line, end_line)` for every entry, depth first.
fn flat(text: &str) -> Vec<(usize, Kind, String, usize, usize)> {
    fn visit(entries: &[Entry], depth: usize, out: &mut Vec<(usize, Kind, String, usize, usize)>) {
        for e in entries {
            out.push((depth, e.kind, e.name().to_string(), e.line, e.end_line));
            visit(&e.children, depth + 1, out);
        }
    }
    let mut out = Vec::new();
    visit(&parse(text), 0, &mut out);
    out
}

fn names(text: &str) -> Vec<String> {
    flat(text).into_iter().map(|e| e.2).collect()
}

fn sig_of(text: &str, name: &str) -> String {
    fn find<'a>(entries: &'a [Entry], name: &str) -> Option<&'a Entry> {
        for e in entries {
            if e.name() == name {
                return Some(e);
            }
            if let Some(found) = find(&e.children, name) {
                return Some(found);
            }
        }
        None
    }
    let entries = parse(text);
    find(&entries, name)
        .and_then(|e| e.signature.as_deref().map(str::to_string))
        .unwrap_or_default()
}

fn e(
    depth: usize,
    kind: Kind,
    name: &str,
    line: usize,
    end: usize,
) -> (usize, Kind, String, usize, usize) {
    (depth, kind, name.to_string(), line, end)
}

#[test]
fn classes_methods_functions_and_end_lines() {
    let src = "\
import os

MAX_SIZE = 10


class Config(Base):
    \"\"\"Docs.

    def not_a_def(self):
    \"\"\"

    name: str = \"x\"

    @property
    def path(self) -> str:
        return self._path

    # trailing comment

    async def load(self, path):
        data = [
            1,
            2,
        ]
# column zero comment
        return data


def main():
    pass
";
    assert_eq!(
        flat(src),
        vec![
            e(0, Kind::Constant, "MAX_SIZE", 3, 3),
            e(0, Kind::Class, "Config", 6, 26),
            e(1, Kind::Property, "name", 12, 12),
            e(1, Kind::Method, "path", 15, 16),
            e(1, Kind::Method, "load", 20, 26),
            e(0, Kind::Function, "main", 29, 30),
        ]
    );
    assert_eq!(sig_of(src, "path"), "@property path(self) -> str");
    assert_eq!(sig_of(src, "load"), "async load(self, path)");
    assert_eq!(sig_of(src, "Config"), "Config(Base)");
    assert_eq!(sig_of(src, "MAX_SIZE"), "MAX_SIZE = 10");
}

#[test]
fn multi_line_signatures_and_decorators_with_arguments() {
    let src = "\
@app.route(
    \"/x\",  # comment )
    methods=[\"GET\"],
)
@cache
def handler(
    request,  # the request
    *args: int,
    **kwargs,
) -> dict[str, int]:
    return {}
";
    assert_eq!(flat(src), vec![e(0, Kind::Function, "handler", 6, 11)]);
    assert_eq!(
        sig_of(src, "handler"),
        "@app.route(\"/x\", methods=[\"GET\"]) @cache handler(request, *args: int, **kwargs) -> dict[str, int]"
    );
}

#[test]
fn keywords_in_strings_and_comments_are_ignored() {
    let src = "\
x = '''
def fake():
    pass
'''
y = \"class Fake:\"  # def also_fake():
z = f\"{a!r} def g(): {b}\"
w = rb'''
class Raw:
'''
s = 'it\\'s \\
def cont(): pass'
def real():
    return \"\"\"
class InDoc:
\"\"\"
";
    // The assignments are variables; none of the definitions inside their strings is an entry.
    assert_eq!(
        flat(src),
        vec![
            e(0, Kind::Variable, "x", 1, 4),
            e(0, Kind::Variable, "y", 5, 5),
            e(0, Kind::Variable, "z", 6, 6),
            e(0, Kind::Variable, "w", 7, 9),
            e(0, Kind::Variable, "s", 10, 11),
            e(0, Kind::Function, "real", 12, 15),
        ]
    );
}

#[test]
fn one_liners_semicolons_and_continuations() {
    let src = "\
def f(): return 1
class A: pass
class B(A): x = 1; y = 2
ALPHA = 1; BETA = 2
GAMMA = \\
    3
def g(a,
      b): return a + \\
    b
";
    assert_eq!(
        flat(src),
        vec![
            e(0, Kind::Function, "f", 1, 1),
            e(0, Kind::Class, "A", 2, 2),
            e(0, Kind::Class, "B", 3, 3),
            e(0, Kind::Constant, "ALPHA", 4, 4),
            e(0, Kind::Constant, "BETA", 4, 4),
            e(0, Kind::Constant, "GAMMA", 5, 6),
            e(0, Kind::Function, "g", 7, 9),
        ]
    );
    assert_eq!(sig_of(src, "g"), "g(a, b)");
}

#[test]
fn constants_forms() {
    let src = "\
AA = BB = 1
CC, (DD, *EE) = 1, (2, 3)
FF: int = 4
GG: Final[int]
T = TypeVar(\"T\")
lower = 1
Mixed_Case = 2
__all__ = [\"x\"]
_PRIVATE = 3
___ = 4
HH += 1
II == 2
JJ.attr = 3
KK[0] = 4
LL = lambda x=1: x
MM = (
    1,
    2,
)
print(N=1)
";
    assert_eq!(
        names(src),
        vec![
            "AA",
            "BB",
            "CC",
            "DD",
            "EE",
            "FF",
            "GG",
            "T",
            "lower",
            "Mixed_Case",
            "__all__",
            "_PRIVATE",
            "___",
            "LL",
            "MM"
        ]
    );
    let variables: Vec<String> = parse(src)
        .into_iter()
        .filter(|e| e.kind == Kind::Variable)
        .map(|e| e.name().to_string())
        .collect();
    assert_eq!(variables, ["T", "lower", "Mixed_Case", "__all__", "___"]);
    let m = flat(src).into_iter().find(|x| x.2 == "MM").unwrap();
    assert_eq!((m.3, m.4), (16, 19));
}

#[test]
fn compound_statements_are_transparent() {
    let src = "\
import sys
if sys.version_info >= (3, 8):
    def f():
        pass
else:
    def f():
        pass
try:
    import foo
    HAS_FOO = True
except ImportError:
    HAS_FOO = False

class A:
    if True:
        def m(self):
            pass
    with ctx:
        X = 1

        def n(self):
            pass

def outer():
    LOCAL = 1
    def inner():
        def deeper():
            pass
        return 2
    class Local:
        def lm(self):
            pass
    return inner

if __name__ == \"__main__\":
    MAIN_FLAG = 1
    main()
";
    assert_eq!(
        flat(src),
        vec![
            e(0, Kind::Function, "f", 3, 4),
            e(0, Kind::Function, "f", 6, 7),
            e(0, Kind::Constant, "HAS_FOO", 10, 10),
            e(0, Kind::Constant, "HAS_FOO", 12, 12),
            e(0, Kind::Class, "A", 14, 22),
            e(1, Kind::Method, "m", 16, 17),
            e(1, Kind::Property, "X", 19, 19),
            e(1, Kind::Method, "n", 21, 22),
            e(0, Kind::Function, "outer", 24, 33),
            e(1, Kind::Function, "inner", 26, 29),
            e(2, Kind::Function, "deeper", 27, 28),
            e(1, Kind::Class, "Local", 30, 32),
            e(2, Kind::Method, "lm", 31, 32),
            e(0, Kind::Constant, "MAIN_FLAG", 36, 36),
        ]
    );
}

#[test]
fn type_parameters_and_nested_classes() {
    let src = "\
class Box[T]:
    class Inner:
        def get[U](self, x: U) -> T | U:
            return x
    def put(self, item: T) -> None: ...

def first[T](xs: list[T]) -> T:
    return xs[0]
type Alias = int
";
    assert_eq!(
        flat(src),
        vec![
            e(0, Kind::Class, "Box", 1, 5),
            e(1, Kind::Class, "Inner", 2, 4),
            e(2, Kind::Method, "get", 3, 4),
            e(1, Kind::Method, "put", 5, 5),
            e(0, Kind::Function, "first", 7, 8),
            e(0, Kind::Type, "Alias", 9, 9),
        ]
    );
    assert_eq!(sig_of(src, "Box"), "Box[T]");
    assert_eq!(sig_of(src, "get"), "get[U](self, x: U) -> T | U");
    assert_eq!(sig_of(src, "first"), "first[T](xs: list[T]) -> T");
}

#[test]
fn crlf_tabs_and_no_final_newline() {
    let src =
        "class A:\r\n\tdef m(self):\r\n\t\treturn 1\r\n\r\n\tdef n(self):\r\n\t\tpass\r\nXY = 1";
    assert_eq!(
        flat(src),
        vec![
            e(0, Kind::Class, "A", 1, 6),
            e(1, Kind::Method, "m", 2, 3),
            e(1, Kind::Method, "n", 5, 6),
            e(0, Kind::Constant, "XY", 7, 7),
        ]
    );
    assert_eq!(sig_of(src, "m"), "m(self)");
}

#[test]
fn end_line_is_last_statement_not_trailing_comments() {
    let src = "\
def f():
    x = 1
    s = \"\"\"
    text
    \"\"\"

    # comment


def g():
    call(
        a,
    )  # trailing
    # more
";
    assert_eq!(
        flat(src),
        vec![
            e(0, Kind::Function, "f", 1, 5),
            e(0, Kind::Function, "g", 10, 13)
        ]
    );
}

#[test]
fn lambda_async_with_and_match() {
    let src = "\
async def run():
    async with lock:
        handler = lambda x: x
    match cmd:
        case \"go\":
            pass

class C:
    match = 1
    def case(self): pass
";
    assert_eq!(
        flat(src),
        vec![
            e(0, Kind::Function, "run", 1, 6),
            e(0, Kind::Class, "C", 8, 10),
            e(1, Kind::Property, "match", 9, 9),
            e(1, Kind::Method, "case", 10, 10),
        ]
    );
}

#[test]
fn empty_junk_and_unbalanced_input_do_not_panic() {
    for src in [
        "",
        "\n\n",
        "def",
        "def (",
        "class",
        "@",
        "@deco\n",
        "def f(\n",
        "'''",
        "\"abc\\",
        "x = (\n\ndef g():\n    pass\n",
        "\u{0}\u{1}\u{ff}\\\n",
        "\t\t\tdef f(): pass\ndef g(): pass",
        "A, = 1\n(,) = 2\n* = 3\n",
        "é = 1\nÉTÉ = 2\ndef ñ(): pass\n",
    ] {
        let _ = parse(src);
    }
    // An unclosed bracket does not swallow the next definition.
    assert_eq!(names("x = foo(\n\ndef g():\n    pass\n"), vec!["x", "g"]);
}

#[test]
fn unicode_names() {
    assert_eq!(
        names("def ñandú(): pass\nclass Straße: pass\n"),
        vec!["ñandú", "Straße"]
    );
}

#[test]
fn backslash_before_a_comment_line_ends_the_statement() {
    let src = "def f():\n    assert g(1, 2) \\\n        # == 3\n\n\nXY = 1 \\\n  # note\n";
    assert_eq!(
        flat(src),
        vec![
            e(0, Kind::Function, "f", 1, 2),
            e(0, Kind::Constant, "XY", 6, 6)
        ]
    );
}

#[test]
fn pathological_inputs_stay_fast() {
    let deep = format!("{}AA{} = 1\n", "(".repeat(50_000), ")".repeat(50_000));
    let brackets = "(".repeat(100_000);
    let backslashes = format!("x = '{}\n", "\\".repeat(100_000));
    let many_defs = "def f(:\n".repeat(20_000);
    let nested = (0..200)
        .map(|i| format!("{}def f{i}():\n", " ".repeat(i)))
        .collect::<String>();
    let start = std::time::Instant::now();
    for src in [&deep, &brackets, &backslashes, &many_defs, &nested] {
        let _ = parse(src);
    }
    assert!(start.elapsed().as_secs() < 5);
    assert_eq!(parse(&many_defs).len(), 20_000);
}

#[test]
fn random_python_like_input_never_panics() {
    let pieces: [&str; 24] = [
        "def ", "class ", "async ", "@d", "(", ")", "[", "]", "{", "}", ":", "\n", "    ", "\t",
        "\"\"\"", "'''", "'", "\"", "\\", "#", "AB = ", ", ", ";", "é",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..300 {
        let mut src = String::new();
        for _ in 0..200 {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            src.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
        }
        let outline = crate::parse::outline_text(
            &src,
            crate::parse::ParseOptions::new(crate::lang::Language::Python),
        );
        for (_, entry) in outline.walk() {
            assert!(entry.line <= entry.end_line);
        }
    }
}

#[test]
fn long_decorators_keep_the_name_in_view() {
    let src = "\
@pytest.mark.parametrize(\"value, expected\", [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10)])
@short(1)
def test_values(value, expected):
    assert value < expected
";
    assert_eq!(
        sig_of(src, "test_values"),
        "@pytest.mark.parametrize(…) @short(1) test_values(value, expected)"
    );
}

#[test]
fn definition_heads_are_read_as_the_regexes_read_them() {
    let heads = [
        "def f(x):",
        "def  _private(self)",
        "def\tname:",
        "def\x0cname():",
        "async def run():",
        "async  \tdef go()",
        "asyncdef f():",
        "async def",
        "async define():",
        "def 1f():",
        "def (x):",
        "define = 3",
        "def",
        "defx()",
        "class A:",
        "class _B(Base):",
        "class\tC",
        "classy = 1",
        "class 9:",
        "def café(x):",
        "def é():",
        "class Ünicode:",
        "def a\u{300}b():",
        "def x·y():",
        "def ab\u{a0}():",
        "x = 1",
        "@decorator",
    ];
    for head in heads {
        assert_eq!(
            super::opener(head),
            super::opener_by_regex(head),
            "{head:?}"
        );
    }
}

#[test]
fn type_statements_are_type_aliases() {
    let src = "type MyList = list[str]\ntype Pair[T] = tuple[T, T]\ntype = 1\ntype(x)\n";
    let got = flat(src);
    assert_eq!(
        got,
        vec![
            (0, Kind::Type, "MyList".to_string(), 1, 1),
            (0, Kind::Type, "Pair".to_string(), 2, 2),
            (0, Kind::Variable, "type".to_string(), 3, 3),
        ]
    );
    assert_eq!(sig_of(src, "Pair"), "Pair[T] = tuple[T, T]");
}

#[test]
fn attribute_and_subscript_targets_bind_no_name() {
    let src =
        "VAR2, VAR1.x = 2, 1.1\na[0], (b, c.d[1]) = 1, (2, 3)\nobj.attr = 1\nf(x), e = 1, 2\n";
    assert_eq!(names(src), vec!["VAR2", "b"]);
}

#[test]
fn a_line_splice_before_the_name_of_a_def_or_class() {
    let src = "def \\\n  late():\n    pass\nclass \\\r\n  Late:\n    pass\nasync def \\\n  later():\n    pass\n";
    assert_eq!(
        flat(src),
        vec![
            (0, Kind::Function, "late".to_string(), 1, 3),
            (0, Kind::Class, "Late".to_string(), 4, 6),
            (0, Kind::Function, "later".to_string(), 7, 9),
        ]
    );
}
