#![allow(clippy::unwrap_used)]
use super::*;
use crate::lang::Language;

fn outline(src: &str, lang: Language, jsx: bool) -> Vec<(usize, String, Kind, usize, usize)> {
    let entries = parse(src, ParseOptions { language: lang, jsx });
    let mut flat = Vec::new();
    fn walk(e: &[Entry], depth: usize, out: &mut Vec<(usize, String, Kind, usize, usize)>) {
        for x in e {
            out.push((depth, x.name.clone(), x.kind, x.line, x.end_line));
            walk(&x.children, depth + 1, out);
        }
    }
    walk(&entries, 0, &mut flat);
    flat
}

fn ts(src: &str) -> Vec<(usize, String, Kind, usize, usize)> {
    outline(src, Language::TypeScript, false)
}

fn show(v: &[(usize, String, Kind, usize, usize)]) -> String {
    v.iter()
        .map(|(d, n, k, l, e)| format!("{}{k} {n} {l}-{e}\n", "  ".repeat(*d)))
        .collect()
}

#[test]
fn basic_declarations() {
    let src = "export function a(x: number): string {\n  return `${ {a:1} }`\n}\nconst b = 1, c = () => 2\nlet d\nvar e = function () {\n}\n";
    let got = ts(src);
    assert_eq!(
        show(&got),
        "function a 1-3\nconstant b 4-4\nfunction c 4-4\nvariable d 5-5\nfunction e 6-7\n"
    );
}
