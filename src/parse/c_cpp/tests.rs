//! Unit tests for the C/C++ scanner.
#![allow(clippy::unwrap_used)]

use super::*;

/// `(depth, kind, name, line, end_line)` for every entry, depth first.
fn flat(text: &str) -> Vec<(usize, &'static str, String, usize, usize)> {
    crate::parse::tests::flat_tree(&parse(text, Language::Cpp), true)
}

fn names(text: &str) -> Vec<(String, usize, usize)> {
    flat(text)
        .into_iter()
        .map(|(_, _, n, l, e)| (n, l, e))
        .collect()
}

fn e(name: &str, line: usize, end: usize) -> (String, usize, usize) {
    (name.to_string(), line, end)
}

#[test]
fn c_functions_structs_typedefs_and_macros() {
    let src = "#include <stdio.h>\n\
#define MAX 10\n\
#define SQ(x) \\\n  ((x) * (x))\n\
struct point { int x, y; };\n\
typedef struct { int a; } pair_t;\n\
typedef struct node { struct node *next; } node_t, *node_p;\n\
typedef int (*cmp_fn)(const void *, const void *);\n\
typedef unsigned long ulong;\n\
struct point origin = { 0, 0 };\n\
struct point;\n\
static int\n\
add (int a, int b)\n\
{\n\
  if (a) { return a; }\n\
  return b;\n\
}\n";
    assert_eq!(
        names(src),
        vec![
            e("MAX", 2, 2),
            e("SQ", 3, 4),
            e("point", 5, 5),
            e("pair_t", 6, 6),
            e("node", 7, 7),
            e("node_t", 7, 7),
            e("node_p", 7, 7),
            e("cmp_fn", 8, 8),
            e("ulong", 9, 9),
            e("add", 12, 17),
        ]
    );
    let kinds: Vec<_> = flat(src).into_iter().map(|f| f.1).collect();
    assert_eq!(
        kinds,
        vec![
            "macro", "macro", "struct", "typedef", "struct", "typedef", "typedef", "typedef",
            "typedef", "function"
        ]
    );
}

#[test]
fn preprocessor_alternative_heads_keep_one() {
    let src = "#ifdef WIDE\nint f(long a)\n#else\nint f(int a)\n#endif\n{\n  return a;\n}\n\
#if defined(_WIN32)\nstatic void g(void) {\n#else\nstatic void g(void) {\n#endif\n}\n\
#ifndef X\nint h(void) { return 1; }\n#else\nint h(void) { return 2; }\n#endif\n";
    let got = names(src);
    assert_eq!(got.iter().filter(|n| n.0 == "f").count(), 1, "{got:?}");
    assert!(got.contains(&e("f", 4, 8)), "{got:?}");
    assert!(got.contains(&e("g", 12, 14)), "{got:?}");
    assert!(
        got.contains(&e("h", 16, 16)) && got.contains(&e("h", 18, 18)),
        "{got:?}"
    );
}

#[test]
fn complete_items_before_an_alternative_head_are_kept() {
    // jq's main.c: `wmain` is whole inside `#ifdef WIN32`, before the `umain` head that pairs
    // with `main` under `#else`. Only the open head is an alternative of `main`.
    let src = "#ifdef WIN32\nint umain(int argc);\n\nint wmain(int argc) {\n  return umain(argc);\n}\n\n\
int umain(int argc) {\n#else\nint main(int argc) {\n#endif\n  return 0;\n}\n\
#ifndef LIKELY\nint f(int a) {\n#else\nstatic int g(void) { return 0; }\nint f(long a) {\n#endif\n  return 1;\n}\n";
    let got = names(src);
    assert!(got.contains(&e("wmain", 4, 6)), "{got:?}");
    assert!(got.contains(&e("main", 10, 13)), "{got:?}");
    assert!(!got.iter().any(|n| n.0 == "umain"), "{got:?}");
    // The first branch is kept here: a later branch's items would sit in its open body.
    assert_eq!(got.iter().filter(|n| n.0 == "f").count(), 1, "{got:?}");
    assert!(got.contains(&e("f", 15, 21)), "{got:?}");
}

