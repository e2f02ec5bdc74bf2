//! The tools' arguments as clients send them (serde + a JSON schema each), and how each set
//! becomes the flags of the equivalent `outline --print` command line.
//!
//! Argument names are a promise to clients and scripts: `path`, `query`, `pattern`, `name`,
//! `range`, `depth`, `max_nodes`, `kind`, `glob`, `tokens`, `diff`, `json`, `if_hash`,
//! `max_tokens`. Unknown arguments are refused, so a misspelt one is a clear error rather than
//! a silently ignored wish.

use schemars::JsonSchema;
use serde::Deserialize;

/// One path or several, relative to the server's root.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Paths {
    One(String),
    Many(Vec<String>),
}

impl Paths {
    fn into_vec(self) -> Vec<String> {
        match self {
            Paths::One(path) => vec![path],
            Paths::Many(paths) => paths,
        }
    }
}

/// One value or several (symbol queries, globs).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn into_vec(self) -> Vec<String> {
        match self {
            OneOrMany::One(value) => vec![value],
            OneOrMany::Many(values) => values,
        }
    }
}

/// What kind of answer a tool gives, which decides how an answer over budget is cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Outlines: a single file is cut by entries (`max_nodes`), a folder by lines.
    Outline,
    /// Numbered source lines (symbol, read, lines): cut by lines, naming the range left.
    Lines,
    /// Search results (find, grep, refs): cut by result lines.
    Results,
}

/// A tool call as a command line: everything but the program name, `--print`, `--root` and the
/// paths, which the caller adds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub tool: &'static str,
    pub flags: Vec<String>,
    pub paths: Vec<String>,
    pub json: bool,
    pub max_tokens: Option<usize>,
}

impl Request {
    fn new(tool: &'static str, paths: Vec<String>, json: Option<bool>) -> Request {
        let json = json.unwrap_or(false);
        Request {
            tool,
            flags: if json {
                vec!["--json".into()]
            } else {
                Vec::new()
            },
            paths,
            json,
            max_tokens: None,
        }
    }

    /// Adds `--name=value` (the `=` keeps a value such as `-3:` or `--x` from reading as a flag).
    fn value(&mut self, name: &str, value: Option<impl ToString>) {
        if let Some(value) = value {
            self.flags.push(format!("--{name}={}", value.to_string()));
        }
    }

    fn values(&mut self, name: &str, values: Option<OneOrMany>) {
        for value in values.map(OneOrMany::into_vec).unwrap_or_default() {
            self.value(name, Some(value));
        }
    }

    fn switch(&mut self, name: &str, on: Option<bool>) {
        if on == Some(true) {
            self.flags.push(format!("--{name}"));
        }
    }

    /// How an answer to this request is cut when it is over budget.
    pub fn shape(&self) -> Shape {
        match self.tool {
            "outline" => Shape::Outline,
            "symbol" | "read" | "lines" => Shape::Lines,
            _ => Shape::Results,
        }
    }
}

/// Arguments of `outline`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutlineParams {
    /// File or folder, or a list of them (default: the root). Example: "src/app.py".
    pub path: Option<Paths>,
    /// Deepest level to show (1 = top level). Default: all for a file, 1 for a folder.
    pub depth: Option<usize>,
    /// Show at most this many entries, counted breadth first; cut entries are marked.
    pub max_nodes: Option<usize>,
    /// Signatures (default) or just names.
    pub signatures: Option<bool>,
    /// Add a token count to every entry and file.
    pub tokens: Option<bool>,
    /// Mark entries changed since git HEAD with [CHANGED].
    pub diff: Option<bool>,
    /// Only changed files, and in them only changed entries with their parents.
    pub changed_only: Option<bool>,
    /// Folders: only files matching this glob (or list; "!" excludes). Example: "*.rs".
    pub glob: Option<OneOrMany>,
    /// Answer with the JSON contract instead of text.
    pub json: Option<bool>,
    /// Most tokens in the answer (default: the server's --max-tokens).
    pub max_tokens: Option<usize>,
}

