//! Property tests over every scanner: generated token soups (see [`super::soup`]) must keep the
//! model's invariants ([`crate::outline::invariants::check`]), and the style of line breaks
//! must not change what is outlined.

use super::soup;
use super::{outline_text, ParseOptions};
use crate::lang::Language;
use crate::outline::invariants::check;
use crate::outline::Outline;
use proptest::prelude::*;

/// Cases per language and property: enough to reach every scanner's corners on each run,
/// few enough that the suite stays fast (the fuzz targets explore further).
const CASES: u32 = 128;

fn outline(text: &str, language: Language, jsx: bool) -> Outline {
    outline_text(
        text,
        ParseOptions {
            language,
            jsx,
            rake: language == Language::Ruby,
        },
    )
}

#[test]
fn every_scanner_keeps_the_model_invariants() {
    for language in Language::ALL {
        let result = soup::runner(CASES).run(&soup::text(language, 96), |text| {
            for jsx in [false, true] {
                let outline = outline(&text, language, jsx);
                if let Err(problem) = check(&outline) {
                    return Err(TestCaseError::fail(format!("{language}: {problem}")));
                }
            }
            Ok(())
        });
        if let Err(failure) = result {
            panic!("{language}: {failure}");
        }
    }
}

/// Kind, name, range and depth of every entry: what must not depend on line-break style.
fn shape(outline: &Outline) -> Vec<(String, String, usize, usize, usize)> {
    outline
        .walk()
        .into_iter()
        .map(|(depth, e)| {
            (
                e.kind.to_string(),
                e.name().to_string(),
                e.line,
                e.end_line,
                depth,
            )
        })
        .collect()
}

#[test]
fn crlf_and_lone_cr_outline_like_lf() {
    for language in Language::ALL {
        let soup = soup::text(language, 64).prop_map(|t| t.replace(['\r'], ""));
        let result = soup::runner(CASES).run(&soup, |text| {
            let lf = shape(&outline(&text, language, true));
            for ending in ["\r\n", "\r"] {
                let other = outline(&text.replace('\n', ending), language, true);
                prop_assert_eq!(&shape(&other), &lf, "{} with {:?}", language, ending);
            }
            Ok(())
        });
        if let Err(failure) = result {
            panic!("{language}: {failure}");
        }
    }
}

/// Minimal inputs these properties once failed on, kept so that they stay fixed whatever
/// cases the generator draws.
#[test]
fn regressions_found_by_the_properties() {
    let cases: &[(Language, &str)] = &[
        // A backslash before `\r\n` escapes the whole line break (C, JS and Python strings).
        (Language::C, "f())x\"\\\n{"),
        (
            Language::JavaScript,
            "\"\\\nfunction enum function function ",
        ),
        (Language::Python, "\n\ndef f\"f\"'\\\n'''"),
        // A newline right at the start of a scan is one whether `\n` or `\r\n`.
        (Language::JavaScript, "type a\nfunction "),
        // An escaped line break does not continue a regex literal.
        (Language::JavaScript, "interface <div>*/\\\ninterface ¡//"),
        // An unclosed CSS string ends with its line, `{` included.
        (Language::Css, "\"#{\n"),
        // An unclosed TOML string ends before the `\r` of its line break.
        (Language::Toml, "[\"\n"),
    ];
    for (language, text) in cases {
        let lf = outline(text, *language, true);
        assert_eq!(check(&lf), Ok(()), "{language}: {text:?}");
        for ending in ["\r\n", "\r"] {
            let other = outline(&text.replace('\n', ending), *language, true);
            assert_eq!(
                shape(&other),
                shape(&lf),
                "{language}: {text:?} with {ending:?}"
            );
        }
    }
    // Names and signatures are one line whatever the scanner read.
    let namespace = outline("declare module ¡<\nfunction ", Language::TypeScript, false);
    assert_eq!(check(&namespace), Ok(()));
    // An unclosed CSS string swallows the `{` of its line: no rule.
    assert!(outline("\"#{\n", Language::Css, false).is_empty());
}
