//! outliner: the structure of code and documents, for people and for agents.
//!
//! Data flows one way: path -> [`walk`] -> [`document`] (read, parse, annotate) -> consumers.
//! - [`lang`] maps file names to languages; [`parse`] runs one scanner per language family
//!   over text masked by [`parse::lex`] and yields the shared [`outline`] model.
//! - [`document`] loads one file for every consumer: bounded read, outline, token counts and
//!   changes since HEAD.
//! - [`print`](mod@print) renders outlines as text or JSON (the `--print` contract); [`tui`] is the
//!   interactive consumer of the same model, with [`highlight`] colouring its preview.
//! - [`mcp`] serves the print modes as Model Context Protocol tools (the only place tokio runs).
//! - Text from files reaches a terminal only through `sanitize`, which makes control
//!   characters visible; JSON keeps the exact text.
//! - The parser core (`lang`, `parse`, `outline`) depends on nothing else in the crate.

pub mod cli;
pub mod config;
pub mod document;
pub mod error;
pub mod git;
pub mod highlight;
pub mod lang;
pub mod mcp;
pub mod outline;
pub(crate) mod parallel;
pub mod parse;
pub mod print;
pub mod sanitize;
pub mod search;
pub mod source;
pub mod tokens;
pub mod tui;
pub mod walk;

pub use error::{Error, Result};
pub use lang::Language;
pub use outline::{Entry, Kind, Outline};
