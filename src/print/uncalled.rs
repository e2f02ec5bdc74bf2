//! Text `--refs Type.method`: lines whose only uses are member accesses with no call after
//! them (`connectResult.plan.isReady` in a `--refs RoutePlanner.plan`), in languages whose
//! calls need their argument list, are a namesake field or property when the paths define
//! `Type.method` only as a method. The agent trial's "who calls `plan()`" answer listed three
//! such functions whole beside the two callers; they are left out and counted.

use crate::outline::Kind;
use crate::search::HitGroup;

/// A held group: its file as shown, the group, and its rendered text.
pub(super) type Held = (String, HitGroup, String);

/// Whether the definitions found are all callables (and there are some): then a use that
/// does not call is not of them.
pub(super) fn only_callables_defined(definitions: &[Held]) -> bool {
    !definitions.is_empty()
        && definitions.iter().all(|(_, group, _)| {
            group.entry.as_ref().is_some_and(|entry| {
                matches!(
                    entry.kind,
                    Kind::Method | Kind::Function | Kind::Procedure | Kind::Macro
                )
            })
        })
}

/// `uses` without their uncalled member hits (groups left with none go), each changed group
/// rendered again by `render`; and how many hits went.
pub(super) fn without_uncalled(
    uses: Vec<Held>,
    render: impl Fn(&str, &HitGroup) -> String,
) -> (Vec<Held>, usize) {
    let mut dropped = 0;
    let mut kept = Vec::with_capacity(uses.len());
    for (path, mut group, text) in uses {
        let before = group.hits.len();
        group.hits.retain(|hit| !hit.uncalled_member);
        dropped += before - group.hits.len();
        match group.hits.len() {
            0 => continue,
            after if after == before => kept.push((path, group, text)),
            _ => {
                let text = render(&path, &group);
                kept.push((path, group, text));
            }
        }
    }
    (kept, dropped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{EntryRef, Hit};

    fn group(kind: Kind, uncalled: &[bool], definition: bool) -> HitGroup {
        let entry = crate::outline::Entry::new(kind, "plan", 1, 9);
        HitGroup {
            entry: Some(EntryRef::of(&entry, "1".into())),
            hits: uncalled
                .iter()
                .enumerate()
                .map(|(i, &uncalled_member)| Hit {
                    line: i + 2,
                    column: 1,
                    text: String::new(),
                    definition,
                    uncalled_member,
                })
                .collect(),
            context: Vec::new(),
        }
    }

    fn held(group: HitGroup) -> Held {
        ("a.kt".into(), group, "whole".into())
    }

    #[test]
    fn uncalled_uses_go_only_when_every_definition_is_callable() {
        let method = held(group(Kind::Method, &[false], true));
        let field = held(group(Kind::Field, &[false], true));
        assert!(only_callables_defined(std::slice::from_ref(&method)));
        assert!(!only_callables_defined(&[method, field]));
        assert!(!only_callables_defined(&[]));
    }

    #[test]
    fn groups_lose_their_uncalled_hits_and_are_rendered_again() {
        let uses = vec![
            held(group(Kind::Function, &[true, true], false)),
            held(group(Kind::Function, &[true, false], false)),
            held(group(Kind::Function, &[false], false)),
        ];
        let (kept, dropped) =
            without_uncalled(uses, |_, group| format!("{} hits", group.hits.len()));
        assert_eq!(dropped, 3);
        let texts: Vec<&str> = kept.iter().map(|(_, _, text)| text.as_str()).collect();
        assert_eq!(texts, ["1 hits", "whole"]);
    }
}
