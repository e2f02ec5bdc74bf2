#![allow(clippy::unwrap_used)]
use super::*;
use crate::lang::Language;

/// `kind name line-end` per entry, indented by depth.
fn outline(src: &str, language: Language, jsx: bool) -> String {
    fn walk(entries: &[Entry], depth: usize, out: &mut String) {
        for e in entries {
            out.push_str(&format!(
                "{}{} {} {}-{}\n",
                "  ".repeat(depth),
                e.kind,
                e.name(),
                e.line,
                e.end_line
            ));
            walk(&e.children, depth + 1, out);
        }
    }
    let mut out = String::new();
    walk(
        &parse(
            src,
            ParseOptions {
                language,
                jsx,
                rake: false,
            },
        ),
        0,
        &mut out,
    );
    out
}

fn ts(src: &str) -> String {
    outline(src, Language::TypeScript, false)
}

fn tsx(src: &str) -> String {
    outline(src, Language::TypeScript, true)
}

fn js(src: &str) -> String {
    outline(src, Language::JavaScript, true)
}

fn signatures(src: &str, jsx: bool) -> Vec<String> {
    fn walk(entries: &[Entry], out: &mut Vec<String>) {
        for e in entries {
            out.push(
                e.signature
                    .as_deref()
                    .map(str::to_string)
                    .unwrap_or_default(),
            );
            walk(&e.children, out);
        }
    }
    let mut out = Vec::new();
    walk(
        &parse(
            src,
            ParseOptions {
                language: Language::TypeScript,
                jsx,
                rake: false,
            },
        ),
        &mut out,
    );
    out
}

#[test]
fn declarations_and_declarators() {
    let src = "export function a(x: number): string {\n  return `${ {a:1} }`\n}\nconst b = 1, c = () => 2\nlet d\nvar e = function () {\n}\n";
    assert_eq!(
        ts(src),
        "function a 1-3\nconstant b 4-4\nfunction c 4-4\nvariable d 5-5\nfunction e 6-7\n"
    );
}

#[test]
fn literals_do_not_hide_or_invent_declarations() {
    let src = "#!/usr/bin/env node\n// function commented() {\n/* class Hidden { */\nconst re = /[{\"']/g, half = total / 2 / 3\nconst tpl = `a ${ {a: 1}.a } ${`nested ${x} }`} {`\nconst s = \"function fake() {\", t = 'class X {'\nfunction after() {}\n";
    assert_eq!(
        js(src),
        "constant re 4-4\nconstant half 4-4\nconstant tpl 5-5\nconstant s 6-6\nconstant t 6-6\nfunction after 7-7\n"
    );
}

#[test]
fn multi_line_template_and_regex_ends() {
    let src = "export const sh = `line {\n${x}\n}`\nconst r = /a\\/b/\nconst n = 1\n";
    assert_eq!(js(src), "constant sh 1-3\nconstant r 4-4\nconstant n 5-5\n");
}

#[test]
fn jsx_text_and_generics_in_tsx() {
    let src = r#"export const identity = <T,>(x: T): T => x
export const Gen = <T extends object>(p: P<T>) => <div>{p.x}</div>
export function App({ name }: { name: string }) {
  return (
    <div className="app" onClick={() => setS("{")}>
      <p>Don't {name} stop, see http://x.y/{name}</p>
      <>it's {'}'} fine</>
    </div>
  )
}
export const List = () =>
  <ul>
    <li>one</li>
  </ul>
const ratio = a / b, other = c < d
"#;
    assert_eq!(
        tsx(src),
        "function identity 1-1\nfunction Gen 2-2\nfunction App 3-10\nfunction List 11-14\nconstant ratio 15-15\nconstant other 15-15\n"
    );
}