#[test]
fn if_zero_blocks_and_macros_in_every_branch() {
    let src = "#if 0\nint dead( { \n#define IN_DEAD 1\n#else\n#define LIVE 2\n#endif\nint ok(void) { return 0; }\n";
    assert_eq!(
        names(src),
        vec![e("IN_DEAD", 3, 3), e("LIVE", 5, 5), e("ok", 7, 7)]
    );
}

#[test]
fn knr_and_attributes_and_function_pointers() {
    let src = "int\nold(a, b)\n  int a;\n  char *b;\n{\n  return a;\n}\n\
static inline PGDLLEXPORT int exported(void) { return 1; }\n\
__attribute__((noreturn)) void die(const char *msg) { for (;;) {} }\n\
void (*signal(int sig, void (*func)(int)))(int) {\n  return func;\n}\n\
int BZ_API(BZ2_bzRead) (int *bzerror) { return 0; }\n";
    assert_eq!(
        names(src),
        vec![
            e("old", 1, 7),
            e("exported", 8, 8),
            e("die", 9, 9),
            e("signal", 10, 12),
            e("BZ2_bzRead", 13, 13)
        ]
    );
}

#[test]
fn cpp_classes_methods_and_operators() {
    let src = r#"namespace outer::inner {
template <typename T>
class [[nodiscard]] Box final : public Base<T> {
public:
Box() : value_(1), other_{2} {}
explicit Box(T v) noexcept : value_(v) { }
~Box() override = default;
Box(const Box&) = delete;
bool operator<(const Box& o) const { return value_ < o.value_; }
T operator()(int x) const { return value_; }
operator bool() const { return true; }
auto get() const -> const T& { return value_; }
enum class Mode : int { A, B };
using value_type = T;
private:
T value_;
int other_;
};

template <typename T>
void Box<T>::set(T v) {
auto f = [](int x) { return x; };
value_ = v;
}
}  // namespace outer::inner
"#;
    assert_eq!(
        flat(src),
        vec![
            (0, "namespace", "outer".to_string(), 1, 25),
            (1, "namespace", "inner".to_string(), 1, 25),
            (2, "class", "Box".to_string(), 2, 18),
            (3, "method", "Box".to_string(), 5, 5),
            (3, "method", "Box".to_string(), 6, 6),
            // Declared only (`= default`, `= delete`): still members of the class.
            (3, "method", "~Box".to_string(), 7, 7),
            (3, "method", "Box".to_string(), 8, 8),
            (3, "method", "operator<".to_string(), 9, 9),
            (3, "method", "operator()".to_string(), 10, 10),
            (3, "method", "operator bool".to_string(), 11, 11),
            (3, "method", "get".to_string(), 12, 12),
            (3, "enum", "Mode".to_string(), 13, 13),
            (3, "typedef", "value_type".to_string(), 14, 14),
            (2, "function", "Box<T>::set".to_string(), 20, 24),
        ]
    );
}

#[test]
fn traps_in_literals_comments_and_control_flow() {
    let src = "const char *s = \"int fake(void) {\";\n\
char c = '{';\n\
int big = 1'000'000;\n\
auto raw = R\"x(void nope() { )x\";\n\
/* int commented(void) { } */\n\
// void line_comment() {\n\
int real(int x) {\n\
  if (x) {\n\
while (x--) { }\n\
  }\n\
  switch (x) { case 1: break; }\n\
  return '}';\n\
}\n";
    assert_eq!(names(src), vec![e("real", 7, 13)]);
}

#[test]
fn extern_c_is_transparent_and_gtest_macros_are_functions() {
    let src = "#ifdef __cplusplus\nextern \"C\" {\n#endif\nint c_api(void) { return 0; }\n#ifdef __cplusplus\n}\n#endif\n\
TEST(Suite, Name) {\n  EXPECT_EQ(1, 1);\n}\n";
    assert_eq!(names(src), vec![e("c_api", 4, 4), e("TEST", 8, 10)]);
}

