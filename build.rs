//! Builds the index and the pair table of each embedded token vocabulary (see
//! src/tokens/table.rs), so that the first token count reads them in place instead of hashing
//! 200,000 tokens at run time.

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
        let built = std::fs::read(&source)
            .map_err(|error| error.to_string())
            .and_then(|packed| {
                let index = table::build::build_index(&packed)?;
                let pairs = table::build::build_pairs(&packed)?;
                let write = |suffix: &str, bytes: Vec<u8>| {
                    std::fs::write(out.join(format!("{name}.{suffix}")), bytes)
                        .map_err(|error| error.to_string())
                };
                write("index", index)?;
                write("pairs", pairs)
            });
        if let Err(error) = built {
            panic!("{source}: {error}");
        }
    }
}
