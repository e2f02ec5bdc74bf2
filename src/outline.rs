//! The outline model every consumer shares: an [`Outline`] per file holding a tree of [`Entry`].
//!
//! Parsers build entries with kind, name, signature and line range; [`Outline::new`] then
//! sorts children into source order and fills in the derived fields (each entry's place
//! among its siblings, which positional ids are made of, and qualified names) so that no
//! parser can get them wrong.

use crate::lang::Language;
/// The string type of names, qualified names and signatures: up to 24 bytes are kept
/// inline. Re-exported so that an embedder building entries needs no dependency of its own.
pub use compact_str::CompactString;

pub mod invariants;
mod owners;
pub mod select;

pub use owners::Owners;

/// Declares [`Kind`] from one row per kind, `Variant => "wire_name"`: the enum, [`Kind::ALL`]
/// and [`Kind::as_str`] are all built from that one list, so a kind is named in one place.
macro_rules! kinds {
    ($($variant:ident => $name:literal,)+) => {
        /// What an entry is. Its wire name, the snake_case string JSON output and `--find`'s
        /// kind filter use, is [`Kind::as_str`].
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Kind {
            $($variant,)+
        }

        impl Kind {
            /// Every kind, in declaration order.
            pub const ALL: [Kind; [$(Kind::$variant,)+].len()] = [$(Kind::$variant,)+];

            /// The wire name (`function`, `at_rule`), the same string JSON output carries.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Kind::$variant => $name,)+
                }
            }
        }
    };
}

kinds! {
    Class => "class",
    Function => "function",
    Method => "method",
    Struct => "struct",
    Enum => "enum",
    Union => "union",
    Trait => "trait",
    Impl => "impl",
    Interface => "interface",
    Type => "type",
    Typedef => "typedef",
    Namespace => "namespace",
    Module => "module",
    Constant => "constant",
    Variable => "variable",
    Static => "static",
    Field => "field",
    Property => "property",
    Macro => "macro",
    Heading => "heading",
    Key => "key",
    Table => "table",
    ArrayTable => "array_table",
    Document => "document",
    Element => "element",
    Rule => "rule",
    AtRule => "at_rule",
    View => "view",
    Index => "index",
    Trigger => "trigger",
    Procedure => "procedure",
    Sequence => "sequence",
    Schema => "schema",
    Target => "target",
    Stage => "stage",
    Instruction => "instruction",
}

impl Kind {
    /// The kind whose wire name is `name` (`at_rule`), if any.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| kind.as_str() == name)
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One entry of an outline: a definition, a heading, a key, a rule.
///
/// At most 128 bytes (see the size test): parsers move entries while they build and sort
/// trees, and every byte is copied on each move. So the bare name is stored as the tail of the
/// qualified name rather than as a string of its own, and the positional id is not stored but
/// made from each entry's place among its siblings ([`Outline::id_of`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub kind: Kind,
    /// The qualified name; the bare name is its tail from `name_at`. A parser's name until
    /// [`Outline::new`] puts the ancestors' names before it.
    qualified: CompactString,
    /// Where the bare name starts in `qualified`.
    name_at: u32,
    /// 1-based place among the siblings when [`Outline::new`] numbered them; the last
    /// segment of the positional id. Filtering siblings out (`--changed`) keeps it, so an id
    /// still names the entry in the whole outline.
    index: u32,
    /// The declaration as written, on one line (`def f(a, b) -> int`), when the parser knows it.
    pub signature: Option<CompactString>,
    /// Heading level (1-6) for Markdown headings.
    pub level: Option<u8>,
    /// First line, 1-based.
    pub line: usize,
    /// Last line, 1-based and inclusive; never before `line`.
    pub end_line: usize,
    /// Where the leading doc comments, comments, attributes and decorators written directly
    /// above the entry start; `line` when there are none. Never after `line`, never inside an
    /// earlier sibling or on the parent's first line (set by the parser core's doc pass).
    pub doc_line: usize,
    /// Nested entries, in source order.
    pub children: Vec<Entry>,
    /// Tokens of lines `line..=end_line`; set by `tokens::annotate`, never by a parser.
    pub tokens: Option<u32>,
    /// A changed line or deletion point lies in the range; set by [`Outline::mark_changes`].
    pub changed: bool,
    /// Set when the parser did not list what this entry's body holds (its `children` are then
    /// empty and unknown, never a complete empty list).
    pub truncated: Option<Truncation>,
    /// The type this entry belongs to and the trait it implements, as offsets into its
    /// strings; filled by [`Outline::new`] (see [`Entry::owner`]).
    pub owners: Owners,
}

