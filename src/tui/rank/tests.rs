//! The picker's index and ranking, on the thread's state without the thread.

use super::query::{char_mask, PARALLEL_FROM};
use super::*;
use crate::search::Defined;

/// One file's definitions.
fn file_of(path: &str, entries: &[Defined<'_>]) -> FileDefinitions {
    let mut file = FileDefinitions::new(PathBuf::from(path), crate::Language::Rust);
    entries.iter().for_each(|entry| file.push(*entry));
    file
}

/// The definitions `(qualname, name, kind, in_test)` indexed as the ranking thread does.
fn ranker(defs: &[(&str, &str, Kind, bool)]) -> Ranker {
    let (ui, _) = mpsc::channel();
    let mut ranker = Ranker::new(1, ui);
    for (i, (qualname, name, kind, in_test)) in defs.iter().enumerate() {
        let owners = qualname[..qualname.len() - name.len()]
            .trim_end_matches('.')
            .replace('.', "\u{1f}");
        let entry = Defined {
            kind: *kind,
            qualname,
            name_start: qualname.len() - name.len(),
            bare_start: qualname.len() - name.len(),
            owners: &owners,
            line: i + 1,
            end_line: i + 2,
            in_test: *in_test,
        };
        ranker.put(file_of(&format!("f{i}.rs"), &[entry]));
    }
    ranker
}

fn order(ranker: &mut Ranker, query: &str) -> Vec<String> {
    ranker.set_query(query);
    ranker
        .ranking()
        .rows
        .into_iter()
        .map(|r| r.qualname)
        .collect()
}

const DEFS: &[(&str, &str, Kind, bool)] = &[
    ("parse_args", "parse_args", Kind::Function, false),
    ("tests.parse", "parse", Kind::Function, true),
    ("Parser.parse", "parse", Kind::Method, false),
    ("parse", "parse", Kind::Function, false),
    ("Parser", "Parser", Kind::Struct, false),
    ("unrelated", "unrelated", Kind::Function, false),
    ("Store.get", "get", Kind::Method, false),
];

#[test]
fn exact_names_first_then_suffix_then_fuzzy_and_tests_last_in_each() {
    let mut ranker = ranker(DEFS);
    let found = order(&mut ranker, "parse");
    let mut exact = found[..2].to_vec();
    exact.sort();
    assert_eq!(exact, ["Parser.parse", "parse"], "{found:?}");
    assert_eq!(found[2], "tests.parse", "{found:?}");
    assert!(found[3..].contains(&"parse_args".to_string()), "{found:?}");
    assert_eq!(order(&mut ranker, "Parser::parse"), ["Parser.parse"]);
    assert_eq!(order(&mut ranker, "struct pars"), ["Parser"]);
    assert_eq!(order(&mut ranker, "parse_*"), ["parse_args"]);
    assert_eq!(
        order(&mut ranker, "").len(),
        7,
        "an empty query lists everything"
    );
}

#[test]
fn names_match_unless_the_query_names_an_owner() {
    let mut ranker = ranker(DEFS);
    assert!(
        order(&mut ranker, "store").is_empty(),
        "an owner alone is no name"
    );
    assert_eq!(order(&mut ranker, "store.get"), ["Store.get"]);
    assert_eq!(order(&mut ranker, "Prser"), ["Parser"]);
    let matched = ranker.ranking().rows[0].matched.clone();
    assert_eq!(matched, [0, 2, 3, 4, 5]);
    ranker.set_query("get");
    assert_eq!(
        ranker.ranking().rows[0].matched,
        [6, 7, 8],
        "positions in the qualname"
    );
    assert_eq!(char_mask("a_Z9"), 1 | 1 << 25 | 1 << 35 | 1 << 36);
    assert_eq!(
        Query::parse("!x").mask,
        0,
        "a negation matches without its letters"
    );
}

#[test]
fn typing_on_and_backspace_reuse_earlier_matches() {
    let mut ranker = ranker(DEFS);
    let direct = order(&mut ranker, "pars");
    ranker.set_query("p");
    ranker.set_query("pa");
    assert_eq!(ranker.history.len(), 2);
    assert_eq!(order(&mut ranker, "pars"), direct);
    assert_eq!(ranker.history.len(), 3);
    ranker.set_query("pa");
    assert_eq!(
        ranker.history.len(),
        2,
        "Backspace returns to the kept level"
    );
    ranker.set_query("get");
    assert_eq!(ranker.history.len(), 1);
    let a = Query::parse("pa");
    assert!(Query::parse("par").narrows(&a));
    assert!(!a.narrows(&Query::parse("par")));
    assert!(!Query::parse("pa!x").narrows(&a));
}

#[test]
fn definitions_added_while_a_query_is_active_are_ranked() {
    let late = ranker(&DEFS[6..]);
    let mut ranker = ranker(&DEFS[..2]);
    ranker.set_query("get");
    assert!(ranker.ranking().rows.is_empty());
    for (sym, file) in late.syms.iter().zip(late.files) {
        let entry = Defined {
            kind: sym.kind,
            qualname: sym.qualname(late.strings.get(file.texts)),
            name_start: sym.name_start as usize,
            bare_start: sym.bare_start as usize,
            owners: "",
            line: 9,
            end_line: 9,
            in_test: false,
        };
        let mut definitions = FileDefinitions::new(file.path, crate::Language::Rust);
        definitions.push(entry);
        ranker.put(definitions);
    }
    assert_eq!(ranker.ranking().rows[0].qualname, "Store.get");
}

#[test]
fn parallel_scoring_keeps_every_match() {
    let names: Vec<String> = (0..PARALLEL_FROM * 2)
        .map(|i| format!("item_{i}"))
        .collect();
    let mut table = Names::default();
    for name in &names {
        table.intern(name);
    }
    let query = Query::parse("item_1");
    let all: Vec<u32> = (0..names.len() as u32).collect();
    let mut two = vec![Matcher::new(Config::DEFAULT), Matcher::new(Config::DEFAULT)];
    let mut one = vec![Matcher::new(Config::DEFAULT)];
    let parallel = score_names(&query, &table, &all, &mut two);
    let serial = score_names(&query, &table, &all, &mut one);
    assert_eq!(parallel, serial);
    assert!(!serial.is_empty());
}

/// A tree with namesakes in Go, Rust, Python and YAML: implementations, one-line
/// declarations (an interface's method, a trait's, an overload stub), test code and keys.
fn namesakes() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let files = [
        (
            "daemon/daemon.go",
            "package daemon\n\ntype Starter interface {\n\tStart() error\n}\n\ntype Daemon struct{}\n\n\
             func (d *Daemon) startupDone() {\n}\n\nfunc startIngressWorker() {\n}\n\n\
             func (d *Daemon) Start() error {\n\treturn nil\n}\n",
        ),
        (
            "rust/lib.rs",
            "pub trait Start {\n    fn start(&self);\n}\n\npub struct Daemon;\n\nimpl Daemon {\n    \
             pub fn start(&self) {\n        todo!()\n    }\n}\n",
        ),
        (
            "py/daemon.py",
            "class Daemon:\n    @overload\n    def start(self, x: int) -> int: ...\n\n    \
             def start(self, x):\n        return x\n",
        ),
        ("py/test_daemon.py", "def start():\n    pass\n"),
        ("conf/daemon.yaml", "daemon:\n  start: true\n  startup: 1\n"),
    ];
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    dir
}

