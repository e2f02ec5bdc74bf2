//! Regression tests for pictures that were not true: each test names the defect it guards
//! against (issue 12's "Why" list).

use super::{app, opened, render, select_dir, selected_name};
use crate::tui::action::{update, Action};
use crate::tui::app::{App, ColorMode, Effect, Focus};
use crate::tui::doc::Doc;
use std::fs;
use std::path::Path;
use std::time::Duration;

fn settle(app: &mut App) {
    assert!(
        app.settle(Duration::from_secs(60)),
        "background work never ended"
    );
}

fn dir_names(app: &App) -> Vec<String> {
    app.dir
        .visible()
        .iter()
        .map(|&i| {
            let node = &app.dir.nodes()[i];
            format!("{}{}", "  ".repeat(node.depth), node.item.name)
        })
        .collect()
}

fn open_name(app: &App) -> Option<String> {
    app.doc.as_ref().map(|d| d.name.clone())
}

fn status(app: &App) -> String {
    let screen = render(app, app.area.width, app.area.height);
    screen.lines().last().unwrap_or("").to_string()
}

#[test]
fn no_entry_cap_and_directories_list_sorted_when_opened() {
    // Was: the pane walked the whole tree at start-up and stopped at 50,000 entries,
    // unsorted, with no note. Now each directory is listed whole when opened (creating
    // 50,000 files would take this machine's disk half a minute, so 3,000 stand for them).
    let fx = super::fixture();
    let big = fx.root.join("Big");
    fs::create_dir_all(big.join("inner/deeper")).unwrap();
    for i in 0..3_000 {
        fs::File::create(big.join(format!("f{i:04}.txt"))).unwrap();
    }
    fs::write(big.join("inner/deeper/last.py"), "x = 1\n").unwrap();
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    assert_eq!(dir_names(&app), ["Big", "docs", "app.py", "notes.xyz"]);
    assert_eq!(
        app.dir.nodes().len(),
        4,
        "nothing below the first level is read"
    );
    select_dir(&mut app, "Big/f2999.txt");
    assert_eq!(
        app.dir.nodes().len(),
        4 + 3_001,
        "every entry, none dropped"
    );
    assert_eq!(dir_names(&app)[1], "  inner", "directories first");
    assert_eq!(open_name(&app), None, "revealing is not opening");
    select_dir(&mut app, "Big/inner/deeper/last.py");
}

#[cfg(unix)]
#[test]
fn links_show_their_target_empty_dirs_show_and_git_never_does() {
    // Was: symlinks and empty directories never appeared; `.` listed the inside of `.git/`.
    let fx = super::fixture();
    fs::create_dir_all(fx.root.join("empty")).unwrap();
    fs::create_dir_all(fx.root.join(".git/objects")).unwrap();
    std::os::unix::fs::symlink("docs", fx.root.join("docs-link")).unwrap();
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    update(&mut app, Action::ToggleHidden);
    let names = dir_names(&app);
    assert_eq!(names, ["docs", "docs-link", "empty", "app.py", "notes.xyz"]);
    let screen = render(&app, 120, 40);
    assert!(screen.contains("docs-link/ → docs"), "{screen}");

    select_dir(&mut app, "docs-link");
    update(&mut app, Action::Right);
    assert_eq!(
        dir_names(&app).len(),
        5,
        "moving onto a link does not follow it"
    );
    assert!(app.message.as_deref().is_some_and(|m| m.contains("Enter")));
    update(&mut app, Action::Enter);
    assert!(
        dir_names(&app).contains(&"  guide.md".to_string()),
        "Enter follows it"
    );

    select_dir(&mut app, "empty");
    update(&mut app, Action::Enter);
    assert!(
        !app.dir.selected().unwrap().has_children,
        "an empty directory opens to nothing"
    );
}

#[cfg(unix)]
#[test]
fn links_out_of_the_root_are_not_followed_with_root_given() {
    let fx = super::fixture();
    let outside = tempfile::tempdir().unwrap();
    fs::write(outside.path().join("secret.py"), "x = 1\n").unwrap();
    std::os::unix::fs::symlink(outside.path(), fx.root.join("out")).unwrap();
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    app.confine = Some(fx.root.canonicalize().unwrap());
    select_dir(&mut app, "out");
    update(&mut app, Action::Enter);
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("outside --root")),
        "{:?}",
        app.message
    );
    assert_eq!(dir_names(&app).len(), 4);
    app.confine = None;
    update(&mut app, Action::Enter);
    assert!(dir_names(&app).contains(&"  secret.py".to_string()));
}

