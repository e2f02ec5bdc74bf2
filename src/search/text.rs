//! Text across a tree, each hit attributed to its innermost enclosing outline entry: regex
//! matches ([`grep`]) and identifier references ([`refs`]). Comments and strings are told from
//! code by the same masks the scanners use ([`crate::parse::code_mask`]).

use super::{ancestors_at, each_file, EntryRef, PartialNotes, RefQuery, Scope, Summary};
use super::{docstring, is_test_entry};
use crate::document::Document;
use crate::lang::Language;
use crate::outline::{Entry, Outline};
use crate::parse::{self, LineIndex, ParseOptions};
use crate::source::{self, Loaded};
use crate::tokens::Tokenizer;
use regex::Regex;
use std::collections::BTreeMap;
use std::ops::{ControlFlow, RangeInclusive};
use std::path::PathBuf;

/// Longest hit or context line kept, in characters; longer lines (minified code) are cut
/// around the match so that one line cannot flood an answer.
pub(crate) const MAX_LINE_CHARS: usize = 240;

/// `-W` shows an enclosing entry whole up to this many lines; a longer one shows its first
/// line, the blocks around each hit and a line either side of it. At 20 lines, the second
/// agent trial ("who calls X and how does each handle a failure") read every caller of 26 to
/// 59 lines again whole after its fragments, six times in twelve questions: the fragments
/// were paid for twice. (The first trial, on "which function produces this message", had
/// found a 37-line function whole costing 4x its useful lines: the cheaper question pays.)
pub const WHOLE_BODY_LINES: usize = 60;

/// How to search and what to return.
#[derive(Debug, Clone, Copy, Default)]
pub struct TextSearch {
    /// Lines of context around each hit (`-C N`).
    pub context: usize,
    /// The enclosing entry as context (`-W`): whole when at most [`WHOLE_BODY_LINES`] long,
    /// else its first line and a line around each hit.
    pub function_context: bool,
    /// Grep only: skip matches inside comments and strings (files that are not code are
    /// skipped).
    pub code_only: bool,
    /// Count the tokens of each enclosing entry.
    pub tokens: Option<Tokenizer>,
}

/// One matching line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// 1-based line.
    pub line: usize,
    /// 1-based byte column of the first match on the line.
    pub column: usize,
    /// The line (cut to `MAX_LINE_CHARS` characters around the match).
    pub text: String,
    /// References only: this occurrence is a definition of the name.
    pub definition: bool,
    /// References of `Type.method` only: every use on the line has no call after it
    /// (`result.plan.isReady`, a `val plan` of a nested type), in a language whose calls need
    /// their brackets.
    /// When the method is all the paths define of `Type.name`, that is a namesake field or
    /// property, not the method: the text answer leaves such lines out and counts them.
    pub uncalled_member: bool,
}

/// Consecutive hits inside one entry (or outside every entry: `entry` is `None`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HitGroup {
    pub entry: Option<EntryRef>,
    pub hits: Vec<Hit>,
    /// Context lines around the hits (`-C`), not themselves hits, by line number.
    pub context: Vec<(usize, String)>,
}

impl HitGroup {
    /// Whether a hit of this group defines the name (references).
    pub fn defines(&self) -> bool {
        self.hits.iter().any(|hit| hit.definition)
    }

    /// The first and last line with a hit (`(0, 0)` for none).
    fn hit_span(&self) -> (usize, usize) {
        let lines = self.hits.iter().map(|hit| hit.line);
        (lines.clone().min().unwrap_or(0), lines.max().unwrap_or(0))
    }
}

/// One file's hits, grouped in source order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileHits {
    pub path: PathBuf,
    pub language: Option<Language>,
    pub hash: String,
    pub groups: Vec<HitGroup>,
    /// References only: uses of local variables named as asked, left out (declarations
    /// included).
    pub local_uses: usize,
    /// References of `name(PARAMS` only: what belongs to other overloads, left out.
    pub other_overloads: OtherOverloads,
}

/// What a `--refs name(PARAMS` query left out as belonging to other overloads: it says so
/// with these counts, never silently.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OtherOverloads {
    /// Definitions of the name whose parameters are not the ones asked for.
    pub definitions: usize,
    /// Calls passing a number of arguments those parameters do not accept.
    pub calls: usize,
}

impl std::ops::AddAssign for OtherOverloads {
    fn add_assign(&mut self, other: OtherOverloads) {
        self.definitions += other.definitions;
        self.calls += other.calls;
    }
}

/// Searches every text file below `scope` for `regex`, handing each file with hits to
/// `deliver` in path order.
pub fn grep(
    scope: &Scope,
    regex: &Regex,
    options: TextSearch,
    deliver: impl FnMut(FileHits) -> ControlFlow<()>,
) -> crate::Result<Summary> {
    grep_prepared(scope, regex, options, |file| file, deliver)
}

