//! A tool call from request to result: run it (see [`super::call`]), attach the file's hash,
//! and keep the answer within its `max_tokens`, cutting at an entry or line boundary with a
//! note that says how to ask for the rest.
//!
//! The result's first content block is the answer; a second one, when present, carries the
//! notes (other matches, skipped files, and in JSON mode the cut note, so the JSON stays
//! parseable). Text answers about one file end with a `hash: xxh3:…` line; JSON answers carry
//! `"hash"` in their objects, as on the command line.

use super::budget;
use super::call::{self, Printed};
use super::params::{Request, Shape};
use crate::config::Config;
use rmcp::model::{CallToolResult, ContentBlock};
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// The smallest `max_tokens` a call may ask for: room for a few lines and the notes.
pub const MIN_MAX_TOKENS: usize = 200;

/// Tokens kept free for the hash line and the cut note.
const NOTE_RESERVE: usize = 80;

/// What one call needs besides its request.
pub struct Context<'a> {
    pub root: &'a Path,
    pub max_tokens: usize,
    pub cancel: &'a AtomicBool,
}

/// Runs `request` and shapes its result.
pub fn answer(request: &Request, context: &Context) -> CallToolResult {
    match shaped(request, context) {
        Ok((body, notes)) => {
            let mut content = vec![ContentBlock::text(body)];
            if !notes.trim().is_empty() {
                content.push(ContentBlock::text(notes));
            }
            CallToolResult::success(content)
        }
        Err(message) => CallToolResult::error(vec![ContentBlock::text(message)]),
    }
}

fn shaped(request: &Request, context: &Context) -> Result<(String, String), String> {
    let max_tokens = context.max_tokens;
    if max_tokens < MIN_MAX_TOKENS {
        return Err(format!(
            "max_tokens must be at least {MIN_MAX_TOKENS}, not {max_tokens}"
        ));
    }
    let config = call::config(context.root, request)?;
    let hash = call::file_hash(&config, request)?;
    let (out, notes, overflowed) = run(&config, context)?;
    let mut notes = cap_notes(notes, max_tokens / 4);
    let hash_line = match (&hash, request.json) {
        (Some(hash), false) => format!("hash: {hash}\n"),
        _ => String::new(),
    };
    // Bytes bound tokens from above: a short answer is never counted.
    let short = out.len() + notes.len() + hash_line.len() <= max_tokens;
    let budget = match short {
        true => max_tokens,
        false => max_tokens.saturating_sub(budget::count(&notes) + NOTE_RESERVE),
    };
    let fit = Fit {
        max_tokens,
        budget,
        overflowed,
        tool: request.tool,
        file: request
            .paths
            .first()
            .filter(|_| hash.is_some())
            .map(String::as_str),
    };
    let (mut body, cut_note) = if !overflowed && (short || budget::fits(&out, budget)) {
        (out, None)
    } else if request.shape() == Shape::Outline && hash.is_some() {
        fit.by_nodes(request, context, out)?
    } else if request.json {
        fit.json(request, out)?
    } else {
        fit.by_lines(request.shape(), out)
    };
    match (cut_note, request.json) {
        (Some(note), false) => body.push_str(&format!("{note}\n")),
        (Some(note), true) => notes.push_str(&format!("{note}\n")),
        (None, _) => {}
    }
    body.push_str(&hash_line);
    Ok((body, notes))
}

/// The answer of one run: output, notes, and whether output was stopped at the capture limit.
fn run(config: &Config, context: &Context) -> Result<(String, String, bool), String> {
    match call::run(config, capture_limit(context.max_tokens), context.cancel) {
        Printed::Answer {
            out,
            notes,
            overflowed,
        } => Ok((out, notes, overflowed)),
        Printed::Error(message) => Err(message),
    }
}

/// Output captured per run: far more bytes than `max_tokens` can hold (so a cut is decided by
/// counting), yet bounded (so a huge folder's JSON stops early). At least 1 MiB, which is more
/// than any single read prints (100 KB).
fn capture_limit(max_tokens: usize) -> usize {
    max_tokens.saturating_mul(32).max(1024 * 1024)
}

