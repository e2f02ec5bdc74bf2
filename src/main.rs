//! The `outline` binary. Everything it does is [`outliner::run`]: the library owns the one path
//! from arguments to exit code, so this file stays a shim.

fn main() -> std::process::ExitCode {
    outliner::run()
}