/// [`grep`] with each file's hits first handed to `prepare` on the worker thread that found
/// them (on every core), and what it makes to `deliver` in path order (on one thread): a
/// consumer renders there so that the thread that writes in order only writes.
pub(crate) fn grep_prepared<T: Send>(
    scope: &Scope,
    regex: &Regex,
    options: TextSearch,
    prepare: impl Fn(FileHits) -> T + Sync,
    mut deliver: impl FnMut(T) -> ControlFlow<()>,
) -> crate::Result<Summary> {
    // The same pattern over raw bytes decides which files are worth decoding and parsing.
    let raw = regex::bytes::RegexBuilder::new(regex.as_str())
        .multi_line(true)
        .crlf(true)
        .build()
        .ok();
    let worth = |bytes: &[u8]| raw.as_ref().is_none_or(|raw| raw.is_match(bytes));
    let partial = PartialNotes::default();
    let mut summary = each_file(
        scope,
        |path, language| {
            let root = scope.root.as_deref();
            let Some(searched) = load(&path, root, language, options.code_only, worth)? else {
                return Ok(None);
            };
            let file = grep_file(path, searched, regex, options, scope.no_tests, &partial)?;
            Ok(file.map(&prepare))
        },
        &mut deliver,
    )?;
    summary.partial = partial.into_sorted();
    Ok(summary)
}

/// Finds the uses of `query` in code below `scope` (never inside comments or strings),
/// handing each file with any to `deliver` in path order.
pub fn refs(
    scope: &Scope,
    query: &RefQuery,
    options: TextSearch,
    deliver: impl FnMut(FileHits) -> ControlFlow<()>,
) -> crate::Result<Summary> {
    refs_prepared(scope, query, options, |file| file, deliver)
}

/// [`refs`] with each file's uses first handed to `prepare` on the worker thread that found
/// them, as [`grep_prepared`] does.
pub(crate) fn refs_prepared<T: Send>(
    scope: &Scope,
    query: &RefQuery,
    options: TextSearch,
    prepare: impl Fn(FileHits) -> T + Sync,
    mut deliver: impl FnMut(T) -> ControlFlow<()>,
) -> crate::Result<Summary> {
    let name = query.name.as_bytes();
    let worth = |bytes: &[u8]| memchr::memmem::find(bytes, name).is_some();
    let partial = PartialNotes::default();
    let mut summary = each_file(
        scope,
        |path, language| {
            let Some(searched) = load(&path, scope.root.as_deref(), language, true, worth)? else {
                return Ok(None);
            };
            if !searched.document.extent.complete {
                let what = "uses are found only there (--grep finds the rest as text)";
                partial.note(&path, searched_part(&searched.document, what));
            }
            Ok(refs_file(path, searched, query, options, scope.no_tests)?.map(&prepare))
        },
        &mut deliver,
    )?;
    summary.partial = partial.into_sorted();
    Ok(summary)
}

/// What part of a file larger than the read cap a code-aware search saw: comments and
/// strings are told from code by masking the text from its start, which only the text in
/// memory allows.
fn searched_part(document: &Document, what: &str) -> String {
    let text = document.text.as_bytes();
    let whole = whole_lines_end(text);
    format!(
        "file has {} lines ({} bytes); searched the first {} lines, within the {} MB read cap: {what}",
        parse::thousands(document.extent.lines),
        parse::thousands(document.extent.bytes),
        parse::thousands(parse::count_line_breaks(&text[..whole])),
        parse::MAX_BYTES >> 20,
    )
}

/// The end of the last whole line of `text`, the start of a file whose rest is not in memory.
fn whole_lines_end(text: &[u8]) -> usize {
    memchr::memrchr2(b'\n', b'\r', text).map_or(0, |at| at + 1)
}

/// A document loaded for text search, with its code mask when one is wanted.
struct Searched {
    document: Document,
    mask: Option<Vec<u8>>,
}

/// Reads a file and, only when `worth_reading` says its bytes may hold a hit, decodes,
/// outlines and (with `want_mask`) masks it: most files of a large tree have no hit and are
/// never parsed. `Ok(None)`: nothing to search (no hit possible, binary, or not code when code
/// is wanted); `Err`: the file could not be read (or lies outside `root` once opened).
fn load(
    path: &std::path::Path,
    root: Option<&std::path::Path>,
    language: Option<Language>,
    want_mask: bool,
    worth_reading: impl Fn(&[u8]) -> bool,
) -> crate::Result<Option<Searched>> {
    let loaded = source::read_if(path, root, worth_reading)?;
    let Some(loaded @ Loaded::Text { .. }) = loaded else {
        return Ok(None); // no hit possible, or binary
    };
    let language = language.or_else(|| match &loaded {
        Loaded::Text { text, .. } => crate::lang::detect_with_head(path, text.as_bytes()),
        Loaded::Binary => None,
    });
    let document = Document::from_loaded(path, loaded, language);
    let mask = match (want_mask, &document.outline) {
        (true, Some(outline)) => {
            let options = ParseOptions {
                language: outline.language,
                jsx: crate::lang::may_contain_jsx(path),
                rake: crate::lang::is_rake_file(path),
            };
            parse::code_mask(&document.text, options)
        }
        (true, None) => None,
        (false, _) => None,
    };
    if want_mask && mask.is_none() {
        return Ok(None); // not code: nothing to tell from comments and strings
    }
    Ok(Some(Searched { document, mask }))
}

