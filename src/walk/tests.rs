//! The walk's rules, order and listings.
use super::*;
use std::fs;

fn tree() -> std::io::Result<tempfile::TempDir> {
    let dir = tempfile::tempdir()?;
    let root = dir.path();
    fs::create_dir_all(root.join("src/deep"))?;
    fs::create_dir_all(root.join(".hidden"))?;
    fs::write(root.join(".gitignore"), "ignored.py\n")?;
    fs::write(root.join("ignored.py"), "x = 1\n")?;
    fs::write(root.join("b.py"), "")?;
    fs::write(root.join("src/a.rs"), "")?;
    fs::write(root.join("src/deep/c.go"), "")?;
    fs::write(root.join("notes.txt"), "")?;
    fs::write(root.join(".hidden/h.py"), "")?;
    Ok(dir)
}

fn names(root: &Path, paths: &[PathBuf], options: WalkOptions) -> Vec<String> {
    Walk::new(paths, options)
        .expect("walk")
        .filter_map(|found| match found {
            Found::File { path, .. } => Some(
                path.strip_prefix(root)
                    .unwrap_or(&path)
                    .display()
                    .to_string(),
            ),
            Found::Unreadable(_) => None,
        })
        .collect()
}

#[test]
fn respects_gitignore_hidden_and_language() -> std::io::Result<()> {
    let dir = tree()?;
    let root = dir.path();
    let all = WalkOptions::default();
    let here = [root.to_path_buf()];
    assert_eq!(
        names(root, &here, all.clone()),
        ["b.py", "src/a.rs", "src/deep/c.go"]
    );
    let hidden = WalkOptions {
        hidden: true,
        ..all.clone()
    };
    assert!(names(root, &here, hidden).contains(&".hidden/h.py".to_string()));
    let only = WalkOptions {
        only: Some(Language::Rust),
        ..all.clone()
    };
    assert_eq!(names(root, &here, only), ["src/a.rs"]);
    let text = WalkOptions {
        any_language: true,
        ..all
    };
    assert!(names(root, &here, text).contains(&"notes.txt".to_string()));
    Ok(())
}

#[test]
fn a_name_that_says_nothing_is_read_for_its_first_line() -> std::io::Result<()> {
    let dir = tempfile::tempdir()?;
    let root = dir.path();
    fs::create_dir_all(root.join("bin"))?;
    fs::write(root.join("bin/deploy"), "#!/usr/bin/env python3\nx = 1\n")?;
    fs::write(root.join("bin/binary"), "#!/usr/bin/python3\0\n")?;
    fs::write(root.join("bin/LICENSE"), "MIT\n")?;
    // A telling extension wins over the first line; another extension is never read.
    fs::write(root.join("bin/tool.rs"), "#!/usr/bin/env python3\n")?;
    fs::write(root.join("bin/tool.txt"), "#!/usr/bin/env python3\n")?;
    let here = [root.to_path_buf()];
    let found: Vec<Found> = Walk::new(&here, WalkOptions::default())
        .expect("walk")
        .collect();
    let languages: Vec<(String, Option<Language>)> = found
        .into_iter()
        .filter_map(|found| match found {
            Found::File { path, language } => {
                let name = path.file_name()?.to_string_lossy().into_owned();
                Some((name, language))
            }
            Found::Unreadable(_) => None,
        })
        .collect();
    assert_eq!(
        languages,
        [
            ("deploy".to_string(), Some(Language::Python)),
            ("tool.rs".to_string(), Some(Language::Rust)),
        ]
    );
    let listing = list_dir(&root.join("bin"), &WalkOptions::default()).expect("listed");
    let deploy = listing.entries.iter().find(|e| e.name == "deploy");
    assert_eq!(
        deploy.map(|e| &e.kind),
        Some(&ListedKind::File(Some(Language::Python)))
    );
    Ok(())
}

#[test]
fn several_paths_and_globs() -> std::io::Result<()> {
    let dir = tree()?;
    let root = dir.path();
    let paths = [root.join("src/deep"), root.join("b.py")];
    assert_eq!(
        names(root, &paths, WalkOptions::default()),
        ["src/deep/c.go", "b.py"]
    );
    let here = [root.to_path_buf()];
    let rust_only = WalkOptions {
        globs: vec!["*.rs".into()],
        ..WalkOptions::default()
    };
    assert_eq!(names(root, &here, rust_only), ["src/a.rs"]);
    let no_src = WalkOptions {
        globs: vec!["!src/**".into(), "!**/src/**".into()],
        ..WalkOptions::default()
    };
    assert_eq!(names(root, &here, no_src), ["b.py"]);
    let bad = WalkOptions {
        globs: vec!["a{".into()],
        ..WalkOptions::default()
    };
    assert!(matches!(Walk::new(&here, bad), Err(Error::Usage(_))));
    Ok(())
}

