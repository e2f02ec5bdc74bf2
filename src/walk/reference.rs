//! The walk as it was before it entered directories through handles: `ignore::WalkBuilder`,
//! sequential, by path. The tests hold the walk to it, name for name, on trees made to
//! exercise every rule, on this crate's own tree, and on any tree named in
//! `OUTLINE_WALK_TREES` (`cargo test --release --lib walk::reference -- --ignored`).

use super::*;
use std::fs;

/// Every [`Found`] of the old walk of `paths`.
fn old_walk(paths: &[PathBuf], options: &WalkOptions) -> Vec<Found> {
    let (first, rest) = paths.split_first().expect("a path");
    let mut builder = ignore::WalkBuilder::new(first);
    for path in rest {
        builder.add(path);
    }
    builder
        .hidden(!options.hidden)
        .require_git(false)
        .follow_links(false)
        .parents(!options.no_parent_ignores)
        .git_global(!options.no_parent_ignores)
        .overrides(overrides(&options.globs).expect("globs"))
        .filter_entry(|entry| entry.file_name() != ".git")
        .sort_by_file_name(|a, b| a.cmp(b));
    let mut found = Vec::new();
    for entry in builder.build() {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                found.push(Found::Unreadable(describe(&err)));
                continue;
            }
        };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let named = entry.depth() == 0;
        let path = entry.into_path();
        if options.skip_lock_files && !named && lang::is_lock_file(&path) {
            continue;
        }
        let language = source::detect_language(&path);
        let keep = match options.only {
            Some(only) => language == Some(only),
            None => language.is_some() || options.any_language,
        };
        if keep {
            found.push(Found::File { path, language });
        }
    }
    found
}

/// The old and the new walk of `paths` under every combination of the options that change
/// which names are kept; the number of files compared.
fn assert_same_walks(paths: &[PathBuf]) -> usize {
    let mut compared = 0;
    let globs: [&[&str]; 3] = [&[], &["*.py", "!skip*"], &["!**/deep/**"]];
    for hidden in [false, true] {
        for no_parent_ignores in [false, true] {
            for globs in globs {
                let options = WalkOptions {
                    hidden,
                    no_parent_ignores,
                    any_language: true,
                    skip_lock_files: true,
                    globs: globs.iter().map(|g| g.to_string()).collect(),
                    ..WalkOptions::default()
                };
                let new: Vec<Found> = Walk::new(paths, options.clone()).expect("walk").collect();
                let old = old_walk(paths, &options);
                if new != old {
                    let first = new.iter().zip(&old).position(|(a, b)| a != b);
                    panic!(
                        "{paths:?} {options:?}: {} new, {} old; first difference at {first:?}: {:?} vs {:?}",
                        new.len(),
                        old.len(),
                        first.and_then(|i| new.get(i)),
                        first.and_then(|i| old.get(i)),
                    );
                }
                compared += new.len();
            }
        }
    }
    compared
}

/// Nested ignore files with negations, an `.ignore` over a `.gitignore`, an exclude file,
/// hidden names, lock files, a `#!` script, a name that is not UTF-8, a link, an empty
/// directory.
fn rule_tree(root: &Path) -> std::io::Result<()> {
    let files = [
        (".gitignore", "*.log\nbuild/\n!keep.log\n/top_only.py\n"),
        (".ignore", "from_ignore.py\n!un_ignored.py\n"),
        ("a.py", ""),
        ("keep.log", ""),
        ("drop.log", ""),
        ("top_only.py", ""),
        ("from_ignore.py", ""),
        ("un_ignored.py", ""),
        ("skip_me.py", ""),
        ("Cargo.lock", ""),
        ("build/out.py", ""),
        ("src/.gitignore", "*.rs\n!main.rs\nlocal/\n"),
        ("src/main.rs", "fn main() {}\n"),
        ("src/lib.rs", ""),
        ("src/top_only.py", ""),
        ("src/local/x.py", ""),
        ("src/deep/.ignore", "!*.rs\n"),
        ("src/deep/kept.rs", ""),
        ("src/deep/more/y.py", ""),
        ("src/deep/package-lock.json", "{}"),
        (".hidden/h.py", ""),
        (".hidden.py", ""),
        ("bin/deploy", "#!/usr/bin/env python3\n"),
        ("bin/notes", "plain\n"),
        ("repo/.git/info/exclude", "excluded.py\n"),
        ("repo/excluded.py", ""),
        ("repo/kept.py", ""),
        ("repo/.git/HEAD", ""),
    ];
    for (name, text) in files {
        let path = root.join(name);
        fs::create_dir_all(path.parent().unwrap_or(root))?;
        fs::write(path, text)?;
    }
    fs::create_dir_all(root.join("empty"))?;
    std::os::unix::fs::symlink("src", root.join("link"))?;
    let bad = std::ffi::OsStr::from_bytes(b"bad\xff.py");
    fs::write(root.join("src").join(bad), "")?;
    Ok(())
}

use std::os::unix::ffi::OsStrExt;

#[test]
fn the_walk_keeps_the_names_the_old_walk_kept() -> std::io::Result<()> {
    let dir = tempfile::tempdir()?;
    let root = dir.path();
    rule_tree(root)?;
    // Ignore files above the walked path count (outside `--root`).
    let inner = root.join("src");
    let compared = assert_same_walks(&[root.to_path_buf()])
        + assert_same_walks(std::slice::from_ref(&inner))
        + assert_same_walks(&[inner.join("deep"), root.join("a.py"), root.join("nosuch")]);
    assert!(compared > 100, "{compared}");
    Ok(())
}

#[test]
fn the_walk_of_this_crate_is_the_old_walk() {
    let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    assert!(assert_same_walks(&[crate_dir]) > 100);
}

/// Large trees on this machine (`OUTLINE_WALK_TREES=/a:/b`).
#[test]
#[ignore = "walks the trees named in OUTLINE_WALK_TREES"]
fn the_walk_of_named_trees_is_the_old_walk() {
    let trees = std::env::var_os("OUTLINE_WALK_TREES").unwrap_or_default();
    for tree in std::env::split_paths(&trees) {
        let files = assert_same_walks(std::slice::from_ref(&tree));
        eprintln!("{}: {files} files compared", tree.display());
    }
}
