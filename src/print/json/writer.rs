//! A direct writer for the file objects of `--print --json`: the bytes serde_json would write
//! for [`FileObject`], field for field, without serde's per-field machinery. A directory run
//! writes one object per file, and through serde every key went through the string escaper and
//! every node was built as a [`Node`] and moved into the serializer; that was a sixth of a
//! corpus run's instructions. Keys here are literals; a string value that needs escaping goes
//! through serde_json's escaper, so escaping is serde_json's own. The contract checks
//! (`contract::check_renderings`, run by a property test here and by the fuzz targets) compare
//! the two encoders byte for byte.

use super::{FileObject, Node, Nodes};

impl FileObject<'_> {
    /// Appends this object as compact JSON, exactly as `serde_json::to_writer` writes it.
    pub(crate) fn write_json(&self, out: &mut Vec<u8>) {
        let mut object = Object::open(out);
        object.string("path", &self.path);
        object.string("language", self.language);
        object.number("lines", self.lines);
        object.number("bytes", self.bytes);
        object.string("hash", self.hash);
        object.optional_number("tokens", self.tokens);
        object.optional_string("tokenizer", self.tokenizer);
        object.optional_true("changed", self.changed);
        object.key("entries");
        write_nodes(object.out, &self.entries);
        object.optional_true("truncated", self.truncated);
        object.optional_string("truncation_reason", self.truncation_reason);
        object.optional_number("omitted", self.omitted);
        object.optional_string("input_limit", self.input_limit);
        object.close();
    }
}

fn write_nodes(out: &mut Vec<u8>, nodes: &Nodes) {
    out.push(b'[');
    for (at, shown) in nodes.shown.iter().enumerate() {
        if at > 0 {
            out.push(b',');
        }
        write_node(
            out,
            &super::node(shown, nodes.options, nodes.ids.of(shown.entry)),
        );
    }
    out.push(b']');
}

fn write_node(out: &mut Vec<u8>, node: &Node) {
    let mut object = Object::open(out);
    object.string("id", &node.id);
    object.string("kind", node.kind);
    object.string("name", node.name);
    object.string("qualname", node.qualname);
    object.optional_string("signature", node.signature);
    object.optional_number("level", node.level.map(usize::from));
    object.number("line", node.line);
    object.number("end_line", node.end_line);
    object.optional_number("doc_line", node.doc_line);
    object.optional_number("tokens", node.tokens);
    object.optional_true("changed", node.changed);
    if let Some(preview) = &node.preview {
        object.key("preview");
        object.out.push(b'[');
        for (at, line) in preview.iter().enumerate() {
            if at > 0 {
                object.out.push(b',');
            }
            escaped(object.out, line);
        }
        object.out.push(b']');
    }
    if let Some(children) = &node.children {
        object.key("children");
        write_nodes(object.out, children);
    }
    object.optional_true("truncated", node.truncated);
    object.optional_string("truncation_reason", node.truncation_reason);
    object.close();
}

/// An object being written: puts the commas between members.
struct Object<'o> {
    out: &'o mut Vec<u8>,
    first: bool,
}