#[test]
fn listing_one_level_with_links_empty_dirs_and_no_git() -> std::io::Result<()> {
    let dir = tree()?;
    let root = dir.path();
    fs::create_dir_all(root.join(".git/objects"))?;
    fs::write(root.join(".git/hook.py"), "")?;
    fs::create_dir_all(root.join("empty"))?;
    #[cfg(unix)]
    std::os::unix::fs::symlink("src", root.join("link"))?;
    let options = WalkOptions {
        hidden: true,
        ..WalkOptions::default()
    };
    let listing = list_dir(root, &options).expect("listed");
    let listed: Vec<&str> = listing.entries.iter().map(|e| e.name.as_str()).collect();
    assert!(!listed.contains(&".git"), "{listed:?}");
    assert!(
        listed.contains(&"empty") && listed.contains(&".hidden"),
        "{listed:?}"
    );
    assert!(
        !listed.contains(&"ignored.py") && !listed.contains(&"a.rs"),
        "{listed:?}"
    );
    assert!(
        listed.contains(&"notes.txt"),
        "files without a parser are listed"
    );
    #[cfg(unix)]
    {
        let link = listing
            .entries
            .iter()
            .find(|e| e.name == "link")
            .expect("link");
        let to_src = ListedKind::Link {
            target: PathBuf::from("src"),
            to_dir: true,
        };
        assert_eq!(link.kind, to_src);
    }
    let walked = names(root, &[root.to_path_buf()], options);
    assert!(walked.iter().all(|p| !p.starts_with(".git")), "{walked:?}");
    Ok(())
}

#[test]
fn shown_paths_drop_the_dot() {
    assert_eq!(shown(Path::new("./src/a.rs")), Path::new("src/a.rs"));
    assert_eq!(shown(Path::new(".")), Path::new("."));
    assert_eq!(shown(Path::new("src")), Path::new("src"));
}

/// `root/racedir` swapped between a real folder and a link to `outside/` (whose names all
/// hold `zqoutside`) while `--root` walks and listings run for two seconds: no listing and no
/// walk may name anything of the outside tree, not even to drop it later.
#[cfg(unix)]
#[test]
fn a_folder_swapped_for_a_link_out_of_the_root_is_never_listed() -> std::io::Result<()> {
    use std::sync::atomic::{AtomicBool, Ordering};
    let dir = tempfile::tempdir()?;
    let base = dir.path().canonicalize()?;
    let (root, outside) = (base.join("root"), base.join("outside"));
    fs::create_dir_all(root.join("racedir"))?;
    fs::create_dir_all(outside.join("zqoutside_dir"))?;
    fs::write(root.join("racedir/inside.py"), "")?;
    fs::write(outside.join("zqoutside_name.py"), "")?;
    fs::write(outside.join("zqoutside_dir/zqoutside_deep.py"), "")?;
    let stop = AtomicBool::new(false);
    let options = WalkOptions {
        confine: Some(root.clone()),
        no_parent_ignores: true,
        any_language: true,
        ..WalkOptions::default()
    };
    let (mut listings, mut walks, mut swaps) = (0, 0, 0);
    std::thread::scope(|scope| {
        let swapper = scope.spawn(|| {
            let (racedir, kept) = (root.join("racedir"), root.join(".kept"));
            let mut swaps = 0;
            while !stop.load(Ordering::Relaxed) {
                if fs::rename(&racedir, &kept).is_ok() {
                    let _ = std::os::unix::fs::symlink(&outside, &racedir);
                    std::thread::yield_now();
                    let _ = fs::remove_file(&racedir);
                    let _ = fs::rename(&kept, &racedir);
                    swaps += 1;
                }
            }
            swaps
        });
        // Stops the swapper even when an assertion below fails (the scope waits for it).
        let _stop = StopOnDrop(&stop);
        let started = std::time::Instant::now();
        while started.elapsed() < std::time::Duration::from_secs(2) {
            if let Ok(listing) = list_dir(&root.join("racedir"), &options) {
                let names: Vec<&str> = listing.entries.iter().map(|e| e.name.as_str()).collect();
                assert!(names.iter().all(|n| !n.contains("zqoutside")), "{names:?}");
            }
            listings += 1;
            for paths in [vec![root.clone()], vec![root.join("racedir")]] {
                let Ok(walk) = Walk::new(&paths, options.clone()) else {
                    continue;
                };
                for found in walk {
                    let shown = format!("{found:?}");
                    assert!(!shown.contains("zqoutside"), "{shown}");
                }
                walks += 1;
            }
        }
        stop.store(true, Ordering::Relaxed);
        swaps = swapper.join().unwrap_or(0);
    });
    assert!(
        swaps > 100 && listings > 20 && walks > 20,
        "{swaps} swaps, {listings} listings, {walks} walks"
    );
    Ok(())
}

/// Sets its flag when dropped, panicking or not.
struct StopOnDrop<'a>(&'a std::sync::atomic::AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// A walk over many folders yields its files in the order of a walk one folder at a time,
/// whatever order the workers list them in, and a walk dropped half way stops its workers.
#[test]
fn a_parallel_walk_keeps_path_order() -> std::io::Result<()> {
    let dir = tempfile::tempdir()?;
    let root = dir.path();
    let mut expected = Vec::new();
    for a in 0..12 {
        for b in 0..12 {
            let sub = root.join(format!("d{a:02}/e{b:02}"));
            fs::create_dir_all(&sub)?;
            for c in 0..3 {
                fs::write(sub.join(format!("f{c}.py")), "")?;
                expected.push(format!("d{a:02}/e{b:02}/f{c}.py"));
            }
        }
        fs::write(root.join(format!("d{a:02}/z.py")), "")?;
        expected.push(format!("d{a:02}/z.py"));
    }
    let here = [root.to_path_buf()];
    for _ in 0..5 {
        assert_eq!(names(root, &here, WalkOptions::default()), expected);
    }
    let mut partial = Walk::new(&here, WalkOptions::default()).expect("walk");
    assert!(partial.next().is_some());
    drop(partial);
    Ok(())
}
