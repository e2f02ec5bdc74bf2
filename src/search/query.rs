//! What `--find` and `--refs` ask for, parsed once: an optional kind, a name, a qualified name
//! (written with `.`, `::` or `/`) or a glob, and smart case (case-sensitive only when the
//! query has an upper-case letter, as ripgrep does).

use crate::error::{Error, Result};
use crate::outline::Kind;
use crate::sanitize::echo;
use globset::{GlobBuilder, GlobMatcher};

/// A definition query.
#[derive(Debug, Clone)]
pub struct FindQuery {
    /// The query as given, for messages.
    pub text: String,
    /// Only these kinds (empty: any).
    pub kinds: Vec<Kind>,
    /// The name path, outermost first: `Buffer.set` is `["Buffer", "set"]`.
    pub parts: Vec<String>,
    /// A glob over the name (one part) or the qualified name (several).
    glob: Option<GlobMatcher>,
    pub case_sensitive: bool,
    /// `name(PREFIX`: only the overloads whose parameter list begins with PREFIX (spaces
    /// collapsed); `name()` asks for an empty list (kept as `)`).
    params: Option<String>,
}

impl FindQuery {
    /// Parses `[KIND] NAME`, where NAME is a name, a qualified-name suffix or a glob; `kinds`
    /// (from `--kind`) adds to a kind written in the query.
    pub fn parse(query: &str, kinds: &[Kind]) -> Result<FindQuery> {
        let trimmed = query.trim();
        let (mut wanted, name) = match trimmed.split_once(char::is_whitespace) {
            // `validate(_ validation` is a name and its parameters, not a kind and a name.
            Some((word, rest)) if !rest.trim().is_empty() && !word.contains('(') => {
                match kinds_for_word(word) {
                    Some(found) => (found, rest.trim()),
                    None => {
                        return Err(Error::Usage(format!(
                            "--find '{}': '{}' is not a kind (fn, class, struct, method, …)",
                            echo(query),
                            echo(word)
                        )))
                    }
                }
            }
            _ => (Vec::new(), trimmed),
        };
        wanted.extend_from_slice(kinds);
        if name.is_empty() {
            return Err(Error::Usage("--find needs a name".into()));
        }
        // Go's method expression `(*T).m` names the method `m` of `T`, not a glob.
        let name = &without_pointer_receivers(name);
        let (name, params) = match name.split_once('(') {
            Some((name, params)) if !name.is_empty() => (name, Some(params_prefix(params))),
            _ => (name.as_str(), None),
        };
        let parts = split_qualified(name);
        let case_sensitive = name.chars().any(char::is_uppercase);
        let glob = match name.contains(['*', '?', '[']) {
            true => Some(glob_matcher(&parts.join("."), case_sensitive)?),
            false => None,
        };
        Ok(FindQuery {
            text: query.to_string(),
            kinds: wanted,
            parts,
            glob,
            case_sensitive,
            params,
        })
    }

    /// Whether the query names parameters (`name(PREFIX`).
    pub(crate) fn names_parameters(&self) -> bool {
        self.params.is_some()
    }

    /// Whether `entry`'s parameters begin as the query's `name(PREFIX` asks (any do when the
    /// query gives none); see [`parameters_begin_with`].
    pub(crate) fn params_match(&self, entry: &crate::outline::Entry) -> bool {
        match &self.params {
            Some(prefix) => parameters_begin_with(entry, prefix, self.case_sensitive),
            None => true,
        }
    }

    /// A fast test a file's text must pass to hold a match: the longest run of identifier
    /// characters of the name as a whole word (in the query's case rule), which a definition's
    /// text holds even where a parser tidies the name (`operator +` is named `operator+`).
    /// `None` for globs, which have no fixed name.
    pub(crate) fn name_filter(&self) -> Option<regex::bytes::Regex> {
        if self.glob.is_some() {
            return None;
        }
        let name = self.parts.last()?;
        let core = name
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .max_by_key(|run| run.len())
            .filter(|run| !run.is_empty())?;
        // A name is a whole word of its file: `parse` need not open files that only say
        // `parser` or `parse_args`.
        regex::bytes::RegexBuilder::new(&format!(r"\b{}\b", regex::escape(core)))
            .case_insensitive(!self.case_sensitive)
            .build()
            .ok()
    }

    /// Whether `kind` is one asked for.
    pub fn wants_kind(&self, kind: Kind) -> bool {
        self.kinds.is_empty() || self.kinds.contains(&kind)
    }