#[test]
fn large_files_preview_at_once_and_load_in_the_background() {
    // Was: the preview kept the previous file when the cursor passed over a file over 512 KB.
    let fx = super::fixture();
    let mut text = String::new();
    for i in 0..40_000 {
        text.push_str(&format!("def function_{i}():\n    return {i}\n"));
    }
    fs::write(fx.root.join("zbig.py"), &text).unwrap();
    let mut app = opened(&fx, (120, 40));
    update(&mut app, Action::PrevPane);
    assert_eq!(app.focus, Focus::Dir);
    select_dir(&mut app, "notes.xyz");
    update(&mut app, Action::Down);
    assert_eq!(open_name(&app).as_deref(), Some("zbig.py"), "shown at once");
    let doc = app.doc.as_ref().unwrap();
    assert!(doc.loading && doc.line(0) == Some("def function_0():"));
    assert!(status(&app).contains("reading"), "{}", status(&app));
    settle(&mut app);
    let doc = app.doc.as_ref().unwrap();
    assert!(!doc.loading);
    assert_eq!(doc.line_count(), 80_000);
    assert_eq!(app.outline.nodes().len(), 40_000);
}

#[test]
fn a_directory_filter_previews_its_match() {
    // Was: after a directory filter + Enter the preview kept the previous file.
    let fx = super::fixture();
    let mut app = opened(&fx, (120, 40));
    update(&mut app, Action::PrevPane);
    update(&mut app, Action::StartFilter);
    for c in "notes".chars() {
        update(&mut app, Action::FilterInput(c));
    }
    update(&mut app, Action::FilterAccept);
    assert_eq!(open_name(&app).as_deref(), Some("notes.xyz"));
    update(&mut app, Action::Escape);
    assert_eq!(
        app.dir.selected().map(|n| n.item.name.as_str()),
        Some("notes.xyz")
    );
    assert_eq!(open_name(&app).as_deref(), Some("notes.xyz"));
}

#[test]
fn escape_after_an_outline_filter_keeps_and_reveals_the_match() {
    // Was: the selection jumped to a collapsed parent while the preview stayed on the match.
    let fx = super::fixture();
    let mut app = opened(&fx, (120, 40));
    update(&mut app, Action::CollapseAll);
    update(&mut app, Action::StartFilter);
    for c in "add".chars() {
        update(&mut app, Action::FilterInput(c));
    }
    update(&mut app, Action::FilterAccept);
    assert_eq!(selected_name(&app), Some("Store.add"));
    update(&mut app, Action::Escape);
    assert_eq!(selected_name(&app), Some("Store.add"));
    assert_eq!(
        app.outline.selected_row(),
        Some(2),
        "Store opened to show it"
    );
    assert_eq!(app.preview.cursor, 11, "the preview is on the match");
}

#[test]
fn reload_keeps_folds_and_selection_and_r_keeps_open_directories() {
    // Was: every reload re-expanded the whole outline; `r` collapsed the directory pane.
    let fx = super::fixture();
    let mut app = opened(&fx, (120, 40));
    update(&mut app, Action::Left);
    assert_eq!(app.outline.visible().len(), 2, "Store folded");
    update(&mut app, Action::Down);
    assert_eq!(selected_name(&app), Some("main"));
    fs::write(
        fx.root.join("app.py"),
        format!("{}\ndef extra():\n    pass\n", super::APP_PY),
    )
    .unwrap();
    update(&mut app, Action::FileChanged);
    settle(&mut app);
    assert_eq!(
        app.outline.visible().len(),
        3,
        "Store still folded, extra added"
    );
    assert_eq!(selected_name(&app), Some("main"));
    update(&mut app, Action::ToggleTokens);
    settle(&mut app);
    assert_eq!(app.outline.visible().len(), 3);

    select_dir(&mut app, "docs/guide.md");
    update(&mut app, Action::Reload);
    settle(&mut app);
    assert!(
        dir_names(&app).contains(&"  guide.md".to_string()),
        "docs stays open"
    );
    assert_eq!(
        app.dir.selected().map(|n| n.item.name.as_str()),
        Some("guide.md")
    );
}

