//! outliner: the structure of code and documents, for people and for agents.
//!
//! Data flows one way: path -> [`walk`] -> [`document`] (read, parse, annotate) -> consumers.
//! - [`lang`] maps file names to languages; [`parse`] runs one scanner per language family
//!   and yields the shared [`outline`] model ([`Outline`], [`Entry`], [`Kind`]).
//! - [`document`] loads one file for every consumer: bounded read ([`source`]), outline,
//!   token counts ([`tokens`]) and changes since HEAD.
//! - [`search`] finds definitions, text by enclosing entry, and references across trees.
//! - The consumers are crate-private: the printer (`print`, the `--print` contract), the
//!   interactive viewer (`tui`, with `highlight` colouring its preview) and the MCP server
//!   (`mcp`, the only place tokio runs). The `outline` binary is [`run`].
//! - Text from files reaches a terminal only through `sanitize`, which makes control
//!   characters visible; JSON keeps the exact text.
//! - The parser core (`lang`, `parse`, `outline`) depends on nothing else in the crate.
//!
//! An embedder needs the model, the parse entry points, the document loader and search:
//!
//! ```
//! use outliner::{parse, Language};
//!
//! let outline = parse::outline_text("def f():\n    pass\n", parse::ParseOptions::new(Language::Python));
//! assert_eq!(outline.entries[0].name(), "f");
//! ```

pub mod document;
pub mod lang;
pub mod outline;
pub mod parse;
pub mod search;
pub mod source;
pub mod tokens;
pub mod walk;

mod cli;
mod command;
mod config;
mod error;
mod git;
mod highlight;
mod mcp;
mod parallel;
mod print;
mod sanitize;
mod tui;

/// Not part of the API: what the benches and fuzz targets drive, with no promise of
/// stability (a facade that makes nothing of the viewer or the printer public).
#[doc(hidden)]
pub mod internals;

pub use command::run;
pub use error::{Error, Result};
pub use lang::Language;
pub use outline::{Entry, Kind, Outline};
