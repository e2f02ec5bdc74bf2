//! `--root` against a tree that changes during a call: a file swapped between a regular file
//! and a link to a file outside, a folder between a real one and a link to a tree outside,
//! as fast as one thread can, while the command line and the MCP server are asked about it
//! for a bounded time. Nothing of the outside tree may come back: the check must be made on
//! the file that is read, not on a path that was looked at before it was opened.

use super::mcp::{call, start};
use super::util::{outline, TestEnv};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long each side is attacked: long enough for thousands of swaps.
const ATTACK: Duration = Duration::from_secs(2);
/// In the outside files' text and in the name of the one that has no namesake inside: a walk
/// that met the outside folder through a link swapped in must not name it. No answer may hold
/// it.
const OUTSIDE: &str = "zqoutside";

/// `root/` (the sandbox) beside `outside/`; `root/race.py` and `root/racedir` are swapped by
/// [`Swapper`]. The outside file has a definition, text to grep and a name all marked.
fn tree() -> (TestEnv, PathBuf) {
    let env = TestEnv::new();
    let secret = format!("def {OUTSIDE}_def():\n    return inside('{OUTSIDE} text')\n");
    env.write(&format!("outside/{OUTSIDE}_elsewhere.py"), &secret);
    env.write("outside/race.py", &secret);
    env.write("root/app.py", "def inside():\n    return 'inside text'\n");
    env.write(
        "root/race.py",
        "def inside_race():\n    return 'inside text'\n",
    );
    env.write(
        "root/racedir/race.py",
        "def inside_dir():\n    return 'inside text'\n",
    );
    let root = env.path().join("root").canonicalize().expect("canonical");
    (env, root)
}

/// A thread that swaps `root/race.py` and `root/racedir` between their own content and links
/// out of the root until dropped.
struct Swapper {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<usize>>,
}

impl Swapper {
    fn start(root: &Path) -> Swapper {
        let stop = Arc::new(AtomicBool::new(false));
        let root = root.to_path_buf();
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let outside = root.join("../outside");
            let (file, dir) = (root.join("race.py"), root.join("racedir"));
            let (staged, kept) = (root.join(".staged"), root.join(".kept"));
            let mut swaps = 0;
            while !flag.load(Ordering::Relaxed) {
                // The file: a link out, then a regular file again, each renamed into place
                // so that the path always names something.
                let _ = std::fs::remove_file(&staged);
                let _ = std::os::unix::fs::symlink(outside.join("race.py"), &staged);
                let _ = std::fs::rename(&staged, &file);
                let _ = std::fs::write(&staged, "def inside_race():\n    pass\n");
                let _ = std::fs::rename(&staged, &file);
                // The folder: moved aside for a link to the outside tree, then back.
                if std::fs::rename(&dir, &kept).is_ok() {
                    let _ = std::os::unix::fs::symlink(&outside, &dir);
                    std::thread::yield_now();
                    let _ = std::fs::remove_file(&dir);
                    let _ = std::fs::rename(&kept, &dir);
                }
                swaps += 1;
            }
            swaps
        });
        Swapper {
            stop,
            thread: Some(thread),
        }
    }

    /// Stops swapping; how many rounds were made.
    fn finish(mut self) -> usize {
        self.stop.store(true, Ordering::Relaxed);
        self.thread
            .take()
            .map_or(0, |thread| thread.join().expect("swapper"))
    }
}

impl Drop for Swapper {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Fails on any answer that holds the outside file's text or its name.
fn assert_nothing_outside(what: &str, answer: &str) {
    assert!(
        !answer.contains(OUTSIDE),
        "{what} reached outside --root:\n{answer}"
    );
}

#[cfg(unix)]
#[test]
fn a_link_swapped_in_during_a_run_leads_nowhere_outside() {
    let (env, root) = tree();
    let root_flag = format!("--root={}", root.display());
    // The swapped folder is also named itself: a walk that starts at a link swapped in
    // after `--root` was checked must not list the tree it leads to.
    let runs: [&[&str]; 11] = [
        &["race.py"],
        &["--read", "race.py"],
        &["--lines", "1:3", "race.py"],
        &["."],
        &["--json", "--depth", "9", "."],
        &["--grep", "text", "."],
        &["--find", "*", "."],
        &["--refs", "inside", "."],
        &["racedir"],
        &["--grep", "text", "racedir"],
        &["--find", "*", "racedir"],
    ];
    let swapper = Swapper::start(&root);
    let started = Instant::now();
    let mut count = 0;
    while started.elapsed() < ATTACK {
        for args in runs {
            let output = outline()
                .current_dir(&root)
                .arg("--print")
                .arg(&root_flag)
                .args(args)
                .output()
                .expect("ran");
            let answer = String::from_utf8_lossy(&output.stdout).into_owned()
                + &String::from_utf8_lossy(&output.stderr);
            assert_nothing_outside(&format!("outline {args:?}"), &answer);
            count += 1;
        }
    }
    let swaps = swapper.finish();
    assert!(swaps > 100 && count > 20, "{swaps} swaps, {count} runs");
    drop(env);
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_swapped_in_during_a_call_leads_nowhere_outside() {
    let (env, root) = tree();
    let root_flag = format!("--root={}", root.display());
    let client = start(&root, &[&root_flag]).await;
    // Every tool that reads a file or walks a folder, on the swapped file, on the swapped
    // folder named itself, on a file inside it, and on the root that holds both.
    let calls = [
        ("outline", json!({"path": "race.py"})),
        ("read", json!({"path": "race.py"})),
        ("lines", json!({"path": "race.py", "range": "1:3"})),
        ("symbol", json!({"path": "race.py", "query": "inside_race"})),
        ("grep", json!({"pattern": "text", "path": "race.py"})),
        ("find", json!({"query": "*", "path": "race.py"})),
        ("outline", json!({"path": "racedir"})),
        ("grep", json!({"pattern": "text", "path": "racedir"})),
        ("find", json!({"query": "*", "path": "racedir"})),
        ("refs", json!({"name": "inside", "path": "racedir"})),
        ("read", json!({"path": "racedir/race.py"})),
        ("lines", json!({"path": "racedir/race.py", "range": "1:2"})),
        (
            "symbol",
            json!({"path": "racedir/race.py", "query": "inside_dir"}),
        ),
        ("outline", json!({"path": ".", "depth": 9})),
        ("grep", json!({"pattern": "text"})),
        ("find", json!({"query": "*"})),
        ("refs", json!({"name": "inside"})),
    ];
    let swapper = Swapper::start(&root);
    let started = Instant::now();
    let (mut count, mut answered_inside) = (0, 0);
    while started.elapsed() < ATTACK {
        for (tool, arguments) in &calls {
            let result = call(&client, tool, arguments.clone()).await;
            let answer: String = result
                .content
                .iter()
                .filter_map(|block| block.as_text().map(|text| text.text.as_str()))
                .collect();
            assert_nothing_outside(&format!("{tool} {arguments}"), &answer);
            answered_inside += usize::from(answer.contains("inside"));
            count += 1;
        }
    }
    let swaps = swapper.finish();
    assert!(swaps > 100 && count > 20, "{swaps} swaps, {count} calls");
    // The calls were answered, not all refused: the race was run against real reads.
    assert!(answered_inside > count / 4, "{answered_inside} of {count}");
    client.cancel().await.expect("close");
    drop(env);
}