#[test]
fn macro_lines_before_declarations_do_not_move_the_start() {
    let src = "NS_BEGIN(detail)\n\nclass Widget : public QObject {\n    Q_OBJECT\n    int count() const { return 1; }\npublic slots:\n    void reset() {}\n};\nNS_END(detail)\n";
    assert_eq!(
        names(src),
        vec![e("Widget", 3, 8), e("count", 5, 5), e("reset", 7, 7)]
    );
}

#[test]
fn crlf_tabs_and_no_final_newline() {
    let src =
        "struct A {\r\n\tint x;\r\n};\r\n#define Z 1\r\nint\tf(void)\r\n{\r\n\treturn 0;\r\n}";
    assert_eq!(names(src), vec![e("A", 1, 3), e("Z", 4, 4), e("f", 5, 8)]);
    let got = parse(src, Language::C);
    let z = got.iter().find(|e| e.name() == "Z").unwrap();
    assert_eq!(z.signature.as_deref(), Some("Z 1"));
}

#[test]
fn signatures_drop_bodies_and_comments() {
    let src = "static int /* why */ add(int a,\n        int b) // sum\n{\n  return a + b;\n}\nclass K : public B { };\n";
    let got = parse(src, Language::Cpp);
    assert_eq!(
        got[0].signature.as_deref(),
        Some("static int add(int a, int b)")
    );
    assert_eq!(got[1].signature.as_deref(), Some("K : public B"));
}

#[test]
fn empty_junk_and_unbalanced_input_never_panic() {
    for src in [
        "",
        "{",
        "}",
        "int f(",
        "class A {",
        "#define",
        "#if\n#else\n#elif\n#endif\n#endif",
        "template<",
        "operator",
        "int operator",
        "a::b::~",
        "typedef",
        "using X =",
        "\"unterminated",
        "R\"x(",
        "'",
        "\u{0}\u{1}\u{ff}",
        "struct { struct { struct {",
        "void f() { } } } } int g() {}",
        "(((((",
        ")))))",
        "int f() : {",
        "namespace {",
    ] {
        let _ = parse(src, Language::Cpp);
        let _ = parse(src, Language::C);
    }
    let deep = "namespace a {".repeat(5000);
    let _ = parse(&deep, Language::Cpp);
}

#[test]
fn out_of_line_members_and_free_operators() {
    let src = "A::A(int x)\n    : x_(x), y_{2}, z_{}\n{\n}\n\
A::~A() {}\n\
A::operator int() const { return x_; }\n\
std::ostream &operator<<(std::ostream &os, const A &a) { return os; }\n\
template <typename T,\n          typename U>\nauto add(T t, U u) -> decltype(t + u) {\n  return t + u;\n}\n\
template <>\nvoid show<int>(int v) {}\n\
A &A::operator=(const A &) = default;\n\
auto lambda = [](int x) { return x * 2; };\n\
std::vector<std::pair<int, int>> pairs() { return {}; }\n\
namespace { int hidden() { return 0; } }\n\
namespace alias = std::chrono;\n\
union U { int i; float f; };\n\
enum Color { RED, GREEN };\n";
    assert_eq!(
        names(src),
        vec![
            e("A::A", 1, 4),
            e("A::~A", 5, 5),
            e("A::operator int", 6, 6),
            e("operator<<", 7, 7),
            e("add", 8, 12),
            e("show<int>", 13, 14),
            e("pairs", 17, 17),
            e("hidden", 18, 18),
            e("U", 20, 20),
            e("Color", 21, 21),
        ]
    );
}

#[test]
fn constructor_with_many_brace_initialized_members() {
    let inits: Vec<String> = (0..12).map(|i| format!("m{i}{{{i}}}")).collect();
    let src = format!(
        "struct S {{\n  S()\n    : {}\n  {{\n  }}\n  int f() {{ return 1; }}\n}};\n",
        inits.join(",\n      ")
    );
    assert_eq!(
        names(&src),
        vec![e("S", 1, 18), e("S", 2, 16), e("f", 17, 17)]
    );
}