/// The picker's index of `dir`, built as the viewer's scan builds it.
fn indexed(dir: &std::path::Path) -> (Ranker, Scope) {
    let scope = Scope {
        paths: vec![dir.to_path_buf()],
        ..Scope::default()
    };
    let mut ranker = ranker(&[]);
    search::each_definition(&scope, |file| {
        ranker.put(file);
        ControlFlow::Continue(())
    })
    .expect("scan");
    (ranker, scope)
}

#[test]
fn the_picker_ranks_what_find_finds_in_the_same_order() {
    let dir = namesakes();
    let (mut ranker, scope) = indexed(dir.path());
    for text in [
        "Start",
        "start",
        "Daemon.Start",
        "daemon.start",
        "(*Daemon).Start",
        "Daemon::start",
        "fn start",
        "start*",
    ] {
        let query = crate::search::FindQuery::parse(text, &[]).expect("query");
        let found = search::find(&scope, &query, 1000, None).expect("find");
        let expected: Vec<(PathBuf, usize)> = found
            .matches
            .iter()
            .map(|m| (m.path.clone(), m.entry.line))
            .collect();
        assert!(!expected.is_empty(), "{text}: the fixture has matches");
        ranker.set_query(text);
        let rows: Vec<(PathBuf, usize)> = ranker
            .ranking()
            .rows
            .into_iter()
            .map(|row| (row.path, row.line))
            .take(expected.len())
            .collect();
        assert_eq!(rows, expected, "{text}");
    }
}

#[test]
fn owners_in_names_and_implementations_lead_among_namesakes() {
    let dir = namesakes();
    let (mut ranker, _) = indexed(dir.path());
    // The Go, Rust and Python methods (exact, in path order; a test's last), the YAML key
    // (data after code), then the rest.
    let found = order(&mut ranker, "daemon.start");
    assert_eq!(
        found[..5],
        [
            "(*Daemon).Start",
            "Daemon.start",
            "Daemon.start",
            "Daemon.start",
            "daemon.start"
        ]
    );
    assert!(
        found[5..].contains(&"(*Daemon).startupDone".to_string()),
        "{found:?}"
    );
    let rows = {
        ranker.set_query("Start");
        ranker.ranking().rows
    };
    let names: Vec<&str> = rows.iter().map(|r| r.qualname.as_str()).collect();
    assert_eq!(
        names[..3],
        ["Starter.Start", "(*Daemon).Start", "Start"],
        "exact, in path order (the interface's method is no namesake of the Go method)"
    );
    ranker.set_query("start");
    let rows = ranker.ranking().rows;
    let python: Vec<usize> = rows
        .iter()
        .filter(|r| r.path.ends_with("py/daemon.py"))
        .map(|r| r.line)
        .collect();
    assert_eq!(python, [5, 3], "the body before the overload stub");
    assert!(
        rows.iter()
            .position(|r| r.in_test)
            .is_some_and(|at| rows[..at].iter().all(|r| !r.qualname.contains("startup"))),
        "exact names, tests included, before fuzzy ones: {rows:?}"
    );
}