impl OutlineParams {
    pub fn request(self) -> Request {
        let paths = self.path.map_or_else(|| vec![".".into()], Paths::into_vec);
        let mut request = Request::new("outline", paths, self.json);
        request.value("depth", self.depth);
        request.value("max-nodes", self.max_nodes);
        request.switch("no-signatures", self.signatures.map(|on| !on));
        request.switch("tokens", self.tokens);
        request.switch("diff", self.diff);
        request.switch("changed", self.changed_only);
        request.values("glob", self.glob);
        request.max_tokens = self.max_tokens;
        request
    }
}

/// Arguments of `symbol`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SymbolParams {
    /// The file (or folder) to look in. Example: "src/app.py".
    pub path: Paths,
    /// What to read: a name ("load"), a qualified name ("Loader.load"), an outline id ("2.1")
    /// or "@LINE" (the innermost entry around that line); a list reads each in turn.
    pub query: OneOrMany,
    /// Instead of the body, list the symbol's members to this depth.
    pub depth: Option<usize>,
    /// Answer with JSON (path, hash, start_line, end_line, text, node).
    pub json: Option<bool>,
    /// Refuse with a "stale" error unless the file's hash is still this.
    pub if_hash: Option<String>,
    /// Most tokens in the answer (default: the server's --max-tokens).
    pub max_tokens: Option<usize>,
}

impl SymbolParams {
    pub fn request(self) -> Request {
        let mut request = Request::new("symbol", self.path.into_vec(), self.json);
        request.values("symbol", Some(self.query));
        request.value("depth", self.depth);
        request.value("if-hash", self.if_hash);
        request.max_tokens = self.max_tokens;
        request
    }
}

/// Arguments of `read`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadParams {
    /// The file to read. Example: "src/app.py".
    pub path: String,
    /// Answer with JSON (path, hash, start_line, end_line, text, omitted).
    pub json: Option<bool>,
    /// Refuse with a "stale" error unless the file's hash is still this.
    pub if_hash: Option<String>,
    /// Most tokens in the answer (default: the server's --max-tokens).
    pub max_tokens: Option<usize>,
}

impl ReadParams {
    pub fn request(self) -> Request {
        let mut request = Request::new("read", vec![self.path], self.json);
        request.flags.push("--read".into());
        request.value("if-hash", self.if_hash);
        request.max_tokens = self.max_tokens;
        request
    }
}

/// Arguments of `lines`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinesParams {
    /// The file to read. Example: "src/app.py".
    pub path: String,
    /// "A:B" (inclusive), "A:" (to the end), "A:+N" (N lines from A) or "-N:" (the last N).
    /// Lines count from 1. Example: "120:180".
    pub range: String,
    /// Answer with JSON (path, hash, start_line, end_line, text, note).
    pub json: Option<bool>,
    /// Refuse with a "stale" error unless the file's hash is still this.
    pub if_hash: Option<String>,
    /// Most tokens in the answer (default: the server's --max-tokens).
    pub max_tokens: Option<usize>,
}

impl LinesParams {
    pub fn request(self) -> Request {
        let mut request = Request::new("lines", vec![self.path], self.json);
        request.value("lines", Some(self.range));
        request.value("if-hash", self.if_hash);
        request.max_tokens = self.max_tokens;
        request
    }
}

/// The paths of a search, the whole root by default.
fn search_paths(path: Option<Paths>) -> Vec<String> {
    path.map_or_else(|| vec![".".into()], Paths::into_vec)
}