/// Notes past a quarter of the budget are cut too: a walk's messages must not flood either.
fn cap_notes(notes: String, max: usize) -> String {
    match budget::cut_point(&notes, max) {
        None => notes,
        Some(cut) => format!("{}[… more notes not shown]\n", &notes[..cut]),
    }
}

/// How an over-budget answer is cut.
struct Fit<'a> {
    max_tokens: usize,
    /// Tokens the body may use.
    budget: usize,
    overflowed: bool,
    tool: &'static str,
    /// The one file the answer is about, when it is.
    file: Option<&'a str>,
}

impl Fit<'_> {
    /// A single file's outline: the largest `max_nodes` whose answer fits, so the cut is the
    /// contract's own (breadth first, cut nodes marked, omitted entries counted).
    fn by_nodes(
        &self,
        request: &Request,
        context: &Context,
        out: String,
    ) -> Result<(String, Option<String>), String> {
        let shown = match request.json {
            true => out.matches("\"id\":").count(),
            false => out.lines().count(),
        };
        let (mut good, mut bad) = (0, shown.max(1));
        let mut best = None;
        while bad - good > 1 {
            let nodes = (good + bad) / 2;
            let (candidate, _, overflowed) =
                run(&with_max_nodes(request, nodes, context)?, context)?;
            if !overflowed && budget::fits(&candidate, self.budget) {
                (good, best) = (nodes, Some(candidate));
            } else {
                bad = nodes;
            }
        }
        let Some(best) = best else {
            // Not even one entry fits (a huge signature or limit line): cut by lines.
            return match request.json {
                true => self.json(request, out),
                false => Ok(self.by_lines(Shape::Outline, out)),
            };
        };
        let note = format!(
            "[cut to fit max_tokens={}: the first {good} entries, breadth first (as max_nodes={good}); \
             read a cut entry's members with the symbol tool and depth, or raise max_tokens]",
            self.max_tokens
        );
        Ok((best, Some(note)))
    }

    /// Text cut at the last line that fits, with a note naming what was left out.
    fn by_lines(&self, shape: Shape, out: String) -> (String, Option<String>) {
        let cut = budget::cut_point(&out, self.budget).unwrap_or(out.len());
        let (kept, dropped) = out.split_at(cut);
        let mut body = kept.to_string();
        if kept.is_empty() {
            // One line longer than the whole budget: keep what fits of it.
            let first = dropped.lines().next().unwrap_or_default();
            body = format!("{}…\n", budget::line_prefix(first, self.budget));
        }
        let note = self.cut_note(shape, dropped);
        (body, Some(note))
    }

    /// JSON: JSON Lines lose whole lines and end with the contract's note object; a single
    /// read object loses the end of its `text`.
    fn json(&self, request: &Request, out: String) -> Result<(String, Option<String>), String> {
        if out.lines().nth(1).is_none() && out.contains("\"start_line\":") {
            return self.json_read(out);
        }
        let cut = budget::cut_point(&out, self.budget).unwrap_or(out.len());
        let (kept, dropped) = out.split_at(cut);
        let omitted = dropped.lines().count();
        if kept.is_empty() {
            return Err(format!(
                "the answer's first JSON object alone is over max_tokens={}; raise max_tokens \
                 or ask for less (a smaller depth or max_nodes)",
                self.max_tokens
            ));
        }
        let marker = serde_json::json!({
            "truncated": true,
            "truncation_reason": "max_tokens",
            "omitted": omitted,
        });
        let body = format!("{kept}{marker}\n");
        Ok((body, Some(self.cut_note(request.shape(), dropped))))
    }

    /// A read object (`symbol`, `read`, `lines` with json): its `text` is cut by lines and the
    /// object says so (`truncated`, `truncation_reason`, a smaller `end_line`).
    fn json_read(&self, out: String) -> Result<(String, Option<String>), String> {
        let mut object: serde_json::Value =
            serde_json::from_str(&out).map_err(|err| format!("unexpected answer: {err}"))?;
        let text = object["text"].as_str().unwrap_or_default().to_string();
        object["text"] = serde_json::Value::from("");
        let frame = budget::count(&object.to_string());
        let room = self.budget.saturating_sub(frame);
        let cut = budget::cut_point(&text, room).unwrap_or(text.len());
        let (kept, dropped) = text.split_at(cut);
        let note = if self.tool == "read" {
            // `read` numbers its lines (its text has notes and an outline between them).
            if let Some(last) = numbered_lines(kept).last() {
                object["end_line"] = (*last).into();
            }
            self.cut_note(Shape::Lines, dropped)
        } else {
            // `symbol` and `lines` carry the lines as written, from `start_line`.
            let start = object["start_line"].as_u64().unwrap_or(1) as usize;
            let end = object["end_line"].as_u64().unwrap_or(0) as usize;
            let kept_end = (start + kept.lines().count()).saturating_sub(1);
            object["end_line"] = kept_end.into();
            self.range_cut_note(kept_end + 1, end.max(kept_end + 1))
        };
        object["text"] = kept.into();
        object["truncated"] = true.into();
        object["truncation_reason"] = "max_tokens".into();
        let body = format!("{object}\n");
        Ok((body, Some(note)))
    }

    /// The note after a cut: what was left out and how to ask for it.
    fn cut_note(&self, shape: Shape, dropped: &str) -> String {
        let head = format!("[cut to fit max_tokens={}:", self.max_tokens);
        let numbers = numbered_lines(dropped);
        let more = match self.overflowed {
            true => format!("at least {}", dropped.lines().count()),
            false => dropped.lines().count().to_string(),
        };
        if let (Some(first), Some(last), false) =
            (numbers.first(), numbers.last(), shape == Shape::Outline)
        {
            return self.range_cut_note(*first, *last);
        }
        let narrow = match (shape, self.tool) {
            (Shape::Outline, _) => "outline a subfolder or one file, use a smaller depth",
            (_, "find") => "narrow with kind, path or glob, or a qualified name (Type.name)",
            _ => "narrow with path or glob, or lower max_results",
        };
        format!("{head} {more} more lines not shown; {narrow}, or raise max_tokens]")
    }

    /// The note after a body or range was cut: the lines left, and how to read them (the
    /// file named when there is one).
    fn range_cut_note(&self, first: usize, last: usize) -> String {
        let range = format!("\"range\": \"{first}:{last}\"");
        let arguments = match self.file {
            Some(file) => format!("{{\"path\": {}, {range}}}", serde_json::json!(file)),
            None => format!("{{{range}}} on that file"),
        };
        format!(
            "[cut to fit max_tokens={}: lines {first}-{last} not shown; read them with the lines tool, {arguments}]",
            self.max_tokens
        )
    }
}