#[test]
fn class_members() {
    let src = r#"@Component({
  selector: 'app',
  template: '<p>{{x}}</p>',
})
export class Foo<T> extends Bar implements Baz {
  @Input() name: string
  handle = () => {
    console.log('x')
  }
  static async *gen() {}
  [Symbol.iterator]() { return this }
  get value(): number { return 1 }
  set value(v: number) {}
  foo?(): void
  [key: string]: any
  #secret = 1
  private async fetchUser(id: string): Promise<User> {
    return api.get(`/u/${id}`)
  }
  overload(a: string): void
  overload(a: any) {}
  constructor(private readonly svc: Service) {
    super()
  }
  static {
    init()
  }
  get = 1
}
"#;
    assert_eq!(
        ts(src),
        "class Foo 5-29
  property name 6-6
  method handle 7-9
  method gen 10-10
  method [Symbol.iterator] 11-11
  method value 12-12
  method value 13-13
  method foo 14-14
  property #secret 16-16
  method fetchUser 17-19
  method overload 20-20
  method overload 21-21
  method constructor 22-24
  property get 28-28
"
    );
    let sigs = signatures(src, false);
    assert_eq!(sigs[0], "export Foo<T> extends Bar implements Baz");
    assert_eq!(
        sigs[9],
        "private async fetchUser(id: string): Promise<User>"
    );
}

#[test]
fn typescript_declarations() {
    let src = r#"declare module "x" {
  export function f(a: string): void;
  export function f(a: number): void;
}
declare global {
  interface Window { foo: string }
}
export namespace A.B {
  export const c = 1
}
export declare function amb(x: number): string
export declare const enum Dir { Up = 1, Down }
export abstract class Shape {
  abstract area(): number
}
export default class {
  m() {}
}
type Fn<T> = (x: T) => void
type U =
  | "a"
  | "b"
export type { U as V }
export { a as b }
export = Foo
interface Multi extends
  Pick<A,
    | "x">
{
  x: number
}
"#;
    assert_eq!(
        ts(src),
        "namespace x 1-4
  function f 2-2
  function f 3-3
interface Window 6-6
  property foo 6-6
namespace A.B 8-10
  constant c 9-9
function amb 11-11
enum Dir 12-12
  constant Up 12-12
  constant Down 12-12
class Shape 13-15
  method area 14-14
class default 16-18
  method m 17-17
type Fn 19-19
type U 20-22
interface Multi 26-31
  property x 30-30
"
    );
}

#[test]
fn assignments_and_iifes() {
    let src = "(function () {\n  function hidden() {}\n  exports.inner = function () {}\n})()\nexports.f = function () {}\nFoo.prototype.render = function render() {\n  return 1\n}\nmodule.exports = { a }\nobj.bound = function () {}.bind(this)\nA.B = class {\n  m() {}\n}\nx = function () {}\nhmr['virtual:inc'] = () => {}\nrequire('x').y = function () {}\n";
    assert_eq!(
        js(src),
        "function f 5-5\nmethod render 6-8\nclass B 11-13\n  method m 12-12\nfunction x 14-14\nfunction y 16-16\n"
    );
}

#[test]
fn asi_without_semicolons() {
    let src = "const a = 1\nlet b = a\n  + 2\nconst c = foo\n  .bar()\n  .baz()\nconst d = cond\n  ? 1\n  : 2\n;[1, 2].forEach(f)\nconst e = () => ({\n  a: 1,\n})\nfunction g() {}\n";
    assert_eq!(
        js(src),
        "constant a 1-1\nvariable b 2-3\nconstant c 4-6\nconstant d 7-9\nfunction e 11-13\nfunction g 14-14\n"
    );
}

#[test]
fn crlf_tabs_and_no_final_newline() {
    let src =
        "export function a() {\r\n\treturn 1\r\n}\r\nconst b = 2\r\nclass C {\r\n\tm() {}\r\n}";
    assert_eq!(
        ts(src),
        "function a 1-3\nconstant b 4-4\nclass C 5-7\n  method m 6-6\n"
    );
}

