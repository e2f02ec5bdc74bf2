//! Answers cut to what an agent needs (issue 28's trial): `-W` around the hit in a function
//! longer than a screen, one overload by its parameters, `Type.method` uses on the implicit
//! `this`, and local variables that only share the name left out of `--refs`.

use super::util::TestEnv;

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
