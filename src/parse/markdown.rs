//! markdown outline scanner (stub until the family lands).

use crate::outline::Entry;

pub fn parse(_text: &str) -> Vec<Entry> {
    Vec::new()
}