impl<'o> Object<'o> {
    fn open(out: &'o mut Vec<u8>) -> Object<'o> {
        out.push(b'{');
        Object { out, first: true }
    }

    /// Writes `"key":`; keys are plain ASCII literals that need no escaping.
    fn key(&mut self, key: &str) {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out.extend_from_slice(b"\":");
    }

    fn string(&mut self, key: &str, value: &str) {
        self.key(key);
        escaped(self.out, value);
    }

    fn number(&mut self, key: &str, value: usize) {
        self.key(key);
        self.out
            .extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
    }

    fn optional_string(&mut self, key: &str, value: Option<&str>) {
        if let Some(value) = value {
            self.string(key, value);
        }
    }

    fn optional_number(&mut self, key: &str, value: Option<usize>) {
        if let Some(value) = value {
            self.number(key, value);
        }
    }

    /// The wire's flags are present only when true (`Some(true)`); `Some(false)` is written as
    /// serde would write it, though the model never makes one.
    fn optional_true(&mut self, key: &str, value: Option<bool>) {
        if let Some(value) = value {
            self.key(key);
            self.out
                .extend_from_slice(if value { b"true" } else { b"false" });
        }
    }

    fn close(self) {
        self.out.push(b'}');
    }
}

/// `value` as a JSON string, escaped by serde_json. Most names and signatures need no escape
/// (serde_json escapes only `"`, `\` and control bytes): those are copied whole, after a
/// branch-free scan the compiler vectorises, where serde_json looks each byte up in turn.
fn escaped(out: &mut Vec<u8>, value: &str) {
    let needs_escape = value.bytes().fold(false, |any, b| {
        any | (b < 0x20) | (b == b'"') | (b == b'\\')
    });
    if needs_escape {
        // Writing a string into a Vec cannot fail: serde_json's only errors here are I/O.
        let _ = serde_json::to_writer(&mut *out, value);
    } else {
        out.reserve(value.len() + 2);
        out.push(b'"');
        out.extend_from_slice(value.as_bytes());
        out.push(b'"');
    }
}

#[cfg(test)]
mod tests {
    use super::super::{file_object, NodeOptions};
    use crate::lang::Language;
    use crate::outline::select::{select, Budget};
    use crate::parse::{soup, ParseOptions};

    /// Files with every optional member the parsers make (signatures, levels, doc lines,
    /// previews, cuts of both kinds) and every string escape the wire can meet.
    #[test]
    fn writes_what_serde_json_writes() {
        let files = [
            (
                Language::Markdown,
                "# Title \"q\" \\ \u{1}\n\nbody\n## \u{dc}n\u{ef}code\tt\nmore\n",
            ),
            (
                Language::Python,
                "# doc\nclass C:\n    def m(self, s=\"\\n\"):\n        pass\n\ndef f(): pass\n",
            ),
        ];
        for (language, text) in files {
            let outline = crate::parse::outline_text(text, ParseOptions::new(language));
            let lines: Vec<&str> = text.lines().collect();
            for (max_depth, max_nodes) in [(None, None), (None, Some(1)), (Some(1), None)] {
                let selection = select(
                    &outline,
                    Budget {
                        max_depth,
                        max_nodes,
                    },
                );
                let options = NodeOptions {
                    signatures: true,
                    preview: 2,
                    lines: &lines,
                };
                let object =
                    file_object("dir/\"f\"".into(), "xxh3:0", &outline, &selection, options);
                let mut ours = Vec::new();
                object.write_json(&mut ours);
                let theirs = serde_json::to_vec(&object).expect("serializes");
                assert_eq!(
                    String::from_utf8_lossy(&ours),
                    String::from_utf8_lossy(&theirs)
                );
            }
        }
    }

    /// Token soups of every language, under budgets that cut by depth and by node count: the
    /// contract check compares this writer with serde_json on each (as the fuzz targets do).
    #[test]
    fn writes_what_serde_json_writes_on_every_scanner() {
        for language in crate::lang::Language::ALL {
            let result = soup::runner(48).run(&soup::text(language, 96), |text| {
                let outline = crate::parse::outline_text(&text, ParseOptions::new(language));
                let lines: Vec<&str> = text.lines().collect();
                for (max_depth, max_nodes) in [(None, None), (Some(1), None), (Some(2), Some(5))] {
                    let budget = Budget {
                        max_depth,
                        max_nodes,
                    };
                    super::super::contract::check_renderings(&outline, budget, &lines)
                        .map_err(proptest::test_runner::TestCaseError::fail)?;
                }
                Ok(())
            });
            if let Err(failure) = result {
                panic!("{language}: {failure}");
            }
        }
    }
}
