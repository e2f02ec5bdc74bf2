//! End-to-end tests of the `outline` binary (one integration test binary, modules below).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a failing test should panic loudly

mod cli {
    pub mod bad_input;
    pub mod contract;
    pub mod errors;
    pub mod escapes;
    pub mod git;
    pub mod golden;
    pub mod lean_answers;
    pub mod limits;
    pub mod mcp;
    pub mod mcp_raw;
    pub mod node_python_scripts;
    pub mod print_dir;
    pub mod print_file;
    pub mod read;
    pub mod sandbox;
    pub mod scripts;
    pub mod search;
    pub mod structure;
    pub mod tokens;
    pub mod tui;
    pub mod type_picture;
    pub mod util;
}
