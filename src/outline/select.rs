//! Selecting parts of an outline: depth and node budgets, symbol lookup.