/// Arguments of `find`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindParams {
    /// A name ("set_stringn"), a qualified suffix ("Buffer.set_stringn", "Buffer::set_stringn"),
    /// a glob ("set_*", "*Error"), optionally after a kind ("struct Worker", "fn new");
    /// "name(PREFIX" keeps the overloads whose parameters begin so ("setDateFormat(String",
    /// "peek()"). Smart case.
    pub query: String,
    /// Files and folders to search (default: the root).
    pub path: Option<Paths>,
    /// Only these kinds, e.g. "fn,struct" or ["class", "method"].
    pub kind: Option<OneOrMany>,
    /// Only files matching this glob (or list; "!" excludes). Example: "*.rs".
    pub glob: Option<OneOrMany>,
    /// Most definitions listed (default 50).
    pub max_results: Option<usize>,
    /// Print the bodies of the definitions found, not only their lines (one match always does).
    pub body: Option<bool>,
    /// Add a token count to every definition.
    pub tokens: Option<bool>,
    /// Answer with JSON Lines, one object per definition.
    pub json: Option<bool>,
    /// Most tokens in the answer (default: the server's --max-tokens).
    pub max_tokens: Option<usize>,
}

impl FindParams {
    pub fn request(self) -> Request {
        let mut request = Request::new("find", search_paths(self.path), self.json);
        request.value("find", Some(self.query));
        let kinds = self.kind.map(|kinds| kinds.into_vec().join(","));
        request.value("kind", kinds);
        request.values("glob", self.glob);
        request.value("max-results", self.max_results);
        request.switch("body", self.body);
        request.switch("tokens", self.tokens);
        request.max_tokens = self.max_tokens;
        request
    }
}

/// Arguments of `grep`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GrepParams {
    /// A regular expression (Rust syntax). Example: "fn \\w+_hash".
    pub pattern: String,
    /// Files and folders to search (default: the root).
    pub path: Option<Paths>,
    /// Only files matching this glob (or list; "!" excludes). Example: "*.py".
    pub glob: Option<OneOrMany>,
    /// Skip matches inside comments and strings.
    pub code_only: Option<bool>,
    /// Lines of context around each hit.
    pub context: Option<usize>,
    /// Show each enclosing function whole when short (<= 60 lines), else its first line, the
    /// block heads above each hit (the if/else chain) and a line around it, with the call
    /// that reads the rest: often the whole answer.
    pub function_context: Option<bool>,
    /// Most hits listed.
    pub max_results: Option<usize>,
    /// Add a token count to every group.
    pub tokens: Option<bool>,
    /// Answer with JSON Lines, one object per hit (path, line, column, text, entry).
    pub json: Option<bool>,
    /// Most tokens in the answer (default: the server's --max-tokens).
    pub max_tokens: Option<usize>,
}

impl GrepParams {
    pub fn request(self) -> Request {
        let mut request = Request::new("grep", search_paths(self.path), self.json);
        request.value("grep", Some(self.pattern));
        request.values("glob", self.glob);
        request.switch("code-only", self.code_only);
        request.value("context", self.context);
        request.switch("function-context", self.function_context);
        request.value("max-results", self.max_results);
        request.switch("tokens", self.tokens);
        request.max_tokens = self.max_tokens;
        request
    }
}

/// Arguments of `refs`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RefsParams {
    /// The identifier to look for ("is_hidden"); "Type.method" keeps only member uses
    /// (after ".", "::" or C's "->") and bare calls inside Type's own members.
    /// "name(PARAMS" ("readUtf8Line(newline: Long)") keeps that overload's definitions and
    /// the calls passing as many arguments. Local variables of the name and other overloads
    /// are left out (counted in the last line).
    pub name: String,
    /// Files and folders to search (default: the root).
    pub path: Option<Paths>,
    /// Only files matching this glob (or list; "!" excludes). Example: "src/**".
    pub glob: Option<OneOrMany>,
    /// Lines of context around each use.
    pub context: Option<usize>,
    /// Show each enclosing function whole when short (<= 60 lines), else its first line, the
    /// block heads above each use and a line around it, with the call that reads the rest.
    pub function_context: Option<bool>,
    /// Callers to this many levels (2-6) as one tree: who uses the name, who uses those.
    pub depth: Option<usize>,
    /// Most uses listed.
    pub max_results: Option<usize>,
    /// Add a token count to every group.
    pub tokens: Option<bool>,
    /// Answer with JSON Lines, one object per use (path, line, column, text, entry, definition).
    pub json: Option<bool>,
    /// Most tokens in the answer (default: the server's --max-tokens).
    pub max_tokens: Option<usize>,
}

