#![allow(clippy::unwrap_used)]

use super::{is_one_line, one_line, parse, push_preview, single_spaced, MAX_VALUE_CHARS};
use crate::lang::Language;
use crate::outline::{Entry, Kind, Outline};

/// (depth, kind, name, line, end_line, signature) for every entry, depth first.
fn flat(text: &str, language: Language) -> Vec<(usize, Kind, String, usize, usize, String)> {
    let outline = Outline::new(
        language,
        crate::parse::count_lines(text),
        text.len(),
        parse(text, language),
    );
    outline
        .walk()
        .into_iter()
        .map(|(depth, e)| {
            (
                depth,
                e.kind,
                e.name().to_string(),
                e.line,
                e.end_line,
                e.signature.as_deref().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// `depth name line-end signature` lines, for compact assertions.
fn show(text: &str, language: Language) -> Vec<String> {
    flat(text, language)
        .into_iter()
        .map(|(depth, kind, name, line, end, sig)| {
            let kind = if kind == Kind::Key {
                String::new()
            } else {
                format!("{kind} ")
            };
            format!("{}{kind}{name} {line}-{end} | {sig}", "  ".repeat(depth))
        })
        .collect()
}

fn count(entries: &[Entry]) -> usize {
    entries.iter().map(Entry::subtree_len).sum()
}

#[test]
fn json_keys_nest_with_value_summaries() {
    let text = r#"{
  "type": "openrouter",
  "port": 8080,
  "enabled": true,
  "x": null,
  "provider": {
    "name": "a \"quoted\" {brace}",
    "url": "https://example.com/a/very/long/path/that/goes/on/and/on",
    "nested": {"deep": [1, 2]}
  },
  "models": [
    {"id": "m1"},
    {"id": "m2", "tags": []}
  ],
  "empty": {}
}
"#;
    assert_eq!(
        show(text, Language::Json),
        vec![
            "type 2-2 | type: \"openrouter\"",
            "port 3-3 | port: 8080",
            "enabled 4-4 | enabled: true",
            "x 5-5 | x: null",
            "provider 6-10 | provider: {3 keys}",
            "  name 7-7 | name: \"a \\\"quoted\\\" {brace}\"",
            "  url 8-8 | url: \"https://example.com/a/very/long/path/th…",
            "  nested 9-9 | nested: {1 key}",
            "    deep 9-9 | deep: [2 items]",
            "models 11-14 | models: [2 items]",
            "  id 12-12 | id: \"m1\"",
            "  id 13-13 | id: \"m2\"",
            "  tags 13-13 | tags: []",
            "empty 15-15 | empty: {}",
        ]
    );
}

#[test]
fn jsonc_comments_trailing_commas_and_escaped_keys() {
    let text = "// settings\r\n{\r\n  /* block { \"no\": 1 } */\r\n  \"a\\\"b\": 1, // note: {\r\n  \"list\": [\r\n    1,\r\n    2,\r\n  ],\r\n  \"\\u00e9t\\u00e9\": \"x\",\r\n  \"two\\nlines\": 2\r\n}";
    assert_eq!(
        show(text, Language::Json),
        vec![
            "a\"b 4-4 | a\"b: 1",
            "list 5-8 | list: [2 items]",
            "été 9-9 | été: \"x\"",
            "two lines 10-10 | two lines: 2",
        ]
    );
}

#[test]
fn json_broken_input_keeps_partial_structure() {
    let text = "{\n  \"a\": {\n    \"b\": 1,\n    \"c\": [1, 2\n  \"d\": tru";
    let got = show(text, Language::Json);
    // The unclosed array swallows the rest: `"d"` and `tru` are items of `c`.
    assert_eq!(
        got,
        vec![
            "a 2-5 | a: {2 keys}",
            "  b 3-3 | b: 1",
            "  c 4-5 | c: [4 items]"
        ]
    );
    // Mismatched closers and stray tokens do not panic.
    for junk in [
        "}",
        "]]]",
        "{\"a\":}",
        "{:::}",
        "[\"a\": 1]",
        "{\"a\" \"b\": 2}",
        "\"",
        "{\"a",
        "/*",
        "{\"k\"//\n:1}",
    ] {
        let _ = parse(junk, Language::Json);
    }
    assert_eq!(show("{\"k\"//c\n:1}", Language::Json), vec!["k 1-2 | k: 1"]);
}

#[test]
fn json_deep_and_minified_input() {
    let deep = format!("{}{}", "[".repeat(100_000), "{\"a\":".repeat(50_000));
    let _ = parse(&deep, Language::Json);
    let nested = format!("{}1{}", "{\"a\":".repeat(1000), "}".repeat(1000));
    let entries = parse(&nested, Language::Json);
    assert_eq!(count(&entries), super::MAX_DEPTH);
    let outline = Outline::new(Language::Json, 1, nested.len(), entries);
    assert_eq!(outline.entries[0].signature.as_deref(), Some("a: {1 key}"));
    let item = "{\"id\":1,\"name\":\"x\\\"}\",\"v\":[1,{\"w\":2}]}";
    let minified = format!("[{}]", vec![item; 20_000].join(","));
    let entries = parse(&minified, Language::Json);
    assert_eq!(count(&entries), 80_000);
}

#[test]
fn yaml_block_mappings_sequences_and_scalars() {
    let text = "\
# comment: not a key
name: CI
on:
  push:
    branches: [main, 'release/*']
  pull_request:
jobs:
  build:
    runs-on: ubuntu-latest   # trailing: comment
    steps:
      - uses: actions/checkout@v4
      - name: Run
        run: |
          echo \"key: value\"
          cat <<EOF
          nested: no
          EOF

      - run: >-
          folded: text
    env: {A: 1, B: {C: 2}}
  empty:
url: http://x.org/a:b
\"quoted key\": 'it''s: fine'
? complex
: value
";
    assert_eq!(
        show(text, Language::Yaml),
        vec![
            "name 2-2 | name: CI",
            "on 3-6 | on: {2 keys}",
            "  push 4-5 | push: {1 key}",
            "    branches 5-5 | branches: [2 items]",
            "  pull_request 6-6 | pull_request:",
            "jobs 7-22 | jobs: {2 keys}",
            "  build 8-21 | build: {3 keys}",
            "    runs-on 9-9 | runs-on: ubuntu-latest",
            "    steps 10-20 | steps: [3 items]",
            "      uses 11-11 | uses: actions/checkout@v4",
            "      name 12-12 | name: Run",
            "      run 13-17 | run: | echo \"key: value\" cat <<EOF nested: no…",
            "      run 19-20 | run: >- folded: text",
            "    env 21-21 | env: {2 keys}",
            "      A 21-21 | A: 1",
            "      B 21-21 | B: {1 key}",
            "        C 21-21 | C: 2",
            "  empty 22-22 | empty:",
            "url 23-23 | url: http://x.org/a:b",
            "quoted key 24-24 | quoted key: 'it''s: fine'",
            "complex 25-26 | complex: value",
        ]
    );
}

#[test]
fn yaml_documents_anchors_and_sequences_at_key_indent() {
    let text = "\
%YAML 1.2
---
base: &base
  a: 1
  b: 2
derived:
  <<: *base
  list:
  - x
  - y: 1
    z: 2
  # trailing comment belongs to the block
other: !!str plain
...
---
second: doc
";
    assert_eq!(
        show(text, Language::Yaml),
        vec![
            "base 3-5 | base: &base {2 keys}",
            "  a 4-4 | a: 1",
            "  b 5-5 | b: 2",
            "derived 6-12 | derived: {2 keys}",
            "  << 7-7 | <<: *base",
            "  list 8-12 | list: [2 items]",
            "    y 10-10 | y: 1",
            "    z 11-11 | z: 2",
            "other 13-13 | other: !!str plain",
            "second 16-16 | second: doc",
        ]
    );
}

#[test]
fn yaml_template_directives_do_not_hide_keys() {
    let text = "\
metadata:
  name: {{ include \"chart.fullname\" . }}
  labels:
    {{- include \"chart.labels\" . | nindent 4 }}
spec:
  {{- if not .Values.autoscaling.enabled }}
  replicas: {{ .Values.replicaCount }}
  {%- endif %}
  selector: {}
";
    assert_eq!(
        show(text, Language::Yaml),
        vec![
            "metadata 1-4 | metadata: {2 keys}",
            "  name 2-2 | name: {{ include \"chart.fullname\" . }}",
            "  labels 3-3 | labels:",
            "spec 5-9 | spec: {2 keys}",
            "  replicas 7-7 | replicas: {{ .Values.replicaCount }}",
            "  selector 9-9 | selector: {}",
        ]
    );
}

#[test]
fn yaml_key_properties_stay_in_the_name() {
    let text = "&anchor a: 1\n- &x b: {c: 1}\n!!str d: 2\n";
    let names: Vec<String> = flat(text, Language::Yaml)
        .into_iter()
        .map(|e| e.2)
        .collect();
    assert_eq!(names, vec!["&anchor a", "&x b", "c", "!!str d"]);
}

#[test]
fn yaml_multiline_flow_and_quoted_values_are_not_keys() {
    let text = "\
features:
  [
    \"a: b\",
    c,
  ]
msg: \"line one
  key: not a key\"
plain: first
  second: line
after: 1
";
    assert_eq!(
        show(text, Language::Yaml),
        vec![
            "features 1-5 | features: [2 items]",
            "msg 6-7 | msg: \"line one key: not a key\"",
            "plain 8-9 | plain: first",
            "after 10-10 | after: 1",
        ]
    );
}

#[test]
fn yaml_tabs_crlf_no_final_newline_and_junk() {
    let text = "a:\r\n  b: 1\r\n  c:\t2\r\nd: [1,\r\n  2]";
    assert_eq!(
        show(text, Language::Yaml),
        vec![
            "a 1-3 | a: {2 keys}",
            "  b 2-2 | b: 1",
            "  c 3-3 | c: 2",
            "d 4-5 | d: [2 items]"
        ]
    );
    for junk in [
        "",
        "\n",
        "-",
        "- - -",
        ":",
        "a: [",
        "a: {b: [c, {d",
        "a: \"",
        "'",
        "|",
        "--- |\n x",
        "? ",
        "a:\n\t- b",
    ] {
        let _ = parse(junk, Language::Yaml);
    }
    // Unbalanced quotes pair up across lines (a quoted scalar may span lines) or end with
    // their line, without rescanning the file for each.
    let _ = parse(&": - ".repeat(100_000), Language::Yaml);
    let many_quotes = "a: 'x\n".repeat(5_000);
    assert_eq!(count(&parse(&many_quotes, Language::Yaml)), 2_500);
    let many_quotes = format!("a: 'x\n{}", "b: \"y\n".repeat(5_000));
    assert_eq!(count(&parse(&many_quotes, Language::Yaml)), 2_501);
}

#[test]
fn toml_tables_keys_and_multiline_values() {
    let text = r#"# top
title = "TOML"
server.port = 8080
"quoted.key" = true

[package]
name = "outliner"
description = """
not = a key
[not.a.table]
"""
keywords = [
  "a", # comment ]
  "b",
]
meta = { x = 1, y = { z = 2 } }

[ dependencies . serde ]
version = '1.0'

[[bin]]
name = "a"

[[bin]]

[a."b.c"]
path = 'C:\x'  # comment
"#;
    assert_eq!(
        show(text, Language::Toml),
        vec![
            "title 2-2 | title: \"TOML\"",
            "server.port 3-3 | server.port: 8080",
            "\"quoted.key\" 4-4 | \"quoted.key\": true",
            "table package 6-16 | [package]",
            "  name 7-7 | name: \"outliner\"",
            "  description 8-11 | description: \"\"\" not = a key [not.a.table] \"\"\"",
            "  keywords 12-15 | keywords: [2 items]",
            "  meta 16-16 | meta: {2 keys}",
            "    x 16-16 | x: 1",
            "    y 16-16 | y: {1 key}",
            "      z 16-16 | z: 2",
            "table dependencies.serde 18-19 | [dependencies.serde]",
            "  version 19-19 | version: '1.0'",
            "array_table bin 21-22 | [[bin]]",
            "  name 22-22 | name: \"a\"",
            "array_table bin 24-24 | [[bin]]",
            "table a.\"b.c\" 26-27 | [a.\"b.c\"]",
            "  path 27-27 | path: 'C:\\x'",
        ]
    );
}

#[test]
fn toml_dotted_keys_drop_spaces_around_dots_only() {
    let text = "a . \"b. c\" .d = 1\nx.\"y z\" = 2\nbroken. = 3\n\"q\".r=4\n";
    assert_eq!(
        show(text, Language::Toml),
        vec![
            "a.\"b. c\".d 1-1 | a.\"b. c\".d: 1",
            "x.\"y z\" 2-2 | x.\"y z\": 2",
            "\"q\".r 4-4 | \"q\".r: 4",
        ]
    );
}

#[test]
fn toml_broken_input_does_not_panic() {
    for junk in [
        "[",
        "[[",
        "a =",
        "= 1",
        "a = [",
        "a = {b = ",
        "a = \"\"\"",
        "a = '''x",
        "[a.]",
        "a.=1",
        "\"",
        "x = [[[[[",
        "a = \"\\",
    ] {
        let _ = parse(junk, Language::Toml);
    }
    // An unclosed array ends before the next table header.
    let text = "a = [\n  1,\n\n[t]\nb = 2";
    assert_eq!(
        show(text, Language::Toml),
        vec!["a 1-2 | a: [1 item]", "table t 4-5 | [t]", "  b 5-5 | b: 2"]
    );
    let crlf = "[t]\r\nk = 1\r\n";
    assert_eq!(
        show(crlf, Language::Toml),
        vec!["table t 1-2 | [t]", "  k 2-2 | k: 1"]
    );
}

#[test]
fn large_inputs_parse_quickly() {
    let mut yaml = String::new();
    let mut toml = String::new();
    for i in 0..2_000 {
        yaml.push_str(&format!(
            "key{i}:\n  sub: value {i}\n  list:\n    - a: 1\n      b: \"q: x\"\n"
        ));
        toml.push_str(&format!(
            "[t{i}]\na = 1\nb = [\n  \"x\",\n]\nc = {{ d = 2 }}\n"
        ));
    }
    let start = std::time::Instant::now();
    assert_eq!(count(&parse(&yaml, Language::Yaml)), 10_000);
    assert_eq!(count(&parse(&toml, Language::Toml)), 10_000);
    // Generous: debug builds are much slower than release.
    assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
}

#[test]
fn mutated_inputs_never_panic() {
    let seeds = [
        include_str!("../../../tests/fixtures/json/package.json"),
        include_str!("../../../tests/fixtures/json/tsconfig.jsonc"),
        include_str!("../../../tests/fixtures/yaml/ci.yml"),
        include_str!("../../../tests/fixtures/yaml/k8s.yaml"),
        include_str!("../../../tests/fixtures/toml/Cargo.toml"),
        include_str!("../../../tests/fixtures/toml/pyproject.toml"),
    ];
    let alphabet = b"{}[]\"'\\:,=#-|>?&*!\n\r\t ./a1";
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for seed in seeds {
        for _ in 0..60 {
            let mut bytes = seed.as_bytes().to_vec();
            for _ in 0..8 {
                let at = (next() as usize) % bytes.len().max(1);
                match next() % 3 {
                    0 => {
                        bytes.truncate(at);
                    }
                    1 => {
                        let byte = alphabet[(next() as usize) % alphabet.len()];
                        bytes.insert(at.min(bytes.len()), byte);
                    }
                    _ => {
                        if at < bytes.len() {
                            bytes.remove(at);
                        }
                    }
                }
            }
            let text = String::from_utf8_lossy(&bytes);
            for language in [Language::Json, Language::Yaml, Language::Toml] {
                let entries = parse(&text, language);
                let lines = crate::parse::count_lines(&text);
                let outline = Outline::new(language, lines, text.len(), entries);
                for (_, entry) in outline.walk() {
                    assert!(entry.line >= 1 && entry.end_line >= entry.line);
                }
            }
        }
    }
}

#[test]
fn non_ascii_text_is_kept_and_unicode_whitespace_collapsed() {
    let text = "{\"café\": \"naïve façade\", \"a\u{a0}\u{a0}b\": \"x\u{3000}y\", \"ü\": 1}\n";
    assert_eq!(
        show(text, Language::Json),
        vec![
            "café 1-1 | café: \"naïve façade\"",
            // The name is the key as written; the signature is shaped like any other.
            "a\u{a0}\u{a0}b 1-1 | a b: \"x y\"",
            "ü 1-1 | ü: 1",
        ]
    );
}

/// The preview as it was first written: the value's first `MAX_VALUE_CHARS * 8` bytes joined
/// in one go. The two-step preview must agree with it on any value.
fn preview_in_one_step(raw: &str) -> String {
    let mut cut = raw.len().min(MAX_VALUE_CHARS * 8);
    while !raw.is_char_boundary(cut) {
        cut -= 1;
    }
    let joined = one_line(&raw[..cut]);
    match joined.char_indices().nth(MAX_VALUE_CHARS) {
        Some((at, _)) => format!("{}…", joined[..at].trim_end()),
        None if cut < raw.len() => format!("{joined}…"),
        None => joined,
    }
}

#[test]
fn a_preview_from_a_short_prefix_equals_one_from_the_long_one() {
    use proptest::prelude::*;
    let piece = prop::sample::select(vec![
        "a",
        "bc",
        "word",
        " ",
        "  ",
        "\n",
        "\r\n",
        "\t",
        ",",
        ")",
        "(",
        "]",
        "é",
        "\u{a0}",
        "x,\n)",
        "->",
        "=",
        "https://example.com/a/b",
    ]);
    let value = prop::collection::vec(piece, 0..200).prop_map(|pieces| pieces.concat());
    crate::parse::soup::runner(2_000)
        .run(&value, |raw| {
            let mut two_step = String::new();
            let one_line = push_preview(&mut two_step, &raw);
            prop_assert_eq!(one_line, is_one_line(&two_step), "{:?}", raw);
            let simple = raw.len() <= MAX_VALUE_CHARS
                && single_spaced(raw.as_bytes(), |b| b.is_ascii_whitespace());
            let want = if simple {
                raw.clone()
            } else {
                preview_in_one_step(&raw)
            };
            prop_assert_eq!(two_step, want, "{:?}", raw);
            Ok(())
        })
        .unwrap();
}

#[test]
fn a_node_is_small_enough_to_copy_without_a_call() {
    // The arena gets a node per key; up to 128 bytes, a copy is a few vector moves rather than
    // a call to memcpy (perf showed memcpy at a fifth of TOML's cycles, node copies among them).
    assert!(std::mem::size_of::<super::Node>() <= 128);
}