    /// The glob, when the query is one.
    pub(crate) fn glob(&self) -> Option<&GlobMatcher> {
        self.glob.as_ref()
    }

    /// Whether two names are equal under the query's case rule.
    pub(crate) fn same(&self, a: &str, b: &str) -> bool {
        match self.case_sensitive {
            true => a == b,
            false => a.eq_ignore_ascii_case(b) || a.to_lowercase() == b.to_lowercase(),
        }
    }
}

/// A `--refs` query: a name, or `Type.method` for member uses only; `name(PARAMS` keeps the
/// overloads whose parameters begin so, as `--find` does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefQuery {
    pub text: String,
    /// The identifier searched for.
    pub name: String,
    /// `Type.method`: only occurrences right after `.`, `::` or `->`.
    pub member_only: bool,
    /// `Type` of `Type.method`, which narrows which definitions are marked as such.
    pub owner: Option<String>,
    /// `name(PARAMS`: the parameters written, which pick the definitions and the calls kept.
    pub parameters: Option<CallParameters>,
}

/// The parameters a `--refs name(PARAMS` query wrote: definitions are kept when their
/// parameter list begins with `prefix` (as `--find name(PREFIX` picks them), calls when the
/// number of arguments they pass is one those parameters accept. Receivers' types are
/// unknown, so the argument count is what tells `readUtf8Line(newline)` from
/// `readUtf8Line()`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallParameters {
    /// The list as written, spaces collapsed, without its closing `)` (empty for `name()`).
    pub prefix: String,
    /// Whether the list was closed with `)`: then it is the whole list, else its beginning.
    pub closed: bool,
    /// Fewest arguments a call passes (parameters with defaults, variadic or block ones
    /// need none).
    pub min_arguments: usize,
    /// Most arguments a call passes: `None` when unbounded (a variadic parameter, or a list
    /// not closed with `)`).
    pub max_arguments: Option<usize>,
}

impl CallParameters {
    /// Reads the text after `name(`: `newline: Long)`, `_ validation`, `verb, path, options = {})`.
    fn parse(written: &str) -> CallParameters {
        let (list, closed) = match top_level_close(written) {
            Some(close) => (&written[..close], true),
            None => (written, false),
        };
        let (mut min, mut max, mut variadic) = (0, 0, false);
        for (index, param) in split_top_level(list).into_iter().enumerate() {
            let param = param.trim();
            // A receiver written as a parameter is not passed between the parentheses.
            let receiver = param
                .trim_start_matches(['&', '*'])
                .trim_start_matches("mut ");
            if index == 0 && (matches!(receiver, "self" | "cls") || receiver.starts_with("self:")) {
                continue;
            }
            // Python's bare `*` and `/` only mark how the others are passed.
            if param.is_empty() || param == "*" || param == "/" {
                continue;
            }
            if is_variadic(param) {
                variadic = true;
                continue;
            }
            max += 1;
            if !has_default(param) && !param.starts_with('&') {
                min += 1;
            }
        }
        CallParameters {
            prefix: collapse_spaces(list),
            closed,
            min_arguments: min,
            max_arguments: (closed && !variadic).then_some(max),
        }
    }

    /// Whether `entry` is one of the overloads asked for: its parameter list begins with the
    /// prefix (and, for a list closed with `)`, is that list).
    pub(crate) fn defined_by(&self, entry: &crate::outline::Entry) -> bool {
        match self.closed {
            true => parameters_begin_with(entry, &format!("{})", self.prefix), true),
            false => parameters_begin_with(entry, &self.prefix, true),
        }
    }

    /// Whether a call passing `count` arguments can be a call of these parameters.
    pub fn accepts(&self, count: usize) -> bool {
        count >= self.min_arguments && self.max_arguments.is_none_or(|max| count <= max)
    }

    /// `1 argument`, `2-4 arguments`, `at least 1 argument`: what a kept call passes.
    pub fn describe(&self) -> String {
        let noun = |n: usize| if n == 1 { "argument" } else { "arguments" };
        match self.max_arguments {
            Some(max) if max == self.min_arguments => format!("{max} {}", noun(max)),
            Some(max) => format!("{}-{max} {}", self.min_arguments, noun(max)),
            None => format!(
                "at least {} {}",
                self.min_arguments,
                noun(self.min_arguments)
            ),
        }
    }
}

