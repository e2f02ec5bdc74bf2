//! JSON and JSON with comments: the whole file is read by the shared bracket scanner, which
//! tolerates comments, trailing commas, missing commas, bare words and unclosed brackets.

use super::flow::{self, Mode};
use super::{Doc, Parent};
use crate::outline::Entry;

pub(super) fn parse(text: &str) -> Vec<Entry> {
    let mut doc = Doc::new(text);
    flow::scan(&mut doc, Mode::Json, 0, Parent::Hidden, Parent::Root, None);
    doc.finish()
}