#[test]
fn over_the_read_cap_the_status_gives_the_true_size() {
    // Was: files over 10 MB were read up to the cap and the status gave the capped count.
    let fx = super::fixture();
    let line = "x".repeat(99) + "\n";
    let lines = 11 * 1024 * 1024 / line.len();
    fs::write(fx.root.join("huge.txt"), line.repeat(lines)).unwrap();
    let mut app = app(&fx, ColorMode::Mono, (160, 40));
    app.loader = Doc::load;
    select_dir(&mut app, "huge.txt");
    update(&mut app, Action::Enter);
    settle(&mut app);
    let bar = status(&app);
    assert!(bar.contains(&crate::parse::thousands(lines)), "{bar}");
    assert!(bar.contains("of 11.0 MB shown"), "{bar}");
    update(&mut app, Action::NextPane);
    update(&mut app, Action::Bottom);
    let screen = render(&app, 160, 40);
    assert!(screen.contains("the file goes on"), "{screen}");
}

#[test]
fn unreadable_and_binary_files_say_so() {
    // Was: an unreadable file showed "no parser for this file"; a binary file "0 lines".
    let fx = super::fixture();
    fs::write(fx.root.join("blob.bin"), b"\x00\x01\x02\x03binary").unwrap();
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    app.loader = Doc::load;
    select_dir(&mut app, "blob.bin");
    update(&mut app, Action::Enter);
    let screen = render(&app, 120, 40);
    assert!(!screen.contains("0 lines"), "{screen}");
    assert!(status(&app).contains("binary file"), "{screen}");

    let gone = fx.root.join("gone.py");
    app.open(&gone);
    let screen = render(&app, 120, 40);
    let error = app.doc.as_ref().and_then(|d| d.error.clone()).unwrap();
    let shown = error.chars().take(20).collect::<String>();
    assert_eq!(
        screen.matches(&shown).count(),
        3,
        "outline, preview and status:\n{screen}"
    );
    assert!(!screen.contains("no parser"), "{screen}");
}

#[test]
fn copy_gives_the_path_as_typed_from_the_start_directory() {
    // Was: `y` copied a path relative to the viewer's root.
    let fx = super::fixture();
    let mut app = opened(&fx, (120, 40));
    let project = fx.root.canonicalize().unwrap();
    let copied = |app: &mut App| {
        update(app, Action::Copy);
        match app.effect.take() {
            Some(Effect::Copy(text)) => text,
            other => panic!("{other:?}"),
        }
    };
    app.cwd = project.parent().unwrap().to_path_buf();
    assert_eq!(copied(&mut app), "project/app.py:5");
    app.cwd = project.join("docs");
    let absolute = project.join("app.py");
    assert_eq!(copied(&mut app), format!("{}:5", absolute.display()));
    app.cwd = project.clone();
    assert_eq!(copied(&mut app), "app.py:5");
    assert!(Path::new(&copied(&mut app)).is_relative());
}

#[test]
fn status_shows_the_cursor_line_match_position_and_help_hint() {
    let fx = super::fixture();
    let mut app = opened(&fx, (80, 24));
    assert!(status(&app).ends_with("? help"), "{}", status(&app));
    update(&mut app, Action::StartFilter);
    update(&mut app, Action::FilterInput('e'));
    assert!(status(&app).contains("match 1/"), "{}", status(&app));
    update(&mut app, Action::Escape);
    update(&mut app, Action::NextPane);
    update(&mut app, Action::Bottom);
    assert!(status(&app).contains("line 27 100%"), "{}", status(&app));
    for width in [80, 100, 120, 200] {
        update(&mut app, Action::Resize(width, 24));
        assert!(
            status(&app).ends_with("? help"),
            "{width}: {}",
            status(&app)
        );
    }
}

