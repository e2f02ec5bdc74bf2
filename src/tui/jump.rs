//! The jump list, as in vim and helix: every jump to another place (a picked symbol, a search
//! hit, a reference) remembers where it left; Ctrl-O goes back through those places and the
//! forward key comes back. A new jump from the middle of the list drops the places ahead.
//! Below it, the viewer's jumps themselves ([`App::goto`], [`App::jump`]).

use super::app::{App, Focus};
use super::doc::Doc;
use super::layout;
use super::picker::Overlay;
use std::path::{Path, PathBuf};

/// Places remembered at most; the oldest go first.
const MAX_JUMPS: usize = 100;

/// A place in a file: the preview's cursor and top line (0-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub path: PathBuf,
    pub cursor: usize,
    pub top: usize,
}

/// The places jumped from, and where in them the user is.
#[derive(Debug, Clone, Default)]
pub struct JumpList {
    places: Vec<Location>,
    /// The index of the place shown; `places.len()` when at the newest place, not yet kept.
    at: usize,
}

impl JumpList {
    /// Remembers `here` before a jump away from it.
    pub fn push(&mut self, here: Location) {
        self.places.truncate(self.at);
        if self.places.last() != Some(&here) {
            self.places.push(here);
        }
        if self.places.len() > MAX_JUMPS {
            self.places.remove(0);
        }
        self.at = self.places.len();
    }

    /// The place before `here`, if any; `here` is kept so that [`JumpList::forward`] returns.
    pub fn back(&mut self, here: Location) -> Option<Location> {
        if self.at == 0 {
            return None;
        }
        match self.places.get_mut(self.at) {
            Some(slot) => *slot = here,
            None => self.places.push(here),
        }
        self.at -= 1;
        self.places.get(self.at).cloned()
    }

    /// The place after `here` that [`JumpList::back`] left, if any.
    pub fn forward(&mut self, here: Location) -> Option<Location> {
        if self.at + 1 >= self.places.len() {
            return None;
        }
        self.places[self.at] = here;
        self.at += 1;
        self.places.get(self.at).cloned()
    }

    /// How many places are behind and ahead.
    #[cfg(test)]
    pub fn position(&self) -> (usize, usize) {
        let ahead = self.places.len().saturating_sub(self.at + 1);
        (self.at, ahead)
    }
}

impl App {
    /// Where the preview is, for the jump list.
    pub fn here(&self) -> Option<Location> {
        let doc = self.doc.as_ref().filter(|d| !d.standin)?;
        Some(Location {
            path: doc.path.clone(),
            cursor: self.preview.cursor,
            top: self.preview.top,
        })
    }

    /// Shows `path` with the preview's cursor on 0-based line `cursor` (at the top, or at
    /// `top`) and the outline on the entry holding it; `ready` is the file already loaded.
    pub fn show(&mut self, path: &Path, cursor: usize, top: Option<usize>, ready: Option<Doc>) {
        let open = self.doc.as_ref().is_some_and(|d| d.path == path);
        if !open {
            match ready.filter(|doc| doc.path == path) {
                Some(doc) => {
                    self.loading = None;
                    self.set_doc(doc);
                    self.reveal(path);
                }
                None => self.open(path),
            }
            self.reveal_past_filter(path);
        }
        self.outline.set_filter("");
        self.filtering = false;
        self.preview.cursor = cursor;
        self.preview.top = top.unwrap_or(cursor);
        self.clamp_preview();
        self.follow_cursor();
        self.center_selection();
    }

    /// A jump's file hidden by a directory filter kept from before: the filter goes, so
    /// that the pane shows where the jump went, and the status bar says so.
    fn reveal_past_filter(&mut self, path: &Path) {
        let Some(query) = self.dir.filter_query().map(String::from) else {
            return;
        };
        if self.dir.selected().is_some_and(|n| n.item.path == path) {
            return;
        }
        self.dir.set_filter("");
        if let Some(reach) = &self.reach {
            reach.query("");
        }
        self.reveal(path);
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        self.message = Some(format!("directory filter '{query}' cleared to show {name}"));
    }