#[test]
fn reading_a_file_again_replaces_its_rows() {
    let file = |lines: &[usize]| {
        let names: Vec<String> = lines.iter().map(|line| format!("f{line}")).collect();
        let entries: Vec<Defined> = (lines.iter().zip(&names))
            .map(|(&line, name)| Defined {
                kind: Kind::Function,
                qualname: name,
                name_start: 0,
                bare_start: 0,
                owners: "",
                line,
                end_line: line + 1,
                in_test: false,
            })
            .collect();
        file_of("a.rs", &entries)
    };
    let mut ranker = ranker(&DEFS[..1]);
    // `r`: the viewer's refresh reaches a new index before its scan reaches the file.
    assert!(ranker.put(file(&[1, 5])));
    assert!(
        !ranker.put(file(&[1, 5])),
        "the same definitions change nothing"
    );
    let ranking = ranker.ranking();
    assert_eq!(
        (ranking.indexed, ranking.files, ranking.rows.len()),
        (3, 2, 3)
    );
    assert!(ranker.put(file(&[9])), "saved with one definition left");
    assert_eq!(order(&mut ranker, "f*"), ["f9"]);
    assert!(ranker.remove(Path::new("a.rs")));
    assert!(order(&mut ranker, "f*").is_empty());
    assert_eq!(ranker.ranking().indexed, 1);
    assert!(!ranker.remove(Path::new("a.rs")), "gone already");
}

#[test]
fn retired_rows_are_given_back_and_the_rest_still_rank() {
    let mut ranker = ranker(&[]);
    let file = |i: usize| {
        let entry = Defined {
            kind: Kind::Function,
            qualname: &format!("item{i}"),
            name_start: 0,
            bare_start: 0,
            // Long enough that the files' names fill several blocks.
            owners: "an_owner_with_a_name_long_enough_to_fill_blocks",
            line: 1,
            end_line: 2,
            in_test: false,
        };
        file_of(&format!("f{i}.rs"), &[entry])
    };
    let count = COMPACT_FROM * 2;
    for i in 0..count {
        ranker.put(file(i));
    }
    let names_held = ranker.strings.capacity();
    ranker.set_query("item1");
    for i in (0..count).filter(|i| i % 4 != 1) {
        ranker.remove(Path::new(&format!("f{i}.rs")));
    }
    assert!(
        ranker.syms.len() < count,
        "compacted: {}",
        ranker.syms.len()
    );
    assert!(
        ranker.strings.capacity() < names_held,
        "the retired files' names given back: {} of {names_held} bytes held",
        ranker.strings.capacity()
    );
    let ranking = ranker.ranking();
    assert_eq!(ranking.indexed, count / 4);
    assert_eq!(ranking.rows[0].qualname, "item1");
    let kept = |r: &Row| {
        r.qualname["item".len()..]
            .parse::<usize>()
            .ok()
            .map(|i| i % 4)
    };
    assert!(
        ranking.rows.iter().all(|r| kept(r) == Some(1)),
        "only kept files"
    );
    assert_eq!(order(&mut ranker, "item5")[0], "item5");
}

#[test]
fn the_thread_freeing_the_scans_definitions_ends_with_the_scan() {
    let mut ranker = ranker(&DEFS[..2]);
    assert!(
        ranker.spent.is_some(),
        "the scan's files are freed elsewhere"
    );
    ranker.finish(Ok(Summary::default()));
    assert!(
        ranker.spent.is_none(),
        "ended (and joined) before the ranking that says the index is complete"
    );
    // A file read again after the scan is freed here, and still indexed.
    let entry = Defined {
        kind: Kind::Function,
        qualname: "later",
        name_start: 0,
        bare_start: 0,
        owners: "",
        line: 1,
        end_line: 3,
        in_test: false,
    };
    assert!(ranker.put(file_of("later.rs", &[entry])));
    assert_eq!(order(&mut ranker, "later"), ["later"]);
    // Reading the tree again (files changed on disk) frees on a thread again, until it ends.
    ranker.start_freeing();
    assert!(ranker.spent.is_some());
    assert!(!ranker.put(file_of("later.rs", &[entry])), "unchanged");
    ranker.stop_freeing();
    assert!(ranker.spent.is_none());
    assert_eq!(order(&mut ranker, "later"), ["later"]);
}
