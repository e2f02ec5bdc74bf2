//! Files with no telling name, recognised by their `#!` line: every surface (directory and
//! file outlines, `--find`, `--grep --code-only`, `--refs`, `--lang`) sees the same language.

use super::util::{json_lines, TestEnv};

fn tree() -> TestEnv {
    let env = TestEnv::new();
    env.write(
        "bin/deploy",
        "#!/usr/bin/env python3\n# ship() in a comment\n\ndef ship():\n    pass\n\nship()\n",
    );
    env.write("bin/notes", "ship() is not code here\n");
    env.write("bin/blob", "#!/usr/bin/env python3\n\0def ship(): pass\n");
    env
}

#[test]
fn a_script_is_outlined_in_a_tree_and_by_name() {
    let env = tree();
    let (out, err, code) = env.print(&["--json", "."]);
    assert_eq!((code, err.as_str()), (0, ""));
    let files = json_lines(&out);
    let paths: Vec<&str> = files.iter().filter_map(|f| f["path"].as_str()).collect();
    assert_eq!(paths, ["bin/deploy"], "{out}");
    assert_eq!(files[0]["language"], "python", "{out}");

    let (out, _, code) = env.print(&["bin/deploy"]);
    assert_eq!(code, 0);
    assert!(out.contains("function ship()"), "{out}");
    let (out, _, _) = env.print(&["--lang", "python", "."]);
    assert!(out.contains("## bin/deploy (python)"), "{out}");
}

#[test]
fn searches_find_definitions_and_code_in_scripts() {
    let env = tree();
    let (out, _, code) = env.print(&["--find", "ship"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("# function: ship (bin/deploy, L4-5)"),
        "{out}"
    );
    let (out, _, _) = env.print(&["--grep", "ship", "--code-only"]);
    assert!(
        out.contains("4: def ship():") && out.contains("7: ship()"),
        "{out}"
    );
    assert!(
        !out.contains("comment") && !out.contains("bin/notes"),
        "{out}"
    );
    let (out, _, _) = env.print(&["--grep", "ship"]);
    assert!(
        out.contains("comment") && out.contains("bin/notes"),
        "{out}"
    );
    assert!(!out.contains("bin/blob"), "binary stays binary: {out}");
    let (out, _, _) = env.print(&["--refs", "ship"]);
    assert!(out.contains("function ship()  [definition]"), "{out}");
    assert!(
        out.contains("7: ship()") && !out.contains("comment"),
        "{out}"
    );
}

#[test]
fn shell_scripts_by_name_and_by_first_line_and_their_tests() {
    let env = TestEnv::new();
    env.write(
        "libexec/tool-greet",
        "#!/usr/bin/env bash\nNAME=world\ngreet() {\n  echo \"hi $NAME\" # NAME\n}\ngreet\n",
    );
    env.write("test/greet.bats", "@test \"greets\" {\n  greet\n}\n");
    let (out, _, code) = env.print(&["--find", "greet"]);
    assert_eq!(code, 0);
    assert!(out.contains("libexec/tool-greet, L3-5"), "{out}");
    let (out, _, _) = env.print(&["--find", "greets", "--no-tests"]);
    assert!(!out.contains("greet.bats"), "{out}");
    // `$NAME` refers to NAME; the comment does not.
    let (out, _, _) = env.print(&["--refs", "NAME", "libexec"]);
    assert!(out.contains("\n4:") && out.contains("# 2 hits"), "{out}");
}

#[test]
fn ruby_members_by_its_own_notation_and_its_tests() {
    let env = TestEnv::new();
    env.write(
        "lib/cart.rb",
        "class Cart\n  def self.load(path) = new\n  def each\n    \"#{total} total\" # total\n  end\n  def total = 1\nend\n",
    );
    env.write("bin/shop", "#!/usr/bin/env ruby\nCart.load(ARGV[0]).each\n");
    env.write(
        "spec/cart_spec.rb",
        "describe Cart do\n  it \"each works\" do\n  end\nend\n",
    );
    // `Cart#each` is Ruby's name for the instance method; `.` and `::` reach `def self.x`.
    for (query, found) in [
        ("Cart#each", "# method: Cart.each (lib/cart.rb, L3-5)"),
        ("Cart.load", "# method: Cart.self.load (lib/cart.rb, L2)"),
        ("Cart::load", "# method: Cart.self.load (lib/cart.rb, L2)"),
    ] {
        let (out, _, code) = env.print(&["--find", query]);
        assert_eq!(code, 0, "{query}");
        assert!(out.starts_with(found), "{query}: {out}");
    }
    // A spec's `describe Cart` block is not a definition of Cart.
    let (out, _, _) = env.print(&["--find", "Cart"]);
    assert!(
        out.starts_with("# class: Cart (lib/cart.rb, L1-7)"),
        "{out}"
    );
    let (out, _, _) = env.print(&["--find", "Cart", "--no-tests"]);
    assert!(!out.contains("cart_spec"), "{out}");
    // A `#{}` hole is code; the comment is not.
    let (out, _, _) = env.print(&["--refs", "total", "lib"]);
    assert!(out.contains("\n4:") && out.contains("# 2 hits"), "{out}");
    let (out, _, _) = env.print(&["--lang", "ruby", "bin"]);
    assert!(
        out.contains("## bin/shop (ruby)") || out.contains("bin/shop"),
        "{out}"
    );
}
