//! Unit tests for the brace family: per language, the lexical and grammar traps a compiler
//! reads one way and a naive scanner another.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::{parse, Spec};
use crate::parse::tests::flat_tree;
use crate::parse::{csharp, java, kotlin, php, swift};

type Flat = Vec<(usize, &'static str, String, usize, usize)>;

fn flat(text: &str, spec: &'static Spec) -> Flat {
    flat_tree(&parse(text, spec), false)
}

fn row(
    depth: usize,
    kind: &'static str,
    name: &str,
    line: usize,
    end: usize,
) -> (usize, &'static str, String, usize, usize) {
    (depth, kind, name.to_string(), line, end)
}

#[test]
fn java_text_blocks_chars_lambdas_and_anonymous_classes_hide_nothing() {
    let src = "class A {\n  String t = \"\"\"\n    void fake() { }\n    \"\"\";\n  char c = '}';\n  Runnable r = () -> { };\n  Object o = new Object() {\n    public String toString() { return \"}\"; }\n  };\n  Map<String, List<Integer>> m;\n  void real() {}\n}\n";
    assert_eq!(
        flat(src, &java::SPEC),
        vec![
            row(0, "class", "A", 1, 12),
            row(1, "field", "t", 2, 4),
            row(1, "field", "c", 5, 5),
            row(1, "field", "r", 6, 6),
            row(1, "field", "o", 7, 9),
            row(1, "field", "m", 10, 10),
            row(1, "method", "real", 11, 11),
        ]
    );
}

#[test]
fn java_enums_records_annotation_types_and_initialiser_blocks() {
    let src = "@Deprecated\npublic enum E {\n  A, B(1) {\n    void b() {}\n  }, C;\n  E() {}\n}\nrecord P(int x, int y) {\n  public P {\n  }\n  static { init(); }\n  { other(); }\n}\n@interface Tag {\n  int value() default 1;\n}\n";
    assert_eq!(
        flat(src, &java::SPEC),
        vec![
            row(0, "enum", "E", 2, 7),
            row(1, "constant", "A", 3, 3),
            row(1, "constant", "B", 3, 5),
            row(2, "method", "b", 4, 4),
            row(1, "constant", "C", 5, 5),
            row(1, "method", "E", 6, 6),
            row(0, "class", "P", 8, 13),
            row(1, "field", "x", 8, 8),
            row(1, "field", "y", 8, 8),
            row(1, "method", "P", 9, 10),
            row(0, "interface", "Tag", 14, 16),
            row(1, "method", "value", 15, 15),
        ]
    );
}

#[test]
fn java_generic_methods_and_non_sealed_types() {
    let src = "interface I {\n  <T> T get(Class<T> c) throws E;\n  Map<K, V>> bad();\n}\nnon-sealed class S extends B {}\n";
    let got = flat(src, &java::SPEC);
    assert_eq!(got[1], row(1, "method", "get", 2, 2));
    assert_eq!(got.last(), Some(&row(0, "class", "S", 5, 5)));
}

#[test]
fn csharp_strings_preprocessor_lines_and_members_without_keywords() {
    let src = concat!(
        "namespace N.M\n{\n",
        "  [Attr(\"{\")]\n",
        "  public class C : B\n#if X\n    , I\n#endif\n  {\n",
        "    string p = @\"C:\\\"\" }\";\n",
        "    string q = $\"{d[\"}\"]} {{\";\n",
        "    string r = @\"\"\"\";\n",
        "    public int X { get; set; } = 1;\n",
        "    public int Y => 2;\n",
        "    public int this[int i] => i;\n",
        "    ~C() { }\n",
        "    public static C operator +(C a, C b) => a;\n",
        "    public static implicit operator int(C c) => 0;\n",
        "    public (int a, int b) T() => (1, 2);\n",
        "    public event EventHandler E { add { } remove { } }\n",
        "  }\n}\n",
    );
    assert_eq!(
        flat(src, &csharp::SPEC),
        vec![
            row(0, "namespace", "N.M", 1, 21),
            row(1, "class", "C", 4, 20),
            row(2, "field", "p", 9, 9),
            row(2, "field", "q", 10, 10),
            row(2, "field", "r", 11, 11),
            row(2, "property", "X", 12, 12),
            row(2, "property", "Y", 13, 13),
            row(2, "property", "this", 14, 14),
            row(2, "method", "~C", 15, 15),
            row(2, "method", "operator +", 16, 16),
            row(2, "method", "implicit operator int", 17, 17),
            row(2, "method", "T", 18, 18),
            row(2, "property", "E", 19, 19),
        ]
    );
    let entries = parse(src, &csharp::SPEC);
    assert_eq!(
        entries[0].children[0].signature.as_deref(),
        Some("public class C : B , I")
    );
}

#[test]
fn csharp_file_scoped_namespaces_own_the_rest_of_the_file() {
    let src = "using System;\nnamespace A.B;\n\npublic record R(int X);\npublic record struct S(int Y);\npublic delegate void D(int x);\n";
    assert_eq!(
        flat(src, &csharp::SPEC),
        vec![
            row(0, "namespace", "A.B", 2, 6),
            row(1, "class", "R", 4, 4),
            row(2, "field", "X", 4, 4),
            row(1, "struct", "S", 5, 5),
            row(2, "field", "Y", 5, 5),
            row(1, "type", "D", 6, 6),
        ]
    );
}

#[test]
fn kotlin_primary_constructor_val_and_var_parameters_are_properties() {
    let src = concat!(
        "class A<T> @Inject internal constructor(\n",
        "  @get:JvmName(\"x\") val x: Int,\n",
        "  y: Int,\n",
        "  private var z: Map<String, Int> = mapOf(\"a\" to 1),\n",
        ") : Base(y) {\n",
        "  fun f() = x\n",
        "}\n",
        "data class P(val a: Int, val b: String = \"(,)\")\n",
        "enum class E(val code: Int) { ONE(1), TWO(2) }\n",
        "class Q : Base(1)\n",
        "fun g(val: Int) = val\n",
    );
    assert_eq!(
        flat(src, &kotlin::SPEC),
        vec![
            row(0, "class", "A", 1, 7),
            row(1, "property", "x", 2, 2),
            row(1, "property", "z", 4, 4),
            row(1, "method", "f", 6, 6),
            row(0, "class", "P", 8, 8),
            row(1, "property", "a", 8, 8),
            row(1, "property", "b", 8, 8),
            row(0, "enum", "E", 9, 9),
            row(1, "property", "code", 9, 9),
            row(1, "constant", "ONE", 9, 9),
            row(1, "constant", "TWO", 9, 9),
            row(0, "class", "Q", 10, 10),
            row(0, "function", "g", 11, 11),
        ]
    );
}

#[test]
fn kotlin_templates_raw_strings_nested_comments_and_line_ends() {
    let src = concat!(
        "/* a /* nested } */ { */\n",
        "val s = \"${ if (a) \"}\" else \"{\" } x\"\n",
        "val raw = \"\"\"\n  fun fake() {\n\"\"\"\n",
        "class C(val a: Int) :\n  B() {\n",
        "  var x: Int = 0\n    private set\n",
        "  val y: Int\n    get() = x\n",
        "  fun f(a: Int = 1) =\n    a + 1\n",
        "  constructor() : this(1)\n",
        "  companion object {\n    const val K = 1\n  }\n",
        "}\n",
        "fun <T> List<T>.second(): T = this[1]\n",
        "val String.size2: Int get() = length\n",
        "fun interface L { fun on() }\n",
    );
    assert_eq!(
        flat(src, &kotlin::SPEC),
        vec![
            row(0, "variable", "s", 2, 2),
            row(0, "variable", "raw", 3, 5),
            row(0, "class", "C", 6, 18),
            row(1, "property", "a", 6, 6),
            row(1, "property", "x", 8, 9),
            row(1, "property", "y", 10, 11),
            row(1, "method", "f", 12, 13),
            row(1, "method", "constructor", 14, 14),
            row(1, "class", "Companion", 15, 17),
            row(2, "constant", "K", 16, 16),
            row(0, "function", "List.second", 19, 19),
            row(0, "variable", "String.size2", 20, 20),
            row(0, "interface", "L", 21, 21),
            row(1, "method", "on", 21, 21),
        ]
    );
}

#[test]
fn swift_raw_strings_interpolation_extensions_and_members_named_by_keyword() {
    let src = concat!(
        "let p = #\"a \" { \"#\n",
        "let m = \"v \\(d[\"k\"]) }\"\n",
        "/* outer /* inner } */ */\n",
        "public final class C<T>: B {\n",
        "  public private(set) var n = 0\n",
        "  var c: Int {\n    n\n  }\n",
        "  init?(x: Int = { 1 }()) {}\n",
        "  deinit {}\n",
        "  subscript(i: Int) -> T? { nil }\n",
        "  class func make() -> C { C() }\n",
        "  static func == (a: C, b: C) -> Bool { true }\n",
        "}\n",
        "#if os(iOS)\nextension C: P where T: Q {\n  func g() {}\n}\n#endif\n",
        "extension [String] {}\n",
        "enum E { case a, b(Int)\n  indirect case c(E) }\n",
    );
    assert_eq!(
        flat(src, &swift::SPEC),
        vec![
            row(0, "variable", "p", 1, 1),
            row(0, "variable", "m", 2, 2),
            row(0, "class", "C", 4, 14),
            row(1, "property", "n", 5, 5),
            row(1, "property", "c", 6, 8),
            row(1, "method", "init", 9, 9),
            row(1, "method", "deinit", 10, 10),
            row(1, "method", "subscript", 11, 11),
            row(1, "method", "make", 12, 12),
            row(1, "method", "==", 13, 13),
            row(0, "impl", "C", 16, 18),
            row(1, "method", "g", 17, 17),
            row(0, "impl", "[String]", 20, 20),
            row(0, "enum", "E", 21, 22),
            row(1, "constant", "a", 21, 21),
            row(1, "constant", "b", 21, 21),
            row(1, "constant", "c", 22, 22),
        ]
    );
}

#[test]
fn junk_and_deep_nesting_end_without_panic() {
    for spec in [&java::SPEC, &csharp::SPEC, &kotlin::SPEC, &swift::SPEC] {
        for junk in [
            "class",
            "class {",
            "fun (",
            "@",
            "~",
            "<<<<",
            "enum E { A, ",
            "\"${\"",
            "#\"",
            "init?",
        ] {
            let _ = parse(junk, spec);
        }
        let deep = "class A {".repeat(200);
        let entries = parse(&deep, spec);
        assert_eq!(entries.len(), 1);
    }
}

#[test]
fn php_promoted_constructor_parameters_are_fields() {
    let src = concat!(
        "<?php\n",
        "final class Point {\n",
        "  public function __construct(\n",
        "    #[Assert] private readonly float $x = 0.0,\n",
        "    protected array $tags = ['a', 'b'],\n",
        "    $plain = 1,\n",
        "    int ...$rest,\n",
        "  ) {}\n",
        "  public function move(private $notPromoted) {}\n",
        "}\n",
        "function __construct(public $free) {}\n",
    );
    assert_eq!(
        flat(src, &php::SPEC),
        vec![
            row(0, "class", "Point", 2, 10),
            row(1, "method", "__construct", 3, 8),
            row(1, "field", "$x", 4, 4),
            row(1, "field", "$tags", 5, 5),
            row(1, "method", "move", 9, 9),
            row(0, "function", "__construct", 11, 11),
        ]
    );
}

#[test]
fn php_templates_heredocs_if_blocks_and_sigils() {
    let src = concat!(
        "<p>{</p>\n",
        "<?php\n",
        "namespace {\n",
        "if (!function_exists('f')) {\n  function f() {}\n}\n",
        "}\n",
        "class C {\n",
        "  use T { T::a insteadof U; }\n",
        "  const A = 1, B = 2;\n",
        "  private ?int $n = null;\n",
        "  public function &g(): int {\n    $s = <<<EOT\n  }\n  EOT;\n    return 1;\n  }\n",
        "}\n",
        "?>\n<i>}</i>\n<?php function h() {}\n",
    );
    assert_eq!(
        flat(src, &php::SPEC),
        vec![
            row(0, "function", "f", 5, 5),
            row(0, "class", "C", 8, 18),
            row(1, "constant", "A", 10, 10),
            row(1, "constant", "B", 10, 10),
            row(1, "field", "$n", 11, 11),
            row(1, "method", "g", 12, 17),
            row(0, "function", "h", 21, 21),
        ]
    );
}

#[test]
fn swift_operator_functions_and_swift_5_9_modifiers() {
    let src = "public func && <T>(l: V<T>, r: V<T>) -> V<T> {\n  l\n}\npublic func ||<T> (l: V<T?>, r: V<T>) -> V<T?> {\n  l\n}\nfunc <*> (a: A, b: A) -> A { a }\npackage struct Live: Sendable {\n  package init(app: App) {\n    self.app = app\n  }\n  consuming func finish() async throws\n  borrowing func peek() {}\n}\n";
    assert_eq!(
        flat(src, &swift::SPEC),
        vec![
            row(0, "function", "&&", 1, 3),
            row(0, "function", "||", 4, 6),
            row(0, "function", "<*>", 7, 7),
            row(0, "struct", "Live", 8, 14),
            row(1, "method", "init", 9, 11),
            row(1, "method", "finish", 12, 12),
            row(1, "method", "peek", 13, 13),
        ]
    );
}

#[test]
fn kotlin_extension_receivers_nullable_qualified_and_nested() {
    let src = "internal val Any?.hashCodeOrZero: Int\n  get() {\n    return 0\n  }\nfun java.io.File.ext(): Int = 1\nval FileSystem.Companion.SYSTEM: FileSystem get() = x\nfun <T> List<T>?.second(): T = this!![1]\nfun <T> (suspend () -> T).startCancellable(c: C<T>): Unit = run {\n}\nfun ((Int) -> Unit)?.safe() {}\n";
    assert_eq!(
        flat(src, &kotlin::SPEC),
        vec![
            row(0, "variable", "Any.hashCodeOrZero", 1, 4),
            row(0, "function", "File.ext", 5, 5),
            row(0, "variable", "FileSystem.Companion.SYSTEM", 6, 6),
            row(0, "function", "List.second", 7, 7),
            row(0, "function", "startCancellable", 8, 9),
            row(0, "function", "safe", 10, 10),
        ]
    );
}

#[test]
fn csharp_primary_constructor_parameters_are_members_of_records_only() {
    let src = "record struct P(int X, int Y);\npublic record R(string Name) { }\nclass C(int x) {\n  int y;\n}\nstruct S(int a) { }\n";
    assert_eq!(
        flat(src, &csharp::SPEC),
        vec![
            row(0, "struct", "P", 1, 1),
            row(1, "field", "X", 1, 1),
            row(1, "field", "Y", 1, 1),
            row(0, "class", "R", 2, 2),
            row(1, "field", "Name", 2, 2),
            row(0, "class", "C", 3, 5),
            row(1, "field", "y", 4, 4),
            row(0, "struct", "S", 6, 6),
        ]
    );
}

#[test]
fn swift_a_where_clause_alone_on_its_line_continues_the_head() {
    let src =
        "extension A\nwhere\n  Self: B\n{\n  func f() {}\n}\nlet somewhere = 1\nstruct S {}\n";
    assert_eq!(
        flat(src, &swift::SPEC),
        vec![
            row(0, "impl", "A", 1, 6),
            row(1, "method", "f", 5, 5),
            row(0, "variable", "somewhere", 7, 7),
            row(0, "struct", "S", 8, 8),
        ]
    );
}

#[test]
fn csharp_a_head_written_twice_under_if_and_else_signs_as_the_first() {
    let src = "class P\n{\n#if SPAN\n    public int[] Make(ReadOnlySpan<object> values)\n#elif OTHER\n#if NESTED\n#endif\n    public int[] Make(List<object> values)\n#else\n    public int[] Make(object[] values)\n#endif\n    {\n        return null;\n    }\n}\n";
    let entries = parse(src, &csharp::SPEC);
    let make = &entries[0].children[0];
    assert_eq!((make.name(), make.line, make.end_line), ("Make", 4, 14));
    assert_eq!(
        make.signature.as_deref(),
        Some("public int[] Make(ReadOnlySpan<object> values)")
    );
}

#[test]
fn csharp_14_extension_blocks_hold_their_members() {
    let src = "static class E {\n  extension(Response r) {\n    public int Code() => 1;\n  }\n  extension<T>(Response<T> r) {\n    public T Body { get; }\n  }\n  static string extension = \"x\";\n}\n";
    assert_eq!(
        flat(src, &csharp::SPEC),
        vec![
            row(0, "class", "E", 1, 9),
            row(1, "impl", "extension", 2, 4),
            row(2, "method", "Code", 3, 3),
            row(1, "impl", "extension", 5, 7),
            row(2, "property", "Body", 6, 6),
            row(1, "field", "extension", 8, 8),
        ]
    );
}

#[test]
fn csharp_record_parameters_with_default_values_are_named_by_their_names() {
    let src = "readonly record struct Forms(\n    string Default,\n    string? Zero = null,\n    int Count = 1 + 2)\n{\n}\n";
    let entries = parse(src, &csharp::SPEC);
    let names: Vec<(&str, Option<&str>)> = (entries[0].children.iter())
        .map(|e| (e.name(), e.signature.as_deref()))
        .collect();
    assert_eq!(
        names,
        [
            ("Default", Some("string Default")),
            ("Zero", Some("string? Zero")),
            ("Count", Some("int Count")),
        ]
    );
}

#[test]
fn csharp_top_level_statements_end_with_their_blocks() {
    let src = "using System;\n\nif (args.Length < 2)\n{\n    return 2;\n}\nelse { Run(); }\n\nvar input = Load(args[0]);\n\nstatic int Load(string p)\n{\n    return 1;\n}\n\nsealed class Input\n{\n    public required string Kind { get; init; }\n}\n";
    assert_eq!(
        flat(src, &csharp::SPEC),
        vec![
            row(0, "class", "Input", 16, 19),
            row(1, "property", "Kind", 18, 18),
        ]
    );
}

#[test]
fn kotlin_generics_opened_at_a_line_end_and_one_declarator_per_val() {
    let src = "internal object Hook : ClientHook<\n    suspend Ctx.(\n        a: Int,\n    ) -> Unit\n    > {\n    override fun install(c: Client) {\n    }\n}\nclass Gun {\n    internal val continuation: C<Unit> = object : C<Unit>, Frame {\n        override val callerFrame: Frame? get() = null\n    }\n}\n";
    assert_eq!(
        flat(src, &kotlin::SPEC),
        vec![
            row(0, "class", "Hook", 1, 8),
            row(1, "method", "install", 6, 7),
            row(0, "class", "Gun", 9, 13),
            row(1, "property", "continuation", 10, 12),
        ]
    );
}

#[test]
fn quoted_identifiers_with_a_quote_inside_hide_nothing() {
    // A test named in backticks may hold an apostrophe: Kotlin and Swift read it as part of
    // the name, not as a character literal that swallows what follows.
    let kotlin_src = "class ScreenTest {\n  @Test fun `an object's menu copies a link`() {\n    val copied = mutableListOf<String>()\n  }\n\n  @Test fun `a bitmap's pixels`() {}\n}\n";
    assert_eq!(
        flat(kotlin_src, &kotlin::SPEC),
        vec![
            row(0, "class", "ScreenTest", 1, 7),
            row(1, "method", "an object's menu copies a link", 2, 4),
            row(1, "method", "a bitmap's pixels", 6, 6),
        ]
    );
    let swift_src =
        "struct T {\n  func `it's raw`() {\n    let s = \"}\"\n  }\n  func after() {}\n}\n";
    assert_eq!(
        flat(swift_src, &swift::SPEC),
        vec![
            row(0, "struct", "T", 1, 6),
            row(1, "method", "it's raw", 2, 4),
            row(1, "method", "after", 5, 5),
        ]
    );
}

#[test]
fn kotlin_initializers_are_expressions_and_infix_words_continue_a_line() {
    // A getter's `= if (…) { … } else { … }` is one expression: its first block is no body.
    // A line ending with `%` or an infix word (`or`, `shl`) goes on.
    let src = "class K {\n  val instances: Sequence<Int>\n    get() = if (!a) {\n      b\n    } else {\n      c\n    }\n\n  val y = 1\n}\n\nprivate fun n(d: Float): Float =\n  (d % 2f + 1f) %\n    3f\n\nprivate fun ByteArray.intAt(i: Int): Int = (b(i) shl 24) or\n  (b(i + 1) shl 16) or\n  b(i + 3)\n\nfun step(x: Int) = x + step\n\nfun after() {}\n";
    assert_eq!(
        flat(src, &kotlin::SPEC),
        vec![
            row(0, "class", "K", 1, 10),
            row(1, "property", "instances", 2, 7),
            row(1, "property", "y", 9, 9),
            row(0, "function", "n", 12, 14),
            row(0, "function", "ByteArray.intAt", 16, 18),
            row(0, "function", "step", 20, 20),
            row(0, "function", "after", 22, 22),
        ]
    );
    // An initializer on the next line leaves no `=` at the signature's end.
    let swift_src =
        "struct S {\n  static let formatter: NumberFormatter =\n    NumberFormatter()\n}\n";
    let entries = parse(swift_src, &swift::SPEC);
    let property = &entries[0].children[0];
    assert_eq!(
        (property.end_line, property.label()),
        (3, "static let formatter: NumberFormatter")
    );
}