/// Why a parser left an entry's children unlisted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Truncation {
    /// The body lies deeper than the scanner follows (its stack guard) or than [`MAX_DEPTH`].
    MaxNesting,
}

impl Truncation {
    /// The wire name, the same string JSON output carries as `truncation_reason`.
    pub fn as_str(self) -> &'static str {
        match self {
            Truncation::MaxNesting => "max_nesting",
        }
    }
}

impl Entry {
    /// A leaf entry spanning `line..=end_line`; derived fields stay empty until [`Outline::new`].
    #[inline]
    pub fn new(kind: Kind, name: impl Into<CompactString>, line: usize, end_line: usize) -> Entry {
        // Inside a scan, at most `parse::budget::MAX_ENTRIES` are made (see there).
        crate::parse::budget::count(line);
        Entry {
            kind,
            qualified: name.into(),
            name_at: 0,
            index: 0,
            signature: None,
            level: None,
            line,
            end_line: end_line.max(line),
            doc_line: line,
            children: Vec::new(),
            tokens: None,
            changed: false,
            truncated: None,
            owners: Owners::default(),
        }
    }

    /// The bare name (`method`, `Foo`, `server.port` for a TOML dotted key).
    #[inline]
    pub fn name(&self) -> &str {
        self.qualified
            .get(self.name_at as usize..)
            .unwrap_or(&self.qualified)
    }

    /// Ancestors' names and this name joined with `.` (an empty name reads `""` there);
    /// the name alone until [`Outline::new`] fills it.
    #[inline]
    pub fn qualname(&self) -> &str {
        &self.qualified
    }

    /// Renames the entry; its qualified name becomes the new name alone until
    /// [`Outline::new`] runs again.
    pub fn set_name(&mut self, name: impl Into<CompactString>) {
        self.qualified = name.into();
        self.name_at = 0;
    }

    /// This entry's segment of a positional id: its 1-based place among its siblings, 0 before
    /// [`Outline::new`].
    pub fn index(&self) -> u32 {
        self.index
    }

    /// Sets the qualified name to `qualname`, which must end with the bare name (an entry
    /// rebuilt from a search result); otherwise nothing changes.
    pub fn set_qualname(&mut self, qualname: &str) {
        let name_len = self.name().len();
        let Some(name_at) = qualname.len().checked_sub(name_len) else {
            return;
        };
        let ends_with_name = qualname.get(name_at..) == Some(self.name());
        if let (true, Ok(name_at)) = (ends_with_name, u32::try_from(name_at)) {
            self.qualified = CompactString::from(qualname);
            self.name_at = name_at;
        }
    }

    #[inline]
    pub fn with_signature(mut self, signature: impl Into<CompactString>) -> Entry {
        let signature = signature.into();
        self.signature = (!signature.is_empty()).then_some(signature);
        self
    }

    #[inline]
    pub fn with_children(mut self, children: Vec<Entry>) -> Entry {
        self.children = children;
        self
    }

    /// When `cut`, marks this entry's body as not listed because it lies past the parser's
    /// nesting limit.
    pub fn cut_by_nesting(mut self, cut: bool) -> Entry {
        if cut {
            self.truncated = Some(Truncation::MaxNesting);
        }
        self
    }

    /// The text a one-line listing shows: the signature when there is one, else the name.
    pub fn label(&self) -> &str {
        self.signature.as_deref().unwrap_or(self.name())
    }

    /// Whether the entry has leading docs or attributes above its first line.
    pub fn has_docs(&self) -> bool {
        self.doc_line < self.line
    }

    /// Number of entries in this subtree, this one included.
    pub fn subtree_len(&self) -> usize {
        1 + self.children.iter().map(Entry::subtree_len).sum::<usize>()
    }
}

