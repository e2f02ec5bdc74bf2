//! Opening files from the directory pane: under `--root` every link that leads outside gets
//! the command line's one answer (issue 27 item 10), and a name that is not UTF-8 opens
//! (item 11).

use super::{app, settle};
use crate::tui::action::{update, Action};
use crate::tui::app::ColorMode;
use crate::tui::doc::Doc;
use std::path::Path;

/// Selects the row of `path` (a path below the root, any bytes) in the directory pane.
fn select_path(app: &mut crate::tui::app::App, path: &Path) {
    app.reveal(path);
    assert_eq!(
        app.dir.selected().map(|n| n.item.path.clone()),
        Some(path.to_path_buf()),
        "{} is listed",
        path.display()
    );
}

#[cfg(unix)]
#[test]
fn every_link_out_of_the_root_reads_outside_root() {
    use std::os::unix::fs::{symlink, PermissionsExt};
    let fx = super::fixture();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.py"), "x = 1\n").unwrap();
    let locked = outside.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::write(locked.join("inner.py"), "y = 2\n").unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    // There, missing, behind a folder that cannot be read, and a folder.
    let links = [
        ("there.py", outside.path().join("secret.py")),
        ("missing.py", outside.path().join("no_such.py")),
        ("locked.py", locked.join("inner.py")),
        ("folder", outside.path().to_path_buf()),
    ];
    for (name, target) in &links {
        symlink(target, fx.root.join(name)).unwrap();
    }
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    app.confine = Some(fx.root.canonicalize().unwrap());
    for (name, _) in &links {
        let path = app.root.join(name);
        select_path(&mut app, &path);
        app.message = None;
        update(&mut app, Action::Enter);
        let message = app.message.clone().unwrap_or_default();
        assert!(
            message.contains(&format!("{name}: outside --root")),
            "{name}: {message}"
        );
        // The row shows what it is (a stand-in that reads nothing), never the file.
        assert!(
            app.doc
                .as_ref()
                .is_none_or(|d| d.standin && d.text.is_empty()),
            "{name} was opened"
        );
    }
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[cfg(unix)]
#[test]
fn a_file_whose_name_is_not_utf8_opens() {
    use std::os::unix::ffi::OsStrExt;
    let fx = super::fixture();
    let name = std::ffi::OsStr::from_bytes(b"bad\xff\xfe.py");
    std::fs::write(fx.root.join(name), "def hello():\n    return 1\n").unwrap();
    let mut app = app(&fx, ColorMode::Mono, (120, 40));
    app.loader = Doc::load;
    let path = app.root.join(name);
    select_path(&mut app, &path);
    update(&mut app, Action::Enter);
    settle(&mut app);
    let doc = app.doc.as_ref().expect("a document");
    assert_eq!(doc.error, None);
    assert_eq!(doc.path, path);
    let screen = super::render(&app, 120, 40);
    assert!(screen.contains("hello"), "{screen}");
}

/// A file swapped for a link out of the root after the directory pane checked it: the reads
/// themselves (the first screen and the whole load) check the opened file against the root.
#[cfg(unix)]
#[test]
fn the_viewer_reads_check_the_root_on_the_opened_file() {
    use crate::tui::doc::LoadOptions;
    let fx = super::fixture();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.py"), "SECRET = 1\n").unwrap();
    let link = fx.root.join("swapped.py");
    std::os::unix::fs::symlink(outside.path().join("secret.py"), &link).unwrap();
    let root = fx.root.canonicalize().unwrap();
    let theme = crate::highlight::theme(crate::highlight::DEFAULT_THEME).unwrap();
    let head = Doc::head(&link, 4096, Some(&root), &theme);
    assert!(
        !head.text.contains("SECRET"),
        "the first screen read outside --root"
    );
    let options = LoadOptions {
        root: Some(root.clone()),
        ..LoadOptions::default()
    };
    let loaded = Doc::load(&link, options, None);
    assert!(
        !loaded.text.contains("SECRET"),
        "the load read outside --root"
    );
    assert!(
        loaded
            .error
            .as_deref()
            .unwrap_or("")
            .contains("outside --root"),
        "{:?}",
        loaded.error
    );
    // Without a root the same link reads, so the check is what refused it.
    let free = Doc::load(&link, LoadOptions::default(), None);
    assert!(free.text.contains("SECRET"));
}

/// Moving onto a folder or a link after a file was open: the outline, preview and status bar
/// say what the row is, never the file shown before (issue 26 item 7).
#[cfg(unix)]
#[test]
fn a_folder_or_link_selected_shows_what_it_is_not_the_last_file() {
    use std::os::unix::fs::symlink;
    let fx = super::fixture();
    let outside = tempfile::tempdir().unwrap();
    symlink("app.py", fx.root.join("to_app.py")).unwrap();
    symlink("no_such.py", fx.root.join("dangling.py")).unwrap();
    symlink(outside.path(), fx.root.join("away")).unwrap();
    let mut app = super::opened(&fx, (120, 40));
    app.confine = Some(fx.root.canonicalize().unwrap());
    app.focus = crate::tui::app::Focus::Dir;
    let cases = [
        ("docs", "folder · 0 folders, 1 file · Enter opens it"),
        ("to_app.py", "link → app.py · Enter follows the link"),
        ("dangling.py", "link → no_such.py · dangling"),
        ("away", "outside --root"),
    ];
    for (name, what) in cases {
        let path = app.root.join(name);
        select_path(&mut app, &path);
        crate::tui::action::preview_dir_selection(&mut app);
        let screen = super::render(&app, 120, 40);
        assert!(screen.contains(what), "{name}: {screen}");
        assert!(
            !screen.contains("def get") && !screen.contains("Store.get"),
            "{name} still shows app.py: {screen}"
        );
        let status = screen.lines().last().unwrap_or_default();
        assert!(status.contains(name), "{name}: {status}");
    }
    // Back on a file, it opens as before; the stand-ins left no place in the jump list.
    let path = app.root.join("app.py");
    select_path(&mut app, &path);
    crate::tui::action::preview_dir_selection(&mut app);
    settle(&mut app);
    assert!(super::render(&app, 120, 40).contains("def get"));
}