    /// After a jump: the outline's and the directory pane's selections shown a third of the
    /// way down their panes when they were out of sight.
    pub fn center_selection(&mut self) {
        let panes = self.panes();
        self.outline
            .scroll_to_show(layout::inner_height(panes.outline));
        if let Some(dir) = panes.dir {
            self.dir.scroll_to_show(layout::inner_height(dir));
        }
    }

    /// Jumps to 1-based `line` of `path`, remembering where the preview was.
    pub fn goto(&mut self, path: &Path, line: usize) {
        if let Some(here) = self.here() {
            self.jumps.push(here);
        }
        self.overlay = Overlay::None;
        // A preview still loading, or read before the file was saved again, is not the file:
        // `open` reads it (on a thread).
        let ready = self
            .peek
            .take()
            .map(|peek| peek.doc)
            .filter(|doc| !doc.loading && super::doc::stamp(&doc.path) == doc.stamp);
        self.peek_loading = None;
        let stale = self
            .doc
            .as_ref()
            .is_some_and(|d| d.path == path && !d.loading && super::doc::stamp(path) != d.stamp);
        self.show(path, line.saturating_sub(1), None, ready);
        if stale {
            // The open file was saved since it was read (the watcher's reload may not have
            // come yet): read it again, so that the jump is checked against it as it is.
            self.reload_doc();
        }
        self.focus = Focus::Outline;
    }

    /// Ctrl-O and the forward key: back to the place before the last jump, or forward again.
    pub fn jump(&mut self, back: bool) {
        let Some(here) = self.here() else {
            // Places are kept on leaving a file: with none open there is no "back" to go to.
            self.message = Some("no file open: the jump list starts from one".into());
            return;
        };
        let target = match back {
            true => self.jumps.back(here),
            false => self.jumps.forward(here),
        };
        match target {
            Some(place) => self.show(&place.path, place.cursor, Some(place.top), None),
            None if back => self.message = Some("no earlier place in the jump list".into()),
            None => self.message = Some("no later place in the jump list".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(path: &str, cursor: usize) -> Location {
        Location {
            path: PathBuf::from(path),
            cursor,
            top: cursor,
        }
    }

    #[test]
    fn back_and_forward_return_to_each_place() {
        let mut jumps = JumpList::default();
        assert_eq!(jumps.back(at("a", 1)), None);
        jumps.push(at("a", 1));
        jumps.push(at("b", 2));
        // Now at c.
        assert_eq!(jumps.back(at("c", 3)), Some(at("b", 2)));
        assert_eq!(jumps.back(at("b", 5)), Some(at("a", 1)));
        assert_eq!(jumps.back(at("a", 1)), None);
        assert_eq!(
            jumps.forward(at("a", 1)),
            Some(at("b", 5)),
            "keeps the moved cursor"
        );
        assert_eq!(jumps.forward(at("b", 5)), Some(at("c", 3)));
        assert_eq!(jumps.forward(at("c", 3)), None);
        assert_eq!(jumps.position(), (2, 0));
    }

    #[test]
    fn a_new_jump_drops_the_places_ahead() {
        let mut jumps = JumpList::default();
        jumps.push(at("a", 1));
        jumps.push(at("b", 2));
        assert_eq!(jumps.back(at("c", 3)), Some(at("b", 2)));
        jumps.push(at("b", 2));
        assert_eq!(jumps.forward(at("d", 4)), None);
        assert_eq!(jumps.back(at("d", 4)), Some(at("b", 2)));
        assert_eq!(jumps.back(at("b", 2)), Some(at("a", 1)));
    }

    #[test]
    fn the_list_is_bounded() {
        let mut jumps = JumpList::default();
        for i in 0..MAX_JUMPS * 2 {
            jumps.push(at("a", i));
        }
        assert_eq!(jumps.position(), (MAX_JUMPS, 0));
    }
}
