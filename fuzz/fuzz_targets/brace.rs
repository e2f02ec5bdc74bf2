#![no_main]
//! Fuzzes the brace family (Java, C#, Kotlin, Swift, PHP): see `outliner_fuzz::check_input`.

use libfuzzer_sys::fuzz_target;
use outliner::Language;

fuzz_target!(|data: &[u8]| outliner_fuzz::check_input(
    &[
        Language::Java,
        Language::CSharp,
        Language::Kotlin,
        Language::Swift,
        Language::Php
    ],
    data
));