fn grep_file(
    path: PathBuf,
    searched: Searched,
    regex: &Regex,
    options: TextSearch,
    no_tests: bool,
    partial: &PartialNotes,
) -> crate::Result<Option<FileHits>> {
    // Matched with every lone `\r` as `\n` (same offsets): `$` and `.` stop at a line's end
    // as they do on `\n` lines, and the mask, made the same way, compares byte for byte.
    let text = &*parse::lone_crs_as_newlines(&searched.document.text);
    let complete = searched.document.extent.complete;
    // Past the read cap only whole lines are searched in memory; the rest is streamed.
    let text = match complete {
        true => text,
        false => text.get(..whole_lines_end(text.as_bytes())).unwrap_or(""),
    };
    let index = LineIndex::new(text);
    let mut hits: Vec<Hit> = Vec::new();
    for found in regex.find_iter(text) {
        if let Some(mask) = &searched.mask {
            if mask.get(found.range()) != text.as_bytes().get(found.range()) {
                continue; // inside a comment or a string
            }
        }
        let line = index.line_of(found.start());
        if hits.last().is_some_and(|hit| hit.line == line) {
            continue;
        }
        hits.push(hit_at(
            text,
            &index,
            line,
            found.start(),
            found.len(),
            false,
        ));
    }
    if !complete {
        let document = &searched.document;
        match searched.mask {
            // Comments are told from code from the file's start on, which only memory holds.
            Some(_) => {
                let what = "comments and strings are told from code only there (search without --code-only for the rest)";
                partial.note(&path, searched_part(document, what));
            }
            None => {
                let first = parse::count_line_breaks(text.as_bytes()) + 1;
                hits.extend(stream_hits(document, regex, first)?);
            }
        }
    }
    finish(path, searched.document, hits, options, no_tests)
}

/// The hits of `regex` on lines `first..` of a file larger than the read cap, streamed line
/// by line with bounded memory: no file is too large to search whole. A match must lie
/// within a line there (as ripgrep's are); a line longer than the cap is searched in pieces.
fn stream_hits(document: &Document, regex: &Regex, first: usize) -> crate::Result<Vec<Hit>> {
    let mut hits: Vec<Hit> = Vec::new();
    source::each_line_from(
        &document.path,
        &document.extent,
        &document.hash,
        first,
        |line, offset, piece| {
            if hits.last().is_some_and(|hit| hit.line == line) {
                return;
            }
            if let Some(found) = regex.find(piece) {
                hits.push(Hit {
                    line,
                    column: offset + found.start() + 1,
                    text: cut_around(piece, found.start(), found.len()),
                    definition: false,
                    uncalled_member: false,
                });
            }
        },
    )?;
    Ok(hits)
}

fn refs_file(
    path: PathBuf,
    searched: Searched,
    query: &RefQuery,
    options: TextSearch,
    no_tests: bool,
) -> crate::Result<Option<FileHits>> {
    let (document, Some(mask)) = (&searched.document, searched.mask.as_deref()) else {
        return Ok(None);
    };
    let Some(outline) = document.outline.as_ref() else {
        return Ok(None);
    };
    let text = document.text.as_str();
    let index = LineIndex::new(text);
    let name = query.name.as_bytes();
    let word = word_bytes(outline.language);
    let prefixes_literals = matches!(
        outline.language,
        Language::Python | Language::Rust | Language::C | Language::Cpp
    );
    let mut hits: Vec<Hit> = Vec::new();
    let mut locals = super::locals::Locals::default();
    let mut other_overloads = OtherOverloads::default();
    for start in memchr::memmem::find_iter(mask, name) {
        let end = start + name.len();
        let before = start.checked_sub(1).and_then(|i| mask.get(i));
        if before.is_some_and(|b| word(*b)) || mask.get(end).is_some_and(|b| word(*b)) {
            continue;
        }
        if prefixes_literals && matches!(text.as_bytes().get(end), Some(b'"' | b'\'')) {
            continue; // a literal's prefix (b"", r'', u8"", L'x'), not an identifier
        }
        if outline.language == Language::Ruby && ruby_name_goes_on(mask, name, end) {
            continue; // `route!` or `empty?`: another method than `route` or `empty`
        }
        let line = index.line_of(start);
        let declared = declared_entry(outline, query, text, &index, line, start);
        let defined = declared.filter(|entry| owned_by_query(outline, query, line, entry));
        if declared.is_some() && defined.is_none() {
            continue; // a namesake's declaration (`val plan` of another type): not a use
        }
        let definition = defined.is_some();
        if let Some(wanted) = &query.parameters {
            let other = match defined {
                Some(entry) => !wanted.defined_by(entry),
                None => super::arguments::call_arguments(mask, end, outline.language)
                    .is_some_and(|count| !wanted.accepts(count)),
            };
            if other {
                match definition {
                    true => other_overloads.definitions += 1,
                    false => other_overloads.calls += 1,
                }
                continue;
            }
        }
        let member = after_member_operator(mask, start, outline.language);
        let function = super::innermost_at(&outline.entries, line);
        if !definition
            && locals.is_local(outline.language, mask, (start, end), line, function, member)
        {
            continue;
        }
        if query.member_only && !definition && !member && !inside_owner(outline, query, line) {
            continue;
        }
        // A member access, or a bare name kept as a use on the implicit `this`.
        let uncalled = query.owner.is_some()
            && !definition
            && calls_need_brackets(outline.language)
            && !mask[..start].trim_ascii_end().ends_with(b"::")
            && !called_at(mask, end, outline.language);
        if let Some(last) = hits.last_mut().filter(|hit| hit.line == line) {
            last.definition |= definition;
            last.uncalled_member &= uncalled;
            continue;
        }
        let mut hit = hit_at(text, &index, line, start, name.len(), definition);
        hit.uncalled_member = uncalled;
        hits.push(hit);
    }
    let (language, hash) = (Some(outline.language), document.hash.clone());
    let found = finish(path.clone(), searched.document, hits, options, no_tests)?;
    // A file whose only uses are left out still says how many were.
    let nothing_left_out = locals.left_out == 0 && other_overloads == OtherOverloads::default();
    Ok(match (found, nothing_left_out) {
        (Some(found), _) => Some(FileHits {
            local_uses: locals.left_out,
            other_overloads,
            ..found
        }),
        (None, true) => None,
        (None, false) => Some(FileHits {
            path,
            language,
            hash,
            groups: Vec::new(),
            local_uses: locals.left_out,
            other_overloads,
        }),
    })
}

