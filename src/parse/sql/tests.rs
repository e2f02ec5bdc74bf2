use super::*;

fn flat(src: &str) -> Vec<(Kind, String, usize, usize)> {
    fn go(e: &[Entry], out: &mut Vec<(Kind, String, usize, usize)>) {
        for x in e {
            out.push((x.kind, x.name.clone(), x.line, x.end_line));
            go(&x.children, out);
        }
    }
    let mut out = Vec::new();
    go(&parse(src), &mut out);
    out
}

#[test]
fn basic() {
    let got = flat("CREATE TABLE a (x int, y text);\n");
    assert_eq!(got.len(), 3);
}
