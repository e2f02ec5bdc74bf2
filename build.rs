//! Builds the index of each embedded token vocabulary (see src/tokens/table.rs), so that the
//! first token count reads it in place instead of hashing 200,000 tokens at run time.

use std::path::PathBuf;

#[allow(dead_code)]
#[path = "src/tokens/table.rs"]
mod table;

const VOCABULARIES: [&str; 2] = ["o200k_base", "cl100k_base"];

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/tokens/table.rs");
    let Some(out) = std::env::var_os("OUT_DIR").map(PathBuf::from) else {
        panic!("cargo sets OUT_DIR for build scripts");
    };
    for name in VOCABULARIES {
        let source = format!("assets/tokens/{name}.bin");
        println!("cargo::rerun-if-changed={source}");
        let index = std::fs::read(&source)
            .map_err(|error| error.to_string())
            .and_then(|packed| table::build::build_index(&packed));
        match index.and_then(|index| {
            std::fs::write(out.join(format!("{name}.index")), index).map_err(|e| e.to_string())
        }) {
            Ok(()) => {}
            Err(error) => panic!("{source}: {error}"),
        }
    }
}
