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
}

/// The binary with an environment that cannot leak the developer's settings into a test.
pub fn outline() -> Command {
    let mut cmd = Command::cargo_bin("outline").expect("binary built");
    cmd.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("NO_COLOR", "1");
    cmd
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

/// Parses `--json` output of a file.
pub fn json(stdout: &str) -> serde_json::Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{stdout}"))
}
