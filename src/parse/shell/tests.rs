use super::*;
use crate::outline::Kind;

fn shape(text: &str) -> Vec<crate::parse::tests::KindRow> {
    crate::parse::tests::kind_tree(&parse(text))
}

fn functions(text: &str) -> Vec<(String, usize, usize)> {
    shape(text)
        .into_iter()
        .filter(|(kind, ..)| *kind == Kind::Function)
        .map(|(_, name, line, end, _)| (name, line, end))
        .collect()
}

fn f(name: &str, line: usize, end: usize) -> (String, usize, usize) {
    (name.to_string(), line, end)
}

#[test]
fn every_function_form_with_its_end() {
    let text = "\
a() {
  echo a
}
function b {
  echo b
}
function c() (
  echo c
)
d ()
{
  :
}
function e() { echo; }
";
    assert_eq!(
        functions(text),
        [
            f("a", 1, 3),
            f("b", 4, 6),
            f("c", 7, 9),
            f("d", 10, 13),
            f("e", 14, 14)
        ]
    );
}

#[test]
fn anonymous_zsh_functions_are_no_entries() {
    let text = "function {\n  local x\n}\n() {\n  :\n}\nf() { :; }\n";
    assert_eq!(functions(text), [f("f", 7, 7)]);
}

#[test]
fn nested_functions_are_children() {
    let text = "outer() {\n  inner() {\n    :\n  }\n  inner\n}\n";
    let shape = shape(text);
    assert_eq!(shape[0].1, "outer");
    assert_eq!(
        (shape[1].1.as_str(), shape[1].2, shape[1].3, shape[1].4),
        ("inner", 2, 4, 1)
    );
    assert_eq!((shape[0].2, shape[0].3), (1, 6));
}

#[test]
fn heredocs_hide_what_looks_like_code() {
    let text = "\
cat <<EOF
fake() {
EOF
cat <<'END' >out
x() { }
END
\tcat <<-  \"DONE\"
\ty() {
\tDONE
two() {
  cat <<A; cat <<B
a() {
A
b() {
B
}
";
    assert_eq!(functions(text), [f("two", 10, 16)]);
}

#[test]
fn case_patterns_close_nothing() {
    let text = "\
f() {
  case \"$1\" in
    a) echo a ;;
    (b|c) echo b ;;
    @(x|y)) echo ;;
    *) { echo; } ;;
  esac
  case x in esac
}
g() { :; }
";
    assert_eq!(functions(text), [f("f", 1, 9), f("g", 10, 10)]);
}

#[test]
fn substitutions_and_quotes_hold_their_braces() {
    let text = "\
f() {
  x=\"${a:-}}\"
  y=\"$(echo \"}\" ')')\"
  z=${b//\\}/x}
  w=$( case a in a) echo } ;; esac )
  v=\"it's ${c%\\'}\"
  n=$((1 << 2)) # }
  echo a#b }
  echo \\}
}
g() { :; }
";
    assert_eq!(functions(text), [f("f", 1, 10), f("g", 11, 11)]);
}

#[test]
fn comments_start_only_where_a_word_starts() {
    let text = "echo a#b { \nf() { # }\n  echo $# ${#x}\n}\n# g() {\n";
    assert_eq!(functions(text), [f("f", 2, 4)]);
}

#[test]
fn top_level_assignments_and_aliases_once_each() {
    let text = "\
FOO=1
export BAR=\"a
b\"
readonly -a LIST=(a
  b)
declare -x BAZ=2 QUX
FOO=again
LANG=C sort x
alias ll='ls -l' ..='cd ..'
if true; then NOT_TOP=1; fi
f() { local inner=1; }
";
    let names: Vec<(String, usize, usize)> = shape(text)
        .into_iter()
        .filter(|(kind, ..)| *kind == Kind::Variable)
        .map(|(_, name, line, end, _)| (name, line, end))
        .collect();
    assert_eq!(
        names,
        [
            f("FOO", 1, 1),
            f("BAR", 2, 3),
            f("LIST", 4, 5),
            f("BAZ", 6, 6),
            f("ll", 9, 9),
            f("..", 9, 9)
        ]
    );
}

#[test]
fn bats_tests_are_named_by_their_description() {
    let text = "\
setup() {
  load helper
}

@test \"adds { two } numbers\" {
  run add 1 2
  [ \"$output\" = 3 ]
}
@test 'quoted' {
  :
}
";
    assert_eq!(
        functions(text),
        [
            f("setup", 1, 3),
            f("adds { two } numbers", 5, 8),
            f("quoted", 9, 11)
        ]
    );
}

#[test]
fn signatures_are_the_heads() {
    let entries = parse("function deploy() {\n:\n}\nbuild () (\n:\n)\nexport PATH=/bin:$PATH\n");
    let signatures: Vec<_> = entries.iter().map(|e| e.signature.as_deref()).collect();
    assert_eq!(
        signatures,
        [
            Some("function deploy()"),
            Some("build ()"),
            Some("export PATH=/bin:$PATH")
        ]
    );
}

#[test]
fn the_search_mask_keeps_substitutions_in_quotes() {
    let text = "echo \"run $(run x) ${run} $run.\" 'run' # run\ncat <<E\nrun\nE\nrun\n";
    let mask = search_mask(text, false);
    let mask = String::from_utf8_lossy(&mask);
    assert_eq!(
        mask,
        "echo \"    $(run x) ${run} $run \" '   '      \ncat <<E\n   \nE\nrun\n"
    );
}

#[test]
fn unclosed_input_ends_at_the_last_line() {
    assert_eq!(functions("f() {\n  echo \"$(\n"), [f("f", 1, 2)]);
    assert_eq!(functions("cat <<EOF\ng() {\n"), []);
    assert!(parse("${").is_empty());
    assert!(parse("case").is_empty());
}

#[test]
fn words_of_an_array_open_and_close_nothing() {
    // oh-my-zsh lists the reserved words in an array: `do`, `esac`, `fi`, `{` and `}` there
    // are words, and the function after it was lost inside the first one.
    let text = "\
check() {
  reserved=( do done esac then elif else fi for case if while function
    repeat time until select '{' '}' )
  builtins+=( alias
    bg ( nested ) )
  [[ -n $x ]] && list=($(ls) `pwd`)
}

after() {
  echo done
}
";
    assert_eq!(functions(text), [f("check", 1, 7), f("after", 9, 11)]);
}