#[test]
fn macro_bodies_with_comments_stay_in_the_macro() {
    let src = "#define DEFINE_FNS(name) \\\n  int name##_get(void) \\\n  { /* a comment ending in a backslash \\\n     continues */ \\\n    return 0; \\\n  }\n#define S \"/*\"\nint after(void) { return 1; }\n#define C 1 /* open\n  still comment */\nint last(void) { return 2; }\n";
    assert_eq!(
        names(src),
        vec![
            e("DEFINE_FNS", 1, 6),
            e("S", 7, 7),
            e("after", 8, 8),
            e("C", 9, 10),
            e("last", 11, 11)
        ]
    );
}

#[test]
fn gnu_style_and_prototypes() {
    let src = "static int\nfoo (void)\n{\n  return 0;\n}\n\nint bar (int);\nextern void baz(void);\nvoid\nqux (a)\n     int a;\n{\n}\n";
    assert_eq!(names(src), vec![e("foo", 1, 5), e("qux", 9, 13)]);
}

#[test]
fn macro_wrapped_declarators_and_typedef_macros() {
    let src = "extern __inline int\n__NTH (opt_short (const struct opt *o))\n{\n  return 0;\n}\n\
inline int (index)() const { return 0; }\n\
typedef PNG_CALLBACK(void, *png_rw_ptr, (png_structp, size_t));\n\
typedef struct hd *hd_t ATTR_DEPRECATED;\n\
typedef struct _win_st WINDOW;\n\
typedef unsigned int UINT32;\n\
void print(const ::std::string &s, ostream *os) {}\n\
template <typename C, typename T> bool has(T C::*mp) { return mp; }\n\
typedef int (Widget::*member_fn)(int);\n";
    assert_eq!(
        names(src),
        vec![
            e("opt_short", 1, 5),
            e("index", 6, 6),
            e("png_rw_ptr", 7, 7),
            e("hd_t", 8, 8),
            e("WINDOW", 9, 9),
            e("UINT32", 10, 10),
            e("print", 11, 11),
            e("has", 12, 12),
            e("member_fn", 13, 13),
        ]
    );
}

#[test]
fn unclosed_function_ends_at_file_end() {
    let got = names("int f(void) {\n  return 0;\n");
    assert_eq!(got, vec![e("f", 1, 2)]);
}

#[test]
fn member_declarations_are_entries_of_their_class() {
    let src = "class Widget {\npublic:\n  Widget();\n  explicit Widget(int n);\n  ~Widget();\n\
  void draw() const;\n  virtual int size() = 0;\n  Widget(const Widget &) = delete;\n\
  int inline_one() { return 1; }\n  int field = compute(1);\n  std::function<void(int)> cb;\n\
  int (*fp)(int);\n  friend void swap(Widget &, Widget &);\n  Q_DISABLE_COPY(Widget);\n\
  operator bool() const;\n  STDMETHOD_(int, Get)() = 0;\n};\nstruct S { void f(); };\n";
    assert_eq!(
        flat(src),
        vec![
            (0, "class", "Widget".to_string(), 1, 17),
            (1, "method", "Widget".to_string(), 3, 3),
            (1, "method", "Widget".to_string(), 4, 4),
            (1, "method", "~Widget".to_string(), 5, 5),
            (1, "method", "draw".to_string(), 6, 6),
            (1, "method", "size".to_string(), 7, 7),
            (1, "method", "Widget".to_string(), 8, 8),
            (1, "method", "inline_one".to_string(), 9, 9),
            (1, "method", "operator bool".to_string(), 15, 15),
            (0, "struct", "S".to_string(), 18, 18),
            (1, "method", "f".to_string(), 18, 18),
        ]
    );
    let entries = parse(src, Language::Cpp);
    let sigs: Vec<_> = entries[0]
        .children
        .iter()
        .filter_map(|e| e.signature.as_deref().map(str::to_string))
        .collect();
    assert!(
        sigs.contains(&"virtual int size() = 0".to_string()),
        "{sigs:?}"
    );
    assert!(
        sigs.contains(&"Widget(const Widget &) = delete".to_string()),
        "{sigs:?}"
    );
}

