use super::*;

use crate::parse::tests::{kind_tree, row as e, KindRow};

fn shape(text: &str) -> Vec<KindRow> {
    kind_tree(&parse(text))
}

use Kind::{Function as F, Method as M, Variable as V};

#[test]
fn every_function_form_with_its_end() {
    let text = "\
local M = {}
function f() end
local function g(a)
  if a then return 1 end
end
function M.a.b:c(x)
  for i = 1, 2 do print(i) end
  while true do break end
  repeat local y = 1 until y
end
M.h = function() end
local k = function()
  do end
end
M[\"s\"] = function() end
return M
";
    assert_eq!(
        shape(text),
        [
            e(V, "M", 1, 1, 0),
            e(F, "f", 2, 2, 0),
            e(F, "g", 3, 5, 0),
            e(M, "M.a.b.c", 6, 10, 0),
            e(F, "M.h", 11, 11, 0),
            e(F, "k", 12, 14, 0),
            e(F, "M.s", 15, 15, 0),
        ]
    );
}

#[test]
fn long_strings_and_comments_hide_what_looks_like_code() {
    let text = "\
local s = [[
function fake() end
]]
--[==[
function fake2()
]] still comment
]==]
local t = \"end\" -- end
function real()
  return [=[ end ]=], 'end'
end
";
    let functions: Vec<_> = shape(text).into_iter().filter(|s| s.0 == F).collect();
    assert_eq!(functions, [e(F, "real", 9, 11, 0)]);
}

#[test]
fn tables_keep_their_function_fields() {
    let text = "\
local M = {
  name = 'x',
  run = function(self)
    local inner = function() end
  end,
  [\"go\"] = function() end,
  sub = { deep = function() end },
  data = { 1, 2 },
}
local plain = { 1, 2 }
";
    assert_eq!(
        shape(text),
        [
            e(V, "M", 1, 9, 0),
            e(F, "run", 3, 5, 1),
            e(F, "inner", 4, 4, 2),
            e(F, "go", 6, 6, 1),
            e(V, "sub", 7, 7, 1),
            e(F, "deep", 7, 7, 2),
            e(V, "plain", 10, 10, 0),
        ]
    );
}

#[test]
fn nested_functions_are_children_and_callbacks_are_not_entries() {
    let text = "\
function outer()
  local function helper() end
  table.sort(t, function(a, b) return a < b end)
  local x = 1
end
describe('x', function()
  it('y', function() end)
end)
";
    assert_eq!(
        shape(text),
        [e(F, "outer", 1, 5, 0), e(F, "helper", 2, 2, 1)]
    );
}

#[test]
fn top_level_variables_once_each() {
    let text = "\
local a, b <const> = 1, 2
local c
a = 3
d = 4 -- note
x.y = 5
if cond then e = 6 end
for i = 1, 2 do end
";
    let variables: Vec<_> = shape(text).into_iter().map(|s| (s.1, s.2)).collect();
    let want = [("a", 1), ("b", 1), ("c", 2), ("d", 4), ("e", 6)];
    assert_eq!(variables, want.map(|(n, l)| (n.to_string(), l)));
    let d = &parse(text)[3];
    assert_eq!(d.signature.as_deref(), Some("d = 4"));
}

#[test]
fn signatures_are_the_heads() {
    let entries = parse("local function f(a,\n  b)\nend\nM.g = function(x) end\n");
    let heads: Vec<_> = entries.iter().map(|e| e.signature.as_deref()).collect();
    assert_eq!(
        heads,
        [Some("local function f(a, b)"), Some("M.g = function(x)")]
    );
}

#[test]
fn unclosed_input_ends_at_the_last_line() {
    assert_eq!(shape("function f()\n  if x then\n"), [e(F, "f", 1, 2, 0)]);
    assert!(parse("end end until )]}").is_empty());
    assert!(parse("[==[").is_empty());
}