#[test]
fn long_lines_scroll_sideways_in_the_preview() {
    let fx = super::fixture();
    let long = format!("x = '{}END'\n", "a".repeat(300));
    fs::write(fx.root.join("wide.py"), &long).unwrap();
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    select_dir(&mut app, "wide.py");
    update(&mut app, Action::Enter);
    settle(&mut app);
    update(&mut app, Action::NextPane);
    assert_eq!(app.focus, Focus::Preview);
    assert!(!render(&app, 120, 40).contains("END"));
    for _ in 0..40 {
        update(&mut app, Action::ArrowRight);
    }
    let screen = render(&app, 120, 40);
    assert!(
        screen.contains("END'"),
        "arrows scroll the preview {}:\n{screen}",
        app.preview.left
    );
    assert!(app.preview.left <= long.len());
    update(&mut app, Action::ScrollLeft);
    let left = app.preview.left;
    update(&mut app, Action::Prefix('z'));
    update(&mut app, Action::ScrollRight);
    assert!(app.preview.left > left);
    while app.preview.left > 0 {
        update(&mut app, Action::ArrowLeft);
    }
    update(&mut app, Action::ArrowLeft);
    assert_eq!(
        app.focus,
        Focus::Outline,
        "at the left edge the arrow changes pane"
    );
}

#[test]
fn the_help_scrolls_instead_of_cutting() {
    let fx = super::fixture();
    let mut app = opened(&fx, (80, 24));
    update(&mut app, Action::Help);
    let first = render(&app, 80, 24);
    assert!(first.contains("↓ more"), "{first}");
    for _ in 0..100 {
        update(&mut app, Action::Down);
    }
    let last = render(&app, 80, 24);
    assert!(last.contains("finder: edit the query"), "{last}");
    assert!(app.help);
}

#[test]
fn git_status_arrives_after_the_first_frame_and_marks_the_panes() {
    let fx = super::fixture();
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .current_dir(&fx.root)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .args(["-c", "user.name=T", "-c", "user.email=t@example.com"])
            .args(args)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !git(&["init", "-q"]) || !git(&["add", "-A"]) || !git(&["commit", "-qm", "x"]) {
        eprintln!("note: git unavailable; skipping");
        return;
    }
    fs::write(fx.root.join("docs/guide.md"), "# Guide\n\nChanged.\n").unwrap();
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    app.loader = Doc::load;
    assert!(app.git_pending, "the status is read on a thread");
    settle(&mut app);
    let docs = app
        .dir
        .nodes()
        .iter()
        .find(|n| n.item.name == "docs")
        .unwrap();
    assert!(docs.item.changed, "a directory holding a change is marked");
    let app_py = app
        .dir
        .nodes()
        .iter()
        .find(|n| n.item.name == "app.py")
        .unwrap();
    assert!(!app_py.item.changed);
    select_dir(&mut app, "docs/guide.md");
    update(&mut app, Action::Enter);
    settle(&mut app);
    let changes = app
        .doc
        .as_ref()
        .and_then(|d| d.outline.as_ref()?.changes.clone());
    assert!(
        changes.is_some_and(|c| !c.is_empty()),
        "the preview gets its diff gutter"
    );
}

#[test]
fn a_directory_filter_finds_files_in_directories_never_opened() {
    // Was: the filter matched only the rows listed, so a file in a directory never opened
    // could not be found. Now the one walker goes below on a thread and the directories
    // holding matches are grafted in, closed.
    let fx = super::fixture();
    let deep = fx.root.join("src/net/http");
    fs::create_dir_all(&deep).unwrap();
    fs::write(deep.join("router_table.py"), "def route():\n    pass\n").unwrap();
    fs::write(deep.join("other.py"), "x = 1\n").unwrap();
    fs::create_dir_all(fx.root.join("src/net/empty")).unwrap();
    fs::create_dir_all(fx.root.join("src/lib/parsers")).unwrap();
    fs::write(fx.root.join("src/lib/parsers/x.py"), "x = 1\n").unwrap();
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    assert_eq!(dir_names(&app), ["docs", "src", "app.py", "notes.xyz"]);
    update(&mut app, Action::StartFilter);
    for c in "router".chars() {
        update(&mut app, Action::FilterInput(c));
    }
    // The key returned at once; the walk answers in the background.
    settle(&mut app);
    assert_eq!(
        dir_names(&app),
        ["src", "  net", "    http", "      router_table.py"],
        "the match, shown where it lives"
    );
    assert_eq!(
        app.dir.selected().map(|n| n.item.name.as_str()),
        Some("router_table.py")
    );
    assert_eq!(
        open_name(&app).as_deref(),
        Some("router_table.py"),
        "the preview follows the match that arrived"
    );
    assert!(status(&app).contains("match 1/1"), "{}", status(&app));
    let screen = render(&app, 120, 40);
    assert!(
        screen.contains("▾ src/") && screen.contains("▾ http/"),
        "folders showing a match are drawn open:\n{screen}"
    );
    update(&mut app, Action::FilterAccept);
    update(&mut app, Action::Escape);
    assert_eq!(
        dir_names(&app),
        [
            "docs",
            "src",
            "  lib",
            "  net",
            "    empty",
            "    http",
            "      other.py",
            "      router_table.py",
            "app.py",
            "notes.xyz"
        ],
        "Esc keeps the match and opens only the way to it"
    );
    // A filter that matches a directory's name lists its parent.
    update(&mut app, Action::StartFilter);
    for c in "parsers".chars() {
        update(&mut app, Action::FilterInput(c));
    }
    settle(&mut app);
    assert_eq!(
        app.dir.selected().map(|n| n.item.name.as_str()),
        Some("parsers")
    );
}

