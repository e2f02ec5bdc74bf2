//! The entry budget: at most [`MAX_ENTRIES`] entries per outline, however dense the input.
//!
//! Line and byte limits do not bound an outline's memory: `x=1;` repeated over 10 MB is 2.6
//! million Python constants on one line, about 170 bytes each, twice over while the vectors
//! grow (950 MB). Every scanner makes its entries with [`crate::outline::Entry::new`], which
//! counts them here; the entry one past the budget unwinds out of the scanner with a [`Spent`]
//! payload that [`run`] catches, as salsa's `Cancelled::throw` leaves a query: no scanner needs
//! a check of its own, and none can forget one. `resume_unwind` runs no panic hook, so nothing
//! is printed; a real panic inside a scan is passed on untouched.

use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};

/// Entries one outline may hold. Code has about one per line at most (the 50,000-line limit
/// keeps it near there); only dense one-line input (minified data, generated statements)
/// reaches it. Peak memory for the densest 10 MB file stays near 80 MB (benches/memory.sh).
pub const MAX_ENTRIES: usize = 100_000;

thread_local! {
    /// Entries the scan running on this thread may still make; `None` outside [`run`], where
    /// entries are made freely (tests, viewers building entries of their own).
    static LEFT: Cell<Option<usize>> = const { Cell::new(None) };
}

/// What a scan unwinds with when it has made one entry too many.
struct Spent {
    /// The line of the entry that did not fit.
    line: usize,
}

/// Runs `scan` with a budget of `max` entries: its result, or the line of the entry that
/// did not fit once the budget was spent (the caller scans less text and tries again).
pub(crate) fn run<T>(max: usize, scan: impl FnOnce() -> T) -> Result<T, usize> {
    let outer = LEFT.replace(Some(max));
    let result = panic::catch_unwind(AssertUnwindSafe(scan));
    LEFT.set(outer);
    match result {
        Ok(value) => Ok(value),
        Err(payload) => match payload.downcast::<Spent>() {
            Ok(spent) => Err(spent.line),
            Err(other) => panic::resume_unwind(other),
        },
    }
}

/// Counts one entry made at `line`; leaves the scan when the budget is spent.
pub(crate) fn count(line: usize) {
    LEFT.with(|left| match left.get() {
        None => {}
        Some(0) => panic::resume_unwind(Box::new(Spent { line })),
        Some(n) => left.set(Some(n - 1)),
    });
}

/// Runs `build` without counting: for a scanner that counted its entries already, in a form
/// of its own, and now turns them into [`crate::outline::Entry`]s.
pub(crate) fn uncounted<T>(build: impl FnOnce() -> T) -> T {
    let left = LEFT.replace(None);
    let value = build();
    LEFT.set(left);
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scan_stops_one_entry_past_its_budget() {
        let made = |n: usize| {
            run(3, || {
                for line in 1..=n {
                    count(line);
                }
                n
            })
        };
        assert_eq!(made(3), Ok(3));
        assert_eq!(made(10), Err(4));
        // Outside a run nothing is counted, and an uncounted build inside one is free.
        count(1);
        assert_eq!(run(0, || uncounted(|| count(1))), Ok(()));
    }

    #[test]
    fn other_panics_pass_through() {
        let caught = panic::catch_unwind(|| run(3, || panic::resume_unwind(Box::new(7u8))));
        assert!(caught.is_err_and(|payload| payload.is::<u8>()));
    }
}
