//! Tables: a `CREATE TABLE` head's signature (`users (3 columns)`) and its columns as
//! [`Kind::Field`] children, table constraints and index lines left out.

use super::scan::Tok;
use super::{unquote, Head};
use crate::outline::{Entry, Kind};
use crate::parse::LineIndex;

/// First words of a table element that is a constraint, not a column.
const CONSTRAINT_WORDS: &[&str] = &[
    "CONSTRAINT",
    "PRIMARY",
    "FOREIGN",
    "UNIQUE",
    "CHECK",
    "EXCLUDE",
    "LIKE",
    "FULLTEXT",
    "SPATIAL",
    "PERIOD",
];

/// Types that take a parenthesised argument: `key varchar(20)` is a column named `key`.
const SIZED_TYPES: &[&str] = &[
    "VARCHAR",
    "CHAR",
    "CHARACTER",
    "NVARCHAR",
    "NCHAR",
    "VARBINARY",
    "BINARY",
    "DECIMAL",
    "NUMERIC",
    "NUMBER",
    "FLOAT",
    "DOUBLE",
    "REAL",
    "BIT",
    "INT",
    "INTEGER",
    "TINYINT",
    "SMALLINT",
    "MEDIUMINT",
    "BIGINT",
    "TIMESTAMP",
    "TIME",
    "DATETIME",
    "DATETIME2",
    "ENUM",
    "SET",
    "VARCHAR2",
    "NVARCHAR2",
    "RAW",
];

impl Head<'_> {
    /// The signature of a table (`users (3 columns)`) and its columns.
    pub(super) fn table(
        &self,
        from: usize,
        after: usize,
        index: &LineIndex,
    ) -> (String, Vec<Entry>) {
        let name = self.joined(from, after);
        // ClickHouse: `CREATE TABLE t ON CLUSTER c (…)`.
        let after = if self.is(after, "ON") && self.is(after + 1, "CLUSTER") {
            after + 3
        } else {
            after
        };
        if !self.is_punct(after, b'(') {
            return (name, Vec::new());
        }
        let close = self.skip_group(after);
        if self.is(close, "AS") {
            // `CREATE TABLE t (a, b) AS SELECT …`: a column name list, not definitions.
            return (name, Vec::new());
        }
        let mut columns = Vec::new();
        let mut element = after + 1;
        let mut i = element;
        let mut depth = 0usize;
        while i < close {
            match self.tok(i).map(|t| t.kind) {
                Some(Tok::Punct(b'(')) => depth += 1,
                Some(Tok::Punct(b')')) if depth > 0 => depth -= 1,
                Some(Tok::Punct(b',' | b')')) if depth == 0 => {
                    if let Some(column) = self.column(element, i, index) {
                        columns.push(column);
                    }
                    element = i + 1;
                }
                _ => {}
            }
            i += 1;
        }
        let count = columns.len();
        let sig = match count {
            0 => name,
            1 => format!("{name} (1 column)"),
            n => format!("{name} ({n} columns)"),
        };
        (sig, columns)
    }

    /// A column definition spanning tokens `from..to`, unless it is a table constraint.
    fn column(&self, from: usize, to: usize, index: &LineIndex) -> Option<Entry> {
        if from >= to {
            return None;
        }
        let first = self.tok(from)?;
        if self.is_any(from, CONSTRAINT_WORDS) {
            return None;
        }
        let index_body = |k: usize| {
            self.is_punct(k, b'(')
                || self.is_any(k, &["USING", "CLUSTERED", "NONCLUSTERED", "UNIQUE"])
        };
        if self.is_any(from, &["KEY", "INDEX"])
            && (self.is_punct(from + 1, b'(')
                || index_body(from + 2) && !self.is_any(from + 1, SIZED_TYPES)
                || self.tok(from + 1).is_some_and(|t| t.kind == Tok::Quoted))
        {
            return None;
        }
        let name = match first.kind {
            Tok::Word => self.src(first).to_string(),
            Tok::Quoted => unquote(self.src(first)),
            Tok::Punct(b'[') => self.name(from)?.0,
            _ => return None,
        };
        if from + 1 >= to && first.kind == Tok::Word {
            // A bare word alone (`LIKE`-less inheritance lists, typos): not a definition.
            return None;
        }
        let last = self.tok(to - 1)?;
        Some(
            Entry::new(
                Kind::Field,
                name,
                index.line_of(first.start),
                index.line_of(last.end.saturating_sub(1).max(first.start)),
            )
            .with_signature(self.joined(from, to)),
        )
    }
}
