#![no_main]
//! Fuzzes the ruby family: see `outliner_fuzz::check_input`.

use libfuzzer_sys::fuzz_target;
use outliner::Language;

fuzz_target!(|data: &[u8]| outliner_fuzz::check_input(&[Language::Ruby], data));
