//! A tool call's arguments read into its parameter struct. rmcp's own `Parameters` does the
//! same and answers a wrong argument with a JSON-RPC `-32602` invalid-params error, as MCP
//! asks for invalid arguments (and the README promises); but its message is serde's, which
//! quotes the wrong value whole: a 10 MB string where a number belongs came back as a 10 MB
//! error. This wrapper keeps rmcp's error and cuts each quoted value to a short prefix.
//!
//! rmcp's `#[tool]` macro finds the parameter struct by the wrapper's name, `Parameters`, for
//! the tool's input schema; the schema is the struct's own.

use crate::sanitize::{echo, ECHO_CHARS};
use rmcp::handler::server::common::FromContextPart;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::ErrorData;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;

/// Longest message about wrong arguments: room for a few cut values and serde's list of the
/// expected field names.
const MAX_MESSAGE_CHARS: usize = 8 * ECHO_CHARS;

/// A tool's arguments, deserialized from the call's JSON object.
pub struct Parameters<P>(pub P);

impl<P: JsonSchema> JsonSchema for Parameters<P> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        P::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        P::json_schema(generator)
    }
}

impl<S, P: DeserializeOwned> FromContextPart<ToolCallContext<'_, S>> for Parameters<P> {
    fn from_context_part(context: &mut ToolCallContext<S>) -> Result<Self, ErrorData> {
        let arguments = context.arguments.take().unwrap_or_default();
        serde_json::from_value(serde_json::Value::Object(arguments))
            .map(Parameters)
            .map_err(|err| ErrorData::invalid_params(message(&err.to_string()), None))
    }
}

/// serde's message about wrong arguments with every quoted value (`"…"` as serde writes a
/// string, `` `…` `` as it writes a field name) cut to [`ECHO_CHARS`] characters, and the
/// whole to [`MAX_MESSAGE_CHARS`].
fn message(serde_error: &str) -> String {
    let mut message = String::from("invalid arguments: ");
    let mut quoted = String::new();
    let mut closing: Option<char> = None;
    let mut escaped = false;
    for c in serde_error.chars() {
        match closing {
            None => {
                message.push(c);
                if c == '"' || c == '`' {
                    closing = Some(c);
                }
            }
            Some(close) => {
                // serde writes strings with Rust's escapes: `\"` does not end one.
                let ends = c == close && !escaped;
                escaped = close == '"' && c == '\\' && !escaped;
                if ends {
                    message.push_str(&echo(&quoted));
                    message.push(c);
                    quoted.clear();
                    closing = None;
                } else if quoted.len() <= 4 * ECHO_CHARS {
                    quoted.push(c);
                }
            }
        }
    }
    // A quote left open: its value, cut.
    message.push_str(&echo(&quoted));
    echo_at(&message, MAX_MESSAGE_CHARS)
}

/// `text` cut after `limit` characters, with `…` when cut.
fn echo_at(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}…", &text[..cut]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Grep {
        pattern: String,
        context: Option<usize>,
    }

    fn error_for(arguments: serde_json::Value) -> String {
        let err = serde_json::from_value::<Grep>(arguments).expect_err("wrong arguments");
        message(&err.to_string())
    }

    #[test]
    fn a_long_wrong_value_is_cut_and_the_reason_kept() {
        let huge = "x".repeat(10_000_000);
        let said = error_for(serde_json::json!({"pattern": "a", "context": huge}));
        assert!(said.chars().count() < 200, "{}", said.len());
        assert!(
            said.starts_with("invalid arguments: invalid type: string \"xxx"),
            "{said}"
        );
        assert!(said.contains("…\", expected usize"), "{said}");
        let said = error_for(serde_json::json!({"pattern": "a", huge.as_str(): 1}));
        assert!(said.contains("unknown field `xxx"), "{said}");
        assert!(said.contains("expected `pattern` or `context`"), "{said}");
        assert!(said.chars().count() <= MAX_MESSAGE_CHARS + 1, "{said}");
    }

    #[test]
    fn short_values_and_escaped_quotes_come_back_as_they_are() {
        let said = error_for(serde_json::json!({"pattern": "a", "context": "say \"hi\" `x`"}));
        assert_eq!(
            said,
            "invalid arguments: invalid type: string \"say \\\"hi\\\" `x`\", expected usize"
        );
        assert_eq!(
            message("an open \"quote"),
            "invalid arguments: an open \"quote"
        );
    }
}