#[test]
fn type_assertions_in_plain_typescript() {
    let src = "const w = <any>window\nconst n = <number>(x as unknown)\nfunction f() {}\n";
    assert_eq!(ts(src), "constant w 1-1\nconstant n 2-2\nfunction f 3-3\n");
}

#[test]
fn empty_and_unbalanced_input_do_not_panic() {
    for src in [
        "",
        "{",
        "}",
        "class",
        "function",
        "const",
        "class A {",
        "function f(",
        "const x = `${",
        "<div>",
        "const a = <div>{",
        "export default",
        "declare module",
        "a.b = function(",
        "/* never",
        "'",
        "x = /",
        "@",
        "class A { @",
        "type X = <",
        "namespace A.",
        "\u{0}\u{1}\u{ff}é{([<",
    ] {
        let _ = ts(src);
        let _ = tsx(src);
        let _ = js(src);
    }
}

#[test]
fn truncations_and_mutations_do_not_panic() {
    let base = include_str!("../../../tests/fixtures/typescript/widgets.tsx");
    let bytes = base.as_bytes();
    for cut in (0..bytes.len()).step_by(7) {
        let text = String::from_utf8_lossy(&bytes[..cut]);
        let _ = tsx(&text);
    }
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..200 {
        let mut v = bytes.to_vec();
        for _ in 0..8 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let at = (seed as usize) % v.len().max(1);
            let junk = b"{}()[]<>`'\"/\n*@=;";
            v[at] = junk[(seed >> 32) as usize % junk.len()];
        }
        let text = String::from_utf8_lossy(&v);
        let _ = tsx(&text);
        let _ = ts(&text);
    }
}

#[test]
fn interface_and_enum_members() {
    let src = "interface I {\n  readonly a: string;\n  b?(x: number): void,\n  [key: string]: unknown\n  new (x: string): I\n  (call: number): void\n  'quoted-key': {\n    nested: 1\n  }\n  get size(): number\n}\nenum E {\n  A = 1,\n  'B' = A << 1,\n  C\n}\n";
    assert_eq!(
        ts(src),
        "interface I 1-11\n  property a 2-2\n  method b 3-3\n  property quoted-key 7-9\n  method size 10-10\nenum E 12-16\n  constant A 13-13\n  constant B 14-14\n  constant C 15-15\n"
    );
}

#[test]
fn type_arguments_do_not_split_declarators() {
    let src = "const getState = (\n  name: string,\n): Record<string, any> => {\n  return {}\n}\nexport const cache = _cache as Map<string, Result>\nconst m = new Map<string, number>(), n = useState<A, B>(x)\nconst label = (v: unknown): any =>\n  // a comment line\n  isSymbol(v) ? 1 : v\nconst gen = <\n  TData = unknown,\n  TError = Error,\n>(\n  e: TError,\n) => e\n";
    assert_eq!(
        ts(src),
        "function getState 1-5\nconstant cache 6-6\nconstant m 7-7\nconstant n 7-7\nfunction label 8-10\nfunction gen 11-16\n"
    );
}

#[test]
fn non_null_assertion_at_line_end() {
    let src = "class R {\n  public _value: T = undefined!\n\n  constructor(f: F) {\n    this.f = f\n  }\n}\n";
    assert_eq!(
        ts(src),
        "class R 1-7\n  property _value 2-2\n  method constructor 4-6\n"
    );
}

#[test]
fn regex_flags_at_line_end() {
    let src = "const re =\n  /<script[^>]*type=(?:\"module\"|'module')[^>]*>/is\nconst next = 1\n";
    assert_eq!(ts(src), "constant re 1-2\nconstant next 3-3\n");
}