/// The entry the occurrence at byte `start` (on `line`) is the name of, when it declares
/// one: the first occurrence of the name inside an entry of that name (signatures may span
/// lines), whatever its owner.
fn declared_entry<'o>(
    outline: &'o Outline,
    query: &RefQuery,
    text: &str,
    index: &LineIndex,
    line: usize,
    start: usize,
) -> Option<&'o Entry> {
    let chain = ancestors_at(outline, line);
    let entry = *chain.last()?;
    if entry.bare_name() != query.name {
        return None;
    }
    let entry_start = index.start_of(entry.line);
    text.get(entry_start..start)
        .is_some_and(|before| !contains_word(before, &query.name))
        .then_some(entry)
}

/// Whether `entry` (declared at `line`) is the query's: any entry of the name for a bare
/// name, for `Type.method` one whose innermost owner is `Type` (written into the name, as
/// Go's `(*T).m`, else the parent entry).
fn owned_by_query(outline: &Outline, query: &RefQuery, line: usize, entry: &Entry) -> bool {
    let Some(owner) = &query.owner else {
        return true;
    };
    match entry.name_owners().last() {
        Some(written) => written == owner,
        None => {
            let chain = ancestors_at(outline, line);
            chain
                .len()
                .checked_sub(2)
                .and_then(|parent| chain.get(parent))
                .is_some_and(|p| p.owner_names().any(|name| name == owner))
        }
    }
}

/// Whether `word` stands in `text` as a whole identifier.
fn contains_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].bytes().next_back();
        let after = text[at + word.len()..].bytes().next();
        !before.is_some_and(crate::parse::lex::is_word_byte)
            && !after.is_some_and(crate::parse::lex::is_word_byte)
    })
}

/// The bytes identifiers are made of: CSS names also hold `-`; in shell `$` is a sigil
/// (`$name` refers to `name`), not part of a name.
fn word_bytes(language: Language) -> fn(u8) -> bool {
    match language {
        Language::Css => |b| crate::parse::lex::is_word_byte(b) || b == b'-',
        Language::Shell => |b| b != b'$' && crate::parse::lex::is_word_byte(b),
        _ => crate::parse::lex::is_word_byte,
    }
}

/// Whether the Ruby `name` found ending at `end` is part of another name: `save` goes on
/// with the `!` or `?` of `save!` or `save?` (not with `!=`, nor a ternary's spaced `?`), and
/// `save!` or `save?` followed by `=` is `save` then `!=` or `?=`.
fn ruby_name_goes_on(mask: &[u8], name: &[u8], end: usize) -> bool {
    match name.last() {
        Some(b'!' | b'?') => mask.get(end) == Some(&b'='),
        _ => matches!(mask.get(end), Some(b'!' | b'?')) && mask.get(end + 1) != Some(&b'='),
    }
}

/// Whether the code right before `start` (spaces skipped) is `.`, `::` or, where it reaches
/// a member (C, C++, PHP), `->`: in Kotlin or Java it ends a `when` branch or a lambda's
/// parameters, and what follows is a plain call.
fn after_member_operator(mask: &[u8], start: usize, language: Language) -> bool {
    let before = mask[..start].trim_ascii_end();
    let arrow_reaches_members = matches!(language, Language::C | Language::Cpp | Language::Php);
    before.ends_with(b".")
        || before.ends_with(b"::")
        || (arrow_reaches_members && before.ends_with(b"->"))
}