/// Why part of a file was not outlined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputLimit {
    /// Lines actually outlined.
    pub lines_outlined: usize,
    /// The human-readable reason (`file has 80,000 lines; outlined the first 50,000`).
    pub reason: String,
    /// Where the outline stops inside the last outlined line, in bytes from the start, when
    /// that line was too long to keep whole (one-line minified files); `None` when the cut
    /// falls between lines. Lets a loader that knows more of the file reword `reason`.
    pub cut_at: Option<usize>,
    /// The outline stopped at the entry budget (`parse::budget::MAX_ENTRIES`), not at a
    /// line or byte limit.
    pub entries_cut: bool,
}

/// How a line differs from HEAD.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    Added,
    Modified,
    /// Lines were removed just below this line (0: above line 1).
    DeletedBelow,
}

/// One run of changed lines, 1-based and inclusive (`start == end` for a deletion point).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineChange {
    pub kind: ChangeKind,
    pub start: usize,
    pub end: usize,
}

/// The outline of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outline {
    pub language: Language,
    /// Number of lines in the file (a final line without newline counts).
    pub lines: usize,
    pub bytes: usize,
    pub entries: Vec<Entry>,
    /// Set when a size limit stopped the parser before the end of the file.
    pub limit: Option<InputLimit>,
    /// Tokens of the whole text, and the encoding that counted them (`tokens::annotate`).
    pub tokens: Option<(usize, &'static str)>,
    /// Changes against HEAD, line by line (`git`); `None` when markers are off.
    pub changes: Option<Vec<LineChange>>,
}

impl Outline {
    /// Builds an outline from parser output: sorts into source order, clamps ranges into the
    /// file and into their parents, and assigns ids and qualified names.
    pub fn new(language: Language, lines: usize, bytes: usize, mut entries: Vec<Entry>) -> Outline {
        let top = Parent {
            qualname: "",
            first_line: 1,
            last_line: lines.max(1),
            depth: 1,
            owning: owners::Owning::default(),
        };
        normalize(&mut entries, top, &mut String::new());
        Outline {
            language,
            lines,
            bytes,
            entries,
            limit: None,
            tokens: None,
            changes: None,
        }
    }

    /// Attaches line changes and marks every entry whose range holds a changed line or a
    /// deletion point (lines removed below line L count for the entry containing L).
    pub fn mark_changes(&mut self, changes: Vec<LineChange>) {
        fn mark(entries: &mut [Entry], changes: &[LineChange]) {
            for entry in entries {
                entry.changed = changes.iter().any(|change| {
                    let (start, end) = match change.kind {
                        ChangeKind::DeletedBelow => (change.start.max(1), change.start.max(1)),
                        _ => (change.start, change.end),
                    };
                    start <= entry.end_line && end >= entry.line
                });
                mark(&mut entry.children, changes);
            }
        }
        mark(&mut self.entries, &changes);
        self.changes = Some(changes);
    }

    /// Whether any line differs from HEAD (markers on and something changed).
    pub fn is_changed(&self) -> bool {
        self.changes.as_ref().is_some_and(|c| !c.is_empty())
    }

    /// Keeps only changed entries and their ancestors (`--changed`).
    pub fn retain_changed(&mut self) {
        fn keep(entries: &mut Vec<Entry>) {
            entries.retain_mut(|entry| {
                keep(&mut entry.children);
                entry.changed || !entry.children.is_empty()
            });
        }
        keep(&mut self.entries);
    }

    /// Every entry, depth first in source order, with its depth (0 = top level).
    pub fn walk(&self) -> Vec<(usize, &Entry)> {
        let mut out = Vec::new();
        fn visit<'a>(entries: &'a [Entry], depth: usize, out: &mut Vec<(usize, &'a Entry)>) {
            for entry in entries {
                out.push((depth, entry));
                visit(&entry.children, depth + 1, out);
            }
        }
        visit(&self.entries, 0, &mut out);
        out
    }