/// The byte offset of the `)` that closes a list whose `(` was just before `text`.
fn top_level_close(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (at, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' if depth == 0 => return Some(at),
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            // `->` and `=>` in a parameter's type are arrows, not closing brackets.
            '>' if !text[..at].ends_with(['-', '=']) => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// `list` split at its commas outside brackets (`Map<K, V>` is one parameter).
fn split_top_level(list: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (at, c) in list.char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            '>' if !list[..at].ends_with(['-', '=']) => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(&list[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&list[start..]);
    parts
}

/// A parameter that takes any number of arguments: `...args`, `String... names`,
/// `vararg xs: Int`, `*args`, `**options`, `xs: Int...`.
fn is_variadic(param: &str) -> bool {
    param.contains("...")
        || param.starts_with("vararg ")
        || (param.starts_with('*') && param.len() > 1)
}

/// Whether a parameter has a default value (`options = {}`, `limit: Int = 0`, `x=1`): an `=`
/// that is no part of `==`, `=>`, `<=`, `>=` or `!=`.
fn has_default(param: &str) -> bool {
    let bytes = param.as_bytes();
    bytes.iter().enumerate().any(|(at, &b)| {
        let before = at.checked_sub(1).and_then(|i| bytes.get(i));
        let after = bytes.get(at + 1);
        b == b'='
            && !matches!(before, Some(b'=' | b'<' | b'>' | b'!'))
            && !matches!(after, Some(b'=' | b'>'))
    })
}

impl RefQuery {
    pub fn parse(query: &str) -> Result<RefQuery> {
        let trimmed = query.trim();
        // `name(PARAMS`: the name is before the first `(` that follows a name (Go's `(*T).m`
        // begins with one).
        let plain = without_pointer_receivers(trimmed);
        let (named, parameters) = match plain.find('(') {
            Some(open) if open > 0 => (
                plain[..open].to_string(),
                Some(CallParameters::parse(&plain[open + 1..])),
            ),
            _ => (plain, None),
        };
        let parts = split_qualified(&named);
        let Some((name, owners)) = parts.split_last() else {
            return Err(Error::Usage("--refs needs a name".into()));
        };
        // Only a whole identifier can be matched as one. Ruby's `save!` and `valid?` are names of their own.
        let stem = name.strip_suffix(['!', '?']).unwrap_or(name);
        if stem.is_empty() || !stem.chars().all(is_identifier_char) {
            return Err(Error::Usage(format!(
                "--refs '{}': give one identifier, Type.method, or name(PARAMS",
                echo(query)
            )));
        }
        Ok(RefQuery {
            text: query.to_string(),
            name: name.clone(),
            member_only: !owners.is_empty(),
            owner: owners.last().cloned(),
            parameters,
        })
    }
}

/// Whether `entry`'s parameters begin with `prefix` (spaces collapsed): the text after the
/// first `(` that follows the name in the signature, generic parameters (`validate<S>(`)
/// skipped.
pub(crate) fn parameters_begin_with(
    entry: &crate::outline::Entry,
    prefix: &str,
    case_sensitive: bool,
) -> bool {
    let Some(signature) = entry.signature.as_deref() else {
        return false;
    };
    let name = entry.bare_name();
    let Some(after_name) = signature.find(name).map(|at| &signature[at + name.len()..]) else {
        return false;
    };
    let Some(open) = after_name.find('(') else {
        return false;
    };
    let params = collapse_spaces(&after_name[open + 1..]);
    match case_sensitive {
        true => params.starts_with(prefix),
        false => params.to_lowercase().starts_with(&prefix.to_lowercase()),
    }
}

/// The parameter prefix a query wrote after `(`: spaces collapsed, a closing `)` dropped
/// unless the list is empty (`peek()` asks for no parameters).
fn params_prefix(written: &str) -> String {
    let prefix = collapse_spaces(written);
    match prefix.strip_suffix(')') {
        Some(open) if !open.trim().is_empty() => open.trim_end().to_string(),
        _ => prefix,
    }
}

/// `text` with each run of white space one space, none at the start.
fn collapse_spaces(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What an identifier is made of, in any language searched: letters and digits of any
/// script, `_`, `$` (JavaScript) and `-` (CSS).
fn is_identifier_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '$' | '-')
}

/// `name` with each Go pointer receiver `(*T)` written `T`: `(*Command).execute` is the
/// path `Command`, `execute`, as the method's entry (named so) is found by.
fn without_pointer_receivers(name: &str) -> String {
    let mut plain = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(at) = rest.find("(*") {
        let after = &rest[at + 2..];
        let Some(close) = after.find(')') else { break };
        let inner = &after[..close];
        plain.push_str(&rest[..at]);
        match inner.chars().all(is_identifier_char) && !inner.is_empty() {
            true => plain.push_str(inner),
            false => plain.push_str(&rest[at..at + 2 + close + 1]),
        }
        rest = &after[close + 1..];
    }
    plain.push_str(rest);
    plain
}

/// `a.b`, `a::b`, `a/b`, `a->b` and Ruby's `A#b` (an instance method) all mean the path
/// `a`, `b`. A `#` that follows no name is part of it (a CSS `#id`, a heading).
fn split_qualified(name: &str) -> Vec<String> {
    let mut member_hashes = String::with_capacity(name.len());
    let mut previous = None;
    for c in name.chars() {
        let after_name = previous.is_some_and(is_identifier_char);
        member_hashes.push(if c == '#' && after_name { '.' } else { c });
        previous = Some(c);
    }
    member_hashes
        .replace("::", ".")
        .replace("->", ".")
        .replace('/', ".")
        .split('.')
        .filter(|part| !part.is_empty())
        .map(str::to_string)
        .collect()
}

fn glob_matcher(pattern: &str, case_sensitive: bool) -> Result<GlobMatcher> {
    GlobBuilder::new(pattern)
        .case_insensitive(!case_sensitive)
        .literal_separator(false)
        .build()
        .map(|glob| glob.compile_matcher())
        .map_err(|e| {
            Error::Usage(format!(
                "--find {}: {}",
                echo(pattern),
                echo(&e.to_string())
            ))
        })
}

/// The kinds a query word or `--kind` item names: a wire name (`struct`, `at_rule`) or a
/// keyword people type (`fn`, `def`, `func` for functions and methods; `mod`; `const`).
pub fn kinds_for_word(word: &str) -> Option<Vec<Kind>> {
    let lower = word.to_ascii_lowercase();
    let kinds = match lower.as_str() {
        "fn" | "def" | "func" | "function" | "sub" => {
            vec![Kind::Function, Kind::Method, Kind::Procedure]
        }
        "mod" | "module" | "package" => vec![Kind::Module, Kind::Namespace],
        // The viewer's tags read as filters too: `mth`, `fld`, `const` (statics included).
        "mth" => vec![Kind::Method],
        "const" => vec![Kind::Constant, Kind::Static],
        "var" | "let" | "local" | "alias" => vec![Kind::Variable],
        "prop" => vec![Kind::Property],
        "fld" => vec![Kind::Field, Kind::Property],
        "type" | "typealias" => vec![Kind::Type, Kind::Typedef],
        other => vec![Kind::from_name(other)?],
    };
    Some(kinds)
}

/// Parses `--kind fn,struct`.
pub fn parse_kind_list(list: &str) -> Result<Vec<Kind>> {
    let mut kinds = Vec::new();
    for word in list.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        let found = kinds_for_word(word).ok_or_else(|| {
            let known: Vec<&str> = Kind::ALL.iter().map(|k| k.as_str()).collect();
            Error::Usage(format!(
                "--kind: unknown kind '{}'; known: fn, {}",
                echo(word),
                known.join(", ")
            ))
        })?;
        kinds.extend(found);
    }
    Ok(kinds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_paths_globs_and_kinds() {
        let q = FindQuery::parse("set_stringn", &[]).expect("valid");
        assert_eq!(q.parts, ["set_stringn"]);
        assert!(q.kinds.is_empty() && !q.case_sensitive && q.glob().is_none());
        for written in ["Buffer.set", "Buffer::set", "Buffer/set"] {
            let q = FindQuery::parse(written, &[]).expect("valid");
            assert_eq!(q.parts, ["Buffer", "set"], "{written}");
            assert!(q.case_sensitive);
        }
        let q = FindQuery::parse("class *Handler", &[]).expect("valid");
        assert_eq!(q.kinds, [Kind::Class]);
        let glob = q.glob().expect("glob");
        assert!(glob.is_match("RequestHandler") && !glob.is_match("Handlers"));
        let q = FindQuery::parse("fn new", &[Kind::Struct]).expect("valid");
        assert_eq!(
            q.kinds,
            [Kind::Function, Kind::Method, Kind::Procedure, Kind::Struct]
        );
        assert!(FindQuery::parse("banana split", &[]).is_err());
        assert!(FindQuery::parse("  ", &[]).is_err());
    }

    #[test]
    fn the_name_filter_holds_the_identifier_core() {
        let filter = |q: &str| FindQuery::parse(q, &[]).ok()?.name_filter();
        let operator = filter("operator+").expect("a filter");
        assert!(operator.is_match(b"bool operator +(int)"));
        let lower = filter("buffer").expect("a filter");
        assert!(lower.is_match(b"struct Buffer"));
        let upper = filter("Buffer").expect("a filter");
        assert!(!upper.is_match(b"struct buffer"));
        assert!(!lower.is_match(b"struct Buffers; fn buffer_len()"));
        assert!(filter("set_*").is_none() && filter("+").is_none());
    }

    #[test]
    fn smart_case() {
        let lower = FindQuery::parse("buffer", &[]).expect("valid");
        assert!(lower.same("Buffer", "buffer"));
        let upper = FindQuery::parse("Buffer", &[]).expect("valid");
        assert!(!upper.same("Buffer", "buffer"));
        let glob = FindQuery::parse("set_*", &[]).expect("valid");
        assert!(glob.glob().is_some_and(|g| g.is_match("SET_X")));
    }

    #[test]
    fn ruby_instance_methods_are_members() {
        let q = FindQuery::parse("Cart#each", &[]).expect("valid");
        assert_eq!(q.parts, ["Cart", "each"]);
        let css = FindQuery::parse("#main", &[]).expect("valid");
        assert_eq!(css.parts, ["#main"]);
    }

    #[test]
    fn go_pointer_receivers_are_owners_not_globs() {
        let q = FindQuery::parse("(*Command).execute", &[]).expect("valid");
        assert_eq!(q.parts, ["Command", "execute"]);
        assert!(q.glob().is_none());
        let r = RefQuery::parse("(*Command).execute").expect("valid");
        assert_eq!(
            (r.name.as_str(), r.owner.as_deref()),
            ("execute", Some("Command"))
        );
        assert_eq!(without_pointer_receivers("pkg.(*T).m"), "pkg.T.m");
        // Not a receiver: left as written.
        assert_eq!(without_pointer_receivers("(* x)"), "(* x)");
        assert_eq!(without_pointer_receivers("(*open"), "(*open");
        assert!(RefQuery::parse("(f").is_err());
    }

    #[test]
    fn kind_lists_and_refs() {
        assert_eq!(
            parse_kind_list("struct, at_rule").expect("valid"),
            [Kind::Struct, Kind::AtRule]
        );
        assert!(parse_kind_list("struct,wat").is_err());
        let r = RefQuery::parse("Walker::next").expect("valid");
        assert_eq!((r.name.as_str(), r.member_only), ("next", true));
        assert_eq!(r.owner.as_deref(), Some("Walker"));
        assert!(!RefQuery::parse("is_hidden").expect("valid").member_only);
        assert!(RefQuery::parse("a b").is_err());
    }

    #[test]
    fn refs_parameters_count_the_arguments_a_call_may_pass() {
        let params = |q: &str| RefQuery::parse(q).expect("valid").parameters;
        let range = |q: &str| params(q).map(|p| (p.min_arguments, p.max_arguments));
        assert_eq!(range("readUtf8Line(newline: Long)"), Some((1, Some(1))));
        // An unclosed list is a beginning: more may follow.
        assert_eq!(range("readUtf8Line(newline"), Some((1, None)));
        assert_eq!(range("peek()"), Some((0, Some(0))));
        // Defaults, blocks and receivers are not required; variadics take any number.
        assert_eq!(
            range("route(verb, path, options = {}, &block)"),
            Some((2, Some(4)))
        );
        assert_eq!(range("load(self, path)"), Some((1, Some(1))));
        assert_eq!(range("len(&self)"), Some((0, Some(0))));
        assert_eq!(range("f(a, *args, **kw)"), Some((1, None)));
        assert_eq!(range("format(String fmt, Object... args)"), Some((1, None)));
        // Commas inside a type's brackets and arrows are one parameter's.
        assert_eq!(
            range("put(m: Map<K, V>, f: (Int) -> Unit, ok: Boolean = a >= b)"),
            Some((2, Some(3)))
        );
        assert_eq!(range("plain"), None);
        let closed = params("readUtf8Line(newline: Long): String").expect("params");
        assert_eq!(
            (closed.prefix.as_str(), closed.closed),
            ("newline: Long", true)
        );
        assert!(closed.accepts(1) && !closed.accepts(0) && !closed.accepts(2));
        assert_eq!(closed.describe(), "1 argument");
        let r = RefQuery::parse("Buffer.readUtf8Line(newline").expect("valid");
        assert_eq!(
            (r.name.as_str(), r.owner.as_deref()),
            ("readUtf8Line", Some("Buffer"))
        );
    }
}
