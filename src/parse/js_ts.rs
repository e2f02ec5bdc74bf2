//! JavaScript/TypeScript outline scanner (stub until the family lands).

use crate::outline::Entry;
use crate::parse::ParseOptions;

pub fn parse(_text: &str, _options: ParseOptions) -> Vec<Entry> {
    Vec::new()
}
