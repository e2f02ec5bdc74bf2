//! TestEnv: a temp directory and the real binary run with a scrubbed environment.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

pub struct TestEnv {
    pub dir: tempfile::TempDir,
}

impl TestEnv {
    pub fn new() -> TestEnv {
        TestEnv {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `text` to `rel` (creating parent folders) and returns its path.
    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.path().join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(&path, text).expect("write");
        path
    }

    /// `outline` run inside the temp dir.
    pub fn cmd(&self) -> Command {
        let mut cmd = outline();
        cmd.current_dir(self.path());
        cmd
    }

    /// `outline --print ARGS` run inside the temp dir: (stdout, stderr, exit code).
    pub fn print(&self, args: &[&str]) -> (String, String, i32) {
        let mut cmd = self.cmd();
        cmd.arg("--print").args(args);
        run(cmd)
    }
}

/// The binary with an environment that cannot leak the developer's settings into a test.
pub fn outline() -> Command {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("outline"));
    scrub(&mut cmd);
    Command::from_std(cmd)
}

/// Clears `command`'s environment but for `PATH`, and turns colours off: what every run of the
/// binary in a test gets.
pub fn scrub(command: &mut std::process::Command) -> &mut std::process::Command {
    command
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("NO_COLOR", "1")
}

/// Runs and returns (stdout, stderr, exit code).
pub fn run(mut cmd: Command) -> (String, String, i32) {
    let output = cmd.output().expect("ran");
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        output.status.code().unwrap_or(-1),
    )
}

/// Parses JSON Lines output (a directory's, a search's), one value a line.
pub fn json_lines(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// Parses `--json` output of a file.
pub fn json(stdout: &str) -> serde_json::Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{stdout}"))
}