#[test]
fn the_directory_filter_walk_starts_again_after_reload() {
    let fx = super::fixture();
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    update(&mut app, Action::StartFilter);
    update(&mut app, Action::FilterInput('q'));
    settle(&mut app);
    update(&mut app, Action::Escape);
    // A file saved after the walk, in a directory never opened.
    fs::create_dir_all(fx.root.join("later/inner")).unwrap();
    fs::write(fx.root.join("later/inner/quokka.md"), "# Q\n").unwrap();
    update(&mut app, Action::Reload);
    settle(&mut app);
    update(&mut app, Action::StartFilter);
    for c in "quokka".chars() {
        update(&mut app, Action::FilterInput(c));
    }
    settle(&mut app);
    assert_eq!(
        app.dir.selected().map(|n| n.item.name.as_str()),
        Some("quokka.md")
    );
}

#[test]
fn opening_reads_the_first_screen_and_outlines_on_a_thread() {
    // No key waits on reading or parsing a file: Enter shows the first screen, the outline
    // follows when the whole file is read.
    let fx = super::fixture();
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    select_dir(&mut app, "app.py");
    update(&mut app, Action::Enter);
    let doc = app.doc.as_ref().unwrap();
    assert!(doc.loading, "only the first screen is read on the key path");
    assert_eq!(doc.line(4), Some("class Store:"));
    assert!(render(&app, 120, 40).contains("reading the file…"));
    settle(&mut app);
    assert!(!app.doc.as_ref().unwrap().loading);
    assert_eq!(selected_name(&app), Some("Store"));
}

#[test]
fn a_jump_past_the_first_screen_lands_once_the_file_is_read() {
    let fx = super::fixture();
    let mut text = String::new();
    for i in 0..6_000 {
        text.push_str(&format!("def function_{i}(x):\n    return x + {i}\n"));
    }
    fs::write(fx.root.join("long.py"), &text).unwrap();
    let mut app = opened(&fx, (120, 40));
    let path = fx.root.join("long.py");
    app.goto(&path, 11_001);
    assert!(app.doc.as_ref().unwrap().loading);
    assert_eq!(app.preview.cursor, 11_000, "kept while the file loads");
    settle(&mut app);
    assert_eq!(app.preview.cursor, 11_000);
    assert_eq!(selected_name(&app), Some("function_5500"));
    let row = app.outline.selected_row().unwrap();
    let height = crate::tui::layout::inner_height(app.panes().outline);
    assert!(
        app.outline.offset <= row && row < app.outline.offset + height,
        "the selected entry is in sight: row {row}, offset {}",
        app.outline.offset
    );
    update(&mut app, Action::JumpBack);
    assert_eq!(open_name(&app).as_deref(), Some("app.py"));
}

#[test]
fn the_outline_marks_where_the_nesting_limit_cut_the_tree() {
    // Print mode notes the cut (`… (deeper entries not outlined: nesting limit)`); the
    // outline pane shows it from the same model field.
    use crate::outline::{Entry, Kind, Outline, Truncation};
    let fx = super::fixture();
    let text = "class Outer:\n    class Inner:\n        def deep(self):\n            pass\n";
    let mut inner = Entry::new(Kind::Class, "Inner", 2, 4);
    inner.truncated = Some(Truncation::MaxNesting);
    let mut outer = Entry::new(Kind::Class, "Outer", 1, 4);
    outer.children.push(inner);
    let outline = Outline::new(crate::Language::Python, 4, text.len(), vec![outer]);
    for (w, h) in [(120, 40), (80, 24)] {
        let mut app = app(&fx, ColorMode::Mono, (w, h));
        let path = fx.root.join("nested.py");
        let doc = Doc::from_parts(&path, text.into(), Some(outline.clone()), &app.theme);
        app.set_doc(doc);
        app.focus = Focus::Outline;
        app.sync();
        let screen = render(&app, w, h);
        assert!(screen.contains("Inner …"), "{screen}");
        assert!(app.outline.nodes()[1].item.nesting_cut);
        update(&mut app, Action::Down);
        assert!(status(&app).contains("nesting limit"), "{}", status(&app));
        insta::assert_snapshot!(format!("nesting_limit_{w}x{h}"), screen);
    }
}