/// Languages where a method is only called with its argument list written (`x.f()`, or a
/// trailing closure in Kotlin and Swift): a member access without one is no call. Not
/// Python, Ruby, JavaScript or TypeScript, whose properties and getters are methods read
/// without brackets, nor Lua or shell.
fn calls_need_brackets(language: Language) -> bool {
    matches!(
        language,
        Language::Java
            | Language::Kotlin
            | Language::CSharp
            | Language::Go
            | Language::Rust
            | Language::C
            | Language::Cpp
            | Language::Php
            | Language::Swift
    )
}

/// Whether the name ending at byte `end` is called (an argument list or trailing closure
/// after it, generic arguments skipped) or named on (`::<T>` in Rust, `::` in a path). A
/// name after `::` is not asked: `Worker::new` and Kotlin's `Buffer::readLine` name the
/// method as a value.
fn called_at(mask: &[u8], end: usize, language: Language) -> bool {
    let rest = mask.get(end..).unwrap_or(&[]);
    super::arguments::call_arguments(mask, end, language).is_some()
        || rest.trim_ascii_start().starts_with(b"::")
}

/// Whether `line` lies inside a member of `Type` of a `Type.method` query (in the type's
/// body, an impl or extension of it, or a function written `Type.f` as Kotlin extension
/// functions are), where a bare `method(…)` is a call on the implicit `this`.
fn inside_owner(outline: &Outline, query: &RefQuery, line: usize) -> bool {
    let Some(owner) = &query.owner else {
        return false;
    };
    ancestors_at(outline, line).iter().any(|entry| {
        entry.name_owners().last() == Some(owner.as_str())
            || (is_type_body(entry.kind) && entry.owner_names().any(|name| name == owner))
    })
}

/// Kinds whose body holds a type's members.
fn is_type_body(kind: crate::outline::Kind) -> bool {
    use crate::outline::Kind;
    matches!(
        kind,
        Kind::Class
            | Kind::Struct
            | Kind::Enum
            | Kind::Union
            | Kind::Trait
            | Kind::Interface
            | Kind::Impl
    )
}

fn hit_at(
    text: &str,
    index: &LineIndex,
    line: usize,
    at: usize,
    len: usize,
    definition: bool,
) -> Hit {
    let line_start = index.start_of(line);
    let line_text = line_of(text, line_start);
    let column = at - line_start + 1;
    Hit {
        line,
        column,
        text: cut_around(line_text, at - line_start, len),
        definition,
        uncalled_member: false,
    }
}

/// The line starting at byte `start`, without its ending (`\n`, `\r\n` or a lone `\r`).
fn line_of(text: &str, start: usize) -> &str {
    let rest = text.get(start..).unwrap_or("");
    let end = memchr::memchr2(b'\n', b'\r', rest.as_bytes()).unwrap_or(rest.len());
    &rest[..end]
}

/// `line` cut to [`MAX_LINE_CHARS`] around the match at byte `at` (length `len`), with `…`
/// where text was cut.
fn cut_around(line: &str, at: usize, len: usize) -> String {
    if line.chars().count() <= MAX_LINE_CHARS {
        return line.to_string();
    }
    let margin = MAX_LINE_CHARS.saturating_sub(len.min(MAX_LINE_CHARS)) / 2;
    let mut start = at.saturating_sub(margin);
    while !line.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (start + MAX_LINE_CHARS).min(line.len());
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    let mut cut = String::new();
    if start > 0 {
        cut.push('…');
    }
    cut.push_str(&line[start..end]);
    if end < line.len() {
        cut.push('…');
    }
    cut
}