#[test]
fn template_arguments_with_comparisons_and_shifts() {
    let src = "template<char i, bool B = i < 10> void f1(void) { }\n\
template <int N = 1 << 4, bool C = N <= 8> struct Buf { int a[N]; };\n\
template <typename T, typename = std::enable_if_t<sizeof(T) < 8>> T id(T t) { return t; }\n\
template <typename T, enable_if_t<V<T>::v >= 1 && V<T>::v <= 9, int> = 0> T ge(T t) { return t; }\n\
std::vector<std::pair<int, int>> pairs() { return {}; }\n\
void g(void) { }\n";
    assert_eq!(
        names(src),
        vec![
            e("f1", 1, 1),
            e("Buf", 2, 2),
            e("id", 3, 3),
            e("ge", 4, 4),
            e("pairs", 5, 5),
            e("g", 6, 6)
        ]
    );
}

#[test]
fn digraphs_spell_braces_brackets_and_directives() {
    let src = "%:define A 1\n\
int f(void) <% return 1; %>\n\
int g(void) { int a<:2:> = <%0%>; return a<:0:>; }\n\
struct S <% int x<:4:>; %>;\n";
    assert_eq!(
        names(src),
        vec![e("A", 1, 1), e("f", 2, 2), e("g", 3, 3), e("S", 4, 4)]
    );
}

#[test]
fn export_blocks_export_what_they_hold() {
    let src = "export module m;\n\
export { class c { int x; }; int h(); namespace n { struct s {}; } }\n\
export int k() { return 1; }\n";
    let got: Vec<(usize, &str, String)> = flat(src)
        .into_iter()
        .map(|(d, k, n, _, _)| (d, k, n))
        .collect();
    assert_eq!(
        got,
        vec![
            (0, "class", "c".to_string()),
            (0, "namespace", "n".to_string()),
            (1, "struct", "s".to_string()),
            (0, "function", "k".to_string()),
        ]
    );
}

#[test]
fn parenthesised_declarator_names() {
    let src = "typedef struct AStruct (T305)(int);\n\
typedef void (fn_t)(int);\n\
typedef int (arr_t)[4];\n\
typedef int (plain_t);\n\
typedef int sig_t(size_t);\n\
typedef ARRAY(int) by_macro;\n\
int (fi) (void) { return 0; }\n";
    assert_eq!(
        names(src),
        vec![
            e("T305", 1, 1),
            e("fn_t", 2, 2),
            e("arr_t", 3, 3),
            e("plain_t", 4, 4),
            e("sig_t", 5, 5),
            e("by_macro", 6, 6),
            e("fi", 7, 7)
        ]
    );
}

#[test]
fn an_unclosed_brace_in_a_skipped_branch_holds_nothing() {
    let src = "#ifdef NEVER\n\
typedef struct {\n\
#endif\n\
int after(void) { return 1; }\n\
struct S { int a; };\n\
#if 1\n\
#else\n\
void open(void) {\n\
#endif\n\
int last(void) { return 2; }\n";
    let got: Vec<(usize, &str, String)> = flat(src)
        .into_iter()
        .map(|(d, k, n, _, _)| (d, k, n))
        .collect();
    assert_eq!(
        got,
        vec![
            (0, "function", "after".to_string()),
            (0, "struct", "S".to_string()),
            (0, "function", "last".to_string()),
        ]
    );
}

#[test]
fn an_unclosed_brace_in_a_kept_branch_still_holds_the_rest() {
    // An include guard's branch is compiled: what its open body holds is read as before.
    let src = "#ifndef H\n#define H\nstruct T {\nint f(void) { return 1; }\n#endif\n";
    let got: Vec<(usize, &str, String)> = flat(src)
        .into_iter()
        .map(|(d, k, n, _, _)| (d, k, n))
        .collect();
    assert_eq!(
        got,
        vec![
            (0, "macro", "H".to_string()),
            (0, "struct", "T".to_string()),
            (1, "method", "f".to_string()),
        ]
    );
}

#[test]
fn a_line_splice_joins_a_declaration_head() {
    let src = "int main \\\n(void) { return 0; }\n\
static int \\\r\n  twice(int x) { return 2 * x; }\n";
    assert_eq!(names(src), vec![e("main", 1, 2), e("twice", 3, 4)]);
}
