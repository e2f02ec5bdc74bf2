//! Answers cut to what an agent needs (issue 28's trial): `-W` around the hit in a function
//! longer than a screen, one overload by its parameters, `Type.method` uses on the implicit
//! `this`, and local variables that only share the name left out of `--refs`.

use super::util::TestEnv;

/// A Java method of `lines` lines whose `throw` sits in the last branch of an if chain.
fn chained_method(lines: usize) -> String {
    let mut text = String::from(
        "class Store {\n  void write(Object value) {\n    if (value != null) {\n      if (blocked) {\n        check(value);\n      } else if (readOnly) {\n        throw new IllegalStateException(\"read only store\");\n      }\n    }\n",
    );
    for step in 0..lines.saturating_sub(10) {
        text.push_str(&format!("    step{step}();\n"));
    }
    text.push_str("  }\n}\n");
    text
}

#[test]
fn a_hit_in_a_longer_function_shows_its_branch_chain_not_the_whole_body() {
    let env = TestEnv::new();
    env.write("Store.java", &chained_method(70));
    let (out, err, code) = env.print(&["--grep", "read only store", "-W", "Store.java"]);
    assert_eq!(code, 0, "{err}");
    // The first line, the `if` the chain began with and its earlier branch (a one-line gap
    // filled), the branch of the hit, and a line either side of it; not the 60 steps.
    assert_eq!(
        out,
        "Store.java:L2-70 method Store.write\n2   void write(Object value) {\n3     if (value != null) {\n4       if (blocked) {\n5         check(value);\n6       } else if (readOnly) {\n7:         throw new IllegalStateException(\"read only store\");\n8       }\n… 69 lines: --symbol Store.java#1.1 reads it whole\n# 1 hit in 1 file\n"
    );
    // Sixty lines or fewer still print whole.
    env.write("Short.java", &chained_method(60).replace("Store", "Short"));
    let (out, _, _) = env.print(&["--grep", "read only store", "-W", "Short.java"]);
    assert!(
        out.contains("59     step49();\n") && !out.contains("reads it whole"),
        "{out}"
    );
}