impl RefsParams {
    pub fn request(self) -> Request {
        let mut request = Request::new("refs", search_paths(self.path), self.json);
        request.value("refs", Some(self.name));
        request.values("glob", self.glob);
        request.value("context", self.context);
        request.switch("function-context", self.function_context);
        request.value("depth", self.depth);
        request.value("max-results", self.max_results);
        request.switch("tokens", self.tokens);
        request.max_tokens = self.max_tokens;
        request
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse<T: serde::de::DeserializeOwned>(json: &str) -> serde_json::Result<T> {
        serde_json::from_str(json)
    }

    #[test]
    fn outline_arguments_become_flags() {
        let request = parse::<OutlineParams>(
            r#"{"path": ["a.py", "src"], "depth": 2, "max_nodes": 9, "signatures": false,
                "tokens": true, "diff": true, "changed_only": true, "glob": ["*.py", "!x*"],
                "json": true, "max_tokens": 500}"#,
        )
        .expect("valid")
        .request();
        assert_eq!(request.paths, ["a.py", "src"]);
        assert_eq!(
            request.flags,
            [
                "--json",
                "--depth=2",
                "--max-nodes=9",
                "--no-signatures",
                "--tokens",
                "--diff",
                "--changed",
                "--glob=*.py",
                "--glob=!x*"
            ]
        );
        assert_eq!((request.json, request.max_tokens), (true, Some(500)));
        let default = parse::<OutlineParams>("{}").expect("valid").request();
        assert_eq!((default.paths, default.flags), (vec![".".into()], vec![]));
    }

    #[test]
    fn values_cannot_turn_into_flags() {
        let request = parse::<LinesParams>(r#"{"path": "--json", "range": "-3:"}"#)
            .expect("valid")
            .request();
        assert_eq!(request.flags, ["--lines=-3:"]);
        assert_eq!(request.paths, ["--json"]);
        let symbol = parse::<SymbolParams>(r#"{"path": "a.rs", "query": ["--read", "b"]}"#)
            .expect("valid")
            .request();
        assert_eq!(symbol.flags, ["--symbol=--read", "--symbol=b"]);
    }

    #[test]
    fn search_arguments_become_flags() {
        let find = parse::<FindParams>(
            r#"{"query": "fn new", "kind": ["fn", "struct"], "path": "src", "max_results": 5}"#,
        )
        .expect("valid")
        .request();
        assert_eq!(
            find.flags,
            ["--find=fn new", "--kind=fn,struct", "--max-results=5"]
        );
        assert_eq!(find.paths, ["src"]);
        let grep = parse::<GrepParams>(
            r#"{"pattern": "-x", "code_only": true, "context": 2, "function_context": true}"#,
        )
        .expect("valid")
        .request();
        assert_eq!(
            grep.flags,
            [
                "--grep=-x",
                "--code-only",
                "--context=2",
                "--function-context"
            ]
        );
        assert_eq!(grep.paths, ["."]);
        let refs = parse::<RefsParams>(r#"{"name": "Buffer.len", "glob": "*.rs", "json": true}"#)
            .expect("valid")
            .request();
        assert_eq!(refs.flags, ["--json", "--refs=Buffer.len", "--glob=*.rs"]);
    }

    #[test]
    fn wrong_and_unknown_arguments_are_refused() {
        assert!(parse::<ReadParams>(r#"{"path": 3}"#).is_err());
        assert!(parse::<ReadParams>(r#"{"pth": "a.py"}"#).is_err());
        assert!(parse::<LinesParams>(r#"{"path": "a.py"}"#).is_err());
        assert!(parse::<OutlineParams>(r#"{"depth": "two"}"#).is_err());
        assert!(parse::<OutlineParams>(r#"{"depth": -1}"#).is_err());
    }
}