/// Groups `hits` by innermost entry and adds context lines and token counts.
fn finish(
    path: PathBuf,
    document: Document,
    mut hits: Vec<Hit>,
    options: TextSearch,
    no_tests: bool,
) -> crate::Result<Option<FileHits>> {
    if let (true, Some(outline)) = (no_tests, &document.outline) {
        hits.retain(|hit| {
            !ancestors_at(outline, hit.line)
                .into_iter()
                .any(is_test_entry)
        });
    }
    if hits.is_empty() {
        return Ok(None);
    }
    let lines = document.lines();
    let entries: &[Entry] = document.outline.as_ref().map_or(&[], |o| &o.entries);
    let mut groups: Vec<HitGroup> = Vec::new();
    let mut last_entry: Option<&Entry> = None;
    for hit in hits {
        let entry = super::innermost_at(entries, hit.line);
        let same = match (last_entry, entry) {
            (Some(last), Some(entry)) => std::ptr::eq(last, entry),
            (None, None) => !groups.is_empty(),
            _ => false,
        };
        last_entry = entry;
        if !same {
            let outline = document.outline.as_ref();
            let id_of = |entry| outline.and_then(|o| o.id_of(entry)).unwrap_or_default();
            let mut entry_ref = entry.map(|entry| EntryRef::of(entry, id_of(entry).into()));
            if let (Some(found), Some(tokenizer)) = (&mut entry_ref, options.tokens) {
                let body = lines
                    .get(found.line - 1..found.end_line.min(lines.len()))
                    .unwrap_or(&[]);
                found.tokens = Some(tokenizer.count(&(body.join("\n") + "\n")));
            }
            groups.push(HitGroup {
                entry: entry_ref,
                hits: Vec::new(),
                context: Vec::new(),
            });
        }
        if let Some(group) = groups.last_mut() {
            group.hits.push(hit);
        }
    }
    if options.context > 0 || options.function_context {
        // Lines in memory come from it; those past the read cap from one more streamed pass.
        let (in_memory, total) = match document.extent.complete {
            true => (lines.len(), lines.len()),
            false => (
                parse::count_line_breaks(
                    &document.text.as_bytes()[..whole_lines_end(document.text.as_bytes())],
                ),
                document.extent.lines,
            ),
        };
        // A group's context stops short of the hits of the groups on either side: a hit is
        // never repeated as context, and each line is context to two groups at most.
        let spans: Vec<(usize, usize)> = groups.iter().map(HitGroup::hit_span).collect();
        // A function's context is code's: a Markdown section or a YAML block around a hit is
        // prose an agent did not ask for (a CHANGELOG's sections cost more than the code hits).
        let function_context = options.function_context
            && document
                .outline
                .as_ref()
                .is_some_and(|outline| outline.language.is_code());
        let python = document
            .outline
            .as_ref()
            .is_some_and(|outline| outline.language == Language::Python);
        let wanted: Vec<Vec<RangeInclusive<usize>>> = groups
            .iter()
            .enumerate()
            .map(|(index, group)| {
                let after = index
                    .checked_sub(1)
                    .and_then(|previous| spans.get(previous))
                    .map_or(0, |span| span.1);
                let before = spans.get(index + 1).map_or(usize::MAX, |next| next.0);
                let within = after.saturating_add(1)..=before.saturating_sub(1);
                match function_context {
                    true => {
                        let heads = |hit| {
                            let entry = group.entry.as_ref();
                            super::blocks::around_hit(&lines, entry, hit)
                        };
                        let ranges =
                            function_ranges(group, options.context.max(1), within, total, heads);
                        match group.entry.as_ref().filter(|_| python) {
                            // A hit in the docstring is what was asked about: it stays whole.
                            Some(entry) => match docstring::rest_of_docstring(&lines, entry) {
                                Some(drop)
                                    if !group.hits.iter().any(|h| drop.contains(&h.line)) =>
                                {
                                    docstring::without(ranges, &drop)
                                }
                                _ => ranges,
                            },
                            None => ranges,
                        }
                    }
                    false => context_ranges(group, options.context, within, total),
                }
            })
            .collect();
        let streamed = streamed_lines(&document, wanted.iter().flatten(), in_memory)?;
        for (group, ranges) in groups.iter_mut().zip(&wanted) {
            // A definition is where the reader already is: its context would repeat what
            // `--find` or `--symbol` shows and push the uses further down.
            if group.defines() {
                continue;
            }
            fill_context(group, ranges, |number| match number <= in_memory {
                true => lines.get(number - 1).map(|text| cut_around(text, 0, 0)),
                false => streamed.get(&number).cloned(),
            });
        }
    }
    Ok(Some(FileHits {
        path,
        language: document.outline.as_ref().map(|o| o.language),
        hash: document.hash,
        groups,
        local_uses: 0,
        other_overloads: OtherOverloads::default(),
    }))
}

/// `-W`: the lines of `group`'s entry (all of them when it has at most [`WHOLE_BODY_LINES`],
/// else its first line and one line around each hit), or `context` lines around hits outside
/// every entry; kept `within` the lines the group may take, disjoint and in order.
fn function_ranges(
    group: &HitGroup,
    context: usize,
    within: RangeInclusive<usize>,
    total: usize,
    heads: impl Fn(usize) -> Vec<usize>,
) -> Vec<RangeInclusive<usize>> {
    let Some(entry) = &group.entry else {
        return context_ranges(group, context, within, total);
    };
    let from = entry.line.max(*within.start());
    let to = entry.end_line.min(*within.end()).min(total);
    if entry.end_line - entry.line < WHOLE_BODY_LINES {
        return match from <= to {
            true => vec![from..=to],
            false => Vec::new(),
        };
    }
    let mut lines: Vec<usize> = context_ranges(group, 1, from..=to, total)
        .into_iter()
        .flatten()
        .collect();
    lines.push(entry.line);
    for hit in &group.hits {
        lines.extend(heads(hit.line));
    }
    lines.retain(|line| within.contains(line) && *line <= total);
    lines.sort_unstable();
    lines.dedup();
    // Consecutive lines as one range; a one-line gap is filled, as the line costs what the
    // `--` that would stand for it does.
    let mut ranges: Vec<RangeInclusive<usize>> = Vec::new();
    for line in lines {
        match ranges.last_mut() {
            Some(last) if line <= *last.end() + 2 => *last = *last.start()..=line,
            _ => ranges.push(line..=line),
        }
    }
    ranges
}