#[test]
fn the_first_frame_waits_for_no_background_work() {
    // Was: the first frame waited for the syntax assets. Now nothing heavy runs before it:
    // the file's first screen is read, and the threads (git status, the whole file, the
    // assets) start once it is drawn, so they do not compete with it for the cores.
    let fx = super::fixture();
    let theme = crate::highlight::theme(crate::highlight::DEFAULT_THEME).unwrap();
    let config = super::config(&fx.root);
    let mut app = App::holding_threads(fx.root.clone(), &config, theme, ColorMode::Mono);
    app.loader = super::fake_loader;
    app.open(&fx.root.join("app.py"));
    assert!(app.doc.as_ref().unwrap().loading);
    assert!(
        !app.settle(Duration::from_millis(300)),
        "nothing runs before the first frame"
    );
    let first = render(&app, 120, 40);
    assert!(first.contains("class Store:") && first.contains("reading the file…"));
    app.release_held();
    settle(&mut app);
    assert_eq!(selected_name(&app), Some("Store"));
}

#[test]
fn a_screen_far_into_a_file_is_coloured_over_several_turns() {
    // Colouring line N needs every line above it parsed (a few thousand lines a second):
    // the key shows the screen at once, plain, and the colours follow turn by turn. (Within
    // five checkpoints of the last one, as here, the parse starts there, not near the line.)
    crate::highlight::load_now();
    let fx = super::fixture();
    let mut text = String::new();
    for i in 0..5_000 {
        text.push_str(&format!("value_{i} = \"text {i}\"  # note\n"));
    }
    fs::write(fx.root.join("long.py"), &text).unwrap();
    let mut app = app(&fx, ColorMode::TrueColor, (120, 40));
    select_dir(&mut app, "long.py");
    update(&mut app, Action::Enter);
    settle(&mut app);
    update(&mut app, Action::NextPane);
    update(&mut app, Action::Bottom);
    assert_eq!(app.preview.cursor, 4_999);
    let doc = app.doc.as_ref().unwrap();
    assert!(
        app.colouring,
        "the key did not wait for 5,000 lines of parsing"
    );
    assert!(doc.highlighter.cached(4_999).is_none());
    settle(&mut app);
    assert!(!app.colouring);
    let doc = app.doc.as_ref().unwrap();
    assert!(doc
        .highlighter
        .cached(4_999)
        .is_some_and(|spans| spans.len() > 1));
}

static SLOW_LOADS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The test loader, slowed as a large file would be, counting its reads.
fn slow_loader(
    path: &Path,
    options: crate::tui::doc::LoadOptions,
    snapshot: Option<&crate::git::Snapshot>,
) -> crate::tui::doc::ReadDoc {
    SLOW_LOADS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    std::thread::sleep(Duration::from_millis(100));
    super::fake_loader(path, options, snapshot)
}

#[test]
fn moving_past_many_files_reads_only_the_one_stopped_on() {
    let fx = super::fixture();
    for i in 0..20 {
        fs::write(
            fx.root.join(format!("f{i:02}.py")),
            format!("def f{i}():\n    pass\n"),
        )
        .unwrap();
    }
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    app.loader = slow_loader;
    select_dir(&mut app, "f00.py");
    for _ in 0..19 {
        update(&mut app, Action::Down);
    }
    assert_eq!(
        open_name(&app).as_deref(),
        Some("f19.py"),
        "each shown at once"
    );
    settle(&mut app);
    assert_eq!(selected_name(&app), Some("f19"));
    let reads = SLOW_LOADS.load(std::sync::atomic::Ordering::SeqCst);
    assert!(reads <= 3, "{reads} whole reads for 20 files passed over");
}