/// The request with its `max_nodes` replaced by `nodes`, as a configuration.
fn with_max_nodes(request: &Request, nodes: usize, context: &Context) -> Result<Config, String> {
    let mut request = request.clone();
    request
        .flags
        .retain(|flag| !flag.starts_with("--max-nodes="));
    request.flags.push(format!("--max-nodes={nodes}"));
    call::config(context.root, &request)
}

/// The line numbers of `<n> text` lines (and `<n>` alone, a blank one), in order.
fn numbered_lines(text: &str) -> Vec<usize> {
    text.lines()
        .filter_map(|line| line.split(' ').next()?.parse().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_lines_are_read_back() {
        assert_eq!(
            numbered_lines("12 a\n13\n14   b: c\n[note]\n# x\nL5-9 fn f\n"),
            vec![12, 13, 14]
        );
    }

    #[test]
    fn a_cut_note_names_the_range_left() {
        let fit = Fit {
            max_tokens: 500,
            budget: 400,
            overflowed: false,
            tool: "lines",
            file: Some("src/app.py"),
        };
        let note = fit.cut_note(Shape::Lines, "40 x\n41\n");
        assert!(
            note.contains(r#"{"path": "src/app.py", "range": "40:41"}"#),
            "{note}"
        );
        let note = fit.cut_note(Shape::Results, "a\nb\nc\n");
        assert!(note.contains("3 more lines"), "{note}");
    }
}