/// The line ranges within `context` of each hit of `group` and `within` the lines it may
/// take, in a file of `total` lines: disjoint and in order, so each line is looked at once at
/// most, whatever `context` says. The work is bounded by the file, not by the number asked
/// for (`-C 4294967296` on a 4-line file costs what `-C 4` does, and
/// `-C 18446744073709551615` does not wrap).
fn context_ranges(
    group: &HitGroup,
    context: usize,
    within: RangeInclusive<usize>,
    total: usize,
) -> Vec<RangeInclusive<usize>> {
    let mut hit_lines: Vec<usize> = group.hits.iter().map(|hit| hit.line).collect();
    hit_lines.sort_unstable();
    hit_lines.dedup();
    // Lines before `from` were taken (or passed) for an earlier hit.
    let mut from = (*within.start()).max(1);
    let end = (*within.end()).min(total);
    let mut ranges = Vec::new();
    for &line in &hit_lines {
        let first = line.saturating_sub(context).max(from);
        let last = line.saturating_add(context).min(end);
        if first <= last {
            ranges.push(first..=last);
        }
        from = from.max(last.saturating_add(1));
    }
    ranges
}

/// Adds the lines of `ranges` that are not hits to `group`'s context, their text from `line`.
fn fill_context(
    group: &mut HitGroup,
    ranges: &[RangeInclusive<usize>],
    line: impl Fn(usize) -> Option<String>,
) {
    let mut hit_lines: Vec<usize> = group.hits.iter().map(|hit| hit.line).collect();
    hit_lines.sort_unstable();
    for number in ranges.iter().flat_map(|range| range.clone()) {
        if hit_lines.binary_search(&number).is_ok() {
            continue;
        }
        match line(number) {
            Some(text) => group.context.push((number, text)),
            None => break,
        }
    }
}

/// The lines of `ranges` past line `in_memory` of `document`, cut as context lines are, read
/// by streaming the file (nothing to read when every range lies in memory).
fn streamed_lines<'r>(
    document: &Document,
    ranges: impl Iterator<Item = &'r RangeInclusive<usize>>,
    in_memory: usize,
) -> crate::Result<BTreeMap<usize, String>> {
    let mut past: Vec<RangeInclusive<usize>> = ranges
        .filter(|range| *range.end() > in_memory)
        .map(|range| (*range.start()).max(in_memory + 1)..=*range.end())
        .collect();
    let mut lines = BTreeMap::new();
    if past.is_empty() {
        return Ok(lines);
    }
    // Neighbouring groups' ranges may overlap: merged, the one range starting at or before
    // a line is the only one that may hold it.
    past.sort_by_key(|range| *range.start());
    let mut merged: Vec<RangeInclusive<usize>> = Vec::with_capacity(past.len());
    for range in past {
        match merged.last_mut() {
            Some(last) if *range.start() <= last.end().saturating_add(1) => {
                *last = *last.start()..=(*last.end()).max(*range.end());
            }
            _ => merged.push(range),
        }
    }
    let first = merged.first().map_or(usize::MAX, |range| *range.start());
    let wanted = |line: usize| {
        let at = merged.partition_point(|range| *range.start() <= line);
        at > 0 && merged[at - 1].contains(&line)
    };
    source::each_line_from(
        &document.path,
        &document.extent,
        &document.hash,
        first,
        |line, offset, piece| {
            if offset == 0 && wanted(line) {
                lines.insert(line, cut_around(piece, 0, 0));
            }
        },
    )?;
    Ok(lines)
}

