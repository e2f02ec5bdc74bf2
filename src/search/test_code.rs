//! Which code is test code: files by path (test directories, `test_*.py`, `*_test.go`,
//! `*.spec.ts`, …) and entries inside test modules (`mod tests`). Search ranks definitions
//! outside tests first; `--no-tests` leaves test code out with the same rule.

use crate::outline::{Entry, Kind};
use std::path::Path;

/// Directory names that hold tests, fixtures for tests, or benchmarks' test data.
const TEST_DIRS: &[&str] = &[
    "__tests__",
    "spec",
    "specs",
    "test",
    "testdata",
    "testing",
    "tests",
];

/// Whether `path` is a test file or lies in a test directory.
pub fn is_test_path(path: &Path) -> bool {
    let mut components = path.components().rev();
    let Some(file) = components.next() else {
        return false;
    };
    let in_test_dir = components.any(|dir| {
        let dir = dir.as_os_str().to_string_lossy().to_ascii_lowercase();
        // .NET test projects: `Newtonsoft.Json.Tests/`, `App.UnitTests/`.
        TEST_DIRS.contains(&dir.as_str()) || dir.ends_with(".tests") || dir.ends_with("unittests")
    });
    in_test_dir
        || in_test_source_set(path)
        || is_test_file_name(&file.as_os_str().to_string_lossy())
}

/// Whether `path` lies in a Gradle test source set: `src/test`, and Kotlin Multiplatform's
/// and Android's `src/jvmTest`, `src/commonTest`, `src/androidUnitTest`.
fn in_test_source_set(path: &Path) -> bool {
    let folders: Vec<_> = path.components().map(|c| c.as_os_str()).collect();
    folders.windows(2).any(|pair| {
        let set = pair[1].to_string_lossy();
        pair[0] == "src" && set.len() > "Test".len() && set.ends_with("Test")
    })
}

fn is_test_file_name(name: &str) -> bool {
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
    match ext {
        "py" => stem.starts_with("test_") || stem.ends_with("_test") || stem == "conftest",
        "go" => stem.ends_with("_test"),
        "rs" => stem == "tests" || stem.ends_with("_tests") || stem.ends_with("_test"),
        "js" | "jsx" | "ts" | "tsx" | "mjs" | "cjs" | "mts" | "cts" => {
            stem.ends_with(".test") || stem.ends_with(".spec")
        }
        // JUnit, xUnit/NUnit, Kotlin and XCTest name a test class after what it tests.
        "java" | "kt" | "kts" | "cs" | "swift" | "php" => {
            ["Test", "Tests", "Spec", "IT"].iter().any(|suffix| {
                stem.strip_suffix(suffix)
                    .is_some_and(|rest| !rest.is_empty())
            })
        }
        // bats files hold nothing but tests; shunit2 and friends name theirs `test_*.sh`.
        "bats" => true,
        // busted specs (`*_spec.lua`) and luaunit-style `test_*.lua`.
        "lua" => stem.ends_with("_spec") || stem.starts_with("test_") || stem.ends_with("_test"),
        // RSpec's `*_spec.rb`, minitest's `*_test.rb` and `test_*.rb`.
        "rb" => stem.ends_with("_spec") || stem.starts_with("test_") || stem.ends_with("_test"),
        "sh" | "bash" | "zsh" => stem.starts_with("test_") || stem.ends_with("_test"),
        "c" | "cc" | "cpp" | "cxx" | "h" | "hpp" => {
            stem.starts_with("test_") || stem.ends_with("_test") || stem.ends_with("_unittest")
        }
        _ => false,
    }
}

/// Drops test modules from `entries`, at any depth.
pub fn drop_test_entries(entries: &mut Vec<Entry>) {
    entries.retain(|entry| !is_test_entry(entry));
    for entry in entries {
        drop_test_entries(&mut entry.children);
    }
}

/// Whether `entry` is a test module (`mod tests`, `namespace test`): everything inside it is
/// test code.
pub fn is_test_entry(entry: &Entry) -> bool {
    matches!(entry.kind, Kind::Module | Kind::Namespace) && matches!(entry.name(), "tests" | "test")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_paths() {
        for path in [
            "tests/cli.rs",
            "src/__tests__/a.js",
            "pkg/server_test.go",
            "test_loader.py",
            "app/loader_test.py",
            "conftest.py",
            "web/button.spec.ts",
            "web/button.test.tsx",
            "lib/testdata/x.json",
            "src/parse_tests.rs",
            "app/src/test/java/com/x/RegistryTest.java",
            "lib/RegistryTest.java",
            "Src/Newtonsoft.Json.Tests/Linq/JTokenReaderTest.cs",
            "Src/Lib/ParserTests.cs",
            "okio/src/commonMain/kotlin/BufferTest.kt",
            "Sources/CacheTests.swift",
            "tests/Unit/RepositoryTest.php",
            "Tests/AlamofireTests/Session.swift",
            "bin/api.bats",
            "scripts/test_install.sh",
            "lua/parser_spec.lua",
            "lib/cart_spec.rb",
            "lib/cart_test.rb",
            "test_helper_x/test_cart.rb",
            "okhttp/src/jvmTest/kotlin/okhttp3/Generator.kt",
            "core/src/commonTest/kotlin/Fixtures.kt",
            "app/src/androidUnitTest/java/com/x/Helper.java",
        ] {
            assert!(is_test_path(Path::new(path)), "{path}");
        }
        for path in [
            "src/testing_utils.rs",
            "src/contest.py",
            "latest/main.go",
            "src/spectrum.ts",
            "attest.c",
            "src/main/java/com/x/Test.java",
            "src/main/java/com/x/Contest.java",
            "Sources/Manifest.swift",
            "Src/Newtonsoft.Json/Latest.cs",
            "scripts/latest.sh",
            "lua/inspect.lua",
            "okhttp/src/jvmMain/kotlin/okhttp3/Latest.kt",
            "tools/src/latest/Manifest.kt",
        ] {
            assert!(!is_test_path(Path::new(path)), "{path}");
        }
    }

    #[test]
    fn test_modules() {
        assert!(is_test_entry(&Entry::new(Kind::Module, "tests", 1, 9)));
        assert!(!is_test_entry(&Entry::new(Kind::Function, "tests", 1, 9)));
        assert!(!is_test_entry(&Entry::new(Kind::Module, "testing", 1, 9)));
    }
}