    /// Total number of entries in the tree.
    pub fn len(&self) -> usize {
        self.entries.iter().map(Entry::subtree_len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry with positional id `id` (`1.2.3`).
    pub fn find_id(&self, id: &str) -> Option<&Entry> {
        let mut level = &self.entries;
        let mut found = None;
        for part in id.split('.') {
            let index: u32 = part.parse().ok()?;
            // Siblings keep their places when some are filtered out (`--changed`): the
            // entry is at its place unless some before it are gone.
            let at = usize::try_from(index.checked_sub(1)?).ok()?;
            let entry = match level.get(at) {
                Some(entry) if entry.index == index => entry,
                _ => {
                    let at = level.binary_search_by_key(&index, |e| e.index).ok()?;
                    &level[at]
                }
            };
            level = &entry.children;
            found = Some(entry);
        }
        found
    }

    /// The positional id of `entry`, an entry of this outline (`1.2.3` is the 3rd child of
    /// the 2nd child of the 1st root); `None` for an entry from elsewhere.
    pub fn id_of(&self, entry: &Entry) -> Option<CompactString> {
        let top_level = self.entries.as_ptr_range();
        if top_level.contains(&std::ptr::from_ref(entry)) {
            return Some(child_id("", entry));
        }
        let mut places = Vec::new();
        if !places_of(&self.entries, entry, &mut places) {
            return None;
        }
        let mut id = CompactString::default();
        for place in places {
            if !id.is_empty() {
                id.push('.');
            }
            id.push_str(itoa::Buffer::new().format(place));
        }
        Some(id)
    }
}

/// Deepest nesting kept. An entry at this depth loses its descendants and is marked
/// [`Truncation::MaxNesting`], so ids, JSON output and even dropping the tree stay far from the
/// end of any thread's stack whatever a parser builds from pathological input. 50 is deeper
/// than real code nests, and keeps JSON output (two JSON levels per entry level) inside the
/// 128 levels that common parsers accept by default (serde_json), with room for an envelope.
pub const MAX_DEPTH: usize = 50;

/// Enforces [`MAX_DEPTH`] on one entry at `depth`, and the rule that a truncated entry lists
/// no children (a partial list would read as complete).
fn cap_depth(entry: &mut Entry, depth: usize) {
    if depth >= MAX_DEPTH && !entry.children.is_empty() {
        entry.truncated = Some(Truncation::MaxNesting);
    }
    if entry.truncated.is_some() {
        drop_iteratively(std::mem::take(&mut entry.children));
    }
}

/// Drops a subtree of any depth with a heap stack: the default recursive drop of a very deep
/// tree would overflow the thread's stack.
fn drop_iteratively(children: Vec<Entry>) {
    let mut stack = children;
    while let Some(mut entry) = stack.pop() {
        stack.append(&mut entry.children);
    }
}

/// Turns each line break in `text` into a space: every consumer shows a name or a signature on
/// one line (the text format is one line per entry), whatever a scanner took from broken input.
fn one_line<S: std::ops::Deref<Target = str> + From<String>>(text: &mut S) {
    if has_line_break(text.as_bytes()) {
        *text = S::from(text.replace("\r\n", " ").replace(['\r', '\n'], " "));
    }
}

/// Whether `bytes` holds `\n` or `\r`. This runs twice for every entry, on mostly short
/// text where memchr's set-up costs more than the search: eight bytes at a time, it asks
/// whether any byte is below 0x0E (the control bytes up to CR, rare in a name or a signature)
/// and only then looks closer.
fn has_line_break(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
    let is_break = |b: &u8| *b == b'\n' || *b == b'\r';
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let word = u64::from_le_bytes(word);
        let some_byte_below_0e = word.wrapping_sub(ONES * 0x0e) & !word & HIGH_BITS != 0;
        if some_byte_below_0e && chunk.iter().any(is_break) {
            return true;
        }
    }
    chunks.remainder().iter().any(is_break)
}

/// Puts the ancestors' qualified name `parent` before the entry's name, on one line (every
/// consumer shows a name on one line, whatever a scanner took from broken input). An empty
/// name is `""` there, so that `"".a` never reads as the top-level `a`. Data files have an
/// entry per line: a top-level name already on one line is its own qualified name and stays
/// as it is, and the join is put together in `scratch`, reused for every entry, so that the
/// CompactString made from it (inline up to 24 bytes) is the only copy.
fn qualify(entry: &mut Entry, parent: &str, scratch: &mut String) {
    let name = entry.name();
    let broken = has_line_break(name.as_bytes());
    if parent.is_empty() && entry.name_at == 0 && !name.is_empty() && !broken {
        return;
    }
    scratch.clear();
    if !parent.is_empty() {
        scratch.push_str(parent);
        scratch.push('.');
    }
    let mut name_at = scratch.len();
    if name.is_empty() {
        scratch.push_str("\"\"");
        name_at = scratch.len();
    } else if broken {
        scratch.push_str(&name.replace("\r\n", " ").replace(['\r', '\n'], " "));
    } else {
        scratch.push_str(name);
    }
    // A qualified name past 4 GiB cannot be built from a file within the read limits; if one
    // were, the entry keeps its name alone rather than a wrong tail.
    let Ok(name_at) = u32::try_from(name_at) else {
        let name = scratch.get(name_at..).unwrap_or_default();
        entry.set_name(name);
        return;
    };
    entry.qualified = CompactString::from(scratch.as_str());
    entry.name_at = name_at;
}

/// The positional id of the last entry of `chain`, an entry and its ancestors outermost
/// first (`1.2.3`).
pub fn chain_id<'a>(chain: impl IntoIterator<Item = &'a Entry>) -> String {
    let mut id = String::new();
    for entry in chain {
        if !id.is_empty() {
            id.push('.');
        }
        id.push_str(itoa::Buffer::new().format(entry.index));
    }
    id
}