#[test]
fn object_literal_methods_of_top_level_values() {
    let src = "module.exports = {\n  parse(text) {\n    return text\n  },\n  stringify: function (v) { return String(v) },\n  name: 'x',\n  ...rest,\n  nested: {\n    deep() {},\n  },\n}\nexport default {\n  data() { return { a: 1 } },\n}\nconst api = { get: () => fetch('/'), n: 1 }\nconst called = { a() {} }.a()\n";
    assert_eq!(
        js(src),
        "method parse 2-4\nmethod stringify 5-5\nproperty nested 8-10\n  method deep 9-9\nmethod data 13-13\nconstant api 15-15\n  method get 15-15\nconstant called 16-16\n"
    );
}

#[test]
fn destructuring_declarations_list_every_bound_name() {
    let src = "const { a, b: c, ...rest } = obj;\nlet [d, , e = 1] = arr;\n\
var { f: { g, h: [i] }, ['k' + 1]: j, l = () => { return 1 } } = nested,\n  m = 2;\n\
const [n, ...{ length }] = list\nconst { 0: zero, 'quoted-key': q } = o\n";
    assert_eq!(
        js(src),
        "constant a 1-1\nconstant c 1-1\nconstant rest 1-1\nvariable d 2-2\nvariable e 2-2\n\
variable g 3-3\nvariable i 3-3\nvariable j 3-3\nvariable l 3-3\nvariable m 4-4\n\
constant n 5-5\nconstant length 5-5\nconstant zero 6-6\nconstant q 6-6\n"
    );
    let sigs = signatures("export const { a, b: c } = obj;\n", false);
    assert_eq!(sigs, vec!["export const a", "export const c"]);
}

#[test]
fn assignments_to_undeclared_top_level_names() {
    let src =
        "function2 = function() {};\nMyClass = {\n  m: function() {},\n  n() {}\n}\ncount = 1\n\
Later = class {\n  run() {}\n}\nif (x) { hidden = function () {} }\n";
    assert_eq!(
        js(src),
        "function function2 1-1\nvariable MyClass 2-5\n  method m 3-3\n  method n 4-4\n\
class Later 7-9\n  method run 8-8\n"
    );
}

#[test]
fn unicode_escapes_are_part_of_names() {
    let src = "function \\u00E9_2(){}\nclass C\\u{1F600}x {}\nconst a\\u0062 = 1;\nfunction bad\\u00(){}\n";
    assert_eq!(
        js(src),
        "function \\u00E9_2 1-1\nclass C\\u{1F600}x 2-2\nconstant a\\u0062 3-3\nfunction bad 4-4\n"
    );
}

#[test]
fn a_line_starting_with_a_comma_continues_the_declarators() {
    let src = "let d\n, e\n, f;\nvar g = 1\n  , h\nlet i\nj = 2\n";
    assert_eq!(
        js(src),
        "variable d 1-1\nvariable e 2-2\nvariable f 3-3\nvariable g 4-4\nvariable h 5-5\n\
variable i 6-6\n"
    );
}

#[test]
fn quoted_keys_are_named_as_written_inside_their_quotes() {
    let src = "var o = { '\"hello': function(){}, \"w'x\": () => 1, plain() {} };\n";
    assert_eq!(
        js(src),
        "variable o 1-1\n  method \"hello 1-1\n  method w'x 1-1\n  method plain 1-1\n"
    );
}

#[test]
fn every_target_of_a_chained_assignment_is_listed() {
    let src = "A.prototype.m3 = A.prototype.m4 = () => {};\na = b.c = function () {\n};\n\
x.y = z == 1;\n";
    assert_eq!(
        js(src),
        "method m3 1-1\nmethod m4 1-1\nfunction a 2-3\nfunction c 2-3\n"
    );
}

#[test]
fn parenthesised_functions_are_functions() {
    let src = "var p = ((a) => a);\nvar q = (1, function(){});\nvar r = (((b) => b));\n\
var iife = (function(){ return 1; })();\nvar n = (1, 2);\nexports.s = (class {});\n";
    assert_eq!(
        js(src),
        "function p 1-1\nfunction q 2-2\nfunction r 3-3\nvariable iife 4-4\nvariable n 5-5\n\
class s 6-6\n"
    );
}