#[test]
fn function_context_in_python_keeps_a_callers_docstring_to_its_first_line() {
    let env = TestEnv::new();
    env.write(
        "app.py",
        "def find_handler(e):\n    return None\n\n\ndef handle(e):\n    \"\"\"Handles an error.\n\n    .. versionadded:: 0.3\n    \"\"\"\n    handler = find_handler(e)\n    if handler is None:\n        raise\n    return handler(e)\n",
    );
    let (out, err, code) = env.print(&["--refs", "find_handler", "-W", "app.py"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "app.py:L1-2 function find_handler(e)  [definition]\nL5-13 function handle\n5 def handle(e):\n6     \"\"\"Handles an error.\n--\n10:     handler = find_handler(e)\n11     if handler is None:\n12         raise\n13     return handler(e)\n# 2 hits in 1 file\n"
    );
    // A hit in the docstring keeps it whole.
    let (out, _, _) = env.print(&["--grep", "versionadded", "-W", "app.py"]);
    assert!(
        out.contains("7\n8:     .. versionadded:: 0.3\n9     \"\"\"\n"),
        "{out}"
    );
}

#[test]
fn find_picks_overloads_by_the_start_of_their_parameters() {
    let env = TestEnv::new();
    env.write(
        "Request.swift",
        "class DataRequest {\n    func validate(_ validation: Validation) -> Self {\n        return self\n    }\n    func validate<S: Sequence>(statusCode codes: S) -> Self {\n        return self\n    }\n    func validate() -> Self {\n        return self\n    }\n}\n",
    );
    let (out, err, code) = env.print(&["--find", "DataRequest.validate(_ validation", "."]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("# method: DataRequest.validate (Request.swift, L2-4)"),
        "{out}"
    );
    // Generic parameters are skipped; `()` asks for no parameters.
    let (out, _, _) = env.print(&["--find", "validate(statusCode", "."]);
    assert!(out.contains("(Request.swift, L5-7)"), "{out}");
    let (out, _, _) = env.print(&["--find", "validate()", "."]);
    assert!(out.contains("(Request.swift, L8-10)"), "{out}");
    let (_, err, code) = env.print(&["--find", "validate(int", "."]);
    assert_eq!(code, 1, "{err}");
    // A kind word still comes first.
    let (out, _, code) = env.print(&["--find", "fn validate(_ validation", "."]);
    assert_eq!(code, 0);
    assert!(out.contains("(Request.swift, L2-4)"), "{out}");
}

#[test]
fn overloads_named_by_their_parameters_print_their_bodies_whatever_their_owners() {
    let env = TestEnv::new();
    let request = |owner: &str, argument: &str| {
        format!("class {owner} {{\n    func validate(_ validation: Validation) -> Self {{\n        check({argument})\n        return self\n    }}\n}}\n")
    };
    env.write("Data.swift", &request("DataRequest", "data"));
    env.write("Download.swift", &request("DownloadRequest", "fileURL"));
    // "How do the two differ?": one call shows both bodies.
    let (out, err, code) = env.print(&["--find", "validate(_ validation", "."]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("3         check(data)"), "{out}");
    assert!(out.contains("3         check(fileURL)"), "{out}");
    // By name alone, namesakes of different owners stay a list of different answers.
    let (out, _, _) = env.print(&["--find", "validate", "."]);
    assert!(!out.contains("check("), "{out}");
}

#[test]
fn function_context_shows_the_small_branch_around_a_hit_whole() {
    let env = TestEnv::new();
    let filler: String = (0..65).map(|i| format!("    int v{i} = {i};\n")).collect();
    env.write(
        "F.java",
        &format!("class F {{\n  void set(Object value) {{\n{filler}    if (a) {{\n      check();\n    }} else if (frozen) {{\n      // Reflection refuses a final field\n      // even after setAccessible,\n      // so say so here\n      String name = describe();\n      throw new Error(\"cannot set \" + name);\n    }}\n    store(value);\n  }}\n}}\n"),
    );
    let (out, err, code) = env.print(&["--grep", "cannot set", "-W", "F.java"]);
    assert_eq!(code, 0, "{err}");
    // The branch's comment and the closing line come with the hit, not only its head.
    assert!(
        out.contains("71       // Reflection refuses a final field\n"),
        "{out}"
    );
    assert!(
        out.contains("72       // even after setAccessible,\n"),
        "{out}"
    );
    assert!(out.contains("76     }\n"), "{out}");
    assert!(!out.contains("v10 = 10"), "{out}");
}

#[test]
fn find_takes_typealias_as_a_kind() {
    let env = TestEnv::new();
    env.write(
        "Validation.swift",
        "extension DataRequest {\n    public typealias Validation = (Data?) -> Bool\n    func validation() {}\n}\n",
    );
    let (out, err, code) = env.print(&["--find", "typealias Validation", "."]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("DataRequest.Validation"), "{out}");
    assert!(!out.contains("func validation"), "{out}");
}

#[test]
fn refs_of_type_method_keep_bare_calls_inside_the_types_own_members() {
    let env = TestEnv::new();
    env.write(
        "Buffer.kt",
        "class Buffer\n\ninternal fun Buffer.readLine(newline: Long): String {\n  return \"\"\n}\n\nfun Buffer.readStrict(limit: Long): String {\n  return readLine(limit)\n}\n\nfun Other.pick(x: Long): String {\n  return when {\n    x > 0 -> readLine(x)\n    else -> \"\"\n  }\n}\n",
    );
    let (out, err, code) = env.print(&["--refs", "Buffer.readLine", "."]);
    assert_eq!(code, 0, "{err}");
    // The call on the implicit `this` of a Buffer extension is a use; a `when` arrow is no
    // member operator, so Other.pick's plain call is not one.
    assert!(
        out.contains("function Buffer.readStrict\n8:   return readLine(limit)"),
        "{out}"
    );
    assert!(!out.contains("Other.pick"), "{out}");
}

#[test]
fn refs_leave_out_local_variables_that_share_the_name_and_count_them() {
    let env = TestEnv::new();
    env.write(
        "base.rb",
        "class Base\n  def self.route(verb, path)\n    verb\n  end\n\n  def self.get(path)\n    route 'GET', path\n  end\n\n  def process_route\n    route = @request.path_info\n    route = '/' if route.empty?\n    route(1)\n  end\nend\n",
    );
    let (out, err, code) = env.print(&["--refs", "route", "."]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("method Base.self.get\n7:     route 'GET', path"),
        "{out}"
    );
    // A call with parentheses is still the method.
    assert!(out.contains("13:     route(1)"), "{out}");
    assert!(
        !out.contains("path_info") && !out.contains("route.empty?"),
        "{out}"
    );
    assert!(
        out.ends_with("# 3 hits in 1 file; 3 uses of local variables of the name left out\n"),
        "{out}"
    );
}

#[test]
fn a_find_miss_in_a_folder_names_a_definition_one_level_up() {
    let env = TestEnv::new();
    env.write(
        "Source/Core/Request.swift",
        "class DataRequest {\n    func validate(_ validation: @escaping Validation) -> Self {\n        return self\n    }\n}\n",
    );
    env.write(
        "Source/Features/Validation.swift",
        "extension DataRequest {\n    public typealias Validation = (Data?) -> Bool\n}\n",
    );
    let (_, err, code) = env.print(&["--find", "Validation", "Source/Core"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        err,
        "outline: no definition matches 'Validation' in 1 file; defined outside the paths: Source/Features/Validation.swift:L2 type DataRequest.Validation; search Source\n"
    );
    // Nothing above the folder given defines it: the near names, as before.
    let (_, err, code) = env.print(&["--find", "Validatio", "Source/Core"]);
    assert_eq!(code, 1);
    assert!(!err.contains("outside the paths"), "{err}");
}

/// Kotlin's `readLine` defined three times: a member with no parameters, its `actual` twin
/// and the shared helper that takes the newline's index.
const READ_LINE: &str = "class Buffer {\n  fun readLine(): String? = commonReadLine()\n}\n\ninternal fun Buffer.readLine(newline: Long): String {\n  return \"\"\n}\n\ninternal fun Buffer.commonReadLine(): String? {\n  val newline = indexOf(\"a, b\")\n  return readLine(newline)\n}\n\nfun strict(source: Buffer, limit: Long): String {\n  check(source.readLine() != null)\n  return source.readLine(limit)\n}\n\nfun lines(source: Buffer) = generateSequence { source.readLine() }\n\nval reader = Buffer::readLine\n";

#[test]
fn refs_named_by_parameters_keep_the_calls_that_fit_and_count_the_rest() {
    let env = TestEnv::new();
    env.write("Buffer.kt", READ_LINE);
    let (out, err, code) = env.print(&["--refs", "readLine(newline: Long)", "."]);
    assert_eq!(code, 0, "{err}");
    // The helper's definition and the calls passing one argument; a reference with no
    // argument list cannot be told apart, so it stays.
    assert!(
        out.contains(
            "L5-7 function internal fun Buffer.readLine(newline: Long): String  [definition]"
        ),
        "{out}"
    );
    assert!(out.contains("11:   return readLine(newline)"), "{out}");
    assert!(out.contains("16:   return source.readLine(limit)"), "{out}");
    assert!(out.contains("21: val reader = Buffer::readLine"), "{out}");
    assert!(!out.contains("readLine() != null"), "{out}");
    assert!(!out.contains("generateSequence"), "{out}");
    assert!(!out.contains("fun readLine(): String?"), "{out}");
    // What was left out is counted, never dropped silently.
    assert!(
        out.ends_with("# 4 hits in 1 file; 1 definition and 2 calls of other overloads left out (calls kept pass 1 argument)\n"),
        "{out}"
    );
    // `name()` asks for the overload with no parameters and the calls passing none.
    let (out, _, _) = env.print(&["--refs", "readLine()", "."]);
    assert!(
        out.contains("15:   check(source.readLine() != null)"),
        "{out}"
    );
    assert!(out.contains("generateSequence"), "{out}");
    assert!(!out.contains("readLine(limit)"), "{out}");
    assert!(
        out.contains("left out (calls kept pass 0 arguments)"),
        "{out}"
    );
    // JSON says the same as one closing object.
    let (out, _, _) = env.print(&["--refs", "readLine(newline", "--json", "."]);
    assert!(
        out.ends_with("{\"other_overloads_left_out\":{\"definitions\":1,\"calls\":2}}\n"),
        "{out}"
    );
}

#[test]
fn refs_by_parameters_count_defaults_variadics_and_trailing_closures() {
    let env = TestEnv::new();
    env.write(
        "base.rb",
        "class Base\n  def self.route(verb, path, options = {}, &block)\n    verb\n  end\n\n  def self.get(path)\n    route('GET', path)\n    route('HEAD', path, {}, &block)\n    route(path)\n    route 'PUT', path\n  end\nend\n",
    );
    let (out, err, code) = env.print(&["--refs", "route(verb, path, options = {}, &block)", "."]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("7:     route('GET', path)"), "{out}");
    assert!(
        out.contains("8:     route('HEAD', path, {}, &block)"),
        "{out}"
    );
    assert!(!out.contains("route(path)"), "{out}");
    // A call without parentheses tells no argument count: kept.
    assert!(out.contains("10:     route 'PUT', path"), "{out}");
    assert!(
        out.ends_with("1 call of other overloads left out (calls kept pass 2-4 arguments)\n"),
        "{out}"
    );
    env.write(
        "Request.swift",
        "class Request {\n    func validate(_ validation: Validation) -> Self { self }\n    func validate() -> Self { self }\n    func run() {\n        validate { _ in true }\n        validate()\n        validate(check, )\n    }\n}\n",
    );
    let (out, _, _) = env.print(&["--refs", "validate(_ validation", "Request.swift"]);
    assert!(out.contains("5:         validate { _ in true }"), "{out}");
    assert!(out.contains("7:         validate(check, )"), "{out}");
    assert!(!out.contains("  6:"), "{out}");
}

#[test]
fn refs_list_each_namesake_definition_on_one_line() {
    let env = TestEnv::new();
    env.write("Buffer.kt", READ_LINE);
    let (out, err, code) = env.print(&["--refs", "readLine", "."]);
    assert_eq!(code, 0, "{err}");
    // The signature tells the namesakes apart; the name's line is not printed again, nor is
    // the file's path on the lines after the first in it.
    assert!(
        out.starts_with("Buffer.kt:L2 method fun Buffer.readLine(): String?  [definition]\nL5-7 function internal fun Buffer.readLine(newline: Long): String  [definition]\nL9-12 function Buffer.commonReadLine\n"),
        "{out}"
    );
}

#[test]
fn overloads_named_by_parameters_print_their_bodies_within_one_bodys_budget() {
    let env = TestEnv::new();
    // Three 21-line overloads: 63 lines, past the 60 of namesakes compared at once, within
    // the 100 of one body.
    let overload = |owner: &str| {
        let steps: String = (0..18).map(|i| format!("        step{i}()\n")).collect();
        format!("class {owner} {{\n    func validate(_ validation: Validation) -> Self {{\n        check({owner})\n{steps}        return self\n    }}\n}}\n")
    };
    for owner in ["DataRequest", "StreamRequest", "DownloadRequest"] {
        env.write(&format!("{owner}.swift"), &overload(owner));
    }
    let (out, err, code) = env.print(&["--find", "validate(_ validation", "."]);
    assert_eq!(code, 0, "{err}");
    for owner in ["DataRequest", "StreamRequest", "DownloadRequest"] {
        assert!(out.contains(&format!("3         check({owner})")), "{out}");
    }
    // By name alone the same namesakes stay a list.
    let (out, _, _) = env.print(&["--find", "validate", "."]);
    assert!(!out.contains("check("), "{out}");
}

/// A function of more than `WHOLE_BODY_LINES` (60) lines around `body`.
fn long_function(head: &str, body: &str, tail: &str) -> String {
    let filler: String = (0..70).map(|i| format!("    step{i}()\n")).collect();
    format!("{head}\n{filler}{body}{tail}\n")
}

#[test]
fn refs_with_function_context_say_how_each_caller_handles_a_failure() {
    let env = TestEnv::new();
    env.write(
        "Finder.kt",
        &long_function(
            "class Finder {\n  fun find(): Plan {",
            "    val plan = try {\n      planner.plan()\n    } catch (e: IOException) {\n      return FailedPlan(e)\n    } finally {\n      done()\n    }\n    use(plan)\n",
            "  }\n}",
        ),
    );
    env.write(
        "load.go",
        &long_function(
            "package p\n\nfunc run() error {",
            "\tx, err := planner.plan()\n\tif err != nil {\n\t\treturn fmt.Errorf(\"plan: %w\", err)\n\t}\n\tkeep(x)\n",
            "}",
        ),
    );
    let (out, err, code) = env.print(&["--refs", "plan", "-W", "."]);
    assert_eq!(code, 0, "{err}");
    // The handlers after the call, with their bodies; not the lines after the statement.
    for line in [
        "    } catch (e: IOException) {",
        "      return FailedPlan(e)",
        "    } finally {",
        "\tif err != nil {",
        "\t\treturn fmt.Errorf(\"plan: %w\", err)",
    ] {
        assert!(out.contains(&format!(" {line}\n")), "{line}: {out}");
    }
    assert!(
        !out.contains("use(plan)") && !out.contains("keep(x)"),
        "{out}"
    );
}

#[test]
fn function_context_in_prose_shows_the_hits_alone() {
    let env = TestEnv::new();
    env.write(
        "CHANGES.md",
        "# Changes\n\n## 1.2\n\n- fixed the wildcard route\n- faster startup\n- new logo\n",
    );
    let (out, err, code) = env.print(&["--grep", "wildcard", "-W", "CHANGES.md"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "CHANGES.md:L3-7 heading Changes.1.2\n5: - fixed the wildcard route\n# 1 hit in 1 file\n"
    );
}

#[test]
fn refs_of_a_method_leave_out_uses_of_a_namesake_property_and_count_them() {
    let env = TestEnv::new();
    env.write(
        "Planner.kt",
        "interface Planner {\n  fun plan(): Plan\n\n  data class Result(\n    val plan: Plan,\n  )\n}\n\nclass Finder(val planner: Planner) {\n  fun find(): Plan = planner.plan()\n\n  fun ready(result: Planner.Result): Boolean = result.plan.isReady\n\n  fun pass(): List<Plan> = listOf(1).map { planner.plan() }\n}\n",
    );
    let (out, err, code) = env.print(&["--refs", "Planner.plan", "."]);
    assert_eq!(code, 0, "{err}");
    // The calls, not the property of the nested type (a definition of another owner's
    // namesake, as its primary constructor declares it) nor a read of it.
    assert!(
        out.contains("10:   fun find(): Plan = planner.plan()"),
        "{out}"
    );
    assert!(out.contains("14:   fun pass()"), "{out}");
    assert!(
        !out.contains("isReady") && !out.contains("val plan"),
        "{out}"
    );
    assert!(
        out.ends_with("; 1 use with no call left out (a field or property of the same name)\n"),
        "{out}"
    );
    // A name no callable defines keeps every use.
    let (out, _, _) = env.print(&["--refs", "plan", "."]);
    assert!(out.contains("isReady"), "{out}");
}

#[test]
fn a_body_that_repeats_one_above_shows_only_the_lines_that_differ() {
    let env = TestEnv::new();
    let method = |owner: &str, encoding: &str| {
        format!(
            "class {owner}:\n    def open_resource(self, resource, mode=\"rb\", encoding={encoding}):\n        if mode not in {{\"r\", \"rt\", \"rb\"}}:\n            raise ValueError(\"read only\")\n        path = os.path.join(self.root_path, resource)\n        if mode == \"rb\":\n            return open(path, mode)\n        return open(path, mode, encoding=encoding)\n"
        )
    };
    env.write("app.py", &method("Flask", "None"));
    env.write("blueprints.py", &method("Blueprint", "\"utf-8\""));
    let (out, err, code) = env.print(&["--find", "open_resource", "--body", "."]);
    assert_eq!(code, 0, "{err}");
    // One body whole, the other as the line that differs, each numbered in its own file.
    assert_eq!(out.matches("raise ValueError").count(), 1, "{out}");
    assert_eq!(
        out.matches(") above, except (- there, + here):\n").count(),
        1,
        "{out}"
    );
    for line in [
        " 2     def open_resource(self, resource, mode=\"rb\", encoding=None):\n",
        " 2     def open_resource(self, resource, mode=\"rb\", encoding=\"utf-8\"):\n",
    ] {
        assert!(
            out.contains(&format!("-{line}")) || out.contains(&format!("+{line}")),
            "{line}: {out}"
        );
    }
    assert!(
        out.contains("# method: Flask.open_resource (app.py, L2-8)"),
        "{out}"
    );
    assert!(
        out.contains("# method: Blueprint.open_resource (blueprints.py, L2-8)"),
        "{out}"
    );
    // JSON carries every body whole.
    let (json, _, _) = env.print(&["--json", "--find", "open_resource", "--body", "."]);
    assert_eq!(json.matches("raise ValueError").count(), 2, "{json}");
}