/// [`context_ranges`] and [`fill_context`] over lines all in memory.
#[cfg(test)]
fn add_context(
    group: &mut HitGroup,
    lines: &[&str],
    context: usize,
    within: RangeInclusive<usize>,
) {
    let ranges = context_ranges(group, context, within, lines.len());
    fill_context(group, &ranges, |number| {
        lines.get(number - 1).map(|text| cut_around(text, 0, 0))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group_at(hit_lines: &[usize]) -> HitGroup {
        HitGroup {
            entry: None,
            hits: hit_lines
                .iter()
                .map(|&line| Hit {
                    line,
                    column: 1,
                    text: String::new(),
                    definition: false,
                    uncalled_member: false,
                })
                .collect(),
            context: Vec::new(),
        }
    }

    fn context_of(hit_lines: &[usize], context: usize, within: (usize, usize)) -> Vec<usize> {
        let lines = ["1", "2", "3", "4", "5", "6", "7", "8"];
        let mut group = group_at(hit_lines);
        add_context(&mut group, &lines, context, within.0..=within.1);
        group.context.iter().map(|(n, _)| *n).collect()
    }

    fn entry_lines(line: usize, end_line: usize) -> crate::search::EntryRef {
        let entry = crate::outline::Entry::new(crate::outline::Kind::Function, "f", line, end_line);
        crate::search::EntryRef::of(&entry, "1".into())
    }

    fn no_heads(_: usize) -> Vec<usize> {
        Vec::new()
    }

    #[test]
    fn scope_heads_are_the_less_indented_lines_above_a_hit() {
        let text = "fn f() {\n    let a = 1;\n    if a > 0 {\n        b();\n\n        for x in y {\n            hit();\n        }\n    }\n}";
        let lines: Vec<&str> = text.lines().collect();
        let entry = entry_lines(1, 10);
        assert_eq!(
            super::super::blocks::scope_heads(&lines, Some(&entry), 7),
            [6, 3]
        );
        // A hit at the body's own level has none; the entry's first line is shown anyway.
        assert_eq!(
            super::super::blocks::scope_heads(&lines, Some(&entry), 2),
            Vec::<usize>::new()
        );
        let mut long = group_at(&[7]);
        long.entry = Some(entry_lines(1, 10 + WHOLE_BODY_LINES));
        let heads = |hit| super::super::blocks::scope_heads(&lines, long.entry.as_ref(), hit);
        assert_eq!(
            function_ranges(&long, 1, 1..=usize::MAX, 10, heads),
            [1..=3, 6..=8]
        );
    }

    #[test]
    fn a_one_line_gap_is_filled() {
        let mut long = group_at(&[14]);
        long.entry = Some(entry_lines(10, 10 + WHOLE_BODY_LINES + 20));
        // Lines 10 and 13-15: lines 11 and 12 are a two-line gap, kept as a gap.
        assert_eq!(
            function_ranges(&long, 1, 1..=usize::MAX, 200, no_heads),
            [10..=10, 13..=15]
        );
        let mut near = group_at(&[13]);
        near.entry = long.entry.clone();
        assert_eq!(
            function_ranges(&near, 1, 1..=usize::MAX, 200, no_heads),
            [10..=14]
        );
    }

    #[test]
    fn function_context_is_a_short_body_whole_and_a_long_one_around_its_hits() {
        let mut short = group_at(&[5]);
        short.entry = Some(entry_lines(3, 9));
        assert_eq!(
            function_ranges(&short, 1, 1..=usize::MAX, 100, no_heads),
            [3..=9]
        );
        // Kept within the lines the neighbouring groups leave it.
        assert_eq!(function_ranges(&short, 1, 4..=7, 100, no_heads), [4..=7]);
        let mut long = group_at(&[25, 45]);
        long.entry = Some(entry_lines(10, 10 + WHOLE_BODY_LINES + 40));
        assert_eq!(
            function_ranges(&long, 1, 1..=usize::MAX, 200, no_heads),
            [10..=10, 24..=26, 44..=46]
        );
        // A hit next to the first line joins it.
        let mut near = group_at(&[11]);
        near.entry = Some(entry_lines(10, 10 + WHOLE_BODY_LINES + 20));
        assert_eq!(
            function_ranges(&near, 1, 1..=usize::MAX, 200, no_heads),
            [10..=12]
        );
        // Outside every entry: plain context.
        assert_eq!(
            function_ranges(&group_at(&[4]), 1, 1..=usize::MAX, 8, no_heads),
            [3..=5]
        );
    }

    #[test]
    fn context_is_bounded_by_the_file_and_the_neighbours() {
        assert_eq!(context_of(&[4], 1, (1, usize::MAX)), [3, 5]);
        assert_eq!(context_of(&[2, 6], 1, (1, usize::MAX)), [1, 3, 5, 7]);
        // Overlapping windows give each line once.
        assert_eq!(context_of(&[3, 5], 2, (1, usize::MAX)), [1, 2, 4, 6, 7]);
        // Past the ends of the file: clamped, never wrapped, whatever the number.
        for context in [8, 4_294_967_296, usize::MAX] {
            assert_eq!(
                context_of(&[4], context, (1, usize::MAX)),
                [1, 2, 3, 5, 6, 7, 8]
            );
        }
        // The lines between the hits of the groups on either side, no further.
        assert_eq!(context_of(&[4], usize::MAX, (3, 6)), [3, 5, 6]);
    }

    #[test]
    fn long_lines_are_cut_around_the_match() {
        let line = format!("{}needle{}", "a".repeat(1000), "b".repeat(1000));
        let cut = cut_around(&line, 1000, 6);
        assert!(cut.contains("needle") && cut.starts_with('…') && cut.ends_with('…'));
        assert!(cut.chars().count() <= MAX_LINE_CHARS + 2);
        assert_eq!(cut_around("short", 0, 1), "short");
        let wide = "é".repeat(500);
        assert!(cut_around(&wide, 501, 2).chars().count() <= MAX_LINE_CHARS + 2);
    }

    #[test]
    fn member_operators() {
        assert!(after_member_operator(b"a.b", 2, Language::Java));
        assert!(after_member_operator(b"a:: b", 4, Language::Rust));
        assert!(after_member_operator(b"p->b", 3, Language::Cpp));
        // Kotlin's `when` branch: `x -> f()` calls `f` plainly.
        assert!(!after_member_operator(b"x -> b", 5, Language::Kotlin));
        assert!(!after_member_operator(b"a b", 2, Language::Cpp));
    }

    #[test]
    fn whole_words() {
        assert!(contains_word("fn run(", "run"));
        assert!(!contains_word("fn rerun(", "run"));
        assert!(!contains_word("fn run_all(", "run"));
    }
}
