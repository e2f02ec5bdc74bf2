//! The TUI in a real terminal: the built binary runs inside a private tmux server; keys go in
//! with send-keys and the screen comes back with capture-pane. Skipped, with a note, when tmux
//! is not installed.
//!
//! The signal tests send each terminating signal to the viewer and check that the pane is back
//! to normal: not in the alternate screen, cursor shown, mouse reporting off, and the terminal
//! modes a shell needs (`stty`) on again.

use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A tmux server of our own (its own socket), killed on drop.
struct Tmux {
    socket: String,
}

/// Tests run in parallel threads of one process: each server gets its own socket.
static SERVERS: AtomicUsize = AtomicUsize::new(0);

impl Tmux {
    fn start(dir: &Path, command: &str) -> Tmux {
        let socket = format!(
            "outline-e2e-{}-{}",
            std::process::id(),
            SERVERS.fetch_add(1, Ordering::Relaxed)
        );
        let tmux = Tmux { socket };
        tmux.run(&[
            "new-session",
            "-d",
            "-x",
            "120",
            "-y",
            "40",
            "-c",
            dir.to_str().unwrap(),
            "env",
            "-i",
            &format!("PATH={}", std::env::var("PATH").unwrap_or_default()),
            "TERM=xterm-256color",
            "NO_COLOR=1",
            "HOME=/nonexistent",
            "PS1=$ ",
            "bash",
            "--norc",
            "--noprofile",
        ]);
        tmux.keys(&[command, "Enter"]);
        tmux
    }

    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "0"];
        args.extend_from_slice(keys);
        self.run(&args);
    }

    fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", "0"])
    }

    /// The pane's modes as tmux tracks them: alternate screen, cursor shown, mouse reporting.
    fn modes(&self) -> String {
        let format = "alternate=#{alternate_on} cursor=#{cursor_flag} mouse=#{mouse_any_flag}";
        self.run(&["display-message", "-p", "-t", "0", format])
            .trim()
            .to_string()
    }

    /// Waits up to 10 s for `pred` to hold on the screen; returns the last screen.
    fn wait_for(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if pred(&screen) {
                return screen;
            }
            if start.elapsed() > Duration::from_secs(10) {
                panic!("timed out waiting for {what}; screen:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.run(&["kill-server"]);
    }
}

fn have_tmux() -> bool {
    Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn fixture(dir: &Path) {
    let mut text = String::from(
        "\"\"\"A module.\"\"\"\n\n\nclass Store:\n    def add(self, key):\n        return key\n\n",
    );
    for i in 0..80 {
        text.push_str(&format!("FILLER_{i} = {i}\n"));
    }
    text.push_str("\n\ndef target_function(x):\n    return x * 2\n");
    std::fs::write(dir.join("app.py"), text).unwrap();
    std::fs::write(dir.join("README.md"), "# Project\n\nSome text.\n").unwrap();
}

#[test]
fn tui_shows_three_panes_jumps_and_exits_cleanly() {
    if !have_tmux() {
        eprintln!("note: tmux not installed; skipping the real-terminal TUI test");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    fixture(dir.path());
    let bin = env!("CARGO_BIN_EXE_outline");
    let tmux = Tmux::start(dir.path(), &format!("{bin} app.py; echo EXIT=$?"));
    // The status bar is the last row drawn: once it shows, the frame is complete.
    let screen = tmux.wait_for("the three panes", |s| {
        s.contains("Outline") && s.contains("app.py") && s.contains("python")
    });
    assert!(screen.contains("README.md"), "directory pane:\n{screen}");
    assert!(screen.contains("class Store"), "preview pane:\n{screen}");
    assert!(screen.contains("python"), "status bar:\n{screen}");

    if screen.contains("(no outline entries)") {
        eprintln!("note: no Python parser in this build; checking preview navigation instead");
        tmux.keys(&["Tab", "G"]);
        tmux.wait_for("the end of the file", |s| s.contains("def target_function"));
    } else {
        tmux.keys(&["/", "target", "Enter", "Enter"]);
        let screen = tmux.wait_for("the jump", |s| {
            s.lines()
                .nth(1)
                .is_some_and(|row| row.contains("def target_function"))
        });
        assert!(
            screen.contains("90"),
            "line number of the target:\n{screen}"
        );
    }

    tmux.keys(&["?"]);
    tmux.wait_for("the help overlay", |s| s.contains(" Keys "));
    tmux.keys(&["Escape"]);
    // An Escape with a key right behind it reads as Alt+key: wait for it to land first.
    tmux.wait_for("the help closed", |s| !s.contains(" Keys "));
    tmux.keys(&["q"]);
    tmux.wait_for("a clean exit", |s| s.contains("EXIT=0"));
    tmux.keys(&["echo READY-$((40+2))", "Enter"]);
    let screen = tmux.wait_for("a usable shell", |s| s.contains("READY-42"));
    assert!(
        !screen.contains("Outline"),
        "alternate screen left:\n{screen}"
    );
}

fn have(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Starts the viewer on app.py in a pane through `wrapper` (a prefix such as `setsid -w`),
/// with its pid written to `pid` in `dir`, then `after` in the same shell command line.
/// Returns the server and the viewer's pid once its panes are drawn.
fn start_viewer(dir: &Path, wrapper: &str, after: &str) -> (Tmux, u32) {
    fixture(dir);
    let bin = env!("CARGO_BIN_EXE_outline");
    let line = format!("{wrapper} bash -c 'echo $$ > pid; exec {bin} app.py'{after}");
    let tmux = Tmux::start(dir, &line);
    tmux.wait_for("the viewer", |s| {
        s.contains("Outline") && s.contains("app.py")
    });
    let pid = std::fs::read_to_string(dir.join("pid")).expect("pid file");
    (tmux, pid.trim().parse().expect("a pid"))
}

/// Sends `signal` to the viewer and checks that it exits with 128 + `number` and leaves the
/// terminal as it found it.
fn signal_restores_the_terminal(signal: &str, number: i32) {
    if !have_tmux() {
        eprintln!("note: tmux not installed; skipping the SIG{signal} terminal test");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // The modes raw mode turns off, listed by stty once the viewer is gone.
    let stty = "stty -a | tr -s ' ;' '\\n\\n' \
        | grep -x -e icanon -e echo -e isig -e icrnl -e opost | sort | paste -sd, -";
    // The marker is computed so that the echoed command line cannot match it.
    let after = format!("; echo EXIT=$?; echo MODES-$((6*7)) $({stty})");
    let (tmux, pid) = start_viewer(dir.path(), "", &after);
    assert_eq!(
        tmux.modes(),
        "alternate=1 cursor=0 mouse=1",
        "viewer running"
    );
    let sent = Command::new("kill")
        .args(["-s", signal, &pid.to_string()])
        .status()
        .unwrap();
    assert!(sent.success(), "kill -s {signal} {pid}");
    let screen = tmux.wait_for("the shell after the signal", |s| s.contains("MODES-42"));
    assert!(
        screen.contains(&format!("EXIT={}", 128 + number)),
        "exit code after SIG{signal}:\n{screen}"
    );
    assert!(
        screen.contains("MODES-42 echo,icanon,icrnl,isig,opost"),
        "terminal modes after SIG{signal}:\n{screen}"
    );
    assert_eq!(
        tmux.modes(),
        "alternate=0 cursor=1 mouse=0",
        "pane after SIG{signal}:\n{screen}"
    );
}

#[test]
fn sigterm_restores_the_terminal() {
    signal_restores_the_terminal("TERM", 15);
}

#[test]
fn sigint_from_kill_restores_the_terminal() {
    signal_restores_the_terminal("INT", 2);
}

#[test]
fn sighup_restores_the_terminal() {
    signal_restores_the_terminal("HUP", 1);
}

#[test]
fn sigquit_restores_the_terminal() {
    signal_restores_the_terminal("QUIT", 3);
}

/// Whether `pid` has exited (a zombie waiting for a parent that is gone counts as exited).
fn exited(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name, which ends at the last ')'.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| matches!(rest.trim_start().chars().next(), Some('Z' | 'X'))),
        Err(_) if Path::new("/proc/self/stat").exists() => true,
        Err(_) => !Command::new("kill")
            .args(["-0", &pid.to_string()])
            .status()
            .is_ok_and(|s| s.success()),
    }
}

#[test]
fn viewer_exits_when_its_terminal_goes_away_without_a_hangup_signal() {
    if !have_tmux() || !have("setsid") {
        eprintln!("note: tmux or setsid not installed; skipping the vanished-terminal test");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // In a session of its own the viewer gets no SIGHUP when the terminal closes.
    let (tmux, pid) = start_viewer(dir.path(), "setsid -w", "");
    assert!(!exited(pid), "the viewer is running");
    tmux.run(&["kill-server"]);
    let start = Instant::now();
    while !exited(pid) && start.elapsed() < Duration::from_secs(1) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let gone = exited(pid);
    if !gone {
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    assert!(
        gone,
        "the viewer still runs 1 s after its terminal went away"
    );
}

#[test]
fn ctrl_z_suspends_and_fg_resumes() {
    if !have_tmux() {
        eprintln!("note: tmux not installed; skipping the Ctrl-Z test");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    fixture(dir.path());
    let bin = env!("CARGO_BIN_EXE_outline");
    let tmux = Tmux::start(dir.path(), &format!("{bin} app.py"));
    tmux.wait_for("the viewer", |s| s.contains("Outline"));
    tmux.keys(&["C-z"]);
    let screen = tmux.wait_for("the job stopped", |s| s.contains("Stopped"));
    assert_eq!(tmux.modes(), "alternate=0 cursor=1 mouse=0", "{screen}");
    tmux.keys(&["fg; echo EXIT=$?", "Enter"]);
    tmux.wait_for("the viewer again", |s| s.contains("Outline"));
    assert_eq!(tmux.modes(), "alternate=1 cursor=0 mouse=1");
    tmux.keys(&["q"]);
    tmux.wait_for("a clean exit", |s| s.contains("EXIT=0"));
}

#[test]
fn picker_jumps_to_a_definition_in_another_file_and_ctrl_o_returns() {
    if !have_tmux() {
        eprintln!("note: tmux not installed; skipping the real-terminal picker test");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    fixture(dir.path());
    let bin = env!("CARGO_BIN_EXE_outline");
    let tmux = Tmux::start(dir.path(), &format!("{bin} README.md; echo EXIT=$?"));
    tmux.wait_for("the README", |s| s.contains("Some text."));
    tmux.keys(&["S"]);
    tmux.wait_for("the picker", |s| s.contains("Symbols"));
    tmux.keys(&["-l", "target_function"]);
    tmux.wait_for("the ranked definition", |s| {
        s.contains("target_function") && s.contains("app.py:90")
    });
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("the jump into app.py", |s| {
        s.lines()
            .nth(1)
            .is_some_and(|row| row.contains("def target_function"))
    });
    assert!(!screen.contains("Symbols"), "the picker closed:\n{screen}");
    tmux.keys(&["C-o"]);
    tmux.wait_for("the way back to the README", |s| {
        s.contains("Some text.") && !s.contains("def target_function")
    });
    tmux.keys(&["q"]);
    tmux.wait_for("a clean exit", |s| s.contains("EXIT=0"));
}