/// The id of `child` under a parent whose id is `parent` (empty at the top level). JSON
/// output makes one per entry: up to 24 bytes, it is built in place with no allocation.
pub fn child_id(parent: &str, child: &Entry) -> CompactString {
    let mut index = itoa::Buffer::new();
    let index = index.format(child.index);
    let mut id = CompactString::with_capacity(parent.len() + 1 + index.len());
    if !parent.is_empty() {
        id.push_str(parent);
        id.push('.');
    }
    id.push_str(index);
    id
}

/// Pushes onto `chain` the places of `target`'s ancestors and its own, found by address among
/// `entries` and their descendants. A child lies within its parent's lines, so only entries
/// whose range holds the target's first line are entered.
fn places_of(entries: &[Entry], target: &Entry, chain: &mut Vec<u32>) -> bool {
    if entries.as_ptr_range().contains(&std::ptr::from_ref(target)) {
        chain.push(target.index);
        return true;
    }
    let after = entries.partition_point(|entry| entry.line <= target.line);
    for entry in entries[..after].iter().rev() {
        if entry.end_line >= target.line {
            chain.push(entry.index);
            if places_of(&entry.children, target, chain) {
                return true;
            }
            chain.pop();
        }
    }
    false
}

/// What [`normalize`] needs of the entry whose children it reads.
#[derive(Clone, Copy)]
struct Parent<'a> {
    qualname: &'a str,
    /// The lines children must lie within.
    first_line: usize,
    last_line: usize,
    /// The children's depth, 1 at the top level.
    depth: usize,
    /// The type the parent stands for, which owns its children.
    owning: owners::Owning,
}

/// Caps the depth, puts names and signatures on one line, clamps line ranges and numbers the
/// entries and fills qualified names: one walk over the tree, since data files have an entry
/// per line and each walk over a large tree reads it from memory again.
fn normalize(entries: &mut [Entry], parent: Parent, scratch: &mut String) {
    // Stable and by line alone: siblings on one line (`<div></div><section>`) keep the order
    // the scanner found them in, which is source order. Most lists come sorted, and a stable
    // sort of more than 20 entries allocates scratch space even then.
    if !entries.is_sorted_by_key(|entry| entry.line) {
        entries.sort_by_key(|entry| entry.line);
    }
    for (index, entry) in entries.iter_mut().enumerate() {
        cap_depth(entry, parent.depth);
        if let Some(signature) = &mut entry.signature {
            one_line(signature);
        }
        entry.line = entry.line.clamp(parent.first_line, parent.last_line);
        entry.end_line = entry.end_line.clamp(entry.line, parent.last_line);
        entry.doc_line = entry.doc_line.clamp(parent.first_line, entry.line);
        entry.index = u32::try_from(index + 1).unwrap_or(u32::MAX);
        qualify(entry, parent.qualname, scratch);
        let owning = owners::fill(entry, parent.owning);
        let Entry {
            qualified,
            children,
            line,
            end_line,
            ..
        } = entry;
        let inner = Parent {
            qualname: qualified,
            first_line: *line,
            last_line: *end_line,
            depth: parent.depth + 1,
            owning,
        };
        normalize(children, inner, scratch);
    }
}

#[cfg(test)]
mod tests;
